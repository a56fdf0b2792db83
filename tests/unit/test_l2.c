/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the control-plane frames (app/core/nb_l2.h, nb_l2.c):
 * UDP/IPv4 control datagrams, ARP and ICMP echo.
 *
 * Expected values are computed here, independently of the code under
 * test: reference frames are written byte by byte and every checksum is
 * checked with an RFC 1071 routine of this file (not nb_csum_*).  Frames
 * handed to the parsers live in malloc'd buffers of exactly their length,
 * so an over-read is caught by ASan in a sanitizer build.
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

#include "nb_test_util.h"

#include "nb_l2.h"

#define BIG_FRAME 1600

static const uint8_t mac_a[6] = {0x02, 0x00, 0x5e, 0x10, 0x00, 0x0a};
static const uint8_t mac_b[6] = {0x02, 0x00, 0x5e, 0x20, 0x00, 0x0b};
static const uint8_t mac_bc[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
static const uint8_t mac_zero[6];

#define IP_A 0xc6120001u /* 198.18.0.1: "me" */
#define IP_B 0xc6130001u /* 198.19.0.1: the peer */
#define IP_C 0xc6120063u /* 198.18.0.99: somebody else */

#define PORT_S 49152
#define PORT_D 7201

static const size_t udp_plens[] = {0, 1, 17, 18, 1000, 1472};
#define N_PLENS (sizeof(udp_plens) / sizeof(udp_plens[0]))

static const uint16_t some_vlans[] = {0, 1, 2, 100, 1000, 4094};
#define N_VLANS (sizeof(some_vlans) / sizeof(some_vlans[0]))

static void
wr32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)(v & 0xff);
}

/* Sum of the IPv4 pseudo-header of a UDP datagram of ulen bytes. */
static uint16_t
ref_pseudo(const uint8_t *ip, uint16_t ulen)
{
	uint8_t ph[12];

	memcpy(ph, ip + 12, 8);
	ph[8] = 0;
	ph[9] = 17;
	wr16(ph + 10, ulen);
	return ref_sum(ph, sizeof(ph), 0);
}

/* 1 if the IPv4 header at ip (IHL from its first byte) sums right. */
static int
ref_ip_ok(const uint8_t *ip)
{
	return ref_sum(ip, (size_t)(ip[0] & 0xf) * 4, 0) == 0xffff;
}

/* Rewrite the IPv4 header checksum (after a deliberate edit). */
static void
fix_ip_csum(uint8_t *ip)
{
	wr16(ip + 10, 0);
	wr16(ip + 10, (uint16_t)~ref_sum(ip, (size_t)(ip[0] & 0xf) * 4, 0));
}

/* 1 if the UDP datagram at udp (length from its header) sums right. */
static int
ref_udp_ok(const uint8_t *ip, const uint8_t *udp)
{
	uint16_t ulen = rd16(udp + 4);

	return ref_sum(udp, ulen, ref_pseudo(ip, ulen)) == 0xffff;
}

/* Rewrite the UDP checksum over its UDP length; 0 is sent as 0xffff. */
static void
fix_udp_csum(uint8_t *ip, uint8_t *udp)
{
	uint16_t ulen = rd16(udp + 4), c;

	wr16(udp + 6, 0);
	c = (uint16_t)~ref_sum(udp, ulen, ref_pseudo(ip, ulen));
	wr16(udp + 6, c ? c : 0xffff);
}

/* A copy of len bytes in a buffer of exactly len bytes. */
static uint8_t *
dup_exact(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	assert_non_null(p);
	if (len)
		memcpy(p, src, len);
	return p;
}

static void
fill_payload(uint8_t *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 7 + seed * 13 + 3);
}

/*
 * Ethernet header written byte by byte: dst, src, [0x8100, TCI], type.
 * Returns the L3 offset.
 */
static size_t
ref_eth(uint8_t *f, const uint8_t *dst, const uint8_t *src, uint16_t vlan,
	uint16_t type)
{
	size_t off = 12;

	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	if (vlan) {
		f[12] = 0x81;
		f[13] = 0x00;
		wr16(f + 14, vlan);
		off = 16;
	}
	wr16(f + off, type);
	return off + 2;
}

/*
 * A reference UDP/IPv4 frame from mac_a/IP_A:PORT_S to mac_b/IP_B:PORT_D.
 * ihl_words > 5 adds NOP options.  zero_csum sends no UDP checksum.
 * Zero padded to 60 bytes.  Returns the frame length.
 */
static size_t
ref_udp_frame(uint8_t *f, uint16_t vlan, const uint8_t *payload, size_t plen,
	      unsigned int ihl_words, uint16_t ip_id, uint16_t frag,
	      uint8_t ttl, int zero_csum)
{
	size_t l3 = ref_eth(f, mac_b, mac_a, vlan, 0x0800);
	size_t ihl = ihl_words * 4, end = l3 + ihl + 8 + plen, i;
	uint8_t *ip = f + l3, *udp = ip + ihl;

	ip[0] = (uint8_t)(0x40 | ihl_words);
	ip[1] = 0;
	wr16(ip + 2, (uint16_t)(ihl + 8 + plen));
	wr16(ip + 4, ip_id);
	wr16(ip + 6, frag);
	ip[8] = ttl;
	ip[9] = 17;
	wr32(ip + 12, IP_A);
	wr32(ip + 16, IP_B);
	for (i = 20; i < ihl; i++)
		ip[i] = 1; /* NOP */
	fix_ip_csum(ip);
	wr16(udp, PORT_S);
	wr16(udp + 2, PORT_D);
	wr16(udp + 4, (uint16_t)(8 + plen));
	wr16(udp + 6, 0);
	if (plen)
		memcpy(udp + 8, payload, plen);
	if (!zero_csum)
		fix_udp_csum(ip, udp);
	for (i = end; i < 60; i++)
		f[i] = 0;
	return end < 60 ? 60 : end;
}

static void
make_info(struct nb_udp_info *h, uint16_t vlan)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->src_mac, mac_a, 6);
	memcpy(h->dst_mac, mac_b, 6);
	h->vlan_id = vlan;
	h->src_ip = IP_A;
	h->dst_ip = IP_B;
	h->src_port = PORT_S;
	h->dst_port = PORT_D;
}

/*
 * Parse len bytes of f copied to an exact buffer and return the result.
 * On success o->payload, checked to lie inside the copy, is moved to the
 * same offset in f (the copy is freed).
 */
static int
parse_exact(const uint8_t *f, size_t len, struct nb_udp_info *o)
{
	uint8_t *b = dup_exact(f, len);
	int rc = nb_udp_frame_parse(b, (uint32_t)len, o);

	if (rc == 0) {
		assert_true(o->payload >= b);
		assert_true(o->payload + o->payload_len <= b + len);
		o->payload = f + (o->payload - b);
	}
	free(b);
	return rc;
}

