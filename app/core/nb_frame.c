/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include "nb_frame.h"

uint32_t
nb_eth_hdr_write(uint8_t *p, const uint8_t dst[6], const uint8_t src[6],
		 uint16_t vlan_id, uint16_t ethertype)
{
	uint32_t off = NB_ETH_OFF_TYPE;

	memcpy(p + NB_ETH_OFF_DST, dst, 6);
	memcpy(p + NB_ETH_OFF_SRC, src, 6);
	if (vlan_id) {
		nb_put_be16(p + NB_ETH_OFF_TYPE, NB_ETHERTYPE_VLAN);
		nb_put_be16(p + NB_VLAN_OFF_TCI, vlan_id);
		off = NB_VLAN_OFF_TYPE;
	}
	nb_put_be16(p + off, ethertype);
	return off + 2;
}

void
nb_ipv4_hdr_write(uint8_t *ip, uint16_t total_len, uint16_t id, uint8_t ttl,
		  uint8_t proto, uint32_t src, uint32_t dst)
{
	memset(ip, 0, NB_IPV4_HLEN);
	ip[0] = 0x45; /* version 4, 5 words */
	nb_put_be16(ip + NB_IPV4_OFF_LEN, total_len);
	nb_put_be16(ip + NB_IPV4_OFF_ID, id);
	nb_put_be16(ip + NB_IPV4_OFF_FRAG, NB_IPV4_DF);
	ip[NB_IPV4_OFF_TTL] = ttl ? ttl : 64;
	ip[NB_IPV4_OFF_PROTO] = proto;
	nb_put_be32(ip + NB_IPV4_OFF_SRC, src);
	nb_put_be32(ip + NB_IPV4_OFF_DST, dst);
	nb_put_be16(ip + NB_IPV4_OFF_CSUM, nb_ipv4_hdr_csum(ip, NB_IPV4_HLEN));
}

uint16_t
nb_ipv4_hdr_csum(const uint8_t *ip, size_t ihl)
{
	return nb_csum_fold(nb_csum_partial(ip, ihl, 0));
}

/* The pseudo-header's sum (RFC 768/793 for IPv4, RFC 8200 8.1 for IPv6)
 * of the IP header at ip, for proto and an L4 length of l4len. */
static uint32_t
pseudo_sum(const uint8_t *ip, uint8_t proto, uint32_t l4len)
{
	uint32_t sum = (ip[0] >> 4) == 6
			       ? nb_csum_partial(ip + 8, 32, 0)
			       : nb_csum_partial(ip + NB_IPV4_OFF_SRC, 8, 0);

	sum += proto;
	sum += l4len & 0xffff;
	sum += l4len >> 16;
	return sum;
}

uint16_t
nb_l4_csum(const uint8_t *ip, uint8_t proto, const uint8_t *l4, uint32_t l4len)
{
	return nb_csum_fold(
		nb_csum_partial(l4, l4len, pseudo_sum(ip, proto, l4len)));
}

size_t
nb_frame_hdr_len(uint8_t proto, int vlan)
{
	return NB_ETH_HLEN + (vlan ? NB_VLAN_HLEN : 0) + NB_IPV4_HLEN +
	       (proto == NB_IPPROTO_TCP ? NB_TCP_HLEN : NB_UDP_HLEN);
}

int
nb_frame_size_ok(uint8_t proto, int vlan, uint32_t size)
{
	size_t stamp = proto == NB_IPPROTO_TCP ? 2 : NB_STAMP_LEN;

	if (size < 64 || size > 9000)
		return 0;
	return size - NB_FCS_LEN >= nb_frame_hdr_len(proto, vlan) + stamp;
}

static size_t
ip_hlen(uint8_t family)
{
	return family == 6 ? NB_IPV6_HLEN : NB_IPV4_HLEN;
}

/* The bytes between the Ethernet header (and its tags) and the inner IP
 * header: the tunnel's. */
static size_t
tunnel_len(const struct nb_tunnel *tun)
{
	switch (tun->kind) {
	case NB_ENCAP_VXLAN:
		return ip_hlen(tun->src.family) + NB_UDP_HLEN + NB_VXLAN_HLEN +
		       NB_ETH_HLEN;
	case NB_ENCAP_GRE:
		return ip_hlen(tun->src.family) + NB_GRE_HLEN +
		       (tun->has_key ? 4 : 0);
	case NB_ENCAP_MPLS:
		return (size_t)NB_MPLS_HLEN * tun->nb_labels;
	default:
		return 0;
	}
}

