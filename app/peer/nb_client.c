/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The client (--peer): HELLO, PARAMS, clock rounds, START, the test with
 * keepalives, STOP, RESULTS, DONE.  Which message ends which wait is nb_cli's
 * decision (app/core/nb_peer_sm.c); nb_client_report.c writes the report.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_random.h>

#include "nb_client.h"
#include "nb_client_int.h"
#include "nb_client_report.h"
#include "nb_log.h"
#include "nb_mesh_hosts.h"
#include "nb_mesh_peer.h"
#include "nb_peer_iv_io.h"
#include "nb_peertest.h"
#include "nb_phase.h"
#include "nb_replay_load.h"
#include "nb_run.h"
#include "nb_suite.h"
#include "nb_tcprun.h"
#include "nb_tsc.h"

/* Send a message that ends the session (DONE, QUIT) and wait for its ACK. */
static int
client_close(struct nb_peer *pr, uint8_t type)
{
	struct nb_ctl_msg m;
	int ret;

	nb_ctl_msg_init(&m, type, pr->session);
	/* a suite's next trial, a sweep's next size: another session on
	 * the same port, which the responder must keep polling */
	if (type == NB_CTL_DONE && !pr->in_suite && !pr->more_sessions)
		m.u.done.flags = NB_CTL_DONE_F_LEAVING;
	ret = nb_peer_send(pr, &m);
	if (ret == 0)
		ret = nb_client_flush(pr);
	nb_cli_set(&pr->cli, NB_CLI_CLOSED, 0);
	return ret;
}

static int
fail(struct nb_peer *pr, const char *fmt, const char *arg)
{
	struct nb_result *r = &pr->app->result;

	snprintf(r->error, sizeof(r->error), fmt, arg);
	NB_LOG(ERR, "%s", r->error);
	if (pr->in_suite) /* the suite reports it */
		return 1;
	nb_out_fatal(&pr->app->out, r->error);
	pr->app->emitted = 1;
	return 1;
}

/* --quit, after WELCOME: QUIT and its ACK (1, with *code set). */
static int
client_quit(struct nb_peer *pr, int *code)
{
	struct nb_ctl_msg m;
	char t[200];
	int ret;

	/* QUIT opens a session of its own, like PARAMS: it carries our
	 * nonce and the responder's cookie */
	nb_cli_set(&pr->cli, NB_CLI_PARAMS, 0);
	nb_ctl_msg_init(&m, NB_CTL_QUIT, pr->session);
	memcpy(m.u.quit.client_nonce, pr->cn, sizeof(pr->cn));
	memcpy(m.u.quit.cookie, pr->theirs.nonce, sizeof(pr->theirs.nonce));
	ret = nb_peer_send(pr, &m);
	if (ret == 0)
		ret = nb_client_flush(pr);
	nb_cli_set(&pr->cli, NB_CLI_CLOSED, 0);
	if (ret == -EPERM) {
		nb_escape(pr->inbox.u.reject.reason, NB_CTL_REASON_STR, t,
			  sizeof(t));
		*code = fail(pr, "the responder refused: %s", t);
		return 1;
	}
	if (ret != 0) {
		*code = fail(pr, "%s",
			     "the responder did not acknowledge QUIT");
		return 1;
	}
	if (nb_out_chatty(&pr->app->out)) {
		nb_escape(pr->theirs.host, sizeof(pr->theirs.host), t,
			  sizeof(t));
		printf("responder %s told to quit\n", t);
	}
	return 1;
}

