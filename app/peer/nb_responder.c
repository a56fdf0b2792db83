/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The responder: dpdk-nbench with no test options, like `iperf3 -s`.  It
 * serves one client at a time; which message is taken in which state is
 * nb_rsp's decision (app/core/nb_peer_sm.c), this file carries it out.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "nb_drivers.h"
#include "nb_log.h"
#include "nb_mesh_peer.h"
#include "nb_peer_iv_io.h"
#include "nb_peertest.h"
#include "nb_phase.h"
#include "nb_port.h"
#include "nb_responder.h"
#include "nb_rsp_posture.h"
#include "nb_setup.h"

#define NB_QUIT_REFUSED                                                        \
	"QUIT refused: this responder honours QUIT only with --allow-quit"

/* HELLOs answered, and PARAMS/QUITs that may open a session (each costs
 * a few HMACs): per source, and from all sources together */
#define NB_HELLO_RATE	   10
#define NB_HELLO_BURST	   10
#define NB_HELLO_RATE_ALL  10000
#define NB_HELLO_BURST_ALL 1000
#define NB_OPEN_RATE	   20
#define NB_OPEN_BURST	   20
#define NB_OPEN_RATE_ALL   2000
#define NB_OPEN_BURST_ALL  200
/* a session vouched for (nb_policy.h) has NB_OPEN_RATE/BURST of its own
 * for its HELLOs, PARAMS and QUIT */

/* Tell the client at once rather than let it time out. */
static void
abort_session(struct nb_peer *pr, const char *why)
{
	struct nb_ctl_msg e;

	nb_ctl_msg_init(&e, NB_CTL_ERROR, pr->session);
	e.seq = pr->link.next_seq;
	e.u.error.code = NB_CTL_CODE_INTERNAL;
	snprintf(e.u.error.reason, sizeof(e.u.error.reason), "%s", why);
	nb_peer_send_raw(pr, &e, pr->peer_mac, pr->peer_ip, pr->peer_ip6,
			 &pr->auth);
}

static void
end_session(struct nb_peer *pr, const char *why)
{
	if (why != NULL)
		NB_LOG(INFO, "session %08x ended: %s", pr->session, why);
	nb_peertest_free(pr);
	pr->sessions_ended++;
	if (pr->app->cfg.one_off)
		pr->quit = 1;
	nb_rsp_end(&pr->rsp);
	nb_ctlio_set_peer(pr->io, NULL);
	pr->session = 0;
	pr->nap_short = 0;
	memset(&pr->auth, 0, sizeof(pr->auth));
	nb_app_phase(NB_PHASE_LISTENING);
	nb_link_reset(&pr->link);
	/* the next client says its own timeout; until then ours */
	pr->timeout_ns = pr->link.timeout =
		(uint64_t)(pr->app->cfg.peer_timeout * 1e9);
}

/*
 * The client has said it leaves (DONE with LEAVING, or QUIT).  Where its
 * leaving unmaps the rings under a poller (memif), touch the port no more
 * until the link goes down (the far end gone), 2 s at most.
 */
#define NB_HOLD_NS (2000 * NB_MS)

static void
hold_port(struct nb_peer *pr)
{
	if (!nb_driver_leave_unmaps(pr->app->ports[0].desc.driver))
		return;
	pr->hold_until = nb_peer_now(pr) + NB_HOLD_NS;
	NB_LOG(DEBUG, "the client leaves: port left alone until its link "
		      "goes down");
}

/* 1 while the port is held. */
static int
port_held(struct nb_peer *pr)
{
	if (pr->hold_until == 0)
		return 0;
	if (!nb_port_link_up(pr->app->ports[0].desc.port_id)) {
		NB_LOG(DEBUG, "link down: the client has left");
		pr->hold_until = 0;
		return 0;
	}
	if (nb_peer_now(pr) >= pr->hold_until) {
		NB_LOG(DEBUG, "the link stayed up after the client left; "
			      "polling it again");
		pr->hold_until = 0;
		return 0;
	}
	return 1;
}

/* The time bucket of the cookies: a cookie is good in its own and the
 * next one. */
static uint32_t
epoch_now(const struct nb_peer *pr)
{
	return (uint32_t)(nb_peer_now(pr) /
			  (NB_AUTH_EPOCH_SEC * 1000000000ull));
}

