/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for stop-and-wait reliable delivery (app/core/nb_link.c).
 *
 * A client and a responder link talk over a simulated network that loses,
 * duplicates and delays (hence reorders) datagrams, driven by a
 * deterministic PRNG and an event-driven clock: time jumps to the next
 * delivery or link event, so retransmission times are exact.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_ctl.h"
#include "nb_link.h"
#include "nb_test_util.h"

#define MS UINT64_C(1000000)
#define US UINT64_C(1000)

/* The simulated network. */

#define NET_QCAP 256

struct dgram {
	int used;
	int dst;     /* 0 client, 1 responder */
	uint64_t at; /* delivery time */
	uint64_t id; /* send order, per destination */
	size_t len;
	uint8_t data[NB_CTL_MAX_LEN];
};

struct net {
	uint64_t rng;
	uint32_t loss_pct, dup_pct;
	uint64_t delay_min, delay_max;
	struct dgram q[NET_QCAP];
	uint64_t next_id[2];
	uint64_t max_delivered_id[2];
	uint64_t sent, lost, duplicated, delivered, reordered;
};

static void
net_init(struct net *n, uint64_t seed, uint32_t loss_pct, uint32_t dup_pct,
	 uint64_t delay_min, uint64_t delay_max)
{
	memset(n, 0, sizeof(*n));
	n->rng = seed;
	n->loss_pct = loss_pct;
	n->dup_pct = dup_pct;
	n->delay_min = delay_min;
	n->delay_max = delay_max;
}

static void
net_send(struct net *n, int dst, const uint8_t *buf, size_t len, uint64_t now)
{
	uint32_t copies = 1, c, i;

	assert_true(len <= NB_CTL_MAX_LEN);
	n->sent++;
	if (rng_below(&n->rng, 100) < n->loss_pct) {
		n->lost++;
		return;
	}
	if (rng_below(&n->rng, 100) < n->dup_pct) {
		copies = 2;
		n->duplicated++;
	}
	for (c = 0; c < copies; c++) {
		for (i = 0; i < NET_QCAP && n->q[i].used; i++)
			;
		assert_true(i < NET_QCAP); /* the queue never fills here */
		n->q[i].used = 1;
		n->q[i].dst = dst;
		n->q[i].at =
			now + n->delay_min +
			rng_below(&n->rng, n->delay_max - n->delay_min + 1);
		n->q[i].id = ++n->next_id[dst];
		n->q[i].len = len;
		memcpy(n->q[i].data, buf, len);
	}
}

/* The earliest datagram due at or before now (lowest at, then id). */
static struct dgram *
net_due(struct net *n, uint64_t now)
{
	struct dgram *best = NULL;
	uint32_t i;

	for (i = 0; i < NET_QCAP; i++) {
		struct dgram *d = &n->q[i];

		if (!d->used || d->at > now)
			continue;
		if (best == NULL || d->at < best->at ||
		    (d->at == best->at && d->id < best->id))
			best = d;
	}
	return best;
}

static uint64_t
net_next_at(const struct net *n)
{
	uint64_t t = UINT64_MAX;
	uint32_t i;

	for (i = 0; i < NET_QCAP; i++)
		if (n->q[i].used && n->q[i].at < t)
			t = n->q[i].at;
	return t;
}

/* The two ends and their applications. */

#define N_MSGS	 50
#define BLOB_LEN (N_MSGS * NB_CTL_CHUNK - 300) /* 50 RESULTS parts */

struct end {
	int side; /* 0 client, 1 responder */
	uint32_t session;
	struct nb_link link;
	uint64_t acks_sent;
	uint64_t dups_seen;
	uint64_t skipped; /* nb_link_accept() == -EPROTO */
	/* client: requests 0..N_MSGS-1, replies reassembled */
	uint32_t next_req;
	int waiting_reply;
	uint32_t nb_replies;
	uint32_t replies[N_MSGS];
	uint8_t *blob; /* reassembly */
	/* responder: requests seen in order, reply owed */
	uint32_t nb_reqs;
	uint32_t reqs[N_MSGS];
	int reply_due;
	uint32_t reply_part;
	const uint8_t *src_blob;
};

