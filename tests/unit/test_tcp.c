/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for closed-loop TCP (app/core/nb_tcp*.c, nb_tcp_wire.c): a
 * client and a server connection over a simulated link (rate, delay, a
 * tail-drop queue, and chosen loss, reordering, duplication and ACK
 * loss), every segment going through nb_tcp_frame_build() and
 * nb_tcp_frame_parse().  Each case checks that every byte arrives exactly
 * once and unaltered, both ends close cleanly, and NewReno's rules hold at
 * every ACK (slow start, congestion avoidance, fast retransmit and
 * recovery, RTO backoff), each against values computed here from the
 * state before the ACK.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_tcp.h"
#include "nb_tcp_report.h"
#include "nb_tcp_wire.h"
#include "nb_test_util.h"

#define MSS	 1460
#define PAY	 (MSS - NB_TCP_STAMP_LEN) /* payload per full segment */
#define MAXPKT	 8192
#define FRAMEMAX 1600

struct pkt {
	uint64_t due;
	uint8_t to_server;
	uint16_t len;
	uint8_t buf[FRAMEMAX];
};

/* What the link does to each direction's frames. */
struct dir_model {
	uint64_t rate_bps;  /* serialisation; 0: none */
	uint64_t delay_ns;  /* propagation */
	uint32_t qlimit;    /* frames waiting to be serialised; 0: no limit */
	uint32_t loss_ppm;  /* random loss of data segments (or any, acks) */
	uint32_t dup_ppm;   /* duplicated */
	uint32_t reord_ppm; /* held back by reord_ns */
	uint64_t reord_ns;
	/* a burst: frames number [drop_from, drop_from + drop_n) of this
	 * direction's data segments are lost */
	uint64_t drop_from, drop_n;
	/* every frame sent in [black_from, black_to) ns is lost */
	uint64_t black_from, black_to;
	/* counted */
	uint64_t link_free, sent, data_sent, dropped, data_dropped, dups;
};

struct sim {
	struct nb_tcp_conn cli, srv;
	struct dir_model d[2]; /* [0] client to server, [1] back */
	struct pkt *q;
	uint32_t nq;
	uint64_t now;
	uint64_t seed;
	uint64_t max_flight; /* the client's, after every output */
	uint64_t csum_turn;  /* segments delivered (deliver()) */
	uint64_t rwnd_seen;  /* the window the client was allowed */
	int server_closed;   /* no listener: answer with RSTs */
	uint64_t close_at;   /* nb_tcp_close() the client then (0: never) */
	/* client RTO retransmissions (time of each) */
	uint64_t rto_times[32];
	unsigned int nb_rto;
	/* NewReno rule checks made */
	uint64_t ss_checks, ca_checks, fr_checks, full_checks;
	uint64_t acks_from_srv, data_from_cli;
	/* request/response: pp_n requests of pp_msg bytes, each answered by
	 * as many bytes before the next goes */
	uint32_t pp_msg, pp_n, pp_reqs, pp_resps;
	/* a busy receiver (the worker with a full RX burst): with lazy_ns
	 * set, the server keeps back an ACK nb_tcp_ack_can_wait() allows
	 * while another frame to it is due within lazy_ns; the largest
	 * advance of its ACKs, and the turns it kept one back */
	uint64_t lazy_ns, lazy_waits;
	uint32_t ack_last, ack_adv_max;
	int ack_seen;
	/* CUBIC: (t in the epoch, cwnd, W_cubic(t)) samples, segments */
	unsigned int nb_cu;
	double cu[4096][4]; /* and the Reno-friendly estimate */
};

static struct nb_flow flow_c2s = {
	.dst_mac = {2, 0, 0, 0, 0, 2},
	.src_mac = {2, 0, 0, 0, 0, 1},
	.proto = NB_IPPROTO_TCP,
	.src_ip = 0xc6120001,
	.dst_ip = 0xc6130001,
	.src_port = 49152,
	.dst_port = 5201,
};
static struct nb_flow flow_s2c = {
	.dst_mac = {2, 0, 0, 0, 0, 1},
	.src_mac = {2, 0, 0, 0, 0, 2},
	.proto = NB_IPPROTO_TCP,
	.src_ip = 0xc6130001,
	.dst_ip = 0xc6120001,
	.src_port = 5201,
	.dst_port = 49152,
};

/* Whether the client offers SACK (the server always does): SACK-based
 * recovery, or NewReno without. */
static int sim_sack = 1;
static int sim_cc = NB_TCP_CC_NEWRENO; /* the client's */

static void
sim_init(struct sim *s, uint64_t bytes, uint32_t rwnd, uint32_t iss_c,
	 uint32_t iss_s)
{
	struct nb_tcp_params pc = {
		.iss = iss_c,
		.mss = MSS,
		.rcv_wnd = 65535,
		.sack = (uint8_t)sim_sack,
		.cc = (uint8_t)sim_cc,
		.stamp = 1,
		.stamp_len = NB_TCP_STAMP_LEN,
		.send_bytes = bytes,
		.close_after_send = 1,
	};
	struct nb_tcp_params ps = {
		.iss = iss_s,
		.mss = MSS,
		.rcv_wnd = rwnd,
		.sack = 1,
		.send_bytes = 0,
	};
	struct pkt *q = s->q;

	memset(s, 0, sizeof(*s));
	s->q = q ? q : calloc(MAXPKT, sizeof(struct pkt));
	assert_non_null(s->q);
	s->seed = 42;
	s->d[0].delay_ns = s->d[1].delay_ns = 50000; /* 50 us each way */
	s->d[0].rate_bps = s->d[1].rate_bps = 1000000000ull;
	nb_tcp_listen(&s->srv, &ps);
	nb_tcp_connect(&s->cli, &pc, 0);
}

static int
chance(struct sim *s, uint32_t ppm)
{
	return ppm && rng_below(&s->seed, 1000000) < ppm;
}

static void
enqueue(struct sim *s, int to_server, const uint8_t *buf, uint16_t len,
	uint64_t due)
{
	uint32_t i;

	assert_true(s->nq < MAXPKT);
	i = s->nq++;
	/* keep q sorted by due, FIFO among equal times */
	while (i > 0 && s->q[i - 1].due > due) {
		s->q[i] = s->q[i - 1];
		i--;
	}
	s->q[i].due = due;
	s->q[i].to_server = (uint8_t)to_server;
	s->q[i].len = len;
	memcpy(s->q[i].buf, buf, len);
}

/* Send one segment from an end into its direction of the link. */
static void
transmit(struct sim *s, int from_client, const struct nb_tcp_seg *seg)
{
	struct dir_model *d = &s->d[from_client ? 0 : 1];
	uint8_t buf[FRAMEMAX];
	struct nb_tcp_seg out = *seg;
	uint64_t ser, depart, queued;
	int len, is_data = seg->len > 0;
	uint32_t i;

	if (seg->has_stamp)
		out.stamp_ns = s->now;
	len = nb_tcp_frame_build(buf, sizeof(buf),
				 from_client ? &flow_c2s : &flow_s2c, &out,
				 NULL);
	assert_true(len >= 60);
	d->sent++;
	if (is_data)
		d->data_sent++;
	/* frames still waiting to be serialised */
	queued = 0;
	for (i = 0; i < s->nq; i++)
		if (s->q[i].to_server == !!from_client &&
		    s->q[i].due - d->delay_ns > s->now)
			queued++;
	if ((d->qlimit && queued >= d->qlimit) ||
	    (s->now >= d->black_from && s->now < d->black_to) ||
	    (is_data && d->data_sent > d->drop_from &&
	     d->data_sent <= d->drop_from + d->drop_n) ||
	    ((is_data || !from_client) && chance(s, d->loss_ppm))) {
		d->dropped++;
		if (is_data)
			d->data_dropped++;
		return;
	}
	ser = d->rate_bps
		      ? ((uint64_t)len + 24) * 8 * 1000000000ull / d->rate_bps
		      : 0;
	depart = (d->link_free > s->now ? d->link_free : s->now) + ser;
	d->link_free = depart;
	if (chance(s, d->reord_ppm))
		depart += d->reord_ns;
	enqueue(s, from_client, buf, (uint16_t)len, depart + d->delay_ns);
	if (chance(s, d->dup_ppm)) {
		d->dups++;
		enqueue(s, from_client, buf, (uint16_t)len,
			depart + d->delay_ns + 1000);
	}
}

/*
 * Every segment into either end goes through nb_tcp_input() and, on a
 * copy, through nb_tcp_input_general() (no header prediction): the two
 * must leave the connection the same, byte for byte, in every scenario.
 */
static void
input_checked(struct nb_tcp_conn *c, const struct nb_tcp_seg *seg, uint64_t now)
{
	struct nb_tcp_conn ref = *c;

	nb_tcp_input(c, seg, now);
	nb_tcp_input_general(&ref, seg, now);
	assert_memory_equal(&ref, c, sizeof(ref));
}

