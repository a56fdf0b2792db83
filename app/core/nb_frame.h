/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The data frame layout, coded once.  docs/protocol.md describes the same
 * bytes; keep the two in step.  Pure: no DPDK calls.
 *
 *   Ethernet II (14 B) [tags: 802.1Q, or QinQ's two (4 B each)]
 *   [tunnel: MPLS labels | outer IP + GRE | outer IP + UDP + VXLAN + inner
 *   Ethernet]  IPv4 (20 B, no options) | IPv6 (40 B)  UDP|TCP
 *
 * Every data frame carries a 14-byte "stamp" (logical fields):
 *   magic   16 bits  NB_MAGIC_DATA, or NB_MAGIC_WARMUP during --omit
 *   seq     48 bits  per-stream sequence number, starting at 0
 *   tstamp  48 bits  sender's TX time in ns since its clock epoch
 * and a 16-bit stream id.  Placement:
 *   stream id   IPv4 Identification (DF is set, so RFC 6864 lets us), or
 *               the low 16 bits of the IPv6 flow label (of the inner IP
 *               header in a tunnel)
 *   UDP         payload[0..1] magic, [2..7] seq, [8..13] tstamp (big endian)
 *   TCP         seq field = seq[31:0], window = seq[47:32],
 *               ack field = tstamp[31:0], urgent ptr = tstamp[47:32]
 *               (URG not set), payload[0..1] = magic
 * so the smallest case, a 64 B TCP frame with a VLAN tag, still fits (2 B of
 * payload).  All stamp fields sit at even offsets from the L4 header, so
 * both protocols fix their checksum up with the same six 16-bit words
 * (RFC 1624 incremental update from the template, which has seq = tstamp =
 * 0).
 */
#ifndef NB_FRAME_H
#define NB_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define NB_FCS_LEN     4
#define NB_L1_OVERHEAD 20 /* preamble + SFD (8) + inter-frame gap (12) */

#define NB_ETH_HLEN   14
#define NB_VLAN_HLEN  4
#define NB_IPV4_HLEN  20
#define NB_IPV6_HLEN  40
#define NB_UDP_HLEN   8
#define NB_TCP_HLEN   20
#define NB_VXLAN_HLEN 8
#define NB_GRE_HLEN   4 /* without the optional key (4 B more) */
#define NB_MPLS_HLEN  4 /* one label stack entry */

#define NB_ETHERTYPE_IPV4  0x0800
#define NB_ETHERTYPE_IPV6  0x86dd
#define NB_ETHERTYPE_VLAN  0x8100
#define NB_ETHERTYPE_QINQ  0x88a8 /* 802.1ad service tag */
#define NB_ETHERTYPE_Q9100 0x9100 /* the pre-802.1ad QinQ TPID */
#define NB_ETHERTYPE_ARP   0x0806
#define NB_ETHERTYPE_MPLS  0x8847
#define NB_ETHERTYPE_TEB   0x6558 /* GRE: transparent Ethernet bridging */
#define NB_IPPROTO_ICMP	   1
#define NB_IPPROTO_TCP	   6
#define NB_IPPROTO_UDP	   17
#define NB_IPPROTO_GRE	   47
#define NB_IPPROTO_ICMPV6  58
#define NB_VXLAN_UDP_PORT  4789	  /* IANA, RFC 7348 */
#define NB_MAX_LABELS	   8	  /* --encap mpls: labels in the stack */
#define NB_IPV4_DF	   0x4000 /* flags and fragment offset: don't fragment */

#define NB_MAGIC_DATA	0x4e42 /* "NB" */
#define NB_MAGIC_WARMUP 0x4e57 /* "NW": sent during --omit, not counted */
#define NB_MAGIC_PROBE	0x4e50 /* "NP": latency probe, reflected by a peer */
#define NB_STAMP_LEN	14     /* UDP payload bytes used by the stamp */
#define NB_PROBE_MAX	2048   /* a ping-pong probe fits one 2 KB mbuf */

/* The UDP port control messages go to (docs/protocol.md). */
#define NB_CONTROL_UDP_PORT 7201

/* Default addressing: RFC 2544 benchmarking range 198.18.0.0/15. */
#define NB_DEFAULT_SRC_IP     0xc6120001u /* 198.18.0.1 */
#define NB_DEFAULT_DST_IP     0xc6130001u /* 198.19.0.1 */
#define NB_DEFAULT_SPORT_BASE 49152
#define NB_DEFAULT_DPORT      5001
#define NB_TCP_DPORT	      5201 /* --tcp: the listener's port, iperf3's */

/*
 * Byte offsets of the header fields: Ethernet from the frame start (the
 * VLAN ones in a tagged frame), IPv4 from the IPv4 header, L4 from the
 * UDP/TCP header.
 */
enum {
	NB_ETH_OFF_DST = 0,
	NB_ETH_OFF_SRC = 6,
	NB_ETH_OFF_TYPE = 12,
	NB_VLAN_OFF_TCI = 14,
	NB_VLAN_OFF_TYPE = 16,
	NB_IPV4_OFF_LEN = 2,
	NB_IPV4_OFF_ID = 4,
	NB_IPV4_OFF_FRAG = 6,
	NB_IPV4_OFF_TTL = 8,
	NB_IPV4_OFF_PROTO = 9,
	NB_IPV4_OFF_CSUM = 10,
	NB_IPV4_OFF_SRC = 12,
	NB_IPV4_OFF_DST = 16,
	NB_L4_OFF_SPORT = 0,
	NB_L4_OFF_DPORT = 2,
	NB_UDP_OFF_LEN = 4,
	NB_TCP_OFF_DOFF = 12,
	NB_TCP_OFF_FLAGS = 13,
};

/* Byte offsets of the stamp fields from the start of the L4 header. */
enum {
	NB_UDP_OFF_MAGIC = NB_UDP_HLEN + 0,
	NB_UDP_OFF_SEQ = NB_UDP_HLEN + 2,
	NB_UDP_OFF_TS = NB_UDP_HLEN + 8,
	NB_UDP_OFF_CSUM = 6,
	NB_TCP_OFF_SEQ = 4,
	NB_TCP_OFF_ACK = 8,
	NB_TCP_OFF_WIN = 14,
	NB_TCP_OFF_CSUM = 16,
	NB_TCP_OFF_URG = 18,
	NB_TCP_OFF_MAGIC = NB_TCP_HLEN + 0,
};

/* What carries the IP packet: nothing, or one tunnel (--encap). */
enum nb_encap_kind {
	NB_ENCAP_NONE = 0,
	NB_ENCAP_VXLAN, /* outer IP, UDP 4789, VXLAN, inner Ethernet */
	NB_ENCAP_GRE,	/* outer IP, GRE (key optional) */
	NB_ENCAP_MPLS,	/* a label stack after the Ethernet header */
};

/* An IPv4 or IPv6 address (family 4 or 6; IPv4 in a[0..3]). */
struct nb_ip {
	uint8_t family;
	uint8_t a[16];
};

/* The tunnel around a flow's IP packet. */
struct nb_tunnel {
	uint8_t kind;	   /* enum nb_encap_kind */
	uint8_t has_key;   /* GRE: the key field is present */
	uint8_t nb_labels; /* MPLS: labels, outermost first */
	uint8_t ttl;	   /* outer IP TTL / hop limit, MPLS TTL [64] */
	uint32_t id;	   /* VXLAN: the VNI (24 bits); GRE: the key */
	uint32_t labels[NB_MAX_LABELS]; /* 20 bits each */
	struct nb_ip src, dst;		/* VXLAN, GRE: the outer addresses */
	uint16_t src_port;		/* VXLAN: the outer UDP source port */
	uint8_t inner_dst_mac[6], inner_src_mac[6]; /* VXLAN */
};

/* One stream's addressing. */
struct nb_flow {
	uint8_t dst_mac[6];
	uint8_t src_mac[6];
	uint16_t vlan_id;    /* 0: untagged; 1..4094: 802.1Q tag (the inner one
			      * under a QinQ outer tag) */
	uint16_t outer_vid;  /* QinQ: the outer (service) tag; 0: none */
	uint16_t outer_tpid; /* its TPID: 0x88a8, 0x9100 or 0x8100 */
	uint8_t pcp;	     /* 802.1p priority of every tag */
	uint8_t tos;	     /* DSCP << 2 | ECN: IPv4 TOS, IPv6 class */
	uint8_t proto;	     /* NB_IPPROTO_UDP or NB_IPPROTO_TCP */
	uint8_t ttl;
	uint8_t family;	 /* 0 or 4: IPv4 (src_ip, dst_ip); 6: IPv6 */
	uint32_t src_ip; /* host byte order */
	uint32_t dst_ip;
	uint8_t src_ip6[16], dst_ip6[16]; /* network order */
	uint16_t src_port;
	uint16_t dst_port;
	uint16_t stream_id;
	struct nb_tunnel tun;
};

/* Flow b answers flow a: b's addresses are a's the other way round, in
 * a's family (0 and 4 both IPv4). */
static inline int
nb_flow_ips_reversed(const struct nb_flow *a, const struct nb_flow *b)
{
	if (a->family == 6)
		return b->family == 6 &&
		       memcmp(a->src_ip6, b->dst_ip6, 16) == 0 &&
		       memcmp(a->dst_ip6, b->src_ip6, 16) == 0;
	return b->family != 6 && a->src_ip == b->dst_ip &&
	       a->dst_ip == b->src_ip;
}

/* An IPv6 address in 32 bits: its four words XORed, big endian (a key
 * for what takes an IPv4 address, never an address). */
static inline uint32_t
nb_ip6_key(const uint8_t a[16])
{
	uint32_t k = 0;
	int i;

	for (i = 0; i < 16; i += 4)
		k ^= (uint32_t)a[i] << 24 | (uint32_t)a[i + 1] << 16 |
		     (uint32_t)a[i + 2] << 8 | a[i + 3];
	return k;
}

/* f's source (dst 0) or destination address in 32 bits: an IPv4 one as
 * it is, an IPv6 one's nb_ip6_key. */
static inline uint32_t
nb_flow_ip32(const struct nb_flow *f, int dst)
{
	if (f->family != 6)
		return dst ? f->dst_ip : f->src_ip;
	return nb_ip6_key(dst ? f->dst_ip6 : f->src_ip6);
}

/* out: the flow that answers in: its MACs, addresses and ports swapped,
 * all else in's. */
static inline void
nb_flow_reverse(struct nb_flow *out, const struct nb_flow *in)
{
	*out = *in;
	memcpy(out->dst_mac, in->src_mac, 6);
	memcpy(out->src_mac, in->dst_mac, 6);
	out->src_ip = in->dst_ip;
	out->dst_ip = in->src_ip;
	memcpy(out->src_ip6, in->dst_ip6, 16);
	memcpy(out->dst_ip6, in->src_ip6, 16);
	out->src_port = in->dst_port;
	out->dst_port = in->src_port;
}

/* A built template: the frame bytes plus what stamping needs.  The
 * generator copies the first of NB_TMPL_SMALL_HDR (IPv4 untagged, tagged,
 * QinQ, under up to two MPLS labels), NB_TMPL_MID_HDR (IPv6, GRE, VXLAN
 * over IPv4) and NB_TMPL_MAX_HDR (VXLAN over IPv6, larger stacks) bytes
 * that holds copy_len. */
#define NB_TMPL_SMALL_HDR 64
#define NB_TMPL_MID_HDR	  128
#define NB_TMPL_MAX_HDR	  192

struct nb_tmpl {
	uint16_t wire_len; /* frame length without FCS = size - 4 */
	uint16_t l4_off;   /* offset of the (inner) UDP/TCP header */
	uint16_t l3_off;   /* offset of the (inner) IP header */
	uint16_t copy_len; /* bytes to copy per packet: headers + stamp */
	uint16_t csum0;	   /* L4 checksum as stored with seq = tstamp = 0 */
	/* VXLAN over IPv6: the outer UDP checksum's offset (0: none to fix)
	 * and its value with seq = tstamp = 0 */
	uint16_t csum2_off, csum2_0;
	/* the L4 checksum stored per frame is (computed & csum_keep) |
	 * csum_fixed: 0xffff and 0 in software, 0 and the pseudo-header's
	 * sum when the NIC fills it (nb_tmpl_l4_csum_hw) */
	uint16_t csum_keep, csum_fixed;
	uint8_t proto;
	/* what the worker sets on each mbuf of this template: the mbuf's
	 * ol_flags and tx_offload, 0 unless the NIC fills the checksum */
	uint64_t mbuf_ol_flags, mbuf_tx_offload;
	uint8_t hdr[NB_TMPL_MAX_HDR];
};

/*
 * Leave the L4 checksum of every frame of t to the NIC (TX checksum
 * offload): the template's checksum field then holds the sum of the
 * pseudo-header only (source, destination, protocol, L4 length: as DPDK's
 * pseudo-header helper gives it, what the offload expects), and stamping
 * leaves it so.  The caller sets mbuf_ol_flags and mbuf_tx_offload.
 */
void nb_tmpl_l4_csum_hw(struct nb_tmpl *t);

/* The L2 and L3 header lengths of t's frames (for the mbuf's l2_len and
 * l3_len). */
static inline uint16_t
nb_tmpl_l2_len(const struct nb_tmpl *t)
{
	return t->l3_off;
}

static inline uint16_t
nb_tmpl_l3_len(const struct nb_tmpl *t)
{
	return (uint16_t)(t->l4_off - t->l3_off);
}

/* Header bytes before the L4 payload for this proto and tagging (plain
 * IPv4 stacks). */
size_t nb_frame_hdr_len(uint8_t proto, int vlan);

/* Header bytes before the (inner) L4 payload of f's frames: every tag,
 * the tunnel, the IP and L4 headers. */
size_t nb_flow_hdr_len(const struct nb_flow *f);

/* The smallest frame size (incl. FCS, at least 64) that carries f's
 * stamp. */
uint32_t nb_flow_min_size(const struct nb_flow *f);

/* Smallest frame size (incl. FCS) that carries the stamp: 64 always. */
int nb_frame_size_ok(uint8_t proto, int vlan, uint32_t size);

/*
 * Build a frame of `size` bytes (incl. FCS) into buf (buflen >= size - 4):
 * headers, magic, zero seq/tstamp, zero padding, valid IPv4 and L4
 * checksums.  Fills *t (t may be NULL).  Returns the wire length (size - 4)
 * or -EINVAL.
 */
int nb_frame_build(uint8_t *buf, size_t buflen, const struct nb_flow *f,
		   uint32_t size, uint16_t magic, struct nb_tmpl *t);

/* One's-complement sum helpers (RFC 1071), inline: the headers' sums are
 * of a few fixed lengths, which the compiler then unrolls. */

/* A 64-bit sum of native-order words folded to 16 bits, in the numeric
 * order of big-endian words (swapped once on a little-endian host). */
static inline uint32_t
nb_csum_fold64(uint64_t s)
{
	s = (s & 0xffffffffu) + (s >> 32);
	s = (s & 0xffffu) + (s >> 16);
	s = (s & 0xffffu) + (s >> 16);
	s = (s & 0xffffu) + (s >> 16);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	s = ((s & 0xff) << 8) | (s >> 8);
#endif
	return (uint32_t)s;
}

static inline uint32_t
nb_csum_partial(const void *data, size_t len, uint32_t sum)
{
	/*
	 * RFC 1071: the one's-complement sum does not depend on the byte
	 * order, so sum 8 native bytes at a time with the end-around carry
	 * and swap the folded 16 bits once (on a little-endian host).
	 */
	const uint8_t *p = data;
	uint64_t s = 0, v;
	uint16_t h;

	while (len >= 8) {
		memcpy(&v, p, 8);
		s += v;
		s += s < v; /* end-around carry */
		p += 8;
		len -= 8;
	}
	while (len >= 2) {
		memcpy(&h, p, 2);
		s += h;
		s += s < h;
		p += 2;
		len -= 2;
	}
	if (len) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		v = p[0]; /* the high byte of a big-endian word */
#else
		v = (uint64_t)p[0] << 8;
#endif
		s += v;
		s += s < v;
	}
	return sum + nb_csum_fold64(s);
}

