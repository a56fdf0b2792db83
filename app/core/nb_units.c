/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Parsing of user-facing quantities.  See nb_units.h.
 *
 * Exact grammar accepted (letters in suffixes are case-insensitive; nothing
 * else is accepted: no whitespace anywhere, no sign, no hex, no "inf"/"nan"):
 *
 *   DIGITS   := [0-9]+
 *   NUMBER   := ( DIGITS [ "." [DIGITS] ] | "." DIGITS )
 *               [ ("e" | "E") ["+" | "-"] DIGITS ]
 *   MULT     := "K" | "M" | "G"                (1e3, 1e6, 1e9; "m" is mega)
 *
 *   rate     := "max"                          -> NB_RATE_MAX
 *             | NUMBER [MULT] [ "bps" | "l1" ] -> NB_RATE_BPS_L1
 *             | NUMBER [MULT] "l2"             -> NB_RATE_BPS_L2
 *             | NUMBER [MULT] "pps"            -> NB_RATE_PPS
 *             | NUMBER "%"                     -> NB_RATE_PERCENT
 *     e.g. "10G", "10Gbps", "10gl1", "2.5G", "1000", "100Ml2", "14.88Mpps",
 *     "500kpps", "1000pps", "50%", "99.5%".  The value after applying MULT
 *     must be finite and > 0, at most NB_RATE_MAX_BPS bits/s or
 *     NB_RATE_MAX_PPS packets/s (else -ERANGE); a percentage must be in
 *     (0, 100] (else -ERANGE).  "T" is no multiplier: 10 Tbit/s is
 *     "10000G".
 *
 *   count    := DIGITS [MULT]                  decimal multipliers
 *   bytes    := DIGITS [MULT]                  K/M/G = 2^10/2^20/2^30
 *   seconds  := NUMBER                         (>= 0 by construction)
 *   u32      := DIGITS                         in [min, max], else -ERANGE
 *   mac      := HH SEP HH SEP HH SEP HH SEP HH SEP HH
 *               HH = two hex digits, SEP = ":" or "-" (the same throughout)
 *   ipv4     := OCTET "." OCTET "." OCTET "." OCTET
 *               OCTET = DIGITS without a leading zero (except "0" itself),
 *               value <= 255 (else -ERANGE)
 *   sizes    := "imix" | SIZE { "," SIZE }
 *               SIZE = DIGITS in [NB_FRAME_MIN, NB_FRAME_MAX] (else -ERANGE);
 *               more than NB_MAX_PATTERN sizes, or more than NB_MAX_SIZES
 *               distinct ones, is -ERANGE; an empty element is -EINVAL.
 *
 * Numeric overflow (a value that does not fit its type, or a NUMBER that
 * strtod reports as out of range, e.g. "1e400") is -ERANGE.  Any other
 * syntax error, including "", is -EINVAL.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nb_math.h"
#include "nb_units.h"

/* Bytes of preamble + SFD + inter-frame gap per frame on the wire. */
#define NB_L1_OVERHEAD 20

/* imix: 64/594/1518 in 7:4:1, no two non-64 B frames adjacent (cyclically). */
static const uint16_t imix_sizes[] = {64, 594, 1518};
static const uint8_t imix_pattern[] = {0, 1, 0, 0, 1, 0, 2, 0, 1, 0, 0, 1};

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
to_lower(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 'a';
	return (unsigned char)c;
}

/* Case-insensitive (ASCII) equality of two strings. */
static int
streq_ci(const char *a, const char *b)
{
	while (*a != '\0' && *b != '\0') {
		if (to_lower(*a) != to_lower(*b))
			return 0;
		a++;
		b++;
	}
	return *a == '\0' && *b == '\0';
}

static int
hex_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Scan a NUMBER (see grammar above) at s.  Returns a pointer past it, or
 * NULL if s does not start with one.
 */
static const char *
scan_number(const char *s)
{
	const char *p = s;
	unsigned int digits = 0;

	while (is_digit(*p)) {
		p++;
		digits++;
	}
	if (*p == '.') {
		p++;
		while (is_digit(*p)) {
			p++;
			digits++;
		}
	}
	if (digits == 0)
		return NULL;
	if (*p == 'e' || *p == 'E') {
		const char *q = p + 1;

		if (*q == '+' || *q == '-')
			q++;
		if (is_digit(*q)) {
			while (is_digit(*q))
				q++;
			p = q;
		}
	}
	return p;
}

