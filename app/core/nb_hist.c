/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * HDR-style log-linear latency histogram.  See nb_hist.h.
 */
#include <string.h>

#include "nb_hist.h"

void
nb_hist_init(struct nb_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

/* The low edge of bucket idx (clamped), or its high edge when high. */
static uint64_t
bucket_edge(uint32_t idx, uint32_t high)
{
	uint32_t k, shift;

	if (idx >= NB_HIST_BUCKETS)
		idx = NB_HIST_BUCKETS - 1;
	if (idx < NB_HIST_SUB)
		return (uint64_t)idx + high;
	k = idx - NB_HIST_SUB;
	shift = k >> NB_HIST_SUB_BITS; /* e - NB_HIST_SUB_BITS */
	return (uint64_t)(NB_HIST_SUB + (k & (NB_HIST_SUB - 1)) + high)
	       << shift;
}

uint64_t
nb_hist_bucket_low(uint32_t idx)
{
	return bucket_edge(idx, 0);
}

uint64_t
nb_hist_bucket_high(uint32_t idx)
{
	/* For the last bucket this is NB_HIST_LIMIT. */
	return bucket_edge(idx, 1);
}

void
nb_hist_merge(struct nb_hist *dst, const struct nb_hist *src)
{
	uint32_t i;

	for (i = 0; i < NB_HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum += src->sum;
	dst->overflow += src->overflow;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

void
nb_hist_diff(struct nb_hist *dst, const struct nb_hist *now,
	     const struct nb_hist *before)
{
	/* Saved first: dst may alias now or before. */
	uint64_t now_min = now->min;
	uint64_t now_max = now->max;
	uint32_t lo = NB_HIST_BUCKETS;
	uint32_t hi = 0;
	uint32_t i;

	for (i = 0; i < NB_HIST_BUCKETS; i++) {
		uint64_t c = now->buckets[i] - before->buckets[i];

		dst->buckets[i] = c;
		if (c != 0) {
			if (lo == NB_HIST_BUCKETS)
				lo = i;
			hi = i;
		}
	}
	dst->count = now->count - before->count;
	dst->sum = now->sum - before->sum;
	dst->overflow = now->overflow - before->overflow;

	if (lo == NB_HIST_BUCKETS) {
		dst->min = UINT64_MAX;
		dst->max = 0;
		return;
	}

	dst->min = nb_hist_bucket_low(lo);
	if (dst->min < now_min)
		dst->min = now_min;

	/* Overflowed values have no upper bound but now's max. */
	if (hi == NB_HIST_BUCKETS - 1 && dst->overflow != 0)
		dst->max = now_max;
	else
		dst->max = nb_hist_bucket_high(hi) - 1;
	if (dst->max > now_max)
		dst->max = now_max;
}

uint64_t
nb_hist_percentile(const struct nb_hist *h, double p)
{
	uint64_t rank, cum, mid;
	double x;
	uint32_t i;

	if (h->count == 0)
		return 0;
	/* Out of contract: p <= 0 (or NaN) acts as rank 1, p > 100 as 100. */
	if (!(p > 0.0))
		p = 0.0;
	else if (p > 100.0)
		p = 100.0;

	/*
	 * rank = ceil(p/100 * count).  p/100 is rarely exact in binary, so a
	 * product that should be an integer may land a hair above it; forgive
	 * a relative error far below one rank for any realistic count.
	 */
	x = p * (double)h->count / 100.0;
	rank = (uint64_t)x;
	if ((double)rank < x - x * 1e-12)
		rank++;
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;

	cum = 0;
	for (i = 0; i < NB_HIST_BUCKETS; i++) {
		cum += h->buckets[i];
		if (cum >= rank)
			break;
	}
	if (i == NB_HIST_BUCKETS)
		i = NB_HIST_BUCKETS - 1; /* buckets inconsistent with count */

	mid = nb_hist_bucket_low(i) +
	      (nb_hist_bucket_high(i) - nb_hist_bucket_low(i)) / 2;
	if (mid < h->min)
		mid = h->min;
	if (mid > h->max)
		mid = h->max;
	return mid;
}

double
nb_hist_mean(const struct nb_hist *h)
{
	if (h->count == 0)
		return 0.0;
	return (double)h->sum / (double)h->count;
}
