/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The JSON document, in iperf3's shape: start (the test's setup, ports,
 * host), one object per interval, end (streams, sums, rate, ports, and
 * what else the test had), and the error document.  Text is in
 * nb_report_text.c; the figures are nb_result.c's.
 */
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "nb_frame.h"
#include "nb_flows_opt.h"
#include "nb_stack.h"
#include "nb_iperf3.h"
#include "nb_queue_iv.h"
#include "nb_json.h"
#include "nb_result.h"
#include "nb_rxonly.h"
#include "nb_version.h"

static json_t *
latency_json(const struct nb_hist *h, const char *clock, const char *method,
	     int buckets)
{
	json_t *o = json_object(), *arr;
	uint32_t i;

	json_object_set_new(o, "clock", json_string(clock));
	json_object_set_new(o, "method", json_string(method));
	json_object_set_new(o, "count", jint(h->count));
	json_object_set_new(o, "min_ns", jint(h->count ? h->min : 0));
	json_object_set_new(o, "mean_ns", jreal(nb_hist_mean(h)));
	json_object_set_new(o, "p50_ns", jint(nb_hist_percentile(h, 50)));
	json_object_set_new(o, "p90_ns", jint(nb_hist_percentile(h, 90)));
	json_object_set_new(o, "p99_ns", jint(nb_hist_percentile(h, 99)));
	json_object_set_new(o, "p99_9_ns", jint(nb_hist_percentile(h, 99.9)));
	json_object_set_new(o, "p99_99_ns", jint(nb_hist_percentile(h, 99.99)));
	json_object_set_new(o, "max_ns", jint(h->max));
	json_object_set_new(o, "overflow", jint(h->overflow));
	if (buckets) {
		arr = json_array();
		for (i = 0; i < NB_HIST_BUCKETS; i++) {
			if (h->buckets[i] == 0)
				continue;
			json_array_append_new(
				arr,
				json_pack("[I,I,I]",
					  (json_int_t)nb_hist_bucket_low(i),
					  (json_int_t)nb_hist_bucket_high(i),
					  (json_int_t)h->buckets[i]));
		}
		json_object_set_new(o, "histogram", arr);
	}
	return o;
}

static json_t *
side_json(double secs, uint64_t pkts, uint64_t bytes, int sender)
{
	json_t *o = json_object();

	json_object_set_new(o, "start", jreal(0));
	json_object_set_new(o, "end", jreal(secs));
	json_object_set_new(o, "seconds", jreal(secs));
	json_object_set_new(o, "bytes", jint(bytes));
	json_object_set_new(o, "bits_per_second",
			    jreal(nb_div0(bytes * 8.0, secs)));
	json_object_set_new(
		o, "l1_bits_per_second",
		jreal(nb_div0((bytes + pkts * (double)NB_L1_OVERHEAD) * 8.0,
			      secs)));
	json_object_set_new(o, "packets", jint(pkts));
	json_object_set_new(o, "pps", jreal(nb_div0((double)pkts, secs)));
	json_object_set_new(o, "sender", json_boolean(sender));
	return o;
}

/* A stream's loss (of what was sent) and reordering. */
static void
loss_json(json_t *o, const struct nb_stream_result *s)
{
	json_object_set_new(o, "lost_packets", jint(s->lost));
	json_object_set_new(
		o, "lost_percent",
		jreal(nb_div0(100.0 * s->lost, (double)s->tx_pkts)));
	json_object_set_new(o, "out_of_order", jint(s->out_of_order));
}

static json_t *
receiver_json(const struct nb_result *r, const struct nb_stream_result *s,
	      int buckets)
{
	json_t *o = side_json(r->rx_seconds, s->rx_pkts, s->rx_bytes, 0);

	json_object_set_new(o, "unique_packets", jint(s->rx_unique));
	loss_json(o, s);
	json_object_set_new(o, "duplicates", jint(s->duplicates));
	json_object_set_new(o, "late", jint(s->late));
	json_object_set_new(o, "jitter_ms", jreal(s->jitter_ns / 1e6));
	json_object_set_new(
		o, "latency",
		latency_json(&s->hist, r->clock, r->latency_method, buckets));
	if (r->gaps != NULL)
		json_object_set_new(
			o, "gaps",
			nb_gap_json(s == &r->sum ? &r->gap_sum
						 : &r->gaps[s - r->streams]));
	return o;
}

