/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iperf3's protocol core (nb_iperf3_proto.h) against bytes iperf3 3.12
 * itself wrote (iperf3_golden.h): the cookie, the control stream parser,
 * the parameters and results documents, the UDP datagrams.  The client's
 * state machine is in test_iperf3_client.c.
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

static void
test_cookie(void **state)
{
	uint8_t rnd[NB_IP3_COOKIE_RAND];
	char c[NB_IP3_COOKIE_LEN];
	uint8_t bad[NB_IP3_COOKIE_LEN];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rnd); i++)
		rnd[i] = (uint8_t)(i + 64); /* 64 % 32 == 0: from 'a' */
	nb_ip3_cookie_make(rnd, c);
	assert_string_equal(c, "abcdefghijklmnopqrstuvwxyz234567abcd");
	assert_int_equal(nb_ip3_cookie_check((uint8_t *)c, sizeof(c)), 0);
	/* iperf3's own cookie, the first 37 bytes it wrote */
	assert_int_equal(nb_ip3_cookie_check((const uint8_t *)g_udp_c2s, 37),
			 0);
	assert_int_equal(nb_ip3_cookie_check((const uint8_t *)g_udp_c2s, 36),
			 -1);
	assert_int_equal(nb_ip3_cookie_check((const uint8_t *)g_udp_c2s, 38),
			 -1);
	assert_int_equal(nb_ip3_cookie_check(NULL, 37), -1);
	for (i = 0; i < 5; i++) {
		static const uint8_t wrong[] = {'A', '1', '8', '{', 0};

		memcpy(bad, c, sizeof(bad));
		bad[i * 7] = wrong[i];
		assert_int_equal(nb_ip3_cookie_check(bad, sizeof(bad)), -1);
	}
	memcpy(bad, c, sizeof(bad));
	bad[36] = 'a';
	assert_int_equal(nb_ip3_cookie_check(bad, sizeof(bad)), -1);
}

static void
test_state_names(void **state)
{
	(void)state;
	assert_int_equal(NB_IP3_TEST_START, 1);
	assert_int_equal(NB_IP3_TEST_END, 4);
	assert_int_equal(NB_IP3_PARAM_EXCHANGE, 9);
	assert_int_equal(NB_IP3_IPERF_DONE, 16);
	assert_string_equal(nb_ip3_state_name(13), "EXCHANGE_RESULTS");
	assert_string_equal(nb_ip3_state_name(-1), "ACCESS_DENIED");
	assert_string_equal(nb_ip3_state_name(-2), "SERVER_ERROR");
	assert_string_equal(nb_ip3_state_name(3), "UNKNOWN");
	assert_string_equal(nb_ip3_ierrno_str(121),
			    "the server is busy running a test. try again "
			    "later");
	assert_null(nb_ip3_ierrno_str(0));
}

static void
test_frame(void **state)
{
	json_t *o = json_pack("{s:i}", "a", 1);
	uint8_t b[16];

	(void)state;
	assert_int_equal(nb_ip3_json_frame(o, b, sizeof(b)), 11);
	assert_memory_equal(b, "\0\0\0\7{\"a\":1}", 11);
	assert_int_equal(nb_ip3_json_frame(o, b, 10), -ENOSPC);
	assert_int_equal(nb_ip3_json_frame(o, b, 3), -ENOSPC);
	json_decref(o);
	o = json_pack("[i]", 1);
	assert_int_equal(nb_ip3_json_frame(o, b, sizeof(b)), -EINVAL);
	json_decref(o);
}

/* 3.12 prints -1 as 18446744073709551615; strings keep their digits. */
static void
test_wrapped_ints(void **state)
{
	char s[] = "{\"a\":18446744073709551615,\"b\":\"18446744073709551615\","
		   "\"c\":18446744073709551614,\"d\":9223372036854775807,"
		   "\"e\":18446744073709551615.0,\"f\":[18446744073709551615]}";
	char msg[NB_IP3_MSG_LEN];
	json_t *o;

	(void)state;
	o = nb_ip3_json_parse(s, strlen(s), msg, sizeof(msg));
	assert_non_null(o);
	assert_int_equal(json_integer_value(json_object_get(o, "a")), -1);
	assert_string_equal(json_string_value(json_object_get(o, "b")),
			    "18446744073709551615");
	assert_int_equal(json_integer_value(json_object_get(o, "c")), -2);
	assert_true(json_integer_value(json_object_get(o, "d")) == INT64_MAX);
	assert_true(json_is_real(json_object_get(o, "e")));
	assert_int_equal(
		json_integer_value(json_array_get(json_object_get(o, "f"), 0)),
		-1);
	json_decref(o);
}

