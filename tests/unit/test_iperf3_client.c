/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iperf3's client state machine (nb_iperf3_client.c) fed what iperf3
 * 3.12's server wrote (iperf3_golden.h), one byte at a time and in random
 * chunks: it must write what 3.12's client wrote (the same cookie, the
 * same parameters, TEST_END, IPERF_DONE) and ask for the same actions.
 * Then every way a session fails, with its message.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_iperf3_proto.h"

#include "iperf3_golden.h"

/* What a session did: the client's bytes and its actions in order. */
struct run {
	uint8_t out[4096];
	size_t out_len;
	int acts[32];
	int nacts;
	unsigned int nstreams;
	struct nb_ip3_results peer;
	char msg[NB_IP3_MSG_LEN];
	int32_t ierrno;
};

static uint8_t rxbuf[4096];

static void
emit(struct run *r, const uint8_t *p, size_t n)
{
	assert_true(r->out_len + n <= sizeof(r->out));
	memcpy(r->out + r->out_len, p, n);
	r->out_len += n;
}

/* Our results, as the caller would hand them over. */
static void
my_results(struct nb_ip3_results *m)
{
	memset(m, 0, sizeof(*m));
	m->cpu_total = 1.5;
	m->nstreams = 1;
	m->s[0].id = 1;
	m->s[0].bytes = 131072;
	m->s[0].retransmits = -1;
	m->s[0].packets = 4;
	m->s[0].end_time = 1.0;
}

/* One step's action, as a caller reacts to it. */
static void
react(struct nb_ip3_client *c, struct run *r, struct nb_ip3_step *st)
{
	struct nb_ip3_results mine;
	struct nb_ip3_step e;
	uint8_t buf[1024];
	int n;

	if (st->act == NB_IP3_ACT_NONE)
		return;
	assert_true(r->nacts < 32);
	r->acts[r->nacts++] = st->act;
	switch (st->act) {
	case NB_IP3_ACT_WRITE:
	case NB_IP3_ACT_DONE:
		emit(r, st->out, st->out_len);
		break;
	case NB_IP3_ACT_CREATE_STREAMS:
		r->nstreams = st->nstreams;
		break;
	case NB_IP3_ACT_RUNNING:
		/* the test runs, and ends: TEST_END */
		nb_ip3_client_test_end(c, &e);
		assert_int_equal(e.act, NB_IP3_ACT_WRITE);
		emit(r, e.out, e.out_len);
		break;
	case NB_IP3_ACT_SEND_RESULTS:
		my_results(&mine);
		n = nb_ip3_client_results(c, &mine, buf, sizeof(buf));
		assert_true(n > 4);
		emit(r, buf, (size_t)n);
		break;
	case NB_IP3_ACT_PEER_RESULTS:
		r->peer = *st->peer;
		break;
	case NB_IP3_ACT_ERROR:
		snprintf(r->msg, sizeof(r->msg), "%s", st->msg);
		r->ierrno = st->ierrno;
		emit(r, st->out, st->out_len);
		break;
	default:
		break;
	}
}

static uint32_t rng = 12345;

static size_t
rnd(size_t max)
{
	rng = rng * 1103515245u + 12345u;
	return (size_t)((rng >> 16) % max) + 1;
}

/* The server's bytes in chunks of chunk (0: random) through a client. */
static void
session(const char *cookie, const struct nb_ip3_params *p, const char *s2c,
	size_t n, size_t chunk, struct run *r, struct nb_ip3_client *c)
{
	struct nb_ip3_step st;
	size_t i = 0, k, used;

	memset(r, 0, sizeof(*r));
	assert_int_equal(nb_ip3_client_init(c, p, cookie, rxbuf, sizeof(rxbuf)),
			 0);
	nb_ip3_client_hello(c, &st);
	react(c, r, &st);
	while (i < n) {
		k = chunk ? chunk : rnd(40);
		if (k > n - i)
			k = n - i;
		used = nb_ip3_client_input(c, (const uint8_t *)s2c + i, k, &st);
		assert_true(used <= k);
		i += used;
		react(c, r, &st);
		if (st.act == NB_IP3_ACT_ERROR)
			return;
		/* nothing used means it wants the caller to act first */
		assert_true(used > 0 || st.act != NB_IP3_ACT_NONE);
	}
	nb_ip3_client_eof(c, &st);
	react(c, r, &st);
}

static void
udp_params(struct nb_ip3_params *p)
{
	nb_ip3_params_default(p);
	snprintf(p->client_version, sizeof(p->client_version), "3.12");
	p->udp = 1;
	p->time = 1;
	p->len = 32768;
	p->bandwidth = 1000000;
}

