/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sink's burst step: classify each frame, account it to its stream
 * (sequence, latency, jitter), free the burst.  Frames that are not ours are
 * counted and freed; nothing from the wire can make it read out of bounds.
 */
#ifndef NB_SINK_H
#define NB_SINK_H

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_ring.h>

#include "nb_l2.h"
#include "nb_mesh.h"
#include "nb_tokens.h"
#include "nb_worker.h"

#define NB_PREFETCH_AHEAD 4

/*
 * rx - tx over 48-bit ns stamps.  A negative difference (clocks of two
 * hosts, or a corrupted stamp) records as 0 rather than as 2^48.
 */
static __rte_always_inline uint64_t
nb_latency_ns(uint64_t rx_ns, uint64_t tx_ns)
{
	uint64_t d = (rx_ns - tx_ns) & NB_SEQ_MASK;

	return d < (UINT64_C(1) << (NB_SEQ_BITS - 1)) ? d : 0;
}

/* The 6 bytes at p + 6 (source MAC) and 2 more, to compare under a mask. */
static __rte_always_inline uint64_t
nb_src8(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p + 6, sizeof(v));
	return v;
}

/*
 * A frame not from the peer's MAC: is it from one of the peer's other
 * source MACs (a TLB/ALB bond's member)?  A probe from one gets the
 * peer's MAC as its source, so that a reflection goes where the peer
 * receives.  Outside the common path: the peer's own MAC matched first.
 */
static inline int
nb_src_alt(const struct nb_rxjob *j, uint8_t *p, enum nb_frame_kind kind)
{
	uint64_t src = nb_src8(p);
	uint32_t i;

	for (i = 0; i < j->nb_alt; i++)
		if (((src ^ j->alt_src[i]) & j->src_mask) == 0) {
			if (kind == NB_FRAME_PROBE)
				memcpy(p + 6, &j->src_want, 6);
			return 1;
		}
	return 0;
}

/* --capture: copy every Nth frame of the burst for the writer (slow path:
 * called once per burst, only when capturing). */
static __rte_noinline void
nb_capture_tap_burst(struct nb_capjob *c, struct rte_mbuf **pkts, uint16_t n,
		     uint64_t tsc)
{
	const struct nb_capture *cap = c->cap;
	struct rte_mbuf *cp[64];
	unsigned int k = 0, q, i;

	if (cap->full)
		return;
	for (i = 0; i < n && k < RTE_DIM(cp); i++) {
		struct rte_mbuf *x;
		struct nb_capture_meta *meta;

		if (--c->left != 0)
			continue;
		c->left = cap->every;
		x = rte_pktmbuf_copy(pkts[i], cap->pool, 0, cap->snaplen);
		if (unlikely(x == NULL)) {
			c->dropped++;
			continue;
		}
		meta = rte_mbuf_to_priv(x);
		meta->tsc = tsc;
		meta->orig_len = pkts[i]->pkt_len;
		cp[k++] = x;
	}
	if (k == 0)
		return;
	q = rte_ring_mp_enqueue_burst(cap->ring, (void **)cp, k, NULL);
	if (unlikely(q < k)) {
		rte_pktmbuf_free_bulk(cp + q, k - q);
		c->dropped += k - q;
	}
	c->taken += q;
}

/* Responder: may this probe go back now?  Within its size and rate. */
static __rte_always_inline int
nb_reflect_ok(struct nb_rxjob *j, const struct rte_mbuf *m, uint64_t now_ns)
{
	if ((m->pkt_len != j->probe_len && m->pkt_len != j->probe_len2) ||
	    !nb_tokens_take(&j->refl, now_ns)) {
		j->reflect_limited++;
		return 0;
	}
	return 1;
}

/* A data frame of a stream of job j, counted at receive time rx_ns
 * (flows: a constant, --flows' per-flow counts too). */
