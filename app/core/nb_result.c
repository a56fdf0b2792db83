/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test's results as data: set up, intervals appended, sums and rates
 * derived at the end, the intervals' totals closed against the end's.
 * The writers are nb_report_text.c (text) and nb_report_json.c (JSON).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nb_frame.h"
#include "nb_queue_iv.h"
#include "nb_result.h"

int
nb_result_init(struct nb_result *r, const struct nb_config *cfg,
	       uint32_t nb_streams)
{
	uint32_t i;

	memset(r, 0, sizeof(*r));
	r->cfg = cfg;
	r->clock = "tsc";
	r->latency_method = "one-way, same host";
	r->topology = "loopback";
	if (nb_streams) {
		r->streams = calloc(nb_streams, sizeof(*r->streams));
		if (r->streams == NULL)
			return -ENOMEM;
	}
	r->nb_streams = nb_streams;
	for (i = 0; i < nb_streams; i++) {
		r->streams[i].id = i;
		nb_hist_init(&r->streams[i].hist);
	}
	nb_hist_init(&r->sum.hist);
	nb_hist_init(&r->rtt);
	return 0;
}

/*
 * An interval's per-stream uint64_t arrays, in one order: the counts (tx
 * packets, tx bytes, rx packets, rx bytes), then the quality arrays (lost,
 * out of order, duplicates).  Jitter, an array of double, comes last.
 */
#define IV_COUNTS 4
#define IV_U64	  7

static void
iv_arrays(struct nb_interval *iv, uint64_t **a[IV_U64])
{
	a[0] = &iv->stream_tx_pkts;
	a[1] = &iv->stream_tx_bytes;
	a[2] = &iv->stream_rx_pkts;
	a[3] = &iv->stream_rx_bytes;
	a[4] = &iv->stream_lost;
	a[5] = &iv->stream_out_of_order;
	a[6] = &iv->stream_duplicates;
}

int
nb_interval_alloc(struct nb_interval *iv, uint32_t n, int with_quality)
{
	uint64_t **a[IV_U64];
	uint32_t j, nb = with_quality ? IV_U64 : IV_COUNTS;

	iv_arrays(iv, a);
	for (j = 0; j < IV_U64; j++)
		*a[j] = NULL;
	iv->stream_jitter_ns = NULL;
	if (n == 0)
		return 0;
	for (j = 0; j < nb; j++) {
		*a[j] = calloc(n, sizeof(uint64_t));
		if (*a[j] == NULL)
			goto fail;
	}
	if (with_quality) {
		iv->stream_jitter_ns = calloc(n, sizeof(double));
		if (iv->stream_jitter_ns == NULL)
			goto fail;
	}
	return 0;
fail:
	nb_interval_release(iv);
	return -ENOMEM;
}

void
nb_interval_release(struct nb_interval *iv)
{
	uint64_t **a[IV_U64];
	uint32_t j;

	iv_arrays(iv, a);
	for (j = 0; j < IV_U64; j++) {
		free(*a[j]);
		*a[j] = NULL;
	}
	free(iv->stream_jitter_ns);
	iv->stream_jitter_ns = NULL;
	nb_queue_iv_release(iv);
}

/* --flows' arrays, freed (none after). */
static void
flows_free(struct nb_result *r)
{
	free(r->flow_rx);
	free(r->flow_sent);
	free(r->flow_rec);
	r->flow_rx = NULL;
	r->flow_sent = NULL;
	r->flow_rec = NULL;
	r->nb_flows = 0;
}

void
nb_result_free(struct nb_result *r)
{
	uint32_t i;

	for (i = 0; i < r->nb_intervals; i++)
		nb_interval_release(&r->intervals[i]);
	free(r->intervals);
	free(r->streams);
	free(r->gaps);
	free(r->classes);
	free(r->mesh);
	r->mesh = NULL;
	flows_free(r);
	r->intervals = NULL;
	r->streams = NULL;
	r->gaps = NULL;
	r->classes = NULL;
	r->nb_classes = 0;
}

int
nb_result_flows(struct nb_result *r, uint32_t n)
{
	flows_free(r);
	r->flow_rx = calloc(n ? n : 1, sizeof(*r->flow_rx));
	r->flow_sent = calloc(n ? n : 1, sizeof(*r->flow_sent));
	r->flow_rec = calloc(n ? n : 1, sizeof(*r->flow_rec));
	r->nb_flows = n;
	if (r->flow_rx == NULL || r->flow_sent == NULL || r->flow_rec == NULL) {
		flows_free(r);
		return -ENOMEM;
	}
	return 0;
}

