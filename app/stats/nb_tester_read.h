/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tester's own disturbance, read: each busy worker's schedstat
 * (/proc/self/task/TID/schedstat: time on the CPU, time runnable but
 * waiting), its CPU's steal time (/proc/stat), and its loop's gap counters;
 * two samples make a struct nb_tester (core/nb_tester.h).
 */
#ifndef NB_TESTER_READ_H
#define NB_TESTER_READ_H

#include <stdint.h>

#include "nb_jobs.h"
#include "nb_tester.h"

/* Wait (up to 1 s) until every launched worker has said its thread id. */
void nb_tester_read_tids(const struct nb_jobs *js);
void nb_tester_read(const struct nb_jobs *js, struct nb_tester_sample *s);
/* b - a into t, with each worker's lcore, CPU and role; the longest gap
 * is the worker's over its whole loop (b's). */
void nb_tester_read_diff(const struct nb_jobs *js,
			 const struct nb_tester_sample *a,
			 const struct nb_tester_sample *b, struct nb_tester *t);

#endif /* NB_TESTER_READ_H */
