/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the process is doing (EAL init, calibration, a test running, ...)
 * and, once SIGINT or SIGTERM came, which signal and in what phase.  The
 * signal handler calls nb_phase_note_signal() (async-signal-safe: two
 * stores); every JSON document written after it says so ("interruption").
 * Pure: no DPDK calls.
 */
#ifndef NB_PHASE_H
#define NB_PHASE_H

#include <signal.h>

#include <jansson.h>

/* The phases' names, as the documents and the debug lines spell them. */
#define NB_PHASE_EAL	     "eal-init"
#define NB_PHASE_SETUP	     "setup"
#define NB_PHASE_CALIBRATION "calibration"
#define NB_PHASE_CONNECTING  "connecting"
#define NB_PHASE_RUNNING     "running"
#define NB_PHASE_DRAINING    "draining"
#define NB_PHASE_REPORTING   "reporting"
#define NB_PHASE_SUITE_PAUSE "suite-pause"
#define NB_PHASE_LISTENING   "listening"
#define NB_PHASE_SESSION     "session"

/* Enter a phase (a string literal: only its address is kept). */
void nb_phase_set(const char *name);
/* The phase now (NULL before the first). */
const char *nb_phase_now(void);
/* From the signal handler: the first signal and the phase it came in. */
void nb_phase_note_signal(int sig);
/* The first signal seen (0 none), and the phase then (NULL unknown). */
int nb_phase_signal(void);
const char *nb_phase_at_signal(void);
/* {"signal": "SIGINT", "phase": "running"}, or NULL when no signal came. */
json_t *nb_phase_json(void);

#endif /* NB_PHASE_H */
