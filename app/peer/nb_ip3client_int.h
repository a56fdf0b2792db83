/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The iperf3 client's parts (nb_ip3client.c: the control connection and
 * the protocol; nb_ip3udp.c: the UDP streams; nb_ip3tcp.c: the TCP
 * streams; nb_ip3report.c: the report of either).
 */
#ifndef NB_IP3CLIENT_INT_H
#define NB_IP3CLIENT_INT_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "nb_cpu.h"
#include "nb_iperf3_proto.h"
#include "nb_session.h"
#include "nb_tcp_app.h"

struct nb_ip3_sink; /* nb_worker.h */

#define IP3C_TX                                                                \
	(32 * 1024)	       /* what the client writes: cookie, params,      \
				* results */
#define IP3C_RX	  (96 * 1024)  /* the TCP receive ring */
#define IP3C_JSON (512 * 1024) /* the server's results text */
/* how long a connect may take (SYN retries), and the close after */
#define IP3C_CONNECT_NS (5000 * NB_MS)
#define IP3C_CLOSE_NS	(1000 * NB_MS)
/* the longest silence of the server between two steps of the protocol
 * outside a test */
#define IP3C_IDLE_NS (30000 * NB_MS)

struct nb_ip3c {
	struct nb_peer pr;
	struct nb_flow flow;
	struct nb_tcp_conn c;
	struct nb_tcp_app tapp;
	struct nb_ip3_client cl;
	uint8_t tx[IP3C_TX];
	uint8_t rx[IP3C_RX];
	uint8_t *json;
	uint64_t heard; /* when the server's last byte came */
	/* the UDP streams: how many, their connect replies (bit i: stream
	 * i's), the test set up, its wall-clock start and end */
	unsigned int nstreams;
	uint64_t replied[(NB_IP3_MAX_STREAMS + 63) / 64];
	int test_ready, ran;
	double t_start, t_end;
	struct nb_cpu_usage cpu0; /* this process's CPU times at the start */
	/* the server's results, when they came; its own report when asked
	 * (--get-server-output: server_output_json or _text, cl's) */
	int have_peer;
	json_t *srv_output;
	struct nb_ip3_results peer;
	struct nb_ip3_results mine;
	uint32_t len; /* UDP payload bytes a datagram */
	/* --reverse: the server sends; UDP: its datagrams counted by the
	 * receivers into sinks (one per RX job, nb_worker.h) */
	int reverse, bidir;
	struct nb_ip3_sink *sinks;
	unsigned int nsinks;
	int by_bytes; /* TCP: the test ends by --bytes (iperf3's -n) */
	int done, code;
	/* frames in, due segments out (nb_ip3client.c's, for the UDP
	 * part's waits); the server's bytes stay in the ring */
	void (*pump)(struct nb_ip3c *x);
	char why[NB_IP3_MSG_LEN + 96];
};

/* The test's streams: nstreams, twice that with --bidir (ours first, as
 * iperf3's client opens them). */
static inline unsigned int
nb_ip3c_nconn(const struct nb_ip3c *x)
{
	return x->nstreams * (x->bidir ? 2u : 1u);
}

/* Do we send on stream i (forward: all; --bidir: the first half)? */
static inline int
nb_ip3c_sends(const struct nb_ip3c *x, unsigned int i)
{
	return !x->reverse && (!x->bidir || i < x->nstreams);
}

/* nb_ip3client.c */
void nb_ip3c_fail(struct nb_ip3c *x, const char *msg);

/* UDP's and TCP's runs: after a test's data: -EPIPE (the control connection
 * failed), -EINTR (Ctrl-C), with x->why set, or 0. */
static inline int
nb_ip3c_run_end(struct nb_ip3c *x)
{
	if (x->c.error != NB_TCP_OK) {
		snprintf(x->why, sizeof(x->why),
			 "the control connection failed during the test");
		return -EPIPE;
	}
	if (nb_force_quit) {
		snprintf(x->why, sizeof(x->why), "interrupted");
		return -EINTR;
	}
	return 0;
}

/* nb_ip3udp.c */
/* A UDP frame the control lcore was handed: a connect reply? */
void nb_ip3c_udp_frame(struct nb_ip3c *x, const struct nb_udp_info *u);
/* CREATE_STREAMS: each stream's connect datagram, until answered. */
int nb_ip3c_udp_connect(struct nb_ip3c *x, unsigned int n);
/* TEST_START: the jobs, the workers launched (not yet sending). */
int nb_ip3c_udp_setup(struct nb_ip3c *x);
/* TEST_RUNNING: send for --time (or --packets), stop, collect. */
int nb_ip3c_udp_run(struct nb_ip3c *x);
/* Our results as iperf3's client sends them. */
void nb_ip3c_udp_results(struct nb_ip3c *x);
/* The test's end: the workers stopped, the jobs freed. */
void nb_ip3c_udp_free(struct nb_ip3c *x);
/* nb_ip3tcp.c */
/* CREATE_STREAMS with TCP: the TCP worker's connections opened, each
 * with the cookie first. */
int nb_ip3c_tcp_connect(struct nb_ip3c *x, unsigned int n);
/* TEST_RUNNING: the end by time or bytes; every byte acknowledged. */
int nb_ip3c_tcp_run(struct nb_ip3c *x);
/* Our results as iperf3's client sends them (bytes, retransmits). */
void nb_ip3c_tcp_results(struct nb_ip3c *x);
/* After IPERF_DONE: the data connections' close (the server's FINs). */
void nb_ip3c_tcp_close(struct nb_ip3c *x);

/* nb_ip3report.c */
/* The report: our sender rows beside the server's receiver rows. */
void nb_ip3c_report(struct nb_ip3c *x);

#endif /* NB_IP3CLIENT_INT_H */
