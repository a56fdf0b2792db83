/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Peer mode: the responder (dpdk-nbench with no test options, like
 * `iperf3 -s`) and the client (--peer MAC).  Both run on the control lcore,
 * which sleeps between polls.  Control messages (nb_ctl) ride in UDP
 * datagrams on the test port; nb_link retransmits each until it is
 * acknowledged, and a new message from the peer also acknowledges ours (the
 * peer only sends it after reading our last one).  Test traffic reuses the
 * loopback machinery: jobs, engines, stats, collection.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_random.h>
#include <rte_version.h>

#include "nb_app.h"
#include "nb_ctl.h"
#include "nb_ctlio.h"
#include "nb_frame.h"
#include "nb_link.h"
#include "nb_offset.h"
#include "nb_version.h"

#define MS	       1000000ULL
#define KEEPALIVE_NS   (250 * MS)
#define START_DELAY_MS 200
#define RTO_MIN_NS     (20 * MS)
#define RTO_MAX_NS     (400 * MS)

enum rstate { R_IDLE, R_SESSION, R_ARMED, R_STOPPED };

struct peer {
	struct nb_app *app;
	struct nb_ctlio io;
	struct nb_link link;
	int client;
	uint32_t session;
	uint8_t peer_mac[6];
	uint32_t peer_ip;
	uint64_t timeout_ns;
	uint64_t last_heard;
	struct nb_ctl_conf mine, theirs;
	/* client: the last new message from the responder */
	struct nb_ctl_msg inbox;
	int inbox_full;
	/* responder */
	enum rstate state;
	int test_ready; /* jobs set up, workers launched */
	uint8_t *blob;
	size_t blob_len;
	int quit;
	int arp_done;
	int stopping; /* client: STOP sent; Ctrl-C no longer aborts waits */
	struct nb_offset off; /* client: responder clock - ours */
	char method[160];
	struct nb_ctl_params params;
	uint64_t ctl_tx0, ctl_rx0; /* control frames at the PMD stats reset */
};

static uint64_t
now_ns(const struct peer *pr)
{
	return nb_clock_ns(&pr->app->run.clock, rte_get_tsc_cycles());
}

/*
 * The control lcore sleeps between polls: 500 us, or 50 us while a test is
 * being set up (the clock-offset samples are then only that late; during
 * the test the CPU is left to the workers).
 */
static int nap_short;

static void
nap(void)
{
	struct timespec ts = {0, nap_short ? 50000 : 500000};

	nanosleep(&ts, NULL);
}

static void
copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

static void
cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	copy_str(buf, len, "unknown");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');

		if (strncmp(line, "model name", 10) == 0 && c != NULL) {
			c++;
			while (*c == ' ')
				c++;
			c[strcspn(c, "\n")] = '\0';
			copy_str(buf, len, c);
			break;
		}
	}
	fclose(f);
}

static void
fill_conf(struct peer *pr)
{
	struct nb_app *app = pr->app;
	const struct nb_port_desc *d = &app->ports[0].desc;
	struct nb_ctl_conf *c = &pr->mine;
	struct utsname u;

	memset(c, 0, sizeof(*c));
	copy_str(c->tool_version, sizeof(c->tool_version), NB_VERSION);
	copy_str(c->dpdk_version, sizeof(c->dpdk_version), rte_version());
	if (gethostname(c->host, sizeof(c->host) - 1) != 0)
		copy_str(c->host, sizeof(c->host), "unknown");
	c->host[sizeof(c->host) - 1] = '\0';
	cpu_model(c->cpu, sizeof(c->cpu));
	if (uname(&u) == 0)
		snprintf(c->os, sizeof(c->os), "%.20s %.40s", u.sysname,
			 u.release);
	copy_str(c->driver, sizeof(c->driver), d->driver);
	c->link_speed_mbps = d->link_speed;
	c->nb_ports = app->nb_ports;
	c->nb_rxq = d->nb_rxq;
	c->nb_txq = d->nb_txq;
	c->nb_workers = (uint16_t)app->plan.nb_workers;
	c->numa_node = (int16_t)(d->numa_node < -1 ? -1 : d->numa_node);
	memcpy(c->mac, d->mac, 6);
	c->ipv4 = pr->io.ip;
	{
		FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

		if (f != NULL) {
			if (fgets(c->boot_id, sizeof(c->boot_id), f) == NULL)
				c->boot_id[0] = '\0';
			c->boot_id[strcspn(c->boot_id, "\n")] = '\0';
			fclose(f);
		}
	}
}

/* --- sending ------------------------------------------------------------ */

static int
send_raw(struct peer *pr, struct nb_ctl_msg *m, const uint8_t mac[6],
	 uint32_t ip)
{
	uint8_t buf[NB_CTL_MAX_LEN];
	int n = nb_ctl_encode(m, buf, sizeof(buf));

	if (n < 0)
		return n;
	return nb_ctlio_send_msg(&pr->io, mac, ip, buf, (uint16_t)n);
}

static void
send_ack(struct peer *pr, uint32_t session, uint32_t seq, const uint8_t mac[6],
	 uint32_t ip)
{
	struct nb_ctl_msg a;

	nb_ctl_msg_init(&a, NB_CTL_ACK, session);
	a.seq = seq;
	send_raw(pr, &a, mac, ip);
}

/* Retransmit what is due; -ETIMEDOUT when the peer stopped answering. */
static int
link_service(struct peer *pr)
{
	const uint8_t *buf;
	size_t len;

	switch (nb_link_poll(&pr->link, now_ns(pr), &buf, &len)) {
	case NB_LINK_TRANSMIT:
		nb_ctlio_send_msg(&pr->io, pr->peer_mac, pr->peer_ip, buf,
				  (uint16_t)len);
		return 0;
	case NB_LINK_TIMEOUT:
		return -ETIMEDOUT;
	default:
		return 0;
	}
}

/* Send reliably; waits (polling) while an earlier message is unacked. */
static int
link_send(struct peer *pr, struct nb_ctl_msg *m)
{
	int ret;

	m->session = pr->session;
	while ((ret = nb_link_send(&pr->link, m, now_ns(pr))) == -EBUSY) {
		nb_ctlio_poll(&pr->io);
		if (link_service(pr) != 0)
			return -ETIMEDOUT;
		nap();
	}
	if (ret != 0)
		return ret;
	return link_service(pr);
}

/* --- receiving ---------------------------------------------------------- */

static void on_msg(void *ctx, const struct nb_udp_info *u);

static int
decode(struct peer *pr, const struct nb_udp_info *u, struct nb_ctl_msg *m)
{
	int ret = nb_ctl_decode(u->payload, u->payload_len, m);

	if (getenv("NB_CTL_DEBUG") != NULL)
		fprintf(stderr, "ctl %s rx %s session %08x seq %u ret %d\n",
			pr->client ? "client" : "responder",
			ret == 0 ? nb_ctl_type_name(m->type) : "?", m->session,
			m->seq, ret);

	if (ret == -EPROTONOSUPPORT) {
		struct nb_ctl_msg e;

		fprintf(stderr,
			"dpdk-nbench: control message of another protocol "
			"version from %u.%u.%u.%u: version mismatch\n",
			u->src_ip >> 24, (u->src_ip >> 16) & 255,
			(u->src_ip >> 8) & 255, u->src_ip & 255);
		nb_ctl_msg_init(&e, NB_CTL_ERROR, m->session ? m->session : 1);
		e.seq = m->seq ? m->seq : 1;
		e.u.error.code = NB_CTL_CODE_VERSION;
		snprintf(e.u.error.reason, sizeof(e.u.error.reason),
			 "version mismatch: this side speaks control "
			 "protocol %d (dpdk-nbench %s)",
			 NB_CTL_VERSION, NB_VERSION);
		send_raw(pr, &e, u->src_mac, u->src_ip);
	}
	return ret;
}

