/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stats lcore: wakes once per interval (sleeping in between: it shares a
 * CPU on small hosts), reads the workers' single-writer counters without
 * locks, and records and prints interval results.  Also the final collector
 * the control lcore runs once every worker has stopped.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "nb_app.h"

struct snap {
	uint64_t *tx_pkts, *tx_bytes, *rx_pkts, *rx_bytes;
	uint64_t *lost, *ooo, *dup; /* per stream, receivers' view */
	double *st_jitter;
	uint64_t tx_warm_pkts, tx_warm_bytes, rx_warm, rx_warm_bytes;
	uint64_t gap_lost, out_of_order, duplicates;
	double jitter_ns;
	struct nb_hist *hist;
};

static int
snap_alloc(struct snap *s, uint32_t n)
{
	memset(s, 0, sizeof(*s));
	s->tx_pkts = calloc(n, sizeof(uint64_t));
	s->tx_bytes = calloc(n, sizeof(uint64_t));
	s->rx_pkts = calloc(n, sizeof(uint64_t));
	s->rx_bytes = calloc(n, sizeof(uint64_t));
	s->lost = calloc(n, sizeof(uint64_t));
	s->ooo = calloc(n, sizeof(uint64_t));
	s->dup = calloc(n, sizeof(uint64_t));
	s->st_jitter = calloc(n, sizeof(double));
	s->hist = malloc(sizeof(*s->hist));
	if (!s->tx_pkts || !s->tx_bytes || !s->rx_pkts || !s->rx_bytes ||
	    !s->lost || !s->ooo || !s->dup || !s->st_jitter || !s->hist)
		return -1;
	nb_hist_init(s->hist);
	return 0;
}

static void
snap_free(struct snap *s)
{
	free(s->tx_pkts);
	free(s->tx_bytes);
	free(s->rx_pkts);
	free(s->rx_bytes);
	free(s->lost);
	free(s->ooo);
	free(s->dup);
	free(s->st_jitter);
	free(s->hist);
}

static void
snap_take(const struct nb_app *app, struct snap *s)
{
	uint32_t n = app->cfg.streams, k, st;
	unsigned int i;

	memset(s->tx_pkts, 0, n * sizeof(uint64_t));
	memset(s->tx_bytes, 0, n * sizeof(uint64_t));
	memset(s->rx_pkts, 0, n * sizeof(uint64_t));
	memset(s->rx_bytes, 0, n * sizeof(uint64_t));
	memset(s->lost, 0, n * sizeof(uint64_t));
	memset(s->ooo, 0, n * sizeof(uint64_t));
	memset(s->dup, 0, n * sizeof(uint64_t));
	memset(s->st_jitter, 0, n * sizeof(double));
	s->tx_warm_pkts = s->tx_warm_bytes = s->rx_warm = s->gap_lost = 0;
	s->rx_warm_bytes = 0;
	s->out_of_order = s->duplicates = 0;
	s->jitter_ns = 0;
	nb_hist_init(s->hist);
	for (i = 0; i < app->nb_txjobs; i++) {
		const struct nb_txjob *j = app->txjobs[i];

		if (j->cnt_data == NULL)
			continue;
		for (k = 0; k < j->nb_streams; k++) {
			st = j->first_stream + k * j->stream_stride;
			s->tx_pkts[st] += j->cnt_data[k].pkts;
			s->tx_bytes[st] += j->cnt_data[k].bytes;
			s->tx_warm_pkts += j->cnt_warm[k].pkts;
			s->tx_warm_bytes += j->cnt_warm[k].bytes;
		}
	}
	for (i = 0; i < app->nb_rxjobs; i++) {
		const struct nb_rxjob *j = app->rxjobs[i];

		s->rx_warm += j->warm;
		s->rx_warm_bytes += j->warm_bytes;
		for (st = 0; st < n; st++) {
			const struct nb_rx_stream *r = &j->streams[st];
			uint64_t gap = nb_seq_gap_lost(&r->seq);

			s->rx_pkts[st] += r->seq.received;
			s->rx_bytes[st] += r->bytes;
			s->lost[st] += gap;
			s->ooo[st] += r->seq.out_of_order;
			s->dup[st] += r->seq.duplicates;
			s->gap_lost += gap;
			s->out_of_order += r->seq.out_of_order;
			s->duplicates += r->seq.duplicates;
			if (r->seq.received) {
				/* a stream lands on one queue */
				s->st_jitter[st] = nb_jitter_ns(&r->jit);
				s->jitter_ns += nb_jitter_ns(&r->jit) / n;
			}
			if (r->hist.count)
				nb_hist_merge(s->hist, &r->hist);
		}
	}
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

static void
record(struct nb_app *app, const struct snap *now, const struct snap *prev,
       double t0, double t1, int omitted, int last, struct nb_hist *tmp)
{
	uint32_t n = app->cfg.streams, k;
	struct nb_interval iv;
	uint64_t *a;

	memset(&iv, 0, sizeof(iv));
	iv.start = t0;
	iv.end = t1;
	iv.omitted = omitted;
	iv.nb_streams = n;
	a = calloc(8 * (size_t)n, sizeof(uint64_t));
	if (a == NULL)
		return;
	iv.stream_tx_pkts = a;
	iv.stream_tx_bytes = a + n;
	iv.stream_rx_pkts = a + 2 * n;
	iv.stream_rx_bytes = a + 3 * n;
	if (!omitted) {
		iv.stream_lost = a + 4 * n;
		iv.stream_out_of_order = a + 5 * n;
		iv.stream_duplicates = a + 6 * n;
		iv.stream_jitter_ns = (double *)(a + 7 * n);
	}
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
			iv.stream_lost[k] =
				now->lost[k] > prev->lost[k]
					? now->lost[k] - prev->lost[k]
					: 0;
			iv.stream_out_of_order[k] = now->ooo[k] - prev->ooo[k];
			iv.stream_duplicates[k] = now->dup[k] - prev->dup[k];
			iv.stream_jitter_ns[k] = now->st_jitter[k];
			iv.tx_pkts += iv.stream_tx_pkts[k];
			iv.tx_bytes += iv.stream_tx_bytes[k];
			iv.rx_pkts += iv.stream_rx_pkts[k];
			iv.rx_bytes += iv.stream_rx_bytes[k];
		}
		iv.out_of_order = now->out_of_order - prev->out_of_order;
		iv.duplicates = now->duplicates - prev->duplicates;
		iv.jitter_ns = now->jitter_ns;
		iv.lost = now->gap_lost > prev->gap_lost
				  ? now->gap_lost - prev->gap_lost
				  : 0;
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
		if (!last)
			nb_out_interval(&app->out, &app->result, &iv);
		else
			app->last_interval_held = app->result.nb_intervals;
	}
	free(a);
}

