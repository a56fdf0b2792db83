/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The text report: units and rates as iperf3 prints them, the interval
 * lines, and the final report (streams, latency, rate, ports, notes).
 * JSON is in nb_report_json.c; the figures are nb_result.c's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nb_frame.h"
#include "nb_result.h"
#include "nb_rxonly.h"

/* v scaled down by base while it reaches it, with three digits or so. */
static void
fmt_scaled(char *buf, size_t len, double v, double base,
	   const char *const unit[5])
{
	unsigned int u = 0;

	while (v >= base && u < 4) {
		v /= base;
		u++;
	}
	if (v >= 100)
		snprintf(buf, len, "%.0f %s", v, unit[u]);
	else if (v >= 10)
		snprintf(buf, len, "%.1f %s", v, unit[u]);
	else
		snprintf(buf, len, "%.2f %s", v, unit[u]);
}

void
nb_fmt_bytes(char *buf, size_t len, double bytes)
{
	static const char *const unit[] = {"Bytes", "KBytes", "MBytes",
					   "GBytes", "TBytes"};

	fmt_scaled(buf, len, bytes, 1024.0, unit);
}

void
nb_fmt_bits(char *buf, size_t len, double bps)
{
	static const char *const unit[] = {"bits/sec", "Kbits/sec", "Mbits/sec",
					   "Gbits/sec", "Tbits/sec"};

	fmt_scaled(buf, len, bps, 1000.0, unit);
}

void
nb_fmt_rate(char *buf, size_t len, double bps, char format)
{
	static const char fixed[] = "kmgtKMGT";
	const char *p = format ? strchr(fixed, format) : NULL;
	static const char *const bits[] = {"Kbits/sec", "Mbits/sec",
					   "Gbits/sec", "Tbits/sec"};
	static const char *const bytes[] = {"KBytes/sec", "MBytes/sec",
					    "GBytes/sec", "TBytes/sec"};
	int u;

	if (p == NULL || *p == '\0') {
		nb_fmt_bits(buf, len, bps);
		return;
	}
	u = (int)(p - fixed);
	if (u < 4)
		snprintf(buf, len, "%.2f %s", bps / pow(1000.0, u + 1),
			 bits[u]);
	else
		snprintf(buf, len, "%.2f %s", bps / 8.0 / pow(1024.0, u - 3),
			 bytes[u - 4]);
}

static double
div_s(double v, double secs)
{
	return secs > 0 ? v / secs : 0;
}

void
nb_report_rxonly_row(FILE *f, double t0, double t1, uint64_t pkts,
		     uint64_t bytes, char fmt, const char *tail)
{
	char xfer[32], l2[32];
	double secs = t1 - t0;

	nb_fmt_bytes(xfer, sizeof(xfer), (double)bytes);
	nb_fmt_rate(l2, sizeof(l2), div_s((double)bytes * 8.0, secs), fmt);
	fprintf(f,
		"[ RX] %6.2f-%-6.2f sec  %-11s  %-15s %8.3f %8.3f  %llu "
		"frames%s\n",
		t0, t1, xfer, l2,
		div_s(((double)bytes + (double)pkts * NB_L1_OVERHEAD) * 8.0,
		      secs) /
			1e9,
		div_s((double)pkts, secs) / 1e6, (unsigned long long)pkts,
		tail ? tail : "");
}

/* "sizes: 65-127 B 100.0 %, ...": the bins that got frames. */
static void
rxonly_sizes_text(FILE *f, const struct nb_result *r, uint64_t pkts)
{
	unsigned int b;
	const char *sep = "";

	if (pkts == 0)
		return;
	fprintf(f, "sizes (bytes with FCS):");
	for (b = 0; b < NB_SIZE_BINS; b++) {
		if (r->rx_sizes[b] == 0)
			continue;
		fprintf(f, "%s %s %llu (%.1f %%)", sep, nb_size_bin_name(b),
			(unsigned long long)r->rx_sizes[b],
			100.0 * (double)r->rx_sizes[b] / (double)pkts);
		sep = ",";
	}
	fputc('\n', f);
}

