/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --flows: many distinct 5-tuples (and MACs) in a test, each flow's fields
 * drawn from ranges, in order or pseudorandomly (RFC 4814, 4.5: a
 * repeatable seed).  Pure: which values flow f has, whether the ranges
 * can give n distinct flows, and the bijection that shuffles them.
 *
 * Flow f's fields are the digits of a mixed-radix number over the fields
 * that vary (source port fastest, then destination port, source address,
 * destination address, source MAC, destination MAC), each digit an offset
 * into its range.  In order, that number is f; shuffled, it is a keyed
 * permutation of f over the product of the ranges' sizes, so that n flows
 * are always n distinct tuples and the same seed gives the same flows.
 */
#ifndef NB_FLOWS_H
#define NB_FLOWS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nb_frame.h"

#define NB_MAX_FLOWS (1u << 20)

/* RFC 4814, 4.5: pseudorandom ports from outside the well-known range */
#define NB_FLOW_PORT_LO 1024
#define NB_FLOW_PORT_HI 65535

enum nb_flow_field {
	NB_FF_SPORT = 0,
	NB_FF_DPORT,
	NB_FF_SIP, /* IPv4 address, or an IPv6 one's low 32 bits */
	NB_FF_DIP,
	NB_FF_SMAC, /* 48 bits */
	NB_FF_DMAC,
	NB_FF_N,
};

/* An inclusive range; lo == hi: the field does not vary. */
struct nb_range {
	uint64_t lo, hi;
};

struct nb_flows_spec {
	uint32_t n;    /* flows; 0 or 1: one per stream (no --flows) */
	int shuffled;  /* RFC 4814's pseudorandom order */
	uint64_t seed; /* of the shuffle */
	int udp;       /* UDP: destination ports skip NB_VXLAN_UDP_PORT and
			* NB_CONTROL_UDP_PORT, which the receiver takes for
			* other things than data */
	struct nb_range r[NB_FF_N];
};

/* "source port", ... */
const char *nb_flows_field_name(int field);

/* How many distinct tuples the ranges give (saturating at UINT64_MAX). */
uint64_t nb_flows_space(const struct nb_flows_spec *s);

/*
 * The spec's ranges make sense and give at least n distinct flows: each
 * range non-empty (lo <= hi), within its field (ports 16 bits, addresses
 * 32, MACs 48), a source range not overlapping its destination range
 * (a flow would go to itself).  0, or -EINVAL with the reason.
 */
int nb_flows_check(const struct nb_flows_spec *s, char *err, size_t errlen);

/* The fields of flow f (0 <= f < n), each within its range. */
void nb_flows_fields(const struct nb_flows_spec *s, uint32_t f,
		     uint64_t out[NB_FF_N]);

/*
 * A keyed permutation of [0, space): a balanced Feistel network on the
 * smallest even number of bits that holds space, walked until the value
 * falls inside (cycle walking).  space >= 1, at most 2^62.
 */
uint64_t nb_flows_permute(uint64_t x, uint64_t space, uint64_t seed);

/*
 * What the generator writes over a stream's template to make a frame of
 * one of its flows: the fields (all of them, varying or not: the same
 * stores every frame) and what they change in the checksums, as
 * one's-complement addends: ip_delta to the IPv4 header's sum (0 over
 * IPv6), l4_delta to the L4 checksum's (its pseudo-header and ports).
 * Software checksums only (a NIC-filled one would need the pseudo-header
 * changed instead).
 */
struct nb_flow_rec {
	uint8_t mac[12];  /* destination, source: the frame's first bytes */
	uint8_t addr[8];  /* source, destination IPv4 (of IPv6: the last 32
			   * bits), as on the wire */
	uint8_t ports[4]; /* source, destination, as on the wire */
	uint16_t ip_delta, l4_delta;
};

/* The record's source and destination address (IPv4, or an IPv6 one's
 * last 32 bits) and ports, as numbers. */
static inline uint32_t
nb_flow_rec_ip(const struct nb_flow_rec *r, int dst)
{
	return nb_get_be32(r->addr + 4 * dst);
}

static inline uint16_t
nb_flow_rec_port(const struct nb_flow_rec *r, int dst)
{
	return nb_get_be16(r->ports + 2 * dst);
}

/* The record of fields v for frames of template t (nb_flows_fields). */
void nb_flow_rec_make(struct nb_flow_rec *r, const struct nb_tmpl *t,
		      const uint64_t v[NB_FF_N]);

/* What nb_flow_rec_write writes (a constant at each call): every field
 * of an IPv4 or IPv6 frame, or the ports alone (the other fields are the
 * template's: r was made from its values). */
#define NB_FLOW_W_V4	1
#define NB_FLOW_W_V6	2
#define NB_FLOW_W_PORTS 3

/* Write r over a frame copied from t, fixing the IPv4 header checksum;
 * the caller stamps with nb_stamp_at_x(..., r->l4_delta). */
static inline void
nb_flow_rec_write(uint8_t *frame, const struct nb_tmpl *t,
		  const struct nb_flow_rec *r, const int what)
{
	uint8_t *ip = frame + t->l3_off, *l4 = frame + t->l4_off;

	/* whole words where the wire has the fields side by side */
	memcpy(l4 + NB_L4_OFF_SPORT, r->ports, 4);
	if (what == NB_FLOW_W_PORTS)
		return;
	memcpy(frame, r->mac, 12);
	if (what == NB_FLOW_W_V6) {
		memcpy(ip + 8 + 12, r->addr, 4);
		memcpy(ip + 24 + 12, r->addr + 4, 4);
	} else {
		uint32_t sum = (uint16_t)~nb_get_be16(ip + NB_IPV4_OFF_CSUM);

		memcpy(ip + NB_IPV4_OFF_SRC, r->addr, 8);
		sum += r->ip_delta;
		sum = (sum & 0xffff) + (sum >> 16);
		nb_put_be16(ip + NB_IPV4_OFF_CSUM, (uint16_t)~sum);
	}
}

#endif /* NB_FLOWS_H */
