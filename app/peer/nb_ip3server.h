/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NB_IP3SERVER_H
#define NB_IP3SERVER_H

#include "nb_app.h"

/* --iperf3-server PORT: serve stock iperf3 clients, one test at a time,
 * until Ctrl-C (or one test with --one-off); the exit code. */
int nb_ip3server_main(struct nb_app *app);

#endif /* NB_IP3SERVER_H */
