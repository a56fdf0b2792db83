/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iperf3's server side of the control connection, as a helper that keeps
 * 3.12's order (nb_iperf3_proto.h); the caller owns the sockets:
 *
 *   read the cookie (37 bytes)         write PARAM_EXCHANGE
 *   read the parameters (JSON)         the caller listens, then
 *                                      write CREATE_STREAMS
 *   the caller accepts the streams     write TEST_START, TEST_RUNNING
 *   read TEST_END                      the caller stops, then
 *                                      write EXCHANGE_RESULTS
 *   read the client's results          write ours, then DISPLAY_RESULTS
 *   read IPERF_DONE
 *
 * CLIENT_TERMINATE ends it at any point.  Parameters we refuse are
 * answered with SERVER_ERROR and the i_errno iperf3 would use.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_iperf3_proto.h"

static void
s_clear(struct nb_ip3_step *st)
{
	memset(st, 0, sizeof(*st));
}

static void
s_fail(struct nb_ip3_server *s, struct nb_ip3_step *st, const char *m)
{
	s->phase = NB_IP3_S_FAILED;
	st->act = NB_IP3_ACT_ERROR;
	st->out = NULL;
	st->out_len = 0;
	snprintf(st->msg, sizeof(st->msg), "%s", m);
}

static void
s_write(struct nb_ip3_server *s, struct nb_ip3_step *st, size_t n)
{
	st->act = NB_IP3_ACT_WRITE;
	st->out = s->out;
	st->out_len = n;
}

void
nb_ip3_server_init(struct nb_ip3_server *s, uint8_t *rxbuf, size_t rxcap)
{
	memset(s, 0, sizeof(*s));
	nb_ip3_rx_init(&s->rx, rxbuf, rxcap);
	s->phase = NB_IP3_S_COOKIE;
}

const uint8_t *
nb_ip3_server_cookie(const struct nb_ip3_server *s)
{
	return s->phase > NB_IP3_S_COOKIE ? s->cookie : NULL;
}

/* iperf3's i_errno for a refused parameter, from our message's key. */
static int32_t
params_ierrno(const char *msg)
{
	static const struct {
		const char *key;
		int32_t ie;
	} map[] = {
		{"authentication", NB_IP3_IEAUTHTEST},
		{"sctp:", 18},
		{"time:", 5},
		{"parallel:", 6},
		{"len:", 7},
		{"window:", 8},
		{"MSS:", 10},
		{"omit:", 12},
		{"reverse and bidirectional", 25},
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strncmp(msg, map[i].key, strlen(map[i].key)) == 0)
			return map[i].ie;
	return 114; /* unable to receive parameters from client */
}

void
nb_ip3_server_error(struct nb_ip3_server *s, int32_t ie, int32_t err,
		    struct nb_ip3_step *st)
{
	uint32_t v[2] = {(uint32_t)ie, (uint32_t)err};
	int i;

	s_clear(st);
	s->out[0] = (uint8_t)NB_IP3_SERVER_ERROR;
	for (i = 0; i < 2; i++) {
		s->out[1 + 4 * i] = (uint8_t)(v[i] >> 24);
		s->out[2 + 4 * i] = (uint8_t)(v[i] >> 16);
		s->out[3 + 4 * i] = (uint8_t)(v[i] >> 8);
		s->out[4 + 4 * i] = (uint8_t)v[i];
	}
	s->phase = NB_IP3_S_FAILED;
	st->act = NB_IP3_ACT_ERROR;
	st->out = s->out;
	st->out_len = 9;
	st->ierrno = ie;
	snprintf(st->msg, sizeof(st->msg), "%s",
		 nb_ip3_ierrno_str(ie) ? nb_ip3_ierrno_str(ie)
				       : "server error");
}

/* The cookie's bytes; PARAM_EXCHANGE once all 37 are in. */
static size_t
on_cookie(struct nb_ip3_server *s, const uint8_t *p, size_t n,
	  struct nb_ip3_step *st)
{
	size_t k = NB_IP3_COOKIE_LEN - s->clen;

	if (k > n)
		k = n;
	memcpy(s->cookie + s->clen, p, k);
	s->clen += k;
	if (s->clen < NB_IP3_COOKIE_LEN)
		return k;
	if (nb_ip3_cookie_check(s->cookie, NB_IP3_COOKIE_LEN) < 0) {
		s_fail(s, st, "the client's cookie is not an iperf3 cookie");
		return k;
	}
	nb_ip3_rx_expect(&s->rx, NB_IP3_EXPECT_JSON);
	s->out[0] = NB_IP3_PARAM_EXCHANGE;
	s_write(s, st, 1);
	s->phase = NB_IP3_S_WAIT_PARAMS;
	return k;
}

