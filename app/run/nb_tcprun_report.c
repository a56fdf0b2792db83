/* SPDX-License-Identifier: BSD-3-Clause */
/* What a closed-loop TCP test reports: snapshots of the connections,
 * interval rows, the end's rows and the JSON document (nb_tcprun.h). */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "nb_json.h"
#include "nb_log.h"
#include "nb_setup.h"
#include "nb_tcp_engine.h"
#include "nb_tcp_report.h"
#include "nb_tcp_wire.h"
#include "nb_tcprun_int.h"
#include "nb_version.h"

/* Connections to report: a listener's, those it accepted. */
uint32_t
nb_tcprun_nconn(const struct tcprun *t)
{
	/* the worker moves an end into place, then counts it */
	return t->sj && t->sj->accept_any
		       ? (uint32_t)__atomic_load_n(&t->sj->accepted,
						   __ATOMIC_ACQUIRE)
		       : t->n;
}

int
nb_tcprun_rev(const struct tcprun *t)
{
	return t->dir == 1 || (t->is_peer && !t->pp.responder && !t->pp.c2r);
}

int
nb_tcprun_have_snd(const struct tcprun *t)
{
	return t->is_peer ? !nb_tcprun_rev(t) || t->remote != NULL
			  : t->cj != NULL;
}

int
nb_tcprun_have_rcv(const struct tcprun *t)
{
	return t->is_peer ? nb_tcprun_rev(t) || t->remote != NULL
			  : t->sj != NULL;
}

void
nb_tcprun_end_snap(const struct tcprun *t, const struct nb_tcp_end *e,
		   struct nb_tcp_endsnap *o)
{
	nb_tcp_endsnap_of(&e->c, o);
	o->done_ns = e->done_ns > t->start_ns ? e->done_ns - t->start_ns : 0;
	o->all_acked_ns = e->all_acked_ns > t->start_ns
				  ? e->all_acked_ns - t->start_ns
				  : 0;
}

void
nb_tcprun_snap_all(struct tcprun *t, struct nb_tcp_snap *o)
{
	struct nb_tcp_endsnap a, b;
	const struct nb_tcp_endsnap *r;
	uint32_t i;

	for (i = 0; i < nb_tcprun_nconn(t); i++) {
		if (t->cj)
			nb_tcprun_end_snap(t, &t->cj->ends[i], &a);
		if (t->sj)
			nb_tcprun_end_snap(t, &t->sj->ends[i], &b);
		if (!t->is_peer) {
			nb_tcp_snap_pair(t->cj ? &a : NULL, t->sj ? &b : NULL,
					 &o[i]);
			continue;
		}
		/* this end's connection and the peer's, sender first */
		r = t->remote ? &t->remote[i] : NULL;
		if (t->pp.responder)
			nb_tcp_snap_pair(r, &b, &o[i]);
		else if (nb_tcprun_rev(t))
			nb_tcp_snap_pair(r, &a, &o[i]);
		else
			nb_tcp_snap_pair(&a, r, &o[i]);
	}
}

/* Direction d of a test (1: a bidirectional test's reverse): its
 * snapshots become t->cur and t->prev. */
static void
set_dir(struct tcprun *t, int d)
{
	struct nb_tcp_snap *c = t->cur, *p = t->prev;

	if (t->dir == d)
		return;
	t->cur = t->cur2, t->prev = t->prev2;
	t->cur2 = c, t->prev2 = p;
	t->dir = d;
}

/* "1", "SUM"; in a bidirectional test with the role, as iperf3's
 * "[  5][TX-C]": what the client sends or receives. */
static void
row_id(const struct tcprun *t, char *b, size_t n, const char *id)
{
	if (t->ndir == 2)
		snprintf(b, n, "%3s][%s", id, t->dir ? "RX-C" : "TX-C");
	else
		snprintf(b, n, "%s", id);
}