static void
send_ack(struct net *n, struct end *e, uint32_t seq, uint64_t now)
{
	struct nb_ctl_msg a;
	uint8_t buf[NB_CTL_HDR_LEN];

	nb_ctl_msg_init(&a, NB_CTL_ACK, e->session);
	a.seq = seq;
	assert_int_equal(nb_ctl_encode(&a, buf, sizeof(buf)), NB_CTL_HDR_LEN);
	net_send(n, !e->side, buf, sizeof(buf), now);
	e->acks_sent++;
}

/* The application's handling of a new (first-time) message. */
static void
app_process(struct end *e, const struct nb_ctl_msg *m)
{
	if (e->side == 1) {
		assert_int_equal(m->type, NB_CTL_RESULTS_REQ);
		assert_true(e->nb_reqs < N_MSGS);
		e->reqs[e->nb_reqs++] = m->u.rreq.part;
		assert_false(e->reply_due);
		e->reply_due = 1;
		e->reply_part = m->u.rreq.part;
	} else {
		assert_int_equal(m->type, NB_CTL_RESULTS);
		assert_true(e->nb_replies < N_MSGS);
		assert_true(e->waiting_reply);
		e->replies[e->nb_replies++] = m->u.res.part;
		assert_int_equal(
			nb_ctl_results_put(e->blob, BLOB_LEN, &m->u.res), 0);
		e->waiting_reply = 0;
	}
}

static void
end_receive(struct net *n, struct end *e, const uint8_t *buf, size_t len,
	    uint64_t now)
{
	struct nb_ctl_msg m;
	int rc;

	assert_int_equal(nb_ctl_decode(buf, len, &m), 0);
	assert_int_equal(m.session, e->session);
	if (m.type == NB_CTL_ACK) {
		(void)nb_link_on_ack(&e->link, m.seq, now);
		return;
	}
	rc = nb_link_accept(&e->link, &m);
	if (rc == 1) {
		app_process(e, &m);
		send_ack(n, e, m.seq, now);
	} else if (rc == 0) {
		e->dups_seen++;
		send_ack(n, e, m.seq, now);
	} else {
		assert_int_equal(rc, -EPROTO);
		e->skipped++;
	}
}

/* What the applications want to send now. */
static void
end_app(struct end *e, uint64_t now)
{
	struct nb_ctl_msg m;

	if (e->link.pending)
		return;
	if (e->side == 0 && !e->waiting_reply && e->next_req < N_MSGS) {
		nb_ctl_msg_init(&m, NB_CTL_RESULTS_REQ, e->session);
		m.u.rreq.part = e->next_req;
		assert_int_equal(nb_link_send(&e->link, &m, now), 0);
		e->next_req++;
		e->waiting_reply = 1;
	} else if (e->side == 1 && e->reply_due) {
		nb_ctl_msg_init(&m, NB_CTL_KEEPALIVE, e->session);
		assert_int_equal(nb_ctl_results_chunk(&m, e->src_blob, BLOB_LEN,
						      e->reply_part),
				 0);
		assert_int_equal(nb_link_send(&e->link, &m, now), 0);
		e->reply_due = 0;
	}
}

static void
end_poll(struct net *n, struct end *e, uint64_t now)
{
	const uint8_t *buf;
	size_t len;
	enum nb_link_action a;

	a = nb_link_poll(&e->link, now, &buf, &len);
	if (a == NB_LINK_TRANSMIT)
		net_send(n, !e->side, buf, len, now);
	else
		assert_int_equal(a, NB_LINK_IDLE); /* never TIMEOUT here */
}

static uint64_t
min3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m = a < b ? a : b;

	return m < c ? m : c;
}

struct sim_totals {
	uint64_t lost, duplicated, reordered, retransmits, dups_seen;
	uint64_t rtt_samples;
};