int
nb_result_gaps(struct nb_result *r, uint64_t ideal_ns)
{
	uint32_t i;

	free(r->gaps);
	r->gaps = calloc(r->nb_streams ? r->nb_streams : 1, sizeof(*r->gaps));
	if (r->gaps == NULL)
		return -ENOMEM;
	for (i = 0; i < r->nb_streams; i++)
		nb_gap_init(&r->gaps[i], ideal_ns);
	nb_gap_init(&r->gap_sum, ideal_ns);
	return 0;
}

/* Append iv as it is (its arrays become the result's), or -ENOMEM. */
static int
interval_append(struct nb_result *r, const struct nb_interval *iv)
{
	if (r->nb_intervals == r->cap_intervals) {
		uint32_t cap = r->cap_intervals ? r->cap_intervals * 2 : 64;
		struct nb_interval *n = realloc(r->intervals, cap * sizeof(*n));

		if (n == NULL)
			return -ENOMEM;
		r->intervals = n;
		r->cap_intervals = cap;
	}
	r->intervals[r->nb_intervals++] = *iv;
	return 0;
}

int
nb_result_add_interval(struct nb_result *r, const struct nb_interval *iv)
{
	struct nb_interval src = *iv, c = *iv;
	uint64_t **from[IV_U64], **to[IV_U64];
	uint32_t n = iv->nb_streams, j;

	c.queues = NULL; /* src's, until copied below */
	c.nb_queues = 0;
	iv_arrays(&src, from);
	iv_arrays(&c, to);
	/* the counts are required whenever there are streams */
	for (j = 0; j < IV_COUNTS; j++)
		if (n && *from[j] == NULL)
			return -ENOMEM;
	if (nb_interval_alloc(&c, n, iv->stream_lost != NULL) != 0)
		return -ENOMEM;
	for (j = 0; j < IV_U64; j++)
		if (*from[j] != NULL && *to[j] != NULL)
			memcpy(*to[j], *from[j], n * sizeof(uint64_t));
	if (src.stream_jitter_ns != NULL && c.stream_jitter_ns != NULL)
		memcpy(c.stream_jitter_ns, src.stream_jitter_ns,
		       n * sizeof(double));
	if (nb_queue_iv_copy(&c, &src) != 0 || interval_append(r, &c) != 0) {
		nb_interval_release(&c);
		return -ENOMEM;
	}
	return 0;
}

/* Start a sum of streams (id: what it is the sum of). */
static void
sum_init(struct nb_stream_result *sum, uint32_t id)
{
	memset(sum, 0, offsetof(struct nb_stream_result, hist));
	nb_hist_init(&sum->hist);
	sum->id = id;
}

/* Add stream s to sum; the jitter is summed, the caller divides. */
static void
sum_add(struct nb_stream_result *sum, const struct nb_stream_result *s)
{
	sum->tx_pkts += s->tx_pkts;
	sum->tx_bytes += s->tx_bytes;
	sum->rx_pkts += s->rx_pkts;
	sum->rx_bytes += s->rx_bytes;
	sum->rx_unique += s->rx_unique;
	sum->out_of_order += s->out_of_order;
	sum->duplicates += s->duplicates;
	sum->late += s->late;
	sum->lost += s->lost;
	sum->jitter_ns += s->jitter_ns;
	nb_hist_merge(&sum->hist, &s->hist);
}

/*
 * The classes of --dscp (two or more): stream s is of class
 * dscp[s mod n]; each class the sum of its streams, its jitter their mean.
 * Without memory for them, none (the streams' rows still say it all).
 */
static void
classes_finish(struct nb_result *r)
{
	const struct nb_stack_cfg *k = &r->cfg->stack;
	uint32_t n[NB_MAX_DSCP] = {0}, i, c;

	free(r->classes);
	r->classes = NULL;
	r->nb_classes = 0;
	if (k->nb_dscp < 2 || r->nb_streams == 0)
		return;
	r->classes = calloc(k->nb_dscp, sizeof(*r->classes));
	if (r->classes == NULL)
		return;
	for (i = 0; i < r->nb_streams; i++) {
		uint8_t d = k->dscp[r->streams[i].id % k->nb_dscp];

		for (c = 0; c < r->nb_classes && r->classes[c].id != d; c++)
			;
		if (c == r->nb_classes)
			sum_init(&r->classes[r->nb_classes++], d);
		sum_add(&r->classes[c], &r->streams[i]);
		n[c]++;
	}
	for (c = 0; c < r->nb_classes; c++)
		r->classes[c].jitter_ns /= n[c];
}

