/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpdk-nbench: EAL init, option hand-off, port bring-up, role dispatch.
 * Exit codes: 0 ok, 1 runtime failure (or interrupted), 2 usage error.
 */
#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <numa.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_version.h>

#include "nb_app.h"
#include "nb_frame.h"
#include "nb_options.h"
#include "nb_version.h"

#define PROG	   "dpdk-nbench"
#define EXIT_USAGE 2

volatile sig_atomic_t nb_force_quit;

/* Where a fatal error goes besides stderr (--json wants a document). */
static const struct nb_output *fatal_out;
static int *fatal_emitted;

static void
on_signal(int sig)
{
	(void)sig;
	nb_force_quit = 1;
}

static void die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
die(int code, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, PROG ": %s\n", msg);
	if (fatal_out != NULL && !*fatal_emitted)
		nb_out_fatal(fatal_out, msg);
	if (code == EXIT_USAGE)
		fprintf(stderr,
			"Try '" PROG " --help' for more information.\n");
	exit(code);
}

void
nb_app_error(struct nb_app *app, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(app->errmsg, sizeof(app->errmsg), fmt, ap);
	va_end(ap);
	fprintf(stderr, PROG ": %s\n", app->errmsg);
}

static long
meminfo(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long v = -1;
	size_t n = strlen(key);

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, n) == 0 && line[n] == ':')
			v = strtol(line + n + 1, NULL, 10);
	fclose(f);
	return v;
}

/*
 * Options could not be parsed, but if --json or --json-stream is among them
 * the caller still expects a document: set up enough output for die().
 */
static void
json_hint(struct nb_app *app, int argc, char **argv)
{
	struct nb_config *cfg = &app->cfg;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0 ||
		    strcmp(argv[i], "-J") == 0)
			cfg->json = 1;
		else if (strcmp(argv[i], "--json-stream") == 0)
			cfg->json_stream = 1;
	}
	if (cfg->json && cfg->json_stream)
		cfg->json_stream = 0;
	cfg->csv = 0;
	nb_output_init(&app->out, cfg, stdout, 0);
	fatal_out = &app->out;
	fatal_emitted = &app->emitted;
}

static int
find_dashdash(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			return i;
	return -1;
}

static void
lcore_map_text(struct nb_app *app, char *buf, size_t len)
{
	const struct nb_plan *plan = &app->plan;
	size_t off = 0;
	unsigned int i, k;

	off += (size_t)snprintf(buf + off, len - off, "control=%u stats=%u",
				plan->control_lcore, plan->stats_lcore);
	for (i = 0; i < plan->nb_workers && off < len; i++) {
		const struct nb_worker_plan *wp = &plan->workers[i];

		off += (size_t)snprintf(buf + off, len - off,
					" worker%u=%u(cpu%u:", i, wp->lcore,
					wp->cpu);
		for (k = 0; k < wp->nb_jobs && off < len; k++) {
			const struct nb_job *j = &plan->jobs[wp->jobs[k]];

			off += (size_t)snprintf(buf + off, len - off,
						"%s%s p%u/q%u", k ? "," : "",
						j->is_tx ? "tx" : "rx", j->port,
						j->queue);
		}
		if (wp->nb_jobs == 0 && off < len)
			off += (size_t)snprintf(buf + off, len - off, "idle");
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, ")");
	}
}

static void
build_roles(struct nb_app *app)
{
	struct nb_lcore_desc *d;
	unsigned int n = 0, id, c;
	char err[256];

	d = calloc(RTE_MAX_LCORE, sizeof(*d));
	if (d == NULL)
		die(1, "out of memory");
	id = rte_get_main_lcore();
	for (;;) {
		rte_cpuset_t cs = rte_lcore_cpuset(id);
		int first = 1;

		d[n].id = id;
		for (c = 0; c < 256 && c < CPU_SETSIZE; c++) {
			if (CPU_ISSET(c, &cs)) {
				d[n].cpus[c / 64] |= UINT64_C(1) << (c % 64);
				if (first) {
					d[n].cpu = c;
					first = 0;
				}
			}
		}
		n++;
		/* the main lcore first, then every other in id order */
		id = rte_get_next_lcore(n == 1 ? (unsigned int)-1 : id, 1, 0);
		if (id >= RTE_MAX_LCORE)
			break;
	}
	if (nb_plan_roles(&app->plan, d, n, err, sizeof(err)) != 0) {
		free(d);
		die(EXIT_USAGE, "%s", err);
	}
	free(d);
}