/*
 * nb_csum_partial(data, 4 x n, 0) for a few words (a header: n of 16 or
 * fewer), by plain adds of 32-bit words, which cannot carry out of 64
 * bits, and one fold: no carry to test after each add.
 */
static inline uint32_t
nb_csum_words(const void *data, unsigned int n)
{
	const uint8_t *p = data;
	uint64_t s = 0;
	uint32_t w;
	unsigned int i;

	for (i = 0; i < n; i++) {
		memcpy(&w, p + 4 * i, 4);
		s += w;
	}
	return nb_csum_fold64(s);
}

static inline uint16_t
nb_csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/*
 * Write the Ethernet header at p: dst, src, an 802.1Q tag when vlan_id is
 * not 0 (PCP 0), then ethertype.  Returns the L3 offset (14 or 18).
 */
uint32_t nb_eth_hdr_write(uint8_t *p, const uint8_t dst[6],
			  const uint8_t src[6], uint16_t vlan_id,
			  uint16_t ethertype);

/*
 * Write a 20-byte IPv4 header at ip (no options, DF set, TTL ttl or 64
 * when 0) with its header checksum.
 */
void nb_ipv4_hdr_write(uint8_t *ip, uint16_t total_len, uint16_t id,
		       uint8_t ttl, uint8_t proto, uint32_t src, uint32_t dst);

