/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control lcore's frame I/O on a peer-facing port: sends control
 * datagrams, ARP and ICMP answers on its own TX queue, and receives control
 * frames either from the workers' hand-off rings (while workers own the RX
 * queues) or by polling the RX queues itself (between tests).
 */
#ifndef NB_CTLIO_H
#define NB_CTLIO_H

#include <stdint.h>

#include <rte_mempool.h>
#include <rte_ring.h>

#include "nb_clock.h"
#include "nb_config.h"
#include "nb_l2.h"
#include "nb_tokens.h"

/* Frames refused by a full TX queue wait here for the next poll. */
#define NB_CTLIO_PEND 32
/* ARP and ICMP echo replies: at most this many per second, in bursts of */
#define NB_CTLIO_REPLY_RATE  100
#define NB_CTLIO_REPLY_BURST 20

struct nb_ctlio;

/* Called for every valid control datagram (UDP to port 7201). */
typedef void (*nb_ctlio_msg_fn)(void *ctx, const struct nb_udp_info *u);
/* Called for ARP frames sent by someone, and over IPv6 for ICMPv6 ones
 * (resolution of --peer IP). */
typedef void (*nb_ctlio_arp_fn)(void *ctx, const uint8_t *frame, uint32_t len);

/* Called for frames of no kind of ours (NB_FRAME_FOREIGN): a TCP or UDP
 * conversation the control lcore holds itself (--iperf3's control
 * connection and its UDP connect replies). */
typedef void (*nb_ctlio_frame_fn)(void *ctx, const uint8_t *frame,
				  uint32_t len);

struct nb_ctlio {
	uint16_t port;
	uint16_t txq; /* the control lcore's own TX queue */
	/* where it sends on txq: the port, or a TLB/ALB bond's primary
	 * member (nb_port_ctl_tx_port), looked up again each second */
	uint16_t tx_port;
	uint64_t tx_port_tsc;
	uint16_t nb_rxq;
	int workers_own_rx; /* read rings, not queues */
	/*
	 * A port with one queue pair (shared_txq): txq is also a worker's.
	 * During a test that worker sends the frames (nb_ctltx), which go to
	 * it through tx_ring while tx_via_ring is set.
	 */
	int shared_txq, tx_via_ring;
	/* an 802.3ad bond: every poll bursts on txq (a zero burst when
	 * nothing waits), which sends the bond's LACPDUs between tests */
	int lacp;
	struct rte_ring *tx_ring;
	struct rte_mempool *pool;
	/*
	 * One per RX queue: --queues and the one facing the peer's control
	 * (17 with --queues 16).  Each holds ring_cap frames: together a
	 * quarter of the RX pool's spare (nb_plan_ctl_ring), so a flood of
	 * control frames cannot starve the receivers; the workers count
	 * what finds its ring full (nb_rxjob.ctl_dropped).
	 */
	struct rte_ring *rings[NB_MAX_QUEUES + 1];
	/*
	 * And one small ring per RX queue for the control frames of the
	 * session's peer (its source MAC, as the workers' data filter knows
	 * it): drained first, and never crowded out by a flood in rings[].
	 */
	struct rte_ring *peer_rings[NB_MAX_QUEUES + 1];
	/*
	 * The session's peer, as the workers' filter knows it (source MAC
	 * and the two bytes after it read as 8 bytes; mask 0: no session).
	 * Between tests the control lcore reads the queues itself: every
	 * frame of the peer's is handled, of the others at most
	 * NB_CTLIO_SHED_BUDGET a queue a poll (nb_ctlio_set_peer).
	 */
	uint64_t peer_want, peer_mask;
	unsigned int ring_cap, rx_spare;
	/* frames the TX queue refused, oldest first (never waited for) */
	struct rte_mbuf *pend[NB_CTLIO_PEND];
	uint16_t pend_head, pend_n;
	struct nb_clock clk; /* timer cycles -> ns, for the buckets */
	struct nb_tokens arp_tokens, icmp_tokens;
	uint8_t mac[6];
	uint32_t ip; /* IPv4; over IPv6 (v6) ip6's nb_ip6_key */
	uint8_t v6;  /* control over IPv6 (nb_ctlio_set_ip6) */
	uint8_t ip6[16];
	uint16_t vlan_id;
	nb_ctlio_msg_fn on_msg;
	nb_ctlio_arp_fn on_arp;
	void *ctx;
	nb_ctlio_frame_fn on_other; /* NULL: such frames are stray */
	void *other_ctx;
	/*
	 * Fault injection for tests (environment NB_CTL_FAULTS, e.g.
	 * "loss=30,dup=20,reorder=20,seed=7", percentages): received
	 * control datagrams are dropped, handed over twice, or held back
	 * and handed over after the next one.  Off unless set.
	 */
	unsigned int f_loss, f_dup, f_reorder;
	uint8_t f_drop_type; /* drop=TYPE: the first datagram of this type */
	uint64_t f_rng;
	int f_held;
	struct nb_udp_info f_held_u;
	uint8_t f_held_buf[1600];
	uint64_t f_dropped, f_duplicated, f_reordered;
	/* counters (control lcore only) */
	uint64_t tx_frames;   /* frames the PMD took on txq */
	uint64_t tx_deferred; /* ... of them first refused, sent later */
	uint64_t tx_fail;     /* frames given up: no mbuf, or pend[] full */
	uint64_t tx_handed;   /* frames put on tx_ring for the worker */
	uint64_t rx_polled;   /* frames read from queues directly */
	uint64_t rx_shed;     /* of those, from others than the session's
			       * peer, over a poll's budget: dropped unread */
	uint64_t rx_ctl, rx_bad, arp_answered, icmp_answered, stray;
	uint64_t nd_answered;		    /* neighbour solicitations (IPv6) */
	uint64_t arp_limited, icmp_limited; /* replies the buckets refused */
};

