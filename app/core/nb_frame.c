/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include "nb_frame.h"

uint32_t
nb_csum_partial(const void *data, size_t len, uint32_t sum)
{
	const uint8_t *p = data;

	while (len >= 2) {
		sum += nb_get_be16(p);
		p += 2;
		len -= 2;
	}
	if (len)
		sum += (uint32_t)p[0] << 8;
	return sum;
}

uint16_t
nb_csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
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
	uint32_t wire = size - NB_FCS_LEN, off = 0, l4, l4len, sum;
	uint8_t *ip;
	uint16_t csum;

	if ((f->proto != NB_IPPROTO_UDP && f->proto != NB_IPPROTO_TCP) ||
	    f->vlan_id > 4094 || !nb_frame_size_ok(f->proto, vlan, size) ||
	    buflen < wire)
		return -EINVAL;

	memset(buf, 0, wire);
	memcpy(buf, f->dst_mac, 6);
	memcpy(buf + 6, f->src_mac, 6);
	off = 12;
	if (vlan) {
		nb_put_be16(buf + off, NB_ETHERTYPE_VLAN);
		nb_put_be16(buf + off + 2, f->vlan_id);
		off += NB_VLAN_HLEN;
	}
	nb_put_be16(buf + off, NB_ETHERTYPE_IPV4);
	off += 2;

	ip = buf + off;
	ip[0] = 0x45;
	ip[1] = 0;
	nb_put_be16(ip + 2, (uint16_t)(wire - off));
	nb_put_be16(ip + 4, f->stream_id);
	nb_put_be16(ip + 6, 0x4000); /* DF */
	ip[8] = f->ttl ? f->ttl : 64;
	ip[9] = f->proto;
	nb_put_be32(ip + 12, f->src_ip);
	nb_put_be32(ip + 16, f->dst_ip);
	nb_put_be16(ip + 10,
		    nb_csum_fold(nb_csum_partial(ip, NB_IPV4_HLEN, 0)));

	l4 = off + NB_IPV4_HLEN;
	l4len = wire - l4;
	nb_put_be16(buf + l4, f->src_port);
	nb_put_be16(buf + l4 + 2, f->dst_port);
	if (f->proto == NB_IPPROTO_UDP) {
		nb_put_be16(buf + l4 + 4, (uint16_t)l4len);
		nb_put_be16(buf + l4 + NB_UDP_OFF_MAGIC, magic);
	} else {
		buf[l4 + 12] = (NB_TCP_HLEN / 4) << 4;
		buf[l4 + 13] = 0x18; /* PSH | ACK */
		nb_put_be16(buf + l4 + NB_TCP_OFF_MAGIC, magic);
	}
	/* Pseudo-header + segment. */
	sum = nb_csum_partial(ip + 12, 8, 0);
	sum += f->proto;
	sum += l4len;
	sum = nb_csum_partial(buf + l4, l4len, sum);
	csum = nb_csum_fold(sum);
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
		t->proto = f->proto;
		memcpy(t->hdr, buf, copy);
	}
	return (int)wire;
}
