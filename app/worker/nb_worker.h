/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-worker state.  Everything a worker lcore touches in its loop lives in
 * structures it alone writes (single writer); the stats and control lcores
 * only read them.  Counters are plain 64-bit fields: aligned 64-bit loads
 * are atomic on the targets we support (x86-64, arm64), so readers see a
 * value that is at most one burst old.
 */
#ifndef NB_WORKER_H
#define NB_WORKER_H

#include <stdint.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "nb_capture_tap.h"
#include "nb_clock.h"
#include "nb_flows.h"
#include "nb_flows_rx.h"
#include "nb_frame.h"
#include "nb_gap.h"
#include "nb_hist.h"
#include "nb_impair.h"
#include "nb_iperf3_proto.h"
#include "nb_jitter.h"
#include "nb_pacer.h"
#include "nb_plan.h"
#include "nb_replay.h"
#include "nb_rxonly.h"
#include "nb_seq.h"
#include "nb_tokens.h"

#define NB_BURST 32
/* The peer's other source MACs a receiver takes (NB_CTL_MACS_MAX). */
#define NB_RX_ALT_SRC 7
/* At most this many latency probes are built per loop turn. */
#define NB_PROBE_BURST 8

/* Run states set by the control lcore. */
struct nb_run {
	volatile int tx_stop; /* senders stop now (Ctrl-C) */
	volatile int rx_stop; /* receivers stop now (after drain) */
	/* when senders begin (warm-up first); written last when arming */
	volatile uint64_t start_tsc;
	uint64_t measure_tsc;  /* start + omit: results count from here */
	uint64_t end_tsc;      /* measure + duration; UINT64_MAX if none */
	struct nb_clock clock; /* TSC -> ns, epoch shared by all lcores */
	/*
	 * Added to receive times: peer mode's correction for the sender's
	 * clock (0 in loopback and on one host).
	 */
	volatile int64_t rx_offset_ns;
	/*
	 * Added to send stamps: a responder's in a mesh across hosts, where
	 * both ends stamp and receive in the client's clock (rx_offset_ns
	 * too; the client's both 0).  0 elsewhere.
	 */
	volatile int64_t tx_offset_ns;
};

/* Per-stream sender counters (one array for warm-up, one for results). */
struct nb_tx_stream {
	uint64_t pkts;
	uint64_t bytes; /* L2 incl. FCS */
	/* --flows: the stream's flows' records [nflows], sent in turn; fk
	 * the next one's (pkts mod nflows, kept without a division) */
	const struct nb_flow_rec *frec;
	uint32_t nflows, fk;
};

/* What building a frame takes beyond the stamp (nb_txjob.hdr_kind): a
 * 64-byte copy (IPv4, tagged or QinQ, under up to two MPLS labels); 128
 * bytes (IPv6, GRE, VXLAN over IPv4); NB_TMPL_MAX_HDR (the largest: a
 * tagged VXLAN over IPv4 around IPv6); the same and the outer UDP
 * checksum (VXLAN over IPv6). */
#define NB_GEN_HDR_SMALL 0
#define NB_GEN_HDR_MID	 1
#define NB_GEN_HDR_BIG	 2
#define NB_GEN_HDR_OUTER 3

/* The template bytes each kind copies. */
#define NB_GEN_HDR_COPY(k)                                                     \
	((k) == NB_GEN_HDR_SMALL ? NB_TMPL_SMALL_HDR                           \
	 : (k) == NB_GEN_HDR_MID ? NB_TMPL_MID_HDR                             \
				 : NB_TMPL_MAX_HDR)

/* nb_txjob.flows: none, or what a flow's record writes (nb_flows.h):
 * every field of IPv4 or IPv6 frames, or the ports alone (when no other
 * field has a range: RFC 4814's default) */
#define NB_GEN_FLOWS_NONE  0
#define NB_GEN_FLOWS_V4	   NB_FLOW_W_V4
#define NB_GEN_FLOWS_V6	   NB_FLOW_W_V6
#define NB_GEN_FLOWS_PORTS NB_FLOW_W_PORTS

struct nb_txjob {
	/* set at setup, read in the loop */
	uint16_t port, queue;
	uint16_t nb_streams, nb_sizes;
	uint16_t nb_pattern;
	uint8_t hdr_kind; /* NB_GEN_HDR_*: the template bytes to copy, and
			   * whether an outer checksum covers the stamp */
	uint8_t flows;	  /* NB_GEN_FLOWS_*: --flows' fields written over
			   * each frame (no tunnel: a 64- or 128-byte copy) */
	struct rte_mempool *pool;
	const uint8_t *pattern; /* size index per frame, repeating */
	/* iperf3's UDP header instead of the stamp (--iperf3): wall-clock ns
	 * minus the run clock's; 0: the tool's stamp */
	uint64_t ip3_epoch_ns;

