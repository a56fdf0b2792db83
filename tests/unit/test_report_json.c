/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The JSON document (app/core/nb_report_json.c) of the fixture: every
 * figure recomputed from the inputs, none missing, the round trip.
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
ref_bucket(uint64_t v, uint64_t *lo, uint64_t *hi)
{
	unsigned int e = 0, shift;

	if (v < 128) {
		*lo = v;
		*hi = v + 1;
		return;
	}
	while ((v >> e) > 1)
		e++;
	shift = e - 7;
	*lo = (v >> shift) << shift;
	*hi = *lo + (UINT64_C(1) << shift);
}

static void
test_json(void **state)
{
	struct fixture fx;
	struct nb_result *r = &fx.r;
	json_t *root, *hist, *e;
	uint64_t sb = 1000 * SIZE0 + 500 * SIZE1;
	uint64_t rb = 995 * SIZE0 + 500 * SIZE1;
	long long hsum = 0;
	char path[128];
	size_t i;

	(void)state;
	fill(&fx);
	r->req_pps = 1000; /* achieved 750: short */
	r->req_l1_bps = 1000 * (SIZE0 + SIZE1 + 40) * 8 / 2.0;
	nb_result_finish(r);
	root = nb_report_json(r);
	assert_non_null(root);

	assert_int_equal(jint_at(root, "start.test_start.num_streams"), 2);
	assert_string_equal(
		json_string_value(jneed(root, "start.test_start.protocol")),
		"UDP");
	assert_int_equal(jint_at(root, "start.test_start.frame_sizes[0]"), 64);
	assert_int_equal(jint_at(root, "start.test_start.frame_sizes[1]"),
			 1518);
	assert_true(json_is_array(jneed(root, "intervals")));
	assert_int_equal(json_array_size(jneed(root, "intervals")), 0);
	assert_int_equal(jint_at(root, "start.clock.hz"), 2000000000);

	/* Per stream. */
	assert_int_equal(json_array_size(jneed(root, "end.streams")), 2);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "end.streams[%zu].id", i);
		assert_int_equal(jint_at(root, path), i);
		snprintf(path, sizeof(path), "end.streams[%zu].sender.packets",
			 i);
		assert_int_equal(jint_at(root, path), tx_pkts[i]);
		snprintf(path, sizeof(path), "end.streams[%zu].sender.bytes",
			 i);
		assert_int_equal(jint_at(root, path), tx_bytes[i]);
		snprintf(path, sizeof(path), "end.streams[%zu].sender.sender",
			 i);
		assert_true(jbool_at(root, path));
		snprintf(path, sizeof(path),
			 "end.streams[%zu].sender.bits_per_second", i);
		assert_close(jnum_at(root, path),
			     (double)tx_bytes[i] * 8 / TX_SECS, path);
		snprintf(path, sizeof(path),
			 "end.streams[%zu].sender.l1_bits_per_second", i);
		assert_close(jnum_at(root, path),
			     (double)(tx_bytes[i] + 20 * tx_pkts[i]) * 8 /
				     TX_SECS,
			     path);
		snprintf(path, sizeof(path),
			 "end.streams[%zu].receiver.packets", i);
		assert_int_equal(jint_at(root, path), rx_pkts[i]);
		snprintf(path, sizeof(path),
			 "end.streams[%zu].receiver.unique_packets", i);
		assert_int_equal(jint_at(root, path), rx_unique[i]);
		snprintf(path, sizeof(path),
			 "end.streams[%zu].receiver.lost_packets", i);
		assert_int_equal(jint_at(root, path),
				 tx_pkts[i] - rx_unique[i]);
		snprintf(path, sizeof(path),
			 "end.streams[%zu].receiver.lost_percent", i);
		assert_close(jnum_at(root, path),
			     100.0 * (double)(tx_pkts[i] - rx_unique[i]) /
				     (double)tx_pkts[i],
			     path);
		snprintf(path, sizeof(path), "end.streams[%zu].receiver.sender",
			 i);
		assert_false(jbool_at(root, path));
		snprintf(path, sizeof(path),
			 "end.streams[%zu].receiver.bits_per_second", i);
		assert_close(jnum_at(root, path),
			     (double)rx_bytes[i] * 8 / RX_SECS, path);
	}
	assert_int_equal(jint_at(root, "end.streams[0].receiver.duplicates"),
			 5);
	assert_int_equal(jint_at(root, "end.streams[0].receiver.out_of_order"),
			 3);
	assert_int_equal(jint_at(root, "end.streams[0].receiver.late"), 1);
	assert_close(jnum_at(root, "end.streams[0].receiver.jitter_ms"),
		     1500 / 1e6, "jitter 0");
	assert_close(jnum_at(root, "end.streams[1].receiver.jitter_ms"),
		     500 / 1e6, "jitter 1");
	/* Stream 0: 100 samples, rank 99 is 100 ns; stream 1 p99 is 1 ms. */
	assert_int_equal(
		jint_at(root, "end.streams[0].receiver.latency.p99_ns"), 100);
	assert_int_equal(
		jint_at(root, "end.streams[0].receiver.latency.p50_ns"), 50);
	assert_int_equal(
		jint_at(root, "end.streams[1].receiver.latency.p99_ns"),
		BIG_NS); /* bucket midpoint clamped to max */
	assert_null(jget(root, "end.streams[0].receiver.latency.histogram"));

	/* Sums. */
	assert_int_equal(jint_at(root, "end.sum_sent.packets"), 1500);
	assert_int_equal(jint_at(root, "end.sum_sent.bytes"), sb);
	assert_close(jnum_at(root, "end.sum_sent.bits_per_second"),
		     (double)sb * 8 / TX_SECS, "sum_sent bps");
	assert_close(jnum_at(root, "end.sum_sent.l1_bits_per_second"),
		     (double)(sb + 20 * 1500) * 8 / TX_SECS, "sum_sent l1");
	assert_close(jnum_at(root, "end.sum_sent.pps"), 1500 / TX_SECS,
		     "sum_sent pps");
	assert_close(jnum_at(root, "end.sum_sent.seconds"), TX_SECS, "secs");
	assert_int_equal(jint_at(root, "end.sum_received.packets"), 1495);
	assert_int_equal(jint_at(root, "end.sum_received.bytes"), rb);
	assert_close(jnum_at(root, "end.sum_received.bits_per_second"),
		     (double)rb * 8 / RX_SECS, "sum_received bps");
	assert_int_equal(jint_at(root, "end.sum_received.lost_packets"), 10);
	assert_close(jnum_at(root, "end.sum_received.lost_percent"),
		     100.0 * 10 / 1500, "lost_percent");
	assert_close(jnum_at(root, "end.sum_received.jitter_ms"),
		     (1500 + 500) / 2 / 1e6, "jitter_ms");

	/*
	 * Merged: 60 x 50, 89 x 100, 1 x 120, 1 x 1 ms (151).  p99: rank
	 * ceil(149.49) = 150 -> 120; p50: rank 76 -> 100; p90: rank 136 ->
	 * 100.
	 */
	assert_int_equal(jint_at(root, "end.sum_received.latency.count"), 151);
	assert_int_equal(jint_at(root, "end.sum_received.latency.p99_ns"), 120);
	assert_int_equal(jint_at(root, "end.sum_received.latency.p50_ns"), 100);
	assert_int_equal(jint_at(root, "end.sum_received.latency.p90_ns"), 100);
	assert_int_equal(jint_at(root, "end.sum_received.latency.min_ns"), 50);
	assert_int_equal(jint_at(root, "end.sum_received.latency.max_ns"),
			 BIG_NS);
	assert_close(jnum_at(root, "end.sum_received.latency.mean_ns"),
		     (60.0 * 50 + 89 * 100 + 120 + 1e6) / 151, "mean");
	assert_int_equal(jint_at(root, "end.sum_received.latency.overflow"), 0);
	assert_string_equal(json_string_value(jneed(
				    root, "end.sum_received.latency.clock")),
			    "tsc");
	hist = jneed(root, "end.sum_received.latency.histogram");
	assert_true(json_is_array(hist));
	assert_int_equal(json_array_size(hist), 4);
	{
		const uint64_t vals[4] = {50, 100, 120, BIG_NS};
		const uint64_t cnts[4] = {60, 89, 1, 1};

		json_array_foreach(hist, i, e)
		{
			uint64_t lo, hi;

			assert_true(json_is_array(e));
			assert_int_equal(json_array_size(e), 3);
			ref_bucket(vals[i], &lo, &hi);
			assert_int_equal(
				json_integer_value(json_array_get(e, 0)), lo);
			assert_int_equal(
				json_integer_value(json_array_get(e, 1)), hi);
			assert_int_equal(
				json_integer_value(json_array_get(e, 2)),
				cnts[i]);
			hsum += json_integer_value(json_array_get(e, 2));
		}
	}
	assert_int_equal(hsum, jint_at(root, "end.sum_received.latency.count"));

	/* Rate. */
	assert_true(jbool_at(root, "end.rate.shortfall"));
	assert_false(jbool_at(root, "end.rate.max"));
	assert_close(jnum_at(root, "end.rate.requested_pps"), 1000, "req");
	assert_close(jnum_at(root, "end.rate.achieved_pps"), 1500 / TX_SECS,
		     "achieved");
	assert_close(jnum_at(root, "end.rate.shortfall_percent"),
		     100.0 * (1 - 750.0 / 1000), "shortfall_percent");

	/* Ports: counts at the end, identity only at the start. */
	assert_int_equal(json_array_size(jneed(root, "end.ports")), 2);
	assert_int_equal(jint_at(root, "end.ports[0].port"), 0);
	assert_string_equal(json_string_value(jneed(root, "end.ports[0].role")),
			    "tx");
	assert_string_equal(json_string_value(jneed(root, "end.ports[1].mac")),
			    "00:00:00:00:00:11");
	assert_int_equal(jint_at(root, "end.ports[0].tool_tx_packets"), 1500);
	assert_int_equal(jint_at(root, "end.ports[0].pmd.opackets"), 1500);
	assert_int_equal(jint_at(root, "end.ports[1].tool_rx_packets"), 1495);
	assert_int_equal(jint_at(root, "end.ports[1].pmd.ipackets"), 1495);
	assert_int_equal(json_array_size(jneed(root, "start.ports")), 2);
	assert_null(jget(root, "start.ports[0].tool_tx_packets"));
	assert_null(jget(root, "error"));

	assert_true(check_finite(root) > 100);
	json_decref(root);

	/* An error message appears when set. */
	snprintf(r->error, sizeof(r->error), "link down");
	root = nb_report_json(r);
	assert_string_equal(json_string_value(jneed(root, "error")),
			    "link down");
	json_decref(root);
	nb_result_free(r);
}