/* Common to both sides: ACKs, duplicates, implicit acknowledgement. */
static int
accept_msg(struct peer *pr, const struct nb_udp_info *u,
	   const struct nb_ctl_msg *m)
{
	int fresh;

	if (m->type == NB_CTL_ACK) {
		nb_link_on_ack(&pr->link, m->seq, now_ns(pr));
		return 0;
	}
	fresh = nb_link_accept(&pr->link, m);
	if (fresh < 0)
		return 0;
	send_ack(pr, m->session, m->seq, u->src_mac, u->src_ip);
	if (fresh == 0)
		return 0;
	/* The peer answered, so it read our last message. */
	if (pr->link.pending)
		nb_link_on_ack(&pr->link, pr->link.out_seq, now_ns(pr));
	pr->last_heard = now_ns(pr);
	return 1;
}

/* --- tests on either side ----------------------------------------------- */

/* Turn the (already validated) parameters into this side's test config. */
static void
params_to_cfg(struct peer *pr, const struct nb_ctl_params *p)
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
	cfg->packets = p->packets;
	cfg->nb_tx_ports = sends ? 1 : 0;
	cfg->tx_ports[0] = cfg->port;
	cfg->nb_rx_ports = 1;
	cfg->rx_ports[0] = cfg->port;
	cfg->have_src_mac = 0;
	cfg->have_dst_mac = 1;
	memcpy(cfg->dst_mac, pr->peer_mac, 6);
	cfg->src_ip = pr->io.ip;
	cfg->dst_ip = pr->peer_ip;
}

/* The worker that owns TX queue q of the port (or RX queue q), if any. */
static struct nb_worker *
queue_owner(struct nb_app *app, uint16_t q)
{
	unsigned int i, k;

	for (i = 0; i < app->plan.nb_workers; i++) {
		struct nb_worker *w = app->workers[i];

		for (k = 0; k < w->nb_tx; k++)
			if (w->tx[k]->queue == q && w->tx[k]->nb_streams)
				return w;
	}
	for (i = 0; i < app->plan.nb_workers; i++) {
		struct nb_worker *w = app->workers[i];

		for (k = 0; k < w->nb_rx; k++)
			if (w->rx[k]->queue == q)
				return w;
	}
	return NULL;
}

/*
 * Latency probes.  The responder's receivers reflect them, each worker on
 * the TX queue of its first RX queue (forward tests leave the responder's
 * data TX queues idle, so no other lcore uses it).  The client probes from
 * the worker that owns TX queue 0 and records round trips per RX queue.
 */
