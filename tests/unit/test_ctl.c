/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the control-protocol codec, its message table and the
 * results blobs (app/core/nb_ctl.c, nb_ctl_msgs.c, nb_ctl_setup.c,
 * nb_ctl_results.c).
 *
 * Every decode reads from a malloc'd buffer of exactly the datagram's
 * length, so under AddressSanitizer any read past the end is caught.
 * Offsets in the byte patches below are the documented wire layout
 * (nb_ctl.h, docs/protocol.md); they are written out here on purpose
 * rather than derived from the code under test.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_test_util.h"

#include "nb_ctl.h"
#include "nb_ctl_msgs.h"
#include "nb_frame.h"
#include "nb_hist.h"

#define N_RANDOM    100000
#define N_MUTATIONS 100000
#define H	    NB_CTL_HDR_LEN

static uint32_t
rng_nonzero32(uint64_t *state)
{
	uint32_t v;

	do {
		v = (uint32_t)rng_next(state);
	} while (v == 0);
	return v;
}

/*
 * Body length of each type as documented (RESULTS: fixed part only; a tag
 * adds 16 bytes after the body).
 */
static size_t
doc_body_len(uint8_t type)
{
	switch (type) {
	case NB_CTL_HELLO:
	case NB_CTL_WELCOME:
		return 368;
	case NB_CTL_BUSY:
		return 68;
	case NB_CTL_PARAMS:
		return 280;
	case NB_CTL_INTERVAL:
		return 892;
	case NB_CTL_QUIT:
		return 32 +
		       130; /* the proof, zeros to a tagged REJECT's size */
	case NB_CTL_START:
		return 12;
	case NB_CTL_ACCEPT:
		return 704;
	case NB_CTL_RESULTS_REQ:
	case NB_CTL_DONE:
		return 4;
	case NB_CTL_REJECT:
	case NB_CTL_ERROR:
		return 130;
	case NB_CTL_KEEPALIVE:
		return 24;
	case NB_CTL_RESULTS:
		return 14;
	default:
		return 0;
	}
}

/* A random string of random length (0 .. n-1 bytes, any non-NUL byte). */
static void
rand_str(uint64_t *r, char *dst, size_t n)
{
	size_t k = rng_below(r, (uint32_t)n), i;

	memset(dst, 0, n);
	for (i = 0; i < k; i++)
		dst[i] = (char)(1 + rng_below(r, 255));
}

static void
rand_bytes(uint64_t *r, uint8_t *dst, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = (uint8_t)rng_next(r);
}

static void
rand_conf(uint64_t *r, struct nb_ctl_conf *c)
{
	rand_str(r, c->tool_version, sizeof(c->tool_version));
	rand_str(r, c->dpdk_version, sizeof(c->dpdk_version));
	rand_str(r, c->host, sizeof(c->host));
	rand_str(r, c->cpu, sizeof(c->cpu));
	rand_str(r, c->os, sizeof(c->os));
	rand_str(r, c->driver, sizeof(c->driver));
	c->link_speed_mbps = (uint32_t)rng_next(r);
	c->nb_ports = (uint16_t)rng_next(r);
	c->nb_rxq = (uint16_t)rng_next(r);
	c->nb_txq = (uint16_t)rng_next(r);
	c->nb_workers = (uint16_t)rng_next(r);
	c->numa_node = (int16_t)(rng_below(r, 32769) - 1); /* -1 .. 32767 */
	rand_bytes(r, c->mac, sizeof(c->mac));
	c->ipv4 = (uint32_t)rng_next(r);
	rand_str(r, c->boot_id, sizeof(c->boot_id));
	c->tsc_hz = rng_next(r);
	c->tsc_bound_ppb = (uint32_t)rng_next(r);
	rand_bytes(r, c->nonce, sizeof(c->nonce));
	c->flags = (uint32_t)rng_below(r, 2); /* only bit 0 is defined */
}

static void
rand_proof(uint64_t *r, struct nb_ctl_proof *q)
{
	rand_bytes(r, q->client_nonce, sizeof(q->client_nonce));
	rand_bytes(r, q->cookie, sizeof(q->cookie));
}

/* A responder's offload plan as ACCEPT carries it (version 8). */
static void
rand_offload(uint64_t *r, struct nb_offload_plan *o)
{
	memset(o, 0, sizeof(*o));
	o->tx_l4_csum = (int)rng_below(r, 2);
	o->rss = (int)rng_below(r, 2);
	o->rss_l4 = o->rss && rng_below(r, 2);
	o->hw_ts_avail = (int)rng_below(r, 2);
	o->hw_rate = (int)rng_below(r, 2);
	o->flow_control = (enum nb_fc_mode)rng_below(r, NB_FC_UNSUPPORTED + 1);
	rand_str(r, o->csum_why, sizeof(o->csum_why));
	rand_str(r, o->rss_why, sizeof(o->rss_why));
	rand_str(r, o->ts_why, sizeof(o->ts_why));
	rand_str(r, o->rate_why, sizeof(o->rate_why));
}

/* 0-7 unicast, nonzero MACs (version 8) */
static void
rand_macs(uint64_t *r, struct nb_ctl_macs *a)
{
	unsigned int i;

	memset(a, 0, sizeof(*a));
	a->n = (uint8_t)rng_below(r, NB_CTL_MACS_MAX + 1);
	for (i = 0; i < a->n; i++) {
		rand_bytes(r, a->mac[i], 6);
		a->mac[i][0] = (uint8_t)((a->mac[i][0] & 0xfe) | 2);
	}
}

static void
rand_params(uint64_t *r, struct nb_ctl_params *p)
{
	uint32_t i;

	p->direction = (uint8_t)rng_below(r, 3);
	p->proto = rng_below(r, 2) ? NB_IPPROTO_UDP : NB_IPPROTO_TCP;
	p->vlan_id = (uint16_t)rng_below(r, 4095);
	p->streams = 1 + rng_below(r, 1024);
	p->nb_sizes = (uint16_t)(1 + rng_below(r, 16));
	for (i = 0; i < p->nb_sizes; i++)
		p->sizes[i] = (uint16_t)(64 + rng_below(r, 9000 - 64 + 1));
	p->nb_pattern = (uint16_t)(1 + rng_below(r, 64));
	for (i = 0; i < p->nb_pattern; i++)
		p->pattern[i] = (uint8_t)rng_below(r, p->nb_sizes);
	/* rate_num / rate_den <= 1e10 pps */
	switch (rng_below(r, 4)) {
	case 0: /* max */
		p->rate_num = 0;
		p->rate_den = 1 + rng_below(r, 1000000);
		break;
	case 1: /* any numerator over a huge denominator */
		p->rate_num = rng_next(r);
		p->rate_den = rng_next(r) | (UINT64_C(1) << 63);
		break;
	default: /* below 1e10 pps, denominator up to 1e9 */
		p->rate_den = 1 + rng_below(r, 1000000000);
		p->rate_num =
			rng_below(r, UINT64_C(10000000000)) * p->rate_den +
			rng_below(r, p->rate_den);
		break;
	}
	p->packets = rng_below(r, (UINT64_C(1) << 62) + 1);
	if (rng_below(r, 8) == 0) /* until packets */
		p->duration_ms = 0;
	else
		p->duration_ms = 1 + rng_below(r, UINT64_C(2592000000));
	if (p->duration_ms == 0 && p->packets == 0)
		p->packets = 1;
	p->omit_ms = rng_below(r, 3600001);
	p->latency_rate = rng_below(r, NB_CTL_MAX_LATENCY_RATE + 1);
	p->client_ip = (uint32_t)rng_next(r);
	p->responder_ip = (uint32_t)rng_next(r);
	rand_bytes(r, p->client_mac, sizeof(p->client_mac));
	rand_bytes(r, p->responder_mac, sizeof(p->responder_mac));
	p->sport_base = (uint16_t)rng_below(r, 65536 - p->streams + 1);
	do {
		p->dport = (uint16_t)(1 + rng_below(r, 65535));
	} while (p->dport == NB_CONTROL_UDP_PORT);
	p->interval_ms = rng_below(r, 4) == 0
				 ? 0
				 : 100 + rng_below(r, 3600000 - 100 + 1);
	if (rng_below(r, 4) == 0) { /* closed-loop TCP (version 7) */
		p->tcp = 1;
		p->proto = NB_IPPROTO_TCP;
		p->nb_sizes = p->nb_pattern = 1;
		memset(p->sizes, 0, sizeof(p->sizes));
		memset(p->pattern, 0, sizeof(p->pattern));
		p->sizes[0] = (uint16_t)(128 + rng_below(r, 9000 - 128 + 1));
		p->rate_num = p->packets = p->omit_ms = p->latency_rate = 0;
		p->tcp_flags = (uint8_t)rng_below(r, 4);
		p->tcp_cc = (uint8_t)rng_below(r, 2);
		p->tcp_window =
			2048 + (uint32_t)rng_below(r, (1u << 30) - 2047);
		if (p->direction == NB_CTL_DIR_FORWARD && rng_below(r, 2))
			p->tcp_msg = 1 + (uint32_t)rng_below(r, 1u << 20);
		else
			p->bytes = rng_below(r, (UINT64_C(1) << 62) + 1);
		if (p->bytes == 0 && p->duration_ms == 0)
			p->duration_ms = 1;
	}
	rand_macs(r, &p->client_macs);
	rand_proof(r, &p->proof);
}

/* A valid INTERVAL part: a warm-up one, or streams of a random test. */
static void
rand_interval(uint64_t *r, struct nb_ctl_interval *v)
{
	uint64_t *sums = &v->tx_pkts;
	uint32_t i, j;

	v->index = (uint32_t)rng_next(r);
	v->nb_streams = (uint16_t)(1 + rng_below(r, 1024));
	v->start_ns = rng_next(r) >> 1;
	v->end_ns = v->start_ns + (rng_next(r) >> 2);
	for (i = 0; i < 12; i++)
		sums[i] = rng_next(r);
	if (rng_below(r, 8) == 0) {
		v->flags = NB_CTL_IV_F_OMITTED | NB_CTL_IV_F_LAST;
		return;
	}
	v->first = (uint16_t)rng_below(r, v->nb_streams);
	v->count = (uint16_t)(1 + rng_below(r, NB_CTL_IV_STREAMS));
	if ((uint32_t)v->first + v->count > v->nb_streams)
		v->count = (uint16_t)(v->nb_streams - v->first);
	if (v->first + v->count == v->nb_streams)
		v->flags = NB_CTL_IV_F_LAST;
	for (i = 0; i < v->count; i++)
		for (j = 0; j < 8; j++)
			(&v->s[i].tx_pkts)[j] = rng_next(r);
}

static uint32_t
doc_parts(uint32_t total)
{
	return total == 0 ? 1 : (uint32_t)(((uint64_t)total + 1023) / 1024);
}

static uint16_t
doc_chunk_len(uint32_t total, uint32_t part)
{
	uint64_t off = (uint64_t)part * 1024;
	uint64_t left = total > off ? total - off : 0;

	return (uint16_t)(left < 1024 ? left : 1024);
}

/* A valid message of the given type with random non-trivial fields. */
static void
rand_msg(uint64_t *r, uint8_t type, struct nb_ctl_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->type = type;
	m->session = rng_nonzero32(r);
	m->seq = rng_nonzero32(r);
	switch (type) {
	case NB_CTL_HELLO:
	case NB_CTL_WELCOME:
		rand_conf(r, &m->u.conf);
		break;
	case NB_CTL_BUSY:
		m->u.busy.asked_session = rng_nonzero32(r);
		rand_str(r, m->u.busy.reason, sizeof(m->u.busy.reason));
		break;
	case NB_CTL_PARAMS:
		rand_params(r, &m->u.params);
		break;
	case NB_CTL_ACCEPT:
		m->u.accept.rx_queues = 1 + rng_below(r, NB_CTL_MAX_RX_QUEUES);
		rand_macs(r, &m->u.accept.responder_macs);
		rand_offload(r, &m->u.accept.offload);
		m->u.accept.numa.nodes = (uint16_t)rng_next(r);
		m->u.accept.numa.port_node =
			(int16_t)((int)rng_below(r, 32768) - 1);
		m->u.accept.numa.workers = (uint16_t)rng_next(r);
		m->u.accept.numa.cross = (uint16_t)rng_below(
			r, (uint32_t)m->u.accept.numa.workers + 1);
		break;
	case NB_CTL_REJECT:
		m->u.reject.code =
			(uint16_t)(1 + rng_below(r, NB_CTL_CODE_MAX - 1));
		rand_str(r, m->u.reject.reason, sizeof(m->u.reject.reason));
		break;
	case NB_CTL_START:
		m->u.start.delay_ms =
			rng_below(r, NB_CTL_MAX_START_DELAY_MS + 1);
		m->u.start.rx_offset_ns = (int64_t)rng_next(r);
		break;
	case NB_CTL_KEEPALIVE:
		m->u.ka.sender_ns = rng_next(r);
		if (rng_below(r, 4) != 0) {
			m->u.ka.echo_ns = rng_next(r) | 1;
			m->u.ka.echo_delay_ns = rng_next(r);
		}
		break;
	case NB_CTL_RESULTS_REQ:
		m->u.rreq.part = (uint32_t)rng_next(r);
		break;
	case NB_CTL_RESULTS: {
		uint32_t total = rng_below(r, 4) == 0 ? (uint32_t)rng_next(r)
						      : rng_below(r, 5000);

		m->u.res.total_len = total;
		m->u.res.nb_parts = doc_parts(total);
		m->u.res.part = rng_below(r, m->u.res.nb_parts);
		m->u.res.chunk_len = doc_chunk_len(total, m->u.res.part);
		rand_bytes(r, m->u.res.chunk, m->u.res.chunk_len);
		break;
	}
	case NB_CTL_ERROR:
		m->u.error.code =
			(uint16_t)(1 + rng_below(r, NB_CTL_CODE_MAX - 1));
		rand_str(r, m->u.error.reason, sizeof(m->u.error.reason));
		break;
	case NB_CTL_QUIT:
		rand_proof(r, &m->u.quit);
		break;
	case NB_CTL_INTERVAL:
		rand_interval(r, &m->u.iv);
		break;
	case NB_CTL_DONE:
		m->u.done.flags = rng_below(r, 2) ? NB_CTL_DONE_F_LEAVING : 0;
		break;
	default:
		break;
	}
}

/* rand_msg, then a random tag on it. */
static void
rand_tagged(uint64_t *r, uint8_t type, struct nb_ctl_msg *m)
{
	rand_msg(r, type, m);
	m->tagged = 1;
	rand_bytes(r, m->tag, sizeof(m->tag));
}

/* A random known type. */
static uint8_t
rand_type(uint64_t *r)
{
	return (uint8_t)(NB_CTL_HELLO +
			 rng_below(r, NB_CTL_TYPE_MAX - NB_CTL_HELLO));
}

/* Encode into an exactly-sized malloc'd buffer. */
static uint8_t *
encode_exact(const struct nb_ctl_msg *m, size_t *len)
{
	int n = nb_ctl_encoded_len(m);
	uint8_t *buf;

	assert_true(n >= H);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(nb_ctl_encode(m, buf, (size_t)n), n);
	*len = (size_t)n;
	return buf;
}

/* Decode a copy of bytes held in an exactly-sized malloc'd buffer. */
static int
decode_exact(const uint8_t *bytes, size_t len, struct nb_ctl_msg *m)
{
	uint8_t *buf;
	int rc;

	if (len > UINT16_MAX) {
		fail_msg("decode_exact: length %zu", len);
		return -1;
	}
	buf = malloc(len > 0 ? len : 1);
	assert_non_null(buf);
	if (len > 0)
		memcpy(buf, bytes, len);
	rc = nb_ctl_decode(buf, len, m);
	free(buf);
	return rc;
}

static void
compare_conf(const struct nb_ctl_conf *a, const struct nb_ctl_conf *b)
{
	assert_string_equal(a->tool_version, b->tool_version);
	assert_string_equal(a->dpdk_version, b->dpdk_version);
	assert_string_equal(a->host, b->host);
	assert_string_equal(a->cpu, b->cpu);
	assert_string_equal(a->os, b->os);
	assert_string_equal(a->driver, b->driver);
	assert_int_equal(a->link_speed_mbps, b->link_speed_mbps);
	assert_int_equal(a->nb_ports, b->nb_ports);
	assert_int_equal(a->nb_rxq, b->nb_rxq);
	assert_int_equal(a->nb_txq, b->nb_txq);
	assert_int_equal(a->nb_workers, b->nb_workers);
	assert_int_equal(a->numa_node, b->numa_node);
	assert_memory_equal(a->mac, b->mac, 6);
	assert_int_equal(a->ipv4, b->ipv4);
	assert_string_equal(a->boot_id, b->boot_id);
	assert_int_equal(a->tsc_hz, b->tsc_hz);
	assert_int_equal(a->tsc_bound_ppb, b->tsc_bound_ppb);
	assert_memory_equal(a->nonce, b->nonce, 16);
	assert_int_equal(a->flags, b->flags);
}

static void
compare_macs(const struct nb_ctl_macs *a, const struct nb_ctl_macs *b)
{
	assert_int_equal(a->n, b->n);
	assert_memory_equal(a->mac, b->mac, 6u * a->n);
}

static void
compare_offload(const struct nb_offload_plan *a,
		const struct nb_offload_plan *b)
{
	assert_int_equal(a->tx_l4_csum, b->tx_l4_csum);
	assert_int_equal(a->rss, b->rss);
	assert_int_equal(a->rss_l4, b->rss_l4);
	assert_int_equal(a->hw_ts_avail, b->hw_ts_avail);
	assert_int_equal(a->hw_rate, b->hw_rate);
	assert_int_equal(a->flow_control, b->flow_control);
	assert_string_equal(a->csum_why, b->csum_why);
	assert_string_equal(a->rss_why, b->rss_why);
	assert_string_equal(a->ts_why, b->ts_why);
	assert_string_equal(a->rate_why, b->rate_why);
}

