/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for --replay's pure side (app/core/nb_replay.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "nb_frame.h"
#include "nb_replay.h"

static void
test_spec(void **state)
{
	struct nb_replayspec s;
	char why[200];

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(nb_replayspec_parse("a.pcap", &s, why, sizeof(why)),
			 0);
	assert_true(s.active);
	assert_string_equal(s.path, "a.pcap");
	assert_int_equal(s.loops, 1);
	/* the timing and stamp options may come first: kept */
	s.timing = NB_REPLAY_FILE;
	s.stamp = 1;
	assert_int_equal(
		nb_replayspec_parse("b.pcap,loop=0", &s, why, sizeof(why)), 0);
	assert_int_equal(s.loops, 0);
	assert_int_equal(s.timing, NB_REPLAY_FILE);
	assert_true(s.stamp);
	assert_int_equal(nb_replayspec_parse(",loop=2", &s, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "expected FILE[,loop=N]"));
	assert_int_equal(nb_replayspec_parse("x,every=2", &s, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "unknown key in 'every=2'"));
	assert_int_equal(nb_replayspec_parse("x,loop=2G", &s, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "loop=2G: expected N"));
	assert_int_equal(nb_replay_timing_parse("rate", &s.timing), 0);
	assert_int_equal(s.timing, NB_REPLAY_RATE);
	assert_int_equal(nb_replay_timing_parse("wire", &s.timing), -EINVAL);
}

static uint32_t
build(uint8_t *buf, uint8_t proto, uint16_t vlan, uint32_t size)
{
	struct nb_flow f;
	struct nb_tmpl t;

	memset(&f, 0, sizeof(f));
	f.proto = proto;
	f.vlan_id = vlan;
	f.ttl = 64;
	f.src_ip = 0x0a000001;
	f.dst_ip = 0x0a000002;
	f.src_port = 1234;
	f.dst_port = 80;
	f.stream_id = 777;
	assert_int_equal(nb_frame_build(buf, 2048, &f, size, 0x1234, &t),
			 size - NB_FCS_LEN);
	return size - NB_FCS_LEN;
}

/* A stampable frame becomes one of ours: stream 0, a right IPv4 header
 * checksum, no UDP checksum, the data magic; the parser then reads the
 * sequence and time written into it. */
static void
test_stampable(void **state)
{
	uint8_t f[2048];
	uint16_t l4 = 0, vlan;
	struct nb_stamp st;
	char why[160];

	(void)state;
	for (vlan = 0; vlan <= 10; vlan += 10) {
		uint32_t len = build(f, NB_IPPROTO_UDP, vlan, 128);
		uint32_t ip = NB_ETH_HLEN + (vlan ? NB_VLAN_HLEN : 0);

		assert_int_equal(
			nb_replay_stampable(f, len, &l4, why, sizeof(why)), 0);
		assert_int_equal(l4, ip + NB_IPV4_HLEN);
		assert_int_equal(nb_get_be16(f + ip + NB_IPV4_OFF_ID), 0);
		assert_int_equal(nb_ipv4_hdr_csum(f + ip, NB_IPV4_HLEN), 0);
		assert_int_equal(nb_get_be16(f + l4 + NB_UDP_OFF_CSUM), 0);
		nb_put_be48(f + l4 + NB_UDP_OFF_SEQ, 41);
		nb_put_be48(f + l4 + NB_UDP_OFF_TS, 123456789);
		assert_int_equal(nb_frame_parse(f, len, len, &st),
				 NB_FRAME_DATA);
		assert_int_equal(st.stream_id, 0);
		assert_int_equal(st.seq, 41);
		assert_int_equal(st.ts, 123456789);
	}
}

static void
test_not_stampable(void **state)
{
	uint8_t f[2048], copy[2048];
	uint16_t l4 = 99;
	uint32_t len;
	char why[160];

	(void)state;
	len = build(f, NB_IPPROTO_TCP, 0, 128);
	memcpy(copy, f, len);
	assert_int_equal(nb_replay_stampable(f, len, &l4, why, sizeof(why)),
			 -1);
	assert_string_equal(why, "IP protocol 6, not UDP");
	assert_memory_equal(f, copy, len); /* left as it was */
	assert_int_equal(l4, 99);
	len = build(f, NB_IPPROTO_UDP, 0, 128);
	nb_put_be16(f + NB_ETH_HLEN + NB_IPV4_OFF_FRAG, 0x2000); /* MF */
	assert_int_equal(nb_replay_stampable(f, len, &l4, why, sizeof(why)),
			 -1);
	assert_string_equal(why, "an IPv4 fragment");
	len = build(f, NB_IPPROTO_UDP, 0, 128);
	/* an IPv4 length leaving 13 payload bytes */
	nb_put_be16(f + NB_ETH_HLEN + NB_IPV4_OFF_LEN,
		    NB_IPV4_HLEN + NB_UDP_HLEN + NB_STAMP_LEN - 1);
	assert_int_equal(nb_replay_stampable(f, len, &l4, why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "no room for a 14-byte stamp"));
	len = build(f, NB_IPPROTO_UDP, 0, 128);
	nb_put_be16(f + NB_ETH_OFF_TYPE, NB_ETHERTYPE_ARP);
	assert_int_equal(nb_replay_stampable(f, len, &l4, why, sizeof(why)),
			 -1);
	assert_string_equal(why, "not IPv4 (ethertype 0x0806)");
	/* a frame to the control port: a receiver would take it for a
	 * control message (found by fuzz_replay) */
	len = build(f, NB_IPPROTO_UDP, 0, 128);
	nb_put_be16(f + NB_ETH_HLEN + NB_IPV4_HLEN + NB_L4_OFF_DPORT,
		    NB_CONTROL_UDP_PORT);
	memcpy(copy, f, len);
	assert_int_equal(nb_replay_stampable(f, len, &l4, why, sizeof(why)),
			 -1);
	assert_string_equal(why, "UDP port 7201 is dpdk-nbench's control port");
	assert_memory_equal(f, copy, len);
	/* to VXLAN's port: a receiver would look for the stamp inside the
	 * tunnel, and count the frame foreign */
	len = build(f, NB_IPPROTO_UDP, 0, 128);
	nb_put_be16(f + NB_ETH_HLEN + NB_IPV4_HLEN + NB_L4_OFF_DPORT,
		    NB_VXLAN_UDP_PORT);
	memcpy(copy, f, len);
	assert_int_equal(nb_replay_stampable(f, len, &l4, why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "UDP port 4789 is VXLAN's"));
	assert_memory_equal(f, copy, len);
	assert_int_equal(nb_replay_stampable(f, 40, &l4, why, sizeof(why)), -1);
	assert_string_equal(why, "40 bytes: too short for a stamp");
}

