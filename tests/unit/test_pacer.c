/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for app/core/nb_pacer.c (and the inline nb_pacer_due()).
 * Time is simulated; every expectation is computed independently in 128-bit
 * arithmetic from the definition
 *     deadline(k) = start + floor(k * H / N),  H = hz * pps_den, N = pps_num.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "nb_test_util.h"

#include "nb_pacer.h"

#define BURST 32

typedef unsigned __int128 u128;

static uint64_t
gcd_u64(uint64_t a, uint64_t b)
{
	while (b != 0) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

struct model {
	uint64_t start;
	u128 h; /* hz * pps_den, not reduced */
	u128 n; /* pps_num, not reduced */
};

static struct model
model_of(uint64_t hz, uint64_t num, uint64_t den, uint64_t start)
{
	struct model m;

	m.start = start;
	m.h = (u128)hz * den;
	m.n = num;
	return m;
}

/*
 * Number of k >= 0 with start + floor(k * H / N) <= now:
 * floor(k H / N) <= t  <=>  k H < (t + 1) N  <=>  k <= ((t + 1) N - 1) / H.
 */
static uint64_t
model_count(const struct model *m, uint64_t now)
{
	u128 t;

	if (now < m->start)
		return 0;
	t = (u128)(now - m->start);
	return (uint64_t)(((t + 1) * m->n - 1) / m->h + 1);
}

/* Absolute deadline of packet k. */
static uint64_t
model_deadline(const struct model *m, uint64_t k)
{
	return m->start + (uint64_t)((u128)k * m->h / m->n);
}

/* Ticks between packets, rounded up (at least 1). */
static uint64_t
model_interval(const struct model *m)
{
	u128 i = (m->h + m->n - 1) / m->n;

	return i == 0 ? 1 : (uint64_t)i;
}

/*
 * One call at time now: the pacer must release exactly
 * min(max, count(now) - issued) and point at the next deadline.
 */
static void
check_call(struct nb_pacer *p, const struct model *m, uint64_t now,
	   unsigned int max)
{
	uint64_t before = p->issued;
	uint64_t avail = model_count(m, now);
	uint64_t want;
	unsigned int n;

	assert_true(avail >= before);
	want = avail - before;
	if (want > max)
		want = max;
	n = nb_pacer_due(p, now, max);
	assert_true(n <= max);
	if (n != want || p->issued != before + want) {
		print_error("now=%llu: released %u, want %llu (issued %llu)\n",
			    (unsigned long long)now, n,
			    (unsigned long long)want,
			    (unsigned long long)before);
		fail();
	}
	assert_int_equal(p->next, model_deadline(m, p->issued));
	assert_true(p->rem < p->div);
	if (p->issued < avail)
		assert_int_equal(n, max); /* only the cap holds packets back */
	else
		assert_true(p->next > now);
}

struct rate {
	uint64_t hz, num, den;
};

/*
 * Random walk of a simulated clock: mostly steps of up to ~2 * BURST/2
 * packet intervals (so the cap rarely bites), sometimes zero steps,
 * sometimes a long stall after which the pacer must catch up BURST at a
 * time.
 */
static void
simulate(const struct rate *r, uint64_t start, unsigned int nb_steps,
	 uint64_t seed)
{
	struct model m = model_of(r->hz, r->num, r->den, start);
	uint64_t step_max = (uint64_t)((u128)BURST * m.h / m.n);
	uint64_t now;
	struct nb_pacer p;
	unsigned int i;

	if (step_max == 0)
		step_max = 1;

	assert_int_equal(nb_pacer_init(&p, r->hz, r->num, r->den, start), 0);
	assert_int_equal(p.issued, 0);
	assert_int_equal(p.next, start);
	/* nothing before start, packet 0 exactly at start */
	if (start > 0) {
		check_call(&p, &m, 0, BURST);
		check_call(&p, &m, start - 1, BURST);
		assert_int_equal(p.issued, 0);
	}
	assert_int_equal(nb_pacer_due(&p, start, 1), 1);
	assert_int_equal(nb_pacer_due(&p, start, BURST),
			 (unsigned int)(model_count(&m, start) - 1 < BURST
						? model_count(&m, start) - 1
						: BURST));
	now = start;
	for (i = 0; i < nb_steps; i++) {
		uint64_t x = rng_next(&seed);

		if (x % 1000 == 0)
			now += step_max * (1 + x % 97); /* stall */
		else if (x % 17 == 0)
			; /* same time again */
		else
			now += 1 + (x >> 20) % step_max;
		check_call(&p, &m, now, BURST);
	}
}

static const struct rate rates[] = {
	/* 1 pps at 1 GHz */
	{UINT64_C(1000000000), 1, 1},
	/* 10G L1 at 64 B = 14880952.38 pps */
	{UINT64_C(2200000000), UINT64_C(10000000000), 672},
	{UINT64_C(3000000000), UINT64_C(10000000000), 672},
	/* the same given as "14880952.38pps" */
	{UINT64_C(2200000000), UINT64_C(14880952380), 1000},
	/* 10G L1 at 1518 B = 812743.82 pps */
	{UINT64_C(2100000000), UINT64_C(10000000000), 12304},
	{UINT64_C(2500000000), UINT64_C(8127438), 10},
	/* large prime denominator (999999937) and numerator (2^31 - 1) */
	{UINT64_C(3000000000), UINT64_C(10000000000), UINT64_C(999999937)},
	{UINT64_C(2400000000), UINT64_C(2147483647), 1000},
	{UINT64_C(2999999929), UINT64_C(4294967291), UINT64_C(65521)},
	/* 10G imix */
	{UINT64_C(2300000000), UINT64_C(120000000000), 36656},
	/* faster than the clock: several packets per tick */
	{UINT64_C(1000000), UINT64_C(14880952380), 1000},
	/* a numerator above 2^63 (largest prime < 2^64), ~1.02 pps/tick */
	{UINT64_C(1000000000), UINT64_C(18446744073709551557),
	 UINT64_C(18000000000)},
	/* slow: 1 packet every 1000 s */
	{UINT64_C(3000000000), 1, 1000},
	/* fractional pps with common factors everywhere */
	{UINT64_C(2000000000), UINT64_C(3000000), 6},
};

static void
test_pacer_exact(void **state)
{
	static const uint64_t starts[] = {
		0,
		1,
		123456789,
		UINT64_C(1) << 40,
	};
	unsigned int i, j;

	(void)state;
	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		for (j = 0; j < sizeof(starts) / sizeof(starts[0]); j++)
			simulate(&rates[i], starts[j], 20000,
				 i * 131 + j * 7 + 1);
}

/* Internal state matches the reduced fraction. */
static void
test_pacer_init(void **state)
{
	struct nb_pacer p;

	(void)state;
	assert_int_equal(nb_pacer_init(&p, UINT64_C(1000000000), 1, 1, 5), 0);
	assert_int_equal(p.next, 5);
	assert_int_equal(p.step, UINT64_C(1000000000));
	assert_int_equal(p.rem_step, 0);
	assert_int_equal(p.rem, 0);
	assert_int_equal(p.issued, 0);

	/* 2.2 GHz / (1e10 / 672) = 147.84 ticks */
	assert_int_equal(nb_pacer_init(&p, UINT64_C(2200000000),
				       UINT64_C(10000000000), 672, 0),
			 0);
	assert_int_equal(p.step, 147);
	/* step + rem_step / div == 147.84 exactly */
	assert_true(((u128)p.step * p.div + p.rem_step) * 100 ==
		    (u128)14784 * p.div);
	assert_true(p.rem_step < p.div);

	/* faster than the clock: step 0 */
	assert_int_equal(nb_pacer_init(&p, 1000, 3000, 1, 0), 0);
	assert_int_equal(p.step, 0);

	/* errors */
	assert_int_equal(nb_pacer_init(NULL, 1, 1, 1, 0), -EINVAL);
	assert_int_equal(nb_pacer_init(&p, 0, 1, 1, 0), -EINVAL);
	assert_int_equal(nb_pacer_init(&p, 1, 1, 0, 0), -EINVAL);
	assert_int_equal(nb_pacer_init(&p, 0, 0, 1, 0), -EINVAL);
	assert_int_equal(nb_pacer_init(&p, UINT64_MAX, 1, 2, 0), -EINVAL);
	assert_int_equal(nb_pacer_init(&p, UINT64_C(3000000000), 1,
				       UINT64_C(1) << 33, 0),
			 -EINVAL);

	/* common factors never cause a spurious overflow */
	assert_int_equal(nb_pacer_init(&p, UINT64_C(3000000000),
				       UINT64_C(1) << 40, UINT64_C(1) << 40, 0),
			 0);
	assert_int_equal(p.step, UINT64_C(3000000000));
	assert_int_equal(p.rem_step, 0);
	/* hz * den = 33 * 2^62 overflows, but hz / num = 2^52 */
	assert_int_equal(nb_pacer_init(&p, UINT64_C(1) << 62, 1024, 33, 0), 0);
	assert_int_equal(p.step, UINT64_C(33) << 52);
	assert_int_equal(p.rem_step, 0);
	/* exactly UINT64_MAX ticks per packet fits */
	assert_int_equal(nb_pacer_init(&p, UINT64_MAX, 1, 1, 0), 0);
	assert_int_equal(p.step, UINT64_MAX);
}

/* Run 10^7 packets of 14880952.38 pps at 2.2 GHz: no drift. */
static void
test_pacer_long_run(void **state)
{
	static const struct rate r = {UINT64_C(2200000000),
				      UINT64_C(10000000000), 672};
	const uint64_t total = 10000000;
	const uint64_t start = 987654321;
	struct model m = model_of(r.hz, r.num, r.den, start);
	uint64_t last = model_deadline(&m, total - 1);
	uint64_t seed = 42, now = start;
	struct nb_pacer p;
	unsigned int n;

	(void)state;
	assert_int_equal(nb_pacer_init(&p, r.hz, r.num, r.den, start), 0);
	while (now < last - 1) {
		now += 1 + rng_next(&seed) % (BURST * 148);
		if (now > last - 1)
			now = last - 1;
		check_call(&p, &m, now, BURST);
	}
	/* one tick before the 10^7th deadline: 10^7 - 1 released */
	do
		n = nb_pacer_due(&p, now, BURST);
	while (n != 0);
	assert_int_equal(p.issued, total - 1);
	/* at the deadline: exactly one more, then nothing */
	assert_int_equal(nb_pacer_due(&p, last, BURST), 1);
	assert_int_equal(nb_pacer_due(&p, last, BURST), 0);
	assert_int_equal(p.issued, total);
	assert_int_equal(model_count(&m, last), total);
	assert_int_equal(p.next, model_deadline(&m, total));
	/* 10^7 packets take 10^7 * 147.84 ticks to within one tick */
	assert_int_equal(last - start, (total - 1) * 14784 / 100);
}

/* The cap is respected for any max, and a stall drains max at a time. */
static void
test_pacer_cap(void **state)
{
	static const unsigned int maxes[] = {0, 1, 2, 7, 32, 64, 1000};
	const unsigned int nb_maxes = sizeof(maxes) / sizeof(maxes[0]);
	const struct rate *r = &rates[2];
	struct model m = model_of(r->hz, r->num, r->den, 1000);
	uint64_t seed = 7, now = 1000;
	struct nb_pacer p;
	unsigned int i;

	(void)state;
	assert_int_equal(nb_pacer_init(&p, r->hz, r->num, r->den, 1000), 0);
	for (i = 0; i < 100000; i++) {
		uint64_t x = rng_next(&seed);

		now += x % 20000;
		check_call(&p, &m, now, maxes[(x >> 32) % nb_maxes]);
	}
	/* stall of 100000 packets, drain BURST at a time */
	now = model_deadline(&m, p.issued + 100000) - 1;
	while (p.issued + BURST <= model_count(&m, now))
		assert_int_equal(nb_pacer_due(&p, now, BURST), BURST);
	assert_int_equal(nb_pacer_due(&p, now, BURST),
			 model_count(&m, now) - p.issued);
	assert_int_equal(nb_pacer_due(&p, now, BURST), 0);
	assert_int_equal(p.issued, model_count(&m, now));
}

/* A paced pacer is not unlimited, at any rate; unlimit() makes it so. */
static void
test_pacer_unlimit(void **state)
{
	static const uint64_t rates[][2] = {
		{1, 1},
		{14880952, 1},
		{UINT64_C(10000000000), 1},
		{1, 1000},
		{UINT64_C(3000000001), 1},
	};
	struct nb_pacer p;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		assert_int_equal(nb_pacer_init(&p, UINT64_C(3000000000),
					       rates[i][0], rates[i][1], 1000),
				 0);
		assert_false(nb_pacer_unlimited(&p));
		/* at 1 pps nothing is due a tick after the start... */
		if (i == 0)
			assert_int_equal(nb_pacer_due(&p, 1001, 64), 1);
		nb_pacer_unlimit(&p);
		assert_true(nb_pacer_unlimited(&p));
		/* ...unlimited, everything asked for is, at any time */
		assert_int_equal(nb_pacer_due(&p, 0, 64), 64);
		assert_int_equal(nb_pacer_due(&p, 1001, 7), 7);
	}
}

