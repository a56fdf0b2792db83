/* SPDX-License-Identifier: BSD-3-Clause */
/* The result tests' shared helpers: see result_fixtures.h. */
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

/* Relative comparison for derived doubles. */
void
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
json_t *
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

json_t *
jneed(json_t *root, const char *path)
{
	json_t *v = jget(root, path);

	if (v == NULL)
		fail_msg("JSON has no %s", path);
	return v;
}

long long
jint_at(json_t *root, const char *path)
{
	json_t *v = jneed(root, path);

	if (!json_is_integer(v))
		fail_msg("%s is not an integer", path);
	return json_integer_value(v);
}

double
jnum_at(json_t *root, const char *path)
{
	json_t *v = jneed(root, path);

	if (!json_is_number(v))
		fail_msg("%s is not a number", path);
	return json_number_value(v);
}

int
jbool_at(json_t *root, const char *path)
{
	json_t *v = jneed(root, path);

	if (!json_is_boolean(v))
		fail_msg("%s is not a boolean", path);
	return json_is_true(v);
}

/* Every number in the tree is finite; counts them. */
unsigned int
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

/*
 * Stream 0: 1000 sent (64 B), 995 received of which 990 distinct, 5
 * duplicates, 3 reordered, 1 late; latencies 60 x 50 ns + 40 x 100 ns;
 * jitter 1500 ns.
 * Stream 1: 500 sent (1518 B), 500 received, all distinct; latencies
 * 49 x 100 ns, 1 x 120 ns, 1 x 1 ms; jitter 500 ns.
 */
void
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

const uint64_t tx_pkts[2] = {1000, 500};
const uint64_t tx_bytes[2] = {1000 * SIZE0, 500 * SIZE1};
const uint64_t rx_pkts[2] = {995, 500};
const uint64_t rx_bytes[2] = {995 * SIZE0, 500 * SIZE1};
const uint64_t rx_unique[2] = {990, 500};

void
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

void
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

void
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
