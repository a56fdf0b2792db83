/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The responder: dpdk-nbench with no test options, like `iperf3 -s`.  It
 * serves one client at a time; which message is taken in which state is
 * nb_rsp's decision (app/core/nb_peer_sm.c), this file carries it out.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_log.h"
#include "nb_peertest.h"
#include "nb_responder.h"

static int
check_params(struct nb_peer *pr, const struct nb_ctl_params *p, char *why,
	     size_t len)
{
	const struct nb_app *app = pr->app;
	uint16_t i, vlan = p->vlan_id ? 4 : 0;

	for (i = 0; i < p->nb_sizes; i++) {
		if (p->sizes[i] > app->ports[0].desc.mtu + 18 + vlan &&
		    p->sizes[i] > 1518 + vlan) {
			snprintf(why, len,
				 "frame size %u exceeds the responder port's "
				 "MTU %u (start the responder with --size %u)",
				 p->sizes[i], app->ports[0].desc.mtu,
				 p->sizes[i]);
			return -EINVAL;
		}
	}
	if (p->streams > app->cfg.max_streams) {
		snprintf(why, len,
			 "%u streams asked for, this responder takes at most "
			 "%u (--max-streams)",
			 p->streams, app->cfg.max_streams);
		return -EINVAL;
	}
	return 0;
}

static void
end_session(struct nb_peer *pr, const char *why)
{
	if (why != NULL)
		NB_LOG(INFO, "session %08x ended: %s", pr->session, why);
	nb_peertest_free(pr);
	if (pr->app->cfg.one_off)
		pr->quit = 1;
	nb_rsp_end(&pr->rsp);
	pr->session = 0;
	pr->nap_short = 0;
	nb_link_reset(&pr->link);
}

static void
answer_busy(struct nb_peer *pr, const struct nb_udp_info *u,
	    const struct nb_ctl_msg *m)
{
	struct nb_ctl_msg r;

	nb_ctl_msg_init(&r, NB_CTL_BUSY, m->session);
	r.seq = 1;
	r.u.busy.asked_session = m->session;
	snprintf(r.u.busy.reason, sizeof(r.u.busy.reason),
		 "busy with a test for another client");
	nb_peer_send_raw(pr, &r, u->src_mac, u->src_ip);
	NB_LOG(INFO, "busy: refused another client (%08x)", m->session);
}

static void
setup_test(struct nb_peer *pr, const struct nb_ctl_params *p)
{
	struct nb_ctl_msg r;
	char why[128];
	int ok;

	pr->params = *p;
	ok = check_params(pr, p, why, sizeof(why)) == 0 &&
	     nb_peertest_setup(pr, p, why, sizeof(why)) == 0;
	nb_rsp_setup_done(&pr->rsp, ok);
	if (!ok) {
		nb_ctl_msg_init(&r, NB_CTL_REJECT, pr->session);
		r.u.reject.code = NB_CTL_CODE_PARAMS;
		snprintf(r.u.reject.reason, sizeof(r.u.reject.reason), "%s",
			 why);
		NB_LOG(NOTICE, "rejected the test: %s", why);
		nb_peer_send(pr, &r);
		return;
	}
	nb_ctl_msg_init(&r, NB_CTL_ACCEPT, pr->session);
	r.u.accept.rx_queues = pr->app->cfg.queues;
	nb_peer_send(pr, &r);
}

/* Echo the client's time with ours: its clock offset. */
static void
echo_clock(struct nb_peer *pr, const struct nb_ctl_msg *m)
{
	uint64_t t2 = nb_peer_now(pr);
	struct nb_ctl_msg r;

	nb_ctl_msg_init(&r, NB_CTL_KEEPALIVE, pr->session);
	r.seq = 1;
	r.u.ka.echo_ns = m->u.ka.sender_ns;
	r.u.ka.sender_ns = nb_peer_now(pr);
	r.u.ka.echo_delay_ns = r.u.ka.sender_ns - t2;
	if (r.u.ka.echo_ns == 0)
		r.u.ka.echo_delay_ns = 0;
	nb_peer_send_raw(pr, &r, pr->peer_mac, pr->peer_ip);
}

