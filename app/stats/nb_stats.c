/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stats lcore: wakes once per interval (sleeping in between: it shares a
 * CPU on small hosts), reads the workers' single-writer counters through
 * nb_jobs_read(), and records and prints interval results.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "nb_stats.h"
#include "nb_tsc.h"

/* The measured phase's counters start at zero when the warm-up ends. */
static void
zero_data(struct nb_counts *c)
{
	size_t n = c->nb_streams;

	memset(c->tx_pkts, 0, 9 * n * sizeof(uint64_t));
	c->gap_lost = c->out_of_order = c->duplicates = 0;
	nb_hist_init(c->hist);
}

static void
sleep_until(uint64_t tsc, uint64_t hz, volatile int *stop)
{
	uint64_t now;

	while (!*stop && (now = rte_get_tsc_cycles()) < tsc) {
		uint64_t us = (tsc - now) * 1000000 / hz;
		struct timespec ts;

		if (us > 20000)
			us = 20000;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)us * 1000;
		nanosleep(&ts, NULL);
	}
}

static uint64_t
delta(uint64_t now, uint64_t prev)
{
	return now > prev ? now - prev : 0;
}

/* The queues of each port with more than one: what each carried since
 * the last edge (every frame, warm-up too).  None on a failed alloc. */
static void
record_queues(struct nb_interval *iv, const struct nb_counts *now,
	      const struct nb_counts *prev)
{
	uint16_t i, q, n = 0;

	for (i = 0; i < now->nb_ports; i++)
		if (now->ports[i].nb_queues > 1)
			n = (uint16_t)(n + now->ports[i].nb_queues);
	if (n == 0 || (iv->queues = calloc(n, sizeof(*iv->queues))) == NULL)
		return;
	for (i = 0; i < now->nb_ports; i++) {
		const struct nb_port_counts *a = &now->ports[i];
		const struct nb_port_counts *b = &prev->ports[i];

		for (q = 0; a->nb_queues > 1 && q < a->nb_queues; q++) {
			struct nb_iv_queue *e = &iv->queues[iv->nb_queues++];
			int same =
				i < prev->nb_ports && b->port_id == a->port_id;

			e->port = a->port_id;
			e->queue = q;
			e->tx_pkts = delta(a->q_tx_pkts[q],
					   same ? b->q_tx_pkts[q] : 0);
			e->tx_bytes = delta(a->q_tx_bytes[q],
					    same ? b->q_tx_bytes[q] : 0);
			e->rx_pkts = delta(a->q_rx_pkts[q],
					   same ? b->q_rx_pkts[q] : 0);
			e->rx_bytes = delta(a->q_rx_bytes[q],
					    same ? b->q_rx_bytes[q] : 0);
		}
	}
}

/* The workers' disturbance since the last edge (nb_tester.h). */
static void
record_tester(struct nb_interval *iv, const struct nb_tester *t)
{
	uint16_t i;

	for (i = 0; i < t->n; i++) {
		const struct nb_tester_worker *w = &t->w[i];

		iv->tester[i].lcore = (uint16_t)w->lcore;
		iv->tester[i].rx = (uint8_t)w->rx;
		iv->tester[i].off_cpu_ns =
			w->wait_ns +
			(w->steal_ns == UINT64_MAX ? 0 : w->steal_ns);
		iv->tester[i].stall_ns = w->stall_ns;
	}
	iv->nb_tester = t->n;
}

/* A receive-only test's interval: every frame the ports took in. */
static void
record_rx_only(struct nb_interval *iv, const struct nb_counts *now,
	       const struct nb_counts *prev)
{
	uint16_t i;

	iv->rx_only = 1;
	for (i = 0; i < now->nb_ports; i++) {
		int same = i < prev->nb_ports &&
			   prev->ports[i].port_id == now->ports[i].port_id;

		iv->all_rx_pkts += delta(now->ports[i].rx_pkts,
					 same ? prev->ports[i].rx_pkts : 0);
		iv->all_rx_bytes += delta(now->ports[i].rx_bytes,
					  same ? prev->ports[i].rx_bytes : 0);
	}
}

