/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The worker loops.  One loop body, specialised at compile time by constant
 * arguments (has TX jobs, has RX jobs, TCP or UDP, the responder's
 * --impair, what else a sink counts), gives one engine per combination, kept in
 * a const table; nb_engine_select() picks one per worker at setup, so nothing
 * in the loop branches on configuration.  The closed-loop TCP worker is the
 * "tcp" row: its loop is nb_tcp_engine_loop, whose jobs' steps are
 * specialised the same way (nb_tcp_job_select).
 */

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_pause.h>

#include "nb_gen.h"
#include "nb_replay_step.h"
#include "nb_sink.h"
#include "nb_tcp_engine.h"
#include "nb_worker.h"

/* Offer the probes the TX queue refused earlier; 1 when none is left. */
static int
probe_flush(struct nb_probejob *p)
{
	uint16_t sent = rte_eth_tx_burst(p->port, p->queue,
					 p->pend + p->pend_head, p->nb_pend);

	p->sent += sent;
	p->nb_pend = (uint16_t)(p->nb_pend - sent);
	p->pend_head = p->nb_pend ? (uint16_t)(p->pend_head + sent) : 0;
	return p->nb_pend == 0;
}

static void
probe_send(struct nb_probejob *p, const struct nb_run *run, unsigned int n)
{
	struct rte_mbuf **m = p->pend;
	unsigned int i;
	uint64_t ts;

	if (rte_pktmbuf_alloc_bulk(p->pool, m, n) != 0)
		return;
	/* A fresh time: the loop's `now` predates this turn's receive step,
	 * which may have just seen the previous probe come back. */
	ts = nb_clock_ns(&run->clock, rte_rdtsc());
	for (i = 0; i < n; i++) {
		uint8_t *d = rte_pktmbuf_mtod(m[i], uint8_t *);

		rte_memcpy(d, p->tmpl.hdr, NB_TMPL_MAX_HDR);
		/* a ping-pong probe of a larger size: zero padding, as the
		 * checksums were computed (probes are few; not the data
		 * path) */
		if (p->tmpl.wire_len > NB_TMPL_MAX_HDR)
			memset(d + NB_TMPL_MAX_HDR, 0,
			       p->tmpl.wire_len - NB_TMPL_MAX_HDR);
		m[i]->data_len = p->tmpl.wire_len;
		m[i]->pkt_len = p->tmpl.wire_len;
		if (p->tmpl.proto == NB_IPPROTO_TCP)
			nb_stamp_tcp(d, &p->tmpl, p->seq++, ts);
		else
			nb_stamp_udp(d, &p->tmpl, p->seq++, ts);
	}
	/* the data frames share the queue: what it refuses now goes first
	 * on the next turn (its stamp is older by the wait, as on a wire) */
	p->pend_head = 0;
	p->nb_pend = (uint16_t)n;
	probe_flush(p);
}

/*
 * Latency probes, once per loop turn on the worker that owns the probe's
 * TX queue: paced at --latency-rate, or ping-pong (the next probe when the
 * last one came back or timed out).
 */
static void
probe_step(struct nb_probejob *p, const struct nb_run *run, uint64_t now)
{
	uint64_t back = 0;
	uint16_t i;

	if (p->done || now < run->start_tsc)
		return;
	if (run->tx_stop) {
		rte_pktmbuf_free_bulk(p->pend + p->pend_head, p->nb_pend);
		p->nb_pend = 0;
		p->done = 1;
		return;
	}
	if (p->nb_pend && !probe_flush(p))
		return;
	if (now >= run->end_tsc) {
		/* the probes due before the end, even if this turn came late:
		 * --latency-rate x --time of them */
		unsigned int n =
			p->pingpong ? 0
				    : nb_pacer_due(&p->pacer, run->end_tsc - 1,
						   NB_PROBE_BURST);

		if (n == 0)
			p->done = 1;
		else
			probe_send(p, run, n);
		return;
	}
	if (!p->pingpong) {
		unsigned int n = nb_pacer_due(&p->pacer, now, NB_PROBE_BURST);

		if (n)
			probe_send(p, run, n);
		return;
	}
	for (i = 0; i < p->nb_rx; i++)
		back += p->rx[i]->probes;
	if (p->sent > back + p->lost) {
		if (now < p->deadline)
			return;
		p->lost++; /* not back in time: the next one */
	}
	probe_send(p, run, 1);
	p->deadline = now + p->timeout_tsc;
}

