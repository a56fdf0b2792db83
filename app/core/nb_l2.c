/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include "nb_frame.h"
#include "nb_l2.h"

#define NB_IPPROTO_ICMP 1
#define ARP_LEN		28

/* Ethernet header and optional tag: returns the L3 offset, or 0. */
static uint32_t
l2_parse(const uint8_t *p, uint32_t len, uint16_t *ethertype, uint16_t *vlan)
{
	uint32_t off = NB_ETH_HLEN;

	if (len < NB_ETH_HLEN)
		return 0;
	*vlan = 0;
	*ethertype = nb_get_be16(p + 12);
	if (*ethertype == NB_ETHERTYPE_VLAN) {
		if (len < NB_ETH_HLEN + NB_VLAN_HLEN)
			return 0;
		*vlan = nb_get_be16(p + 14) & 0x0fff;
		*ethertype = nb_get_be16(p + 16);
		off += NB_VLAN_HLEN;
	}
	return off;
}

static uint32_t
l2_build(uint8_t *p, const uint8_t dst[6], const uint8_t src[6], uint16_t vlan,
	 uint16_t ethertype)
{
	uint32_t off = 12;

	memcpy(p, dst, 6);
	memcpy(p + 6, src, 6);
	if (vlan) {
		nb_put_be16(p + 12, NB_ETHERTYPE_VLAN);
		nb_put_be16(p + 14, vlan);
		off += NB_VLAN_HLEN;
	}
	nb_put_be16(p + off, ethertype);
	return off + 2;
}

static void
ipv4_header(uint8_t *ip, uint16_t total, uint8_t proto, uint32_t src,
	    uint32_t dst)
{
	memset(ip, 0, NB_IPV4_HLEN);
	ip[0] = 0x45;
	nb_put_be16(ip + 2, total);
	nb_put_be16(ip + 6, 0x4000);
	ip[8] = 64;
	ip[9] = proto;
	nb_put_be32(ip + 12, src);
	nb_put_be32(ip + 16, dst);
	nb_put_be16(ip + 10,
		    nb_csum_fold(nb_csum_partial(ip, NB_IPV4_HLEN, 0)));
}

static uint16_t
udp_csum(const uint8_t *ip, const uint8_t *udp, uint16_t ulen)
{
	uint32_t sum = nb_csum_partial(ip + 12, 8, 0);

	sum += NB_IPPROTO_UDP;
	sum += ulen;
	sum = nb_csum_partial(udp, ulen, sum);
	return nb_csum_fold(sum);
}

int
nb_udp_frame_build(uint8_t *buf, size_t buflen, const struct nb_udp_info *h,
		   const uint8_t *payload, size_t plen)
{
	uint32_t l3, len;
	uint16_t c;

	if (h->vlan_id > 4094 || plen > 9000)
		return -EINVAL;
	l3 = (h->vlan_id ? 18 : 14);
	len = l3 + NB_IPV4_HLEN + NB_UDP_HLEN + (uint32_t)plen;
	if (buflen < (len < NB_MIN_WIRE ? NB_MIN_WIRE : len))
		return -ENOSPC;
	memset(buf, 0, len < NB_MIN_WIRE ? NB_MIN_WIRE : len);
	l3 = l2_build(buf, h->dst_mac, h->src_mac, h->vlan_id,
		      NB_ETHERTYPE_IPV4);
	ipv4_header(buf + l3, (uint16_t)(NB_IPV4_HLEN + NB_UDP_HLEN + plen),
		    NB_IPPROTO_UDP, h->src_ip, h->dst_ip);
	nb_put_be16(buf + l3 + 20, h->src_port);
	nb_put_be16(buf + l3 + 22, h->dst_port);
	nb_put_be16(buf + l3 + 24, (uint16_t)(NB_UDP_HLEN + plen));
	memcpy(buf + l3 + 28, payload, plen);
	c = udp_csum(buf + l3, buf + l3 + 20, (uint16_t)(NB_UDP_HLEN + plen));
	nb_put_be16(buf + l3 + 26, c ? c : 0xffff);
	return (int)(len < NB_MIN_WIRE ? NB_MIN_WIRE : len);
}

