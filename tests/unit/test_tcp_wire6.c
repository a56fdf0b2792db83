/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Closed-loop TCP's frames over IPv6 (nb_tcp_wire.c): what the tool
 * writes is byte for byte what scapy builds for the same segment (the
 * golden frames below, made with scapy 2.5 from its own TCP and IPv6
 * code: Ether()/IPv6(fl=stream id)/TCP(options)), the parser reads
 * scapy's frames back, skips a hop-by-hop header, refuses a fragment, and
 * the template and the run writer agree with the general writer.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_l2.h"
#include "nb_tcp.h"
#include "nb_tcp_wire.h"

/* Ether / IPv6 / TCP 2001:db8:7::1:49152 > 2001:db8:7::100:5201 S */
static const uint8_t gold_syn6[86] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x86, 0xdd, 0x60, 0x00, 0x00, 0x03, 0x00, 0x20, 0x06, 0x40,
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x01, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x07,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0xc0,
	0x00, 0x14, 0x51, 0xff, 0xff, 0xff, 0xf0, 0x00, 0x00, 0x00, 0x00,
	0x80, 0x02, 0xff, 0xff, 0x3e, 0x62, 0x00, 0x00, 0x02, 0x04, 0x05,
	0xa0, 0x01, 0x03, 0x03, 0x07, 0x01, 0x01, 0x04, 0x02,
};
/* Ether / IPv6 / TCP 2001:db8:7::1:49152 > 2001:db8:7::100:5201 PA / Raw */
static const uint8_t gold_data6[186] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x86, 0xdd, 0x60, 0x00, 0x00, 0x03, 0x00, 0x84, 0x06, 0x40, 0x20, 0x01,
	0x0d, 0xb8, 0x00, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x01, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x07, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0xc0, 0x00, 0x14, 0x51, 0x00, 0x00,
	0x00, 0x4d, 0x00, 0x00, 0x00, 0x58, 0x80, 0x18, 0x02, 0x00, 0xa4, 0x15,
	0x00, 0x00, 0x01, 0x01, 0xfd, 0x0a, 0x4e, 0x42, 0x12, 0x34, 0x56, 0x78,
	0x9a, 0xbc, 0xbe, 0x65, 0x97, 0x3b, 0x0a, 0xb4, 0xfb, 0xd7, 0x7f, 0x41,
	0x14, 0xac, 0xfb, 0x18, 0x93, 0x48, 0xd2, 0x01, 0xa8, 0x74, 0x4e, 0x37,
	0x26, 0x30, 0x57, 0x86, 0x46, 0xe4, 0xf0, 0xed, 0xd0, 0x82, 0x81, 0x30,
	0xc5, 0x9d, 0x26, 0xf4, 0xdb, 0xba, 0x70, 0x5a, 0x65, 0x62, 0x53, 0x26,
	0x6d, 0xb3, 0x2b, 0xec, 0x28, 0x7d, 0x19, 0xd8, 0x06, 0x1d, 0x1f, 0xfc,
	0xf9, 0xb6, 0xbd, 0x46, 0xcf, 0x70, 0xf2, 0x7f, 0xa0, 0xd5, 0xe5, 0x04,
	0xba, 0x80, 0xa4, 0x07, 0x8a, 0xb5, 0xa4, 0x8f, 0x6c, 0x93, 0x06, 0x94,
	0x5e, 0xee, 0xcf, 0xdd, 0x01, 0x15, 0x78, 0x79, 0x67, 0x05, 0xac, 0x0e,
	0x97, 0xce, 0xfd, 0x47, 0xc6, 0x30,
};
/* Ether / IPv6 / IPv6ExtHdrHopByHop / TCP 5201 > 49152 A / Raw */
static const uint8_t gold_hbh6[87] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00,
	0x02, 0x86, 0xdd, 0x60, 0x01, 0x23, 0x45, 0x00, 0x21, 0x00, 0x3f,
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x07,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x06,
	0x00, 0x01, 0x04, 0x00, 0x00, 0x00, 0x00, 0x14, 0x51, 0xc0, 0x00,
	0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x06, 0x50, 0x10, 0x00,
	0x64, 0x3a, 0xbc, 0x00, 0x00, 0x68, 0x65, 0x6c, 0x6c, 0x6f,
};
/* Ether / IPv6 / IPv6ExtHdrFragment / TCP 5201 > 49152 A / Raw */
static const uint8_t gold_frag6[90] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x02,
	0x86, 0xdd, 0x60, 0x00, 0x00, 0x00, 0x00, 0x24, 0x2c, 0x40, 0x20, 0x01,
	0x0d, 0xb8, 0x00, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x00, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x07, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x06, 0x00, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x14, 0x51, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x50, 0x10, 0x20, 0x00, 0x7d, 0x18, 0x00, 0x00, 0x78, 0x78,
	0x78, 0x78, 0x78, 0x78, 0x78, 0x78,
};

static const uint8_t ip_c[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 7, [15] = 1};
static const uint8_t ip_s[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 7, [14] = 1};