void
nb_result_finish(struct nb_result *r)
{
	struct nb_stream_result *sum = &r->sum;
	uint32_t i;

	sum_init(sum, UINT32_MAX);
	for (i = 0; i < r->nb_streams; i++) {
		struct nb_stream_result *s = &r->streams[i];

		s->lost = s->tx_pkts > s->rx_unique ? s->tx_pkts - s->rx_unique
						    : 0;
		sum_add(sum, s);
	}
	if (r->cfg != NULL)
		classes_finish(r);
	if (r->flow_rx != NULL)
		nb_flows_summarise(r->flow_rx, r->flow_sent, r->nb_flows,
				   &r->flow_sum);
	if (r->gaps != NULL) {
		nb_gap_init(&r->gap_sum, 0);
		for (i = 0; i < r->nb_streams; i++)
			nb_gap_merge(&r->gap_sum, &r->gaps[i]);
	}
	/* Like iperf3's sum: the mean of the streams' jitter. */
	sum->jitter_ns = r->nb_streams ? sum->jitter_ns / r->nb_streams : 0;

	r->tx_pps = nb_div0((double)sum->tx_pkts, r->tx_seconds);
	r->rx_pps = nb_div0((double)sum->rx_pkts, r->rx_seconds);
	r->tx_l2_bps = nb_div0(sum->tx_bytes * 8.0, r->tx_seconds);
	r->tx_l1_bps = nb_div0(
		(sum->tx_bytes + sum->tx_pkts * (double)NB_L1_OVERHEAD) * 8.0,
		r->tx_seconds);
	r->rx_l2_bps = nb_div0(sum->rx_bytes * 8.0, r->rx_seconds);
	r->rx_l1_bps = nb_div0(
		(sum->rx_bytes + sum->rx_pkts * (double)NB_L1_OVERHEAD) * 8.0,
		r->rx_seconds);
	r->lost_percent =
		nb_div0(100.0 * (double)sum->lost, (double)sum->tx_pkts);
	r->shortfall = 0;
	r->shortfall_percent = 0;
	if (r->req_pps > 0 && r->tx_seconds > 0) {
		r->shortfall_percent = 100.0 * (1.0 - r->tx_pps / r->req_pps);
		if (r->tx_pps < r->req_pps * 0.995)
			r->shortfall = 1;
	}
}

/* A stream's end totals, in the order of iv_arrays(): the four counts,
 * then loss, reordering and duplicates. */
static void
stream_ends(const struct nb_stream_result *s, int64_t c[IV_U64])
{
	c[0] = (int64_t)s->tx_pkts;
	c[1] = (int64_t)s->tx_bytes;
	c[2] = (int64_t)s->rx_pkts;
	c[3] = (int64_t)s->rx_bytes;
	c[4] = (int64_t)s->lost;
	c[5] = (int64_t)s->out_of_order;
	c[6] = (int64_t)s->duplicates;
}

/* An interval's sum fields, in the order of iv_arrays(). */
static void
iv_totals(struct nb_interval *iv, uint64_t *t[IV_U64])
{
	t[0] = &iv->tx_pkts;
	t[1] = &iv->tx_bytes;
	t[2] = &iv->rx_pkts;
	t[3] = &iv->rx_bytes;
	t[4] = &iv->lost;
	t[5] = &iv->out_of_order;
	t[6] = &iv->duplicates;
}

/* Whether interval iv counts toward the end totals (a measured one). */
static int
iv_measured(const struct nb_interval *iv)
{
	return !iv->omitted && iv->stream_tx_pkts != NULL;
}

/*
 * Add d to counter j of stream k in the intervals, keeping each sum field
 * the sum of its streams: a rise goes into the last measured interval; a
 * fall (a gap counted lost that a late frame filled) is taken from the
 * last intervals that have it.
 */
static void
iv_adjust(struct nb_result *r, uint32_t j, uint32_t k, int64_t d)
{
	uint32_t i = r->nb_intervals;

	while (d != 0 && i > 0) {
		struct nb_interval *iv = &r->intervals[--i];
		uint64_t **a[IV_U64], *t[IV_U64], *v;
		uint64_t take;

		if (!iv_measured(iv) || k >= iv->nb_streams)
			continue;
		iv_arrays(iv, a);
		iv_totals(iv, t);
		if (*a[j] == NULL)
			continue;
		v = &(*a[j])[k];
		if (d > 0) {
			*v += (uint64_t)d;
			*t[j] += (uint64_t)d;
			return;
		}
		take = *v < (uint64_t)-d ? *v : (uint64_t)-d;
		*v -= take;
		*t[j] -= take;
		d += (int64_t)take;
	}
}

/* The tester's disturbance against the test's latency (p99, max). */
void
nb_result_verdict(const struct nb_result *r, struct nb_tester_verdict *v)
{
	nb_tester_judge(&r->tester, nb_hist_percentile(&r->sum.hist, 99),
			r->sum.hist.count ? r->sum.hist.max : 0, v);
}

