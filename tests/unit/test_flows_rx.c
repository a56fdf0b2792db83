/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --flows at the receiver (app/core/nb_flows_rx.c): a flow's counts from
 * its frames, its share of its stream's frames, the merge of two
 * receivers' counts, the percentile from its bins, and the summary: loss
 * and p99 bins across flows, the worst flows in order, flows per queue.
 * Expected values are written out from the cases, not from the code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "nb_flows_rx.h"

/* Frames counted as a receive job counts them, then read for the report. */
struct flow {
	struct nb_flow_cnt c;
	struct nb_flow_cnt_ext x;
};

static void
flow_init(struct flow *f)
{
	nb_flow_cnt_init(&f->c, &f->x);
}

static void
flow_frame(struct flow *f, uint64_t seq, int is_new, uint64_t lat_ns)
{
	nb_flow_cnt_record(&f->c, &f->x, seq, is_new, lat_ns);
}

static void
flow_read(const struct flow *f, struct nb_flow_rx *r)
{
	nb_flow_cnt_read(&f->c, &f->x, r);
}

static void
test_record(void **state)
{
	struct flow fl;
	struct nb_flow_rx r;

	(void)state;
	assert_int_equal(sizeof(struct nb_flow_cnt), 64); /* a cache line */
	flow_init(&fl);
	/* frames 0, 1, 3, 2 (late: reordered), a duplicate of 1 */
	flow_frame(&fl, 0, 1, 100);
	flow_frame(&fl, 1, 1, 300);
	flow_frame(&fl, 3, 1, 90);
	flow_frame(&fl, 2, 1, 5000);
	flow_frame(&fl, 1, 0, 7);
	flow_read(&fl, &r);
	assert_int_equal(r.unique, 4);
	assert_int_equal(r.dups, 1);
	assert_int_equal(r.reordered, 1);
	assert_int_equal(r.next, 4);
	assert_int_equal(r.lat_min, 90);
	assert_int_equal(r.lat_max, 5000);
	assert_int_equal(r.lat_sum, 100 + 300 + 90 + 5000);
	assert_int_equal(r.queue, 0);
	/* 90 and 100 in [64, 128), 300 in [256, 512), 5000 in [4096, 8192) */
	assert_int_equal(r.lat[6], 2);
	assert_int_equal(r.lat[8], 1);
	assert_int_equal(r.lat[12], 1);
	/* 0 ns in bin 0, the most a u32 holds (and more) in bin 31 */
	flow_frame(&fl, 4, 1, 0);
	flow_frame(&fl, 5, 1, 1ull << 40);
	flow_read(&fl, &r);
	assert_int_equal(r.lat[0], 1);
	assert_int_equal(r.lat[31], 1);
	assert_int_equal(r.lat_min, 0);
	assert_int_equal(r.lat_max, UINT32_MAX);
	assert_int_equal(nb_flow_lat_bin(1), 0);
	assert_int_equal(nb_flow_lat_bin(2), 1);
	assert_int_equal(nb_flow_lat_bin(1ull << 35), 31);
}

/* A bin past 255 frames (its carries): counts stay exact, in order or not. */
static void
test_record_carries(void **state)
{
	struct flow fl;
	struct nb_flow_rx r;
	uint64_t q;

	(void)state;
	flow_init(&fl);
	for (q = 0; q < 70000; q++)
		nb_flow_cnt_next(&fl.c, &fl.x, q, 300);
	for (q = 70000; q < 70256; q++)
		flow_frame(&fl, q, 1, 100);
	flow_frame(&fl, 90000, 1, 100);
	for (q = 80000; q < 80600; q++) /* late: reordered */
		flow_frame(&fl, q, 1, 100);
	for (q = 0; q < 513; q++)
		flow_frame(&fl, q, 0, 100);
	flow_read(&fl, &r);
	assert_int_equal(r.lat[8], 70000);
	assert_int_equal(r.lat[6], 256 + 1 + 600);
	assert_int_equal(r.unique, 70000 + 256 + 1 + 600);
	assert_int_equal(r.reordered, 600);
	assert_int_equal(r.dups, 513);
	assert_int_equal(r.next, 90001);
	assert_int_equal(r.lat_sum, 70000 * 300 + 857 * 100);
	assert_int_equal(r.lat_min, 100);
	assert_int_equal(r.lat_max, 300);
}

static void
test_sent_split(void **state)
{
	(void)state;
	/* 10 frames over 3 flows in turn: 0,1,2,0,1,2,0,1,2,0 */
	assert_int_equal(nb_flow_sent(10, 3, 0), 4);
	assert_int_equal(nb_flow_sent(10, 3, 1), 3);
	assert_int_equal(nb_flow_sent(10, 3, 2), 3);
	assert_int_equal(nb_flow_sent(2, 4, 3), 0);
	assert_int_equal(nb_flow_sent(65536 * 5, 65536, 65535), 5);
}

