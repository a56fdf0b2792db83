/* SPDX-License-Identifier: BSD-3-Clause */
/* A suite's record and writers: see nb_suite_report.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nb_hist.h"
#include "nb_suite_opts.h"
#include "nb_rfc2889.h"
#include "nb_suite_report.h"

#define L1_OVERHEAD 20 /* preamble, SFD and inter-frame gap */

double
nb_suite_l1(double pps, uint16_t size)
{
	return pps * (size + L1_OVERHEAD) * 8.0;
}

double
nb_suite_l2(double pps, uint16_t size)
{
	return pps * size * 8.0;
}

const char *
nb_suite_kind_name(unsigned int kind)
{
	return kind == NB_SUITE_SWEEP ? "sweep" : nb_suite_name(kind);
}

void
nb_suite_report_init(struct nb_suite_report *s, const struct nb_config *cfg,
		     const char *topology, unsigned int kinds, double line_bps)
{
	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	s->topology = topology;
	s->kinds = kinds;
	s->line_bps = line_bps;
}

void
nb_suite_report_free(struct nb_suite_report *s)
{
	uint32_t i;

	for (i = 0; i < s->nb_rows; i++)
		json_decref(s->rows[i].detail);
	free(s->trials);
	free(s->rows);
	s->trials = NULL;
	s->rows = NULL;
	s->nb_trials = s->cap_trials = s->nb_rows = s->cap_rows = 0;
}

static int
grow(void **p, uint32_t *cap, uint32_t n, size_t elem)
{
	void *q;
	uint32_t c;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 64;
	q = realloc(*p, (size_t)c * elem);
	if (q == NULL)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

int
nb_suite_add_trial(struct nb_suite_report *s, const struct nb_trial_rec *t)
{
	if (grow((void **)&s->trials, &s->cap_trials, s->nb_trials,
		 sizeof(*t)) != 0)
		return -ENOMEM;
	s->trials[s->nb_trials++] = *t;
	return 0;
}

int
nb_suite_add_row(struct nb_suite_report *s, const struct nb_suite_row *r)
{
	if (grow((void **)&s->rows, &s->cap_rows, s->nb_rows, sizeof(*r)) != 0)
		return -ENOMEM;
	s->rows[s->nb_rows++] = *r;
	return 0;
}

void
nb_lat_stats_of(struct nb_lat_stats *l, const struct nb_hist *h,
		double jitter_ns)
{
	memset(l, 0, sizeof(*l));
	l->count = h->count;
	l->jitter_ns = jitter_ns;
	if (h->count == 0)
		return;
	l->min_ns = (double)h->min;
	l->max_ns = (double)h->max;
	l->mean_ns = nb_hist_mean(h);
	l->p50_ns = (double)nb_hist_percentile(h, 50);
	l->p99_ns = (double)nb_hist_percentile(h, 99);
	l->p999_ns = (double)nb_hist_percentile(h, 99.9);
}

/* ---- text ---- */

static double
share(const struct nb_suite_report *s, double pps, uint16_t size)
{
	return s->line_bps > 0 ? 100.0 * nb_suite_l1(pps, size) / s->line_bps
			       : 0;
}

static void
pct_text(char *buf, size_t len, double v)
{
	if (v > 0)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "-");
}

void
nb_suite_text_begin(FILE *f, const struct nb_suite_report *s)
{
	const struct nb_config *c = s->cfg;
	unsigned int k;
	uint32_t i;

	fprintf(f, "Suite (%s):", s->topology);
	for (k = 0; nb_suite_kinds[k]; k++)
		if (s->kinds & nb_suite_kinds[k])
			fprintf(f, " %s", nb_suite_name(nb_suite_kinds[k]));
	if (s->kinds & NB_SUITE_SWEEP)
		fprintf(f, " size sweep");
	fprintf(f, "; sizes");
	for (i = 0; i < c->sweep.n; i++)
		fprintf(f, "%s%u", i ? "," : " ", c->sweep.sizes[i]);
	fprintf(f, " B");
	if (!(s->kinds & ~(NB_SUITE_ADDR_CACHE | NB_SUITE_ADDR_LEARN)))
		fprintf(f,
			"; address trials (a learning phase, then a test "
			"phase) after a wait of %g s for the table to age out",
			nb_rfc2889_aging_wait(c->aging));
	else if (s->kinds & ~NB_SUITE_SWEEP)
		fprintf(f, "; trials %g s (first %g s), settle %g s",
			c->trial_time, c->first_trial, c->settle);
	if (s->line_bps > 0)
		fprintf(f, "; line %.4g Gbit/s", s->line_bps / 1e9);
	fprintf(f, "\n");
	fflush(f);
}

