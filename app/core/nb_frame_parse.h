/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive side of nb_frame.h: one parser for every header stack the
 * generator builds (docs/protocol.md, "Header stacks"), inline in the
 * sink.  Pure: no DPDK calls.  Included by nb_frame.h only.
 *
 * Walked in order, each step bounded: up to two VLAN tags (TPID 0x8100,
 * 0x88a8 or 0x9100); then IPv4, IPv6 (hop-by-hop, routing and destination
 * options headers skipped, at most four; a fragment header makes the frame
 * a FRAGMENT, counted, not parsed), or an MPLS label stack (up to
 * NB_MAX_LABELS, the IP version after the bottom label); over IPv4 or
 * IPv6, GRE (protocol IPv4, IPv6 or transparent Ethernet) or UDP to 4789
 * (VXLAN) lead to one inner frame, parsed the same way (one tunnel deep).
 * The stamp is read from the innermost UDP/TCP header.  Control, ARP and
 * ICMP frames are recognised outside a tunnel only (the control lcore
 * decodes them again, strictly); a probe inside a tunnel is foreign.
 */
#ifndef NB_FRAME_PARSE_H
#define NB_FRAME_PARSE_H

/* What a received frame is. */
enum nb_frame_kind {
	NB_FRAME_FOREIGN = 0, /* not ours (or malformed): counted, freed */
	NB_FRAME_DATA,
	NB_FRAME_WARMUP,
	NB_FRAME_PROBE,	   /* latency probe: reflected, or an RTT sample */
	NB_FRAME_FRAGMENT, /* an IPv4 or IPv6 fragment: counted, not parsed */
	/* from here on: frames the control lcore handles (keep last) */
	NB_FRAME_CONTROL, /* UDP to NB_CONTROL_UDP_PORT, over IPv4 or IPv6 */
	NB_FRAME_ARP,
	NB_FRAME_ICMP,	/* IPv4 ICMP (echo is answered by control) */
	NB_FRAME_ICMP6, /* ICMPv6: neighbour discovery, echo */
};

struct nb_stamp {
	uint16_t stream_id;
	uint64_t seq; /* 48 bits */
	uint64_t ts;  /* 48 bits */
	uint16_t l4_off;
	uint16_t l3_off; /* the (inner) IP header */
	uint8_t v6;	 /* the (inner) IP header is IPv6 */
	uint8_t inner;	 /* the stamp was found inside a tunnel */
};

/* A frame walked so far: where the next header starts and what it is. */
struct nb_walk {
	const uint8_t *p;
	uint32_t len;  /* contiguous bytes at p */
	uint32_t end;  /* where the (outer or inner) IP packet ends */
	uint32_t off;  /* the next header */
	uint16_t et;   /* its ethertype */
	uint8_t depth; /* 0 outside a tunnel, 1 inside */
	uint8_t proto; /* after the IP header: the L4 protocol */
};

static inline int
nb_is_tpid(uint16_t et)
{
	return et == NB_ETHERTYPE_VLAN || et == NB_ETHERTYPE_QINQ ||
	       et == NB_ETHERTYPE_Q9100;
}

/* The Ethernet header at w->off and up to two tags; 0, or -1 when short. */
static inline int
nb_walk_eth(struct nb_walk *w)
{
	uint32_t o = w->off + NB_ETH_OFF_TYPE;
	int i;

	if (w->len < o + 2)
		return -1;
	w->et = nb_get_be16(w->p + o);
	for (i = 0; i < 2 && nb_is_tpid(w->et); i++) {
		o += NB_VLAN_HLEN;
		if (w->len < o + 2)
			return -1;
		w->et = nb_get_be16(w->p + o);
	}
	w->off = o + 2;
	return 0;
}

/* The MPLS label stack at w->off: w->et becomes the IP version's
 * ethertype after the bottom label; 0, or -1. */
static inline int
nb_walk_mpls(struct nb_walk *w)
{
	int i;

	for (i = 0; i < NB_MAX_LABELS; i++) {
		if (w->len < w->off + NB_MPLS_HLEN + 1)
			return -1;
		w->off += NB_MPLS_HLEN;
		if (w->p[w->off - 2] & 1) { /* bottom of stack */
			uint8_t v = w->p[w->off] >> 4;

			w->et = v == 4 ? NB_ETHERTYPE_IPV4
				       : (v == 6 ? NB_ETHERTYPE_IPV6 : 0);
			return w->et ? 0 : -1;
		}
	}
	return -1;
}

/*
 * The IPv4 header at w->off: checks, the stream id, w->off past it,
 * w->proto.  Returns 0, 1 for a fragment, -1 when malformed.
 */
