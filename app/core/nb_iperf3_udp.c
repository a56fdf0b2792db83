/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iperf3's UDP datagrams: the connect message and reply that open a
 * stream, and the header at the front of every data datagram.
 *
 * iperf3 writes the connect values as a host-order int.  The values were
 * chosen so that a little-endian host (every iperf3 we expect to meet)
 * sends ASCII: 0x36373839 goes out as "9876" and 0x39383736 as "6789".
 * We send and recognise those little-endian bytes, as an x86 iperf3 does
 * (a big-endian iperf3 would not understand an x86 one either).
 */
#include <errno.h>
#include <string.h>

#include "nb_iperf3_proto.h"

/* The 32-bit values as a little-endian host lays them out. */
static void
le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t
get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

#define CONNECT_MSG	   0x36373839u
#define CONNECT_REPLY	   0x39383736u
#define LEGACY_CONNECT_MSG 123456789u
#define LEGACY_REPLY	   987654321u

void
nb_ip3_udp_connect_msg(uint8_t out[NB_IP3_UDP_CONNECT_LEN])
{
	le32(out, CONNECT_MSG);
}

void
nb_ip3_udp_connect_reply(uint8_t out[NB_IP3_UDP_CONNECT_LEN])
{
	le32(out, CONNECT_REPLY);
}

/*
 * iperf3 reads the reply into a 4-byte int from a datagram of any length
 * (in reverse mode data may come first), so only the first 4 bytes count.
 */
int
nb_ip3_udp_is_reply(const uint8_t *p, size_t n)
{
	uint32_t v;

	if (p == NULL || n < NB_IP3_UDP_CONNECT_LEN)
		return 0;
	v = get_le32(p);
	if (v == CONNECT_REPLY)
		return 1;
	if (v == LEGACY_REPLY)
		return 2;
	return 0;
}

int
nb_ip3_udp_is_connect(const uint8_t *p, size_t n)
{
	uint32_t v;

	if (p == NULL || n < NB_IP3_UDP_CONNECT_LEN)
		return 0;
	v = get_le32(p);
	if (v == CONNECT_MSG)
		return 1;
	if (v == LEGACY_CONNECT_MSG)
		return 2;
	return 0;
}

static void
put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t
get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

int
nb_ip3_udp_hdr_put(uint8_t *p, size_t n, int c64, uint32_t sec, uint32_t usec,
		   uint64_t count)
{
	size_t len = c64 ? NB_IP3_UDP_HDR64 : NB_IP3_UDP_HDR32;

	if (p == NULL || n < len)
		return -ENOSPC;
	put_be32(p, sec);
	put_be32(p + 4, usec);
	if (c64) {
		put_be32(p + 8, (uint32_t)(count >> 32));
		put_be32(p + 12, (uint32_t)count);
	} else {
		/* iperf3 wraps the count to 32 bits, as we do */
		put_be32(p + 8, (uint32_t)count);
	}
	return (int)len;
}

int
nb_ip3_udp_hdr_get(const uint8_t *p, size_t n, int c64, uint32_t *sec,
		   uint32_t *usec, uint64_t *count)
{
	size_t len = c64 ? NB_IP3_UDP_HDR64 : NB_IP3_UDP_HDR32;

	if (p == NULL || n < len)
		return -EINVAL;
	*sec = get_be32(p);
	*usec = get_be32(p + 4);
	if (c64)
		*count = (uint64_t)get_be32(p + 8) << 32 | get_be32(p + 12);
	else
		*count = get_be32(p + 8);
	return (int)len;
}

int
nb_ip3_udp_rx_take(struct nb_ip3_udp_rx *s, const uint8_t *payload, size_t n,
		   int c64, uint64_t arrival_ns)
{
	uint32_t sec, usec;
	uint64_t count;
	int64_t transit, d;

	if (nb_ip3_udp_hdr_get(payload, n, c64, &sec, &usec, &count) < 0)
		return -EINVAL;
	if (count >= s->packet_count + 1) {
		s->cnt_error += (int64_t)(count - 1 - s->packet_count);
		s->packet_count = count;
	} else {
		s->outoforder++;
		if (s->cnt_error > 0)
			s->cnt_error--;
	}
	transit = (int64_t)(arrival_ns -
			    ((uint64_t)sec * 1000000000u + usec * 1000ull));
	if (s->datagrams == 0)
		s->prev_transit_ns = transit;
	d = transit - s->prev_transit_ns;
	s->prev_transit_ns = transit;
	s->jitter_ns += ((double)(d < 0 ? -d : d) - s->jitter_ns) / 16.0;
	s->datagrams++;
	s->bytes += n;
	return 0;
}

int
nb_ip3_udp_shape(uint32_t frame_bytes, int tagged, uint64_t pps_num,
		 uint64_t pps_den, uint32_t *len, uint64_t *bandwidth)
{
	/* Ethernet 14, IPv4 20, UDP 8, FCS 4; a tag 4 more */
	uint32_t over = 46 + (tagged ? 4 : 0);
	unsigned __int128 b;

	if (frame_bytes < over + NB_IP3_UDP_HDR64)
		return -EINVAL;
	*len = frame_bytes - over;
	if (pps_num == 0 || pps_den == 0) {
		*bandwidth = 0;
		return 0;
	}
	b = (unsigned __int128)pps_num * *len * 8;
	*bandwidth = (uint64_t)((b + pps_den / 2) / pps_den);
	return 0;
}