static void
test_pacer_unlimited(void **state)
{
	static const uint64_t times[] = {
		0, 1, 999, 1000, 1001, 5, UINT64_C(1) << 63, UINT64_MAX, 3,
	};
	struct nb_pacer p;
	uint64_t issued = 0;
	unsigned int i, max;

	(void)state;
	assert_int_equal(nb_pacer_init(&p, UINT64_C(3000000000), 0, 1, 1000),
			 0);
	assert_true(nb_pacer_unlimited(&p));
	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		for (max = 0; max <= 64; max += 8) {
			assert_int_equal(nb_pacer_due(&p, times[i], max), max);
			issued += max;
			assert_int_equal(nb_pacer_due(&p, times[i], 1), 1);
			issued++;
		}
	}
	assert_int_equal(p.issued, issued);
	for (i = 0; i < 100000; i++)
		assert_int_equal(nb_pacer_due(&p, i, BURST), BURST);
	/* den is still checked */
	assert_int_equal(nb_pacer_init(&p, 1, 0, 0, 0), -EINVAL);
}

static const struct rate split_rates[] = {
	{UINT64_C(2200000000), UINT64_C(10000000000), 672},
	{UINT64_C(3000000000), UINT64_C(14880952380), 1000},
	{UINT64_C(2100000000), UINT64_C(10000000000), 12304},
	{UINT64_C(3000000000), UINT64_C(10000000000), UINT64_C(999999937)},
	{UINT64_C(2000000000), UINT64_C(120000000000), 36656},
	{UINT64_C(1000000000), 7, 3},
	{UINT64_C(1000000000), 840, 1},
};

