/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * HDR-style log-linear latency histogram, in nanoseconds.  Pure.
 *
 * Values 0..127 ns each have their own bucket (exact).  Above that, each
 * power of two [2^e, 2^(e+1)) for e = 7..35 is split into 128 equal
 * sub-buckets, so a bucket's width is at most 1/128 of its lower bound:
 * reporting a bucket's midpoint is within 0.4 % of any value in it.  2^36 ns
 * (68.7 s) covers the 60 s range; larger values are counted in the last
 * bucket and in `overflow`.  Fixed memory (3840 counters), mergeable by
 * addition.  Single writer: one histogram per worker per stream.
 */
#ifndef NB_HIST_H
#define NB_HIST_H

#include <stdint.h>

#define NB_HIST_SUB_BITS 7
#define NB_HIST_SUB	 (1u << NB_HIST_SUB_BITS) /* 128 */
#define NB_HIST_MAX_EXP	 35			  /* last power of two */
#define NB_HIST_BUCKETS                                                        \
	(NB_HIST_SUB +                                                         \
	 (NB_HIST_MAX_EXP - NB_HIST_SUB_BITS + 1) * NB_HIST_SUB) /* 3840 */
#define NB_HIST_LIMIT (UINT64_C(1) << (NB_HIST_MAX_EXP + 1))

struct nb_hist {
	uint64_t count;
	uint64_t sum; /* of recorded values, ns (saturating is not needed:
		       * 2^64 ns = 584 years of latency) */
	uint64_t min; /* UINT64_MAX when empty */
	uint64_t max;
	uint64_t overflow; /* values >= NB_HIST_LIMIT (clamped into last bucket)
			    */
	uint64_t buckets[NB_HIST_BUCKETS];
};

void nb_hist_init(struct nb_hist *h);

static inline uint32_t
nb_hist_index(uint64_t v)
{
	uint32_t e;

	if (v < NB_HIST_SUB)
		return (uint32_t)v;
	if (v >= NB_HIST_LIMIT)
		return NB_HIST_BUCKETS - 1;
	e = 63 - (uint32_t)__builtin_clzll(v);
	return NB_HIST_SUB + (e - NB_HIST_SUB_BITS) * NB_HIST_SUB +
	       (uint32_t)((v >> (e - NB_HIST_SUB_BITS)) - NB_HIST_SUB);
}

/* v, whose bucket is i, into h. */
static inline void
nb_hist_add(struct nb_hist *h, uint32_t i, uint64_t v)
{
	h->buckets[i]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	if (v >= NB_HIST_LIMIT)
		h->overflow++;
}

static inline void
nb_hist_record(struct nb_hist *h, uint64_t v)
{
	nb_hist_add(h, nb_hist_index(v), v);
}

/* v into two histograms (a stream's and its job's), the bucket found
 * once. */
static inline void
nb_hist_record2(struct nb_hist *a, struct nb_hist *b, uint64_t v)
{
	uint32_t i = nb_hist_index(v);

	nb_hist_add(a, i, v);
	nb_hist_add(b, i, v);
}

/* Lowest value that maps to bucket idx, and the lowest of the next bucket. */
uint64_t nb_hist_bucket_low(uint32_t idx);
uint64_t nb_hist_bucket_high(uint32_t idx);

/* dst += src (count, sum, buckets, overflow; min/max combined). */
void nb_hist_merge(struct nb_hist *dst, const struct nb_hist *src);

/*
 * dst = now - before, for interval reports from two snapshots of the same
 * histogram.  min/max of the difference are derived from its buckets
 * (lowest/highest non-empty bucket bounds, clamped to now's min/max).
 */
void nb_hist_diff(struct nb_hist *dst, const struct nb_hist *now,
		  const struct nb_hist *before);

/*
 * Value at percentile p (0 < p <= 100): the midpoint of the bucket holding
 * the ceil(p/100 * count)-th smallest value, clamped to [min, max].
 * 0 for an empty histogram.
 */
uint64_t nb_hist_percentile(const struct nb_hist *h, double p);

double nb_hist_mean(const struct nb_hist *h);

#endif /* NB_HIST_H */