/* 3.12's client: cookie (37), params (4 + 142), TEST_END. */
#define UDP_PREFIX (37 + 4 + 142 + 1)

static void
check_udp_run(const struct run *r)
{
	static const int want[] = {
		NB_IP3_ACT_WRITE,	   NB_IP3_ACT_WRITE,
		NB_IP3_ACT_CREATE_STREAMS, NB_IP3_ACT_START,
		NB_IP3_ACT_RUNNING,	   NB_IP3_ACT_SEND_RESULTS,
		NB_IP3_ACT_PEER_RESULTS,   NB_IP3_ACT_DONE,
	};
	size_t rl;

	assert_int_equal(r->nacts, 8);
	assert_memory_equal(r->acts, want, sizeof(want));
	assert_int_equal(r->nstreams, 1);
	/* byte for byte what iperf3 wrote, up to its results */
	assert_memory_equal(r->out, g_udp_c2s, UDP_PREFIX);
	/* then our results, framed, and IPERF_DONE */
	rl = (size_t)r->out[UDP_PREFIX + 2] << 8 | r->out[UDP_PREFIX + 3];
	assert_int_equal(r->out_len, UDP_PREFIX + 4 + rl + 1);
	assert_int_equal(r->out[UDP_PREFIX], 0);
	assert_int_equal(r->out[UDP_PREFIX + 4], '{');
	assert_int_equal(r->out[r->out_len - 1], NB_IP3_IPERF_DONE);
	assert_int_equal(g_udp_c2s[G_UDP_C2S_LEN - 1], NB_IP3_IPERF_DONE);
	/* the server's results, -1 unwrapped */
	assert_int_equal(r->peer.nstreams, 1);
	assert_int_equal(r->peer.sender_has_retransmits, -1);
	assert_int_equal(r->peer.s[0].bytes, 131072);
	assert_int_equal(r->peer.s[0].packets, 4);
	assert_true(r->peer.s[0].jitter == 7.84208984375e-05);
	assert_string_equal(r->msg, "");
}

/*
 * --get-server-output: the server's results carry its report; a client
 * that asked holds it (server_output_text here, a -J server's object
 * likewise) until released; one that did not ask keeps nothing.
 */
static void
test_server_output(void **state)
{
	static struct nb_ip3_client c;
	static struct run r;
	static char s2c[4096];
	struct nb_ip3_params p;
	struct nb_ip3_results res;
	json_t *o;
	size_t n = 0;
	int k, ask;

	(void)state;
	for (ask = 0; ask < 2; ask++) {
		udp_params(&p);
		p.get_server_output = ask;
		memcpy(s2c, "\011\012\001\002\015", 5); /* 9 10 1 2 13 */
		n = 5;
		my_results(&res);
		o = nb_ip3_results_json(&res);
		json_object_set_new(o, "server_output_text",
				    json_string("Server listening on 5201\n"));
		k = nb_ip3_json_frame(o, (uint8_t *)s2c + n, sizeof(s2c) - n);
		json_decref(o);
		assert_true(k > 4);
		n += (size_t)k;
		s2c[n++] = NB_IP3_DISPLAY_RESULTS;
		session(g_udp_c2s, &p, s2c, n, 0, &r, &c);
		assert_string_equal(r.msg, "");
		assert_int_equal(r.peer.nstreams, res.nstreams);
		if (!ask) {
			assert_null(c.server_output);
			continue;
		}
		assert_non_null(c.server_output);
		assert_string_equal(json_string_value(c.server_output),
				    "Server listening on 5201\n");
		nb_ip3_client_release(&c);
		assert_null(c.server_output);
	}
}

static void
test_udp_session(void **state)
{
	static struct nb_ip3_client c;
	static struct run r;
	struct nb_ip3_params p;
	int i;

	(void)state;
	udp_params(&p);
	/* one byte at a time, all at once, and 200 random chunkings */
	session(g_udp_c2s, &p, g_udp_s2c, G_UDP_S2C_LEN, 1, &r, &c);
	check_udp_run(&r);
	session(g_udp_c2s, &p, g_udp_s2c, G_UDP_S2C_LEN, 4096, &r, &c);
	check_udp_run(&r);
	for (i = 0; i < 200; i++) {
		session(g_udp_c2s, &p, g_udp_s2c, G_UDP_S2C_LEN, 0, &r, &c);
		check_udp_run(&r);
	}
	assert_int_equal(c.phase, NB_IP3_C_DONE);
}