int
nb_result_close_rxonly(struct nb_result *r)
{
	uint64_t pkts, bytes, sp = 0, sb = 0;
	struct nb_interval add, *last = NULL;
	uint32_t k;

	for (k = 0; k < r->nb_intervals; k++) {
		if (!r->intervals[k].rx_only || r->intervals[k].omitted)
			continue;
		last = &r->intervals[k];
		sp += last->all_rx_pkts;
		sb += last->all_rx_bytes;
	}
	nb_rxonly_totals(r, &pkts, &bytes);
	if (sp > pkts || sb > bytes)
		return 0;
	if (last != NULL && last->end + 1e-3 >= r->rxo_seconds) {
		last->all_rx_pkts += pkts - sp;
		last->all_rx_bytes += bytes - sb;
		return 0;
	}
	if (pkts == sp)
		return 0;
	memset(&add, 0, sizeof(add));
	add.start = last ? last->end : 0;
	add.end = r->rxo_seconds > add.start ? r->rxo_seconds : add.start;
	add.rx_only = 1;
	add.all_rx_pkts = pkts - sp;
	add.all_rx_bytes = bytes - sb;
	return nb_result_add_interval(r, &add) == 0 ? 1 : -ENOMEM;
}

int
nb_result_close_intervals(struct nb_result *r)
{
	uint32_t n = r->nb_streams, i, j, k;
	struct nb_interval add, *last = NULL;
	double end = r->rx_seconds;
	int appended = 0, any = 0;

	if (n == 0)
		return 0;
	for (i = 0; i < r->nb_intervals; i++)
		if (iv_measured(&r->intervals[i]))
			last = &r->intervals[i];
	for (k = 0; k < n; k++)
		any |= r->streams[k].tx_pkts || r->streams[k].rx_pkts;
	if (last == NULL && !any)
		return 0;
	if (last == NULL || last->end + 1e-3 < r->tx_seconds) {
		/* the stats lcore did not reach the end: one more interval */
		memset(&add, 0, sizeof(add));
		if (nb_interval_alloc(&add, n, 1) == 0) {
			add.start = last ? last->end : 0;
			add.end = end > add.start ? end : add.start;
			add.nb_streams = n;
			/* the queue rows of the one before, at zero, to
			 * take what came after it */
			if (last != NULL && nb_queue_iv_copy(&add, last) == 0)
				for (i = 0; i < add.nb_queues; i++) {
					struct nb_iv_queue *e = &add.queues[i];

					e->tx_pkts = e->tx_bytes = 0;
					e->rx_pkts = e->rx_bytes = 0;
				}
			if (interval_append(r, &add) == 0) {
				appended = 1;
				last = &r->intervals[r->nb_intervals - 1];
			} else {
				nb_interval_release(&add);
			}
		}
		if (last == NULL)
			return 0;
	}
	/* every counter of every stream adds up to its end total */
	for (k = 0; k < n; k++) {
		int64_t ends[IV_U64], sum[IV_U64] = {0};

		stream_ends(&r->streams[k], ends);
		for (i = 0; i < r->nb_intervals; i++) {
			struct nb_interval *iv = &r->intervals[i];
			uint64_t **a[IV_U64];

			if (!iv_measured(iv) || k >= iv->nb_streams)
				continue;
			iv_arrays(iv, a);
			for (j = 0; j < IV_U64; j++)
				if (*a[j] != NULL)
					sum[j] += (int64_t)(*a[j])[k];
		}
		for (j = 0; j < IV_U64; j++)
			if (ends[j] != sum[j])
				iv_adjust(r, j, k, ends[j] - sum[j]);
	}
	/* jitter is a running estimate: the last interval ends in the state
	 * the end reports */
	if (last->stream_jitter_ns != NULL)
		for (k = 0; k < n && k < last->nb_streams; k++)
			last->stream_jitter_ns[k] = r->streams[k].jitter_ns;
	last->jitter_ns = r->sum.jitter_ns;
	nb_queue_iv_close(r, last);
	return appended;
}

void
nb_result_link_step(struct nb_result *r, uint64_t now_ns, int up)
{
	/* one store: the stats lcore reads link_down_ns at its edges */
	if (r->link_watched && r->link_down_now && now_ns > r->link_last_ns)
		__atomic_store_n(&r->link_down_ns,
				 r->link_down_ns + (now_ns - r->link_last_ns),
				 __ATOMIC_RELAXED);
	if (!up && (!r->link_watched || !r->link_down_now))
		r->link_outages++;
	r->link_watched = 1;
	r->link_down_now = !up;
	r->link_last_ns = now_ns;
}
