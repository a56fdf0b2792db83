/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Peer mode: the session state machines of the responder and the client,
 * as pure functions of the decoded control messages.  No I/O, no clock, no
 * DPDK: the caller decodes, runs the reliable link (nb_link) between the
 * gate/route step and the on_msg step, and does what the returned action
 * or event says.
 *
 * Responder, per decoded message m (from_peer: its source MAC and IPv4 are
 * the open session's client's):
 *   nb_rsp_gate()    DROP, FOREIGN (count it, ignore it), HELLO (check the
 *                    policy, answer WELCOME with a cookie; no state kept),
 *                    BUSY (answer BUSY, change nothing), OPEN (a PARAMS or
 *                    QUIT of a new session: check its cookie and tag, then
 *                    nb_rsp_open(), then as PASS) or PASS (check the tag);
 *   the link         ACK: to nb_link_on_ack(); otherwise nb_link_accept()
 *                    and ACK it; only a fresh message goes on;
 *   nb_rsp_on_msg()  what to do with it; the state moves with it, except
 *                    SESSION -> READY, which nb_rsp_setup_done() makes once
 *                    the test is set up.
 *
 * Client, per decoded message m (from_peer: from the responder's address;
 * authentic: tagged and the tag checks under the session key):
 *   nb_cli_route()   DROP, CLOCK (a KEEPALIVE echo: a clock sample only),
 *                    DIRECT (BUSY, ERROR, or before WELCOME an untagged
 *                    REJECT: straight to nb_cli_on_msg) or LINK (the link
 *                    ACKs/dedupes it, then a fresh one goes to
 *                    nb_cli_on_msg);
 *   nb_cli_on_msg()  the event; after sending its next request the caller
 *                    moves on with nb_cli_set().
 */
#ifndef NB_PEER_SM_H
#define NB_PEER_SM_H

#include <stdint.h>

#include "nb_ctl.h"

/* --- responder ---------------------------------------------------------- */

enum nb_rsp_state {
	NB_RSP_IDLE = 0, /* no session */
	NB_RSP_SESSION,	 /* HELLO accepted, no test set up */
	NB_RSP_READY,	 /* PARAMS accepted: test set up, workers polling */
	NB_RSP_ARMED,	 /* START received: the test runs */
	NB_RSP_STOPPED,	 /* STOP received: results ready to fetch */
};

struct nb_rsp {
	enum nb_rsp_state state;
	uint32_t session;     /* 0 when idle */
	unsigned int posture; /* NB_POSTURE_* bits, kept across sessions */
};

/*
 * The responder's posture: what it was started with.  NB_POSTURE_KEY: a
 * key (its own, made at start, or --auth-key); without it --no-auth.
 * NB_POSTURE_ALLOW_QUIT: --allow-quit.
 */
#define NB_POSTURE_KEY	      1u
#define NB_POSTURE_ALLOW_QUIT 2u
#define NB_POSTURE_ALL	      3u /* every combination is 0..3 */

/* Who may have a message of each type acted on (docs/protocol.md, "What
 * the responder accepts from whom", gives the same table). */
enum nb_rsp_who {
	NB_WHO_NOBODY = 0, /* never acted on */
	NB_WHO_ANYONE,	   /* any host on the segment (--no-auth): HELLO
			    * gets a WELCOME; PARAMS/QUIT must bring its
			    * cookie back from the HELLO's address */
	NB_WHO_KEY_HOLDER, /* only a sender that holds the key (its tag) */
	NB_WHO_CLIENT,	   /* only the open session's client: its MAC and
			    * IPv4, tagged with the session key */
};

/*
 *   HELLO, PARAMS  key holder (KEY) or any host
 *   QUIT           as PARAMS with ALLOW_QUIT; else nobody
 *   START, KEEPALIVE, STOP, RESULTS_REQ, DONE, ACK   the session's client
 *   everything else (the responder's own types, unknown): nobody
 * A PARAMS or QUIT inside a session is the session client's (it must be
 * that too); QUIT's rule holds wherever it arrives.
 */
