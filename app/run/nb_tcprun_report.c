/* SPDX-License-Identifier: BSD-3-Clause */
/* What a closed-loop TCP test reports: snapshots of the connections,
 * interval rows, the end's rows and the JSON document (nb_tcprun.h). */
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
nconn(const struct tcprun *t)
{
	return t->sj && t->sj->accept_any ? (uint32_t)t->sj->accepted : t->n;
}

int
rev(const struct tcprun *t)
{
	return t->is_peer && !t->pp.responder && !t->pp.c2r;
}

int
have_snd(const struct tcprun *t)
{
	return t->is_peer ? !rev(t) || t->remote != NULL : t->cj != NULL;
}

int
have_rcv(const struct tcprun *t)
{
	return t->is_peer ? rev(t) || t->remote != NULL : t->sj != NULL;
}

/* End i of a job as the report sees it: times from the start. */
static void
end_snap(const struct tcprun *t, const struct nb_tcp_end *e,
	 struct nb_tcp_endsnap *o)
{
	nb_tcp_endsnap_of(&e->c, o);
	o->done_ns = e->done_ns > t->start_ns ? e->done_ns - t->start_ns : 0;
	o->all_acked_ns = e->all_acked_ns > t->start_ns
				  ? e->all_acked_ns - t->start_ns
				  : 0;
}

void
snap_all(struct tcprun *t, struct nb_tcp_snap *o)
{
	struct nb_tcp_endsnap a, b;
	const struct nb_tcp_endsnap *r;
	uint32_t i;

	for (i = 0; i < nconn(t); i++) {
		if (t->cj)
			end_snap(t, &t->cj->ends[i], &a);
		if (t->sj)
			end_snap(t, &t->sj->ends[i], &b);
		if (!t->is_peer) {
			nb_tcp_snap_pair(t->cj ? &a : NULL, t->sj ? &b : NULL,
					 &o[i]);
			continue;
		}
		/* this end's connection and the peer's, sender first */
		r = t->remote ? &t->remote[i] : NULL;
		if (t->pp.responder)
			nb_tcp_snap_pair(r, &b, &o[i]);
		else if (rev(t))
			nb_tcp_snap_pair(r, &a, &o[i]);
		else
			nb_tcp_snap_pair(&a, r, &o[i]);
	}
}

void
interval(struct tcprun *t, double t1)
{
	const struct nb_output *o = &t->app->out;
	double t0 = t->t_prev;
	uint64_t bytes = 0, retr = 0;
	json_t *streams = json_array();
	int text = nb_out_chatty(o) && o->intervals;
	uint32_t i, n = nconn(t);
	char id[16];

	snap_all(t, t->cur);
	for (i = 0; i < n; i++) {
		const struct nb_tcp_snap *a = &t->prev[i], *b = &t->cur[i];

		bytes += b->acked - a->acked;
		retr += b->retrans - a->retrans;
		json_array_append_new(
			streams,
			nb_tcp_json_iv_stream((int)i + 1, t0, t1, a, b));
		if (text && n <= TEXT_STREAM_ROWS_MAX) {
			snprintf(id, sizeof(id), "%u", i + 1);
			/* another host's sender: no Retr, Cwnd, RTT here */
			nb_tcp_text_row(o->f, id, t0, t1, b->acked - a->acked,
					b->retrans - a->retrans, have_snd(t),
					b->cwnd, b->srtt_ns, o->format, NULL);
		}
	}
	if (text && n > 1)
		nb_tcp_text_row(o->f, "SUM", t0, t1, bytes, retr, have_snd(t),
				0, 0, o->format, NULL);
	if (text)
		fflush(o->f);
	json_array_append_new(
		t->intervals,
		json_pack("{s:o, s:o}", "streams", streams, "sum",
			  nb_tcp_json_sum(t0, t1, bytes, have_snd(t), retr)));
	memcpy(t->prev, t->cur, t->n * sizeof(*t->prev));
	t->t_prev = t1;
}

void
addr_text(char *b, size_t n, uint32_t ip, uint16_t port)
{
	snprintf(b, n, "%u.%u.%u.%u:%u", ip >> 24, (ip >> 16) & 0xff,
		 (ip >> 8) & 0xff, ip & 0xff, port);
}

/* When the last connection's sender had all acknowledged (sender) or
 * its receiver closed: the test's length for that side's rows. */
