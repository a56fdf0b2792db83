/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --iperf3's report, of a UDP or a TCP test: our sender rows beside the
 * server's receiver rows (from the results it sent), as text, and the
 * JSON document (UDP: the tool's usual one, its receive side the
 * server's; TCP: iperf3's shape) with the server's results object.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_ip3client_int.h"
#include "nb_output.h"
#include "nb_result.h"
#include "nb_run.h"
#include "nb_tcp_report.h"
#include "nb_version.h"
#include "nb_jobs.h"

/* One side's figures of a stream, or their sum (iperf3's "udp" keys). */
struct side {
	double seconds;
	uint64_t bytes;
	int64_t packets, lost;
	double jitter_ms;
	int64_t retr; /* TCP: retransmitted segments, -1 not known */
};

static void
side_text(int tcp, int32_t id, const struct side *s, const char *who)
{
	double bps = s->seconds > 0 ? s->bytes * 8.0 / s->seconds : 0;
	char idtxt[16], retr[24] = "";

	if (id > 0)
		snprintf(idtxt, sizeof(idtxt), "%3d", (int)id);
	else
		snprintf(idtxt, sizeof(idtxt), "SUM");
	if (tcp) {
		if (s->retr >= 0)
			snprintf(retr, sizeof(retr), "%" PRId64, s->retr);
		printf("[%s]   0.00-%-6.2f sec  %8.2f MBytes  %8.2f "
		       "Mbits/sec  %6s  %s\n",
		       idtxt, s->seconds, s->bytes / 1048576.0, bps / 1e6, retr,
		       who);
		return;
	}
	printf("[%s]   0.00-%-6.2f sec  %8.2f MBytes  %8.2f Mbits/sec  "
	       "%7.3f ms  %" PRId64 "/%" PRId64 " (%.2g%%)  %s\n",
	       idtxt, s->seconds, s->bytes / 1048576.0, bps / 1e6, s->jitter_ms,
	       s->lost, s->packets,
	       s->packets > 0 ? 100.0 * s->lost / s->packets : 0.0, who);
}

/* Do we send on stream id (forward: all; --reverse: none; --bidir: the
 * first half)? */
static int
id_ours(const struct nb_ip3c *x, int32_t id)
{
	unsigned int i;

	for (i = 0; i < nb_ip3c_nconn(x); i++)
		if (nb_ip3_stream_id(i) == id)
			return nb_ip3c_sends(x, i);
	return 0;
}

/* One results object's figures of stream id (id < 0: all streams we send
 * on, ours 1, or all the server sends on, ours 0) into d; a sum's jitter
 * is the streams' mean, as iperf3's avg_jitter. */
static void
side_of(const struct nb_ip3c *x, const struct nb_ip3_results *r, int32_t id,
	int ours, struct side *d)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->nstreams; i++) {
		const struct nb_ip3_stream_res *s = &r->s[i];

		if (id >= 0 ? s->id != id : id_ours(x, s->id) != ours)
			continue;
		d->bytes += s->bytes;
		d->packets += s->packets;
		d->lost += s->errors;
		d->jitter_ms += s->jitter * 1000.0;
		if (d->retr >= 0 && s->retransmits >= 0)
			d->retr += s->retransmits;
		if (s->end_time > d->seconds)
			d->seconds = s->end_time;
		n++;
	}
	if (n > 1)
		d->jitter_ms /= n;
}

/* Stream id's (id < 0: the sum of one direction, ours 1 or 0) sender and
 * receiver: ours and the server's on a stream we send on, the other way
 * round on one the server sends on. */
static void
sides(const struct nb_ip3c *x, int32_t id, int ours, struct side *snd,
      struct side *rcv)
{
	const struct nb_ip3_results *srv = x->have_peer ? &x->peer : NULL;

