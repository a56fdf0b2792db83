// SPDX-License-Identifier: GPL-2.0
/*
 * A switch port that filters runts, for test_mesh.py's errored-frame
 * test: a tc classifier (direct action) on a bridge port's egress that
 * drops the tester's frames (EtherType 0x88b5) shorter than 60 bytes (64
 * on the wire with the FCS, Ethernet's minimum) and passes the rest, so
 * that the clsact qdisc's drops count exactly those (the kernel's own
 * IGMP report is a runt too).  Built with clang -O2 -target bpf; no
 * kernel headers needed.
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
SEC("classifier") int drop_runts(struct __sk_buff *skb)
{
	u8 eth[14];

	if (skb->len >= 60 || skb_load_bytes(skb, 0, eth, 14) ||
	    eth[12] != 0x88 || eth[13] != 0xb5)
		return 0;
	return 2; /* TC_ACT_SHOT */
}
char _license[] SEC("license") = "GPL";
