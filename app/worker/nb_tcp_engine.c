/* SPDX-License-Identifier: BSD-3-Clause */
/* The closed-loop TCP worker loop (see nb_tcp_engine.h). */
#include "nb_tcp_engine_int.h"

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_pause.h>
#include <rte_prefetch.h>

#include "nb_tcp_wire.h"

/* The end a parsed frame belongs to, or NULL (the 4-tuple must match). */
static __rte_always_inline struct nb_tcp_end *
demux(struct nb_tcpjob *j, const struct nb_flow *f, const struct nb_tcp_seg *s,
      uint64_t now, const int server, const int any)
{
	uint16_t cport = server ? f->src_port : f->dst_port;
	uint32_t i = (uint16_t)(cport - j->port_base);

	if (any)
		return nb_tcpw_demux_any(j, f, s, now);
	if (i >= j->n || !nb_tcpw_same_tuple(&j->ends[i], f))
		return NULL;
	return &j->ends[i];
}

/* Peer mode: a segment of one of our 4-tuples from another MAC than the
 * peer's (a forgery on the segment) reaches no end. */
static __rte_always_inline int
wrong_mac(const struct nb_tcpjob *j, const struct nb_flow *f, const int server)
{
	uint16_t cport = server ? f->src_port : f->dst_port;
	uint32_t i = (uint16_t)(cport - j->port_base);
	uint8_t k;

	if (i >= j->n || memcmp(f->src_mac, j->ends[i].f.dst_mac, 6) == 0)
		return 0;
	for (k = 0; k < j->nb_alt; k++)
		if (memcmp(f->src_mac, j->alt_mac[k], 6) == 0)
			return 0;
	return 1;
}

/*
 * Point p, an mbuf of the pool pinned to the pattern, at len bytes of it
 * from stream offset off.  Nothing to attach or detach: the pool's mbufs
 * are external buffers for good (their free leaves buf_addr alone), so a
 * segment's payload is three addresses and two lengths.
 */
static __rte_always_inline void
point_pattern(const struct nb_tcpjob *j, struct rte_mbuf *p, uint64_t off,
	      uint16_t len)
{
	uint32_t o = (uint32_t)(off % NB_TCP_PATTERN_PERIOD);

	p->buf_addr = (void *)(uintptr_t)(j->zc_pat + o);
	rte_mbuf_iova_set(p, j->zc_iova + o);
	p->data_off = 0;
	p->data_len = len;
	p->pkt_len = len;
}

/*
 * A data segment in one mbuf: the headers from e's template, then the
 * pattern copied after them.  0 for a shape the template is not for (or
 * one that does not fit): the caller builds it the general way.
 */
static __rte_always_inline uint32_t
emit_copied(struct nb_tcpjob *j, const struct nb_tcp_end *e,
	    const struct nb_tcp_seg *s, struct rte_mbuf *m)
{
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);
	int hl;

	if (rte_pktmbuf_tailroom(m) < NB_TCP_TMPL_MAX + s->len)
		return 0;
	hl = nb_tcp_tmpl_build(&e->tmpl, d, s);
	if (hl < 0)
		return 0;
	memcpy(d + hl, nb_tcp_pattern_at(s->data_off), s->len);
	m->data_len = (uint16_t)(hl + s->len);
	m->pkt_len = m->data_len;
	nb_tcpw_pend_push(j, m);
	return m->pkt_len;
}

/*
 * Mbufs for the next segments, in bulk, once a stash is half empty.
 *
 * Raw mbufs, not rte_pktmbuf_alloc_bulk's (whose reset of every field
 * cost more than building the segment): the job's pools are its own, for
 * what it sends, and their mbufs come back through rte_pktmbuf_free (or a
 * fast free, only where nothing is chained), which leaves them with
 * refcnt 1, next NULL and nb_segs 1 (and a pinned one's buffer where it
 * was).  What a frame needs beyond that, stash_take and point_pattern
 * set.
 */
