/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --iperf3 HOST[:PORT]: the control lcore as a client of a stock iperf3
 * server.  The control connection is one end of the tool's own TCP
 * (core/nb_tcp.h with application bytes, core/nb_tcp_app.h), run here on
 * the control lcore over nb_ctlio: its frames go out on the control TX
 * queue, the server's come back as frames of no kind of ours
 * (nb_ctlio.on_other).  iperf3's protocol is core/nb_iperf3_proto.h's
 * client state machine; this file only moves its bytes.
 *
 * Built: ARP for HOST, the connection (refused, unreachable and timed-out
 * connects reported), the cookie, the parameter exchange, and the
 * server's refusals (ACCESS_DENIED, SERVER_ERROR) as clear errors; the
 * data streams, UDP (nb_ip3udp.c: forward and --reverse) or TCP
 * (nb_ip3tcp.c: forward).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_ip3client.h"
#include "nb_ip3client_int.h"
#include "nb_ip3conn.h"
#include "nb_iperf3_proto.h"
#include "nb_log.h"
#include "nb_phase.h"
#include "nb_run.h"
#include "nb_seam.h"
#include "nb_session.h"
#include "nb_tcp_app.h"
#include "nb_tcp_wire.h"

/* A frame the control lcore holds no class for: the server's segment? */
static void
on_frame(void *ctx, const uint8_t *p, uint32_t len)
{
	struct nb_ip3c *x = ctx;
	struct nb_flow f;
	struct nb_tcp_seg s;
	struct nb_udp_info u;

	if (x->nstreams && nb_udp_frame_parse(p, len, &u) == 0) {
		nb_ip3c_udp_frame(x, &u);
		return;
	}
	if (nb_tcp_frame_parse(p, len, 1, &f, &s) != 0 || f.family == 6 ||
	    f.src_ip != x->flow.dst_ip || f.dst_ip != x->flow.src_ip ||
	    f.src_port != x->flow.dst_port || f.dst_port != x->flow.src_port)
		return;
	nb_tcp_input(&x->c, &s, nb_peer_now(&x->pr));
}

static void
flush(struct nb_ip3c *x)
{
	nb_ip3_conn_flush(&x->pr, &x->c, &x->flow, &x->tapp);
}

static void
pump(struct nb_ip3c *x)
{
	nb_ctlio_poll(x->pr.io);
	flush(x);
}

static void
write_out(struct nb_ip3c *x, const uint8_t *b, size_t n)
{
	if (nb_tcp_app_write(&x->c, &x->tapp, b, n) != n) {
		snprintf(x->why, sizeof(x->why),
			 "the control connection's buffer is full");
		x->code = 1;
		x->done = 1;
	}
}

void
nb_ip3c_fail(struct nb_ip3c *x, const char *msg)
{
	if (x->done)
		return;
	snprintf(x->why, sizeof(x->why), "%s", msg);
	x->code = 1;
	x->done = 1;
}

/* Our results, framed, on the connection. */
static void
results(struct nb_ip3c *x)
{
	static uint8_t out[IP3C_TX];
	int n;

	if (x->pr.app->cfg.tcp)
		nb_ip3c_tcp_results(x);
	else
		nb_ip3c_udp_results(x);
	nb_ip3_cpu_share(&x->cpu0, &x->mine);
	n = nb_ip3_client_results(&x->cl, &x->mine, out, sizeof(out));
	if (n < 0) {
		nb_ip3c_fail(x, "cannot frame our results");
		return;
	}
	write_out(x, out, (size_t)n);
}

