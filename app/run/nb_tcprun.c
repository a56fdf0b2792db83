/* SPDX-License-Identifier: BSD-3-Clause */
/* The closed-loop TCP runner (see nb_tcprun.h). */
#include "nb_tcprun.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "nb_l2.h"
#include "nb_log.h"
#include "nb_run.h"
#include "nb_setup.h"
#include "nb_tcp_engine.h"
#include "nb_tcp_report.h"
#include "nb_tcp_wire.h"
#include "nb_tsc.h"
#include "nb_version.h"

#define TCP_DPORT	     5201 /* iperf3's */
#define CLOSE_WAIT_S	     5.0  /* after the end: FINs and their ACKs */
#define STALL_S		     30.0 /* no byte acknowledged: the test is stuck */
#define TEXT_STREAM_ROWS_MAX 16	  /* more streams: [SUM] rows only */

struct tcprun {
	struct nb_app *app;
	/* loop: both ends here; else clients to another host (has_client)
	 * or a listener for another host's clients (has_server) */
	int loop, has_client, has_server;
	uint8_t peer_mac[6];	   /* where the clients' frames go */
	struct nb_tcpjob *cj, *sj; /* clients (TX port), servers (RX) */
	struct nb_tcpwork *w[2];
	unsigned int nb_w;
	uint32_t n;
	uint16_t mss;
	struct nb_tcp_snap *prev, *cur;
	json_t *intervals;
	double t_prev;
	uint64_t start_ns;
};

/* One connection: its client end c and server end s, either NULL when
 * the other host is not this tool (then the bytes the one side counted
 * stand for both). */
/* Connections to report: a listener's, those it accepted. */
static uint32_t
nconn(const struct tcprun *t)
{
	return t->sj && t->sj->accept_any ? (uint32_t)t->sj->accepted : t->n;
}

static void
snap_one(const struct nb_tcp_end *c, const struct nb_tcp_end *s,
	 struct nb_tcp_snap *o)
{
	memset(o, 0, sizeof(*o));
	if (c != NULL) {
		const struct nb_tcp_stats *a = &c->c.st;

		o->acked = a->bytes_acked;
		o->retrans = a->retrans;
		o->fast_retrans = a->fast_retrans;
		o->rto = a->rto_fired;
		o->recoveries = a->recoveries;
		o->cwnd = c->c.cwnd;
		o->max_cwnd = a->max_cwnd;
		o->srtt_ns = c->c.srtt_ns;
		o->rttvar_ns = c->c.rttvar_ns;
		o->min_rtt_ns = a->min_rtt_ns;
		o->max_rtt_ns = a->max_rtt_ns;
		o->rtt_samples = a->rtt_samples;
		o->cstate = c->c.state;
		o->cerr = c->c.error;
		/* a client's receiver takes the answers of --pingpong */
		o->bad_bytes = a->bad_bytes;
		o->dup_bytes = a->dup_bytes_in;
	}
	if (s != NULL) {
		const struct nb_tcp_stats *b = &s->c.st;

		o->rcvd = b->bytes_rcvd;
		o->bad_bytes += b->bad_bytes;
		o->dup_bytes += b->dup_bytes_in;
		o->ooo_segs = b->ooo_segs_in;
		o->sstate = s->c.state;
		o->serr = s->c.error;
		if (c == NULL) {
			o->acked = o->rcvd;
			o->cstate = NB_TCP_TIME_WAIT; /* the peer's: unknown */
		}
	} else {
		o->rcvd = o->acked;
		o->sstate = NB_TCP_CLOSED;
	}
}

static void
snap_all(struct tcprun *t, struct nb_tcp_snap *o)
{
	uint32_t i;

	for (i = 0; i < nconn(t); i++)
		snap_one(t->cj ? &t->cj->ends[i] : NULL,
			 t->sj ? &t->sj->ends[i] : NULL, &o[i]);
}

static double
elapsed_s(const struct tcprun *t)
{
	uint64_t now = nb_clock_ns(&t->app->run.clock, rte_rdtsc());

	return now > t->start_ns ? (double)(now - t->start_ns) / 1e9 : 0;
}