/* HELLO -> WELCOME; then --quit or --conf end here (1: done, code set). */
static int
client_hello(struct nb_peer *pr, int *code)
{
	const struct nb_config *cfg = &pr->app->cfg;
	enum nb_cli_event ev = NB_CLI_E_NONE;
	struct nb_ctl_msg m;
	char t[200], who[48], msg[96];
	int ret;

	nb_ctl_msg_init(&m, NB_CTL_HELLO, pr->session);
	m.u.conf = pr->mine;
	memcpy(m.u.conf.nonce, pr->cn, sizeof(pr->cn));
	/* the HELLO is tagged with a key of our nonce alone: a keyed
	 * responder answers only a key holder; the link keeps the signed
	 * bytes for its retransmissions, and the session key comes with
	 * the WELCOME */
	nb_auth_hello_key(&pr->auth, cfg->psk, cfg->psk_len, pr->cn,
			  pr->session);
	ret = nb_peer_send(pr, &m);
	memset(&pr->auth, 0, sizeof(pr->auth));
	if (ret != 0 || nb_client_wait(pr, &ev) != 0) {
		/* a WELCOME came but did not check: say why (a forged one
		 * cannot end the wait early, only the timeout does) */
		if (pr->auth_error[0] != '\0')
			snprintf(t, sizeof(t), "%speer " NB_MAC_FMT ": %s",
				 nb_client_who(pr, who, sizeof(who)),
				 NB_MAC_ARGS(pr->peer_mac), pr->auth_error);
		else
			snprintf(t, sizeof(t),
				 "%speer " NB_MAC_FMT
				 " did not answer within %.1f s (is a "
				 "dpdk-nbench responder running there? see "
				 "--peer-timeout)",
				 nb_client_who(pr, who, sizeof(who)),
				 NB_MAC_ARGS(pr->peer_mac), cfg->peer_timeout);
		*code = fail(pr, "%s", t);
		return 1;
	}
	if (ev != NB_CLI_E_WELCOME) {
		nb_escape(ev == NB_CLI_E_BUSY	  ? pr->inbox.u.busy.reason
			  : ev == NB_CLI_E_REJECT ? pr->inbox.u.reject.reason
						  : pr->inbox.u.error.reason,
			  NB_CTL_REASON_STR, t, sizeof(t));
		snprintf(msg, sizeof(msg), "%s%s",
			 nb_client_who(pr, who, sizeof(who)),
			 ev == NB_CLI_E_BUSY ? "the responder is busy: %s"
					     : "the responder refused: %s");
		*code = fail(pr, msg, t);
		return 1;
	}
	pr->theirs = pr->inbox.u.conf;
	nb_client_adopt_clock(pr);
	nb_app_set_cookie(pr->app, pr->cn, sizeof(pr->cn));
	nb_cli_set(&pr->cli, NB_CLI_RUNNING, 0);
	*code = 0;
	if (cfg->quit)
		return client_quit(pr, code);
	if (cfg->conf) {
		/* the responder opened no session for a HELLO: nothing to
		 * close */
		nb_client_report_conf(pr);
		nb_cli_set(&pr->cli, NB_CLI_CLOSED, 0);
		return 1;
	}
	return 0;
}

/* What the responder said of its side (its strings made printable). */
static void
accept_setup(struct nb_peer *pr, const struct nb_ctl_accept *a)
{
	pr->peer_macs = a->responder_macs;
	pr->peer_offload = a->offload;
	nb_offload_printable(&pr->peer_offload);
	pr->peer_numa = a->numa;
}

/* DONE to the first n sessions (those that took PARAMS). */
static void
close_first(struct nb_peer *pr, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		client_close(nb_client_session_at(pr, k), NB_CTL_DONE);
}

/* PARAMS -> ACCEPT (or REJECT) of one session; an exit code (after a
 * refusal the session is closed and the cause reported). */
static int
params_one(struct nb_peer *pr, const struct nb_ctl_params *params)
{
	enum nb_cli_event ev = NB_CLI_E_NONE;
	struct nb_ctl_msg m;
	char why[256], who[48], msg[160];

	pr->params = *params;
	nb_client_params_to(pr, &pr->params);
	nb_cli_set(&pr->cli, NB_CLI_PARAMS, 0);
	nb_ctl_msg_init(&m, NB_CTL_PARAMS, pr->session);
	m.u.params = pr->params;
	nb_client_who(pr, who, sizeof(who));
	if (nb_peer_send(pr, &m) != 0 || nb_client_wait(pr, &ev) != 0) {
		snprintf(msg, sizeof(msg), "%s%%s", who);
		return fail(pr, msg, "the responder stopped answering");
	}
	if (ev != NB_CLI_E_ACCEPT) {
		/* end the session, so the responder serves the next one
		 * (BUSY: it opened none for us) */
		nb_cli_set(&pr->cli, NB_CLI_RUNNING, 0);
		if (ev != NB_CLI_E_BUSY)
			client_close(pr, NB_CTL_DONE);
		nb_escape(ev == NB_CLI_E_REJECT ? pr->inbox.u.reject.reason
			  : ev == NB_CLI_E_BUSY ? pr->inbox.u.busy.reason
						: pr->inbox.u.error.reason,
			  NB_CTL_REASON_STR, why, sizeof(why));
		snprintf(msg, sizeof(msg), "%s%s", who,
			 ev == NB_CLI_E_BUSY
				 ? "the responder is busy: %s"
				 : "the responder rejected the test: %s");
		return fail(pr, msg, why);
	}
	nb_cli_set(&pr->cli, NB_CLI_RUNNING, 0);
	accept_setup(pr, &pr->inbox.u.accept);
	return 0;
}

