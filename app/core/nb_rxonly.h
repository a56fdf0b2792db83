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

struct nb_result;
/* Every frame the ports took in, as the tool counted them. */
void nb_rxonly_totals(const struct nb_result *r, uint64_t *pkts,
		      uint64_t *bytes);

#endif /* NB_RXONLY_H */
