/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Peer-mode control protocol codec and results blob.  See nb_ctl.h.
 *
 * Encoding and decoding share one validator (nb_ctl_check) that works on
 * the decoded struct.  The decoder additionally insists on the canonical
 * byte form the encoder produces (NUL padding after strings, zero unused
 * array slots), so decode followed by encode gives back the same bytes.
 * Lengths are checked once, before any body byte is read or written, so
 * the field readers and writers below need no bounds checks of their own.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "nb_config.h"
#include "nb_ctl.h"
#include "nb_frame.h"
#include "nb_units.h"

_Static_assert(NB_CTL_MAX_LEN <= 1472 - NB_VLAN_HLEN,
	       "control messages must fit a 1518 B frame with a VLAN tag");
_Static_assert(NB_CTL_CONF_LEN == NB_CTL_VERSION_STR + NB_CTL_DPDK_STR +
					  NB_CTL_HOST_STR + NB_CTL_CPU_STR +
					  NB_CTL_OS_STR + NB_CTL_DRIVER_STR +
					  4 + 5 * 2 + 6 + 4 + NB_CTL_BOOT_STR +
					  8 + 4 + NB_CTL_NONCE + 4,
	       "nb_ctl_conf wire layout");
_Static_assert(NB_CTL_PARAMS_LEN == 1 + 1 + 2 + 4 + 2 + 2 * NB_CTL_MAX_SIZES +
					    2 + NB_CTL_MAX_PATTERN + 6 * 8 + 4 +
					    4 + 6 + 6 + 2 + 2 + 4 + 4 + 4 + 4 +
					    8 + NB_CTL_MACS_LEN +
					    NB_CTL_PROOF_LEN,
	       "nb_ctl_params wire layout");
_Static_assert(sizeof(((struct nb_offload_plan *)0)->csum_why) ==
			       NB_CTL_WHY_STR &&
		       sizeof(((struct nb_offload_plan *)0)->rate_why) ==
			       NB_CTL_WHY_STR,
	       "ACCEPT carries the offload reasons whole");
_Static_assert(NB_CTL_RESULTS_HDR_LEN == 4 + 4 + 6 * 8 + 8 * 8 + 8 + 7 * 8 +
						 NB_IMPAIR_SPEC_LEN + 3 * 8,
	       "results header wire layout");
_Static_assert(NB_CTL_STREAM_RES_LEN == 4 + 9 * 8 + 5 * 8 + 2,
	       "stream results wire layout");
_Static_assert(NB_HIST_BUCKETS <= UINT16_MAX,
	       "bucket indices and counts travel as u16");
_Static_assert(NB_CTL_MAX_SIZES == NB_MAX_SIZES &&
		       NB_CTL_MAX_PATTERN == NB_MAX_PATTERN &&
		       NB_CTL_MAX_STREAMS == NB_MAX_STREAMS &&
		       NB_CTL_MAX_RX_QUEUES == NB_MAX_QUEUES,
	       "protocol limits follow the tool's limits");

/* Sequential big-endian writers; the caller has checked the length. */
static inline void
wr_u8(uint8_t **p, uint8_t v)
{
	**p = v;
	*p += 1;
}

static inline void
wr_u16(uint8_t **p, uint16_t v)
{
	nb_put_be16(*p, v);
	*p += 2;
}

static inline void
wr_u32(uint8_t **p, uint32_t v)
{
	nb_put_be32(*p, v);
	*p += 4;
}

static inline void
wr_u64(uint8_t **p, uint64_t v)
{
	nb_put_be32(*p, (uint32_t)(v >> 32));
	nb_put_be32(*p + 4, (uint32_t)v);
	*p += 8;
}

static inline void
wr_bytes(uint8_t **p, const void *src, size_t n)
{
	memcpy(*p, src, n);
	*p += n;
}

/* The text up to its NUL, then NUL padding (s holds a NUL: checked). */
static inline void
wr_str(uint8_t **p, const char *s, size_t n)
{
	size_t k = strnlen(s, n);

	memcpy(*p, s, k);
	memset(*p + k, 0, n - k);
	*p += n;
}

static inline uint8_t
rd_u8(const uint8_t **p)
{
	uint8_t v = **p;

	*p += 1;
	return v;
}

static inline uint16_t
rd_u16(const uint8_t **p)
{
	uint16_t v = nb_get_be16(*p);

	*p += 2;
	return v;
}

static inline uint32_t
rd_u32(const uint8_t **p)
{
	uint32_t v = nb_get_be32(*p);

	*p += 4;
	return v;
}

static inline uint64_t
rd_u64(const uint8_t **p)
{
	uint64_t v = ((uint64_t)nb_get_be32(*p) << 32) | nb_get_be32(*p + 4);

	*p += 8;
	return v;
}

static inline void
rd_bytes(const uint8_t **p, void *dst, size_t n)
{
	memcpy(dst, *p, n);
	*p += n;
}

/*
 * Copy a string field; returns 1 if it is canonical (a NUL, and only NULs
 * after it), 0 otherwise.
 */
static inline int
rd_str(const uint8_t **p, char *dst, size_t n)
{
	const uint8_t *s = *p;
	const uint8_t *nul = memchr(s, 0, n);
	size_t i;

	memcpy(dst, s, n);
	*p += n;
	if (nul == NULL)
		return 0;
	for (i = (size_t)(nul - s) + 1; i < n; i++)
		if (s[i] != 0)
			return 0;
	return 1;
}

static inline int
has_nul(const char *s, size_t n)
{
	return memchr(s, 0, n) != NULL;
}

void
nb_ctl_msg_init(struct nb_ctl_msg *m, uint8_t type, uint32_t session)
{
	memset(m, 0, sizeof(*m));
	m->type = type;
	m->session = session;
}

uint32_t
nb_ctl_results_parts(uint32_t total_len)
{
	if (total_len == 0)
		return 1;
	return (uint32_t)(((uint64_t)total_len + NB_CTL_CHUNK - 1) /
			  NB_CTL_CHUNK);
}

/* The chunk length part `part` of a total_len blob must have. */
static uint32_t
results_chunk_len(uint32_t total_len, uint32_t part)
{
	uint64_t off = (uint64_t)part * NB_CTL_CHUNK;
	uint64_t left = total_len > off ? total_len - off : 0;

	return (uint32_t)(left < NB_CTL_CHUNK ? left : NB_CTL_CHUNK);
}

static int
results_check(const struct nb_ctl_results *r)
{
	if (r->nb_parts != nb_ctl_results_parts(r->total_len) ||
	    r->part >= r->nb_parts ||
	    r->chunk_len != results_chunk_len(r->total_len, r->part))
		return -EINVAL;
	return 0;
}

static int
conf_check(const struct nb_ctl_conf *c)
{
	if (!has_nul(c->tool_version, sizeof(c->tool_version)) ||
	    !has_nul(c->dpdk_version, sizeof(c->dpdk_version)) ||
	    !has_nul(c->host, sizeof(c->host)) ||
	    !has_nul(c->cpu, sizeof(c->cpu)) ||
	    !has_nul(c->os, sizeof(c->os)) ||
	    !has_nul(c->driver, sizeof(c->driver)) ||
	    !has_nul(c->boot_id, sizeof(c->boot_id)) || c->numa_node < -1 ||
	    (c->flags & ~NB_CTL_CONF_F_KEY) != 0)
		return -EINVAL;
	return 0;
}

