/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the peer-mode session state machines
 * (app/core/nb_peer_sm.c).
 *
 * The state x message tables spell out every expected action and next
 * state by hand, from the protocol's rules (docs/protocol.md and the
 * responder/client of app/peer), not from the code under test.
 */
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
#define STRANGE 0xC0A80163u /* 192.168.1.99 */

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
		 RN(R_IDLE), /* 16 */
		 RN(R_IDLE), /* 200 */
	 }},
	{R_SESSION,
	 {
		 RN(R_SESSION),
		 {NB_RSP_A_WELCOME, R_SESSION},
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
		 RN(R_SESSION),
		 RN(R_SESSION),
	 }},
	{R_READY,
	 {
		 RN(R_READY),
		 {NB_RSP_A_WELCOME, R_READY},
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
		 RN(R_READY),
		 RN(R_READY),
	 }},
	{R_ARMED,
	 {
		 RN(R_ARMED),
		 {NB_RSP_A_WELCOME, R_ARMED},
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
		 RN(R_ARMED),
		 RN(R_ARMED),
	 }},
	{R_STOPPED,
	 {
		 RN(R_STOPPED),
		 {NB_RSP_A_WELCOME, R_STOPPED},
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
		 RN(R_STOPPED),
		 RN(R_STOPPED),
	 }},
};

/* A responder in state s (session OURS unless idle). */
static struct nb_rsp
rsp_in(enum nb_rsp_state s)
{
	struct nb_rsp r;

	r.state = s;
	r.session = s == NB_RSP_IDLE ? 0 : OURS;
	return r;
}

static void
test_rsp_table(void **state)
{
	size_t i, j;

	(void)state;
	assert_int_equal(NB_CTL_TYPE_MAX, 16); /* types[] lists them all */
	assert_int_equal(sizeof(rsp_table) / sizeof(rsp_table[0]), 5);
	for (i = 0; i < sizeof(rsp_table) / sizeof(rsp_table[0]); i++) {
		const struct rsp_row *row = &rsp_table[i];

		for (j = 0; j < NB_TYPES; j++) {
			struct nb_rsp r = rsp_in(row->from);
			enum nb_rsp_action a = nb_rsp_on_msg(&r, types[j]);

			if (a != row->e[j].action || r.state != row->e[j].next)
				fail_msg("state %s type %u: action %d state "
					 "%s, want %d %s",
					 nb_rsp_state_name(row->from), types[j],
					 a, nb_rsp_state_name(r.state),
					 row->e[j].action,
					 nb_rsp_state_name(row->e[j].next));
			assert_int_equal(r.session,
					 row->e[j].next == NB_RSP_IDLE ? 0
								       : OURS);
		}
	}
}

static void
test_rsp_gate(void **state)
{
	static const enum nb_rsp_state open[] = {R_SESSION, R_READY, R_ARMED,
						 R_STOPPED};
	struct nb_rsp r;
	struct nb_ctl_msg m;
	size_t i, j;

	(void)state;
	/* Idle: only a HELLO opens; everything else, QUIT included, is
	 * dropped, whatever its session. */
	nb_rsp_init(&r);
	assert_int_equal(r.state, NB_RSP_IDLE);
	assert_int_equal(r.session, 0);
	for (j = 0; j < NB_TYPES; j++) {
		m = msg(types[j], OURS);
		assert_int_equal(nb_rsp_gate(&r, &m), types[j] == NB_CTL_HELLO
							      ? NB_RSP_OPEN
							      : NB_RSP_DROP);
	}
	m = msg(NB_CTL_QUIT, OTHER);
	assert_int_equal(nb_rsp_gate(&r, &m), NB_RSP_DROP);
	m = msg(NB_CTL_ACK, OURS);
	assert_int_equal(nb_rsp_gate(&r, &m), NB_RSP_DROP);

	for (i = 0; i < sizeof(open) / sizeof(open[0]); i++) {
		r = rsp_in(open[i]);
		/* our session: everything passes, ACK included */
		for (j = 0; j < NB_TYPES; j++) {
			m = msg(types[j], OURS);
			assert_int_equal(nb_rsp_gate(&r, &m), NB_RSP_PASS);
		}
		/* another session: its HELLO gets BUSY, the rest dropped */
		for (j = 0; j < NB_TYPES; j++) {
			m = msg(types[j], OTHER);
			assert_int_equal(nb_rsp_gate(&r, &m),
					 types[j] == NB_CTL_HELLO
						 ? NB_RSP_BUSY
						 : NB_RSP_DROP);
		}
		/* a stale session (ours + 1, say a restarted client) */
		m = msg(NB_CTL_HELLO, OURS + 1);
		assert_int_equal(nb_rsp_gate(&r, &m), NB_RSP_BUSY);
		m = msg(NB_CTL_DONE, OURS + 1);
		assert_int_equal(nb_rsp_gate(&r, &m), NB_RSP_DROP);
		/* the gate changes nothing */
		assert_int_equal(r.state, open[i]);
		assert_int_equal(r.session, OURS);
	}
}