void
nb_tcprun_interval(struct tcprun *t, double t1)
{
	const struct nb_output *o = &t->app->out;
	double t0 = t->t_prev;
	json_t *streams = json_array(), *iv = json_object();
	int text = nb_out_chatty(o) && o->intervals, d;
	uint32_t i, n = nb_tcprun_nconn(t);
	char id[16], num[8];

	for (d = 0; d < t->ndir; d++) {
		uint64_t bytes = 0, retr = 0;

		set_dir(t, d);
		nb_tcprun_snap_all(t, t->cur);
		for (i = 0; i < n; i++) {
			const struct nb_tcp_snap *a = &t->prev[i],
						 *b = &t->cur[i];

			bytes += b->acked - a->acked;
			retr += b->retrans - a->retrans;
			json_array_append_new(
				streams,
				nb_tcp_json_iv_stream((int)(d * n + i + 1), t0,
						      t1, a, b));
			if (text && n <= TEXT_STREAM_ROWS_MAX) {
				snprintf(num, sizeof(num), "%u", d * n + i + 1);
				row_id(t, id, sizeof(id), num);
				/* another host's sender: no Retr, Cwnd, RTT */
				nb_tcp_text_row(o->f, id, t0, t1,
						b->acked - a->acked,
						b->retrans - a->retrans,
						nb_tcprun_have_snd(t), b->cwnd,
						b->srtt_ns, o->format, NULL);
			}
		}
		if (text && n > 1) {
			row_id(t, id, sizeof(id), "SUM");
			nb_tcp_text_row(o->f, id, t0, t1, bytes, retr,
					nb_tcprun_have_snd(t), 0, 0, o->format,
					NULL);
		}
		json_object_set_new(iv, d ? "sum_bidir_reverse" : "sum",
				    nb_tcp_json_sum(t0, t1, bytes,
						    nb_tcprun_have_snd(t),
						    retr));
		memcpy(t->prev, t->cur, t->n * sizeof(*t->prev));
	}
	set_dir(t, 0);
	if (text)
		fflush(o->f);
	json_object_set_new(iv, "streams", streams);
	json_array_append_new(t->intervals, iv);
	t->t_prev = t1;
}

/* When the last connection's sender had all acknowledged (sender) or
 * its receiver closed: the test's length for that side's rows. */
static double
end_secs(const struct tcprun *t, double fallback, int sender)
{
	uint64_t last = 0;
	uint32_t i;

	for (i = 0; i < nb_tcprun_nconn(t); i++) {
		uint64_t x =
			sender ? t->cur[i].snd_end_ns : t->cur[i].rcv_end_ns;

		if (!x)
			return fallback;
		if (x > last)
			last = x;
	}
	return last ? (double)last / 1e9 : fallback;
}

/* f's source (dst 0) or destination address, as iperf3 writes it. */
static json_t *
jhost(const struct nb_flow *f, int dst)
{
	char a[INET6_ADDRSTRLEN] = "?";

	if (f->family != 6)
		return jip4(dst ? f->dst_ip : f->src_ip);
	inet_ntop(AF_INET6, dst ? f->dst_ip6 : f->src_ip6, a, sizeof(a));
	return json_string(a);
}

/* One connection's line of start.connected[]. */
static json_t *
conn_json(const struct tcprun *t, uint32_t i, const struct nb_tcp_snap *s)
{
	/* an end's frames have it as their source */
	const struct nb_flow *f = t->cj ? &t->cj->ends[i].f : &t->sj->ends[i].f;

	return json_pack(
		"{s:i, s:o, s:i, s:o, s:i, s:s, s:s, s:s}", "socket",
		(int)i + 1, "local_host", jhost(f, 0), "local_port",
		f->src_port, "remote_host", jhost(f, 1), "remote_port",
		f->dst_port, "client_state",
		t->cj ? nb_tcp_state_name(nb_tcprun_rev(t) ? s->sstate
							   : s->cstate)
		      : "peer's",
		"server_state",
		t->sj || t->remote
			? nb_tcp_state_name(nb_tcprun_rev(t) ? s->cstate
							     : s->sstate)
			: "peer's",
		"error", nb_tcp_error_name(s->cerr ? s->cerr : s->serr));
}

/* Whether the bytes received were checked: the receivers', and with
 * --pingpong the senders' (they take the answers). */
