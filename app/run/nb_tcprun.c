/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A --tcp test on the runtime's steps (nb_run.h): prepare, the TCP jobs
 * (nb_tcprun_setup.c), arm, launch, the end by TCP's rules (time, bytes,
 * every connection closed, a stall, Ctrl-C), the clients' close, drain,
 * the TCP report, free; and a --msg-size sweep of such tests.  What is
 * here is TCP's own: when a test of connections is over, and the
 * interval edges of its report (read by the stats lcore).
 */
#include "nb_tcprun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "nb_log.h"
#include "nb_phase.h"
#include "nb_run.h"
#include "nb_setup.h"
#include "nb_tcp_engine.h"
#include "nb_tcp_report.h"
#include "nb_tcp_wire.h"
#include "nb_tcprun_int.h"
#include "nb_tsc.h"
#include "nb_version.h"

/* Seconds since the start (0 before it). */
static double
elapsed_s(const struct tcprun *t)
{
	uint64_t now = nb_clock_ns(&t->app->run.clock, rte_rdtsc());

	return now > t->start_ns ? (double)(now - t->start_ns) / 1e9 : 0;
}

/* Every connection closed: all of them, or those a listener took. */
int
nb_tcprun_all_finished(const struct tcprun *t)
{
	if (t->cj && t->cj->finished < t->n)
		return 0;
	if (t->sj && t->sj->accept_any)
		return t->sj->accepted > 0 &&
		       t->sj->finished == t->sj->accepted &&
		       !nb_tcpw_handshakes_pending(t->sj);
	return t->sj == NULL || t->sj->finished == t->n;
}

/* Bytes delivered so far, as this side sees them: progress. */
static uint64_t
progress(const struct tcprun *t)
{
	const struct nb_tcpjob *j = t->cj ? t->cj : t->sj;
	uint64_t s = 0;
	uint32_t i;

	for (i = 0; i < t->n; i++)
		s += j->ends[i].c.st.bytes_acked + j->ends[i].c.st.bytes_rcvd;
	return s;
}

uint64_t
nb_tcprun_iv_read(void *arg)
{
	struct tcprun *t = arg;
	double iv = t->no_iv ? 0 : t->app->cfg.interval;
	double now = elapsed_s(t);

	while (now >= t->next_iv && t->next_iv <= t->iv_until) {
		nb_tcprun_interval(t, t->next_iv);
		t->next_iv += iv;
	}
	if (iv <= 0 || t->next_iv > t->iv_until)
		return UINT64_MAX;
	return rte_rdtsc() +
	       (uint64_t)((t->next_iv - now) * (double)nb_tsc_hz());
}

/* The stats lcore reads the intervals: it takes the edges due, and
 * stops, before control writes the last one.  0 when it did not stop
 * within 2 s (a stats lcore that could not be launched never exits; one
 * blocked on a full stdout may still be writing): control then writes no
 * interval of its own. */
static int
stop_reader(struct tcprun *t)
{
	uint64_t give_up = rte_get_tsc_cycles() + 2 * nb_tsc_hz();

	if (!t->stats_reads)
		return 1;
	t->app->stats_stop = 1;
	while (!t->app->stats_exited && rte_get_tsc_cycles() < give_up)
		nb_run_sleep_us(200);
	return t->app->stats_exited;
}

void
nb_tcprun_step_init(struct tcprun *t)
{
	double iv = t->no_iv ? 0 : t->app->cfg.interval;

	t->next_iv = iv > 0 ? iv : 1e30;
	t->iv_until = 1e30;
	t->close_at = -1;
	t->last_progress = 0;
	t->acked_seen = 0;
}