/* Client input with NewReno's rules checked around it. */
static void
client_input(struct sim *s, const struct nb_tcp_seg *seg)
{
	struct nb_tcp_conn b = s->cli; /* before */
	struct nb_tcp_conn *c = &s->cli;
	uint64_t m = PAY;
	uint64_t acked;

	input_checked(c, seg, s->now);
	if (c->cc == NB_TCP_CC_CUBIC && c->epoch_ns && !c->in_recovery &&
	    c->st.recoveries && s->nb_cu < 4096 && c->snd_una > b.snd_una &&
	    (s->nb_cu == 0 || (double)(s->now - c->epoch_ns) / 1e9 >
				      s->cu[s->nb_cu - 1][0] + 0.01)) {
		double t = (double)(s->now - c->epoch_ns) / 1e9;
		double x = t - c->cubic_k;

		s->cu[s->nb_cu][0] = t;
		s->cu[s->nb_cu][1] = (double)c->cwnd / (double)m;
		s->cu[s->nb_cu][2] = NB_TCP_CUBIC_C * x * x * x + c->w_max;
		s->cu[s->nb_cu][3] = c->w_est;
		s->nb_cu++;
	}
	if (b.state != NB_TCP_ESTABLISHED && b.state != NB_TCP_FIN_WAIT_1)
		return;
	if (c->snd_una > b.snd_una) {
		uint64_t fl = b.snd_max - b.snd_una;
		int limited = b.cwnd < b.ssthresh ? 2 * fl >= b.cwnd
						  : fl + m >= b.cwnd;

		acked = c->snd_una - b.snd_una;
		if (!b.in_recovery && !limited) {
			/* not cwnd-limited (the window, the end): no growth */
			assert_int_equal(c->cwnd, b.cwnd);
		} else if (!b.in_recovery && b.cwnd < b.ssthresh) {
			/* slow start: RFC 5681 (2) */
			assert_int_equal(c->cwnd,
					 b.cwnd + (acked < m ? acked : m));
			s->ss_checks++;
		} else if (!b.in_recovery && b.cc == NB_TCP_CC_CUBIC) {
			/* CUBIC: growing, by at most half of cwnd per window */
			assert_true(c->cwnd >= b.cwnd);
			assert_true(c->cwnd - b.cwnd <=
				    b.cwnd / 2 * acked / b.cwnd + m);
			s->ca_checks++;
		} else if (!b.in_recovery) {
			/* congestion avoidance: at most one MSS per cwnd */
			assert_true(c->cwnd == b.cwnd || c->cwnd == b.cwnd + m);
			if (c->cwnd == b.cwnd + m)
				assert_true(b.ca_acked + acked >= b.cwnd);
			s->ca_checks++;
		} else if (b.sack_ok) {
			/* SACK recovery: cwnd stays ssthresh to the end */
			assert_int_equal(c->cwnd, b.ssthresh);
			assert_int_equal(c->in_recovery,
					 c->snd_una < b.recover);
			if (!c->in_recovery)
				s->full_checks++;
		} else if (c->snd_una >= b.recover) {
			/* full ACK: RFC 6582 3.2 (3), option 1 */
			uint64_t fl = b.snd_max - c->snd_una;
			uint64_t want = (fl > m ? fl : m) + m;

			if (want > b.ssthresh)
				want = b.ssthresh;
			assert_int_equal(c->cwnd, want);
			assert_false(c->in_recovery);
			s->full_checks++;
		} else {
			/* partial ACK: deflate by what was acked, add one
			 * MSS back if that was at least one */
			uint64_t want = b.cwnd > acked ? b.cwnd - acked : m;

			if (acked >= m)
				want += m;
			if (want < m)
				want = m;
			assert_int_equal(c->cwnd, want);
			assert_true(c->rexmit_pending);
		}
	} else if (c->in_recovery && !b.in_recovery) {
		/* entering fast recovery on the third duplicate ACK */
		uint64_t fl = b.snd_max - b.snd_una;
		uint64_t ss = fl / 2 > 2 * m ? fl / 2 : 2 * m;

		if (b.cc == NB_TCP_CC_CUBIC) { /* beta x cwnd (RFC 9438) */
			ss = (uint64_t)((double)b.cwnd * NB_TCP_CUBIC_BETA);
			ss = ss > 2 * m ? ss : 2 * m;
		}

		uint64_t end = b.snd_max < b.snd_end ? b.snd_max : b.snd_end;
		uint64_t segs = (end - b.snd_una + m - 1) / m;

		/* three duplicates, or fewer in a small window (RFC 5827) */
		assert_true(b.dupacks == 2 ||
			    (segs < 4 && (uint64_t)b.dupacks + 1 == segs - 1));
		assert_int_equal(c->ssthresh, ss);
		/* NewReno inflates by three segments; SACK does not */
		assert_int_equal(c->cwnd, b.sack_ok ? ss : ss + 3 * m);
		assert_int_equal(c->recover, b.snd_max);
		s->fr_checks++;
	} else if (b.in_recovery && c->dupacks > b.dupacks) {
		/* NewReno's inflation; SACK's pipe leaves cwnd alone */
		assert_int_equal(c->cwnd, b.sack_ok ? b.cwnd : b.cwnd + m);
	}
}

static void
deliver(struct sim *s, const struct pkt *p)
{
	struct nb_flow f;
	struct nb_tcp_seg seg, rst;
	uint8_t buf[FRAMEMAX];
	int len;

	assert_int_equal(nb_tcp_frame_parse(p->buf, p->len, 1, &f, &seg), 0);
	/* three segments in four as the worker takes them: the payload
	 * found to be the pattern where the receiver expects it (then not
	 * compared again, and header prediction may take it) */
	if (++s->csum_turn % 4) {
		int ok = nb_tcp_frame_csum_ok(
			p->buf, &seg,
			nb_tcp_rcv_stream_off(p->to_server ? &s->srv : &s->cli,
					      seg.seq));

		assert_true(ok > 0);
		seg.pattern_ok = ok == 2;
	}
	if (p->to_server) {
		assert_int_equal(f.dst_port, 5201);
		if (seg.len)
			s->data_from_cli++;
		if (s->server_closed) {
			if (nb_tcp_rst_for(&seg, &rst)) {
				len = nb_tcp_frame_build(buf, sizeof(buf),
							 &flow_s2c, &rst, NULL);
				assert_true(len > 0);
				enqueue(s, 0, buf, (uint16_t)len,
					s->now + s->d[1].delay_ns);
			}
			return;
		}
		input_checked(&s->srv, &seg, s->now);
	} else {
		if (!seg.len && (seg.flags & NB_TCP_ACK))
			s->acks_from_srv++;
		if (s->ack_seen && seg.ack - s->ack_last < (1u << 31) &&
		    seg.ack - s->ack_last > s->ack_adv_max)
			s->ack_adv_max = seg.ack - s->ack_last;
		if (!s->ack_seen || seg.ack - s->ack_last < (1u << 31))
			s->ack_last = seg.ack;
		s->ack_seen = 1;
		client_input(s, &seg);
	}
}

/*
 * When sim_run_max is set, the client sends through nb_tcp_output_run()
 * (at most 1 to sim_run_max segments a call, drawn from run_seed): each
 * run is checked against a copy of the connection asked k times through
 * nb_tcp_output(): the same segments, then the same state, byte for byte.
 */
static unsigned int sim_run_max;
static uint64_t run_seed = 7, runs_seen, run_segs, run_max_k;

static unsigned int
client_run(struct sim *s, struct nb_tcp_conn *c, struct nb_tcp_seg *seg)
{
	struct nb_tcp_conn ref = *c;
	unsigned int max = 1 + (unsigned int)rng_below(&run_seed, sim_run_max);
	unsigned int k = nb_tcp_output_run(c, s->now, max, seg), i;

	if (k == 0) {
		assert_memory_equal(&ref, c, sizeof(ref));
		return 0;
	}
	assert_true(k <= max);
	assert_int_equal(seg->len, PAY);
	assert_int_equal(seg->flags, NB_TCP_ACK);
	assert_false(seg->rexmit);
	for (i = 0; i < k; i++) {
		struct nb_tcp_seg r, x = *seg;

		x.seq += i * seg->len;
		x.data_off += i * seg->len;
		assert_int_equal(nb_tcp_output(&ref, s->now, &r), 1);
		assert_memory_equal(&x, &r, sizeof(r));
		transmit(s, 1, &x);
	}
	assert_memory_equal(&ref, c, sizeof(ref));
	runs_seen++;
	run_segs += k;
	if (k > run_max_k)
		run_max_k = k;
	return k;
}

static void
pump(struct sim *s, struct nb_tcp_conn *c, int client)
{
	struct nb_tcp_seg seg;
	uint64_t una = c->snd_una;

	while (client && sim_run_max && client_run(s, c, &seg)) {
		uint64_t fl = nb_tcp_flight(c);

		if (fl > s->max_flight)
			s->max_flight = fl;
	}
	while (nb_tcp_output(c, s->now, &seg)) {
		if (client && seg.rexmit && seg.len &&
		    seg.seq == c->iss + (uint32_t)una && !c->in_recovery &&
		    s->nb_rto < 32 && c->st.rto_fired > s->nb_rto)
			s->rto_times[s->nb_rto++] = s->now;
		transmit(s, client, &seg);
		if (client) {
			uint64_t fl = nb_tcp_flight(c);

			if (fl > s->max_flight)
				s->max_flight = fl;
		}
	}
}

/* The applications of a request/response test. */
static void
pingpong_app(struct sim *s)
{
	uint64_t m = s->pp_msg;

	if (s->srv.st.bytes_rcvd >= (uint64_t)(s->pp_resps + 1) * m) {
		s->pp_resps++;
		nb_tcp_send_limit(&s->srv, s->pp_resps * m);
	}
	if (s->cli.state == NB_TCP_ESTABLISHED &&
	    s->cli.st.bytes_rcvd >= (uint64_t)s->pp_reqs * m) {
		if (s->pp_reqs < s->pp_n) {
			s->pp_reqs++;
			nb_tcp_send_limit(&s->cli, s->pp_reqs * m);
		} else {
			nb_tcp_close(&s->cli);
		}
	}
}

/* A frame to the server due within lazy_ns: more at hand. */
static int
srv_busy(const struct sim *s)
{
	uint32_t i;

	for (i = 0; i < s->nq && s->q[i].due <= s->now + s->lazy_ns; i++)
		if (s->q[i].to_server)
			return 1;
	return 0;
}

/* Run until both ends are done, or limit_ns of simulated time. */
static void
sim_run(struct sim *s, uint64_t limit_ns)
{
	uint64_t next, t;

	for (;;) {
		while (s->nq && s->q[0].due <= s->now) {
			struct pkt p = s->q[0];

			memmove(&s->q[0], &s->q[1],
				(s->nq - 1) * sizeof(struct pkt));
			s->nq--;
			deliver(s, &p);
		}
		if (s->pp_n)
			pingpong_app(s);
		if (s->close_at && s->now >= s->close_at) {
			nb_tcp_close(&s->cli);
			s->close_at = 0;
		}
		pump(s, &s->cli, 1);
		/* whatever is held out of order, the ACK goes at once */
		if (s->srv.nb_ooo)
			assert_false(nb_tcp_ack_can_wait(&s->srv));
		if (s->lazy_ns && srv_busy(s) && nb_tcp_ack_can_wait(&s->srv))
			s->lazy_waits++;
		else
			pump(s, &s->srv, 0);
		if ((nb_tcp_finished(&s->cli) &&
		     (s->server_closed || nb_tcp_finished(&s->srv)) &&
		     s->nq == 0) ||
		    s->now >= limit_ns)
			return;
		next = UINT64_MAX;
		if (s->nq)
			next = s->q[0].due;
		t = nb_tcp_next_event(&s->cli);
		if (t && t < next)
			next = t;
		t = nb_tcp_next_event(&s->srv);
		if (t && t < next)
			next = t;
		if (s->close_at && s->close_at < next)
			next = s->close_at;
		assert_true(next != UINT64_MAX); /* else: a deadlock */
		if (next > limit_ns) {
			s->now = limit_ns;
			return;
		}
		s->now = next > s->now ? next : s->now;
	}
}

