/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DPDK telemetry: /nbench/ commands, so dpdk-telemetry.py (or any client of
 * the telemetry socket) can read a running tester or responder.
 *
 * The callbacks run on DPDK's telemetry thread.  They read the workers'
 * single-writer counters through nb_jobs_read()/nb_jobs_totals(), as the
 * stats lcore does.  A test's jobs
 * are freed between tests: the control lcore calls nb_telemetry_live(0)
 * first, which waits until no callback is reading them.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_telemetry.h>

#include "nb_pool.h"
#include "nb_tcp_engine.h"
#include "nb_telemetry.h"
#include "nb_tester_read.h"
#include "nb_tsc.h"

#define TEL_MAX_STREAMS 32 /* /nbench/streams without an id lists these */

static struct nb_app *tel_app;
static atomic_int tel_live;
static atomic_int tel_readers;
/* the responder's counters (nb_telemetry_responder): on while rsp_on */
static struct nb_tel_rsp tel_rsp;
static atomic_int rsp_on;
static atomic_int rsp_readers;

static void
nap_100us(void)
{
	struct timespec ts = {0, 100000};

	nanosleep(&ts, NULL);
}

void
nb_telemetry_live(int live)
{
	if (live) {
		atomic_store(&tel_live, 1);
		return;
	}
	atomic_store(&tel_live, 0);
	while (atomic_load(&tel_readers) > 0)
		nap_100us();
}

void
nb_telemetry_responder(const struct nb_tel_rsp *r)
{
	atomic_store(&rsp_on, 0);
	while (atomic_load(&rsp_readers) > 0)
		nap_100us();
	if (r == NULL)
		return;
	tel_rsp = *r;
	atomic_store(&rsp_on, 1);
}

/* 0: the jobs may be read until tel_leave(); -1: no test is running. */
static int
tel_enter(void)
{
	atomic_fetch_add(&tel_readers, 1);
	if (!atomic_load(&tel_live)) {
		atomic_fetch_sub(&tel_readers, 1);
		return -1;
	}
	return 0;
}

static void
tel_leave(void)
{
	atomic_fetch_sub(&tel_readers, 1);
}

int
nb_telemetry_enter(void)
{
	return tel_enter();
}

void
nb_telemetry_leave(void)
{
	tel_leave();
}

const char *
nb_telemetry_mode(enum nb_mode m)
{
	switch (m) {
	case NB_MODE_PORTS:
		return "list-ports";
	case NB_MODE_LOOPBACK:
		return "loopback";
	case NB_MODE_REFLECTOR:
		return "reflector";
	case NB_MODE_RESPONDER:
		return "responder";
	case NB_MODE_CLIENT:
		return "client";
	default:
		return "none";
	}
}

/* What the run is doing now, from its times (jobs are live).  A TCP
 * test (tcp: it has TCP jobs) has no open-loop sender: it runs until its
 * senders are told to close. */
static const char *
run_state(const struct nb_app *app, uint64_t now,
	  const struct nb_jobs_totals *t, int tcp)
{
	const struct nb_run *run = &app->run;

	if (run->start_tsc == 0 || now < run->start_tsc)
		return "starting";
	if (run->rx_stop)
		return "stopping";
	if (now < run->measure_tsc)
		return "warm-up";
	if (tcp ? !run->tx_stop : !t->tx_done)
		return "running";
	return "draining";
}

/* A TCP test's frames so far (a --tcp test here, or a peer's negotiated
 * one): its workers' TCP jobs, which are not open-loop jobs, so
 * nb_jobs_totals does not see them.  Returns how many there are. */
static unsigned int
tcp_frames(const struct nb_jobs *js, struct nb_jobs_totals *t)
{
	unsigned int i, k, n = 0;

	for (i = 0; i < js->nb_workers; i++)
		for (k = 0; k < js->workers[i]->nb_tcp; k++, n++) {
			t->tx_data += js->workers[i]->tcp[k]->tx_pkts;
			t->rx_data += js->workers[i]->tcp[k]->rx_pkts;
		}
	return n;
}

