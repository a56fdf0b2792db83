/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the log-linear latency histogram (app/core/nb_hist.c).
 *
 * Percentiles are checked against the exact order statistic of the same
 * data, sorted; merge and diff against histograms recorded directly.
 */
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_test_util.h"

#include "nb_hist.h"

#define N_SAMPLES 200000

/* Percentiles under test, in parts per million so ranks are exact. */
static const struct {
	double p;
	uint64_t ppm;
} test_pcts[] = {
	{50.0, 500000}, {90.0, 900000},	 {99.0, 990000},
	{99.9, 999000}, {99.99, 999900}, {100.0, 1000000},
};

#define N_PCTS (sizeof(test_pcts) / sizeof(test_pcts[0]))

/* Uniform in [0, 1). */
static double
rng_unit(uint64_t *state)
{
	return (double)(rng_next(state) >> 11) * 0x1.0p-53;
}

/* Uniform in [lo, hi] (hi - lo < 2^64 - 1); modulo bias is irrelevant here. */
static uint64_t
rng_range(uint64_t *state, uint64_t lo, uint64_t hi)
{
	return lo + rng_next(state) % (hi - lo + 1);
}

/* Standard normal, Box-Muller. */
static double
rng_normal(uint64_t *state)
{
	const double two_pi = 6.283185307179586476925;
	double u1 = 1.0 - rng_unit(state); /* (0, 1] */
	double u2 = rng_unit(state);

	return sqrt(-2.0 * log(u1)) * cos(two_pi * u2);
}

static uint64_t
to_ns(double x)
{
	if (!(x > 0.0))
		return 0;
	if (x >= 0x1.0p63)
		return UINT64_C(1) << 63;
	return (uint64_t)llround(x);
}

enum dist {
	DIST_UNIFORM,	 /* 100 ns .. 10 ms */
	DIST_EXP,	 /* exponential, mean 50 us */
	DIST_LOGNORMAL,	 /* median 20 us, sigma 1.0 */
	DIST_BIMODAL,	 /* 70 % ~1.5 us, 30 % ~2 ms */
	DIST_LOGUNIFORM, /* every power of two up to 2^36 */
	DIST_SMALL,	 /* 0 .. 127, exact buckets */
	DIST_MIXED,	 /* all of the above, plus overflow */
};

