/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: the control lcore's frame parsers and answerers (nb_l2.h).
 *
 * Input byte 0 picks the function, byte 1 the size of the output buffer
 * (for the answerers; times 8, so small and frame-sized buffers both
 * occur), the rest is the frame, copied to a buffer of exactly its length:
 *   0  nb_udp_frame_parse; an accepted frame is rebuilt from what was
 *      parsed (nb_udp_frame_build) and must parse back to the same fields
 *      and payload
 *   1  nb_arp_answer for 198.19.0.1; a reply must fit the buffer and name
 *      that address and MAC as its sender (nb_arp_sender_is)
 *   2  nb_arp_sender_is for 198.18.0.1
 *   3  nb_icmp_echo_answer for 198.19.0.1; a reply must fit the buffer,
 *      carry valid IPv4 and ICMP checksums, and not itself be answered
 *   4  nb_arp_request built from the input, then answered
 *   5  nb_ndp_answer for 2001:db8::1; an advertisement must fit the
 *      buffer, carry a right checksum, hop limit 255, and read back
 *      (nb_ndp_advert_is) as that address at our MAC; it is not itself
 *      answered
 *   6  nb_ndp_advert_is for 2001:db8::9
 *   7  nb_icmp6_echo_answer for 2001:db8::1; a reply must fit, carry a
 *      right checksum and not itself be answered
 */
#include <errno.h>

#include "nb_frame.h"
#include "nb_l2.h"
#include "nb_l2_v6.h"

#include "nb_fuzz.h"

static const uint8_t my_mac[6] = {0x02, 0, 0, 0, 0, 0x02};
static const uint32_t my_ip = NB_DEFAULT_DST_IP;

static void
udp_parse(const uint8_t *p, uint32_t len)
{
	struct nb_udp_info a, b;
	uint8_t *out;
	int r, n;

	r = nb_udp_frame_parse(p, len, &a);
	NB_FUZZ_CHECK(r == 0 || r == -EPROTO);
	if (r != 0)
		return;
	NB_FUZZ_CHECK(a.payload >= p && a.payload + a.payload_len <= p + len);
	out = malloc(len + 64);
	if (out == NULL)
		abort();
	n = nb_udp_frame_build(out, len + 64, &a, a.payload, a.payload_len);
	if (n < 0) {
		/* only what the builder refuses: VID 4095, jumbo payload */
		NB_FUZZ_CHECK(n == -EINVAL &&
			      (a.vlan_id > 4094 || a.payload_len > 9000));
		goto out;
	}
	NB_FUZZ_CHECK(n >= NB_MIN_WIRE && (uint32_t)n <= len + 64);
	r = nb_udp_frame_parse(out, (uint32_t)n, &b);
	NB_FUZZ_CHECK(r == 0);
	NB_FUZZ_CHECK(memcmp(a.src_mac, b.src_mac, 6) == 0 &&
		      memcmp(a.dst_mac, b.dst_mac, 6) == 0);
	NB_FUZZ_CHECK(a.vlan_id == b.vlan_id && a.src_ip == b.src_ip &&
		      a.dst_ip == b.dst_ip && a.src_port == b.src_port &&
		      a.dst_port == b.dst_port);
	NB_FUZZ_CHECK(a.payload_len == b.payload_len &&
		      memcmp(a.payload, b.payload, a.payload_len) == 0);
out:
	free(out);
}

static void
arp_answer(const uint8_t *p, uint32_t len, size_t outlen)
{
	uint8_t *out = malloc(outlen ? outlen : 1), mac[6];
	int r;

	if (out == NULL)
		abort();
	r = nb_arp_answer(p, len, my_mac, my_ip, out, outlen);
	NB_FUZZ_CHECK(r == 0 || r == -EPROTO || r == -ENOSPC ||
		      r == NB_MIN_WIRE);
	if (r == -ENOSPC)
		NB_FUZZ_CHECK(outlen < NB_MIN_WIRE);
	if (r == NB_MIN_WIRE) {
		NB_FUZZ_CHECK((size_t)r <= outlen);
		NB_FUZZ_CHECK(nb_arp_sender_is(out, (uint32_t)r, my_ip, mac) ==
			      1);
		NB_FUZZ_CHECK(memcmp(mac, my_mac, 6) == 0);
		NB_FUZZ_CHECK(nb_frame_parse(out, (uint32_t)r, (uint32_t)r,
					     &(struct nb_stamp){0}) ==
			      NB_FRAME_ARP);
		/* a reply is not answered */
		NB_FUZZ_CHECK(nb_arp_answer(out, (uint32_t)r, my_mac, my_ip,
					    out, 0) == 0);
	}
	free(out);
}

static void
arp_sender(const uint8_t *p, uint32_t len)
{
	uint8_t mac[6];
	int r = nb_arp_sender_is(p, len, NB_DEFAULT_SRC_IP, mac);

	NB_FUZZ_CHECK(r == 0 || r == 1 || r == -EPROTO);
}

