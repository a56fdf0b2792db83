/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a test of many ports goes with, by mode: the loopback's (--ports
 * and --mesh on this process's ports), a client's (its --ports in a mesh
 * with a responder's, --peer) and a responder's (--mesh-ports, the ports
 * it offers).  Pure option checks (nb_mesh.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_mcast.h"
#include "nb_mesh.h"
#include "nb_options.h"

#define given(cfg, name) nb_option_given(cfg, name)

struct clash {
	const char *opt, *why;
};

/* The first option of list given: its refusal in err. */
static int
refuse_given(const struct nb_config *cfg, const struct clash *list, size_t n,
	     const char *what, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (given(cfg, list[i].opt)) {
			snprintf(err, errlen,
				 "%s cannot be combined with --%s (%s)", what,
				 list[i].opt, list[i].why);
			return -EINVAL;
		}
	return 0;
}

static int
check_loopback(const struct nb_config *cfg, char *err, size_t errlen)
{
	static const struct clash clash[] = {
		{"tx-port", "--ports lists every port of the test"},
		{"rx-port", "--ports lists every port of the test"},
		{"dst-mac", "each pair's frames go to its destination port's "
			    "MAC"},
		{"src-mac", "each port sends with its own MAC"},
		{"flows", "not yet with --ports"},
		{"replay", "a mesh sends the tool's own frames"},
		{"join", "a mesh sends unicast frames"},
		{"tcp", "a mesh is open-loop UDP"},
	};

	if (refuse_given(cfg, clash, sizeof(clash) / sizeof(clash[0]),
			 "--ports and --mesh", err, errlen) != 0)
		return -EINVAL;
	if (cfg->mesh.nb_ports == 1) {
		snprintf(err, errlen,
			 "a test of many ports takes 2 to %d ports, not 1 "
			 "(with --peer, a client's --ports may be one)",
			 NB_MESH_MAX_PORTS);
		return -EINVAL;
	}
	if (nb_mcast_fanout(cfg, NULL)) {
		snprintf(err, errlen,
			 "--ports and --mesh send unicast frames to each "
			 "destination port's MAC, not to a multicast --dst-ip");
		return -EINVAL;
	}
	return 0;
}

/* A client's ports in a mesh with the responder's (--peer --ports). */
static int
check_client(struct nb_config *cfg, char *err, size_t errlen)
{
	static const struct clash clash[] = {
		{"port", "the first of --ports carries the control protocol"},
		{"reverse", "the mesh says who sends"},
		{"bidir", "the mesh says who sends"},
		{"latency-rate", "every frame of a mesh carries its stamp"},
		{"pingpong", "a mesh is open-loop"},
		{"tcp", "a mesh is open-loop UDP"},
		{"replay", "a mesh sends the tool's own frames"},
		{"flows", "not yet with --ports"},
		{"dst-mac", "each pair's frames go to its destination port's "
			    "MAC"},
		{"src-mac", "each port sends with its own MAC"},
		{"msg-size", "a mesh is open-loop UDP"},
	};

	if (refuse_given(cfg, clash, sizeof(clash) / sizeof(clash[0]),
			 "--peer with --ports", err, errlen) != 0)
		return -EINVAL;
	if (cfg->mesh.kind == NB_MESH_LIST) {
		snprintf(err, errlen,
			 "--mesh S>D names the ports of one host: across hosts "
			 "give a pattern (full, pairs, one-to-many, "
			 "many-to-one, backbone)");
		return -EINVAL;
	}
	if (cfg->mesh.nb_ports == 0) {
		snprintf(err, errlen,
			 "--mesh with --peer needs --ports: this host's ports "
			 "in the mesh (the responder offers its own with "
			 "--mesh-ports)");
		return -EINVAL;
	}
	if (cfg->mesh.nb_ports + 1 + cfg->nb_more_peers > NB_MESH_MAX_PORTS) {
		snprintf(err, errlen,
			 "--ports lists %u ports: a mesh has at most %d, and "
			 "each responder offers at least one",
			 cfg->mesh.nb_ports, NB_MESH_MAX_PORTS);
		return -EINVAL;
	}
	if (cfg->nb_more_peers && (cfg->conf || cfg->quit)) {
		snprintf(err, errlen,
			 "--conf and --quit speak to one responder: give one "
			 "--peer address");
		return -EINVAL;
	}
	if (cfg->sweep.n && !cfg->suite) {
		snprintf(err, errlen,
			 "--peer with --ports runs one frame size (or mix), "
			 "not a sweep (a suite, --test, runs each size)");
		return -EINVAL;
	}
	if (cfg->mesh.kind == NB_MESH_NONE)
		cfg->mesh.kind = NB_MESH_FULL;
	cfg->port = cfg->mesh.ports[0];
	return 0;
}

int
nb_mesh_opts_check(struct nb_config *cfg, char *err, size_t errlen)
{
	int mesh = cfg->mesh.nb_ports || cfg->mesh.kind != NB_MESH_NONE;

	if (cfg->mode == NB_MODE_LOOPBACK && mesh)
		return check_loopback(cfg, err, errlen);
	if (cfg->mode == NB_MODE_CLIENT && mesh)
		return check_client(cfg, err, errlen);
	if (cfg->nb_more_peers) {
		snprintf(err, errlen,
			 "--peer with several addresses is a mesh across "
			 "hosts: it needs --ports (this host's ports in it)");
		return -EINVAL;
	}
	if (cfg->mode == NB_MODE_RESPONDER && cfg->nb_serve_ports) {
		if (given(cfg, "port")) {
			snprintf(err, errlen,
				 "--mesh-ports lists the responder's ports, "
				 "the first carrying the control protocol: "
				 "not with --port");
			return -EINVAL;
		}
		cfg->port = cfg->serve_ports[0];
	}
	return 0;
}