static uint64_t
gen_value(uint64_t *st, enum dist d)
{
	uint32_t e;

	switch (d) {
	case DIST_UNIFORM:
		return rng_range(st, 100, 10000000);
	case DIST_EXP:
		return to_ns(-50000.0 * log(1.0 - rng_unit(st)));
	case DIST_LOGNORMAL:
		return to_ns(exp(log(20000.0) + 1.0 * rng_normal(st)));
	case DIST_BIMODAL:
		if (rng_unit(st) < 0.7)
			return to_ns(1500.0 + 200.0 * rng_normal(st));
		return to_ns(2000000.0 + 300000.0 * rng_normal(st));
	case DIST_LOGUNIFORM:
		e = (uint32_t)rng_range(st, 0, NB_HIST_MAX_EXP);
		return rng_range(st, UINT64_C(1) << e, (UINT64_C(2) << e) - 1);
	case DIST_SMALL:
		return rng_range(st, 0, 127);
	case DIST_MIXED:
	default:
		if (rng_unit(st) < 0.01)
			return rng_range(st, NB_HIST_LIMIT, NB_HIST_LIMIT << 4);
		return gen_value(st, (enum dist)rng_range(st, 0, DIST_SMALL));
	}
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a;
	uint64_t y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t *
gen_values(uint64_t seed, enum dist d, size_t n)
{
	uint64_t *v = malloc(n * sizeof(*v));
	uint64_t st = seed;
	size_t i;

	assert_non_null(v);
	for (i = 0; i < n; i++)
		v[i] = gen_value(&st, d);
	return v;
}

static void
assert_hist_equal(const struct nb_hist *a, const struct nb_hist *b)
{
	uint32_t i;

	assert_int_equal(a->count, b->count);
	assert_int_equal(a->sum, b->sum);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_int_equal(a->overflow, b->overflow);
	for (i = 0; i < NB_HIST_BUCKETS; i++)
		if (a->buckets[i] != b->buckets[i])
			fail_msg("bucket %u: %" PRIu64 " != %" PRIu64, i,
				 a->buckets[i], b->buckets[i]);
}

/*
 * Record n values, then compare every test percentile with the exact order
 * statistic of rank ceil(p/100 * n).  exact: the values are small enough to
 * have one bucket each, so no error at all is allowed.
 */
static void
check_distribution(uint64_t seed, enum dist d, int exact)
{
	struct nb_hist h;
	uint64_t *v = gen_values(seed, d, N_SAMPLES);
	uint64_t sum = 0;
	size_t i;

	nb_hist_init(&h);
	for (i = 0; i < N_SAMPLES; i++) {
		nb_hist_record(&h, v[i]);
		sum += v[i];
	}
	qsort(v, N_SAMPLES, sizeof(*v), cmp_u64);

	assert_int_equal(h.count, N_SAMPLES);
	assert_int_equal(h.sum, sum);
	assert_int_equal(h.min, v[0]);
	assert_int_equal(h.max, v[N_SAMPLES - 1]);
	assert_true(nb_hist_mean(&h) == (double)sum / (double)N_SAMPLES);

	for (i = 0; i < N_PCTS; i++) {
		uint64_t rank =
			((uint64_t)N_SAMPLES * test_pcts[i].ppm + 999999) /
			1000000;
		uint64_t want = v[rank - 1];
		uint64_t got = nb_hist_percentile(&h, test_pcts[i].p);
		double err = fabs((double)got - (double)want);

		if (exact ? got != want : err > 0.01 * (double)want)
			fail_msg("dist %d p%g (rank %" PRIu64 "): got %" PRIu64
				 " want %" PRIu64,
				 (int)d, test_pcts[i].p, rank, got, want);
		/* The bucket midpoint promise of the header: 0.4 %. */
		assert_true(err <= 0.004 * (double)want);
	}
	free(v);
}

static void
test_pct_uniform(void **state)
{
	(void)state;
	check_distribution(1, DIST_UNIFORM, 0);
}

static void
test_pct_exponential(void **state)
{
	(void)state;
	check_distribution(2, DIST_EXP, 0);
}

static void
test_pct_lognormal(void **state)
{
	(void)state;
	check_distribution(3, DIST_LOGNORMAL, 0);
}

static void
test_pct_bimodal(void **state)
{
	(void)state;
	check_distribution(4, DIST_BIMODAL, 0);
}

static void
test_pct_loguniform(void **state)
{
	(void)state;
	check_distribution(5, DIST_LOGUNIFORM, 0);
}

static void
test_pct_small_exact(void **state)
{
	(void)state;
	check_distribution(6, DIST_SMALL, 1);
}

/* The rank rule itself: ceil(p/100 * count)-th smallest, on exact buckets. */
static void
test_pct_rank_rule(void **state)
{
	/* Percentile edges where p/100 * count is an integer: k of count. */
	static const struct {
		uint64_t count;
		uint64_t k;
		double p;
	} edges[] = {
		{1000, 999, 99.9},	  {10000, 9990, 99.9},
		{10000, 9999, 99.99},	  {200000, 199800, 99.9},
		{200000, 199980, 99.99},  {1000000, 999000, 99.9},
		{1000000, 999900, 99.99}, {1000000, 990000, 99.0},
		{100, 90, 90.0},
	};
	struct nb_hist h;
	uint64_t i;
	size_t e;

	(void)state;
	nb_hist_init(&h);
	for (i = 0; i < 100; i++)
		nb_hist_record(&h, i);
	assert_int_equal(nb_hist_percentile(&h, 1.0), 0);
	assert_int_equal(nb_hist_percentile(&h, 1.5), 1);
	assert_int_equal(nb_hist_percentile(&h, 50.0), 49);
	assert_int_equal(nb_hist_percentile(&h, 50.01), 50);
	assert_int_equal(nb_hist_percentile(&h, 90.0), 89);
	assert_int_equal(nb_hist_percentile(&h, 99.0), 98);
	assert_int_equal(nb_hist_percentile(&h, 99.9), 99);
	assert_int_equal(nb_hist_percentile(&h, 99.99), 99);
	assert_int_equal(nb_hist_percentile(&h, 100.0), 99);
	assert_int_equal(nb_hist_percentile(&h, 0.001), 0);

	/* 10000 values, 0..127 each 78 or 79 times: p99.99 is rank 9999. */
	nb_hist_init(&h);
	for (i = 0; i < 10000; i++)
		nb_hist_record(&h, i * 128 / 10000);
	assert_int_equal(nb_hist_percentile(&h, 99.99), 9998 * 128 / 10000);
	assert_int_equal(nb_hist_percentile(&h, 100.0), 127);
	assert_int_equal(nb_hist_percentile(&h, 50.0), 4999 * 128 / 10000);

	/*
	 * p/100 * count is an integer in exact arithmetic but not always in
	 * binary floating point: rank k (value 0) must not become k + 1
	 * (value 1).  count - k ones on top of k zeros.
	 */
	for (e = 0; e < sizeof(edges) / sizeof(edges[0]); e++) {
		nb_hist_init(&h);
		for (i = 0; i < edges[e].count; i++)
			nb_hist_record(&h, i < edges[e].k ? 0 : 1);
		assert_int_equal(nb_hist_percentile(&h, 100.0), 1);
		assert_int_equal(nb_hist_percentile(&h, edges[e].p), 0);
	}
}

/* One value: every percentile is that value (midpoint clamped to min/max). */
static void
test_pct_single_value(void **state)
{
	static const uint64_t vals[] = {0,
					1,
					127,
					128,
					255,
					256,
					1000003,
					123456789,
					NB_HIST_LIMIT - 1,
					NB_HIST_LIMIT,
					NB_HIST_LIMIT * 3};
	struct nb_hist h;
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		nb_hist_init(&h);
		nb_hist_record(&h, vals[i]);
		for (k = 0; k < N_PCTS; k++)
			assert_int_equal(nb_hist_percentile(&h, test_pcts[k].p),
					 vals[i]);
		assert_true(nb_hist_mean(&h) == (double)vals[i]);
	}
}

