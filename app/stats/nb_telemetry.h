/* SPDX-License-Identifier: BSD-3-Clause */
/* DPDK telemetry: /nbench/state, /nbench/ports, /nbench/streams,
 * /nbench/latency. */
#ifndef NB_TELEMETRY_H
#define NB_TELEMETRY_H

#include "nb_app.h"

void nb_telemetry_register(struct nb_app *app);
/* A test's jobs exist (1) or are about to be freed (0; waits for readers). */
void nb_telemetry_live(int live);

#endif /* NB_TELEMETRY_H */