/* Feeds all of s, one byte at a time if bytewise; events into evs. */
static int
feed_all(struct nb_ip3_rx *rx, const uint8_t *s, size_t n, int bytewise,
	 struct nb_ip3_ev *evs, int max)
{
	size_t i = 0, k;
	int ne = 0;

	while (i < n && ne < max) {
		k = bytewise ? 1 : n - i;
		i += nb_ip3_rx_feed(rx, s + i, k, &evs[ne]);
		if (evs[ne].type == NB_IP3_EV_NONE)
			continue;
		/* after EXCHANGE_RESULTS the server's results are due */
		if (evs[ne].type == NB_IP3_EV_STATE &&
		    evs[ne].state == NB_IP3_EXCHANGE_RESULTS)
			assert_int_equal(
				nb_ip3_rx_expect(rx, NB_IP3_EXPECT_JSON), 0);
		if (evs[ne++].type == NB_IP3_EV_ERROR)
			break;
	}
	return ne;
}

static void
test_rx_golden(void **state)
{
	static const int want[] = {9, 10, 1, 2, 13, 0, 14};
	uint8_t buf[512];
	struct nb_ip3_rx rx;
	struct nb_ip3_ev ev[10];
	char msg[NB_IP3_MSG_LEN];
	int bytewise, n, i;
	char t[sizeof(g_udp_server_results)];
	json_t *g;

	(void)state;
	for (bytewise = 0; bytewise < 2; bytewise++) {
		nb_ip3_rx_init(&rx, buf, sizeof(buf));
		n = feed_all(&rx, (const uint8_t *)g_udp_s2c, G_UDP_S2C_LEN,
			     bytewise, ev, 10);
		assert_int_equal(n, 7);
		for (i = 0; i < n; i++) {
			if (want[i] == 0) {
				assert_int_equal(ev[i].type, NB_IP3_EV_JSON);
				continue;
			}
			assert_int_equal(ev[i].type, NB_IP3_EV_STATE);
			assert_int_equal(ev[i].state, want[i]);
		}
		/* the same object as the server's text, -1 unwrapped */
		memcpy(t, g_udp_server_results, sizeof(t));
		g = nb_ip3_json_parse(t, strlen(t), msg, sizeof(msg));
		assert_non_null(g);
		assert_true(json_equal(g, ev[5].json));
		assert_int_equal(json_integer_value(json_object_get(
					 ev[5].json, "sender_has_retransmits")),
				 -1);
		json_decref(g);
		json_decref(ev[5].json);
		nb_ip3_rx_eof(&rx, &ev[0]);
		assert_int_equal(ev[0].type, NB_IP3_EV_NONE);
	}
}

/* One state byte or JSON message from s, after a JSON is due if json. */
static void
one(const char *s, size_t n, int json, size_t cap, struct nb_ip3_ev *ev)
{
	static uint8_t buf[4096];
	struct nb_ip3_rx rx;

	memset(ev, 0, sizeof(*ev));
	nb_ip3_rx_init(&rx, buf, cap);
	if (json)
		nb_ip3_rx_expect(&rx, NB_IP3_EXPECT_JSON);
	feed_all(&rx, (const uint8_t *)s, n, 1, ev, 1);
	if (ev->type == NB_IP3_EV_NONE)
		nb_ip3_rx_eof(&rx, ev);
	if (ev->type == NB_IP3_EV_JSON)
		json_decref(ev->json);
}

#define ONE(lit, json, cap, ev) one(lit, sizeof(lit) - 1, json, cap, ev)

