/* SPDX-License-Identifier: BSD-3-Clause */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_frame.h"
#include "nb_l2.h"

/* The Ethernet/IPv4 ARP body (RFC 826): offsets and length. */
enum {
	ARP_OFF_HTYPE = 0,
	ARP_OFF_PTYPE = 2,
	ARP_OFF_HLEN = 4,
	ARP_OFF_PLEN = 5,
	ARP_OFF_OP = 6,
	ARP_OFF_SHA = 8,
	ARP_OFF_SPA = 14,
	ARP_OFF_THA = 18,
	ARP_OFF_TPA = 24,
	ARP_LEN = 28,
};
#define ARP_HTYPE_ETHER 1
#define ARP_OP_REQUEST	1
#define ARP_OP_REPLY	2

/* ICMP echo (RFC 792): offsets and types. */
#define ICMP_OFF_TYPE	0
#define ICMP_OFF_CODE	1
#define ICMP_OFF_CSUM	2
#define ICMP_ECHO_REPLY 0
#define ICMP_ECHO	8

/* Ethernet header and optional tag: returns the L3 offset, or 0. */
static uint32_t
l2_parse(const uint8_t *p, uint32_t len, uint16_t *ethertype, uint16_t *vlan)
{
	uint32_t off = NB_ETH_HLEN;

	if (len < NB_ETH_HLEN)
		return 0;
	*vlan = 0;
	*ethertype = nb_get_be16(p + NB_ETH_OFF_TYPE);
	if (*ethertype == NB_ETHERTYPE_VLAN) {
		if (len < NB_ETH_HLEN + NB_VLAN_HLEN)
			return 0;
		*vlan = nb_get_be16(p + NB_VLAN_OFF_TCI) & 0x0fff;
		*ethertype = nb_get_be16(p + NB_VLAN_OFF_TYPE);
		off += NB_VLAN_HLEN;
	}
	return off;
}

struct nb_addr_text
nb_addr_text(uint32_t ip, const uint8_t *ip6)
{
	struct nb_addr_text t = {"?"};

	if (ip6 != NULL)
		inet_ntop(AF_INET6, ip6, t.s, sizeof(t.s));
	else
		snprintf(t.s, sizeof(t.s), "%u.%u.%u.%u", ip >> 24,
			 (ip >> 16) & 0xff, (ip >> 8) & 0xff, ip & 0xff);
	return t;
}

struct nb_addr_text
nb_udp_src_text(const struct nb_udp_info *u)
{
	return nb_addr_text(u->src_ip, u->v6 ? u->src_ip6 : NULL);
}

int
nb_udp_frame_build(uint8_t *buf, size_t buflen, const struct nb_udp_info *h,
		   const uint8_t *payload, size_t plen)
{
	uint32_t l3, len;
	uint16_t c, ulen;
	uint8_t *udp, src[4], dst[4];

	if (h->vlan_id > 4094 || plen > 9000)
		return -EINVAL;
	ulen = (uint16_t)(NB_UDP_HLEN + plen);
	len = NB_ETH_HLEN + (h->vlan_id ? NB_VLAN_HLEN : 0) +
	      (h->v6 ? NB_IPV6_HLEN : NB_IPV4_HLEN) + ulen;
	if (len < NB_MIN_WIRE)
		len = NB_MIN_WIRE;
	if (buflen < len)
		return -ENOSPC;
	memset(buf, 0, len);
	l3 = nb_eth_hdr_write(buf, h->dst_mac, h->src_mac, h->vlan_id,
			      h->v6 ? NB_ETHERTYPE_IPV6 : NB_ETHERTYPE_IPV4);
	nb_put_be32(src, h->src_ip);
	nb_put_be32(dst, h->dst_ip);
	udp = buf + l3 +
	      nb_ip_hdr_write(buf + l3, h->v6 ? 6 : 4, ulen, 0, 0, 0,
			      NB_IPPROTO_UDP, h->v6 ? h->src_ip6 : src,
			      h->v6 ? h->dst_ip6 : dst);
	nb_put_be16(udp + NB_L4_OFF_SPORT, h->src_port);
	nb_put_be16(udp + NB_L4_OFF_DPORT, h->dst_port);
	nb_put_be16(udp + NB_UDP_OFF_LEN, ulen);
	memcpy(udp + NB_UDP_HLEN, payload, plen);
	c = nb_l4_csum(buf + l3, NB_IPPROTO_UDP, udp, ulen);
	nb_put_be16(udp + NB_UDP_OFF_CSUM, c ? c : 0xffff);
	return (int)len;
}