/* Every byte in, exactly once and unaltered, and both ends closed. */
static void
assert_delivered(const struct sim *s, uint64_t bytes)
{
	if (getenv("TCP_DEBUG"))
		print_message("t=%.3fs rcvd=%lu acked=%lu retrans=%lu fr=%lu "
			      "rto=%lu rec=%lu dropped=%lu/%lu cwnd=%lu "
			      "ss=%lu srtt=%lu rto_ns=%lu st=%s/%s oood=%lu "
			      "ooo=%lu\n",
			      s->now / 1e9, s->srv.st.bytes_rcvd,
			      s->cli.st.bytes_acked, s->cli.st.retrans,
			      s->cli.st.fast_retrans, s->cli.st.rto_fired,
			      s->cli.st.recoveries, s->d[0].data_dropped,
			      s->d[0].data_sent, s->cli.cwnd, s->cli.ssthresh,
			      s->cli.srtt_ns, s->cli.rto_ns,
			      nb_tcp_state_name(s->cli.state),
			      nb_tcp_state_name(s->srv.state),
			      s->srv.st.ooo_dropped, s->srv.st.ooo_segs_in);
	assert_int_equal(s->srv.st.bytes_rcvd, bytes);
	assert_int_equal(s->cli.st.bytes_acked, bytes);
	assert_int_equal(s->srv.st.bad_bytes, 0);
	assert_int_equal(s->cli.error, NB_TCP_OK);
	assert_int_equal(s->srv.error, NB_TCP_OK);
	assert_int_equal(s->cli.state, NB_TCP_TIME_WAIT);
	assert_int_equal(s->srv.state, NB_TCP_CLOSED);
}

static struct sim S;

static void
test_clean_transfer(void **state)
{
	uint64_t n = 10 * 1000 * 1000;

	sim_sack = 1;
	(void)state;
	sim_init(&S, n, 4 << 20, 1000, 2000);
	sim_run(&S, 60ull * 1000000000);
	assert_delivered(&S, n);
	/* no loss: not one retransmission, and slow start checked */
	assert_int_equal(S.cli.st.retrans, 0);
	assert_int_equal(S.cli.st.rto_fired, 0);
	assert_true(S.ss_checks > 10);
	/* options agreed: SACK, and the server's window scale for 4 MiB */
	assert_true(S.cli.sack_ok && S.srv.sack_ok);
	assert_int_equal(S.cli.snd_wscale, nb_tcp_wscale_for(4 << 20));
	assert_int_equal(S.cli.snd_wscale, 7);
	assert_int_equal(S.cli.mss, MSS);
	/* an ACK per segment: as many ACKs as data segments, within the
	 * handshake's and close's few */
	assert_true(S.acks_from_srv >= S.data_from_cli);
	/* the RTT measured: 100 us propagation plus serialisation */
	assert_true(S.cli.st.rtt_samples > 10);
	assert_true(S.cli.st.min_rtt_ns >= 100000);
	assert_true(S.cli.srtt_ns < 10 * 1000 * 1000);
	/* the initial window was 10 segments (RFC 6928) */
	assert_true(S.cli.st.max_cwnd >= 10 * PAY);
}

static void
test_initial_window(void **state)
{
	struct nb_tcp_seg seg;
	uint64_t iw = 10 * PAY < 14600 ? 10 * PAY : 14600;

	sim_sack = 1;
	(void)state;
	/* the SYN-ACK passes, then no ACK comes back: the first flight is
	 * all that is sent */
	sim_init(&S, 1000000, 1 << 20, 7, 9);
	S.d[1].black_from = 150000;
	S.d[1].black_to = UINT64_MAX;
	sim_run(&S, 300000);
	assert_int_equal(S.cli.state, NB_TCP_ESTABLISHED);
	/* RFC 6928: min(10 * MSS, max(2 * MSS, 14600)) bytes */
	assert_int_equal(S.cli.cwnd, iw);
	assert_int_equal(nb_tcp_flight(&S.cli), iw / PAY * PAY);
	assert_int_equal(S.d[0].data_sent, iw / PAY);
	assert_int_equal(nb_tcp_output(&S.cli, S.now, &seg), 0);
}

static void
test_single_loss_fast_retransmit(void **state)
{
	uint64_t n = 5 * 1000 * 1000;

	sim_sack = **(int **)state;
	sim_init(&S, n, 4 << 20, 1, 2);
	S.d[0].drop_from = 100; /* the 101st data segment is lost */
	S.d[0].drop_n = 1;
	sim_run(&S, 60ull * 1000000000);
	assert_delivered(&S, n);
	assert_int_equal(S.d[0].data_dropped, 1);
	assert_int_equal(S.cli.st.fast_retrans, 1);
	assert_int_equal(S.cli.st.recoveries, 1);
	assert_int_equal(S.cli.st.rto_fired, 0);
	assert_int_equal(S.cli.st.retrans, 1);
	assert_int_equal(S.fr_checks, 1);
	assert_int_equal(S.full_checks, 1);
	assert_true(S.srv.st.ooo_segs_in > 0);
	assert_true(S.ca_checks > 0); /* after recovery: avoidance */
}

static void
test_early_retransmit(void **state)
{
	uint64_t n = 3 * PAY; /* three segments, the first lost */

	sim_sack = **(int **)state;
	sim_init(&S, n, 4 << 20, 1, 2);
	S.d[0].drop_n = 1;
	sim_run(&S, 60ull * 1000000000);
	assert_delivered(&S, n);
	/* two duplicate ACKs are all three segments can bring: a fast
	 * retransmit on them, not a 1 s timeout (RFC 5827) */
	assert_int_equal(S.cli.st.fast_retrans, 1);
	assert_int_equal(S.cli.st.rto_fired, 0);
	assert_true(S.now < 100000000);
}

static void
test_burst_loss_partial_acks(void **state)
{
	uint64_t n = 5 * 1000 * 1000;

	sim_sack = **(int **)state;
	sim_init(&S, n, 4 << 20, 1, 2);
	S.d[0].drop_from = 200; /* four in a row: NewReno's partial ACKs */
	S.d[0].drop_n = 4;
	sim_run(&S, 60ull * 1000000000);
	assert_delivered(&S, n);
	assert_int_equal(S.cli.st.recoveries, 1);
	/* one by three dupacks, three by partial ACKs, no timeout */
	assert_int_equal(S.cli.st.fast_retrans, 4);
	assert_int_equal(S.cli.st.rto_fired, 0);
	assert_int_equal(S.cli.st.retrans, 4);
	assert_int_equal(S.full_checks, 1);
}

static void
test_random_loss(void **state)
{
	uint64_t n = 20 * 1000 * 1000;

	sim_sack = **(int **)state;
	sim_init(&S, n, 4 << 20, 0x89abcdef, 0x12345678);
	S.d[0].loss_ppm = 10000; /* 1 % of data segments */
	sim_run(&S, 600ull * 1000000000);
	assert_delivered(&S, n);
	assert_true(S.d[0].data_dropped > 50);
	/* every lost segment sent again; with SACK hardly one more (a lost
	 * retransmission waits for the RTO), while NewReno's RTOs, when a
	 * window lost more than partial ACKs mend in time, go back N */
	assert_true(S.cli.st.retrans >= S.d[0].data_dropped);
	if (sim_sack)
		assert_true(S.cli.st.retrans <= S.d[0].data_dropped + 10);
	assert_true(S.cli.st.rto_fired <= 10);
	assert_true(S.cli.st.recoveries > 10);
	assert_true(S.fr_checks == S.cli.st.recoveries);
}

static void
test_ack_loss_reorder_dup(void **state)
{
	uint64_t n = 10 * 1000 * 1000;

	sim_sack = **(int **)state;
	sim_init(&S, n, 4 << 20, 5, 6);
	S.d[1].loss_ppm = 300000; /* 30 % of ACKs */
	S.d[0].reord_ppm = 20000; /* 2 % of data held back 30 us */
	S.d[0].reord_ns = 30000;
	S.d[0].dup_ppm = 20000; /* 2 % duplicated */
	sim_run(&S, 600ull * 1000000000);
	assert_delivered(&S, n);
	assert_true(S.d[1].dropped > 100);
	assert_true(S.d[0].dups > 50);
	assert_true(S.srv.st.dup_bytes_in >= PAY);
	assert_true(S.srv.st.ooo_segs_in > 10);
}

static void
test_window_limit(void **state)
{
	uint64_t n = 2 * 1000 * 1000;

	sim_sack = 1;
	(void)state;
	sim_init(&S, n, 16384, 3, 4);
	S.d[0].rate_bps = S.d[1].rate_bps = 0; /* only the window limits */
	sim_run(&S, 60ull * 1000000000);
	assert_delivered(&S, n);
	assert_int_equal(S.cli.snd_wnd, 16384);
	assert_true(S.max_flight <= 16384);
	assert_true(S.max_flight > 16384 - PAY);
	/* no scaling needed for 16 KiB: none used */
	assert_int_equal(S.srv.rcv_wscale, 0);
}

static void
test_bottleneck_queue(void **state)
{
	uint64_t n = 60 * 1000 * 1000;

	sim_sack = **(int **)state;
	/* 100 Mbit/s with a 50-frame queue: loss from congestion only */
	sim_init(&S, n, 8 << 20, 11, 12);
	S.d[0].rate_bps = 100000000;
	S.d[0].qlimit = 50;
	sim_run(&S, 600ull * 1000000000);
	assert_delivered(&S, n);
	assert_true(S.d[0].data_dropped > 0);
	assert_true(S.cli.st.recoveries > 0);
	/* goodput over the transfer (slow start included): with SACK at
	 * least 85 % of the bottleneck; NewReno, whose recovery mends one
	 * hole per round trip, only delivers */
	if (sim_sack)
		assert_true((double)n * 8 / ((double)S.now / 1e9) >
			    0.85 * 100e6);
}

