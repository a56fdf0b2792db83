/* SPDX-License-Identifier: BSD-3-Clause */
/* Peer-mode session state machines (see nb_peer_sm.h).  Pure. */
#include <errno.h>

#include "nb_peer_sm.h"

/* --- responder ---------------------------------------------------------- */

void
nb_rsp_init(struct nb_rsp *r)
{
	r->state = NB_RSP_IDLE;
	r->session = 0;
	r->posture = 0;
}

void
nb_rsp_set_posture(struct nb_rsp *r, unsigned int posture)
{
	r->posture = posture;
}

enum nb_rsp_who
nb_rsp_who(uint8_t type, unsigned int posture)
{
	enum nb_rsp_who opener =
		posture & NB_POSTURE_KEY ? NB_WHO_KEY_HOLDER : NB_WHO_ANYONE;

	switch (type) {
	case NB_CTL_HELLO:
	case NB_CTL_PARAMS:
		return opener;
	case NB_CTL_QUIT:
		return posture & NB_POSTURE_ALLOW_QUIT ? opener : NB_WHO_NOBODY;
	case NB_CTL_START:
	case NB_CTL_KEEPALIVE:
	case NB_CTL_STOP:
	case NB_CTL_RESULTS_REQ:
	case NB_CTL_DONE:
	case NB_CTL_ACK:
		return NB_WHO_CLIENT;
	default:
		/* the responder's own messages, and unknown types */
		return NB_WHO_NOBODY;
	}
}

const char *
nb_rsp_who_name(enum nb_rsp_who w)
{
	switch (w) {
	case NB_WHO_NOBODY:
		return "nobody";
	case NB_WHO_ANYONE:
		return "any host";
	case NB_WHO_KEY_HOLDER:
		return "a key holder";
	case NB_WHO_CLIENT:
		return "the session's client";
	}
	return "unknown";
}

enum nb_rsp_gate
nb_rsp_gate(const struct nb_rsp *r, const struct nb_ctl_msg *m, int from_peer)
{
	int ours = r->state != NB_RSP_IDLE && m->session == r->session;

	if (m->type == NB_CTL_HELLO) {
		/* since version 9 a HELLO is tagged (nb_auth_hello_key) */
		if (!m->tagged)
			return NB_RSP_DROP;
		if (r->state == NB_RSP_IDLE)
			return NB_RSP_HELLO;
		/* our client's HELLO, retransmitted late: nothing to say */
		return ours && from_peer ? NB_RSP_DROP : NB_RSP_BUSY;
	}
	if (m->tagged && !ours &&
	    (m->type == NB_CTL_PARAMS || m->type == NB_CTL_QUIT))
		return NB_RSP_OPEN;
	if (!ours)
		return NB_RSP_DROP;
	return from_peer && m->tagged ? NB_RSP_PASS : NB_RSP_FOREIGN;
}

int
nb_rsp_open(struct nb_rsp *r, uint32_t session)
{
	if (r->state != NB_RSP_IDLE)
		return -EBUSY;
	r->state = NB_RSP_SESSION;
	r->session = session;
	return 0;
}

enum nb_rsp_action
nb_rsp_on_msg(struct nb_rsp *r, uint8_t type)
{
	if (r->state == NB_RSP_IDLE)
		return NB_RSP_A_NONE;
	switch (type) {
	case NB_CTL_PARAMS:
		/* One test per session: a repeated PARAMS is ignored. */
		return r->state == NB_RSP_SESSION ? NB_RSP_A_SETUP
						  : NB_RSP_A_NONE;
	case NB_CTL_START:
		if (r->state != NB_RSP_READY)
			return NB_RSP_A_NONE;
		r->state = NB_RSP_ARMED;
		return NB_RSP_A_ARM;
	case NB_CTL_KEEPALIVE:
		return NB_RSP_A_ECHO;
	case NB_CTL_STOP:
		if (r->state != NB_RSP_ARMED)
			return NB_RSP_A_NONE;
		r->state = NB_RSP_STOPPED;
		return NB_RSP_A_STOP;
	case NB_CTL_RESULTS_REQ:
		return r->state == NB_RSP_STOPPED ? NB_RSP_A_RESULTS
						  : NB_RSP_A_NONE;
	case NB_CTL_DONE:
		nb_rsp_end(r);
		return NB_RSP_A_END;
	case NB_CTL_QUIT:
		if (nb_rsp_who(NB_CTL_QUIT, r->posture) == NB_WHO_NOBODY)
			return NB_RSP_A_REFUSE;
		nb_rsp_end(r);
		return NB_RSP_A_QUIT;
	default:
		return NB_RSP_A_NONE;
	}
}

