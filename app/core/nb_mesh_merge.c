/* SPDX-License-Identifier: BSD-3-Clause */
/* A test of many ports from its ends' counts: see nb_mesh_merge.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_mesh_merge.h"

/* The end owning port index i (checked to be one). */
static const struct nb_mesh_end *
owner(const struct nb_mesh_end *ends, unsigned int n, uint16_t i)
{
	unsigned int e;

	for (e = 0; e < n; e++)
		if (nb_mesh_end_owns(&ends[e], i))
			return &ends[e];
	return NULL;
}

static int
check_ends(const struct nb_mesh_cfg *m, const struct nb_mesh_end *ends,
	   unsigned int n, char *err, size_t errlen)
{
	uint32_t all =
		m->nb_ports >= 32 ? 0xffffffffu : (1u << m->nb_ports) - 1u;
	uint32_t seen = 0;
	unsigned int e;

	if (n == 0) {
		snprintf(err, errlen, "no end counted the mesh");
		return -EINVAL;
	}
	for (e = 0; e < n; e++) {
		if (ends[e].nb_pairs != m->nb_pairs) {
			snprintf(err, errlen,
				 "end %u counted %u pairs, the mesh has %u", e,
				 ends[e].nb_pairs, m->nb_pairs);
			return -EINVAL;
		}
		if ((ends[e].owned & ~all) != 0 || (ends[e].owned & seen)) {
			snprintf(err, errlen,
				 "end %u claims a port that is not the mesh's "
				 "or is another end's",
				 e);
			return -EINVAL;
		}
		seen |= ends[e].owned;
	}
	if (seen != all) {
		snprintf(err, errlen, "a port of the mesh is no end's");
		return -EINVAL;
	}
	return 0;
}

int
nb_mesh_merge(const struct nb_mesh_cfg *m, const struct nb_mesh_end *ends,
	      unsigned int nb_ends, struct nb_mesh_result *out, char *err,
	      size_t errlen)
{
	uint32_t k;
	uint16_t i;
	unsigned int e;

	if (check_ends(m, ends, nb_ends, err, errlen) != 0)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->kind = m->kind;
	out->per_pair = m->per_pair;
	out->nb_pairs = m->nb_pairs;
	out->nb_ports = m->nb_ports;
	for (i = 0; i < m->nb_ports; i++) {
		out->ports[i].port = m->ports[i];
		out->ports[i].foreign = owner(ends, nb_ends, i)->foreign[i];
	}
	for (k = 0; k < m->nb_pairs; k++) {
		uint16_t src = m->pairs[k].src, dst = m->pairs[k].dst;
		const struct nb_mesh_end_pair *s =
			&owner(ends, nb_ends, src)->pairs[k];
		const struct nb_mesh_end_pair *d =
			&owner(ends, nb_ends, dst)->pairs[k];
		struct nb_mesh_pair_result *p = &out->pairs[k];

		p->src = m->ports[src];
		p->dst = m->ports[dst];
		p->sent = s->sent;
		p->received = d->received;
		p->unique = d->unique;
		p->out_of_order = d->out_of_order;
		p->duplicates = d->duplicates;
		p->lost = p->sent > p->unique ? p->sent - p->unique : 0;
		for (e = 0; e < nb_ends; e++)
			p->elsewhere += ends[e].pairs[k].elsewhere;
		p->lat_n = d->lat_n;
		p->lat_min = d->lat_min;
		p->lat_p50 = d->lat_p50;
		p->lat_p99 = d->lat_p99;
		p->lat_max = d->lat_max;
		p->lat_mean = d->lat_mean;
		out->ports[src].sent += p->sent;
		out->ports[dst].received += p->unique;
		out->ports[dst].lost_in += p->lost;
	}
	return 0;
}