int
nb_tcprun_step(struct tcprun *t, char *why, size_t whylen)
{
	const struct nb_config *cfg = &t->app->cfg;
	double iv = t->no_iv ? 0 : cfg->interval;
	double now = elapsed_s(t), t_end;
	double limit = t->is_peer			  ? t->pp.duration
		       : cfg->bytes && !cfg->duration_set ? 0
							  : cfg->duration;
	uint64_t a;

	if (now <= 0)
		return 0;
	/* a listener waits for its first connection without end (or
	 * Ctrl-C), and its times count from it, as iperf3 -s's */
	if (t->cj == NULL && t->sj->accept_any && t->sj->accepted == 0 &&
	    !nb_force_quit && t->close_at < 0) {
		t->start_ns = nb_clock_ns(&t->app->run.clock, rte_rdtsc());
		return 0;
	}
	if (!t->stats_reads)
		(void)nb_tcprun_iv_read(t);
	a = progress(t);
	if (a != t->acked_seen) {
		t->acked_seen = a;
		t->last_progress = now;
	}
	if (t->close_at < 0 &&
	    ((limit > 0 && now >= limit) || nb_force_quit ||
	     (t->cj ? t->cj->finished == t->n : nb_tcprun_all_finished(t)) ||
	     now - t->last_progress > STALL_S)) {
		if (nb_force_quit)
			t->interrupted = 1;
		else if (now - t->last_progress > STALL_S &&
			 !nb_tcprun_all_finished(t))
			snprintf(why, whylen,
				 "no byte acknowledged for %.0f s: test "
				 "stopped",
				 STALL_S);
		/* the clients close now; the stats lcore takes the edges up
		 * to now and stops (within its 20 ms nap), then control
		 * writes the last, partial interval */
		t->iv_until = now;
		nb_run_end_senders(t->app, 1);
		t_end = limit > 0 && now > limit ? limit : now;
		if (stop_reader(t) && iv > 0 && t_end > t->t_prev)
			nb_tcprun_interval(t, t_end);
		t->close_at = now;
	}
	return t->close_at >= 0 &&
	       (nb_tcprun_all_finished(t) || now - t->close_at > CLOSE_WAIT_S ||
		(nb_force_quit && now - t->close_at > 1.0));
}

/* Wait for the end (time, bytes, Ctrl-C, a stall), printing intervals. */
static void
wait_end(struct tcprun *t, char *why, size_t whylen)
{
	do
		nb_run_sleep_us(2000);
	while (!nb_tcprun_step(t, why, whylen));
}

/*
 * One test: set up, run to its end, the workers joined (t->secs its
 * length).  0, or 1 with the error said and everything freed.
 */
static int
run_test(struct nb_app *app, struct tcprun *t, uint32_t msg, int header,
	 int *interrupted, char *why, size_t whylen)
{
	const struct nb_config *cfg = &app->cfg;
	struct nb_run *run = &app->run;
	uint64_t hz = nb_tsc_hz();
	char err[320] = "";
	uint64_t start;
	unsigned int i;

	t->app = app;
	t->msg = cfg->pingpong ? msg : 0;
	t->has_client = cfg->nb_tx_ports > 0;
	t->has_server = cfg->nb_rx_ports > 0;
	t->loop = t->has_client && t->has_server;
	t->n = cfg->streams;
	t->mss = nb_tcp_mss_for(cfg->sizes.sizes[0], cfg->vlan_id,
				cfg->stack.family);
	t->ndir = 1;
	t->prev = calloc(t->n, sizeof(*t->prev));
	t->cur = calloc(t->n, sizeof(*t->cur));
	t->intervals = json_array();
	nb_run_prepare_tcp(app);
	if (t->prev == NULL || t->cur == NULL ||
	    nb_tcprun_resolve_peer(t, err, sizeof(err)) != 0 ||
	    nb_tcprun_build(t, err, sizeof(err)) != 0) {
		nb_app_error(app, "%s", err[0] ? err : "out of memory");
		nb_tcprun_free(t);
		nb_run_free(app);
		return 1;
	}
	if (header && nb_out_chatty(&app->out))
		nb_tcprun_print_header(t);
	for (i = 0; i < app->nb_ports; i++) {
		nb_port_rx_flush(app->port_ids[i], 0);
		nb_port_stats_reset(app->port_ids[i]);
	}
	nb_clock_init(&run->clock, hz, 0);
	start = rte_get_tsc_cycles() +
		(uint64_t)(NB_RUN_START_DELAY_S * (double)hz);
	t->start_ns = nb_clock_ns(&run->clock, start);
	nb_tcprun_step_init(t);
	/* the stats lcore reads the intervals, as it does the jobs' */
	t->stats_reads = !t->no_iv && cfg->interval > 0;
	if (t->stats_reads) {
		app->iv_read = nb_tcprun_iv_read;
		app->iv_arg = t;
	}
	nb_run_arm(app, start);
	if (nb_run_launch(app, t->stats_reads) != 0) {
		nb_app_error(app, "%s", app->result.error);
		nb_tcprun_free(t);
		nb_run_free(app);
		return 1;
	}
	t->launched = 1;
	nb_app_phase(NB_PHASE_RUNNING);
	wait_end(t, why, whylen);
	*interrupted = t->interrupted;
	t->secs = elapsed_s(t);
	nb_tcprun_stop(t);
	nb_app_phase(NB_PHASE_REPORTING);
	return 0;
}

