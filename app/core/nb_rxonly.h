/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A receive-only test (--rx-port without --tx-port): the port takes in
 * whatever another generator sends (testpmd, TRex, a hardware tester, a
 * DUT's output).  Its figures are every frame the port's receivers took
 * in, ours or not: frames, bytes, Mpps, Gbit/s (L2, and L1 with 20 bytes
 * of preamble and gap a frame), per interval and for the test; frames
 * that carry this tool's stamp keep their per-stream rows.  Pure.
 */
#ifndef NB_RXONLY_H
#define NB_RXONLY_H

#include <stdint.h>

#include <jansson.h>

/* {"seconds", "packets", "bytes", "packets_per_second",
 *  "bits_per_second", "l1_bits_per_second"} */
json_t *nb_rxonly_json(double secs, uint64_t pkts, uint64_t bytes);
/* {"<64": n, "64": n, ...}: every bin, from sizes[NB_SIZE_BINS]. */
json_t *nb_rxonly_sizes_json(const uint64_t *sizes);

/*
 * Frame sizes as RMON counts them (RFC 2819 etherStatsPkts*Octets, FCS
 * included): under 64, 64, 65-127, 128-255, 256-511, 512-1023,
 * 1024-1518, 1519 and over.
 */
#define NB_SIZE_BINS 8

/*
 * The bin of a frame of len bytes (FCS included), for the receive-only
 * sink's per-frame count: branch-free, one load and two compares (the
 * seven compares it replaced were 27 instructions a frame).  The edges at
 * 128, 256, 512 and 1024 are multiples of 64, so a table of 64-byte steps
 * up to 2047 gives the bin less the two edges that are not: 65 and 1519.
 */
static inline unsigned int
nb_size_bin(uint32_t len)
{
	static const uint8_t step[32] = {
		0, 1,			/* 0-63, 64-127 */
		2, 2,			/* 128-255 */
		3, 3, 3, 3,		/* 256-511 */
		4, 4, 4, 4, 4, 4, 4, 4, /* 512-1023 */
		5, 5, 5, 5, 5, 5, 5, 5, /* 1024-2047 */
		5, 5, 5, 5, 5, 5, 5, 5,
	};

	return step[(len > 2047 ? 2047 : len) >> 6] + (unsigned int)(len > 64) +
	       (unsigned int)(len >= 1519);
}

/* "<64", "64", "65-127", ..., "1519+". */
const char *nb_size_bin_name(unsigned int bin);

struct nb_result;
/* Every frame the ports took in, as the tool counted them. */
void nb_rxonly_totals(const struct nb_result *r, uint64_t *pkts,
		      uint64_t *bytes);

#endif /* NB_RXONLY_H */