int
nb_ipv4_locate(const uint8_t *p, uint32_t len, uint8_t proto,
	       struct nb_ipv4_loc *o)
{
	uint16_t et, tot;
	uint32_t l3, ihl;
	const uint8_t *ip;

	l3 = l2_parse(p, len, &et, &o->vlan_id);
	if (l3 == 0 || et != NB_ETHERTYPE_IPV4 || len < l3 + NB_IPV4_HLEN)
		return -EPROTO;
	ip = p + l3;
	ihl = (uint32_t)(ip[0] & 0xf) * 4;
	if ((ip[0] >> 4) != 4 || ihl < NB_IPV4_HLEN || len < l3 + ihl)
		return -EPROTO;
	tot = nb_get_be16(ip + NB_IPV4_OFF_LEN);
	if (tot < ihl || l3 + tot > len || ip[NB_IPV4_OFF_PROTO] != proto)
		return -EPROTO;
	if (nb_ipv4_hdr_csum(ip, ihl) != 0)
		return -EPROTO;
	/* fragments are not ours */
	if ((nb_get_be16(ip + NB_IPV4_OFF_FRAG) & 0x3fff) != 0)
		return -EPROTO;
	o->l3 = l3;
	o->l4 = l3 + ihl;
	o->l4_len = tot - ihl;
	o->v6 = 0;
	return 0;
}

/* The IPv6 part of nb_ip_locate(), the header at l3. */
static int
ipv6_locate(const uint8_t *p, uint32_t len, uint32_t l3, uint8_t proto,
	    struct nb_ipv4_loc *o)
{
	const uint8_t *ip = p + l3;
	uint32_t end, off = l3 + NB_IPV6_HLEN;
	uint8_t nh;
	int i;

	if (len < off || (ip[0] >> 4) != 6)
		return -EPROTO;
	end = off + nb_get_be16(ip + 4);
	if (end > len)
		return -EPROTO;
	nh = ip[6];
	/* hop-by-hop, routing, destination options: (length + 1) * 8 B */
	for (i = 0; i < 4 && (nh == 0 || nh == 43 || nh == 60); i++) {
		if (end < off + 8)
			return -EPROTO;
		nh = p[off];
		off += ((uint32_t)p[off + 1] + 1) * 8;
	}
	if (nh != proto || off > end)
		return -EPROTO;
	o->l3 = l3;
	o->l4 = off;
	o->l4_len = end - off;
	o->v6 = 1;
	return 0;
}

int
nb_ip_locate(const uint8_t *p, uint32_t len, uint8_t proto,
	     struct nb_ipv4_loc *o)
{
	uint16_t et;
	uint32_t l3 = l2_parse(p, len, &et, &o->vlan_id);

	if (l3 != 0 && et == NB_ETHERTYPE_IPV6)
		return ipv6_locate(p, len, l3, proto, o);
	return nb_ipv4_locate(p, len, proto, o);
}

