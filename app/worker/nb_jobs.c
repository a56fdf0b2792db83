/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Building a test's jobs from the plan, freeing them, reading what the
 * workers counted: one writer each (a worker); every read a plain load of
 * an aligned 64-bit field, at most one burst old, with no lock.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "nb_devcaps.h"
#include "nb_jobs.h"
#include "nb_mesh.h"
#include "nb_tester.h"
#include "nb_port.h"
#include "nb_stack.h"

static const struct nb_port *
port_of(const struct nb_jobs_ports *ports, uint16_t port_id)
{
	uint16_t i;

	for (i = 0; i < ports->nb_ports; i++)
		if (ports->port_ids[i] == port_id)
			return &ports->ports[i];
	return NULL;
}

static const struct nb_port_desc *
port_desc(const struct nb_jobs_ports *ports, uint16_t port_id)
{
	const struct nb_port *p = port_of(ports, port_id);

	return p != NULL ? &p->desc : NULL;
}

static uint32_t
sizes_max(const struct nb_size_list *l)
{
	uint32_t m = 0, i;

	for (i = 0; i < l->nb_sizes; i++)
		if (l->sizes[i] > m)
			m = l->sizes[i];
	return m;
}

static int
desc_socket(const struct nb_port_desc *d)
{
	return d->numa_node < 0 ? (int)rte_socket_id() : d->numa_node;
}

static void *
zalloc(const char *what, size_t n, int socket)
{
	return rte_zmalloc_socket(what, n, RTE_CACHE_LINE_SIZE, socket);
}

/* The flow of stream s from port tx to port rx. */
static void
stream_flow(struct nb_flow *f, const struct nb_config *cfg,
	    const struct nb_port_desc *tx, const uint8_t *rx_mac, uint32_t s)
{
	nb_stack_flow(f, cfg, cfg->have_src_mac ? cfg->src_mac : tx->mac,
		      cfg->have_dst_mac ? cfg->dst_mac : rx_mac, s);
}

/* The copy (and the outer checksum) a template needs (NB_GEN_HDR_*). */
static uint8_t
hdr_kind(const struct nb_tmpl *t)
{
	if (t->csum2_off)
		return NB_GEN_HDR_OUTER;
	if (t->copy_len > NB_TMPL_MID_HDR)
		return NB_GEN_HDR_BIG;
	return t->copy_len > NB_TMPL_SMALL_HDR ? NB_GEN_HDR_MID
					       : NB_GEN_HDR_SMALL;
}

/* hw_csum: the TX port fills the L4 checksums (nb_offload_tx_l4) */
static int
build_templates(struct nb_txjob *j, const struct nb_config *cfg,
		const struct nb_port_desc *tx,
		const struct nb_jobs_ports *ports,
		const struct nb_port_desc *rx, int hw_csum, char *err,
		size_t errlen)
{
	uint8_t frame[NB_FRAME_MAX];
	struct nb_flow f;
	uint32_t k, i;

	for (k = 0; k < j->nb_streams; k++) {
		uint32_t s = j->first_stream + k * j->stream_stride;
		/* a mesh: the pair's destination (across hosts by MAC) */
		uint16_t dst = cfg->mesh.nb_pairs
				       ? nb_mesh_stream_dst(&cfg->mesh, s)
				       : 0;
		const struct nb_port_desc *to =
			cfg->mesh.nb_pairs ? port_desc(ports, dst) : rx;
		const uint8_t *mac = to != NULL ? to->mac : tx->mac;

		if (dst & NB_MESH_REMOTE)
			mac = cfg->mesh.macs[nb_mesh_stream_dst_index(
				&cfg->mesh, s)];
		stream_flow(&f, cfg, tx, mac, s);
		for (i = 0; i < j->nb_sizes; i++) {
			uint32_t sz = cfg->sizes.sizes[i];
			struct nb_tmpl *w = &j->tmpl_warm[k * j->nb_sizes + i];
			struct nb_tmpl *d = &j->tmpl_data[k * j->nb_sizes + i];

			if (nb_frame_build(frame, sizeof(frame), &f, sz,
					   NB_MAGIC_WARMUP, w) < 0 ||
			    nb_frame_build(frame, sizeof(frame), &f, sz,
					   NB_MAGIC_DATA, d) < 0) {
				snprintf(err, errlen,
					 "cannot build a %u B frame", sz);
				return -EINVAL;
			}
			if (hw_csum) {
				nb_tmpl_mbuf_csum(w);
				nb_tmpl_mbuf_csum(d);
			}
			/* one stack for all: the largest decides */
			j->hdr_kind = RTE_MAX(j->hdr_kind, hdr_kind(d));
		}
	}
	return 0;
}

