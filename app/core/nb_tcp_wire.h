/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The frames of closed-loop TCP, coded once (docs/protocol.md, "TCP
 * mode"): Ethernet II [802.1Q], IPv4 (20 B, DF, ID = stream id) or IPv6
 * (40 B, flow label = stream id, no extension header), TCP with options,
 * then the payload.  Options written:
 *   SYN, SYN-ACK  MSS (kind 2), NOP, window scale (3), NOP, NOP,
 *                 SACK-permitted (4): 12 bytes (the absent ones left out,
 *                 NOPs keeping 4-byte alignment)
 *   data          NOP, NOP, stamp (kind 253, length 10, ExID 0x4e42
 *                 "NB" (RFC 6994), TX time in ns, 48 bits): 12 bytes
 *   ACK           NOP, NOP, SACK (5) with 1..3 blocks: 4 + 8n bytes
 * Pure: byte buffers in and out; the parser checks every length.
 */
#ifndef NB_TCP_WIRE_H
#define NB_TCP_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "nb_frame.h"
#include "nb_tcp.h"

#define NB_TCP_OPT_EOL	     0
#define NB_TCP_OPT_NOP	     1
#define NB_TCP_OPT_MSS	     2
#define NB_TCP_OPT_WSCALE    3
#define NB_TCP_OPT_SACK_PERM 4
#define NB_TCP_OPT_SACK	     5
#define NB_TCP_OPT_EXP	     253 /* RFC 4727 experimental, RFC 6994 ExID */
#define NB_TCP_STAMP_EXID    0x4e42
#define NB_TCP_STAMP_LEN     12 /* option bytes of the stamp, NOPs included */
#define NB_TCP_OPT_MAX	     40

/* The MSS a frame of frame_bytes (FCS included) gives: the largest TCP
 * payload and options after the Ethernet (802.1Q when vlan_id), IP (of
 * family 4 or 6) and TCP headers. */
static inline uint16_t
nb_tcp_mss_for(uint16_t frame_bytes, uint16_t vlan_id, uint8_t family)
{
	return (uint16_t)(frame_bytes - NB_FCS_LEN - NB_ETH_HLEN -
			  (vlan_id ? NB_VLAN_HLEN : 0) -
			  (family == 6 ? NB_IPV6_HLEN : NB_IPV4_HLEN) -
			  NB_TCP_HLEN);
}

/* The TCP header's length (20 + options) for segment s. */
uint32_t nb_tcp_hdr_len(const struct nb_tcp_seg *s);

/* Frame bytes (no FCS) for s with flow f's addressing, before padding. */
uint32_t nb_tcp_frame_len(const struct nb_flow *f, const struct nb_tcp_seg *s);

/*
 * Build the frame of segment s from f's addresses and ports (f->stream_id
 * is the IPv4 ID): headers, options, the payload (payload, or when NULL
 * the stream pattern at s->data_off), padding to 60 bytes, valid IPv4 and
 * TCP checksums.  Returns the frame length (no FCS) or -ENOSPC.
 */
int nb_tcp_frame_build(uint8_t *buf, size_t buflen, const struct nb_flow *f,
		       const struct nb_tcp_seg *s, const uint8_t *payload);

/*
 * nb_tcp_frame_build() for a connection with application bytes
 * (nb_tcp_app.h; NULL: the pattern): the payload is app's bytes at
 * s->data_off (the log's, then for a prefix stream the pattern's), the
 * TCP checksum computed over them (a payload of the pattern alone takes
 * the pattern's way, its sums precomputed).  -EINVAL when s asks for
 * bytes app never had.
 */
struct nb_tcp_app;
int nb_tcp_frame_build_app(uint8_t *buf, size_t buflen, const struct nb_flow *f,
			   const struct nb_tcp_seg *s,
			   const struct nb_tcp_app *app);

/*
 * The headers alone of data segment s, whose payload is the stream
 * pattern at s->data_off (nb_tcp_pattern_at(), len bytes, 1..16384) and
 * goes out from there as a buffer of its own (a second mbuf attached to
 * the pattern: no copy).  The checksum covers it, from the pattern's
 * prefix sums.  The bytes are nb_tcp_frame_build()'s up to the payload;
 * a frame that would need padding (under 60 bytes) is not built here.
 * Returns the header bytes written or -ENOSPC.
 */
int nb_tcp_frame_build_hdr(uint8_t *buf, size_t buflen, const struct nb_flow *f,
			   const struct nb_tcp_seg *s);

/*
 * A connection's data-segment headers, prepared once from its flow (the
 * bytes hdrs of nb_tcp_frame_build_hdr() write, with the fields a segment
 * changes left 0) with their constant one's-complement sums, so that a
 * segment's headers are a copy, seven fields and two sums of a few adds.
 */
#define NB_TCP_TMPL_MAX                                                        \
	(NB_ETH_HLEN + NB_VLAN_HLEN + NB_IPV6_HLEN + NB_TCP_HLEN +             \
	 NB_TCP_STAMP_LEN)
struct nb_tcp_tmpl {
	uint8_t b[NB_TCP_TMPL_MAX];
	uint8_t hlen;	 /* header bytes: Ethernet to the payload */
	uint8_t l3, l4;	 /* where the IP and TCP headers start */
	uint8_t v6;	 /* IPv6: a payload length, no header checksum */
	uint32_t ip_sum; /* the IPv4 header's, total length 0 */
	/* the pseudo-header's addresses and protocol and the TCP header's
	 * constant bytes (ports, data offset, option kinds) */
	uint32_t tcp_sum;
};

/* Prepare t for flow f's data segments. */
void nb_tcp_tmpl_init(struct nb_tcp_tmpl *t, const struct nb_flow *f);

/*
 * The headers of data segment s from t into buf (NB_TCP_TMPL_MAX bytes of
 * room; bytes past t->hlen are scratch): byte for byte what
 * nb_tcp_frame_build_hdr() writes for the same flow and segment.  Only a
 * plain data segment (no SYN or RST, the stamp, no SACK blocks, 1..16384
 * payload bytes of the pattern, no padding): else -EINVAL and the caller
 * builds it the general way.  Returns t->hlen.
 */
int nb_tcp_tmpl_build(const struct nb_tcp_tmpl *t, uint8_t *buf,
		      const struct nb_tcp_seg *s);

/*
 * The headers of a run of r data segments (nb_tcp_output_run(): s the
 * first, segment i the one i * s->len bytes on in seq and data_off, all
 * else the same) into bufs[0..r-1] (NB_TCP_TMPL_MAX bytes of room each;
 * bytes past t->hlen are scratch): the first as nb_tcp_tmpl_build()
 * writes it, each next one a copy of it with its own sequence number and
 * TCP checksum (the sum of the rest kept), byte for byte what
 * nb_tcp_tmpl_build() would write for it.  -EINVAL (nothing written) for
 * a segment the template is not for.  Returns t->hlen.
 */
int nb_tcp_tmpl_build_run(const struct nb_tcp_tmpl *t, uint8_t *const *bufs,
			  const struct nb_tcp_seg *s, unsigned int r);

/*
 * Parse a TCP frame of len bytes: Ethernet, IPv4 or IPv6 as
 * nb_ip_locate(), the data offset, every option's length, and (when
 * check_csum) the TCP checksum.  Fills f (MACs, VLAN, family, addresses,
 * ports; proto TCP; the stream id from the IPv4 ID or the flow label's
 * low 16 bits) and s (payload pointing into buf).  0 or -EPROTO.
 */
int nb_tcp_frame_parse(const uint8_t *buf, uint32_t len, int check_csum,
		       struct nb_flow *f, struct nb_tcp_seg *s);
/* The same without the shortcut for the common shape (the tests compare
 * the two). */
int nb_tcp_frame_parse_general(const uint8_t *buf, uint32_t len, int check_csum,
			       struct nb_flow *f, struct nb_tcp_seg *s);

/*
 * The TCP checksum of a frame nb_tcp_frame_parse() took without checking
 * it: 0 if wrong, 1 if right, 2 if right and the payload is the stream's
 * pattern at data_off (the receiver's expectation; -1: none): then its
 * share came from the pattern's prefix sums after one memcmp instead of a
 * pass of adds, and the receiver need not compare it again.
 */
int nb_tcp_frame_csum_ok(const uint8_t *buf, const struct nb_tcp_seg *s,
			 int64_t data_off);

#endif /* NB_TCP_WIRE_H */