/*
 * Count a refusal of cause c; log it only if this cause has not been
 * logged within the last second (then with the count it held back).
 */
static void
note(struct nb_peer *pr, enum nb_refusal c, const struct nb_udp_info *u,
     const char *why)
{
	uint64_t more = 0;

	if (!nb_refusal_note(&pr->refusals, c, nb_peer_now(pr), &more))
		return;
	NB_LOG(NOTICE, "refused " NB_MAC_FMT " (%s): %s%s%.0" PRIu64 "%s",
	       NB_MAC_ARGS(u->src_mac), nb_udp_src_text(u).s,
	       why != NULL ? why : nb_refusal_name(c), more ? " [and " : "",
	       more, more ? " more of this cause in the last second]" : "");
	if (more)
		NB_LOG(DEBUG, "(%" PRIu64 " held back)", more);
}

/*
 * May a HELLO, PARAMS or QUIT go on to the checks that cost an HMAC?  A
 * session vouched for (its HELLO's tag checked) spends its own tokens;
 * any other its source's and everyone's (lim).  Refused: counted as
 * rate-limited, unanswered.
 */
static int
may_check(struct nb_peer *pr, struct nb_srclimit *lim,
	  const struct nb_udp_info *u, uint32_t session, uint64_t now)
{
	if (nb_policy_may_check(&pr->vouched, lim, u->src_mac, u->src_ip,
				session, now))
		return 1;
	note(pr, NB_REF_RATE, u, NULL);
	return 0;
}

/*
 * An answer to a datagram of no open session: never longer than that
 * datagram (an attacker on the segment must not be able to make us
 * amplify what it sends to a forged address), and never to a group
 * address (it would reach every host).  0 sent, -1 dropped.
 */
static int
answer(struct nb_peer *pr, const struct nb_udp_info *u, struct nb_ctl_msg *r,
       const struct nb_auth *a)
{
	int len;

	r->tagged = a != NULL;
	if (!nb_policy_answerable_u(u)) {
		note(pr, NB_REF_POLICY, u, "no answer to a group address");
		return -1;
	}
	len = nb_ctl_encoded_len(r);
	if (len < 0 || (size_t)len > u->payload_len) {
		note(pr, NB_REF_AMPLIFY, u, NULL);
		return -1;
	}
	nb_peer_send_raw(pr, r, u->src_mac, u->src_ip, u->src_ip6, a);
	return 0;
}

/* A refusal outside any session: REJECT (untagged unless a is given). */
static void
refuse(struct nb_peer *pr, const struct nb_udp_info *u, uint32_t session,
       uint32_t seq, uint16_t code, enum nb_refusal cause, const char *why,
       const struct nb_auth *a)
{
	struct nb_ctl_msg r;

	nb_ctl_msg_init(&r, NB_CTL_REJECT, session);
	r.seq = seq;
	r.u.reject.code = code;
	snprintf(r.u.reject.reason, sizeof(r.u.reject.reason), "%s", why);
	note(pr, cause, u, why);
	answer(pr, u, &r, a);
}

static void
answer_busy(struct nb_peer *pr, const struct nb_udp_info *u,
	    const struct nb_ctl_msg *m, const struct nb_auth *a)
{
	struct nb_ctl_msg r;

	nb_ctl_msg_init(&r, NB_CTL_BUSY, m->session);
	r.seq = 1;
	/* the asker's own session: never the one that holds us */
	r.u.busy.asked_session = m->session;
	snprintf(r.u.busy.reason, sizeof(r.u.busy.reason),
		 "busy with a test for another client");
	note(pr, NB_REF_BUSY, u, "busy with another client");
	answer(pr, u, &r, a);
}

/*
 * Does the HELLO carry its sender's proof of our key (a keyed responder)
 * or the keyless tag (--no-auth)?  0 yes; else refused here, -1.
 */
