/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The man page, written from the option table, so --help, the config file
 * keys and dpdk-nbench(1) never disagree.  The build runs nb-mangen to make
 * it; tests compare the result with docs/dpdk-nbench.1.
 */
#include <stdio.h>
#include <string.h>

#include "nb_options.h"
#include "nb_version.h"

/* troff: escape backslashes and minus signs; protect a leading dot. */
static void
roff(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

static void
para(FILE *f, const char *s)
{
	fputs(".PP\n", f);
	roff(f, s);
	fputc('\n', f);
}

static void
example(FILE *f, const char *what, const char *cmd)
{
	fputs(".PP\n", f);
	roff(f, what);
	fputs("\n.PP\n.RS 4\n.nf\n", f);
	roff(f, cmd);
	fputs("\n.fi\n.RE\n", f);
}

/* " (for a loopback test, a client)" from an option's modes. */
static void
modes(FILE *f, unsigned int m)
{
	static const struct {
		unsigned int bit;
		const char *name;
	} names[] = {
		{NB_IN_PORTS, "\\-\\-list\\-ports"},
		{NB_IN_LOOP, "a loopback test"},
		{NB_IN_REFL, "a reflector test"},
		{NB_IN_CLI, "a client"},
		{NB_IN_RSP, "the responder"},
	};
	size_t i;
	int first = 1;

	fputs(" (for ", f);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(m & names[i].bit))
			continue;
		fprintf(f, "%s%s", first ? "" : ", ", names[i].name);
		first = 0;
	}
	fputc(')', f);
}

/* NAME, SYNOPSIS and DESCRIPTION. */
static void
man_head(FILE *f)
{
	fputs(".\\\" SPDX-License-Identifier: BSD-3-Clause\n"
	      ".\\\" Generated from the option table by nb-mangen; do not "
	      "edit.\n",
	      f);
	fprintf(f,
		".TH DPDK\\-NBENCH 1 \"\" \"dpdk\\-nbench %s\" "
		"\"User Commands\"\n",
		NB_VERSION);
	fputs(".SH NAME\n"
	      "dpdk\\-nbench \\- kernel\\-bypass network tester (DPDK)\n"
	      ".SH SYNOPSIS\n"
	      ".B dpdk\\-nbench\n"
	      "[\\fIEAL options\\fR] \\-\\- [\\fIoptions\\fR]\n"
	      ".SH DESCRIPTION\n",
	      f);
	roff(f, "dpdk-nbench generates and sinks UDP and TCP-like streams at "
		"line rate from DPDK worker lcores, and reports throughput "
		"(L1 and L2 bits/s, packets/s), loss, reordering, duplicates, "
		"RFC 3550 jitter and latency percentiles, next to the PMD's "
		"own counters.");
	fputc('\n', f);
	para(f, "EAL options (lcores, devices, hugepages) go before '--', the "
		"tool's options after it. One lcore is the control lcore, the "
		"next the stats lcore (both sleep), the rest are workers. On a "
		"2-CPU host map them as --lcores 0@0,1@0,2@0,3@1.");
	para(f, "Modes: a loopback test between ports of this process "
		"(--tx-port, --rx-port); a client (--peer MAC|IP) that "
		"negotiates a test with a responder (the same program started "
		"with no test options, like iperf3 -s); a reflector test "
		"(--peer MAC --reflector) against a MAC-swapping peer such as "
		"testpmd; and --list-ports.");
	para(f, "Every option is checked before EAL starts, so a usage error "
		"needs no hugepages. An option given in a mode it does not "
		"apply to (each says which, below) is a usage error, as is one "
		"of the tool's options before '--'.");
}

/* One option: its names, placeholder, help, and where it applies. */
static void
option_entry(FILE *f, const struct nb_option *o)
{
	fputs(".TP\n", f);
	if (o->short_name)
		fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
	fputs("\\fB\\-\\-", f);
	roff(f, o->name);
	fputs("\\fR", f);
	if (o->arg) {
		fputs(" \\fI", f);
		roff(f, o->arg);
		fputs("\\fR", f);
	}
	fputc('\n', f);
	roff(f, o->help);
	if (o->flags & NB_OPT_CLI_ONLY)
		fputs(" (command line only)", f);
	if (o->flags & NB_OPT_REPEAT)
		fputs(" (may be repeated; in a file, a comma-separated "
		      "list)",
		      f);
	if (o->modes != NB_IN_ALL)
		modes(f, o->modes);
	fputc('\n', f);
}

/* OPTIONS: the table, a subsection per heading. */
static void
man_options(FILE *f)
{
	size_t i;

	fputs(".SH OPTIONS\n", f);
	for (i = 0; i < nb_nb_options; i++) {
		const struct nb_option *o = &nb_options[i];

		if (o->name == NULL) {
			fputs(".SS ", f);
			roff(f, o->help);
			fputc('\n', f);
			continue;
		}
		option_entry(f, o);
	}
}

