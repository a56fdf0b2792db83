/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside the TCP state machine: what its files (nb_tcp.c input and
 * state, nb_tcp_out.c output, nb_tcp_cc.c RTT, RTO and congestion
 * control, nb_tcp_sack.c the sender's SACK scoreboard, nb_tcp_rcv.c the
 * receiver, nb_tcp_pattern.c the stream's bytes, nb_tcp_app.c a
 * connection's application bytes) share.  Not an API: the
 * rest of the tool includes nb_tcp.h only.
 */
#ifndef NB_TCP_INT_H
#define NB_TCP_INT_H

#include "nb_tcp.h"

/* An ACK owed at once: for anything but new in-order data (a hole, a
 * duplicate, a FIN, a window to reopen, a challenge, a timer).  In-order
 * data sets ack_pending alone: that ACK may wait while the worker has
 * more data at hand (nb_tcp_ack_can_wait). */
static inline void
ack_now(struct nb_tcp_conn *c)
{
	c->ack_pending = 1;
	c->ack_urgent = 1;
}

static inline uint64_t
min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static inline uint64_t
max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* 32-bit sequence numbers from and to 64-bit offsets near a reference */
static inline uint32_t
snd_seq(const struct nb_tcp_conn *c, uint64_t off)
{
	return c->iss + (uint32_t)off;
}

static inline int64_t
snd_off(const struct nb_tcp_conn *c, uint32_t seq)
{
	return (int64_t)c->snd_una + (int32_t)(seq - snd_seq(c, c->snd_una));
}

static inline uint32_t
rcv_seq(const struct nb_tcp_conn *c, uint64_t off)
{
	return c->irs + (uint32_t)off;
}

static inline int64_t
rcv_off(const struct nb_tcp_conn *c, uint32_t seq)
{
	return (int64_t)c->rcv_nxt + (int32_t)(seq - rcv_seq(c, c->rcv_nxt));
}

/* payload bytes per segment: options count against the MSS (RFC 6691) */
static inline uint32_t
seg_payload(const struct nb_tcp_conn *c)
{
	return (uint32_t)c->mss - (c->stamp ? c->stamp_len : 0);
}

static inline int
check_auto(const struct nb_tcp_conn *c)
{
	return c->check == NB_TCP_CHECK_AUTO;
}

static inline int
sack_recovery(const struct nb_tcp_conn *c)
{
	return c->in_recovery && c->sack_ok;
}

/* The end fails (closed, with err), or owes a RST. */
static inline void
nb_tcp_fail(struct nb_tcp_conn *c, uint8_t err)
{
	c->state = NB_TCP_CLOSED;
	c->error = err;
	c->rto_due = 0;
	c->delack_due = 0;
	c->ack_pending = 0;
	c->syn_pending = 0;
	c->rexmit_pending = 0;
	c->probe_pending = 0;
}

static inline void
nb_tcp_rst_set(struct nb_tcp_conn *c, uint32_t seq, uint32_t ack, uint8_t flags)
{
	c->rst_pending = 1;
	c->rst_seq = seq;
	c->rst_ack = ack;
	c->rst_flags = flags;
}

/* nb_tcp_cc.c: an RTT sample (ns), an ACK's sender side (seqoff: the
 * segment's offset, for the window update), a retransmission timeout */
void nb_tcp_rtt_sample(struct nb_tcp_conn *c, uint64_t r);
void nb_tcp_ack_in(struct nb_tcp_conn *c, const struct nb_tcp_seg *s,
		   int64_t seqoff, uint64_t now);
void nb_tcp_on_rto(struct nb_tcp_conn *c, uint64_t now);

/* nb_tcp_rcv.c: a segment's payload and FIN at stream offset off */
void nb_tcp_data_in(struct nb_tcp_conn *c, const struct nb_tcp_seg *s,
		    int64_t off, uint64_t now);

/* nb_tcp_app.c: an accepted segment's payload [off, off + len) (stream
 * offsets) into the app's RX buffer; the receive window from its room */
void nb_tcp_app_rx(struct nb_tcp_conn *c, const uint8_t *p, uint64_t off,
		   uint32_t len);
void nb_tcp_app_wnd(struct nb_tcp_conn *c);

/* Where nb_tcp_close() puts the FIN: after the last byte the app wrote
 * (a control connection), else after what was sent. */
static inline uint64_t
close_point(const struct nb_tcp_conn *c)
{
	if (c->app && c->snd_app != UINT64_MAX)
		return max64(c->snd_app, 1);
	return max64(c->snd_max, 1);
}

/* nb_tcp_sack.c: the scoreboard's sum, pruned below snd_una, updated
 * from an ACK's blocks; its first hole at or above from; the pipe */
void nb_tcp_sb_sum(struct nb_tcp_conn *c);
void nb_tcp_sb_prune(struct nb_tcp_conn *c);
void nb_tcp_sb_update(struct nb_tcp_conn *c, const struct nb_tcp_seg *s);
int nb_tcp_sb_hole(const struct nb_tcp_conn *c, uint64_t from, uint64_t *lo,
		   uint64_t *hi);
uint64_t nb_tcp_sb_pipe(const struct nb_tcp_conn *c);

#endif /* NB_TCP_INT_H */
