/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The client (--peer): HELLO, PARAMS, clock rounds, START, the test with
 * keepalives, STOP, RESULTS, DONE.  Which message ends which wait is nb_cli's
 * decision (app/core/nb_peer_sm.c); nb_client_report.c writes the report.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_random.h>

#include "nb_client.h"
#include "nb_client_report.h"
#include "nb_peerivs.h"
#include "nb_suite.h"
#include "nb_log.h"
#include "nb_peertest.h"
#include "nb_run.h"
#include "nb_tsc.h"

/*
 * Is m authentic?  A WELCOME (before we have the key) brings the
 * responder's nonce: the key follows from it, and the WELCOME must check
 * under that key, which proves the responder holds our --auth-key (or,
 * without a key, that it answered our HELLO).
 */
static int
authentic(struct nb_peer *pr, const struct nb_udp_info *u,
	  const struct nb_ctl_msg *m)
{
	const struct nb_config *cfg = &pr->app->cfg;
	struct nb_auth a;

	if (!m->tagged)
		return 0;
	if (pr->auth.on)
		return nb_auth_verify(&pr->auth, u->payload, u->payload_len);
	if (m->type != NB_CTL_WELCOME || m->session != pr->session)
		return 0;
	nb_auth_derive(&a, cfg->psk, cfg->psk_len, pr->cn, m->u.conf.nonce,
		       pr->session);
	if (nb_auth_verify(&a, u->payload, u->payload_len)) {
		pr->auth = a;
		return 1;
	}
	pr->auth_fail++;
	snprintf(pr->auth_error, sizeof(pr->auth_error), "%s",
		 cfg->psk_len && !(m->u.conf.flags & NB_CTL_CONF_F_KEY)
			 ? "the responder has no key (start it with "
			   "--auth-key too)"
		 : cfg->psk_len ? "its WELCOME failed authentication: the two "
				  "ends hold different --auth-key files"
				: "its WELCOME failed authentication (it "
				  "holds a key: use --auth-key)");
	return 0;
}

static void
on_msg(struct nb_peer *pr, const struct nb_udp_info *u, struct nb_ctl_msg *m)
{
	enum nb_cli_event ev;
	/* before WELCOME the responder is known by MAC or by IPv4 (either
	 * may be a guess); after it, by both */
	int from_peer = pr->cli.state == NB_CLI_HELLO
				? memcmp(u->src_mac, pr->peer_mac, 6) == 0 ||
					  u->src_ip == pr->peer_ip
				: memcmp(u->src_mac, pr->peer_mac, 6) == 0 &&
					  u->src_ip == pr->peer_ip;
	int ok = from_peer && authentic(pr, u, m);

	switch (nb_cli_route(&pr->cli, m, from_peer, ok)) {
	case NB_CLI_DROP:
		if (from_peer && m->tagged && !ok)
			pr->foreign++;
		return;
	case NB_CLI_CLOCK:
		/* the responder's echo (unacknowledged): a clock sample */
		if (m->u.ka.echo_ns != 0)
			nb_offset_sample(&pr->off, m->u.ka.echo_ns,
					 m->u.ka.sender_ns -
						 m->u.ka.echo_delay_ns,
					 m->u.ka.sender_ns, nb_peer_now(pr));
		return;
	case NB_CLI_DIRECT:
		break;
	case NB_CLI_LINK:
		if (!nb_peer_accept(pr, u, m))
			return;
		if (m->type == NB_CTL_WELCOME &&
		    (memcmp(u->src_mac, pr->peer_mac, 6) != 0 ||
		     u->src_ip != pr->peer_ip)) {
			/* The frames reached it anyway (flooding, a virtual
			 * link): say so, and use its real address. */
			NB_LOG(WARNING,
			       "warning: the responder answers from " NB_MAC_FMT
			       " " NB_IP4_FMT
			       ", not the address asked for; using it",
			       NB_MAC_ARGS(u->src_mac), NB_IP4_ARGS(u->src_ip));
			memcpy(pr->peer_mac, u->src_mac, 6);
			pr->peer_ip = u->src_ip;
		}
		break;
	}
	ev = nb_cli_on_msg(&pr->cli, m);
	if (ev == NB_CLI_E_INTERVAL) {
		nb_peerivs_put(pr, &m->u.iv);
		return;
	}
	if (ev != NB_CLI_E_NONE) {
		pr->event = ev;
		pr->inbox = *m;
	}
}