/* Turns on an 802.3ad bond's idle queues, every period (nb_keep). */
static void
keep_step(struct nb_keep *k, uint64_t now)
{
	struct rte_mbuf *m[NB_BURST];
	uint16_t i, n;

	if (now < k->next_tsc)
		return;
	k->next_tsc = now + k->period_tsc;
	for (i = 0; i < k->n; i++) {
		if (!k->e[i].rx) {
			rte_eth_tx_burst(k->e[i].port, k->e[i].queue, NULL, 0);
			continue;
		}
		n = rte_eth_rx_burst(k->e[i].port, k->e[i].queue, m, NB_BURST);
		if (n)
			rte_pktmbuf_free_bulk(m, n);
	}
}

/* A turn of the loop came late: the thread was off its CPU, or busy in
 * the kernel (nb_tester.h).  Single writer. */
static __rte_noinline void
note_gap(struct nb_worker *w, uint64_t now)
{
	uint64_t gap = now - (w->gap_due - w->gap_floor);

	if (gap > w->max_gap)
		w->max_gap = gap;
	w->stall_tsc += gap;
}

/* One turn of the active senders; those that ended (their count, or
 * tx_stop) leave active[].  Returns how many are left. */
static __rte_always_inline uint16_t
tx_turn(struct nb_worker *w, struct nb_txjob **active, uint16_t nb_active,
	uint64_t now, const int tcp, const int replay)
{
	const struct nb_run *run = w->run;
	uint16_t i;

	for (i = 0; i < nb_active;) {
		struct nb_txjob *j = active[i];

		if (likely(!run->tx_stop)) {
			if (replay)
				nb_replay_step(j, run, now);
			else
				nb_gen_step(j, run, now, tcp);
		}
		if (unlikely((j->left == 0 && !j->nb_pend) || run->tx_stop)) {
			if (j->nb_pend)
				nb_gen_discard(j);
			if (j->stop_tsc == 0)
				j->stop_tsc = now;
			rte_wmb();
			j->done = 1;
			active[i] = active[--nb_active];
			if (nb_active == 0)
				w->tx_finished = 1;
			continue;
		}
		i++;
	}
	return nb_active;
}

