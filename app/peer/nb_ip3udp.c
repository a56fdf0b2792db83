/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --iperf3's UDP streams: each stream's source port proven to the server
 * by iperf3's connect datagram (sent by the control lcore), then the
 * usual open-loop generator on the one test runtime (nb_peertest, as a
 * peer client's forward test) sending to HOST:PORT with iperf3's datagram
 * header in place of the stamp (nb_txjob.ip3_epoch_ns, chosen at setup);
 * then our results as iperf3's client sends them, and the report.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "nb_ip3client_int.h"
#include "nb_jobs.h"
#include "nb_log.h"
#include "nb_output.h"
#include "nb_result.h"
#include "nb_peertest.h"
#include "nb_phase.h"
#include "nb_run.h"
#include "nb_seam.h"

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
	    u->dst_port < NB_DEFAULT_SPORT_BASE || i >= x->nstreams)
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
	return nb_ctlio_send_frame(&x->pr.io, frame, (uint16_t)n);
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

	if (n == 0 || n > NB_IP3_MAX_STREAMS) {
		snprintf(x->why, sizeof(x->why), "%u streams asked for", n);
		return -EINVAL;
	}
	x->nstreams = n;
	for (i = 0; i < n; i++) {
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

static double
wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
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
	p.direction = NB_CTL_DIR_FORWARD;
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
	/* iperf3's header in place of the stamp: each sender's choice,
	 * made here, before the start (the workers build no frame yet) */
	for (i = 0; i < app->jobs.nb_tx; i++)
		app->jobs.tx[i]->ip3_epoch_ns = epoch;
	x->test_ready = 1;
	return 0;
}

int
nb_ip3c_udp_run(struct nb_ip3c *x)
{
	struct nb_app *app = x->pr.app;
	struct nb_jobs_totals t;
	uint64_t seen = 0, since = 0;
	int lost = 0;

	nb_peertest_arm(&x->pr, 10 * NB_MS);
	nb_app_phase(NB_PHASE_RUNNING);
	x->t_start = wall_now() + 0.01;
	for (;;) {
		x->pump(x);
		if (x->c.error != NB_TCP_OK) {
			lost = 1;
			break;
		}
		nb_jobs_totals(&app->jobs, &t);
		if (t.tx_done || nb_force_quit ||
		    nb_run_tx_stalled(app, nb_glue_tsc(), &seen, &since))
			break;
		nb_glue_nap_us(1000);
	}
	nb_peertest_stop(&x->pr);
	x->t_end = wall_now();
	x->ran = 1;
	if (lost) {
		snprintf(x->why, sizeof(x->why),
			 "the control connection failed during the test");
		return -EPIPE;
	}
	if (nb_force_quit) {
		snprintf(x->why, sizeof(x->why), "interrupted");
		return -EINTR;
	}
	return 0;
}

/* iperf3's stream ids: 1, then 3, 4, 5... (iperf_add_stream in 3.12) */
static int32_t
stream_id(unsigned int i)
{
	return i == 0 ? 1 : (int32_t)i + 2;
}

void
nb_ip3c_udp_results(struct nb_ip3c *x)
{
	const struct nb_result *r = &x->pr.app->result;
	struct nb_ip3_results *m = &x->mine;
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->sender_has_retransmits = 0;
	m->nstreams = r->nb_streams < NB_IP3_MAX_STREAMS ? r->nb_streams
							 : NB_IP3_MAX_STREAMS;
	for (i = 0; i < m->nstreams; i++) {
		struct nb_ip3_stream_res *s = &m->s[i];

		s->id = stream_id(i);
		s->packets = (int64_t)r->streams[i].tx_pkts;
		s->bytes = r->streams[i].tx_pkts * x->len;
		s->retransmits = -1;
		s->start_time = 0;
		s->end_time = r->tx_seconds;
	}
}

void
nb_ip3c_udp_free(struct nb_ip3c *x)
{
	if (x->test_ready)
		nb_peertest_free(&x->pr);
	x->test_ready = 0;
}

/* One side's figures of a stream, or their sum (iperf3's "udp" keys). */
struct side {
	double seconds;
	uint64_t bytes;
	int64_t packets, lost;
	double jitter_ms;
};

static void
side_text(int32_t id, const struct side *s, const char *who)
{
	double bps = s->seconds > 0 ? s->bytes * 8.0 / s->seconds : 0;
	char idtxt[16];

	if (id > 0)
		snprintf(idtxt, sizeof(idtxt), "%3d", (int)id);
	else
		snprintf(idtxt, sizeof(idtxt), "SUM");
	printf("[%s]   0.00-%-6.2f sec  %8.2f MBytes  %8.2f Mbits/sec  "
	       "%7.3f ms  %" PRId64 "/%" PRId64 " (%.2g%%)  %s\n",
	       idtxt, s->seconds, s->bytes / 1048576.0, bps / 1e6, s->jitter_ms,
	       s->lost, s->packets,
	       s->packets > 0 ? 100.0 * s->lost / s->packets : 0.0, who);
}

