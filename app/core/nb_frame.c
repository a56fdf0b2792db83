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

uint16_t
nb_l4_csum(const uint8_t *ip, uint8_t proto, const uint8_t *l4, uint32_t l4len)
{
	/* pseudo-header: source and destination address, proto, length */
	uint32_t sum = nb_csum_partial(ip + NB_IPV4_OFF_SRC, 8, 0);

	sum += proto;
	sum += l4len;
	return nb_csum_fold(nb_csum_partial(l4, l4len, sum));
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

int
nb_frame_build(uint8_t *buf, size_t buflen, const struct nb_flow *f,
	       uint32_t size, uint16_t magic, struct nb_tmpl *t)
{
	int vlan = f->vlan_id != 0;
	uint32_t wire = size - NB_FCS_LEN, off, l4, l4len;
	uint8_t *ip;
	uint16_t csum;

	if ((f->proto != NB_IPPROTO_UDP && f->proto != NB_IPPROTO_TCP) ||
	    f->vlan_id > 4094 || !nb_frame_size_ok(f->proto, vlan, size) ||
	    buflen < wire)
		return -EINVAL;

	memset(buf, 0, wire);
	off = nb_eth_hdr_write(buf, f->dst_mac, f->src_mac, f->vlan_id,
			       NB_ETHERTYPE_IPV4);
	ip = buf + off;
	nb_ipv4_hdr_write(ip, (uint16_t)(wire - off), f->stream_id, f->ttl,
			  f->proto, f->src_ip, f->dst_ip);

	l4 = off + NB_IPV4_HLEN;
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
	csum = nb_l4_csum(ip, f->proto, buf + l4, l4len);
	if (f->proto == NB_IPPROTO_UDP && csum == 0)
		csum = 0xffff;
	nb_put_be16(buf + l4 +
			    (f->proto == NB_IPPROTO_UDP ? NB_UDP_OFF_CSUM
							: NB_TCP_OFF_CSUM),
		    csum);

	if (t != NULL) {
		size_t copy = nb_frame_hdr_len(f->proto, vlan) +
			      (f->proto == NB_IPPROTO_UDP ? NB_STAMP_LEN : 2);

		memset(t, 0, sizeof(*t));
		t->wire_len = (uint16_t)wire;
		t->l4_off = (uint16_t)l4;
		t->copy_len = (uint16_t)copy;
		t->csum0 = csum;
		t->csum_keep = 0xffff;
		t->proto = f->proto;
		memcpy(t->hdr, buf, copy);
	}
	return (int)wire;
}

void
nb_tmpl_l4_csum_hw(struct nb_tmpl *t)
{
	const uint8_t *ip = t->hdr + t->l4_off - NB_IPV4_HLEN;
	uint32_t l4len = (uint32_t)(t->wire_len - t->l4_off);
	uint32_t sum = nb_csum_partial(ip + NB_IPV4_OFF_SRC, 8, 0);
	uint16_t phdr;

	sum += t->proto;
	sum += l4len;
	phdr = (uint16_t)~nb_csum_fold(sum);
	t->csum_keep = 0;
	t->csum_fixed = phdr;
	nb_put_be16(t->hdr + t->l4_off +
			    (t->proto == NB_IPPROTO_UDP ? NB_UDP_OFF_CSUM
							: NB_TCP_OFF_CSUM),
		    phdr);
}