static __rte_always_inline void
stash_fill(struct nb_tcpjob *j, struct nb_tcp_stash *st, struct rte_mempool *mp)
{
	uint16_t want = (uint16_t)(NB_TCP_STASH - st->n);

	if (want < NB_BURST)
		return;
	if (likely(rte_mempool_get_bulk(mp, (void **)(st->m + st->n), want) ==
		   0)) {
		st->n = NB_TCP_STASH;
		return;
	}
	j->alloc_fail++;
	/* a pool nearly drained (a bulk is all or nothing): one, if it has
	 * it, so the sender still moves */
	if (st->n == 0 && rte_mempool_get_bulk(mp, (void **)st->m, 1) == 0)
		st->n = 1;
}

/* The segments the stashes hold mbufs for (a payload mbuf each, with
 * zero copy: an upper bound, a small segment takes none). */
static __rte_always_inline uint32_t
stash_segs(const struct nb_tcpjob *j, const int zc)
{
	return zc ? RTE_MIN(j->hdr.n, j->pat.n) : j->hdr.n;
}

/* A header stash mbuf as rte_pktmbuf_reset leaves the fields a frame
 * reads. */
static __rte_always_inline struct rte_mbuf *
stash_take(struct nb_tcpjob *j)
{
	struct rte_mbuf *m = j->hdr.m[--j->hdr.n];

	m->data_off = RTE_PKTMBUF_HEADROOM;
	m->data_len = 0;
	m->pkt_len = 0;
	m->ol_flags = 0;
	return m;
}

/*
 * A segment of end e from the stashes (stash_segs() of 1 or more): one
 * that holds some of an app's prefix (app) built with its bytes; with
 * zero copy a data segment's headers (from e's template, or built the
 * general way for another shape) and its payload pointed at in the
 * pattern, else the whole frame in one (a plain data segment from the
 * template and the pattern).  Returns the frame's bytes, 0 if none.
 */
static __rte_always_inline uint32_t
emit_seg(struct nb_tcpjob *j, const struct nb_tcp_end *e, struct nb_tcp_seg *s,
	 const int zc, const int app)
{
	struct rte_mbuf *m = stash_take(j), *p;
	uint32_t n;
	int hl;

	if (app && unlikely(s->len && s->data_off < e->c.app->tx_len))
		return nb_tcpw_emit_app(j, e, s, m);
	if (!zc || s->len < NB_TCP_ZC_MIN) {
		n = emit_copied(j, e, s, m);
		if (n)
			return n;
		return nb_tcpw_emit(j, &e->f, s, m) == 0 ? m->pkt_len : 0;
	}
	hl = nb_tcp_tmpl_build(&e->tmpl, rte_pktmbuf_mtod(m, uint8_t *), s);
	if (unlikely(hl < 0))
		hl = nb_tcp_frame_build_hdr(rte_pktmbuf_mtod(m, uint8_t *),
					    rte_pktmbuf_tailroom(m), &e->f, s);
	if (unlikely(hl < 0)) /* past the pattern's span: copied */
		return nb_tcpw_emit(j, &e->f, s, m) == 0 ? m->pkt_len : 0;
	p = j->pat.m[--j->pat.n];
	point_pattern(j, p, s->data_off, s->len);
	m->data_len = (uint16_t)hl;
	m->pkt_len = (uint32_t)hl + s->len;
	m->next = p;
	m->nb_segs = 2;
	nb_tcpw_pend_push(j, m);
	return m->pkt_len;
}

/*
 * Request/response: a client gives TCP its next request once the answer
 * to the last one is in (timing it), a server its next answer once a
 * whole request is in.
 */
static __rte_always_inline void
pingpong(struct nb_tcpjob *j, struct nb_tcp_end *e, uint64_t now,
	 const int server)
{
	uint64_t got = e->c.st.bytes_rcvd;

	if (server) {
		if (got >= (e->pp_count + 1) * j->pp_msg) {
			e->pp_count++;
			nb_tcp_send_limit(&e->c, e->pp_count * j->pp_msg);
		}
		return;
	}
	if (e->c.state != NB_TCP_ESTABLISHED || got < e->pp_count * j->pp_msg)
		return;
	if (e->pp_count)
		nb_hist_record(j->rtt, now - e->pp_sent_ns);
	e->pp_count++;
	nb_tcp_send_limit(&e->c, e->pp_count * j->pp_msg);
	e->pp_sent_ns = now;
}

#define RX_PREFETCH 3

/* A frame in chained mbufs made one piece, to be parsed (its length in
 * *dlen, 0 when it does not fit). */