static json_t *
pmd_json(const struct nb_pmd_stats *p)
{
	json_t *o = json_object(), *x;
	uint32_t i;

#define PMD_COUNTER_JSON(f) json_object_set_new(o, #f, jint(p->f));
	NB_PMD_COUNTERS(PMD_COUNTER_JSON)
#undef PMD_COUNTER_JSON
	x = json_object();
	for (i = 0; i < p->nb_xstats && i < NB_XSTATS_MAX; i++)
		json_object_set_new(x, p->xstats[i].name,
				    jint(p->xstats[i].value));
	json_object_set_new(o, "xstats", x);
	return o;
}

/* A bond's mode and members, with what each member carried. */
static json_t *
bond_json(const struct nb_bond_info *b, int with_counts)
{
	json_t *arr = json_array();
	uint16_t i;

	for (i = 0; i < b->nb_members; i++) {
		const struct nb_member_stats *m = &b->m[i];
		json_t *o = json_object();

		json_object_set_new(o, "port", jint(m->port_id));
		json_object_set_new(o, "name", json_string(m->name));
		json_object_set_new(o, "link_up", json_boolean(m->link_up));
		json_object_set_new(o, "active", json_boolean(m->active));
		if (b->mode == 4)
			json_object_set_new(o, "lacp",
					    json_pack("{s:i,s:i,s:b}", "state",
						      m->actor_state,
						      "partner_state",
						      m->partner_state, "up",
						      nb_lacp_member_up(m)));
		if (with_counts)
			json_object_set_new(
				o, "pmd",
				json_pack("{s:o,s:o,s:o,s:o}", "ipackets",
					  jint(m->ipackets), "opackets",
					  jint(m->opackets), "ibytes",
					  jint(m->ibytes), "obytes",
					  jint(m->obytes)));
		json_array_append_new(arr, o);
	}
	return json_pack("{s:i,s:s,s:i,s:o}", "mode", b->mode, "mode_name",
			 nb_bond_mode_name(b->mode), "primary", b->primary,
			 "members", arr);
}

/* A port's queues: what the tool's jobs counted on each, and the PMD. */
static json_t *
queues_json(const struct nb_port_result *p)
{
	json_t *arr = json_array();
	uint16_t q;

	for (q = 0; q < p->nb_queues; q++)
		json_array_append_new(
			arr,
			json_pack(
				"{s:i,s:f,s:f,s:o,s:o,s:o,s:o,s:o,s:o,s:o,"
				"s:o}",
				"queue", (int)q, "tx_share_percent",
				nb_share_pct(p->q_tx_pkts[q], p->tool_tx_pkts),
				"rx_share_percent",
				nb_share_pct(p->q_rx_pkts[q], p->tool_rx_pkts),
				"tool_tx_packets", jint(p->q_tx_pkts[q]),
				"tool_tx_bytes", jint(p->q_tx_bytes[q]),
				"tool_rx_packets", jint(p->q_rx_pkts[q]),
				"tool_rx_bytes", jint(p->q_rx_bytes[q]),
				"pmd_opackets", jint(p->pmd.q_opackets[q]),
				"pmd_obytes", jint(p->pmd.q_obytes[q]),
				"pmd_ipackets", jint(p->pmd.q_ipackets[q]),
				"pmd_ibytes", jint(p->pmd.q_ibytes[q])));
	return arr;
}