static int
tel_state(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct nb_app *app = tel_app;
	uint64_t now = rte_get_tsc_cycles(), hz = nb_tsc_hz();
	char buf[64];

	(void)cmd, (void)params;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "mode",
				     nb_telemetry_mode(app->cfg.mode));
	if (tel_enter() == 0) {
		const struct nb_run *run = &app->run;
		double secs = run->measure_tsc && now > run->measure_tsc
				      ? (double)(now - run->measure_tsc) / hz
				      : 0;
		struct nb_jobs_totals t;

		unsigned int tcp;

		nb_jobs_totals(&app->jobs, &t);
		tcp = tcp_frames(&app->jobs, &t);
		rte_tel_data_add_dict_string(d, "state",
					     run_state(app, now, &t, tcp != 0));
		snprintf(buf, sizeof(buf), "%.3f", secs);
		rte_tel_data_add_dict_string(d, "elapsed_s", buf);
		rte_tel_data_add_dict_u64(d, "streams", app->cfg.streams);
		rte_tel_data_add_dict_u64(d, "tx_packets", t.tx_data);
		rte_tel_data_add_dict_u64(d, "rx_packets", t.rx_data);
		tel_leave();
	} else {
		rte_tel_data_add_dict_string(d, "state",
					     app->state ? app->state : "idle");
	}
	snprintf(buf, sizeof(buf), "%.3f", app->cfg.duration);
	rte_tel_data_add_dict_string(d, "duration_s", buf);
	rte_tel_data_add_dict_string(d, "protocol",
				     app->cfg.proto == NB_IPPROTO_TCP ? "TCP"
								      : "UDP");
	rte_tel_data_add_dict_u64(d, "requested_pps",
				  (uint64_t)app->result.req_pps);
	return 0;
}

static int
tel_ports(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct nb_app *app = tel_app;
	struct nb_counts cnt;
	int live;
	unsigned int p;

	(void)cmd, (void)params;
	if (nb_counts_alloc(&cnt, app->cfg.streams, 0, 0) != 0)
		return -1;
	live = tel_enter() == 0;
	if (live) {
		nb_jobs_read(&app->jobs, &cnt);
		tel_leave();
	}
	rte_tel_data_start_dict(d);
	for (p = 0; p < app->nb_ports; p++) {
		struct rte_tel_data *c = rte_tel_data_alloc();
		uint16_t port = app->port_ids[p];
		const struct nb_port_counts *pc =
			live ? nb_counts_port(&cnt, port) : NULL;
		struct nb_port_counts zero = {.port_id = port};
		struct nb_pmd_stats pmd;
		char name[16];

		if (c == NULL)
			break;
		if (pc == NULL)
			pc = &zero;
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_string(c, "name",
					     app->ports[p].desc.name);
		rte_tel_data_add_dict_string(c, "driver",
					     app->ports[p].desc.driver);
		rte_tel_data_add_dict_u64(c, "tool_tx_packets", pc->tx_pkts);
		rte_tel_data_add_dict_u64(c, "tool_tx_bytes", pc->tx_bytes);
		rte_tel_data_add_dict_u64(c, "tool_rx_packets", pc->rx_pkts);
		rte_tel_data_add_dict_u64(c, "tool_rx_bytes", pc->rx_bytes);
		if (nb_port_stats(port, &pmd) == 0) {
			rte_tel_data_add_dict_u64(c, "ipackets", pmd.ipackets);
			rte_tel_data_add_dict_u64(c, "opackets", pmd.opackets);
			rte_tel_data_add_dict_u64(c, "ibytes", pmd.ibytes);
			rte_tel_data_add_dict_u64(c, "obytes", pmd.obytes);
			rte_tel_data_add_dict_u64(c, "imissed", pmd.imissed);
			rte_tel_data_add_dict_u64(c, "ierrors", pmd.ierrors);
			rte_tel_data_add_dict_u64(c, "oerrors", pmd.oerrors);
			rte_tel_data_add_dict_u64(c, "rx_nombuf",
						  pmd.rx_nombuf);
		}
		snprintf(name, sizeof(name), "%u", port);
		rte_tel_data_add_dict_container(d, name, c, 0);
	}
	nb_counts_free(&cnt);
	return 0;
}

