/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --iperf3 with --tcp: the data streams as connections of the closed-loop
 * TCP worker (nb_tcprun.h's peer mode, forward: a client's connections
 * to HOST:PORT), each with iperf3's cookie as its first bytes and the
 * pattern after it; the control connection's segments reach the control
 * lcore through the worker's hand-off rings.  The test's end: by time the
 * senders close at --time, by --bytes each closes after its share; then,
 * before TEST_END, every byte acknowledged (a 3.12 server that reads
 * TEST_END closes its streams with what it has read).  --reverse: each
 * end sends the cookie alone and takes the server's bytes (unchecked:
 * they are iperf3's); the test ends by time or by bytes received.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "nb_ip3client_int.h"
#include "nb_ip3conn.h"
#include "nb_log.h"
#include "nb_peertest.h"
#include "nb_phase.h"
#include "nb_run.h"
#include "nb_seam.h"
#include "nb_tcprun.h"

/* after the last byte is acknowledged: the server's reads catch up
 * (its socket buffer) before TEST_END makes it close the streams */
#define IP3T_GRACE_NS (250 * NB_MS)
/* after IPERF_DONE: the server's FINs on the data connections */
#define IP3T_CLOSE_NS (2000 * NB_MS)

/* The connections' source ports: the generator's, unless the control
 * connection's port falls among them. */
static uint16_t
sport_base(const struct nb_ip3c *x, unsigned int n)
{
	uint16_t base = NB_DEFAULT_SPORT_BASE;

	if (x->flow.src_port >= base && x->flow.src_port < base + n)
		base = (uint16_t)(base + NB_IP3_MAX_STREAMS);
	return base;
}

int
nb_ip3c_tcp_connect(struct nb_ip3c *x, unsigned int n)
{
	struct nb_app *app = x->pr.app;
	const struct nb_config *cfg = &app->cfg;
	struct nb_ctl_params p;
	char err[200];

	/* every connection has its place (--bidir: twice the streams) */
	if (n == 0 || n * (x->bidir ? 2u : 1u) > NB_IP3_MAX_STREAMS) {
		snprintf(x->why, sizeof(x->why),
			 "%u streams asked for (at most %d connections)", n,
			 NB_IP3_MAX_STREAMS);
		return -EINVAL;
	}
	x->nstreams = n;
	memset(&p, 0, sizeof(p));
	p.tcp = 1;
	p.direction = x->bidir	   ? NB_CTL_DIR_BIDIR
		      : x->reverse ? NB_CTL_DIR_REVERSE
				   : NB_CTL_DIR_FORWARD;
	p.proto = NB_IPPROTO_TCP;
	p.vlan_id = cfg->vlan_id;
	/* a connection per stream; --bidir: ours, then the server's */
	p.streams = nb_ip3c_nconn(x);
	p.nb_sizes = 1;
	/* the largest frame: the MSS (1518: iperf3's 1460) */
	p.sizes[0] = (uint16_t)(cfg->sizes.sizes[0] >= 128 ? cfg->sizes.sizes[0]
							   : 1518);
	p.nb_pattern = 1;
	p.sport_base = sport_base(x, nb_ip3c_nconn(x));
	p.dport = cfg->ip3_port;
	p.tcp_window = cfg->tcp_window;
	p.tcp_cc = (uint8_t)cfg->tcp_cc;
	p.tcp_flags =
		(uint8_t)((cfg->tcp_delayed_ack ? NB_CTL_TCP_F_DELACK : 0) |
			  (cfg->tcp_no_sack ? NB_CTL_TCP_F_NO_SACK : 0));
	/* --reverse: our ends send the cookie alone and end with the
	 * server's FINs; the test's end is reverse_run()'s */
	p.bytes = x->by_bytes && !x->reverse ? cfg->bytes : 0;
	p.duration_ms = x->by_bytes || x->reverse
				? 0
				: (uint64_t)(cfg->duration * 1000.0 + 0.5);
	x->pr.tcp_prefix = (const uint8_t *)x->cl.cookie;
	x->pr.tcp_prefix_len = NB_IP3_COOKIE_LEN;
	x->pr.tcp_recv_from = x->bidir ? n : 0;
	app->out.intervals = 0;
	if (nb_peertest_setup(&x->pr, &p, err, sizeof(err)) != 0) {
		snprintf(x->why, sizeof(x->why),
			 "cannot set up the TCP streams: %s", err);
		return -EINVAL;
	}
	x->test_ready = 1;
	/* the connections open now: the server takes them, each by its
	 * cookie, then says TEST_START */
	nb_peertest_arm(&x->pr, 10 * NB_MS);
	nb_app_phase(NB_PHASE_RUNNING);
	x->t_start = nb_ip3_wall_now() + 0.01;
	return 0;
}

