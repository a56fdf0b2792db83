/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpdk-nbench: the tool's options (before EAL: a usage error needs no
 * hugepages), EAL init, then one mode runner.  Exit codes: 0 ok, 1 runtime
 * failure (or interrupted), 2 usage error.
 */
#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_pdump.h>
#include <rte_version.h>

#include "nb_capture.h"
#include "nb_client.h"
#include "nb_ip3client.h"
#include "nb_ip3server.h"
#include "nb_eal_args.h"
#include "nb_hugeinfo.h"
#include "nb_log.h"
#include "nb_loopback.h"
#include "nb_metrics_http.h"
#include "nb_options.h"
#include "nb_phase.h"
#include "nb_responder.h"
#include "nb_run.h"
#include "nb_serve.h"
#include "nb_setup.h"
#include "nb_telemetry.h"
#include "nb_tidy.h"
#include "nb_tsc.h"
#include "nb_vdev_check.h"
#include "nb_version.h"

#define PROG	   "dpdk-nbench"
#define EXIT_USAGE 2

/* Where a fatal error goes besides stderr (--json wants a document). */
static const struct nb_output *fatal_out;
static int *fatal_emitted;

static void
on_signal(int sig)
{
	nb_phase_note_signal(sig);
	nb_force_quit = 1;
}

/*
 * SIGINT and SIGTERM set nb_force_quit.  restart 0 (during EAL init): a
 * blocking call the signal lands in fails with EINTR rather than going on
 * waiting (EAL's lock of the hugepage directory), and EAL init's result
 * is then the interruption's.
 */
