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
#include "nb_tcprun_int.h"
#include "nb_tsc.h"
#include "nb_version.h"

/* One connection: its client end c and server end s, either NULL when
 * the other host is not this tool (then the bytes the one side counted
 * stand for both). */
static double
elapsed_s(const struct tcprun *t)
{
	uint64_t now = nb_clock_ns(&t->app->run.clock, rte_rdtsc());

	return now > t->start_ns ? (double)(now - t->start_ns) / 1e9 : 0;
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
		j->pp_msg = t->msg;
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
	double iv = t->no_iv ? 0 : cfg->interval;
	double next_iv = iv > 0 ? iv : 1e30;
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
			next_iv += iv;
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
			if (iv > 0 && t_end > t->t_prev)
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

/*
 * One test: set up, run to its end, the workers joined (t->secs its
 * length).  0, or 1 with the error said and everything freed.
 */
static int
run_test(struct nb_app *app, struct tcprun *t, uint32_t msg, int header,
	 int *interrupted, char *why, size_t whylen)
{
	const struct nb_config *cfg = &app->cfg;
	struct nb_run *run = &app->run;
	uint64_t hz = nb_tsc_hz();
	char err[320] = "";
	unsigned int i;

	t->app = app;
	t->msg = msg;
	t->has_client = cfg->nb_tx_ports > 0;
	t->has_server = cfg->nb_rx_ports > 0;
	t->loop = t->has_client && t->has_server;
	t->n = cfg->streams;
	t->mss = (uint16_t)(cfg->sizes.sizes[0] - NB_FCS_LEN - NB_ETH_HLEN -
			    (cfg->vlan_id ? NB_VLAN_HLEN : 0) - NB_IPV4_HLEN -
			    NB_TCP_HLEN);
	t->prev = calloc(t->n, sizeof(*t->prev));
	t->cur = calloc(t->n, sizeof(*t->cur));
	t->intervals = json_array();
	if (t->prev == NULL || t->cur == NULL ||
	    resolve_peer(t, err, sizeof(err)) != 0 ||
	    build(t, err, sizeof(err)) != 0) {
		nb_app_error(app, "%s", err[0] ? err : "out of memory");
		free_all(t);
		return 1;
	}
	if (header && nb_out_chatty(&app->out))
		print_header(t);
	for (i = 0; i < app->nb_ports; i++) {
		nb_port_rx_flush(app->port_ids[i], 0);
		nb_port_stats_reset(app->port_ids[i]);
	}
	nb_clock_init(&run->clock, hz, 0);
	run->start_tsc = rte_get_tsc_cycles() +
			 (uint64_t)(NB_RUN_START_DELAY_S * (double)hz);
	t->start_ns = nb_clock_ns(&run->clock, run->start_tsc);
	for (i = 0; i < t->nb_w; i++) {
		if (rte_eal_remote_launch(nb_tcp_worker_main, t->w[i],
					  t->w[i]->lcore) != 0) {
			nb_app_error(app, "cannot launch lcore %u",
				     t->w[i]->lcore);
			for (; i > 0; i--) {
				t->w[i - 1]->exit_req = 1;
				rte_eal_wait_lcore(t->w[i - 1]->lcore);
			}
			free_all(t);
			return 1;
		}
	}
	wait_end(t, interrupted, why, whylen);
	t->secs = elapsed_s(t);
	for (i = 0; i < t->nb_w; i++)
		t->w[i]->exit_req = 1;
	for (i = 0; i < t->nb_w; i++)
		rte_eal_wait_lcore(t->w[i]->lcore);
	return 0;
}

/*
 * --pingpong with a --msg-size range: one test per size, one after the
 * other (a connection each), as qperf -oo msg_size:...; a row per size
 * and nbench.pingpong_sweep[] in the JSON document.
 */
static int
sweep(struct nb_app *app)
{
	const struct nb_config *cfg = &app->cfg;
	const struct nb_output *o = &app->out;
	json_t *rows = json_array(), *doc;
	char why[320] = "";
	int interrupted = 0, code = 0;
	uint32_t k;

	for (k = 0; k < cfg->tcp_msgs.n && !interrupted && !why[0]; k++) {
		struct tcprun t = {.no_iv = 1};
		json_t *row;

		if (run_test(app, &t, cfg->tcp_msgs.sizes[k], k == 0,
			     &interrupted, why, sizeof(why)) != 0) {
			json_decref(rows);
			return 1;
		}
		if (k == 0 && nb_out_chatty(o))
			fprintf(o->f,
				"msg bytes  round trips   per second   "
				"RTT min      p50      p99      max (us)\n");
		row = sweep_row(&t, o, why, sizeof(why));
		json_array_append_new(rows, row);
		free_all(&t);
	}
	if (why[0] && nb_out_chatty(o))
		fprintf(o->f, "WARNING: %s\n", why);
	doc = json_pack("{s:{s:s, s:{s:s, s:i, s:f}}, s:{s:s, s:o, s:b}}",
			"start", "version", "dpdk-nbench " NB_VERSION,
			"test_start", "protocol", "TCP", "num_streams",
			(int)cfg->streams, "duration", cfg->duration, "nbench",
			"mode", "tcp", "pingpong_sweep", rows, "interrupted",
			interrupted);
	if (why[0])
		json_object_set_new(doc, "error", json_string(why));
	app->emitted = 1;
	if (nb_out_finish(o, doc) != 0)
		NB_LOG(ERR, "cannot write --json-file %s", cfg->json_file);
	if (why[0]) {
		NB_LOG(ERR, "%s", why);
		code = 1;
	}
	return interrupted ? 1 : code;
}

int
nb_tcprun_main(struct nb_app *app)
{
	struct tcprun t = {0};
	int interrupted = 0, code = 0;
	char why[320] = "";

	if (app->cfg.tcp_msgs.n)
		return sweep(app);
	if (run_test(app, &t, app->cfg.tcp_msg, 1, &interrupted, why,
		     sizeof(why)) != 0)
		return 1;
	report(&t, t.secs, interrupted, why, sizeof(why));
	if (why[0]) {
		NB_LOG(ERR, "%s", why);
		code = 1;
	}
	if (interrupted)
		code = 1;
	free_all(&t);
	return code;
}
