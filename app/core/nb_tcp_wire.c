/* SPDX-License-Identifier: BSD-3-Clause */
/* Closed-loop TCP frames (see nb_tcp_wire.h).  Pure. */
#include "nb_tcp_wire.h"

#include <errno.h>
#include <string.h>

#include "nb_l2.h"
#include "nb_tcp_app.h"

static uint32_t
syn_opts_len(const struct nb_tcp_seg *s)
{
	uint32_t n = 0;

	if (s->has_mss)
		n += 4;
	if (s->wscale != NB_TCP_WSCALE_NONE)
		n += 4;
	if (s->sack_ok)
		n += 4;
	return n;
}

uint32_t
nb_tcp_hdr_len(const struct nb_tcp_seg *s)
{
	uint32_t n = NB_TCP_HLEN;

	if (s->flags & NB_TCP_SYN)
		return n + syn_opts_len(s);
	if (s->has_stamp)
		n += NB_TCP_STAMP_LEN;
	if (s->nb_sack)
		n += 4 + 8u * s->nb_sack;
	return n;
}

uint32_t
nb_tcp_frame_len(const struct nb_flow *f, const struct nb_tcp_seg *s)
{
	return NB_ETH_HLEN + (f->vlan_id ? NB_VLAN_HLEN : 0) +
	       (f->family == 6 ? NB_IPV6_HLEN : NB_IPV4_HLEN) +
	       nb_tcp_hdr_len(s) + s->len;
}

/* The stamp's bytes within its option (after NOP, NOP, kind, length and
 * the two ExID bytes) */
#define STAMP_IN_OPT 6

/* The stamp option's bytes before the stamp: written by opts_write(),
 * matched by the parser's shortcut (fast_shape()). */
static const uint8_t stamp_head[STAMP_IN_OPT] = {
	NB_TCP_OPT_NOP,	      NB_TCP_OPT_NOP,	      NB_TCP_OPT_EXP,
	NB_TCP_STAMP_LEN - 2, NB_TCP_STAMP_EXID >> 8, NB_TCP_STAMP_EXID & 0xff};

static uint8_t *
opts_write(uint8_t *o, const struct nb_tcp_seg *s)
{
	unsigned int i;

	if (s->flags & NB_TCP_SYN) {
		if (s->has_mss) {
			o[0] = NB_TCP_OPT_MSS;
			o[1] = 4;
			nb_put_be16(o + 2, s->mss);
			o += 4;
		}
		if (s->wscale != NB_TCP_WSCALE_NONE) {
			o[0] = NB_TCP_OPT_NOP;
			o[1] = NB_TCP_OPT_WSCALE;
			o[2] = 3;
			o[3] = s->wscale;
			o += 4;
		}
		if (s->sack_ok) {
			o[0] = NB_TCP_OPT_NOP;
			o[1] = NB_TCP_OPT_NOP;
			o[2] = NB_TCP_OPT_SACK_PERM;
			o[3] = 2;
			o += 4;
		}
		return o;
	}
	if (s->has_stamp) {
		memcpy(o, stamp_head, sizeof(stamp_head));
		nb_put_be48(o + STAMP_IN_OPT, s->stamp_ns);
		o += NB_TCP_STAMP_LEN;
	}
	if (s->nb_sack) {
		o[0] = NB_TCP_OPT_NOP;
		o[1] = NB_TCP_OPT_NOP;
		o[2] = NB_TCP_OPT_SACK;
		o[3] = (uint8_t)(2 + 8 * s->nb_sack);
		o += 4;
		for (i = 0; i < s->nb_sack; i++) {
			nb_put_be32(o, s->sack[i][0]);
			nb_put_be32(o + 4, s->sack[i][1]);
			o += 8;
		}
	}
	return o;
}

/* The pseudo-header's addresses of the IPv4 or IPv6 header at ip. */
static inline uint32_t
addrs_sum(const uint8_t *ip)
{
	return (ip[0] >> 4) == 6 ? nb_csum_words(ip + 8, 8)
				 : nb_csum_words(ip + NB_IPV4_OFF_SRC, 2);
}

/* The TCP checksum from the pseudo-header, the hl header bytes and the
 * payload's sum (its len bytes start at an even offset: hl is a multiple
 * of 4). */
