/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: closed-loop TCP's frames and state machine (nb_tcp_wire.h,
 * nb_tcp.h), as an attacker on the segment would drive them.
 *
 * Input byte 0 picks the mode:
 *   0  the rest is one frame, copied to a buffer of exactly its length:
 *      nb_tcp_frame_parse; an accepted frame is built again from what was
 *      parsed and must parse back to the same fields and payload, and its
 *      checksum verdicts (nb_tcp_frame_csum_ok) must agree
 *   1  the rest is a list of 14-byte segment records fed to a listener,
 *      then to a client, each after its handshake: sequence and ACK
 *      numbers near what the end expects (or anywhere), flags, window,
 *      payload length (the pattern, or corrupted), SACK blocks; after
 *      each record the end is asked for everything it would send, and its
 *      invariants must hold
 */
#include <errno.h>

#include "nb_frame.h"
#include "nb_l2.h"
#include "nb_tcp.h"
#include "nb_tcp_wire.h"

#include "nb_fuzz.h"

static const struct nb_flow fl = {
	.dst_mac = {2, 0, 0, 0, 0, 2},
	.src_mac = {2, 0, 0, 0, 0, 1},
	.proto = NB_IPPROTO_TCP,
	.src_ip = NB_DEFAULT_SRC_IP,
	.dst_ip = NB_DEFAULT_DST_IP,
	.src_port = 49152,
	.dst_port = 5201,
};

static void
one_frame(const uint8_t *p, uint32_t len)
{
	struct nb_tcp_seg a, b;
	struct nb_flow f, g;
	uint8_t *out;
	int r, n, c0, c1;

	r = nb_tcp_frame_parse(p, len, 0, &f, &a);
	NB_FUZZ_CHECK(r == 0 || r == -EPROTO);
	if (r != 0)
		return;
	NB_FUZZ_CHECK(a.payload >= p && a.payload + a.len <= p + len);
	NB_FUZZ_CHECK(a.nb_sack <= NB_TCP_SACK_MAX);
	c0 = nb_tcp_frame_csum_ok(p, &a, -1);
	c1 = nb_tcp_frame_csum_ok(p, &a, 12345);
	NB_FUZZ_CHECK(c0 == 0 || c0 == 1);
	NB_FUZZ_CHECK((c0 == 0) == (c1 == 0)); /* one verdict either way */
	NB_FUZZ_CHECK((nb_tcp_frame_parse(p, len, 1, &g, &b) == 0) == c0);
	/* rebuilt from what was parsed, options as the builder writes them */
	a.has_stamp = a.has_stamp && !(a.flags & NB_TCP_SYN);
	out = malloc(len + 128);
	if (out == NULL)
		abort();
	n = nb_tcp_frame_build(out, len + 128, &f, &a, a.payload);
	if (n < 0) {
		NB_FUZZ_CHECK(n == -ENOSPC);
		free(out);
		return;
	}
	r = nb_tcp_frame_parse(out, (uint32_t)n, 1, &g, &b);
	NB_FUZZ_CHECK(r == 0);
	NB_FUZZ_CHECK(b.seq == a.seq && b.ack == a.ack && b.flags == a.flags &&
		      b.wnd == a.wnd && b.len == a.len);
	NB_FUZZ_CHECK(memcmp(b.payload, a.payload, a.len) == 0);
	NB_FUZZ_CHECK(g.src_port == f.src_port && g.dst_port == f.dst_port &&
		      g.src_ip == f.src_ip && g.dst_ip == f.dst_ip);
	free(out);
}

/* What must hold of a connection end after any input. */
static void
invariants(const struct nb_tcp_conn *c)
{
	unsigned int i;

	NB_FUZZ_CHECK(c->snd_una <= c->snd_nxt || c->snd_nxt == 0);
	NB_FUZZ_CHECK(c->snd_nxt <= c->snd_max);
	NB_FUZZ_CHECK(c->snd_end == UINT64_MAX || c->snd_max <= c->snd_end + 1);
	NB_FUZZ_CHECK(c->nb_ooo <= NB_TCP_OOO && c->nb_sacked <= NB_TCP_SACKB);
	for (i = 0; i < c->nb_ooo; i++)
		NB_FUZZ_CHECK(c->ooo[i].lo < c->ooo[i].hi &&
			      c->ooo[i].lo > c->rcv_nxt);
	for (i = 0; i < c->nb_sacked; i++) {
		NB_FUZZ_CHECK(c->sacked[i].lo < c->sacked[i].hi);
		NB_FUZZ_CHECK(c->sacked[i].lo >= c->snd_una &&
			      c->sacked[i].hi <= c->snd_max);
		if (i)
			NB_FUZZ_CHECK(c->sacked[i - 1].hi < c->sacked[i].lo);
	}
	NB_FUZZ_CHECK(c->cwnd > 0 || c->state < NB_TCP_ESTABLISHED);
	NB_FUZZ_CHECK(c->st.bytes_acked <= c->snd_max);
}

/* Everything the end sends now: it must be buildable and sane. */
static void
drain(struct nb_tcp_conn *c, uint64_t now)
{
	uint8_t buf[2048];
	struct nb_tcp_seg s;
	unsigned int k;
	int n;

	for (k = 0; k < 64 && nb_tcp_output(c, now, &s); k++) {
		NB_FUZZ_CHECK(s.len <= c->mss);
		n = nb_tcp_frame_build(buf, sizeof(buf), &fl, &s, NULL);
		NB_FUZZ_CHECK(n >= NB_MIN_WIRE);
	}
	invariants(c);
}