static void
test_rx_errors(void **state)
{
	struct nb_ip3_ev ev;

	(void)state;
	ONE("\0\0\0\0", 1, 4096, &ev);
	assert_int_equal(ev.type, NB_IP3_EV_ERROR);
	assert_string_equal(ev.msg, "JSON message of length 0");
	/* a buffer of 64 bytes: 63 of text at most */
	ONE("\0\0\0\100", 1, 64, &ev);
	assert_int_equal(ev.type, NB_IP3_EV_ERROR);
	assert_string_equal(ev.msg,
			    "JSON message of 64 bytes is over the limit of 63");
	ONE("\0\0\0\2{}", 1, 3, &ev);
	assert_int_equal(ev.type, NB_IP3_EV_JSON);
	/* over 1 MiB whatever the buffer */
	ONE("\0\020\0\1", 1, 4096, &ev);
	assert_int_equal(ev.type, NB_IP3_EV_ERROR);
	ONE("\0\0\0\4{ba}", 1, 4096, &ev);
	assert_int_equal(ev.type, NB_IP3_EV_ERROR);
	assert_non_null(strstr(ev.msg, "bad JSON"));
	ONE("\0\0\0\3[1]", 1, 4096, &ev);
	assert_string_equal(ev.msg, "JSON message is not an object");
	ONE("\0\0\0\15{\"a\":1,\"a\":2}", 1, 4096, &ev);
	assert_int_equal(ev.type, NB_IP3_EV_ERROR);
	ONE("\0\0\0\20{\"a\":1}", 1, 4096, &ev);
	assert_string_equal(ev.msg,
			    "control connection closed inside a JSON message");
	ONE("\0\0", 1, 4096, &ev);
	assert_string_equal(ev.msg,
			    "control connection closed inside a JSON length");
	ONE("", 1, 4096, &ev);
	assert_int_equal(ev.type, NB_IP3_EV_ERROR);

	/* SERVER_ERROR, i_errno 121, errno 0 */
	ONE("\376\0\0\0\171\0\0\0\0", 0, 16, &ev);
	assert_int_equal(ev.type, NB_IP3_EV_SERVER_ERROR);
	assert_int_equal(ev.ierrno, 121);
	assert_int_equal(ev.err, 0);
	assert_string_equal(ev.msg, "server error: the server is busy running "
				    "a test. try again later");
	/* i_errno 102 with errno 98 (EADDRINUSE) */
	ONE("\376\0\0\0\146\0\0\0\142", 0, 16, &ev);
	assert_int_equal(ev.ierrno, 102);
	assert_int_equal(ev.err, 98);
	assert_non_null(strstr(ev.msg, "unable to start listener for "
				       "connections ("));
	ONE("\376\0\0\047\017\0\0\0\0", 0, 16, &ev);
	assert_string_equal(ev.msg, "server error: unknown i_errno 9999");
	/* 3.12's failed authentication: i_errno 142 alone, then close */
	ONE("\376\0\0\0\216", 0, 16, &ev);
	assert_int_equal(ev.type, NB_IP3_EV_SERVER_ERROR);
	assert_int_equal(ev.has_errno, 0);
	assert_string_equal(ev.msg, "server error: test authorization failed");
	ONE("\376\0\0", 0, 16, &ev);
	assert_int_equal(ev.type, NB_IP3_EV_ERROR);
	/* a negative state other than -1/-2 is just a state */
	ONE("\375", 0, 16, &ev);
	assert_int_equal(ev.type, NB_IP3_EV_STATE);
	assert_int_equal(ev.state, -3);
}

static void
test_rx_dead(void **state)
{
	uint8_t buf[8];
	struct nb_ip3_rx rx;
	struct nb_ip3_ev ev;
	size_t k;

	(void)state;
	nb_ip3_rx_init(&rx, buf, sizeof(buf));
	assert_int_equal(nb_ip3_rx_expect(&rx, NB_IP3_EXPECT_JSON), 0);
	k = nb_ip3_rx_feed(&rx, (const uint8_t *)"\0\0\0\0\1", 5, &ev);
	assert_int_equal(k, 4);
	assert_int_equal(ev.type, NB_IP3_EV_ERROR);
	k = nb_ip3_rx_feed(&rx, (const uint8_t *)"\1", 1, &ev);
	assert_int_equal(k, 0);
	assert_int_equal(ev.type, NB_IP3_EV_ERROR);
	/* not mid-message */
	nb_ip3_rx_init(&rx, buf, sizeof(buf));
	nb_ip3_rx_expect(&rx, NB_IP3_EXPECT_JSON);
	nb_ip3_rx_feed(&rx, (const uint8_t *)"\0", 1, &ev);
	assert_int_equal(nb_ip3_rx_expect(&rx, NB_IP3_EXPECT_STATE), -EBUSY);
}

/* --- UDP ------------------------------------------------------------- */

/* Payload sizes and bit rates, computed here from the header sizes */
/* One datagram of count c sent at 100 s + sent_us, arriving transit_us
 * later, into s. */
static int
take(struct nb_ip3_udp_rx *s, uint64_t c, uint64_t sent_us, uint64_t transit_us)
{
	uint8_t d[1400];

	memset(d, 0xa5, sizeof(d));
	nb_ip3_udp_hdr_put(d, sizeof(d), 0, 100 + (uint32_t)(sent_us / 1000000),
			   (uint32_t)(sent_us % 1000000), c);
	return nb_ip3_udp_rx_take(s, d, sizeof(d), 0,
				  (100000000ull + sent_us + transit_us) * 1000);
}

