/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6's counterparts of nb_l2.h's ARP and ICMP echo: neighbour discovery
 * (RFC 4861: a solicitation to resolve an address, the advertisement that
 * answers one) and ICMPv6 echo (RFC 4443).  Pure: byte buffers in, byte
 * buffers out; every parser checks every length and the ICMPv6 checksum,
 * and takes neighbour discovery only with hop limit 255 (a frame from
 * beyond the link is refused, RFC 4861 7.1.1).
 */
#ifndef NB_L2_V6_H
#define NB_L2_V6_H

#include <stddef.h>
#include <stdint.h>

#define NB_ICMP6_ECHO_REQUEST 128
#define NB_ICMP6_ECHO_REPLY   129
#define NB_ICMP6_NS	      135
#define NB_ICMP6_NA	      136

/* Where an ICMPv6 message sits in a frame (nb_icmp6_locate). */
struct nb_icmp6_loc {
	uint16_t vlan_id; /* 0 untagged */
	uint32_t l3, l4;  /* the IPv6 header, the ICMPv6 message */
	uint32_t len;	  /* the message's length (the payload length) */
	uint8_t hlim;
};

/*
 * The ICMPv6 message of a frame: Ethernet [802.1Q], IPv6 with next header
 * 58 (no extension header), payload within the frame, checksum right.
 * 0 and *o filled, or -EPROTO.
 */
int nb_icmp6_locate(const uint8_t *buf, uint32_t len, struct nb_icmp6_loc *o);

/* The solicited-node multicast address of ip (ff02::1:ffXX:XXXX). */
void nb_ndp_solicited_node(const uint8_t ip[16], uint8_t out[16]);

/*
 * A neighbour solicitation for target from my_mac/my_ip, to target's
 * solicited-node address and MAC, with the source link-layer address
 * option.  Returns the frame's length or -EINVAL.
 */
int nb_ndp_solicit(uint8_t *out, size_t outlen, const uint8_t my_mac[6],
		   const uint8_t my_ip[16], uint16_t vlan_id,
		   const uint8_t target[16]);

/*
 * If req is a neighbour solicitation for my_ip, write the advertisement
 * into out (solicited and override, the target link-layer address
 * option; to the asker, or to all nodes when it asked from :: during
 * duplicate address detection) and return its length; 0 for any other
 * well-formed ICMPv6, -EPROTO if malformed.
 */
int nb_ndp_answer(const uint8_t *req, uint32_t len, const uint8_t my_mac[6],
		  const uint8_t my_ip[16], uint8_t *out, size_t outlen);

/*
 * If frame is a neighbour advertisement for ip, copy the advertised MAC
 * (its target link-layer address option, else the Ethernet source) and
 * return 1; 0 for other ICMPv6, -EPROTO if malformed.
 */
int nb_ndp_advert_is(const uint8_t *frame, uint32_t len, const uint8_t ip[16],
		     uint8_t mac_out[6]);

/*
 * If req is an ICMPv6 echo request to my_ip, write the echo reply into out
 * (same identifier, sequence and data, its checksum) and return its
 * length; 0 for other ICMPv6, -EPROTO if malformed.
 */
int nb_icmp6_echo_answer(const uint8_t *req, uint32_t len,
			 const uint8_t my_mac[6], const uint8_t my_ip[16],
			 uint8_t *out, size_t outlen);

#endif /* NB_L2_V6_H */
