/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889's forwarding rate (5.1/5.2), congestion control (5.5) and
 * broadcast (5.10) tests on the suite's steps: see nb_rfc2889_run.h.
 */
#include <stdlib.h>
#include <string.h>

#include "nb_hist.h"
#include "nb_jobs.h"
#include "nb_mesh_hosts.h"
#include "nb_rfc2889_addr.h"
#include "nb_rfc2889_run.h"
#include "nb_suite_int.h"
#include "nb_suite_opts.h"

static double
per_s(uint64_t n, double seconds)
{
	return seconds > 0 ? (double)n / seconds : 0;
}

static json_t *
lat_json(const struct nb_hist *h)
{
	if (h->count == 0)
		return json_null();
	return json_pack("{s:I,s:I,s:f,s:I,s:I,s:I}", "count",
			 (json_int_t)h->count, "min_ns", (json_int_t)h->min,
			 "mean_ns", nb_hist_mean(h), "p50_ns",
			 (json_int_t)nb_hist_percentile(h, 50.0), "p99_ns",
			 (json_int_t)nb_hist_percentile(h, 99.0), "max_ns",
			 (json_int_t)h->max);
}

/* ---- 5.1/5.2: forwarding rate at the maximum load, and the highest ---- */

struct fwd {
	json_t *steps, *ports, *lossy;
	double fr_mol, mfr, mfr_offered;
};

/* Frames forwarded to their destination port per second. */
static double
forwarded_pps(const struct nb_trial_rec *t, const struct nb_result *r)
{
	uint64_t n = 0;
	uint16_t k;

	if (r->mesh == NULL)
		return t->rx_pps;
	for (k = 0; k < r->mesh->nb_pairs; k++)
		n += r->mesh->pairs[k].unique;
	return per_s(n, r->tx_seconds);
}

/* A port's id in a row's detail; across hosts, which end's it is. */
static json_t *
port_id(json_t *o, const char *key, const char *host_key, uint16_t id,
	const struct nb_mesh_result *m)
{
	char h[16];

	json_object_set_new(o, key, json_integer(nb_mesh_port_id(id)));
	if (m->across)
		json_object_set_new(
			o, host_key,
			json_string(nb_mesh_host_of(id, h, sizeof(h))));
	return o;
}

static void
fwd_at_mol(struct fwd *c, const struct nb_result *r)
{
	const struct nb_mesh_result *m = r->mesh;
	json_t *o;
	uint16_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->nb_ports; i++) {
		o = port_id(json_object(), "port", "host", m->ports[i].port, m);
		json_object_set_new(
			o, "offered_pps",
			json_real(per_s(m->ports[i].sent, r->tx_seconds)));
		json_object_set_new(
			o, "forwarded_pps",
			json_real(per_s(m->ports[i].received, r->tx_seconds)));
		json_array_append_new(c->ports, o);
	}
	for (i = 0; i < m->nb_pairs; i++) {
		if (m->pairs[i].lost == 0)
			continue;
		o = port_id(json_object(), "src", "src_host", m->pairs[i].src,
			    m);
		port_id(o, "dst", "dst_host", m->pairs[i].dst, m);
		json_object_set_new(o, "sent",
				    json_integer((json_int_t)m->pairs[i].sent));
		json_object_set_new(o, "lost",
				    json_integer((json_int_t)m->pairs[i].lost));
		json_array_append_new(c->lossy, o);
	}
}

static void
fwd_result(struct suite *x, struct nb_trial_rec *t, const struct nb_result *r)
{
	struct fwd *c = x->ctx;
	double fr = forwarded_pps(t, r);

	if (json_array_size(c->steps) == 0) {
		c->fr_mol = fr;
		fwd_at_mol(c, r);
	}
	if (fr > c->mfr) {
		c->mfr = fr;
		c->mfr_offered = t->tx_pps;
	}
	json_array_append_new(c->steps,
			      json_pack("{s:f,s:f,s:f,s:f}", "asked_pps",
					t->req_pps, "offered_pps", t->tx_pps,
					"forwarded_pps", fr, "loss_ratio",
					t->loss));
}

