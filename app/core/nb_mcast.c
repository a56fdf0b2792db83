/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_mcast.h"
#include "nb_options.h"

#define RECORD_CHANGE_TO_INCLUDE 3
#define RECORD_CHANGE_TO_EXCLUDE 4

int
nb_ip_is_multicast(const struct nb_ip *ip)
{
	if (ip->family == 6)
		return ip->a[0] == 0xff;
	return ip->family == 4 && (ip->a[0] >> 4) == 0xe;
}

void
nb_mcast_mac(const struct nb_ip *group, uint8_t mac[6])
{
	if (group->family == 6) {
		mac[0] = 0x33;
		mac[1] = 0x33;
		memcpy(mac + 2, group->a + 12, 4);
		return;
	}
	mac[0] = 0x01;
	mac[1] = 0x00;
	mac[2] = 0x5e;
	mac[3] = group->a[1] & 0x7f;
	mac[4] = group->a[2];
	mac[5] = group->a[3];
}

void
nb_ipv6_link_local(const uint8_t mac[6], uint8_t out[16])
{
	memset(out, 0, 16);
	out[0] = 0xfe;
	out[1] = 0x80;
	out[8] = mac[0] ^ 0x02; /* the universal/local bit inverted */
	out[9] = mac[1];
	out[10] = mac[2];
	out[11] = 0xff;
	out[12] = 0xfe;
	out[13] = mac[3];
	out[14] = mac[4];
	out[15] = mac[5];
}

/* IPv4 with the Router Alert option (RFC 2113): 24 bytes, TTL 1. */
static void
ipv4_ra_write(uint8_t *ip, uint16_t payload, uint32_t src, uint32_t dst)
{
	memset(ip, 0, 24);
	ip[0] = 0x46; /* version 4, 6 words */
	ip[1] = 0xc0; /* DSCP CS6, as routers' and hosts' control traffic */
	nb_put_be16(ip + NB_IPV4_OFF_LEN, (uint16_t)(24 + payload));
	nb_put_be16(ip + NB_IPV4_OFF_FRAG, NB_IPV4_DF);
	ip[NB_IPV4_OFF_TTL] = 1;
	ip[NB_IPV4_OFF_PROTO] = NB_IPPROTO_IGMP;
	nb_put_be32(ip + NB_IPV4_OFF_SRC, src);
	nb_put_be32(ip + NB_IPV4_OFF_DST, dst);
	ip[20] = 0x94; /* Router Alert: copied, class 0, option 20 */
	ip[21] = 4;
	nb_put_be16(ip + NB_IPV4_OFF_CSUM, nb_ipv4_hdr_csum(ip, 24));
}

int
nb_igmp_frame(uint8_t *buf, size_t cap, const uint8_t src_mac[6], uint16_t vlan,
	      uint32_t src_ip, uint32_t group, int version, int join)
{
	struct nb_ip to = {.family = 4};
	uint8_t mac[6], *g;
	uint32_t dst, off, glen = version == 3 ? 16 : 8;
	size_t len;

	if ((group >> 28) != 0xe || (version != 2 && version != 3))
		return -EINVAL;
	len = NB_ETH_HLEN + (vlan ? NB_VLAN_HLEN : 0) + 24 + glen;
	if (len < 60)
		len = 60; /* Ethernet's minimum, zero padded */
	if (cap < len)
		return -EINVAL;
	memset(buf, 0, len);
	dst = version == 3 ? NB_IGMPV3_REPORTS
			   : (join ? group : NB_IGMP_ALL_ROUTERS);
	nb_put_be32(to.a, dst);
	nb_mcast_mac(&to, mac);
	off = nb_eth_hdr_write(buf, mac, src_mac, vlan, NB_ETHERTYPE_IPV4);
	ipv4_ra_write(buf + off, (uint16_t)glen, src_ip, dst);
	g = buf + off + 24;
	if (version == 2) {
		g[0] = join ? 0x16 : 0x17;
		nb_put_be32(g + 4, group);
	} else {
		g[0] = 0x22;
		nb_put_be16(g + 6, 1); /* one group record */
		g[8] = join ? RECORD_CHANGE_TO_EXCLUDE
			    : RECORD_CHANGE_TO_INCLUDE;
		nb_put_be32(g + 12, group);
	}
	nb_put_be16(g + 2, nb_csum_fold(nb_csum_partial(g, glen, 0)));
	return (int)len;
}

