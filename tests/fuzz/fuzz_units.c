/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: the unit parsers (nb_units.h).
 *
 * Input byte 0 picks the parser; for nb_parse_u32 the next 8 bytes are min
 * and max; the rest is the string (up to its first NUL).  Checked: the
 * result is 0, -EINVAL or -ERANGE; *out is never written on failure; what
 * is accepted is in range (sizes, rates, u32 bounds), and counts, MACs
 * and IPv4 addresses printed back parse to the same value.  A rate that
 * parses is resolved against a few size lists and link speeds.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include "nb_units.h"

#include "nb_fuzz.h"

#define RC_OK(r) ((r) == 0 || (r) == -EINVAL || (r) == -ERANGE)

static void
check_rate(const char *s)
{
	static const char *const lists[] = {"64", "imix", "64,1518", "9000"};
	static const uint64_t links[] = {0, 1, 10000000000ull, UINT64_MAX};
	struct nb_rate_spec spec, g;
	struct nb_size_list l;
	struct nb_rate rate;
	size_t i, j;
	int r;

	memset(&spec, 0x5a, sizeof(spec));
	g = spec;
	r = nb_parse_rate(s, &spec);
	NB_FUZZ_CHECK(RC_OK(r));
	if (r != 0) {
		NB_FUZZ_CHECK(memcmp(&spec, &g, sizeof(g)) == 0);
		return;
	}
	NB_FUZZ_CHECK(spec.kind >= NB_RATE_MAX &&
		      spec.kind <= NB_RATE_PERCENT);
	if (spec.kind == NB_RATE_MAX)
		NB_FUZZ_CHECK(spec.value == 0);
	else
		NB_FUZZ_CHECK(isfinite(spec.value) && spec.value > 0);
	if (spec.kind == NB_RATE_PERCENT)
		NB_FUZZ_CHECK(spec.value <= 100);
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		NB_FUZZ_CHECK(nb_parse_sizes(lists[i], &l) == 0);
		for (j = 0; j < sizeof(links) / sizeof(links[0]); j++) {
			memset(&rate, 0, sizeof(rate));
			r = nb_rate_resolve(&spec, &l, links[j], &rate);
			NB_FUZZ_CHECK(RC_OK(r) || r == -ENOTSUP);
			if (r == -ENOTSUP)
				NB_FUZZ_CHECK(spec.kind == NB_RATE_PERCENT &&
					      links[j] == 0);
			if (r == 0 && !rate.unlimited) {
				NB_FUZZ_CHECK(rate.pps_den != 0);
				(void)nb_rate_l1_bps((double)rate.pps_num /
							     (double)rate.pps_den,
						     &l);
				(void)nb_rate_l2_bps((double)rate.pps_num /
							     (double)rate.pps_den,
						     &l);
			}
		}
	}
}

static void
check_count(const char *s, int bytes)
{
	uint64_t v = 0x5a5a5a5a5a5a5a5aull, w;
	char txt[32];
	int r = bytes ? nb_parse_bytes(s, &v) : nb_parse_count(s, &v);

	NB_FUZZ_CHECK(RC_OK(r));
	if (r != 0) {
		NB_FUZZ_CHECK(v == 0x5a5a5a5a5a5a5a5aull);
		return;
	}
	snprintf(txt, sizeof(txt), "%" PRIu64, v);
	NB_FUZZ_CHECK((bytes ? nb_parse_bytes(txt, &w)
			     : nb_parse_count(txt, &w)) == 0 &&
		      w == v);
}

static void
check_seconds(const char *s)
{
	double v = -42.0;
	int r = nb_parse_seconds(s, &v);

	NB_FUZZ_CHECK(RC_OK(r));
	if (r != 0)
		NB_FUZZ_CHECK(v == -42.0);
	else
		NB_FUZZ_CHECK(isfinite(v) && v >= 0);
}