static json_t *
port_json(const struct nb_port_result *p, int with_counts)
{
	json_t *o = json_object();
	int remote = p->role != NULL && strcmp(p->role, "peer") == 0;
	char mac[18];

	snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x",
		 p->desc.mac[0], p->desc.mac[1], p->desc.mac[2], p->desc.mac[3],
		 p->desc.mac[4], p->desc.mac[5]);
	json_object_set_new(o, "port", jint(p->desc.port_id));
	json_object_set_new(o, "name", json_string(p->desc.name));
	json_object_set_new(o, "driver", json_string(p->desc.driver));
	json_object_set_new(o, "mac", json_string(mac));
	json_object_set_new(o, "numa_node", json_integer(p->desc.numa_node));
	json_object_set_new(o, "link_up", json_boolean(p->desc.link_up));
	json_object_set_new(o, "link_speed_mbps", jint(p->desc.link_speed));
	/* a responder's port: its MTU is not said */
	json_object_set_new(o, "mtu", remote ? json_null() : jint(p->desc.mtu));
	if (p->role)
		json_object_set_new(o, "role", json_string(p->role));
	if (p->has_offload)
		json_object_set_new(o, "offloads",
				    nb_offload_json(&p->offload));
	if (p->has_numa_brief)
		json_object_set_new(o, "numa",
				    nb_numa_brief_json(&p->numa_brief));
	if (with_counts && !remote) {
		json_object_set_new(o, "tool_tx_packets",
				    jint(p->tool_tx_pkts));
		json_object_set_new(o, "tool_tx_bytes", jint(p->tool_tx_bytes));
		json_object_set_new(o, "tool_rx_packets",
				    jint(p->tool_rx_pkts));
		json_object_set_new(o, "tool_rx_bytes", jint(p->tool_rx_bytes));
	}
	if (with_counts)
		json_object_set_new(o, "pmd", pmd_json(&p->pmd));
	if (p->bond.nb_members > 0)
		json_object_set_new(o, "bond",
				    bond_json(&p->bond, with_counts));
	if (with_counts && p->nb_queues > 1)
		json_object_set_new(o, "queues", queues_json(p));
	return o;
}

/* The clock that timed the test, and how its frequency was found. */
static json_t *
clock_json(const struct nb_result *r)
{
	const struct nb_clock_info *c = &r->clk;
	json_t *o = json_pack("{s:s,s:I,s:I,s:s}", "source", r->clock, "hz",
			      (json_int_t)r->tsc_hz, "dpdk_estimate_hz",
			      (json_int_t)c->dpdk_hz, "latency_method",
			      r->latency_method);

	json_object_set_new(o, "calibrated_against",
			    c->reference ? json_string(c->reference)
					 : json_null());
	json_object_set_new(o, "uncertainty_ppm",
			    c->reference ? json_real(c->bound_ppm)
					 : json_null());
	json_object_set_new(o, "calibration_seconds", json_real(c->span_s));
	json_object_set_new(o, "dpdk_estimate_off_ppm",
			    json_real(c->reference ? c->dpdk_off_ppm : 0));
	json_object_set_new(
		o, "invariant",
		c->flags_known ? json_boolean(c->constant_tsc && c->nonstop_tsc)
			       : json_null());
	return o;
}