/* Check what nb_udp_frame_parse restored from a ref_udp_frame. */
static void
check_info(const struct nb_udp_info *o, const uint8_t *frame, uint16_t vlan,
	   const uint8_t *payload, size_t plen, size_t pay_off)
{
	assert_memory_equal(o->src_mac, mac_a, 6);
	assert_memory_equal(o->dst_mac, mac_b, 6);
	assert_int_equal(o->vlan_id, vlan);
	assert_int_equal(o->src_ip, IP_A);
	assert_int_equal(o->dst_ip, IP_B);
	assert_int_equal(o->src_port, PORT_S);
	assert_int_equal(o->dst_port, PORT_D);
	assert_int_equal(o->payload_len, plen);
	assert_ptr_equal(o->payload, frame + pay_off);
	if (plen)
		assert_memory_equal(o->payload, payload, plen);
}

/* One build + byte check + parse round trip. */
static void
udp_roundtrip(uint16_t vlan, size_t plen)
{
	uint8_t payload[1472], *buf, ref[BIG_FRAME];
	size_t l3 = vlan ? 18 : 14, end = l3 + 28 + plen;
	size_t want = end < 60 ? 60 : end, i;
	const uint8_t *ip, *udp;
	struct nb_udp_info h, o;
	int n;

	fill_payload(payload, plen, (unsigned int)(plen + vlan));
	make_info(&h, vlan);
	buf = malloc(want);
	assert_non_null(buf);
	memset(buf, 0xa5, want);
	n = nb_udp_frame_build(buf, want, &h, payload, plen);
	assert_int_equal(n, want);

	/* Ethernet */
	assert_memory_equal(buf, mac_b, 6);
	assert_memory_equal(buf + 6, mac_a, 6);
	if (vlan) {
		assert_int_equal(rd16(buf + 12), 0x8100);
		assert_int_equal(rd16(buf + 14), vlan); /* PCP 0, DEI 0 */
	}
	assert_int_equal(rd16(buf + l3 - 2), 0x0800);
	/* IPv4 */
	ip = buf + l3;
	assert_int_equal(ip[0], 0x45);
	assert_int_equal(rd16(ip + 2), 28 + plen);
	assert_int_equal(rd16(ip + 6) & 0x3fff, 0); /* not a fragment */
	assert_true(ip[8] > 0);
	assert_int_equal(ip[9], 17);
	assert_int_equal(rd32(ip + 12), IP_A);
	assert_int_equal(rd32(ip + 16), IP_B);
	assert_true(ref_ip_ok(ip));
	/* UDP */
	udp = ip + 20;
	assert_int_equal(rd16(udp), PORT_S);
	assert_int_equal(rd16(udp + 2), PORT_D);
	assert_int_equal(rd16(udp + 4), 8 + plen);
	assert_int_not_equal(rd16(udp + 6), 0);
	assert_true(ref_udp_ok(ip, udp));
	if (plen)
		assert_memory_equal(udp + 8, payload, plen);
	for (i = end; i < want; i++)
		assert_int_equal(buf[i], 0);

	/* Byte for byte what the reference writes with the same ID/TTL/DF. */
	assert_int_equal(ref_udp_frame(ref, vlan, payload, plen, 5,
				       rd16(ip + 4), rd16(ip + 6), ip[8], 0),
			 want);
	assert_memory_equal(buf, ref, want);

	memset(&o, 0xee, sizeof(o));
	assert_int_equal(nb_udp_frame_parse(buf, (uint32_t)want, &o), 0);
	check_info(&o, buf, vlan, payload, plen, l3 + 28);
	free(buf);

	/* One byte short of the frame: -ENOSPC, nothing written past it. */
	buf = malloc(want - 1);
	assert_non_null(buf);
	assert_int_equal(nb_udp_frame_build(buf, want - 1, &h, payload, plen),
			 -ENOSPC);
	free(buf);

	/* The parser also takes a frame not made by the builder. */
	want = ref_udp_frame(ref, vlan, payload, plen, 5, 0xbeef, 0, 1, 0);
	memset(&o, 0, sizeof(o));
	assert_int_equal(parse_exact(ref, want, &o), 0);
}

static void
test_udp_roundtrip(void **state)
{
	size_t i, j;
	uint16_t v;

	(void)state;
	for (i = 0; i < N_VLANS; i++)
		for (j = 0; j < N_PLENS; j++)
			udp_roundtrip(some_vlans[i], udp_plens[j]);
	/* Every VLAN ID, at the padding boundary. */
	for (v = 1; v <= 4094; v++)
		udp_roundtrip(v, 18);
}

/* Ethernet padding and a UDP length shorter than the IP payload. */
static void
test_udp_padding(void **state)
{
	uint8_t f[BIG_FRAME], payload[64];
	struct nb_udp_info o;
	size_t len, l3;
	uint8_t *ip;

	(void)state;
	fill_payload(payload, sizeof(payload), 5);
	/* 60-byte frames whose datagram ends before the padding */
	len = ref_udp_frame(f, 0, payload, 3, 5, 7, 0, 64, 0);
	assert_int_equal(len, 60);
	memset(f + 14 + 28 + 3, 0x5a, 60 - (14 + 28 + 3)); /* junk padding */
	memset(&o, 0, sizeof(o));
	assert_int_equal(parse_exact(f, len, &o), 0);
	assert_int_equal(o.payload_len, 3);
	/* a larger frame with trailing bytes after the IP datagram */
	len = ref_udp_frame(f, 7, payload, 40, 5, 7, 0, 64, 0);
	memset(f + len, 0x77, 100);
	memset(&o, 0, sizeof(o));
	assert_int_equal(parse_exact(f, len + 100, &o), 0);
	assert_int_equal(o.payload_len, 40);
	assert_int_equal(o.vlan_id, 7);

	/* UDP length 8 + 4 inside an IP payload of 8 + 40 */
	l3 = 14;
	len = ref_udp_frame(f, 0, payload, 40, 5, 7, 0, 64, 0);
	ip = f + l3;
	wr16(ip + 20 + 4, 12);
	fix_udp_csum(ip, ip + 20);
	memset(&o, 0, sizeof(o));
	assert_int_equal(parse_exact(f, len, &o), 0);
	assert_int_equal(o.payload_len, 4);
	assert_memory_equal(o.payload, payload, 4);

	/* IP options (IHL 6 and 15) are skipped */
	len = ref_udp_frame(f, 0, payload, 20, 6, 7, 0, 64, 0);
	memset(&o, 0, sizeof(o));
	assert_int_equal(parse_exact(f, len, &o), 0);
	assert_int_equal(o.payload_len, 20);
	assert_memory_equal(o.payload, payload, 20);
	len = ref_udp_frame(f, 100, payload, 0, 15, 7, 0x4000, 64, 0);
	assert_int_equal(len, 18 + 60 + 8);
	memset(&o, 0, sizeof(o));
	assert_int_equal(parse_exact(f, len, &o), 0);
	assert_int_equal(o.payload_len, 0);
	assert_int_equal(o.src_port, PORT_S);
}