/* What the client's state machine asks for. */
static void
act(struct nb_ip3c *x, struct nb_ip3_step *st)
{
	char m[sizeof(x->why)] = "";
	unsigned int n;

	switch (st->act) {
	case NB_IP3_ACT_NONE:
		return;
	case NB_IP3_ACT_WRITE:
		write_out(x, st->out, st->out_len);
		return;
	case NB_IP3_ACT_CREATE_STREAMS:
		/* the connections (--bidir: twice the streams, one way each) */
		nb_run_cpu_now(&x->cpu0);
		n = x->bidir ? st->nstreams / 2 : st->nstreams;
		if ((x->pr.app->cfg.tcp ? nb_ip3c_tcp_connect(x, n)
					: nb_ip3c_udp_connect(x, n)) != 0)
			break;
		return;
	case NB_IP3_ACT_START:
		/* TCP: the connections are open and sending already; UDP
		 * --reverse: the receivers are counting already */
		if (!x->pr.app->cfg.tcp && !x->test_ready &&
		    nb_ip3c_udp_setup(x) != 0)
			break;
		return;
	case NB_IP3_ACT_RUNNING:
		if ((x->pr.app->cfg.tcp ? nb_ip3c_tcp_run(x)
					: nb_ip3c_udp_run(x)) != 0)
			break;
		/* the server's silence is timed from the test's end */
		x->heard = nb_peer_now(&x->pr);
		nb_ip3_client_test_end(&x->cl, st);
		act(x, st);
		return;
	case NB_IP3_ACT_SEND_RESULTS:
		results(x);
		return;
	case NB_IP3_ACT_PEER_RESULTS:
		x->peer = *st->peer;
		x->have_peer = 1;
		/* --get-server-output: the server's report (the client
		 * state machine holds it) */
		x->srv_output = x->cl.server_output;
		return;
	case NB_IP3_ACT_DONE:
		write_out(x, st->out, st->out_len);
		x->done = 1;
		return;
	case NB_IP3_ACT_ERROR:
		if (st->out_len)
			write_out(x, st->out, st->out_len);
		nb_ip3c_fail(x, st->msg);
		return;
	default:
		snprintf(m, sizeof(m), "step %d: not built yet", (int)st->act);
		break;
	}
	/* a failure of ours: tell the server, then say why */
	if (m[0] == '\0')
		snprintf(m, sizeof(m), "%s",
			 x->why[0] ? x->why : "the test failed");
	nb_ip3_client_abort(&x->cl, st);
	if (st->out_len)
		write_out(x, st->out, st->out_len);
	nb_ip3c_fail(x, m);
}

/* The server's bytes through the state machine. */
static void
drive(struct nb_ip3c *x)
{
	struct nb_ip3_step st;
	uint8_t buf[4096];
	size_t n, off, used;

	while (!x->done &&
	       (n = nb_tcp_app_read(&x->c, &x->tapp, buf, sizeof(buf))) > 0) {
		x->heard = nb_peer_now(&x->pr);
		for (off = 0; off < n && !x->done; off += used) {
			used = nb_ip3_client_input(&x->cl, buf + off, n - off,
						   &st);
			act(x, &st);
			if (used == 0)
				break;
		}
	}
	if (!x->done && nb_tcp_app_eof(&x->c, &x->tapp)) {
		nb_ip3_client_eof(&x->cl, &st);
		act(x, &st);
	}
}

static void
nap(struct nb_ip3c *x)
{
	nb_ip3_conn_nap(&x->pr, &x->c);
}

/* Why the connection failed, in words. */
static void
conn_failed(struct nb_ip3c *x)
{
	char m[sizeof(x->why)];
	const struct nb_config *cfg = &x->pr.app->cfg;

	snprintf(m, sizeof(m),
		 x->c.error == NB_TCP_ERR_REFUSED
			 ? "cannot connect to the iperf3 server at "
			   "%u.%u.%u.%u:%u: connection refused (no server "
			   "on that port?)"
		 : x->c.error == NB_TCP_ERR_RESET
			 ? "the iperf3 server at %u.%u.%u.%u:%u reset the "
			   "control connection"
			 : "cannot connect to the iperf3 server at "
			   "%u.%u.%u.%u:%u: no answer (timed out)",
		 NB_IP4_ARGS(cfg->ip3_host), cfg->ip3_port);
	nb_ip3c_fail(x, m);
}

