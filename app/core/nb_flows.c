/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>

#include "nb_flows.h"
#include <string.h>

static const char *const field_names[NB_FF_N] = {
	"source port",	       "destination port", "source address",
	"destination address", "source MAC",	   "destination MAC",
};

const char *
nb_flows_field_name(int field)
{
	return field >= 0 && field < NB_FF_N ? field_names[field] : "?";
}

static const uint64_t field_max[NB_FF_N] = {
	0xffff,
	0xffff,
	0xffffffffu,
	0xffffffffu,
	0xffffffffffffull,
	0xffffffffffffull,
};

/* The UDP destination ports a receiver takes for something else than
 * data (docs/protocol.md), ascending. */
static const uint16_t reserved[] = {NB_VXLAN_UDP_PORT, NB_CONTROL_UDP_PORT};

/* How many values field i takes (0: none; ranges are at most 48 bits
 * wide, so the count never wraps). */
static uint64_t
width(const struct nb_flows_spec *s, int i)
{
	uint64_t w;
	unsigned int k;

	if (s->r[i].hi < s->r[i].lo)
		return 0;
	w = s->r[i].hi - s->r[i].lo + 1;
	for (k = 0; i == NB_FF_DPORT && s->udp && k < 2; k++)
		w -= reserved[k] >= s->r[i].lo && reserved[k] <= s->r[i].hi;
	return w;
}

/* Field i's d-th value: its range's, the reserved ports skipped. */
static uint64_t
value(const struct nb_flows_spec *s, int i, uint64_t d)
{
	uint64_t v = s->r[i].lo + d;
	unsigned int k;

	for (k = 0; i == NB_FF_DPORT && s->udp && k < 2; k++)
		v += reserved[k] >= s->r[i].lo && reserved[k] <= v;
	return v;
}

uint64_t
nb_flows_space(const struct nb_flows_spec *s)
{
	uint64_t p = 1;
	int i;

	for (i = 0; i < NB_FF_N; i++) {
		uint64_t w = width(s, i);

		if (w == 0)
			return 0;
		if (p > UINT64_MAX / w)
			return UINT64_MAX;
		p *= w;
	}
	return p;
}

/* The two ranges share a value. */
static int
overlap(const struct nb_range *a, const struct nb_range *b)
{
	return a->lo <= b->hi && b->lo <= a->hi;
}

int
nb_flows_check(const struct nb_flows_spec *s, char *err, size_t errlen)
{
	uint64_t space;
	int i;

	for (i = 0; i < NB_FF_N; i++) {
		if (s->r[i].lo > s->r[i].hi) {
			snprintf(err, errlen,
				 "the %s range is empty (its first value is "
				 "above its last)",
				 field_names[i]);
			return -EINVAL;
		}
		if (width(s, i) == 0) {
			snprintf(
				err, errlen,
				"the %s range holds only UDP ports the "
				"receiver takes for control (%u) or VXLAN (%u)",
				field_names[i], NB_CONTROL_UDP_PORT,
				NB_VXLAN_UDP_PORT);
			return -EINVAL;
		}
		if (s->r[i].hi > field_max[i]) {
			snprintf(err, errlen, "the %s range goes past %llu",
				 field_names[i],
				 (unsigned long long)field_max[i]);
			return -EINVAL;
		}
	}
	for (i = NB_FF_SIP; i <= NB_FF_SMAC; i += 2) {
		if (s->r[i].lo == s->r[i].hi &&
		    s->r[i + 1].lo == s->r[i + 1].hi)
			continue; /* fixed values: the tool's defaults differ */
		if (overlap(&s->r[i], &s->r[i + 1])) {
			snprintf(err, errlen,
				 "the %s and %s ranges overlap: a flow could "
				 "go from an address to itself",
				 field_names[i], field_names[i + 1]);
			return -EINVAL;
		}
	}
	if (s->n > NB_MAX_FLOWS) {
		snprintf(err, errlen, "--flows %u: at most %u", s->n,
			 NB_MAX_FLOWS);
		return -EINVAL;
	}
	space = nb_flows_space(s);
	if (s->n > space) {
		snprintf(err, errlen,
			 "--flows %u: the ranges give only %llu distinct "
			 "flows; widen a port or address range",
			 s->n, (unsigned long long)space);
		return -EINVAL;
	}
	return 0;
}

/* A 64-bit mix (splitmix64's finaliser). */
static uint64_t
mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

uint64_t
nb_flows_permute(uint64_t x, uint64_t space, uint64_t seed)
{
	unsigned int bits = 2, half, r;
	uint64_t mask;

	if (space <= 1)
		return 0;
	while (bits < 62 && (UINT64_C(1) << bits) < space)
		bits += 2;
	half = bits / 2;
	mask = (UINT64_C(1) << half) - 1;
	do {
		uint64_t l = x >> half, rt = x & mask;

		for (r = 0; r < 4; r++) {
			uint64_t t = l ^ (mix(rt ^ mix(seed + r)) & mask);

			l = rt;
			rt = t;
		}
		x = (l << half) | rt;
	} while (x >= space); /* cycle walking: back inside [0, space) */
	return x;
}

void
nb_flows_fields(const struct nb_flows_spec *s, uint32_t f,
		uint64_t out[NB_FF_N])
{
	uint64_t x = f;
	int i;

	if (s->shuffled)
		x = nb_flows_permute(x, nb_flows_space(s), s->seed);
	for (i = 0; i < NB_FF_N; i++) {
		uint64_t w = width(s, i);

		out[i] = value(s, i, w ? x % w : 0);
		x = w ? x / w : 0;
	}
}

/* The one's-complement sum of the n big-endian 16-bit words at p. */
static uint32_t
words(const uint8_t *p, unsigned int n)
{
	uint32_t s = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		s += nb_get_be16(p + 2 * i);
	return s;
}

/* a - b in one's complement, folded to 16 bits. */
static uint16_t
ones_diff(uint32_t a, uint32_t b)
{
	uint32_t s = a + (0xffff - (b & 0xffff)) + (0xffff - (b >> 16));

	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

void
nb_flow_rec_make(struct nb_flow_rec *r, const struct nb_tmpl *t,
		 const uint64_t v[NB_FF_N])
{
	const uint8_t *ip = t->hdr + t->l3_off, *l4 = t->hdr + t->l4_off;
	int v6 = (ip[0] >> 4) == 6;
	const uint8_t *sa = ip + (v6 ? 8 + 12 : NB_IPV4_OFF_SRC);
	const uint8_t *da = ip + (v6 ? 24 + 12 : NB_IPV4_OFF_DST);
	uint32_t old_a = words(sa, 2) + words(da, 2), new_a;
	uint32_t old_p = words(l4, 2);
	int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < 6; i++) {
		r->mac[i] = (uint8_t)(v[NB_FF_DMAC] >> (40 - 8 * i));
		r->mac[6 + i] = (uint8_t)(v[NB_FF_SMAC] >> (40 - 8 * i));
	}
	nb_put_be32(r->addr, (uint32_t)v[NB_FF_SIP]);
	nb_put_be32(r->addr + 4, (uint32_t)v[NB_FF_DIP]);
	nb_put_be16(r->ports, (uint16_t)v[NB_FF_SPORT]);
	nb_put_be16(r->ports + 2, (uint16_t)v[NB_FF_DPORT]);
	new_a = words(r->addr, 4);
	r->ip_delta = v6 ? 0 : ones_diff(new_a, old_a);
	r->l4_delta = ones_diff(new_a + words(r->ports, 2), old_a + old_p);
}
