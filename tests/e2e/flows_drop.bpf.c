// SPDX-License-Identifier: GPL-2.0
/*
 * An independent dropper for test_flows.py: a tc classifier (direct
 * action) on a bridge port that drops every frame of the UDP flows from
 * source ports DROP_A, DROP_B and DROP_C, and every 100th frame of the
 * flow from EVERY_100: the one whose number within its flow, n = seq /
 * FLOWS_PER_STREAM (seq: the stamp's 48-bit sequence number of the
 * stream, UDP payload bytes 2-7, docs/protocol.md), ends in 99.  Stateless,
 * so what it drops follows from what was sent; the clsact qdisc counts the
 * drops.  Built with clang -O2 -target bpf and -D for the five numbers;
 * no kernel headers needed.
 */
#define SEC(n) __attribute__((section(n), used))
typedef unsigned int u32;
typedef unsigned long long u64;
typedef unsigned char u8;
struct __sk_buff {
	u32 len;
};
/* BPF helper id: bpf_skb_load_bytes */
static long (*skb_load_bytes)(const void *skb, u32 off, void *to,
			      u32 len) = (void *)26;
SEC("classifier") int drop_flows(struct __sk_buff *skb)
{
	u8 eth[14], ip[20], udp[16];
	u32 ihl, sport;
	u64 seq;

	if (skb_load_bytes(skb, 0, eth, 14) || eth[12] != 0x08 ||
	    eth[13] != 0x00)
		return 0;
	if (skb_load_bytes(skb, 14, ip, 20) || (ip[0] >> 4) != 4 || ip[9] != 17)
		return 0;
	ihl = (ip[0] & 15) * 4;
	if (skb_load_bytes(skb, 14 + ihl, udp, 16))
		return 0;
	sport = ((u32)udp[0] << 8) | udp[1];
	if (sport == DROP_A || sport == DROP_B || sport == DROP_C)
		return 2; /* TC_ACT_SHOT */
	if (sport != EVERY_100)
		return 0;
	seq = ((u64)udp[10] << 40) | ((u64)udp[11] << 32) |
	      ((u64)udp[12] << 24) | ((u64)udp[13] << 16) |
	      ((u64)udp[14] << 8) | udp[15];
	return (seq / FLOWS_PER_STREAM) % 100 == 99 ? 2 : 0;
}
char _license[] SEC("license") = "GPL";
