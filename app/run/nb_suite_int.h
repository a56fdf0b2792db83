/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The suite runner's state and steps, for the tests beside RFC 2544's
 * (nb_rfc2889_run.c): a trial, the ceiling at a size, the throughput
 * search.  Internal to run/.
 */
#ifndef NB_SUITE_INT_H
#define NB_SUITE_INT_H

#include <stdint.h>

#include "nb_app.h"
#include "nb_suite.h"
#include "nb_suite_report.h"

struct suite {
	struct nb_app *app;
	const struct nb_suite_runner *runner;
	struct nb_suite_report rep;
	uint64_t link_bps;
	struct nb_rate_spec user_rate;
	double user_duration;
	uint64_t user_packets, user_bytes;
	double t0;
	int need_settle;
	int failed; /* a trial could not run */
	/*
	 * A test's own view of each trial, after it ran and before its run
	 * is freed (NULL: none): it may set t's loss from what it counts
	 * (a fan-out's worst port) and keep what it needs in ctx.
	 */
	void (*on_result)(struct suite *x, struct nb_trial_rec *t,
			  const struct nb_result *r);
	void *ctx;
};

double nb_suite_now(void);
/* Ctrl-C, or a trial could not run. */
int nb_suite_stopped(const struct suite *x);
void nb_suite_one_size(struct nb_size_list *l, uint16_t size);
/*
 * One trial: t->size, t->req_pps (0: as fast as possible), t->seconds or
 * t->burst frames in; what it measured out.  Returns 0, or -1 when it
 * could not run (the suite's error set) or Ctrl-C ended it.
 */
int nb_suite_trial(struct suite *x, struct nb_trial_rec *t);
/* The most the sender offers at one size: --rate (max: the line rate). */
int nb_suite_ceiling(struct suite *x, uint16_t size, unsigned int kind,
		     double *pps);
/* RFC 2544's throughput search at one size into row, its trials and row
 * of that kind (NB_SUITE_THROUGHPUT, or a test that searches so). */
void nb_suite_throughput(struct suite *x, uint16_t size, unsigned int kind,
			 struct nb_suite_row *row);

#endif /* NB_SUITE_INT_H */