static int
macs_ok(const struct nb_ctl_macs *a)
{
	static const uint8_t zero[6];
	unsigned int i;

	if (a->n > NB_CTL_MACS_MAX)
		return 0;
	for (i = 0; i < a->n; i++)
		if ((a->mac[i][0] & 1) != 0 || memcmp(a->mac[i], zero, 6) == 0)
			return 0;
	return 1;
}

static int
accept_check(const struct nb_ctl_accept *a)
{
	const struct nb_offload_plan *o = &a->offload;

	if (a->rx_queues < 1 || a->rx_queues > NB_CTL_MAX_RX_QUEUES ||
	    !macs_ok(&a->responder_macs) ||
	    (unsigned int)o->flow_control > NB_FC_UNSUPPORTED ||
	    (o->rss_l4 && !o->rss) || a->numa.port_node < -1 ||
	    a->numa.cross > a->numa.workers ||
	    !has_nul(o->csum_why, sizeof(o->csum_why)) ||
	    !has_nul(o->rss_why, sizeof(o->rss_why)) ||
	    !has_nul(o->ts_why, sizeof(o->ts_why)) ||
	    !has_nul(o->rate_why, sizeof(o->rate_why)))
		return -EINVAL;
	return 0;
}

/* The closed-loop TCP fields: all 0 for an open-loop test. */
static int
params_tcp_ok(const struct nb_ctl_params *p)
{
	if (p->tcp == 0)
		return p->tcp_flags == 0 && p->tcp_cc == 0 &&
		       p->tcp_window == 0 && p->tcp_msg == 0 && p->bytes == 0;
	return p->tcp == 1 && p->proto == NB_IPPROTO_TCP && p->nb_sizes == 1 &&
	       p->nb_pattern == 1 && p->sizes[0] >= 128 && p->rate_num == 0 &&
	       p->packets == 0 && p->omit_ms == 0 && p->latency_rate == 0 &&
	       (p->tcp_flags & ~(NB_CTL_TCP_F_DELACK | NB_CTL_TCP_F_NO_SACK)) ==
		       0 &&
	       p->tcp_cc <= NB_CTL_TCP_CC_MAX &&
	       p->tcp_window >= NB_CTL_TCP_MIN_WINDOW &&
	       p->tcp_window <= NB_CTL_TCP_MAX_WINDOW &&
	       p->tcp_msg <= NB_CTL_TCP_MAX_MSG &&
	       (p->tcp_msg == 0 ||
		(p->direction == NB_CTL_DIR_FORWARD && p->bytes == 0)) &&
	       p->bytes <= NB_CTL_MAX_PACKETS &&
	       (p->duration_ms != 0 || p->bytes != 0);
}

static int
params_check(const struct nb_ctl_params *p)
{
	uint32_t i;

	if (p->direction > NB_CTL_DIR_BIDIR ||
	    (p->proto != NB_IPPROTO_TCP && p->proto != NB_IPPROTO_UDP) ||
	    p->vlan_id > NB_CTL_MAX_VLAN || p->streams < 1 ||
	    p->streams > NB_CTL_MAX_STREAMS || p->nb_sizes < 1 ||
	    p->nb_sizes > NB_CTL_MAX_SIZES || p->nb_pattern < 1 ||
	    p->nb_pattern > NB_CTL_MAX_PATTERN || p->rate_den == 0 ||
	    p->rate_num / p->rate_den > NB_CTL_MAX_PPS ||
	    (uint32_t)p->sport_base + p->streams - 1 > UINT16_MAX ||
	    p->dport == 0 || p->dport == NB_CONTROL_UDP_PORT ||
	    p->packets > NB_CTL_MAX_PACKETS ||
	    p->duration_ms > NB_CTL_MAX_DURATION_MS ||
	    (p->duration_ms == 0 && p->packets == 0 && p->tcp == 0) ||
	    !params_tcp_ok(p) || !macs_ok(&p->client_macs) ||
	    p->omit_ms > NB_CTL_MAX_OMIT_MS ||
	    p->latency_rate > NB_CTL_MAX_LATENCY_RATE ||
	    (p->interval_ms != 0 && (p->interval_ms < NB_CTL_MIN_INTERVAL_MS ||
				     p->interval_ms > NB_CTL_MAX_INTERVAL_MS)))
		return -EINVAL;
	for (i = 0; i < p->nb_sizes; i++)
		if (p->sizes[i] < NB_FRAME_MIN || p->sizes[i] > NB_FRAME_MAX)
			return -EINVAL;
	for (i = 0; i < p->nb_pattern; i++)
		if (p->pattern[i] >= p->nb_sizes)
			return -EINVAL;
	return 0;
}

static int
interval_check(const struct nb_ctl_interval *v)
{
	uint32_t end = (uint32_t)v->first + v->count;
	int last = (v->flags & NB_CTL_IV_F_LAST) != 0;

	if ((v->flags & ~(NB_CTL_IV_F_OMITTED | NB_CTL_IV_F_LAST)) != 0 ||
	    v->count > NB_CTL_IV_STREAMS || v->nb_streams < 1 ||
	    v->nb_streams > NB_CTL_MAX_STREAMS || end > v->nb_streams ||
	    last != (end == v->nb_streams ||
		     (v->flags & NB_CTL_IV_F_OMITTED)) ||
	    ((v->flags & NB_CTL_IV_F_OMITTED) &&
	     (v->count != 0 || v->first != 0 || !last)) ||
	    (!(v->flags & NB_CTL_IV_F_OMITTED) && v->count == 0) ||
	    v->start_ns > v->end_ns)
		return -EINVAL;
	return 0;
}

static inline int
code_ok(uint16_t code)
{
	return code >= 1 && code < NB_CTL_CODE_MAX;
}

/* The message types: a type is known when it has a name. */
static const char *const type_names[NB_CTL_TYPE_MAX] = {
	[NB_CTL_HELLO] = "HELLO",     [NB_CTL_WELCOME] = "WELCOME",
	[NB_CTL_BUSY] = "BUSY",	      [NB_CTL_PARAMS] = "PARAMS",
	[NB_CTL_ACCEPT] = "ACCEPT",   [NB_CTL_REJECT] = "REJECT",
	[NB_CTL_START] = "START",     [NB_CTL_KEEPALIVE] = "KEEPALIVE",
	[NB_CTL_STOP] = "STOP",	      [NB_CTL_RESULTS_REQ] = "RESULTS_REQ",
	[NB_CTL_RESULTS] = "RESULTS", [NB_CTL_DONE] = "DONE",
	[NB_CTL_QUIT] = "QUIT",	      [NB_CTL_ACK] = "ACK",
	[NB_CTL_ERROR] = "ERROR",     [NB_CTL_INTERVAL] = "INTERVAL",
};

/* Body length of each known type (RESULTS: without its chunk). */
static const uint16_t fixed_body_len[NB_CTL_TYPE_MAX] = {
	[NB_CTL_HELLO] = NB_CTL_CONF_LEN,
	[NB_CTL_WELCOME] = NB_CTL_CONF_LEN,
	[NB_CTL_BUSY] = NB_CTL_BUSY_LEN,
	[NB_CTL_PARAMS] = NB_CTL_PARAMS_LEN,
	[NB_CTL_ACCEPT] = NB_CTL_ACCEPT_LEN,
	[NB_CTL_REJECT] = NB_CTL_REJECT_LEN,
	[NB_CTL_START] = NB_CTL_START_LEN,
	[NB_CTL_KEEPALIVE] = NB_CTL_KEEPALIVE_LEN,
	[NB_CTL_RESULTS_REQ] = NB_CTL_RESULTS_REQ_LEN,
	[NB_CTL_DONE] = NB_CTL_DONE_LEN,
	[NB_CTL_RESULTS] = NB_CTL_RESULTS_FIXED_LEN,
	[NB_CTL_ERROR] = NB_CTL_ERROR_LEN,
	[NB_CTL_QUIT] = NB_CTL_QUIT_LEN,
	[NB_CTL_INTERVAL] = NB_CTL_INTERVAL_LEN,
};

