/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The client's waits, and its partial report: what both the session
 * (nb_client.c) and the test (nb_client_run.c) use.
 */
#include <errno.h>
#include <stdio.h>

#include "nb_client_int.h"
#include "nb_client_report.h"
#include "nb_log.h"
#include "nb_peertest.h"
#include "nb_tcprun.h"

/* Wait for the next event of the state machine (a refusal included). */
int
nb_client_wait(struct nb_peer *pr, enum nb_cli_event *ev)
{
	uint64_t deadline = nb_peer_now(pr) + pr->timeout_ns;

	for (;;) {
		nb_ctlio_poll(pr->io);
		if (pr->event != NB_CLI_E_NONE) {
			*ev = pr->event;
			pr->event = NB_CLI_E_NONE;
			return 0;
		}
		if (nb_peer_service(pr) != 0)
			return -ETIMEDOUT;
		if (!pr->link.pending && nb_peer_now(pr) > deadline)
			return -ETIMEDOUT;
		/* Ctrl-C aborts a wait, except once the test is stopping:
		 * then the results are still worth fetching */
		if (nb_force_quit && !pr->stopping)
			return -EINTR;
		nb_peer_nap(pr);
	}
}

/* Wait until our last message is acknowledged. */
int
nb_client_flush(struct nb_peer *pr)
{
	while (pr->link.pending) {
		nb_ctlio_poll(pr->io);
		if (pr->event == NB_CLI_E_ABORT)
			return -ECONNRESET;
		if (pr->event == NB_CLI_E_REJECT)
			return -EPERM;
		if (nb_peer_service(pr) != 0)
			return -ETIMEDOUT;
		nb_peer_nap(pr);
	}
	return 0;
}

/* Our own counters only, when the responder could not give its own. */
int
nb_client_partial(struct nb_peer *pr, const char *why)
{
	struct nb_ctl_msg d;
	char buf[640];
	unsigned int k;

	if (pr->event == NB_CLI_E_ABORT || pr->inbox.type == NB_CTL_ERROR) {
		char r[4 * NB_CTL_REASON_STR];

		nb_escape(pr->inbox.u.error.reason, NB_CTL_REASON_STR, r,
			  sizeof(r));
		snprintf(buf, sizeof(buf), "the responder ended the test: %s",
			 r);
		why = buf;
	} else if (pr->quit_by != 0 && why[0]) {
		/* a signal bounded the wait (nb_peer_service) */
		snprintf(buf, sizeof(buf),
			 "interrupted: %s within %llu ms of the signal", why,
			 (unsigned long long)(NB_PEER_QUIT_GRACE_NS / NB_MS));
		why = buf;
	}
	nb_peertest_stop(pr);
	/* let the responders that are still there end their sessions now */
	for (k = 0; k < nb_client_sessions(pr); k++) {
		struct nb_peer *g = nb_client_session_at(pr, k);

		nb_ctl_msg_init(&d, NB_CTL_DONE, g->session);
		d.seq = g->link.next_seq;
		if (!pr->in_suite)
			d.u.done.flags = NB_CTL_DONE_F_LEAVING;
		if (g->auth.on)
			nb_peer_send_raw(g, &d, g->peer_mac, g->peer_ip,
					 g->peer_ip6, &g->auth);
	}
	if (pr->tcp != NULL) /* this end's figures, and why */
		return nb_tcprun_peer_report(pr->tcp, NULL, 0, 0,
					     why[0] ? why
						    : "the responder ended "
						      "the test");
	nb_result_finish(&pr->app->result);
	if (pr->in_suite) { /* the suite reports it */
		snprintf(pr->app->result.error, sizeof(pr->app->result.error),
			 "%.250s", why);
		NB_LOG(ERR, "%s", why);
		return 1;
	}
	return nb_client_report_partial(pr, why);
}

const char *
nb_client_who(const struct nb_peer *pr, char *buf, size_t len)
{
	buf[0] = '\0';
	if (pr->mesh_owner > 1 || pr->nb_group > 0)
		snprintf(buf, len, "responder %u (" NB_IP4_FMT "): ",
			 pr->mesh_owner ? pr->mesh_owner : 1u,
			 NB_IP4_ARGS(pr->peer_ip));
	return buf;
}
