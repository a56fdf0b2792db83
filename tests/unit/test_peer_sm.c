/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the peer-mode session state machines
 * (app/core/nb_peer_sm.c).
 *
 * The state x message tables spell out every expected action and next
 * state by hand, from the protocol's rules (docs/protocol.md and the
 * responder/client of app/peer), not from the code under test.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "nb_ctl.h"
#include "nb_peer_sm.h"

#define OURS	0x5E55104Eu /* our session */
#define OTHER	0x0BADCAFEu /* another client's */
#define PEER_IP 0xC0A80102u /* 192.168.1.2 */

/* Every type of the protocol, and unknown ones around it. */
static const uint8_t types[] = {
	0,
	NB_CTL_HELLO,
	NB_CTL_WELCOME,
	NB_CTL_BUSY,
	NB_CTL_PARAMS,
	NB_CTL_ACCEPT,
	NB_CTL_REJECT,
	NB_CTL_START,
	NB_CTL_KEEPALIVE,
	NB_CTL_STOP,
	NB_CTL_RESULTS_REQ,
	NB_CTL_RESULTS,
	NB_CTL_DONE,
	NB_CTL_QUIT,
	NB_CTL_ACK,
	NB_CTL_ERROR,
	NB_CTL_INTERVAL,
	NB_CTL_TYPE_MAX,
	200,
};
#define NB_TYPES (sizeof(types) / sizeof(types[0]))

static struct nb_ctl_msg
msg(uint8_t type, uint32_t session)
{
	struct nb_ctl_msg m;

	memset(&m, 0, sizeof(m));
	m.type = type;
	m.session = session;
	m.seq = 1;
	return m;
}

/* With the authentication tag (tagged 1) or without. */
static struct nb_ctl_msg
msgt(uint8_t type, uint32_t session, int tagged)
{
	struct nb_ctl_msg m = msg(type, session);

	m.tagged = (uint8_t)tagged;
	return m;
}

/* --- responder ---------------------------------------------------------- */

/* Short names for the tables. */
#define R_IDLE	  NB_RSP_IDLE
#define R_SESSION NB_RSP_SESSION
#define R_READY	  NB_RSP_READY
#define R_ARMED	  NB_RSP_ARMED
#define R_STOPPED NB_RSP_STOPPED

struct rsp_expect {
	enum nb_rsp_action action;
	enum nb_rsp_state next;
};

struct rsp_row {
	enum nb_rsp_state from;
	struct rsp_expect e[NB_TYPES]; /* in the order of types[] */
};

#define RN(s)                                                                  \
	{                                                                      \
		NB_RSP_A_NONE, s                                               \
	}

static const struct rsp_row rsp_table[] = {
	{R_IDLE,
	 {
		 RN(R_IDLE), /* 0 */
		 RN(R_IDLE), /* HELLO: opening is the gate's job */
		 RN(R_IDLE), /* WELCOME */
		 RN(R_IDLE), /* BUSY */
		 RN(R_IDLE), /* PARAMS */
		 RN(R_IDLE), /* ACCEPT */
		 RN(R_IDLE), /* REJECT */
		 RN(R_IDLE), /* START */
		 RN(R_IDLE), /* KEEPALIVE */
		 RN(R_IDLE), /* STOP */
		 RN(R_IDLE), /* RESULTS_REQ */
		 RN(R_IDLE), /* RESULTS */
		 RN(R_IDLE), /* DONE */
		 RN(R_IDLE), /* QUIT */
		 RN(R_IDLE), /* ACK */
		 RN(R_IDLE), /* ERROR */
		 RN(R_IDLE), /* INTERVAL: the client does not send it */
		 RN(R_IDLE), /* 16 */
		 RN(R_IDLE), /* 200 */
	 }},
	{R_SESSION,
	 {
		 RN(R_SESSION),
		 RN(R_SESSION), /* HELLO: answered by the gate */
		 RN(R_SESSION),
		 RN(R_SESSION),
		 {NB_RSP_A_SETUP, R_SESSION}, /* READY once set up */
		 RN(R_SESSION),
		 RN(R_SESSION),
		 RN(R_SESSION), /* START before PARAMS */
		 {NB_RSP_A_ECHO, R_SESSION},
		 RN(R_SESSION), /* STOP before START */
		 RN(R_SESSION), /* RESULTS_REQ before STOP */
		 RN(R_SESSION),
		 {NB_RSP_A_END, R_IDLE},
		 {NB_RSP_A_QUIT, R_IDLE},
		 RN(R_SESSION),
		 RN(R_SESSION),
		 RN(R_SESSION), /* INTERVAL: the client does not send it */
		 RN(R_SESSION),
		 RN(R_SESSION),
	 }},
	{R_READY,
	 {
		 RN(R_READY),
		 RN(R_READY), /* HELLO: answered by the gate */
		 RN(R_READY),
		 RN(R_READY),
		 RN(R_READY), /* second PARAMS */
		 RN(R_READY),
		 RN(R_READY),
		 {NB_RSP_A_ARM, R_ARMED},
		 {NB_RSP_A_ECHO, R_READY},
		 RN(R_READY), /* STOP before START */
		 RN(R_READY),
		 RN(R_READY),
		 {NB_RSP_A_END, R_IDLE},
		 {NB_RSP_A_QUIT, R_IDLE},
		 RN(R_READY),
		 RN(R_READY),
		 RN(R_READY), /* INTERVAL: the client does not send it */
		 RN(R_READY),
		 RN(R_READY),
	 }},
	{R_ARMED,
	 {
		 RN(R_ARMED),
		 RN(R_ARMED), /* HELLO: answered by the gate */
		 RN(R_ARMED),
		 RN(R_ARMED),
		 RN(R_ARMED),
		 RN(R_ARMED),
		 RN(R_ARMED),
		 RN(R_ARMED), /* second START */
		 {NB_RSP_A_ECHO, R_ARMED},
		 {NB_RSP_A_STOP, R_STOPPED},
		 RN(R_ARMED), /* RESULTS_REQ before STOP */
		 RN(R_ARMED),
		 {NB_RSP_A_END, R_IDLE},
		 {NB_RSP_A_QUIT, R_IDLE},
		 RN(R_ARMED),
		 RN(R_ARMED),
		 RN(R_ARMED), /* INTERVAL: the client does not send it */
		 RN(R_ARMED),
		 RN(R_ARMED),
	 }},
	{R_STOPPED,
	 {
		 RN(R_STOPPED),
		 RN(R_STOPPED), /* HELLO: answered by the gate */
		 RN(R_STOPPED),
		 RN(R_STOPPED),
		 RN(R_STOPPED),
		 RN(R_STOPPED),
		 RN(R_STOPPED),
		 RN(R_STOPPED),
		 {NB_RSP_A_ECHO, R_STOPPED},
		 RN(R_STOPPED), /* second STOP */
		 {NB_RSP_A_RESULTS, R_STOPPED},
		 RN(R_STOPPED),
		 {NB_RSP_A_END, R_IDLE},
		 {NB_RSP_A_QUIT, R_IDLE},
		 RN(R_STOPPED),
		 RN(R_STOPPED),
		 RN(R_STOPPED), /* INTERVAL: the client does not send it */
		 RN(R_STOPPED),
		 RN(R_STOPPED),
	 }},
};

/* Every posture a responder may be started with. */
#define P_KEY  NB_POSTURE_KEY
#define P_QUIT NB_POSTURE_ALLOW_QUIT
#define P_OBEY (NB_POSTURE_KEY | NB_POSTURE_ALLOW_QUIT)

/* A responder in state s (session OURS unless idle) with posture p. */
static struct nb_rsp
rsp_in_p(enum nb_rsp_state s, unsigned int p)
{
	struct nb_rsp r;

	memset(&r, 0, sizeof(r));
	r.state = s;
	r.session = s == NB_RSP_IDLE ? 0 : OURS;
	r.posture = p;
	return r;
}

/* ... with a key and --allow-quit: the posture where a QUIT acts. */
static struct nb_rsp
rsp_in(enum nb_rsp_state s)
{
	return rsp_in_p(s, P_OBEY);
}

/*
 * The table above is the posture with --allow-quit.  Without it, a QUIT
 * in a session is refused (REFUSE) and nothing changes; every other cell
 * is the same in every posture, and the posture itself never changes.
 */