	/* the worker's own loop state, written every burst */
	struct nb_tmpl *tmpl; /* [stream * nb_sizes + size], this phase */
	/* [stream], this phase; pkts is the next frame's seq */
	struct nb_tx_stream *cnt;
	uint16_t stream_pos, pat_pos;
	uint32_t owed; /* due but not yet built (alloc failed) */
	struct nb_pacer pacer;
	uint64_t left;	     /* frames still to build; UINT64_MAX = no limit */
	uint64_t next_event; /* TSC of the next phase change */
	/*
	 * Frames the TX queue did not take yet, oldest first: offered again
	 * on the next turn before anything new is built, so a full queue
	 * never blocks the loop and never loses a frame.
	 */
	uint16_t nb_pend, pend_head;
	struct rte_mbuf *pend[NB_BURST];

	/* written by the worker, read by stats/control (only ever grow) */
	uint64_t dropped __rte_cache_aligned; /* unsent at a forced stop */
	uint64_t alloc_fail;
	uint64_t first_tsc; /* first frame of the measured phase */
	uint64_t last_tsc;  /* last burst handed to the PMD */
	uint64_t stop_tsc;  /* when the job ended (time, count, stop) */
	volatile int done;
	int phase; /* 0 warm-up, 1 measured */

	/* setup-time storage */
	struct nb_tmpl *tmpl_warm, *tmpl_data;
	struct nb_tx_stream *cnt_warm, *cnt_data;
	uint16_t first_stream, stream_stride;
	const struct nb_job *job;
	int hw_paced; /* --hw-rate took: the NIC's queue limiter paces */

	/* --replay (rp NULL otherwise): the file's frames, in order */
	const struct nb_replay *rp;
	uint32_t rp_pos;       /* the next frame */
	uint64_t rp_seq;       /* the next stamped frame's seq, this phase */
	uint64_t rp_pass;      /* passes through the file begun and ended */
	int rp_file_timing;    /* paced by the file's times, not the pacer */
	int rp_started;	       /* rp_start_ns is set (file timing) */
	uint64_t rp_period_ns; /* one pass, first frame to first frame */
	uint64_t rp_start_ns;  /* the job's first frame */
} __rte_cache_aligned;

/* Per-stream receiver state: sequence, jitter, latency. */
struct nb_rx_stream {
	struct nb_seq seq;
	struct nb_jitter jit;
	uint64_t bytes; /* L2 incl. FCS, data frames */
	/* --flows: the stream's flows' counts [nflows] (what every frame
	 * touches, and the rest); the frame unwrapped number u is of flow u
	 * mod nflows: fk_next is seq.next's, so the in-order case needs no
	 * division */
	struct nb_flow_cnt *flows;
	struct nb_flow_cnt_ext *flows_ext;
	uint32_t nflows, fk_next;
	struct nb_hist hist;
} __rte_cache_aligned;