/* A zero UDP checksum is "none"; a computed zero is sent as 0xffff. */
static void
test_udp_zero_checksum(void **state)
{
	uint8_t f[BIG_FRAME], payload[16] = {0}, *buf;
	struct nb_udp_info h, o;
	size_t len;
	uint16_t s;
	int n;

	(void)state;
	fill_payload(payload, 16, 1);
	len = ref_udp_frame(f, 0, payload, 16, 5, 1, 0, 64, 1);
	assert_int_equal(rd16(f + 14 + 26), 0);
	memset(&o, 0, sizeof(o));
	assert_int_equal(parse_exact(f, len, &o), 0);
	check_info(&o, f, 0, payload, 16, 42);
	len = ref_udp_frame(f, 55, payload, 0, 5, 1, 0, 64, 1);
	assert_int_equal(parse_exact(f, len, &o), 0);
	assert_int_equal(o.payload_len, 0);

	/*
	 * Choose the first payload word so the datagram sums to 0xffff with
	 * the checksum field zero: the computed checksum is then 0.
	 */
	memset(payload, 0, sizeof(payload));
	len = ref_udp_frame(f, 0, payload, 2, 5, 0, 0, 64, 1);
	s = ref_sum(f + 34, 10, ref_pseudo(f + 14, 10));
	assert_int_not_equal(s, 0xffff);
	wr16(payload, (uint16_t)(0xffff - s));
	make_info(&h, 0);
	buf = malloc(60);
	assert_non_null(buf);
	n = nb_udp_frame_build(buf, 60, &h, payload, 2);
	assert_int_equal(n, 60);
	assert_int_equal(ref_sum(buf + 34, 10, ref_pseudo(buf + 14, 10)),
			 0xffff);
	assert_int_equal(rd16(buf + 34 + 6), 0xffff);
	assert_true(ref_udp_ok(buf + 14, buf + 34));
	memset(&o, 0, sizeof(o));
	assert_int_equal(nb_udp_frame_parse(buf, 60, &o), 0);
	assert_int_equal(o.payload_len, 2);
	assert_memory_equal(o.payload, payload, 2);
	free(buf);
}

/* Every truncation of a valid frame is rejected (inside the datagram). */
static void
test_udp_truncation(void **state)
{
	static const uint16_t vlans[] = {0, 100};
	static const size_t plens[] = {0, 1, 18, 100};
	uint8_t f[BIG_FRAME], payload[100];
	struct nb_udp_info o;
	size_t i, j, len, t, end;
	int rc;

	(void)state;
	for (i = 0; i < 2; i++) {
		for (j = 0; j < 4; j++) {
			fill_payload(payload, plens[j], 9);
			len = ref_udp_frame(f, vlans[i], payload, plens[j], 5,
					    3, 0, 64, 0);
			end = (vlans[i] ? 18 : 14) + 28 + plens[j];
			for (t = 0; t <= len; t++) {
				memset(&o, 0, sizeof(o));
				rc = parse_exact(f, t, &o);
				if (t < end)
					assert_int_equal(rc, -EPROTO);
				else
					assert_int_equal(rc, 0);
			}
		}
	}
	assert_int_equal(nb_udp_frame_parse(f, 0, &o), -EPROTO);
}

/* Parse f; expect rc, reported at the caller's line. */
static void
expect_udp_at(const uint8_t *f, size_t len, int rc, int line)
{
	struct nb_udp_info o;
	int got;

	memset(&o, 0, sizeof(o));
	got = parse_exact(f, len, &o);
	_assert_int_equal(cast_to_largest_integral_type(got),
			  cast_to_largest_integral_type(rc), __FILE__, line);
}

#define expect_udp(f, len, rc) expect_udp_at(f, len, rc, __LINE__)

static void
test_udp_rejects(void **state)
{
	static const uint16_t vlans[] = {0, 4094};
	uint8_t f[BIG_FRAME], g[BIG_FRAME], payload[1472];
	size_t i, len, l3;
	uint8_t *ip, *udp;

	(void)state;
	fill_payload(payload, sizeof(payload), 2);
	for (i = 0; i < 2; i++) {
		l3 = vlans[i] ? 18 : 14;
		len = ref_udp_frame(f, vlans[i], payload, 18, 5, 3, 0, 64, 0);
		expect_udp(f, len, 0);

#define FRESH() (memcpy(g, f, len), ip = g + l3, udp = ip + 20)
		/* wrong ethertype */
		FRESH();
		wr16(g + l3 - 2, 0x86dd);
		expect_udp(g, len, -EPROTO);
		wr16(g + l3 - 2, 0x0806);
		expect_udp(g, len, -EPROTO);
		wr16(g + l3 - 2, 0x8100);
		expect_udp(g, len, -EPROTO);
		FRESH();
		wr16(g + 12, 0x88a8);
		expect_udp(g, len, -EPROTO);

		/* version 6, with a right checksum */
		FRESH();
		ip[0] = 0x65;
		fix_ip_csum(ip);
		expect_udp(g, len, -EPROTO);
		FRESH();
		ip[0] = 0x05;
		fix_ip_csum(ip);
		expect_udp(g, len, -EPROTO);

		/* IHL < 5 */
		FRESH();
		ip[0] = 0x44;
		expect_udp(g, len, -EPROTO);
		FRESH();
		ip[0] = 0x40;
		expect_udp(g, len, -EPROTO);
		/* IHL 4 over a consistent 16-byte header and UDP behind it */
		FRESH();
		ip[0] = 0x44;
		wr16(ip + 16 + 4, (uint16_t)(rd16(ip + 2) - 16));
		wr16(ip + 16 + 6, 0);
		fix_ip_csum(ip);
		expect_udp(g, len, -EPROTO);
		/* IHL past the datagram */
		FRESH();
		ip[0] = 0x4f;
		expect_udp(g, len, -EPROTO);

		/* total length beyond the frame, or too small for UDP */
		FRESH();
		wr16(ip + 2, (uint16_t)(len - l3 + 1));
		fix_ip_csum(ip);
		expect_udp(g, len, -EPROTO);
		FRESH();
		wr16(ip + 2, 0xffff);
		fix_ip_csum(ip);
		expect_udp(g, len, -EPROTO);
		FRESH();
		wr16(ip + 2, 27);
		fix_ip_csum(ip);
		expect_udp(g, len, -EPROTO);
		FRESH();
		wr16(ip + 2, 0);
		fix_ip_csum(ip);
		expect_udp(g, len, -EPROTO);

		/* UDP length < 8 or > IP payload (checksum off) */
		FRESH();
		wr16(udp + 6, 0);
		expect_udp(g, len, 0);
		wr16(udp + 4, 7);
		expect_udp(g, len, -EPROTO);
		wr16(udp + 4, 0);
		expect_udp(g, len, -EPROTO);
		wr16(udp + 4, 8 + 18 + 1);
		expect_udp(g, len, -EPROTO);
		wr16(udp + 4, 0xffff);
		expect_udp(g, len, -EPROTO);
		/* ... also when the frame has the bytes (padding) */
		len = ref_udp_frame(f, vlans[i], payload, 0, 5, 3, 0, 64, 1);
		FRESH();
		expect_udp(g, len, 0);
		wr16(udp + 4, 9);
		expect_udp(g, len, -EPROTO);
		len = ref_udp_frame(f, vlans[i], payload, 18, 5, 3, 0, 64, 0);

		/* bad IPv4 checksum */
		FRESH();
		ip[10] ^= 0x01;
		expect_udp(g, len, -EPROTO);
		FRESH();
		ip[8]--; /* TTL decremented without checksum update */
		expect_udp(g, len, -EPROTO);

		/* bad UDP checksum: a payload byte, a port, the checksum */
		FRESH();
		udp[8 + 5] ^= 0x10;
		expect_udp(g, len, -EPROTO);
		FRESH();
		udp[1] ^= 0x01;
		expect_udp(g, len, -EPROTO);
		FRESH();
		udp[7] ^= 0x80;
		expect_udp(g, len, -EPROTO);
		/* an address (pseudo-header) with the IP checksum fixed */
		FRESH();
		ip[19] ^= 0x02;
		fix_ip_csum(ip);
		expect_udp(g, len, -EPROTO);

		/* fragments: MF, any offset; DF alone is fine */
		FRESH();
		wr16(ip + 6, 0x2000);
		fix_ip_csum(ip);
		expect_udp(g, len, -EPROTO);
		FRESH();
		wr16(ip + 6, 0x0001);
		fix_ip_csum(ip);
		expect_udp(g, len, -EPROTO);
		FRESH();
		wr16(ip + 6, 0x5fff);
		fix_ip_csum(ip);
		expect_udp(g, len, -EPROTO);
		FRESH();
		wr16(ip + 6, 0x4000);
		fix_ip_csum(ip);
		expect_udp(g, len, 0);

		/* not UDP */
		FRESH();
		ip[9] = 6;
		fix_ip_csum(ip);
		expect_udp(g, len, -EPROTO);
		FRESH();
		ip[9] = 1;
		fix_ip_csum(ip);
		expect_udp(g, len, -EPROTO);
#undef FRESH
	}

	/* a large frame with one flipped payload byte */
	len = ref_udp_frame(f, 0, payload, 1472, 5, 3, 0, 64, 0);
	expect_udp(f, len, 0);
	f[14 + 28 + 1471] ^= 0xff;
	expect_udp(f, len, -EPROTO);
}