static void
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
					b->retrans - a->retrans, t->cj != NULL,
					b->cwnd, b->srtt_ns, o->format, NULL);
		}
	}
	if (text && n > 1)
		nb_tcp_text_row(o->f, "SUM", t0, t1, bytes, retr, t->cj != NULL,
				0, 0, o->format, NULL);
	if (text)
		fflush(o->f);
	json_array_append_new(
		t->intervals,
		json_pack("{s:o, s:o}", "streams", streams, "sum",
			  nb_tcp_json_sum(t0, t1, bytes, t->cj != NULL, retr)));
	memcpy(t->prev, t->cur, t->n * sizeof(*t->prev));
	t->t_prev = t1;
}

static void
addr_text(char *b, size_t n, uint32_t ip, uint16_t port)
{
	snprintf(b, n, "%u.%u.%u.%u:%u", ip >> 24, (ip >> 16) & 0xff,
		 (ip >> 8) & 0xff, ip & 0xff, port);
}

static json_t *
ip_json(uint32_t ip)
{
	char b[32];

	snprintf(b, sizeof(b), "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 0xff,
		 (ip >> 8) & 0xff, ip & 0xff);
	return json_string(b);
}

/* The ends of one side on a port: addressing, state, a pool. */
static struct nb_tcpjob *
job_make(struct tcprun *t, uint16_t port, int server, char *err, size_t errlen)
{
	const struct nb_config *cfg = &t->app->cfg;
	int socket = nb_port_socket(port);
	struct nb_tcpjob *j;
	char name[RTE_MEMPOOL_NAMESIZE];
	uint32_t i;

	j = rte_zmalloc_socket("nb_tcpjob", sizeof(*j), RTE_CACHE_LINE_SIZE,
			       socket);
	if (j == NULL)
		goto nomem;
	j->ends = rte_zmalloc_socket("nb_tcp_ends", t->n * sizeof(*j->ends),
				     RTE_CACHE_LINE_SIZE, socket);
	if (j->ends == NULL)
		goto nomem;
	j->port = port;
	j->queue = 0;
	j->server = (uint8_t)server;
	j->n = t->n;
	j->port_base = NB_DEFAULT_SPORT_BASE;
	snprintf(name, sizeof(name), "nb_tcp%c%u", server ? 's' : 'c', port);
	/* what the TX ring, the pending burst and the caches may hold */
	j->pool = rte_mempool_lookup(name);
	if (j->pool == NULL)
		j->pool = nb_copy_pool_create(
			name, 2 * cfg->txd + 4096, 0,
			(uint16_t)(cfg->sizes.sizes[0] + 64), socket);
	if (j->pool == NULL) {
		snprintf(err, errlen, "cannot create the mbuf pool %s: %s",
			 name, rte_strerror(rte_errno));
		return NULL;
	}
	if (server) {
		j->owd = rte_zmalloc_socket("nb_tcp_owd", sizeof(*j->owd),
					    RTE_CACHE_LINE_SIZE, socket);
		if (j->owd == NULL)
			goto nomem;
		nb_hist_init(j->owd);
	}
	if (cfg->pingpong) {
		j->pp_msg = cfg->tcp_msg;
		if (!server) {
			j->rtt = rte_zmalloc_socket(
				"nb_tcp_rtt", sizeof(*j->rtt),
				RTE_CACHE_LINE_SIZE, socket);
			if (j->rtt == NULL)
				goto nomem;
			nb_hist_init(j->rtt);
		}
	}
	memcpy(j->mac, t->app->ports[server && t->loop ? 1 : 0].desc.mac, 6);
	j->ip = server ? cfg->dst_ip : cfg->src_ip;
	j->listen_port = TCP_DPORT;
	j->accept_any = server && !t->loop;
	if (j->accept_any)
		return j; /* the ends are bound by the SYNs that come */
	for (i = 0; i < t->n; i++) {
		struct nb_flow *f = &j->ends[i].f;
		uint16_t cport = (uint16_t)(j->port_base + i);
		const uint8_t *tx_mac = cfg->have_src_mac
						? cfg->src_mac
						: t->app->ports[0].desc.mac;
		const uint8_t *rx_mac = t->peer_mac;

		f->proto = NB_IPPROTO_TCP;
		f->vlan_id = cfg->vlan_id;
		f->ttl = 64;
		f->stream_id = (uint16_t)i;
		memcpy(f->src_mac, server ? rx_mac : tx_mac, 6);
		memcpy(f->dst_mac, server ? tx_mac : rx_mac, 6);
		f->src_ip = server ? cfg->dst_ip : cfg->src_ip;
		f->dst_ip = server ? cfg->src_ip : cfg->dst_ip;
		f->src_port = server ? TCP_DPORT : cport;
		f->dst_port = server ? cport : TCP_DPORT;
	}
	return j;
nomem:
	snprintf(err, errlen, "out of memory for the TCP connections");
	return NULL;
}