/* One complete exchange of N_MSGS requests and replies. */
static void
run_exchange(uint64_t seed, uint32_t loss, uint32_t dup, struct sim_totals *tot)
{
	struct net *n = malloc(sizeof(*n));
	struct end *c = calloc(1, sizeof(*c));
	struct end *r = calloc(1, sizeof(*r));
	uint8_t *src = malloc(BLOB_LEN);
	uint64_t now = 1000, next, rs = seed * 7919;
	struct dgram *d;
	uint32_t i, steps = 0;

	assert_non_null(n);
	assert_non_null(c);
	assert_non_null(r);
	assert_non_null(src);
	for (i = 0; i < BLOB_LEN; i++)
		src[i] = (uint8_t)rng_next(&rs);
	net_init(n, seed, loss, dup, 50 * US, 3 * MS);
	c->side = 0;
	r->side = 1;
	c->session = r->session = 0xc0ffee00u + (uint32_t)seed;
	c->blob = calloc(1, BLOB_LEN);
	assert_non_null(c->blob);
	r->src_blob = src;
	assert_int_equal(nb_link_init(&c->link, 2 * MS, 16 * MS, 10000 * MS),
			 0);
	assert_int_equal(nb_link_init(&r->link, 2 * MS, 16 * MS, 10000 * MS),
			 0);
	assert_int_equal(nb_ctl_results_parts(BLOB_LEN), N_MSGS);

	for (;;) {
		assert_true(++steps < 10000000);
		while ((d = net_due(n, now)) != NULL) {
			if (d->id < n->max_delivered_id[d->dst])
				n->reordered++;
			else
				n->max_delivered_id[d->dst] = d->id;
			n->delivered++;
			d->used = 0;
			end_receive(n, d->dst ? r : c, d->data, d->len, now);
		}
		end_app(c, now);
		end_app(r, now);
		end_poll(n, c, now);
		end_poll(n, r, now);
		if (c->nb_replies == N_MSGS && !c->link.pending &&
		    !r->link.pending)
			break;
		next = min3(net_next_at(n), nb_link_next_event(&c->link),
			    nb_link_next_event(&r->link));
		assert_true(next != UINT64_MAX); /* no deadlock */
		assert_true(next > now);
		now = next;
	}

	/* exactly once each, in order, both ways */
	assert_int_equal(r->nb_reqs, N_MSGS);
	assert_int_equal(c->nb_replies, N_MSGS);
	for (i = 0; i < N_MSGS; i++) {
		assert_int_equal(r->reqs[i], i);
		assert_int_equal(c->replies[i], i);
	}
	assert_memory_equal(c->blob, src, BLOB_LEN);
	assert_int_equal(c->link.sent, N_MSGS);
	assert_int_equal(r->link.sent, N_MSGS);
	assert_int_equal(c->link.acked, N_MSGS);
	assert_int_equal(r->link.acked, N_MSGS);
	assert_int_equal(c->link.timeouts + r->link.timeouts, 0);
	/* stop-and-wait never lets a message skip ahead */
	assert_int_equal(c->skipped + r->skipped, 0);
	assert_int_equal(c->link.duplicates, c->dups_seen);
	assert_int_equal(r->link.duplicates, r->dups_seen);
	assert_int_equal(r->link.last_rx_seq, N_MSGS);
	assert_int_equal(c->link.last_rx_seq, N_MSGS);

	tot->lost += n->lost;
	tot->duplicated += n->duplicated;
	tot->reordered += n->reordered;
	tot->retransmits += c->link.retransmits + r->link.retransmits;
	tot->dups_seen += c->dups_seen + r->dups_seen;
	tot->rtt_samples += c->link.rtt_samples + r->link.rtt_samples;

	free(c->blob);
	free(src);
	free(c);
	free(r);
	free(n);
}

