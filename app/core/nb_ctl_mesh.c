/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control protocol's fields of a test of many ports across hosts
 * (since version 11): the ports an end offers (HELLO, WELCOME) and the
 * mesh a client asks for (PARAMS): their checks, writers and readers,
 * called by nb_ctl_setup.c's bodies.
 */
#include <string.h>

#include "nb_config.h"
#include "nb_ctl.h"
#include "nb_ctl_mesh.h"
#include "nb_ctl_msgs.h"
#include "nb_ctl_wire.h"

_Static_assert(NB_CTL_MESH_PORTS == NB_MESH_MAX_PORTS,
	       "PARAMS carries every port a mesh can have");
_Static_assert(NB_CTL_MESH_PEERS == NB_MESH_MAX_PEERS,
	       "an owner byte names every responder a mesh can have");
_Static_assert(NB_CTL_OFFER_LEN ==
		       2 + NB_CTL_MESH_PORTS * (2 + 6) + NB_CTL_MESH_PORTS * 4,
	       "offer wire layout");
_Static_assert(NB_CTL_MESH_LEN == 1 + 1 + 2 +
					  NB_CTL_MESH_PORTS * (1 + 1 + 2 + 6) +
					  NB_CTL_MESH_PORTS * NB_CTL_MESH_PORTS,
	       "mesh wire layout");

static const uint8_t zero6[6];

/* a MAC a port's frames can come from: unicast, not zero */
static int
mac_ok(const uint8_t mac[6])
{
	return (mac[0] & 1) == 0 && memcmp(mac, zero6, 6) != 0;
}

/* n ports: valid MACs and ids, distinct MACs, and distinct ids among the
 * ports of one owner (owner NULL: all one host's). */
static int
ports_ok(const struct nb_ctl_mesh_port *p, unsigned int n, const uint8_t *owner)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		/* ids as DPDK's (< 0x8000: the top bit marks the other
		 * host's ports in a config, NB_MESH_REMOTE) */
		if (!mac_ok(p[i].mac) || p[i].id >= NB_MESH_REMOTE)
			return 0;
		for (j = 0; j < i; j++)
			if (memcmp(p[i].mac, p[j].mac, 6) == 0 ||
			    (p[i].id == p[j].id &&
			     (owner == NULL || owner[i] == owner[j])))
				return 0;
	}
	return 1;
}

int
nb_ctl_offer_ok(const struct nb_ctl_offer *o)
{
	return o->n <= NB_CTL_MESH_PORTS && ports_ok(o->port, o->n, NULL);
}

/* n u8, reserved u8 (0), NB_CTL_MESH_PORTS x (id u16, MAC), then
 * NB_CTL_MESH_PORTS x link speed u32 */
void
nb_ctl_offer_write(uint8_t **p, const struct nb_ctl_offer *o)
{
	unsigned int i;

	wr_u8(p, o->n);
	wr_u8(p, 0);
	for (i = 0; i < NB_CTL_MESH_PORTS; i++) {
		wr_u16(p, i < o->n ? o->port[i].id : 0);
		wr_bytes(p, i < o->n ? o->port[i].mac : zero6, 6);
	}
	for (i = 0; i < NB_CTL_MESH_PORTS; i++)
		wr_u32(p, i < o->n ? o->speed_mbps[i] : 0);
}

int
nb_ctl_offer_read(const uint8_t **p, struct nb_ctl_offer *o)
{
	unsigned int i;
	int ok;

	o->n = rd_u8(p);
	ok = rd_u8(p) == 0;
	for (i = 0; i < NB_CTL_MESH_PORTS; i++) {
		o->port[i].id = rd_u16(p);
		rd_bytes(p, o->port[i].mac, 6);
		if (i >= o->n && (o->port[i].id != 0 ||
				  memcmp(o->port[i].mac, zero6, 6) != 0))
			ok = 0;
	}
	for (i = 0; i < NB_CTL_MESH_PORTS; i++) {
		o->speed_mbps[i] = rd_u32(p);
		if (i >= o->n && o->speed_mbps[i] != 0)
			ok = 0;
	}
	return ok;
}

/* Which ends send: bit 0 the client, bit 1 a responder (any of them). */
static unsigned int
senders(const struct nb_ctl_mesh *m)
{
	unsigned int i, j, who = 0;

	for (i = 0; i < m->nb_ports; i++)
		for (j = 0; j < m->nb_ports; j++)
			if (m->weight[i][j])
				who |= m->owner[i] == 0 ? 1u : 2u;
	return who;
}

