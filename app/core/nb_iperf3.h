/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The keys of iperf3 3.12's JSON (iperf3 -J) that the tool's own report
 * has no other use for, added to its documents so that scripts and
 * dashboards that parse iperf3 keep working: start.connected[],
 * connecting_to, cookie, the socket buffer sizes, target_bitrate and
 * tcp_mss_default; test_start.blocks and tos; end.cpu_utilization_percent;
 * UDP's loss keys in end.sum_sent; TCP's window, retransmission and
 * congestion keys.  What each holds where iperf3's meaning cannot apply
 * (there are no sockets; open-loop TCP frames have no window) is in
 * docs/usage.md, "iperf3's keys".  Pure: no DPDK.
 */
#ifndef NB_IPERF3_H
#define NB_IPERF3_H

#include <jansson.h>

struct nb_result;

/* To the start object and its test_start. */
void nb_iperf3_start(json_t *start, json_t *test_start,
		     const struct nb_result *r);

/* To one stream (sum 0) or the sum (sum 1) of an interval. */
void nb_iperf3_interval(json_t *part, const struct nb_result *r, int sum);

/* To the end object, after its streams and sums were written. */
void nb_iperf3_end(json_t *end, const struct nb_result *r);

#endif /* NB_IPERF3_H */