static struct nb_flow
flow6(void)
{
	struct nb_flow f = {
		.dst_mac = {2, 0, 0, 0, 0, 2},
		.src_mac = {2, 0, 0, 0, 0, 1},
		.proto = NB_IPPROTO_TCP,
		.family = 6,
		.ttl = 64,
		.src_port = 49152,
		.dst_port = 5201,
		.stream_id = 3,
	};

	memcpy(f.src_ip6, ip_c, 16);
	memcpy(f.dst_ip6, ip_s, 16);
	return f;
}

static void
seg_init(struct nb_tcp_seg *s)
{
	memset(s, 0, sizeof(*s));
	s->wscale = NB_TCP_WSCALE_NONE;
}

/* The SYN and a stamped data segment, as scapy writes them. */
static void
test_build_as_scapy(void **state)
{
	struct nb_flow f = flow6(), g;
	struct nb_tcp_seg s, p;
	uint8_t buf[2048];
	int len;

	(void)state;
	nb_tcp_pattern_init();
	seg_init(&s);
	s.flags = NB_TCP_SYN;
	s.seq = 0xfffffff0u;
	s.wnd = 65535;
	s.has_mss = 1;
	s.mss = 1440;
	s.wscale = 7;
	s.sack_ok = 1;
	len = nb_tcp_frame_build(buf, sizeof(buf), &f, &s, NULL);
	assert_int_equal(len, sizeof(gold_syn6));
	assert_memory_equal(buf, gold_syn6, sizeof(gold_syn6));
	assert_int_equal(nb_tcp_frame_len(&f, &s), sizeof(gold_syn6));

	seg_init(&s);
	s.flags = NB_TCP_ACK | NB_TCP_PSH;
	s.seq = 77;
	s.ack = 88;
	s.wnd = 512;
	s.len = 100;
	s.data_off = 1000;
	s.has_stamp = 1;
	s.stamp_ns = 0x123456789abcull;
	len = nb_tcp_frame_build(buf, sizeof(buf), &f, &s, NULL);
	assert_int_equal(len, sizeof(gold_data6));
	assert_memory_equal(buf, gold_data6, sizeof(gold_data6));
	/* the headers alone, their checksum from the pattern's sums */
	len = nb_tcp_frame_build_hdr(buf, sizeof(buf), &f, &s);
	assert_int_equal(len, sizeof(gold_data6) - 100);
	assert_memory_equal(buf, gold_data6, (size_t)len);
	/* and back: the fast parser and the general one agree */
	assert_int_equal(
		nb_tcp_frame_parse(gold_data6, sizeof(gold_data6), 1, &g, &p),
		0);
	assert_int_equal(g.family, 6);
	assert_memory_equal(g.src_ip6, ip_c, 16);
	assert_memory_equal(g.dst_ip6, ip_s, 16);
	assert_int_equal(g.stream_id, 3);
	assert_int_equal(g.ttl, 64);
	assert_int_equal(g.src_port, 49152);
	assert_int_equal(g.dst_port, 5201);
	assert_true(p.has_stamp);
	assert_int_equal(p.stamp_ns, 0x123456789abcull);
	assert_int_equal(p.len, 100);
	assert_int_equal(p.l3_off, 14);
	assert_int_equal(p.l4_off, 54);
	assert_memory_equal(p.payload, nb_tcp_pattern_at(1000), 100);
	assert_int_equal(nb_tcp_frame_csum_ok(gold_data6, &p, 1000), 2);
	memset(&p, 0, sizeof(p));
	assert_int_equal(nb_tcp_frame_parse_general(
				 gold_data6, sizeof(gold_data6), 1, &g, &p),
			 0);
	assert_int_equal(p.stamp_ns, 0x123456789abcull);
	assert_int_equal(p.len, 100);
	assert_int_equal(
		nb_tcp_frame_parse(gold_syn6, sizeof(gold_syn6), 1, &g, &p), 0);
	assert_true(p.has_mss && p.mss == 1440 && p.wscale == 7 && p.sack_ok);
	assert_int_equal(p.seq, 0xfffffff0u);
	/* the MSS a 1518-byte frame gives over IPv6: 20 less than IPv4's */
	assert_int_equal(nb_tcp_mss_for(1518, 0, 6), 1440);
	assert_int_equal(nb_tcp_mss_for(1518, 0, 4), 1460);
	assert_int_equal(nb_tcp_mss_for(1518, 5, 6), 1436);
}

/* A hop-by-hop header is skipped; a fragment is not ours; a payload
 * length past the frame, a flipped bit (with the checksum checked), a
 * short frame are refused. */