int
nb_udp_frame_parse(const uint8_t *p, uint32_t len, struct nb_udp_info *o)
{
	uint16_t et, tot, ulen;
	uint32_t l3, ihl;
	const uint8_t *ip, *udp;

	l3 = l2_parse(p, len, &et, &o->vlan_id);
	if (l3 == 0 || et != NB_ETHERTYPE_IPV4 || len < l3 + NB_IPV4_HLEN)
		return -EPROTO;
	ip = p + l3;
	ihl = (uint32_t)(ip[0] & 0xf) * 4;
	if ((ip[0] >> 4) != 4 || ihl < NB_IPV4_HLEN || len < l3 + ihl)
		return -EPROTO;
	tot = nb_get_be16(ip + 2);
	if (tot < ihl + NB_UDP_HLEN || l3 + tot > len ||
	    ip[9] != NB_IPPROTO_UDP)
		return -EPROTO;
	if (nb_csum_fold(nb_csum_partial(ip, ihl, 0)) != 0)
		return -EPROTO;
	/* fragments are not ours */
	if ((nb_get_be16(ip + 6) & 0x3fff) != 0)
		return -EPROTO;
	udp = ip + ihl;
	ulen = nb_get_be16(udp + 4);
	if (ulen < NB_UDP_HLEN || ulen > tot - ihl)
		return -EPROTO;
	if (nb_get_be16(udp + 6) != 0) {
		uint32_t sum = nb_csum_partial(ip + 12, 8, 0);

		sum += NB_IPPROTO_UDP;
		sum += ulen;
		sum = nb_csum_partial(udp, ulen, sum);
		if (nb_csum_fold(sum) != 0)
			return -EPROTO;
	}
	memcpy(o->dst_mac, p, 6);
	memcpy(o->src_mac, p + 6, 6);
	o->src_ip = nb_get_be32(ip + 12);
	o->dst_ip = nb_get_be32(ip + 16);
	o->src_port = nb_get_be16(udp);
	o->dst_port = nb_get_be16(udp + 2);
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
	if (nb_get_be16(p + off) != 1 || nb_get_be16(p + off + 2) != 0x0800 ||
	    p[off + 4] != 6 || p[off + 5] != 4)
		return 0;
	return off;
}

int
nb_arp_answer(const uint8_t *req, uint32_t len, const uint8_t my_mac[6],
	      uint32_t my_ip, uint8_t *out, size_t outlen)
{
	uint16_t vlan;
	uint32_t off = arp_body(req, len, &vlan), o;

	if (off == 0)
		return -EPROTO;
	if (nb_get_be16(req + off + 6) != 1 ||
	    nb_get_be32(req + off + 24) != my_ip)
		return 0;
	if (outlen < NB_MIN_WIRE)
		return -ENOSPC;
	memset(out, 0, NB_MIN_WIRE);
	o = l2_build(out, req + off + 8, my_mac, vlan, NB_ETHERTYPE_ARP);
	nb_put_be16(out + o, 1);
	nb_put_be16(out + o + 2, 0x0800);
	out[o + 4] = 6;
	out[o + 5] = 4;
	nb_put_be16(out + o + 6, 2); /* reply */
	memcpy(out + o + 8, my_mac, 6);
	nb_put_be32(out + o + 14, my_ip);
	memcpy(out + o + 18, req + off + 8, 10); /* requester MAC + IP */
	return NB_MIN_WIRE;
}

int
nb_arp_request(uint8_t *out, size_t outlen, const uint8_t my_mac[6],
	       uint32_t my_ip, uint16_t vlan_id, uint32_t target_ip)
{
	static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	uint32_t o;

	if (outlen < NB_MIN_WIRE || vlan_id > 4094)
		return -ENOSPC;
	memset(out, 0, NB_MIN_WIRE);
	o = l2_build(out, bcast, my_mac, vlan_id, NB_ETHERTYPE_ARP);
	nb_put_be16(out + o, 1);
	nb_put_be16(out + o + 2, 0x0800);
	out[o + 4] = 6;
	out[o + 5] = 4;
	nb_put_be16(out + o + 6, 1); /* request */
	memcpy(out + o + 8, my_mac, 6);
	nb_put_be32(out + o + 14, my_ip);
	nb_put_be32(out + o + 24, target_ip);
	return NB_MIN_WIRE;
}

int
nb_arp_sender_is(const uint8_t *frame, uint32_t len, uint32_t ip,
		 uint8_t mac_out[6])
{
	uint16_t vlan;
	uint32_t off = arp_body(frame, len, &vlan);

	if (off == 0)
		return -EPROTO;
	if (nb_get_be32(frame + off + 14) != ip)
		return 0;
	memcpy(mac_out, frame + off + 8, 6);
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
	tot = nb_get_be16(ip + 2);
	if ((ip[0] >> 4) != 4 || ihl < NB_IPV4_HLEN || tot < ihl + 8 ||
	    l3 + tot > len || ip[9] != 1)
		return -EPROTO;
	if (nb_get_be32(ip + 16) != my_ip || ip[ihl] != 8 || ip[ihl + 1] != 0)
		return 0;
	if ((nb_get_be16(ip + 6) & 0x3fff) != 0)
		return 0; /* fragmented echo: not answered */
	ilen = tot - ihl;
	if (outlen < (size_t)(l3 + NB_IPV4_HLEN + ilen) || outlen < NB_MIN_WIRE)
		return -ENOSPC;
	memset(out, 0, NB_MIN_WIRE);
	o = l2_build(out, req + 6, my_mac, vlan, NB_ETHERTYPE_IPV4);
	ipv4_header(out + o, (uint16_t)(NB_IPV4_HLEN + ilen), 1, my_ip,
		    nb_get_be32(ip + 12));
	icmp = out + o + NB_IPV4_HLEN;
	memcpy(icmp, ip + ihl, ilen);
	icmp[0] = 0; /* echo reply */
	icmp[2] = icmp[3] = 0;
	nb_put_be16(icmp + 2, nb_csum_fold(nb_csum_partial(icmp, ilen, 0)));
	o += NB_IPV4_HLEN + ilen;
	return (int)(o < NB_MIN_WIRE ? NB_MIN_WIRE : o);
}