/*
 * An IP header of family 4 or 6 at ip with payload_len bytes after it:
 * IPv4 with DF, id and its checksum; IPv6 with the flow label id.  tos:
 * DSCP << 2 | ECN; src and dst in network order (4 or 16 bytes).  Returns
 * its length.
 */
uint32_t nb_ip_hdr_write(uint8_t *ip, uint8_t family, uint32_t payload_len,
			 uint16_t id, uint8_t ttl, uint8_t tos, uint8_t proto,
			 const uint8_t *src, const uint8_t *dst);

/*
 * The checksum of the ihl-byte IPv4 header at ip: with its checksum field
 * zero, the value to store there; over a stored header, 0 if it is right.
 */
uint16_t nb_ipv4_hdr_csum(const uint8_t *ip, size_t ihl);

/*
 * The TCP/UDP checksum over the pseudo-header (the addresses of the IPv4
 * header at ip, proto, l4len) and the l4len bytes of segment at l4: with
 * its checksum field zero, the value to store (UDP sends a computed 0 as
 * 0xffff); over a stored segment, 0 if it is right.
 */
uint16_t nb_l4_csum(const uint8_t *ip, uint8_t proto, const uint8_t *l4,
		    uint32_t l4len);

/*
 * Big-endian fields at any alignment.  One load or store and a byte swap
 * each on a little-endian host (GCC did not merge the byte-wise form: the
 * generator's stamp spent 23 instructions a frame on it), the byte-wise
 * form elsewhere.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NB_BE16(x) __builtin_bswap16(x)
#define NB_BE32(x) __builtin_bswap32(x)
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NB_BE16(x) (x)
#define NB_BE32(x) (x)
#endif

static inline void
nb_put_be16(uint8_t *p, uint16_t v)
{
#ifdef NB_BE16
	v = NB_BE16(v);
	memcpy(p, &v, sizeof(v));
#else
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
#endif
}

static inline uint16_t
nb_get_be16(const uint8_t *p)
{
#ifdef NB_BE16
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return NB_BE16(v);
#else
	return (uint16_t)((p[0] << 8) | p[1]);
#endif
}

static inline void
nb_put_be32(uint8_t *p, uint32_t v)
{
#ifdef NB_BE32
	v = NB_BE32(v);
	memcpy(p, &v, sizeof(v));
#else
	nb_put_be16(p, (uint16_t)(v >> 16));
	nb_put_be16(p + 2, (uint16_t)v);
#endif
}

static inline uint32_t
nb_get_be32(const uint8_t *p)
{
#ifdef NB_BE32
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return NB_BE32(v);
#else
	return ((uint32_t)nb_get_be16(p) << 16) | nb_get_be16(p + 2);
#endif
}

/* 48 bits: the high 32, then the low 16. */
static inline void
nb_put_be48(uint8_t *p, uint64_t v)
{
	nb_put_be32(p, (uint32_t)(v >> 16));
	nb_put_be16(p + 4, (uint16_t)v);
}

