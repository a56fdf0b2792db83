/* SPDX-License-Identifier: BSD-3-Clause */
/* --metrics: /metrics over HTTP (see nb_metrics_http.c). */
#ifndef NB_METRICS_HTTP_H
#define NB_METRICS_HTTP_H

#include <stddef.h>

#include "nb_app.h"

/* Listening (if --metrics) from now on: 0, or -1 with the reason. */
int nb_metrics_start(struct nb_app *app, char *err, size_t errlen);
void nb_metrics_stop(void);
/* A test was launched (nbench_tests_total). */
void nb_metrics_note_test(void);
/* The test's figures at its end, before its jobs go: what a scrape shows
 * until the next test. */
void nb_metrics_keep(struct nb_app *app);

#endif /* NB_METRICS_HTTP_H */
