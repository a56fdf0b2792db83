/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The jobs of one test: every worker's TX and RX job state, built from the
 * plan, and the one reader of their counters.  The stats lcore (intervals),
 * telemetry, the drain and the final collection all read the workers'
 * single-writer counters through nb_jobs_read() or nb_jobs_totals(), never
 * by walking the jobs themselves.  A --tcp test's workers are here too
 * (nb_jobs_tcp_worker); their connections' counters are TCP's, read by
 * the TCP runner's report (nb_tcprun_snap_all), on the stats lcore for
 * the intervals.
 */
#ifndef NB_JOBS_H
#define NB_JOBS_H

#include <stdint.h>

#include "nb_config.h"
#include "nb_hist.h"
#include "nb_plan.h"
#include "nb_pmd_stats.h"
#include "nb_port.h"
#include "nb_worker.h"

struct nb_jobs {
	unsigned int nb_workers;
	struct nb_worker *workers[NB_MAX_LCORES];
	unsigned int nb_tx, nb_rx;
	struct nb_txjob *tx[NB_MAX_JOBS];
	struct nb_rxjob *rx[NB_MAX_JOBS];
	struct nb_probejob *probe; /* peer client: latency prober, or NULL */
	uint32_t nb_streams;
	/* --capture (NULL without): receivers copy to it; what they could
	 * not hand over is added to cap_dropped when they are freed */
	struct nb_capture *cap;
	uint64_t cap_dropped, cap_taken;
	/* --replay as recorded: receivers take no frame for data (their
	 * source filter passes none), and every frame they take in counts
	 * for stream 0 in nb_jobs_read() */
	int rx_all_stream0;
};

/* The ports a test uses: where each job's frames come from and go to. */
struct nb_jobs_ports {
	uint16_t nb_ports;
	const uint16_t *port_ids;
	const struct nb_port *ports; /* [nb_ports], same order */
};

/*
 * Build every worker and job of the plan: templates for every stream and
 * size (warm-up and data), counters, TX pools (reused by name when they
 * exist), per-worker state on each lcore's NUMA socket, per-job state on
 * its port's.  On failure err says why; nb_jobs_free() cleans up.
 */
int nb_jobs_build(struct nb_jobs *js, const struct nb_config *cfg,
		  const struct nb_plan *plan, const struct nb_jobs_ports *ports,
		  struct nb_run *run, char *err, size_t errlen);
void nb_jobs_free(struct nb_jobs *js);

/*
 * A worker on lcore for n (1 or 2) closed-loop TCP jobs, whose steps
 * nb_tcp_job_select() has chosen: the "tcp" engine, launched by
 * nb_run_launch() with the others.  The jobs stay the TCP runner's
 * (nb_jobs_free frees the worker only).  -ENOMEM, or -EINVAL for more
 * workers or jobs than fit.
 */
int nb_jobs_tcp_worker(struct nb_jobs *js, unsigned int lcore,
		       struct nb_run *run, struct nb_tcpjob *const *jobs,
		       uint16_t n);

/* 802.3ad bonds among ports: turns on the queues no job bursts on
 * (nb_keep); 0, or -1 when out of memory or slots. */
int nb_jobs_keep_lacp(struct nb_jobs *js, const struct nb_jobs_ports *ports);
void nb_jobs_keep_free(struct nb_jobs *js);

/* The worker that owns TX queue q of the test (or else RX queue q). */
struct nb_worker *nb_jobs_queue_owner(const struct nb_jobs *js, uint16_t q);

/*
 * The responder's --impair on every receive job (state on the control
 * lcore's socket: a delay line of NB_IMPAIR_LINE records per queue), and
 * the engines chosen again.  Before launch.  -ENOMEM with err set.
 */
int nb_jobs_impair(struct nb_jobs *js, const struct nb_impair_cfg *cfg,
		   uint64_t now_ns, uint8_t proto, char *err, size_t errlen);
/*
 * --gaps: every receive job times each stream's arrival gaps against
 * ideal_ns (0: no target), and the engines are chosen again.  Before
 * launch.  -ENOMEM with err set.
 */
int nb_jobs_gaps(struct nb_jobs *js, uint64_t ideal_ns, uint8_t proto,
		 char *err, size_t errlen);
/* out[s] += every receive job's gaps of stream s, for s < n (after the
 * workers are done, or as a snapshot). */
void nb_jobs_read_gaps(const struct nb_jobs *js, struct nb_gap *out,
		       uint32_t n);
/*
 * --flows: each TX job's streams' flow records, each receive job's
 * per-flow counts, and the engines chosen again.  Before launch.
 * -ENOMEM with err set.  nb_jobs_free frees them (nb_jobs_flows_free).
 */
int nb_jobs_flows(struct nb_jobs *js, const struct nb_config *cfg, char *err,
		  size_t errlen);
void nb_jobs_flows_free(struct nb_jobs *js);
/* The test's n flows over ns streams, after the workers are done: rx[f]
 * += every receive job's counts of flow f, sent[f] += what its stream
 * sent of it in the measured phase, rec[f] what its frames carried. */