/* Wait for the next event of the state machine (a refusal included). */
static int
client_wait(struct nb_peer *pr, enum nb_cli_event *ev)
{
	uint64_t deadline = nb_peer_now(pr) + pr->timeout_ns;

	for (;;) {
		nb_ctlio_poll(&pr->io);
		if (pr->event != NB_CLI_E_NONE) {
			*ev = pr->event;
			pr->event = NB_CLI_E_NONE;
			return 0;
		}
		if (nb_peer_service(pr) != 0)
			return -ETIMEDOUT;
		if (!pr->link.pending && nb_peer_now(pr) > deadline)
			return -ETIMEDOUT;
		/* Ctrl-C aborts a wait, except once the test is stopping:
		 * then the results are still worth fetching */
		if (nb_force_quit && !pr->stopping)
			return -EINTR;
		nb_peer_nap(pr);
	}
}

/* Wait until our last message is acknowledged. */
static int
client_flush(struct nb_peer *pr)
{
	while (pr->link.pending) {
		nb_ctlio_poll(&pr->io);
		if (pr->event == NB_CLI_E_ABORT)
			return -ECONNRESET;
		if (pr->event == NB_CLI_E_REJECT)
			return -EPERM;
		if (nb_peer_service(pr) != 0)
			return -ETIMEDOUT;
		nb_peer_nap(pr);
	}
	return 0;
}

/* Send a message that ends the session (DONE, QUIT) and wait for its ACK. */
static int
client_close(struct nb_peer *pr, uint8_t type)
{
	struct nb_ctl_msg m;
	int ret;

	nb_ctl_msg_init(&m, type, pr->session);
	ret = nb_peer_send(pr, &m);
	if (ret == 0)
		ret = client_flush(pr);
	nb_cli_set(&pr->cli, NB_CLI_CLOSED, 0);
	return ret;
}

static int
fail(struct nb_peer *pr, const char *fmt, const char *arg)
{
	struct nb_result *r = &pr->app->result;

	snprintf(r->error, sizeof(r->error), fmt, arg);
	NB_LOG(ERR, "%s", r->error);
	if (pr->in_suite) /* the suite reports it */
		return 1;
	nb_out_fatal(&pr->app->out, r->error);
	pr->app->emitted = 1;
	return 1;
}

/* Our own counters only, when the responder could not give its own. */
static int
client_partial(struct nb_peer *pr, const char *why)
{
	struct nb_ctl_msg d;
	char buf[640];

	if (pr->event == NB_CLI_E_ABORT || pr->inbox.type == NB_CTL_ERROR) {
		char r[4 * NB_CTL_REASON_STR];

		nb_escape(pr->inbox.u.error.reason, NB_CTL_REASON_STR, r,
			  sizeof(r));
		snprintf(buf, sizeof(buf), "the responder ended the test: %s",
			 r);
		why = buf;
	}
	nb_peertest_stop(pr);
	/* let a responder that is still there end the session now */
	nb_ctl_msg_init(&d, NB_CTL_DONE, pr->session);
	d.seq = pr->link.next_seq;
	if (pr->auth.on)
		nb_peer_send_raw(pr, &d, pr->peer_mac, pr->peer_ip, &pr->auth);
	nb_result_finish(&pr->app->result);
	if (pr->in_suite) { /* the suite reports it */
		snprintf(pr->app->result.error, sizeof(pr->app->result.error),
			 "%.250s", why);
		NB_LOG(ERR, "%s", why);
		return 1;
	}
	return nb_client_report_partial(pr, why);
}

static void
fill_params(struct nb_peer *pr, struct nb_ctl_params *p)
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
	/* nonzero asks the responder to reflect probes, at most that many
	 * per second: ping-pong goes as fast as the round trip allows */
	p->latency_rate =
		cfg->pingpong ? NB_CTL_MAX_LATENCY_RATE : cfg->latency_rate;
	p->sport_base = NB_DEFAULT_SPORT_BASE;
	p->dport = NB_DEFAULT_DPORT;
	/* the responder's counters come that often (none for ping-pong) */
	p->interval_ms =
		cfg->pingpong ? 0 : (uint32_t)(cfg->interval * 1000.0 + 0.5);
	memcpy(p->proof.client_nonce, pr->cn, sizeof(pr->cn));
	memcpy(p->proof.cookie, pr->theirs.nonce, sizeof(pr->theirs.nonce));
}