static inline int
type_known(uint8_t type)
{
	return type < NB_CTL_TYPE_MAX && type_names[type] != NULL;
}

/* Body length for m's type, or -EINVAL. */
static int
body_len(const struct nb_ctl_msg *m)
{
	if (!type_known(m->type))
		return -EINVAL;
	if (m->type == NB_CTL_RESULTS && m->u.res.chunk_len > NB_CTL_CHUNK)
		return -EINVAL;
	return fixed_body_len[m->type] +
	       (m->type == NB_CTL_RESULTS ? m->u.res.chunk_len : 0) +
	       (m->tagged ? NB_CTL_TAG_LEN : 0);
}

/* Everything the struct can show; 0 or -EINVAL. */
static int
nb_ctl_check(const struct nb_ctl_msg *m)
{
	if (m->session == 0 || m->seq == 0 || !type_known(m->type))
		return -EINVAL;
	switch (m->type) {
	case NB_CTL_HELLO:
	case NB_CTL_WELCOME:
		return conf_check(&m->u.conf);
	case NB_CTL_BUSY:
		if (m->u.busy.asked_session == 0 ||
		    !has_nul(m->u.busy.reason, sizeof(m->u.busy.reason)))
			return -EINVAL;
		return 0;
	case NB_CTL_PARAMS:
		return params_check(&m->u.params);
	case NB_CTL_ACCEPT:
		return accept_check(&m->u.accept);
	case NB_CTL_REJECT:
		if (!code_ok(m->u.reject.code) ||
		    !has_nul(m->u.reject.reason, sizeof(m->u.reject.reason)))
			return -EINVAL;
		return 0;
	case NB_CTL_START:
		if (m->u.start.delay_ms > NB_CTL_MAX_START_DELAY_MS)
			return -EINVAL;
		return 0;
	case NB_CTL_KEEPALIVE:
		if (m->u.ka.echo_ns == 0 && m->u.ka.echo_delay_ns != 0)
			return -EINVAL;
		return 0;
	case NB_CTL_RESULTS:
		return results_check(&m->u.res);
	case NB_CTL_ERROR:
		if (!code_ok(m->u.error.code) ||
		    !has_nul(m->u.error.reason, sizeof(m->u.error.reason)))
			return -EINVAL;
		return 0;
	case NB_CTL_INTERVAL:
		return interval_check(&m->u.iv);
	case NB_CTL_DONE:
		return m->u.done.flags & ~NB_CTL_DONE_F_LEAVING ? -EINVAL : 0;
	default:
		/* RESULTS_REQ, STOP, QUIT, ACK: nothing to check */
		return 0;
	}
}

int
nb_ctl_encoded_len(const struct nb_ctl_msg *m)
{
	int b;

	if (m == NULL)
		return -EINVAL;
	b = body_len(m);
	if (b < 0)
		return b;
	return NB_CTL_HDR_LEN + b;
}

static void
wr_conf(uint8_t **p, const struct nb_ctl_conf *c)
{
	wr_str(p, c->tool_version, sizeof(c->tool_version));
	wr_str(p, c->dpdk_version, sizeof(c->dpdk_version));
	wr_str(p, c->host, sizeof(c->host));
	wr_str(p, c->cpu, sizeof(c->cpu));
	wr_str(p, c->os, sizeof(c->os));
	wr_str(p, c->driver, sizeof(c->driver));
	wr_u32(p, c->link_speed_mbps);
	wr_u16(p, c->nb_ports);
	wr_u16(p, c->nb_rxq);
	wr_u16(p, c->nb_txq);
	wr_u16(p, c->nb_workers);
	wr_u16(p, (uint16_t)c->numa_node);
	wr_bytes(p, c->mac, sizeof(c->mac));
	wr_u32(p, c->ipv4);
	wr_str(p, c->boot_id, sizeof(c->boot_id));
	wr_u64(p, c->tsc_hz);
	wr_u32(p, c->tsc_bound_ppb);
	wr_bytes(p, c->nonce, sizeof(c->nonce));
	wr_u32(p, c->flags);
}

static void
wr_proof(uint8_t **p, const struct nb_ctl_proof *q)
{
	wr_bytes(p, q->client_nonce, sizeof(q->client_nonce));
	wr_bytes(p, q->cookie, sizeof(q->cookie));
}

static void
rd_proof(const uint8_t **p, struct nb_ctl_proof *q)
{
	rd_bytes(p, q->client_nonce, sizeof(q->client_nonce));
	rd_bytes(p, q->cookie, sizeof(q->cookie));
}

/* count u8, reserved u8 (0), NB_CTL_MACS_MAX MACs (unused ones 0) */
static void
wr_macs(uint8_t **p, const struct nb_ctl_macs *a)
{
	static const uint8_t zero[6];
	unsigned int i;

	wr_u8(p, a->n);
	wr_u8(p, 0);
	for (i = 0; i < NB_CTL_MACS_MAX; i++)
		wr_bytes(p, i < a->n ? a->mac[i] : zero, 6);
}

static int
rd_macs(const uint8_t **p, struct nb_ctl_macs *a)
{
	static const uint8_t zero[6];
	unsigned int i;
	int ok;

	a->n = rd_u8(p);
	ok = rd_u8(p) == 0;
	for (i = 0; i < NB_CTL_MACS_MAX; i++) {
		rd_bytes(p, a->mac[i], 6);
		if (i >= a->n && memcmp(a->mac[i], zero, 6) != 0)
			ok = 0;
	}
	return ok;
}

/* ACCEPT: rx_queues, the MAC list, offloads (flags u32, flow control
 * u8, 3 reserved), NUMA (nodes, port node, workers, cross: 4 x u16), the
 * four reasons */
static void
wr_accept(uint8_t **p, const struct nb_ctl_accept *a)
{
	const struct nb_offload_plan *o = &a->offload;

	wr_u32(p, a->rx_queues);
	wr_macs(p, &a->responder_macs);
	wr_u32(p, (o->tx_l4_csum ? NB_CTL_OFF_TX_CSUM : 0) |
			  (o->rss ? NB_CTL_OFF_RSS : 0) |
			  (o->rss_l4 ? NB_CTL_OFF_RSS_L4 : 0) |
			  (o->hw_ts_avail ? NB_CTL_OFF_HW_TS : 0) |
			  (o->hw_rate ? NB_CTL_OFF_HW_RATE : 0));
	wr_u8(p, (uint8_t)o->flow_control);
	wr_u8(p, 0);
	wr_u16(p, 0);
	wr_u16(p, a->numa.nodes);
	wr_u16(p, (uint16_t)a->numa.port_node);
	wr_u16(p, a->numa.workers);
	wr_u16(p, a->numa.cross);
	wr_str(p, o->csum_why, sizeof(o->csum_why));
	wr_str(p, o->rss_why, sizeof(o->rss_why));
	wr_str(p, o->ts_why, sizeof(o->ts_why));
	wr_str(p, o->rate_why, sizeof(o->rate_why));
}

