/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The loopback and reflector runners: TX port i faces RX port i in this
 * process (or the reflector sends the frames back to the same port).  The
 * control lcore prepares the test, starts the workers and the stats lcore,
 * waits (sleeping) for the senders, lets the receivers drain, collects and
 * reports.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "nb_flows_opt.h"
#include "nb_log.h"
#include "nb_loopback.h"
#include "nb_mcast_join.h"
#include "nb_mesh_run.h"
#include "nb_run.h"
#include "nb_setup.h"
#include "nb_stack.h"
#include "nb_stats.h"
#include "nb_replay_load.h"
#include "nb_suite.h"
#include "nb_tcprun.h"
#include "nb_tsc.h"

/* The header stack and the flows beyond plain frames of one flow each. */
static void
print_stack(const struct nb_config *cfg)
{
	char buf[512];

	if (nb_stack_beyond_plain(cfg)) {
		nb_stack_text(cfg, buf, sizeof(buf));
		printf("headers: %s\n", buf);
	}
	if (cfg->flows.spec.n) {
		nb_flows_text(&cfg->flows, buf, sizeof(buf));
		printf("flows: %s\n", buf);
	}
}

static void
print_header(struct nb_app *app)
{
	const struct nb_config *cfg = &app->cfg;
	const struct nb_result *r = &app->result;
	char rate[64], clk[200];
	uint16_t i;

	for (i = 0; i < app->nb_ports; i++)
		nb_setup_print_test_port(stdout, &app->ports[i]);
	printf("lcores: %s\n", r->lcore_map);
	if (app->rate.unlimited)
		snprintf(rate, sizeof(rate), "max");
	else {
		char l1[32];

		nb_fmt_rate(l1, sizeof(l1), r->req_l1_bps, nb_report_unit(r));
		snprintf(rate, sizeof(rate), "%.4f Mpps (L1 %s)",
			 r->req_pps / 1e6, l1);
	}
	if (cfg->rx_only) {
		printf("Receive-only test: port");
		for (i = 0; i < cfg->nb_rx_ports; i++)
			printf("%s %u", i ? "," : "", cfg->rx_ports[i]);
		printf(" takes in what arrives (this tool's stamped frames "
		       "also per stream, %u slot%s)",
		       cfg->streams, cfg->streams == 1 ? "" : "s");
		if (cfg->packets)
			printf(", until %llu frames",
			       (unsigned long long)cfg->packets);
		if (cfg->duration > 0)
			printf(", %.2f s", cfg->duration);
		printf("\n");
		nb_clock_text(clk, sizeof(clk), r);
		printf("clock: %s; latency %s\n", clk, r->latency_method);
		fflush(stdout);
		return;
	}
	if (cfg->mode == NB_MODE_REFLECTOR)
		printf("Reflector test: port %u -> peer "
		       "%02x:%02x:%02x:%02x:%02x:%02x and back; ",
		       cfg->port, cfg->peer_mac[0], cfg->peer_mac[1],
		       cfg->peer_mac[2], cfg->peer_mac[3], cfg->peer_mac[4],
		       cfg->peer_mac[5]);
	else
		printf("Loopback test: ");
	if (r->replay != NULL) {
		char rp[400];

		nb_replay_text(&cfg->replay, r->replay, rp, sizeof(rp));
		printf("replay of %s; rate %s", rp, rate);
	} else {
		printf("%s, %u stream%s, frames",
		       cfg->proto == NB_IPPROTO_TCP ? "TCP" : "UDP",
		       cfg->streams, cfg->streams == 1 ? "" : "s");
		for (i = 0; i < cfg->sizes.nb_sizes; i++)
			printf("%s%u", i ? "," : " ", cfg->sizes.sizes[i]);
		printf(" B, rate %s", rate);
	}
	if (app->total_packets)
		printf(", %llu frames", (unsigned long long)app->total_packets);
	if (cfg->duration > 0)
		printf(", %.2f s", cfg->duration);
	if (cfg->omit > 0)
		printf(" after %.2f s warm-up", cfg->omit);
	printf("\n");
	print_stack(cfg);
	nb_mcast_header(app);
	nb_mesh_header(app);
	if (r->numa.nb_nodes > 1 || r->numa.nb_mismatch) {
		char numa[512];

		nb_numa_text(&r->numa, numa, sizeof(numa));
		printf("numa: %s\n", numa);
	}
	nb_clock_text(clk, sizeof(clk), r);
	printf("clock: %s; latency %s\n", clk, r->latency_method);
	fflush(stdout);
}