/* Whether both ends run on this host (the same boot id): one TSC. */
static int
same_host(const struct nb_peer *pr)
{
	return pr->mine.boot_id[0] != '\0' &&
	       strcmp(pr->mine.boot_id, pr->theirs.boot_id) == 0;
}

/*
 * On one host both ends read one TSC, but each turns it into ns with the
 * frequency it calibrated, counted from TSC 0: a few ppm apart, that is
 * tens of ms after hours of uptime, all of it in every one-way latency.
 * So the client converts with the responder's frequency (WELCOME carries
 * it, in Hz as the responder uses it): both ends then read the same ns
 * from the same TSC.  Called right after WELCOME, with nothing in flight;
 * the step in our control clock only moves nb_link's timers.
 */
static void
adopt_their_clock(struct nb_peer *pr)
{
	if (same_host(pr) && pr->theirs.tsc_hz != 0)
		nb_clock_init(&pr->app->run.clock, pr->theirs.tsc_hz, 0);
}

/* HELLO -> WELCOME; then --quit or --conf end here (1: done, code set). */
static int
client_hello(struct nb_peer *pr, int *code)
{
	const struct nb_config *cfg = &pr->app->cfg;
	enum nb_cli_event ev = NB_CLI_E_NONE;
	struct nb_ctl_msg m;
	char t[200];

	nb_ctl_msg_init(&m, NB_CTL_HELLO, pr->session);
	m.u.conf = pr->mine;
	memcpy(m.u.conf.nonce, pr->cn, sizeof(pr->cn));
	if (nb_peer_send(pr, &m) != 0 || client_wait(pr, &ev) != 0) {
		/* a WELCOME came but did not check: say why (a forged one
		 * cannot end the wait early, only the timeout does) */
		if (pr->auth_error[0] != '\0')
			snprintf(t, sizeof(t), "peer " NB_MAC_FMT ": %s",
				 NB_MAC_ARGS(pr->peer_mac), pr->auth_error);
		else
			snprintf(t, sizeof(t),
				 "peer " NB_MAC_FMT
				 " did not answer within %.1f s (is a "
				 "dpdk-nbench responder running there? see "
				 "--peer-timeout)",
				 NB_MAC_ARGS(pr->peer_mac), cfg->peer_timeout);
		*code = fail(pr, "%s", t);
		return 1;
	}
	if (ev != NB_CLI_E_WELCOME) {
		nb_escape(ev == NB_CLI_E_BUSY	  ? pr->inbox.u.busy.reason
			  : ev == NB_CLI_E_REJECT ? pr->inbox.u.reject.reason
						  : pr->inbox.u.error.reason,
			  NB_CTL_REASON_STR, t, sizeof(t));
		*code = fail(pr,
			     ev == NB_CLI_E_BUSY ? "the responder is busy: %s"
						 : "the responder refused: %s",
			     t);
		return 1;
	}
	pr->theirs = pr->inbox.u.conf;
	adopt_their_clock(pr);
	nb_app_set_cookie(pr->app, pr->cn, sizeof(pr->cn));
	nb_cli_set(&pr->cli, NB_CLI_RUNNING, 0);
	*code = 0;
	if (cfg->quit) {
		int ret;

		/* QUIT opens a session of its own, like PARAMS: it carries
		 * our nonce and the responder's cookie */
		nb_cli_set(&pr->cli, NB_CLI_PARAMS, 0);
		nb_ctl_msg_init(&m, NB_CTL_QUIT, pr->session);
		memcpy(m.u.quit.client_nonce, pr->cn, sizeof(pr->cn));
		memcpy(m.u.quit.cookie, pr->theirs.nonce,
		       sizeof(pr->theirs.nonce));
		ret = nb_peer_send(pr, &m);
		if (ret == 0)
			ret = client_flush(pr);
		nb_cli_set(&pr->cli, NB_CLI_CLOSED, 0);
		if (ret == -EPERM) {
			nb_escape(pr->inbox.u.reject.reason, NB_CTL_REASON_STR,
				  t, sizeof(t));
			*code = fail(pr, "the responder refused: %s", t);
			return 1;
		}
		if (ret != 0) {
			*code = fail(pr, "%s",
				     "the responder did not acknowledge QUIT");
			return 1;
		}
		if (nb_out_chatty(&pr->app->out)) {
			nb_escape(pr->theirs.host, sizeof(pr->theirs.host), t,
				  sizeof(t));
			printf("responder %s told to quit\n", t);
		}
		return 1;
	}
	if (cfg->conf) {
		/* the responder opened no session for a HELLO: nothing to
		 * close */
		nb_client_report_conf(pr);
		nb_cli_set(&pr->cli, NB_CLI_CLOSED, 0);
		return 1;
	}
	return 0;
}