static int
probes_setup(struct peer *pr, const struct nb_ctl_params *p, char *err,
	     size_t errlen)
{
	struct nb_app *app = pr->app;
	const struct nb_config *cfg = &app->cfg;
	struct nb_probejob *pj;
	struct nb_worker *w;
	struct nb_flow f;
	uint8_t frame[NB_FRAME_MAX];
	char name[RTE_MEMPOOL_NAMESIZE];
	unsigned int i, k;

	if (p->latency_rate == 0)
		return 0;
	if (!pr->client) {
		if (p->direction != NB_CTL_DIR_FORWARD) {
			snprintf(err, errlen,
				 "latency probes ride forward "
				 "tests only");
			return -EINVAL;
		}
		for (i = 0; i < app->plan.nb_workers; i++) {
			int q = -1;

			w = app->workers[i];
			for (k = 0; k < w->nb_rx && q < 0; k++)
				if (w->rx[k]->queue < cfg->queues)
					q = w->rx[k]->queue;
			for (k = 0; k < w->nb_rx; k++)
				w->rx[k]->reflect_txq = q;
		}
		return 0;
	}
	for (i = 0; i < app->nb_rxjobs; i++) {
		app->rxjobs[i]->rtt = rte_zmalloc(
			"nb_rtt", sizeof(struct nb_hist), RTE_CACHE_LINE_SIZE);
		if (app->rxjobs[i]->rtt == NULL)
			goto nomem;
		nb_hist_init(app->rxjobs[i]->rtt);
	}
	pj = rte_zmalloc("nb_probe", sizeof(*pj), RTE_CACHE_LINE_SIZE);
	if (pj == NULL)
		goto nomem;
	app->probe = pj;
	pj->port = cfg->port;
	pj->queue = 0;
	pj->pingpong = cfg->pingpong;
	pj->timeout_tsc = rte_get_tsc_hz() / 10; /* 100 ms */
	snprintf(name, sizeof(name), "nb_probe_p%u", cfg->port);
	pj->pool = rte_mempool_lookup(name);
	if (pj->pool == NULL)
		pj->pool = rte_pktmbuf_pool_create(name, 1023, 32, 0,
						   RTE_MBUF_DEFAULT_BUF_SIZE,
						   (int)rte_socket_id());
	if (pj->pool == NULL)
		goto nomem;
	memset(&f, 0, sizeof(f));
	memcpy(f.src_mac, app->ports[0].desc.mac, 6);
	memcpy(f.dst_mac, pr->peer_mac, 6);
	f.vlan_id = cfg->vlan_id;
	f.proto = cfg->proto;
	f.src_ip = pr->io.ip;
	f.dst_ip = pr->peer_ip;
	f.src_port = (uint16_t)(NB_DEFAULT_SPORT_BASE + cfg->streams);
	f.dst_port = NB_DEFAULT_DPORT;
	f.stream_id = (uint16_t)cfg->streams;
	if (nb_frame_build(frame, sizeof(frame), &f, NB_FRAME_MIN,
			   NB_MAGIC_PROBE, &pj->tmpl) < 0) {
		snprintf(err, errlen, "cannot build a probe frame");
		return -EINVAL;
	}
	for (i = 0; i < app->nb_rxjobs && i < NB_MAX_WORKER_JOBS; i++)
		pj->rx[pj->nb_rx++] = app->rxjobs[i];
	w = queue_owner(app, 0);
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

static int
test_setup(struct peer *pr, const struct nb_ctl_params *p, char *err,
	   size_t errlen)
{
	struct nb_app *app = pr->app;
	unsigned int i;
	int ret;

	params_to_cfg(pr, p);
	ret = nb_plan_jobs(&app->plan, &app->cfg, p->rate_num, p->rate_den,
			   p->packets, err, errlen);
	if (ret != 0)
		return ret;
	for (i = 0; i < app->plan.nb_tx_jobs; i++) {
		struct nb_pacer tmp;
		const struct nb_job *j = &app->plan.jobs[i];

		if (j->rate_num != 0 &&
		    nb_pacer_init(&tmp, rte_get_tsc_hz(), j->rate_num,
				  j->rate_den, 0) != 0) {
			snprintf(err, errlen,
				 "rate %llu/%llu pps cannot be "
				 "paced here",
				 (unsigned long long)p->rate_num,
				 (unsigned long long)p->rate_den);
			return -EINVAL;
		}
	}
	nb_result_free(&app->result);
	if (nb_result_init(&app->result, &app->cfg, app->cfg.streams) != 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	app->result.tsc_hz = rte_get_tsc_hz();
	app->result.topology = "peer";
	app->result.latency_method = "one-way, assumes a clock shared "
				     "with the sender (same host)";
	app->result.nb_ports = 1;
	app->result.ports[0].desc = app->ports[0].desc;
	app->result.ports[0].role =
		app->cfg.nb_tx_ports || (pr->client && p->latency_rate)
			? "tx+rx"
			: "rx";
	ret = nb_loopback_setup(app, err, errlen);
	if (ret != 0) {
		nb_loopback_free(app);
		return ret;
	}
	for (i = 0; i < app->nb_rxjobs; i++)
		app->rxjobs[i]->ctl_ring = pr->io.rings[app->rxjobs[i]->queue];
	ret = probes_setup(pr, p, err, errlen);
	if (ret != 0) {
		nb_loopback_free(app);
		return ret;
	}
	app->run.tx_stop = 0;
	app->run.rx_stop = 0;
	app->run.rx_offset_ns = 0;
	app->run.start_tsc = UINT64_MAX;
	/*
	 * Reset the PMD counters before the workers poll: a reset racing a
	 * worker's own counter update could be lost.
	 */
	nb_port_stats_reset(app->port_ids[0]);
	pr->ctl_tx0 = pr->io.tx_frames;
	pr->ctl_rx0 = pr->io.rx_polled;
	rte_wmb();
	/* from here the workers own the RX queues */
	pr->io.workers_own_rx = 1;
	if (nb_workers_launch(app) != 0) {
		pr->io.workers_own_rx = 0;
		nb_loopback_free(app);
		snprintf(err, errlen, "cannot launch workers");
		return -EIO;
	}
	pr->test_ready = 1;
	return 0;
}

static void
test_arm(struct peer *pr, uint64_t delay_ns)
{
	struct nb_app *app = pr->app;
	uint64_t hz = rte_get_tsc_hz();

	(void)pr;
	/*
	 * No interval lines in peer mode yet: the receiving side's counters
	 * are the responder's, which it reports only at the end.
	 */
	nb_run_arm(app, rte_get_tsc_cycles() + delay_ns * hz / 1000000000ULL);
}

/*
 * Stop senders, let receivers drain (until idle 50 ms or --drain), stop
 * the workers and collect.  Control frames wait in the hand-off rings
 * meanwhile: this runs inside message handling and must not re-enter it.
 */
static void
test_stop(struct peer *pr)
{
	struct nb_app *app = pr->app;
	uint64_t hz = rte_get_tsc_hz(), end, idle, last = 0, rx;
	struct nb_port_result *port = &app->result.ports[0];

	if (!pr->test_ready)
		return;
	app->run.tx_stop = 1;
	while (!nb_all_tx_done(app))
		nap();
	end = rte_get_tsc_cycles() + (uint64_t)(app->cfg.drain * hz);
	idle = rte_get_tsc_cycles();
	for (;;) {
		uint64_t now = rte_get_tsc_cycles();

		rx = nb_rx_data_total(app);
		if (now >= end)
			break;
		if (rx != last) {
			last = rx;
			idle = now;
		} else if (now - idle > hz / 20) {
			break;
		}
		nap();
	}
	app->run.rx_stop = 1;
	app->stats_stop = 1;
	rte_eal_mp_wait_lcore();
	pr->io.workers_own_rx = 0;
	nb_collect_final(app);
	/* the port also carried control frames: count them as ours */
	port->tool_tx_pkts += pr->io.tx_frames - pr->ctl_tx0;
	if (app->probe != NULL)
		port->tool_tx_pkts += app->probe->sent;
	port->tool_rx_pkts += pr->io.rx_polled - pr->ctl_rx0;
	pr->test_ready = 0;
}

static void
test_free(struct peer *pr)
{
	if (pr->test_ready)
		test_stop(pr);
	nb_loopback_free(pr->app);
	free(pr->blob);
	pr->blob = NULL;
	pr->blob_len = 0;
}

/* The receiver's and sender's counters of this side, as a results blob. */
static int
build_blob(struct peer *pr)
{
	const struct nb_result *r = &pr->app->result;
	struct nb_ctl_results_hdr h;
	struct nb_ctl_stream_res *s;
	uint32_t i;
	int n;

	s = calloc(r->nb_streams ? r->nb_streams : 1, sizeof(*s));
	if (s == NULL)
		return -ENOMEM;
	memset(&h, 0, sizeof(h));
	h.tx_seconds_ns = (uint64_t)(r->tx_seconds * 1e9);
	h.rx_seconds_ns = (uint64_t)(r->rx_seconds * 1e9);
	h.rx_foreign = r->rx_foreign;
	h.rx_warm = r->rx_warm;
	h.rx_bad_stream = r->rx_bad_stream;
	h.tx_dropped = r->tx_dropped;
	h.pmd = r->ports[0].pmd;
	for (i = 0; i < r->nb_streams; i++) {
		const struct nb_stream_result *x = &r->streams[i];

		s[i].id = x->id;
		s[i].tx_pkts = x->tx_pkts;
		s[i].tx_bytes = x->tx_bytes;
		s[i].rx_pkts = x->rx_pkts;
		s[i].rx_unique = x->rx_unique;
		s[i].rx_bytes = x->rx_bytes;
		s[i].out_of_order = x->out_of_order;
		s[i].duplicates = x->duplicates;
		s[i].late = x->late;
		s[i].jitter_ps = (uint64_t)(x->jitter_ns * 1000.0);
		s[i].hist = x->hist;
	}
	pr->blob_len = nb_ctl_results_size(s, r->nb_streams);
	pr->blob = malloc(pr->blob_len);
	n = pr->blob == NULL ? -ENOMEM
			     : nb_ctl_results_write(&h, s, r->nb_streams,
						    pr->blob, pr->blob_len);
	free(s);
	return n < 0 ? n : 0;
}

/* --- responder ---------------------------------------------------------- */

static int
check_params(struct peer *pr, const struct nb_ctl_params *p, char *why,
	     size_t len)
{
	const struct nb_app *app = pr->app;
	uint16_t i;

	for (i = 0; i < p->nb_sizes; i++) {
		if (p->sizes[i] > app->ports[0].desc.mtu + 18 +
					  (p->vlan_id ? 4 : 0) &&
		    p->sizes[i] > 1518 + (p->vlan_id ? 4 : 0)) {
			snprintf(why, len,
				 "frame size %u exceeds the responder port's "
				 "MTU %u (start the responder with --size %u)",
				 p->sizes[i], app->ports[0].desc.mtu,
				 p->sizes[i]);
			return -EINVAL;
		}
	}
	if (p->streams > app->cfg.max_streams) {
		snprintf(why, len,
			 "%u streams asked for, this responder takes at most "
			 "%u (--max-streams)",
			 p->streams, app->cfg.max_streams);
		return -EINVAL;
	}
	return 0;
}

static void
responder_end_session(struct peer *pr, const char *why)
{
	if (why != NULL)
		fprintf(stderr, "dpdk-nbench: session %08x ended: %s\n",
			pr->session, why);
	test_free(pr);
	if (pr->app->cfg.one_off)
		pr->quit = 1;
	pr->state = R_IDLE;
	pr->session = 0;
	nap_short = 0;
	nb_link_reset(&pr->link);
}

static void
responder_msg(struct peer *pr, const struct nb_udp_info *u,
	      struct nb_ctl_msg *m)
{
	struct nb_ctl_msg r;
	char why[128];

	if (pr->state != R_IDLE && m->session != pr->session) {
		/* Another client while a test is set up: BUSY. */
		if (m->type == NB_CTL_HELLO) {
			nb_ctl_msg_init(&r, NB_CTL_BUSY, m->session);
			r.seq = 1;
			r.u.busy.active_session = pr->session;
			snprintf(r.u.busy.reason, sizeof(r.u.busy.reason),
				 "busy with a test for another client");
			send_raw(pr, &r, u->src_mac, u->src_ip);
			fprintf(stderr,
				"dpdk-nbench: busy: refused another client "
				"(%08x)\n",
				m->session);
		}
		return;
	}
	if (pr->state == R_IDLE) {
		/* Everything, QUIT included, starts with a HELLO. */
		if (m->type != NB_CTL_HELLO)
			return;
		/* A new session. */
		nb_link_reset(&pr->link);
		pr->session = m->session;
		memcpy(pr->peer_mac, u->src_mac, 6);
		pr->peer_ip = u->src_ip;
		pr->state = R_SESSION;
		nap_short = 1;
	}
	if (!accept_msg(pr, u, m))
		return;
	switch (m->type) {
	case NB_CTL_HELLO:
		pr->theirs = m->u.conf;
		fprintf(stderr,
			"dpdk-nbench: session %08x opened: client %s "
			"(%u.%u.%u.%u)\n",
			m->session, m->u.conf.host, u->src_ip >> 24,
			(u->src_ip >> 16) & 255, (u->src_ip >> 8) & 255,
			u->src_ip & 255);
		nb_ctl_msg_init(&r, NB_CTL_WELCOME, pr->session);
		r.u.conf = pr->mine;
		link_send(pr, &r);
		break;
	case NB_CTL_PARAMS:
		if (pr->state != R_SESSION || pr->test_ready)
			break;
		pr->params = m->u.params;
		if (check_params(pr, &m->u.params, why, sizeof(why)) != 0 ||
		    test_setup(pr, &m->u.params, why, sizeof(why)) != 0) {
			nb_ctl_msg_init(&r, NB_CTL_REJECT, pr->session);
			r.u.reject.code = NB_CTL_CODE_PARAMS;
			copy_str(r.u.reject.reason, sizeof(r.u.reject.reason),
				 why);
			fprintf(stderr, "dpdk-nbench: rejected the test: %s\n",
				why);
			link_send(pr, &r);
			break;
		}
		nb_ctl_msg_init(&r, NB_CTL_ACCEPT, pr->session);
		r.u.accept.rx_queues = pr->app->cfg.queues;
		link_send(pr, &r);
		break;
	case NB_CTL_START:
		if (pr->state != R_SESSION || !pr->test_ready)
			break;
		pr->app->run.rx_offset_ns = m->u.start.rx_offset_ns;
		test_arm(pr, (uint64_t)m->u.start.delay_ms * MS);
		nap_short = 0; /* the test runs: leave the CPU to workers */
		pr->state = R_ARMED;
		break;
	case NB_CTL_KEEPALIVE: {
		/* Echo the client's time with ours: its clock offset. */
		uint64_t t2 = now_ns(pr);

		nb_ctl_msg_init(&r, NB_CTL_KEEPALIVE, pr->session);
		r.seq = 1;
		r.u.ka.echo_ns = m->u.ka.sender_ns;
		r.u.ka.sender_ns = now_ns(pr);
		r.u.ka.echo_delay_ns = r.u.ka.sender_ns - t2;
		if (r.u.ka.echo_ns == 0)
			r.u.ka.echo_delay_ns = 0;
		send_raw(pr, &r, pr->peer_mac, pr->peer_ip);
		break;
	}
	case NB_CTL_STOP:
		if (pr->state != R_ARMED)
			break;
		test_stop(pr);
		if (build_blob(pr) != 0)
			fprintf(stderr, "dpdk-nbench: cannot build results\n");
		pr->state = R_STOPPED;
		break;
	case NB_CTL_RESULTS_REQ:
		if (pr->state != R_STOPPED || pr->blob == NULL)
			break;
		nb_ctl_msg_init(&r, NB_CTL_RESULTS, pr->session);
		if (nb_ctl_results_chunk(&r, pr->blob, pr->blob_len,
					 m->u.rreq.part) == 0)
			link_send(pr, &r);
		break;
	case NB_CTL_DONE:
		responder_end_session(pr, "done");
		break;
	case NB_CTL_QUIT:
		responder_end_session(pr, "the client asked us to quit");
		pr->quit = 1;
		break;
	default:
		break;
	}
}

static void
on_msg(void *ctx, const struct nb_udp_info *u)
{
	struct peer *pr = ctx;
	struct nb_ctl_msg m;

	if (decode(pr, u, &m) != 0)
		return;
	if (!pr->client) {
		responder_msg(pr, u, &m);
		return;
	}
	/* client: only our session (BUSY and ERROR may carry another, but
	 * only from the address we talk to) */
	if (m.type == NB_CTL_BUSY || m.type == NB_CTL_ERROR) {
		if (m.session != pr->session && u->src_ip != pr->peer_ip)
			return;
		pr->inbox = m;
		pr->inbox_full = 1;
		return;
	}
	if (m.session != pr->session)
		return;
	if (m.type == NB_CTL_KEEPALIVE) {
		/* the responder's echo (unacknowledged): a clock sample */
		uint64_t t4 = now_ns(pr);

		if (m.u.ka.echo_ns != 0)
			nb_offset_sample(&pr->off, m.u.ka.echo_ns,
					 m.u.ka.sender_ns -
						 m.u.ka.echo_delay_ns,
					 m.u.ka.sender_ns, t4);
		return;
	}
	if (!accept_msg(pr, u, &m))
		return;
	if (memcmp(u->src_mac, pr->peer_mac, 6) != 0) {
		/* The frames reached it anyway (flooding, a virtual link):
		 * say so, and address the responder by its real MAC. */
		fprintf(stderr,
			"dpdk-nbench: warning: the responder answers from "
			"%02x:%02x:%02x:%02x:%02x:%02x, not the --peer MAC; "
			"using its address\n",
			u->src_mac[0], u->src_mac[1], u->src_mac[2],
			u->src_mac[3], u->src_mac[4], u->src_mac[5]);
		memcpy(pr->peer_mac, u->src_mac, 6);
	}
	pr->inbox = m;
	pr->inbox_full = 1;
}

static int
peer_bring_up(struct nb_app *app, struct peer *pr, uint32_t ip)
{
	struct nb_config *cfg = &app->cfg;
	struct nb_port_req req;
	uint32_t max_frame = 1518;
	char err[320];
	uint16_t i;

	for (i = 0; i < cfg->sizes.nb_sizes; i++)
		if (cfg->sizes.sizes[i] > max_frame)
			max_frame = cfg->sizes.sizes[i];
	if (!rte_eth_dev_is_valid_port(cfg->port)) {
		nb_app_error(app, "port %u does not exist (see --list-ports)",
			     cfg->port);
		return 2;
	}
	memset(&req, 0, sizeof(req));
	/*
	 * One more queue each way than the workers' senders use: the last
	 * TX queue is the control lcore's own, and the last RX queue faces
	 * the peer's (virtual links such as memif pair queue i with queue i).
	 * Receivers poll every RX queue; control frames reach the control
	 * lcore through their hand-off rings.
	 */
	cfg->extra_rxq = 1;
	req.nb_rxq = (uint16_t)(cfg->queues + 1);
	req.nb_txq = (uint16_t)(cfg->queues + 1);
	req.rxd = (uint16_t)cfg->rxd;
	req.txd = (uint16_t)cfg->txd;
	req.max_frame = max_frame;
	/* every ring full, plus per-lcore caches, plus bursts in hand */
	req.nb_rx_mbufs =
		cfg->rxd * req.nb_rxq + 512 * rte_lcore_count() + 4096;
	app->nb_ports = 1;
	app->port_ids[0] = cfg->port;
	if (nb_port_setup(cfg->port, &req, &app->ports[0], err, sizeof(err)) !=
	    0) {
		nb_app_error(app, "%s", err);
		return 1;
	}
	/* A responder waits for clients, link or no link. */
	if (pr->client &&
	    nb_port_wait_link(&app->ports[0], cfg->link_timeout) != 0) {
		nb_app_error(app,
			     "port %u: link still down after %.1f s (cable, "
			     "switch, or the responder's end missing? raise "
			     "--link-timeout)",
			     cfg->port, cfg->link_timeout);
		return 1;
	}
	/* describe() after the link wait knows nothing of our queues */
	app->ports[0].desc.nb_rxq = req.nb_rxq;
	app->ports[0].desc.nb_txq = req.nb_txq;
	app->keep_pools = 1;
	nb_clock_init(&app->run.clock, rte_get_tsc_hz(), 0);
	if (nb_ctlio_init(&pr->io, cfg->port, req.nb_rxq, req.nb_txq - 1,
			  app->ports[0].desc.mac, ip, cfg->vlan_id) != 0) {
		nb_app_error(app, "cannot set up control I/O (hugepage "
				  "memory?)");
		return 1;
	}
	pr->io.on_msg = on_msg;
	pr->io.ctx = pr;
	nb_link_init(&pr->link, RTO_MIN_NS, RTO_MAX_NS, pr->timeout_ns);
	fill_conf(pr);
	return 0;
}

int
nb_peer_responder(struct nb_app *app)
{
	static struct peer pr;
	const uint8_t *mac;
	int ret;

	memset(&pr, 0, sizeof(pr));
	pr.app = app;
	pr.timeout_ns = (uint64_t)(app->cfg.peer_timeout * 1e9);
	ret = peer_bring_up(app, &pr,
			    app->cfg.have_ip ? app->cfg.ip : NB_DEFAULT_DST_IP);
	if (ret != 0)
		return ret;
	mac = app->ports[0].desc.mac;
	printf("dpdk-nbench responder on port %u (%s) mac "
	       "%02x:%02x:%02x:%02x:%02x:%02x ip %u.%u.%u.%u, control UDP "
	       "port %d\n",
	       app->cfg.port, app->ports[0].desc.name, mac[0], mac[1], mac[2],
	       mac[3], mac[4], mac[5], pr.io.ip >> 24, (pr.io.ip >> 16) & 255,
	       (pr.io.ip >> 8) & 255, pr.io.ip & 255, NB_CONTROL_UDP_PORT);
	fflush(stdout);
	app->state = "listening";
	while (!pr.quit && !nb_force_quit) {
		nb_ctlio_poll(&pr.io);
		if (pr.state != R_IDLE) {
			if (link_service(&pr) != 0 ||
			    now_ns(&pr) - pr.last_heard > pr.timeout_ns)
				responder_end_session(&pr,
						      "the client vanished");
		}
		nap();
	}
	if (pr.state != R_IDLE) {
		/* Tell the client at once rather than let it time out. */
		struct nb_ctl_msg e;

		nb_ctl_msg_init(&e, NB_CTL_ERROR, pr.session);
		e.seq = pr.link.next_seq;
		e.u.error.code = NB_CTL_CODE_INTERNAL;
		snprintf(e.u.error.reason, sizeof(e.u.error.reason),
			 "the responder was interrupted");
		send_raw(&pr, &e, pr.peer_mac, pr.peer_ip);
		responder_end_session(&pr, "interrupted");
	}
	nb_ctlio_free(&pr.io);
	printf("dpdk-nbench responder: exiting\n");
	return 0;
}

/* --- client ------------------------------------------------------------- */

/* Wait for a new message of type want (or BUSY/ERROR/REJECT). */
static int
client_wait(struct peer *pr, uint8_t want, struct nb_ctl_msg *out)
{
	uint64_t deadline = now_ns(pr) + pr->timeout_ns;

	for (;;) {
		nb_ctlio_poll(&pr->io);
		if (pr->inbox_full) {
			pr->inbox_full = 0;
			if (pr->inbox.type == want ||
			    pr->inbox.type == NB_CTL_BUSY ||
			    pr->inbox.type == NB_CTL_ERROR ||
			    pr->inbox.type == NB_CTL_REJECT) {
				*out = pr->inbox;
				return 0;
			}
		}
		if (link_service(pr) != 0)
			return -ETIMEDOUT;
		if (!pr->link.pending && now_ns(pr) > deadline)
			return -ETIMEDOUT;
		/* Ctrl-C aborts a wait, except once the test is stopping:
		 * then the results are still worth fetching */
		if (nb_force_quit && !pr->stopping)
			return -EINTR;
		nap();
	}
}

/* Wait until our last message is acknowledged. */
static int
client_flush(struct peer *pr)
{
	while (pr->link.pending) {
		nb_ctlio_poll(&pr->io);
		if (pr->inbox_full && pr->inbox.type == NB_CTL_ERROR)
			return -ECONNRESET;
		if (link_service(pr) != 0)
			return -ETIMEDOUT;
		nap();
	}
	return 0;
}

static void
print_conf(const char *who, const struct nb_ctl_conf *c)
{
	printf("%s:\n  node %s\n  cpu %s\n  os %s\n  dpdk-nbench %s, %s\n"
	       "  driver %s, link %u Mbps, numa %d\n  queues rx %u tx %u, "
	       "workers %u\n  mac %02x:%02x:%02x:%02x:%02x:%02x ip "
	       "%u.%u.%u.%u\n",
	       who, c->host, c->cpu, c->os, c->tool_version, c->dpdk_version,
	       c->driver, c->link_speed_mbps, c->numa_node, c->nb_rxq,
	       c->nb_txq, c->nb_workers, c->mac[0], c->mac[1], c->mac[2],
	       c->mac[3], c->mac[4], c->mac[5], c->ipv4 >> 24,
	       (c->ipv4 >> 16) & 255, (c->ipv4 >> 8) & 255, c->ipv4 & 255);
}

static void
conf_json(json_t *o, const char *key, const struct nb_ctl_conf *c)
{
	char mac[18];

	snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", c->mac[0],
		 c->mac[1], c->mac[2], c->mac[3], c->mac[4], c->mac[5]);
	json_object_set_new(
		o, key,
		json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:i,s:i,s:i,s:i,s:i,s:s}",
			  "host", c->host, "cpu", c->cpu, "os", c->os,
			  "version", c->tool_version, "dpdk", c->dpdk_version,
			  "driver", c->driver, "link_speed_mbps",
			  (int)c->link_speed_mbps, "numa_node",
			  (int)c->numa_node, "rx_queues", (int)c->nb_rxq,
			  "tx_queues", (int)c->nb_txq, "workers",
			  (int)c->nb_workers, "mac", mac));
}