static inline int
nb_walk_ipv4(struct nb_walk *w, struct nb_stamp *s)
{
	const uint8_t *ip = w->p + w->off;
	uint32_t ihl, tot;

	if (w->len < w->off + NB_IPV4_HLEN || (ip[0] >> 4) != 4)
		return -1;
	ihl = (uint32_t)(ip[0] & 0xf) * 4;
	tot = nb_get_be16(ip + NB_IPV4_OFF_LEN);
	if (ihl < NB_IPV4_HLEN || tot < ihl || w->off + tot > w->end)
		return -1;
	if (nb_get_be16(ip + NB_IPV4_OFF_FRAG) & 0x3fff)
		return 1; /* MF set or an offset: a fragment */
	s->l3_off = (uint16_t)w->off;
	s->v6 = 0;
	s->stream_id = nb_get_be16(ip + NB_IPV4_OFF_ID);
	w->proto = ip[NB_IPV4_OFF_PROTO];
	w->end = w->off + tot;
	w->off += ihl;
	return 0;
}

/* The same for IPv6 and its extension headers (see the top). */
static inline int
nb_walk_ipv6(struct nb_walk *w, struct nb_stamp *s)
{
	const uint8_t *ip = w->p + w->off;
	uint32_t plen, o;
	uint8_t nh;
	int i;

	if (w->len < w->off + NB_IPV6_HLEN || (ip[0] >> 4) != 6)
		return -1;
	plen = nb_get_be16(ip + 4);
	if (w->off + NB_IPV6_HLEN + plen > w->end)
		return -1;
	s->l3_off = (uint16_t)w->off;
	s->v6 = 1;
	s->stream_id = nb_get_be16(ip + 2); /* flow label, low 16 bits */
	w->end = w->off + NB_IPV6_HLEN + plen;
	nh = ip[6];
	o = w->off + NB_IPV6_HLEN;
	for (i = 0; i < 4 && (nh == 0 || nh == 43 || nh == 60); i++) {
		if (w->len < o + 8)
			return -1;
		nh = w->p[o];
		o += ((uint32_t)w->p[o + 1] + 1) * 8;
	}
	if (nh == 44)
		return 1;
	if (o > w->end)
		return -1;
	w->proto = nh;
	w->off = o;
	return 0;
}

/* The GRE header at w->off (version 0): w->et its protocol; 0, or -1. */
static inline int
nb_walk_gre(struct nb_walk *w)
{
	uint16_t flags;

	if (w->len < w->off + NB_GRE_HLEN)
		return -1;
	flags = nb_get_be16(w->p + w->off);
	if (flags & 0x4fff) /* routing, reserved bits or a version */
		return -1;
	w->et = nb_get_be16(w->p + w->off + 2);
	w->off += NB_GRE_HLEN + ((flags & 0x8000) ? 4 : 0) +
		  ((flags & 0x2000) ? 4 : 0) + ((flags & 0x1000) ? 4 : 0);
	return 0;
}

/* The stamp in the UDP datagram or TCP segment at w->off. */
static inline enum nb_frame_kind
nb_walk_stamp(struct nb_walk *w, struct nb_stamp *s)
{
	const uint8_t *l4 = w->p + w->off;
	uint32_t room = w->end - w->off;
	uint16_t magic;

	s->l4_off = (uint16_t)w->off;
	if (w->proto == NB_IPPROTO_UDP) {
		if (room < NB_UDP_HLEN + NB_STAMP_LEN ||
		    w->len < w->off + NB_UDP_HLEN + NB_STAMP_LEN)
			return NB_FRAME_FOREIGN;
		magic = nb_get_be16(l4 + NB_UDP_OFF_MAGIC);
		s->seq = nb_get_be48(l4 + NB_UDP_OFF_SEQ);
		s->ts = nb_get_be48(l4 + NB_UDP_OFF_TS);
	} else {
		if (room < NB_TCP_HLEN + 2 ||
		    w->len < w->off + NB_TCP_HLEN + 2 ||
		    (uint32_t)(l4[NB_TCP_OFF_DOFF] >> 4) * 4 != NB_TCP_HLEN)
			return NB_FRAME_FOREIGN;
		magic = nb_get_be16(l4 + NB_TCP_OFF_MAGIC);
		s->seq = ((uint64_t)nb_get_be16(l4 + NB_TCP_OFF_WIN) << 32) |
			 nb_get_be32(l4 + NB_TCP_OFF_SEQ);
		s->ts = ((uint64_t)nb_get_be16(l4 + NB_TCP_OFF_URG) << 32) |
			nb_get_be32(l4 + NB_TCP_OFF_ACK);
	}
	if (magic == NB_MAGIC_DATA)
		return NB_FRAME_DATA;
	if (magic == NB_MAGIC_PROBE && w->depth == 0)
		return NB_FRAME_PROBE;
	if (magic == NB_MAGIC_WARMUP)
		return NB_FRAME_WARMUP;
	return NB_FRAME_FOREIGN;
}

/* Enter a tunnel at w->off: a VXLAN header (then an inner Ethernet frame),
 * or the protocol a GRE header named.  0, or -1. */