static const char *
check_text(const struct tcprun *t)
{
	uint32_t i, on = 0, all = 0;

	for (i = 0; i < nb_tcprun_nconn(t); i++) {
		const struct nb_tcp_snap *s = &t->cur[i];

		if (s->rcheck != NB_TCP_SNAP_UNKNOWN && nb_tcprun_have_rcv(t)) {
			all++;
			on += s->rcheck == NB_TCP_CHECK_ON;
		}
		if (t->msg && s->scheck != NB_TCP_SNAP_UNKNOWN) {
			all++;
			on += s->scheck == NB_TCP_CHECK_ON;
		}
	}
	if (all == 0)
		return "the peer's";
	return on == all ? "checked"
	       : on	 ? "checked where it was ours"
			 : "not checked (not this tool's pattern)";
}

/* The one-way delay of the data: where the receiver is. */
static const struct nb_hist *
owd(const struct tcprun *t)
{
	if (!t->is_peer)
		return t->sj ? t->sj->owd : NULL;
	if (t->pp.responder)
		return t->sj->owd;
	if (nb_tcprun_rev(t))
		return t->cj->owd;
	return t->rhdr ? &t->rhdr->owd : NULL;
}

/* One direction's totals at the end. */
struct dir_sums {
	uint64_t sent, rcvd, retr, fr, rto, rec, bad, dup, ok;
	double ss, sr;
};

/* The nbench object's TCP figures of the direction in t->cur, its
 * totals z and, for what both directions share, z0. */
static json_t *
end_json(const struct tcprun *t, const struct dir_sums *z,
	 const struct dir_sums *z0)
{
	const struct nb_config *cfg = &t->app->cfg;
	const struct nb_hist *h = owd(t);
	json_t *nb = json_pack(
		"{s:s, s:s, s:i, s:i, s:b, s:b, s:I, s:I, s:I, s:I, s:I, s:I, "
		"s:s, s:s}",
		"mode", "tcp", "topology",
		t->is_peer ? "peer"
		: t->loop  ? "loopback"
		: t->cj	   ? "client"
			   : "server",
		"mss", t->mss, "window",
		(int)(t->is_peer ? t->pp.window : cfg->tcp_window), "sack",
		!(t->is_peer ? t->pp.no_sack : cfg->tcp_no_sack), "delayed_ack",
		t->is_peer ? t->pp.delayed_ack : cfg->tcp_delayed_ack,
		"connections_closed", (json_int_t)z0->ok, "fast_retransmits",
		(json_int_t)z->fr, "rto", (json_int_t)z->rto, "recoveries",
		(json_int_t)z->rec, "bad_bytes", (json_int_t)z0->bad,
		"dup_bytes_received", (json_int_t)z0->dup, "payload",
		check_text(t), "cc",
		(t->is_peer ? t->pp.cc : cfg->tcp_cc) ? "cubic" : "newreno");

	if (t->is_peer)
		json_object_set_new(nb, "direction",
				    json_string(t->ndir == 2 ? "bidir"
						: nb_tcprun_rev(t)
							? "reverse"
							: "forward"));
	if (h && h->count)
		json_object_set_new(nb, "latency_ns", nb_tcp_json_hist(h));
	if (nb_tcprun_tx_payload(t) != NULL)
		json_object_set_new(nb, "tx_payload",
				    json_string(nb_tcprun_tx_payload(t)));
	return nb;
}

/* The end's rows of the direction in t->cur, its streams into the JSON
 * array (sockets from base + 1). */
