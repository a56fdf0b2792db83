/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The result model (app/core/nb_result.c): sums, rates, loss, the
 * shortfall, intervals closed against the end, a test of no time.
 *
 * A two-stream result with known counts and latencies is finished and
 * written; every derived number is recomputed here from the inputs.
 * Latencies below 128 ns have exact one-value buckets (nb_hist.h), so the
 * expected percentiles are plain order statistics.
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
#include <jansson.h>

#include "nb_options.h"
#include "nb_result.h"

#include "result_fixtures.h"

static void
test_finish(void **state)
{
	struct fixture fx;
	struct nb_result *r = &fx.r;
	uint64_t st = 0, sb = 0, rp = 0, rb = 0, ru = 0, lost = 0;
	unsigned int i;

	(void)state;
	fill(&fx);
	nb_result_finish(r);
	for (i = 0; i < 2; i++) {
		assert_int_equal(r->streams[i].lost, tx_pkts[i] - rx_unique[i]);
		st += tx_pkts[i];
		sb += tx_bytes[i];
		rp += rx_pkts[i];
		rb += rx_bytes[i];
		ru += rx_unique[i];
		lost += tx_pkts[i] - rx_unique[i];
	}
	assert_int_equal(r->streams[0].lost, 10);
	assert_int_equal(r->streams[1].lost, 0);
	assert_int_equal(r->sum.tx_pkts, st);
	assert_int_equal(r->sum.tx_bytes, sb);
	assert_int_equal(r->sum.rx_pkts, rp);
	assert_int_equal(r->sum.rx_bytes, rb);
	assert_int_equal(r->sum.rx_unique, ru);
	assert_int_equal(r->sum.lost, lost);
	assert_int_equal(r->sum.duplicates, 5);
	assert_int_equal(r->sum.out_of_order, 3);
	assert_int_equal(r->sum.late, 1);
	assert_close(r->sum.jitter_ns, (1500.0 + 500.0) / 2, "sum jitter");

	assert_close(r->tx_pps, (double)st / TX_SECS, "tx_pps");
	assert_close(r->rx_pps, (double)rp / RX_SECS, "rx_pps");
	assert_close(r->tx_l2_bps, (double)sb * 8 / TX_SECS, "tx_l2");
	assert_close(r->rx_l2_bps, (double)rb * 8 / RX_SECS, "rx_l2");
	assert_close(r->tx_l1_bps, (double)(sb + 20 * st) * 8 / TX_SECS,
		     "tx_l1");
	assert_close(r->rx_l1_bps, (double)(rb + 20 * rp) * 8 / RX_SECS,
		     "rx_l1");
	assert_close(r->lost_percent, 100.0 * (double)lost / (double)st,
		     "lost_percent");
	assert_int_equal(r->shortfall, 0); /* max rate: never short */

	/* Merged histogram. */
	assert_int_equal(r->sum.hist.count, 151);
	assert_int_equal(r->sum.hist.min, 50);
	assert_int_equal(r->sum.hist.max, BIG_NS);
	assert_int_equal(r->sum.hist.sum,
			 60 * 50 + 40 * 100 + 49 * 100 + 120 + BIG_NS);
	/* Streams' own histograms are untouched. */
	assert_int_equal(r->streams[0].hist.count, 100);
	assert_int_equal(r->streams[1].hist.count, 51);

	/* Finishing twice gives the same sums (sum is rebuilt). */
	nb_result_finish(r);
	assert_int_equal(r->sum.tx_pkts, st);
	assert_int_equal(r->sum.hist.count, 151);
	nb_result_free(r);
}

/*
 * --dscp 46,0 over the two streams: two classes, each exactly its one
 * stream; --dscp 8,8: one class (never shown: it is the sum); and, in the
 * JSON, end.classes names each class's DSCP and streams.
 */