void
nb_report_interval_header(FILE *f)
{
	fprintf(f, "[ ID] Interval           Transfer     Bitrate(L2)     "
		   "L1 Gbit/s    Mpps  Lost/Total (%%)         Reord   Dup  "
		   "Jitter us  Latency p50/p99/max us\n");
}

void
nb_interval_row(const struct nb_interval *iv, int k, struct nb_iv_row *row)
{
	memset(row, 0, sizeof(*row));
	if (k < 0) {
		row->sent_pkts = iv->tx_pkts;
		row->sent_bytes = iv->tx_bytes;
		row->pkts = iv->rx_pkts;
		row->bytes = iv->rx_bytes;
		row->lost = iv->lost;
		row->ooo = iv->out_of_order;
		row->dup = iv->duplicates;
		row->jitter_ns = iv->jitter_ns;
		row->have_lat = iv->lat_count > 0;
		row->p50 = iv->lat_p50;
		row->p99 = iv->lat_p99;
		row->max = iv->lat_max;
		return;
	}
	row->sent_pkts = iv->stream_tx_pkts[k];
	row->sent_bytes = iv->stream_tx_bytes[k];
	row->pkts = iv->stream_rx_pkts[k];
	row->bytes = iv->stream_rx_bytes[k];
	if (iv->stream_lost != NULL) {
		row->lost = iv->stream_lost[k];
		row->ooo = iv->stream_out_of_order[k];
		row->dup = iv->stream_duplicates[k];
		row->jitter_ns = iv->stream_jitter_ns[k];
	}
}

static void
interval_line(FILE *f, const struct nb_interval *iv, const char *id,
	      const struct nb_iv_row *l, char format)
{
	char tb[32], bb[32], lt[48], lat[48], link[40] = "";
	double secs = iv->end - iv->start;

	nb_fmt_bytes(tb, sizeof(tb), (double)l->bytes);
	nb_fmt_rate(bb, sizeof(bb), nb_div0(l->bytes * 8.0, secs), format);
	snprintf(lt, sizeof(lt), "%llu/%llu (%.2g%%)",
		 (unsigned long long)l->lost,
		 (unsigned long long)(l->pkts + l->lost),
		 nb_div0(100.0 * l->lost, (double)(l->pkts + l->lost)));
	if (l->have_lat)
		snprintf(lat, sizeof(lat), "%.1f/%.1f/%.1f", l->p50 / 1e3,
			 l->p99 / 1e3, l->max / 1e3);
	else
		snprintf(lat, sizeof(lat), "-");
	if (iv->link_down_ns)
		snprintf(link, sizeof(link), "  (link down %.2f s)",
			 iv->link_down_ns / 1e9);
	fprintf(f,
		"[%3s] %6.2f-%-6.2f sec  %-11s  %-15s %7.3f  %7.3f  %-22s "
		"%5llu %5llu  %9.3f  %s%s%s\n",
		id, iv->start, iv->end, tb, bb,
		nb_div0((l->bytes + l->pkts * (double)NB_L1_OVERHEAD) * 8.0,
			secs) /
			1e9,
		nb_div0((double)l->pkts, secs) / 1e6, lt,
		(unsigned long long)l->ooo, (unsigned long long)l->dup,
		l->jitter_ns / 1e3, lat, iv->omitted ? "  (omitted)" : "",
		link);
}

void
nb_report_interval_text(FILE *f, const struct nb_interval *iv, char format,
			const char *tag)
{
	struct nb_iv_row l;
	char id[16];
	uint32_t k;

	/* Several streams: one line each (no per-stream latency), then the
	 * sum.  The warm-up is counted as a whole only. */
	if (iv->nb_streams > 1 && !iv->omitted && iv->stream_rx_pkts) {
		for (k = 0; k < iv->nb_streams; k++) {
			snprintf(id, sizeof(id), "%s%u", tag, k);
			nb_interval_row(iv, (int)k, &l);
			interval_line(f, iv, id, &l, format);
		}
	}
	nb_interval_row(iv, -1, &l);
	snprintf(id, sizeof(id), "%s%s", tag,
		 iv->nb_streams == 1 && !iv->omitted ? "0" : "SUM");
	interval_line(f, iv, id, &l, format);
}