static void
feed(struct nb_tcp_conn *c, struct nb_fuzz_in *in, uint64_t *now)
{
	uint8_t bad[1500];
	struct nb_tcp_seg s;
	unsigned int i;

	while (in->n >= 14) {
		uint8_t how = nb_fuzz_u8(in);
		int16_t dseq = (int16_t)(nb_fuzz_u8(in) << 8 | nb_fuzz_u8(in));
		int16_t dack = (int16_t)(nb_fuzz_u8(in) << 8 | nb_fuzz_u8(in));
		uint32_t wnd = (uint32_t)(nb_fuzz_u8(in) << 8 | nb_fuzz_u8(in));
		uint16_t len =
			(uint16_t)((nb_fuzz_u8(in) << 8 | nb_fuzz_u8(in)) %
				   1461);
		uint32_t r = (uint32_t)nb_fuzz_u8(in) << 16 |
			     (uint32_t)nb_fuzz_u8(in) << 8 | nb_fuzz_u8(in);

		memset(&s, 0, sizeof(s));
		s.wscale = NB_TCP_WSCALE_NONE;
		s.flags = (uint8_t)(nb_fuzz_u8(in) & 0x3f);
		*now += (uint64_t)nb_fuzz_u8(in) << (how & 0x20 ? 24 : 10);
		/* near what the end expects, or anywhere */
		s.seq = how & 1 ? r << 8 ^ (uint32_t)dseq
				: c->irs + (uint32_t)c->rcv_nxt +
					  (uint32_t)dseq;
		s.ack = how & 2 ? r ^ (uint32_t)dack << 16
				: c->iss + (uint32_t)c->snd_una +
					  (uint32_t)dack;
		s.wnd = wnd;
		s.len = len;
		if (how & 4) { /* the pattern where it belongs */
			int64_t o = nb_tcp_rcv_stream_off(c, s.seq);

			s.payload = nb_tcp_pattern_at(o > 0 ? (uint64_t)o : 0);
		} else {
			memset(bad, (int)r, sizeof(bad));
			s.payload = bad;
		}
		s.nb_sack = (uint8_t)((how >> 3) & 3);
		for (i = 0; i < s.nb_sack; i++) {
			s.sack[i][0] = c->iss + (uint32_t)c->snd_una +
				       (uint32_t)(dack + (int)(r & 0xfff) * i);
			s.sack[i][1] = s.sack[i][0] + (r >> 12) * (i + 1);
		}
		s.has_mss = !!(how & 0x40);
		s.mss = (uint16_t)r;
		s.wscale = how & 0x80 ? (uint8_t)(r >> 16) : NB_TCP_WSCALE_NONE;
		s.sack_ok = how & 0x10;
		nb_tcp_input(c, &s, *now);
		invariants(c);
		drain(c, *now);
		if (how == 0xff)
			nb_tcp_close(c);
	}
}

/* A peer for the handshake: the SYN-ACK or ACK this end needs. */
static void
handshake(struct nb_tcp_conn *c, int active, uint64_t now)
{
	struct nb_tcp_seg s, out;

	memset(&s, 0, sizeof(s));
	s.wscale = 7;
	s.has_mss = 1;
	s.mss = 1460;
	s.sack_ok = 1;
	s.wnd = 65535;
	if (active) {
		NB_FUZZ_CHECK(nb_tcp_output(c, now, &out) == 1);
		s.flags = NB_TCP_SYN | NB_TCP_ACK;
		s.seq = 777;
		s.ack = out.seq + 1;
	} else {
		s.flags = NB_TCP_SYN;
		s.seq = 0xfffffff0u;
		nb_tcp_input(c, &s, now);
		NB_FUZZ_CHECK(nb_tcp_output(c, now, &out) == 1);
		memset(&s, 0, sizeof(s));
		s.wscale = NB_TCP_WSCALE_NONE;
		s.flags = NB_TCP_ACK;
		s.seq = 0xfffffff1u;
		s.ack = out.seq + 1;
		s.wnd = 1000;
	}
	nb_tcp_input(c, &s, now);
	NB_FUZZ_CHECK(c->state == NB_TCP_ESTABLISHED);
	drain(c, now);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nb_tcp_params p = {
		.iss = 100,
		.mss = 1460,
		.rcv_wnd = 1 << 20,
		.sack = 1,
		.stamp = 1,
		.stamp_len = NB_TCP_STAMP_LEN,
		.check = NB_TCP_CHECK_ON,
	};
	struct nb_tcp_conn c;
	struct nb_fuzz_in in;
	uint64_t now = 1000;
	uint8_t *buf;

	if (size < 1)
		return 0;
	nb_tcp_pattern_init();
	if (data[0] == 0) {
		buf = nb_fuzz_dup(data + 1, size - 1);
		one_frame(buf, (uint32_t)(size - 1));
		free(buf);
		return 0;
	}
	/* a listener, then a client sending 1 MB, over the same records */
	nb_tcp_listen(&c, &p);
	handshake(&c, 0, now);
	in.p = data + 1;
	in.n = size - 1;
	feed(&c, &in, &now);
	p.send_bytes = 1000000;
	p.close_after_send = 1;
	nb_tcp_connect(&c, &p, now);
	handshake(&c, 1, now);
	in.p = data + 1;
	in.n = size - 1;
	feed(&c, &in, &now);
	return 0;
}
