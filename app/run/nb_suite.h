/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NB_SUITE_H
#define NB_SUITE_H

#include <stdint.h>

#include "nb_app.h"

/*
 * The --test suites and --size sweeps of a loopback or reflector test on
 * ports already up (link_bps: the TX ports' speed, 0 unknown): every trial,
 * the results, the exit code (1 when interrupted or a trial failed to run).
 */
int nb_suite_main(struct nb_app *app, uint64_t link_bps, const char *topology);

#endif /* NB_SUITE_H */