static void
print_port(FILE *f, const struct nb_port_desc *d)
{
	int node = d->numa_node;

	fprintf(f,
		"port %u: %s driver %s mac %02x:%02x:%02x:%02x:%02x:%02x "
		"link %s %u Mbps%s numa %d mtu %u\n",
		d->port_id, d->name, d->driver, d->mac[0], d->mac[1], d->mac[2],
		d->mac[3], d->mac[4], d->mac[5], d->link_up ? "up" : "DOWN",
		d->link_speed, d->full_duplex ? " full-duplex" : "", node,
		d->mtu);
}

static void
check_numa(const struct nb_app *app)
{
	const struct nb_plan *plan = &app->plan;
	unsigned int i, k;

	if (numa_available() < 0)
		return;
	for (i = 0; i < plan->nb_workers; i++) {
		const struct nb_worker_plan *wp = &plan->workers[i];
		int node = numa_node_of_cpu((int)wp->cpu);

		for (k = 0; k < wp->nb_jobs; k++) {
			const struct nb_job *j = &plan->jobs[wp->jobs[k]];
			int pnode = rte_eth_dev_socket_id(j->port);

			if (pnode >= 0 && node >= 0 && pnode != node)
				fprintf(stderr,
					PROG
					": warning: worker lcore %u (cpu %u, "
					"NUMA node %d) serves port %u on node "
					"%d; expect lower rates\n",
					wp->lcore, wp->cpu, node, j->port,
					pnode);
		}
	}
}

static int
bring_up(struct nb_app *app, int all)
{
	const struct nb_config *cfg = &app->cfg;
	uint32_t max_frame = 0;
	uint16_t pid, i;
	char err[320];
	int ret;

	for (i = 0; i < cfg->sizes.nb_sizes; i++)
		if (cfg->sizes.sizes[i] > max_frame)
			max_frame = cfg->sizes.sizes[i];
	app->nb_ports = 0;
	if (all) {
		RTE_ETH_FOREACH_DEV (pid)
			app->port_ids[app->nb_ports++] = pid;
	} else {
		for (i = 0; i < cfg->nb_tx_ports; i++)
			app->port_ids[app->nb_ports++] = cfg->tx_ports[i];
		for (i = 0; i < cfg->nb_rx_ports; i++)
			if (nb_app_port_index(app, cfg->rx_ports[i]) < 0)
				app->port_ids[app->nb_ports++] =
					cfg->rx_ports[i];
	}
	for (i = 0; i < app->nb_ports; i++) {
		struct nb_port_req req = {
			.nb_rxq = (uint16_t)(all ? 1 : cfg->queues),
			.nb_txq = (uint16_t)(all ? 1 : cfg->queues),
			.rxd = (uint16_t)cfg->rxd,
			.txd = (uint16_t)cfg->txd,
			.max_frame = max_frame,
			/* rings full, per-lcore caches, bursts in hand */
			.nb_rx_mbufs = cfg->rxd * cfg->queues +
				       512 * rte_lcore_count() + 4096,
		};

		ret = nb_port_setup(app->port_ids[i], &req, &app->ports[i], err,
				    sizeof(err));
		if (ret != 0) {
			nb_app_error(app, "%s", err);
			return ret;
		}
	}
	/* Wait after starting them all: a memif pair links up together. */
	for (i = 0; i < app->nb_ports; i++) {
		if (nb_port_wait_link(&app->ports[i], cfg->link_timeout) != 0) {
			if (all) {
				/* --list-ports reports it down, and goes on */
				nb_port_describe(app->port_ids[i],
						 &app->ports[i].desc);
				continue;
			}
			nb_app_error(app,
				     "port %u (%s): link still down after "
				     "%.1f s (cable, peer, or memif partner "
				     "missing? raise --link-timeout)",
				     app->port_ids[i], app->ports[i].desc.name,
				     cfg->link_timeout);
			return -ETIMEDOUT;
		}
	}
	return 0;
}

static void
shutdown_ports(struct nb_app *app)
{
	uint16_t i;

	for (i = 0; i < app->nb_ports; i++)
		nb_port_shutdown(&app->ports[i]);
	app->nb_ports = 0;
}