static void
fwd_rate(struct suite *x, uint16_t size)
{
	const struct nb_config *cfg = &x->app->cfg;
	struct fwd c = {json_array(), json_array(), json_array(), 0, 0, 0};
	struct nb_suite_row row;
	struct nb_ladder l;
	double share, start = nb_suite_now();
	uint32_t n0 = x->rep.nb_trials;

	memset(&row, 0, sizeof(row));
	row.kind = NB_SUITE_FWD_RATE;
	row.size = size;
	if (nb_suite_ceiling(x, size, NB_SUITE_FWD_RATE, &row.max_pps) == 0) {
		x->on_result = fwd_result;
		x->ctx = &c;
		/* 100 %, 90 %, ... until two steps in a row lose nothing */
		nb_ladder_init(&l, cfg->loss_step);
		while (!nb_suite_stopped(x) && nb_ladder_next(&l, &share)) {
			struct nb_trial_rec t;

			memset(&t, 0, sizeof(t));
			t.kind = NB_SUITE_FWD_RATE;
			t.size = size;
			t.req_pps = share * row.max_pps;
			t.seconds = cfg->trial_time;
			if (nb_suite_trial(x, &t) != 0)
				break;
			nb_ladder_report(&l, t.lost);
		}
		row.valid = l.finished || !nb_ladder_next(&l, &share);
		x->on_result = NULL;
	}
	row.trials = x->rep.nb_trials - n0;
	row.seconds = nb_suite_now() - start;
	row.detail =
		json_pack("{s:f,s:f,s:f,s:f,s:o,s:o,s:o}", "offered_max_pps",
			  row.max_pps, "fr_mol_pps", c.fr_mol, "mfr_pps", c.mfr,
			  "mfr_offered_pps", c.mfr_offered, "steps", c.steps,
			  "ports", c.ports, "lossy_pairs", c.lossy);
	nb_suite_add_row(&x->rep, &row);
}

/* ---- 5.5: congestion control ---- */

/* Pause frames the sending ports received (xstats naming pause or xoff
 * on the receive side); -1 when their PMDs count none. */
static long long
pause_frames(const struct nb_result *r, const struct nb_mesh_result *m)
{
	long long n = -1;
	uint32_t p, k;
	uint16_t i;

	for (p = 0; p < r->nb_ports; p++) {
		const struct nb_pmd_stats *s = &r->ports[p].pmd;

		for (i = 0; i < 2; i++) /* A and B: the senders */
			if (r->ports[p].desc.port_id == m->ports[i].port)
				break;
		if (i == 2)
			continue;
		for (k = 0; k < s->nb_xstats; k++)
			if (strncmp(s->xstats[k].name, "rx", 2) == 0 &&
			    (strstr(s->xstats[k].name, "pause") ||
			     strstr(s->xstats[k].name, "xoff")))
				n = (n < 0 ? 0 : n) +
				    (long long)s->xstats[k].value;
	}
	return n;
}

static json_t *
pair_json(const struct nb_mesh_pair_result *p, const char *role)
{
	return json_pack("{s:i,s:i,s:s,s:I,s:I,s:I,s:f}", "src", p->src, "dst",
			 p->dst, "role", role, "sent", (json_int_t)p->sent,
			 "forwarded", (json_int_t)p->unique, "lost",
			 (json_int_t)p->lost, "lost_percent",
			 p->sent ? 100.0 * (double)p->lost / (double)p->sent
				 : 0.0);
}

