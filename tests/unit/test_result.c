/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the result model and its writers (app/core/nb_result.c,
 * nb_report_text.c, nb_report_json.c).
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

#define TX_SECS 2.0
#define RX_SECS 2.5
#define SIZE0	64
#define SIZE1	1518
#define BIG_NS	UINT64_C(1000000)

/* Relative comparison for derived doubles. */
static void
assert_close(double got, double want, const char *what)
{
	double tol = 1e-12 * (fabs(want) > 1 ? fabs(want) : 1);

	if (!(fabs(got - want) <= tol))
		fail_msg("%s: got %.17g, want %.17g", what, got, want);
}

/*
 * Look up a path such as "end.streams[1].sender.bytes" (object keys
 * separated by '.', array indices in brackets).  NULL if absent.
 */
static json_t *
jget(json_t *root, const char *path)
{
	char key[128];
	const char *p = path;
	json_t *cur = root;

	while (cur != NULL && *p != '\0') {
		if (*p == '.') {
			p++;
		} else if (*p == '[') {
			char *end;
			unsigned long idx = strtoul(p + 1, &end, 10);

			assert_true(*end == ']');
			cur = json_array_get(cur, idx);
			p = end + 1;
		} else {
			size_t n = strcspn(p, ".[");

			assert_true(n < sizeof(key));
			memcpy(key, p, n);
			key[n] = '\0';
			cur = json_object_get(cur, key);
			p += n;
		}
	}
	return cur;
}

static json_t *
jneed(json_t *root, const char *path)
{
	json_t *v = jget(root, path);

	if (v == NULL)
		fail_msg("JSON has no %s", path);
	return v;
}

static long long
jint_at(json_t *root, const char *path)
{
	json_t *v = jneed(root, path);

	if (!json_is_integer(v))
		fail_msg("%s is not an integer", path);
	return json_integer_value(v);
}

static double
jnum_at(json_t *root, const char *path)
{
	json_t *v = jneed(root, path);

	if (!json_is_number(v))
		fail_msg("%s is not a number", path);
	return json_number_value(v);
}

static int
jbool_at(json_t *root, const char *path)
{
	json_t *v = jneed(root, path);

	if (!json_is_boolean(v))
		fail_msg("%s is not a boolean", path);
	return json_is_true(v);
}

/* Every number in the tree is finite; counts them. */
static unsigned int
check_finite(json_t *j)
{
	const char *key;
	json_t *v;
	size_t i;
	unsigned int n = 0;

	switch (json_typeof(j)) {
	case JSON_OBJECT:
		json_object_foreach(j, key, v) n += check_finite(v);
		break;
	case JSON_ARRAY:
		json_array_foreach(j, i, v) n += check_finite(v);
		break;
	case JSON_REAL:
		if (!isfinite(json_real_value(j)))
			fail_msg("non-finite real in JSON");
		n++;
		break;
	case JSON_INTEGER:
		n++;
		break;
	default:
		break;
	}
	return n;
}

struct fixture {
	struct nb_config cfg;
	struct nb_result r;
};

/*
 * Stream 0: 1000 sent (64 B), 995 received of which 990 distinct, 5
 * duplicates, 3 reordered, 1 late; latencies 60 x 50 ns + 40 x 100 ns;
 * jitter 1500 ns.
 * Stream 1: 500 sent (1518 B), 500 received, all distinct; latencies
 * 49 x 100 ns, 1 x 120 ns, 1 x 1 ms; jitter 500 ns.
 */