static void
test_rsp_table(void **state)
{
	size_t i, j;
	unsigned int p;

	(void)state;
	assert_int_equal(NB_CTL_TYPE_MAX, 17); /* types[] lists them all */
	assert_int_equal(sizeof(rsp_table) / sizeof(rsp_table[0]), 5);
	for (p = 0; p <= NB_POSTURE_ALL; p++)
		for (i = 0; i < sizeof(rsp_table) / sizeof(rsp_table[0]); i++) {
			const struct rsp_row *row = &rsp_table[i];

			for (j = 0; j < NB_TYPES; j++) {
				struct nb_rsp r = rsp_in_p(row->from, p);
				struct rsp_expect e = row->e[j];
				enum nb_rsp_action a;

				if (types[j] == NB_CTL_QUIT &&
				    row->from != R_IDLE && !(p & P_QUIT)) {
					e.action = NB_RSP_A_REFUSE;
					e.next = row->from;
				}
				a = nb_rsp_on_msg(&r, types[j]);
				if (a != e.action || r.state != e.next)
					fail_msg("posture %u state %s type %u: "
						 "action %d state %s, want %d "
						 "%s",
						 p,
						 nb_rsp_state_name(row->from),
						 types[j], a,
						 nb_rsp_state_name(r.state),
						 e.action,
						 nb_rsp_state_name(e.next));
				assert_int_equal(r.session,
						 e.next == NB_RSP_IDLE ? 0
								       : OURS);
				assert_int_equal(r.posture, p);
			}
		}
}

/* The open states, where a session exists. */
static const enum nb_rsp_state open_states[] = {R_SESSION, R_READY, R_ARMED,
						R_STOPPED};
#define NB_OPEN_STATES (sizeof(open_states) / sizeof(open_states[0]))

/*
 * The gate's rule, written from the words of nb_peer_sm.h (above
 * nb_rsp_gate and enum nb_rsp_gate), not from the code:
 *   HELLO: untagged -> DROP (since version 9 a HELLO carries a tag under
 *          K_hello); idle -> HELLO; a session open -> BUSY, except the
 *          open session's own HELLO from its client -> DROP.
 *   A tagged PARAMS or QUIT of a session that is not the open one -> OPEN.
 *   Otherwise: idle -> DROP; another session -> DROP; the open session ->
 *   PASS if tagged and from_peer, else FOREIGN.
 * open_one: the message carries the open session's id (never when idle).
 */
static enum nb_rsp_gate
gate_rule(int idle, uint8_t type, int open_one, int from_peer, int tagged)
{
	if (type == NB_CTL_HELLO) {
		if (!tagged)
			return NB_RSP_DROP;
		if (idle)
			return NB_RSP_HELLO;
		if (open_one && from_peer)
			return NB_RSP_DROP; /* a late retransmission */
		return NB_RSP_BUSY;
	}
	if (tagged && !open_one &&
	    (type == NB_CTL_PARAMS || type == NB_CTL_QUIT))
		return NB_RSP_OPEN;
	if (idle || !open_one)
		return NB_RSP_DROP;
	if (tagged && from_peer)
		return NB_RSP_PASS;
	return NB_RSP_FOREIGN;
}

static const char *
gate_name(enum nb_rsp_gate g)
{
	static const char *const names[] = {"DROP", "FOREIGN", "HELLO",
					    "BUSY", "OPEN",    "PASS"};

	return (unsigned int)g < 6 ? names[g] : "?";
}

/* One gate case against gate_rule; returns the outcome. */
static enum nb_rsp_gate
gate_check(enum nb_rsp_state s, uint8_t type, uint32_t session, int from_peer,
	   int tagged)
{
	struct nb_rsp r = rsp_in(s);
	struct nb_ctl_msg m = msgt(type, session, tagged);
	int idle = s == R_IDLE;
	enum nb_rsp_gate want = gate_rule(idle, type, !idle && session == OURS,
					  from_peer, tagged);
	enum nb_rsp_gate got = nb_rsp_gate(&r, &m, from_peer);

	if (got != want)
		fail_msg("state %s type %u session %s from_peer %d tagged %d: "
			 "%s, want %s",
			 nb_rsp_state_name(s), type,
			 session == OURS ? "ours" : "other", from_peer, tagged,
			 gate_name(got), gate_name(want));
	/* the gate changes nothing */
	assert_int_equal(r.state, s);
	assert_int_equal(r.session, idle ? 0 : OURS);
	return got;
}

/* Every state x type x {ours, other session} x from_peer x tagged. */
static void
test_rsp_gate_all(void **state)
{
	static const enum nb_rsp_state all[] = {R_IDLE, R_SESSION, R_READY,
						R_ARMED, R_STOPPED};
	static const uint32_t sessions[] = {OURS, OTHER};
	unsigned int seen[6] = {0}, cases = 0;
	size_t i, j, k, n;

	(void)state;
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		for (j = 0; j < NB_TYPES; j++)
			for (k = 0; k < 2; k++)
				for (n = 0; n < 4; n++) {
					/* n: from_peer (bit 0), tagged (1) */
					seen[gate_check(all[i], types[j],
							sessions[k], n & 1,
							n >> 1)]++;
					cases++;
				}
	assert_int_equal(cases, 5 * NB_TYPES * 2 * 2 * 2);
	/* every outcome occurs */
	for (i = 0; i < 6; i++)
		if (seen[i] == 0)
			fail_msg("outcome %s never seen", gate_name(i));
}

/* Cases written out one by one, as a check on gate_rule itself. */
struct gate_case {
	enum nb_rsp_state state;
	uint8_t type;
	uint32_t session;
	int from_peer, tagged;
	enum nb_rsp_gate want;
};

static const struct gate_case gate_cases[] = {
	/* idle: a tagged HELLO is answered statelessly, from anyone (its
	 * tag is checked by the caller) */
	{R_IDLE, NB_CTL_HELLO, OURS, 0, 1, NB_RSP_HELLO},
	{R_IDLE, NB_CTL_HELLO, OTHER, 1, 1, NB_RSP_HELLO},
	/* an untagged HELLO (version 8's) is dropped, in any state */
	{R_IDLE, NB_CTL_HELLO, OURS, 0, 0, NB_RSP_DROP},
	{R_IDLE, NB_CTL_HELLO, OTHER, 1, 0, NB_RSP_DROP},
	{R_SESSION, NB_CTL_HELLO, OTHER, 0, 0, NB_RSP_DROP},
	{R_ARMED, NB_CTL_HELLO, OURS, 1, 0, NB_RSP_DROP},
	/* idle: a tagged PARAMS or QUIT opens; untagged, they are dropped */
	{R_IDLE, NB_CTL_PARAMS, OURS, 0, 1, NB_RSP_OPEN},
	{R_IDLE, NB_CTL_QUIT, OTHER, 1, 1, NB_RSP_OPEN},
	{R_IDLE, NB_CTL_PARAMS, OURS, 1, 0, NB_RSP_DROP},
	{R_IDLE, NB_CTL_QUIT, OURS, 1, 0, NB_RSP_DROP},
	/* idle: nothing else, tagged or not */
	{R_IDLE, NB_CTL_START, OURS, 1, 1, NB_RSP_DROP},
	{R_IDLE, NB_CTL_DONE, OURS, 1, 1, NB_RSP_DROP},
	{R_IDLE, NB_CTL_ACK, OURS, 1, 1, NB_RSP_DROP},
	{R_IDLE, NB_CTL_KEEPALIVE, OTHER, 0, 0, NB_RSP_DROP},
	/* open: our client's messages, tagged, pass (ACKs too) */
	{R_READY, NB_CTL_START, OURS, 1, 1, NB_RSP_PASS},
	{R_ARMED, NB_CTL_ACK, OURS, 1, 1, NB_RSP_PASS},
	{R_SESSION, NB_CTL_PARAMS, OURS, 1, 1, NB_RSP_PASS},
	{R_STOPPED, NB_CTL_QUIT, OURS, 1, 1, NB_RSP_PASS},
	{R_STOPPED, 200, OURS, 1, 1, NB_RSP_PASS}, /* on_msg ignores it */
	/* open: our session, but from elsewhere or untagged */
	{R_ARMED, NB_CTL_STOP, OURS, 0, 1, NB_RSP_FOREIGN},
	{R_ARMED, NB_CTL_STOP, OURS, 1, 0, NB_RSP_FOREIGN},
	{R_READY, NB_CTL_DONE, OURS, 0, 0, NB_RSP_FOREIGN},
	{R_SESSION, NB_CTL_PARAMS, OURS, 0, 1, NB_RSP_FOREIGN},
	{R_SESSION, NB_CTL_QUIT, OURS, 1, 0, NB_RSP_FOREIGN},
	/* open: tagged HELLOs */
	{R_ARMED, NB_CTL_HELLO, OTHER, 0, 1, NB_RSP_BUSY},
	{R_ARMED, NB_CTL_HELLO, OTHER, 1, 1, NB_RSP_BUSY},
	{R_ARMED, NB_CTL_HELLO, OURS, 0, 1, NB_RSP_BUSY},
	{R_ARMED, NB_CTL_HELLO, OURS, 1, 1, NB_RSP_DROP},
	{R_ARMED, NB_CTL_HELLO, OTHER, 0, 0, NB_RSP_DROP}, /* untagged */
	/* open: another session's PARAMS/QUIT try to open (and get BUSY) */
	{R_READY, NB_CTL_PARAMS, OTHER, 0, 1, NB_RSP_OPEN},
	{R_READY, NB_CTL_QUIT, OTHER, 1, 1, NB_RSP_OPEN},
	{R_READY, NB_CTL_QUIT, OTHER, 1, 0, NB_RSP_DROP},
	/* open: anything else of another session */
	{R_STOPPED, NB_CTL_DONE, OTHER, 1, 1, NB_RSP_DROP},
	{R_STOPPED, NB_CTL_RESULTS_REQ, OTHER, 0, 0, NB_RSP_DROP},
};

