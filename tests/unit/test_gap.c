/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the receiver's inter-arrival gaps (app/core/nb_gap.h):
 * the gaps of hand-made arrival series, the +-64 / +-256 ns windows at
 * their edges, the 48-bit wrap, merging, and the ideal gap of a rate.
 * Expected values are worked out here from the arrival times themselves.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "nb_gap.h"
#include "nb_test_util.h"

#define IDEAL 12304 /* 1518 B at 1 Gbit/s L1: 1538 * 8 ns */

static struct nb_gap g, h;

/* Arrivals at ideal + off[i] after the previous one, from t0. */
static uint64_t
feed(struct nb_gap *x, uint64_t t0, const int64_t *off, unsigned int n)
{
	uint64_t t = t0;
	unsigned int i;

	nb_gap_record(x, t & NB_SEQ_MASK);
	for (i = 0; i < n; i++) {
		t += (uint64_t)((int64_t)IDEAL + off[i]);
		nb_gap_record(x, t & NB_SEQ_MASK);
	}
	return t;
}

static void
test_first_frame_has_no_gap(void **state)
{
	(void)state;
	nb_gap_init(&g, IDEAL);
	nb_gap_record(&g, 5000);
	assert_int_equal(g.frames, 1);
	assert_int_equal(g.hist.count, 0);
	assert_int_equal(g.near, 0);
	assert_int_equal(g.far, 0);
	assert_true(nb_gap_share(&g, g.near) == 0.0);
}

/* The window edges: +-64 and +-256 are inside, one ns more is not. */
static void
test_window_edges(void **state)
{
	static const int64_t off[] = {0,   64,	 -64, 65,   -65,
				      256, -256, 257, -257, 1000};
	/* inside +-64: 0, 64, -64 (3); inside +-256: those and 65, -65,
	 * 256, -256 (7) */
	uint64_t end;

	(void)state;
	nb_gap_init(&g, IDEAL);
	end = feed(&g, 1000000, off, 10);
	assert_int_equal(g.frames, 11);
	assert_int_equal(g.hist.count, 10);
	assert_int_equal(g.near, 3);
	assert_int_equal(g.far, 7);
	assert_true(nb_gap_share(&g, g.near) == 30.0);
	assert_true(nb_gap_share(&g, g.far) == 70.0);
	/* the gaps add up to the span of the arrivals */
	assert_int_equal(g.hist.sum, end - 1000000);
	assert_int_equal(g.hist.min, IDEAL - 257);
	assert_int_equal(g.hist.max, IDEAL + 1000);
}

/* Frames of one burst share a receive time: gap 0, outside the window. */
static void
test_same_burst(void **state)
{
	(void)state;
	nb_gap_init(&g, 672);
	nb_gap_record(&g, 100);
	nb_gap_record(&g, 100);
	nb_gap_record(&g, 100 + 672);
	assert_int_equal(g.hist.count, 2);
	assert_int_equal(g.hist.min, 0);
	assert_int_equal(g.near, 1);
}

/* Without a target (--rate max) the gaps are kept, the windows are not. */
static void
test_no_target(void **state)
{
	static const int64_t off[] = {0, 0, 0};

	(void)state;
	nb_gap_init(&g, 0);
	feed(&g, 0, off, 3);
	assert_int_equal(g.hist.count, 3);
	assert_int_equal(g.near, 0);
	assert_int_equal(g.far, 0);
	assert_int_equal(nb_hist_percentile(&g.hist, 50), IDEAL);
}

/* Stamps are 48 bits: a series across the wrap has the same gaps. */
static void
test_wrap(void **state)
{
	static const int64_t off[] = {10, -10, 300, 0, 5};
	const uint64_t t0 = NB_SEQ_MASK - 2 * IDEAL; /* wraps at frame 3 */

	(void)state;
	nb_gap_init(&g, IDEAL);
	nb_gap_init(&h, IDEAL);
	feed(&g, t0, off, 5);
	feed(&h, 777, off, 5);
	assert_int_equal(g.hist.count, 5);
	assert_int_equal(g.hist.sum, h.hist.sum);
	assert_int_equal(g.hist.min, h.hist.min);
	assert_int_equal(g.hist.max, h.hist.max);
	assert_int_equal(g.near, 4);
	assert_int_equal(g.far, 4);
}

/* A random series against a count made here from the offsets. */
static void
test_random_series(void **state)
{
	int64_t off[4000];
	uint64_t seed = 42, want_near = 0, want_far = 0, end;
	unsigned int i;

	(void)state;
	for (i = 0; i < 4000; i++) {
		off[i] = (int64_t)rng_below(&seed, 1201) - 600;
		want_near += off[i] >= -64 && off[i] <= 64;
		want_far += off[i] >= -256 && off[i] <= 256;
	}
	nb_gap_init(&g, IDEAL);
	end = feed(&g, 123456789, off, 4000);
	assert_int_equal(g.hist.count, 4000);
	assert_int_equal(g.near, want_near);
	assert_int_equal(g.far, want_far);
	assert_int_equal(g.hist.sum, end - 123456789);
}

static void
test_merge(void **state)
{
	static const int64_t a[] = {0, 100, 500};
	static const int64_t b[] = {-30, 0};

	(void)state;
	nb_gap_init(&g, IDEAL);
	nb_gap_init(&h, IDEAL);
	feed(&g, 0, a, 3);
	feed(&h, 99, b, 2);
	nb_gap_merge(&g, &h);
	assert_int_equal(g.frames, 4 + 3);
	assert_int_equal(g.hist.count, 5);
	assert_int_equal(g.near, 1 + 2);
	assert_int_equal(g.far, 2 + 2);
	assert_int_equal(g.ideal_ns, IDEAL);
	/* into an empty one: the source's target; different targets: none */
	nb_gap_init(&g, 0);
	nb_gap_merge(&g, &h);
	assert_int_equal(g.ideal_ns, IDEAL);
	nb_gap_init(&h, 672);
	feed(&h, 0, b, 2);
	nb_gap_merge(&g, &h);
	assert_int_equal(g.ideal_ns, 0);
	assert_int_equal(g.hist.count, 4);
	/* an empty source changes nothing */
	nb_gap_init(&h, 5);
	nb_gap_merge(&g, &h);
	assert_int_equal(g.hist.count, 4);
	assert_int_equal(g.ideal_ns, 0);
}

static void
test_ideal(void **state)
{
	(void)state;
	/* 1 Gbit/s L1 of 1518 B frames: 1e9 / (1538 * 8) pps */
	assert_int_equal(nb_gap_ideal_ns(1e9 / (1538.0 * 8), 1), IDEAL);
	/* 64 B at 1 Gbit/s: 84 B on the wire, 672 ns; 4 streams: 2688 */
	assert_int_equal(nb_gap_ideal_ns(1e9 / 672.0, 4), 2688);
	assert_int_equal(nb_gap_ideal_ns(0, 4), 0);
	assert_int_equal(nb_gap_ideal_ns(1e6, 0), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_frame_has_no_gap),
		cmocka_unit_test(test_window_edges),
		cmocka_unit_test(test_same_burst),
		cmocka_unit_test(test_no_target),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_random_series),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_ideal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
