/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Closed-loop TCP: one connection as a pure state machine.  Segments come
 * in through nb_tcp_input(); nb_tcp_output() is asked for the next segment
 * to send now until it returns 0; nb_tcp_next_event() says when a timer
 * is due.  Times are ns on one clock; nothing here allocates or blocks.
 *
 * Implemented: three-way handshake with MSS, window scale and
 * SACK-permitted; FIN close (both halves); RST out on unacceptable
 * segments and in (a reset ends the connection); NewReno congestion
 * control (RFC 5681, RFC 6582) with limited transmit (RFC 3042), early
 * retransmit (RFC 5827), initial
 * window 10 (RFC 6928), RTO per RFC 6298 with Karn's rule and exponential
 * backoff (minimum 200 ms, as Linux, not RFC 6298's 1 s); a receiver with
 * rcv_nxt, NB_TCP_OOO out-of-order intervals (the farthest dropped
 * for a nearer one when full), SACK blocks (RFC 2018) built
 * from them, and an ACK per segment or per second full one; on the
 * sender, SACK-based loss recovery (RFC 6675's scoreboard and pipe).  Not
 * implemented: timestamps (RFC 7323), urgent data, simultaneous open,
 * keep-alive, path MTU discovery.
 *
 * The files: nb_tcp.c opening, closing and input by state; nb_tcp_out.c
 * output; nb_tcp_cc.c RTT, RTO and congestion control; nb_tcp_sack.c the
 * sender's SACK scoreboard; nb_tcp_rcv.c the receiver; nb_tcp_pattern.c
 * the stream's bytes; nb_tcp_app.c a connection's application bytes;
 * nb_tcp_int.h what they share.
 *
 * No send buffer for a test stream: byte k of a connection's stream (k
 * from 0) is nb_tcp_pattern_at(k), so a retransmission is rebuilt from its
 * offset and the receiver checks every payload byte against the same
 * function, keeping only offset intervals of what came out of order.  A
 * connection given an app (nb_tcp_app.h: a control connection, or a
 * stream whose first bytes are given) carries application bytes instead:
 * it sends from the app's TX log what was written (or the log, then the
 * pattern), and its receiver copies payload into the app's RX ring by
 * offset, unchecked, its window no larger than the ring's free room.
 */
#ifndef NB_TCP_H
#define NB_TCP_H

#include <stddef.h>
#include <stdint.h>

struct nb_tcp_app;

/* TCP header flags */
#define NB_TCP_FIN 0x01
#define NB_TCP_SYN 0x02
#define NB_TCP_RST 0x04
#define NB_TCP_PSH 0x08
#define NB_TCP_ACK 0x10

#define NB_TCP_OOO	   8 /* out-of-order intervals a receiver keeps */
#define NB_TCP_SACK_MAX	   3 /* SACK blocks sent in one ACK */
#define NB_TCP_SACKB	   8 /* SACKed ranges a sender keeps */
#define NB_TCP_WSCALE_MAX  14
#define NB_TCP_WSCALE_NONE 0xff

/* Timers (ns) */
#define NB_TCP_RTO_INIT_NS 1000000000ull /* RFC 6298 2.1 */
#define NB_TCP_RTO_MIN_NS  200000000ull	 /* Linux's floor, not 1 s */
#define NB_TCP_RTO_MAX_NS  60000000000ull
#define NB_TCP_DELACK_NS   40000000ull /* Linux's delayed-ACK minimum */
#define NB_TCP_SYN_RETRIES 6 /* a client's SYN: 7 in 63 s, as Linux's */
/* a listener's SYN-ACK, unanswered: resent 3 times (FreeBSD's syncache
 * limit), at 1, 3 and 7 s; the end fails (timed out, no RST) at 15 s:
 * a SYN from an address that never answers costs that much and no
 * more */
#define NB_TCP_SYNACK_RETRIES 3
#define NB_TCP_DATA_RETRIES   15 /* RTOs in a row before the connection dies */

/* The pattern's period: a prime, so no power-of-two misplacement of data
 * (a wrong 32-bit wrap, a 64 KiB slip) goes unseen. */
