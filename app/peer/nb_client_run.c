/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The client's test: the clock rounds (and, on one host, the responder's
 * TSC frequency), START, keepalives and interval rows while it runs, the
 * rules that end it, and the results it fetches after STOP.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "nb_client_int.h"
#include "nb_client_report.h"
#include "nb_log.h"
#include "nb_mesh_peer.h"
#include "nb_peer_iv_io.h"
#include "nb_peertest.h"
#include "nb_phase.h"
#include "nb_run.h"
#include "nb_tcprun.h"
#include "nb_tsc.h"

/* Whether both ends run on this host (the same boot id): one TSC. */
static int
same_host(const struct nb_peer *pr)
{
	return pr->mine.boot_id[0] != '\0' &&
	       strcmp(pr->mine.boot_id, pr->theirs.boot_id) == 0;
}

/*
 * On one host both ends read one TSC, but each turns it into ns with the
 * frequency it calibrated, counted from TSC 0: a few ppm apart, that is
 * tens of ms after hours of uptime, all of it in every one-way latency.
 * So the client converts with the responder's frequency (WELCOME carries
 * it, in Hz as the responder uses it): both ends then read the same ns
 * from the same TSC.  Called right after WELCOME, with nothing in flight;
 * the step in our control clock only moves nb_link's timers.
 */
void
nb_client_adopt_clock(struct nb_peer *pr)
{
	if (same_host(pr) && pr->theirs.tsc_hz != 0)
		nb_clock_init(&pr->app->run.clock, pr->theirs.tsc_hz, 0);
}

/*
 * A few keepalive rounds: the responder's clock offset.  One-way latency
 * is receive time minus send time, each on its own host's clock.  On one
 * host (same boot id) there is one clock.  Otherwise each receiver moves
 * its receive times onto the sender's clock with the estimated offset
 * (responder - us): we add it, the responder subtracts it.
 */
static int
client_clock(struct nb_peer *pr, int64_t *theta)
{
	struct nb_ctl_msg m;
	unsigned int k;

	for (k = 0; k < 8; k++) {
		uint32_t before = pr->off.samples;
		uint64_t until;

		nb_ctl_msg_init(&m, NB_CTL_KEEPALIVE, pr->session);
		m.u.ka.sender_ns = nb_peer_now(pr);
		if (nb_peer_send(pr, &m) != 0 || nb_client_flush(pr) != 0)
			return -1;
		until = nb_peer_now(pr) + 20 * NB_MS;
		while (pr->off.samples == before && nb_peer_now(pr) < until) {
			nb_ctlio_poll(pr->io);
			nb_peer_nap(pr);
		}
	}
	*theta = 0;
	if (same_host(pr) && pr->theirs.tsc_hz != 0) {
		snprintf(pr->method, sizeof(pr->method),
			 "one-way, same host (boot ids match): one clock, "
			 "read at the responder's TSC frequency; the "
			 "control exchange put the offset at %+.3f us "
			 "+-%.3f us",
			 pr->off.offset_ns / 1e3, pr->off.bound_ns / 1e3);
	} else if (pr->off.samples) {
		*theta = pr->off.offset_ns;
		snprintf(pr->method, sizeof(pr->method),
			 "one-way; the responder's clock offset %+.3f us "
			 "(+-%.3f us, best of %u control round trips) "
			 "corrected: latencies are good to that bound",
			 pr->off.offset_ns / 1e3, pr->off.bound_ns / 1e3,
			 pr->off.samples);
	} else {
		snprintf(pr->method, sizeof(pr->method),
			 "one-way; no clock offset measured: assumes a shared "
			 "clock");
	}
	/* a mesh: the responders stamp and receive in our clock */
	pr->app->run.rx_offset_ns = nb_mesh_peer_on(pr) ? 0 : *theta;
	return 0;
}