static uint16_t
hdr_csum(const uint8_t *ip, const uint8_t *tcp, uint32_t hl, uint32_t len,
	 uint32_t payload_sum)
{
	uint32_t sum = addrs_sum(ip);

	sum += NB_IPPROTO_TCP + hl + len;
	/* the stamp option alone, the usual header: a fixed count of words
	 * the compiler unrolls (hl is a multiple of 4 in any case) */
	if (hl == NB_TCP_HLEN + NB_TCP_STAMP_LEN)
		sum += nb_csum_words(tcp, (NB_TCP_HLEN + NB_TCP_STAMP_LEN) / 4);
	else
		sum = nb_csum_partial(tcp, hl, sum);
	return nb_csum_fold(sum + payload_sum);
}

int
nb_tcp_frame_csum_ok(const uint8_t *buf, const struct nb_tcp_seg *s,
		     int64_t data_off)
{
	const uint8_t *ip = buf + s->l3_off, *tcp = buf + s->l4_off;
	uint32_t psum;
	int same = 0;

	if (data_off >= 0 && s->len && s->len <= 16384u &&
	    memcmp(s->payload, nb_tcp_pattern_at((uint64_t)data_off), s->len) ==
		    0) {
		psum = nb_tcp_pattern_sum((uint64_t)data_off, s->len);
		same = 1;
	} else {
		psum = nb_csum_partial(s->payload, s->len, 0);
	}
	if (hdr_csum(ip, tcp, s->hdr_len, s->len, psum) != 0)
		return 0;
	return same ? 2 : 1;
}

/* Headers of s from f's addressing for a frame of len bytes (an IPv4
 * header's checksum written, the TCP checksum left 0), the IP and TCP
 * header pointers out.  Returns the TCP header's length. */
static uint32_t
hdrs_write(uint8_t *buf, uint32_t len, const struct nb_flow *f,
	   const struct nb_tcp_seg *s, uint8_t **ip_out, uint8_t **tcp_out)
{
	uint32_t hl = nb_tcp_hdr_len(s);
	uint8_t v6 = f->family == 6;
	uint32_t l3 =
		nb_eth_hdr_write(buf, f->dst_mac, f->src_mac, f->vlan_id,
				 v6 ? NB_ETHERTYPE_IPV6 : NB_ETHERTYPE_IPV4);
	uint32_t iphl = v6 ? NB_IPV6_HLEN : NB_IPV4_HLEN;
	uint8_t *ip = buf + l3, *tcp, src[4], dst[4];

	nb_put_be32(src, f->src_ip);
	nb_put_be32(dst, f->dst_ip);
	tcp = ip + nb_ip_hdr_write(ip, v6 ? 6 : 4, len - l3 - iphl,
				   f->stream_id, f->ttl, 0, NB_IPPROTO_TCP,
				   v6 ? f->src_ip6 : src,
				   v6 ? f->dst_ip6 : dst);
	nb_put_be16(tcp + NB_L4_OFF_SPORT, f->src_port);
	nb_put_be16(tcp + NB_L4_OFF_DPORT, f->dst_port);
	nb_put_be32(tcp + NB_TCP_OFF_SEQ, s->seq);
	nb_put_be32(tcp + NB_TCP_OFF_ACK, s->ack);
	tcp[NB_TCP_OFF_DOFF] = (uint8_t)((hl / 4) << 4);
	tcp[NB_TCP_OFF_FLAGS] = s->flags;
	nb_put_be16(tcp + NB_TCP_OFF_WIN, (uint16_t)s->wnd);
	nb_put_be16(tcp + NB_TCP_OFF_CSUM, 0);
	nb_put_be16(tcp + NB_TCP_OFF_URG, 0);
	opts_write(tcp + NB_TCP_HLEN, s);
	*ip_out = ip;
	*tcp_out = tcp;
	return hl;
}

/* Too long for IPv4, or options past what a header holds. */
static int
too_big(const struct nb_tcp_seg *s, uint32_t len)
{
	return nb_tcp_hdr_len(s) > NB_TCP_HLEN + NB_TCP_OPT_MAX ||
	       len - NB_ETH_HLEN > 65535u;
}

/* nb_tcp_frame_build(), or with app set the payload copied from app's
 * bytes (nb_tcp_app_copy()) and the checksum over them. */