/* One turn of the loop; 1 while it goes on. */
static int
turn(struct nb_ip3c *x, uint64_t t0)
{
	uint64_t now;

	nb_ctlio_poll(x->pr.io);
	/* the bytes before a RST first: a busy server's ACCESS_DENIED comes
	 * with one (it closes with our cookie unread) */
	if (!x->done)
		drive(x);
	if (x->c.error != NB_TCP_OK && !x->done)
		conn_failed(x);
	flush(x);
	now = nb_peer_now(&x->pr);
	if (x->done)
		return 0;
	if (x->c.state < NB_TCP_ESTABLISHED && now - t0 > IP3C_CONNECT_NS) {
		nb_tcp_abort(&x->c);
		flush(x);
		x->c.error = NB_TCP_ERR_TIMEOUT;
		conn_failed(x);
		return 0;
	}
	if (x->heard != 0 && now - x->heard > IP3C_IDLE_NS) {
		nb_ip3c_fail(x, "the iperf3 server went silent (30 s)");
		return 0;
	}
	if (nb_force_quit) {
		struct nb_ip3_step st;

		nb_ip3_client_abort(&x->cl, &st);
		act(x, &st);
		nb_ip3c_fail(x, "interrupted");
		return 0;
	}
	nap(x);
	return 1;
}

/* FIN after the last byte; wait a little for both halves to close. */
static void
close_conn(struct nb_ip3c *x)
{
	uint64_t t0 = nb_peer_now(&x->pr);

	if (x->c.state >= NB_TCP_ESTABLISHED)
		nb_tcp_close(&x->c);
	else
		nb_tcp_abort(&x->c);
	while (!nb_tcp_finished(&x->c) &&
	       nb_peer_now(&x->pr) - t0 < IP3C_CLOSE_NS) {
		uint8_t junk[4096];

		nb_ctlio_poll(x->pr.io);
		while (nb_tcp_app_read(&x->c, &x->tapp, junk, sizeof(junk)))
			;
		if (nb_tcp_app_eof(&x->c, &x->tapp))
			nb_tcp_close(&x->c);
		flush(x);
		nap(x);
	}
	if (!nb_tcp_finished(&x->c)) {
		nb_tcp_abort(&x->c);
		flush(x);
	}
}

/* What iperf3 is asked for: --time, --streams, and for UDP the datagram
 * payload of --size's frames at --rate's frames/s. */
static int
ip3_params(struct nb_ip3c *x, struct nb_ip3_params *ip)
{
	struct nb_app *app = x->pr.app;
	const struct nb_config *cfg = &app->cfg;
	const struct nb_rate *r = &app->rate;

	nb_ip3_params_default(ip);
	ip->udp = !cfg->tcp;
	ip->reverse = x->reverse = cfg->reverse;
	ip->bidir = x->bidir = cfg->bidir;
	ip->get_server_output = cfg->ip3_server_output;
	ip->parallel = (int)(cfg->streams ? cfg->streams : 1);
	/* a count ends the test (iperf3's -k), else the time */
	ip->time = app->total_packets ? 0 : (int)(cfg->duration + 0.5);
	ip->blocks = app->total_packets;
	ip->window = cfg->ip3_window;
	if (!ip->udp) {
		/* --bytes is iperf3's -n: over all streams */
		x->by_bytes = cfg->bytes != 0 && !cfg->duration_set;
		ip->bytes = x->by_bytes ? cfg->bytes : 0;
		ip->time = x->by_bytes ? 0 : ip->time;
		ip->blocks = 0;
		return 0;
	}
	if (nb_ip3_udp_shape(cfg->sizes.sizes[0], cfg->vlan_id != 0,
			     r->unlimited ? 0 : r->pps_num, r->pps_den,
			     &ip->len, &ip->bandwidth) != 0) {
		nb_app_error(app,
			     "--size %u leaves no room for iperf3's "
			     "datagram header",
			     cfg->sizes.sizes[0]);
		return -EINVAL;
	}
	/* iperf3's -b is a stream's; ours the total */
	ip->bandwidth /= (uint64_t)ip->parallel;
	x->len = ip->len;
	return 0;
}

