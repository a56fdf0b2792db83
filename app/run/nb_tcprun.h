/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The closed-loop TCP runner (--tcp): the TX port's worker connects one
 * TCP connection per stream to the RX port's (or another host's
 * listener; or listens for another host's clients), each sends its share
 * of --bytes or until --time ends (then FIN); iperf3's TCP interval rows
 * (Retr, Cwnd, RTT) while it runs, and the sender and receiver rows and
 * the JSON document at the end.  A test goes through the runtime's steps
 * (nb_run.h) on workers of the "tcp" engine; what the runner keeps is
 * TCP's own: the connections' set-up, when a test of connections ends,
 * and its report.
 */
#ifndef NB_TCPRUN_H
#define NB_TCPRUN_H

#include <stddef.h>
#include <stdint.h>

#include "nb_app.h"

/* After the ports are set up; returns the exit code. */
int nb_tcprun_main(struct nb_app *app);

/*
 * Peer mode (app/peer): one end of a TCP test negotiated on a control
 * session.  The client's connections go from its port sport_base + i to
 * the responder's dport; the responder's ends are bound to them before the
 * test (no SYN from another address or port is taken).  Data flows from
 * the client (forward), from the responder (reverse: the client still
 * connects), or both ways over each connection (bidir).  The control
 * lcore keeps polling its session meanwhile: the TCP worker hands it the
 * session's frames (ctl_rings) and, on a port with one queue pair, sends
 * its frames (ctl_tx).
 */
struct nb_ctltx;
struct rte_ring;
#define NB_TCP_ALT_MACS 7 /* NB_CTL_MACS_MAX */
struct nb_tcppeer {
	int responder;
	int c2r, r2c; /* data from the client, from the responder */
	uint8_t peer_mac[6];
	/* the peer's other source MACs (a TLB or ALB bond's members) */
	uint8_t nb_peer_alt;
	uint8_t peer_alt[NB_TCP_ALT_MACS][6];
	uint32_t ip, peer_ip;
	uint8_t family; /* 6: the session's IPv6 addresses below */
	uint8_t ip6[16], peer_ip6[16];
	uint16_t sport_base, dport;
	uint32_t streams;
	uint16_t frame; /* the largest frame: the MSS */
	uint16_t vlan_id;
	uint32_t window, msg; /* msg: --pingpong's bytes, 0 bulk */
	uint8_t delayed_ack, no_sack, cc;
	uint64_t bytes;	 /* per direction; 0: by time */
	double duration; /* s; 0: by bytes */
	int no_header;	 /* a sweep's later test: no header, no intervals */
	uint16_t nb_rxq; /* RX queues the worker polls */
	/* the responder's cap on its sending: cap_rate per second of
	 * cap_unit (NB_CTL_CAP_*; NONE: no cap) */
	uint8_t cap_unit;
	uint64_t cap_rate;
	struct rte_ring *const *ctl_rings;
	struct rte_ring *const *ctl_rings_peer; /* the peer's frames */
	struct nb_ctltx *ctl_tx; /* NULL: control sends on its own queue */
	/* --iperf3's streams: a client's connections send these first
	 * bytes (its cookie, prefix_len bytes, at most 64), then the
	 * pattern; --iperf3-server's (the responder's) take connections
	 * from any client port and reset one whose first bytes are not
	 * these.  Either way a segment of no connection is control's (its
	 * iperf3 control connection).  prefix_len 0: none */
	const uint8_t *prefix;
	uint32_t prefix_len;
	/* --iperf3 --bidir: a client's connections from recv_from on send
	 * the prefix alone and take data (0: none) */
	uint32_t recv_from;
	/* the client: how the responder set its side up (its ACCEPT) */
	int peer_setup_known;
	struct nb_offload_plan peer_offload;
	struct nb_numa_brief peer_numa;
};

struct tcprun;
/* Build this end's jobs and launch its worker, which waits for
 * nb_tcprun_peer_arm(); NULL with err said. */
struct tcprun *nb_tcprun_peer_new(struct nb_app *app,
				  const struct nb_tcppeer *pp, char *err,
				  size_t errlen);
/* The connections open at start_tsc (the agreed START). */
void nb_tcprun_peer_arm(struct tcprun *t, uint64_t start_tsc);
/*
 * The client, between its polls: interval rows, and the test's own end
 * (--time, --bytes, every connection closed, a stall); 1 once it is over
 * (why set when it failed).  The header is printed on the first call
 * after the start.
 */
int nb_tcprun_peer_step(struct tcprun *t, char *why, size_t whylen);
/*
 * --iperf3's streams, between the control lcore's polls: the senders
 * closed at pp.duration (a test by time; by bytes each closes after its
 * share); 1 once every connection's bytes are acknowledged, or it
 * closed or failed (*failed: connections that failed).
 */
int nb_tcprun_peer_sent(struct tcprun *t, unsigned int *failed);
/* Every connection closed (both FINs, or failed). */
int nb_tcprun_peer_finished(const struct tcprun *t);
/* Connection i's bytes acknowledged past the prefix, its retransmitted
 * segments (iperf3's Retr), and the seconds from the start to its last
 * byte acknowledged (or now). */
void nb_tcprun_peer_sender(const struct tcprun *t, uint32_t i, uint64_t *bytes,
			   uint64_t *retrans, double *secs);
/* Connection i's bytes received in order (a client's, --iperf3
 * --reverse: the server's data, the cookie being ours). */
uint64_t nb_tcprun_peer_received(const struct tcprun *t, uint32_t i);
/* The responder's connections established so far (--iperf3-server:
 * iperf3's streams, in the order they came). */
uint32_t nb_tcprun_peer_accepted(const struct tcprun *t);
/* --iperf3-server -R or --bidir: the responder's held connections
 * [from, n) may send now, bytes in all (0: until TEST_END). */
void nb_tcprun_peer_go(struct tcprun *t, uint32_t from, uint64_t bytes);
/* Connection i's bytes sent and not yet acknowledged. */
uint64_t nb_tcprun_peer_unacked(const struct tcprun *t, uint32_t i);
/* The workers stopped and joined (at STOP, or when the session ends). */
void nb_tcprun_peer_stop(struct tcprun *t);
/* The responder: its results blob (malloc'd) for RESULTS. */
int nb_tcprun_peer_blob(struct tcprun *t, uint8_t **blob, size_t *len);
/* Frames this end's TCP worker handed to the control lcore or dropped
 * for a full ring (they are the control session's). */
void nb_tcprun_peer_ctl(const struct tcprun *t, uint64_t *handed,
			uint64_t *dropped);
/*
 * The client: the report from both ends, the responder's from its blob
 * (NULL when it could not be fetched: this end's figures alone); returns
 * the exit code (0, or 1 when the test failed or was interrupted).
 */
int nb_tcprun_peer_report(struct tcprun *t, const uint8_t *blob, size_t len,
			  int interrupted, const char *why);
void nb_tcprun_peer_free(struct tcprun *t);

/*
 * A --pingpong --msg-size sweep, a test per size: the table's head (before
 * the first row), a size's row (JSON; the text row printed) from its
 * finished test, and the end: the document with every row; returns the
 * exit code.  why keeps the first failure.  The peer row takes the
 * responder's blob (NULL: this end's figures alone).
 */
void nb_tcprun_sweep_head(const struct nb_output *o);
json_t *nb_tcprun_peer_sweep_row(struct tcprun *t, const uint8_t *blob,
				 size_t len, char *why, size_t whylen);
int nb_tcprun_sweep_end(struct nb_app *app, json_t *rows, int interrupted,
			const char *why);

#endif /* NB_TCPRUN_H */
