/* SPDX-License-Identifier: BSD-3-Clause */
/* TCP's sender on ACKs and timeouts: RTT and RTO (RFC 6298), NewReno and
 * CUBIC congestion control (RFC 5681, 6582, 9438).  Pure. */
#include "nb_tcp_int.h"

#include <math.h>

/* RFC 6298 (2.3), with a 1 us clock granularity and Linux's floor */
static void
rto_from_rtt(struct nb_tcp_conn *c)
{
	c->rto_ns = c->srtt_ns + max64(1000, 4 * c->rttvar_ns);
	c->rto_ns = max64(c->rto_ns, NB_TCP_RTO_MIN_NS);
	c->rto_ns = min64(c->rto_ns, NB_TCP_RTO_MAX_NS);
}

void
nb_tcp_rtt_sample(struct nb_tcp_conn *c, uint64_t r)
{
	uint64_t dev;

	if (r == 0)
		r = 1;
	if (c->st.rtt_samples == 0) {
		c->srtt_ns = r;
		c->rttvar_ns = r / 2;
		c->st.min_rtt_ns = r;
		c->st.max_rtt_ns = r;
	} else {
		dev = c->srtt_ns > r ? c->srtt_ns - r : r - c->srtt_ns;
		c->rttvar_ns = (3 * c->rttvar_ns + dev) / 4;
		c->srtt_ns = (7 * c->srtt_ns + r) / 8;
		c->st.min_rtt_ns = min64(c->st.min_rtt_ns, r);
		c->st.max_rtt_ns = max64(c->st.max_rtt_ns, r);
	}
	c->st.rtt_samples++;
	c->st.rtt_sum_ns += r;
	rto_from_rtt(c);
}

static void
fin_acked(struct nb_tcp_conn *c)
{
	switch (c->state) {
	case NB_TCP_FIN_WAIT_1:
		c->state = NB_TCP_FIN_WAIT_2;
		break;
	case NB_TCP_CLOSING:
		c->state = NB_TCP_TIME_WAIT;
		break;
	case NB_TCP_LAST_ACK:
		c->state = NB_TCP_CLOSED;
		break;
	default:
		break;
	}
	c->rto_due = 0;
}

/*
 * Whether cwnd is what limits the sender (RFC 7661's spirit, as Linux's
 * tcp_is_cwnd_limited): in slow start while the flight is at least half
 * of it, in avoidance while it is within a segment of it.  A sender held
 * back by the peer's window or by having nothing to send does not grow
 * cwnd without bound.
 */
static int
cwnd_limited(const struct nb_tcp_conn *c)
{
	uint64_t fl = nb_tcp_flight(c), m = seg_payload(c);

	if (c->cwnd < c->ssthresh)
		return 2 * fl >= c->cwnd;
	return fl + m >= c->cwnd;
}

/*
 * ssthresh after a loss: NewReno's half the flight (RFC 5681 (4)); CUBIC's
 * beta x cwnd (RFC 9438 4.6), noting the window it fell from (with fast
 * convergence, 4.7) and starting a new epoch.
 */
static uint64_t
reduced(struct nb_tcp_conn *c, uint64_t flight)
{
	uint64_t m = seg_payload(c);
	double w;

	if (c->cc != NB_TCP_CC_CUBIC)
		return max64(flight / 2, 2 * m);
	w = (double)c->cwnd / (double)m;
	c->w_max = w < c->w_last_max ? w * (1 + NB_TCP_CUBIC_BETA) / 2 : w;
	c->w_last_max = w;
	c->cubic_k = cbrt(c->w_max * (1 - NB_TCP_CUBIC_BETA) / NB_TCP_CUBIC_C);
	c->epoch_ns = 0;
	return max64((uint64_t)((double)c->cwnd * NB_TCP_CUBIC_BETA), 2 * m);
}

/*
 * CUBIC in congestion avoidance (RFC 9438 4.2-4.4), per ACK of `acked`
 * bytes: the target W_cubic(t + RTT) = C (t + RTT - K)^3 + W_max, at most
 * 1.5 cwnd, reached by (target - cwnd) / cwnd segments per segment acked;
 * never below the Reno-friendly estimate W_est.
 */
static void
cubic_avoid(struct nb_tcp_conn *c, uint64_t acked, uint64_t now)
{
	double m = (double)seg_payload(c), w = (double)c->cwnd / m;
	double segs = (double)acked / m, t, target, x;

	if (c->epoch_ns == 0) { /* the first ACK of this epoch */
		c->epoch_ns = now;
		c->w_est = w;
		if (c->w_max < w) { /* no loss yet, or grown past it */
			c->w_max = w;
			c->cubic_k = 0;
		}
	}
	t = (double)(now - c->epoch_ns + c->srtt_ns) / 1e9;
	x = t - c->cubic_k;
	target = NB_TCP_CUBIC_C * x * x * x + c->w_max;
	if (target < w)
		target = w;
	if (target > 1.5 * w)
		target = 1.5 * w;
	/* alpha = 3 (1 - beta) / (1 + beta): Reno's rate at CUBIC's beta */
	c->w_est += 3 * (1 - NB_TCP_CUBIC_BETA) / (1 + NB_TCP_CUBIC_BETA) *
		    segs / w;
	if (c->w_est > target)
		target = c->w_est;
	c->cubic_frac += m * (target - w) / w * segs;
	if (c->cubic_frac >= 1) {
		double whole = floor(c->cubic_frac);

		c->cwnd += (uint64_t)whole;
		c->cubic_frac -= whole;
	}
}