size_t
nb_flow_hdr_len(const struct nb_flow *f)
{
	return NB_ETH_HLEN + (f->vlan_id ? NB_VLAN_HLEN : 0) +
	       (f->outer_vid ? NB_VLAN_HLEN : 0) + tunnel_len(&f->tun) +
	       ip_hlen(f->family == 6 ? 6 : 4) +
	       (f->proto == NB_IPPROTO_TCP ? NB_TCP_HLEN : NB_UDP_HLEN);
}

uint32_t
nb_flow_min_size(const struct nb_flow *f)
{
	size_t n = nb_flow_hdr_len(f) +
		   (f->proto == NB_IPPROTO_TCP ? 2 : NB_STAMP_LEN) + NB_FCS_LEN;

	return n < 64 ? 64 : (uint32_t)n;
}

/* Ethernet, the tags (outer first, PCP in each), the ethertype; returns
 * the offset after it. */
static uint32_t
l2_write(uint8_t *p, const struct nb_flow *f, uint16_t ethertype)
{
	uint32_t off = NB_ETH_OFF_TYPE;
	uint16_t prio = (uint16_t)((f->pcp & 7) << 13);

	memcpy(p + NB_ETH_OFF_DST, f->dst_mac, 6);
	memcpy(p + NB_ETH_OFF_SRC, f->src_mac, 6);
	if (f->outer_vid) {
		nb_put_be16(p + off,
			    f->outer_tpid ? f->outer_tpid : NB_ETHERTYPE_QINQ);
		nb_put_be16(p + off + 2, (uint16_t)(prio | f->outer_vid));
		off += NB_VLAN_HLEN;
	}
	if (f->vlan_id) {
		nb_put_be16(p + off, NB_ETHERTYPE_VLAN);
		nb_put_be16(p + off + 2, (uint16_t)(prio | f->vlan_id));
		off += NB_VLAN_HLEN;
	}
	nb_put_be16(p + off, ethertype);
	return off + 2;
}

uint32_t
nb_ip_hdr_write(uint8_t *ip, uint8_t family, uint32_t payload_len, uint16_t id,
		uint8_t ttl, uint8_t tos, uint8_t proto, const uint8_t *src,
		const uint8_t *dst)
{
	if (family != 6) {
		nb_ipv4_hdr_write(ip, (uint16_t)(NB_IPV4_HLEN + payload_len),
				  id, ttl, proto, nb_get_be32(src),
				  nb_get_be32(dst));
		if (tos) {
			ip[1] = tos;
			nb_put_be16(ip + NB_IPV4_OFF_CSUM, 0);
			nb_put_be16(ip + NB_IPV4_OFF_CSUM,
				    nb_ipv4_hdr_csum(ip, NB_IPV4_HLEN));
		}
		return NB_IPV4_HLEN;
	}
	/* version 6, traffic class, flow label (20 bits: the id) */
	nb_put_be32(ip, (6u << 28) | ((uint32_t)tos << 20) | id);
	nb_put_be16(ip + 4, (uint16_t)payload_len);
	ip[6] = proto;
	ip[7] = ttl ? ttl : 64;
	memcpy(ip + 8, src, 16);
	memcpy(ip + 24, dst, 16);
	return NB_IPV6_HLEN;
}

/* What the tunnel writes before the inner IP header, from off (where the
 * Ethernet header's ethertype left off) to the inner IP's offset, for an
 * inner packet of inner_len bytes.  *csum2_off: the outer UDP checksum's
 * offset when it must cover the payload (IPv6), else 0. */
