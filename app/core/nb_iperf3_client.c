/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iperf3's client side of the control connection, as a state machine
 * (nb_iperf3_proto.h).  The order, from iperf3 3.12's client and server:
 *
 *   client: cookie (37 bytes)
 *   server: PARAM_EXCHANGE        client: parameters (JSON)
 *   server: CREATE_STREAMS        (client opens the data streams)
 *   server: TEST_START, TEST_RUNNING
 *   client: TEST_END              (its time, bytes or blocks are done)
 *   server: EXCHANGE_RESULTS      client: its results (JSON)
 *   server: its results (JSON)
 *   server: DISPLAY_RESULTS       client: IPERF_DONE, and closes
 *
 * ACCESS_DENIED (busy), SERVER_ERROR (-2, i_errno, errno) and
 * SERVER_TERMINATE end it at any point; the client may send
 * CLIENT_TERMINATE.  We accept each state only where the order above
 * puts it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_iperf3_proto.h"

static const char *const phase_names[] = {
	[NB_IP3_C_HELLO] = "before the cookie",
	[NB_IP3_C_WAIT_PARAM] = "waiting for PARAM_EXCHANGE",
	[NB_IP3_C_WAIT_CREATE] = "waiting for CREATE_STREAMS",
	[NB_IP3_C_WAIT_START] = "waiting for TEST_START",
	[NB_IP3_C_WAIT_RUNNING] = "waiting for TEST_RUNNING",
	[NB_IP3_C_RUNNING] = "while the test runs",
	[NB_IP3_C_WAIT_EXCHANGE] = "waiting for EXCHANGE_RESULTS",
	[NB_IP3_C_SENDING_RESULTS] = "before our results were sent",
	[NB_IP3_C_WAIT_RESULTS] = "waiting for the server's results",
	[NB_IP3_C_WAIT_DISPLAY] = "waiting for DISPLAY_RESULTS",
	[NB_IP3_C_DONE] = "after the test",
	[NB_IP3_C_FAILED] = "after a failure",
};

static void
step_clear(struct nb_ip3_step *st)
{
	memset(st, 0, sizeof(*st));
}

static void
fail(struct nb_ip3_client *c, struct nb_ip3_step *st, const char *m)
{
	c->phase = NB_IP3_C_FAILED;
	st->act = NB_IP3_ACT_ERROR;
	st->out = NULL;
	st->out_len = 0;
	snprintf(st->msg, sizeof(st->msg), "%s", m);
}

/* One state byte to write. */
static void
write_state(struct nb_ip3_client *c, struct nb_ip3_step *st, int8_t s)
{
	c->out[0] = (uint8_t)s;
	st->out = c->out;
	st->out_len = 1;
}

int
nb_ip3_client_init(struct nb_ip3_client *c, const struct nb_ip3_params *p,
		   const char cookie[NB_IP3_COOKIE_LEN], uint8_t *rxbuf,
		   size_t rxcap)
{
	struct nb_ip3_params chk;
	char msg[NB_IP3_MSG_LEN];
	json_t *o;
	int r;

	memset(c, 0, sizeof(*c));
	if (nb_ip3_cookie_check((const uint8_t *)cookie, NB_IP3_COOKIE_LEN))
		return -EINVAL;
	/* what we send must be what a server (ours too) would accept */
	o = nb_ip3_params_json(p);
	if (o == NULL)
		return -ENOMEM;
	r = nb_ip3_params_parse(o, &chk, msg, sizeof(msg));
	json_decref(o);
	if (r < 0)
		return -EINVAL;
	c->p = *p;
	memcpy(c->cookie, cookie, NB_IP3_COOKIE_LEN);
	nb_ip3_rx_init(&c->rx, rxbuf, rxcap);
	c->phase = NB_IP3_C_HELLO;
	return 0;
}

void
nb_ip3_client_hello(struct nb_ip3_client *c, struct nb_ip3_step *st)
{
	step_clear(st);
	if (c->phase != NB_IP3_C_HELLO) {
		fail(c, st, "cookie asked for twice");
		return;
	}
	memcpy(c->out, c->cookie, NB_IP3_COOKIE_LEN);
	st->act = NB_IP3_ACT_WRITE;
	st->out = c->out;
	st->out_len = NB_IP3_COOKIE_LEN;
	c->phase = NB_IP3_C_WAIT_PARAM;
}