/*
 * Parse a NUMBER at the start of s; *end is set past it.  Returns 0,
 * -EINVAL (no number) or -ERANGE (strtod overflow/underflow).
 */
static int
parse_number(const char *s, double *v, const char **end)
{
	const char *e = scan_number(s);
	char *se;
	double d;

	if (e == NULL)
		return -EINVAL;
	errno = 0;
	d = strtod(s, &se);
	if (se != e)
		return -EINVAL;
	if (errno == ERANGE || !isfinite(d))
		return -ERANGE;
	*v = d;
	*end = e;
	return 0;
}

/* DIGITS [K|M|G] with the given multipliers. */
static int
parse_uint_mult(const char *s, uint64_t k, uint64_t m, uint64_t g,
		uint64_t *out)
{
	unsigned long long v;
	uint64_t mult = 1;
	char *end;

	if (s == NULL || out == NULL || !is_digit(s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno != 0)
		return -EINVAL;
	switch (to_lower(*end)) {
	case '\0':
		break;
	case 'k':
		mult = k;
		end++;
		break;
	case 'm':
		mult = m;
		end++;
		break;
	case 'g':
		mult = g;
		end++;
		break;
	default:
		return -EINVAL;
	}
	if (*end != '\0')
		return -EINVAL;
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	*out = (uint64_t)v * mult;
	return 0;
}

/*
 * nb_parse_rate(), with the reason for a refusal (a static string; "" for
 * a syntax error, which the caller explains with examples).
 */
static int
parse_rate(const char *s, struct nb_rate_spec *out, const char **why)
{
	enum nb_rate_kind kind;
	const char *p;
	double v, mult = 1.0;
	int rc;

	*why = "";
	if (s == NULL || out == NULL)
		return -EINVAL;
	if (streq_ci(s, "max")) {
		out->kind = NB_RATE_MAX;
		out->value = 0.0;
		return 0;
	}
	rc = parse_number(s, &v, &p);
	if (rc == -ERANGE)
		*why = "the number is out of range";
	if (rc != 0)
		return rc;

	if (strcmp(p, "%") == 0) {
		if (!(v > 0.0 && v <= 100.0)) {
			*why = "a percentage of the link speed is above 0 and "
			       "at most 100 (give max for as fast as the port "
			       "takes frames)";
			return -ERANGE;
		}
		out->kind = NB_RATE_PERCENT;
		out->value = v;
		return 0;
	}

	switch (to_lower(*p)) {
	case 'k':
		mult = 1e3;
		p++;
		break;
	case 'm':
		mult = 1e6;
		p++;
		break;
	case 'g':
		mult = 1e9;
		p++;
		break;
	default:
		break;
	}
	if (*p == '\0' || streq_ci(p, "bps") || streq_ci(p, "l1"))
		kind = NB_RATE_BPS_L1;
	else if (streq_ci(p, "l2"))
		kind = NB_RATE_BPS_L2;
	else if (streq_ci(p, "pps"))
		kind = NB_RATE_PPS;
	else
		return -EINVAL;

	v *= mult;
	if (!isfinite(v) || !(v > 0.0)) {
		*why = isfinite(v) ? "a rate must be above 0 (give max for as "
				     "fast as the port takes frames)"
				   : "the number is out of range";
		return -ERANGE;
	}
	if (kind == NB_RATE_PPS && v > NB_RATE_MAX_PPS) {
		*why = "above the largest packet rate, 10 Gpps (10Gpps)";
		return -ERANGE;
	}
	if (kind != NB_RATE_PPS && v > NB_RATE_MAX_BPS) {
		*why = "above the largest bit rate, 10 Tbit/s (10000G)";
		return -ERANGE;
	}
	out->kind = kind;
	out->value = v;
	return 0;
}

int
nb_parse_rate(const char *s, struct nb_rate_spec *out)
{
	const char *why;

	return parse_rate(s, out, &why);
}

const char *
nb_rate_error(const char *s)
{
	struct nb_rate_spec tmp;
	const char *why;

	if (parse_rate(s, &tmp, &why) == 0)
		return NULL;
	return why;
}

int
nb_parse_count(const char *s, uint64_t *out)
{
	return parse_uint_mult(s, UINT64_C(1000), UINT64_C(1000000),
			       UINT64_C(1000000000), out);
}

int
nb_parse_bytes(const char *s, uint64_t *out)
{
	return parse_uint_mult(s, UINT64_C(1) << 10, UINT64_C(1) << 20,
			       UINT64_C(1) << 30, out);
}

int
nb_parse_seconds(const char *s, double *out)
{
	const char *end;
	double v;
	int rc;

	if (s == NULL || out == NULL)
		return -EINVAL;
	rc = parse_number(s, &v, &end);
	if (rc != 0)
		return rc;
	if (*end != '\0')
		return -EINVAL;
	if (!(v >= 0.0))
		return -ERANGE;
	*out = v;
	return 0;
}

int
nb_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (s == NULL || out == NULL || min > max || !is_digit(s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end != '\0')
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	if (errno != 0)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = (uint32_t)v;
	return 0;
}

int
nb_parse_mac(const char *s, uint8_t mac[6])
{
	uint8_t tmp[6];
	char sep;
	int i;

	if (s == NULL || mac == NULL)
		return -EINVAL;
	if (strlen(s) != 17)
		return -EINVAL;
	sep = s[2];
	if (sep != ':' && sep != '-')
		return -EINVAL;
	for (i = 0; i < 6; i++) {
		int hi = hex_val(s[3 * i]);
		int lo = hex_val(s[3 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		if (i < 5 && s[3 * i + 2] != sep)
			return -EINVAL;
		tmp[i] = (uint8_t)(hi << 4 | lo);
	}
	memcpy(mac, tmp, sizeof(tmp));
	return 0;
}

int
nb_parse_ipv4(const char *s, uint32_t *out)
{
	const char *p = s;
	uint32_t addr = 0;
	int i;

	if (s == NULL || out == NULL)
		return -EINVAL;
	for (i = 0; i < 4; i++) {
		unsigned int v = 0;
		const char *start = p;

		if (!is_digit(*p))
			return -EINVAL;
		while (is_digit(*p)) {
			if (v <= 255)
				v = v * 10 + (unsigned int)(*p - '0');
			p++;
		}
		if (*start == '0' && p - start > 1)
			return -EINVAL; /* leading zero: octal is ambiguous */
		if (i < 3) {
			if (*p != '.')
				return -EINVAL;
			p++;
		} else if (*p != '\0') {
			return -EINVAL;
		}
		if (v > 255)
			return -ERANGE;
		addr = addr << 8 | v;
	}
	*out = addr;
	return 0;
}

int
nb_parse_sizes(const char *s, struct nb_size_list *out)
{
	struct nb_size_list l;
	const char *p = s;

	if (s == NULL || out == NULL)
		return -EINVAL;
	memset(&l, 0, sizeof(l));

	if (streq_ci(s, "imix")) {
		l.nb_sizes = sizeof(imix_sizes) / sizeof(imix_sizes[0]);
		memcpy(l.sizes, imix_sizes, sizeof(imix_sizes));
		l.nb_pattern = sizeof(imix_pattern) / sizeof(imix_pattern[0]);
		memcpy(l.pattern, imix_pattern, sizeof(imix_pattern));
		*out = l;
		return 0;
	}

	for (;;) {
		uint32_t v = 0;
		uint16_t idx;

		if (!is_digit(*p))
			return -EINVAL; /* empty element or junk */
		while (is_digit(*p)) {
			if (v <= NB_FRAME_MAX)
				v = v * 10 + (uint32_t)(*p - '0');
			p++;
		}
		if (*p != ',' && *p != '\0')
			return -EINVAL;
		if (v < NB_FRAME_MIN || v > NB_FRAME_MAX)
			return -ERANGE;
		if (l.nb_pattern >= NB_MAX_PATTERN)
			return -ERANGE;
		for (idx = 0; idx < l.nb_sizes; idx++)
			if (l.sizes[idx] == v)
				break;
		if (idx == l.nb_sizes) {
			if (l.nb_sizes >= NB_MAX_SIZES)
				return -ERANGE;
			l.sizes[l.nb_sizes++] = (uint16_t)v;
		}
		l.pattern[l.nb_pattern++] = (uint8_t)idx;
		if (*p == '\0')
			break;
		p++; /* ',' */
	}
	*out = l;
	return 0;
}

/*
 * Sum over one pattern cycle of (size + overhead) * 8 bits.  Returns 0 or
 * -EINVAL for an empty or inconsistent list.
 */
static int
pattern_bits(const struct nb_size_list *l, unsigned int overhead, uint64_t *sum)
{
	uint64_t t = 0;
	unsigned int i;

	if (l == NULL || l->nb_pattern == 0 || l->nb_pattern > NB_MAX_PATTERN ||
	    l->nb_sizes == 0 || l->nb_sizes > NB_MAX_SIZES)
		return -EINVAL;
	for (i = 0; i < l->nb_pattern; i++) {
		uint16_t sz;

		if (l->pattern[i] >= l->nb_sizes)
			return -EINVAL;
		sz = l->sizes[l->pattern[i]];
		if (sz < NB_FRAME_MIN || sz > NB_FRAME_MAX)
			return -EINVAL;
		t += ((uint64_t)sz + overhead) * 8;
	}
	*sum = t;
	return 0;
}

double
nb_sizes_mean(const struct nb_size_list *l)
{
	uint64_t bits;

	if (pattern_bits(l, 0, &bits) != 0)
		return 0.0;
	return (double)bits / 8.0 / (double)l->nb_pattern;
}

/* Round a finite v >= 0 to the nearest uint64_t, or -ERANGE. */
static int
round_u64(double v, uint64_t *out)
{
	double r;

	if (!isfinite(v) || v < 0.0)
		return -ERANGE;
	r = round(v);
	if (r >= 18446744073709551616.0) /* 2^64 */
		return -ERANGE;
	*out = (uint64_t)r;
	return 0;
}

/* out = num / den reduced, or -ERANGE if it does not fit. */
static int
make_rate(uint64_t a, uint64_t b, uint64_t den, struct nb_rate *out)
{
	/* num = a * b; cancel common factors with den before multiplying */
	nb_reduce_u64(&a, &den);
	nb_reduce_u64(&b, &den);
	if (a == 0 || b == 0 || den == 0)
		return -ERANGE;
	if (a > UINT64_MAX / b)
		return -ERANGE;
	out->unlimited = 0;
	out->pps_num = a * b;
	out->pps_den = den;
	return 0;
}

static int
resolve_bps(double bps_d, const struct nb_size_list *sizes,
	    unsigned int overhead, struct nb_rate *out)
{
	uint64_t bps, bits;
	int rc;

	rc = pattern_bits(sizes, overhead, &bits);
	if (rc != 0)
		return rc;
	rc = round_u64(bps_d, &bps);
	if (rc != 0)
		return rc;
	if (bps == 0)
		return -ERANGE;
	/* pps = bps * nb_pattern / bits */
	return make_rate(bps, sizes->nb_pattern, bits, out);
}

int
nb_rate_resolve(const struct nb_rate_spec *spec,
		const struct nb_size_list *sizes, uint64_t link_bps,
		struct nb_rate *out)
{
	uint64_t milli;
	double v;
	int rc;

	if (spec == NULL || out == NULL)
		return -EINVAL;
	v = spec->value;

	switch (spec->kind) {
	case NB_RATE_MAX:
		out->unlimited = 1;
		out->pps_num = 0;
		out->pps_den = 1;
		return 0;
	case NB_RATE_PPS:
		if (isnan(v))
			return -EINVAL;
		rc = round_u64(v * 1000.0, &milli);
		if (rc != 0)
			return rc;
		if (milli == 0)
			return -ERANGE;
		return make_rate(milli, 1, 1000, out);
	case NB_RATE_BPS_L1:
		if (isnan(v))
			return -EINVAL;
		return resolve_bps(v, sizes, NB_L1_OVERHEAD, out);
	case NB_RATE_BPS_L2:
		if (isnan(v))
			return -EINVAL;
		return resolve_bps(v, sizes, 0, out);
	case NB_RATE_PERCENT:
		if (isnan(v))
			return -EINVAL;
		if (!(v > 0.0 && v <= 100.0))
			return -ERANGE;
		if (link_bps == 0)
			return -ENOTSUP;
		return resolve_bps((double)link_bps * v / 100.0, sizes,
				   NB_L1_OVERHEAD, out);
	default:
		return -EINVAL;
	}
}

static double
rate_bps(double pps, const struct nb_size_list *sizes, unsigned int overhead)
{
	uint64_t bits;

	if (pattern_bits(sizes, overhead, &bits) != 0)
		return 0.0;
	return pps * (double)bits / (double)sizes->nb_pattern;
}

double
nb_rate_l1_bps(double pps, const struct nb_size_list *sizes)
{
	return rate_bps(pps, sizes, NB_L1_OVERHEAD);
}

double
nb_rate_l2_bps(double pps, const struct nb_size_list *sizes)
{
	return rate_bps(pps, sizes, 0);
}