static void
test_empty(void **state)
{
	struct nb_hist h;
	size_t k;
	uint32_t i;

	(void)state;
	nb_hist_init(&h);
	assert_int_equal(h.count, 0);
	assert_int_equal(h.sum, 0);
	assert_int_equal(h.min, UINT64_MAX);
	assert_int_equal(h.max, 0);
	assert_int_equal(h.overflow, 0);
	for (i = 0; i < NB_HIST_BUCKETS; i++)
		assert_int_equal(h.buckets[i], 0);
	for (k = 0; k < N_PCTS; k++)
		assert_int_equal(nb_hist_percentile(&h, test_pcts[k].p), 0);
	assert_true(nb_hist_mean(&h) == 0.0);
}

static void
test_mean_exact(void **state)
{
	struct nb_hist h;
	uint64_t st = 7, sum = 0;
	uint32_t i;

	(void)state;
	nb_hist_init(&h);
	nb_hist_record(&h, 1);
	nb_hist_record(&h, 2);
	nb_hist_record(&h, 4);
	assert_true(nb_hist_mean(&h) == 7.0 / 3.0);

	/* Bucketing must not leak into the mean. */
	nb_hist_init(&h);
	for (i = 0; i < 100000; i++) {
		uint64_t v = gen_value(&st, DIST_MIXED);

		nb_hist_record(&h, v);
		sum += v;
	}
	assert_int_equal(h.sum, sum);
	assert_true(nb_hist_mean(&h) == (double)sum / 100000.0);
}

