/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TCP runner's connection set-up (TCP-specific; see nb_tcprun.h): the
 * ends' addresses and parameters, the jobs and their pools, a responder's
 * cap, the jobs onto the runtime's "tcp" workers, the clients' next hop
 * (ARP), and their tear-down.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memzone.h>

#include "nb_l2.h"
#include "nb_l2_v6.h"
#include "nb_run.h"
#include "nb_setup.h"
#include "nb_tcp_engine.h"
#include "nb_tcp_wire.h"
#include "nb_tcprun_int.h"
#include "nb_telemetry.h"
#include "nb_tsc.h"

/* The flow of end i: this side's addresses as the source. */
static void
end_flow(const struct tcprun *t, int server, uint32_t i, struct nb_flow *f)
{
	const struct nb_config *cfg = &t->app->cfg;
	uint16_t cport = (uint16_t)((t->is_peer ? t->pp.sport_base
						: NB_DEFAULT_SPORT_BASE) +
				    i);
	uint16_t dport = t->is_peer ? t->pp.dport : TCP_DPORT;
	const uint8_t *tx_mac =
		cfg->have_src_mac ? cfg->src_mac : t->app->ports[0].desc.mac;
	const uint8_t *rx_mac = t->peer_mac;
	uint32_t cip = cfg->src_ip, sip = cfg->dst_ip;
	/* IPv6: --src-ip is the client's */
	const uint8_t *cip6 = cfg->stack.src6.a, *sip6 = cfg->stack.dst6.a;

	f->family = t->is_peer ? t->pp.family : cfg->stack.family;
	if (t->is_peer) { /* this end's port, the peer's addresses */
		tx_mac = t->app->ports[0].desc.mac;
		rx_mac = t->pp.peer_mac;
		if (server)
			rx_mac = tx_mac, tx_mac = t->pp.peer_mac;
		cip = server ? t->pp.peer_ip : t->pp.ip;
		sip = server ? t->pp.ip : t->pp.peer_ip;
		cip6 = server ? t->pp.peer_ip6 : t->pp.ip6;
		sip6 = server ? t->pp.ip6 : t->pp.peer_ip6;
	}
	f->proto = NB_IPPROTO_TCP;
	f->vlan_id = t->is_peer ? t->pp.vlan_id : cfg->vlan_id;
	f->ttl = 64;
	f->stream_id = (uint16_t)i;
	memcpy(f->src_mac, server ? rx_mac : tx_mac, 6);
	memcpy(f->dst_mac, server ? tx_mac : rx_mac, 6);
	f->src_ip = server ? sip : cip;
	f->dst_ip = server ? cip : sip;
	if (f->family == 6) {
		memcpy(f->src_ip6, server ? sip6 : cip6, 16);
		memcpy(f->dst_ip6, server ? cip6 : sip6, 16);
	}
	f->src_port = server ? dport : cport;
	f->dst_port = server ? cport : dport;
}

/*
 * Job j's pools (j->port, j->server, j->sends set): its frames' (what the
 * TX ring, the pending burst and the caches may hold), and with zero copy
 * payload mbufs pinned to the pattern where a NIC reads it (none to be
 * had: the payload is copied).  -1 with err set.
 */
static int
job_pools(const struct tcprun *t, struct nb_tcpjob *j, int socket, char *err,
	  size_t errlen)
{
	const struct nb_config *cfg = &t->app->cfg;
	const struct nb_port *port = &t->app->ports[j->server && t->loop];
	char side = j->server ? 's' : 'c';
	char name[RTE_MEMPOOL_NAMESIZE];
	const struct rte_memzone *mz;

	snprintf(name, sizeof(name), "nb_tcp%c%u", side, j->port);
	j->pool = rte_mempool_lookup(name);
	if (j->pool == NULL)
		j->pool = nb_copy_pool_create(
			name, 2 * cfg->txd + 4096, 0,
			(uint16_t)((t->is_peer ? t->pp.frame
					       : cfg->sizes.sizes[0]) +
				   64),
			socket);
	if (j->pool == NULL) {
		snprintf(err, errlen, "cannot create the mbuf pool %s: %s",
			 name, rte_strerror(rte_errno));
		return -1;
	}
	if (!j->sends || !port->tx_chain)
		return 0;
	nb_tcp_pattern_init();
	snprintf(name, sizeof(name), "nb_tcpz%c%u", side, j->port);
	j->zc_pool = nb_pinned_pool_get(
		name, 2 * cfg->txd + 4096, "nb_tcp_pattern", nb_tcp_pattern,
		NB_TCP_PATTERN_SPAN, NB_TCP_ZC_MAX, socket, &mz);
	if (j->zc_pool != NULL) {
		j->zc_pat = mz->addr;
		j->zc_iova = mz->iova;
	}
	return 0;
}