void
nb_tcprun_stop(struct tcprun *t)
{
	if (!t->launched)
		return;
	nb_run_drain(t->app, 1, 0);
	t->launched = 0;
}

/*
 * --pingpong with a --msg-size range: one test per size, one after the
 * other (a connection each), as qperf -oo msg_size:...; a row per size
 * and nbench.pingpong_sweep[] in the JSON document.
 */
static int
sweep(struct nb_app *app)
{
	const struct nb_config *cfg = &app->cfg;
	const struct nb_output *o = &app->out;
	json_t *rows = json_array();
	char why[320] = "";
	int interrupted = 0;
	uint32_t k;

	for (k = 0; k < cfg->tcp_msgs.n && !interrupted && !why[0]; k++) {
		struct tcprun t = {.no_iv = 1};
		json_t *row;

		if (run_test(app, &t, cfg->tcp_msgs.sizes[k], k == 0,
			     &interrupted, why, sizeof(why)) != 0) {
			json_decref(rows);
			return 1;
		}
		if (k == 0)
			nb_tcprun_sweep_head(o);
		row = nb_tcprun_sweep_row(&t, o, why, sizeof(why));
		json_array_append_new(rows, row);
		nb_tcprun_free(&t);
		nb_run_free(app);
	}
	return nb_tcprun_sweep_end(app, rows, interrupted, why);
}

void
nb_tcprun_sweep_head(const struct nb_output *o)
{
	if (nb_out_chatty(o))
		fprintf(o->f, "msg bytes  round trips   per second   "
			      "RTT min      p50      p99      max (us)\n");
}

int
nb_tcprun_sweep_end(struct nb_app *app, json_t *rows, int interrupted,
		    const char *why)
{
	const struct nb_config *cfg = &app->cfg;
	const struct nb_output *o = &app->out;
	json_t *doc;
	int code = 0;

	if (why[0] && nb_out_chatty(o))
		fprintf(o->f, "WARNING: %s\n", why);
	doc = json_pack("{s:{s:s, s:{s:s, s:i, s:f}}, s:{s:s, s:o, s:b}}",
			"start", "version", "dpdk-nbench " NB_VERSION,
			"test_start", "protocol", "TCP", "num_streams",
			(int)cfg->streams, "duration", cfg->duration, "nbench",
			"mode", "tcp", "pingpong_sweep", rows, "interrupted",
			interrupted);
	if (why[0])
		json_object_set_new(doc, "error", json_string(why));
	app->emitted = 1;
	if (nb_out_finish(o, doc) != 0)
		NB_LOG(ERR, "cannot write --json-file %s", cfg->json_file);
	if (why[0]) {
		NB_LOG(ERR, "%s", why);
		code = 1;
	}
	return interrupted ? 1 : code;
}

int
nb_tcprun_main(struct nb_app *app)
{
	struct tcprun t = {0};
	int interrupted = 0, code = 0;
	char why[320] = "";

	if (app->cfg.tcp_msgs.n)
		return sweep(app);
	if (run_test(app, &t, app->cfg.tcp_msg, 1, &interrupted, why,
		     sizeof(why)) != 0)
		return 1;
	nb_tcprun_report(&t, t.secs, interrupted, why, sizeof(why));
	if (why[0]) {
		NB_LOG(ERR, "%s", why);
		code = 1;
	}
	if (interrupted)
		code = 1;
	nb_tcprun_free(&t);
	nb_run_free(app);
	return code;
}
