/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control messages' field ranges (app/core/nb_ctl_setup.c,
 * nb_ctl_msgs.c): strings, PARAMS (UDP and TCP) and the other types'
 * bounds, each a byte patch at its documented offset (docs/protocol.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_test_util.h"

#include "nb_ctl.h"
#include "nb_ctl_msgs.h"
#include "nb_frame.h"
#include "nb_hist.h"
#include "ctl_fixtures.h"

struct str_field {
	uint8_t type;
	size_t off; /* in the body */
	size_t size;
};

static const struct str_field str_fields[] = {
	{NB_CTL_HELLO, 0, 16},	   {NB_CTL_HELLO, 16, 32},
	{NB_CTL_HELLO, 48, 64},	   {NB_CTL_HELLO, 112, 64},
	{NB_CTL_HELLO, 176, 64},   {NB_CTL_HELLO, 240, 32},
	{NB_CTL_HELLO, 296, 40},   {NB_CTL_WELCOME, 0, 16},
	{NB_CTL_WELCOME, 16, 32},  {NB_CTL_WELCOME, 48, 64},
	{NB_CTL_WELCOME, 112, 64}, {NB_CTL_WELCOME, 176, 64},
	{NB_CTL_WELCOME, 240, 32}, {NB_CTL_WELCOME, 296, 40},
	{NB_CTL_BUSY, 4, 64},	   {NB_CTL_REJECT, 2, 128},
	{NB_CTL_ERROR, 2, 128},
};

/* The string fields of m, in the order of str_fields for its type. */
static char *
msg_str(struct nb_ctl_msg *m, uint32_t k)
{
	char *conf[] = {
		m->u.conf.tool_version, m->u.conf.dpdk_version,
		m->u.conf.host,		m->u.conf.cpu,
		m->u.conf.os,		m->u.conf.driver,
		m->u.conf.boot_id,
	};

	switch (m->type) {
	case NB_CTL_HELLO:
	case NB_CTL_WELCOME:
		return conf[k];
	case NB_CTL_BUSY:
		return m->u.busy.reason;
	case NB_CTL_REJECT:
		return m->u.reject.reason;
	default:
		return m->u.error.reason;
	}
}

static void
test_strings(void **state)
{
	uint64_t r = 9;
	struct nb_ctl_msg m, d;
	uint8_t *buf, save;
	size_t len, i, pos;
	uint32_t k = 0;
	uint8_t last = 0;
	char *s;

	(void)state;
	for (i = 0; i < sizeof(str_fields) / sizeof(str_fields[0]); i++) {
		const struct str_field *f = &str_fields[i];

		k = f->type == last ? k + 1 : 0;
		last = f->type;
		rand_msg(&r, f->type, &m);
		s = msg_str(&m, k);
		/* the longest string that fits: size - 1 bytes and a NUL */
		memset(s, 'a', f->size - 1);
		s[f->size - 1] = '\0';
		buf = encode_exact(&m, &len);
		assert_memory_equal(buf + H + f->off, s, f->size);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		compare_msg(&m, &d);

		/* no NUL at all */
		buf[H + f->off + f->size - 1] = 'a';
		assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		s[f->size - 1] = 'a';
		assert_int_equal(nb_ctl_encode(&m, buf, len), -EINVAL);
		free(buf);

		/* a short string: padding after the NUL must be NUL */
		memset(s, 0, f->size);
		memcpy(s, "abc", 3);
		buf = encode_exact(&m, &len);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		for (pos = 4; pos < f->size; pos++) {
			save = buf[H + f->off + pos];
			assert_int_equal(save, 0);
			buf[H + f->off + pos] = 'z';
			assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
			buf[H + f->off + pos] = save;
		}
		/* the encoder pads, whatever follows the NUL in the struct
		 * (every string field is longer than 4: the guard is for
		 * the compiler, which cannot see the table) */
		assert_true(f->size > 4);
		if (f->size > 4)
			memset(s + 4, 'q', f->size - 4);
		free(buf);
		buf = encode_exact(&m, &len);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		for (pos = 3; pos < f->size; pos++)
			assert_int_equal(buf[H + f->off + pos], 0);
		/* an empty string is fine */
		memset(buf + H + f->off, 0, f->size);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		free(buf);
	}
}

static const struct patch bad_params[] = {
	{"direction 3", 0, 1, 3},
	{"direction 255", 0, 1, 255},
	{"proto 0", 1, 1, 0},
	{"proto 1", 1, 1, 1},
	{"proto 5", 1, 1, 5},
	{"proto 7", 1, 1, 7},
	{"proto 16", 1, 1, 16},
	{"proto 18", 1, 1, 18},
	{"proto 255", 1, 1, 255},
	{"vlan 4095", 2, 2, 4095},
	{"vlan 65535", 2, 2, 65535},
	{"streams 0", 4, 4, 0},
	{"streams 1025", 4, 4, 1025},
	{"streams max", 4, 4, 0xffffffff},
	{"nb_sizes 0", 8, 2, 0},
	{"nb_sizes 2 (pattern uses index 2)", 8, 2, 2},
	{"nb_sizes 17", 8, 2, 17},
	{"nb_sizes max", 8, 2, 0xffff},
	{"sizes[0] 0", 10, 2, 0},
	{"sizes[0] 63", 10, 2, 63},
	{"sizes[0] 9001", 10, 2, 9001},
	{"sizes[2] 63", 14, 2, 63},
	{"sizes[2] 65535", 14, 2, 65535},
	{"unused sizes[3] 64", 16, 2, 64},
	{"unused sizes[15] 1", 40, 2, 1},
	{"nb_pattern 0", 42, 2, 0},
	{"nb_pattern 65", 42, 2, 65},
	{"nb_pattern max", 42, 2, 0xffff},
	{"pattern[0] 3", 44, 1, 3},
	{"pattern[11] 255", 55, 1, 255},
	{"unused pattern[12] 1", 56, 1, 1},
	{"unused pattern[63] 1", 107, 1, 1},
	{"rate_den 0", 116, 8, 0},
	{"rate_num 1e10 + 1 (rate_den 1)", 108, 8, 10000000001ull},
	{"rate_num max (rate_den 1)", 108, 8, UINT64_MAX},
	{"packets 2^62 + 1", 124, 8, 4611686018427387905ull},
	{"packets max", 124, 8, UINT64_MAX},
	{"duration_ms 30 days + 1", 132, 8, 2592000001ull},
	{"duration_ms max", 132, 8, UINT64_MAX},
	{"duration_ms 0 (packets 0)", 132, 8, 0},
	{"omit_ms 3600001", 140, 8, 3600001},
	{"omit_ms max", 140, 8, UINT64_MAX},
	{"latency_rate 10000001", 148, 8, 10000001},
	{"latency_rate max", 148, 8, UINT64_MAX},
	{"sport_base 65529 + 8 streams", 176, 2, 65529},
	{"sport_base 65535 + 8 streams", 176, 2, 65535},
	{"dport 0", 178, 2, 0},
	{"dport 7201", 178, 2, NB_CONTROL_UDP_PORT},
	{"interval_ms 99", 180, 4, 99},
	{"interval_ms 1", 180, 4, 1},
	{"interval_ms 3600001", 180, 4, 3600001},
	{"interval_ms max", 180, 4, 0xffffffff},
	/* since version 10: the client's peer timeout, 0.1-600 s */
	{"peer_timeout_ms 0", 204, 4, 0},
	{"peer_timeout_ms 99", 204, 4, 99},
	{"peer_timeout_ms 600001", 204, 4, 600001},
	/* since version 7: an open-loop test has no TCP field set */
	{"tcp 1 (proto 17, 3 sizes)", 184, 1, 1},
	{"tcp 2", 184, 1, 2},
	{"tcp_flags 1 (open loop)", 185, 1, 1},
	{"tcp_cc 1 (open loop)", 186, 1, 1},
	{"reserved byte 187", 187, 1, 1},
	{"tcp_window 1M (open loop)", 188, 4, 1048576},
	{"tcp_msg 1 (open loop)", 192, 4, 1},
	{"bytes 1 (open loop)", 196, 8, 1},
};

static const struct patch good_params[] = {
	{"direction 0", 0, 1, 0},
	{"direction 2", 0, 1, 2},
	{"proto 6", 1, 1, 6},
	{"vlan 0", 2, 2, 0},
	{"vlan 4094", 2, 2, 4094},
	{"streams 1", 4, 4, 1},
	{"sizes[0] 9000", 10, 2, 9000},
	{"sizes[2] 64", 14, 2, 64},
	{"rate_num 0 (max)", 108, 8, 0},
	{"rate_num 1e10 (rate_den 1)", 108, 8, 10000000000ull},
	{"rate_den max", 116, 8, UINT64_MAX},
	{"packets 2^62", 124, 8, 4611686018427387904ull},
	{"packets 1", 124, 8, 1},
	{"duration_ms 30 days", 132, 8, 2592000000ull},
	{"duration_ms 1", 132, 8, 1},
	{"omit_ms 3600000", 140, 8, 3600000},
	{"latency_rate 1000000", 148, 8, 1000000},
	{"client_ip 0", 156, 4, 0},
	{"interval_ms 0", 180, 4, 0},
	{"interval_ms 100", 180, 4, 100},
	{"interval_ms 3600000", 180, 4, 3600000},
	{"client_nonce ones", 672, 8, UINT64_MAX},
	{"client_nonce end ones", 680, 8, UINT64_MAX},
	{"cookie ones", 688, 8, UINT64_MAX},
	{"cookie end ones", 696, 8, UINT64_MAX},
	{"peer_timeout_ms 100", 204, 4, 100},
	{"peer_timeout_ms 600000", 204, 4, 600000},
	{"sport_base 65528 + 8 streams", 176, 2, 65528},
	{"sport_base 0", 176, 2, 0},
	{"dport 65535", 178, 2, 65535},
	{"dport 7200", 178, 2, 7200},
};

/* Bounds that take two fields: both patches applied, then ok or not. */
static const struct {
	struct patch a, b;
	int ok;
} params_pairs[] = {
	{{"rate 7e10 / 7 = 1e10 pps", 108, 8, 70000000000ull},
	 {"", 116, 8, 7},
	 1},
	{{"rate (7e10 + 7) / 7 = 1e10 + 1 pps", 108, 8, 70000000007ull},
	 {"", 116, 8, 7},
	 0},
	{{"rate max / 1844674408 < 1e10 pps", 108, 8, UINT64_MAX},
	 {"", 116, 8, 1844674408ull},
	 1},
	{{"rate max / 1844674407 > 1e10 + 1 pps", 108, 8, UINT64_MAX},
	 {"", 116, 8, 1844674407ull},
	 0},
	{{"duration_ms 0 with packets 1", 132, 8, 0}, {"", 124, 8, 1}, 1},
	{{"duration_ms 0 with packets 2^62", 132, 8, 0},
	 {"", 124, 8, 4611686018427387904ull},
	 1},
	{{"duration_ms 0 with packets 2^62 + 1", 132, 8, 0},
	 {"", 124, 8, 4611686018427387905ull},
	 0},
	{{"duration_ms 0 with packets 0", 132, 8, 0}, {"", 124, 8, 0}, 0},
	{{"duration_ms 30 days with packets 2^62", 132, 8, 2592000000ull},
	 {"", 124, 8, 4611686018427387904ull},
	 1},
};

static void
test_params_ranges(void **state)
{
	struct nb_ctl_msg m, d;
	uint8_t *buf, *orig;
	size_t len, i;
	int rc;

	(void)state;
	base_params(&m);
	orig = encode_exact(&m, &len);
	assert_int_equal(len, H + 704);
	/* base_params: packets 0, duration 10 s */
	assert_int_equal(rd32(orig + H + 124) | rd32(orig + H + 128), 0);
	assert_int_equal(rd32(orig + H + 136), 10000);
	buf = malloc(len);
	assert_non_null(buf);
	for (i = 0; i < sizeof(bad_params) / sizeof(bad_params[0]); i++) {
		memcpy(buf, orig, len);
		apply_patch(buf + H, &bad_params[i]);
		rc = decode_exact(buf, len, &d);
		if (rc != -EPROTO)
			fail_msg("%s: decode returned %d", bad_params[i].what,
				 rc);
	}
	for (i = 0; i < sizeof(good_params) / sizeof(good_params[0]); i++) {
		memcpy(buf, orig, len);
		apply_patch(buf + H, &good_params[i]);
		rc = decode_exact(buf, len, &d);
		if (rc != 0)
			fail_msg("%s: decode returned %d", good_params[i].what,
				 rc);
		check_reencode(&d, buf, len);
	}
	for (i = 0; i < sizeof(params_pairs) / sizeof(params_pairs[0]); i++) {
		memcpy(buf, orig, len);
		apply_patch(buf + H, &params_pairs[i].a);
		apply_patch(buf + H, &params_pairs[i].b);
		rc = decode_exact(buf, len, &d);
		if (rc != (params_pairs[i].ok ? 0 : -EPROTO))
			fail_msg("%s: decode returned %d",
				 params_pairs[i].a.what, rc);
		if (rc == 0)
			check_reencode(&d, buf, len);
	}
	free(buf);
	free(orig);

	/* the encoder refuses the same values in the struct */
#define BAD_ENC(stmt)                                                          \
	do {                                                                   \
		base_params(&m);                                               \
		stmt;                                                          \
		assert_int_equal(nb_ctl_encoded_len(&m), H + 704);             \
		assert_int_equal(nb_ctl_encode(&m, d.u.res.chunk,              \
					       sizeof(d.u.res.chunk)),         \
				 -EINVAL);                                     \
	} while (0)
	BAD_ENC(m.u.params.direction = 3);
	BAD_ENC(m.u.params.proto = 0);
	BAD_ENC(m.u.params.proto = 16);
	BAD_ENC(m.u.params.vlan_id = 4095);
	BAD_ENC(m.u.params.streams = 0);
	BAD_ENC(m.u.params.streams = 1025);
	BAD_ENC(m.u.params.nb_sizes = 0);
	BAD_ENC(m.u.params.nb_sizes = 17);
	BAD_ENC(m.u.params.nb_sizes = 2);
	BAD_ENC(m.u.params.sizes[1] = 63);
	BAD_ENC(m.u.params.sizes[2] = 9001);
	BAD_ENC(m.u.params.nb_pattern = 0);
	BAD_ENC(m.u.params.nb_pattern = 65);
	BAD_ENC(m.u.params.pattern[5] = 3);
	BAD_ENC(m.u.params.rate_den = 0);
	BAD_ENC(m.u.params.sport_base = 65529);
	BAD_ENC(m.u.params.dport = 0);
	BAD_ENC(m.u.params.dport = NB_CONTROL_UDP_PORT);
	BAD_ENC(m.u.params.rate_num = 10000000001ull);
	BAD_ENC(m.u.params.rate_num = 70000000007ull; m.u.params.rate_den = 7);
	BAD_ENC(m.u.params.packets = 4611686018427387905ull);
	BAD_ENC(m.u.params.duration_ms = 2592000001ull);
	BAD_ENC(m.u.params.duration_ms = 0);
	BAD_ENC(m.u.params.omit_ms = 3600001);
	BAD_ENC(m.u.params.interval_ms = 99);
	BAD_ENC(m.u.params.interval_ms = 3600001);
	BAD_ENC(m.u.params.peer_timeout_ms = 99);
	BAD_ENC(m.u.params.peer_timeout_ms = 600001);
	BAD_ENC(m.u.params.latency_rate = 10000001);
#undef BAD_ENC

	/* and takes each bound at its edge */
#define GOOD_ENC(stmt)                                                         \
	do {                                                                   \
		base_params(&m);                                               \
		stmt;                                                          \
		roundtrip(&m);                                                 \
	} while (0)
	GOOD_ENC(m.u.params.rate_num = 10000000000ull);
	GOOD_ENC(m.u.params.rate_num = 70000000000ull; m.u.params.rate_den = 7);
	GOOD_ENC(m.u.params.packets = 4611686018427387904ull);
	GOOD_ENC(m.u.params.duration_ms = 2592000000ull);
	GOOD_ENC(m.u.params.duration_ms = 0; m.u.params.packets = 1);
	GOOD_ENC(m.u.params.omit_ms = 3600000);
	GOOD_ENC(m.u.params.latency_rate = 10000000);
#undef GOOD_ENC

	/* unused slots in the struct do not reach the wire */
	base_params(&m);
	m.u.params.sizes[15] = 1234;
	m.u.params.pattern[63] = 9;
	orig = encode_exact(&m, &len);
	assert_int_equal(nb_get_be16(orig + H + 40), 0);
	assert_int_equal(orig[H + 107], 0);
	assert_int_equal(decode_exact(orig, len, &d), 0);
	assert_int_equal(d.u.params.sizes[15], 0);
	assert_int_equal(d.u.params.pattern[63], 0);
	free(orig);
}

/* A closed-loop TCP test (version 7): forward, one size, 1 MiB window. */
static void
base_tcp_params(struct nb_ctl_msg *m)
{
	struct nb_ctl_params *p = &m->u.params;

	base_params(m);
	p->direction = NB_CTL_DIR_FORWARD;
	p->proto = NB_IPPROTO_TCP;
	p->nb_sizes = 1;
	p->sizes[0] = 1518;
	p->sizes[1] = p->sizes[2] = 0;
	p->nb_pattern = 1;
	memset(p->pattern, 0, sizeof(p->pattern));
	p->rate_num = 0;
	p->dport = 5201;
	p->tcp = 1;
	p->tcp_window = 1u << 20;
}

static const struct patch bad_tcp[] = {
	{"proto 17", 1, 1, 17},
	{"sizes[0] 127", 10, 2, 127},
	{"nb_sizes 2", 8, 2, 2},
	{"nb_pattern 2", 42, 2, 2},
	{"rate_num 1", 108, 8, 1},
	{"packets 1", 124, 8, 1},
	{"omit_ms 1", 140, 8, 1},
	{"latency_rate 1", 148, 8, 1},
	{"tcp_flags 4", 185, 1, 4},
	{"tcp_flags 0x80", 185, 1, 0x80},
	{"tcp_cc 2", 186, 1, 2},
	{"reserved 1", 187, 1, 1},
	{"tcp_window 0", 188, 4, 0},
	{"tcp_window 2047", 188, 4, 2047},
	{"tcp_window 2^30 + 1", 188, 4, (1u << 30) + 1},
	{"tcp_msg 2^20 + 1", 192, 4, (1u << 20) + 1},
	{"bytes 2^62 + 1", 196, 8, 4611686018427387905ull},
	{"duration_ms 0 (bytes 0)", 132, 8, 0},
};

static const struct patch good_tcp[] = {
	{"direction 1", 0, 1, 1},
	{"direction 2", 0, 1, 2},
	{"sizes[0] 128", 10, 2, 128},
	{"sizes[0] 9000", 10, 2, 9000},
	{"tcp_flags 3", 185, 1, 3},
	{"tcp_cc 1", 186, 1, 1},
	{"tcp_window 2048", 188, 4, 2048},
	{"tcp_window 2^30", 188, 4, 1u << 30},
	{"tcp_msg 1", 192, 4, 1},
	{"tcp_msg 2^20", 192, 4, 1u << 20},
	{"bytes 2^62", 196, 8, 4611686018427387904ull},
};

static void
test_params_tcp(void **state)
{
	struct nb_ctl_msg m, d;
	uint8_t *buf, *orig;
	size_t len, i;

	(void)state;
	base_tcp_params(&m);
	m.u.params.tcp_flags = NB_CTL_TCP_F_DELACK;
	m.u.params.tcp_cc = 1;
	m.u.params.tcp_msg = 0;
	m.u.params.bytes = 100ull << 20;
	roundtrip(&m);
	orig = encode_exact(&m, &len);
	assert_int_equal(len, H + 704);
	/* tcp, flags, cc, reserved; window; msg; bytes */
	assert_memory_equal(orig + H + 184,
			    "\x01\x01\x01\x00\x00\x10\x00\x00"
			    "\x00\x00\x00\x00"
			    "\x00\x00\x00\x00\x06\x40\x00\x00",
			    20);
	free(orig);
	base_tcp_params(&m);
	orig = encode_exact(&m, &len);
	buf = malloc(len);
	assert_non_null(buf);
	for (i = 0; i < sizeof(bad_tcp) / sizeof(bad_tcp[0]); i++) {
		memcpy(buf, orig, len);
		apply_patch(buf + H, &bad_tcp[i]);
		if (decode_exact(buf, len, &d) != -EPROTO)
			fail_msg("TCP %s: accepted", bad_tcp[i].what);
	}
	for (i = 0; i < sizeof(good_tcp) / sizeof(good_tcp[0]); i++) {
		memcpy(buf, orig, len);
		apply_patch(buf + H, &good_tcp[i]);
		if (decode_exact(buf, len, &d) != 0)
			fail_msg("TCP %s: refused", good_tcp[i].what);
		check_reencode(&d, buf, len);
	}
	/* two fields: a ping-pong is forward and by time; bytes may end a
	 * test without a duration */
	memcpy(buf, orig, len);
	apply_patch(buf + H, &(struct patch){"", 192, 4, 64});
	apply_patch(buf + H, &(struct patch){"", 0, 1, 1});
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	memcpy(buf, orig, len);
	apply_patch(buf + H, &(struct patch){"", 192, 4, 64});
	apply_patch(buf + H, &(struct patch){"", 196, 8, 1000});
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	memcpy(buf, orig, len);
	apply_patch(buf + H, &(struct patch){"", 132, 8, 0});
	apply_patch(buf + H, &(struct patch){"", 196, 8, 1000});
	assert_int_equal(decode_exact(buf, len, &d), 0);
	assert_int_equal(d.u.params.bytes, 1000);
	free(buf);
	free(orig);
	/* the encoder refuses the same */
	base_tcp_params(&m);
	m.u.params.tcp_window = 100;
	assert_int_equal(
		nb_ctl_encode(&m, d.u.res.chunk, sizeof(d.u.res.chunk)),
		-EINVAL);
	base_params(&m);
	m.u.params.bytes = 1;
	assert_int_equal(
		nb_ctl_encode(&m, d.u.res.chunk, sizeof(d.u.res.chunk)),
		-EINVAL);
}

/* Out-of-range fields of the other types: (type, offset, width, value). */
struct type_patch {
	uint8_t type;
	struct patch p;
	int ok;
};

static const struct type_patch type_patches[] = {
	{NB_CTL_HELLO, {"numa -2", 284, 2, 0xfffe}, 0},
	{NB_CTL_HELLO, {"numa -32768", 284, 2, 0x8000}, 0},
	{NB_CTL_HELLO, {"numa -1", 284, 2, 0xffff}, 1},
	{NB_CTL_HELLO, {"numa 32767", 284, 2, 0x7fff}, 1},
	{NB_CTL_WELCOME, {"numa -2", 284, 2, 0xfffe}, 0},
	{NB_CTL_HELLO, {"flags 0", 364, 4, 0}, 1},
	{NB_CTL_HELLO, {"flags KEY", 364, 4, 1}, 1},
	{NB_CTL_HELLO, {"flags 2", 364, 4, 2}, 0},
	{NB_CTL_HELLO, {"flags 3", 364, 4, 3}, 0},
	{NB_CTL_HELLO, {"flags 0x80000000", 364, 4, 0x80000000u}, 0},
	{NB_CTL_HELLO, {"flags 0x80000001", 364, 4, 0x80000001u}, 0},
	{NB_CTL_WELCOME, {"flags KEY", 364, 4, 1}, 1},
	{NB_CTL_WELCOME, {"flags max", 364, 4, 0xffffffffu}, 0},
	{NB_CTL_WELCOME, {"flags 0x100", 364, 4, 0x100}, 0},
	{NB_CTL_HELLO, {"nonce ones", 348, 8, UINT64_MAX}, 1},
	{NB_CTL_WELCOME, {"nonce end 0", 356, 8, 0}, 1},
	{NB_CTL_QUIT, {"client_nonce 0", 0, 8, 0}, 1},
	{NB_CTL_QUIT, {"cookie ones", 24, 8, UINT64_MAX}, 1},
	{NB_CTL_BUSY, {"asked_session 0", 0, 4, 0}, 0},
	{NB_CTL_ACCEPT, {"rx_queues 0", 0, 4, 0}, 0},
	{NB_CTL_ACCEPT, {"rx_queues 17", 0, 4, 17}, 0},
	{NB_CTL_ACCEPT, {"rx_queues max", 0, 4, 0xffffffff}, 0},
	{NB_CTL_ACCEPT, {"rx_queues 1", 0, 4, 1}, 1},
	{NB_CTL_ACCEPT, {"rx_queues 16", 0, 4, 16}, 1},
	{NB_CTL_REJECT, {"code 0", 0, 2, 0}, 0},
	{NB_CTL_REJECT, {"code max", 0, 2, NB_CTL_CODE_MAX}, 0},
	{NB_CTL_REJECT, {"code 65535", 0, 2, 65535}, 0},
	{NB_CTL_REJECT, {"code last", 0, 2, NB_CTL_CODE_MAX - 1}, 1},
	{NB_CTL_ERROR, {"code 0", 0, 2, 0}, 0},
	{NB_CTL_ERROR, {"code max", 0, 2, NB_CTL_CODE_MAX}, 0},
	{NB_CTL_ERROR, {"code 1", 0, 2, 1}, 1},
	{NB_CTL_START, {"delay 60001", 0, 4, 60001}, 0},
	{NB_CTL_START, {"delay max", 0, 4, 0xffffffff}, 0},
	{NB_CTL_START, {"delay 0", 0, 4, 0}, 1},
	{NB_CTL_START, {"delay 60000", 0, 4, 60000}, 1},
	{NB_CTL_KEEPALIVE, {"echo 0", 8, 8, 0}, 0}, /* delay != 0 */
	{NB_CTL_KEEPALIVE, {"echo 1", 8, 8, 1}, 1},
	{NB_CTL_KEEPALIVE, {"sender 0", 0, 8, 0}, 1},
	{NB_CTL_RESULTS_REQ, {"part max", 0, 4, 0xffffffff}, 1},
	{NB_CTL_RESULTS_REQ, {"part 0", 0, 4, 0}, 1},
};

static void
test_other_ranges(void **state)
{
	uint64_t r = 10;
	struct nb_ctl_msg m, d;
	uint8_t *buf;
	size_t len, i;
	int rc;

	(void)state;
	for (i = 0; i < sizeof(type_patches) / sizeof(type_patches[0]); i++) {
		const struct type_patch *tp = &type_patches[i];

		rand_msg(&r, tp->type, &m);
		if (tp->type == NB_CTL_KEEPALIVE) {
			m.u.ka.echo_ns = 5;
			m.u.ka.echo_delay_ns = 7;
		}
		buf = encode_exact(&m, &len);
		apply_patch(buf + H, &tp->p);
		rc = decode_exact(buf, len, &d);
		if (rc != (tp->ok ? 0 : -EPROTO))
			fail_msg("%s %s: decode returned %d",
				 nb_ctl_type_name(tp->type), tp->p.what, rc);
		if (rc == 0)
			check_reencode(&d, buf, len);
		free(buf);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_params_ranges),
		cmocka_unit_test(test_params_tcp),
		cmocka_unit_test(test_other_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
