/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include "nb_frame.h"
#include "nb_l2_v6.h"

#define OPT_SLLA     1 /* source link-layer address */
#define OPT_TLLA     2 /* target link-layer address */
#define NA_SOLICITED 0x40
#define NA_OVERRIDE  0x20
#define ND_LEN	     24 /* type .. target, before the options */

int
nb_icmp6_locate(const uint8_t *buf, uint32_t len, struct nb_icmp6_loc *o)
{
	uint32_t l3 = NB_ETH_HLEN, plen;
	uint16_t et;

	if (len < NB_ETH_HLEN + NB_IPV6_HLEN)
		return -EPROTO;
	memset(o, 0, sizeof(*o));
	et = nb_get_be16(buf + NB_ETH_OFF_TYPE);
	if (et == NB_ETHERTYPE_VLAN) {
		o->vlan_id = nb_get_be16(buf + NB_VLAN_OFF_TCI) & 0xfff;
		et = nb_get_be16(buf + NB_VLAN_OFF_TYPE);
		l3 += NB_VLAN_HLEN;
	}
	if (et != NB_ETHERTYPE_IPV6 || len < l3 + NB_IPV6_HLEN + 4 ||
	    (buf[l3] >> 4) != 6 || buf[l3 + 6] != NB_IPPROTO_ICMPV6)
		return -EPROTO;
	plen = nb_get_be16(buf + l3 + 4);
	if (plen < 4 || l3 + NB_IPV6_HLEN + plen > len ||
	    nb_l4_csum(buf + l3, NB_IPPROTO_ICMPV6, buf + l3 + NB_IPV6_HLEN,
		       plen) != 0)
		return -EPROTO;
	o->l3 = l3;
	o->l4 = l3 + NB_IPV6_HLEN;
	o->len = plen;
	o->hlim = buf[l3 + 7];
	return 0;
}

void
nb_ndp_solicited_node(const uint8_t ip[16], uint8_t out[16])
{
	static const uint8_t prefix[13] = {0xff,
					   0x02, [11] = 0x01, [12] = 0xff};

	memcpy(out, prefix, 13);
	memcpy(out + 13, ip + 13, 3);
}

/* The options after a neighbour discovery message's first ND_LEN bytes:
 * each of a non-zero length inside the message (RFC 4861 4.6).  The MAC
 * of the first option of type want, or NULL; *bad when malformed. */
static const uint8_t *
nd_option(const uint8_t *m, uint32_t len, uint8_t want, int *bad)
{
	const uint8_t *mac = NULL;
	uint32_t o = ND_LEN;

	*bad = 0;
	while (o < len) {
		uint32_t ol = o + 2 <= len ? (uint32_t)m[o + 1] * 8 : 0;

		if (ol == 0 || o + ol > len) {
			*bad = 1;
			return NULL;
		}
		if (m[o] == want && ol >= 8 && mac == NULL)
			mac = m + o + 2;
		o += ol;
	}
	return mac;
}

/* Ethernet [tag], IPv6 (hop limit hlim) and an ICMPv6 message of mlen
 * bytes already written at the returned offset's place by the caller:
 * the headers and the checksum.  Returns the ICMPv6 offset. */
static uint32_t
icmp6_headers(uint8_t *out, const uint8_t dst_mac[6], const uint8_t src_mac[6],
	      uint16_t vlan, const uint8_t src[16], const uint8_t dst[16],
	      uint8_t hlim, uint32_t mlen)
{
	uint32_t l3 = nb_eth_hdr_write(out, dst_mac, src_mac, vlan,
				       NB_ETHERTYPE_IPV6);
	uint8_t *ip = out + l3;

	nb_put_be32(ip, 6u << 28);
	nb_put_be16(ip + 4, (uint16_t)mlen);
	ip[6] = NB_IPPROTO_ICMPV6;
	ip[7] = hlim;
	memcpy(ip + 8, src, 16);
	memcpy(ip + 24, dst, 16);
	return l3 + NB_IPV6_HLEN;
}

static void
icmp6_csum(uint8_t *out, uint32_t l4, uint32_t mlen)
{
	nb_put_be16(out + l4 + 2, 0);
	nb_put_be16(out + l4 + 2,
		    nb_l4_csum(out + l4 - NB_IPV6_HLEN, NB_IPPROTO_ICMPV6,
			       out + l4, mlen));
}

/* A solicitation's or advertisement's message at l4 (headers written):
 * type, flags, target, one link-layer address option, the checksum. */
static void
nd_body(uint8_t *out, uint32_t l4, uint8_t type, uint8_t flags,
	const uint8_t target[16], uint8_t opt, const uint8_t mac[6])
{
	out[l4] = type;
	out[l4 + 4] = flags;
	memcpy(out + l4 + 8, target, 16);
	out[l4 + ND_LEN] = opt;
	out[l4 + ND_LEN + 1] = 1;
	memcpy(out + l4 + ND_LEN + 2, mac, 6);
	icmp6_csum(out, l4, ND_LEN + 8);
}