static void
test_split_rate(void **state)
{
	unsigned int i, w;

	(void)state;
	for (i = 0; i < sizeof(split_rates) / sizeof(split_rates[0]); i++) {
		const struct rate *r = &split_rates[i];

		for (w = 1; w <= 8; w++) {
			uint64_t num, den;

			assert_int_equal(
				nb_pacer_split(r->num, r->den, w, &num, &den),
				0);
			/* w * num / den == r->num / r->den exactly */
			assert_true((u128)w * num * r->den ==
				    (u128)r->num * den);
			assert_int_equal(gcd_u64(num, den), 1);
		}
	}
}

/* w workers at the split rate release what one pacer would, within w. */
static void
test_split_simulated(void **state)
{
	unsigned int i, w, k, s;

	(void)state;
	for (i = 0; i < sizeof(split_rates) / sizeof(split_rates[0]); i++) {
		const struct rate *r = &split_rates[i];

		for (w = 1; w <= 8; w++) {
			struct nb_pacer wp[8], tp;
			struct model wm, tm;
			uint64_t num, den, ival, now, seed = i * 8 + w;
			const uint64_t start = 5000;

			assert_int_equal(
				nb_pacer_split(r->num, r->den, w, &num, &den),
				0);
			tm = model_of(r->hz, r->num, r->den, start);
			wm = model_of(r->hz, num, den, start);
			ival = model_interval(&tm);
			assert_int_equal(nb_pacer_init(&tp, r->hz, r->num,
						       r->den, start),
					 0);
			for (k = 0; k < w; k++)
				assert_int_equal(nb_pacer_init(&wp[k], r->hz,
							       num, den, start),
						 0);
			now = start - 10;
			for (s = 0; s < 5000; s++) {
				uint64_t sum = 0;

				now += rng_next(&seed) % (ival * 24 + 1);
				check_call(&tp, &tm, now, 1u << 30);
				for (k = 0; k < w; k++) {
					check_call(&wp[k], &wm, now, 1u << 30);
					sum += wp[k].issued;
				}
				/* 0 <= sum - total < w, in particular <= w */
				assert_true(sum >= tp.issued);
				assert_true(sum - tp.issued < w);
			}
		}
	}
}

