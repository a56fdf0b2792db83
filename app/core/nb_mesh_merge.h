/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test of many ports, counted end by end: each end of the test (the
 * loopback process today; the client and each responder of a mesh
 * across hosts) owns some of the mesh's ports and measures each pair
 * where it can see it: what a pair sent at its source's end, what
 * reached it at its destination's end (with its latency there), and what
 * any of an end's other ports took in of it (flooded or misdirected).
 * nb_mesh_merge puts the ends together into the test's nb_mesh_result.
 * Pure: numbers in, numbers out.
 */
#ifndef NB_MESH_MERGE_H
#define NB_MESH_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "nb_config.h"
#include "nb_result.h"

/* Pair k as one end saw it (zero where the end does not own the port). */
struct nb_mesh_end_pair {
	uint64_t sent; /* from its source port, measured phase */
	/* at its destination port: every copy, distinct frames, order */
	uint64_t received, unique, out_of_order, duplicates;
	uint64_t lat_n, lat_min, lat_p50, lat_p99, lat_max; /* ns */
	double lat_mean;
	uint64_t elsewhere; /* its frames taken in by the end's other ports */
};

struct nb_mesh_end {
	uint32_t owned; /* bit i: the mesh's port i (m->ports[i]) is ours */
	uint16_t nb_pairs;
	struct nb_mesh_end_pair pairs[NB_MESH_MAX_PAIRS];
	/* at each owned port: frames of pairs to other ports it took in */
	uint64_t foreign[NB_MESH_MAX_PORTS];
};

/* Is the mesh's port index i owned by e? */
static inline int
nb_mesh_end_owns(const struct nb_mesh_end *e, uint16_t i)
{
	return i < 32 && (e->owned >> i & 1u) != 0;
}

/*
 * The test's result from its ends (in any order): every port of m owned
 * by exactly one end, every end counting m's pairs.  Pair k's sent comes
 * from its source's owner, its arrivals and latency from its
 * destination's owner, its elsewhere is the sum over the ends; the
 * ports' totals follow from the pairs.  0, or -EINVAL with the reason in
 * err (out then unset).  The ports' foreign come from their owners.
 */
int nb_mesh_merge(const struct nb_mesh_cfg *m, const struct nb_mesh_end *ends,
		  unsigned int nb_ends, struct nb_mesh_result *out, char *err,
		  size_t errlen);

/*
 * An end's share on the wire (a responder's, after its results blob):
 *   0  magic "NBME" u32, owned u32, nb_pairs u16, nb_ports u16
 *  12  per pair: sent, received, unique, out_of_order, duplicates,
 *      elsewhere, lat_n, lat_min, lat_p50, lat_p99, lat_max, lat_mean in
 *      ps (12 x u64)
 *      then per port: foreign u64
 * Big endian, as the control protocol.
 */
#define NB_MESH_END_MAGIC 0x4E424D45u /* "NBME" */
size_t nb_mesh_end_size(uint16_t nb_pairs, uint16_t nb_ports);
/* 0, or -ENOSPC when len is short. */
int nb_mesh_end_write(const struct nb_mesh_end *e, uint16_t nb_ports,
		      uint8_t *buf, size_t len);
/*
 * The share of the end owning the ports in owned, of mesh m, from exactly
 * nb_mesh_end_size bytes: -EPROTO unless its magic, mask and counts are
 * m's, it counts nothing at ports it does not own (sent only from its
 * sources, arrivals and latency only at its destinations, foreign only at
 * its ports), unique <= received and its latency ordered
 * (min <= p50 <= p99 <= max, mean between min and max).
 */
int nb_mesh_end_read(const uint8_t *buf, size_t len,
		     const struct nb_mesh_cfg *m, uint32_t owned,
		     struct nb_mesh_end *e);

#endif /* NB_MESH_MERGE_H */