static double
end_secs(const struct tcprun *t, double fallback, int sender)
{
	uint64_t last = 0;
	uint32_t i;

	for (i = 0; i < nconn(t); i++) {
		uint64_t x =
			sender ? t->cur[i].snd_end_ns : t->cur[i].rcv_end_ns;

		if (!x)
			return fallback;
		if (x > last)
			last = x;
	}
	return last ? (double)last / 1e9 : fallback;
}

/* Each port's frames as the tool and the PMD counted them. */
static json_t *
ports_json(const struct tcprun *t)
{
	const struct nb_tcpjob *js[2] = {t->cj, t->sj};
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < 2; i++) {
		struct nb_pmd_stats ps;

		if (js[i] == NULL)
			continue;
		memset(&ps, 0, sizeof(ps));
		nb_port_stats(js[i]->port, &ps);
		json_array_append_new(
			a,
			json_pack("{s:i, s:s, s:I, s:I, s:I, s:I, s:I, s:I, "
				  "s:I, s:I, s:I, s:I, s:{s:I, s:I, s:I, s:I, "
				  "s:I, s:I}}",
				  "port", js[i]->port, "role",
				  js[i]->server ? "server" : "client",
				  "tool_tx_packets", (json_int_t)js[i]->tx_pkts,
				  "tool_rx_packets", (json_int_t)js[i]->rx_pkts,
				  "foreign", (json_int_t)js[i]->foreign,
				  "bad_checksum", (json_int_t)js[i]->bad_csum,
				  "stray", (json_int_t)js[i]->stray,
				  "arp_answered",
				  (json_int_t)js[i]->arp_answered, "alloc_fail",
				  (json_int_t)js[i]->alloc_fail, "reclaimed",
				  (json_int_t)js[i]->reclaimed, "rx_bytes",
				  (json_int_t)js[i]->rx_bytes, "tx_bytes",
				  (json_int_t)js[i]->tx_bytes, "pmd",
				  "opackets", (json_int_t)ps.opackets,
				  "ipackets", (json_int_t)ps.ipackets,
				  "imissed", (json_int_t)ps.imissed, "ierrors",
				  (json_int_t)ps.ierrors, "oerrors",
				  (json_int_t)ps.oerrors, "rx_nombuf",
				  (json_int_t)ps.rx_nombuf));
	}
	return a;
}

static void
ports_text(const struct tcprun *t, FILE *f)
{
	const struct nb_tcpjob *js[2] = {t->cj, t->sj};
	unsigned int i;

	for (i = 0; i < 2; i++)
		if (js[i] != NULL)
			fprintf(f,
				"frames: port %u (%s) sent %llu, received "
				"%llu; foreign %llu, bad checksum %llu, stray "
				"(RST sent) %llu, ARP answered %llu\n",
				js[i]->port,
				js[i]->server ? "server" : "client",
				(unsigned long long)js[i]->tx_pkts,
				(unsigned long long)js[i]->rx_pkts,
				(unsigned long long)js[i]->foreign,
				(unsigned long long)js[i]->bad_csum,
				(unsigned long long)js[i]->stray,
				(unsigned long long)js[i]->arp_answered);
}

/* One connection's line of start.connected[]. */
static json_t *
conn_json(const struct tcprun *t, uint32_t i, const struct nb_tcp_snap *s)
{
	/* an end's frames have it as their source */
	const struct nb_flow *f = t->cj ? &t->cj->ends[i].f : &t->sj->ends[i].f;

	return json_pack(
		"{s:i, s:o, s:i, s:o, s:i, s:s, s:s, s:s}", "socket",
		(int)i + 1, "local_host", jip4(f->src_ip), "local_port",
		f->src_port, "remote_host", jip4(f->dst_ip), "remote_port",
		f->dst_port, "client_state",
		t->cj ? nb_tcp_state_name(rev(t) ? s->sstate : s->cstate)
		      : "peer's",
		"server_state",
		t->sj || t->remote
			? nb_tcp_state_name(rev(t) ? s->cstate : s->sstate)
			: "peer's",
		"error", nb_tcp_error_name(s->cerr ? s->cerr : s->serr));
}

/* --pingpong: the round trips of request and answer. */
static void
pingpong_text(const struct tcprun *t, double secs, FILE *f)
{
	const struct nb_hist *h = t->cj->rtt;

	if (h->count == 0) {
		fprintf(f, "ping-pong: no round trip completed\n");
		return;
	}
	fprintf(f,
		"ping-pong: %llu round trips of %u-byte requests and answers "
		"(%.0f per second): RTT min %.2f us, p50 %.2f us, p99 %.2f "
		"us, max %.2f us, mean %.2f us\n",
		(unsigned long long)h->count, t->cj->pp_msg,
		secs > 0 ? (double)h->count / secs : 0, h->min / 1e3,
		nb_hist_percentile(h, 50) / 1e3,
		nb_hist_percentile(h, 99) / 1e3, h->max / 1e3,
		nb_hist_mean(h) / 1e3);
}