/* PARAM_EXCHANGE: our parameters, framed. */
static void
send_params(struct nb_ip3_client *c, struct nb_ip3_step *st)
{
	json_t *o = nb_ip3_params_json(&c->p);
	int n;

	if (o == NULL) {
		fail(c, st, "out of memory for the parameters");
		return;
	}
	n = nb_ip3_json_frame(o, c->out, sizeof(c->out));
	json_decref(o);
	if (n < 0) {
		fail(c, st, "parameters too long to send");
		return;
	}
	st->act = NB_IP3_ACT_WRITE;
	st->out = c->out;
	st->out_len = (size_t)n;
	c->phase = NB_IP3_C_WAIT_CREATE;
}

static void
unexpected(struct nb_ip3_client *c, struct nb_ip3_step *st, int s)
{
	char m[NB_IP3_MSG_LEN];

	if (s == 0)
		snprintf(m, sizeof(m),
			 "unexpected byte 0 %s (a JSON message where a state "
			 "was due?)",
			 phase_names[c->phase]);
	else
		snprintf(m, sizeof(m), "unexpected state %d (%s) %s", s,
			 nb_ip3_state_name(s), phase_names[c->phase]);
	fail(c, st, m);
}

/* A state byte from the server. */
static void
on_state(struct nb_ip3_client *c, struct nb_ip3_step *st, int s)
{
	if (s == NB_IP3_ACCESS_DENIED) {
		st->ierrno = NB_IP3_IEACCESSDENIED;
		fail(c, st, nb_ip3_ierrno_str(NB_IP3_IEACCESSDENIED));
		return;
	}
	if (s == NB_IP3_SERVER_TERMINATE) {
		fail(c, st, "the server has terminated");
		return;
	}
	switch (c->phase) {
	case NB_IP3_C_WAIT_PARAM:
		if (s == NB_IP3_PARAM_EXCHANGE) {
			send_params(c, st);
			return;
		}
		break;
	case NB_IP3_C_WAIT_CREATE:
		if (s == NB_IP3_CREATE_STREAMS) {
			st->act = NB_IP3_ACT_CREATE_STREAMS;
			st->nstreams = (unsigned int)c->p.parallel *
				       (c->p.bidir ? 2u : 1u);
			c->phase = NB_IP3_C_WAIT_START;
			return;
		}
		break;
	case NB_IP3_C_WAIT_START:
		if (s == NB_IP3_TEST_START) {
			st->act = NB_IP3_ACT_START;
			c->phase = NB_IP3_C_WAIT_RUNNING;
			return;
		}
		break;
	case NB_IP3_C_WAIT_RUNNING:
		if (s == NB_IP3_TEST_RUNNING) {
			st->act = NB_IP3_ACT_RUNNING;
			c->phase = NB_IP3_C_RUNNING;
			return;
		}
		break;
	case NB_IP3_C_WAIT_EXCHANGE:
		if (s == NB_IP3_EXCHANGE_RESULTS) {
			st->act = NB_IP3_ACT_SEND_RESULTS;
			c->phase = NB_IP3_C_SENDING_RESULTS;
			return;
		}
		break;
	case NB_IP3_C_WAIT_DISPLAY:
		if (s == NB_IP3_DISPLAY_RESULTS) {
			write_state(c, st, NB_IP3_IPERF_DONE);
			st->act = NB_IP3_ACT_DONE;
			c->phase = NB_IP3_C_DONE;
			return;
		}
		break;
	default:
		break;
	}
	unexpected(c, st, s);
}

static void
on_json(struct nb_ip3_client *c, struct nb_ip3_step *st, json_t *o)
{
	char m[NB_IP3_MSG_LEN], e[NB_IP3_MSG_LEN - 32];

	if (c->phase != NB_IP3_C_WAIT_RESULTS) {
		/* the parser yields JSON only where we asked for it */
		fail(c, st, "JSON message out of turn");
		return;
	}
	if (nb_ip3_results_parse(o, &c->peer, e, sizeof(e)) < 0) {
		snprintf(m, sizeof(m), "server's results: %s", e);
		fail(c, st, m);
		return;
	}
	st->act = NB_IP3_ACT_PEER_RESULTS;
	st->peer = &c->peer;
	if (c->p.get_server_output) {
		json_t *j = json_object_get(o, "server_output_json");

		if (j == NULL)
			j = json_object_get(o, "server_output_text");
		json_decref(c->server_output);
		c->server_output = json_incref(j);
	}
	c->phase = NB_IP3_C_WAIT_DISPLAY;
}

