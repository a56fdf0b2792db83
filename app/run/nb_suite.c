/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The suite runner: RFC 2544's throughput, latency, frame loss rate and
 * back-to-back tests, and plain size sweeps, as a sequence of trials on
 * the one test runtime (nb_run_prepare -> nb_run_local -> nb_run_free per
 * trial; the ports stay up), or, for a peer client, one session with the
 * responder per trial (nb_suite_runner).  The searches are core/nb_search.c's
 * state machines; what each trial measured goes to core/nb_suite_report.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "nb_jobs.h"
#include "nb_log.h"
#include "nb_phase.h"
#include "nb_run.h"
#include "nb_setup.h"
#include "nb_mcast_join.h"
#include "nb_mesh_run.h"
#include "nb_rfc2889_run.h"
#include "nb_suite.h"
#include "nb_suite_int.h"
#include "nb_suite_opts.h"
#include "nb_suite_plan.h"
#include "nb_suite_report.h"

static void
latency(struct suite *x, uint16_t size, const struct nb_suite_row *thr,
	struct nb_suite_row *row)
{
	const struct nb_config *cfg = &x->app->cfg;
	double start = nb_suite_now();

	memset(row, 0, sizeof(*row));
	row->kind = NB_SUITE_LATENCY;
	row->size = size;
	row->max_pps = thr->max_pps;
	row->load_pps = nb_suite_latency_pps(cfg, thr);
	if (row->load_pps <= 0)
		return; /* no throughput to take a share of */
	memset(&row->t, 0, sizeof(row->t));
	row->t.kind = NB_SUITE_LATENCY;
	row->t.size = size;
	row->t.req_pps = row->load_pps;
	row->t.seconds = cfg->trial_time;
	if (nb_suite_trial(x, &row->t) == 0)
		row->valid = 1;
	row->trials = 1;
	row->seconds = nb_suite_now() - start;
}

static void
loss(struct suite *x, uint16_t size, struct nb_suite_row *row)
{
	const struct nb_config *cfg = &x->app->cfg;
	struct nb_ladder l;
	double share, start = nb_suite_now();
	uint32_t n0 = x->rep.nb_trials;

	memset(row, 0, sizeof(*row));
	row->kind = NB_SUITE_LOSS;
	row->size = size;
	if (nb_suite_ceiling(x, size, NB_SUITE_LOSS, &row->max_pps) != 0)
		return;
	nb_ladder_init(&l, cfg->loss_step);
	while (!nb_suite_stopped(x) && nb_ladder_next(&l, &share)) {
		struct nb_trial_rec t;

		memset(&t, 0, sizeof(t));
		t.kind = NB_SUITE_LOSS;
		t.size = size;
		t.req_pps = share * row->max_pps;
		t.seconds = cfg->trial_time;
		if (nb_suite_trial(x, &t) != 0)
			break;
		nb_ladder_report(&l, t.lost);
		if (t.lost == 0 && row->clean_share == 0)
			row->clean_share = share;
	}
	row->valid = l.finished || !nb_ladder_next(&l, &share);
	row->trials = x->rep.nb_trials - n0;
	row->seconds = nb_suite_now() - start;
}

