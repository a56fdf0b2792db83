/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A client's sessions with a mesh's several responders (--peer IP,IP,...
 * with --ports): one session each, on the first session's control I/O
 * (the first of --ports), which also holds the test.  nb_session.c routes
 * each control datagram to the session of its source address; nb_client.c
 * and nb_client_run.c run each step of the protocol for every session.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_client_int.h"
#include "nb_log.h"
#include "nb_mesh_hosts.h"
#include "nb_mesh_peer.h"

/* The further sessions (the first is nb_client_main's). */
static struct nb_peer others[NB_MESH_MAX_PEERS - 1];

int
nb_client_group_open(struct nb_peer *pr, struct nb_peer **unanswered)
{
	const struct nb_config *cfg = &pr->app->cfg;
	uint16_t k;

	pr->mesh_owner = 1;
	for (k = 0; k < cfg->nb_more_peers; k++) {
		struct nb_peer *g = &others[k];

		memset(g, 0, sizeof(*g));
		nb_peer_join_io(g, pr);
		g->peer_ip = cfg->more_peers[k];
		g->mesh_owner = (uint16_t)(k + 2);
		pr->group[pr->nb_group++] = g;
	}
	/* each answers the ARP of its own address (nb_session.c) */
	for (k = 0; k < pr->nb_group; k++)
		if (nb_peer_resolve(pr->group[k]) != 0) {
			*unanswered = pr->group[k];
			return -ETIMEDOUT;
		}
	return 0;
}

int
nb_client_group_fetch(struct nb_peer *pr, struct nb_ctl_results_hdr *h,
		      struct nb_ctl_stream_res *res, uint32_t *n)
{
	const struct nb_config *cfg = &pr->app->cfg;
	unsigned int k, nb = nb_client_sessions(pr);
	struct nb_ctl_results_hdr *hs;
	struct nb_ctl_stream_res **rs;
	int ret = -ENOMEM;

	if (nb == 1)
		return nb_client_fetch(pr, h, res, n);
	hs = calloc(nb, sizeof(*hs));
	rs = calloc(nb, sizeof(*rs));
	for (k = 0; hs != NULL && rs != NULL && k < nb; k++) {
		uint32_t got = 0;

		rs[k] = calloc(cfg->streams, sizeof(**rs));
		if (rs[k] == NULL)
			break;
		ret = nb_client_fetch(nb_client_session_at(pr, k), &hs[k],
				      rs[k], &got);
		if (ret == 0 && got != cfg->streams)
			ret = -EPROTO;
		if (ret != 0)
			break;
	}
	if (ret == 0 && k == nb) {
		nb_mesh_results_combine(
			&cfg->mesh, cfg->streams, hs,
			(const struct nb_ctl_stream_res *const *)rs, nb, h,
			res);
		*n = cfg->streams;
	} else if (ret == 0) {
		ret = -ENOMEM;
	}
	for (k = 0; rs != NULL && k < nb; k++)
		free(rs[k]);
	free(rs);
	free(hs);
	return ret;
}