/* Bytes acknowledged past the cookies, over the streams. */
static uint64_t
acked(const struct nb_ip3c *x)
{
	uint64_t sum = 0, b, r;
	double s;
	uint32_t i;

	for (i = 0; i < x->nstreams; i++) {
		nb_tcprun_peer_sender(x->pr.tcp, i, &b, &r, &s);
		sum += b;
	}
	return sum;
}

/* Bytes received over the streams (--reverse), and how many streams
 * failed. */
static uint64_t
received(const struct nb_ip3c *x, unsigned int *failed)
{
	uint64_t sum = 0;
	uint32_t i;

	*failed = 0;
	for (i = 0; i < nb_ip3c_nconn(x); i++)
		sum += nb_tcprun_peer_received(x->pr.tcp, i);
	nb_tcprun_peer_sent(x->pr.tcp, failed);
	return sum;
}

/* An end that failed, in words (x->why); -ECONNRESET. */
static int
streams_failed(struct nb_ip3c *x, unsigned int failed)
{
	snprintf(x->why, sizeof(x->why),
		 "%u of %u TCP stream(s) failed (reset by the server, or no "
		 "answer)",
		 failed, x->nstreams);
	return -ECONNRESET;
}

/*
 * --reverse: the server sends from TEST_RUNNING on; the test ends at
 * --time, or once --bytes came (iperf3's -n, the client's check of
 * bytes_received), then TEST_END.  The ends go on taking what the
 * server's socket still holds; nb_ip3c_tcp_results() counts once that
 * is in.
 */
static int
reverse_run(struct nb_ip3c *x)
{
	const struct nb_config *cfg = &x->pr.app->cfg;
	uint64_t t0 = nb_peer_now(&x->pr), since = t0, seen = 0;
	uint64_t dur = (uint64_t)(cfg->duration * 1e9 + 0.5);
	unsigned int failed = 0;
	int r;

	x->t_start = nb_ip3_wall_now();
	for (;;) {
		uint64_t now = nb_peer_now(&x->pr), got = received(x, &failed);

		x->pump(x);
		if (x->c.error != NB_TCP_OK || nb_force_quit || failed)
			break;
		if (got != seen) {
			seen = got;
			since = now;
		} else if (now - since > IP3C_IDLE_NS) {
			snprintf(x->why, sizeof(x->why),
				 "no byte from the server for 30 s: test "
				 "stopped");
			return -ETIMEDOUT;
		}
		if (x->by_bytes ? got >= cfg->bytes : now - t0 >= dur)
			break;
		nb_glue_nap_us(500);
	}
	x->t_end = nb_ip3_wall_now();
	x->ran = 1;
	if ((r = nb_ip3c_run_end(x)) != 0)
		return r;
	return failed ? streams_failed(x, failed) : 0;
}