/* Why the TX pool could not be made: the need, what is there. */
static int
tx_pool_error(const char *name, unsigned int n, uint32_t max_frame, int socket,
	      char *err, size_t errlen)
{
	char why[900];
	int e = rte_errno;

	nb_pool_shortfall(
		n, nb_pool_room(max_frame > 2048 ? NB_FRAME_MAX : max_frame),
		socket, why, sizeof(why));
	snprintf(err, errlen,
		 "cannot create TX mbuf pool %s (%u mbufs, NUMA node %d): %s: "
		 "%s",
		 name, n, socket, rte_strerror(e), why);
	return -ENOMEM;
}

static int
build_txjob(struct nb_jobs *js, const struct nb_config *cfg,
	    const struct nb_job *job, const struct nb_jobs_ports *ports,
	    char *err, size_t errlen)
{
	const struct nb_port_desc *tx = port_desc(ports, job->port);
	const struct nb_port_desc *rx = port_desc(ports, job->peer_port);
	const struct nb_port *txp;
	int socket = desc_socket(tx);
	uint32_t max_frame = sizes_max(&cfg->sizes), ns, nt;
	char name[RTE_MEMPOOL_NAMESIZE];
	unsigned int nb_mbufs;
	struct nb_txjob *j;
	int ret;

	j = zalloc("nb_txjob", sizeof(*j), socket);
	if (j == NULL)
		goto nomem;
	js->tx[js->nb_tx++] = j;
	j->job = job;
	j->port = job->port;
	j->queue = job->queue;
	j->nb_streams = (uint16_t)job->nb_streams;
	j->nb_sizes = cfg->sizes.nb_sizes;
	j->nb_pattern = cfg->sizes.nb_pattern;
	j->pattern = cfg->sizes.pattern;
	j->first_stream = job->first_stream;
	j->stream_stride = job->stream_stride;
	j->left = job->packets ? job->packets : UINT64_MAX;
	if (job->nb_streams == 0) {
		/* More TX queues than streams: this queue stays idle. */
		j->done = 1;
		j->left = 0;
		return 0;
	}
	ns = j->nb_streams;
	nt = ns * j->nb_sizes;
	j->tmpl_warm = zalloc("nb_tmpl", sizeof(struct nb_tmpl) * nt, socket);
	j->tmpl_data = zalloc("nb_tmpl", sizeof(struct nb_tmpl) * nt, socket);
	j->cnt_warm =
		zalloc("nb_cnt", sizeof(struct nb_tx_stream) * ns, socket);
	j->cnt_data =
		zalloc("nb_cnt", sizeof(struct nb_tx_stream) * ns, socket);
	if (!j->tmpl_warm || !j->tmpl_data || !j->cnt_warm || !j->cnt_data)
		goto nomem;
	txp = port_of(ports, job->port);
	ret = build_templates(
		j, cfg, tx, ports, rx != NULL ? rx : tx,
		txp != NULL &&
			nb_offload_tx_l4(&txp->caps, txp->tx_csum, cfg->proto),
		err, errlen);
	if (ret != 0)
		return ret;
	j->tmpl = j->tmpl_warm;
	j->cnt = j->cnt_warm;
	/* Enough for the TX ring, frames in hand, and per-lcore caches. */
	nb_mbufs = cfg->txd * 2 + 4096;
	/* reused (nb_jobs_free), one per header copy: bytes past it stay 0 */
	snprintf(name, sizeof(name), "nb_tx_p%u_q%u%s_h%u", job->port,
		 job->queue, max_frame > 2048 ? "j" : "", j->hdr_kind);
	j->pool = rte_mempool_lookup(name);
	if (j->pool == NULL)
		j->pool = nb_tx_pool_create(
			name, nb_mbufs,
			max_frame > 2048 ? NB_FRAME_MAX : max_frame, socket);
	if (j->pool == NULL)
		return tx_pool_error(name, nb_mbufs, max_frame, socket, err,
				     errlen);
	return 0;
nomem:
	snprintf(err, errlen,
		 "out of hugepage memory for TX job state (see hugepages.md)");
	return -ENOMEM;
}

