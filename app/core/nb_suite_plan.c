/* SPDX-License-Identifier: BSD-3-Clause */
/* The RFC 2544 suites' decisions (see nb_suite_plan.h).  Pure. */
#include "nb_suite_plan.h"

#include <math.h>
#include <string.h>

#include "nb_result.h"

double
nb_suite_line_pps(uint64_t link_bps, uint16_t size, double max_pps)
{
	/* a frame on the wire: size + 20 B of preamble and gap */
	return link_bps > 0 ? (double)link_bps / ((size + 20) * 8.0) : max_pps;
}

double
nb_suite_precision_pps(const struct nb_rate_spec *p, uint64_t link_bps,
		       uint16_t size, double max_pps)
{
	double w;

	switch (p->kind) {
	case NB_RATE_PPS:
		return p->value;
	case NB_RATE_BPS_L1:
		return p->value / ((size + 20) * 8.0);
	case NB_RATE_BPS_L2:
		return p->value / (size * 8.0);
	case NB_RATE_PERCENT:
		return p->value / 100 *
		       nb_suite_line_pps(link_bps, size, max_pps);
	default:
		/* 0.1 % of the maximum or 10 kpps, the larger, but at most
		 * 1 % of the maximum (a slow --rate) */
		w = fmin(10000, 0.01 * max_pps);
		return fmax(0.001 * max_pps, w);
	}
}

void
nb_suite_throughput_search(const struct nb_config *cfg, uint64_t link_bps,
			   uint16_t size, double max_pps,
			   struct nb_search_cfg *sc)
{
	memset(sc, 0, sizeof(*sc));
	sc->max = max_pps;
	sc->min = fmax(1, max_pps * 1e-4);
	sc->width = nb_suite_precision_pps(&cfg->precision, link_bps, size,
					   max_pps);
	sc->nb_goals = cfg->nb_tol;
	memcpy(sc->tolerance, cfg->loss_tol, sizeof(sc->tolerance));
	sc->trial_s = cfg->trial_time;
	sc->first_s = fmin(cfg->first_trial, cfg->trial_time);
}

double
nb_suite_latency_pps(const struct nb_config *cfg,
		     const struct nb_suite_row *thr)
{
	if (!thr->valid || thr->lower[0] <= 0)
		return 0;
	return cfg->latency_load * thr->lower[0];
}

void
nb_suite_b2b_search(double max_pps, double trial_time, struct nb_search_cfg *sc)
{
	memset(sc, 0, sizeof(*sc));
	sc->min = 1;
	/* RFC 2544 26.4: bursts of at most 2 s at the maximum */
	sc->max = ceil(max_pps * fmin(NB_SUITE_B2B_MAX_S, trial_time));
	sc->width_rel = 0.001;
	sc->integer = 1;
	sc->nb_goals = 1;
	sc->trial_s = 1;
	sc->first_s = 1;
}

void
nb_suite_trial_measured(struct nb_trial_rec *t, const struct nb_result *r,
			double loss_tol)
{
	t->tx = r->sum.tx_pkts;
	t->rx = r->sum.rx_unique;
	t->lost = r->sum.lost;
	t->loss = t->tx ? (double)t->lost / (double)t->tx : 1;
	t->tx_pps = r->tx_pps;
	t->rx_pps = r->rx_pps;
	t->tx_seconds = r->tx_seconds;
	/* a burst of a few ms is timed to a few us: 5 % there */
	t->short_rate = t->req_pps > 0 &&
			t->tx_pps < (t->burst ? 0.95 : 0.995) * t->req_pps;
	if (r->probes_sent) {
		/* ping-pong: probes out and back, one at a time */
		double secs = t->seconds > 0 ? t->seconds : r->tx_seconds;

		t->tx = r->probes_sent;
		t->rx = r->probes_returned;
		t->lost = t->tx > t->rx ? t->tx - t->rx : 0;
		t->loss = t->tx ? (double)t->lost / (double)t->tx : 1;
		t->tx_pps = secs > 0 ? (double)t->tx / secs : 0;
		t->rx_pps = secs > 0 ? (double)t->rx / secs : 0;
		t->tx_seconds = secs;
		t->short_rate = 0;
	}
	t->interrupted = r->interrupted;
	/* ping-pong: the round trips of the probes */
	nb_lat_stats_of(&t->lat, r->probes_sent ? &r->rtt : &r->sum.hist,
			r->sum.jitter_ns);
	/* a rate the sender did not reach proves nothing about the DUT */
	t->pass = t->tx > 0 && t->loss <= loss_tol &&
		  (!t->short_rate || t->burst);
}

double
nb_suite_search_loss(const struct nb_trial_rec *t)
{
	return t->short_rate ? fmax(t->loss, 1.0 - t->tx_pps / t->req_pps)
			     : t->loss;
}
