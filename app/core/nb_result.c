/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "nb_frame.h"
#include "nb_iperf3.h"
#include "nb_json.h"
#include "nb_ivq.h"
#include "nb_offload.h"
#include "nb_result.h"
#include "nb_rxonly.h"
#include "nb_version.h"

int
nb_result_init(struct nb_result *r, const struct nb_config *cfg,
	       uint32_t nb_streams)
{
	uint32_t i;

	memset(r, 0, sizeof(*r));
	r->cfg = cfg;
	r->clock = "tsc";
	r->latency_method = "one-way, same host";
	r->topology = "loopback";
	if (nb_streams) {
		r->streams = calloc(nb_streams, sizeof(*r->streams));
		if (r->streams == NULL)
			return -ENOMEM;
	}
	r->nb_streams = nb_streams;
	for (i = 0; i < nb_streams; i++) {
		r->streams[i].id = i;
		nb_hist_init(&r->streams[i].hist);
	}
	nb_hist_init(&r->sum.hist);
	nb_hist_init(&r->rtt);
	return 0;
}

/*
 * An interval's per-stream uint64_t arrays, in one order: the counts (tx
 * packets, tx bytes, rx packets, rx bytes), then the quality arrays (lost,
 * out of order, duplicates).  Jitter, an array of double, comes last.
 */
#define IV_COUNTS 4
#define IV_U64	  7

static void
iv_arrays(struct nb_interval *iv, uint64_t **a[IV_U64])
{
	a[0] = &iv->stream_tx_pkts;
	a[1] = &iv->stream_tx_bytes;
	a[2] = &iv->stream_rx_pkts;
	a[3] = &iv->stream_rx_bytes;
	a[4] = &iv->stream_lost;
	a[5] = &iv->stream_out_of_order;
	a[6] = &iv->stream_duplicates;
}

int
nb_interval_alloc(struct nb_interval *iv, uint32_t n, int with_quality)
{
	uint64_t **a[IV_U64];
	uint32_t j, nb = with_quality ? IV_U64 : IV_COUNTS;

	iv_arrays(iv, a);
	for (j = 0; j < IV_U64; j++)
		*a[j] = NULL;
	iv->stream_jitter_ns = NULL;
	if (n == 0)
		return 0;
	for (j = 0; j < nb; j++) {
		*a[j] = calloc(n, sizeof(uint64_t));
		if (*a[j] == NULL)
			goto fail;
	}
	if (with_quality) {
		iv->stream_jitter_ns = calloc(n, sizeof(double));
		if (iv->stream_jitter_ns == NULL)
			goto fail;
	}
	return 0;
fail:
	nb_interval_release(iv);
	return -ENOMEM;
}

void
nb_interval_release(struct nb_interval *iv)
{
	uint64_t **a[IV_U64];
	uint32_t j;

	iv_arrays(iv, a);
	for (j = 0; j < IV_U64; j++) {
		free(*a[j]);
		*a[j] = NULL;
	}
	free(iv->stream_jitter_ns);
	iv->stream_jitter_ns = NULL;
	nb_ivq_release(iv);
}

void
nb_result_free(struct nb_result *r)
{
	uint32_t i;

	for (i = 0; i < r->nb_intervals; i++)
		nb_interval_release(&r->intervals[i]);
	free(r->intervals);
	free(r->streams);
	free(r->gaps);
	r->intervals = NULL;
	r->streams = NULL;
	r->gaps = NULL;
}

int
nb_result_gaps(struct nb_result *r, uint64_t ideal_ns)
{
	uint32_t i;

	free(r->gaps);
	r->gaps = calloc(r->nb_streams ? r->nb_streams : 1, sizeof(*r->gaps));
	if (r->gaps == NULL)
		return -ENOMEM;
	for (i = 0; i < r->nb_streams; i++)
		nb_gap_init(&r->gaps[i], ideal_ns);
	nb_gap_init(&r->gap_sum, ideal_ns);
	return 0;
}

