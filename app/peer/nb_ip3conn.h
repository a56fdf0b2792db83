/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A TCP connection the control lcore holds itself (iperf3's control
 * connection, at either end: --iperf3's and --iperf3-server's), its frames
 * on the control TX queue.
 */
#ifndef NB_IP3CONN_H
#define NB_IP3CONN_H

#include "nb_cpu.h"
#include "nb_frame.h"
#include "nb_iperf3_proto.h"
#include "nb_session.h"
#include "nb_tcp.h"
#include "nb_tcp_app.h"

/* Every segment of c due now, built with a's bytes, sent as f. */
void nb_ip3_conn_flush(struct nb_peer *pr, struct nb_tcp_conn *c,
		       const struct nb_flow *f, struct nb_tcp_app *a);

/* Sleep to c's next timer, 50 us to 500 us. */
void nb_ip3_conn_nap(const struct nb_peer *pr, const struct nb_tcp_conn *c);

/* The wall clock in seconds (iperf3's streams' start and end). */
double nb_ip3_wall_now(void);

/* This process's CPU share since c0 (user, system and their sum, % of
 * one CPU, as iperf3 reports its own; a busy-polling worker is about 100
 * of it) into m's cpu_util figures. */
void nb_ip3_cpu_share(const struct nb_cpu_usage *c0, struct nb_ip3_results *m);

/* The control connection's TCP (either end): the MSS of a 1518-byte
 * frame, a 64 KiB window, SACK, NewReno, bytes as written, a FIN after
 * them at the close. */
void nb_ip3_conn_params(const struct nb_config *cfg, struct nb_tcp_params *p);

#endif /* NB_IP3CONN_H */
