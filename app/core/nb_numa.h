/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where the test runs, NUMA-wise: each worker lcore's node (its CPU's) and
 * each port's node, and every worker that serves a port of another node
 * (its frames then cross the interconnect: lower rates, longer latency).
 * The glue fills the nodes (libnuma, ethdev); the check is pure.
 */
#ifndef NB_NUMA_H
#define NB_NUMA_H

#include <stddef.h>
#include <stdint.h>

#include "nb_plan.h"

#define NB_NUMA_MAX 64 /* workers and mismatches kept */

struct nb_numa_worker {
	unsigned int lcore, cpu;
	int node; /* -1 unknown */
};

struct nb_numa_port {
	uint16_t port;
	int node; /* -1 unknown */
};

/* A worker lcore that serves a port on another node. */
struct nb_numa_mismatch {
	unsigned int lcore, cpu;
	int lcore_node;
	uint16_t port;
	int port_node;
};

struct nb_numa_layout {
	int available; /* the host told its NUMA layout */
	int nb_nodes;  /* 0 unknown */
	uint16_t nb_workers, nb_ports, nb_mismatch;
	struct nb_numa_worker workers[NB_NUMA_MAX]; /* plan's order */
	struct nb_numa_port ports[NB_MAX_PORTS];
	struct nb_numa_mismatch mismatch[NB_NUMA_MAX];
};

/*
 * Fill l->mismatch from the plan's jobs: workers[i] is plan->workers[i];
 * a job's port is looked up in l->ports.  Each (worker, port) pair is
 * listed once; nodes that are unknown (-1) never mismatch.
 */
void nb_numa_check(struct nb_numa_layout *l, const struct nb_plan *plan);

/* The node of a port in l, -1 when unknown or not listed. */
int nb_numa_port_node(const struct nb_numa_layout *l, uint16_t port);

/*
 * One line: "2 nodes; workers 2@cpu1:node0 3@cpu9:node1; ports 0:node0
 * 1:node1; worker lcore 3 (node 1) serves port 0 (node 0)".  Returns the
 * length as snprintf does.
 */
int nb_numa_text(const struct nb_numa_layout *l, char *buf, size_t len);

/*
 * What a responder tells its client of its layout (ACCEPT): its nodes (0
 * unknown), its port's node (-1 unknown), its workers, and how many of
 * them run on another node than the port.
 */
struct nb_numa_brief {
	uint16_t nodes;
	int16_t port_node;
	uint16_t workers, cross;
};
void nb_numa_brief(const struct nb_numa_layout *l, struct nb_numa_brief *b);
/* {nodes, port_node, workers, workers_on_other_node} */
struct json_t;
struct json_t *nb_numa_brief_json(const struct nb_numa_brief *b);

/* As JSON: {available, nodes, workers[], ports[], cross_node[]}. */
struct json_t;
struct json_t *nb_numa_json(const struct nb_numa_layout *l);

#endif /* NB_NUMA_H */
