/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --gaps: each receive job's per-stream arrival-gap state (nb_gap.h), its
 * target, and the one reader that sums it per stream for the report.
 */

#include <errno.h>
#include <stdio.h>

#include <rte_malloc.h>

#include "nb_jobs.h"
#include "nb_port.h"

int
nb_jobs_gaps(struct nb_jobs *js, uint64_t ideal_ns, uint8_t proto, char *err,
	     size_t errlen)
{
	unsigned int i;
	uint32_t s;

	for (i = 0; i < js->nb_rx; i++) {
		struct nb_rxjob *j = js->rx[i];
		int socket = nb_port_socket(j->port);

		j->gaps = rte_zmalloc_socket(
			"nb_gaps", sizeof(struct nb_gap) * j->nb_streams,
			RTE_CACHE_LINE_SIZE, socket);
		if (j->gaps == NULL) {
			snprintf(err, errlen,
				 "out of hugepage memory for --gaps (%zu bytes "
				 "per stream and receive queue; see "
				 "hugepages.md)",
				 sizeof(struct nb_gap));
			return -ENOMEM;
		}
		for (s = 0; s < j->nb_streams; s++)
			nb_gap_init(&j->gaps[s], ideal_ns);
	}
	for (i = 0; i < js->nb_workers; i++)
		nb_engine_select(js->workers[i], proto);
	return 0;
}

void
nb_jobs_read_gaps(const struct nb_jobs *js, struct nb_gap *out, uint32_t n)
{
	unsigned int i;
	uint32_t s;

	for (i = 0; i < js->nb_rx; i++) {
		const struct nb_rxjob *j = js->rx[i];

		for (s = 0; j->gaps != NULL && s < n && s < j->nb_streams; s++)
			nb_gap_merge(&out[s], &j->gaps[s]);
	}
}