static __rte_noinline const uint8_t *
in_one_piece(struct nb_tcpjob *j, const struct rte_mbuf *m, uint32_t *dlen)
{
	const uint8_t *d;

	*dlen = m->pkt_len <= sizeof(j->scratch) ? m->pkt_len : 0;
	d = rte_pktmbuf_read(m, 0, *dlen, j->scratch);
	if (d == NULL) {
		*dlen = 0;
		d = j->scratch;
	}
	return d;
}

/* Segment s of end e, checked: its one-way delay (owd), TCP's input,
 * ping-pong's next message (pp), the time every byte was acknowledged
 * (sends), the end's finish. */
static __rte_always_inline void
seg_input(struct nb_tcpjob *j, struct nb_tcp_end *e, struct nb_tcp_seg *s,
	  uint64_t now, const struct nb_run *run, const int server,
	  const int owd, const int pp, const int sends)
{
	if (owd && s->has_stamp && s->len) {
		/* 48-bit stamps; a negative delay (another host's clock)
		 * records as 0, as the UDP sink's */
		uint64_t d = (now + (uint64_t)run->rx_offset_ns - s->stamp_ns) &
			     ((UINT64_C(1) << 48) - 1);

		if (d >= (UINT64_C(1) << 47))
			d = 0;
		nb_hist_record(j->owd, d);
	}
	nb_tcp_input(&e->c, s, now);
	if (pp)
		pingpong(j, e, now, server);
	if (sends && !e->all_acked_ns && e->c.snd_end != UINT64_MAX &&
	    e->c.snd_una >= e->c.snd_end)
		e->all_acked_ns = now;
	if (unlikely(!e->done_ns && nb_tcp_finished(&e->c)))
		nb_tcpw_end_done(j, e, now);
}

/*
 * One RX burst of queue q, specialised on the job's kind: server (its
 * ends listen), peer (control's frames to its rings, segments from the
 * peer's MACs only), any (a listener binding ends to SYNs), hw_csum (the
 * PMD's L4 verdict trusted), owd (one-way delays recorded), pp
 * (--pingpong), sends (all_acked_ns kept), ip3 (--iperf3's streams: a
 * segment of no end is the control connection's, for control).
 */
static __rte_always_inline void
rx_body(struct nb_tcpjob *j, uint16_t q, const struct nb_run *run,
	const int server, const int peer, const int any, const int hw_csum,
	const int owd, const int pp, const int sends, const int ip3)
{
	struct rte_mbuf *pkts[NB_BURST];
	struct nb_tcp_seg s;
	struct nb_flow f;
	uint64_t now;
	uint16_t n, i;

	n = rte_eth_rx_burst(j->port, q, pkts, NB_BURST);
	if (n == 0)
		return;
	if (n == NB_BURST)
		j->rx_full = 1;
	/* the time of this burst: a frame may be younger than the turn */
	now = nb_clock_ns(&run->clock, rte_rdtsc());
	/* the first frames' headers on their way to the cache, then each
	 * turn the one RX_PREFETCH ahead (a burst of full frames is more
	 * than L1 holds once the PMD has copied it in) */
	for (i = 0; i < n && i < RX_PREFETCH; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint64_t l4 = m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK;
		struct nb_tcp_end *e;

		const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
		uint32_t dlen = m->data_len;

		if (i + RX_PREFETCH < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + RX_PREFETCH],
						       void *));

		if (unlikely(m->nb_segs != 1))
			d = in_one_piece(j, m, &dlen);
		if (nb_tcp_frame_parse(d, dlen, 0, &f, &s) != 0) {
			if (peer && m->nb_segs == 1 &&
			    nb_tcpw_to_control(j, q, m)) {
				pkts[i] = NULL; /* not freed below */
				continue;
			}
			j->rx_pkts++;
			j->rx_bytes += m->pkt_len + NB_FCS_LEN;
			nb_tcpw_foreign(j, d, dlen);
			continue;
		}
		j->rx_pkts++;
		j->rx_bytes += m->pkt_len + NB_FCS_LEN;
		if (peer && unlikely(wrong_mac(j, &f, server))) {
			j->foreign++;
			continue;
		}
		e = demux(j, &f, &s, now, server, any);
		/* the checksum: the NIC's verdict, or ours (cheap when the
		 * payload is the pattern where this end expects it, which
		 * then needs no second look) */
		if (!(hw_csum && l4 == RTE_MBUF_F_RX_L4_CKSUM_GOOD)) {
			int ok = nb_tcp_frame_csum_ok(
				d, &s,
				e ? nb_tcp_rcv_stream_off(&e->c, s.seq) : -1);

			if (ok == 0) {
				j->bad_csum++;
				continue;
			}
			s.pattern_ok = ok == 2;
		}
		if (ip3 && server && unlikely(nb_tcpw_prefix_bad(j, e, &s)))
			continue;
		if (unlikely(e == NULL)) {
			if (ip3 && nb_tcpw_stray_to_control(j, q, m)) {
				pkts[i] = NULL; /* not freed below */
				continue;
			}
			j->stray++;
			nb_tcpw_send_rst(j, &f, &s);
			continue;
		}
		seg_input(j, e, &s, now, run, server, owd, pp, sends);
	}
	rte_pktmbuf_free_bulk(pkts, n);
}

