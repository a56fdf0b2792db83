/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The frames the control lcore sends and answers besides data: UDP
 * datagrams over IPv4 or IPv6 carrying control messages, ARP and ICMP
 * echo (nb_l2_v6.h: neighbour discovery, ICMPv6 echo).  Pure: byte
 * buffers in, byte buffers out; every parser checks every length.
 */
#ifndef NB_L2_H
#define NB_L2_H

#include <stddef.h>
#include <stdint.h>

#define NB_MIN_WIRE 60 /* minimum Ethernet frame without FCS */

struct nb_udp_info {
	uint8_t src_mac[6], dst_mac[6];
	uint16_t vlan_id; /* 0 untagged */
	/* host order; over IPv6 (v6) each address's nb_ip6_key: a key for
	 * what is keyed by an address, the addresses in src_ip6, dst_ip6 */
	uint32_t src_ip, dst_ip;
	uint8_t v6;
	uint8_t src_ip6[16], dst_ip6[16];
	uint16_t src_port, dst_port;
	const uint8_t *payload; /* inside the parsed buffer */
	uint16_t payload_len;	/* from the UDP length field */
};

/* An address as text, by value (for printf). */
struct nb_addr_text {
	char s[48];
};

/* ip (host order), or ip6 when not NULL, as text. */
struct nb_addr_text nb_addr_text(uint32_t ip, const uint8_t *ip6);

/* u's source address as text. */
struct nb_addr_text nb_udp_src_text(const struct nb_udp_info *u);

/*
 * Build an Ethernet [802.1Q] IPv4 UDP frame around payload, with valid IPv4
 * and UDP checksums, padded to 60 bytes; with hdr->v6 IPv6 (hop limit 64,
 * src_ip6 to dst_ip6) and its UDP checksum.  Returns the frame length (no
 * FCS) or -ENOSPC / -EINVAL.
 */
int nb_udp_frame_build(uint8_t *buf, size_t buflen,
		       const struct nb_udp_info *hdr, const uint8_t *payload,
		       size_t plen);

/* Where the IP packet of a frame and its L4 part sit. */
struct nb_ipv4_loc {
	uint16_t vlan_id; /* 0 untagged */
	uint32_t l3, l4;  /* offsets of the IP header and the L4 header */
	uint32_t l4_len;  /* from the IPv4 total (IPv6 payload) length */
	uint8_t v6;	  /* nb_ip_locate: an IPv6 packet */
};

/*
 * Check the Ethernet [802.1Q] and IPv4 headers of a frame of len bytes
 * carrying proto: version, IHL, total length within the frame, header
 * checksum, no fragment.  0 and *o filled, or -EPROTO.
 */
int nb_ipv4_locate(const uint8_t *buf, uint32_t len, uint8_t proto,
		   struct nb_ipv4_loc *o);

/*
 * The same for IPv4 or IPv6: an IPv6 header (version, payload length
 * within the frame) and its hop-by-hop, routing and destination options
 * headers are skipped to proto; a fragment, or more than four extension
 * headers, is not ours (-EPROTO).
 */
int nb_ip_locate(const uint8_t *buf, uint32_t len, uint8_t proto,
		 struct nb_ipv4_loc *o);

/*
 * Parse a UDP frame of len bytes over IPv4 (version, IHL, total length,
 * UDP length and both checksums must be right; a zero UDP checksum is
 * accepted, as IPv4 allows) or IPv6 (as nb_ip_locate(); the UDP checksum
 * must be there and right, RFC 8200 8.1).  Returns 0 or -EPROTO.
 */
int nb_udp_frame_parse(const uint8_t *buf, uint32_t len,
		       struct nb_udp_info *out);

/*
 * If req is an ARP request for my_ip, write the reply into out and return
 * its length (60); return 0 for any other well-formed ARP frame (after
 * learning nothing), -EPROTO for a malformed one.
 */
int nb_arp_answer(const uint8_t *req, uint32_t len, const uint8_t my_mac[6],
		  uint32_t my_ip, uint8_t *out, size_t outlen);

/* Build a broadcast ARP request "who has target_ip, tell my_ip". */
int nb_arp_request(uint8_t *out, size_t outlen, const uint8_t my_mac[6],
		   uint32_t my_ip, uint16_t vlan_id, uint32_t target_ip);

/*
 * If frame is an ARP reply (or request) sent by ip, copy the sender's MAC
 * and return 1; 0 if it is another ARP frame, -EPROTO if malformed.
 */
int nb_arp_sender_is(const uint8_t *frame, uint32_t len, uint32_t ip,
		     uint8_t mac_out[6]);

/*
 * If req is an ICMP echo request to my_ip, write the echo reply into out
 * (same id, sequence and data, valid checksums) and return its length;
 * 0 for other ICMP, -EPROTO if malformed.
 */
int nb_icmp_echo_answer(const uint8_t *req, uint32_t len,
			const uint8_t my_mac[6], uint32_t my_ip, uint8_t *out,
			size_t outlen);

#endif /* NB_L2_H */