void
nb_suite_text_trial(FILE *f, const struct nb_trial_rec *t)
{
	char asked[48];

	if (t->req_pps > 0)
		snprintf(asked, sizeof(asked), "%.6f Mpps", t->req_pps / 1e6);
	else
		snprintf(asked, sizeof(asked), "max");
	fprintf(f,
		"trial %3u %-12s %4u B  asked %-16s sent %.6f Mpps  "
		"%llu sent, %llu lost (%.6f%%)",
		t->index, nb_suite_kind_name(t->kind), t->size, asked,
		t->tx_pps / 1e6, (unsigned long long)t->tx,
		(unsigned long long)t->lost, t->loss * 100);
	if (t->burst)
		fprintf(f, "  burst %llu", (unsigned long long)t->burst);
	else
		fprintf(f, "  %.2f s", t->seconds);
	fprintf(f, "  %s%s%s%s\n", t->pass ? "pass" : "FAIL",
		t->short_rate ? " (rate not reached)" : "",
		t->retry ? " (repeat)" : "",
		t->interrupted ? " (interrupted)" : "");
	fflush(f);
}

static void
text_throughput(FILE *f, const struct nb_suite_report *s)
{
	uint32_t i, g;
	int head = 0;

	for (i = 0; i < s->nb_rows; i++) {
		const struct nb_suite_row *r = &s->rows[i];

		if (r->kind != NB_SUITE_THROUGHPUT)
			continue;
		if (!head++)
			fprintf(f, "\nThroughput (RFC 2544 26.1): the highest "
				   "rate that lost at most the tolerance\n"
				   "  size  loss<=      Mpps   Gbit/s L1  "
				   "Gbit/s L2  %% line   upper Mpps  trials  "
				   "seconds\n");
		for (g = 0; g < r->nb_goals; g++) {
			char pct[16], up[24], tol[24];

			pct_text(pct, sizeof(pct),
				 share(s, r->lower[g], r->size));
			snprintf(tol, sizeof(tol), "%.4g%%", r->tol[g] * 100);
			if (r->upper[g] > 0)
				snprintf(up, sizeof(up), "%.6f",
					 r->upper[g] / 1e6);
			else
				snprintf(up, sizeof(up), "none");
			fprintf(f,
				"  %4u  %-8s  %10.6f  %9.4f  %9.4f  %6s  "
				"%10s  %6u  %7.1f%s\n",
				r->size, tol, r->lower[g] / 1e6,
				nb_suite_l1(r->lower[g], r->size) / 1e9,
				nb_suite_l2(r->lower[g], r->size) / 1e9, pct,
				up, r->trials, r->seconds,
				r->gave_up  ? "  (gave up: trial budget spent)"
				: !r->valid ? "  (interrupted)"
				: r->lower[g] == 0 ? "  (fails at the minimum)"
						   : "");
		}
	}
}

static void
text_lat_row(FILE *f, const struct nb_suite_report *s,
	     const struct nb_suite_row *r, int with_load)
{
	const struct nb_lat_stats *l = &r->t.lat;

	fprintf(f, "  %4u  ", r->size);
	if (with_load)
		fprintf(f, "%10.6f  %6.1f  ", r->load_pps / 1e6,
			share(s, r->load_pps, r->size));
	else
		fprintf(f, "%10.6f  %9.4f  %8llu  ", r->t.rx_pps / 1e6,
			nb_suite_l1(r->t.rx_pps, r->size) / 1e9,
			(unsigned long long)r->t.lost);
	if (l->count)
		fprintf(f, "%8.2f %8.2f %8.2f %8.2f %8.2f %9.2f %8.3f\n",
			l->min_ns / 1e3, l->mean_ns / 1e3, l->p50_ns / 1e3,
			l->p99_ns / 1e3, l->p999_ns / 1e3, l->max_ns / 1e3,
			l->jitter_ns / 1e3);
	else
		fprintf(f, "(no latency samples)\n");
}

