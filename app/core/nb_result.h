/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The results of a test as pure data (nb_result.c), and the writers that
 * turn them into text (nb_report_text.c) and JSON (nb_report_json.c).  Filled
 * by the control and stats lcores from worker counters and PMD counters;
 * nothing here calls DPDK.
 */
#ifndef NB_RESULT_H
#define NB_RESULT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "nb_config.h"
#include "nb_cpu.h"
#include "nb_flows_rx.h"
#include "nb_gap.h"
#include "nb_hist.h"
#include "nb_numa.h"
#include "nb_offload.h"
#include "nb_pmd_stats.h"
#include "nb_rxonly.h"
#include "nb_tester.h"

/* What timed the test: the TSC, and how its frequency was found. */
struct nb_clock_info {
	uint64_t hz;	       /* the frequency every conversion uses */
	uint64_t dpdk_hz;      /* DPDK's own estimate of hz */
	double bound_ppm;      /* the calibration's error bound */
	double span_s;	       /* ... measured over this long */
	double dpdk_off_ppm;   /* (dpdk_hz - hz) / hz */
	const char *reference; /* "CLOCK_MONOTONIC_RAW"; NULL: DPDK's */
	int flags_known;       /* /proc/cpuinfo could be read */
	int constant_tsc, nonstop_tsc;
};

struct nb_stream_result {
	uint32_t id;
	uint64_t tx_pkts, tx_bytes; /* handed to the PMD (see tx_dropped) */
	uint64_t rx_pkts, rx_bytes; /* every data frame of the stream */
	uint64_t rx_unique;	    /* distinct sequence numbers */
	uint64_t out_of_order, duplicates, late;
	uint64_t lost; /* tx_pkts - rx_unique, >= 0 */
	double jitter_ns;
	struct nb_hist hist;
};

struct nb_port_result {
	struct nb_port_desc desc;
	const char *role;	/* "tx", "rx" or "tx+rx" */
	uint64_t tool_tx_pkts;	/* what the tool counted: accepted */
	uint64_t tool_tx_bytes; /* by the PMD (warm-up included) */
	uint64_t tool_rx_pkts;	/* every frame received */
	uint64_t tool_rx_bytes;
	struct nb_pmd_stats pmd;	/* the PMD's own counters */
	struct nb_bond_info bond;	/* mode -1 unless a bond */
	struct nb_offload_plan offload; /* what the port offloads */
	int has_offload;		/* offload is filled */
	/* a responder's port (role "peer"): its NUMA layout, from ACCEPT */
	struct nb_numa_brief numa_brief;
	int has_numa_brief;
	/* per queue (loopback, the port's queues 0..nb_queues-1, shown
	 * when more than one): what the tool's jobs on it counted */
	uint16_t nb_queues;
	uint64_t q_tx_pkts[NB_PMD_QUEUES], q_tx_bytes[NB_PMD_QUEUES];
	uint64_t q_rx_pkts[NB_PMD_QUEUES], q_rx_bytes[NB_PMD_QUEUES];
};

/* A receiving port of a fan-out test (one TX port to a group or a
 * broadcast MAC, nb_mcast.h): what reached it of the frames sent. */
struct nb_rxport_result {
	uint16_t port;
	int joined;	   /* it joined the group (--join) */
	uint64_t received; /* data frames, duplicates included */
	uint64_t unique;   /* distinct frames */
	uint64_t lost;	   /* sent - unique, >= 0 */
	uint64_t out_of_order, duplicates;
};

/* A test of many ports (--ports, nb_mesh.h): what each pair lost, and
 * each port's share (nb_mesh_collect, after the workers are done). */
struct nb_mesh_pair_result {
	uint16_t src, dst;	   /* port ids */
	uint64_t sent;		   /* measured phase */
	uint64_t received, unique; /* at dst: every copy, distinct frames */
	uint64_t lost;		   /* sent - unique, >= 0 */
	uint64_t out_of_order, duplicates;
	uint64_t elsewhere; /* its frames taken in by the other ports */
	uint64_t lat_n, lat_min, lat_p50, lat_p99, lat_max; /* ns, at dst */
	double lat_mean;
};
struct nb_mesh_port_result {
	uint16_t port;
	uint64_t sent;	   /* of the pairs from it */
	uint64_t received; /* distinct frames of the pairs into it */
	uint64_t lost_in;  /* lost of the pairs into it */
	uint64_t foreign;  /* frames of pairs to other ports it took in */
};
struct nb_mesh_result {
	int kind;   /* NB_MESH_* */
	int across; /* ports of two hosts: ids NB_MESH_REMOTE | the
		     * responder's for its ports */
	uint32_t per_pair;
	uint16_t nb_pairs, nb_ports;
	struct nb_mesh_pair_result pairs[NB_MESH_MAX_PAIRS];
	struct nb_mesh_port_result ports[NB_MESH_MAX_PORTS];
};