/* Frames the control lcore may have on its way to the worker (tx_ring). */
/* frames of others than the session's peer handled a queue a poll
 * while the control lcore reads the queues itself (a session open) */
#define NB_CTLIO_SHED_BUDGET 64u
/* the session peer's hand-off ring, per RX queue (a multiple of 32) */
#define NB_CTLIO_PEER_RING 128u
#define NB_CTLIO_TX_RING   64

/*
 * shared_txq: txq is also the TX queue of a worker (a port with one queue
 * pair); tx_ring is created for nb_ctlio_tx_via_ring().
 */
int nb_ctlio_init(struct nb_ctlio *io, uint16_t port, uint16_t nb_rxq,
		  uint16_t txq, int shared_txq, const uint8_t mac[6],
		  uint32_t ip, uint16_t vlan_id);
void nb_ctlio_free(struct nb_ctlio *io);

/*
 * Control over IPv6 from this address (before any frame): datagrams to
 * and from it only (IPv4 ones are stray), neighbour solicitations for it
 * and ICMPv6 echo to it answered instead of ARP and ICMP.
 */
void nb_ctlio_set_ip6(struct nb_ctlio *io, const uint8_t ip6[16]);

/*
 * Shared TX queue, before the workers start: from now on the frames go on
 * tx_ring for the worker that sends them (its nb_ctltx).
 */
void nb_ctlio_tx_via_ring(struct nb_ctlio *io);
/*
 * After the workers stopped: the worker sent `sent` frames; `left` are the
 * n it still held, oldest first.  Those, then what is still on tx_ring,
 * then pend[] are offered on the queue directly again, in that order; the
 * control lcore sends itself from now on.
 */
void nb_ctlio_tx_back(struct nb_ctlio *io, struct rte_mbuf **left, uint16_t n,
		      uint64_t sent);

/*
 * Send one frame (len bytes, no FCS) on the control TX queue; never waits.
 * A frame the queue refuses waits in pend[] (behind any already there) and
 * is offered again on the next call or nb_ctlio_poll(); with pend[] full it
 * is dropped (tx_fail, -ENOBUFS): the control protocol retransmits.
 * 0 when sent or queued.
 */
int nb_ctlio_send_frame(struct nb_ctlio *io, const uint8_t *frame,
			uint16_t len);

/* Send payload as a UDP datagram 7201 -> 7201 to dst: dst_ip, or over
 * IPv6 dst_ip6. */
int nb_ctlio_send_msg(struct nb_ctlio *io, const uint8_t dst_mac[6],
		      uint32_t dst_ip, const uint8_t *dst_ip6,
		      const uint8_t *payload, uint16_t len);

/*
 * Offer the waiting frames again, then handle what has arrived; returns the
 * number of frames looked at.
 */
unsigned int nb_ctlio_poll(struct nb_ctlio *io);

/* The session's peer (its MAC), or none (NULL): see peer_want. */
void nb_ctlio_set_peer(struct nb_ctlio *io, const uint8_t mac[6]);

#endif /* NB_CTLIO_H */