static int
frame_build(uint8_t *buf, size_t buflen, const struct nb_flow *f,
	    const struct nb_tcp_seg *s, const uint8_t *payload,
	    const struct nb_tcp_app *app)
{
	uint32_t len = nb_tcp_frame_len(f, s), hl;
	uint32_t wire = len < NB_MIN_WIRE ? NB_MIN_WIRE : len;
	uint8_t *ip, *tcp;

	if (too_big(s, len) || wire > buflen)
		return -ENOSPC;
	hl = hdrs_write(buf, len, f, s, &ip, &tcp);
	if (s->len && app) {
		if (nb_tcp_app_copy(app, s->data_off, s->len, tcp + hl) < 0)
			return -EINVAL;
		payload = tcp + hl;
	} else if (s->len) {
		if (payload) {
			memcpy(tcp + hl, payload, s->len);
		} else {
			const uint8_t *p = nb_tcp_pattern_at(s->data_off);
			uint32_t done = 0, n;

			while (done < s->len) {
				n = s->len - done;
				if (n > 16384u)
					n = 16384u;
				memcpy(tcp + hl + done, p, n);
				done += n;
				p = nb_tcp_pattern_at(s->data_off + done);
			}
		}
	}
	if (wire > len)
		memset(buf + len, 0, wire - len);
	if (payload || s->len == 0 || s->len > 16384u)
		nb_put_be16(tcp + NB_TCP_OFF_CSUM,
			    nb_l4_csum(ip, NB_IPPROTO_TCP, tcp, hl + s->len));
	else /* the pattern's share from its prefix sums */
		nb_put_be16(tcp + NB_TCP_OFF_CSUM,
			    hdr_csum(ip, tcp, hl, s->len,
				     nb_tcp_pattern_sum(s->data_off, s->len)));
	return (int)wire;
}

int
nb_tcp_frame_build(uint8_t *buf, size_t buflen, const struct nb_flow *f,
		   const struct nb_tcp_seg *s, const uint8_t *payload)
{
	return frame_build(buf, buflen, f, s, payload, NULL);
}

int
nb_tcp_frame_build_app(uint8_t *buf, size_t buflen, const struct nb_flow *f,
		       const struct nb_tcp_seg *s, const struct nb_tcp_app *app)
{
	const uint8_t *p;

	/* no payload, or only the pattern's: the pattern's way */
	if (!app || s->len == 0 ||
	    (app->prefix_only && s->data_off >= app->tx_len))
		return frame_build(buf, buflen, f, s, NULL, NULL);
	p = nb_tcp_app_payload(app, s->data_off, s->len);
	if (p)
		return frame_build(buf, buflen, f, s, p, NULL);
	return frame_build(buf, buflen, f, s, NULL, app);
}

int
nb_tcp_frame_build_hdr(uint8_t *buf, size_t buflen, const struct nb_flow *f,
		       const struct nb_tcp_seg *s)
{
	uint32_t len = nb_tcp_frame_len(f, s), hl;
	uint8_t *ip, *tcp;

	if (s->len == 0 || s->len > 16384u || len < NB_MIN_WIRE ||
	    too_big(s, len) || len - s->len > buflen)
		return -ENOSPC;
	hl = hdrs_write(buf, len, f, s, &ip, &tcp);
	nb_put_be16(tcp + NB_TCP_OFF_CSUM,
		    hdr_csum(ip, tcp, hl, s->len,
			     nb_tcp_pattern_sum(s->data_off, s->len)));
	return (int)(len - s->len);
}

void
nb_tcp_tmpl_init(struct nb_tcp_tmpl *t, const struct nb_flow *f)
{
	struct nb_tcp_seg s;
	uint8_t *ip, *tcp;
	uint32_t hl;

	memset(t, 0, sizeof(*t));
	memset(&s, 0, sizeof(s));
	s.wscale = NB_TCP_WSCALE_NONE;
	s.has_stamp = 1; /* flags, seq, ack, window and stamp 0 */
	hl = hdrs_write(t->b, nb_tcp_frame_len(f, &s), f, &s, &ip, &tcp);
	t->v6 = f->family == 6;
	if (t->v6) {
		nb_put_be16(ip + 4, 0); /* the payload length */
	} else {
		nb_put_be16(ip + NB_IPV4_OFF_LEN, 0);
		nb_put_be16(ip + NB_IPV4_OFF_CSUM, 0);
		t->ip_sum = nb_csum_partial(ip, NB_IPV4_HLEN, 0);
	}
	t->l3 = (uint8_t)(ip - t->b);
	t->l4 = (uint8_t)(tcp - t->b);
	t->hlen = (uint8_t)(t->l4 + hl);
	t->tcp_sum =
		addrs_sum(ip) + NB_IPPROTO_TCP + nb_csum_partial(tcp, hl, 0);
}