/* PARAMS -> ACCEPT with each responder, then our end of the test. */
static int
client_params(struct nb_peer *pr, struct nb_ctl_params *params)
{
	unsigned int k;
	char why[256];
	int code;

	nb_client_fill_params(pr, params);
	if (nb_mesh_peer_params(pr, params, why, sizeof(why)) != 0)
		return fail(pr, "%s", why);
	for (k = 0; k < nb_client_sessions(pr); k++) {
		code = params_one(nb_client_session_at(pr, k), params);
		if (code != 0) {
			close_first(pr, k);
			return code;
		}
	}
	if (nb_peertest_setup(pr, params, why, sizeof(why)) != 0) {
		close_first(pr, nb_client_sessions(pr));
		return fail(pr, "%s", why);
	}
	return 0;
}

/* A fresh session: unpredictable id, first seq and nonce (the kernel's
 * CSPRNG); 0 or -1. */
static int
new_session(struct nb_peer *pr)
{
	if (nb_auth_random(&pr->session, sizeof(pr->session)) != 0 ||
	    nb_auth_random(pr->cn, sizeof(pr->cn)) != 0)
		return -1;
	nb_link_reset(&pr->link);
	if (nb_auth_random(&pr->link.next_seq, sizeof(pr->link.next_seq)) != 0)
		return -1;
	pr->session |= 1;
	if (pr->link.next_seq == 0)
		pr->link.next_seq = 1;
	memset(&pr->auth, 0, sizeof(pr->auth));
	pr->event = NB_CLI_E_NONE;
	pr->stopping = 0;
	nb_offset_init(&pr->off);
	nb_cli_init(&pr->cli, pr->session, pr->peer_ip);
	pr->nap_short = 1;
	return 0;
}

/* A fresh session and its HELLO -> WELCOME with each responder; 1 when
 * that ended it (as client_hello). */
static int
hello_all(struct nb_peer *pr, int *code)
{
	unsigned int k;

	for (k = 0; k < nb_client_sessions(pr); k++) {
		struct nb_peer *g = nb_client_session_at(pr, k);

		if (new_session(g) != 0) {
			*code = fail(pr, "%s", "cannot read random bytes");
			return 1;
		}
		if (client_hello(g, code))
			return 1;
	}
	return 0;
}

/* STOP to each responder (each session's last message acknowledged
 * first); 0 or -1 when one stopped answering. */
static int
stop_all(struct nb_peer *pr)
{
	struct nb_ctl_msg m;
	unsigned int k;

	for (k = 0; k < nb_client_sessions(pr); k++) {
		struct nb_peer *g = nb_client_session_at(pr, k);

		g->stopping = 1;
		nb_client_flush(g);
		nb_ctl_msg_init(&m, NB_CTL_STOP, g->session);
		if (nb_peer_send(g, &m) != 0)
			return -1;
	}
	return 0;
}

/*
 * One session, HELLO to DONE: 0 with the responder's results in h and res
 * (*code 1 when interrupted); 1 when it ended otherwise (--quit or --conf
 * done, a failure reported) with *code the exit code.
 */