static void
compare_proof(const struct nb_ctl_proof *a, const struct nb_ctl_proof *b)
{
	assert_memory_equal(a->client_nonce, b->client_nonce, 16);
	assert_memory_equal(a->cookie, b->cookie, 16);
}

static void
compare_params(const struct nb_ctl_params *a, const struct nb_ctl_params *b)
{
	uint32_t i;

	assert_int_equal(a->direction, b->direction);
	assert_int_equal(a->proto, b->proto);
	assert_int_equal(a->vlan_id, b->vlan_id);
	assert_int_equal(a->streams, b->streams);
	assert_int_equal(a->nb_sizes, b->nb_sizes);
	for (i = 0; i < a->nb_sizes; i++)
		assert_int_equal(a->sizes[i], b->sizes[i]);
	assert_int_equal(a->nb_pattern, b->nb_pattern);
	for (i = 0; i < a->nb_pattern; i++)
		assert_int_equal(a->pattern[i], b->pattern[i]);
	assert_int_equal(a->rate_num, b->rate_num);
	assert_int_equal(a->rate_den, b->rate_den);
	assert_int_equal(a->packets, b->packets);
	assert_int_equal(a->duration_ms, b->duration_ms);
	assert_int_equal(a->omit_ms, b->omit_ms);
	assert_int_equal(a->latency_rate, b->latency_rate);
	assert_int_equal(a->client_ip, b->client_ip);
	assert_int_equal(a->responder_ip, b->responder_ip);
	assert_memory_equal(a->client_mac, b->client_mac, 6);
	assert_memory_equal(a->responder_mac, b->responder_mac, 6);
	assert_int_equal(a->sport_base, b->sport_base);
	assert_int_equal(a->dport, b->dport);
	assert_int_equal(a->interval_ms, b->interval_ms);
	assert_int_equal(a->tcp, b->tcp);
	assert_int_equal(a->tcp_flags, b->tcp_flags);
	assert_int_equal(a->tcp_cc, b->tcp_cc);
	assert_int_equal(a->tcp_window, b->tcp_window);
	assert_int_equal(a->tcp_msg, b->tcp_msg);
	assert_int_equal(a->bytes, b->bytes);
	compare_macs(&a->client_macs, &b->client_macs);
	compare_proof(&a->proof, &b->proof);
}

static void
compare_msg(const struct nb_ctl_msg *a, const struct nb_ctl_msg *b)
{
	assert_int_equal(a->type, b->type);
	assert_int_equal(a->session, b->session);
	assert_int_equal(a->seq, b->seq);
	assert_int_equal(a->tagged, b->tagged);
	if (a->tagged)
		assert_memory_equal(a->tag, b->tag, 16);
	switch (a->type) {
	case NB_CTL_HELLO:
	case NB_CTL_WELCOME:
		compare_conf(&a->u.conf, &b->u.conf);
		break;
	case NB_CTL_BUSY:
		assert_int_equal(a->u.busy.asked_session,
				 b->u.busy.asked_session);
		assert_string_equal(a->u.busy.reason, b->u.busy.reason);
		break;
	case NB_CTL_PARAMS:
		compare_params(&a->u.params, &b->u.params);
		break;
	case NB_CTL_ACCEPT:
		assert_int_equal(a->u.accept.rx_queues, b->u.accept.rx_queues);
		compare_macs(&a->u.accept.responder_macs,
			     &b->u.accept.responder_macs);
		compare_offload(&a->u.accept.offload, &b->u.accept.offload);
		assert_memory_equal(&a->u.accept.numa, &b->u.accept.numa,
				    sizeof(a->u.accept.numa));
		break;
	case NB_CTL_REJECT:
		assert_int_equal(a->u.reject.code, b->u.reject.code);
		assert_string_equal(a->u.reject.reason, b->u.reject.reason);
		break;
	case NB_CTL_START:
		assert_int_equal(a->u.start.delay_ms, b->u.start.delay_ms);
		assert_int_equal(a->u.start.rx_offset_ns,
				 b->u.start.rx_offset_ns);
		break;
	case NB_CTL_KEEPALIVE:
		assert_int_equal(a->u.ka.sender_ns, b->u.ka.sender_ns);
		assert_int_equal(a->u.ka.echo_ns, b->u.ka.echo_ns);
		assert_int_equal(a->u.ka.echo_delay_ns, b->u.ka.echo_delay_ns);
		break;
	case NB_CTL_RESULTS_REQ:
		assert_int_equal(a->u.rreq.part, b->u.rreq.part);
		break;
	case NB_CTL_RESULTS:
		assert_int_equal(a->u.res.part, b->u.res.part);
		assert_int_equal(a->u.res.nb_parts, b->u.res.nb_parts);
		assert_int_equal(a->u.res.total_len, b->u.res.total_len);
		assert_int_equal(a->u.res.chunk_len, b->u.res.chunk_len);
		if (a->u.res.chunk_len > 0)
			assert_memory_equal(a->u.res.chunk, b->u.res.chunk,
					    a->u.res.chunk_len);
		break;
	case NB_CTL_ERROR:
		assert_int_equal(a->u.error.code, b->u.error.code);
		assert_string_equal(a->u.error.reason, b->u.error.reason);
		break;
	case NB_CTL_QUIT:
		compare_proof(&a->u.quit, &b->u.quit);
		break;
	case NB_CTL_INTERVAL:
		/* every field is a whole number; unused slots are zero */
		assert_memory_equal(&a->u.iv, &b->u.iv, sizeof(a->u.iv));
		break;
	default:
		break;
	}
}

/* A successful decode must re-encode to exactly the same bytes. */
static void
check_reencode(const struct nb_ctl_msg *m, const uint8_t *bytes, size_t len)
{
	uint8_t *out;
	size_t n;

	out = encode_exact(m, &n);
	assert_int_equal(n, len);
	assert_memory_equal(out, bytes, len);
	free(out);
}

static void
roundtrip(const struct nb_ctl_msg *m)
{
	struct nb_ctl_msg *d = malloc(sizeof(*d));
	uint8_t *buf;
	size_t len;

	assert_non_null(d);
	buf = encode_exact(m, &len);
	assert_int_equal(
		len,
		H + doc_body_len(m->type) +
			(m->type == NB_CTL_RESULTS ? m->u.res.chunk_len : 0) +
			(m->tagged ? 16 : 0));
	/* the length field counts the tag; the type byte flags it */
	assert_int_equal(rd16(buf + 6), len);
	assert_int_equal(buf[5], m->type | (m->tagged ? 0x80 : 0));
	assert_int_equal(nb_ctl_peek_type(buf, len), m->type);
	assert_int_equal(nb_ctl_peek_type(buf, 5), -1);
	if (m->tagged)
		assert_memory_equal(buf + len - 16, m->tag, 16);
	memset(d, 0xa5, sizeof(*d));
	assert_int_equal(decode_exact(buf, len, d), 0);
	compare_msg(m, d);
	check_reencode(d, buf, len);
	free(buf);
	free(d);
}

/* Hand-written examples, one per type; also pins a few exact bytes. */
static void
test_roundtrip_fixed(void **state)
{
	struct nb_ctl_msg m, d;
	uint8_t big[64];
	uint8_t *buf;
	size_t len;
	uint32_t i;

	(void)state;

	nb_ctl_msg_init(&m, NB_CTL_HELLO, 0x01020304);
	m.seq = 1;
	snprintf(m.u.conf.tool_version, sizeof(m.u.conf.tool_version), "0.1.0");
	snprintf(m.u.conf.dpdk_version, sizeof(m.u.conf.dpdk_version),
		 "DPDK 23.11.0");
	snprintf(m.u.conf.host, sizeof(m.u.conf.host), "client-host");
	snprintf(m.u.conf.cpu, sizeof(m.u.conf.cpu),
		 "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz");
	snprintf(m.u.conf.os, sizeof(m.u.conf.os), "Linux 6.1.0-18-amd64");
	snprintf(m.u.conf.driver, sizeof(m.u.conf.driver), "net_ice");
	m.u.conf.link_speed_mbps = 100000;
	m.u.conf.nb_ports = 2;
	m.u.conf.nb_rxq = 4;
	m.u.conf.nb_txq = 5;
	m.u.conf.nb_workers = 6;
	m.u.conf.numa_node = -1;
	memcpy(m.u.conf.mac, "\x02\x00\x00\x00\x00\x01", 6);
	m.u.conf.ipv4 = NB_DEFAULT_SRC_IP;
	m.u.conf.tsc_hz = 2596152347u;
	m.u.conf.tsc_bound_ppb = 210;
	for (i = 0; i < 16; i++)
		m.u.conf.nonce[i] = (uint8_t)(0xf0 + i);
	m.u.conf.flags = NB_CTL_CONF_F_KEY;
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(len, 384);
	/* header: version 9, type 1, length 384 */
	assert_memory_equal(buf,
			    "NBCM\x09\x01\x01\x80\x01\x02\x03\x04"
			    "\x00\x00\x00\x01",
			    16);
	assert_memory_equal(buf + H + 0, "0.1.0\0\0\0\0\0\0\0\0\0\0\0", 16);
	assert_memory_equal(buf + H + 240, "net_ice\0", 8);
	assert_memory_equal(buf + H + 272, "\x00\x01\x86\xa0", 4);
	assert_memory_equal(buf + H + 276,
			    "\x00\x02\x00\x04\x00\x05\x00\x06"
			    "\xff\xff",
			    10);
	assert_memory_equal(buf + H + 286,
			    "\x02\x00\x00\x00\x00\x01"
			    "\xc6\x12\x00\x01",
			    10);
	/* after boot_id (296-335): tsc_hz u64 = 0x9abe241b, bound u32 = 210 */
	assert_memory_equal(buf + H + 336,
			    "\x00\x00\x00\x00\x9a\xbe\x24\x1b"
			    "\x00\x00\x00\xd2",
			    12);
	/* since version 3: nonce[16] at 348, flags u32 at 364 */
	assert_memory_equal(buf + H + 348,
			    "\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7"
			    "\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xff",
			    16);
	assert_memory_equal(buf + H + 364, "\x00\x00\x00\x01", 4);
	free(buf);

	m.type = NB_CTL_WELCOME;
	m.u.conf.numa_node = 1;
	m.u.conf.flags = 0;
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(len, 384);
	assert_int_equal(buf[5], 2);
	assert_memory_equal(buf + H + 364, "\0\0\0\0", 4);
	free(buf);

	nb_ctl_msg_init(&m, NB_CTL_BUSY, 7);
	m.seq = 2;
	m.u.busy.asked_session = 0xdeadbeef;
	snprintf(m.u.busy.reason, sizeof(m.u.busy.reason),
		 "test in progress with 10.0.0.1");
	roundtrip(&m);

	nb_ctl_msg_init(&m, NB_CTL_PARAMS, 7);
	m.seq = 3;
	m.u.params.direction = NB_CTL_DIR_BIDIR;
	m.u.params.proto = NB_IPPROTO_TCP;
	m.u.params.vlan_id = 4094;
	m.u.params.streams = 1024;
	m.u.params.nb_sizes = 3;
	m.u.params.sizes[0] = 64;
	m.u.params.sizes[1] = 594;
	m.u.params.sizes[2] = 9000;
	m.u.params.nb_pattern = 12;
	for (i = 0; i < 12; i++)
		m.u.params.pattern[i] = (uint8_t)(i % 3);
	m.u.params.rate_num = 14880952381ull;
	m.u.params.rate_den = 1000;
	m.u.params.packets = 1000000000000ull;
	m.u.params.duration_ms = 60000;
	m.u.params.omit_ms = 2000;
	m.u.params.latency_rate = 1000;
	m.u.params.client_ip = NB_DEFAULT_SRC_IP;
	m.u.params.responder_ip = NB_DEFAULT_DST_IP;
	memcpy(m.u.params.client_mac, "\x02\x00\x00\x00\x00\x01", 6);
	memcpy(m.u.params.responder_mac, "\x02\x00\x00\x00\x00\x02", 6);
	m.u.params.sport_base = 64512; /* + 1023 = 65535 */
	m.u.params.dport = NB_DEFAULT_DPORT;
	m.u.params.interval_ms = 1000;
	for (i = 0; i < 16; i++) {
		m.u.params.proof.client_nonce[i] = (uint8_t)(0x10 + i);
		m.u.params.proof.cookie[i] = (uint8_t)(0xc0 + i);
	}
	m.u.params.client_macs.n = 2;
	memcpy(m.u.params.client_macs.mac[0], "\x02\x00\x00\x00\x10\x01", 6);
	memcpy(m.u.params.client_macs.mac[1], "\xaa\xbb\xcc\xdd\xee\xf0", 6);
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(len, 296);
	assert_memory_equal(buf + 6, "\x01\x28", 2);
	assert_memory_equal(buf + H,
			    "\x02\x06\x0f\xfe\x00\x00\x04\x00"
			    "\x00\x03\x00\x40\x02\x52\x23\x28",
			    16);
	assert_memory_equal(buf + H + 42, "\x00\x0c\x00\x01\x02\x00", 6);
	assert_memory_equal(buf + H + 116, "\0\0\0\0\0\0\x03\xe8", 8);
	assert_memory_equal(buf + H + 156, "\xc6\x12\x00\x01\xc6\x13\x00\x01",
			    8);
	assert_memory_equal(buf + H + 170,
			    "\x02\x00\x00\x00\x00\x02"
			    "\xfc\x00\x13\x89",
			    10);
	/* since version 5: interval_ms at 180 */
	assert_memory_equal(buf + H + 180, "\x00\x00\x03\xe8", 4);
	/* since version 7: the TCP fields at 184, all 0 in open loop */
	assert_memory_equal(buf + H + 184, "\0\0\0\0\0\0\0\0\0\0\0\0", 12);
	/* since version 8: count, reserved, 7 MACs (the unused ones 0) */
	assert_memory_equal(buf + H + 204,
			    "\x02\x00\x02\x00\x00\x00\x10\x01"
			    "\xaa\xbb\xcc\xdd\xee\xf0",
			    14);
	for (i = 218; i < 248; i++)
		assert_int_equal(buf[H + i], 0);
	/* since version 3: client_nonce, cookie (at 248, 264 since 8) */
	assert_memory_equal(buf + H + 248,
			    "\x10\x11\x12\x13\x14\x15\x16\x17"
			    "\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f",
			    16);
	assert_memory_equal(buf + H + 264,
			    "\xc0\xc1\xc2\xc3\xc4\xc5\xc6\xc7"
			    "\xc8\xc9\xca\xcb\xcc\xcd\xce\xcf",
			    16);
	free(buf);

	nb_ctl_msg_init(&m, NB_CTL_ACCEPT, 7);
	m.seq = 4;
	m.u.accept.rx_queues = 16;
	roundtrip(&m);

	nb_ctl_msg_init(&m, NB_CTL_REJECT, 7);
	m.seq = 5;
	m.u.reject.code = NB_CTL_CODE_PARAMS;
	memset(m.u.reject.reason, 'x', sizeof(m.u.reject.reason) - 1);
	roundtrip(&m); /* a reason of the maximum 127 bytes */

	nb_ctl_msg_init(&m, NB_CTL_START, 7);
	m.seq = 6;
	m.u.start.delay_ms = NB_CTL_MAX_START_DELAY_MS;
	m.u.start.rx_offset_ns = -123456789;
	roundtrip(&m);

	nb_ctl_msg_init(&m, NB_CTL_KEEPALIVE, 7);
	m.seq = 7;
	m.u.ka.sender_ns = 0x0123456789abcdefull;
	m.u.ka.echo_ns = 0xfedcba9876543210ull;
	m.u.ka.echo_delay_ns = 12345;
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_memory_equal(buf + H,
			    "\x01\x23\x45\x67\x89\xab\xcd\xef"
			    "\xfe\xdc\xba\x98\x76\x54\x32\x10"
			    "\0\0\0\0\0\0\x30\x39",
			    24);
	free(buf);

	nb_ctl_msg_init(&m, NB_CTL_RESULTS_REQ, 7);
	m.seq = 8;
	m.u.rreq.part = 0xffffffff;
	roundtrip(&m);

	nb_ctl_msg_init(&m, NB_CTL_RESULTS, 7);
	m.seq = 9;
	m.u.res.total_len = 2500;
	m.u.res.nb_parts = 3;
	m.u.res.part = 1;
	m.u.res.chunk_len = 1024;
	for (i = 0; i < 1024; i++)
		m.u.res.chunk[i] = (uint8_t)(i * 7);
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(len, 16 + 14 + 1024);
	assert_memory_equal(buf + H, "\0\0\0\x01\0\0\0\x03\0\0\x09\xc4\x04\x00",
			    14);
	free(buf);
	m.u.res.part = 2;
	m.u.res.chunk_len = 2500 - 2048;
	roundtrip(&m);

	nb_ctl_msg_init(&m, NB_CTL_ERROR, 7);
	m.seq = 10;
	m.u.error.code = NB_CTL_CODE_VERSION;
	snprintf(m.u.error.reason, sizeof(m.u.error.reason),
		 "version mismatch: mine 1, yours 2");
	roundtrip(&m);

	/* QUIT: the proof, as in PARAMS, then 130 zero bytes (since
	 * version 9) */
	nb_ctl_msg_init(&m, NB_CTL_QUIT, 7);
	m.seq = 11;
	for (i = 0; i < 16; i++) {
		m.u.quit.client_nonce[i] = (uint8_t)(0x20 + i);
		m.u.quit.cookie[i] = (uint8_t)(0xd0 + i);
	}
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(len, 16 + 32 + 130);
	assert_memory_equal(buf + 4, "\x09\x0d\x00\xb2", 4);
	assert_memory_equal(buf + H,
			    "\x20\x21\x22\x23\x24\x25\x26\x27"
			    "\x28\x29\x2a\x2b\x2c\x2d\x2e\x2f"
			    "\xd0\xd1\xd2\xd3\xd4\xd5\xd6\xd7"
			    "\xd8\xd9\xda\xdb\xdc\xdd\xde\xdf",
			    32);
	for (i = H + 32; i < len; i++)
		assert_int_equal(buf[i], 0);
	free(buf);

	for (i = 0; i < 2; i++) {
		static const uint8_t empty[] = {
			NB_CTL_STOP,
			NB_CTL_ACK,
		};

		nb_ctl_msg_init(&m, empty[i], 0xffffffff);
		m.seq = 0xfffffffe;
		roundtrip(&m);
		buf = encode_exact(&m, &len);
		assert_int_equal(len, 16);
		assert_int_equal(buf[5], empty[i]);
		assert_memory_equal(buf + 6,
				    "\x00\x10\xff\xff\xff\xff"
				    "\xff\xff\xff\xfe",
				    10);
		free(buf);
	}

	/* DONE (since version 6): flags u32, LEAVING = 1; no other flag */
	nb_ctl_msg_init(&m, NB_CTL_DONE, 0x01020304);
	m.seq = 7;
	m.u.done.flags = NB_CTL_DONE_F_LEAVING;
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(len, 20);
	assert_memory_equal(buf + 4, "\x09\x0c\x00\x14", 4);
	assert_memory_equal(buf + H, "\x00\x00\x00\x01", 4);
	buf[H + 3] = 2;
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	buf[H + 3] = 0;
	assert_int_equal(decode_exact(buf, len, &d), 0);
	assert_int_equal(d.u.done.flags, 0);
	/* version 5's DONE had no body: now malformed */
	buf[7] = 16;
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTO);
	free(buf);
	m.u.done.flags = 0x80000001;
	assert_int_equal(nb_ctl_encoded_len(&m), 20);
	assert_int_equal(nb_ctl_encode(&m, big, sizeof(big)), -EINVAL);
}