static inline int
nb_walk_tunnel(struct nb_walk *w)
{
	if (w->depth++)
		return -1; /* one tunnel deep */
	if (w->proto == NB_IPPROTO_UDP) {
		/* VXLAN: the I flag (the VNI is valid; RFC 7348 has the
		 * other bits ignored on receipt), then the inner frame */
		if (w->len < w->off + NB_UDP_HLEN + NB_VXLAN_HLEN ||
		    !(w->p[w->off + NB_UDP_HLEN] & 0x08))
			return -1;
		w->off += NB_UDP_HLEN + NB_VXLAN_HLEN;
		return nb_walk_eth(w);
	}
	if (nb_walk_gre(w) != 0)
		return -1;
	if (w->et == NB_ETHERTYPE_TEB)
		return nb_walk_eth(w);
	return 0;
}

/*
 * Classify a received frame and, for data and warm-up frames, extract the
 * stamp.  len is the number of contiguous bytes at p (the first segment),
 * frame_len the whole frame without FCS (>= len for multi-segment mbufs).
 * Never reads past len; IP lengths are checked against frame_len (and an
 * inner packet's against its outer one).  Any inconsistency (bad version,
 * IHL, lengths, truncation) makes the frame FOREIGN.  Checksums are not
 * verified here (the NIC or the test checks them).
 */
static inline enum nb_frame_kind
nb_frame_parse(const uint8_t *p, uint32_t len, uint32_t frame_len,
	       struct nb_stamp *s)
{
	struct nb_walk w = {.p = p, .len = len, .end = frame_len};
	int r;

	if (len < NB_ETH_HLEN + NB_IPV4_HLEN + NB_UDP_HLEN || frame_len < len ||
	    nb_walk_eth(&w) != 0)
		return NB_FRAME_FOREIGN;
	s->inner = 0;
next:
	if (__builtin_expect(w.et == NB_ETHERTYPE_IPV4, 1))
		r = nb_walk_ipv4(&w, s);
	else if (w.et == NB_ETHERTYPE_IPV6)
		r = nb_walk_ipv6(&w, s);
	else if (w.et == NB_ETHERTYPE_MPLS && w.depth == 0)
		r = nb_walk_mpls(&w) == 0 ? (w.depth = 1, 2) : -1;
	else
		return w.et == NB_ETHERTYPE_ARP && w.depth == 0
			       ? NB_FRAME_ARP
			       : NB_FRAME_FOREIGN;
	if (r == 2)
		goto next; /* below the labels: the IP packet */
	if (r != 0)
		return r == 1 ? NB_FRAME_FRAGMENT : NB_FRAME_FOREIGN;
	s->inner = w.depth;
	if (w.proto == NB_IPPROTO_UDP) {
		uint16_t dport;

		if (w.end < w.off + NB_UDP_HLEN || len < w.off + NB_UDP_HLEN)
			return NB_FRAME_FOREIGN;
		dport = nb_get_be16(p + w.off + NB_L4_OFF_DPORT);
		if (dport == NB_CONTROL_UDP_PORT)
			return w.depth ? NB_FRAME_FOREIGN : NB_FRAME_CONTROL;
		if (dport == NB_VXLAN_UDP_PORT) {
			if (nb_walk_tunnel(&w) != 0)
				return NB_FRAME_FOREIGN;
			goto next;
		}
		return nb_walk_stamp(&w, s);
	}
	if (w.proto == NB_IPPROTO_TCP)
		return nb_walk_stamp(&w, s);
	if (w.proto == NB_IPPROTO_GRE) {
		if (nb_walk_tunnel(&w) != 0)
			return NB_FRAME_FOREIGN;
		goto next;
	}
	if (w.depth)
		return NB_FRAME_FOREIGN;
	if (w.proto == NB_IPPROTO_ICMP && !s->v6)
		return NB_FRAME_ICMP;
	return w.proto == NB_IPPROTO_ICMPV6 && s->v6 ? NB_FRAME_ICMP6
						     : NB_FRAME_FOREIGN;
}

/* Exchange the n bytes at a and b (t: n bytes of scratch). */
static inline void
nb_swap_bytes(uint8_t *a, uint8_t *b, uint8_t *t, size_t n)
{
	memcpy(t, a, n);
	memcpy(a, b, n);
	memcpy(b, t, n);
}

/*
 * Turn a parsed frame around in place: swap the MACs, the IP addresses
 * and the L4 ports.  Every checksum stays valid (one's complement sums do
 * not depend on the order of their words).  s from nb_frame_parse() of a
 * frame outside a tunnel (a probe).
 */
static inline void
nb_frame_turn_around(uint8_t *p, const struct nb_stamp *s)
{
	uint8_t t[16];
	uint32_t a = s->l3_off + (s->v6 ? 8 : NB_IPV4_OFF_SRC);
	size_t n = s->v6 ? 16 : 4;

	nb_swap_bytes(p + NB_ETH_OFF_DST, p + NB_ETH_OFF_SRC, t, 6);
	nb_swap_bytes(p + a, p + a + n, t, n);
	nb_swap_bytes(p + s->l4_off + NB_L4_OFF_SPORT,
		      p + s->l4_off + NB_L4_OFF_DPORT, t, 2);
}

#endif /* NB_FRAME_PARSE_H */
