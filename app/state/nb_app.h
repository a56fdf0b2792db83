/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The state of one dpdk-nbench process: options, ports, the plan and jobs
 * of the test in hand, its result and output.  Written by the control lcore;
 * the stats lcore and the telemetry thread read it (the jobs' counters
 * through nb_jobs_read()).
 */
#ifndef NB_APP_H
#define NB_APP_H

#include <signal.h>
#include <stdint.h>

#include "nb_config.h"
#include "nb_jobs.h"
#include "nb_output.h"
#include "nb_plan.h"
#include "nb_port.h"
#include "nb_result.h"
#include "nb_tester.h"
#include "nb_worker.h"

struct nb_app {
	struct nb_config cfg;
	struct nb_plan plan;
	uint16_t nb_ports; /* ports in use */
	uint16_t port_ids[NB_MAX_PORTS];
	struct nb_port ports[NB_MAX_PORTS]; /* indexed by position */
	struct nb_rate rate;		    /* resolved total rate */
	uint64_t total_packets;		    /* 0 = unlimited */
	struct nb_replay replay;	    /* --replay's frames (n 0: none) */

	struct nb_run run;
	struct nb_jobs jobs;

	struct nb_result result;
	struct nb_output out;	     /* text, JSON, JSON lines or CSV */
	int emitted;		     /* a result or error went out on it */
	uint32_t last_interval_held; /* 1 + index of the last interval,
				      * left by the stats lcore for
				      * nb_stats_close(); 0 none */
	char errmsg[1024];	     /* why the run failed, for --json */
	const char *state;	     /* telemetry: what this process is doing
				      * when no test runs */
	volatile int stats_stop;
	volatile int stats_exited;
	/*
	 * A test that keeps its own interval rows (--tcp: connections, not
	 * streams): the stats lcore calls iv_read(iv_arg) instead of reading
	 * the jobs, at the TSC it returns for its next edge (UINT64_MAX:
	 * none), and once more at a stop when that edge is due.  NULL: the
	 * jobs' intervals (nb_sampler).
	 */
	uint64_t (*iv_read)(void *arg);
	void *iv_arg;
	/* this test's id (iperf3's cookie), hex; empty: a random one at
	 * the next nb_run_prepare() */
	char cookie[sizeof(((struct nb_result *)0)->cookie)];
	struct nb_cpu_usage cpu_mark; /* CPU times when the test was armed */
	/* the workers' disturbance when the local test started (ready set
	 * once it is read: telemetry's /nbench/tester counts from it) */
	struct nb_tester_sample noise0;
	volatile int noise0_ready;
	/* a test to a group with ports that joined: when the control lcore
	 * sends their membership reports again (TSC; 0: never) */
	uint64_t mcast_due;
};

/* Set by SIGINT/SIGTERM: stop what runs, report, exit. */
extern volatile sig_atomic_t nb_force_quit;

/* Enter a phase (core/nb_phase.h's names): kept for the documents an
 * interruption writes, and said at debug ("phase: NAME"). */
void nb_app_phase(const char *name);

/* The test's id from n bytes (a peer session's nonce), in hex. */
void nb_app_set_cookie(struct nb_app *app, const uint8_t *id, size_t n);

/* An error: logged now, and kept for the JSON error document. */
void nb_app_error(struct nb_app *app, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Position of a port in app->port_ids, or -1. */
int nb_app_port_index(const struct nb_app *app, uint16_t port_id);

#endif /* NB_APP_H */