static void
test_roundtrip_random(void **state)
{
	uint64_t r = 1;
	struct nb_ctl_msg m;
	uint32_t t, i;

	(void)state;
	for (t = NB_CTL_HELLO; t < NB_CTL_TYPE_MAX; t++)
		for (i = 0; i < 300; i++) {
			rand_msg(&r, (uint8_t)t, &m);
			roundtrip(&m);
		}
}

static void
test_max_len(void **state)
{
	uint64_t r = 2;
	struct nb_ctl_msg m;
	uint8_t buf[NB_CTL_MAX_LEN + 1];
	uint32_t t;
	int n;

	(void)state;
	assert_true(NB_CTL_MAX_LEN <= 1472 - 4);
	/* header, RESULTS fixed part, a full chunk, a tag */
	assert_int_equal(NB_CTL_MAX_LEN, 16 + 14 + 1024 + 16);
	assert_int_equal(NB_CTL_MAX_LEN, 1070);
	/* 1518 B frame - FCS - Ethernet - VLAN - IPv4 - UDP */
	assert_true(NB_CTL_MAX_LEN <= 1518 - 4 - 14 - 4 - 20 - 8);
	for (t = NB_CTL_HELLO; t < 2 * NB_CTL_TYPE_MAX; t++) {
		/* each type untagged, then tagged */
		if (t < NB_CTL_TYPE_MAX)
			rand_msg(&r, (uint8_t)t, &m);
		else if (t - NB_CTL_TYPE_MAX < NB_CTL_HELLO)
			continue;
		else
			rand_tagged(&r, (uint8_t)(t - NB_CTL_TYPE_MAX), &m);
		if (m.type == NB_CTL_RESULTS) {
			m.u.res.total_len = 5000;
			m.u.res.nb_parts = 5;
			m.u.res.part = 0;
			m.u.res.chunk_len = 1024;
		}
		n = nb_ctl_encoded_len(&m);
		assert_true(n >= H && n <= NB_CTL_MAX_LEN);
		/* -ENOSPC one byte short, buffer untouched */
		memset(buf, 0x5a, sizeof(buf));
		assert_int_equal(nb_ctl_encode(&m, buf, (size_t)n - 1),
				 -ENOSPC);
		assert_int_equal(buf[0], 0x5a);
		assert_int_equal(buf[n - 1], 0x5a);
		assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), n);
		assert_int_equal(buf[n], 0x5a);
		/* a full RESULTS chunk with a tag is the largest message */
		if (m.type == NB_CTL_RESULTS && m.tagged)
			assert_int_equal(n, 1070);
	}
}

static void
test_encode_invalid(void **state)
{
	struct nb_ctl_msg m;
	uint8_t buf[NB_CTL_MAX_LEN];
	uint32_t t;

	(void)state;
	for (t = 0; t < 256; t++) {
		if (t >= NB_CTL_HELLO && t < NB_CTL_TYPE_MAX)
			continue;
		nb_ctl_msg_init(&m, (uint8_t)t, 1);
		m.seq = 1;
		assert_int_equal(nb_ctl_encoded_len(&m), -EINVAL);
		assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), -EINVAL);
	}
	nb_ctl_msg_init(&m, NB_CTL_STOP, 0);
	m.seq = 1;
	assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), -EINVAL);
	nb_ctl_msg_init(&m, NB_CTL_STOP, 1);
	assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), -EINVAL);
	m.seq = 1;
	assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), H);
	assert_int_equal(nb_ctl_encode(NULL, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nb_ctl_encode(&m, NULL, sizeof(buf)), -EINVAL);

	nb_ctl_msg_init(&m, NB_CTL_RESULTS, 1);
	m.seq = 1;
	m.u.res.total_len = 100000;
	m.u.res.nb_parts = doc_parts(100000);
	m.u.res.chunk_len = 1025;
	assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), -EINVAL);
	m.u.res.chunk_len = 1023; /* not the chunking's length */
	assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), -EINVAL);
	m.u.res.chunk_len = 1024;
	assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), H + 14 + 1024);
	m.u.res.part = m.u.res.nb_parts;
	assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), -EINVAL);
}

static void
test_bad_magic(void **state)
{
	uint64_t r = 3;
	struct nb_ctl_msg m, d;
	uint8_t *buf;
	size_t len;
	uint32_t t, i, bit;

	(void)state;
	for (t = NB_CTL_HELLO; t < NB_CTL_TYPE_MAX; t++) {
		rand_msg(&r, (uint8_t)t, &m);
		buf = encode_exact(&m, &len);
		for (i = 0; i < 4; i++)
			for (bit = 0; bit < 8; bit++) {
				buf[i] ^= (uint8_t)(1u << bit);
				assert_int_equal(decode_exact(buf, len, &d),
						 -EPROTO);
				buf[i] ^= (uint8_t)(1u << bit);
			}
		assert_int_equal(decode_exact(buf, len, &d), 0);
		free(buf);
	}
}

static void
test_version(void **state)
{
	uint64_t r = 4;
	struct nb_ctl_msg m, d;
	uint8_t *buf;
	size_t len;
	uint32_t t, v;

	(void)state;
	assert_int_equal(NB_CTL_VERSION, 9);
	for (t = NB_CTL_HELLO; t < NB_CTL_TYPE_MAX; t++) {
		if (t % 2)
			rand_msg(&r, (uint8_t)t, &m);
		else
			rand_tagged(&r, (uint8_t)t, &m);
		buf = encode_exact(&m, &len);
		assert_int_equal(buf[4], 9);
		for (v = 0; v < 256; v++) {
			if (v == 9)
				continue;
			buf[4] = (uint8_t)v;
			memset(&d, 0, sizeof(d));
			assert_int_equal(decode_exact(buf, len, &d),
					 -EPROTONOSUPPORT);
			/* header fields are there to answer with ERROR;
			 * another version's type byte comes back as it
			 * was (its tag bit is not ours to read) */
			assert_int_equal(d.type, t | (m.tagged ? 0x80 : 0));
			assert_int_equal(d.tagged, 0);
			assert_int_equal(d.session, m.session);
			assert_int_equal(d.seq, m.seq);
		}
		free(buf);
	}
	/* another version wins over any other header defect but the magic */
	buf = calloc(1, 16);
	assert_non_null(buf);
	memcpy(buf, "NBCM\x02\xee\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", 16);
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	assert_int_equal(decode_exact(buf, 15, &d), -EPROTO);
	buf[4] = 3; /* before the impairment counts */
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	buf[4] = 4; /* before the responder's CPU time */
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	buf[4] = 5; /* before DONE's flags */
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	buf[4] = 6; /* before PARAMS' TCP fields */
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	buf[4] = 7; /* before PARAMS and ACCEPT carried MAC lists */
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	buf[4] = 8; /* before HELLO was tagged and QUIT padded */
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	buf[4] = 10;
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	/* version 9 with that header is just malformed */
	buf[4] = 9;
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTO);
	free(buf);
}

static void
put_hdr(uint8_t *p, uint8_t type, uint16_t len, uint32_t session, uint32_t seq)
{
	nb_put_be32(p, NB_CTL_MAGIC);
	p[4] = NB_CTL_VERSION;
	p[5] = type;
	nb_put_be16(p + 6, len);
	nb_put_be32(p + 8, session);
	nb_put_be32(p + 12, seq);
}

static void
test_unknown_type(void **state)
{
	uint8_t buf[H + 300];
	struct nb_ctl_msg d;
	uint32_t t;
	size_t extra;

	(void)state;
	for (t = 0; t < 256; t++) {
		/* 0x80 is the tag flag: 0x81 .. 0x8f are tagged known types */
		if ((t & 0x7f) >= NB_CTL_HELLO && (t & 0x7f) < NB_CTL_TYPE_MAX)
			continue;
		assert_string_equal(nb_ctl_type_name((uint8_t)t), "UNKNOWN");
		for (extra = 0; extra <= 300; extra += 4) {
			memset(buf, 0, sizeof(buf));
			put_hdr(buf, (uint8_t)t, (uint16_t)(H + extra), 1, 1);
			assert_int_equal(decode_exact(buf, H + extra, &d),
					 -EPROTO);
		}
	}
	/* the known bodiless types are fine with the same header */
	put_hdr(buf, NB_CTL_STOP, H, 1, 1);
	assert_int_equal(decode_exact(buf, H, &d), 0);
	/* and tagged, with 16 more bytes */
	put_hdr(buf, NB_CTL_STOP | 0x80, H + 16, 1, 1);
	assert_int_equal(decode_exact(buf, H + 16, &d), 0);
	assert_int_equal(d.type, NB_CTL_STOP);
	assert_int_equal(d.tagged, 1);
}

static void
test_short_header(void **state)
{
	uint64_t r = 5;
	struct nb_ctl_msg m, d;
	uint8_t *buf;
	size_t len, n;
	uint32_t t;

	(void)state;
	for (t = NB_CTL_HELLO; t < NB_CTL_TYPE_MAX; t++) {
		rand_msg(&r, (uint8_t)t, &m);
		buf = encode_exact(&m, &len);
		for (n = 0; n < H; n++) {
			assert_int_equal(decode_exact(buf, n, &d), -EPROTO);
			/* also with the length field claiming n */
			nb_put_be16(buf + 6, (uint16_t)n);
			assert_int_equal(decode_exact(buf, n, &d), -EPROTO);
			nb_put_be16(buf + 6, (uint16_t)len);
		}
		free(buf);
	}
	assert_int_equal(nb_ctl_decode(NULL, 0, &d), -EPROTO);
}

static void
test_length_field(void **state)
{
	static const int deltas[] = {-16, -2, -1, 1, 2, 16, 1000};
	uint64_t r = 6;
	struct nb_ctl_msg m, d;
	uint8_t *buf, *big;
	size_t len, i;
	uint32_t t;

	(void)state;
	for (t = NB_CTL_HELLO; t < NB_CTL_TYPE_MAX; t++) {
		rand_msg(&r, (uint8_t)t, &m);
		buf = encode_exact(&m, &len);
		/* length field != buffer length */
		for (i = 0; i < sizeof(deltas) / sizeof(deltas[0]); i++) {
			nb_put_be16(buf + 6, (uint16_t)((int)len + deltas[i]));
			assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		}
		nb_put_be16(buf + 6, 0);
		assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		nb_put_be16(buf + 6, 0xffff);
		assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		nb_put_be16(buf + 6, (uint16_t)len);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		/* the datagram shorter than the length field says */
		assert_int_equal(decode_exact(buf, len - 1, &d), -EPROTO);
		/* trailing bytes after the message */
		big = calloc(1, len + 4);
		assert_non_null(big);
		memcpy(big, buf, len);
		for (i = 1; i <= 4; i++)
			assert_int_equal(decode_exact(big, len + i, &d),
					 -EPROTO);
		free(big);
		free(buf);
	}
}

/*
 * Every body length but the right one, with a consistent length field:
 * each truncation of the body and a few extensions.
 */
static void
test_body_length(void **state)
{
	uint64_t r = 7;
	struct nb_ctl_msg m, d;
	uint8_t *buf, *ext;
	size_t len, n, body;
	uint32_t t;

	(void)state;
	for (t = NB_CTL_HELLO; t < 2 * NB_CTL_TYPE_MAX; t++) {
		/* each type untagged, then tagged */
		if (t < NB_CTL_TYPE_MAX)
			rand_msg(&r, (uint8_t)t, &m);
		else if (t - NB_CTL_TYPE_MAX < NB_CTL_HELLO)
			continue;
		else
			rand_tagged(&r, (uint8_t)(t - NB_CTL_TYPE_MAX), &m);
		if (m.type == NB_CTL_RESULTS) {
			m.u.res.total_len = 700;
			m.u.res.nb_parts = 1;
			m.u.res.part = 0;
			m.u.res.chunk_len = 700;
		}
		buf = encode_exact(&m, &len);
		body = len - H;
		for (n = H; n < len; n++) {
			nb_put_be16(buf + 6, (uint16_t)n);
			assert_int_equal(decode_exact(buf, n, &d), -EPROTO);
		}
		ext = calloc(1, len + 8);
		assert_non_null(ext);
		memcpy(ext, buf, len);
		for (n = len + 1; n <= len + 8; n++) {
			nb_put_be16(ext + 6, (uint16_t)n);
			assert_int_equal(decode_exact(ext, n, &d), -EPROTO);
		}
		free(ext);
		nb_put_be16(buf + 6, (uint16_t)len);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		assert_int_equal(body,
				 doc_body_len(m.type) +
					 (m.type == NB_CTL_RESULTS ? 700 : 0) +
					 (m.tagged ? 16 : 0));
		free(buf);
	}
}

static void
test_session_seq_zero(void **state)
{
	uint64_t r = 8;
	struct nb_ctl_msg m, d;
	uint8_t *buf;
	size_t len;
	uint32_t t;

	(void)state;
	for (t = NB_CTL_HELLO; t < NB_CTL_TYPE_MAX; t++) {
		rand_msg(&r, (uint8_t)t, &m);
		buf = encode_exact(&m, &len);
		nb_put_be32(buf + 8, 0);
		assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		nb_put_be32(buf + 8, m.session);
		nb_put_be32(buf + 12, 0);
		assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		nb_put_be32(buf + 12, m.seq);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		free(buf);
	}
}

struct str_field {
	uint8_t type;
	size_t off; /* in the body */
	size_t size;
};

static const struct str_field str_fields[] = {
	{NB_CTL_HELLO, 0, 16},	   {NB_CTL_HELLO, 16, 32},
	{NB_CTL_HELLO, 48, 64},	   {NB_CTL_HELLO, 112, 64},
	{NB_CTL_HELLO, 176, 64},   {NB_CTL_HELLO, 240, 32},
	{NB_CTL_HELLO, 296, 40},   {NB_CTL_WELCOME, 0, 16},
	{NB_CTL_WELCOME, 16, 32},  {NB_CTL_WELCOME, 48, 64},
	{NB_CTL_WELCOME, 112, 64}, {NB_CTL_WELCOME, 176, 64},
	{NB_CTL_WELCOME, 240, 32}, {NB_CTL_WELCOME, 296, 40},
	{NB_CTL_BUSY, 4, 64},	   {NB_CTL_REJECT, 2, 128},
	{NB_CTL_ERROR, 2, 128},
};

/* The string fields of m, in the order of str_fields for its type. */
static char *
msg_str(struct nb_ctl_msg *m, uint32_t k)
{
	char *conf[] = {
		m->u.conf.tool_version, m->u.conf.dpdk_version,
		m->u.conf.host,		m->u.conf.cpu,
		m->u.conf.os,		m->u.conf.driver,
		m->u.conf.boot_id,
	};

	switch (m->type) {
	case NB_CTL_HELLO:
	case NB_CTL_WELCOME:
		return conf[k];
	case NB_CTL_BUSY:
		return m->u.busy.reason;
	case NB_CTL_REJECT:
		return m->u.reject.reason;
	default:
		return m->u.error.reason;
	}
}