static json_t *
pingpong_json(const struct tcprun *t, double secs)
{
	const struct nb_hist *h = t->cj->rtt;
	json_t *o = json_pack("{s:i, s:I, s:f}", "msg_size", (int)t->cj->pp_msg,
			      "round_trips", (json_int_t)h->count, "per_second",
			      secs > 0 ? (double)h->count / secs : 0.0);

	if (h->count)
		json_object_set_new(o, "rtt_ns", nb_tcp_json_hist(h));
	return o;
}

static const char *
cap_unit_name(uint64_t unit)
{
	return unit == NB_CTL_CAP_FRAMES ? "frames/s"
	       : unit == NB_CTL_CAP_L2	 ? "bytes/s (L2)"
					 : "bytes/s (L1)";
}

/* The responder's TCP worker and port, from its results. */
static json_t *
responder_json(const struct nb_ctl_tcp_hdr *h)
{
	json_t *o = json_pack(
		"{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:{s:I, s:I, "
		"s:I, s:I, s:I, s:I}, s:{s:f, s:f}}",
		"tool_tx_packets", (json_int_t)h->tx_pkts, "tool_rx_packets",
		(json_int_t)h->rx_pkts, "tx_bytes", (json_int_t)h->tx_bytes,
		"rx_bytes", (json_int_t)h->rx_bytes, "foreign",
		(json_int_t)h->foreign, "bad_checksum", (json_int_t)h->bad_csum,
		"stray", (json_int_t)h->stray, "alloc_fail",
		(json_int_t)h->alloc_fail, "ctl_dropped",
		(json_int_t)h->ctl_dropped, "pmd", "opackets",
		(json_int_t)h->pmd.opackets, "ipackets",
		(json_int_t)h->pmd.ipackets, "imissed",
		(json_int_t)h->pmd.imissed, "ierrors",
		(json_int_t)h->pmd.ierrors, "oerrors",
		(json_int_t)h->pmd.oerrors, "rx_nombuf",
		(json_int_t)h->pmd.rx_nombuf, "cpu", "wall_s",
		h->cpu.wall_ns / 1e9, "busy_s",
		(h->cpu.user_ns + h->cpu.system_ns) / 1e9);

	if (h->cap_unit != NB_CTL_CAP_NONE)
		json_object_set_new(o, "send_cap",
				    json_pack("{s:I, s:s, s:I}", "rate",
					      (json_int_t)h->cap_rate, "unit",
					      cap_unit_name(h->cap_unit),
					      "held", (json_int_t)h->cap_held));
	return o;
}

/* Whether the bytes received were checked: the receivers', and with
 * --pingpong the senders' (they take the answers). */