/*
 * The receive side as iperf3 3.12 counts: a gap is a loss, a late datagram
 * fills one back; the jitter by hand from RFC 3550's J += (|D| - J) / 16.
 */
static void
test_udp_rx(void **state)
{
	struct nb_ip3_udp_rx s;
	uint8_t shortd[11] = {0};

	(void)state;
	memset(&s, 0, sizeof(s));
	/* counts 1 2 4 5 3 7, one every ms, all 1000 us in transit but
	 * count 5's, 1160 us */
	assert_int_equal(take(&s, 1, 0, 1000), 0);
	assert_int_equal(take(&s, 2, 1000, 1000), 0);
	assert_int_equal(take(&s, 4, 3000, 1000), 0);
	assert_true(s.cnt_error == 1 && s.packet_count == 4);
	assert_true(s.jitter_ns == 0.0);
	assert_int_equal(take(&s, 5, 4000, 1160), 0);
	/* |D| 160 us: J = 160000 / 16 */
	assert_true(s.jitter_ns == 10000.0);
	assert_int_equal(take(&s, 3, 2000, 1000), 0);
	/* late: out of order, the gap at 3 filled */
	assert_true(s.outoforder == 1 && s.cnt_error == 0 &&
		    s.packet_count == 5);
	/* |D| 160 us again: 10000 + (160000 - 10000) / 16 */
	assert_true(s.jitter_ns == 19375.0);
	assert_int_equal(take(&s, 7, 6000, 1000), 0);
	/* 6 missing; |D| 0: 19375 - 19375 / 16 */
	assert_true(s.cnt_error == 1 && s.packet_count == 7);
	assert_true(s.jitter_ns == 19375.0 - 19375.0 / 16);
	assert_true(s.datagrams == 6 && s.bytes == 6 * 1400);
	/* a duplicate counts as out of order and hides the loss, as in
	 * iperf3 */
	assert_int_equal(take(&s, 7, 6000, 1000), 0);
	assert_true(s.outoforder == 2 && s.cnt_error == 0);
	/* too short for the header: nothing counted */
	assert_int_equal(nb_ip3_udp_rx_take(&s, shortd, sizeof(shortd), 0, 1),
			 -EINVAL);
	assert_true(s.datagrams == 7);
	/* 64-bit counters */
	memset(&s, 0, sizeof(s));
	{
		uint8_t d[16];

		nb_ip3_udp_hdr_put(d, 16, 1, 1, 0, 0x100000002ull);
		assert_int_equal(nb_ip3_udp_rx_take(&s, d, 16, 1, 2000000000),
				 0);
		assert_true(s.packet_count == 0x100000002ull &&
			    s.cnt_error == 0x100000001ll);
		assert_int_equal(nb_ip3_udp_rx_take(&s, d, 15, 1, 2000000000),
				 -EINVAL);
	}
}

static void
test_udp_shape(void **state)
{
	uint32_t len = 0;
	uint64_t bw = 1;

	(void)state;
	/* 1446-byte frames: 1446 - 14 - 20 - 8 - 4 = 1400 payload bytes */
	assert_int_equal(nb_ip3_udp_shape(1446, 0, 17053206, 1000, &len, &bw),
			 0);
	assert_int_equal(len, 1400);
	/* 17053.206 datagrams/s of 11200 bits: 190995907.2 bit/s */
	assert_true(bw == (uint64_t)(17053.206 * 1400 * 8 + 0.5));
	assert_int_equal(nb_ip3_udp_shape(1518, 1, 1, 1, &len, &bw), 0);
	assert_int_equal(len, 1518 - 50);
	assert_true(bw == (uint64_t)(1518 - 50) * 8);
	/* unlimited: -b 0 */
	assert_int_equal(nb_ip3_udp_shape(1518, 0, 0, 1, &len, &bw), 0);
	assert_true(bw == 0);
	/* the 64-bit header just fits in 62 bytes, not in 61 */
	assert_int_equal(nb_ip3_udp_shape(62, 0, 1, 1, &len, &bw), 0);
	assert_int_equal(len, NB_IP3_UDP_HDR64);
	assert_int_equal(nb_ip3_udp_shape(61, 0, 1, 1, &len, &bw), -EINVAL);
	/* no 64-bit overflow: 1e9 pps of 8954 bytes = 71.632 Tbit/s */
	assert_int_equal(
		nb_ip3_udp_shape(9000, 0, 1000000000000ull, 1000, &len, &bw),
		0);
	assert_true(bw == 71632000000000ull);
}