static void
test_strings(void **state)
{
	uint64_t r = 9;
	struct nb_ctl_msg m, d;
	uint8_t *buf, save;
	size_t len, i, pos;
	uint32_t k = 0;
	uint8_t last = 0;
	char *s;

	(void)state;
	for (i = 0; i < sizeof(str_fields) / sizeof(str_fields[0]); i++) {
		const struct str_field *f = &str_fields[i];

		k = f->type == last ? k + 1 : 0;
		last = f->type;
		rand_msg(&r, f->type, &m);
		s = msg_str(&m, k);
		/* the longest string that fits: size - 1 bytes and a NUL */
		memset(s, 'a', f->size - 1);
		s[f->size - 1] = '\0';
		buf = encode_exact(&m, &len);
		assert_memory_equal(buf + H + f->off, s, f->size);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		compare_msg(&m, &d);

		/* no NUL at all */
		buf[H + f->off + f->size - 1] = 'a';
		assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		s[f->size - 1] = 'a';
		assert_int_equal(nb_ctl_encode(&m, buf, len), -EINVAL);
		free(buf);

		/* a short string: padding after the NUL must be NUL */
		memset(s, 0, f->size);
		memcpy(s, "abc", 3);
		buf = encode_exact(&m, &len);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		for (pos = 4; pos < f->size; pos++) {
			save = buf[H + f->off + pos];
			assert_int_equal(save, 0);
			buf[H + f->off + pos] = 'z';
			assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
			buf[H + f->off + pos] = save;
		}
		/* the encoder pads, whatever follows the NUL in the struct */
		memset(s + 4, 'q', f->size - 4);
		free(buf);
		buf = encode_exact(&m, &len);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		for (pos = 3; pos < f->size; pos++)
			assert_int_equal(buf[H + f->off + pos], 0);
		/* an empty string is fine */
		memset(buf + H + f->off, 0, f->size);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		free(buf);
	}
}

/* A valid PARAMS body with room in both arrays. */
static void
base_params(struct nb_ctl_msg *m)
{
	struct nb_ctl_params *p = &m->u.params;

	nb_ctl_msg_init(m, NB_CTL_PARAMS, 0x11223344);
	m->seq = 2;
	p->direction = NB_CTL_DIR_REVERSE;
	p->proto = NB_IPPROTO_UDP;
	p->vlan_id = 100;
	p->streams = 8;
	p->nb_sizes = 3;
	p->sizes[0] = 64;
	p->sizes[1] = 594;
	p->sizes[2] = 1518;
	p->nb_pattern = 12;
	memcpy(p->pattern, "\0\1\0\2\0\1\0\1\0\0\1\0", 12);
	p->rate_num = 1000000;
	p->rate_den = 1;
	p->duration_ms = 10000;
	p->client_ip = NB_DEFAULT_SRC_IP;
	p->responder_ip = NB_DEFAULT_DST_IP;
	p->sport_base = NB_DEFAULT_SPORT_BASE;
	p->dport = NB_DEFAULT_DPORT;
}

/* A byte patch of the PARAMS body (offset in the body, width 1/2/4/8). */
struct patch {
	const char *what;
	size_t off;
	size_t width;
	uint64_t value;
};

static const struct patch bad_params[] = {
	{"direction 3", 0, 1, 3},
	{"direction 255", 0, 1, 255},
	{"proto 0", 1, 1, 0},
	{"proto 1", 1, 1, 1},
	{"proto 5", 1, 1, 5},
	{"proto 7", 1, 1, 7},
	{"proto 16", 1, 1, 16},
	{"proto 18", 1, 1, 18},
	{"proto 255", 1, 1, 255},
	{"vlan 4095", 2, 2, 4095},
	{"vlan 65535", 2, 2, 65535},
	{"streams 0", 4, 4, 0},
	{"streams 1025", 4, 4, 1025},
	{"streams max", 4, 4, 0xffffffff},
	{"nb_sizes 0", 8, 2, 0},
	{"nb_sizes 2 (pattern uses index 2)", 8, 2, 2},
	{"nb_sizes 17", 8, 2, 17},
	{"nb_sizes max", 8, 2, 0xffff},
	{"sizes[0] 0", 10, 2, 0},
	{"sizes[0] 63", 10, 2, 63},
	{"sizes[0] 9001", 10, 2, 9001},
	{"sizes[2] 63", 14, 2, 63},
	{"sizes[2] 65535", 14, 2, 65535},
	{"unused sizes[3] 64", 16, 2, 64},
	{"unused sizes[15] 1", 40, 2, 1},
	{"nb_pattern 0", 42, 2, 0},
	{"nb_pattern 65", 42, 2, 65},
	{"nb_pattern max", 42, 2, 0xffff},
	{"pattern[0] 3", 44, 1, 3},
	{"pattern[11] 255", 55, 1, 255},
	{"unused pattern[12] 1", 56, 1, 1},
	{"unused pattern[63] 1", 107, 1, 1},
	{"rate_den 0", 116, 8, 0},
	{"rate_num 1e10 + 1 (rate_den 1)", 108, 8, 10000000001ull},
	{"rate_num max (rate_den 1)", 108, 8, UINT64_MAX},
	{"packets 2^62 + 1", 124, 8, 4611686018427387905ull},
	{"packets max", 124, 8, UINT64_MAX},
	{"duration_ms 30 days + 1", 132, 8, 2592000001ull},
	{"duration_ms max", 132, 8, UINT64_MAX},
	{"duration_ms 0 (packets 0)", 132, 8, 0},
	{"omit_ms 3600001", 140, 8, 3600001},
	{"omit_ms max", 140, 8, UINT64_MAX},
	{"latency_rate 10000001", 148, 8, 10000001},
	{"latency_rate max", 148, 8, UINT64_MAX},
	{"sport_base 65529 + 8 streams", 176, 2, 65529},
	{"sport_base 65535 + 8 streams", 176, 2, 65535},
	{"dport 0", 178, 2, 0},
	{"dport 7201", 178, 2, NB_CONTROL_UDP_PORT},
	{"interval_ms 99", 180, 4, 99},
	{"interval_ms 1", 180, 4, 1},
	{"interval_ms 3600001", 180, 4, 3600001},
	{"interval_ms max", 180, 4, 0xffffffff},
	/* since version 7: an open-loop test has no TCP field set */
	{"tcp 1 (proto 17, 3 sizes)", 184, 1, 1},
	{"tcp 2", 184, 1, 2},
	{"tcp_flags 1 (open loop)", 185, 1, 1},
	{"tcp_cc 1 (open loop)", 186, 1, 1},
	{"reserved byte 187", 187, 1, 1},
	{"tcp_window 1M (open loop)", 188, 4, 1048576},
	{"tcp_msg 1 (open loop)", 192, 4, 1},
	{"bytes 1 (open loop)", 196, 8, 1},
};

static const struct patch good_params[] = {
	{"direction 0", 0, 1, 0},
	{"direction 2", 0, 1, 2},
	{"proto 6", 1, 1, 6},
	{"vlan 0", 2, 2, 0},
	{"vlan 4094", 2, 2, 4094},
	{"streams 1", 4, 4, 1},
	{"sizes[0] 9000", 10, 2, 9000},
	{"sizes[2] 64", 14, 2, 64},
	{"rate_num 0 (max)", 108, 8, 0},
	{"rate_num 1e10 (rate_den 1)", 108, 8, 10000000000ull},
	{"rate_den max", 116, 8, UINT64_MAX},
	{"packets 2^62", 124, 8, 4611686018427387904ull},
	{"packets 1", 124, 8, 1},
	{"duration_ms 30 days", 132, 8, 2592000000ull},
	{"duration_ms 1", 132, 8, 1},
	{"omit_ms 3600000", 140, 8, 3600000},
	{"latency_rate 1000000", 148, 8, 1000000},
	{"client_ip 0", 156, 4, 0},
	{"interval_ms 0", 180, 4, 0},
	{"interval_ms 100", 180, 4, 100},
	{"interval_ms 3600000", 180, 4, 3600000},
	{"client_nonce ones", 248, 8, UINT64_MAX},
	{"client_nonce end ones", 256, 8, UINT64_MAX},
	{"cookie ones", 264, 8, UINT64_MAX},
	{"cookie end ones", 272, 8, UINT64_MAX},
	{"sport_base 65528 + 8 streams", 176, 2, 65528},
	{"sport_base 0", 176, 2, 0},
	{"dport 65535", 178, 2, 65535},
	{"dport 7200", 178, 2, 7200},
};

/* Bounds that take two fields: both patches applied, then ok or not. */
static const struct {
	struct patch a, b;
	int ok;
} params_pairs[] = {
	{{"rate 7e10 / 7 = 1e10 pps", 108, 8, 70000000000ull},
	 {"", 116, 8, 7},
	 1},
	{{"rate (7e10 + 7) / 7 = 1e10 + 1 pps", 108, 8, 70000000007ull},
	 {"", 116, 8, 7},
	 0},
	{{"rate max / 1844674408 < 1e10 pps", 108, 8, UINT64_MAX},
	 {"", 116, 8, 1844674408ull},
	 1},
	{{"rate max / 1844674407 > 1e10 + 1 pps", 108, 8, UINT64_MAX},
	 {"", 116, 8, 1844674407ull},
	 0},
	{{"duration_ms 0 with packets 1", 132, 8, 0}, {"", 124, 8, 1}, 1},
	{{"duration_ms 0 with packets 2^62", 132, 8, 0},
	 {"", 124, 8, 4611686018427387904ull},
	 1},
	{{"duration_ms 0 with packets 2^62 + 1", 132, 8, 0},
	 {"", 124, 8, 4611686018427387905ull},
	 0},
	{{"duration_ms 0 with packets 0", 132, 8, 0}, {"", 124, 8, 0}, 0},
	{{"duration_ms 30 days with packets 2^62", 132, 8, 2592000000ull},
	 {"", 124, 8, 4611686018427387904ull},
	 1},
};

static void
apply_patch(uint8_t *body, const struct patch *p)
{
	switch (p->width) {
	case 1:
		body[p->off] = (uint8_t)p->value;
		break;
	case 2:
		nb_put_be16(body + p->off, (uint16_t)p->value);
		break;
	case 4:
		nb_put_be32(body + p->off, (uint32_t)p->value);
		break;
	default:
		nb_put_be32(body + p->off, (uint32_t)(p->value >> 32));
		nb_put_be32(body + p->off + 4, (uint32_t)p->value);
		break;
	}
}

static void
test_params_ranges(void **state)
{
	struct nb_ctl_msg m, d;
	uint8_t *buf, *orig;
	size_t len, i;
	int rc;

	(void)state;
	base_params(&m);
	orig = encode_exact(&m, &len);
	assert_int_equal(len, H + 280);
	/* base_params: packets 0, duration 10 s */
	assert_int_equal(rd32(orig + H + 124) | rd32(orig + H + 128), 0);
	assert_int_equal(rd32(orig + H + 136), 10000);
	buf = malloc(len);
	assert_non_null(buf);
	for (i = 0; i < sizeof(bad_params) / sizeof(bad_params[0]); i++) {
		memcpy(buf, orig, len);
		apply_patch(buf + H, &bad_params[i]);
		rc = decode_exact(buf, len, &d);
		if (rc != -EPROTO)
			fail_msg("%s: decode returned %d", bad_params[i].what,
				 rc);
	}
	for (i = 0; i < sizeof(good_params) / sizeof(good_params[0]); i++) {
		memcpy(buf, orig, len);
		apply_patch(buf + H, &good_params[i]);
		rc = decode_exact(buf, len, &d);
		if (rc != 0)
			fail_msg("%s: decode returned %d", good_params[i].what,
				 rc);
		check_reencode(&d, buf, len);
	}
	for (i = 0; i < sizeof(params_pairs) / sizeof(params_pairs[0]); i++) {
		memcpy(buf, orig, len);
		apply_patch(buf + H, &params_pairs[i].a);
		apply_patch(buf + H, &params_pairs[i].b);
		rc = decode_exact(buf, len, &d);
		if (rc != (params_pairs[i].ok ? 0 : -EPROTO))
			fail_msg("%s: decode returned %d",
				 params_pairs[i].a.what, rc);
		if (rc == 0)
			check_reencode(&d, buf, len);
	}
	free(buf);
	free(orig);

	/* the encoder refuses the same values in the struct */
#define BAD_ENC(stmt)                                                          \
	do {                                                                   \
		base_params(&m);                                               \
		stmt;                                                          \
		assert_int_equal(nb_ctl_encoded_len(&m), H + 280);             \
		assert_int_equal(nb_ctl_encode(&m, d.u.res.chunk,              \
					       sizeof(d.u.res.chunk)),         \
				 -EINVAL);                                     \
	} while (0)
	BAD_ENC(m.u.params.direction = 3);
	BAD_ENC(m.u.params.proto = 0);
	BAD_ENC(m.u.params.proto = 16);
	BAD_ENC(m.u.params.vlan_id = 4095);
	BAD_ENC(m.u.params.streams = 0);
	BAD_ENC(m.u.params.streams = 1025);
	BAD_ENC(m.u.params.nb_sizes = 0);
	BAD_ENC(m.u.params.nb_sizes = 17);
	BAD_ENC(m.u.params.nb_sizes = 2);
	BAD_ENC(m.u.params.sizes[1] = 63);
	BAD_ENC(m.u.params.sizes[2] = 9001);
	BAD_ENC(m.u.params.nb_pattern = 0);
	BAD_ENC(m.u.params.nb_pattern = 65);
	BAD_ENC(m.u.params.pattern[5] = 3);
	BAD_ENC(m.u.params.rate_den = 0);
	BAD_ENC(m.u.params.sport_base = 65529);
	BAD_ENC(m.u.params.dport = 0);
	BAD_ENC(m.u.params.dport = NB_CONTROL_UDP_PORT);
	BAD_ENC(m.u.params.rate_num = 10000000001ull);
	BAD_ENC(m.u.params.rate_num = 70000000007ull; m.u.params.rate_den = 7);
	BAD_ENC(m.u.params.packets = 4611686018427387905ull);
	BAD_ENC(m.u.params.duration_ms = 2592000001ull);
	BAD_ENC(m.u.params.duration_ms = 0);
	BAD_ENC(m.u.params.omit_ms = 3600001);
	BAD_ENC(m.u.params.interval_ms = 99);
	BAD_ENC(m.u.params.interval_ms = 3600001);
	BAD_ENC(m.u.params.latency_rate = 10000001);
#undef BAD_ENC

	/* and takes each bound at its edge */
#define GOOD_ENC(stmt)                                                         \
	do {                                                                   \
		base_params(&m);                                               \
		stmt;                                                          \
		roundtrip(&m);                                                 \
	} while (0)
	GOOD_ENC(m.u.params.rate_num = 10000000000ull);
	GOOD_ENC(m.u.params.rate_num = 70000000000ull; m.u.params.rate_den = 7);
	GOOD_ENC(m.u.params.packets = 4611686018427387904ull);
	GOOD_ENC(m.u.params.duration_ms = 2592000000ull);
	GOOD_ENC(m.u.params.duration_ms = 0; m.u.params.packets = 1);
	GOOD_ENC(m.u.params.omit_ms = 3600000);
	GOOD_ENC(m.u.params.latency_rate = 10000000);
#undef GOOD_ENC

	/* unused slots in the struct do not reach the wire */
	base_params(&m);
	m.u.params.sizes[15] = 1234;
	m.u.params.pattern[63] = 9;
	orig = encode_exact(&m, &len);
	assert_int_equal(nb_get_be16(orig + H + 40), 0);
	assert_int_equal(orig[H + 107], 0);
	assert_int_equal(decode_exact(orig, len, &d), 0);
	assert_int_equal(d.u.params.sizes[15], 0);
	assert_int_equal(d.u.params.pattern[63], 0);
	free(orig);
}

/* A closed-loop TCP test (version 7): forward, one size, 1 MiB window. */
static void
base_tcp_params(struct nb_ctl_msg *m)
{
	struct nb_ctl_params *p = &m->u.params;

	base_params(m);
	p->direction = NB_CTL_DIR_FORWARD;
	p->proto = NB_IPPROTO_TCP;
	p->nb_sizes = 1;
	p->sizes[0] = 1518;
	p->sizes[1] = p->sizes[2] = 0;
	p->nb_pattern = 1;
	memset(p->pattern, 0, sizeof(p->pattern));
	p->rate_num = 0;
	p->dport = 5201;
	p->tcp = 1;
	p->tcp_window = 1u << 20;
}

static const struct patch bad_tcp[] = {
	{"proto 17", 1, 1, 17},
	{"sizes[0] 127", 10, 2, 127},
	{"nb_sizes 2", 8, 2, 2},
	{"nb_pattern 2", 42, 2, 2},
	{"rate_num 1", 108, 8, 1},
	{"packets 1", 124, 8, 1},
	{"omit_ms 1", 140, 8, 1},
	{"latency_rate 1", 148, 8, 1},
	{"tcp_flags 4", 185, 1, 4},
	{"tcp_flags 0x80", 185, 1, 0x80},
	{"tcp_cc 2", 186, 1, 2},
	{"reserved 1", 187, 1, 1},
	{"tcp_window 0", 188, 4, 0},
	{"tcp_window 2047", 188, 4, 2047},
	{"tcp_window 2^30 + 1", 188, 4, (1u << 30) + 1},
	{"tcp_msg 2^20 + 1", 192, 4, (1u << 20) + 1},
	{"bytes 2^62 + 1", 196, 8, 4611686018427387905ull},
	{"duration_ms 0 (bytes 0)", 132, 8, 0},
};

static const struct patch good_tcp[] = {
	{"direction 1", 0, 1, 1},
	{"direction 2", 0, 1, 2},
	{"sizes[0] 128", 10, 2, 128},
	{"sizes[0] 9000", 10, 2, 9000},
	{"tcp_flags 3", 185, 1, 3},
	{"tcp_cc 1", 186, 1, 1},
	{"tcp_window 2048", 188, 4, 2048},
	{"tcp_window 2^30", 188, 4, 1u << 30},
	{"tcp_msg 1", 192, 4, 1},
	{"tcp_msg 2^20", 192, 4, 1u << 20},
	{"bytes 2^62", 196, 8, 4611686018427387904ull},
};

