/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nb_clock: TSC ticks to ns with a fixed-point multiplier.  The expected
 * values are the exact quotients, computed here in 128-bit integers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "nb_clock.h"
#include "nb_test_util.h"

/* floor(delta * 1e9 / hz), exactly */
static uint64_t
exact_ns(uint64_t delta, uint64_t hz)
{
	return (uint64_t)((unsigned __int128)delta * 1000000000u / hz);
}

static void
test_known_values(void **state)
{
	struct nb_clock c;

	(void)state;
	/* this host's measured TSC */
	nb_clock_init(&c, 2596152000u, 1000);
	assert_int_equal(nb_clock_ns(&c, 1000), 0);
	/* one second of ticks is one second, to the ns */
	assert_int_equal(nb_clock_ns(&c, 1000 + 2596152000u), 999999999);
	assert_true(nb_clock_ns(&c, 1000 + 2596152000u) <= 1000000000u);
	/* 1 GHz: ticks are ns */
	nb_clock_init(&c, 1000000000u, 0);
	assert_int_equal(nb_clock_ns(&c, 123456789), 123456789);
	assert_int_equal(nb_clock_ticks(&c, 0.5), 500000000);
}

static void
test_random_within_bound(void **state)
{
	uint64_t s = 99;
	int i;

	(void)state;
	for (i = 0; i < 200000; i++) {
		struct nb_clock c;
		uint64_t hz = 500000000u + rng_below(&s, 5000000000u);
		uint64_t epoch = rng_next(&s) >> 2;
		/* up to about a day of ticks */
		uint64_t delta = rng_below(&s, 1ull << 48);
		uint64_t want = exact_ns(delta, hz), got;

		nb_clock_init(&c, hz, epoch);
		got = nb_clock_ns(&c, epoch + delta);
		/* the multiplier is floor(2^32 * 1e9 / hz): never above,
		 * and at most delta / 2^32 + 1 ns below */
		assert_true(got <= want);
		assert_true(want - got <= (delta >> 32) + 1);
	}
}

static void
test_relative_error_at_rates(void **state)
{
	struct nb_clock c;
	uint64_t delta = 10ull * 2445401234u; /* 10 s */

	(void)state;
	/* a rate over 10 s is off by less than 1e-9 from the conversion */
	nb_clock_init(&c, 2445401234u, 0);
	assert_true(exact_ns(delta, 2445401234u) - nb_clock_ns(&c, delta) < 10);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_values),
		cmocka_unit_test(test_random_within_bound),
		cmocka_unit_test(test_relative_error_at_rates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