static void
test_udp(void **state)
{
	/* the first datagrams of the -u runs, as iperf3 wrote them */
	static const uint8_t d32[] = {0x00, 0x00, 0x01, 0x1f, 0x00, 0x0a,
				      0xf3, 0xc9, 0x00, 0x00, 0x00, 0x01};
	static const uint8_t d64[] = {0x00, 0x00, 0x01, 0x22, 0x00, 0x0e,
				      0xcb, 0xe2, 0x00, 0x00, 0x00, 0x00,
				      0x00, 0x00, 0x00, 0x01};
	static const uint8_t legacy_reply[] = {0xb1, 0x68, 0xde, 0x3a};
	static const uint8_t legacy_msg[] = {0x15, 0xcd, 0x5b, 0x07};
	uint8_t b[64];
	uint32_t sec, usec;
	uint64_t cnt;

	(void)state;
	nb_ip3_udp_connect_msg(b);
	assert_memory_equal(b, "9876", 4); /* 39 38 37 36 on the wire */
	assert_int_equal(nb_ip3_udp_is_connect(b, 4), 1);
	assert_int_equal(nb_ip3_udp_is_reply(b, 4), 0);
	nb_ip3_udp_connect_reply(b);
	assert_memory_equal(b, "6789", 4); /* 36 37 38 39 */
	assert_int_equal(nb_ip3_udp_is_reply(b, 4), 1);
	assert_int_equal(nb_ip3_udp_is_reply(b, 3), 0);
	assert_int_equal(nb_ip3_udp_is_reply(b, 64), 1);
	assert_int_equal(nb_ip3_udp_is_connect(b, 4), 0);
	assert_int_equal(nb_ip3_udp_is_reply(legacy_reply, 4), 2);
	assert_int_equal(nb_ip3_udp_is_connect(legacy_msg, 4), 2);
	assert_int_equal(nb_ip3_udp_is_reply(NULL, 4), 0);

	assert_int_equal(nb_ip3_udp_hdr_get(d32, 12, 0, &sec, &usec, &cnt), 12);
	assert_int_equal(sec, 287);
	assert_int_equal(usec, 717769);
	assert_int_equal(cnt, 1);
	assert_int_equal(nb_ip3_udp_hdr_put(b, 12, 0, 287, 717769, 1), 12);
	assert_memory_equal(b, d32, 12);
	assert_int_equal(nb_ip3_udp_hdr_get(d64, 16, 1, &sec, &usec, &cnt), 16);
	assert_int_equal(sec, 290);
	assert_int_equal(usec, 969698);
	assert_int_equal(cnt, 1);
	assert_int_equal(nb_ip3_udp_hdr_put(b, 16, 1, 290, 969698, 1), 16);
	assert_memory_equal(b, d64, 16);

	assert_int_equal(nb_ip3_udp_hdr_put(b, 16, 1, 0x01020304, 0x05060708,
					    0x090a0b0c0d0e0f10ull),
			 16);
	assert_memory_equal(b,
			    "\001\002\003\004\005\006\007\010\011\012\013\014"
			    "\015\016\017\020",
			    16);
	assert_int_equal(nb_ip3_udp_hdr_get(b, 16, 1, &sec, &usec, &cnt), 16);
	assert_true(cnt == 0x090a0b0c0d0e0f10ull);
	/* 32-bit counters wrap */
	assert_int_equal(nb_ip3_udp_hdr_put(b, 12, 0, 1, 2, 0x100000005ull),
			 12);
	assert_memory_equal(b + 8, "\0\0\0\5", 4);
	assert_int_equal(nb_ip3_udp_hdr_put(b, 15, 1, 1, 2, 3), -ENOSPC);
	assert_int_equal(nb_ip3_udp_hdr_put(b, 11, 0, 1, 2, 3), -ENOSPC);
	assert_int_equal(nb_ip3_udp_hdr_get(b, 15, 1, &sec, &usec, &cnt),
			 -EINVAL);
	assert_int_equal(nb_ip3_udp_hdr_get(b, 11, 0, &sec, &usec, &cnt),
			 -EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cookie),
		cmocka_unit_test(test_state_names),
		cmocka_unit_test(test_frame),
		cmocka_unit_test(test_wrapped_ints),
		cmocka_unit_test(test_rx_golden),
		cmocka_unit_test(test_rx_errors),
		cmocka_unit_test(test_rx_dead),
		cmocka_unit_test(test_udp),
		cmocka_unit_test(test_udp_shape),
		cmocka_unit_test(test_udp_rx),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