/* Whether the running test is over on our side (1), by its own rules. */
static int
test_over(struct nb_peer *pr, const struct nb_ctl_params *p, uint64_t tsc,
	  uint64_t *last_rx, uint64_t *idle_since)
{
	const struct nb_app *app = pr->app;
	uint64_t hz = nb_tsc_hz();
	int sends = p->direction != NB_CTL_DIR_REVERSE;
	int receives = p->direction != NB_CTL_DIR_FORWARD;
	struct nb_jobs_totals t;

	if (app->cfg.pingpong) /* probes only: for --time */
		return tsc >= app->run.end_tsc;
	nb_jobs_totals(&app->jobs, &t);
	if (sends && !t.tx_done)
		return 0;
	/* Our senders are done (or we have none).  When the responder sends
	 * too: by time, until the end; by count, until its frames came, or
	 * went quiet for a second (or never came: the peer timeout after the
	 * start). */
	if (!receives)
		return 1;
	if (app->run.end_tsc != UINT64_MAX)
		return tsc >= app->run.end_tsc;
	/* a mesh: the frames of the pairs into our ports */
	if (t.rx_data >= (nb_mesh_peer_on(pr) ? nb_mesh_peer_due(pr, p->packets)
					      : p->packets))
		return 1;
	if (t.rx_data != *last_rx) {
		*last_rx = t.rx_data;
		*idle_since = tsc;
		return 0;
	}
	if (t.rx_data > 0)
		return tsc - *idle_since > hz;
	return tsc > app->run.start_tsc &&
	       tsc - app->run.start_tsc >
		       (uint64_t)(app->cfg.peer_timeout * hz) + hz;
}

/* Our port's link, every NB_LINK_POLL_NS while a UDP test runs: the
 * intervals and the report say how long it was down. */
static void
watch_link(struct nb_peer *pr, uint64_t *next)
{
	struct nb_result *r = &pr->app->result;
	uint64_t now = nb_peer_now(pr);

	if (now < *next)
		return;
	*next = now + NB_LINK_POLL_NS;
	nb_result_link_step(r, now,
			    nb_port_link_seen(pr->app->ports[0].desc.port_id,
					      &r->link_how));
}

/* A KEEPALIVE when one is due (they prove the responder alive and carry
 * RTT), none while the last is unacknowledged. */
static void
keepalive(struct nb_peer *pr, uint64_t *next_ka)
{
	struct nb_ctl_msg m;

	if (nb_peer_now(pr) < *next_ka || pr->link.pending)
		return;
	nb_ctl_msg_init(&m, NB_CTL_KEEPALIVE, pr->session);
	m.u.ka.sender_ns = nb_peer_now(pr);
	nb_peer_send(pr, &m);
	*next_ka = nb_peer_now(pr) + NB_PEER_KEEPALIVE_NS;
}

/* A closed-loop TCP test once started: keepalives, the TCP runner's
 * intervals and its end by its rules (a Ctrl-C closes the connections
 * first); as nb_client_run_test returns. */
static int
run_tcp(struct nb_peer *pr, int *code)
{
	uint64_t next_ka = nb_peer_now(pr) + NB_PEER_KEEPALIVE_NS;

	/* no link watch: a TCP report has no place for outages yet (a flap
	 * shows as retransmissions and a stall) */
	pr->tcp_why[0] = '\0';
	for (;;) {
		nb_ctlio_poll(pr->io);
		if (nb_peer_service(pr) != 0) {
			*code = nb_client_partial(pr,
						  "the responder stopped "
						  "answering during the test");
			return -1;
		}
		if (pr->event == NB_CLI_E_ABORT) {
			*code = nb_client_partial(pr, "");
			return -1;
		}
		keepalive(pr, &next_ka);
		if (nb_tcprun_peer_step(pr->tcp, pr->tcp_why,
					sizeof(pr->tcp_why)))
			return nb_force_quit ? 1 : 0;
		nb_peer_nap(pr);
	}
}

