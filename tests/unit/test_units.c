/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for app/core/nb_units.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "nb_units.h"

#define SENTINEL 0xa5

/* |a - b| <= 1e-12 * |b| (or absolutely tiny when b == 0) */
static void
assert_rel(double a, double b)
{
	double tol = 1e-12 * fabs(b);

	if (tol == 0.0)
		tol = 1e-300;
	if (!(fabs(a - b) <= tol)) {
		print_error("%.17g != %.17g (rel 1e-12)\n", a, b);
		fail();
	}
}

/* num/den == enum_/eden exactly */
static void
assert_ratio(uint64_t num, uint64_t den, uint64_t enum_, uint64_t eden)
{
	unsigned __int128 l = (unsigned __int128)num * eden;
	unsigned __int128 r = (unsigned __int128)enum_ * den;

	assert_true(den != 0);
	if (l != r) {
		print_error("%llu/%llu != %llu/%llu\n", (unsigned long long)num,
			    (unsigned long long)den, (unsigned long long)enum_,
			    (unsigned long long)eden);
		fail();
	}
}

static int
is_all(const void *p, size_t n, uint8_t v)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != v)
			return 0;
	return 1;
}

/* ---- rates ---- */

struct rate_case {
	const char *s;
	enum nb_rate_kind kind;
	double value;
};

static void
test_rate_good(void **state)
{
	static const struct rate_case cases[] = {
		{"max", NB_RATE_MAX, 0},
		{"MAX", NB_RATE_MAX, 0},
		{"Max", NB_RATE_MAX, 0},
		{"1000", NB_RATE_BPS_L1, 1000},
		{"1", NB_RATE_BPS_L1, 1},
		{"10K", NB_RATE_BPS_L1, 10e3},
		{"10k", NB_RATE_BPS_L1, 10e3},
		{"100M", NB_RATE_BPS_L1, 100e6},
		{"100m", NB_RATE_BPS_L1, 100e6},
		{"10G", NB_RATE_BPS_L1, 10e9},
		{"10g", NB_RATE_BPS_L1, 10e9},
		{"2.5G", NB_RATE_BPS_L1, 2.5e9},
		{"0.5G", NB_RATE_BPS_L1, 0.5e9},
		{".5G", NB_RATE_BPS_L1, 0.5e9},
		{"25.G", NB_RATE_BPS_L1, 25e9},
		{"1e9", NB_RATE_BPS_L1, 1e9},
		{"1E3K", NB_RATE_BPS_L1, 1e6},
		{"10Gbps", NB_RATE_BPS_L1, 10e9},
		{"10gBPS", NB_RATE_BPS_L1, 10e9},
		{"1000bps", NB_RATE_BPS_L1, 1000},
		{"10Gl1", NB_RATE_BPS_L1, 10e9},
		{"10GL1", NB_RATE_BPS_L1, 10e9},
		{"100Kl1", NB_RATE_BPS_L1, 100e3},
		{"1000l1", NB_RATE_BPS_L1, 1000},
		{"10Gl2", NB_RATE_BPS_L2, 10e9},
		{"100Ml2", NB_RATE_BPS_L2, 100e6},
		{"100mL2", NB_RATE_BPS_L2, 100e6},
		{"7Kl2", NB_RATE_BPS_L2, 7e3},
		{"1.25Gl2", NB_RATE_BPS_L2, 1.25e9},
		{"1000l2", NB_RATE_BPS_L2, 1000},
		{"1000pps", NB_RATE_PPS, 1000},
		{"1000PPS", NB_RATE_PPS, 1000},
		{"500Kpps", NB_RATE_PPS, 500e3},
		{"500kpps", NB_RATE_PPS, 500e3},
		{"14.88Mpps", NB_RATE_PPS, 14.88e6},
		{"14.88mPpS", NB_RATE_PPS, 14.88e6},
		{"1Gpps", NB_RATE_PPS, 1e9},
		{"0.5pps", NB_RATE_PPS, 0.5},
		{"50%", NB_RATE_PERCENT, 50},
		{"99.5%", NB_RATE_PERCENT, 99.5},
		{"100%", NB_RATE_PERCENT, 100},
		{"0.01%", NB_RATE_PERCENT, 0.01},
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nb_rate_spec r;
		int rc;

		memset(&r, SENTINEL, sizeof(r));
		rc = nb_parse_rate(cases[i].s, &r);
		if (rc != 0) {
			print_error("\"%s\": rc %d\n", cases[i].s, rc);
			fail();
		}
		assert_int_equal(r.kind, cases[i].kind);
		assert_rel(r.value, cases[i].value);
	}
}

struct bad_case {
	const char *s;
	int rc;
};