static void
test_params_tcp(void **state)
{
	struct nb_ctl_msg m, d;
	uint8_t *buf, *orig;
	size_t len, i;

	(void)state;
	base_tcp_params(&m);
	m.u.params.tcp_flags = NB_CTL_TCP_F_DELACK;
	m.u.params.tcp_cc = 1;
	m.u.params.tcp_msg = 0;
	m.u.params.bytes = 100ull << 20;
	roundtrip(&m);
	orig = encode_exact(&m, &len);
	assert_int_equal(len, H + 280);
	/* tcp, flags, cc, reserved; window; msg; bytes */
	assert_memory_equal(orig + H + 184,
			    "\x01\x01\x01\x00\x00\x10\x00\x00"
			    "\x00\x00\x00\x00"
			    "\x00\x00\x00\x00\x06\x40\x00\x00",
			    20);
	free(orig);
	base_tcp_params(&m);
	orig = encode_exact(&m, &len);
	buf = malloc(len);
	assert_non_null(buf);
	for (i = 0; i < sizeof(bad_tcp) / sizeof(bad_tcp[0]); i++) {
		memcpy(buf, orig, len);
		apply_patch(buf + H, &bad_tcp[i]);
		if (decode_exact(buf, len, &d) != -EPROTO)
			fail_msg("TCP %s: accepted", bad_tcp[i].what);
	}
	for (i = 0; i < sizeof(good_tcp) / sizeof(good_tcp[0]); i++) {
		memcpy(buf, orig, len);
		apply_patch(buf + H, &good_tcp[i]);
		if (decode_exact(buf, len, &d) != 0)
			fail_msg("TCP %s: refused", good_tcp[i].what);
		check_reencode(&d, buf, len);
	}
	/* two fields: a ping-pong is forward and by time; bytes may end a
	 * test without a duration */
	memcpy(buf, orig, len);
	apply_patch(buf + H, &(struct patch){"", 192, 4, 64});
	apply_patch(buf + H, &(struct patch){"", 0, 1, 1});
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	memcpy(buf, orig, len);
	apply_patch(buf + H, &(struct patch){"", 192, 4, 64});
	apply_patch(buf + H, &(struct patch){"", 196, 8, 1000});
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	memcpy(buf, orig, len);
	apply_patch(buf + H, &(struct patch){"", 132, 8, 0});
	apply_patch(buf + H, &(struct patch){"", 196, 8, 1000});
	assert_int_equal(decode_exact(buf, len, &d), 0);
	assert_int_equal(d.u.params.bytes, 1000);
	free(buf);
	free(orig);
	/* the encoder refuses the same */
	base_tcp_params(&m);
	m.u.params.tcp_window = 100;
	assert_int_equal(
		nb_ctl_encode(&m, d.u.res.chunk, sizeof(d.u.res.chunk)),
		-EINVAL);
	base_params(&m);
	m.u.params.bytes = 1;
	assert_int_equal(
		nb_ctl_encode(&m, d.u.res.chunk, sizeof(d.u.res.chunk)),
		-EINVAL);
}

/* Out-of-range fields of the other types: (type, offset, width, value). */
struct type_patch {
	uint8_t type;
	struct patch p;
	int ok;
};

static const struct type_patch type_patches[] = {
	{NB_CTL_HELLO, {"numa -2", 284, 2, 0xfffe}, 0},
	{NB_CTL_HELLO, {"numa -32768", 284, 2, 0x8000}, 0},
	{NB_CTL_HELLO, {"numa -1", 284, 2, 0xffff}, 1},
	{NB_CTL_HELLO, {"numa 32767", 284, 2, 0x7fff}, 1},
	{NB_CTL_WELCOME, {"numa -2", 284, 2, 0xfffe}, 0},
	{NB_CTL_HELLO, {"flags 0", 364, 4, 0}, 1},
	{NB_CTL_HELLO, {"flags KEY", 364, 4, 1}, 1},
	{NB_CTL_HELLO, {"flags 2", 364, 4, 2}, 0},
	{NB_CTL_HELLO, {"flags 3", 364, 4, 3}, 0},
	{NB_CTL_HELLO, {"flags 0x80000000", 364, 4, 0x80000000u}, 0},
	{NB_CTL_HELLO, {"flags 0x80000001", 364, 4, 0x80000001u}, 0},
	{NB_CTL_WELCOME, {"flags KEY", 364, 4, 1}, 1},
	{NB_CTL_WELCOME, {"flags max", 364, 4, 0xffffffffu}, 0},
	{NB_CTL_WELCOME, {"flags 0x100", 364, 4, 0x100}, 0},
	{NB_CTL_HELLO, {"nonce ones", 348, 8, UINT64_MAX}, 1},
	{NB_CTL_WELCOME, {"nonce end 0", 356, 8, 0}, 1},
	{NB_CTL_QUIT, {"client_nonce 0", 0, 8, 0}, 1},
	{NB_CTL_QUIT, {"cookie ones", 24, 8, UINT64_MAX}, 1},
	{NB_CTL_BUSY, {"asked_session 0", 0, 4, 0}, 0},
	{NB_CTL_ACCEPT, {"rx_queues 0", 0, 4, 0}, 0},
	{NB_CTL_ACCEPT, {"rx_queues 17", 0, 4, 17}, 0},
	{NB_CTL_ACCEPT, {"rx_queues max", 0, 4, 0xffffffff}, 0},
	{NB_CTL_ACCEPT, {"rx_queues 1", 0, 4, 1}, 1},
	{NB_CTL_ACCEPT, {"rx_queues 16", 0, 4, 16}, 1},
	{NB_CTL_REJECT, {"code 0", 0, 2, 0}, 0},
	{NB_CTL_REJECT, {"code max", 0, 2, NB_CTL_CODE_MAX}, 0},
	{NB_CTL_REJECT, {"code 65535", 0, 2, 65535}, 0},
	{NB_CTL_REJECT, {"code last", 0, 2, NB_CTL_CODE_MAX - 1}, 1},
	{NB_CTL_ERROR, {"code 0", 0, 2, 0}, 0},
	{NB_CTL_ERROR, {"code max", 0, 2, NB_CTL_CODE_MAX}, 0},
	{NB_CTL_ERROR, {"code 1", 0, 2, 1}, 1},
	{NB_CTL_START, {"delay 60001", 0, 4, 60001}, 0},
	{NB_CTL_START, {"delay max", 0, 4, 0xffffffff}, 0},
	{NB_CTL_START, {"delay 0", 0, 4, 0}, 1},
	{NB_CTL_START, {"delay 60000", 0, 4, 60000}, 1},
	{NB_CTL_KEEPALIVE, {"echo 0", 8, 8, 0}, 0}, /* delay != 0 */
	{NB_CTL_KEEPALIVE, {"echo 1", 8, 8, 1}, 1},
	{NB_CTL_KEEPALIVE, {"sender 0", 0, 8, 0}, 1},
	{NB_CTL_RESULTS_REQ, {"part max", 0, 4, 0xffffffff}, 1},
	{NB_CTL_RESULTS_REQ, {"part 0", 0, 4, 0}, 1},
};

static void
test_other_ranges(void **state)
{
	uint64_t r = 10;
	struct nb_ctl_msg m, d;
	uint8_t *buf;
	size_t len, i;
	int rc;

	(void)state;
	for (i = 0; i < sizeof(type_patches) / sizeof(type_patches[0]); i++) {
		const struct type_patch *tp = &type_patches[i];

		rand_msg(&r, tp->type, &m);
		if (tp->type == NB_CTL_KEEPALIVE) {
			m.u.ka.echo_ns = 5;
			m.u.ka.echo_delay_ns = 7;
		}
		buf = encode_exact(&m, &len);
		apply_patch(buf + H, &tp->p);
		rc = decode_exact(buf, len, &d);
		if (rc != (tp->ok ? 0 : -EPROTO))
			fail_msg("%s %s: decode returned %d",
				 nb_ctl_type_name(tp->type), tp->p.what, rc);
		if (rc == 0)
			check_reencode(&d, buf, len);
		free(buf);
	}
}

/* The MAC lists of ACCEPT (body offset 4) and PARAMS (204), version 8:
 * count, reserved, 7 MACs; what the decoder takes and what it drops. */
static void
test_macs(void **state)
{
	static const struct {
		const char *what;
		uint8_t n, reserved, slot, mac0;
		int ok;
	} cases[] = {
		{"none", 0, 0, 0, 0, 1},
		{"one unicast", 1, 0, 0, 0x02, 1},
		{"all seven", 7, 0, 6, 0x02, 1},
		{"one, zero MAC", 1, 0, 0, 0, 0},
		{"one multicast", 1, 0, 0, 0x01, 0},
		{"broadcast", 1, 0, 0, 0xff, 0},
		{"eight", 8, 0, 6, 0x02, 0},
		{"reserved set", 0, 1, 7, 0, 0},
		{"count 0, slot 0 used", 0, 0, 0, 0x02, 0},
		{"count 3, slot 6 used", 3, 0, 6, 0x02, 0},
	};
	struct nb_ctl_msg m, d;
	uint8_t *buf, *macs;
	size_t len, i, j, k, off[2] = {4, 204};
	uint8_t type[2] = {NB_CTL_ACCEPT, NB_CTL_PARAMS};

	(void)state;
	for (k = 0; k < 2; k++)
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			if (type[k] == NB_CTL_PARAMS)
				base_params(&m);
			else {
				nb_ctl_msg_init(&m, NB_CTL_ACCEPT, 7);
				m.seq = 2;
				m.u.accept.rx_queues = 1;
			}
			buf = encode_exact(&m, &len);
			macs = buf + H + off[k];
			macs[0] = cases[i].n;
			macs[1] = cases[i].reserved;
			/* slots 0..n-1 a unicast MAC each, then the case's
			 * first byte in its slot (0: the slot zeroed; slot
			 * 7: none) */
			for (j = 0; j < cases[i].n && j < 7; j++) {
				memcpy(macs + 2 + 6 * j, "\x02\0\0\0\x10", 5);
				macs[2 + 6 * j + 5] = (uint8_t)j;
			}
			if (cases[i].slot < 7 && cases[i].mac0 == 0)
				memset(macs + 2 + 6 * cases[i].slot, 0, 6);
			else if (cases[i].slot < 7)
				macs[2 + 6 * cases[i].slot] = cases[i].mac0;
			if (decode_exact(buf, len, &d) !=
			    (cases[i].ok ? 0 : -EPROTO))
				fail_msg("%s: %s", nb_ctl_type_name(type[k]),
					 cases[i].what);
			if (cases[i].ok) {
				const struct nb_ctl_macs *got =
					type[k] == NB_CTL_PARAMS
						? &d.u.params.client_macs
						: &d.u.accept.responder_macs;

				assert_int_equal(got->n, cases[i].n);
				check_reencode(&d, buf, len);
			}
			free(buf);
		}
	/* the encoder refuses what the decoder drops */
	base_params(&m);
	m.u.params.client_macs.n = 1;
	m.u.params.client_macs.mac[0][0] = 0x01;
	assert_int_equal(
		nb_ctl_encode(&m, d.u.res.chunk, sizeof(d.u.res.chunk)),
		-EINVAL);
	m.u.params.client_macs.n = 8;
	assert_int_equal(
		nb_ctl_encode(&m, d.u.res.chunk, sizeof(d.u.res.chunk)),
		-EINVAL);
}

/* ACCEPT's responder set-up (version 8): offloads and NUMA, byte by
 * byte, and what the decoder drops. */
static void
test_accept_setup(void **state)
{
	static const struct patch bad[] = {
		{"unknown flag 32", 48, 4, 32},
		{"rss_l4 without rss", 48, 4, 4},
		{"flow control 6", 52, 1, 6},
		{"reserved 53", 53, 1, 1},
		{"reserved 54", 54, 2, 1},
		{"port_node -2", 58, 2, 0xfffe},
		{"cross > workers", 62, 2, 9},
		{"a byte after csum_why's NUL", 216, 8, 0x41},
		{"a byte after rate_why's NUL", 700, 4, 0x41},
	};
	struct nb_ctl_msg m, d;
	uint8_t *buf, *orig;
	size_t len, i;

	(void)state;
	nb_ctl_msg_init(&m, NB_CTL_ACCEPT, 7);
	m.seq = 2;
	m.u.accept.rx_queues = 2;
	m.u.accept.offload.tx_l4_csum = 1;
	m.u.accept.offload.rss = 1;
	m.u.accept.offload.hw_rate = 1;
	m.u.accept.offload.flow_control = NB_FC_UNSUPPORTED;
	snprintf(m.u.accept.offload.csum_why, NB_CTL_WHY_STR, "hw: ixgbe");
	snprintf(m.u.accept.offload.rate_why, NB_CTL_WHY_STR, "hw: ok");
	m.u.accept.numa.nodes = 2;
	m.u.accept.numa.port_node = -1;
	m.u.accept.numa.workers = 8;
	m.u.accept.numa.cross = 3;
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(len, H + 704);
	assert_memory_equal(buf + H + 48,
			    "\x00\x00\x00\x13\x05\x00\x00\x00"
			    "\x00\x02\xff\xff\x00\x08\x00\x03",
			    16);
	assert_memory_equal(buf + H + 64, "hw: ixgbe\0", 10);
	assert_int_equal(buf[H + 224], 0); /* rss_why empty */
	assert_memory_equal(buf + H + 544, "hw: ok\0", 7);
	orig = malloc(len);
	assert_non_null(orig);
	memcpy(orig, buf, len);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memcpy(buf, orig, len);
		apply_patch(buf + H, &bad[i]);
		if (decode_exact(buf, len, &d) != -EPROTO)
			fail_msg("ACCEPT %s: decoded", bad[i].what);
	}
	memcpy(buf, orig, len);
	memset(buf + H + 384, 'A', NB_CTL_WHY_STR); /* ts_why, no NUL */
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	/* the same refused by the encoder */
	m.u.accept.offload.rss = 0;
	m.u.accept.offload.rss_l4 = 1;
	assert_int_equal(
		nb_ctl_encode(&m, d.u.res.chunk, sizeof(d.u.res.chunk)),
		-EINVAL);
	free(orig);
	free(buf);
}

/* RESULTS: chunk_len and the chunking fields. */
static void
test_results_msg(void **state)
{
	struct nb_ctl_msg m, d;
	uint8_t *buf;
	size_t len;

	(void)state;
	nb_ctl_msg_init(&m, NB_CTL_RESULTS, 9);
	m.seq = 3;
	m.u.res.total_len = 3000;
	m.u.res.nb_parts = 3;
	m.u.res.part = 2;
	m.u.res.chunk_len = 3000 - 2048;
	memset(m.u.res.chunk, 0x77, sizeof(m.u.res.chunk));
	buf = encode_exact(&m, &len);
	assert_int_equal(len, H + 14 + 952);

	/* chunk_len beyond the datagram, or short of it */
	nb_put_be16(buf + H + 12, 953);
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	nb_put_be16(buf + H + 12, 0xffff);
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	nb_put_be16(buf + H + 12, 951);
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	nb_put_be16(buf + H + 12, 0);
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	nb_put_be16(buf + H + 12, 952);
	assert_int_equal(decode_exact(buf, len, &d), 0);

	/* chunking fields inconsistent */
	nb_put_be32(buf + H + 0, 3); /* part == nb_parts */
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	nb_put_be32(buf + H + 0, 1); /* part 1 has 1024 bytes */
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	nb_put_be32(buf + H + 0, 2);
	nb_put_be32(buf + H + 4, 4); /* wrong nb_parts */
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	nb_put_be32(buf + H + 4, 3);
	nb_put_be32(buf + H + 8, 3001); /* wrong total_len */
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	nb_put_be32(buf + H + 8, 3000);
	assert_int_equal(decode_exact(buf, len, &d), 0);
	free(buf);

	/* chunk_len > NB_CTL_CHUNK with a datagram that long */
	buf = calloc(1, H + 14 + 1025);
	assert_non_null(buf);
	put_hdr(buf, NB_CTL_RESULTS, H + 14 + 1025, 9, 3);
	nb_put_be32(buf + H + 0, 0);
	nb_put_be32(buf + H + 4, 2);
	nb_put_be32(buf + H + 8, 2000);
	nb_put_be16(buf + H + 12, 1025);
	assert_int_equal(decode_exact(buf, H + 14 + 1025, &d), -EPROTO);
	/* the same with a legal length decodes */
	put_hdr(buf, NB_CTL_RESULTS, H + 14 + 1024, 9, 3);
	nb_put_be16(buf + H + 12, 1024);
	assert_int_equal(decode_exact(buf, H + 14 + 1024, &d), 0);
	free(buf);

	/* an empty blob is one empty part */
	nb_ctl_msg_init(&m, NB_CTL_RESULTS, 9);
	m.seq = 1;
	m.u.res.nb_parts = 1;
	roundtrip(&m);
}

/*
 * Random datagrams: pure noise of any length, noise of the length a random
 * type expects, and such noise behind a valid header (magic, version or a
 * random one, length field, type; RESULTS also with consistent chunking
 * fields), so that decoding gets past the header.  Any success must be a
 * canonical message.
 */