static void
end_rows(struct tcprun *t, double secs, int interrupted, json_t *streams,
	 uint32_t base, struct dir_sums *z)
{
	const struct nb_config *cfg = &t->app->cfg;
	const struct nb_output *o = &t->app->out;
	int text = nb_out_chatty(o);
	uint64_t bytes = t->is_peer ? t->pp.bytes : cfg->bytes;
	uint32_t i, n = nb_tcprun_nconn(t);
	char id[16], num[8];

	memset(z, 0, sizeof(*z));
	nb_tcprun_snap_all(t, t->cur);
	z->ss = end_secs(t, secs, 1);
	z->sr = end_secs(t, secs, 0);
	if (cfg->duration > 0 && !bytes && !interrupted && t->cj)
		z->ss = z->sr = cfg->duration < secs ? cfg->duration : secs;
	for (i = 0; i < n; i++) {
		const struct nb_tcp_snap *s = &t->cur[i];

		z->sent += s->acked;
		z->rcvd += s->rcvd;
		z->retr += s->retrans;
		z->fr += s->fast_retrans;
		z->rto += s->rto;
		z->rec += s->recoveries;
		z->bad += s->bad_bytes;
		z->dup += s->dup_bytes;
		z->ok += nb_tcp_snap_clean(s);
		json_array_append_new(
			streams, nb_tcp_json_end_stream((int)(base + i + 1),
							z->ss, z->sr, s));
		if (text && n <= TEXT_STREAM_ROWS_MAX) {
			snprintf(num, sizeof(num), "%u", base + i + 1);
			row_id(t, id, sizeof(id), num);
			if (nb_tcprun_have_snd(t))
				nb_tcp_text_row(o->f, id, 0, z->ss, s->acked,
						s->retrans, 1, 0, 0, o->format,
						"sender");
			if (nb_tcprun_have_rcv(t))
				nb_tcp_text_row(o->f, id, 0, z->sr, s->rcvd, 0,
						0, 0, 0, o->format, "receiver");
		}
	}
	row_id(t, id, sizeof(id), "SUM");
	if (text && n > 1 && nb_tcprun_have_snd(t))
		nb_tcp_text_row(o->f, id, 0, z->ss, z->sent, z->retr, 1, 0, 0,
				o->format, "sender");
	if (text && n > 1 && nb_tcprun_have_rcv(t))
		nb_tcp_text_row(o->f, id, 0, z->sr, z->rcvd, 0, 0, 0, 0,
				o->format, "receiver");
}

/* The direction's summary line, its latency, and what it failed in. */
static void
dir_summary(struct tcprun *t, const struct dir_sums *z,
	    const struct dir_sums *z0, int interrupted, char *why,
	    size_t whylen)
{
	const struct nb_output *o = &t->app->out;
	const struct nb_hist *h = owd(t);
	uint64_t bytes = t->is_peer ? t->pp.bytes : t->app->cfg.bytes;
	uint32_t n = nb_tcprun_nconn(t);

	if (nb_out_chatty(o)) {
		if (t->ndir == 2)
			fprintf(o->f, "%s: ",
				t->dir ? "responder to client"
				       : "client to responder");
		fprintf(o->f,
			"tcp: %u connection%s, %llu closed cleanly; "
			"retransmits %llu (fast %llu, RTO %llu), recoveries "
			"%llu; payload %s: %llu bytes wrong, %llu received "
			"twice\n",
			n, n == 1 ? "" : "s", (unsigned long long)z0->ok,
			(unsigned long long)z->retr, (unsigned long long)z->fr,
			(unsigned long long)z->rto, (unsigned long long)z->rec,
			check_text(t), (unsigned long long)z0->bad,
			(unsigned long long)z0->dup);
		if (!nb_tcprun_have_snd(t) || !nb_tcprun_have_rcv(t))
			fprintf(o->f,
				"(the %s is another host: its counts "
				"are not here)\n",
				nb_tcprun_have_snd(t) ? "receiver" : "sender");
		if (h && h->count)
			fprintf(o->f,
				"latency (one-way, from the data's stamps): "
				"min %.1f us, p50 %.1f us, p99 %.1f us, max "
				"%.1f us over %llu segments\n",
				h->min / 1e3, nb_hist_percentile(h, 50) / 1e3,
				nb_hist_percentile(h, 99) / 1e3, h->max / 1e3,
				(unsigned long long)h->count);
	}
	if (!why[0] && bytes && nb_tcprun_have_snd(t) && z->sent != bytes &&
	    !interrupted)
		snprintf(why, whylen, "%llu of %llu bytes acknowledged",
			 (unsigned long long)z->sent,
			 (unsigned long long)bytes);
	if (!why[0] && bytes && nb_tcprun_have_rcv(t) && z->rcvd != bytes &&
	    !interrupted)
		snprintf(why, whylen, "%llu of %llu bytes received",
			 (unsigned long long)z->rcvd,
			 (unsigned long long)bytes);
}

/* Why the test failed, if it did and had no reason yet (z: the first
 * direction's sums), and its text lines. */
