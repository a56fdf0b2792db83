/* SPDX-License-Identifier: BSD-3-Clause */
/* --replay: see nb_replay.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nb_frame.h"
#include "nb_math.h"
#include "nb_replay.h"

#define WHY(...) snprintf(why, whylen, __VA_ARGS__)

int
nb_replayspec_parse(const char *s, struct nb_replayspec *out, char *why,
		    size_t whylen)
{
	const char *comma = strchr(s, ',');
	size_t plen = comma != NULL ? (size_t)(comma - s) : strlen(s);
	enum nb_replay_timing timing = out->timing;
	int stamp = out->stamp;

	memset(out, 0, sizeof(*out));
	out->timing = timing;
	out->stamp = stamp;
	out->loops = 1;
	if (plen == 0) {
		WHY("expected FILE[,loop=N], e.g. rx.pcap or rx.pcap,loop=10 "
		    "(loop=0: until --time)");
		return -EINVAL;
	}
	if (plen >= sizeof(out->path)) {
		WHY("the file name is longer than %zu bytes",
		    sizeof(out->path) - 1);
		return -EINVAL;
	}
	memcpy(out->path, s, plen);
	if (comma != NULL) {
		if (strncmp(comma + 1, "loop=", 5) != 0) {
			WHY("unknown key in '%s': expected loop=N", comma + 1);
			return -EINVAL;
		}
		if (nb_parse_count(comma + 6, &out->loops) != 0 ||
		    out->loops > UINT64_C(1000000000)) {
			WHY("loop=%s: expected N, 0..1e9 (times through the "
			    "file; 0: until --time)",
			    comma + 6);
			return -EINVAL;
		}
	}
	out->active = 1;
	return 0;
}

int
nb_replay_timing_parse(const char *s, enum nb_replay_timing *out)
{
	if (strcmp(s, "rate") == 0)
		*out = NB_REPLAY_RATE;
	else if (strcmp(s, "file") == 0)
		*out = NB_REPLAY_FILE;
	else
		return -EINVAL;
	return 0;
}

int
nb_replay_stampable(uint8_t *f, uint32_t len, uint16_t *l4_off, char *why,
		    size_t whylen)
{
	uint32_t off = NB_ETH_HLEN, ihl, tot;
	uint8_t *ip;
	uint16_t et;

	if (len < NB_ETH_HLEN + NB_IPV4_HLEN + NB_UDP_HLEN + NB_STAMP_LEN) {
		WHY("%u bytes: too short for a stamp", len);
		return -1;
	}
	et = nb_get_be16(f + NB_ETH_OFF_TYPE);
	if (et == NB_ETHERTYPE_VLAN) {
		et = nb_get_be16(f + NB_VLAN_OFF_TYPE);
		off += NB_VLAN_HLEN;
	}
	ip = f + off;
	if (et != NB_ETHERTYPE_IPV4 || (ip[0] >> 4) != 4) {
		WHY("not IPv4 (ethertype 0x%04x)", et);
		return -1;
	}
	ihl = (uint32_t)(ip[0] & 0xf) * 4;
	tot = nb_get_be16(ip + NB_IPV4_OFF_LEN);
	if (ip[NB_IPV4_OFF_PROTO] != NB_IPPROTO_UDP) {
		WHY("IP protocol %u, not UDP", ip[NB_IPV4_OFF_PROTO]);
		return -1;
	}
	if (ihl < NB_IPV4_HLEN || off + tot > len ||
	    tot < ihl + NB_UDP_HLEN + NB_STAMP_LEN) {
		WHY("IPv4 total length %u: no room for a %u-byte stamp", tot,
		    NB_STAMP_LEN);
		return -1;
	}
	if ((nb_get_be16(ip + NB_IPV4_OFF_FRAG) & 0x3fff) != 0) {
		WHY("an IPv4 fragment");
		return -1;
	}
	/* a receiver hands these to its control lcore, not its counters */
	if (nb_get_be16(ip + ihl + NB_L4_OFF_DPORT) == NB_CONTROL_UDP_PORT) {
		WHY("UDP port %u is dpdk-nbench's control port",
		    NB_CONTROL_UDP_PORT);
		return -1;
	}
	/* a receiver parses these as a tunnel, not for a stamp */
	if (nb_get_be16(ip + ihl + NB_L4_OFF_DPORT) == NB_VXLAN_UDP_PORT) {
		WHY("UDP port %u is VXLAN's: a receiver looks for the stamp "
		    "in the inner frame",
		    NB_VXLAN_UDP_PORT);
		return -1;
	}
	nb_put_be16(ip + NB_IPV4_OFF_ID, 0); /* stream 0 */
	nb_put_be16(ip + NB_IPV4_OFF_CSUM, 0);
	nb_put_be16(ip + NB_IPV4_OFF_CSUM, nb_ipv4_hdr_csum(ip, ihl));
	nb_put_be16(ip + ihl + NB_UDP_OFF_CSUM, 0);
	nb_put_be16(ip + ihl + NB_UDP_OFF_MAGIC, NB_MAGIC_DATA);
	*l4_off = (uint16_t)(off + ihl);
	return 0;
}