/* CONFIGURATION FILE, OUTPUT and TELEMETRY. */
static void
man_files_and_output(FILE *f)
{
	fputs(".SH CONFIGURATION FILE\n", f);
	para(f, "--config FILE reads an INI file. Its keys are the long option "
		"names without the dashes; [sections] only group them for the "
		"reader. Flags take true or false (yes/no, on/off, 1/0). "
		"Comments start with ; or #. An option given on the command "
		"line wins over the file. An unknown key, a bad value or a key "
		"given twice is a usage error naming the file, the line and "
		"the key. Examples are in the config/ directory of the "
		"sources.");
	example(f,
		"A 10G validation profile, with the duration raised on the "
		"command line:",
		"dpdk-nbench -a 0000:01:00.0 -a 0000:01:00.1 -- \\\n"
		"    --config config/10g-nic-validation.ini --time 60");
	fputs(".SH OUTPUT\n", f);
	para(f, "Text, like iperf3: a header naming the test, the ports, "
		"drivers, link speeds, the lcore map and the latency clock; "
		"one line per stream per interval and a [SUM] line; then "
		"sender and receiver rows, latency percentiles, the requested "
		"and achieved rate (a shortfall is said out loud), and each "
		"port's PMD counters beside the tool's. Bytes are counted in "
		"base 1024, rates in base 1000. With --interval 0 on a "
		"terminal a single progress line is refreshed instead.");
	para(f, "--json prints one document with iperf3's top-level shape "
		"(start, intervals[] with streams[] and sum, end with streams, "
		"sum_sent and sum_received) and iperf3's field names where the "
		"meaning is the same, plus packets per second, L1 bits/s, "
		"latency percentiles and histogram, PMD counters and the "
		"requested rate. It is valid when the run fails or is "
		"interrupted, with an error field. --json-stream prints one "
		"object per line per event; --csv one row per interval per "
		"stream. Logs and warnings go to stderr.");
	fputs(".SH TELEMETRY\n", f);
	para(f, "A running tester or responder answers DPDK telemetry "
		"(dpdk-telemetry.py -f PREFIX): /nbench/state, /nbench/ports, "
		"/nbench/queues, /nbench/streams[,ID], /nbench/latency, "
		"/nbench/tester and /nbench/pools (each mempool's size and "
		"mbufs in use); a responder also /nbench/responder (sessions "
		"opened, ended and done, its control frames, what it refused "
		"by cause, the running test's foreign frames).");
}

/* EXIT STATUS, EXAMPLES and SEE ALSO. */
static void
man_tail(FILE *f)
{
	fputs(".SH EXIT STATUS\n", f);
	para(f, "0 success (a peer test that rode through a link outage "
		"too; a responder stopped by SIGINT/SIGTERM while idle); 1 "
		"runtime failure, a write error (--json-file, --logfile, "
		"stdout, --capture), or interrupted by SIGINT/SIGTERM in any "
		"phase (the report covers what ran; a responder only when it "
		"cut a started test short); 2 usage error (options, config "
		"file, --auth-key file, an option for another mode, a missing "
		"'--', EAL arguments, a port that does not exist). "
		"docs/reliability.md lists the faults and their outcomes.");
	fputs(".SH EXAMPLES\n", f);
	example(f,
		"Loopback over a memif pair, 1 Gbit/s of 64 B frames for "
		"5 s:",
		"dpdk-nbench --no-pci --lcores 0@0,1@0,2@0,3@1 \\\n"
		"    --vdev net_memif0,role=server,socket=/tmp/nb.sock \\\n"
		"    --vdev net_memif1,role=client,socket=/tmp/nb.sock \\\n"
		"    -- --tx-port 0 --rx-port 1 --rate 1G --size 64 --time 5");
	example(f, "Responder on one host, client at line rate on another:",
		"dpdk-nbench -l 0-3 -a 0000:01:00.0 --\n"
		"dpdk-nbench -l 0-3 -a 0000:01:00.0 -- --peer 198.19.0.1 "
		"--rate 10G --time 30 --json");
	fputs(".SH SEE ALSO\n"
	      ".BR iperf3 (1),\n"
	      ".BR dpdk\\-testpmd (1),\n"
	      ".BR qperf (1).\n"
	      "The docs/ directory of the sources: usage.md, protocol.md, "
	      "architecture.md, performance.md; and hugepages.md.\n",
	      f);
}

void
nb_options_man(FILE *f)
{
	man_head(f);
	man_options(f);
	man_files_and_output(f);
	man_tail(f);
}
