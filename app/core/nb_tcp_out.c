/* SPDX-License-Identifier: BSD-3-Clause */
/* TCP's output: the next segment due (RST, SYN, retransmission, new
 * data, FIN, ACK) and the bulk sender's run of segments.  Pure. */
#include "nb_tcp_int.h"

#include <string.h>

static void
fill_ack(const struct nb_tcp_conn *c, struct nb_tcp_seg *s)
{
	uint64_t w = c->rcv_wnd >> c->rcv_wscale;

	s->ack = rcv_seq(c, c->rcv_nxt);
	s->flags |= NB_TCP_ACK;
	s->wnd = (uint32_t)(w > 65535 ? 65535 : w);
}

static void
sent_ack(struct nb_tcp_conn *c)
{
	c->ack_pending = 0;
	c->ack_urgent = 0;
	c->segs_unacked = 0;
	c->delack_due = 0;
	c->rcv_acked = c->rcv_nxt;
}

/* The SACK blocks of an ACK: the newest interval first (RFC 2018 4). */
static void
fill_sack(const struct nb_tcp_conn *c, struct nb_tcp_seg *s)
{
	unsigned int i, n = 0;

	if (!c->sack_ok || !c->nb_ooo)
		return;
	s->sack[n][0] = rcv_seq(c, c->ooo[c->last_ooo].lo);
	s->sack[n][1] = rcv_seq(c, c->ooo[c->last_ooo].hi);
	n++;
	for (i = 0; i < c->nb_ooo && n < NB_TCP_SACK_MAX; i++) {
		if (i == c->last_ooo)
			continue;
		s->sack[n][0] = rcv_seq(c, c->ooo[i].lo);
		s->sack[n][1] = rcv_seq(c, c->ooo[i].hi);
		n++;
	}
	s->nb_sack = (uint8_t)n;
}

static int
out_syn(struct nb_tcp_conn *c, uint64_t now, struct nb_tcp_seg *s)
{
	s->seq = c->iss;
	s->flags = NB_TCP_SYN;
	s->has_mss = 1;
	s->mss = c->mss_local;
	s->wscale = c->wscale_offer ? c->rcv_wscale : NB_TCP_WSCALE_NONE;
	s->sack_ok = c->active ? c->sack_offer : c->sack_ok;
	if (c->active) {
		s->wnd = c->rcv_wnd > 65535u ? 65535u : c->rcv_wnd;
	} else {
		fill_ack(c, s);
		s->wnd = c->rcv_wnd > 65535u ? 65535u : c->rcv_wnd;
		sent_ack(c);
	}
	if (c->retries)
		s->rexmit = 1;
	c->syn_pending = 0;
	if (c->snd_nxt < 1)
		c->snd_nxt = 1;
	if (c->snd_max < 1)
		c->snd_max = 1;
	if (!c->retries) {
		c->rtt_timing = 1;
		c->rtt_off = 1;
		c->rtt_sent_ns = now;
	}
	if (!c->rto_due)
		c->rto_due = now + c->rto_ns;
	return 1;
}

static void
out_data(struct nb_tcp_conn *c, uint64_t now, struct nb_tcp_seg *s,
	 uint64_t off, uint32_t len)
{
	s->seq = snd_seq(c, off);
	fill_ack(c, s);
	s->len = (uint16_t)len;
	s->data_off = off - 1;
	s->has_stamp = c->stamp;
	if (off + len >= min64(c->snd_end, c->snd_app))
		s->flags |= NB_TCP_PSH;
	if (off < c->snd_max) {
		s->rexmit = 1;
		c->st.retrans++;
		c->st.retrans_bytes += len;
		if (c->rtt_timing && c->rtt_off > off &&
		    c->rtt_off <= off + len)
			c->rtt_timing = 0; /* Karn: never time a resend */
	} else if (!c->rtt_timing) {
		c->rtt_timing = 1;
		c->rtt_off = off + len;
		c->rtt_sent_ns = now;
	}
	c->st.data_segs_out++;
	if (!c->rto_due)
		c->rto_due = now + c->rto_ns;
	sent_ack(c);
}

static int
out_fin(struct nb_tcp_conn *c, uint64_t now, struct nb_tcp_seg *s)
{
	s->seq = snd_seq(c, c->snd_end);
	s->flags = NB_TCP_FIN;
	fill_ack(c, s);
	if (c->snd_end < c->snd_max) {
		s->rexmit = 1;
		c->st.retrans++;
	}
	if (c->snd_nxt <= c->snd_end)
		c->snd_nxt = c->snd_end + 1;
	c->snd_max = max64(c->snd_max, c->snd_end + 1);
	if (c->state == NB_TCP_ESTABLISHED)
		c->state = NB_TCP_FIN_WAIT_1;
	else if (c->state == NB_TCP_CLOSE_WAIT)
		c->state = NB_TCP_LAST_ACK;
	if (!c->rto_due)
		c->rto_due = now + c->rto_ns;
	sent_ack(c);
	return 1;
}

