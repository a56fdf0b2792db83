/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Prometheus text exposition of a metrics snapshot (see nb_metrics.h;
 * docs/usage.md "Metrics" lists the families).  Counters of a test start
 * at 0 with each test (a counter reset, which rate() takes in its stride).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_metrics.h"

/* le bounds of the latency histogram, in ns (+Inf after the last) */
static const uint64_t le_ns[] = {
	1000,	  2000,	    5000,     10000,	 20000,	     50000,
	100000,	  200000,   500000,   1000000,	 2000000,    5000000,
	10000000, 20000000, 50000000, 100000000, 1000000000,
};

static const double quantiles[] = {0.5, 0.9, 0.99, 0.999};

/* A label value as the format wants it: \, " and newline escaped. */
static void
esc(FILE *f, const char *s)
{
	for (; s != NULL && *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n') {
			fputs("\\n", f);
			continue;
		}
		fputc(*s, f);
	}
}

static void
family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static double
per_s(uint64_t bytes, double secs)
{
	return secs > 0 ? (double)bytes * 8 / secs : 0;
}

static void
port_labels(FILE *f, const struct nb_metrics_port *p)
{
	fprintf(f, "{port=\"%u\",name=\"", p->id);
	esc(f, p->name);
	fputs("\",driver=\"", f);
	esc(f, p->driver);
	fputs("\"}", f);
}

/* One family with a sample per port: the value at offset off. */
static void
per_port(FILE *f, const struct nb_metrics_snap *s, const char *name,
	 const char *type, const char *help, size_t off, int pmd)
{
	uint16_t i;

	family(f, name, type, help);
	for (i = 0; i < s->nb_ports; i++) {
		const struct nb_metrics_port *p = &s->ports[i];

		if (pmd && !p->have_pmd)
			continue;
		fputs(name, f);
		port_labels(f, p);
		fprintf(f, " %llu\n",
			(unsigned long long)*(
				const uint64_t *)((const char *)p + off));
	}
}

#define PORT(name, type, help, field, pmd)                                     \
	per_port(f, s, name, type, help,                                       \
		 offsetof(struct nb_metrics_port, field), pmd)

static void
ports(FILE *f, const struct nb_metrics_snap *s)
{
	uint16_t i;

	PORT("nbench_port_tx_packets_total", "counter",
	     "Frames the tool handed to the port in this test.", tx_pkts, 0);
	PORT("nbench_port_tx_bytes_total", "counter",
	     "Bytes (frames without FCS) the tool handed to the port.",
	     tx_bytes, 0);
	PORT("nbench_port_rx_packets_total", "counter",
	     "Frames the tool received on the port in this test.", rx_pkts, 0);
	PORT("nbench_port_rx_bytes_total", "counter",
	     "Bytes the tool received on the port.", rx_bytes, 0);
	PORT("nbench_port_pmd_rx_packets_total", "counter",
	     "The PMD's ipackets since the port started.", pmd.ipackets, 1);
	PORT("nbench_port_pmd_tx_packets_total", "counter",
	     "The PMD's opackets since the port started.", pmd.opackets, 1);
	PORT("nbench_port_pmd_rx_missed_total", "counter",
	     "The PMD's imissed: frames the NIC dropped, no room in the ring.",
	     pmd.imissed, 1);
	PORT("nbench_port_pmd_rx_errors_total", "counter", "The PMD's ierrors.",
	     pmd.ierrors, 1);
	PORT("nbench_port_pmd_tx_errors_total", "counter", "The PMD's oerrors.",
	     pmd.oerrors, 1);
	PORT("nbench_port_pmd_rx_nombuf_total", "counter",
	     "The PMD's rx_nombuf: receive buffers it could not get.",
	     pmd.rx_nombuf, 1);
	family(f, "nbench_port_rx_bits_per_second", "gauge",
	       "The port's received bits/s (frames without FCS), mean over "
	       "the test's measured phase; rate() on the _total counters "
	       "gives a window of one's own.");
	for (i = 0; i < s->nb_ports; i++) {
		fputs("nbench_port_rx_bits_per_second", f);
		port_labels(f, &s->ports[i]);
		fprintf(f, " %.17g\n",
			per_s(s->ports[i].rx_bytes, s->elapsed_s));
	}
	family(f, "nbench_port_tx_bits_per_second", "gauge",
	       "The port's sent bits/s, mean over the test.");
	for (i = 0; i < s->nb_ports; i++) {
		fputs("nbench_port_tx_bits_per_second", f);
		port_labels(f, &s->ports[i]);
		fprintf(f, " %.17g\n",
			per_s(s->ports[i].tx_bytes, s->elapsed_s));
	}
}