static void
fill(struct fixture *fx)
{
	struct nb_result *r = &fx->r;
	struct nb_stream_result *s;
	unsigned int i;

	nb_config_defaults(&fx->cfg);
	fx->cfg.mode = NB_MODE_LOOPBACK;
	fx->cfg.streams = 2;
	fx->cfg.nb_tx_ports = 1;
	fx->cfg.nb_rx_ports = 1;
	fx->cfg.tx_ports[0] = 0;
	fx->cfg.rx_ports[0] = 1;
	assert_int_equal(nb_parse_sizes("64,1518", &fx->cfg.sizes), 0);
	assert_int_equal(nb_result_init(r, &fx->cfg, 2), 0);
	assert_int_equal(r->nb_streams, 2);
	assert_int_equal(r->streams[0].id, 0);
	assert_int_equal(r->streams[1].id, 1);
	assert_int_equal(r->streams[1].hist.count, 0);
	assert_int_equal(r->streams[1].hist.min, UINT64_MAX);

	s = &r->streams[0];
	s->tx_pkts = 1000;
	s->tx_bytes = 1000 * SIZE0;
	s->rx_pkts = 995;
	s->rx_bytes = 995 * SIZE0;
	s->rx_unique = 990;
	s->duplicates = 5;
	s->out_of_order = 3;
	s->late = 1;
	s->jitter_ns = 1500;
	for (i = 0; i < 60; i++)
		nb_hist_record(&s->hist, 50);
	for (i = 0; i < 40; i++)
		nb_hist_record(&s->hist, 100);

	s = &r->streams[1];
	s->tx_pkts = 500;
	s->tx_bytes = 500 * SIZE1;
	s->rx_pkts = 500;
	s->rx_bytes = 500 * SIZE1;
	s->rx_unique = 500;
	s->jitter_ns = 500;
	for (i = 0; i < 49; i++)
		nb_hist_record(&s->hist, 100);
	nb_hist_record(&s->hist, 120);
	nb_hist_record(&s->hist, BIG_NS);

	r->tx_seconds = TX_SECS;
	r->rx_seconds = RX_SECS;
	r->tsc_hz = 2000000000;
	snprintf(r->lcore_map, sizeof(r->lcore_map), "control 0, stats 1");

	r->nb_ports = 2;
	r->ports[0].desc.port_id = 0;
	snprintf(r->ports[0].desc.name, sizeof(r->ports[0].desc.name),
		 "net_memif0");
	snprintf(r->ports[0].desc.driver, sizeof(r->ports[0].desc.driver),
		 "net_memif");
	r->ports[0].desc.mac[5] = 0x10;
	r->ports[0].role = "tx";
	r->ports[0].tool_tx_pkts = 1500;
	r->ports[0].tool_tx_bytes = 1000 * SIZE0 + 500 * SIZE1;
	r->ports[0].pmd.opackets = 1500;
	r->ports[0].pmd.obytes = 1000 * SIZE0 + 500 * SIZE1;
	r->ports[0].pmd.ipackets = 7; /* unrelated: a TX port's RX side */
	r->ports[1].desc.port_id = 1;
	snprintf(r->ports[1].desc.name, sizeof(r->ports[1].desc.name),
		 "net_memif1");
	snprintf(r->ports[1].desc.driver, sizeof(r->ports[1].desc.driver),
		 "net_memif");
	r->ports[1].desc.mac[5] = 0x11;
	r->ports[1].role = "rx";
	r->ports[1].tool_rx_pkts = 1495;
	r->ports[1].tool_rx_bytes = 995 * SIZE0 + 500 * SIZE1;
	r->ports[1].pmd.ipackets = 1495;
	r->ports[1].pmd.opackets = 3; /* unrelated */
}

static const uint64_t tx_pkts[2] = {1000, 500};
static const uint64_t tx_bytes[2] = {1000 * SIZE0, 500 * SIZE1};
static const uint64_t rx_pkts[2] = {995, 500};
static const uint64_t rx_bytes[2] = {995 * SIZE0, 500 * SIZE1};
static const uint64_t rx_unique[2] = {990, 500};

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

/* Bucket bounds for v, from nb_hist.h's description (128 per octave). */
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
roundtrip(json_t *root, size_t flags)
{
	json_error_t jerr;
	char *text = json_dumps(root, flags);
	json_t *back;

	assert_non_null(text);
	back = json_loads(text, 0, &jerr);
	if (back == NULL)
		fail_msg("json_loads: %s at %d:%d", jerr.text, jerr.line,
			 jerr.column);
	assert_true(json_equal(root, back));
	json_decref(back);
	free(text);
}

