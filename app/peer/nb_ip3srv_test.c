/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --iperf3-server's test, either protocol: the client's parameters as a
 * responder's test (nb_ctl_params) under the responder's caps; the start
 * (TEST_RUNNING), the end (TEST_END), our results once the client's came
 * (what it sent is let arrive first), the test freed.  The streams are
 * nb_ip3srv_udp.c's and nb_ip3srv_tcp.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_ip3conn.h"
#include "nb_ip3srv_int.h"
#include "nb_peertest.h"
#include "nb_policy.h"
#include "nb_rsp_posture.h"
#include "nb_run.h"
#include "nb_seam.h"
#include "nb_tcprun.h"

/* Ethernet, IPv4, UDP and FCS around a datagram (untagged) */
#define UDP_OVER 46

/* The client's test as the tool's: who sends, the rate in frames/s of
 * len + 46 bytes, the time or the count. */
static void
to_ctl(const struct nb_ip3s *x, struct nb_ctl_params *p)
{
	const struct nb_ip3_params *ip = &x->p;

	memset(p, 0, sizeof(*p));
	/* the responder's view: REVERSE, it sends */
	p->direction = ip->bidir     ? NB_CTL_DIR_BIDIR
		       : ip->reverse ? NB_CTL_DIR_REVERSE
				     : NB_CTL_DIR_FORWARD;
	p->streams = (uint16_t)ip->parallel;
	p->nb_sizes = 1;
	p->nb_pattern = 1;
	p->vlan_id = x->pr.app->cfg.vlan_id;
	p->duration_ms = (uint64_t)ip->time * 1000;
	if (!ip->udp) {
		/* TCP: a connection per stream each way; the MSS asked
		 * (iperf3's -M), else a 1518-byte frame's; its -w is the
		 * window; -n is checked here, and our senders' (nb_ip3s_go) */
		p->tcp = 1;
		p->streams = (uint16_t)nb_ip3s_nconn(x);
		p->proto = NB_IPPROTO_TCP;
		p->sizes[0] = (uint16_t)(ip->mss ? ip->mss + 58 : 1518);
		p->tcp_window = ip->window;
		p->dport = x->pr.app->cfg.ip3_port;
		p->bytes = ip->bytes;
		return;
	}
	p->proto = NB_IPPROTO_UDP;
	p->sizes[0] = (uint16_t)(ip->len + UDP_OVER);
	/* -b is a stream's payload bit rate */
	p->rate_num = ip->bandwidth * (uint64_t)ip->parallel;
	p->rate_den = p->rate_num ? (uint64_t)ip->len * 8 : 1;
	p->packets = ip->blocks ? ip->blocks
		     : ip->bytes && ip->len
			     ? (ip->bytes + ip->len - 1) / ip->len
			     : 0;
}

int32_t
nb_ip3s_check(struct nb_ip3s *x)
{
	struct nb_app *app = x->pr.app;
	struct nb_ctl_params p;
	char why[200];

	if (x->p.udp && (x->p.reverse || x->p.bidir) && x->p.udp64) {
		snprintf(x->why, sizeof(x->why),
			 "sending with 64-bit counters is not served yet");
		return 13; /* iperf3's "not yet implemented" */
	}
	/* every connection has its place (--bidir: twice -P) */
	if (nb_ip3s_nconn(x) > NB_IP3_MAX_STREAMS) {
		snprintf(x->why, sizeof(x->why),
			 "%u streams each way asked for (at most %d in all)",
			 x->nstreams, NB_IP3_MAX_STREAMS);
		return 6; /* IENUMSTREAMS */
	}
	if (x->p.udp &&
	    (x->p.len < NB_IP3_UDP_HDR64 || x->p.len > NB_FRAME_MAX)) {
		snprintf(x->why, sizeof(x->why), "a %u-byte datagram asked for",
			 x->p.len);
		return 7; /* IEBLOCKSIZE */
	}
	to_ctl(x, &p);
	x->cp = p;
	if (nb_rsp_check_params(app, &p, why, sizeof(why)) != 0) {
		snprintf(x->why, sizeof(x->why), "%s", why);
		return strstr(why, "streams") ? 6 : 7;
	}
	if (nb_policy_params(&app->cfg, &p, app->ports[0].desc.link_speed, why,
			     sizeof(why)) != 0) {
		snprintf(x->why, sizeof(x->why), "%s", why);
		/* IEDURATION, else IETOTALRATE ("total required bandwidth is
		 * larger than server limit") */
		return strstr(why, "--max-time") ? 5 : 27;
	}
	/* TCP: our senders' count is given at the start (nb_ip3s_go) */
	if (!x->p.udp)
		x->cp.bytes = 0;
	return 0;
}