static void
test_random_buffers(void **state)
{
	uint64_t r = 11;
	struct nb_ctl_msg *d = malloc(sizeof(*d));
	uint8_t *buf = malloc(NB_CTL_MAX_LEN + 64);
	uint32_t i, ok = 0, proto = 0, vers = 0;
	size_t len;
	int rc;

	(void)state;
	assert_non_null(d);
	assert_non_null(buf);
	for (i = 0; i < N_RANDOM; i++) {
		uint32_t kind = rng_below(&r, 5);
		uint8_t type = (uint8_t)rng_below(&r, 18);
		size_t tag = rng_below(&r, 4) == 0 ? 16 : 0;

		if (kind == 0) {
			len = rng_below(&r, NB_CTL_MAX_LEN + 64);
		} else {
			len = H + doc_body_len(type) + tag;
			if (type == NB_CTL_RESULTS)
				len += rng_below(&r, 1030);
		}
		rand_bytes(&r, buf, len);
		if (kind >= 2 && len >= H) {
			put_hdr(buf, (uint8_t)(type | (tag ? 0x80 : 0)),
				(uint16_t)len, (uint32_t)rng_next(&r),
				(uint32_t)rng_next(&r));
			if (kind == 3 && type == NB_CTL_RESULTS &&
			    len >= 30 + tag) {
				uint32_t total = rng_below(&r, 4000);

				nb_put_be32(buf + H, rng_below(&r, 4));
				nb_put_be32(buf + H + 4, doc_parts(total));
				nb_put_be32(buf + H + 8, total);
				nb_put_be16(buf + H + 12,
					    (uint16_t)(len - 30 - tag));
			}
			if (kind == 4) /* any version */
				buf[4] = (uint8_t)rng_next(&r);
		}
		rc = decode_exact(buf, len, d);
		if (rc == 0) {
			ok++;
			check_reencode(d, buf, len);
		} else if (rc == -EPROTO) {
			proto++;
		} else {
			assert_int_equal(rc, -EPROTONOSUPPORT);
			vers++;
		}
	}
	/* the test reached every outcome */
	assert_true(ok > 1000);
	assert_true(proto > 1000);
	assert_true(vers > 0);
	print_message("random buffers: %u ok, %u EPROTO, %u EPROTONOSUPPORT\n",
		      ok, proto, vers);
	free(buf);
	free(d);
}

/* One random byte changed in a valid message of a random type. */
static void
test_mutations(void **state)
{
	uint64_t r = 12;
	struct nb_ctl_msg *m = malloc(sizeof(*m));
	struct nb_ctl_msg *d = malloc(sizeof(*d));
	uint32_t i, ok = 0, bad = 0;
	uint8_t *buf;
	size_t len, pos;
	int rc;

	(void)state;
	assert_non_null(m);
	assert_non_null(d);
	for (i = 0; i < N_MUTATIONS; i++) {
		/* half of them tagged */
		if (rng_below(&r, 2))
			rand_tagged(&r, rand_type(&r), m);
		else
			rand_msg(&r, rand_type(&r), m);
		buf = encode_exact(m, &len);
		pos = rng_below(&r, (uint32_t)len);
		buf[pos] ^= (uint8_t)(1 + rng_below(&r, 255));
		rc = decode_exact(buf, len, d);
		if (rc == 0) {
			ok++;
			check_reencode(d, buf, len);
		} else {
			assert_true(rc == -EPROTO || rc == -EPROTONOSUPPORT);
			bad++;
		}
		free(buf);
	}
	assert_true(ok > 1000);
	assert_true(bad > 1000);
	print_message("mutations: %u accepted (re-encoded identically), "
		      "%u rejected\n",
		      ok, bad);
	free(m);
	free(d);
}

/*
 * Tagged messages of every type: 16 bytes longer, 0x80 in the type byte,
 * the tag in the last 16 bytes; decoded without the flag in m->type and
 * re-encoded to the same bytes.  Untagged, the same message is the same
 * bytes without the tag, the flag and the 16 in the length.
 */
static void
test_tagged_roundtrip(void **state)
{
	uint64_t r = 16;
	struct nb_ctl_msg m, d;
	uint8_t *tb, *ub;
	size_t tlen, ulen;
	uint32_t t, i, k;

	(void)state;
	for (t = NB_CTL_HELLO; t < NB_CTL_TYPE_MAX; t++)
		for (i = 0; i < 50; i++) {
			rand_tagged(&r, (uint8_t)t, &m);
			if (i == 0)
				memset(m.tag, 0, sizeof(m.tag));
			else if (i == 1)
				memset(m.tag, 0xff, sizeof(m.tag));
			else if (i == 2)
				for (k = 0; k < 16; k++)
					m.tag[k] = (uint8_t)(0x80 | k);
			roundtrip(&m);

			tb = encode_exact(&m, &tlen);
			assert_int_equal(tb[5], t | 0x80);
			assert_int_equal(rd16(tb + 6), tlen);
			assert_memory_equal(tb + tlen - 16, m.tag, 16);
			if (i == 2)
				assert_memory_equal(tb + tlen - 16,
						    "\x80\x81\x82\x83"
						    "\x84\x85\x86\x87"
						    "\x88\x89\x8a\x8b"
						    "\x8c\x8d\x8e\x8f",
						    16);
			memset(&d, 0x5a, sizeof(d));
			assert_int_equal(decode_exact(tb, tlen, &d), 0);
			assert_int_equal(d.type, t); /* the flag stripped */
			assert_int_equal(d.tagged, 1);
			assert_memory_equal(d.tag, m.tag, 16);

			m.tagged = 0;
			ub = encode_exact(&m, &ulen);
			assert_int_equal(ulen + 16, tlen);
			assert_int_equal(ub[5], t);
			assert_int_equal(rd16(ub + 6), ulen);
			assert_memory_equal(ub, tb, 5);
			assert_memory_equal(ub + 8, tb + 8, ulen - 8);
			assert_int_equal(decode_exact(ub, ulen, &d), 0);
			assert_int_equal(d.type, t);
			assert_int_equal(d.tagged, 0);
			free(ub);
			free(tb);
		}
}

/*
 * The tag flag and the length must agree: a tagged message whose length
 * field lacks the 16 tag bytes, a flagged message without the tag, and a
 * tagged message with the flag cleared are all rejected.
 */
static void
test_tag_length(void **state)
{
	uint64_t r = 17;
	struct nb_ctl_msg m, d;
	uint8_t *buf;
	size_t len;
	uint32_t t;

	(void)state;
	for (t = NB_CTL_HELLO; t < NB_CTL_TYPE_MAX; t++) {
		rand_tagged(&r, (uint8_t)t, &m);
		buf = encode_exact(&m, &len);
		assert_int_equal(decode_exact(buf, len, &d), 0);

		/* the length field without the tag, datagram as sent */
		nb_put_be16(buf + 6, (uint16_t)(len - 16));
		assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		/* the same with the datagram cut there: flag, but no tag */
		assert_int_equal(decode_exact(buf, len - 16, &d), -EPROTO);
		/* and the tag not counted but longer by 16 in the field */
		nb_put_be16(buf + 6, (uint16_t)(len + 16));
		assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		nb_put_be16(buf + 6, (uint16_t)len);

		/* the flag cleared: 16 trailing bytes */
		buf[5] = (uint8_t)t;
		assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		/* with the length field and datagram cut too, it is untagged */
		nb_put_be16(buf + 6, (uint16_t)(len - 16));
		assert_int_equal(decode_exact(buf, len - 16, &d), 0);
		assert_int_equal(d.tagged, 0);
		/* the flag on an untagged message */
		buf[5] = (uint8_t)(t | 0x80);
		assert_int_equal(decode_exact(buf, len - 16, &d), -EPROTO);
		free(buf);
	}
	/* the flag on a bodiless message of header length */
	{
		uint8_t hdr[H];

		put_hdr(hdr, NB_CTL_ACK | 0x80, H, 1, 1);
		assert_int_equal(decode_exact(hdr, H, &d), -EPROTO);
		put_hdr(hdr, NB_CTL_ACK, H, 1, 1);
		assert_int_equal(decode_exact(hdr, H, &d), 0);
	}
	/* the encoder wants the flag in `tagged`, not in the type */
	nb_ctl_msg_init(&m, NB_CTL_STOP, 1);
	m.seq = 1;
	m.type |= 0x80;
	assert_int_equal(nb_ctl_encoded_len(&m), -EINVAL);
	assert_int_equal(
		nb_ctl_encode(&m, d.u.res.chunk, sizeof(d.u.res.chunk)),
		-EINVAL);
	m.type = NB_CTL_STOP;
	m.tagged = 1;
	assert_int_equal(nb_ctl_encoded_len(&m), 32);
	assert_int_equal(nb_ctl_encode(&m, d.u.res.chunk, 31), -ENOSPC);
	assert_int_equal(
		nb_ctl_encode(&m, d.u.res.chunk, sizeof(d.u.res.chunk)), 32);
	assert_int_equal(d.u.res.chunk[5], NB_CTL_STOP | 0x80);
}

/* HELLO/WELCOME flags: bit 0 only. */
static void
test_conf_flags(void **state)
{
	uint64_t r = 18;
	struct nb_ctl_msg m, d;
	uint8_t *buf, enc[H + 368 + 16];
	size_t len;
	uint32_t bit, tagged;
	int rc;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		rand_msg(&r, tagged ? NB_CTL_WELCOME : NB_CTL_HELLO, &m);
		m.tagged = (uint8_t)tagged;
		m.u.conf.flags = 0;
		buf = encode_exact(&m, &len);
		assert_int_equal(len, H + 368 + 16 * tagged);
		assert_int_equal(rd32(buf + H + 364), 0);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		assert_int_equal(d.u.conf.flags, 0);
		nb_put_be32(buf + H + 364, 1);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		assert_int_equal(d.u.conf.flags, NB_CTL_CONF_F_KEY);
		check_reencode(&d, buf, len);
		for (bit = 1; bit < 32; bit++) {
			nb_put_be32(buf + H + 364, 1u << bit);
			rc = decode_exact(buf, len, &d);
			if (rc != -EPROTO)
				fail_msg("flags bit %u: decode returned %d",
					 bit, rc);
			nb_put_be32(buf + H + 364, (1u << bit) | 1);
			assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
			m.u.conf.flags = 1u << bit;
			assert_int_equal(nb_ctl_encode(&m, enc, sizeof(enc)),
					 -EINVAL);
			m.u.conf.flags = (1u << bit) | NB_CTL_CONF_F_KEY;
			assert_int_equal(nb_ctl_encode(&m, enc, sizeof(enc)),
					 -EINVAL);
		}
		m.u.conf.flags = NB_CTL_CONF_F_KEY;
		assert_int_equal(nb_ctl_encode(&m, enc, sizeof(enc)), (int)len);
		assert_memory_equal(enc + H + 364, "\0\0\0\x01", 4);
		free(buf);
	}
}

/* QUIT carries the proof and, since version 9, 130 zero bytes (a tagged
 * REJECT's body): 16 + 32 + 130 bytes, 16 more tagged.  Without the proof,
 * without the padding or with any padding byte not zero, it is
 * malformed. */
static void
test_quit(void **state)
{
	static const uint8_t junk[] = {0x01, 0x80, 0xff};
	uint64_t r = 19;
	struct nb_ctl_msg m, d;
	uint8_t *buf, *cut;
	size_t len, n, k;
	uint32_t i;

	(void)state;
	assert_int_equal(NB_CTL_QUIT_PAD, 130);
	assert_int_equal(NB_CTL_QUIT_LEN, 32 + 130);
	for (i = 0; i < 100; i++) {
		if (i % 2)
			rand_tagged(&r, NB_CTL_QUIT, &m);
		else
			rand_msg(&r, NB_CTL_QUIT, &m);
		roundtrip(&m);
		buf = encode_exact(&m, &len);
		assert_int_equal(len, 16 + 32 + 130 + 16 * (i % 2));
		assert_int_equal(nb_ctl_encoded_len(&m), (int)len);
		assert_int_equal(rd16(buf + 6), len);
		assert_memory_equal(buf + H, m.u.quit.client_nonce, 16);
		assert_memory_equal(buf + H + 16, m.u.quit.cookie, 16);
		for (n = H + 32; n < H + 32 + 130; n++)
			assert_int_equal(buf[n], 0);
		if (i % 2)
			assert_memory_equal(buf + H + 162, m.tag, 16);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		compare_proof(&m.u.quit, &d.u.quit);
		/* any padding byte not zero: refused (one canonical form) */
		if (i < 4)
			for (n = H + 32; n < H + 32 + 130; n++)
				for (k = 0; k < sizeof(junk); k++) {
					buf[n] = junk[k];
					if (decode_exact(buf, len, &d) !=
					    -EPROTO)
						fail_msg(
							"QUIT padding byte %zu "
							"= 0x%02x accepted",
							n - H - 32, junk[k]);
					buf[n] = 0;
				}
		assert_int_equal(decode_exact(buf, len, &d), 0);
		free(buf);
	}

	/* the version 2 QUIT: a bare header */
	cut = calloc(1, H + 32 + 16);
	assert_non_null(cut);
	put_hdr(cut, NB_CTL_QUIT, H, 5, 6);
	assert_int_equal(decode_exact(cut, H, &d), -EPROTO);
	/* a bare header and a tag */
	put_hdr(cut, NB_CTL_QUIT | 0x80, H + 16, 5, 6);
	assert_int_equal(decode_exact(cut, H + 16, &d), -EPROTO);
	/* version 8's QUIT (the proof, no padding) under a version 9
	 * header, untagged and tagged */
	put_hdr(cut, NB_CTL_QUIT, H + 32, 5, 6);
	assert_int_equal(decode_exact(cut, H + 32, &d), -EPROTO);
	put_hdr(cut, NB_CTL_QUIT | 0x80, H + 32 + 16, 5, 6);
	assert_int_equal(decode_exact(cut, H + 32 + 16, &d), -EPROTO);
	free(cut);

	/* any shorter body */
	nb_ctl_msg_init(&m, NB_CTL_QUIT, 5);
	m.seq = 6;
	buf = encode_exact(&m, &len);
	assert_int_equal(len, 178);
	assert_int_equal(decode_exact(buf, len, &d), 0);
	for (n = H; n < len; n++) {
		nb_put_be16(buf + 6, (uint16_t)n);
		assert_int_equal(decode_exact(buf, n, &d), -EPROTO);
	}
	free(buf);
}

/*
 * No answer a responder sends to a datagram it has not authenticated
 * (nor yet tied to a session) is longer than the datagram that provokes
 * it, so that nobody can use it to amplify traffic towards a forged
 * source: a tagged HELLO earns a tagged WELCOME, or an untagged REJECT
 * or BUSY; a tagged PARAMS or QUIT (before its tag is checked) a tagged
 * REJECT or BUSY; a datagram of another version (the largest the last
 * version had, a HELLO of 16 + 368 bytes) an untagged ERROR.  The
 * lengths are the encoder's (nb_ctl_encoded_len) for valid messages;
 * every body but RESULTS' has a fixed length.
 */
static int
enc_len(uint8_t type, int tagged)
{
	uint64_t r = 0x5eed + type;
	struct nb_ctl_msg m;

	if (tagged)
		rand_tagged(&r, type, &m);
	else
		rand_msg(&r, type, &m);
	return nb_ctl_encoded_len(&m);
}

static void
test_answer_not_longer(void **state)
{
	const int hello = enc_len(NB_CTL_HELLO, 1);
	const int quit = enc_len(NB_CTL_QUIT, 1);
	const int params = enc_len(NB_CTL_PARAMS, 1);
	const int v8_hello = 16 + 368;

	(void)state;
	/* the provokers' lengths, as documented */
	assert_int_equal(hello, 16 + 368 + 16);
	assert_int_equal(quit, 16 + 32 + 130 + 16);
	assert_int_equal(params, 16 + 280 + 16);

	assert_true(enc_len(NB_CTL_WELCOME, 1) <= hello);
	assert_true(enc_len(NB_CTL_REJECT, 0) <= hello);
	assert_true(enc_len(NB_CTL_BUSY, 0) <= hello);
	assert_true(enc_len(NB_CTL_REJECT, 1) <= quit);
	assert_true(enc_len(NB_CTL_BUSY, 1) <= quit);
	assert_true(enc_len(NB_CTL_BUSY, 1) <= params);
	assert_true(enc_len(NB_CTL_REJECT, 1) <= params);
	assert_true(enc_len(NB_CTL_ERROR, 0) <= v8_hello);
	/* QUIT's padding makes it exactly as long as a tagged REJECT's
	 * body plus the proof: no byte more than needed */
	assert_int_equal(quit, enc_len(NB_CTL_REJECT, 1) + 32);
}

static void
test_names(void **state)
{
	(void)state;
	assert_string_equal(nb_ctl_type_name(NB_CTL_HELLO), "HELLO");
	assert_string_equal(nb_ctl_type_name(NB_CTL_RESULTS_REQ),
			    "RESULTS_REQ");
	assert_string_equal(nb_ctl_type_name(NB_CTL_ERROR), "ERROR");
	assert_string_equal(nb_ctl_type_name(0), "UNKNOWN");
	assert_string_equal(nb_ctl_type_name(NB_CTL_TYPE_MAX), "UNKNOWN");
	assert_string_equal(nb_ctl_code_name(NB_CTL_CODE_VERSION),
			    "version mismatch");
	assert_string_equal(nb_ctl_code_name(0), "unknown");
	assert_string_equal(nb_ctl_code_name(NB_CTL_CODE_MAX), "unknown");
	assert_string_equal(nb_ctl_strerror(-EPROTONOSUPPORT),
			    "control protocol version mismatch");
	assert_string_equal(nb_ctl_strerror(-EPROTO),
			    "malformed control message");
	assert_string_equal(nb_ctl_strerror(-12345), "unknown control error");
}

/*
 * The message table against the documented layout: each known type's body
 * length is docs/protocol.md's (doc_body_len), a body has a writer and a
 * reader and an empty one neither (STOP, ACK), and the name is the type's.
 */