static void
verdict(const struct tcprun *t, const struct dir_sums *z, double secs,
	int interrupted, char *why, size_t whylen)
{
	const struct nb_output *o = &t->app->out;
	int text = nb_out_chatty(o);
	uint32_t n = nb_tcprun_nconn(t);

	if (!why[0] && n == 0 && !interrupted)
		snprintf(why, whylen, "no connection was made");
	if (!why[0] && z->ok < n && !interrupted)
		snprintf(why, whylen,
			 "%llu of %u connections did not close cleanly",
			 (unsigned long long)(n - z->ok), n);
	if (!why[0] && z->bad)
		snprintf(why, whylen,
			 "payload check failed: %llu bytes were not what was "
			 "sent",
			 (unsigned long long)z->bad);
	if (text && interrupted)
		fprintf(o->f,
			"interrupted: the connections were closed after %.2f "
			"s\n",
			secs);
	if (text && why[0])
		fprintf(o->f, "WARNING: %s\n", why);
}

/* The document's "start": the connections (conn, taken) and the test. */
static json_t *
start_json(const struct tcprun *t, json_t *conn, uint32_t n)
{
	const struct nb_config *cfg = &t->app->cfg;
	uint64_t bytes = t->is_peer ? t->pp.bytes : cfg->bytes;
	char a1[64];

	if (t->is_peer)
		nb_tcprun_addr_text(a1, sizeof(a1), t->pp.peer_ip,
				    t->pp.family == 6 ? t->pp.peer_ip6 : NULL,
				    t->pp.dport);
	else
		nb_tcprun_addr_text(a1, sizeof(a1), cfg->dst_ip,
				    cfg->stack.family == 6 ? cfg->stack.dst6.a
							   : NULL,
				    TCP_DPORT);
	return json_pack(
		"{s:o, s:s, s:{s:s, s:i}, s:i, s:{s:s, s:i, s:i, s:i, s:f, "
		"s:I, s:i, s:i, s:i}}",
		"connected", conn, "version", "dpdk-nbench " NB_VERSION,
		"connecting_to", "host", a1, "port",
		t->is_peer ? t->pp.dport : TCP_DPORT, "tcp_mss_default", t->mss,
		"test_start", "protocol", "TCP", "num_streams", (int)n,
		"blksize", (int)(t->mss - NB_TCP_STAMP_LEN), "omit", 0,
		"duration", bytes ? 0.0 : cfg->duration, "bytes",
		(json_int_t)bytes, "blocks", 0, "reverse",
		t->ndir == 1 && nb_tcprun_rev(t), "bidir", t->ndir == 2);
}

