/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Was the tester itself disturbed?  Per busy worker: how long it was off
 * its CPU while it wanted to run (the kernel's schedstat), the steal time
 * of its CPU (a hypervisor's), and the gaps between two turns of its poll
 * loop (the longest, and the time spent in gaps of NB_TESTER_GAP_NS or
 * more).  A receiver that does not poll holds the frames that arrive
 * meanwhile: their latency is the tester's, not the path's.  The figures
 * come from app/stats; what they mean is decided here.
 */
#ifndef NB_TESTER_H
#define NB_TESTER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#define NB_TESTER_MAX	 16
#define NB_TESTER_GAP_NS 16000 /* a poll gap this long counts as a stall */
/* disturbed: off the CPU, or in stalls, for this share of the test */
#define NB_TESTER_SHARE 0.01

struct nb_tester_worker {
	unsigned int lcore, cpu;
	char role[24];	     /* "rx p1/q0", "tx p0/q0", ... */
	int rx;		     /* polls receive queues */
	uint64_t run_ns;     /* on its CPU */
	uint64_t wait_ns;    /* runnable, but off its CPU */
	uint64_t steal_ns;   /* its CPU's steal time (-1: unknown) */
	uint64_t stall_ns;   /* in poll gaps of NB_TESTER_GAP_NS or more */
	uint64_t max_gap_ns; /* the longest gap between two loop turns */
	int have_sched;	     /* run_ns and wait_ns were read */
};

struct nb_tester {
	uint16_t n;
	/* busy workers past the first NB_TESTER_MAX: not measured, and said
	 * so (text and JSON), never left out silently */
	uint16_t not_measured;
	double wall_s; /* the span the figures cover */
	struct nb_tester_worker w[NB_TESTER_MAX];
};

/* The verdict on the test's latency figures. */
struct nb_tester_verdict {
	int disturbed;	 /* a worker was off its CPU or stalled too long */
	int rx_affected; /* ... a receiver: the latency tail is ours */
	int worst;	 /* index of the worst worker, -1 none */
	double worst_share;
	char why[320];
};

/* One worker in one interval (the stats lcore's samples). */
struct nb_iv_tester {
	uint16_t lcore;
	uint8_t rx;
	uint64_t off_cpu_ns; /* runnable but off its CPU, steal included */
	uint64_t stall_ns;   /* in poll gaps of NB_TESTER_GAP_NS or more */
};

/* "  tester: lcore 2 (rx) was off its CPU 480.1 ms, stalled 470.2 ms
 * (48.0 % of the interval)" for each worker at NB_TESTER_SHARE or more
 * of span_s; nothing for a quiet interval. */
void nb_tester_iv_text(FILE *f, const struct nb_iv_tester *w, uint16_t n,
		       double span_s);
json_t *nb_tester_iv_json(const struct nb_iv_tester *w, uint16_t n);

/*
 * Judge: a worker off its CPU (wait + steal) or in stalls for at least
 * NB_TESTER_SHARE of wall_s is disturbed; a receiver so disturbed makes
 * every latency percentile above 1 - share suspect, and a maximum below
 * its longest gap (plus the p50) the tester's.  lat_p99/lat_max in ns,
 * 0 without latency.
 */
void nb_tester_judge(const struct nb_tester *t, uint64_t lat_p99,
		     uint64_t lat_max, struct nb_tester_verdict *v);

/* One line per worker, then the verdict when disturbed (WARNING). */
void nb_tester_text(FILE *f, const struct nb_tester *t,
		    const struct nb_tester_verdict *v);
json_t *nb_tester_json(const struct nb_tester *t,
		       const struct nb_tester_verdict *v);

/* One reading of the workers' disturbance (stats/nb_tester_read.h). */
struct nb_tester_sample {
	uint64_t tsc;
	uint16_t n;
	struct {
		uint64_t run_ns, wait_ns, steal_ns; /* UINT64_MAX: unknown */
		uint64_t stall_tsc, max_gap;
		int have_sched;
	} w[NB_TESTER_MAX];
};

#endif /* NB_TESTER_H */
