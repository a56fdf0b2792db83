// SPDX-License-Identifier: GPL-2.0
/*
 * An independent dropper for test_iperf3_client.py: a tc classifier
 * (direct action) on the iperf3 server's veth ingress that drops the
 * IPv4 UDP datagrams to port DPORT whose iperf3 packet count (UDP payload
 * bytes 8-11, big-endian, from 1; docs/protocol.md, "UDP streams") is a
 * multiple of EVERY.  Shorter datagrams (the 4-byte connect) and
 * everything else pass.  Stateless, so what it drops follows from what
 * was sent; the clsact qdisc counts the drops.  Built with clang -O2
 * -target bpf and -D for the two numbers; no kernel headers needed.
 */
#define SEC(n) __attribute__((section(n), used))
typedef unsigned int u32;
typedef unsigned char u8;
struct __sk_buff {
	u32 len;
};
/* BPF helper id: bpf_skb_load_bytes */
static long (*skb_load_bytes)(const void *skb, u32 off, void *to,
			      u32 len) = (void *)26;
SEC("classifier") int drop_counts(struct __sk_buff *skb)
{
	u8 eth[14], ip[20], udp[20];
	u32 ihl, dport, count;

	if (skb_load_bytes(skb, 0, eth, 14) || eth[12] != 0x08 ||
	    eth[13] != 0x00)
		return 0;
	if (skb_load_bytes(skb, 14, ip, 20) || (ip[0] >> 4) != 4 || ip[9] != 17)
		return 0;
	/* a fragment's later pieces carry no UDP header */
	if (((ip[6] & 0x1f) | ip[7]) != 0)
		return 0;
	ihl = (ip[0] & 15) * 4;
	/* the UDP header and iperf3's 12 bytes, or it is not a data datagram */
	if (skb_load_bytes(skb, 14 + ihl, udp, 20))
		return 0;
	dport = ((u32)udp[2] << 8) | udp[3];
	if (dport != DPORT || (((u32)udp[4] << 8) | udp[5]) < 8 + 12)
		return 0;
	count = ((u32)udp[16] << 24) | ((u32)udp[17] << 16) |
		((u32)udp[18] << 8) | udp[19];
	return count % EVERY == 0 ? 2 : 0; /* TC_ACT_SHOT */
}
char _license[] SEC("license") = "GPL";