/* Job j's own addresses (ARP and neighbour discovery answer for them),
 * its listening port and whether SYNs bind its ends. */
static void
job_addr(const struct tcprun *t, struct nb_tcpjob *j, int server)
{
	const struct nb_config *cfg = &t->app->cfg;

	memcpy(j->mac, t->app->ports[server && t->loop ? 1 : 0].desc.mac, 6);
	j->ip = t->is_peer ? t->pp.ip : server ? cfg->dst_ip : cfg->src_ip;
	j->family = t->is_peer ? t->pp.family : cfg->stack.family;
	if (j->family == 6)
		memcpy(j->ip6,
		       t->is_peer ? t->pp.ip6
		       : server	  ? cfg->stack.dst6.a
				  : cfg->stack.src6.a,
		       16);
	j->listen_port = t->is_peer ? t->pp.dport : TCP_DPORT;
	/* a listener facing other hosts, or --iperf3-server's (its
	 * client's ports are its kernel's choice) */
	j->accept_any =
		server && !t->loop && (!t->is_peer || t->pp.prefix_len != 0);
}

/* --iperf3's streams: each client end's app (its prefix, the cookie),
 * or --iperf3-server's listener's cookie to check (j->server); -1 out
 * of memory. */
static int
job_apps(const struct tcprun *t, struct nb_tcpjob *j, int socket)
{
	if (!t->is_peer || t->pp.prefix_len == 0)
		return 0;
	j->prefix_len = RTE_MIN(t->pp.prefix_len, (uint32_t)sizeof(j->prefix));
	memcpy(j->prefix, t->pp.prefix, j->prefix_len);
	if (j->server) {
		j->prefix_check = 1;
		j->held = j->sends; /* -R: until TEST_RUNNING (go) */
		return 0;
	}
	j->recv_from = t->pp.recv_from ? t->pp.recv_from : t->n;
	j->apps = rte_zmalloc_socket("nb_tcp_apps", t->n * sizeof(*j->apps),
				     RTE_CACHE_LINE_SIZE, socket);
	return j->apps == NULL ? -1 : 0;
}

