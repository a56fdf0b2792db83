/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A suite's record (every trial, one row per test and frame size) and its
 * writers: the text tables, the JSON "suite" section and its per-trial
 * events, CSV rows per trial.  Pure.
 */
#ifndef NB_SUITE_REPORT_H
#define NB_SUITE_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "nb_config.h"
#include "nb_search.h"

/* kind of a plain sweep's trial (a test per size, no search) */
#define NB_SUITE_SWEEP (1u << 8)

struct nb_lat_stats {
	uint64_t count;
	double min_ns, mean_ns, p50_ns, p99_ns, p999_ns, max_ns, jitter_ns;
};

struct nb_trial_rec {
	unsigned int kind; /* NB_SUITE_* */
	uint16_t size;
	uint32_t index;	       /* trial number in the suite, from 1 */
	uint32_t phase;	       /* throughput search phase */
	uint32_t repeat;       /* back-to-back repeat, from 1 */
	int retry;	       /* a contradicted trial measured again */
	double start_s;	       /* since the suite began */
	double seconds;	       /* asked length (0: a burst) */
	double req_pps;	       /* asked rate; 0: as fast as possible */
	uint64_t burst;	       /* back-to-back: frames asked */
	double tx_pps, rx_pps; /* measured over the trial */
	double tx_seconds;
	uint64_t tx, rx, lost; /* frames: sent, received once, missing */
	double loss;	       /* lost / tx */
	int pass;	       /* within the first tolerance, rate reached */
	int short_rate;	       /* the sender reached < 99.5 % of req_pps */
	int interrupted;
	struct nb_lat_stats lat;
};

struct nb_suite_row {
	unsigned int kind;
	uint16_t size;
	uint32_t trials;
	double seconds; /* from the first trial's start to the end */
	double max_pps; /* the ceiling (line rate or --rate) */
	/* throughput */
	uint32_t nb_goals;
	double tol[NB_SEARCH_MAX_GOALS];
	double lower[NB_SEARCH_MAX_GOALS], upper[NB_SEARCH_MAX_GOALS];
	int gave_up;
	/* latency */
	double load_pps;
	/* loss: the highest rate that lost nothing, as a share of max_pps */
	double clean_share;
	/* back-to-back */
	uint32_t repeats;
	double burst_mean;
	uint64_t burst_min, burst_max;
	/* latency and sweep: the trial's figures */
	struct nb_trial_rec t;
	int valid; /* latency/sweep: t set; others: finished */
	/* RFC 2889's tests (NB_SUITE_RFC2889): the test's own figures, an
	 * object whose members row_json adds to the row; the report owns
	 * it once the row is added (nb_rfc2889.h writes the text) */
	json_t *detail;
};

struct nb_suite_report {
	const struct nb_config *cfg;
	const char *topology;
	unsigned int kinds; /* what runs (NB_SUITE_* bits) */
	double line_bps;    /* L1 bits/s of the TX ports; 0 unknown */
	uint32_t nb_trials, cap_trials;
	struct nb_trial_rec *trials;
	uint32_t nb_rows, cap_rows;
	struct nb_suite_row *rows;
	double seconds;
	int interrupted;
	char error[320];
};

void nb_suite_report_init(struct nb_suite_report *s,
			  const struct nb_config *cfg, const char *topology,
			  unsigned int kinds, double line_bps);
void nb_suite_report_free(struct nb_suite_report *s);
/* Copies; -ENOMEM when out of memory. */
int nb_suite_add_trial(struct nb_suite_report *s, const struct nb_trial_rec *t);
int nb_suite_add_row(struct nb_suite_report *s, const struct nb_suite_row *r);

/* L1 and L2 bits/s of a frame rate at one size. */
double nb_suite_l1(double pps, uint16_t size);
double nb_suite_l2(double pps, uint16_t size);

/* The latency figures of a histogram (ns) and a jitter. */
struct nb_hist;
void nb_lat_stats_of(struct nb_lat_stats *l, const struct nb_hist *h,
		     double jitter_ns);

/* Text: the suite's header line, one line per trial, the tables. */
void nb_suite_text_begin(FILE *f, const struct nb_suite_report *s);
void nb_suite_text_trial(FILE *f, const struct nb_trial_rec *t);
void nb_suite_text(FILE *f, const struct nb_suite_report *s);

json_t *nb_suite_json_trial(const struct nb_trial_rec *t);
/* The whole document: start, suite (trials and results), end. */
json_t *nb_suite_json(const struct nb_suite_report *s);

/* CSV: the header, and a row per trial. */
extern const char nb_suite_csv_header[];
void nb_suite_csv_trial(FILE *f, const struct nb_trial_rec *t);

const char *nb_suite_kind_name(unsigned int kind);

#endif /* NB_SUITE_REPORT_H */
