/* SPDX-License-Identifier: BSD-3-Clause */
/* Closed-loop TCP reports (see nb_tcp_report.h).  Pure. */
#include "nb_tcp_report.h"

#include <string.h>

#include "nb_hist.h"
#include "nb_result.h"

json_t *
nb_tcp_json_hist(const struct nb_hist *h)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:f}", "count",
			 (json_int_t)h->count, "min", (json_int_t)h->min, "p50",
			 (json_int_t)nb_hist_percentile(h, 50), "p99",
			 (json_int_t)nb_hist_percentile(h, 99), "max",
			 (json_int_t)h->max, "mean", nb_hist_mean(h));
}

void
nb_tcp_text_header(FILE *f, int end, int roles)
{
	fprintf(f,
		"[ ID]%s Interval           Transfer     Bitrate"
		"         Retr%s\n",
		roles ? "[Role]" : "", end ? "" : "  Cwnd          RTT");
}

void
nb_tcp_text_row(FILE *f, const char *id, double t0, double t1, uint64_t bytes,
		uint64_t retr, int show_retr, uint64_t cwnd, uint64_t rtt_ns,
		char format, const char *tail)
{
	char xfer[32], rate[32], cw[32] = "", rtt[32] = "", rt[24] = "";
	double secs = t1 - t0;

	nb_fmt_bytes(xfer, sizeof(xfer), (double)bytes);
	nb_fmt_rate(rate, sizeof(rate), secs > 0 ? (double)bytes * 8 / secs : 0,
		    format);
	if (show_retr)
		snprintf(rt, sizeof(rt), "%4llu", (unsigned long long)retr);
	if (cwnd)
		nb_fmt_bytes(cw, sizeof(cw), (double)cwnd);
	if (rtt_ns)
		snprintf(rtt, sizeof(rtt), "%.0f us", rtt_ns / 1e3);
	fprintf(f, "[%3s] %6.2f-%-6.2f sec  %-11s  %-15s %4s  %-12s  %s%s\n",
		id, t0, t1, xfer, rate, rt, cw, rtt, tail ? tail : "");
}

static json_t *
seconds_obj(double t0, double t1, uint64_t bytes)
{
	double secs = t1 - t0;

	return json_pack("{s:f, s:f, s:f, s:I, s:f}", "start", t0, "end", t1,
			 "seconds", secs, "bytes", (json_int_t)bytes,
			 "bits_per_second",
			 secs > 0 ? (double)bytes * 8 / secs : 0.0);
}

json_t *
nb_tcp_json_iv_stream(int socket, double t0, double t1,
		      const struct nb_tcp_snap *a, const struct nb_tcp_snap *b)
{
	json_t *o = seconds_obj(t0, t1, b->acked - a->acked);

	json_object_set_new(o, "socket", json_integer(socket));
	json_object_set_new(
		o, "retransmits",
		json_integer((json_int_t)(b->retrans - a->retrans)));
	json_object_set_new(o, "snd_cwnd", json_integer((json_int_t)b->cwnd));
	json_object_set_new(o, "rtt",
			    json_integer((json_int_t)(b->srtt_ns / 1000)));
	json_object_set_new(o, "rttvar",
			    json_integer((json_int_t)(b->rttvar_ns / 1000)));
	json_object_set_new(o, "omitted", json_false());
	json_object_set_new(o, "sender", json_true());
	/* what the receiving end took in, in the same interval */
	json_object_set_new(o, "received_bytes",
			    json_integer((json_int_t)(b->rcvd - a->rcvd)));
	return o;
}

json_t *
nb_tcp_json_sum(double t0, double t1, uint64_t bytes, int with_retr,
		uint64_t retr)
{
	json_t *o = seconds_obj(t0, t1, bytes);

	if (with_retr)
		json_object_set_new(o, "retransmits",
				    json_integer((json_int_t)retr));
	json_object_set_new(o, "omitted", json_false());
	json_object_set_new(o, "sender", json_true());
	return o;
}

/* iperf3's mean_rtt: the mean of the samples.  A peer's end does not send
 * their sum (its blob has the smoothed RTT only): that stands in. */
static uint64_t
mean_rtt_ns(const struct nb_tcp_snap *s)
{
	if (s->rtt_samples == 0 || s->rtt_sum_ns == 0)
		return s->srtt_ns;
	return s->rtt_sum_ns / s->rtt_samples;
}