static int
build_rxjob(struct nb_jobs *js, const struct nb_config *cfg,
	    const struct nb_job *job, const struct nb_jobs_ports *ports,
	    char *err, size_t errlen)
{
	int socket = desc_socket(port_desc(ports, job->port));
	struct nb_rxjob *j;
	uint32_t s;

	j = zalloc("nb_rxjob", sizeof(*j), socket);
	if (j != NULL)
		j->streams = zalloc("nb_rxstreams",
				    sizeof(struct nb_rx_stream) * cfg->streams,
				    socket);
	if (j == NULL || j->streams == NULL) {
		rte_free(j);
		snprintf(err, errlen,
			 "out of hugepage memory for RX stream state (see "
			 "hugepages.md)");
		return -ENOMEM;
	}
	js->rx[js->nb_rx++] = j;
	j->reflect_txq = -1;
	j->job = job;
	j->port = job->port;
	j->queue = job->queue;
	j->nb_streams = cfg->streams;
	if (js->cap != NULL) {
		j->cap.cap = js->cap;
		j->cap.left = 1; /* the first frame, then every Nth */
	}
	for (s = 0; s < cfg->streams; s++) {
		nb_seq_init(&j->streams[s].seq, 0);
		nb_jitter_init(&j->streams[s].jit);
		nb_hist_init(&j->streams[s].hist);
	}
	nb_hist_init(&j->all_hist);
	return 0;
}

int
nb_jobs_build(struct nb_jobs *js, const struct nb_config *cfg,
	      const struct nb_plan *plan, const struct nb_jobs_ports *ports,
	      struct nb_run *run, char *err, size_t errlen)
{
	unsigned int i;
	int ret;

	js->nb_tx = 0;
	js->nb_rx = 0;
	js->nb_streams = cfg->streams;
	js->nb_workers = plan->nb_workers;
	for (i = 0; i < plan->nb_workers; i++) {
		unsigned int lcore = plan->workers[i].lcore;
		struct nb_worker *w =
			zalloc("nb_worker", sizeof(*w),
			       (int)rte_lcore_to_socket_id(lcore));

		if (w == NULL) {
			snprintf(err, errlen, "out of hugepage memory");
			return -ENOMEM;
		}
		w->lcore = lcore;
		w->run = run;
		w->gap_floor = rte_get_tsc_hz() * NB_TESTER_GAP_NS / 1000000000;
		js->workers[i] = w;
	}
	for (i = 0; i < plan->nb_jobs; i++) {
		const struct nb_job *job = &plan->jobs[i];
		struct nb_worker *w = js->workers[job->worker];

		if (job->is_tx) {
			ret = build_txjob(js, cfg, job, ports, err, errlen);
			if (ret)
				return ret;
			w->tx[w->nb_tx++] = js->tx[js->nb_tx - 1];
		} else {
			ret = build_rxjob(js, cfg, job, ports, err, errlen);
			if (ret)
				return ret;
			w->rx[w->nb_rx++] = js->rx[js->nb_rx - 1];
		}
	}
	for (i = 0; i < plan->nb_workers; i++)
		nb_engine_select(js->workers[i], cfg->proto);
	if (nb_jobs_keep_lacp(js, ports) != 0) {
		snprintf(err, errlen,
			 "cannot give the 802.3ad bond's queues "
			 "their LACP turns (hugepage memory?)");
		return -ENOMEM;
	}
	return 0;
}

int
nb_jobs_tcp_worker(struct nb_jobs *js, unsigned int lcore, struct nb_run *run,
		   struct nb_tcpjob *const *jobs, uint16_t n)
{
	struct nb_worker *w;
	uint16_t k;

	if (js->nb_workers >= NB_MAX_LCORES || n == 0 || n > RTE_DIM(w->tcp))
		return -EINVAL;
	w = zalloc("nb_worker", sizeof(*w), (int)rte_lcore_to_socket_id(lcore));
	if (w == NULL)
		return -ENOMEM;
	w->lcore = lcore;
	w->run = run;
	w->gap_floor = rte_get_tsc_hz() * NB_TESTER_GAP_NS / 1000000000;
	for (k = 0; k < n; k++)
		w->tcp[w->nb_tcp++] = jobs[k];
	nb_engine_select(w, NB_IPPROTO_TCP);
	js->workers[js->nb_workers++] = w;
	return 0;
}