static void
test_rto_backoff(void **state)
{
	uint64_t n = 3 * 1000 * 1000;
	unsigned int i;

	sim_sack = **(int **)state;
	sim_init(&S, n, 4 << 20, 1, 2);
	/* after 5 ms, nothing gets through for 20 s */
	S.d[0].black_from = S.d[1].black_from = 5000000;
	S.d[0].black_to = S.d[1].black_to = 25000000000ull;
	sim_run(&S, 300ull * 1000000000);
	assert_delivered(&S, n);
	assert_true(S.nb_rto >= 5);
	/* each timeout waits twice as long as the one before (RFC 6298
	 * 5.5), from the RTO the RTT gave, at least 200 ms */
	assert_true(S.rto_times[1] - S.rto_times[0] >= NB_TCP_RTO_MIN_NS * 2);
	for (i = 2; i < S.nb_rto && S.rto_times[i] < 25000000000ull; i++)
		assert_int_equal(S.rto_times[i] - S.rto_times[i - 1],
				 2 * (S.rto_times[i - 1] - S.rto_times[i - 2]));
	/* after an RTO: loss window, ssthresh from the first timeout */
	assert_true(S.cli.st.rto_fired >= 5);
	assert_int_equal(S.cli.st.recoveries, 0);
}

static void
test_wraparound(void **state)
{
	sim_sack = **(int **)state;
	uint64_t n = 30 * 1000 * 1000; /* well past one wrap of the ISS */

	sim_init(&S, n, 4 << 20, 0xffffff00u, 0xfffffff0u);
	S.d[0].loss_ppm = 2000;
	sim_run(&S, 600ull * 1000000000);
	assert_delivered(&S, n);
	assert_true(S.d[0].data_dropped > 0);
}

static void
test_delayed_ack(void **state)
{
	uint64_t n = 5 * 1000 * 1000;

	sim_sack = 1;
	(void)state;
	sim_init(&S, n, 4 << 20, 1, 2);
	S.srv.delayed_ack = 1;
	sim_run(&S, 60ull * 1000000000);
	assert_delivered(&S, n);
	/* about one ACK per two segments */
	assert_true(S.acks_from_srv < S.data_from_cli * 6 / 10);
	assert_true(S.acks_from_srv > S.data_from_cli * 4 / 10);
}

/*
 * A busy receiver's stretch ACKs (nb_tcp_ack_can_wait): on a 10 Gbit/s
 * link, the server keeps back its ACK while the next frame is due within
 * 20 us.  Every byte arrives; far fewer ACKs than segments; none acks
 * more than an eighth of the window plus the segment that reached it;
 * NewReno's rules (client_input) hold at every stretched ACK.  With 1 %
 * loss, what is out of order is acked at once (sim_run asserts it), so
 * recovery works as without.
 */
/* 10 Gbit/s, 5 us each way */
static void
fast_link(struct sim *s)
{
	s->d[0].rate_bps = s->d[1].rate_bps = 10000000000ull;
	s->d[0].delay_ns = s->d[1].delay_ns = 5000;
}

static void
test_stretch_ack(void **state)
{
	uint64_t n = 20 * 1000 * 1000;
	const uint32_t wnd = 1 << 20;

	sim_sack = 1;
	(void)state;
	sim_init(&S, n, wnd, 11, 12);
	fast_link(&S);
	S.lazy_ns = 20000;
	sim_run(&S, 60ull * 1000000000);
	assert_delivered(&S, n);
	if (getenv("TCP_DEBUG"))
		print_message("waits %lu acks %lu data %lu adv_max %u\n",
			      S.lazy_waits, S.acks_from_srv, S.data_from_cli,
			      S.ack_adv_max);
	assert_true(S.lazy_waits > S.data_from_cli / 2);
	assert_true(S.acks_from_srv * 10 < S.data_from_cli);
	assert_true(S.ack_adv_max > 16 * PAY);
	assert_true(S.ack_adv_max <= wnd / NB_TCP_ACK_STRETCH_DIV + PAY);
	assert_int_equal(S.cli.st.retrans, 0);

	/* the same without lazy_ns: an ACK a segment */
	sim_init(&S, n, wnd, 11, 12);
	fast_link(&S);
	sim_run(&S, 60ull * 1000000000);
	assert_delivered(&S, n);
	assert_true(S.acks_from_srv >= S.data_from_cli);
	assert_true(S.ack_adv_max <= 2 * PAY);

	/* under loss */
	sim_init(&S, n, wnd, 13, 14);
	fast_link(&S);
	S.d[0].loss_ppm = 10000;
	S.lazy_ns = 20000;
	sim_run(&S, 600ull * 1000000000);
	assert_delivered(&S, n);
	assert_true(S.d[0].data_dropped > 50);
	assert_true(S.lazy_waits > 1000);
	assert_true(S.cli.st.retrans >= S.d[0].data_dropped);
	assert_true(S.cli.st.retrans <= S.d[0].data_dropped + 10);
	assert_true(S.cli.st.recoveries > 10);
}

static void
test_syn_loss_and_refused(void **state)
{
	uint64_t n = 100000;

	sim_sack = 1;
	(void)state;
	/* the first two SYNs lost: retried at 1 s and 2 s more */
	sim_init(&S, n, 1 << 20, 1, 2);
	S.d[0].black_to = 2500000000ull;
	sim_run(&S, 60ull * 1000000000);
	assert_delivered(&S, n);
	assert_int_equal(S.cli.st.rto_fired, 2);
	/* no listener: the RST ends the attempt as refused */
	sim_init(&S, n, 1 << 20, 1, 2);
	S.server_closed = 1;
	sim_run(&S, 60ull * 1000000000);
	assert_int_equal(S.cli.state, NB_TCP_CLOSED);
	assert_int_equal(S.cli.error, NB_TCP_ERR_REFUSED);
	assert_true(nb_tcp_finished(&S.cli));
}

/*
 * A SYN that never completes (a spoofed source): its SYN-ACKs at 0, 1, 3
 * and 7 s (RTO from 1 s, doubling; NB_TCP_SYNACK_RETRIES resends), then
 * the end fails as timed out at 15 s, with no RST and no timer left.  The
 * blind attacker's ACK and data, acknowledging ISN 0 + 1 as if it had
 * guessed, are refused with a RST (RFC 793: seq = their ACK) and take no
 * byte; a repeated SYN is answered but does not lengthen the schedule.
 */
static void
test_half_open_bounded(void **state)
{
	const uint32_t iss = 0x9e3779b9u, irs = 1000;
	const uint64_t sec = 1000000000ull;
	uint64_t synack_at[8], now = 0, next;
	unsigned int nb_synack = 0, nb_rst = 0;
	struct nb_tcp_params p = {
		.iss = iss,
		.mss = MSS,
		.rcv_wnd = 65535,
		.sack = 1,
	};
	struct nb_tcp_conn c;
	struct nb_tcp_seg in, out;
	uint8_t junk[1000];

	(void)state;
	memset(junk, 'x', sizeof(junk));
	nb_tcp_listen(&c, &p);
	memset(&in, 0, sizeof(in));
	in.flags = NB_TCP_SYN;
	in.seq = irs;
	in.wnd = 65535;
	in.has_mss = 1;
	in.mss = MSS;
	in.wscale = NB_TCP_WSCALE_NONE;
	nb_tcp_input(&c, &in, 0);
	assert_int_equal(c.state, NB_TCP_SYN_RCVD);
	while (now <= 30 * sec) {
		if (now == sec / 2) {
			/* the blind ACK and a data segment, ack = 0 + 1 */
			memset(&in, 0, sizeof(in));
			in.flags = NB_TCP_ACK;
			in.seq = irs + 1;
			in.ack = 1;
			in.wnd = 65535;
			nb_tcp_input(&c, &in, now);
			in.flags = NB_TCP_ACK | NB_TCP_PSH;
			in.len = sizeof(junk);
			in.payload = junk;
			nb_tcp_input(&c, &in, now);
			assert_int_equal(c.state, NB_TCP_SYN_RCVD);
			assert_int_equal(c.st.bytes_rcvd, 0);
		}
		if (now == 2 * sec) { /* the same SYN again */
			memset(&in, 0, sizeof(in));
			in.flags = NB_TCP_SYN;
			in.seq = irs;
			in.wnd = 65535;
			in.wscale = NB_TCP_WSCALE_NONE;
			nb_tcp_input(&c, &in, now);
		}
		while (nb_tcp_output(&c, now, &out)) {
			if (out.flags & NB_TCP_RST) {
				nb_rst++;
				/* the answer to the guessed ACK of 1 */
				assert_int_equal(out.seq, 1);
				continue;
			}
			assert_int_equal(out.flags, NB_TCP_SYN | NB_TCP_ACK);
			assert_int_equal(out.seq, iss);
			assert_int_equal(out.ack, irs + 1);
			assert_true(nb_synack < 8);
			synack_at[nb_synack++] = now;
		}
		next = nb_tcp_next_event(&c);
		/* the next timer, or the next scripted input */
		if (now < sec / 2 && (next == 0 || next > sec / 2))
			next = sec / 2;
		else if (now < 2 * sec && (next == 0 || next > 2 * sec))
			next = 2 * sec;
		if (next == 0)
			break;
		assert_true(next > now);
		now = next;
	}
	assert_true(nb_rst >= 1);
	/* 0, 1, the SYN's answer at 2, 3, 7 s */
	assert_int_equal(nb_synack, 5);
	assert_int_equal(synack_at[0], 0);
	assert_int_equal(synack_at[1], 1 * sec);
	assert_int_equal(synack_at[2], 2 * sec);
	assert_int_equal(synack_at[3], 3 * sec);
	assert_int_equal(synack_at[4], 7 * sec);
	assert_int_equal(now, 15 * sec);
	assert_int_equal(c.state, NB_TCP_CLOSED);
	assert_int_equal(c.error, NB_TCP_ERR_TIMEOUT);
	assert_true(nb_tcp_finished(&c));
	assert_int_equal(c.snd_una, 0); /* never established */
	assert_int_equal(c.st.bytes_rcvd, 0);
	assert_int_equal(nb_tcp_next_event(&c), 0);
	assert_false(nb_tcp_output(&c, now, &out));
	/* a client's SYN keeps its longer schedule: 7 SYNs (the last at
	 * 63 s), failing 60 s later (the RTO's maximum) */
	{
		struct nb_tcp_conn k;
		unsigned int syns = 0;

		nb_tcp_connect(&k, &p, 0);
		now = 0;
		for (;;) {
			while (nb_tcp_output(&k, now, &out))
				syns++;
			next = nb_tcp_next_event(&k);
			if (next == 0)
				break;
			now = next;
		}
		assert_int_equal(syns, NB_TCP_SYN_RETRIES + 1);
		assert_int_equal(now, 123 * sec);
		assert_int_equal(k.error, NB_TCP_ERR_TIMEOUT);
	}
}

