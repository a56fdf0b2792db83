/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generator's burst step, inlined into each engine loop.  Per frame it
 * copies the template's headers, writes seq and timestamp, and fixes the L4
 * checksum; everything else was decided at setup.
 *
 * A frame counts as sent when it is built (one pass; the per-stream
 * counters, read by the stats lcore, only ever grow).  Frames the TX queue
 * refuses stay with the job and are offered first on the next turn;
 * nothing new is built meanwhile, and the pacer's deadlines keep running,
 * so a slow queue shows as a lower achieved rate, never as lost frames.
 * Only a forced stop can leave frames unsent (nb_gen_discard).
 */
#ifndef NB_GEN_H
#define NB_GEN_H

#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>
#include <rte_pause.h>

#include "nb_iperf3_proto.h"
#include "nb_worker.h"

/* The most a paced sender may be behind at the end and still send what
 * fell due before it (see nb_gen_event). */
#define NB_GEN_CATCHUP_MS 50

/* Slow path: a phase boundary (warm-up -> measured -> end) was reached. */
static __rte_noinline void
nb_gen_event(struct nb_txjob *j, const struct nb_run *run, uint64_t now)
{
	if (j->phase == 0 && now >= run->measure_tsc) {
		/* Warm-up over: fresh sequence numbers (the data
		 * phase's counters start at 0), data magic. */
		j->phase = 1;
		j->tmpl = j->tmpl_data;
		j->cnt = j->cnt_data;
		j->rp_seq = 0;
		j->first_tsc = now;
		j->next_event = run->end_tsc;
	}
	if (j->phase == 1 && now >= run->end_tsc) {
		/*
		 * Out of time.  A paced job a little behind (a worker kept
		 * off its CPU for a moment, at most NB_GEN_CATCHUP_MS) still
		 * owes the frames that fell due before the end: they are
		 * built now, as fast as the queue takes them, and nothing
		 * after them.  A job further behind could not keep the rate
		 * at all: it stops here, and the report shows the shortfall
		 * (never the rate asked for as the rate reached).  Unpaced:
		 * nothing more.
		 */
		uint64_t due = 0;

		if (!nb_pacer_unlimited(&j->pacer) && run->end_tsc > 0 &&
		    nb_pacer_late(&j->pacer, run->end_tsc) <=
			    rte_get_tsc_hz() / 1000 * NB_GEN_CATCHUP_MS)
			due = j->owed + nb_pacer_due(&j->pacer,
						     run->end_tsc - 1,
						     UINT32_MAX);
		if (due < j->left)
			j->left = due;
		j->owed = 0;
		nb_pacer_unlimit(&j->pacer);
		j->stop_tsc = run->end_tsc;
		j->next_event = UINT64_MAX;
	}
}

/* Offer the frames left from an earlier turn; 1 when none is left. */
static __rte_noinline int
nb_gen_flush(struct nb_txjob *j)
{
	uint16_t h = j->pend_head;
	uint16_t sent =
		rte_eth_tx_burst(j->port, j->queue, j->pend + h, j->nb_pend);

	j->nb_pend = (uint16_t)(j->nb_pend - sent);
	j->pend_head = j->nb_pend ? (uint16_t)(h + sent) : 0;
	return j->nb_pend == 0;
}

/*
 * Slow path at a forced stop (Ctrl-C, a stalled port): offer what is left
 * for up to NB_GEN_STOP_FLUSH_US more, then free what never left.  Those
 * frames were counted as sent when built (so that a counter never goes
 * down); they are counted in tx_dropped too, and the receiver reports
 * them as lost.
 */
#define NB_GEN_STOP_FLUSH_US 10000
static __rte_noinline void
nb_gen_discard(struct nb_txjob *j)
{
	uint64_t until = rte_get_tsc_cycles() +
			 rte_get_tsc_hz() / 1000000 * NB_GEN_STOP_FLUSH_US;

	while (!nb_gen_flush(j) && rte_get_tsc_cycles() < until)
		rte_pause();
	rte_pktmbuf_free_bulk(j->pend + j->pend_head, j->nb_pend);
	j->dropped += j->nb_pend;
	j->nb_pend = 0;
	j->pend_head = 0;
}

/*
 * n frames due (owed ones included): at most what is left, in mbufs from
 * the job's pool; 0 when none is due or the pool is dry (then owed).
 *
 * Raw mbufs, not rte_pktmbuf_alloc_bulk's: a TX pool's mbufs come back
 * from the PMD through rte_pktmbuf_free, which leaves them with refcnt 1,
 * next NULL and nb_segs 1, and nothing in the tool moves their data_off;
 * what a frame needs beyond that (data_off, the lengths, the offload
 * flags and offload lengths) the build loops store themselves, so the reset's
 * other stores are saved.
 */
