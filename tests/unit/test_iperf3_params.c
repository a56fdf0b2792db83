/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iperf3's parameters and results documents (nb_iperf3_proto.h): what we
 * send equals, key for key and type for type, what iperf3 3.12's client
 * sent for the same options (iperf3_golden.h); what 3.12 sent parses to
 * the values its text holds; every bad field has its message.
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

static json_t *
load(const char *s)
{
	json_error_t e;
	json_t *o = json_loads(s, 0, &e);

	assert_non_null(o);
	return o;
}

/* Our document for p against iperf3's text g: same object, same bytes. */
static void
same_as(const struct nb_ip3_params *p, const char *g)
{
	json_t *ours = nb_ip3_params_json(p), *theirs = load(g);
	char *t;

	assert_non_null(ours);
	assert_true(json_equal(ours, theirs));
	/* and in 3.12's key order, so byte for byte */
	t = json_dumps(ours, JSON_COMPACT);
	assert_string_equal(t, g);
	free(t);
	json_decref(ours);
	json_decref(theirs);
}

static void
base(struct nb_ip3_params *p)
{
	nb_ip3_params_default(p);
	snprintf(p->client_version, sizeof(p->client_version), "3.12");
}

static void
test_params_golden(void **state)
{
	struct nb_ip3_params p;

	(void)state;
	/* -u -b 1M -t 1: 3.12 picked a 32768-byte datagram on lo */
	base(&p);
	p.udp = 1;
	p.time = 1;
	p.len = 32768;
	p.bandwidth = 1000000;
	same_as(&p, g_udp_params);
	/* -n 1M */
	base(&p);
	p.time = 0;
	p.bytes = 1048576;
	same_as(&p, g_tcpn_params);
	/* -R -n 1M -P 2 */
	p.parallel = 2;
	p.reverse = 1;
	same_as(&p, g_rev_params);
	/* -u -b 1M -t 1 -l 200 --get-server-output --udp-counters-64bit
	 * -O 1 -w 100K */
	base(&p);
	p.udp = 1;
	p.time = 1;
	p.omit = 1;
	p.window = 102400;
	p.len = 200;
	p.bandwidth = 1000000;
	p.get_server_output = 1;
	p.udp64 = 1;
	same_as(&p, g_json_params);
}

static void
test_params_parse_golden(void **state)
{
	struct nb_ip3_params p;
	char msg[NB_IP3_MSG_LEN] = "";
	json_t *o;

	(void)state;
	o = load(g_json_params);
	assert_int_equal(nb_ip3_params_parse(o, &p, msg, sizeof(msg)), 0);
	json_decref(o);
	assert_int_equal(p.udp, 1);
	assert_int_equal(p.omit, 1);
	assert_int_equal(p.time, 1);
	assert_int_equal(p.bytes, 0);
	assert_int_equal(p.parallel, 1);
	assert_int_equal(p.window, 102400);
	assert_int_equal(p.len, 200);
	assert_int_equal(p.bandwidth, 1000000);
	assert_int_equal(p.pacing_timer, 1000);
	assert_int_equal(p.get_server_output, 1);
	assert_int_equal(p.udp64, 1);
	assert_string_equal(p.client_version, "3.12");

	o = load(g_rev_params);
	assert_int_equal(nb_ip3_params_parse(o, &p, msg, sizeof(msg)), 0);
	json_decref(o);
	assert_int_equal(p.udp, 0);
	assert_int_equal(p.bytes, 1048576);
	assert_int_equal(p.parallel, 2);
	assert_int_equal(p.reverse, 1);
	assert_int_equal(p.bidir, 0);
	assert_int_equal(p.len, 131072);
}