static void
test_lossy_exchange(void **state)
{
	struct sim_totals t;
	uint64_t seed;

	(void)state;
	memset(&t, 0, sizeof(t));
	for (seed = 1; seed <= 20; seed++)
		run_exchange(seed, 30, 20, &t);
	print_message("20 runs x %d messages each way: %" PRIu64
		      " lost, %" PRIu64 " duplicated, %" PRIu64
		      " reordered, %" PRIu64 " retransmits, %" PRIu64
		      " duplicates re-acked\n",
		      N_MSGS, t.lost, t.duplicated, t.reordered, t.retransmits,
		      t.dups_seen);
	/* the network did what it was asked to, and the links coped */
	assert_true(t.lost > 1000);
	assert_true(t.duplicated > 500);
	assert_true(t.reordered > 100);
	assert_true(t.retransmits > 1000);
	assert_true(t.dups_seen > 500);
	assert_true(t.rtt_samples > 0);
}

static void
test_perfect_network(void **state)
{
	struct sim_totals t;

	(void)state;
	memset(&t, 0, sizeof(t));
	/* delay <= 3 ms > rto_min 2 ms: some spurious retransmissions */
	run_exchange(99, 0, 0, &t);
	assert_int_equal(t.lost, 0);
	assert_int_equal(t.duplicated, 0);
	/* heavy loss: 60 % each way still completes */
	run_exchange(100, 60, 30, &t);
}

/* Queue a KEEPALIVE on l at now. */
static void
send_ka(struct nb_link *l, uint64_t now, uint32_t *seq)
{
	struct nb_ctl_msg m;

	nb_ctl_msg_init(&m, NB_CTL_KEEPALIVE, 77);
	m.u.ka.sender_ns = now;
	assert_int_equal(nb_link_send(l, &m, now), 0);
	if (seq != NULL)
		*seq = m.seq;
}

/*
 * Step through a message's life polling exactly at each event (and one ns
 * before it); return the transmission times and the timeout time.
 */
static uint32_t
collect_times(struct nb_link *l, uint64_t *times, uint32_t max,
	      uint64_t *timeout_at)
{
	const uint8_t *buf;
	size_t len;
	uint32_t k = 0;
	uint64_t ev;
	enum nb_link_action a;

	for (;;) {
		ev = nb_link_next_event(l);
		assert_true(ev != UINT64_MAX);
		if (k > 0)
			assert_int_equal(nb_link_poll(l, ev - 1, &buf, &len),
					 NB_LINK_IDLE);
		a = nb_link_poll(l, ev, &buf, &len);
		if (a == NB_LINK_TIMEOUT) {
			*timeout_at = ev;
			return k;
		}
		assert_int_equal(a, NB_LINK_TRANSMIT);
		assert_ptr_equal(buf, l->out);
		assert_int_equal(len, l->out_len);
		assert_true(k < max);
		times[k++] = ev;
	}
}

static void
test_rto_backoff(void **state)
{
	struct nb_link l;
	uint64_t times[64], expect[64], t0 = 5000, t, rto, to = 0;
	uint32_t k, ne = 0, i;
	const uint8_t *buf;
	size_t len;

	(void)state;
	assert_int_equal(nb_link_init(&l, 10 * MS, 80 * MS, 1000 * MS), 0);
	send_ka(&l, t0, NULL);
	/* expected: t0, then +10, +20, +40, +80, +80, ... while < deadline */
	for (ne = 0, t = t0, rto = 10 * MS; t < t0 + 1000 * MS; ne++) {
		expect[ne] = t;
		t += rto;
		rto = rto * 2 > 80 * MS ? 80 * MS : rto * 2;
	}
	k = collect_times(&l, times, 64, &to);
	assert_int_equal(k, ne);
	for (i = 0; i < k; i++)
		assert_int_equal(times[i], expect[i]);
	assert_int_equal(times[1] - times[0], 10 * MS);
	assert_int_equal(times[2] - times[1], 20 * MS);
	assert_int_equal(times[3] - times[2], 40 * MS);
	assert_int_equal(times[4] - times[3], 80 * MS);
	assert_int_equal(times[5] - times[4], 80 * MS);
	/* timeout exactly at send + timeout */
	assert_int_equal(to, t0 + 1000 * MS);
	assert_int_equal(l.retransmits, k - 1);
	assert_int_equal(l.timeouts, 1);
	assert_false(l.pending);
	assert_int_equal(nb_link_next_event(&l), UINT64_MAX);
	assert_int_equal(nb_link_poll(&l, to + 1, &buf, &len), NB_LINK_IDLE);

	/* the next message starts again from rto_min */
	send_ka(&l, 2000 * MS, NULL);
	k = collect_times(&l, times, 64, &to);
	assert_int_equal(times[0], 2000 * MS);
	assert_int_equal(times[1], 2010 * MS);
	assert_int_equal(times[2], 2030 * MS);
	assert_int_equal(to, 3000 * MS);

	/* rto_max not a power-of-two multiple of rto_min: 3, 6, 10, 10 */
	assert_int_equal(nb_link_init(&l, 3 * MS, 10 * MS, 40 * MS), 0);
	send_ka(&l, 0, NULL);
	k = collect_times(&l, times, 64, &to);
	assert_int_equal(k, 6);
	assert_int_equal(times[0], 0);
	assert_int_equal(times[1], 3 * MS);
	assert_int_equal(times[2], 9 * MS);
	assert_int_equal(times[3], 19 * MS);
	assert_int_equal(times[4], 29 * MS);
	assert_int_equal(times[5], 39 * MS);
	assert_int_equal(to, 40 * MS);
}