void
nb_tcprun_report(struct tcprun *t, double secs, int interrupted, char *why,
		 size_t whylen)
{
	struct nb_app *app = t->app;
	const struct nb_config *cfg = &app->cfg;
	const struct nb_output *o = &app->out;
	int text = nb_out_chatty(o), d;
	struct dir_sums z[2];
	json_t *streams = json_array(), *doc, *start, *end, *conn, *nb;
	uint32_t i, n = nb_tcprun_nconn(t);

	if (text) {
		fprintf(o->f, "- - - - - - - - - - - - - - - - - - - - - - - "
			      "- -\n");
		nb_tcp_text_header(o->f, 1, t->ndir == 2);
	}
	for (d = 0; d < t->ndir; d++) {
		set_dir(t, d);
		end_rows(t, secs, interrupted, streams, (uint32_t)d * n, &z[d]);
	}
	set_dir(t, 0);
	/* the connections' states, payload checks: both directions' ends */
	conn = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(conn, conn_json(t, i, &t->cur[i]));
	for (d = 0; d < t->ndir; d++) {
		set_dir(t, d);
		dir_summary(t, &z[d], &z[0], interrupted, why, whylen);
	}
	set_dir(t, 0);
	if (text) {
		if (t->cj && t->cj->rtt)
			nb_tcprun_pingpong_text(t, z[0].ss, o->f);
		nb_tcprun_ports_text(t, o->f);
	}
	verdict(t, &z[0], secs, interrupted, why, whylen);
	start = start_json(t, conn, n);
	end = json_pack("{s:o, s:o, s:o}", "streams", streams, "sum_sent",
			nb_tcp_json_sum(0, z[0].ss, z[0].sent,
					nb_tcprun_have_snd(t), z[0].retr),
			"sum_received",
			nb_tcp_json_sum(0, z[0].sr, z[0].rcvd, 0, 0));
	if (t->ndir == 2) {
		set_dir(t, 1);
		json_object_set_new(end, "sum_sent_bidir_reverse",
				    nb_tcp_json_sum(0, z[1].ss, z[1].sent,
						    nb_tcprun_have_snd(t),
						    z[1].retr));
		json_object_set_new(
			end, "sum_received_bidir_reverse",
			nb_tcp_json_sum(0, z[1].sr, z[1].rcvd, 0, 0));
		set_dir(t, 0);
	}
	nb = end_json(t, &z[0], &z[0]);
	if (t->ndir == 2) {
		set_dir(t, 1);
		json_object_set_new(nb, "bidir_reverse",
				    end_json(t, &z[1], &z[0]));
		set_dir(t, 0);
	}
	if (t->cj && t->cj->rtt)
		json_object_set_new(nb, "pingpong",
				    nb_tcprun_pingpong_json(t, z[0].ss));
	json_object_set_new(nb, "interrupted", json_boolean(interrupted));
	json_object_set_new(nb, "ports", nb_tcprun_ports_json(t));
	if (t->rhdr)
		json_object_set_new(nb, "responder",
				    nb_tcprun_responder_json(t));
	doc = json_pack("{s:o, s:O, s:o, s:o}", "start", start, "intervals",
			t->intervals, "end", end, "nbench", nb);
	if (why[0])
		json_object_set_new(doc, "error", json_string(why));
	app->emitted = 1;
	if (nb_out_finish(o, doc) != 0)
		NB_LOG(ERR, "cannot write --json-file %s", cfg->json_file);
}

json_t *
nb_tcprun_sweep_row(const struct tcprun *t, const struct nb_output *o,
		    char *why, size_t whylen)
{
	const struct nb_hist *h = t->cj ? t->cj->rtt : NULL;
	struct nb_tcp_snap *s = t->cur;
	uint64_t bad = 0, ok = 0;
	uint32_t i, n = nb_tcprun_nconn(t);
	json_t *row;

	nb_tcprun_snap_all((struct tcprun *)(uintptr_t)t, s);
	for (i = 0; i < n; i++) {
		bad += s[i].bad_bytes;
		ok += nb_tcp_snap_clean(&s[i]);
	}
	if (h == NULL)
		return json_null();
	row = nb_tcprun_pingpong_json(t, t->secs);
	json_object_set_new(row, "connections_closed", json_integer((int)ok));
	json_object_set_new(row, "bad_bytes", json_integer((json_int_t)bad));
	if (nb_out_chatty(o)) {
		if (h->count)
			fprintf(o->f,
				"%9u  %11llu  %11.0f  %7.2f  %7.2f  %7.2f  "
				"%7.2f\n",
				t->msg, (unsigned long long)h->count,
				t->secs > 0 ? (double)h->count / t->secs : 0,
				h->min / 1e3, nb_hist_percentile(h, 50) / 1e3,
				nb_hist_percentile(h, 99) / 1e3, h->max / 1e3);
		else
			fprintf(o->f, "%9u  no round trip completed\n", t->msg);
		fflush(o->f);
	}
	if (!why[0] && bad)
		snprintf(why, whylen,
			 "payload check failed at %u-byte messages: %llu "
			 "bytes were not what was sent",
			 t->msg, (unsigned long long)bad);
	if (!why[0] && ok < n) {
		char first[160];

		for (i = 0; i < n && nb_tcp_snap_clean(&s[i]); i++)
			;
		nb_tcp_snap_ends(&s[i < n ? i : 0], first, sizeof(first));
		snprintf(why, whylen,
			 "%llu of %u connections did not close cleanly at "
			 "%u-byte messages (the first: %s)",
			 (unsigned long long)(n - ok), n, t->msg, first);
	}
	if (!why[0] && h->count == 0)
		snprintf(why, whylen, "no round trip at %u-byte messages",
			 t->msg);
	return row;
}