uint64_t
nb_replay_period_ns(const struct nb_replay *rp)
{
	uint64_t gap = rp->n > 1 ? rp->span_ns / (rp->n - 1) : 0;

	if (gap == 0)
		gap = 1000;
	return rp->span_ns + gap;
}

int
nb_replay_rate(const struct nb_rate_spec *spec, const struct nb_replay *rp,
	       uint64_t link_bps, struct nb_rate *out)
{
	static const struct nb_size_list one = {
		.nb_sizes = 1, .sizes = {64}, .nb_pattern = 1, .pattern = {0}};
	uint64_t bps, bits, n = rp->n;
	double v = spec->value;

	switch (spec->kind) {
	case NB_RATE_BPS_L1:
	case NB_RATE_BPS_L2:
		break;
	case NB_RATE_PERCENT:
		if (!(v > 0.0 && v <= 100.0))
			return -ERANGE;
		if (link_bps == 0)
			return -ENOTSUP;
		v = (double)link_bps * v / 100.0;
		break;
	default: /* pps, max: no size involved */
		return nb_rate_resolve(spec, &one, link_bps, out);
	}
	if (isnan(v) || !(v >= 1.0) || v > NB_RATE_MAX_BPS || n == 0)
		return -ERANGE;
	bps = (uint64_t)llround(v);
	bits = (rp->wire_bytes +
		(spec->kind == NB_RATE_BPS_L2 ? 0 : n * NB_L1_OVERHEAD)) *
	       8;
	/* pps = bps * n / bits, reduced so that the product fits */
	nb_reduce_u64(&bps, &bits);
	nb_reduce_u64(&n, &bits);
	if (n != 0 && bps > UINT64_MAX / n)
		return -ERANGE;
	out->unlimited = 0;
	out->pps_num = bps * n;
	out->pps_den = bits;
	return 0;
}

void
nb_replay_text(const struct nb_replayspec *s, const struct nb_replay *rp,
	       char *buf, size_t len)
{
	char loops[40];

	if (s->loops == 0)
		snprintf(loops, sizeof(loops), "passes until --time");
	else
		snprintf(loops, sizeof(loops), "%llu pass%s",
			 (unsigned long long)s->loops,
			 s->loops == 1 ? "" : "es");
	snprintf(buf, len,
		 "%s: %u frames, %u-%u B (mean %.1f incl. FCS), %.6f s, %s, "
		 "%s, paced by %s",
		 s->path, rp->n, rp->min_len + NB_FCS_LEN,
		 rp->max_len + NB_FCS_LEN,
		 rp->n ? (double)rp->wire_bytes / rp->n : 0.0,
		 (double)rp->span_ns / 1e9,
		 s->stamp ? "stamped (stream 0)" : "as recorded", loops,
		 s->timing == NB_REPLAY_FILE ? "the file's times" : "--rate");
}

void
nb_replay_set_macs(struct nb_replay *rp, const uint8_t dst[6],
		   const uint8_t src[6])
{
	uint32_t i;

	for (i = 0; i < rp->n; i++) {
		uint8_t *f = rp->data + rp->off[i];

		if (rp->len[i] < 12)
			continue;
		memcpy(f, dst, 6);
		memcpy(f + 6, src, 6);
	}
}

uint16_t
nb_replay_mean_size(const struct nb_replay *rp)
{
	uint64_t mean = rp->n ? (rp->wire_bytes + rp->n - 1) / rp->n : 0;

	return (uint16_t)(mean < NB_FRAME_MIN ? NB_FRAME_MIN : mean);
}
