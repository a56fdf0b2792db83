/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --iperf3's UDP streams: each stream's source port proven to the server
 * by iperf3's connect datagram (sent by the control lcore), then the
 * usual open-loop generator on the one test runtime (nb_peertest, as a
 * peer client's forward test) sending to HOST:PORT with iperf3's datagram
 * header in place of the stamp (nb_txjob.ip3_epoch_ns, chosen at setup);
 * then our results as iperf3's client sends them.  --reverse: the server
 * sends; the receivers count its datagrams as iperf3 does (an
 * nb_ip3_sink per RX job, nb_sink_ip3) until the server has stopped (its
 * EXCHANGE_RESULTS), so every datagram it sent is counted or lost.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "nb_ip3client_int.h"
#include "nb_jobs.h"
#include "nb_ip3conn.h"
#include "nb_log.h"
#include "nb_output.h"
#include "nb_result.h"
#include "nb_peertest.h"
#include "nb_phase.h"
#include "nb_run.h"
#include "nb_seam.h"
#include "nb_worker.h"

/* a connect datagram is sent this often, this many times, until answered */
#define CONNECT_WAIT_NS (1000 * NB_MS)
#define CONNECT_TRIES	3

static int
replied(const struct nb_ip3c *x, unsigned int i)
{
	return (x->replied[i / 64] >> (i % 64)) & 1;
}

/* Stream i's source port: the generator's (nb_stack_flow). */
static uint16_t
stream_port(unsigned int i)
{
	return (uint16_t)(NB_DEFAULT_SPORT_BASE + i);
}

void
nb_ip3c_udp_frame(struct nb_ip3c *x, const struct nb_udp_info *u)
{
	unsigned int i = (unsigned int)u->dst_port - NB_DEFAULT_SPORT_BASE;

	if (u->v6 || u->src_ip != x->flow.dst_ip ||
	    u->dst_ip != x->flow.src_ip || u->src_port != x->flow.dst_port ||
	    u->dst_port < NB_DEFAULT_SPORT_BASE || i >= nb_ip3c_nconn(x))
		return;
	if (nb_ip3_udp_is_reply(u->payload, u->payload_len))
		x->replied[i / 64] |= 1ull << (i % 64);
}

static int
send_connect(struct nb_ip3c *x, unsigned int i)
{
	struct nb_udp_info h;
	uint8_t frame[128], msg[NB_IP3_UDP_CONNECT_LEN];
	int n;

	memset(&h, 0, sizeof(h));
	memcpy(h.dst_mac, x->flow.dst_mac, 6);
	memcpy(h.src_mac, x->flow.src_mac, 6);
	h.vlan_id = x->flow.vlan_id;
	h.src_ip = x->flow.src_ip;
	h.dst_ip = x->flow.dst_ip;
	h.src_port = stream_port(i);
	h.dst_port = x->flow.dst_port;
	nb_ip3_udp_connect_msg(msg);
	n = nb_udp_frame_build(frame, sizeof(frame), &h, msg, sizeof(msg));
	if (n < 0)
		return n;
	return nb_ctlio_send_frame(x->pr.io, frame, (uint16_t)n);
}

/*
 * iperf3's server takes the streams one at a time (a listening socket
 * each), so they connect in turn.  A retry is sent only after a second
 * without an answer: a duplicate that reached the next stream's socket
 * would bind it to the wrong port.
 */
int
nb_ip3c_udp_connect(struct nb_ip3c *x, unsigned int n)
{
	unsigned int i, k;

	/* every connection has its place (--bidir: twice the streams) */
	if (n == 0 || n * (x->bidir ? 2u : 1u) > NB_IP3_MAX_STREAMS) {
		snprintf(x->why, sizeof(x->why),
			 "%u streams asked for (at most %d connections)", n,
			 NB_IP3_MAX_STREAMS);
		return -EINVAL;
	}
	x->nstreams = n;
	/* --reverse: the server sends from its TEST_RUNNING, which follows
	 * the last connect reply at once: the receivers count from before
	 * (the replies reach control through them) */
	if ((x->reverse || x->bidir) && nb_ip3c_udp_setup(x) != 0)
		return -EINVAL;
	for (i = 0; i < nb_ip3c_nconn(x); i++) {
		for (k = 0; k < CONNECT_TRIES && !replied(x, i); k++) {
			uint64_t t0 = nb_peer_now(&x->pr);

			send_connect(x, i);
			while (!replied(x, i) && !nb_force_quit &&
			       nb_peer_now(&x->pr) - t0 < CONNECT_WAIT_NS) {
				x->pump(x);
				nb_glue_nap_us(200);
			}
		}
		if (!replied(x, i)) {
			snprintf(x->why, sizeof(x->why),
				 "no answer to UDP stream %u's connect "
				 "datagram (port %u to %u, %d tries)",
				 i + 1, stream_port(i), x->flow.dst_port,
				 CONNECT_TRIES);
			return -ETIMEDOUT;
		}
	}
	return 0;
}

/* --reverse (--bidir): a sink on each receiver, for the server's
 * datagrams to our streams (the second half of our ports). */
static int
sinks_setup(struct nb_ip3c *x, uint64_t epoch)
{
	struct nb_ip3_sink k;
	unsigned int i;

	memset(&k, 0, sizeof(k));
	k.peer_ip = x->flow.dst_ip;
	k.my_ip = x->flow.src_ip;
	k.fixed_port = x->flow.dst_port;
	k.by_src = 0;
	k.n = (uint16_t)x->nstreams;
	k.epoch_ns = epoch;
	for (i = 0; i < x->nstreams; i++)
		k.port[i] = stream_port(x->bidir ? x->nstreams + i : i);
	x->sinks = nb_jobs_ip3_sinks(&x->pr.app->jobs, &k);
	if (x->sinks == NULL) {
		snprintf(x->why, sizeof(x->why), "out of hugepage memory");
		return -ENOMEM;
	}
	x->nsinks = x->pr.app->jobs.nb_rx;
	return 0;
}

int
nb_ip3c_udp_setup(struct nb_ip3c *x)
{
	struct nb_app *app = x->pr.app;
	struct nb_config *cfg = &app->cfg;
	struct nb_ctl_params p;
	struct timespec ts;
	uint64_t epoch;
	unsigned int i;
	char err[200];

	memset(&p, 0, sizeof(p));
	p.direction = x->bidir	   ? NB_CTL_DIR_BIDIR
		      : x->reverse ? NB_CTL_DIR_REVERSE
				   : NB_CTL_DIR_FORWARD;
	p.proto = NB_IPPROTO_UDP;
	p.vlan_id = cfg->vlan_id;
	p.streams = x->nstreams;
	p.nb_sizes = 1;
	p.sizes[0] = cfg->sizes.sizes[0];
	p.nb_pattern = 1;
	p.rate_num = app->rate.unlimited ? 0 : app->rate.pps_num;
	p.rate_den = app->rate.unlimited ? 1 : app->rate.pps_den;
	p.packets = app->total_packets;
	p.duration_ms = (uint64_t)(cfg->duration * 1000.0 + 0.5);
	cfg->data_dport = cfg->ip3_port;
	clock_gettime(CLOCK_REALTIME, &ts);
	epoch = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec -
		nb_peer_now(&x->pr);
	cfg->interval = 0;
	app->out.intervals = 0;
	if (nb_peertest_setup(&x->pr, &p, err, sizeof(err)) != 0) {
		snprintf(x->why, sizeof(x->why), "cannot set up the test: %s",
			 err);
		return -EINVAL;
	}
	x->test_ready = 1;
	if ((x->reverse || x->bidir) && sinks_setup(x, epoch) != 0)
		return -ENOMEM;
	if (x->reverse)
		return 0;
	/* iperf3's header in place of the stamp: each sender's choice,
	 * made here, before the start (the workers build no frame yet) */
	for (i = 0; i < app->jobs.nb_tx; i++)
		app->jobs.tx[i]->ip3_epoch_ns = epoch;
	return 0;
}

/*
 * --reverse: the server sends from TEST_RUNNING on; the test ends at
 * --time, or once --packets datagrams came (iperf3's -k), or when they
 * stopped coming for STALL_NS (a count that loss keeps out of reach,
 * where iperf3 would wait forever).  The receivers go on counting until
 * the server has stopped: nb_ip3c_udp_results() stops them.
 */
#define STALL_NS (2000 * NB_MS)
static int
reverse_run(struct nb_ip3c *x)
{
	struct nb_app *app = x->pr.app;
	uint64_t t0, now, last = 0, last_t, blocks = app->total_packets;
	uint64_t dur = (uint64_t)(app->cfg.duration * 1e9 + 0.5);

	nb_peertest_arm(&x->pr, 0);
	nb_app_phase(NB_PHASE_RUNNING);
	x->t_start = nb_ip3_wall_now();
	t0 = last_t = nb_peer_now(&x->pr);
	for (;;) {
		uint64_t got;

		x->pump(x);
		if (x->c.error != NB_TCP_OK || nb_force_quit)
			break;
		now = nb_peer_now(&x->pr);
		got = nb_jobs_ip3_datagrams(x->sinks, x->nsinks);
		if (got != last) {
			last = got;
			last_t = now;
		}
		if (blocks ? got >= blocks || now - last_t > STALL_NS
			   : now - t0 >= dur)
			break;
		nb_glue_nap_us(500);
	}
	x->t_end = nb_ip3_wall_now();
	x->ran = 1;
	return nb_ip3c_run_end(x);
}

int
nb_ip3c_udp_run(struct nb_ip3c *x)
{
	struct nb_app *app = x->pr.app;
	struct nb_jobs_totals t;
	uint64_t seen = 0, since = 0;

	if (x->reverse)
		return reverse_run(x);
	nb_peertest_arm(&x->pr, 10 * NB_MS);
	nb_app_phase(NB_PHASE_RUNNING);
	x->t_start = nb_ip3_wall_now() + 0.01;
	for (;;) {
		x->pump(x);
		if (x->c.error != NB_TCP_OK)
			break;
		nb_jobs_totals(&app->jobs, &t);
		if (t.tx_done || nb_force_quit ||
		    nb_run_tx_stalled(app, nb_glue_tsc(), &seen, &since))
			break;
		nb_glue_nap_us(1000);
	}
	nb_peertest_stop(&x->pr);
	x->t_end = nb_ip3_wall_now();
	x->ran = 1;
	return nb_ip3c_run_end(x);
}

/* Our stream i (its sink stream k) as a receiver's result. */
static void
received_stream(const struct nb_ip3c *x, unsigned int i, unsigned int k,
		struct nb_ip3_stream_res *s)
{
	struct nb_ip3_udp_rx r;

	nb_jobs_ip3_stream(x->sinks, x->nsinks, k, &r);
	s->id = nb_ip3_stream_id(i);
	s->retransmits = -1;
	s->end_time = x->t_end - x->t_start;
	s->bytes = r.bytes;
	s->errors = r.cnt_error;
	s->packets = (int64_t)r.packet_count;
	s->jitter = r.jitter_ns / 1e9;
}

/*
 * --reverse: the server has stopped sending (EXCHANGE_RESULTS came): the
 * receivers drained and stopped, each stream's counts summed over them
 * (a stream's datagrams reach one queue; its jitter is that queue's).
 */
static void
reverse_results(struct nb_ip3c *x)
{
	struct nb_ip3_results *m = &x->mine;
	unsigned int i;

	nb_peertest_stop(&x->pr);
	memset(m, 0, sizeof(*m));
	m->sender_has_retransmits = -1; /* a receiver's, as iperf3's */
	m->nstreams = x->nstreams;
	for (i = 0; i < m->nstreams; i++)
		received_stream(x, i, i, &m->s[i]);
}

void
nb_ip3c_udp_results(struct nb_ip3c *x)
{
	const struct nb_result *r = &x->pr.app->result;
	struct nb_ip3_results *m = &x->mine;
	unsigned int i;

	if (x->reverse) {
		reverse_results(x);
		return;
	}
	memset(m, 0, sizeof(*m));
	m->sender_has_retransmits = 0;
	m->nstreams = r->nb_streams < NB_IP3_MAX_STREAMS ? r->nb_streams
							 : NB_IP3_MAX_STREAMS;
	/* --bidir: the server's streams to us after ours */
	for (i = 0; x->bidir && i < x->nstreams; i++)
		received_stream(x, x->nstreams + i, i, &m->s[m->nstreams + i]);
	for (i = 0; i < m->nstreams; i++) {
		struct nb_ip3_stream_res *s = &m->s[i];

		s->id = nb_ip3_stream_id(i);
		s->packets = (int64_t)r->streams[i].tx_pkts;
		s->bytes = r->streams[i].tx_pkts * x->len;
		s->retransmits = -1;
		s->start_time = 0;
		s->end_time = r->tx_seconds;
	}
	if (x->bidir)
		m->nstreams += x->nstreams;
}

void
nb_ip3c_udp_free(struct nb_ip3c *x)
{
	if (x->test_ready)
		nb_peertest_free(&x->pr);
	x->test_ready = 0;
	nb_jobs_ip3_sinks_free(x->sinks);
	x->sinks = NULL;
	x->nsinks = 0;
}