static void
record(struct nb_app *app, const struct nb_counts *now,
       const struct nb_counts *prev, double t0, double t1, int omitted,
       int last, struct nb_hist *tmp, int emit, const struct nb_tester *t,
       uint64_t link_down_ns)
{
	uint32_t n = app->cfg.streams, k;
	struct nb_interval iv;

	memset(&iv, 0, sizeof(iv));
	record_tester(&iv, t);
	iv.start = t0;
	iv.end = t1;
	iv.omitted = omitted;
	iv.link_down_ns = link_down_ns;
	iv.nb_streams = n;
	if (nb_interval_alloc(&iv, n, !omitted) != 0)
		return;
	/* as at the end: none in peer mode, where the control lcore's
	 * frames share the port's queues uncounted per queue */
	if (app->cfg.mode != NB_MODE_CLIENT &&
	    app->cfg.mode != NB_MODE_RESPONDER)
		record_queues(&iv, now, prev);
	if (app->cfg.rx_only)
		record_rx_only(&iv, now, prev);
	if (omitted) {
		iv.tx_pkts = now->tx_warm_pkts - prev->tx_warm_pkts;
		iv.tx_bytes = now->tx_warm_bytes - prev->tx_warm_bytes;
		iv.rx_pkts = now->rx_warm - prev->rx_warm;
		iv.rx_bytes = now->rx_warm_bytes - prev->rx_warm_bytes;
	} else {
		for (k = 0; k < n; k++) {
			iv.stream_tx_pkts[k] =
				now->tx_pkts[k] - prev->tx_pkts[k];
			iv.stream_tx_bytes[k] =
				now->tx_bytes[k] - prev->tx_bytes[k];
			iv.stream_rx_pkts[k] =
				now->rx_pkts[k] - prev->rx_pkts[k];
			iv.stream_rx_bytes[k] =
				now->rx_bytes[k] - prev->rx_bytes[k];
			iv.stream_lost[k] = delta(now->lost[k], prev->lost[k]);
			iv.stream_out_of_order[k] = now->ooo[k] - prev->ooo[k];
			iv.stream_duplicates[k] = now->dup[k] - prev->dup[k];
			iv.stream_jitter_ns[k] = now->jitter_ns[k];
			iv.tx_pkts += iv.stream_tx_pkts[k];
			iv.tx_bytes += iv.stream_tx_bytes[k];
			iv.rx_pkts += iv.stream_rx_pkts[k];
			iv.rx_bytes += iv.stream_rx_bytes[k];
		}
		iv.out_of_order = now->out_of_order - prev->out_of_order;
		iv.duplicates = now->duplicates - prev->duplicates;
		iv.jitter_ns = now->mean_jitter_ns;
		iv.lost = delta(now->gap_lost, prev->gap_lost);
		nb_hist_diff(tmp, now->hist, prev->hist);
		iv.lat_count = tmp->count;
		iv.lat_p50 = nb_hist_percentile(tmp, 50);
		iv.lat_p99 = nb_hist_percentile(tmp, 99);
		iv.lat_max = tmp->count ? tmp->max : 0;
	}
	/*
	 * The last interval of a timed test is shown once the receivers have
	 * drained: the control lcore folds the late frames into it first
	 * (nb_result_close_intervals()), so every format adds up.
	 */
	if (nb_result_add_interval(&app->result, &iv) == 0) {
		if (!last && emit)
			nb_out_interval(&app->out, &app->result, &iv);
		else if (last)
			app->last_interval_held = app->result.nb_intervals;
	}
	nb_interval_release(&iv);
}

