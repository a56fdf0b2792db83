/* SPDX-License-Identifier: BSD-3-Clause */
/* The TCP state machine (see nb_tcp.h): opening, closing and the input
 * of segments by state.  Pure. */
#include "nb_tcp_int.h"

#include <string.h>

uint8_t
nb_tcp_wscale_for(uint32_t rcv_wnd)
{
	uint8_t ws = 0;

	while (ws < NB_TCP_WSCALE_MAX && (rcv_wnd >> ws) > 65535u)
		ws++;
	return ws;
}

static void
init_common(struct nb_tcp_conn *c, const struct nb_tcp_params *p)
{
	nb_tcp_pattern_init();
	memset(c, 0, sizeof(*c));
	c->iss = p->iss;
	c->mss_local = p->mss;
	c->mss = p->mss;
	c->stamp = p->stamp;
	c->stamp_len = p->stamp_len;
	if (c->stamp && c->stamp_len + 64u > c->mss)
		c->stamp = 0; /* a tiny MSS: no room for the stamp */
	c->rcv_wnd = p->rcv_wnd ? p->rcv_wnd : 65535u;
	c->wscale_offer = 1;
	c->rcv_wscale = nb_tcp_wscale_for(c->rcv_wnd);
	c->sack_offer = p->sack;
	c->delayed_ack = p->delayed_ack;
	c->check = p->check;
	c->cc = p->cc;
	c->close_after_send = p->close_after_send;
	c->snd_end =
		p->send_bytes == UINT64_MAX ? UINT64_MAX : 1 + p->send_bytes;
	c->rto_ns = NB_TCP_RTO_INIT_NS;
	c->ssthresh = UINT64_MAX / 2;
	c->snd_app = UINT64_MAX;
}

void
nb_tcp_send_limit(struct nb_tcp_conn *c, uint64_t total)
{
	c->snd_app = total == UINT64_MAX ? UINT64_MAX : 1 + total;
}

void
nb_tcp_connect(struct nb_tcp_conn *c, const struct nb_tcp_params *p,
	       uint64_t now)
{
	(void)now;
	init_common(c, p);
	c->active = 1;
	c->state = NB_TCP_SYN_SENT;
	c->syn_pending = 1;
}

void
nb_tcp_listen(struct nb_tcp_conn *c, const struct nb_tcp_params *p)
{
	init_common(c, p);
	c->state = NB_TCP_LISTEN;
}

void
nb_tcp_abort(struct nb_tcp_conn *c)
{
	if (c->state == NB_TCP_CLOSED || c->state == NB_TCP_LISTEN) {
		nb_tcp_fail(c, NB_TCP_ERR_ABORTED);
		return;
	}
	nb_tcp_rst_set(c, snd_seq(c, c->snd_nxt), rcv_seq(c, c->rcv_nxt),
		       NB_TCP_RST | NB_TCP_ACK);
	nb_tcp_fail(c, NB_TCP_ERR_ABORTED);
}

int
nb_tcp_finished(const struct nb_tcp_conn *c)
{
	return (c->state == NB_TCP_CLOSED && !c->rst_pending) ||
	       c->state == NB_TCP_TIME_WAIT;
}

void
nb_tcp_close(struct nb_tcp_conn *c)
{
	c->close_after_send = 1;
	if (c->snd_end == UINT64_MAX)
		c->snd_end = close_point(c);
	if (c->state == NB_TCP_SYN_SENT || c->state == NB_TCP_LISTEN)
		nb_tcp_fail(c, NB_TCP_OK); /* never opened: nothing to close */
}

uint64_t
nb_tcp_next_event(const struct nb_tcp_conn *c)
{
	uint64_t t = c->rto_due;

	if (c->delack_due && (!t || c->delack_due < t))
		t = c->delack_due;
	return t;
}

static void
established(struct nb_tcp_conn *c, uint64_t now)
{
	uint64_t m;

	c->state = NB_TCP_ESTABLISHED;
	c->snd_una = 1;
	if (c->snd_nxt < 1)
		c->snd_nxt = 1;
	if (c->retries == 0 && c->rtt_timing)
		nb_tcp_rtt_sample(c, now - c->rtt_sent_ns);
	c->rtt_timing = 0;
	c->retries = 0;
	c->rto_due = 0;
	/* RFC 6928: min(10 * MSS, max(2 * MSS, 14600)) */
	m = seg_payload(c);
	c->cwnd = min64(10 * m, max64(2 * m, 14600));
	c->st.max_cwnd = c->cwnd;
}

