/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "nb_frame.h"
#include "nb_log.h"
#include "nb_mesh_peer.h"
#include "nb_mesh_run.h"
#include "nb_peer_result.h"
#include "nb_peer_iv_io.h"
#include "nb_peertest.h"
#include "nb_policy.h"
#include "nb_run.h"
#include "nb_setup.h"
#include "nb_tcprun.h"
#include "nb_replay_load.h"
#include "nb_tsc.h"

_Static_assert(NB_RX_ALT_SRC == NB_CTL_MACS_MAX &&
		       NB_TCP_ALT_MACS == NB_CTL_MACS_MAX,
	       "the receivers take every MAC a PARAMS or ACCEPT names");

/* Turn the (already validated) parameters into this end's test config. */
static void
params_to_cfg(struct nb_peer *pr, const struct nb_ctl_params *p)
{
	struct nb_config *cfg = &pr->app->cfg;
	/* a ping-pong client sends probes only, no data */
	int sends = pr->client ? p->direction != NB_CTL_DIR_REVERSE &&
					 !cfg->pingpong
			       : p->direction != NB_CTL_DIR_FORWARD;
	uint16_t i;

	cfg->proto = p->proto;
	cfg->vlan_id = p->vlan_id;
	cfg->streams = p->streams;
	cfg->sizes.nb_sizes = p->nb_sizes;
	for (i = 0; i < p->nb_sizes; i++)
		cfg->sizes.sizes[i] = p->sizes[i];
	cfg->sizes.nb_pattern = p->nb_pattern;
	memcpy(cfg->sizes.pattern, p->pattern, p->nb_pattern);
	cfg->duration = p->duration_ms / 1000.0;
	cfg->omit = p->omit_ms / 1000.0;
	/* the client's --interval: the responder samples as often */
	if (!pr->client)
		cfg->interval = p->interval_ms / 1000.0;
	cfg->packets = p->packets;
	cfg->nb_tx_ports = sends ? 1 : 0;
	cfg->tx_ports[0] = cfg->port;
	cfg->nb_rx_ports = 1;
	cfg->rx_ports[0] = cfg->port;
	cfg->have_src_mac = 0;
	cfg->have_dst_mac = 1;
	memcpy(cfg->dst_mac, pr->peer_mac, 6);
	cfg->src_ip = pr->io->ip;
	cfg->dst_ip = pr->peer_ip;
	cfg->mesh.nb_pairs = 0; /* a mesh's comes from PARAMS (setup) */
	/* the test's family is the control protocol's */
	cfg->stack.family = pr->io->v6 ? 6 : 4;
	if (pr->io->v6) {
		cfg->stack.src6.family = 6;
		cfg->stack.dst6.family = 6;
		memcpy(cfg->stack.src6.a, pr->io->ip6, 16);
		memcpy(cfg->stack.dst6.a, pr->peer_ip6, 16);
	}
}

/* The responder reflects probes: each worker on the TX queue of its first
 * RX queue (forward tests leave its data TX queues idle). */
static int
reflect_setup(struct nb_peer *pr, const struct nb_ctl_params *p, char *err,
	      size_t errlen)
{
	struct nb_jobs *js = &pr->app->jobs;
	unsigned int i, k;

	if (p->direction != NB_CTL_DIR_FORWARD) {
		snprintf(err, errlen, "latency probes ride forward tests only");
		return -EINVAL;
	}
	/*
	 * At most the negotiated probe rate (+10 %), per receive queue,
	 * probe-sized frames only.  The burst allows 250 ms worth (at least
	 * 256): the bucket sees arrivals when the worker polls, and a worker
	 * kept off its CPU finds them queued.
	 */
	uint64_t rate = p->latency_rate + p->latency_rate / 10 + 1;
	uint64_t burst = rate / 4 < 256 ? 256 : rate / 4;

	for (i = 0; i < js->nb_workers; i++) {
		struct nb_worker *w = js->workers[i];
		int q = -1;

		for (k = 0; k < w->nb_rx && q < 0; k++)
			if (w->rx[k]->queue < pr->app->cfg.queues)
				q = w->rx[k]->queue;
		for (k = 0; k < w->nb_rx; k++) {
			struct nb_rxjob *j = w->rx[k];

			j->reflect_txq = q;
			/* 64 B, or the test's first size (a ping-pong
			 * probe): the same bytes go back, never more */
			j->probe_len = NB_FRAME_MIN - NB_FCS_LEN;
			j->probe_len2 = p->sizes[0] - NB_FCS_LEN;
			nb_tokens_init(&j->refl, rate, burst,
				       nb_clock_ns(&pr->app->run.clock,
						   rte_get_tsc_cycles()));
		}
	}
	return 0;
}