static void
test_classes(void **state)
{
	struct fixture fx;
	struct nb_result *r = &fx.r;
	json_t *root;
	unsigned int i;

	(void)state;
	fill(&fx);
	fx.cfg.stack.nb_dscp = 2;
	fx.cfg.stack.dscp[0] = 46;
	fx.cfg.stack.dscp[1] = 0;
	nb_result_finish(r);
	assert_int_equal(r->nb_classes, 2);
	for (i = 0; i < 2; i++) {
		const struct nb_stream_result *c = &r->classes[i];

		assert_int_equal(c->id, i == 0 ? 46 : 0);
		assert_int_equal(c->tx_pkts, tx_pkts[i]);
		assert_int_equal(c->tx_bytes, tx_bytes[i]);
		assert_int_equal(c->rx_pkts, rx_pkts[i]);
		assert_int_equal(c->rx_bytes, rx_bytes[i]);
		assert_int_equal(c->lost, tx_pkts[i] - rx_unique[i]);
		assert_int_equal(c->hist.count, i == 0 ? 100 : 51);
		assert_close(c->jitter_ns, r->streams[i].jitter_ns, "jitter");
	}
	root = nb_report_json(r);
	assert_int_equal(jint_at(root, "end.classes[0].dscp"), 46);
	assert_int_equal(jint_at(root, "end.classes[1].streams[0]"), 1);
	assert_int_equal(jint_at(root, "end.classes[1].sender.packets"),
			 (long long)tx_pkts[1]);
	assert_int_equal(jint_at(root, "end.classes[0].udp.lost_packets"),
			 (long long)(tx_pkts[0] - rx_unique[0]));
	json_decref(root);

	fx.cfg.stack.dscp[1] = 46; /* both streams one class */
	nb_result_finish(r);
	assert_int_equal(r->nb_classes, 1);
	assert_int_equal(r->classes[0].tx_pkts, tx_pkts[0] + tx_pkts[1]);
	assert_int_equal(r->classes[0].hist.count, 151);
	nb_result_free(r);
	assert_null(r->classes);
}

/* More distinct than sent (e.g. counters read at different times): 0. */
static void
test_lost_clamped(void **state)
{
	struct fixture fx;

	(void)state;
	fill(&fx);
	fx.r.streams[1].rx_unique = 501;
	nb_result_finish(&fx.r);
	assert_int_equal(fx.r.streams[1].lost, 0);
	assert_int_equal(fx.r.sum.lost, 10);
	nb_result_free(&fx.r);
}

static void
test_shortfall(void **state)
{
	struct fixture fx;
	double achieved = 1500.0 / TX_SECS;
	const struct {
		double req;
		int shortfall;
	} cases[] = {
		{achieved, 0},
		{achieved / 2, 0},		    /* above the request */
		{achieved / 0.995 * (1 - 1e-9), 0}, /* just within 99.5 % */
		{achieved / 0.995 * (1 - 1e-4), 0},
		{achieved / 0.995 * (1 + 1e-9), 1}, /* just below */
		{achieved / 0.995 * (1 + 1e-4), 1},
		{achieved * 2, 1},
		{0, 0}, /* max */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fill(&fx);
		fx.r.req_pps = cases[i].req;
		nb_result_finish(&fx.r);
		assert_close(fx.r.tx_pps, achieved, "tx_pps");
		if (fx.r.shortfall != cases[i].shortfall)
			fail_msg("req %.17g achieved %.17g: shortfall %d",
				 cases[i].req, achieved, fx.r.shortfall);
		if (cases[i].req > 0)
			assert_close(fx.r.shortfall_percent,
				     100.0 * (1 - achieved / cases[i].req),
				     "shortfall_percent");
		else
			assert_true(fx.r.shortfall_percent == 0);
		nb_result_free(&fx.r);
	}

	/* No time measured: no rate, no shortfall claimed. */
	fill(&fx);
	fx.r.req_pps = 1e6;
	fx.r.tx_seconds = 0;
	nb_result_finish(&fx.r);
	assert_int_equal(fx.r.shortfall, 0);
	assert_true(fx.r.tx_pps == 0);
	nb_result_free(&fx.r);
}