static __rte_always_inline void
nb_sink_count(struct nb_rxjob *j, struct nb_rx_stream *s, uint64_t seq,
	      uint64_t ts, uint32_t len, uint64_t rx_ns, const int flows)
{
	uint64_t lat = nb_latency_ns(rx_ns, ts);

	if (flows) {
		uint64_t u, expected = s->seq.next;
		int is_new = nb_seq_update_in(&s->seq, seq, &u);

		nb_flow_rx_count(s->flows, s->flows_ext, s->nflows, &s->fk_next,
				 u, expected, is_new, lat);
	} else {
		uint64_t u;

		(void)nb_seq_update_in(&s->seq, seq, &u);
	}
	s->bytes += len;
	nb_hist_record2(&s->hist, &j->all_hist, lat);
	/* transit = lat: already reduced mod 2^48 */
	nb_jitter_update(&s->jit, 0, lat);
}

/*
 * Impairing responder, slow path: count the data frames the delay line
 * releases now (all of them when flush), reflect the probes due.  Returns
 * how many.
 */
static __rte_noinline uint16_t
nb_sink_release(struct nb_rxjob *j, const struct nb_run *run, int flush)
{
	struct nb_impair_rec out[NB_BURST];
	struct nb_probe_hold *h = j->hold;
	uint64_t now = rte_rdtsc();
	uint64_t now_ns = nb_clock_ns(&run->clock, now);
	uint64_t rx_ns = (now_ns + (uint64_t)run->rx_offset_ns) & NB_SEQ_MASK;
	unsigned int n, i, total = 0;

	do {
		n = nb_impair_release(j->imp, now_ns, out, NB_BURST, flush);
		for (i = 0; i < n; i++)
			nb_sink_count(j, &j->streams[out[i].stream], out[i].seq,
				      out[i].ts, out[i].len, rx_ns, 0);
		total += n;
	} while (n == NB_BURST);
	if (total)
		j->last_data_tsc = now;
	while (h != NULL && h->head != h->tail) {
		uint32_t k = h->head % NB_HOLD_PROBES;

		if (!flush && h->due_ns[k] > now_ns)
			break;
		if (flush || rte_eth_tx_burst(j->port, (uint16_t)j->reflect_txq,
					      &h->m[k], 1) != 1) {
			rte_pktmbuf_free(h->m[k]);
			j->reflect_fail++;
		} else {
			j->reflected++;
		}
		h->head++;
	}
	return (uint16_t)total;
}

/* Impairing responder: a data frame goes into the delay line (or none, or
 * two of it: the impairment decides). */
static __rte_always_inline void
nb_sink_impair_data(struct nb_rxjob *j, const struct nb_stamp *st, uint32_t len,
		    uint64_t now_ns)
{
	struct nb_impair_rec r = {.seq = st->seq,
				  .ts = st->ts,
				  .stream = st->stream_id,
				  .len = len};
	unsigned int k = nb_impair_decide(j->imp, len, now_ns, 1);

	while (k--)
		nb_impair_push(j->imp, &r, now_ns);
}

/* Impairing responder: a probe to reflect is dropped, held (delay=) or
 * goes back now (1: the caller sends it). */
static __rte_always_inline int
nb_sink_impair_probe(struct nb_rxjob *j, struct rte_mbuf *m, uint64_t now_ns)
{
	struct nb_probe_hold *h = j->hold;

	if (nb_impair_decide(j->imp, m->pkt_len + NB_FCS_LEN, now_ns, 0) == 0) {
		rte_pktmbuf_free(m);
		return 0;
	}
	if (j->imp->cfg.delay_ns == 0)
		return 1;
	j->imp->c.delayed++;
	if (h->tail - h->head >= NB_HOLD_PROBES) {
		j->imp->c.overflow++;
		rte_pktmbuf_free(m);
		return 0;
	}
	h->m[h->tail % NB_HOLD_PROBES] = m;
	h->due_ns[h->tail % NB_HOLD_PROBES] = now_ns + j->imp->cfg.delay_ns;
	h->tail++;
	return 0;
}