/* --impair's state of a receive job, and any probe it still held. */
static void
free_impair(struct nb_rxjob *j)
{
	struct nb_probe_hold *h = j->hold;

	while (h != NULL && h->head != h->tail)
		rte_pktmbuf_free(h->m[h->head++ % NB_HOLD_PROBES]);
	if (j->imp != NULL)
		rte_free(j->imp->line);
	rte_free(j->imp);
	rte_free(h);
	j->imp = NULL;
	j->hold = NULL;
}

void
nb_jobs_free(struct nb_jobs *js)
{
	unsigned int i;

	nb_jobs_flows_free(js);
	for (i = 0; i < js->nb_tx; i++) {
		struct nb_txjob *j = js->tx[i];

		rte_free(j->tmpl_warm);
		rte_free(j->tmpl_data);
		rte_free(j->cnt_warm);
		rte_free(j->cnt_data);
		/* kept while a NIC's TX ring holds mbufs (architecture.md) */
		if (rte_mempool_full(j->pool))
			rte_mempool_free(j->pool);
		rte_free(j);
		js->tx[i] = NULL;
	}
	rte_free(js->probe);
	js->probe = NULL;
	for (i = 0; i < js->nb_rx; i++) {
		js->cap_dropped += js->rx[i]->cap.dropped;
		js->cap_taken += js->rx[i]->cap.taken;
		free_impair(js->rx[i]);
		rte_free(js->rx[i]->rtt);
		rte_free(js->rx[i]->streams);
		rte_free(js->rx[i]->gaps);
		rte_free(js->rx[i]);
		js->rx[i] = NULL;
	}
	nb_jobs_keep_free(js);
	for (i = 0; i < js->nb_workers; i++) {
		rte_free(js->workers[i]);
		js->workers[i] = NULL;
	}
	js->nb_workers = 0;
	js->nb_tx = 0;
	js->nb_rx = 0;
	js->rx_all_stream0 = 0;
}

int
nb_jobs_impair(struct nb_jobs *js, const struct nb_impair_cfg *cfg,
	       uint64_t now_ns, uint8_t proto, char *err, size_t errlen)
{
	unsigned int i;

	for (i = 0; i < js->nb_rx; i++) {
		struct nb_rxjob *j = js->rx[i];
		int socket = (int)rte_socket_id();
		struct nb_impair_rec *line =
			zalloc("nb_impair_line",
			       nb_impair_line_size(NB_IMPAIR_LINE), socket);

		j->imp = zalloc("nb_impair", sizeof(*j->imp), socket);
		j->hold = zalloc("nb_probe_hold", sizeof(*j->hold), socket);
		if (line == NULL || j->imp == NULL || j->hold == NULL) {
			rte_free(line);
			snprintf(err, errlen,
				 "out of hugepage memory for --impair's delay "
				 "line (%zu bytes per receive queue)",
				 nb_impair_line_size(NB_IMPAIR_LINE));
			return -ENOMEM;
		}
		/* a seed per queue: the same decisions run after run */
		nb_impair_init(j->imp, cfg, line, NB_IMPAIR_LINE,
			       UINT64_C(0x9e3779b97f4a7c15) * (j->queue + 1),
			       now_ns);
	}
	for (i = 0; i < js->nb_workers; i++)
		nb_engine_select(js->workers[i], proto);
	return 0;
}

void
nb_jobs_impair_counts(const struct nb_jobs *js, struct nb_impair_counts *c)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < js->nb_rx; i++) {
		const struct nb_impair_counts *x;

		if (js->rx[i]->imp == NULL)
			continue;
		x = &js->rx[i]->imp->c;
		c->seen += x->seen;
		c->dropped += x->dropped;
		c->policed += x->policed;
		c->overflow += x->overflow;
		c->duplicated += x->duplicated;
		c->reordered += x->reordered;
		c->delayed += x->delayed;
	}
}