/* Bucket bounds agree with nb_hist_index, tile [0, 2^36), width <= 1/128. */
static void
test_bucket_bounds(void **state)
{
	uint32_t i;

	(void)state;
	assert_int_equal(NB_HIST_BUCKETS, 3840);
	assert_int_equal(nb_hist_bucket_low(0), 0);
	for (i = 0; i < NB_HIST_BUCKETS; i++) {
		uint64_t lo = nb_hist_bucket_low(i);
		uint64_t hi = nb_hist_bucket_high(i);

		assert_true(hi > lo);
		assert_int_equal(nb_hist_index(lo), i);
		assert_int_equal(nb_hist_index(hi - 1), i);
		assert_int_equal(nb_hist_index(lo + (hi - lo) / 2), i);
		if (i + 1 < NB_HIST_BUCKETS) {
			assert_int_equal(nb_hist_index(hi), i + 1);
			assert_int_equal(nb_hist_bucket_low(i + 1), hi);
		} else {
			assert_int_equal(hi, NB_HIST_LIMIT);
		}
		if (lo < NB_HIST_SUB) {
			assert_int_equal(lo, i);
			assert_int_equal(hi - lo, 1);
		} else {
			/* (hi - lo) / lo <= 1/128 */
			assert_true((hi - lo) * NB_HIST_SUB <= lo);
		}
		if (lo > 0)
			assert_int_equal(nb_hist_index(lo - 1), i - 1);
	}
	/* Spot checks of the layout. */
	assert_int_equal(nb_hist_index(127), 127);
	assert_int_equal(nb_hist_index(128), 128);
	assert_int_equal(nb_hist_index(255), 255);
	assert_int_equal(nb_hist_index(256), 256);
	assert_int_equal(nb_hist_index(257), 256);
	assert_int_equal(nb_hist_index(258), 257);
	assert_int_equal(nb_hist_index(NB_HIST_LIMIT - 1), NB_HIST_BUCKETS - 1);
}

static void
test_overflow(void **state)
{
	struct nb_hist h;

	(void)state;
	assert_int_equal(NB_HIST_LIMIT, UINT64_C(1) << 36);
	assert_int_equal(nb_hist_index(NB_HIST_LIMIT), NB_HIST_BUCKETS - 1);
	assert_int_equal(nb_hist_index(UINT64_MAX), NB_HIST_BUCKETS - 1);

	nb_hist_init(&h);
	nb_hist_record(&h, 5);		       /* in range */
	nb_hist_record(&h, NB_HIST_LIMIT - 1); /* in range, last bucket */
	nb_hist_record(&h, NB_HIST_LIMIT);
	nb_hist_record(&h, NB_HIST_LIMIT + 1);
	nb_hist_record(&h, UINT64_C(1) << 40);
	assert_int_equal(h.overflow, 3);
	assert_int_equal(h.count, 5);
	assert_int_equal(h.buckets[5], 1);
	assert_int_equal(h.buckets[NB_HIST_BUCKETS - 1], 4);
	assert_int_equal(h.min, 5);
	assert_int_equal(h.max, UINT64_C(1) << 40);
	assert_int_equal(h.sum, 5 + (NB_HIST_LIMIT - 1) + NB_HIST_LIMIT +
					(NB_HIST_LIMIT + 1) +
					(UINT64_C(1) << 40));
	/* Midpoint of the last bucket (it is within [min, max]). */
	assert_int_equal(nb_hist_percentile(&h, 100.0),
			 nb_hist_bucket_low(NB_HIST_BUCKETS - 1) +
				 (NB_HIST_LIMIT -
				  nb_hist_bucket_low(NB_HIST_BUCKETS - 1)) /
					 2);
	assert_int_equal(nb_hist_percentile(&h, 20.0), 5);
}

