/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <rte_mbuf.h>

#include "nb_ctl.h"
#include "nb_ctlio.h"
#include "nb_frame.h"
#include "nb_l2_v6.h"
#include "nb_log.h"
#include "nb_pool.h"
#include "nb_port.h"
#include "nb_seam.h"

#define CTL_POOL_SIZE 1023

static void
faults_init(struct nb_ctlio *io)
{
	const char *env = getenv("NB_CTL_FAULTS");
	char buf[128], *tok, *save = NULL;

	io->f_rng = 0x9e3779b97f4a7c15ull;
	if (env == NULL || strlen(env) >= sizeof(buf))
		return;
	strcpy(buf, env);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned long v;
		char *eq = strchr(tok, '=');

		if (eq == NULL)
			continue;
		*eq = '\0';
		if (strcmp(tok, "drop") == 0) {
			uint8_t t;

			for (t = 1; t < NB_CTL_TYPE_MAX; t++)
				if (strcasecmp(eq + 1, nb_ctl_type_name(t)) ==
				    0)
					io->f_drop_type = t;
			if (io->f_drop_type == 0)
				NB_LOG(WARNING,
				       "NB_CTL_FAULTS: drop=%s is no message "
				       "type (docs/protocol.md); ignored",
				       eq + 1);
			continue;
		}
		v = strtoul(eq + 1, NULL, 10);
		if (strcmp(tok, "loss") == 0)
			io->f_loss = (unsigned int)(v > 100 ? 100 : v);
		else if (strcmp(tok, "dup") == 0)
			io->f_dup = (unsigned int)(v > 100 ? 100 : v);
		else if (strcmp(tok, "reorder") == 0)
			io->f_reorder = (unsigned int)(v > 100 ? 100 : v);
		else if (strcmp(tok, "seed") == 0)
			io->f_rng ^= v * 0x2545f4914f6cdd1dull;
	}
	if (io->f_loss || io->f_dup || io->f_reorder)
		NB_LOG(NOTICE,
		       "NB_CTL_FAULTS: dropping %u%%, duplicating %u%%, "
		       "reordering %u%% of received control datagrams",
		       io->f_loss, io->f_dup, io->f_reorder);
	if (io->f_drop_type)
		NB_LOG(NOTICE,
		       "NB_CTL_FAULTS: dropping the first %s datagram "
		       "received",
		       nb_ctl_type_name(io->f_drop_type));
}

static unsigned int
faults_roll(struct nb_ctlio *io)
{
	io->f_rng ^= io->f_rng << 13;
	io->f_rng ^= io->f_rng >> 7;
	io->f_rng ^= io->f_rng << 17;
	return (unsigned int)(io->f_rng % 100);
}

/* Hand a control datagram over, through the injected faults if any. */
static void
deliver(struct nb_ctlio *io, const struct nb_udp_info *u)
{
	struct nb_udp_info held;
	uint8_t buf[1600];

	if (io->on_msg == NULL)
		return;
	if (io->f_drop_type &&
	    nb_ctl_peek_type(u->payload, u->payload_len) == io->f_drop_type) {
		NB_LOG(NOTICE, "NB_CTL_FAULTS: dropped a %s datagram",
		       nb_ctl_type_name(io->f_drop_type));
		io->f_drop_type = 0; /* once */
		io->f_dropped++;
		return;
	}
	if (io->f_loss && faults_roll(io) < io->f_loss) {
		io->f_dropped++;
		return;
	}
	if (io->f_reorder && !io->f_held && u->payload_len <= sizeof(buf) &&
	    faults_roll(io) < io->f_reorder) {
		/* keep it back: it goes after the next one */
		io->f_held_u = *u;
		memcpy(io->f_held_buf, u->payload, u->payload_len);
		io->f_held_u.payload = io->f_held_buf;
		io->f_held = 1;
		io->f_reordered++;
		return;
	}
	io->on_msg(io->ctx, u);
	if (io->f_dup && faults_roll(io) < io->f_dup) {
		io->f_duplicated++;
		io->on_msg(io->ctx, u);
	}
	if (io->f_held) {
		held = io->f_held_u;
		memcpy(buf, io->f_held_buf, held.payload_len);
		held.payload = buf;
		io->f_held = 0;
		io->on_msg(io->ctx, &held);
	}
}