static void
back_to_back(struct suite *x, uint16_t size, struct nb_suite_row *row)
{
	const struct nb_config *cfg = &x->app->cfg;
	double start = nb_suite_now(), sum = 0;
	uint32_t n0 = x->rep.nb_trials, k;

	memset(row, 0, sizeof(*row));
	row->kind = NB_SUITE_B2B;
	row->size = size;
	if (nb_suite_ceiling(x, size, NB_SUITE_B2B, &row->max_pps) != 0)
		return;
	for (k = 1; k <= cfg->trials && !nb_suite_stopped(x); k++) {
		struct nb_search_cfg sc;
		struct nb_search s;
		struct nb_trial_req q;
		double lo, up;

		nb_suite_b2b_search(row->max_pps, cfg->trial_time, &sc);
		if (nb_search_init(&s, &sc) != 0)
			break;
		while (!nb_suite_stopped(x) && nb_search_next(&s, &q)) {
			struct nb_trial_rec t;

			memset(&t, 0, sizeof(t));
			t.kind = NB_SUITE_B2B;
			t.size = size;
			t.repeat = k;
			t.req_pps = row->max_pps;
			t.burst = (uint64_t)q.value;
			t.retry = q.retry;
			if (nb_suite_trial(x, &t) != 0)
				break;
			nb_search_report(&s, t.loss);
		}
		if (!s.finished)
			break;
		nb_search_result(&s, 0, &lo, &up);
		if (row->repeats == 0 || (uint64_t)lo < row->burst_min)
			row->burst_min = (uint64_t)lo;
		if ((uint64_t)lo > row->burst_max)
			row->burst_max = (uint64_t)lo;
		sum += lo;
		row->repeats++;
	}
	row->burst_mean = row->repeats ? sum / row->repeats : 0;
	row->valid = row->repeats == cfg->trials;
	row->trials = x->rep.nb_trials - n0;
	row->seconds = nb_suite_now() - start;
}

/* A size sweep without --test: the test as asked, once per size. */
static void
sweep_one(struct suite *x, uint16_t size, struct nb_suite_row *row)
{
	struct nb_size_list l;
	struct nb_rate rate;
	double start = nb_suite_now();

	memset(row, 0, sizeof(*row));
	row->kind = NB_SUITE_SWEEP;
	row->size = size;
	nb_suite_one_size(&l, size);
	if (nb_rate_resolve(&x->user_rate, &l, x->link_bps, &rate) != 0) {
		snprintf(x->rep.error, sizeof(x->rep.error),
			 "--rate in percent needs the link speed, and the TX "
			 "port reports none");
		x->failed = 1;
		return;
	}
	row->t.kind = NB_SUITE_SWEEP;
	row->t.size = size;
	row->t.req_pps =
		rate.unlimited ? 0 : (double)rate.pps_num / rate.pps_den;
	row->max_pps = row->t.req_pps;
	row->t.seconds = x->user_duration;
	row->t.burst = x->user_bytes ? nb_bytes_to_packets(x->user_bytes, &l)
				     : x->user_packets;
	if (nb_suite_trial(x, &row->t) == 0)
		row->valid = 1;
	row->trials = 1;
	row->seconds = nb_suite_now() - start;
}

static void
run_size(struct suite *x, uint16_t size)
{
	unsigned int kinds = x->rep.kinds;
	struct nb_suite_row thr, row;

	if (kinds & NB_SUITE_SWEEP) {
		sweep_one(x, size, &row);
		nb_suite_add_row(&x->rep, &row);
		return;
	}
	if (kinds & NB_SUITE_THROUGHPUT) {
		nb_suite_throughput(x, size, NB_SUITE_THROUGHPUT, &thr);
		nb_suite_add_row(&x->rep, &thr);
	}
	if ((kinds & NB_SUITE_LATENCY) && !nb_suite_stopped(x)) {
		latency(x, size, &thr, &row);
		nb_suite_add_row(&x->rep, &row);
	}
	if ((kinds & NB_SUITE_LOSS) && !nb_suite_stopped(x)) {
		loss(x, size, &row);
		nb_suite_add_row(&x->rep, &row);
	}
	if ((kinds & NB_SUITE_B2B) && !nb_suite_stopped(x)) {
		back_to_back(x, size, &row);
		nb_suite_add_row(&x->rep, &row);
	}
	if ((kinds & NB_SUITE_RFC2889) && !nb_suite_stopped(x))
		nb_rfc2889_size(x, size);
}

