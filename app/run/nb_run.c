/* SPDX-License-Identifier: BSD-3-Clause */
/* The one test runtime: see nb_run.h for the steps. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "nb_auth.h"
#include "nb_capture.h"
#include "nb_devcaps.h"
#include "nb_mcast.h"
#include "nb_mcast_join.h"
#include "nb_phase.h"
#include "nb_port.h"
#include "nb_mesh_run.h"
#include "nb_metrics_http.h"
#include "nb_run.h"
#include "nb_seam.h"
#include "nb_setup.h"
#include "nb_stats.h"
#include "nb_telemetry.h"
#include "nb_tsc.h"

void
nb_run_sleep_us(unsigned int us)
{
	nb_glue_nap_us(us); /* the one nap, in pmd_glue's seam */
}

int
nb_run_resolve(struct nb_app *app, uint64_t link_bps)
{
	struct nb_config *cfg = &app->cfg;
	int ret =
		nb_rate_resolve(&cfg->rate, &cfg->sizes, link_bps, &app->rate);

	if (ret != 0)
		return ret;
	app->total_packets =
		cfg->bytes ? nb_bytes_to_packets(cfg->bytes, &cfg->sizes)
			   : cfg->packets;
	if ((cfg->packets || cfg->bytes) && !cfg->duration_set)
		cfg->duration = 0;
	return 0;
}

/*
 * --hw-rate: each paced TX job's queue gets the NIC's limiter at the
 * job's L1 rate; a job whose queue took it runs unpaced (nb_run_start),
 * the others keep the software pacer.  Each port's plan says which.
 */
static void
hw_rate(struct nb_app *app)
{
	const struct nb_config *cfg = &app->cfg;
	unsigned int tried[NB_MAX_PORTS] = {0}, ok[NB_MAX_PORTS] = {0};
	int first[NB_MAX_PORTS] = {0};
	unsigned int i;
	uint16_t p;

	for (i = 0; cfg->hw_rate && i < app->jobs.nb_tx; i++) {
		struct nb_txjob *j = app->jobs.tx[i];
		const struct nb_job *job = j->job;
		double pps;
		int rc;

		if (j->done)
			continue;
		if (job->rate_num == 0) {
			/* unpaced: no limit left from an earlier test (a
			 * responder's); a driver without one says so */
			(void)nb_port_queue_rate(j->port, j->queue, 0);
			continue;
		}
		for (p = 0; p < app->nb_ports && app->port_ids[p] != j->port;
		     p++)
			;
		if (p == app->nb_ports)
			continue;
		pps = (double)job->rate_num / (double)job->rate_den;
		rc = nb_port_queue_rate(
			j->port, j->queue,
			(uint32_t)(nb_rate_l1_bps(pps, &cfg->sizes) / 1e6 +
				   0.5));
		tried[p]++;
		if (rc == 0) {
			ok[p]++;
			j->hw_paced = 1;
		} else if (first[p] == 0) {
			first[p] = rc;
		}
	}
	for (p = 0; p < app->nb_ports; p++) {
		nb_offload_rate(&app->ports[p].offload,
				app->ports[p].desc.driver, cfg->hw_rate,
				tried[p], ok[p], first[p]);
		app->result.ports[p].offload = app->ports[p].offload;
	}
}

/* A fresh run: nothing stopped, no start yet, no interval reader. */
static void
run_reset(struct nb_app *app)
{
	app->run.tx_stop = 0;
	app->run.rx_stop = 0;
	app->run.rx_offset_ns = 0;
	app->run.tx_offset_ns = 0;
	app->run.start_tsc = UINT64_MAX;
	app->stats_stop = 0;
	app->stats_exited = 0;
	app->last_interval_held = 0;
	app->iv_read = NULL;
	app->iv_arg = NULL;
}

void
nb_run_prepare_tcp(struct nb_app *app)
{
	nb_jobs_free(&app->jobs);
	app->jobs.nb_streams = app->cfg.streams;
	run_reset(app);
}