static int
build(struct tcprun *t, char *err, size_t errlen)
{
	const struct nb_config *cfg = &t->app->cfg;
	struct nb_tcp_params sp = {0};
	unsigned int i;
	uint32_t k;

	if (t->has_client) {
		t->cj = job_make(t, t->app->port_ids[0], 0, err, errlen);
		if (t->cj == NULL)
			return -1;
	}
	if (t->has_server) {
		t->sj = job_make(t, t->app->port_ids[t->loop ? 1 : 0], 1, err,
				 errlen);
		if (t->sj == NULL)
			return -1;
	}
	sp.mss = t->mss;
	sp.rcv_wnd = cfg->tcp_window;
	sp.sack = 1;
	sp.delayed_ack = (uint8_t)cfg->tcp_delayed_ack;
	sp.cc = (uint8_t)cfg->tcp_cc;
	/* another host's payload is its own: checked only if it is ours */
	sp.check = t->loop ? NB_TCP_CHECK_ON : NB_TCP_CHECK_AUTO;
	if (cfg->pingpong) { /* the listener answers each request */
		sp.send_bytes = UINT64_MAX;
		sp.close_after_send = 0;
	}
	if (t->sj)
		t->sj->params = sp;
	for (k = 0; t->sj && k < t->n; k++) {
		nb_tcp_listen(&t->sj->ends[k].c, &sp);
		if (cfg->pingpong)
			nb_tcp_send_limit(&t->sj->ends[k].c, 0);
	}
	t->nb_w = t->app->plan.nb_workers >= 2 && t->loop ? 2 : 1;
	for (i = 0; i < t->nb_w; i++) {
		unsigned int lc = t->app->plan.workers[i].lcore;

		t->w[i] = rte_zmalloc_socket("nb_tcpwork", sizeof(*t->w[i]),
					     RTE_CACHE_LINE_SIZE,
					     (int)rte_lcore_to_socket_id(lc));
		if (t->w[i] == NULL) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		t->w[i]->lcore = lc;
		t->w[i]->run = &t->app->run;
	}
	/* the clients on the last worker, as the open-loop senders are: the
	 * first shares its CPU with the sleeping control and stats lcores */
	if (t->sj)
		t->w[0]->jobs[t->w[0]->nb_jobs++] = t->sj;
	if (t->cj)
		t->w[t->nb_w - 1]->jobs[t->w[t->nb_w - 1]->nb_jobs++] = t->cj;
	if (t->cj == NULL)
		return 0;
	t->cj->params.mss = t->mss;
	t->cj->params.cc = (uint8_t)cfg->tcp_cc;
	t->cj->params.rcv_wnd = 65535;
	t->cj->params.sack = !cfg->tcp_no_sack;
	t->cj->params.stamp = 1;
	t->cj->params.stamp_len = NB_TCP_STAMP_LEN;
	t->cj->params.close_after_send = 1;
	t->cj->params.send_bytes = cfg->bytes ? 0 : UINT64_MAX;
	/* the answers a client gets: another host's only if they are ours */
	t->cj->params.check = t->loop ? NB_TCP_CHECK_ON : NB_TCP_CHECK_AUTO;
	t->cj->bytes_each = cfg->bytes / t->n;
	t->cj->bytes_rest = cfg->bytes % t->n;
	return 0;
}

static void
free_all(struct tcprun *t)
{
	unsigned int i;

	for (i = 0; i < t->nb_w; i++)
		rte_free(t->w[i]);
	if (t->cj) {
		rte_free(t->cj->rtt);
		rte_free(t->cj->ends);
		rte_free(t->cj);
	}
	if (t->sj) {
		rte_free(t->sj->owd);
		rte_free(t->sj->ends);
		rte_free(t->sj);
	}
	free(t->prev);
	free(t->cur);
	json_decref(t->intervals);
}

