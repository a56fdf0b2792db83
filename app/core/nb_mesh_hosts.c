/* SPDX-License-Identifier: BSD-3-Clause */
/* A test of many ports across hosts: see nb_mesh_hosts.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_mesh.h"
#include "nb_mesh_hosts.h"

/* Responder k's (1-based) offer o appended to m: 0, or -EINVAL with why. */
static int
join_offer(struct nb_mesh_cfg *m, unsigned int k, unsigned int nb_offers,
	   const struct nb_ctl_offer *o, char *err, size_t errlen)
{
	char who[48];
	uint16_t i, j;

	if (nb_offers > 1)
		snprintf(who, sizeof(who), "responder %u (--peer's %u%s)", k, k,
			 k == 1	  ? "st"
			 : k == 2 ? "nd"
			 : k == 3 ? "rd"
				  : "th");
	else
		snprintf(who, sizeof(who), "the responder");
	if (o->n == 0) {
		snprintf(err, errlen,
			 "%s offers no ports to a mesh: start it with "
			 "--mesh-ports",
			 who);
		return -EINVAL;
	}
	if (m->nb_ports + o->n > NB_MESH_MAX_PORTS) {
		snprintf(err, errlen,
			 "%s offers %u ports: with the %u before them the "
			 "mesh would have more than %d",
			 who, o->n, m->nb_ports, NB_MESH_MAX_PORTS);
		return -EINVAL;
	}
	for (i = 0; i < o->n; i++) {
		if (o->port[i].id >= NB_MESH_ID_MAX) {
			snprintf(err, errlen,
				 "%s offers port id %u: a mesh's port ids are "
				 "below %u",
				 who, o->port[i].id, NB_MESH_ID_MAX);
			return -EINVAL;
		}
		for (j = 0; j < m->nb_ports; j++)
			if (memcmp(o->port[i].mac, m->macs[j], 6) == 0) {
				char a[12], b[12];

				snprintf(err, errlen,
					 "%s's port %u has the MAC of port %s "
					 "(%s): a mesh needs each port's own",
					 who, o->port[i].id,
					 nb_mesh_port_label(m->ports[j], a,
							    sizeof(a)),
					 nb_mesh_host_of(m->ports[j], b,
							 sizeof(b)));
				return -EINVAL;
			}
		m->ports[m->nb_ports] = nb_mesh_remote_id(k, o->port[i].id);
		m->speed_mbps[m->nb_ports] = o->speed_mbps[i];
		memcpy(m->macs[m->nb_ports++], o->port[i].mac, 6);
	}
	return 0;
}

int
nb_mesh_join(struct nb_config *cfg, const struct nb_ctl_offer *const *o,
	     unsigned int nb_offers, char *err, size_t errlen)
{
	struct nb_mesh_cfg *m = &cfg->mesh;
	unsigned int k;

	m->nb_ports = m->nb_local;
	for (k = 0; k < nb_offers; k++)
		if (join_offer(m, k + 1, nb_offers, o[k], err, errlen) != 0)
			return -EINVAL;
	/* derived again: --streams is per pair */
	if (m->per_pair)
		cfg->streams = m->per_pair;
	m->per_pair = 0;
	m->nb_pairs = 0;
	return nb_mesh_check(cfg, err, errlen);
}

uint16_t
nb_mesh_remote_id(unsigned int owner, uint16_t id)
{
	return (uint16_t)(NB_MESH_REMOTE |
			  ((owner ? owner - 1u : 0u) << NB_MESH_HOST_SHIFT) |
			  (id & (NB_MESH_ID_MAX - 1)));
}

