/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a closed-loop TCP test reports, as iperf3 does for TCP: interval
 * rows with Retr and Cwnd (and the smoothed RTT), sender and receiver rows
 * at the end, and the JSON document's TCP fields (retransmits, snd_cwnd,
 * rtt, rttvar in us, max_snd_cwnd, max_rtt, min_rtt, mean_rtt: the mean
 * of the RTT samples, or the smoothed RTT when only a peer's end knows
 * their sum).  Pure:
 * from snapshots of the connections' counters.
 */
#ifndef NB_TCP_REPORT_H
#define NB_TCP_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "nb_tcp.h"

/* One connection (its sender's and receiver's ends) at one moment. */
struct nb_tcp_snap {
	uint64_t acked;	  /* stream bytes the sender saw acknowledged */
	uint64_t rcvd;	  /* ... the receiver took in, in order */
	uint64_t retrans; /* segments sent again */
	uint64_t fast_retrans, rto, recoveries;
	uint64_t cwnd, max_cwnd;
	uint64_t srtt_ns, rttvar_ns, min_rtt_ns, max_rtt_ns, rtt_samples;
	uint64_t rtt_sum_ns; /* the samples' sum (0: not known) */
	uint64_t bad_bytes;  /* payload bytes not the pattern */
	uint64_t dup_bytes, ooo_segs;
	/* the sender's (c) and receiver's (s) end: state and error */
	uint8_t cstate, sstate, cerr, serr;
	/* their payload checks (NB_TCP_CHECK_*; NB_TCP_SNAP_UNKNOWN: the
	 * end is another host's) */
	uint8_t scheck, rcheck;
	/* from the start: the sender had every byte acknowledged, the
	 * receiver closed (0: not yet, or unknown) */
	uint64_t snd_end_ns, rcv_end_ns;
};
#define NB_TCP_SNAP_UNKNOWN 0xff

/*
 * A connection from its two ends, either NULL when it is another host's
 * whose figures are not known: then what the known end counted stands for
 * both (the bytes one side saw acknowledged or received), and the unknown
 * end's state counts as closed cleanly.
 */
void nb_tcp_snap_pair(const struct nb_tcp_endsnap *snd,
		      const struct nb_tcp_endsnap *rcv, struct nb_tcp_snap *o);

/* Both ends closed (TIME_WAIT or CLOSED) without an error. */
int nb_tcp_snap_clean(const struct nb_tcp_snap *s);
/* Its two ends' states (and errors) in words, for a message. */
void nb_tcp_snap_ends(const struct nb_tcp_snap *s, char *buf, size_t len);

/* "[ ID] Interval ... Retr  Cwnd  RTT"; roles: "[ ID][Role]" for a
 * bidirectional test's rows ("  1][TX-C" as their id). */
void nb_tcp_text_header(FILE *f, int end, int roles);

/* One interval row: id is "  1" or "SUM"; cwnd 0 and rtt_ns 0 print as
 * blanks (the SUM row). */
void nb_tcp_text_row(FILE *f, const char *id, double t0, double t1,
		     uint64_t bytes, uint64_t retr, int show_retr,
		     uint64_t cwnd, uint64_t rtt_ns, char format,
		     const char *tail);

/* iperf3's interval stream object, from the connection before (a) and now
 * (b), the interval [t0, t1] in seconds from the start. */
json_t *nb_tcp_json_iv_stream(int socket, double t0, double t1,
			      const struct nb_tcp_snap *a,
			      const struct nb_tcp_snap *b);
/* iperf3's "sum" of an interval or the end's sum_sent / sum_received. */
json_t *nb_tcp_json_sum(double t0, double t1, uint64_t bytes, int with_retr,
			uint64_t retr);
/* iperf3's end stream object: {"sender": {...}, "receiver": {...}}. */
json_t *nb_tcp_json_end_stream(int socket, double secs_sent, double secs_rcvd,
			       const struct nb_tcp_snap *s);

/* A latency histogram's figures (ns): count, min, p50, p99, max, mean. */
struct nb_hist;
json_t *nb_tcp_json_hist(const struct nb_hist *h);

#endif /* NB_TCP_REPORT_H */
