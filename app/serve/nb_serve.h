/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NB_SERVE_H
#define NB_SERVE_H

#include "nb_app.h"

/*
 * --serve: the loopback ports set up once (app->cfg, checked), then tests
 * on request over the API socket until its shutdown method or a signal.
 * base: the options as parsed, before their checks (every run's defaults).
 * The exit code.
 */
int nb_serve_main(struct nb_app *app, const struct nb_config *base);

#endif /* NB_SERVE_H */