/*
 * Per queue of each port with more than one (as the report's queue rows):
 * "pPORTqQUEUE" -> the tool's live counts and the PMD's per-queue ones.
 */
static int
tel_queues(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct nb_app *app = tel_app;
	struct nb_counts cnt;
	unsigned int p, q;

	(void)cmd, (void)params;
	if (nb_counts_alloc(&cnt, app->cfg.streams, 0, 0) != 0)
		return -1;
	rte_tel_data_start_dict(d);
	/* none in peer mode, as in the report: the control lcore's frames
	 * share the queues uncounted per queue */
	if (app->cfg.mode == NB_MODE_CLIENT ||
	    app->cfg.mode == NB_MODE_RESPONDER || tel_enter() != 0) {
		nb_counts_free(&cnt);
		return 0;
	}
	nb_jobs_read(&app->jobs, &cnt);
	tel_leave();
	for (p = 0; p < app->nb_ports; p++) {
		uint16_t port = app->port_ids[p];
		const struct nb_port_counts *pc = nb_counts_port(&cnt, port);
		struct nb_pmd_stats pmd;
		int have_pmd;

		if (pc == NULL || pc->nb_queues < 2)
			continue;
		have_pmd = nb_port_stats(port, &pmd) == 0;
		for (q = 0; q < pc->nb_queues && q < NB_PMD_QUEUES; q++) {
			struct rte_tel_data *c = rte_tel_data_alloc();
			char name[24];

			if (c == NULL)
				break;
			rte_tel_data_start_dict(c);
			rte_tel_data_add_dict_u64(c, "tool_tx_packets",
						  pc->q_tx_pkts[q]);
			rte_tel_data_add_dict_u64(c, "tool_tx_bytes",
						  pc->q_tx_bytes[q]);
			rte_tel_data_add_dict_u64(c, "tool_rx_packets",
						  pc->q_rx_pkts[q]);
			rte_tel_data_add_dict_u64(c, "tool_rx_bytes",
						  pc->q_rx_bytes[q]);
			if (have_pmd) {
				rte_tel_data_add_dict_u64(c, "pmd_opackets",
							  pmd.q_opackets[q]);
				rte_tel_data_add_dict_u64(c, "pmd_ipackets",
							  pmd.q_ipackets[q]);
			}
			snprintf(name, sizeof(name), "p%uq%u", port, q);
			rte_tel_data_add_dict_container(d, name, c, 0);
		}
	}
	nb_counts_free(&cnt);
	return 0;
}

/* One stream's live counters, summed over every job that carries it. */
static void
stream_dict(const struct nb_counts *cnt, uint32_t st, struct rte_tel_data *c)
{
	uint64_t tx = cnt->tx_pkts[st], uniq = cnt->rx_unique[st];

	rte_tel_data_start_dict(c);
	rte_tel_data_add_dict_u64(c, "tx_packets", tx);
	rte_tel_data_add_dict_u64(c, "tx_bytes", cnt->tx_bytes[st]);
	rte_tel_data_add_dict_u64(c, "rx_packets", cnt->rx_pkts[st]);
	rte_tel_data_add_dict_u64(c, "rx_bytes", cnt->rx_bytes[st]);
	/* sent and not (yet) received: in flight, or lost */
	rte_tel_data_add_dict_u64(c, "not_received", tx > uniq ? tx - uniq : 0);
	rte_tel_data_add_dict_u64(c, "out_of_order", cnt->ooo[st]);
	rte_tel_data_add_dict_u64(c, "duplicates", cnt->dup[st]);
}