static int
client_session(struct nb_peer *pr, struct nb_ctl_params *params,
	       struct nb_ctl_results_hdr *h, struct nb_ctl_stream_res *res,
	       int *code)
{
	struct nb_app *app = pr->app;
	uint32_t nres = 0;
	int ret, interrupted;

	/* every session's HELLO: a sweep's or suite's trials too */
	nb_app_phase(NB_PHASE_CONNECTING);
	/* --quit and --conf end with the HELLO exchange */
	if (hello_all(pr, code))
		return 1;
	*code = client_params(pr, params);
	if (*code != 0)
		return 1;
	ret = nb_client_run_test(pr, params, code);
	if (ret < 0)
		return 1;
	interrupted = ret;
	nb_app_phase(NB_PHASE_DRAINING);
	/* STOP: the responders stop their senders and drain; so do we. */
	if (stop_all(pr) != 0) {
		*code = nb_client_partial(pr,
					  "the responder stopped answering");
		return 1;
	}
	if (pr->tcp == NULL) {
		/*
		 * The responder answers RESULTS once its senders have ended
		 * (a worker of its kept off its CPU may send the last frames
		 * late) and its receivers have drained: ours count until
		 * then, so that none of its frames is cut.  Ours stop first
		 * (they are done unless interrupted or stalled).
		 */
		nb_run_end_senders(app, 1);
		if (nb_client_group_fetch(pr, h, res, &nres) != 0 ||
		    nres != app->cfg.streams) {
			*code = nb_client_partial(pr, "could not fetch the "
						      "responder's results");
			return 1;
		}
		nb_peertest_stop(pr);
	} else {
		nb_peertest_stop(pr);
		if (nb_client_flush(pr) != 0) {
			*code = nb_client_partial(
				pr, "the responder stopped answering");
			return 1;
		}
		/* the report reads the blob */
		free(pr->blob);
		pr->blob = NULL;
		if (nb_client_fetch_blob(pr,
					 NB_CTL_TCPRES_HDR_LEN +
						 NB_CTL_BUCKET_LEN *
							 NB_HIST_BUCKETS +
						 (size_t)app->cfg.streams *
							 NB_CTL_TCPRES_CONN_LEN,
					 &pr->blob, &pr->blob_len) != 0) {
			*code = nb_client_partial(pr, "could not fetch the "
						      "responder's results");
			return 1;
		}
	}
	app->result.interrupted = interrupted;
	nb_app_phase(NB_PHASE_REPORTING);
	close_first(pr, nb_client_sessions(pr));
	*code = interrupted;
	return 0;
}

/* Room for the responder's per-stream results: a mesh has its streams
 * once the responder's ports are known, so room for the most (pages
 * untouched cost nothing). */
static struct nb_ctl_stream_res *
results_room(const struct nb_config *cfg)
{
	return calloc(cfg->mesh.nb_local ? NB_CTL_MAX_STREAMS : cfg->streams,
		      sizeof(struct nb_ctl_stream_res));
}

/* A suite's trial: one session at the trial's rate and length. */
static struct nb_result trial_result;

static int
peer_trial(void *ctx, struct nb_app *app, uint64_t rate_num, uint64_t rate_den,
	   uint64_t packets, const struct nb_result **r, char *err,
	   size_t errlen)
{
	struct nb_peer *pr = ctx;
	struct nb_ctl_stream_res *res = results_room(&app->cfg);
	struct nb_ctl_results_hdr h;
	struct nb_ctl_params params;
	const char *why = "out of memory";
	int code = 0;

	app->rate.unlimited = rate_num == 0;
	app->rate.pps_num = rate_num;
	app->rate.pps_den = rate_num ? rate_den : 1;
	app->total_packets = packets;
	app->result.error[0] = '\0';
	if (res != NULL && client_session(pr, &params, &h, res, &code) != 0)
		why = app->result.error[0] ? app->result.error
					   : "the session with the responder "
					     "failed";
	else if (res != NULL &&
		 nb_client_result(pr, &params, &h, res, &trial_result) != 0)
		why = "the mesh's pairs could not be put together";
	else if (res != NULL)
		why = NULL;
	free(res);
	*r = &trial_result;
	if (why == NULL)
		return 0;
	snprintf(err, errlen, "%s", why);
	nb_result_free(&trial_result);
	nb_peertest_free(pr);
	return -1;
}