struct nb_worker *
nb_jobs_queue_owner(const struct nb_jobs *js, uint16_t q)
{
	unsigned int i, k;

	for (i = 0; i < js->nb_workers; i++) {
		struct nb_worker *w = js->workers[i];

		for (k = 0; k < w->nb_tx; k++)
			if (w->tx[k]->queue == q && w->tx[k]->nb_streams)
				return w;
	}
	for (i = 0; i < js->nb_workers; i++) {
		struct nb_worker *w = js->workers[i];

		for (k = 0; k < w->nb_rx; k++)
			if (w->rx[k]->queue == q)
				return w;
	}
	return NULL;
}

void
nb_jobs_totals(const struct nb_jobs *js, struct nb_jobs_totals *t)
{
	unsigned int i, k;

	memset(t, 0, sizeof(*t));
	t->tx_done = 1;
	for (i = 0; i < js->nb_tx; i++) {
		const struct nb_txjob *j = js->tx[i];

		if (!j->done)
			t->tx_done = 0;
		if (j->cnt_data == NULL)
			continue;
		for (k = 0; k < j->nb_streams; k++) {
			t->tx_data += j->cnt_data[k].pkts;
			t->tx_all += j->cnt_data[k].pkts + j->cnt_warm[k].pkts;
		}
	}
	for (i = 0; i < js->nb_rx; i++)
		t->rx_data += js->rx[i]->data;
	for (i = 0; i < js->nb_workers; i++)
		if (js->workers[i]->nb_rx > 0)
			t->rx_turns += __atomic_load_n(&js->workers[i]->loops,
						       __ATOMIC_RELAXED);
}

int
nb_counts_alloc(struct nb_counts *c, uint32_t n, int hist_sum,
		int hist_per_stream)
{
	uint64_t *a;

	memset(c, 0, sizeof(*c));
	/* ten u64 arrays and one of doubles, in one block */
	a = calloc(11 * (size_t)(n ? n : 1), sizeof(uint64_t));
	if (a == NULL)
		return -ENOMEM;
	c->nb_streams = n;
	c->tx_pkts = a;
	c->tx_bytes = a + n;
	c->rx_pkts = a + 2 * (size_t)n;
	c->rx_bytes = a + 3 * (size_t)n;
	c->rx_unique = a + 4 * (size_t)n;
	c->lost = a + 5 * (size_t)n;
	c->ooo = a + 6 * (size_t)n;
	c->dup = a + 7 * (size_t)n;
	c->late = a + 8 * (size_t)n;
	c->jitter_ns = (double *)(a + 9 * (size_t)n);
	c->busiest = a + 10 * (size_t)n;
	if (hist_sum)
		c->hist = malloc(sizeof(*c->hist));
	if (hist_per_stream)
		c->stream_hist = malloc(sizeof(*c->stream_hist) * (n ? n : 1));
	if ((hist_sum && c->hist == NULL) ||
	    (hist_per_stream && c->stream_hist == NULL)) {
		nb_counts_free(c);
		return -ENOMEM;
	}
	return 0;
}

void
nb_counts_free(struct nb_counts *c)
{
	free(c->tx_pkts);
	free(c->hist);
	free(c->stream_hist);
	memset(c, 0, sizeof(*c));
}

static struct nb_port_counts *
port_slot(struct nb_counts *c, uint16_t port_id)
{
	uint16_t i;

	for (i = 0; i < c->nb_ports; i++)
		if (c->ports[i].port_id == port_id)
			return &c->ports[i];
	if (c->nb_ports == NB_MAX_PORTS)
		return NULL;
	c->ports[c->nb_ports].port_id = port_id;
	return &c->ports[c->nb_ports++];
}

/* Queue q has a job on this port. */
static void
port_queue(struct nb_port_counts *p, uint16_t q)
{
	if (q < NB_PMD_QUEUES && q >= p->nb_queues)
		p->nb_queues = (uint16_t)(q + 1);
}

