/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the data frame layout (app/core/nb_frame.h, nb_frame.c).
 *
 * Frames are built, copied from their template and stamped the way the
 * generator does it, then parsed back.  Every checksum is verified by a
 * straightforward RFC 1071 routine written here (not nb_csum_*), and every
 * header field against the layout described in nb_frame.h.  The parser is
 * fed truncated, mutated and random frames held in buffers of exactly their
 * length, so an over-read is caught by ASan in a sanitizer build.
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

#include "nb_frame.h"

#define MAX_FRAME 9000

static const uint32_t test_sizes[] = {64, 128, 1518, 9000};
#define N_SIZES (sizeof(test_sizes) / sizeof(test_sizes[0]))

static const uint8_t test_protos[] = {NB_IPPROTO_UDP, NB_IPPROTO_TCP};
static const uint16_t test_vlans[] = {0, 100};

/* Sum of the IPv4 pseudo-header for an L4 segment of l4len bytes. */
static uint64_t
ref_pseudo(const uint8_t *ip, uint8_t proto, uint32_t l4len)
{
	uint8_t ph[12];

	memcpy(ph, ip + 12, 8); /* source and destination address */
	ph[8] = 0;
	ph[9] = proto;
	ph[10] = (uint8_t)(l4len >> 8);
	ph[11] = (uint8_t)(l4len & 0xff);
	return ref_sum(ph, sizeof(ph), 0);
}

/*
 * The checksum a sender computes from scratch: the complement of the sum
 * with the checksum field taken as zero.  UDP sends a computed 0 as 0xffff.
 */
static uint16_t
ref_l4_csum(const uint8_t *ip, const uint8_t *l4, uint32_t l4len, uint8_t proto)
{
	uint8_t *copy = malloc(l4len);
	uint32_t off = proto == NB_IPPROTO_UDP ? 6 : 16;
	uint16_t c;

	assert_non_null(copy);
	memcpy(copy, l4, l4len);
	copy[off] = 0;
	copy[off + 1] = 0;
	c = (uint16_t)~ref_sum(copy, l4len, ref_pseudo(ip, proto, l4len));
	free(copy);
	if (proto == NB_IPPROTO_UDP && c == 0)
		c = 0xffff;
	return c;
}