/*
 * A run of r zero-copy segments, s the first: the headers in one
 * nb_tcp_tmpl_build_run() (the first from the template, the others
 * copies of it with their seq and checksum), each chained to its payload
 * in the pattern.  0 (nothing taken) for a shape the template is not for.
 */
static __rte_always_inline unsigned int
emit_run_zc(struct nb_tcpjob *j, const struct nb_tcp_end *e,
	    const struct nb_tcp_seg *s, unsigned int r)
{
	struct rte_mbuf *hm[NB_BURST], *p;
	uint8_t *hb[NB_BURST];
	uint64_t off = s->data_off;
	unsigned int x;
	int hl;

	for (x = 0; x < r; x++) {
		hm[x] = stash_take(j);
		hb[x] = rte_pktmbuf_mtod(hm[x], uint8_t *);
	}
	hl = nb_tcp_tmpl_build_run(&e->tmpl, hb, s, r);
	if (unlikely(hl < 0)) {
		j->hdr.n = (uint16_t)(j->hdr.n + r); /* back where they were */
		return 0;
	}
	for (x = 0; x < r; x++, off += s->len) {
		p = j->pat.m[--j->pat.n];
		point_pattern(j, p, off, s->len);
		hm[x]->data_len = (uint16_t)hl;
		hm[x]->pkt_len = (uint32_t)hl + s->len;
		hm[x]->next = p;
		hm[x]->nb_segs = 2;
		nb_tcpw_pend_push(j, hm[x]);
	}
	return r;
}

/*
 * Up to max full segments of new data of end e in one nb_tcp_output_run()
 * (none: 0), built in one emit_run_zc() where zero copy takes them, else
 * each as emit_seg builds one.  Only without a --max-rate cap: a run is
 * not metered segment by segment.
 */
static __rte_always_inline unsigned int
emit_run(struct nb_tcpjob *j, struct nb_tcp_end *e, uint64_t now,
	 unsigned int max, const int zc, const int app)
{
	struct nb_tcp_seg s;
	unsigned int r, x;

	r = nb_tcp_output_run(&e->c, now, max, &s);
	if (r == 0)
		return 0;
	s.stamp_ns = now;
	if (zc && s.len >= NB_TCP_ZC_MIN &&
	    !(app && s.data_off < e->c.app->tx_len) &&
	    emit_run_zc(j, e, &s, r) == r)
		return r;
	for (x = 0; x < r; x++) {
		emit_seg(j, e, &s, zc, app);
		s.seq += s.len;
		s.data_off += s.len;
	}
	return r;
}

/* Offer the built frames to the PMD; what it refuses waits in pend[]. */
static void
pend_send(struct nb_tcpjob *j)
{
	uint64_t bytes = 0;
	uint16_t sent, k;

	sent = rte_eth_tx_burst(j->port, j->queue, j->pend + j->pend_head,
				j->nb_pend);
	/* the lengths kept: a sent mbuf is the PMD's (maybe freed) */
	for (k = 0; k < sent; k++)
		bytes += j->pend_len[j->pend_head + k] + NB_FCS_LEN;
	j->tx_pkts += sent;
	j->tx_bytes += bytes;
	j->nb_pend = (uint16_t)(j->nb_pend - sent);
	j->pend_head = j->nb_pend ? (uint16_t)(j->pend_head + sent) : 0;
}