static json_t *
congestion_detail(const struct nb_result *r)
{
	const struct nb_mesh_result *m = r->mesh;
	uint16_t a = m->ports[0].port, b = m->ports[1].port,
		 c = m->ports[2].port, d = m->ports[3].port;
	const struct nb_mesh_pair_result *ac = nb_mesh_pair_of(m, a, c),
					 *ad = nb_mesh_pair_of(m, a, d),
					 *bc = nb_mesh_pair_of(m, b, c);
	long long pause = pause_frames(r, m);
	uint64_t lost_c = ac->lost + bc->lost;
	char verdict[320], bp[320];

	if (ad->lost)
		snprintf(verdict, sizeof(verdict),
			 "head-of-line blocking: %u>%u, into the uncongested "
			 "port, lost %llu of %llu frames while port %u was "
			 "congested",
			 a, d, (unsigned long long)ad->lost,
			 (unsigned long long)ad->sent, c);
	else if (lost_c == 0)
		snprintf(verdict, sizeof(verdict),
			 "no congestion: port %u lost nothing of what %u and "
			 "%u sent it; offer more (--rate)",
			 c, a, b);
	else
		snprintf(verdict, sizeof(verdict),
			 "no head-of-line blocking: %u>%u lost 0 of %llu "
			 "frames while the congested port %u lost %llu",
			 a, d, (unsigned long long)ad->sent, c,
			 (unsigned long long)lost_c);
	if (pause < 0)
		snprintf(bp, sizeof(bp),
			 "cannot be seen: the sending ports' drivers count no "
			 "pause frames; the congested port lost %llu frames",
			 (unsigned long long)lost_c);
	else if (pause > 0)
		snprintf(bp, sizeof(bp),
			 "present: the sending ports received %lld pause "
			 "frames",
			 pause);
	else
		snprintf(bp, sizeof(bp),
			 "none: no pause frames; the congested port dropped "
			 "%llu frames",
			 (unsigned long long)lost_c);
	return json_pack(
		"{s:{s:i,s:i,s:i,s:i},s:[o,o,o],s:b,s:b,s:s,s:o,s:s}", "roles",
		"a", a, "b", b, "congested", c, "uncongested", d, "pairs",
		pair_json(ac, "congested"), pair_json(ad, "uncongested"),
		pair_json(bc, "congested"), "hol_blocking", ad->lost > 0,
		"congested", lost_c > 0, "verdict", verdict, "pause_frames",
		pause < 0 ? json_null() : json_integer(pause), "back_pressure",
		bp);
}

static void
congestion_result(struct suite *x, struct nb_trial_rec *t,
		  const struct nb_result *r)
{
	json_t **detail = x->ctx;

	(void)t;
	if (r->mesh != NULL && r->mesh->nb_ports == 4) {
		json_decref(*detail);
		*detail = congestion_detail(r);
	}
}

static void
congestion(struct suite *x, uint16_t size)
{
	struct nb_suite_row row;
	struct nb_trial_rec t;
	double start = nb_suite_now();

	memset(&row, 0, sizeof(row));
	row.kind = NB_SUITE_CONGESTION;
	row.size = size;
	if (nb_suite_ceiling(x, size, NB_SUITE_CONGESTION, &row.max_pps) == 0) {
		/* the ceiling is both senders': each offers half, A half
		 * of its own to C and half to D, B all of its to C */
		memset(&t, 0, sizeof(t));
		t.kind = NB_SUITE_CONGESTION;
		t.size = size;
		t.req_pps = row.max_pps;
		t.seconds = x->app->cfg.trial_time;
		x->on_result = congestion_result;
		x->ctx = &row.detail;
		row.valid = nb_suite_trial(x, &t) == 0 && row.detail != NULL;
		x->on_result = NULL;
		row.trials = 1;
	}
	row.seconds = nb_suite_now() - start;
	if (row.detail == NULL)
		row.detail = json_object();
	nb_suite_add_row(&x->rep, &row);
}

/* ---- 5.10: broadcast forwarding and latency ---- */

struct bcast {
	int keep; /* the last trial: keep each port's figures */
	json_t *ports;
};

/* A port's figures of the trial, its latency from its receive jobs. */
static json_t *
bcast_port(struct suite *x, const struct nb_result *r,
	   const struct nb_rxport_result *p, struct nb_hist *h)
{
	struct nb_rxport_result sum;
	uint32_t s;

	memset(&sum, 0, sizeof(sum));
	nb_hist_init(h);
	for (s = 0; s < r->nb_streams; s++)
		nb_jobs_read_port_stream(&x->app->jobs, p->port, s, &sum, h);
	return json_pack("{s:i,s:I,s:I,s:I,s:f,s:o}", "port", p->port, "sent",
			 (json_int_t)r->rx_sent, "received",
			 (json_int_t)p->unique, "lost", (json_int_t)p->lost,
			 "forwarded_pps", per_s(p->unique, r->rx_seconds),
			 "latency", lat_json(h));
}

