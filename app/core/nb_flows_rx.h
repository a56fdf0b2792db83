/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --flows at the receiver: what a sink keeps of each flow, and what the
 * report makes of them.  Pure.
 *
 * A stream sends its Ns flows in turn, so the frame with stream sequence
 * number q is of the stream's flow q mod Ns and is that flow's frame
 * number q / Ns: the flow comes from the stamp, with no lookup.  The
 * stream's own tracker (nb_seq) says whether a frame is new or a
 * duplicate; a flow counts its new frames (so its loss is exact: what
 * its stream sent of it less those), the ones that came below its
 * highest number (reordered within the flow) and its latency.
 */
#ifndef NB_FLOWS_RX_H
#define NB_FLOWS_RX_H

#include <stddef.h>
#include <stdint.h>

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "nb_flows.h"

#define NB_FLOW_LAT_BINS 32 /* latency bin b: [2^b, 2^(b+1)) ns; 0 has 0 */

/* A flow's figures for the report (nb_flow_cnt_read, merged). */
struct nb_flow_rx {
	uint64_t unique;	   /* new frames (the stream's tracker) */
	uint64_t dups;		   /* duplicates and frames too late to tell */
	uint64_t next;		   /* highest sequence number seen + 1 */
	uint64_t reordered;	   /* arrived below next */
	uint64_t lat_sum;	   /* ns, of the new frames */
	uint32_t lat_min, lat_max; /* min: UINT32_MAX until a frame came */
	/* the RX queue it arrived on + 1 (0: none); UINT32_MAX when it came
	 * on several.  Not kept per frame: a receive job's flows all came on
	 * its queue, set when the jobs' counts are merged */
	uint32_t queue;
	uint32_t lat[NB_FLOW_LAT_BINS];
};

/* The latency bin of v ns (bins cover every 32-bit value). */
static inline unsigned int
nb_flow_lat_bin(uint64_t v)
{
	uint32_t l = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;

	return 31u - (unsigned int)__builtin_clz(l | 1);
}

/* A flow with nothing counted yet (the report's record). */
static inline void
nb_flow_rx_init(struct nb_flow_rx *r)
{
	memset(r, 0, sizeof(*r));
	r->lat_min = UINT32_MAX;
}

/*
 * What a receive job counts of a flow, per frame: one cache line, so a
 * frame of one of many flows touches one line.  The latency bins keep
 * their low 8 bits here; a bin's carries, and what only a frame out of
 * order counts, are in the flow's struct nb_flow_cnt_ext, touched once
 * in 256 frames of a bin.  A new frame goes in exactly one bin: the
 * bins' sum is the flow's new frames.
 */
struct nb_flow_cnt {
	uint64_t next;		       /* highest sequence number seen + 1 */
	uint32_t lat_min, lat_max;     /* min: UINT32_MAX until a frame came */
	uint64_t lat_sum;	       /* ns, of the new frames */
	uint8_t lat[NB_FLOW_LAT_BINS]; /* bin b's count mod 256 */
} __attribute__((aligned(64)));

struct nb_flow_cnt_ext {
	uint64_t dups;	    /* duplicates and frames too late to tell */
	uint64_t reordered; /* new, but below the flow's next */
	uint32_t lat_hi[NB_FLOW_LAT_BINS]; /* bin b's count / 256 */
};

/* A flow with nothing counted yet. */
static inline void
nb_flow_cnt_init(struct nb_flow_cnt *c, struct nb_flow_cnt_ext *x)
{
	memset(c, 0, sizeof(*c));
	memset(x, 0, sizeof(*x));
	c->lat_min = UINT32_MAX;
}

/* A new frame's latency l ns (min and max are stored only when they
 * change: after a flow's first frame, seldom). */
static inline void
nb_flow_cnt_lat(struct nb_flow_cnt *c, struct nb_flow_cnt_ext *x, uint32_t l)
{
	unsigned int b = 31u - (unsigned int)__builtin_clz(l | 1);

	c->lat_sum += l;
	if (__builtin_expect(l < c->lat_min, 0))
		c->lat_min = l;
	if (__builtin_expect(l > c->lat_max, 0))
		c->lat_max = l;
	if (__builtin_expect(++c->lat[b] == 0, 0))
		x->lat_hi[b]++;
}

/*
 * One frame of a flow (nb_flow_cnt_init'd): its sequence number in the
 * stream (unwrapped), whether the stream's tracker found it new, its
 * latency.  Branches only on what the wire decides (new, in order).
 */
static inline void
nb_flow_cnt_record(struct nb_flow_cnt *c, struct nb_flow_cnt_ext *x,
		   uint64_t seq, int is_new, uint64_t lat_ns)
{
	if (!is_new) {
		x->dups++;
		return;
	}
	if (seq + 1 > c->next)
		c->next = seq + 1;
	else
		x->reordered++;
	nb_flow_cnt_lat(c, x,
			lat_ns > UINT32_MAX ? UINT32_MAX : (uint32_t)lat_ns);
}

/*
 * The same for the frame the stream expected next (the common case): it
 * is new, and above every frame of its flow so far.
 */