/* The owner number of a client's port id (0 its own). */
static unsigned int
owner_of(uint16_t id)
{
	return id & NB_MESH_REMOTE ? 1u + ((id >> NB_MESH_HOST_SHIFT) & 15u)
				   : 0u;
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

		/* a client's view: the responders by number; a responder's
		 * (tests of the codec) names the other end the client */
		w->owner[i] =
			(uint8_t)(self == NB_MESH_CLIENT ? owner_of(m->ports[i])
				  : remote ? (unsigned int)NB_MESH_CLIENT
					   : (unsigned int)self);
		w->port[i].id =
			(uint16_t)(remote ? m->ports[i] & (NB_MESH_ID_MAX - 1)
					  : m->ports[i]);
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

		m->ports[i] =
			mine ? w->port[i].id
			     : nb_mesh_remote_id(w->owner[i], w->port[i].id);
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
nb_mesh_owner_in(const struct nb_ctl_mesh *w, const struct nb_ctl_offer *o)
{
	unsigned int i;

	for (i = 0; o->n > 0 && i < w->nb_ports; i++)
		if (w->owner[i] != NB_MESH_CLIENT &&
		    memcmp(w->port[i].mac, o->port[0].mac, 6) == 0)
			return w->owner[i];
	return -1;
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
nb_mesh_host_of(uint16_t id, char *buf, size_t len)
{
	unsigned int k = owner_of(id);

	if (k == 0)
		snprintf(buf, len, "client");
	else if (k == 1)
		snprintf(buf, len, "responder");
	else
		snprintf(buf, len, "responder%u", k);
	return buf;
}

const char *
nb_mesh_port_label(uint16_t id, char *buf, size_t len)
{
	unsigned int k = owner_of(id);

	if (k == 0)
		snprintf(buf, len, "%u", id);
	else if (k == 1)
		snprintf(buf, len, "r%u", id & (NB_MESH_ID_MAX - 1));
	else
		snprintf(buf, len, "r%u.%u", k, id & (NB_MESH_ID_MAX - 1));
	return buf;
}

uint32_t
nb_mesh_owner_mask(const struct nb_mesh_cfg *m, unsigned int owner)
{
	uint32_t mask = 0;
	uint16_t i;

	for (i = 0; i < m->nb_ports; i++)
		if (owner_of(m->ports[i]) == owner)
			mask |= 1u << i;
	return mask;
}

/* From one responder's counts of stream s: what it sent, or what it
 * received. */
static void
take_tx(struct nb_ctl_stream_res *o, const struct nb_ctl_stream_res *r)
{
	o->tx_pkts = r->tx_pkts;
	o->tx_bytes = r->tx_bytes;
}

static void
take_rx(struct nb_ctl_stream_res *o, const struct nb_ctl_stream_res *r)
{
	struct nb_ctl_stream_res keep = *o;

	*o = *r;
	take_tx(o, &keep);
}

void
nb_mesh_results_combine(const struct nb_mesh_cfg *m, uint32_t streams,
			const struct nb_ctl_results_hdr *h,
			const struct nb_ctl_stream_res *const *res,
			unsigned int n, struct nb_ctl_results_hdr *out_h,
			struct nb_ctl_stream_res *out)
{
	unsigned int k;
	uint32_t s;

	*out_h = h[0];
	for (k = 1; k < n; k++) {
		if (h[k].tx_seconds_ns > out_h->tx_seconds_ns)
			out_h->tx_seconds_ns = h[k].tx_seconds_ns;
		if (h[k].rx_seconds_ns > out_h->rx_seconds_ns)
			out_h->rx_seconds_ns = h[k].rx_seconds_ns;
		out_h->rx_foreign += h[k].rx_foreign;
		out_h->rx_warm += h[k].rx_warm;
		out_h->rx_bad_stream += h[k].rx_bad_stream;
		out_h->tx_dropped += h[k].tx_dropped;
	}
	for (s = 0; s < streams; s++) {
		const struct nb_mesh_pair *p =
			&m->pairs[nb_mesh_stream_pair(m, s)];
		unsigned int src = owner_of(m->ports[p->src]);
		unsigned int dst = owner_of(m->ports[p->dst]);

		memset(&out[s], 0, sizeof(out[s]));
		out[s].id = s;
		if (src >= 1 && src <= n)
			take_tx(&out[s], &res[src - 1][s]);
		if (dst >= 1 && dst <= n)
			take_rx(&out[s], &res[dst - 1][s]);
	}
}
