/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Many ports in one test (RFC 2889's traffic patterns): --ports lists the
 * test's ports, --mesh says who sends to whom, and every (source,
 * destination) pair gets streams of its own, so that what each pair lost
 * is exact.  Pure: the option values, the derivation of the pairs, the TX
 * and RX port lists, and the map from stream to pair.
 *
 * Streams are numbered source port by source port (in --ports order);
 * source i's streams are base_i .. base_i + C_i * m - 1, where C_i is
 * the sum of its pairs' weights (1 each, unless a test sets them: its
 * number of destinations) and m the streams a pair (--streams).  Its
 * local stream l falls at position l mod C_i of the cycle of its pairs,
 * each taking weight places in destination order.  With Q queues a
 * port's TX queue q sends its local streams q, q + Q, ...: an arithmetic
 * run, as every TX job's streams are; every stream gets the same rate.
 */
#ifndef NB_MESH_H
#define NB_MESH_H

#include <stddef.h>
#include <stdint.h>

#include "nb_config.h"
#include "nb_frame.h"

/* "pairs", "full", "one-to-many", "many-to-one", "backbone", "list" */
const char *nb_mesh_name(int kind);
/* RFC 2889's name for the pattern ("fully meshed", ...) */
const char *nb_mesh_rfc_name(int kind);

/* --ports LIST */
int nb_opt_ports(struct nb_config *cfg, const char *val, char *why,
		 size_t whylen);
/* --mesh full|pairs|one-to-many|many-to-one|backbone|S>D,S>D,... */
int nb_opt_mesh(struct nb_config *cfg, const char *val, char *why,
		size_t whylen);

/* --mesh-ports LIST (a responder's) */
int nb_opt_mesh_ports(struct nb_config *cfg, const char *val, char *why,
		      size_t whylen);
/* What --ports, --mesh and --mesh-ports go with in cfg->mode (a client's
 * first --ports becomes its --port, a responder's first --mesh-ports);
 * 0 or -EINVAL with the reason in err (nb_mesh_opts.c). */
int nb_mesh_opts_check(struct nb_config *cfg, char *err, size_t errlen);

/*
 * Once every option is in (a loopback test): the pairs, cfg->tx_ports
 * (the ports that send, in --ports order), cfg->rx_ports (those that
 * receive) and cfg->streams (pairs x --streams).  0 without --ports or
 * --mesh; -EINVAL with the reason in err.
 */
int nb_mesh_check(struct nb_config *cfg, char *err, size_t errlen);

/* From m's pairs (any order; sorted here): where each source's pairs and
 * streams begin, cfg->streams, and this process's TX and RX ports (those
 * not NB_MESH_REMOTE; across hosts every one of those receives). */
void nb_mesh_layout(struct nb_config *cfg);

/* The pair stream s belongs to (s < cfg->streams of a mesh test). */
uint32_t nb_mesh_stream_pair(const struct nb_mesh_cfg *m, uint32_t s);

/* The destination port's index (into m->ports) of stream s. */
uint16_t nb_mesh_stream_dst_index(const struct nb_mesh_cfg *m, uint32_t s);

/* The destination port id of stream s. */
uint16_t nb_mesh_stream_dst(const struct nb_mesh_cfg *m, uint32_t s);

/*
 * TX queue q (of nq) of source port index i (into m->ports): its first
 * stream, the stride and how many.  0 streams when the port sends none.
 */
void nb_mesh_job_streams(const struct nb_mesh_cfg *m, uint16_t i, uint32_t q,
			 uint32_t nq, uint32_t *first, uint32_t *stride,
			 uint32_t *count);

/*
 * A learning frame (RFC 2889's "learning frames"): to the broadcast MAC
 * from mac, in --vlan's VLAN when vlan_id is not 0, of EtherType 0x88b5
 * (IEEE 802 local experimental), padded to 60 bytes (64 on the wire).  A
 * switch learns mac on the port it came in by; its payload says what it
 * is.  The frame's length, or -1 when cap is short.
 */
#define NB_MESH_LEARN_ETHERTYPE 0x88b5
int nb_mesh_learn_frame(uint8_t *buf, size_t cap, const uint8_t mac[6],
			uint16_t vlan_id);

/* Is the len-byte frame p a learning frame (its EtherType, after a VLAN
 * tag or not)?  The receivers count these nowhere. */
static inline int
nb_mesh_is_learn(const uint8_t *p, uint32_t len)
{
	if (len >= 14 && nb_get_be16(p + 12) == NB_MESH_LEARN_ETHERTYPE)
		return 1;
	return len >= 18 && nb_get_be16(p + 12) == NB_ETHERTYPE_VLAN &&
	       nb_get_be16(p + 16) == NB_MESH_LEARN_ETHERTYPE;
}

/* The index into m->ports of port id, or -1. */
int nb_mesh_port_index(const struct nb_mesh_cfg *m, uint16_t port);

#endif /* NB_MESH_H */