/* Ours (i < mine) or the server's stream of that id; sum when id < 0. */
static void
sides(const struct nb_ip3c *x, int32_t id, struct side *snd, struct side *rcv)
{
	unsigned int i;

	memset(snd, 0, sizeof(*snd));
	memset(rcv, 0, sizeof(*rcv));
	for (i = 0; i < x->mine.nstreams; i++) {
		const struct nb_ip3_stream_res *s = &x->mine.s[i];

		if (id >= 0 && s->id != id)
			continue;
		snd->bytes += s->bytes;
		snd->packets += s->packets;
		snd->seconds = s->end_time;
	}
	for (i = 0; x->have_peer && i < x->peer.nstreams; i++) {
		const struct nb_ip3_stream_res *s = &x->peer.s[i];

		if (id >= 0 && s->id != id)
			continue;
		rcv->bytes += s->bytes;
		rcv->packets += s->packets;
		rcv->lost += s->errors;
		rcv->jitter_ms += s->jitter * 1000.0;
		if (s->end_time > rcv->seconds)
			rcv->seconds = s->end_time;
	}
	/* a sum's jitter: the streams' mean, as iperf3's avg_jitter */
	if (id < 0 && x->have_peer && x->peer.nstreams)
		rcv->jitter_ms /= x->peer.nstreams;
}

/*
 * The server's receiver figures into our result's receive side, in the
 * tool's units: iperf3's "packets" is the highest count seen, "errors"
 * the gaps, so packets - errors arrived; bytes are frames of --size.
 */
static void
server_into_result(const struct nb_ip3c *x, struct nb_result *r)
{
	uint32_t frame = x->pr.app->cfg.sizes.sizes[0];
	unsigned int i, k;

	r->rx_seconds = 0;
	r->latency_method = "none (an iperf3 server measures none)";
	for (i = 0; i < r->nb_streams; i++) {
		struct nb_stream_result *s = &r->streams[i];

		for (k = 0; k < x->peer.nstreams; k++) {
			const struct nb_ip3_stream_res *p = &x->peer.s[k];
			int64_t got = p->packets - p->errors;

			if (p->id != stream_id(i))
				continue;
			s->rx_pkts = s->rx_unique = got > 0 ? (uint64_t)got : 0;
			s->rx_bytes = s->rx_pkts * frame;
			s->jitter_ns = p->jitter * 1e9;
			if (p->end_time > r->rx_seconds)
				r->rx_seconds = p->end_time;
		}
	}
	nb_result_finish(r);
}

/* The tool's usual document, the receive side the server's, and the
 * server's results object as it sent them. */
static void
report_json(struct nb_ip3c *x)
{
	struct nb_app *app = x->pr.app;
	json_t *doc;

	server_into_result(x, &app->result);
	doc = nb_report_json(&app->result);
	if (doc == NULL)
		return;
	json_object_set_new(doc, "iperf3_server_results",
			    nb_ip3_results_json(&x->peer));
	app->emitted = 1;
	if (nb_out_finish(&app->out, doc) != 0)
		nb_app_error(app, "cannot write --json-file %s",
			     app->cfg.json_file);
}

void
nb_ip3c_report(struct nb_ip3c *x)
{
	const struct nb_config *cfg = &x->pr.app->cfg;
	struct side snd, rcv;
	unsigned int i;

	if (!x->ran)
		return;
	if (cfg->json) {
		report_json(x);
		return;
	}
	printf("iperf3 client to " NB_IP4_FMT ":%u: UDP, %u stream(s), "
	       "%u-byte datagrams\n",
	       NB_IP4_ARGS(cfg->ip3_host), cfg->ip3_port, x->nstreams, x->len);
	printf("[ ID] Interval           Transfer     Bitrate         "
	       "Jitter    Lost/Total Datagrams\n");
	for (i = 0; i < x->mine.nstreams; i++) {
		sides(x, x->mine.s[i].id, &snd, &rcv);
		side_text(x->mine.s[i].id, &snd, "sender");
		if (x->have_peer)
			side_text(x->mine.s[i].id, &rcv, "receiver (server)");
	}
	if (x->mine.nstreams > 1) {
		sides(x, -1, &snd, &rcv);
		side_text(0, &snd, "sender");
		if (x->have_peer)
			side_text(0, &rcv, "receiver (server)");
	}
	fflush(stdout);
	if (x->pr.app->out.json_file != NULL)
		report_json(x);
}