json_t *
nb_json_start(const struct nb_result *r)
{
	const struct nb_config *cfg = r->cfg;
	json_t *start = json_object(), *ts = json_object(), *arr;
	struct utsname u;
	char when[64];
	time_t now = r->start_time ? (time_t)r->start_time : time(NULL);
	struct tm tm;
	uint32_t i;

	json_object_set_new(start, "version",
			    json_string("dpdk-nbench " NB_VERSION));
	if (uname(&u) == 0) {
		char sys[400];

		snprintf(sys, sizeof(sys), "%s %s %s %s %s", u.sysname,
			 u.nodename, u.release, u.version, u.machine);
		json_object_set_new(start, "system_info", json_string(sys));
	}
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%a, %d %b %Y %H:%M:%S GMT", &tm);
	json_object_set_new(start, "timestamp",
			    json_pack("{s:s,s:I}", "time", when, "timesecs",
				      (json_int_t)now));
	json_object_set_new(
		ts, "protocol",
		json_string(cfg->proto == NB_IPPROTO_TCP ? "TCP" : "UDP"));
	json_object_set_new(ts, "num_streams", jint(cfg->streams));
	json_object_set_new(ts, "blksize", jint(cfg->sizes.sizes[0]));
	json_object_set_new(ts, "duration", jreal(cfg->duration));
	json_object_set_new(ts, "omit", jreal(cfg->omit));
	json_object_set_new(ts, "packets", jint(cfg->packets));
	json_object_set_new(ts, "bytes", jint(cfg->bytes));
	json_object_set_new(ts, "reverse", jint(cfg->reverse));
	json_object_set_new(ts, "bidir", jint(cfg->bidir));
	json_object_set_new(ts, "vlan", jint(cfg->vlan_id));
	json_object_set_new(ts, "stack", nb_stack_json(cfg));
	if (cfg->flows.spec.n)
		json_object_set_new(ts, "flows", nb_flows_json(&cfg->flows));
	json_object_set_new(ts, "interval", jreal(cfg->interval));
	arr = json_array();
	for (i = 0; i < cfg->sizes.nb_sizes; i++)
		json_array_append_new(arr, jint(cfg->sizes.sizes[i]));
	json_object_set_new(ts, "frame_sizes", arr);
	json_object_set_new(ts, "topology", json_string(r->topology));
	nb_iperf3_start(start, ts, r);
	json_object_set_new(start, "test_start", ts);
	arr = json_array();
	for (i = 0; i < r->nb_ports; i++)
		json_array_append_new(arr, port_json(&r->ports[i], 0));
	json_object_set_new(start, "ports", arr);
	json_object_set_new(start, "lcore_map", json_string(r->lcore_map));
	json_object_set_new(start, "numa", nb_numa_json(&r->numa));
	json_object_set_new(start, "clock", clock_json(r));
	if (r->replay != NULL && cfg != NULL) {
		const struct nb_replay *rp = r->replay;

		json_object_set_new(
			start, "replay",
			json_pack("{s:s,s:o,s:o,s:o,s:f,s:f,s:o,s:s,s:b}",
				  "file", cfg->replay.path, "frames",
				  jint(rp->n), "min_size",
				  jint(rp->min_len + NB_FCS_LEN), "max_size",
				  jint(rp->max_len + NB_FCS_LEN), "mean_size",
				  (double)rp->wire_bytes / rp->n,
				  "span_seconds", (double)rp->span_ns / 1e9,
				  "loops", jint(cfg->replay.loops), "timing",
				  cfg->replay.timing == NB_REPLAY_FILE ? "file"
								       : "rate",
				  "stamped", cfg->replay.stamp));
	}
	return start;
}