static void
new_ack(struct nb_tcp_conn *c, uint64_t ackoff, uint64_t now)
{
	uint64_t acked = ackoff - c->snd_una;
	uint64_t data_lo = max64(c->snd_una, 1);
	uint64_t data_hi = min64(ackoff, c->snd_end);
	uint64_t m = seg_payload(c);

	if (data_hi > data_lo)
		c->st.bytes_acked += data_hi - data_lo;
	if (c->rtt_timing && ackoff >= c->rtt_off) {
		nb_tcp_rtt_sample(c, now - c->rtt_sent_ns);
		c->rtt_timing = 0;
	}
	if (c->retries && c->st.rtt_samples)
		rto_from_rtt(c); /* new data acked after timeouts: the
				  * backoff ends (as BSD's t_rxtshift = 0) */
	c->retries = 0;
	c->probe_pending = 0;
	if (sack_recovery(c)) {
		if (ackoff >= c->recover) { /* recovery ends: RFC 6675 5 */
			c->cwnd = c->ssthresh;
			c->in_recovery = 0;
			c->dupacks = 0;
			c->ca_acked = 0;
		}
	} else if (c->in_recovery) {
		if (ackoff >= c->recover) { /* full ACK: RFC 6582 3.2 step 3 */
			uint64_t flight = c->snd_max - ackoff;

			c->cwnd = min64(c->ssthresh, max64(flight, m) + m);
			c->in_recovery = 0;
			c->dupacks = 0;
			c->ca_acked = 0;
		} else { /* partial ACK: the next hole, deflate (step 4) */
			c->rexmit_pending = 1;
			c->cwnd = c->cwnd > acked ? c->cwnd - acked : m;
			if (acked >= m)
				c->cwnd += m;
			if (c->cwnd < m)
				c->cwnd = m;
		}
	} else if (!cwnd_limited(c)) {
		c->dupacks = 0; /* the window, not cwnd, held the sender back */
	} else {
		c->dupacks = 0;
		if (c->cwnd < c->ssthresh) {
			c->cwnd += min64(acked, m);
		} else if (c->cc == NB_TCP_CC_CUBIC) {
			cubic_avoid(c, acked, now);
		} else {
			c->ca_acked += acked;
			if (c->ca_acked >= c->cwnd) {
				c->ca_acked -= c->cwnd;
				c->cwnd += m;
			}
		}
	}
	c->st.max_cwnd = max64(c->st.max_cwnd, c->cwnd);
	c->snd_una = ackoff;
	if (c->snd_nxt < c->snd_una)
		c->snd_nxt = c->snd_una;
	if (c->nb_sacked)
		nb_tcp_sb_prune(c);
	c->rto_due = c->snd_una == c->snd_max ? 0 : now + c->rto_ns;
	if (c->snd_end != UINT64_MAX && c->snd_una == c->snd_end + 1)
		fin_acked(c);
}

/*
 * Duplicate ACKs that start a fast retransmit: three, or with fewer than
 * four segments out and no new one to send, one less than there are out
 * (Early Retransmit, RFC 5827): a small window cannot bring three.
 */
static unsigned int
dupthresh(const struct nb_tcp_conn *c)
{
	uint64_t m = seg_payload(c);
	uint64_t data = min64(c->snd_max, c->snd_end) - c->snd_una;
	uint64_t segs = (data + m - 1) / m; /* the FIN is no segment here */
	int more = c->snd_nxt < min64(c->snd_end, c->snd_app) &&
		   c->snd_nxt - c->snd_una + m <= min64(c->cwnd, c->snd_wnd);

	if (segs >= 4 || more || segs < 2)
		return 3;
	return (unsigned int)segs - 1;
}

static void
dup_ack(struct nb_tcp_conn *c)
{
	uint64_t m = seg_payload(c);
	uint64_t flight = nb_tcp_flight(c);

	c->st.dupacks_in++;
	if (c->dupacks < 255)
		c->dupacks++;
	if (sack_recovery(c))
		return; /* the pipe, not cwnd, counts what left */
	if (c->in_recovery) {
		c->cwnd += m; /* inflate: a segment has left the network */
		c->st.max_cwnd = max64(c->st.max_cwnd, c->cwnd);
		return;
	}
	/* RFC 6582 3.2 step 2: only when the ACK covers more than recover */
	if (c->dupacks == dupthresh(c) && c->snd_una > c->recover) {
		c->ssthresh = reduced(c, flight);
		c->recover = c->snd_max;
		c->rexmit_pending = 1;
		/* NewReno inflates by the three segments that left; SACK
		 * counts the pipe instead (RFC 6675 5, step 4.2) */
		c->cwnd = c->sack_ok ? c->ssthresh : c->ssthresh + 3 * m;
		c->rexmit_hi = c->snd_una;
		c->in_recovery = 1;
		c->ca_acked = 0;
		/* the timed segment's ACK now waits for the hole: no sample */
		c->rtt_timing = 0;
		c->st.recoveries++;
		c->st.max_cwnd = max64(c->st.max_cwnd, c->cwnd);
	}
}

