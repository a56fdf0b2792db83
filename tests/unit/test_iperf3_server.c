/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iperf3's server side (nb_iperf3_server.c) fed what iperf3 3.12's client
 * wrote (iperf3_golden.h): it must ask for the same steps and write what
 * 3.12's server wrote (state bytes byte for byte, its own results JSON);
 * refused parameters get SERVER_ERROR with iperf3's i_errno.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "nb_iperf3_proto.h"

#include "iperf3_golden.h"

static uint8_t rxbuf[4096];

struct srun {
	uint8_t out[4096];
	size_t out_len;
	int acts[16];
	int nacts;
	struct nb_ip3_params params;
	struct nb_ip3_results peer;
	char msg[NB_IP3_MSG_LEN];
	int32_t ierrno;
};

static void
emit(struct srun *r, const struct nb_ip3_step *st)
{
	assert_true(r->out_len + st->out_len <= sizeof(r->out));
	if (st->out_len == 0)
		return;
	memcpy(r->out + r->out_len, st->out, st->out_len);
	r->out_len += st->out_len;
}

static void
react(struct nb_ip3_server *s, struct srun *r, struct nb_ip3_step *st)
{
	struct nb_ip3_results mine;
	struct nb_ip3_step e;
	int n;

	if (st->act == NB_IP3_ACT_NONE)
		return;
	assert_true(r->nacts < 16);
	r->acts[r->nacts++] = st->act;
	switch (st->act) {
	case NB_IP3_ACT_WRITE:
	case NB_IP3_ACT_ERROR:
		snprintf(r->msg, sizeof(r->msg), "%s", st->msg);
		r->ierrno = st->ierrno;
		emit(r, st);
		break;
	case NB_IP3_ACT_PARAMS:
		r->params = *st->params;
		/* listening; the streams connect with the same cookie */
		nb_ip3_server_create_streams(s, &e);
		emit(r, &e);
		assert_memory_equal(nb_ip3_server_cookie(s), g_udp_c2s, 37);
		nb_ip3_server_start(s, &e);
		emit(r, &e);
		break;
	case NB_IP3_ACT_TEST_END:
		nb_ip3_server_exchange(s, &e);
		emit(r, &e);
		break;
	case NB_IP3_ACT_PEER_RESULTS:
		r->peer = *st->peer;
		memset(&mine, 0, sizeof(mine));
		mine.sender_has_retransmits = -1;
		mine.nstreams = 1;
		mine.s[0].id = 1;
		mine.s[0].bytes = 131072;
		mine.s[0].retransmits = -1;
		mine.s[0].packets = 4;
		n = nb_ip3_server_results(s, &mine, r->out + r->out_len,
					  sizeof(r->out) - r->out_len);
		assert_true(n > 5);
		r->out_len += (size_t)n;
		break;
	default:
		break;
	}
}

static void
serve(const char *c2s, size_t n, size_t chunk, struct srun *r)
{
	static struct nb_ip3_server s;
	static uint32_t rng = 99;
	struct nb_ip3_step st;
	size_t i = 0, k, used;

	memset(r, 0, sizeof(*r));
	nb_ip3_server_init(&s, rxbuf, sizeof(rxbuf));
	assert_null(nb_ip3_server_cookie(&s));
	while (i < n) {
		rng = rng * 1103515245u + 12345u;
		k = chunk ? chunk : (rng >> 16) % 50 + 1;
		if (k > n - i)
			k = n - i;
		used = nb_ip3_server_input(&s, (const uint8_t *)c2s + i, k,
					   &st);
		assert_true(used <= k);
		i += used;
		react(&s, r, &st);
		if (st.act == NB_IP3_ACT_ERROR || st.act == NB_IP3_ACT_DONE)
			break;
		assert_true(used > 0);
	}
}

static void
check_udp(const struct srun *r)
{
	static const int want[] = {NB_IP3_ACT_WRITE, NB_IP3_ACT_PARAMS,
				   NB_IP3_ACT_TEST_END, NB_IP3_ACT_PEER_RESULTS,
				   NB_IP3_ACT_DONE};
	size_t jl;

	assert_int_equal(r->nacts, 5);
	assert_memory_equal(r->acts, want, sizeof(want));
	/* 09 0a 01 02 0d, as 3.12's server wrote them */
	assert_memory_equal(r->out, g_udp_s2c, 5);
	jl = (size_t)r->out[7] << 8 | r->out[8];
	assert_int_equal(r->out_len, 5 + 4 + jl + 1);
	assert_int_equal(r->out[r->out_len - 1], NB_IP3_DISPLAY_RESULTS);
	assert_int_equal(r->params.udp, 1);
	assert_int_equal(r->params.len, 32768);
	assert_int_equal(r->params.bandwidth, 1000000);
	assert_int_equal(r->peer.s[0].packets, 4);
	assert_int_equal(r->peer.s[0].retransmits, -1);
}