struct nb_rxjob {
	uint16_t port, queue;
	uint32_t nb_streams;
	struct nb_rx_stream *streams; /* [stream id] */
	struct nb_gap *gaps; /* --gaps: [stream id] arrival gaps; else NULL */
	/* counters, single writer */
	uint64_t pkts; /* every frame received, as the PMD counts */
	uint64_t bytes;
	uint64_t data; /* our data frames */
	uint64_t warm; /* our warm-up frames */
	uint64_t warm_bytes;
	uint64_t foreign;     /* not ours (ARP, other traffic, junk) */
	uint64_t bad_stream;  /* ours, but a stream id out of range */
	uint64_t ctl;	      /* control/ARP/ICMP handed to control */
	uint64_t ctl_dropped; /* ... that found the ring full */
	uint64_t last_data_tsc;
	/* a receive-only test: every frame's size bin (nb_rxonly.h), by
	 * the sink+sizes engine only */
	uint8_t count_sizes;
	uint64_t sizes[NB_SIZE_BINS];
	/* peer mode: control, ARP and ICMP frames go here (SP/SC), those
	 * from the peer's MAC (src_want, when src_mask is set) to
	 * ctl_ring_peer, which a flood from elsewhere cannot fill */
	struct rte_ring *ctl_ring, *ctl_ring_peer;
	/* frames of no kind of ours go to the control lcore too (--iperf3:
	 * its control connection's TCP segments, its UDP answers) */
	uint8_t ctl_foreign;
	/* --iperf3 --reverse with UDP: the server's datagrams, frames of no
	 * kind of ours, counted as iperf3 counts them (nb_sink_ip3); NULL
	 * otherwise.  Stored by control (release) before the server sends,
	 * read by the worker per foreign frame only */
	struct nb_ip3_sink *ip3;
	/*
	 * Latency probes (chosen at setup): the responder reflects them on
	 * reflect_txq, a TX queue no other lcore uses; the client records
	 * their round trip in rtt.  Neither: counted as foreign.
	 */
	int reflect_txq; /* -1: do not reflect */
	struct nb_hist *rtt;
	/*
	 * Peer mode: only frames from the peer's MAC count as data, warm-up
	 * or probes ((source ^ src_want) & src_mask == 0, source read as 8
	 * bytes from offset 6); others count as foreign.  Mask 0 elsewhere.
	 */
	uint64_t src_want, src_mask;
	uint64_t own_src; /* this port's MAC, the same way: frames of ours
			   * that come back to us are counted in own */
	uint64_t own;
	/*
	 * The peer's other source MACs (a TLB or ALB bond's members, from
	 * PARAMS or ACCEPT), the same way: they count as the peer's too,
	 * and a probe from one is turned back to src_want's MAC.  Tried only
	 * when the source is not src_want's.
	 */
	uint32_t nb_alt;
	uint64_t alt_src[NB_RX_ALT_SRC];
	/* reflection: probe frames of probe_len or probe_len2 bytes (pkt_len),
	 * at most at the rate of the refl bucket (ns clock) */
	uint32_t probe_len, probe_len2;
	struct nb_tokens refl;
	uint64_t probes;       /* probes received (returned, on the client) */
	uint64_t reflected;    /* probes sent back (responder) */
	uint64_t reflect_fail; /* ... the TX queue would not take */
	uint64_t reflect_limited; /* ... over the rate or of another size */
	/* responder --impair: NULL without (the engine is chosen by it) */
	struct nb_impair *imp;
	struct nb_probe_hold *hold; /* reflected probes held by delay= */
	struct nb_capjob cap;	    /* --capture (cap.cap NULL without) */
	const struct nb_job *job;
	/*
	 * Every data frame's latency once more, all streams in one: the
	 * stats lcore's interval percentiles read this, one histogram per
	 * job, not one per stream (30 KiB each); the streams' own are read
	 * at the end.
	 */
	struct nb_hist all_hist;
} __rte_cache_aligned;

/*
 * iperf3 UDP streams to us: datagrams from peer_ip to my_ip.  The client
 * (--iperf3 --reverse) tells its streams apart by their destination port
 * (stream i's port[i], the server's source port fixed_port); the server
 * (--iperf3-server) by their source port (the client's port[i], to our
 * fixed_port).  epoch_ns turns the run's clock into the wall clock of the
 * jitter.
 */
struct nb_ip3_sink {
	uint32_t peer_ip, my_ip;
	uint16_t fixed_port;
	uint8_t by_src;
	uint8_t c64;
	uint16_t n;
	uint64_t epoch_ns;
	uint16_t port[NB_IP3_MAX_STREAMS];
	struct nb_ip3_udp_rx s[NB_IP3_MAX_STREAMS];
};

/* Probes an impairing responder holds before reflecting them (delay=):
 * a ring of mbufs with their due times; more are dropped (overflow). */
#define NB_HOLD_PROBES 1024
struct nb_probe_hold {
	uint32_t head, tail;
	uint64_t due_ns[NB_HOLD_PROBES];
	struct rte_mbuf *m[NB_HOLD_PROBES];
};

/* The client's latency prober: one per test, on the worker owning its
 * TX queue. */
struct nb_probejob {
	uint16_t port, queue;
	int pingpong; /* one outstanding, else paced */
	struct rte_mempool *pool;
	struct nb_tmpl tmpl;
	struct nb_pacer pacer;
	uint64_t seq;
	uint64_t sent, lost; /* lost: ping-pong probes not back in time */
	/* probes the TX queue refused, offered first on the next turn */
	uint16_t nb_pend, pend_head;
	struct rte_mbuf *pend[NB_PROBE_BURST];
	uint64_t deadline; /* ping-pong: when the outstanding one is lost */
	uint64_t timeout_tsc;
	uint64_t end_tsc; /* copy of the run's end, set when armed */
	/* the receive side's counts of returned probes (single writers) */
	uint16_t nb_rx;
	const struct nb_rxjob *rx[NB_MAX_WORKER_JOBS];
	volatile int done;
} __rte_cache_aligned;