static void
test_rate_bad(void **state)
{
	static const struct bad_case cases[] = {
		{"", -EINVAL},
		{"abc", -EINVAL},
		{"G", -EINVAL},
		{"10X", -EINVAL},
		{"10GX", -EINVAL},
		{"10Gx", -EINVAL},
		{"10GG", -EINVAL},
		{"-5G", -EINVAL},
		{"+5G", -EINVAL},
		{"0", -ERANGE},
		{"0G", -ERANGE},
		{"0.0", -ERANGE},
		{"0pps", -ERANGE},
		{"0Kpps", -ERANGE},
		{"0l2", -ERANGE},
		{"0%", -ERANGE},
		{"101%", -ERANGE},
		{"100.001%", -ERANGE},
		{"-5%", -EINVAL},
		{"5K%", -EINVAL},
		{"5%%", -EINVAL},
		{"nan", -EINVAL},
		{"NaN", -EINVAL},
		{"inf", -EINVAL},
		{"infinity", -EINVAL},
		{"INF", -EINVAL},
		{"1e400", -ERANGE},
		{"1e-400", -ERANGE},
		{"1e300G", -ERANGE},
		{" 10G", -EINVAL},
		{"10G ", -EINVAL},
		{"10 G", -EINVAL},
		{"\t10G", -EINVAL},
		{"10G\n", -EINVAL},
		{"0x10", -EINVAL},
		{"0x1p3", -EINVAL},
		{".", -EINVAL},
		{"1e", -EINVAL},
		{"1e+", -EINVAL},
		{"10Gbpsl2", -EINVAL},
		{"10Gbpsl1", -EINVAL},
		{"10Gl3", -EINVAL},
		{"10Gpp", -EINVAL},
		{"10Gppsx", -EINVAL},
		{"maximum", -EINVAL},
		{"max ", -EINVAL},
		{"1,000", -EINVAL},
		/* above NB_RATE_MAX_BPS / NB_RATE_MAX_PPS */
		{"1e99", -ERANGE},
		{"10001G", -ERANGE},
		{"10000.001Gl2", -ERANGE},
		{"1.1e13", -ERANGE},
		{"10.001Gpps", -ERANGE},
		{"1e10000pps", -ERANGE},
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nb_rate_spec r;
		int rc;

		memset(&r, SENTINEL, sizeof(r));
		rc = nb_parse_rate(cases[i].s, &r);
		if (rc != cases[i].rc) {
			print_error("\"%s\": rc %d, want %d\n", cases[i].s, rc,
				    cases[i].rc);
			fail();
		}
		assert_true(is_all(&r, sizeof(r), SENTINEL));
	}
	assert_int_equal(nb_parse_rate(NULL, &(struct nb_rate_spec){0}),
			 -EINVAL);
	assert_int_equal(nb_parse_rate("10G", NULL), -EINVAL);
}

/* The largest rates, and the reason given for each refusal. */
static void
test_rate_bounds(void **state)
{
	static const struct {
		const char *s, *why; /* why: a fragment, "" for syntax */
	} cases[] = {
		{"0", "above 0"},
		{"0Gl2", "above 0"},
		{"0pps", "above 0"},
		{"0%", "above 0 and at most 100"},
		{"101%", "at most 100"},
		{"1e99", "10 Tbit/s"},
		{"10001G", "10 Tbit/s"},
		{"20000Gl2", "10 Tbit/s"},
		{"11Gpps", "10 Gpps"},
		{"1e400", "out of range"},
		{"10X", ""},
		{"fast", ""},
		{"", ""},
	};
	struct nb_rate_spec r;
	unsigned int i;

	(void)state;
	assert_int_equal(nb_parse_rate("10000G", &r), 0);
	assert_true(r.value == NB_RATE_MAX_BPS);
	assert_int_equal(nb_parse_rate("10000Gl2", &r), 0);
	assert_int_equal(nb_parse_rate("10Gpps", &r), 0);
	assert_true(r.value == NB_RATE_MAX_PPS);
	/* a packet rate is bounded as packets, not as bits */
	assert_int_equal(nb_parse_rate("9Gpps", &r), 0);
	assert_null(nb_rate_error("10G"));
	assert_null(nb_rate_error("max"));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why = nb_rate_error(cases[i].s);

		assert_int_not_equal(nb_parse_rate(cases[i].s, &r), 0);
		assert_non_null(why);
		if (cases[i].why[0] == '\0' ? why[0] != '\0'
					    : strstr(why, cases[i].why) == NULL)
			fail_msg("\"%s\": reason '%s', want '%s'", cases[i].s,
				 why, cases[i].why);
	}
}

/* ---- counts, bytes ---- */

struct u64_case {
	const char *s;
	int rc;
	uint64_t v;
};

static void
check_u64_cases(int (*fn)(const char *, uint64_t *),
		const struct u64_case *cases, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint64_t v = UINT64_C(0xa5a5a5a5a5a5a5a5);
		int rc = fn(cases[i].s, &v);

		if (rc != cases[i].rc) {
			print_error("\"%s\": rc %d, want %d\n", cases[i].s, rc,
				    cases[i].rc);
			fail();
		}
		if (rc == 0)
			assert_int_equal(v, cases[i].v);
		else
			assert_int_equal(v, UINT64_C(0xa5a5a5a5a5a5a5a5));
	}
}

