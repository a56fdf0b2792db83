/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the responder's impairment (app/core/nb_impair.c): the
 * spec parser, each impairment's counts against what it must do (every
 * Nth exactly, probabilities within 5 sigma of a binomial, the policer
 * against rate x time + its bucket), the delay line's order and due
 * times, reordering as "passed by the next frame", overflow, and that
 * every frame offered is accounted for.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_impair.h"

static struct nb_impair_rec line[1024];

static void
init(struct nb_impair *im, const char *spec, uint32_t cap)
{
	struct nb_impair_cfg c;
	char why[128];

	assert_int_equal(nb_impair_parse(spec, &c, why, sizeof(why)), 0);
	memset(line, 0, sizeof(line));
	nb_impair_init(im, &c, line, cap, 12345, 0);
}

static void
test_parse(void **state)
{
	static const char *const bad[] = {"",
					  "every",
					  "every=",
					  "every=1",
					  "every=x",
					  "drop=2",
					  "drop=-0.1",
					  "drop=101%",
					  "delay=1000001",
					  "delay=-1",
					  "rate=max",
					  "rate=50%",
					  "rate=0",
					  "speed=1",
					  "every=10,",
					  ",every=10",
					  "every=10,,delay=1",
					  "drop=1%,every=10",
					  "=5",
					  NULL};
	struct nb_impair_cfg c;
	char why[128], txt[128];
	unsigned int i;

	(void)state;
	for (i = 0; bad[i] != NULL; i++) {
		why[0] = '\0';
		assert_int_equal(nb_impair_parse(bad[i], &c, why, sizeof(why)),
				 -EINVAL);
		assert_true(why[0] != '\0');
	}
	assert_int_equal(nb_impair_parse("every=100", &c, why, sizeof(why)), 0);
	assert_true(c.active && c.every == 100 && c.drop == 0);
	assert_int_equal(nb_impair_parse("drop=1%,delay=200,rate=10Mpps,"
					 "dup=0.5,reorder=2%",
					 &c, why, sizeof(why)),
			 0);
	assert_true(fabs(c.drop - 0.01) < 1e-15);
	assert_true(c.delay_ns == 200000);
	assert_int_equal(c.rate.kind, NB_RATE_PPS);
	assert_true(c.rate.value == 10e6);
	assert_true(c.dup == 0.5 && fabs(c.reorder - 0.02) < 1e-15);
	nb_impair_text(&c, txt, sizeof(txt));
	assert_string_equal(txt, "drop=1%,rate=10Mpps,dup=50%,reorder=2%,"
				 "delay=200");
	assert_int_equal(nb_impair_parse("rate=1Gl2", &c, why, sizeof(why)), 0);
	assert_int_equal(c.rate.kind, NB_RATE_BPS_L2);
	nb_impair_text(&c, txt, sizeof(txt));
	assert_string_equal(txt, "rate=1Gl2");
	/* the text reads back as the same spec */
	{
		struct nb_impair_cfg c2;

		assert_int_equal(nb_impair_parse("rate=2.5Kpps,every=7", &c,
						 why, sizeof(why)),
				 0);
		nb_impair_text(&c, txt, sizeof(txt));
		assert_string_equal(txt, "every=7,rate=2.5Kpps");
		assert_int_equal(nb_impair_parse(txt, &c2, why, sizeof(why)),
				 0);
		assert_memory_equal(&c, &c2, sizeof(c));
	}
}

static void
test_every(void **state)
{
	struct nb_impair im;
	uint64_t passed = 0, i;

	(void)state;
	init(&im, "every=100", 16);
	for (i = 1; i <= 100000; i++) {
		unsigned int k = nb_impair_decide(&im, 64, i * 1000, 1);

		assert_int_equal(k, i % 100 == 0 ? 0 : 1);
		passed += k;
	}
	assert_int_equal(im.c.dropped, 1000);
	assert_int_equal(passed, 99000);
	assert_int_equal(im.c.seen, 100000);
}

/* within 5 sigma of n p */
static void
assert_binomial(uint64_t k, uint64_t n, double p)
{
	double sd = sqrt(n * p * (1 - p));

	assert_true(fabs((double)k - n * p) <= 5 * sd + 1);
}

static void
test_drop_and_dup_rates(void **state)
{
	struct nb_impair im;
	uint64_t n = 200000, i, out = 0;

	(void)state;
	init(&im, "drop=10%,dup=5%", 16);
	for (i = 0; i < n; i++)
		out += nb_impair_decide(&im, 64, i, 1);
	assert_binomial(im.c.dropped, n, 0.10);
	assert_binomial(im.c.duplicated, n - im.c.dropped, 0.05);
	/* every frame accounted for */
	assert_int_equal(out, n - im.c.dropped + im.c.duplicated);
	/* probes are never duplicated */
	init(&im, "dup=100%", 16);
	assert_int_equal(nb_impair_decide(&im, 64, 0, 0), 1);
	assert_int_equal(nb_impair_decide(&im, 64, 1, 1), 2);
	/* the same seed gives the same decisions */
	{
		struct nb_impair a, b;

		init(&a, "drop=30%", 16);
		b = a;
		for (i = 0; i < 1000; i++)
			assert_int_equal(nb_impair_decide(&a, 64, i, 1),
					 nb_impair_decide(&b, 64, i, 1));
	}
}