static void
test_late_poll_and_timeout_precedence(void **state)
{
	struct nb_link l;
	const uint8_t *buf;
	size_t len;

	(void)state;
	/* a late poll schedules from the actual transmission time */
	assert_int_equal(nb_link_init(&l, 10 * MS, 80 * MS, 1000 * MS), 0);
	send_ka(&l, 0, NULL);
	assert_int_equal(nb_link_poll(&l, 0, &buf, &len), NB_LINK_TRANSMIT);
	assert_int_equal(nb_link_poll(&l, 13 * MS, &buf, &len),
			 NB_LINK_TRANSMIT);
	assert_int_equal(l.next_tx, 33 * MS);
	assert_int_equal(nb_link_poll(&l, 33 * MS - 1, &buf, &len),
			 NB_LINK_IDLE);
	assert_int_equal(nb_link_poll(&l, 33 * MS, &buf, &len),
			 NB_LINK_TRANSMIT);

	/* a retransmission due at the deadline: TIMEOUT wins */
	assert_int_equal(nb_link_init(&l, 10 * MS, 80 * MS, 30 * MS), 0);
	send_ka(&l, 0, NULL);
	assert_int_equal(nb_link_poll(&l, 0, &buf, &len), NB_LINK_TRANSMIT);
	assert_int_equal(nb_link_poll(&l, 10 * MS, &buf, &len),
			 NB_LINK_TRANSMIT);
	assert_int_equal(nb_link_next_event(&l), 30 * MS);
	assert_int_equal(nb_link_poll(&l, 30 * MS - 1, &buf, &len),
			 NB_LINK_IDLE);
	assert_int_equal(nb_link_poll(&l, 30 * MS, &buf, &len),
			 NB_LINK_TIMEOUT);

	/* the peer never answers and nobody polls until long after */
	assert_int_equal(nb_link_init(&l, 10 * MS, 80 * MS, 30 * MS), 0);
	send_ka(&l, 0, NULL);
	assert_int_equal(nb_link_poll(&l, 5000 * MS, &buf, &len),
			 NB_LINK_TIMEOUT);
	assert_int_equal(l.retransmits, 0);
}