static void
test_close_on_time(void **state)
{
	sim_sack = **(int **)state;
	/* no byte limit: nb_tcp_close() after 200 ms, as --time does */
	sim_init(&S, UINT64_MAX, 4 << 20, 1, 2);
	S.close_at = 200000000;
	S.d[0].loss_ppm = 1000;
	sim_run(&S, 60ull * 1000000000);
	assert_true(S.cli.st.bytes_acked > 1000000);
	assert_delivered(&S, S.cli.st.bytes_acked);
	/* every byte sent before the FIN was delivered */
	assert_int_equal(S.cli.snd_end - 1, S.srv.st.bytes_rcvd);
}

static void
test_reset_and_unacceptable(void **state)
{
	struct nb_tcp_seg in = {0}, out;

	sim_sack = 1;
	(void)state;
	sim_init(&S, 1000000, 1 << 20, 1, 2);
	sim_run(&S, 2000000); /* established, some data */
	assert_int_equal(S.srv.state, NB_TCP_ESTABLISHED);
	/* a RST off the exact sequence: a challenge ACK, still open */
	in.flags = NB_TCP_RST;
	in.seq = S.srv.irs + (uint32_t)S.srv.rcv_nxt + 10;
	nb_tcp_input(&S.srv, &in, S.now);
	assert_int_equal(S.srv.state, NB_TCP_ESTABLISHED);
	assert_true(nb_tcp_output(&S.srv, S.now, &out));
	assert_true(out.flags & NB_TCP_ACK);
	assert_false(out.flags & NB_TCP_RST);
	/* a segment far outside the window: an ACK, nothing taken */
	memset(&in, 0, sizeof(in));
	in.flags = NB_TCP_ACK;
	in.seq = S.srv.irs + (uint32_t)S.srv.rcv_nxt + 0x40000000u;
	in.ack = S.srv.iss + 1;
	in.len = 100;
	in.payload = nb_tcp_pattern;
	nb_tcp_input(&S.srv, &in, S.now);
	assert_int_equal(S.srv.st.out_of_window, 1);
	/* the exact RST: closed, reset */
	memset(&in, 0, sizeof(in));
	in.flags = NB_TCP_RST;
	in.seq = S.srv.irs + (uint32_t)S.srv.rcv_nxt;
	nb_tcp_input(&S.srv, &in, S.now);
	assert_int_equal(S.srv.state, NB_TCP_CLOSED);
	assert_int_equal(S.srv.error, NB_TCP_ERR_RESET);
	/* RST generation for a stray segment (RFC 793) */
	memset(&in, 0, sizeof(in));
	in.flags = NB_TCP_ACK;
	in.ack = 12345;
	assert_int_equal(nb_tcp_rst_for(&in, &out), 1);
	assert_int_equal(out.flags, NB_TCP_RST);
	assert_int_equal(out.seq, 12345);
	in.flags = NB_TCP_SYN;
	in.seq = 100;
	assert_int_equal(nb_tcp_rst_for(&in, &out), 1);
	assert_int_equal(out.flags, NB_TCP_RST | NB_TCP_ACK);
	assert_int_equal(out.ack, 101);
	in.flags = NB_TCP_RST;
	assert_int_equal(nb_tcp_rst_for(&in, &out), 0);
	/* a corrupted payload byte is counted */
	sim_init(&S, 0, 1 << 20, 1, 2);
	S.srv.state = NB_TCP_ESTABLISHED;
	S.srv.irs = 99;
	S.srv.rcv_nxt = 1;
	S.srv.snd_una = S.srv.snd_nxt = S.srv.snd_max = 1;
	{
		uint8_t bad[64];

		memcpy(bad, nb_tcp_pattern, 64);
		bad[10] ^= 1;
		memset(&in, 0, sizeof(in));
		in.flags = NB_TCP_ACK;
		in.seq = 100;
		in.ack = S.srv.iss + 1;
		in.len = 64;
		in.payload = bad;
		nb_tcp_input(&S.srv, &in, 0);
	}
	assert_int_equal(S.srv.st.bad_bytes, 1);
	assert_int_equal(S.srv.st.bytes_rcvd, 64);
}

/* NB_TCP_CHECK_AUTO: the first 16 bytes decide. */
static void
test_check_auto(void **state)
{
	uint8_t foreign[1000];
	struct nb_tcp_seg in;
	int k;

	(void)state;
	for (k = 0; k < 2; k++) {
		sim_sack = 1;
		sim_init(&S, 0, 1 << 20, 1, 2);
		S.srv.state = NB_TCP_ESTABLISHED;
		S.srv.check = NB_TCP_CHECK_AUTO;
		S.srv.irs = 99;
		S.srv.rcv_nxt = 1;
		S.srv.snd_una = S.srv.snd_nxt = S.srv.snd_max = 1;
		memset(foreign, 'x', sizeof(foreign));
		memset(&in, 0, sizeof(in));
		in.flags = NB_TCP_ACK;
		in.seq = 100;
		in.ack = S.srv.iss + 1;
		in.len = 500;
		in.payload = k ? nb_tcp_pattern : foreign;
		nb_tcp_input(&S.srv, &in, 0);
		assert_int_equal(S.srv.check,
				 k ? NB_TCP_CHECK_ON : NB_TCP_CHECK_OFF);
		/* the next segment: bad for the pattern, fine if foreign */
		in.seq = 600;
		in.payload = foreign;
		nb_tcp_input(&S.srv, &in, 0);
		{
			/* counted against the pattern at offsets 500.. */
			uint64_t want = 0;
			unsigned int i;

			for (i = 0; i < 500; i++)
				want += nb_tcp_pattern[500 + i] != 'x';
			assert_int_equal(S.srv.st.bad_bytes, k ? want : 0);
		}
		assert_int_equal(S.srv.st.bytes_rcvd, 1000);
	}
}

/* The report's rows and JSON objects, from values computed here. */
static void
test_report(void **state)
{
	struct nb_tcp_snap a = {0}, b = {0};
	char *txt = NULL;
	size_t n = 0;
	FILE *f;
	json_t *o;

	(void)state;
	b.acked = 125000000; /* 1 Gbit in the second */
	b.rcvd = 124000000;
	b.retrans = 7;
	b.cwnd = 65536;
	b.srtt_ns = 45000;
	b.rttvar_ns = 5000;
	o = nb_tcp_json_iv_stream(3, 1.0, 2.0, &a, &b);
	assert_int_equal(json_integer_value(json_object_get(o, "socket")), 3);
	assert_int_equal(json_integer_value(json_object_get(o, "bytes")),
			 125000000);
	assert_true(json_real_value(json_object_get(o, "bits_per_second")) ==
		    1e9);
	assert_int_equal(json_integer_value(json_object_get(o, "retransmits")),
			 7);
	assert_int_equal(json_integer_value(json_object_get(o, "snd_cwnd")),
			 65536);
	assert_int_equal(json_integer_value(json_object_get(o, "rtt")), 45);
	assert_int_equal(json_integer_value(json_object_get(o, "rttvar")), 5);
	assert_int_equal(
		json_integer_value(json_object_get(o, "received_bytes")),
		124000000);
	json_decref(o);
	b.max_cwnd = 131072;
	b.min_rtt_ns = 20000;
	b.max_rtt_ns = 90000;
	o = nb_tcp_json_end_stream(1, 2.0, 4.0, &b);
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(o, "sender"), "max_snd_cwnd")),
			 131072);
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(o, "sender"), "min_rtt")),
			 20);
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(o, "sender"), "min_rtt_ns")),
			 20000);
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(o, "sender"), "max_rtt_ns")),
			 90000);
	assert_true(json_real_value(json_object_get(
			    json_object_get(o, "receiver"),
			    "bits_per_second")) == 124000000 * 8 / 4.0);
	json_decref(o);
	f = open_memstream(&txt, &n);
	assert_non_null(f);
	nb_tcp_text_row(f, "1", 1.0, 2.0, 125000000, 7, 1, 65536, 45000, 'a',
			NULL);
	nb_tcp_text_row(f, "SUM", 0, 2.0, 250000000, 0, 0, 0, 0, 'a',
			"receiver");
	fclose(f);
	if (getenv("TCP_DEBUG"))
		print_message("%s", txt);
	assert_non_null(strstr(txt, "[  1]   1.00-2.00   sec  119 MBytes   "
				    "1.00 Gbits/sec     7  64.0 KBytes   45 "
				    "us\n"));
	assert_non_null(strstr(txt, "[SUM]   0.00-2.00   sec  238 MBytes   "
				    "1.00 Gbits/sec                      "
				    "receiver\n"));
	assert_non_null(strstr(txt, "receiver"));
	free(txt);
}

/* CUBIC: beta 0.7 on the loss (checked at every ACK by client_input), K
 * from W_max, then cwnd on the larger of the cubic curve and the
 * Reno-friendly estimate (RFC 9438 4.2, 4.3), below W_max while both are. */
static void
test_cubic(void **state)
{
	uint64_t n = 40ull * 1000 * 1000;
	unsigned int i, below = 0, on = 0, cubic = 0;
	double wmax, k;

	(void)state;
	sim_sack = 1;
	sim_cc = NB_TCP_CC_CUBIC;
	sim_init(&S, n, 16 << 20, 1, 2); /* cwnd, not the window, limits */
	S.d[0].rate_bps = S.d[1].rate_bps = 100000000;
	S.d[0].delay_ns = S.d[1].delay_ns = 25000000; /* 50 ms RTT */
	S.d[0].drop_from = 100; /* one loss, in slow start */
	S.d[0].drop_n = 1;
	sim_run(&S, 600ull * 1000000000);
	sim_cc = NB_TCP_CC_NEWRENO;
	assert_delivered(&S, n);
	assert_int_equal(S.cli.st.recoveries, 1);
	assert_int_equal(S.fr_checks, 1);
	wmax = S.cli.w_max;
	k = S.cli.cubic_k;
	assert_true(wmax > 20);
	/* K = cbrt(W_max (1 - beta) / C), RFC 9438 (2) */
	assert_true(fabs(k - cbrt(wmax * 0.3 / 0.4)) < 1e-9);
	assert_true(S.nb_cu > 100);
	for (i = 0; i < S.nb_cu; i++) {
		double t = S.cu[i][0], w = S.cu[i][1], want = S.cu[i][2];
		double est = S.cu[i][3], goal = want > est ? want : est;

		if (getenv("TCP_DEBUG") && i % 50 == 0)
			print_message("t %.3f cwnd %.1f W_cubic %.1f W_est "
				      "%.1f (W_max %.1f, K %.3f)\n",
				      t, w, want, est, wmax, k);
		if (want < wmax && est < wmax) {
			below++;
			assert_true(w < wmax + 1);
		}
		if (t > 0.1 * k && t < 1.5 * k) {
			on++;
			cubic += want >= est;
			assert_true(fabs(w - goal) < 0.1 * wmax + 3);
		}
	}
	assert_true(below > 10);
	assert_true(on > 100);
	assert_true(cubic > 10); /* the cubic curve led for a while */
}