static void
test_params_roundtrip(void **state)
{
	struct nb_ip3_params p, q;
	char msg[NB_IP3_MSG_LEN];
	unsigned int i;
	json_t *o;

	(void)state;
	for (i = 0; i < 64; i++) {
		nb_ip3_params_default(&p);
		p.udp = i & 1;
		p.omit = (int)(i % 3);
		p.time = (i & 2) ? 0 : (int)i + 1;
		p.bytes = (i & 2) ? 1000u * i : 0;
		p.blocks = (i & 4) ? i : 0;
		p.parallel = (int)(i % 128) + 1;
		p.reverse = (i % 5) == 1;
		p.bidir = (i % 5) == 2;
		p.window = (i & 8) ? 65536 * i : 0;
		p.len = p.udp ? 16 + i * 100 : 1 + i * 1000;
		p.mss = (i & 16) ? 1000 + i : 0;
		p.bandwidth = (i & 32) ? 1000000000ull * i : 0;
		p.udp64 = (i % 7) == 3;
		p.pacing_timer = (int)(i % 4) * 1000;
		p.get_server_output = (i % 6) == 0;
		o = nb_ip3_params_json(&p);
		assert_int_equal(nb_ip3_params_parse(o, &q, msg, sizeof(msg)),
				 0);
		json_decref(o);
		assert_memory_equal(&p, &q, sizeof(p));
	}
}

static const struct {
	const char *json;
	const char *msg;
} bad_params[] = {
	{"{\"tcp\":true,\"authtoken\":\"x\"}",
	 "authentication is not supported"},
	{"{\"sctp\":true}", "sctp: SCTP is not supported"},
	{"{\"time\":10}", "no protocol: tcp or udp must be true"},
	{"{\"tcp\":true,\"udp\":true}", "tcp and udp both set"},
	{"{\"tcp\":1}", "tcp: not a boolean"},
	{"{\"tcp\":true,\"time\":\"10\"}", "time: not an integer"},
	{"{\"tcp\":true,\"time\":1.5}", "time: not an integer"},
	{"{\"tcp\":true,\"time\":86401}",
	 "time: 86401 out of range [0, 86400]"},
	{"{\"tcp\":true,\"parallel\":0}", "parallel: 0 out of range [1, 128]"},
	{"{\"tcp\":true,\"parallel\":129}",
	 "parallel: 129 out of range [1, 128]"},
	{"{\"tcp\":true,\"num\":-1}",
	 "num: -1 out of range [0, 9223372036854775807]"},
	{"{\"udp\":true,\"len\":15}", "len: 15 out of range [16, 65507]"},
	{"{\"tcp\":true,\"len\":1048577}",
	 "len: 1048577 out of range [1, 1048576]"},
	{"{\"tcp\":true,\"MSS\":9217}", "MSS: 9217 out of range [0, 9216]"},
	{"{\"tcp\":true,\"window\":536870913}",
	 "window: 536870913 out of range [0, 536870912]"},
	{"{\"tcp\":true,\"TOS\":256}", "TOS: 256 out of range [0, 255]"},
	{"{\"tcp\":true,\"reverse\":1}", "reverse: not a boolean"},
	{"{\"tcp\":true,\"reverse\":true,\"bidirectional\":true}",
	 "reverse and bidirectional: only one may be set"},
	{"{\"tcp\":true,\"title\":5}", "title: not a string"},
	{"{\"tcp\":true,\"client_version\":[]}",
	 "client_version: not a string"},
	{"{\"tcp\":true,\"udp_counters_64bit\":2}",
	 "udp_counters_64bit: 2 out of range [0, 1]"},
};

