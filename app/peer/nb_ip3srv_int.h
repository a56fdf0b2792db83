/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --iperf3-server's parts: nb_ip3server.c the control connection (listen,
 * accept, a busy server's refusal, iperf3's server order, the caps);
 * nb_ip3srv_udp.c the UDP streams (the connect handshake, the receivers'
 * sinks for a client that sends, the senders for -R).
 */
#ifndef NB_IP3SRV_INT_H
#define NB_IP3SRV_INT_H

#include <stdint.h>

#include "nb_iperf3_proto.h"
#include "nb_cpu.h"
#include "nb_session.h"
#include "nb_tcp_app.h"

struct nb_ip3_sink; /* nb_worker.h */

#define IP3S_TX	  (32 * 1024)
#define IP3S_RX	  (96 * 1024)
#define IP3S_JSON (512 * 1024)

/* One session's control connection (the busy refusal uses one too). */
struct nb_ip3s_conn {
	struct nb_tcp_conn c;
	struct nb_tcp_app app;
	struct nb_flow flow; /* our frames: to the client */
	uint8_t *tx, *rx;
	uint32_t txcap, rxcap;
};

struct nb_ip3s {
	struct nb_peer pr;
	struct nb_ip3s_conn ctl;  /* the session's; listening when idle */
	struct nb_ip3s_conn deny; /* a second client: ACCESS_DENIED, FIN */
	struct nb_ip3_server sv;
	uint8_t *json;
	int active; /* a session (ctl past LISTEN) */
	int ending; /* the session is over: ctl closing */
	uint64_t heard, end_at;
	/* the client's test */
	struct nb_ip3_params p;
	uint32_t client_ip;
	unsigned int nstreams, connected;
	uint16_t cport[NB_IP3_MAX_STREAMS];
	int test_ready, ran;
	double t_start, t_end;
	struct nb_ip3_sink *sinks;
	unsigned int nsinks;
	struct nb_ip3_results mine, peer;
	struct nb_cpu_usage cpu0; /* this process's CPU times at the start */
	int have_peer;
	uint64_t sessions, refused;
	char why[NB_IP3_MSG_LEN + 96];
};

/* nb_ip3srv_udp.c */
/* A UDP datagram to our port during CREATE_STREAMS: a stream's connect?
 * 1 when the last stream is in (the test set up), 0, or -errno (why). */
int nb_ip3s_udp_frame(struct nb_ip3s *x, const struct nb_udp_info *u);
/* TEST_END: the receivers drained (a client that sent) or the senders
 * stopped; our results as iperf3's server sends them. */
void nb_ip3s_udp_stop(struct nb_ip3s *x);
/* The test's jobs and sinks gone. */
void nb_ip3s_udp_free(struct nb_ip3s *x);
/* The caps and the port's limits on the client's parameters, as the
 * tool's own test would meet them: 0, or the i_errno to refuse with and
 * why (x->why). */
int32_t nb_ip3s_udp_check(struct nb_ip3s *x);

#endif /* NB_IP3SRV_INT_H */
