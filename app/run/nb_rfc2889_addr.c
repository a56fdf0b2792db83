/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889 5.7 and 5.8 on the suite's steps: see nb_rfc2889_addr.h.
 */
#include <string.h>

#include "nb_bisect.h"
#include "nb_jobs.h"
#include "nb_rfc2889.h"
#include "nb_rfc2889_addr.h"
#include "nb_run.h"
#include "nb_suite_int.h"
#include "nb_suite_opts.h"

/* The learning frames' source MACs: 02:4e:42:00:00:00 up (locally
 * administered, "NB") */
#define ADDR_BASE 0x024e42000000ull

enum { LEARN_PORT, TEST_PORT, MONITOR_PORT };

struct addr {
	unsigned int kind;
	uint16_t size;
	json_t *steps;
	double wait_s;
	int need_rate; /* 5.8: a learning rate not reached fails the trial
			* (5.7 measures how many, not how fast) */
	/* the test phase's data frames at L and at M (on_result) */
	uint64_t at_l, at_m;
};

/* The switch forgets the last trial's addresses; Ctrl-C ends the wait. */
static void
wait_aging(double wait_s)
{
	double end = nb_suite_now() + wait_s;

	while (!nb_force_quit && nb_suite_now() < end)
		nb_run_sleep_us(10000);
}

/* A phase's ports and MAC range: the learning phase L to T from n source
 * MACs, the test phase T to n destination MACs, seen at L and M. */
static void
set_phase(struct nb_config *cfg, int test, uint32_t n)
{
	struct nb_flows_cfg *fc = &cfg->flows;
	int field = test ? NB_FF_DMAC : NB_FF_SMAC;

	cfg->nb_tx_ports = 1;
	cfg->tx_ports[0] = cfg->addr_port[test ? TEST_PORT : LEARN_PORT];
	cfg->nb_rx_ports = test ? 2 : 1;
	cfg->rx_ports[0] = cfg->addr_port[test ? LEARN_PORT : TEST_PORT];
	cfg->rx_ports[1] = cfg->addr_port[MONITOR_PORT];
	cfg->rx_copies = test ? 2 : 0; /* the drain waits for flooded ones */
	cfg->have_dst_mac = 0;	       /* the receiving port's, or the range */
	memset(fc, 0, sizeof(*fc));
	fc->spec.n = n;
	fc->spec.udp = cfg->proto == NB_IPPROTO_UDP;
	fc->spec.r[field].lo = ADDR_BASE;
	fc->spec.r[field].hi = ADDR_BASE + n - 1;
	fc->given = 1u << field;
	fc->order_set = fc->seed_set = 1;
}

static void
clear_phase(struct nb_config *cfg)
{
	memset(&cfg->flows, 0, sizeof(cfg->flows));
	cfg->rx_copies = 0;
}

/* The test phase's data frames at L and at M. */
static void
count_ports(struct suite *x, struct nb_trial_rec *t, const struct nb_result *r)
{
	const struct nb_config *cfg = &x->app->cfg;
	const struct nb_jobs *js = &x->app->jobs;
	struct addr *a = x->ctx;
	unsigned int i;

	(void)r;
	for (i = 0; i < js->nb_rx; i++) {
		if (js->rx[i]->port == cfg->addr_port[LEARN_PORT])
			a->at_l += js->rx[i]->data;
		else if (js->rx[i]->port == cfg->addr_port[MONITOR_PORT])
			a->at_m += js->rx[i]->data;
	}
	t->pass = t->pass && a->at_m == 0 && a->at_l >= t->tx;
}

/* One phase of n frames at pps; 0, or -1 when it could not run. */
static int
phase(struct suite *x, struct addr *a, int test, uint32_t n, double pps,
      struct nb_trial_rec *t)
{
	int rc;

	set_phase(&x->app->cfg, test, n);
	memset(t, 0, sizeof(*t));
	t->kind = a->kind;
	t->size = a->size;
	t->req_pps = pps;
	t->burst = n;
	x->need_settle = 0; /* the ageing wait is the pause */
	x->on_result = test ? count_ports : NULL;
	x->ctx = a;
	a->at_l = a->at_m = 0;
	rc = nb_suite_trial(x, t);
	x->on_result = NULL;
	clear_phase(&x->app->cfg);
	return rc;
}