/* PARAMS -> ACCEPT (or REJECT), then our end of the test. */
static int
client_params(struct nb_peer *pr, struct nb_ctl_params *params)
{
	enum nb_cli_event ev = NB_CLI_E_NONE;
	struct nb_ctl_msg m;
	char why[256];

	fill_params(pr, params);
	pr->params = *params;
	nb_cli_set(&pr->cli, NB_CLI_PARAMS, 0);
	nb_ctl_msg_init(&m, NB_CTL_PARAMS, pr->session);
	m.u.params = *params;
	if (nb_peer_send(pr, &m) != 0 || client_wait(pr, &ev) != 0)
		return fail(pr, "%s", "the responder stopped answering");
	if (ev != NB_CLI_E_ACCEPT) {
		/* end the session, so the responder serves the next one
		 * (BUSY: it opened none for us) */
		nb_cli_set(&pr->cli, NB_CLI_RUNNING, 0);
		if (ev != NB_CLI_E_BUSY)
			client_close(pr, NB_CTL_DONE);
		nb_escape(ev == NB_CLI_E_REJECT ? pr->inbox.u.reject.reason
			  : ev == NB_CLI_E_BUSY ? pr->inbox.u.busy.reason
						: pr->inbox.u.error.reason,
			  NB_CTL_REASON_STR, why, sizeof(why));
		return fail(pr,
			    ev == NB_CLI_E_BUSY
				    ? "the responder is busy: %s"
				    : "the responder rejected the test: %s",
			    why);
	}
	nb_cli_set(&pr->cli, NB_CLI_RUNNING, 0);
	if (nb_peertest_setup(pr, params, why, sizeof(why)) != 0) {
		client_close(pr, NB_CTL_DONE);
		return fail(pr, "%s", why);
	}
	return 0;
}

/*
 * A few keepalive rounds: the responder's clock offset.  One-way latency
 * is receive time minus send time, each on its own host's clock.  On one
 * host (same boot id) there is one clock.  Otherwise each receiver moves
 * its receive times onto the sender's clock with the estimated offset
 * (responder - us): we add it, the responder subtracts it.
 */
static int
client_clock(struct nb_peer *pr, int64_t *theta)
{
	struct nb_ctl_msg m;
	unsigned int k;

	for (k = 0; k < 8; k++) {
		uint32_t before = pr->off.samples;
		uint64_t until;

		nb_ctl_msg_init(&m, NB_CTL_KEEPALIVE, pr->session);
		m.u.ka.sender_ns = nb_peer_now(pr);
		if (nb_peer_send(pr, &m) != 0 || client_flush(pr) != 0)
			return -1;
		until = nb_peer_now(pr) + 20 * NB_MS;
		while (pr->off.samples == before && nb_peer_now(pr) < until) {
			nb_ctlio_poll(&pr->io);
			nb_peer_nap(pr);
		}
	}
	*theta = 0;
	if (same_host(pr) && pr->theirs.tsc_hz != 0) {
		snprintf(pr->method, sizeof(pr->method),
			 "one-way, same host (boot ids match): one clock, "
			 "read at the responder's TSC frequency; the "
			 "control exchange put the offset at %+.3f us "
			 "+-%.3f us",
			 pr->off.offset_ns / 1e3, pr->off.bound_ns / 1e3);
	} else if (pr->off.samples) {
		*theta = pr->off.offset_ns;
		snprintf(pr->method, sizeof(pr->method),
			 "one-way; the responder's clock offset %+.3f us "
			 "(+-%.3f us, best of %u control round trips) "
			 "corrected: latencies are good to that bound",
			 pr->off.offset_ns / 1e3, pr->off.bound_ns / 1e3,
			 pr->off.samples);
	} else {
		snprintf(pr->method, sizeof(pr->method),
			 "one-way; no clock offset measured: assumes a shared "
			 "clock");
	}
	pr->app->run.rx_offset_ns = *theta;
	pr->app->result.latency_method = pr->method;
	return 0;
}