/* --interval 0 on a terminal: one line, rewritten in place. */
static void
progress(struct nb_app *app, const struct nb_counts *now,
	 const struct nb_counts *prev, double t0, double t1, int omitted)
{
	uint64_t rx = 0, rxb = 0, tx = 0, prx = 0, prxb = 0;
	uint32_t k;

	for (k = 0; k < app->cfg.streams; k++) {
		rx += now->rx_pkts[k];
		rxb += now->rx_bytes[k];
		tx += now->tx_pkts[k];
		prx += prev->rx_pkts[k];
		prxb += prev->rx_bytes[k];
	}
	if (omitted) {
		rx = now->rx_warm;
		rxb = now->rx_warm_bytes;
		tx = now->tx_warm_pkts;
		prx = prev->rx_warm;
		prxb = prev->rx_warm_bytes;
	}
	nb_out_progress(
		&app->out, t1,
		app->cfg.packets || app->cfg.bytes ? 0 : app->cfg.duration,
		t1 > t0 ? (rxb - prxb) * 8.0 / (t1 - t0) : 0,
		t1 > t0 ? (rx - prx) / (t1 - t0) : 0, tx, rx, now->gap_lost);
}

/* Ticks from the base to the k-th interval edge. */
static uint64_t
tick_offset(uint64_t k, double interval, uint64_t hz)
{
	return (uint64_t)((long double)k * interval * hz + 0.5L);
}

/* The next edge: none past the end, and the end itself rather than an
 * edge a rounding away from it (--interval dividing --time into steps
 * truncated to whole ticks); during a warm-up, no edge past its end. */
static void
next_tick(struct nb_sampler *s, const struct nb_run *run)
{
	s->tick = s->base + tick_offset(++s->k, s->secs, s->hz);
	if (s->tick > run->end_tsc && s->last >= run->end_tsc) {
		s->done = 1;
		return;
	}
	if (s->tick > run->end_tsc || run->end_tsc - s->tick < s->step / 1000)
		s->tick = run->end_tsc;
	if (s->omitted && s->tick > run->measure_tsc)
		s->tick = run->measure_tsc;
}

int
nb_sampler_init(struct nb_sampler *s, const struct nb_app *app)
{
	const struct nb_run *run = &app->run;

	memset(s, 0, sizeof(*s));
	s->lines = app->cfg.interval > 0;
	s->secs = s->lines ? app->cfg.interval : 0.5;
	s->hz = nb_tsc_hz();
	s->tmp = malloc(sizeof(*s->tmp));
	if (s->tmp == NULL ||
	    nb_counts_alloc(&s->cur, app->cfg.streams, 1, 0) ||
	    nb_counts_alloc(&s->prev, app->cfg.streams, 1, 0)) {
		nb_sampler_free(s);
		return -ENOMEM;
	}
	s->step = (uint64_t)(s->secs * s->hz);
	nb_tester_read_tids(&app->jobs);
	nb_tester_read(&app->jobs, &s->noise);
	/* tick k is base + k steps, rounded once (not k truncated steps
	 * added up): interval edges fall on whole multiples of --interval */
	s->omitted = run->measure_tsc > run->start_tsc;
	s->base = run->start_tsc;
	s->last = s->base;
	s->k = 0;
	next_tick(s, run);
	return 0;
}