static int
fail(struct peer *pr, int code, const char *fmt, const char *arg)
{
	struct nb_result *r = &pr->app->result;
	char msg[sizeof(r->error)];

	snprintf(msg, sizeof(msg), fmt, arg);
	memcpy(r->error, msg, sizeof(msg));
	fprintf(stderr, "dpdk-nbench: %s\n", r->error);
	return code;
}

static int
fetch_results(struct peer *pr, struct nb_ctl_results_hdr *h,
	      struct nb_ctl_stream_res *s, uint32_t *n)
{
	struct nb_ctl_msg m;
	uint8_t *blob = NULL;
	uint32_t part = 0, parts = 1, total = 0;
	int ret;

	do {
		nb_ctl_msg_init(&m, NB_CTL_RESULTS_REQ, pr->session);
		m.u.rreq.part = part;
		if (link_send(pr, &m) != 0 ||
		    client_wait(pr, NB_CTL_RESULTS, &m) != 0 ||
		    m.type != NB_CTL_RESULTS || m.u.res.part != part) {
			free(blob);
			return -ETIMEDOUT;
		}
		if (blob == NULL) {
			parts = m.u.res.nb_parts;
			total = m.u.res.total_len;
			/* no more than our streams' worth of results */
			if (total > NB_CTL_RESULTS_HDR_LEN +
					    (size_t)pr->app->cfg.streams *
						    (NB_CTL_STREAM_RES_LEN +
						     10u * NB_HIST_BUCKETS))
				return -EPROTO;
			blob = malloc(total ? total : 1);
			if (blob == NULL)
				return -ENOMEM;
		}
		if (nb_ctl_results_put(blob, total, &m.u.res) != 0) {
			free(blob);
			return -EPROTO;
		}
	} while (++part < parts);
	ret = nb_ctl_results_read(blob, total, h, s, pr->app->cfg.streams, n);
	free(blob);
	return ret;
}