static void
add_one_interval(struct nb_result *r, double start, uint64_t base)
{
	uint64_t stp[2] = {base + 1, base + 2};
	uint64_t stb[2] = {(base + 1) * 64, (base + 2) * 1518};
	uint64_t srp[2] = {base, base + 2};
	uint64_t srb[2] = {base * 64, (base + 2) * 1518};
	struct nb_interval iv;

	memset(&iv, 0, sizeof(iv));
	iv.start = start;
	iv.end = start + 1.0;
	iv.omitted = start < 1.0;
	iv.tx_pkts = stp[0] + stp[1];
	iv.tx_bytes = stb[0] + stb[1];
	iv.rx_pkts = srp[0] + srp[1];
	iv.rx_bytes = srb[0] + srb[1];
	iv.lost = 1;
	iv.lat_count = iv.rx_pkts;
	iv.lat_p50 = 1000 + base;
	iv.lat_p99 = 2000 + base;
	iv.lat_max = 3000 + base;
	iv.nb_streams = 2;
	iv.stream_tx_pkts = stp;
	iv.stream_tx_bytes = stb;
	iv.stream_rx_pkts = srp;
	iv.stream_rx_bytes = srb;
	assert_int_equal(nb_result_add_interval(r, &iv), 0);
	/* The result keeps copies: the caller's arrays may change. */
	stp[0] = stb[0] = srp[0] = srb[0] = 0xdead;
	stp[1] = stb[1] = srp[1] = srb[1] = 0xbeef;
}