/* Every connection closed: all of them, or those a listener took. */
static int
all_finished(const struct tcprun *t)
{
	if (t->cj && t->cj->finished < t->n)
		return 0;
	if (t->sj && t->sj->accept_any)
		return t->sj->accepted > 0 &&
		       t->sj->finished == t->sj->accepted;
	return t->sj == NULL || t->sj->finished == t->n;
}

/* Bytes delivered so far, as this side sees them: progress. */
static uint64_t
acked_total(const struct tcprun *t)
{
	uint64_t s = 0;
	uint32_t i;

	for (i = 0; i < t->n; i++)
		s += t->cj ? t->cj->ends[i].c.st.bytes_acked
			   : t->sj->ends[i].c.st.bytes_rcvd;
	return s;
}

/* Wait for the end (time, bytes, Ctrl-C, a stall), printing intervals. */
static void
wait_end(struct tcprun *t, int *interrupted, char *why, size_t whylen)
{
	const struct nb_config *cfg = &t->app->cfg;
	double next_iv = cfg->interval > 0 ? cfg->interval : 1e30;
	double close_at = -1, now, last_progress = 0, t_end;
	double limit = cfg->bytes && !cfg->duration_set ? 0 : cfg->duration;
	uint64_t acked = 0, a;
	unsigned int i;

	for (;;) {
		nb_run_sleep_us(2000);
		now = elapsed_s(t);
		if (now <= 0)
			continue;
		/* a listener waits for its first connection without end
		 * (or Ctrl-C), and its times count from it, as iperf3 -s's */
		if (t->cj == NULL && t->sj->accepted == 0 && !nb_force_quit &&
		    close_at < 0) {
			t->start_ns =
				nb_clock_ns(&t->app->run.clock, rte_rdtsc());
			continue;
		}
		while (now >= next_iv && close_at < 0) {
			interval(t, next_iv);
			next_iv += cfg->interval;
		}
		a = acked_total(t);
		if (a != acked) {
			acked = a;
			last_progress = now;
		}

		if (close_at < 0 &&
		    ((limit > 0 && now >= limit) || nb_force_quit ||
		     (t->cj ? t->cj->finished == t->n : all_finished(t)) ||
		     now - last_progress > STALL_S)) {
			if (nb_force_quit)
				*interrupted = 1;
			else if (now - last_progress > STALL_S &&
				 !all_finished(t))
				snprintf(why, whylen,
					 "no byte acknowledged for %.0f s: "
					 "test stopped",
					 STALL_S);
			/* the last, partial interval */
			t_end = limit > 0 && now > limit ? limit : now;
			if (cfg->interval > 0 && t_end > t->t_prev)
				interval(t, t_end);
			for (i = 0; i < t->nb_w; i++)
				t->w[i]->close_req = 1;
			close_at = now;
		}
		if (close_at >= 0 &&
		    (all_finished(t) || now - close_at > CLOSE_WAIT_S ||
		     (nb_force_quit && now - close_at > 1.0)))
			break;
	}
}

static double
end_secs(const struct tcprun *t, double fallback, int sender)
{
	const struct nb_tcpjob *j = sender && t->cj ? t->cj : t->sj;
	uint64_t last = 0;
	uint32_t i;

	if (j == NULL)
		j = t->cj;
	for (i = 0; i < nconn(t); i++) {
		const struct nb_tcp_end *e = &j->ends[i];
		uint64_t x = j->server ? e->done_ns : e->all_acked_ns;

		if (!x)
			return fallback;
		if (x > last)
			last = x;
	}
	return last > t->start_ns ? (double)(last - t->start_ns) / 1e9
				  : fallback;
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
		(int)i + 1, "local_host", ip_json(f->src_ip), "local_port",
		f->src_port, "remote_host", ip_json(f->dst_ip), "remote_port",
		f->dst_port, "client_state",
		t->cj ? nb_tcp_state_name(s->cstate) : "peer's", "server_state",
		t->sj ? nb_tcp_state_name(s->sstate) : "peer's", "error",
		nb_tcp_error_name(s->cerr ? s->cerr : s->serr));
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
		json_object_set_new(
			o, "rtt_ns",
			json_pack("{s:I, s:I, s:I, s:I, s:I, s:f}", "count",
				  (json_int_t)h->count, "min",
				  (json_int_t)h->min, "p50",
				  (json_int_t)nb_hist_percentile(h, 50), "p99",
				  (json_int_t)nb_hist_percentile(h, 99), "max",
				  (json_int_t)h->max, "mean", nb_hist_mean(h)));
	return o;
}