static int
run_list_ports(struct nb_app *app)
{
	json_t *root, *arr;
	uint16_t i;
	int ret = bring_up(app, 1);

	if (ret != 0)
		return 1;
	if (app->cfg.json) {
		struct nb_port_result pr;

		root = json_object();
		arr = json_array();
		for (i = 0; i < app->nb_ports; i++) {
			json_t *o = json_object();
			const struct nb_port_desc *d = &app->ports[i].desc;
			char mac[18];

			memset(&pr, 0, sizeof(pr));
			snprintf(mac, sizeof(mac),
				 "%02x:%02x:%02x:%02x:%02x:%02x", d->mac[0],
				 d->mac[1], d->mac[2], d->mac[3], d->mac[4],
				 d->mac[5]);
			json_object_set_new(o, "port",
					    json_integer(d->port_id));
			json_object_set_new(o, "name", json_string(d->name));
			json_object_set_new(o, "driver",
					    json_string(d->driver));
			json_object_set_new(o, "mac", json_string(mac));
			json_object_set_new(o, "numa_node",
					    json_integer(d->numa_node));
			json_object_set_new(o, "link_up",
					    json_boolean(d->link_up));
			json_object_set_new(o, "link_speed_mbps",
					    json_integer(d->link_speed));
			json_object_set_new(o, "mtu", json_integer(d->mtu));
			json_array_append_new(arr, o);
		}
		json_object_set_new(root, "ports", arr);
		json_object_set_new(root, "lcore_map",
				    json_string(app->result.lcore_map));
		json_dumpf(root, stdout, JSON_INDENT(2));
		fputc('\n', stdout);
		json_decref(root);
	} else {
		for (i = 0; i < app->nb_ports; i++)
			print_port(stdout, &app->ports[i].desc);
		printf("lcores: %s\n", app->result.lcore_map);
	}
	return 0;
}