static int
hello_key_ok(struct nb_peer *pr, const struct nb_udp_info *u,
	     const struct nb_ctl_msg *m)
{
	const struct nb_config *cfg = &pr->app->cfg;
	int has_key = (m->u.conf.flags & NB_CTL_CONF_F_KEY) != 0;
	int keyed =
		nb_rsp_who(NB_CTL_HELLO, pr->rsp.posture) == NB_WHO_KEY_HOLDER;
	struct nb_auth a;

	if (keyed && !has_key) {
		refuse(pr, u, m->session, 1, NB_CTL_CODE_AUTH, NB_REF_NO_KEY,
		       "this responder serves key holders only: give the "
		       "client --auth-key FILE, a copy of the key its start-up "
		       "line names",
		       NULL);
		return -1;
	}
	if (!keyed && has_key) {
		refuse(pr, u, m->session, 1, NB_CTL_CODE_AUTH, NB_REF_KEYED,
		       "this responder has no key (--no-auth): run the client "
		       "without --auth-key",
		       NULL);
		return -1;
	}
	nb_auth_hello_key(&a, cfg->psk, cfg->psk_len, m->u.conf.nonce,
			  m->session);
	if (nb_auth_verify(&a, u->payload, u->payload_len))
		return 0;
	if (keyed)
		refuse(pr, u, m->session, 1, NB_CTL_CODE_AUTH, NB_REF_BAD_KEY,
		       "wrong key: the client's --auth-key is not this "
		       "responder's",
		       NULL);
	else
		note(pr, NB_REF_BAD_KEY, u, "a keyless HELLO with a bad tag");
	return -1;
}

/*
 * A HELLO: WELCOME with a cookie, keeping no state, so that forged HELLOs
 * cost one frame each and hold nothing.  Its tag comes first: a keyed
 * responder tells nothing about itself to a sender without the key.  The
 * cookie carries fresh random bytes, so no two WELCOMEs (and no two
 * sessions' keys) are alike.  The session opens on a PARAMS (or QUIT)
 * that brings the cookie back from the HELLO's own address.
 */
static void
answer_hello(struct nb_peer *pr, const struct nb_udp_info *u,
	     const struct nb_ctl_msg *m)
{
	const struct nb_config *cfg = &pr->app->cfg;
	uint8_t rn[NB_AUTH_RN];
	struct nb_ctl_msg r;
	struct nb_auth a;
	char why[NB_CTL_REASON_STR];
	uint32_t seq0;

	if (!may_check(pr, &pr->hello_lim, u, m->session, nb_peer_now(pr)))
		return;
	if (nb_policy_peer_u(cfg, u, why, sizeof(why)) != 0) {
		refuse(pr, u, m->session, 1, NB_CTL_CODE_POLICY, NB_REF_POLICY,
		       why, NULL);
		return;
	}
	if (hello_key_ok(pr, u, m) != 0 || nb_auth_random(rn, sizeof(rn)) != 0)
		return;
	/* its tag checked under the key: this session's next messages no
	 * longer compete with forged ones (a keyless responder vouches for
	 * nobody: anyone may say HELLO to it) */
	if (cfg->psk_len != 0)
		nb_vouched_add(&pr->vouched, u->src_mac, u->src_ip, m->session,
			       nb_peer_now(pr));
	nb_ctl_msg_init(&r, NB_CTL_WELCOME, m->session);
	r.u.conf = pr->mine;
	nb_auth_cookie(pr->secret, epoch_now(pr), u->src_mac, u->src_ip,
		       m->session, m->u.conf.nonce, rn, r.u.conf.nonce, &seq0);
	r.seq = seq0;
	nb_auth_derive(&a, cfg->psk, cfg->psk_len, m->u.conf.nonce,
		       r.u.conf.nonce, m->session);
	answer(pr, u, &r, &a);
	NB_LOG(DEBUG, "WELCOME to %s session %08x", nb_udp_src_text(u).s,
	       m->session);
}

/*
 * A PARAMS or QUIT of a new session.  Cheap checks first (its source's
 * rate, the address, the sessions already opened), then its cookie must
 * be the one we gave this address, then its tag must check under the
 * session key; only then the session opens, bound to that MAC and IPv4,
 * and is remembered so that the same flight sent again cannot open it a
 * second time.  0 when open.
 */