static void
row(FILE *f, const char *id, double secs, uint64_t pkts, uint64_t bytes,
    const char *tail, char format)
{
	char tb[32], bb[32], l1[32];

	nb_fmt_bytes(tb, sizeof(tb), (double)bytes);
	nb_fmt_rate(bb, sizeof(bb), nb_div0(bytes * 8.0, secs), format);
	nb_fmt_rate(
		l1, sizeof(l1),
		nb_div0((bytes + pkts * (double)NB_L1_OVERHEAD) * 8.0, secs),
		format);
	fprintf(f,
		"[%5s] 0.00-%-6.2f sec %-12s %-15s (L1 %-15s) %8.4f Mpps %s\n",
		id, secs, tb, bb, l1, nb_div0((double)pkts, secs) / 1e6, tail);
}

static void
rx_tail(char *buf, size_t len, const struct nb_stream_result *s)
{
	char lat[64] = "latency -"; /* no stamped frame came back */

	if (s->hist.count)
		snprintf(lat, sizeof(lat),
			 "latency p50/p99/max %.2f/%.2f/%.2f us",
			 nb_hist_percentile(&s->hist, 50) / 1e3,
			 nb_hist_percentile(&s->hist, 99) / 1e3,
			 s->hist.max / 1e3);
	snprintf(buf, len,
		 "receiver  lost %llu/%llu (%.4g%%) reord %llu dup %llu "
		 "jitter %.3f us  %s",
		 (unsigned long long)s->lost, (unsigned long long)s->tx_pkts,
		 nb_div0(100.0 * s->lost, (double)s->tx_pkts),
		 (unsigned long long)s->out_of_order,
		 (unsigned long long)s->duplicates, s->jitter_ns / 1e3, lat);
}

/* A stream's (or the sum's) sender row, then its receiver row. */
static void
stream_rows(FILE *f, const struct nb_result *r, const char *id,
	    const struct nb_stream_result *s, char fmt)
{
	char tail[256];

	row(f, id, r->tx_seconds, s->tx_pkts, s->tx_bytes, "sender", fmt);
	rx_tail(tail, sizeof(tail), s);
	row(f, id, r->rx_seconds, s->rx_pkts, s->rx_bytes, tail, fmt);
}

/* " min ... max N\n" of a histogram, with p99.99 when asked. */
static void
hist_text(FILE *f, const struct nb_hist *h, int p9999)
{
	fprintf(f, " min %llu mean %.0f p50 %llu p90 %llu p99 %llu p99.9 %llu",
		(unsigned long long)(h->count ? h->min : 0), nb_hist_mean(h),
		(unsigned long long)nb_hist_percentile(h, 50),
		(unsigned long long)nb_hist_percentile(h, 90),
		(unsigned long long)nb_hist_percentile(h, 99),
		(unsigned long long)nb_hist_percentile(h, 99.9));
	if (p9999)
		fprintf(f, " p99.99 %llu",
			(unsigned long long)nb_hist_percentile(h, 99.99));
	fprintf(f, " max %llu\n", (unsigned long long)h->max);
}

/* A bond's members: what each sent and received (their sums are the
 * bond's counters). */
