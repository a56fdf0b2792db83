/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --iperf3-server PORT: stock iperf3 clients (iperf3 -c) served on the
 * DPDK port.  The control lcore listens on PORT with one connection of
 * the tool's TCP (core/nb_tcp.h with application bytes), runs iperf3
 * 3.12's server order (core/nb_iperf3_server.c) over it, and turns the
 * client's parameters into a responder's test under the responder's caps
 * (--allow, --max-rate, --max-time, --max-streams: keyless, so --no-auth's
 * defaults); what it cannot or may not serve is answered SERVER_ERROR
 * with iperf3's i_errno, which the client prints.  One test at a time:
 * a second client while one is served gets ACCESS_DENIED ("the server is
 * busy running a test") on a connection of its own, as iperf3 does.
 * The streams: nb_ip3srv_udp.c (UDP, either way).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_ip3conn.h"
#include "nb_ip3server.h"
#include "nb_ip3srv_int.h"
#include "nb_log.h"
#include "nb_phase.h"
#include "nb_policy.h"
#include "nb_seam.h"
#include "nb_tcp_wire.h"

/* a client's silence between two steps outside a test; the close */
#define IP3S_IDLE_NS  (30000 * NB_MS)
#define IP3S_CLOSE_NS (1000 * NB_MS)

static void
conn_init(struct nb_ip3s_conn *k, uint8_t *tx, uint32_t txcap, uint8_t *rx,
	  uint32_t rxcap)
{
	memset(&k->c, 0, sizeof(k->c));
	k->tx = tx;
	k->rx = rx;
	k->txcap = txcap;
	k->rxcap = rxcap;
}

/* k takes the client's SYN s (frame f): listening, then the SYN in. */
static void
conn_accept(struct nb_ip3s *x, struct nb_ip3s_conn *k, const struct nb_flow *f,
	    const struct nb_tcp_seg *s)
{
	struct nb_tcp_params p;

	nb_ip3_conn_params(&x->pr.app->cfg, &p);
	nb_auth_random(&p.iss, sizeof(p.iss));
	k->flow = *f;
	memcpy(k->flow.src_mac, f->dst_mac, 6);
	memcpy(k->flow.dst_mac, f->src_mac, 6);
	k->flow.src_ip = f->dst_ip;
	k->flow.dst_ip = f->src_ip;
	k->flow.src_port = f->dst_port;
	k->flow.dst_port = f->src_port;
	k->flow.ttl = 64;
	k->flow.stream_id = 1;
	nb_tcp_listen(&k->c, &p);
	nb_tcp_app_init(&k->app, k->tx, k->txcap, k->rx, k->rxcap, 0);
	nb_tcp_app_attach(&k->c, &k->app);
	nb_tcp_input(&k->c, s, nb_peer_now(&x->pr));
}

/* Is frame f (as received) of connection k? */
static int
conn_is(const struct nb_ip3s_conn *k, const struct nb_flow *f)
{
	return k->c.state != NB_TCP_CLOSED && k->c.state != NB_TCP_LISTEN &&
	       f->src_ip == k->flow.dst_ip && f->src_port == k->flow.dst_port &&
	       f->dst_ip == k->flow.src_ip && f->dst_port == k->flow.src_port;
}

static int
conn_free(const struct nb_ip3s_conn *k)
{
	return k->c.state == NB_TCP_CLOSED || nb_tcp_finished(&k->c);
}

/* Refusals answered per second, and at once (a burst) */
#define IP3S_REFUSE_RATE  100
#define IP3S_REFUSE_BURST 20

/* A connection refused (why: the log's reason, NULL for none): counted;
 * answered with a RST and logged only within the refusal bucket, and
 * never to a source nothing may be sent to (broadcast, multicast). */
static int refuse(struct nb_ip3s *x, const struct nb_flow *f,
		  const struct nb_tcp_seg *s, const char *why);

/* A SYN to our port: may this client be served (--allow)? */
static int
may_serve(struct nb_ip3s *x, const struct nb_flow *f,
	  const struct nb_tcp_seg *s)
{
	char why[160];

	if (nb_policy_peer(&x->pr.app->cfg, f->src_mac, f->src_ip, why,
			   sizeof(why)) == 0)
		return 1;
	refuse(x, f, s, why);
	return 0;
}

/* A connection not taken (refused, or busy with a refusal under way):
 * the RST, at once, rather than a client's SYN retries for minutes. */
static void
send_rst(struct nb_ip3s *x, const struct nb_flow *f, const struct nb_tcp_seg *s)
{
	struct nb_tcp_seg r;
	struct nb_flow o = *f;
	uint8_t buf[128];
	int n;

	if (!nb_tcp_rst_for(s, &r))
		return;
	memcpy(o.src_mac, f->dst_mac, 6);
	memcpy(o.dst_mac, f->src_mac, 6);
	o.src_ip = f->dst_ip;
	o.dst_ip = f->src_ip;
	o.src_port = f->dst_port;
	o.dst_port = f->src_port;
	o.ttl = 64;
	n = nb_tcp_frame_build(buf, sizeof(buf), &o, &r, NULL);
	if (n > 0)
		nb_ctlio_send_frame(x->pr.io, buf, (uint16_t)n);
}

static int
refuse(struct nb_ip3s *x, const struct nb_flow *f, const struct nb_tcp_seg *s,
       const char *why)
{
	x->refused++;
	if (!nb_policy_answerable(f->src_mac, f->src_ip) ||
	    !nb_tokens_take(&x->refuse_tok, nb_peer_now(&x->pr)))
		return 0;
	if (why != NULL)
		NB_LOG(NOTICE, "iperf3 client " NB_IP4_FMT ":%u refused: %s",
		       NB_IP4_ARGS(f->src_ip), f->src_port, why);
	send_rst(x, f, s);
	return 1;
}

/* A new session on the control connection: the client's address is the
 * session peer's (the data goes there only). */
static void
session_open(struct nb_ip3s *x, const struct nb_flow *f,
	     const struct nb_tcp_seg *s)
{
	memset(&x->p, 0, sizeof(x->p));
	x->active = 1;
	x->ending = 0;
	x->nstreams = x->connected = 0;
	x->ran = x->have_peer = 0;
	x->why[0] = '\0';
	x->client_ip = f->src_ip;
	x->pr.peer_ip = f->src_ip;
	memcpy(x->pr.peer_mac, f->src_mac, 6);
	nb_ip3_server_init(&x->sv, x->json, IP3S_JSON);
	conn_accept(x, &x->ctl, f, s);
	x->heard = nb_peer_now(&x->pr);
	x->sessions++;
	nb_app_phase(NB_PHASE_CONNECTING);
	NB_LOG(INFO, "iperf3 client " NB_IP4_FMT ":%u connected",
	       NB_IP4_ARGS(f->src_ip), f->src_port);
}

/* A frame the control lcore holds no class for: the clients' segments
 * and UDP connect datagrams. */
static void
on_frame(void *ctx, const uint8_t *p, uint32_t len)
{
	struct nb_ip3s *x = ctx;
	struct nb_flow f;
	struct nb_tcp_seg s;
	struct nb_udp_info u;
	uint16_t port = x->pr.app->cfg.ip3_port;

	if (nb_udp_frame_parse(p, len, &u) == 0) {
		if (x->active && x->nstreams && x->p.udp &&
		    u.dst_ip == x->pr.io->ip && nb_ip3s_udp_frame(x, &u) < 0 &&
		    !x->ending) {
			struct nb_ip3_step st;

			nb_ip3_server_error(&x->sv, 114, 0, &st);
			nb_tcp_app_write(&x->ctl.c, &x->ctl.app, st.out,
					 st.out_len);
			x->ending = 1;
		}
		return;
	}
	if (nb_tcp_frame_parse(p, len, 1, &f, &s) != 0 || f.family == 6 ||
	    f.dst_ip != x->pr.io->ip || f.dst_port != port)
		return;
	if (x->active && conn_is(&x->ctl, &f)) {
		nb_tcp_input(&x->ctl.c, &s, nb_peer_now(&x->pr));
		return;
	}
	if (conn_is(&x->deny, &f)) {
		nb_tcp_input(&x->deny.c, &s, nb_peer_now(&x->pr));
		return;
	}
	/* a new connection: a SYN alone */
	if ((s.flags & (NB_TCP_SYN | NB_TCP_ACK)) != NB_TCP_SYN)
		return;
	if (!may_serve(x, &f, &s))
		return;
	if (!x->active) {
		session_open(x, &f, &s);
	} else if (conn_free(&x->deny)) {
		/* busy: this one is told so once it is established */
		conn_accept(x, &x->deny, &f, &s);
		x->refused++;
		NB_LOG(INFO,
		       "iperf3 client " NB_IP4_FMT ":%u turned away: a test "
		       "is running",
		       NB_IP4_ARGS(f.src_ip), f.src_port);
	} else {
		refuse(x, &f, &s, NULL);
	}
}

static void
write_out(struct nb_ip3s *x, const uint8_t *b, size_t n)
{
	if (nb_tcp_app_write(&x->ctl.c, &x->ctl.app, b, n) != n) {
		snprintf(x->why, sizeof(x->why),
			 "the control connection's buffer is full");
		x->ending = 1;
	}
}

/* The session's end: log why, close the connection (after what was
 * written), the test freed. */
static void
session_end(struct nb_ip3s *x, const char *why)
{
	if (x->ending)
		return;
	x->ending = 1;
	x->end_at = nb_peer_now(&x->pr);
	if (why != NULL && why[0])
		NB_LOG(NOTICE, "iperf3 client " NB_IP4_FMT ": %s",
		       NB_IP4_ARGS(x->client_ip), why);
	nb_ip3s_test_free(x);
	if (x->ctl.c.state >= NB_TCP_ESTABLISHED)
		nb_tcp_close(&x->ctl.c);
}

/* The test's figures on stdout: a line, or with --json an object a
 * line, per test. */
static void
report(struct nb_ip3s *x)
{
	const struct nb_ip3_results *m = &x->mine;
	uint64_t bytes = 0, dgrams = 0;
	int64_t lost = 0, retr = 0;
	unsigned int i;

	for (i = 0; i < m->nstreams; i++) {
		bytes += m->s[i].bytes;
		dgrams += (uint64_t)(m->s[i].packets > 0 ? m->s[i].packets : 0);
		lost += m->s[i].errors;
		retr += m->s[i].retransmits > 0 ? m->s[i].retransmits : 0;
	}
	if (x->pr.app->cfg.json) {
		json_t *o = json_pack(
			"{s:s, s:i, s:s, s:b, s:i, s:o, s:o}", "client",
			nb_addr_text(x->client_ip, NULL).s, "port",
			(int)x->ctl.flow.dst_port, "protocol",
			x->p.udp ? "UDP" : "TCP", "reverse", x->p.reverse,
			"num_streams", (int)x->nstreams, "results",
			nb_ip3_results_json(m), "client_results",
			x->have_peer ? nb_ip3_results_json(&x->peer)
				     : json_null());
		char *t = o ? json_dumps(o, JSON_COMPACT) : NULL;

		if (t != NULL)
			printf("%s\n", t);
		free(t);
		json_decref(o);
	} else if (x->p.udp) {
		printf("iperf3 client %s: UDP, %u stream(s), %s: %" PRIu64
		       " datagrams, %" PRIu64 " bytes, %" PRId64
		       " lost, %.2f s\n",
		       nb_addr_text(x->client_ip, NULL).s, x->nstreams,
		       x->p.reverse ? "we sent" : "we received", dgrams, bytes,
		       lost, m->nstreams ? m->s[0].end_time : 0.0);
	} else {
		printf("iperf3 client %s: TCP, %u stream(s), %s: %" PRIu64
		       " bytes%s, %.2f s\n",
		       nb_addr_text(x->client_ip, NULL).s, x->nstreams,
		       x->p.reverse ? "we sent (acknowledged)" : "we received",
		       bytes, "", m->nstreams ? m->s[0].end_time : 0.0);
		if (x->p.reverse)
			printf("  %" PRId64 " segments retransmitted\n", retr);
	}
	fflush(stdout);
}

/* What the server's order asks for. */
static void
act(struct nb_ip3s *x, struct nb_ip3_step *st)
{
	static uint8_t out[IP3S_TX];
	int32_t ie;
	int n;

	switch (st->act) {
	case NB_IP3_ACT_NONE:
		return;
	case NB_IP3_ACT_WRITE:
		write_out(x, st->out, st->out_len);
		return;
	case NB_IP3_ACT_PARAMS:
		x->p = *st->params;
		x->nstreams = (unsigned int)x->p.parallel;
		ie = nb_ip3s_check(x);
		/* TCP: the listener for the streams, before they come */
		if (ie == 0 && !x->p.udp && nb_ip3s_tcp_setup(x) != 0)
			ie = 114;
		if (ie != 0) {
			nb_ip3_server_error(&x->sv, ie, 0, st);
			write_out(x, st->out, st->out_len);
			session_end(x, x->why);
			return;
		}
		nb_ip3_server_create_streams(&x->sv, st);
		write_out(x, st->out, st->out_len);
		return;
	case NB_IP3_ACT_TEST_END:
		nb_ip3s_test_end(x);
		nb_ip3_server_exchange(&x->sv, st);
		write_out(x, st->out, st->out_len);
		return;
	case NB_IP3_ACT_PEER_RESULTS:
		x->peer = *st->peer;
		x->have_peer = 1;
		nb_ip3s_results(x);
		n = nb_ip3_server_results(&x->sv, &x->mine, out, sizeof(out));
		if (n < 0) {
			session_end(x, "cannot frame our results");
			return;
		}
		write_out(x, out, (size_t)n);
		return;
	case NB_IP3_ACT_DONE:
		report(x);
		session_end(x, NULL);
		return;
	case NB_IP3_ACT_ERROR:
		if (st->out_len)
			write_out(x, st->out, st->out_len);
		session_end(x, st->msg);
		return;
	default:
		session_end(x, "unexpected step");
		return;
	}
}

/* The client's bytes through the server's order. */
static void
drive(struct nb_ip3s *x)
{
	struct nb_ip3_step st;
	uint8_t buf[4096];
	size_t n, off, used;

	while (!x->ending && (n = nb_tcp_app_read(&x->ctl.c, &x->ctl.app, buf,
						  sizeof(buf))) > 0) {
		x->heard = nb_peer_now(&x->pr);
		for (off = 0; off < n && !x->ending; off += used) {
			used = nb_ip3_server_input(&x->sv, buf + off, n - off,
						   &st);
			act(x, &st);
			if (used == 0)
				break;
		}
	}
	if (!x->ending && nb_tcp_app_eof(&x->ctl.c, &x->ctl.app))
		session_end(x, "the client closed the control connection");
}

/* The busy refusal: ACCESS_DENIED once established, then the FIN. */
static void
deny_turn(struct nb_ip3s *x)
{
	struct nb_ip3s_conn *k = &x->deny;
	static const uint8_t denied = NB_IP3_BUSY_BYTE;
	uint8_t junk[256];

	if (k->c.state == NB_TCP_CLOSED)
		return;
	if (k->c.state == NB_TCP_ESTABLISHED && k->app.tx_len == 0) {
		nb_tcp_app_write(&k->c, &k->app, &denied, 1);
		nb_tcp_close(&k->c);
	}
	while (nb_tcp_app_read(&k->c, &k->app, junk, sizeof(junk)))
		;
	nb_ip3_conn_flush(&x->pr, &k->c, &k->flow, &k->app);
}

/* A session whose connection has closed (or not within a second) is
 * over: listen again. */
static void
session_reap(struct nb_ip3s *x)
{
	uint8_t junk[4096];

	while (nb_tcp_app_read(&x->ctl.c, &x->ctl.app, junk, sizeof(junk)))
		;
	if (nb_tcp_app_eof(&x->ctl.c, &x->ctl.app) &&
	    x->ctl.c.state == NB_TCP_CLOSE_WAIT)
		nb_tcp_close(&x->ctl.c);
	if (!nb_tcp_finished(&x->ctl.c) &&
	    nb_peer_now(&x->pr) - x->end_at < IP3S_CLOSE_NS)
		return;
	if (!nb_tcp_finished(&x->ctl.c)) {
		nb_tcp_abort(&x->ctl.c);
		nb_ip3_conn_flush(&x->pr, &x->ctl.c, &x->ctl.flow, &x->ctl.app);
	}
	memset(&x->ctl.c, 0, sizeof(x->ctl.c));
	x->active = 0;
	x->ending = 0;
	nb_app_phase(NB_PHASE_LISTENING);
	if (x->pr.app->cfg.one_off)
		x->pr.quit = 1;
}

/* Frames in, the control connection's segments out (the waits inside a
 * step of the protocol). */
static void
pump(struct nb_ip3s *x)
{
	nb_ctlio_poll(x->pr.io);
	nb_ip3_conn_flush(&x->pr, &x->ctl.c, &x->ctl.flow, &x->ctl.app);
}

/* One turn of the loop. */
static void
turn(struct nb_ip3s *x)
{
	uint64_t now;

	nb_ctlio_poll(x->pr.io);
	if (x->active && !x->ending) {
		drive(x);
		if (x->ctl.c.error != NB_TCP_OK)
			session_end(x, "the control connection failed");
		now = nb_peer_now(&x->pr);
		if (!x->ending && !x->ran && now - x->heard > IP3S_IDLE_NS)
			session_end(x, "the client went silent (30 s)");
	}
	if (x->active)
		nb_ip3_conn_flush(&x->pr, &x->ctl.c, &x->ctl.flow, &x->ctl.app);
	if (x->active && x->ending)
		session_reap(x);
	deny_turn(x);
	/* all streams in (UDP: nb_ip3s_udp_frame set the test up): go */
	if (x->active && !x->ending && x->test_ready &&
	    x->sv.phase == NB_IP3_S_STREAMS &&
	    (x->p.udp || nb_ip3s_tcp_ready(x))) {
		struct nb_ip3_step st;

		nb_ip3_server_start(&x->sv, &st);
		write_out(x, st.out, st.out_len);
		nb_ip3_conn_flush(&x->pr, &x->ctl.c, &x->ctl.flow, &x->ctl.app);
		nb_ip3s_go(x);
		nb_app_phase(NB_PHASE_RUNNING);
	}
	if (x->active)
		nb_ip3_conn_nap(&x->pr, &x->ctl.c);
	else
		nb_glue_nap_us(500);
}

int
nb_ip3server_main(struct nb_app *app)
{
	static struct nb_ip3s x;
	static uint8_t ctx[IP3S_TX], crx[IP3S_RX], dtx[16], drx[512];
	struct nb_config *cfg = &app->cfg;
	int ret;

	memset(&x, 0, sizeof(x));
	app->out.progress = 0;
	x.json = malloc(IP3S_JSON);
	if (x.json == NULL) {
		nb_app_error(app, "out of memory");
		return 1;
	}
	conn_init(&x.ctl, ctx, sizeof(ctx), crx, sizeof(crx));
	conn_init(&x.deny, dtx, sizeof(dtx), drx, sizeof(drx));
	x.pr.on_msg = NULL;
	x.pump = pump;
	ret = nb_peer_open(&x.pr, app, 0,
			   cfg->have_ip ? cfg->ip : NB_DEFAULT_DST_IP, NULL);
	if (ret != 0)
		goto out;
	x.pr.io->on_other = on_frame;
	nb_tokens_init(&x.refuse_tok, IP3S_REFUSE_RATE, IP3S_REFUSE_BURST,
		       nb_peer_now(&x.pr));
	x.pr.io->other_ctx = &x;
	/* a stock iperf3 client holds no key */
	printf("iperf3 clients hold no key: any host on this segment may run "
	       "tests here, up to %g %s for %g s (--max-rate, --max-time), "
	       "the data only to its own address and ports\n",
	       cfg->max_rate.kind == NB_RATE_PPS ? cfg->max_rate.value
						 : cfg->max_rate.value / 1e6,
	       cfg->max_rate.kind == NB_RATE_PPS      ? "frames/s"
	       : cfg->max_rate.kind == NB_RATE_BPS_L2 ? "Mbit/s (L2)"
						      : "Mbit/s",
	       cfg->max_time);
	printf("dpdk-nbench iperf3 server on port %u (%s) ip %s, TCP and UDP "
	       "port %u\n",
	       cfg->port, app->ports[0].desc.name,
	       nb_addr_text(x.pr.io->ip, NULL).s, cfg->ip3_port);
	fflush(stdout);
	nb_app_phase(NB_PHASE_LISTENING);
	while (!nb_force_quit && !x.pr.quit)
		turn(&x);
	if (x.active) {
		struct nb_ip3_step st;

		/* Ctrl-C: iperf3's server tells its client it ends */
		st.out = (const uint8_t *)"\x0b";
		st.out_len = 1;
		write_out(&x, st.out, st.out_len);
		session_end(&x, "interrupted");
		nb_ip3_conn_flush(&x.pr, &x.ctl.c, &x.ctl.flow, &x.ctl.app);
	}
	nb_ip3s_test_free(&x);
	NB_LOG(INFO,
	       "iperf3 server: %" PRIu64 " session(s), %" PRIu64 " refused",
	       x.sessions, x.refused);
	nb_peer_close(&x.pr);
out:
	free(x.json);
	return ret;
}