static void
test_udp_build_errors(void **state)
{
	uint8_t payload[16] = {0}, *buf;
	struct nb_udp_info h;

	(void)state;
	buf = malloc(BIG_FRAME);
	assert_non_null(buf);
	make_info(&h, 0);
	assert_int_equal(nb_udp_frame_build(buf, 0, &h, payload, 0), -ENOSPC);
	assert_int_equal(nb_udp_frame_build(buf, 59, &h, payload, 0), -ENOSPC);
	assert_int_equal(nb_udp_frame_build(buf, 60, &h, payload, 0), 60);
	h.vlan_id = 4095;
	assert_int_equal(nb_udp_frame_build(buf, BIG_FRAME, &h, payload, 0),
			 -EINVAL);
	h.vlan_id = 0xffff;
	assert_int_equal(nb_udp_frame_build(buf, BIG_FRAME, &h, payload, 0),
			 -EINVAL);
	h.vlan_id = 0;
	assert_int_equal(nb_udp_frame_build(buf, BIG_FRAME, &h, payload, 9001),
			 -EINVAL);
	free(buf);
}

/* ARP fields for a reference frame. */
struct ref_arp {
	const uint8_t *eth_dst, *eth_src;
	uint16_t vlan;
	uint16_t htype, ptype;
	uint8_t hlen, plen;
	uint16_t op;
	const uint8_t *sha;
	uint32_t spa;
	const uint8_t *tha;
	uint32_t tpa;
};

/* "Who has IP_A? Tell IP_B (mac_b)", broadcast. */
static void
arp_req_default(struct ref_arp *a, uint16_t vlan)
{
	a->eth_dst = mac_bc;
	a->eth_src = mac_b;
	a->vlan = vlan;
	a->htype = 1;
	a->ptype = 0x0800;
	a->hlen = 6;
	a->plen = 4;
	a->op = 1;
	a->sha = mac_b;
	a->spa = IP_B;
	a->tha = mac_zero;
	a->tpa = IP_A;
}

/* Writes the frame; pad: to 60 bytes, else 42 or 46. Returns its length. */
static size_t
ref_arp_frame(uint8_t *f, const struct ref_arp *a, int pad)
{
	size_t o = ref_eth(f, a->eth_dst, a->eth_src, a->vlan, 0x0806);

	wr16(f + o, a->htype);
	wr16(f + o + 2, a->ptype);
	f[o + 4] = a->hlen;
	f[o + 5] = a->plen;
	wr16(f + o + 6, a->op);
	memcpy(f + o + 8, a->sha, 6);
	wr32(f + o + 14, a->spa);
	memcpy(f + o + 18, a->tha, 6);
	wr32(f + o + 24, a->tpa);
	o += 28;
	if (!pad)
		return o;
	memset(f + o, 0, 60 - o);
	return 60;
}

/* An ARP reply from my_mac/my_ip to req_mac/req_ip, 60 bytes. */
static void
check_arp_reply(const uint8_t *r, uint16_t vlan, const uint8_t *my_mac,
		uint32_t my_ip, const uint8_t *req_mac, uint32_t req_ip)
{
	size_t o = vlan ? 18 : 14, i;

	assert_memory_equal(r, req_mac, 6);
	assert_memory_equal(r + 6, my_mac, 6);
	if (vlan) {
		assert_int_equal(rd16(r + 12), 0x8100);
		assert_int_equal(rd16(r + 14) & 0x0fff, vlan);
	}
	assert_int_equal(rd16(r + o - 2), 0x0806);
	assert_int_equal(rd16(r + o), 1);
	assert_int_equal(rd16(r + o + 2), 0x0800);
	assert_int_equal(r[o + 4], 6);
	assert_int_equal(r[o + 5], 4);
	assert_int_equal(rd16(r + o + 6), 2);
	assert_memory_equal(r + o + 8, my_mac, 6);
	assert_int_equal(rd32(r + o + 14), my_ip);
	assert_memory_equal(r + o + 18, req_mac, 6);
	assert_int_equal(rd32(r + o + 24), req_ip);
	for (i = o + 28; i < 60; i++)
		assert_int_equal(r[i], 0);
}

