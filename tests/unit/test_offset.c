/* SPDX-License-Identifier: BSD-3-Clause */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "nb_offset.h"
#include "nb_test_util.h"

/*
 * Simulate: the peer's clock runs `theta` ns ahead of ours; one-way delays
 * d_out and d_back; the peer holds the request for `hold` ns.
 */
static void
exchange(struct nb_offset *o, uint64_t t1, int64_t theta, uint64_t d_out,
	 uint64_t d_back, uint64_t hold)
{
	uint64_t t2 = (uint64_t)((int64_t)(t1 + d_out) + theta);
	uint64_t t3 = t2 + hold;
	uint64_t t4 = (uint64_t)((int64_t)t3 - theta) + d_back;

	nb_offset_sample(o, t1, t2, t3, t4);
}

static void
test_symmetric_exact(void **state)
{
	struct nb_offset o;

	(void)state;
	nb_offset_init(&o);
	exchange(&o, 1000000, 123456, 5000, 5000, 700);
	assert_int_equal(o.offset_ns, 123456);
	assert_int_equal(o.delay_ns, 10000);
	assert_int_equal(o.bound_ns, 5000);
	nb_offset_init(&o);
	exchange(&o, 1000000000, -987654321, 20, 20, 3);
	assert_int_equal(o.offset_ns, -987654321);
}

static void
test_asymmetric_within_bound(void **state)
{
	struct nb_offset o;
	int64_t theta = 5000000, err;

	(void)state;
	nb_offset_init(&o);
	exchange(&o, 777, theta, 9000, 1000, 50);
	err = o.offset_ns - theta;
	if (err < 0)
		err = -err;
	/* error = (d_out - d_back) / 2 = 4000, bound = delay / 2 = 5000 */
	assert_int_equal(err, 4000);
	assert_true((uint64_t)err <= o.bound_ns);
}

static void
test_best_sample_kept(void **state)
{
	struct nb_offset o;

	(void)state;
	nb_offset_init(&o);
	exchange(&o, 0, 1000, 50000, 10000, 0);	  /* delay 60000 */
	exchange(&o, 100000, 1000, 300, 300, 0);  /* delay 600: best */
	exchange(&o, 200000, 1000, 9000, 100, 0); /* delay 9100 */
	assert_int_equal(o.samples, 3);
	assert_int_equal(o.delay_ns, 600);
	assert_int_equal(o.offset_ns, 1000);
	assert_int_equal(o.bound_ns, 300);
}

static void
test_tie_keeps_first(void **state)
{
	struct nb_offset o;

	(void)state;
	nb_offset_init(&o);
	exchange(&o, 0, 1000, 300, 300, 0); /* delay 600, offset 1000 */
	/* the same delay, another offset: not taken */
	assert_int_equal(nb_offset_sample(&o, 100000, 100000 + 2300,
					  100000 + 2300, 100000 + 600),
			 0);
	assert_int_equal(o.offset_ns, 1000);
	assert_int_equal(o.samples, 2);
	/* one ns better: taken */
	exchange(&o, 200000, 1000, 300, 299, 0);
	assert_int_equal(o.delay_ns, 599);
}

static void
test_odd_delay_rounds_bound_up(void **state)
{
	struct nb_offset o;

	(void)state;
	nb_offset_init(&o);
	/* out 6, back 3: delay 9, offset 1000 + (6 - 3) / 2 = 1001.5,
	 * truncated to 1001; the true 1000 is 1 off, the bound 5 >= 4.5 */
	exchange(&o, 50, 1000, 6, 3, 0);
	assert_int_equal(o.delay_ns, 9);
	assert_int_equal(o.bound_ns, 5);
	assert_int_equal(o.offset_ns, 1001);
	/* negative: out 3, back 6, offset -1000 - 1.5 truncates to -1001 */
	nb_offset_init(&o);
	exchange(&o, 5000, -1000, 3, 6, 0);
	assert_int_equal(o.offset_ns, -1001);
	assert_int_equal(o.bound_ns, 5);
}

static void
test_random_paths_within_bound(void **state)
{
	uint64_t s = 7;
	int i;

	(void)state;
	for (i = 0; i < 100000; i++) {
		struct nb_offset o;
		int64_t theta = (int64_t)rng_below(&s, 2000000000001ull) -
				1000000000000ll;
		uint64_t t1 = 2000000000000ull + rng_below(&s, 1ull << 40);
		uint64_t out = rng_below(&s, 1000000);
		uint64_t back = rng_below(&s, 1000000);
		int64_t err;

		nb_offset_init(&o);
		exchange(&o, t1, theta, out, back, rng_below(&s, 100000));
		assert_int_equal(o.delay_ns, out + back);
		err = o.offset_ns - theta;
		if (err < 0)
			err = -err;
		/* the truncation is already inside: |err| <= ceil(delay/2) */
		assert_true((uint64_t)err <= o.bound_ns);
		assert_true(o.bound_ns == (out + back + 1) / 2);
	}
}

static void
test_large_times_no_overflow(void **state)
{
	struct nb_offset o;
	uint64_t t1 = UINT64_MAX - 100000;

	(void)state;
	/* clocks near the top of their range, the peer's 2^62 ns behind:
	 * (int64_t)t2 - (int64_t)t1 would overflow */
	nb_offset_init(&o);
	assert_int_equal(nb_offset_sample(&o, t1 - 3000,
					  t1 - 3000 + 100 - (1ull << 62),
					  t1 - 3000 + 150 - (1ull << 62),
					  t1 - 3000 + 250),
			 1);
	assert_int_equal(o.delay_ns, 200);
	assert_int_equal(o.offset_ns, -(int64_t)(1ull << 62));
}

static void
test_invalid(void **state)
{
	struct nb_offset o;

	(void)state;
	nb_offset_init(&o);
	assert_int_equal(nb_offset_sample(&o, 10, 0, 5, 5), -1);  /* t4 < t1 */
	assert_int_equal(nb_offset_sample(&o, 0, 10, 5, 20), -1); /* t3 < t2 */
	assert_int_equal(o.samples, 0);
	assert_int_equal(o.bound_ns, UINT64_MAX);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symmetric_exact),
		cmocka_unit_test(test_asymmetric_within_bound),
		cmocka_unit_test(test_best_sample_kept),
		cmocka_unit_test(test_tie_keeps_first),
		cmocka_unit_test(test_odd_delay_rounds_bound_up),
		cmocka_unit_test(test_random_paths_within_bound),
		cmocka_unit_test(test_large_times_no_overflow),
		cmocka_unit_test(test_invalid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