#define N_INTERVALS 200

static void
test_intervals(void **state)
{
	struct fixture fx;
	json_t *root;
	size_t k;

	(void)state;
	fill(&fx);
	/* A stream-less interval with no arrays is fine too. */
	{
		struct nb_interval iv;

		memset(&iv, 0, sizeof(iv));
		iv.start = 0;
		iv.end = 0.5;
		assert_int_equal(nb_result_add_interval(&fx.r, &iv), 0);
	}
	for (k = 1; k < N_INTERVALS; k++)
		add_one_interval(&fx.r, (double)k * 0.5, 1000 * k);
	assert_int_equal(fx.r.nb_intervals, N_INTERVALS);
	nb_result_finish(&fx.r);
	root = nb_report_json(&fx.r);
	assert_int_equal(json_array_size(jneed(root, "intervals")),
			 N_INTERVALS);
	assert_int_equal(json_array_size(jneed(root, "intervals[0].streams")),
			 0);
	assert_int_equal(jint_at(root, "intervals[0].sum.packets"), 0);
	for (k = 1; k < N_INTERVALS; k++)
		check_interval(root, k, (double)k * 0.5, 1000 * k);
	roundtrip(root, JSON_COMPACT);
	json_decref(root);
	nb_result_free(&fx.r);
	assert_null(fx.r.intervals);
	assert_null(fx.r.streams);
}

/* Paths that hold rates: must exist (a NaN would drop the key). */
static const char *const rate_paths[] = {
	"end.streams[0].sender.bits_per_second",
	"end.streams[0].sender.l1_bits_per_second",
	"end.streams[0].sender.pps",
	"end.streams[1].receiver.bits_per_second",
	"end.streams[1].receiver.lost_percent",
	"end.streams[1].receiver.jitter_ms",
	"end.streams[1].receiver.latency.mean_ns",
	"end.sum_sent.bits_per_second",
	"end.sum_received.bits_per_second",
	"end.sum_received.lost_percent",
	"end.sum_received.jitter_ms",
	"end.sum_received.latency.mean_ns",
	"end.rate.requested_pps",
	"end.rate.requested_l1_bits_per_second",
	"end.rate.requested_l2_bits_per_second",
	"end.rate.achieved_pps",
	"end.rate.achieved_l1_bits_per_second",
	"end.rate.shortfall_percent",
	"start.test_start.duration",
	"intervals[0].sum.bits_per_second",
	"intervals[0].sum.pps",
	"intervals[0].streams[0].bits_per_second",
};

static void
check_rate_paths(json_t *root)
{
	size_t i;

	for (i = 0; i < sizeof(rate_paths) / sizeof(rate_paths[0]); i++) {
		double v = jnum_at(root, rate_paths[i]);

		if (!isfinite(v))
			fail_msg("%s is not finite", rate_paths[i]);
	}
}