static void
check_interval(json_t *root, size_t k, double start, uint64_t base)
{
	char p[128];
	uint64_t rb = base * 64 + (base + 2) * 1518;

#define IV(fmt) (snprintf(p, sizeof(p), "intervals[%zu]." fmt, k), p)
	assert_close(jnum_at(root, IV("sum.start")), start, "start");
	assert_close(jnum_at(root, IV("sum.end")), start + 1.0, "end");
	assert_close(jnum_at(root, IV("sum.seconds")), 1.0, "seconds");
	assert_int_equal(jint_at(root, IV("sum.packets")), 2 * base + 2);
	assert_int_equal(jint_at(root, IV("sum.bytes")), rb);
	assert_int_equal(jint_at(root, IV("sum.sent_packets")), 2 * base + 3);
	assert_int_equal(jint_at(root, IV("sum.sent_bytes")),
			 (base + 1) * 64 + (base + 2) * 1518);
	assert_int_equal(jint_at(root, IV("sum.lost_packets")), 1);
	assert_close(jnum_at(root, IV("sum.bits_per_second")), rb * 8.0,
		     "iv bps");
	assert_close(jnum_at(root, IV("sum.l1_bits_per_second")),
		     (rb + 20.0 * (2 * base + 2)) * 8.0, "iv l1");
	assert_close(jnum_at(root, IV("sum.pps")), 2.0 * base + 2, "iv pps");
	assert_int_equal(jbool_at(root, IV("sum.omitted")), start < 1.0);
	assert_int_equal(jint_at(root, IV("sum.latency.count")), 2 * base + 2);
	assert_int_equal(jint_at(root, IV("sum.latency.p50_ns")), 1000 + base);
	assert_int_equal(jint_at(root, IV("sum.latency.p99_ns")), 2000 + base);
	assert_int_equal(jint_at(root, IV("sum.latency.max_ns")), 3000 + base);
	if (start < 1.0) {
		/* the warm-up is counted as a whole: no per-stream rows */
		assert_int_equal(json_array_size(jneed(root, IV("streams"))),
				 0);
		return;
	}
	assert_int_equal(json_array_size(jneed(root, IV("streams"))), 2);
	assert_int_equal(jint_at(root, IV("streams[0].id")), 0);
	assert_int_equal(jint_at(root, IV("streams[1].id")), 1);
	assert_int_equal(jint_at(root, IV("streams[0].packets")), base);
	assert_int_equal(jint_at(root, IV("streams[1].packets")), base + 2);
	assert_int_equal(jint_at(root, IV("streams[0].bytes")), base * 64);
	assert_int_equal(jint_at(root, IV("streams[0].sent_packets")),
			 base + 1);
	assert_int_equal(jint_at(root, IV("streams[1].sent_bytes")),
			 (base + 2) * 1518);
	assert_close(jnum_at(root, IV("streams[1].bits_per_second")),
		     (base + 2) * 1518 * 8.0, "stream bps");
#undef IV
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

/* The text report of r in a malloc'd string, via a memory stream. */
static char *
text_report(const struct nb_result *r)
{
	char *buf = NULL, *copy;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	nb_report_text(f, r);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	copy = strdup(buf);
	free(buf);
	assert_non_null(copy);
	return copy;
}

static unsigned int
count_of(const char *hay, const char *needle)
{
	unsigned int n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/* The line of text containing needle (static buffer). */
static const char *
line_with(const char *text, const char *needle)
{
	static char line[1024];
	const char *at = strstr(text, needle), *b, *e;

	if (at == NULL)
		return NULL;
	for (b = at; b > text && b[-1] != '\n'; b--)
		;
	e = strchr(at, '\n');
	if (e == NULL)
		e = at + strlen(at);
	snprintf(line, sizeof(line), "%.*s", (int)(e - b), b);
	return line;
}

static void
test_text(void **state)
{
	struct fixture fx;
	char *t;

	(void)state;
	fill(&fx);
	fx.r.req_pps = 750;
	nb_result_finish(&fx.r);
	t = text_report(&fx.r);
	/* Two streams and a SUM: three sender and three receiver rows. */
	assert_int_equal(count_of(t, "sender"), 3);
	assert_int_equal(count_of(t, "receiver"), 3);
	assert_non_null(strstr(t, "lost 10/1000"));
	assert_non_null(strstr(t, "lost 10/1500"));
	assert_non_null(strstr(t, "on target"));
	assert_null(strstr(t, "WARNING"));
	assert_null(strstr(t, "MISMATCH"));
	assert_non_null(strstr(t, "port 0"));
	assert_non_null(strstr(t, "port 1"));
	free(t);

	/* RX port: the PMD received one more than the tool counted. */
	fx.r.ports[1].pmd.ipackets = 1496;
	t = text_report(&fx.r);
	assert_int_equal(count_of(t, "MISMATCH"), 1);
	assert_non_null(strstr(line_with(t, "MISMATCH"), "port 1"));
	free(t);

	/* TX port: opackets differs; its ipackets never matter. */
	fx.r.ports[1].pmd.ipackets = 1495;
	fx.r.ports[0].pmd.opackets = 1499;
	t = text_report(&fx.r);
	assert_int_equal(count_of(t, "MISMATCH"), 1);
	assert_non_null(strstr(line_with(t, "MISMATCH"), "port 0"));
	free(t);
	fx.r.ports[0].pmd.opackets = 1500;
	fx.r.ports[0].pmd.ipackets = 0;
	fx.r.ports[1].pmd.opackets = 99999;
	t = text_report(&fx.r);
	assert_null(strstr(t, "MISMATCH"));
	free(t);

	/* A shortfall is a warning. */
	fx.r.req_pps = 1000;
	nb_result_finish(&fx.r);
	t = text_report(&fx.r);
	assert_non_null(strstr(t, "WARNING"));
	assert_null(strstr(t, "on target"));
	free(t);

	/* One stream: no SUM rows. */
	fx.r.nb_streams = 1;
	nb_result_finish(&fx.r);
	t = text_report(&fx.r);
	assert_int_equal(count_of(t, "sender"), 1);
	assert_int_equal(count_of(t, "receiver"), 1);
	assert_null(strstr(t, "SUM"));
	free(t);
	fx.r.nb_streams = 2;
	nb_result_free(&fx.r);
}

/* An 802.3ad bond: its LACP frames are named, within what LACP can send;
 * more than that is a mismatch, as is any in another mode. */
static void
test_lacp_counts(void **state)
{
	struct fixture fx;
	struct nb_bond_info *b;
	uint64_t max;
	char *t;

	(void)state;
	fill(&fx);
	nb_result_finish(&fx.r);
	b = &fx.r.ports[0].bond;
	b->mode = 4;
	b->nb_members = 2;
	b->m[0].actor_state = b->m[0].partner_state = 0x3d;
	b->m[1].actor_state = 0x3d;
	b->m[1].partner_state = 0x01;
	/* 4 per member and second, over the test and 7 s beside it */
	max = nb_lacp_frames_max(b, fx.r.rx_seconds + 5);
	assert_int_equal(max, 2 * 4 * ((uint64_t)(fx.r.rx_seconds + 5) + 2));
	fx.r.ports[0].pmd.opackets = 1500 + 3;
	t = text_report(&fx.r);
	assert_null(strstr(t, "MISMATCH"));
	assert_non_null(strstr(t, "PMD opackets 1503 (3 of them LACP)"));
	assert_non_null(strstr(t, "LACP up (state 3d, partner's 3d)"));
	assert_non_null(strstr(t, "LACP NOT up (state 3d, partner's 01)"));
	free(t);
	fx.r.ports[0].pmd.opackets = 1500 + max + 1;
	t = text_report(&fx.r);
	assert_int_equal(count_of(t, "MISMATCH"), 1);
	assert_null(strstr(t, "of them LACP"));
	free(t);
	/* fewer than the tool sent is never LACP's */
	fx.r.ports[0].pmd.opackets = 1499;
	t = text_report(&fx.r);
	assert_int_equal(count_of(t, "MISMATCH"), 1);
	free(t);
	b->mode = 2;
	fx.r.ports[0].pmd.opackets = 1503;
	t = text_report(&fx.r);
	assert_int_equal(count_of(t, "MISMATCH"), 1);
	assert_null(strstr(t, "LACP"));
	free(t);
	nb_result_free(&fx.r);
}

static void
test_interval_text(void **state)
{
	struct nb_interval iv;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	memset(&iv, 0, sizeof(iv));
	iv.start = 1;
	iv.end = 2;
	iv.rx_pkts = 990;
	iv.rx_bytes = 990 * 64;
	iv.lost = 10;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	nb_report_interval_header(f);
	nb_report_interval_text(f, &iv, 'a', "");
	iv.omitted = 1;
	nb_report_interval_text(f, &iv, 'a', "");
	iv.start = iv.end; /* zero length: no division by zero */
	nb_report_interval_text(f, &iv, 'a', "R");
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "10/1000"));
	assert_int_equal(count_of(buf, "(omitted)"), 2);
	assert_null(strstr(buf, "nan"));
	assert_non_null(strstr(buf, "[RSUM]"));
	assert_null(strstr(buf, "inf"));
	free(buf);
}