/* The client probes from the worker that owns TX queue 0 and records round
 * trips per RX queue. */
static int
prober_setup(struct nb_peer *pr, char *err, size_t errlen)
{
	struct nb_app *app = pr->app;
	const struct nb_config *cfg = &app->cfg;
	struct nb_jobs *js = &app->jobs;
	uint8_t frame[NB_FRAME_MAX];
	char name[RTE_MEMPOOL_NAMESIZE];
	struct nb_probejob *pj;
	struct nb_worker *w;
	struct nb_flow f;
	unsigned int i;

	for (i = 0; i < js->nb_rx; i++) {
		js->rx[i]->rtt = rte_zmalloc("nb_rtt", sizeof(struct nb_hist),
					     RTE_CACHE_LINE_SIZE);
		if (js->rx[i]->rtt == NULL)
			goto nomem;
		nb_hist_init(js->rx[i]->rtt);
	}
	pj = rte_zmalloc("nb_probe", sizeof(*pj), RTE_CACHE_LINE_SIZE);
	if (pj == NULL)
		goto nomem;
	js->probe = pj;
	pj->port = cfg->port;
	pj->queue = 0;
	pj->pingpong = cfg->pingpong;
	pj->timeout_tsc = nb_tsc_hz() / 10; /* 100 ms */
	snprintf(name, sizeof(name), "nb_probe_p%u", cfg->port);
	pj->pool = nb_pool_get(name, 1023, nb_port_socket(cfg->port));
	if (pj->pool == NULL)
		goto nomem;
	memset(&f, 0, sizeof(f));
	memcpy(f.src_mac, app->ports[0].desc.mac, 6);
	memcpy(f.dst_mac, pr->peer_mac, 6);
	f.vlan_id = cfg->vlan_id;
	f.proto = cfg->proto;
	f.src_ip = pr->io->ip;
	f.dst_ip = pr->peer_ip;
	f.family = pr->io->v6 ? 6 : 4;
	memcpy(f.src_ip6, pr->io->ip6, 16);
	memcpy(f.dst_ip6, pr->peer_ip6, 16);
	f.src_port = (uint16_t)(NB_DEFAULT_SPORT_BASE + cfg->streams);
	f.dst_port = NB_DEFAULT_DPORT;
	f.stream_id = (uint16_t)cfg->streams;
	/* ping-pong probes are of the first --size (round trips against
	 * size); probes inside a stream are 64 B */
	if (nb_frame_build(frame, sizeof(frame), &f,
			   cfg->pingpong ? cfg->sizes.sizes[0] : NB_FRAME_MIN,
			   NB_MAGIC_PROBE, &pj->tmpl) < 0) {
		snprintf(err, errlen, "cannot build a probe frame");
		return -EINVAL;
	}
	for (i = 0; i < js->nb_rx && i < NB_MAX_WORKER_JOBS; i++)
		pj->rx[pj->nb_rx++] = js->rx[i];
	w = nb_jobs_queue_owner(js, 0);
	if (w == NULL) {
		snprintf(err, errlen, "no worker owns queue 0 for probes");
		return -EINVAL;
	}
	w->probe = pj;
	return 0;
nomem:
	snprintf(err, errlen, "out of hugepage memory for latency probes");
	return -ENOMEM;
}

/*
 * One queue pair: the worker that sends on the control lcore's TX queue (a
 * sender on it, or the responder's probe reflector) sends control's frames
 * too; with none, the control lcore keeps sending itself.
 */
