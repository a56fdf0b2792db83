/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --iperf3-server's UDP streams.  Each stream opens with iperf3's connect
 * datagram ("9876") from the client's stream socket to our port, answered
 * "6789" (the client's source port is now that stream's); once all are
 * in, the test is set up on the one runtime as a responder's test
 * (nb_peertest_setup, the client's -b, -l, -t/-k/-n as the tool's rate,
 * size and end): a client that sends is counted by the receivers'
 * sinks (nb_sink_ip3, keyed by the client's source ports); with -R the
 * senders send iperf3's datagrams from our port to each stream's.  Only
 * to the ports the client opened, from the address its control
 * connection came from.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "nb_ip3srv_int.h"
#include "nb_jobs.h"
#include "nb_ip3conn.h"
#include "nb_log.h"
#include "nb_peertest.h"
#include "nb_policy.h"
#include "nb_rsp_posture.h"
#include "nb_run.h"
#include "nb_seam.h"

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
	p->direction = ip->reverse ? NB_CTL_DIR_REVERSE : NB_CTL_DIR_FORWARD;
	p->proto = NB_IPPROTO_UDP;
	p->streams = (uint16_t)ip->parallel;
	p->nb_sizes = 1;
	p->sizes[0] = (uint16_t)(ip->len + UDP_OVER);
	p->nb_pattern = 1;
	/* -b is a stream's payload bit rate */
	p->rate_num = ip->bandwidth * (uint64_t)ip->parallel;
	p->rate_den = p->rate_num ? (uint64_t)ip->len * 8 : 1;
	p->duration_ms = (uint64_t)ip->time * 1000;
	p->packets = ip->blocks ? ip->blocks
		     : ip->bytes && ip->len
			     ? (ip->bytes + ip->len - 1) / ip->len
			     : 0;
}

int32_t
nb_ip3s_udp_check(struct nb_ip3s *x)
{
	struct nb_app *app = x->pr.app;
	struct nb_ctl_params p;
	char why[200];

	if (!x->p.udp || x->p.bidir || (x->p.reverse && x->p.udp64)) {
		snprintf(x->why, sizeof(x->why),
			 "%s is not served yet (UDP, either way, is)",
			 !x->p.udp    ? "a TCP test"
			 : x->p.bidir ? "a bidirectional test"
				      : "-R with 64-bit counters");
		return 13; /* iperf3's "not yet implemented" */
	}
	if (x->p.len < NB_IP3_UDP_HDR64 || x->p.len > 9000) {
		snprintf(x->why, sizeof(x->why), "a %u-byte datagram asked for",
			 x->p.len);
		return 7; /* IEBLOCKSIZE */
	}
	to_ctl(x, &p);
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
	return 0;
}

static int
reply(struct nb_ip3s *x, const struct nb_udp_info *u)
{
	struct nb_udp_info h;
	uint8_t frame[128], msg[NB_IP3_UDP_CONNECT_LEN];
	int n;

	memset(&h, 0, sizeof(h));
	memcpy(h.dst_mac, x->pr.peer_mac, 6);
	memcpy(h.src_mac, x->pr.io.mac, 6);
	h.vlan_id = x->pr.app->cfg.vlan_id;
	h.src_ip = x->pr.io.ip;
	h.dst_ip = u->src_ip;
	h.src_port = u->dst_port;
	h.dst_port = u->src_port;
	nb_ip3_udp_connect_reply(msg);
	n = nb_udp_frame_build(frame, sizeof(frame), &h, msg, sizeof(msg));
	if (n < 0)
		return n;
	return nb_ctlio_send_frame(&x->pr.io, frame, (uint16_t)n);
}

/* All streams in: the test on the runtime, its sinks or senders' ports;
 * started at once (TEST_RUNNING follows). */