/* What one queue of a port carried in an interval: every frame the tool's
 * jobs on it sent or received (warm-up too, as the end's queue rows). */
struct nb_iv_queue {
	uint16_t port, queue;
	uint64_t tx_pkts, tx_bytes, rx_pkts, rx_bytes;
};

struct nb_interval {
	double start, end; /* seconds from the measured start */
	int omitted;
	uint64_t tx_pkts, tx_bytes, rx_pkts, rx_bytes, lost;
	uint64_t out_of_order, duplicates;
	double jitter_ns; /* mean of the streams' current jitter */
	uint64_t lat_count, lat_p50, lat_p99, lat_max;
	uint32_t nb_streams;
	uint64_t *stream_tx_pkts, *stream_tx_bytes; /* [nb_streams] */
	uint64_t *stream_rx_pkts, *stream_rx_bytes;
	/* [nb_streams] or NULL: per-stream receiver quality */
	uint64_t *stream_lost, *stream_out_of_order, *stream_duplicates;
	double *stream_jitter_ns;
	/* [nb_queues] or NULL: the queues of each port with more than one
	 * (nb_queue_iv.c) */
	uint16_t nb_queues;
	struct nb_iv_queue *queues;
	/* the busy workers' disturbance in the interval (local tests) */
	uint16_t nb_tester;
	struct nb_iv_tester tester[NB_TESTER_MAX];
	/* a receive-only test: every frame the receivers took in */
	int rx_only;
	uint64_t all_rx_pkts, all_rx_bytes;
	/* how long this side's port link was seen down in the interval
	 * (peer mode: nb_result_link_step) */
	uint64_t link_down_ns;
};

struct nb_result {
	/* the test */
	const struct nb_config *cfg;
	const struct nb_replay *replay; /* --replay's file (NULL: none) */
	double req_pps;			/* 0 for max */
	double req_l1_bps, req_l2_bps;
	uint64_t tsc_hz;
	struct nb_clock_info clk;   /* tsc_hz and where it came from */
	const char *clock;	    /* what timed the latency */
	const char *latency_method; /* one-way same host, or round trip */
	const char *topology;	    /* "loopback", "reflector" */
	/* a receive-only test (nb_rxonly.h): its length, start to end; the
	 * frames' sizes (RMON bins) */
	int rx_only;
	double rxo_seconds;
	uint64_t rx_sizes[NB_SIZE_BINS];
	char lcore_map[512];
	struct nb_numa_layout numa; /* workers' and ports' NUMA nodes */
	int64_t start_time; /* Unix seconds when the test began; 0 unknown */

	/* what happened */
	double tx_seconds;   /* measured phase, senders */
	double rx_seconds;   /* measured start to last data frame */
	int interrupted;     /* Ctrl-C / SIGTERM */
	char error[256];     /* empty when none */
	uint64_t tx_dropped; /* unsent when the test was stopped, freed */
	uint64_t alloc_fail;
	uint64_t rx_warm, rx_foreign, rx_bad_stream;
	/* peer mode: the responder's --impair on what it received (its
	 * counts explain the client's loss, duplicates and reordering) */
	struct nb_impair_report impair;
	/* --capture (cfg->capture.active): what went to the file */
	struct nb_capture_counts capture;
	/* was the tester itself disturbed (have_tester: it was measured) */
	struct nb_tester tester;
	int have_tester;

	uint32_t nb_streams;
	struct nb_stream_result *streams;
	struct nb_stream_result sum; /* totals, merged histogram */
	/* --gaps: each stream's arrival gaps [nb_streams] (NULL: not timed),
	 * and all of them merged (by nb_result_finish) */
	/* --dscp with more than one class: the streams of each class
	 * summed, in the order of --dscp's first mention (nb_result_finish);
	 * classes[k].id is the DSCP */
	struct nb_stream_result *classes;
	uint32_t nb_classes;
	struct nb_gap *gaps;
	struct nb_gap gap_sum;
	/* --flows: each flow's counts [nb_flows] (NULL: none), what was
	 * sent of it and in its frames; the summary (nb_result_finish) */
	uint32_t nb_flows;
	struct nb_flow_rx *flow_rx;
	uint64_t *flow_sent;
	struct nb_flow_rec *flow_rec;
	struct nb_flows_sum flow_sum;