/*
 * --iperf3 --reverse: is this frame of no kind of ours one of the iperf3
 * server's UDP datagrams?  Then it is counted (1).  Checksums are checked
 * (nb_udp_frame_parse): what the network sends is not trusted.  Off the
 * path of the tool's own frames.
 */
static __rte_noinline int
nb_sink_ip3(struct nb_ip3_sink *k, const struct rte_mbuf *m, uint64_t now_ns)
{
	struct nb_udp_info u;
	uint16_t key, fixed;
	unsigned int i;

	if (m->nb_segs != 1 ||
	    nb_udp_frame_parse(rte_pktmbuf_mtod(m, const uint8_t *),
			       m->data_len, &u) != 0 ||
	    u.v6 || u.src_ip != k->peer_ip || u.dst_ip != k->my_ip)
		return 0;
	key = k->by_src ? u.src_port : u.dst_port;
	fixed = k->by_src ? u.dst_port : u.src_port;
	if (fixed != k->fixed_port)
		return 0;
	/* consecutive ports (the client's own streams) at once, else a
	 * search (a client's ports as its kernel chose them) */
	i = (uint16_t)(key - k->port[0]);
	if (i >= k->n || k->port[i] != key)
		for (i = 0; i < k->n && k->port[i] != key; i++)
			;
	if (i >= k->n)
		return 0;
	return nb_ip3_udp_rx_take(&k->s[i], u.payload, u.payload_len, k->c64,
				  now_ns + k->epoch_ns) == 0;
}

/* What a sink counts beyond the streams (a constant: the engine is chosen
 * by it): every frame's size bin (a receive-only test), each stream's
 * arrival gaps (--gaps), each stream's flows (--flows). */
#define NB_SINK_SIZES 1
#define NB_SINK_GAPS  2
#define NB_SINK_FLOWS 4 /* --flows: each stream's flows counted */

/*
 * One receive burst.  impair and extra (constants: the engine is chosen by
 * them): the responder's --impair sits between the wire and the counting;
 * extra is NB_SINK_SIZES, NB_SINK_GAPS or 0.
 */