static __rte_always_inline int
nb_engine_loop(struct nb_worker *w, const int has_tx, const int has_rx,
	       const int tcp, const int impair, const int replay,
	       const int extra)
{
	struct nb_run *run = w->run;
	struct nb_txjob *active[NB_MAX_WORKER_JOBS];
	uint16_t nb_active = 0, i;
	uint64_t now;

	if (has_tx) {
		for (i = 0; i < w->nb_tx; i++)
			if (!w->tx[i]->done)
				active[nb_active++] = w->tx[i];
		if (nb_active == 0)
			w->tx_finished = 1;
	}
	/*
	 * Receivers poll from the start; senders wait for the start time
	 * (which a peer test may never reach: then tx_stop ends the wait).
	 */
	while ((now = rte_rdtsc()) < run->start_tsc && !run->rx_stop &&
	       !run->tx_stop) {
		if (unlikely(w->ctltx != NULL))
			nb_ctltx_step(w->ctltx);
		if (unlikely(w->keep != NULL))
			keep_step(w->keep, now);
		if (has_rx)
			for (i = 0; i < w->nb_rx; i++)
				nb_sink_step(w->rx[i], run, now, impair, extra);
		else
			rte_pause();
	}
	/* what control wrote before start_tsc is visible from here on */
	rte_smp_rmb();
	w->gap_due = rte_rdtsc() + w->gap_floor;
	while (!run->rx_stop) {
		uint32_t work = 0;

		now = rte_rdtsc();
		/* a turn later than gap_floor after the last one: a stall */
		if (unlikely(now >= w->gap_due))
			note_gap(w, now);
		w->gap_due = now + w->gap_floor;
		if (unlikely(w->ctltx != NULL))
			nb_ctltx_step(w->ctltx);
		if (unlikely(w->keep != NULL))
			keep_step(w->keep, now);
		if (has_tx && nb_active) {
			nb_active =
				tx_turn(w, active, nb_active, now, tcp, replay);
			work = 1;
		} else if (!has_rx) {
			/* a sender's worker that also sends control's
			 * frames keeps doing so until the test ends */
			if (w->ctltx == NULL)
				break;
			rte_pause();
		}
		if (has_rx)
			for (i = 0; i < w->nb_rx; i++)
				work += nb_sink_step(w->rx[i], run, now, impair,
						     extra);
		if (unlikely(w->probe != NULL))
			probe_step(w->probe, run, now);
		w->loops++;
		if (!work)
			w->idle_loops++;
	}
	if (has_tx)
		w->tx_finished = 1;
	/* the test is over: what the delay line holds is counted now */
	if (impair)
		for (i = 0; i < w->nb_rx; i++)
			nb_sink_release(w->rx[i], run, 1);
	w->exited = 1;
	return 0;
}

static int
engine_gen_udp(struct nb_worker *w)
{
	return nb_engine_loop(w, 1, 0, 0, 0, 0, 0);
}

static int
engine_gen_tcp(struct nb_worker *w)
{
	return nb_engine_loop(w, 1, 0, 1, 0, 0, 0);
}

static int
engine_sink(struct nb_worker *w)
{
	return nb_engine_loop(w, 0, 1, 0, 0, 0, 0);
}

static int
engine_gensink_udp(struct nb_worker *w)
{
	return nb_engine_loop(w, 1, 1, 0, 0, 0, 0);
}

static int
engine_gensink_tcp(struct nb_worker *w)
{
	return nb_engine_loop(w, 1, 1, 1, 0, 0, 0);
}

/* the responder with --impair: its receivers hold, drop, duplicate */
static int
engine_sink_impair(struct nb_worker *w)
{
	return nb_engine_loop(w, 0, 1, 0, 1, 0, 0);
}

static int
engine_gensink_udp_impair(struct nb_worker *w)
{
	return nb_engine_loop(w, 1, 1, 0, 1, 0, 0);
}

static int
engine_gensink_tcp_impair(struct nb_worker *w)
{
	return nb_engine_loop(w, 1, 1, 1, 1, 0, 0);
}

/* --replay: the file's frames, not templates (loopback: no impairment) */
static int
engine_replay(struct nb_worker *w)
{
	return nb_engine_loop(w, 1, 0, 0, 0, 1, 0);
}

static int
engine_replay_sink(struct nb_worker *w)
{
	return nb_engine_loop(w, 1, 1, 0, 0, 1, 0);
}

/* a receive-only test: every frame's size counted too */
static int
engine_sink_sizes(struct nb_worker *w)
{
	return nb_engine_loop(w, 0, 1, 0, 0, 0, NB_SINK_SIZES);
}

/* --gaps: each stream's arrival gaps timed too (UDP loopback) */
static int
engine_sink_gaps(struct nb_worker *w)
{
	return nb_engine_loop(w, 0, 1, 0, 0, 0, NB_SINK_GAPS);
}

static int
engine_gensink_gaps(struct nb_worker *w)
{
	return nb_engine_loop(w, 1, 1, 0, 0, 0, NB_SINK_GAPS);
}

/* --flows: each stream's flows counted too */
static int
engine_sink_flows(struct nb_worker *w)
{
	return nb_engine_loop(w, 0, 1, 0, 0, 0, NB_SINK_FLOWS);
}