/*
 * The connections' segments, round robin, and one TX burst; specialised
 * on capped (a responder's --max-rate meters each frame), zc (payloads
 * pointed at in the pattern), sends (a receiver may keep ACKs back) and
 * app (a prefix before the pattern: --iperf3's cookie).
 */
static __rte_always_inline void
tx_body(struct nb_tcpjob *j, uint64_t now, const int capped, const int zc,
	const int sends, const int app)
{
	struct nb_tcp_seg s;
	uint32_t k, i = j->rr, segs, len, room;
	/* a receiver with frames waiting sends no ACK it may keep back */
	const int lazy = !sends && j->rx_full;

	if (j->nb_pend == 0)
		j->pend_head = 0;
	stash_fill(j, &j->hdr, j->pool);
	if (zc)
		stash_fill(j, &j->pat, j->zc_pool);
	for (k = 0; k < j->n && j->pend_head + j->nb_pend < NB_BURST; k++) {
		struct nb_tcp_end *e = &j->ends[i];

		for (segs = 0; segs < NB_TCP_SEGS_PER_TURN &&
			       !(lazy && nb_tcp_ack_can_wait(&e->c)) &&
			       j->pend_head + j->nb_pend < NB_BURST;
		     segs++) {
			if (unlikely(stash_segs(j, zc) == 0) ||
			    unlikely(capped && !nb_budget_ok(&j->cap, now)))
				goto out;
			if (!capped) {
				room = RTE_MIN(
					(uint32_t)(NB_BURST - j->pend_head -
						   j->nb_pend),
					RTE_MIN(stash_segs(j, zc),
						NB_TCP_SEGS_PER_TURN - segs));
				len = emit_run(j, e, now, room, zc, app);
				if (len) {
					segs += len - 1;
					continue;
				}
			}
			if (!nb_tcp_output(&e->c, now, &s))
				break;
			s.stamp_ns = now;
			len = emit_seg(j, e, &s, zc, app);
			if (len && capped)
				nb_budget_spend(&j->cap,
						j->cap_fixed +
							j->cap_per_byte * len);
		}
		if (unlikely(!e->done_ns && nb_tcp_finished(&e->c)))
			nb_tcpw_end_done(j, e, now);
		if (++i == j->n)
			i = 0;
	}
out:
	j->rr = i;
	if (j->nb_pend)
		pend_send(j);
}

/*
 * NB_TCP_PER_SEGMENT_END: above, the per-segment code, which reads no
 * configuration from the job (tests/unit/check_tcp_engine.sh); below,
 * its specialisations, chosen once per job, and the worker loop.
 *
 * The RX kinds that occur, as tcprun sets jobs up (server, peer, any,
 * hw_csum, owd, pp, sends):
 *  - not peer: a job takes data or sends it, never both (owd = server,
 *    sends = !server); a listener facing other hosts accepts any
 *    4-tuple (any), as does --iperf3-server's (peer, RX_IP3);
 *  - peer: forward, reverse or bidir, so (owd, sends) is never (0, 0);
 *  - hw_csum: nothing sets rx_csum_hw (nb_tcp_engine.h): no row has it.
 */
#define RX_FN(name, sv, pe, an, ow, pp, se)                                    \
	static void name(struct nb_tcpjob *j, uint16_t q,                      \
			 const struct nb_run *run)                             \
	{                                                                      \
		rx_body(j, q, run, sv, pe, an, 0, ow, pp, se, 0);              \
	}
