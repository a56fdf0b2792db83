/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A fan-out test's receiving ports one by one (nb_mcast.h): each port's
 * receive jobs keep their own per-stream sequence state, so what reached
 * one port is summed over its jobs alone, never merged with another
 * port's copy of the same frames.
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