static int
rd_accept(const uint8_t **p, struct nb_ctl_accept *a)
{
	struct nb_offload_plan *o = &a->offload;
	uint32_t f;
	int ok;

	a->rx_queues = rd_u32(p);
	ok = rd_macs(p, &a->responder_macs);
	f = rd_u32(p);
	if (f & ~(NB_CTL_OFF_TX_CSUM | NB_CTL_OFF_RSS | NB_CTL_OFF_RSS_L4 |
		  NB_CTL_OFF_HW_TS | NB_CTL_OFF_HW_RATE))
		ok = 0;
	o->tx_l4_csum = (f & NB_CTL_OFF_TX_CSUM) != 0;
	o->rss = (f & NB_CTL_OFF_RSS) != 0;
	o->rss_l4 = (f & NB_CTL_OFF_RSS_L4) != 0;
	o->hw_ts_avail = (f & NB_CTL_OFF_HW_TS) != 0;
	o->hw_rate = (f & NB_CTL_OFF_HW_RATE) != 0;
	o->flow_control = (enum nb_fc_mode)rd_u8(p);
	if (rd_u8(p) != 0 || rd_u16(p) != 0) /* reserved */
		ok = 0;
	a->numa.nodes = rd_u16(p);
	a->numa.port_node = (int16_t)rd_u16(p);
	a->numa.workers = rd_u16(p);
	a->numa.cross = rd_u16(p);
	ok &= rd_str(p, o->csum_why, sizeof(o->csum_why));
	ok &= rd_str(p, o->rss_why, sizeof(o->rss_why));
	ok &= rd_str(p, o->ts_why, sizeof(o->ts_why));
	ok &= rd_str(p, o->rate_why, sizeof(o->rate_why));
	return ok;
}

#define NB_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Write the uint64_t fields of obj at the offsets off[0..n-1]. */
static void
wr_u64_fields(uint8_t **p, const void *obj, const uint16_t *off, size_t n)
{
	uint64_t v;
	size_t i;

	for (i = 0; i < n; i++) {
		memcpy(&v, (const uint8_t *)obj + off[i], sizeof(v));
		wr_u64(p, v);
	}
}

/* Read them back; 1 if any was not zero. */
static int
rd_u64_fields(const uint8_t **p, void *obj, const uint16_t *off, size_t n)
{
	uint64_t v;
	size_t i;
	int nonzero = 0;

	for (i = 0; i < n; i++) {
		v = rd_u64(p);
		nonzero |= v != 0;
		memcpy((uint8_t *)obj + off[i], &v, sizeof(v));
	}
	return nonzero;
}

static void
wr_params(uint8_t **p, const struct nb_ctl_params *q)
{
	uint32_t i;

	wr_u8(p, q->direction);
	wr_u8(p, q->proto);
	wr_u16(p, q->vlan_id);
	wr_u32(p, q->streams);
	wr_u16(p, q->nb_sizes);
	for (i = 0; i < NB_CTL_MAX_SIZES; i++)
		wr_u16(p, i < q->nb_sizes ? q->sizes[i] : 0);
	wr_u16(p, q->nb_pattern);
	for (i = 0; i < NB_CTL_MAX_PATTERN; i++)
		wr_u8(p, i < q->nb_pattern ? q->pattern[i] : 0);
	wr_u64(p, q->rate_num);
	wr_u64(p, q->rate_den);
	wr_u64(p, q->packets);
	wr_u64(p, q->duration_ms);
	wr_u64(p, q->omit_ms);
	wr_u64(p, q->latency_rate);
	wr_u32(p, q->client_ip);
	wr_u32(p, q->responder_ip);
	wr_bytes(p, q->client_mac, sizeof(q->client_mac));
	wr_bytes(p, q->responder_mac, sizeof(q->responder_mac));
	wr_u16(p, q->sport_base);
	wr_u16(p, q->dport);
	wr_u32(p, q->interval_ms);
	wr_u8(p, q->tcp);
	wr_u8(p, q->tcp_flags);
	wr_u8(p, q->tcp_cc);
	wr_u8(p, 0);
	wr_u32(p, q->tcp_window);
	wr_u32(p, q->tcp_msg);
	wr_u64(p, q->bytes);
	wr_macs(p, &q->client_macs);
	wr_proof(p, &q->proof);
}

/* The interval's u64 fields after its times, in wire order. */
#define IV_U64(f) offsetof(struct nb_ctl_interval, f)
static const uint16_t iv_u64[] = {
	IV_U64(tx_pkts),    IV_U64(tx_bytes),	IV_U64(rx_pkts),
	IV_U64(rx_bytes),   IV_U64(lost),	IV_U64(out_of_order),
	IV_U64(duplicates), IV_U64(jitter_ps),	IV_U64(lat_count),
	IV_U64(lat_p50_ns), IV_U64(lat_p99_ns), IV_U64(lat_max_ns)};
#define IVS_U64(f) offsetof(struct nb_ctl_iv_stream, f)
static const uint16_t ivs_u64[] = {IVS_U64(tx_pkts),	IVS_U64(tx_bytes),
				   IVS_U64(rx_pkts),	IVS_U64(rx_bytes),
				   IVS_U64(lost),	IVS_U64(out_of_order),
				   IVS_U64(duplicates), IVS_U64(jitter_ps)};
_Static_assert(28 + 8 * sizeof(iv_u64) / sizeof(iv_u64[0]) +
				       NB_CTL_IV_STREAMS * 8 * sizeof(ivs_u64) /
					       sizeof(ivs_u64[0]) ==
			       NB_CTL_INTERVAL_LEN &&
		       NB_CTL_IV_STREAM_LEN ==
			       8 * sizeof(ivs_u64) / sizeof(ivs_u64[0]),
	       "INTERVAL wire layout");

static void
wr_interval(uint8_t **p, const struct nb_ctl_interval *v)
{
	uint32_t i;

	wr_u32(p, v->index);
	wr_u8(p, v->flags);
	wr_u8(p, 0);
	wr_u16(p, v->first);
	wr_u16(p, v->count);
	wr_u16(p, v->nb_streams);
	wr_u64(p, v->start_ns);
	wr_u64(p, v->end_ns);
	wr_u64_fields(p, v, iv_u64, NB_ELEMS(iv_u64));
	for (i = 0; i < NB_CTL_IV_STREAMS; i++) {
		static const struct nb_ctl_iv_stream zero;

		wr_u64_fields(p, i < v->count ? &v->s[i] : &zero, ivs_u64,
			      NB_ELEMS(ivs_u64));
	}
}

static int
rd_interval(const uint8_t **p, struct nb_ctl_interval *v)
{
	uint32_t i;
	int ok;

	v->index = rd_u32(p);
	v->flags = rd_u8(p);
	ok = rd_u8(p) == 0;
	v->first = rd_u16(p);
	v->count = rd_u16(p);
	v->nb_streams = rd_u16(p);
	v->start_ns = rd_u64(p);
	v->end_ns = rd_u64(p);
	rd_u64_fields(p, v, iv_u64, NB_ELEMS(iv_u64));
	for (i = 0; i < NB_CTL_IV_STREAMS; i++)
		if (rd_u64_fields(p, &v->s[i], ivs_u64, NB_ELEMS(ivs_u64)) &&
		    i >= v->count)
			ok = 0; /* a slot past count is not zero */
	return ok;
}