RX_FN(rx_client, 0, 0, 0, 0, 0, 1)
RX_FN(rx_client_pp, 0, 0, 0, 0, 1, 1)
RX_FN(rx_server, 1, 0, 0, 1, 0, 0)
RX_FN(rx_server_pp, 1, 0, 0, 1, 1, 0)
RX_FN(rx_listener, 1, 0, 1, 1, 0, 0)
RX_FN(rx_listener_pp, 1, 0, 1, 1, 1, 0)
RX_FN(rx_peer_c_fwd, 0, 1, 0, 0, 0, 1)
RX_FN(rx_peer_c_rev, 0, 1, 0, 1, 0, 0)
RX_FN(rx_peer_c_bidir, 0, 1, 0, 1, 0, 1)
RX_FN(rx_peer_c_fwd_pp, 0, 1, 0, 0, 1, 1)
RX_FN(rx_peer_c_rev_pp, 0, 1, 0, 1, 1, 0)
RX_FN(rx_peer_c_bidir_pp, 0, 1, 0, 1, 1, 1)
RX_FN(rx_peer_s_fwd, 1, 1, 0, 1, 0, 0)
RX_FN(rx_peer_s_rev, 1, 1, 0, 0, 0, 1)
RX_FN(rx_peer_s_bidir, 1, 1, 0, 1, 0, 1)
RX_FN(rx_peer_s_fwd_pp, 1, 1, 0, 1, 1, 0)
RX_FN(rx_peer_s_rev_pp, 1, 1, 0, 0, 1, 1)
RX_FN(rx_peer_s_bidir_pp, 1, 1, 0, 1, 1, 1)

/* --iperf3's streams, peer mode, a segment of no end for control (its
 * iperf3 control connection); no one-way delays (iperf3's payload has no
 * stamp of ours).  A client's ends carry a prefix (apps): forward (se)
 * or reverse (after the cookie they only take data); --iperf3-server's
 * listener (sv, any) checks each connection's cookie, and sends with -R */
#define RX_IP3(name, sv, se)                                                   \
	static void name(struct nb_tcpjob *j, uint16_t q,                      \
			 const struct nb_run *run)                             \
	{                                                                      \
		rx_body(j, q, run, sv, 1, sv, 0, 0, 0, se, 1);                 \
	}
RX_IP3(rx_ip3, 0, 1)
RX_IP3(rx_ip3_rev, 0, 0)
RX_IP3(rx_ip3_srv, 1, 0)
RX_IP3(rx_ip3_srv_rev, 1, 1)

/* [server][peer][any][owd][pp][sends]; NULL: a kind that cannot occur */
static const nb_tcp_rx_fn rx_fns[2][2][2][2][2][2] = {
	[0][0][0][0][0][1] = rx_client,
	[0][0][0][0][1][1] = rx_client_pp,
	[1][0][0][1][0][0] = rx_server,
	[1][0][0][1][1][0] = rx_server_pp,
	[1][0][1][1][0][0] = rx_listener,
	[1][0][1][1][1][0] = rx_listener_pp,
	[0][1][0][0][0][1] = rx_peer_c_fwd,
	[0][1][0][1][0][0] = rx_peer_c_rev,
	[0][1][0][1][0][1] = rx_peer_c_bidir,
	[0][1][0][0][1][1] = rx_peer_c_fwd_pp,
	[0][1][0][1][1][0] = rx_peer_c_rev_pp,
	[0][1][0][1][1][1] = rx_peer_c_bidir_pp,
	[1][1][0][1][0][0] = rx_peer_s_fwd,
	[1][1][0][0][0][1] = rx_peer_s_rev,
	[1][1][0][1][0][1] = rx_peer_s_bidir,
	[1][1][0][1][1][0] = rx_peer_s_fwd_pp,
	[1][1][0][0][1][1] = rx_peer_s_rev_pp,
	[1][1][0][1][1][1] = rx_peer_s_bidir_pp,
};

/* The TX kinds (capped, zc, sends): zero copy only for a sender
 * (job_pools); a cap only for a responder that sends (the peer session
 * sets one on a responder's reverse or bidir test alone). */
#define TX_FN(name, ca, zc, se)                                                \
	static void name(struct nb_tcpjob *j, uint64_t now)                    \
	{                                                                      \
		tx_body(j, now, ca, zc, se, 0);                                \
	}
TX_FN(tx_acks, 0, 0, 0)
TX_FN(tx_copied, 0, 0, 1)
TX_FN(tx_zc, 0, 1, 1)
TX_FN(tx_copied_capped, 1, 0, 1)
TX_FN(tx_zc_capped, 1, 1, 1)

/* --iperf3's streams: their prefix in the first segments */
static void
tx_app_copied(struct nb_tcpjob *j, uint64_t now)
{
	tx_body(j, now, 0, 0, 1, 1);
}

static void
tx_app_zc(struct nb_tcpjob *j, uint64_t now)
{
	tx_body(j, now, 0, 1, 1, 1);
}