/* Whether the running test is over on our side (1), by its own rules. */
static int
test_over(struct nb_peer *pr, const struct nb_ctl_params *p, uint64_t tsc,
	  uint64_t *last_rx, uint64_t *idle_since)
{
	const struct nb_app *app = pr->app;
	uint64_t hz = nb_tsc_hz();
	int sends = p->direction != NB_CTL_DIR_REVERSE;
	int receives = p->direction != NB_CTL_DIR_FORWARD;
	struct nb_jobs_totals t;

	if (app->cfg.pingpong) /* probes only: for --time */
		return tsc >= app->run.end_tsc;
	nb_jobs_totals(&app->jobs, &t);
	if (sends && !t.tx_done)
		return 0;
	/* Our senders are done (or we have none).  When the responder sends
	 * too: by time, until the end; by count, until its frames came, or
	 * went quiet for a second (or never came: the peer timeout after the
	 * start). */
	if (!receives)
		return 1;
	if (app->run.end_tsc != UINT64_MAX)
		return tsc >= app->run.end_tsc;
	if (t.rx_data >= p->packets)
		return 1;
	if (t.rx_data != *last_rx) {
		*last_rx = t.rx_data;
		*idle_since = tsc;
		return 0;
	}
	if (t.rx_data > 0)
		return tsc - *idle_since > hz;
	return tsc > app->run.start_tsc &&
	       tsc - app->run.start_tsc >
		       (uint64_t)(app->cfg.peer_timeout * hz) + hz;
}

/* START, then keepalives until the test is over; 1 when interrupted,
 * -1 when the responder is gone (partial results were reported). */
static int
client_run(struct nb_peer *pr, const struct nb_ctl_params *p, int *code)
{
	struct nb_app *app = pr->app;
	uint64_t next_ka, idle_since = 0, last_rx = 0, seen = 0, since = 0;
	int sends = p->direction != NB_CTL_DIR_REVERSE, announced = 0;
	struct nb_ctl_msg m;
	int64_t theta;

	if (client_clock(pr, &theta) != 0)
		goto gone;
	pr->nap_short = 0; /* the test runs: leave the CPU to workers */
	/* START at an agreed time: now + the delay, on both sides. */
	nb_ctl_msg_init(&m, NB_CTL_START, pr->session);
	/* -theta without overflow at INT64_MIN */
	m.u.start.rx_offset_ns = (int64_t)(0 - (uint64_t)theta);
	m.u.start.delay_ms = NB_PEER_START_DELAY_MS;
	if (nb_peer_send(pr, &m) != 0)
		goto gone;
	nb_peertest_arm(pr, NB_PEER_START_DELAY_MS * NB_MS);
	if (client_flush(pr) != 0)
		goto gone;
	/* Running: keepalives both prove the responder alive and carry
	 * RTT. */
	next_ka = nb_peer_now(pr) + NB_PEER_KEEPALIVE_NS;
	for (;;) {
		uint64_t tsc = rte_get_tsc_cycles();

		nb_ctlio_poll(&pr->io);
		if (nb_peer_service(pr) != 0) {
			*code = client_partial(pr, "the responder stopped "
						   "answering during the test");
			return -1;
		}
		/* say so when the test has started on both ends */
		if (!announced && tsc >= app->run.start_tsc) {
			announced = 1;
			app->result.start_time = (int64_t)time(NULL);
			if (!pr->in_suite) { /* a suite has its own */
				nb_client_report_header(pr, p);
				nb_out_begin_with(&app->out, &app->result,
						  nb_client_start_json(pr, p));
			}
		}
		if (announced)
			nb_peerivs_tick(pr);
		if (nb_force_quit)
			return 1;
		if (pr->event == NB_CLI_E_ABORT) {
			*code = client_partial(pr, "");
			return -1;
		}
		if (nb_peer_now(pr) >= next_ka && !pr->link.pending) {
			nb_ctl_msg_init(&m, NB_CTL_KEEPALIVE, pr->session);
			m.u.ka.sender_ns = nb_peer_now(pr);
			nb_peer_send(pr, &m);
			next_ka = nb_peer_now(pr) + NB_PEER_KEEPALIVE_NS;
		}
		if (test_over(pr, p, tsc, &last_rx, &idle_since)) {
			nb_peerivs_sample(pr); /* the edge at the end */
			return 0;
		}
		if (sends && nb_run_tx_stalled(app, tsc, &seen, &since)) {
			NB_LOG(ERR,
			       "the port accepted no frame for %d s; "
			       "stopping",
			       NB_TX_STALL_S);
			return 0;
		}
		nb_peer_nap(pr);
	}
gone:
	*code = client_partial(pr, "the responder stopped answering");
	return -1;
}