int
nb_ctlio_init(struct nb_ctlio *io, uint16_t port, uint16_t nb_rxq, uint16_t txq,
	      int shared_txq, const uint8_t mac[6], uint32_t ip,
	      uint16_t vlan_id)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	struct nb_pool_budget b;
	uint64_t now;
	uint16_t q;
	int socket = nb_port_socket(port);

	memset(io, 0, sizeof(*io));
	io->port = port;
	io->txq = txq;
	io->tx_port = nb_port_ctl_tx_port(port);
	io->tx_port_tsc = nb_glue_tsc();
	io->shared_txq = shared_txq;
	io->nb_rxq = nb_rxq;
	io->lacp = nb_port_lacp(port);
	memcpy(io->mac, mac, 6);
	io->ip = ip;
	faults_init(io);
	io->vlan_id = vlan_id;
	now = nb_glue_tsc();
	nb_clock_init(&io->clk, nb_glue_tsc_hz(), now);
	nb_tokens_init(&io->arp_tokens, NB_CTLIO_REPLY_RATE,
		       NB_CTLIO_REPLY_BURST, 0);
	nb_tokens_init(&io->icmp_tokens, NB_CTLIO_REPLY_RATE,
		       NB_CTLIO_REPLY_BURST, 0);
	if (nb_rxq > RTE_DIM(io->rings))
		return -EINVAL;
	/* the rings' share of the RX pool (nb_plan.h) */
	if (nb_port_rx_budget(port, &b) != 0)
		return -ENOENT;
	b.nb_rxq = nb_rxq;
	io->ring_cap = nb_plan_ctl_ring(&b, &io->rx_spare);
	if (io->ring_cap == 0) {
		NB_LOG(ERR,
		       "port %u: the RX pool (%llu mbufs) has no spare for "
		       "the control hand-off rings",
		       port, (unsigned long long)b.pool);
		return -ENOSPC;
	}
	NB_LOG(DEBUG,
	       "port %u: %u control hand-off rings of %u frames (RX pool "
	       "%llu mbufs, %u spare)",
	       port, nb_rxq, io->ring_cap, (unsigned long long)b.pool,
	       io->rx_spare);
	snprintf(name, sizeof(name), "nb_ctl_p%u", port);
	io->pool = nb_pool_get(name, CTL_POOL_SIZE, socket);
	if (io->pool == NULL)
		return -ENOMEM;
	for (q = 0; q < nb_rxq; q++) {
		snprintf(name, sizeof(name), "nb_ctl_p%u_q%u", port, q);
		/* exact size: capacity ring_cap, not a power of 2 minus 1 */
		io->rings[q] = nb_ring_create(name, io->ring_cap, socket);
		if (io->rings[q] == NULL) {
			nb_ctlio_free(io);
			return -ENOMEM;
		}
		snprintf(name, sizeof(name), "nb_ctlpeer_p%u_q%u", port, q);
		io->peer_rings[q] = nb_ring_create(
			name, RTE_MIN(io->ring_cap, NB_CTLIO_PEER_RING),
			socket);
		if (io->peer_rings[q] == NULL) {
			nb_ctlio_free(io);
			return -ENOMEM;
		}
	}
	if (shared_txq) {
		snprintf(name, sizeof(name), "nb_ctltx_p%u", port);
		io->tx_ring = nb_ring_create(name, NB_CTLIO_TX_RING, socket);
		if (io->tx_ring == NULL) {
			nb_ctlio_free(io);
			return -ENOMEM;
		}
	}
	return 0;
}

/* The port control's frames leave on (a bond's primary may change). */
static uint16_t
tx_port(struct nb_ctlio *io)
{
	uint64_t now = nb_glue_tsc();

	if (now - io->tx_port_tsc >= nb_glue_tsc_hz()) {
		io->tx_port = nb_port_ctl_tx_port(io->port);
		io->tx_port_tsc = now;
	}
	return io->tx_port;
}

