/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include "nb_frame.h"
#include "nb_output.h"
#include "nb_phase.h"
#include "nb_queue_iv.h"
#include "nb_rxonly.h"

const char nb_csv_header[] =
	"kind,direction,start,end,seconds,stream,omitted,sent_packets,"
	"sent_bytes,packets,bytes,bits_per_second,l1_bits_per_second,pps,"
	"lost_packets,lost_percent,out_of_order,duplicates,jitter_ms,"
	"latency_p50_ns,latency_p99_ns,latency_max_ns";

/* The first write error on the report's stream and on --json-file. */
static int out_errno, file_errno;

/* Flush the report's stream; the first failure is kept (a full disk
 * under --logfile), and the next writes are tried all the same. */
static void
flush(const struct nb_output *o)
{
	if (fflush(o->f) != 0 && out_errno == 0)
		out_errno = errno ? errno : EIO;
}

int
nb_out_stream_error(FILE *f)
{
	if (fflush(f) != 0 && out_errno == 0)
		out_errno = errno ? errno : EIO;
	if (ferror(f) && out_errno == 0)
		out_errno = EIO;
	return out_errno;
}

int
nb_out_file_error(void)
{
	return file_errno;
}

void
nb_output_init(struct nb_output *o, const struct nb_config *cfg, FILE *f,
	       int tty)
{
	memset(o, 0, sizeof(*o));
	o->kind = cfg->json	     ? NB_OUT_JSON
		  : cfg->json_stream ? NB_OUT_JSON_STREAM
		  : cfg->csv	     ? NB_OUT_CSV
				     : NB_OUT_TEXT;
	o->f = f;
	o->format = cfg->format ? cfg->format : 'a';
	o->quiet = cfg->quiet;
	o->intervals =
		o->kind == NB_OUT_TEXT && !cfg->quiet && cfg->interval > 0;
	o->per_queue = cfg->per_queue;
	o->progress = o->kind == NB_OUT_TEXT && !cfg->quiet &&
		      cfg->interval <= 0 && tty;
	o->json_file = cfg->json_file[0] ? cfg->json_file : NULL;
}

static void
event(const struct nb_output *o, const char *name, json_t *data)
{
	json_t *e = json_pack("{s:s,s:o}", "event", name, "data", data);

	json_dumpf(e, o->f, JSON_COMPACT | JSON_REAL_PRECISION(17));
	fputc('\n', o->f);
	flush(o);
	json_decref(e);
}

void
nb_out_event(const struct nb_output *o, const char *name, json_t *data)
{
	if (o->kind == NB_OUT_JSON_STREAM)
		event(o, name, data);
	else
		json_decref(data);
}

static double
div0(double a, double b)
{
	return b > 0 ? a / b : 0;
}

struct csv_row {
	const char *kind, *direction;
	double start, end;
	const char *stream; /* id or "sum" */
	int omitted;
	struct nb_iv_row v;
	uint64_t lost_base; /* lost_percent's denominator */
};

static void
csv_row(FILE *f, const struct csv_row *c)
{
	const struct nb_iv_row *v = &c->v;
	double secs = c->end - c->start;

	fprintf(f,
		"%s,%s,%.6f,%.6f,%.6f,%s,%d,%llu,%llu,%llu,%llu,%.17g,"
		"%.17g,%.17g,%llu,%.17g,%llu,%llu,%.6f,",
		c->kind, c->direction, c->start, c->end, secs, c->stream,
		c->omitted, (unsigned long long)v->sent_pkts,
		(unsigned long long)v->sent_bytes, (unsigned long long)v->pkts,
		(unsigned long long)v->bytes, div0(v->bytes * 8.0, secs),
		div0((v->bytes + v->pkts * (double)NB_L1_OVERHEAD) * 8.0, secs),
		div0((double)v->pkts, secs), (unsigned long long)v->lost,
		div0(100.0 * v->lost, (double)c->lost_base),
		(unsigned long long)v->ooo, (unsigned long long)v->dup,
		v->jitter_ns / 1e6);
	if (v->have_lat)
		fprintf(f, "%llu,%llu,%llu\n", (unsigned long long)v->p50,
			(unsigned long long)v->p99, (unsigned long long)v->max);
	else
		fprintf(f, ",,\n");
}

/* An interval's row: loss relative to what arrived or went missing. */
static void
csv_interval_row(FILE *f, struct csv_row *c, const struct nb_interval *iv,
		 int k, const char *stream)
{
	c->stream = stream;
	nb_interval_row(iv, k, &c->v);
	c->lost_base = c->v.pkts + c->v.lost;
	csv_row(f, c);
}

