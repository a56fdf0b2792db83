/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the suites' searches (app/core/nb_search.c) against a
 * simulated device under test: a trial at a value above the DUT's limit
 * loses the excess, (v - limit) / v of the frames, and none below it; the
 * noisy DUT's limit moves by a random share on each trial, less for longer
 * trials.  The oracle is the limit itself: the bounds must bracket it, be
 * as close as the precision asked, come from full-length trials, and the
 * number of trials must stay bounded.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "nb_test_util.h"

#include "nb_search.h"

struct dut {
	double limit;
	double noise; /* the limit moves by up to +-noise/sqrt(seconds) */
	uint64_t rng;
};

static double
dut_loss(struct dut *d, double v, double secs)
{
	double e = 0, lim;

	if (d->noise > 0)
		e = ((double)rng_below(&d->rng, 2000001) / 1e6 - 1.0) *
		    d->noise / sqrt(secs);
	lim = d->limit * (1 + e);
	return v > lim ? (v - lim) / v : 0;
}

struct log {
	uint32_t n;
	double value[NB_SEARCH_MAX_TRIALS], secs[NB_SEARCH_MAX_TRIALS];
	double loss[NB_SEARCH_MAX_TRIALS];
	int retry[NB_SEARCH_MAX_TRIALS];
};

static void
run(struct nb_search *s, struct dut *d, struct log *lg)
{
	struct nb_trial_req q;

	memset(lg, 0, sizeof(*lg));
	while (nb_search_next(s, &q)) {
		assert_true(lg->n < NB_SEARCH_MAX_TRIALS);
		assert_true(q.value >= s->cfg.min && q.value <= s->cfg.max);
		lg->value[lg->n] = q.value;
		lg->secs[lg->n] = q.seconds;
		lg->retry[lg->n] = q.retry;
		lg->loss[lg->n] = dut_loss(d, q.value, q.seconds);
		nb_search_report(s, lg->loss[lg->n]);
		lg->n++;
	}
}

static struct nb_search_cfg
rate_cfg(void)
{
	struct nb_search_cfg c = {
		.min = 1000,
		.max = 14880952,
		.width = 14881, /* 0.1 % of the maximum */
		.nb_goals = 1,
		.tolerance = {0},
		.trial_s = 60,
		.first_s = 1,
	};
	return c;
}

/* A bound of the last phase was measured at the full length with the
 * outcome it stands for. */
static void
assert_backed(const struct log *lg, double value, int pass, double tol,
	      double trial_s)
{
	uint32_t i;
	int found = 0;

	for (i = 0; i < lg->n; i++)
		if (lg->value[i] == value && lg->secs[i] == trial_s)
			found = (lg->loss[i] <= tol) == pass;
	assert_true(found);
}

static void
test_brackets_limit(void **state)
{
	uint64_t rng = 42;
	uint32_t total = 0;
	int k;

	(void)state;
	for (k = 0; k < 300; k++) {
		struct nb_search_cfg c = rate_cfg();
		struct nb_search s;
		struct dut d = {0};
		struct log lg;
		double lo, up;

		d.limit = c.min + (double)rng_below(&rng, 14000000);
		assert_int_equal(nb_search_init(&s, &c), 0);
		run(&s, &d, &lg);
		nb_search_result(&s, 0, &lo, &up);
		assert_false(s.gave_up);
		assert_true(lo <= d.limit && lo > 0);
		assert_true(up > d.limit);
		assert_true(up - lo <= c.width);
		assert_true(lg.n <= 45);
		assert_backed(&lg, lo, 1, 0, c.trial_s);
		assert_backed(&lg, up, 0, 0, c.trial_s);
		total += lg.n;
	}
	/* the receive-rate guess and the gallop: 9.0 trials on average
	 * here (14 with bisection alone) */
	assert_true(total <= 300 * 10);
}

static void
test_max_passes_and_min_fails(void **state)
{
	struct nb_search_cfg c = rate_cfg();
	struct nb_search s;
	struct dut d = {.limit = 2e7};
	struct log lg;
	double lo, up;

	(void)state;
	assert_int_equal(nb_search_init(&s, &c), 0);
	run(&s, &d, &lg);
	nb_search_result(&s, 0, &lo, &up);
	assert_true(lo == c.max);
	assert_true(up == 0);
	/* one trial per phase: 1 s, sqrt(60) s, 60 s */
	assert_int_equal(lg.n, 3);
	assert_true(lg.secs[0] == 1 && lg.secs[2] == 60);
	assert_true(fabs(lg.secs[1] - sqrt(60)) < 1e-9);

	d.limit = 10; /* below min */
	assert_int_equal(nb_search_init(&s, &c), 0);
	run(&s, &d, &lg);
	nb_search_result(&s, 0, &lo, &up);
	assert_true(lo == 0);
	assert_true(up == c.min);
	assert_true(lg.n <= 60);
}

/* NDR and a 0.5 % PDR from one search; the PDR's limit is where the excess
 * reaches 0.5 %: v = limit / (1 - 0.005). */