int
nb_run_prepare(struct nb_app *app, uint64_t rate_num, uint64_t rate_den,
	       uint64_t packets, char *err, size_t errlen)
{
	const struct nb_config *cfg = &app->cfg;
	struct nb_result *r = &app->result;
	struct nb_jobs_ports ports = {
		.nb_ports = app->nb_ports,
		.port_ids = app->port_ids,
		.ports = app->ports,
	};
	uint64_t hz = nb_tsc_hz();
	unsigned int i;
	int ret;

	ret = nb_plan_jobs(&app->plan, cfg, rate_num, rate_den, packets, err,
			   errlen);
	if (ret != 0)
		return ret;
	for (i = 0; i < app->plan.nb_tx_jobs; i++) {
		const struct nb_job *j = &app->plan.jobs[i];
		struct nb_pacer tmp;

		if (j->rate_num != 0 &&
		    nb_pacer_init(&tmp, hz, j->rate_num, j->rate_den, 0) != 0) {
			snprintf(err, errlen,
				 "rate %llu/%llu pps cannot be paced here",
				 (unsigned long long)rate_num,
				 (unsigned long long)rate_den);
			return -EINVAL;
		}
	}
	nb_result_free(r);
	if (nb_result_init(r, cfg, cfg->streams) != 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	r->clk = *nb_tsc_info();
	r->tsc_hz = r->clk.hz;
	if (app->cookie[0] == '\0') {
		uint8_t id[16];

		if (nb_auth_random(id, sizeof(id)) == 0)
			nb_app_set_cookie(app, id, sizeof(id));
	}
	snprintf(r->cookie, sizeof(r->cookie), "%s", app->cookie);
	if (rate_num != 0) {
		r->req_pps = (double)rate_num / rate_den;
		r->req_l1_bps = nb_rate_l1_bps(r->req_pps, &cfg->sizes);
		r->req_l2_bps = nb_rate_l2_bps(r->req_pps, &cfg->sizes);
	}
	nb_setup_lcore_map(app, r->lcore_map, sizeof(r->lcore_map));
	nb_setup_numa(app);
	r->nb_ports = app->nb_ports;
	for (i = 0; i < app->nb_ports; i++) {
		r->ports[i].desc = app->ports[i].desc;
		r->ports[i].offload = app->ports[i].offload;
		r->ports[i].has_offload = 1;
	}
	run_reset(app);
	ret = nb_jobs_build(&app->jobs, cfg, &app->plan, &ports, &app->run, err,
			    errlen);
	if (ret != 0)
		return ret;
	hw_rate(app);
	return 0;
}

void
nb_run_cpu_now(struct nb_cpu_usage *u)
{
	struct rusage ru;
	struct timespec ts;

	memset(u, 0, sizeof(*u));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	u->wall_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return;
	u->user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000u +
		     (uint64_t)ru.ru_utime.tv_usec * 1000u;
	u->system_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
		       (uint64_t)ru.ru_stime.tv_usec * 1000u;
}

void
nb_run_arm(struct nb_app *app, uint64_t start)
{
	struct nb_run *run = &app->run;
	const struct nb_config *cfg = &app->cfg;
	struct nb_jobs *js = &app->jobs;
	uint64_t hz = nb_tsc_hz();
	unsigned int i;

	nb_run_cpu_now(&app->cpu_mark);
	run->measure_tsc = start + (uint64_t)(cfg->omit * hz);
	run->end_tsc =
		cfg->duration > 0
			? run->measure_tsc + (uint64_t)(cfg->duration * hz)
			: UINT64_MAX;
	for (i = 0; i < js->nb_tx; i++) {
		struct nb_txjob *j = js->tx[i];

		if (j->done)
			continue;
		nb_pacer_init(&j->pacer, hz, j->job->rate_num, j->job->rate_den,
			      start);
		if (j->hw_paced) /* the NIC paces this queue */
			nb_pacer_unlimit(&j->pacer);
		j->next_event = run->measure_tsc;
	}
	if (js->probe != NULL && !js->probe->pingpong)
		nb_pacer_init(&js->probe->pacer, hz, cfg->latency_rate, 1,
			      start);
	/* Everything above is visible before the start time is. */
	rte_wmb();
	run->start_tsc = start;
	nb_telemetry_live(1);
}

int
nb_run_launch(struct nb_app *app, int with_stats)
{
	struct nb_jobs *js = &app->jobs;
	unsigned int i;

	for (i = 0; i < js->nb_workers; i++) {
		struct nb_worker *w = js->workers[i];

		if (w->engine == NULL)
			continue;
		if (rte_eal_remote_launch(nb_worker_main, w, w->lcore) != 0) {
			snprintf(app->result.error, sizeof(app->result.error),
				 "cannot launch worker lcore %u", w->lcore);
			app->run.tx_stop = 1;
			app->run.rx_stop = 1;
			rte_eal_mp_wait_lcore();
			return -1;
		}
	}
	if (with_stats)
		rte_eal_remote_launch(nb_stats_main, app,
				      app->plan.stats_lcore);
	nb_metrics_note_test();
	return 0;
}

int
nb_run_tx_stalled(const struct nb_app *app, uint64_t tsc, uint64_t *seen,
		  uint64_t *since)
{
	struct nb_jobs_totals t;

	nb_jobs_totals(&app->jobs, &t);
	if (t.tx_all != *seen || *since == 0 || tsc < app->run.start_tsc) {
		*seen = t.tx_all;
		*since = tsc;
		return 0;
	}
	return tsc - *since > NB_TX_STALL_S * nb_tsc_hz();
}

void
nb_run_end_senders(struct nb_app *app, int force)
{
	struct nb_run *run = &app->run;
	uint64_t now = rte_get_tsc_cycles(), force_at = 0;
	struct nb_jobs_totals t;

	/*
	 * A test that ran to its end (by time) is let finish: its senders
	 * stop by their own rule (nb_gen_event) as soon as they get a turn,
	 * which a worker kept off its CPU gets late.  Stopping them at once
	 * would cut what they still owe.  So they get NB_RUN_STOP_GRACE_MS,
	 * then are stopped.  Otherwise (interrupted, or ended early by the
	 * peer): at once.
	 */
	/* closed-loop senders only (TCP: no open-loop job) close at once:
	 * their connections end by their own rules after it */
	if (force && app->jobs.nb_tx == 0 && app->jobs.nb_rx == 0) {
		run->tx_stop = 1;
		return;
	}
	if (force) {
		if (run->end_tsc != UINT64_MAX && now >= run->end_tsc)
			force_at =
				now + nb_tsc_hz() / 1000 * NB_RUN_STOP_GRACE_MS;
		else
			run->tx_stop = 1;
	}
	for (nb_jobs_totals(&app->jobs, &t); !t.tx_done;
	     nb_jobs_totals(&app->jobs, &t)) {
		if ((force_at && rte_get_tsc_cycles() >= force_at) ||
		    nb_force_quit)
			run->tx_stop = 1;
		nb_run_sleep_us(500);
	}
}

/* How many copies of each frame sent may arrive: one, or in a fan-out
 * test (one TX port to a group or broadcast) one per receiving port. */
static uint64_t
rx_copies(const struct nb_config *cfg)
{
	if (cfg->rx_copies)
		return cfg->rx_copies;
	return cfg->nb_tx_ports == 1 && nb_mcast_fanout(cfg, NULL)
		       ? cfg->nb_rx_ports
		       : 1;
}

void
nb_run_drain(struct nb_app *app, int force, int local_senders)
{
	struct nb_run *run = &app->run;
	uint64_t hz = nb_tsc_hz(), now, end, idle_since, last = 0, turns;
	uint64_t expect = UINT64_MAX, quiet;
	struct nb_jobs_totals t;
	int quit_before = nb_force_quit;

	nb_run_end_senders(app, force);
	nb_jobs_totals(&app->jobs, &t);
	if (local_senders)
		expect = t.tx_data * rx_copies(&app->cfg);
	now = rte_get_tsc_cycles();
	end = now + (uint64_t)(app->cfg.drain * hz);
	quiet = (uint64_t)(nb_run_quiet_s(app->cfg.drain) * hz);
	idle_since = now;
	turns = t.rx_turns;
	/*
	 * Until every frame we sent came back, or none came for the quiet
	 * window while the receivers polled: time in which they did not get
	 * a turn (off their CPUs) says nothing about the link, and does not
	 * count.  --drain bounds the whole.
	 */
	while (app->jobs.nb_rx > 0) {
		now = rte_get_tsc_cycles();
		nb_jobs_totals(&app->jobs, &t);
		/* a signal in the drain ends the wait for what is still in
		 * flight (one before it, which ended the test, does not:
		 * what was sent is still counted in) */
		if (t.rx_data >= expect || now >= end ||
		    (nb_force_quit && !quit_before))
			break;
		if (t.rx_data != last || t.rx_turns == turns) {
			last = t.rx_data;
			idle_since = now;
		} else if (now - idle_since > quiet) {
			break;
		}
		turns = t.rx_turns;
		nb_run_sleep_us(1000);
	}
	run->rx_stop = 1;
	app->stats_stop = 1;
	rte_eal_mp_wait_lcore();
}

/* The per-queue counts of a port (loopback: jobs own all its queues). */
static void
port_queues(struct nb_port_result *o, const struct nb_port_counts *pc)
{
	uint16_t q;

	if (pc->nb_queues > o->nb_queues)
		o->nb_queues = pc->nb_queues;
	for (q = 0; q < pc->nb_queues; q++) {
		o->q_tx_pkts[q] += pc->q_tx_pkts[q];
		o->q_tx_bytes[q] += pc->q_tx_bytes[q];
		o->q_rx_pkts[q] += pc->q_rx_pkts[q];
		o->q_rx_bytes[q] += pc->q_rx_bytes[q];
	}
}

void
nb_run_collect(struct nb_app *app)
{
	struct nb_result *r = &app->result;
	const struct nb_run *run = &app->run;
	uint64_t hz = nb_tsc_hz(), tx_end, rx_end;
	struct nb_counts c;
	uint32_t st;
	unsigned int p;

	if (nb_counts_alloc(&c, app->cfg.streams, 0, 1) != 0) {
		snprintf(r->error, sizeof(r->error), "out of memory");
		return;
	}
	nb_jobs_read(&app->jobs, &c);
	if (r->gaps != NULL)
		nb_jobs_read_gaps(&app->jobs, r->gaps, r->nb_streams);
	if (r->flow_rx != NULL)
		nb_jobs_read_flows(&app->jobs, r->nb_flows, r->nb_streams,
				   r->flow_rx, r->flow_sent, r->flow_rec);
	if (app->jobs.cap != NULL)
		nb_capture_sync(&app->jobs, &r->capture);
	r->tx_dropped += c.tx_dropped;
	r->alloc_fail += c.alloc_fail;
	r->rx_warm += c.rx_warm;
	r->rx_foreign += c.rx_foreign;
	r->rx_bad_stream += c.rx_bad_stream;
	for (st = 0; st < r->nb_streams && st < c.nb_streams; st++) {
		struct nb_stream_result *o = &r->streams[st];

		o->tx_pkts += c.tx_pkts[st];
		o->tx_bytes += c.tx_bytes[st];
		o->rx_pkts += c.rx_pkts[st];
		o->rx_unique += c.rx_unique[st];
		o->rx_bytes += c.rx_bytes[st];
		o->out_of_order += c.ooo[st];
		o->duplicates += c.dup[st];
		o->late += c.late[st];
		o->jitter_ns = c.jitter_ns[st];
		nb_hist_merge(&o->hist, &c.stream_hist[st]);
	}
	for (p = 0; p < app->nb_ports; p++) {
		const struct nb_port_counts *pc =
			nb_counts_port(&c, app->port_ids[p]);

		if (pc != NULL) {
			r->ports[p].tool_tx_pkts += pc->tx_pkts;
			r->ports[p].tool_tx_bytes += pc->tx_bytes;
			r->ports[p].tool_rx_pkts += pc->rx_pkts;
			r->ports[p].tool_rx_bytes += pc->rx_bytes;
			port_queues(&r->ports[p], pc);
		}
		nb_port_stats(app->port_ids[p], &r->ports[p].pmd);
		nb_port_bond(app->port_ids[p], &r->ports[p].bond);
	}
	tx_end = c.tx_end_tsc > run->measure_tsc ? c.tx_end_tsc
						 : run->measure_tsc;
	rx_end = c.rx_end_tsc > run->measure_tsc ? c.rx_end_tsc
						 : run->measure_tsc;
	r->tx_seconds = (double)(tx_end - run->measure_tsc) / hz;
	r->rx_seconds = (double)(rx_end - run->measure_tsc) / hz;
	if (r->rx_seconds < r->tx_seconds)
		r->rx_seconds = r->tx_seconds;
	nb_counts_free(&c);
	nb_run_cpu_now(&r->cpu_host);
	r->cpu_host.wall_ns -= app->cpu_mark.wall_ns;
	r->cpu_host.user_ns -= app->cpu_mark.user_ns;
	r->cpu_host.system_ns -= app->cpu_mark.system_ns;
	nb_result_finish(r);
}

void
nb_run_free(struct nb_app *app)
{
	nb_metrics_keep(app); /* what /metrics shows until the next test */
	nb_telemetry_live(0); /* no reader may see the jobs go */
	nb_jobs_free(&app->jobs);
}

/* A receive-only test (no TX job) ends at its time, or once its
 * receivers took in --packets frames (any: it counts what arrives). */
static int
rx_only_done(const struct nb_app *app)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; app->cfg.packets && i < app->jobs.nb_rx; i++)
		n += app->jobs.rx[i]->pkts;
	if (app->cfg.packets && n >= app->cfg.packets)
		return 1;
	return rte_get_tsc_cycles() >= app->run.end_tsc;
}