/* A trial on this process's ports. */
static int
local_run(void *ctx, struct nb_app *app, uint64_t rate_num, uint64_t rate_den,
	  uint64_t packets, const struct nb_result **r, char *err,
	  size_t errlen)
{
	(void)ctx;
	if (nb_run_prepare(app, rate_num, rate_den, packets, err, errlen) !=
	    0) {
		nb_run_free(app);
		return -1;
	}
	/* flows a test set itself (RFC 2889 5.7/5.8's MAC ranges) */
	if (app->cfg.flows.spec.n &&
	    (nb_result_flows(&app->result, app->cfg.flows.spec.n) != 0 ||
	     nb_jobs_flows(&app->jobs, &app->cfg, err, errlen) != 0)) {
		if (app->result.flow_rx == NULL)
			snprintf(err, errlen, "out of memory for the flows");
		nb_run_free(app);
		return -1;
	}
	nb_run_local(app, 0);
	/* many ports, a fan-out: each pair's or port's share */
	nb_mcast_collect(app);
	if (nb_mesh_collect(app) != 0) {
		snprintf(err, errlen, "out of memory for the pair results");
		nb_run_free(app);
		return -1;
	}
	*r = &app->result;
	return 0;
}

static void
local_done(void *ctx, struct nb_app *app)
{
	(void)ctx;
	nb_run_free(app);
}

int
nb_suite_main(struct nb_app *app, uint64_t link_bps, const char *topology,
	      const struct nb_suite_runner *runner)
{
	static const struct nb_suite_runner local = {local_run, local_done,
						     NULL};
	struct nb_config *cfg = &app->cfg;
	const struct nb_output *o = &app->out;
	struct suite x;
	unsigned int kinds = cfg->suite ? cfg->suite : NB_SUITE_SWEEP;
	uint32_t i;
	char lcores[512];
	int code;

	/* latency is taken at a share of the throughput: search it too */
	if (kinds & NB_SUITE_LATENCY)
		kinds |= NB_SUITE_THROUGHPUT;
	memset(&x, 0, sizeof(x));
	x.app = app;
	x.runner = runner != NULL ? runner : &local;
	x.link_bps = link_bps;
	x.user_rate = cfg->rate;
	x.user_duration = cfg->packets || cfg->bytes
				  ? (cfg->duration_set ? cfg->duration : 0)
				  : cfg->duration;
	x.user_packets = cfg->packets;
	x.user_bytes = cfg->bytes;
	cfg->interval = 0; /* trials report as a whole */
	nb_suite_report_init(&x.rep, cfg, topology, kinds, (double)link_bps);
	if (nb_out_chatty(o)) {
		for (i = 0; i < app->nb_ports; i++)
			nb_setup_print_test_port(o->f, &app->ports[i]);
		nb_setup_lcore_map(app, lcores, sizeof(lcores));
		fprintf(o->f, "lcores: %s\n", lcores);
		nb_suite_text_begin(o->f, &x.rep);
	}
	if (o->kind == NB_OUT_CSV)
		fprintf(o->f, "%s\n", nb_suite_csv_header);
	else if (o->kind == NB_OUT_JSON_STREAM) {
		json_t *doc = nb_suite_json(&x.rep);

		nb_out_event(o, "start",
			     json_incref(json_object_get(doc, "start")));
		json_decref(doc);
	}
	x.t0 = nb_suite_now();
	for (i = 0; i < cfg->sweep.n && !nb_suite_stopped(&x); i++)
		run_size(&x, cfg->sweep.sizes[i]);
	x.rep.seconds = nb_suite_now() - x.t0;
	x.rep.interrupted = nb_force_quit != 0;
	if (o->kind == NB_OUT_TEXT)
		nb_suite_text(o->f, &x.rep);
	app->emitted = 1;
	code = x.rep.error[0] || x.rep.interrupted ? 1 : 0;
	if (x.rep.error[0])
		NB_LOG(ERR, "%s", x.rep.error);
	if (nb_out_finish(o, nb_suite_json(&x.rep)) != 0) {
		nb_app_error(app, "cannot write --json-file %s",
			     cfg->json_file);
		code = 1;
	}
	nb_suite_report_free(&x.rep);
	return code;
}