static void
test_ndr_and_pdr(void **state)
{
	uint64_t rng = 7;
	int k;

	(void)state;
	for (k = 0; k < 100; k++) {
		struct nb_search_cfg c = rate_cfg();
		struct nb_search s;
		struct dut d = {0};
		struct log lg;
		double lo, up, pdr;

		c.nb_goals = 2;
		c.tolerance[1] = 0.005;
		d.limit = 1e5 + (double)rng_below(&rng, 14000000);
		pdr = d.limit / (1 - 0.005);
		assert_int_equal(nb_search_init(&s, &c), 0);
		run(&s, &d, &lg);
		nb_search_result(&s, 0, &lo, &up);
		assert_true(lo <= d.limit && up > d.limit);
		assert_true(up - lo <= c.width);
		nb_search_result(&s, 1, &lo, &up);
		if (pdr >= c.max) {
			assert_true(lo == c.max && up == 0);
		} else {
			assert_true(lo <= pdr && up > pdr);
			assert_true(up - lo <= c.width);
		}
		assert_true(lg.n <= 70);
	}
}

/* A noisy DUT: the bounds come from full-length trials with their
 * outcome, and bracket the limit within the full-length noise. */
static void
test_noise(void **state)
{
	int k;

	(void)state;
	for (k = 0; k < 200; k++) {
		struct nb_search_cfg c = rate_cfg();
		struct nb_search s;
		struct dut d = {.noise = 0.02, .rng = (uint64_t)k + 1};
		struct log lg;
		double lo, up, band = 0.02 / sqrt(c.trial_s);

		d.limit = 5e6 + 1000.0 * k;
		c.width_rel = 0.001;
		c.width = 0;
		assert_int_equal(nb_search_init(&s, &c), 0);
		run(&s, &d, &lg);
		nb_search_result(&s, 0, &lo, &up);
		assert_false(s.gave_up);
		assert_true(lg.n <= 80);
		assert_true(lo > 0 && up > lo);
		assert_true(up - lo <= 0.001 * up + 1e-6);
		assert_backed(&lg, lo, 1, 0, c.trial_s);
		assert_backed(&lg, up, 0, 0, c.trial_s);
		assert_true(lo <= d.limit * (1 + band));
		assert_true(up >= d.limit * (1 - band));
	}
}

/* A pass above a failure in the same phase is measured again, and the
 * repeat stands. */
static void
test_contradiction_retried(void **state)
{
	struct nb_search_cfg c = rate_cfg();
	struct nb_search s;
	struct nb_trial_req q;
	double lo, up, first;

	(void)state;
	c.trial_s = 1;
	c.max = 1000000;
	c.min = 1000;
	c.width = 1000;
	assert_int_equal(nb_search_init(&s, &c), 0);
	assert_int_equal(nb_search_next(&s, &q), 1);
	assert_true(q.value == c.max && !q.retry);
	nb_search_report(&s, 0.5); /* max fails: half got through */
	assert_int_equal(nb_search_next(&s, &q), 1);
	assert_true(q.value == 500000); /* towards what got through */
	nb_search_report(&s, 0.1);	/* fails */
	assert_int_equal(nb_search_next(&s, &q), 1);
	first = q.value;
	assert_true(first < 500000);
	nb_search_report(&s, 0); /* passes */
	assert_int_equal(nb_search_next(&s, &q), 1);
	assert_true(q.value > first && q.value < 500000);
	/* a failure below the pass just seen is impossible for a sane DUT:
	 * a value at the pass fails, so it is measured again */
	s.pending = first;
	nb_search_report(&s, 0.2);
	assert_int_equal(nb_search_next(&s, &q), 1);
	assert_true(q.retry && q.value == first);
	nb_search_report(&s, 0.2); /* the repeat fails too: it stands */
	nb_search_result(&s, 0, &lo, &up);
	assert_true(lo == 0 && up == first);
}

/* Back-to-back: whole burst lengths, one phase, exact to one frame. */
static void
test_integer_bursts(void **state)
{
	uint64_t rng = 99;
	int k;

	(void)state;
	for (k = 0; k < 200; k++) {
		struct nb_search_cfg c = {
			.min = 1,
			.max = 29761905, /* 2 s at 14.88 Mpps */
			.width = 1,
			.integer = 1,
			.nb_goals = 1,
			.trial_s = 1,
			.first_s = 1,
		};
		struct nb_search s;
		struct dut d = {0};
		struct log lg;
		double lo, up;
		uint32_t i;

		d.limit = (double)(1 + rng_below(&rng, 29761904));
		assert_int_equal(nb_search_init(&s, &c), 0);
		run(&s, &d, &lg);
		for (i = 0; i < lg.n; i++)
			assert_true(lg.value[i] == floor(lg.value[i]));
		nb_search_result(&s, 0, &lo, &up);
		assert_true(lo == floor(d.limit));
		assert_true(up == lo + 1);
		assert_true(lg.n <= 60);
	}
}