static void
test_rsp_gate_cases(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(gate_cases) / sizeof(gate_cases[0]); i++) {
		const struct gate_case *c = &gate_cases[i];
		struct nb_rsp r = rsp_in(c->state);
		struct nb_ctl_msg m = msgt(c->type, c->session, c->tagged);
		enum nb_rsp_gate got = nb_rsp_gate(&r, &m, c->from_peer);
		int idle = c->state == R_IDLE;

		if (got != c->want)
			fail_msg("case %zu: %s", i, gate_name(got));
		/* and the rule used by the exhaustive test agrees */
		assert_int_equal(gate_rule(idle, c->type,
					   !idle && c->session == OURS,
					   c->from_peer, c->tagged),
				 c->want);
	}
}

/*
 * Gate, then (as the link would pass it) on_msg.  OPEN opens the session
 * (the cookie and tag checked by the caller); if that fails the caller
 * answers BUSY, here NONE.  *g, if not NULL, gets the gate's word.
 */
static enum nb_rsp_action
rsp_feed_ex(struct nb_rsp *r, uint8_t type, uint32_t session, int from_peer,
	    int tagged, enum nb_rsp_gate *g)
{
	struct nb_ctl_msg m = msgt(type, session, tagged);
	enum nb_rsp_gate gate = nb_rsp_gate(r, &m, from_peer);

	if (g != NULL)
		*g = gate;
	switch (gate) {
	case NB_RSP_OPEN:
		if (nb_rsp_open(r, m.session) != 0)
			return NB_RSP_A_NONE;
		/* fall through */
	case NB_RSP_PASS:
		return nb_rsp_on_msg(r, m.type);
	default:
		return NB_RSP_A_NONE;
	}
}

/* From our client's address, tagged. */
static enum nb_rsp_action
rsp_feed(struct nb_rsp *r, uint8_t type, uint32_t session)
{
	return rsp_feed_ex(r, type, session, 1, 1, NULL);
}

static void
test_rsp_open(void **state)
{
	struct nb_rsp r;
	size_t i;

	(void)state;
	nb_rsp_init(&r);
	assert_int_equal(r.state, NB_RSP_IDLE);
	assert_int_equal(r.session, 0);
	assert_int_equal(nb_rsp_open(&r, OURS), 0);
	assert_int_equal(r.state, NB_RSP_SESSION);
	assert_int_equal(r.session, OURS);
	/* a second open, of any session, fails and changes nothing */
	for (i = 0; i < NB_OPEN_STATES; i++) {
		r = rsp_in(open_states[i]);
		assert_int_equal(nb_rsp_open(&r, OTHER), -EBUSY);
		assert_int_equal(nb_rsp_open(&r, OURS), -EBUSY);
		assert_int_equal(r.state, open_states[i]);
		assert_int_equal(r.session, OURS);
	}
}

static void
test_rsp_happy_path(void **state)
{
	struct nb_ctl_msg m;
	enum nb_rsp_gate g;
	struct nb_rsp r;
	uint32_t part;

	(void)state;
	nb_rsp_init(&r);
	nb_rsp_set_posture(&r, P_KEY);
	/* a tagged HELLO: answered (WELCOME with a cookie), no state kept */
	m = msgt(NB_CTL_HELLO, OURS, 1);
	assert_int_equal(nb_rsp_gate(&r, &m, 0), NB_RSP_HELLO);
	assert_int_equal(nb_rsp_gate(&r, &m, 1), NB_RSP_HELLO);
	assert_int_equal(rsp_feed_ex(&r, NB_CTL_HELLO, OURS, 0, 1, &g),
			 NB_RSP_A_NONE);
	assert_int_equal(g, NB_RSP_HELLO);
	assert_int_equal(r.state, NB_RSP_IDLE);
	assert_int_equal(r.session, 0);
	/* the same HELLO untagged (version 8's): dropped */
	m = msgt(NB_CTL_HELLO, OURS, 0);
	assert_int_equal(nb_rsp_gate(&r, &m, 0), NB_RSP_DROP);
	assert_int_equal(nb_rsp_gate(&r, &m, 1), NB_RSP_DROP);
	/* a retransmitted HELLO: answered again, still no state */
	assert_int_equal(rsp_feed_ex(&r, NB_CTL_HELLO, OURS, 0, 1, &g),
			 NB_RSP_A_NONE);
	assert_int_equal(g, NB_RSP_HELLO);
	assert_int_equal(r.state, NB_RSP_IDLE);

	/* the tagged PARAMS opens the session (from_peer means nothing yet:
	 * no client is bound), then is set up */
	m = msgt(NB_CTL_PARAMS, OURS, 1);
	assert_int_equal(nb_rsp_gate(&r, &m, 0), NB_RSP_OPEN);
	assert_int_equal(nb_rsp_gate(&r, &m, 1), NB_RSP_OPEN);
	assert_int_equal(nb_rsp_open(&r, m.session), 0);
	assert_int_equal(r.state, NB_RSP_SESSION);
	assert_int_equal(r.session, OURS);
	assert_int_equal(nb_rsp_on_msg(&r, m.type), NB_RSP_A_SETUP);
	assert_int_equal(r.state, NB_RSP_SESSION);
	nb_rsp_setup_done(&r, 1);
	assert_int_equal(r.state, NB_RSP_READY);
	/* the same PARAMS retransmitted: now PASS (the link dedupes it) */
	assert_int_equal(nb_rsp_gate(&r, &m, 1), NB_RSP_PASS);
	/* our client's HELLO, late: dropped */
	assert_int_equal(rsp_feed_ex(&r, NB_CTL_HELLO, OURS, 1, 1, &g),
			 NB_RSP_A_NONE);
	assert_int_equal(g, NB_RSP_DROP);
	assert_int_equal(r.state, NB_RSP_READY);

	assert_int_equal(rsp_feed(&r, NB_CTL_KEEPALIVE, OURS), NB_RSP_A_ECHO);
	assert_int_equal(rsp_feed(&r, NB_CTL_START, OURS), NB_RSP_A_ARM);
	assert_int_equal(r.state, NB_RSP_ARMED);
	/* another client meanwhile: BUSY, nothing changes */
	assert_int_equal(rsp_feed_ex(&r, NB_CTL_HELLO, OTHER, 0, 1, &g),
			 NB_RSP_A_NONE);
	assert_int_equal(g, NB_RSP_BUSY);
	assert_int_equal(r.state, NB_RSP_ARMED);
	assert_int_equal(r.session, OURS);
	assert_int_equal(rsp_feed(&r, NB_CTL_KEEPALIVE, OURS), NB_RSP_A_ECHO);
	assert_int_equal(rsp_feed(&r, NB_CTL_STOP, OURS), NB_RSP_A_STOP);
	assert_int_equal(r.state, NB_RSP_STOPPED);
	for (part = 0; part < 3; part++)
		assert_int_equal(rsp_feed(&r, NB_CTL_RESULTS_REQ, OURS),
				 NB_RSP_A_RESULTS);
	assert_int_equal(r.state, NB_RSP_STOPPED);
	assert_int_equal(rsp_feed(&r, NB_CTL_DONE, OURS), NB_RSP_A_END);
	assert_int_equal(r.state, NB_RSP_IDLE);
	assert_int_equal(r.session, 0);
	/* the old session is gone: its messages are dropped ... */
	assert_int_equal(rsp_feed_ex(&r, NB_CTL_RESULTS_REQ, OURS, 1, 1, &g),
			 NB_RSP_A_NONE);
	assert_int_equal(g, NB_RSP_DROP);
	assert_int_equal(r.state, NB_RSP_IDLE);
	/* ... and the other client may now open one */
	assert_int_equal(rsp_feed_ex(&r, NB_CTL_HELLO, OTHER, 0, 1, &g),
			 NB_RSP_A_NONE);
	assert_int_equal(g, NB_RSP_HELLO);
	assert_int_equal(r.state, NB_RSP_IDLE);
	assert_int_equal(rsp_feed_ex(&r, NB_CTL_PARAMS, OTHER, 0, 1, &g),
			 NB_RSP_A_SETUP);
	assert_int_equal(g, NB_RSP_OPEN);
	assert_int_equal(r.state, NB_RSP_SESSION);
	assert_int_equal(r.session, OTHER);
	/* the posture stayed through the sessions */
	assert_int_equal(r.posture, P_KEY);
}

