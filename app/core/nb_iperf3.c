/* SPDX-License-Identifier: BSD-3-Clause */
/* iperf3 3.12's JSON keys (see nb_iperf3.h).  Pure. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "nb_frame.h"
#include "nb_iperf3.h"
#include "nb_json.h"
#include "nb_result.h"

static int
is_tcp(const struct nb_result *r)
{
	return r->cfg->proto == NB_IPPROTO_TCP;
}

static int
is_peer(const struct nb_result *r)
{
	return r->topology != NULL && strcmp(r->topology, "peer") == 0;
}

/* The requested rate as iperf3's -b: bits/s as the report counts them
 * (L2 frames with FCS), a whole number; 0 for as fast as possible. */
static json_t *
target_bitrate(const struct nb_result *r)
{
	return jint(r->req_pps > 0 ? (uint64_t)(r->req_l2_bps + 0.5) : 0);
}

/* The data's destination (or with src its source) address, of either
 * family. */
static json_t *
addr(const struct nb_config *cfg, int src)
{
	char buf[INET6_ADDRSTRLEN];

	if (cfg->stack.family != 6)
		return jip4(src ? cfg->src_ip : cfg->dst_ip);
	inet_ntop(AF_INET6, src ? cfg->stack.src6.a : cfg->stack.dst6.a, buf,
		  sizeof(buf));
	return json_string(buf);
}

void
nb_iperf3_start(json_t *start, json_t *ts, const struct nb_result *r)
{
	const struct nb_config *cfg = r->cfg;
	json_t *conn = json_array();
	uint32_t k;

	/* a stream is a 5-tuple: our source port per stream, one
	 * destination port (nb_jobs.c, nb_peertest.c) */
	for (k = 0; k < r->nb_streams; k++)
		json_array_append_new(
			conn, json_pack("{s:o,s:o,s:o,s:o,s:o}", "socket",
					jint(r->streams[k].id), "local_host",
					addr(cfg, 1), "local_port",
					jint(NB_DEFAULT_SPORT_BASE +
					     r->streams[k].id),
					"remote_host", addr(cfg, 0),
					"remote_port", jint(NB_DEFAULT_DPORT)));
	json_object_set_new(start, "connected", conn);
	/* the peer's control port; in loopback the data destination */
	json_object_set_new(start, "connecting_to",
			    json_pack("{s:o,s:o}", "host", addr(cfg, 0), "port",
				      jint(is_peer(r) ? NB_CONTROL_UDP_PORT
						      : NB_DEFAULT_DPORT)));
	json_object_set_new(start, "cookie", json_string(r->cookie));
	if (is_tcp(r) && cfg->sizes.nb_sizes > 0)
		json_object_set_new(start, "tcp_mss_default",
				    jint(cfg->sizes.sizes[0] - NB_FCS_LEN -
					 nb_frame_hdr_len(NB_IPPROTO_TCP,
							  cfg->vlan_id != 0)));
	/* no sockets: no socket buffers */
	json_object_set_new(start, "sock_bufsize", jint(0));
	json_object_set_new(start, "sndbuf_actual", jint(0));
	json_object_set_new(start, "rcvbuf_actual", jint(0));
	json_object_set_new(start, "target_bitrate", target_bitrate(r));
	json_object_set_new(ts, "blocks", jint(cfg->packets));
	/* iperf3's -S: the first stream's DSCP and ECN */
	json_object_set_new(
		ts, "tos",
		jint((cfg->stack.nb_dscp ? cfg->stack.dscp[0] << 2 : 0) |
		     cfg->stack.ecn));
	json_object_set_new(ts, "target_bitrate", target_bitrate(r));
}

void
nb_iperf3_interval(json_t *o, const struct nb_result *r, int sum)
{
	if (!is_tcp(r))
		return;
	/* open loop: nothing is retransmitted, no window, no RTT estimate */
	json_object_set_new(o, "retransmits", jint(0));
	if (sum)
		return;
	json_object_set_new(o, "snd_cwnd", jint(0));
	json_object_set_new(o, "snd_wnd", jint(0));
	json_object_set_new(o, "rtt", jint(0));
	json_object_set_new(o, "rttvar", jint(0));
	json_object_set_new(o, "pmtu", jint(0));
}

/* iperf3's TCP sender keys; its RTTs (us) from our probes when any. */
static void
tcp_sender(json_t *o, const struct nb_result *r, uint32_t id)
{
	const struct nb_hist *h = &r->rtt;
	int rtt = r->probes_sent && h->count;

	json_object_set_new(o, "socket", jint(id));
	json_object_set_new(o, "retransmits", jint(0));
	json_object_set_new(o, "max_snd_cwnd", jint(0));
	json_object_set_new(o, "max_snd_wnd", jint(0));
	json_object_set_new(o, "max_rtt", jint(rtt ? h->max / 1000 : 0));
	json_object_set_new(o, "min_rtt", jint(rtt ? h->min / 1000 : 0));
	json_object_set_new(
		o, "mean_rtt",
		jint(rtt ? (uint64_t)(nb_hist_mean(h) / 1000.0) : 0));
}

static void
cpu(json_t *end, const struct nb_result *r)
{
	const struct nb_cpu_usage *h = &r->cpu_host, *m = &r->cpu_remote;
	int known = r->cpu_remote_known;

	json_object_set_new(
		end, "cpu_utilization_percent",
		json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "host_total",
			  jreal(nb_cpu_percent(h, h->user_ns + h->system_ns)),
			  "host_user", jreal(nb_cpu_percent(h, h->user_ns)),
			  "host_system", jreal(nb_cpu_percent(h, h->system_ns)),
			  "remote_total",
			  jreal(known ? nb_cpu_percent(m, m->user_ns +
								  m->system_ns)
				      : 0),
			  "remote_user",
			  jreal(known ? nb_cpu_percent(m, m->user_ns) : 0),
			  "remote_system",
			  jreal(known ? nb_cpu_percent(m, m->system_ns) : 0)));
}

void
nb_iperf3_end(json_t *end, const struct nb_result *r)
{
	json_t *sent = json_object_get(end, "sum_sent");
	json_t *streams = json_object_get(end, "streams"), *s;
	size_t i;

	cpu(end, r);
	if (!is_tcp(r)) {
		/* iperf3's UDP sum_sent repeats the loss; no jitter there */
		json_object_set_new(sent, "jitter_ms", jreal(0));
		json_object_set_new(sent, "lost_packets", jint(r->sum.lost));
		json_object_set_new(
			sent, "lost_percent",
			jreal(r->sum.tx_pkts ? 100.0 * (double)r->sum.lost /
						       (double)r->sum.tx_pkts
					     : 0));
		return;
	}
	json_array_foreach(streams, i, s)
	{
		uint32_t id = i < r->nb_streams ? r->streams[i].id : 0;

		tcp_sender(json_object_get(s, "sender"), r, id);
		json_object_set_new(json_object_get(s, "receiver"), "socket",
				    jint(id));
	}
	json_object_set_new(sent, "retransmits", jint(0));
	json_object_set_new(end, "sender_tcp_congestion", json_string("none"));
	json_object_set_new(end, "receiver_tcp_congestion",
			    json_string("none"));
}