static void
peer_trial_done(void *ctx, struct nb_app *app)
{
	(void)app;
	nb_result_free(&trial_result);
	nb_peertest_free(ctx);
}

/* The responder's address and ours (IPv4, or both IPv6: nb_stack.c),
 * the port and the control I/O; an exit code. */
static int
client_open(struct nb_peer *pr, struct nb_app *app)
{
	const struct nb_config *cfg = &app->cfg;

	pr->peer_ip = cfg->peer_is_ip	? cfg->peer_ip
		      : cfg->dst_ip_set ? cfg->dst_ip
					: NB_DEFAULT_DST_IP;
	if (cfg->stack.family == 6) {
		memcpy(pr->peer_ip6, cfg->stack.dst6.a, 16);
		pr->peer_ip = nb_ip6_key(pr->peer_ip6);
	}
	return nb_peer_open(pr, app, 1, cfg->have_ip ? cfg->ip : cfg->src_ip,
			    cfg->stack.family == 6 ? cfg->stack.src6.a : NULL);
}

/* --peer IP: its MAC by ARP (NDP); with several addresses, a session
 * for each further responder.  An exit code. */
static int
client_reach(struct nb_peer *pr)
{
	const struct nb_config *cfg = &pr->app->cfg;
	struct nb_peer *g = NULL;
	char who[48];

	if (cfg->peer_is_ip && nb_peer_resolve(pr) != 0) {
		const char *how = pr->io->v6 ? "neighbour discovery" : "ARP";

		return fail(pr,
			    nb_force_quit ? "interrupted while resolving the "
					    "--peer address (%s)"
					  : "no %s answer from the --peer "
					    "address (is a responder there, on "
					    "this link?)",
			    how);
	}
	if (cfg->nb_more_peers == 0 || nb_client_group_open(pr, &g) == 0)
		return 0;
	snprintf(who, sizeof(who), NB_IP4_FMT " (responder %u)",
		 NB_IP4_ARGS(g->peer_ip), g->mesh_owner);
	return fail(pr,
		    nb_force_quit ? "interrupted while resolving the --peer "
				    "address %s"
				  : "no ARP answer from the --peer address %s: "
				    "is a responder there, on this link?",
		    who);
}

/*
 * --pingpong with a --msg-size range: a session per size, one after the
 * other (a connection each, as the loopback sweep), a row per size; the
 * sweep stops at the first size that fails.
 */
static int
peer_sweep(struct nb_peer *pr)
{
	struct nb_app *app = pr->app;
	struct nb_config *cfg = &app->cfg;
	struct nb_ctl_params params;
	json_t *rows = json_array();
	char why[320] = "";
	int interrupted = 0, code = 0;
	uint32_t k;

	for (k = 0; k < cfg->tcp_msgs.n && !interrupted && !why[0]; k++) {
		cfg->tcp_msg = cfg->tcp_msgs.sizes[k];
		pr->sweep_later = k > 0;
		pr->more_sessions = k + 1 < cfg->tcp_msgs.n;
		if (client_session(pr, &params, NULL, NULL, &code) != 0 ||
		    pr->tcp == NULL) {
			nb_peertest_free(pr);
			json_decref(rows);
			return code ? code : 1;
		}
		interrupted = code;
		snprintf(why, sizeof(why), "%s", pr->tcp_why);
		if (k == 0)
			nb_tcprun_sweep_head(&app->out);
		json_array_append_new(
			rows, nb_tcprun_peer_sweep_row(pr->tcp, pr->blob,
						       pr->blob_len, why,
						       sizeof(why)));
		nb_peertest_free(pr);
	}
	return nb_tcprun_sweep_end(app, rows, interrupted, why);
}

/*
 * Across hosts, before a suite: one HELLO (the responder opens no session
 * for it, as for --conf) for the responder's ports and their link speeds;
 * the line rate of the mesh's sending ports in *bps, what the suite's
 * ceilings are of (0 when one of them reports no speed).  1 when the
 * suite is not to run (a failure, or --conf/--quit done), with *code.
 */