int
nb_udp_frame_parse(const uint8_t *p, uint32_t len, struct nb_udp_info *o)
{
	struct nb_ipv4_loc loc;
	const uint8_t *ip, *udp;
	uint16_t ulen;

	if (nb_ip_locate(p, len, NB_IPPROTO_UDP, &loc) != 0 ||
	    loc.l4_len < NB_UDP_HLEN)
		return -EPROTO;
	ip = p + loc.l3;
	udp = p + loc.l4;
	ulen = nb_get_be16(udp + NB_UDP_OFF_LEN);
	if (ulen < NB_UDP_HLEN || ulen > loc.l4_len)
		return -EPROTO;
	/* IPv4 may leave the checksum out (0); IPv6 may not */
	if ((nb_get_be16(udp + NB_UDP_OFF_CSUM) != 0 || loc.v6) &&
	    nb_l4_csum(ip, NB_IPPROTO_UDP, udp, ulen) != 0)
		return -EPROTO;
	if (loc.v6 && nb_get_be16(udp + NB_UDP_OFF_CSUM) == 0)
		return -EPROTO;
	o->vlan_id = loc.vlan_id;
	memcpy(o->dst_mac, p + NB_ETH_OFF_DST, 6);
	memcpy(o->src_mac, p + NB_ETH_OFF_SRC, 6);
	o->v6 = loc.v6;
	if (loc.v6) {
		memcpy(o->src_ip6, ip + 8, 16);
		memcpy(o->dst_ip6, ip + 24, 16);
		o->src_ip = nb_ip6_key(o->src_ip6);
		o->dst_ip = nb_ip6_key(o->dst_ip6);
	} else {
		o->src_ip = nb_get_be32(ip + NB_IPV4_OFF_SRC);
		o->dst_ip = nb_get_be32(ip + NB_IPV4_OFF_DST);
	}
	o->src_port = nb_get_be16(udp + NB_L4_OFF_SPORT);
	o->dst_port = nb_get_be16(udp + NB_L4_OFF_DPORT);
	o->payload = udp + NB_UDP_HLEN;
	o->payload_len = (uint16_t)(ulen - NB_UDP_HLEN);
	return 0;
}

/* Checks an Ethernet/IPv4 ARP body; returns its offset or 0. */
static uint32_t
arp_body(const uint8_t *p, uint32_t len, uint16_t *vlan)
{
	uint16_t et;
	uint32_t off = l2_parse(p, len, &et, vlan);

	if (off == 0 || et != NB_ETHERTYPE_ARP || len < off + ARP_LEN)
		return 0;
	if (nb_get_be16(p + off + ARP_OFF_HTYPE) != ARP_HTYPE_ETHER ||
	    nb_get_be16(p + off + ARP_OFF_PTYPE) != NB_ETHERTYPE_IPV4 ||
	    p[off + ARP_OFF_HLEN] != 6 || p[off + ARP_OFF_PLEN] != 4)
		return 0;
	return off;
}

/*
 * Write a 60-byte Ethernet [802.1Q] ARP frame to eth_dst: operation op from
 * my_mac/my_ip about tha (NULL: zero) / tpa.  Returns its length.
 */
static int
arp_write(uint8_t *out, const uint8_t eth_dst[6], const uint8_t my_mac[6],
	  uint16_t vlan, uint16_t op, uint32_t my_ip, const uint8_t *tha,
	  uint32_t tpa)
{
	uint8_t *a;

	memset(out, 0, NB_MIN_WIRE);
	a = out +
	    nb_eth_hdr_write(out, eth_dst, my_mac, vlan, NB_ETHERTYPE_ARP);
	nb_put_be16(a + ARP_OFF_HTYPE, ARP_HTYPE_ETHER);
	nb_put_be16(a + ARP_OFF_PTYPE, NB_ETHERTYPE_IPV4);
	a[ARP_OFF_HLEN] = 6;
	a[ARP_OFF_PLEN] = 4;
	nb_put_be16(a + ARP_OFF_OP, op);
	memcpy(a + ARP_OFF_SHA, my_mac, 6);
	nb_put_be32(a + ARP_OFF_SPA, my_ip);
	if (tha != NULL)
		memcpy(a + ARP_OFF_THA, tha, 6);
	nb_put_be32(a + ARP_OFF_TPA, tpa);
	return NB_MIN_WIRE;
}

