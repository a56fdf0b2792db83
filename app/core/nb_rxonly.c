/* SPDX-License-Identifier: BSD-3-Clause */
/* A receive-only test's figures (nb_rxonly.h).  Pure. */
#include "nb_rxonly.h"

#include "nb_frame.h"
#include "nb_result.h"

static double
per_s(double v, double secs)
{
	return secs > 0 ? v / secs : 0;
}

/* L1 bits: each frame's bytes (FCS included) plus preamble and gap. */
static double
l1_bits(uint64_t pkts, uint64_t bytes)
{
	return ((double)bytes + (double)pkts * NB_L1_OVERHEAD) * 8.0;
}

void
nb_rxonly_totals(const struct nb_result *r, uint64_t *pkts, uint64_t *bytes)
{
	uint16_t i;

	*pkts = *bytes = 0;
	for (i = 0; i < r->nb_ports; i++) {
		*pkts += r->ports[i].tool_rx_pkts;
		*bytes += r->ports[i].tool_rx_bytes;
	}
}

json_t *
nb_rxonly_json(double secs, uint64_t pkts, uint64_t bytes)
{
	return json_pack("{s:f, s:I, s:I, s:f, s:f, s:f}", "seconds", secs,
			 "packets", (json_int_t)pkts, "bytes",
			 (json_int_t)bytes, "packets_per_second",
			 per_s((double)pkts, secs), "bits_per_second",
			 per_s((double)bytes * 8.0, secs), "l1_bits_per_second",
			 per_s(l1_bits(pkts, bytes), secs));
}

const char *
nb_size_bin_name(unsigned int bin)
{
	static const char *const names[NB_SIZE_BINS] = {
		"<64",	   "64",       "65-127",    "128-255",
		"256-511", "512-1023", "1024-1518", "1519+",
	};

	return bin < NB_SIZE_BINS ? names[bin] : "?";
}

json_t *
nb_rxonly_sizes_json(const uint64_t *sizes)
{
	json_t *o = json_object();
	unsigned int b;

	for (b = 0; b < NB_SIZE_BINS; b++)
		json_object_set_new(o, nb_size_bin_name(b),
				    json_integer((json_int_t)sizes[b]));
	return o;
}
