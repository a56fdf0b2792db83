/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: nb_replay_stampable, the check a --replay-stamp file's
 * frames pass before they are sent (the frames come from any pcap file a
 * user hands the tool).
 *
 * The input is one frame.  Checked: the result is 0 or -1; a refused
 * frame is left as it was and the reason is a non-empty string inside its
 * buffer; an accepted one has its IPv4 header checksum right, its UDP
 * stamp inside the frame and the IP length, and, stamped as the replay
 * worker stamps it, is classified by the receiver's nb_frame_parse as a
 * data frame of stream 0 with that sequence number and time at that L4
 * offset: every frame the sender stamps is one the receiver counts.
 */
#include "nb_frame.h"
#include "nb_replay.h"

#include "nb_fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *f, *orig, ip_copy[60];
	const uint64_t seq = 0x123456789abcull, ts = 0xba9876543210ull;
	uint32_t len = (uint32_t)size, l3;
	struct nb_stamp s;
	uint16_t l4 = 0, ihl, csum;
	char why[96];
	int r;

	if (size > 0xffff)
		return 0;
	f = nb_fuzz_dup(data, size);
	orig = nb_fuzz_dup(data, size);
	why[0] = '\0';
	memset(why + 1, 'x', sizeof(why) - 1);
	r = nb_replay_stampable(f, len, &l4, why, sizeof(why));
	NB_FUZZ_CHECK(r == 0 || r == -1);
	if (r != 0) {
		NB_FUZZ_CHECK(memcmp(f, orig, size) == 0);
		NB_FUZZ_CHECK(why[0] != '\0' && memchr(why, '\0', sizeof(why)));
		goto out;
	}
	l3 = nb_get_be16(f + NB_ETH_OFF_TYPE) == NB_ETHERTYPE_VLAN
		     ? NB_ETH_HLEN + NB_VLAN_HLEN
		     : NB_ETH_HLEN;
	ihl = (uint16_t)((f[l3] & 0xf) * 4);
	NB_FUZZ_CHECK(l4 == l3 + ihl);
	NB_FUZZ_CHECK(l4 + NB_UDP_HLEN + NB_STAMP_LEN <= len);
	NB_FUZZ_CHECK(l3 + nb_get_be16(f + l3 + NB_IPV4_OFF_LEN) <= len);
	/* the header checksum, recomputed over a copy with the field zero */
	memcpy(ip_copy, f + l3, ihl);
	csum = nb_get_be16(ip_copy + NB_IPV4_OFF_CSUM);
	nb_put_be16(ip_copy + NB_IPV4_OFF_CSUM, 0);
	NB_FUZZ_CHECK(nb_ipv4_hdr_csum(ip_copy, ihl) == csum);
	/* stamped as nb_replay_step.h does, then received */
	nb_put_be48(f + l4 + NB_UDP_OFF_SEQ, seq);
	nb_put_be48(f + l4 + NB_UDP_OFF_TS, ts);
	memset(&s, 0, sizeof(s));
	NB_FUZZ_CHECK(nb_frame_parse(f, len, len, &s) == NB_FRAME_DATA);
	NB_FUZZ_CHECK(s.stream_id == 0 && s.seq == seq && s.ts == ts &&
		      s.l4_off == l4);
out:
	free(f);
	free(orig);
	return 0;
}