/*
 * The clock rounds and START with each responder (a mesh's several get
 * theirs back to back, each with its own clock offset: all start at the
 * same time, to a round trip), then our own start; 0 or -1 when one
 * stopped answering.
 */
static int
start_all(struct nb_peer *pr)
{
	unsigned int k, n = nb_client_sessions(pr);
	struct nb_ctl_msg m;
	int64_t theta[NB_MESH_MAX_PEERS];

	for (k = 0; k < n; k++)
		if (client_clock(nb_client_session_at(pr, k), &theta[k]) != 0)
			return -1;
	/* the first responder's offset method is the report's */
	pr->app->result.latency_method = pr->method;
	for (k = 0; k < n; k++) {
		struct nb_peer *g = nb_client_session_at(pr, k);

		g->nap_short = 0; /* the test runs: leave the CPU to workers */
		/* START at an agreed time: now + the delay, on both sides. */
		nb_ctl_msg_init(&m, NB_CTL_START, g->session);
		/* -theta without overflow at INT64_MIN */
		m.u.start.rx_offset_ns = (int64_t)(0 - (uint64_t)theta[k]);
		m.u.start.delay_ms = NB_PEER_START_DELAY_MS;
		if (nb_peer_send(g, &m) != 0)
			return -1;
	}
	nb_peertest_arm(pr, NB_PEER_START_DELAY_MS * NB_MS);
	for (k = 0; k < n; k++)
		if (nb_client_flush(nb_client_session_at(pr, k)) != 0)
			return -1;
	return 0;
}

/* Each session's retransmissions and keepalives while the test runs: 0,
 * -1 when a responder stopped answering, -2 when one ended the test
 * (its session pr's *gone). */
static int
service_all(struct nb_peer *pr, uint64_t *next_ka, struct nb_peer **gone)
{
	unsigned int k;

	for (k = 0; k < nb_client_sessions(pr); k++) {
		struct nb_peer *g = nb_client_session_at(pr, k);

		*gone = g;
		if (nb_peer_service(g) != 0)
			return -1;
		if (g->event == NB_CLI_E_ABORT)
			return -2;
		keepalive(g, &next_ka[k]);
	}
	return 0;
}

/* START, then keepalives until the test is over; 1 when interrupted,
 * -1 when the responder is gone (partial results were reported). */
int
nb_client_run_test(struct nb_peer *pr, const struct nb_ctl_params *p, int *code)
{
	struct nb_app *app = pr->app;
	uint64_t next_ka[NB_MESH_MAX_PEERS], idle_since = 0, last_rx = 0;
	uint64_t next_link = 0, seen = 0, since = 0;
	int sends = p->direction != NB_CTL_DIR_REVERSE, announced = 0;
	struct nb_peer *gone;
	char why[160], who[48];
	unsigned int k;

	if (start_all(pr) != 0)
		goto gone;
	nb_app_phase(NB_PHASE_RUNNING);
	if (pr->tcp != NULL)
		return run_tcp(pr, code);
	/* Running: keepalives both prove the responders alive and carry
	 * RTT. */
	for (k = 0; k < nb_client_sessions(pr); k++)
		next_ka[k] = nb_peer_now(pr) + NB_PEER_KEEPALIVE_NS;
	for (;;) {
		uint64_t tsc = rte_get_tsc_cycles();
		int rc;

		nb_ctlio_poll(pr->io);
		rc = service_all(pr, next_ka, &gone);
		if (rc == -1) {
			snprintf(why, sizeof(why),
				 "%sthe responder stopped answering during "
				 "the test",
				 nb_client_who(gone, who, sizeof(who)));
			*code = nb_client_partial(pr, why);
			return -1;
		}
		if (rc == -2) {
			if (gone != pr) /* its ERROR is the reason */
				pr->inbox = gone->inbox;
			pr->event = NB_CLI_E_ABORT;
			*code = nb_client_partial(pr, "");
			return -1;
		}
		/* say so when the test has started on both ends */
		if (!announced && tsc >= app->run.start_tsc) {
			announced = 1;
			app->result.start_time = (int64_t)time(NULL);
			if (!pr->in_suite) { /* a suite has its own */
				nb_client_report_header(pr, p);
				nb_out_begin_with(&app->out, &app->result,
						  nb_client_start_json(pr, p));
			}
		}
		if (announced) {
			watch_link(pr, &next_link);
			nb_peer_iv_io_tick(pr);
		}
		if (nb_force_quit)
			return 1;
		if (test_over(pr, p, tsc, &last_rx, &idle_since)) {
			nb_peer_iv_io_sample(pr); /* the edge at the end */
			return 0;
		}
		if (sends && nb_run_tx_stalled(app, tsc, &seen, &since)) {
			NB_LOG(ERR,
			       "the port accepted no frame for %d s; "
			       "stopping",
			       NB_TX_STALL_S);
			return 0;
		}
		nb_peer_nap(pr);
	}
gone:
	*code = nb_client_partial(pr, "the responder stopped answering");
	return -1;
}

