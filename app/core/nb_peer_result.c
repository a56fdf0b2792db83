/* SPDX-License-Identifier: BSD-3-Clause */
/* Peer-mode results across the two ends (see nb_peer_result.h).  Pure. */
#include <stdio.h>
#include <string.h>

#include "nb_math.h"
#include "nb_mesh.h"
#include "nb_peer_result.h"

static void
export_hdr(const struct nb_result *r, struct nb_ctl_results_hdr *h)
{
	memset(h, 0, sizeof(*h));
	h->tx_seconds_ns = nb_to_units(r->tx_seconds, 1e9);
	h->rx_seconds_ns = nb_to_units(r->rx_seconds, 1e9);
	h->rx_foreign = r->rx_foreign;
	h->rx_warm = r->rx_warm;
	h->rx_bad_stream = r->rx_bad_stream;
	h->tx_dropped = r->tx_dropped;
	h->pmd = r->ports[0].pmd;
	h->impair = r->impair;
	h->cpu = r->cpu_host;
}

static void
export_stream(const struct nb_stream_result *x, struct nb_ctl_stream_res *s)
{
	s->id = x->id;
	s->tx_pkts = x->tx_pkts;
	s->tx_bytes = x->tx_bytes;
	s->rx_pkts = x->rx_pkts;
	s->rx_unique = x->rx_unique;
	s->rx_bytes = x->rx_bytes;
	s->out_of_order = x->out_of_order;
	s->duplicates = x->duplicates;
	s->late = x->late;
	s->jitter_ps = nb_to_units(x->jitter_ns, 1000.0);
	s->hist = x->hist;
}

void
nb_peer_result_export(const struct nb_result *r, struct nb_ctl_results_hdr *h,
		      struct nb_ctl_stream_res *s)
{
	uint32_t i;

	export_hdr(r, h);
	for (i = 0; i < r->nb_streams; i++)
		export_stream(&r->streams[i], &s[i]);
}

int
nb_peer_result_side_init(struct nb_result *out, const struct nb_result *own,
			 const char *method)
{
	int ret = nb_result_init(out, own->cfg, own->nb_streams);

	out->tsc_hz = own->tsc_hz;
	out->topology = "peer";
	out->latency_method = method;
	out->interrupted = own->interrupted;
	out->req_pps = own->req_pps;
	out->req_l1_bps = own->req_l1_bps;
	out->req_l2_bps = own->req_l2_bps;
	snprintf(out->lcore_map, sizeof(out->lcore_map), "%s", own->lcore_map);
	out->start_time = own->start_time;
	snprintf(out->cookie, sizeof(out->cookie), "%s", own->cookie);
	out->cpu_host = own->cpu_host;
	out->capture = own->capture; /* this end's --capture */
	out->replay = own->replay;   /* a client's --replay */
	/* this end's port link, as watched during the test */
	out->link_watched = own->link_watched;
	out->link_down_ns = own->link_down_ns;
	out->link_outages = own->link_outages;
	out->link_how = own->link_how;
	return ret;
}

/*
 * One end of a direction: its blob header, and its times in seconds
 * (exactly as counted for our own end, from the ns of the blob for the
 * responder's).
 */
struct end {
	const struct nb_ctl_results_hdr *h;
	double tx_seconds, rx_seconds;
};

static void
merge_hdr(struct nb_result *out, const struct end *tx, const struct end *rx)
{
	out->tx_seconds = tx->tx_seconds;
	out->tx_dropped = tx->h->tx_dropped;
	out->rx_seconds = rx->rx_seconds;
	out->rx_foreign = rx->h->rx_foreign;
	out->rx_warm = rx->h->rx_warm;
	out->rx_bad_stream = rx->h->rx_bad_stream;
	/* the receivers ran at least as long as the senders */
	if (out->rx_seconds < out->tx_seconds)
		out->rx_seconds = out->tx_seconds;
}

/* A stream: what tx sent, what rx received (its jitter as a double). */
static void
merge_stream(struct nb_stream_result *o, const struct nb_ctl_stream_res *tx,
	     const struct nb_ctl_stream_res *rx, double rx_jitter_ns)
{
	o->tx_pkts = tx->tx_pkts;
	o->tx_bytes = tx->tx_bytes;
	o->rx_pkts = rx->rx_pkts;
	o->rx_unique = rx->rx_unique;
	o->rx_bytes = rx->rx_bytes;
	o->out_of_order = rx->out_of_order;
	o->duplicates = rx->duplicates;
	o->late = rx->late;
	o->jitter_ns = rx_jitter_ns;
	o->hist = rx->hist;
}