static void
test_send_rules(void **state)
{
	struct nb_link l;
	struct nb_ctl_msg m, d;
	const uint8_t *buf;
	size_t len;
	uint32_t seq;

	(void)state;
	assert_int_equal(nb_link_init(&l, 0, 10, 10), -EINVAL);
	assert_int_equal(nb_link_init(&l, 11, 10, 10), -EINVAL);
	assert_int_equal(nb_link_init(&l, 1, 10, 0), -EINVAL);
	assert_int_equal(nb_link_init(&l, 10, 10, 10), 0);
	assert_int_equal(nb_link_poll(&l, 0, &buf, &len), NB_LINK_IDLE);

	/* seq numbers from 1; the frame is the encoded message */
	nb_ctl_msg_init(&m, NB_CTL_START, 5);
	m.u.start.delay_ms = 250;
	assert_int_equal(nb_link_send(&l, &m, 100), 0);
	assert_int_equal(m.seq, 1);
	assert_int_equal(nb_link_next_event(&l), 100);
	assert_int_equal(nb_link_poll(&l, 100, &buf, &len), NB_LINK_TRANSMIT);
	assert_int_equal(nb_ctl_decode(buf, len, &d), 0);
	assert_int_equal(d.type, NB_CTL_START);
	assert_int_equal(d.seq, 1);
	assert_int_equal(d.session, 5);
	assert_int_equal(d.u.start.delay_ms, 250);

	/* one outstanding message at a time; m->seq untouched on failure */
	nb_ctl_msg_init(&m, NB_CTL_STOP, 5);
	m.seq = 1234;
	assert_int_equal(nb_link_send(&l, &m, 101), -EBUSY);
	assert_int_equal(m.seq, 1234);
	assert_int_equal(nb_link_on_ack(&l, 1, 105), 1);
	/* ACKs are not sent reliably; invalid messages are refused */
	nb_ctl_msg_init(&m, NB_CTL_ACK, 5);
	assert_int_equal(nb_link_send(&l, &m, 106), -EINVAL);
	nb_ctl_msg_init(&m, NB_CTL_ACCEPT, 5); /* rx_queues 0 */
	assert_int_equal(nb_link_send(&l, &m, 106), -EINVAL);
	assert_int_equal(m.seq, 0);
	nb_ctl_msg_init(&m, NB_CTL_STOP, 0); /* session 0 */
	assert_int_equal(nb_link_send(&l, &m, 106), -EINVAL);
	assert_false(l.pending);
	/* neither consumed a seq */
	send_ka(&l, 107, &seq);
	assert_int_equal(seq, 2);
	assert_int_equal(l.sent, 2);

	/* sender seq wraps from UINT32_MAX to 1 */
	assert_int_equal(nb_link_init(&l, 10, 10, 100), 0);
	l.next_seq = UINT32_MAX;
	send_ka(&l, 0, &seq);
	assert_int_equal(seq, UINT32_MAX);
	assert_int_equal(nb_link_poll(&l, 0, &buf, &len), NB_LINK_TRANSMIT);
	assert_int_equal(nb_link_on_ack(&l, UINT32_MAX, 1), 1);
	send_ka(&l, 2, &seq);
	assert_int_equal(seq, 1);

	/* reset: back to seq 1, nothing pending, same timers */
	nb_link_reset(&l);
	assert_false(l.pending);
	assert_int_equal(l.next_seq, 1);
	assert_int_equal(l.last_rx_seq, 0);
	assert_int_equal(l.rto_min, 10);
	assert_int_equal(l.timeout, 100);
}