static void
test_message_table(void **state)
{
	static const char *const names[NB_CTL_TYPE_MAX] = {
		[NB_CTL_HELLO] = "HELLO",
		[NB_CTL_WELCOME] = "WELCOME",
		[NB_CTL_BUSY] = "BUSY",
		[NB_CTL_PARAMS] = "PARAMS",
		[NB_CTL_ACCEPT] = "ACCEPT",
		[NB_CTL_REJECT] = "REJECT",
		[NB_CTL_START] = "START",
		[NB_CTL_KEEPALIVE] = "KEEPALIVE",
		[NB_CTL_STOP] = "STOP",
		[NB_CTL_RESULTS_REQ] = "RESULTS_REQ",
		[NB_CTL_RESULTS] = "RESULTS",
		[NB_CTL_DONE] = "DONE",
		[NB_CTL_QUIT] = "QUIT",
		[NB_CTL_ACK] = "ACK",
		[NB_CTL_ERROR] = "ERROR",
		[NB_CTL_INTERVAL] = "INTERVAL",
	};
	unsigned int t;

	(void)state;
	for (t = 0; t < NB_CTL_TYPE_MAX; t++) {
		const struct nb_ctl_kind *k = &nb_ctl_kinds[t];

		if (names[t] == NULL) {
			assert_null(k->name);
			continue;
		}
		assert_string_equal(k->name, names[t]);
		assert_int_equal(k->body_len, doc_body_len((uint8_t)t));
		assert_int_equal(k->write == NULL, k->body_len == 0);
		assert_int_equal(k->read == NULL, k->body_len == 0);
	}
	/* the two without a body */
	assert_int_equal(nb_ctl_kinds[NB_CTL_STOP].body_len, 0);
	assert_int_equal(nb_ctl_kinds[NB_CTL_ACK].body_len, 0);
}

/* Results blob. */

#define N_STREAMS 3

static struct nb_ctl_stream_res *
rand_streams(uint64_t *r, uint32_t n, uint32_t samples)
{
	struct nb_ctl_stream_res *s = calloc(n, sizeof(*s));
	uint32_t i, k;

	assert_non_null(s);
	for (i = 0; i < n; i++) {
		s[i].id = (uint32_t)rng_next(r);
		s[i].tx_pkts = rng_next(r);
		s[i].tx_bytes = rng_next(r);
		s[i].rx_pkts = rng_next(r);
		s[i].rx_unique = rng_next(r);
		s[i].rx_bytes = rng_next(r);
		s[i].out_of_order = rng_next(r);
		s[i].duplicates = rng_next(r);
		s[i].late = rng_next(r);
		s[i].jitter_ps = rng_next(r);
		nb_hist_init(&s[i].hist);
		/* stream 1 stays empty */
		for (k = 0; i != 1 && k < samples; k++) {
			uint64_t v;

			switch (rng_below(r, 4)) {
			case 0:
				v = rng_below(r, 200);
				break;
			case 1:
				v = rng_below(r, 100000);
				break;
			case 2:
				v = rng_next(r) >> rng_below(r, 64);
				break;
			default:
				v = NB_HIST_LIMIT + rng_below(r, 1000);
				break;
			}
			nb_hist_record(&s[i].hist, v);
		}
	}
	return s;
}

static void
rand_results_hdr(uint64_t *r, struct nb_ctl_results_hdr *h)
{
	h->tx_seconds_ns = rng_next(r);
	h->rx_seconds_ns = rng_next(r);
	h->rx_foreign = rng_next(r);
	h->rx_warm = rng_next(r);
	h->rx_bad_stream = rng_next(r);
	h->tx_dropped = rng_next(r);
	h->pmd.ipackets = rng_next(r);
	h->pmd.opackets = rng_next(r);
	h->pmd.ibytes = rng_next(r);
	h->pmd.obytes = rng_next(r);
	h->pmd.imissed = rng_next(r);
	h->pmd.ierrors = rng_next(r);
	h->pmd.oerrors = rng_next(r);
	h->pmd.rx_nombuf = rng_next(r);
	h->impair.active = 1;
	snprintf(h->impair.spec, sizeof(h->impair.spec), "every=%u,delay=200",
		 (unsigned int)(rng_next(r) % 1000 + 2));
	h->impair.c.seen = rng_next(r);
	h->impair.c.dropped = rng_next(r);
	h->impair.c.policed = rng_next(r);
	h->impair.c.overflow = rng_next(r);
	h->impair.c.duplicated = rng_next(r);
	h->impair.c.reordered = rng_next(r);
	h->impair.c.delayed = rng_next(r);
	h->cpu.wall_ns = rng_next(r) >> 8;
	h->cpu.user_ns = h->cpu.wall_ns + rng_next(r) % 1000;
	h->cpu.system_ns = rng_next(r) % (h->cpu.wall_ns + 1);
}

static void
compare_stream(const struct nb_ctl_stream_res *a,
	       const struct nb_ctl_stream_res *b)
{
	uint32_t k;

	assert_int_equal(a->id, b->id);
	assert_int_equal(a->tx_pkts, b->tx_pkts);
	assert_int_equal(a->tx_bytes, b->tx_bytes);
	assert_int_equal(a->rx_pkts, b->rx_pkts);
	assert_int_equal(a->rx_unique, b->rx_unique);
	assert_int_equal(a->rx_bytes, b->rx_bytes);
	assert_int_equal(a->out_of_order, b->out_of_order);
	assert_int_equal(a->duplicates, b->duplicates);
	assert_int_equal(a->late, b->late);
	assert_int_equal(a->jitter_ps, b->jitter_ps);
	assert_int_equal(a->hist.count, b->hist.count);
	assert_int_equal(a->hist.sum, b->hist.sum);
	assert_int_equal(a->hist.min, b->hist.min);
	assert_int_equal(a->hist.max, b->hist.max);
	assert_int_equal(a->hist.overflow, b->hist.overflow);
	for (k = 0; k < NB_HIST_BUCKETS; k++)
		assert_int_equal(a->hist.buckets[k], b->hist.buckets[k]);
}

static void
compare_results_hdr(const struct nb_ctl_results_hdr *a,
		    const struct nb_ctl_results_hdr *b)
{
	assert_int_equal(a->tx_seconds_ns, b->tx_seconds_ns);
	assert_int_equal(a->rx_seconds_ns, b->rx_seconds_ns);
	assert_int_equal(a->rx_foreign, b->rx_foreign);
	assert_int_equal(a->rx_warm, b->rx_warm);
	assert_int_equal(a->rx_bad_stream, b->rx_bad_stream);
	assert_int_equal(a->tx_dropped, b->tx_dropped);
	assert_int_equal(a->pmd.ipackets, b->pmd.ipackets);
	assert_int_equal(a->pmd.opackets, b->pmd.opackets);
	assert_int_equal(a->pmd.ibytes, b->pmd.ibytes);
	assert_int_equal(a->pmd.obytes, b->pmd.obytes);
	assert_int_equal(a->pmd.imissed, b->pmd.imissed);
	assert_int_equal(a->pmd.ierrors, b->pmd.ierrors);
	assert_int_equal(a->pmd.oerrors, b->pmd.oerrors);
	assert_int_equal(a->pmd.rx_nombuf, b->pmd.rx_nombuf);
	assert_int_equal(a->impair.active, b->impair.active);
	assert_string_equal(a->impair.spec, b->impair.spec);
	assert_memory_equal(&a->impair.c, &b->impair.c, sizeof(a->impair.c));
	assert_int_equal(a->cpu.wall_ns, b->cpu.wall_ns);
	assert_int_equal(a->cpu.user_ns, b->cpu.user_ns);
	assert_int_equal(a->cpu.system_ns, b->cpu.system_ns);
}

/* Read from an exactly-sized copy. */
static int
results_read_exact(const uint8_t *bytes, size_t len,
		   struct nb_ctl_results_hdr *h, struct nb_ctl_stream_res *s,
		   uint32_t max, uint32_t *n)
{
	uint8_t *buf = malloc(len > 0 ? len : 1);
	int rc;

	assert_non_null(buf);
	if (len > 0)
		memcpy(buf, bytes, len);
	rc = nb_ctl_results_read(buf, len, h, s, max, n);
	free(buf);
	return rc;
}

/* A blob written from random streams (count from the write). */
static uint8_t *
make_blob(uint64_t *r, uint32_t samples, struct nb_ctl_results_hdr *h,
	  struct nb_ctl_stream_res **streams, size_t *len)
{
	uint8_t *blob;
	size_t sz;

	*streams = rand_streams(r, N_STREAMS, samples);
	memset(h, 0, sizeof(*h));
	rand_results_hdr(r, h);
	sz = nb_ctl_results_size(*streams, N_STREAMS);
	blob = malloc(sz);
	assert_non_null(blob);
	assert_int_equal(nb_ctl_results_write(h, *streams, N_STREAMS, blob, sz),
			 (int)sz);
	*len = sz;
	return blob;
}

static void
test_results_roundtrip(void **state)
{
	uint64_t r = 13;
	struct nb_ctl_results_hdr h, h2;
	struct nb_ctl_stream_res *s, *s2;
	uint8_t *blob;
	size_t len, nbk = 0;
	uint32_t n = 0, i, k;

	(void)state;
	blob = make_blob(&r, 20000, &h, &s, &len);
	for (i = 0; i < N_STREAMS; i++)
		for (k = 0; k < NB_HIST_BUCKETS; k++)
			nbk += s[i].hist.buckets[k] != 0;
	assert_int_equal(len, 272 + N_STREAMS * 118 + nbk * 10);
	assert_true(s[0].hist.overflow > 0);
	assert_int_equal(s[1].hist.count, 0);
	assert_memory_equal(blob, "NBRS\0\0\0\x03", 8);

	s2 = calloc(N_STREAMS, sizeof(*s2));
	assert_non_null(s2);
	assert_int_equal(results_read_exact(blob, len, &h2, s2, N_STREAMS, &n),
			 0);
	assert_int_equal(n, N_STREAMS);
	compare_results_hdr(&h, &h2);
	for (i = 0; i < N_STREAMS; i++)
		compare_stream(&s[i], &s2[i]);
	/* percentiles of the restored histogram match */
	assert_int_equal(nb_hist_percentile(&s[2].hist, 99.0),
			 nb_hist_percentile(&s2[2].hist, 99.0));

	/* too small an output array; too small a buffer for writing */
	assert_int_equal(results_read_exact(blob, len, &h2, s2, 2, &n),
			 -ENOSPC);
	assert_int_equal(nb_ctl_results_write(&h, s, N_STREAMS, blob, len - 1),
			 -ENOSPC);
	/* no streams at all */
	assert_int_equal(nb_ctl_results_write(&h, NULL, 0, blob, len), 272);
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n), 0);
	assert_int_equal(n, 0);
	compare_results_hdr(&h, &h2);
	free(s2);
	free(s);
	free(blob);
}

/* The impairment part of the header: flags, reserved word, spec text. */
static void
test_results_impair(void **state)
{
	struct nb_ctl_results_hdr h, h2;
	uint8_t blob[272], bad[272];
	uint32_t n;
	unsigned int k;
	static const struct {
		size_t off;
		uint8_t val;
	} breaks[] = {
		{123, 2},	 /* flags bit 1 */
		{120, 0x80},	 /* flags bit 31 */
		{127, 1},	 /* reserved */
		{184 + 2, 0x07}, /* a control byte in the spec */
		{184 + 63, 'x'}, /* no NUL at its end */
		{184 + 40, 'x'}, /* text after the NUL */
		{184 + 5, 0x80}, /* not ASCII */
	};

	(void)state;
	memset(&h, 0, sizeof(h));
	h.impair.active = 1;
	snprintf(h.impair.spec, sizeof(h.impair.spec), "drop=1%%,delay=200");
	h.impair.c.dropped = 7;
	assert_int_equal(nb_ctl_results_write(&h, NULL, 0, blob, sizeof(blob)),
			 272);
	assert_int_equal(nb_get_be32(blob + 120), 1);
	assert_memory_equal(blob + 184, "drop=1%,delay=200", 18);
	assert_int_equal(((uint64_t)nb_get_be32(blob + 136) << 32) |
				 nb_get_be32(blob + 140),
			 7);
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n), 0);
	compare_results_hdr(&h, &h2);
	for (k = 0; k < sizeof(breaks) / sizeof(breaks[0]); k++) {
		memcpy(bad, blob, sizeof(bad));
		bad[breaks[k].off] = breaks[k].val;
		assert_int_equal(results_read_exact(bad, 272, &h2, NULL, 0, &n),
				 -EPROTO);
	}
	/* off: no spec, counts read as they are */
	h.impair.active = 0;
	h.impair.spec[0] = '\0';
	assert_int_equal(nb_ctl_results_write(&h, NULL, 0, blob, sizeof(blob)),
			 272);
	assert_int_equal(nb_get_be32(blob + 120), 0);
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n), 0);
	assert_false(h2.impair.active);
	/* off, but a spec: refused */
	blob[184] = 'x';
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n),
			 -EPROTO);
}

/* INTERVAL: its bytes, and each rule of its check on the wire. */
static void
test_interval_msg(void **state)
{
	struct nb_ctl_msg m, d;
	uint8_t *buf, *bad;
	size_t len;
	unsigned int k;
	static const struct {
		const char *what;
		size_t off;
		uint8_t val;
	} breaks[] = {
		{"unknown flag", 4, 0x06},
		{"not LAST though the part ends the streams", 4, 0x00},
		{"OMITTED with streams", 4, 0x03},
		{"reserved byte", 5, 1},
		{"first + count past nb_streams", 11, 13},
		{"count 13", 9, 13},
		{"count 0", 9, 0},
		{"nb_streams 0", 11, 0},
		{"start after end", 12, 0xff},
		{"a slot past count not zero", 124 + 2 * 64 + 7, 1},
	};

	(void)state;
	nb_ctl_msg_init(&m, NB_CTL_INTERVAL, 9);
	m.seq = 12;
	m.u.iv.index = 3;
	m.u.iv.flags = NB_CTL_IV_F_LAST;
	m.u.iv.first = 12;
	m.u.iv.count = 2;
	m.u.iv.nb_streams = 14;
	m.u.iv.start_ns = 2000000000ull;
	m.u.iv.end_ns = 3000000000ull;
	m.u.iv.rx_pkts = 14880;
	m.u.iv.s[0].rx_pkts = 7440;
	m.u.iv.s[1].jitter_ps = 2075000;
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(len, H + 892);
	assert_memory_equal(buf + H, "\0\0\0\x03\x02\0\0\x0c\0\x02\0\x0e", 12);
	assert_memory_equal(buf + H + 12, "\0\0\0\0\x77\x35\x94\x00", 8);
	assert_int_equal(rd32(buf + H + 28 + 16 + 4), 14880); /* rx_pkts */
	assert_int_equal(rd32(buf + H + 124 + 16 + 4), 7440);
	assert_int_equal(rd32(buf + H + 124 + 64 + 56 + 4), 2075000);
	assert_int_equal(decode_exact(buf, len, &d), 0);
	bad = malloc(len);
	assert_non_null(bad);
	for (k = 0; k < sizeof(breaks) / sizeof(breaks[0]); k++) {
		memcpy(bad, buf, len);
		bad[H + breaks[k].off] = breaks[k].val;
		if (decode_exact(bad, len, &d) != -EPROTO)
			fail_msg("INTERVAL with %s decoded", breaks[k].what);
	}
	/* a warm-up interval: sums only, one part */
	m.u.iv.flags = NB_CTL_IV_F_OMITTED | NB_CTL_IV_F_LAST;
	m.u.iv.first = 0;
	m.u.iv.count = 0;
	memset(m.u.iv.s, 0, sizeof(m.u.iv.s));
	roundtrip(&m);
	m.u.iv.flags = NB_CTL_IV_F_OMITTED;
	assert_int_equal(nb_ctl_encode(&m, bad, len), -EINVAL);
	free(bad);
	free(buf);
}

/* The responder's CPU time: where it goes, and the times refused. */
static void
test_results_cpu(void **state)
{
	struct nb_ctl_results_hdr h, h2;
	uint8_t blob[272];
	uint32_t n;

	(void)state;
	memset(&h, 0, sizeof(h));
	h.cpu.wall_ns = 2000000000ull;	/* 2 s */
	h.cpu.user_ns = 3000000000ull;	/* two busy lcores, 150 % */
	h.cpu.system_ns = 100000000ull; /* 5 % */
	assert_int_equal(nb_ctl_results_write(&h, NULL, 0, blob, sizeof(blob)),
			 272);
	assert_int_equal(nb_get_be32(blob + 252), 2000000000u);
	assert_int_equal(nb_get_be32(blob + 260), 3000000000u);
	assert_int_equal(nb_get_be32(blob + 268), 100000000u);
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n), 0);
	compare_results_hdr(&h, &h2);
	assert_float_equal(nb_cpu_percent(&h2.cpu, h2.cpu.user_ns), 150.0,
			   1e-9);
	/* 4096 CPUs' worth is the most; without a wall time, nothing */
	h.cpu.user_ns = h.cpu.wall_ns * 4096;
	nb_ctl_results_write(&h, NULL, 0, blob, sizeof(blob));
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n), 0);
	h.cpu.user_ns++;
	nb_ctl_results_write(&h, NULL, 0, blob, sizeof(blob));
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n),
			 -EPROTO);
	h.cpu.user_ns = 0;
	h.cpu.wall_ns = 0;
	h.cpu.system_ns = 1;
	nb_ctl_results_write(&h, NULL, 0, blob, sizeof(blob));
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n),
			 -EPROTO);
	/* not measured: all 0, read as such */
	h.cpu.system_ns = 0;
	nb_ctl_results_write(&h, NULL, 0, blob, sizeof(blob));
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n), 0);
	assert_float_equal(nb_cpu_percent(&h2.cpu, 5), 0.0, 0);
}

