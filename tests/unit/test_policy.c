/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the responder's policy (app/core/nb_policy.c): who may be
 * a peer, the --max-time/--max-rate caps on a test, token buckets, the
 * per-source limit, the escaping of peer strings, and the refusal counts
 * and their once-a-second log lines.
 *
 * Expected values are worked out by hand (bit rates: pps * mean over the
 * pattern of (size [+ 20 for L1]) * 8), not with the code under test.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "nb_config.h"
#include "nb_ctl.h"
#include "nb_policy.h"
#include "nb_test_util.h"

#define IP4(a, b, c, d)                                                        \
	(((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) |                       \
	 ((uint32_t)(c) << 8) | (uint32_t)(d))

#define NS_PER_S 1000000000ull

static const uint8_t good_mac[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
static const uint32_t good_ip = IP4(192, 168, 1, 2);

/* A responder's config: anyone, --max-time 3600, --max-rate 10G (L1). */
static void
cfg_init(struct nb_config *c)
{
	memset(c, 0, sizeof(*c));
	c->max_time = 3600;
	c->max_rate.kind = NB_RATE_BPS_L1;
	c->max_rate.value = 10e9;
}

/* A forward test, 64-byte frames, 1000 frames/s for 10 s. */
static void
params_init(struct nb_ctl_params *p)
{
	memset(p, 0, sizeof(*p));
	p->direction = NB_CTL_DIR_FORWARD;
	p->proto = 17;
	p->streams = 1;
	p->nb_sizes = 1;
	p->sizes[0] = 64;
	p->nb_pattern = 1;
	p->pattern[0] = 0;
	p->rate_num = 1000;
	p->rate_den = 1;
	p->duration_ms = 10000;
}

/* --- nb_policy_peer ------------------------------------------------------ */

static int
peer(const struct nb_config *c, const uint8_t mac[6], uint32_t ip, char *why,
     size_t len)
{
	why[0] = '\0';
	return nb_policy_peer(c, mac, ip, why, len);
}

static void
test_peer_addresses(void **state)
{
	static const uint8_t bad_macs[][6] = {
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, /* broadcast */
		{0x01, 0x00, 0x5e, 0x00, 0x00, 0x01}, /* IPv4 multicast */
		{0x33, 0x33, 0x00, 0x00, 0x00, 0x01}, /* IPv6 multicast */
		{0x03, 0x00, 0x00, 0x00, 0x00, 0x00}, /* group bit, local */
		{0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, /* zero */
	};
	static const uint32_t bad_ips[] = {
		IP4(0, 0, 0, 0),	 IP4(255, 255, 255, 255),
		IP4(127, 0, 0, 1),	 IP4(127, 0, 0, 0),
		IP4(127, 255, 255, 254), IP4(224, 0, 0, 1),
		IP4(224, 0, 0, 0),	 IP4(230, 1, 2, 3),
		IP4(239, 255, 255, 255),
	};
	static const uint32_t good_ips[] = {
		IP4(192, 168, 1, 2),	 IP4(10, 0, 0, 1),  IP4(0, 0, 0, 1),
		IP4(126, 255, 255, 255), IP4(128, 0, 0, 0), IP4(172, 16, 0, 1),
		IP4(223, 255, 255, 255), IP4(240, 0, 0, 1),
	};
	static const uint8_t good_macs[][6] = {
		{0x02, 0x11, 0x22, 0x33, 0x44, 0x55},
		{0x00, 0x1b, 0x21, 0x00, 0x00, 0x01},
		{0xfe, 0xff, 0xff, 0xff, 0xff, 0xff}, /* unicast, all else 1 */
		{0x00, 0x00, 0x00, 0x00, 0x00, 0x01},
	};
	struct nb_config c;
	char why[256];
	size_t i;

	(void)state;
	cfg_init(&c);
	for (i = 0; i < sizeof(bad_macs) / sizeof(bad_macs[0]); i++) {
		assert_int_equal(
			peer(&c, bad_macs[i], good_ip, why, sizeof(why)),
			-EACCES);
		assert_true(strlen(why) > 0);
	}
	for (i = 0; i < sizeof(bad_ips) / sizeof(bad_ips[0]); i++) {
		if (peer(&c, good_mac, bad_ips[i], why, sizeof(why)) != -EACCES)
			fail_msg("%08x accepted", bad_ips[i]);
		assert_true(strlen(why) > 0);
	}
	for (i = 0; i < sizeof(good_ips) / sizeof(good_ips[0]); i++)
		if (peer(&c, good_mac, good_ips[i], why, sizeof(why)) != 0)
			fail_msg("%08x refused: %s", good_ips[i], why);
	for (i = 0; i < sizeof(good_macs) / sizeof(good_macs[0]); i++)
		assert_int_equal(
			peer(&c, good_macs[i], good_ip, why, sizeof(why)), 0);
	/* a short why is cut, not overrun */
	memset(why, 'Z', sizeof(why));
	assert_int_equal(nb_policy_peer(&c, bad_macs[0], good_ip, why, 8),
			 -EACCES);
	assert_int_equal(strlen(why), 7);
	assert_int_equal(why[8], 'Z');
}

static void
allow_mac(struct nb_config *c, const uint8_t mac[6])
{
	struct nb_allow *a = &c->allow[c->nb_allow++];

	memset(a, 0, sizeof(*a));
	a->is_ip = 0;
	memcpy(a->mac, mac, 6);
}

static void
allow_ip(struct nb_config *c, uint32_t ip, unsigned int prefix)
{
	struct nb_allow *a = &c->allow[c->nb_allow++];

	memset(a, 0, sizeof(*a));
	a->is_ip = 1;
	a->mask = prefix == 0 ? 0 : 0xffffffffu << (32 - prefix);
	a->ip = ip & a->mask;
}

static void
test_peer_allow(void **state)
{
	static const uint8_t mac_a[6] = {0x02, 0, 0, 0, 0, 0x0a};
	static const uint8_t mac_b[6] = {0x02, 0, 0, 0, 0, 0x0b};
	static const uint8_t mcast[6] = {0x01, 0, 0x5e, 0, 0, 1};
	struct nb_config c;
	char why[256];

	(void)state;
	/* a MAC entry: that MAC from any ordinary address */
	cfg_init(&c);
	allow_mac(&c, mac_a);
	assert_int_equal(peer(&c, mac_a, good_ip, why, sizeof(why)), 0);
	assert_int_equal(peer(&c, mac_a, IP4(10, 9, 8, 7), why, sizeof(why)),
			 0);
	assert_int_equal(peer(&c, mac_b, good_ip, why, sizeof(why)), -EACCES);
	assert_non_null(strstr(why, "--allow"));
	/* the address rules still come first */
	assert_int_equal(peer(&c, mac_a, IP4(127, 0, 0, 1), why, sizeof(why)),
			 -EACCES);

	/* a /24 entry: any MAC from inside it */
	cfg_init(&c);
	allow_ip(&c, IP4(10, 1, 2, 0), 24);
	assert_int_equal(peer(&c, mac_b, IP4(10, 1, 2, 77), why, sizeof(why)),
			 0);
	assert_int_equal(peer(&c, mac_a, IP4(10, 1, 2, 1), why, sizeof(why)),
			 0);
	assert_int_equal(peer(&c, mac_a, IP4(10, 1, 2, 254), why, sizeof(why)),
			 0);
	assert_int_equal(peer(&c, mac_b, IP4(10, 1, 3, 1), why, sizeof(why)),
			 -EACCES);
	assert_non_null(strstr(why, "--allow"));
	assert_int_equal(peer(&c, mac_b, IP4(10, 1, 1, 255), why, sizeof(why)),
			 -EACCES);
	assert_int_equal(peer(&c, mac_b, IP4(11, 1, 2, 77), why, sizeof(why)),
			 -EACCES);

	/* a /32 entry: that address only */
	cfg_init(&c);
	allow_ip(&c, IP4(10, 9, 9, 9), 32);
	assert_int_equal(peer(&c, mac_a, IP4(10, 9, 9, 9), why, sizeof(why)),
			 0);
	assert_int_equal(peer(&c, mac_a, IP4(10, 9, 9, 8), why, sizeof(why)),
			 -EACCES);
	assert_int_equal(peer(&c, mac_a, IP4(10, 9, 9, 10), why, sizeof(why)),
			 -EACCES);

	/* a /0 entry: everyone the address rules let through */
	cfg_init(&c);
	allow_ip(&c, 0, 0);
	assert_int_equal(peer(&c, mac_a, IP4(10, 9, 9, 9), why, sizeof(why)),
			 0);
	assert_int_equal(peer(&c, mac_b, IP4(203, 0, 113, 5), why, sizeof(why)),
			 0);
	assert_int_equal(peer(&c, mac_b, IP4(127, 0, 0, 1), why, sizeof(why)),
			 -EACCES);
	assert_int_equal(peer(&c, mac_b, IP4(0, 0, 0, 0), why, sizeof(why)),
			 -EACCES);

	/* several entries: any one matching is enough */
	cfg_init(&c);
	allow_ip(&c, IP4(10, 1, 2, 0), 24);
	allow_mac(&c, mac_a);
	allow_ip(&c, IP4(192, 168, 7, 7), 32);
	assert_int_equal(peer(&c, mac_a, IP4(172, 16, 0, 1), why, sizeof(why)),
			 0); /* by MAC */
	assert_int_equal(peer(&c, mac_b, IP4(10, 1, 2, 3), why, sizeof(why)),
			 0); /* by /24 */
	assert_int_equal(peer(&c, mac_b, IP4(192, 168, 7, 7), why, sizeof(why)),
			 0); /* by /32 */
	assert_int_equal(peer(&c, mac_b, IP4(172, 16, 0, 1), why, sizeof(why)),
			 -EACCES);
	/* an entry cannot let in what the address rules refuse */
	cfg_init(&c);
	allow_mac(&c, mcast);
	assert_int_equal(peer(&c, mcast, good_ip, why, sizeof(why)), -EACCES);
}

/* --- nb_policy_params ---------------------------------------------------- */

static int
check(const struct nb_config *c, const struct nb_ctl_params *p,
      uint32_t link_mbps, char *why, size_t len)
{
	why[0] = '\0';
	return nb_policy_params(c, p, link_mbps, why, len);
}

/* 0, or fail with the reason. */
#define ACCEPTED(c, p, link)                                                   \
	do {                                                                   \
		char w_[256];                                                  \
		if (check(c, p, link, w_, sizeof(w_)) != 0)                    \
			fail_msg("line %d: refused: %s", __LINE__, w_);        \
	} while (0)

/* -EPERM, with the option named in the reason. */
#define REFUSED(c, p, link, opt)                                               \
	do {                                                                   \
		char w_[256];                                                  \
		if (check(c, p, link, w_, sizeof(w_)) != -EPERM)               \
			fail_msg("line %d: accepted", __LINE__);               \
		if (strstr(w_, opt) == NULL)                                   \
			fail_msg("line %d: reason \"%s\" lacks %s", __LINE__,  \
				 w_, opt);                                     \
	} while (0)

static void
test_params_time(void **state)
{
	struct nb_ctl_params p;
	struct nb_config c;

	(void)state;
	cfg_init(&c);
	c.max_time = 10;
	params_init(&p);
	/* duration plus warm-up: at the limit, and 1 ms over */
	p.duration_ms = 10000;
	ACCEPTED(&c, &p, 0);
	p.duration_ms = 10001;
	REFUSED(&c, &p, 0, "--max-time");
	p.duration_ms = 9000;
	p.omit_ms = 1000;
	ACCEPTED(&c, &p, 0);
	p.omit_ms = 1001;
	REFUSED(&c, &p, 0, "--max-time");
	p.duration_ms = 0;
	p.omit_ms = 10001;
	p.packets = 1;
	REFUSED(&c, &p, 0, "--max-time");

	/* packets only, at 1000 frames/s: 10,000 frames take 10 s */
	params_init(&p);
	p.duration_ms = 0;
	p.packets = 10000;
	ACCEPTED(&c, &p, 0);
	p.packets = 10001;
	REFUSED(&c, &p, 0, "--max-time");
	/* at 2500/2 = 1250 frames/s: 12,500 frames take 10 s */
	p.rate_num = 2500;
	p.rate_den = 2;
	p.packets = 12500;
	ACCEPTED(&c, &p, 0);
	p.packets = 12501;
	REFUSED(&c, &p, 0, "--max-time");
	/* a count test's warm-up counts too: 1 s of it leaves 9 s, 11,250
	 * frames at 1250/s */
	p.omit_ms = 1000;
	p.packets = 11250;
	ACCEPTED(&c, &p, 0);
	p.packets = 11251;
	REFUSED(&c, &p, 0, "--max-time");
	p.omit_ms = 0;
	/* a fractional --max-time */
	c.max_time = 0.5;
	p.rate_num = 1000;
	p.rate_den = 1;
	p.packets = 500;
	ACCEPTED(&c, &p, 0);
	p.packets = 501;
	REFUSED(&c, &p, 0, "--max-time");
	/* with a duration, the packet count does not matter */
	params_init(&p);
	p.duration_ms = 500;
	p.packets = 1000000;
	ACCEPTED(&c, &p, 0);

	/* packets only at rate max: at the link's rate.  10 Gbit/s of 64-byte
	 * frames is 1e10 / (84 * 8) = 14,880,952.38 frames/s, so 10 s hold
	 * 148,809,523 of them */
	c.max_time = 10;
	params_init(&p);
	p.duration_ms = 0;
	p.rate_num = 0;
	p.packets = 148809523;
	ACCEPTED(&c, &p, 10000);
	p.packets = 148809525;
	REFUSED(&c, &p, 10000, "--max-time");

	/* a TCP byte count takes at least its time at the link's speed:
	 * 10 s at 10 Gbit/s are 12.5e9 bytes; unknown speed: no bound */
	params_init(&p);
	p.tcp = 1;
	p.duration_ms = 0;
	p.rate_num = 0;
	p.bytes = 12500000000ull;
	ACCEPTED(&c, &p, 10000);
	p.bytes = 12500000001ull;
	REFUSED(&c, &p, 10000, "--max-time");
	ACCEPTED(&c, &p, 0);
	/* by time, the byte count does not matter */
	p.duration_ms = 10000;
	ACCEPTED(&c, &p, 10000);
}

/* A responder's TCP sender: capped at --max-rate in its unit, not
 * refused; a percentage of an unknown link is refused. */
static void
test_tcp_cap(void **state)
{
	struct nb_ctl_params p;
	struct nb_config c;
	uint64_t rate;
	uint8_t unit;
	char why[200];

	(void)state;
	cfg_init(&c);
	assert_int_equal(nb_parse_rate("10G", &c.max_rate), 0);
	assert_int_equal(
		nb_policy_tcp_cap(&c, 0, &rate, &unit, why, sizeof(why)), 0);
	assert_int_equal(unit, NB_CTL_CAP_L1);
	assert_int_equal(rate, 1250000000ull);
	assert_int_equal(nb_parse_rate("800Ml2", &c.max_rate), 0);
	nb_policy_tcp_cap(&c, 0, &rate, &unit, why, sizeof(why));
	assert_int_equal(unit, NB_CTL_CAP_L2);
	assert_int_equal(rate, 100000000ull);
	assert_int_equal(nb_parse_rate("1Mpps", &c.max_rate), 0);
	nb_policy_tcp_cap(&c, 0, &rate, &unit, why, sizeof(why));
	assert_int_equal(unit, NB_CTL_CAP_FRAMES);
	assert_int_equal(rate, 1000000);
	assert_int_equal(nb_parse_rate("25%", &c.max_rate), 0);
	nb_policy_tcp_cap(&c, 40000, &rate, &unit, why, sizeof(why));
	assert_int_equal(unit, NB_CTL_CAP_L1);
	assert_int_equal(rate, 1250000000ull); /* 10 Gbit/s of 40 */
	assert_int_equal(
		nb_policy_tcp_cap(&c, 0, &rate, &unit, why, sizeof(why)),
		-EPERM);
	assert_non_null(strstr(why, "unknown"));
	assert_int_equal(nb_parse_rate("max", &c.max_rate), 0);
	nb_policy_tcp_cap(&c, 10000, &rate, &unit, why, sizeof(why));
	assert_int_equal(unit, NB_CTL_CAP_NONE);
	assert_int_equal(rate, 0);
	/* a reverse TCP test at "max" on a 100 Gbit/s link passes a 10G
	 * cap (the sender is capped), as the UDP one does not */
	assert_int_equal(nb_parse_rate("10G", &c.max_rate), 0);
	params_init(&p);
	p.direction = NB_CTL_DIR_REVERSE;
	p.rate_num = 0;
	p.proto = 6;
	p.tcp = 1;
	p.sizes[0] = 1518;
	p.tcp_window = 1u << 20;
	ACCEPTED(&c, &p, 100000);
	p.tcp = 0;
	REFUSED(&c, &p, 100000, "--max-rate");
}

static void
test_params_rate_pps(void **state)
{
	struct nb_ctl_params p;
	struct nb_config c;
	uint8_t d;

	(void)state;
	cfg_init(&c);
	c.max_rate.kind = NB_RATE_PPS;
	c.max_rate.value = 1e6;
	params_init(&p);
	for (d = NB_CTL_DIR_FORWARD; d <= NB_CTL_DIR_BIDIR; d++) {
		p.direction = d;
		p.rate_num = 1000000;
		p.rate_den = 1;
		ACCEPTED(&c, &p, 0); /* exactly at the cap */
		p.rate_num = 1000001;
		REFUSED(&c, &p, 0, "--max-rate");
		p.rate_num = 2000001; /* 1,000,000.5 */
		p.rate_den = 2;
		REFUSED(&c, &p, 0, "--max-rate");
		p.rate_num = 1999999;
		ACCEPTED(&c, &p, 0);
		/* the frame size does not matter for a frames/s cap */
		p.sizes[0] = 1518;
		p.rate_num = 1000000;
		p.rate_den = 1;
		ACCEPTED(&c, &p, 0);
		p.sizes[0] = 64;
	}
}

/*
 * Sizes {64, 1518}, pattern 64, 64, 1518: per frame on average
 * L2 (64 + 64 + 1518) / 3 * 8 = 1646 * 8 / 3 bits and
 * L1 (84 + 84 + 1538) / 3 * 8 = 1706 * 8 / 3 bits.  At 3000 frames/s:
 * L2 13,168,000 bit/s, L1 13,648,000 bit/s.
 */
static void
mixed(struct nb_ctl_params *p)
{
	p->nb_sizes = 2;
	p->sizes[0] = 64;
	p->sizes[1] = 1518;
	p->nb_pattern = 3;
	p->pattern[0] = 0;
	p->pattern[1] = 0;
	p->pattern[2] = 1;
	p->rate_num = 3000;
	p->rate_den = 1;
}

static void
test_params_rate_bits(void **state)
{
	struct nb_ctl_params p;
	struct nb_config c;
	uint8_t d;

	(void)state;
	cfg_init(&c);
	params_init(&p);
	mixed(&p);
	for (d = NB_CTL_DIR_FORWARD; d <= NB_CTL_DIR_BIDIR; d++) {
		p.direction = d;
		/* L1 cap */
		c.max_rate.kind = NB_RATE_BPS_L1;
		c.max_rate.value = 13648000;
		p.rate_num = 3000;
		ACCEPTED(&c, &p, 0);
		p.rate_num = 3001;
		REFUSED(&c, &p, 0, "--max-rate");
		c.max_rate.value = 13647999;
		p.rate_num = 3000;
		REFUSED(&c, &p, 0, "--max-rate");
		/* the L2 rate fits that L1 cap; the L1 rate does not */
		c.max_rate.value = 13168000;
		REFUSED(&c, &p, 0, "--max-rate");
		/* L2 cap */
		c.max_rate.kind = NB_RATE_BPS_L2;
		ACCEPTED(&c, &p, 0);
		p.rate_num = 3001;
		REFUSED(&c, &p, 0, "--max-rate");
		c.max_rate.value = 13167999;
		p.rate_num = 3000;
		REFUSED(&c, &p, 0, "--max-rate");
	}

	/* one size: 1 Gbit/s L1 of 64-byte frames is 1e9 / 672 =
	 * 1,488,095.238 frames/s; asked to the 1/1000 frame/s either side
	 * of it, both pass (a rate at the cap, rounded) */
	params_init(&p);
	c.max_rate.kind = NB_RATE_BPS_L1;
	c.max_rate.value = 1e9;
	p.direction = NB_CTL_DIR_REVERSE;
	p.rate_den = 1000;
	p.rate_num = 1488095238;
	ACCEPTED(&c, &p, 0);
	p.rate_num = 1488095239;
	ACCEPTED(&c, &p, 0);
	p.rate_num = 1488096000; /* 512 bit/s over */
	REFUSED(&c, &p, 0, "--max-rate");
	/* L2: 1e9 / 512 = 1,953,125 frames/s exactly */
	c.max_rate.kind = NB_RATE_BPS_L2;
	p.rate_den = 1;
	p.rate_num = 1953125;
	ACCEPTED(&c, &p, 0);
	p.rate_num = 1953126;
	REFUSED(&c, &p, 0, "--max-rate");
}

static void
test_params_rate_max(void **state)
{
	struct nb_ctl_params p;
	struct nb_config c;

	(void)state;
	cfg_init(&c); /* 10 Gbit/s L1 */
	params_init(&p);
	p.rate_num = 0;
	/* forward: the responder only takes what the link brings */
	p.direction = NB_CTL_DIR_FORWARD;
	ACCEPTED(&c, &p, 0);
	ACCEPTED(&c, &p, 100000);
	/* reverse and bidir: the responder sends at line rate */
	p.direction = NB_CTL_DIR_REVERSE;
	REFUSED(&c, &p, 0, "--max-rate");
	ACCEPTED(&c, &p, 1000);
	ACCEPTED(&c, &p, 10000); /* the link speed is the cap */
	REFUSED(&c, &p, 25000, "--max-rate");
	p.direction = NB_CTL_DIR_BIDIR;
	REFUSED(&c, &p, 0, "--max-rate");
	ACCEPTED(&c, &p, 10000);
	REFUSED(&c, &p, 10001, "--max-rate");

	/* L2 cap: line rate of 64-byte frames carries 10e9 * 64 / 84 bit/s
	 * of L2, 7.619 Gbit/s */
	c.max_rate.kind = NB_RATE_BPS_L2;
	c.max_rate.value = 7.62e9;
	p.direction = NB_CTL_DIR_REVERSE;
	ACCEPTED(&c, &p, 10000);
	c.max_rate.value = 7.61e9;
	REFUSED(&c, &p, 10000, "--max-rate");
	REFUSED(&c, &p, 0, "--max-rate");

	/* frames/s cap: 14,880,952.38 frames/s at 10 Gbit/s */
	c.max_rate.kind = NB_RATE_PPS;
	c.max_rate.value = 14.89e6;
	ACCEPTED(&c, &p, 10000);
	c.max_rate.value = 14.88e6;
	REFUSED(&c, &p, 10000, "--max-rate");

	/* a pattern of sizes: at line rate the L1 bit rate is the link
	 * speed, whatever the sizes, so a link within an L1 cap passes */
	c.max_rate.kind = NB_RATE_BPS_L1;
	c.max_rate.value = 10e9;
	mixed(&p);
	p.rate_num = 0;
	p.direction = NB_CTL_DIR_REVERSE;
	ACCEPTED(&c, &p, 10000);
	ACCEPTED(&c, &p, 1000);
	REFUSED(&c, &p, 25000, "--max-rate");
	/* and the L2 rate is below it: 10e9 * 1646 / 1706 = 9.648 Gbit/s */
	c.max_rate.kind = NB_RATE_BPS_L2;
	c.max_rate.value = 9.65e9;
	ACCEPTED(&c, &p, 10000);
	c.max_rate.value = 9.64e9;
	REFUSED(&c, &p, 10000, "--max-rate");
}

/* --- nb_srclimit ---------------------------------------------------------- */

/* Source n: MAC 02:00:00:nn:nn:nn, IPv4 10.n.n.n (host bits of n). */
static void
src(uint32_t n, uint8_t mac[6], uint32_t *ip)
{
	mac[0] = 0x02;
	mac[1] = 0;
	mac[2] = 0;
	mac[3] = (uint8_t)(n >> 16);
	mac[4] = (uint8_t)(n >> 8);
	mac[5] = (uint8_t)n;
	*ip = IP4(10, (n >> 16) & 255, (n >> 8) & 255, n & 255);
}

static void
test_srclimit_one(void **state)
{
	const uint64_t t0 = NS_PER_S;
	struct nb_srclimit l;
	uint8_t mac[6];
	uint32_t ip;
	int i;

	(void)state;
	/* 1/s burst 2 per source, 1000/s burst 1000 in all */
	nb_srclimit_init(&l, 1, 2, 1000, 1000, t0);
	src(7, mac, &ip);
	assert_int_equal(nb_srclimit_take(&l, mac, ip, t0), 1);
	assert_int_equal(nb_srclimit_take(&l, mac, ip, t0), 1);
	assert_int_equal(nb_srclimit_take(&l, mac, ip, t0), 0);
	assert_int_equal(l.limited, 1);
	assert_int_equal(nb_srclimit_take(&l, mac, ip, t0 + NS_PER_S / 2), 0);
	assert_int_equal(l.limited, 2);
	assert_int_equal(nb_srclimit_take(&l, mac, ip, t0 + NS_PER_S), 1);
	assert_int_equal(nb_srclimit_take(&l, mac, ip, t0 + NS_PER_S), 0);
	for (i = 2; i < 12; i++) {
		assert_int_equal(
			nb_srclimit_take(&l, mac, ip, t0 + i * NS_PER_S), 1);
		assert_int_equal(
			nb_srclimit_take(&l, mac, ip, t0 + i * NS_PER_S + 1),
			0);
	}
	assert_int_equal(l.limited, 13);

	/* the same MAC from another IPv4, or another MAC on the same IPv4:
	 * other sources, with buckets of their own */
	{
		uint8_t mac2[6];

		memcpy(mac2, mac, 6);
		mac2[5] ^= 1;
		assert_int_equal(
			nb_srclimit_take(&l, mac2, ip, t0 + 12 * NS_PER_S), 1);
		assert_int_equal(
			nb_srclimit_take(&l, mac, ip + 1, t0 + 12 * NS_PER_S),
			1);
	}
}

static void
test_srclimit_many(void **state)
{
	const uint64_t t0 = NS_PER_S;
	struct nb_srclimit l;
	uint8_t mac[6];
	uint32_t ip, n;

	(void)state;
	/* more sources than slots: each gets its first event */
	nb_srclimit_init(&l, 1, 1, 1000, 1000, t0);
	for (n = 1; n <= 100; n++) {
		src(n, mac, &ip);
		if (nb_srclimit_take(&l, mac, ip, t0 + n) != 1)
			fail_msg("source %u refused", n);
	}
	assert_int_equal(l.limited, 0);
	/* the most recent ones are still remembered, and limited */
	for (n = 100; n > 100 - NB_SRCLIMIT_SLOTS; n--) {
		src(n, mac, &ip);
		assert_int_equal(nb_srclimit_take(&l, mac, ip, t0 + 200), 0);
	}
	assert_int_equal(l.limited, NB_SRCLIMIT_SLOTS);
}

static void
test_srclimit_flood(void **state)
{
	const uint64_t t0 = NS_PER_S, tick = 100000; /* 100 us */
	uint32_t forged = 0, forged_ok = 0, honest = 0, honest_ok = 0, k;
	uint8_t hmac[6] = {0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee}, mac[6];
	uint32_t hip = IP4(192, 168, 1, 2), ip;
	struct nb_srclimit l;

	(void)state;
	/* 10/s burst 1 per source; 20,000/s in all.  For 1 s: a forged
	 * source every 100 us (10,000 of them, all distinct), and the
	 * honest one every 100 ms, in between */
	nb_srclimit_init(&l, 10, 1, 20000, 100, t0);
	for (k = 0; k < 10000; k++) {
		uint64_t t = t0 + k * tick;

		src(k + 1, mac, &ip);
		forged++;
		forged_ok += (uint32_t)nb_srclimit_take(&l, mac, ip, t);
		if (k % 1000 == 500) {
			honest++;
			honest_ok += (uint32_t)nb_srclimit_take(&l, hmac, hip,
								t + tick / 2);
		}
	}
	assert_int_equal(honest, 10);
	assert_int_equal(honest_ok, 10);
	assert_int_equal(forged, 10000);
	assert_int_equal(forged_ok, 10000);
	assert_int_equal(l.limited, 0);

	/* the honest source over its own rate is still limited when the
	 * flood is not evicting it: two at once, then one refused */
	nb_srclimit_init(&l, 10, 1, 20000, 100, t0);
	assert_int_equal(nb_srclimit_take(&l, hmac, hip, t0), 1);
	assert_int_equal(nb_srclimit_take(&l, hmac, hip, t0 + 1), 0);
	for (k = 0; k < 10; k++) {
		src(k + 1, mac, &ip);
		assert_int_equal(nb_srclimit_take(&l, mac, ip, t0 + 2 + k), 1);
	}
	assert_int_equal(nb_srclimit_take(&l, hmac, hip, t0 + 20), 0);
	assert_int_equal(nb_srclimit_take(&l, hmac, hip, t0 + NS_PER_S / 10),
			 1);
	assert_int_equal(l.limited, 2);
}

static void
test_srclimit_global(void **state)
{
	const uint64_t t0 = NS_PER_S;
	struct nb_srclimit l;
	uint8_t mac[6];
	uint32_t ip, n, ok = 0;

	(void)state;
	/* 100/s burst 10 per source, but 10/s burst 5 in all */
	nb_srclimit_init(&l, 100, 10, 10, 5, t0);
	for (n = 1; n <= 20; n++) {
		src(n, mac, &ip);
		ok += (uint32_t)nb_srclimit_take(&l, mac, ip, t0);
	}
	assert_int_equal(ok, 5);
	assert_int_equal(l.limited, 15);
	/* one more 100 ms later */
	src(21, mac, &ip);
	assert_int_equal(nb_srclimit_take(&l, mac, ip, t0 + NS_PER_S / 10), 1);
	src(22, mac, &ip);
	assert_int_equal(nb_srclimit_take(&l, mac, ip, t0 + NS_PER_S / 10), 0);
	assert_int_equal(l.limited, 16);
	/* a long idle: the global burst again, no more */
	ok = 0;
	for (n = 30; n < 50; n++) {
		src(n, mac, &ip);
		ok += (uint32_t)nb_srclimit_take(&l, mac, ip,
						 t0 + 100 * NS_PER_S);
	}
	assert_int_equal(ok, 5);
	assert_int_equal(l.limited, 31);
}

/* --- nb_vouched ----------------------------------------------------------- */

/* One session vouched for: its own bucket (3/s burst 4), keyed by MAC,
 * IPv4 and session; gone after its life; the oldest of 17 evicted. */
static void
test_vouched_one(void **state)
{
	const uint64_t t0 = NS_PER_S, life = 33 * NS_PER_S;
	struct nb_vouched v;
	uint8_t mac[6], mac2[6];
	uint32_t ip, n;
	int over, i;

	(void)state;
	nb_vouched_init(&v, life, 3, 4);
	src(5, mac, &ip);
	assert_int_equal(nb_vouched_take(&v, mac, ip, 77, t0, &over), 0);
	assert_int_equal(over, 0);
	nb_vouched_add(&v, mac, ip, 77, t0);
	for (i = 0; i < 4; i++)
		assert_int_equal(nb_vouched_take(&v, mac, ip, 77, t0, &over),
				 1);
	assert_int_equal(nb_vouched_take(&v, mac, ip, 77, t0, &over), 0);
	assert_int_equal(over, 1);
	/* renewed: the same bucket, not a full one */
	nb_vouched_add(&v, mac, ip, 77, t0 + 1);
	assert_int_equal(nb_vouched_take(&v, mac, ip, 77, t0 + 1, &over), 0);
	assert_int_equal(over, 1);
	/* 3 tokens a second */
	assert_int_equal(
		nb_vouched_take(&v, mac, ip, 77, t0 + NS_PER_S / 3 + 1, &over),
		1);
	assert_int_equal(v.passed, 5);
	/* another session, MAC or IPv4: not vouched for */
	memcpy(mac2, mac, 6);
	mac2[0] ^= 4;
	assert_int_equal(
		nb_vouched_take(&v, mac, ip, 78, t0 + 2 * NS_PER_S, &over), 0);
	assert_int_equal(over, 0);
	assert_int_equal(
		nb_vouched_take(&v, mac2, ip, 77, t0 + 2 * NS_PER_S, &over), 0);
	assert_int_equal(over, 0);
	assert_int_equal(
		nb_vouched_take(&v, mac, ip + 1, 77, t0 + 2 * NS_PER_S, &over),
		0);
	assert_int_equal(over, 0);
	/* its life runs from the last HELLO that checked (t0 + 1) */
	assert_int_equal(nb_vouched_take(&v, mac, ip, 77, t0 + life, &over), 1);
	assert_int_equal(nb_vouched_take(&v, mac, ip, 77, t0 + 1 + life, &over),
			 0);
	assert_int_equal(over, 0);
	/* NB_VOUCHED_SLOTS + 1 sessions: the oldest goes */
	for (n = 0; n <= NB_VOUCHED_SLOTS; n++) {
		src(100 + n, mac, &ip);
		nb_vouched_add(&v, mac, ip, n, t0 + 40 * NS_PER_S + n);
	}
	src(100, mac, &ip);
	assert_int_equal(
		nb_vouched_take(&v, mac, ip, 0, t0 + 41 * NS_PER_S, &over), 0);
	for (n = 1; n <= NB_VOUCHED_SLOTS; n++) {
		src(100 + n, mac, &ip);
		assert_int_equal(nb_vouched_take(&v, mac, ip, n,
						 t0 + 41 * NS_PER_S, &over),
				 1);
	}
}

/*
 * The flood the responder meets (test_flood.py): forged PARAMS from a new
 * source each, 100 times the global rate.  A session that was not
 * vouched for gets through at the global share; one that was, every
 * time within its own rate, while the forged sources get no more than
 * before.
 */
static void
test_vouched_flood(void **state)
{
	const uint64_t t0 = NS_PER_S, step = NS_PER_S / 100000;
	struct nb_srclimit l;
	struct nb_vouched v;
	uint8_t mac[6], me[6];
	uint32_t ip, my_ip, n, forged_ok = 0, mine_ok = 0, mine = 0;

	(void)state;
	/* responder's figures: 20/s burst 20 a source, 2000/s burst 200 in
	 * all; a vouched session 20/s burst 20 */
	nb_srclimit_init(&l, 20, 20, 2000, 200, t0);
	nb_vouched_init(&v, 33 * NS_PER_S, 20, 20);
	src(0xabcdef, me, &my_ip);
	/* 1 s of 100,000 forged messages a second, ours every 50 ms */
	for (n = 0; n < 100000; n++) {
		uint64_t now = t0 + n * step;

		src(n + 1, mac, &ip);
		forged_ok += (uint32_t)nb_policy_may_check(&v, &l, mac, ip,
							   n | 1, now);
		if (n % 5000 == 0) {
			mine++;
			mine_ok += (uint32_t)nb_policy_may_check(
				&v, &l, me, my_ip, 0x1234, now + 1);
		}
	}
	/* not vouched for: the global share, the burst's at most */
	assert_true(forged_ok >= 2000 && forged_ok <= 2200 + mine);
	assert_true(mine_ok <= 1);
	/* vouched for: all of ours, and the forged as many as before */
	nb_srclimit_init(&l, 20, 20, 2000, 200, t0);
	nb_vouched_add(&v, me, my_ip, 0x1234, t0);
	forged_ok = mine_ok = mine = 0;
	for (n = 0; n < 100000; n++) {
		uint64_t now = t0 + n * step;

		src(n + 1, mac, &ip);
		forged_ok += (uint32_t)nb_policy_may_check(&v, &l, mac, ip,
							   n | 1, now);
		if (n % 5000 == 0) {
			mine++;
			mine_ok += (uint32_t)nb_policy_may_check(
				&v, &l, me, my_ip, 0x1234, now + 1);
		}
	}
	assert_int_equal(mine, 20);
	assert_int_equal(mine_ok, 20);
	assert_true(forged_ok >= 2000 && forged_ok <= 2200);
	/* and past its own rate, a vouched session is refused too */
	for (n = 0; n < 40; n++)
		mine_ok += (uint32_t)nb_policy_may_check(&v, &l, me, my_ip,
							 0x1234, t0 + NS_PER_S);
	assert_true(mine_ok < 20 + 40);
}

/* --- nb_escape ------------------------------------------------------------ */

static void
esc(const char *in, size_t inlen, char *out, size_t outlen)
{
	nb_escape(in, inlen, out, outlen);
}

#define ESC_EQ(in, want)                                                       \
	do {                                                                   \
		char o_[512];                                                  \
		esc(in, sizeof(in) - 1, o_, sizeof(o_));                       \
		assert_string_equal(o_, want);                                 \
	} while (0)

static void
test_escape_basic(void **state)
{
	char in[2], out[16], want[16];
	unsigned int c;

	(void)state;
	ESC_EQ("hello, world ~!", "hello, world ~!");
	ESC_EQ("", "");
	ESC_EQ("a\\b", "a\\\\b");
	ESC_EQ("\\\\", "\\\\\\\\");
	ESC_EQ("\x01", "\\x01");
	ESC_EQ("tab\there\n", "tab\\x09here\\x0a");
	ESC_EQ("\x7f", "\\x7f");
	ESC_EQ("\x80\xff\xab\xCD", "\\x80\\xff\\xab\\xcd");
	ESC_EQ("\x1b[2J\x1b]0;pwned\x07", "\\x1b[2J\\x1b]0;pwned\\x07");
	ESC_EQ("caf\xc3\xa9", "caf\\xc3\\xa9");

	/* every byte alone, against the rule written out */
	for (c = 1; c < 256; c++) {
		in[0] = (char)c;
		in[1] = '\0';
		if (c == '\\')
			snprintf(want, sizeof(want), "\\\\");
		else if (c >= 0x20 && c <= 0x7e)
			snprintf(want, sizeof(want), "%c", c);
		else
			snprintf(want, sizeof(want), "\\x%02x", c);
		nb_escape(in, 1, out, sizeof(out));
		assert_string_equal(out, want);
	}
}

static void
test_escape_bounds(void **state)
{
	static const char s[] = "ab\0cd";
	char out[32];
	size_t i;

	(void)state;
	/* the NUL ends the input, whatever inlen says */
	nb_escape(s, sizeof(s), out, sizeof(out));
	assert_string_equal(out, "ab");
	/* inlen bounds it: no NUL needed */
	nb_escape("abcdef", 3, out, sizeof(out));
	assert_string_equal(out, "abc");
	nb_escape("abcdef", 0, out, sizeof(out));
	assert_string_equal(out, "");
	{
		const char unterminated[4] = {'w', '\x1b', 'x', 'y'};

		nb_escape(unterminated, sizeof(unterminated), out, sizeof(out));
		assert_string_equal(out, "w\\x1bxy");
	}

	/* a small out: terminated, cut before a token that does not fit */
	memset(out, 'Z', sizeof(out));
	nb_escape("abc", 3, out, 1);
	assert_string_equal(out, "");
	assert_int_equal(out[1], 'Z');
	memset(out, 'Z', sizeof(out));
	nb_escape("abc", 3, out, 2);
	assert_string_equal(out, "a");
	assert_int_equal(out[2], 'Z');
	memset(out, 'Z', sizeof(out));
	nb_escape("abc", 3, out, 4);
	assert_string_equal(out, "abc");
	nb_escape("abcd", 4, out, 4);
	assert_string_equal(out, "abc");
	/* "\x01" needs 4 bytes and the NUL */
	memset(out, 'Z', sizeof(out));
	nb_escape("\x01z", 2, out, 4);
	assert_string_equal(out, "");
	assert_int_equal(out[4], 'Z');
	nb_escape("\x01z", 2, out, 5);
	assert_string_equal(out, "\\x01");
	nb_escape("\x01z", 2, out, 6);
	assert_string_equal(out, "\\x01z");
	nb_escape("a\x01", 2, out, 2);
	assert_string_equal(out, "a");
	nb_escape("a\x01", 2, out, 5);
	assert_string_equal(out, "a");
	nb_escape("a\x01", 2, out, 6);
	assert_string_equal(out, "a\\x01");
	/* a backslash: 2 bytes and the NUL */
	nb_escape("\\", 1, out, 2);
	assert_string_equal(out, "");
	nb_escape("\\", 1, out, 3);
	assert_string_equal(out, "\\\\");
	nb_escape("x\\", 2, out, 4);
	assert_string_equal(out, "x\\\\");
	nb_escape("x\\", 2, out, 3);
	assert_string_equal(out, "x");
	/* outlen 0: nothing written */
	memset(out, 'Z', sizeof(out));
	nb_escape("abc", 3, out, 0);
	for (i = 0; i < sizeof(out); i++)
		assert_int_equal(out[i], 'Z');
}

/* The reference: each byte's token, written independently. */
static size_t
ref_token(unsigned char c, char t[5])
{
	if (c == '\\')
		return (size_t)snprintf(t, 5, "\\\\");
	if (c >= 0x20 && c <= 0x7e)
		return (size_t)snprintf(t, 5, "%c", c);
	return (size_t)snprintf(t, 5, "\\x%02x", c);
}

static void
test_escape_random(void **state)
{
	uint64_t seed = 0x5eed5eedu;
	char in[64], out[300], want[300];
	int round;

	(void)state;
	for (round = 0; round < 20000; round++) {
		size_t inlen = rng_below(&seed, sizeof(in) + 1), i, o = 0;
		size_t outlen = rng_below(&seed, sizeof(out)) + 1;

		for (i = 0; i < inlen; i++) {
			/* mostly printable, some of everything, rare NULs */
			uint64_t r = rng_below(&seed, 100);

			in[i] = r < 60	 ? (char)(0x20 + rng_below(&seed, 95))
				: r < 99 ? (char)(1 + rng_below(&seed, 255))
					 : '\0';
		}
		memset(out, 'Z', sizeof(out));
		nb_escape(in, inlen, out, outlen);
		for (i = 0; i < inlen && in[i] != '\0'; i++) {
			char t[5];
			size_t n = ref_token((unsigned char)in[i], t);

			if (o + n + 1 > outlen)
				break;
			memcpy(want + o, t, n);
			o += n;
		}
		want[o] = '\0';
		assert_string_equal(out, want);
		/* nothing past the terminator, and only printable ASCII */
		for (i = o + 1; i < sizeof(out); i++)
			assert_int_equal(out[i], 'Z');
		for (i = 0; i < o; i++)
			assert_true(out[i] >= 0x20 && out[i] <= 0x7e);
	}
}

/* --- refusals counted and logged once a second per cause ---------------- */

/* One note: the return and, when a line is due, the count it reports. */
static void
note_expect(struct nb_refusals *r, enum nb_refusal c, uint64_t now, int want,
	    uint64_t want_more)
{
	uint64_t more = 0xdeadbeef;
	int got = nb_refusal_note(r, c, now, &more);

	if (got != want)
		fail_msg("%s at %llu ns: %d, want %d", nb_refusal_name(c),
			 (unsigned long long)now, got, want);
	if (want && more != want_more)
		fail_msg("%s at %llu ns: more %llu, want %llu",
			 nb_refusal_name(c), (unsigned long long)now,
			 (unsigned long long)more,
			 (unsigned long long)want_more);
}

static void
test_refusal_note(void **state)
{
	const uint64_t t0 = 5 * NS_PER_S;
	struct nb_refusals r;
	unsigned int c;

	(void)state;
	memset(&r, 0, sizeof(r));
	/* the first refusal of a cause is logged, nothing held back */
	note_expect(&r, NB_REF_RATE, t0, 1, 0);
	/* within the second: counted, not logged */
	note_expect(&r, NB_REF_RATE, t0 + 1, 0, 0);
	note_expect(&r, NB_REF_RATE, t0 + NS_PER_S / 2, 0, 0);
	note_expect(&r, NB_REF_RATE, t0 + NS_PER_S - 1, 0, 0);
	/* a second after the last line: logged, with the 3 held back */
	note_expect(&r, NB_REF_RATE, t0 + NS_PER_S, 1, 3);
	/* the next second counts from that line, not from t0 */
	note_expect(&r, NB_REF_RATE, t0 + NS_PER_S + NS_PER_S / 5, 0, 0);
	note_expect(&r, NB_REF_RATE, t0 + 2 * NS_PER_S - 1, 0, 0);
	/* long quiet: the next one is logged with the 2 held back */
	note_expect(&r, NB_REF_RATE, t0 + 60 * NS_PER_S, 1, 2);
	/* and right after it, nothing held back any more */
	note_expect(&r, NB_REF_RATE, t0 + 61 * NS_PER_S, 1, 0);
	assert_int_equal(r.count[NB_REF_RATE], 9);

	/* causes are independent: BUSY's first line comes while RATE is
	 * holding back, and RATE's hold does not move BUSY's */
	note_expect(&r, NB_REF_BUSY, t0 + 61 * NS_PER_S + 1, 1, 0);
	note_expect(&r, NB_REF_RATE, t0 + 61 * NS_PER_S + 2, 0, 0);
	note_expect(&r, NB_REF_BUSY, t0 + 61 * NS_PER_S + 3, 0, 0);
	note_expect(&r, NB_REF_TAG, t0 + 61 * NS_PER_S + 4, 1, 0);
	note_expect(&r, NB_REF_RATE, t0 + 62 * NS_PER_S, 1, 1);
	note_expect(&r, NB_REF_BUSY, t0 + 62 * NS_PER_S, 0, 0);
	note_expect(&r, NB_REF_BUSY, t0 + 62 * NS_PER_S + 1, 1, 2);
	assert_int_equal(r.count[NB_REF_RATE], 11);
	assert_int_equal(r.count[NB_REF_BUSY], 4);
	assert_int_equal(r.count[NB_REF_TAG], 1);
	for (c = 0; c < NB_REF_MAX; c++)
		if (c != NB_REF_RATE && c != NB_REF_BUSY && c != NB_REF_TAG)
			assert_int_equal(r.count[c], 0);
}

/* A flood: 1000 refusals a second for 100 s, one cause: one line a
 * second, each with the 999 held back; counts exact. */
static void
test_refusal_flood(void **state)
{
	const uint64_t t0 = 7 * NS_PER_S;
	struct nb_refusals r;
	uint64_t i, more, lines = 0, held = 0;

	(void)state;
	memset(&r, 0, sizeof(r));
	for (i = 0; i < 100000; i++) {
		more = 0xdeadbeef;
		if (nb_refusal_note(&r, NB_REF_COOKIE, t0 + i * 1000000ull,
				    &more)) {
			assert_int_equal(i % 1000, 0);
			assert_int_equal(more, i == 0 ? 0 : 999);
			held += more;
			lines++;
		}
	}
	assert_int_equal(lines, 100);
	assert_int_equal(r.count[NB_REF_COOKIE], 100000);
	/* every refusal was either a line or in one, but for the last 999 */
	assert_int_equal(lines + held + 999, 100000);
}

/* Random times and causes against a model of the rule written here: a
 * line when this cause has had none yet or its last one is >= 1 s old,
 * reporting how many of this cause came since and were not logged. */
static void
test_refusal_model(void **state)
{
	uint64_t seed = 42, now = NS_PER_S, more;
	uint64_t last[NB_REF_MAX] = {0}, since[NB_REF_MAX] = {0};
	uint64_t count[NB_REF_MAX] = {0};
	int logged[NB_REF_MAX] = {0};
	struct nb_refusals r;
	unsigned int i, c;
	int want, got;

	(void)state;
	memset(&r, 0, sizeof(r));
	for (i = 0; i < 200000; i++) {
		/* steps of 0..20 ms, sometimes several seconds */
		now += rng_below(&seed, 50) == 0
			       ? rng_below(&seed, 5 * NS_PER_S)
			       : rng_below(&seed, 20000001);
		c = (unsigned int)rng_below(&seed, NB_REF_MAX);
		count[c]++;
		want = !logged[c] || now - last[c] >= NS_PER_S;
		more = 0xdeadbeef;
		got = nb_refusal_note(&r, (enum nb_refusal)c, now, &more);
		if (got != want)
			fail_msg("note %u (%s): %d, want %d", i,
				 nb_refusal_name((enum nb_refusal)c), got,
				 want);
		if (want) {
			assert_int_equal(more, since[c]);
			since[c] = 0;
			last[c] = now;
			logged[c] = 1;
		} else {
			since[c]++;
		}
	}
	for (c = 0; c < NB_REF_MAX; c++)
		assert_int_equal(r.count[c], count[c]);
}

static void
test_refusal_names(void **state)
{
	static const char *const want[] = {
		"rate-limited",
		"untagged HELLO",
		"refused address",
		"client without the key",
		"wrong key",
		"key holder at --no-auth",
		"busy",
		"bad or stale cookie",
		"bad tag",
		"replayed session",
		"too many sessions",
		"QUIT refused",
		"not the session's client",
		"other protocol version",
		"answer longer than the datagram",
	};
	struct nb_refusals r, zero;
	uint64_t more = 77;
	unsigned int c;

	(void)state;
	assert_int_equal(sizeof(want) / sizeof(want[0]), NB_REF_MAX);
	for (c = 0; c < NB_REF_MAX; c++)
		assert_string_equal(nb_refusal_name((enum nb_refusal)c),
				    want[c]);
	assert_string_equal(nb_refusal_name(NB_REF_MAX), "unknown");
	assert_string_equal(nb_refusal_name((enum nb_refusal)1000), "unknown");
	/* a cause out of range: not counted, nothing logged or written */
	memset(&r, 0, sizeof(r));
	memset(&zero, 0, sizeof(zero));
	assert_int_equal(nb_refusal_note(&r, NB_REF_MAX, NS_PER_S, &more), 0);
	assert_int_equal(
		nb_refusal_note(&r, (enum nb_refusal) - 1, NS_PER_S, &more), 0);
	assert_memory_equal(&r, &zero, sizeof(r));
	assert_int_equal(more, 77);
}

/*
 * The data VLAN: the responder's own (0 untagged, or its --vlan) or one
 * of --allow-vlan; every other id of 0..4094 is refused, with the asked
 * id in the reason.  Expected: a set built here from the same rule.
 */
static void
test_vlan_policy(void **state)
{
	static const uint16_t owns[] = {0, 20, 4094};
	struct nb_config cfg;
	char why[160];
	unsigned int o, v, i;

	(void)state;
	for (o = 0; o < 3; o++) {
		memset(&cfg, 0, sizeof(cfg));
		if (o == 1) {
			cfg.nb_allow_vlan = 2;
			cfg.allow_vlan[0] = 7;
			cfg.allow_vlan[1] = 4094;
		}
		for (v = 0; v <= 4094; v++) {
			int want = v == owns[o];

			for (i = 0; i < cfg.nb_allow_vlan; i++)
				want |= cfg.allow_vlan[i] == v;
			why[0] = '\0';
			assert_int_equal(nb_policy_vlan(&cfg, owns[o],
							(uint16_t)v, why,
							sizeof(why)),
					 want ? 0 : -EPERM);
			if (!want && v != 0) {
				char id[24];

				snprintf(id, sizeof(id), "VLAN %u asked", v);
				assert_non_null(strstr(why, id));
			}
			if (!want && v == 0)
				assert_non_null(strstr(why, "untagged"));
		}
	}
}

/*
 * Nothing is ever sent back to a group or null address: every MAC with
 * the group bit (each first byte with bit 0 set), the zero MAC, and the
 * IPv4 sources 0, 255.255.255.255, 127/8 and 224/4 (their edges), while
 * unicast neighbours of each are answerable.
 */
static void
test_answerable(void **state)
{
	static const uint32_t bad_ip[] = {
		0,	     0xffffffffu, 0x7f000000u,	   0x7fffffffu,
		0xe0000000u, 0xefffffffu, 0xf0000000u - 1,
	};
	static const uint32_t good_ip[] = {
		0x00000001u, 0x7effffffu, 0x80000000u, 0xdfffffffu,
		0xf0000000u, 0xfffffffeu, 0xc6120001u,
	};
	uint8_t mac[6] = {2, 0, 0, 0, 0, 1};
	static const uint8_t zero[6];
	unsigned int b, i;

	(void)state;
	for (b = 0; b < 256; b++) {
		mac[0] = (uint8_t)b;
		assert_int_equal(nb_policy_answerable(mac, 0xc6120001u),
				 !(b & 1));
	}
	assert_int_equal(nb_policy_answerable(zero, 0xc6120001u), 0);
	mac[0] = 2;
	for (i = 0; i < sizeof(bad_ip) / sizeof(bad_ip[0]); i++)
		assert_int_equal(nb_policy_answerable(mac, bad_ip[i]), 0);
	for (i = 0; i < sizeof(good_ip) / sizeof(good_ip[0]); i++)
		assert_int_equal(nb_policy_answerable(mac, good_ip[i]), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_peer_addresses),
		cmocka_unit_test(test_peer_allow),
		cmocka_unit_test(test_params_time),
		cmocka_unit_test(test_tcp_cap),
		cmocka_unit_test(test_params_rate_pps),
		cmocka_unit_test(test_params_rate_bits),
		cmocka_unit_test(test_params_rate_max),
		cmocka_unit_test(test_srclimit_one),
		cmocka_unit_test(test_srclimit_many),
		cmocka_unit_test(test_srclimit_flood),
		cmocka_unit_test(test_srclimit_global),
		cmocka_unit_test(test_vouched_one),
		cmocka_unit_test(test_vouched_flood),
		cmocka_unit_test(test_escape_basic),
		cmocka_unit_test(test_escape_bounds),
		cmocka_unit_test(test_escape_random),
		cmocka_unit_test(test_refusal_note),
		cmocka_unit_test(test_refusal_flood),
		cmocka_unit_test(test_refusal_model),
		cmocka_unit_test(test_refusal_names),
		cmocka_unit_test(test_vlan_policy),
		cmocka_unit_test(test_answerable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
