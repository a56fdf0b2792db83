/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The closed-loop TCP worker (--tcp): a job owns one queue pair of a port
 * and every connection end on it, clients (they connect and send) or
 * servers (they listen, take the data in and ACK it).  A worker runs one
 * or two jobs.  Per turn and job: an RX burst, each frame parsed and
 * handed to its connection (a stray TCP segment gets a RST, anything else
 * is counted foreign), then the connections asked round robin for their
 * segments until a burst is full, then one TX burst; what the queue does
 * not take waits for the next turn (TCP has counted it as sent).  The
 * connections' state and counters are written by this worker only; the
 * control lcore reads them for the reports.
 */
#ifndef NB_TCP_ENGINE_H
#define NB_TCP_ENGINE_H

#include <stdint.h>

#include <rte_common.h>
#include <rte_mempool.h>

#include "nb_frame.h"
#include "nb_hist.h"
#include "nb_tcp.h"
#include "nb_tcp_app.h"
#include "nb_tcp_isn.h"
#include "nb_tcp_wire.h"
#include "nb_tokens.h"
#include "nb_worker.h"

#define NB_TCP_SEGS_PER_TURN NB_BURST /* one connection's segments per turn */
#define NB_TCP_STASH	     (2 * NB_BURST)
#define NB_TCP_ZC_MIN	     256 /* payload bytes below which a copy is cheaper */
/* the longest payload read at one place of the pattern: its slack past a
 * period, the buffer of a pinned payload mbuf */
#define NB_TCP_ZC_MAX (NB_TCP_PATTERN_SPAN - NB_TCP_PATTERN_PERIOD)

/* mbufs in hand for the next segments (refilled once half empty) */
struct nb_tcp_stash {
	uint16_t n;
	struct rte_mbuf *m[NB_TCP_STASH];
};

struct nb_tcp_end {
	struct nb_tcp_conn c;
	struct nb_flow f;	 /* our frames: we are the source */
	struct nb_tcp_tmpl tmpl; /* f's data-segment headers, zero copy */
	uint64_t open_ns;	 /* the SYN (sent, or taken by a listener) */
	uint64_t done_ns;	 /* nb_tcp_finished() first seen; 0 not yet */
	uint64_t all_acked_ns;	 /* a sender: every byte acknowledged */
	/* --pingpong: messages given to TCP, and when the last one was */
	uint64_t pp_count, pp_sent_ns;
} __rte_cache_aligned;

struct nb_tcpjob;
struct nb_run;
/* A job's RX burst on queue q, and its TX turn: one specialisation each,
 * chosen by nb_tcp_job_select() for what the job is. */
typedef void (*nb_tcp_rx_fn)(struct nb_tcpjob *j, uint16_t q,
			     const struct nb_run *run);
typedef void (*nb_tcp_tx_fn)(struct nb_tcpjob *j, uint64_t now);