static void
text_latency(FILE *f, const struct nb_suite_report *s)
{
	uint32_t i;
	int head = 0, shead = 0;

	for (i = 0; i < s->nb_rows; i++) {
		const struct nb_suite_row *r = &s->rows[i];

		if (r->kind == NB_SUITE_LATENCY && r->valid) {
			if (!head++)
				fprintf(f,
					"\nLatency (RFC 2544 26.2) at %.0f%% "
					"of "
					"the throughput, microseconds\n"
					"  size   load Mpps  %% line   "
					"  min     mean      p50      p99    "
					"p99.9       max   jitter\n",
					s->cfg->latency_load * 100);
			text_lat_row(f, s, r, 1);
		}
		if (r->kind == NB_SUITE_SWEEP && r->valid) {
			if (!shead++) {
				fprintf(f,
					s->cfg->pingpong
						? "\nPing-pong sweep: one "
						  "probe at a time of each "
						  "size; round trips per "
						  "second (as Mpps), probes "
						  "lost, round-trip time in "
						  "microseconds\n"
						: "\nSize sweep: one test per "
						  "size; received rate, lost "
						  "frames, latency in "
						  "microseconds\n");
				fprintf(f,
					"  size    rx Mpps  Gbit/s L1      lost"
					"       min     mean      p50      p99"
					"    p99.9       max   jitter\n");
			}
			text_lat_row(f, s, r, 0);
		}
	}
}

static void
text_loss(FILE *f, const struct nb_suite_report *s)
{
	uint32_t i;
	int head = 0;

	for (i = 0; i < s->nb_trials; i++) {
		const struct nb_trial_rec *t = &s->trials[i];
		double of_max = 0;
		uint32_t k;

		if (t->kind != NB_SUITE_LOSS || t->interrupted)
			continue;
		for (k = 0; k < s->nb_rows; k++)
			if (s->rows[k].kind == NB_SUITE_LOSS &&
			    s->rows[k].size == t->size &&
			    s->rows[k].max_pps > 0)
				of_max = 100 * t->req_pps / s->rows[k].max_pps;
		if (!head++)
			fprintf(f, "\nFrame loss rate (RFC 2544 26.3)\n"
				   "  size  %% of max   asked Mpps       sent"
				   "       lost   loss %%\n");
		fprintf(f, "  %4u  %8.1f  %11.6f  %9llu  %9llu  %.6f\n",
			t->size, of_max, t->req_pps / 1e6,
			(unsigned long long)t->tx, (unsigned long long)t->lost,
			t->loss * 100);
	}
}

static void
text_b2b(FILE *f, const struct nb_suite_report *s)
{
	uint32_t i;
	int head = 0;

	for (i = 0; i < s->nb_rows; i++) {
		const struct nb_suite_row *r = &s->rows[i];

		if (r->kind != NB_SUITE_B2B)
			continue;
		if (!head++)
			fprintf(f,
				"\nBack-to-back (RFC 2544 26.4): the longest "
				"burst at the maximum rate with no loss\n"
				"  size  repeats   mean frames      min      "
				"max   mean ms\n");
		fprintf(f, "  %4u  %7u  %12.1f  %7llu  %7llu  %8.3f\n", r->size,
			r->repeats, r->burst_mean,
			(unsigned long long)r->burst_min,
			(unsigned long long)r->burst_max,
			r->max_pps > 0 ? 1e3 * r->burst_mean / r->max_pps : 0);
	}
}

void
nb_suite_text(FILE *f, const struct nb_suite_report *s)
{
	text_throughput(f, s);
	text_latency(f, s);
	text_loss(f, s);
	text_b2b(f, s);
	nb_rfc2889_text(f, s);
	fprintf(f, "\n%u trials in %.1f s%s\n", s->nb_trials, s->seconds,
		s->interrupted ? "; interrupted: the suite is incomplete" : "");
	fflush(f);
}

/* ---- JSON ---- */