static int
open_session(struct nb_peer *pr, const struct nb_udp_info *u,
	     const struct nb_ctl_msg *m)
{
	const struct nb_config *cfg = &pr->app->cfg;
	const struct nb_ctl_proof *pf =
		m->type == NB_CTL_PARAMS ? &m->u.params.proof : &m->u.quit;
	uint64_t now = nb_peer_now(pr);
	char why[NB_CTL_REASON_STR];
	struct nb_auth a;
	uint32_t seq0;

	if (!may_check(pr, &pr->open_lim, u, m->session, now))
		return -1;
	if (nb_policy_peer_u(cfg, u, why, sizeof(why)) != 0) {
		note(pr, NB_REF_POLICY, u, why);
		return -1;
	}
	/* a replayed flight, or a late retransmission of the PARAMS of a
	 * session that has ended: never opened twice */
	if (nb_auth_seen_has(&pr->seen, m->session, pf->client_nonce, now)) {
		pr->seen.replays++;
		note(pr, NB_REF_REPLAY, u,
		     "a session that was opened already (replayed?)");
		return -1;
	}
	if (!nb_auth_cookie_ok(pr->secret, epoch_now(pr), u->src_mac, u->src_ip,
			       m->session, pf->client_nonce, pf->cookie,
			       &seq0)) {
		note(pr, NB_REF_COOKIE, u, NULL);
		return -1;
	}
	nb_auth_derive(&a, cfg->psk, cfg->psk_len, pf->client_nonce, pf->cookie,
		       m->session);
	if (!nb_auth_verify(&a, u->payload, u->payload_len)) {
		note(pr, NB_REF_TAG, u,
		     cfg->psk_len ? "a tag that fails (wrong --auth-key?)"
				  : "a tag that fails (forged?)");
		return -1;
	}
	if (m->type == NB_CTL_QUIT &&
	    nb_rsp_who(NB_CTL_QUIT, pr->rsp.posture) == NB_WHO_NOBODY) {
		refuse(pr, u, m->session, seq0 + 1 ? seq0 + 1 : 1,
		       NB_CTL_CODE_POLICY, NB_REF_QUIT, NB_QUIT_REFUSED, &a);
		return -1;
	}
	if (nb_rsp_open(&pr->rsp, m->session) != 0) {
		answer_busy(pr, u, m, &a);
		return -1;
	}
	if (nb_auth_seen_add(&pr->seen, m->session, pf->client_nonce, now) !=
	    0) {
		nb_rsp_end(&pr->rsp);
		note(pr, NB_REF_FULL, u,
		     "too many sessions within a cookie's life");
		return -1;
	}
	nb_link_reset(&pr->link);
	/* the WELCOME was seq0: our next message follows it */
	pr->link.next_seq = seq0 + 1 ? seq0 + 1 : 1;
	pr->auth = a;
	pr->session = m->session;
	memcpy(pr->peer_mac, u->src_mac, 6);
	nb_peer_addr_take(pr, u);
	nb_ctlio_set_peer(pr->io, pr->peer_mac);
	nb_app_phase(NB_PHASE_SESSION);
	pr->opened_ns = now;
	pr->last_heard = pr->opened_ns;
	pr->nap_short = 1;
	pr->sessions_opened++;
	/* the session's test has the client's id on both ends */
	nb_app_set_cookie(pr->app, pf->client_nonce, sizeof(pf->client_nonce));
	NB_LOG(INFO, "session %08x opened: client " NB_MAC_FMT " (%s)%s",
	       m->session, NB_MAC_ARGS(u->src_mac), nb_udp_src_text(u).s,
	       cfg->psk_len ? ", authenticated" : "");
	return 0;
}