/* Request/response (--pingpong): each message waits for its answer; every
 * byte of both directions arrives and is the pattern; with loss too. */
static void
test_pingpong(void **state)
{
	int k;

	(void)state;
	for (k = 0; k < 2; k++) {
		sim_sack = 1;
		sim_init(&S, UINT64_MAX, 1 << 20, 5, 6);
		S.srv.snd_end = UINT64_MAX; /* the server answers */
		S.srv.close_after_send = 0;
		nb_tcp_send_limit(&S.srv, 0);
		nb_tcp_send_limit(&S.cli, 0);
		S.pp_msg = k ? 3000 : 1; /* 1 byte (qperf tcp_lat) and 3 segs */
		S.pp_n = 200;
		if (k)
			S.d[1].loss_ppm = S.d[0].loss_ppm = 20000;
		sim_run(&S, 600ull * 1000000000);
		assert_int_equal(S.pp_reqs, 200);
		assert_int_equal(S.pp_resps, 200);
		assert_int_equal(S.srv.st.bytes_rcvd, 200ull * S.pp_msg);
		assert_int_equal(S.cli.st.bytes_rcvd, 200ull * S.pp_msg);
		assert_int_equal(S.cli.st.bad_bytes, 0);
		assert_int_equal(S.srv.st.bad_bytes, 0);
		assert_int_equal(S.cli.state, NB_TCP_TIME_WAIT);
		assert_int_equal(S.srv.state, NB_TCP_CLOSED);
		if (!k) { /* one segment per message, each way: no loss */
			assert_int_equal(S.cli.st.retrans, 0);
			assert_int_equal(S.srv.st.retrans, 0);
			assert_true(S.now < 200 * 2 * 200000ull);
		}
	}
}

static void
test_wire(void **state)
{
	uint8_t buf[2048];
	struct nb_tcp_seg s = {0}, p;
	struct nb_flow f;
	int len;

	(void)state;
	nb_tcp_pattern_init();
	/* SYN with every option */
	s.flags = NB_TCP_SYN;
	s.seq = 0xfffffff0u;
	s.wnd = 65535;
	s.has_mss = 1;
	s.mss = 1460;
	s.wscale = 7;
	s.sack_ok = 1;
	len = nb_tcp_frame_build(buf, sizeof(buf), &flow_c2s, &s, NULL);
	assert_int_equal(len, 14 + 20 + 32);	     /* 66: no padding needed */
	assert_int_equal(buf[14 + 20 + 12] >> 4, 8); /* data offset */
	assert_int_equal(nb_tcp_frame_parse(buf, (uint32_t)len, 1, &f, &p), 0);
	assert_int_equal(p.seq, s.seq);
	assert_true(p.has_mss && p.mss == 1460 && p.wscale == 7 && p.sack_ok);
	assert_int_equal(f.src_port, 49152);
	assert_int_equal(f.dst_ip, 0xc6130001);
	/* a data segment with the stamp, from the pattern at an offset */
	memset(&s, 0, sizeof(s));
	s.wscale = NB_TCP_WSCALE_NONE;
	s.flags = NB_TCP_ACK | NB_TCP_PSH;
	s.seq = 77;
	s.ack = 88;
	s.len = 1000;
	s.data_off = 123456789;
	s.has_stamp = 1;
	s.stamp_ns = 0x123456789abcull;
	len = nb_tcp_frame_build(buf, sizeof(buf), &flow_c2s, &s, NULL);
	assert_int_equal(len, 14 + 20 + 32 + 1000);
	assert_int_equal(nb_tcp_frame_parse(buf, (uint32_t)len, 1, &f, &p), 0);
	assert_true(p.has_stamp);
	assert_int_equal(p.stamp_ns, 0x123456789abcull);
	assert_int_equal(p.len, 1000);
	assert_memory_equal(p.payload, nb_tcp_pattern_at(123456789), 1000);
	/* the O(1) payload sums agree with summing the bytes, from even and
	 * odd offsets, across the period's end; the shortcut check too */
	{
		uint64_t seed = 3;
		unsigned int i;

		for (i = 0; i < 2000; i++) {
			uint64_t k = rng_below(&seed, 1ull << 40);
			uint32_t n = (uint32_t)rng_below(&seed, 9001);
			uint32_t want;

			if (i < 10)
				k = NB_TCP_PATTERN_PERIOD - 1 - i;
			want = nb_csum_partial(nb_tcp_pattern_at(k), n, 0);
			assert_int_equal(nb_csum_fold(nb_tcp_pattern_sum(k, n)),
					 nb_csum_fold(want));
		}
		s.data_off = NB_TCP_PATTERN_PERIOD - 3; /* odd, wrapping */
		len = nb_tcp_frame_build(buf, sizeof(buf), &flow_c2s, &s, NULL);
		assert_int_equal(
			nb_tcp_frame_parse(buf, (uint32_t)len, 1, &f, &p), 0);
		assert_true(nb_tcp_frame_csum_ok(buf, &p, (int64_t)s.data_off));
		assert_true(nb_tcp_frame_csum_ok(buf, &p, -1));
		/* expecting another offset: summed the long way, still ok */
		assert_true(nb_tcp_frame_csum_ok(buf, &p, 5));
		buf[100] ^= 0x10;
		assert_false(
			nb_tcp_frame_csum_ok(buf, &p, (int64_t)s.data_off));
		assert_false(nb_tcp_frame_csum_ok(buf, &p, -1));
		buf[100] ^= 0x10;
		s.data_off = 123456789;
		len = nb_tcp_frame_build(buf, sizeof(buf), &flow_c2s, &s, NULL);
		assert_int_equal(
			nb_tcp_frame_parse(buf, (uint32_t)len, 1, &f, &p), 0);
	}
	/* every byte k of a stream is the pattern's k mod P */
	assert_int_equal(nb_tcp_pattern_at(NB_TCP_PATTERN_PERIOD + 5)[0],
			 nb_tcp_pattern[5]);
	assert_int_equal(nb_tcp_pattern[NB_TCP_PATTERN_PERIOD + 700],
			 nb_tcp_pattern[700]);
	/* a flipped bit fails the checksum, unless it is not checked */
	buf[len - 1] ^= 0x40;
	assert_int_equal(nb_tcp_frame_parse(buf, (uint32_t)len, 1, &f, &p),
			 -EPROTO);
	assert_int_equal(nb_tcp_frame_parse(buf, (uint32_t)len, 0, &f, &p), 0);
	/* an ACK with three SACK blocks, padded to 60 bytes */
	memset(&s, 0, sizeof(s));
	s.wscale = NB_TCP_WSCALE_NONE;
	s.flags = NB_TCP_ACK;
	s.nb_sack = 3;
	s.sack[0][0] = 1;
	s.sack[0][1] = 2;
	s.sack[2][0] = 0xfffffffe;
	s.sack[2][1] = 5;
	len = nb_tcp_frame_build(buf, sizeof(buf), &flow_s2c, &s, NULL);
	assert_int_equal(len, 14 + 20 + 20 + 28);
	assert_int_equal(nb_tcp_frame_parse(buf, (uint32_t)len, 1, &f, &p), 0);
	assert_int_equal(p.nb_sack, 3);
	assert_int_equal(p.sack[2][0], 0xfffffffe);
	/* a bare ACK is padded to the minimum frame */
	s.nb_sack = 0;
	len = nb_tcp_frame_build(buf, sizeof(buf), &flow_s2c, &s, NULL);
	assert_int_equal(len, 60);
	assert_int_equal(nb_tcp_frame_parse(buf, (uint32_t)len, 1, &f, &p), 0);
	assert_int_equal(p.len, 0); /* padding is not payload */
	/* malformed: an option running past the header, a data offset
	 * below 5 or past the packet, a truncated frame */
	s.nb_sack = 1;
	len = nb_tcp_frame_build(buf, sizeof(buf), &flow_s2c, &s, NULL);
	buf[14 + 20 + 20 + 3] = 30; /* SACK length beyond the options */
	assert_int_equal(nb_tcp_frame_parse(buf, (uint32_t)len, 0, &f, &p),
			 -EPROTO);
	buf[14 + 20 + 20 + 3] = 10;
	buf[14 + 20 + 12] = 0x40;
	assert_int_equal(nb_tcp_frame_parse(buf, (uint32_t)len, 0, &f, &p),
			 -EPROTO);
	buf[14 + 20 + 12] = 0xf0;
	assert_int_equal(nb_tcp_frame_parse(buf, (uint32_t)len, 0, &f, &p),
			 -EPROTO);
	buf[14 + 20 + 12] = 0x80;
	assert_int_equal(nb_tcp_frame_parse(buf, (uint32_t)len, 0, &f, &p), 0);
	assert_int_equal(nb_tcp_frame_parse(buf, 40, 0, &f, &p), -EPROTO);
	/* too big for the buffer */
	memset(&s, 0, sizeof(s));
	s.len = 1500;
	assert_int_equal(nb_tcp_frame_build(buf, 1000, &flow_c2s, &s, NULL),
			 -ENOSPC);
}

/*
 * A connection's template: for flows with and without a tag, other TTLs
 * and IDs, and segments of every flag, window, stamp, sequence and
 * payload offset, its headers are nb_tcp_frame_build_hdr()'s bytes; the
 * segments it is not for (SYN, RST, no stamp, SACK blocks, no payload,
 * past the span, padded) refused.  A run of segments
 * (nb_tcp_tmpl_build_run) is each segment's nb_tcp_tmpl_build() bytes.
 */