static int
ctltx_setup(struct nb_peer *pr, char *err, size_t errlen)
{
	struct nb_jobs *js = &pr->app->jobs;
	uint16_t q = pr->io->txq;
	struct nb_worker *owner = NULL;
	struct nb_ctltx *c;
	unsigned int i, k;

	pr->ctltx = NULL;
	if (!pr->io->shared_txq)
		return 0;
	for (i = 0; i < js->nb_workers && owner == NULL; i++) {
		struct nb_worker *w = js->workers[i];

		for (k = 0; k < w->nb_tx; k++)
			if (w->tx[k]->queue == q &&
			    w->tx[k]->port == pr->io->port)
				owner = w;
		for (k = 0; k < w->nb_rx; k++)
			if (w->rx[k]->reflect_txq == (int)q)
				owner = w;
		if (w->probe != NULL && w->probe->queue == q)
			owner = w;
	}
	if (owner == NULL)
		return 0;
	c = rte_zmalloc_socket("nb_ctltx", sizeof(*c), RTE_CACHE_LINE_SIZE,
			       (int)rte_lcore_to_socket_id(owner->lcore));
	if (c == NULL) {
		snprintf(err, errlen, "out of hugepage memory");
		return -ENOMEM;
	}
	c->ring = pr->io->tx_ring;
	c->port = nb_port_ctl_tx_port(pr->io->port);
	c->queue = q;
	owner->ctltx = c;
	pr->ctltx = c;
	NB_LOG(DEBUG,
	       "port %u: worker lcore %u sends control's frames on "
	       "the shared TX queue %u during the test",
	       c->port, owner->lcore, q);
	return 0;
}

/* After the workers stopped: control sends on its queue itself again. */
static void
ctltx_back(struct nb_peer *pr)
{
	struct nb_ctltx *c = pr->ctltx;

	if (c == NULL)
		return;
	nb_ctlio_tx_back(pr->io, c->pend + c->pend_head, c->nb_pend, c->sent);
	rte_free(c);
	pr->ctltx = NULL;
}

/*
 * Just before the workers start: the PMD counters reset (a reset racing a
 * worker's own counter update could be lost), control's counts marked,
 * and from here the workers own the RX queues (and a shared TX one).
 */
static void
hand_over(struct nb_peer *pr)
{
	uint16_t i;

	for (i = 0; i < pr->app->nb_ports; i++)
		nb_port_stats_reset(pr->app->port_ids[i]);
	pr->ctl_tx0 = pr->io->tx_frames;
	pr->ctl_rx0 = pr->io->rx_polled;
	rte_wmb();
	pr->io->workers_own_rx = 1;
	if (pr->ctltx != NULL)
		nb_ctlio_tx_via_ring(pr->io);
}

/* Control's shared TX queue during a TCP test: the TCP worker's. */
static struct nb_ctltx *
tcp_ctltx(struct nb_peer *pr)
{
	struct nb_ctltx *c;

	if (!pr->io->shared_txq)
		return NULL;
	c = rte_zmalloc("nb_ctltx", sizeof(*c), RTE_CACHE_LINE_SIZE);
	if (c == NULL)
		return NULL;
	c->ring = pr->io->tx_ring;
	c->port = nb_port_ctl_tx_port(pr->io->port);
	c->queue = pr->io->txq;
	return c;
}

/*
 * A closed-loop TCP test: this end's TCP job on queue 0, bound to the
 * peer's addresses and the agreed ports; the worker hands the session's
 * frames to the control lcore (and sends its frames on one queue pair).
 */