#define NB_TCP_PATTERN_PERIOD 65521u
#define NB_TCP_PATTERN_SPAN   (NB_TCP_PATTERN_PERIOD + 16384u)

enum nb_tcp_state {
	NB_TCP_CLOSED = 0,
	NB_TCP_LISTEN,
	NB_TCP_SYN_SENT,
	NB_TCP_SYN_RCVD,
	NB_TCP_ESTABLISHED,
	NB_TCP_FIN_WAIT_1,
	NB_TCP_FIN_WAIT_2,
	NB_TCP_CLOSING,
	NB_TCP_TIME_WAIT,
	NB_TCP_CLOSE_WAIT,
	NB_TCP_LAST_ACK,
};

/* Why a connection ended, when it did not end well. */
enum nb_tcp_error {
	NB_TCP_OK = 0,
	NB_TCP_ERR_RESET,   /* the peer sent a RST */
	NB_TCP_ERR_REFUSED, /* RST in answer to our SYN */
	NB_TCP_ERR_TIMEOUT, /* retries exhausted */
	NB_TCP_ERR_ABORTED, /* nb_tcp_abort() */
};

/* One segment, in or out.  On input payload points at len bytes; on
 * output the payload is bytes [data_off, data_off + len) of the stream. */
struct nb_tcp_seg {
	uint32_t seq, ack;
	uint32_t wnd; /* the 16-bit field as on the wire (not scaled) */
	uint16_t len; /* payload bytes */
	uint8_t flags;
	/* options: in SYN and SYN-ACK only */
	uint8_t has_mss, sack_ok;
	uint8_t wscale; /* NB_TCP_WSCALE_NONE if absent */
	uint16_t mss;
	/* SACK blocks, [left, right) as 32-bit sequence numbers */
	uint8_t nb_sack;
	uint32_t sack[NB_TCP_SACK_MAX][2];
	/* a stamp (the sender's TX time, ns): present on data segments */
	uint8_t has_stamp;
	uint64_t stamp_ns;
	/* output: the stream offset of the payload's first byte; a
	 * retransmission (counted in retrans) when rexmit is set */
	uint64_t data_off;
	uint8_t rexmit;
	const uint8_t *payload;
	/* input (nb_tcp_frame_parse): where the IPv4 and TCP headers sit in
	 * the frame, and the TCP header's length; pattern_ok: the caller
	 * found the payload equal to the pattern at the offset its sequence
	 * number gives (nb_tcp_frame_csum_ok), so it is not compared again */
	uint16_t l3_off, l4_off, hdr_len;
	uint8_t pattern_ok;
};

/* Congestion control in avoidance (and its reduction on loss) */
#define NB_TCP_CC_NEWRENO 0 /* RFC 5681: +1 MSS per window, halve */
#define NB_TCP_CC_CUBIC	  1 /* RFC 9438: the cubic window, beta 0.7 */
#define NB_TCP_CUBIC_C	  0.4
#define NB_TCP_CUBIC_BETA 0.7

#define NB_TCP_CHECK_ON	   0
#define NB_TCP_CHECK_OFF   1
#define NB_TCP_CHECK_AUTO  2
#define NB_TCP_CHECK_PROBE 16 /* bytes AUTO compares */

/* What a connection end is set up with. */
struct nb_tcp_params {
	uint32_t iss;	     /* initial send sequence number */
	uint16_t mss;	     /* the MSS we announce and send at most */
	uint32_t rcv_wnd;    /* receive window (bytes), like iperf's -w */
	uint8_t delayed_ack; /* ACK every second full segment (and 40 ms) */
	uint8_t sack;	     /* offer SACK-permitted */
	uint8_t stamp;	     /* carry the stamp option on data segments */
	/* the receiver's payload check: NB_TCP_CHECK_ON, _OFF, or _AUTO
	 * (on if the stream's first bytes are the pattern: a peer that is
	 * not this tool sends its own bytes) */
	uint8_t check;
	uint8_t cc; /* NB_TCP_CC_* */
	/* bytes this end sends before its FIN; UINT64_MAX: until
	 * nb_tcp_close() */
	uint64_t send_bytes;
	/* 1: the FIN follows the last byte (a client); 0: it waits for the
	 * peer's FIN too (a sink closes after its sender) */
	uint8_t close_after_send;
	uint16_t stamp_len; /* option bytes a stamp costs in a segment */
};