/* RFC 6675 5 (NextSeg): the next hole not yet sent again, else new
 * data, while the pipe leaves room in cwnd; 1 if a segment is out. */
static int
out_sack_recovery(struct nb_tcp_conn *c, uint64_t now, struct nb_tcp_seg *s,
		  uint64_t m, uint64_t end)
{
	uint64_t pipe = nb_tcp_sb_pipe(c), lo, hi;
	uint32_t len;

	if (c->cwnd >= pipe + m) {
		if (nb_tcp_sb_hole(c, max64(c->rexmit_hi, c->snd_una), &lo,
				   &hi)) {
			len = (uint32_t)min64(m, min64(hi, end) - lo);
			if (len) {
				out_data(c, now, s, lo, len);
				c->rexmit_hi = lo + len;
				c->st.fast_retrans++;
				c->st.segs_out++;
				return 1;
			}
		}
		if (c->snd_nxt < end) {
			len = (uint32_t)min64(m, end - c->snd_nxt);
			if (c->snd_nxt - c->snd_una + len <= c->snd_wnd) {
				out_data(c, now, s, c->snd_nxt, len);
				c->snd_nxt += len;
				c->snd_max = max64(c->snd_max, c->snd_nxt);
				c->st.segs_out++;
				return 1;
			}
		}
	}
	return 0;
}

static int
can_send(uint8_t st)
{
	return st == NB_TCP_ESTABLISHED || st == NB_TCP_CLOSE_WAIT ||
	       st == NB_TCP_FIN_WAIT_1 || st == NB_TCP_CLOSING ||
	       st == NB_TCP_LAST_ACK;
}

/* The fast retransmit of snd_una that rexmit_pending asks for (three
 * duplicate ACKs or a partial ACK), or of the FIN; 1 if a segment is out. */
static int
out_rexmit(struct nb_tcp_conn *c, uint64_t now, struct nb_tcp_seg *s,
	   uint64_t m, uint64_t end)
{
	uint32_t len;

	c->rexmit_pending = 0;
	if (c->snd_una < end && c->snd_una < c->snd_max) {
		len = (uint32_t)min64(m, end - c->snd_una);
		len = (uint32_t)min64(len, c->snd_max - c->snd_una);
		out_data(c, now, s, c->snd_una, len);
		c->rexmit_hi = max64(c->rexmit_hi, c->snd_una + len);
		c->st.fast_retrans++;
		c->st.segs_out++;
		return 1;
	}
	if (c->snd_una == end && c->snd_max > end) {
		c->st.segs_out++;
		return out_fin(c, now, s);
	}
	return 0;
}

/* New data up to dend within cwnd (plus limited transmit) and the peer's
 * window; 1 if a segment is out, else the persist timer may start. */
static int
out_new(struct nb_tcp_conn *c, uint64_t now, struct nb_tcp_seg *s, uint64_t m,
	uint64_t dend)
{
	uint64_t lim, extra;
	uint32_t len;

	/* RFC 3042: a new segment per dupack, up to two */
	extra = (!c->in_recovery && c->dupacks <= 2) ? c->dupacks * m : 0;
	lim = min64(c->cwnd + extra, c->snd_wnd);
	len = (uint32_t)min64(m, dend - c->snd_nxt);
	/* a window under a segment (a reader's small buffer), nothing out:
	 * fill it, or no ACK would come to open it (RFC 1122 4.2.3.4) */
	if (len > lim && c->snd_nxt == c->snd_una)
		len = (uint32_t)lim;
	if (len && c->snd_nxt - c->snd_una + len <= lim) {
		out_data(c, now, s, c->snd_nxt, len);
		c->snd_nxt += len;
		c->snd_max = max64(c->snd_max, c->snd_nxt);
		c->st.segs_out++;
		return 1;
	}
	if (c->snd_wnd == 0 && c->snd_una == c->snd_max && !c->rto_due)
		c->rto_due = now + c->rto_ns; /* persist */
	return 0;
}

/* What the sending half owes, in order: a retransmission, a window
 * probe, data (by the SACK pipe in SACK recovery), the FIN. */
static int
out_sender(struct nb_tcp_conn *c, uint64_t now, struct nb_tcp_seg *s)
{
	uint64_t m = seg_payload(c);
	uint64_t end = c->snd_end; /* data is [1, snd_end); the FIN there */
	uint64_t dend = min64(end, c->snd_app); /* new data stops here */

	if (c->rexmit_pending && out_rexmit(c, now, s, m, end))
		return 1;
	if (c->probe_pending && c->snd_nxt < dend) {
		c->probe_pending = 0;
		out_data(c, now, s, c->snd_nxt, 1);
		c->snd_nxt++;
		c->snd_max = max64(c->snd_max, c->snd_nxt);
		c->st.segs_out++;
		return 1;
	}
	if (sack_recovery(c)) {
		if (out_sack_recovery(c, now, s, m, dend))
			return 1;
	} else if (c->snd_nxt < dend && out_new(c, now, s, m, dend)) {
		return 1;
	}
	if (end != UINT64_MAX && c->snd_nxt == end &&
	    (c->close_after_send || c->fin_rcvd)) {
		c->st.segs_out++;
		return out_fin(c, now, s);
	}
	return 0;
}

