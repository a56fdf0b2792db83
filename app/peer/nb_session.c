/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Session plumbing for both ends of a peer test: port and control I/O
 * bring-up, sending (once, or reliably through nb_link), decoding and the
 * common acceptance of what arrives.  Control messages (nb_ctl) ride in
 * UDP datagrams on the test port; a new message from the peer also
 * acknowledges ours (the peer only sends it after reading our last one).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <rte_version.h>

#include "nb_frame.h"
#include "nb_l2_v6.h"
#include "nb_log.h"
#include "nb_run.h"
#include "nb_seam.h"
#include "nb_session.h"
#include "nb_setup.h"
#include "nb_tsc.h"
#include "nb_version.h"

#define RTO_MIN_NS (20 * NB_MS)
#define RTO_MAX_NS (400 * NB_MS)

uint64_t
nb_peer_now(const struct nb_peer *pr)
{
	return nb_clock_ns(&pr->app->run.clock, nb_glue_tsc());
}

void
nb_peer_nap(const struct nb_peer *pr)
{
	/* the clock-offset samples are only this late while a test is set
	 * up; during the test the CPU is left to the workers */
	nb_glue_nap_us(pr->nap_short ? 50 : 500);
}

static void
read_line(const char *path, const char *key, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[256];
	size_t klen = key != NULL ? strlen(key) : 0;

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v = line;

		if (key != NULL) {
			if (strncmp(line, key, klen) != 0 ||
			    (v = strchr(line, ':')) == NULL)
				continue;
			for (v++; *v == ' '; v++)
				;
		}
		klen = strcspn(v, "\n");
		if (klen >= len)
			klen = len - 1;
		memcpy(buf, v, klen);
		buf[klen] = '\0';
		break;
	}
	fclose(f);
}

static void
fill_conf(struct nb_peer *pr)
{
	struct nb_app *app = pr->app;
	const struct nb_port_desc *d = &app->ports[0].desc;
	struct nb_ctl_conf *c = &pr->mine;
	struct utsname u;

	memset(c, 0, sizeof(*c));
	snprintf(c->tool_version, sizeof(c->tool_version), "%s", NB_VERSION);
	snprintf(c->dpdk_version, sizeof(c->dpdk_version), "%s", rte_version());
	if (gethostname(c->host, sizeof(c->host) - 1) != 0)
		snprintf(c->host, sizeof(c->host), "unknown");
	c->host[sizeof(c->host) - 1] = '\0';
	snprintf(c->cpu, sizeof(c->cpu), "unknown");
	read_line("/proc/cpuinfo", "model name", c->cpu, sizeof(c->cpu));
	if (uname(&u) == 0)
		snprintf(c->os, sizeof(c->os), "%.20s %.40s", u.sysname,
			 u.release);
	snprintf(c->driver, sizeof(c->driver), "%s", d->driver);
	c->link_speed_mbps = d->link_speed;
	c->nb_ports = app->nb_ports;
	c->nb_rxq = d->nb_rxq;
	c->nb_txq = d->nb_txq;
	c->nb_workers = (uint16_t)app->plan.nb_workers;
	c->numa_node = (int16_t)(d->numa_node < -1 ? -1 : d->numa_node);
	memcpy(c->mac, d->mac, 6);
	c->ipv4 = pr->io->ip;
	read_line("/proc/sys/kernel/random/boot_id", NULL, c->boot_id,
		  sizeof(c->boot_id));
	/* the ports this end brings to a mesh across hosts (a client's
	 * --ports, a responder's --mesh-ports): every port set up */
	if (app->cfg.nb_serve_ports || app->cfg.mesh.nb_local) {
		uint16_t i;

		c->offer.n = (uint8_t)app->nb_ports;
		for (i = 0; i < app->nb_ports; i++) {
			c->offer.port[i].id = app->port_ids[i];
			memcpy(c->offer.port[i].mac, app->ports[i].desc.mac, 6);
			c->offer.speed_mbps[i] = app->ports[i].desc.link_speed;
		}
	}
	c->tsc_hz = nb_tsc_info()->hz;
	if (nb_tsc_info()->reference != NULL) {
		double ppb = nb_tsc_info()->bound_ppm * 1000.0 + 0.5;

		c->tsc_bound_ppb = ppb < 1     ? 1
				   : ppb > 4e9 ? 4000000000u
					       : (uint32_t)ppb;
	}
}

int
nb_peer_send_raw(struct nb_peer *pr, struct nb_ctl_msg *m, const uint8_t mac[6],
		 uint32_t ip, const uint8_t *ip6, const struct nb_auth *a)
{
	uint8_t buf[NB_CTL_MAX_LEN];
	int n;

	m->tagged = a != NULL;
	n = nb_ctl_encode(m, buf, sizeof(buf));
	if (n < 0)
		return n;
	if (a != NULL)
		nb_auth_sign(a, buf, (size_t)n);
	return nb_ctlio_send_msg(pr->io, mac, ip, ip6, buf, (uint16_t)n);
}