	uint32_t nb_ports;
	struct nb_port_result ports[NB_MAX_PORTS];

	/* a fan-out test (fanout: NB_FANOUT_*, 0 none): each receiving
	 * port's share, against rx_sent, every data frame sent */
	int fanout;
	uint64_t rx_sent;
	uint16_t nb_rxports;
	struct nb_rxport_result rxports[NB_MAX_PORTS];
	/* a test of many ports (--ports): NULL otherwise */
	struct nb_mesh_result *mesh;

	/* iperf3's start.cookie: this test's id in hex (in peer mode the
	 * client's nonce, the same on both ends); empty: none */
	char cookie[40];
	/* this process's CPU time over the test; the responder's (peer
	 * client, remote_known): end.cpu_utilization_percent */
	struct nb_cpu_usage cpu_host, cpu_remote;
	int cpu_remote_known;

	/* latency probes (peer client): round trips through the responder */
	uint64_t probes_sent, probes_returned;
	const char *rtt_method;
	struct nb_hist rtt;

	uint32_t nb_intervals, cap_intervals;
	struct nb_interval *intervals;

	/* peer mode: this side's port link, looked at every
	 * NB_LINK_POLL_NS while the test runs (nb_result_link_step): the
	 * time it was down, the outages (down after up), how it is seen */
	int link_watched, link_down_now;
	uint64_t link_down_ns, link_outages, link_last_ns;
	const char *link_how;

	/* derived by nb_result_finish() */
	double tx_pps, rx_pps;
	double tx_l1_bps, tx_l2_bps, rx_l1_bps, rx_l2_bps;
	double lost_percent;
	int shortfall; /* achieved < 99.5 % of requested */
	double shortfall_percent;
};

/*
 * Give iv its per-stream arrays for n streams, zeroed: always the
 * tx/rx packet and byte arrays; the quality arrays (lost, out of
 * order, duplicates, jitter) too when with_quality, else NULL.
 * Returns 0 or -ENOMEM (then iv has no arrays).  iv->nb_streams is the
 * caller's to set; n == 0 gives no arrays.
 */
int nb_interval_alloc(struct nb_interval *iv, uint32_t n, int with_quality);
/* Free what nb_interval_alloc() gave (NULL arrays are fine). */
void nb_interval_release(struct nb_interval *iv);

/* Allocate streams (zeroed, histograms initialised). */
int nb_result_init(struct nb_result *r, const struct nb_config *cfg,
		   uint32_t nb_streams);
void nb_result_free(struct nb_result *r);
/* --flows: room for n flows' counts (zeroed), or -ENOMEM. */
int nb_result_flows(struct nb_result *r, uint32_t n);

/* --gaps: per-stream gap state against ideal_ns (0: no target), empty;
 * 0 or -ENOMEM. */
int nb_result_gaps(struct nb_result *r, uint64_t ideal_ns);

/*
 * The link seen up or down at now_ns: the time since the last look is
 * down time when it was down then (so the figure lags by one look at
 * most); a down after an up (or first) is an outage.
 */
#define NB_LINK_POLL_NS 10000000ull /* 10 ms */
void nb_result_link_step(struct nb_result *r, uint64_t now_ns, int up);

/* Append a copy of iv (stream arrays are copied too). */
int nb_result_add_interval(struct nb_result *r, const struct nb_interval *iv);

/* Per-stream loss, sums, rates, shortfall. */
void nb_result_finish(struct nb_result *r);

/* a / b, or 0 when b is not positive (a test that did not run). */
static inline double
nb_div0(double a, double b)
{
	return b > 0 ? a / b : 0;
}

/* A queue's share of its port's frames, in percent (RSS balance). */
static inline double
nb_share_pct(uint64_t q, uint64_t port)
{
	return port ? 100.0 * (double)q / (double)port : 0.0;
}

/* The tester's disturbance against the test's latency (p99, max): what
 * the text and JSON reports say of it. */
