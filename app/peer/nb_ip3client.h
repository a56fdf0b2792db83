/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NB_IP3CLIENT_H
#define NB_IP3CLIENT_H

#include "nb_app.h"

/* --iperf3 HOST[:PORT]: a client of a stock iperf3 server; the exit code
 * (0 ok, 1 the server refused or failed, or the test could not run). */
int nb_ip3client_main(struct nb_app *app);

#endif /* NB_IP3CLIENT_H */