static void
setup_test(struct nb_peer *pr, const struct nb_ctl_params *p)
{
	struct nb_ctl_msg r;
	uint64_t t0 = nb_peer_now(pr);
	char why[128];
	int ok;

	pr->params = *p;
	pr->peer_macs = p->client_macs; /* used only once accepted */
	pr->timeout_ns = pr->link.timeout =
		nb_rsp_session_timeout(&pr->app->cfg, p->peer_timeout_ms, &ok);
	NB_LOG(INFO, "session %08x: the client waits %.1f s for us; %s %.1f s",
	       pr->session, p->peer_timeout_ms / 1e3,
	       ok ? "this responder keeps a silent session at most"
		  : "we wait for it",
	       (double)pr->timeout_ns / 1e9);
	ok = nb_rsp_check_params(pr->app, p, why, sizeof(why)) == 0 &&
	     nb_policy_vlan(&pr->app->cfg, pr->own_vlan, p->vlan_id, why,
			    sizeof(why)) == 0 &&
	     nb_policy_params(&pr->app->cfg, p,
			      pr->app->ports[0].desc.link_speed, why,
			      sizeof(why)) == 0 &&
	     nb_peertest_setup(pr, p, why, sizeof(why)) == 0;
	nb_rsp_setup_done(&pr->rsp, ok);
	NB_LOG(DEBUG, "test set up in %.1f ms%s",
	       (double)(nb_peer_now(pr) - t0) / 1e6, ok ? "" : " (refused)");
	if (!ok) {
		nb_ctl_msg_init(&r, NB_CTL_REJECT, pr->session);
		r.u.reject.code = NB_CTL_CODE_PARAMS;
		snprintf(r.u.reject.reason, sizeof(r.u.reject.reason), "%s",
			 why);
		NB_LOG(NOTICE, "rejected the test: %s", why);
		nb_peer_send(pr, &r);
		return;
	}
	nb_ctl_msg_init(&r, NB_CTL_ACCEPT, pr->session);
	r.u.accept.rx_queues = pr->app->cfg.queues;
	r.u.accept.responder_macs.n = (uint8_t)nb_port_other_src_macs(
		pr->io->port, r.u.accept.responder_macs.mac, NB_CTL_MACS_MAX);
	/* as set up for this test (--hw-rate: nb_run_prepare's verdict) */
	r.u.accept.offload = pr->app->ports[0].offload;
	nb_setup_numa_brief(pr->app, !p->tcp, &r.u.accept.numa);
	nb_peer_send(pr, &r);
}

/* Echo the client's time with ours: its clock offset. */
static void
echo_clock(struct nb_peer *pr, const struct nb_ctl_msg *m)
{
	uint64_t t2 = nb_peer_now(pr);
	struct nb_ctl_msg r;

	nb_ctl_msg_init(&r, NB_CTL_KEEPALIVE, pr->session);
	r.seq = 1;
	r.u.ka.echo_ns = m->u.ka.sender_ns;
	r.u.ka.sender_ns = nb_peer_now(pr);
	r.u.ka.echo_delay_ns = r.u.ka.sender_ns - t2;
	if (r.u.ka.echo_ns == 0)
		r.u.ka.echo_delay_ns = 0;
	nb_peer_send_raw(pr, &r, pr->peer_mac, pr->peer_ip, pr->peer_ip6,
			 &pr->auth);
}

/*
 * Admission: what nb_rsp_gate decides for a message, carried out.  0 when
 * the message goes on to the session (its tag checked, a new session
 * opened for it); -1 when it was answered, refused or dropped here.
 */
static int
admit(struct nb_peer *pr, const struct nb_udp_info *u,
      const struct nb_ctl_msg *m)
{
	int from_peer = memcmp(u->src_mac, pr->peer_mac, 6) == 0 &&
			nb_peer_addr_is(pr, u);

	switch (nb_rsp_gate(&pr->rsp, m, from_peer)) {
	case NB_RSP_DROP:
		if (m->type == NB_CTL_HELLO && !m->tagged)
			note(pr, NB_REF_UNTAGGED, u,
			     "an untagged HELLO (a client older than "
			     "protocol 9?)");
		return -1;
	case NB_RSP_FOREIGN:
		note(pr, NB_REF_FOREIGN, u, NULL);
		NB_LOG(DEBUG,
		       "%s of session %08x from %s: not the session's "
		       "client, ignored",
		       nb_ctl_type_name(m->type), m->session,
		       nb_udp_src_text(u).s);
		return -1;
	case NB_RSP_HELLO:
		answer_hello(pr, u, m);
		return -1;
	case NB_RSP_BUSY:
		/* a keyed responder tells a stranger no more than that it
		 * wants the key, not that it is busy */
		if (!nb_srclimit_take(&pr->hello_lim, u->src_mac, u->src_ip,
				      nb_peer_now(pr)))
			note(pr, NB_REF_RATE, u, NULL);
		else if (hello_key_ok(pr, u, m) == 0)
			answer_busy(pr, u, m, NULL);
		return -1;
	case NB_RSP_OPEN:
		return open_session(pr, u, m) != 0 ? -1 : 0;
	case NB_RSP_PASS:
		if (!nb_auth_verify(&pr->auth, u->payload, u->payload_len)) {
			note(pr, NB_REF_TAG, u,
			     "a message of the session with a bad tag");
			return -1;
		}
		return 0;
	}
	return -1;
}

