/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for a connection's application bytes (app/core/nb_tcp_app.c
 * and its hooks in the TCP engine): an active and a passive end, each
 * with a TX log and an RX ring, over an in-memory link on a simulated
 * clock, every segment written by nb_tcp_frame_build_app() and read back
 * by nb_tcp_frame_parse() (checksum checked).  What each end read is
 * compared byte for byte with what the other wrote, kept apart from the
 * code under test.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_tcp.h"
#include "nb_tcp_app.h"
#include "nb_tcp_wire.h"
#include "nb_test_util.h"

#define MSS	 1460
#define QMAX	 1024
#define FRAMEMAX 1600
#define BIG	 65536
#define DELAY_NS 20000ull /* each way */

struct frame {
	uint64_t due;
	uint8_t to_b;
	uint16_t len;
	uint8_t buf[FRAMEMAX];
};

struct end {
	struct nb_tcp_conn c;
	struct nb_tcp_app app;
	const struct nb_flow *flow;
	uint8_t tx[BIG];
	uint8_t rx[BIG];
	uint8_t wrote[BIG]; /* what the test wrote, apart from the log */
	size_t nwrote;
	uint8_t got[BIG]; /* what the test read */
	size_t ngot;
	int reads;	       /* read all there is at every step */
	uint64_t data_out;     /* data segments it sent */
	uint64_t max_wnd_seen; /* the largest window the other end offered */
};

struct link {
	struct end a, b; /* a connects, b listens */
	struct frame q[QMAX];
	unsigned int nq;
	uint64_t now;
	/* faults on data segments, counted per direction: every nth lost,
	 * held back (arriving after later ones), duplicated */
	unsigned int drop_every, late_every, dup_every;
	uint64_t nth[2], drops, lates, dups;
};

static const struct nb_flow flow_ab = {
	.dst_mac = {2, 0, 0, 0, 0, 2},
	.src_mac = {2, 0, 0, 0, 0, 1},
	.proto = NB_IPPROTO_TCP,
	.src_ip = 0xc6120001,
	.dst_ip = 0xc6130001,
	.src_port = 49152,
	.dst_port = 5201,
};
static const struct nb_flow flow_ba = {
	.dst_mac = {2, 0, 0, 0, 0, 1},
	.src_mac = {2, 0, 0, 0, 0, 2},
	.proto = NB_IPPROTO_TCP,
	.src_ip = 0xc6130001,
	.dst_ip = 0xc6120001,
	.src_port = 5201,
	.dst_port = 49152,
};

/* Both ends' SACK offer and delayed ACKs (a case may change them) */
static int link_sack = 1, link_delack;

static struct link *
link_new(uint32_t rxcap_a, uint32_t rxcap_b)
{
	struct link *l = calloc(1, sizeof(*l));
	struct nb_tcp_params p = {
		.mss = MSS,
		.rcv_wnd = 65535,
		.sack = (uint8_t)link_sack,
		.delayed_ack = (uint8_t)link_delack,
		.send_bytes = UINT64_MAX,
	};

	assert_non_null(l);
	p.iss = 0xfffff000u; /* the 32-bit wrap within the first 4 KB */
	nb_tcp_connect(&l->a.c, &p, 0);
	p.iss = 77;
	nb_tcp_listen(&l->b.c, &p);
	nb_tcp_app_init(&l->a.app, l->a.tx, BIG, l->a.rx, rxcap_a, 0);
	nb_tcp_app_init(&l->b.app, l->b.tx, BIG, l->b.rx, rxcap_b, 0);
	nb_tcp_app_attach(&l->a.c, &l->a.app);
	nb_tcp_app_attach(&l->b.c, &l->b.app);
	l->a.flow = &flow_ab;
	l->b.flow = &flow_ba;
	l->a.reads = l->b.reads = 1;
	return l;
}

static void
enqueue(struct link *l, int to_b, const uint8_t *buf, int len, uint64_t due)
{
	unsigned int i;

	assert_true(l->nq < QMAX);
	i = l->nq++;
	while (i > 0 && l->q[i - 1].due > due) { /* sorted, FIFO at a tie */
		l->q[i] = l->q[i - 1];
		i--;
	}
	l->q[i].due = due;
	l->q[i].to_b = (uint8_t)to_b;
	l->q[i].len = (uint16_t)len;
	memcpy(l->q[i].buf, buf, (size_t)len);
}