static int
tel_streams(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct nb_app *app = tel_app;
	uint32_t st, first = 0, n = app->cfg.streams;
	struct nb_counts cnt;
	char name[16], *end;

	(void)cmd;
	if (params != NULL && *params != '\0') {
		unsigned long v = strtoul(params, &end, 10);

		if (*end != '\0' || v >= n)
			return -1; /* telemetry answers null */
		first = (uint32_t)v;
		n = first + 1;
	} else if (n > TEL_MAX_STREAMS) {
		n = TEL_MAX_STREAMS;
	}
	rte_tel_data_start_dict(d);
	if (nb_counts_alloc(&cnt, app->cfg.streams, 0, 0) != 0)
		return -1;
	if (tel_enter() != 0) {
		nb_counts_free(&cnt);
		return 0; /* no test: an empty dict */
	}
	nb_jobs_read(&app->jobs, &cnt);
	tel_leave();
	for (st = first; st < n; st++) {
		struct rte_tel_data *c = rte_tel_data_alloc();

		if (c == NULL)
			break;
		stream_dict(&cnt, st, c);
		snprintf(name, sizeof(name), "%u", st);
		rte_tel_data_add_dict_container(d, name, c, 0);
	}
	nb_counts_free(&cnt);
	return 0;
}

static int
tel_latency(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct nb_app *app = tel_app;
	struct nb_counts cnt;
	struct nb_hist *h;

	(void)cmd, (void)params;
	if (nb_counts_alloc(&cnt, app->cfg.streams, 1, 0) != 0)
		return -1;
	h = cnt.hist;
	nb_hist_init(h);
	if (tel_enter() == 0) {
		nb_jobs_read(&app->jobs, &cnt);
		tel_leave();
	}
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(
		d, "clock", app->result.clock ? app->result.clock : "tsc");
	rte_tel_data_add_dict_u64(d, "count", h->count);
	rte_tel_data_add_dict_u64(d, "min_ns", h->count ? h->min : 0);
	rte_tel_data_add_dict_u64(d, "p50_ns", nb_hist_percentile(h, 50));
	rte_tel_data_add_dict_u64(d, "p90_ns", nb_hist_percentile(h, 90));
	rte_tel_data_add_dict_u64(d, "p99_ns", nb_hist_percentile(h, 99));
	rte_tel_data_add_dict_u64(d, "p99_9_ns", nb_hist_percentile(h, 99.9));
	rte_tel_data_add_dict_u64(d, "max_ns", h->max);
	nb_counts_free(&cnt);
	return 0;
}

/* The busy workers' disturbance since the local test started. */
static int
tel_tester(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct nb_app *app = tel_app;
	struct nb_tester_sample now;
	struct nb_tester t;
	uint16_t i;

	(void)cmd, (void)params;
	rte_tel_data_start_dict(d);
	if (tel_enter() != 0)
		return 0; /* no test: an empty dict */
	if (!app->noise0_ready) {
		tel_leave();
		return 0;
	}
	nb_tester_read(&app->jobs, &now);
	nb_tester_read_diff(&app->jobs, &app->noise0, &now, &t);
	tel_leave();
	rte_tel_data_add_dict_u64(d, "seconds_ms",
				  (uint64_t)(t.wall_s * 1000.0));
	for (i = 0; i < t.n; i++) {
		struct rte_tel_data *c = rte_tel_data_alloc();
		char name[32];

		if (c == NULL)
			break;
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_string(c, "role", t.w[i].role);
		rte_tel_data_add_dict_u64(c, "cpu", t.w[i].cpu);
		rte_tel_data_add_dict_u64(c, "off_cpu_ns", t.w[i].wait_ns);
		rte_tel_data_add_dict_u64(c, "on_cpu_ns", t.w[i].run_ns);
		if (t.w[i].steal_ns != UINT64_MAX)
			rte_tel_data_add_dict_u64(c, "steal_ns",
						  t.w[i].steal_ns);
		rte_tel_data_add_dict_u64(c, "stall_ns", t.w[i].stall_ns);
		rte_tel_data_add_dict_u64(c, "max_poll_gap_ns",
					  t.w[i].max_gap_ns);
		snprintf(name, sizeof(name), "lcore%u", t.w[i].lcore);
		rte_tel_data_add_dict_container(d, name, c, 0);
	}
	return 0;
}

