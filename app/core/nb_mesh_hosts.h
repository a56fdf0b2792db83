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

/* The ends' owner numbers on the wire. */
#define NB_MESH_CLIENT	  0
#define NB_MESH_RESPONDER 1

/*
 * Client, after WELCOME: the mesh is its --ports (m->nb_local of them,
 * first, their MACs in m->macs) then the ports o offers (checked: none
 * with one of our MACs), and --mesh's pairs among them (again for each
 * session: --streams stays per pair).  0, or -EINVAL with the reason in
 * err.
 */
int nb_mesh_join(struct nb_config *cfg, const struct nb_ctl_offer *o, char *err,
		 size_t errlen);

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

/* Bit i set: m->ports[i] is this process's. */
uint32_t nb_mesh_local_mask(const struct nb_mesh_cfg *m);

/* "3" for this host's port 3, "r3" for the other host's (buf >= 8). */
const char *nb_mesh_port_label(uint16_t id, char *buf, size_t len);
/* The line rate of the mesh's sending ports in bit/s: what --rate N% and
 * a suite's ceiling are of.  0 with *unknown the first of them whose
 * link speed is not known. */
uint64_t nb_mesh_line_bps(const struct nb_mesh_cfg *m, uint16_t *unknown);
/* Across hosts, in the reports: which end's port ("client", "responder"). */
const char *nb_mesh_host_of(uint16_t id);

#endif /* NB_MESH_HOSTS_H */