/* One segment from end e into the link, through the faults. */
static void
transmit(struct link *l, struct end *e, const struct nb_tcp_seg *seg)
{
	uint8_t buf[FRAMEMAX];
	int to_b = e == &l->a, len;
	uint64_t due = l->now + DELAY_NS, n;

	len = nb_tcp_frame_build_app(buf, sizeof(buf), e->flow, seg, &e->app);
	assert_true(len >= 60);
	if (seg->len == 0) {
		enqueue(l, to_b, buf, len, due);
		return;
	}
	e->data_out++;
	n = ++l->nth[to_b];
	if (l->drop_every && n % l->drop_every == 0) {
		l->drops++;
		return;
	}
	if (l->late_every && n % l->late_every == 0) {
		due += 4 * DELAY_NS; /* after the next few */
		l->lates++;
	}
	enqueue(l, to_b, buf, len, due);
	if (l->dup_every && n % l->dup_every == 0) {
		enqueue(l, to_b, buf, len, due + 1000);
		l->dups++;
	}
}

static void
take_in(struct link *l, const struct frame *fr)
{
	struct end *to = fr->to_b ? &l->b : &l->a;
	struct nb_flow f;
	struct nb_tcp_seg seg;

	assert_int_equal(nb_tcp_frame_parse(fr->buf, fr->len, 1, &f, &seg), 0);
	if (seg.flags & NB_TCP_ACK) {
		uint64_t w =
			(uint64_t)seg.wnd
			<< (fr->to_b ? l->a.c.snd_wscale : l->b.c.snd_wscale);

		if (!(seg.flags & NB_TCP_SYN) && w > to->max_wnd_seen)
			to->max_wnd_seen = w;
	}
	nb_tcp_input(&to->c, &seg, l->now);
}

static void
read_all(struct end *e)
{
	size_t n;

	do {
		n = nb_tcp_app_read(&e->c, &e->app, e->got + e->ngot,
				    BIG - e->ngot);
		e->ngot += n;
	} while (n);
}

/* One turn: both ends send what is due, readers read, the clock moves on
 * to the next frame or timer.  0 when nothing is left to happen. */
static int
step(struct link *l)
{
	struct end *ends[2] = {&l->a, &l->b};
	struct nb_tcp_seg seg;
	uint64_t next = 0, t;
	struct frame fr;
	int i;

	for (i = 0; i < 2; i++) {
		if (ends[i]->reads)
			read_all(ends[i]);
		while (nb_tcp_output(&ends[i]->c, l->now, &seg))
			transmit(l, ends[i], &seg);
	}
	if (l->nq)
		next = l->q[0].due;
	for (i = 0; i < 2; i++) {
		t = nb_tcp_next_event(&ends[i]->c);
		if (t && (!next || t < next))
			next = t;
	}
	if (!next)
		return 0;
	if (next > l->now)
		l->now = next;
	while (l->nq && l->q[0].due <= l->now) {
		fr = l->q[0];
		memmove(&l->q[0], &l->q[1], (l->nq - 1) * sizeof(l->q[0]));
		l->nq--;
		take_in(l, &fr);
	}
	return 1;
}

/* Run until nothing is left to happen or the clock passes until_ns. */
static void
run(struct link *l, uint64_t until_ns)
{
	unsigned int turns = 0;

	while (l->now < until_ns && step(l))
		assert_true(++turns < 2000000);
}

/* The test writes through the app and keeps its own copy. */
static void
put(struct end *e, const void *bytes, size_t n)
{
	assert_int_equal(nb_tcp_app_write(&e->c, &e->app, bytes, n), n);
	memcpy(e->wrote + e->nwrote, bytes, n);
	e->nwrote += n;
}

static void
fill_rand(uint8_t *p, size_t n, uint64_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)rng_next(&seed);
}

/* Each end read exactly what the other wrote. */
static void
check_exchange(const struct link *l)
{
	assert_int_equal(l->b.ngot, l->a.nwrote);
	assert_memory_equal(l->b.got, l->a.wrote, l->a.nwrote);
	assert_int_equal(l->a.ngot, l->b.nwrote);
	assert_memory_equal(l->a.got, l->b.wrote, l->b.nwrote);
}