static int
tcp_setup(struct nb_peer *pr, const struct nb_ctl_params *p, char *err,
	  size_t errlen)
{
	struct nb_app *app = pr->app;
	struct nb_tcppeer pp;

	memset(&pp, 0, sizeof(pp));
	pp.responder = !pr->client;
	pp.c2r = p->direction != NB_CTL_DIR_REVERSE;
	pp.r2c = p->direction != NB_CTL_DIR_FORWARD;
	memcpy(pp.peer_mac, pr->peer_mac, 6);
	pp.peer_setup_known = pr->client;
	pp.peer_offload = pr->peer_offload;
	pp.peer_numa = pr->peer_numa;
	pp.nb_peer_alt = RTE_MIN(pr->peer_macs.n, NB_TCP_ALT_MACS);
	memcpy(pp.peer_alt, pr->peer_macs.mac, sizeof(pp.peer_alt));
	pp.ip = pr->io->ip;
	pp.peer_ip = pr->peer_ip;
	pp.family = pr->io->v6 ? 6 : 4;
	memcpy(pp.ip6, pr->io->ip6, 16);
	memcpy(pp.peer_ip6, pr->peer_ip6, 16);
	pp.sport_base = p->sport_base;
	pp.dport = p->dport;
	pp.streams = p->streams;
	pp.frame = p->sizes[0];
	pp.vlan_id = p->vlan_id;
	pp.window = p->tcp_window;
	pp.msg = p->tcp_msg;
	pp.delayed_ack = (p->tcp_flags & NB_CTL_TCP_F_DELACK) != 0;
	pp.no_sack = (p->tcp_flags & NB_CTL_TCP_F_NO_SACK) != 0;
	pp.cc = p->tcp_cc;
	pp.bytes = p->bytes;
	pp.duration = (double)p->duration_ms / 1000.0;
	pp.no_header = pr->sweep_later;
	pp.nb_rxq = pr->io->nb_rxq;
	if (!pr->client && pp.r2c &&
	    nb_policy_tcp_cap(&app->cfg, app->ports[0].desc.link_speed,
			      &pp.cap_rate, &pp.cap_unit, err, errlen) != 0)
		return -EPERM;
	pp.prefix = pr->tcp_prefix;
	pp.prefix_len = pr->tcp_prefix_len;
	pp.recv_from = pr->tcp_recv_from;
	pp.ctl_rings = pr->io->rings;
	pp.ctl_rings_peer = pr->io->peer_rings;
	pr->ctltx = pp.ctl_tx = tcp_ctltx(pr);
	if (pr->io->shared_txq && pr->ctltx == NULL) {
		snprintf(err, errlen, "out of hugepage memory");
		return -ENOMEM;
	}
	hand_over(pr);
	pr->tcp = nb_tcprun_peer_new(app, &pp, err, errlen);
	if (pr->tcp == NULL) {
		pr->io->workers_own_rx = 0;
		ctltx_back(pr);
		return -EINVAL;
	}
	if (pr->ctltx != NULL)
		NB_LOG(DEBUG,
		       "port %u: the TCP worker sends control's frames on the "
		       "shared TX queue %u during the test",
		       pr->io->port, pr->io->txq);
	pr->test_ready = 1;
	return 0;
}

/* The receive jobs: control's hand-off rings, and whose frames count. */
static void
rx_jobs_setup(struct nb_peer *pr)
{
	struct nb_app *app = pr->app;
	unsigned int i, k;

	for (i = 0; i < app->jobs.nb_rx; i++) {
		struct nb_rxjob *j = app->jobs.rx[i];
		uint8_t want[8] = {0}, mask[8] = {0};

		/* a mesh: data from any port of it, as in loopback; control
		 * on the first port only */
		if (nb_mesh_peer_on(pr)) {
			if (j->port == pr->io->port) {
				j->ctl_ring = pr->io->rings[j->queue];
				j->ctl_ring_peer = pr->io->peer_rings[j->queue];
			}
			continue;
		}
		j->ctl_ring = pr->io->rings[j->queue];
		j->ctl_ring_peer = pr->io->peer_rings[j->queue];
		j->ctl_foreign = pr->io->on_other != NULL;
		/* data, warm-up and probes count only from the peer's MAC */
		memcpy(want, pr->peer_mac, 6);
		memset(mask, 0xff, 6);
		memcpy(&j->src_want, want, 8);
		memcpy(&j->src_mask, mask, 8);
		memcpy(want, app->ports[0].desc.mac, 6);
		memcpy(&j->own_src, want, 8);
		/* and from its TLB/ALB bond's members */
		j->nb_alt = RTE_MIN(pr->peer_macs.n, NB_RX_ALT_SRC);
		for (k = 0; k < j->nb_alt; k++) {
			memset(want, 0, sizeof(want));
			memcpy(want, pr->peer_macs.mac[k], 6);
			memcpy(&j->alt_src[k], want, 8);
		}
	}
}