/* One family with a sample per labelled stream, then the test's sum
 * under the family's name without "stream_". */
static void
per_stream(FILE *f, const struct nb_metrics_snap *s, const char *what,
	   const char *type, const char *help, size_t off)
{
	uint32_t i;

	fprintf(f, "# HELP nbench_stream_%s %s (per stream, the first %u)\n",
		what, help, NB_METRICS_STREAMS);
	fprintf(f, "# TYPE nbench_stream_%s %s\n", what, type);
	for (i = 0; i < s->nb_labelled; i++)
		fprintf(f, "nbench_stream_%s{stream=\"%u\"} %llu\n", what, i,
			(unsigned long long)*(
				const uint64_t *)((const char *)&s->streams[i] +
						  off));
	fprintf(f, "# HELP nbench_%s %s (every stream of the test)\n", what,
		help);
	fprintf(f, "# TYPE nbench_%s %s\n", what, type);
	fprintf(f, "nbench_%s %llu\n", what,
		(unsigned long long)*(const uint64_t *)((const char *)&s->sum +
							off));
}

#define STREAM(what, type, help, field)                                        \
	per_stream(f, s, what, type, help,                                     \
		   offsetof(struct nb_metrics_stream, field))

static void
streams(FILE *f, const struct nb_metrics_snap *s)
{
	uint32_t i;

	STREAM("tx_packets_total", "counter", "Frames sent.", tx_pkts);
	STREAM("tx_bytes_total", "counter", "Bytes sent.", tx_bytes);
	STREAM("rx_packets_total", "counter", "Frames received.", rx_pkts);
	STREAM("rx_bytes_total", "counter", "Bytes received.", rx_bytes);
	STREAM("lost_packets", "gauge",
	       "Frames sent and not received: lost, or still in flight while "
	       "the test runs",
	       lost);
	STREAM("out_of_order_total", "counter", "Frames out of order.",
	       out_of_order);
	STREAM("duplicates_total", "counter", "Duplicate frames.", duplicates);
	family(f, "nbench_stream_rx_bits_per_second", "gauge",
	       "A stream's received bits/s, mean over the test.");
	for (i = 0; i < s->nb_labelled; i++)
		fprintf(f,
			"nbench_stream_rx_bits_per_second{stream=\"%u\"} "
			"%.17g\n",
			i, per_s(s->streams[i].rx_bytes, s->elapsed_s));
	family(f, "nbench_rx_bits_per_second", "gauge",
	       "The test's received bits/s, mean over its measured phase.");
	fprintf(f, "nbench_rx_bits_per_second %.17g\n",
		per_s(s->sum.rx_bytes, s->elapsed_s));
}

static void
latency(FILE *f, const struct nb_metrics_snap *s)
{
	const struct nb_hist *h = &s->hist;
	uint64_t below = 0;
	uint32_t b = 0;
	size_t i;

	family(f, "nbench_latency_seconds", "histogram",
	       "One-way (loopback) or round-trip latency of the test's "
	       "frames; a bucket holds the histogram's buckets whose upper "
	       "edge is at or below le (resolution 1/128 of the value).");
	for (i = 0; i < sizeof(le_ns) / sizeof(*le_ns); i++) {
		while (b < NB_HIST_BUCKETS &&
		       nb_hist_bucket_high(b) <= le_ns[i])
			below += h->buckets[b++];
		fprintf(f, "nbench_latency_seconds_bucket{le=\"%g\"} %llu\n",
			le_ns[i] / 1e9, (unsigned long long)below);
	}
	fprintf(f, "nbench_latency_seconds_bucket{le=\"+Inf\"} %llu\n",
		(unsigned long long)h->count);
	fprintf(f, "nbench_latency_seconds_sum %.17g\n", h->sum / 1e9);
	fprintf(f, "nbench_latency_seconds_count %llu\n",
		(unsigned long long)h->count);
	family(f, "nbench_latency_quantile_seconds", "summary",
	       "Latency quantiles of the same histogram.");
	for (i = 0; i < sizeof(quantiles) / sizeof(*quantiles); i++)
		fprintf(f,
			"nbench_latency_quantile_seconds{quantile=\"%g\"} "
			"%.17g\n",
			quantiles[i],
			nb_hist_percentile(h, quantiles[i] * 100) / 1e9);
	fprintf(f, "nbench_latency_quantile_seconds_sum %.17g\n", h->sum / 1e9);
	fprintf(f, "nbench_latency_quantile_seconds_count %llu\n",
		(unsigned long long)h->count);
}

