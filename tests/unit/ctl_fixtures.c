/* SPDX-License-Identifier: BSD-3-Clause */
/* The control-protocol tests' shared helpers: see ctl_fixtures.h. */
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
#include "ctl_fixtures.h"

uint32_t
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
size_t
doc_body_len(uint8_t type)
{
	switch (type) {
	case NB_CTL_HELLO:
	case NB_CTL_WELCOME:
		return 368 + 194; /* the offer since version 11, its speeds
				     since 12 */
	case NB_CTL_BUSY:
		return 68;
	case NB_CTL_PARAMS:
		return 284 + 420; /* the mesh since version 11 */
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
void
rand_str(uint64_t *r, char *dst, size_t n)
{
	size_t k = rng_below(r, (uint32_t)n), i;

	memset(dst, 0, n);
	for (i = 0; i < k; i++)
		dst[i] = (char)(1 + rng_below(r, 255));
}

void
rand_bytes(uint64_t *r, uint8_t *dst, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = (uint8_t)rng_next(r);
}

void
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
	rand_offer(r, &c->offer, (unsigned int)rng_below(r, 17));
}

/* A port of a mesh: id i on its host, a locally administered MAC that
 * ends in i (distinct) */
static void
rand_mesh_port(uint64_t *r, struct nb_ctl_mesh_port *p, uint16_t id,
	       uint8_t tag)
{
	rand_bytes(r, p->mac, 5);
	p->mac[0] = (uint8_t)((p->mac[0] & 0xfc) | 2);
	p->mac[5] = tag;
	p->id = id;
}

void
rand_offer(uint64_t *r, struct nb_ctl_offer *o, unsigned int n)
{
	unsigned int i;

	memset(o, 0, sizeof(*o));
	o->n = (uint8_t)n;
	for (i = 0; i < n; i++) {
		rand_mesh_port(r, &o->port[i], (uint16_t)(i * 3 + 1),
			       (uint8_t)i);
		/* a speed, or none (0) */
		o->speed_mbps[i] = (uint32_t)rng_below(r, 400001);
	}
}

/* A mesh across hosts of 2-16 ports (both ends owning some), random
 * pairs of weight 1-2, and the PARAMS fields it decides. */
void
rand_mesh(uint64_t *r, struct nb_ctl_params *p)
{
	struct nb_ctl_mesh *m = &p->mesh;
	unsigned int i, j, sum;

	memset(m, 0, sizeof(*m));
	m->nb_ports = (uint8_t)(2 + rng_below(r, 15));
	m->kind = (uint8_t)(NB_MESH_PAIRS + rng_below(r, 6));
	for (i = 0; i < m->nb_ports; i++) {
		m->owner[i] = (uint8_t)(i == 0	 ? 0
					: i == 1 ? 1
						 : rng_below(r, 2));
		rand_mesh_port(r, &m->port[i], (uint16_t)(i + 7), (uint8_t)i);
	}
	do {
		sum = 0;
		for (i = 0; i < m->nb_ports; i++)
			for (j = 0; j < m->nb_ports; j++) {
				m->weight[i][j] =
					i == j ? 0 : (uint8_t)rng_below(r, 3);
				sum += m->weight[i][j];
			}
	} while (sum == 0);
	m->per_pair = (uint16_t)(1 + rng_below(r, 1024 / sum));
	p->streams = sum * m->per_pair;
	p->tcp = p->tcp_flags = p->tcp_cc = 0;
	p->tcp_window = p->tcp_msg = 0;
	p->bytes = 0;
	p->proto = NB_IPPROTO_UDP;
	p->latency_rate = 0;
	p->direction = (uint8_t)nb_ctl_mesh_direction(m);
	p->sport_base = (uint16_t)rng_below(r, 65536 - p->streams + 1);
	if (p->duration_ms == 0 && p->packets == 0)
		p->duration_ms = 1;
}

void
rand_proof(uint64_t *r, struct nb_ctl_proof *q)
{
	rand_bytes(r, q->client_nonce, sizeof(q->client_nonce));
	rand_bytes(r, q->cookie, sizeof(q->cookie));
}

/* A responder's offload plan as ACCEPT carries it (version 8). */
void
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
void
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

void
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
	p->peer_timeout_ms =
		NB_CTL_MIN_PEER_TIMEOUT_MS +
		(uint32_t)rng_below(r, NB_CTL_MAX_PEER_TIMEOUT_MS -
					       NB_CTL_MIN_PEER_TIMEOUT_MS + 1);
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
	memset(&p->mesh, 0, sizeof(p->mesh));
	if (rng_below(r, 3) == 0) /* a mesh across hosts (version 11) */
		rand_mesh(r, p);
	rand_proof(r, &p->proof);
}