void nb_jobs_read_flows(const struct nb_jobs *js, uint32_t n, uint32_t ns,
			struct nb_flow_rx *rx, uint64_t *sent,
			struct nb_flow_rec *rec);
/* What the receive jobs of port counted of the test's streams (after the
 * workers are done): out's received, unique, out_of_order, duplicates
 * (lost is the caller's: it knows what was sent). */
struct nb_rxport_result;
void nb_jobs_read_rxport(const struct nb_jobs *js, uint16_t port,
			 struct nb_rxport_result *out);
/* Adds what the receive jobs of port counted of stream s to out's
 * received, unique, out_of_order and duplicates, and its latency to h
 * (NULL: not wanted); after the workers are done.  A test of many
 * ports reads each pair's destination and the other ports so. */
void nb_jobs_read_port_stream(const struct nb_jobs *js, uint16_t port,
			      uint32_t s, struct nb_rxport_result *out,
			      struct nb_hist *h);
/* What the impairment did, summed over the receive jobs (workers write
 * these; read when they are done, or as a snapshot). */
void nb_jobs_impair_counts(const struct nb_jobs *js,
			   struct nb_impair_counts *c);

/* Cheap totals, for polling while a test runs. */
struct nb_jobs_totals {
	uint64_t tx_data; /* frames sent in the measured phase */
	uint64_t tx_all;  /* ... and in the warm-up */
	uint64_t rx_data; /* our data frames received */
	/* the turns of the loops of the workers that receive: they move
	 * while those workers poll (not while they are off their CPUs) */
	uint64_t rx_turns;
	int tx_done; /* every TX job has ended */
};
void nb_jobs_totals(const struct nb_jobs *js, struct nb_jobs_totals *t);

/* The tool's own per-port counts. */
struct nb_port_counts {
	uint16_t port_id;
	uint64_t tx_pkts, tx_bytes; /* warm-up included */
	uint64_t rx_pkts, rx_bytes; /* every frame received */
	/* the same per queue; nb_queues: 1 + the highest with a job */
	uint16_t nb_queues;
	uint64_t q_tx_pkts[NB_PMD_QUEUES], q_tx_bytes[NB_PMD_QUEUES];
	uint64_t q_rx_pkts[NB_PMD_QUEUES], q_rx_bytes[NB_PMD_QUEUES];
};

/* Everything the workers counted, summed over jobs and queues. */
struct nb_counts {
	uint32_t nb_streams;
	/* per stream [nb_streams], measured phase */
	uint64_t *tx_pkts, *tx_bytes;
	uint64_t *rx_pkts, *rx_bytes, *rx_unique;
	uint64_t *lost, *ooo, *dup, *late;
	double *jitter_ns;    /* of the queue that got most of the stream */
	uint64_t *busiest;    /* (that queue's count) */
	struct nb_hist *hist; /* all streams merged, or NULL */
	struct nb_hist *stream_hist; /* [nb_streams], or NULL */
	/* totals */
	uint64_t tx_warm_pkts, tx_warm_bytes, rx_warm, rx_warm_bytes;
	uint64_t gap_lost, out_of_order, duplicates;
	double mean_jitter_ns; /* over all streams (0 for a silent one) */
	uint64_t tx_dropped, alloc_fail, rx_foreign, rx_bad_stream;
	uint64_t tx_end_tsc; /* latest end of a sending job (0: none) */
	uint64_t rx_end_tsc; /* latest data frame received (0: none) */
	uint16_t nb_ports;
	struct nb_port_counts ports[NB_MAX_PORTS];
};

/* Arrays for n streams; the histograms only when asked for. */
int nb_counts_alloc(struct nb_counts *c, uint32_t n, int hist_sum,
		    int hist_per_stream);
void nb_counts_free(struct nb_counts *c);
void nb_jobs_read(const struct nb_jobs *js, struct nb_counts *c);
/* c's counts for a port, or NULL */
const struct nb_port_counts *nb_counts_port(const struct nb_counts *c,
					    uint16_t port_id);

/*
 * iperf3's UDP streams (--iperf3 --reverse, --iperf3-server): a copy of
 * k's addresses and ports on each RX job (its counters zeroed), handed to
 * the worker with release; NULL on ENOMEM or with no receiver.  Freed
 * after the jobs.
 */
struct nb_ip3_sink *nb_jobs_ip3_sinks(struct nb_jobs *js,
				      const struct nb_ip3_sink *k);
void nb_jobs_ip3_sinks_free(struct nb_ip3_sink *s);
/* The datagrams counted so far, every stream of every sink. */
uint64_t nb_jobs_ip3_datagrams(const struct nb_ip3_sink *s,
			       unsigned int nsinks);
/* Stream i over the sinks: the sums, the highest count, the jitter of
 * the sink that took most of it (a stream reaches one queue). */
void nb_jobs_ip3_stream(const struct nb_ip3_sink *s, unsigned int nsinks,
			unsigned int i, struct nb_ip3_udp_rx *out);
/* Before the start: each sender's stream i (of n) goes from UDP port
 * sport to dports[i] (an iperf3 server's reverse streams). */
void nb_jobs_udp_ports(struct nb_jobs *js, uint16_t sport,
		       const uint16_t *dports, unsigned int n);

#endif /* NB_JOBS_H */
