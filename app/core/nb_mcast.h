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

#include "nb_config.h"
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

/*
 * A loopback test to a group (--dst-ip 239.1.1.1 or ff0e::1) or to a
 * broadcast or multicast --dst-mac: one TX port may face several RX
 * ports, each of which gets every frame the network forwards to it.
 */
#define NB_FANOUT_GROUP 1 /* --dst-ip is a group: its ports may join */
#define NB_FANOUT_MAC	2 /* --dst-mac broadcast/multicast, no group */

/* What a loopback test's destination is: NB_FANOUT_GROUP, NB_FANOUT_MAC,
 * or 0 (a unicast test, or another mode).  group (may be NULL) gets the
 * destination address. */
int nb_mcast_fanout(const struct nb_config *cfg, struct nb_ip *group);

/* Does receiving port `port` join the test's group (--join)?  0 when the
 * destination is no group. */
int nb_mcast_joins(const struct nb_config *cfg, uint16_t port);

/*
 * The options a group test takes, with everything else given: --join and
 * --igmp only with a group --dst-ip in a loopback test (--igmp: IPv4),
 * --join's ports among --rx-port.  0, or -EINVAL with err said.
 */
int nb_mcast_check(const struct nb_config *cfg, char *err, size_t errlen);

/* Membership reports per join and leave (a host's robustness, RFC 3376
 * 8.1), and the interval of the reports repeated while a test runs (a
 * snooping switch ages a membership out after 260 s by default). */
#define NB_MCAST_ROBUSTNESS 2
#define NB_MCAST_REPORT_S   60

/*
 * A receiving port's verdict in a fan-out test, from whether it joined,
 * what the test sent and what reached it (unique: distinct frames):
 * "joined, received 0: the group was not forwarded", "not joined,
 * received 12: flooded", ...  fanout as nb_mcast_fanout() gave.
 */
void nb_mcast_verdict(char *buf, size_t len, int fanout, int joined,
		      uint64_t sent, uint64_t unique);

#endif /* NB_MCAST_H */
