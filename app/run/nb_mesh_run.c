/* SPDX-License-Identifier: BSD-3-Clause */
/* The header and the per-pair results of a test of many ports: see
 * nb_mesh_run.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "nb_jobs.h"
#include "nb_log.h"
#include "nb_pool.h"
#include "nb_port.h"
#include "nb_seam.h"
#include "nb_mesh.h"
#include "nb_mesh_merge.h"
#include "nb_mesh_run.h"
#include "nb_units.h"

void
nb_mesh_header(const struct nb_app *app)
{
	const struct nb_config *cfg = &app->cfg;
	const struct nb_mesh_cfg *m = &cfg->mesh;
	const struct nb_result *r = &app->result;
	uint16_t i;

	if (m->nb_pairs == 0)
		return;
	printf("mesh: %s, ports", nb_mesh_rfc_name(m->kind));
	for (i = 0; i < m->nb_ports; i++)
		printf("%s%u", i ? "," : " ", m->ports[i]);
	printf(", %u pairs, %u stream%s a pair", m->nb_pairs, m->per_pair,
	       m->per_pair == 1 ? "" : "s");
	if (r->req_pps > 0)
		printf("; %.4f Mpps a pair (--rate is the total)",
		       r->req_pps / m->nb_pairs / 1e6);
	printf("\n");
}

static int
learn_one(const struct nb_app *app, struct rte_mempool *mp, uint16_t port)
{
	const struct nb_port *p = NULL;
	struct rte_mbuf *m;
	uint16_t i;
	int len;

	for (i = 0; i < app->nb_ports; i++)
		if (app->port_ids[i] == port)
			p = &app->ports[i];
	if (p == NULL || (m = rte_pktmbuf_alloc(mp)) == NULL)
		return -ENOMEM;
	len = nb_mesh_learn_frame(rte_pktmbuf_mtod(m, uint8_t *),
				  rte_pktmbuf_tailroom(m), p->desc.mac,
				  app->cfg.vlan_id);
	if (len <= 0) {
		rte_pktmbuf_free(m);
		return -EINVAL;
	}
	m->data_len = (uint16_t)len;
	m->pkt_len = (uint32_t)len;
	if (nb_port_tx(port, 0, &m, 1) != 1) {
		rte_pktmbuf_free(m);
		return -EIO;
	}
	return 0;
}

int
nb_mesh_learn(struct nb_app *app)
{
	const struct nb_mesh_cfg *m = &app->cfg.mesh;
	struct rte_mempool *mp;
	int round, n = 0, rc;
	uint16_t i;

	if (m->nb_pairs == 0)
		return 0;
	mp = nb_pool_get("nb_learn", 4 * NB_MESH_MAX_PORTS - 1,
			 nb_port_socket(app->port_ids[0]));
	if (mp == NULL) {
		NB_LOG(WARNING, "no pool for the learning frames");
		return 0;
	}
	for (round = 0; round < NB_MESH_LEARN_ROUNDS; round++) {
		n = 0;
		for (i = 0; i < m->nb_ports; i++) {
			if (m->ports[i] & NB_MESH_REMOTE)
				continue; /* the other host sends its own */
			rc = learn_one(app, mp, m->ports[i]);
			if (rc == 0)
				n++;
			else
				NB_LOG(WARNING,
				       "port %u: cannot send its learning "
				       "frame: %s",
				       m->ports[i], strerror(-rc));
		}
		nb_glue_nap_us(NB_MESH_LEARN_GAP_US);
	}
	return n;
}

/* The latency of what reached the pair's destination. */
static void
pair_latency(struct nb_mesh_end_pair *p, const struct nb_hist *h)
{
	p->lat_n = h->count;
	if (h->count == 0)
		return;
	p->lat_min = h->min;
	p->lat_max = h->max;
	p->lat_p50 = nb_hist_percentile(h, 50.0);
	p->lat_p99 = nb_hist_percentile(h, 99.0);
	p->lat_mean = nb_hist_mean(h);
}

/* Pair k at this end's ports: sent (its source ours), its arrivals at its
 * destination (ours) and at our other ports. */
static void
read_pair(const struct nb_app *app, uint32_t k, struct nb_mesh_end *e,
	  struct nb_hist *h)
{
	const struct nb_mesh_cfg *m = &app->cfg.mesh;
	const struct nb_result *r = &app->result;
	uint16_t src = m->pairs[k].src, dst = m->pairs[k].dst, i;
	struct nb_mesh_end_pair *p = &e->pairs[k];
	struct nb_rxport_result at;
	uint32_t s;

	memset(&at, 0, sizeof(at));
	nb_hist_init(h);
	for (s = m->base[src]; s < m->base[src] + m->cycle[src] * m->per_pair;
	     s++) {
		if (nb_mesh_stream_pair(m, s) != k)
			continue;
		if (nb_mesh_end_owns(e, src) && s < r->nb_streams)
			p->sent += r->streams[s].tx_pkts;
		if (nb_mesh_end_owns(e, dst))
			nb_jobs_read_port_stream(&app->jobs, m->ports[dst], s,
						 &at, h);
		for (i = 0; i < m->nb_ports; i++)
			if (i != dst && nb_mesh_end_owns(e, i)) {
				struct nb_rxport_result o;

				memset(&o, 0, sizeof(o));
				nb_jobs_read_port_stream(
					&app->jobs, m->ports[i], s, &o, NULL);
				p->elsewhere += o.received;
				e->foreign[i] += o.received;
			}
	}
	p->received = at.received;
	p->unique = at.unique;
	p->out_of_order = at.out_of_order;
	p->duplicates = at.duplicates;
	pair_latency(p, h);
}

int
nb_mesh_read_end(const struct nb_app *app, uint32_t owned,
		 struct nb_mesh_end *e)
{
	const struct nb_mesh_cfg *m = &app->cfg.mesh;
	struct nb_hist *h = malloc(sizeof(*h));
	uint32_t k;

	if (h == NULL)
		return -ENOMEM;
	memset(e, 0, sizeof(*e));
	e->owned = owned;
	e->nb_pairs = m->nb_pairs;
	for (k = 0; k < m->nb_pairs; k++)
		read_pair(app, k, e, h);
	free(h);
	return 0;
}

int
nb_mesh_collect(struct nb_app *app)
{
	const struct nb_mesh_cfg *m = &app->cfg.mesh;
	struct nb_result *r = &app->result;
	struct nb_mesh_end *e;
	char why[160];
	int rc;

	if (m->nb_pairs == 0)
		return 0;
	if (r->mesh == NULL)
		r->mesh = malloc(sizeof(*r->mesh));
	e = malloc(sizeof(*e));
	if (r->mesh == NULL || e == NULL) {
		free(e);
		return -ENOMEM;
	}
	/* one process, every port its own */
	rc = nb_mesh_read_end(app, (1u << m->nb_ports) - 1u, e);
	if (rc == 0)
		rc = nb_mesh_merge(m, e, 1, r->mesh, why, sizeof(why));
	if (rc == -EINVAL)
		NB_LOG(ERR, "mesh: %s", why);
	if (rc != 0) { /* no half-made pairs in the report */
		free(r->mesh);
		r->mesh = NULL;
	}
	free(e);
	return rc;
}