int
nb_ctl_encode(const struct nb_ctl_msg *m, uint8_t *buf, size_t buflen)
{
	uint8_t *p = buf;
	int len;

	if (m == NULL || buf == NULL)
		return -EINVAL;
	len = nb_ctl_encoded_len(m);
	if (len < 0)
		return len;
	if (nb_ctl_check(m) != 0)
		return -EINVAL;
	if (buflen < (size_t)len)
		return -ENOSPC;

	wr_u32(&p, NB_CTL_MAGIC);
	wr_u8(&p, NB_CTL_VERSION);
	wr_u8(&p, (uint8_t)(m->type | (m->tagged ? NB_CTL_F_TAG : 0)));
	wr_u16(&p, (uint16_t)len);
	wr_u32(&p, m->session);
	wr_u32(&p, m->seq);

	switch (m->type) {
	case NB_CTL_HELLO:
	case NB_CTL_WELCOME:
		wr_conf(&p, &m->u.conf);
		break;
	case NB_CTL_BUSY:
		wr_u32(&p, m->u.busy.asked_session);
		wr_str(&p, m->u.busy.reason, sizeof(m->u.busy.reason));
		break;
	case NB_CTL_PARAMS:
		wr_params(&p, &m->u.params);
		break;
	case NB_CTL_ACCEPT:
		wr_accept(&p, &m->u.accept);
		break;
	case NB_CTL_REJECT:
		wr_u16(&p, m->u.reject.code);
		wr_str(&p, m->u.reject.reason, sizeof(m->u.reject.reason));
		break;
	case NB_CTL_START:
		wr_u32(&p, m->u.start.delay_ms);
		wr_u64(&p, (uint64_t)m->u.start.rx_offset_ns);
		break;
	case NB_CTL_KEEPALIVE:
		wr_u64(&p, m->u.ka.sender_ns);
		wr_u64(&p, m->u.ka.echo_ns);
		wr_u64(&p, m->u.ka.echo_delay_ns);
		break;
	case NB_CTL_RESULTS_REQ:
		wr_u32(&p, m->u.rreq.part);
		break;
	case NB_CTL_RESULTS:
		wr_u32(&p, m->u.res.part);
		wr_u32(&p, m->u.res.nb_parts);
		wr_u32(&p, m->u.res.total_len);
		wr_u16(&p, m->u.res.chunk_len);
		wr_bytes(&p, m->u.res.chunk, m->u.res.chunk_len);
		break;
	case NB_CTL_ERROR:
		wr_u16(&p, m->u.error.code);
		wr_str(&p, m->u.error.reason, sizeof(m->u.error.reason));
		break;
	case NB_CTL_QUIT:
		wr_proof(&p, &m->u.quit);
		memset(p, 0, NB_CTL_QUIT_PAD);
		p += NB_CTL_QUIT_PAD;
		break;
	case NB_CTL_INTERVAL:
		wr_interval(&p, &m->u.iv);
		break;
	case NB_CTL_DONE:
		wr_u32(&p, m->u.done.flags);
		break;
	default:
		/* STOP, ACK: no body. */
		break;
	}
	if (m->tagged)
		wr_bytes(&p, m->tag, NB_CTL_TAG_LEN);
	return len;
}

/* Returns 1 if all string fields were canonical. */
static int
rd_conf(const uint8_t **p, struct nb_ctl_conf *c)
{
	int ok = 1;

	ok &= rd_str(p, c->tool_version, sizeof(c->tool_version));
	ok &= rd_str(p, c->dpdk_version, sizeof(c->dpdk_version));
	ok &= rd_str(p, c->host, sizeof(c->host));
	ok &= rd_str(p, c->cpu, sizeof(c->cpu));
	ok &= rd_str(p, c->os, sizeof(c->os));
	ok &= rd_str(p, c->driver, sizeof(c->driver));
	c->link_speed_mbps = rd_u32(p);
	c->nb_ports = rd_u16(p);
	c->nb_rxq = rd_u16(p);
	c->nb_txq = rd_u16(p);
	c->nb_workers = rd_u16(p);
	c->numa_node = (int16_t)rd_u16(p);
	rd_bytes(p, c->mac, sizeof(c->mac));
	c->ipv4 = rd_u32(p);
	ok &= rd_str(p, c->boot_id, sizeof(c->boot_id));
	c->tsc_hz = rd_u64(p);
	c->tsc_bound_ppb = rd_u32(p);
	rd_bytes(p, c->nonce, sizeof(c->nonce));
	c->flags = rd_u32(p);
	return ok;
}

/* Returns 1 if the unused array slots are zero. */
static int
rd_params(const uint8_t **p, struct nb_ctl_params *q)
{
	uint32_t i;
	int ok = 1;

	q->direction = rd_u8(p);
	q->proto = rd_u8(p);
	q->vlan_id = rd_u16(p);
	q->streams = rd_u32(p);
	q->nb_sizes = rd_u16(p);
	for (i = 0; i < NB_CTL_MAX_SIZES; i++) {
		q->sizes[i] = rd_u16(p);
		if (i >= q->nb_sizes && q->sizes[i] != 0)
			ok = 0;
	}
	q->nb_pattern = rd_u16(p);
	for (i = 0; i < NB_CTL_MAX_PATTERN; i++) {
		q->pattern[i] = rd_u8(p);
		if (i >= q->nb_pattern && q->pattern[i] != 0)
			ok = 0;
	}
	q->rate_num = rd_u64(p);
	q->rate_den = rd_u64(p);
	q->packets = rd_u64(p);
	q->duration_ms = rd_u64(p);
	q->omit_ms = rd_u64(p);
	q->latency_rate = rd_u64(p);
	q->client_ip = rd_u32(p);
	q->responder_ip = rd_u32(p);
	rd_bytes(p, q->client_mac, sizeof(q->client_mac));
	rd_bytes(p, q->responder_mac, sizeof(q->responder_mac));
	q->sport_base = rd_u16(p);
	q->dport = rd_u16(p);
	q->interval_ms = rd_u32(p);
	q->tcp = rd_u8(p);
	q->tcp_flags = rd_u8(p);
	q->tcp_cc = rd_u8(p);
	if (rd_u8(p) != 0) /* reserved */
		ok = 0;
	q->tcp_window = rd_u32(p);
	q->tcp_msg = rd_u32(p);
	q->bytes = rd_u64(p);
	if (!rd_macs(p, &q->client_macs))
		ok = 0;
	rd_proof(p, &q->proof);
	return ok;
}

/* the type byte's place in the header (see nb_ctl.h) */
#define TYPE_AT 5

int
nb_ctl_peek_type(const uint8_t *buf, size_t len)
{
	if (buf == NULL || len <= TYPE_AT)
		return -1;
	return buf[TYPE_AT] & (uint8_t)~NB_CTL_F_TAG;
}