static void
catch_signals(int restart)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = restart ? SA_RESTART : 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
die(int code, const char *fmt, ...)
{
	char msg[1024];
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

/* A signal during EAL init: what EAL made is tidied, the document says
 * so, exit 1. */
static void
eal_interrupted(int eal_up)
{
	if (!nb_force_quit)
		return;
	if (eal_up)
		nb_tidy_eal_cleanup();
	else if (!nb_huge_prefix_running(nb_eal_args()->file_prefix))
		nb_tidy_failed_init();
	die(1, "interrupted by %s during " NB_PHASE_EAL,
	    nb_phase_signal() == SIGTERM ? "SIGTERM" : "SIGINT");
}

/*
 * At exit, with the ports closed: every mbuf of every pool of ours is back.
 * One that is not was lost on the way (a ring, a queue, a worker's hands):
 * an error line each, which the e2e harness fails any run on; at debug, a
 * line that says the check ran.
 */
static void
check_pools(void)
{
	struct nb_pool_use u[64];
	unsigned int n = nb_pools_usage(u, RTE_DIM(u)), i, bad = 0;

	for (i = 0; i < n && i < RTE_DIM(u); i++) {
		if (u[i].in_use == 0)
			continue;
		NB_LOG(ERR, "mempool %s: %u mbufs still in use at exit",
		       u[i].name, u[i].in_use);
		bad++;
	}
	if (bad == 0)
		NB_LOG(DEBUG, "mempools: all %u back", n);
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

/*
 * Before EAL: one of the tool's own options among EAL's means a missing or
 * misplaced "--" (EAL would only say "bad arguments", after starting).
 */
static void
check_eal_side(int argc, char **argv, int dd)
{
	int i, end = dd >= 0 ? dd : argc;

	for (i = 1; i < end; i++) {
		if (!nb_option_is_tool_only(argv[i]))
			continue;
		if (dd < 0)
			die(EXIT_USAGE,
			    "'%s' is a dpdk-nbench option, not an EAL one: did "
			    "you forget '--' between EAL options and "
			    "dpdk-nbench's options? (" PROG " [EAL options] -- "
			    "[options])",
			    argv[i]);
		die(EXIT_USAGE,
		    "'%s' is a dpdk-nbench option: put it after '--' (EAL "
		    "options go before it, dpdk-nbench's after it)",
		    argv[i]);
	}
}

/* The pcap file complete; the responder tells what it holds (a test's
 * report has told it already). */
static void
close_capture(struct nb_app *app)
{
	struct nb_capture_counts c;
	char spec[400];

	nb_capture_close(&app->jobs, &c);
	if (app->cfg.mode != NB_MODE_RESPONDER)
		return;
	nb_capture_spec_text(&app->cfg.capture, spec, sizeof(spec));
	NB_LOG(NOTICE,
	       "capture %s: %llu frames written, %llu dropped, %llu not "
	       "written",
	       spec, (unsigned long long)c.written,
	       (unsigned long long)c.dropped, (unsigned long long)c.unwritten);
}

/*
 * The tool's options (before EAL: a usage error needs no hugepages), the
 * --config file, --help and --version (these exit here); *dd becomes -2
 * for --help/--version given alone.
 */
static void
parse_args(struct nb_app *app, int argc, char **argv, int *dd)
{
	struct nb_config *cfg = &app->cfg;
	char err[320];
	int ret;

	nb_config_defaults(cfg);
	if (*dd < 0 && argc > 1 &&
	    (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	     strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
		ret = nb_options_parse(cfg, 2, argv, err, sizeof(err));
		*dd = -2;
	} else {
		check_eal_side(argc, argv, *dd);
		ret = *dd >= 0 ? nb_options_parse(cfg, argc - *dd, argv + *dd,
						  err, sizeof(err))
			       : 0;
	}
	if (ret != 0) {
		/* --json (or --json-stream) is owed a document even now */
		if (*dd >= 0)
			json_hint(app, argc - *dd, argv + *dd);
		die(EXIT_USAGE, "%s", err);
	}
	if (cfg->config[0] &&
	    nb_config_load(cfg, cfg->config, err, sizeof(err)) != 0) {
		json_hint(app, 0, NULL);
		die(EXIT_USAGE, "%s", err);
	}
	if (cfg->help) {
		nb_options_usage(stdout, PROG);
		printf("\nEAL options (-l, --lcores, -a, --vdev, --no-pci, "
		       "--file-prefix, ...): see the DPDK EAL\n"
		       "documentation; docs/usage.md lists the ones this "
		       "tool's tests use.\n");
		exit(0);
	}
	if (cfg->version) {
		printf(PROG " %s (%s)\n", NB_VERSION, rte_version());
		exit(0);
	}
}

/* Every check before anything is created (--logfile) or started; the
 * output, and the --capture file opened. */
static void
prepare_output(struct nb_app *app)
{
	struct nb_config *cfg = &app->cfg;
	char err[320];

	nb_output_init(&app->out, cfg, stdout, 0);
	fatal_out = &app->out;
	fatal_emitted = &app->emitted;
	if (nb_config_check(cfg, err, sizeof(err)) != 0)
		die(EXIT_USAGE, "%s", err);
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
	nb_output_init(&app->out, cfg, stdout, isatty(STDOUT_FILENO));
	if (cfg->capture.active &&
	    nb_capture_open(&cfg->capture, err, sizeof(err)) != 0)
		die(EXIT_USAGE, "%s", err);
}

/* EAL up (the arguments before '--'), the clock's first reading, the
 * signals, telemetry; returns whether dpdk-dumpcap can attach. */
static int
start_eal(struct nb_app *app, int argc, char **argv, int dd)
{
	int eal_argc = dd >= 0 ? dd : argc, ret, pdump;

	/* Keep stdout for results: EAL and PMD logs go to stderr. */
	rte_openlog_stream(stderr);
	nb_setup_note_eal(eal_argc, argv);
	nb_app_phase(NB_PHASE_EAL);
	catch_signals(0);
	ret = rte_eal_init(eal_argc, argv);
	catch_signals(1);
	eal_interrupted(ret >= 0);
	if (ret < 0) {
		int e = rte_errno;
		const char *prefix = nb_eal_args()->file_prefix;
		int other = nb_huge_prefix_running(prefix);
		char why[700];

		if (!other)
			nb_tidy_failed_init();
		if (e == EINVAL)
			die(EXIT_USAGE, "bad EAL arguments (before '--'): %s",
			    rte_strerror(e));
		if (other)
			die(1,
			    "EAL init failed: another DPDK primary process "
			    "runs with --file-prefix %s: give this one a "
			    "prefix of its own (see hugepages.md, 'Running "
			    "several instances')",
			    prefix);
		nb_huge_explain(prefix, why, sizeof(why));
		die(1, "EAL init failed: %s. Hugepages: %s", rte_strerror(e),
		    why);
	}
	nb_tsc_begin();
	nb_app_phase(NB_PHASE_SETUP);
	app->state = "starting";
	nb_telemetry_register(app);
	/* dpdk-dumpcap and dpdk-pdump attach through EAL's multi-process
	 * channel, which --in-memory and --no-shconf leave out */
	ret = nb_intr_thread_beside_main();
	if (ret != 0)
		NB_LOG(DEBUG,
		       "EAL's interrupt thread stays where EAL put it: %s",
		       rte_strerror(-ret));
	pdump = rte_pdump_init() == 0;
	if (!pdump)
		NB_LOG(DEBUG,
		       "dpdk-dumpcap cannot attach: %s (EAL's multi-process "
		       "channel is off with --in-memory or --no-shconf)",
		       rte_strerror(rte_errno));
	return pdump;
}

/*
 * What could not be written (a full disk: --json-file, --logfile or
 * stdout, --capture) makes the exit code 1 if it was 0, and so does a signal
 * (a responder's runner says itself whether it cut a session short);
 * each is said on stderr.
 */
static int
output_errors(const struct nb_app *app, int code)
{
	int e = nb_out_stream_error(stdout), j = nb_out_file_error(), c;
	const char *phase = nb_phase_at_signal();
	uint64_t lost;

	if (nb_phase_signal() != 0) {
		fprintf(stderr, PROG ": interrupted by %s during %s\n",
			nb_phase_signal() == SIGTERM ? "SIGTERM" : "SIGINT",
			phase != NULL ? phase : "start-up");
		/* a responder's runner says whether it cut a session */
		if (app->cfg.mode != NB_MODE_RESPONDER && !app->cfg.serve &&
		    code == 0)
			code = 1;
	}
	if (j != 0)
		fprintf(stderr, PROG ": cannot write --json-file %s: %s\n",
			app->cfg.json_file, strerror(j));
	if (app->cfg.capture.active &&
	    (c = nb_capture_write_error(&lost)) != 0) {
		fprintf(stderr,
			PROG ": cannot write --capture %s: %s (%llu frames "
			     "not written)\n",
			app->cfg.capture.path, strerror(c),
			(unsigned long long)lost);
		j = c;
	}
	if (e != 0 && app->cfg.logfile[0])
		fprintf(stderr,
			PROG ": cannot write --logfile %s: %s (the report in "
			     "it is incomplete)\n",
			app->cfg.logfile, strerror(e));
	else if (e != 0)
		fprintf(stderr, PROG ": cannot write stdout: %s\n",
			strerror(e));
	return code == 0 && (e != 0 || j != 0) ? 1 : code;
}

/* The ports checked and given their roles, the capture writer started,
 * then the mode's runner; its exit code. */
static int
run_mode(struct nb_app *app, const struct nb_config *base)
{
	struct nb_config *cfg = &app->cfg;
	char err[320];

	if (nb_vdev_check(err, sizeof(err)) != 0) {
		nb_tidy_eal_cleanup();
		die(1, "%s", err);
	}
	if (nb_port_count() == 0) {
		nb_tidy_eal_cleanup();
		die(EXIT_USAGE,
		    "no ports: give a device, e.g. --vdev net_null0 or "
		    "-a 0000:01:00.0 (a NIC bound to vfio-pci), before '--'");
	}
	if (nb_setup_check_ports(cfg, err, sizeof(err)) != 0 ||
	    nb_setup_roles(app, err, sizeof(err)) != 0) {
		nb_tidy_eal_cleanup();
		die(EXIT_USAGE, "%s", err);
	}
	if (cfg->capture.active) {
		app->jobs.cap = nb_capture_start(err, sizeof(err));
		if (app->jobs.cap == NULL) {
			nb_tidy_eal_cleanup();
			die(1, "%s", err);
		}
	}
	if (cfg->mode == NB_MODE_PORTS)
		return nb_setup_list_ports(app);
	if (cfg->serve)
		return nb_serve_main(app, base);
	if (cfg->mode == NB_MODE_RESPONDER && cfg->ip3_server)
		return nb_ip3server_main(app);
	if (cfg->mode == NB_MODE_RESPONDER)
		return nb_responder_main(app);
	if (cfg->mode == NB_MODE_CLIENT && cfg->iperf3)
		return nb_ip3client_main(app);
	if (cfg->mode == NB_MODE_CLIENT)
		return nb_client_main(app);
	return nb_loopback_main(app);
}

int
main(int argc, char **argv)
{
	static struct nb_app app;
	static struct nb_config base; /* as parsed: --serve's run defaults */
	int dd = find_dashdash(argc, argv), code, pdump;

	/* A far end that leaves closes the sockets some drivers write to
	 * (vhost-user: virtio-user's stop messages; memif): a write then
	 * fails with EPIPE, which the driver reports, instead of the signal
	 * ending the tool before its report. */
	signal(SIGPIPE, SIG_IGN);
	parse_args(&app, argc, argv, &dd);
	base = app.cfg;
	prepare_output(&app);
	pdump = start_eal(&app, argc, argv, dd);
	{
		char err[256];

		if (nb_metrics_start(&app, err, sizeof(err)) != 0) {
			nb_tidy_eal_cleanup();
			die(1, "%s", err);
		}
	}
	code = run_mode(&app, &base);
	nb_metrics_stop();
	app.state = "done";
	if (code != 0 && !app.emitted)
		nb_out_fatal(&app.out,
			     app.errmsg[0] ? app.errmsg
					   : "the test could not run (see the "
					     "messages on stderr)");
	/* ports first: a NIC's TX ring may still hold mbufs of the pools */
	nb_setup_shutdown(&app);
	check_pools();
	nb_run_free(&app);
	if (app.cfg.capture.active)
		close_capture(&app);
	/* after the capture's last flush: a responder's file is only
	 * complete there */
	code = output_errors(&app, code);
	nb_result_free(&app.result);
	if (pdump)
		rte_pdump_uninit();
	nb_intr_quiesce();
	nb_tidy_eal_cleanup();
	return code;
}
