// SPDX-License-Identifier: GPL-2.0
/*
 * A switch port that filters runts, for test_mesh.py's errored-frame
 * test: a tc classifier (direct action) on a bridge port's egress that
 * drops every frame shorter than 60 bytes (64 on the wire with the FCS,
 * Ethernet's minimum) and passes the rest.  The clsact qdisc counts the
 * drops.  Built with clang -O2 -target bpf; no kernel headers needed.
 */
#define SEC(n) __attribute__((section(n), used))
typedef unsigned int u32;
struct __sk_buff {
	u32 len;
};
SEC("classifier") int drop_runts(struct __sk_buff *skb)
{
	return skb->len < 60 ? 2 /* TC_ACT_SHOT */ : 0;
}
char _license[] SEC("license") = "GPL";