/* Every RESULTS part of the responder's blob, reassembled and parsed. */
static int
fetch_results(struct nb_peer *pr, struct nb_ctl_results_hdr *h,
	      struct nb_ctl_stream_res *s, uint32_t *n)
{
	uint32_t part = 0, parts = 1, total = 0, max = pr->app->cfg.streams;
	const struct nb_ctl_results *res = &pr->inbox.u.res;
	enum nb_cli_event ev;
	struct nb_ctl_msg m;
	uint8_t *blob = NULL;
	int ret = -ETIMEDOUT;

	do {
		nb_cli_set(&pr->cli, NB_CLI_RESULTS, part);
		nb_ctl_msg_init(&m, NB_CTL_RESULTS_REQ, pr->session);
		m.u.rreq.part = part;
		if (nb_peer_send(pr, &m) != 0 || client_wait(pr, &ev) != 0 ||
		    ev != NB_CLI_E_RESULTS)
			goto out;
		if (blob == NULL) {
			parts = res->nb_parts;
			total = res->total_len;
			/* no more than our streams' worth of results */
			ret = -EPROTO;
			if (total >
			    NB_CTL_RESULTS_HDR_LEN +
				    (size_t)max * (NB_CTL_STREAM_RES_LEN +
						   10u * NB_HIST_BUCKETS))
				goto out;
			ret = -ENOMEM;
			blob = malloc(total ? total : 1);
			if (blob == NULL)
				goto out;
		}
		ret = -EPROTO;
		if (nb_ctl_results_put(blob, total, res) != 0)
			goto out;
	} while (++part < parts);
	ret = nb_ctl_results_read(blob, total, h, s, max, n);
out:
	nb_cli_set(&pr->cli, NB_CLI_RUNNING, 0);
	free(blob);
	return ret;
}

/* A fresh session: unpredictable id, first seq and nonce (the kernel's
 * CSPRNG); 0 or -1. */
static int
new_session(struct nb_peer *pr)
{
	if (nb_auth_random(&pr->session, sizeof(pr->session)) != 0 ||
	    nb_auth_random(pr->cn, sizeof(pr->cn)) != 0)
		return -1;
	nb_link_reset(&pr->link);
	if (nb_auth_random(&pr->link.next_seq, sizeof(pr->link.next_seq)) !=
	    0)
		return -1;
	pr->session |= 1;
	if (pr->link.next_seq == 0)
		pr->link.next_seq = 1;
	memset(&pr->auth, 0, sizeof(pr->auth));
	pr->event = NB_CLI_E_NONE;
	pr->stopping = 0;
	nb_offset_init(&pr->off);
	nb_cli_init(&pr->cli, pr->session, pr->peer_ip);
	pr->nap_short = 1;
	return 0;
}

/*
 * One session, HELLO to DONE: 0 with the responder's results in h and res
 * (*code 1 when interrupted); 1 when it ended otherwise (--quit or --conf
 * done, a failure reported) with *code the exit code.
 */
static int
client_session(struct nb_peer *pr, struct nb_ctl_params *params,
	       struct nb_ctl_results_hdr *h, struct nb_ctl_stream_res *res,
	       int *code)
{
	struct nb_app *app = pr->app;
	struct nb_ctl_msg m;
	uint32_t nres = 0;
	int ret, interrupted;

	if (new_session(pr) != 0) {
		*code = fail(pr, "%s", "cannot read random bytes");
		return 1;
	}
	/* --quit and --conf end with the HELLO exchange */
	if (client_hello(pr, code))
		return 1;
	*code = client_params(pr, params);
	if (*code != 0)
		return 1;
	ret = client_run(pr, params, code);
	if (ret < 0)
		return 1;
	interrupted = ret;
	/* STOP: the responder stops its senders and drains; so do we. */
	pr->stopping = 1;
	client_flush(pr);
	nb_ctl_msg_init(&m, NB_CTL_STOP, pr->session);
	if (nb_peer_send(pr, &m) != 0) {
		*code = client_partial(pr, "the responder stopped answering");
		return 1;
	}
	nb_peertest_stop(pr);
	if (client_flush(pr) != 0) {
		*code = client_partial(pr, "the responder stopped answering");
		return 1;
	}
	app->result.interrupted = interrupted;
	if (fetch_results(pr, h, res, &nres) != 0 ||
	    nres != app->cfg.streams) {
		nb_result_finish(&app->result);
		*code = client_partial(pr, "could not fetch the responder's "
					   "results");
		return 1;
	}
	client_close(pr, NB_CTL_DONE);
	*code = interrupted;
	return 0;
}