int
nb_peer_service(struct nb_peer *pr)
{
	const uint8_t *buf;
	size_t len;

	/* SIGINT/SIGTERM: what is pending gets NB_PEER_QUIT_GRACE_NS more
	 * (a stopping client still fetches the results), then every wait
	 * ends as if the far end had stopped answering */
	if (nb_force_quit) {
		uint64_t now = nb_peer_now(pr);

		if (pr->quit_by == 0)
			pr->quit_by = now + NB_PEER_QUIT_GRACE_NS;
		else if (now > pr->quit_by)
			return -ETIMEDOUT;
	}
	switch (nb_link_poll(&pr->link, nb_peer_now(pr), &buf, &len)) {
	case NB_LINK_TRANSMIT:
		nb_ctlio_send_msg(pr->io, pr->peer_mac, pr->peer_ip,
				  pr->peer_ip6, buf, (uint16_t)len);
		return 0;
	case NB_LINK_TIMEOUT:
		return -ETIMEDOUT;
	default:
		return 0;
	}
}

int
nb_peer_send(struct nb_peer *pr, struct nb_ctl_msg *m)
{
	int ret;

	m->session = pr->session;
	m->tagged = pr->auth.on;
	while ((ret = nb_link_send(&pr->link, m, nb_peer_now(pr))) == -EBUSY) {
		nb_ctlio_poll(pr->io);
		if (nb_peer_service(pr) != 0)
			return -ETIMEDOUT;
		nb_peer_nap(pr);
	}
	if (ret != 0)
		return ret;
	/* the link keeps the encoded bytes for retransmission: sign them */
	if (m->tagged)
		nb_auth_sign(&pr->auth, pr->link.out, pr->link.out_len);
	return nb_peer_service(pr);
}

int
nb_peer_accept(struct nb_peer *pr, const struct nb_udp_info *u,
	       const struct nb_ctl_msg *m)
{
	struct nb_ctl_msg ack;
	int fresh;

	if (m->type == NB_CTL_ACK) {
		/* an ACK of what we sent last is a sign of life too (the
		 * message after an ACCEPT may come only once the far end
		 * has set its test up) */
		if (nb_link_on_ack(&pr->link, m->seq, nb_peer_now(pr)) == 1)
			pr->last_heard = nb_peer_now(pr);
		return 0;
	}
	fresh = nb_link_accept(&pr->link, m);
	if (fresh < 0)
		return 0;
	nb_ctl_msg_init(&ack, NB_CTL_ACK, m->session);
	ack.seq = m->seq;
	nb_peer_send_raw(pr, &ack, u->src_mac, u->src_ip, u->src_ip6,
			 pr->auth.on ? &pr->auth : NULL);
	if (fresh == 0)
		return 0;
	/* The peer answered, so it read our last message; not so a
	 * message it sends unasked (INTERVAL, KEEPALIVE), which may have
	 * crossed ours on the wire: taking that for an ACK lost a STOP under
	 * a flood (the client went on to RESULTS_REQ, which an ARMED
	 * responder ignores).  Nor does anything answer our INTERVAL: a
	 * client frozen past the end (SIGSTOP) lost one in its full RX
	 * ring, its STOP was taken for the ACK, and it dropped every later
	 * INTERVAL as skipping ahead, RESULTS never came */
	if (pr->link.pending && m->type != NB_CTL_INTERVAL &&
	    m->type != NB_CTL_KEEPALIVE &&
	    nb_ctl_peek_type(pr->link.out, pr->link.out_len) != NB_CTL_INTERVAL)
		nb_link_on_ack(&pr->link, pr->link.out_seq, nb_peer_now(pr));
	pr->last_heard = nb_peer_now(pr);
	return 1;
}