static void
test_wire_template(void **state)
{
	uint8_t want[128], got[NB_TCP_TMPL_MAX + 8];
	static const uint8_t flags[] = {NB_TCP_ACK, NB_TCP_ACK | NB_TCP_PSH,
					NB_TCP_ACK | NB_TCP_FIN,
					NB_TCP_ACK | NB_TCP_PSH | NB_TCP_FIN};
	struct nb_tcp_tmpl t;
	struct nb_tcp_seg s;
	struct nb_flow f;
	unsigned int k, i;
	int n;

	(void)state;
	nb_tcp_pattern_init();
	srand(12);
	for (k = 0; k < 8; k++) {
		f = k % 2 ? flow_s2c : flow_c2s;
		f.vlan_id = (uint16_t)(k / 2 % 2 ? 1 + rand() % 4094 : 0);
		f.ttl = (uint8_t)(k / 4 ? rand() % 256 : 0);
		f.stream_id = (uint16_t)rand();
		f.src_ip = (uint32_t)rand() * 2654435761u;
		f.dst_port = (uint16_t)rand();
		nb_tcp_tmpl_init(&t, &f);
		for (i = 0; i < 2000; i++) {
			memset(&s, 0, sizeof(s));
			s.wscale = NB_TCP_WSCALE_NONE;
			s.flags = flags[i % 4];
			s.seq = (uint32_t)rand() * 2654435761u + i;
			s.ack = i % 7 ? (uint32_t)rand() * 40503u : 0xffffffffu;
			s.wnd = i % 5 ? (uint32_t)rand() & 0xffff : 0xffff;
			s.has_stamp = 1;
			s.stamp_ns = ((uint64_t)rand() << 31) ^
				     (uint64_t)rand() ^
				     (i % 3 ? 0 : UINT64_C(0xffff) << 48);
			s.len = (uint16_t)(i % 11 ? 1 + rand() % 16384 : 1448);
			s.data_off =
				((uint64_t)rand() << 20) + (uint64_t)rand();
			n = nb_tcp_frame_build_hdr(want, sizeof(want), &f, &s);
			assert_true(n > 0);
			memset(got, 0xa5, sizeof(got));
			assert_int_equal(nb_tcp_tmpl_build(&t, got, &s), n);
			assert_memory_equal(got, want, (size_t)n);
		}
	}
	/* a run: each segment's headers are what nb_tcp_tmpl_build()
	 * writes for it alone (sequence numbers wrapping, offsets past the
	 * pattern's period) */
	for (k = 0; k < 300; k++) {
		static uint8_t runb[32][NB_TCP_TMPL_MAX + 8];
		uint8_t *bufs[32];
		unsigned int r = 1 + (unsigned int)rand() % 32;
		struct nb_tcp_seg x;

		f = k % 2 ? flow_s2c : flow_c2s;
		f.vlan_id = (uint16_t)(k % 3 ? 0 : 1 + rand() % 4094);
		nb_tcp_tmpl_init(&t, &f);
		memset(&s, 0, sizeof(s));
		s.wscale = NB_TCP_WSCALE_NONE;
		s.flags = NB_TCP_ACK;
		s.seq = k % 4 ? (uint32_t)rand() * 2654435761u
			      : 0u - (uint32_t)(rand() % 40000);
		s.ack = (uint32_t)rand() * 40503u;
		s.wnd = (uint32_t)rand() & 0xffff;
		s.has_stamp = 1;
		s.stamp_ns = ((uint64_t)rand() << 31) ^ (uint64_t)rand();
		s.len = (uint16_t)(k % 5 ? 1448 : 1 + rand() % 16384);
		s.data_off = k % 3 ? ((uint64_t)rand() << 20) + (uint64_t)rand()
				   : NB_TCP_PATTERN_PERIOD - 3000u;
		for (i = 0; i < r; i++) {
			bufs[i] = runb[i];
			memset(runb[i], 0x5a, sizeof(runb[i]));
		}
		assert_int_equal(nb_tcp_tmpl_build_run(&t, bufs, &s, r),
				 t.hlen);
		x = s;
		for (i = 0; i < r; i++) {
			memset(got, 0xa5, sizeof(got));
			assert_int_equal(nb_tcp_tmpl_build(&t, got, &x),
					 t.hlen);
			assert_memory_equal(runb[i], got, t.hlen);
			/* and the general writer's, which shares no code */
			n = nb_tcp_frame_build_hdr(want, sizeof(want), &f, &x);
			assert_int_equal(n, t.hlen);
			assert_memory_equal(runb[i], want, (size_t)n);
			x.seq += x.len;
			x.data_off += x.len;
		}
	}
	/* refused */
	f = flow_c2s;
	nb_tcp_tmpl_init(&t, &f);
	memset(&s, 0, sizeof(s));
	s.wscale = NB_TCP_WSCALE_NONE;
	s.flags = NB_TCP_ACK;
	s.has_stamp = 1;
	s.len = 100;
	assert_int_equal(nb_tcp_tmpl_build(&t, got, &s), t.hlen);
	s.flags = NB_TCP_SYN | NB_TCP_ACK;
	assert_int_equal(nb_tcp_tmpl_build(&t, got, &s), -EINVAL);
	s.flags = NB_TCP_RST | NB_TCP_ACK;
	assert_int_equal(nb_tcp_tmpl_build(&t, got, &s), -EINVAL);
	s.flags = NB_TCP_ACK;
	s.has_stamp = 0;
	assert_int_equal(nb_tcp_tmpl_build(&t, got, &s), -EINVAL);
	s.has_stamp = 1;
	s.nb_sack = 1;
	assert_int_equal(nb_tcp_tmpl_build(&t, got, &s), -EINVAL);
	s.nb_sack = 0;
	s.len = 0;
	assert_int_equal(nb_tcp_tmpl_build(&t, got, &s), -EINVAL);
	s.len = 16385;
	assert_int_equal(nb_tcp_tmpl_build(&t, got, &s), -EINVAL);
	{
		uint8_t *one[1] = {got};

		memset(got, 0xa5, sizeof(got));
		assert_int_equal(nb_tcp_tmpl_build_run(&t, one, &s, 1),
				 -EINVAL);
		assert_int_equal(got[0], 0xa5); /* nothing written */
		s.len = 100;
		assert_int_equal(nb_tcp_tmpl_build_run(&t, one, &s, 0),
				 -EINVAL);
	}
}

/* IPv4 header and TCP checksums of frame b (len bytes, an 802.1Q tag
 * when vlan) by the reference sum: 1 when both are right. */
static int
ref_l4_csum_ok(const uint8_t *b, uint32_t len, uint16_t vlan)
{
	const uint8_t *ip = b + 14 + (vlan ? 4 : 0);
	uint32_t ihl = (uint32_t)(ip[0] & 0xf) * 4;
	uint32_t tot = ((uint32_t)ip[2] << 8) | ip[3];
	uint64_t pseudo;

	if ((uint32_t)(ip - b) + tot != len)
		return 0;
	if (ref_sum(ip, ihl, 0) != 0xffff)
		return 0;
	pseudo = ref_sum(ip + 12, 8, 0) + 6u + (tot - ihl);
	return ref_sum(ip + ihl, tot - ihl, pseudo) == 0xffff;
}

/*
 * The zero-copy sender's headers: byte for byte the start of the frame
 * nb_tcp_frame_build() makes of the same segment, and with the pattern
 * after them a frame whose checksums a separate RFC 1071 sum accepts;
 * segments it cannot make (no payload, past the pattern's span, a frame
 * under 60 bytes, a buffer too small) refused.
 */
static void
test_wire_hdr_only(void **state)
{
	uint8_t full[20000], hdr[128], joined[20000];
	static const uint16_t lens[] = {1,    6,    255,  256,	1000,
					1448, 1460, 9000, 16384};
	struct nb_flow f = flow_c2s;
	struct nb_tcp_seg s;
	unsigned int i, v;
	uint64_t off = 0;
	int n, hl;

	(void)state;
	nb_tcp_pattern_init();
	srand(11);
	for (v = 0; v < 2; v++) {
		f.vlan_id = v ? 42 : 0;
		for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			memset(&s, 0, sizeof(s));
			s.wscale = NB_TCP_WSCALE_NONE;
			s.flags = NB_TCP_ACK | (i % 2 ? NB_TCP_PSH : 0);
			s.seq = (uint32_t)rand() * 2654435761u;
			s.ack = (uint32_t)rand();
			s.wnd = (uint32_t)rand() & 0xffff;
			s.len = lens[i];
			/* even and odd offsets, across the period */
			off += (uint64_t)rand() * 7919u + i;
			s.data_off = off;
			s.has_stamp = i != 1;
			s.stamp_ns = (uint64_t)rand() << 20;
			n = nb_tcp_frame_build(full, sizeof(full), &f, &s,
					       NULL);
			hl = nb_tcp_frame_build_hdr(hdr, sizeof(hdr), &f, &s);
			if (nb_tcp_frame_len(&f, &s) < 60) {
				/* padded: the copy's */
				assert_int_equal(hl, -ENOSPC);
				continue;
			}
			assert_true(hl > 0);
			assert_int_equal(hl + s.len, n);
			assert_memory_equal(hdr, full, (size_t)hl);
			memcpy(joined, hdr, (size_t)hl);
			memcpy(joined + hl, nb_tcp_pattern_at(s.data_off),
			       s.len);
			assert_int_equal(
				ref_l4_csum_ok(joined, (uint32_t)n, f.vlan_id),
				1);
		}
	}
	/* refused */
	memset(&s, 0, sizeof(s));
	s.wscale = NB_TCP_WSCALE_NONE;
	s.flags = NB_TCP_ACK;
	s.has_stamp = 1;
	f.vlan_id = 0;
	assert_int_equal(nb_tcp_frame_build_hdr(hdr, sizeof(hdr), &f, &s),
			 -ENOSPC); /* no payload */
	s.len = 16385;
	assert_int_equal(nb_tcp_frame_build_hdr(hdr, sizeof(hdr), &f, &s),
			 -ENOSPC); /* past the span */
	s.len = 1448;
	assert_int_equal(nb_tcp_frame_build_hdr(hdr, 65, &f, &s), -ENOSPC);
	assert_int_equal(nb_tcp_frame_build_hdr(hdr, 66, &f, &s), 66);
	s.has_stamp = 0;
	s.len = 5; /* 14 + 20 + 20 + 5 = 59 bytes: padded */
	assert_int_equal(nb_tcp_frame_build_hdr(hdr, sizeof(hdr), &f, &s),
			 -ENOSPC);
	s.len = 6;
	assert_int_equal(nb_tcp_frame_build_hdr(hdr, sizeof(hdr), &f, &s), 54);
}