static void
bond_text(FILE *f, const struct nb_bond_info *b)
{
	uint16_t i;

	if (b->nb_members == 0)
		return;
	fprintf(f, "  bond mode %d (%s), primary port %d:\n", b->mode,
		nb_bond_mode_name(b->mode), b->primary);
	for (i = 0; i < b->nb_members; i++) {
		fprintf(f,
			"    member port %u (%s)%s%s: opackets %llu ipackets "
			"%llu",
			b->m[i].port_id, b->m[i].name,
			b->m[i].link_up ? "" : " link DOWN",
			b->m[i].active ? "" : " inactive",
			(unsigned long long)b->m[i].opackets,
			(unsigned long long)b->m[i].ipackets);
		if (b->mode == 4)
			fprintf(f, ", LACP %s (state %02x, partner's %02x)",
				nb_lacp_member_up(&b->m[i]) ? "up" : "NOT up",
				b->m[i].actor_state, b->m[i].partner_state);
		fputc('\n', f);
	}
}

/* A responder's port as it set it up (ACCEPT): offloads, NUMA. */
static void
peer_setup_text(FILE *f, const struct nb_port_result *p)
{
	char t[200];

	if (p->has_offload) {
		nb_offload_text(&p->offload, t, sizeof(t));
		fprintf(f, "  offloads: %s\n", t);
		if (p->offload.rate_why[0])
			fprintf(f, "  pacing: %s\n", p->offload.rate_why);
	}
	if (p->has_numa_brief && p->numa_brief.cross)
		fprintf(f,
			"  warning: %u of the responder's %u workers run on "
			"another NUMA node than its port (node %d)\n",
			p->numa_brief.cross, p->numa_brief.workers,
			p->numa_brief.port_node);
}

/* What the tool counted next to what the PMD counted, for one direction. */
static void
port_count_text(FILE *f, const char *what, uint64_t tool, const char *name,
		uint64_t pmd, unsigned int copies, uint64_t lacp_max)
{
	uint64_t want = tool * copies;
	char lacp[64] = "";

	/* an 802.3ad bond's counters hold its LACP frames too */
	if (lacp_max && pmd > want && pmd - want <= lacp_max)
		snprintf(lacp, sizeof(lacp), " (%llu of them LACP)",
			 (unsigned long long)(pmd - want));
	fprintf(f, " %s tool %llu PMD %s %llu%s%s%s,", what,
		(unsigned long long)tool, name, (unsigned long long)pmd,
		copies > 1 ? " (a copy on each member)" : "", lacp,
		pmd == want || lacp[0] ? "" : " <- MISMATCH");
}

/* A broadcast bond sends each frame on every active member; its counters
 * are their sums. */
static unsigned int
bond_copies(const struct nb_bond_info *b)
{
	unsigned int n = 0, i;

	if (b->nb_members == 0 || b->mode != 3)
		return 1;
	for (i = 0; i < b->nb_members; i++)
		n += b->m[i].active != 0;
	return n ? n : 1;
}

char
nb_report_unit(const struct nb_result *r)
{
	char f = r->cfg != NULL && r->cfg->format ? r->cfg->format : 'a';
	double ref = r->req_l1_bps;
	uint32_t i;

	if (f != 'a')
		return f;
	for (i = 0; ref <= 0 && i < r->nb_ports; i++)
		if (r->ports[i].role != NULL &&
		    strstr(r->ports[i].role, "tx") != NULL)
			ref = r->ports[i].desc.link_speed * 1e6;
	if (ref <= 0)
		return 'a'; /* nothing to go by: each figure its own unit */
	return ref >= 1e12 ? 't' : ref >= 1e9 ? 'g' : ref >= 1e6 ? 'm' : 'k';
}

/* A port's queues, one row each, when it has more than one. */
static void
queues_text(FILE *f, const struct nb_port_result *p)
{
	int tx = strstr(p->role, "tx") != NULL;
	int rx = strstr(p->role, "rx") != NULL;
	uint16_t q;

	if (p->nb_queues < 2)
		return;
	for (q = 0; q < p->nb_queues; q++) {
		fprintf(f, "  queue %u:", q);
		if (tx)
			fprintf(f, " sent tool %llu PMD %llu (%.1f %%)%s",
				(unsigned long long)p->q_tx_pkts[q],
				(unsigned long long)p->pmd.q_opackets[q],
				nb_share_pct(p->q_tx_pkts[q], p->tool_tx_pkts),
				rx ? "," : "");
		if (rx)
			fprintf(f, " received tool %llu PMD %llu (%.1f %%)",
				(unsigned long long)p->q_rx_pkts[q],
				(unsigned long long)p->pmd.q_ipackets[q],
				nb_share_pct(p->q_rx_pkts[q], p->tool_rx_pkts));
		fputc('\n', f);
	}
}