static void
test_count(void **state)
{
	static const struct u64_case cases[] = {
		{"0", 0, 0},
		{"1", 0, 1},
		{"10", 0, 10},
		{"007", 0, 7},
		{"10K", 0, 10000},
		{"10k", 0, 10000},
		{"10M", 0, 10000000},
		{"10m", 0, 10000000},
		{"3G", 0, UINT64_C(3000000000)},
		{"3g", 0, UINT64_C(3000000000)},
		{"18446744073709551615", 0, UINT64_MAX},
		{"18446744073G", 0, UINT64_C(18446744073000000000)},
		{"18446744073709551616", -ERANGE, 0},
		{"99999999999999999999999", -ERANGE, 0},
		{"18446744074G", -ERANGE, 0},
		{"18446744073709552K", -ERANGE, 0},
		{"", -EINVAL, 0},
		{"K", -EINVAL, 0},
		{"abc", -EINVAL, 0},
		{"10X", -EINVAL, 0},
		{"10KB", -EINVAL, 0},
		{"10KK", -EINVAL, 0},
		{"-1", -EINVAL, 0},
		{"+1", -EINVAL, 0},
		{" 1", -EINVAL, 0},
		{"1 ", -EINVAL, 0},
		{"1.5M", -EINVAL, 0},
		{"0x10", -EINVAL, 0},
		{"1e6", -EINVAL, 0},
	};

	(void)state;
	check_u64_cases(nb_parse_count, cases,
			sizeof(cases) / sizeof(cases[0]));
	assert_int_equal(nb_parse_count(NULL, &(uint64_t){0}), -EINVAL);
}

static void
test_bytes(void **state)
{
	static const struct u64_case cases[] = {
		{"0", 0, 0},
		{"1000", 0, 1000},
		{"1K", 0, 1024},
		{"1k", 0, 1024},
		{"10K", 0, 10240},
		{"1M", 0, 1048576},
		{"3m", 0, 3 * 1048576},
		{"10G", 0, UINT64_C(10) * 1073741824},
		{"10g", 0, UINT64_C(10) * 1073741824},
		{"18446744073709551615", 0, UINT64_MAX},
		{"17179869183G", 0, UINT64_C(17179869183) << 30},
		{"17179869184G", -ERANGE, 0},
		{"18014398509481984K", -ERANGE, 0},
		{"18446744073709551616", -ERANGE, 0},
		{"", -EINVAL, 0},
		{"G", -EINVAL, 0},
		{"10GB", -EINVAL, 0},
		{"10Gi", -EINVAL, 0},
		{"10T", -EINVAL, 0},
		{"-1K", -EINVAL, 0},
		{" 1K", -EINVAL, 0},
		{"1K ", -EINVAL, 0},
		{"1.5K", -EINVAL, 0},
	};

	(void)state;
	check_u64_cases(nb_parse_bytes, cases,
			sizeof(cases) / sizeof(cases[0]));
}

/* ---- seconds ---- */

static void
test_seconds(void **state)
{
	static const struct {
		const char *s;
		double v;
	} good[] = {
		{"0", 0},  {"10", 10},	  {"0.5", 0.5},	    {".25", 0.25},
		{"3.", 3}, {"1e3", 1000}, {"2.5E-1", 0.25}, {"86400", 86400},
	};
	static const struct bad_case bad[] = {
		{"", -EINVAL},	   {"-1", -EINVAL},  {"+1", -EINVAL},
		{"abc", -EINVAL},  {"nan", -EINVAL}, {"inf", -EINVAL},
		{"1s", -EINVAL},   {" 1", -EINVAL},  {"1 ", -EINVAL},
		{"0x10", -EINVAL}, {".", -EINVAL},   {"1e400", -ERANGE},
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		double v = -1;

		assert_int_equal(nb_parse_seconds(good[i].s, &v), 0);
		assert_rel(v, good[i].v);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		double v = -42;
		int rc = nb_parse_seconds(bad[i].s, &v);

		if (rc != bad[i].rc) {
			print_error("\"%s\": rc %d, want %d\n", bad[i].s, rc,
				    bad[i].rc);
			fail();
		}
		assert_true(v == -42);
	}
}

/* ---- u32 ---- */

static void
test_u32(void **state)
{
	static const struct {
		const char *s;
		uint32_t min, max;
		int rc;
		uint32_t v;
	} cases[] = {
		{"0", 0, 10, 0, 0},
		{"10", 0, 10, 0, 10},
		{"5", 5, 5, 0, 5},
		{"4294967295", 0, UINT32_MAX, 0, UINT32_MAX},
		{"0004", 0, 10, 0, 4},
		{"11", 0, 10, -ERANGE, 0},
		{"4", 5, 10, -ERANGE, 0},
		{"4294967296", 0, UINT32_MAX, -ERANGE, 0},
		{"18446744073709551616", 0, UINT32_MAX, -ERANGE, 0},
		{"", 0, 10, -EINVAL, 0},
		{"-1", 0, 10, -EINVAL, 0},
		{"+1", 0, 10, -EINVAL, 0},
		{" 1", 0, 10, -EINVAL, 0},
		{"1 ", 0, 10, -EINVAL, 0},
		{"1K", 0, 10000, -EINVAL, 0},
		{"1.0", 0, 10, -EINVAL, 0},
		{"0x1", 0, 10, -EINVAL, 0},
		{"abc", 0, 10, -EINVAL, 0},
		{"5", 10, 0, -EINVAL, 0},
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t v = 0xa5a5a5a5;
		int rc = nb_parse_u32(cases[i].s, cases[i].min, cases[i].max,
				      &v);

		if (rc != cases[i].rc) {
			print_error("\"%s\" [%u,%u]: rc %d, want %d\n",
				    cases[i].s, cases[i].min, cases[i].max, rc,
				    cases[i].rc);
			fail();
		}
		assert_int_equal(v, rc == 0 ? cases[i].v : 0xa5a5a5a5);
	}
}