/*
 * A port with one queue pair (peer mode on a device that cannot give the
 * control lcore a TX queue of its own): during a test the control lcore's
 * frames come through this SP/SC ring to the worker that owns the shared
 * TX queue, which offers them once per loop turn before its own.  What the
 * queue refuses waits in pend[] for the next turn; after the test the
 * control lcore takes back what is left (nb_ctlio_tx_back).
 */
struct nb_ctltx {
	struct rte_ring *ring;
	uint16_t port, queue;
	uint16_t nb_pend, pend_head;
	struct rte_mbuf *pend[NB_BURST];
	uint64_t sent; /* frames the PMD took (the worker writes) */
} __rte_cache_aligned;

/* The control lcore's frames on a shared TX queue: oldest first, before
 * this turn's own frames; what the queue refuses waits for the next turn. */
static inline void
nb_ctltx_step(struct nb_ctltx *c)
{
	uint16_t sent;

	if (c->nb_pend == 0) {
		c->nb_pend = (uint16_t)rte_ring_sc_dequeue_burst(
			c->ring, (void **)c->pend, NB_BURST, NULL);
		c->pend_head = 0;
		if (c->nb_pend == 0)
			return;
	}
	sent = rte_eth_tx_burst(c->port, c->queue, c->pend + c->pend_head,
				c->nb_pend);
	c->sent += sent;
	c->nb_pend = (uint16_t)(c->nb_pend - sent);
	c->pend_head = c->nb_pend ? (uint16_t)(c->pend_head + sent) : 0;
}

/*
 * 802.3ad bonds: the bonding PMD sends its LACPDUs and takes in the
 * partner's only inside bursts on the bond.  A queue no job of the test
 * bursts on (the TX port's RX queues in a loopback, the RX port's TX
 * queue) gets a turn from the worker that owns that queue number on the
 * port, every period: a zero TX burst, or an RX burst whose frames are
 * dropped (the bond has taken the LACP frames out; nothing else is sent
 * to a port no job receives on, and in the other modes such frames wait
 * unread in the ring).  Gen and sink jobs' own bursts serve LACP on the
 * queues they use.
 */
#define NB_MAX_KEEP	  8
#define NB_KEEP_PERIOD_MS 10
struct nb_keep {
	uint64_t next_tsc, period_tsc;
	uint16_t n;
	struct {
		uint16_t port, queue;
		uint8_t rx;
	} e[NB_MAX_KEEP];
} __rte_cache_aligned;

struct nb_worker;
struct nb_tcpjob;
typedef int (*nb_engine_fn)(struct nb_worker *w);

/* A worker loop: one per combination of job kinds, chosen once. */
struct nb_engine {
	const char *name;
	nb_engine_fn loop;
};

struct nb_worker {
	unsigned int lcore;
	uint16_t nb_tx, nb_rx;
	struct nb_txjob *tx[NB_MAX_WORKER_JOBS];
	struct nb_rxjob *rx[NB_MAX_WORKER_JOBS];
	struct nb_run *run;
	const struct nb_engine *engine; /* NULL: idle */
	struct nb_probejob *probe;	/* NULL unless this worker probes */
	struct nb_ctltx *ctltx; /* NULL unless it sends control's frames */
	struct nb_keep *keep;	/* NULL unless it keeps an LACP bond */
	/* closed-loop TCP (--tcp): its jobs, run by the "tcp" engine
	 * (nb_tcp_engine.h); the TCP runner owns them.  The clients close
	 * at run->tx_stop, the loop ends at run->rx_stop */
	uint16_t nb_tcp;
	struct nb_tcpjob *tcp[2];
	uint64_t loops __rte_cache_aligned;
	uint64_t idle_loops;
	/* the tester's own disturbance (core/nb_tester.h): the longest gap
	 * between two turns of the test loop, and the time in gaps of at
	 * least gap_floor (TSC); the thread id for its schedstat.  All in
	 * the line the loop writes anyway (loops). */
	uint64_t max_gap;
	uint64_t stall_tsc;
	uint64_t gap_floor;
	uint64_t gap_due; /* the last turn + gap_floor */
	volatile int tid;
	volatile int tx_finished; /* all this worker's TX jobs are done */
	volatile int exited;
} __rte_cache_aligned;

/* Pick the loop for this worker's jobs, protocol and impairment (at
 * setup, and again once nb_jobs_impair() gave its receivers an impairment);
 * -1 when the worker has no job (it stays idle). */
int nb_engine_select(struct nb_worker *w, uint8_t proto);

/* rte_eal_remote_launch entry point. */
int nb_worker_main(void *arg);

#endif /* NB_WORKER_H */