/*
 * One address trial of n addresses learned at pps (the test phase at the
 * same rate): 1 when it passed, 0 when not, -1 when it could not run.
 */
static int
addr_trial(struct suite *x, struct addr *a, uint32_t n, double pps, int confirm)
{
	struct nb_trial_rec learn, test;
	int pass;

	wait_aging(a->wait_s);
	if (nb_suite_stopped(x) || phase(x, a, 0, n, pps, &learn) != 0)
		return -1;
	if (phase(x, a, 1, n, pps, &test) != 0)
		return -1;
	pass = learn.tx == n && !(a->need_rate && learn.short_rate) &&
	       test.tx == n && a->at_m == 0 && a->at_l >= n;
	json_array_append_new(
		a->steps,
		json_pack("{s:i,s:f,s:b,s:f,s:I,s:I,s:I,s:I,s:b,s:b,s:f}",
			  "addresses", n, "learning_pps", pps,
			  "rate_not_reached", learn.short_rate,
			  "learning_achieved_pps", learn.tx_pps,
			  "learning_sent", (json_int_t)learn.tx, "test_sent",
			  (json_int_t)test.tx, "forwarded", (json_int_t)a->at_l,
			  "flooded", (json_int_t)a->at_m, "pass", pass,
			  "confirm", confirm, "gap_ms",
			  (test.start_s - learn.start_s - learn.tx_seconds) *
				  1e3));
	return pass;
}

static json_t *
ports_json(const struct nb_config *cfg)
{
	return json_pack("{s:i,s:i,s:i}", "learning",
			 cfg->addr_port[LEARN_PORT], "test",
			 cfg->addr_port[TEST_PORT], "monitor",
			 cfg->addr_port[MONITOR_PORT]);
}

/* The row's common part; the search's figures are added to detail. */
static void
row_start(struct suite *x, struct addr *a, unsigned int kind, uint16_t size,
	  struct nb_suite_row *row)
{
	memset(a, 0, sizeof(*a));
	a->kind = kind;
	a->size = size;
	a->steps = json_array();
	a->wait_s = nb_rfc2889_aging_wait(x->app->cfg.aging);
	memset(row, 0, sizeof(*row));
	row->kind = kind;
	row->size = size;
}

static void
row_end(struct suite *x, struct addr *a, struct nb_suite_row *row, uint32_t n0,
	double start, json_t *detail)
{
	json_object_set_new(detail, "address_ports", ports_json(&x->app->cfg));
	json_object_set_new(detail, "aging_s", json_real(x->app->cfg.aging));
	json_object_set_new(detail, "wait_s", json_real(a->wait_s));
	json_object_set_new(detail, "address_trials", a->steps);
	row->trials = x->rep.nb_trials - n0;
	row->seconds = nb_suite_now() - start;
	row->detail = detail;
	nb_suite_add_row(&x->rep, row);
}

/* The bisection's failed bound, or null when none failed. */
static json_t *
upper(const struct nb_bisect *b)
{
	return b->hi > b->max ? json_null() : json_integer((json_int_t)b->hi);
}

/*
 * A search to its end: each value the bisection asks for tried by a trial
 * (the number of addresses at pps, or with by_rate n addresses at that
 * many learning frames/s), then its result once more, the table holding
 * it when the run ends.  Whether the search ended and its result held.
 */
static int
search(struct suite *x, struct addr *a, struct nb_bisect *b, uint32_t n,
       double pps, int by_rate)
{
	uint64_t v;
	int rc;

	while (!nb_suite_stopped(x) && nb_bisect_next(b, &v) &&
	       (rc = addr_trial(x, a, by_rate ? n : (uint32_t)v,
				by_rate ? (double)v : pps, 0)) >= 0)
		nb_bisect_report(b, rc);
	if (!b->done)
		return 0;
	v = nb_bisect_result(b);
	if (v == 0 || b->ceiling)
		return 1;
	return addr_trial(x, a, by_rate ? n : (uint32_t)v,
			  by_rate ? (double)v : pps, 1) == 1;
}