/* Give frames to the queue, or to the worker that sends for us. */
static uint16_t
offer(struct nb_ctlio *io, struct rte_mbuf **m, uint16_t n)
{
	uint16_t k;

	if (io->tx_via_ring) {
		k = (uint16_t)rte_ring_sp_enqueue_burst(io->tx_ring, (void **)m,
							n, NULL);
		io->tx_handed += k;
		return k;
	}
	k = nb_port_tx(tx_port(io), io->txq, m, n);
	io->tx_frames += k;
	return k;
}

/* Offer what waits in pend[], oldest first, until the queue refuses. */
static void
pend_flush(struct nb_ctlio *io)
{
	while (io->pend_n > 0) {
		uint16_t n = io->pend_n, sent;

		if (n > NB_CTLIO_PEND - io->pend_head)
			n = (uint16_t)(NB_CTLIO_PEND - io->pend_head);
		sent = offer(io, &io->pend[io->pend_head], n);
		io->tx_deferred += sent;
		io->pend_head =
			(uint16_t)((io->pend_head + sent) % NB_CTLIO_PEND);
		io->pend_n = (uint16_t)(io->pend_n - sent);
		if (sent < n)
			return;
	}
}

/* Free a hand-off ring and the frames still in it. */
static void
ring_drop(struct rte_ring **r)
{
	struct rte_mbuf *m;

	if (*r == NULL)
		return;
	while (rte_ring_sc_dequeue(*r, (void **)&m) == 0)
		rte_pktmbuf_free(m);
	nb_ring_free(*r);
	*r = NULL;
}

void
nb_ctlio_free(struct nb_ctlio *io)
{
	struct rte_mbuf *m;
	uint16_t q;

	/* one last offer, then what is still refused goes */
	if (io->tx_via_ring)
		nb_ctlio_tx_back(io, NULL, 0, 0);
	pend_flush(io);
	while (io->pend_n > 0) {
		rte_pktmbuf_free(io->pend[io->pend_head]);
		io->pend_head = (uint16_t)((io->pend_head + 1) % NB_CTLIO_PEND);
		io->pend_n--;
		io->tx_fail++;
	}
	for (q = 0; q < RTE_DIM(io->rings); q++) {
		ring_drop(&io->rings[q]);
		ring_drop(&io->peer_rings[q]);
	}
	if (io->tx_ring != NULL) {
		while (rte_ring_sc_dequeue(io->tx_ring, (void **)&m) == 0) {
			rte_pktmbuf_free(m);
			io->tx_fail++;
		}
		nb_ring_free(io->tx_ring);
		io->tx_ring = NULL;
	}
	if (io->pool != NULL)
		rte_log(io->arp_limited || io->icmp_limited || io->tx_fail ||
					io->rx_shed
				? RTE_LOG_NOTICE
				: RTE_LOG_DEBUG,
			nb_logtype,
			"dpdk-nbench: control I/O on port %u: sent %llu "
			"(%llu after a refusal, %llu through a worker, %llu "
			"dropped), ARP answered "
			"%llu, neighbour solicitations answered %llu "
			"(rate-limited %llu), ICMP answered %llu "
			"(rate-limited %llu), bad %llu, stray %llu, shed "
			"%llu\n",
			io->port, (unsigned long long)io->tx_frames,
			(unsigned long long)io->tx_deferred,
			(unsigned long long)io->tx_handed,
			(unsigned long long)io->tx_fail,
			(unsigned long long)io->arp_answered,
			(unsigned long long)io->nd_answered,
			(unsigned long long)io->arp_limited,
			(unsigned long long)io->icmp_answered,
			(unsigned long long)io->icmp_limited,
			(unsigned long long)io->rx_bad,
			(unsigned long long)io->stray,
			(unsigned long long)io->rx_shed);
	/* the pool stays until exit: the TX ring may still hold its mbufs */
	io->pool = NULL;
}

void
nb_ctlio_tx_via_ring(struct nb_ctlio *io)
{
	if (io->tx_ring != NULL)
		io->tx_via_ring = 1;
}