static json_t *
lat_json(const struct nb_lat_stats *l)
{
	if (l->count == 0)
		return json_null();
	return json_pack("{s:I,s:f,s:f,s:f,s:f,s:f,s:f,s:f}", "count",
			 (json_int_t)l->count, "min_ns", l->min_ns, "mean_ns",
			 l->mean_ns, "p50_ns", l->p50_ns, "p99_ns", l->p99_ns,
			 "p99_9_ns", l->p999_ns, "max_ns", l->max_ns,
			 "jitter_ns", l->jitter_ns);
}

json_t *
nb_suite_json_trial(const struct nb_trial_rec *t)
{
	json_t *o = json_pack(
		"{s:s,s:i,s:i,s:i,s:i,s:b,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,"
		"s:I,s:I,s:I,s:f,s:b,s:b,s:b}",
		"test", nb_suite_kind_name(t->kind), "size", t->size, "trial",
		t->index, "phase", t->phase, "repeat", t->repeat, "retry",
		t->retry, "start", t->start_s, "seconds", t->seconds, "req_pps",
		t->req_pps, "tx_pps", t->tx_pps, "rx_pps", t->rx_pps,
		"tx_l1_bps", nb_suite_l1(t->tx_pps, t->size), "tx_l2_bps",
		nb_suite_l2(t->tx_pps, t->size), "tx_seconds", t->tx_seconds,
		"tx_packets", (json_int_t)t->tx, "rx_packets",
		(json_int_t)t->rx, "lost_packets", (json_int_t)t->lost,
		"loss_ratio", t->loss, "pass", t->pass, "rate_not_reached",
		t->short_rate, "interrupted", t->interrupted);

	if (t->burst)
		json_object_set_new(o, "burst",
				    json_integer((json_int_t)t->burst));
	json_object_set_new(o, "latency", lat_json(&t->lat));
	return o;
}

static json_t *
row_json(const struct nb_suite_report *s, const struct nb_suite_row *r)
{
	json_t *o = json_pack("{s:s,s:i,s:i,s:f,s:f,s:b}", "test",
			      nb_suite_kind_name(r->kind), "size", r->size,
			      "trials", r->trials, "seconds", r->seconds,
			      "max_pps", r->max_pps, "complete", r->valid);
	uint32_t g;

	if (r->kind & NB_SUITE_RFC2889) {
		json_object_set_new(o, "section",
				    json_string(nb_suite_section(r->kind)));
		if (r->detail != NULL)
			json_object_update(o, r->detail);
		return o;
	}

	if (r->kind == NB_SUITE_THROUGHPUT) {
		json_t *a = json_array();

		for (g = 0; g < r->nb_goals; g++) {
			json_t *b = json_pack(
				"{s:f,s:f,s:f,s:f,s:f}", "loss_tolerance",
				r->tol[g], "pps", r->lower[g], "l1_bps",
				nb_suite_l1(r->lower[g], r->size), "l2_bps",
				nb_suite_l2(r->lower[g], r->size),
				"percent_of_line",
				share(s, r->lower[g], r->size));

			json_object_set_new(b, "upper_pps",
					    r->upper[g] > 0
						    ? json_real(r->upper[g])
						    : json_null());
			json_array_append_new(a, b);
		}
		json_object_set_new(o, "bounds", a);
		json_object_set_new(o, "gave_up", json_boolean(r->gave_up));
	} else if (r->kind == NB_SUITE_LATENCY) {
		json_object_set_new(o, "load_pps", json_real(r->load_pps));
		json_object_set_new(o, "latency", lat_json(&r->t.lat));
		json_object_set_new(o, "lost_packets",
				    json_integer((json_int_t)r->t.lost));
	} else if (r->kind == NB_SUITE_SWEEP) {
		json_object_set_new(o, "result", nb_suite_json_trial(&r->t));
	} else if (r->kind == NB_SUITE_LOSS) {
		json_object_set_new(o, "clean_share",
				    json_real(r->clean_share));
	} else if (r->kind == NB_SUITE_B2B) {
		json_object_set_new(o, "repeats", json_integer(r->repeats));
		json_object_set_new(o, "burst_mean", json_real(r->burst_mean));
		json_object_set_new(o, "burst_min",
				    json_integer((json_int_t)r->burst_min));
		json_object_set_new(o, "burst_max",
				    json_integer((json_int_t)r->burst_max));
	}
	return o;
}