/* Append iv as it is (its arrays become the result's), or -ENOMEM. */
static int
interval_append(struct nb_result *r, const struct nb_interval *iv)
{
	if (r->nb_intervals == r->cap_intervals) {
		uint32_t cap = r->cap_intervals ? r->cap_intervals * 2 : 64;
		struct nb_interval *n = realloc(r->intervals, cap * sizeof(*n));

		if (n == NULL)
			return -ENOMEM;
		r->intervals = n;
		r->cap_intervals = cap;
	}
	r->intervals[r->nb_intervals++] = *iv;
	return 0;
}

int
nb_result_add_interval(struct nb_result *r, const struct nb_interval *iv)
{
	struct nb_interval src = *iv, c = *iv;
	uint64_t **from[IV_U64], **to[IV_U64];
	uint32_t n = iv->nb_streams, j;

	c.queues = NULL; /* src's, until copied below */
	c.nb_queues = 0;
	iv_arrays(&src, from);
	iv_arrays(&c, to);
	/* the counts are required whenever there are streams */
	for (j = 0; j < IV_COUNTS; j++)
		if (n && *from[j] == NULL)
			return -ENOMEM;
	if (nb_interval_alloc(&c, n, iv->stream_lost != NULL) != 0)
		return -ENOMEM;
	for (j = 0; j < IV_U64; j++)
		if (*from[j] != NULL && *to[j] != NULL)
			memcpy(*to[j], *from[j], n * sizeof(uint64_t));
	if (src.stream_jitter_ns != NULL && c.stream_jitter_ns != NULL)
		memcpy(c.stream_jitter_ns, src.stream_jitter_ns,
		       n * sizeof(double));
	if (nb_ivq_copy(&c, &src) != 0 || interval_append(r, &c) != 0) {
		nb_interval_release(&c);
		return -ENOMEM;
	}
	return 0;
}

static double
safe_div(double a, double b)
{
	return b > 0 ? a / b : 0;
}

void
nb_result_finish(struct nb_result *r)
{
	struct nb_stream_result *sum = &r->sum;
	double jsum = 0;
	uint32_t i;

	memset(sum, 0, offsetof(struct nb_stream_result, hist));
	nb_hist_init(&sum->hist);
	sum->id = UINT32_MAX;
	for (i = 0; i < r->nb_streams; i++) {
		struct nb_stream_result *s = &r->streams[i];

		s->lost = s->tx_pkts > s->rx_unique ? s->tx_pkts - s->rx_unique
						    : 0;
		sum->tx_pkts += s->tx_pkts;
		sum->tx_bytes += s->tx_bytes;
		sum->rx_pkts += s->rx_pkts;
		sum->rx_bytes += s->rx_bytes;
		sum->rx_unique += s->rx_unique;
		sum->out_of_order += s->out_of_order;
		sum->duplicates += s->duplicates;
		sum->late += s->late;
		sum->lost += s->lost;
		jsum += s->jitter_ns;
		nb_hist_merge(&sum->hist, &s->hist);
	}
	if (r->gaps != NULL) {
		nb_gap_init(&r->gap_sum, 0);
		for (i = 0; i < r->nb_streams; i++)
			nb_gap_merge(&r->gap_sum, &r->gaps[i]);
	}
	/* Like iperf3's sum: the mean of the streams' jitter. */
	sum->jitter_ns = r->nb_streams ? jsum / r->nb_streams : 0;

	r->tx_pps = safe_div((double)sum->tx_pkts, r->tx_seconds);
	r->rx_pps = safe_div((double)sum->rx_pkts, r->rx_seconds);
	r->tx_l2_bps = safe_div(sum->tx_bytes * 8.0, r->tx_seconds);
	r->tx_l1_bps = safe_div(
		(sum->tx_bytes + sum->tx_pkts * (double)NB_L1_OVERHEAD) * 8.0,
		r->tx_seconds);
	r->rx_l2_bps = safe_div(sum->rx_bytes * 8.0, r->rx_seconds);
	r->rx_l1_bps = safe_div(
		(sum->rx_bytes + sum->rx_pkts * (double)NB_L1_OVERHEAD) * 8.0,
		r->rx_seconds);
	r->lost_percent =
		safe_div(100.0 * (double)sum->lost, (double)sum->tx_pkts);
	r->shortfall = 0;
	r->shortfall_percent = 0;
	if (r->req_pps > 0 && r->tx_seconds > 0) {
		r->shortfall_percent = 100.0 * (1.0 - r->tx_pps / r->req_pps);
		if (r->tx_pps < r->req_pps * 0.995)
			r->shortfall = 1;
	}
}

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
	char tb[32], bb[32], lt[48], lat[48];
	double secs = iv->end - iv->start;

	nb_fmt_bytes(tb, sizeof(tb), (double)l->bytes);
	nb_fmt_rate(bb, sizeof(bb), safe_div(l->bytes * 8.0, secs), format);
	snprintf(lt, sizeof(lt), "%llu/%llu (%.2g%%)",
		 (unsigned long long)l->lost,
		 (unsigned long long)(l->pkts + l->lost),
		 safe_div(100.0 * l->lost, (double)(l->pkts + l->lost)));
	if (l->have_lat)
		snprintf(lat, sizeof(lat), "%.1f/%.1f/%.1f", l->p50 / 1e3,
			 l->p99 / 1e3, l->max / 1e3);
	else
		snprintf(lat, sizeof(lat), "-");
	fprintf(f,
		"[%3s] %6.2f-%-6.2f sec  %-11s  %-15s %7.3f  %7.3f  %-22s "
		"%5llu %5llu  %9.3f  %s%s\n",
		id, iv->start, iv->end, tb, bb,
		safe_div((l->bytes + l->pkts * (double)NB_L1_OVERHEAD) * 8.0,
			 secs) /
			1e9,
		safe_div((double)l->pkts, secs) / 1e6, lt,
		(unsigned long long)l->ooo, (unsigned long long)l->dup,
		l->jitter_ns / 1e3, lat, iv->omitted ? "  (omitted)" : "");
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
	nb_fmt_rate(bb, sizeof(bb), safe_div(bytes * 8.0, secs), format);
	nb_fmt_rate(
		l1, sizeof(l1),
		safe_div((bytes + pkts * (double)NB_L1_OVERHEAD) * 8.0, secs),
		format);
	fprintf(f,
		"[%5s] 0.00-%-6.2f sec %-12s %-15s (L1 %-15s) %8.4f Mpps %s\n",
		id, secs, tb, bb, l1, safe_div((double)pkts, secs) / 1e6, tail);
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
		 safe_div(100.0 * s->lost, (double)s->tx_pkts),
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