/* A receive-only test's totals; 1 when none of our streams came. */
static int
rxonly_text(FILE *f, const struct nb_result *r, char fmt)
{
	uint64_t pkts, bytes;

	nb_rxonly_totals(r, &pkts, &bytes);
	nb_report_rxonly_row(f, 0, r->rxo_seconds, pkts, bytes, fmt,
			     " received (every frame)");
	rxonly_sizes_text(f, r, pkts);
	return r->sum.rx_pkts == 0;
}

/* The streams' rows, latency, gaps and round trips (no stream rows or
 * gaps for a ping-pong test: it sends no data). */
static void
streams_text(FILE *f, const struct nb_result *r, char fmt, int pingpong)
{
	char id[16];
	uint32_t i;

	for (i = 0; !pingpong && i < r->nb_streams; i++) {
		snprintf(id, sizeof(id), "%u", r->streams[i].id);
		stream_rows(f, r, id, &r->streams[i], fmt);
	}
	if (!pingpong && r->nb_streams > 1)
		stream_rows(f, r, "SUM", &r->sum, fmt);
	/* --dscp's classes: "D46" is the streams of DSCP 46 */
	for (i = 0; i < r->nb_classes; i++) {
		snprintf(id, sizeof(id), "D%u", r->classes[i].id);
		stream_rows(f, r, id, &r->classes[i], fmt);
	}
	if (r->flow_rx != NULL)
		nb_flows_sum_text(f, &r->flow_sum, r->flow_rx, r->flow_sent,
				  r->nb_streams);
	if (r->sum.hist.count) {
		fprintf(f, "latency (%s clock, %s, %llu samples) ns:", r->clock,
			r->latency_method,
			(unsigned long long)r->sum.hist.count);
		hist_text(f, &r->sum.hist, 1);
	}
	for (i = 0; r->gaps != NULL && !pingpong && i < r->nb_streams; i++) {
		snprintf(id, sizeof(id), "%u", r->streams[i].id);
		nb_gap_text(f, id, &r->gaps[i]);
	}
	if (r->gaps != NULL && !pingpong && r->nb_streams > 1)
		nb_gap_text(f, "SUM", &r->gap_sum);
	if (r->probes_sent) {
		fprintf(f, "RTT (%s): %llu probes sent, %llu back; ns:",
			r->rtt_method ? r->rtt_method : "probes",
			(unsigned long long)r->probes_sent,
			(unsigned long long)r->probes_returned);
		hist_text(f, &r->rtt, 0);
	}
}

/* The requested rate against the achieved one. */
static void
rate_text(FILE *f, const struct nb_result *r, char fmt)
{
	char a[32], b[32];

	nb_fmt_rate(b, sizeof(b), r->tx_l1_bps, fmt);
	if (r->req_pps <= 0) {
		fprintf(f, "rate: max requested, achieved %.4f Mpps (L1 %s)\n",
			r->tx_pps / 1e6, b);
		return;
	}
	nb_fmt_rate(a, sizeof(a), r->req_l1_bps, fmt);
	fprintf(f,
		"rate: requested %.4f Mpps (L1 %s), achieved %.4f Mpps "
		"(L1 %s)%s\n",
		r->req_pps / 1e6, a, r->tx_pps / 1e6, b,
		r->shortfall ? "" : ", on target");
	if (r->shortfall)
		fprintf(f,
			"WARNING: achieved rate is %.2f%% below the "
			"requested rate\n",
			r->shortfall_percent);
}