int
nb_ctl_mesh_direction(const struct nb_ctl_mesh *m)
{
	switch (senders(m)) {
	case 1:
		return NB_CTL_DIR_FORWARD;
	case 2:
		return NB_CTL_DIR_REVERSE;
	default:
		return NB_CTL_DIR_BIDIR;
	}
}

/* Every slot past what is used is zero (the decoder's canonical form). */
static int
mesh_zero_rest(const struct nb_ctl_mesh *m)
{
	unsigned int i, j;

	for (i = 0; i < NB_CTL_MESH_PORTS; i++) {
		if (i < m->nb_ports)
			continue;
		if (m->owner[i] != 0 || m->port[i].id != 0 ||
		    memcmp(m->port[i].mac, zero6, 6) != 0)
			return 0;
	}
	for (i = 0; i < NB_CTL_MESH_PORTS; i++)
		for (j = 0; j < NB_CTL_MESH_PORTS; j++)
			if ((i >= m->nb_ports || j >= m->nb_ports || i == j) &&
			    m->weight[i][j] != 0)
				return 0;
	return 1;
}

int
nb_ctl_mesh_ok(const struct nb_ctl_params *p)
{
	const struct nb_ctl_mesh *m = &p->mesh;
	unsigned int i, j, owners = 0;
	uint64_t streams = 0;

	if (m->nb_ports == 0)
		return m->kind == 0 && m->per_pair == 0 && mesh_zero_rest(m);
	if (m->kind < NB_MESH_PAIRS || m->kind > NB_MESH_LIST ||
	    m->nb_ports < 2 || m->nb_ports > NB_CTL_MESH_PORTS ||
	    m->per_pair < 1 || !mesh_zero_rest(m) ||
	    !ports_ok(m->port, m->nb_ports, m->owner))
		return 0;
	for (i = 0; i < m->nb_ports; i++) {
		if (m->owner[i] > NB_CTL_MESH_PEERS)
			return 0;
		owners |= 1u << m->owner[i];
		for (j = 0; j < m->nb_ports; j++)
			streams += (uint64_t)m->weight[i][j] * m->per_pair;
	}
	/* a mesh across hosts (the client and responders 1..R, each with
	 * ports), of UDP frames without probes */
	return owners >= 3 && (owners & (owners + 1)) == 0 &&
	       streams == p->streams && p->tcp == 0 &&
	       p->proto == NB_IPPROTO_UDP && p->latency_rate == 0 &&
	       p->direction == nb_ctl_mesh_direction(m);
}

/* kind u8, nb_ports u8, per_pair u16, NB_CTL_MESH_PORTS x (owner u8,
 * reserved u8, id u16, MAC), then the weights row by row */
void
nb_ctl_mesh_write(uint8_t **p, const struct nb_ctl_mesh *m)
{
	unsigned int i;

	wr_u8(p, m->kind);
	wr_u8(p, m->nb_ports);
	wr_u16(p, m->per_pair);
	for (i = 0; i < NB_CTL_MESH_PORTS; i++) {
		int used = i < m->nb_ports;

		wr_u8(p, used ? m->owner[i] : 0);
		wr_u8(p, 0);
		wr_u16(p, used ? m->port[i].id : 0);
		wr_bytes(p, used ? m->port[i].mac : zero6, 6);
	}
	for (i = 0; i < NB_CTL_MESH_PORTS; i++)
		wr_bytes(p, m->weight[i], NB_CTL_MESH_PORTS);
}

int
nb_ctl_mesh_read(const uint8_t **p, struct nb_ctl_mesh *m)
{
	unsigned int i;
	int ok = 1;

	m->kind = rd_u8(p);
	m->nb_ports = rd_u8(p);
	m->per_pair = rd_u16(p);
	for (i = 0; i < NB_CTL_MESH_PORTS; i++) {
		m->owner[i] = rd_u8(p);
		if (rd_u8(p) != 0)
			ok = 0;
		m->port[i].id = rd_u16(p);
		rd_bytes(p, m->port[i].mac, 6);
	}
	for (i = 0; i < NB_CTL_MESH_PORTS; i++)
		rd_bytes(p, m->weight[i], NB_CTL_MESH_PORTS);
	/* unused slots are zero: nb_ctl_mesh_ok checks every one (an
	 * encoder writes them so), and PARAMS' check calls it */
	return ok;
}
