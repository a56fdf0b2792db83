// SPDX-License-Identifier: GPL-2.0
/*
 * An independent dropper for test_tcp_kernel.py: a tc classifier (direct
 * action) that drops 1 % of the TCP segments carrying payload to port
 * 5201, at random; everything else passes.  The clsact qdisc counts what
 * it drops.  Built with clang -O2 -target bpf; no kernel headers needed.
 */
#define SEC(n) __attribute__((section(n), used))
typedef unsigned int u32;
typedef unsigned char u8;
struct __sk_buff {
	u32 len;
};
/* BPF helper ids: bpf_get_prandom_u32, bpf_skb_load_bytes */
static u32 (*get_prandom_u32)(void) = (void *)7;
static long (*skb_load_bytes)(const void *skb, u32 off, void *to,
			      u32 len) = (void *)26;
SEC("classifier") int drop_data(struct __sk_buff *skb)
{
	u8 ip[20], tcp[14];
	u32 ihl, tot, doff;

	if (skb_load_bytes(skb, 14, ip, 20) || (ip[0] >> 4) != 4 || ip[9] != 6)
		return 0;
	ihl = (ip[0] & 15) * 4;
	tot = ((u32)ip[2] << 8) | ip[3];
	if (skb_load_bytes(skb, 14 + ihl, tcp, 14))
		return 0;
	if ((((u32)tcp[2] << 8) | tcp[3]) != 5201)
		return 0;
	doff = (tcp[12] >> 4) * 4;
	if (tot <= ihl + doff)
		return 0; /* no payload: SYN, ACK, FIN */
	return get_prandom_u32() % 100 == 0 ? 2 : 0; /* TC_ACT_SHOT */
}
char _license[] SEC("license") = "GPL";