struct nb_tcpjob {
	nb_tcp_rx_fn rx_step;
	nb_tcp_tx_fn tx_step;
	uint16_t port, queue;
	uint8_t server;
	uint8_t sends; /* its ends send data (all_acked_ns) */
	/* this turn's RX brought a full burst (more frames at hand): a
	 * receiver's ACKs may wait (nb_tcp_ack_can_wait) */
	uint8_t rx_full;
	/* the PMD flags L4 checksums it checked.  Not set: enabling RX
	 * checksum offload on virtio-user lets vhost hand over frames whose
	 * sender left the checksum to it (VIRTIO_NET_F_GUEST_CSUM), so the
	 * bytes on the wire are not what a NIC would carry */
	uint8_t rx_csum_hw;
	uint32_t n;	    /* connection ends */
	uint16_t port_base; /* end i is the client port port_base + i */
	/* servers facing other hosts (--tcp with --rx-port alone): a SYN
	 * from any port takes a free end, found again by its 4-tuple */
	uint8_t accept_any;
	uint8_t mac[6]; /* this port's, for ARP */
	uint32_t ip;	/* this side's: ARP requests for it are answered */
	/* an IPv6 test's (family 6): neighbour solicitations answered */
	uint8_t family;
	uint8_t ip6[16];
	/* RX queues polled, 0..nb_rxq-1 (TX on queue); peer mode: a control
	 * session's frames (UDP 7201, ARP, ICMP) go into ctl_rings[q] for
	 * the control lcore, which answers ARP then */
	uint16_t nb_rxq;
	struct rte_ring *const *ctl_rings;
	/* and those from the peer's MAC (ctl_peer_mac) into ctl_rings_peer,
	 * which a flood from other MACs cannot fill */
	struct rte_ring *const *ctl_rings_peer;
	uint8_t ctl_peer_mac[6];
	/* peer mode: an end takes segments from its peer's MAC only (as
	 * the UDP receivers count data), others are counted foreign */
	uint8_t mac_bind;
	/* ... or from one of its other source MACs (a TLB/ALB bond's) */
	uint8_t nb_alt;
	uint8_t alt_mac[NB_RX_ALT_SRC][6];
	uint16_t listen_port;
	/* the process's RFC 6528 secret: each end's ISS (nb_tcp_isn.h) */
	const struct nb_tcp_isn *isn;
	/* accept_any: ends[0, accepted) are the connections (established
	 * once, reported); ends[accepted, n) are free (LISTEN) or half open
	 * (a SYN taken, our SYN-ACK not acknowledged yet) */
	struct nb_tcp_end *ends;
	/* the clients' (send_bytes per end); a listener's, to start an end
	 * again */
	struct nb_tcp_params params;
	uint64_t bytes_each, bytes_rest; /* --bytes split: the first
					  * bytes_rest ends send one more */
	struct rte_mempool *pool;
	uint32_t rr; /* the end served first next turn */
	uint16_t nb_pend, pend_head;
	struct rte_mbuf *pend[NB_BURST];
	uint32_t pend_len[NB_BURST]; /* their lengths, counted once sent */
	/* mbufs taken from pool (headers, whole frames) and zc_pool
	 * (payloads) in bulk for the next segments: a turn with nothing to
	 * send keeps them */
	struct nb_tcp_stash hdr, pat;
	/* zero copy: the stream pattern in IOVA-contiguous memory, and a
	 * pool of mbufs pinned to it; a data segment of NB_TCP_ZC_MIN bytes
	 * or more is its headers in one mbuf and one of zc_pool's pointed at
	 * the pattern at its offset (no copy, nothing written:
	 * nb_tcp_frame_build_hdr).  zc_pool NULL: copied into the frame (a
	 * port without multi-segment TX, or one that frees mbufs the fast
	 * way) */
	struct rte_mempool *zc_pool;
	const uint8_t *zc_pat;
	uint64_t zc_iova;
	struct nb_hist *owd; /* servers: one-way delay of data (stamps) */
	/* --iperf3's data streams (clients, peer mode, forward): each end
	 * sends prefix (iperf3's cookie) and then the pattern (apps[i],
	 * nb_tcp_app.h, attached at the connect; its frames built with
	 * nb_tcp_frame_build_app while the prefix is in them), and a TCP
	 * segment of no end (the control connection's) goes to control
	 * (ctl_rings) rather than getting a RST.  NULL: no prefix */
	struct nb_tcp_app *apps;
	uint32_t recv_from; /* ends [recv_from, n): the prefix alone, then
			     * they take data (--bidir's) */
	uint32_t prefix_len;
	uint8_t prefix[64];
	/* --iperf3-server's listener (accept_any, peer mode): each
	 * connection's first prefix_len bytes must be prefix (the
	 * session's cookie), or it is reset (bad_prefix); a segment of no
	 * end goes to control.  At run->tx_stop its ends close (iperf3's
	 * TEST_END: a 3.12 server closes its streams, and its client, reading
	 * whole blocks from then on, needs the FIN to end a short one) */
	uint8_t prefix_check;
	uint64_t bad_prefix;
	/* ... and with -R or --bidir its ends hold (a send limit of 0) until
	 * control sets go (TEST_RUNNING, with release: go_from and go_bytes
	 * first); then ends [go_from, n) send, go_bytes in all (0: no
	 * limit); held is the worker's */
	uint8_t held;
	uint8_t go;
	uint32_t go_from;
	uint64_t go_bytes;
	/* a frame in chained mbufs (a jumbo frame in 2 KiB buffers), made
	 * contiguous to be parsed */
	uint8_t scratch[NB_FRAME_MAX];
	/* --pingpong (pp_msg bytes each way, 0: a bulk test): clients time
	 * each request until its whole answer is in, into rtt */
	uint32_t pp_msg;
	struct nb_hist *rtt;
	/* counters, single writer */
	uint64_t rx_pkts, rx_bytes, tx_pkts, tx_bytes;
	uint64_t foreign;  /* not TCP/IPv4 for us (ARP, LLDP, junk) */
	uint64_t bad_csum; /* TCP with a wrong checksum */
	uint64_t stray;	   /* TCP for no connection of ours: RST sent */
	uint64_t arp_answered, nd_answered;
	uint64_t accepted;  /* accept_any: ends whose handshake completed */
	uint64_t reclaimed; /* ... a half-open end given to a new SYN (none
			     * free) */
	uint64_t half_open_dropped; /* ... one whose SYN-ACKs went
				     * unanswered, freed */
	uint64_t alloc_fail;
	uint64_t finished;		  /* ends nb_tcp_finished() */
	uint64_t ctl_handed, ctl_dropped; /* to control; a full ring's */
	/* a cap on what the job sends (a responder's --max-rate): each
	 * frame costs cap_fixed + cap_per_byte x its bytes (no FCS) */
	struct nb_budget cap;
	uint16_t cap_fixed;
	uint8_t cap_per_byte;
	volatile int opened;
} __rte_cache_aligned;

/* The job's steps, for its kind (server, peer, pingpong, what it sends
 * and takes, a cap, zero copy), once it is set up; -1: a kind no
 * specialisation is for. */
int nb_tcp_job_select(struct nb_tcpjob *j);

/*
 * The "tcp" engine (nb_engines.c): w->tcp[] until run->rx_stop.  Before
 * run->start_tsc only a peer job's control frames are taken in; at the
 * start the clients connect; at run->tx_stop they close (FIN).
 */
int nb_tcp_engine_loop(struct nb_worker *w);

/*
 * accept_any, read from another lcore: 1 while an end past the
 * connections is neither free nor closed, a handshake under way (a
 * SYN-ACK or its ACK lost and retried, or one done whose end joins the
 * connections with its next segment).  A listener is not finished while
 * one is; a stranger's SYN holds it at most its SYN-ACK schedule.
 */
int nb_tcpw_handshakes_pending(const struct nb_tcpjob *j);

#endif /* NB_TCP_ENGINE_H */