/* Stream k of an interval, or its sum (k < 0), as JSON. */
static json_t *
interval_part_json(const struct nb_interval *iv, int k)
{
	double secs = iv->end - iv->start;
	json_t *o = json_object();
	struct nb_iv_row l;

	nb_interval_row(iv, k, &l);
	if (k >= 0) {
		json_object_set_new(o, "id", jint((uint64_t)k));
		json_object_set_new(o, "socket", jint((uint64_t)k));
	}
	json_object_set_new(o, "start", jreal(iv->start));
	json_object_set_new(o, "end", jreal(iv->end));
	json_object_set_new(o, "seconds", jreal(secs));
	json_object_set_new(o, "bytes", jint(l.bytes));
	json_object_set_new(o, "bits_per_second",
			    jreal(nb_div0(l.bytes * 8.0, secs)));
	if (k < 0)
		json_object_set_new(
			o, "l1_bits_per_second",
			jreal(nb_div0(
				(l.bytes + l.pkts * (double)NB_L1_OVERHEAD) *
					8.0,
				secs)));
	json_object_set_new(o, "packets", jint(l.pkts));
	json_object_set_new(o, "pps", jreal(nb_div0((double)l.pkts, secs)));
	json_object_set_new(o, "sent_packets", jint(l.sent_pkts));
	json_object_set_new(o, "sent_bytes", jint(l.sent_bytes));
	if (k < 0 || iv->stream_lost != NULL) {
		json_object_set_new(o, "lost_packets", jint(l.lost));
		json_object_set_new(o, "lost_percent",
				    jreal(nb_div0(100.0 * l.lost,
						  (double)(l.pkts + l.lost))));
		json_object_set_new(o, "out_of_order", jint(l.ooo));
		json_object_set_new(o, "duplicates", jint(l.dup));
		json_object_set_new(o, "jitter_ms", jreal(l.jitter_ns / 1e6));
	}
	json_object_set_new(o, "omitted", json_boolean(iv->omitted));
	json_object_set_new(o, "sender", json_false());
	if (k < 0)
		json_object_set_new(o, "latency",
				    json_pack("{s:I,s:I,s:I,s:I}", "count",
					      (json_int_t)iv->lat_count,
					      "p50_ns", (json_int_t)l.p50,
					      "p99_ns", (json_int_t)l.p99,
					      "max_ns", (json_int_t)l.max));
	return o;
}

json_t *
nb_json_interval(const struct nb_result *r, const struct nb_interval *iv)
{
	json_t *o = json_object(), *ss = json_array(), *part;
	uint32_t k;

	/* The warm-up is counted as a whole: no per-stream breakdown. */
	for (k = 0; !iv->omitted && k < iv->nb_streams; k++) {
		part = interval_part_json(iv, (int)k);
		nb_iperf3_interval(part, r, 0);
		json_array_append_new(ss, part);
	}
	json_object_set_new(o, "streams", ss);
	part = interval_part_json(iv, -1);
	nb_iperf3_interval(part, r, 1);
	if (r->link_watched)
		json_object_set_new(part, "link_down_seconds",
				    jreal(iv->link_down_ns / 1e9));
	json_object_set_new(o, "sum", part);
	if (iv->nb_queues)
		json_object_set_new(o, "queues", nb_queue_iv_json(iv));
	if (iv->rx_only)
		json_object_set_new(o, "receive_only",
				    nb_rxonly_json(iv->end - iv->start,
						   iv->all_rx_pkts,
						   iv->all_rx_bytes));
	if (iv->nb_tester)
		json_object_set_new(
			o, "tester",
			nb_tester_iv_json(iv->tester, iv->nb_tester));
	return o;
}

/* iperf3's UDP view of a stream: the sender's bytes, the receiver's loss. */
static json_t *
udp_json(const struct nb_result *r, const struct nb_stream_result *s)
{
	json_t *o = side_json(r->tx_seconds, s->tx_pkts, s->tx_bytes, 1);

	if (s->id != UINT32_MAX) /* not the sum */
		json_object_set_new(o, "socket", jint(s->id));
	json_object_set_new(o, "jitter_ms", jreal(s->jitter_ns / 1e6));
	loss_json(o, s);
	return o;
}

/* Each stream's end: iperf3's sender and receiver, and its UDP view. */
static json_t *
streams_end_json(const struct nb_result *r, int udp)
{
	json_t *arr = json_array();
	uint32_t i;

	for (i = 0; i < r->nb_streams; i++) {
		const struct nb_stream_result *s = &r->streams[i];
		json_t *o = json_object();

		json_object_set_new(o, "id", jint(s->id));
		json_object_set_new(
			o, "sender",
			side_json(r->tx_seconds, s->tx_pkts, s->tx_bytes, 1));
		json_object_set_new(o, "receiver", receiver_json(r, s, 0));
		if (udp)
			json_object_set_new(o, "udp", udp_json(r, s));
		json_array_append_new(arr, o);
	}
	return arr;
}