/* A segment the template is for (nb_tcp_tmpl_build's list). */
static int
tmpl_fits(const struct nb_tcp_tmpl *t, const struct nb_tcp_seg *s)
{
	return !(s->flags & (NB_TCP_SYN | NB_TCP_RST)) && s->has_stamp &&
	       !s->nb_sack && s->len != 0 && s->len <= 16384u &&
	       t->hlen + s->len >= NB_MIN_WIRE;
}

/* s's headers from t into buf, but for the sequence number and the TCP
 * checksum; returns the sum of the TCP checksum's other terms. */
static uint32_t
tmpl_write(const struct nb_tcp_tmpl *t, uint8_t *buf,
	   const struct nb_tcp_seg *s)
{
	uint8_t *ip = buf + t->l3, *tcp = buf + t->l4;
	uint32_t tlen = (uint32_t)(t->hlen - t->l4) + s->len;
	uint64_t st = s->stamp_ns & ((UINT64_C(1) << 48) - 1);

	memcpy(buf, t->b, NB_TCP_TMPL_MAX);
	if (t->v6) {
		nb_put_be16(ip + 4, (uint16_t)tlen);
	} else {
		nb_put_be16(ip + NB_IPV4_OFF_LEN,
			    (uint16_t)(t->hlen - t->l3 + s->len));
		nb_put_be16(ip + NB_IPV4_OFF_CSUM,
			    nb_csum_fold(t->ip_sum + t->hlen - t->l3 + s->len));
	}
	nb_put_be32(tcp + NB_TCP_OFF_ACK, s->ack);
	tcp[NB_TCP_OFF_FLAGS] = s->flags;
	nb_put_be16(tcp + NB_TCP_OFF_WIN, (uint16_t)s->wnd);
	nb_put_be48(tcp + NB_TCP_HLEN + STAMP_IN_OPT, st);
	return t->tcp_sum + tlen + (s->ack >> 16) + (s->ack & 0xffff) +
	       s->flags + (uint16_t)s->wnd + (uint32_t)(st >> 32) +
	       (uint32_t)((st >> 16) & 0xffff) + (uint32_t)(st & 0xffff);
}

/* The sequence number and the TCP checksum of a segment of seq, payload
 * from stream offset off, the other terms' sum rest. */
static inline void
tmpl_seq(uint8_t *tcp, uint32_t seq, uint64_t off, uint32_t len, uint32_t rest)
{
	nb_put_be32(tcp + NB_TCP_OFF_SEQ, seq);
	nb_put_be16(tcp + NB_TCP_OFF_CSUM,
		    nb_csum_fold(rest + (seq >> 16) + (seq & 0xffff) +
				 nb_tcp_pattern_sum(off, len)));
}

int
nb_tcp_tmpl_build(const struct nb_tcp_tmpl *t, uint8_t *buf,
		  const struct nb_tcp_seg *s)
{
	if (!tmpl_fits(t, s))
		return -EINVAL;
	tmpl_seq(buf + t->l4, s->seq, s->data_off, s->len,
		 tmpl_write(t, buf, s));
	return t->hlen;
}

int
nb_tcp_tmpl_build_run(const struct nb_tcp_tmpl *t, uint8_t *const *bufs,
		      const struct nb_tcp_seg *s, unsigned int r)
{
	uint32_t rest, seq = s->seq;
	uint64_t off = s->data_off;
	unsigned int i;

	if (r == 0 || !tmpl_fits(t, s))
		return -EINVAL;
	rest = tmpl_write(t, bufs[0], s);
	tmpl_seq(bufs[0] + t->l4, seq, off, s->len, rest);
	for (i = 1; i < r; i++) {
		seq += s->len;
		off += s->len;
		memcpy(bufs[i], bufs[0], NB_TCP_TMPL_MAX);
		tmpl_seq(bufs[i] + t->l4, seq, off, s->len, rest);
	}
	return t->hlen;
}

