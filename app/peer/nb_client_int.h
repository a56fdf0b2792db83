/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The client's parts, shared by nb_client.c (messages, waits, the session
 * and the suite's trials) and nb_client_run.c (the clock rounds, the test
 * itself, the results).  Not for other modules.
 */
#ifndef NB_CLIENT_INT_H
#define NB_CLIENT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "nb_session.h"

/* The client's sessions: one, or a mesh's one per responder (the first
 * holds the control I/O and the test; the others are its group). */
static inline unsigned int
nb_client_sessions(const struct nb_peer *pr)
{
	return 1u + pr->nb_group;
}

static inline struct nb_peer *
nb_client_session_at(struct nb_peer *pr, unsigned int k)
{
	return k == 0 ? pr : pr->group[k - 1];
}

/* Client, --peer IP,IP,...: a session for each further responder on the
 * first's control I/O, its address resolved; 0, or -ETIMEDOUT with the
 * session whose address nobody answered in *unanswered. */
int nb_client_group_open(struct nb_peer *pr, struct nb_peer **unanswered);
/* Every responder's results after STOP, as one responder's (a mesh's
 * streams: nb_mesh_results_combine); 0 or -errno. */
int nb_client_group_fetch(struct nb_peer *pr, struct nb_ctl_results_hdr *h,
			  struct nb_ctl_stream_res *res, uint32_t *n);
/* "responder 2 (198.18.0.3): " of a further session, "" of the first. */
const char *nb_client_who(const struct nb_peer *pr, char *buf, size_t len);

/* A control message of a session's responder (nb_client_msg.c): checked,
 * acknowledged, and its event in pr->event / pr->inbox. */
void nb_client_on_msg(struct nb_peer *pr, const struct nb_udp_info *u,
		      struct nb_ctl_msg *m);

/* Wait for the next event of the state machine (a refusal included). */
int nb_client_wait(struct nb_peer *pr, enum nb_cli_event *ev);
/* Wait until our last message is acknowledged. */
int nb_client_flush(struct nb_peer *pr);
/* Our own counters only, when the responder could not give its own
 * (in a suite: the reason, for its report); returns the exit code. */
int nb_client_partial(struct nb_peer *pr, const char *why);

/* PARAMS from the options and the session (nb_client_params.c). */
void nb_client_fill_params(struct nb_peer *pr, struct nb_ctl_params *p);
/* p's fields of session pr: the responder's addresses, the proof. */
void nb_client_params_to(const struct nb_peer *pr, struct nb_ctl_params *p);
/* After WELCOME: on one host, read the TSC at the responder's frequency. */
void nb_client_adopt_clock(struct nb_peer *pr);
/* Clock rounds, START, keepalives until the test is over; 0, 1 when
 * interrupted, -1 when the responder is gone (partial results reported,
 * *code set). */
int nb_client_run_test(struct nb_peer *pr, const struct nb_ctl_params *p,
		       int *code);
/* Every RESULTS part of the responder's blob, reassembled and parsed. */
/* The responder's results blob, reassembled from its RESULTS parts (at
 * most max bytes): 0 with *blob malloc'd, or a negative errno. */
int nb_client_fetch_blob(struct nb_peer *pr, size_t max, uint8_t **blob,
			 size_t *len);
int nb_client_fetch(struct nb_peer *pr, struct nb_ctl_results_hdr *h,
		    struct nb_ctl_stream_res *s, uint32_t *n);

#endif /* NB_CLIENT_INT_H */
