/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stats lcore: wakes once per interval, reads the workers' counters
 * (nb_jobs_read), records the interval in the result and writes it out.
 */
#ifndef NB_STATS_H
#define NB_STATS_H

#include "nb_app.h"

/* rte_eal_remote_launch entry point; arg is the struct nb_app. */
int nb_stats_main(void *arg);

/*
 * After the final collection: close the intervals (late frames into the
 * last one, or one more after an interruption) and write out what is not
 * written yet.
 */
void nb_stats_close(struct nb_app *app);

#endif /* NB_STATS_H */