int
nb_ndp_solicit(uint8_t *out, size_t outlen, const uint8_t my_mac[6],
	       const uint8_t my_ip[16], uint16_t vlan_id,
	       const uint8_t target[16])
{
	uint8_t dst[16], mac[6] = {0x33, 0x33, 0xff};
	uint32_t mlen = ND_LEN + 8, l4;
	size_t n = NB_ETH_HLEN + (vlan_id ? NB_VLAN_HLEN : 0) + NB_IPV6_HLEN +
		   mlen;

	if (outlen < n)
		return -EINVAL;
	memset(out, 0, n);
	nb_ndp_solicited_node(target, dst);
	memcpy(mac + 3, target + 13, 3);
	l4 = icmp6_headers(out, mac, my_mac, vlan_id, my_ip, dst, 255, mlen);
	nd_body(out, l4, NB_ICMP6_NS, 0, target, OPT_SLLA, my_mac);
	return (int)n;
}

int
nb_ndp_answer(const uint8_t *req, uint32_t len, const uint8_t my_mac[6],
	      const uint8_t my_ip[16], uint8_t *out, size_t outlen)
{
	static const uint8_t unspec[16], all_nodes[16] = {0xff, 0x02, [15] = 1};
	static const uint8_t all_nodes_mac[6] = {0x33, 0x33, 0, 0, 0, 1};
	struct nb_icmp6_loc o;
	const uint8_t *m, *src, *slla;
	uint32_t mlen = ND_LEN + 8, l4;
	size_t n;
	int bad, dad;

	if (nb_icmp6_locate(req, len, &o) != 0)
		return -EPROTO;
	m = req + o.l4;
	if (m[0] != NB_ICMP6_NS)
		return 0;
	if (m[1] != 0 || o.hlim != 255 || o.len < ND_LEN)
		return -EPROTO;
	slla = nd_option(m, o.len, OPT_SLLA, &bad);
	src = req + o.l3 + 8;
	dad = memcmp(src, unspec, 16) == 0;
	/* from :: (duplicate address detection) no SLLA may come */
	if (bad || (dad && slla != NULL))
		return -EPROTO;
	if (memcmp(m + 8, my_ip, 16) != 0)
		return 0;
	n = o.l3 + NB_IPV6_HLEN + mlen;
	if (outlen < n)
		return -EINVAL;
	memset(out, 0, n);
	l4 = icmp6_headers(
		out, dad ? all_nodes_mac : (slla ? slla : req + NB_ETH_OFF_SRC),
		my_mac, o.vlan_id, my_ip, dad ? all_nodes : src, 255, mlen);
	nd_body(out, l4, NB_ICMP6_NA,
		dad ? NA_OVERRIDE : NA_SOLICITED | NA_OVERRIDE, my_ip, OPT_TLLA,
		my_mac);
	return (int)n;
}

int
nb_ndp_advert_is(const uint8_t *frame, uint32_t len, const uint8_t ip[16],
		 uint8_t mac_out[6])
{
	struct nb_icmp6_loc o;
	const uint8_t *m, *tlla;
	int bad;

	if (nb_icmp6_locate(frame, len, &o) != 0)
		return -EPROTO;
	m = frame + o.l4;
	if (m[0] != NB_ICMP6_NA)
		return 0;
	if (m[1] != 0 || o.hlim != 255 || o.len < ND_LEN)
		return -EPROTO;
	tlla = nd_option(m, o.len, OPT_TLLA, &bad);
	if (bad)
		return -EPROTO;
	if (memcmp(m + 8, ip, 16) != 0)
		return 0;
	memcpy(mac_out, tlla ? tlla : frame + NB_ETH_OFF_SRC, 6);
	return 1;
}

int
nb_icmp6_echo_answer(const uint8_t *req, uint32_t len, const uint8_t my_mac[6],
		     const uint8_t my_ip[16], uint8_t *out, size_t outlen)
{
	struct nb_icmp6_loc o;
	const uint8_t *m;
	uint32_t l4;
	size_t n;

	if (nb_icmp6_locate(req, len, &o) != 0)
		return -EPROTO;
	m = req + o.l4;
	if (m[0] != NB_ICMP6_ECHO_REQUEST ||
	    memcmp(req + o.l3 + 24, my_ip, 16) != 0)
		return 0;
	if (m[1] != 0 || o.len < 8)
		return -EPROTO;
	n = o.l4 + o.len;
	if (outlen < n)
		return -EINVAL;
	memset(out, 0, n);
	l4 = icmp6_headers(out, req + NB_ETH_OFF_SRC, my_mac, o.vlan_id, my_ip,
			   req + o.l3 + 8, 64, o.len);
	memcpy(out + l4, m, o.len);
	out[l4] = NB_ICMP6_ECHO_REPLY;
	icmp6_csum(out, l4, o.len);
	return (int)n;
}