static void
on_json(struct nb_ip3_server *s, json_t *o, struct nb_ip3_step *st)
{
	char e[NB_IP3_MSG_LEN - 32], m[NB_IP3_MSG_LEN];
	int32_t ie;

	if (s->phase == NB_IP3_S_WAIT_PARAMS) {
		if (nb_ip3_params_parse(o, &s->p, e, sizeof(e)) < 0) {
			ie = params_ierrno(e);
			nb_ip3_server_error(s, ie, 0, st);
			snprintf(st->msg, sizeof(st->msg),
				 "client's parameters: %s", e);
			return;
		}
		st->act = NB_IP3_ACT_PARAMS;
		st->params = &s->p;
		s->phase = NB_IP3_S_LISTENING;
		return;
	}
	if (nb_ip3_results_parse(o, &s->peer, e, sizeof(e)) < 0) {
		snprintf(m, sizeof(m), "client's results: %s", e);
		s_fail(s, st, m);
		return;
	}
	st->act = NB_IP3_ACT_PEER_RESULTS;
	st->peer = &s->peer;
	s->phase = NB_IP3_S_RESULTS;
}

static void
on_state(struct nb_ip3_server *s, int state, struct nb_ip3_step *st)
{
	char m[NB_IP3_MSG_LEN];

	if (state == NB_IP3_CLIENT_TERMINATE) {
		s_fail(s, st, "the client has terminated");
		return;
	}
	if (state == NB_IP3_TEST_END &&
	    (s->phase == NB_IP3_S_RUNNING || s->phase == NB_IP3_S_STREAMS)) {
		st->act = NB_IP3_ACT_TEST_END;
		s->phase = NB_IP3_S_TEST_END;
		return;
	}
	if (state == NB_IP3_IPERF_DONE && s->phase == NB_IP3_S_WAIT_DONE) {
		st->act = NB_IP3_ACT_DONE;
		s->phase = NB_IP3_S_DONE;
		return;
	}
	/* 3.12's server ignores a client's TEST_START */
	if (state == NB_IP3_TEST_START && s->phase != NB_IP3_S_WAIT_DONE)
		return;
	snprintf(m, sizeof(m), "unexpected state %d (%s) from the client",
		 state, nb_ip3_state_name(state));
	s_fail(s, st, m);
}

size_t
nb_ip3_server_input(struct nb_ip3_server *s, const uint8_t *p, size_t n,
		    struct nb_ip3_step *st)
{
	struct nb_ip3_ev ev;
	size_t used;

	s_clear(st);
	if (s->phase == NB_IP3_S_FAILED || s->phase == NB_IP3_S_DONE) {
		if (n > 0)
			s_fail(s, st, "bytes after the end of the session");
		return 0;
	}
	if (s->phase == NB_IP3_S_COOKIE)
		return on_cookie(s, p, n, st);
	used = nb_ip3_rx_feed(&s->rx, p, n, &ev);
	switch (ev.type) {
	case NB_IP3_EV_NONE:
		break;
	case NB_IP3_EV_STATE:
		on_state(s, ev.state, st);
		break;
	case NB_IP3_EV_JSON:
		on_json(s, ev.json, st);
		json_decref(ev.json);
		break;
	case NB_IP3_EV_SERVER_ERROR:
		s_fail(s, st, "SERVER_ERROR from the client");
		break;
	default:
		s_fail(s, st, ev.msg);
		break;
	}
	return used;
}

void
nb_ip3_server_create_streams(struct nb_ip3_server *s, struct nb_ip3_step *st)
{
	s_clear(st);
	if (s->phase != NB_IP3_S_LISTENING) {
		s_fail(s, st, "CREATE_STREAMS out of turn");
		return;
	}
	s->out[0] = NB_IP3_CREATE_STREAMS;
	s_write(s, st, 1);
	s->phase = NB_IP3_S_STREAMS;
}

void
nb_ip3_server_start(struct nb_ip3_server *s, struct nb_ip3_step *st)
{
	s_clear(st);
	if (s->phase != NB_IP3_S_STREAMS) {
		s_fail(s, st, "TEST_START out of turn");
		return;
	}
	s->out[0] = NB_IP3_TEST_START;
	s->out[1] = NB_IP3_TEST_RUNNING;
	s_write(s, st, 2);
	s->phase = NB_IP3_S_RUNNING;
}

void
nb_ip3_server_exchange(struct nb_ip3_server *s, struct nb_ip3_step *st)
{
	s_clear(st);
	if (s->phase != NB_IP3_S_TEST_END ||
	    nb_ip3_rx_expect(&s->rx, NB_IP3_EXPECT_JSON) < 0) {
		s_fail(s, st, "EXCHANGE_RESULTS out of turn");
		return;
	}
	s->out[0] = NB_IP3_EXCHANGE_RESULTS;
	s_write(s, st, 1);
	s->phase = NB_IP3_S_WAIT_RESULTS;
}

int
nb_ip3_server_results(struct nb_ip3_server *s,
		      const struct nb_ip3_results *mine, uint8_t *out,
		      size_t cap)
{
	int n;

	if (s->phase != NB_IP3_S_RESULTS)
		return -EPROTO;
	n = nb_ip3_results_frame(mine, out, cap);
	if (n < 0)
		return n;
	if ((size_t)n >= cap)
		return -ENOSPC;
	out[n] = NB_IP3_DISPLAY_RESULTS;
	s->phase = NB_IP3_S_WAIT_DONE;
	return n + 1;
}