static const nb_tcp_tx_fn tx_fns[2][2][2] = {
	[0][0][0] = tx_acks,	  [0][0][1] = tx_copied,
	[0][1][1] = tx_zc,	  [1][0][1] = tx_copied_capped,
	[1][1][1] = tx_zc_capped,
};

int
nb_tcp_job_select(struct nb_tcpjob *j)
{
	int peer = j->ctl_rings != NULL;

	if (j->mac_bind != peer || j->rx_csum_hw)
		return -1;
	if (j->prefix_check) { /* --iperf3-server's: that kind alone */
		if (!peer || !j->server || !j->accept_any || j->pp_msg)
			return -1;
		j->rx_step = j->sends ? rx_ip3_srv_rev : rx_ip3_srv;
		j->tx_step = tx_fns[j->cap.rate != 0][j->zc_pool != NULL]
				   [j->sends != 0];
		return j->tx_step != NULL ? 0 : -1;
	}
	if (j->apps != NULL) { /* --iperf3's streams: that kind alone */
		if (!peer || j->server || j->pp_msg || j->cap.rate ||
		    j->accept_any)
			return -1;
		j->rx_step = j->sends ? rx_ip3 : rx_ip3_rev;
		/* every end sends its cookie at least */
		j->tx_step = j->zc_pool != NULL ? tx_app_zc : tx_app_copied;
		return 0;
	}
	j->rx_step = rx_fns[j->server != 0][peer][j->accept_any != 0]
			   [j->owd != NULL][j->pp_msg != 0][j->sends != 0];
	j->tx_step =
		tx_fns[j->cap.rate != 0][j->zc_pool != NULL][j->sends != 0];
	return j->rx_step != NULL && j->tx_step != NULL ? 0 : -1;
}

/* After the loop: what is pending goes out (the last ACK of a close may
 * wait here: 10 ms to leave), the stashes go back to their pools. */
static void
flush_job(struct nb_tcpjob *j)
{
	uint64_t until = rte_get_tsc_cycles() + rte_get_tsc_hz() / 100;

	while (j->nb_pend && rte_get_tsc_cycles() < until)
		pend_send(j);
	if (j->nb_pend)
		rte_pktmbuf_free_bulk(j->pend + j->pend_head, j->nb_pend);
	j->nb_pend = 0;
	if (j->hdr.n)
		rte_pktmbuf_free_bulk(j->hdr.m, j->hdr.n);
	if (j->pat.n)
		rte_pktmbuf_free_bulk(j->pat.m, j->pat.n);
	j->hdr.n = 0;
	j->pat.n = 0;
}

int
nb_tcp_engine_loop(struct nb_worker *w)
{
	struct nb_run *run = w->run;
	int closed = 0;
	uint64_t now;
	uint16_t k, q;

	/* until the start: a peer session's frames still go to control */
	while (rte_rdtsc() < run->start_tsc && !run->rx_stop) {
		if (w->ctltx != NULL)
			nb_ctltx_step(w->ctltx);
		for (k = 0; k < w->nb_tcp; k++)
			for (q = 0;
			     w->tcp[k]->mac_bind && q < w->tcp[k]->nb_rxq; q++)
				w->tcp[k]->rx_step(w->tcp[k], q, run);
		rte_pause();
	}
	/* what control wrote before start_tsc is visible from here on */
	rte_smp_rmb();
	now = nb_clock_ns(&run->clock, rte_rdtsc());
	for (k = 0; k < w->nb_tcp; k++)
		if (!w->tcp[k]->server)
			nb_tcpw_open_all(w->tcp[k], now);
	while (!run->rx_stop) {
		nb_tcpw_turn_edges(w, run, &closed);
		if (w->ctltx != NULL)
			nb_ctltx_step(w->ctltx);
		for (k = 0; k < w->nb_tcp; k++) {
			struct nb_tcpjob *j = w->tcp[k];

			j->rx_full = 0;
			for (q = 0; q < j->nb_rxq; q++)
				j->rx_step(j, q, run);
			now = nb_clock_ns(&run->clock, rte_rdtsc());
			j->tx_step(j, now);
		}
		w->loops++;
	}
	for (k = 0; k < w->nb_tcp; k++)
		flush_job(w->tcp[k]);
	w->exited = 1;
	return 0;
}
