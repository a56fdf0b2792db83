/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inter-arrival gaps of one stream at the receiver (--gaps), and how close
 * they came to the ideal gap of the stream's paced rate: MoonGen's way of
 * telling a pacer's precision, the share of gaps within +-64 ns and
 * +-256 ns of the target.  Pure.
 *
 * A gap is the receive time of a data frame of the stream minus that of
 * the stream's previous data frame, in arrival order, over 48-bit ns
 * stamps (so a wrap of the stamp is harmless).  The first frame has no
 * gap: n frames give n - 1 gaps, whose sum is the last arrival minus the
 * first.  The gaps go into a latency-style histogram (nb_hist.h: exact to
 * 127 ns, within 0.4 % above), the two shares are counted exactly against
 * ideal_ns; with ideal_ns 0 (--rate max: no target) they are not.
 */
#ifndef NB_GAP_H
#define NB_GAP_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "nb_hist.h"
#include "nb_seq.h" /* NB_SEQ_MASK: the stamps' 48 bits */

#define NB_GAP_NEAR_NS 64  /* the tight window, +-ns */
#define NB_GAP_FAR_NS  256 /* the wide one */

struct nb_gap {
	uint64_t ideal_ns; /* the stream's ideal gap; 0: none */
	uint64_t last_ns;  /* the previous frame's arrival (48-bit) */
	uint64_t frames;   /* frames seen: gaps = frames - 1 */
	uint64_t near;	   /* gaps within +-NB_GAP_NEAR_NS of ideal_ns */
	uint64_t far;	   /* ... within +-NB_GAP_FAR_NS */
	struct nb_hist hist;
};

static inline void
nb_gap_init(struct nb_gap *g, uint64_t ideal_ns)
{
	g->ideal_ns = ideal_ns;
	g->last_ns = 0;
	g->frames = 0;
	g->near = 0;
	g->far = 0;
	nb_hist_init(&g->hist);
}

/* |a - b| <= w, in unsigned arithmetic without a branch. */
static inline uint64_t
nb_gap_within(uint64_t a, uint64_t b, uint64_t w)
{
	return a - b + w <= 2 * w;
}

/* A data frame of the stream arrived at rx_ns (48-bit ns). */
static inline void
nb_gap_record(struct nb_gap *g, uint64_t rx_ns)
{
	uint64_t gap = (rx_ns - g->last_ns) & NB_SEQ_MASK;

	g->last_ns = rx_ns;
	if (g->frames++ == 0)
		return;
	nb_hist_record(&g->hist, gap);
	if (g->ideal_ns) {
		g->near += nb_gap_within(gap, g->ideal_ns, NB_GAP_NEAR_NS);
		g->far += nb_gap_within(gap, g->ideal_ns, NB_GAP_FAR_NS);
	}
}

/* dst += src: the gaps of one stream seen by several receive queues, or
 * of all streams for the sum (ideal_ns kept when both agree, else 0). */
void nb_gap_merge(struct nb_gap *dst, const struct nb_gap *src);

/* Percent of the gaps within the window (near or far count); 0 when
 * there are none. */
double nb_gap_share(const struct nb_gap *g, uint64_t count);

/*
 * The ideal gap of one stream, ns: streams frames spread evenly over a
 * total of pps frames per second (each stream gets 1/streams of them).
 * 0 when pps is 0 (no target).
 */
uint64_t nb_gap_ideal_ns(double pps, uint32_t streams);

/* One report line, "[ id] gaps ns: ideal .., min p1 p50 p99 max mean,
 * within +-64 ns .. %, +-256 ns .. % of N gaps". */
void nb_gap_text(FILE *f, const char *id, const struct nb_gap *g);
/* JSON: count, ideal_ns, min/p1/p50/p99/max/mean/sum_ns, and the two
 * windows' counts and percentages (null without a target). */
json_t *nb_gap_json(const struct nb_gap *g);

#endif /* NB_GAP_H */