/* The options of a SYN or SYN-ACK received. */
static void
syn_options(struct nb_tcp_conn *c, const struct nb_tcp_seg *s)
{
	uint16_t peer_mss = s->has_mss ? s->mss : 536;

	if (peer_mss < 64)
		peer_mss = 64;
	c->mss = c->mss_local < peer_mss ? c->mss_local : peer_mss;
	if (c->stamp && c->stamp_len + 64u > c->mss)
		c->stamp = 0;
	if (c->wscale_offer && s->wscale != NB_TCP_WSCALE_NONE) {
		c->snd_wscale = s->wscale > NB_TCP_WSCALE_MAX
					? NB_TCP_WSCALE_MAX
					: s->wscale;
	} else {
		c->snd_wscale = 0;
		c->rcv_wscale = 0;
		c->wscale_offer = 0;
		if (c->rcv_wnd > 65535u)
			c->rcv_wnd = 65535u;
	}
	c->sack_ok = c->sack_offer && s->sack_ok;
	c->snd_wnd = s->wnd; /* a SYN's window is never scaled */
}

static int
can_receive(uint8_t st)
{
	return st == NB_TCP_ESTABLISHED || st == NB_TCP_FIN_WAIT_1 ||
	       st == NB_TCP_FIN_WAIT_2;
}

static void
input_listen(struct nb_tcp_conn *c, const struct nb_tcp_seg *s)
{
	if (s->flags & NB_TCP_RST)
		return;
	if (s->flags & NB_TCP_ACK) {
		nb_tcp_rst_set(c, s->ack, 0, NB_TCP_RST);
		return;
	}
	if (!(s->flags & NB_TCP_SYN))
		return;
	c->irs = s->seq;
	c->rcv_nxt = 1;
	c->snd_wl_seq = 0;
	syn_options(c, s);
	c->state = NB_TCP_SYN_RCVD;
	c->syn_pending = 1;
}

static void
input_syn_sent(struct nb_tcp_conn *c, const struct nb_tcp_seg *s, uint64_t now)
{
	int ack_ok = 0;

	if (s->flags & NB_TCP_ACK) {
		if (s->ack != snd_seq(c, 1)) {
			if (!(s->flags & NB_TCP_RST))
				nb_tcp_rst_set(c, s->ack, 0, NB_TCP_RST);
			return;
		}
		ack_ok = 1;
	}
	if (s->flags & NB_TCP_RST) {
		if (ack_ok) {
			c->st.rst_in++;
			nb_tcp_fail(c, NB_TCP_ERR_REFUSED);
		}
		return;
	}
	if (!(s->flags & NB_TCP_SYN) || !ack_ok)
		return; /* simultaneous open is not implemented */
	c->irs = s->seq;
	c->rcv_nxt = 1;
	syn_options(c, s);
	c->snd_wl_seq = 0;
	c->snd_wl_ack = 1;
	established(c, now);
	ack_now(c);
}

/*
 * Header prediction (as BSD's and Linux's fast path): the next in-order
 * data segment of an established connection, acking nothing new, with no
 * flag but PSH, no SACK blocks, nothing held out of order, no FIN seen,
 * inside the window and with nothing to check byte by byte.  Does what the
 * long way does with such a segment (1), or nothing (0).
 */
static int
input_predicted(struct nb_tcp_conn *c, const struct nb_tcp_seg *s, uint64_t now)
{
	uint64_t off = c->rcv_nxt;

	if (c->state != NB_TCP_ESTABLISHED ||
	    (s->flags & ~NB_TCP_PSH) != NB_TCP_ACK || s->len == 0 ||
	    s->nb_sack || c->nb_ooo || c->fin_off || c->app_rx ||
	    s->seq != rcv_seq(c, off) || s->ack != snd_seq(c, c->snd_una) ||
	    s->len > c->rcv_wnd ||
	    (c->check == NB_TCP_CHECK_ON && !s->pattern_ok) ||
	    (check_auto(c) && off == 1))
		return 0;
	c->st.segs_in++;
	/* ack_in's window update (RFC 793 3.9) */
	if (off > c->snd_wl_seq ||
	    (off == c->snd_wl_seq && c->snd_una >= c->snd_wl_ack)) {
		c->snd_wnd = (uint64_t)s->wnd << c->snd_wscale;
		c->snd_wl_seq = off;
		c->snd_wl_ack = c->snd_una;
	}
	/* data_in's in-order delivery and ACK policy */
	c->rcv_nxt = off + s->len;
	c->st.bytes_rcvd += s->len;
	c->segs_unacked++;
	if (!c->delayed_ack || c->segs_unacked >= 2)
		c->ack_pending = 1;
	else if (!c->delack_due)
		c->delack_due = now + NB_TCP_DELACK_NS;
	return 1;
}