/* A fan-out trial's loss is its worst port's. */
static void
bcast_result(struct suite *x, struct nb_trial_rec *t, const struct nb_result *r)
{
	struct bcast *c = x->ctx;
	struct nb_hist *h;
	uint64_t worst = 0, least = UINT64_MAX;
	uint16_t i;

	for (i = 0; i < r->nb_rxports; i++) {
		if (r->rxports[i].lost > worst)
			worst = r->rxports[i].lost;
		if (r->rxports[i].unique < least)
			least = r->rxports[i].unique;
	}
	if (r->nb_rxports) {
		t->lost = worst;
		t->rx = least;
		t->loss = t->tx ? (double)worst / (double)t->tx : 1;
		t->rx_pps = per_s(least, r->rx_seconds);
		t->pass = t->pass && worst == 0;
	}
	if (!c->keep || (h = malloc(sizeof(*h))) == NULL)
		return;
	json_array_clear(c->ports);
	for (i = 0; i < r->nb_rxports; i++)
		json_array_append_new(c->ports,
				      bcast_port(x, r, &r->rxports[i], h));
	free(h);
}

static void
broadcast(struct suite *x, uint16_t size)
{
	struct bcast c = {0, json_array()};
	struct nb_suite_row thr, row;
	struct nb_trial_rec t;
	double start = nb_suite_now();

	x->on_result = bcast_result;
	x->ctx = &c;
	nb_suite_throughput(x, size, NB_SUITE_BROADCAST, &thr);
	memset(&row, 0, sizeof(row));
	row.kind = NB_SUITE_BROADCAST;
	row.size = size;
	row.max_pps = thr.max_pps;
	memset(&t, 0, sizeof(t));
	if (!nb_suite_stopped(x) && thr.max_pps > 0) {
		/* every port's figures and latency at the rate found (at
		 * the maximum when none passed) */
		c.keep = 1;
		t.kind = NB_SUITE_BROADCAST;
		t.size = size;
		t.req_pps = thr.lower[0] > 0 ? thr.lower[0] : thr.max_pps;
		t.seconds = x->app->cfg.trial_time;
		row.valid = nb_suite_trial(x, &t) == 0 && thr.valid;
	}
	x->on_result = NULL;
	row.trials = thr.trials + (t.kind ? 1 : 0);
	row.seconds = nb_suite_now() - start;
	row.detail =
		json_pack("{s:i,s:f,s:f,s:f,s:b,s:o}", "source",
			  x->app->cfg.tx_ports[0], "throughput_pps",
			  thr.lower[0], "upper_pps", thr.upper[0], "load_pps",
			  t.req_pps, "gave_up", thr.gave_up, "ports", c.ports);
	nb_suite_add_row(&x->rep, &row);
}

void
nb_rfc2889_size(struct suite *x, uint16_t size)
{
	unsigned int kinds = x->rep.kinds;

	if ((kinds & NB_SUITE_FWD_RATE) && !nb_suite_stopped(x))
		fwd_rate(x, size);
	if ((kinds & NB_SUITE_CONGESTION) && !nb_suite_stopped(x))
		congestion(x, size);
	if ((kinds & NB_SUITE_BROADCAST) && !nb_suite_stopped(x))
		broadcast(x, size);
	if ((kinds & NB_SUITE_ADDR_CACHE) && !nb_suite_stopped(x))
		nb_rfc2889_addr_cache(x, size);
	if ((kinds & NB_SUITE_ADDR_LEARN) && !nb_suite_stopped(x))
		nb_rfc2889_addr_learn(x, size);
	if ((kinds & NB_SUITE_ERRORED) && !nb_suite_stopped(x) &&
	    size == x->app->cfg.sweep.sizes[0])
		nb_rfc2889_errored(x);
}