size_t
nb_ip3_client_input(struct nb_ip3_client *c, const uint8_t *p, size_t n,
		    struct nb_ip3_step *st)
{
	struct nb_ip3_ev ev;
	size_t used;

	step_clear(st);
	if (c->phase == NB_IP3_C_FAILED) {
		fail(c, st, "the control session has already failed");
		return 0;
	}
	if (c->phase == NB_IP3_C_DONE) {
		/* iperf3's server sends nothing after DISPLAY_RESULTS */
		if (n == 0)
			return 0;
		fail(c, st, "bytes after DISPLAY_RESULTS");
		return 0;
	}
	if (c->phase == NB_IP3_C_HELLO) {
		fail(c, st, "server bytes before our cookie");
		return 0;
	}
	if (c->phase == NB_IP3_C_SENDING_RESULTS && n > 0) {
		/* the server waits for ours before it sends anything */
		fail(c, st, "server bytes before our results were sent");
		return 0;
	}
	used = nb_ip3_rx_feed(&c->rx, p, n, &ev);
	switch (ev.type) {
	case NB_IP3_EV_NONE:
		break;
	case NB_IP3_EV_STATE:
		on_state(c, st, ev.state);
		break;
	case NB_IP3_EV_JSON:
		on_json(c, st, ev.json);
		json_decref(ev.json);
		break;
	case NB_IP3_EV_SERVER_ERROR:
		st->ierrno = ev.ierrno;
		fail(c, st, ev.msg);
		break;
	case NB_IP3_EV_ERROR:
	default:
		fail(c, st, ev.msg);
		break;
	}
	return used;
}

void
nb_ip3_client_test_end(struct nb_ip3_client *c, struct nb_ip3_step *st)
{
	step_clear(st);
	/* a bytes or blocks test may end before TEST_RUNNING is read */
	if (c->phase != NB_IP3_C_RUNNING && c->phase != NB_IP3_C_WAIT_RUNNING) {
		char m[NB_IP3_MSG_LEN];

		snprintf(m, sizeof(m), "test end %s", phase_names[c->phase]);
		fail(c, st, m);
		return;
	}
	write_state(c, st, NB_IP3_TEST_END);
	st->act = NB_IP3_ACT_WRITE;
	c->phase = NB_IP3_C_WAIT_EXCHANGE;
}

int
nb_ip3_client_results(struct nb_ip3_client *c,
		      const struct nb_ip3_results *mine, uint8_t *out,
		      size_t cap)
{
	int n;

	if (c->phase != NB_IP3_C_SENDING_RESULTS)
		return -EPROTO;
	n = nb_ip3_results_frame(mine, out, cap);
	if (n < 0)
		return n;
	if (nb_ip3_rx_expect(&c->rx, NB_IP3_EXPECT_JSON) < 0)
		return -EPROTO;
	c->phase = NB_IP3_C_WAIT_RESULTS;
	return n;
}

void
nb_ip3_client_abort(struct nb_ip3_client *c, struct nb_ip3_step *st)
{
	step_clear(st);
	st->act = NB_IP3_ACT_ERROR;
	snprintf(st->msg, sizeof(st->msg), "the client has terminated");
	/* nothing to tell a server that never saw our cookie, or is done */
	if (c->phase != NB_IP3_C_HELLO && c->phase != NB_IP3_C_DONE &&
	    c->phase != NB_IP3_C_FAILED)
		write_state(c, st, NB_IP3_CLIENT_TERMINATE);
	c->phase = NB_IP3_C_FAILED;
}

void
nb_ip3_client_eof(struct nb_ip3_client *c, struct nb_ip3_step *st)
{
	struct nb_ip3_ev ev;
	char m[NB_IP3_MSG_LEN];

	step_clear(st);
	if (c->phase == NB_IP3_C_DONE)
		return;
	if (c->phase == NB_IP3_C_FAILED) {
		fail(c, st, "the control session has already failed");
		return;
	}
	nb_ip3_rx_eof(&c->rx, &ev);
	if (ev.type == NB_IP3_EV_SERVER_ERROR) {
		st->ierrno = ev.ierrno;
		fail(c, st, ev.msg);
		return;
	}
	if (ev.type == NB_IP3_EV_ERROR) {
		fail(c, st, ev.msg);
		return;
	}
	snprintf(m, sizeof(m), "control socket has closed unexpectedly %s",
		 phase_names[c->phase]);
	fail(c, st, m);
}

void
nb_ip3_client_release(struct nb_ip3_client *c)
{
	json_decref(c->server_output);
	c->server_output = NULL;
}