	memset(snd, 0, sizeof(*snd));
	memset(rcv, 0, sizeof(*rcv));
	rcv->retr = -1;
	if (id >= 0)
		ours = id_ours(x, id);
	if (ours) {
		side_of(x, &x->mine, id, 1, snd);
		if (srv != NULL)
			side_of(x, srv, id, 1, rcv);
		return;
	}
	side_of(x, &x->mine, id, 0, rcv);
	if (srv != NULL)
		side_of(x, srv, id, 0, snd);
	/* the sender's count, not our receiver's highest seen */
	snd->lost = 0;
}

/*
 * The server's receiver figures into our result's receive side, in the
 * tool's units: iperf3's "packets" is the highest count seen, "errors"
 * the gaps, so packets - errors arrived; bytes are frames of --size.
 */
static void
server_into_result(const struct nb_ip3c *x, struct nb_result *r)
{
	uint32_t frame = x->pr.app->cfg.sizes.sizes[0];
	unsigned int i, k;

	r->rx_seconds = 0;
	r->latency_method = "none (an iperf3 server measures none)";
	for (i = 0; i < r->nb_streams; i++) {
		struct nb_stream_result *s = &r->streams[i];

		for (k = 0; k < x->peer.nstreams; k++) {
			const struct nb_ip3_stream_res *p = &x->peer.s[k];
			int64_t got = p->packets - p->errors;

			if (p->id != nb_ip3_stream_id(i))
				continue;
			s->rx_pkts = s->rx_unique = got > 0 ? (uint64_t)got : 0;
			s->rx_bytes = s->rx_pkts * frame;
			s->jitter_ns = p->jitter * 1e9;
			if (p->end_time > r->rx_seconds)
				r->rx_seconds = p->end_time;
		}
	}
	nb_result_finish(r);
}

/*
 * --reverse: the server's sender figures into our result's send side
 * (iperf3's "packets" of a sender: the datagrams it sent), ours into the
 * receive side as the receivers counted them (every datagram; iperf3 has
 * no duplicate count, so each counts as unique).
 */
static void
reverse_into_result(const struct nb_ip3c *x, struct nb_result *r)
{
	uint32_t frame = x->pr.app->cfg.sizes.sizes[0];
	unsigned int i, k;

	r->nb_streams = x->nstreams;
	r->tx_seconds = r->rx_seconds = 0;
	r->latency_method = "none (iperf3's datagrams carry no stamp of ours)";
	for (i = 0; i < r->nb_streams; i++) {
		struct nb_stream_result *s = &r->streams[i];
		struct nb_ip3_udp_rx u;

		memset(s, 0, offsetof(struct nb_stream_result, hist));
		s->id = i;
		nb_jobs_ip3_stream(x->sinks, x->nsinks, i, &u);
		s->rx_pkts = u.datagrams;
		s->out_of_order = u.outoforder;
		s->jitter_ns = u.jitter_ns;
		s->rx_unique = s->rx_pkts;
		s->rx_bytes = s->rx_pkts * frame;
		for (k = 0; x->have_peer && k < x->peer.nstreams; k++) {
			const struct nb_ip3_stream_res *p = &x->peer.s[k];

			if (p->id != nb_ip3_stream_id(i) || p->packets < 0)
				continue;
			s->tx_pkts = (uint64_t)p->packets;
			s->tx_bytes = s->tx_pkts * frame;
			if (p->end_time > r->tx_seconds)
				r->tx_seconds = p->end_time;
		}
	}
	r->rx_seconds = x->t_end - x->t_start;
	nb_result_finish(r);
}

/* A TCP stream's (or a direction's sum, id < 0) two sides as iperf3's
 * end object. */
static json_t *
tcp_end_stream(const struct nb_ip3c *x, int32_t id, int ours)
{
	struct side snd, rcv;
	json_t *s, *r;

	sides(x, id, ours, &snd, &rcv);
	s = nb_tcp_json_sum(0, snd.seconds, snd.bytes, 1,
			    (uint64_t)(snd.retr > 0 ? snd.retr : 0));
	r = nb_tcp_json_sum(0, rcv.seconds, rcv.bytes, 0, 0);
	json_object_set_new(r, "sender", json_false());
	if (id >= 0) {
		json_object_set_new(s, "socket", json_integer(id));
		json_object_set_new(r, "socket", json_integer(id));
	}
	return json_pack("{s:o, s:o}", "sender", s, "receiver", r);
}