static void
test_split_errors(void **state)
{
	uint64_t num = 0xa5, den = 0xa5;

	(void)state;
	assert_int_equal(nb_pacer_split(1, 1, 0, &num, &den), -EINVAL);
	assert_int_equal(nb_pacer_split(1, 0, 1, &num, &den), -EINVAL);
	assert_int_equal(nb_pacer_split(1, UINT64_MAX, 2, &num, &den), -EINVAL);
	assert_int_equal(nb_pacer_split(1, 1, 1, NULL, &den), -EINVAL);
	assert_int_equal(nb_pacer_split(1, 1, 1, &num, NULL), -EINVAL);
	assert_int_equal(num, 0xa5);
	assert_int_equal(den, 0xa5);
	/* common factors avoid a spurious overflow */
	assert_int_equal(nb_pacer_split(8, UINT64_MAX, 8, &num, &den), 0);
	assert_int_equal(num, 1);
	assert_int_equal(den, UINT64_MAX);
	assert_int_equal(nb_pacer_split(UINT64_C(1) << 40, UINT64_C(1) << 62, 4,
					&num, &den),
			 0);
	assert_int_equal(num, 1);
	assert_int_equal(den, UINT64_C(1) << 24);
	/* unlimited stays unlimited */
	assert_int_equal(nb_pacer_split(0, 1, 4, &num, &den), 0);
	assert_int_equal(num, 0);
	assert_true(den != 0);
}