/* ---- MAC ---- */

static void
test_mac(void **state)
{
	static const char *const bad[] = {
		"",
		"02:00:00:00:00",	/* short */
		"02:00:00:00:00:0",	/* short */
		"02:00:00:00:00:01:02", /* long */
		"02:00:00:00:00:011",	/* long */
		"02:00:00:00:00:0g",	/* bad hex */
		"x2:00:00:00:00:01",	/* bad hex */
		"02:00:00:00:00001",	/* missing separator */
		"0200:00:00:00:01:",	/* missing separator */
		"02:00-00:00:00:01",	/* mixed separators */
		"02.00.00.00.00.01",	/* wrong separator */
		"2:0:0:0:0:1",		/* single digits */
		" 02:00:00:00:00:01",
		"02:00:00:00:00:01 ",
		"+2:00:00:00:00:01",
	};
	uint8_t mac[6];
	unsigned int i;

	(void)state;
	assert_int_equal(nb_parse_mac("02:00:00:00:00:01", mac), 0);
	assert_memory_equal(mac, ((uint8_t[6]){2, 0, 0, 0, 0, 1}), 6);
	assert_int_equal(nb_parse_mac("AA-bb-Cc-dD-EE-ff", mac), 0);
	assert_memory_equal(
		mac, ((uint8_t[6]){0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff}), 6);
	assert_int_equal(nb_parse_mac("01:23:45:67:89:aB", mac), 0);
	assert_memory_equal(
		mac, ((uint8_t[6]){0x01, 0x23, 0x45, 0x67, 0x89, 0xab}), 6);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc;

		memset(mac, SENTINEL, sizeof(mac));
		rc = nb_parse_mac(bad[i], mac);
		if (rc != -EINVAL) {
			print_error("\"%s\": rc %d\n", bad[i], rc);
			fail();
		}
		assert_true(is_all(mac, sizeof(mac), SENTINEL));
	}
}

/* ---- IPv4 ---- */

static void
test_ipv4(void **state)
{
	static const struct {
		const char *s;
		uint32_t v;
	} good[] = {
		{"192.168.1.2", UINT32_C(0xc0a80102)},
		{"10.0.0.1", UINT32_C(0x0a000001)},
		{"0.0.0.0", 0},
		{"255.255.255.255", UINT32_MAX},
		{"1.2.3.4", UINT32_C(0x01020304)},
	};
	static const struct bad_case bad[] = {
		{"256.1.1.1", -ERANGE}, {"1.2.3.256", -ERANGE},
		{"1.999.3.4", -ERANGE}, {"99999999999.1.1.1", -ERANGE},
		{"1.2.3", -EINVAL},	{"1.2.3.4.5", -EINVAL},
		{"1.2.3.", -EINVAL},	{".1.2.3", -EINVAL},
		{"1..2.3", -EINVAL},	{"1.2.3.4 ", -EINVAL},
		{" 1.2.3.4", -EINVAL},	{"1.2.3.4x", -EINVAL},
		{"a.b.c.d", -EINVAL},	{"1.2.3.-4", -EINVAL},
		{"1.2.+3.4", -EINVAL},	{"01.2.3.4", -EINVAL},
		{"1.2.3.00", -EINVAL},	{"0x1.2.3.4", -EINVAL},
		{"1,2,3,4", -EINVAL},	{"", -EINVAL},
		{"junk", -EINVAL},
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		uint32_t v = 0xa5a5a5a5;

		assert_int_equal(nb_parse_ipv4(good[i].s, &v), 0);
		assert_int_equal(v, good[i].v);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint32_t v = 0xa5a5a5a5;
		int rc = nb_parse_ipv4(bad[i].s, &v);

		if (rc != bad[i].rc) {
			print_error("\"%s\": rc %d, want %d\n", bad[i].s, rc,
				    bad[i].rc);
			fail();
		}
		assert_int_equal(v, 0xa5a5a5a5);
	}
}

/* ---- sizes ---- */