/* The test's ports, each once: the TX ports, then the RX ports not
 * among them.  Returns how many. */
static uint16_t
port_list(const struct nb_config *cfg, uint16_t *ids)
{
	uint16_t n = 0, i, k;

	for (i = 0; i < cfg->nb_tx_ports; i++)
		ids[n++] = cfg->tx_ports[i];
	for (i = 0; i < cfg->nb_rx_ports; i++) {
		for (k = 0; k < n && ids[k] != cfg->rx_ports[i]; k++)
			;
		if (k == n)
			ids[n++] = cfg->rx_ports[i];
	}
	return n;
}

/* After nb_run_prepare: --replay's frames, --gaps, a receive-only test's
 * size counts, and what the result says of the ports and topology.  1
 * with the error said. */
static int
prepared(struct nb_app *app)
{
	const struct nb_config *cfg = &app->cfg;
	struct nb_result *r = &app->result;
	char err[1024];
	uint16_t i;

	nb_replay_arm(app);
	if (cfg->gaps) { /* each stream paced at 1/streams of the rate */
		uint64_t ideal = nb_gap_ideal_ns(r->req_pps, cfg->streams);

		if (nb_result_gaps(r, ideal) != 0 ||
		    nb_jobs_gaps(&app->jobs, ideal, cfg->proto, err,
				 sizeof(err)) != 0) {
			nb_app_error(app, "%s",
				     r->gaps != NULL ? err : "out of memory");
			return 1;
		}
	}
	if (cfg->flows.spec.n &&
	    (nb_result_flows(r, cfg->flows.spec.n) != 0 ||
	     nb_jobs_flows(&app->jobs, cfg, err, sizeof(err)) != 0)) {
		nb_app_error(app, "%s",
			     r->flow_rx != NULL ? err : "out of memory");
		return 1;
	}
	if (cfg->rx_only) { /* the receivers count sizes too */
		for (i = 0; i < app->jobs.nb_rx; i++)
			app->jobs.rx[i]->count_sizes = 1;
		for (i = 0; i < app->jobs.nb_workers; i++)
			if (app->jobs.workers[i]->nb_rx)
				nb_engine_select(app->jobs.workers[i],
						 cfg->proto);
	}
	nb_setup_check_numa(app);
	for (i = 0; i < app->nb_ports; i++)
		r->ports[i].role = cfg->mode == NB_MODE_REFLECTOR ? "tx+rx"
				   : i < cfg->nb_tx_ports	  ? "tx"
								  : "rx";
	r->topology = cfg->mode == NB_MODE_REFLECTOR ? "reflector"
		      : cfg->rx_only		     ? "receive-only"
						     : "loopback";
	r->latency_method = cfg->mode == NB_MODE_REFLECTOR
				    ? "round-trip through the reflector"
				    : "one-way, same host";
	return 0;
}

/* --per-flow: every flow's figures into its file; 1 with the error
 * said. */
static int
write_per_flow(struct nb_app *app)
{
	const struct nb_config *cfg = &app->cfg;
	const struct nb_result *r = &app->result;
	int six = cfg->stack.family == 6;
	char err[512];

	if (!cfg->flows.per_flow[0] || r->flow_rx == NULL)
		return 0;
	if (nb_flows_write(
		    cfg->flows.per_flow, r->flow_rx, r->flow_sent, r->flow_rec,
		    r->nb_flows, r->nb_streams, six ? &cfg->stack.src6 : NULL,
		    six ? &cfg->stack.dst6 : NULL, err, sizeof(err)) != 0) {
		nb_app_error(app, "%s", err);
		return 1;
	}
	return 0;
}