/* A zero window opened: the persist timer has no more to do (data sent
 * now arms its own RTO), and a probe's byte the peer refused goes again
 * at once, at the head of the next segment. */
static void
wnd_opened(struct nb_tcp_conn *c)
{
	if (c->snd_una == c->snd_max) {
		c->rto_due = 0;
	} else if (c->snd_max == c->snd_una + 1 && c->snd_nxt == c->snd_max &&
		   c->snd_una < c->snd_end) {
		c->snd_nxt = c->snd_una;
		c->rto_due = 0;
		c->retries = 0;
		c->rtt_timing = 0;
	}
}

void
nb_tcp_ack_in(struct nb_tcp_conn *c, const struct nb_tcp_seg *s, int64_t seqoff,
	      uint64_t now)
{
	int64_t a = snd_off(c, s->ack);
	uint64_t ackoff, wnd = (uint64_t)s->wnd << c->snd_wscale;
	int wnd_changed = 0;

	if (a > (int64_t)c->snd_max) { /* acks what we never sent */
		ack_now(c);
		return;
	}
	if (a < (int64_t)c->snd_una)
		return; /* an old ACK: nothing for the sender */
	ackoff = (uint64_t)a;
	/* window update (RFC 793 3.9, SND.WL1/WL2) */
	if ((uint64_t)seqoff > c->snd_wl_seq ||
	    ((uint64_t)seqoff == c->snd_wl_seq && ackoff >= c->snd_wl_ack)) {
		wnd_changed = wnd != c->snd_wnd;
		if (c->snd_wnd == 0 && wnd)
			wnd_opened(c);
		else if (wnd == 0)
			c->retries = 0; /* a probe answered: the peer lives */
		c->snd_wnd = wnd;
		c->snd_wl_seq = (uint64_t)seqoff;
		c->snd_wl_ack = ackoff;
	}
	if (c->sack_ok && s->nb_sack)
		nb_tcp_sb_update(c, s);
	if (ackoff > c->snd_una) {
		new_ack(c, ackoff, now);
		return;
	}
	/* RFC 5681 section 2: the definition of a duplicate ACK */
	if (nb_tcp_flight(c) > 0 && s->len == 0 &&
	    !(s->flags & (NB_TCP_SYN | NB_TCP_FIN)) && !wnd_changed)
		dup_ack(c);
}

void
nb_tcp_on_rto(struct nb_tcp_conn *c, uint64_t now)
{
	uint64_t m = seg_payload(c);

	c->rto_due = 0;
	c->rtt_timing = 0;
	c->rto_ns = min64(c->rto_ns * 2, NB_TCP_RTO_MAX_NS);
	if (c->state == NB_TCP_SYN_SENT || c->state == NB_TCP_SYN_RCVD) {
		if (++c->retries > (c->state == NB_TCP_SYN_SENT
					    ? NB_TCP_SYN_RETRIES
					    : NB_TCP_SYNACK_RETRIES)) {
			nb_tcp_fail(c, NB_TCP_ERR_TIMEOUT);
			return;
		}
		c->syn_pending = 1;
		c->st.rto_fired++;
		return;
	}
	if (c->snd_una == c->snd_max) {
		/* nothing outstanding: the persist timer of a zero window */
		if (c->snd_wnd == 0 && c->snd_nxt < c->snd_end)
			c->probe_pending = 1;
		return;
	}
	if (++c->retries > NB_TCP_DATA_RETRIES) {
		nb_tcp_rst_set(c, snd_seq(c, c->snd_nxt),
			       rcv_seq(c, c->rcv_nxt), NB_TCP_RST | NB_TCP_ACK);
		nb_tcp_fail(c, NB_TCP_ERR_TIMEOUT);
		return;
	}
	c->st.rto_fired++;
	if (c->retries == 1) /* RFC 5681 (4), not again for a backoff */
		c->ssthresh = reduced(c, nb_tcp_flight(c));
	c->cwnd = m; /* the loss window */
	c->ca_acked = 0;
	c->recover = c->snd_max; /* RFC 6582 section 4 */
	c->in_recovery = 0;
	c->dupacks = 0;
	c->rexmit_pending = 0;
	c->snd_nxt = c->snd_una; /* go back N */
	c->nb_sacked = 0; /* RFC 2018 8: resend as if nothing was SACKed */
	nb_tcp_sb_sum(c);
	c->rto_due = now + c->rto_ns;
	/* a shut window lets nothing go back: the probe's byte goes again
	 * (persist), and the ACK it gets keeps the end alive (ack_in) */
	if (c->snd_wnd == 0)
		c->probe_pending = 1;
}