/* A receive-only test's length (the start to the end of the wait,
 * loop_end) and its frame sizes into app->result. */
static void
rx_only_close(struct nb_app *app, uint64_t loop_end, uint64_t hz)
{
	const struct nb_run *run = &app->run;
	unsigned int i, b;

	app->result.rx_only = 1;
	app->result.rxo_seconds =
		loop_end > run->measure_tsc
			? (double)(loop_end - run->measure_tsc) / hz
			: 0;
	/* ended by --time: that long (what the last poll turn took on top
	 * goes into the last interval) */
	if (!app->result.interrupted && loop_end >= run->end_tsc &&
	    app->cfg.duration > 0)
		app->result.rxo_seconds = app->cfg.duration;
	memset(app->result.rx_sizes, 0, sizeof(app->result.rx_sizes));
	for (i = 0; i < app->jobs.nb_rx; i++)
		for (b = 0; b < NB_SIZE_BINS; b++)
			app->result.rx_sizes[b] += app->jobs.rx[i]->sizes[b];
}

void
nb_run_local(struct nb_app *app, int with_stats)
{
	struct nb_run *run = &app->run;
	uint64_t hz = nb_tsc_hz(), seen = 0, since = 0, loop_end;
	struct nb_tester_sample noise1;
	struct nb_jobs_totals t;
	unsigned int i;
	int interrupted = 0;

	nb_mesh_learn(app); /* many ports: a switch learns each first */
	/*
	 * Frames that queued while the links came up (LLDP, STP, ...): a NIC
	 * has counted them already; read and drop them before the counters
	 * are reset, so the tool and the PMD count the same frames.
	 */
	for (i = 0; i < app->jobs.nb_rx; i++)
		nb_port_rx_flush(app->jobs.rx[i]->port, app->jobs.rx[i]->queue);
	for (i = 0; i < app->nb_ports; i++)
		nb_port_stats_reset(app->port_ids[i]);
	nb_clock_init(&run->clock, hz, 0);
	/* receive-only: another generator's frames flow already; the test
	 * starts as the receivers do */
	nb_run_arm(app,
		   rte_get_tsc_cycles() +
			   (app->cfg.rx_only
				    ? 0
				    : (uint64_t)(NB_RUN_START_DELAY_S * hz)));
	if (nb_run_launch(app, with_stats) != 0)
		return;
	nb_tester_read_tids(&app->jobs);
	nb_tester_read(&app->jobs, &app->noise0);
	app->noise0_ready = 1;
	nb_app_phase(NB_PHASE_RUNNING);
	for (nb_jobs_totals(&app->jobs, &t);
	     app->jobs.nb_tx ? !t.tx_done : !rx_only_done(app);
	     nb_jobs_totals(&app->jobs, &t)) {
		if (nb_force_quit && !run->tx_stop) {
			run->tx_stop = 1;
			interrupted = 1;
			if (app->jobs.nb_tx == 0)
				break;
		}
		/* (a receive-only test has no TX port to stall) */
		if (!run->tx_stop && app->jobs.nb_tx &&
		    nb_run_tx_stalled(app, rte_get_tsc_cycles(), &seen,
				      &since)) {
			snprintf(app->result.error, sizeof(app->result.error),
				 "the TX port accepted no frame for %d s "
				 "(link down?); test stopped",
				 NB_TX_STALL_S);
			run->tx_stop = 1;
		}
		nb_mcast_tick(app); /* a group's reports, when due */
		nb_run_sleep_us(5000);
	}
	loop_end = rte_get_tsc_cycles();
	nb_app_phase(NB_PHASE_DRAINING);
	nb_run_drain(app, 0, 1);
	nb_tester_read(&app->jobs, &noise1);
	app->result.interrupted = interrupted || nb_force_quit;
	/* a signal from here on cuts nothing of the test */
	nb_app_phase(NB_PHASE_REPORTING);
	nb_run_collect(app);
	if (app->cfg.rx_only)
		rx_only_close(app, loop_end, hz);
	app->noise0_ready = 0;
	nb_tester_read_diff(&app->jobs, &app->noise0, &noise1,
			    &app->result.tester);
	app->result.have_tester = 1;
}
