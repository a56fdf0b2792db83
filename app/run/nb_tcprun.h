/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The closed-loop TCP runner (--tcp, loopback): the TX port's worker
 * connects one TCP connection per stream to the RX port's, each sends its
 * share of --bytes or until --time ends (then FIN), the control lcore
 * prints iperf3's TCP interval rows (Retr, Cwnd, RTT) while it waits, and
 * the sender and receiver rows and the JSON document at the end.
 */
#ifndef NB_TCPRUN_H
#define NB_TCPRUN_H

#include "nb_app.h"

/* After the ports are set up; returns the exit code. */
int nb_tcprun_main(struct nb_app *app);

#endif /* NB_TCPRUN_H */