int
nb_ctl_decode(const uint8_t *buf, size_t len, struct nb_ctl_msg *m)
{
	const uint8_t *p = buf;
	uint8_t version;
	uint16_t wire_len;
	int expect, ok = 1;

	if (m == NULL || (buf == NULL && len != 0))
		return -EINVAL;
	if (len < NB_CTL_HDR_LEN || rd_u32(&p) != NB_CTL_MAGIC)
		return -EPROTO;
	memset(m, 0, sizeof(*m));
	version = rd_u8(&p);
	m->type = rd_u8(&p);
	wire_len = rd_u16(&p);
	m->session = rd_u32(&p);
	m->seq = rd_u32(&p);
	/* another version's type byte is handed back as it came */
	if (version != NB_CTL_VERSION)
		return -EPROTONOSUPPORT;
	m->tagged = (m->type & NB_CTL_F_TAG) != 0;
	m->type &= (uint8_t)~NB_CTL_F_TAG;
	if (wire_len != len)
		return -EPROTO;

	/* RESULTS: the chunk length is in the body; read it first. */
	if (m->type == NB_CTL_RESULTS) {
		if (len < NB_CTL_HDR_LEN + NB_CTL_RESULTS_FIXED_LEN)
			return -EPROTO;
		m->u.res.chunk_len = nb_get_be16(buf + NB_CTL_HDR_LEN + 12);
	}
	expect = nb_ctl_encoded_len(m);
	if (expect < 0 || (size_t)expect != len)
		return -EPROTO;

	switch (m->type) {
	case NB_CTL_HELLO:
	case NB_CTL_WELCOME:
		ok = rd_conf(&p, &m->u.conf);
		break;
	case NB_CTL_BUSY:
		m->u.busy.asked_session = rd_u32(&p);
		ok = rd_str(&p, m->u.busy.reason, sizeof(m->u.busy.reason));
		break;
	case NB_CTL_PARAMS:
		ok = rd_params(&p, &m->u.params);
		break;
	case NB_CTL_ACCEPT:
		ok = rd_accept(&p, &m->u.accept);
		break;
	case NB_CTL_REJECT:
		m->u.reject.code = rd_u16(&p);
		ok = rd_str(&p, m->u.reject.reason, sizeof(m->u.reject.reason));
		break;
	case NB_CTL_START:
		m->u.start.delay_ms = rd_u32(&p);
		m->u.start.rx_offset_ns = (int64_t)rd_u64(&p);
		break;
	case NB_CTL_KEEPALIVE:
		m->u.ka.sender_ns = rd_u64(&p);
		m->u.ka.echo_ns = rd_u64(&p);
		m->u.ka.echo_delay_ns = rd_u64(&p);
		break;
	case NB_CTL_RESULTS_REQ:
		m->u.rreq.part = rd_u32(&p);
		break;
	case NB_CTL_RESULTS:
		m->u.res.part = rd_u32(&p);
		m->u.res.nb_parts = rd_u32(&p);
		m->u.res.total_len = rd_u32(&p);
		m->u.res.chunk_len = rd_u16(&p);
		rd_bytes(&p, m->u.res.chunk, m->u.res.chunk_len);
		break;
	case NB_CTL_ERROR:
		m->u.error.code = rd_u16(&p);
		ok = rd_str(&p, m->u.error.reason, sizeof(m->u.error.reason));
		break;
	case NB_CTL_QUIT:
		rd_proof(&p, &m->u.quit);
		/* the padding is zeros: one canonical form */
		for (expect = 0; expect < NB_CTL_QUIT_PAD; expect++)
			ok &= rd_u8(&p) == 0;
		break;
	case NB_CTL_INTERVAL:
		ok = rd_interval(&p, &m->u.iv);
		break;
	case NB_CTL_DONE:
		m->u.done.flags = rd_u32(&p);
		break;
	default:
		/* STOP, ACK: no body. */
		break;
	}
	if (m->tagged)
		rd_bytes(&p, m->tag, NB_CTL_TAG_LEN);
	if (!ok || nb_ctl_check(m) != 0)
		return -EPROTO;
	return 0;
}

/* names[i], or unknown when i is out of range or has no name. */
static const char *
name_of(const char *const *names, unsigned int nb, unsigned int i,
	const char *unknown)
{
	return i < nb && names[i] != NULL ? names[i] : unknown;
}

const char *
nb_ctl_type_name(uint8_t type)
{
	return name_of(type_names, NB_CTL_TYPE_MAX, type, "UNKNOWN");
}

const char *
nb_ctl_code_name(uint16_t code)
{
	static const char *const names[NB_CTL_CODE_MAX] = {
		[NB_CTL_CODE_VERSION] = "version mismatch",
		[NB_CTL_CODE_MALFORMED] = "malformed message",
		[NB_CTL_CODE_STATE] = "unexpected message",
		[NB_CTL_CODE_SESSION] = "unknown session",
		[NB_CTL_CODE_PARAMS] = "parameters not acceptable",
		[NB_CTL_CODE_RESOURCES] = "not enough resources",
		[NB_CTL_CODE_PORT] = "port failure",
		[NB_CTL_CODE_TIMEOUT] = "peer timed out",
		[NB_CTL_CODE_INTERNAL] = "internal error",
		[NB_CTL_CODE_POLICY] = "refused by policy",
		[NB_CTL_CODE_AUTH] = "authentication failed",
	};

	return name_of(names, NB_CTL_CODE_MAX, code, "unknown");
}

const char *
nb_ctl_strerror(int err)
{
	switch (err) {
	case 0:
		return "success";
	case -EPROTO:
		return "malformed control message";
	case -EPROTONOSUPPORT:
		return "control protocol version mismatch";
	case -EINVAL:
		return "invalid control message";
	case -ENOSPC:
		return "buffer too small";
	case -EBUSY:
		return "a message is already awaiting acknowledgement";
	case -ETIMEDOUT:
		return "peer unreachable";
	case -EOVERFLOW:
		return "results too large";
	default:
		return "unknown control error";
	}
}

/* Results blob. */

/*
 * Its fixed uint64_t fields, in wire order: the header's after the magic
 * and stream count, a stream's after its id (the histogram's summary comes
 * before its buckets).
 */
#define HDR_U64(f)     offsetof(struct nb_ctl_results_hdr, f)
#define HDR_PMD_U64(f) HDR_U64(pmd.f),
static const uint16_t hdr_u64[] = {
	HDR_U64(tx_seconds_ns),	     HDR_U64(rx_seconds_ns),
	HDR_U64(rx_foreign),	     HDR_U64(rx_warm),
	HDR_U64(rx_bad_stream),	     HDR_U64(tx_dropped),
	NB_PMD_COUNTERS(HDR_PMD_U64)};

static const uint16_t impair_u64[] = {
	HDR_U64(impair.c.seen),	      HDR_U64(impair.c.dropped),
	HDR_U64(impair.c.policed),    HDR_U64(impair.c.overflow),
	HDR_U64(impair.c.duplicated), HDR_U64(impair.c.reordered),
	HDR_U64(impair.c.delayed)};

static const uint16_t cpu_u64[] = {HDR_U64(cpu.wall_ns), HDR_U64(cpu.user_ns),
				   HDR_U64(cpu.system_ns)};

#define STREAM_U64(f) offsetof(struct nb_ctl_stream_res, f)
static const uint16_t stream_u64[] = {
	STREAM_U64(tx_pkts),	STREAM_U64(tx_bytes),
	STREAM_U64(rx_pkts),	STREAM_U64(rx_unique),
	STREAM_U64(rx_bytes),	STREAM_U64(out_of_order),
	STREAM_U64(duplicates), STREAM_U64(late),
	STREAM_U64(jitter_ps),	STREAM_U64(hist.count),
	STREAM_U64(hist.sum),	STREAM_U64(hist.min),
	STREAM_U64(hist.max),	STREAM_U64(hist.overflow)};

_Static_assert(4 + 4 + 8 * NB_ELEMS(hdr_u64) + 8 + 8 * NB_ELEMS(impair_u64) +
				       NB_IMPAIR_SPEC_LEN +
				       8 * NB_ELEMS(cpu_u64) ==
			       NB_CTL_RESULTS_HDR_LEN &&
		       4 + 8 * NB_ELEMS(stream_u64) + 2 ==
			       NB_CTL_STREAM_RES_LEN,
	       "the field tables are the wire layout");

static uint32_t
hist_nonempty(const struct nb_hist *h)
{
	uint32_t i, k = 0;

	for (i = 0; i < NB_HIST_BUCKETS; i++)
		k += h->buckets[i] != 0;
	return k;
}