/* Combine our side's counters with the responder's into r (per side). */
static void
merge(struct nb_result *r, const struct nb_result *own,
      const struct nb_ctl_results_hdr *h, const struct nb_ctl_stream_res *s,
      uint32_t n, int we_send)
{
	uint32_t i;

	for (i = 0; i < r->nb_streams && i < n; i++) {
		struct nb_stream_result *o = &r->streams[i];
		const struct nb_stream_result *me = &own->streams[i];

		if (we_send) {
			o->tx_pkts = me->tx_pkts;
			o->tx_bytes = me->tx_bytes;
			o->rx_pkts = s[i].rx_pkts;
			o->rx_unique = s[i].rx_unique;
			o->rx_bytes = s[i].rx_bytes;
			o->out_of_order = s[i].out_of_order;
			o->duplicates = s[i].duplicates;
			o->late = s[i].late;
			o->jitter_ns = s[i].jitter_ps / 1000.0;
			o->hist = s[i].hist;
		} else {
			o->tx_pkts = s[i].tx_pkts;
			o->tx_bytes = s[i].tx_bytes;
			o->rx_pkts = me->rx_pkts;
			o->rx_unique = me->rx_unique;
			o->rx_bytes = me->rx_bytes;
			o->out_of_order = me->out_of_order;
			o->duplicates = me->duplicates;
			o->late = me->late;
			o->jitter_ns = me->jitter_ns;
			o->hist = me->hist;
		}
	}
	if (we_send) {
		r->tx_seconds = own->tx_seconds;
		r->rx_seconds = h->rx_seconds_ns / 1e9;
		r->tx_dropped = own->tx_dropped;
		r->rx_foreign = h->rx_foreign;
		r->rx_warm = h->rx_warm;
		r->rx_bad_stream = h->rx_bad_stream;
	} else {
		r->tx_seconds = h->tx_seconds_ns / 1e9;
		r->rx_seconds = own->rx_seconds;
		r->tx_dropped = h->tx_dropped;
		r->rx_foreign = own->rx_foreign;
		r->rx_warm = own->rx_warm;
		r->rx_bad_stream = own->rx_bad_stream;
	}
	if (r->rx_seconds < r->tx_seconds)
		r->rx_seconds = r->tx_seconds;
	r->nb_ports = 2;
	r->ports[0] = own->ports[0];
	memset(&r->ports[1], 0, sizeof(r->ports[1]));
	r->ports[1].desc.port_id = own->cfg->port;
	snprintf(r->ports[1].desc.name, sizeof(r->ports[1].desc.name),
		 "responder");
	r->ports[1].role = "peer";
	r->ports[1].pmd = h->pmd;
	nb_result_finish(r);
}