void
nb_rfc2889_addr_cache(struct suite *x, uint16_t size)
{
	const struct nb_config *cfg = &x->app->cfg;
	uint32_t max =
		cfg->addresses_set ? cfg->addresses : NB_RFC2889_DEF_ADDRESSES;
	double start = nb_suite_now(), pps = 0;
	uint32_t n0 = x->rep.nb_trials;
	struct nb_suite_row row;
	struct nb_bisect b;
	struct addr a;

	row_start(x, &a, NB_SUITE_ADDR_CACHE, size, &row);
	nb_bisect_init(&b, max, 1);
	if (nb_suite_ceiling(x, size, NB_SUITE_ADDR_CACHE, &pps) == 0)
		row.valid = search(x, &a, &b, 0, pps, 0);
	row.max_pps = pps;
	row_end(x, &a, &row, n0, start,
		json_pack("{s:I,s:i,s:I,s:o,s:b,s:f}", "capacity",
			  (json_int_t)nb_bisect_result(&b), "max", max, "lower",
			  (json_int_t)b.lo, "upper", upper(&b), "ceiling_hit",
			  b.ceiling, "learning_pps", pps));
}

/* 5.8's N: the capacity 5.7 found at this size when it ran before (its
 * --addresses was the search's maximum), else --addresses. */
static uint32_t
learn_count(const struct suite *x, uint16_t size)
{
	uint32_t i;

	for (i = 0; i < x->rep.nb_rows; i++)
		if (x->rep.rows[i].kind == NB_SUITE_ADDR_CACHE &&
		    x->rep.rows[i].size == size)
			return (uint32_t)json_integer_value(json_object_get(
				x->rep.rows[i].detail, "capacity"));
	return x->app->cfg.addresses_set ? x->app->cfg.addresses : 0;
}

/* The rate that failed was one the sender did not reach: the search was
 * bounded by the tester, not the switch. */
static int
sender_bound(const json_t *steps, uint64_t failed)
{
	size_t i;

	for (i = 0; i < json_array_size(steps); i++) {
		const json_t *e = json_array_get(steps, i);

		if (json_real_value(json_object_get(e, "learning_pps")) ==
			    (double)failed &&
		    json_is_true(json_object_get(e, "rate_not_reached")))
			return 1;
	}
	return 0;
}

void
nb_rfc2889_addr_learn(struct suite *x, uint16_t size)
{
	uint32_t n = learn_count(x, size), n0 = x->rep.nb_trials;
	double start = nb_suite_now(), max = 0, step;
	struct nb_suite_row row;
	struct nb_bisect b;
	struct addr a;

	row_start(x, &a, NB_SUITE_ADDR_LEARN, size, &row);
	a.need_rate = 1;
	memset(&b, 0, sizeof(b));
	if (n > 0 &&
	    nb_suite_ceiling(x, size, NB_SUITE_ADDR_LEARN, &max) == 0 &&
	    max >= 1) {
		/* to 1 % of the ceiling (at least 1 frame/s) */
		step = max / 100 >= 1 ? max / 100 : 1;
		nb_bisect_init(&b, (uint64_t)max, (uint64_t)step);
		row.valid = search(x, &a, &b, n, 0, 1);
	} else if (n == 0 && !nb_suite_stopped(x)) {
		snprintf(x->rep.error, sizeof(x->rep.error),
			 "address-learning: no addresses to learn (give "
			 "--addresses, or run address-caching before it)");
		x->failed = 1;
	}
	row.max_pps = max;
	row_end(x, &a, &row, n0, start,
		json_pack("{s:i,s:f,s:o,s:f,s:f,s:b,s:b}", "addresses", n,
			  "rate_pps", (double)nb_bisect_result(&b),
			  "failed_pps",
			  b.hi > b.max ? json_null() : json_real((double)b.hi),
			  "max_pps", max, "step_pps", (double)b.step,
			  "ceiling_hit", b.ceiling, "sender_bound",
			  sender_bound(a.steps, b.hi)));
}