void nb_result_verdict(const struct nb_result *r, struct nb_tester_verdict *v);

/*
 * Fold what the receivers counted after the last interval (frames in flight
 * at the end, the drain) into the intervals, so that they add up to the end
 * totals: into the last interval when it reaches the end of the test, else
 * (an interrupted run) as one more interval up to the end.  Call after
 * nb_result_finish().  Returns the number of intervals appended (0 or 1).
 */
int nb_result_close_intervals(struct nb_result *r);

/* One row of an interval: stream k, or the sum (k < 0).  Text lines, CSV
 * rows and their tests all read intervals through this. */
struct nb_iv_row {
	uint64_t sent_pkts, sent_bytes, pkts, bytes, lost, ooo, dup;
	double jitter_ns;
	int have_lat; /* the sum only: per-stream latency is not kept */
	uint64_t p50, p99, max;
};
void nb_interval_row(const struct nb_interval *iv, int k,
		     struct nb_iv_row *row);

/* The clock for a text header: "tsc at 2.596152 GHz (+-0.20 ppm ...)". */
void nb_clock_text(char *buf, size_t len, const struct nb_result *r);

/* A fan-out test's receiving ports (nothing without): text lines, and
 * JSON end.rx_ports[] (NULL without). */
void nb_report_rxports_text(FILE *f, const struct nb_result *r);
json_t *nb_json_rxports(const struct nb_result *r);
/* A test of many ports: the pair matrix and the ports' totals after the
 * stream rows (nb_report_mesh.c); JSON end.mesh (NULL without). */
void nb_report_mesh_text(FILE *f, const struct nb_result *r);
/* The pair from port id src to dst, or NULL. */
const struct nb_mesh_pair_result *
nb_mesh_pair_of(const struct nb_mesh_result *m, uint16_t src, uint16_t dst);
json_t *nb_json_mesh(const struct nb_result *r);

/* Text: iperf3-like sender/receiver rows, port counters, warnings. */
void nb_report_text(FILE *f, const struct nb_result *r);
/*
 * The one unit every bitrate of a text report uses (an iperf3 -f letter):
 * --format, or with the default 'a' the unit of the requested rate (of
 * the TX link speed at --rate max); 'a' (each figure its own) only when
 * neither is known.
 */
char nb_report_unit(const struct nb_result *r);
void nb_report_interval_header(FILE *f);
/* One line per stream (when there are several) and a [SUM] line; tag
 * goes before each line's id ("R" for the reverse rows of a bidir peer
 * test: [R0], [RSUM]). */
void nb_report_interval_text(FILE *f, const struct nb_interval *iv, char format,
			     const char *tag);

/* JSON document (iperf3's top-level shape: start, intervals, end). */
json_t *nb_report_json(const struct nb_result *r);
/* Its parts, also the data of --json-stream's events. */
json_t *nb_json_start(const struct nb_result *r);
json_t *nb_json_interval(const struct nb_result *r,
			 const struct nb_interval *iv);
json_t *nb_json_end(const struct nb_result *r);
/* An iperf3-shaped document for a run that ended before any result. */
json_t *nb_json_error_doc(const char *error);

/* A receive-only test's intervals closed against its totals: what came
 * after the last edge goes into the last interval, or into one more when
 * the stats lcore did not reach the end (nb_result_close_intervals' rule
 * for the streams); 1 when it added one, 0 when not, or -ENOMEM. */
int nb_result_close_rxonly(struct nb_result *r);

/* A receive-only test's row (nb_rxonly.h): "[ RX] t0-t1 sec Transfer
 * Bitrate(L2) L1-Gbit/s Mpps N frames", every frame the ports took in. */
void nb_report_rxonly_row(FILE *f, double t0, double t1, uint64_t pkts,
			  uint64_t bytes, char fmt, const char *tail);

/* Human units: "1.16 GBytes" (base 1024), "9.99 Gbits/sec" (base 1000). */
void nb_fmt_bytes(char *buf, size_t len, double bytes);
void nb_fmt_bits(char *buf, size_t len, double bps);
/*
 * A bitrate in iperf3 -f's unit: 'a' adaptive bits, k m g t fixed bits/sec
 * (base 1000), K M G T fixed bytes/sec (base 1024).
 */
void nb_fmt_rate(char *buf, size_t len, double bps, char format);

#endif /* NB_RESULT_H */