static uint32_t
tunnel_write(uint8_t *buf, uint32_t off, const struct nb_flow *f,
	     uint32_t inner_len, uint16_t *csum2_off)
{
	const struct nb_tunnel *tun = &f->tun;
	uint8_t inner_v6 = f->family == 6;
	uint32_t i, n, key = tun->has_key ? 4 : 0;

	*csum2_off = 0;
	if (tun->kind == NB_ENCAP_MPLS) {
		/* TC: the class selector of the DSCP (DSCP >> 3) */
		for (i = 0; i < tun->nb_labels; i++)
			nb_put_be32(
				buf + off + 4 * i,
				(tun->labels[i] << 12) |
					((uint32_t)(f->tos >> 5) << 9) |
					(i + 1 == tun->nb_labels ? 0x100 : 0) |
					(tun->ttl ? tun->ttl : 64));
		return off + 4 * tun->nb_labels;
	}
	if (tun->kind == NB_ENCAP_GRE) {
		n = nb_ip_hdr_write(buf + off, tun->src.family,
				    NB_GRE_HLEN + key + inner_len, 0, tun->ttl,
				    f->tos, NB_IPPROTO_GRE, tun->src.a,
				    tun->dst.a);
		off += n;
		nb_put_be16(buf + off, key ? 0x2000 : 0);
		nb_put_be16(buf + off + 2,
			    inner_v6 ? NB_ETHERTYPE_IPV6 : NB_ETHERTYPE_IPV4);
		if (key)
			nb_put_be32(buf + off + 4, tun->id);
		return off + NB_GRE_HLEN + key;
	}
	/* VXLAN: outer IP, UDP (checksum 0 over IPv4, RFC 7348; computed by
	 * the caller over IPv6), the VXLAN header, the inner Ethernet */
	n = NB_UDP_HLEN + NB_VXLAN_HLEN + NB_ETH_HLEN + inner_len;
	/* DSCP and ECN copied outward (RFC 2983's uniform model, RFC
	 * 6040's normal mode), in GRE's outer header too */
	off += nb_ip_hdr_write(buf + off, tun->src.family, n, 0, tun->ttl,
			       f->tos, NB_IPPROTO_UDP, tun->src.a, tun->dst.a);
	nb_put_be16(buf + off + NB_L4_OFF_SPORT, tun->src_port);
	nb_put_be16(buf + off + NB_L4_OFF_DPORT, NB_VXLAN_UDP_PORT);
	nb_put_be16(buf + off + NB_UDP_OFF_LEN, (uint16_t)n);
	if (tun->src.family == 6)
		*csum2_off = (uint16_t)(off + NB_UDP_OFF_CSUM);
	off += NB_UDP_HLEN;
	buf[off] = 0x08; /* the VNI is valid */
	nb_put_be32(buf + off + 4, tun->id << 8);
	off += NB_VXLAN_HLEN;
	memcpy(buf + off, tun->inner_dst_mac, 6);
	memcpy(buf + off + 6, tun->inner_src_mac, 6);
	nb_put_be16(buf + off + 12,
		    inner_v6 ? NB_ETHERTYPE_IPV6 : NB_ETHERTYPE_IPV4);
	return off + NB_ETH_HLEN;
}

static uint16_t
l2_ethertype(const struct nb_flow *f)
{
	switch (f->tun.kind) {
	case NB_ENCAP_VXLAN:
	case NB_ENCAP_GRE:
		return f->tun.src.family == 6 ? NB_ETHERTYPE_IPV6
					      : NB_ETHERTYPE_IPV4;
	case NB_ENCAP_MPLS:
		return NB_ETHERTYPE_MPLS;
	default:
		return f->family == 6 ? NB_ETHERTYPE_IPV6 : NB_ETHERTYPE_IPV4;
	}
}

static int
flow_ok(const struct nb_flow *f, uint32_t size)
{
	const struct nb_tunnel *tun = &f->tun;

	if ((f->proto != NB_IPPROTO_UDP && f->proto != NB_IPPROTO_TCP) ||
	    f->vlan_id > 4094 || f->outer_vid > 4094 ||
	    (f->outer_vid && !f->vlan_id) || f->pcp > 7 || size > 9000 ||
	    (f->outer_tpid && f->outer_tpid != NB_ETHERTYPE_QINQ &&
	     f->outer_tpid != NB_ETHERTYPE_Q9100 &&
	     f->outer_tpid != NB_ETHERTYPE_VLAN) ||
	    size < nb_flow_min_size(f) || tun->kind > NB_ENCAP_MPLS)
		return 0;
	if (tun->kind == NB_ENCAP_MPLS &&
	    (tun->nb_labels == 0 || tun->nb_labels > NB_MAX_LABELS))
		return 0;
	if (tun->kind == NB_ENCAP_VXLAN && tun->id > 0xffffff)
		return 0;
	return 1;
}