/* A control message of another protocol version: say so, to its sender. */
static void
version_mismatch(struct nb_peer *pr, const struct nb_udp_info *u,
		 const struct nb_ctl_msg *m)
{
	struct nb_ctl_msg e;
	uint64_t more = 0;
	int len;

	nb_ctl_msg_init(&e, NB_CTL_ERROR, m->session ? m->session : 1);
	e.seq = m->seq ? m->seq : 1;
	e.u.error.code = NB_CTL_CODE_VERSION;
	snprintf(e.u.error.reason, sizeof(e.u.error.reason),
		 "version mismatch: this side speaks control protocol %d "
		 "(dpdk-nbench %s)",
		 NB_CTL_VERSION, NB_VERSION);
	len = nb_ctl_encoded_len(&e);
	/* never more bytes back than came in (every version's HELLO is
	 * longer than this answer), never to a group address */
	if (len < 0 || (size_t)len > u->payload_len ||
	    !nb_policy_answerable_u(u)) {
		nb_refusal_note(&pr->refusals, NB_REF_AMPLIFY, nb_peer_now(pr),
				&more);
		return;
	}
	if (nb_refusal_note(&pr->refusals, NB_REF_VERSION, nb_peer_now(pr),
			    &more))
		NB_LOG(WARNING,
		       "control message of another protocol version "
		       "from %s: version mismatch%s%.0" PRIu64 "%s",
		       nb_udp_src_text(u).s, more ? " [and " : "", more,
		       more ? " more in the last second]" : "");
	nb_peer_send_raw(pr, &e, u->src_mac, u->src_ip, u->src_ip6, NULL);
}

/* A client's session whose responder sent u: with several responders
 * the one at u's IPv4 source, else the first (whose checks drop what is
 * no responder's). */
static struct nb_peer *
route(struct nb_peer *pr, const struct nb_udp_info *u)
{
	uint16_t k;

	for (k = 0; k < pr->nb_group; k++)
		if (!u->v6 && u->src_ip == pr->group[k]->peer_ip)
			return pr->group[k];
	return pr;
}

/* nb_ctlio's callback for every control datagram addressed to us. */
static void
on_datagram(void *ctx, const struct nb_udp_info *u)
{
	struct nb_peer *pr = route(ctx, u);
	struct nb_ctl_msg m;
	int ret;

	/* what the debug line shows when the magic is wrong (the decoder
	 * then fills nothing; the whole struct is too big to clear per
	 * datagram under a flood) */
	m.type = 0;
	m.session = m.seq = 0;
	ret = nb_ctl_decode(u->payload, u->payload_len, &m);

	NB_LOG(DEBUG, "ctl %s rx %s session %08x seq %u ret %d",
	       pr->client ? "client" : "responder",
	       ret == 0 ? nb_ctl_type_name(m.type) : "?", m.session, m.seq,
	       ret);
	/* a responder answers (rate-limited) a HELLO it cannot read; a
	 * client has nothing to say to a responder of another version */
	if (ret == -EPROTONOSUPPORT && !pr->client &&
	    (m.type & (uint8_t)~NB_CTL_F_TAG) == NB_CTL_HELLO) {
		uint64_t more;

		if (nb_srclimit_take(&pr->hello_lim, u->src_mac, u->src_ip,
				     nb_peer_now(pr)))
			version_mismatch(pr, u, &m);
		else
			nb_refusal_note(&pr->refusals, NB_REF_RATE,
					nb_peer_now(pr), &more);
	}
	if (ret == 0)
		pr->on_msg(pr, u, &m);
}

static void
arp_answer(struct nb_peer *pr, const uint8_t *frame, uint32_t len)
{
	uint8_t mac[6];

	if (!pr->arp_done &&
	    (pr->io->v6
		     ? nb_ndp_advert_is(frame, len, pr->peer_ip6, mac)
		     : nb_arp_sender_is(frame, len, pr->peer_ip, mac)) == 1) {
		memcpy(pr->peer_mac, mac, 6);
		pr->arp_done = 1;
	}
}

/* An answer for the first session's address or a further one's. */
static void
on_arp(void *ctx, const uint8_t *frame, uint32_t len)
{
	struct nb_peer *pr = ctx;
	uint16_t k;

	arp_answer(pr, frame, len);
	for (k = 0; k < pr->nb_group; k++)
		arp_answer(pr->group[k], frame, len);
}

void
nb_peer_join_io(struct nb_peer *g, struct nb_peer *pr)
{
	g->app = pr->app;
	g->client = pr->client;
	g->io = pr->io;
	g->on_msg = pr->on_msg;
	g->timeout_ns = pr->timeout_ns;
	nb_link_init(&g->link, RTO_MIN_NS, RTO_MAX_NS, g->timeout_ns);
	g->mine = pr->mine;
}

int
nb_peer_resolve(struct nb_peer *pr)
{
	uint64_t deadline = nb_peer_now(pr) + pr->timeout_ns, next = 0;
	uint8_t frame[128];
	int n = pr->io->v6 ? nb_ndp_solicit(frame, sizeof(frame), pr->io->mac,
					    pr->io->ip6, pr->io->vlan_id,
					    pr->peer_ip6)
			   : nb_arp_request(frame, sizeof(frame), pr->io->mac,
					    pr->io->ip, pr->io->vlan_id,
					    pr->peer_ip);

	if (n < 0)
		return n;
	pr->io->on_arp = on_arp;
	while (!pr->arp_done) {
		if (nb_peer_now(pr) >= next) {
			nb_ctlio_send_frame(pr->io, frame, (uint16_t)n);
			next = nb_peer_now(pr) + 200 * NB_MS;
		}
		nb_ctlio_poll(pr->io);
		if (nb_peer_now(pr) > deadline || nb_force_quit)
			return -ETIMEDOUT;
		nb_peer_nap(pr);
	}
	return 0;
}

