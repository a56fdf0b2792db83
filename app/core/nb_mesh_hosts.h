/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test of many ports across hosts: a client's --ports and a
 * responder's --mesh-ports are one mesh.  The client joins the ports the
 * responder offers (WELCOME) to its own, derives the pairs and writes the
 * mesh into PARAMS; each end reads it back from PARAMS into its config,
 * where the other end's ports are NB_MESH_REMOTE (no jobs, frames to
 * their MAC).  Pure.
 */
#ifndef NB_MESH_HOSTS_H
#define NB_MESH_HOSTS_H

#include <stddef.h>
#include <stdint.h>

#include "nb_config.h"
#include "nb_ctl.h"

/* The ends' owner numbers on the wire: the client, and the first of
 * (up to NB_MESH_MAX_PEERS) responders. */
#define NB_MESH_CLIENT	  0
#define NB_MESH_RESPONDER 1

/*
 * Client, after the WELCOMEs: the mesh is its --ports (m->nb_local of
 * them, first, their MACs in m->macs) then the ports each responder
 * offers (o[k] for the (k+1)-th --peer, checked: ids below
 * NB_MESH_ID_MAX, no MAC twice), and --mesh's pairs among them (again for
 * each session: --streams stays per pair).  0, or -EINVAL with the
 * reason in err.
 */
int nb_mesh_join(struct nb_config *cfg, const struct nb_ctl_offer *const *o,
		 unsigned int nb_offers, char *err, size_t errlen);
/* A client's id for port id of responder owner (1..NB_MESH_MAX_PEERS). */
uint16_t nb_mesh_remote_id(unsigned int owner, uint16_t id);
/* Responder: its owner number in w, the owner of the port with its
 * offer's first MAC; -1 when none (a mesh without its ports). */
int nb_mesh_owner_in(const struct nb_ctl_mesh *w, const struct nb_ctl_offer *o);

/* The mesh as PARAMS carries it, from end self's config (m->macs holds
 * every port's MAC). */
void nb_mesh_to_wire(const struct nb_mesh_cfg *m, int self,
		     struct nb_ctl_mesh *w);

/*
 * End self's config from PARAMS' mesh w (checked by the codec): its own
 * ports by id, the other end's as NB_MESH_REMOTE | id, every MAC, the
 * pairs and the layout (nb_mesh_layout).  The responder first checks the
 * ports w gives it are its offer (nb_mesh_offer_is).
 */
void nb_mesh_from_wire(struct nb_config *cfg, const struct nb_ctl_mesh *w,
		       int self);

/* Are end self's ports in w exactly the offer o, in its order?  0, or
 * -EINVAL with the difference in err. */
int nb_mesh_offer_is(const struct nb_ctl_mesh *w, int self,
		     const struct nb_ctl_offer *o, char *err, size_t errlen);

/* A port's id on its own host (the JSON reports' "port", "src", "dst"). */
static inline uint16_t
nb_mesh_port_id(uint16_t id)
{
	return id & NB_MESH_REMOTE ? (uint16_t)(id & (NB_MESH_ID_MAX - 1)) : id;
}

/* Client: bit i set when m->ports[i] is owner's (0 its own, 1.. the
 * responders in --peer's order). */
uint32_t nb_mesh_owner_mask(const struct nb_mesh_cfg *m, unsigned int owner);
/*
 * Client, a mesh of n responders: their results (h[k], res[k] of the
 * (k+1)-th) as one responder's, for the report: each stream's sending
 * counts from the responder that owns its source port, its receiving
 * counts (latency included) from the one that owns its destination;
 * the longer times, the sums of drops and strays.  The port counters,
 * CPU and impairment are the first responder's.
 */
void nb_mesh_results_combine(const struct nb_mesh_cfg *m, uint32_t streams,
			     const struct nb_ctl_results_hdr *h,
			     const struct nb_ctl_stream_res *const *res,
			     unsigned int n, struct nb_ctl_results_hdr *out_h,
			     struct nb_ctl_stream_res *out);

/* Bit i set: m->ports[i] is this process's. */
uint32_t nb_mesh_local_mask(const struct nb_mesh_cfg *m);

/* "3" for this host's port 3, "r3" for the (first) responder's, "r2.3"
 * for the second's (buf >= 12). */
const char *nb_mesh_port_label(uint16_t id, char *buf, size_t len);
/* The line rate of the mesh's sending ports in bit/s: what --rate N% and
 * a suite's ceiling are of.  0 with *unknown the first of them whose
 * link speed is not known. */
uint64_t nb_mesh_line_bps(const struct nb_mesh_cfg *m, uint16_t *unknown);
/* Across hosts, in the reports: which end's port ("client", "responder"
 * for the first --peer, "responder2" for the second; buf >= 16). */
const char *nb_mesh_host_of(uint16_t id, char *buf, size_t len);

#endif /* NB_MESH_HOSTS_H */
