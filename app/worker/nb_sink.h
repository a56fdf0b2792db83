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

/* Responder: may this probe go back now?  Within its size and rate. */
static __rte_always_inline int
nb_reflect_ok(struct nb_rxjob *j, const struct rte_mbuf *m, uint64_t now_ns)
{
	if (m->pkt_len != j->probe_len || !nb_tokens_take(&j->refl, now_ns)) {
		j->reflect_limited++;
		return 0;
	}
	return 1;
}

static __rte_always_inline uint16_t
nb_sink_step(struct nb_rxjob *j, const struct nb_run *run, uint64_t now)
{
	struct rte_mbuf *pkts[NB_BURST];
	uint64_t now_ns, rx_ns, lat, bytes = 0, data = 0, warm = 0, bad = 0;
	uint64_t warm_bytes = 0, ctl = 0, probes = 0;
	struct rte_mbuf *refl[NB_BURST];
	uint16_t n, i, nfree = 0, nrefl = 0;

	n = rte_eth_rx_burst(j->port, j->queue, pkts, NB_BURST);
	if (n == 0)
		return 0;
	/*
	 * Time the burst after it arrived: the loop's `now` may predate
	 * stamps another lcore wrote since.
	 */
	now = rte_rdtsc();
	now_ns = nb_clock_ns(&run->clock, now);
	rx_ns = (now_ns + (uint64_t)run->rx_offset_ns) & NB_SEQ_MASK;
	for (i = 0; i < n && i < NB_PREFETCH_AHEAD; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		struct nb_stamp st;
		enum nb_frame_kind kind;
		struct nb_rx_stream *s;
		const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);

		if (i + NB_PREFETCH_AHEAD < n)
			rte_prefetch0(rte_pktmbuf_mtod(
				pkts[i + NB_PREFETCH_AHEAD], void *));
		bytes += m->pkt_len + NB_FCS_LEN;
		kind = nb_frame_parse(p, m->data_len, m->pkt_len, &st);
		/* ours only from the peer: anything else is foreign (the
		 * parser has checked the frame holds a whole header) */
		if (kind <= NB_FRAME_PROBE && kind != NB_FRAME_FOREIGN &&
		    ((nb_src8(p) ^ j->src_want) & j->src_mask) != 0) {
			kind = NB_FRAME_FOREIGN;
			j->own += ((nb_src8(p) ^ j->own_src) & j->src_mask) == 0;
		}
		if (likely(kind == NB_FRAME_DATA &&
			   st.stream_id < j->nb_streams)) {
			s = &j->streams[st.stream_id];
			nb_seq_update(&s->seq, st.seq);
			s->bytes += m->pkt_len + NB_FCS_LEN;
			lat = nb_latency_ns(rx_ns, st.ts);
			nb_hist_record(&s->hist, lat);
			/* transit = lat: already reduced mod 2^48 */
			nb_jitter_update(&s->jit, 0, lat);
			data++;
		} else if (kind == NB_FRAME_WARMUP) {
			warm++;
			warm_bytes += m->pkt_len + NB_FCS_LEN;
		} else if (kind == NB_FRAME_DATA) {
			bad++;
		} else if (kind == NB_FRAME_PROBE) {
			probes++;
			if (j->reflect_txq >= 0 && nb_reflect_ok(j, m, now_ns)) {
				/* responder: straight back, no control lcore */
				nb_frame_turn_around(
					rte_pktmbuf_mtod(m, uint8_t *),
					st.l4_off);
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
		} else if (kind >= NB_FRAME_CONTROL && j->ctl_ring != NULL) {
			/* Control, ARP, ICMP: the control lcore's business;
			 * it gets the kind found here with the frame. */
			m->hash.usr = kind;
			if (rte_ring_sp_enqueue(j->ctl_ring, m) == 0) {
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
	j->foreign += n - data - warm - bad - ctl - probes;
	if (data)
		j->last_data_tsc = now;
	return n;
}

#endif /* NB_SINK_H */