/* The responder's port: only its PMD's word. */
static void
responder_port_text(FILE *f, const struct nb_port_result *p)
{
	fprintf(f,
		"responder port %u: PMD ipackets %llu "
		"opackets %llu imissed %llu ierrors %llu "
		"rx_nombuf %llu\n",
		p->desc.port_id, (unsigned long long)p->pmd.ipackets,
		(unsigned long long)p->pmd.opackets,
		(unsigned long long)p->pmd.imissed,
		(unsigned long long)p->pmd.ierrors,
		(unsigned long long)p->pmd.rx_nombuf);
	peer_setup_text(f, p);
}

/* The PMD's extended counters that are not zero, on one line. */
static void
xstats_text(FILE *f, const struct nb_pmd_stats *s)
{
	uint32_t k, shown = 0;

	for (k = 0; k < s->nb_xstats; k++) {
		if (s->xstats[k].value == 0)
			continue;
		fprintf(f, "%s %s %llu",
			shown++ ? "," : "  xstats:", s->xstats[k].name,
			(unsigned long long)s->xstats[k].value);
	}
	if (shown)
		fputc('\n', f);
}

/* A test port: the tool's counts against the PMD's, its errors, xstats,
 * bond and queues. */
static void
port_text(FILE *f, const struct nb_result *r, const struct nb_port_result *p)
{
	int tx = strstr(p->role, "tx") != NULL;
	int rx = strstr(p->role, "rx") != NULL;
	/* the counters run from before the start delay and warm-up */
	uint64_t lacp_max = nb_lacp_frames_max(&p->bond, r->rx_seconds + 5);

	fprintf(f, "port %u (%s, %s) %s:", p->desc.port_id, p->desc.name,
		p->desc.driver, p->role);
	if (tx)
		port_count_text(f, "sent", p->tool_tx_pkts, "opackets",
				p->pmd.opackets, bond_copies(&p->bond),
				lacp_max);
	if (rx)
		port_count_text(f, "received", p->tool_rx_pkts, "ipackets",
				p->pmd.ipackets, 1, lacp_max);
	fprintf(f, " imissed %llu ierrors %llu oerrors %llu rx_nombuf %llu\n",
		(unsigned long long)p->pmd.imissed,
		(unsigned long long)p->pmd.ierrors,
		(unsigned long long)p->pmd.oerrors,
		(unsigned long long)p->pmd.rx_nombuf);
	xstats_text(f, &p->pmd);
	bond_text(f, &p->bond);
	queues_text(f, p);
	if (rx && (p->pmd.imissed || p->pmd.rx_nombuf))
		fprintf(f,
			"WARNING: port %u dropped %llu frames the tool "
			"never saw (imissed + rx_nombuf)\n",
			p->desc.port_id,
			(unsigned long long)(p->pmd.imissed +
					     p->pmd.rx_nombuf));
}

/* --capture: what the writer wrote, and what it could not take. */
static void
capture_text(FILE *f, const struct nb_result *r)
{
	char spec[400];

	nb_capture_spec_text(&r->cfg->capture, spec, sizeof(spec));
	fprintf(f, "capture %s: %llu frames written", spec,
		(unsigned long long)r->capture.written);
	if (r->capture.dropped)
		fprintf(f,
			", WARNING: %llu more were not (the writer "
			"fell behind)",
			(unsigned long long)r->capture.dropped);
	if (r->capture.write_errno)
		fprintf(f, ", WARNING: %llu not written (%s: %s)",
			(unsigned long long)r->capture.unwritten,
			r->cfg->capture.path, strerror(r->capture.write_errno));
	fputc('\n', f);
}

/* What the responder's --impair did to the frames. */
static void
impair_text(FILE *f, const struct nb_result *r)
{
	const struct nb_impair_counts *c = &r->impair.c;

	fprintf(f,
		"responder impairment %s: of %llu frames, %llu "
		"dropped, %llu over the rate, %llu over the delay "
		"line (%llu missing in all), %llu duplicated, %llu "
		"reordered, %llu delayed\n",
		r->impair.spec, (unsigned long long)c->seen,
		(unsigned long long)c->dropped, (unsigned long long)c->policed,
		(unsigned long long)c->overflow,
		(unsigned long long)(c->dropped + c->policed + c->overflow),
		(unsigned long long)c->duplicated,
		(unsigned long long)c->reordered,
		(unsigned long long)c->delayed);
}

