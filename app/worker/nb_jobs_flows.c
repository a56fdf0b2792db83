/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --flows: each TX job's streams' flow records (what the generator writes
 * over each frame), each receive job's per-flow counts, and the one
 * reader that merges them for the report (nb_flows_opt.h has the layout:
 * flow f is stream f mod S's flow f / S).
 */

#include <errno.h>
#include <stdio.h>

#include <rte_malloc.h>

#include "nb_flows_opt.h"
#include "nb_jobs.h"
#include "nb_port.h"

/* The first flow of stream s in a stream-major array: the flows of the
 * streams before it. */
static uint32_t
flows_before(uint32_t n, uint32_t ns, uint32_t s)
{
	return s * (n / ns) + (s < n % ns ? s : n % ns);
}

static int
tx_flows(struct nb_txjob *j, const struct nb_config *cfg, uint32_t ns)
{
	const uint32_t n = cfg->flows.spec.n;
	struct nb_flow_rec *recs;
	uint32_t k, total = 0, off = 0, f;

	if (j->nb_streams == 0)
		return 0;
	for (k = 0; k < j->nb_streams; k++)
		total += nb_flows_of_stream(
			n, ns, j->first_stream + k * j->stream_stride);
	recs = rte_zmalloc_socket("nb_flow_rec", sizeof(*recs) * total,
				  RTE_CACHE_LINE_SIZE, nb_port_socket(j->port));
	if (recs == NULL)
		return -ENOMEM;
	for (k = 0; k < j->nb_streams; k++) {
		uint32_t st = j->first_stream + k * j->stream_stride;
		uint32_t nf = nb_flows_of_stream(n, ns, st);
		const struct nb_tmpl *t = &j->tmpl_data[k * j->nb_sizes];

		for (f = 0; f < nf; f++)
			nb_flows_rec(&cfg->flows, st + f * ns, t,
				     &recs[off + f]);
		j->cnt_warm[k].frec = j->cnt_data[k].frec = recs + off;
		j->cnt_warm[k].nflows = j->cnt_data[k].nflows = nf;
		off += nf;
	}
	if (!(cfg->flows.given & ~(1u << NB_FF_SPORT | 1u << NB_FF_DPORT)))
		j->flows = NB_GEN_FLOWS_PORTS;
	else if ((j->tmpl_data[0].hdr[j->tmpl_data[0].l3_off] >> 4) == 6)
		j->flows = NB_GEN_FLOWS_V6;
	else
		j->flows = NB_GEN_FLOWS_V4;
	return 0;
}

static int
rx_flows(struct nb_rxjob *j, uint32_t n)
{
	struct nb_flow_cnt *fc;
	struct nb_flow_cnt_ext *fx;
	uint32_t s;

	fc = rte_malloc_socket("nb_flow_cnt", sizeof(*fc) * n,
			       RTE_CACHE_LINE_SIZE, nb_port_socket(j->port));
	fx = rte_malloc_socket("nb_flow_cnt_ext", sizeof(*fx) * n,
			       RTE_CACHE_LINE_SIZE, nb_port_socket(j->port));
	if (fc == NULL || fx == NULL) {
		rte_free(fc);
		rte_free(fx);
		return -ENOMEM;
	}
	for (s = 0; s < n; s++)
		nb_flow_cnt_init(&fc[s], &fx[s]);
	for (s = 0; s < j->nb_streams; s++) {
		uint32_t first = flows_before(n, j->nb_streams, s);

		j->streams[s].flows = fc + first;
		j->streams[s].flows_ext = fx + first;
		j->streams[s].nflows = nb_flows_of_stream(n, j->nb_streams, s);
		j->streams[s].fk_next = 0;
	}
	return 0;
}

int
nb_jobs_flows(struct nb_jobs *js, const struct nb_config *cfg, char *err,
	      size_t errlen)
{
	const uint32_t n = cfg->flows.spec.n;
	unsigned int i;

	for (i = 0; i < js->nb_tx; i++)
		if (tx_flows(js->tx[i], cfg, cfg->streams) != 0)
			goto nomem;
	for (i = 0; i < js->nb_rx; i++)
		if (rx_flows(js->rx[i], n) != 0)
			goto nomem;
	for (i = 0; i < js->nb_workers; i++)
		nb_engine_select(js->workers[i], cfg->proto);
	return 0;
nomem:
	snprintf(err, errlen,
		 "out of hugepage memory for --flows %u: %zu bytes a flow and "
		 "receive queue (%u of those here) and %zu a flow to send "
		 "(see hugepages.md)",
		 n, sizeof(struct nb_flow_cnt) + sizeof(struct nb_flow_cnt_ext),
		 js->nb_rx, sizeof(struct nb_flow_rec));
	return -ENOMEM;
}

void
nb_jobs_flows_free(struct nb_jobs *js)
{
	unsigned int i;

	for (i = 0; i < js->nb_tx; i++)
		if (js->tx[i]->cnt_data != NULL && js->tx[i]->nb_streams > 0)
			rte_free(
				(void *)(uintptr_t)js->tx[i]->cnt_data[0].frec);
	for (i = 0; i < js->nb_rx; i++)
		if (js->rx[i]->nb_streams > 0) {
			rte_free(js->rx[i]->streams[0].flows);
			rte_free(js->rx[i]->streams[0].flows_ext);
		}
}

void
nb_jobs_read_flows(const struct nb_jobs *js, uint32_t n, uint32_t ns,
		   struct nb_flow_rx *rx, uint64_t *sent,
		   struct nb_flow_rec *rec)
{
	unsigned int i;
	uint32_t k, f;

	for (i = 0; i < js->nb_tx; i++) {
		const struct nb_txjob *j = js->tx[i];

		for (k = 0; j->cnt_data != NULL && k < j->nb_streams; k++) {
			const struct nb_tx_stream *c = &j->cnt_data[k];
			uint32_t st = j->first_stream + k * j->stream_stride;

			for (f = 0; c->frec != NULL && f < c->nflows; f++) {
				uint32_t id = st + f * ns;

				if (id >= n)
					break;
				sent[id] += nb_flow_sent(c->pkts, c->nflows, f);
				rec[id] = c->frec[f];
			}
		}
	}
	for (i = 0; i < js->nb_rx; i++) {
		const struct nb_rxjob *j = js->rx[i];
		uint32_t s;

		for (s = 0; s < j->nb_streams && s < ns; s++) {
			const struct nb_rx_stream *st = &j->streams[s];

			for (f = 0; st->flows != NULL && f < st->nflows; f++) {
				struct nb_flow_rx c;

				if (s + f * ns >= n)
					break;
				nb_flow_cnt_read(&st->flows[f],
						 &st->flows_ext[f], &c);
				/* what came, came on this job's queue */
				c.queue =
					c.unique || c.dups ? j->queue + 1u : 0;
				nb_flow_rx_merge(&rx[s + f * ns], &c);
			}
		}
	}
}