static __rte_always_inline uint32_t
nb_gen_alloc(struct nb_txjob *j, struct rte_mbuf **pkts, uint32_t n)
{
	if (n > j->left)
		n = (uint32_t)j->left;
	if (n == 0)
		return 0;
	if (unlikely(rte_mempool_get_bulk(j->pool, (void **)pkts, n) != 0)) {
		j->owed = n;
		j->alloc_fail++;
		return 0;
	}
	j->owed = 0;
	return n;
}

/* Hand the built frames to the PMD; what it refuses waits in pend[]. */
static __rte_always_inline void
nb_gen_send(struct nb_txjob *j, struct rte_mbuf **pkts, uint32_t n,
	    uint64_t now)
{
	uint32_t sent, i;

	j->left -= n;
	sent = rte_eth_tx_burst(j->port, j->queue, pkts, (uint16_t)n);
	if (unlikely(sent < n)) {
		/* keep the rest for the next turn, in order */
		j->nb_pend = (uint16_t)(n - sent);
		j->pend_head = 0;
		for (i = 0; i < j->nb_pend; i++)
			j->pend[i] = pkts[sent + i];
	}
	j->last_tsc = now;
}

/*
 * Build n frames into pkts.  The loop keeps in locals what it reads of
 * the job: the frame stores go through uint8_t pointers, which may alias
 * anything, so a field read through j would be loaded again after every
 * frame.  A stream's sequence number is its count of frames in this phase
 * (both start at 0 when the phase does), so the counter is the stamp.
 * one_size (a constant at each call): the pattern has one entry, so every
 * round takes the same size.  hdr (a constant too): NB_GEN_HDR_*, what
 * the templates need copied and fixed.  flows (a constant): NB_GEN_FLOWS_*,
 * the stream's next flow's fields written over the copy, the checksums
 * fixed by what they change.
 */
/* nb_gen_build's stamp argument: the tool's UDP stamp (0), its TCP-shaped
 * frames' (1), or iperf3's datagram header (NB_GEN_STAMP_IP3). */
#define NB_GEN_STAMP_IP3 2

/*
 * iperf3's header at the UDP payload's start (docs/protocol.md, "iperf3's
 * protocol"): the send time as seconds and microseconds of the wall clock
 * (ns), the stream's packet count from 1 (32 bits); no UDP checksum (0,
 * as IPv4 allows), so nothing else of the frame changes.
 */
static __rte_always_inline void
nb_gen_stamp_ip3(uint8_t *d, const struct nb_tmpl *t, uint64_t count,
		 uint64_t ns)
{
	uint8_t *l4 = d + t->l4_off;

	nb_ip3_udp_hdr_put(l4 + NB_UDP_HLEN, NB_IP3_UDP_HDR32, 0,
			   (uint32_t)(ns / 1000000000u),
			   (uint32_t)(ns % 1000000000u / 1000u), count);
	nb_put_be16(l4 + NB_UDP_OFF_CSUM, 0);
}

static __rte_always_inline void
nb_gen_build(struct nb_txjob *j, struct rte_mbuf **pkts, uint32_t n,
	     uint64_t ts, const int tcp, const int one_size, const int hdr,
	     const int flows)
{
	const struct nb_tmpl *const tmpl = j->tmpl;
	struct nb_tx_stream *const cnt = j->cnt;
	const uint8_t *const pattern = j->pattern;
	const uint16_t ns = j->nb_streams, nsz = j->nb_sizes;
	const uint16_t npat = j->nb_pattern;
	uint16_t sp = j->stream_pos, pp = one_size ? 0 : j->pat_pos;
	/* stream sp's template of this round's size, and its counters;
	 * both step along with sp */
	const struct nb_tmpl *t = tmpl + (uint32_t)sp * nsz + pattern[pp];
	struct nb_tx_stream *c = cnt + sp;
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint8_t *d;

		/* a PMD may have pushed a header into the headroom (virtio) */
		m->data_off = RTE_PKTMBUF_HEADROOM;
		d = rte_pktmbuf_mtod(m, uint8_t *);
		rte_memcpy(d, t->hdr, NB_GEN_HDR_COPY(hdr));
		m->data_len = t->wire_len;
		m->pkt_len = t->wire_len;
		/* 0 and 0 unless the NIC fills the checksum: stored always,
		 * no branch */
		m->ol_flags = t->mbuf_ol_flags;
		m->tx_offload = t->mbuf_tx_offload;
		if (flows) {
			const struct nb_flow_rec *r = c->frec + c->fk;

			nb_flow_rec_write(d, t, r, flows);
			nb_stamp_at_x(d, t, c->pkts, ts, !tcp, r->l4_delta);
			if (++c->fk == c->nflows)
				c->fk = 0;
		} else if (tcp == NB_GEN_STAMP_IP3) {
			nb_gen_stamp_ip3(d, t, c->pkts + 1, ts);
		} else if (tcp) {
			nb_stamp_tcp(d, t, c->pkts, ts);
		} else {
			nb_stamp_udp(d, t, c->pkts, ts);
		}
		if (hdr == NB_GEN_HDR_OUTER)
			nb_stamp_outer(d, t, c->pkts, ts, !tcp);
		c->pkts++;
		c->bytes += t->wire_len + NB_FCS_LEN;
		t += nsz;
		c++;
		/* Each round over the streams takes the next size, so every
		 * stream sees every size of the pattern. */
		if (++sp == ns) {
			sp = 0;
			c = cnt;
			if (!one_size && ++pp == npat)
				pp = 0;
			t = tmpl + pattern[pp];
		}
	}
	j->stream_pos = sp;
	j->pat_pos = pp;
}