static void
test_clean_messages(void **state)
{
	struct link *l = link_new(8192, 8192);
	uint8_t big[5000];
	uint64_t segs;

	(void)state;
	run(l, 1000000000ull);
	assert_int_equal(l->a.c.state, NB_TCP_ESTABLISHED);
	assert_int_equal(l->b.c.state, NB_TCP_ESTABLISHED);
	assert_int_equal(l->a.data_out + l->b.data_out,
			 0); /* nothing written */
	put(&l->a, "hello", 5);
	run(l, 2000000000ull);
	assert_int_equal(l->b.ngot, 5);
	assert_memory_equal(l->b.got, "hello", 5);
	put(&l->b, "\x02", 1); /* one state byte back */
	put(&l->b, "{\"a\":1}", 7);
	run(l, 3000000000ull);
	assert_int_equal(l->a.ngot, 8);
	assert_memory_equal(l->a.got, "\x02{\"a\":1}", 8);
	/* one message over three segments and a bit */
	fill_rand(big, sizeof(big), 7);
	segs = l->a.data_out;
	put(&l->a, big, sizeof(big));
	run(l, 4000000000ull);
	assert_int_equal(l->a.data_out - segs, 4);
	check_exchange(l);
	assert_memory_equal(l->b.got + 5, big, sizeof(big));
	assert_int_equal(l->a.c.st.retrans + l->b.c.st.retrans, 0);
	assert_int_equal(l->a.c.st.bad_bytes + l->b.c.st.bad_bytes, 0);
	free(l);
}

static void
faulty_link(void)
{
	struct link *l = link_new(8192, 8192);
	static uint8_t src_a[30000], src_b[20000];
	size_t at = 0, bt = 0, n;
	uint64_t seed = 99;

	l->drop_every = 5;
	l->late_every = 3;
	l->dup_every = 7;
	fill_rand(src_a, sizeof(src_a), 1);
	fill_rand(src_b, sizeof(src_b), 2);
	run(l, 1000000000ull);
	/* messages of 1 to 3000 bytes both ways, written between turns */
	while (at < sizeof(src_a) || bt < sizeof(src_b)) {
		n = 1 + rng_below(&seed, 3000);
		if (n > sizeof(src_a) - at)
			n = sizeof(src_a) - at;
		if (n) {
			put(&l->a, src_a + at, n);
			at += n;
		}
		n = 1 + rng_below(&seed, 2000);
		if (n > sizeof(src_b) - bt)
			n = sizeof(src_b) - bt;
		if (n) {
			put(&l->b, src_b + bt, n);
			bt += n;
		}
		for (n = rng_below(&seed, 20); n > 0; n--)
			step(l);
	}
	run(l, l->now + 120000000000ull);
	check_exchange(l);
	assert_memory_equal(l->b.got, src_a, sizeof(src_a));
	assert_memory_equal(l->a.got, src_b, sizeof(src_b));
	/* the faults happened, and the receivers saw them */
	assert_true(l->drops > 5 && l->lates > 5 && l->dups > 3);
	assert_true(l->b.c.st.ooo_segs_in > 0 && l->a.c.st.ooo_segs_in > 0);
	assert_true(l->b.c.st.dup_bytes_in > 0);
	assert_true(l->a.c.st.retrans > 0 && l->b.c.st.retrans > 0);
	assert_int_equal(l->a.c.st.bad_bytes + l->b.c.st.bad_bytes, 0);
	/* every byte delivered once: as many as were written */
	assert_int_equal(l->b.c.st.bytes_rcvd, sizeof(src_a));
	assert_int_equal(l->a.c.st.bytes_rcvd, sizeof(src_b));
	free(l);
}

static void
test_faulty_link(void **state)
{
	(void)state;
	faulty_link();
}

/* the same without SACK (NewReno's recovery) and with delayed ACKs */
static void
test_faulty_link_nosack(void **state)
{
	(void)state;
	link_sack = 0;
	link_delack = 1;
	faulty_link();
	link_sack = 1;
	link_delack = 0;
}