/* A cause's name as a telemetry key: letters and digits, each run of
 * anything else one '_' ("key holder at --no-auth": key_holder_at_no_auth). */
static void
key_of(const char *name, char *key, size_t len)
{
	size_t i, k = 0;

	for (i = 0; name[i] != '\0' && k + 1 < len; i++) {
		char c = name[i];
		int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9');

		if (alnum)
			key[k++] = c;
		else if (k > 0 && key[k - 1] != '_')
			key[k++] = '_';
	}
	key[k] = '\0';
}

/* What the responder refused, by cause (every cause, 0 or not). */
static void
rsp_refused(const struct nb_refusals *r, struct rte_tel_data *d)
{
	struct rte_tel_data *c = rte_tel_data_alloc();
	uint64_t total = 0;
	char key[64];
	int i;

	if (c == NULL)
		return;
	rte_tel_data_start_dict(c);
	for (i = 0; i < NB_REF_MAX; i++) {
		key_of(nb_refusal_name((enum nb_refusal)i), key, sizeof(key));
		rte_tel_data_add_dict_u64(c, key, r->count[i]);
		total += r->count[i];
	}
	rte_tel_data_add_dict_u64(d, "refused_total", total);
	rte_tel_data_add_dict_container(d, "refused", c, 0);
}

/* The control lcore's frame counts since the responder started. */
static void
rsp_control(const struct nb_ctlio *io, struct rte_tel_data *d)
{
	struct rte_tel_data *c = rte_tel_data_alloc();

	if (c == NULL)
		return;
	rte_tel_data_start_dict(c);
	rte_tel_data_add_dict_u64(c, "rx_ctl", io->rx_ctl);
	rte_tel_data_add_dict_u64(c, "rx_bad", io->rx_bad);
	rte_tel_data_add_dict_u64(c, "stray", io->stray);
	rte_tel_data_add_dict_u64(c, "rx_polled", io->rx_polled);
	rte_tel_data_add_dict_u64(c, "rx_shed", io->rx_shed);
	rte_tel_data_add_dict_u64(c, "tx_frames", io->tx_frames);
	rte_tel_data_add_dict_u64(c, "tx_fail", io->tx_fail);
	rte_tel_data_add_dict_u64(c, "arp_answered", io->arp_answered);
	rte_tel_data_add_dict_u64(c, "arp_limited", io->arp_limited);
	rte_tel_data_add_dict_u64(c, "nd_answered", io->nd_answered);
	rte_tel_data_add_dict_u64(c, "icmp_answered", io->icmp_answered);
	rte_tel_data_add_dict_u64(c, "icmp_limited", io->icmp_limited);
	rte_tel_data_add_dict_container(d, "control", c, 0);
}

/* The running test's receivers: frames that were not its data (foreign),
 * handed to the control lcore, and refused by a full hand-off ring. */
static void
rsp_receivers(struct rte_tel_data *d)
{
	const struct nb_jobs *js = &tel_app->jobs;
	uint64_t pkts = 0, foreign = 0, ctl = 0, ctl_dropped = 0;
	unsigned int i;

	if (tel_enter() != 0)
		return;
	for (i = 0; i < js->nb_rx; i++) {
		pkts += js->rx[i]->pkts;
		foreign += js->rx[i]->foreign;
		ctl += js->rx[i]->ctl;
		ctl_dropped += js->rx[i]->ctl_dropped;
	}
	tel_leave();
	rte_tel_data_add_dict_u64(d, "test_rx_frames", pkts);
	rte_tel_data_add_dict_u64(d, "test_rx_foreign", foreign);
	rte_tel_data_add_dict_u64(d, "test_rx_ctl", ctl);
	rte_tel_data_add_dict_u64(d, "test_ctl_dropped", ctl_dropped);
}