static void
test_merge(void **state)
{
	struct nb_hist a, b, all, m;
	uint64_t *va = gen_values(11, DIST_MIXED, 50000);
	uint64_t *vb = gen_values(12, DIST_MIXED, 30000);
	size_t i;

	(void)state;
	nb_hist_init(&a);
	nb_hist_init(&b);
	nb_hist_init(&all);
	for (i = 0; i < 50000; i++) {
		nb_hist_record(&a, va[i]);
		nb_hist_record(&all, va[i]);
	}
	for (i = 0; i < 30000; i++) {
		nb_hist_record(&b, vb[i]);
		nb_hist_record(&all, vb[i]);
	}
	assert_true(all.overflow > 0);

	m = a;
	nb_hist_merge(&m, &b);
	assert_hist_equal(&m, &all);

	m = b;
	nb_hist_merge(&m, &a);
	assert_hist_equal(&m, &all);

	/* Into an empty histogram: a copy.  Merging an empty one: no-op. */
	nb_hist_init(&m);
	nb_hist_merge(&m, &a);
	assert_hist_equal(&m, &a);
	nb_hist_init(&b);
	nb_hist_merge(&m, &b);
	assert_hist_equal(&m, &a);

	/* min from the source when lower, max from the destination. */
	nb_hist_init(&a);
	nb_hist_init(&b);
	nb_hist_init(&all);
	nb_hist_record(&a, 1000);
	nb_hist_record(&a, 5000000);
	nb_hist_record(&b, 3);
	nb_hist_record(&b, 7000);
	nb_hist_record(&all, 1000);
	nb_hist_record(&all, 5000000);
	nb_hist_record(&all, 3);
	nb_hist_record(&all, 7000);
	nb_hist_merge(&a, &b);
	assert_hist_equal(&a, &all);

	free(va);
	free(vb);
}

/*
 * nb_hist_record2 (a stream's and its job's histogram at once) leaves each
 * as nb_hist_record would: a job's holding several streams' is the merge
 * of theirs.
 */
static void
test_record2(void **state)
{
	struct nb_hist s1, s2, job, r1, r2, m;
	uint64_t *v = gen_values(13, DIST_MIXED, 40000);
	size_t i;

	(void)state;
	nb_hist_init(&s1);
	nb_hist_init(&s2);
	nb_hist_init(&job);
	nb_hist_init(&r1);
	nb_hist_init(&r2);
	for (i = 0; i < 40000; i++) {
		/* two streams, alternately; the job sees both */
		nb_hist_record2(i % 2 ? &s2 : &s1, &job, v[i]);
		nb_hist_record(i % 2 ? &r2 : &r1, v[i]);
	}
	assert_true(job.overflow > 0);
	assert_hist_equal(&s1, &r1);
	assert_hist_equal(&s2, &r2);
	m = r1;
	nb_hist_merge(&m, &r2);
	assert_hist_equal(&job, &m);
	assert_int_equal(job.count, 40000);
	free(v);
}

/*
 * now - before of two snapshots equals a histogram of the values recorded
 * in between, except min/max, which are bucket bounds clamped to now's.
 */