static void
test_stale_acks(void **state)
{
	struct nb_link l;
	const uint8_t *buf;
	size_t len;
	uint32_t seq;

	(void)state;
	assert_int_equal(nb_link_init(&l, 10 * MS, 80 * MS, 1000 * MS), 0);
	/* nothing pending */
	assert_int_equal(nb_link_on_ack(&l, 1, 0), 0);
	assert_int_equal(nb_link_on_ack(&l, 0, 0), 0);

	send_ka(&l, 0, &seq);
	assert_int_equal(seq, 1);
	/* not yet transmitted: nothing can be acknowledged */
	assert_int_equal(nb_link_on_ack(&l, 1, 0), 0);
	assert_int_equal(nb_link_poll(&l, 0, &buf, &len), NB_LINK_TRANSMIT);
	assert_int_equal(nb_link_on_ack(&l, 0, 1), 0);
	assert_int_equal(nb_link_on_ack(&l, 2, 1), 0);
	assert_int_equal(nb_link_on_ack(&l, UINT32_MAX, 1), 0);
	assert_true(l.pending);
	assert_int_equal(nb_link_on_ack(&l, 1, 2), 1);
	assert_false(l.pending);
	/* the duplicate ACK */
	assert_int_equal(nb_link_on_ack(&l, 1, 3), 0);

	send_ka(&l, 10, &seq);
	assert_int_equal(seq, 2);
	assert_int_equal(nb_link_poll(&l, 10, &buf, &len), NB_LINK_TRANSMIT);
	/* a late ACK of the previous message does not clear this one */
	assert_int_equal(nb_link_on_ack(&l, 1, 11), 0);
	assert_true(l.pending);
	assert_int_equal(nb_link_poll(&l, 10 + 10 * MS, &buf, &len),
			 NB_LINK_TRANSMIT);
	assert_int_equal(nb_link_on_ack(&l, 2, 10 + 11 * MS), 1);
	assert_int_equal(l.acked, 2);
	/* after a timeout, the ACK that finally arrives is stale */
	send_ka(&l, 100 * MS, &seq);
	assert_int_equal(nb_link_poll(&l, 100 * MS, &buf, &len),
			 NB_LINK_TRANSMIT);
	assert_int_equal(nb_link_poll(&l, 1100 * MS, &buf, &len),
			 NB_LINK_TIMEOUT);
	assert_int_equal(nb_link_on_ack(&l, seq, 1101 * MS), 0);
	assert_int_equal(l.acked, 2);
}

static void
accept_seq(struct nb_link *l, uint32_t seq, int expect)
{
	struct nb_ctl_msg m;

	nb_ctl_msg_init(&m, NB_CTL_STOP, 9);
	m.seq = seq;
	assert_int_equal(nb_link_accept(l, &m), expect);
}

static void
test_accept(void **state)
{
	struct nb_link l;
	struct nb_ctl_msg m;

	(void)state;
	assert_int_equal(nb_link_init(&l, 1, 1, 1), 0);
	/* the first message of a session is adopted, whatever its seq */
	accept_seq(&l, 5, 1);
	assert_int_equal(l.last_rx_seq, 5);
	accept_seq(&l, 5, 0);
	accept_seq(&l, 4, 0);
	accept_seq(&l, 1, 0);
	accept_seq(&l, 6, 1);
	accept_seq(&l, 8, -EPROTO);
	assert_int_equal(l.last_rx_seq, 6);
	accept_seq(&l, 7, 1);
	accept_seq(&l, 8, 1);
	accept_seq(&l, 3, 0);
	accept_seq(&l, 8, 0);
	assert_int_equal(l.duplicates, 5);
	accept_seq(&l, 8 + 0x7fffffffu, -EPROTO);
	accept_seq(&l, 8 + 0x80000000u, 0); /* half a cycle away: behind */
	/* ACKs and seq 0 are not for nb_link_accept() */
	nb_ctl_msg_init(&m, NB_CTL_ACK, 9);
	m.seq = 9;
	assert_int_equal(nb_link_accept(&l, &m), -EINVAL);
	accept_seq(&l, 0, -EINVAL);

	/* a new session adopts again */
	nb_link_reset(&l);
	accept_seq(&l, 100, 1);
	accept_seq(&l, 99, 0);

	/* wrap: ..., UINT32_MAX - 1, UINT32_MAX, 1, 2 (0 is skipped) */
	nb_link_reset(&l);
	accept_seq(&l, UINT32_MAX - 1, 1);
	accept_seq(&l, UINT32_MAX, 1);
	accept_seq(&l, 1, 1);
	accept_seq(&l, UINT32_MAX, 0);
	accept_seq(&l, UINT32_MAX - 1, 0);
	accept_seq(&l, 1, 0);
	accept_seq(&l, 3, -EPROTO);
	accept_seq(&l, 2, 1);
	assert_int_equal(l.last_rx_seq, 2);
}