static int
mesh_line(struct nb_peer *pr, uint64_t *bps, int *code)
{
	uint16_t unknown = 0;
	char why[256], name[8];

	unsigned int k;

	*code = 0;
	if (hello_all(pr, code))
		return 1;
	for (k = 0; k < nb_client_sessions(pr); k++)
		nb_cli_set(&nb_client_session_at(pr, k)->cli, NB_CLI_CLOSED, 0);
	if (nb_mesh_peer_join(pr, why, sizeof(why)) != 0) {
		*code = fail(pr, "%s", why);
		return 1;
	}
	*bps = nb_mesh_line_bps(&pr->app->cfg.mesh, &unknown);
	if (*bps == 0)
		NB_LOG(WARNING,
		       "port %s reports no link speed: the suite's ceiling is "
		       "--rate in bit/s or pps, or a first trial at full speed",
		       nb_mesh_port_label(unknown, name, sizeof(name)));
	return 0;
}

/* A suite or sweep: each trial a session; failures go to the suite's
 * report.  An exit code. */
static int
client_suite(struct nb_peer *pr, uint64_t link_bps)
{
	struct nb_suite_runner run = {peer_trial, peer_trial_done, pr};
	unsigned int k;
	int code;

	if (pr->app->cfg.mesh.nb_local && mesh_line(pr, &link_bps, &code))
		return code;
	/* every responder's: failures go to the suite's report, and DONE
	 * says another session follows */
	for (k = 0; k < nb_client_sessions(pr); k++)
		nb_client_session_at(pr, k)->in_suite = 1;
	return nb_suite_main(pr->app, link_bps, "peer", &run);
}

int
nb_client_main(struct nb_app *app)
{
	static struct nb_peer pr;
	struct nb_config *cfg = &app->cfg;
	struct nb_ctl_results_hdr h;
	struct nb_ctl_stream_res *res = NULL;
	struct nb_ctl_params params;
	uint64_t link_bps;
	int ret, code = 0;

	memset(&pr, 0, sizeof(pr));
	pr.on_msg = nb_client_on_msg;
	/* interval lines come from the control lcore (nb_peer_iv_io.c), none
	 * with --pingpong; no progress line */
	app->out.progress = 0;
	if (cfg->pingpong || cfg->mesh.nb_local)
		app->out.intervals = 0; /* a mesh: the end's report only */
	memcpy(pr.peer_mac, cfg->peer_mac, 6);
	/* a replay's file first: the port is set up for its largest frame */
	if (nb_replay_setup(app) != 0)
		return 1;
	ret = client_open(&pr, app);
	if (ret != 0)
		return ret;
	nb_app_phase(NB_PHASE_CONNECTING);
	code = client_reach(&pr);
	if (code != 0)
		goto out;
	link_bps = (uint64_t)app->ports[0].desc.link_speed * 1000000;
	if (cfg->suite || cfg->sweep.n) {
		code = client_suite(&pr, link_bps);
		goto out;
	}
	/* across hosts a percentage is of the mesh's sending ports, known
	 * once the responder's are (nb_mesh_peer_params) */
	ret = cfg->mesh.nb_local && cfg->rate.kind == NB_RATE_PERCENT ? 0
	      : cfg->replay.active ? nb_replay_resolve(app, link_bps)
				   : nb_run_resolve(app, link_bps);
	if (ret != 0) {
		nb_app_error(app, "cannot resolve --rate%s",
			     ret == -ENOTSUP
				     ? ": the port reports no link speed "
				       "for a percentage"
				     : "");
		code = 2;
		goto out;
	}
	if (cfg->tcp && cfg->tcp_msgs.n) {
		code = peer_sweep(&pr);
		goto out;
	}
	res = results_room(cfg);
	if (res == NULL) {
		code = fail(&pr, "%s", "out of memory");
		goto out;
	}
	if (client_session(&pr, &params, &h, res, &code) == 0)
		code = pr.tcp != NULL ? nb_tcprun_peer_report(pr.tcp, pr.blob,
							      pr.blob_len, code,
							      pr.tcp_why)
				      : nb_client_report(&pr, &params, &h, res,
							 cfg->streams) != 0 ||
						code;
out:
	free(res);
	nb_peertest_free(&pr);
	nb_peer_close(&pr);
	app->result.replay = NULL;
	nb_replay_free(&app->replay);
	return code;
}
