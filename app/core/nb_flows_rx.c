/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "nb_flows_rx.h"

void
nb_flow_cnt_read(const struct nb_flow_cnt *c, const struct nb_flow_cnt_ext *x,
		 struct nb_flow_rx *r)
{
	unsigned int b;

	nb_flow_rx_init(r);
	r->dups = x->dups;
	r->reordered = x->reordered;
	r->next = c->next;
	r->lat_sum = c->lat_sum;
	r->lat_min = c->lat_min;
	r->lat_max = c->lat_max;
	for (b = 0; b < NB_FLOW_LAT_BINS; b++) {
		uint64_t v = c->lat[b] + ((uint64_t)x->lat_hi[b] << 8);

		r->unique += v;
		r->lat[b] = (uint32_t)v;
	}
}

void
nb_flow_rx_merge(struct nb_flow_rx *a, const struct nb_flow_rx *b)
{
	unsigned int i;

	if (b->unique && (a->unique == 0 || b->lat_min < a->lat_min))
		a->lat_min = b->lat_min;
	if (b->lat_max > a->lat_max)
		a->lat_max = b->lat_max;
	a->unique += b->unique;
	a->dups += b->dups;
	a->reordered += b->reordered;
	a->lat_sum += b->lat_sum;
	if (b->next > a->next)
		a->next = b->next;
	if (b->queue != 0 && a->queue != b->queue)
		a->queue = a->queue == 0 ? b->queue : UINT32_MAX;
	for (i = 0; i < NB_FLOW_LAT_BINS; i++)
		a->lat[i] += b->lat[i];
}

uint64_t
nb_flow_rx_pct(const struct nb_flow_rx *r, double p)
{
	uint64_t want, seen = 0;
	unsigned int b;

	if (r->unique == 0)
		return 0;
	want = (uint64_t)((double)r->unique * p / 100.0 + 0.5);
	if (want == 0)
		want = 1;
	for (b = 0; b < NB_FLOW_LAT_BINS; b++) {
		seen += r->lat[b];
		if (seen >= want)
			break;
	}
	if (b >= NB_FLOW_LAT_BINS - 1)
		return r->lat_max;
	return (UINT64_C(2) << b) - 1 < r->lat_max ? (UINT64_C(2) << b) - 1
						   : r->lat_max;
}

static unsigned int
loss_bin(uint64_t lost, uint64_t sent)
{
	static const double edges[] = {0.01, 0.1, 1, 10};
	double pct;
	unsigned int i;

	if (lost == 0)
		return 0;
	if (lost >= sent)
		return NB_FLOW_LOSS_BINS - 1;
	pct = 100.0 * (double)lost / (double)sent;
	for (i = 0; i < 4; i++)
		if (pct <= edges[i])
			return i + 1;
	return NB_FLOW_LOSS_BINS - 2;
}

static uint64_t
lost_of(const struct nb_flow_rx *r, uint64_t sent)
{
	return sent > r->unique ? sent - r->unique : 0;
}

/* Keep f among the worst (most lost, then the lower id), at most 10. */
static void
worst_add(struct nb_flows_sum *out, const struct nb_flow_rx *rx,
	  const uint64_t *sent, uint32_t f)
{
	uint64_t lf = lost_of(&rx[f], sent[f]);
	uint32_t i = out->nb_worst;

	while (i > 0) {
		uint32_t g = out->worst[i - 1];

		if (lost_of(&rx[g], sent[g]) >= lf)
			break;
		i--;
	}
	if (i >= 10)
		return;
	if (out->nb_worst < 10)
		out->nb_worst++;
	memmove(out->worst + i + 1, out->worst + i,
		(out->nb_worst - 1 - i) * sizeof(out->worst[0]));
	out->worst[i] = f;
}

void
nb_flows_summarise(const struct nb_flow_rx *rx, const uint64_t *sent,
		   uint32_t n, struct nb_flows_sum *out)
{
	uint32_t f;

	memset(out, 0, sizeof(*out));
	out->flows = n;
	for (f = 0; f < n; f++) {
		const struct nb_flow_rx *r = &rx[f];
		uint64_t lost = lost_of(r, sent[f]);

		out->loss_bins[loss_bin(lost, sent[f])]++;
		out->with_loss += lost > 0;
		out->with_reorder += r->reordered > 0;
		out->with_dups += r->dups > 0;
		out->none_arrived += r->unique == 0;
		if (r->queue == UINT32_MAX)
			out->on_several_queues++;
		else if (r->queue > 0 && r->queue <= 64)
			out->per_queue[r->queue - 1]++;
		if (r->unique)
			out->p99_bins[nb_flow_lat_bin(nb_flow_rx_pct(r, 99))]++;
		if (lost)
			worst_add(out, rx, sent, f);
	}
}

static json_t *
bins_json(const uint64_t *b, unsigned int n)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)b[i]));
	return a;
}

json_t *
nb_flows_sum_json(const struct nb_flows_sum *s, const struct nb_flow_rx *rx,
		  const uint64_t *sent)
{
	json_t *o = json_object(), *w = json_array(), *q = json_array();
	uint32_t i;

	json_object_set_new(o, "flows", json_integer(s->flows));
	json_object_set_new(o, "with_loss", json_integer(s->with_loss));
	json_object_set_new(o, "with_reordering",
			    json_integer(s->with_reorder));
	json_object_set_new(o, "with_duplicates", json_integer(s->with_dups));
	json_object_set_new(o, "none_arrived", json_integer(s->none_arrived));
	json_object_set_new(o, "loss_percent_bins",
			    bins_json(s->loss_bins, NB_FLOW_LOSS_BINS));
	json_object_set_new(o, "p99_latency_log2_ns_bins",
			    bins_json(s->p99_bins, NB_FLOW_LAT_BINS));
	for (i = 0; i < 64; i++)
		json_array_append_new(q, json_integer(s->per_queue[i]));
	while (json_array_size(q) > 1 &&
	       json_integer_value(json_array_get(q, json_array_size(q) - 1)) ==
		       0)
		json_array_remove(q, json_array_size(q) - 1);
	json_object_set_new(o, "flows_per_rx_queue", q);
	json_object_set_new(o, "on_several_queues",
			    json_integer(s->on_several_queues));
	for (i = 0; i < s->nb_worst; i++) {
		uint32_t f = s->worst[i];
		const struct nb_flow_rx *r = &rx[f];

		json_array_append_new(
			w,
			json_pack("{s:i,s:I,s:I,s:I,s:I,s:i}", "id", (int)f,
				  "sent", (json_int_t)sent[f], "received",
				  (json_int_t)r->unique, "lost",
				  (json_int_t)lost_of(r, sent[f]), "p99_ns",
				  (json_int_t)nb_flow_rx_pct(r, 99), "queue",
				  r->queue == UINT32_MAX ? -1
							 : (int)r->queue - 1));
	}
	json_object_set_new(o, "worst", w);
	return o;
}
