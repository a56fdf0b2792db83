/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: the frame classifier (nb_frame_parse) and, through a
 * round trip, the frame builder (nb_frame_build, nb_stamp_*).
 *
 * Input byte 0 picks the mode:
 *   even  parse: bytes 1-2 (big endian) say how much longer the whole
 *         frame is than the contiguous bytes (frame_len = len + slack;
 *         0xffff: one byte shorter, which must never be accepted as IPv4),
 *         the rest is the first segment, copied to a buffer of exactly its
 *         length.  A data, warm-up or probe frame is turned around twice
 *         (back to the same bytes), and once turned its IPv4 and L4
 *         checksums must be unchanged.
 *   odd   build: the rest describes a flow, a size, a magic, a sequence
 *         number and a timestamp, then (optional, after them: older seeds
 *         stay plain IPv4) its header stack: family, outer tag, PCP,
 *         TOS, tunnel, labels; a frame that builds must carry valid
 *         checksums and parse back as what was stamped into it.
 */
#include <errno.h>

#include "nb_frame.h"

#include "nb_fuzz.h"

/* A parsed frame outside a tunnel, turned around (as a probe is): its
 * checksums unchanged; turned twice, the same bytes. */
static void
check_turn_around(const uint8_t *p, uint32_t len, const struct nb_stamp *s)
{
	uint8_t *a = nb_fuzz_dup(p, len);
	uint32_t l3 = s->l3_off, ihl, tot;
	uint16_t ipc = 0, l4c = 0;
	uint8_t proto;
	int whole;

	NB_FUZZ_CHECK(l3 >= NB_ETH_HLEN && s->l4_off > l3 && s->l4_off <= len);
	if (s->v6) {
		ihl = (uint32_t)(s->l4_off - l3); /* extension headers too */
		tot = NB_IPV6_HLEN + nb_get_be16(p + l3 + 4);
		proto = p[l3 + 6] == NB_IPPROTO_TCP ? NB_IPPROTO_TCP
						    : NB_IPPROTO_UDP;
	} else {
		ihl = (uint32_t)(p[l3] & 0xf) * 4;
		tot = nb_get_be16(p + l3 + NB_IPV4_OFF_LEN);
		proto = p[l3 + NB_IPV4_OFF_PROTO];
		NB_FUZZ_CHECK(s->l4_off == l3 + ihl);
		ipc = nb_ipv4_hdr_csum(p + l3, ihl);
	}
	/* the L4 sum over a plain IPv6 header only (no extension headers:
	 * their bytes are not the pseudo-header's) */
	whole = l3 + tot <= len && tot >= ihl &&
		(!s->v6 || ihl == NB_IPV6_HLEN);
	if (whole)
		l4c = nb_l4_csum(p + l3, proto, p + s->l4_off, tot - ihl);
	nb_frame_turn_around(a, s);
	if (!s->v6)
		NB_FUZZ_CHECK(nb_ipv4_hdr_csum(a + l3, ihl) == ipc);
	if (whole)
		NB_FUZZ_CHECK(nb_l4_csum(a + l3, proto, a + s->l4_off,
					 tot - ihl) == l4c);
	nb_frame_turn_around(a, s);
	NB_FUZZ_CHECK(memcmp(a, p, len) == 0);
	free(a);
}

static void
parse_mode(struct nb_fuzz_in *in)
{
	uint16_t slack = nb_fuzz_u16(in);
	uint32_t len = (uint32_t)in->n, frame_len;
	uint8_t *p = nb_fuzz_dup(in->p, in->n);
	struct nb_stamp s;
	enum nb_frame_kind k;

	if (slack == 0xffff)
		frame_len = len ? len - 1 : 0;
	else
		frame_len = len + slack;
	memset(&s, 0, sizeof(s));
	k = nb_frame_parse(p, len, frame_len, &s);
	NB_FUZZ_CHECK(k <= NB_FRAME_ICMP6);
	if (frame_len < len)
		NB_FUZZ_CHECK(k == NB_FRAME_FOREIGN);
	/* a probe never comes from inside a tunnel */
	NB_FUZZ_CHECK(k != NB_FRAME_PROBE || !s.inner);
	if ((k == NB_FRAME_DATA || k == NB_FRAME_WARMUP ||
	     k == NB_FRAME_PROBE) &&
	    !s.inner)
		check_turn_around(p, len, &s);
	free(p);
}

/* The header stack of a flow, from the input's tail (none left: plain). */
static void
fuzz_stack(struct nb_fuzz_in *in, struct nb_flow *f)
{
	uint8_t sel = nb_fuzz_u8(in), i;
	struct nb_tunnel *t = &f->tun;

	f->family = sel & 1 ? 6 : 4;
	nb_fuzz_bytes(in, f->src_ip6, 16);
	nb_fuzz_bytes(in, f->dst_ip6, 16);
	if (sel & 2) {
		f->outer_vid = nb_fuzz_u16(in);
		f->outer_tpid = nb_fuzz_u16(in);
	}
	f->pcp = nb_fuzz_u8(in);
	f->tos = nb_fuzz_u8(in);
	t->kind = (sel >> 2) & 3;
	t->has_key = (sel >> 4) & 1;
	t->nb_labels = nb_fuzz_u8(in) & 15;
	t->ttl = nb_fuzz_u8(in);
	t->id = nb_fuzz_u32(in);
	for (i = 0; i < NB_MAX_LABELS; i++)
		t->labels[i] = nb_fuzz_u32(in) & 0xfffff;
	t->src.family = t->dst.family = sel & 32 ? 6 : 4;
	nb_fuzz_bytes(in, t->src.a, 16);
	nb_fuzz_bytes(in, t->dst.a, 16);
	t->src_port = nb_fuzz_u16(in);
}