/* -R -n 1M -P 2: two streams, the server's two results. */
static void
test_rev_session(void **state)
{
	static struct nb_ip3_client c;
	static struct run r;
	struct nb_ip3_params p;
	size_t pre = 37 + 4 + 144 + 1;

	(void)state;
	nb_ip3_params_default(&p);
	snprintf(p.client_version, sizeof(p.client_version), "3.12");
	p.time = 0;
	p.bytes = 1048576;
	p.parallel = 2;
	p.reverse = 1;
	session(g_rev_c2s, &p, g_rev_s2c, G_REV_S2C_LEN, 1, &r, &c);
	assert_int_equal(r.nacts, 8);
	assert_int_equal(r.nstreams, 2);
	assert_memory_equal(r.out, g_rev_c2s, pre);
	assert_int_equal(r.peer.nstreams, 2);
	assert_int_equal(r.peer.s[1].id, 3);
	assert_int_equal(r.peer.sender_has_retransmits, 1);
	assert_string_equal(r.peer.congestion_used, "bbr");
	/* bidirectional: twice the streams */
	p.reverse = 0;
	p.bidir = 1;
	session(g_rev_c2s, &p, "\011\012", 2, 1, &r, &c);
	assert_int_equal(r.nstreams, 4);
}

/* A session on s2c ending in an error: its message and i_errno. */
static void
fails(const char *s2c, size_t n, const char *msg, int32_t ie)
{
	static struct nb_ip3_client c;
	static struct run r;
	struct nb_ip3_params p;

	udp_params(&p);
	session(g_udp_c2s, &p, s2c, n, 1, &r, &c);
	assert_string_equal(r.msg, msg);
	assert_int_equal(r.ierrno, ie);
	assert_int_equal(c.phase, NB_IP3_C_FAILED);
}

#define FAILS(lit, msg, ie) fails(lit, sizeof(lit) - 1, msg, ie)

static void
test_errors(void **state)
{
	(void)state;
	FAILS("\377", "the server is busy running a test. try again later",
	      121);
	FAILS("\376\0\0\0\007\0\0\0\0",
	      "server error: block size too large (maximum = 1048576 bytes)",
	      7);
	FAILS("\011\376\0\0\0\216", "server error: test authorization failed",
	      142);
	FAILS("\011\012\001\002\013", "the server has terminated", 0);
	FAILS("\001",
	      "unexpected state 1 (TEST_START) waiting for "
	      "PARAM_EXCHANGE",
	      0);
	FAILS("\011\001",
	      "unexpected state 1 (TEST_START) waiting for "
	      "CREATE_STREAMS",
	      0);
	FAILS("\011\012\001\001",
	      "unexpected state 1 (TEST_START) waiting "
	      "for TEST_RUNNING",
	      0);
	FAILS("\011\012\001\002\016",
	      "unexpected state 14 (DISPLAY_RESULTS) "
	      "waiting for EXCHANGE_RESULTS",
	      0);
	FAILS("\011\012\001\002\003",
	      "unexpected state 3 (UNKNOWN) waiting "
	      "for EXCHANGE_RESULTS",
	      0);
	FAILS("\011\0\0\0\2{}",
	      "unexpected byte 0 waiting for CREATE_STREAMS "
	      "(a JSON message where a state was due?)",
	      0);
	FAILS("\011\012\001\002\015\0\0\0\3[1]",
	      "JSON message is not an object", 0);
	FAILS("\011\012\001\002\015\0\0\0\4{ba}",
	      "bad JSON at byte 3: "
	      "string or '}' expected "
	      "near 'ba'",
	      0);
	FAILS("\011\012\001\002\015\0\0\0\2{}",
	      "server's results: cpu_util_total: missing", 0);
	FAILS("\011\012\001\002\015\0\0\0\0", "JSON message of length 0", 0);
	FAILS("\011\012\001\002\015\0\0\020\0",
	      "JSON message of 4096 bytes is over the limit of 4095", 0);
	FAILS("\011\012\001\002\015\0\0\0\20{\"a\"",
	      "control connection closed inside a JSON message", 0);
	FAILS("\011\012",
	      "control socket has closed unexpectedly waiting for "
	      "TEST_START",
	      0);
	FAILS("",
	      "control socket has closed unexpectedly waiting for "
	      "PARAM_EXCHANGE",
	      0);
}