static void
test_golden_client(void **state)
{
	static struct srun r;
	int i;

	(void)state;
	serve(g_udp_c2s, G_UDP_C2S_LEN, 1, &r);
	check_udp(&r);
	serve(g_udp_c2s, G_UDP_C2S_LEN, 4096, &r);
	check_udp(&r);
	for (i = 0; i < 100; i++) {
		serve(g_udp_c2s, G_UDP_C2S_LEN, 0, &r);
		check_udp(&r);
	}
}

/* A cookie, then params text p, through a server: its error bytes. */
static void
refused(const char *p, int32_t ie, const char *msg)
{
	static struct srun r;
	char buf[512];
	size_t n = strlen(p);

	memcpy(buf, g_udp_c2s, 37);
	buf[37] = buf[38] = buf[39] = 0;
	buf[40] = (char)n;
	memcpy(buf + 41, p, n);
	serve(buf, 41 + n, 1, &r);
	assert_string_equal(r.msg, msg);
	assert_int_equal(r.ierrno, ie);
	/* PARAM_EXCHANGE, then -2, i_errno, errno 0 */
	assert_int_equal(r.out_len, 10);
	assert_int_equal(r.out[1], 0xfe);
	assert_int_equal(r.out[4] << 8 | r.out[5], ie);
	assert_memory_equal(r.out + 6, "\0\0\0\0", 4);
}

static void
test_refused(void **state)
{
	static struct srun r;

	(void)state;
	refused("{\"tcp\":true,\"authtoken\":\"x\"}", 142,
		"client's parameters: authentication is not supported");
	refused("{\"sctp\":true}", 18,
		"client's parameters: sctp: SCTP is not supported");
	refused("{\"tcp\":true,\"parallel\":200}", 6,
		"client's parameters: parallel: 200 out of range [1, 128]");
	refused("{\"tcp\":true,\"title\":1}", 114,
		"client's parameters: title: not a string");
	/* not a cookie */
	serve("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\0", 37, 1, &r);
	assert_string_equal(r.msg,
			    "the client's cookie is not an iperf3 cookie");
	/* CLIENT_TERMINATE after the parameters */
	{
		char buf[G_UDP_C2S_LEN];
		size_t pre = 37 + 4 + 142;

		memcpy(buf, g_udp_c2s, pre);
		buf[pre] = NB_IP3_CLIENT_TERMINATE;
		serve(buf, pre + 1, 1, &r);
		assert_string_equal(r.msg, "the client has terminated");
		buf[pre] = NB_IP3_EXCHANGE_RESULTS;
		serve(buf, pre + 1, 1, &r);
		assert_string_equal(r.msg, "unexpected state 13 "
					   "(EXCHANGE_RESULTS) from the "
					   "client");
	}
}

static void
test_out_of_turn(void **state)
{
	static struct nb_ip3_server s;
	struct nb_ip3_step st;
	struct nb_ip3_results m;
	uint8_t b[8];

	(void)state;
	memset(&m, 0, sizeof(m));
	nb_ip3_server_init(&s, rxbuf, sizeof(rxbuf));
	assert_int_equal(nb_ip3_server_results(&s, &m, b, sizeof(b)), -EPROTO);
	nb_ip3_server_start(&s, &st);
	assert_int_equal(st.act, NB_IP3_ACT_ERROR);
	assert_string_equal(st.msg, "TEST_START out of turn");
	nb_ip3_server_input(&s, (const uint8_t *)"a", 1, &st);
	assert_int_equal(st.act, NB_IP3_ACT_ERROR);
	nb_ip3_server_init(&s, rxbuf, sizeof(rxbuf));
	nb_ip3_server_exchange(&s, &st);
	assert_string_equal(st.msg, "EXCHANGE_RESULTS out of turn");
	nb_ip3_server_init(&s, rxbuf, sizeof(rxbuf));
	nb_ip3_server_create_streams(&s, &st);
	assert_string_equal(st.msg, "CREATE_STREAMS out of turn");
	assert_int_equal(NB_IP3_BUSY_BYTE, (uint8_t)NB_IP3_ACCESS_DENIED);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_client),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_out_of_turn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
