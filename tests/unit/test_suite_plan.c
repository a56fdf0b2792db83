/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RFC 2544 suites' decisions (nb_suite_plan.c) with exact values: the
 * back-to-back burst's 2 s cap, the latency test's default load (90 %),
 * the throughput search's range and precision, and what makes a trial
 * pass.  Expected values are worked out by hand in the comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "nb_options.h"
#include "nb_result.h"
#include "nb_suite_opts.h"
#include "nb_suite_plan.h"

static struct nb_config cfg;
static struct nb_result res;

/* RFC 2544 26.4: a burst lasts at most 2 s at the maximum rate. */
static void
test_b2b_burst_cap(void **state)
{
	struct nb_search_cfg sc;

	(void)state;
	/* 1000 frames/s, --trial-time 60 (the default): 2 s, 2000 frames */
	nb_suite_b2b_search(1000, 60, &sc);
	assert_true(sc.max == 2000);
	assert_true(sc.min == 1);
	assert_true(sc.width_rel == 0.001);
	assert_int_equal(sc.integer, 1);
	assert_int_equal(sc.nb_goals, 1);
	assert_true(sc.trial_s == 1 && sc.first_s == 1);
	/* a --trial-time below 2 s shortens it: 1.5 s, 1500 frames */
	nb_suite_b2b_search(1000, 1.5, &sc);
	assert_true(sc.max == 1500);
	/* exactly 2 s: 2000 */
	nb_suite_b2b_search(1000, 2, &sc);
	assert_true(sc.max == 2000);
	/* whole frames, rounded up: 14880.5 x 2 = 29761 */
	nb_suite_b2b_search(14880.25, 60, &sc);
	assert_true(sc.max == 29761);
}

/* The latency test runs at --latency-load of the throughput found:
 * 90 % by default (RFC 2544 26.2 leaves it to the tester). */
static void
test_latency_load(void **state)
{
	struct nb_suite_row thr;
	char why[128];

	(void)state;
	nb_config_defaults(&cfg);
	assert_true(cfg.latency_load == 0.9);
	memset(&thr, 0, sizeof(thr));
	thr.valid = 1;
	thr.lower[0] = 1000000; /* 1 Mpps passed */
	assert_true(nb_suite_latency_pps(&cfg, &thr) == 900000);
	assert_int_equal(nb_opt_latency_load(&cfg, "50%", why, sizeof(why)), 0);
	assert_true(nb_suite_latency_pps(&cfg, &thr) == 500000);
	/* no throughput: no latency trial */
	thr.valid = 0;
	assert_true(nb_suite_latency_pps(&cfg, &thr) == 0);
	thr.valid = 1;
	thr.lower[0] = 0;
	assert_true(nb_suite_latency_pps(&cfg, &thr) == 0);
}

/* The throughput search: from max x 1e-4 (at least 1) to max frames/s,
 * to --precision; its first phase at most --trial-time long. */
static void
test_throughput_search(void **state)
{
	struct nb_search_cfg sc;
	struct nb_rate_spec p = {.kind = NB_RATE_MAX};

	(void)state;
	nb_config_defaults(&cfg);
	nb_suite_throughput_search(&cfg, 0, 64, 1000000, &sc);
	assert_true(sc.max == 1000000 && sc.min == 100);
	/* default precision: max(0.1 % of max, min(10 kpps, 1 % of max)) */
	assert_true(sc.width == 10000);
	assert_int_equal(sc.nb_goals, 1);
	assert_true(sc.tolerance[0] == 0);
	assert_true(sc.trial_s == 60 && sc.first_s == 1);
	nb_suite_throughput_search(&cfg, 0, 64, 5000, &sc);
	assert_true(sc.min == 1); /* 0.5 frames/s: 1 */
	assert_true(nb_suite_precision_pps(&p, 0, 64, 1e8) == 1e5);
	assert_true(nb_suite_precision_pps(&p, 0, 64, 1e5) == 1000);
	/* 10 % of a link of 8.4 Gbit/s at 64 B: 8.4e9 / (84 x 8) = 12.5
	 * Mpps, so 1.25 Mpps */
	p.kind = NB_RATE_PERCENT;
	p.value = 10;
	assert_true(nb_suite_line_pps(8400000000ull, 64, 0) == 12500000);
	assert_true(nb_suite_precision_pps(&p, 8400000000ull, 64, 1) ==
		    1250000);
	/* 1 Mbit/s of L1 bits at 105 B: 1e6 / (125 x 8) = 1000 frames/s;
	 * of L2 bits at 125 B, the same */
	p.kind = NB_RATE_BPS_L1;
	p.value = 1e6;
	assert_true(nb_suite_precision_pps(&p, 0, 105, 1) == 1000);
	p.kind = NB_RATE_BPS_L2;
	assert_true(nb_suite_precision_pps(&p, 0, 125, 1) == 1000);
	cfg.trial_time = 0.5;
	nb_suite_throughput_search(&cfg, 0, 64, 1000000, &sc);
	assert_true(sc.first_s == 0.5);
}