static void
test_rsp_busy(void **state)
{
	static const uint8_t openers[] = {NB_CTL_PARAMS, NB_CTL_QUIT};
	struct nb_ctl_msg m;
	enum nb_rsp_gate g;
	struct nb_rsp r;
	size_t i, j;
	int fp;

	(void)state;
	for (i = 0; i < NB_OPEN_STATES; i++) {
		r = rsp_in(open_states[i]);
		/* another client's tagged HELLO, from anywhere: BUSY;
		 * untagged: dropped */
		for (fp = 0; fp < 2; fp++) {
			m = msgt(NB_CTL_HELLO, OTHER, 1);
			assert_int_equal(nb_rsp_gate(&r, &m, fp), NB_RSP_BUSY);
			m = msgt(NB_CTL_HELLO, OTHER, 0);
			assert_int_equal(nb_rsp_gate(&r, &m, fp), NB_RSP_DROP);
		}
		/* our session's id from another address: BUSY too (whoever
		 * it is, it is not our client) */
		m = msgt(NB_CTL_HELLO, OURS, 1);
		assert_int_equal(nb_rsp_gate(&r, &m, 0), NB_RSP_BUSY);

		/* another session's tagged PARAMS/QUIT: OPEN, which fails:
		 * -EBUSY and nothing changes */
		for (j = 0; j < 2; j++)
			for (fp = 0; fp < 2; fp++) {
				m = msgt(openers[j], OTHER, 1);
				assert_int_equal(nb_rsp_gate(&r, &m, fp),
						 NB_RSP_OPEN);
				assert_int_equal(nb_rsp_open(&r, m.session),
						 -EBUSY);
				assert_int_equal(r.state, open_states[i]);
				assert_int_equal(r.session, OURS);
				assert_int_equal(rsp_feed_ex(&r, openers[j],
							     OTHER, fp, 1, &g),
						 NB_RSP_A_NONE);
				assert_int_equal(g, NB_RSP_OPEN);
				assert_int_equal(r.state, open_states[i]);
				assert_int_equal(r.session, OURS);
			}
	}
}

static void
test_rsp_foreign(void **state)
{
	struct nb_ctl_msg m;
	enum nb_rsp_gate g;
	struct nb_rsp r;
	size_t i, j;

	(void)state;
	for (i = 0; i < NB_OPEN_STATES; i++) {
		for (j = 0; j < NB_TYPES; j++) {
			if (types[j] == NB_CTL_HELLO)
				continue;
			r = rsp_in(open_states[i]);
			/* tagged, from another address */
			m = msgt(types[j], OURS, 1);
			assert_int_equal(nb_rsp_gate(&r, &m, 0),
					 NB_RSP_FOREIGN);
			/* untagged, from our client's address or not */
			m = msgt(types[j], OURS, 0);
			assert_int_equal(nb_rsp_gate(&r, &m, 1),
					 NB_RSP_FOREIGN);
			assert_int_equal(nb_rsp_gate(&r, &m, 0),
					 NB_RSP_FOREIGN);
			/* and fed through, it moves nothing: a forged DONE
			 * or QUIT does not end the session */
			assert_int_equal(
				rsp_feed_ex(&r, types[j], OURS, 0, 1, &g),
				NB_RSP_A_NONE);
			assert_int_equal(g, NB_RSP_FOREIGN);
			assert_int_equal(
				rsp_feed_ex(&r, types[j], OURS, 1, 0, &g),
				NB_RSP_A_NONE);
			assert_int_equal(g, NB_RSP_FOREIGN);
			assert_int_equal(r.state, open_states[i]);
			assert_int_equal(r.session, OURS);
		}
	}
}

static void
test_rsp_out_of_order(void **state)
{
	struct nb_rsp r;

	(void)state;
	/* START, STOP, RESULTS_REQ before PARAMS: ignored */
	nb_rsp_init(&r);
	assert_int_equal(nb_rsp_open(&r, OURS), 0);
	assert_int_equal(rsp_feed(&r, NB_CTL_START, OURS), NB_RSP_A_NONE);
	assert_int_equal(rsp_feed(&r, NB_CTL_STOP, OURS), NB_RSP_A_NONE);
	assert_int_equal(rsp_feed(&r, NB_CTL_RESULTS_REQ, OURS), NB_RSP_A_NONE);
	assert_int_equal(r.state, NB_RSP_SESSION);

	/* setup failure keeps SESSION; a later PARAMS is tried again */
	assert_int_equal(rsp_feed(&r, NB_CTL_PARAMS, OURS), NB_RSP_A_SETUP);
	nb_rsp_setup_done(&r, 0);
	assert_int_equal(r.state, NB_RSP_SESSION);
	assert_int_equal(r.session, OURS);
	assert_int_equal(rsp_feed(&r, NB_CTL_START, OURS), NB_RSP_A_NONE);
	assert_int_equal(r.state, NB_RSP_SESSION);
	assert_int_equal(rsp_feed(&r, NB_CTL_PARAMS, OURS), NB_RSP_A_SETUP);
	nb_rsp_setup_done(&r, 1);
	assert_int_equal(r.state, NB_RSP_READY);

	/* a second PARAMS once READY: one test per session */
	assert_int_equal(rsp_feed(&r, NB_CTL_PARAMS, OURS), NB_RSP_A_NONE);
	assert_int_equal(r.state, NB_RSP_READY);
	/* STOP and RESULTS_REQ before START */
	assert_int_equal(rsp_feed(&r, NB_CTL_STOP, OURS), NB_RSP_A_NONE);
	assert_int_equal(rsp_feed(&r, NB_CTL_RESULTS_REQ, OURS), NB_RSP_A_NONE);
	assert_int_equal(r.state, NB_RSP_READY);
	assert_int_equal(rsp_feed(&r, NB_CTL_START, OURS), NB_RSP_A_ARM);
	/* RESULTS_REQ before STOP, PARAMS while armed */
	assert_int_equal(rsp_feed(&r, NB_CTL_RESULTS_REQ, OURS), NB_RSP_A_NONE);
	assert_int_equal(rsp_feed(&r, NB_CTL_PARAMS, OURS), NB_RSP_A_NONE);
	assert_int_equal(r.state, NB_RSP_ARMED);

	/* setup_done outside SESSION changes nothing */
	nb_rsp_setup_done(&r, 1);
	assert_int_equal(r.state, NB_RSP_ARMED);
	nb_rsp_setup_done(&r, 0);
	assert_int_equal(r.state, NB_RSP_ARMED);
	nb_rsp_init(&r);
	nb_rsp_setup_done(&r, 1);
	assert_int_equal(r.state, NB_RSP_IDLE);
}