static void
test_slow_reader(void **state)
{
	struct link *l = link_new(8192, 4096);
	static uint8_t src[20000];
	uint8_t part[1000];
	size_t n;

	(void)state;
	l->b.reads = 0;
	fill_rand(src, sizeof(src), 3);
	run(l, 1000000000ull);
	put(&l->a, src, sizeof(src));
	/* ten minutes: probes past NB_TCP_DATA_RETRIES RTOs, answered */
	run(l, 600000000000ull);
	assert_true(l->a.c.st.rto_fired > NB_TCP_DATA_RETRIES);
	/* the sender stopped at the ring's size: the window is shut */
	assert_int_equal(nb_tcp_app_readable(&l->b.c, &l->b.app), 4096);
	assert_int_equal(l->b.c.rcv_wnd, 0);
	assert_int_equal(l->a.c.snd_wnd, 0);
	assert_int_equal(l->a.c.st.bytes_acked, 4096);
	assert_int_equal(l->a.c.state, NB_TCP_ESTABLISHED);
	assert_true(l->a.max_wnd_seen <= 4096);
	/* a read of 1000: the window opens (an update goes), as much comes */
	n = nb_tcp_app_read(&l->b.c, &l->b.app, part, sizeof(part));
	assert_int_equal(n, sizeof(part));
	assert_memory_equal(part, src, sizeof(part));
	assert_true(l->b.c.ack_pending);
	run(l, l->now + 5000000ull); /* a few round trips, no timer */
	assert_int_equal(nb_tcp_app_readable(&l->b.c, &l->b.app), 4096);
	assert_int_equal(l->a.c.st.bytes_acked, 5096);
	/* then a reader that reads: the rest comes */
	memcpy(l->b.got, part, sizeof(part));
	l->b.ngot = sizeof(part);
	l->b.reads = 1;
	run(l, l->now + 60000000000ull);
	assert_int_equal(l->b.ngot, sizeof(src));
	assert_memory_equal(l->b.got, src, sizeof(src));
	assert_int_equal(l->a.c.st.bytes_acked, sizeof(src));
	free(l);
}

static void
test_prefix_stream(void **state)
{
	struct link *l = link_new(8192, 65536);
	struct nb_tcp_params p = {
		.iss = 5,
		.mss = MSS,
		.rcv_wnd = 65535,
		.sack = 1,
		.send_bytes = 20000,
		.close_after_send = 1,
	};
	const char cookie[] = "abcdefghijklmnopqrstuvwxyz0123456789"; /* 37 */
	uint8_t want[20000];
	unsigned int i;

	(void)state;
	assert_int_equal(sizeof(cookie), 37);
	/* a: a data stream whose first 37 bytes are the cookie */
	nb_tcp_connect(&l->a.c, &p, 0);
	nb_tcp_app_init(&l->a.app, l->a.tx, BIG, NULL, 0, 1);
	nb_tcp_app_attach(&l->a.c, &l->a.app);
	put(&l->a, cookie, sizeof(cookie));
	assert_null(nb_tcp_app_payload(&l->a.app, 30, 20)); /* across */
	assert_ptr_equal(nb_tcp_app_payload(&l->a.app, 2, 5), l->a.tx + 2);
	assert_ptr_equal(nb_tcp_app_payload(&l->a.app, 100, 5),
			 nb_tcp_pattern_at(100));
	run(l, 30000000000ull);
	/* what b read: the cookie, then the pattern at the same offsets */
	memcpy(want, cookie, sizeof(cookie));
	for (i = sizeof(cookie); i < sizeof(want); i++)
		want[i] = *nb_tcp_pattern_at(i);
	assert_int_equal(l->b.ngot, sizeof(want));
	assert_memory_equal(l->b.got, want, sizeof(want));
	assert_true(nb_tcp_app_eof(&l->b.c, &l->b.app));
	/* too late for the prefix now */
	assert_int_equal(nb_tcp_app_write(&l->a.c, &l->a.app, "x", 1), 0);
	free(l);
}

static void
test_prefix_auto_check(void **state)
{
	struct link *l = link_new(8192, 8192);
	struct nb_tcp_params p = {
		.iss = 5,
		.mss = MSS,
		.rcv_wnd = 65535,
		.send_bytes = 10000,
		.close_after_send = 1,
	};
	const char cookie[] = "abcdefghijklmnopqrstuvwxyz0123456789";

	(void)state;
	/* b: a pattern receiver (no app) whose check is AUTO: the cookie
	 * is not the pattern, so it checks nothing */
	nb_tcp_connect(&l->a.c, &p, 0);
	nb_tcp_app_init(&l->a.app, l->a.tx, BIG, NULL, 0, 1);
	nb_tcp_app_attach(&l->a.c, &l->a.app);
	put(&l->a, cookie, sizeof(cookie));
	p.iss = 9;
	p.send_bytes = 0;
	p.close_after_send = 0;
	p.check = NB_TCP_CHECK_AUTO;
	nb_tcp_listen(&l->b.c, &p);
	l->b.reads = 0;
	run(l, 30000000000ull);
	assert_int_equal(l->b.c.check, NB_TCP_CHECK_OFF);
	assert_int_equal(l->b.c.st.bytes_rcvd, 10000);
	assert_true(nb_tcp_finished(&l->a.c) && nb_tcp_finished(&l->b.c));
	free(l);
}