/* The consistency rules of nb_ctl.h; 0 or -EINVAL. */
static int
hist_check(const struct nb_hist *h)
{
	uint64_t total = 0;
	uint32_t i;

	for (i = 0; i < NB_HIST_BUCKETS; i++)
		if (__builtin_add_overflow(total, h->buckets[i], &total))
			return -EINVAL;
	if (total != h->count || h->overflow > h->buckets[NB_HIST_BUCKETS - 1])
		return -EINVAL;
	if (h->count == 0)
		return h->sum == 0 ? 0 : -EINVAL;
	return h->min <= h->max ? 0 : -EINVAL;
}

/* A histogram's non-empty buckets: count u16, then (index u16, count u64)
 * each. */
static void
wr_buckets(uint8_t **p, const struct nb_hist *h)
{
	uint32_t b;

	wr_u16(p, (uint16_t)hist_nonempty(h));
	for (b = 0; b < NB_HIST_BUCKETS; b++) {
		if (h->buckets[b] == 0)
			continue;
		wr_u16(p, (uint16_t)b);
		wr_u64(p, h->buckets[b]);
	}
}

/* The buckets into h (its summary already read), left bytes from *p on;
 * 0, or -EPROTO (truncated, an index out of order or range, a zero
 * count, an inconsistent histogram). */
static int
rd_buckets(const uint8_t **p, size_t left, struct nb_hist *h)
{
	uint32_t nbk, b;
	int prev = -1;

	if (left < 2)
		return -EPROTO;
	nbk = rd_u16(p);
	if ((left - 2) / NB_CTL_BUCKET_LEN < nbk)
		return -EPROTO;
	for (b = 0; b < nbk; b++) {
		uint16_t idx = rd_u16(p);
		uint64_t cnt = rd_u64(p);

		if (idx >= NB_HIST_BUCKETS || (int)idx <= prev || cnt == 0)
			return -EPROTO;
		h->buckets[idx] = cnt;
		prev = idx;
	}
	return hist_check(h) != 0 ? -EPROTO : 0;
}

size_t
nb_ctl_results_size(const struct nb_ctl_stream_res *streams, uint32_t n)
{
	size_t sz = NB_CTL_RESULTS_HDR_LEN;
	uint32_t i;

	for (i = 0; i < n; i++)
		sz += NB_CTL_STREAM_RES_LEN +
		      (size_t)hist_nonempty(&streams[i].hist) *
			      NB_CTL_BUCKET_LEN;
	return sz;
}

int
nb_ctl_results_write(const struct nb_ctl_results_hdr *h,
		     const struct nb_ctl_stream_res *streams, uint32_t n,
		     uint8_t *buf, size_t len)
{
	uint8_t *p = buf;
	size_t need;
	uint32_t i;

	if (h == NULL || buf == NULL || (streams == NULL && n != 0))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (hist_check(&streams[i].hist) != 0)
			return -EINVAL;
	need = nb_ctl_results_size(streams, n);
	if (need > INT_MAX || need > UINT32_MAX)
		return -EOVERFLOW;
	if (len < need)
		return -ENOSPC;

	wr_u32(&p, NB_CTL_RESULTS_MAGIC);
	wr_u32(&p, n);
	wr_u64_fields(&p, h, hdr_u64, NB_ELEMS(hdr_u64));
	wr_u32(&p, h->impair.active ? 1 : 0);
	wr_u32(&p, 0);
	wr_u64_fields(&p, h, impair_u64, NB_ELEMS(impair_u64));
	memset(p, 0, NB_IMPAIR_SPEC_LEN);
	if (h->impair.active)
		memcpy(p, h->impair.spec,
		       strnlen(h->impair.spec, NB_IMPAIR_SPEC_LEN - 1));
	p += NB_IMPAIR_SPEC_LEN;
	wr_u64_fields(&p, h, cpu_u64, NB_ELEMS(cpu_u64));

	for (i = 0; i < n; i++) {
		const struct nb_ctl_stream_res *s = &streams[i];

		wr_u32(&p, s->id);
		wr_u64_fields(&p, s, stream_u64, NB_ELEMS(stream_u64));
		wr_buckets(&p, &s->hist);
	}
	return (int)need;
}

/* The impairment part of the header: flags, counts, a spec of printable
 * ASCII padded with NULs (empty when off): safe to print as it is. */
static int
read_impair(const uint8_t **p, struct nb_ctl_results_hdr *h)
{
	uint32_t flags = rd_u32(p), reserved = rd_u32(p);
	size_t len, i;

	rd_u64_fields(p, h, impair_u64, NB_ELEMS(impair_u64));
	memcpy(h->impair.spec, *p, NB_IMPAIR_SPEC_LEN);
	*p += NB_IMPAIR_SPEC_LEN;
	if ((flags & ~1u) != 0 || reserved != 0 ||
	    h->impair.spec[NB_IMPAIR_SPEC_LEN - 1] != '\0')
		return -EPROTO;
	len = strlen(h->impair.spec);
	for (i = 0; i < NB_IMPAIR_SPEC_LEN; i++)
		if (i < len ? h->impair.spec[i] < 0x20 ||
				      h->impair.spec[i] > 0x7e
			    : h->impair.spec[i] != '\0')
			return -EPROTO; /* printable ASCII, then NULs */
	h->impair.active = (int)(flags & 1);
	return h->impair.active || len == 0 ? 0 : -EPROTO;
}

/* CPU times no process can have: more than 4096 CPUs' worth of the wall
 * time, or times without one. */
static int
cpu_ok(const struct nb_cpu_usage *u)
{
	uint64_t most =
		u->wall_ns > UINT64_MAX / 4096 ? UINT64_MAX : u->wall_ns * 4096;

	return u->user_ns <= most && u->system_ns <= most;
}

int
nb_ctl_results_read(const uint8_t *buf, size_t len,
		    struct nb_ctl_results_hdr *h,
		    struct nb_ctl_stream_res *streams, uint32_t max,
		    uint32_t *n)
{
	const uint8_t *p = buf;
	size_t left;
	uint32_t nb, i;

	if (h == NULL || n == NULL || (buf == NULL && len != 0) ||
	    (streams == NULL && max != 0))
		return -EINVAL;
	if (len < NB_CTL_RESULTS_HDR_LEN || rd_u32(&p) != NB_CTL_RESULTS_MAGIC)
		return -EPROTO;
	nb = rd_u32(&p);
	if ((len - NB_CTL_RESULTS_HDR_LEN) / NB_CTL_STREAM_RES_LEN < nb)
		return -EPROTO;
	if (nb > max)
		return -ENOSPC;

	rd_u64_fields(&p, h, hdr_u64, NB_ELEMS(hdr_u64));
	h->pmd.nb_xstats = 0; /* not carried by the protocol */
	if (read_impair(&p, h) != 0)
		return -EPROTO;
	rd_u64_fields(&p, h, cpu_u64, NB_ELEMS(cpu_u64));
	if (!cpu_ok(&h->cpu))
		return -EPROTO;

	for (i = 0; i < nb; i++) {
		struct nb_ctl_stream_res *s = &streams[i];

		left = len - (size_t)(p - buf);
		if (left < NB_CTL_STREAM_RES_LEN)
			return -EPROTO;
		s->id = rd_u32(&p);
		nb_hist_init(&s->hist);
		rd_u64_fields(&p, s, stream_u64, NB_ELEMS(stream_u64));
		if (rd_buckets(&p, left - (NB_CTL_STREAM_RES_LEN - 2),
			       &s->hist) != 0)
			return -EPROTO;
	}
	if ((size_t)(p - buf) != len)
		return -EPROTO;
	*n = nb;
	return 0;
}