static void
make_flow(struct nb_flow *f, uint8_t proto, uint16_t vlan, uint16_t sid)
{
	static const uint8_t dmac[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
	static const uint8_t smac[6] = {0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee};

	memset(f, 0, sizeof(*f));
	memcpy(f->dst_mac, dmac, 6);
	memcpy(f->src_mac, smac, 6);
	f->vlan_id = vlan;
	f->proto = proto;
	f->ttl = 0; /* default: 64 */
	f->src_ip = NB_DEFAULT_SRC_IP;
	f->dst_ip = NB_DEFAULT_DST_IP;
	f->src_port = (uint16_t)(NB_DEFAULT_SPORT_BASE + sid);
	f->dst_port = NB_DEFAULT_DPORT;
	f->stream_id = sid;
}

/* Offset of the IPv4 header for a tagged or untagged frame. */
static uint32_t
l3_off(int vlan)
{
	return vlan ? 18 : 14;
}

/*
 * Check every header field and both checksums of a frame of wire bytes
 * built from f.  seq/ts are the stamped values (0 for an unstamped
 * template); magic the magic it was built with.
 */
static void
check_frame(const uint8_t *fr, uint32_t wire, const struct nb_flow *f,
	    uint16_t magic, uint64_t seq, uint64_t ts)
{
	int vlan = f->vlan_id != 0;
	uint32_t l3 = l3_off(vlan), l4 = l3 + 20, l4len = wire - l4;
	const uint8_t *ip = fr + l3, *tp = fr + l4;
	uint64_t v;

	/* Ethernet (and 802.1Q) */
	assert_memory_equal(fr, f->dst_mac, 6);
	assert_memory_equal(fr + 6, f->src_mac, 6);
	if (vlan) {
		assert_int_equal(rd16(fr + 12), 0x8100);
		assert_int_equal(rd16(fr + 14), f->vlan_id); /* PCP 0, DEI 0 */
		assert_int_equal(rd16(fr + 16), 0x0800);
	} else {
		assert_int_equal(rd16(fr + 12), 0x0800);
	}

	/* IPv4 */
	assert_int_equal(ip[0], 0x45);
	assert_int_equal(ip[1], 0);
	assert_int_equal(rd16(ip + 2), wire - l3);
	assert_int_equal(rd16(ip + 4), f->stream_id);
	assert_int_equal(rd16(ip + 6), 0x4000); /* DF, offset 0 */
	assert_int_equal(ip[8], f->ttl ? f->ttl : 64);
	assert_int_equal(ip[9], f->proto);
	assert_int_equal(rd32(ip + 12), f->src_ip);
	assert_int_equal(rd32(ip + 16), f->dst_ip);
	assert_int_equal(ref_sum(ip, 20, 0), 0xffff);

	/* L4 */
	assert_int_equal(rd16(tp), f->src_port);
	assert_int_equal(rd16(tp + 2), f->dst_port);
	if (f->proto == NB_IPPROTO_UDP) {
		assert_int_equal(rd16(tp + 4), l4len);
		assert_int_equal(rd16(tp + 8), magic);
		v = ((uint64_t)rd16(tp + 10) << 32) | rd32(tp + 12);
		assert_int_equal(v, seq);
		v = ((uint64_t)rd16(tp + 16) << 32) | rd32(tp + 18);
		assert_int_equal(v, ts);
		assert_int_not_equal(rd16(tp + 6), 0);
		assert_int_equal(rd16(tp + 6),
				 ref_l4_csum(ip, tp, l4len, f->proto));
	} else {
		v = ((uint64_t)rd16(tp + 14) << 32) | rd32(tp + 4);
		assert_int_equal(v, seq);
		v = ((uint64_t)rd16(tp + 18) << 32) | rd32(tp + 8);
		assert_int_equal(v, ts);
		assert_int_equal(tp[12], 0x50);	    /* data offset 5 */
		assert_int_equal(tp[13] & 0x20, 0); /* URG clear */
		assert_int_equal(rd16(tp + 20), magic);
		assert_int_equal(rd16(tp + 16),
				 ref_l4_csum(ip, tp, l4len, f->proto));
	}
	/* The receiver's check: the sum over everything is all ones. */
	assert_int_equal(ref_sum(tp, l4len, ref_pseudo(ip, f->proto, l4len)),
			 0xffff);
}

/*
 * Build a frame, check the template, copy it over a zero-padded buffer as
 * the generator does and return that buffer (at least NB_TMPL_MAX_HDR
 * bytes, padding zero); the caller frees it.
 */
static uint8_t *
build_copy(const struct nb_flow *f, uint32_t size, uint16_t magic,
	   struct nb_tmpl *t)
{
	uint32_t wire = size - 4;
	size_t cap = wire > NB_TMPL_MAX_HDR ? wire : NB_TMPL_MAX_HDR;
	uint8_t *built = calloc(1, cap);
	uint8_t *frame = calloc(1, cap);
	int vlan = f->vlan_id != 0;
	size_t hdr = 14 + (vlan ? 4 : 0) + 20 +
		     (f->proto == NB_IPPROTO_UDP ? 8 : 20);
	size_t i;

	assert_non_null(built);
	assert_non_null(frame);
	memset(built, 0xa5, cap); /* build must clear what it uses */
	memset(t, 0x5a, sizeof(*t));
	assert_int_equal(nb_frame_build(built, wire, f, size, magic, t),
			 (int)wire);
	assert_int_equal(t->wire_len, wire);
	assert_int_equal(t->l4_off, l3_off(vlan) + 20);
	assert_int_equal(t->proto, f->proto);
	assert_int_equal(t->copy_len,
			 hdr + (f->proto == NB_IPPROTO_UDP ? 14 : 2));
	assert_true(t->copy_len <= NB_TMPL_MAX_HDR);
	assert_true(t->copy_len <= wire);
	assert_int_equal(nb_frame_hdr_len(f->proto, vlan), hdr);
	assert_memory_equal(t->hdr, built, t->copy_len);
	for (i = t->copy_len; i < NB_TMPL_MAX_HDR; i++)
		assert_int_equal(t->hdr[i], 0);
	/* Padding after the stamp is zero. */
	for (i = t->copy_len; i < wire; i++)
		assert_int_equal(built[i], 0);
	assert_int_equal(
		rd16(built + t->l4_off + (f->proto == NB_IPPROTO_UDP ? 6 : 16)),
		t->csum0);
	check_frame(built, wire, f, magic, 0, 0);

	/* Per packet: copy the template's header bytes. */
	memcpy(frame, t->hdr, NB_TMPL_MAX_HDR);
	assert_memory_equal(frame, built, wire);
	free(built);
	return frame;
}

static void
stamp(uint8_t *frame, const struct nb_tmpl *t, uint64_t seq, uint64_t ts)
{
	if (t->proto == NB_IPPROTO_UDP)
		nb_stamp_udp(frame, t, seq, ts);
	else
		nb_stamp_tcp(frame, t, seq, ts);
}

static const uint64_t edge_values[] = {
	0,
	1,
	2,
	0xffff,
	0x10000,
	UINT64_C(0xffffffff),
	UINT64_C(0x100000000),
	UINT64_C(0x100000001),
	UINT64_C(0xffff00000000),
	UINT64_C(0xffffffffffff),
};

#define N_EDGE		(sizeof(edge_values) / sizeof(edge_values[0]))
#define N_RANDOM_STAMPS 2000

static void
roundtrip_one(uint8_t proto, uint16_t vlan, uint32_t size, uint16_t magic,
	      enum nb_frame_kind kind, uint64_t *rng)
{
	struct nb_flow f;
	struct nb_tmpl t;
	struct nb_stamp st;
	uint16_t sid = (uint16_t)(rng_next(rng) & 0xffff);
	uint32_t wire = size - 4;
	uint8_t *frame;
	unsigned int i, j;

	make_flow(&f, proto, vlan, sid);
	frame = build_copy(&f, size, magic, &t);

	/* The unstamped template parses as seq = ts = 0. */
	memset(&st, 0xff, sizeof(st));
	assert_int_equal(nb_frame_parse(frame, wire, wire, &st), kind);
	assert_int_equal(st.stream_id, sid);
	assert_int_equal(st.seq, 0);
	assert_int_equal(st.ts, 0);
	assert_int_equal(st.l4_off, t.l4_off);

	for (i = 0; i < N_EDGE * N_EDGE + N_RANDOM_STAMPS; i++) {
		uint64_t seq, ts;

		if (i < N_EDGE * N_EDGE) {
			seq = edge_values[i / N_EDGE];
			ts = edge_values[i % N_EDGE];
		} else {
			seq = rng_next(rng) & UINT64_C(0xffffffffffff);
			ts = rng_next(rng) & UINT64_C(0xffffffffffff);
		}
		/* A fresh copy each time, as each packet gets one. */
		memcpy(frame, t.hdr, NB_TMPL_MAX_HDR);
		stamp(frame, &t, seq, ts);
		check_frame(frame, wire, &f, magic, seq, ts);

		memset(&st, 0, sizeof(st));
		assert_int_equal(nb_frame_parse(frame, wire, wire, &st), kind);
		assert_int_equal(st.stream_id, sid);
		assert_int_equal(st.seq, seq);
		assert_int_equal(st.ts, ts);
		assert_int_equal(st.l4_off, t.l4_off);

		/* Only the first segment is contiguous: still parses. */
		memset(&st, 0, sizeof(st));
		assert_int_equal(nb_frame_parse(frame, t.copy_len, wire, &st),
				 kind);
		assert_int_equal(st.seq, seq);
		assert_int_equal(st.ts, ts);

		/* Padding beyond the stamp stays zero. */
		if (i == 0 || i == N_EDGE * N_EDGE + N_RANDOM_STAMPS - 1)
			for (j = t.copy_len; j < wire; j++)
				assert_int_equal(frame[j], 0);
	}
	free(frame);
}

static void
test_roundtrip(void **state)
{
	uint64_t rng = 0x6e62656e63680001ull;
	size_t p, v, s;

	(void)state;
	for (p = 0; p < 2; p++)
		for (v = 0; v < 2; v++)
			for (s = 0; s < N_SIZES; s++)
				roundtrip_one(test_protos[p], test_vlans[v],
					      test_sizes[s], NB_MAGIC_DATA,
					      NB_FRAME_DATA, &rng);
}

static void
test_warmup(void **state)
{
	uint64_t rng = 0x6e62656e63680002ull;
	size_t p, v;

	(void)state;
	for (p = 0; p < 2; p++)
		for (v = 0; v < 2; v++) {
			roundtrip_one(test_protos[p], test_vlans[v], 64,
				      NB_MAGIC_WARMUP, NB_FRAME_WARMUP, &rng);
			roundtrip_one(test_protos[p], test_vlans[v], 1518,
				      NB_MAGIC_WARMUP, NB_FRAME_WARMUP, &rng);
		}
}

/* Every size, not just the four above: checksums stay valid (odd lengths). */
static void
test_all_sizes_checksums(void **state)
{
	uint64_t rng = 0x6e62656e63680003ull;
	struct nb_flow f;
	struct nb_tmpl t;
	struct nb_stamp st;
	uint32_t size;
	size_t p, v;

	(void)state;
	for (p = 0; p < 2; p++)
		for (v = 0; v < 2; v++)
			for (size = 64; size <= 1600; size++) {
				uint8_t *fr;
				uint64_t seq, ts;

				make_flow(&f, test_protos[p], test_vlans[v],
					  (uint16_t)size);
				f.ttl = (uint8_t)(size & 0xff);
				f.src_ip = (uint32_t)rng_next(&rng);
				f.dst_ip = (uint32_t)rng_next(&rng);
				f.src_port = (uint16_t)rng_next(&rng);
				f.dst_port = (uint16_t)(rng_next(&rng) | 1);
				/* the control port, and VXLAN's (a tunnel
				 * to parse through), are not data */
				if (f.dst_port == NB_CONTROL_UDP_PORT ||
				    f.dst_port == NB_VXLAN_UDP_PORT)
					f.dst_port += 2;
				fr = build_copy(&f, size, NB_MAGIC_DATA, &t);
				seq = rng_next(&rng) >> 16;
				ts = rng_next(&rng) >> 16;
				stamp(fr, &t, seq, ts);
				check_frame(fr, size - 4, &f, NB_MAGIC_DATA,
					    seq, ts);
				assert_int_equal(nb_frame_parse(fr, size - 4,
								size - 4, &st),
						 NB_FRAME_DATA);
				assert_int_equal(st.seq, seq);
				assert_int_equal(st.ts, ts);
				free(fr);
			}
}

/*
 * TX checksum offload (nb_tmpl_l4_csum_hw): the frame leaves the tool with
 * the pseudo-header's sum in its checksum field (what DPDK's offload API
 * wants) whatever the stamp; a NIC that then sums the L4 segment as it is
 * and stores the complement (CHECKSUM_PARTIAL) gives the checksum a sender
 * computes from scratch, and the frame parses as ours.
 */
static void
test_hw_checksum(void **state)
{
	uint64_t rng = 0x6e62656e63680004ull;
	struct nb_flow f;
	struct nb_tmpl t;
	struct nb_stamp st;
	uint32_t size;
	size_t p, v;

	(void)state;
	for (p = 0; p < 2; p++)
		for (v = 0; v < 2; v++)
			for (size = 64; size <= 1600; size += 7) {
				uint32_t wire = size - 4, l4, l4len, off;
				uint8_t *fr;
				uint64_t seq, ts;
				uint16_t seed, c;

				make_flow(&f, test_protos[p], test_vlans[v],
					  (uint16_t)size);
				f.src_ip = (uint32_t)rng_next(&rng);
				f.dst_ip = (uint32_t)rng_next(&rng);
				fr = build_copy(&f, size, NB_MAGIC_DATA, &t);
				nb_tmpl_l4_csum_hw(&t);
				memcpy(fr, t.hdr, t.copy_len);
				l4 = t.l4_off;
				l4len = wire - l4;
				off = l4 + (f.proto == NB_IPPROTO_UDP ? 6 : 16);
				assert_int_equal(nb_tmpl_l2_len(&t),
						 l3_off(test_vlans[v]));
				seed = (uint16_t)ref_pseudo(fr + l4 - 20,
							    f.proto, l4len);
				seq = rng_next(&rng) >> 16;
				ts = rng_next(&rng) >> 16;
				stamp(fr, &t, seq, ts);
				assert_int_equal(rd16(fr + off), seed);
				/* the NIC's part */
				c = (uint16_t)~ref_sum(fr + l4, l4len, 0);
				if (f.proto == NB_IPPROTO_UDP && c == 0)
					c = 0xffff;
				fr[off] = (uint8_t)(c >> 8);
				fr[off + 1] = (uint8_t)c;
				check_frame(fr, wire, &f, NB_MAGIC_DATA, seq,
					    ts);
				assert_int_equal(
					nb_frame_parse(fr, wire, wire, &st),
					NB_FRAME_DATA);
				assert_int_equal(st.seq, seq);
				free(fr);
			}
}

/*
 * UDP's "computed 0 is sent as 0xffff": choose stamps whose checksum comes
 * out as 0 and check the frame carries 0xffff and still verifies.  With
 * the template's sum S0 = ~csum0, a stamp whose six words add up to
 * 0xffff - S0 makes the folded sum 0xffff, i.e. a computed checksum of 0.
 */
static void
test_udp_zero_checksum(void **state)
{
	struct nb_flow f;
	struct nb_tmpl t;
	uint8_t *fr;
	uint64_t tg;
	unsigned int i, sid;

	(void)state;
	for (sid = 0; sid < 64; sid++) {
		make_flow(&f, NB_IPPROTO_UDP, sid & 1 ? 100 : 0,
			  (uint16_t)(sid * 977));
		fr = build_copy(&f, 64, NB_MAGIC_DATA, &t);
		tg = (uint16_t)(0xffff - (uint16_t)~t.csum0);
		{
			const uint64_t st[][2] = {
				{tg, 0}, {tg << 16, 0}, {tg << 32, 0},
				{0, tg}, {0, tg << 32},
			};

			for (i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
				memcpy(fr, t.hdr, NB_TMPL_MAX_HDR);
				nb_stamp_udp(fr, &t, st[i][0], st[i][1]);
				assert_int_equal(rd16(fr + t.l4_off + 6),
						 0xffff);
				check_frame(fr, 60, &f, NB_MAGIC_DATA, st[i][0],
					    st[i][1]);
			}
		}
		free(fr);

		/* TCP keeps a computed 0 as 0. */
		make_flow(&f, NB_IPPROTO_TCP, sid & 1 ? 100 : 0,
			  (uint16_t)(sid * 977));
		fr = build_copy(&f, 64, NB_MAGIC_DATA, &t);
		tg = (uint16_t)(0xffff - (uint16_t)~t.csum0);
		memcpy(fr, t.hdr, NB_TMPL_MAX_HDR);
		nb_stamp_tcp(fr, &t, tg << 16, 0);
		assert_int_equal(rd16(fr + t.l4_off + 16), 0);
		check_frame(fr, 60, &f, NB_MAGIC_DATA, tg << 16, 0);
		free(fr);
	}
}

static void
test_size_ok(void **state)
{
	size_t p, v;

	(void)state;
	for (p = 0; p < 2; p++)
		for (v = 0; v < 2; v++) {
			uint8_t pr = test_protos[p];
			int vl = (int)v;

			assert_true(nb_frame_size_ok(pr, vl, 64));
			assert_true(nb_frame_size_ok(pr, vl, 65));
			assert_true(nb_frame_size_ok(pr, vl, 1518));
			assert_true(nb_frame_size_ok(pr, vl, 9000));
			assert_false(nb_frame_size_ok(pr, vl, 0));
			assert_false(nb_frame_size_ok(pr, vl, 63));
			assert_false(nb_frame_size_ok(pr, vl, 9001));
			assert_false(nb_frame_size_ok(pr, vl, UINT32_MAX));
		}
}

static void
test_build_rejects(void **state)
{
	uint8_t buf[MAX_FRAME];
	struct nb_flow f;

	(void)state;
	make_flow(&f, NB_IPPROTO_UDP, 0, 0);
	assert_int_equal(
		nb_frame_build(buf, sizeof(buf), &f, 63, NB_MAGIC_DATA, NULL),
		-EINVAL);
	assert_int_equal(
		nb_frame_build(buf, sizeof(buf), &f, 9001, NB_MAGIC_DATA, NULL),
		-EINVAL);
	assert_int_equal(nb_frame_build(buf, 59, &f, 64, NB_MAGIC_DATA, NULL),
			 -EINVAL);
	assert_int_equal(nb_frame_build(buf, 60, &f, 64, NB_MAGIC_DATA, NULL),
			 60);
	f.proto = 1; /* ICMP */
	assert_int_equal(
		nb_frame_build(buf, sizeof(buf), &f, 64, NB_MAGIC_DATA, NULL),
		-EINVAL);
	make_flow(&f, NB_IPPROTO_TCP, 4095, 0);
	assert_int_equal(
		nb_frame_build(buf, sizeof(buf), &f, 64, NB_MAGIC_DATA, NULL),
		-EINVAL);
	f.vlan_id = 4094;
	assert_int_equal(
		nb_frame_build(buf, sizeof(buf), &f, 64, NB_MAGIC_DATA, NULL),
		60);
	f.ttl = 7;
	assert_int_equal(
		nb_frame_build(buf, sizeof(buf), &f, 9000, NB_MAGIC_DATA, NULL),
		8996);
	check_frame(buf, 8996, &f, NB_MAGIC_DATA, 0, 0);
}

/* Parse a copy of fr[0..len) held in a buffer of exactly len bytes. */
static enum nb_frame_kind
parse_exact(const uint8_t *fr, uint32_t len, uint32_t frame_len,
	    struct nb_stamp *st)
{
	uint8_t *p = malloc(len ? len : 1);
	enum nb_frame_kind k;

	assert_non_null(p);
	if (len)
		memcpy(p, fr, len);
	k = nb_frame_parse(p, len, frame_len, st);
	free(p);
	return k;
}

static void
test_truncation(void **state)
{
	uint64_t rng = 0x6e62656e63680004ull;
	struct nb_stamp st;
	struct nb_flow f;
	struct nb_tmpl t;
	size_t p, v, s;
	uint32_t len;

	(void)state;
	for (p = 0; p < 2; p++)
		for (v = 0; v < 2; v++)
			for (s = 0; s < N_SIZES; s++) {
				uint32_t wire = test_sizes[s] - 4;
				uint64_t seq = rng_next(&rng) >> 16;
				uint64_t ts = rng_next(&rng) >> 16;
				uint32_t l4 = l3_off(test_vlans[v]) + 20;
				/* UDP: 8 + 14 stamp bytes; TCP: 20 + 2 magic */
				uint32_t need = l4 + 22;
				uint8_t *fr;

				make_flow(&f, test_protos[p], test_vlans[v], 7);
				fr = build_copy(&f, test_sizes[s],
						NB_MAGIC_DATA, &t);
				stamp(fr, &t, seq, ts);
				for (len = 0; len < wire; len++) {
					/* The frame itself is truncated. */
					assert_int_equal(
						parse_exact(fr, len, len, &st),
						NB_FRAME_FOREIGN);
					/*
					 * Only the first segment is short: data
					 * once the stamp is in it.
					 */
					memset(&st, 0, sizeof(st));
					if (len < need) {
						assert_int_equal(
							parse_exact(fr, len,
								    wire, &st),
							NB_FRAME_FOREIGN);
					} else {
						assert_int_equal(
							parse_exact(fr, len,
								    wire, &st),
							NB_FRAME_DATA);
						assert_int_equal(st.seq, seq);
						assert_int_equal(st.ts, ts);
						assert_int_equal(st.stream_id,
								 7);
					}
				}
				/* Claimed frame shorter than the IP packet. */
				assert_int_equal(
					parse_exact(fr, wire, wire - 1, &st),
					NB_FRAME_FOREIGN);
				/* And shorter than the contiguous part. */
				assert_int_equal(parse_exact(fr, wire, 0, &st),
						 NB_FRAME_FOREIGN);
				/* Longer frame than IP packet (padding): ok. */
				assert_int_equal(
					parse_exact(fr, wire, wire + 100, &st),
					NB_FRAME_DATA);
				free(fr);
			}
}

/* A valid 64 B (or size) data frame to mutate; returns its wire length. */
static uint32_t
valid_frame(uint8_t *buf, uint8_t proto, uint16_t vlan, uint32_t size)
{
	struct nb_flow f;
	struct nb_tmpl t;
	uint8_t *fr;

	make_flow(&f, proto, vlan, 3);
	fr = build_copy(&f, size, NB_MAGIC_DATA, &t);
	stamp(fr, &t, 12345, 67890);
	memcpy(buf, fr, size - 4);
	free(fr);
	return size - 4;
}

static enum nb_frame_kind
parse_buf(const uint8_t *fr, uint32_t wire)
{
	struct nb_stamp st;

	return parse_exact(fr, wire, wire, &st);
}

/*
 * A probe turned around by a reflector: kind PROBE, addresses and ports
 * swapped, every checksum still valid by the reference routine.
 */
static void
test_probe_turn_around(void **state)
{
	const uint8_t protos[] = {NB_IPPROTO_UDP, NB_IPPROTO_TCP};
	const uint16_t vlans[] = {0, 100};
	size_t pi, vi;

	(void)state;
	for (pi = 0; pi < 2; pi++)
		for (vi = 0; vi < 2; vi++) {
			struct nb_flow f;
			struct nb_tmpl t;
			struct nb_stamp st;
			uint8_t *fr, before[128];
			uint32_t wire = 64 - 4, l3 = vlans[vi] ? 18 : 14, l4len;
			const uint8_t *ip, *tp;

			memset(&st, 0, sizeof(st));
			make_flow(&f, protos[pi], vlans[vi], 7);
			fr = build_copy(&f, 64, NB_MAGIC_PROBE, &t);
			stamp(fr, &t, 99, 123456789);
			memcpy(before, fr, wire);
			assert_int_equal(parse_exact(fr, wire, wire, &st),
					 NB_FRAME_PROBE);
			nb_frame_turn_around(fr, &st);
			assert_int_equal(parse_exact(fr, wire, wire, &st),
					 NB_FRAME_PROBE);
			assert_int_equal(st.seq, 99);
			assert_int_equal(st.ts, 123456789);
			assert_memory_equal(fr, before + 6, 6);
			assert_memory_equal(fr + 6, before, 6);
			assert_memory_equal(fr + l3 + 12, before + l3 + 16, 4);
			assert_memory_equal(fr + l3 + 16, before + l3 + 12, 4);
			assert_memory_equal(fr + st.l4_off,
					    before + st.l4_off + 2, 2);
			ip = fr + l3;
			tp = fr + st.l4_off;
			l4len = wire - st.l4_off;
			assert_int_equal(ref_sum(ip, 20, 0), 0xffff);
			assert_int_equal(
				ref_sum(tp, l4len,
					ref_pseudo(ip, protos[pi], l4len)),
				0xffff);
			free(fr);
		}
}

static void
test_hostile_headers(void **state)
{
	uint8_t fr[MAX_FRAME];
	size_t p, v;
	unsigned int i;

	(void)state;
	for (p = 0; p < 2; p++)
		for (v = 0; v < 2; v++) {
			uint8_t pr = test_protos[p];
			uint16_t vl = test_vlans[v];
			uint32_t l3 = l3_off(vl), l4 = l3 + 20, w;

			w = valid_frame(fr, pr, vl, 128);
			assert_int_equal(parse_buf(fr, w), NB_FRAME_DATA);

			/* Wrong ethertype (IPv6, and 0). */
			wr16(fr + l3 - 2, 0x86dd);
			assert_int_equal(parse_buf(fr, w), NB_FRAME_FOREIGN);
			wr16(fr + l3 - 2, 0);
			assert_int_equal(parse_buf(fr, w), NB_FRAME_FOREIGN);
			/* QinQ: an inner VLAN tag is not followed. */
			if (vl) {
				wr16(fr + l3 - 2, 0x8100);
				assert_int_equal(parse_buf(fr, w),
						 NB_FRAME_FOREIGN);
			}

			/* IP version nibble: 6, 0, 15. */
			w = valid_frame(fr, pr, vl, 128);
			fr[l3] = 0x65;
			assert_int_equal(parse_buf(fr, w), NB_FRAME_FOREIGN);
			fr[l3] = 0x05;
			assert_int_equal(parse_buf(fr, w), NB_FRAME_FOREIGN);
			fr[l3] = 0xf5;
			assert_int_equal(parse_buf(fr, w), NB_FRAME_FOREIGN);

			/* IHL < 5. */
			for (i = 0; i < 5; i++) {
				fr[l3] = (uint8_t)(0x40 | i);
				assert_int_equal(parse_buf(fr, w),
						 NB_FRAME_FOREIGN);
			}

			/* Total length > frame, and < header. */
			w = valid_frame(fr, pr, vl, 128);
			wr16(fr + l3 + 2, (uint16_t)(w - l3 + 1));
			assert_int_equal(parse_buf(fr, w), NB_FRAME_FOREIGN);
			wr16(fr + l3 + 2, 0xffff);
			assert_int_equal(parse_buf(fr, w), NB_FRAME_FOREIGN);
			wr16(fr + l3 + 2, 19);
			assert_int_equal(parse_buf(fr, w), NB_FRAME_FOREIGN);
			wr16(fr + l3 + 2, 0);
			assert_int_equal(parse_buf(fr, w), NB_FRAME_FOREIGN);
			/*
			 * Total length one short of the L4 header + stamp
			 * (UDP: 8 + 14, TCP: 20 + 2 magic), then exactly it.
			 */
			wr16(fr + l3 + 2, (uint16_t)(20 + 22 - 1));
			assert_int_equal(parse_buf(fr, w), NB_FRAME_FOREIGN);
			wr16(fr + l3 + 2, (uint16_t)(20 + 22));
			assert_int_equal(parse_buf(fr, w), NB_FRAME_DATA);

			/* Unknown IP protocols. */
			w = valid_frame(fr, pr, vl, 128);
			fr[l3 + 9] = 1; /* ICMP: handed to the control lcore */
			assert_int_equal(parse_buf(fr, w), NB_FRAME_ICMP);
			fr[l3 + 9] = 47;
			assert_int_equal(parse_buf(fr, w), NB_FRAME_FOREIGN);
			fr[l3 + 9] = 0;
			assert_int_equal(parse_buf(fr, w), NB_FRAME_FOREIGN);
			fr[l3 + 9] = 255;
			assert_int_equal(parse_buf(fr, w), NB_FRAME_FOREIGN);

			/* Bad magic. */
			w = valid_frame(fr, pr, vl, 128);
			i = l4 + (pr == NB_IPPROTO_UDP ? 8 : 20);
			wr16(fr + i, 0);
			assert_int_equal(parse_buf(fr, w), NB_FRAME_FOREIGN);
			wr16(fr + i, NB_MAGIC_DATA + 1);
			assert_int_equal(parse_buf(fr, w), NB_FRAME_FOREIGN);
			wr16(fr + i, (uint16_t)((NB_MAGIC_DATA << 8) |
						(NB_MAGIC_DATA >> 8)));
			assert_int_equal(parse_buf(fr, w), NB_FRAME_FOREIGN);
			wr16(fr + i, NB_MAGIC_WARMUP);
			assert_int_equal(parse_buf(fr, w), NB_FRAME_WARMUP);
			wr16(fr + i, NB_MAGIC_DATA);
			assert_int_equal(parse_buf(fr, w), NB_FRAME_DATA);
		}
}

static void
test_hostile_tcp_offset(void **state)
{
	uint8_t fr[MAX_FRAME];
	size_t v;
	unsigned int d;

	(void)state;
	for (v = 0; v < 2; v++) {
		uint32_t l4 = l3_off(test_vlans[v]) + 20;
		uint32_t w =
			valid_frame(fr, NB_IPPROTO_TCP, test_vlans[v], 128);

		for (d = 0; d < 16; d++) {
			fr[l4 + 12] = (uint8_t)(d << 4);
			assert_int_equal(parse_buf(fr, w),
					 d == 5 ? NB_FRAME_DATA
						: NB_FRAME_FOREIGN);
		}
	}
}

/* An IPv4 header with options: the L4 header moves, the stamp is found. */
static void
test_ip_options(void **state)
{
	uint8_t fr[MAX_FRAME], opt[MAX_FRAME];
	struct nb_stamp st;
	size_t p, v;

	(void)state;
	for (p = 0; p < 2; p++)
		for (v = 0; v < 2; v++) {
			uint32_t l3 = l3_off(test_vlans[v]), w, ihl;

			w = valid_frame(fr, test_protos[p], test_vlans[v], 128);
			for (ihl = 6; ihl <= 15; ihl++) {
				uint32_t extra = (ihl - 5) * 4;

				memcpy(opt, fr, l3 + 20);
				memset(opt + l3 + 20, 1, extra); /* NOPs */
				memcpy(opt + l3 + 20 + extra, fr + l3 + 20,
				       w - l3 - 20);
				opt[l3] = (uint8_t)(0x40 | ihl);
				wr16(opt + l3 + 2, (uint16_t)(w - l3 + extra));
				memset(&st, 0, sizeof(st));
				assert_int_equal(parse_exact(opt, w + extra,
							     w + extra, &st),
						 NB_FRAME_DATA);
				assert_int_equal(st.l4_off, l3 + 20 + extra);
				assert_int_equal(st.seq, 12345);
				assert_int_equal(st.ts, 67890);
				assert_int_equal(st.stream_id, 3);
				/* Cut inside the options or the L4 header. */
				assert_int_equal(
					parse_exact(opt, l3 + 20 + extra + 4,
						    w + extra, &st),
					NB_FRAME_FOREIGN);
			}
		}
}

static void
test_arp(void **state)
{
	uint8_t fr[64];
	struct nb_stamp st;
	unsigned int len;

	(void)state;
	memset(fr, 0, sizeof(fr));
	memset(fr, 0xff, 6);
	fr[6] = 0x02;
	wr16(fr + 12, NB_ETHERTYPE_ARP);
	wr16(fr + 14, 1);      /* htype Ethernet */
	wr16(fr + 16, 0x0800); /* ptype IPv4 */
	fr[18] = 6;
	fr[19] = 4;
	wr16(fr + 20, 1); /* request */
	/* 42 B is an unpadded ARP frame; 60 B padded. */
	assert_int_equal(parse_exact(fr, 42, 42, &st), NB_FRAME_ARP);
	assert_int_equal(parse_exact(fr, 60, 60, &st), NB_FRAME_ARP);
	for (len = 0; len < 42; len++)
		assert_int_equal(parse_exact(fr, len, len, &st),
				 NB_FRAME_FOREIGN);

	/* Tagged ARP. */
	memmove(fr + 16, fr + 12, 46);
	wr16(fr + 12, NB_ETHERTYPE_VLAN);
	wr16(fr + 14, 100);
	assert_int_equal(parse_exact(fr, 60, 60, &st), NB_FRAME_ARP);
	assert_int_equal(parse_exact(fr, 46, 46, &st), NB_FRAME_ARP);
}

static void
test_control(void **state)
{
	uint8_t fr[MAX_FRAME];
	struct nb_flow f;
	struct nb_tmpl t;
	struct nb_stamp st;
	uint8_t *b;
	size_t v;

	(void)state;
	for (v = 0; v < 2; v++) {
		uint32_t l3 = l3_off(test_vlans[v]), l4 = l3 + 20, w;

		make_flow(&f, NB_IPPROTO_UDP, test_vlans[v], 9);
		f.dst_port = NB_CONTROL_UDP_PORT;
		b = build_copy(&f, 128, NB_MAGIC_DATA, &t);
		assert_int_equal(parse_exact(b, 124, 124, &st),
				 NB_FRAME_CONTROL);
		free(b);

		/* A control datagram shorter than a stamp: still control. */
		w = valid_frame(fr, NB_IPPROTO_UDP, test_vlans[v], 128);
		wr16(fr + l4 + 2, NB_CONTROL_UDP_PORT);
		wr16(fr + l3 + 2, 28);
		wr16(fr + l4 + 4, 8);
		assert_int_equal(parse_exact(fr, l4 + 8, l4 + 8, &st),
				 NB_FRAME_CONTROL);
		assert_int_equal(parse_exact(fr, w, w, &st), NB_FRAME_CONTROL);
		/* ...but not shorter than a UDP header. */
		wr16(fr + l3 + 2, 27);
		assert_int_equal(parse_exact(fr, w, w, &st), NB_FRAME_FOREIGN);
		/* Control port as the source port is not control. */
		w = valid_frame(fr, NB_IPPROTO_UDP, test_vlans[v], 128);
		wr16(fr + l4, NB_CONTROL_UDP_PORT);
		assert_int_equal(parse_exact(fr, w, w, &st), NB_FRAME_DATA);
		/* TCP to 7201 is data. */
		w = valid_frame(fr, NB_IPPROTO_TCP, test_vlans[v], 128);
		wr16(fr + l4 + 2, NB_CONTROL_UDP_PORT);
		assert_int_equal(parse_exact(fr, w, w, &st), NB_FRAME_DATA);
	}
}

#define N_RANDOM_FRAMES 100000

/* Random bytes, and randomly damaged valid frames: no crash, sane output. */
static void
test_random_frames(void **state)
{
	uint64_t rng = 0x6e62656e63680005ull;
	uint8_t base[4][MAX_FRAME];
	uint32_t base_len[4];
	unsigned int i, j, counts[NB_FRAME_ICMP + 1] = {0};
	size_t p, v;

	(void)state;
	for (p = 0; p < 2; p++)
		for (v = 0; v < 2; v++)
			base_len[p * 2 + v] =
				valid_frame(base[p * 2 + v], test_protos[p],
					    test_vlans[v], 128);

	for (i = 0; i < N_RANDOM_FRAMES; i++) {
		uint32_t len = (uint32_t)(rng_next(&rng) % 201);
		uint32_t frame_len;
		uint8_t *b = malloc(len ? len : 1);
		struct nb_stamp st;
		enum nb_frame_kind k;

		assert_non_null(b);
		if (i % 2 == 0) {
			/* Pure random bytes. */
			for (j = 0; j < len; j++)
				b[j] = (uint8_t)rng_next(&rng);
		} else {
			/* A valid frame with a few bytes changed. */
			unsigned int which = (unsigned int)(rng_next(&rng) % 4);
			unsigned int nmut = (unsigned int)(rng_next(&rng) % 4);

			for (j = 0; j < len; j++)
				b[j] = j < base_len[which]
					       ? base[which][j]
					       : (uint8_t)rng_next(&rng);
			for (j = 0; j < nmut && len > 0; j++)
				b[rng_next(&rng) % len] =
					(uint8_t)rng_next(&rng);
		}
		switch (rng_next(&rng) % 4) {
		case 0:
			frame_len = len;
			break;
		case 1:
			frame_len = len + (uint32_t)(rng_next(&rng) % 100);
			break;
		case 2:
			frame_len = (uint32_t)(rng_next(&rng) % 300);
			break;
		default:
			frame_len = (uint32_t)rng_next(&rng);
			break;
		}
		memset(&st, 0, sizeof(st));
		k = nb_frame_parse(b, len, frame_len, &st);
		assert_true(k >= NB_FRAME_FOREIGN && k <= NB_FRAME_ICMP6);
		counts[k]++;
		if (k == NB_FRAME_DATA || k == NB_FRAME_WARMUP ||
		    k == NB_FRAME_CONTROL) {
			assert_true(frame_len >= len);
			assert_true(st.l4_off + 8u <= len);
		}
		if (k == NB_FRAME_DATA || k == NB_FRAME_WARMUP) {
			/* The stamp was inside the contiguous bytes. */
			assert_true(st.l4_off + 22u <= len);
			assert_true(st.seq <= UINT64_C(0xffffffffffff));
			assert_true(st.ts <= UINT64_C(0xffffffffffff));
		}
		free(b);
	}
	/* The mutated half must reach the data path, not just the checks. */
	assert_true(counts[NB_FRAME_DATA] > 1000);
	assert_true(counts[NB_FRAME_FOREIGN] > 10000);
}

/* nb_csum_words is nb_csum_partial for whole words: the same 16-bit
 * value for 0 to 16 words of random, all-zero and all-one bytes, at odd
 * addresses too. */
static void
test_csum_words(void **state)
{
	uint8_t buf[72];
	uint64_t seed = 5;
	unsigned int i, n, k;

	(void)state;
	for (i = 0; i < 30000; i++) {
		unsigned int off = i % 5;

		for (k = 0; k < sizeof(buf); k++)
			buf[k] = i % 97 == 1   ? 0
				 : i % 97 == 2 ? 0xff
					       : (uint8_t)rng_next(&seed);
		n = i % 17;
		assert_int_equal(nb_csum_words(buf + off, n),
				 nb_csum_partial(buf + off, 4 * n, 0));
	}
}

/* The IPv6 pseudo-header's sum (RFC 8200, 8.1) for l4len bytes of proto. */
static uint64_t
ref_pseudo6(const uint8_t *ip6, uint8_t proto, uint32_t l4len)
{
	uint8_t ph[40] = {0};

	memcpy(ph, ip6 + 8, 32);
	ph[34] = (uint8_t)(l4len >> 8);
	ph[35] = (uint8_t)l4len;
	ph[39] = proto;
	return ref_sum(ph, sizeof(ph), 0);
}

/*
 * VXLAN over IPv6, inner UDP and TCP over IPv6 and IPv4: after the
 * generator's stamp and outer fix, for random seq and time, both the inner
 * L4 checksum and the outer UDP checksum verify from scratch (the sum over
 * pseudo-header and segment is 0xffff), and the parser finds the stamp.
 */
static void
test_vxlan6_outer_checksum(void **state)
{
	static const uint8_t v6a[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};
	static const uint8_t v6b[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 2};
	uint64_t rng = 0x7678;
	uint8_t fr[MAX_FRAME];
	struct nb_flow f;
	struct nb_tmpl t;
	struct nb_stamp st;
	int i;

	(void)state;
	for (i = 0; i < 20000; i++) {
		uint32_t size = 150 + (uint32_t)rng_below(&rng, 1400);
		uint64_t seq = rng_next(&rng) & UINT64_C(0xffffffffffff);
		uint64_t ts = rng_next(&rng) & UINT64_C(0xffffffffffff);
		int tcp = i & 1, inner6 = (i >> 1) & 1;
		const uint8_t *ip, *o6;
		uint32_t l4len, ulen;

		make_flow(&f, tcp ? NB_IPPROTO_TCP : NB_IPPROTO_UDP, 0,
			  (uint16_t)i);
		f.family = inner6 ? 6 : 4;
		memcpy(f.src_ip6, v6a, 16);
		memcpy(f.dst_ip6, v6b, 16);
		f.tun.kind = NB_ENCAP_VXLAN;
		f.tun.id = (uint32_t)i;
		f.tun.src_port = 50000;
		f.tun.src.family = f.tun.dst.family = 6;
		memcpy(f.tun.src.a, v6b, 16);
		memcpy(f.tun.dst.a, v6a, 16);
		assert_int_equal(nb_frame_build(fr, sizeof(fr), &f, size,
						NB_MAGIC_DATA, &t),
				 (int)size - 4);
		assert_int_not_equal(t.csum2_off, 0);
		memcpy(fr, t.hdr, t.copy_len);
		if (tcp)
			nb_stamp_tcp(fr, &t, seq, ts);
		else
			nb_stamp_udp(fr, &t, seq, ts);
		nb_stamp_outer(fr, &t, seq, ts, !tcp);
		ip = fr + t.l3_off;
		l4len = size - 4 - t.l4_off;
		assert_int_equal(
			ref_sum(fr + t.l4_off, l4len,
				inner6 ? ref_pseudo6(ip, f.proto, l4len)
				       : ref_pseudo(ip, f.proto, l4len)),
			0xffff);
		o6 = fr + NB_ETH_HLEN;
		ulen = size - 4 - NB_ETH_HLEN - NB_IPV6_HLEN;
		assert_int_equal(ref_sum(o6 + NB_IPV6_HLEN, ulen,
					 ref_pseudo6(o6, NB_IPPROTO_UDP, ulen)),
				 0xffff);
		assert_int_equal(nb_frame_parse(fr, size - 4, size - 4, &st),
				 NB_FRAME_DATA);
		assert_int_equal(st.seq, seq);
		assert_int_equal(st.ts, ts);
		assert_int_equal(st.stream_id, (uint16_t)i);
		assert_int_equal(st.inner, 1);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_csum_words),
		cmocka_unit_test(test_warmup),
		cmocka_unit_test(test_all_sizes_checksums),
		cmocka_unit_test(test_udp_zero_checksum),
		cmocka_unit_test(test_hw_checksum),
		cmocka_unit_test(test_size_ok),
		cmocka_unit_test(test_build_rejects),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_hostile_headers),
		cmocka_unit_test(test_probe_turn_around),
		cmocka_unit_test(test_vxlan6_outer_checksum),
		cmocka_unit_test(test_hostile_tcp_offset),
		cmocka_unit_test(test_ip_options),
		cmocka_unit_test(test_arp),
		cmocka_unit_test(test_control),
		cmocka_unit_test(test_random_frames),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