/* The test port; a mesh's ports, the control port first (a client's
 * --ports, a responder's --mesh-ports). */
static const uint16_t *
test_ports(const struct nb_config *cfg, int client, uint16_t *n)
{
	if (client && cfg->mesh.nb_local) {
		*n = cfg->mesh.nb_local;
		return cfg->mesh.ports;
	}
	if (!client && cfg->nb_serve_ports) {
		*n = cfg->nb_serve_ports;
		return cfg->serve_ports;
	}
	*n = 1;
	return &cfg->port;
}

int
nb_peer_open(struct nb_peer *pr, struct nb_app *app, int client, uint32_t ip,
	     const uint8_t *ip6)
{
	struct nb_config *cfg = &app->cfg;
	struct nb_setup_req req = {
		/*
		 * One more queue each way than the workers' senders use: the
		 * last TX queue is the control lcore's own, and the last RX
		 * queue faces the peer's (virtual links such as memif pair
		 * queue i with queue i).  Receivers poll every RX queue;
		 * control frames reach the control lcore through their
		 * hand-off rings.
		 */
		.nb_queues = (uint16_t)(cfg->queues + 1),
		.min_frame = 1518,
		.link_hint = client ? "cable, switch, or the responder's end "
				      "missing"
				    : NULL,
		.lacp_wait = client,
	};
	uint16_t nb_ids, mrx, mtx;
	const uint16_t *ids = test_ports(cfg, client, &nb_ids);
	int shared = 0;

	pr->app = app;
	pr->client = client;
	pr->io = &pr->io_own;
	pr->timeout_ns = (uint64_t)(cfg->peer_timeout * 1e9);
	if (!nb_port_valid(cfg->port)) {
		char msg[160];

		nb_setup_port_missing(cfg->port, msg, sizeof(msg));
		nb_app_error(app, "%s", msg);
		return 2;
	}
	/*
	 * A device with no queue pair to spare (af_packet's default, many
	 * guest NICs): the control lcore shares the last one with a worker,
	 * which sends its frames during tests (nb_ctltx).
	 */
	if (nb_port_max_queues(cfg->port, &mrx, &mtx) == 0 &&
	    (mrx < req.nb_queues || mtx < req.nb_queues)) {
		shared = 1;
		req.nb_queues = (uint16_t)cfg->queues;
	}
	cfg->extra_rxq = shared ? 0 : 1;
	if (nb_setup_ports(app, ids, nb_ids, &req) != 0)
		return 1;
	if (shared)
		NB_LOG(INFO,
		       "port %u has %u RX / %u TX queues: the control lcore "
		       "shares queue %u with the workers",
		       cfg->port, mrx, mtx, req.nb_queues - 1);
	nb_clock_init(&app->run.clock, nb_tsc_hz(), 0);
	if (nb_ctlio_init(pr->io, cfg->port, req.nb_queues,
			  (uint16_t)(req.nb_queues - 1), shared,
			  app->ports[0].desc.mac, ip, cfg->vlan_id) != 0) {
		nb_app_error(app, "cannot set up control I/O (hugepage "
				  "memory?)");
		return 1;
	}
	if (ip6 != NULL)
		nb_ctlio_set_ip6(pr->io, ip6);
	pr->io->on_msg = on_datagram;
	pr->io->ctx = pr;
	nb_link_init(&pr->link, RTO_MIN_NS, RTO_MAX_NS, pr->timeout_ns);
	fill_conf(pr);
	if (!nb_ctl_offer_ok(&pr->mine.offer)) {
		nb_app_error(app, "%s",
			     "two of the mesh's ports (--ports, --mesh-ports) "
			     "have one MAC: a mesh needs each port's own");
		return 2;
	}
	pr->mine.flags = cfg->psk_len ? NB_CTL_CONF_F_KEY : 0;
	if (nb_auth_random(pr->secret, sizeof(pr->secret)) != 0 ||
	    nb_auth_random(pr->cn, sizeof(pr->cn)) != 0) {
		nb_app_error(app, "cannot read random bytes (getrandom)");
		return 1;
	}
	return 0;
}

void
nb_peer_close(struct nb_peer *pr)
{
	/* a session that shares another's control I/O leaves it alone */
	if (pr->io == &pr->io_own)
		nb_ctlio_free(pr->io);
}