/* The lines after the ports: the tester, drops, capture, foreign frames,
 * impairment, an interruption. */
static void
notes_text(FILE *f, const struct nb_result *r)
{
	if (r->have_tester) {
		struct nb_tester_verdict v;

		nb_result_verdict(r, &v);
		nb_tester_text(f, &r->tester, &v);
	}
	if (r->tx_dropped)
		fprintf(f,
			"WARNING: %llu frames were still waiting for the TX "
			"queue when the test was stopped, and were freed "
			"(tx_dropped)\n",
			(unsigned long long)r->tx_dropped);
	if (r->cfg != NULL && r->cfg->capture.active)
		capture_text(f, r);
	if (r->rx_only && (r->rx_foreign || r->rx_bad_stream))
		fprintf(f,
			"note: %llu of the frames were not this tool's and "
			"%llu had an unknown stream id: in the [ RX] rows "
			"only\n",
			(unsigned long long)r->rx_foreign,
			(unsigned long long)r->rx_bad_stream);
	else if (r->rx_foreign || r->rx_bad_stream)
		fprintf(f,
			"note: %llu foreign frames and %llu with an unknown "
			"stream id were received and ignored\n",
			(unsigned long long)r->rx_foreign,
			(unsigned long long)r->rx_bad_stream);
	if (r->impair.active)
		impair_text(f, r);
	if (r->interrupted)
		fprintf(f,
			"note: interrupted; results cover %.2f s actually "
			"run\n",
			r->tx_seconds);
	if (r->link_watched && r->link_outages)
		fprintf(f,
			"note: the link was down %.2f s in %llu outage%s "
			"during the test (%s); the loss above includes "
			"what it dropped\n",
			r->link_down_ns / 1e9,
			(unsigned long long)r->link_outages,
			r->link_outages == 1 ? "" : "s",
			r->link_how ? r->link_how : "pmd");
}

void
nb_report_text(FILE *f, const struct nb_result *r)
{
	char fmt = nb_report_unit(r);
	int pingpong = r->cfg != NULL && r->cfg->pingpong;
	uint32_t i;

	fprintf(f, "- - - - - - - - - - - - - - - - - - - - - - - - -\n");
	/* what came, then our streams' if any came; none: no stream rows
	 * and no rate line, as a ping-pong test */
	if (r->rx_only && rxonly_text(f, r, fmt))
		pingpong = 1;
	streams_text(f, r, fmt, pingpong);
	/* a ping-pong test's rate line would say 0 Mpps of data */
	if (!pingpong)
		rate_text(f, r, fmt);
	nb_report_rxports_text(f, r);
	nb_report_mesh_text(f, r);
	for (i = 0; i < r->nb_ports; i++) {
		if (strcmp(r->ports[i].role, "peer") == 0)
			responder_port_text(f, &r->ports[i]);
		else
			port_text(f, r, &r->ports[i]);
	}
	notes_text(f, r);
}

/* A line for the text header: "tsc at 2.596152 GHz (...)". */
void
nb_clock_text(char *buf, size_t len, const struct nb_result *r)
{
	const struct nb_clock_info *c = &r->clk;

	if (c->reference == NULL) {
		snprintf(buf, len,
			 "%s at %.6f GHz (DPDK's estimate, not "
			 "calibrated)",
			 r->clock, r->tsc_hz / 1e9);
		return;
	}
	snprintf(buf, len,
		 "%s at %.6f GHz (+-%.2f ppm against %s over %.2f s; DPDK's "
		 "estimate %.6f GHz, %+.0f ppm)",
		 r->clock, r->tsc_hz / 1e9, c->bound_ppm, c->reference,
		 c->span_s, c->dpdk_hz / 1e9, c->dpdk_off_ppm);
}
