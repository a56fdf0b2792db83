/* SPDX-License-Identifier: BSD-3-Clause */
/* A test of many ports across hosts: see nb_mesh_hosts.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_mesh.h"
#include "nb_mesh_hosts.h"

int
nb_mesh_join(struct nb_config *cfg, const struct nb_ctl_offer *o, char *err,
	     size_t errlen)
{
	struct nb_mesh_cfg *m = &cfg->mesh;
	uint16_t i;

	if (o->n == 0) {
		snprintf(err, errlen,
			 "the responder offers no ports to a mesh: start it "
			 "with --mesh-ports");
		return -EINVAL;
	}
	if (m->nb_local + o->n > NB_MESH_MAX_PORTS) {
		snprintf(err, errlen,
			 "the responder offers %u ports: with our %u the mesh "
			 "would have more than %d",
			 o->n, m->nb_local, NB_MESH_MAX_PORTS);
		return -EINVAL;
	}
	m->nb_ports = m->nb_local;
	for (i = 0; i < o->n; i++) {
		uint16_t k;

		for (k = 0; k < m->nb_local; k++)
			if (memcmp(o->port[i].mac, m->macs[k], 6) == 0) {
				snprintf(err, errlen,
					 "the responder's port %u has the MAC "
					 "of our port %u: a mesh needs each "
					 "port's own",
					 o->port[i].id, m->ports[k]);
				return -EINVAL;
			}
		m->ports[m->nb_ports] =
			(uint16_t)(NB_MESH_REMOTE | o->port[i].id);
		m->speed_mbps[m->nb_ports] = o->speed_mbps[i];
		memcpy(m->macs[m->nb_ports++], o->port[i].mac, 6);
	}
	/* derived again: --streams is per pair */
	if (m->per_pair)
		cfg->streams = m->per_pair;
	m->per_pair = 0;
	m->nb_pairs = 0;
	return nb_mesh_check(cfg, err, errlen);
}

void
nb_mesh_to_wire(const struct nb_mesh_cfg *m, int self, struct nb_ctl_mesh *w)
{
	uint16_t i, k;

	memset(w, 0, sizeof(*w));
	w->kind = (uint8_t)m->kind;
	w->nb_ports = (uint8_t)m->nb_ports;
	w->per_pair = (uint16_t)m->per_pair;
	for (i = 0; i < m->nb_ports; i++) {
		int remote = (m->ports[i] & NB_MESH_REMOTE) != 0;

		w->owner[i] = (uint8_t)(remote ? !self : self);
		w->port[i].id = (uint16_t)(m->ports[i] & ~NB_MESH_REMOTE);
		memcpy(w->port[i].mac, m->macs[i], 6);
	}
	for (k = 0; k < m->nb_pairs; k++)
		w->weight[m->pairs[k].src][m->pairs[k].dst] =
			m->pairs[k].weight;
}

void
nb_mesh_from_wire(struct nb_config *cfg, const struct nb_ctl_mesh *w, int self)
{
	struct nb_mesh_cfg *m = &cfg->mesh;
	uint16_t i, j;

	memset(m, 0, sizeof(*m));
	m->kind = w->kind;
	m->nb_ports = w->nb_ports;
	m->per_pair = w->per_pair;
	for (i = 0; i < w->nb_ports; i++) {
		int mine = w->owner[i] == self;

		m->ports[i] = (uint16_t)(mine ? w->port[i].id
					      : NB_MESH_REMOTE | w->port[i].id);
		m->nb_local += mine;
		memcpy(m->macs[i], w->port[i].mac, 6);
		for (j = 0; j < w->nb_ports; j++)
			if (w->weight[i][j]) {
				m->pairs[m->nb_pairs].src = (uint8_t)i;
				m->pairs[m->nb_pairs].dst = (uint8_t)j;
				m->pairs[m->nb_pairs++].weight =
					w->weight[i][j];
			}
	}
	nb_mesh_layout(cfg);
}

int
nb_mesh_offer_is(const struct nb_ctl_mesh *w, int self,
		 const struct nb_ctl_offer *o, char *err, size_t errlen)
{
	unsigned int i, n = 0;

	if (o->n == 0) {
		snprintf(err, errlen,
			 "this responder offers no ports to a mesh "
			 "(--mesh-ports)");
		return -EINVAL;
	}
	for (i = 0; i < w->nb_ports; i++) {
		if (w->owner[i] != self)
			continue;
		if (n >= o->n || w->port[i].id != o->port[n].id ||
		    memcmp(w->port[i].mac, o->port[n].mac, 6) != 0) {
			snprintf(err, errlen,
				 "the mesh's port %u is not the port this "
				 "responder offered as its %u%s",
				 i, n + 1,
				 n == 0	  ? "st"
				 : n == 1 ? "nd"
					  : "th");
			return -EINVAL;
		}
		n++;
	}
	if (n != o->n) {
		snprintf(err, errlen,
			 "the mesh takes %u of the %u ports this responder "
			 "offers: all or none",
			 n, o->n);
		return -EINVAL;
	}
	return 0;
}

uint32_t
nb_mesh_local_mask(const struct nb_mesh_cfg *m)
{
	uint32_t mask = 0;
	uint16_t i;

	for (i = 0; i < m->nb_ports; i++)
		if (!(m->ports[i] & NB_MESH_REMOTE))
			mask |= 1u << i;
	return mask;
}

uint64_t
nb_mesh_line_bps(const struct nb_mesh_cfg *m, uint16_t *unknown)
{
	uint64_t bps = 0;
	uint16_t i;

	for (i = 0; i < m->nb_ports; i++) {
		if (m->nb_dst[i] == 0)
			continue; /* sends nothing */
		if (m->speed_mbps[i] == 0) {
			*unknown = m->ports[i];
			return 0;
		}
		bps += (uint64_t)m->speed_mbps[i] * 1000000;
	}
	return bps;
}

const char *
nb_mesh_host_of(uint16_t id)
{
	return id & NB_MESH_REMOTE ? "responder" : "client";
}

const char *
nb_mesh_port_label(uint16_t id, char *buf, size_t len)
{
	if (id & NB_MESH_REMOTE)
		snprintf(buf, len, "r%u", id & ~NB_MESH_REMOTE);
	else
		snprintf(buf, len, "%u", id);
	return buf;
}