static void
test_pct_and_merge(void **state)
{
	struct flow fa, fb;
	struct nb_flow_rx a, b;
	int i;

	(void)state;
	flow_init(&fa);
	flow_init(&fb);
	for (i = 0; i < 99; i++)
		flow_frame(&fa, (uint64_t)i, 1, 100);
	flow_frame(&fb, 99, 1, 5000);
	flow_read(&fa, &a);
	flow_read(&fb, &b);
	/* the receive jobs of queues 0 and 1 */
	a.queue = 1;
	b.queue = 2;
	nb_flow_rx_merge(&a, &b);
	assert_int_equal(a.unique, 100);
	assert_int_equal(a.lat_max, 5000);
	assert_int_equal(a.lat_min, 100);
	assert_int_equal(a.next, 100);
	assert_int_equal(a.queue, UINT32_MAX); /* queues 0 and 1 */
	/* p99 of 100 frames is the 99th: in [64, 128), said as 127 */
	assert_int_equal(nb_flow_rx_pct(&a, 99), 127);
	/* the 100th: [4096, 8192), no more than the maximum */
	assert_int_equal(nb_flow_rx_pct(&a, 100), 5000);
	nb_flow_rx_init(&b);
	assert_int_equal(nb_flow_rx_pct(&b, 99), 0);
	/* merged into a flow of nothing (the report's zeroed array) */
	memset(&a, 0, sizeof(a));
	flow_init(&fb);
	flow_frame(&fb, 0, 1, 700);
	flow_read(&fb, &b);
	b.queue = 3;
	nb_flow_rx_merge(&a, &b);
	assert_int_equal(a.lat_min, 700);
	assert_int_equal(a.queue, 3);
}

static void
test_summary(void **state)
{
	static struct nb_flow_rx rx[20];
	uint64_t sent[20];
	struct nb_flows_sum s;
	uint32_t f, k;
	json_t *j;

	(void)state;
	for (f = 0; f < 20; f++) {
		struct flow fl;
		/* flows 3 and 7 lose 10 of 100, 12 all, 5 one */
		uint32_t lose = f == 3 || f == 7 ? 10
				: f == 12	 ? 100
				: f == 5	 ? 1
						 : 0;

		sent[f] = 100;
		flow_init(&fl);
		for (k = 0; k < 100 - lose; k++)
			flow_frame(&fl, k, 1, 1000);
		flow_read(&fl, &rx[f]);
		rx[f].queue = lose < 100 ? f % 4 + 1 : 0;
	}
	nb_flows_summarise(rx, sent, 20, &s);
	assert_int_equal(s.flows, 20);
	assert_int_equal(s.with_loss, 4);
	assert_int_equal(s.none_arrived, 1);
	assert_int_equal(s.nb_worst, 4);
	assert_int_equal(s.worst[0], 12);
	assert_int_equal(s.worst[1], 3);
	assert_int_equal(s.worst[2], 7);
	assert_int_equal(s.worst[3], 5);
	/* 0 %: 16 flows; 1 %: (0.1, 1]; 10 %: (1, 10]; all lost */
	assert_int_equal(s.loss_bins[0], 16);
	assert_int_equal(s.loss_bins[3], 1);
	assert_int_equal(s.loss_bins[4], 2);
	assert_int_equal(s.loss_bins[6], 1);
	/* 19 flows with frames, each p99 in [512, 1024) */
	assert_int_equal(s.p99_bins[9], 19);
	/* queues f mod 4; flow 12 (queue 0) sent nothing */
	assert_int_equal(s.per_queue[0], 4);
	assert_int_equal(s.per_queue[1], 5);
	assert_int_equal(s.per_queue[3], 5);
	j = nb_flows_sum_json(&s, rx, sent);
	assert_int_equal(json_integer_value(json_object_get(j, "with_loss")),
			 4);
	assert_int_equal(json_array_size(json_object_get(j, "worst")), 4);
	assert_int_equal(json_integer_value(json_object_get(
				 json_array_get(json_object_get(j, "worst"), 0),
				 "lost")),
			 100);
	assert_int_equal(
		json_array_size(json_object_get(j, "flows_per_rx_queue")), 4);
	json_decref(j);
}

/* More than ten flows lose: the ten that lost most, in order. */
static void
test_worst_ten(void **state)
{
	static struct nb_flow_rx rx[40];
	uint64_t sent[40];
	struct nb_flows_sum s;
	uint32_t f;

	(void)state;
	memset(rx, 0, sizeof(rx));
	for (f = 0; f < 40; f++) {
		sent[f] = 1000;
		/* flow f loses (f * 7) mod 40 frames */
		rx[f].unique = 1000 - (f * 7) % 40;
	}
	nb_flows_summarise(rx, sent, 40, &s);
	assert_int_equal(s.nb_worst, 10);
	for (f = 0; f < 10; f++)
		assert_int_equal((s.worst[f] * 7) % 40, 39 - f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_record_carries),
		cmocka_unit_test(test_sent_split),
		cmocka_unit_test(test_pct_and_merge),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_worst_ten),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