/* --interval 0 on a terminal: one line, rewritten in place. */
static void
progress(struct nb_app *app, const struct snap *now, const struct snap *prev,
	 double t0, double t1, int omitted)
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

int
nb_stats_main(void *arg)
{
	struct nb_app *app = arg;
	const struct nb_run *run = &app->run;
	uint64_t hz = rte_get_tsc_hz(), step, tick, base, last;
	struct snap cur, prev, zero;
	struct nb_hist *tmp = malloc(sizeof(*tmp));
	int omitted, lines = app->cfg.interval > 0;

	if ((!lines && !app->out.progress) || tmp == NULL ||
	    snap_alloc(&cur, app->cfg.streams) ||
	    snap_alloc(&prev, app->cfg.streams) ||
	    snap_alloc(&zero, app->cfg.streams)) {
		free(tmp);
		app->stats_exited = 1;
		return 0;
	}
	step = (uint64_t)((lines ? app->cfg.interval : 0.5) * hz);
	omitted = run->measure_tsc > run->start_tsc;
	base = run->start_tsc;
	last = base;
	tick = base + step;
	while (!app->stats_stop) {
		if (omitted && tick > run->measure_tsc)
			tick = run->measure_tsc;
		sleep_until(tick, hz, &app->stats_stop);
		if (app->stats_stop)
			break;
		snap_take(app, &cur);
		if (lines)
			record(app, &cur, &prev, (double)(last - base) / hz,
			       (double)(tick - base) / hz, omitted,
			       !omitted && tick >= run->end_tsc, tmp);
		else
			progress(app, &cur, &prev, (double)(last - base) / hz,
				 (double)(tick - base) / hz, omitted);
		{
			struct snap t = prev;

			prev = cur;
			cur = t;
		}
		last = tick;
		if (omitted && tick >= run->measure_tsc) {
			/* Results restart at 0 s, as iperf3 does after -O. */
			omitted = 0;
			base = last = run->measure_tsc;
			tick = base;
			/* Data counters start at zero at the phase change. */
			snap_take(app, &prev);
			memset(prev.tx_pkts, 0, app->cfg.streams * 8);
			memset(prev.tx_bytes, 0, app->cfg.streams * 8);
			memset(prev.rx_pkts, 0, app->cfg.streams * 8);
			memset(prev.rx_bytes, 0, app->cfg.streams * 8);
			memset(prev.lost, 0, app->cfg.streams * 8);
			memset(prev.ooo, 0, app->cfg.streams * 8);
			memset(prev.dup, 0, app->cfg.streams * 8);
			prev.gap_lost = 0;
			prev.out_of_order = prev.duplicates = 0;
			nb_hist_init(prev.hist);
		}
		tick += step;
		if (tick > run->end_tsc && last >= run->end_tsc)
			break;
		if (tick > run->end_tsc)
			tick = run->end_tsc;
	}
	snap_free(&cur);
	snap_free(&prev);
	snap_free(&zero);
	free(tmp);
	app->stats_exited = 1;
	return 0;
}

