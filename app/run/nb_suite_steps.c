/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The suite's steps, shared by RFC 2544's tests (nb_suite.c) and RFC
 * 2889's (nb_rfc2889_run.c): a trial on the runner with its settle time
 * and its record, the ceiling at a size, the throughput search.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nb_clock.h"
#include "nb_phase.h"
#include "nb_run.h"
#include "nb_suite_int.h"
#include "nb_suite_opts.h"
#include "nb_suite_plan.h"

double
nb_suite_now(void)
{
	return nb_clock_mono_s();
}

int
nb_suite_stopped(const struct suite *x)
{
	return nb_force_quit || x->failed;
}

/* --settle seconds between trials; Ctrl-C ends the wait. */
static void
settle(struct suite *x)
{
	double end = nb_suite_now() + x->app->cfg.settle;

	if (x->need_settle)
		nb_app_phase(NB_PHASE_SUITE_PAUSE);
	while (x->need_settle && !nb_force_quit && nb_suite_now() < end)
		nb_run_sleep_us(10000);
	/* the next trial's set-up until it runs */
	if (x->need_settle)
		nb_app_phase(NB_PHASE_SETUP);
	x->need_settle = 1;
}

void
nb_suite_one_size(struct nb_size_list *l, uint16_t size)
{
	memset(l, 0, sizeof(*l));
	l->nb_sizes = 1;
	l->sizes[0] = size;
	l->nb_pattern = 1;
}

static void
emit_trial(struct suite *x, const struct nb_trial_rec *t)
{
	const struct nb_output *o = &x->app->out;

	if (nb_suite_add_trial(&x->rep, t) != 0)
		x->failed = 1;
	if (o->kind == NB_OUT_TEXT && !o->quiet)
		nb_suite_text_trial(o->f, t);
	else if (o->kind == NB_OUT_JSON_STREAM)
		nb_out_event(o, "trial", nb_suite_json_trial(t));
	else if (o->kind == NB_OUT_CSV)
		nb_suite_csv_trial(o->f, t);
}

/* One trial (nb_suite_int.h). */
int
nb_suite_trial(struct suite *x, struct nb_trial_rec *t)
{
	struct nb_app *app = x->app;
	struct nb_config *cfg = &app->cfg;
	const struct nb_result *r = NULL;
	struct nb_rate_spec spec = {.kind = NB_RATE_PPS, .value = t->req_pps};
	struct nb_rate rate = {.unlimited = 1};
	char err[320];

	settle(x);
	if (nb_force_quit)
		return -1;
	nb_suite_one_size(&cfg->sizes, t->size);
	cfg->duration = t->seconds; /* 0 with a burst: until it is sent */
	cfg->packets = t->burst;
	cfg->bytes = 0;
	cfg->omit = 0;
	if (t->req_pps > 0 &&
	    nb_rate_resolve(&spec, &cfg->sizes, 0, &rate) != 0) {
		snprintf(x->rep.error, sizeof(x->rep.error),
			 "rate %.3f pps cannot be resolved", t->req_pps);
		x->failed = 1;
		return -1;
	}
	t->start_s = nb_suite_now() - x->t0;
	if (x->runner->run(x->runner->ctx, app,
			   rate.unlimited ? 0 : rate.pps_num, rate.pps_den,
			   t->burst, &r, err, sizeof(err)) != 0) {
		snprintf(x->rep.error, sizeof(x->rep.error), "%s", err);
		x->failed = 1;
		return -1;
	}
	nb_suite_trial_measured(t, r, cfg->loss_tol[0]);
	if (x->on_result != NULL) /* an RFC 2889 test's own view */
		x->on_result(x, t, r);
	t->interrupted = t->interrupted || nb_force_quit;
	t->index = x->rep.nb_trials + 1;
	if (r->error[0]) {
		snprintf(x->rep.error, sizeof(x->rep.error), "%s", r->error);
		x->failed = 1;
	}
	x->runner->done(x->runner->ctx, app);
	emit_trial(x, t);
	return t->interrupted || x->failed ? -1 : 0;
}

/* The most the sender offers at one size: --rate (max: the line rate). */
int
nb_suite_ceiling(struct suite *x, uint16_t size, unsigned int kind, double *pps)
{
	struct nb_size_list l;
	struct nb_rate rate;
	struct nb_trial_rec t;
	int ret;

	nb_suite_one_size(&l, size);
	ret = nb_rate_resolve(&x->user_rate, &l, x->link_bps, &rate);
	if (ret != 0) {
		snprintf(x->rep.error, sizeof(x->rep.error),
			 ret == -ENOTSUP ? "--rate in percent needs the link "
					   "speed, and the TX port reports none"
					 : "cannot resolve --rate");
		x->failed = 1;
		return -1;
	}
	if (!rate.unlimited) {
		*pps = (double)rate.pps_num / (double)rate.pps_den;
		return 0;
	}
	if (x->link_bps > 0) {
		*pps = (double)x->link_bps / ((size + 20) * 8.0);
		return 0;
	}
	/* No link speed and no --rate: the sender's own maximum, measured
	 * by a first trial at full speed. */
	memset(&t, 0, sizeof(t));
	t.kind = kind;
	t.size = size;
	t.seconds = x->app->cfg.first_trial;
	if (nb_suite_trial(x, &t) != 0)
		return -1;
	*pps = t.tx_pps;
	return *pps > 0 ? 0 : -1;
}

void
nb_suite_throughput(struct suite *x, uint16_t size, unsigned int kind,
		    struct nb_suite_row *row)
{
	const struct nb_config *cfg = &x->app->cfg;
	struct nb_search_cfg sc;
	struct nb_search s;
	struct nb_trial_req q;
	double start = nb_suite_now();
	uint32_t n0 = x->rep.nb_trials, g;

	memset(row, 0, sizeof(*row));
	row->kind = kind;
	row->size = size;
	if (nb_suite_ceiling(x, size, kind, &row->max_pps) != 0)
		return;
	nb_suite_throughput_search(cfg, x->link_bps, size, row->max_pps, &sc);
	if (nb_search_init(&s, &sc) != 0) {
		snprintf(x->rep.error, sizeof(x->rep.error),
			 "the throughput search cannot start (maximum %.3f "
			 "pps, precision %.3f pps)",
			 sc.max, sc.width);
		x->failed = 1;
		return;
	}
	while (!nb_suite_stopped(x) && nb_search_next(&s, &q)) {
		struct nb_trial_rec t;

		memset(&t, 0, sizeof(t));
		t.kind = kind;
		t.size = size;
		t.req_pps = q.value;
		t.seconds = q.seconds;
		t.phase = q.phase;
		t.retry = q.retry;
		if (nb_suite_trial(x, &t) != 0)
			break;
		/* a rate not reached counts as a failure at that rate */
		nb_search_report(&s, nb_suite_search_loss(&t));
	}
	row->nb_goals = sc.nb_goals;
	for (g = 0; g < sc.nb_goals; g++) {
		row->tol[g] = sc.tolerance[g];
		nb_search_result(&s, g, &row->lower[g], &row->upper[g]);
	}
	row->gave_up = s.gave_up;
	row->valid = s.finished && !s.gave_up;
	row->trials = x->rep.nb_trials - n0;
	row->seconds = nb_suite_now() - start;
}