static int
opts_parse(const uint8_t *o, uint32_t n, int syn, struct nb_tcp_seg *s)
{
	uint32_t i = 0, l, k;

	while (i < n) {
		if (o[i] == NB_TCP_OPT_EOL)
			break;
		if (o[i] == NB_TCP_OPT_NOP) {
			i++;
			continue;
		}
		if (i + 1 >= n)
			return -EPROTO;
		l = o[i + 1];
		if (l < 2 || i + l > n)
			return -EPROTO;
		switch (o[i]) {
		case NB_TCP_OPT_MSS:
			if (l != 4)
				return -EPROTO;
			if (syn) {
				s->has_mss = 1;
				s->mss = nb_get_be16(o + i + 2);
			}
			break;
		case NB_TCP_OPT_WSCALE:
			if (l != 3)
				return -EPROTO;
			if (syn)
				s->wscale = o[i + 2];
			break;
		case NB_TCP_OPT_SACK_PERM:
			if (l != 2)
				return -EPROTO;
			if (syn)
				s->sack_ok = 1;
			break;
		case NB_TCP_OPT_SACK:
			if ((l - 2) % 8 != 0 || l == 2)
				return -EPROTO;
			for (k = 0; k < (l - 2) / 8 && k < NB_TCP_SACK_MAX;
			     k++) {
				s->sack[k][0] = nb_get_be32(o + i + 2 + 8 * k);
				s->sack[k][1] = nb_get_be32(o + i + 6 + 8 * k);
			}
			s->nb_sack = (uint8_t)k;
			break;
		case NB_TCP_OPT_EXP:
			if (l == 10 &&
			    nb_get_be16(o + i + 2) == NB_TCP_STAMP_EXID) {
				s->has_stamp = 1;
				s->stamp_ns = nb_get_be48(o + i + 4);
			}
			break;
		default: /* others (timestamps, ...) are skipped */
			break;
		}
		i += l;
	}
	return 0;
}

/* The TCP header at tcp, for fast_shape(): the stamp option alone. */
static inline int
fast_tcp(const uint8_t *tcp)
{
	return (tcp[NB_TCP_OFF_DOFF] >> 4) ==
		       (NB_TCP_HLEN + NB_TCP_STAMP_LEN) / 4 &&
	       memcmp(tcp + NB_TCP_HLEN, stamp_head, sizeof(stamp_head)) == 0;
}

/* fast_shape() for IPv6 without extension headers. */
static uint32_t
fast_shape6(const uint8_t *buf, uint32_t len, struct nb_ipv4_loc *loc)
{
	const uint8_t *ip = buf + NB_ETH_HLEN, *tcp = ip + NB_IPV6_HLEN;
	const uint32_t hl = NB_TCP_HLEN + NB_TCP_STAMP_LEN;
	uint32_t plen;

	if (len < NB_ETH_HLEN + NB_IPV6_HLEN + hl || (ip[0] >> 4) != 6 ||
	    ip[6] != NB_IPPROTO_TCP || !fast_tcp(tcp))
		return 0;
	plen = nb_get_be16(ip + 4);
	if (plen < hl || NB_ETH_HLEN + NB_IPV6_HLEN + plen > len)
		return 0;
	loc->vlan_id = 0;
	loc->l3 = NB_ETH_HLEN;
	loc->l4 = NB_ETH_HLEN + NB_IPV6_HLEN;
	loc->l4_len = plen;
	loc->v6 = 1;
	return hl;
}

/*
 * The frame a peer of this tool sends most, found from fixed offsets:
 * untagged IPv4 without options (not a fragment, its header sum right)
 * or IPv6 without extension headers, and TCP with the stamp option
 * alone.  The TCP header's length out, or 0 for any other frame (the
 * general parser's business; it accepts every frame accepted here, with
 * the same result).
 */
static uint32_t
fast_shape(const uint8_t *buf, uint32_t len, struct nb_ipv4_loc *loc)
{
	const uint8_t *ip = buf + NB_ETH_HLEN, *tcp = ip + NB_IPV4_HLEN;
	const uint32_t hl = NB_TCP_HLEN + NB_TCP_STAMP_LEN;
	uint16_t tot, et;

	if (len < NB_ETH_HLEN + NB_IPV4_HLEN + hl)
		return 0;
	et = nb_get_be16(buf + NB_ETH_OFF_TYPE);
	if (et == NB_ETHERTYPE_IPV6)
		return fast_shape6(buf, len, loc);
	if (et != NB_ETHERTYPE_IPV4 || ip[0] != 0x45 ||
	    ip[NB_IPV4_OFF_PROTO] != NB_IPPROTO_TCP || !fast_tcp(tcp))
		return 0;
	tot = nb_get_be16(ip + NB_IPV4_OFF_LEN);
	if (tot < NB_IPV4_HLEN + hl || NB_ETH_HLEN + (uint32_t)tot > len ||
	    (nb_get_be16(ip + NB_IPV4_OFF_FRAG) & 0x3fff) != 0 ||
	    nb_csum_fold(nb_csum_words(ip, NB_IPV4_HLEN / 4)) != 0)
		return 0;
	loc->vlan_id = 0;
	loc->l3 = NB_ETH_HLEN;
	loc->l4 = NB_ETH_HLEN + NB_IPV4_HLEN;
	loc->l4_len = (uint32_t)tot - NB_IPV4_HLEN;
	loc->v6 = 0;
	return hl;
}