int
nb_frame_build(uint8_t *buf, size_t buflen, const struct nb_flow *f,
	       uint32_t size, uint16_t magic, struct nb_tmpl *t)
{
	uint32_t wire = size - NB_FCS_LEN, off, l3, l4, l4len;
	uint8_t src[16], dst[16];
	uint16_t csum, csum2_off;

	if (!flow_ok(f, size) || buflen < wire)
		return -EINVAL;
	memset(buf, 0, wire);
	off = l2_write(buf, f, l2_ethertype(f));
	l3 = (uint32_t)(nb_flow_hdr_len(f) - ip_hlen(f->family == 6 ? 6 : 4) -
			(f->proto == NB_IPPROTO_TCP ? NB_TCP_HLEN
						    : NB_UDP_HLEN));
	if (f->tun.kind != NB_ENCAP_NONE)
		tunnel_write(buf, off, f, wire - l3, &csum2_off);
	else
		csum2_off = 0;
	if (f->family == 6) {
		memcpy(src, f->src_ip6, 16);
		memcpy(dst, f->dst_ip6, 16);
	} else {
		nb_put_be32(src, f->src_ip);
		nb_put_be32(dst, f->dst_ip);
	}
	l4 = l3 + nb_ip_hdr_write(buf + l3, f->family == 6 ? 6 : 4,
				  wire - l3 - ip_hlen(f->family == 6 ? 6 : 4),
				  f->stream_id, f->ttl, f->tos, f->proto, src,
				  dst);
	l4len = wire - l4;
	nb_put_be16(buf + l4 + NB_L4_OFF_SPORT, f->src_port);
	nb_put_be16(buf + l4 + NB_L4_OFF_DPORT, f->dst_port);
	if (f->proto == NB_IPPROTO_UDP) {
		nb_put_be16(buf + l4 + NB_UDP_OFF_LEN, (uint16_t)l4len);
		nb_put_be16(buf + l4 + NB_UDP_OFF_MAGIC, magic);
	} else {
		buf[l4 + NB_TCP_OFF_DOFF] = (NB_TCP_HLEN / 4) << 4;
		buf[l4 + NB_TCP_OFF_FLAGS] = 0x18; /* PSH | ACK */
		nb_put_be16(buf + l4 + NB_TCP_OFF_MAGIC, magic);
	}
	csum = nb_l4_csum(buf + l3, f->proto, buf + l4, l4len);
	if (f->proto == NB_IPPROTO_UDP && csum == 0)
		csum = 0xffff;
	nb_put_be16(buf + l4 +
			    (f->proto == NB_IPPROTO_UDP ? NB_UDP_OFF_CSUM
							: NB_TCP_OFF_CSUM),
		    csum);
	if (csum2_off) {
		/* VXLAN over IPv6: the outer UDP checksum, over it all */
		uint32_t u = csum2_off - NB_UDP_OFF_CSUM;
		uint16_t c = nb_l4_csum(buf + u - NB_IPV6_HLEN, NB_IPPROTO_UDP,
					buf + u, wire - u);

		nb_put_be16(buf + csum2_off, c ? c : 0xffff);
	}
	if (t != NULL) {
		size_t copy = l4 + (f->proto == NB_IPPROTO_UDP
					    ? NB_UDP_HLEN + NB_STAMP_LEN
					    : NB_TCP_HLEN + 2);

		memset(t, 0, sizeof(*t));
		t->wire_len = (uint16_t)wire;
		t->l3_off = (uint16_t)l3;
		t->l4_off = (uint16_t)l4;
		t->copy_len = (uint16_t)copy;
		t->csum0 = csum;
		t->csum2_off = csum2_off;
		t->csum2_0 = csum2_off ? nb_get_be16(buf + csum2_off) : 0;
		t->csum_keep = 0xffff;
		t->proto = f->proto;
		memcpy(t->hdr, buf, copy);
	}
	return (int)wire;
}

void
nb_tmpl_l4_csum_hw(struct nb_tmpl *t)
{
	const uint8_t *ip = t->hdr + t->l3_off;
	uint32_t l4len = (uint32_t)(t->wire_len - t->l4_off);
	uint16_t phdr =
		(uint16_t)~nb_csum_fold(pseudo_sum(ip, t->proto, l4len));

	t->csum_keep = 0;
	t->csum_fixed = phdr;
	nb_put_be16(t->hdr + t->l4_off +
			    (t->proto == NB_IPPROTO_UDP ? NB_UDP_OFF_CSUM
							: NB_TCP_OFF_CSUM),
		    phdr);
}