/* A trial of 1000 frames/s for 1 s with `lost` of `sent` lost, the
 * sender at tx_pps. */
static void
trial(struct nb_trial_rec *t, uint64_t sent, uint64_t lost, double tx_pps,
      uint64_t burst, double tol)
{
	memset(&res, 0, sizeof(res));
	res.sum.tx_pkts = sent;
	res.sum.rx_unique = sent - lost;
	res.sum.lost = lost;
	res.tx_pps = tx_pps;
	res.rx_pps = tx_pps * (double)(sent - lost) / (double)sent;
	res.tx_seconds = 1;
	nb_hist_init(&res.sum.hist);
	memset(t, 0, sizeof(*t));
	t->req_pps = 1000;
	t->seconds = burst ? 0 : 1;
	t->burst = burst;
	nb_suite_trial_measured(t, &res, tol);
}

/*
 * A trial passes with something sent, loss within the first tolerance
 * and the rate reached: at least 99.5 % of it (995 of 1000 frames/s), a
 * burst's 95 %, which is judged on its loss alone.
 */
static void
test_trial_pass(void **state)
{
	struct nb_trial_rec t;

	(void)state;
	trial(&t, 1000, 0, 1000, 0, 0);
	assert_int_equal(t.tx, 1000);
	assert_int_equal(t.rx, 1000);
	assert_true(t.loss == 0);
	assert_int_equal(t.pass, 1);
	/* 1 of 1000 lost: 0.1 %, a failure at 0 %, a pass at 0.1 % */
	trial(&t, 1000, 1, 1000, 0, 0);
	assert_int_equal(t.lost, 1);
	assert_true(t.loss == 0.001);
	assert_int_equal(t.pass, 0);
	trial(&t, 1000, 1, 1000, 0, 0.001);
	assert_int_equal(t.pass, 1);
	/* 995 frames/s is 99.5 %: reached; 994 is not */
	trial(&t, 995, 0, 995, 0, 0);
	assert_int_equal(t.short_rate, 0);
	assert_int_equal(t.pass, 1);
	trial(&t, 994, 0, 994, 0, 0);
	assert_int_equal(t.short_rate, 1);
	assert_int_equal(t.pass, 0);
	/* the search is told 1 - 750 / 1000 = 0.25 lost at 750 frames/s */
	trial(&t, 750, 0, 750, 0, 0);
	assert_true(nb_suite_search_loss(&t) == 0.25);
	trial(&t, 1000, 500, 1000, 0, 0.5);
	assert_true(nb_suite_search_loss(&t) == 0.5);
	/* a burst: 950 frames/s (95 %) reached, 949 short, and both pass on
	 * no loss; one frame lost fails */
	trial(&t, 100, 0, 950, 100, 0);
	assert_int_equal(t.short_rate, 0);
	assert_int_equal(t.pass, 1);
	trial(&t, 100, 0, 949, 100, 0);
	assert_int_equal(t.short_rate, 1);
	assert_int_equal(t.pass, 1);
	trial(&t, 100, 1, 950, 100, 0);
	assert_int_equal(t.pass, 0);
	/* nothing sent: a failure, loss 1 */
	memset(&res, 0, sizeof(res));
	memset(&t, 0, sizeof(t));
	nb_suite_trial_measured(&t, &res, 1);
	assert_true(t.loss == 1);
	assert_int_equal(t.pass, 0);
}

/* Ping-pong: the probes are the frames; 2 s of 100 probes, 3 lost. */
static void
test_trial_pingpong(void **state)
{
	struct nb_trial_rec t;

	(void)state;
	memset(&res, 0, sizeof(res));
	res.probes_sent = 100;
	res.probes_returned = 97;
	nb_hist_init(&res.rtt);
	memset(&t, 0, sizeof(t));
	t.seconds = 2;
	t.req_pps = 50;
	nb_suite_trial_measured(&t, &res, 0.05);
	assert_int_equal(t.tx, 100);
	assert_int_equal(t.rx, 97);
	assert_int_equal(t.lost, 3);
	assert_true(t.loss == 0.03);
	assert_true(t.tx_pps == 50 && t.rx_pps == 48.5);
	assert_int_equal(t.short_rate, 0);
	assert_int_equal(t.pass, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_b2b_burst_cap),
		cmocka_unit_test(test_latency_load),
		cmocka_unit_test(test_throughput_search),
		cmocka_unit_test(test_trial_pass),
		cmocka_unit_test(test_trial_pingpong),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