/* A new message of the open session: the step nb_rsp says it calls for. */
static void
act(struct nb_peer *pr, const struct nb_udp_info *u, struct nb_ctl_msg *m)
{
	struct nb_ctl_msg r;

	switch (nb_rsp_on_msg(&pr->rsp, m->type)) {
	case NB_RSP_A_SETUP:
		setup_test(pr, &m->u.params);
		/* the set-up's own time (the first session creates the
		 * pools) is ours, not the client's silence */
		pr->last_heard = nb_peer_now(pr);
		break;
	case NB_RSP_A_ARM:
		pr->app->run.rx_offset_ns = m->u.start.rx_offset_ns;
		/* a mesh: its own ports' pairs too, in the client's clock */
		pr->app->run.tx_offset_ns =
			nb_mesh_peer_on(pr) ? m->u.start.rx_offset_ns : 0;
		nb_peertest_arm(pr, (uint64_t)m->u.start.delay_ms * NB_MS);
		pr->nap_short = 0; /* the test runs: leave the CPU to workers */
		break;
	case NB_RSP_A_ECHO:
		echo_clock(pr, m);
		break;
	case NB_RSP_A_STOP:
		nb_peertest_stop(pr);
		if (nb_peertest_blob(pr) != 0)
			NB_LOG(ERR, "cannot build results");
		/* the workers have stopped: poll often for the results'
		 * exchange, which now reads the RX queues itself */
		pr->nap_short = 1;
		break;
	case NB_RSP_A_RESULTS:
		if (pr->blob == NULL)
			break;
		/* every interval reaches the client before the results */
		nb_peer_iv_io_flush(pr);
		nb_ctl_msg_init(&r, NB_CTL_RESULTS, pr->session);
		if (nb_ctl_results_chunk(&r, pr->blob, pr->blob_len,
					 m->u.rreq.part) == 0)
			nb_peer_send(pr, &r);
		break;
	case NB_RSP_A_END:
		pr->sessions_done++;
		end_session(pr, "done");
		if (m->u.done.flags & NB_CTL_DONE_F_LEAVING)
			hold_port(pr);
		break;
	case NB_RSP_A_REFUSE:
		/* a QUIT inside a session obeys the same rule as one that
		 * opens a session: the session goes on */
		note(pr, NB_REF_QUIT, u, NB_QUIT_REFUSED);
		nb_ctl_msg_init(&r, NB_CTL_REJECT, pr->session);
		r.u.reject.code = NB_CTL_CODE_POLICY;
		snprintf(r.u.reject.reason, sizeof(r.u.reject.reason), "%s",
			 NB_QUIT_REFUSED);
		nb_peer_send(pr, &r);
		break;
	case NB_RSP_A_QUIT:
		end_session(pr, "the client asked us to quit");
		pr->quit = 1;
		hold_port(pr);
		break;
	case NB_RSP_A_NONE:
		break;
	}
}

static void
on_msg(struct nb_peer *pr, const struct nb_udp_info *u, struct nb_ctl_msg *m)
{
	if (admit(pr, u, m) != 0 || !nb_peer_accept(pr, u, m))
		return;
	act(pr, u, m);
}

/* The oldest a session may get: the longest test, plus a minute for the
 * set-up, the clock rounds and the results. */
static uint64_t
max_age_ns(const struct nb_config *cfg)
{
	return (uint64_t)((cfg->max_time + 60.0) * 1e9);
}

/*
 * The responder stops (--one-off done, QUIT, or a signal): a test a signal
 * cut short (started, or its results not yet fetched) makes the exit code
 * 1; idle, or a session whose test has not started, a signal is how a
 * responder is stopped: 0.
 */