/* A range of out-of-order stream offsets held by the receiver. */
struct nb_tcp_ival {
	uint64_t lo, hi; /* [lo, hi) */
};

struct nb_tcp_stats {
	uint64_t segs_out, segs_in;
	uint64_t data_segs_out;
	uint64_t retrans; /* segments sent again (iperf3's Retr) */
	uint64_t retrans_bytes;
	uint64_t fast_retrans; /* ... of which by three duplicate ACKs */
	uint64_t rto_fired;    /* RTO expiries */
	uint64_t recoveries;   /* fast recoveries entered */
	uint64_t dupacks_in;
	uint64_t bytes_acked;	/* stream bytes the peer acknowledged */
	uint64_t bytes_rcvd;	/* stream bytes delivered in order */
	uint64_t dup_bytes_in;	/* received again (already delivered) */
	uint64_t ooo_segs_in;	/* arrived above rcv_nxt */
	uint64_t ooo_dropped;	/* ... or held ones dropped: no room */
	uint64_t bad_bytes;	/* payload bytes not the pattern */
	uint64_t out_of_window; /* segments outside the receive window */
	uint64_t rst_in, rst_out;
	uint64_t max_cwnd;
	uint64_t rtt_samples;
	uint64_t rtt_sum_ns; /* of the samples: mean_rtt, as iperf3's */
	uint64_t min_rtt_ns, max_rtt_ns;
};

struct nb_tcp_conn {
	uint8_t state;	/* enum nb_tcp_state */
	uint8_t error;	/* enum nb_tcp_error */
	uint8_t active; /* we connected (client) */
	uint8_t sack_ok, snd_wscale, rcv_wscale;
	uint8_t delayed_ack, stamp;
	uint8_t check; /* NB_TCP_CHECK_* (AUTO turns ON or OFF) */
	uint8_t dupacks;
	uint8_t in_recovery;
	uint8_t ack_pending;  /* an ACK is owed now */
	uint8_t ack_urgent;   /* ... and may not wait (see ack_now) */
	uint8_t segs_unacked; /* full segments since our last ACK */
	uint8_t retries;      /* RTOs in a row */
	uint8_t syn_pending;  /* our SYN (or SYN-ACK) is to be (re)sent */
	uint8_t fin_rcvd;
	uint8_t rst_pending;
	uint8_t rtt_timing;	/* rtt_off is being timed */
	uint8_t rexmit_pending; /* fast retransmit of snd_una due */
	uint8_t probe_pending;	/* zero-window probe due */
	uint8_t sack_offer, wscale_offer, close_after_send;
	uint8_t app_rx;	    /* app has an RX buffer: payload goes there */
	uint16_t mss;	    /* what we send at most (payload + options) */
	uint16_t mss_local; /* what we announced */
	uint16_t stamp_len;

	/* sender (offsets from iss: 0 is the SYN, 1 the first data byte) */
	uint32_t iss;
	uint64_t snd_una, snd_nxt, snd_max;
	uint64_t snd_end; /* offset of our FIN: 1 + bytes to send */
	uint64_t snd_app; /* new data stops here (nb_tcp_send_limit) */
	uint64_t snd_wnd; /* the peer's window, scaled */
	uint64_t snd_wl_seq, snd_wl_ack; /* last window update (RFC 793) */
	uint64_t cwnd, ssthresh;
	uint64_t recover;
	uint64_t ca_acked; /* bytes acked in congestion avoidance */
	/* CUBIC (RFC 9438 4): the window before the last reduction and the
	 * one before that (fast convergence), in segments; K in s; when this
	 * avoidance epoch began (ns, 0: not yet); the Reno-friendly estimate
	 * in segments */
	uint8_t cc;
	double w_max, w_last_max, cubic_k, w_est;
	double cubic_frac; /* growth below a byte, carried to the next ACK */
	uint64_t epoch_ns;
	uint64_t rtt_off, rtt_sent_ns;
	uint64_t srtt_ns, rttvar_ns, rto_ns;
	uint64_t rto_due; /* 0: not armed */
	/* SACK scoreboard: ranges above snd_una the peer holds, sorted */
	uint8_t nb_sacked;
	struct nb_tcp_ival sacked[NB_TCP_SACKB];
	uint64_t sacked_bytes, sack_hi; /* their sum; the highest end */
	uint64_t rexmit_hi; /* HighRxt: resent up to here this recovery */
	uint32_t rst_seq, rst_ack; /* the RST rst_pending sends */
	uint8_t rst_flags;