static __rte_always_inline uint16_t
nb_sink_step(struct nb_rxjob *j, const struct nb_run *run, uint64_t now,
	     const int impair, const int extra)
{
	struct rte_mbuf *pkts[NB_BURST];
	uint64_t now_ns, rx_ns, bytes = 0, data = 0, warm = 0, bad = 0;
	uint64_t warm_bytes = 0, ctl = 0, probes = 0, learn = 0;
	struct rte_mbuf *refl[NB_BURST];
	uint16_t n, i, nfree = 0, nrefl = 0;

	n = rte_eth_rx_burst(j->port, j->queue, pkts, NB_BURST);
	if (n == 0)
		return impair ? nb_sink_release(j, run, 0) : 0;
	/*
	 * Time the burst after it arrived: the loop's `now` may predate
	 * stamps another lcore wrote since.
	 */
	now = rte_rdtsc();
	now_ns = nb_clock_ns(&run->clock, now);
	rx_ns = (now_ns + (uint64_t)run->rx_offset_ns) & NB_SEQ_MASK;
	if (unlikely(j->cap.cap != NULL))
		nb_capture_tap_burst(&j->cap, pkts, n, now);
	for (i = 0; i < n && i < NB_PREFETCH_AHEAD; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		struct nb_stamp st;
		enum nb_frame_kind kind;
		const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);

		if (i + NB_PREFETCH_AHEAD < n)
			rte_prefetch0(rte_pktmbuf_mtod(
				pkts[i + NB_PREFETCH_AHEAD], void *));
		bytes += m->pkt_len + NB_FCS_LEN;
		if (extra & NB_SINK_SIZES)
			j->sizes[nb_size_bin(m->pkt_len + NB_FCS_LEN)]++;
		kind = nb_frame_parse(p, m->data_len, m->pkt_len, &st);
		/* ours only from the peer: anything else is foreign (the
		 * parser has checked the frame holds a whole header) */
		if (kind <= NB_FRAME_PROBE && kind != NB_FRAME_FOREIGN &&
		    ((nb_src8(p) ^ j->src_want) & j->src_mask) != 0 &&
		    !nb_src_alt(j, rte_pktmbuf_mtod(m, uint8_t *), kind)) {
			kind = NB_FRAME_FOREIGN;
			j->own +=
				((nb_src8(p) ^ j->own_src) & j->src_mask) == 0;
		}
		if (likely(kind == NB_FRAME_DATA &&
			   st.stream_id < j->nb_streams)) {
			if (impair)
				nb_sink_impair_data(j, &st,
						    m->pkt_len + NB_FCS_LEN,
						    now_ns);
			else
				nb_sink_count(j, &j->streams[st.stream_id],
					      st.seq, st.ts,
					      m->pkt_len + NB_FCS_LEN, rx_ns,
					      extra & NB_SINK_FLOWS);
			if (extra & NB_SINK_GAPS)
				nb_gap_record(&j->gaps[st.stream_id],
					      now_ns & NB_SEQ_MASK);
			data++;
		} else if (kind == NB_FRAME_WARMUP) {
			warm++;
			warm_bytes += m->pkt_len + NB_FCS_LEN;
		} else if (kind == NB_FRAME_DATA) {
			bad++;
		} else if (kind == NB_FRAME_PROBE) {
			probes++;
			if (j->reflect_txq >= 0 &&
			    nb_reflect_ok(j, m, now_ns)) {
				/* responder: straight back, no control lcore */
				nb_frame_turn_around(
					rte_pktmbuf_mtod(m, uint8_t *), &st);
				if (!impair ||
				    nb_sink_impair_probe(j, m, now_ns))
					refl[nrefl++] = m;
				continue;
			}
			if (j->rtt != NULL && j->reflect_txq < 0)
				nb_hist_record(
					j->rtt,
					nb_latency_ns(
						rx_ns - (uint64_t)run
								->rx_offset_ns,
						st.ts));
		} else if (kind == NB_FRAME_FOREIGN &&
			   unlikely(
				   __atomic_load_n(&j->ip3, __ATOMIC_ACQUIRE) !=
				   NULL) &&
			   nb_sink_ip3(j->ip3, m, now_ns)) {
			data++;
		} else if (kind == NB_FRAME_FOREIGN &&
			   nb_mesh_is_learn(p, m->data_len)) {
			learn++; /* a mesh's learning frame, flooded */
		} else if ((kind >= NB_FRAME_CONTROL ||
			    (kind == NB_FRAME_FOREIGN && j->ctl_foreign)) &&
			   j->ctl_ring != NULL) {
			/* Control, ARP, ICMP (and with ctl_foreign the rest):
			 * the control lcore's business; it gets the kind found
			 * here with the frame. */
			struct rte_ring *r =
				j->src_mask != 0 &&
						((nb_src8(p) ^ j->src_want) &
						 j->src_mask) == 0
					? j->ctl_ring_peer
					: j->ctl_ring;

			m->hash.usr = kind;
			if (rte_ring_sp_enqueue(r, m) == 0) {
				ctl++;
				continue;
			}
			j->ctl_dropped++;
		}
		pkts[nfree++] = m;
	}
	rte_pktmbuf_free_bulk(pkts, nfree);
	if (unlikely(nrefl)) {
		uint16_t sent = rte_eth_tx_burst(
			j->port, (uint16_t)j->reflect_txq, refl, nrefl);

		if (sent < nrefl)
			rte_pktmbuf_free_bulk(refl + sent, nrefl - sent);
		j->reflected += sent;
		j->reflect_fail += nrefl - sent;
	}
	j->pkts += n;
	j->bytes += bytes;
	j->data += data;
	j->warm += warm;
	j->warm_bytes += warm_bytes;
	j->bad_stream += bad;
	j->ctl += ctl;
	j->probes += probes;
	j->foreign += n - data - warm - bad - ctl - probes - learn;
	if (impair)
		nb_sink_release(j, run, 0);
	else if (data)
		j->last_data_tsc = now;
	return n;
}

#endif /* NB_SINK_H */