static void
check_diff(uint64_t seed, enum dist d, size_t n_before, size_t n_after)
{
	struct nb_hist h, before, later, diff, alias;
	uint64_t *v = gen_values(seed, d, n_before + n_after);
	size_t i;

	nb_hist_init(&h);
	nb_hist_init(&later);
	for (i = 0; i < n_before; i++)
		nb_hist_record(&h, v[i]);
	before = h;
	for (i = n_before; i < n_before + n_after; i++) {
		nb_hist_record(&h, v[i]);
		nb_hist_record(&later, v[i]);
	}
	nb_hist_diff(&diff, &h, &before);

	assert_int_equal(diff.count, later.count);
	assert_int_equal(diff.sum, later.sum);
	assert_int_equal(diff.overflow, later.overflow);
	for (i = 0; i < NB_HIST_BUCKETS; i++)
		assert_int_equal(diff.buckets[i], later.buckets[i]);
	assert_true(nb_hist_mean(&diff) == nb_hist_mean(&later));

	if (n_after == 0) {
		assert_int_equal(diff.min, UINT64_MAX);
		assert_int_equal(diff.max, 0);
		assert_int_equal(nb_hist_percentile(&diff, 50.0), 0);
	} else {
		/* In the right bucket, on the safe side, within now's range. */
		assert_int_equal(nb_hist_index(diff.min),
				 nb_hist_index(later.min));
		assert_int_equal(nb_hist_index(diff.max),
				 nb_hist_index(later.max));
		assert_true(diff.min <= later.min);
		assert_true(diff.max >= later.max);
		assert_true(diff.min >= h.min);
		assert_true(diff.max <= h.max);
		if (later.overflow > 0)
			assert_int_equal(diff.max, h.max);
		for (i = 0; i < N_PCTS; i++)
			assert_int_equal(nb_hist_index(nb_hist_percentile(
						 &diff, test_pcts[i].p)),
					 nb_hist_index(nb_hist_percentile(
						 &later, test_pcts[i].p)));
	}

	/* dst may alias now. */
	alias = h;
	nb_hist_diff(&alias, &alias, &before);
	assert_hist_equal(&alias, &diff);

	free(v);
}

static void
test_diff(void **state)
{
	(void)state;
	check_diff(21, DIST_MIXED, 40000, 60000);
	check_diff(22, DIST_LOGNORMAL, 100000, 1000);
	check_diff(23, DIST_SMALL, 5000, 5000);
	check_diff(24, DIST_UNIFORM, 0, 10000);
	check_diff(25, DIST_EXP, 10000, 0);
	check_diff(26, DIST_MIXED, 1, 1);
}

/* Exact min/max survive a diff when later values sit in exact buckets. */
static void
test_diff_small_exact(void **state)
{
	struct nb_hist h, before, diff;

	(void)state;
	nb_hist_init(&h);
	nb_hist_record(&h, 10);
	nb_hist_record(&h, 200);
	before = h;
	nb_hist_record(&h, 50);
	nb_hist_record(&h, 60);
	nb_hist_diff(&diff, &h, &before);
	assert_int_equal(diff.count, 2);
	assert_int_equal(diff.sum, 110);
	assert_int_equal(diff.min, 50);
	assert_int_equal(diff.max, 60);
	assert_int_equal(nb_hist_percentile(&diff, 50.0), 50);
	assert_int_equal(nb_hist_percentile(&diff, 100.0), 60);

	/* A later value in a wide bucket: clamped to now's max. */
	nb_hist_init(&h);
	nb_hist_record(&h, 10);
	before = h;
	nb_hist_record(&h, 1000001);
	nb_hist_diff(&diff, &h, &before);
	assert_int_equal(diff.min, nb_hist_bucket_low(nb_hist_index(1000001)));
	assert_int_equal(diff.max, 1000001);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pct_uniform),
		cmocka_unit_test(test_pct_exponential),
		cmocka_unit_test(test_pct_lognormal),
		cmocka_unit_test(test_pct_bimodal),
		cmocka_unit_test(test_pct_loguniform),
		cmocka_unit_test(test_pct_small_exact),
		cmocka_unit_test(test_pct_rank_rule),
		cmocka_unit_test(test_pct_single_value),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_mean_exact),
		cmocka_unit_test(test_bucket_bounds),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_record2),
		cmocka_unit_test(test_diff),
		cmocka_unit_test(test_diff_small_exact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