enum nb_rsp_who nb_rsp_who(uint8_t type, unsigned int posture);
/* "nobody", "any host", "a key holder", "the session's client". */
const char *nb_rsp_who_name(enum nb_rsp_who w);

/* What to do with a decoded message before the reliable link sees it. */
enum nb_rsp_gate {
	NB_RSP_DROP = 0, /* ignore it silently */
	NB_RSP_FOREIGN,	 /* claims the open session but comes from another
			  * address or untagged: count it, ignore it */
	NB_RSP_HELLO,	 /* a HELLO while idle: answer WELCOME (policy
			  * permitting), keep no state */
	NB_RSP_BUSY,	 /* a HELLO while a session is open: answer BUSY,
			  * change nothing */
	NB_RSP_OPEN,	 /* a tagged PARAMS or QUIT of a session not open:
			  * the caller checks its cookie and tag, then
			  * nb_rsp_open() (BUSY if that fails) and handles it
			  * as PASS */
	NB_RSP_PASS,	 /* our session from our client, tagged: the caller
			  * checks the tag (else FOREIGN), then the link
			  * ACKs/dedupes it and a fresh one goes on */
};

/* After the link accepted a fresh (non-ACK) message of the session. */
enum nb_rsp_action {
	NB_RSP_A_NONE = 0, /* not expected in this state: ignore */
	NB_RSP_A_SETUP,	   /* PARAMS: set up, then nb_rsp_setup_done() */
	NB_RSP_A_ARM,	   /* START: arm the test (state -> ARMED) */
	NB_RSP_A_ECHO,	   /* KEEPALIVE: echo the clock */
	NB_RSP_A_STOP,	   /* STOP: stop, collect, build results (-> STOPPED) */
	NB_RSP_A_RESULTS,  /* RESULTS_REQ: send the asked part */
	NB_RSP_A_END,	   /* DONE: end the session (-> IDLE) */
	NB_RSP_A_QUIT,	   /* QUIT: end the session (-> IDLE) and exit */
	NB_RSP_A_REFUSE,   /* QUIT the posture forbids: refuse it, the
			    * session goes on unchanged */
};

/* IDLE, session 0, posture 0 (no key, QUIT refused). */
void nb_rsp_init(struct nb_rsp *r);
/* The posture the responder was started with (NB_POSTURE_* bits). */
void nb_rsp_set_posture(struct nb_rsp *r, unsigned int posture);

/*
 * HELLO: untagged -> DROP; idle -> HELLO; a session open -> BUSY, except the
 * open session's own HELLO from its client (a late retransmission) -> DROP.
 * A tagged PARAMS or QUIT of a session that is not the open one -> OPEN.
 * Otherwise, idle -> DROP; another session -> DROP; the open session ->
 * PASS if tagged and from_peer, else FOREIGN.
 */
enum nb_rsp_gate nb_rsp_gate(const struct nb_rsp *r, const struct nb_ctl_msg *m,
			     int from_peer);

/* IDLE -> SESSION with this session id: 0, or -EBUSY (a session is open,
 * nothing changes). */
int nb_rsp_open(struct nb_rsp *r, uint32_t session);

/*
 * A fresh message of type `type` of the open session (NONE when idle):
 *   PARAMS       SETUP    SESSION only (one test per session)
 *   START        ARM      READY only, -> ARMED
 *   KEEPALIVE    ECHO     any state, unchanged
 *   STOP         STOP     ARMED only, -> STOPPED
 *   RESULTS_REQ  RESULTS  STOPPED only
 *   DONE         END      any state, -> IDLE (session 0)
 *   QUIT         QUIT     any state, -> IDLE (session 0), when the
 *                         posture lets anyone quit (nb_rsp_who); else
 *                REFUSE   nothing changes
 *   others       NONE
 */
enum nb_rsp_action nb_rsp_on_msg(struct nb_rsp *r, uint8_t type);

/* After SETUP: SESSION -> READY if ok, else stays SESSION (a later PARAMS
 * is tried again).  No effect in any other state. */
void nb_rsp_setup_done(struct nb_rsp *r, int ok);

/* Any state -> IDLE, session 0 (timeout, interrupt); the posture stays. */
void nb_rsp_end(struct nb_rsp *r);