/* end.sum_sent and end.sum_received of the test's direction (ours unless
 * --reverse), and with --bidir iperf3's *_bidir_reverse of the other. */
static void
sums_into(const struct nb_ip3c *x, json_t *end,
	  json_t *(*one)(const struct nb_ip3c *, int32_t, int))
{
	json_t *m = one(x, -1, !x->reverse);

	json_object_set(end, "sum_sent", json_object_get(m, "sender"));
	json_object_set(end, "sum_received", json_object_get(m, "receiver"));
	json_decref(m);
	if (!x->bidir)
		return;
	m = one(x, -1, 0);
	json_object_set(end, "sum_sent_bidir_reverse",
			json_object_get(m, "sender"));
	json_object_set(end, "sum_received_bidir_reverse",
			json_object_get(m, "receiver"));
	json_decref(m);
}

/* A TCP test's document, in iperf3's shape: per stream and summed, the
 * sender's and the receiver's figures (ours or the server's results). */
static json_t *
tcp_doc(const struct nb_ip3c *x)
{
	const struct nb_config *cfg = &x->pr.app->cfg;
	json_t *streams = json_array(), *end = json_object();
	char host[16];
	unsigned int i;

	snprintf(host, sizeof(host), NB_IP4_FMT, NB_IP4_ARGS(cfg->ip3_host));
	for (i = 0; i < x->mine.nstreams; i++)
		json_array_append_new(streams,
				      tcp_end_stream(x, x->mine.s[i].id, 0));
	sums_into(x, end, tcp_end_stream);
	json_object_set_new(end, "streams", streams);
	return json_pack(
		"{s:{s:s, s:{s:s, s:i, s:I, s:i, s:i, s:i}, s:{s:s, s:i}}, "
		"s:o}",
		"start", "version", "dpdk-nbench " NB_VERSION, "test_start",
		"protocol", "TCP", "num_streams", (int)x->nstreams, "bytes",
		(json_int_t)(x->by_bytes ? cfg->bytes : 0), "duration",
		x->by_bytes ? 0 : (int)(cfg->duration + 0.5), "reverse",
		x->reverse, "bidir", x->bidir, "connected_to", "host", host,
		"port", (int)cfg->ip3_port, "end", end);
}

/* A UDP direction's sums (--bidir's other way) as iperf3's udp objects. */
static json_t *
udp_end_sum(const struct nb_ip3c *x, int32_t id, int ours)
{
	struct side snd, rcv;
	json_t *o[2];
	const struct side *sd[2] = {&snd, &rcv};
	int k;

	sides(x, id, ours, &snd, &rcv);
	for (k = 0; k < 2; k++)
		o[k] = json_pack(
			"{s:f, s:f, s:I, s:f, s:I, s:I, s:f, s:b}", "start",
			0.0, "seconds", sd[k]->seconds, "bytes",
			(json_int_t)sd[k]->bytes, "bits_per_second",
			sd[k]->seconds > 0 ? sd[k]->bytes * 8.0 / sd[k]->seconds
					   : 0.0,
			"packets", (json_int_t)sd[k]->packets, "lost_packets",
			(json_int_t)sd[k]->lost, "jitter_ms", sd[k]->jitter_ms,
			"sender", k == 0);
	return json_pack("{s:o, s:o}", "sender", o[0], "receiver", o[1]);
}

/* The tool's usual document (UDP: the receive side the server's; TCP:
 * iperf3's shape), and the server's results object as it sent them. */