static void
icmp_answer(const uint8_t *p, uint32_t len, size_t outlen)
{
	uint8_t *out = malloc(outlen ? outlen : 1), *ip;
	uint32_t l3;
	uint16_t tot;
	int r;

	if (out == NULL)
		abort();
	r = nb_icmp_echo_answer(p, len, my_mac, my_ip, out, outlen);
	NB_FUZZ_CHECK(r >= 0 || r == -EPROTO || r == -ENOSPC);
	if (r > 0) {
		NB_FUZZ_CHECK(r >= NB_MIN_WIRE && (size_t)r <= outlen);
		NB_FUZZ_CHECK(nb_frame_parse(out, (uint32_t)r, (uint32_t)r,
					     &(struct nb_stamp){0}) ==
			      NB_FRAME_ICMP);
		l3 = nb_get_be16(out + NB_ETH_OFF_TYPE) == NB_ETHERTYPE_VLAN
			     ? NB_ETH_HLEN + NB_VLAN_HLEN
			     : NB_ETH_HLEN;
		ip = out + l3;
		tot = nb_get_be16(ip + NB_IPV4_OFF_LEN);
		NB_FUZZ_CHECK(l3 + tot <= (uint32_t)r);
		NB_FUZZ_CHECK(nb_ipv4_hdr_csum(ip, NB_IPV4_HLEN) == 0);
		NB_FUZZ_CHECK(nb_csum_fold(nb_csum_partial(ip + NB_IPV4_HLEN,
							   tot - NB_IPV4_HLEN,
							   0)) == 0);
		NB_FUZZ_CHECK(nb_get_be32(ip + NB_IPV4_OFF_SRC) == my_ip);
		NB_FUZZ_CHECK(memcmp(out + NB_ETH_OFF_SRC, my_mac, 6) == 0);
		/* an echo reply is not answered */
		NB_FUZZ_CHECK(
			nb_icmp_echo_answer(out, (uint32_t)r, my_mac,
					    nb_get_be32(ip + NB_IPV4_OFF_DST),
					    out, 0) == 0);
	}
	free(out);
}

static void
arp_request(struct nb_fuzz_in *in, size_t outlen)
{
	uint8_t mac[6], *out = malloc(outlen ? outlen : 1), reply[NB_MIN_WIRE];
	uint32_t ip, target;
	uint16_t vlan;
	int r;

	if (out == NULL)
		abort();
	nb_fuzz_bytes(in, mac, 6);
	ip = nb_fuzz_u32(in);
	target = nb_fuzz_u32(in);
	vlan = nb_fuzz_u16(in);
	r = nb_arp_request(out, outlen, mac, ip, vlan, target);
	if (r < 0) {
		NB_FUZZ_CHECK(outlen < NB_MIN_WIRE || vlan > 4094);
		goto out;
	}
	NB_FUZZ_CHECK(r == NB_MIN_WIRE);
	NB_FUZZ_CHECK(nb_arp_answer(out, (uint32_t)r, my_mac, target, reply,
				    sizeof(reply)) == NB_MIN_WIRE);
	NB_FUZZ_CHECK(nb_arp_sender_is(reply, NB_MIN_WIRE, target, mac) == 1);
	NB_FUZZ_CHECK(memcmp(mac, my_mac, 6) == 0);
	/* the reply goes back to the requester */
	NB_FUZZ_CHECK(memcmp(reply + NB_ETH_OFF_DST, out + NB_ETH_OFF_SRC, 6) ==
		      0);
out:
	free(out);
}

static const uint8_t my_ip6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};

static void
ndp(const uint8_t *p, uint32_t len, size_t outlen, int op)
{
	static const uint8_t peer6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 9};
	uint8_t *out = malloc(outlen ? outlen : 1), mac[6], again[256];
	struct nb_icmp6_loc o;
	int r;

	if (out == NULL)
		abort();
	if (op == 6) {
		r = nb_ndp_advert_is(p, len, peer6, mac);
		NB_FUZZ_CHECK(r == 1 || r == 0 || r == -EPROTO);
		goto out;
	}
	r = op == 5 ? nb_ndp_answer(p, len, my_mac, my_ip6, out, outlen)
		    : nb_icmp6_echo_answer(p, len, my_mac, my_ip6, out, outlen);
	NB_FUZZ_CHECK(r >= -EPROTO);
	if (r <= 0)
		goto out;
	NB_FUZZ_CHECK((size_t)r <= outlen);
	NB_FUZZ_CHECK(nb_icmp6_locate(out, (uint32_t)r, &o) == 0);
	if (op == 5) {
		NB_FUZZ_CHECK(o.hlim == 255 && out[o.l4] == NB_ICMP6_NA);
		NB_FUZZ_CHECK(nb_ndp_advert_is(out, (uint32_t)r, my_ip6, mac) ==
			      1);
		NB_FUZZ_CHECK(memcmp(mac, my_mac, 6) == 0);
		NB_FUZZ_CHECK(nb_ndp_answer(out, (uint32_t)r, my_mac, my_ip6,
					    again, sizeof(again)) == 0);
	} else {
		NB_FUZZ_CHECK(out[o.l4] == NB_ICMP6_ECHO_REPLY);
		NB_FUZZ_CHECK(nb_icmp6_echo_answer(out, (uint32_t)r, my_mac,
						   my_ip6, again,
						   sizeof(again)) == 0);
	}
out:
	free(out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nb_fuzz_in in = {data, size};
	uint8_t op = nb_fuzz_u8(&in) % 8;
	size_t outlen = (size_t)nb_fuzz_u8(&in) * 8;
	uint8_t *p;

	if (op == 4) {
		arp_request(&in, outlen);
		return 0;
	}
	p = nb_fuzz_dup(in.p, in.n);
	switch (op) {
	case 0:
		udp_parse(p, (uint32_t)in.n);
		break;
	case 1:
		arp_answer(p, (uint32_t)in.n, outlen);
		break;
	case 2:
		arp_sender(p, (uint32_t)in.n);
		break;
	case 3:
		icmp_answer(p, (uint32_t)in.n, outlen);
		break;
	default:
		ndp(p, (uint32_t)in.n, outlen, op);
		break;
	}
	free(p);
	return 0;
}