static void
on_msg(struct nb_peer *pr, const struct nb_udp_info *u, struct nb_ctl_msg *m)
{
	struct nb_ctl_msg r;

	switch (nb_rsp_gate(&pr->rsp, m)) {
	case NB_RSP_DROP:
		return;
	case NB_RSP_BUSY:
		answer_busy(pr, u, m);
		return;
	case NB_RSP_OPEN:
		/* Everything, QUIT included, starts with a HELLO. */
		nb_link_reset(&pr->link);
		nb_rsp_open(&pr->rsp, m->session);
		pr->session = m->session;
		memcpy(pr->peer_mac, u->src_mac, 6);
		pr->peer_ip = u->src_ip;
		pr->nap_short = 1;
		break;
	case NB_RSP_PASS:
		break;
	}
	if (!nb_peer_accept(pr, u, m))
		return;
	switch (nb_rsp_on_msg(&pr->rsp, m->type)) {
	case NB_RSP_A_WELCOME:
		pr->theirs = m->u.conf;
		NB_LOG(INFO, "session %08x opened: client %s (" NB_IP4_FMT ")",
		       m->session, m->u.conf.host, NB_IP4_ARGS(u->src_ip));
		nb_ctl_msg_init(&r, NB_CTL_WELCOME, pr->session);
		r.u.conf = pr->mine;
		nb_peer_send(pr, &r);
		break;
	case NB_RSP_A_SETUP:
		setup_test(pr, &m->u.params);
		break;
	case NB_RSP_A_ARM:
		pr->app->run.rx_offset_ns = m->u.start.rx_offset_ns;
		nb_peertest_arm(pr, (uint64_t)m->u.start.delay_ms * NB_MS);
		pr->nap_short = 0; /* the test runs: leave the CPU to workers */
		break;
	case NB_RSP_A_ECHO:
		echo_clock(pr, m);
		break;
	case NB_RSP_A_STOP:
		nb_peertest_stop(pr);
		if (nb_peertest_blob(pr) != 0)
			NB_LOG(ERR, "cannot build results");
		break;
	case NB_RSP_A_RESULTS:
		if (pr->blob == NULL)
			break;
		nb_ctl_msg_init(&r, NB_CTL_RESULTS, pr->session);
		if (nb_ctl_results_chunk(&r, pr->blob, pr->blob_len,
					 m->u.rreq.part) == 0)
			nb_peer_send(pr, &r);
		break;
	case NB_RSP_A_END:
		end_session(pr, "done");
		break;
	case NB_RSP_A_QUIT:
		end_session(pr, "the client asked us to quit");
		pr->quit = 1;
		break;
	case NB_RSP_A_NONE:
		break;
	}
}

int
nb_responder_main(struct nb_app *app)
{
	static struct nb_peer pr;
	const struct nb_config *cfg = &app->cfg;
	const uint8_t *mac;
	int ret;

	memset(&pr, 0, sizeof(pr));
	pr.on_msg = on_msg;
	nb_rsp_init(&pr.rsp);
	ret = nb_peer_open(&pr, app, 0,
			   cfg->have_ip ? cfg->ip : NB_DEFAULT_DST_IP);
	if (ret != 0)
		return ret;
	mac = app->ports[0].desc.mac;
	printf("dpdk-nbench responder on port %u (%s) mac " NB_MAC_FMT
	       " ip " NB_IP4_FMT ", control UDP port %d\n",
	       cfg->port, app->ports[0].desc.name, NB_MAC_ARGS(mac),
	       NB_IP4_ARGS(pr.io.ip), NB_CONTROL_UDP_PORT);
	fflush(stdout);
	app->state = "listening";
	while (!pr.quit && !nb_force_quit) {
		nb_ctlio_poll(&pr.io);
		if (pr.rsp.state != NB_RSP_IDLE &&
		    (nb_peer_service(&pr) != 0 ||
		     nb_peer_now(&pr) - pr.last_heard > pr.timeout_ns))
			end_session(&pr, "the client vanished");
		nb_peer_nap(&pr);
	}
	if (pr.rsp.state != NB_RSP_IDLE) {
		/* Tell the client at once rather than let it time out. */
		struct nb_ctl_msg e;

		nb_ctl_msg_init(&e, NB_CTL_ERROR, pr.session);
		e.seq = pr.link.next_seq;
		e.u.error.code = NB_CTL_CODE_INTERNAL;
		snprintf(e.u.error.reason, sizeof(e.u.error.reason),
			 "the responder was interrupted");
		nb_peer_send_raw(&pr, &e, pr.peer_mac, pr.peer_ip);
		end_session(&pr, "interrupted");
	}
	nb_peer_close(&pr);
	printf("dpdk-nbench responder: exiting\n");
	return 0;
}