static void
test_rsp_quit_and_end(void **state)
{
	enum nb_rsp_gate g;
	struct nb_rsp r;
	size_t i;

	(void)state;
	for (i = 0; i < NB_OPEN_STATES; i++) {
		r = rsp_in(open_states[i]);
		assert_int_equal(rsp_feed(&r, NB_CTL_QUIT, OURS),
				 NB_RSP_A_QUIT);
		assert_int_equal(r.state, NB_RSP_IDLE);
		assert_int_equal(r.session, 0);

		/* another session's QUIT: tagged, an open that fails;
		 * untagged, dropped */
		r = rsp_in(open_states[i]);
		assert_int_equal(rsp_feed_ex(&r, NB_CTL_QUIT, OTHER, 1, 1, &g),
				 NB_RSP_A_NONE);
		assert_int_equal(g, NB_RSP_OPEN);
		assert_int_equal(rsp_feed_ex(&r, NB_CTL_QUIT, OTHER, 1, 0, &g),
				 NB_RSP_A_NONE);
		assert_int_equal(g, NB_RSP_DROP);
		assert_int_equal(r.state, open_states[i]);
		assert_int_equal(r.session, OURS);

		/* timeout or interrupt */
		nb_rsp_end(&r);
		assert_int_equal(r.state, NB_RSP_IDLE);
		assert_int_equal(r.session, 0);
	}
	/* QUIT while idle: untagged, dropped ... */
	nb_rsp_init(&r);
	nb_rsp_set_posture(&r, P_OBEY);
	assert_int_equal(rsp_feed_ex(&r, NB_CTL_QUIT, OURS, 1, 0, &g),
			 NB_RSP_A_NONE);
	assert_int_equal(g, NB_RSP_DROP);
	assert_int_equal(r.state, NB_RSP_IDLE);
	/* ... tagged (with the HELLO's cookie), it opens a session and ends
	 * it at once */
	assert_int_equal(rsp_feed_ex(&r, NB_CTL_QUIT, OURS, 0, 1, &g),
			 NB_RSP_A_QUIT);
	assert_int_equal(g, NB_RSP_OPEN);
	assert_int_equal(r.state, NB_RSP_IDLE);
	assert_int_equal(r.session, 0);
	nb_rsp_end(&r);
	assert_int_equal(r.state, NB_RSP_IDLE);
	assert_int_equal(r.posture, P_OBEY);
}

/*
 * Who may have each message type acted on, for each posture (bits: 1 a
 * key, 2 --allow-quit), written out from docs/protocol.md ("What the
 * responder accepts from whom"):
 *   HELLO, PARAMS  a key holder with a key, else any host
 *   QUIT           as PARAMS with --allow-quit, else nobody
 *   START, KEEPALIVE, STOP, RESULTS_REQ, DONE, ACK   the session's client
 *   every other type (the responder's own, unknown ones): nobody
 */
#define W_NO  NB_WHO_NOBODY
#define W_ANY NB_WHO_ANYONE
#define W_KEY NB_WHO_KEY_HOLDER
#define W_CLI NB_WHO_CLIENT

static const struct {
	uint8_t type;
	enum nb_rsp_who who[4]; /* posture 0, KEY, ALLOW_QUIT, both */
} who_table[] = {
	{0, {W_NO, W_NO, W_NO, W_NO}},
	{NB_CTL_HELLO, {W_ANY, W_KEY, W_ANY, W_KEY}},
	{NB_CTL_WELCOME, {W_NO, W_NO, W_NO, W_NO}},
	{NB_CTL_BUSY, {W_NO, W_NO, W_NO, W_NO}},
	{NB_CTL_PARAMS, {W_ANY, W_KEY, W_ANY, W_KEY}},
	{NB_CTL_ACCEPT, {W_NO, W_NO, W_NO, W_NO}},
	{NB_CTL_REJECT, {W_NO, W_NO, W_NO, W_NO}},
	{NB_CTL_START, {W_CLI, W_CLI, W_CLI, W_CLI}},
	{NB_CTL_KEEPALIVE, {W_CLI, W_CLI, W_CLI, W_CLI}},
	{NB_CTL_STOP, {W_CLI, W_CLI, W_CLI, W_CLI}},
	{NB_CTL_RESULTS_REQ, {W_CLI, W_CLI, W_CLI, W_CLI}},
	{NB_CTL_RESULTS, {W_NO, W_NO, W_NO, W_NO}},
	{NB_CTL_DONE, {W_CLI, W_CLI, W_CLI, W_CLI}},
	{NB_CTL_QUIT, {W_NO, W_NO, W_ANY, W_KEY}},
	{NB_CTL_ACK, {W_CLI, W_CLI, W_CLI, W_CLI}},
	{NB_CTL_ERROR, {W_NO, W_NO, W_NO, W_NO}},
	{NB_CTL_INTERVAL, {W_NO, W_NO, W_NO, W_NO}},
};

/* Every type 0..255 (the rows above; nobody for the rest, the tag bit
 * included) in every posture. */
static void
test_rsp_who(void **state)
{
	unsigned int t, p, k, listed = 0;

	(void)state;
	assert_int_equal(NB_POSTURE_KEY, 1);
	assert_int_equal(NB_POSTURE_ALLOW_QUIT, 2);
	assert_int_equal(NB_POSTURE_ALL, 3);
	/* the rows are the protocol's types 0..16, in order */
	assert_int_equal(sizeof(who_table) / sizeof(who_table[0]),
			 NB_CTL_TYPE_MAX);
	for (t = 0; t < 256; t++) {
		const enum nb_rsp_who *want = NULL;

		for (k = 0; k < sizeof(who_table) / sizeof(who_table[0]); k++)
			if (who_table[k].type == t) {
				want = who_table[k].who;
				listed++;
			}
		for (p = 0; p <= NB_POSTURE_ALL; p++) {
			enum nb_rsp_who w = want != NULL ? want[p] : W_NO;
			enum nb_rsp_who got = nb_rsp_who((uint8_t)t, p);

			if (got != w)
				fail_msg("type %u posture %u: %s, want %s", t,
					 p, nb_rsp_who_name(got),
					 nb_rsp_who_name(w));
		}
	}
	assert_int_equal(listed, NB_CTL_TYPE_MAX);

	assert_string_equal(nb_rsp_who_name(NB_WHO_NOBODY), "nobody");
	assert_string_equal(nb_rsp_who_name(NB_WHO_ANYONE), "any host");
	assert_string_equal(nb_rsp_who_name(NB_WHO_KEY_HOLDER), "a key holder");
	assert_string_equal(nb_rsp_who_name(NB_WHO_CLIENT),
			    "the session's client");
	assert_string_equal(nb_rsp_who_name((enum nb_rsp_who)9), "unknown");
}

/*
 * A QUIT of the open session, from its client and tagged (the gate
 * passes it), in every state x posture: it ends the session and asks us
 * to exit only with --allow-quit; otherwise it is refused and the state,
 * the session and the posture stay as they were.
 */
static void
test_rsp_quit_posture(void **state)
{
	unsigned int p, quits = 0, refusals = 0;
	enum nb_rsp_action a;
	enum nb_rsp_gate g;
	struct nb_rsp r;
	size_t i;

	(void)state;
	for (p = 0; p <= NB_POSTURE_ALL; p++)
		for (i = 0; i < NB_OPEN_STATES; i++) {
			r = rsp_in_p(open_states[i], p);
			a = rsp_feed_ex(&r, NB_CTL_QUIT, OURS, 1, 1, &g);
			assert_int_equal(g, NB_RSP_PASS);
			assert_int_equal(r.posture, p);
			if (p & NB_POSTURE_ALLOW_QUIT) {
				assert_int_equal(a, NB_RSP_A_QUIT);
				assert_int_equal(r.state, NB_RSP_IDLE);
				assert_int_equal(r.session, 0);
				quits++;
			} else {
				assert_int_equal(a, NB_RSP_A_REFUSE);
				assert_int_equal(r.state, open_states[i]);
				assert_int_equal(r.session, OURS);
				refusals++;
				/* and the session goes on: its DONE ends it */
				assert_int_equal(
					rsp_feed(&r, NB_CTL_DONE, OURS),
					NB_RSP_A_END);
				assert_int_equal(r.state, NB_RSP_IDLE);
				assert_int_equal(r.posture, p);
			}
		}
	assert_int_equal(quits, 2 * NB_OPEN_STATES);
	assert_int_equal(refusals, 2 * NB_OPEN_STATES);
}

/* The posture: 0 after init, as set, and kept by everything that ends a
 * session (end, DONE, QUIT) or opens one. */
static void
test_rsp_posture_kept(void **state)
{
	struct nb_rsp r;
	unsigned int p;

	(void)state;
	for (p = 0; p <= NB_POSTURE_ALL; p++) {
		memset(&r, 0xff, sizeof(r));
		nb_rsp_init(&r);
		assert_int_equal(r.posture, 0);
		assert_int_equal(r.state, NB_RSP_IDLE);
		assert_int_equal(r.session, 0);
		nb_rsp_set_posture(&r, p);
		assert_int_equal(r.posture, p);
		assert_int_equal(r.state, NB_RSP_IDLE);

		assert_int_equal(nb_rsp_open(&r, OURS), 0);
		assert_int_equal(r.posture, p);
		nb_rsp_end(&r);
		assert_int_equal(r.state, NB_RSP_IDLE);
		assert_int_equal(r.session, 0);
		assert_int_equal(r.posture, p);

		assert_int_equal(nb_rsp_open(&r, OTHER), 0);
		assert_int_equal(nb_rsp_on_msg(&r, NB_CTL_DONE), NB_RSP_A_END);
		assert_int_equal(r.posture, p);

		assert_int_equal(nb_rsp_open(&r, OURS), 0);
		assert_int_equal(nb_rsp_on_msg(&r, NB_CTL_QUIT),
				 (p & P_QUIT) ? NB_RSP_A_QUIT
					      : NB_RSP_A_REFUSE);
		assert_int_equal(r.posture, p);
		nb_rsp_end(&r);
		assert_int_equal(r.posture, p);

		/* init forgets it */
		nb_rsp_init(&r);
		assert_int_equal(r.posture, 0);
	}
}