/* nb_arp_answer on len bytes of f in an exact buffer; out is 60 bytes. */
static int
arp_answer_exact(const uint8_t *f, size_t len, uint8_t *out)
{
	uint8_t *b = dup_exact(f, len);
	int rc = nb_arp_answer(b, (uint32_t)len, mac_a, IP_A, out, 60);

	free(b);
	return rc;
}

static void
test_arp_answer(void **state)
{
	static const uint16_t vlans[] = {0, 1, 100, 4094};
	uint8_t f[64], *out;
	struct ref_arp a;
	size_t i, len;
	int pad;

	(void)state;
	out = malloc(60);
	assert_non_null(out);
	for (i = 0; i < 4; i++) {
		for (pad = 0; pad < 2; pad++) {
			arp_req_default(&a, vlans[i]);
			len = ref_arp_frame(f, &a, pad);
			memset(out, 0xa5, 60);
			assert_int_equal(arp_answer_exact(f, len, out), 60);
			check_arp_reply(out, vlans[i], mac_a, IP_A, mac_b,
					IP_B);
			/* unicast request (cache refresh) is answered too */
			a.eth_dst = mac_a;
			a.tha = mac_a;
			len = ref_arp_frame(f, &a, pad);
			assert_int_equal(arp_answer_exact(f, len, out), 60);
			check_arp_reply(out, vlans[i], mac_a, IP_A, mac_b,
					IP_B);
		}
	}
	/* the reply goes to the sender hardware address */
	arp_req_default(&a, 0);
	a.sha = mac_zero; /* odd, but it is what ARP says to use */
	len = ref_arp_frame(f, &a, 1);
	assert_int_equal(arp_answer_exact(f, len, out), 60);
	check_arp_reply(out, 0, mac_a, IP_A, mac_zero, IP_B);

	/* outlen too small */
	arp_req_default(&a, 0);
	len = ref_arp_frame(f, &a, 1);
	assert_int_equal(nb_arp_answer(f, (uint32_t)len, mac_a, IP_A, out, 59),
			 -ENOSPC);
	free(out);
}

static void
test_arp_not_answered(void **state)
{
	uint8_t f[64], out[60];
	struct ref_arp a;
	size_t len;

	(void)state;
	/* request for another IP */
	arp_req_default(&a, 0);
	a.tpa = IP_C;
	len = ref_arp_frame(f, &a, 1);
	assert_int_equal(arp_answer_exact(f, len, out), 0);
	arp_req_default(&a, 33);
	a.tpa = IP_B; /* gratuitous: sender asks for its own address */
	len = ref_arp_frame(f, &a, 1);
	assert_int_equal(arp_answer_exact(f, len, out), 0);
	/* a reply, even one naming my IP as target */
	arp_req_default(&a, 0);
	a.op = 2;
	len = ref_arp_frame(f, &a, 1);
	assert_int_equal(arp_answer_exact(f, len, out), 0);
	/* RARP request opcode */
	a.op = 3;
	len = ref_arp_frame(f, &a, 0);
	assert_int_equal(arp_answer_exact(f, len, out), 0);
	a.op = 0;
	len = ref_arp_frame(f, &a, 0);
	assert_int_equal(arp_answer_exact(f, len, out), 0);
}

static void
test_arp_malformed(void **state)
{
	static const uint16_t vlans[] = {0, 200};
	uint8_t f[64], g[64], out[60], mac[6];
	struct ref_arp a;
	size_t i, len, t, body;

	(void)state;
	for (i = 0; i < 2; i++) {
		arp_req_default(&a, vlans[i]);
		len = ref_arp_frame(f, &a, 1);
		body = (vlans[i] ? 18 : 14) + 28;
		/* every truncation short of the ARP body */
		for (t = 0; t <= len; t++) {
			int rc = arp_answer_exact(f, t, out);
			uint8_t *b = dup_exact(f, t);
			int rs = nb_arp_sender_is(b, (uint32_t)t, IP_B, mac);

			free(b);
			assert_int_equal(rc, t < body ? -EPROTO : 60);
			assert_int_equal(rs, t < body ? -EPROTO : 1);
		}
		/* wrong htype, ptype, hlen, plen */
		a.htype = 6;
		len = ref_arp_frame(f, &a, 1);
		assert_int_equal(arp_answer_exact(f, len, out), -EPROTO);
		assert_int_equal(nb_arp_sender_is(f, (uint32_t)len, IP_B, mac),
				 -EPROTO);
		arp_req_default(&a, vlans[i]);
		a.ptype = 0x86dd;
		len = ref_arp_frame(f, &a, 1);
		assert_int_equal(arp_answer_exact(f, len, out), -EPROTO);
		assert_int_equal(nb_arp_sender_is(f, (uint32_t)len, IP_B, mac),
				 -EPROTO);
		arp_req_default(&a, vlans[i]);
		a.hlen = 8;
		len = ref_arp_frame(f, &a, 1);
		assert_int_equal(arp_answer_exact(f, len, out), -EPROTO);
		arp_req_default(&a, vlans[i]);
		a.plen = 16;
		len = ref_arp_frame(f, &a, 1);
		assert_int_equal(arp_answer_exact(f, len, out), -EPROTO);
		assert_int_equal(nb_arp_sender_is(f, (uint32_t)len, IP_B, mac),
				 -EPROTO);
		/* not ARP at all */
		arp_req_default(&a, vlans[i]);
		len = ref_arp_frame(f, &a, 1);
		memcpy(g, f, len);
		wr16(g + (vlans[i] ? 16 : 12), 0x0800);
		assert_int_equal(arp_answer_exact(g, len, out), -EPROTO);
		assert_int_equal(nb_arp_sender_is(g, (uint32_t)len, IP_B, mac),
				 -EPROTO);
	}
}

