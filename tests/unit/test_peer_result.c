/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for peer-mode results across the two ends
 * (app/core/nb_peer_result.c).
 *
 * Our end (a client's nb_result) and the responder's end (results blob
 * records) get different, distinctive numbers in every field of every
 * stream, so a field taken from the wrong end, or from the wrong stream,
 * shows.  Expected values are the inputs themselves or constants worked
 * out by hand below.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_ctl.h"
#include "nb_peer_result.h"
#include "nb_result.h"

#define NS   3 /* streams */
#define PORT 3 /* cfg.port */

/*
 * Our end, stream i:   tx_pkts 5001 + 100 i, rx_unique 4005 + 100 i, ...
 * Responder, stream i: tx_pkts 7002 + 100 i, rx_unique 3006 + 100 i, ...
 * So when we send, each stream lost 5001 - 3006 = 1995; when we receive,
 * 7002 - 4005 = 2997.
 */
#define LOST_WE_SEND 1995
#define LOST_WE_RECV 2997

/* Seconds: ours are not whole ns; the responder's rx is below its tx. */
#define OWN_TX_S   10.123456789123
#define OWN_RX_S   10.5
#define PEER_TX_NS UINT64_C(12000000007)
#define PEER_RX_NS UINT64_C(11500000000)

/* Jitter: ours is not whole ps. */
#define OWN_JITTER(i)  (123.4567 + (i))
#define PEER_JITTER(i) (UINT64_C(987654) + (i))

static struct nb_config cfg;

static void
fill_hist(struct nb_hist *h, uint64_t base, uint32_t k)
{
	uint32_t j;

	nb_hist_init(h);
	for (j = 0; j < 5 + k; j++)
		nb_hist_record(h, base + j * j * 37);
}

/* Our end: a result as the client's collection leaves it. */
static struct nb_result *
make_own(void)
{
	struct nb_result *r = calloc(1, sizeof(*r));
	uint32_t i;

	assert_non_null(r);
	memset(&cfg, 0, sizeof(cfg));
	cfg.port = PORT;
	assert_int_equal(nb_result_init(r, &cfg, NS), 0);
	r->tsc_hz = 2100000000;
	r->interrupted = 1;
	r->req_pps = 1.5e6;
	r->req_l1_bps = 1.2e9;
	r->req_l2_bps = 1.0e9;
	snprintf(r->lcore_map, sizeof(r->lcore_map), "rx 2, tx 3, ctl 1");
	r->start_time = 1700000000;
	r->tx_seconds = OWN_TX_S;
	r->rx_seconds = OWN_RX_S;
	r->tx_dropped = 14;
	r->rx_foreign = 11;
	r->rx_warm = 12;
	r->rx_bad_stream = 13;
	r->alloc_fail = 15;
	for (i = 0; i < NS; i++) {
		struct nb_stream_result *x = &r->streams[i];

		x->id = 40 + i;
		x->tx_pkts = 5001 + 100 * i;
		x->tx_bytes = 500001 + 100 * i;
		x->rx_pkts = 4004 + 100 * i;
		x->rx_unique = 4005 + 100 * i;
		x->rx_bytes = 400006 + 100 * i;
		x->out_of_order = 41 + 100 * i;
		x->duplicates = 42 + 100 * i;
		x->late = 43 + 100 * i;
		x->lost = 999; /* stale: recomputed in the report */
		x->jitter_ns = OWN_JITTER(i);
		fill_hist(&x->hist, 1000 + 10 * i, i);
	}
	r->nb_ports = 1;
	r->ports[0].desc.port_id = PORT;
	snprintf(r->ports[0].desc.name, sizeof(r->ports[0].desc.name),
		 "0000:3b:00.0");
	r->ports[0].role = "tx+rx";
	r->ports[0].tool_tx_pkts = 31;
	r->ports[0].tool_rx_bytes = 32;
	r->ports[0].pmd.ipackets = 101;
	r->ports[0].pmd.opackets = 102;
	r->ports[0].pmd.ibytes = 103;
	r->ports[0].pmd.obytes = 104;
	r->ports[0].pmd.imissed = 105;
	r->ports[0].pmd.ierrors = 106;
	r->ports[0].pmd.oerrors = 107;
	r->ports[0].pmd.rx_nombuf = 108;
	r->ports[0].pmd.nb_xstats = 1;
	snprintf(r->ports[0].pmd.xstats[0].name,
		 sizeof(r->ports[0].pmd.xstats[0].name), "rx_crc_errors");
	r->ports[0].pmd.xstats[0].value = 109;
	/* junk where the report's responder port will be */
	r->ports[1].desc.port_id = 77;
	r->ports[1].tool_tx_pkts = 78;
	r->ports[1].role = "junk";
	return r;
}

/* The responder's end, as read from its results blob. */
static void
make_peer(struct nb_ctl_results_hdr *h, struct nb_ctl_stream_res *s)
{
	uint32_t i;

	memset(h, 0, sizeof(*h));
	h->tx_seconds_ns = PEER_TX_NS;
	h->rx_seconds_ns = PEER_RX_NS;
	h->rx_foreign = 21;
	h->rx_warm = 22;
	h->rx_bad_stream = 23;
	h->tx_dropped = 24;
	h->pmd.ipackets = 201;
	h->pmd.opackets = 202;
	h->pmd.ibytes = 203;
	h->pmd.obytes = 204;
	h->pmd.imissed = 205;
	h->pmd.ierrors = 206;
	h->pmd.oerrors = 207;
	h->pmd.rx_nombuf = 208;
	for (i = 0; i < NS; i++) {
		memset(&s[i], 0, sizeof(s[i]));
		s[i].id = 60 + i;
		s[i].tx_pkts = 7002 + 100 * i;
		s[i].tx_bytes = 700002 + 100 * i;
		s[i].rx_pkts = 3003 + 100 * i;
		s[i].rx_unique = 3006 + 100 * i;
		s[i].rx_bytes = 300007 + 100 * i;
		s[i].out_of_order = 61 + 100 * i;
		s[i].duplicates = 62 + 100 * i;
		s[i].late = 63 + 100 * i;
		s[i].jitter_ps = PEER_JITTER(i);
		fill_hist(&s[i].hist, 90000 + 10 * i, 3 + i);
	}
}

static void
assert_double_exact(double got, double want, const char *what)
{
	if (got != want)
		fail_msg("%s: got %.17g, want %.17g", what, got, want);
}

static void
assert_hist_equal(const struct nb_hist *got, const struct nb_hist *want)
{
	assert_int_equal(got->count, want->count);
	assert_int_equal(got->min, want->min);
	assert_int_equal(got->max, want->max);
	assert_memory_equal(got, want, sizeof(*got));
}

/* What both directions share: description, ports. */
static void
check_common(const struct nb_result *out, const struct nb_result *own,
	     const struct nb_ctl_results_hdr *h, const char *method)
{
	struct nb_port_desc zero_desc;

	assert_ptr_equal(out->cfg, &cfg);
	assert_int_equal(out->nb_streams, NS);
	assert_string_equal(out->topology, "peer");
	assert_ptr_equal(out->latency_method, method);
	assert_string_equal(out->clock, "tsc");
	assert_int_equal(out->tsc_hz, 2100000000);
	assert_int_equal(out->interrupted, 1);
	assert_double_exact(out->req_pps, 1.5e6, "req_pps");
	assert_double_exact(out->req_l1_bps, 1.2e9, "req_l1_bps");
	assert_double_exact(out->req_l2_bps, 1.0e9, "req_l2_bps");
	assert_string_equal(out->lcore_map, "rx 2, tx 3, ctl 1");
	assert_int_equal(out->start_time, 1700000000);
	assert_int_equal(out->alloc_fail, 0); /* not a peer-report field */

	assert_int_equal(out->nb_ports, 2);
	assert_memory_equal(&out->ports[0], &own->ports[0],
			    sizeof(own->ports[0]));
	assert_int_equal(out->ports[1].desc.port_id, PORT);
	assert_string_equal(out->ports[1].desc.name, "responder");
	assert_string_equal(out->ports[1].role, "peer");
	assert_memory_equal(&out->ports[1].pmd, &h->pmd, sizeof(h->pmd));
	assert_int_equal(out->ports[1].pmd.ipackets, 201);
	assert_int_equal(out->ports[1].tool_tx_pkts, 0);
	assert_int_equal(out->ports[1].tool_tx_bytes, 0);
	assert_int_equal(out->ports[1].tool_rx_pkts, 0);
	assert_int_equal(out->ports[1].tool_rx_bytes, 0);
	memset(&zero_desc, 0, sizeof(zero_desc));
	zero_desc.port_id = PORT;
	snprintf(zero_desc.name, sizeof(zero_desc.name), "responder");
	assert_memory_equal(&out->ports[1].desc, &zero_desc, sizeof(zero_desc));
}

static void
test_side_init(void **state)
{
	static const char method[] = "round trip / 2";
	struct nb_result *own = make_own();
	struct nb_result *out = calloc(1, sizeof(*out));
	uint32_t i;

	(void)state;
	assert_non_null(out);
	memset(out, 0xa5, sizeof(*out));
	assert_int_equal(nb_peer_result_side_init(out, own, method), 0);
	assert_ptr_equal(out->cfg, &cfg);
	assert_int_equal(out->nb_streams, NS);
	assert_string_equal(out->topology, "peer");
	assert_ptr_equal(out->latency_method, method);
	assert_int_equal(out->tsc_hz, 2100000000);
	assert_int_equal(out->interrupted, 1);
	assert_double_exact(out->req_pps, 1.5e6, "req_pps");
	assert_double_exact(out->req_l1_bps, 1.2e9, "req_l1_bps");
	assert_double_exact(out->req_l2_bps, 1.0e9, "req_l2_bps");
	assert_string_equal(out->lcore_map, "rx 2, tx 3, ctl 1");
	assert_int_equal(out->start_time, 1700000000);
	/* what happened is left to the merge */
	assert_double_exact(out->tx_seconds, 0, "tx_seconds");
	assert_double_exact(out->rx_seconds, 0, "rx_seconds");
	assert_int_equal(out->tx_dropped, 0);
	assert_int_equal(out->rx_foreign, 0);
	assert_int_equal(out->nb_ports, 0);
	for (i = 0; i < NS; i++) {
		assert_int_equal(out->streams[i].id, i);
		assert_int_equal(out->streams[i].tx_pkts, 0);
		assert_int_equal(out->streams[i].hist.count, 0);
	}
	nb_result_free(out);
	nb_result_free(own);
	free(out);
	free(own);
}

/* Both ends' results merged one way, with the common checks done. */
struct merged {
	struct nb_result *own, *out;
	struct nb_ctl_stream_res *s;
	struct nb_ctl_results_hdr h;
};

static void
merged_make(struct merged *m, int we_send)
{
	static const char method[] = "one-way";

	m->own = make_own();
	m->out = calloc(1, sizeof(*m->out));
	m->s = calloc(NS, sizeof(*m->s));
	assert_non_null(m->out);
	assert_non_null(m->s);
	make_peer(&m->h, m->s);
	assert_int_equal(nb_peer_result_side_init(m->out, m->own, method), 0);
	nb_peer_result_merge(m->out, m->own, &m->h, m->s, NS, we_send);
	check_common(m->out, m->own, &m->h, method);
}

static void
merged_free(struct merged *m)
{
	nb_result_free(m->out);
	nb_result_free(m->own);
	free(m->out);
	free(m->own);
	free(m->s);
}

static void
test_merge_we_send(void **state)
{
	struct merged m;
	struct nb_result *out;
	struct nb_ctl_stream_res *s;
	uint32_t i;

	(void)state;
	merged_make(&m, 1);
	out = m.out;
	s = m.s;

	/* header: senders ours, receivers the responder's */
	assert_double_exact(out->tx_seconds, OWN_TX_S, "tx_seconds");
	assert_double_exact(out->rx_seconds, 11.5, "rx_seconds");
	assert_int_equal(out->tx_dropped, 14);
	assert_int_equal(out->rx_foreign, 21);
	assert_int_equal(out->rx_warm, 22);
	assert_int_equal(out->rx_bad_stream, 23);

	for (i = 0; i < NS; i++) {
		const struct nb_stream_result *o = &out->streams[i];

		assert_int_equal(o->id, i); /* as nb_result_init made it */
		assert_int_equal(o->tx_pkts, 5001 + 100 * i);
		assert_int_equal(o->tx_bytes, 500001 + 100 * i);
		assert_int_equal(o->rx_pkts, 3003 + 100 * i);
		assert_int_equal(o->rx_unique, 3006 + 100 * i);
		assert_int_equal(o->rx_bytes, 300007 + 100 * i);
		assert_int_equal(o->out_of_order, 61 + 100 * i);
		assert_int_equal(o->duplicates, 62 + 100 * i);
		assert_int_equal(o->late, 63 + 100 * i);
		assert_int_equal(o->lost, LOST_WE_SEND);
		assert_double_exact(o->jitter_ns, (987654.0 + i) / 1000.0,
				    "jitter_ns");
		assert_hist_equal(&o->hist, &s[i].hist);
		assert_int_equal(o->hist.count, 8 + i);
		assert_int_equal(o->hist.min, 90000 + 10 * i);
	}
	/* the sums nb_result_finish() derives */
	assert_int_equal(out->sum.tx_pkts, 5001 + 5101 + 5201);
	assert_int_equal(out->sum.rx_unique, 3006 + 3106 + 3206);
	assert_int_equal(out->sum.lost, 3 * LOST_WE_SEND);
	assert_int_equal(out->sum.hist.count, 8 + 9 + 10);
	assert_true(out->lost_percent > 100.0 * 5985 / 15303 - 1e-9 &&
		    out->lost_percent < 100.0 * 5985 / 15303 + 1e-9);

	merged_free(&m);
}

static void
test_merge_we_receive(void **state)
{
	struct merged m;
	struct nb_result *out, *own;
	uint32_t i;

	(void)state;
	merged_make(&m, 0);
	out = m.out;
	own = m.own;

	/* header: senders the responder's, receivers ours; our 10.5 s of
	 * receiving is raised to its 12.000000007 s of sending */
	assert_double_exact(out->tx_seconds, 12.000000007, "tx_seconds");
	assert_double_exact(out->rx_seconds, 12.000000007, "rx_seconds");
	assert_int_equal(out->tx_dropped, 24);
	assert_int_equal(out->rx_foreign, 11);
	assert_int_equal(out->rx_warm, 12);
	assert_int_equal(out->rx_bad_stream, 13);

	for (i = 0; i < NS; i++) {
		const struct nb_stream_result *o = &out->streams[i];

		assert_int_equal(o->id, i);
		assert_int_equal(o->tx_pkts, 7002 + 100 * i);
		assert_int_equal(o->tx_bytes, 700002 + 100 * i);
		assert_int_equal(o->rx_pkts, 4004 + 100 * i);
		assert_int_equal(o->rx_unique, 4005 + 100 * i);
		assert_int_equal(o->rx_bytes, 400006 + 100 * i);
		assert_int_equal(o->out_of_order, 41 + 100 * i);
		assert_int_equal(o->duplicates, 42 + 100 * i);
		assert_int_equal(o->late, 43 + 100 * i);
		assert_int_equal(o->lost, LOST_WE_RECV);
		/* exactly ours, not rounded through whole ps */
		assert_double_exact(o->jitter_ns, OWN_JITTER(i), "jitter_ns");
		assert_hist_equal(&o->hist, &own->streams[i].hist);
		assert_int_equal(o->hist.count, 5 + i);
		assert_int_equal(o->hist.min, 1000 + 10 * i);
	}
	assert_int_equal(out->sum.lost, 3 * LOST_WE_RECV);

	merged_free(&m);
}

/* Our receivers ran longer than the responder's senders: kept. */
static void
test_merge_rx_seconds(void **state)
{
	struct nb_result *own = make_own();
	struct nb_result *out = calloc(1, sizeof(*out));
	struct nb_ctl_stream_res *s = calloc(NS, sizeof(*s));
	struct nb_ctl_results_hdr h;

	(void)state;
	make_peer(&h, s);
	own->rx_seconds = 12.25;
	nb_peer_result_side_init(out, own, "m");
	nb_peer_result_merge(out, own, &h, s, NS, 0);
	assert_double_exact(out->tx_seconds, 12.000000007, "tx_seconds");
	assert_double_exact(out->rx_seconds, 12.25, "rx_seconds");
	nb_result_free(out);

	/* we send for OWN_TX_S; the responder's receivers stopped early */
	h.rx_seconds_ns = UINT64_C(9000000000);
	nb_peer_result_side_init(out, own, "m");
	nb_peer_result_merge(out, own, &h, s, NS, 1);
	assert_double_exact(out->tx_seconds, OWN_TX_S, "tx_seconds");
	assert_double_exact(out->rx_seconds, OWN_TX_S, "rx_seconds");
	nb_result_free(out);

	nb_result_free(own);
	free(out);
	free(own);
	free(s);
}

/* The responder sent fewer streams than we run: the rest stay empty. */
static void
test_merge_short(void **state)
{
	struct nb_result *own = make_own();
	struct nb_result *out = calloc(1, sizeof(*out));
	struct nb_ctl_stream_res *s = calloc(NS, sizeof(*s));
	struct nb_ctl_results_hdr h;
	int we_send;

	(void)state;
	make_peer(&h, s);
	for (we_send = 0; we_send <= 1; we_send++) {
		const struct nb_stream_result *o;

		nb_peer_result_side_init(out, own, "m");
		nb_peer_result_merge(out, own, &h, s, NS - 1, we_send);
		assert_int_equal(out->streams[0].tx_pkts,
				 we_send ? 5001 : 7002);
		assert_int_equal(out->streams[1].rx_unique,
				 we_send ? 3106 : 4105);
		o = &out->streams[NS - 1];
		assert_int_equal(o->id, NS - 1);
		assert_int_equal(o->tx_pkts, 0);
		assert_int_equal(o->tx_bytes, 0);
		assert_int_equal(o->rx_pkts, 0);
		assert_int_equal(o->rx_unique, 0);
		assert_int_equal(o->rx_bytes, 0);
		assert_int_equal(o->late, 0);
		assert_int_equal(o->lost, 0);
		assert_double_exact(o->jitter_ns, 0, "jitter_ns");
		assert_int_equal(o->hist.count, 0);
		assert_int_equal(o->hist.min, UINT64_MAX);
		assert_int_equal(out->sum.lost,
				 2 * (we_send ? LOST_WE_SEND : LOST_WE_RECV));
		nb_result_free(out);
	}
	nb_result_free(own);
	free(out);
	free(own);
	free(s);
}

static void
test_export_round_trip(void **state)
{
	struct nb_result *own = make_own();
	struct nb_ctl_stream_res *s = calloc(NS, sizeof(*s));
	struct nb_ctl_stream_res *back = calloc(NS, sizeof(*back));
	struct nb_ctl_results_hdr h, hb;
	uint8_t *blob;
	size_t len;
	uint32_t i, n = 0;

	(void)state;
	assert_non_null(s);
	assert_non_null(back);
	memset(&h, 0x5a, sizeof(h));
	nb_peer_result_export(own, &h, s);

	/* the records, by hand */
	assert_int_equal(h.tx_seconds_ns, UINT64_C(10123456789));
	assert_int_equal(h.rx_seconds_ns, UINT64_C(10500000000));
	assert_int_equal(h.rx_foreign, 11);
	assert_int_equal(h.rx_warm, 12);
	assert_int_equal(h.rx_bad_stream, 13);
	assert_int_equal(h.tx_dropped, 14);
	assert_memory_equal(&h.pmd, &own->ports[0].pmd, sizeof(h.pmd));
	assert_int_equal(h.pmd.ipackets, 101);
	assert_int_equal(h.pmd.xstats[0].value, 109);
	for (i = 0; i < NS; i++) {
		assert_int_equal(s[i].id, 40 + i);
		assert_int_equal(s[i].tx_pkts, 5001 + 100 * i);
		assert_int_equal(s[i].tx_bytes, 500001 + 100 * i);
		assert_int_equal(s[i].rx_pkts, 4004 + 100 * i);
		assert_int_equal(s[i].rx_unique, 4005 + 100 * i);
		assert_int_equal(s[i].rx_bytes, 400006 + 100 * i);
		assert_int_equal(s[i].out_of_order, 41 + 100 * i);
		assert_int_equal(s[i].duplicates, 42 + 100 * i);
		assert_int_equal(s[i].late, 43 + 100 * i);
		/* 123.4567 ns + i, in whole ps */
		assert_int_equal(s[i].jitter_ps, 123456 + 1000 * i);
		assert_hist_equal(&s[i].hist, &own->streams[i].hist);
	}

	/* through the wire format and back */
	len = nb_ctl_results_size(s, NS);
	blob = malloc(len);
	assert_non_null(blob);
	assert_int_equal(nb_ctl_results_write(&h, s, NS, blob, len), (int)len);
	assert_int_equal(nb_ctl_results_read(blob, len, &hb, back, NS, &n), 0);
	assert_int_equal(n, NS);
	assert_int_equal(hb.tx_seconds_ns, h.tx_seconds_ns);
	assert_int_equal(hb.rx_seconds_ns, h.rx_seconds_ns);
	assert_int_equal(hb.rx_foreign, 11);
	assert_int_equal(hb.rx_warm, 12);
	assert_int_equal(hb.rx_bad_stream, 13);
	assert_int_equal(hb.tx_dropped, 14);
	/* the blob carries the 8 basic pmd counters, not the xstats */
	assert_int_equal(hb.pmd.ipackets, 101);
	assert_int_equal(hb.pmd.opackets, 102);
	assert_int_equal(hb.pmd.ibytes, 103);
	assert_int_equal(hb.pmd.obytes, 104);
	assert_int_equal(hb.pmd.imissed, 105);
	assert_int_equal(hb.pmd.ierrors, 106);
	assert_int_equal(hb.pmd.oerrors, 107);
	assert_int_equal(hb.pmd.rx_nombuf, 108);
	for (i = 0; i < NS; i++) {
		assert_int_equal(back[i].id, s[i].id);
		assert_int_equal(back[i].tx_pkts, s[i].tx_pkts);
		assert_int_equal(back[i].tx_bytes, s[i].tx_bytes);
		assert_int_equal(back[i].rx_pkts, s[i].rx_pkts);
		assert_int_equal(back[i].rx_unique, s[i].rx_unique);
		assert_int_equal(back[i].rx_bytes, s[i].rx_bytes);
		assert_int_equal(back[i].out_of_order, s[i].out_of_order);
		assert_int_equal(back[i].duplicates, s[i].duplicates);
		assert_int_equal(back[i].late, s[i].late);
		assert_int_equal(back[i].jitter_ps, s[i].jitter_ps);
		assert_hist_equal(&back[i].hist, &own->streams[i].hist);
	}
	free(blob);
	nb_result_free(own);
	free(own);
	free(s);
	free(back);
}

/* Negative or zero times and jitter export as 0. */
static void
test_export_nonpositive(void **state)
{
	struct nb_result *own = make_own();
	struct nb_ctl_stream_res *s = calloc(NS, sizeof(*s));
	struct nb_ctl_results_hdr h;

	(void)state;
	own->tx_seconds = 0;
	own->rx_seconds = -1.0;
	own->streams[0].jitter_ns = 0;
	own->streams[1].jitter_ns = -2.5;
	nb_peer_result_export(own, &h, s);
	assert_int_equal(h.tx_seconds_ns, 0);
	assert_int_equal(h.rx_seconds_ns, 0);
	assert_int_equal(s[0].jitter_ps, 0);
	assert_int_equal(s[1].jitter_ps, 0);
	assert_int_equal(s[2].jitter_ps, 125456);
	nb_result_free(own);
	free(own);
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_side_init),
		cmocka_unit_test(test_merge_we_send),
		cmocka_unit_test(test_merge_we_receive),
		cmocka_unit_test(test_merge_rx_seconds),
		cmocka_unit_test(test_merge_short),
		cmocka_unit_test(test_export_round_trip),
		cmocka_unit_test(test_export_nonpositive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