/* Our port, and the responder's as its blob tells it. */
static void
peer_ports(struct nb_result *out, const struct nb_result *own,
	   const struct nb_ctl_results_hdr *h)
{
	out->nb_ports = 2;
	out->ports[0] = own->ports[0];
	memset(&out->ports[1], 0, sizeof(out->ports[1]));
	out->ports[1].desc.port_id = own->cfg->port;
	snprintf(out->ports[1].desc.name, sizeof(out->ports[1].desc.name),
		 "responder");
	out->ports[1].role = "peer";
	out->ports[1].pmd = h->pmd;
}

void
nb_peer_result_merge(struct nb_result *out, const struct nb_result *own,
		     const struct nb_ctl_results_hdr *h,
		     const struct nb_ctl_stream_res *s, uint32_t n, int we_send)
{
	struct nb_ctl_results_hdr mine_h;
	struct nb_ctl_stream_res mine;
	struct end me, peer;
	uint32_t i;

	export_hdr(own, &mine_h);
	me.h = &mine_h;
	me.tx_seconds = own->tx_seconds;
	me.rx_seconds = own->rx_seconds;
	peer.h = h;
	peer.tx_seconds = h->tx_seconds_ns / 1e9;
	peer.rx_seconds = h->rx_seconds_ns / 1e9;
	merge_hdr(out, we_send ? &me : &peer, we_send ? &peer : &me);

	for (i = 0; i < out->nb_streams && i < own->nb_streams && i < n; i++) {
		export_stream(&own->streams[i], &mine);
		if (we_send)
			merge_stream(&out->streams[i], &mine, &s[i],
				     s[i].jitter_ps / 1000.0);
		else
			merge_stream(&out->streams[i], &s[i], &mine,
				     own->streams[i].jitter_ns);
	}

	peer_ports(out, own, h);
	out->impair = h->impair; /* the responder's --impair */
	out->cpu_remote = h->cpu;
	out->cpu_remote_known = 1;
	nb_result_finish(out);
}

void
nb_peer_result_mesh(struct nb_result *out, const struct nb_result *own,
		    const struct nb_ctl_results_hdr *h,
		    const struct nb_ctl_stream_res *s, uint32_t n)
{
	const struct nb_mesh_cfg *m = &own->cfg->mesh;
	struct nb_ctl_stream_res mine;
	double peer_tx = h->tx_seconds_ns / 1e9,
	       peer_rx = h->rx_seconds_ns / 1e9;
	uint32_t i;

	/* the ends ran together: the longer of their times */
	out->tx_seconds = own->tx_seconds > peer_tx ? own->tx_seconds : peer_tx;
	out->rx_seconds = own->rx_seconds > peer_rx ? own->rx_seconds : peer_rx;
	if (out->rx_seconds < out->tx_seconds)
		out->rx_seconds = out->tx_seconds;
	out->tx_dropped = own->tx_dropped + h->tx_dropped;
	out->rx_foreign = own->rx_foreign + h->rx_foreign;
	out->rx_warm = own->rx_warm + h->rx_warm;
	out->rx_bad_stream = own->rx_bad_stream + h->rx_bad_stream;
	for (i = 0; i < out->nb_streams && i < own->nb_streams && i < n; i++) {
		const struct nb_mesh_pair *p =
			&m->pairs[nb_mesh_stream_pair(m, i)];
		int src_ours = !(m->ports[p->src] & NB_MESH_REMOTE);
		int dst_ours = !(m->ports[p->dst] & NB_MESH_REMOTE);

		export_stream(&own->streams[i], &mine);
		merge_stream(&out->streams[i], src_ours ? &mine : &s[i],
			     dst_ours ? &mine : &s[i],
			     dst_ours ? own->streams[i].jitter_ns
				      : s[i].jitter_ps / 1000.0);
	}
	peer_ports(out, own, h);
	out->impair = h->impair; /* the responder's --impair */
	out->cpu_remote = h->cpu;
	out->cpu_remote_known = 1;
	nb_result_finish(out);
}