void
nb_sampler_step(struct nb_sampler *s, struct nb_app *app, int emit)
{
	const struct nb_run *run = &app->run;
	struct nb_tester_sample noise;
	struct nb_tester tester;
	struct nb_counts t;
	uint64_t link_ns;

	/* read once: the control lcore adds to it (nb_result_link_step), and
	 * what this interval gets must be what link_prev moves by */
	link_ns = __atomic_load_n(&app->result.link_down_ns, __ATOMIC_RELAXED);
	nb_jobs_read(&app->jobs, &s->cur);
	nb_tester_read(&app->jobs, &noise);
	nb_tester_read_diff(&app->jobs, &s->noise, &noise, &tester);
	s->noise = noise;
	if (s->lines)
		record(app, &s->cur, &s->prev,
		       (double)(s->last - s->base) / s->hz,
		       (double)(s->tick - s->base) / s->hz, s->omitted,
		       !s->omitted && s->tick >= run->end_tsc, s->tmp, emit,
		       &tester, link_ns - s->link_prev);
	else
		progress(app, &s->cur, &s->prev,
			 (double)(s->last - s->base) / s->hz,
			 (double)(s->tick - s->base) / s->hz, s->omitted);
	s->link_prev = link_ns;
	t = s->prev;
	s->prev = s->cur;
	s->cur = t;
	s->last = s->tick;
	if (s->omitted && s->tick >= run->measure_tsc) {
		/* Results restart at 0 s, as iperf3 does after -O. */
		s->omitted = 0;
		s->base = s->last = run->measure_tsc;
		s->k = 0;
		/* Data counters start at zero at the phase change. */
		nb_jobs_read(&app->jobs, &s->prev);
		zero_data(&s->prev);
	}
	next_tick(s, run);
}

void
nb_sampler_free(struct nb_sampler *s)
{
	nb_counts_free(&s->cur);
	nb_counts_free(&s->prev);
	free(s->tmp);
	s->tmp = NULL;
}

/* A test with its own interval rows (app->iv_read): its edges, taken as
 * the jobs' are below. */
static void
own_intervals(struct nb_app *app)
{
	uint64_t hz = nb_tsc_hz(), tick = app->iv_read(app->iv_arg);

	while (!app->stats_stop && tick != UINT64_MAX) {
		sleep_until(tick, hz, &app->stats_stop);
		if (app->stats_stop)
			break;
		tick = app->iv_read(app->iv_arg);
	}
	if (app->stats_stop && tick != UINT64_MAX &&
	    rte_get_tsc_cycles() >= tick)
		app->iv_read(app->iv_arg);
}

int
nb_stats_main(void *arg)
{
	struct nb_app *app = arg;
	struct nb_sampler s;

	if (app->iv_read != NULL) {
		own_intervals(app);
		app->stats_exited = 1;
		return 0;
	}
	if ((app->cfg.interval > 0 || app->out.progress) &&
	    nb_sampler_init(&s, app) == 0) {
		/* the workers' disturbance counts from the start */
		sleep_until(s.base, s.hz, &app->stats_stop);
		nb_tester_read(&app->jobs, &s.noise);
		while (!app->stats_stop && !s.done) {
			sleep_until(s.tick, s.hz, &app->stats_stop);
			if (app->stats_stop)
				break;
			nb_sampler_step(&s, app, 1);
		}
		/*
		 * Stopped while asleep: control drains and stops as soon as
		 * every frame is in, which can be before this lcore woke
		 * for the end's tick.  A tick that is due is still taken
		 * here (control waits for this lcore before it closes the
		 * intervals), so the last interval has this lcore's
		 * figures, the tester's included, instead of one control
		 * appends without them.  Before the end (Ctrl-C), control
		 * appends the rest.
		 */
		if (app->stats_stop && !s.done &&
		    rte_get_tsc_cycles() >= s.tick)
			nb_sampler_step(&s, app, 1);
		nb_sampler_free(&s);
	}
	app->stats_exited = 1;
	return 0;
}

void
nb_stats_close(struct nb_app *app)
{
	struct nb_result *r = &app->result;
	uint32_t n0 = r->nb_intervals;
	int appended = r->rx_only ? nb_result_close_rxonly(r)
				  : nb_result_close_intervals(r);

	/* the held one (now with the late frames), then any added after it */
	if (app->last_interval_held)
		nb_out_interval(&app->out, r,
				&r->intervals[app->last_interval_held - 1]);
	if (appended > 0)
		nb_out_interval(&app->out, r, &r->intervals[n0]);
	app->last_interval_held = 0;
}