static inline uint64_t
nb_get_be48(const uint8_t *p)
{
	return ((uint64_t)nb_get_be32(p) << 16) | nb_get_be16(p + 4);
}

/* The sum of the three 16-bit words of a 48-bit value. */
static inline uint32_t
nb_sum48(uint64_t v)
{
	return (uint32_t)((v >> 32) & 0xffff) + (uint32_t)((v >> 16) & 0xffff) +
	       (uint32_t)(v & 0xffff);
}

/* Checksum after adding the six stamp words (and extra, a one's-complement
 * addend: a flow's fields, nb_flows.h) to a template's checksum. */
static inline uint16_t
nb_stamp_csum_x(uint16_t csum0, uint64_t seq, uint64_t ts, int udp,
		uint32_t extra)
{
	uint32_t sum = (uint16_t)~csum0;
	uint16_t c;

	sum += nb_sum48(seq) + nb_sum48(ts) + extra;
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	c = (uint16_t)~sum;
	/* UDP sends a computed 0 as 0xffff (0 means "no checksum"). */
	if (udp && c == 0)
		c = 0xffff;
	return c;
}

/* Checksum after adding the six stamp words to a template's checksum. */
static inline uint16_t
nb_stamp_csum(uint16_t csum0, uint64_t seq, uint64_t ts, int udp)
{
	return nb_stamp_csum_x(csum0, seq, ts, udp, 0);
}