/* The policer passes rate x time plus its bucket, whatever is offered. */
static void
test_policer(void **state)
{
	static const struct {
		const char *spec;
		uint32_t len;
		double offered_pps, rate, cost, burst;
	} cases[] = {
		{"rate=100M", 1518, 2 * 100e6 / (1538 * 8), 100e6, 1538 * 8,
		 100e6 / 100},
		{"rate=1Gl2", 64, 3e6, 1e9, 64 * 8, 1e9 / 100},
		{"rate=10kpps", 512, 50e3, 10e3, 1, 10e3 / 100},
		{"rate=1K", 64, 100, 1e3, 84 * 8, 2 * 9020 * 8},
	};
	unsigned int k;

	(void)state;
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct nb_impair im;
		double gap = 1e9 / cases[k].offered_pps, t;
		uint64_t passed = 0, n = 0;

		init(&im, cases[k].spec, 16);
		for (t = 0; t < 1e9; t += gap, n++)
			passed += nb_impair_decide(&im, cases[k].len,
						   (uint64_t)t, 1);
		/* bits passed <= rate x 1 s + the bucket, and close to it */
		assert_true(passed * cases[k].cost <=
			    cases[k].rate + cases[k].burst + cases[k].cost);
		assert_true(passed * cases[k].cost >=
			    cases[k].rate - 2 * cases[k].cost);
		assert_int_equal(im.c.policed + passed, n);
	}
}

static struct nb_impair_rec
rec(uint64_t seq)
{
	struct nb_impair_rec r = {
		.seq = seq, .ts = seq * 10, .stream = 1, .len = 64};
	return r;
}

static void
test_delay_line(void **state)
{
	struct nb_impair im;
	struct nb_impair_rec out[64];
	uint64_t i;

	(void)state;
	init(&im, "delay=200", 64);
	for (i = 0; i < 10; i++) {
		struct nb_impair_rec r = rec(i);

		assert_int_equal(nb_impair_push(&im, &r, 1000 + i * 50000), 0);
	}
	assert_int_equal(im.c.delayed, 10);
	assert_int_equal(nb_impair_pending(&im), 10);
	/* due at arrival + 200 us, in order */
	assert_int_equal(nb_impair_release(&im, 200999, out, 64, 0), 0);
	assert_int_equal(nb_impair_release(&im, 201000, out, 64, 0), 1);
	assert_int_equal(out[0].seq, 0);
	assert_int_equal(out[0].due_ns, 201000);
	assert_int_equal(nb_impair_release(&im, 351000, out, 64, 0), 3);
	assert_int_equal(out[0].seq, 1);
	assert_int_equal(out[2].seq, 3);
	assert_int_equal(nb_impair_release(&im, 351000, out, 2, 1), 2);
	assert_int_equal(out[1].seq, 5);
	/* flush: everything, due or not */
	assert_int_equal(nb_impair_release(&im, 0, out, 64, 1), 4);
	assert_int_equal(out[3].seq, 9);
	assert_int_equal(nb_impair_pending(&im), 0);
}

static void
test_overflow(void **state)
{
	struct nb_impair im;
	struct nb_impair_rec out[64];
	uint64_t i;

	(void)state;
	init(&im, "delay=1000", 8);
	for (i = 0; i < 12; i++) {
		struct nb_impair_rec r = rec(i);

		assert_int_equal(nb_impair_push(&im, &r, i),
				 i < 8 ? 0 : -ENOSPC);
	}
	assert_int_equal(im.c.overflow, 4);
	assert_int_equal(nb_impair_release(&im, 0, out, 64, 1), 8);
	assert_int_equal(out[7].seq, 7);
}

/* reorder=100%: each frame is held and passed by the next one. */
static void
test_reorder(void **state)
{
	struct nb_impair im;
	struct nb_impair_rec out[64];
	uint64_t i;
	unsigned int n;

	(void)state;
	init(&im, "reorder=100%", 64);
	for (i = 0; i < 6; i++) {
		struct nb_impair_rec r = rec(i);

		assert_int_equal(nb_impair_push(&im, &r, 100 * i), 0);
	}
	n = nb_impair_release(&im, 1000, out, 64, 0);
	/* 0 held, 1 passes it; 2 held, 3 passes it; 4 held, 5 passes it */
	assert_int_equal(n, 6);
	assert_int_equal(out[0].seq, 1);
	assert_int_equal(out[1].seq, 0);
	assert_int_equal(out[2].seq, 3);
	assert_int_equal(out[3].seq, 2);
	assert_int_equal(out[5].seq, 4);
	assert_int_equal(im.c.reordered, 3);
	/* a held frame nothing passes goes on after NB_IMPAIR_HOLD_NS */
	{
		struct nb_impair_rec r = rec(6);

		assert_int_equal(nb_impair_push(&im, &r, 5000), 0);
	}
	assert_int_equal(nb_impair_pending(&im), 1);
	assert_int_equal(nb_impair_release(&im, 5000 + NB_IMPAIR_HOLD_NS - 1,
					   out, 64, 0),
			 0);
	assert_int_equal(
		nb_impair_release(&im, 5000 + NB_IMPAIR_HOLD_NS, out, 64, 0),
		1);
	assert_int_equal(out[0].seq, 6);
	assert_int_equal(im.c.reordered, 3);
	/* with a delay, the held frame is due no earlier than its passer */
	init(&im, "reorder=100%,delay=10", 64);
	{
		struct nb_impair_rec a = rec(0), b = rec(1);

		nb_impair_push(&im, &a, 0);
		nb_impair_push(&im, &b, 500);
	}
	assert_int_equal(nb_impair_release(&im, 10499, out, 64, 0), 0);
	assert_int_equal(nb_impair_release(&im, 10500, out, 64, 0), 2);
	assert_int_equal(out[0].seq, 1);
	assert_int_equal(out[1].seq, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_every),
		cmocka_unit_test(test_drop_and_dup_rates),
		cmocka_unit_test(test_policer),
		cmocka_unit_test(test_delay_line),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_reorder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