/* Gate, then (as the link would pass it) on_msg. */
static enum nb_rsp_action
rsp_feed(struct nb_rsp *r, uint8_t type, uint32_t session)
{
	struct nb_ctl_msg m = msg(type, session);

	switch (nb_rsp_gate(r, &m)) {
	case NB_RSP_OPEN:
		nb_rsp_open(r, m.session);
		/* fall through */
	case NB_RSP_PASS:
		return nb_rsp_on_msg(r, m.type);
	default:
		return NB_RSP_A_NONE;
	}
}

static void
test_rsp_happy_path(void **state)
{
	struct nb_rsp r;
	uint32_t part;

	(void)state;
	nb_rsp_init(&r);
	assert_int_equal(rsp_feed(&r, NB_CTL_HELLO, OURS), NB_RSP_A_WELCOME);
	assert_int_equal(r.state, NB_RSP_SESSION);
	assert_int_equal(r.session, OURS);
	/* a retransmitted HELLO the link did not catch: WELCOME again */
	assert_int_equal(rsp_feed(&r, NB_CTL_HELLO, OURS), NB_RSP_A_WELCOME);
	assert_int_equal(r.state, NB_RSP_SESSION);
	assert_int_equal(rsp_feed(&r, NB_CTL_KEEPALIVE, OURS), NB_RSP_A_ECHO);
	assert_int_equal(rsp_feed(&r, NB_CTL_PARAMS, OURS), NB_RSP_A_SETUP);
	assert_int_equal(r.state, NB_RSP_SESSION);
	nb_rsp_setup_done(&r, 1);
	assert_int_equal(r.state, NB_RSP_READY);
	assert_int_equal(rsp_feed(&r, NB_CTL_KEEPALIVE, OURS), NB_RSP_A_ECHO);
	assert_int_equal(rsp_feed(&r, NB_CTL_START, OURS), NB_RSP_A_ARM);
	assert_int_equal(r.state, NB_RSP_ARMED);
	/* another client meanwhile */
	assert_int_equal(rsp_feed(&r, NB_CTL_HELLO, OTHER), NB_RSP_A_NONE);
	assert_int_equal(r.state, NB_RSP_ARMED);
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
	assert_int_equal(rsp_feed(&r, NB_CTL_RESULTS_REQ, OURS), NB_RSP_A_NONE);
	assert_int_equal(r.state, NB_RSP_IDLE);
	/* ... and the other client may now open one */
	assert_int_equal(rsp_feed(&r, NB_CTL_HELLO, OTHER), NB_RSP_A_WELCOME);
	assert_int_equal(r.state, NB_RSP_SESSION);
	assert_int_equal(r.session, OTHER);
}