/*
 * Write seq and tstamp into a frame copied from t, as the 32- and 16-bit
 * halves at the given L4 offsets (UDP: both halves of a 48-bit big-endian
 * field are adjacent), and fix the checksum.  udp is a constant at every
 * call, so each caller compiles to straight-line stores: always inlined
 * (with a flow's addend GCC made it a call, 54 instructions a frame).
 */
static inline __attribute__((always_inline)) void
nb_stamp_at_x(uint8_t *frame, const struct nb_tmpl *t, uint64_t seq,
	      uint64_t ts, int udp, uint32_t extra)
{
	uint8_t *l4 = frame + t->l4_off;

	if (udp) {
		nb_put_be48(l4 + NB_UDP_OFF_SEQ, seq);
		nb_put_be48(l4 + NB_UDP_OFF_TS, ts);
	} else {
		nb_put_be32(l4 + NB_TCP_OFF_SEQ, (uint32_t)seq);
		nb_put_be16(l4 + NB_TCP_OFF_WIN, (uint16_t)(seq >> 32));
		nb_put_be32(l4 + NB_TCP_OFF_ACK, (uint32_t)ts);
		nb_put_be16(l4 + NB_TCP_OFF_URG, (uint16_t)(ts >> 32));
	}
	nb_put_be16(l4 + (udp ? NB_UDP_OFF_CSUM : NB_TCP_OFF_CSUM),
		    (uint16_t)((nb_stamp_csum_x(t->csum0, seq, ts, udp, extra) &
				t->csum_keep) |
			       t->csum_fixed));
}