static void
test_sizes_list(void **state)
{
	struct nb_size_list l;

	(void)state;
	assert_int_equal(nb_parse_sizes("64", &l), 0);
	assert_int_equal(l.nb_sizes, 1);
	assert_int_equal(l.sizes[0], 64);
	assert_int_equal(l.nb_pattern, 1);
	assert_int_equal(l.pattern[0], 0);
	assert_rel(nb_sizes_mean(&l), 64);

	assert_int_equal(nb_parse_sizes("64,1518", &l), 0);
	assert_int_equal(l.nb_sizes, 2);
	assert_int_equal(l.sizes[0], 64);
	assert_int_equal(l.sizes[1], 1518);
	assert_int_equal(l.nb_pattern, 2);
	assert_int_equal(l.pattern[0], 0);
	assert_int_equal(l.pattern[1], 1);
	assert_rel(nb_sizes_mean(&l), (64 + 1518) / 2.0);

	assert_int_equal(nb_parse_sizes("64,512,1518", &l), 0);
	assert_int_equal(l.nb_sizes, 3);
	assert_int_equal(l.nb_pattern, 3);
	assert_int_equal(l.sizes[1], 512);
	assert_int_equal(l.pattern[2], 2);

	/* repeats: distinct sizes, pattern keeps the order */
	assert_int_equal(nb_parse_sizes("1518,64,1518,1518", &l), 0);
	assert_int_equal(l.nb_sizes, 2);
	assert_int_equal(l.sizes[0], 1518);
	assert_int_equal(l.sizes[1], 64);
	assert_int_equal(l.nb_pattern, 4);
	assert_memory_equal(l.pattern, ((uint8_t[4]){0, 1, 0, 0}), 4);
	assert_rel(nb_sizes_mean(&l), (3 * 1518 + 64) / 4.0);

	/* bounds inclusive */
	assert_int_equal(nb_parse_sizes("9000,64", &l), 0);
	assert_int_equal(l.sizes[0], 9000);
	assert_int_equal(nb_parse_sizes("0064", &l), 0);
	assert_int_equal(l.sizes[0], 64);
}

static void
test_sizes_imix(void **state)
{
	static const char *const names[] = {"imix", "IMIX", "iMiX"};
	unsigned int n;

	(void)state;
	for (n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
		struct nb_size_list l;
		unsigned int cnt[3] = {0, 0, 0};
		unsigned int i, sum = 0;

		assert_int_equal(nb_parse_sizes(names[n], &l), 0);
		assert_int_equal(l.nb_sizes, 3);
		assert_int_equal(l.sizes[0], 64);
		assert_int_equal(l.sizes[1], 594);
		assert_int_equal(l.sizes[2], 1518);
		assert_int_equal(l.nb_pattern, 12);
		for (i = 0; i < l.nb_pattern; i++) {
			assert_in_range(l.pattern[i], 0, 2);
			cnt[l.pattern[i]]++;
			sum += l.sizes[l.pattern[i]];
		}
		assert_int_equal(cnt[0], 7);
		assert_int_equal(cnt[1], 4);
		assert_int_equal(cnt[2], 1);
		assert_int_equal(sum, 7 * 64 + 4 * 594 + 1518);
		/* spread out: no two non-64 B frames back to back, cyclic */
		for (i = 0; i < l.nb_pattern; i++) {
			unsigned int j = (i + 1) % l.nb_pattern;

			assert_false(l.pattern[i] != 0 && l.pattern[j] != 0);
		}
		assert_rel(nb_sizes_mean(&l), (7 * 64 + 4 * 594 + 1518) / 12.0);
	}
}

static void
test_sizes_bad(void **state)
{
	static const struct bad_case cases[] = {
		{"", -EINVAL},	      {"abc", -EINVAL},
		{"imix2", -EINVAL},   {"imix,64", -EINVAL},
		{",64", -EINVAL},     {"64,", -EINVAL},
		{"64,,128", -EINVAL}, {",", -EINVAL},
		{"64;128", -EINVAL},  {"64 128", -EINVAL},
		{" 64", -EINVAL},     {"64 ", -EINVAL},
		{"-64", -EINVAL},     {"+64", -EINVAL},
		{"64B", -EINVAL},     {"0x40", -EINVAL},
		{"64.0", -EINVAL},    {"63", -ERANGE},
		{"0", -ERANGE},	      {"9001", -ERANGE},
		{"64,9001", -ERANGE}, {"99999999999999999999999", -ERANGE},
	};
	struct nb_size_list l;
	char buf[1024];
	unsigned int i;
	int len;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc;

		memset(&l, SENTINEL, sizeof(l));
		rc = nb_parse_sizes(cases[i].s, &l);
		if (rc != cases[i].rc) {
			print_error("\"%s\": rc %d, want %d\n", cases[i].s, rc,
				    cases[i].rc);
			fail();
		}
		assert_true(is_all(&l, sizeof(l), SENTINEL));
	}

	/* NB_MAX_PATTERN entries is fine, one more is too many */
	len = 0;
	for (i = 0; i < NB_MAX_PATTERN; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%u",
				i ? "," : "", 64 + i % 4);
	assert_int_equal(nb_parse_sizes(buf, &l), 0);
	assert_int_equal(l.nb_pattern, NB_MAX_PATTERN);
	assert_int_equal(l.nb_sizes, 4);
	snprintf(buf + len, sizeof(buf) - len, ",64");
	memset(&l, SENTINEL, sizeof(l));
	assert_int_equal(nb_parse_sizes(buf, &l), -ERANGE);
	assert_true(is_all(&l, sizeof(l), SENTINEL));

	/* NB_MAX_SIZES distinct sizes is fine, one more is too many */
	len = 0;
	for (i = 0; i < NB_MAX_SIZES; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%u",
				i ? "," : "", 64 + i);
	assert_int_equal(nb_parse_sizes(buf, &l), 0);
	assert_int_equal(l.nb_sizes, NB_MAX_SIZES);
	snprintf(buf + len, sizeof(buf) - len, ",1000");
	memset(&l, SENTINEL, sizeof(l));
	assert_int_equal(nb_parse_sizes(buf, &l), -ERANGE);
	assert_true(is_all(&l, sizeof(l), SENTINEL));

	assert_int_equal(nb_parse_sizes(NULL, &l), -EINVAL);
	assert_true(nb_sizes_mean(NULL) == 0.0);
}