/* --per-queue: text rows under an interval line. */
static void
ivq_text(FILE *f, const struct nb_interval *iv, char fmt)
{
	double secs = iv->end - iv->start;
	char tb[32], rb[32];
	uint16_t i;

	for (i = 0; i < iv->nb_queues; i++) {
		const struct nb_iv_queue *e = &iv->queues[i];
		uint64_t tx, rx;

		nb_queue_iv_port_sums(iv, e->port, &tx, &rx);
		nb_fmt_rate(tb, sizeof(tb), div0(e->tx_bytes * 8.0, secs), fmt);
		nb_fmt_rate(rb, sizeof(rb), div0(e->rx_bytes * 8.0, secs), fmt);
		fprintf(f,
			"        port %u queue %u: sent %llu (%.1f %%) %s, "
			"received %llu (%.1f %%) %s %.4f Mpps\n",
			e->port, e->queue, (unsigned long long)e->tx_pkts,
			nb_queue_iv_share(e->tx_pkts, tx), tb,
			(unsigned long long)e->rx_pkts,
			nb_queue_iv_share(e->rx_pkts, rx), rb,
			div0((double)e->rx_pkts, secs) / 1e6);
	}
}

void
nb_out_begin(const struct nb_output *o, const struct nb_result *r)
{
	nb_out_begin_with(o, r, NULL);
}

void
nb_out_begin_with(const struct nb_output *o, const struct nb_result *r,
		  json_t *extra)
{
	json_t *start;

	switch (o->kind) {
	case NB_OUT_TEXT:
		if (o->intervals)
			nb_report_interval_header(o->f);
		break;
	case NB_OUT_JSON_STREAM:
		start = nb_json_start(r);
		if (extra != NULL)
			json_object_update(start, extra);
		event(o, "start", start);
		break;
	case NB_OUT_CSV:
		fprintf(o->f, "%s\n", nb_csv_header);
		break;
	case NB_OUT_JSON:
		break;
	}
	json_decref(extra);
	flush(o);
}

void
nb_out_interval(const struct nb_output *o, const struct nb_result *r,
		const struct nb_interval *iv)
{
	nb_out_interval_dir(o, r, iv, NULL, "");
}

void
nb_out_interval_dir(const struct nb_output *o, const struct nb_result *r,
		    const struct nb_interval *iv, const char *direction,
		    const char *tag)
{
	struct csv_row c;
	json_t *ev;
	char id[16];
	uint32_t k;

	switch (o->kind) {
	case NB_OUT_TEXT:
		/* receive-only: every frame first, our streams if any came */
		if (o->intervals && iv->rx_only)
			nb_report_rxonly_row(o->f, iv->start, iv->end,
					     iv->all_rx_pkts, iv->all_rx_bytes,
					     nb_report_unit(r), "");
		if (o->intervals && (!iv->rx_only || iv->rx_pkts))
			nb_report_interval_text(o->f, iv, nb_report_unit(r),
						tag);
		if (o->intervals && o->per_queue)
			ivq_text(o->f, iv, nb_report_unit(r));
		if (o->intervals)
			nb_tester_iv_text(o->f, iv->tester, iv->nb_tester,
					  iv->end - iv->start);
		break;
	case NB_OUT_JSON_STREAM:
		ev = nb_json_interval(r, iv);
		if (direction != NULL)
			json_object_set_new(ev, "direction",
					    json_string(direction));
		event(o, "interval", ev);
		break;
	case NB_OUT_CSV:
		memset(&c, 0, sizeof(c));
		c.kind = "interval";
		c.direction = direction != NULL ? direction : r->topology;
		c.start = iv->start;
		c.end = iv->end;
		c.omitted = iv->omitted;
		/* receive-only: every frame that came, ours or not, as
		 * stream "all" (the text's [ RX] row) */
		if (iv->rx_only) {
			c.stream = "all";
			c.v.pkts = iv->all_rx_pkts;
			c.v.bytes = iv->all_rx_bytes;
			csv_row(o->f, &c);
		}
		for (k = 0;
		     !iv->omitted && iv->stream_rx_pkts && k < iv->nb_streams;
		     k++) {
			snprintf(id, sizeof(id), "%u", k);
			csv_interval_row(o->f, &c, iv, (int)k, id);
		}
		csv_interval_row(o->f, &c, iv, -1, "sum");
		/* kind "queue": stream is pPORTqQUEUE, sent_* what the
		 * queue sent, packets/bytes what it received */
		c.kind = "queue";
		for (k = 0; k < iv->nb_queues; k++) {
			const struct nb_iv_queue *e = &iv->queues[k];

			snprintf(id, sizeof(id), "p%uq%u", e->port, e->queue);
			memset(&c.v, 0, sizeof(c.v));
			c.stream = id;
			c.v.sent_pkts = e->tx_pkts;
			c.v.sent_bytes = e->tx_bytes;
			c.v.pkts = e->rx_pkts;
			c.v.bytes = e->rx_bytes;
			c.lost_base = 0;
			csv_row(o->f, &c);
		}
		break;
	case NB_OUT_JSON:
		break;
	}
	flush(o);
}