/* nb_stamp_at_x with nothing more to add. */
static inline void
nb_stamp_at(uint8_t *frame, const struct nb_tmpl *t, uint64_t seq, uint64_t ts,
	    int udp)
{
	nb_stamp_at_x(frame, t, seq, ts, udp, 0);
}

/* Write seq and tstamp into a UDP frame copied from t, fix the checksum. */
static inline void
nb_stamp_udp(uint8_t *frame, const struct nb_tmpl *t, uint64_t seq, uint64_t ts)
{
	nb_stamp_at(frame, t, seq, ts, 1);
}

/* The same for a TCP frame (see the stamp placement above). */
static inline void
nb_stamp_tcp(uint8_t *frame, const struct nb_tmpl *t, uint64_t seq, uint64_t ts)
{
	nb_stamp_at(frame, t, seq, ts, 0);
}

/*
 * After nb_stamp_at on a frame of t whose outer UDP checksum covers the
 * stamp (VXLAN over IPv6: csum2_off is not 0): fix that checksum too.  The
 * outer sum gains the six stamp words and the inner checksum's change
 * (RFC 1624: adding ~old and new).
 */
static inline void
nb_stamp_outer(uint8_t *frame, const struct nb_tmpl *t, uint64_t seq,
	       uint64_t ts, int udp)
{
	const uint8_t *l4 = frame + t->l4_off;
	uint16_t now =
		nb_get_be16(l4 + (udp ? NB_UDP_OFF_CSUM : NB_TCP_OFF_CSUM));
	uint32_t sum = (uint16_t)~t->csum2_0;
	uint16_t c;

	sum += nb_sum48(seq) + nb_sum48(ts) + (uint16_t)~t->csum0 + now;
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	c = (uint16_t)~sum;
	nb_put_be16(frame + t->csum2_off, c ? c : 0xffff);
}

#include "nb_frame_parse.h"

#endif /* NB_FRAME_H */
