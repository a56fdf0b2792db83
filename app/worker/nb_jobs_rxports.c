/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The counts port by port: a fan-out test's receiving ports (nb_mcast.h)
 * and a mesh's pairs (nb_mesh.h).  Each port's receive jobs keep their
 * own per-stream sequence state, so what reached one port is summed over
 * its jobs alone, never merged with another port's copy of the same
 * frames.
 */
#include <string.h>

#include "nb_jobs.h"
#include "nb_result.h"

void
nb_jobs_read_rxport(const struct nb_jobs *js, uint16_t port,
		    struct nb_rxport_result *out)
{
	uint32_t n = js->nb_streams, st;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	out->port = port;
	for (i = 0; i < js->nb_rx; i++) {
		const struct nb_rxjob *j = js->rx[i];

		if (j->port != port || j->streams == NULL)
			continue;
		for (st = 0; st < n && st < j->nb_streams; st++) {
			const struct nb_seq *q = &j->streams[st].seq;

			out->received += q->received;
			out->unique += q->unique;
			out->out_of_order += q->out_of_order;
			out->duplicates += q->duplicates;
		}
	}
}

void
nb_jobs_read_port_stream(const struct nb_jobs *js, uint16_t port, uint32_t s,
			 struct nb_rxport_result *out, struct nb_hist *h)
{
	unsigned int i;

	for (i = 0; i < js->nb_rx; i++) {
		const struct nb_rxjob *j = js->rx[i];
		const struct nb_rx_stream *st;

		if (j->port != port || j->streams == NULL || s >= j->nb_streams)
			continue;
		st = &j->streams[s];
		out->received += st->seq.received;
		out->unique += st->seq.unique;
		out->out_of_order += st->seq.out_of_order;
		out->duplicates += st->seq.duplicates;
		if (h != NULL)
			nb_hist_merge(h, &st->hist);
	}
}

const struct nb_port_counts *
nb_counts_port(const struct nb_counts *c, uint16_t port_id)
{
	uint16_t i;

	for (i = 0; i < c->nb_ports; i++)
		if (c->ports[i].port_id == port_id)
			return &c->ports[i];
	return NULL;
}