/* Every RESULTS part of the responder's blob, reassembled (at most max
 * bytes): 0 with *blob malloc'd, or a negative errno. */
int
nb_client_fetch_blob(struct nb_peer *pr, size_t max, uint8_t **blob_out,
		     size_t *len)
{
	uint32_t part = 0, parts = 1, total = 0;
	const struct nb_ctl_results *res = &pr->inbox.u.res;
	enum nb_cli_event ev;
	struct nb_ctl_msg m;
	uint8_t *blob = NULL;
	int ret = -ETIMEDOUT;

	do {
		nb_cli_set(&pr->cli, NB_CLI_RESULTS, part);
		nb_ctl_msg_init(&m, NB_CTL_RESULTS_REQ, pr->session);
		m.u.rreq.part = part;
		if (nb_peer_send(pr, &m) != 0 || nb_client_wait(pr, &ev) != 0 ||
		    ev != NB_CLI_E_RESULTS)
			goto out;
		if (blob == NULL) {
			parts = res->nb_parts;
			total = res->total_len;
			/* no more than our streams' worth of results */
			ret = -EPROTO;
			if (total > max)
				goto out;
			ret = -ENOMEM;
			blob = malloc(total ? total : 1);
			if (blob == NULL)
				goto out;
		}
		ret = -EPROTO;
		if (nb_ctl_results_put(blob, total, res) != 0)
			goto out;
	} while (++part < parts);
	ret = 0;
	*blob_out = blob;
	*len = total;
	blob = NULL;
out:
	nb_cli_set(&pr->cli, NB_CLI_RUNNING, 0);
	free(blob);
	return ret;
}

/* Every RESULTS part of the responder's blob, reassembled and parsed. */
int
nb_client_fetch(struct nb_peer *pr, struct nb_ctl_results_hdr *h,
		struct nb_ctl_stream_res *s, uint32_t *n)
{
	uint32_t max = pr->app->cfg.streams;
	/* a mesh: the responder's share of the pairs after its results */
	size_t tail = nb_mesh_peer_tail(pr);
	uint8_t *blob = NULL;
	size_t len = 0;
	int ret;

	ret = nb_client_fetch_blob(pr,
				   NB_CTL_RESULTS_HDR_LEN +
					   (size_t)max *
						   (NB_CTL_STREAM_RES_LEN +
						    10u * NB_HIST_BUCKETS) +
					   tail,
				   &blob, &len);
	if (ret == 0 && len < tail)
		ret = -EPROTO;
	if (ret == 0)
		ret = nb_ctl_results_read(blob, len - tail, h, s, max, n);
	if (ret == 0 && tail)
		ret = nb_mesh_peer_take(pr, blob + len - tail, tail);
	free(blob);
	return ret;
}