static void
read_tx(const struct nb_jobs *js, struct nb_counts *c)
{
	unsigned int i;
	uint32_t k, st;

	for (i = 0; i < js->nb_tx; i++) {
		const struct nb_txjob *j = js->tx[i];
		struct nb_port_counts *p = port_slot(c, j->port);

		c->tx_dropped += j->dropped;
		c->alloc_fail += j->alloc_fail;
		if (j->cnt_data == NULL)
			continue;
		if (j->stop_tsc > c->tx_end_tsc)
			c->tx_end_tsc = j->stop_tsc;
		for (k = 0; k < j->nb_streams; k++) {
			const struct nb_tx_stream *d = &j->cnt_data[k];
			const struct nb_tx_stream *w = &j->cnt_warm[k];

			st = j->first_stream + k * j->stream_stride;
			if (st >= c->nb_streams)
				continue;
			c->tx_pkts[st] += d->pkts;
			c->tx_bytes[st] += d->bytes;
			c->tx_warm_pkts += w->pkts;
			c->tx_warm_bytes += w->bytes;
			if (p != NULL) {
				p->tx_pkts += d->pkts + w->pkts;
				p->tx_bytes += d->bytes + w->bytes;
				port_queue(p, j->queue);
				if (j->queue < NB_PMD_QUEUES) {
					p->q_tx_pkts[j->queue] +=
						d->pkts + w->pkts;
					p->q_tx_bytes[j->queue] +=
						d->bytes + w->bytes;
				}
			}
		}
	}
}

static void
read_rx(const struct nb_jobs *js, struct nb_counts *c)
{
	uint32_t n =
		c->nb_streams < js->nb_streams ? c->nb_streams : js->nb_streams;
	unsigned int i;
	uint32_t st;

	for (i = 0; i < js->nb_rx; i++) {
		const struct nb_rxjob *j = js->rx[i];
		struct nb_port_counts *p = port_slot(c, j->port);

		c->rx_warm += j->warm;
		c->rx_warm_bytes += j->warm_bytes;
		if (js->rx_all_stream0 && n > 0) {
			/* --replay as recorded: the frame is the stream's */
			c->rx_pkts[0] += j->pkts;
			c->rx_unique[0] += j->pkts;
			c->rx_bytes[0] += j->bytes;
		} else {
			c->rx_foreign += j->foreign;
		}
		c->rx_bad_stream += j->bad_stream;
		if (j->last_data_tsc > c->rx_end_tsc)
			c->rx_end_tsc = j->last_data_tsc;
		if (p != NULL) {
			p->rx_pkts += j->pkts;
			p->rx_bytes += j->bytes;
			port_queue(p, j->queue);
			if (j->queue < NB_PMD_QUEUES) {
				p->q_rx_pkts[j->queue] += j->pkts;
				p->q_rx_bytes[j->queue] += j->bytes;
			}
		}
		for (st = 0; st < n; st++) {
			const struct nb_rx_stream *s = &j->streams[st];
			uint64_t gap;

			if (s->seq.received == 0)
				continue;
			gap = nb_seq_gap_lost(&s->seq);
			c->rx_pkts[st] += s->seq.received;
			c->rx_bytes[st] += s->bytes;
			c->rx_unique[st] += s->seq.unique;
			c->lost[st] += gap;
			c->ooo[st] += s->seq.out_of_order;
			c->dup[st] += s->seq.duplicates;
			c->late[st] += s->seq.late;
			/* A stream lands on one queue; keep the busiest. */
			if (s->seq.received > c->busiest[st]) {
				c->busiest[st] = s->seq.received;
				c->jitter_ns[st] = nb_jitter_ns(&s->jit);
			}
			if (s->hist.count != 0 && c->stream_hist != NULL)
				nb_hist_merge(&c->stream_hist[st], &s->hist);
		}
		/* the sum's: one histogram a job, whatever the streams */
		if (c->hist != NULL && j->all_hist.count != 0)
			nb_hist_merge(c->hist, &j->all_hist);
	}
}

void
nb_jobs_read(const struct nb_jobs *js, struct nb_counts *c)
{
	uint32_t n = c->nb_streams, st;

	/* everything back to zero, keeping the arrays */
	memset(c->tx_pkts, 0, 11 * (size_t)n * sizeof(uint64_t));
	memset(&c->tx_warm_pkts, 0,
	       sizeof(*c) - offsetof(struct nb_counts, tx_warm_pkts));
	if (c->hist != NULL)
		nb_hist_init(c->hist);
	for (st = 0; c->stream_hist != NULL && st < n; st++)
		nb_hist_init(&c->stream_hist[st]);
	read_tx(js, c);
	read_rx(js, c);
	for (st = 0; st < n; st++) {
		c->gap_lost += c->lost[st];
		c->out_of_order += c->ooo[st];
		c->duplicates += c->dup[st];
		c->mean_jitter_ns += c->jitter_ns[st] / n;
	}
}