/* The tester's disturbance against the test's latency (p99, max). */
static void
tester_verdict(const struct nb_result *r, struct nb_tester_verdict *v)
{
	nb_tester_judge(&r->tester, nb_hist_percentile(&r->sum.hist, 99),
			r->sum.hist.count ? r->sum.hist.max : 0, v);
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

/* A queue's share of its port's frames, in percent (RSS balance). */
static double
queue_share(uint64_t q, uint64_t port)
{
	return port ? 100.0 * (double)q / (double)port : 0.0;
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
				queue_share(p->q_tx_pkts[q], p->tool_tx_pkts),
				rx ? "," : "");
		if (rx)
			fprintf(f, " received tool %llu PMD %llu (%.1f %%)",
				(unsigned long long)p->q_rx_pkts[q],
				(unsigned long long)p->pmd.q_ipackets[q],
				queue_share(p->q_rx_pkts[q], p->tool_rx_pkts));
		fputc('\n', f);
	}
}

void
nb_report_text(FILE *f, const struct nb_result *r)
{
	char id[16], a[32], b[32];
	char fmt = nb_report_unit(r);
	int pingpong = r->cfg != NULL && r->cfg->pingpong;
	uint32_t i;

	fprintf(f, "- - - - - - - - - - - - - - - - - - - - - - - - -\n");
	if (r->rx_only) { /* what came, then our streams' if any came */
		uint64_t pkts, bytes;

		nb_rxonly_totals(r, &pkts, &bytes);
		nb_report_rxonly_row(f, 0, r->rxo_seconds, pkts, bytes, fmt,
				     " received (every frame)");
		rxonly_sizes_text(f, r, pkts);
		if (r->sum.rx_pkts == 0)
			pingpong = 1; /* no stream rows, no rate line */
	}
	/* a ping-pong test sends no data: its report is the round trips */
	for (i = 0; !pingpong && i < r->nb_streams; i++) {
		snprintf(id, sizeof(id), "%u", r->streams[i].id);
		stream_rows(f, r, id, &r->streams[i], fmt);
	}
	if (!pingpong && r->nb_streams > 1)
		stream_rows(f, r, "SUM", &r->sum, fmt);
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
	if (pingpong) {
		/* the rate line would say 0 Mpps of data */
	} else if (r->req_pps > 0) {
		nb_fmt_rate(a, sizeof(a), r->req_l1_bps, fmt);
		nb_fmt_rate(b, sizeof(b), r->tx_l1_bps, fmt);
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
	} else {
		nb_fmt_rate(b, sizeof(b), r->tx_l1_bps, fmt);
		fprintf(f, "rate: max requested, achieved %.4f Mpps (L1 %s)\n",
			r->tx_pps / 1e6, b);
	}
	for (i = 0; i < r->nb_ports; i++) {
		const struct nb_port_result *p = &r->ports[i];
		int tx = strstr(p->role, "tx") != NULL;
		int rx = strstr(p->role, "rx") != NULL;
		/* the counters run from before the start delay and warm-up */
		uint64_t lacp_max =
			nb_lacp_frames_max(&p->bond, r->rx_seconds + 5);

		if (strcmp(p->role, "peer") == 0) {
			/* the responder's port: only its PMD's word */
			fprintf(f,
				"responder port %u: PMD ipackets %llu "
				"opackets %llu imissed %llu ierrors %llu "
				"rx_nombuf %llu\n",
				p->desc.port_id,
				(unsigned long long)p->pmd.ipackets,
				(unsigned long long)p->pmd.opackets,
				(unsigned long long)p->pmd.imissed,
				(unsigned long long)p->pmd.ierrors,
				(unsigned long long)p->pmd.rx_nombuf);
			peer_setup_text(f, p);
			continue;
		}
		fprintf(f, "port %u (%s, %s) %s:", p->desc.port_id,
			p->desc.name, p->desc.driver, p->role);
		if (tx)
			port_count_text(f, "sent", p->tool_tx_pkts, "opackets",
					p->pmd.opackets, bond_copies(&p->bond),
					lacp_max);
		if (rx)
			port_count_text(f, "received", p->tool_rx_pkts,
					"ipackets", p->pmd.ipackets, 1,
					lacp_max);
		fprintf(f,
			" imissed %llu ierrors %llu oerrors %llu rx_nombuf "
			"%llu\n",
			(unsigned long long)p->pmd.imissed,
			(unsigned long long)p->pmd.ierrors,
			(unsigned long long)p->pmd.oerrors,
			(unsigned long long)p->pmd.rx_nombuf);
		{
			uint32_t k, shown = 0;

			for (k = 0; k < p->pmd.nb_xstats; k++) {
				if (p->pmd.xstats[k].value == 0)
					continue;
				fprintf(f, "%s %s %llu",
					shown++ ? "," : "  xstats:",
					p->pmd.xstats[k].name,
					(unsigned long long)p->pmd.xstats[k]
						.value);
			}
			if (shown)
				fputc('\n', f);
		}
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
	if (r->have_tester) {
		struct nb_tester_verdict v;

		tester_verdict(r, &v);
		nb_tester_text(f, &r->tester, &v);
	}
	if (r->tx_dropped)
		fprintf(f,
			"WARNING: %llu frames were still waiting for the TX "
			"queue when the test was stopped, and were freed "
			"(tx_dropped)\n",
			(unsigned long long)r->tx_dropped);
	if (r->cfg != NULL && r->cfg->capture.active) {
		char spec[400];

		nb_capspec_text(&r->cfg->capture, spec, sizeof(spec));
		fprintf(f, "capture %s: %llu frames written", spec,
			(unsigned long long)r->capture.written);
		if (r->capture.dropped)
			fprintf(f,
				", WARNING: %llu more were not (the writer "
				"fell behind)",
				(unsigned long long)r->capture.dropped);
		fputc('\n', f);
	}
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
	if (r->impair.active) {
		const struct nb_impair_counts *c = &r->impair.c;

		fprintf(f,
			"responder impairment %s: of %llu frames, %llu "
			"dropped, %llu over the rate, %llu over the delay "
			"line (%llu missing in all), %llu duplicated, %llu "
			"reordered, %llu delayed\n",
			r->impair.spec, (unsigned long long)c->seen,
			(unsigned long long)c->dropped,
			(unsigned long long)c->policed,
			(unsigned long long)c->overflow,
			(unsigned long long)(c->dropped + c->policed +
					     c->overflow),
			(unsigned long long)c->duplicated,
			(unsigned long long)c->reordered,
			(unsigned long long)c->delayed);
	}
	if (r->interrupted)
		fprintf(f,
			"note: interrupted; results cover %.2f s actually "
			"run\n",
			r->tx_seconds);
}

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
			    jreal(safe_div(bytes * 8.0, secs)));
	json_object_set_new(
		o, "l1_bits_per_second",
		jreal(safe_div((bytes + pkts * (double)NB_L1_OVERHEAD) * 8.0,
			       secs)));
	json_object_set_new(o, "packets", jint(pkts));
	json_object_set_new(o, "pps", jreal(safe_div((double)pkts, secs)));
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
		jreal(safe_div(100.0 * s->lost, (double)s->tx_pkts)));
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
			json_pack("{s:i,s:f,s:f,s:o,s:o,s:o,s:o,s:o,s:o,s:o,"
				  "s:o}",
				  "queue", (int)q, "tx_share_percent",
				  queue_share(p->q_tx_pkts[q], p->tool_tx_pkts),
				  "rx_share_percent",
				  queue_share(p->q_rx_pkts[q], p->tool_rx_pkts),
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
	json_object_set_new(o, "mtu", jint(p->desc.mtu));
	if (p->role)
		json_object_set_new(o, "role", json_string(p->role));
	if (p->has_offload)
		json_object_set_new(o, "offloads",
				    nb_offload_json(&p->offload));
	if (p->has_numa_brief)
		json_object_set_new(o, "numa",
				    nb_numa_brief_json(&p->numa_brief));
	if (with_counts && !(p->role && strcmp(p->role, "peer") == 0)) {
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
			    jreal(safe_div(l.bytes * 8.0, secs)));
	if (k < 0)
		json_object_set_new(
			o, "l1_bits_per_second",
			jreal(safe_div(
				(l.bytes + l.pkts * (double)NB_L1_OVERHEAD) *
					8.0,
				secs)));
	json_object_set_new(o, "packets", jint(l.pkts));
	json_object_set_new(o, "pps", jreal(safe_div((double)l.pkts, secs)));
	json_object_set_new(o, "sent_packets", jint(l.sent_pkts));
	json_object_set_new(o, "sent_bytes", jint(l.sent_bytes));
	if (k < 0 || iv->stream_lost != NULL) {
		json_object_set_new(o, "lost_packets", jint(l.lost));
		json_object_set_new(o, "lost_percent",
				    jreal(safe_div(100.0 * l.lost,
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
	json_object_set_new(o, "sum", part);
	if (iv->nb_queues)
		json_object_set_new(o, "queues", nb_ivq_json(iv));
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

json_t *
nb_json_end(const struct nb_result *r)
{
	const struct nb_config *cfg = r->cfg;
	json_t *end = json_object(), *rate = json_object(), *arr;
	int udp = cfg->proto != NB_IPPROTO_TCP;
	uint32_t i;

	arr = json_array();
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
	json_object_set_new(end, "streams", arr);
	if (udp)
		json_object_set_new(end, "sum", udp_json(r, &r->sum));
	json_object_set_new(
		end, "sum_sent",
		side_json(r->tx_seconds, r->sum.tx_pkts, r->sum.tx_bytes, 1));
	json_object_set_new(end, "sum_received", receiver_json(r, &r->sum, 1));
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
	json_object_set_new(end, "rate", rate);
	if (r->rx_only) {
		uint64_t pkts, bytes;
		json_t *ro;

		nb_rxonly_totals(r, &pkts, &bytes);
		ro = nb_rxonly_json(r->rxo_seconds, pkts, bytes);
		json_object_set_new(ro, "sizes",
				    nb_rxonly_sizes_json(r->rx_sizes));
		json_object_set_new(end, "receive_only", ro);
	}
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
	if (r->have_tester) {
		struct nb_tester_verdict v;

		tester_verdict(r, &v);
		json_object_set_new(end, "tester",
				    nb_tester_json(&r->tester, &v));
	}
	if (r->cfg != NULL && r->cfg->capture.active) {
		const struct nb_capspec *c = &r->cfg->capture;

		json_object_set_new(
			end, "capture",
			json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o}", "file",
				  c->path, "every", jint(c->every), "snaplen",
				  jint(c->snaplen), "count", jint(c->count),
				  "taken", jint(r->capture.taken), "written",
				  jint(r->capture.written), "dropped",
				  jint(r->capture.dropped)));
	}
	if (r->impair.active) {
		const struct nb_impair_counts *c = &r->impair.c;

		json_object_set_new(
			end, "responder_impairment",
			json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "spec",
				  r->impair.spec, "seen", jint(c->seen),
				  "dropped", jint(c->dropped), "policed",
				  jint(c->policed), "overflow",
				  jint(c->overflow), "duplicated",
				  jint(c->duplicated), "reordered",
				  jint(c->reordered), "delayed",
				  jint(c->delayed)));
	}
	if (r->probes_sent) {
		json_t *o =
			latency_json(&r->rtt, r->clock,
				     r->rtt_method ? r->rtt_method : "rtt", 1);

		json_object_set_new(o, "probes_sent", jint(r->probes_sent));
		json_object_set_new(o, "probes_returned",
				    jint(r->probes_returned));
		json_object_set_new(
			o, "probes_lost",
			jint(r->probes_sent > r->probes_returned
				     ? r->probes_sent - r->probes_returned
				     : 0));
		json_object_set_new(end, "rtt", o);
	}
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

/* A stream's end totals, in the order of iv_arrays(): the four counts,
 * then loss, reordering and duplicates. */
static void
stream_ends(const struct nb_stream_result *s, int64_t c[IV_U64])
{
	c[0] = (int64_t)s->tx_pkts;
	c[1] = (int64_t)s->tx_bytes;
	c[2] = (int64_t)s->rx_pkts;
	c[3] = (int64_t)s->rx_bytes;
	c[4] = (int64_t)s->lost;
	c[5] = (int64_t)s->out_of_order;
	c[6] = (int64_t)s->duplicates;
}

/* An interval's sum fields, in the order of iv_arrays(). */
static void
iv_totals(struct nb_interval *iv, uint64_t *t[IV_U64])
{
	t[0] = &iv->tx_pkts;
	t[1] = &iv->tx_bytes;
	t[2] = &iv->rx_pkts;
	t[3] = &iv->rx_bytes;
	t[4] = &iv->lost;
	t[5] = &iv->out_of_order;
	t[6] = &iv->duplicates;
}

/* Whether interval iv counts toward the end totals (a measured one). */
static int
iv_measured(const struct nb_interval *iv)
{
	return !iv->omitted && iv->stream_tx_pkts != NULL;
}

/*
 * Add d to counter j of stream k in the intervals, keeping each sum field
 * the sum of its streams: a rise goes into the last measured interval; a
 * fall (a gap counted lost that a late frame filled) is taken from the
 * last intervals that have it.
 */
static void
iv_adjust(struct nb_result *r, uint32_t j, uint32_t k, int64_t d)
{
	uint32_t i = r->nb_intervals;

	while (d != 0 && i > 0) {
		struct nb_interval *iv = &r->intervals[--i];
		uint64_t **a[IV_U64], *t[IV_U64], *v;
		uint64_t take;

		if (!iv_measured(iv) || k >= iv->nb_streams)
			continue;
		iv_arrays(iv, a);
		iv_totals(iv, t);
		if (*a[j] == NULL)
			continue;
		v = &(*a[j])[k];
		if (d > 0) {
			*v += (uint64_t)d;
			*t[j] += (uint64_t)d;
			return;
		}
		take = *v < (uint64_t)-d ? *v : (uint64_t)-d;
		*v -= take;
		*t[j] -= take;
		d += (int64_t)take;
	}
}

int
nb_result_close_rxonly(struct nb_result *r)
{
	uint64_t pkts, bytes, sp = 0, sb = 0;
	struct nb_interval add, *last = NULL;
	uint32_t k;

	for (k = 0; k < r->nb_intervals; k++) {
		if (!r->intervals[k].rx_only || r->intervals[k].omitted)
			continue;
		last = &r->intervals[k];
		sp += last->all_rx_pkts;
		sb += last->all_rx_bytes;
	}
	nb_rxonly_totals(r, &pkts, &bytes);
	if (sp > pkts || sb > bytes)
		return 0;
	if (last != NULL && last->end + 1e-3 >= r->rxo_seconds) {
		last->all_rx_pkts += pkts - sp;
		last->all_rx_bytes += bytes - sb;
		return 0;
	}
	if (pkts == sp)
		return 0;
	memset(&add, 0, sizeof(add));
	add.start = last ? last->end : 0;
	add.end = r->rxo_seconds > add.start ? r->rxo_seconds : add.start;
	add.rx_only = 1;
	add.all_rx_pkts = pkts - sp;
	add.all_rx_bytes = bytes - sb;
	return nb_result_add_interval(r, &add) == 0 ? 1 : -ENOMEM;
}

int
nb_result_close_intervals(struct nb_result *r)
{
	uint32_t n = r->nb_streams, i, j, k;
	struct nb_interval add, *last = NULL;
	double end = r->rx_seconds;
	int appended = 0, any = 0;

	if (n == 0)
		return 0;
	for (i = 0; i < r->nb_intervals; i++)
		if (iv_measured(&r->intervals[i]))
			last = &r->intervals[i];
	for (k = 0; k < n; k++)
		any |= r->streams[k].tx_pkts || r->streams[k].rx_pkts;
	if (last == NULL && !any)
		return 0;
	if (last == NULL || last->end + 1e-3 < r->tx_seconds) {
		/* the stats lcore did not reach the end: one more interval */
		memset(&add, 0, sizeof(add));
		if (nb_interval_alloc(&add, n, 1) == 0) {
			add.start = last ? last->end : 0;
			add.end = end > add.start ? end : add.start;
			add.nb_streams = n;
			/* the queue rows of the one before, at zero, to
			 * take what came after it */
			if (last != NULL && nb_ivq_copy(&add, last) == 0)
				for (i = 0; i < add.nb_queues; i++) {
					struct nb_iv_queue *e = &add.queues[i];

					e->tx_pkts = e->tx_bytes = 0;
					e->rx_pkts = e->rx_bytes = 0;
				}
			if (interval_append(r, &add) == 0) {
				appended = 1;
				last = &r->intervals[r->nb_intervals - 1];
			} else {
				nb_interval_release(&add);
			}
		}
		if (last == NULL)
			return 0;
	}
	/* every counter of every stream adds up to its end total */
	for (k = 0; k < n; k++) {
		int64_t ends[IV_U64], sum[IV_U64] = {0};

		stream_ends(&r->streams[k], ends);
		for (i = 0; i < r->nb_intervals; i++) {
			struct nb_interval *iv = &r->intervals[i];
			uint64_t **a[IV_U64];

			if (!iv_measured(iv) || k >= iv->nb_streams)
				continue;
			iv_arrays(iv, a);
			for (j = 0; j < IV_U64; j++)
				if (*a[j] != NULL)
					sum[j] += (int64_t)(*a[j])[k];
		}
		for (j = 0; j < IV_U64; j++)
			if (ends[j] != sum[j])
				iv_adjust(r, j, k, ends[j] - sum[j]);
	}
	/* jitter is a running estimate: the last interval ends in the state
	 * the end reports */
	if (last->stream_jitter_ns != NULL)
		for (k = 0; k < n && k < last->nb_streams; k++)
			last->stream_jitter_ns[k] = r->streams[k].jitter_ns;
	last->jitter_ns = r->sum.jitter_ns;
	nb_ivq_close(r, last);
	return appended;
}
