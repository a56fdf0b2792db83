/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --flows' fields (app/core/nb_flows.c): the ranges' checks, flows in
 * order as mixed-radix digits, RFC 4814's shuffled flows always distinct,
 * in range and repeatable, and the permutation a bijection.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_test_util.h"

#include "nb_flows.h"

/* RFC 4814's default: both ports over 1024-65535, addresses fixed. */
static void
rfc4814(struct nb_flows_spec *s, uint32_t n, int shuffled, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	s->shuffled = shuffled;
	s->seed = seed;
	s->r[NB_FF_SPORT] = (struct nb_range){NB_FLOW_PORT_LO, NB_FLOW_PORT_HI};
	s->r[NB_FF_DPORT] = (struct nb_range){NB_FLOW_PORT_LO, NB_FLOW_PORT_HI};
	s->r[NB_FF_SIP] = (struct nb_range){0xc6120001u, 0xc6120001u};
	s->r[NB_FF_DIP] = (struct nb_range){0xc6130001u, 0xc6130001u};
	s->r[NB_FF_SMAC] = (struct nb_range){2, 2};
	s->r[NB_FF_DMAC] = (struct nb_range){4, 4};
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* n flows' (sport, dport, sip, dip) as keys, sorted: how many repeat. */
static unsigned int
repeats(const struct nb_flows_spec *s, uint64_t *keys)
{
	uint64_t v[NB_FF_N];
	unsigned int i, rep = 0;

	for (i = 0; i < s->n; i++) {
		nb_flows_fields(s, i, v);
		for (int k = 0; k < NB_FF_N; k++) {
			assert_true(v[k] >= s->r[k].lo);
			assert_true(v[k] <= s->r[k].hi);
		}
		keys[i] = v[NB_FF_SPORT] | v[NB_FF_DPORT] << 16 |
			  (v[NB_FF_SIP] & 0xff) << 32 |
			  (v[NB_FF_DIP] & 0xff) << 40;
	}
	qsort(keys, s->n, sizeof(*keys), cmp_u64);
	for (i = 1; i < s->n; i++)
		rep += keys[i] == keys[i - 1];
	return rep;
}

static void
test_in_order(void **state)
{
	struct nb_flows_spec s;
	uint64_t v[NB_FF_N];

	(void)state;
	rfc4814(&s, 65536, 0, 0);
	s.r[NB_FF_SPORT] = (struct nb_range){1000, 1009}; /* 10 values */
	s.r[NB_FF_DIP] = (struct nb_range){0x0a000001, 0x0a000003}; /* 3 */
	assert_int_equal(nb_flows_check(&s, (char[128]){0}, 128), 0);
	/* f = 57: source port digit 7, destination port digit 5 */
	nb_flows_fields(&s, 57, v);
	assert_int_equal(v[NB_FF_SPORT], 1007);
	assert_int_equal(v[NB_FF_DPORT], 1024 + 5);
	assert_int_equal(v[NB_FF_SIP], 0xc6120001u);
	assert_int_equal(v[NB_FF_DIP], 0x0a000001);
	/* past both ports' 10 x 64512: the next destination address */
	nb_flows_fields(&s, 10 * 64512 + 3, v);
	assert_int_equal(v[NB_FF_SPORT], 1003);
	assert_int_equal(v[NB_FF_DPORT], 1024);
	assert_int_equal(v[NB_FF_DIP], 0x0a000002);
	assert_int_equal(nb_flows_space(&s), 10ull * 64512 * 3);
}

static void
test_shuffled_distinct_repeatable(void **state)
{
	static uint64_t a[65536], b[65536];
	struct nb_flows_spec s, t;
	uint64_t v[NB_FF_N], w[NB_FF_N];
	unsigned int i, same = 0, low = 0;

	(void)state;
	rfc4814(&s, 65536, 1, 42);
	assert_int_equal(nb_flows_check(&s, (char[128]){0}, 128), 0);
	assert_int_equal(repeats(&s, a), 0);
	/* in order they are distinct too */
	rfc4814(&t, 65536, 0, 42);
	assert_int_equal(repeats(&t, b), 0);
	/* the same seed: the same flows; another: others */
	rfc4814(&t, 65536, 1, 43);
	for (i = 0; i < 65536; i++) {
		nb_flows_fields(&s, i, v);
		nb_flows_fields(&s, i, w);
		assert_memory_equal(v, w, sizeof(v));
		nb_flows_fields(&t, i, w);
		same += v[NB_FF_SPORT] == w[NB_FF_SPORT] &&
			v[NB_FF_DPORT] == w[NB_FF_DPORT];
		/* pseudorandom over the range, not clustered at its start */
		low += v[NB_FF_DPORT] < NB_FLOW_PORT_LO + 1000;
	}
	assert_true(same < 10);
	/* 1000 of 64512 values: about 1,016 of 65,536 flows */
	assert_in_range(low, 700, 1350);
}

static void
test_permute_bijection(void **state)
{
	static uint8_t seen[5000];
	uint64_t space, x;

	(void)state;
	for (space = 1; space <= 5000; space += space < 70 ? 1 : 397) {
		memset(seen, 0, sizeof(seen));
		for (x = 0; x < space; x++) {
			uint64_t y = nb_flows_permute(x, space, 7);

			assert_true(y < space);
			assert_int_equal(seen[y], 0);
			seen[y] = 1;
		}
	}
	/* a space wider than 2^62 (MAC ranges): still distinct values */
	assert_int_not_equal(nb_flows_permute(1, UINT64_MAX, 3),
			     nb_flows_permute(2, UINT64_MAX, 3));
}

static void
test_checks(void **state)
{
	struct nb_flows_spec s;
	char err[256];

	(void)state;
	rfc4814(&s, 100, 0, 0);
	s.r[NB_FF_SPORT] = (struct nb_range){2000, 1999};
	assert_int_equal(nb_flows_check(&s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "source port range is empty"));
	rfc4814(&s, 100, 0, 0);
	s.r[NB_FF_DPORT].hi = 70000;
	assert_int_equal(nb_flows_check(&s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "destination port range goes past 65535"));
	rfc4814(&s, 100, 0, 0);
	s.r[NB_FF_SIP] = (struct nb_range){0x0a000000, 0x0a0000ff};
	s.r[NB_FF_DIP] = (struct nb_range){0x0a000080, 0x0a000180};
	assert_int_equal(nb_flows_check(&s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "ranges overlap"));
	rfc4814(&s, 101, 0, 0);
	s.r[NB_FF_SPORT] = (struct nb_range){1, 10};
	s.r[NB_FF_DPORT] = (struct nb_range){1, 10};
	assert_int_equal(nb_flows_check(&s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "only 100 distinct flows"));
	s.n = 100;
	assert_int_equal(nb_flows_check(&s, err, sizeof(err)), 0);
	s.n = NB_MAX_FLOWS + 1;
	assert_int_equal(nb_flows_check(&s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "at most"));
}

/*
 * A stream's template with a flow's record written over it and stamped
 * with the record's L4 addend is, byte for byte, the frame nb_frame_build
 * makes for a flow with those fields: over IPv4 and IPv6, tagged, in GRE
 * and under MPLS, UDP and TCP.
 */
static void
test_rec_write_equals_build(void **state)
{
	static uint8_t ref[2048], fr[2048];
	struct nb_flows_spec s;
	uint64_t v[NB_FF_N], rng = 99;
	unsigned int k, f;

	(void)state;
	rfc4814(&s, 4096, 1, 5);
	s.r[NB_FF_SIP] = (struct nb_range){0x0a000000, 0x0a00ffff};
	s.r[NB_FF_DIP] = (struct nb_range){0x0b000000, 0x0b0000ff};
	s.r[NB_FF_SMAC] = (struct nb_range){0x020000000000, 0x0200000000ff};
	s.r[NB_FF_DMAC] = (struct nb_range){0x040000000000, 0x040000000003};
	for (k = 0; k < 10; k++) {
		struct nb_flow base, fl;
		struct nb_tmpl t, tr;
		int tcp = k & 1, v6 = (k >> 1) & 1;
		uint32_t size = 128 + 64 * (k % 3);

		memset(&base, 0, sizeof(base));
		base.proto = tcp ? NB_IPPROTO_TCP : NB_IPPROTO_UDP;
		base.family = v6 ? 6 : 4;
		base.src_ip = 0xc6120001u;
		base.dst_ip = 0xc6130001u;
		base.src_ip6[0] = 0x20;
		base.dst_ip6[0] = 0x20;
		base.dst_ip6[15] = 9;
		base.src_port = 49152;
		base.dst_port = 5001;
		base.stream_id = 3;
		base.tos = (uint8_t)(k << 2);
		if (k >= 4 && k < 6)
			base.vlan_id = 100;
		if (k >= 6 && k < 8) {
			base.tun.kind = NB_ENCAP_GRE;
			base.tun.src.family = base.tun.dst.family = 4;
			base.tun.src.a[0] = 10;
			base.tun.dst.a[0] = 11;
		}
		if (k >= 8) {
			base.tun.kind = NB_ENCAP_MPLS;
			base.tun.nb_labels = 2;
			base.tun.labels[0] = 16;
			base.tun.labels[1] = 17;
		}
		assert_true(nb_frame_build(fr, sizeof(fr), &base, size,
					   NB_MAGIC_DATA, &t) > 0);
		for (f = 0; f < s.n; f += 1 + (uint32_t)(rng_next(&rng) % 7)) {
			uint64_t seq = rng_next(&rng) & 0xffffffffffffull;
			uint64_t ts = rng_next(&rng) & 0xffffffffffffull;
			struct nb_flow_rec r;
			int i;

			nb_flows_fields(&s, f, v);
			fl = base;
			for (i = 0; i < 6; i++) {
				fl.src_mac[i] = (uint8_t)(v[NB_FF_SMAC] >>
							  (40 - 8 * i));
				fl.dst_mac[i] = (uint8_t)(v[NB_FF_DMAC] >>
							  (40 - 8 * i));
			}
			fl.src_ip = (uint32_t)v[NB_FF_SIP];
			fl.dst_ip = (uint32_t)v[NB_FF_DIP];
			nb_put_be32(fl.src_ip6 + 12, (uint32_t)v[NB_FF_SIP]);
			nb_put_be32(fl.dst_ip6 + 12, (uint32_t)v[NB_FF_DIP]);
			fl.src_port = (uint16_t)v[NB_FF_SPORT];
			fl.dst_port = (uint16_t)v[NB_FF_DPORT];
			assert_int_equal(nb_frame_build(ref, sizeof(ref), &fl,
							size, NB_MAGIC_DATA,
							&tr),
					 (int)size - 4);
			nb_stamp_at(ref, &tr, seq, ts, !tcp);

			/* the generator's way: the stream's template, the
			 * record, the stamp with the record's addend */
			memset(fr, 0, sizeof(fr));
			memcpy(fr, t.hdr, t.copy_len);
			nb_flow_rec_make(&r, &t, v);
			nb_flow_rec_write(fr, &t, &r,
					  v6 ? NB_FLOW_W_V6 : NB_FLOW_W_V4);
			nb_stamp_at_x(fr, &t, seq, ts, !tcp, r.l4_delta);
			assert_memory_equal(fr, ref, size - 4);

			/* the ports alone (RFC 4814's default): the rest
			 * of the frame is the template's */
			fl = base;
			fl.src_port = (uint16_t)v[NB_FF_SPORT];
			fl.dst_port = (uint16_t)v[NB_FF_DPORT];
			assert_int_equal(nb_frame_build(ref, sizeof(ref), &fl,
							size, NB_MAGIC_DATA,
							&tr),
					 (int)size - 4);
			nb_stamp_at(ref, &tr, seq, ts, !tcp);
			v[NB_FF_SIP] = base.src_ip;
			v[NB_FF_DIP] = base.dst_ip;
			if (v6) {
				v[NB_FF_SIP] = nb_get_be32(base.src_ip6 + 12);
				v[NB_FF_DIP] = nb_get_be32(base.dst_ip6 + 12);
			}
			v[NB_FF_SMAC] = v[NB_FF_DMAC] = 0;
			memset(fr, 0, sizeof(fr));
			memcpy(fr, t.hdr, t.copy_len);
			nb_flow_rec_make(&r, &t, v);
			nb_flow_rec_write(fr, &t, &r, NB_FLOW_W_PORTS);
			nb_stamp_at_x(fr, &t, seq, ts, !tcp, r.l4_delta);
			assert_memory_equal(fr, ref, size - 4);
		}
	}
}

/*
 * UDP: destination ports skip 4789 (VXLAN) and 7201 (control), which the
 * receiver parses as other things than data; every other port of the
 * range is used once, in order.  TCP-like frames use them.
 */
static void
test_reserved_ports(void **state)
{
	struct nb_flows_spec s;
	uint64_t v[NB_FF_N], want = 4780;
	char err[128];
	uint32_t f;

	(void)state;
	rfc4814(&s, 0, 0, 0);
	s.udp = 1;
	s.r[NB_FF_SPORT] = (struct nb_range){5, 5};
	s.r[NB_FF_DPORT] = (struct nb_range){4780, 7210};
	assert_true(nb_flows_space(&s) == 7210 - 4780 + 1 - 2);
	s.n = (uint32_t)nb_flows_space(&s);
	assert_int_equal(nb_flows_check(&s, err, sizeof(err)), 0);
	for (f = 0; f < s.n; f++) {
		nb_flows_fields(&s, f, v);
		if (want == NB_VXLAN_UDP_PORT || want == NB_CONTROL_UDP_PORT)
			want++;
		assert_true(v[NB_FF_DPORT] == want);
		want++;
	}
	assert_true(want == 7211);
	/* one more flow than the ports left */
	s.n++;
	assert_int_equal(nb_flows_check(&s, err, sizeof(err)), -EINVAL);
	/* a range of reserved ports only */
	s.n = 1;
	s.r[NB_FF_DPORT] = (struct nb_range){7201, 7201};
	assert_int_equal(nb_flows_check(&s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "control (7201) or VXLAN (4789)"));
	/* TCP-like frames: 4789 and 7201 are ports like any */
	s.udp = 0;
	assert_int_equal(nb_flows_check(&s, err, sizeof(err)), 0);
	s.r[NB_FF_DPORT] = (struct nb_range){4789, 4790};
	nb_flows_fields(&s, 0, v);
	assert_true(v[NB_FF_DPORT] == 4789);
	/* RFC 4814's default space over UDP: 64,510 destination ports */
	rfc4814(&s, 1, 1, 9);
	s.udp = 1;
	assert_true(nb_flows_space(&s) == 64512ull * 64510);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_shuffled_distinct_repeatable),
		cmocka_unit_test(test_permute_bijection),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_rec_write_equals_build),
		cmocka_unit_test(test_reserved_ports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