static void
test_rsp_names(void **state)
{
	(void)state;
	assert_string_equal(nb_rsp_state_name(NB_RSP_IDLE), "idle");
	assert_string_equal(nb_rsp_state_name(NB_RSP_SESSION), "session");
	assert_string_equal(nb_rsp_state_name(NB_RSP_READY), "ready");
	assert_string_equal(nb_rsp_state_name(NB_RSP_ARMED), "armed");
	assert_string_equal(nb_rsp_state_name(NB_RSP_STOPPED), "stopped");
	assert_string_equal(nb_rsp_state_name((enum nb_rsp_state)99),
			    "unknown");
}

/* --- client ------------------------------------------------------------- */

#define C_HELLO	  NB_CLI_HELLO
#define C_PARAMS  NB_CLI_PARAMS
#define C_RUNNING NB_CLI_RUNNING
#define C_RESULTS NB_CLI_RESULTS
#define C_CLOSED  NB_CLI_CLOSED

struct cli_expect {
	enum nb_cli_event event;
	enum nb_cli_state next;
};

struct cli_row {
	enum nb_cli_state from;
	struct cli_expect e[NB_TYPES]; /* in the order of types[] */
};

#define CN(s)                                                                  \
	{                                                                      \
		NB_CLI_E_NONE, s                                               \
	}

/* RESULTS messages carry the awaited part here (wrong parts: below). */
static const struct cli_row cli_table[] = {
	{C_HELLO,
	 {
		 CN(C_HELLO), /* 0 */
		 CN(C_HELLO), /* HELLO */
		 {NB_CLI_E_WELCOME, C_HELLO},
		 {NB_CLI_E_BUSY, C_CLOSED},
		 CN(C_HELLO),		      /* PARAMS */
		 CN(C_HELLO),		      /* ACCEPT */
		 {NB_CLI_E_REJECT, C_CLOSED}, /* refused by policy */
		 CN(C_HELLO),		      /* START */
		 CN(C_HELLO),		      /* KEEPALIVE */
		 CN(C_HELLO),		      /* STOP */
		 CN(C_HELLO),		      /* RESULTS_REQ */
		 CN(C_HELLO),		      /* RESULTS */
		 CN(C_HELLO),		      /* DONE */
		 CN(C_HELLO),		      /* QUIT */
		 CN(C_HELLO),		      /* ACK */
		 {NB_CLI_E_ABORT, C_CLOSED},
		 CN(C_HELLO), /* INTERVAL */
		 CN(C_HELLO), /* 16 */
		 CN(C_HELLO), /* 200 */
	 }},
	{C_PARAMS,
	 {
		 CN(C_PARAMS),
		 CN(C_PARAMS),
		 CN(C_PARAMS),		    /* a late WELCOME */
		 {NB_CLI_E_BUSY, C_CLOSED}, /* the open lost a race */
		 CN(C_PARAMS),
		 {NB_CLI_E_ACCEPT, C_PARAMS},
		 {NB_CLI_E_REJECT, C_CLOSED},
		 CN(C_PARAMS),
		 CN(C_PARAMS),
		 CN(C_PARAMS),
		 CN(C_PARAMS),
		 CN(C_PARAMS),
		 CN(C_PARAMS),
		 CN(C_PARAMS),
		 CN(C_PARAMS),
		 {NB_CLI_E_ABORT, C_CLOSED},
		 CN(C_PARAMS), /* INTERVAL */
		 CN(C_PARAMS),
		 CN(C_PARAMS),
	 }},
	{C_RUNNING,
	 {
		 CN(C_RUNNING),
		 CN(C_RUNNING),
		 CN(C_RUNNING),
		 CN(C_RUNNING),
		 CN(C_RUNNING),
		 CN(C_RUNNING), /* a late ACCEPT */
		 CN(C_RUNNING), /* REJECT after ACCEPT */
		 CN(C_RUNNING),
		 CN(C_RUNNING),
		 CN(C_RUNNING),
		 CN(C_RUNNING),
		 CN(C_RUNNING), /* RESULTS not asked for */
		 CN(C_RUNNING),
		 CN(C_RUNNING),
		 CN(C_RUNNING),
		 {NB_CLI_E_ABORT, C_CLOSED},
		 {NB_CLI_E_INTERVAL, C_RUNNING},
		 CN(C_RUNNING),
		 CN(C_RUNNING),
	 }},
	{C_RESULTS,
	 {
		 CN(C_RESULTS),
		 CN(C_RESULTS),
		 CN(C_RESULTS),
		 CN(C_RESULTS),
		 CN(C_RESULTS),
		 CN(C_RESULTS),
		 CN(C_RESULTS),
		 CN(C_RESULTS),
		 CN(C_RESULTS),
		 CN(C_RESULTS),
		 CN(C_RESULTS),
		 {NB_CLI_E_RESULTS, C_RESULTS},
		 CN(C_RESULTS),
		 CN(C_RESULTS),
		 CN(C_RESULTS),
		 {NB_CLI_E_ABORT, C_CLOSED},
		 {NB_CLI_E_INTERVAL, C_RESULTS},
		 CN(C_RESULTS),
		 CN(C_RESULTS),
	 }},
	{C_CLOSED,
	 {
		 CN(C_CLOSED), CN(C_CLOSED), CN(C_CLOSED),
		 CN(C_CLOSED), CN(C_CLOSED), CN(C_CLOSED),
		 CN(C_CLOSED), CN(C_CLOSED), CN(C_CLOSED),
		 CN(C_CLOSED), CN(C_CLOSED), CN(C_CLOSED),
		 CN(C_CLOSED), CN(C_CLOSED), CN(C_CLOSED),
		 CN(C_CLOSED), /* ERROR once closed */
		 CN(C_CLOSED), /* INTERVAL */
		 CN(C_CLOSED), CN(C_CLOSED),
	 }},
};

#define AWAITED 7 /* the RESULTS part a client in RESULTS waits for */

static struct nb_cli
cli_in(enum nb_cli_state s)
{
	struct nb_cli c;

	nb_cli_init(&c, OURS, PEER_IP);
	nb_cli_set(&c, s, s == NB_CLI_RESULTS ? AWAITED : 0);
	return c;
}

static void
test_cli_table(void **state)
{
	size_t i, j;

	(void)state;
	assert_int_equal(sizeof(cli_table) / sizeof(cli_table[0]), 5);
	for (i = 0; i < sizeof(cli_table) / sizeof(cli_table[0]); i++) {
		const struct cli_row *row = &cli_table[i];

		for (j = 0; j < NB_TYPES; j++) {
			struct nb_cli c = cli_in(row->from);
			struct nb_ctl_msg m = msg(types[j], OURS);
			enum nb_cli_event e;

			m.u.res.part = AWAITED;
			e = nb_cli_on_msg(&c, &m);
			if (e != row->e[j].event || c.state != row->e[j].next)
				fail_msg("state %s type %u: event %d state "
					 "%s, want %d %s",
					 nb_cli_state_name(row->from), types[j],
					 e, nb_cli_state_name(c.state),
					 row->e[j].event,
					 nb_cli_state_name(row->e[j].next));
			/* nothing else moves */
			assert_int_equal(c.session, OURS);
			assert_int_equal(c.peer_ip, PEER_IP);
			assert_int_equal(c.part, row->from == NB_CLI_RESULTS
							 ? AWAITED
							 : 0);
		}
	}
}

