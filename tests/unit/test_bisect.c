/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the bisection of RFC 2889 5.7 and 5.8
 * (app/core/nb_bisect.c) against simulated switches.  The address table
 * is a real table of learned addresses with a capacity (a trial starts
 * empty, as after the ageing wait, learns the addresses while it has
 * room, then floods a test frame for each address it does not hold); the
 * learner drops learning frames above its rate.  The oracle is the
 * switch's own capacity or rate: the search must report it exactly (or
 * within its step), say when it hit its ceiling, and stay within
 * 1 + log2(max / step) + 1 trials.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_bisect.h"

struct sw {
	uint32_t cap, held;
	uint64_t *table; /* learned source addresses */
};

static int
sw_holds(const struct sw *s, uint64_t mac)
{
	uint32_t i;

	for (i = 0; i < s->held; i++)
		if (s->table[i] == mac)
			return 1;
	return 0;
}

/* One address trial: the frames flooded in its test phase. */
static uint64_t
sw_trial(struct sw *s, uint64_t n)
{
	const uint64_t base = 0x020000000000ull;
	uint64_t i, flooded = 0;

	s->held = 0; /* aged out */
	for (i = 0; i < n; i++)
		if (s->held < s->cap && !sw_holds(s, base + i))
			s->table[s->held++] = base + i;
	for (i = 0; i < n; i++)
		flooded += !sw_holds(s, base + i);
	return flooded;
}

static unsigned int
log2_up(uint64_t v)
{
	unsigned int k = 0;

	while ((1ull << k) < v)
		k++;
	return k;
}

/* A capacity search up to max on a table of cap: the result, and the
 * checks every search must pass. */
static uint64_t
capacity(uint32_t cap, uint64_t max, int *ceiling)
{
	struct sw s = {cap, 0, calloc(cap + 1, sizeof(uint64_t))};
	struct nb_bisect b;
	uint64_t n, last_pass = 0;
	uint32_t trials = 0;

	assert_non_null(s.table);
	assert_int_equal(nb_bisect_init(&b, max, 1), 0);
	while (nb_bisect_next(&b, &n)) {
		int pass = sw_trial(&s, n) == 0;

		assert_true(n >= 1 && n <= max);
		if (trials == 0)
			assert_true(n == max); /* the ceiling first */
		if (pass && n > last_pass)
			last_pass = n;
		nb_bisect_report(&b, pass);
		trials++;
	}
	assert_int_equal(b.trials, trials);
	assert_true(trials <= 1 + log2_up(max) + 1);
	assert_int_equal(nb_bisect_result(&b), last_pass);
	*ceiling = b.ceiling;
	free(s.table);
	return nb_bisect_result(&b);
}

static void
test_capacity_exact(void **state)
{
	int ceiling;

	(void)state;
	assert_int_equal(capacity(1000, 65536, &ceiling), 1000);
	assert_false(ceiling);
	assert_int_equal(capacity(3000, 65536, &ceiling), 3000);
	assert_false(ceiling);
	assert_int_equal(capacity(3000, 4096, &ceiling), 3000);
	assert_int_equal(capacity(1, 4096, &ceiling), 1);
	assert_int_equal(capacity(4095, 4096, &ceiling), 4095);
	assert_false(ceiling);
	assert_int_equal(capacity(1000, 1, &ceiling), 1);
	assert_true(ceiling);
}

static void
test_capacity_ceiling(void **state)
{
	int ceiling;

	(void)state;
	/* a table larger than the search's range: one trial, at max */
	assert_int_equal(capacity(70000, 65536, &ceiling), 65536);
	assert_true(ceiling);
	assert_int_equal(capacity(4096, 4096, &ceiling), 4096);
	assert_true(ceiling);
}

static void
test_capacity_none(void **state)
{
	int ceiling;

	(void)state;
	/* learns nothing: even one address floods */
	assert_int_equal(capacity(0, 65536, &ceiling), 0);
	assert_false(ceiling);
}

/* A learner that takes up to rate learning frames/s: the highest rate
 * found is within step below it. */
static void
test_rate(void **state)
{
	static const uint64_t rates[] = {1, 999, 14880, 250000, 1488095};
	const uint64_t max = 1488095, step = max / 100;
	struct nb_bisect b;
	uint64_t v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		assert_int_equal(nb_bisect_init(&b, max, step), 0);
		while (nb_bisect_next(&b, &v))
			nb_bisect_report(&b, v <= rates[i]);
		assert_true(nb_bisect_result(&b) <= rates[i]);
		assert_true(b.hi > rates[i]);
		assert_true(rates[i] - nb_bisect_result(&b) < step ||
			    rates[i] >= max);
		assert_int_equal(b.ceiling, rates[i] >= max);
		assert_true(b.trials <= 1 + log2_up(max / step) + 1);
	}
}

static void
test_misuse(void **state)
{
	struct nb_bisect b;
	uint64_t v;

	(void)state;
	assert_int_equal(nb_bisect_init(&b, 0, 1), -EINVAL);
	assert_int_equal(nb_bisect_init(&b, 10, 0), -EINVAL);
	assert_int_equal(nb_bisect_init(&b, 10, 1), 0);
	nb_bisect_report(&b, 1); /* nothing asked: ignored */
	assert_int_equal(b.trials, 0);
	assert_int_equal(nb_bisect_next(&b, &v), 1);
	assert_int_equal(v, 10);
	assert_int_equal(nb_bisect_next(&b, &v), 1); /* asked again */
	assert_int_equal(v, 10);
	nb_bisect_report(&b, 0);
	assert_int_equal(nb_bisect_next(&b, &v), 1);
	assert_int_equal(v, 5);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capacity_exact),
		cmocka_unit_test(test_capacity_ceiling),
		cmocka_unit_test(test_capacity_none),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_misuse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