static void
test_results_truncation(void **state)
{
	uint64_t r = 14;
	struct nb_ctl_results_hdr h, h2;
	struct nb_ctl_stream_res *s, *s2;
	uint8_t *blob, *big;
	size_t len, n;
	uint32_t cnt;

	(void)state;
	blob = make_blob(&r, 300, &h, &s, &len);
	s2 = calloc(N_STREAMS, sizeof(*s2));
	assert_non_null(s2);
	for (n = 0; n < len; n++)
		assert_int_equal(
			results_read_exact(blob, n, &h2, s2, N_STREAMS, &cnt),
			-EPROTO);
	/* trailing bytes */
	big = calloc(1, len + 10);
	assert_non_null(big);
	memcpy(big, blob, len);
	for (n = len + 1; n <= len + 10; n++)
		assert_int_equal(
			results_read_exact(big, n, &h2, s2, N_STREAMS, &cnt),
			-EPROTO);
	assert_int_equal(results_read_exact(big, len, &h2, s2, N_STREAMS, &cnt),
			 0);
	free(big);
	/* bad magic; a stream count the blob cannot hold */
	blob[0] ^= 1;
	assert_int_equal(
		results_read_exact(blob, len, &h2, s2, N_STREAMS, &cnt),
		-EPROTO);
	blob[0] ^= 1;
	nb_put_be32(blob + 4, 0xffffffff);
	assert_int_equal(
		results_read_exact(blob, len, &h2, s2, N_STREAMS, &cnt),
		-EPROTO);
	nb_put_be32(blob + 4, 4);
	assert_int_equal(results_read_exact(blob, len, &h2, s2, 10, &cnt),
			 -EPROTO);
	nb_put_be32(blob + 4, 2); /* the third stream becomes trailing bytes */
	assert_int_equal(results_read_exact(blob, len, &h2, s2, 10, &cnt),
			 -EPROTO);
	free(s2);
	free(s);
	free(blob);
}

/*
 * One stream with known buckets, to patch its bucket list: the blob is
 * header (272) + stream (118) + 3 buckets (10 each).
 */
static uint8_t *
three_bucket_blob(size_t *len)
{
	struct nb_ctl_results_hdr h;
	struct nb_ctl_stream_res *s = calloc(1, sizeof(*s));
	uint8_t *blob;

	assert_non_null(s);
	memset(&h, 0, sizeof(h));
	nb_hist_init(&s->hist);
	nb_hist_record(&s->hist, 5);
	nb_hist_record(&s->hist, 5);
	nb_hist_record(&s->hist, 1000);
	nb_hist_record(&s->hist, NB_HIST_LIMIT + 3);
	*len = nb_ctl_results_size(s, 1);
	assert_int_equal(*len, 272 + 118 + 30);
	blob = malloc(*len);
	assert_non_null(blob);
	assert_int_equal(nb_ctl_results_write(&h, s, 1, blob, *len), (int)*len);
	free(s);
	return blob;
}

static void
put_be64(uint8_t *p, uint64_t v)
{
	nb_put_be32(p, (uint32_t)(v >> 32));
	nb_put_be32(p + 4, (uint32_t)v);
}

struct blob_patch {
	const char *what;
	size_t off;   /* in the blob */
	size_t width; /* 2 or 8 */
	uint64_t value;
};

/* Stream record at 120; its bucket list at 238 (index u16, count u64). */
#define ST 272
#define BK (272 + 118)
static const struct blob_patch bad_blob[] = {
	{"index 3840", BK + 10, 2, NB_HIST_BUCKETS},
	{"last index 3840", BK + 20, 2, NB_HIST_BUCKETS},
	{"last index 65535", BK + 20, 2, 0xffff},
	{"duplicate index", BK + 10, 2, 5},
	{"decreasing index", BK + 10, 2, 4},
	{"first index after second", BK + 0, 2, 507},
	{"zero bucket count", BK + 12, 8, 0},
	{"bucket sum > count", BK + 2, 8, 3},
	{"bucket sum < count", BK + 2, 8, 1},
	{"count too large", ST + 76, 8, 5},
	{"count too small", ST + 76, 8, 3},
	{"count 0 with buckets", ST + 76, 8, 0},
	{"overflow > last bucket", ST + 108, 8, 2},
	{"overflow bucket moved", BK + 20, 2, NB_HIST_BUCKETS - 2},
	{"min > max", ST + 92, 8, NB_HIST_LIMIT + 4},
	{"more buckets than bytes", ST + 116, 2, 4},
	{"fewer buckets than bytes", ST + 116, 2, 2},
	{"nb_buckets max", ST + 116, 2, 0xffff},
	{"nb_streams 2", 6, 2, 2}, /* low half of the u32 at 4 */
	{"nb_streams 0", 6, 2, 0},
};

static void
apply_blob_patch(uint8_t *b, const struct blob_patch *p)
{
	if (p->width == 2)
		nb_put_be16(b + p->off, (uint16_t)p->value);
	else
		put_be64(b + p->off, p->value);
}

static void
test_results_bad_buckets(void **state)
{
	struct nb_ctl_results_hdr h2;
	struct nb_ctl_stream_res *s2 = calloc(2, sizeof(*s2));
	uint8_t *blob, *orig;
	size_t len, i;
	uint32_t n;
	int rc;

	(void)state;
	assert_non_null(s2);
	orig = three_bucket_blob(&len);
	blob = malloc(len);
	assert_non_null(blob);

	/* the layout the patches assume */
	assert_int_equal(nb_get_be32(orig + 4), 1);
	assert_int_equal(nb_get_be16(orig + ST + 116), 3);
	assert_int_equal(nb_get_be16(orig + BK + 0), 5);
	assert_int_equal(nb_get_be32(orig + BK + 2 + 4), 2);
	assert_int_equal(nb_get_be16(orig + BK + 10), nb_hist_index(1000));
	assert_int_equal(nb_hist_index(1000), 506);
	assert_int_equal(nb_get_be16(orig + BK + 20), NB_HIST_BUCKETS - 1);
	assert_int_equal(nb_get_be32(orig + ST + 76 + 4), 4);
	assert_int_equal(nb_get_be32(orig + ST + 108 + 4), 1);
	assert_int_equal(results_read_exact(orig, len, &h2, s2, 2, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(s2[0].hist.buckets[5], 2);
	assert_int_equal(s2[0].hist.buckets[506], 1);
	assert_int_equal(s2[0].hist.buckets[NB_HIST_BUCKETS - 1], 1);

	for (i = 0; i < sizeof(bad_blob) / sizeof(bad_blob[0]); i++) {
		memcpy(blob, orig, len);
		apply_blob_patch(blob, &bad_blob[i]);
		rc = results_read_exact(blob, len, &h2, s2, 2, &n);
		if (rc != -EPROTO)
			fail_msg("%s: read returned %d", bad_blob[i].what, rc);
	}

	/* bucket counts that wrap around 2^64 to match count */
	memcpy(blob, orig, len);
	put_be64(blob + BK + 2, UINT64_MAX);
	put_be64(blob + BK + 12, 1);
	put_be64(blob + ST + 76, 1); /* UINT64_MAX + 1 + 1 wraps to 1 */
	assert_int_equal(results_read_exact(blob, len, &h2, s2, 2, &n),
			 -EPROTO);

	/* an empty histogram: no buckets, sum and overflow 0 */
	memcpy(blob, orig, len);
	nb_put_be16(blob + ST + 116, 0);
	put_be64(blob + ST + 76, 0);
	put_be64(blob + ST + 84, 0);
	put_be64(blob + ST + 108, 0);
	assert_int_equal(results_read_exact(blob, BK, &h2, s2, 2, &n), 0);
	assert_int_equal(s2[0].hist.count, 0);
	put_be64(blob + ST + 84, 7);
	assert_int_equal(results_read_exact(blob, BK, &h2, s2, 2, &n), -EPROTO);
	put_be64(blob + ST + 84, 0);
	put_be64(blob + ST + 108, 1);
	assert_int_equal(results_read_exact(blob, BK, &h2, s2, 2, &n), -EPROTO);

	/* the writer refuses an inconsistent histogram */
	nb_hist_init(&s2[0].hist);
	nb_hist_record(&s2[0].hist, 10);
	s2[0].hist.count++;
	assert_int_equal(nb_ctl_results_write(&h2, s2, 1, blob, len), -EINVAL);
	free(blob);
	free(orig);
	free(s2);
}
#undef ST
#undef BK

/* The TCP results blob: every field back, the layout where the header
 * says, and each defect refused. */
static void
test_tcpres(void **state)
{
	static struct nb_ctl_tcp_hdr h, g;
	struct nb_tcp_endsnap c[5], d[5];
	uint64_t r = 11, v;
	uint8_t *buf, *bad;
	size_t len, k;
	uint32_t n, i;

	(void)state;
	memset(&h, 0, sizeof(h));
	nb_hist_init(&h.owd);
	for (i = 0; i < 300; i++)
		nb_hist_record(&h.owd, 1000 + rng_below(&r, 1000000));
	h.pmd.ipackets = 123456789;
	h.pmd.rx_nombuf = 7;
	h.cpu.wall_ns = 10000000000ull;
	h.cpu.user_ns = 9000000000ull;
	h.rx_pkts = 1111;
	h.ctl_dropped = 9;
	h.cap_unit = NB_CTL_CAP_L1;
	h.cap_rate = 1250000000ull;
	h.cap_held = 77;
	memset(c, 0, sizeof(c));
	for (i = 0; i < 5; i++) {
		uint64_t *f = &c[i].acked;

		c[i].state = (uint8_t)(i * 2);
		c[i].error = (uint8_t)(i % 5);
		c[i].check = (uint8_t)(i % 3);
		for (k = 0; k < NB_TCP_ENDSNAP_U64; k++)
			f[k] = rng_next(&r);
	}
	for (v = 0, k = 0; k < NB_HIST_BUCKETS; k++)
		v += h.owd.buckets[k] != 0;
	assert_true(v > 1);
	len = nb_ctl_tcpres_size(&h, 5);
	assert_int_equal(len, 234 + 10 * v + 5 * 164);
	buf = malloc(len + 1);
	assert_non_null(buf);
	assert_int_equal(nb_ctl_tcpres_write(&h, c, 5, buf, len - 1), -ENOSPC);
	assert_int_equal(nb_ctl_tcpres_write(&h, c, 5, buf, len), (int)len);
	assert_memory_equal(buf, "NBRT\0\0\0\5", 8);
	assert_int_equal(nb_get_be32(buf + 8 + 4), 123456789); /* ipackets */
	assert_int_equal(nb_get_be32(buf + 96 + 4), 1111);     /* rx_pkts */
	assert_int_equal(nb_get_be32(buf + 160 + 4), 9);       /* ctl_dropped */
	assert_int_equal(nb_get_be32(buf + 168 + 4), 3);       /* cap_unit */
	assert_int_equal(nb_get_be32(buf + 176 + 4), 1250000000ull);
	assert_int_equal(nb_get_be32(buf + 184 + 4), 77);  /* cap_held */
	assert_int_equal(nb_get_be32(buf + 192 + 4), 300); /* owd count */
	/* the first connection after the buckets */
	k = len - 5 * 164;
	assert_int_equal(buf[k], 0);
	assert_int_equal(nb_get_be32(buf + k + 4),
			 (uint32_t)(c[0].acked >> 32));
	assert_int_equal(nb_ctl_tcpres_read(buf, len, &g, d, 5, &n), 0);
	assert_int_equal(n, 5);
	assert_memory_equal(c, d, sizeof(c));
	assert_int_equal(g.owd.count, 300);
	assert_memory_equal(g.owd.buckets, h.owd.buckets,
			    sizeof(h.owd.buckets));
	assert_int_equal(g.pmd.ipackets, 123456789);
	assert_int_equal(g.cpu.user_ns, 9000000000ull);
	assert_int_equal(g.ctl_dropped, 9);
	assert_int_equal(g.cap_rate, 1250000000ull);
	/* more than we asked for; truncated; trailing; each defect */
	assert_int_equal(nb_ctl_tcpres_read(buf, len, &g, d, 4, &n), -ENOSPC);
	for (k = 0; k < len; k += 7)
		assert_int_equal(nb_ctl_tcpres_read(buf, k, &g, d, 5, &n),
				 -EPROTO);
	buf[len] = 0;
	assert_int_equal(nb_ctl_tcpres_read(buf, len + 1, &g, d, 5, &n),
			 -EPROTO);
	bad = malloc(len);
	assert_non_null(bad);
	k = len - 5 * 164;
	{
		const struct {
			size_t off;
			uint8_t v;
		} defects[] = {
			{0, 'X'},	/* magic */
			{7, 6},		/* nb_conns 6 */
			{7, 4},		/* nb_conns 4 */
			{k, 11},	/* state past LAST_ACK */
			{k + 1, 5},	/* error past ABORTED */
			{k + 2, 3},	/* check past AUTO */
			{k + 3, 1},	/* reserved */
			{168 + 7, 4},	/* cap_unit 4 */
			{192 + 7, 0},	/* owd count != buckets */
			{232 + 1, 0},	/* nb_buckets */
			{80 + 0, 0x7f}, /* user time > 4096 x wall */
		};

		for (i = 0; i < sizeof(defects) / sizeof(defects[0]); i++) {
			memcpy(bad, buf, len);
			bad[defects[i].off] = defects[i].v;
			if (nb_ctl_tcpres_read(bad, len, &g, d, 5, &n) !=
			    -EPROTO)
				fail_msg("TCP blob defect %u accepted", i);
		}
	}
	/* the writer refuses what the reader would */
	c[2].state = 11;
	assert_int_equal(nb_ctl_tcpres_write(&h, c, 5, buf, len), -EINVAL);
	c[2].state = 0;
	h.owd.count++;
	assert_int_equal(nb_ctl_tcpres_write(&h, c, 5, buf, len), -EINVAL);
	h.owd.count--;
	/* no connection, no sample: the header alone */
	memset(&g, 0, sizeof(g));
	nb_hist_init(&g.owd);
	assert_int_equal(nb_ctl_tcpres_size(&g, 0), 234);
	assert_int_equal(nb_ctl_tcpres_write(&g, NULL, 0, buf, len), 234);
	assert_int_equal(nb_ctl_tcpres_read(buf, 234, &h, NULL, 0, &n), 0);
	/* a rate without a unit */
	g.cap_rate = 1;
	assert_int_equal(nb_ctl_tcpres_write(&g, NULL, 0, buf, len), -EINVAL);
	assert_int_equal(n, 0);
	v = nb_get_be32(buf + 4);
	assert_int_equal(v, 0);
	free(bad);
	free(buf);
}

static void
test_results_chunks(void **state)
{
	static const uint32_t sizes[] = {0, 1, 1023, 1024, 1025, 2048, 5000};
	uint64_t r = 15;
	struct nb_ctl_msg m, d;
	uint8_t *blob, *re, *buf;
	size_t i, len;
	uint32_t part, parts;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		blob = malloc(sizes[i] + 1);
		re = calloc(1, sizes[i] + 1);
		assert_non_null(blob);
		assert_non_null(re);
		rand_bytes(&r, blob, sizes[i]);
		parts = nb_ctl_results_parts(sizes[i]);
		assert_int_equal(parts, doc_parts(sizes[i]));
		for (part = 0; part < parts; part++) {
			nb_ctl_msg_init(&m, NB_CTL_KEEPALIVE, 42);
			m.seq = part + 1;
			assert_int_equal(
				nb_ctl_results_chunk(&m, blob, sizes[i], part),
				0);
			assert_int_equal(m.type, NB_CTL_RESULTS);
			assert_int_equal(m.session, 42);
			buf = encode_exact(&m, &len);
			assert_int_equal(decode_exact(buf, len, &d), 0);
			assert_int_equal(
				nb_ctl_results_put(re, sizes[i], &d.u.res), 0);
			if (sizes[i] > 0)
				assert_int_equal(
					nb_ctl_results_put(re, sizes[i] - 1,
							   &d.u.res),
					-ENOSPC);
			free(buf);
		}
		assert_memory_equal(re, blob, sizes[i]);
		assert_int_equal(
			nb_ctl_results_chunk(&m, blob, sizes[i], parts),
			-EINVAL);
		free(blob);
		free(re);
	}
	memset(&d, 0, sizeof(d));
	d.u.res.nb_parts = 2; /* inconsistent */
	assert_int_equal(nb_ctl_results_put(re = calloc(1, 8), 8, &d.u.res),
			 -EPROTO);
	free(re);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_fixed),
		cmocka_unit_test(test_roundtrip_random),
		cmocka_unit_test(test_max_len),
		cmocka_unit_test(test_encode_invalid),
		cmocka_unit_test(test_bad_magic),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_unknown_type),
		cmocka_unit_test(test_short_header),
		cmocka_unit_test(test_length_field),
		cmocka_unit_test(test_body_length),
		cmocka_unit_test(test_session_seq_zero),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_params_ranges),
		cmocka_unit_test(test_params_tcp),
		cmocka_unit_test(test_other_ranges),
		cmocka_unit_test(test_macs),
		cmocka_unit_test(test_accept_setup),
		cmocka_unit_test(test_results_msg),
		cmocka_unit_test(test_random_buffers),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_tagged_roundtrip),
		cmocka_unit_test(test_tag_length),
		cmocka_unit_test(test_conf_flags),
		cmocka_unit_test(test_quit),
		cmocka_unit_test(test_answer_not_longer),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_message_table),
		cmocka_unit_test(test_results_roundtrip),
		cmocka_unit_test(test_results_impair),
		cmocka_unit_test(test_interval_msg),
		cmocka_unit_test(test_results_cpu),
		cmocka_unit_test(test_results_truncation),
		cmocka_unit_test(test_results_bad_buckets),
		cmocka_unit_test(test_results_chunks),
		cmocka_unit_test(test_tcpres),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