/* The ends of one side on a port: addressing, state, pools. */
static struct nb_tcpjob *
job_make(struct tcprun *t, uint16_t port, int server, char *err, size_t errlen)
{
	int socket = nb_port_socket(port);
	int takes_data = t->is_peer ? (server ? t->pp.c2r : t->pp.r2c) : server;
	struct nb_tcpjob *j;
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
	j->nb_rxq = t->is_peer ? t->pp.nb_rxq : 1;
	j->ctl_rings = t->is_peer ? t->pp.ctl_rings : NULL;
	j->ctl_rings_peer = t->is_peer ? t->pp.ctl_rings_peer : NULL;
	if (t->is_peer)
		memcpy(j->ctl_peer_mac, t->pp.peer_mac, 6);
	j->mac_bind = (uint8_t)t->is_peer;
	if (t->is_peer) {
		j->nb_alt = t->pp.nb_peer_alt;
		memcpy(j->alt_mac, t->pp.peer_alt, sizeof(j->alt_mac));
	}
	j->server = (uint8_t)server;
	j->sends = (uint8_t)(t->is_peer ? (server ? t->pp.r2c : t->pp.c2r)
					: !server);
	j->n = t->n;
	j->port_base = t->is_peer ? t->pp.sport_base : NB_DEFAULT_SPORT_BASE;
	if (job_pools(t, j, socket, err, errlen) != 0)
		goto fail;
	if (takes_data) {
		j->owd = rte_zmalloc_socket("nb_tcp_owd", sizeof(*j->owd),
					    RTE_CACHE_LINE_SIZE, socket);
		if (j->owd == NULL)
			goto nomem;
		nb_hist_init(j->owd);
	}
	if (t->msg) {
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
	j->isn = nb_tcp_isn_process();
	if (j->isn == NULL) {
		snprintf(err, errlen,
			 "cannot read random bytes for the TCP ISN secret");
		goto fail;
	}
	if (job_apps(t, j, socket) != 0)
		goto nomem;
	job_addr(t, j, server);
	if (j->accept_any)
		return j; /* the ends are bound by the SYNs that come */
	for (i = 0; i < t->n; i++) {
		end_flow(t, server, i, &j->ends[i].f);
		nb_tcp_tmpl_init(&j->ends[i].tmpl, &j->ends[i].f);
	}
	return j;
nomem:
	snprintf(err, errlen, "out of memory for the TCP connections");
fail: /* the pools are the process's, kept for the next test */
	if (j != NULL) {
		rte_free(j->apps);
		rte_free(j->rtt);
		rte_free(j->owd);
		rte_free(j->ends);
		rte_free(j);
	}
	return NULL;
}

/* What each end is set up with: the loopback's, or the peer test's. */
static void
end_params(const struct tcprun *t, struct nb_tcp_params *sp,
	   struct nb_tcp_params *cp)
{
	const struct nb_config *cfg = &t->app->cfg;
	int peer = t->is_peer;
	int c2r = peer ? t->pp.c2r : 1, r2c = peer ? t->pp.r2c : 0;
	uint32_t window = peer ? t->pp.window : cfg->tcp_window;
	uint8_t delack =
		peer ? t->pp.delayed_ack : (uint8_t)cfg->tcp_delayed_ack;
	uint8_t cc = peer ? t->pp.cc : (uint8_t)cfg->tcp_cc;
	uint64_t bytes = peer ? t->pp.bytes : cfg->bytes;
	/* another host's payload is its own: checked only if it is ours
	 * (a peer is this tool; not --iperf3's server, whose streams'
	 * prefix is the cookie) */
	uint8_t check = peer && t->pp.prefix_len ? NB_TCP_CHECK_OFF
			: t->loop || peer	 ? NB_TCP_CHECK_ON
						 : NB_TCP_CHECK_AUTO;

	memset(sp, 0, sizeof(*sp));
	sp->mss = t->mss;
	sp->rcv_wnd = window;
	sp->sack = 1;
	sp->delayed_ack = delack;
	sp->cc = cc;
	sp->check = check;
	if (r2c) { /* the listener sends: its share, or until the FIN */
		sp->send_bytes = bytes ? 0 : UINT64_MAX;
		/* --iperf3-server's close at TEST_END, as 3.12's */
		sp->close_after_send = bytes != 0 && !t->pp.prefix_len;
		sp->stamp = 1;
		sp->stamp_len = NB_TCP_STAMP_LEN;
	}
	if (t->msg) { /* the listener answers each request */
		sp->send_bytes = UINT64_MAX;
		sp->close_after_send = 0;
	}
	memset(cp, 0, sizeof(*cp));
	cp->mss = t->mss;
	cp->cc = cc;
	cp->rcv_wnd = r2c ? window : 65535;
	cp->delayed_ack = r2c ? delack : 0;
	cp->sack = peer ? !t->pp.no_sack : !cfg->tcp_no_sack;
	cp->check = check;
	if (c2r) {
		cp->stamp = 1;
		cp->stamp_len = NB_TCP_STAMP_LEN;
		cp->close_after_send = 1;
		cp->send_bytes = bytes ? 0 : UINT64_MAX;
	}
}

/* A responder's --max-rate on job j: each frame costs its unit's share
 * of a bucket of 1 ms (at least a burst of frames). */
static void
cap_set(const struct tcprun *t, struct nb_tcpjob *j)
{
	uint64_t frame = t->pp.cap_unit == NB_CTL_CAP_FRAMES ? 1
			 : t->pp.cap_unit == NB_CTL_CAP_L2
				 ? t->pp.frame
				 : t->pp.frame + NB_L1_OVERHEAD;
	uint64_t burst = t->pp.cap_rate / 1000; /* 1 ms */

	j->cap_per_byte = t->pp.cap_unit != NB_CTL_CAP_FRAMES;
	j->cap_fixed = t->pp.cap_unit == NB_CTL_CAP_FRAMES ? 1
		       : t->pp.cap_unit == NB_CTL_CAP_L2
			       ? NB_FCS_LEN
			       : NB_FCS_LEN + NB_L1_OVERHEAD;
	if (burst < NB_BURST * frame)
		burst = NB_BURST * frame;
	nb_budget_init(&j->cap, t->pp.cap_rate, burst, 0);
}

/*
 * The jobs onto workers of the runtime's "tcp" engine: the servers on the
 * first, the clients on the last (as the open-loop senders are); two in a
 * loopback with lcores enough, else one.  A peer test's control frames
 * go out through the first.
 */
static int
add_workers(struct tcprun *t, char *err, size_t errlen)
{
	struct nb_app *app = t->app;
	unsigned int i, nw = app->plan.nb_workers,
			nb = nw >= 2 && t->loop ? 2 : 1;
	struct nb_tcpjob *jobs[2][2];
	uint16_t nj[2] = {0, 0};

	if (t->sj)
		jobs[0][nj[0]++] = t->sj;
	if (t->cj)
		jobs[nb - 1][nj[nb - 1]++] = t->cj;
	for (i = 0; i < nb; i++) {
		/* the last worker first: the first shares its CPU with the
		 * sleeping control and stats lcores */
		unsigned int lc = app->plan.workers[t->loop ? i : nw - 1].lcore;

		int rc = nb_jobs_tcp_worker(&app->jobs, lc, &app->run, jobs[i],
					    nj[i]);

		if (rc != 0) {
			snprintf(err, errlen,
				 "cannot give worker lcore %u its TCP jobs: %s",
				 lc, strerror(-rc));
			return -1;
		}
	}
	if (t->is_peer)
		app->jobs.workers[0]->ctltx = t->pp.ctl_tx;
	return 0;
}

int
nb_tcprun_build(struct tcprun *t, char *err, size_t errlen)
{
	struct nb_tcp_params sp, cp;
	uint64_t bytes = t->is_peer ? t->pp.bytes : t->app->cfg.bytes;
	uint32_t k;

	if (t->app->plan.nb_workers == 0) {
		snprintf(err, errlen,
			 "no worker lcore for the TCP connections (give the "
			 "EAL three lcores or more: control, stats, worker)");
		return -1;
	}
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
	end_params(t, &sp, &cp);
	if (t->sj)
		t->sj->params = sp;
	for (k = 0; t->sj && k < t->n; k++) {
		struct nb_tcp_params p = sp;
		const struct nb_flow *f = &t->sj->ends[k].f;

		if (p.send_bytes == 0 && t->sj->sends) /* its --bytes share */
			p.send_bytes = bytes / t->n + (k < bytes % t->n);
		/* RFC 6528's ISS for the end's 4-tuple (a listener facing
		 * other hosts takes its ends' from the SYNs that come) */
		if (!t->sj->accept_any)
			p.iss = nb_tcp_isn_now(t->sj->isn, nb_flow_ip32(f, 0),
					       f->src_port, nb_flow_ip32(f, 1),
					       f->dst_port);
		nb_tcp_listen(&t->sj->ends[k].c, &p);
		if (t->msg)
			nb_tcp_send_limit(&t->sj->ends[k].c, 0);
	}
	if (t->is_peer && t->pp.cap_unit != NB_CTL_CAP_NONE)
		cap_set(t, t->sj ? t->sj : t->cj);
	if (t->cj != NULL) {
		t->cj->params = cp;
		if (t->cj->sends) {
			/* over the ends that send (--iperf3 --bidir: the
			 * first recv_from) */
			uint32_t m = t->cj->apps ? t->cj->recv_from : t->n;

			t->cj->bytes_each = bytes / m;
			t->cj->bytes_rest = bytes % m;
		}
	}
	if ((t->cj && nb_tcp_job_select(t->cj) != 0) ||
	    (t->sj && nb_tcp_job_select(t->sj) != 0)) {
		snprintf(err, errlen, "no TCP worker step for this test");
		return -1;
	}
	return add_workers(t, err, errlen);
}

void
nb_tcprun_free(struct tcprun *t)
{
	/* telemetry reads the jobs' frame counts while the test is live:
	 * none may be reading when they go */
	nb_telemetry_live(0);
	if (t->cj) {
		rte_free(t->cj->apps);
		rte_free(t->cj->rtt);
		rte_free(t->cj->owd);
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
	free(t->prev2);
	free(t->cur2);
	free(t->remote);
	free(t->rhdr);
	json_decref(t->intervals);
}

/* A request for the --dst-ip's MAC into q (ARP, or a neighbour
 * solicitation in an IPv6 test); its length, or <= 0. */
static int
resolve_ask(const struct nb_config *cfg, const uint8_t *mine,
	    struct rte_mbuf *q)
{
	uint8_t *b = rte_pktmbuf_mtod(q, uint8_t *);
	size_t room = rte_pktmbuf_tailroom(q);

	if (cfg->stack.family == 6)
		return nb_ndp_solicit(b, room, mine, cfg->stack.src6.a,
				      cfg->vlan_id, cfg->stack.dst6.a);
	return nb_arp_request(b, room, mine, cfg->src_ip, cfg->vlan_id,
			      cfg->dst_ip);
}

/* m answers resolve_ask(): the MAC into mac, 1; else 0. */
static int
resolve_heard(const struct nb_config *cfg, const struct rte_mbuf *m,
	      uint8_t mac[6])
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);

	if (cfg->stack.family == 6)
		return nb_ndp_advert_is(d, m->data_len, cfg->stack.dst6.a,
					mac) == 1;
	return nb_arp_sender_is(d, m->data_len, cfg->dst_ip, mac) == 1;
}

