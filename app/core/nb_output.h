/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where results go and in which form: text (iperf3-like), one JSON document,
 * JSON lines (one event per line) or CSV.  Chosen once from the options; the
 * control and stats lcores call these at the start, once per interval and
 * at the end.  Pure: writes to stdio streams only.
 */
#ifndef NB_OUTPUT_H
#define NB_OUTPUT_H

#include <stdio.h>

#include <jansson.h>

#include "nb_config.h"
#include "nb_result.h"

enum nb_out_kind {
	NB_OUT_TEXT,
	NB_OUT_JSON,	    /* one document at the end */
	NB_OUT_JSON_STREAM, /* {"event": ..., "data": ...} per line */
	NB_OUT_CSV,	    /* header, a row per interval per stream, end */
};

struct nb_output {
	enum nb_out_kind kind;
	FILE *f;	       /* stdout, or the --logfile */
	char format;	       /* iperf3 -f letter, 'a' adaptive */
	int quiet;	       /* text: the final report only */
	int intervals;	       /* text: interval lines are printed */
	int per_queue;	       /* text: and queue rows under them */
	int progress;	       /* text on a terminal, no intervals: one
				* refreshed line */
	const char *json_file; /* also write the document here, or NULL */
	json_t **keep;	       /* and hand it over here (--serve), or NULL */
};

void nb_output_init(struct nb_output *o, const struct nb_config *cfg, FILE *f,
		    int tty);

/* Text headers (test, ports, lcores) are printed only when this is true. */
static inline int
nb_out_chatty(const struct nb_output *o)
{
	return o->kind == NB_OUT_TEXT && !o->quiet;
}

/* The test starts: JSON-lines "start" event, CSV header, text column
 * header. */
void nb_out_begin(const struct nb_output *o, const struct nb_result *r);
/* The same, with extra keys for the start object (consumed; NULL none):
 * a peer test's direction and remote end, as its document has them. */
void nb_out_begin_with(const struct nb_output *o, const struct nb_result *r,
		       json_t *extra);
/* One interval, as the stats lcore records it. */
void nb_out_interval(const struct nb_output *o, const struct nb_result *r,
		     const struct nb_interval *iv);
/* The same for one direction of a peer test: direction ("forward",
 * "reverse") in the JSON-lines event and the CSV rows, tag before the
 * text rows' ids. */
void nb_out_interval_dir(const struct nb_output *o, const struct nb_result *r,
			 const struct nb_interval *iv, const char *direction,
			 const char *tag);
/* A finished result: the text report (under title, if any), or CSV end
 * rows labelled with direction.  JSON waits for nb_out_finish(). */
void nb_out_result(const struct nb_output *o, const struct nb_result *r,
		   const char *title, const char *direction);
/*
 * The run is over: the JSON document (consumed), printed with --json, as
 * "end" (and "error") events with --json-stream, and to --json-file.
 * Returns 0, or -errno when --json-file could not be written.
 */
int nb_out_finish(const struct nb_output *o, json_t *doc);
/*
 * Write errors: the first errno met flushing a report's stream f (stdout,
 * or the --logfile it was redirected to; f flushed now too), and the
 * first of --json-file; 0 none.
 */
int nb_out_stream_error(FILE *f);
int nb_out_file_error(void);
/* The run ended before any result: error document or event. */
void nb_out_fatal(const struct nb_output *o, const char *msg);

/* A JSON-lines event {"event": name, "data": data} (data consumed); only
 * with --json-stream. */
void nb_out_event(const struct nb_output *o, const char *name, json_t *data);

/* The progress line: "\r", the state so far, and no newline. */
void nb_out_progress(const struct nb_output *o, double secs, double total,
		     double rx_bps, double rx_pps, uint64_t sent,
		     uint64_t received, uint64_t lost);
/* Ends the progress line, so what follows starts on a clean line. */
void nb_out_progress_end(const struct nb_output *o);

/* CSV column names, comma-separated (also the header line). */
extern const char nb_csv_header[];

#endif /* NB_OUTPUT_H */
