/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NB_LOOPBACK_H
#define NB_LOOPBACK_H

#include "nb_app.h"

/* A loopback or reflector test from the options; the exit code. */
int nb_loopback_main(struct nb_app *app);

/* Its two halves, for --serve: the ports set up (0, or 1 with the error
 * said), then a test on them (again and again); the exit code. */
int nb_loopback_setup(struct nb_app *app);
int nb_loopback_test(struct nb_app *app);

#endif /* NB_LOOPBACK_H */