/* The TCP results blob. */
#define TCPH_U64(f)	offsetof(struct nb_ctl_tcp_hdr, f)
#define TCPH_PMD_U64(f) TCPH_U64(pmd.f),
static const uint16_t tcph_u64[] = {NB_PMD_COUNTERS(TCPH_PMD_U64)
					    TCPH_U64(cpu.wall_ns),
				    TCPH_U64(cpu.user_ns),
				    TCPH_U64(cpu.system_ns),
				    TCPH_U64(rx_pkts),
				    TCPH_U64(rx_bytes),
				    TCPH_U64(tx_pkts),
				    TCPH_U64(tx_bytes),
				    TCPH_U64(foreign),
				    TCPH_U64(bad_csum),
				    TCPH_U64(stray),
				    TCPH_U64(alloc_fail),
				    TCPH_U64(ctl_dropped),
				    TCPH_U64(cap_unit),
				    TCPH_U64(cap_rate),
				    TCPH_U64(cap_held),
				    TCPH_U64(owd.count),
				    TCPH_U64(owd.sum),
				    TCPH_U64(owd.min),
				    TCPH_U64(owd.max),
				    TCPH_U64(owd.overflow)};

#define CONN_U64(f) offsetof(struct nb_tcp_endsnap, f)
static const uint16_t conn_u64[] = {
	CONN_U64(acked),	CONN_U64(rcvd),	       CONN_U64(retrans),
	CONN_U64(fast_retrans), CONN_U64(rto),	       CONN_U64(recoveries),
	CONN_U64(cwnd),		CONN_U64(max_cwnd),    CONN_U64(srtt_ns),
	CONN_U64(rttvar_ns),	CONN_U64(min_rtt_ns),  CONN_U64(max_rtt_ns),
	CONN_U64(rtt_samples),	CONN_U64(bad_bytes),   CONN_U64(dup_bytes),
	CONN_U64(ooo_segs),	CONN_U64(segs_out),    CONN_U64(segs_in),
	CONN_U64(done_ns),	CONN_U64(all_acked_ns)};

_Static_assert(4 + 4 + 8 * NB_ELEMS(tcph_u64) + 2 == NB_CTL_TCPRES_HDR_LEN &&
		       4 + 8 * NB_ELEMS(conn_u64) == NB_CTL_TCPRES_CONN_LEN &&
		       NB_ELEMS(conn_u64) == NB_TCP_ENDSNAP_U64,
	       "the TCP field tables are the wire layout");

static int
conn_ok(const struct nb_tcp_endsnap *c)
{
	return c->state <= NB_TCP_LAST_ACK && c->error <= NB_TCP_ERR_ABORTED &&
	       c->check <= NB_TCP_CHECK_AUTO;
}

static int
cap_ok(const struct nb_ctl_tcp_hdr *h)
{
	return h->cap_unit <= NB_CTL_CAP_L1 &&
	       (h->cap_unit != NB_CTL_CAP_NONE || h->cap_rate == 0);
}

size_t
nb_ctl_tcpres_size(const struct nb_ctl_tcp_hdr *h, uint32_t n)
{
	return NB_CTL_TCPRES_HDR_LEN +
	       (size_t)hist_nonempty(&h->owd) * NB_CTL_BUCKET_LEN +
	       (size_t)n * NB_CTL_TCPRES_CONN_LEN;
}

int
nb_ctl_tcpres_write(const struct nb_ctl_tcp_hdr *h,
		    const struct nb_tcp_endsnap *conns, uint32_t n,
		    uint8_t *buf, size_t len)
{
	uint8_t *p = buf;
	size_t need;
	uint32_t i;

	if (h == NULL || buf == NULL || (conns == NULL && n != 0) ||
	    hist_check(&h->owd) != 0 || !cpu_ok(&h->cpu) || !cap_ok(h))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!conn_ok(&conns[i]))
			return -EINVAL;
	need = nb_ctl_tcpres_size(h, n);
	if (need > INT_MAX || need > UINT32_MAX)
		return -EOVERFLOW;
	if (len < need)
		return -ENOSPC;
	wr_u32(&p, NB_CTL_TCPRES_MAGIC);
	wr_u32(&p, n);
	wr_u64_fields(&p, h, tcph_u64, NB_ELEMS(tcph_u64));
	wr_buckets(&p, &h->owd);
	for (i = 0; i < n; i++) {
		wr_u8(&p, conns[i].state);
		wr_u8(&p, conns[i].error);
		wr_u8(&p, conns[i].check);
		wr_u8(&p, 0);
		wr_u64_fields(&p, &conns[i], conn_u64, NB_ELEMS(conn_u64));
	}
	return (int)need;
}

int
nb_ctl_tcpres_read(const uint8_t *buf, size_t len, struct nb_ctl_tcp_hdr *h,
		   struct nb_tcp_endsnap *conns, uint32_t max, uint32_t *n)
{
	const uint8_t *p = buf;
	size_t left;
	uint32_t nb, i;

	if (h == NULL || n == NULL || (buf == NULL && len != 0) ||
	    (conns == NULL && max != 0))
		return -EINVAL;
	if (len < NB_CTL_TCPRES_HDR_LEN || rd_u32(&p) != NB_CTL_TCPRES_MAGIC)
		return -EPROTO;
	nb = rd_u32(&p);
	memset(h, 0, sizeof(*h));
	rd_u64_fields(&p, h, tcph_u64, NB_ELEMS(tcph_u64));
	if (!cpu_ok(&h->cpu) || !cap_ok(h) ||
	    rd_buckets(&p, len - (size_t)(p - buf), &h->owd) != 0)
		return -EPROTO;
	left = len - (size_t)(p - buf);
	if (left % NB_CTL_TCPRES_CONN_LEN != 0 ||
	    left / NB_CTL_TCPRES_CONN_LEN != nb)
		return -EPROTO;
	if (nb > max)
		return -ENOSPC;
	for (i = 0; i < nb; i++) {
		struct nb_tcp_endsnap *c = &conns[i];

		memset(c, 0, sizeof(*c));
		c->state = rd_u8(&p);
		c->error = rd_u8(&p);
		c->check = rd_u8(&p);
		if (rd_u8(&p) != 0 || !conn_ok(c))
			return -EPROTO;
		rd_u64_fields(&p, c, conn_u64, NB_ELEMS(conn_u64));
	}
	*n = nb;
	return 0;
}

int
nb_ctl_results_chunk(struct nb_ctl_msg *m, const uint8_t *blob,
		     size_t total_len, uint32_t part)
{
	uint32_t clen;

	if (m == NULL || (blob == NULL && total_len != 0) ||
	    total_len > UINT32_MAX ||
	    part >= nb_ctl_results_parts((uint32_t)total_len))
		return -EINVAL;
	clen = results_chunk_len((uint32_t)total_len, part);
	m->type = NB_CTL_RESULTS;
	memset(&m->u.res, 0, sizeof(m->u.res));
	m->u.res.part = part;
	m->u.res.nb_parts = nb_ctl_results_parts((uint32_t)total_len);
	m->u.res.total_len = (uint32_t)total_len;
	m->u.res.chunk_len = (uint16_t)clen;
	if (clen > 0)
		memcpy(m->u.res.chunk, blob + (size_t)part * NB_CTL_CHUNK,
		       clen);
	return 0;
}

int
nb_ctl_results_put(uint8_t *blob, size_t cap, const struct nb_ctl_results *r)
{
	if (r == NULL || (blob == NULL && cap != 0))
		return -EINVAL;
	if (results_check(r) != 0)
		return -EPROTO;
	if (r->total_len > cap)
		return -ENOSPC;
	if (r->chunk_len > 0)
		memcpy(blob + (size_t)r->part * NB_CTL_CHUNK, r->chunk,
		       r->chunk_len);
	return 0;
}
