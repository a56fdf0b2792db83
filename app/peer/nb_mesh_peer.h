/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test of many ports across hosts in a peer session (core/
 * nb_mesh_hosts.h): the client joins the responder's offered ports to
 * its own and sends the mesh in PARAMS; each end runs its ports' jobs
 * (the other end's ports are remote) and reads its share of the pairs
 * (nb_mesh_end) before its jobs are freed; the responder ships its share
 * after its results blob, and the client merges both into the report's
 * mesh.
 */
#ifndef NB_MESH_PEER_H
#define NB_MESH_PEER_H

#include <stddef.h>

#include "nb_session.h"

/* Is this session's test a mesh across hosts? */
static inline int
nb_mesh_peer_on(const struct nb_peer *pr)
{
	return pr->params.mesh.nb_ports != 0;
}

/* Client, after WELCOME: our ports' MACs and link speeds and the
 * responder's offer joined into the config's mesh.  0, or -EINVAL with
 * why. */
int nb_mesh_peer_join(struct nb_peer *pr, char *why, size_t len);
/* Client, after WELCOME: the mesh joined and written into p (streams,
 * direction; --rate N% resolved against the mesh's sending ports);
 * nothing without --ports.  0, or -EINVAL with why. */
int nb_mesh_peer_params(struct nb_peer *pr, struct nb_ctl_params *p, char *why,
			size_t len);
/* Either end, setting the test up: this end's mesh from PARAMS (the
 * responder checks the ports are those it offered).  0 or -EINVAL. */
int nb_mesh_peer_cfg(struct nb_peer *pr, const struct nb_ctl_params *p,
		     char *err, size_t errlen);
/* Of packets sent in all (PARAMS' count), how many are for our ports. */
uint64_t nb_mesh_peer_due(const struct nb_peer *pr, uint64_t packets);
/* After nb_run_collect, before the jobs are freed: this end's share. */
int nb_mesh_peer_read(struct nb_peer *pr);
/* Responder: its share after the results blob in pr->blob. */
int nb_mesh_peer_blob(struct nb_peer *pr);
/* Client: how many bytes of the responder's blob its share takes (0
 * without a mesh), and that share read from them (0 or -EPROTO). */
size_t nb_mesh_peer_tail(const struct nb_peer *pr);
int nb_mesh_peer_take(struct nb_peer *pr, const uint8_t *tail, size_t len);
/* Client: both shares into out->mesh (allocated here); 0 or -errno. */
int nb_mesh_peer_merge(struct nb_peer *pr, struct nb_result *out);
void nb_mesh_peer_free(struct nb_peer *pr);

#endif /* NB_MESH_PEER_H */