static int
tel_responder(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char id[16];

	(void)cmd, (void)params;
	atomic_fetch_add(&rsp_readers, 1);
	if (!atomic_load(&rsp_on)) {
		atomic_fetch_sub(&rsp_readers, 1);
		return -1; /* not a responder, or not listening */
	}
	rte_tel_data_start_dict(d);
	snprintf(id, sizeof(id), "%08x", *tel_rsp.session);
	rte_tel_data_add_dict_string(d, "session", id);
	rte_tel_data_add_dict_u64(d, "sessions_opened", *tel_rsp.opened);
	rte_tel_data_add_dict_u64(d, "sessions_ended", *tel_rsp.ended);
	rte_tel_data_add_dict_u64(d, "sessions_done", *tel_rsp.done);
	rte_tel_data_add_dict_u64(d, "vouched", *tel_rsp.vouched);
	rsp_control(tel_rsp.io, d);
	rsp_refused(tel_rsp.refusals, d);
	rsp_receivers(d);
	atomic_fetch_sub(&rsp_readers, 1);
	return 0;
}

#define TEL_MAX_POOLS 32

/* The process's mempools (ours, "nb_" names): size and mbufs out of the
 * pool now (in rings, in a PMD's queues, held by a worker), and in all. */
static int
tel_pools(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct nb_pool_use u[TEL_MAX_POOLS];
	unsigned int i, n = nb_pools_usage(u, TEL_MAX_POOLS);
	uint64_t in_use = 0, size = 0;

	(void)cmd, (void)params;
	rte_tel_data_start_dict(d);
	for (i = 0; i < n && i < TEL_MAX_POOLS; i++) {
		struct rte_tel_data *c = rte_tel_data_alloc();

		if (c == NULL)
			break;
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_u64(c, "size", u[i].size);
		rte_tel_data_add_dict_u64(c, "in_use", u[i].in_use);
		rte_tel_data_add_dict_container(d, u[i].name, c, 0);
		in_use += u[i].in_use;
		size += u[i].size;
	}
	rte_tel_data_add_dict_u64(d, "in_use", in_use);
	rte_tel_data_add_dict_u64(d, "size", size);
	return 0;
}

void
nb_telemetry_register(struct nb_app *app)
{
	tel_app = app;
	rte_telemetry_register_cmd("/nbench/state", tel_state,
				   "The test: mode, state, elapsed seconds, "
				   "packets so far.  No parameters");
	rte_telemetry_register_cmd("/nbench/ports", tel_ports,
				   "Per port: the tool's counts beside the "
				   "PMD's.  No parameters");
	rte_telemetry_register_cmd("/nbench/queues", tel_queues,
				   "Per queue of each port with more than "
				   "one: the tool's counts beside the PMD's. "
				   "No parameters");
	rte_telemetry_register_cmd("/nbench/streams", tel_streams,
				   "Per stream live counters (the first 32). "
				   "Parameter: a stream id");
	rte_telemetry_register_cmd("/nbench/latency", tel_latency,
				   "Latency percentiles of the running test "
				   "(ns).  No parameters");
	rte_telemetry_register_cmd("/nbench/tester", tel_tester,
				   "Per busy worker of a local test: time off "
				   "its CPU, steal, poll stalls and the "
				   "longest poll gap so far.  No parameters");
	/* help texts are < RTE_TEL_MAX_STRING_LEN (128), or refused */
	rte_telemetry_register_cmd("/nbench/pools", tel_pools,
				   "Per mempool of ours: its size and the "
				   "mbufs out of it now.  No parameters");
	rte_telemetry_register_cmd("/nbench/responder", tel_responder,
				   "A responder's sessions, control frames, "
				   "refusals and test receivers' counts.  No "
				   "parameters");
}