static __rte_always_inline void
nb_gen_step(struct nb_txjob *j, const struct nb_run *run, uint64_t now,
	    const int tcp)
{
	struct rte_mbuf *pkts[NB_BURST];
	uint32_t n;
	uint64_t ts;

	if (unlikely(j->nb_pend) && !nb_gen_flush(j))
		return;
	if (unlikely(now >= j->next_event))
		nb_gen_event(j, run, now);
	n = nb_gen_alloc(
		j, pkts,
		j->owed + nb_pacer_due(&j->pacer, now, NB_BURST - j->owed));
	if (n == 0)
		return;
	/* a mesh across hosts stamps in the client's clock (tx_offset_ns,
	 * 0 elsewhere) */
	ts = nb_clock_ns(&run->clock, now) + (uint64_t)run->tx_offset_ns;
	/* one branch a burst, not one a frame */
	if (unlikely(j->ip3_epoch_ns != 0)) {
		/* iperf3's datagrams (--iperf3: no flows, no tunnel) */
		if (j->hdr_kind == NB_GEN_HDR_SMALL)
			nb_gen_build(j, pkts, n, ts + j->ip3_epoch_ns,
				     NB_GEN_STAMP_IP3, 0, NB_GEN_HDR_SMALL, 0);
		else
			nb_gen_build(j, pkts, n, ts + j->ip3_epoch_ns,
				     NB_GEN_STAMP_IP3, 0, NB_GEN_HDR_MID, 0);
	} else if (likely(j->hdr_kind == NB_GEN_HDR_SMALL && !j->flows)) {
		if (j->nb_pattern == 1)
			nb_gen_build(j, pkts, n, ts, tcp, 1, NB_GEN_HDR_SMALL,
				     0);
		else
			nb_gen_build(j, pkts, n, ts, tcp, 0, NB_GEN_HDR_SMALL,
				     0);
	} else if (j->flows == NB_GEN_FLOWS_PORTS &&
		   j->hdr_kind == NB_GEN_HDR_SMALL) {
		if (j->nb_pattern == 1)
			nb_gen_build(j, pkts, n, ts, tcp, 1, NB_GEN_HDR_SMALL,
				     NB_GEN_FLOWS_PORTS);
		else
			nb_gen_build(j, pkts, n, ts, tcp, 0, NB_GEN_HDR_SMALL,
				     NB_GEN_FLOWS_PORTS);
	} else if (j->flows == NB_GEN_FLOWS_PORTS) {
		nb_gen_build(j, pkts, n, ts, tcp, 0, NB_GEN_HDR_MID,
			     NB_GEN_FLOWS_PORTS);
	} else if (j->flows == NB_GEN_FLOWS_V4 &&
		   j->hdr_kind == NB_GEN_HDR_SMALL) {
		if (j->nb_pattern == 1)
			nb_gen_build(j, pkts, n, ts, tcp, 1, NB_GEN_HDR_SMALL,
				     NB_GEN_FLOWS_V4);
		else
			nb_gen_build(j, pkts, n, ts, tcp, 0, NB_GEN_HDR_SMALL,
				     NB_GEN_FLOWS_V4);
	} else if (j->flows == NB_GEN_FLOWS_V4) {
		nb_gen_build(j, pkts, n, ts, tcp, 0, NB_GEN_HDR_MID,
			     NB_GEN_FLOWS_V4);
	} else if (j->flows == NB_GEN_FLOWS_V6) {
		nb_gen_build(j, pkts, n, ts, tcp, 0, NB_GEN_HDR_MID,
			     NB_GEN_FLOWS_V6);
	} else if (j->hdr_kind == NB_GEN_HDR_MID) {
		if (j->nb_pattern == 1)
			nb_gen_build(j, pkts, n, ts, tcp, 1, NB_GEN_HDR_MID, 0);
		else
			nb_gen_build(j, pkts, n, ts, tcp, 0, NB_GEN_HDR_MID, 0);
	} else if (j->hdr_kind == NB_GEN_HDR_BIG) {
		nb_gen_build(j, pkts, n, ts, tcp, 0, NB_GEN_HDR_BIG, 0);
	} else {
		nb_gen_build(j, pkts, n, ts, tcp, 0, NB_GEN_HDR_OUTER, 0);
	}
	nb_gen_send(j, pkts, n, now);
}

#endif /* NB_GEN_H */
