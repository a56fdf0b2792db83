/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the token bucket (app/core/nb_tokens.c).  The reference is
 * a different formulation of the same limit, the GCRA's virtual scheduling
 * (ATM's cell-rate check): in units of ns x rate, each event moves a
 * theoretical arrival time TAT by 1e9, and an event conforms when TAT - now x
 * rate is at most (burst - 1) x 1e9.  Both are exact in integers, so they must
 * agree event by event.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "nb_test_util.h"

#include "nb_tokens.h"

#define NS 1000000000ull

struct gcra {
	unsigned __int128 tat;
	uint64_t rate, burst;
};

static int
gcra_take(struct gcra *g, uint64_t now_ns)
{
	unsigned __int128 now = (unsigned __int128)now_ns * g->rate;
	unsigned __int128 tat = g->tat > now ? g->tat : now;

	if (tat - now > (unsigned __int128)(g->burst - 1) * NS)
		return 0;
	g->tat = tat + NS;
	return 1;
}

static void
test_burst_then_rate(void **state)
{
	struct nb_tokens t;
	unsigned int i, ok = 0;
	uint64_t now;

	(void)state;
	nb_tokens_init(&t, 100, 20, 5000);
	for (i = 0; i < 25; i++)
		ok += (unsigned int)nb_tokens_take(&t, 5000);
	assert_int_equal(ok, 20);
	assert_int_equal(t.refused, 5);
	/* one token per 10 ms: not at 9.999 ms, yes at 10 ms */
	assert_int_equal(nb_tokens_take(&t, 5000 + 9999999), 0);
	assert_int_equal(nb_tokens_take(&t, 5000 + 10000000), 1);
	assert_int_equal(nb_tokens_take(&t, 5000 + 10000000), 0);
	/* a flood of one per 100 us for 10 s: 100/s after the burst */
	nb_tokens_init(&t, 100, 20, 0);
	ok = 0;
	for (now = 0; now < 10 * NS; now += 100000)
		ok += (unsigned int)nb_tokens_take(&t, now);
	/* 20 at once, then one every 10 ms from 10 ms to 9.99 s */
	assert_int_equal(ok, 20 + 999);
	assert_int_equal(t.passed, ok);
	assert_int_equal(t.passed + t.refused, 100000);
	/* a long quiet spell refills to the burst, not beyond */
	ok = 0;
	for (i = 0; i < 30; i++)
		ok += (unsigned int)nb_tokens_take(&t, 3600 * NS);
	assert_int_equal(ok, 20);
}

static void
test_edges(void **state)
{
	struct nb_tokens t;
	unsigned int i, ok = 0;

	(void)state;
	/* rate 0: nothing */
	nb_tokens_init(&t, 0, 20, 0);
	assert_int_equal(nb_tokens_take(&t, 0), 0);
	assert_int_equal(nb_tokens_take(&t, UINT64_MAX), 0);
	/* burst 0 means 1 */
	nb_tokens_init(&t, 1, 0, 0);
	assert_int_equal(nb_tokens_take(&t, 0), 1);
	assert_int_equal(nb_tokens_take(&t, NS - 1), 0);
	assert_int_equal(nb_tokens_take(&t, NS), 1);
	/* a clock that jumps to the end of time: no overflow, full bucket */
	nb_tokens_init(&t, NB_TOKENS_MAX_RATE, NB_TOKENS_MAX_BURST, 0);
	for (i = 0; i < 10; i++)
		ok += (unsigned int)nb_tokens_take(&t, UINT64_MAX);
	assert_int_equal(ok, 10);
	/* values above the maxima are clamped */
	nb_tokens_init(&t, UINT64_MAX, UINT64_MAX, 0);
	assert_int_equal(t.rate, NB_TOKENS_MAX_RATE);
	assert_int_equal(t.cap, (uint64_t)NB_TOKENS_MAX_BURST * NS);
	/* a clock that goes back refills nothing */
	nb_tokens_init(&t, 100, 1, 1000 * NS);
	assert_int_equal(nb_tokens_take(&t, 1000 * NS), 1);
	assert_int_equal(nb_tokens_take(&t, 999 * NS), 0);
	assert_int_equal(nb_tokens_take(&t, 999 * NS + 9999999), 0);
	assert_int_equal(nb_tokens_take(&t, 999 * NS + 10000000), 1);
}

static void
test_against_gcra(void **state)
{
	static const uint64_t rates[] = {1,    3,	100,
					 7919, 1000000, NB_TOKENS_MAX_RATE};
	static const uint64_t bursts[] = {1, 2, 20, 1000};
	uint64_t rng = 0x6e62746f6b656e73ull;
	size_t ri, bi;
	unsigned int k;

	(void)state;
	for (ri = 0; ri < sizeof(rates) / sizeof(rates[0]); ri++) {
		for (bi = 0; bi < sizeof(bursts) / sizeof(bursts[0]); bi++) {
			struct nb_tokens t;
			struct gcra g = {0, rates[ri], bursts[bi]};
			uint64_t now = rng_next(&rng) % NS;
			/* gaps around one token's time, and long ones */
			uint64_t step = NS / rates[ri] + 1;
			unsigned int agree = 0, passed = 0;

			nb_tokens_init(&t, rates[ri], bursts[bi], now);
			g.tat = (unsigned __int128)now * rates[ri];
			for (k = 0; k < 20000; k++) {
				uint64_t r = rng_next(&rng) % 100;
				int a, b;

				/* mean gap below a token's time: it empties */
				if (r < 70)
					now += rng_next(&rng) % (step / 2 + 1);
				else if (r < 97)
					now += rng_next(&rng) % (2 * step);
				else if (r < 99)
					now += rng_next(&rng) %
					       (bursts[bi] * step + 1);
				a = nb_tokens_take(&t, now);
				b = gcra_take(&g, now);
				assert_int_equal(a, b);
				agree++;
				passed += (unsigned int)a;
			}
			assert_int_equal(agree, 20000);
			assert_int_equal(t.passed, passed);
			/* the cases test something: both answers occur */
			assert_true(passed > 0);
			if (bursts[bi] <= 20)
				assert_true(t.refused > 0);
		}
	}
}

/* A sender that asks every step_ns for T ns and sends a frame of `frame`
 * units whenever allowed: the units it spent. */
static uint64_t
budget_run(struct nb_budget *b, uint64_t t0, uint64_t T, uint64_t step_ns,
	   uint32_t frame)
{
	uint64_t t, spent = 0;

	for (t = t0; t < t0 + T; t += step_ns)
		if (nb_budget_ok(b, t)) {
			nb_budget_spend(b, frame);
			spent += frame;
		}
	return spent;
}

static void
test_budget(void **state)
{
	struct nb_budget b;
	uint64_t spent, want;

	(void)state;
	/* 1.25e9 B/s (10 Gbit/s), a 64 KiB burst, 1538-byte frames asked
	 * for every 50 ns for 1 s: the rate, plus at most burst and a frame */
	nb_budget_init(&b, 1250000000ull, 65536, 0);
	spent = budget_run(&b, 0, 1000000000ull, 50, 1538);
	want = 1250000000ull;
	assert_true(spent >= want - 1538);
	assert_true(spent <= want + 65536 + 1538);
	assert_true(b.held > 0);
	/* idle 10 s: no more than a burst (and a frame) at once after it */
	spent = budget_run(&b, 11000000000ull, 1, 1, 1538);
	assert_int_equal(spent, 1538);
	spent = budget_run(&b, 11000000000ull, 1000, 1, 1538);
	assert_true(spent <= 65536 + 1538 + 1538);
	assert_true(spent >= 65536 - 1538);
	/* a slow rate loses nothing to rounding: 1000 frames/s asked every
	 * 7 ns for 2 s, cost 1 a frame, burst 1 */
	nb_budget_init(&b, 1000, 1, 0);
	spent = budget_run(&b, 0, 2000000000ull, 7, 1);
	assert_true(spent >= 1999 && spent <= 2002);
	/* a clock that goes back refills nothing */
	nb_budget_init(&b, 1000, 1, 5000000000ull);
	assert_true(nb_budget_ok(&b, 5000000000ull));
	nb_budget_spend(&b, 2); /* overdrawn by one unit: 1 ms to pay */
	assert_false(nb_budget_ok(&b, 1000000000ull));
	assert_false(nb_budget_ok(&b, 1000000000ull + 1000000));
	assert_true(nb_budget_ok(&b, 1000000000ull + 1000001));
	/* no limit */
	nb_budget_init(&b, 0, 1, 0);
	assert_int_equal(budget_run(&b, 0, 1000, 1, 9000), 1000 * 9000);
	assert_int_equal(b.held, 0);
	/* rates above the maximum are clamped */
	nb_budget_init(&b, UINT64_MAX, UINT64_MAX, 0);
	assert_int_equal(b.rate, NB_BUDGET_MAX_RATE);
	assert_int_equal(b.cap, (int64_t)NB_BUDGET_MAX_BURST * 1000000000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_burst_then_rate),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_against_gcra),
		cmocka_unit_test(test_budget),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