void
nb_ip3s_go(struct nb_ip3s *x)
{
	if (x->pr.tcp != NULL)
		nb_tcprun_peer_go(x->pr.tcp, x->p.bidir ? x->nstreams : 0,
				  x->p.bytes);
	nb_run_cpu_now(&x->cpu0);
	x->t_start = nb_ip3_wall_now();
	x->ran = 1;
}

void
nb_ip3s_test_end(struct nb_ip3s *x)
{
	x->t_end = nb_ip3_wall_now();
	if (!x->test_ready)
		return;
	if (!x->p.udp) /* the streams close (nb_tcpw_turn_edges), as a
			* 3.12 server's: what is still coming is counted */
		x->pr.app->run.tx_stop = 1;
	else if (x->p.reverse || x->p.bidir)
		/* our senders stop (the client's datagrams came before its
		 * TEST_END: the receivers drain); and the worker that sent
		 * for control is done (a sender's worker ends with its
		 * senders): control sends on its own again */
		nb_peertest_stop(&x->pr);
}

/* What the client sent still arriving (its socket, the wire), or ours
 * still unacknowledged: waited for this long at most. */
#define SETTLE_NS (2000 * NB_MS)

void
nb_ip3s_results(struct nb_ip3s *x)
{
	struct nb_ip3_results *m = &x->mine;
	int tcp = !x->p.udp;
	uint64_t t0 = nb_peer_now(&x->pr);
	unsigned int i;

	while (x->test_ready && x->pr.test_ready &&
	       nb_peer_now(&x->pr) - t0 < SETTLE_NS && !nb_force_quit &&
	       !(tcp ? nb_ip3s_tcp_settled(x) : nb_ip3s_udp_settled(x))) {
		x->pump(x);
		nb_glue_nap_us(500);
	}
	memset(m, 0, sizeof(*m));
	/* a receiver's -1; a sender's (or both ways) what it knows */
	m->sender_has_retransmits = x->p.reverse || x->p.bidir ? tcp : -1;
	m->nstreams = nb_ip3s_nconn(x);
	if (x->ran)
		nb_ip3_cpu_share(&x->cpu0, m);
	if (tcp && x->test_ready) {
		for (i = 0; i < m->nstreams; i++) {
			struct nb_ip3_stream_res *s = &m->s[i];

			s->id = nb_ip3_stream_id(i);
			nb_ip3s_tcp_stream(x, i, &s->bytes, &s->retransmits);
			s->end_time = x->ran ? x->t_end - x->t_start : 0;
		}
		/* ours, sender or receiver (iperf3's *_tcp_congestion) */
		snprintf(m->congestion_used, sizeof(m->congestion_used), "%s",
			 x->pr.app->cfg.tcp_cc == NB_TCP_CC_CUBIC ? "cubic"
								  : "newreno");
		return;
	}
	if (x->test_ready)
		nb_peertest_stop(&x->pr);
	for (i = 0; i < m->nstreams; i++) {
		struct nb_ip3_stream_res *s = &m->s[i];

		s->id = nb_ip3_stream_id(i);
		s->retransmits = -1;
		s->end_time = x->ran ? x->t_end - x->t_start : 0;
		nb_ip3s_udp_stream(x, i, s);
	}
}

/* After IPERF_DONE the client closes its TCP streams: their FINs
 * answered, for this long at most. */
#define CLOSE_NS (500 * NB_MS)

void
nb_ip3s_test_free(struct nb_ip3s *x)
{
	uint64_t t0 = nb_peer_now(&x->pr);

	while (x->test_ready && x->pr.tcp != NULL && !nb_force_quit &&
	       !nb_tcprun_peer_finished(x->pr.tcp) &&
	       nb_peer_now(&x->pr) - t0 < CLOSE_NS) {
		x->pump(x);
		nb_glue_nap_us(500);
	}
	if (x->test_ready)
		nb_peertest_free(&x->pr);
	x->test_ready = 0;
	nb_jobs_ip3_sinks_free(x->sinks);
	x->sinks = NULL;
	x->nsinks = 0;
}