static void
tester(FILE *f, const struct nb_metrics_snap *s)
{
	const struct nb_tester *t = &s->tester;
	uint16_t i;

	family(f, "nbench_tester_off_cpu_seconds_total", "counter",
	       "A busy worker's time runnable but off its CPU in this test "
	       "(the tester's own disturbance).");
	for (i = 0; i < t->n; i++) {
		fprintf(f,
			"nbench_tester_off_cpu_seconds_total{lcore=\"%u\","
			"cpu=\"%u\",role=\"",
			t->w[i].lcore, t->w[i].cpu);
		esc(f, t->w[i].role);
		fprintf(f, "\"} %.17g\n", t->w[i].wait_ns / 1e9);
	}
	family(f, "nbench_tester_stall_seconds_total", "counter",
	       "A busy worker's time in long poll gaps in this test.");
	for (i = 0; i < t->n; i++) {
		fprintf(f,
			"nbench_tester_stall_seconds_total{lcore=\"%u\","
			"cpu=\"%u\",role=\"",
			t->w[i].lcore, t->w[i].cpu);
		esc(f, t->w[i].role);
		fprintf(f, "\"} %.17g\n", t->w[i].stall_ns / 1e9);
	}
}

int
nb_metrics_text(const struct nb_metrics_snap *s, char **out, size_t *len)
{
	FILE *f = open_memstream(out, len);

	if (f == NULL)
		return -ENOMEM;
	family(f, "nbench_info", "gauge", "The tool, its DPDK, its mode.");
	fputs("nbench_info{version=\"", f);
	esc(f, s->version);
	fputs("\",dpdk=\"", f);
	esc(f, s->dpdk);
	fputs("\",mode=\"", f);
	esc(f, s->mode);
	fputs("\",state=\"", f);
	esc(f, s->state);
	fputs("\"} 1\n", f);
	family(f, "nbench_tests_total", "counter",
	       "Tests started by this process.");
	fprintf(f, "nbench_tests_total %llu\n", (unsigned long long)s->tests);
	family(f, "nbench_test_running", "gauge",
	       "1 while a test runs; 0: the figures are the last test's, at "
	       "its end.");
	fprintf(f, "nbench_test_running %d\n", s->running);
	family(f, "nbench_test_elapsed_seconds", "gauge",
	       "The test's measured phase so far (or in all).");
	fprintf(f, "nbench_test_elapsed_seconds %.17g\n", s->elapsed_s);
	family(f, "nbench_streams", "gauge",
	       "The test's streams (labelled ones: nbench_streams_labelled).");
	fprintf(f, "nbench_streams %u\n", s->nb_streams);
	family(f, "nbench_streams_labelled", "gauge",
	       "Streams with series of their own (the first 64).");
	fprintf(f, "nbench_streams_labelled %u\n", s->nb_labelled);
	ports(f, s);
	streams(f, s);
	if (s->have_hist)
		latency(f, s);
	if (s->have_tester)
		tester(f, s);
	family(f, "nbench_tsc_hz", "gauge",
	       "The TSC frequency every conversion uses (calibrated).");
	fprintf(f, "nbench_tsc_hz %llu\n", (unsigned long long)s->clk.hz);
	family(f, "nbench_tsc_calibration_bound_ppm", "gauge",
	       "The calibration's error bound.");
	fprintf(f, "nbench_tsc_calibration_bound_ppm %.17g\n",
		s->clk.bound_ppm);
	family(f, "nbench_tsc_dpdk_offset_ppm", "gauge",
	       "How far DPDK's own TSC estimate is from the calibrated one.");
	fprintf(f, "nbench_tsc_dpdk_offset_ppm %.17g\n", s->clk.dpdk_off_ppm);
	if (fclose(f) != 0)
		return -ENOMEM;
	return 0;
}