/* A suite's trial: one session at the trial's rate and length. */
static struct nb_result trial_result;

static int
peer_trial(void *ctx, struct nb_app *app, uint64_t rate_num, uint64_t rate_den,
	   uint64_t packets, const struct nb_result **r, char *err,
	   size_t errlen)
{
	struct nb_peer *pr = ctx;
	struct nb_ctl_stream_res *res = calloc(app->cfg.streams, sizeof(*res));
	struct nb_ctl_results_hdr h;
	struct nb_ctl_params params;
	int code = 0;

	app->rate.unlimited = rate_num == 0;
	app->rate.pps_num = rate_num;
	app->rate.pps_den = rate_num ? rate_den : 1;
	app->total_packets = packets;
	app->result.error[0] = '\0';
	if (res == NULL || client_session(pr, &params, &h, res, &code) != 0) {
		snprintf(err, errlen, "%s",
			 res == NULL		  ? "out of memory"
			 : app->result.error[0] ? app->result.error
						  : "the session with the "
						    "responder failed");
		free(res);
		nb_peertest_free(pr);
		return -1;
	}
	nb_client_result(pr, &params, &h, res, &trial_result);
	free(res);
	*r = &trial_result;
	return 0;
}

static void
peer_trial_done(void *ctx, struct nb_app *app)
{
	(void)app;
	nb_result_free(&trial_result);
	nb_peertest_free(ctx);
}

int
nb_client_main(struct nb_app *app)
{
	static struct nb_peer pr;
	struct nb_config *cfg = &app->cfg;
	struct nb_ctl_results_hdr h;
	struct nb_ctl_stream_res *res = NULL;
	struct nb_ctl_params params;
	uint64_t link_bps;
	int ret, code = 0;

	memset(&pr, 0, sizeof(pr));
	pr.on_msg = on_msg;
	/* interval lines come from the control lcore (nb_peerivs.c), none
	 * with --pingpong; no progress line */
	app->out.progress = 0;
	if (cfg->pingpong)
		app->out.intervals = 0;
	memcpy(pr.peer_mac, cfg->peer_mac, 6);
	pr.peer_ip = cfg->peer_is_ip   ? cfg->peer_ip
		     : cfg->dst_ip_set ? cfg->dst_ip
				       : NB_DEFAULT_DST_IP;
	ret = nb_peer_open(&pr, app, 1, cfg->have_ip ? cfg->ip : cfg->src_ip);
	if (ret != 0)
		return ret;
	if (cfg->peer_is_ip && nb_peer_resolve(&pr) != 0) {
		code = fail(&pr, "%s",
			    "no ARP answer from the --peer address (is a "
			    "responder there, on this link?)");
		goto out;
	}
	link_bps = (uint64_t)app->ports[0].desc.link_speed * 1000000;
	if (cfg->suite || cfg->sweep.n) {
		struct nb_suite_runner run = {peer_trial, peer_trial_done,
					      &pr};

		/* each trial a session; failures go to the suite's report */
		pr.in_suite = 1;
		code = nb_suite_main(app, link_bps, "peer", &run);
		goto out;
	}
	ret = nb_run_resolve(app, link_bps);
	if (ret != 0) {
		nb_app_error(app, "cannot resolve --rate%s",
			     ret == -ENOTSUP
				     ? ": the port reports no link speed "
				       "for a percentage"
				     : "");
		code = 2;
		goto out;
	}
	res = calloc(cfg->streams, sizeof(*res));
	if (res == NULL) {
		code = fail(&pr, "%s", "out of memory");
		goto out;
	}
	if (client_session(&pr, &params, &h, res, &code) == 0)
		code = nb_client_report(&pr, &params, &h, res, cfg->streams) !=
			       0 ||
		       code;
out:
	free(res);
	nb_peertest_free(&pr);
	nb_peer_close(&pr);
	return code;
}