/* The open-loop test (or suite) on ports set up; the exit code. */
static int
open_loop(struct nb_app *app)
{
	struct nb_config *cfg = &app->cfg;
	struct nb_result *r = &app->result;
	uint64_t link_bps = 0;
	char err[1024];
	uint16_t i;
	int ret;

	for (i = 0; i < cfg->nb_tx_ports; i++)
		link_bps += (uint64_t)app->ports[i].desc.link_speed * 1000000;
	if (cfg->suite || cfg->sweep.n)
		return nb_suite_main(app, link_bps,
				     cfg->mode == NB_MODE_REFLECTOR
					     ? "reflector"
					     : "loopback",
				     NULL);
	ret = cfg->replay.active ? nb_replay_resolve(app, link_bps)
				 : nb_run_resolve(app, link_bps);
	if (ret == -ENOTSUP) {
		nb_app_error(app, "--rate in percent needs the link speed, and "
				  "the TX port reports none; give bits/s or "
				  "pps");
		return 2;
	} else if (ret != 0) {
		nb_app_error(app, "cannot resolve --rate: %s", strerror(-ret));
		return 2;
	}
	ret = nb_run_prepare(app, app->rate.unlimited ? 0 : app->rate.pps_num,
			     app->rate.pps_den, app->total_packets, err,
			     sizeof(err));
	if (ret != 0) {
		nb_app_error(app, "%s", err);
		/* a plan the options cannot make is a usage error */
		return ret == -EINVAL && app->jobs.nb_workers == 0 ? 2 : 1;
	}
	if (prepared(app) != 0)
		return 1;
	if (nb_out_chatty(&app->out))
		print_header(app);
	r->start_time = (int64_t)time(NULL);
	nb_out_begin(&app->out, r);
	nb_run_local(app, 1);
	nb_mcast_collect(app);
	if (nb_mesh_collect(app) != 0)
		nb_app_error(app, "out of memory for the pair results");
	nb_out_progress_end(&app->out);
	nb_stats_close(app);
	if (!r->error[0] && r->nb_streams == 0 && !cfg->rx_only)
		snprintf(r->error, sizeof(r->error), "test failed");
	nb_out_result(&app->out, r, NULL, r->topology);
	app->emitted = 1;
	ret = nb_out_finish(&app->out, nb_report_json(r));
	r->replay = NULL;
	nb_replay_free(&app->replay);
	if (ret != 0) {
		nb_app_error(app, "cannot write --json-file %s",
			     cfg->json_file);
		return 1;
	}
	if (write_per_flow(app) != 0)
		return 1;
	if (r->error[0]) {
		NB_LOG(ERR, "%s", r->error);
		return 1;
	}
	return r->interrupted ? 1 : 0;
}

int
nb_loopback_setup(struct nb_app *app)
{
	static const struct nb_setup_req req_tmpl = {
		.link_hint = "cable, peer, or memif partner missing",
		.lacp_wait = 1,
	};
	struct nb_config *cfg = &app->cfg;
	struct nb_setup_req req = req_tmpl;
	uint16_t ids[2 * NB_MAX_PORTS], n;

	n = port_list(cfg, ids);
	req.nb_queues = (uint16_t)cfg->queues;
	if (nb_replay_setup(app) != 0)
		return 1;
	return nb_setup_ports(app, ids, n, &req) != 0;
}

int
nb_loopback_test(struct nb_app *app)
{
	int ret;

	if (app->cfg.tcp)
		return nb_tcprun_main(app);
	/* a group's receivers join before the test and leave after it */
	nb_mcast_members(app, 1);
	ret = open_loop(app);
	nb_mcast_members(app, 0);
	return ret;
}

int
nb_loopback_main(struct nb_app *app)
{
	return nb_loopback_setup(app) != 0 ? 1 : nb_loopback_test(app);
}
