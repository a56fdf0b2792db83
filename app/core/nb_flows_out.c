/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --flows in the report: the summary's text lines, and every flow's
 * figures written to --per-flow's file (CSV or JSON).  Pure (stdio).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>

#include "nb_flows_rx.h"

static const char *const loss_names[NB_FLOW_LOSS_BINS] = {
	"none", "<=0.01 %", "<=0.1 %", "<=1 %", "<=10 %", "<100 %", "all",
};

static uint64_t
lost_of(const struct nb_flow_rx *r, uint64_t sent)
{
	return sent > r->unique ? sent - r->unique : 0;
}

/* A latency bin's upper edge in words ("2 us"). */
static void
edge(unsigned int b, char *buf, size_t len)
{
	double ns = (double)(UINT64_C(2) << b);

	/* 3 digits: 2^15 ns is "32.8 us", not "33 us" */

	if (ns < 1e3)
		snprintf(buf, len, "%.3g ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.3g us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.3g ms", ns / 1e6);
	else
		snprintf(buf, len, "%.3g s", ns / 1e9);
}

void
nb_flows_sum_text(FILE *f, const struct nb_flows_sum *s,
		  const struct nb_flow_rx *rx, const uint64_t *sent,
		  uint32_t streams)
{
	unsigned int i, nq = 0;
	const char *sep = "";

	fprintf(f,
		"flows: %u, %u with loss, %u reordered, %u with duplicates, "
		"%u with nothing received\n",
		s->flows, s->with_loss, s->with_reorder, s->with_dups,
		s->none_arrived);
	fprintf(f, "  loss across flows:");
	for (i = 0; i < NB_FLOW_LOSS_BINS; i++)
		if (s->loss_bins[i] || i == 0)
			fprintf(f, "%s %s %" PRIu64, i ? "," : "",
				loss_names[i], s->loss_bins[i]);
	fprintf(f, "\n  p99 latency across flows:");
	for (i = 0; i < NB_FLOW_LAT_BINS; i++) {
		char e[16];

		if (!s->p99_bins[i])
			continue;
		edge(i, e, sizeof(e));
		fprintf(f, "%s <%s %" PRIu64, sep, e, s->p99_bins[i]);
		sep = ",";
	}
	fprintf(f, "%s\n", *sep ? "" : " none");
	for (i = 0; i < 64; i++)
		if (s->per_queue[i])
			nq = i + 1;
	if (nq > 1 || s->on_several_queues) {
		fprintf(f, "  flows per RX queue:");
		for (i = 0; i < nq; i++)
			fprintf(f, " q%u %u", i, s->per_queue[i]);
		if (s->on_several_queues)
			fprintf(f, ", on several queues %u",
				s->on_several_queues);
		fprintf(f, "\n");
	}
	for (i = 0; i < s->nb_worst; i++) {
		uint32_t id = s->worst[i];
		const struct nb_flow_rx *r = &rx[id];

		fprintf(f,
			"  %s flow %u (stream %u): sent %" PRIu64
			", received %" PRIu64 ", lost %" PRIu64 " (%.3f %%)\n",
			i ? "     " : "worst", id, id % streams, sent[id],
			r->unique, lost_of(r, sent[id]),
			sent[id] ? 100.0 * (double)lost_of(r, sent[id]) /
					   (double)sent[id]
				 : 0.0);
	}
}

static void
mac_str(const uint8_t m[6], char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
		 m[3], m[4], m[5]);
}

/* An address of the flow: IPv4 v, or IPv6 hi96 with v as its last 32. */
static void
ip_str(const struct nb_ip *hi96, uint32_t v, char *buf, size_t len)
{
	uint8_t a[16];

	if (hi96 == NULL || hi96->family != 6) {
		snprintf(buf, len, "%u.%u.%u.%u", v >> 24, (v >> 16) & 255,
			 (v >> 8) & 255, v & 255);
		return;
	}
	memcpy(a, hi96->a, 12);
	nb_put_be32(a + 12, v);
	if (inet_ntop(AF_INET6, a, buf, (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
}

int
nb_flows_write(const char *path, const struct nb_flow_rx *rx,
	       const uint64_t *sent, const struct nb_flow_rec *rec, uint32_t n,
	       uint32_t streams, const struct nb_ip *src6,
	       const struct nb_ip *dst6, char *err, size_t errlen)
{
	size_t pl = strlen(path);
	int csv = pl > 4 && strcmp(path + pl - 4, ".csv") == 0;
	FILE *f = fopen(path, "w");
	uint32_t i;

	if (f == NULL) {
		snprintf(err, errlen, "--per-flow %s: %s", path,
			 strerror(errno));
		return -errno;
	}
	if (csv)
		fprintf(f, "flow,stream,src_mac,dst_mac,src_ip,dst_ip,src_port,"
			   "dst_port,sent,received,lost,duplicates,reordered,"
			   "lat_min_ns,lat_avg_ns,lat_p99_ns,lat_max_ns,"
			   "rx_queue\n");
	else
		fprintf(f, "{\"flows\": [\n");
	for (i = 0; i < n; i++) {
		const struct nb_flow_rx *r = &rx[i];
		char sm[24], dm[24], sa[64], da[64];
		uint64_t avg = r->unique ? r->lat_sum / r->unique : 0;
		long q = r->queue == UINT32_MAX ? -1 : (long)r->queue - 1;

		mac_str(rec[i].mac + 6, sm, sizeof(sm));
		mac_str(rec[i].mac, dm, sizeof(dm));
		ip_str(src6, nb_flow_rec_ip(&rec[i], 0), sa, sizeof(sa));
		ip_str(dst6, nb_flow_rec_ip(&rec[i], 1), da, sizeof(da));
		fprintf(f,
			csv ? "%u,%u,%s,%s,%s,%s,%u,%u,%" PRIu64 ",%" PRIu64
			      ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u,%" PRIu64
			      ",%" PRIu64 ",%u,%ld\n"
			    : "{\"flow\": %u, \"stream\": %u, \"src_mac\": "
			      "\"%s\", \"dst_mac\": \"%s\", \"src_ip\": "
			      "\"%s\", "
			      "\"dst_ip\": \"%s\", \"src_port\": %u, "
			      "\"dst_port\": %u, \"sent\": %" PRIu64
			      ", \"received\": %" PRIu64 ", \"lost\": %" PRIu64
			      ", \"duplicates\": %" PRIu64
			      ", \"reordered\": %" PRIu64
			      ", \"lat_min_ns\": %u, \"lat_avg_ns\": %" PRIu64
			      ", \"lat_p99_ns\": %" PRIu64
			      ", \"lat_max_ns\": %u, \"rx_queue\": %ld}",
			i, i % streams, sm, dm, sa, da,
			nb_flow_rec_port(&rec[i], 0),
			nb_flow_rec_port(&rec[i], 1), sent[i], r->unique,
			lost_of(r, sent[i]), r->dups, r->reordered,
			r->unique ? r->lat_min : 0, avg, nb_flow_rx_pct(r, 99),
			r->lat_max, q);
		if (!csv)
			fprintf(f, "%s\n", i + 1 < n ? "," : "");
	}
	if (!csv)
		fprintf(f, "]}\n");
	if (fclose(f) != 0) {
		snprintf(err, errlen, "--per-flow %s: %s", path,
			 strerror(errno));
		return -EIO;
	}
	return 0;
}
