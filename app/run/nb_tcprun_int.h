/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The closed-loop TCP runner's own state, shared by its files:
 * nb_tcprun.c (the test on the runtime's steps, its end, its interval
 * edges), nb_tcprun_setup.c (the connections' set-up), nb_tcprun_peer.c
 * (one end of a peer test), nb_tcprun_report.c and nb_tcprun_parts.c
 * (what is reported).  Not for other modules.
 */
#ifndef NB_TCPRUN_INT_H
#define NB_TCPRUN_INT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "nb_app.h"
#include "nb_ctl.h"
#include "nb_tcp_engine.h"
#include "nb_tcp_report.h"
#include "nb_tcprun.h"

#define TCP_DPORT	     NB_TCP_DPORT
#define CLOSE_WAIT_S	     5.0  /* after the end: FINs and their ACKs */
#define STALL_S		     30.0 /* no byte acknowledged: the test is stuck */
#define TEXT_STREAM_ROWS_MAX 16	  /* more streams: [SUM] rows only */

struct tcprun {
	struct nb_app *app;
	uint32_t msg; /* --pingpong: this test's message size */
	int no_iv;    /* no interval rows (a sweep's tests) */
	double secs;  /* how long the test ran */
	/* loop: both ends here; else clients to another host (has_client)
	 * or a listener for another host's clients (has_server) */
	int loop, has_client, has_server;
	uint8_t peer_mac[6];	   /* where the clients' frames go */
	struct nb_tcpjob *cj, *sj; /* clients (TX port), servers (RX) */
	uint32_t n;
	uint16_t mss;
	struct nb_tcp_snap *prev, *cur;
	/* a bidirectional peer test (ndir 2): the other direction's, and
	 * which one is in cur and prev now (1: the responder sends) */
	struct nb_tcp_snap *prev2, *cur2;
	int ndir, dir;
	json_t *intervals;
	double t_prev;
	uint64_t start_ns;
	/* peer mode: this end's side of it (is_peer), the other end's
	 * figures once its results came (remote, rhdr) */
	int is_peer;
	struct nb_tcppeer pp;
	struct nb_tcp_endsnap *remote;
	struct nb_ctl_tcp_hdr *rhdr;
	/* the wait for the end (nb_tcprun_step); the intervals' edges
	 * (next_iv, none past iv_until), read by the stats lcore when
	 * stats_reads, else by nb_tcprun_step */
	double next_iv, close_at, last_progress;
	volatile double iv_until;
	int stats_reads;
	uint64_t acked_seen;
	int interrupted, launched, header_done;
};

/* How this process's senders put the payload into frames: "zero-copy"
 * (an mbuf attached to the pattern) or "copied"; NULL when none sends. */
const char *nb_tcprun_tx_payload(const struct tcprun *t);

/* An end as the reports and the results blob see it: its figures, its
 * times from the start (nb_tcprun_report.c). */
void nb_tcprun_end_snap(const struct tcprun *t, const struct nb_tcp_end *e,
			struct nb_tcp_endsnap *o);

/* Data the far end sends (peer mode: this end's connections take it in);
 * sender and receiver figures known here. */
int nb_tcprun_rev(const struct tcprun *t);
int nb_tcprun_have_snd(const struct tcprun *t);
int nb_tcprun_have_rcv(const struct tcprun *t);

/* Set-up and tear-down (nb_tcprun_setup.c), shared with the peer mode's
 * (nb_tcprun_peer.c): the jobs on the runtime's workers (after
 * nb_run_prepare_tcp), and what build and the run allocated. */
int nb_tcprun_build(struct tcprun *t, char *err, size_t errlen);
/* The clients' next hop when it is another host: --dst-mac, or ARP for
 * --dst-ip on the port (before the workers start). */
int nb_tcprun_resolve_peer(struct tcprun *t, char *err, size_t errlen);
/* The workers stopped (nb_run_drain), once launched. */
void nb_tcprun_stop(struct tcprun *t);
/* Every connection closed: all of them, or those a listener took. */
int nb_tcprun_all_finished(const struct tcprun *t);
void nb_tcprun_free(struct tcprun *t);
/* One look at the running test: intervals, and its end by its rules; 1
 * once it is over (t->interrupted after Ctrl-C; why set on a failure). */
void nb_tcprun_step_init(struct tcprun *t);
/* The interval edges due (app->iv_read): their rows; the TSC of the next
 * edge, UINT64_MAX when none is to come. */
uint64_t nb_tcprun_iv_read(void *arg);
int nb_tcprun_step(struct tcprun *t, char *why, size_t whylen);

/* Connections to report: a listener's, those it accepted. */
uint32_t nb_tcprun_nconn(const struct tcprun *t);
/* Every connection's counters now, into o[nb_tcprun_nconn(t)]. */
void nb_tcprun_snap_all(struct tcprun *t, struct nb_tcp_snap *o);
/* The interval [t->t_prev, t1] (s from the start): rows and JSON. */
void nb_tcprun_interval(struct tcprun *t, double t1);
/* The end: rows, summary lines, the JSON document; why gets the reason
 * the test failed when it did and had none yet. */
void nb_tcprun_report(struct tcprun *t, double secs, int interrupted, char *why,
		      size_t whylen);
void nb_tcprun_print_header(const struct tcprun *t);
/* A --msg-size sweep's row for the test t: text (when o is chatty) and
 * the JSON object; why gets a failure of this test. */
json_t *nb_tcprun_sweep_row(const struct tcprun *t, const struct nb_output *o,
			    char *why, size_t whylen);
void nb_tcprun_addr_text(char *b, size_t n, uint32_t ip, const uint8_t *ip6,
			 uint16_t port);
/* The report's parts (nb_tcprun_parts.c): each port's frames (and the
 * responder's), ping-pong's round trips, the responder's figures. */
json_t *nb_tcprun_ports_json(const struct tcprun *t);
void nb_tcprun_ports_text(const struct tcprun *t, FILE *f);
void nb_tcprun_pingpong_text(const struct tcprun *t, double secs, FILE *f);
json_t *nb_tcprun_pingpong_json(const struct tcprun *t, double secs);
json_t *nb_tcprun_responder_json(const struct tcprun *t);

#endif /* NB_TCPRUN_INT_H */