static void
test_fin_after_bytes(void **state)
{
	struct link *l = link_new(8192, 8192);
	uint8_t msg[3000];

	(void)state;
	fill_rand(msg, sizeof(msg), 5);
	run(l, 1000000000ull);
	put(&l->a, msg, sizeof(msg));
	/* closed at once, before any byte went: the FIN follows them all */
	nb_tcp_close(&l->a.c);
	assert_int_equal(nb_tcp_app_write(&l->a.c, &l->a.app, "x", 1), 0);
	assert_int_equal(l->a.c.snd_end, 1 + sizeof(msg));
	run(l, 2000000000ull);
	assert_int_equal(l->b.ngot, sizeof(msg));
	assert_memory_equal(l->b.got, msg, sizeof(msg));
	assert_true(nb_tcp_app_eof(&l->b.c, &l->b.app));
	/* b does not close by itself: it answers, then closes */
	assert_int_equal(l->b.c.state, NB_TCP_CLOSE_WAIT);
	put(&l->b, "bye", 3);
	nb_tcp_close(&l->b.c);
	run(l, 4000000000ull);
	assert_int_equal(l->a.ngot, 3);
	assert_memory_equal(l->a.got, "bye", 3);
	assert_true(nb_tcp_app_eof(&l->a.c, &l->a.app));
	assert_true(nb_tcp_finished(&l->a.c) && nb_tcp_finished(&l->b.c));
	assert_int_equal(l->a.c.error, NB_TCP_OK);
	assert_int_equal(l->b.c.error, NB_TCP_OK);
	free(l);
}

static void
test_copy_and_frame(void **state)
{
	struct nb_tcp_app app;
	uint8_t tx[64], out[200], buf[FRAMEMAX];
	struct nb_tcp_seg s, in;
	struct nb_flow f;
	int len;

	(void)state;
	nb_tcp_pattern_init();
	nb_tcp_app_init(&app, tx, sizeof(tx), NULL, 0, 0);
	memcpy(tx, "0123456789", 10);
	app.tx_len = 10;
	/* a control connection has nothing past what was written */
	assert_null(nb_tcp_app_payload(&app, 8, 5));
	assert_int_equal(nb_tcp_app_copy(&app, 8, 5, out), -1);
	assert_int_equal(nb_tcp_app_copy(&app, 3, 4, out), 0);
	assert_memory_equal(out, "3456", 4);
	/* a segment of those bytes: the frame carries them, its checksum
	 * right */
	memset(&s, 0, sizeof(s));
	s.wscale = NB_TCP_WSCALE_NONE;
	s.flags = NB_TCP_ACK | NB_TCP_PSH;
	s.seq = 1000;
	s.len = 7;
	s.data_off = 2;
	len = nb_tcp_frame_build_app(buf, sizeof(buf), &flow_ab, &s, &app);
	assert_true(len >= 60);
	assert_int_equal(nb_tcp_frame_parse(buf, (uint32_t)len, 1, &f, &in), 0);
	assert_int_equal(in.len, 7);
	assert_memory_equal(in.payload, "2345678", 7);
	s.len = 9; /* past the log: refused */
	assert_int_equal(
		nb_tcp_frame_build_app(buf, sizeof(buf), &flow_ab, &s, &app),
		-EINVAL);
	/* a prefix stream: the log, then the pattern */
	app.prefix_only = 1;
	s.len = 100;
	len = nb_tcp_frame_build_app(buf, sizeof(buf), &flow_ab, &s, &app);
	assert_int_equal(nb_tcp_frame_parse(buf, (uint32_t)len, 1, &f, &in), 0);
	assert_memory_equal(in.payload, "23456789", 8);
	assert_memory_equal(in.payload + 8, nb_tcp_pattern_at(10), 92);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_and_frame),
		cmocka_unit_test(test_clean_messages),
		cmocka_unit_test(test_faulty_link),
		cmocka_unit_test(test_faulty_link_nosack),
		cmocka_unit_test(test_slow_reader),
		cmocka_unit_test(test_prefix_stream),
		cmocka_unit_test(test_prefix_auto_check),
		cmocka_unit_test(test_fin_after_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
