/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iperf3's UDP streams on a test's jobs (--iperf3 and --iperf3-server):
 * the receivers' sinks (nb_ip3_sink, counted by nb_sink_ip3 on frames of
 * no kind of ours) and the senders' ports (a server sends each stream to
 * the port the client opened it from).
 */
#include <string.h>

#include <rte_malloc.h>

#include "nb_jobs.h"

struct nb_ip3_sink *
nb_jobs_ip3_sinks(struct nb_jobs *js, const struct nb_ip3_sink *k)
{
	struct nb_ip3_sink *s;
	unsigned int i;

	if (js->nb_rx == 0)
		return NULL;
	s = rte_zmalloc("nb_ip3_sinks", sizeof(*s) * js->nb_rx,
			RTE_CACHE_LINE_SIZE);
	if (s == NULL)
		return NULL;
	for (i = 0; i < js->nb_rx; i++) {
		memcpy(&s[i], k, offsetof(struct nb_ip3_sink, s));
		/* the worker finds it from here on (per foreign frame) */
		__atomic_store_n(&js->rx[i]->ip3, &s[i], __ATOMIC_RELEASE);
	}
	return s;
}

void
nb_jobs_ip3_sinks_free(struct nb_ip3_sink *s)
{
	rte_free(s);
}

uint64_t
nb_jobs_ip3_datagrams(const struct nb_ip3_sink *s, unsigned int nsinks)
{
	uint64_t n = 0;
	unsigned int i, k;

	for (i = 0; s != NULL && i < nsinks; i++)
		for (k = 0; k < s[i].n; k++)
			n += s[i].s[k].datagrams;
	return n;
}

void
nb_jobs_ip3_stream(const struct nb_ip3_sink *s, unsigned int nsinks,
		   unsigned int i, struct nb_ip3_udp_rx *out)
{
	uint64_t most = 0;
	unsigned int k;

	memset(out, 0, sizeof(*out));
	for (k = 0; s != NULL && k < nsinks; k++) {
		const struct nb_ip3_udp_rx *r = &s[k].s[i];

		out->bytes += r->bytes;
		out->datagrams += r->datagrams;
		out->cnt_error += r->cnt_error;
		out->outoforder += r->outoforder;
		if (r->packet_count > out->packet_count)
			out->packet_count = r->packet_count;
		if (r->datagrams > most) {
			most = r->datagrams;
			out->jitter_ns = r->jitter_ns;
		}
	}
}

/* One template's UDP ports (the checksum of iperf3's datagrams is 0,
 * written per frame: nothing else changes). */
static void
tmpl_ports(struct nb_tmpl *t, uint16_t sport, uint16_t dport)
{
	uint8_t *l4 = t->hdr + t->l4_off;

	l4[0] = (uint8_t)(sport >> 8);
	l4[1] = (uint8_t)sport;
	l4[2] = (uint8_t)(dport >> 8);
	l4[3] = (uint8_t)dport;
}

void
nb_jobs_udp_ports(struct nb_jobs *js, uint16_t sport, const uint16_t *dports,
		  unsigned int n)
{
	unsigned int i, k, z;

	for (i = 0; i < js->nb_tx; i++) {
		struct nb_txjob *j = js->tx[i];

		for (k = 0; k < j->nb_streams; k++) {
			unsigned int s = j->first_stream + k * j->stream_stride;

			if (s >= n)
				continue;
			for (z = 0; z < j->nb_sizes; z++) {
				if (j->tmpl_warm != NULL)
					tmpl_ports(
						&j->tmpl_warm[k * j->nb_sizes +
							      z],
						sport, dports[s]);
				if (j->tmpl_data != NULL)
					tmpl_ports(
						&j->tmpl_data[k * j->nb_sizes +
							      z],
						sport, dports[s]);
			}
		}
	}
}