static void
test_arp_request_exchange(void **state)
{
	static const uint16_t vlans[] = {0, 1, 42, 4094};
	uint8_t *req, *rep, mac[6];
	size_t i, o;

	(void)state;
	for (i = 0; i < 4; i++) {
		o = vlans[i] ? 18 : 14;
		req = malloc(60);
		rep = malloc(60);
		assert_non_null(req);
		assert_non_null(rep);
		memset(req, 0xa5, 60);
		/* I am mac_a/IP_A and look for IP_B */
		assert_int_equal(
			nb_arp_request(req, 60, mac_a, IP_A, vlans[i], IP_B),
			60);
		assert_memory_equal(req, mac_bc, 6);
		assert_memory_equal(req + 6, mac_a, 6);
		if (vlans[i]) {
			assert_int_equal(rd16(req + 12), 0x8100);
			assert_int_equal(rd16(req + 14), vlans[i]);
		}
		assert_int_equal(rd16(req + o - 2), 0x0806);
		assert_int_equal(rd16(req + o), 1);
		assert_int_equal(rd16(req + o + 2), 0x0800);
		assert_int_equal(req[o + 4], 6);
		assert_int_equal(req[o + 5], 4);
		assert_int_equal(rd16(req + o + 6), 1);
		assert_memory_equal(req + o + 8, mac_a, 6);
		assert_int_equal(rd32(req + o + 14), IP_A);
		assert_memory_equal(req + o + 18, mac_zero, 6);
		assert_int_equal(rd32(req + o + 24), IP_B);
		for (; o + 28 < 60; o++)
			assert_int_equal(req[o + 28], 0);

		/* a third host does not answer; the peer mac_b/IP_B does */
		assert_int_equal(nb_arp_answer(req, 60, mac_b, IP_C, rep, 60),
				 0);
		memset(rep, 0xa5, 60);
		assert_int_equal(nb_arp_answer(req, 60, mac_b, IP_B, rep, 60),
				 60);
		check_arp_reply(rep, vlans[i], mac_b, IP_B, mac_a, IP_A);

		/* back at mine: the answer is from IP_B, with mac_b */
		memset(mac, 0, sizeof(mac));
		assert_int_equal(nb_arp_sender_is(rep, 60, IP_B, mac), 1);
		assert_memory_equal(mac, mac_b, 6);
		memset(mac, 0x11, sizeof(mac));
		assert_int_equal(nb_arp_sender_is(rep, 60, IP_C, mac), 0);
		assert_int_equal(nb_arp_sender_is(rep, 60, IP_A, mac), 0);
		for (o = 0; o < 6; o++)
			assert_int_equal(mac[o], 0x11); /* untouched */
		/* the request names its sender too */
		assert_int_equal(nb_arp_sender_is(req, 60, IP_A, mac), 1);
		assert_memory_equal(mac, mac_a, 6);
		free(req);
		free(rep);
	}

	req = malloc(59);
	assert_non_null(req);
	assert_int_equal(nb_arp_request(req, 59, mac_a, IP_A, 0, IP_B),
			 -ENOSPC);
	free(req);
	req = malloc(60);
	assert_non_null(req);
	assert_true(nb_arp_request(req, 60, mac_a, IP_A, 4095, IP_B) < 0);
	free(req);
}

/* ICMP echo fields for a reference frame (from mac_b/IP_B). */
struct ref_icmp {
	uint16_t vlan;
	uint32_t dip;
	unsigned int ihl_words;
	uint16_t frag;
	uint8_t type, code;
	uint16_t id, seq;
	const uint8_t *data;
	size_t dlen;
	int bad_csum;
};

static void
icmp_default(struct ref_icmp *c, uint16_t vlan, const uint8_t *data,
	     size_t dlen)
{
	memset(c, 0, sizeof(*c));
	c->vlan = vlan;
	c->dip = IP_A;
	c->ihl_words = 5;
	c->type = 8;
	c->id = 0x4d2a;
	c->seq = 0x0107;
	c->data = data;
	c->dlen = dlen;
}

/* Writes the echo request, zero padded to 60; returns its length. */
static size_t
ref_icmp_frame(uint8_t *f, const struct ref_icmp *c)
{
	size_t l3 = ref_eth(f, mac_a, mac_b, c->vlan, 0x0800);
	size_t ihl = c->ihl_words * 4, ilen = 8 + c->dlen, end, i;
	uint8_t *ip = f + l3, *icmp = ip + ihl;

	end = l3 + ihl + ilen;
	ip[0] = (uint8_t)(0x40 | c->ihl_words);
	ip[1] = 0;
	wr16(ip + 2, (uint16_t)(ihl + ilen));
	wr16(ip + 4, 0x9999);
	wr16(ip + 6, c->frag);
	ip[8] = 63;
	ip[9] = 1;
	wr32(ip + 12, IP_B);
	wr32(ip + 16, c->dip);
	for (i = 20; i < ihl; i++)
		ip[i] = 1;
	fix_ip_csum(ip);
	icmp[0] = c->type;
	icmp[1] = c->code;
	wr16(icmp + 2, 0);
	wr16(icmp + 4, c->id);
	wr16(icmp + 6, c->seq);
	if (c->dlen)
		memcpy(icmp + 8, c->data, c->dlen);
	wr16(icmp + 2, (uint16_t)~ref_sum(icmp, ilen, 0));
	if (c->bad_csum)
		icmp[3] ^= 0x40;
	for (i = end; i < 60; i++)
		f[i] = 0;
	return end < 60 ? 60 : end;
}

/* The echo reply to a ref_icmp_frame request, of n bytes. */
static void
check_echo_reply(const uint8_t *r, int n, const struct ref_icmp *c)
{
	size_t l3 = c->vlan ? 18 : 14, ilen = 8 + c->dlen;
	size_t end = l3 + 20 + ilen, i;
	const uint8_t *ip = r + l3, *icmp = ip + 20;

	assert_int_equal(n, end < 60 ? 60 : end);
	assert_memory_equal(r, mac_b, 6);
	assert_memory_equal(r + 6, mac_a, 6);
	if (c->vlan) {
		assert_int_equal(rd16(r + 12), 0x8100);
		assert_int_equal(rd16(r + 14) & 0x0fff, c->vlan);
	}
	assert_int_equal(rd16(r + l3 - 2), 0x0800);
	assert_int_equal(ip[0], 0x45);
	assert_int_equal(rd16(ip + 2), 20 + ilen);
	assert_int_equal(rd16(ip + 6) & 0x3fff, 0);
	assert_true(ip[8] > 0);
	assert_int_equal(ip[9], 1);
	assert_int_equal(rd32(ip + 12), IP_A);
	assert_int_equal(rd32(ip + 16), IP_B);
	assert_true(ref_ip_ok(ip));
	assert_int_equal(icmp[0], 0);
	assert_int_equal(icmp[1], 0);
	assert_int_equal(rd16(icmp + 4), c->id);
	assert_int_equal(rd16(icmp + 6), c->seq);
	if (c->dlen)
		assert_memory_equal(icmp + 8, c->data, c->dlen);
	assert_int_equal(ref_sum(icmp, ilen, 0), 0xffff);
	for (i = end; i < (size_t)n; i++)
		assert_int_equal(r[i], 0);
}

/* nb_icmp_echo_answer with exact in and out buffers. */
static int
icmp_answer_exact(const uint8_t *f, size_t len, uint8_t **outp, size_t outlen)
{
	uint8_t *b = dup_exact(f, len);
	int rc;

	*outp = malloc(outlen ? outlen : 1);
	assert_non_null(*outp);
	memset(*outp, 0xa5, outlen);
	rc = nb_icmp_echo_answer(b, (uint32_t)len, mac_a, IP_A, *outp, outlen);
	free(b);
	return rc;
}