/* --dscp's classes: each the sum of its streams, as a stream's end. */
static json_t *
classes_json(const struct nb_result *r)
{
	const struct nb_stack_cfg *k = &r->cfg->stack;
	json_t *arr = json_array();
	uint32_t c, i;

	for (c = 0; c < r->nb_classes; c++) {
		const struct nb_stream_result *s = &r->classes[c];
		json_t *ids = json_array();

		for (i = 0; i < r->nb_streams; i++)
			if (k->dscp[r->streams[i].id % k->nb_dscp] == s->id)
				json_array_append_new(ids,
						      jint(r->streams[i].id));
		json_array_append_new(
			arr, json_pack("{s:o,s:o,s:o,s:o,s:o}", "dscp",
				       jint(s->id), "streams", ids, "sender",
				       side_json(r->tx_seconds, s->tx_pkts,
						 s->tx_bytes, 1),
				       "receiver", receiver_json(r, s, 0),
				       "udp", udp_json(r, s)));
	}
	return arr;
}

/* The requested rate against the achieved one. */
static json_t *
rate_json(const struct nb_result *r)
{
	json_t *rate = json_object();

	json_object_set_new(rate, "requested_pps", jreal(r->req_pps));
	json_object_set_new(rate, "requested_l1_bits_per_second",
			    jreal(r->req_l1_bps));
	json_object_set_new(rate, "requested_l2_bits_per_second",
			    jreal(r->req_l2_bps));
	json_object_set_new(rate, "max", json_boolean(r->req_pps <= 0));
	json_object_set_new(rate, "achieved_pps", jreal(r->tx_pps));
	json_object_set_new(rate, "achieved_l1_bits_per_second",
			    jreal(r->tx_l1_bps));
	json_object_set_new(rate, "achieved_l2_bits_per_second",
			    jreal(r->tx_l2_bps));
	json_object_set_new(rate, "shortfall", json_boolean(r->shortfall));
	json_object_set_new(rate, "shortfall_percent",
			    jreal(r->shortfall_percent));
	return rate;
}

/* A receive-only test: every frame that came, and their sizes. */
static json_t *
rxonly_end_json(const struct nb_result *r)
{
	uint64_t pkts, bytes;
	json_t *ro;

	nb_rxonly_totals(r, &pkts, &bytes);
	ro = nb_rxonly_json(r->rxo_seconds, pkts, bytes);
	json_object_set_new(ro, "sizes", nb_rxonly_sizes_json(r->rx_sizes));
	return ro;
}

/* --capture: the spec and what the writer took, wrote and dropped. */
static json_t *
capture_json(const struct nb_result *r)
{
	const struct nb_capture_spec *c = &r->cfg->capture;
	json_t *o = json_pack(
		"{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "file", c->path, "every",
		jint(c->every), "snaplen", jint(c->snaplen), "count",
		jint(c->count), "taken", jint(r->capture.taken), "written",
		jint(r->capture.written), "dropped", jint(r->capture.dropped),
		"unwritten", jint(r->capture.unwritten));

	if (r->capture.write_errno)
		json_object_set_new(
			o, "write_error",
			json_string(strerror(r->capture.write_errno)));
	return o;
}

/* What the responder's --impair did to the frames. */
static json_t *
impair_json(const struct nb_result *r)
{
	const struct nb_impair_counts *c = &r->impair.c;

	return json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "spec",
			 r->impair.spec, "seen", jint(c->seen), "dropped",
			 jint(c->dropped), "policed", jint(c->policed),
			 "overflow", jint(c->overflow), "duplicated",
			 jint(c->duplicated), "reordered", jint(c->reordered),
			 "delayed", jint(c->delayed));
}

/* The probes' round trips, with how many came back. */
static json_t *
rtt_json(const struct nb_result *r)
{
	json_t *o = latency_json(&r->rtt, r->clock,
				 r->rtt_method ? r->rtt_method : "rtt", 1);

	json_object_set_new(o, "probes_sent", jint(r->probes_sent));
	json_object_set_new(o, "probes_returned", jint(r->probes_returned));
	json_object_set_new(o, "probes_lost",
			    jint(r->probes_sent > r->probes_returned
					 ? r->probes_sent - r->probes_returned
					 : 0));
	return o;
}

