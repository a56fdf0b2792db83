/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one test runtime.  Every mode runs a test the same way:
 *
 *   nb_run_resolve   --rate, --packets/--bytes, --time into app->rate
 *   nb_run_prepare   plan, result and jobs for a rate and a frame count
 *   nb_run_launch    workers (and the stats lcore) start polling
 *   nb_run_arm       the start time: senders begin then
 *   nb_run_drain     receivers finish counting; every lcore stops
 *   nb_run_collect   the final counters into app->result
 *   nb_run_free      the jobs go (telemetry readers waited for)
 *
 * Loopback and reflector (nb_loopback.c) and both ends of a peer test
 * (peer/) are thin runners on these steps.  So is --tcp (nb_tcprun*.c),
 * whose senders are connections, not a rate:
 *
 *   nb_run_prepare_tcp  the run reset, no open-loop job
 *   (nb_tcprun_build)   the TCP jobs, each on a worker of the "tcp"
 *                       engine (nb_jobs_tcp_worker)
 *   nb_run_arm          the start: the clients connect then
 *   nb_run_launch       the workers, and the stats lcore when it reads
 *                       the intervals (app->iv_read; a peer client's
 *                       control lcore reads them itself, as for UDP)
 *   nb_run_end_senders  the end (time, bytes, Ctrl-C, a stall): the
 *                       clients close; the connections finish
 *   nb_run_drain        every lcore stops
 *   (nb_tcprun_report)  the TCP report: the connections' own counters
 *   nb_run_free         the workers go
 */
#ifndef NB_RUN_H
#define NB_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "nb_app.h"

/* Workers start together this far after nb_run_launch in loopback. */
#define NB_RUN_START_DELAY_S 0.1

/*
 * Senders that have not got a frame accepted for NB_TX_STALL_S seconds
 * (link down, a peer gone): the caller stops the test rather than wait
 * forever for a --packets count.
 */
#define NB_TX_STALL_S 5

/* How long a peer's STOP lets senders that reached the end of their time
 * finish by their own rule before they are stopped (nb_run_end_senders). */
#define NB_RUN_STOP_GRACE_MS 1000

/*
 * cfg->rate over the TX link speed (bits/s; 0 unknown) into app->rate;
 * app->total_packets from --packets or --bytes; a count ends the test, so
 * --time then bounds it only if given.  -ENOTSUP: a percentage and no
 * link speed; other -errno: the rate cannot be resolved.
 */
int nb_run_resolve(struct nb_app *app, uint64_t link_bps);

/*
 * Plan the jobs of app->cfg at rate_num/rate_den packets/s in total
 * (rate_num 0: as fast as possible) for `packets` frames (0: no limit),
 * start a fresh app->result, build every job.  Returns 0 or -errno with
 * err set; nb_run_free() cleans up either way.
 */
int nb_run_prepare(struct nb_app *app, uint64_t rate_num, uint64_t rate_den,
		   uint64_t packets, char *err, size_t errlen);

/* --tcp: a fresh run with no open-loop job (the TCP runner adds its
 * workers with nb_jobs_tcp_worker()); nb_run_free() cleans up. */
void nb_run_prepare_tcp(struct nb_app *app);

/* Launch the workers, and the stats lcore when with_stats. */
int nb_run_launch(struct nb_app *app, int with_stats);

/* Set the start (senders' pacers, phase times); start written last. */
void nb_run_arm(struct nb_app *app, uint64_t start_tsc);

/* The process's CPU times and the wall clock, now (getrusage). */
void nb_run_cpu_now(struct nb_cpu_usage *u);

/* Whether the senders have stalled (see NB_TX_STALL_S); seen and since
 * carry state between calls (start both at 0). */
int nb_run_tx_stalled(const struct nb_app *app, uint64_t tsc, uint64_t *seen,
		      uint64_t *since);

/* Stop the senders (force: at once, or after NB_RUN_STOP_GRACE_MS when
 * the test reached its end time; else wait for them to end).  A test of
 * closed-loop senders only (--tcp), forced: they close at once. */
void nb_run_end_senders(struct nb_app *app, int force);

/*
 * nb_run_end_senders, then let the receivers count until every frame sent
 * has arrived (local_senders: the senders are in this process), none has
 * arrived for the quiet window (nb_run_quiet_s) of their polling, or
 * --drain seconds passed; then stop every worker and the stats lcore and
 * wait for them.
 */
void nb_run_drain(struct nb_app *app, int force, int local_senders);

/*
 * The drain's quiet window: a tenth of --drain, at least 50 ms.  A path
 * that holds frames long (a user raises --drain for it) may pause longer
 * between them; the default drain (0.5 s) keeps 50 ms.
 */
static inline double
nb_run_quiet_s(double drain)
{
	return drain / 10 > 0.05 ? drain / 10 : 0.05;
}

/* The final counters (tool and PMD) into app->result, finished. */
void nb_run_collect(struct nb_app *app);

void nb_run_free(struct nb_app *app);

/*
 * A test whose senders and receivers are both in this process (loopback,
 * reflector): flush what queued while the links came up, reset the port
 * counters, arm, launch, wait for the senders (Ctrl-C and a stall stop
 * them), drain, collect into app->result.  After nb_run_prepare().
 */
void nb_run_local(struct nb_app *app, int with_stats);

/* Sleep the control lcore (it shares a CPU with a worker on small hosts). */
void nb_run_sleep_us(unsigned int us);

#endif /* NB_RUN_H */