static const char *
check_text(const struct tcprun *t)
{
	uint32_t i, on = 0, all = 0;

	for (i = 0; i < nconn(t); i++) {
		const struct nb_tcp_snap *s = &t->cur[i];

		if (s->rcheck != NB_TCP_SNAP_UNKNOWN && have_rcv(t)) {
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
	if (rev(t))
		return t->cj->owd;
	return t->rhdr ? &t->rhdr->owd : NULL;
}

void
report(struct tcprun *t, double secs, int interrupted, char *why, size_t whylen)
{
	struct nb_app *app = t->app;
	const struct nb_config *cfg = &app->cfg;
	const struct nb_output *o = &app->out;
	int text = nb_out_chatty(o);
	uint64_t sent = 0, rcvd = 0, retr = 0, fr = 0, rto = 0, rec = 0;
	uint64_t bad = 0, dup = 0, ok = 0;
	double ss, sr;
	json_t *streams = json_array(), *doc, *start, *end, *conn, *nb;
	const struct nb_hist *h = owd(t);
	uint64_t bytes = t->is_peer ? t->pp.bytes : cfg->bytes;
	uint32_t i, n = nconn(t);
	char a1[40], id[16];

	snap_all(t, t->cur);
	ss = end_secs(t, secs, 1);
	sr = end_secs(t, secs, 0);
	if (cfg->duration > 0 && !bytes && !interrupted && t->cj)
		ss = sr = cfg->duration < secs ? cfg->duration : secs;
	conn = json_array();
	if (text) {
		fprintf(o->f, "- - - - - - - - - - - - - - - - - - - - - - - "
			      "- -\n");
		nb_tcp_text_header(o->f, 1);
	}
	for (i = 0; i < n; i++) {
		const struct nb_tcp_snap *s = &t->cur[i];

		sent += s->acked;
		rcvd += s->rcvd;
		retr += s->retrans;
		fr += s->fast_retrans;
		rto += s->rto;
		rec += s->recoveries;
		bad += s->bad_bytes;
		dup += s->dup_bytes;
		ok += nb_tcp_snap_clean(s);
		json_array_append_new(
			streams, nb_tcp_json_end_stream((int)i + 1, ss, sr, s));
		json_array_append_new(conn, conn_json(t, i, s));
		if (text && n <= TEXT_STREAM_ROWS_MAX) {
			snprintf(id, sizeof(id), "%u", i + 1);
			if (have_snd(t))
				nb_tcp_text_row(o->f, id, 0, ss, s->acked,
						s->retrans, 1, 0, 0, o->format,
						"sender");
			if (have_rcv(t))
				nb_tcp_text_row(o->f, id, 0, sr, s->rcvd, 0, 0,
						0, 0, o->format, "receiver");
		}
	}
	if (text && n > 1) {
		if (have_snd(t))
			nb_tcp_text_row(o->f, "SUM", 0, ss, sent, retr, 1, 0, 0,
					o->format, "sender");
		if (have_rcv(t))
			nb_tcp_text_row(o->f, "SUM", 0, sr, rcvd, 0, 0, 0, 0,
					o->format, "receiver");
	}
	if (text) {
		fprintf(o->f,
			"tcp: %u connection%s, %llu closed cleanly; "
			"retransmits %llu (fast %llu, RTO %llu), recoveries "
			"%llu; payload %s: %llu bytes wrong, %llu received "
			"twice\n",
			n, n == 1 ? "" : "s", (unsigned long long)ok,
			(unsigned long long)retr, (unsigned long long)fr,
			(unsigned long long)rto, (unsigned long long)rec,
			check_text(t), (unsigned long long)bad,
			(unsigned long long)dup);
		if (!have_snd(t) || !have_rcv(t))
			fprintf(o->f,
				"(the %s is another host: its counts "
				"are not here)\n",
				have_snd(t) ? "receiver" : "sender");
		if (h && h->count)
			fprintf(o->f,
				"latency (one-way, from the data's stamps): "
				"min %.1f us, p50 %.1f us, p99 %.1f us, max "
				"%.1f us over %llu segments\n",
				h->min / 1e3, nb_hist_percentile(h, 50) / 1e3,
				nb_hist_percentile(h, 99) / 1e3, h->max / 1e3,
				(unsigned long long)h->count);
		if (t->cj && t->cj->rtt)
			pingpong_text(t, ss, o->f);
		ports_text(t, o->f);
		if (t->rhdr)
			fprintf(o->f,
				"frames: the responder sent %llu, received "
				"%llu; foreign %llu, bad checksum %llu, stray "
				"(RST sent) %llu\n",
				(unsigned long long)t->rhdr->tx_pkts,
				(unsigned long long)t->rhdr->rx_pkts,
				(unsigned long long)t->rhdr->foreign,
				(unsigned long long)t->rhdr->bad_csum,
				(unsigned long long)t->rhdr->stray);
		if (t->rhdr && t->rhdr->cap_unit != NB_CTL_CAP_NONE)
			fprintf(o->f,
				"the responder sends at most %llu %s "
				"(its --max-rate): its TCP sender waited for "
				"that %llu times\n",
				(unsigned long long)t->rhdr->cap_rate,
				cap_unit_name(t->rhdr->cap_unit),
				(unsigned long long)t->rhdr->cap_held);
	}
	if (!why[0] && n == 0 && !interrupted)
		snprintf(why, whylen, "no connection was made");
	if (!why[0] && ok < n && !interrupted)
		snprintf(why, whylen,
			 "%llu of %u connections did not close cleanly",
			 (unsigned long long)(n - ok), n);
	if (!why[0] && bad)
		snprintf(why, whylen,
			 "payload check failed: %llu bytes were not what was "
			 "sent",
			 (unsigned long long)bad);
	if (!why[0] && bytes && have_snd(t) && sent != bytes && !interrupted)
		snprintf(why, whylen, "%llu of %llu bytes acknowledged",
			 (unsigned long long)sent, (unsigned long long)bytes);
	if (!why[0] && bytes && have_rcv(t) && rcvd != bytes && !interrupted)
		snprintf(why, whylen, "%llu of %llu bytes received",
			 (unsigned long long)rcvd, (unsigned long long)bytes);
	if (text && interrupted)
		fprintf(o->f,
			"interrupted: the connections were closed after %.2f "
			"s\n",
			secs);
	if (text && why[0])
		fprintf(o->f, "WARNING: %s\n", why);
	if (t->is_peer)
		addr_text(a1, sizeof(a1), t->pp.peer_ip, t->pp.dport);
	else
		addr_text(a1, sizeof(a1), cfg->dst_ip, TCP_DPORT);
	start = json_pack(
		"{s:o, s:s, s:{s:s, s:i}, s:i, s:{s:s, s:i, s:i, s:i, s:f, "
		"s:I, s:i, s:i}}",
		"connected", conn, "version", "dpdk-nbench " NB_VERSION,
		"connecting_to", "host", a1, "port",
		t->is_peer ? t->pp.dport : TCP_DPORT, "tcp_mss_default", t->mss,
		"test_start", "protocol", "TCP", "num_streams", (int)n,
		"blksize", (int)(t->mss - NB_TCP_STAMP_LEN), "omit", 0,
		"duration", bytes ? 0.0 : cfg->duration, "bytes",
		(json_int_t)bytes, "blocks", 0, "reverse", rev(t));
	end = json_pack("{s:o, s:o, s:o}", "streams", streams, "sum_sent",
			nb_tcp_json_sum(0, ss, sent, have_snd(t), retr),
			"sum_received", nb_tcp_json_sum(0, sr, rcvd, 0, 0));
	nb = json_pack("{s:s, s:s, s:i, s:i, s:b, s:b, s:I, s:I, s:I, s:I, "
		       "s:I, s:I, s:s}",
		       "mode", "tcp", "topology",
		       t->is_peer ? "peer"
		       : t->loop  ? "loopback"
		       : t->cj	  ? "client"
				  : "server",
		       "mss", t->mss, "window",
		       (int)(t->is_peer ? t->pp.window : cfg->tcp_window),
		       "sack", !(t->is_peer ? t->pp.no_sack : cfg->tcp_no_sack),
		       "delayed_ack",
		       t->is_peer ? t->pp.delayed_ack : cfg->tcp_delayed_ack,
		       "connections_closed", (json_int_t)ok, "fast_retransmits",
		       (json_int_t)fr, "rto", (json_int_t)rto, "recoveries",
		       (json_int_t)rec, "bad_bytes", (json_int_t)bad,
		       "dup_bytes_received", (json_int_t)dup, "payload",
		       check_text(t));
	if (t->is_peer)
		json_object_set_new(nb, "direction",
				    json_string(t->pp.c2r && t->pp.r2c ? "bidir"
						: t->pp.c2r ? "forward"
							    : "reverse"));
	if (t->rhdr)
		json_object_set_new(nb, "responder", responder_json(t->rhdr));
	if (h && h->count)
		json_object_set_new(nb, "latency_ns", nb_tcp_json_hist(h));
	if (t->cj && t->cj->rtt)
		json_object_set_new(nb, "pingpong", pingpong_json(t, ss));
	json_object_set_new(nb, "cc",
			    json_string((t->is_peer ? t->pp.cc : cfg->tcp_cc)
						? "cubic"
						: "newreno"));
	json_object_set_new(nb, "interrupted", json_boolean(interrupted));
	json_object_set_new(nb, "ports", ports_json(t));
	doc = json_pack("{s:o, s:O, s:o, s:o}", "start", start, "intervals",
			t->intervals, "end", end, "nbench", nb);
	if (why[0])
		json_object_set_new(doc, "error", json_string(why));
	app->emitted = 1;
	if (nb_out_finish(o, doc) != 0)
		NB_LOG(ERR, "cannot write --json-file %s", cfg->json_file);
}

void
print_header(const struct tcprun *t)
{
	const struct nb_config *cfg = &t->app->cfg;
	char a1[40], a2[40];
	uint16_t i;

	for (i = 0; i < t->app->nb_ports; i++)
		nb_setup_print_test_port(stdout, &t->app->ports[i]);
	addr_text(a1, sizeof(a1), cfg->src_ip, NB_DEFAULT_SPORT_BASE);
	addr_text(a2, sizeof(a2), cfg->dst_ip, TCP_DPORT);
	if (t->is_peer) {
		const struct nb_tcppeer *p = &t->pp;

		addr_text(a1, sizeof(a1), p->ip, p->sport_base);
		addr_text(a2, sizeof(a2), p->peer_ip, p->dport);
		printf("Peer TCP test (%s): %u connection%s %s%s -> %s "
		       "(responder %02x:%02x:%02x:%02x:%02x:%02x), MSS %u, "
		       "window %u, SACK %s, delayed ACK %s, %s",
		       p->c2r && p->r2c ? "both ways"
		       : p->c2r		? "client sends"
					: "responder sends",
		       t->n, t->n == 1 ? "" : "s", a1, t->n > 1 ? "+" : "", a2,
		       p->peer_mac[0], p->peer_mac[1], p->peer_mac[2],
		       p->peer_mac[3], p->peer_mac[4], p->peer_mac[5], t->mss,
		       p->window, p->no_sack ? "off" : "on",
		       p->delayed_ack ? "on" : "off",
		       p->cc ? "CUBIC" : "NewReno");
		if (p->bytes)
			printf(", %llu bytes", (unsigned long long)p->bytes);
		else
			printf(", %.2f s", p->duration);
		printf("\n");
		if (t->app->out.intervals && !t->no_iv)
			nb_tcp_text_header(t->app->out.f, 0);
		fflush(stdout);
		return;
	}
	if (t->loop)
		printf("Loopback TCP test: %u connection%s %s%s -> %s (port "
		       "%u -> port %u)",
		       t->n, t->n == 1 ? "" : "s", a1, t->n > 1 ? "+" : "", a2,
		       t->cj->port, t->sj->port);
	else if (t->cj)
		printf("TCP client: %u connection%s %s%s -> %s (port %u, "
		       "next hop %02x:%02x:%02x:%02x:%02x:%02x)",
		       t->n, t->n == 1 ? "" : "s", a1, t->n > 1 ? "+" : "", a2,
		       t->cj->port, t->peer_mac[0], t->peer_mac[1],
		       t->peer_mac[2], t->peer_mac[3], t->peer_mac[4],
		       t->peer_mac[5]);
	else
		printf("TCP server: listening on %s (port %u), up to %u "
		       "connection%s",
		       a2, t->sj->port, t->n, t->n == 1 ? "" : "s");
	printf(", MSS %u, window %u, SACK %s, delayed ACK %s, %s", t->mss,
	       cfg->tcp_window, cfg->tcp_no_sack ? "off" : "on",
	       cfg->tcp_delayed_ack ? "on" : "off",
	       cfg->tcp_cc ? "CUBIC" : "NewReno");
	if (cfg->bytes && t->cj)
		printf(", %llu bytes", (unsigned long long)cfg->bytes);
	else if (cfg->duration > 0 && (t->cj || cfg->duration_set))
		printf(", %.2f s", cfg->duration);
	printf("\n");
	if (cfg->tcp_msgs.n)
		printf("ping-pong: %u message sizes, %u to %u B, a test of "
		       "%.2f s each\n",
		       cfg->tcp_msgs.n, cfg->tcp_msgs.sizes[0],
		       cfg->tcp_msgs.sizes[cfg->tcp_msgs.n - 1], cfg->duration);
	if (t->app->out.intervals && !t->no_iv)
		nb_tcp_text_header(t->app->out.f, 0);
	fflush(stdout);
}

json_t *
sweep_row(const struct tcprun *t, const struct nb_output *o, char *why,
	  size_t whylen)
{
	const struct nb_hist *h = t->cj ? t->cj->rtt : NULL;
	struct nb_tcp_snap *s = t->cur;
	uint64_t bad = 0, ok = 0;
	uint32_t i, n = nconn(t);
	json_t *row;

	snap_all((struct tcprun *)(uintptr_t)t, s);
	for (i = 0; i < n; i++) {
		bad += s[i].bad_bytes;
		ok += nb_tcp_snap_clean(&s[i]);
	}
	if (h == NULL)
		return json_null();
	row = pingpong_json(t, t->secs);
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
	if (!why[0] && ok < n)
		snprintf(why, whylen,
			 "%llu of %u connections did not close cleanly at "
			 "%u-byte messages",
			 (unsigned long long)(n - ok), n, t->msg);
	if (!why[0] && h->count == 0)
		snprintf(why, whylen, "no round trip at %u-byte messages",
			 t->msg);
	return row;
}