static void
test_fuzz_parse(void **state)
{
	uint8_t buf[256];
	struct nb_tcp_seg p;
	struct nb_flow f;
	uint64_t seed = 7;
	unsigned int i, j;
	int len;

	(void)state;
	/* random option bytes in a valid frame: never read past the end */
	for (i = 0; i < 20000; i++) {
		struct nb_tcp_seg s = {0};

		s.wscale = NB_TCP_WSCALE_NONE;
		s.flags = NB_TCP_ACK;
		s.nb_sack = 3;
		len = nb_tcp_frame_build(buf, sizeof(buf), &flow_c2s, &s, NULL);
		for (j = 0; j < 28; j++)
			buf[54 + j] = (uint8_t)rng_next(&seed);
		if (nb_tcp_frame_parse(buf, (uint32_t)len, 0, &f, &p) == 0)
			assert_true(p.nb_sack <= NB_TCP_SACK_MAX);
		(void)nb_tcp_frame_parse(buf, (uint32_t)rng_below(&seed, 83), 0,
					 &f, &p);
	}
}

/*
 * The parser's shortcut for the common shape (untagged IPv4, the stamp
 * option alone) against the general way: the same verdict and the same
 * fields for frames of every shape, whole, cut short, and with bytes of
 * their headers changed at random.
 */
static void
test_parse_fast(void **state)
{
	static const uint16_t lens[] = {0, 1, 2, 100, 1400, 1448};
	uint8_t buf[1600], mut[1600];
	uint64_t seed = 11, fastshape = 0, agreed = 0;
	unsigned int i, j;

	(void)state;
	for (i = 0; i < 40000; i++) {
		struct nb_tcp_seg s = {0}, a, b;
		struct nb_flow fl = flow_c2s, fa, fb;
		uint32_t len;
		int ra, rb, n;

		s.wscale = NB_TCP_WSCALE_NONE;
		s.seq = (uint32_t)rng_next(&seed);
		s.ack = (uint32_t)rng_next(&seed);
		s.flags = (uint8_t)(rng_next(&seed) & 0x3f);
		s.wnd = (uint32_t)rng_below(&seed, 65536);
		s.len = lens[rng_below(&seed, 6)];
		s.data_off = rng_below(&seed, 1ull << 40);
		s.has_stamp = rng_below(&seed, 8) != 0;
		s.stamp_ns = rng_next(&seed);
		if (rng_below(&seed, 8) == 0)
			s.nb_sack = (uint8_t)(1 + rng_below(&seed, 3));
		fl.vlan_id = rng_below(&seed, 8) == 0 ? 7 : 0;
		fl.stream_id = (uint16_t)rng_next(&seed);
		fl.ttl = (uint8_t)rng_next(&seed);
		n = nb_tcp_frame_build(buf, sizeof(buf), &fl, &s, NULL);
		assert_true(n > 0);
		len = (uint32_t)n;
		memcpy(mut, buf, len);
		/* a quarter whole, the rest with header bytes changed, some
		 * of them cut short too */
		for (j = 0; i % 4 && j < 1 + rng_below(&seed, 3); j++)
			mut[rng_below(&seed, 70)] ^=
				(uint8_t)(1u << rng_below(&seed, 8));
		/* a third with the IPv4 header's sum made right again, so a
		 * changed field of it reaches the checks after the sum */
		if (i % 3 == 0 && !fl.vlan_id) {
			nb_put_be16(mut + 24, 0);
			nb_put_be16(mut + 24, nb_ipv4_hdr_csum(mut + 14, 20));
		}
		if (i % 8 == 7)
			len = (uint32_t)rng_below(&seed, len + 1);
		memset(&fa, 0, sizeof(fa));
		memset(&fb, 0, sizeof(fb));
		ra = nb_tcp_frame_parse(mut, len, (int)(i % 2), &fa, &a);
		rb = nb_tcp_frame_parse_general(mut, len, (int)(i % 2), &fb,
						&b);
		assert_int_equal(ra, rb);
		if (ra == 0) {
			assert_memory_equal(&a, &b, sizeof(a));
			assert_memory_equal(&fa, &fb, sizeof(fa));
			agreed++;
			fastshape += !fl.vlan_id && s.has_stamp && !s.nb_sack &&
				     !(s.flags & NB_TCP_SYN) && i % 4 == 0;
		}
	}
	/* both kinds seen, the shortcut's shape in thousands */
	assert_true(agreed > 10000);
	assert_true(fastshape > 2000);
}

/*
 * nb_tcp_output_run() in the scenarios above (client_run checks every run
 * against nb_tcp_output): their own assertions hold too, every byte
 * delivered once and NewReno's rules, with runs of many segments seen.
 */
static void
test_output_run(void **state)
{
	sim_run_max = 32;
	runs_seen = run_segs = run_max_k = 0;
	test_clean_transfer(state);
	assert_true(runs_seen > 100);
	assert_true(run_max_k >= 2);
	test_single_loss_fast_retransmit(state);
	test_burst_loss_partial_acks(state);
	test_random_loss(state);
	test_ack_loss_reorder_dup(state);
	test_window_limit(state);
	test_bottleneck_queue(state);
	test_rto_backoff(state);
	test_wraparound(state);
	test_delayed_ack(state);
	test_close_on_time(state);
	test_pingpong(state);
	/* data that ends where a segment ends, the stream's and each
	 * message's: that last segment (PSH) is nb_tcp_output's, not a
	 * run's (client_run compares the flags) */
	sim_sack = 1;
	sim_init(&S, 2000ull * PAY, 1 << 20, 11, 12);
	sim_run(&S, 60ull * 1000000000);
	assert_delivered(&S, 2000ull * PAY);
	sim_init(&S, UINT64_MAX, 1 << 20, 13, 14);
	S.srv.snd_end = UINT64_MAX;
	S.srv.close_after_send = 0;
	nb_tcp_send_limit(&S.srv, 0);
	nb_tcp_send_limit(&S.cli, 0);
	S.pp_msg = 8 * PAY;
	S.pp_n = 50;
	sim_run(&S, 60ull * 1000000000);
	assert_int_equal(S.srv.st.bytes_rcvd, 50ull * 8 * PAY);
	assert_int_equal(S.cli.state, NB_TCP_TIME_WAIT);
	sim_run_max = 0;
	/* delayed ACKs open the window two segments at a time, and a
	 * recovery's end more: runs longer than one */
	assert_true(run_max_k >= 4);
	assert_true(run_segs > runs_seen); /* more than one a run, mean */
}

static int newreno = 0, sack = 1;

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wire),
		cmocka_unit_test(test_wire_hdr_only),
		cmocka_unit_test(test_wire_template),
		cmocka_unit_test(test_check_auto),
		cmocka_unit_test(test_pingpong),
		cmocka_unit_test(test_cubic),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_fuzz_parse),
		cmocka_unit_test(test_parse_fast),
		cmocka_unit_test(test_clean_transfer),
		cmocka_unit_test(test_initial_window),
		cmocka_unit_test_prestate_setup_teardown(
			test_single_loss_fast_retransmit, NULL, NULL, &newreno),
		cmocka_unit_test_prestate_setup_teardown(
			test_single_loss_fast_retransmit, NULL, NULL, &sack),
		cmocka_unit_test_prestate_setup_teardown(test_early_retransmit,
							 NULL, NULL, &newreno),
		cmocka_unit_test_prestate_setup_teardown(test_early_retransmit,
							 NULL, NULL, &sack),
		cmocka_unit_test_prestate_setup_teardown(
			test_burst_loss_partial_acks, NULL, NULL, &newreno),
		cmocka_unit_test_prestate_setup_teardown(
			test_burst_loss_partial_acks, NULL, NULL, &sack),
		cmocka_unit_test_prestate_setup_teardown(test_random_loss, NULL,
							 NULL, &newreno),
		cmocka_unit_test_prestate_setup_teardown(test_random_loss, NULL,
							 NULL, &sack),
		cmocka_unit_test_prestate_setup_teardown(
			test_ack_loss_reorder_dup, NULL, NULL, &newreno),
		cmocka_unit_test_prestate_setup_teardown(
			test_ack_loss_reorder_dup, NULL, NULL, &sack),
		cmocka_unit_test(test_window_limit),
		cmocka_unit_test_prestate_setup_teardown(test_bottleneck_queue,
							 NULL, NULL, &newreno),
		cmocka_unit_test_prestate_setup_teardown(test_bottleneck_queue,
							 NULL, NULL, &sack),
		cmocka_unit_test_prestate_setup_teardown(test_rto_backoff, NULL,
							 NULL, &newreno),
		cmocka_unit_test_prestate_setup_teardown(test_rto_backoff, NULL,
							 NULL, &sack),
		cmocka_unit_test_prestate_setup_teardown(test_wraparound, NULL,
							 NULL, &newreno),
		cmocka_unit_test_prestate_setup_teardown(test_wraparound, NULL,
							 NULL, &sack),
		cmocka_unit_test(test_delayed_ack),
		cmocka_unit_test(test_stretch_ack),
		cmocka_unit_test(test_syn_loss_and_refused),
		cmocka_unit_test(test_half_open_bounded),
		cmocka_unit_test_prestate_setup_teardown(test_close_on_time,
							 NULL, NULL, &newreno),
		cmocka_unit_test_prestate_setup_teardown(test_close_on_time,
							 NULL, NULL, &sack),
		cmocka_unit_test(test_reset_and_unacceptable),
		cmocka_unit_test_prestate_setup_teardown(test_output_run, NULL,
							 NULL, &newreno),
		cmocka_unit_test_prestate_setup_teardown(test_output_run, NULL,
							 NULL, &sack),
	};
	enum { N = sizeof(tests) / sizeof(tests[0]) };
	struct CMUnitTest part[N];
	unsigned int k, n, i, m = 0;

	/* "K/N": every Nth test from the Kth, so that the simulated links
	 * (minutes under ASan) run as N tests side by side */
	if (argc != 2)
		return cmocka_run_group_tests(tests, NULL, NULL);
	if (sscanf(argv[1], "%u/%u", &k, &n) != 2 || k == 0 || k > n) {
		fprintf(stderr, "usage: %s [K/N]\n", argv[0]);
		return 2;
	}
	for (i = k - 1; i < N; i += n)
		part[m++] = tests[i];
	return _cmocka_run_group_tests(argv[1], part, m, NULL, NULL);
}