static void
test_json_not_short(void **state)
{
	struct fixture fx;
	json_t *root;

	(void)state;
	fill(&fx);
	fx.r.req_pps = 750;
	nb_result_finish(&fx.r);
	root = nb_report_json(&fx.r);
	assert_false(jbool_at(root, "end.rate.shortfall"));
	json_decref(root);
	fx.r.req_pps = 0;
	nb_result_finish(&fx.r);
	root = nb_report_json(&fx.r);
	assert_false(jbool_at(root, "end.rate.shortfall"));
	assert_true(jbool_at(root, "end.rate.max"));
	json_decref(root);
	nb_result_free(&fx.r);
}

static void
test_json_roundtrip(void **state)
{
	struct fixture fx;
	json_t *root;

	(void)state;
	fill(&fx);
	fx.r.req_pps = 800;
	fx.r.req_l1_bps = 1.2345678901234567e9;
	fx.r.req_l2_bps = 1e9 / 3;
	fx.r.interrupted = 1;
	fx.r.rx_foreign = 12;
	add_one_interval(&fx.r, 0.0, 7);
	add_one_interval(&fx.r, 1.0, 9);
	nb_result_finish(&fx.r);
	root = nb_report_json(&fx.r);
	check_interval(root, 0, 0.0, 7);
	check_interval(root, 1, 1.0, 9);
	assert_true(jbool_at(root, "end.interrupted"));
	assert_int_equal(jint_at(root, "end.rx_foreign"), 12);
	roundtrip(root, 0);
	roundtrip(root, JSON_COMPACT);
	roundtrip(root, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(root);
	nb_result_free(&fx.r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_not_short),
		cmocka_unit_test(test_json_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
