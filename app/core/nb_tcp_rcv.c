/* SPDX-License-Identifier: BSD-3-Clause */
/* TCP's receiver: in-order and out-of-order data, the payload check (or
 * the app's RX buffer, nb_tcp_app.c), the peer's FIN.  Pure. */
#include "nb_tcp_int.h"

#include <string.h>

/* Out-of-order intervals: add [lo, hi), merging; 1, or -1 when a higher
 * interval was dropped for it, or 0 if there was no room. */
static int
ooo_add(struct nb_tcp_conn *c, uint64_t lo, uint64_t hi, uint64_t *dup)
{
	unsigned int i, j;
	uint64_t nlo = lo, nhi = hi;
	int merged = -1;

	*dup = 0;
	for (i = 0; i < c->nb_ooo; i++) {
		struct nb_tcp_ival *v = &c->ooo[i];

		if (nhi < v->lo || nlo > v->hi)
			continue;
		/* overlap or touch: bytes already held count as duplicates */
		if (lo < v->hi && hi > v->lo)
			*dup += min64(hi, v->hi) - max64(lo, v->lo);
		nlo = min64(nlo, v->lo);
		nhi = max64(nhi, v->hi);
		if (merged < 0) {
			merged = (int)i;
		} else {
			/* this one joins the first: remove it */
			for (j = i; j + 1 < c->nb_ooo; j++)
				c->ooo[j] = c->ooo[j + 1];
			c->nb_ooo--;
			if (c->last_ooo > i)
				c->last_ooo--;
			i--;
		}
		c->ooo[merged].lo = nlo;
		c->ooo[merged].hi = nhi;
	}
	if (merged >= 0) {
		c->last_ooo = (uint8_t)merged;
		return 1;
	}
	if (c->nb_ooo == NB_TCP_OOO) {
		/* full: the interval farthest from rcv_nxt goes, if it lies
		 * above this one (what is nearest is delivered first) */
		unsigned int top = 0;

		for (i = 1; i < c->nb_ooo; i++)
			if (c->ooo[i].lo > c->ooo[top].lo)
				top = i;
		if (c->ooo[top].lo < lo)
			return 0;
		c->ooo[top].lo = lo;
		c->ooo[top].hi = hi;
		c->last_ooo = (uint8_t)top;
		return -1;
	}
	c->ooo[c->nb_ooo].lo = lo;
	c->ooo[c->nb_ooo].hi = hi;
	c->last_ooo = c->nb_ooo++;
	return 1;
}

/* rcv_nxt moved: take the intervals it reached. */
static void
ooo_advance(struct nb_tcp_conn *c)
{
	unsigned int i, j;
	int again = 1;

	while (again) {
		again = 0;
		for (i = 0; i < c->nb_ooo; i++) {
			if (c->ooo[i].lo > c->rcv_nxt)
				continue;
			if (c->ooo[i].hi > c->rcv_nxt)
				c->rcv_nxt = c->ooo[i].hi;
			for (j = i; j + 1 < c->nb_ooo; j++)
				c->ooo[j] = c->ooo[j + 1];
			c->nb_ooo--;
			c->last_ooo = 0;
			again = 1;
			break;
		}
	}
}

static uint64_t
bad_count(const uint8_t *got, uint64_t k, uint32_t len)
{
	const uint8_t *want = nb_tcp_pattern_at(k);
	uint64_t bad = 0;
	uint32_t i, n;

	while (len) {
		n = len > 16384u ? 16384u : len;
		if (memcmp(got, want, n) != 0)
			for (i = 0; i < n; i++)
				bad += got[i] != want[i];
		got += n;
		k += n;
		len -= n;
		want = nb_tcp_pattern_at(k);
	}
	return bad;
}

int64_t
nb_tcp_rcv_stream_off(const struct nb_tcp_conn *c, uint32_t seq)
{
	if (c->state < NB_TCP_SYN_RCVD)
		return -1;
	return rcv_off(c, seq) - 1;
}