static void
check_u32(struct nb_fuzz_in *in)
{
	uint32_t min = nb_fuzz_u32(in), max = nb_fuzz_u32(in), v = 0xa5a5a5a5;
	char *str = nb_fuzz_str(in->p, in->n);
	int r = nb_parse_u32(str, min, max, &v);

	NB_FUZZ_CHECK(RC_OK(r));
	if (r != 0)
		NB_FUZZ_CHECK(v == 0xa5a5a5a5);
	else
		NB_FUZZ_CHECK(v >= min && v <= max);
	free(str);
}

static void
check_mac(const char *s)
{
	uint8_t mac[6], back[6], g[6];
	char txt[32];
	int r;

	memset(mac, 0x5a, sizeof(mac));
	memcpy(g, mac, sizeof(g));
	r = nb_parse_mac(s, mac);
	NB_FUZZ_CHECK(RC_OK(r));
	if (r != 0) {
		NB_FUZZ_CHECK(memcmp(mac, g, 6) == 0);
		return;
	}
	snprintf(txt, sizeof(txt), "%02x:%02x:%02x:%02x:%02x:%02x", mac[0],
		 mac[1], mac[2], mac[3], mac[4], mac[5]);
	NB_FUZZ_CHECK(nb_parse_mac(txt, back) == 0);
	NB_FUZZ_CHECK(memcmp(mac, back, 6) == 0);
}

static void
check_ipv4(const char *s)
{
	uint32_t v = 0x5a5a5a5a, w;
	char txt[32];
	int r = nb_parse_ipv4(s, &v);

	NB_FUZZ_CHECK(RC_OK(r));
	if (r != 0) {
		NB_FUZZ_CHECK(v == 0x5a5a5a5a);
		return;
	}
	snprintf(txt, sizeof(txt), "%u.%u.%u.%u", v >> 24, (v >> 16) & 0xff,
		 (v >> 8) & 0xff, v & 0xff);
	NB_FUZZ_CHECK(nb_parse_ipv4(txt, &w) == 0 && w == v);
}

static void
check_sizes(const char *s)
{
	struct nb_size_list l, g;
	double mean;
	uint16_t i, j;
	int r;

	memset(&l, 0x5a, sizeof(l));
	g = l;
	r = nb_parse_sizes(s, &l);
	NB_FUZZ_CHECK(RC_OK(r));
	if (r != 0) {
		NB_FUZZ_CHECK(memcmp(&l, &g, sizeof(l)) == 0);
		return;
	}
	NB_FUZZ_CHECK(l.nb_sizes >= 1 && l.nb_sizes <= NB_MAX_SIZES);
	NB_FUZZ_CHECK(l.nb_pattern >= 1 && l.nb_pattern <= NB_MAX_PATTERN);
	for (i = 0; i < l.nb_sizes; i++) {
		NB_FUZZ_CHECK(l.sizes[i] >= NB_FRAME_MIN &&
			      l.sizes[i] <= NB_FRAME_MAX);
		for (j = 0; j < i; j++)
			NB_FUZZ_CHECK(l.sizes[i] != l.sizes[j]);
	}
	for (i = 0; i < l.nb_pattern; i++)
		NB_FUZZ_CHECK(l.pattern[i] < l.nb_sizes);
	mean = nb_sizes_mean(&l);
	NB_FUZZ_CHECK(mean >= NB_FRAME_MIN && mean <= NB_FRAME_MAX);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nb_fuzz_in in = {data, size};
	uint8_t op = nb_fuzz_u8(&in) % 8;
	char *s;

	if (op == 5) {
		check_u32(&in);
		return 0;
	}
	s = nb_fuzz_str(in.p, in.n);
	switch (op) {
	case 0:
		check_rate(s);
		break;
	case 1:
		check_count(s, 0);
		break;
	case 2:
		check_count(s, 1);
		break;
	case 3:
		check_seconds(s);
		break;
	case 4:
		check_sizes(s);
		break;
	case 6:
		check_mac(s);
		break;
	default:
		check_ipv4(s);
		break;
	}
	free(s);
	return 0;
}