/* "idle", "session", "ready", "armed", "stopped"; "unknown" otherwise. */
const char *nb_rsp_state_name(enum nb_rsp_state s);

/* --- client ------------------------------------------------------------- */

enum nb_cli_state {
	NB_CLI_HELLO = 0, /* HELLO sent, waiting for WELCOME */
	NB_CLI_PARAMS,	  /* PARAMS sent, waiting for ACCEPT or REJECT */
	NB_CLI_RUNNING,	  /* test set up, clock rounds, START, the test, STOP */
	NB_CLI_RESULTS,	  /* RESULTS_REQ for part `part` sent */
	NB_CLI_CLOSED,	  /* DONE or QUIT sent, or failed */
};

struct nb_cli {
	enum nb_cli_state state;
	uint32_t session; /* ours, nonzero */
	uint32_t part;	  /* RESULTS: the part awaited */
	uint32_t peer_ip; /* the responder's address */
};

/* Where a decoded message goes, before the link. */
enum nb_cli_route {
	NB_CLI_DROP = 0, /* not ours */
	NB_CLI_CLOCK,	 /* our session's KEEPALIVE echo: a clock sample,
			  * never ACKed or passed to the link */
	NB_CLI_DIRECT,	 /* BUSY, ERROR, or an untagged REJECT before
			  * WELCOME: straight to nb_cli_on_msg (a refusal
			  * comes from a responder with no session of ours) */
	NB_CLI_LINK,	 /* our session: the link ACKs/dedupes it, then a
			  * fresh one goes to nb_cli_on_msg */
};

enum nb_cli_event {
	NB_CLI_E_NONE = 0, /* not expected now: ignore */
	NB_CLI_E_WELCOME,  /* HELLO answered (stays HELLO) */
	NB_CLI_E_BUSY,	   /* refused: busy (-> CLOSED) */
	NB_CLI_E_ACCEPT,   /* the test is set up */
	NB_CLI_E_REJECT,   /* (-> CLOSED) */
	NB_CLI_E_RESULTS,  /* the awaited RESULTS part */
	NB_CLI_E_ABORT,	   /* ERROR from the responder (-> CLOSED) */
	NB_CLI_E_INTERVAL, /* the responder's counters of an interval */
};

/* State HELLO, part 0. */
void nb_cli_init(struct nb_cli *c, uint32_t session, uint32_t peer_ip);

/*
 * CLOSED, not from_peer, or another session: DROP.  In HELLO (no session
 * key yet): untagged BUSY, ERROR or REJECT -> DIRECT; a tagged, authentic
 * WELCOME -> LINK; anything else DROP.  Later: untagged or not authentic
 * -> DROP; KEEPALIVE -> CLOCK; BUSY, ERROR -> DIRECT; others -> LINK.
 */
enum nb_cli_route nb_cli_route(const struct nb_cli *c,
			       const struct nb_ctl_msg *m, int from_peer,
			       int authentic);

/*
 * A message routed DIRECT, or a fresh one routed LINK (NONE in CLOSED):
 *   ERROR    ABORT    any state, -> CLOSED
 *   BUSY     BUSY     HELLO or PARAMS, -> CLOSED
 *   WELCOME  WELCOME  HELLO only
 *   ACCEPT   ACCEPT   PARAMS only
 *   REJECT   REJECT   HELLO or PARAMS, -> CLOSED
 *   RESULTS  RESULTS  RESULTS only, and only part c->part
 *   INTERVAL INTERVAL RUNNING or RESULTS (the last ones may come after
 *                     STOP), unchanged
 *   others   NONE
 */
enum nb_cli_event nb_cli_on_msg(struct nb_cli *c, const struct nb_ctl_msg *m);

/* The caller moves on after sending: state s, awaiting part `part`
 * (meaningful in RESULTS only). */
void nb_cli_set(struct nb_cli *c, enum nb_cli_state s, uint32_t part);

/* "hello", "params", "running", "results", "closed"; "unknown" otherwise. */
const char *nb_cli_state_name(enum nb_cli_state s);

#endif /* NB_PEER_SM_H */
