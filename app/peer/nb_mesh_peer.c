/* SPDX-License-Identifier: BSD-3-Clause */
/* A test of many ports across hosts in a peer session: see nb_mesh_peer.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_log.h"
#include "nb_mesh.h"
#include "nb_mesh_hosts.h"
#include "nb_mesh_merge.h"
#include "nb_mesh_peer.h"
#include "nb_mesh_run.h"
#include "nb_pacer.h"
#include "nb_run.h"

int
nb_mesh_peer_join(struct nb_peer *pr, char *why, size_t len)
{
	struct nb_app *app = pr->app;
	struct nb_config *cfg = &app->cfg;
	uint16_t i;

	const struct nb_ctl_offer *offers[NB_MESH_MAX_PEERS];

	/* our ports were set up in --ports order */
	for (i = 0; i < cfg->mesh.nb_local; i++) {
		memcpy(cfg->mesh.macs[i], app->ports[i].desc.mac, 6);
		cfg->mesh.speed_mbps[i] = app->ports[i].desc.link_speed;
	}
	/* the responders in --peer's order: owners 1..R */
	offers[0] = &pr->theirs.offer;
	for (i = 0; i < pr->nb_group; i++)
		offers[i + 1] = &pr->group[i]->theirs.offer;
	return nb_mesh_join(cfg, offers, 1u + pr->nb_group, why, len) != 0
		       ? -EINVAL
		       : 0;
}

/* --rate N%: of the line rate of the mesh's sending ports, both ends'
 * (a suite's trials come with their rates). */
static int
mesh_rate(struct nb_peer *pr, struct nb_ctl_params *p, char *why, size_t len)
{
	struct nb_app *app = pr->app;
	uint16_t unknown = 0;
	uint64_t bps;
	char name[8];

	if (pr->in_suite || app->cfg.rate.kind != NB_RATE_PERCENT)
		return 0;
	bps = nb_mesh_line_bps(&app->cfg.mesh, &unknown);
	if (bps == 0) {
		snprintf(why, len,
			 "--rate in percent needs every sending port's link "
			 "speed: port %s reports none (give bit/s or pps)",
			 nb_mesh_port_label(unknown, name, sizeof(name)));
		return -EINVAL;
	}
	if (nb_run_resolve(app, bps) != 0) {
		snprintf(why, len,
			 "cannot resolve --rate against the mesh's "
			 "line rate");
		return -EINVAL;
	}
	p->rate_num = app->rate.unlimited ? 0 : app->rate.pps_num;
	p->rate_den = app->rate.unlimited ? 1 : app->rate.pps_den;
	p->packets = app->total_packets;
	p->duration_ms = (uint64_t)(app->cfg.duration * 1000.0 + 0.5);
	return 0;
}

int
nb_mesh_peer_params(struct nb_peer *pr, struct nb_ctl_params *p, char *why,
		    size_t len)
{
	struct nb_config *cfg = &pr->app->cfg;

	if (cfg->mesh.nb_local == 0)
		return 0;
	if (nb_mesh_peer_join(pr, why, len) != 0 ||
	    mesh_rate(pr, p, why, len) != 0)
		return -EINVAL;
	nb_mesh_to_wire(&cfg->mesh, NB_MESH_CLIENT, &p->mesh);
	p->streams = cfg->streams;
	p->direction = (uint8_t)nb_ctl_mesh_direction(&p->mesh);
	p->latency_rate = 0;
	return 0;
}

int
nb_mesh_peer_cfg(struct nb_peer *pr, const struct nb_ctl_params *p, char *err,
		 size_t errlen)
{
	struct nb_config *cfg = &pr->app->cfg;
	int self = NB_MESH_CLIENT;

	/* the client names MACs for its ports that no cookie proves are
	 * its own: only a key holder may point this responder's frames at
	 * them */
	if (!pr->client && cfg->no_auth) {
		snprintf(
			err, errlen,
			"a mesh sends to MACs the client names: this responder "
			"takes one from key holders only (not with --no-auth)");
		return -EINVAL;
	}
	if (!pr->client) {
		/* which responder of the mesh this one is: the owner of the
		 * ports it offered */
		self = nb_mesh_owner_in(&p->mesh, &pr->mine.offer);
		if (self < 0) {
			snprintf(err, errlen,
				 "the mesh has none of the ports this "
				 "responder offers (--mesh-ports)");
			return -EINVAL;
		}
		if (nb_mesh_offer_is(&p->mesh, self, &pr->mine.offer, err,
				     errlen) != 0)
			return -EINVAL;
	}
	nb_mesh_from_wire(cfg, &p->mesh, self);
	/* each pair's frames go to its destination port's MAC */
	cfg->have_dst_mac = 0;
	return 0;
}