static void
test_icmp_echo(void **state)
{
	static const uint16_t vlans[] = {0, 1, 300, 4094};
	static const size_t dlens[] = {0, 1, 17, 18, 55, 56, 57, 1000, 1472};
	uint8_t f[BIG_FRAME], data[1472], *out;
	struct ref_icmp c;
	size_t i, j, len, want, l3;
	int rc;

	(void)state;
	for (i = 0; i < 4; i++) {
		for (j = 0; j < sizeof(dlens) / sizeof(dlens[0]); j++) {
			fill_payload(data, dlens[j], (unsigned int)(i + j));
			icmp_default(&c, vlans[i], data, dlens[j]);
			c.seq = (uint16_t)(j * 1000 + 1);
			len = ref_icmp_frame(f, &c);
			l3 = vlans[i] ? 18 : 14;
			want = l3 + 28 + dlens[j];
			if (want < 60)
				want = 60;
			rc = icmp_answer_exact(f, len, &out, want);
			check_echo_reply(out, rc, &c);
			free(out);
			/* the reply does not fit one byte shorter */
			rc = icmp_answer_exact(f, len, &out, want - 1);
			assert_int_equal(rc, -ENOSPC);
			free(out);
		}
	}

	/* DF set on the request is fine; IP options are not echoed */
	fill_payload(data, 56, 77);
	icmp_default(&c, 0, data, 56);
	c.frag = 0x4000;
	len = ref_icmp_frame(f, &c);
	rc = icmp_answer_exact(f, len, &out, BIG_FRAME);
	check_echo_reply(out, rc, &c);
	free(out);
	icmp_default(&c, 12, data, 56);
	c.ihl_words = 7;
	len = ref_icmp_frame(f, &c);
	rc = icmp_answer_exact(f, len, &out, BIG_FRAME);
	check_echo_reply(out, rc, &c);
	free(out);
	/* a request with trailing bytes after its datagram */
	icmp_default(&c, 0, data, 56);
	len = ref_icmp_frame(f, &c);
	memset(f + len, 0xcc, 10);
	rc = icmp_answer_exact(f, len + 10, &out, BIG_FRAME);
	check_echo_reply(out, rc, &c);
	free(out);
}

static void
test_icmp_not_answered(void **state)
{
	static const uint8_t types[] = {0, 3, 5, 11, 13, 15, 17, 255};
	uint8_t f[BIG_FRAME], data[56], *out;
	struct ref_icmp c;
	size_t i, len;

	(void)state;
	fill_payload(data, 56, 4);
	/* echo to another IP */
	icmp_default(&c, 0, data, 56);
	c.dip = IP_C;
	len = ref_icmp_frame(f, &c);
	assert_int_equal(icmp_answer_exact(f, len, &out, BIG_FRAME), 0);
	free(out);
	icmp_default(&c, 9, data, 56);
	c.dip = 0xffffffffu;
	len = ref_icmp_frame(f, &c);
	assert_int_equal(icmp_answer_exact(f, len, &out, BIG_FRAME), 0);
	free(out);
	/* other ICMP types, and echo with a nonzero code */
	for (i = 0; i < sizeof(types); i++) {
		icmp_default(&c, 0, data, 56);
		c.type = types[i];
		len = ref_icmp_frame(f, &c);
		assert_int_equal(icmp_answer_exact(f, len, &out, BIG_FRAME), 0);
		free(out);
	}
	icmp_default(&c, 0, data, 56);
	c.code = 1;
	len = ref_icmp_frame(f, &c);
	assert_int_equal(icmp_answer_exact(f, len, &out, BIG_FRAME), 0);
	free(out);
	/* fragments */
	icmp_default(&c, 0, data, 56);
	c.frag = 0x2000;
	len = ref_icmp_frame(f, &c);
	assert_int_equal(icmp_answer_exact(f, len, &out, BIG_FRAME), 0);
	free(out);
	c.frag = 0x0010;
	len = ref_icmp_frame(f, &c);
	assert_int_equal(icmp_answer_exact(f, len, &out, BIG_FRAME), 0);
	free(out);
}

/* Answer f; expect rc, reported at the caller's line. */
static void
expect_icmp(const uint8_t *f, size_t len, int rc, int line)
{
	uint8_t *out;
	int got = icmp_answer_exact(f, len, &out, BIG_FRAME);

	free(out);
	_assert_int_equal(cast_to_largest_integral_type(got),
			  cast_to_largest_integral_type(rc), __FILE__, line);
}

static void
test_icmp_malformed(void **state)
{
	static const uint16_t vlans[] = {0, 100};
	static const size_t dlens[] = {0, 1, 56};
	uint8_t f[BIG_FRAME], g[BIG_FRAME], data[56], *out, *ip;
	struct ref_icmp c;
	size_t i, j, len, t, end, l3;
	int rc;

	(void)state;
	fill_payload(data, 56, 6);
	for (i = 0; i < 2; i++) {
		l3 = vlans[i] ? 18 : 14;
		for (j = 0; j < 3; j++) {
			icmp_default(&c, vlans[i], data, dlens[j]);
			len = ref_icmp_frame(f, &c);
			end = l3 + 28 + dlens[j];
			for (t = 0; t <= len; t++) {
				rc = icmp_answer_exact(f, t, &out, BIG_FRAME);
				if (t < end) {
					assert_int_equal(rc, -EPROTO);
				} else {
					check_echo_reply(out, rc, &c);
				}
				free(out);
			}
		}
		icmp_default(&c, vlans[i], data, 56);
		len = ref_icmp_frame(f, &c);
		ip = g + l3;
#define TRY(edit)                                                              \
	do {                                                                   \
		memcpy(g, f, len);                                             \
		edit;                                                          \
		fix_ip_csum(ip);                                               \
		expect_icmp(g, len, -EPROTO, __LINE__);                        \
	} while (0)
		TRY(ip[0] = 0x65);		     /* version 6 */
		TRY(ip[0] = 0x44);		     /* IHL < 5 */
		TRY(ip[0] = 0x4f; wr16(ip + 2, 67)); /* IHL + 8 > total */
		TRY(wr16(ip + 2, 27));		     /* too short for ICMP */
		TRY(wr16(ip + 2, 19));
		TRY(wr16(ip + 2, (uint16_t)(len - l3 + 1))); /* > frame */
		TRY(wr16(ip + 2, 0xffff));
		TRY(ip[9] = 17);	       /* not ICMP */
		TRY(wr16(g + l3 - 2, 0x86dd)); /* not IPv4 */
		TRY(wr16(g + l3 - 2, 0x0806));
#undef TRY
	}
}

/* Invariants of an echo reply produced from an arbitrary frame. */
static void
check_any_echo_reply(const uint8_t *r, int n, size_t outlen)
{
	size_t l3, tot;
	const uint8_t *ip;

	assert_true(n >= 60);
	assert_true((size_t)n <= outlen);
	l3 = rd16(r + 12) == 0x8100 ? 18 : 14;
	ip = r + l3;
	assert_memory_equal(r + 6, mac_a, 6);
	assert_int_equal(rd16(r + l3 - 2), 0x0800);
	assert_int_equal(ip[0], 0x45);
	tot = rd16(ip + 2);
	assert_true(l3 + tot <= (size_t)n);
	assert_true(tot >= 28);
	assert_true(ref_ip_ok(ip));
	assert_int_equal(rd32(ip + 12), IP_A);
	assert_int_equal(ip[20], 0);
	assert_int_equal(ref_sum(ip + 20, tot - 20, 0), 0xffff);
}

