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

#include "nb_ip3srv_int.h"
#include "nb_jobs.h"
#include "nb_ip3conn.h"
#include "nb_peertest.h"
#include "nb_run.h"
#include "nb_seam.h"

static int
reply(struct nb_ip3s *x, const struct nb_udp_info *u)
{
	struct nb_udp_info h;
	uint8_t frame[128], msg[NB_IP3_UDP_CONNECT_LEN];
	int n;

	memset(&h, 0, sizeof(h));
	memcpy(h.dst_mac, x->pr.peer_mac, 6);
	memcpy(h.src_mac, x->pr.io->mac, 6);
	h.vlan_id = x->pr.app->cfg.vlan_id;
	h.src_ip = x->pr.io->ip;
	h.dst_ip = u->src_ip;
	h.src_port = u->dst_port;
	h.dst_port = u->src_port;
	nb_ip3_udp_connect_reply(msg);
	n = nb_udp_frame_build(frame, sizeof(frame), &h, msg, sizeof(msg));
	if (n < 0)
		return n;
	return nb_ctlio_send_frame(x->pr.io, frame, (uint16_t)n);
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

	p = x->cp;
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
	if (x->p.reverse || x->p.bidir) {
		/* ours: the client's last streams (all with -R) */
		nb_jobs_udp_ports(&app->jobs, app->cfg.ip3_port,
				  x->cport + (x->p.bidir ? x->nstreams : 0),
				  x->nstreams);
		for (i = 0; i < app->jobs.nb_tx; i++)
			app->jobs.tx[i]->ip3_epoch_ns = epoch;
	}
	if (!x->p.reverse) { /* the client's first streams */
		struct nb_ip3_sink k;

		memset(&k, 0, sizeof(k));
		k.peer_ip = x->client_ip;
		k.my_ip = x->pr.io->ip;
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
		if (x->test_ready || x->connected >= nb_ip3s_nconn(x))
			return 0;
		x->cport[x->connected++] = u->src_port;
	}
	reply(x, u);
	if (x->connected < nb_ip3s_nconn(x) || x->test_ready)
		return 0;
	return setup(x) == 0 ? 1 : -EIO;
}

/* Every datagram of the client's results counted (a client that sent). */
int
nb_ip3s_udp_settled(const struct nb_ip3s *x)
{
	unsigned int i, k;

	for (i = 0; i < nb_ip3s_nconn(x); i++) {
		struct nb_ip3_udp_rx u;

		if (nb_ip3s_sends(x, i))
			continue;
		nb_jobs_ip3_stream(x->sinks, x->nsinks, i, &u);
		for (k = 0; k < x->peer.nstreams; k++)
			if (x->peer.s[k].id == nb_ip3_stream_id(i) &&
			    (int64_t)u.datagrams < x->peer.s[k].packets)
				return 0;
	}
	return 1;
}

void
nb_ip3s_udp_stream(const struct nb_ip3s *x, unsigned int i,
		   struct nb_ip3_stream_res *s)
{
	const struct nb_result *r = &x->pr.app->result;
	unsigned int j = x->p.bidir ? i - x->nstreams : i;
	struct nb_ip3_udp_rx u;

	if (nb_ip3s_sends(x, i)) {
		s->packets =
			j < r->nb_streams ? (int64_t)r->streams[j].tx_pkts : 0;
		s->bytes = (uint64_t)s->packets * x->p.len;
		return;
	}
	nb_jobs_ip3_stream(x->sinks, x->nsinks, i, &u);
	s->bytes = u.bytes;
	s->packets = (int64_t)u.packet_count;
	s->errors = u.cnt_error;
	s->jitter = u.jitter_ns / 1e9;
}
