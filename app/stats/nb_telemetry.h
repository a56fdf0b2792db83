/* SPDX-License-Identifier: BSD-3-Clause */
/* DPDK telemetry: /nbench/state, /nbench/ports, /nbench/streams,
 * /nbench/latency, /nbench/tester, /nbench/responder. */
#ifndef NB_TELEMETRY_H
#define NB_TELEMETRY_H

#include <stdint.h>

#include "nb_app.h"
#include "nb_ctlio.h"
#include "nb_policy.h"

/*
 * A responder's counters, for /nbench/responder: its control I/O, what it
 * refused by cause, and its sessions (opened, ended, ended by the client's
 * DONE; session: the open one's id, 0 idle).  The responder's control
 * lcore is their only writer; the telemetry thread reads them.
 */
struct nb_tel_rsp {
	const struct nb_ctlio *io;
	const struct nb_refusals *refusals;
	const uint32_t *session;
	const uint64_t *opened, *ended, *done;
	const uint64_t *vouched; /* checked on a vouched session's tokens */
};

void nb_telemetry_register(struct nb_app *app);
/* A test's jobs exist (1) or are about to be freed (0; waits for readers). */
void nb_telemetry_live(int live);
/* Another reader of the jobs (--metrics): 0 and they may be read until
 * nb_telemetry_leave(), or -1: no test is running. */
int nb_telemetry_enter(void);
void nb_telemetry_leave(void);
/* The mode's name: loopback, reflector, client, responder, list-ports. */
const char *nb_telemetry_mode(enum nb_mode m);
/* The responder's counters from now on (a copy of r), or none (NULL; waits
 * until no reader holds them). */
void nb_telemetry_responder(const struct nb_tel_rsp *r);

#endif /* NB_TELEMETRY_H */