uint64_t
nb_mesh_peer_due(const struct nb_peer *pr, uint64_t packets)
{
	const struct nb_config *cfg = &pr->app->cfg;
	uint64_t due = 0;
	uint32_t s;

	/* each stream's share of the count, as the senders' plan splits it */
	for (s = 0; s < cfg->streams; s++)
		if (!(nb_mesh_stream_dst(&cfg->mesh, s) & NB_MESH_REMOTE))
			due += nb_split_count(packets, cfg->streams, s);
	return due;
}

int
nb_mesh_peer_read(struct nb_peer *pr)
{
	if (!nb_mesh_peer_on(pr))
		return 0;
	if (pr->mesh_end == NULL)
		pr->mesh_end = malloc(sizeof(*pr->mesh_end));
	if (pr->mesh_end == NULL)
		return -ENOMEM;
	return nb_mesh_read_end(pr->app, nb_mesh_local_mask(&pr->app->cfg.mesh),
				pr->mesh_end);
}

int
nb_mesh_peer_blob(struct nb_peer *pr)
{
	const struct nb_mesh_cfg *m = &pr->app->cfg.mesh;
	size_t add;
	uint8_t *b;

	if (!nb_mesh_peer_on(pr))
		return 0;
	if (pr->mesh_end == NULL)
		return -ENOMEM;
	add = nb_mesh_end_size(m->nb_pairs, m->nb_ports);
	b = realloc(pr->blob, pr->blob_len + add);
	if (b == NULL)
		return -ENOMEM;
	pr->blob = b;
	nb_mesh_end_write(pr->mesh_end, m->nb_ports, b + pr->blob_len, add);
	pr->blob_len += add;
	return 0;
}

size_t
nb_mesh_peer_tail(const struct nb_peer *pr)
{
	const struct nb_mesh_cfg *m = &pr->app->cfg.mesh;

	return nb_mesh_peer_on(pr) ? nb_mesh_end_size(m->nb_pairs, m->nb_ports)
				   : 0;
}

int
nb_mesh_peer_take(struct nb_peer *pr, const uint8_t *tail, size_t len)
{
	const struct nb_mesh_cfg *m = &pr->app->cfg.mesh;

	if (pr->peer_end == NULL)
		pr->peer_end = malloc(sizeof(*pr->peer_end));
	if (pr->peer_end == NULL)
		return -ENOMEM;
	/* the ports of this session's responder */
	return nb_mesh_end_read(
		tail, len, m,
		nb_mesh_owner_mask(m, pr->mesh_owner ? pr->mesh_owner : 1u),
		pr->peer_end);
}

int
nb_mesh_peer_merge(struct nb_peer *pr, struct nb_result *out)
{
	struct nb_mesh_end *ends;
	char why[160];
	uint16_t k;
	int rc;

	if (!nb_mesh_peer_on(pr))
		return 0;
	if (pr->mesh_end == NULL || pr->peer_end == NULL)
		return -EPROTO;
	for (k = 0; k < pr->nb_group; k++)
		if (pr->group[k]->peer_end == NULL)
			return -EPROTO;
	/* ours, then each responder's */
	ends = malloc((2u + pr->nb_group) * sizeof(*ends));
	if (out->mesh == NULL)
		out->mesh = malloc(sizeof(*out->mesh));
	if (ends == NULL || out->mesh == NULL) {
		free(ends);
		return -ENOMEM;
	}
	ends[0] = *pr->mesh_end;
	ends[1] = *pr->peer_end;
	for (k = 0; k < pr->nb_group; k++)
		ends[2 + k] = *pr->group[k]->peer_end;
	rc = nb_mesh_merge(&pr->app->cfg.mesh, ends, 2u + pr->nb_group,
			   out->mesh, why, sizeof(why));
	if (rc != 0) {
		NB_LOG(ERR, "mesh: %s", why);
		free(out->mesh); /* no half-made pairs in the report */
		out->mesh = NULL;
	}
	free(ends);
	return rc;
}

void
nb_mesh_peer_free(struct nb_peer *pr)
{
	uint16_t k;

	free(pr->mesh_end);
	free(pr->peer_end);
	pr->mesh_end = pr->peer_end = NULL;
	for (k = 0; k < pr->nb_group; k++)
		nb_mesh_peer_free(pr->group[k]);
}
