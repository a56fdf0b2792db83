/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tester's own disturbance, read: each busy worker's schedstat
 * (/proc/self/task/TID/schedstat: time on the CPU, time runnable but
 * waiting), its CPU's steal time (/proc/stat), and its loop's gap counters;
 * two samples make a struct nb_tester (core/nb_tester.h).
 */
#ifndef NB_SELFNOISE_H
#define NB_SELFNOISE_H

#include <stdint.h>

#include "nb_jobs.h"
#include "nb_tester.h"

struct nb_selfnoise_sample {
	uint64_t tsc;
	uint16_t n;
	struct {
		uint64_t run_ns, wait_ns, steal_ns; /* UINT64_MAX: unknown */
		uint64_t stall_tsc, max_gap;
		int have_sched;
	} w[NB_TESTER_MAX];
};

/* Wait (up to 1 s) until every launched worker has said its thread id. */
void nb_selfnoise_wait_tids(const struct nb_jobs *js);
void nb_selfnoise_sample(const struct nb_jobs *js,
			 struct nb_selfnoise_sample *s);
/* b - a into t, with each worker's lcore, CPU and role; the longest gap
 * is the worker's over its whole loop (b's). */
void nb_selfnoise_diff(const struct nb_jobs *js,
		       const struct nb_selfnoise_sample *a,
		       const struct nb_selfnoise_sample *b,
		       struct nb_tester *t);

#endif /* NB_SELFNOISE_H */