void
nb_ctlio_tx_back(struct nb_ctlio *io, struct rte_mbuf **left, uint16_t n,
		 uint64_t sent)
{
	/* a worker holds at most a burst of 32, like pend[] */
	struct rte_mbuf *all[2 * NB_CTLIO_PEND + NB_CTLIO_TX_RING];
	unsigned int k = 0, i, taken;
	struct rte_mbuf *m;

	io->tx_frames += sent;
	io->tx_via_ring = 0;
	for (i = 0; i < n && k < RTE_DIM(all); i++)
		all[k++] = left[i];
	while (k < RTE_DIM(all) &&
	       rte_ring_sc_dequeue(io->tx_ring, (void **)&m) == 0)
		all[k++] = m;
	while (io->pend_n > 0 && k < RTE_DIM(all)) {
		all[k++] = io->pend[io->pend_head];
		io->pend_head = (uint16_t)((io->pend_head + 1) % NB_CTLIO_PEND);
		io->pend_n--;
	}
	io->pend_head = 0;
	taken = k ? nb_port_tx(tx_port(io), io->txq, all, (uint16_t)k) : 0;
	io->tx_frames += taken;
	for (i = taken; i < k; i++) {
		if (io->pend_n < NB_CTLIO_PEND) {
			io->pend[io->pend_n++] = all[i];
			continue;
		}
		rte_pktmbuf_free(all[i]);
		io->tx_fail++;
	}
}

int
nb_ctlio_send_frame(struct nb_ctlio *io, const uint8_t *frame, uint16_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(io->pool);
	char *d;

	if (m == NULL) {
		io->tx_fail++;
		return -ENOMEM;
	}
	d = rte_pktmbuf_append(m, len);
	if (d == NULL) {
		rte_pktmbuf_free(m);
		io->tx_fail++;
		return -ENOSPC;
	}
	memcpy(d, frame, len);
	/*
	 * The link may be flooded by test traffic: never wait for the queue.
	 * Frames go out in order, so a new one goes behind those waiting.
	 */
	pend_flush(io);
	if (io->pend_n == 0 && offer(io, &m, 1) == 1)
		return 0;
	if (io->pend_n < NB_CTLIO_PEND) {
		io->pend[(io->pend_head + io->pend_n) % NB_CTLIO_PEND] = m;
		io->pend_n++;
		return 0;
	}
	rte_pktmbuf_free(m);
	io->tx_fail++;
	return -ENOBUFS;
}

void
nb_ctlio_set_ip6(struct nb_ctlio *io, const uint8_t ip6[16])
{
	io->v6 = 1;
	memcpy(io->ip6, ip6, 16);
	io->ip = nb_ip6_key(ip6);
}

int
nb_ctlio_send_msg(struct nb_ctlio *io, const uint8_t dst_mac[6],
		  uint32_t dst_ip, const uint8_t *dst_ip6,
		  const uint8_t *payload, uint16_t len)
{
	uint8_t frame[1600];
	struct nb_udp_info h;
	int n;

	memset(&h, 0, sizeof(h));
	memcpy(h.dst_mac, dst_mac, 6);
	memcpy(h.src_mac, io->mac, 6);
	h.vlan_id = io->vlan_id;
	h.src_ip = io->ip;
	h.dst_ip = dst_ip;
	h.v6 = io->v6;
	if (io->v6) {
		if (dst_ip6 == NULL)
			return -EINVAL;
		memcpy(h.src_ip6, io->ip6, 16);
		memcpy(h.dst_ip6, dst_ip6, 16);
	}
	h.src_port = NB_CONTROL_UDP_PORT;
	h.dst_port = NB_CONTROL_UDP_PORT;
	n = nb_udp_frame_build(frame, sizeof(frame), &h, payload, len);
	if (n < 0)
		return n;
	return nb_ctlio_send_frame(io, frame, (uint16_t)n);
}

static uint64_t
now_ns(const struct nb_ctlio *io)
{
	return nb_clock_ns(&io->clk, nb_glue_tsc());
}

/* u is to our address. */
static int
addressed_to_us(const struct nb_ctlio *io, const struct nb_udp_info *u)
{
	return io->v6 ? memcmp(u->dst_ip6, io->ip6, 16) == 0
		      : u->dst_ip == io->ip;
}

/* An answer in out (n bytes, 0: none) within bucket t's rate. */
static void
answer(struct nb_ctlio *io, const uint8_t *out, int n, struct nb_tokens *t,
       uint64_t *answered, uint64_t *limited)
{
	if (n <= 0)
		return;
	if (!nb_tokens_take(t, now_ns(io))) {
		(*limited)++;
		return;
	}
	if (nb_ctlio_send_frame(io, out, (uint16_t)n) == 0)
		(*answered)++;
}