static int
responder_exit(struct nb_peer *pr)
{
	int cut = pr->rsp.state == NB_RSP_ARMED ||
		  pr->rsp.state == NB_RSP_STOPPED;

	if (pr->rsp.state != NB_RSP_IDLE) {
		abort_session(pr, "the responder was interrupted");
		end_session(pr, "interrupted");
	}
	/* a QUIT client leaves first: closing under it would unmap its
	 * rings while it still polls them */
	while (!nb_force_quit && port_held(pr))
		nb_peer_nap(pr);
	nb_peer_close(pr);
	nb_rsp_report_refusals(&pr->refusals);
	nb_rsp_drop_key(&pr->app->cfg);
	printf("dpdk-nbench responder: exiting\n");
	return cut;
}

int
nb_responder_main(struct nb_app *app)
{
	static struct nb_peer pr;
	const struct nb_config *cfg = &app->cfg;
	const uint8_t *mac;
	int ret;

	memset(&pr, 0, sizeof(pr));
	nb_rsp_init(&pr.rsp);
	/* the test's PARAMS set cfg->vlan_id; our own is kept here */
	pr.own_vlan = app->cfg.vlan_id;
	if (!app->cfg.no_auth && app->cfg.psk_len == 0 &&
	    nb_rsp_make_key(&app->cfg) != 0)
		return 1; /* the exit code of a runtime failure */
	pr.on_msg = on_msg;
	nb_rsp_set_posture(
		&pr.rsp, (cfg->psk_len ? NB_POSTURE_KEY : 0) |
				 (cfg->allow_quit ? NB_POSTURE_ALLOW_QUIT : 0));
	ret = nb_peer_open(&pr, app, 0,
			   cfg->have_ip ? cfg->ip : NB_DEFAULT_DST_IP,
			   cfg->ip6.family == 6 ? cfg->ip6.a : NULL);
	if (ret != 0) {
		nb_rsp_drop_key(&app->cfg);
		return 1;
	}
	mac = app->ports[0].desc.mac;
	printf("dpdk-nbench responder on port %u (%s) mac " NB_MAC_FMT
	       " ip %s, control UDP port %d\n",
	       cfg->port, app->ports[0].desc.name, NB_MAC_ARGS(mac),
	       nb_addr_text(pr.io->ip, pr.io->v6 ? pr.io->ip6 : NULL).s,
	       NB_CONTROL_UDP_PORT);
	if (cfg->impair.active) {
		char spec[NB_IMPAIR_SPEC_LEN];

		nb_impair_text(&cfg->impair, spec, sizeof(spec));
		printf("impairment %s: on the data frames it receives and the "
		       "probes it reflects; each client gets the counts\n",
		       spec);
	}
	nb_rsp_say_posture(cfg);
	fflush(stdout);
	nb_rsp_watch(&pr);
	nb_app_phase(NB_PHASE_LISTENING);
	nb_srclimit_init(&pr.hello_lim, NB_HELLO_RATE, NB_HELLO_BURST,
			 NB_HELLO_RATE_ALL, NB_HELLO_BURST_ALL,
			 nb_peer_now(&pr));
	nb_srclimit_init(&pr.open_lim, NB_OPEN_RATE, NB_OPEN_BURST,
			 NB_OPEN_RATE_ALL, NB_OPEN_BURST_ALL, nb_peer_now(&pr));
	nb_vouched_init(&pr.vouched, NB_AUTH_SEEN_LIFE_SEC * 1000000000ull,
			NB_OPEN_RATE, NB_OPEN_BURST);
	while (!pr.quit && !nb_force_quit) {
		if (port_held(&pr)) {
			nb_peer_nap(&pr);
			continue;
		}
		nb_ctlio_poll(pr.io);
		if (pr.rsp.state != NB_RSP_IDLE &&
		    (nb_peer_service(&pr) != 0 ||
		     nb_peer_now(&pr) - pr.last_heard > pr.timeout_ns))
			end_session(&pr, "the client vanished");
		if (pr.rsp.state == NB_RSP_ARMED ||
		    pr.rsp.state == NB_RSP_STOPPED)
			nb_peer_iv_io_tick(&pr);
		if (pr.rsp.state != NB_RSP_IDLE &&
		    nb_peer_now(&pr) - pr.opened_ns > max_age_ns(cfg)) {
			abort_session(&pr, "the session outlived --max-time "
					   "plus 60 s");
			end_session(&pr, "too old");
		}
		nb_peer_nap(&pr);
	}
	return responder_exit(&pr);
}
