/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A loopback test to a multicast group (nb_mcast.h): the receiving ports
 * that join it (--join) send their membership reports, IGMPv2/v3 or
 * MLDv2, from their own TX queue 0, on the control lcore (a loopback's
 * receiving ports have RX jobs only, so no worker sends on that queue):
 * NB_MCAST_ROBUSTNESS times before the test, once every NB_MCAST_REPORT_S
 * while it runs, and NB_MCAST_ROBUSTNESS leaves after it.  And what each
 * receiving port got of a fan-out test, for the report.
 */
#ifndef NB_MCAST_JOIN_H
#define NB_MCAST_JOIN_H

#include "nb_app.h"

/* Reports (join 1) or leaves (join 0) from every port that joins; a
 * no-op when none does.  Returns how many ports sent. */
int nb_mcast_members(struct nb_app *app, int join);
/* The text header's line: "multicast: group 239.1.1.1 (IGMPv3), joined
 * by port 1, 2; not by port 3" (nothing for a unicast test). */
void nb_mcast_header(const struct nb_app *app);
/* While a test runs: the reports again when they are due. */
void nb_mcast_tick(struct nb_app *app);
/* A fan-out test's receiving ports into app->result (after
 * nb_run_collect, before the jobs are freed); a no-op otherwise. */
void nb_mcast_collect(struct nb_app *app);

#endif /* NB_MCAST_JOIN_H */