void
nb_collect_final(struct nb_app *app)
{
	struct nb_result *r = &app->result;
	const struct nb_run *run = &app->run;
	uint64_t hz = rte_get_tsc_hz(), tx_end = run->measure_tsc,
		 rx_end = run->measure_tsc;
	uint64_t *best = calloc(app->cfg.streams, sizeof(uint64_t));
	uint32_t k, st;
	unsigned int i, p;

	if (best == NULL) {
		snprintf(r->error, sizeof(r->error), "out of memory");
		return;
	}
	for (i = 0; i < app->nb_txjobs; i++) {
		const struct nb_txjob *j = app->txjobs[i];
		int pi = nb_app_port_index(app, j->port);

		r->tx_dropped += j->dropped;
		r->alloc_fail += j->alloc_fail;
		if (j->stop_tsc > tx_end && j->cnt_data != NULL)
			tx_end = j->stop_tsc;
		if (j->cnt_data == NULL)
			continue;
		for (k = 0; k < j->nb_streams; k++) {
			st = j->first_stream + k * j->stream_stride;
			r->streams[st].tx_pkts += j->cnt_data[k].pkts;
			r->streams[st].tx_bytes += j->cnt_data[k].bytes;
			r->ports[pi].tool_tx_pkts +=
				j->cnt_data[k].pkts + j->cnt_warm[k].pkts;
			r->ports[pi].tool_tx_bytes +=
				j->cnt_data[k].bytes + j->cnt_warm[k].bytes;
		}
	}
	for (i = 0; i < app->nb_rxjobs; i++) {
		const struct nb_rxjob *j = app->rxjobs[i];
		int pi = nb_app_port_index(app, j->port);

		r->rx_warm += j->warm;
		r->rx_foreign += j->foreign;
		r->rx_bad_stream += j->bad_stream;
		r->ports[pi].tool_rx_pkts += j->pkts;
		r->ports[pi].tool_rx_bytes += j->bytes;
		if (j->last_data_tsc > rx_end)
			rx_end = j->last_data_tsc;
		for (st = 0; st < app->cfg.streams; st++) {
			const struct nb_rx_stream *s = &j->streams[st];
			struct nb_stream_result *o = &r->streams[st];

			if (s->seq.received == 0)
				continue;
			o->rx_pkts += s->seq.received;
			o->rx_unique += s->seq.unique;
			o->out_of_order += s->seq.out_of_order;
			o->duplicates += s->seq.duplicates;
			o->late += s->seq.late;
			o->rx_bytes += s->bytes;
			/* A stream lands on one queue; keep the busiest. */
			if (s->seq.received > best[st]) {
				best[st] = s->seq.received;
				o->jitter_ns = nb_jitter_ns(&s->jit);
			}
			nb_hist_merge(&o->hist, &s->hist);
		}
	}
	free(best);
	for (p = 0; p < app->nb_ports; p++)
		nb_port_stats(app->port_ids[p], &r->ports[p].pmd);
	r->tx_seconds = (double)(tx_end - run->measure_tsc) / hz;
	r->rx_seconds = (double)(rx_end - run->measure_tsc) / hz;
	if (r->rx_seconds < r->tx_seconds)
		r->rx_seconds = r->tx_seconds;
	nb_result_finish(r);
}

void
nb_stats_close(struct nb_app *app)
{
	struct nb_result *r = &app->result;
	uint32_t n0 = r->nb_intervals;
	int appended = nb_result_close_intervals(r);

	/* the held one (now with the late frames), then any added after it */
	if (app->last_interval_held)
		nb_out_interval(&app->out, r,
				&r->intervals[app->last_interval_held - 1]);
	if (appended)
		nb_out_interval(&app->out, r, &r->intervals[n0]);
	app->last_interval_held = 0;
}
