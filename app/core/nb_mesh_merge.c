/* SPDX-License-Identifier: BSD-3-Clause */
/* A test of many ports from its ends' counts: see nb_mesh_merge.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_ctl_wire.h"
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
		out->across |= (m->ports[i] & NB_MESH_REMOTE) != 0;
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

#define END_HDR	 12
#define END_PAIR (12 * 8)

size_t
nb_mesh_end_size(uint16_t nb_pairs, uint16_t nb_ports)
{
	return END_HDR + (size_t)nb_pairs * END_PAIR + (size_t)nb_ports * 8;
}

int
nb_mesh_end_write(const struct nb_mesh_end *e, uint16_t nb_ports, uint8_t *buf,
		  size_t len)
{
	uint8_t *p = buf;
	uint16_t k, i;

	if (len < nb_mesh_end_size(e->nb_pairs, nb_ports))
		return -ENOSPC;
	wr_u32(&p, NB_MESH_END_MAGIC);
	wr_u32(&p, e->owned);
	wr_u16(&p, e->nb_pairs);
	wr_u16(&p, nb_ports);
	for (k = 0; k < e->nb_pairs; k++) {
		const struct nb_mesh_end_pair *q = &e->pairs[k];
		double ps = q->lat_mean * 1000.0;

		/* a mean rounded past its extremes (sums above 2^53 ns)
		 * goes back within them */
		if (q->lat_n && ps < q->lat_min * 1000.0)
			ps = q->lat_min * 1000.0;
		if (q->lat_n && ps > q->lat_max * 1000.0)
			ps = q->lat_max * 1000.0;

		wr_u64(&p, q->sent);
		wr_u64(&p, q->received);
		wr_u64(&p, q->unique);
		wr_u64(&p, q->out_of_order);
		wr_u64(&p, q->duplicates);
		wr_u64(&p, q->elsewhere);
		wr_u64(&p, q->lat_n);
		wr_u64(&p, q->lat_min);
		wr_u64(&p, q->lat_p50);
		wr_u64(&p, q->lat_p99);
		wr_u64(&p, q->lat_max);
		wr_u64(&p, ps > 0 && ps < 1.8e19 ? (uint64_t)ps : 0);
	}
	for (i = 0; i < nb_ports; i++)
		wr_u64(&p, e->foreign[i]);
	return 0;
}

/* Pair q as an end owning its source (src) and/or destination (dst) can
 * have counted it. */
static int
pair_ok(const struct nb_mesh_end_pair *q, int src, int dst)
{
	if (!src && q->sent != 0)
		return 0;
	if (!dst && (q->received | q->unique | q->out_of_order | q->duplicates |
		     q->lat_n) != 0)
		return 0;
	if (q->unique > q->received)
		return 0;
	if (q->lat_n == 0)
		return (q->lat_min | q->lat_p50 | q->lat_p99 | q->lat_max) ==
			       0 &&
		       q->lat_mean == 0;
	return q->lat_min <= q->lat_p50 && q->lat_p50 <= q->lat_p99 &&
	       q->lat_p99 <= q->lat_max && q->lat_mean >= q->lat_min &&
	       q->lat_mean <= q->lat_max;
}

int
nb_mesh_end_read(const uint8_t *buf, size_t len, const struct nb_mesh_cfg *m,
		 uint32_t owned, struct nb_mesh_end *e)
{
	const uint8_t *p = buf;
	uint16_t k, i;

	if (len != nb_mesh_end_size(m->nb_pairs, m->nb_ports) ||
	    rd_u32(&p) != NB_MESH_END_MAGIC)
		return -EPROTO;
	memset(e, 0, sizeof(*e));
	e->owned = rd_u32(&p);
	e->nb_pairs = rd_u16(&p);
	if (e->owned != owned || e->nb_pairs != m->nb_pairs ||
	    rd_u16(&p) != m->nb_ports)
		return -EPROTO;
	for (k = 0; k < e->nb_pairs; k++) {
		struct nb_mesh_end_pair *q = &e->pairs[k];

		q->sent = rd_u64(&p);
		q->received = rd_u64(&p);
		q->unique = rd_u64(&p);
		q->out_of_order = rd_u64(&p);
		q->duplicates = rd_u64(&p);
		q->elsewhere = rd_u64(&p);
		q->lat_n = rd_u64(&p);
		q->lat_min = rd_u64(&p);
		q->lat_p50 = rd_u64(&p);
		q->lat_p99 = rd_u64(&p);
		q->lat_max = rd_u64(&p);
		q->lat_mean = (double)rd_u64(&p) / 1000.0;
		if (!pair_ok(q, nb_mesh_end_owns(e, m->pairs[k].src),
			     nb_mesh_end_owns(e, m->pairs[k].dst)))
			return -EPROTO;
	}
	for (i = 0; i < m->nb_ports; i++) {
		e->foreign[i] = rd_u64(&p);
		if (!nb_mesh_end_owns(e, i) && e->foreign[i] != 0)
			return -EPROTO;
	}
	return 0;
}