static void
build_mode(struct nb_fuzz_in *in)
{
	static const uint16_t magics[4] = {NB_MAGIC_DATA, NB_MAGIC_WARMUP,
					   NB_MAGIC_PROBE, 0x1234};
	static const enum nb_frame_kind kinds[4] = {
		NB_FRAME_DATA, NB_FRAME_WARMUP, NB_FRAME_PROBE,
		NB_FRAME_FOREIGN};
	struct nb_flow f;
	struct nb_tmpl t;
	struct nb_stamp s;
	uint32_t size;
	uint64_t seq, ts;
	uint8_t sel, *buf;
	int udp, wire;
	enum nb_frame_kind k;

	memset(&f, 0, sizeof(f));
	nb_fuzz_bytes(in, f.dst_mac, 6);
	nb_fuzz_bytes(in, f.src_mac, 6);
	f.vlan_id = nb_fuzz_u16(in);
	f.proto = nb_fuzz_u8(in);
	f.ttl = nb_fuzz_u8(in);
	f.src_ip = nb_fuzz_u32(in);
	f.dst_ip = nb_fuzz_u32(in);
	f.src_port = nb_fuzz_u16(in);
	f.dst_port = nb_fuzz_u16(in);
	f.stream_id = nb_fuzz_u16(in);
	size = nb_fuzz_u16(in);
	sel = nb_fuzz_u8(in) & 3;
	seq = nb_fuzz_u64(in) & ((UINT64_C(1) << 48) - 1);
	ts = nb_fuzz_u64(in) & ((UINT64_C(1) << 48) - 1);
	fuzz_stack(in, &f);

	buf = malloc(size > 4 ? size - 4 : 1);
	if (buf == NULL)
		abort();
	wire = nb_frame_build(buf, size > 4 ? size - 4 : 0, &f, size,
			      magics[sel], &t);
	if (wire < 0) {
		NB_FUZZ_CHECK(wire == -EINVAL);
		goto out;
	}
	NB_FUZZ_CHECK((uint32_t)wire == size - 4);
	NB_FUZZ_CHECK(size >= nb_flow_min_size(&f));
	NB_FUZZ_CHECK(t.wire_len == wire && t.copy_len <= NB_TMPL_MAX_HDR);
	NB_FUZZ_CHECK(memcmp(t.hdr, buf, t.copy_len) == 0);
	udp = f.proto == NB_IPPROTO_UDP;
	NB_FUZZ_CHECK(udp || f.proto == NB_IPPROTO_TCP);
	if (udp)
		nb_stamp_udp(buf, &t, seq, ts);
	else
		nb_stamp_tcp(buf, &t, seq, ts);
	if (t.csum2_off)
		nb_stamp_outer(buf, &t, seq, ts, udp);
	/* a built frame carries valid checksums */
	if (f.family != 6)
		NB_FUZZ_CHECK(nb_ipv4_hdr_csum(buf + t.l3_off, NB_IPV4_HLEN) ==
			      0);
	NB_FUZZ_CHECK(nb_l4_csum(buf + t.l3_off, f.proto, buf + t.l4_off,
				 (uint32_t)wire - t.l4_off) == 0);
	if (t.csum2_off)
		NB_FUZZ_CHECK(nb_l4_csum(buf + NB_ETH_HLEN +
						 (f.outer_vid ? 4 : 0) +
						 (f.vlan_id ? 4 : 0),
					 NB_IPPROTO_UDP,
					 buf + t.csum2_off - NB_UDP_OFF_CSUM,
					 (uint32_t)wire - t.csum2_off +
						 NB_UDP_OFF_CSUM) == 0);

	memset(&s, 0, sizeof(s));
	k = nb_frame_parse(buf, (uint32_t)wire, (uint32_t)wire, &s);
	/* control over IPv4 or IPv6, outside a tunnel */
	if (udp && f.dst_port == NB_CONTROL_UDP_PORT) {
		NB_FUZZ_CHECK(k == (f.tun.kind == NB_ENCAP_NONE
					    ? NB_FRAME_CONTROL
					    : NB_FRAME_FOREIGN));
		goto out;
	}
	/* to VXLAN's port: the payload is taken for a tunnel */
	if (udp && f.dst_port == NB_VXLAN_UDP_PORT)
		goto out;
	/* a probe inside a tunnel is foreign */
	NB_FUZZ_CHECK(k == (sel == 2 && f.tun.kind != NB_ENCAP_NONE
				    ? NB_FRAME_FOREIGN
				    : kinds[sel]));
	if (k == NB_FRAME_FOREIGN)
		goto out;
	NB_FUZZ_CHECK(s.l4_off == t.l4_off);
	NB_FUZZ_CHECK(s.stream_id == f.stream_id);
	if (k != NB_FRAME_FOREIGN)
		NB_FUZZ_CHECK(s.seq == seq && s.ts == ts);
	NB_FUZZ_CHECK(s.l3_off == t.l3_off && s.v6 == (f.family == 6) &&
		      s.inner == (f.tun.kind != NB_ENCAP_NONE));
	/* the header bytes alone (one segment of copy_len) parse the same */
	memset(&s, 0, sizeof(s));
	NB_FUZZ_CHECK(nb_frame_parse(buf, t.copy_len, (uint32_t)wire, &s) == k);
out:
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nb_fuzz_in in = {data, size};

	if (nb_fuzz_u8(&in) & 1)
		build_mode(&in);
	else
		parse_mode(&in);
	return 0;
}