/* Whether the bytes received were checked: the listener's, and with
 * --pingpong the clients' (the answers). */
static const char *
check_text(const struct tcprun *t)
{
	uint32_t i, on = 0, all = 0;

	for (i = 0; t->sj && i < nconn(t); i++, all++)
		on += t->sj->ends[i].c.check == NB_TCP_CHECK_ON;
	for (i = 0; t->cj && t->cj->pp_msg && i < t->n; i++, all++)
		on += t->cj->ends[i].c.check == NB_TCP_CHECK_ON;
	if (all == 0)
		return "the peer's";
	return on == all ? "checked"
	       : on	 ? "checked where it was ours"
			 : "not checked (not this tool's pattern)";
}

static void
report(struct tcprun *t, double secs, int interrupted, char *why, size_t whylen)
{
	struct nb_app *app = t->app;
	const struct nb_config *cfg = &app->cfg;
	const struct nb_output *o = &app->out;
	int text = nb_out_chatty(o);
	uint64_t sent = 0, rcvd = 0, retr = 0, fr = 0, rto = 0, rec = 0;
	uint64_t bad = 0, dup = 0, ok = 0;
	double ss = end_secs(t, secs, 1), sr = end_secs(t, secs, 0);
	json_t *streams = json_array(), *doc, *start, *end, *conn, *nb;
	const struct nb_hist *h = t->sj ? t->sj->owd : NULL;
	uint32_t i, n = nconn(t);
	char a1[40], id[16];

	if (cfg->duration > 0 && !cfg->bytes && !interrupted && t->cj)
		ss = sr = cfg->duration < secs ? cfg->duration : secs;
	snap_all(t, t->cur);
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
		ok += s->cstate == NB_TCP_TIME_WAIT &&
		      s->sstate == NB_TCP_CLOSED && !s->cerr && !s->serr;
		json_array_append_new(
			streams, nb_tcp_json_end_stream((int)i + 1, ss, sr, s));
		json_array_append_new(conn, conn_json(t, i, s));
		if (text && n <= TEXT_STREAM_ROWS_MAX) {
			snprintf(id, sizeof(id), "%u", i + 1);
			if (t->cj)
				nb_tcp_text_row(o->f, id, 0, ss, s->acked,
						s->retrans, 1, 0, 0, o->format,
						"sender");
			if (t->sj)
				nb_tcp_text_row(o->f, id, 0, sr, s->rcvd, 0, 0,
						0, 0, o->format, "receiver");
		}
	}
	if (text && n > 1) {
		if (t->cj)
			nb_tcp_text_row(o->f, "SUM", 0, ss, sent, retr, 1, 0, 0,
					o->format, "sender");
		if (t->sj)
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
		if (!t->loop)
			fprintf(o->f,
				"(the %s is another host: its counts "
				"are not here)\n",
				t->cj ? "receiver" : "sender");
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
	if (!why[0] && cfg->bytes && t->cj && sent != cfg->bytes &&
	    !interrupted)
		snprintf(why, whylen, "%llu of %llu bytes acknowledged",
			 (unsigned long long)sent,
			 (unsigned long long)cfg->bytes);
	if (text && why[0])
		fprintf(o->f, "WARNING: %s\n", why);
	addr_text(a1, sizeof(a1), cfg->dst_ip, TCP_DPORT);
	start = json_pack(
		"{s:o, s:s, s:{s:s, s:i}, s:i, s:{s:s, s:i, s:i, s:i, s:f, "
		"s:I, s:i, s:i}}",
		"connected", conn, "version", "dpdk-nbench " NB_VERSION,
		"connecting_to", "host", a1, "port", TCP_DPORT,
		"tcp_mss_default", t->mss, "test_start", "protocol", "TCP",
		"num_streams", (int)n, "blksize",
		(int)(t->mss - NB_TCP_STAMP_LEN), "omit", 0, "duration",
		cfg->bytes ? 0.0 : cfg->duration, "bytes",
		(json_int_t)cfg->bytes, "blocks", 0, "reverse", 0);
	end = json_pack("{s:o, s:o, s:o}", "streams", streams, "sum_sent",
			nb_tcp_json_sum(0, ss, sent, t->cj != NULL, retr),
			"sum_received", nb_tcp_json_sum(0, sr, rcvd, 0, 0));
	nb = json_pack("{s:s, s:s, s:i, s:i, s:b, s:b, s:I, s:I, s:I, s:I, "
		       "s:I, s:I, s:s}",
		       "mode", "tcp", "topology",
		       t->loop ? "loopback"
		       : t->cj ? "client"
			       : "server",
		       "mss", t->mss, "window", (int)cfg->tcp_window, "sack",
		       !cfg->tcp_no_sack, "delayed_ack", cfg->tcp_delayed_ack,
		       "connections_closed", (json_int_t)ok, "fast_retransmits",
		       (json_int_t)fr, "rto", (json_int_t)rto, "recoveries",
		       (json_int_t)rec, "bad_bytes", (json_int_t)bad,
		       "dup_bytes_received", (json_int_t)dup, "payload",
		       check_text(t));
	if (h && h->count)
		json_object_set_new(
			nb, "latency_ns",
			json_pack("{s:I, s:I, s:I, s:I, s:I, s:f}", "count",
				  (json_int_t)h->count, "min",
				  (json_int_t)h->min, "p50",
				  (json_int_t)nb_hist_percentile(h, 50), "p99",
				  (json_int_t)nb_hist_percentile(h, 99), "max",
				  (json_int_t)h->max, "mean", nb_hist_mean(h)));
	if (t->cj && t->cj->rtt)
		json_object_set_new(nb, "pingpong", pingpong_json(t, ss));
	json_object_set_new(nb, "cc",
			    json_string(cfg->tcp_cc ? "cubic" : "newreno"));
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

/* The clients' next hop when it is another host: --dst-mac, or ARP for
 * --dst-ip on the port (before the workers start). */
static int
resolve_peer(struct tcprun *t, char *err, size_t errlen)
{
	const struct nb_config *cfg = &t->app->cfg;
	const uint8_t *mine = t->app->ports[0].desc.mac;
	uint16_t port = t->app->port_ids[0];
	struct rte_mempool *mp;
	struct rte_mbuf *m[NB_BURST];
	uint64_t hz = nb_tsc_hz(), end = rte_get_tsc_cycles() + 3 * hz;
	uint64_t next = 0;
	uint16_t n, k;
	int len, found = 0;

	if (!t->has_client)
		return 0; /* a listener learns its peers from their SYNs */
	if (t->loop || cfg->have_dst_mac) {
		memcpy(t->peer_mac,
		       cfg->have_dst_mac ? cfg->dst_mac
					 : t->app->ports[1].desc.mac,
		       6);
		return 0;
	}
	mp = nb_pool_get("nb_tcp_arp", 255, nb_port_socket(port));
	if (mp == NULL) {
		snprintf(err, errlen, "cannot create the ARP pool");
		return -1;
	}
	while (!found && !nb_force_quit && rte_get_tsc_cycles() < end) {
		if (rte_get_tsc_cycles() >= next) {
			struct rte_mbuf *q = rte_pktmbuf_alloc(mp);

			if (q != NULL) {
				len = nb_arp_request(
					rte_pktmbuf_mtod(q, uint8_t *),
					rte_pktmbuf_tailroom(q), mine,
					cfg->src_ip, cfg->vlan_id, cfg->dst_ip);
				q->data_len = (uint16_t)(len > 0 ? len : 0);
				q->pkt_len = q->data_len;
				if (len <= 0 || nb_port_tx(port, 0, &q, 1) != 1)
					rte_pktmbuf_free(q);
			}
			next = rte_get_tsc_cycles() + hz / 5;
		}
		n = nb_port_rx(port, 0, m, NB_BURST);
		for (k = 0; k < n; k++) {
			if (!found &&
			    nb_arp_sender_is(
				    rte_pktmbuf_mtod(m[k], const uint8_t *),
				    m[k]->data_len, cfg->dst_ip,
				    t->peer_mac) == 1)
				found = 1;
			rte_pktmbuf_free(m[k]);
		}
		nb_run_sleep_us(1000);
	}
	if (!found) {
		snprintf(err, errlen,
			 "no ARP answer for --dst-ip %u.%u.%u.%u on port %u "
			 "within 3 s (give --dst-mac, or check the address)",
			 cfg->dst_ip >> 24, (cfg->dst_ip >> 16) & 0xff,
			 (cfg->dst_ip >> 8) & 0xff, cfg->dst_ip & 0xff, port);
		return -1;
	}
	return 0;
}

static void
print_header(const struct tcprun *t)
{
	const struct nb_config *cfg = &t->app->cfg;
	char a1[40], a2[40];
	uint16_t i;

	for (i = 0; i < t->app->nb_ports; i++)
		nb_setup_print_test_port(stdout, &t->app->ports[i]);
	addr_text(a1, sizeof(a1), cfg->src_ip, NB_DEFAULT_SPORT_BASE);
	addr_text(a2, sizeof(a2), cfg->dst_ip, TCP_DPORT);
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
	if (t->app->out.intervals)
		nb_tcp_text_header(t->app->out.f, 0);
	fflush(stdout);
}

int
nb_tcprun_main(struct nb_app *app)
{
	const struct nb_config *cfg = &app->cfg;
	struct nb_run *run = &app->run;
	struct tcprun t = {.app = app};
	uint64_t hz = nb_tsc_hz();
	int interrupted = 0, code = 0;
	char err[320] = "", why[320] = "";
	unsigned int i;
	double secs;

	t.has_client = cfg->nb_tx_ports > 0;
	t.has_server = cfg->nb_rx_ports > 0;
	t.loop = t.has_client && t.has_server;
	t.n = cfg->streams;
	t.mss = (uint16_t)(cfg->sizes.sizes[0] - NB_FCS_LEN - NB_ETH_HLEN -
			   (cfg->vlan_id ? NB_VLAN_HLEN : 0) - NB_IPV4_HLEN -
			   NB_TCP_HLEN);
	t.prev = calloc(t.n, sizeof(*t.prev));
	t.cur = calloc(t.n, sizeof(*t.cur));
	t.intervals = json_array();
	if (t.prev == NULL || t.cur == NULL ||
	    resolve_peer(&t, err, sizeof(err)) != 0 ||
	    build(&t, err, sizeof(err)) != 0) {
		nb_app_error(app, "%s", err[0] ? err : "out of memory");
		free_all(&t);
		return 1;
	}
	if (nb_out_chatty(&app->out))
		print_header(&t);
	for (i = 0; i < app->nb_ports; i++) {
		nb_port_rx_flush(app->port_ids[i], 0);
		nb_port_stats_reset(app->port_ids[i]);
	}
	nb_clock_init(&run->clock, hz, 0);
	run->start_tsc = rte_get_tsc_cycles() +
			 (uint64_t)(NB_RUN_START_DELAY_S * (double)hz);
	t.start_ns = nb_clock_ns(&run->clock, run->start_tsc);
	for (i = 0; i < t.nb_w; i++) {
		if (rte_eal_remote_launch(nb_tcp_worker_main, t.w[i],
					  t.w[i]->lcore) != 0) {
			nb_app_error(app, "cannot launch lcore %u",
				     t.w[i]->lcore);
			for (; i > 0; i--) {
				t.w[i - 1]->exit_req = 1;
				rte_eal_wait_lcore(t.w[i - 1]->lcore);
			}
			free_all(&t);
			return 1;
		}
	}
	wait_end(&t, &interrupted, why, sizeof(why));
	secs = elapsed_s(&t);
	for (i = 0; i < t.nb_w; i++)
		t.w[i]->exit_req = 1;
	for (i = 0; i < t.nb_w; i++)
		rte_eal_wait_lcore(t.w[i]->lcore);
	report(&t, secs, interrupted, why, sizeof(why));
	if (why[0]) {
		NB_LOG(ERR, "%s", why);
		code = 1;
	}
	if (interrupted)
		code = 1;
	free_all(&t);
	return code;
}