/* One direction's report, described like ours (r is filled by merge()). */
static void
side_init(struct nb_result *r, const struct nb_result *own, const char *method)
{
	nb_result_init(r, own->cfg, own->nb_streams);
	r->tsc_hz = own->tsc_hz;
	r->topology = "peer";
	r->latency_method = method;
	r->interrupted = own->interrupted;
	r->req_pps = own->req_pps;
	r->req_l1_bps = own->req_l1_bps;
	r->req_l2_bps = own->req_l2_bps;
	snprintf(r->lcore_map, sizeof(r->lcore_map), "%s", own->lcore_map);
	r->start_time = own->start_time;
}

static void
print_result(struct nb_app *app, struct nb_result *r, const char *title,
	     const char *direction, json_t **doc)
{
	if (app->out.kind == NB_OUT_JSON ||
	    app->out.kind == NB_OUT_JSON_STREAM || app->out.json_file != NULL)
		*doc = nb_report_json(r);
	nb_out_result(&app->out, r, title, direction);
}

static int
emit_json(struct nb_app *app, json_t *doc)
{
	app->emitted = 1;
	if (nb_out_finish(&app->out, doc) != 0) {
		nb_app_error(app, "cannot write --json-file %s",
			     app->cfg.json_file);
		return -1;
	}
	return 0;
}

/* Our own counters only, when the responder could not give its own. */
static int
client_partial(struct peer *pr, const char *why)
{
	struct nb_app *app = pr->app;
	json_t *doc = NULL;
	char buf[256];

	if (pr->inbox_full && pr->inbox.type == NB_CTL_ERROR) {
		snprintf(buf, sizeof(buf), "the responder ended the test: %s",
			 pr->inbox.u.error.reason);
		why = buf;
	}

	test_stop(pr);
	{
		/* let a responder that is still there end the session now */
		struct nb_ctl_msg d;

		nb_ctl_msg_init(&d, NB_CTL_DONE, pr->session);
		d.seq = pr->link.next_seq;
		send_raw(pr, &d, pr->peer_mac, pr->peer_ip);
	}
	nb_result_finish(&app->result);
	snprintf(app->result.error, sizeof(app->result.error), "%s", why);
	fprintf(stderr,
		"dpdk-nbench: %s; partial results (this side's "
		"counters only) follow\n",
		why);
	print_result(app, &app->result, "partial results:", "partial", &doc);
	if (doc != NULL)
		emit_json(app, doc);
	app->emitted = 1;
	return 1;
}

static int
client_error_json(struct nb_app *app)
{
	nb_out_fatal(&app->out, app->result.error);
	app->emitted = 1;
	return 1;
}

static void
on_arp(void *ctx, const uint8_t *frame, uint32_t len)
{
	struct peer *pr = ctx;
	uint8_t mac[6];

	if (!pr->arp_done &&
	    nb_arp_sender_is(frame, len, pr->peer_ip, mac) == 1) {
		memcpy(pr->peer_mac, mac, 6);
		pr->arp_done = 1;
	}
}

/* --peer IP: ask by ARP (every 200 ms) until answered or timed out. */
static int
resolve_peer(struct peer *pr)
{
	uint64_t deadline = now_ns(pr) + pr->timeout_ns, next = 0;
	uint8_t frame[64];
	int n = nb_arp_request(frame, sizeof(frame), pr->io.mac, pr->io.ip,
			       pr->io.vlan_id, pr->peer_ip);

	if (n < 0)
		return n;
	pr->io.on_arp = on_arp;
	while (!pr->arp_done) {
		if (now_ns(pr) >= next) {
			nb_ctlio_send_frame(&pr->io, frame, (uint16_t)n);
			next = now_ns(pr) + 200 * MS;
		}
		nb_ctlio_poll(&pr->io);
		if (now_ns(pr) > deadline || nb_force_quit)
			return -ETIMEDOUT;
		nap();
	}
	return 0;
}

static void
fill_params(struct peer *pr, struct nb_ctl_params *p)
{
	struct nb_app *app = pr->app;
	const struct nb_config *cfg = &app->cfg;
	uint16_t i;

	memset(p, 0, sizeof(*p));
	p->direction = cfg->bidir     ? NB_CTL_DIR_BIDIR
		       : cfg->reverse ? NB_CTL_DIR_REVERSE
				      : NB_CTL_DIR_FORWARD;
	p->proto = cfg->proto;
	p->vlan_id = cfg->vlan_id;
	p->streams = cfg->streams;
	p->nb_sizes = cfg->sizes.nb_sizes;
	for (i = 0; i < cfg->sizes.nb_sizes; i++)
		p->sizes[i] = cfg->sizes.sizes[i];
	p->nb_pattern = cfg->sizes.nb_pattern;
	memcpy(p->pattern, cfg->sizes.pattern, cfg->sizes.nb_pattern);
	p->rate_num = app->rate.unlimited ? 0 : app->rate.pps_num;
	p->rate_den = app->rate.unlimited ? 1 : app->rate.pps_den;
	p->packets = app->total_packets;
	p->duration_ms = (uint64_t)(cfg->duration * 1000.0 + 0.5);
	p->omit_ms = (uint64_t)(cfg->omit * 1000.0 + 0.5);
	p->client_ip = pr->io.ip;
	p->responder_ip = pr->peer_ip;
	memcpy(p->client_mac, app->ports[0].desc.mac, 6);
	memcpy(p->responder_mac, pr->peer_mac, 6);
	/* nonzero asks the responder to reflect probes */
	p->latency_rate = cfg->pingpong ? 1 : cfg->latency_rate;
	p->sport_base = NB_DEFAULT_SPORT_BASE;
	p->dport = NB_DEFAULT_DPORT;
}