static void
report_json(struct nb_ip3c *x)
{
	struct nb_app *app = x->pr.app;
	json_t *doc;

	if (app->cfg.tcp) {
		doc = tcp_doc(x);
	} else {
		if (x->reverse)
			reverse_into_result(x, &app->result);
		else
			server_into_result(x, &app->result);
		doc = nb_report_json(&app->result);
		if (doc != NULL && x->bidir) {
			json_t *r = udp_end_sum(x, -1, 0),
			       *end = json_object_get(doc, "end");

			json_object_set(end, "sum_sent_bidir_reverse",
					json_object_get(r, "sender"));
			json_object_set(end, "sum_received_bidir_reverse",
					json_object_get(r, "receiver"));
			json_decref(r);
		}
	}
	if (doc == NULL)
		return;
	json_object_set_new(doc, "iperf3_server_results",
			    nb_ip3_results_json(&x->peer));
	/* --get-server-output: under iperf3's own key */
	if (x->srv_output != NULL)
		json_object_set(doc,
				json_is_string(x->srv_output)
					? "server_output_text"
					: "server_output_json",
				x->srv_output);
	app->emitted = 1;
	if (nb_out_finish(&app->out, doc) != 0)
		nb_app_error(app, "cannot write --json-file %s",
			     app->cfg.json_file);
}

/* A stream's (a direction's sum, id < 0) rows: the sender's, then the
 * receiver's, each marked by who it is when it is the server. */
static void
stream_rows(const struct nb_ip3c *x, int32_t id, int ours)
{
	int tcp = x->pr.app->cfg.tcp;
	struct side snd, rcv;

	sides(x, id, ours, &snd, &rcv);
	if (id >= 0)
		ours = id_ours(x, id);
	if (ours || x->have_peer)
		side_text(tcp, id < 0 ? 0 : id, &snd,
			  ours ? "sender" : "sender (server)");
	if (!ours || x->have_peer)
		side_text(tcp, id < 0 ? 0 : id, &rcv,
			  ours ? "receiver (server)" : "receiver");
}

void
nb_ip3c_report(struct nb_ip3c *x)
{
	const struct nb_config *cfg = &x->pr.app->cfg;
	unsigned int i;
	int tcp = cfg->tcp;

	if (!x->ran)
		return;
	if (cfg->json) {
		report_json(x);
		return;
	}
	if (tcp) {
		printf("iperf3 client to " NB_IP4_FMT
		       ":%u: TCP, %u stream(s)%s\n",
		       NB_IP4_ARGS(cfg->ip3_host), cfg->ip3_port, x->nstreams,
		       x->bidir	    ? ", both ways (--bidir)"
		       : x->reverse ? ", the server sending (--reverse)"
				    : "");
		printf("[ ID] Interval           Transfer     Bitrate         "
		       "  Retr\n");
	} else {
		printf("iperf3 client to " NB_IP4_FMT ":%u: UDP, %u stream(s), "
		       "%u-byte datagrams%s\n",
		       NB_IP4_ARGS(cfg->ip3_host), cfg->ip3_port, x->nstreams,
		       x->len,
		       x->bidir	    ? ", both ways (--bidir)"
		       : x->reverse ? ", the server sending (--reverse)"
				    : "");
		printf("[ ID] Interval           Transfer     Bitrate         "
		       "Jitter    Lost/Total Datagrams\n");
	}
	for (i = 0; i < x->mine.nstreams; i++)
		stream_rows(x, x->mine.s[i].id, 0);
	if (x->nstreams > 1)
		stream_rows(x, -1, !x->reverse);
	if (x->nstreams > 1 && x->bidir)
		stream_rows(x, -1, 0);
	/* --get-server-output: the server's report after ours, as iperf3
	 * prints it */
	if (x->srv_output != NULL && json_is_string(x->srv_output)) {
		printf("\nServer output:\n%s",
		       json_string_value(x->srv_output));
	} else if (x->srv_output != NULL) {
		char *t = json_dumps(x->srv_output, JSON_INDENT(1));

		if (t != NULL)
			printf("\nServer output (JSON):\n%s\n", t);
		free(t);
	}
	fflush(stdout);
	if (x->pr.app->out.json_file != NULL)
		report_json(x);
}
