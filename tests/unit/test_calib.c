/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nb_calib: the TSC frequency from readings against a reference clock.
 * Expected values come from a simulated TSC of known frequency (exact
 * rational arithmetic in long double / 128-bit integers here), never from
 * the function under test.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "nb_calib.h"
#include "nb_test_util.h"

/* The TSC of a clock of `hz` ticks per second at reference time ns. */
static uint64_t
tsc_at(uint64_t hz, uint64_t ns)
{
	return (uint64_t)((unsigned __int128)ns * hz / 1000000000u);
}

/* A reading: the reference read at ns, the TSC read `before` ticks earlier
 * and `after` ticks later. */
static struct nb_calib_point
reading(uint64_t hz, uint64_t ns, uint64_t before, uint64_t after)
{
	struct nb_calib_point p;
	uint64_t t = tsc_at(hz, ns);

	p.tsc_before = t - before;
	p.ref_ns = ns;
	p.tsc_after = t + after;
	return p;
}

static void
test_exact_and_bound(void **state)
{
	/* this host's kernel says 2596.152 MHz; take an odd frequency */
	const uint64_t hz = 2596152347u;
	struct nb_calib_point a = reading(hz, 1000000000u, 20, 20);
	struct nb_calib_point b = reading(hz, 1250000000u, 30, 30);
	struct nb_calib c;
	double err_ppm, want_bound;

	(void)state;
	assert_int_equal(nb_calib_compute(&a, &b, 1, &c), 0);
	/* symmetric brackets: the middles are the true instants (to one
	 * tick of truncation in tsc_at) */
	err_ppm = fabs((double)c.hz - (double)hz) / (double)hz * 1e6;
	assert_true(err_ppm < 0.01);
	/* bound: (20 + 30 ticks) + 2 x 1 ns at hz, over 0.25 s of ticks */
	want_bound = (50.0 + 2.0 * hz / 1e9) / (0.25 * hz) * 1e6;
	assert_true(fabs(c.bound_ppm - want_bound) < 1e-3);
	assert_true(err_ppm <= c.bound_ppm);
	assert_true(fabs(c.span_s - 0.25) < 1e-12);
	/* the goal: better than 10 ppm with 0.25 s and 40-tick brackets */
	assert_true(c.bound_ppm < 10.0);
}

static void
test_asymmetric_bracket_within_bound(void **state)
{
	/* the reference read happened at the start of one bracket and the
	 * end of the other: the worst case the bound must still cover */
	const uint64_t hz = 2445401234u;
	struct nb_calib_point a = reading(hz, 5000000000u, 0, 400);
	struct nb_calib_point b = reading(hz, 5200000000u, 400, 0);
	struct nb_calib c;
	double err_ppm;

	(void)state;
	assert_int_equal(nb_calib_compute(&a, &b, 1, &c), 0);
	err_ppm = fabs((double)c.hz - (double)hz) / (double)hz * 1e6;
	/* the middles are off by 200 ticks each, in opposite ways */
	assert_true(err_ppm > 0.5);
	assert_true(err_ppm <= c.bound_ppm);
}

static void
test_random_readings_never_exceed_bound(void **state)
{
	uint64_t s = 42;
	int i;

	(void)state;
	for (i = 0; i < 10000; i++) {
		uint64_t hz = 1000000000u + rng_below(&s, 4000000000u);
		uint64_t t0 = 1000000u + rng_below(&s, 1000000000000u);
		uint64_t span = 1000000u + rng_below(&s, 2000000000u);
		struct nb_calib_point a = reading(hz, t0, rng_below(&s, 5000),
						  rng_below(&s, 5000));
		struct nb_calib_point b =
			reading(hz, t0 + span, rng_below(&s, 5000),
				rng_below(&s, 5000));
		struct nb_calib c;
		long double err;

		assert_int_equal(nb_calib_compute(&a, &b, 1, &c), 0);
		err = fabsl((long double)c.hz - hz) / hz * 1e6L;
		/* plus the truncation of tsc_at(): one tick per end */
		assert_true(err <= c.bound_ppm + 2e6L / (span * 1e-9L * hz));
	}
}

static void
test_best_is_narrowest(void **state)
{
	struct nb_calib_point p[4] = {
		{100, 5, 180},
		{200, 6, 230},
		{300, 7, 290} /* inverted */,
		{400, 8, 430},
	};

	(void)state;
	assert_ptr_equal(nb_calib_best(p, 4), &p[1]); /* 30 first of 30s */
	assert_null(nb_calib_best(p, 0));
	assert_null(nb_calib_best(&p[2], 1));
}

static void
test_rejects_nonsense(void **state)
{
	struct nb_calib_point a = {1000, 100, 1010};
	struct nb_calib_point same_ref = {2000, 100, 2010};
	struct nb_calib_point tsc_back = {500, 200, 510};
	struct nb_calib_point inverted = {3000, 300, 2990};
	struct nb_calib c;

	(void)state;
	assert_int_equal(nb_calib_compute(&a, &same_ref, 1, &c), -EINVAL);
	assert_int_equal(nb_calib_compute(&a, &tsc_back, 1, &c), -EINVAL);
	assert_int_equal(nb_calib_compute(&a, &inverted, 1, &c), -EINVAL);
	assert_int_equal(nb_calib_compute(&same_ref, &a, 1, &c), -EINVAL);
}

static void
test_ppm_diff(void **state)
{
	(void)state;
	/* DPDK's 2.600 GHz against this host's 2596.152 MHz: +1482.2 ppm */
	assert_true(fabs(nb_calib_ppm_diff(2596152000u, 2600000000u) -
			 1482.20) < 0.01);
	assert_true(fabs(nb_calib_ppm_diff(2000000000u, 1999980000u) + 10.0) <
		    1e-9);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_and_bound),
		cmocka_unit_test(test_asymmetric_bracket_within_bound),
		cmocka_unit_test(test_random_readings_never_exceed_bound),
		cmocka_unit_test(test_best_is_narrowest),
		cmocka_unit_test(test_rejects_nonsense),
		cmocka_unit_test(test_ppm_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