static int
run_loopback(struct nb_app *app)
{
	struct nb_config *cfg = &app->cfg;
	struct nb_result *r = &app->result;
	uint64_t link_bps = 0;
	char err[320];
	uint16_t i;
	int ret;

	if (bring_up(app, 0) != 0)
		return 1;
	for (i = 0; i < cfg->nb_tx_ports; i++) {
		int pi = nb_app_port_index(app, cfg->tx_ports[i]);

		link_bps += (uint64_t)app->ports[pi].desc.link_speed * 1000000;
	}
	ret = nb_rate_resolve(&cfg->rate, &cfg->sizes, link_bps, &app->rate);
	if (ret == -ENOTSUP) {
		nb_app_error(app, "--rate in percent needs the link speed, and "
				  "the TX port reports none; give bits/s or "
				  "pps");
		return EXIT_USAGE;
	} else if (ret != 0) {
		nb_app_error(app, "cannot resolve --rate: %s", strerror(-ret));
		return EXIT_USAGE;
	}
	if (cfg->bytes)
		app->total_packets =
			nb_bytes_to_packets(cfg->bytes, &cfg->sizes);
	else
		app->total_packets = cfg->packets;
	/* A count ends the test; --time then bounds it only if given. */
	if ((cfg->packets || cfg->bytes) && !cfg->duration_set)
		cfg->duration = 0;
	ret = nb_plan_jobs(
		&app->plan, cfg, app->rate.unlimited ? 0 : app->rate.pps_num,
		app->rate.pps_den, app->total_packets, err, sizeof(err));
	if (ret != 0) {
		nb_app_error(app, "%s", err);
		return EXIT_USAGE;
	}
	if (nb_result_init(r, cfg, cfg->streams) != 0) {
		nb_app_error(app, "out of memory");
		return 1;
	}
	lcore_map_text(app, r->lcore_map, sizeof(r->lcore_map));
	check_numa(app);
	r->tsc_hz = rte_get_tsc_hz();
	if (!app->rate.unlimited) {
		r->req_pps = (double)app->rate.pps_num / app->rate.pps_den;
		r->req_l1_bps = nb_rate_l1_bps(r->req_pps, &cfg->sizes);
		r->req_l2_bps = nb_rate_l2_bps(r->req_pps, &cfg->sizes);
	}
	r->nb_ports = app->nb_ports;
	for (i = 0; i < app->nb_ports; i++) {
		r->ports[i].desc = app->ports[i].desc;
		r->ports[i].role = cfg->mode == NB_MODE_REFLECTOR ? "tx+rx"
				   : i < cfg->nb_tx_ports	  ? "tx"
								  : "rx";
	}
	r->topology = cfg->mode == NB_MODE_REFLECTOR ? "reflector" : "loopback";
	r->latency_method = cfg->mode == NB_MODE_REFLECTOR
				    ? "round-trip through the reflector"
				    : "one-way, same host";
	ret = nb_loopback_setup(app, err, sizeof(err));
	if (ret != 0) {
		nb_app_error(app, "%s", err);
		return 1;
	}
	if (nb_out_chatty(&app->out)) {
		char rate[64];

		for (i = 0; i < app->nb_ports; i++)
			print_port(stdout, &app->ports[i].desc);
		printf("lcores: %s\n", r->lcore_map);
		if (app->rate.unlimited)
			snprintf(rate, sizeof(rate), "max");
		else
			snprintf(rate, sizeof(rate),
				 "%.4f Mpps (L1 %.4f Gbit/s)", r->req_pps / 1e6,
				 r->req_l1_bps / 1e9);
		if (cfg->mode == NB_MODE_REFLECTOR)
			printf("Reflector test: port %u -> peer "
			       "%02x:%02x:%02x:%02x:%02x:%02x and back; ",
			       cfg->port, cfg->peer_mac[0], cfg->peer_mac[1],
			       cfg->peer_mac[2], cfg->peer_mac[3],
			       cfg->peer_mac[4], cfg->peer_mac[5]);
		else
			printf("Loopback test: ");
		printf("%s, %u stream%s, frames",
		       cfg->proto == NB_IPPROTO_TCP ? "TCP" : "UDP",
		       cfg->streams, cfg->streams == 1 ? "" : "s");
		for (i = 0; i < cfg->sizes.nb_sizes; i++)
			printf("%s%u", i ? "," : " ", cfg->sizes.sizes[i]);
		printf(" B, rate %s", rate);
		if (app->total_packets)
			printf(", %llu frames",
			       (unsigned long long)app->total_packets);
		if (cfg->duration > 0)
			printf(", %.2f s", cfg->duration);
		if (cfg->omit > 0)
			printf(" after %.2f s warm-up", cfg->omit);
		printf("\n");
		printf("clock: %s at %.3f GHz; latency %s\n", r->clock,
		       r->tsc_hz / 1e9, r->latency_method);
		fflush(stdout);
	}
	r->start_time = (int64_t)time(NULL);
	nb_out_begin(&app->out, r);
	ret = nb_loopback_run(app);
	nb_out_progress_end(&app->out);
	nb_stats_close(app);
	if (ret != 0 && !r->error[0])
		snprintf(r->error, sizeof(r->error), "test failed");
	nb_out_result(&app->out, r, NULL, r->topology);
	app->emitted = 1;
	if (nb_out_finish(&app->out, nb_report_json(r)) != 0) {
		nb_app_error(app, "cannot write --json-file %s",
			     cfg->json_file);
		return 1;
	}
	if (r->error[0]) {
		fprintf(stderr, PROG ": %s\n", r->error);
		return 1;
	}
	return r->interrupted ? 1 : 0;
}

