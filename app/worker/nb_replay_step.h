/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --replay's burst step, inlined into the replay engines: the file's
 * frames copied whole into fresh mbufs, in order, pass after pass; with
 * --replay-stamp each gets the stream's next sequence number and the
 * burst's time (the UDP checksum is 0 in those frames: nothing to fix).
 * Paced by the job's pacer (--rate), or by the file's times: frame i of
 * pass k is due at the job's first frame + k x period + its time in the
 * file.  Counting, refused frames and the end are as in nb_gen_step.
 */
#ifndef NB_REPLAY_STEP_H
#define NB_REPLAY_STEP_H

#include "nb_gen.h"
#include "nb_replay.h"

/* Frames due by the file's times, at most max, from the job's position. */
static __rte_noinline uint32_t
nb_replay_due_file(struct nb_txjob *j, const struct nb_run *run, uint64_t now,
		   uint32_t max)
{
	const struct nb_replay *rp = j->rp;
	uint64_t t, pass = j->rp_pass;
	uint32_t pos = j->rp_pos, n = 0;

	if (unlikely(!j->rp_started)) {
		j->rp_started = 1;
		j->rp_start_ns = nb_clock_ns(&run->clock, now);
	}
	t = nb_clock_ns(&run->clock, now) - j->rp_start_ns;
	while (n < max && pass * j->rp_period_ns + rp->ts_ns[pos] <= t) {
		n++;
		if (++pos == rp->n) {
			pos = 0;
			pass++;
		}
	}
	return n;
}

static __rte_always_inline void
nb_replay_step(struct nb_txjob *j, const struct nb_run *run, uint64_t now)
{
	const struct nb_replay *rp = j->rp;
	struct rte_mbuf *pkts[NB_BURST];
	uint32_t n, i, pos;
	uint64_t ts;

	if (unlikely(j->nb_pend) && !nb_gen_flush(j))
		return;
	if (unlikely(now >= j->next_event))
		nb_gen_event(j, run, now);
	/* the job's pacing, chosen at setup: a burst's branch, not a
	 * frame's.  The file's times count from the job's position, which
	 * frames owed (a dry pool) have not passed yet: nothing to add. */
	n = j->rp_file_timing ? nb_replay_due_file(j, run, now, NB_BURST)
			      : j->owed + nb_pacer_due(&j->pacer, now,
						       NB_BURST - j->owed);
	n = nb_gen_alloc(j, pkts, n);
	if (n == 0)
		return;
	ts = nb_clock_ns(&run->clock, now);
	pos = j->rp_pos;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint16_t len = rp->len[pos], l4 = rp->l4_off[pos];
		uint8_t *d;

		m->data_off =
			RTE_PKTMBUF_HEADROOM; /* raw mbufs: nb_gen_alloc */
		d = rte_pktmbuf_mtod(m, uint8_t *);

		rte_memcpy(d, rp->data + rp->off[pos], len);
		m->data_len = len;
		m->pkt_len = len;
		m->ol_flags = 0;
		m->tx_offload = 0;
		j->cnt[0].pkts++;
		j->cnt[0].bytes += len + NB_FCS_LEN;
		/* l4 is the file's, not the configuration's: 0 without
		 * --replay-stamp */
		if (l4) {
			nb_put_be48(d + l4 + NB_UDP_OFF_SEQ, j->rp_seq++);
			nb_put_be48(d + l4 + NB_UDP_OFF_TS, ts);
		}
		if (++pos == rp->n) {
			pos = 0;
			j->rp_pass++;
		}
	}
	j->rp_pos = pos;
	nb_gen_send(j, pkts, n, now);
}

#endif /* NB_REPLAY_STEP_H */