/* ICMPv6 over IPv6 control: an advertisement to the session's resolver
 * (on_arp), a solicitation for our address and an echo request to it
 * answered, each within its bucket (as ARP and ICMP echo).  The type is
 * read where the parsers want it (no extension header), so a frame meets
 * one strict parser: one checksum pass, however large a flood's frames. */
static void
handle_icmp6(struct nb_ctlio *io, const uint8_t *p, uint32_t len)
{
	uint32_t at = NB_ETH_HLEN + NB_IPV6_HLEN +
		      (nb_get_be16(p + NB_ETH_OFF_TYPE) == NB_ETHERTYPE_VLAN
			       ? NB_VLAN_HLEN
			       : 0);
	uint8_t out[NB_FRAME_MAX], type = io->v6 && len > at ? p[at] : 0;

	if (type == NB_ICMP6_NA && io->on_arp != NULL)
		io->on_arp(io->ctx, p, len);
	else if (type == NB_ICMP6_NS)
		answer(io, out,
		       nb_ndp_answer(p, len, io->mac, io->ip6, out,
				     sizeof(out)),
		       &io->arp_tokens, &io->nd_answered, &io->arp_limited);
	else if (type == NB_ICMP6_ECHO_REQUEST)
		answer(io, out,
		       nb_icmp6_echo_answer(p, len, io->mac, io->ip6, out,
					    sizeof(out)),
		       &io->icmp_tokens, &io->icmp_answered, &io->icmp_limited);
	else if (type != NB_ICMP6_NA)
		io->stray++;
}

/* One frame, of the kind the worker (or our own poll) found it to be. */
static void
handle(struct nb_ctlio *io, struct rte_mbuf *m, enum nb_frame_kind kind)
{
	uint8_t out[NB_FRAME_MAX];
	const uint8_t *p;
	struct nb_udp_info u;
	uint32_t len;
	int n;

	if (m->nb_segs != 1) {
		io->rx_bad++;
		return;
	}
	p = rte_pktmbuf_mtod(m, const uint8_t *);
	len = m->data_len;
	switch (kind) {
	case NB_FRAME_CONTROL:
		if (nb_udp_frame_parse(p, len, &u) != 0 ||
		    u.dst_port != NB_CONTROL_UDP_PORT) {
			io->rx_bad++;
			return;
		}
		/*
		 * Another host's conversation, flooded to us: neither our
		 * MAC nor our address; or of the other family.
		 */
		if (u.v6 != io->v6 || (!addressed_to_us(io, &u) &&
				       memcmp(u.dst_mac, io->mac, 6) != 0)) {
			io->stray++;
			return;
		}
		io->rx_ctl++;
		deliver(io, &u);
		return;
	case NB_FRAME_ICMP6:
		handle_icmp6(io, p, len);
		return;
	case NB_FRAME_ARP:
		if (io->v6) {
			io->stray++;
			return;
		}
		if (io->on_arp != NULL)
			io->on_arp(io->ctx, p, len);
		n = nb_arp_answer(p, len, io->mac, io->ip, out, sizeof(out));
		if (n <= 0)
			return;
		/* anyone may ask: a bounded rate of answers (nb_ctlio.h) */
		if (!nb_tokens_take(&io->arp_tokens, now_ns(io))) {
			io->arp_limited++;
			return;
		}
		if (nb_ctlio_send_frame(io, out, (uint16_t)n) == 0)
			io->arp_answered++;
		return;
	case NB_FRAME_ICMP:
		if (io->v6) {
			io->stray++;
			return;
		}
		n = nb_icmp_echo_answer(p, len, io->mac, io->ip, out,
					sizeof(out));
		if (n <= 0)
			return;
		if (!nb_tokens_take(&io->icmp_tokens, now_ns(io))) {
			io->icmp_limited++;
			return;
		}
		if (nb_ctlio_send_frame(io, out, (uint16_t)n) == 0)
			io->icmp_answered++;
		return;
	default:
		if (kind == NB_FRAME_FOREIGN && io->on_other != NULL)
			io->on_other(io->other_ctx, p, len);
		else
			io->stray++;
		return;
	}
}