static void
test_cli_results_part(void **state)
{
	struct nb_cli c = cli_in(NB_CLI_RESULTS);
	struct nb_ctl_msg m = msg(NB_CTL_RESULTS, OURS);

	(void)state;
	m.u.res.part = AWAITED - 1; /* the one before, retransmitted */
	assert_int_equal(nb_cli_on_msg(&c, &m), NB_CLI_E_NONE);
	m.u.res.part = AWAITED + 1;
	assert_int_equal(nb_cli_on_msg(&c, &m), NB_CLI_E_NONE);
	assert_int_equal(c.state, NB_CLI_RESULTS);
	m.u.res.part = AWAITED;
	assert_int_equal(nb_cli_on_msg(&c, &m), NB_CLI_E_RESULTS);
	nb_cli_set(&c, NB_CLI_RESULTS, AWAITED + 1);
	assert_int_equal(c.part, AWAITED + 1);
	assert_int_equal(nb_cli_on_msg(&c, &m), NB_CLI_E_NONE);
	m.u.res.part = AWAITED + 1;
	assert_int_equal(nb_cli_on_msg(&c, &m), NB_CLI_E_RESULTS);
}

/*
 * Expected routes of our session's messages from the responder's address,
 * one row per type, written out from the rules of nb_peer_sm.h.  "plain":
 * untagged (whatever authentic says); "auth": tagged and authentic;
 * "forged": tagged, not authentic.  HELLO: the client's HELLO state (no
 * session key yet); later: PARAMS, RUNNING, RESULTS.
 */
struct route_row {
	uint8_t type;
	enum nb_cli_route hello_plain, hello_auth, hello_forged;
	enum nb_cli_route later_plain, later_auth, later_forged;
};

#define DROP   NB_CLI_DROP
#define CLOCK  NB_CLI_CLOCK
#define DIRECT NB_CLI_DIRECT
#define LINK   NB_CLI_LINK

static const struct route_row route_table[] = {
	{0, DROP, DROP, DROP, DROP, LINK, DROP},
	{NB_CTL_HELLO, DROP, DROP, DROP, DROP, LINK, DROP},
	{NB_CTL_WELCOME, DROP, LINK, DROP, DROP, LINK, DROP},
	{NB_CTL_BUSY, DIRECT, DROP, DROP, DROP, DIRECT, DROP},
	{NB_CTL_PARAMS, DROP, DROP, DROP, DROP, LINK, DROP},
	{NB_CTL_ACCEPT, DROP, DROP, DROP, DROP, LINK, DROP},
	{NB_CTL_REJECT, DIRECT, DROP, DROP, DROP, LINK, DROP},
	{NB_CTL_START, DROP, DROP, DROP, DROP, LINK, DROP},
	{NB_CTL_KEEPALIVE, DROP, DROP, DROP, DROP, CLOCK, DROP},
	{NB_CTL_STOP, DROP, DROP, DROP, DROP, LINK, DROP},
	{NB_CTL_RESULTS_REQ, DROP, DROP, DROP, DROP, LINK, DROP},
	{NB_CTL_RESULTS, DROP, DROP, DROP, DROP, LINK, DROP},
	{NB_CTL_DONE, DROP, DROP, DROP, DROP, LINK, DROP},
	{NB_CTL_QUIT, DROP, DROP, DROP, DROP, LINK, DROP},
	{NB_CTL_ACK, DROP, DROP, DROP, DROP, LINK, DROP},
	{NB_CTL_ERROR, DIRECT, DROP, DROP, DROP, DIRECT, DROP},
	{NB_CTL_INTERVAL, DROP, DROP, DROP, DROP, LINK, DROP},
	{NB_CTL_TYPE_MAX, DROP, DROP, DROP, DROP, LINK, DROP},
	{200, DROP, DROP, DROP, DROP, LINK, DROP},
};

#undef DROP
#undef CLOCK
#undef DIRECT
#undef LINK

/* The row's route for a client in a live state s. */
static enum nb_cli_route
route_want(const struct route_row *row, enum nb_cli_state s, int tagged,
	   int authentic)
{
	int hello = s == C_HELLO;

	if (!tagged)
		return hello ? row->hello_plain : row->later_plain;
	if (authentic)
		return hello ? row->hello_auth : row->later_auth;
	return hello ? row->hello_forged : row->later_forged;
}

/* Our session from the peer: the row; from elsewhere or another
 * session: DROP. */
static void
route_check(const struct nb_cli *c, const struct route_row *row, int tagged,
	    int authentic)
{
	enum nb_cli_route want = route_want(row, c->state, tagged, authentic);
	struct nb_ctl_msg m = msgt(row->type, OURS, tagged);
	enum nb_cli_route got = nb_cli_route(c, &m, 1, authentic);
	int fp;

	if (got != want)
		fail_msg("state %s type %u tagged %d authentic %d: %d, want %d",
			 nb_cli_state_name(c->state), row->type, tagged,
			 authentic, got, want);
	assert_int_equal(nb_cli_route(c, &m, 0, authentic), NB_CLI_DROP);
	m = msgt(row->type, OTHER, tagged);
	for (fp = 0; fp < 2; fp++)
		assert_int_equal(nb_cli_route(c, &m, fp, authentic),
				 NB_CLI_DROP);
}

static void
test_cli_route(void **state)
{
	static const enum nb_cli_state live[] = {C_HELLO, C_PARAMS, C_RUNNING,
						 C_RESULTS};
	struct nb_ctl_msg m;
	struct nb_cli c;
	size_t i, j, n;

	(void)state;
	assert_int_equal(sizeof(route_table) / sizeof(route_table[0]),
			 NB_TYPES);
	for (i = 0; i < sizeof(live) / sizeof(live[0]); i++) {
		c = cli_in(live[i]);
		for (j = 0; j < NB_TYPES; j++) {
			assert_int_equal(route_table[j].type, types[j]);
			/* n: tagged (bit 0), authentic (bit 1) */
			for (n = 0; n < 4; n++)
				route_check(&c, &route_table[j], n & 1, n >> 1);
		}
		assert_int_equal(c.state, live[i]); /* route changes nothing */
	}

	/* closed: everything dropped, the peer's refusals too */
	c = cli_in(NB_CLI_CLOSED);
	for (j = 0; j < NB_TYPES; j++)
		for (n = 0; n < 8; n++) {
			/* n: tagged, authentic, from_peer */
			m = msgt(types[j], OURS, n & 1);
			assert_int_equal(
				nb_cli_route(&c, &m, n >> 2, (n >> 1) & 1),
				NB_CLI_DROP);
			m = msgt(types[j], OTHER, n & 1);
			assert_int_equal(
				nb_cli_route(&c, &m, n >> 2, (n >> 1) & 1),
				NB_CLI_DROP);
		}
}

/* Route, then nb_cli_on_msg for DIRECT or (fresh) LINK. */
static enum nb_cli_event
cli_feed(struct nb_cli *c, const struct nb_ctl_msg *m, int from_peer,
	 int authentic, enum nb_cli_route *route)
{
	enum nb_cli_route r = nb_cli_route(c, m, from_peer, authentic);

	if (route != NULL)
		*route = r;
	return r == NB_CLI_DIRECT || r == NB_CLI_LINK ? nb_cli_on_msg(c, m)
						      : NB_CLI_E_NONE;
}