int
nb_peer_client(struct nb_app *app)
{
	static struct peer pr;
	struct nb_config *cfg = &app->cfg;
	struct nb_ctl_results_hdr h;
	struct nb_ctl_stream_res *res = NULL;
	struct nb_ctl_params params;
	struct nb_ctl_msg m;
	uint64_t hz = rte_get_tsc_hz(), next_ka, idle_since = 0, last_rx = 0;
	uint64_t tx_seen = 0, tx_since = 0;
	uint32_t nres = 0;
	int ret, sends, receives, interrupted = 0, announced = 0;
	char why[256];
	json_t *doc = NULL;

	memset(&pr, 0, sizeof(pr));
	pr.app = app;
	pr.client = 1;
	/* the stats lcore does not run in peer mode: no interval lines */
	app->out.intervals = 0;
	app->out.progress = 0;
	nb_offset_init(&pr.off);
	pr.timeout_ns = (uint64_t)(cfg->peer_timeout * 1e9);
	memcpy(pr.peer_mac, cfg->peer_mac, 6);
	pr.peer_ip = cfg->peer_is_ip   ? cfg->peer_ip
		     : cfg->dst_ip_set ? cfg->dst_ip
				       : NB_DEFAULT_DST_IP;
	ret = peer_bring_up(app, &pr, cfg->have_ip ? cfg->ip : cfg->src_ip);
	if (ret != 0)
		return ret;
	if (cfg->peer_is_ip && resolve_peer(&pr) != 0) {
		fail(&pr, 1, "%s",
		     "no ARP answer from the --peer address "
		     "(is a responder there, on this link?)");
		return client_error_json(app);
	}
	ret = nb_rate_resolve(&cfg->rate, &cfg->sizes,
			      (uint64_t)app->ports[0].desc.link_speed * 1000000,
			      &app->rate);
	if (ret != 0) {
		nb_app_error(app, "cannot resolve --rate%s",
			     ret == -ENOTSUP
				     ? ": the port reports no link speed "
				       "for a percentage"
				     : "");
		return 2;
	}
	app->total_packets =
		cfg->bytes ? nb_bytes_to_packets(cfg->bytes, &cfg->sizes)
			   : cfg->packets;
	if ((cfg->packets || cfg->bytes) && !cfg->duration_set)
		cfg->duration = 0;
	pr.session = (uint32_t)rte_rand() | 1;
	nap_short = 1;

	/* HELLO: who are you, and are you free? */
	nb_ctl_msg_init(&m, NB_CTL_HELLO, pr.session);
	m.u.conf = pr.mine;
	if (link_send(&pr, &m) != 0 ||
	    client_wait(&pr, NB_CTL_WELCOME, &m) != 0) {
		char t[200];

		snprintf(t, sizeof(t),
			 "peer %02x:%02x:%02x:%02x:%02x:%02x did not answer "
			 "within %.1f s (is a dpdk-nbench responder running "
			 "there? see --peer-timeout)",
			 pr.peer_mac[0], pr.peer_mac[1], pr.peer_mac[2],
			 pr.peer_mac[3], pr.peer_mac[4], pr.peer_mac[5],
			 cfg->peer_timeout);
		fail(&pr, 1, "%s", t);
		return client_error_json(app);
	}
	if (m.type == NB_CTL_BUSY) {
		fail(&pr, 1, "the responder is busy: %s", m.u.busy.reason);
		return client_error_json(app);
	}
	if (m.type == NB_CTL_ERROR) {
		fail(&pr, 1, "the responder refused: %s", m.u.error.reason);
		return client_error_json(app);
	}
	pr.theirs = m.u.conf;

	if (cfg->quit) {
		nb_ctl_msg_init(&m, NB_CTL_QUIT, pr.session);
		if (link_send(&pr, &m) != 0 || client_flush(&pr) != 0) {
			fail(&pr, 1, "%s",
			     "the responder did not acknowledge "
			     "QUIT");
			return client_error_json(app);
		}
		if (nb_out_chatty(&app->out))
			printf("responder %s told to quit\n", pr.theirs.host);
		nb_ctlio_free(&pr.io);
		return 0;
	}
	if (cfg->conf) {
		if (cfg->json) {
			doc = json_object();
			conf_json(doc, "local", &pr.mine);
			conf_json(doc, "remote", &pr.theirs);
			emit_json(app, doc);
		} else {
			print_conf("local", &pr.mine);
			print_conf("remote", &pr.theirs);
		}
		nb_ctl_msg_init(&m, NB_CTL_DONE, pr.session);
		link_send(&pr, &m);
		client_flush(&pr);
		nb_ctlio_free(&pr.io);
		return 0;
	}

	/* PARAMS -> ACCEPT or REJECT */
	fill_params(&pr, &params);
	nb_ctl_msg_init(&m, NB_CTL_PARAMS, pr.session);
	m.u.params = params;
	if (link_send(&pr, &m) != 0 ||
	    client_wait(&pr, NB_CTL_ACCEPT, &m) != 0) {
		fail(&pr, 1, "%s", "the responder stopped answering");
		return client_error_json(app);
	}
	if (m.type != NB_CTL_ACCEPT) {
		fail(&pr, 1, "the responder rejected the test: %s",
		     m.type == NB_CTL_REJECT ? m.u.reject.reason
					     : m.u.error.reason);
		/* end the session, so the responder serves the next one */
		nb_ctl_msg_init(&m, NB_CTL_DONE, pr.session);
		link_send(&pr, &m);
		client_flush(&pr);
		return client_error_json(app);
	}
	ret = test_setup(&pr, &params, why, sizeof(why));
	if (ret != 0) {
		nb_ctl_msg_init(&m, NB_CTL_DONE, pr.session);
		link_send(&pr, &m);
		client_flush(&pr);
		fail(&pr, 1, "%s", why);
		return client_error_json(app);
	}
	sends = params.direction != NB_CTL_DIR_REVERSE;
	receives = params.direction != NB_CTL_DIR_FORWARD;
	if (!app->rate.unlimited) {
		struct nb_result *r = &app->result;

		r->req_pps = (double)app->rate.pps_num / app->rate.pps_den;
		r->req_l1_bps = nb_rate_l1_bps(r->req_pps, &cfg->sizes);
		r->req_l2_bps = nb_rate_l2_bps(r->req_pps, &cfg->sizes);
	}
	/* A few keepalive rounds first: the responder's clock offset. */
	{
		unsigned int k;

		for (k = 0; k < 8; k++) {
			uint32_t before = pr.off.samples;
			uint64_t until;

			nb_ctl_msg_init(&m, NB_CTL_KEEPALIVE, pr.session);
			m.u.ka.sender_ns = now_ns(&pr);
			if (link_send(&pr, &m) != 0 || client_flush(&pr) != 0)
				return client_partial(&pr, "the responder "
							   "stopped answering");
			until = now_ns(&pr) + 20 * MS;
			while (pr.off.samples == before &&
			       now_ns(&pr) < until) {
				nb_ctlio_poll(&pr.io);
				nap();
			}
		}
	}

	/*
	 * One-way latency is receive time minus send time, each on its own
	 * host's clock.  On one host (same boot id) there is one clock.
	 * Otherwise each receiver moves its receive times onto the sender's
	 * clock with the estimated offset (responder - us): we add it, the
	 * responder subtracts it.
	 */
	{
		int64_t theta = 0;

		if (pr.mine.boot_id[0] != '\0' &&
		    strcmp(pr.mine.boot_id, pr.theirs.boot_id) == 0) {
			snprintf(pr.method, sizeof(pr.method),
				 "one-way, same host (boot ids match): one "
				 "clock; the control exchange put the offset "
				 "at %+.3f us +-%.3f us",
				 pr.off.offset_ns / 1e3, pr.off.bound_ns / 1e3);
		} else if (pr.off.samples) {
			theta = pr.off.offset_ns;
			snprintf(pr.method, sizeof(pr.method),
				 "one-way; the responder's clock offset "
				 "%+.3f us (+-%.3f us, best of %u control "
				 "round trips) corrected: latencies are good "
				 "to that bound",
				 pr.off.offset_ns / 1e3, pr.off.bound_ns / 1e3,
				 pr.off.samples);
		} else {
			snprintf(pr.method, sizeof(pr.method),
				 "one-way; no clock offset measured: assumes "
				 "a shared clock");
		}
		app->run.rx_offset_ns = theta;
		app->result.latency_method = pr.method;
		nb_ctl_msg_init(&m, NB_CTL_START, pr.session);
		m.u.start.rx_offset_ns = -theta;
	}

	nap_short = 0; /* the test runs: leave the CPU to workers */

	/* START at an agreed time: now + the delay, on both sides. */
	m.u.start.delay_ms = START_DELAY_MS;
	if (link_send(&pr, &m) != 0)
		return client_partial(&pr, "the responder stopped answering");
	test_arm(&pr, START_DELAY_MS * MS);
	if (client_flush(&pr) != 0)
		return client_partial(&pr, "the responder stopped answering");

	/* Running: keepalives both prove the responder alive and carry RTT. */
	next_ka = now_ns(&pr) + KEEPALIVE_NS;
	for (;;) {
		uint64_t tsc = rte_get_tsc_cycles();

		nb_ctlio_poll(&pr.io);
		if (link_service(&pr) != 0)
			return client_partial(&pr, "the responder stopped "
						   "answering during the "
						   "test");
		/* say so when the test has started on both ends */
		if (!announced && tsc >= app->run.start_tsc) {
			announced = 1;
			app->result.start_time = (int64_t)time(NULL);
			nb_out_begin(&app->out, &app->result);
			if (nb_out_chatty(&app->out)) {
				printf("Peer test with %s (%u.%u.%u.%u): %s, "
				       "%u stream%s, "
				       "%s\n",
				       pr.theirs.host, pr.theirs.ipv4 >> 24,
				       (pr.theirs.ipv4 >> 16) & 255,
				       (pr.theirs.ipv4 >> 8) & 255,
				       pr.theirs.ipv4 & 255,
				       params.direction == NB_CTL_DIR_BIDIR
					       ? "both ways"
				       : receives
					       ? "responder -> client (reverse)"
					       : "client -> responder",
				       cfg->streams,
				       cfg->streams == 1 ? "" : "s",
				       cfg->proto == NB_IPPROTO_TCP ? "TCP"
								    : "UDP");
				fflush(stdout);
			}
		}
		if (nb_force_quit) {
			interrupted = 1;
			break;
		}
		if (pr.inbox_full && pr.inbox.type == NB_CTL_ERROR) {
			snprintf(why, sizeof(why),
				 "the responder ended the "
				 "test: %s",
				 pr.inbox.u.error.reason);
			return client_partial(&pr, why);
		}
		if (now_ns(&pr) >= next_ka && !pr.link.pending) {
			nb_ctl_msg_init(&m, NB_CTL_KEEPALIVE, pr.session);
			m.u.ka.sender_ns = now_ns(&pr);
			link_send(&pr, &m);
			next_ka = now_ns(&pr) + KEEPALIVE_NS;
		}
		if (cfg->pingpong) {
			/* probes only: for --time */
			if (tsc >= app->run.end_tsc)
				break;
		} else if (!sends || nb_all_tx_done(app)) {
			/* Our senders are done (or we have none).  When the
			 * responder sends too: by time, until the end; by
			 * count, until its frames came, or went quiet for a
			 * second (or never came: the peer timeout after the
			 * start). */
			uint64_t rx = nb_rx_data_total(app);

			if (!receives)
				break;
			if (app->run.end_tsc != UINT64_MAX) {
				if (tsc >= app->run.end_tsc)
					break;
			} else {
				if (rx >= params.packets)
					break;
				if (rx != last_rx) {
					last_rx = rx;
					idle_since = tsc;
				} else if (rx > 0 && tsc - idle_since > hz) {
					break;
				} else if (
					rx == 0 && tsc > app->run.start_tsc &&
					tsc - app->run.start_tsc >
						(uint64_t)(cfg->peer_timeout *
							   hz) +
							hz) {
					break;
				}
			}
		}
		if (sends && nb_tx_stalled(app, tsc, &tx_seen, &tx_since)) {
			fprintf(stderr,
				"dpdk-nbench: the port accepted no "
				"frame for %d s; stopping\n",
				NB_TX_STALL_S);
			break;
		}
		nap();
	}

	/* STOP: the responder stops its senders and drains; so do we. */
	pr.stopping = 1;
	client_flush(&pr);
	nb_ctl_msg_init(&m, NB_CTL_STOP, pr.session);
	if (link_send(&pr, &m) != 0)
		return client_partial(&pr, "the responder stopped answering");
	test_stop(&pr);
	if (client_flush(&pr) != 0)
		return client_partial(&pr, "the responder stopped answering");
	app->result.interrupted = interrupted;

	res = calloc(cfg->streams, sizeof(*res));
	if (res == NULL || fetch_results(&pr, &h, res, &nres) != 0 ||
	    nres != cfg->streams) {
		free(res);
		nb_result_finish(&app->result);
		return client_partial(&pr, "could not fetch the responder's "
					   "results");
	}
	nb_ctl_msg_init(&m, NB_CTL_DONE, pr.session);
	link_send(&pr, &m);
	client_flush(&pr);

	{
		static struct nb_result fwd, rev;
		json_t *rdoc = NULL;

		if (sends) {
			side_init(&fwd, &app->result, pr.method);
			merge(&fwd, &app->result, &h, res, nres, 1);
			if (app->probe != NULL) {
				unsigned int i;

				fwd.probes_sent = app->probe->sent;
				fwd.rtt_method =
					cfg->pingpong
						? "ping-pong, one probe "
						  "outstanding, reflected by "
						  "the "
						  "responder's worker; one "
						  "clock"
						: "probes at --latency-rate "
						  "inside "
						  "the test, reflected by the "
						  "responder's worker; one "
						  "clock";
				for (i = 0; i < app->nb_rxjobs; i++) {
					fwd.probes_returned +=
						app->rxjobs[i]->probes;
					nb_hist_merge(&fwd.rtt,
						      app->rxjobs[i]->rtt);
				}
			}
			print_result(app, &fwd,
				     "client -> responder:", "forward", &doc);
		}
		if (receives) {
			side_init(&rev, &app->result, pr.method);
			merge(&rev, &app->result, &h, res, nres, 0);
			print_result(app, &rev,
				     "responder -> client:", "reverse", &rdoc);
		}
		if (doc != NULL && rdoc != NULL)
			json_object_set_new(doc, "reverse", rdoc);
		else if (rdoc != NULL)
			doc = rdoc;
		if (doc != NULL) {
			json_object_set_new(
				json_object_get(doc, "start"), "direction",
				json_string(sends && receives ? "bidir"
					    : sends	      ? "forward"
							      : "reverse"));
			conf_json(json_object_get(doc, "start"), "remote",
				  &pr.theirs);
			if (emit_json(app, doc) != 0)
				interrupted = 1;
		}
		if (sends)
			nb_result_free(&fwd);
		if (receives)
			nb_result_free(&rev);
	}
	free(res);
	test_free(&pr);
	nb_ctlio_free(&pr.io);
	return interrupted ? 1 : 0;
}