static void
test_karn_rtt(void **state)
{
	struct nb_link l;
	const uint8_t *buf;
	size_t len;
	uint32_t seq;

	(void)state;
	assert_int_equal(nb_link_init(&l, 10 * MS, 1000 * MS, 10000 * MS), 0);
	assert_int_equal(l.rtt_samples, 0);

	/* transmitted once: a sample */
	send_ka(&l, 0, &seq);
	assert_int_equal(nb_link_poll(&l, 1 * MS, &buf, &len),
			 NB_LINK_TRANSMIT);
	assert_int_equal(nb_link_on_ack(&l, seq, 4 * MS), 1);
	assert_int_equal(l.rtt_samples, 1);
	assert_int_equal(l.rtt_ns, 3 * MS); /* from the transmission */
	assert_int_equal(l.srtt_ns, 3 * MS);
	assert_int_equal(l.rttvar_ns, 1500 * US);

	/* retransmitted: no sample (which copy was acked is unknown) */
	send_ka(&l, 100 * MS, &seq);
	assert_int_equal(nb_link_poll(&l, 100 * MS, &buf, &len),
			 NB_LINK_TRANSMIT);
	/* base rto = max(rto_min, srtt + 4 rttvar = 9 ms) = 10 ms */
	assert_int_equal(l.rto, 10 * MS);
	assert_int_equal(nb_link_poll(&l, 110 * MS, &buf, &len),
			 NB_LINK_TRANSMIT);
	assert_int_equal(nb_link_on_ack(&l, seq, 111 * MS), 1);
	assert_int_equal(l.rtt_samples, 1);
	assert_int_equal(l.rtt_ns, 3 * MS);
	assert_int_equal(l.srtt_ns, 3 * MS);

	/* once again: RFC 6298 smoothing */
	send_ka(&l, 200 * MS, &seq);
	assert_int_equal(nb_link_poll(&l, 200 * MS, &buf, &len),
			 NB_LINK_TRANSMIT);
	assert_int_equal(nb_link_on_ack(&l, seq, 205 * MS), 1);
	assert_int_equal(l.rtt_samples, 2);
	assert_int_equal(l.rtt_ns, 5 * MS);
	assert_int_equal(l.srtt_ns, 3250 * US);	  /* 7/8 * 3 + 1/8 * 5 */
	assert_int_equal(l.rttvar_ns, 1625 * US); /* 3/4 * 1.5 + 1/4 * 2 */

	/* a slow path: rto follows srtt + 4 rttvar, capped at rto_max */
	assert_int_equal(nb_link_init(&l, 1 * MS, 1000 * MS, 10000 * MS), 0);
	send_ka(&l, 0, &seq);
	assert_int_equal(nb_link_poll(&l, 0, &buf, &len), NB_LINK_TRANSMIT);
	assert_int_equal(nb_link_on_ack(&l, seq, 100 * MS), 1);
	send_ka(&l, 200 * MS, &seq);
	assert_int_equal(l.rto, 300 * MS); /* 100 + 4 * 50 */
	assert_int_equal(nb_link_poll(&l, 200 * MS, &buf, &len),
			 NB_LINK_TRANSMIT);
	assert_int_equal(nb_link_next_event(&l), 500 * MS);
	assert_int_equal(nb_link_on_ack(&l, seq, 700 * MS), 1);
	send_ka(&l, 800 * MS, &seq);
	assert_int_equal(nb_link_poll(&l, 800 * MS, &buf, &len),
			 NB_LINK_TRANSMIT);
	/* 500 ms sample: srtt 150, rttvar 137.5: 700 ms */
	assert_int_equal(l.srtt_ns, 150 * MS);
	assert_int_equal(l.rttvar_ns, 137500 * US);
	assert_int_equal(nb_link_next_event(&l), 1500 * MS);
	assert_int_equal(nb_link_poll(&l, 1500 * MS, &buf, &len),
			 NB_LINK_TRANSMIT);
	assert_int_equal(l.rto, 1000 * MS); /* doubled, capped */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lossy_exchange),
		cmocka_unit_test(test_perfect_network),
		cmocka_unit_test(test_rto_backoff),
		cmocka_unit_test(test_late_poll_and_timeout_precedence),
		cmocka_unit_test(test_send_rules),
		cmocka_unit_test(test_stale_acks),
		cmocka_unit_test(test_accept),
		cmocka_unit_test(test_karn_rtt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
