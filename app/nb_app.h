/* SPDX-License-Identifier: BSD-3-Clause */
/* State shared by the control and stats lcores of one process. */
#ifndef NB_APP_H
#define NB_APP_H

#include <signal.h>
#include <stdint.h>

#include "nb_config.h"
#include "nb_output.h"
#include "nb_plan.h"
#include "nb_port.h"
#include "nb_result.h"
#include "nb_worker.h"

struct nb_app {
	struct nb_config cfg;
	struct nb_plan plan;
	uint16_t nb_ports; /* ports in use */
	uint16_t port_ids[NB_MAX_PORTS];
	struct nb_port ports[NB_MAX_PORTS]; /* indexed by position */
	struct nb_rate rate;		    /* resolved total rate */
	uint64_t total_packets;		    /* 0 = unlimited */

	struct nb_run run;
	struct nb_worker *workers[NB_MAX_LCORES];
	struct nb_txjob *txjobs[NB_MAX_JOBS];
	struct nb_rxjob *rxjobs[NB_MAX_JOBS];
	unsigned int nb_txjobs, nb_rxjobs;

	struct nb_result result;
	struct nb_output out;	     /* text, JSON, JSON lines or CSV */
	int emitted;		     /* a result or error went out on it */
	uint32_t last_interval_held; /* 1 + index of the last interval,
				      * left by the stats lcore for
				      * nb_stats_close(); 0 none */
	char errmsg[320];	     /* why the run failed, for --json */
	const char *state;	     /* telemetry: what this process is doing
				      * when no test runs */
	int keep_pools;		     /* peer mode: TX pools outlive a test */
	struct nb_probejob *probe;   /* peer client: latency prober, or NULL */
	volatile int stats_stop;
	volatile int stats_exited;
};

extern volatile sig_atomic_t nb_force_quit;

/* stats/nb_stats.c: the stats lcore's entry point and the collectors. */
int nb_stats_main(void *arg);
void nb_collect_final(struct nb_app *app);
/* After nb_collect_final(): close the intervals (late frames into the last
 * one, or one more after an interruption) and show what is not shown yet. */
void nb_stats_close(struct nb_app *app);

/* control/nb_loopback.c */
int nb_loopback_setup(struct nb_app *app, char *err, size_t errlen);
int nb_loopback_run(struct nb_app *app);
/* Set the run's start (senders' pacers, phase times); start written last. */
void nb_run_arm(struct nb_app *app, uint64_t start_tsc);
int nb_workers_launch(struct nb_app *app);
int nb_all_tx_done(const struct nb_app *app);

/*
 * Senders that have not got a frame accepted for NB_TX_STALL_S seconds
 * (link down, a peer gone): the caller stops the test rather than wait
 * forever for a --packets count.  seen and since carry state between calls
 * (start both at 0).
 */
#define NB_TX_STALL_S 5
int nb_tx_stalled(const struct nb_app *app, uint64_t tsc, uint64_t *seen,
		  uint64_t *since);
uint64_t nb_rx_data_total(const struct nb_app *app);
uint64_t nb_tx_data_total(const struct nb_app *app);
/* peer/nb_peer.c: the responder and the client. */
int nb_peer_responder(struct nb_app *app);
int nb_peer_client(struct nb_app *app);
void nb_loopback_free(struct nb_app *app);

/* An error: on stderr now, and kept for the JSON error document. */
void nb_app_error(struct nb_app *app, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* stats/nb_telemetry.c: /nbench/ commands for dpdk-telemetry.py. */
void nb_telemetry_register(struct nb_app *app);
/* A test's jobs exist (1) or are about to be freed (0; waits for readers). */
void nb_telemetry_live(int live);

/* port of a position in app->port_ids, or -1 */
int nb_app_port_index(const struct nb_app *app, uint16_t port_id);

#endif /* NB_APP_H */