/* ---- resolve ---- */

static struct nb_size_list
sizes_of(const char *s)
{
	struct nb_size_list l;

	assert_int_equal(nb_parse_sizes(s, &l), 0);
	return l;
}

static struct nb_rate
resolve(const char *rate, const char *sizes, uint64_t link)
{
	struct nb_size_list l = sizes_of(sizes);
	struct nb_rate_spec spec;
	struct nb_rate r;

	assert_int_equal(nb_parse_rate(rate, &spec), 0);
	memset(&r, SENTINEL, sizeof(r));
	assert_int_equal(nb_rate_resolve(&spec, &l, link, &r), 0);
	assert_int_equal(r.unlimited, 0);
	assert_true(r.pps_num != 0);
	assert_true(r.pps_den != 0);
	return r;
}

static double
pps_of(struct nb_rate r)
{
	return (double)r.pps_num / (double)r.pps_den;
}

static void
test_resolve_line_rate(void **state)
{
	struct nb_rate r;

	(void)state;
	/* 10G L1 at 64 B: the classic 14880952.38 pps */
	r = resolve("10G", "64", 0);
	assert_ratio(r.pps_num, r.pps_den, UINT64_C(10000000000), 672);
	assert_rel(pps_of(r), 10e9 / ((64 + 20) * 8));
	assert_true(fabs(pps_of(r) - 14880952.38) < 0.005);
	r = resolve("10Gl1", "64", 0);
	assert_ratio(r.pps_num, r.pps_den, UINT64_C(10000000000), 672);
	r = resolve("10Gbps", "64", 0);
	assert_ratio(r.pps_num, r.pps_den, UINT64_C(10000000000), 672);

	/* 10G L1 at 1518 B: 812743.82 pps */
	r = resolve("10G", "1518", 0);
	assert_ratio(r.pps_num, r.pps_den, UINT64_C(10000000000),
		     (1518 + 20) * 8);
	assert_rel(pps_of(r), 10e9 / ((1518 + 20) * 8));
	assert_true(fabs(pps_of(r) - 812743.82) < 0.005);

	/* 100G, 25G, 1G, 2.5G */
	r = resolve("100G", "64", 0);
	assert_rel(pps_of(r), 100e9 / 672);
	r = resolve("25G", "9000", 0);
	assert_ratio(r.pps_num, r.pps_den, UINT64_C(25000000000),
		     (9000 + 20) * 8);
	r = resolve("1G", "64", 0);
	assert_rel(pps_of(r), 1488095.238095238);
	r = resolve("2.5G", "128", 0);
	assert_ratio(r.pps_num, r.pps_den, UINT64_C(2500000000),
		     (128 + 20) * 8);

	/* bits/s rounded to an integer first */
	r = resolve("1000.4", "64", 0);
	assert_ratio(r.pps_num, r.pps_den, 1000, 672);
	r = resolve("1000.6", "64", 0);
	assert_ratio(r.pps_num, r.pps_den, 1001, 672);

	/* a list: average of L1 bits over the pattern */
	r = resolve("10G", "64,1518", 0);
	assert_ratio(r.pps_num, r.pps_den, UINT64_C(20000000000),
		     (84 + 1538) * 8);
	r = resolve("10G", "1518,64,1518,1518", 0);
	assert_ratio(r.pps_num, r.pps_den, UINT64_C(40000000000),
		     (84 + 3 * 1538) * 8);
}

static void
test_resolve_l2(void **state)
{
	struct nb_rate r;

	(void)state;
	r = resolve("10Gl2", "64", 0);
	assert_ratio(r.pps_num, r.pps_den, 19531250, 1);
	assert_rel(pps_of(r), 10e9 / (64 * 8));
	r = resolve("10GL2", "1518", 0);
	assert_ratio(r.pps_num, r.pps_den, UINT64_C(10000000000), 1518 * 8);
	r = resolve("100Ml2", "64,1518", 0);
	assert_ratio(r.pps_num, r.pps_den, 200000000, (64 + 1518) * 8);
	r = resolve("1Gl2", "imix", 0);
	assert_ratio(r.pps_num, r.pps_den, UINT64_C(12000000000),
		     (7 * 64 + 4 * 594 + 1518) * 8);
}

