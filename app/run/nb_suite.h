/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NB_SUITE_H
#define NB_SUITE_H

#include <stddef.h>
#include <stdint.h>

#include "nb_app.h"

/*
 * How a trial runs.  run: one test of app->cfg (its sizes, duration and
 * packets set by the suite) at rate_num/rate_den frames/s (rate_num 0: as
 * fast as possible) for `packets` frames (0: by time); *r the result, 0;
 * or -1 with err set and nothing left to free.  done: after the result was
 * read.  NULL for nb_suite_main: on this process's ports (loopback,
 * reflector).  The peer client runs one session per trial.
 */
struct nb_suite_runner {
	int (*run)(void *ctx, struct nb_app *app, uint64_t rate_num,
		   uint64_t rate_den, uint64_t packets,
		   const struct nb_result **r, char *err, size_t errlen);
	void (*done)(void *ctx, struct nb_app *app);
	void *ctx;
};

/*
 * The --test suites and --size sweeps on ports already up (link_bps: the
 * TX port's speed, 0 unknown): every trial, the results, the exit code (1
 * when interrupted or a trial failed to run).
 */
int nb_suite_main(struct nb_app *app, uint64_t link_bps, const char *topology,
		  const struct nb_suite_runner *runner);

#endif /* NB_SUITE_H */