/* A valid UDP, ARP-request-for-me or echo-to-me frame, <= 200 bytes. */
static size_t
random_template(uint8_t *f, uint64_t *s)
{
	uint64_t r = rng_next(s);
	uint16_t vlan = (r & 1) ? (uint16_t)(1 + (r >> 8) % 4094) : 0;
	size_t dlen = (size_t)((r >> 24) % 140);
	uint8_t data[140];
	struct ref_arp a;
	struct ref_icmp c;

	fill_payload(data, dlen, (unsigned int)(r >> 40));
	switch ((r >> 4) % 3) {
	case 0:
		return ref_udp_frame(f, vlan, data, dlen, 5 + (r >> 50) % 2,
				     (uint16_t)r, 0, 64, (r >> 6) & 1);
	case 1:
		arp_req_default(&a, vlan);
		return ref_arp_frame(f, &a, (r >> 7) & 1);
	default:
		icmp_default(&c, vlan, data, dlen);
		return ref_icmp_frame(f, &c);
	}
}

static void
test_random_frames(void **state)
{
	uint64_t s = 0x6e62656e63684c32ull, r;
	unsigned int n_udp = 0, n_arp = 0, n_icmp = 0, n_bad = 0;
	uint8_t f[256], *b, *out, mac[6];
	struct nb_udp_info o;
	size_t len, i, outlen = 256;
	int rc, ra, rs, k, nflip;
	uint32_t iter;

	(void)state;
	out = malloc(outlen);
	assert_non_null(out);
	for (iter = 0; iter < 100000; iter++) {
		r = rng_next(&s);
		k = (int)(r % 4);
		if (k == 0) {
			/* noise */
			len = (size_t)((r >> 8) % 201);
			for (i = 0; i < len; i++)
				f[i] = (uint8_t)rng_next(&s);
		} else if (k == 1) {
			/* noise behind a plausible Ethernet/IP start */
			len = (size_t)((r >> 8) % 201);
			for (i = 0; i < len; i++)
				f[i] = (uint8_t)rng_next(&s);
			if (len >= 14) {
				static const uint16_t et[] = {0x0800, 0x0806,
							      0x8100, 0x86dd};

				wr16(f + 12, et[(r >> 20) % 4]);
			}
			if (len >= 18 && ((r >> 22) & 1))
				wr16(f + 16, (r >> 23) & 1 ? 0x0806 : 0x0800);
			if (len >= 24 && ((r >> 24) & 1)) {
				size_t l3 = rd16(f + 12) == 0x8100 ? 18 : 14;

				f[l3] = (uint8_t)(0x45 + (r >> 25) % 3);
				wr16(f + l3 + 2, (uint16_t)((r >> 28) % 220));
				f[l3 + 9] = (r >> 36) & 1 ? 17 : 1;
			}
		} else {
			/* a valid frame, maybe damaged, maybe cut */
			len = random_template(f, &s);
			assert_true(len <= 200);
			nflip = (int)((r >> 8) % 4);
			while (nflip-- > 0) {
				uint64_t q = rng_next(&s);

				f[q % len] ^= (uint8_t)(1u << ((q >> 32) % 8));
			}
			if (((r >> 12) & 3) == 0)
				len = (size_t)((r >> 16) % (len + 1));
		}

		b = dup_exact(f, len);
		rc = nb_udp_frame_parse(b, (uint32_t)len, &o);
		if (rc == 0) {
			size_t l3 = rd16(b + 12) == 0x8100 ? 18 : 14;
			const uint8_t *ip = b + l3;

			n_udp++;
			assert_true(o.payload >= b + l3 + 28);
			assert_true(o.payload + o.payload_len <= b + len);
			assert_true(o.vlan_id <= 4095);
			assert_int_equal(ip[0] >> 4, 4);
			assert_true(ref_ip_ok(ip));
			assert_int_equal(rd16(ip + 6) & 0x3fff, 0);
			if (rd16(o.payload - 2) != 0)
				assert_true(ref_udp_ok(ip, o.payload - 8));
		} else {
			assert_int_equal(rc, -EPROTO);
		}

		ra = nb_arp_answer(b, (uint32_t)len, mac_a, IP_A, out, 60);
		rs = nb_arp_sender_is(b, (uint32_t)len, IP_B, mac);
		assert_true(ra == 0 || ra == 60 || ra == -EPROTO);
		assert_true(rs == 0 || rs == 1 || rs == -EPROTO);
		assert_int_equal(ra == -EPROTO, rs == -EPROTO);
		if (ra == 60) {
			size_t l3 = rd16(out + 12) == 0x8100 ? 18 : 14;

			n_arp++;
			assert_memory_equal(out + 6, mac_a, 6);
			assert_int_equal(rd16(out + l3 + 6), 2);
			assert_memory_equal(out + l3 + 8, mac_a, 6);
			assert_int_equal(rd32(out + l3 + 14), IP_A);
			assert_memory_equal(out, out + l3 + 18, 6);
		}
		if (rs == 1) {
			size_t l3 = rd16(b + 12) == 0x8100 ? 18 : 14;

			assert_int_equal(rd32(b + l3 + 14), IP_B);
			assert_memory_equal(mac, b + l3 + 8, 6);
		}

		rc = nb_icmp_echo_answer(b, (uint32_t)len, mac_a, IP_A, out,
					 outlen);
		if (rc > 0) {
			n_icmp++;
			check_any_echo_reply(out, rc, outlen);
		} else {
			assert_true(rc == 0 || rc == -EPROTO);
		}
		if (rc == -EPROTO && ra == -EPROTO)
			n_bad++;
		free(b);
	}
	free(out);
	/* The valid half must reach the accepting paths. */
	assert_true(n_udp > 1000);
	assert_true(n_arp > 1000);
	assert_true(n_icmp > 1000);
	assert_true(n_bad > 10000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_udp_roundtrip),
		cmocka_unit_test(test_udp_padding),
		cmocka_unit_test(test_udp_zero_checksum),
		cmocka_unit_test(test_udp_truncation),
		cmocka_unit_test(test_udp_rejects),
		cmocka_unit_test(test_udp_build_errors),
		cmocka_unit_test(test_arp_answer),
		cmocka_unit_test(test_arp_not_answered),
		cmocka_unit_test(test_arp_malformed),
		cmocka_unit_test(test_arp_request_exchange),
		cmocka_unit_test(test_icmp_echo),
		cmocka_unit_test(test_icmp_not_answered),
		cmocka_unit_test(test_icmp_malformed),
		cmocka_unit_test(test_random_frames),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
