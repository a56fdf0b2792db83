/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A fan-out test's receiving ports (one TX port to a multicast group or a
 * broadcast MAC): what reached each, and what that says of the network
 * between (nb_mcast_verdict), in the text report and in JSON.
 */
#include <stdio.h>

#include "nb_mcast.h"
#include "nb_result.h"

void
nb_report_rxports_text(FILE *f, const struct nb_result *r)
{
	char verdict[160];
	uint16_t i;

	if (!r->fanout || r->nb_rxports == 0)
		return;
	fprintf(f,
		"Receiving ports (%llu frames sent; the rows above add up "
		"what every port received):\n",
		(unsigned long long)r->rx_sent);
	for (i = 0; i < r->nb_rxports; i++) {
		const struct nb_rxport_result *p = &r->rxports[i];

		nb_mcast_verdict(verdict, sizeof(verdict), r->fanout, p->joined,
				 r->rx_sent, p->unique);
		fprintf(f,
			"[RX %2u] received %llu, lost %llu (%.4g%%), out of "
			"order %llu, duplicates %llu: %s\n",
			p->port, (unsigned long long)p->received,
			(unsigned long long)p->lost,
			100.0 * nb_div0((double)p->lost, (double)r->rx_sent),
			(unsigned long long)p->out_of_order,
			(unsigned long long)p->duplicates, verdict);
	}
}

json_t *
nb_json_rxports(const struct nb_result *r)
{
	char verdict[160];
	json_t *arr;
	uint16_t i;

	if (!r->fanout || r->nb_rxports == 0)
		return NULL;
	arr = json_array();
	for (i = 0; i < r->nb_rxports; i++) {
		const struct nb_rxport_result *p = &r->rxports[i];

		nb_mcast_verdict(verdict, sizeof(verdict), r->fanout, p->joined,
				 r->rx_sent, p->unique);
		json_array_append_new(
			arr,
			json_pack("{s:i,s:b,s:I,s:I,s:I,s:I,s:f,s:I,s:I,s:s}",
				  "port", (int)p->port, "joined", p->joined,
				  "sent", (json_int_t)r->rx_sent, "received",
				  (json_int_t)p->received, "unique",
				  (json_int_t)p->unique, "lost",
				  (json_int_t)p->lost, "lost_percent",
				  100.0 * nb_div0((double)p->lost,
						  (double)r->rx_sent),
				  "out_of_order", (json_int_t)p->out_of_order,
				  "duplicates", (json_int_t)p->duplicates,
				  "verdict", verdict));
	}
	return arr;
}