static void
test_params_bad(void **state)
{
	struct nb_ip3_params p;
	char msg[NB_IP3_MSG_LEN];
	size_t i;
	json_t *o;

	(void)state;
	for (i = 0; i < sizeof(bad_params) / sizeof(bad_params[0]); i++) {
		o = load(bad_params[i].json);
		msg[0] = '\0';
		assert_int_equal(nb_ip3_params_parse(o, &p, msg, sizeof(msg)),
				 -EINVAL);
		assert_string_equal(msg, bad_params[i].msg);
		json_decref(o);
	}
	o = json_array();
	assert_int_equal(nb_ip3_params_parse(o, &p, msg, sizeof(msg)), -EINVAL);
	json_decref(o);
	/* what a client may send that we only check: accepted */
	o = load("{\"tcp\":true,\"nodelay\":true,\"title\":\"t\",\"TOS\":16,"
		 "\"congestion\":\"cubic\",\"unknown_future_key\":[1]}");
	assert_int_equal(nb_ip3_params_parse(o, &p, msg, sizeof(msg)), 0);
	assert_int_equal(p.parallel, 1);
	json_decref(o);
	/* a long client_version is cut at a character boundary: 30 bytes,
	 * not 31 with half an e-acute */
	o = load("{\"tcp\":true,\"client_version\":"
		 "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\u00e9\"}");
	assert_int_equal(nb_ip3_params_parse(o, &p, msg, sizeof(msg)), 0);
	assert_string_equal(p.client_version, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
	json_decref(o);
	o = load("{\"tcp\":true,\"client_version\":"
		 "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaa\u00e9\"}");
	assert_int_equal(nb_ip3_params_parse(o, &p, msg, sizeof(msg)), 0);
	assert_string_equal(p.client_version,
			    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xc3\xa9");
	json_decref(o);
}

/* --- results --------------------------------------------------------- */

static json_t *
parse_text(const char *g)
{
	char buf[2048], msg[NB_IP3_MSG_LEN];
	json_t *o;

	assert_true(strlen(g) < sizeof(buf));
	snprintf(buf, sizeof(buf), "%s", g);
	o = nb_ip3_json_parse(buf, strlen(buf), msg, sizeof(msg));
	assert_non_null(o);
	return o;
}

static void
test_results_golden(void **state)
{
	struct nb_ip3_results r;
	char msg[NB_IP3_MSG_LEN];
	json_t *o;

	(void)state;
	/* -R -P 2: the server sent, two streams, ids 1 and 3 */
	o = parse_text(g_rev_server_results);
	assert_int_equal(nb_ip3_results_parse(o, &r, msg, sizeof(msg)), 0);
	json_decref(o);
	assert_true(r.cpu_total == 32.881433823529413);
	assert_true(r.cpu_user == 0);
	assert_true(r.cpu_system == 32.835477941176471);
	assert_int_equal(r.sender_has_retransmits, 1);
	assert_string_equal(r.congestion_used, "bbr");
	assert_int_equal(r.nstreams, 2);
	assert_int_equal(r.s[0].id, 1);
	assert_int_equal(r.s[0].bytes, 1048576);
	assert_int_equal(r.s[0].retransmits, 0);
	assert_true(r.s[0].end_time == 0.004253);
	assert_int_equal(r.s[1].id, 3);
	assert_int_equal(r.s[1].bytes, 0);
	assert_true(r.s[1].end_time == 0.004286);

	/* UDP receiver: -1 written as 18446744073709551615 */
	o = parse_text(g_udp_server_results);
	assert_int_equal(nb_ip3_results_parse(o, &r, msg, sizeof(msg)), 0);
	assert_null(nb_ip3_results_server_text(o));
	json_decref(o);
	assert_int_equal(r.sender_has_retransmits, -1);
	assert_string_equal(r.congestion_used, "");
	assert_int_equal(r.s[0].retransmits, -1);
	assert_true(r.s[0].jitter == 7.84208984375e-05);
	assert_int_equal(r.s[0].packets, 4);
	assert_int_equal(r.s[0].errors, 0);

	/* the client's, UDP sender */
	o = parse_text(g_json_client_results);
	assert_int_equal(nb_ip3_results_parse(o, &r, msg, sizeof(msg)), 0);
	json_decref(o);
	assert_int_equal(r.sender_has_retransmits, 0);
	assert_int_equal(r.s[0].bytes, 125000);
	assert_int_equal(r.s[0].packets, 1250);
	assert_true(r.s[0].end_time == 1.000043);
	assert_int_equal(r.s[0].retransmits, -1);
}

static void
test_results_server_text(void **state)
{
	char buf[G_JSON_S2C_LEN];
	char msg[NB_IP3_MSG_LEN];
	struct nb_ip3_results r;
	const char *t;
	size_t n;
	json_t *o;

	(void)state;
	/* the length prefix after the 5 state bytes */
	n = (size_t)(uint8_t)g_json_s2c[7] << 8 | (uint8_t)g_json_s2c[8];
	assert_int_equal(n, G_JSON_S2C_LEN - 5 - 4 - 1);
	memcpy(buf, g_json_s2c + 9, n);
	o = nb_ip3_json_parse(buf, n, msg, sizeof(msg));
	assert_non_null(o);
	assert_int_equal(nb_ip3_results_parse(o, &r, msg, sizeof(msg)), 0);
	t = nb_ip3_results_server_text(o);
	assert_non_null(t);
	assert_true(strncmp(t, "Accepted connection from 127.0.0.1", 34) == 0);
	json_decref(o);
}

/* Our results have the keys and number types of 3.12's, per object. */
static void
test_results_shape(void **state)
{
	struct nb_ip3_results r;
	json_t *ours, *theirs, *a, *b;
	const char *k;
	json_t *v;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.cpu_total = 3.5;
	r.sender_has_retransmits = 1;
	snprintf(r.congestion_used, sizeof(r.congestion_used), "bbr");
	r.nstreams = 1;
	r.s[0].id = 1;
	r.s[0].bytes = 1048576;
	ours = nb_ip3_results_json(&r);
	theirs = parse_text(g_tcpn_client_results);
	assert_int_equal(json_object_size(ours), json_object_size(theirs));
	json_object_foreach(theirs, k, v)
	{
		assert_non_null(json_object_get(ours, k));
		assert_int_equal(json_is_number(v),
				 json_is_number(json_object_get(ours, k)));
	}
	a = json_array_get(json_object_get(ours, "streams"), 0);
	b = json_array_get(json_object_get(theirs, "streams"), 0);
	assert_int_equal(json_object_size(a), json_object_size(b));
	json_object_foreach(b, k, v)
	{
		assert_non_null(json_object_get(a, k));
		assert_true(json_is_number(json_object_get(a, k)));
	}
	json_decref(ours);
	json_decref(theirs);
}

static void
test_results_roundtrip(void **state)
{
	static struct nb_ip3_results r, q;
	char msg[NB_IP3_MSG_LEN];
	unsigned int i;
	json_t *o;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.cpu_total = 12.25;
	r.cpu_user = 0.125;
	r.cpu_system = 12.125;
	r.sender_has_retransmits = -1;
	snprintf(r.congestion_used, sizeof(r.congestion_used), "cubic");
	r.nstreams = NB_IP3_MAX_STREAMS;
	for (i = 0; i < r.nstreams; i++) {
		r.s[i].id = (int32_t)(i ? i + 2 : 1);
		r.s[i].bytes = 1000000007ull * i;
		r.s[i].retransmits = (int64_t)i - 1;
		r.s[i].jitter = i / 1024.0;
		r.s[i].errors = (int64_t)i - 5;
		r.s[i].packets = i * 3;
		r.s[i].start_time = 0;
		r.s[i].end_time = 10.0 + i / 8.0;
	}
	o = nb_ip3_results_json(&r);
	assert_int_equal(nb_ip3_results_parse(o, &q, msg, sizeof(msg)), 0);
	json_decref(o);
	assert_memory_equal(&r, &q, sizeof(r));
}

static const struct {
	const char *json;
	const char *msg;
} bad_results[] = {
	{"{}", "cpu_util_total: missing"},
	{"{\"cpu_util_total\":\"1\"}", "cpu_util_total: not a number"},
	{"{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":1}",
	 "sender_has_retransmits: missing"},
	{"{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":1,"
	 "\"sender_has_retransmits\":2}",
	 "sender_has_retransmits: 2 out of range [-1, 1]"},
	{"{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":1,"
	 "\"sender_has_retransmits\":0}",
	 "streams: missing"},
	{"{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":1,"
	 "\"sender_has_retransmits\":0,\"streams\":{}}",
	 "streams: not an array"},
	{"{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":1,"
	 "\"sender_has_retransmits\":0,\"streams\":[1]}",
	 "streams[0]: not an object"},
	{"{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":1,"
	 "\"sender_has_retransmits\":0,\"streams\":[{\"id\":0}]}",
	 "streams[0].id: 0 out of range [1, 2147483647]"},
	{"{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":1,"
	 "\"sender_has_retransmits\":0,\"streams\":[{\"id\":1,\"bytes\":"
	 "\"5\"}]}",
	 "streams[0].bytes: not an integer"},
	{"{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":1,"
	 "\"sender_has_retransmits\":0,\"streams\":[{\"id\":1,\"bytes\":5,"
	 "\"retransmits\":-1,\"jitter\":0,\"errors\":0}]}",
	 "streams[0].packets: missing"},
	{"{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":1,"
	 "\"sender_has_retransmits\":0,\"streams\":[{\"id\":1,\"bytes\":5,"
	 "\"retransmits\":-1,\"jitter\":0,\"errors\":0,\"packets\":0,"
	 "\"start_time\":0}]}",
	 "streams[0].end_time: missing"},
	{"{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":1,"
	 "\"sender_has_retransmits\":0,\"congestion_used\":1,\"streams\":[]}",
	 "congestion_used: not a string"},
};

static void
test_results_bad(void **state)
{
	struct nb_ip3_results r;
	char msg[NB_IP3_MSG_LEN];
	size_t i;
	json_t *o, *a;

	(void)state;
	for (i = 0; i < sizeof(bad_results) / sizeof(bad_results[0]); i++) {
		o = load(bad_results[i].json);
		msg[0] = '\0';
		assert_int_equal(nb_ip3_results_parse(o, &r, msg, sizeof(msg)),
				 -EINVAL);
		assert_string_equal(msg, bad_results[i].msg);
		json_decref(o);
	}
	/* 129 streams */
	o = load("{\"cpu_util_total\":1,\"cpu_util_user\":1,"
		 "\"cpu_util_system\":1,\"sender_has_retransmits\":0,"
		 "\"streams\":[]}");
	a = json_object_get(o, "streams");
	for (i = 0; i < 129; i++)
		json_array_append_new(a, json_object());
	assert_int_equal(nb_ip3_results_parse(o, &r, msg, sizeof(msg)),
			 -EINVAL);
	assert_string_equal(msg, "streams: 129, more than 128");
	json_decref(o);
	/* a 3.14 server adds omitted_errors and omitted_packets: ignored */
	o = load("{\"cpu_util_total\":1,\"cpu_util_user\":1,"
		 "\"cpu_util_system\":1,\"sender_has_retransmits\":0,"
		 "\"streams\":[{\"id\":1,\"bytes\":5,\"retransmits\":-1,"
		 "\"jitter\":0,\"errors\":2,\"omitted_errors\":1,"
		 "\"packets\":9,\"omitted_packets\":3,\"start_time\":0,"
		 "\"end_time\":1}]}");
	assert_int_equal(nb_ip3_results_parse(o, &r, msg, sizeof(msg)), 0);
	assert_int_equal(r.s[0].errors, 2);
	assert_int_equal(r.s[0].packets, 9);
	json_decref(o);
	/* a pre-3.2 server: no times */
	o = load("{\"cpu_util_total\":1,\"cpu_util_user\":1,"
		 "\"cpu_util_system\":1,\"sender_has_retransmits\":0,"
		 "\"streams\":[{\"id\":1,\"bytes\":5,\"retransmits\":-1,"
		 "\"jitter\":0,\"errors\":0,\"packets\":0}]}");
	assert_int_equal(nb_ip3_results_parse(o, &r, msg, sizeof(msg)), 0);
	assert_true(r.s[0].end_time == 0);
	json_decref(o);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_params_golden),
		cmocka_unit_test(test_params_parse_golden),
		cmocka_unit_test(test_params_roundtrip),
		cmocka_unit_test(test_params_bad),
		cmocka_unit_test(test_results_golden),
		cmocka_unit_test(test_results_server_text),
		cmocka_unit_test(test_results_shape),
		cmocka_unit_test(test_results_roundtrip),
		cmocka_unit_test(test_results_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