static int
setup(struct nb_ip3s *x)
{
	struct nb_app *app = x->pr.app;
	struct nb_ctl_params p;
	struct timespec ts;
	uint64_t epoch;
	unsigned int i;
	char err[200];

	to_ctl(x, &p);
	app->cfg.data_dport = app->cfg.ip3_port;
	app->cfg.interval = 0;
	app->out.intervals = 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	epoch = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec -
		nb_peer_now(&x->pr);
	if (nb_peertest_setup(&x->pr, &p, err, sizeof(err)) != 0) {
		snprintf(x->why, sizeof(x->why), "cannot set up the test: %s",
			 err);
		return -EINVAL;
	}
	x->test_ready = 1;
	if (x->p.reverse) {
		nb_jobs_udp_ports(&app->jobs, app->cfg.ip3_port, x->cport,
				  x->nstreams);
		for (i = 0; i < app->jobs.nb_tx; i++)
			app->jobs.tx[i]->ip3_epoch_ns = epoch;
	} else {
		struct nb_ip3_sink k;

		memset(&k, 0, sizeof(k));
		k.peer_ip = x->client_ip;
		k.my_ip = x->pr.io.ip;
		k.fixed_port = app->cfg.ip3_port;
		k.by_src = 1;
		k.c64 = (uint8_t)x->p.udp64;
		k.n = (uint16_t)x->nstreams;
		k.epoch_ns = epoch;
		memcpy(k.port, x->cport, sizeof(k.port));
		x->sinks = nb_jobs_ip3_sinks(&app->jobs, &k);
		if (x->sinks == NULL) {
			snprintf(x->why, sizeof(x->why),
				 "out of hugepage memory");
			return -ENOMEM;
		}
		x->nsinks = app->jobs.nb_rx;
	}
	nb_peertest_arm(&x->pr, 0);
	nb_run_cpu_now(&x->cpu0);
	x->t_start = nb_ip3_wall_now();
	x->ran = 1;
	return 0;
}

int
nb_ip3s_udp_frame(struct nb_ip3s *x, const struct nb_udp_info *u)
{
	unsigned int i;

	if (u->v6 || u->src_ip != x->client_ip ||
	    u->dst_port != x->pr.app->cfg.ip3_port ||
	    !nb_ip3_udp_is_connect(u->payload, u->payload_len))
		return 0;
	for (i = 0; i < x->connected && x->cport[i] != u->src_port; i++)
		;
	if (i == x->connected) { /* a new stream */
		if (x->test_ready || x->connected >= x->nstreams)
			return 0;
		x->cport[x->connected++] = u->src_port;
	}
	reply(x, u);
	if (x->connected < x->nstreams || x->test_ready)
		return 0;
	return setup(x) == 0 ? 1 : -EIO;
}

void
nb_ip3s_udp_stop(struct nb_ip3s *x)
{
	const struct nb_result *r = &x->pr.app->result;
	struct nb_ip3_results *m = &x->mine;
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->sender_has_retransmits = x->p.reverse ? 0 : -1;
	m->nstreams = x->nstreams;
	if (x->test_ready) {
		struct nb_cpu_usage c;

		x->t_end = nb_ip3_wall_now();
		nb_run_cpu_now(&c);
		nb_peertest_stop(&x->pr);
		/* this process's share of one CPU, as iperf3 reports its own
		 * (a busy-polling worker is about 100 of it) */
		if (c.wall_ns > x->cpu0.wall_ns) {
			double w = (double)(c.wall_ns - x->cpu0.wall_ns);

			m->cpu_user = 100.0 *
				      (double)(c.user_ns - x->cpu0.user_ns) / w;
			m->cpu_system =
				100.0 *
				(double)(c.system_ns - x->cpu0.system_ns) / w;
			m->cpu_total = m->cpu_user + m->cpu_system;
		}
	}
	for (i = 0; i < m->nstreams; i++) {
		struct nb_ip3_stream_res *s = &m->s[i];
		struct nb_ip3_udp_rx u;

		s->id = nb_ip3_stream_id(i);
		s->retransmits = -1;
		s->end_time = x->ran ? x->t_end - x->t_start : 0;
		if (x->p.reverse) {
			s->packets = i < r->nb_streams
					     ? (int64_t)r->streams[i].tx_pkts
					     : 0;
			s->bytes = (uint64_t)s->packets * x->p.len;
			continue;
		}
		nb_jobs_ip3_stream(x->sinks, x->nsinks, i, &u);
		s->bytes = u.bytes;
		s->packets = (int64_t)u.packet_count;
		s->errors = u.cnt_error;
		s->jitter = u.jitter_ns / 1e9;
	}
}

void
nb_ip3s_udp_free(struct nb_ip3s *x)
{
	if (x->test_ready)
		nb_peertest_free(&x->pr);
	x->test_ready = 0;
	nb_jobs_ip3_sinks_free(x->sinks);
	x->sinks = NULL;
	x->nsinks = 0;
}
