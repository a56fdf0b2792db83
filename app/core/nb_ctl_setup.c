/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The bodies of the messages that set a test up: HELLO and WELCOME (each
 * end's configuration), PARAMS (the test a client asks for) and ACCEPT
 * (what the responder will do): each one's checks, writer and reader,
 * rows of the message table in nb_ctl_msgs.c.
 */
#include <errno.h>
#include <string.h>

#include "nb_config.h"
#include "nb_ctl.h"
#include "nb_ctl_msgs.h"
#include "nb_ctl_wire.h"
#include "nb_frame.h"

int
nb_ctl_conf_check(const struct nb_ctl_msg *m)
{
	const struct nb_ctl_conf *c = &m->u.conf;

	if (!has_nul(c->tool_version, sizeof(c->tool_version)) ||
	    !has_nul(c->dpdk_version, sizeof(c->dpdk_version)) ||
	    !has_nul(c->host, sizeof(c->host)) ||
	    !has_nul(c->cpu, sizeof(c->cpu)) ||
	    !has_nul(c->os, sizeof(c->os)) ||
	    !has_nul(c->driver, sizeof(c->driver)) ||
	    !has_nul(c->boot_id, sizeof(c->boot_id)) || c->numa_node < -1 ||
	    (c->flags & ~NB_CTL_CONF_F_KEY) != 0 || !nb_ctl_offer_ok(&c->offer))
		return -EINVAL;
	return 0;
}

void
nb_ctl_conf_write(uint8_t **p, const struct nb_ctl_msg *m)
{
	const struct nb_ctl_conf *c = &m->u.conf;

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
	nb_ctl_offer_write(p, &c->offer);
}

/* Returns 1 if all string fields were canonical. */
int
nb_ctl_conf_read(const uint8_t **p, struct nb_ctl_msg *m)
{
	struct nb_ctl_conf *c = &m->u.conf;
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
	ok &= nb_ctl_offer_read(p, &c->offer);
	return ok;
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

int
nb_ctl_accept_check(const struct nb_ctl_msg *m)
{
	const struct nb_ctl_accept *a = &m->u.accept;
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

/* ACCEPT: rx_queues, the MAC list, offloads (flags u32, flow control
 * u8, 3 reserved), NUMA (nodes, port node, workers, cross: 4 x u16), the
 * four reasons */
void
nb_ctl_accept_write(uint8_t **p, const struct nb_ctl_msg *m)
{
	const struct nb_ctl_accept *a = &m->u.accept;
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

int
nb_ctl_accept_read(const uint8_t **p, struct nb_ctl_msg *m)
{
	struct nb_ctl_accept *a = &m->u.accept;
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

int
nb_ctl_params_check(const struct nb_ctl_msg *m)
{
	const struct nb_ctl_params *p = &m->u.params;
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
	    p->latency_rate > NB_CTL_MAX_LATENCY_RATE || !nb_ctl_mesh_ok(p) ||
	    p->peer_timeout_ms < NB_CTL_MIN_PEER_TIMEOUT_MS ||
	    p->peer_timeout_ms > NB_CTL_MAX_PEER_TIMEOUT_MS ||
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

void
nb_ctl_params_write(uint8_t **p, const struct nb_ctl_msg *m)
{
	const struct nb_ctl_params *q = &m->u.params;
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
	wr_u32(p, q->peer_timeout_ms);
	wr_macs(p, &q->client_macs);
	nb_ctl_mesh_write(p, &q->mesh);
	nb_ctl_wr_proof(p, &q->proof);
}

/* Returns 1 if the unused array slots are zero. */
int
nb_ctl_params_read(const uint8_t **p, struct nb_ctl_msg *m)
{
	struct nb_ctl_params *q = &m->u.params;
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
	q->peer_timeout_ms = rd_u32(p);
	if (!rd_macs(p, &q->client_macs))
		ok = 0;
	ok &= nb_ctl_mesh_read(p, &q->mesh);
	nb_ctl_rd_proof(p, &q->proof);
	return ok;
}