/* bursts of 32 taken from a queue's ring per poll: bounded, so that a
 * flood costs the control lcore (which shares a CPU with a worker on a
 * small host) a bounded share; the rest waits or is dropped by the
 * workers when the ring is full, while the session's own frames come
 * through peer_rings */
#define NB_CTLIO_DRAIN 8
/* bursts read from an RX queue a poll between tests with a session open:
 * enough to empty a 1024-descriptor queue */
#define NB_CTLIO_RX_BURSTS 32

/* Handle up to `bursts` bursts of what the workers handed over through
 * ring r; the count taken. */
static unsigned int
drain(struct nb_ctlio *io, struct rte_ring *r, unsigned int bursts)
{
	struct rte_mbuf *pkts[32];
	unsigned int n, i, k, got = 0;

	for (k = 0; k < bursts; k++) {
		n = rte_ring_sc_dequeue_burst(r, (void **)pkts, 32, NULL);
		for (i = 0; i < n; i++) {
			handle(io, pkts[i],
			       (enum nb_frame_kind)pkts[i]->hash.usr);
			rte_pktmbuf_free(pkts[i]);
		}
		got += n;
		if (n < 32)
			break;
	}
	return got;
}

/* One RX queue read by the control lcore; the count taken. */
static unsigned int
poll_queue(struct nb_ctlio *io, uint16_t q)
{
	struct rte_mbuf *pkts[32];
	struct nb_stamp st;
	unsigned int n, i, k, taken = 0;
	unsigned int bursts = io->peer_mask ? NB_CTLIO_RX_BURSTS : 1;
	unsigned int budget = io->peer_mask ? NB_CTLIO_SHED_BUDGET : 32;

	for (k = 0; k < bursts; k++) {
		n = nb_port_rx(io->port, q, pkts, 32);
		io->rx_polled += n;
		for (i = 0; i < n; i++) {
			const uint8_t *p =
				rte_pktmbuf_mtod(pkts[i], const uint8_t *);
			uint64_t src = 0;
			int peer;

			if (pkts[i]->data_len >= 14)
				memcpy(&src, p + 6, 8);
			peer = io->peer_mask != 0 &&
			       ((src ^ io->peer_want) & io->peer_mask) == 0;
			if (!peer && budget == 0) {
				io->rx_shed++;
				rte_pktmbuf_free(pkts[i]);
				continue;
			}
			budget -= !peer;
			handle(io, pkts[i],
			       nb_frame_parse(p, pkts[i]->data_len,
					      pkts[i]->data_len, &st));
			rte_pktmbuf_free(pkts[i]);
		}
		taken += n;
		if (n < 32)
			break;
	}
	return taken;
}

void
nb_ctlio_set_peer(struct nb_ctlio *io, const uint8_t mac[6])
{
	uint8_t want[8] = {0}, mask[8] = {0};

	if (mac != NULL) {
		memcpy(want, mac, 6);
		memset(mask, 0xff, 6);
	}
	memcpy(&io->peer_want, want, 8);
	memcpy(&io->peer_mask, mask, 8);
}

unsigned int
nb_ctlio_poll(struct nb_ctlio *io)
{
	unsigned int got, total = 0;
	uint16_t q;

	pend_flush(io);
	if (io->lacp && io->pend_n == 0 && !io->tx_via_ring)
		nb_port_tx(io->port, io->txq, NULL, 0);
	for (q = 0; q < io->nb_rxq; q++) {
		/* what the workers handed over (also after they stopped),
		 * each with the kind the worker found; up to NB_CTLIO_DRAIN
		 * bursts a poll: a flood of control frames (each cheap to
		 * refuse) must not fill the ring and crowd out the session's
		 * own between two naps */
		got = drain(io, io->peer_rings[q], NB_CTLIO_PEER_RING / 32);
		got += drain(io, io->rings[q], NB_CTLIO_DRAIN);
		total += got;
		/* between tests (no worker polls): the queue itself.  With
		 * a session open, the queue is emptied (so that a flood does
		 * not bury the peer's frames in a full queue) and the peer's
		 * frames are all handled, the others' up to a budget */
		if (got == 0 && !io->workers_own_rx)
			total += poll_queue(io, q);
	}
	return total;
}
