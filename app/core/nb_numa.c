/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "nb_numa.h"

int
nb_numa_port_node(const struct nb_numa_layout *l, uint16_t port)
{
	uint16_t i;

	for (i = 0; i < l->nb_ports; i++)
		if (l->ports[i].port == port)
			return l->ports[i].node;
	return -1;
}

static int
listed(const struct nb_numa_layout *l, unsigned int lcore, uint16_t port)
{
	uint16_t i;

	for (i = 0; i < l->nb_mismatch; i++)
		if (l->mismatch[i].lcore == lcore &&
		    l->mismatch[i].port == port)
			return 1;
	return 0;
}

void
nb_numa_check(struct nb_numa_layout *l, const struct nb_plan *plan)
{
	unsigned int w, k;

	l->nb_mismatch = 0;
	for (w = 0; w < plan->nb_workers && w < l->nb_workers; w++) {
		const struct nb_worker_plan *wp = &plan->workers[w];
		const struct nb_numa_worker *nw = &l->workers[w];

		for (k = 0; k < wp->nb_jobs; k++) {
			const struct nb_job *j = &plan->jobs[wp->jobs[k]];
			int pnode = nb_numa_port_node(l, j->port);
			struct nb_numa_mismatch *m;

			if (nw->node < 0 || pnode < 0 || nw->node == pnode ||
			    listed(l, nw->lcore, j->port) ||
			    l->nb_mismatch >= NB_NUMA_MAX)
				continue;
			m = &l->mismatch[l->nb_mismatch++];
			m->lcore = nw->lcore;
			m->cpu = nw->cpu;
			m->lcore_node = nw->node;
			m->port = j->port;
			m->port_node = pnode;
		}
	}
}

#define ADD(...)                                                               \
	do {                                                                   \
		int r_ = snprintf(off < len ? buf + off : NULL,                \
				  off < len ? len - off : 0, __VA_ARGS__);     \
		if (r_ > 0)                                                    \
			off += (size_t)r_;                                     \
	} while (0)

int
nb_numa_text(const struct nb_numa_layout *l, char *buf, size_t len)
{
	size_t off = 0;
	uint16_t i;

	if (len > 0)
		buf[0] = '\0';
	if (!l->available)
		ADD("unknown (no NUMA support on this host)");
	else
		ADD("%d node%s", l->nb_nodes, l->nb_nodes == 1 ? "" : "s");
	ADD("; workers");
	for (i = 0; i < l->nb_workers; i++)
		ADD(" %u@cpu%u:node%d", l->workers[i].lcore, l->workers[i].cpu,
		    l->workers[i].node);
	ADD("; ports");
	for (i = 0; i < l->nb_ports; i++)
		ADD(" %u:node%d", l->ports[i].port, l->ports[i].node);
	for (i = 0; i < l->nb_mismatch; i++)
		ADD("; worker lcore %u (node %d) serves port %u (node %d)",
		    l->mismatch[i].lcore, l->mismatch[i].lcore_node,
		    l->mismatch[i].port, l->mismatch[i].port_node);
	return (int)off;
}

void
nb_numa_brief(const struct nb_numa_layout *l, struct nb_numa_brief *b)
{
	memset(b, 0, sizeof(*b));
	b->nodes = l->nb_nodes > 0 ? (uint16_t)l->nb_nodes : 0;
	b->port_node = (int16_t)(l->nb_ports ? l->ports[0].node : -1);
	b->workers = l->nb_workers;
	b->cross = l->nb_mismatch;
}

json_t *
nb_numa_brief_json(const struct nb_numa_brief *b)
{
	return json_pack("{s:i,s:i,s:i,s:i}", "nodes", (int)b->nodes,
			 "port_node", (int)b->port_node, "workers",
			 (int)b->workers, "workers_on_other_node",
			 (int)b->cross);
}

/* Where the workers and ports sit (nb_numa.h), and the crossings. */
json_t *
nb_numa_json(const struct nb_numa_layout *l)
{
	json_t *w = json_array(), *p = json_array(), *m = json_array();
	uint16_t i;

	for (i = 0; i < l->nb_workers; i++)
		json_array_append_new(w,
				      json_pack("{s:i,s:i,s:i}", "lcore",
						(int)l->workers[i].lcore, "cpu",
						(int)l->workers[i].cpu, "node",
						l->workers[i].node));
	for (i = 0; i < l->nb_ports; i++)
		json_array_append_new(p, json_pack("{s:i,s:i}", "port",
						   (int)l->ports[i].port,
						   "node", l->ports[i].node));
	for (i = 0; i < l->nb_mismatch; i++)
		json_array_append_new(
			m, json_pack("{s:i,s:i,s:i,s:i,s:i}", "lcore",
				     (int)l->mismatch[i].lcore, "cpu",
				     (int)l->mismatch[i].cpu, "lcore_node",
				     l->mismatch[i].lcore_node, "port",
				     (int)l->mismatch[i].port, "port_node",
				     l->mismatch[i].port_node));
	return json_pack("{s:b,s:i,s:o,s:o,s:o}", "available", l->available,
			 "nodes", l->nb_nodes, "workers", w, "ports", p,
			 "cross_node", m);
}
