/* SPDX-License-Identifier: BSD-3-Clause */
/* A connection's application bytes (see nb_tcp_app.h).  Pure. */
#include "nb_tcp_app.h"

#include <string.h>

#include "nb_tcp_int.h"

void
nb_tcp_app_init(struct nb_tcp_app *app, uint8_t *txbuf, uint64_t txcap,
		uint8_t *rxbuf, uint32_t rxcap, int prefix_only)
{
	memset(app, 0, sizeof(*app));
	app->tx = txbuf;
	app->tx_cap = txbuf ? txcap : 0;
	app->rx = rxbuf;
	app->rx_cap = rxbuf ? rxcap : 0;
	app->prefix_only = prefix_only != 0;
}

void
nb_tcp_app_attach(struct nb_tcp_conn *c, struct nb_tcp_app *app)
{
	c->app = app;
	c->snd_app = app->prefix_only ? UINT64_MAX : 1 + app->tx_len;
	app->wnd_max = c->rcv_wnd;
	c->app_rx = app->rx_cap > 0;
	if (c->app_rx)
		nb_tcp_app_wnd(c);
}

size_t
nb_tcp_app_write(struct nb_tcp_conn *c, struct nb_tcp_app *app,
		 const void *bytes, size_t n)
{
	uint64_t room = app->tx_cap - app->tx_len;

	if (app->prefix_only ? c->snd_max > 1 : c->snd_end != UINT64_MAX)
		return 0; /* data has gone after the prefix; or closing */
	if (n > room)
		n = (size_t)room;
	if (n == 0)
		return 0;
	memcpy(app->tx + app->tx_len, bytes, n);
	app->tx_len += n;
	if (!app->prefix_only)
		c->snd_app = 1 + app->tx_len;
	return n;
}

/* The end of the in-order data received (a stream offset); 0 before the
 * handshake. */
static uint64_t
rx_end(const struct nb_tcp_conn *c)
{
	if (c->rcv_nxt < 1)
		return 0;
	return c->rcv_nxt - 1 - (c->fin_rcvd ? 1 : 0);
}

uint64_t
nb_tcp_app_readable(const struct nb_tcp_conn *c, const struct nb_tcp_app *app)
{
	uint64_t end = rx_end(c);

	return end > app->rx_off ? end - app->rx_off : 0;
}

int
nb_tcp_app_eof(const struct nb_tcp_conn *c, const struct nb_tcp_app *app)
{
	return c->fin_rcvd && nb_tcp_app_readable(c, app) == 0;
}

void
nb_tcp_app_wnd(struct nb_tcp_conn *c)
{
	const struct nb_tcp_app *app = c->app;
	uint64_t used = nb_tcp_app_readable(c, app);
	uint64_t room = app->rx_cap > used ? app->rx_cap - used : 0;

	if (room > app->wnd_max)
		room = app->wnd_max;
	c->rcv_wnd = (uint32_t)room;
}

size_t
nb_tcp_app_read(struct nb_tcp_conn *c, struct nb_tcp_app *app, void *out,
		size_t max)
{
	uint64_t n = nb_tcp_app_readable(c, app);
	uint32_t old = c->rcv_wnd, at, first;
	uint8_t *o = out;

	if (n > max)
		n = max;
	if (n == 0 || app->rx_cap == 0)
		return 0;
	at = (uint32_t)(app->rx_off % app->rx_cap);
	first = (uint32_t)min64(n, app->rx_cap - at);
	memcpy(o, app->rx + at, first);
	memcpy(o + first, app->rx, (size_t)(n - first));
	app->rx_off += n;
	nb_tcp_app_wnd(c);
	/* a window update when the peer may be held back: the window was
	 * under a segment (zero, say) or has grown by half the ring */
	if ((c->state == NB_TCP_ESTABLISHED || c->state == NB_TCP_FIN_WAIT_1 ||
	     c->state == NB_TCP_FIN_WAIT_2) &&
	    !c->fin_rcvd &&
	    (old < c->mss_local || c->rcv_wnd >= old + app->rx_cap / 2))
		ack_now(c);
	return (size_t)n;
}

void
nb_tcp_app_rx(struct nb_tcp_conn *c, const uint8_t *p, uint64_t off,
	      uint32_t len)
{
	const struct nb_tcp_app *app = c->app;
	uint32_t at, first;

	/* the window keeps [off, off + len) inside the ring's room */
	if (off < app->rx_off || off + len > app->rx_off + app->rx_cap)
		return;
	at = (uint32_t)(off % app->rx_cap);
	first = (uint32_t)min64(len, app->rx_cap - at);
	memcpy(app->rx + at, p, first);
	memcpy(app->rx, p + first, len - first);
}

const uint8_t *
nb_tcp_app_payload(const struct nb_tcp_app *app, uint64_t off, uint32_t len)
{
	if (off + len <= app->tx_len)
		return app->tx + off;
	if (app->prefix_only && off >= app->tx_len && len <= 16384u)
		return nb_tcp_pattern_at(off);
	return NULL;
}

int
nb_tcp_app_copy(const struct nb_tcp_app *app, uint64_t off, uint32_t len,
		uint8_t *dst)
{
	uint32_t n = 0, k;

	if (off + len > app->tx_len && !app->prefix_only)
		return -1;
	if (off < app->tx_len) {
		n = (uint32_t)min64(len, app->tx_len - off);
		memcpy(dst, app->tx + off, n);
	}
	while (n < len) {
		k = (uint32_t)min64(len - n, 16384u);
		memcpy(dst + n, nb_tcp_pattern_at(off + n), k);
		n += k;
	}
	return 0;
}