static void
check_split_count(uint64_t total, unsigned int n)
{
	uint64_t sum = 0, prev = UINT64_MAX;
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint64_t c = nb_split_count(total, n, i);

		assert_true(c == total / n || c == total / n + 1);
		assert_true(c <= prev); /* the extra ones go first */
		prev = c;
		sum += c;
	}
	assert_int_equal(sum, total);
	assert_int_equal(nb_split_count(total, n, n), 0);
	assert_int_equal(nb_split_count(total, n, n + 100), 0);
}

static void
test_split_count(void **state)
{
	static const uint64_t totals[] = {
		0,
		1,
		2,
		3,
		7,
		8,
		9,
		100,
		1000000007,
		UINT64_C(10000000000),
		UINT64_MAX - 1,
		UINT64_MAX,
	};
	uint64_t seed = 99;
	unsigned int i, n;

	(void)state;
	for (i = 0; i < sizeof(totals) / sizeof(totals[0]); i++)
		for (n = 1; n <= 130; n++)
			check_split_count(totals[i], n);
	for (i = 0; i < 20000; i++) {
		uint64_t x = rng_next(&seed);
		uint64_t total = rng_next(&seed) >> (x % 64);

		check_split_count(total, 1 + (x >> 32) % 300);
	}
	assert_int_equal(nb_split_count(5, 1, 0), 5);
	assert_int_equal(nb_split_count(5, 2, 0), 3);
	assert_int_equal(nb_split_count(5, 2, 1), 2);
	assert_int_equal(nb_split_count(5, 0, 0), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pacer_init),
		cmocka_unit_test(test_pacer_exact),
		cmocka_unit_test(test_pacer_long_run),
		cmocka_unit_test(test_pacer_cap),
		cmocka_unit_test(test_pacer_unlimited),
		cmocka_unit_test(test_pacer_unlimit),
		cmocka_unit_test(test_split_rate),
		cmocka_unit_test(test_split_simulated),
		cmocka_unit_test(test_split_errors),
		cmocka_unit_test(test_split_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
