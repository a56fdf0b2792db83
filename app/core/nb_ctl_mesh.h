/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control protocol's fields of a test of many ports across hosts
 * (since version 11): the ports each end offers (HELLO, WELCOME) and the
 * mesh a client asks for (PARAMS).  Part of nb_ctl.h's codec; the bytes
 * are in docs/protocol.md.  Pure.
 */
#ifndef NB_CTL_MESH_H
#define NB_CTL_MESH_H

#include <stdint.h>

#define NB_CTL_MESH_PORTS 16 /* ports of a mesh (NB_MESH_MAX_PORTS) */
#define NB_CTL_MESH_PEERS 15 /* responders of a mesh (NB_MESH_MAX_PEERS) */
#define NB_CTL_OFFER_LEN  (2 + 12 * NB_CTL_MESH_PORTS) /* 194 */
#define NB_CTL_MESH_LEN                                                        \
	(4 + 10 * NB_CTL_MESH_PORTS +                                          \
	 NB_CTL_MESH_PORTS * NB_CTL_MESH_PORTS) /* 420 */

/* A port of a test of many ports: its id on its host and its MAC. */
struct nb_ctl_mesh_port {
	uint16_t id;
	uint8_t mac[6];
};

/*
 * The ports an end offers to a mesh (HELLO and WELCOME, since version
 * 11): n <= NB_CTL_MESH_PORTS (0: none), the first n with distinct ids
 * below 0x8000 and distinct unicast, nonzero MACs, and (since version
 * 12) each one's link speed in Mbit/s (0: the port reports none); the
 * unused slots zero on the wire.
 */
struct nb_ctl_offer {
	uint8_t n;
	struct nb_ctl_mesh_port port[NB_CTL_MESH_PORTS];
	uint32_t speed_mbps[NB_CTL_MESH_PORTS];
};

/*
 * PARAMS' test of many ports across hosts (since version 11; nb_ports 0:
 * none, then every field 0).  The mesh's ports in order (the client's
 * first), each with its owner (0 the client, 1..15 the responders in the
 * client's --peer order: each responder finds its number as the owner of
 * the MACs it offered), id on that host and MAC; weight[i][j] the
 * streams of pair i>j in units of per_pair (0: no pair).  Checked: kind
 * 1..6 (NB_MESH_*), nb_ports 2..16 with ports of the client and of each
 * of responders 1..R (R >= 1), distinct unicast nonzero MACs,
 * distinct ids below 0x8000 per owner, per_pair >= 1, no pair from a port to
 * itself or beyond nb_ports, and the streams (the weights' sum x per_pair)
 * equal to PARAMS' streams (so at least one pair); with it PARAMS is an
 * open-loop UDP test without probes (tcp 0, proto 17, latency_rate 0)
 * whose direction is nb_ctl_mesh_direction's; unused slots 0.
 */
struct nb_ctl_mesh {
	uint8_t kind;
	uint8_t nb_ports;
	uint16_t per_pair;
	uint8_t owner[NB_CTL_MESH_PORTS];
	struct nb_ctl_mesh_port port[NB_CTL_MESH_PORTS];
	uint8_t weight[NB_CTL_MESH_PORTS][NB_CTL_MESH_PORTS];
};

/* Who sends in mesh m: NB_CTL_DIR_FORWARD (the client's ports only),
 * REVERSE (responders' only) or BIDIR; PARAMS' direction must be it. */
int nb_ctl_mesh_direction(const struct nb_ctl_mesh *m);

/* Can o go on the wire (the checks above)?  1 or 0. */
int nb_ctl_offer_ok(const struct nb_ctl_offer *o);

#endif /* NB_CTL_MESH_H */