static void
test_resolve_pps(void **state)
{
	struct nb_rate r;

	(void)state;
	r = resolve("14.88Mpps", "64", 0);
	assert_ratio(r.pps_num, r.pps_den, 14880000, 1);
	r = resolve("1000pps", "1518", 0);
	assert_ratio(r.pps_num, r.pps_den, 1000, 1);
	r = resolve("500Kpps", "imix", 0);
	assert_ratio(r.pps_num, r.pps_den, 500000, 1);
	r = resolve("0.5pps", "64", 0);
	assert_ratio(r.pps_num, r.pps_den, 1, 2);
	r = resolve("333.333pps", "64", 0);
	assert_ratio(r.pps_num, r.pps_den, 333333, 1000);
	r = resolve("14880952.38pps", "64", 0);
	assert_ratio(r.pps_num, r.pps_den, UINT64_C(14880952380), 1000);
	/* rounded to 1/1000 pps */
	r = resolve("1.0004pps", "64", 0);
	assert_ratio(r.pps_num, r.pps_den, 1, 1);
	r = resolve("1.2346pps", "64", 0);
	assert_ratio(r.pps_num, r.pps_den, 1235, 1000);
	/* the size list does not matter for pps */
	r = resolve("1Mpps", "64,9000", 0);
	assert_ratio(r.pps_num, r.pps_den, 1000000, 1);
}

static void
test_resolve_percent(void **state)
{
	struct nb_rate r;

	(void)state;
	r = resolve("100%", "64", UINT64_C(10000000000));
	assert_ratio(r.pps_num, r.pps_den, UINT64_C(10000000000), 672);
	r = resolve("50%", "64", UINT64_C(10000000000));
	assert_ratio(r.pps_num, r.pps_den, UINT64_C(5000000000), 672);
	r = resolve("99.5%", "1518", UINT64_C(10000000000));
	assert_ratio(r.pps_num, r.pps_den, UINT64_C(9950000000), 1538 * 8);
	r = resolve("40%", "64", UINT64_C(25000000000));
	assert_ratio(r.pps_num, r.pps_den, UINT64_C(10000000000), 672);
	r = resolve("100%", "64", UINT64_C(25000000000));
	assert_rel(pps_of(r), 25e9 / 672);
	r = resolve("33.3%", "imix", UINT64_C(25000000000));
	assert_ratio(r.pps_num, r.pps_den, UINT64_C(8325000000) * 12, 36656);
	/* bps rounded to an integer: 0.0001% of 10G = 10000 bps */
	r = resolve("0.0001%", "64", UINT64_C(10000000000));
	assert_ratio(r.pps_num, r.pps_den, 10000, 672);
}

static void
test_resolve_imix(void **state)
{
	struct nb_rate r;
	double mean;

	(void)state;
	/* sum of L1 bits over the 12-frame pattern */
	assert_int_equal((7 * (64 + 20) + 4 * (594 + 20) + (1518 + 20)) * 8,
			 36656);
	r = resolve("10G", "imix", 0);
	assert_ratio(r.pps_num, r.pps_den, UINT64_C(120000000000), 36656);
	mean = (7 * 64 + 4 * 594 + 1518) / 12.0;
	assert_rel(pps_of(r), 10e9 / ((mean + 20) * 8));
	r = resolve("100%", "imix", UINT64_C(100000000000));
	assert_rel(pps_of(r), 100e9 / ((mean + 20) * 8));
}