	/* receiver (offsets from irs: 0 their SYN, 1 their first byte) */
	uint32_t irs;
	uint64_t rcv_nxt;
	uint64_t rcv_acked; /* rcv_nxt as our last ACK gave it */
	uint32_t rcv_wnd;
	uint8_t nb_ooo;
	uint8_t last_ooo; /* interval the last OOO segment went into */
	struct nb_tcp_ival ooo[NB_TCP_OOO];
	uint64_t delack_due; /* 0: none */
	uint64_t fin_off;    /* their FIN's offset once seen (0: none) */

	struct nb_tcp_stats st;
	/* the application's bytes (nb_tcp_app.h); NULL: the pattern */
	struct nb_tcp_app *app;
};

/* The stream's byte at offset k. */
extern uint8_t nb_tcp_pattern[NB_TCP_PATTERN_SPAN]; /* written once */
static inline const uint8_t *
nb_tcp_pattern_at(uint64_t k)
{
	return nb_tcp_pattern + (k % NB_TCP_PATTERN_PERIOD);
}
/* Fill the table (once, before any connection; idempotent). */
void nb_tcp_pattern_init(void);
/*
 * The one's-complement sum (mod 65535, as nb_csum_partial() adds it) of
 * the stream's bytes [k, k + len) laid out from an even position, len at
 * most 16384: a payload's checksum share in O(1).
 */
uint32_t nb_tcp_pattern_sum(uint64_t k, uint32_t len);

/* The stream offset the peer's byte with sequence number seq has, or -1
 * before the handshake (for the receiver's checksum shortcut). */
int64_t nb_tcp_rcv_stream_off(const struct nb_tcp_conn *c, uint32_t seq);

/* A window scale that makes rcv_wnd fit 16 bits. */
uint8_t nb_tcp_wscale_for(uint32_t rcv_wnd);

/* Open actively (SYN out on the next output) or passively (LISTEN). */
void nb_tcp_connect(struct nb_tcp_conn *c, const struct nb_tcp_params *p,
		    uint64_t now);
void nb_tcp_listen(struct nb_tcp_conn *c, const struct nb_tcp_params *p);

/*
 * Take one segment in.  Its payload (if any) is checked against the
 * pattern (as c->check says), or with an app's RX ring kept there.  May
 * make segments due (an ACK, a retransmission, a RST).
 */
void nb_tcp_input(struct nb_tcp_conn *c, const struct nb_tcp_seg *s,
		  uint64_t now);
/* nb_tcp_input() without its fast path for the next in-order data
 * segment (the tests compare the two). */
void nb_tcp_input_general(struct nb_tcp_conn *c, const struct nb_tcp_seg *s,
			  uint64_t now);

/*
 * The next segment to send now, filled into *s (payload: stream offset
 * data_off, len bytes; the caller writes the pattern there, or with an
 * app nb_tcp_frame_build_app() the app's bytes) and counted
 * as sent; 1 if there is one, 0 if nothing is due.
 */
int nb_tcp_output(struct nb_tcp_conn *c, uint64_t now, struct nb_tcp_seg *s);

/*
 * The common case of a bulk sender in one call: up to max segments of new
 * data, each a full segment and none the last before the data stops (so
 * no PSH), when nothing else is due (no RST, SYN, retransmission, probe or
 * timer; not in recovery with SACK).  Returns how many, k, with s the
 * first: segment i is s with seq and data_off i x s->len further on.  The
 * connection is left exactly as k calls of nb_tcp_output() would leave it,
 * and those calls would have given those segments.  0: nothing of that
 * kind now; ask nb_tcp_output().
 */