int
nb_peertest_setup(struct nb_peer *pr, const struct nb_ctl_params *p, char *err,
		  size_t errlen)
{
	struct nb_app *app = pr->app;
	struct nb_result *r = &app->result;
	int ret;

	if (p->tcp)
		return tcp_setup(pr, p, err, errlen);
	params_to_cfg(pr, p);
	if (nb_mesh_peer_on(pr) && nb_mesh_peer_cfg(pr, p, err, errlen) != 0)
		return -EINVAL;
	ret = nb_run_prepare(app, p->rate_num, p->rate_den, p->packets, err,
			     errlen);
	if (ret == 0 && app->cfg.replay.active) {
		/* a client's replay, to the session's addresses */
		nb_replay_set_macs(&app->replay, pr->peer_mac,
				   app->ports[0].desc.mac);
		nb_replay_arm(app);
	}
	if (ret == 0 && p->latency_rate)
		ret = pr->client ? prober_setup(pr, err, errlen)
				 : reflect_setup(pr, p, err, errlen);
	if (ret == 0 && !pr->client && app->cfg.impair.active)
		ret = nb_jobs_impair(
			&app->jobs, &app->cfg.impair,
			nb_clock_ns(&app->run.clock, rte_get_tsc_cycles()),
			app->cfg.proto, err, errlen);
	if (ret == 0)
		ret = ctltx_setup(pr, err, errlen);
	if (ret != 0) {
		ctltx_back(pr);
		nb_run_free(app);
		return ret;
	}
	nb_setup_check_numa(app);
	r->topology = "peer";
	r->latency_method = "one-way, assumes a clock shared with the sender "
			    "(same host)";
	r->ports[0].role =
		app->cfg.nb_tx_ports || (pr->client && p->latency_rate)
			? "tx+rx"
			: "rx";
	rx_jobs_setup(pr);
	/* a mesh: the switch learns our ports before any test frame */
	if (nb_mesh_peer_on(pr))
		nb_mesh_learn(app);
	hand_over(pr);
	if (nb_run_launch(app, 0) != 0) {
		pr->io->workers_own_rx = 0;
		ctltx_back(pr);
		nb_run_free(app);
		snprintf(err, errlen, "cannot launch workers");
		return -EIO;
	}
	pr->test_ready = 1;
	return 0;
}

void
nb_peertest_arm(struct nb_peer *pr, uint64_t delay_ns)
{
	uint64_t hz = nb_tsc_hz();
	/*
	 * The delay comes from the wire (up to NB_CTL_MAX_START_DELAY_MS):
	 * 60 s in ns times hz does not fit 64 bits, so the product is
	 * 128-bit.
	 */
	uint64_t start =
		rte_get_tsc_cycles() +
		(uint64_t)((unsigned __int128)delay_ns * hz / 1000000000u);

	if (pr->tcp != NULL) {
		nb_tcprun_peer_arm(pr->tcp, start);
		return;
	}
	nb_run_arm(pr->app, start);
	nb_peer_iv_io_start(pr);
}

/*
 * What the receivers did not count as the test's: probes the responder
 * did not reflect, and control frames a full hand-off ring refused (a
 * control flood; the protocol retransmits what was ours).
 */
static void
log_receivers(const struct nb_jobs *js, int responder)
{
	uint64_t probes = 0, back = 0, fail = 0, limited = 0, ctl_drop = 0;
	uint64_t own = 0;
	unsigned int i;

	for (i = 0; i < js->nb_rx; i++) {
		probes += js->rx[i]->probes;
		back += js->rx[i]->reflected;
		fail += js->rx[i]->reflect_fail;
		limited += js->rx[i]->reflect_limited;
		ctl_drop += js->rx[i]->ctl_dropped;
		own += js->rx[i]->own;
	}
	if (own)
		NB_LOG(WARNING,
		       "warning: %" PRIu64 " of our own test frames came back "
		       "to this port (counted foreign, and the frames they "
		       "took the place of as lost): a loop on the link, or a "
		       "memif whose rings share buffers (DPDK 22.11: keep "
		       "2 x (queues + 1) x 2^rsize within 65536)",
		       own);
	if (responder && probes)
		NB_LOG(INFO,
		       "probes: %" PRIu64 " received, %" PRIu64
		       " reflected, %" PRIu64
		       " refused by the TX queue, %" PRIu64
		       " not reflected (over the agreed rate or not "
		       "probe-sized)",
		       probes, back, fail, limited);
	if (ctl_drop)
		NB_LOG(NOTICE,
		       "%" PRIu64 " control, ARP or ICMP frames dropped: the "
		       "hand-off rings to the control lcore were full",
		       ctl_drop);
}

/* The responder's --impair: what it did, for the results and the log. */
static void
impair_result(struct nb_app *app)
{
	struct nb_impair_report *ir = &app->result.impair;
	const struct nb_impair_counts *c = &ir->c;

	ir->active = 1;
	nb_impair_text(&app->cfg.impair, ir->spec, sizeof(ir->spec));
	nb_jobs_impair_counts(&app->jobs, &ir->c);
	NB_LOG(INFO,
	       "impairment %s: %" PRIu64 " frames offered, %" PRIu64
	       " dropped, %" PRIu64 " over the rate, %" PRIu64
	       " over the delay line, %" PRIu64 " duplicated, %" PRIu64
	       " reordered, %" PRIu64 " delayed",
	       ir->spec, c->seen, c->dropped, c->policed, c->overflow,
	       c->duplicated, c->reordered, c->delayed);
}

