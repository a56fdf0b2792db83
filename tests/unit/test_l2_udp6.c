/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control protocol's transport over IPv6 (nb_l2.c, nb_policy.c): a
 * datagram the tool builds is byte for byte scapy's for the same fields
 * (the golden frames below, scapy 2.5's Ether()/Dot1Q()/IPv6(hlim=64)/
 * UDP()), scapy's frames parse to their fields (a hop-by-hop header
 * skipped), what IPv6 forbids is refused (no UDP checksum, a wrong one, a
 * payload length past the frame), and the responder's admission rules
 * hold for IPv6 sources.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "nb_frame.h"
#include "nb_l2.h"
#include "nb_policy.h"

/* Ether / Dot1Q / IPv6 / UDP 2001:db8:9::2:7201 > 2001:db8:9::1:7201 / Raw */
static const uint8_t gold_ctl6[80] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x81, 0x00, 0x00, 0x07, 0x86, 0xdd, 0x60, 0x00, 0x00, 0x00, 0x00, 0x16,
	0x11, 0x40, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x09,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x1c, 0x21,
	0x1c, 0x21, 0x00, 0x16, 0xc1, 0x0f, 0x6e, 0x62, 0x65, 0x6e, 0x63, 0x68,
	0x20, 0x63, 0x6f, 0x6e, 0x74, 0x72, 0x6f, 0x6c,
};
/* Ether / IPv6 / IPv6ExtHdrHopByHop / UDP 7201 > 7201 / Raw */
static const uint8_t gold_hbh_udp6[73] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00,
	0x02, 0x86, 0xdd, 0x60, 0x00, 0x00, 0x00, 0x00, 0x13, 0x00, 0x40,
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x01, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x09,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x11,
	0x00, 0x01, 0x04, 0x00, 0x00, 0x00, 0x00, 0x1c, 0x21, 0x1c, 0x21,
	0x00, 0x0b, 0x9b, 0xac, 0x68, 0x62, 0x68,
};

static const uint8_t mac_c[6] = {2, 0, 0, 0, 0, 1};
static const uint8_t mac_r[6] = {2, 0, 0, 0, 0, 2};
static const uint8_t ip_r[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 9, [15] = 1};
static const uint8_t ip_c[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 9, [15] = 2};

static void
test_build_as_scapy(void **state)
{
	struct nb_udp_info h, o;
	uint8_t buf[256];
	int n;

	(void)state;
	memset(&h, 0, sizeof(h));
	memcpy(h.src_mac, mac_c, 6);
	memcpy(h.dst_mac, mac_r, 6);
	h.vlan_id = 7;
	h.v6 = 1;
	memcpy(h.src_ip6, ip_c, 16);
	memcpy(h.dst_ip6, ip_r, 16);
	h.src_port = 7201;
	h.dst_port = 7201;
	n = nb_udp_frame_build(buf, sizeof(buf), &h,
			       (const uint8_t *)"nbench control", 14);
	assert_int_equal(n, sizeof(gold_ctl6));
	assert_memory_equal(buf, gold_ctl6, sizeof(gold_ctl6));
	assert_int_equal(nb_udp_frame_parse(gold_ctl6, sizeof(gold_ctl6), &o),
			 0);
	assert_int_equal(o.v6, 1);
	assert_int_equal(o.vlan_id, 7);
	assert_memory_equal(o.src_ip6, ip_c, 16);
	assert_memory_equal(o.dst_ip6, ip_r, 16);
	/* the keys: the words XORed (2001:0db8 ^ 0009:0000 ^ 0 ^ 2) */
	assert_int_equal(o.src_ip, 0x20010db8u ^ 0x00090000u ^ 2u);
	assert_int_equal(o.dst_ip, nb_ip6_key(ip_r));
	assert_int_equal(o.dst_port, 7201);
	assert_int_equal(o.payload_len, 14);
	assert_memory_equal(o.payload, "nbench control", 14);
	assert_string_equal(nb_udp_src_text(&o).s, "2001:db8:9::2");
	assert_string_equal(nb_addr_text(0xc6130001u, NULL).s, "198.19.0.1");
}

