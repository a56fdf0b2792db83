/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The decisions of the RFC 2544 suites, apart from running trials
 * (run/nb_suite.c runs them): the throughput search's range and
 * precision, the latency test's load, the back-to-back burst search
 * (bursts of at most 2 s at the maximum rate, RFC 2544 26.4), what a
 * trial measured and whether it passed.  Pure.
 */
#ifndef NB_SUITE_PLAN_H
#define NB_SUITE_PLAN_H

#include <stdint.h>

#include "nb_config.h"
#include "nb_search.h"
#include "nb_suite_report.h"

struct nb_result;

/* The longest back-to-back burst, in seconds at the maximum rate. */
#define NB_SUITE_B2B_MAX_S 2.0

/* Frames/s of a link of link_bps (L1) at one size; with no link speed,
 * max_pps (the sender's own maximum). */
double nb_suite_line_pps(uint64_t link_bps, uint16_t size, double max_pps);

/* --precision in frames/s at one size (the default: 0.1 % of the maximum
 * or 10 kpps, the larger, but at most 1 % of the maximum). */
double nb_suite_precision_pps(const struct nb_rate_spec *p, uint64_t link_bps,
			      uint16_t size, double max_pps);

/* The throughput search below max_pps frames/s at one size. */
void nb_suite_throughput_search(const struct nb_config *cfg, uint64_t link_bps,
				uint16_t size, double max_pps,
				struct nb_search_cfg *sc);

/* The latency test's rate: --latency-load of the throughput found (its
 * first goal's lower bound); 0 when there is none to take a share of. */
double nb_suite_latency_pps(const struct nb_config *cfg,
			    const struct nb_suite_row *thr);

/* The search of one back-to-back repeat: bursts of 1 frame to max_pps x
 * min(2 s, --trial-time) frames, to 0.1 %. */
void nb_suite_b2b_search(double max_pps, double trial_time,
			 struct nb_search_cfg *sc);

/*
 * What a trial at t->req_pps (t->seconds or t->burst set) measured, from
 * its result r: frames sent, received, lost, the loss ratio, the rates
 * (ping-pong: its probes), whether the sender fell short of the rate and
 * whether it passed: something sent, loss within loss_tol, and the rate
 * reached (a burst is judged on its loss alone).  t->interrupted as r's.
 */
void nb_suite_trial_measured(struct nb_trial_rec *t, const struct nb_result *r,
			     double loss_tol);

/* What the throughput search is told a trial lost: a rate not reached
 * counts as a failure at that rate. */
double nb_suite_search_loss(const struct nb_trial_rec *t);

#endif /* NB_SUITE_PLAN_H */
