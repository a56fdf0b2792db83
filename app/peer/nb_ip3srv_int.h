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
	struct nb_ctl_params cp; /* ... as the tool's test (nb_ip3s_check) */
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
	/* refusals answered (a RST and a log line) at most this fast: a
	 * SYN flood from made-up sources gets no answer beyond it */
	struct nb_tokens refuse_tok;
	/* frames in, due segments out (nb_ip3server.c's, for the waits) */
	void (*pump)(struct nb_ip3s *x);
	char why[NB_IP3_MSG_LEN + 96];
};

/* The test's streams: parallel, twice that with --bidir (the client's
 * sending ones first, as it opens them). */
static inline unsigned int
nb_ip3s_nconn(const struct nb_ip3s *x)
{
	return x->nstreams * (x->p.bidir ? 2u : 1u);
}

/* Do we send on stream i (-R: all; --bidir: the second half)? */
static inline int
nb_ip3s_sends(const struct nb_ip3s *x, unsigned int i)
{
	return x->p.reverse || (x->p.bidir && i >= x->nstreams);
}

/* nb_ip3srv_test.c: the test, either protocol */
/* The client's parameters as the tool's test (x->cp), checked against
 * the caps and the port's limits as the tool's own test would be: 0, or
 * the i_errno to refuse with and why (x->why). */
int32_t nb_ip3s_check(struct nb_ip3s *x);
/* TEST_START and TEST_RUNNING written: the test's clock starts (and -R
 * over TCP, the held senders send). */
void nb_ip3s_go(struct nb_ip3s *x);
/* TEST_END: our senders stop (-R); a client's data is still counted. */
void nb_ip3s_test_end(struct nb_ip3s *x);
/* The client's results came: what it sent arrives (a bounded wait), the
 * test stops, our results as iperf3's server sends them (x->mine). */
void nb_ip3s_results(struct nb_ip3s *x);
/* The test's jobs and sinks gone (the data connections' close waited
 * for, a little). */
void nb_ip3s_test_free(struct nb_ip3s *x);

/* nb_ip3srv_udp.c */
/* A UDP datagram to our port during CREATE_STREAMS: a stream's connect?
 * 1 when the last stream is in (the test set up), 0, or -errno (why). */
int nb_ip3s_udp_frame(struct nb_ip3s *x, const struct nb_udp_info *u);
/* Every datagram of the client's results counted (a client that sent):
 * 1. */
int nb_ip3s_udp_settled(const struct nb_ip3s *x);
/* Stream i's figures into s: ours sent (-R), or the sinks' counts. */
void nb_ip3s_udp_stream(const struct nb_ip3s *x, unsigned int i,
			struct nb_ip3_stream_res *s);

/* nb_ip3srv_tcp.c */
/* At the parameters of a TCP test: the listener for its streams. */
int nb_ip3s_tcp_setup(struct nb_ip3s *x);
/* 1 once every stream is connected. */
int nb_ip3s_tcp_ready(const struct nb_ip3s *x);
/* Stream i's bytes: received past the cookie, or sent and acknowledged
 * (-R) with its retransmissions. */
void nb_ip3s_tcp_stream(const struct nb_ip3s *x, unsigned int i,
			uint64_t *bytes, int64_t *retrans);
/* Every byte of the client's (per its results) in, or every byte of ours
 * acknowledged (-R): 1. */
int nb_ip3s_tcp_settled(const struct nb_ip3s *x);

#endif /* NB_IP3SRV_INT_H */
