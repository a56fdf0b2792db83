/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generator's burst step, inlined into each engine loop.  Per frame it
 * copies the template's headers, writes seq and timestamp, and fixes the L4
 * checksum; everything else was decided at setup.
 */
#ifndef NB_GEN_H
#define NB_GEN_H

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>

#include "nb_worker.h"

/* Slow path: a phase boundary (warm-up -> measured -> end) was reached. */
void nb_gen_event(struct nb_txjob *j, const struct nb_run *run, uint64_t now);

/* Slow path: frames the PMD would not take after retries. */
void nb_gen_drop(struct nb_txjob *j, struct rte_mbuf **pkts, uint32_t sent,
		 uint32_t n, uint16_t first_stream_pos);

static __rte_always_inline void
nb_gen_step(struct nb_txjob *j, const struct nb_run *run, uint64_t now,
	    const int tcp)
{
	struct rte_mbuf *pkts[NB_BURST];
	uint32_t n, i, sent, tries;
	uint16_t sp, pp, sp0;
	uint64_t ts;

	if (unlikely(now >= j->next_event))
		nb_gen_event(j, run, now);
	n = j->owed + nb_pacer_due(&j->pacer, now, NB_BURST - j->owed);
	if (n > j->left)
		n = (uint32_t)j->left;
	if (n == 0)
		return;
	if (unlikely(rte_pktmbuf_alloc_bulk(j->pool, pkts, n) != 0)) {
		j->owed = n;
		j->alloc_fail++;
		return;
	}
	j->owed = 0;
	ts = nb_clock_ns(&run->clock, now);
	sp = sp0 = j->stream_pos;
	pp = j->pat_pos;
	for (i = 0; i < n; i++) {
		const struct nb_tmpl *t =
			&j->tmpl[sp * j->nb_sizes + j->pattern[pp]];
		struct rte_mbuf *m = pkts[i];
		uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);

		rte_memcpy(d, t->hdr, NB_TMPL_MAX_HDR);
		m->data_len = t->wire_len;
		m->pkt_len = t->wire_len;
		if (tcp)
			nb_stamp_tcp(d, t, j->seq[sp]++, ts);
		else
			nb_stamp_udp(d, t, j->seq[sp]++, ts);
		j->cnt[sp].pkts++;
		j->cnt[sp].bytes += t->wire_len + NB_FCS_LEN;
		/* Each round over the streams takes the next size, so every
		 * stream sees every size of the pattern. */
		if (++sp == j->nb_streams) {
			sp = 0;
			if (++pp == j->nb_pattern)
				pp = 0;
		}
	}
	j->stream_pos = sp;
	j->pat_pos = pp;
	j->left -= n;
	sent = rte_eth_tx_burst(j->port, j->queue, pkts, (uint16_t)n);
	for (tries = 0; unlikely(sent < n) && tries < NB_TX_RETRIES; tries++) {
		rte_delay_us_block(NB_TX_RETRY_US);
		sent += rte_eth_tx_burst(j->port, j->queue, pkts + sent,
					 (uint16_t)(n - sent));
	}
	if (unlikely(sent < n))
		nb_gen_drop(j, pkts, sent, n, sp0);
	j->last_tsc = now;
}

#endif /* NB_GEN_H */
