/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Multicast group membership, the frames a receiving port sends so that
 * an IGMP- or MLD-snooping switch forwards a group to it: IGMPv2 (RFC
 * 2236) and IGMPv3 (RFC 3376) reports and leaves over IPv4, MLDv2 (RFC
 * 3810) reports over IPv6; and a group's Ethernet address (RFC 1112,
 * RFC 2464).  Pure: builders only; the control lcore sends them.
 */
#ifndef NB_MCAST_H
#define NB_MCAST_H

#include <stddef.h>
#include <stdint.h>

#include "nb_frame.h"

#define NB_IGMP_ALL_ROUTERS 0xe0000002u /* 224.0.0.2: IGMPv2 leaves */
#define NB_IGMPV3_REPORTS   0xe0000016u /* 224.0.0.22 */
#define NB_IPPROTO_IGMP	    2
#define NB_IPPROTO_HOPOPTS  0

/* A multicast IPv4 (224.0.0.0/4) or IPv6 (ff00::/8) address. */
int nb_ip_is_multicast(const struct nb_ip *ip);

/* The Ethernet address of a group: 01:00:5e and the low 23 bits of an
 * IPv4 group, 33:33 and the low 32 bits of an IPv6 one. */
void nb_mcast_mac(const struct nb_ip *group, uint8_t mac[6]);

/* The IPv6 link-local address of a MAC (fe80::/64, modified EUI-64, RFC
 * 4291 appendix A): an MLD report's source. */
void nb_ipv6_link_local(const uint8_t mac[6], uint8_t out[16]);

/*
 * An IGMP membership frame for group from src_mac/src_ip (0.0.0.0 is
 * allowed: a host without an address), 802.1Q-tagged when vlan is not 0:
 * version 2 a report (join) to the group or a leave to 224.0.0.2; version
 * 3 a report to 224.0.0.22 with one record, CHANGE_TO_EXCLUDE_MODE with
 * no source (join) or CHANGE_TO_INCLUDE_MODE with none (leave).  IPv4
 * with the Router Alert option, TTL 1, checksums.  Returns the frame's
 * length, or -EINVAL (not a group, a bad version, cap too small).
 */
int nb_igmp_frame(uint8_t *buf, size_t cap, const uint8_t src_mac[6],
		  uint16_t vlan, uint32_t src_ip, uint32_t group, int version,
		  int join);

/*
 * An MLDv2 report (ICMPv6 type 143) for group from src_mac, its source
 * the MAC's link-local address, to ff02::16 with a hop-by-hop Router
 * Alert (MLD) header, hop limit 1: one record, CHANGE_TO_EXCLUDE_MODE
 * (join) or CHANGE_TO_INCLUDE_MODE (leave) with no source.  Returns the
 * frame's length, or -EINVAL.
 */
int nb_mld_frame(uint8_t *buf, size_t cap, const uint8_t src_mac[6],
		 uint16_t vlan, const uint8_t group[16], int join);

#endif /* NB_MCAST_H */