static void
test_rsp_out_of_order(void **state)
{
	struct nb_rsp r;

	(void)state;
	/* START, STOP, RESULTS_REQ before PARAMS: ignored */
	nb_rsp_init(&r);
	nb_rsp_open(&r, OURS);
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
	static const enum nb_rsp_state open[] = {R_SESSION, R_READY, R_ARMED,
						 R_STOPPED};
	struct nb_rsp r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(open) / sizeof(open[0]); i++) {
		r = rsp_in(open[i]);
		assert_int_equal(rsp_feed(&r, NB_CTL_QUIT, OURS),
				 NB_RSP_A_QUIT);
		assert_int_equal(r.state, NB_RSP_IDLE);
		assert_int_equal(r.session, 0);

		/* another session's QUIT does nothing */
		r = rsp_in(open[i]);
		assert_int_equal(rsp_feed(&r, NB_CTL_QUIT, OTHER),
				 NB_RSP_A_NONE);
		assert_int_equal(r.state, open[i]);

		/* timeout or interrupt */
		nb_rsp_end(&r);
		assert_int_equal(r.state, NB_RSP_IDLE);
		assert_int_equal(r.session, 0);
	}
	/* QUIT while idle: no session to quit, dropped by the gate */
	nb_rsp_init(&r);
	assert_int_equal(rsp_feed(&r, NB_CTL_QUIT, OURS), NB_RSP_A_NONE);
	assert_int_equal(r.state, NB_RSP_IDLE);
	nb_rsp_end(&r);
	assert_int_equal(r.state, NB_RSP_IDLE);
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
		 CN(C_HELLO), /* PARAMS */
		 CN(C_HELLO), /* ACCEPT */
		 CN(C_HELLO), /* REJECT */
		 CN(C_HELLO), /* START */
		 CN(C_HELLO), /* KEEPALIVE */
		 CN(C_HELLO), /* STOP */
		 CN(C_HELLO), /* RESULTS_REQ */
		 CN(C_HELLO), /* RESULTS */
		 CN(C_HELLO), /* DONE */
		 CN(C_HELLO), /* QUIT */
		 CN(C_HELLO), /* ACK */
		 {NB_CLI_E_ABORT, C_CLOSED},
		 CN(C_HELLO), /* 16 */
		 CN(C_HELLO), /* 200 */
	 }},
	{C_PARAMS,
	 {
		 CN(C_PARAMS),
		 CN(C_PARAMS),
		 CN(C_PARAMS), /* a late WELCOME */
		 CN(C_PARAMS), /* BUSY once welcomed */
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
		 CN(C_RESULTS),
		 CN(C_RESULTS),
	 }},
	{C_CLOSED,
	 {
		 CN(C_CLOSED),
		 CN(C_CLOSED),
		 CN(C_CLOSED),
		 CN(C_CLOSED),
		 CN(C_CLOSED),
		 CN(C_CLOSED),
		 CN(C_CLOSED),
		 CN(C_CLOSED),
		 CN(C_CLOSED),
		 CN(C_CLOSED),
		 CN(C_CLOSED),
		 CN(C_CLOSED),
		 CN(C_CLOSED),
		 CN(C_CLOSED),
		 CN(C_CLOSED),
		 CN(C_CLOSED), /* ERROR once closed */
		 CN(C_CLOSED),
		 CN(C_CLOSED),
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

/* Expected routes for one type, written out per sender. */
struct route_row {
	uint8_t type;
	enum nb_cli_route ours;		 /* our session, from the peer */
	enum nb_cli_route ours_strange;	 /* our session, another address */
	enum nb_cli_route other_peer;	 /* another session, from the peer */
	enum nb_cli_route other_strange; /* another session and address */
};

static const struct route_row route_table[] = {
	{0, NB_CLI_LINK, NB_CLI_LINK, NB_CLI_DROP, NB_CLI_DROP},
	{NB_CTL_HELLO, NB_CLI_LINK, NB_CLI_LINK, NB_CLI_DROP, NB_CLI_DROP},
	{NB_CTL_WELCOME, NB_CLI_LINK, NB_CLI_LINK, NB_CLI_DROP, NB_CLI_DROP},
	{NB_CTL_BUSY, NB_CLI_DIRECT, NB_CLI_DIRECT, NB_CLI_DIRECT, NB_CLI_DROP},
	{NB_CTL_PARAMS, NB_CLI_LINK, NB_CLI_LINK, NB_CLI_DROP, NB_CLI_DROP},
	{NB_CTL_ACCEPT, NB_CLI_LINK, NB_CLI_LINK, NB_CLI_DROP, NB_CLI_DROP},
	{NB_CTL_REJECT, NB_CLI_LINK, NB_CLI_LINK, NB_CLI_DROP, NB_CLI_DROP},
	{NB_CTL_START, NB_CLI_LINK, NB_CLI_LINK, NB_CLI_DROP, NB_CLI_DROP},
	{NB_CTL_KEEPALIVE, NB_CLI_CLOCK, NB_CLI_CLOCK, NB_CLI_DROP,
	 NB_CLI_DROP},
	{NB_CTL_STOP, NB_CLI_LINK, NB_CLI_LINK, NB_CLI_DROP, NB_CLI_DROP},
	{NB_CTL_RESULTS_REQ, NB_CLI_LINK, NB_CLI_LINK, NB_CLI_DROP,
	 NB_CLI_DROP},
	{NB_CTL_RESULTS, NB_CLI_LINK, NB_CLI_LINK, NB_CLI_DROP, NB_CLI_DROP},
	{NB_CTL_DONE, NB_CLI_LINK, NB_CLI_LINK, NB_CLI_DROP, NB_CLI_DROP},
	{NB_CTL_QUIT, NB_CLI_LINK, NB_CLI_LINK, NB_CLI_DROP, NB_CLI_DROP},
	{NB_CTL_ACK, NB_CLI_LINK, NB_CLI_LINK, NB_CLI_DROP, NB_CLI_DROP},
	{NB_CTL_ERROR, NB_CLI_DIRECT, NB_CLI_DIRECT, NB_CLI_DIRECT,
	 NB_CLI_DROP},
	{NB_CTL_TYPE_MAX, NB_CLI_LINK, NB_CLI_LINK, NB_CLI_DROP, NB_CLI_DROP},
	{200, NB_CLI_LINK, NB_CLI_LINK, NB_CLI_DROP, NB_CLI_DROP},
};

static void
test_cli_route(void **state)
{
	static const enum nb_cli_state live[] = {C_HELLO, C_PARAMS, C_RUNNING,
						 C_RESULTS};
	struct nb_ctl_msg m;
	struct nb_cli c;
	size_t i, j;

	(void)state;
	assert_int_equal(sizeof(route_table) / sizeof(route_table[0]),
			 NB_TYPES);
	for (i = 0; i < sizeof(live) / sizeof(live[0]); i++) {
		c = cli_in(live[i]);
		for (j = 0; j < NB_TYPES; j++) {
			const struct route_row *row = &route_table[j];

			m = msg(row->type, OURS);
			assert_int_equal(nb_cli_route(&c, &m, PEER_IP),
					 row->ours);
			assert_int_equal(nb_cli_route(&c, &m, STRANGE),
					 row->ours_strange);
			m = msg(row->type, OTHER);
			assert_int_equal(nb_cli_route(&c, &m, PEER_IP),
					 row->other_peer);
			assert_int_equal(nb_cli_route(&c, &m, STRANGE),
					 row->other_strange);
		}
		assert_int_equal(c.state, live[i]); /* route changes nothing */
	}

	/* closed: everything dropped, the peer's refusals too */
	c = cli_in(NB_CLI_CLOSED);
	for (j = 0; j < NB_TYPES; j++) {
		m = msg(types[j], OURS);
		assert_int_equal(nb_cli_route(&c, &m, PEER_IP), NB_CLI_DROP);
		m = msg(types[j], OTHER);
		assert_int_equal(nb_cli_route(&c, &m, PEER_IP), NB_CLI_DROP);
	}
}

static void
test_cli_refusals(void **state)
{
	struct nb_ctl_msg m;
	struct nb_cli c;

	(void)state;
	/* BUSY of another session from the peer: DIRECT, then BUSY */
	nb_cli_init(&c, OURS, PEER_IP);
	assert_int_equal(c.state, NB_CLI_HELLO);
	assert_int_equal(c.part, 0);
	m = msg(NB_CTL_BUSY, OTHER);
	assert_int_equal(nb_cli_route(&c, &m, PEER_IP), NB_CLI_DIRECT);
	assert_int_equal(nb_cli_on_msg(&c, &m), NB_CLI_E_BUSY);
	assert_int_equal(c.state, NB_CLI_CLOSED);

	/* the same BUSY from a stranger: dropped, nothing changes */
	nb_cli_init(&c, OURS, PEER_IP);
	assert_int_equal(nb_cli_route(&c, &m, STRANGE), NB_CLI_DROP);
	assert_int_equal(c.state, NB_CLI_HELLO);

	/* ERROR of another session from the peer (e.g. a version
	 * mismatch answered with a placeholder session) mid-test */
	nb_cli_set(&c, NB_CLI_RUNNING, 0);
	m = msg(NB_CTL_ERROR, OTHER);
	assert_int_equal(nb_cli_route(&c, &m, PEER_IP), NB_CLI_DIRECT);
	assert_int_equal(nb_cli_on_msg(&c, &m), NB_CLI_E_ABORT);
	assert_int_equal(c.state, NB_CLI_CLOSED);
	/* and then nothing more */
	assert_int_equal(nb_cli_route(&c, &m, PEER_IP), NB_CLI_DROP);
	assert_int_equal(nb_cli_on_msg(&c, &m), NB_CLI_E_NONE);
}

static void
test_cli_happy_path(void **state)
{
	struct nb_ctl_msg m;
	struct nb_cli c;
	uint32_t part;

	(void)state;
	nb_cli_init(&c, OURS, PEER_IP);
	assert_int_equal(c.session, OURS);
	assert_int_equal(c.peer_ip, PEER_IP);
	m = msg(NB_CTL_WELCOME, OURS);
	assert_int_equal(nb_cli_route(&c, &m, PEER_IP), NB_CLI_LINK);
	assert_int_equal(nb_cli_on_msg(&c, &m), NB_CLI_E_WELCOME);
	assert_int_equal(c.state, NB_CLI_HELLO);
	nb_cli_set(&c, NB_CLI_PARAMS, 0);
	m = msg(NB_CTL_ACCEPT, OURS);
	assert_int_equal(nb_cli_route(&c, &m, PEER_IP), NB_CLI_LINK);
	assert_int_equal(nb_cli_on_msg(&c, &m), NB_CLI_E_ACCEPT);
	assert_int_equal(c.state, NB_CLI_PARAMS);
	nb_cli_set(&c, NB_CLI_RUNNING, 0);
	m = msg(NB_CTL_KEEPALIVE, OURS);
	assert_int_equal(nb_cli_route(&c, &m, PEER_IP), NB_CLI_CLOCK);
	for (part = 0; part < 3; part++) {
		nb_cli_set(&c, NB_CLI_RESULTS, part);
		m = msg(NB_CTL_RESULTS, OURS);
		m.u.res.part = part;
		assert_int_equal(nb_cli_route(&c, &m, PEER_IP), NB_CLI_LINK);
		assert_int_equal(nb_cli_on_msg(&c, &m), NB_CLI_E_RESULTS);
	}
	nb_cli_set(&c, NB_CLI_CLOSED, 0);
	assert_int_equal(nb_cli_route(&c, &m, PEER_IP), NB_CLI_DROP);
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
		cmocka_unit_test(test_rsp_gate),
		cmocka_unit_test(test_rsp_happy_path),
		cmocka_unit_test(test_rsp_out_of_order),
		cmocka_unit_test(test_rsp_quit_and_end),
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