static void
test_period(void **state)
{
	uint64_t ts[3] = {0, 400, 1000};
	struct nb_replay rp;

	(void)state;
	memset(&rp, 0, sizeof(rp));
	rp.ts_ns = ts;
	rp.n = 3;
	rp.span_ns = 1000;
	/* span + the mean gap */
	assert_int_equal(nb_replay_period_ns(&rp), 1500);
	rp.n = 1;
	rp.span_ns = 0;
	assert_int_equal(nb_replay_period_ns(&rp), 1000);
}

/* bits/s over the frames' mean size, exactly: frames of 64 and 1518 B
 * with FCS; L1 adds 20 B each. */
static void
test_rate(void **state)
{
	struct nb_rate_spec spec = {NB_RATE_BPS_L1, 1e9};
	struct nb_replay rp;
	struct nb_rate r;

	(void)state;
	memset(&rp, 0, sizeof(rp));
	rp.n = 2;
	rp.wire_bytes = 64 + 1518;
	assert_int_equal(nb_replay_rate(&spec, &rp, 0, &r), 0);
	assert_false(r.unlimited);
	/* pps = 1e9 x 2 / ((84 + 1538) x 8) */
	assert_true((__int128)r.pps_num * (1622 * 8) ==
		    (__int128)r.pps_den * 2000000000);
	spec.kind = NB_RATE_BPS_L2;
	assert_int_equal(nb_replay_rate(&spec, &rp, 0, &r), 0);
	assert_true((__int128)r.pps_num * (1582 * 8) ==
		    (__int128)r.pps_den * 2000000000);
	spec.kind = NB_RATE_PERCENT;
	spec.value = 10;
	assert_int_equal(nb_replay_rate(&spec, &rp, 0, &r), -ENOTSUP);
	assert_int_equal(nb_replay_rate(&spec, &rp, 10000000000ull, &r), 0);
	assert_true((__int128)r.pps_num * (1622 * 8) ==
		    (__int128)r.pps_den * 2000000000);
	spec.kind = NB_RATE_PPS;
	spec.value = 5000;
	assert_int_equal(nb_replay_rate(&spec, &rp, 0, &r), 0);
	assert_true(r.pps_num == 5000 * r.pps_den);
	spec.kind = NB_RATE_MAX;
	assert_int_equal(nb_replay_rate(&spec, &rp, 0, &r), 0);
	assert_true(r.unlimited);
}

/* A client's replay to its responder: the session's MACs in every frame,
 * nothing else touched; the mean frame PARAMS carries. */
static void
test_client_macs(void **state)
{
	uint8_t data[64 + 1514 + 10];
	uint32_t off[3] = {0, 64, 64 + 1514};
	uint16_t len[3] = {64, 1514, 10};
	uint8_t orig[sizeof(data)];
	struct nb_replay rp;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7);
	memcpy(orig, data, sizeof(data));
	memset(&rp, 0, sizeof(rp));
	rp.n = 3;
	rp.data = data;
	rp.off = off;
	rp.len = len;
	nb_replay_set_macs(&rp, (const uint8_t *)"\x02\0\0\0\0\x02",
			   (const uint8_t *)"\x02\0\0\0\0\x01");
	for (i = 0; i < 2; i++) {
		assert_memory_equal(data + off[i], "\x02\0\0\0\0\x02", 6);
		assert_memory_equal(data + off[i] + 6, "\x02\0\0\0\0\x01", 6);
		assert_memory_equal(data + off[i] + 12, orig + off[i] + 12,
				    len[i] - 12);
	}
	/* a runt of 10 bytes has no two MACs: left as it was */
	assert_memory_equal(data + off[2], orig + off[2], 10);
	/* (64 + 1518 + 14) / 3 = 532, rounded up: 532 */
	rp.wire_bytes = 64 + 1518 + 14;
	assert_int_equal(nb_replay_mean_size(&rp), 532);
	rp.wire_bytes = 64 + 1518 + 15;
	assert_int_equal(nb_replay_mean_size(&rp), 533);
	/* never below the smallest frame */
	rp.wire_bytes = 3 * 20;
	assert_int_equal(nb_replay_mean_size(&rp), 64);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec),
		cmocka_unit_test(test_stampable),
		cmocka_unit_test(test_not_stampable),
		cmocka_unit_test(test_period),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_client_macs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