/* The clients' next hop when it is another host: --dst-mac, or ARP (an
 * IPv6 test: neighbour discovery) for --dst-ip on the port (before the
 * workers start). */
int
nb_tcprun_resolve_peer(struct tcprun *t, char *err, size_t errlen)
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
	char a[INET6_ADDRSTRLEN] = "?";

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
				len = resolve_ask(cfg, mine, q);
				q->data_len = (uint16_t)(len > 0 ? len : 0);
				q->pkt_len = q->data_len;
				if (len <= 0 || nb_port_tx(port, 0, &q, 1) != 1)
					rte_pktmbuf_free(q);
			}
			next = rte_get_tsc_cycles() + hz / 5;
		}
		n = nb_port_rx(port, 0, m, NB_BURST);
		for (k = 0; k < n; k++) {
			if (!found && resolve_heard(cfg, m[k], t->peer_mac))
				found = 1;
			rte_pktmbuf_free(m[k]);
		}
		nb_run_sleep_us(1000);
	}
	if (!found) {
		if (cfg->stack.family == 6)
			inet_ntop(AF_INET6, cfg->stack.dst6.a, a, sizeof(a));
		else
			snprintf(a, sizeof(a), "%u.%u.%u.%u", cfg->dst_ip >> 24,
				 (cfg->dst_ip >> 16) & 0xff,
				 (cfg->dst_ip >> 8) & 0xff, cfg->dst_ip & 0xff);
		snprintf(err, errlen,
			 "no %s answer for --dst-ip %s on port %u within 3 s "
			 "(give --dst-mac, or check the address)",
			 cfg->stack.family == 6 ? "neighbour advertisement"
						: "ARP",
			 a, port);
		return -1;
	}
	return 0;
}