/* The connection's addresses, its TCP end and the client. */
static int
conn_setup(struct nb_ip3c *x)
{
	const struct nb_config *cfg = &x->pr.app->cfg;
	struct nb_tcp_params p;
	struct nb_ip3_params ip;
	struct nb_ip3_step st;
	uint8_t rnd[NB_IP3_COOKIE_RAND + 6];
	char cookie[NB_IP3_COOKIE_LEN];

	if (nb_auth_random(rnd, sizeof(rnd)) != 0)
		return -EIO;
	nb_ip3_conn_params(cfg, &p);
	memcpy(x->flow.dst_mac, x->pr.peer_mac, 6);
	memcpy(x->flow.src_mac, x->pr.io->mac, 6);
	x->flow.vlan_id = cfg->vlan_id;
	x->flow.proto = NB_IPPROTO_TCP;
	x->flow.ttl = 64;
	x->flow.family = 4;
	x->flow.src_ip = x->pr.io->ip;
	x->flow.dst_ip = cfg->ip3_host;
	/* an ephemeral port, as Linux picks them (32768..60999) */
	x->flow.src_port = (uint16_t)(32768 + (rnd[36] | rnd[37] << 8) % 28232);
	x->flow.dst_port = cfg->ip3_port;
	x->flow.stream_id = 1;
	memcpy(&p.iss, rnd + 38, 4);
	nb_tcp_connect(&x->c, &p, nb_peer_now(&x->pr));
	nb_tcp_app_init(&x->tapp, x->tx, sizeof(x->tx), x->rx, sizeof(x->rx),
			0);
	nb_tcp_app_attach(&x->c, &x->tapp);

	if (ip3_params(x, &ip) != 0)
		return -EINVAL;
	nb_ip3_cookie_make(rnd, cookie);
	if (nb_ip3_client_init(&x->cl, &ip, cookie, x->json, IP3C_JSON) != 0)
		return -EINVAL;
	nb_ip3_client_hello(&x->cl, &st);
	act(x, &st);
	return 0;
}

int
nb_ip3client_main(struct nb_app *app)
{
	static struct nb_ip3c x;
	struct nb_config *cfg = &app->cfg;
	uint64_t t0;
	int ret;

	memset(&x, 0, sizeof(x));
	app->out.progress = 0;
	x.json = malloc(IP3C_JSON);
	if (x.json == NULL) {
		nb_app_error(app, "out of memory");
		return 1;
	}
	x.pr.on_msg = NULL;
	ret = nb_peer_open(&x.pr, app, 1, cfg->have_ip ? cfg->ip : cfg->src_ip,
			   NULL);
	if (ret != 0)
		goto out;
	x.pr.peer_ip = cfg->ip3_host;
	x.pr.io->on_other = on_frame;
	x.pr.io->other_ctx = &x;
	x.pump = pump;
	nb_app_phase(NB_PHASE_CONNECTING);
	if (nb_peer_resolve(&x.pr) != 0) {
		nb_app_error(app,
			     nb_force_quit ? "interrupted while resolving the "
					     "iperf3 server's address"
					   : "no ARP answer from the iperf3 "
					     "server at " NB_IP4_FMT
					     " (is it on this link?)",
			     NB_IP4_ARGS(cfg->ip3_host));
		ret = 1;
		goto close;
	}
	ret = nb_run_resolve(app,
			     (uint64_t)app->ports[0].desc.link_speed * 1000000);
	if (ret != 0) {
		nb_app_error(app, "cannot resolve --rate%s",
			     ret == -ENOTSUP ? ": the port reports no link "
					       "speed for a percentage"
					     : "");
		ret = 2;
		goto close;
	}
	if (conn_setup(&x) != 0) {
		nb_app_error(app, "cannot set up the iperf3 client");
		ret = 1;
		goto close;
	}
	t0 = nb_peer_now(&x.pr);
	while (turn(&x, t0))
		;
	close_conn(&x);
	nb_ip3c_tcp_close(&x);
	ret = x.code;
	if (ret != 0)
		nb_app_error(app, "iperf3: %s", x.why);
	else
		nb_ip3c_report(&x);
	nb_ip3c_udp_free(&x);
close:
	nb_peer_close(&x.pr);
out:
	nb_ip3_client_release(&x.cl);
	free(x.json);
	return ret;
}
