/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A connection's application bytes: what turns the closed-loop TCP
 * (nb_tcp.h), whose stream is otherwise the pattern, into a connection
 * that carries given bytes (iperf3's control connection, or a data stream
 * that starts with a cookie).  The caller owns the struct and both
 * buffers; nothing is allocated.
 *
 * TX: a log, bytes [0, tx_len) of the stream as written, kept until the
 * connection ends (retransmissions are rebuilt from it).  A control
 * connection sends only what was written; a prefix stream (prefix_only)
 * sends the log's bytes and then the pattern (byte k is
 * nb_tcp_pattern_at(k) for k >= tx_len) without limit, as a pattern
 * stream does; its prefix is written before the first data byte goes.
 *
 * RX: a ring of rx_cap bytes holding the stream from the read offset on,
 * each byte placed by its offset, so out-of-order segments are kept.
 * Such a connection never checks its payload against the pattern, and
 * offers a receive window no larger than the ring's free room: a reader
 * that does not read closes the window, and reading opens it again (a
 * window update goes out).  rx_cap 0: no RX buffer, the receiver is as
 * without an app (the pattern check as configured).
 */
#ifndef NB_TCP_APP_H
#define NB_TCP_APP_H

#include <stddef.h>
#include <stdint.h>

#include "nb_tcp.h"

struct nb_tcp_app {
	uint8_t *tx;	     /* the TX log */
	uint64_t tx_cap;     /* its room */
	uint64_t tx_len;     /* stream bytes [0, tx_len) written */
	uint8_t *rx;	     /* the RX ring */
	uint32_t rx_cap;     /* its room (0: no RX buffer) */
	uint64_t rx_off;     /* stream offset of the next byte to read */
	uint32_t wnd_max;    /* the connection's window when attached */
	uint8_t prefix_only; /* the log is a prefix, the pattern follows */
};

/* Set up app over the caller's buffers (either may be NULL with 0 room). */
void nb_tcp_app_init(struct nb_tcp_app *app, uint8_t *txbuf, uint64_t txcap,
		     uint8_t *rxbuf, uint32_t rxcap, int prefix_only);

/*
 * Give connection c its application bytes: after nb_tcp_connect() or
 * nb_tcp_listen() (they clear c) and before the first output.  A control
 * connection sends nothing until written to; its params' send_bytes should
 * be UINT64_MAX (the FIN goes after the last byte written, at
 * nb_tcp_close()).  With an app that has an RX buffer, the end does not
 * close by itself when the peer's FIN comes: the reader sees the end
 * (nb_tcp_app_eof()) and calls nb_tcp_close().
 */
void nb_tcp_app_attach(struct nb_tcp_conn *c, struct nb_tcp_app *app);

/*
 * Append n bytes to the stream; returns how many were taken (fewer when
 * the log is full, 0 once the connection is closing or, for a prefix
 * stream, once data has gone out).  nb_tcp_output() then sends them.
 */
size_t nb_tcp_app_write(struct nb_tcp_conn *c, struct nb_tcp_app *app,
			const void *bytes, size_t n);

/* Bytes received in order and not yet read. */
uint64_t nb_tcp_app_readable(const struct nb_tcp_conn *c,
			     const struct nb_tcp_app *app);

/*
 * Take up to max in-order bytes into out; returns how many.  The window
 * opens by as much; when it was under a segment, or grows by half the
 * ring, an ACK is due with it (a window update).
 */
size_t nb_tcp_app_read(struct nb_tcp_conn *c, struct nb_tcp_app *app, void *out,
		       size_t max);

/* 1 once the peer's FIN came and every byte before it was read. */
int nb_tcp_app_eof(const struct nb_tcp_conn *c, const struct nb_tcp_app *app);

/*
 * The bytes [off, off + len) of the stream (stream offsets: 0 is the first
 * data byte, as a segment's data_off): a pointer to them when they lie in
 * one place (all in the log, or all pattern above it for a prefix stream,
 * len at most 16384), else NULL (a segment across the prefix's end, or
 * past what was written): nb_tcp_app_copy() writes those.
 */
const uint8_t *nb_tcp_app_payload(const struct nb_tcp_app *app, uint64_t off,
				  uint32_t len);

/* Copy the stream's bytes [off, off + len) to dst: the log's below
 * tx_len, the pattern's above it (a prefix stream).  0, or -1 when a
 * control connection's bytes past tx_len are asked for. */
int nb_tcp_app_copy(const struct nb_tcp_app *app, uint64_t off, uint32_t len,
		    uint8_t *dst);

#endif /* NB_TCP_APP_H */