static void
test_parse_rules(void **state)
{
	uint8_t buf[256];
	struct nb_udp_info o;
	const uint32_t csum = 14 + 4 + 40 + 6;

	(void)state;
	assert_int_equal(
		nb_udp_frame_parse(gold_hbh_udp6, sizeof(gold_hbh_udp6), &o),
		0);
	assert_int_equal(o.v6, 1);
	assert_memory_equal(o.src_ip6, ip_r, 16);
	assert_int_equal(o.payload_len, 3);
	assert_memory_equal(o.payload, "hbh", 3);
	/* IPv6 has no datagram without a checksum */
	memcpy(buf, gold_ctl6, sizeof(gold_ctl6));
	buf[csum] = 0;
	buf[csum + 1] = 0;
	assert_int_equal(nb_udp_frame_parse(buf, sizeof(gold_ctl6), &o),
			 -EPROTO);
	memcpy(buf, gold_ctl6, sizeof(gold_ctl6));
	buf[sizeof(gold_ctl6) - 1] ^= 1;
	assert_int_equal(nb_udp_frame_parse(buf, sizeof(gold_ctl6), &o),
			 -EPROTO);
	memcpy(buf, gold_ctl6, sizeof(gold_ctl6));
	buf[14 + 4 + 5]++; /* payload length one past the frame */
	assert_int_equal(nb_udp_frame_parse(buf, sizeof(gold_ctl6), &o),
			 -EPROTO);
	assert_int_equal(nb_udp_frame_parse(gold_ctl6, 60, &o), -EPROTO);
}

/* Admission: an IPv6 source is refused when ::, ::1 or multicast; an
 * --allow list's IPv4 prefixes admit no IPv6 source, its MACs do. */
static void
test_policy6(void **state)
{
	static struct nb_config cfg;
	struct nb_udp_info u;
	char why[256];

	(void)state;
	memset(&u, 0, sizeof(u));
	u.v6 = 1;
	memcpy(u.src_mac, mac_c, 6);
	memcpy(u.src_ip6, ip_c, 16);
	u.src_ip = nb_ip6_key(ip_c);
	assert_int_equal(nb_policy_peer_u(&cfg, &u, why, sizeof(why)), 0);
	assert_true(nb_policy_answerable_u(&u));
	u.src_ip6[0] = 0xff; /* multicast */
	assert_int_equal(nb_policy_peer_u(&cfg, &u, why, sizeof(why)), -EACCES);
	assert_non_null(strstr(why, "multicast"));
	assert_false(nb_policy_answerable_u(&u));
	memset(u.src_ip6, 0, 16);
	u.src_ip6[15] = 1; /* ::1 */
	assert_false(nb_policy_answerable_u(&u));
	u.src_ip6[15] = 0; /* :: */
	assert_false(nb_policy_answerable_u(&u));
	memcpy(u.src_ip6, ip_c, 16);
	/* a key that would fail the IPv4 rules (224/4) is no reason */
	u.src_ip = 0xe0000001u;
	assert_int_equal(nb_policy_peer_u(&cfg, &u, why, sizeof(why)), 0);
	u.src_mac[0] = 1;
	assert_int_equal(nb_policy_peer_u(&cfg, &u, why, sizeof(why)), -EACCES);
	u.src_mac[0] = 2;
	/* --allow 0.0.0.0/0 (every IPv4 source): not an IPv6 one */
	cfg.nb_allow = 1;
	cfg.allow[0].is_ip = 1;
	cfg.allow[0].ip = 0;
	cfg.allow[0].mask = 0;
	assert_int_equal(nb_policy_peer_u(&cfg, &u, why, sizeof(why)), -EACCES);
	assert_non_null(strstr(why, "--allow"));
	cfg.nb_allow = 2;
	memcpy(cfg.allow[1].mac, mac_c, 6);
	assert_int_equal(nb_policy_peer_u(&cfg, &u, why, sizeof(why)), 0);
	/* and IPv4 as before */
	u.v6 = 0;
	u.src_ip = 0xc6120001u;
	assert_int_equal(nb_policy_peer_u(&cfg, &u, why, sizeof(why)), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_as_scapy),
		cmocka_unit_test(test_parse_rules),
		cmocka_unit_test(test_policy6),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
