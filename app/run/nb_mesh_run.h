/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test of many ports (--ports, --mesh; nb_mesh.h) on the runtime: the
 * header's line, and what each pair and each port got, read from the
 * receive jobs of every port, for the report.
 */
#ifndef NB_MESH_RUN_H
#define NB_MESH_RUN_H

#include "nb_app.h"
#include "nb_mesh_merge.h"

/* "mesh: fully meshed (RFC 2889 5.1), 4 ports, 12 pairs, 1 stream a
 * pair; per port ..., per pair ..." (nothing without --ports). */
void nb_mesh_header(const struct nb_app *app);
/*
 * Before each test or trial of many ports: every port sends
 * NB_MESH_LEARN_ROUNDS learning frames (nb_mesh_learn_frame) from its TX
 * queue 0, NB_MESH_LEARN_GAP_US apart, so that a switch knows where each
 * port is and floods none of the test's frames; the run's RX flush then
 * drops the flooded copies.  How many ports sent.
 */
#define NB_MESH_LEARN_ROUNDS 2
#define NB_MESH_LEARN_GAP_US 10000
int nb_mesh_learn(struct nb_app *app);
/*
 * This end's share of the mesh (nb_mesh_merge.h) from its receive jobs
 * and the result's per-stream TX counts (after nb_run_collect, before
 * the jobs are freed): the ports whose bits are set in owned (indices
 * into cfg.mesh.ports) are this process's.  0 or -ENOMEM.
 */
int nb_mesh_read_end(const struct nb_app *app, uint32_t owned,
		     struct nb_mesh_end *e);
/* Each pair's and port's counts into app->result.mesh: this process's
 * end, every port its own, merged (after nb_run_collect, before the jobs
 * are freed); a no-op without --ports.  -ENOMEM when the result cannot
 * be held. */
int nb_mesh_collect(struct nb_app *app);

#endif /* NB_MESH_RUN_H */