void
nb_rsp_setup_done(struct nb_rsp *r, int ok)
{
	if (r->state == NB_RSP_SESSION && ok)
		r->state = NB_RSP_READY;
}

void
nb_rsp_end(struct nb_rsp *r)
{
	r->state = NB_RSP_IDLE;
	r->session = 0;
}

const char *
nb_rsp_state_name(enum nb_rsp_state s)
{
	switch (s) {
	case NB_RSP_IDLE:
		return "idle";
	case NB_RSP_SESSION:
		return "session";
	case NB_RSP_READY:
		return "ready";
	case NB_RSP_ARMED:
		return "armed";
	case NB_RSP_STOPPED:
		return "stopped";
	}
	return "unknown";
}

/* --- client ------------------------------------------------------------- */

void
nb_cli_init(struct nb_cli *c, uint32_t session, uint32_t peer_ip)
{
	c->state = NB_CLI_HELLO;
	c->session = session;
	c->part = 0;
	c->peer_ip = peer_ip;
}

enum nb_cli_route
nb_cli_route(const struct nb_cli *c, const struct nb_ctl_msg *m, int from_peer,
	     int authentic)
{
	if (c->state == NB_CLI_CLOSED || !from_peer || m->session != c->session)
		return NB_CLI_DROP;
	if (c->state == NB_CLI_HELLO) {
		/* no key yet: a refusal comes untagged, WELCOME signed */
		if (!m->tagged)
			return m->type == NB_CTL_BUSY ||
					       m->type == NB_CTL_ERROR ||
					       m->type == NB_CTL_REJECT
				       ? NB_CLI_DIRECT
				       : NB_CLI_DROP;
		return m->type == NB_CTL_WELCOME && authentic ? NB_CLI_LINK
							      : NB_CLI_DROP;
	}
	if (!m->tagged || !authentic)
		return NB_CLI_DROP;
	if (m->type == NB_CTL_KEEPALIVE)
		return NB_CLI_CLOCK;
	if (m->type == NB_CTL_BUSY || m->type == NB_CTL_ERROR)
		return NB_CLI_DIRECT;
	return NB_CLI_LINK;
}

enum nb_cli_event
nb_cli_on_msg(struct nb_cli *c, const struct nb_ctl_msg *m)
{
	if (c->state == NB_CLI_CLOSED)
		return NB_CLI_E_NONE;
	switch (m->type) {
	case NB_CTL_ERROR:
		c->state = NB_CLI_CLOSED;
		return NB_CLI_E_ABORT;
	case NB_CTL_BUSY:
		if (c->state != NB_CLI_HELLO && c->state != NB_CLI_PARAMS)
			return NB_CLI_E_NONE;
		c->state = NB_CLI_CLOSED;
		return NB_CLI_E_BUSY;
	case NB_CTL_WELCOME:
		return c->state == NB_CLI_HELLO ? NB_CLI_E_WELCOME
						: NB_CLI_E_NONE;
	case NB_CTL_ACCEPT:
		return c->state == NB_CLI_PARAMS ? NB_CLI_E_ACCEPT
						 : NB_CLI_E_NONE;
	case NB_CTL_REJECT:
		if (c->state != NB_CLI_HELLO && c->state != NB_CLI_PARAMS)
			return NB_CLI_E_NONE;
		c->state = NB_CLI_CLOSED;
		return NB_CLI_E_REJECT;
	case NB_CTL_RESULTS:
		return c->state == NB_CLI_RESULTS && m->u.res.part == c->part
			       ? NB_CLI_E_RESULTS
			       : NB_CLI_E_NONE;
	case NB_CTL_INTERVAL:
		return c->state == NB_CLI_RUNNING || c->state == NB_CLI_RESULTS
			       ? NB_CLI_E_INTERVAL
			       : NB_CLI_E_NONE;
	default:
		return NB_CLI_E_NONE;
	}
}

void
nb_cli_set(struct nb_cli *c, enum nb_cli_state s, uint32_t part)
{
	c->state = s;
	c->part = part;
}

const char *
nb_cli_state_name(enum nb_cli_state s)
{
	switch (s) {
	case NB_CLI_HELLO:
		return "hello";
	case NB_CLI_PARAMS:
		return "params";
	case NB_CLI_RUNNING:
		return "running";
	case NB_CLI_RESULTS:
		return "results";
	case NB_CLI_CLOSED:
		return "closed";
	}
	return "unknown";
}