json_t *
nb_json_end(const struct nb_result *r)
{
	json_t *end = json_object(), *arr;
	int udp = r->cfg->proto != NB_IPPROTO_TCP;
	uint32_t i;

	json_object_set_new(end, "streams", streams_end_json(r, udp));
	if (r->nb_classes)
		json_object_set_new(end, "classes", classes_json(r));
	if (r->flow_rx != NULL)
		json_object_set_new(end, "flows",
				    nb_flows_sum_json(&r->flow_sum, r->flow_rx,
						      r->flow_sent));
	if (udp)
		json_object_set_new(end, "sum", udp_json(r, &r->sum));
	json_object_set_new(
		end, "sum_sent",
		side_json(r->tx_seconds, r->sum.tx_pkts, r->sum.tx_bytes, 1));
	json_object_set_new(end, "sum_received", receiver_json(r, &r->sum, 1));
	json_object_set_new(end, "rate", rate_json(r));
	if ((arr = nb_json_rxports(r)) != NULL)
		json_object_set_new(end, "rx_ports", arr);
	if ((arr = nb_json_mesh(r)) != NULL)
		json_object_set_new(end, "mesh", arr);
	if (r->rx_only)
		json_object_set_new(end, "receive_only", rxonly_end_json(r));
	json_object_set_new(end, "tx_dropped", jint(r->tx_dropped));
	json_object_set_new(end, "tx_alloc_fail", jint(r->alloc_fail));
	json_object_set_new(end, "rx_omitted_packets", jint(r->rx_warm));
	json_object_set_new(end, "rx_foreign", jint(r->rx_foreign));
	json_object_set_new(end, "rx_bad_stream", jint(r->rx_bad_stream));
	arr = json_array();
	for (i = 0; i < r->nb_ports; i++)
		json_array_append_new(arr, port_json(&r->ports[i], 1));
	json_object_set_new(end, "ports", arr);
	json_object_set_new(end, "interrupted", json_boolean(r->interrupted));
	if (r->link_watched)
		json_object_set_new(
			end, "link",
			json_pack("{s:f,s:I,s:s}", "down_seconds",
				  r->link_down_ns / 1e9, "outages",
				  (json_int_t)r->link_outages, "seen_by",
				  r->link_how ? r->link_how : "pmd"));
	if (r->have_tester) {
		struct nb_tester_verdict v;

		nb_result_verdict(r, &v);
		json_object_set_new(end, "tester",
				    nb_tester_json(&r->tester, &v));
	}
	if (r->cfg != NULL && r->cfg->capture.active)
		json_object_set_new(end, "capture", capture_json(r));
	if (r->impair.active)
		json_object_set_new(end, "responder_impairment",
				    impair_json(r));
	if (r->probes_sent)
		json_object_set_new(end, "rtt", rtt_json(r));
	nb_iperf3_end(end, r);
	return end;
}

json_t *
nb_report_json(const struct nb_result *r)
{
	json_t *root = json_object(), *ivs = json_array();
	uint32_t i;

	json_object_set_new(root, "start", nb_json_start(r));
	for (i = 0; i < r->nb_intervals; i++)
		json_array_append_new(ivs,
				      nb_json_interval(r, &r->intervals[i]));
	json_object_set_new(root, "intervals", ivs);
	json_object_set_new(root, "end", nb_json_end(r));
	if (r->error[0])
		json_object_set_new(root, "error", json_string(r->error));
	return root;
}

json_t *
nb_json_error_doc(const char *error)
{
	json_t *start = json_object();

	json_object_set_new(start, "version",
			    json_string("dpdk-nbench " NB_VERSION));
	return json_pack("{s:o,s:[],s:{},s:s}", "start", start, "intervals",
			 "end", "error", error);
}