static void
test_parse_ext(void **state)
{
	uint8_t buf[256];
	struct nb_tcp_seg p;
	struct nb_flow g;

	(void)state;
	assert_int_equal(
		nb_tcp_frame_parse(gold_hbh6, sizeof(gold_hbh6), 1, &g, &p), 0);
	assert_int_equal(g.family, 6);
	assert_memory_equal(g.src_ip6, ip_s, 16);
	assert_int_equal(g.stream_id, 0x2345); /* the flow label's low 16 */
	assert_int_equal(g.ttl, 63);
	assert_int_equal(p.l4_off, 14 + 40 + 8);
	assert_int_equal(p.len, 5);
	assert_memory_equal(p.payload, "hello", 5);
	assert_int_equal(p.flags, NB_TCP_ACK);
	assert_int_equal(p.seq, 5);
	assert_int_equal(
		nb_tcp_frame_parse(gold_frag6, sizeof(gold_frag6), 0, &g, &p),
		-EPROTO);
	memcpy(buf, gold_data6, sizeof(gold_data6));
	buf[19]++; /* the payload length one past the frame */
	assert_int_equal(nb_tcp_frame_parse(buf, sizeof(gold_data6), 0, &g, &p),
			 -EPROTO);
	buf[19]--;
	buf[sizeof(gold_data6) - 1] ^= 0x20;
	assert_int_equal(nb_tcp_frame_parse(buf, sizeof(gold_data6), 1, &g, &p),
			 -EPROTO);
	assert_int_equal(nb_tcp_frame_parse(buf, sizeof(gold_data6), 0, &g, &p),
			 0);
	assert_int_equal(nb_tcp_frame_parse(buf, 60, 0, &g, &p), -EPROTO);
}

/* The template's and the run's headers are the general writer's, for
 * tagged and untagged IPv6 flows over many segments. */
static void
test_template6(void **state)
{
	uint8_t want[160], got[NB_TCP_TMPL_MAX + 8];
	static uint8_t runb[8][NB_TCP_TMPL_MAX + 8];
	uint8_t *bufs[8];
	struct nb_tcp_tmpl t;
	struct nb_tcp_seg s, x;
	struct nb_flow f;
	unsigned int k, i, r;
	int n;

	(void)state;
	nb_tcp_pattern_init();
	srand(6);
	for (k = 0; k < 200; k++) {
		f = flow6();
		f.vlan_id = (uint16_t)(k % 2 ? 1 + rand() % 4094 : 0);
		f.stream_id = (uint16_t)rand();
		f.src_ip6[15] = (uint8_t)rand();
		nb_tcp_tmpl_init(&t, &f);
		assert_int_equal(t.v6, 1);
		seg_init(&s);
		s.flags = k % 3 ? NB_TCP_ACK : NB_TCP_ACK | NB_TCP_PSH;
		s.seq = (uint32_t)rand() * 2654435761u;
		s.ack = (uint32_t)rand() * 40503u;
		s.wnd = (uint32_t)rand() & 0xffff;
		s.has_stamp = 1;
		s.stamp_ns = ((uint64_t)rand() << 31) ^ (uint64_t)rand();
		s.len = (uint16_t)(k % 5 ? 1428 : 1 + rand() % 16384);
		s.data_off = ((uint64_t)rand() << 20) + (uint64_t)rand();
		n = nb_tcp_frame_build_hdr(want, sizeof(want), &f, &s);
		assert_int_equal(n, t.hlen);
		memset(got, 0xa5, sizeof(got));
		assert_int_equal(nb_tcp_tmpl_build(&t, got, &s), n);
		assert_memory_equal(got, want, (size_t)n);
		r = 1 + (unsigned int)rand() % 8;
		for (i = 0; i < r; i++)
			bufs[i] = runb[i];
		assert_int_equal(nb_tcp_tmpl_build_run(&t, bufs, &s, r),
				 t.hlen);
		x = s;
		for (i = 0; i < r; i++) {
			n = nb_tcp_frame_build_hdr(want, sizeof(want), &f, &x);
			assert_memory_equal(runb[i], want, (size_t)n);
			x.seq += x.len;
			x.data_off += x.len;
		}
	}
}

/* The flow helpers the worker's demultiplexer uses. */
static void
test_flow_helpers(void **state)
{
	struct nb_flow a = flow6(), b, c = {.src_ip = 1, .dst_ip = 2};

	(void)state;
	nb_flow_reverse(&b, &a);
	assert_true(nb_flow_ips_reversed(&a, &b));
	assert_true(nb_flow_ips_reversed(&b, &a));
	assert_false(nb_flow_ips_reversed(&a, &a));
	assert_int_equal(b.src_port, 5201);
	assert_memory_equal(b.dst_mac, a.src_mac, 6);
	b.src_ip6[3] ^= 1;
	assert_false(nb_flow_ips_reversed(&a, &b));
	/* IPv4 (family 0 or 4) never matches an IPv6 flow */
	nb_flow_reverse(&b, &c);
	b.family = 4;
	assert_true(nb_flow_ips_reversed(&c, &b));
	assert_false(nb_flow_ips_reversed(&a, &b));
	assert_false(nb_flow_ips_reversed(&b, &a));
	assert_int_equal(nb_flow_ip32(&c, 0), 1);
	assert_int_equal(nb_flow_ip32(&c, 1), 2);
	assert_true(nb_flow_ip32(&a, 0) != nb_flow_ip32(&a, 1));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_as_scapy),
		cmocka_unit_test(test_parse_ext),
		cmocka_unit_test(test_template6),
		cmocka_unit_test(test_flow_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