static void
input_general(struct nb_tcp_conn *c, const struct nb_tcp_seg *s, uint64_t now)
{
	uint64_t seglen =
		s->len + !!(s->flags & NB_TCP_SYN) + !!(s->flags & NB_TCP_FIN);
	uint64_t wnd = c->rcv_wnd;
	int64_t off;
	int ok;

	c->st.segs_in++;
	switch (c->state) {
	case NB_TCP_CLOSED:
		return;
	case NB_TCP_LISTEN:
		input_listen(c, s);
		return;
	case NB_TCP_SYN_SENT:
		input_syn_sent(c, s, now);
		return;
	default:
		break;
	}
	off = rcv_off(c, s->seq);
	/* a SYN again while we wait for the ACK of ours: answer again */
	if (c->state == NB_TCP_SYN_RCVD && (s->flags & NB_TCP_SYN) &&
	    !(s->flags & NB_TCP_ACK) && s->seq == c->irs) {
		c->syn_pending = 1;
		return;
	}
	/* acceptability (RFC 793 3.9) */
	if (seglen == 0)
		ok = off == (int64_t)c->rcv_nxt ||
		     (off >= (int64_t)c->rcv_nxt &&
		      off < (int64_t)(c->rcv_nxt + wnd));
	else
		ok = (off >= (int64_t)c->rcv_nxt &&
		      off < (int64_t)(c->rcv_nxt + wnd)) ||
		     (off + (int64_t)seglen - 1 >= (int64_t)c->rcv_nxt &&
		      off + (int64_t)seglen - 1 < (int64_t)(c->rcv_nxt + wnd));
	if (!ok) {
		if (s->flags & NB_TCP_RST)
			return;
		if (off + (int64_t)seglen <= (int64_t)c->rcv_nxt)
			c->st.dup_bytes_in += s->len;
		else
			c->st.out_of_window++;
		ack_now(c);
		return;
	}
	if (s->flags & NB_TCP_RST) {
		if (off == (int64_t)c->rcv_nxt) {
			c->st.rst_in++;
			nb_tcp_fail(c, NB_TCP_ERR_RESET);
		} else {
			ack_now(c); /* RFC 5961 challenge ACK */
		}
		return;
	}
	if (s->flags & NB_TCP_SYN) {
		ack_now(c); /* RFC 5961 challenge ACK */
		return;
	}
	if (!(s->flags & NB_TCP_ACK))
		return;
	if (c->state == NB_TCP_SYN_RCVD) {
		if (s->ack != snd_seq(c, 1)) {
			nb_tcp_rst_set(c, s->ack, 0, NB_TCP_RST);
			return;
		}
		c->snd_wl_seq = (uint64_t)off;
		c->snd_wl_ack = 1;
		c->snd_wnd = (uint64_t)s->wnd << c->snd_wscale;
		established(c, now);
	}
	nb_tcp_ack_in(c, s, off, now);
	if (c->state == NB_TCP_CLOSED)
		return;
	if ((s->len || (s->flags & NB_TCP_FIN)) && can_receive(c->state))
		nb_tcp_data_in(c, s, off, now);
}

void
nb_tcp_input(struct nb_tcp_conn *c, const struct nb_tcp_seg *s, uint64_t now)
{
	if (!input_predicted(c, s, now))
		input_general(c, s, now);
}

void
nb_tcp_input_general(struct nb_tcp_conn *c, const struct nb_tcp_seg *s,
		     uint64_t now)
{
	input_general(c, s, now);
}

void
nb_tcp_endsnap_of(const struct nb_tcp_conn *c, struct nb_tcp_endsnap *o)
{
	const struct nb_tcp_stats *a = &c->st;

	memset(o, 0, sizeof(*o));
	o->state = c->state;
	o->error = c->error;
	o->check = c->check;
	o->acked = a->bytes_acked;
	o->rcvd = a->bytes_rcvd;
	o->retrans = a->retrans;
	o->fast_retrans = a->fast_retrans;
	o->rto = a->rto_fired;
	o->recoveries = a->recoveries;
	o->cwnd = c->cwnd;
	o->max_cwnd = a->max_cwnd;
	o->srtt_ns = c->srtt_ns;
	o->rttvar_ns = c->rttvar_ns;
	o->min_rtt_ns = a->min_rtt_ns;
	o->max_rtt_ns = a->max_rtt_ns;
	o->rtt_samples = a->rtt_samples;
	o->rtt_sum_ns = a->rtt_sum_ns;
	o->bad_bytes = a->bad_bytes;
	o->dup_bytes = a->dup_bytes_in;
	o->ooo_segs = a->ooo_segs_in;
	o->segs_out = a->segs_out;
	o->segs_in = a->segs_in;
}

const char *
nb_tcp_state_name(uint8_t state)
{
	static const char *const names[] = {
		"CLOSED",      "LISTEN",     "SYN_SENT",   "SYN_RCVD",
		"ESTABLISHED", "FIN_WAIT_1", "FIN_WAIT_2", "CLOSING",
		"TIME_WAIT",   "CLOSE_WAIT", "LAST_ACK",
	};

	return state < sizeof(names) / sizeof(names[0]) ? names[state] : "?";
}

const char *
nb_tcp_error_name(uint8_t error)
{
	switch (error) {
	case NB_TCP_OK:
		return "ok";
	case NB_TCP_ERR_RESET:
		return "reset by peer";
	case NB_TCP_ERR_REFUSED:
		return "connection refused";
	case NB_TCP_ERR_TIMEOUT:
		return "timed out";
	case NB_TCP_ERR_ABORTED:
		return "aborted";
	default:
		return "?";
	}
}