static void
csv_end_row(FILE *f, const struct nb_result *r, const char *direction,
	    const char *stream, const struct nb_stream_result *s)
{
	struct csv_row c;

	memset(&c, 0, sizeof(c));
	c.kind = "end";
	c.direction = direction;
	c.end = r->rx_seconds;
	c.stream = stream;
	c.v.sent_pkts = s->tx_pkts;
	c.v.sent_bytes = s->tx_bytes;
	c.v.pkts = s->rx_pkts;
	c.v.bytes = s->rx_bytes;
	c.v.lost = s->lost;
	c.v.ooo = s->out_of_order;
	c.v.dup = s->duplicates;
	c.v.jitter_ns = s->jitter_ns;
	c.v.have_lat = 1;
	c.v.p50 = nb_hist_percentile(&s->hist, 50);
	c.v.p99 = nb_hist_percentile(&s->hist, 99);
	c.v.max = s->hist.max;
	c.lost_base = s->tx_pkts; /* as the JSON end: lost of sent */
	csv_row(f, &c);
}

void
nb_out_result(const struct nb_output *o, const struct nb_result *r,
	      const char *title, const char *direction)
{
	char id[16];
	uint32_t k;

	if (o->kind == NB_OUT_TEXT) {
		if (title != NULL)
			fprintf(o->f, "%s\n", title);
		nb_report_text(o->f, r);
	} else if (o->kind == NB_OUT_CSV) {
		if (r->rx_only) {
			struct csv_row c;

			memset(&c, 0, sizeof(c));
			c.kind = "end";
			c.direction = direction;
			c.end = r->rxo_seconds;
			c.stream = "all";
			nb_rxonly_totals(r, &c.v.pkts, &c.v.bytes);
			csv_row(o->f, &c);
		}
		for (k = 0; k < r->nb_streams; k++) {
			snprintf(id, sizeof(id), "%u", r->streams[k].id);
			csv_end_row(o->f, r, direction, id, &r->streams[k]);
		}
		csv_end_row(o->f, r, direction, "sum", &r->sum);
	}
	flush(o);
}

int
nb_out_finish(const struct nb_output *o, json_t *doc)
{
	const size_t flags = JSON_INDENT(2) | JSON_REAL_PRECISION(17);
	json_t *err = json_object_get(doc, "error");
	json_t *intr = nb_phase_json();
	int ret = 0;

	/* SIGINT/SIGTERM came: which, and in what phase */
	if (intr != NULL && json_object_get(doc, "interruption") == NULL)
		json_object_set(doc, "interruption", intr);
	if (o->kind == NB_OUT_JSON) {
		json_dumpf(doc, o->f, flags);
		fputc('\n', o->f);
	} else if (o->kind == NB_OUT_JSON_STREAM) {
		json_t *end = json_object_get(doc, "end");
		json_t *rev = json_object_get(doc, "reverse");

		end = end ? json_deep_copy(end) : json_object();
		if (intr != NULL)
			json_object_set(end, "interruption", intr);
		if (rev != NULL && json_object_get(rev, "end") != NULL)
			json_object_set_new(
				end, "reverse",
				json_deep_copy(json_object_get(rev, "end")));
		event(o, "end", end);
		if (err != NULL)
			event(o, "error", json_incref(err));
	}
	flush(o);
	if (o->json_file != NULL) {
		FILE *f;

		errno = 0;
		f = fopen(o->json_file, "w");
		if (f == NULL || json_dumpf(doc, f, flags) != 0 ||
		    fputc('\n', f) == EOF || fflush(f) != 0 || ferror(f))
			ret = errno ? -errno : -EIO;
		if (f != NULL && fclose(f) != 0 && ret == 0)
			ret = errno ? -errno : -EIO;
		if (ret != 0 && file_errno == 0)
			file_errno = -ret;
	}
	json_decref(intr);
	if (o->keep != NULL)
		*o->keep = json_incref(doc);
	json_decref(doc);
	return ret;
}

void
nb_out_fatal(const struct nb_output *o, const char *msg)
{
	if (o->kind == NB_OUT_JSON_STREAM) {
		event(o, "error", json_string(msg));
		if (o->json_file == NULL)
			return;
		/* the file holds one document, like --json */
	} else if (o->kind != NB_OUT_JSON && o->json_file == NULL) {
		return; /* text and CSV: stderr says it */
	}
	{
		struct nb_output j = *o;

		if (o->kind != NB_OUT_JSON)
			j.kind = NB_OUT_CSV; /* nothing on stdout */
		nb_out_finish(&j, nb_json_error_doc(msg));
	}
}

void
nb_out_progress(const struct nb_output *o, double secs, double total,
		double rx_bps, double rx_pps, uint64_t sent, uint64_t received,
		uint64_t lost)
{
	char rate[32], t[32];

	if (!o->progress)
		return;
	nb_fmt_rate(rate, sizeof(rate), rx_bps, o->format);
	if (total > 0)
		snprintf(t, sizeof(t), "%.1f/%.1f s", secs, total);
	else
		snprintf(t, sizeof(t), "%.1f s", secs);
	fprintf(o->f,
		"\r[%s] %s %.3f Mpps  sent %llu received %llu lost %llu\033[K",
		t, rate, rx_pps / 1e6, (unsigned long long)sent,
		(unsigned long long)received, (unsigned long long)lost);
	flush(o);
}

void
nb_out_progress_end(const struct nb_output *o)
{
	if (!o->progress)
		return;
	fputs("\r\033[K", o->f);
	flush(o);
}