int
nb_mld_frame(uint8_t *buf, size_t cap, const uint8_t src_mac[6], uint16_t vlan,
	     const uint8_t group[16], int join)
{
	static const uint8_t all_mldv2[16] = {0xff, 0x02, [15] = 0x16};
	struct nb_ip to = {.family = 6};
	uint8_t mac[6], *ip, *m;
	uint32_t off, sum;
	size_t len;

	if (group[0] != 0xff)
		return -EINVAL;
	/* IPv6, hop-by-hop (8), the report (8) and one record (20) */
	len = NB_ETH_HLEN + (vlan ? NB_VLAN_HLEN : 0) + NB_IPV6_HLEN + 8 + 28;
	if (cap < len)
		return -EINVAL;
	memset(buf, 0, len);
	memcpy(to.a, all_mldv2, 16);
	nb_mcast_mac(&to, mac);
	off = nb_eth_hdr_write(buf, mac, src_mac, vlan, NB_ETHERTYPE_IPV6);
	ip = buf + off;
	nb_put_be32(ip, 6u << 28);
	nb_put_be16(ip + 4, 8 + 28);
	ip[6] = NB_IPPROTO_HOPOPTS;
	ip[7] = 1;
	nb_ipv6_link_local(src_mac, ip + 8);
	memcpy(ip + 24, all_mldv2, 16);
	/* hop-by-hop: next header ICMPv6, length 0 (8 bytes), Router Alert
	 * (type 5, 2 bytes, value 0: MLD), PadN of 2 bytes */
	ip[40] = NB_IPPROTO_ICMPV6;
	ip[42] = 5;
	ip[43] = 2;
	ip[46] = 1;
	m = ip + 48;
	m[0] = 143; /* MLDv2 report */
	nb_put_be16(m + 6, 1);
	m[8] = join ? RECORD_CHANGE_TO_EXCLUDE : RECORD_CHANGE_TO_INCLUDE;
	memcpy(m + 12, group, 16);
	/* ICMPv6's checksum: the pseudo-header (addresses, length, 58) */
	sum = nb_csum_partial(ip + 8, 32, 0) + 28 + NB_IPPROTO_ICMPV6;
	nb_put_be16(m + 2, nb_csum_fold(nb_csum_partial(m, 28, sum)));
	return (int)len;
}

int
nb_mcast_fanout(const struct nb_config *cfg, struct nb_ip *group)
{
	const struct nb_tunnel *t = &cfg->stack.tun;
	struct nb_ip ip = {.family = 4};

	if (group != NULL)
		memset(group, 0, sizeof(*group));
	if (cfg->mode != NB_MODE_LOOPBACK)
		return 0; /* a reflector's or peer's port sends and receives */
	if (t->kind == NB_ENCAP_VXLAN || t->kind == NB_ENCAP_GRE)
		ip = t->dst; /* the outer header's, which the switch sees */
	else if (cfg->stack.dst6.family == 6)
		ip = cfg->stack.dst6;
	else
		nb_put_be32(ip.a, cfg->dst_ip);
	if (group != NULL)
		*group = ip;
	if (nb_ip_is_multicast(&ip))
		return NB_FANOUT_GROUP;
	return cfg->have_dst_mac && (cfg->dst_mac[0] & 1) ? NB_FANOUT_MAC : 0;
}

int
nb_mcast_joins(const struct nb_config *cfg, uint16_t port)
{
	uint16_t i;

	if (nb_mcast_fanout(cfg, NULL) != NB_FANOUT_GROUP ||
	    cfg->join_mode == NB_JOIN_NONE)
		return 0;
	if (cfg->join_mode == NB_JOIN_ALL)
		return 1;
	for (i = 0; i < cfg->nb_join; i++)
		if (cfg->join_ports[i] == port)
			return 1;
	return 0;
}

/* port is among --rx-port */
static int
receives(const struct nb_config *cfg, uint16_t port)
{
	uint16_t i;

	for (i = 0; i < cfg->nb_rx_ports; i++)
		if (cfg->rx_ports[i] == port)
			return 1;
	return 0;
}

int
nb_mcast_check(const struct nb_config *cfg, char *err, size_t errlen)
{
	int join = nb_option_given(cfg, "join"), igmp;
	struct nb_ip group;
	uint16_t i;

	igmp = nb_option_given(cfg, "igmp");
	if (!join && !igmp)
		return 0;
	if (cfg->mode != NB_MODE_LOOPBACK || cfg->nb_tx_ports == 0 ||
	    nb_mcast_fanout(cfg, &group) != NB_FANOUT_GROUP) {
		snprintf(err, errlen,
			 "--%s goes with a multicast --dst-ip (e.g. 239.1.1.1 "
			 "or ff0e::1) in a loopback test",
			 join ? "join" : "igmp");
		return -EINVAL;
	}
	if (igmp && group.family == 6) {
		snprintf(err, errlen,
			 "--igmp is for an IPv4 group; an IPv6 group is "
			 "joined with MLDv2");
		return -EINVAL;
	}
	for (i = 0; cfg->join_mode == NB_JOIN_LIST && i < cfg->nb_join; i++)
		if (!receives(cfg, cfg->join_ports[i])) {
			snprintf(err, errlen,
				 "--join: port %u is no --rx-port (only a "
				 "receiving port joins the group)",
				 cfg->join_ports[i]);
			return -EINVAL;
		}
	return 0;
}

void
nb_mcast_verdict(char *buf, size_t len, int fanout, int joined, uint64_t sent,
		 uint64_t unique)
{
	unsigned long long s = sent, u = unique;

	if (fanout != NB_FANOUT_GROUP)
		snprintf(buf, len, "received %llu of %llu%s", u, s,
			 u == s ? "" : ": frames missing");
	else if (joined && u == 0)
		snprintf(buf, len,
			 "joined, received 0: the group was not forwarded");
	else if (joined)
		snprintf(buf, len, "joined, received %llu of %llu%s", u, s,
			 u == s ? ": forwarded" : ": frames missing");
	else if (u > 0)
		snprintf(buf, len, "not joined, received %llu: flooded", u);
	else
		snprintf(buf, len, "not joined, received 0: not forwarded");
}