static void
test_bad_config(void **state)
{
	struct nb_search_cfg c = rate_cfg();
	struct nb_search s;

	(void)state;
	c.min = 0;
	assert_int_equal(nb_search_init(&s, &c), -EINVAL);
	c = rate_cfg();
	c.first_s = 120;
	assert_int_equal(nb_search_init(&s, &c), -EINVAL);
	c = rate_cfg();
	c.nb_goals = 2;
	c.tolerance[1] = 0; /* not ascending */
	assert_int_equal(nb_search_init(&s, &c), -EINVAL);
	c = rate_cfg();
	c.tolerance[0] = 1;
	assert_int_equal(nb_search_init(&s, &c), -EINVAL);
	c = rate_cfg();
	c.width = 0;
	assert_int_equal(nb_search_init(&s, &c), -EINVAL);
	c = rate_cfg();
	c.max = c.min / 2;
	assert_int_equal(nb_search_init(&s, &c), -EINVAL);
}

/* The trial budget ends a search that cannot converge in it (a DUT whose
 * limit jumps around the whole range, a precision of 1 pps). */
static void
test_gives_up(void **state)
{
	struct nb_search_cfg c = rate_cfg();
	struct nb_search s;
	struct dut d = {.limit = 7e6, .noise = 5, .rng = 3};
	struct log lg;

	(void)state;
	c.max_trials = 12;
	c.width = 1;
	assert_int_equal(nb_search_init(&s, &c), 0);
	run(&s, &d, &lg);
	assert_int_equal(lg.n, 12);
	assert_true(s.gave_up);
}

static void
test_ladder(void **state)
{
	static const uint64_t lost[] = {500, 200, 0, 7, 0, 0, 99};
	struct nb_ladder l;
	double share;
	unsigned int k = 0;

	(void)state;
	nb_ladder_init(&l, 0.1);
	while (nb_ladder_next(&l, &share)) {
		assert_true(fabs(share - (1.0 - 0.1 * k)) < 1e-12);
		nb_ladder_report(&l, lost[k]);
		k++;
	}
	assert_int_equal(k, 6); /* 100 % .. 50 %: 40 % and 50 % clean */
	nb_ladder_init(&l, 0.25);
	k = 0;
	while (nb_ladder_next(&l, &share)) {
		nb_ladder_report(&l, 1);
		k++;
	}
	assert_int_equal(k, 4); /* 100, 75, 50, 25 %: never clean */
}

static void
test_size_range(void **state)
{
	struct nb_sweep w;
	static const uint16_t pow2[] = {64, 128, 256, 512, 1024, 1518};
	static const uint16_t step[] = {64, 564, 1064, 1518};

	(void)state;
	assert_int_equal(nb_parse_size_range("64:1518:*2", 64, 9000, &w), 0);
	assert_int_equal(w.n, 6);
	assert_memory_equal(w.sizes, pow2, sizeof(pow2));
	assert_int_equal(nb_parse_size_range("64:1518:+500", 64, 9000, &w), 0);
	assert_int_equal(w.n, 4);
	assert_memory_equal(w.sizes, step, sizeof(step));
	assert_int_equal(nb_parse_size_range("128:1024:*2", 64, 9000, &w), 0);
	assert_int_equal(w.n, 4);
	assert_int_equal(w.sizes[3], 1024);
	assert_int_equal(nb_parse_size_range("100:100:+1", 64, 9000, &w), 0);
	assert_int_equal(w.n, 1);
	assert_int_equal(nb_parse_size_range("64:1518", 64, 9000, &w), -EINVAL);
	assert_int_equal(nb_parse_size_range("64:1518:*1", 64, 9000, &w),
			 -EINVAL);
	assert_int_equal(nb_parse_size_range("64:1518:*2x", 64, 9000, &w),
			 -EINVAL);
	assert_int_equal(nb_parse_size_range("64:1518:-2", 64, 9000, &w),
			 -EINVAL);
	assert_int_equal(nb_parse_size_range(":1518:*2", 64, 9000, &w),
			 -EINVAL);
	assert_int_equal(nb_parse_size_range("1518:64:*2", 64, 9000, &w),
			 -ERANGE);
	assert_int_equal(nb_parse_size_range("32:1518:*2", 64, 9000, &w),
			 -ERANGE);
	assert_int_equal(nb_parse_size_range("64:9001:*2", 64, 9000, &w),
			 -ERANGE);
	assert_int_equal(nb_parse_size_range("64:9000:+1", 64, 9000, &w),
			 -ERANGE); /* more than NB_MAX_SWEEP */
	assert_int_equal(
		nb_parse_size_range("64:99999999999999999999:*2", 64, 9000, &w),
		-ERANGE);
	nb_sweep_rfc2544(&w);
	assert_int_equal(w.n, 7);
	assert_int_equal(w.sizes[5], 1280);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_brackets_limit),
		cmocka_unit_test(test_max_passes_and_min_fails),
		cmocka_unit_test(test_ndr_and_pdr),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_contradiction_retried),
		cmocka_unit_test(test_integer_bursts),
		cmocka_unit_test(test_bad_config),
		cmocka_unit_test(test_gives_up),
		cmocka_unit_test(test_ladder),
		cmocka_unit_test(test_size_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