static int
engine_gensink_flows_udp(struct nb_worker *w)
{
	return nb_engine_loop(w, 1, 1, 0, 0, 0, NB_SINK_FLOWS);
}

static int
engine_gensink_flows_tcp(struct nb_worker *w)
{
	return nb_engine_loop(w, 1, 1, 1, 0, 0, NB_SINK_FLOWS);
}

/* [has TX][TCP] */
static const struct nb_engine flow_engines[2][2] = {
	{{"sink+flows", engine_sink_flows}, {"sink+flows", engine_sink_flows}},
	{{"gen+sink+flows", engine_gensink_flows_udp},
	 {"gen+sink+flows", engine_gensink_flows_tcp}},
};

static const struct nb_engine gap_engines[2] = {
	{"sink+gaps", engine_sink_gaps},
	{"gen+sink+gaps", engine_gensink_gaps},
};

static const struct nb_engine sink_sizes = {"sink+sizes", engine_sink_sizes};

/* --tcp: the closed-loop TCP jobs (connections, not streams of frames) */
static const struct nb_engine tcp_engine = {"tcp", nb_tcp_engine_loop};

static const struct nb_engine replay_engines[2] = {
	{"replay", engine_replay},
	{"replay+sink", engine_replay_sink},
};

/* [impair][has TX][has RX][TCP]; a sink does not care what it receives. */
static const struct nb_engine engines[2][2][2][2] = {
	[0][0][1][0] = {"sink", engine_sink},
	[0][0][1][1] = {"sink", engine_sink},
	[0][1][0][0] = {"gen", engine_gen_udp},
	[0][1][0][1] = {"gen", engine_gen_tcp},
	[0][1][1][0] = {"gen+sink", engine_gensink_udp},
	[0][1][1][1] = {"gen+sink", engine_gensink_tcp},
	[1][0][1][0] = {"sink+impair", engine_sink_impair},
	[1][0][1][1] = {"sink+impair", engine_sink_impair},
	[1][1][1][0] = {"gen+sink+impair", engine_gensink_udp_impair},
	[1][1][1][1] = {"gen+sink+impair", engine_gensink_tcp_impair},
};

int
nb_engine_select(struct nb_worker *w, uint8_t proto)
{
	int impair = w->nb_rx > 0 && w->rx[0]->imp != NULL;
	const struct nb_engine *e = &engines[impair][w->nb_tx > 0][w->nb_rx > 0]
					    [proto == NB_IPPROTO_TCP];

	if (w->nb_tcp > 0) { /* a TCP worker has no open-loop job */
		w->engine = w->nb_tx == 0 && w->nb_rx == 0 ? &tcp_engine : NULL;
		return w->engine != NULL ? 0 : -1;
	}
	if (w->nb_tx > 0 && w->tx[0]->rp != NULL && !impair)
		e = &replay_engines[w->nb_rx > 0];
	if (w->nb_tx == 0 && w->nb_rx > 0 && w->rx[0]->count_sizes && !impair)
		e = &sink_sizes;
	if (w->nb_rx > 0 && w->rx[0]->gaps != NULL && !impair &&
	    proto != NB_IPPROTO_TCP && (w->nb_tx == 0 || w->tx[0]->rp == NULL))
		e = &gap_engines[w->nb_tx > 0];
	if (w->nb_rx > 0 && w->rx[0]->nb_streams > 0 &&
	    w->rx[0]->streams[0].flows != NULL && !impair &&
	    (w->nb_tx == 0 || w->tx[0]->rp == NULL))
		e = &flow_engines[w->nb_tx > 0][proto == NB_IPPROTO_TCP];
	w->engine = e->loop != NULL ? e : NULL;
	return w->engine != NULL ? 0 : -1;
}

int
nb_worker_main(void *arg)
{
	struct nb_worker *w = arg;

	w->tid = rte_gettid();
	return w->engine->loop(w);
}