int
nb_arp_answer(const uint8_t *req, uint32_t len, const uint8_t my_mac[6],
	      uint32_t my_ip, uint8_t *out, size_t outlen)
{
	uint16_t vlan;
	uint32_t off = arp_body(req, len, &vlan);
	const uint8_t *a = req + off;

	if (off == 0)
		return -EPROTO;
	if (nb_get_be16(a + ARP_OFF_OP) != ARP_OP_REQUEST ||
	    nb_get_be32(a + ARP_OFF_TPA) != my_ip)
		return 0;
	if (outlen < NB_MIN_WIRE)
		return -ENOSPC;
	/* to the requester's MAC and IP */
	return arp_write(out, a + ARP_OFF_SHA, my_mac, vlan, ARP_OP_REPLY,
			 my_ip, a + ARP_OFF_SHA, nb_get_be32(a + ARP_OFF_SPA));
}

int
nb_arp_request(uint8_t *out, size_t outlen, const uint8_t my_mac[6],
	       uint32_t my_ip, uint16_t vlan_id, uint32_t target_ip)
{
	static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

	if (outlen < NB_MIN_WIRE || vlan_id > 4094)
		return -ENOSPC;
	return arp_write(out, bcast, my_mac, vlan_id, ARP_OP_REQUEST, my_ip,
			 NULL, target_ip);
}

int
nb_arp_sender_is(const uint8_t *frame, uint32_t len, uint32_t ip,
		 uint8_t mac_out[6])
{
	uint16_t vlan;
	uint32_t off = arp_body(frame, len, &vlan);

	if (off == 0)
		return -EPROTO;
	if (nb_get_be32(frame + off + ARP_OFF_SPA) != ip)
		return 0;
	memcpy(mac_out, frame + off + ARP_OFF_SHA, 6);
	return 1;
}

int
nb_icmp_echo_answer(const uint8_t *req, uint32_t len, const uint8_t my_mac[6],
		    uint32_t my_ip, uint8_t *out, size_t outlen)
{
	uint16_t et, vlan, tot;
	uint32_t l3 = l2_parse(req, len, &et, &vlan), ihl, o, ilen;
	const uint8_t *ip;
	uint8_t *icmp;

	if (l3 == 0 || et != NB_ETHERTYPE_IPV4 || len < l3 + NB_IPV4_HLEN)
		return -EPROTO;
	ip = req + l3;
	ihl = (uint32_t)(ip[0] & 0xf) * 4;
	tot = nb_get_be16(ip + NB_IPV4_OFF_LEN);
	if ((ip[0] >> 4) != 4 || ihl < NB_IPV4_HLEN || tot < ihl + 8 ||
	    l3 + tot > len || ip[NB_IPV4_OFF_PROTO] != NB_IPPROTO_ICMP)
		return -EPROTO;
	if (nb_get_be32(ip + NB_IPV4_OFF_DST) != my_ip ||
	    ip[ihl + ICMP_OFF_TYPE] != ICMP_ECHO ||
	    ip[ihl + ICMP_OFF_CODE] != 0)
		return 0;
	if ((nb_get_be16(ip + NB_IPV4_OFF_FRAG) & 0x3fff) != 0)
		return 0; /* fragmented echo: not answered */
	ilen = tot - ihl;
	if (outlen < (size_t)(l3 + NB_IPV4_HLEN + ilen) || outlen < NB_MIN_WIRE)
		return -ENOSPC;
	memset(out, 0, NB_MIN_WIRE);
	o = nb_eth_hdr_write(out, req + NB_ETH_OFF_SRC, my_mac, vlan,
			     NB_ETHERTYPE_IPV4);
	nb_ipv4_hdr_write(out + o, (uint16_t)(NB_IPV4_HLEN + ilen), 0, 0,
			  NB_IPPROTO_ICMP, my_ip,
			  nb_get_be32(ip + NB_IPV4_OFF_SRC));
	icmp = out + o + NB_IPV4_HLEN;
	memcpy(icmp, ip + ihl, ilen);
	icmp[ICMP_OFF_TYPE] = ICMP_ECHO_REPLY;
	nb_put_be16(icmp + ICMP_OFF_CSUM, 0);
	nb_put_be16(icmp + ICMP_OFF_CSUM,
		    nb_csum_fold(nb_csum_partial(icmp, ilen, 0)));
	o += NB_IPV4_HLEN + ilen;
	return (int)(o < NB_MIN_WIRE ? NB_MIN_WIRE : o);
}