/* A valid INTERVAL part: a warm-up one, or streams of a random test. */
void
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

uint32_t
doc_parts(uint32_t total)
{
	return total == 0 ? 1 : (uint32_t)(((uint64_t)total + 1023) / 1024);
}

uint16_t
doc_chunk_len(uint32_t total, uint32_t part)
{
	uint64_t off = (uint64_t)part * 1024;
	uint64_t left = total > off ? total - off : 0;

	return (uint16_t)(left < 1024 ? left : 1024);
}

/* A valid message of the given type with random non-trivial fields. */
void
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
void
rand_tagged(uint64_t *r, uint8_t type, struct nb_ctl_msg *m)
{
	rand_msg(r, type, m);
	m->tagged = 1;
	rand_bytes(r, m->tag, sizeof(m->tag));
}

/* A random known type. */
uint8_t
rand_type(uint64_t *r)
{
	return (uint8_t)(NB_CTL_HELLO +
			 rng_below(r, NB_CTL_TYPE_MAX - NB_CTL_HELLO));
}

/* Encode into an exactly-sized malloc'd buffer. */
uint8_t *
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
int
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

void
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
	assert_memory_equal(&a->offer, &b->offer, sizeof(a->offer));
}

void
compare_macs(const struct nb_ctl_macs *a, const struct nb_ctl_macs *b)
{
	assert_int_equal(a->n, b->n);
	assert_memory_equal(a->mac, b->mac, 6u * a->n);
}

void
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

void
compare_proof(const struct nb_ctl_proof *a, const struct nb_ctl_proof *b)
{
	assert_memory_equal(a->client_nonce, b->client_nonce, 16);
	assert_memory_equal(a->cookie, b->cookie, 16);
}

void
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
	assert_int_equal(a->peer_timeout_ms, b->peer_timeout_ms);
	assert_int_equal(a->tcp, b->tcp);
	assert_int_equal(a->tcp_flags, b->tcp_flags);
	assert_int_equal(a->tcp_cc, b->tcp_cc);
	assert_int_equal(a->tcp_window, b->tcp_window);
	assert_int_equal(a->tcp_msg, b->tcp_msg);
	assert_int_equal(a->bytes, b->bytes);
	compare_macs(&a->client_macs, &b->client_macs);
	assert_memory_equal(&a->mesh, &b->mesh, sizeof(a->mesh));
	compare_proof(&a->proof, &b->proof);
}

void
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
void
check_reencode(const struct nb_ctl_msg *m, const uint8_t *bytes, size_t len)
{
	uint8_t *out;
	size_t n;

	out = encode_exact(m, &n);
	assert_int_equal(n, len);
	assert_memory_equal(out, bytes, len);
	free(out);
}

void
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

void
put_hdr(uint8_t *p, uint8_t type, uint16_t len, uint32_t session, uint32_t seq)
{
	nb_put_be32(p, NB_CTL_MAGIC);
	p[4] = NB_CTL_VERSION;
	p[5] = type;
	nb_put_be16(p + 6, len);
	nb_put_be32(p + 8, session);
	nb_put_be32(p + 12, seq);
}

/* A valid PARAMS body with room in both arrays. */
void
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
	p->peer_timeout_ms = 2000;
}

/* The patch's value, big endian, at its offset in the body. */
void
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
