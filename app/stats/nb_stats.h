/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stats lcore: wakes once per interval, reads the workers' counters
 * (nb_jobs_read), records the interval in the result and writes it out.
 * A test with rows of its own (--tcp: app->iv_read) has it called at its
 * edges instead.
 */
#ifndef NB_STATS_H
#define NB_STATS_H

#include "nb_app.h"
#include "nb_tester_read.h"

/*
 * The interval clock of a test, for the stats lcore and for a control
 * lcore that samples itself (peer mode): after nb_run_arm(), init; then
 * whenever the TSC reaches s->tick, step: it reads the counters, records
 * the interval in app->result (and writes it out when emit), and moves
 * s->tick on.  s->done once the interval that ends the test is recorded.
 * Without --interval it feeds the progress line every 0.5 s instead.
 */
struct nb_sampler {
	struct nb_counts cur, prev;
	struct nb_tester_sample noise; /* at the last edge */
	struct nb_hist *tmp;
	uint64_t hz, step, tick, base, last, k;
	uint64_t link_prev; /* result.link_down_ns at the last edge */
	double secs;
	int omitted, lines, done;
};

int nb_sampler_init(struct nb_sampler *s, const struct nb_app *app);
void nb_sampler_step(struct nb_sampler *s, struct nb_app *app, int emit);
void nb_sampler_free(struct nb_sampler *s);

/* rte_eal_remote_launch entry point; arg is the struct nb_app. */
int nb_stats_main(void *arg);

/*
 * After the final collection: close the intervals (late frames into the
 * last one, or one more after an interruption) and write out what is not
 * written yet.
 */
void nb_stats_close(struct nb_app *app);

#endif /* NB_STATS_H */