int
nb_tcp_output(struct nb_tcp_conn *c, uint64_t now, struct nb_tcp_seg *s)
{
	memset(s, 0, sizeof(*s));
	s->wscale = NB_TCP_WSCALE_NONE;
	if (c->rst_pending) {
		c->rst_pending = 0;
		s->seq = c->rst_seq;
		s->ack = c->rst_ack;
		s->flags = c->rst_flags;
		c->st.rst_out++;
		c->st.segs_out++;
		return 1;
	}
	if (c->state == NB_TCP_CLOSED || c->state == NB_TCP_LISTEN)
		return 0;
	if (c->rto_due && now >= c->rto_due) {
		nb_tcp_on_rto(c, now);
		if (c->state == NB_TCP_CLOSED)
			return nb_tcp_output(c, now, s);
	}
	if (c->delack_due && now >= c->delack_due) {
		c->delack_due = 0;
		ack_now(c);
	}
	if (c->syn_pending) {
		c->st.segs_out++;
		return out_syn(c, now, s);
	}
	if (c->state == NB_TCP_SYN_SENT || c->state == NB_TCP_SYN_RCVD)
		return 0;
	if (can_send(c->state) && out_sender(c, now, s))
		return 1;
	if (c->ack_pending) {
		fill_ack(c, s);
		s->seq = snd_seq(c, c->snd_nxt);
		fill_sack(c, s);
		sent_ack(c);
		c->st.segs_out++;
		return 1;
	}
	return 0;
}

int
nb_tcp_ack_can_wait(const struct nb_tcp_conn *c)
{
	return c->ack_pending && !c->ack_urgent &&
	       c->state == NB_TCP_ESTABLISHED && !c->rst_pending &&
	       !c->syn_pending && !c->rexmit_pending && !c->probe_pending &&
	       !c->close_after_send && c->snd_nxt == c->snd_max &&
	       c->snd_nxt >= min64(c->snd_end, c->snd_app) &&
	       c->rcv_nxt - c->rcv_acked < c->rcv_wnd / NB_TCP_ACK_STRETCH_DIV;
}

unsigned int
nb_tcp_output_run(struct nb_tcp_conn *c, uint64_t now, unsigned int max,
		  struct nb_tcp_seg *s)
{
	uint64_t m = seg_payload(c), dend, lim, fl, k;

	if (c->rst_pending || c->syn_pending || c->rexmit_pending ||
	    c->probe_pending || !can_send(c->state) || sack_recovery(c) ||
	    (c->rto_due && now >= c->rto_due) ||
	    (c->delack_due && now >= c->delack_due) ||
	    c->snd_nxt < c->snd_max || m == 0)
		return 0;
	dend = min64(c->snd_end, c->snd_app);
	/* full segments that end before dend: none of them gets PSH */
	if (dend <= c->snd_nxt + m)
		return 0;
	k = (dend - 1 - c->snd_nxt) / m;
	/* nb_tcp_output's window: cwnd (plus limited transmit), the peer's */
	lim = min64(c->cwnd + ((!c->in_recovery && c->dupacks <= 2)
				       ? c->dupacks * m
				       : 0),
		    c->snd_wnd);
	fl = c->snd_nxt - c->snd_una;
	if (lim < fl + m)
		return 0;
	k = min64(k, (lim - fl) / m);
	k = min64(k, max);
	if (k == 0)
		return 0;
	memset(s, 0, sizeof(*s));
	s->wscale = NB_TCP_WSCALE_NONE;
	out_data(c, now, s, c->snd_nxt, (uint32_t)m);
	/* the other k - 1: out_data's effects that differ, once */
	c->st.data_segs_out += k - 1;
	c->snd_nxt += k * m;
	c->snd_max = c->snd_nxt;
	c->st.segs_out += k;
	return (unsigned int)k;
}

int
nb_tcp_rst_for(const struct nb_tcp_seg *s, struct nb_tcp_seg *out)
{
	memset(out, 0, sizeof(*out));
	out->wscale = NB_TCP_WSCALE_NONE;
	if (s->flags & NB_TCP_RST)
		return 0;
	if (s->flags & NB_TCP_ACK) {
		out->seq = s->ack;
		out->flags = NB_TCP_RST;
	} else {
		out->seq = 0;
		out->ack = s->seq + s->len + !!(s->flags & NB_TCP_SYN) +
			   !!(s->flags & NB_TCP_FIN);
		out->flags = NB_TCP_RST | NB_TCP_ACK;
	}
	return 1;
}