static void
test_zero_seconds(void **state)
{
	struct fixture fx;
	struct nb_interval iv;
	uint64_t a[2] = {5, 6};
	json_t *root;
	char *text;

	(void)state;
	fill(&fx);
	fx.r.tx_seconds = 0;
	fx.r.rx_seconds = 0;
	fx.r.req_pps = 1e6;
	memset(&iv, 0, sizeof(iv));
	iv.start = iv.end = 3.0; /* an empty interval */
	iv.rx_pkts = 11;
	iv.rx_bytes = 704;
	iv.nb_streams = 2;
	iv.stream_tx_pkts = iv.stream_tx_bytes = a;
	iv.stream_rx_pkts = iv.stream_rx_bytes = a;
	assert_int_equal(nb_result_add_interval(&fx.r, &iv), 0);
	nb_result_finish(&fx.r);
	assert_true(fx.r.tx_pps == 0 && fx.r.rx_pps == 0);
	assert_true(fx.r.tx_l1_bps == 0 && fx.r.rx_l2_bps == 0);
	assert_int_equal(fx.r.shortfall, 0);
	root = nb_report_json(&fx.r);
	check_rate_paths(root);
	assert_true(jnum_at(root, "end.sum_sent.bits_per_second") == 0);
	assert_true(jnum_at(root, "intervals[0].sum.bits_per_second") == 0);
	check_finite(root);
	text = json_dumps(root, 0);
	assert_non_null(text);
	assert_null(strstr(text, ": nan"));
	assert_null(strstr(text, ": inf"));
	assert_null(strstr(text, ": -inf"));
	free(text);
	roundtrip(root, JSON_COMPACT);
	json_decref(root);
	nb_result_free(&fx.r);

	/* Nothing at all: no streams sent, no samples, no seconds. */
	fill(&fx);
	memset(fx.r.streams, 0, 2 * sizeof(*fx.r.streams));
	nb_hist_init(&fx.r.streams[0].hist);
	nb_hist_init(&fx.r.streams[1].hist);
	fx.r.tx_seconds = fx.r.rx_seconds = 0;
	assert_int_equal(nb_result_add_interval(&fx.r, &iv), 0);
	nb_result_finish(&fx.r);
	assert_true(fx.r.lost_percent == 0);
	root = nb_report_json(&fx.r);
	check_rate_paths(root);
	check_finite(root);
	assert_int_equal(jint_at(root, "end.sum_received.latency.min_ns"), 0);
	assert_int_equal(jint_at(root, "end.sum_received.latency.p99_ns"), 0);
	assert_int_equal(json_array_size(jneed(
				 root, "end.sum_received.latency.histogram")),
			 0);
	json_decref(root);

	/* Non-finite inputs are written as finite numbers. */
	fx.r.req_l1_bps = INFINITY;
	fx.r.req_l2_bps = NAN;
	fx.r.streams[1].jitter_ns = NAN;
	fx.cfg.duration = INFINITY;
	nb_result_finish(&fx.r);
	root = nb_report_json(&fx.r);
	check_rate_paths(root);
	check_finite(root);
	text = json_dumps(root, 0);
	assert_non_null(text);
	free(text);
	json_decref(root);
	nb_result_free(&fx.r);
}

/* The link's down time and outages from 10 ms looks: down at 20 ms, up
 * at 50 ms (30 ms down), down again at 70 ms and still down at 100 ms
 * (30 ms more): 60 ms in 2 outages. */
static void
test_link_step(void **state)
{
	struct nb_result r;
	const uint64_t ms = 1000000;

	(void)state;
	memset(&r, 0, sizeof(r));
	nb_result_link_step(&r, 0, 1);
	nb_result_link_step(&r, 10 * ms, 1);
	assert_int_equal(r.link_watched, 1);
	assert_int_equal(r.link_outages, 0);
	nb_result_link_step(&r, 20 * ms, 0);
	nb_result_link_step(&r, 30 * ms, 0);
	nb_result_link_step(&r, 40 * ms, 0);
	assert_int_equal(r.link_down_ns, 20 * ms);
	nb_result_link_step(&r, 50 * ms, 1);
	assert_int_equal(r.link_down_ns, 30 * ms);
	nb_result_link_step(&r, 60 * ms, 1);
	nb_result_link_step(&r, 70 * ms, 0);
	nb_result_link_step(&r, 100 * ms, 0);
	assert_int_equal(r.link_down_ns, 60 * ms);
	assert_int_equal(r.link_outages, 2);
	/* a first look that finds it down is an outage too */
	memset(&r, 0, sizeof(r));
	nb_result_link_step(&r, 5 * ms, 0);
	nb_result_link_step(&r, 15 * ms, 1);
	assert_int_equal(r.link_outages, 1);
	assert_int_equal(r.link_down_ns, 10 * ms);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finish),
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_link_step),
		cmocka_unit_test(test_lost_clamped),
		cmocka_unit_test(test_shortfall),
		cmocka_unit_test(test_intervals),
		cmocka_unit_test(test_zero_seconds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