unsigned int nb_tcp_output_run(struct nb_tcp_conn *c, uint64_t now,
			       unsigned int max, struct nb_tcp_seg *s);

/* When the next timer is due (0: none armed).  nb_tcp_output() acts on
 * timers that are due; call it at or after this time. */
uint64_t nb_tcp_next_event(const struct nb_tcp_conn *c);

/*
 * Request/response: new data stops at the stream's first `total` bytes
 * until the limit is raised (UINT64_MAX, the default: no limit).  What is
 * sent is sent at once (no Nagle), the last segment of each limit with
 * PSH.
 */
void nb_tcp_send_limit(struct nb_tcp_conn *c, uint64_t total);

/* Stop sending new data: the FIN goes after what is already sent (--time
 * ended).  A no-op once the FIN is due or sent.  A passive end with no
 * byte limit does this itself when the peer's FIN comes. */
void nb_tcp_close(struct nb_tcp_conn *c);

/* Give up: a RST goes out next and the connection is closed. */
void nb_tcp_abort(struct nb_tcp_conn *c);

/* Both halves closed (or failed): nothing more will be sent, bar the
 * re-ACK of a retransmitted FIN. */
int nb_tcp_finished(const struct nb_tcp_conn *c);

/*
 * A busy receiver's stretch ACK (what Linux's GRO does on a full queue):
 * 1 when all c owes is a pure ACK for new in-order data, nothing else is
 * to be sent, and less than NB_TCP_ACK_STRETCH_DIV-th of the receive
 * window is unacknowledged.  The worker asks only while its last RX
 * burst came full (more frames at hand); the ACK leaves with the next
 * burst that does not, or once that much is owed.  Anything else (a
 * hole, a duplicate, a FIN, a timer) is never kept back.
 */
#define NB_TCP_ACK_STRETCH_DIV 8
int nb_tcp_ack_can_wait(const struct nb_tcp_conn *c);

/* Bytes in flight (sent, not acknowledged). */
static inline uint64_t
nb_tcp_flight(const struct nb_tcp_conn *c)
{
	return c->snd_max - c->snd_una;
}

/*
 * The RST that answers a segment no connection takes (RFC 793, "reset
 * generation"): 1 and *out filled, or 0 when s is itself a RST.
 */
int nb_tcp_rst_for(const struct nb_tcp_seg *s, struct nb_tcp_seg *out);

/*
 * One end's figures at one moment: what the reports show and the peer
 * protocol's TCP results blob carries (nb_ctl.h).  done_ns and
 * all_acked_ns are from the test's start, 0 for not yet; the caller fills
 * them (nb_tcp_endsnap_of leaves them 0).
 */
struct nb_tcp_endsnap {
	uint8_t state, error, check;
	uint64_t acked;	  /* stream bytes the peer acknowledged */
	uint64_t rcvd;	  /* stream bytes taken in, in order */
	uint64_t retrans; /* segments sent again */
	uint64_t fast_retrans, rto, recoveries;
	uint64_t cwnd, max_cwnd;
	uint64_t srtt_ns, rttvar_ns, min_rtt_ns, max_rtt_ns, rtt_samples;
	uint64_t bad_bytes, dup_bytes, ooo_segs;
	uint64_t segs_out, segs_in;
	uint64_t done_ns;      /* both halves closed */
	uint64_t all_acked_ns; /* a sender with a byte count: all acked */
	/* the RTT samples' sum; not in the peer protocol's blob (0 when the
	 * end is a peer's) */
	uint64_t rtt_sum_ns;
};
#define NB_TCP_ENDSNAP_U64 20 /* the u64 fields, acked to all_acked_ns */

void nb_tcp_endsnap_of(const struct nb_tcp_conn *c, struct nb_tcp_endsnap *o);

const char *nb_tcp_state_name(uint8_t state);
const char *nb_tcp_error_name(uint8_t error);

#endif /* NB_TCP_H */