static void
test_cli_refusals(void **state)
{
	enum nb_cli_route rt;
	struct nb_ctl_msg m;
	struct nb_cli c;

	(void)state;
	/* HELLO state: an untagged BUSY of our session from the responder */
	nb_cli_init(&c, OURS, PEER_IP);
	assert_int_equal(c.state, NB_CLI_HELLO);
	assert_int_equal(c.part, 0);
	m = msgt(NB_CTL_BUSY, OURS, 0);
	assert_int_equal(cli_feed(&c, &m, 1, 0, &rt), NB_CLI_E_BUSY);
	assert_int_equal(rt, NB_CLI_DIRECT);
	assert_int_equal(c.state, NB_CLI_CLOSED);

	/* the same BUSY from another address, or of another session:
	 * dropped, nothing changes */
	nb_cli_init(&c, OURS, PEER_IP);
	assert_int_equal(cli_feed(&c, &m, 0, 0, &rt), NB_CLI_E_NONE);
	assert_int_equal(rt, NB_CLI_DROP);
	m = msgt(NB_CTL_BUSY, OTHER, 0);
	assert_int_equal(cli_feed(&c, &m, 1, 0, &rt), NB_CLI_E_NONE);
	assert_int_equal(rt, NB_CLI_DROP);
	assert_int_equal(c.state, NB_CLI_HELLO);

	/* HELLO state: an untagged REJECT (refused by policy) */
	m = msgt(NB_CTL_REJECT, OURS, 0);
	assert_int_equal(cli_feed(&c, &m, 1, 0, &rt), NB_CLI_E_REJECT);
	assert_int_equal(rt, NB_CLI_DIRECT);
	assert_int_equal(c.state, NB_CLI_CLOSED);

	/* HELLO state: an untagged ERROR (a version mismatch, say) */
	nb_cli_init(&c, OURS, PEER_IP);
	m = msgt(NB_CTL_ERROR, OURS, 0);
	assert_int_equal(cli_feed(&c, &m, 1, 0, &rt), NB_CLI_E_ABORT);
	assert_int_equal(rt, NB_CLI_DIRECT);
	assert_int_equal(c.state, NB_CLI_CLOSED);

	/* PARAMS state: the responder opened another session first, and
	 * answers our PARAMS with a tagged BUSY */
	nb_cli_init(&c, OURS, PEER_IP);
	nb_cli_set(&c, NB_CLI_PARAMS, 0);
	m = msgt(NB_CTL_BUSY, OURS, 0); /* untagged: forged, dropped */
	assert_int_equal(cli_feed(&c, &m, 1, 1, &rt), NB_CLI_E_NONE);
	assert_int_equal(rt, NB_CLI_DROP);
	m = msgt(NB_CTL_BUSY, OURS, 1); /* tag does not check: dropped */
	assert_int_equal(cli_feed(&c, &m, 1, 0, &rt), NB_CLI_E_NONE);
	assert_int_equal(rt, NB_CLI_DROP);
	assert_int_equal(c.state, NB_CLI_PARAMS);
	assert_int_equal(cli_feed(&c, &m, 1, 1, &rt), NB_CLI_E_BUSY);
	assert_int_equal(rt, NB_CLI_DIRECT);
	assert_int_equal(c.state, NB_CLI_CLOSED);

	/* PARAMS state: the test is refused (tagged REJECT, over the link) */
	nb_cli_init(&c, OURS, PEER_IP);
	nb_cli_set(&c, NB_CLI_PARAMS, 0);
	m = msgt(NB_CTL_REJECT, OURS, 0); /* untagged now: forged */
	assert_int_equal(cli_feed(&c, &m, 1, 0, &rt), NB_CLI_E_NONE);
	assert_int_equal(rt, NB_CLI_DROP);
	m = msgt(NB_CTL_REJECT, OURS, 1);
	assert_int_equal(cli_feed(&c, &m, 1, 1, &rt), NB_CLI_E_REJECT);
	assert_int_equal(rt, NB_CLI_LINK);
	assert_int_equal(c.state, NB_CLI_CLOSED);

	/* RUNNING: a BUSY or REJECT means nothing any more */
	nb_cli_init(&c, OURS, PEER_IP);
	nb_cli_set(&c, NB_CLI_RUNNING, 0);
	m = msgt(NB_CTL_BUSY, OURS, 1);
	assert_int_equal(cli_feed(&c, &m, 1, 1, &rt), NB_CLI_E_NONE);
	assert_int_equal(rt, NB_CLI_DIRECT);
	m = msgt(NB_CTL_REJECT, OURS, 1);
	assert_int_equal(cli_feed(&c, &m, 1, 1, &rt), NB_CLI_E_NONE);
	assert_int_equal(rt, NB_CLI_LINK);
	assert_int_equal(c.state, NB_CLI_RUNNING);

	/* RUNNING: an ERROR must be tagged and authentic to abort */
	m = msgt(NB_CTL_ERROR, OURS, 0);
	assert_int_equal(cli_feed(&c, &m, 1, 0, &rt), NB_CLI_E_NONE);
	assert_int_equal(rt, NB_CLI_DROP);
	m = msgt(NB_CTL_ERROR, OTHER, 1);
	assert_int_equal(cli_feed(&c, &m, 1, 1, &rt), NB_CLI_E_NONE);
	assert_int_equal(rt, NB_CLI_DROP);
	m = msgt(NB_CTL_ERROR, OURS, 1);
	assert_int_equal(cli_feed(&c, &m, 0, 1, &rt), NB_CLI_E_NONE);
	assert_int_equal(rt, NB_CLI_DROP);
	assert_int_equal(c.state, NB_CLI_RUNNING);
	assert_int_equal(cli_feed(&c, &m, 1, 1, &rt), NB_CLI_E_ABORT);
	assert_int_equal(rt, NB_CLI_DIRECT);
	assert_int_equal(c.state, NB_CLI_CLOSED);
	/* and then nothing more */
	assert_int_equal(nb_cli_route(&c, &m, 1, 1), NB_CLI_DROP);
	assert_int_equal(nb_cli_on_msg(&c, &m), NB_CLI_E_NONE);
}

static void
test_cli_happy_path(void **state)
{
	enum nb_cli_route rt;
	struct nb_ctl_msg m;
	struct nb_cli c;
	uint32_t part;

	(void)state;
	nb_cli_init(&c, OURS, PEER_IP);
	assert_int_equal(c.session, OURS);
	assert_int_equal(c.peer_ip, PEER_IP);
	/* a forged or untagged WELCOME first: dropped */
	m = msgt(NB_CTL_WELCOME, OURS, 0);
	assert_int_equal(cli_feed(&c, &m, 1, 0, &rt), NB_CLI_E_NONE);
	assert_int_equal(rt, NB_CLI_DROP);
	m = msgt(NB_CTL_WELCOME, OURS, 1);
	assert_int_equal(cli_feed(&c, &m, 1, 0, &rt), NB_CLI_E_NONE);
	assert_int_equal(rt, NB_CLI_DROP);
	assert_int_equal(cli_feed(&c, &m, 1, 1, &rt), NB_CLI_E_WELCOME);
	assert_int_equal(rt, NB_CLI_LINK);
	assert_int_equal(c.state, NB_CLI_HELLO);
	nb_cli_set(&c, NB_CLI_PARAMS, 0);
	m = msgt(NB_CTL_ACCEPT, OURS, 1);
	assert_int_equal(cli_feed(&c, &m, 1, 1, &rt), NB_CLI_E_ACCEPT);
	assert_int_equal(rt, NB_CLI_LINK);
	assert_int_equal(c.state, NB_CLI_PARAMS);
	nb_cli_set(&c, NB_CLI_RUNNING, 0);
	m = msgt(NB_CTL_KEEPALIVE, OURS, 1);
	assert_int_equal(nb_cli_route(&c, &m, 1, 1), NB_CLI_CLOCK);
	assert_int_equal(nb_cli_route(&c, &m, 1, 0), NB_CLI_DROP);
	for (part = 0; part < 3; part++) {
		nb_cli_set(&c, NB_CLI_RESULTS, part);
		m = msgt(NB_CTL_RESULTS, OURS, 1);
		m.u.res.part = part;
		assert_int_equal(cli_feed(&c, &m, 1, 1, &rt), NB_CLI_E_RESULTS);
		assert_int_equal(rt, NB_CLI_LINK);
	}
	nb_cli_set(&c, NB_CLI_CLOSED, 0);
	assert_int_equal(nb_cli_route(&c, &m, 1, 1), NB_CLI_DROP);
	assert_int_equal(nb_cli_on_msg(&c, &m), NB_CLI_E_NONE);
}

static void
test_cli_names(void **state)
{
	(void)state;
	assert_string_equal(nb_cli_state_name(NB_CLI_HELLO), "hello");
	assert_string_equal(nb_cli_state_name(NB_CLI_PARAMS), "params");
	assert_string_equal(nb_cli_state_name(NB_CLI_RUNNING), "running");
	assert_string_equal(nb_cli_state_name(NB_CLI_RESULTS), "results");
	assert_string_equal(nb_cli_state_name(NB_CLI_CLOSED), "closed");
	assert_string_equal(nb_cli_state_name((enum nb_cli_state)99),
			    "unknown");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rsp_table),
		cmocka_unit_test(test_rsp_gate_all),
		cmocka_unit_test(test_rsp_gate_cases),
		cmocka_unit_test(test_rsp_open),
		cmocka_unit_test(test_rsp_happy_path),
		cmocka_unit_test(test_rsp_busy),
		cmocka_unit_test(test_rsp_foreign),
		cmocka_unit_test(test_rsp_out_of_order),
		cmocka_unit_test(test_rsp_quit_and_end),
		cmocka_unit_test(test_rsp_who),
		cmocka_unit_test(test_rsp_quit_posture),
		cmocka_unit_test(test_rsp_posture_kept),
		cmocka_unit_test(test_rsp_names),
		cmocka_unit_test(test_cli_table),
		cmocka_unit_test(test_cli_results_part),
		cmocka_unit_test(test_cli_route),
		cmocka_unit_test(test_cli_refusals),
		cmocka_unit_test(test_cli_happy_path),
		cmocka_unit_test(test_cli_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