/* f's addressing from the frame in buf whose IP header loc found. */
static void
flow_from(const uint8_t *buf, const struct nb_ipv4_loc *loc, struct nb_flow *f)
{
	const uint8_t *ip = buf + loc->l3, *tcp = buf + loc->l4;

	memcpy(f->dst_mac, buf + NB_ETH_OFF_DST, 6);
	memcpy(f->src_mac, buf + NB_ETH_OFF_SRC, 6);
	f->vlan_id = loc->vlan_id;
	f->proto = NB_IPPROTO_TCP;
	if (loc->v6) {
		f->family = 6;
		f->ttl = ip[7];
		f->src_ip = 0;
		f->dst_ip = 0;
		memcpy(f->src_ip6, ip + 8, 16);
		memcpy(f->dst_ip6, ip + 24, 16);
		f->stream_id = nb_get_be16(ip + 2); /* flow label, low 16 */
	} else {
		f->family = 4;
		f->ttl = ip[NB_IPV4_OFF_TTL];
		f->src_ip = nb_get_be32(ip + NB_IPV4_OFF_SRC);
		f->dst_ip = nb_get_be32(ip + NB_IPV4_OFF_DST);
		f->stream_id = nb_get_be16(ip + NB_IPV4_OFF_ID);
	}
	f->src_port = nb_get_be16(tcp + NB_L4_OFF_SPORT);
	f->dst_port = nb_get_be16(tcp + NB_L4_OFF_DPORT);
}

static int
frame_parse(const uint8_t *buf, uint32_t len, int check_csum, struct nb_flow *f,
	    struct nb_tcp_seg *s, int fast)
{
	struct nb_ipv4_loc loc;
	const uint8_t *ip, *tcp;
	uint32_t hl = fast ? fast_shape(buf, len, &loc) : 0;

	if (hl == 0 && (nb_ip_locate(buf, len, NB_IPPROTO_TCP, &loc) != 0 ||
			loc.l4_len < NB_TCP_HLEN))
		return -EPROTO;
	ip = buf + loc.l3;
	tcp = buf + loc.l4;
	if (hl == 0) {
		hl = (uint32_t)(tcp[NB_TCP_OFF_DOFF] >> 4) * 4;
		if (hl < NB_TCP_HLEN || hl > loc.l4_len)
			return -EPROTO;
		fast = 0;
	}
	if (check_csum && nb_l4_csum(ip, NB_IPPROTO_TCP, tcp, loc.l4_len) != 0)
		return -EPROTO;
	memset(s, 0, sizeof(*s));
	s->wscale = NB_TCP_WSCALE_NONE;
	s->seq = nb_get_be32(tcp + NB_TCP_OFF_SEQ);
	s->ack = nb_get_be32(tcp + NB_TCP_OFF_ACK);
	s->flags = tcp[NB_TCP_OFF_FLAGS] & 0x3f;
	s->wnd = nb_get_be16(tcp + NB_TCP_OFF_WIN);
	if (fast) { /* the stamp option alone */
		s->has_stamp = 1;
		s->stamp_ns = nb_get_be48(tcp + NB_TCP_HLEN + STAMP_IN_OPT);
	} else if (opts_parse(tcp + NB_TCP_HLEN, hl - NB_TCP_HLEN,
			      !!(s->flags & NB_TCP_SYN), s) != 0) {
		return -EPROTO;
	}
	s->len = (uint16_t)(loc.l4_len - hl);
	s->payload = tcp + hl;
	s->l3_off = (uint16_t)loc.l3;
	s->l4_off = (uint16_t)loc.l4;
	s->hdr_len = (uint16_t)hl;
	flow_from(buf, &loc, f);
	return 0;
}

int
nb_tcp_frame_parse(const uint8_t *buf, uint32_t len, int check_csum,
		   struct nb_flow *f, struct nb_tcp_seg *s)
{
	return frame_parse(buf, len, check_csum, f, s, 1);
}

int
nb_tcp_frame_parse_general(const uint8_t *buf, uint32_t len, int check_csum,
			   struct nb_flow *f, struct nb_tcp_seg *s)
{
	return frame_parse(buf, len, check_csum, f, s, 0);
}