int
main(int argc, char **argv)
{
	static struct nb_app app;
	struct nb_config *cfg = &app.cfg;
	int dd = find_dashdash(argc, argv), eal_argc, ret, code;
	char err[320];

	nb_config_defaults(cfg);
	/* The tool's options first: a usage error needs no hugepages. */
	if (dd < 0 && argc > 1 &&
	    (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	     strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
		ret = nb_options_parse(cfg, 2, argv, err, sizeof(err));
		dd = -2;
	} else if (dd >= 0) {
		ret = nb_options_parse(cfg, argc - dd, argv + dd, err,
				       sizeof(err));
	} else {
		ret = 0;
	}
	if (ret != 0) {
		/* --json (or --json-stream) is owed a document even now */
		if (dd >= 0)
			json_hint(&app, argc - dd, argv + dd);
		die(EXIT_USAGE, "%s", err);
	}
	if (cfg->config[0] &&
	    nb_config_load(cfg, cfg->config, err, sizeof(err)) != 0) {
		json_hint(&app, 0, NULL);
		die(EXIT_USAGE, "%s", err);
	}
	if (cfg->help) {
		nb_options_usage(stdout, PROG);
		printf("\nEAL options (-l, --lcores, -a, --vdev, --no-pci, "
		       "--file-prefix, ...): see the DPDK EAL\n"
		       "documentation; docs/usage.md lists the ones this "
		       "tool's tests use.\n");
		return 0;
	}
	if (cfg->version) {
		printf(PROG " %s (%s)\n", NB_VERSION, rte_version());
		return 0;
	}
	if (cfg->logfile[0]) {
		/* like iperf3 --logfile: what went to stdout is appended */
		FILE *f = fopen(cfg->logfile, "a");

		if (f == NULL)
			die(EXIT_USAGE, "cannot open --logfile %s: %s",
			    cfg->logfile, strerror(errno));
		fclose(f);
		if (freopen(cfg->logfile, "a", stdout) == NULL)
			die(1, "cannot redirect stdout to %s: %s", cfg->logfile,
			    strerror(errno));
	}
	nb_output_init(&app.out, cfg, stdout, isatty(STDOUT_FILENO));
	fatal_out = &app.out;
	fatal_emitted = &app.emitted;
	if (nb_config_check(cfg, err, sizeof(err)) != 0)
		die(EXIT_USAGE, "%s", err);

	/* Keep stdout for results: EAL and PMD logs go to stderr. */
	rte_openlog_stream(stderr);
	eal_argc = dd >= 0 ? dd : argc;
	ret = rte_eal_init(eal_argc, argv);
	if (ret < 0) {
		int e = rte_errno;

		if (e == EINVAL)
			die(EXIT_USAGE, "bad EAL arguments (before '--'): %s",
			    rte_strerror(e));
		if (meminfo("HugePages_Free") == 0)
			die(1,
			    "EAL init failed: %s. No free hugepages: reserve "
			    "some with scripts/setup.sh or see hugepages.md.",
			    rte_strerror(e));
		die(1,
		    "EAL init failed: %s. No free hugepages? Reserve some "
		    "with scripts/setup.sh or see hugepages.md.",
		    rte_strerror(e));
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	app.state = "starting";
	nb_telemetry_register(&app);

	if (rte_eth_dev_count_avail() == 0) {
		rte_eal_cleanup();
		die(EXIT_USAGE,
		    "no ports: give a device, e.g. --vdev net_null0 or "
		    "-a 0000:01:00.0 (a NIC bound to vfio-pci), before '--'");
	}
	if (cfg->mode == NB_MODE_LOOPBACK || cfg->mode == NB_MODE_REFLECTOR) {
		uint16_t i;

		for (i = 0; i < cfg->nb_tx_ports + cfg->nb_rx_ports; i++) {
			uint16_t p =
				i < cfg->nb_tx_ports
					? cfg->tx_ports[i]
					: cfg->rx_ports[i - cfg->nb_tx_ports];

			if (!rte_eth_dev_is_valid_port(p)) {
				rte_eal_cleanup();
				die(EXIT_USAGE,
				    "port %u does not exist (%u port%s probed; "
				    "see --list-ports)",
				    p, rte_eth_dev_count_avail(),
				    rte_eth_dev_count_avail() == 1 ? "" : "s");
			}
		}
	}
	build_roles(&app);
	if (cfg->mode == NB_MODE_PORTS) {
		lcore_map_text(&app, app.result.lcore_map,
			       sizeof(app.result.lcore_map));
		code = run_list_ports(&app);
	} else if (cfg->mode == NB_MODE_RESPONDER) {
		code = nb_peer_responder(&app);
	} else if (cfg->mode == NB_MODE_CLIENT) {
		code = nb_peer_client(&app);
	} else {
		code = run_loopback(&app);
	}
	app.state = "done";
	if (code != 0 && !app.emitted)
		nb_out_fatal(&app.out,
			     app.errmsg[0] ? app.errmsg
					   : "the test could not run (see the "
					     "messages on stderr)");
	shutdown_ports(&app);
	nb_loopback_free(&app);
	nb_result_free(&app.result);
	rte_eal_cleanup();
	return code;
}