int
nb_ip3c_tcp_run(struct nb_ip3c *x)
{
	uint64_t seen = 0, since = nb_peer_now(&x->pr), t0;
	unsigned int failed = 0;
	int r;

	if (x->reverse)
		return reverse_run(x);
	while (!nb_tcprun_peer_sent(x->pr.tcp, &failed)) {
		uint64_t now = nb_peer_now(&x->pr), a = acked(x);

		x->pump(x);
		if (x->c.error != NB_TCP_OK || nb_force_quit)
			break;
		if (a != seen) {
			seen = a;
			since = now;
		} else if (now - since > IP3C_IDLE_NS) {
			snprintf(x->why, sizeof(x->why),
				 "no byte acknowledged for 30 s: test "
				 "stopped");
			return -ETIMEDOUT;
		}
		nb_glue_nap_us(500);
	}
	x->t_end = nb_ip3_wall_now();
	x->ran = 1;
	t0 = nb_peer_now(&x->pr);
	while (x->c.error == NB_TCP_OK && !nb_force_quit &&
	       nb_peer_now(&x->pr) - t0 < IP3T_GRACE_NS) {
		x->pump(x);
		nb_glue_nap_us(500);
	}
	if ((r = nb_ip3c_run_end(x)) != 0)
		return r;
	return failed ? streams_failed(x, failed) : 0;
}

/*
 * The server has stopped writing (EXCHANGE_RESULTS came), but its socket
 * may still hold bytes it counted as sent (--reverse, --bidir): they are
 * taken until none came for QUIET_NS (at most DRAIN_NS).  Longer than
 * Linux's shortest retransmission timeout (200 ms): a segment lost on the
 * way in comes back after one.
 */
#define QUIET_NS (500 * NB_MS)
#define DRAIN_NS (5000 * NB_MS)
static void
drain(struct nb_ip3c *x)
{
	uint64_t t0 = nb_peer_now(&x->pr), since = t0, now, seen, got;
	unsigned int failed;

	seen = received(x, &failed);
	while ((now = nb_peer_now(&x->pr)) - since < QUIET_NS &&
	       now - t0 < DRAIN_NS && !nb_force_quit) {
		x->pump(x);
		nb_glue_nap_us(1000);
		got = received(x, &failed);
		if (got != seen) {
			seen = got;
			since = nb_peer_now(&x->pr);
		}
	}
}

void
nb_ip3c_tcp_results(struct nb_ip3c *x)
{
	struct nb_ip3_results *m = &x->mine;
	unsigned int i;

	if (x->reverse || x->bidir)
		drain(x);
	memset(m, 0, sizeof(*m));
	/* a receiver's -1, as iperf3's; a sender's (or both ways) 1 */
	m->sender_has_retransmits = x->reverse ? -1 : 1;
	m->nstreams = nb_ip3c_nconn(x);
	for (i = 0; i < m->nstreams; i++) {
		struct nb_ip3_stream_res *s = &m->s[i];
		uint64_t b, r;
		double secs;

		s->id = nb_ip3_stream_id(i);
		if (!nb_ip3c_sends(x, i)) {
			s->bytes = nb_tcprun_peer_received(x->pr.tcp, i);
			s->retransmits = -1;
			s->end_time = x->t_end - x->t_start;
			continue;
		}
		nb_tcprun_peer_sender(x->pr.tcp, i, &b, &r, &secs);
		s->bytes = b;
		s->retransmits = (int64_t)r;
		s->end_time = secs;
	}
}

void
nb_ip3c_tcp_close(struct nb_ip3c *x)
{
	uint64_t t0 = nb_peer_now(&x->pr);

	if (!x->test_ready || x->pr.tcp == NULL)
		return;
	while (!nb_tcprun_peer_finished(x->pr.tcp) && !nb_force_quit &&
	       nb_peer_now(&x->pr) - t0 < IP3T_CLOSE_NS) {
		x->pump(x);
		nb_glue_nap_us(500);
	}
	if (!nb_tcprun_peer_finished(x->pr.tcp))
		NB_LOG(NOTICE,
		       "iperf3: not every TCP stream closed within %d ms "
		       "of the test's end",
		       (int)(IP3T_CLOSE_NS / NB_MS));
}