/* The FIN the peer sent, once every byte before it is in. */
static void
fin_take(struct nb_tcp_conn *c)
{
	if (c->fin_rcvd || !c->fin_off || c->rcv_nxt != c->fin_off)
		return;
	c->fin_rcvd = 1;
	c->rcv_nxt++;
	/* it was endless (an app's reader closes when it has read all) */
	if (!c->active && c->snd_end == UINT64_MAX && !c->app_rx)
		c->snd_end = max64(c->snd_max, 1);
	c->nb_ooo = 0; /* what a peer sent past its FIN is nothing */
	ack_now(c);
	c->delack_due = 0;
	switch (c->state) {
	case NB_TCP_ESTABLISHED:
		c->state = NB_TCP_CLOSE_WAIT;
		break;
	case NB_TCP_FIN_WAIT_1:
		c->state = NB_TCP_CLOSING;
		break;
	case NB_TCP_FIN_WAIT_2:
		c->state = NB_TCP_TIME_WAIT;
		c->rto_due = 0;
		break;
	default:
		break;
	}
}

/* Accepted payload [lo, hi) (connection offsets, inside the window):
 * delivered in order or held as an interval, the ACK it calls for, the
 * FIN it may complete. */
static void
take(struct nb_tcp_conn *c, uint64_t lo, uint64_t hi, uint64_t now)
{
	uint64_t dup, before;
	int had_ooo = c->nb_ooo > 0;

	if (lo == c->rcv_nxt) {
		before = c->rcv_nxt;
		c->rcv_nxt = hi;
		ooo_advance(c);
		c->st.bytes_rcvd += c->rcv_nxt - before;
		if (had_ooo) {
			ack_now(c); /* a hole filled: at once */
		} else {
			c->segs_unacked++;
			if (!c->delayed_ack || c->segs_unacked >= 2) {
				c->ack_pending = 1;
			} else if (!c->delack_due) {
				c->delack_due = now + NB_TCP_DELACK_NS;
			}
		}
	} else {
		int r = ooo_add(c, lo, hi, &dup);

		c->st.ooo_segs_in++;
		if (r <= 0)
			c->st.ooo_dropped++;
		if (r != 0)
			c->st.dup_bytes_in += dup;
		ack_now(c); /* a duplicate ACK, at once (RFC 5681) */
	}
	fin_take(c);
}

void
nb_tcp_data_in(struct nb_tcp_conn *c, const struct nb_tcp_seg *s, int64_t off,
	       uint64_t now)
{
	uint64_t lo = (uint64_t)off, hi = lo + s->len;
	uint64_t wnd_hi = c->rcv_nxt + c->rcv_wnd;
	const uint8_t *p = s->payload;

	if (s->flags & NB_TCP_FIN) {
		if (!c->fin_off && hi <= wnd_hi)
			c->fin_off = hi;
	}
	if (s->len == 0) {
		fin_take(c);
		if (!c->fin_rcvd)
			ack_now(c); /* a FIN above a hole: dup ACK */
		return;
	}
	if (lo < c->rcv_nxt) { /* the part already delivered */
		uint64_t d = min64(hi, c->rcv_nxt) - lo;

		c->st.dup_bytes_in += d;
		p += d;
		lo += d;
	}
	if (hi > wnd_hi) /* beyond what we offered: dropped */
		hi = wnd_hi;
	if (c->fin_off && hi > c->fin_off)
		hi = c->fin_off; /* nothing after a FIN counts */
	if (lo >= hi) {
		ack_now(c);
		fin_take(c);
		return;
	}
	if (c->app_rx) { /* the application's bytes: kept, never checked */
		nb_tcp_app_rx(c, p, lo - 1, (uint32_t)(hi - lo));
		take(c, lo, hi, now);
		nb_tcp_app_wnd(c);
		return;
	}
	if (check_auto(c) && lo == 1 && hi - lo >= NB_TCP_CHECK_PROBE)
		c->check = memcmp(p, nb_tcp_pattern, NB_TCP_CHECK_PROBE) == 0
				   ? NB_TCP_CHECK_ON
				   : NB_TCP_CHECK_OFF;
	if (c->check == NB_TCP_CHECK_ON && !s->pattern_ok)
		c->st.bad_bytes += bad_count(p, lo - 1, (uint32_t)(hi - lo));
	take(c, lo, hi, now);
}