/*
 * A responder's start is the client's plus START's trip to it (plus a
 * retransmission timeout or more when a START was lost), so the client's
 * STOP at the end of its time can come before ours.  Cutting our senders
 * there would leave a reverse test short of what its rate and time owe
 * (CI saw 19990 of 20000 frames; a START lost once, ~400).  A STOP within
 * NB_PEER_END_SKEW_MS of our end waits for it; the senders then stop by
 * their own rule.  Earlier, it is an interruption: at once.
 */
static void
wait_near_end(const struct nb_peer *pr)
{
	uint64_t end = pr->app->run.end_tsc, now = rte_get_tsc_cycles();

	if (pr->client || end == UINT64_MAX || now >= end ||
	    end - now > nb_tsc_hz() / 1000 * NB_PEER_END_SKEW_MS)
		return;
	while (rte_get_tsc_cycles() < end)
		nb_run_sleep_us(500);
}

/*
 * Control frames wait in the hand-off rings meanwhile: this runs inside
 * message handling and must not re-enter it.
 */
void
nb_peertest_stop(struct nb_peer *pr)
{
	struct nb_app *app = pr->app;
	struct nb_port_result *port = &app->result.ports[0];

	if (!pr->test_ready)
		return;
	if (pr->tcp != NULL) {
		uint64_t handed, dropped;

		nb_tcprun_peer_stop(pr->tcp);
		pr->io->workers_own_rx = 0;
		ctltx_back(pr);
		nb_tcprun_peer_ctl(pr->tcp, &handed, &dropped);
		if (dropped)
			NB_LOG(NOTICE,
			       "%" PRIu64 " control, ARP or ICMP frames "
			       "dropped: the hand-off rings to the control "
			       "lcore were full",
			       dropped);
		pr->test_ready = 0;
		return;
	}
	wait_near_end(pr);
	nb_peer_iv_io_sample(pr);
	nb_run_drain(app, 1, 0);
	pr->io->workers_own_rx = 0;
	ctltx_back(pr);
	nb_run_collect(app);
	if (nb_mesh_peer_read(pr) != 0)
		NB_LOG(ERR, "mesh: cannot hold this end's counts");
	if (!pr->client && app->cfg.impair.active)
		impair_result(app);
	log_receivers(&app->jobs, !pr->client);
	/* the port also carried control frames: count them as ours */
	port->tool_tx_pkts += pr->io->tx_frames - pr->ctl_tx0;
	if (app->jobs.probe != NULL)
		port->tool_tx_pkts += app->jobs.probe->sent;
	port->tool_rx_pkts += pr->io->rx_polled - pr->ctl_rx0;
	/* the control lcore's frames are counted per port, not per queue:
	 * no per-queue rows in peer mode */
	port->nb_queues = 0;
	pr->test_ready = 0;
}

void
nb_peertest_free(struct nb_peer *pr)
{
	if (pr->test_ready)
		nb_peertest_stop(pr);
	nb_tcprun_peer_free(pr->tcp);
	pr->tcp = NULL;
	nb_peer_iv_io_free(pr);
	nb_mesh_peer_free(pr);
	nb_run_free(pr->app);
	free(pr->blob);
	pr->blob = NULL;
	pr->blob_len = 0;
}

int
nb_peertest_blob(struct nb_peer *pr)
{
	const struct nb_result *r = &pr->app->result;
	struct nb_ctl_results_hdr h;
	struct nb_ctl_stream_res *s;
	int n;

	if (pr->tcp != NULL)
		return nb_tcprun_peer_blob(pr->tcp, &pr->blob, &pr->blob_len);
	s = calloc(r->nb_streams ? r->nb_streams : 1, sizeof(*s));
	if (s == NULL)
		return -ENOMEM;
	nb_peer_result_export(r, &h, s);
	pr->blob_len = nb_ctl_results_size(s, r->nb_streams);
	pr->blob = malloc(pr->blob_len);
	n = pr->blob == NULL ? -ENOMEM
			     : nb_ctl_results_write(&h, s, r->nb_streams,
						    pr->blob, pr->blob_len);
	free(s);
	if (n >= 0)
		n = nb_mesh_peer_blob(pr);
	if (n < 0) { /* no blob rather than one without its share */
		free(pr->blob);
		pr->blob = NULL;
		pr->blob_len = 0;
	}
	return n < 0 ? n : 0;
}