static void
test_fmt(void **state)
{
	char b[32];

	(void)state;
	nb_fmt_bytes(b, sizeof(b), 1.16 * 1024 * 1024 * 1024);
	assert_string_equal(b, "1.16 GBytes");
	nb_fmt_bytes(b, sizeof(b), 0);
	assert_string_equal(b, "0.00 Bytes");
	nb_fmt_bytes(b, sizeof(b), 1023);
	assert_string_equal(b, "1023 Bytes");
	nb_fmt_bytes(b, sizeof(b), 10.5 * 1024);
	assert_string_equal(b, "10.5 KBytes");
	nb_fmt_bits(b, sizeof(b), 9.99e9);
	assert_string_equal(b, "9.99 Gbits/sec");
	nb_fmt_bits(b, sizeof(b), 999);
	assert_string_equal(b, "999 bits/sec");
	nb_fmt_bits(b, sizeof(b), 14.88e6);
	assert_string_equal(b, "14.9 Mbits/sec");
	nb_fmt_bits(b, sizeof(b), 4e15);
	assert_string_equal(b, "4000 Tbits/sec");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finish),
		cmocka_unit_test(test_lost_clamped),
		cmocka_unit_test(test_shortfall),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_not_short),
		cmocka_unit_test(test_intervals),
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_zero_seconds),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_lacp_counts),
		cmocka_unit_test(test_interval_text),
		cmocka_unit_test(test_fmt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