static inline void
nb_flow_cnt_next(struct nb_flow_cnt *c, struct nb_flow_cnt_ext *x, uint64_t seq,
		 uint64_t lat_ns)
{
	c->next = seq + 1;
	nb_flow_cnt_lat(c, x,
			lat_ns > UINT32_MAX ? UINT32_MAX : (uint32_t)lat_ns);
}

/* A flow's counts as the report's record (queue 0: the caller sets it). */
void nb_flow_cnt_read(const struct nb_flow_cnt *c,
		      const struct nb_flow_cnt_ext *x, struct nb_flow_rx *r);

/*
 * A stream's flow cursor: the frame numbered u (unwrapped by the stream's
 * tracker, nb_seq), new or not, is of the stream's flow u mod nflows.
 * expected is the number the tracker expected (its next before this
 * frame) and *cur that number's flow.  In order (u == expected) the flow
 * is *cur and the cursor steps, with no division; above expected (a gap)
 * the cursor follows u's flow; below it (late, reordered, a duplicate) it
 * stays.  Returns u's flow.
 */
static inline uint32_t
nb_flow_rx_step(uint32_t *cur, uint32_t nflows, uint64_t u, uint64_t expected)
{
	uint32_t k;

	if (__builtin_expect(u == expected, 1))
		k = *cur;
	else if (u < expected)
		return (uint32_t)(u % nflows);
	else
		k = (uint32_t)(u % nflows);
	*cur = k + 1 == nflows ? 0 : k + 1;
	return k;
}

/*
 * One frame of a stream whose flows' counts are cnt[nflows] and
 * ext[nflows], its cursor *cur (nb_flow_rx_step): counted in its flow's.
 */
static inline void
nb_flow_rx_count(struct nb_flow_cnt *cnt, struct nb_flow_cnt_ext *ext,
		 uint32_t nflows, uint32_t *cur, uint64_t u, uint64_t expected,
		 int is_new, uint64_t lat_ns)
{
	uint32_t k = nb_flow_rx_step(cur, nflows, u, expected);

	if (__builtin_expect(u == expected, 1))
		nb_flow_cnt_next(&cnt[k], &ext[k], u, lat_ns);
	else
		nb_flow_cnt_record(&cnt[k], &ext[k], u, is_new, lat_ns);
}

/* Fold b into a (the same flow, counted by another receiver). */
void nb_flow_rx_merge(struct nb_flow_rx *a, const struct nb_flow_rx *b);

/* The upper edge (ns) of the bin holding flow r's p-th percentile of
 * latency (0 when nothing arrived). */
uint64_t nb_flow_rx_pct(const struct nb_flow_rx *r, double p);

/* How many frames stream s's flow k of ns was sent, the stream having
 * sent tx in all (its flows in turn from 0). */
static inline uint64_t
nb_flow_sent(uint64_t tx, uint32_t ns, uint32_t k)
{
	return tx / ns + (k < tx % ns);
}

/* Loss-rate bins across flows (percent: 0, up to 0.01, 0.1, 1, 10, below
 * 100, all lost) */
#define NB_FLOW_LOSS_BINS 7

/* The report of the flows of a test. */
struct nb_flows_sum {
	uint32_t flows;
	uint32_t with_loss, with_reorder, with_dups, none_arrived;
	uint32_t on_several_queues;
	uint64_t loss_bins[NB_FLOW_LOSS_BINS];
	uint64_t p99_bins[NB_FLOW_LAT_BINS];
	uint32_t worst[10]; /* flow ids, most lost first */
	uint32_t nb_worst;
	uint32_t per_queue[64]; /* flows that arrived on queue q only */
};

/*
 * The summary of n flows: rx[f] what arrived of flow f, sent[f] what was
 * sent of it.  The worst are the flows with the most lost frames (ties:
 * the lower id), only flows that lost any.
 */
void nb_flows_summarise(const struct nb_flow_rx *rx, const uint64_t *sent,
			uint32_t n, struct nb_flows_sum *out);

/* The summary as JSON (end.flows): counts, the bins, the worst flows
 * (id, sent, received, lost, p99_ns, queue). */
json_t *nb_flows_sum_json(const struct nb_flows_sum *s,
			  const struct nb_flow_rx *rx, const uint64_t *sent);

/* The summary as the text report's lines (flows, loss and p99 bins,
 * flows per RX queue, the worst flows with their streams). */
void nb_flows_sum_text(FILE *f, const struct nb_flows_sum *s,
		       const struct nb_flow_rx *rx, const uint64_t *sent,
		       uint32_t streams);

/*
 * Every flow's figures into path: CSV when it ends in ".csv", else JSON
 * ({"flows": [...]}): its id, stream, the fields its frames carried
 * (rec; src6/dst6: an IPv6 test's addresses, whose last 32 bits rec
 * has), sent, received, lost, duplicates, reordered, latency min, mean,
 * p99 and max, the RX queue (-1: several).  0, or -errno with err set.
 */
int nb_flows_write(const char *path, const struct nb_flow_rx *rx,
		   const uint64_t *sent, const struct nb_flow_rec *rec,
		   uint32_t n, uint32_t streams, const struct nb_ip *src6,
		   const struct nb_ip *dst6, char *err, size_t errlen);

#endif /* NB_FLOWS_RX_H */