json_t *
nb_tcp_json_end_stream(int socket, double secs_sent, double secs_rcvd,
		       const struct nb_tcp_snap *s)
{
	json_t *snd = seconds_obj(0, secs_sent, s->acked);
	json_t *rcv = seconds_obj(0, secs_rcvd, s->rcvd);

	json_object_set_new(snd, "socket", json_integer(socket));
	json_object_set_new(snd, "retransmits",
			    json_integer((json_int_t)s->retrans));
	json_object_set_new(snd, "max_snd_cwnd",
			    json_integer((json_int_t)s->max_cwnd));
	json_object_set_new(snd, "max_rtt",
			    json_integer((json_int_t)(s->max_rtt_ns / 1000)));
	json_object_set_new(snd, "min_rtt",
			    json_integer((json_int_t)(s->min_rtt_ns / 1000)));
	json_object_set_new(snd, "mean_rtt",
			    json_integer((json_int_t)(mean_rtt_ns(s) / 1000)));
	/* iperf3's are whole us: a round trip under 1 us shows as 0 there,
	 * so the ns figures beside them */
	json_object_set_new(snd, "min_rtt_ns",
			    json_integer((json_int_t)s->min_rtt_ns));
	json_object_set_new(snd, "max_rtt_ns",
			    json_integer((json_int_t)s->max_rtt_ns));
	json_object_set_new(snd, "sender", json_true());
	json_object_set_new(rcv, "socket", json_integer(socket));
	json_object_set_new(rcv, "sender", json_true());
	return json_pack("{s:o, s:o}", "sender", snd, "receiver", rcv);
}

void
nb_tcp_snap_pair(const struct nb_tcp_endsnap *snd,
		 const struct nb_tcp_endsnap *rcv, struct nb_tcp_snap *o)
{
	memset(o, 0, sizeof(*o));
	o->scheck = o->rcheck = NB_TCP_SNAP_UNKNOWN;
	if (snd != NULL) {
		o->acked = snd->acked;
		o->retrans = snd->retrans;
		o->fast_retrans = snd->fast_retrans;
		o->rto = snd->rto;
		o->recoveries = snd->recoveries;
		o->cwnd = snd->cwnd;
		o->max_cwnd = snd->max_cwnd;
		o->srtt_ns = snd->srtt_ns;
		o->rttvar_ns = snd->rttvar_ns;
		o->min_rtt_ns = snd->min_rtt_ns;
		o->max_rtt_ns = snd->max_rtt_ns;
		o->rtt_samples = snd->rtt_samples;
		o->rtt_sum_ns = snd->rtt_sum_ns;
		o->cstate = snd->state;
		o->cerr = snd->error;
		/* a sender's receiver takes the answers of --pingpong */
		o->bad_bytes = snd->bad_bytes;
		o->dup_bytes = snd->dup_bytes;
		o->scheck = snd->check;
		o->snd_end_ns = snd->all_acked_ns;
	}
	if (rcv != NULL) {
		o->rcvd = rcv->rcvd;
		o->bad_bytes += rcv->bad_bytes;
		o->dup_bytes += rcv->dup_bytes;
		o->ooo_segs = rcv->ooo_segs;
		o->sstate = rcv->state;
		o->serr = rcv->error;
		o->rcheck = rcv->check;
		o->rcv_end_ns = rcv->done_ns;
		if (snd == NULL) {
			o->acked = o->rcvd;
			o->cstate = NB_TCP_TIME_WAIT; /* the peer's: unknown */
			o->snd_end_ns = rcv->done_ns;
		}
	} else {
		o->rcvd = o->acked;
		o->sstate = NB_TCP_CLOSED;
		o->rcv_end_ns = o->snd_end_ns;
	}
}

static int
closed(uint8_t state)
{
	return state == NB_TCP_TIME_WAIT || state == NB_TCP_CLOSED;
}

int
nb_tcp_snap_clean(const struct nb_tcp_snap *s)
{
	return closed(s->cstate) && closed(s->sstate) && !s->cerr && !s->serr;
}

void
nb_tcp_snap_ends(const struct nb_tcp_snap *s, char *buf, size_t len)
{
	snprintf(buf, len, "sender %s%s%s, receiver %s%s%s",
		 nb_tcp_state_name(s->cstate), s->cerr ? " " : "",
		 s->cerr ? nb_tcp_error_name(s->cerr) : "",
		 nb_tcp_state_name(s->sstate), s->serr ? " " : "",
		 s->serr ? nb_tcp_error_name(s->serr) : "");
}