static void
test_misuse(void **state)
{
	static struct nb_ip3_client c;
	struct nb_ip3_params p;
	struct nb_ip3_step st;
	struct nb_ip3_results m;
	uint8_t buf[8];
	char bad[NB_IP3_COOKIE_LEN];

	(void)state;
	udp_params(&p);
	memcpy(bad, g_udp_c2s, sizeof(bad));
	bad[3] = 'A';
	assert_int_equal(nb_ip3_client_init(&c, &p, bad, rxbuf, 64), -EINVAL);
	p.parallel = 0;
	assert_int_equal(nb_ip3_client_init(&c, &p, g_udp_c2s, rxbuf, 64),
			 -EINVAL);
	udp_params(&p);

	/* bytes before the cookie; TEST_END out of turn */
	assert_int_equal(nb_ip3_client_init(&c, &p, g_udp_c2s, rxbuf, 64), 0);
	nb_ip3_client_input(&c, (const uint8_t *)"\011", 1, &st);
	assert_int_equal(st.act, NB_IP3_ACT_ERROR);
	assert_int_equal(nb_ip3_client_init(&c, &p, g_udp_c2s, rxbuf, 64), 0);
	nb_ip3_client_hello(&c, &st);
	nb_ip3_client_test_end(&c, &st);
	assert_int_equal(st.act, NB_IP3_ACT_ERROR);
	assert_string_equal(st.msg, "test end waiting for PARAM_EXCHANGE");

	/* results out of turn; results too big for the buffer */
	assert_int_equal(nb_ip3_client_init(&c, &p, g_udp_c2s, rxbuf, 64), 0);
	my_results(&m);
	assert_int_equal(nb_ip3_client_results(&c, &m, buf, sizeof(buf)),
			 -EPROTO);
	nb_ip3_client_hello(&c, &st);
	nb_ip3_client_input(&c, (const uint8_t *)"\011\012\001\002", 4, &st);
	nb_ip3_client_input(&c, (const uint8_t *)"\012\001\002", 3, &st);
	nb_ip3_client_input(&c, (const uint8_t *)"\001\002", 2, &st);
	nb_ip3_client_input(&c, (const uint8_t *)"\002", 1, &st);
	assert_int_equal(st.act, NB_IP3_ACT_RUNNING);
	nb_ip3_client_test_end(&c, &st);
	nb_ip3_client_input(&c, (const uint8_t *)"\015", 1, &st);
	assert_int_equal(st.act, NB_IP3_ACT_SEND_RESULTS);
	/* the server must wait for ours */
	assert_int_equal(nb_ip3_client_results(&c, &m, buf, sizeof(buf)),
			 -ENOSPC);

	/* abort: CLIENT_TERMINATE once the server knows us */
	assert_int_equal(nb_ip3_client_init(&c, &p, g_udp_c2s, rxbuf, 64), 0);
	nb_ip3_client_abort(&c, &st);
	assert_int_equal(st.act, NB_IP3_ACT_ERROR);
	assert_int_equal(st.out_len, 0);
	assert_int_equal(nb_ip3_client_init(&c, &p, g_udp_c2s, rxbuf, 64), 0);
	nb_ip3_client_hello(&c, &st);
	nb_ip3_client_input(&c, (const uint8_t *)"\011", 1, &st);
	nb_ip3_client_abort(&c, &st);
	assert_int_equal(st.act, NB_IP3_ACT_ERROR);
	assert_int_equal(st.out_len, 1);
	assert_int_equal(st.out[0], NB_IP3_CLIENT_TERMINATE);
	assert_string_equal(st.msg, "the client has terminated");
	nb_ip3_client_input(&c, (const uint8_t *)"\012", 1, &st);
	assert_int_equal(st.act, NB_IP3_ACT_ERROR);
}

/* After DONE: nothing more is due; a close is fine, bytes are not. */
static void
test_after_done(void **state)
{
	static struct nb_ip3_client c;
	static struct run r;
	struct nb_ip3_params p;
	struct nb_ip3_step st;

	(void)state;
	udp_params(&p);
	session(g_udp_c2s, &p, g_udp_s2c, G_UDP_S2C_LEN, 7, &r, &c);
	assert_int_equal(c.phase, NB_IP3_C_DONE);
	nb_ip3_client_eof(&c, &st);
	assert_int_equal(st.act, NB_IP3_ACT_NONE);
	nb_ip3_client_input(&c, (const uint8_t *)"\020", 1, &st);
	assert_int_equal(st.act, NB_IP3_ACT_ERROR);
	assert_string_equal(st.msg, "bytes after DISPLAY_RESULTS");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_udp_session),
		cmocka_unit_test(test_rev_session),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_misuse),
		cmocka_unit_test(test_after_done),
		cmocka_unit_test(test_server_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
