/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for RFC 3550 interarrival jitter (app/core/nb_jitter.h).
 *
 * The reference is the RFC's real-valued estimator J += (|D| - J) / 16,
 * evaluated in double step by step here; the code keeps 16 * J in an
 * integer with rounding (appendix A.8), which stays within 0.5 ns of it.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "nb_jitter.h"
#include "nb_test_util.h"

/* |integer form / 16 - real form| <= 16 * 0.5 / 16 ns (rounding bound). */
#define JITTER_TOL 0.5

/* A realistic epoch-based ns timestamp, to exercise unsigned differences. */
#define T0 UINT64_C(1700000000000000000)

/* Feed one frame sent at tx with the given (possibly negative) transit. */
static void
feed(struct nb_jitter *j, uint64_t tx, int64_t transit)
{
	nb_jitter_update(j, tx, tx + (uint64_t)transit);
}

/*
 * Transit times (ns) and J after each frame, worked by hand:
 *   frame 0: no previous frame, no D, J = 0
 *   frame 1: D = 160   J = 0 + 160/16               = 10
 *   frame 2: D = 0     J = 10 - 10/16               = 9.375
 *   frame 3: D = 160   J = 9.375 + (160 - 9.375)/16 = 18.7890625
 *   frame 4: D = 0     J = 18.7890625 * 15/16       = 17.61474609375
 *   frame 5: D = 320   J = 17.61474609375 + 302.38525390625/16
 *                                                   = 36.513824462890625
 *   frame 6: D = 0     J = 36.51382... * 15/16      = 34.231710433959961
 *   frame 7: D = 500   J = 34.23171... + (500 - 34.23171...)/16
 *                                                   = 63.342228531837463
 *   frame 8: D = 0     J = 63.34222... * 15/16      = 59.383339248597622
 *   frame 9: D = 5180  J = 59.38333... + (5180 - 59.38333...)/16
 *                                                   = 379.421880545560270
 * and 16 * J as RFC 3550 A.8 keeps it, j16 += |D| - ((j16 + 8) >> 4).
 */
static const int64_t hand_transit[] = {
	100, 260, 260, 100, 100, 420, 420, -80, -80, 5100,
};
static const double hand_j[] = {
	0.0,
	10.0,
	9.375,
	18.7890625,
	17.61474609375,
	36.513824462890625,
	34.231710433959961,
	63.342228531837463,
	59.383339248597622,
	379.421880545560270,
};
static const uint64_t hand_j16[] = {
	0, 160, 150, 301, 282, 584, 547, 1013, 950, 6071,
};

#define N_HAND (sizeof(hand_transit) / sizeof(hand_transit[0]))

static void
test_hand_series(void **state)
{
	struct nb_jitter j;
	double ref = 0.0;
	size_t i;

	(void)state;
	nb_jitter_init(&j);
	for (i = 0; i < N_HAND; i++) {
		/* Irregular send times: only transit differences matter. */
		feed(&j, T0 + i * 1000 + (i % 3) * 77, hand_transit[i]);

		if (i > 0) {
			double d =
				(double)(hand_transit[i] - hand_transit[i - 1]);

			ref += (fabs(d) - ref) / 16.0;
		}
		/* The step-by-step formula agrees with the hand values... */
		assert_float_equal(ref, hand_j[i], 1e-9);
		/* ...the code agrees with both within the rounding bound... */
		assert_float_equal(nb_jitter_ns(&j), ref, JITTER_TOL);
		/* ...and does the RFC's integer arithmetic exactly. */
		assert_int_equal(j.j16, hand_j16[i]);
		assert_int_equal(j.samples, i + 1);
	}
}

/* The same series with the sign of every transit flipped: same |D|. */
static void
test_sign_symmetry(void **state)
{
	struct nb_jitter a, b;
	size_t i;

	(void)state;
	nb_jitter_init(&a);
	nb_jitter_init(&b);
	for (i = 0; i < N_HAND; i++) {
		feed(&a, T0 + i * 1000, hand_transit[i]);
		feed(&b, T0 + i * 1000, -hand_transit[i]);
		assert_int_equal(a.j16, b.j16);
	}
	assert_float_equal(nb_jitter_ns(&b), hand_j[N_HAND - 1], JITTER_TOL);
}

static void
test_constant_transit(void **state)
{
	static const int64_t transits[] = {0, 1, 12345, -5000, 3000000000LL};
	struct nb_jitter j;
	uint64_t st = 3, tx;
	size_t k, i;

	(void)state;
	for (k = 0; k < sizeof(transits) / sizeof(transits[0]); k++) {
		nb_jitter_init(&j);
		tx = T0;
		for (i = 0; i < 10000; i++) {
			/* Wildly varying send spacing, same transit. */
			tx += 1 + rng_next(&st) % 1000000;
			feed(&j, tx, transits[k]);
		}
		assert_int_equal(j.j16, 0);
		assert_true(nb_jitter_ns(&j) == 0.0);
		assert_int_equal(j.samples, 10000);
	}
}

static void
test_first_packet(void **state)
{
	struct nb_jitter j;

	(void)state;
	nb_jitter_init(&j);
	assert_true(nb_jitter_ns(&j) == 0.0);
	assert_int_equal(j.samples, 0);

	/* A big first transit is not compared with anything. */
	feed(&j, T0, 5000000);
	assert_int_equal(j.j16, 0);
	assert_true(nb_jitter_ns(&j) == 0.0);
	/* samples counts frames fed; the first yields no D. */
	assert_int_equal(j.samples, 1);

	/* The second is compared with the first, not with 0. */
	feed(&j, T0 + 1000, 5000000);
	assert_int_equal(j.j16, 0);
	feed(&j, T0 + 2000, 5000016);
	assert_int_equal(j.j16, 16);
	assert_float_equal(nb_jitter_ns(&j), 1.0, 1e-12);
	assert_int_equal(j.samples, 3);

	/* init resets: the next first frame again gives no sample. */
	nb_jitter_init(&j);
	feed(&j, 0, 999);
	assert_int_equal(j.j16, 0);
	assert_int_equal(j.samples, 1);
}

/* Long random series (including negative transit) against the formula. */
static void
test_random_series(void **state)
{
	static const int64_t bases[] = {0, 50000, -2000000, 40000000000LL};
	static const uint64_t spreads[] = {10, 1000, 100000, 100000000};
	struct nb_jitter j;
	uint64_t st = 99;
	size_t k, i;

	(void)state;
	for (k = 0; k < sizeof(bases) / sizeof(bases[0]); k++) {
		double ref = 0.0, worst = 0.0;
		int64_t prev = 0;

		nb_jitter_init(&j);
		for (i = 0; i < 100000; i++) {
			int64_t transit = bases[k] +
					  (int64_t)(rng_next(&st) % spreads[k]);

			feed(&j, T0 + i * 10000, transit);
			if (i > 0) {
				double d = (double)(transit - prev);

				ref += (fabs(d) - ref) / 16.0;
			}
			prev = transit;
			if (fabs(nb_jitter_ns(&j) - ref) > worst)
				worst = fabs(nb_jitter_ns(&j) - ref);
		}
		assert_true(worst <= JITTER_TOL);
		/* Uniform on [0, s): E|D| = s/3; sanity on the level. */
		assert_true(ref > (double)spreads[k] / 3.0 * 0.7);
		assert_true(ref < (double)spreads[k] / 3.0 * 1.3);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_series),
		cmocka_unit_test(test_sign_symmetry),
		cmocka_unit_test(test_constant_transit),
		cmocka_unit_test(test_first_packet),
		cmocka_unit_test(test_random_series),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