json_t *
nb_suite_json(const struct nb_suite_report *s)
{
	const struct nb_config *c = s->cfg;
	json_t *tests = json_array(), *sizes = json_array(),
	       *tol = json_array(), *trials = json_array(),
	       *rows = json_array(), *start, *doc;
	unsigned int k;
	uint32_t i;

	for (k = 0; nb_suite_kinds[k]; k++)
		if (s->kinds & nb_suite_kinds[k])
			json_array_append_new(
				tests,
				json_string(nb_suite_name(nb_suite_kinds[k])));
	if (s->kinds & NB_SUITE_SWEEP)
		json_array_append_new(tests, json_string("sweep"));
	for (i = 0; i < c->sweep.n; i++)
		json_array_append_new(sizes, json_integer(c->sweep.sizes[i]));
	for (i = 0; i < c->nb_tol; i++)
		json_array_append_new(tol, json_real(c->loss_tol[i]));
	for (i = 0; i < s->nb_trials; i++)
		json_array_append_new(trials,
				      nb_suite_json_trial(&s->trials[i]));
	for (i = 0; i < s->nb_rows; i++)
		json_array_append_new(rows, row_json(s, &s->rows[i]));
	start = json_pack("{s:s,s:o,s:o,s:f,s:f,s:f,s:o,s:f,s:f,s:i}",
			  "topology", s->topology, "tests", tests, "sizes",
			  sizes, "trial_time", c->trial_time, "first_trial",
			  c->first_trial, "settle", c->settle, "loss_tolerance",
			  tol, "latency_load", c->latency_load, "line_l1_bps",
			  s->line_bps, "b2b_trials", c->trials);
	doc = json_pack("{s:o,s:{s:o,s:o,s:I,s:f,s:b}}", "start", start,
			"suite", "trials", trials, "results", rows, "nb_trials",
			(json_int_t)s->nb_trials, "seconds", s->seconds,
			"interrupted", s->interrupted);
	/* JSON lines' "end" event: the results without the trials */
	json_object_set_new(
		doc, "end",
		json_pack("{s:O,s:I,s:f,s:b}", "results",
			  json_object_get(json_object_get(doc, "suite"),
					  "results"),
			  "nb_trials", (json_int_t)s->nb_trials, "seconds",
			  s->seconds, "interrupted", s->interrupted));
	if (s->error[0])
		json_object_set_new(doc, "error", json_string(s->error));
	return doc;
}

/* ---- CSV ---- */

const char nb_suite_csv_header[] =
	"test,size,trial,phase,repeat,retry,start,seconds,burst,req_pps,"
	"tx_pps,rx_pps,tx_l1_bps,tx_l2_bps,tx_packets,rx_packets,"
	"lost_packets,loss_ratio,pass,rate_not_reached,interrupted,"
	"lat_count,lat_min_ns,lat_mean_ns,lat_p50_ns,lat_p99_ns,"
	"lat_p99_9_ns,lat_max_ns,jitter_ns";

void
nb_suite_csv_trial(FILE *f, const struct nb_trial_rec *t)
{
	const struct nb_lat_stats *l = &t->lat;

	fprintf(f,
		"%s,%u,%u,%u,%u,%d,%.6f,%.6f,%llu,%.17g,%.17g,%.17g,%.17g,"
		"%.17g,%llu,%llu,%llu,%.17g,%d,%d,%d,%llu,%.0f,%.1f,%.0f,"
		"%.0f,%.0f,%.0f,%.1f\n",
		nb_suite_kind_name(t->kind), t->size, t->index, t->phase,
		t->repeat, t->retry, t->start_s, t->seconds,
		(unsigned long long)t->burst, t->req_pps, t->tx_pps, t->rx_pps,
		nb_suite_l1(t->tx_pps, t->size),
		nb_suite_l2(t->tx_pps, t->size), (unsigned long long)t->tx,
		(unsigned long long)t->rx, (unsigned long long)t->lost, t->loss,
		t->pass, t->short_rate, t->interrupted,
		(unsigned long long)l->count, l->min_ns, l->mean_ns, l->p50_ns,
		l->p99_ns, l->p999_ns, l->max_ns, l->jitter_ns);
	fflush(f);
}