static void
test_resolve_errors(void **state)
{
	struct nb_size_list l = sizes_of("64");
	struct nb_size_list bad;
	struct nb_rate_spec spec;
	struct nb_rate r;

	(void)state;
	/* max */
	assert_int_equal(nb_parse_rate("max", &spec), 0);
	memset(&r, SENTINEL, sizeof(r));
	assert_int_equal(nb_rate_resolve(&spec, &l, 0, &r), 0);
	assert_int_equal(r.unlimited, 1);
	assert_int_equal(r.pps_num, 0);
	assert_int_equal(nb_rate_resolve(&spec, NULL, 0, &r), 0);
	assert_int_equal(r.unlimited, 1);

	/* percent of an unknown link speed */
	assert_int_equal(nb_parse_rate("50%", &spec), 0);
	memset(&r, SENTINEL, sizeof(r));
	assert_int_equal(nb_rate_resolve(&spec, &l, 0, &r), -ENOTSUP);
	assert_true(is_all(&r, sizeof(r), SENTINEL));
	assert_int_equal(nb_parse_rate("100%", &spec), 0);
	assert_int_equal(nb_rate_resolve(&spec, &l, 0, &r), -ENOTSUP);

	/* rounds to zero */
	assert_int_equal(nb_parse_rate("0.4", &spec), 0);
	assert_int_equal(nb_rate_resolve(&spec, &l, 0, &r), -ERANGE);
	assert_int_equal(nb_parse_rate("0.0004pps", &spec), 0);
	assert_int_equal(nb_rate_resolve(&spec, &l, 0, &r), -ERANGE);

	/* overflow (nb_parse_rate refuses such rates; resolve still copes) */
	spec.kind = NB_RATE_BPS_L1;
	spec.value = 1e20;
	assert_int_equal(nb_rate_resolve(&spec, &l, 0, &r), -ERANGE);
	spec.kind = NB_RATE_PPS;
	spec.value = 1e17;
	assert_int_equal(nb_rate_resolve(&spec, &l, 0, &r), -ERANGE);
	{
		/*
		 * bps = 2^64 - 2^11 = 2^11 * (2^53 - 1); 63 frames, 62 of
		 * 65 B and one of 67 B: L1 bits = 8 * 5357 (5357 = 11 * 487,
		 * coprime with 63 and with 2^53 - 1), so the reduced
		 * numerator is 2^8 * (2^53 - 1) * 63 > 2^64.
		 */
		struct nb_size_list big;
		unsigned int i;

		memset(&big, 0, sizeof(big));
		big.nb_sizes = 2;
		big.sizes[0] = 65;
		big.sizes[1] = 67;
		big.nb_pattern = 63;
		for (i = 0; i < 62; i++)
			big.pattern[i] = 0;
		big.pattern[62] = 1;
		spec.kind = NB_RATE_BPS_L1;
		spec.value = 18446744073709549568.0;
		memset(&r, SENTINEL, sizeof(r));
		assert_int_equal(nb_rate_resolve(&spec, &big, 0, &r), -ERANGE);
		assert_true(is_all(&r, sizeof(r), SENTINEL));
		/* the same rate over one 65 B frame fits */
		big.nb_pattern = 1;
		assert_int_equal(nb_rate_resolve(&spec, &big, 0, &r), 0);
		assert_ratio(r.pps_num, r.pps_den,
			     UINT64_C(18446744073709549568), 680);
	}

	/* bad arguments */
	assert_int_equal(nb_parse_rate("10G", &spec), 0);
	assert_int_equal(nb_rate_resolve(&spec, NULL, 0, &r), -EINVAL);
	assert_int_equal(nb_rate_resolve(NULL, &l, 0, &r), -EINVAL);
	assert_int_equal(nb_rate_resolve(&spec, &l, 0, NULL), -EINVAL);
	bad = l;
	bad.nb_pattern = 0;
	assert_int_equal(nb_rate_resolve(&spec, &bad, 0, &r), -EINVAL);
	bad = l;
	bad.pattern[0] = 1; /* index past nb_sizes */
	assert_int_equal(nb_rate_resolve(&spec, &bad, 0, &r), -EINVAL);
	spec.kind = NB_RATE_PERCENT;
	spec.value = 150;
	assert_int_equal(nb_rate_resolve(&spec, &l, UINT64_C(10000000000), &r),
			 -ERANGE);
	spec.kind = NB_RATE_PPS;
	spec.value = NAN;
	assert_int_equal(nb_rate_resolve(&spec, &l, 0, &r), -EINVAL);
	spec.value = -5;
	assert_int_equal(nb_rate_resolve(&spec, &l, 0, &r), -ERANGE);
	spec.kind = (enum nb_rate_kind)42;
	assert_int_equal(nb_rate_resolve(&spec, &l, 0, &r), -EINVAL);
}

static void
test_rate_bps_inverse(void **state)
{
	static const char *const lists[] = {
		"64",
		"128",
		"1518",
		"9000",
		"64,1518",
		"imix",
		"64,65,66,67,68,69,70,71,1500,1501",
	};
	static const char *const l1[] = {"10G",	     "25G",  "1G",  "2.5G",
					 "123.456M", "100K", "1000"};
	static const char *const l2[] = {"10Gl2", "40Gl2", "1.5Gl2", "77Ml2"};
	unsigned int i, j;

	(void)state;
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		struct nb_size_list l = sizes_of(lists[i]);
		double mean = nb_sizes_mean(&l);

		for (j = 0; j < sizeof(l1) / sizeof(l1[0]); j++) {
			struct nb_rate_spec spec;
			struct nb_rate r = resolve(l1[j], lists[i], 0);

			assert_int_equal(nb_parse_rate(l1[j], &spec), 0);
			assert_rel(nb_rate_l1_bps(pps_of(r), &l), spec.value);
			assert_rel(nb_rate_l2_bps(pps_of(r), &l),
				   spec.value * mean / (mean + 20));
		}
		for (j = 0; j < sizeof(l2) / sizeof(l2[0]); j++) {
			struct nb_rate_spec spec;
			struct nb_rate r = resolve(l2[j], lists[i], 0);

			assert_int_equal(nb_parse_rate(l2[j], &spec), 0);
			assert_rel(nb_rate_l2_bps(pps_of(r), &l), spec.value);
			assert_rel(nb_rate_l1_bps(pps_of(r), &l),
				   spec.value * (mean + 20) / mean);
		}
	}
	/* plain numbers */
	{
		struct nb_size_list l = sizes_of("64");

		assert_rel(nb_rate_l1_bps(1e6, &l), 1e6 * 84 * 8);
		assert_rel(nb_rate_l2_bps(1e6, &l), 1e6 * 64 * 8);
		assert_true(nb_rate_l1_bps(1e6, NULL) == 0.0);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate_good),
		cmocka_unit_test(test_rate_bad),
		cmocka_unit_test(test_rate_bounds),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_u32),
		cmocka_unit_test(test_mac),
		cmocka_unit_test(test_ipv4),
		cmocka_unit_test(test_sizes_list),
		cmocka_unit_test(test_sizes_imix),
		cmocka_unit_test(test_sizes_bad),
		cmocka_unit_test(test_resolve_line_rate),
		cmocka_unit_test(test_resolve_l2),
		cmocka_unit_test(test_resolve_pps),
		cmocka_unit_test(test_resolve_percent),
		cmocka_unit_test(test_resolve_imix),
		cmocka_unit_test(test_resolve_errors),
		cmocka_unit_test(test_rate_bps_inverse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
