/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --metrics: a snapshot of the process's figures and its rendering in the
 * Prometheus text exposition format (0.0.4, which OpenMetrics scrapers
 * read): per port (the tool's counts and the PMD's), per stream up to
 * NB_METRICS_STREAMS (then the test's sums only: bounded label
 * cardinality), latency as a histogram (with le) and quantiles, the
 * workers' disturbance, the TSC calibration.  Pure.
 */
#ifndef NB_METRICS_H
#define NB_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "nb_hist.h"
#include "nb_result.h"
#include "nb_tester.h"

#define NB_METRICS_STREAMS 64 /* streams with labels of their own */

struct nb_metrics_port {
	uint16_t id;
	char name[64];
	char driver[32];
	uint64_t tx_pkts, tx_bytes, rx_pkts, rx_bytes; /* the tool's */
	int have_pmd;
	struct nb_metrics_pmd { /* the PMD's, since the port started */
		uint64_t ipackets, opackets, ibytes, obytes;
		uint64_t imissed, ierrors, oerrors, rx_nombuf;
	} pmd;
};

struct nb_metrics_stream {
	uint64_t tx_pkts, tx_bytes, rx_pkts, rx_bytes;
	uint64_t lost; /* sent, not received (yet) */
	uint64_t out_of_order, duplicates;
};

struct nb_metrics_snap {
	const char *version, *dpdk, *mode, *state;
	uint64_t tests;	  /* tests started in this process */
	int running;	  /* the figures are a running test's */
	double elapsed_s; /* of its measured phase (the last test's at its
			   * end) */
	uint16_t nb_ports;
	struct nb_metrics_port ports[32];
	uint32_t nb_streams;  /* the test's */
	uint32_t nb_labelled; /* of which with labels: <= NB_METRICS_STREAMS */
	struct nb_metrics_stream sum;
	struct nb_metrics_stream streams[NB_METRICS_STREAMS];
	int have_hist;
	struct nb_hist hist; /* every stream's latency merged */
	int have_tester;
	struct nb_tester tester;
	struct nb_clock_info clk;
};

/*
 * The exposition of s: a malloc'd text (*len bytes, NUL-terminated).
 * 0, or -ENOMEM.
 */
int nb_metrics_text(const struct nb_metrics_snap *s, char **out, size_t *len);

#endif /* NB_METRICS_H */
