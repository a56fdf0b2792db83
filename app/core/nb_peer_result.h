/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Peer mode: the results of a test measured at two ends.  Each end counts
 * what its own senders sent and its own receivers received; the responder
 * ships its counters to the client as a results blob (nb_ctl), and the
 * client combines them, per direction, into one report: the sending end's
 * sender counters with the receiving end's receiver counters.  Pure.
 */
#ifndef NB_PEER_RESULT_H
#define NB_PEER_RESULT_H

#include <stdint.h>

#include "nb_ctl.h"
#include "nb_result.h"

/*
 * This side's counters as a results blob's records: h (its pmd from
 * r->ports[0].pmd, seconds as ns) and s[0 .. r->nb_streams-1].  Seconds
 * and jitter are truncated to whole ns and ps (negative ones give 0).
 */
void nb_peer_result_export(const struct nb_result *r,
			   struct nb_ctl_results_hdr *h,
			   struct nb_ctl_stream_res *s);

/*
 * Start one direction's report: nb_result_init(out, own->cfg,
 * own->nb_streams), then tsc_hz, interrupted, req_pps, req_l1_bps,
 * req_l2_bps, lcore_map and start_time copied from own; topology "peer",
 * latency_method = method.  Returns nb_result_init()'s value.
 */
int nb_peer_result_side_init(struct nb_result *out, const struct nb_result *own,
			     const char *method);

/*
 * One direction of a peer test, into out (set up by
 * nb_peer_result_side_init()).  we_send says which end sent: our own
 * (own) or the responder (h, s[0 .. n-1]).  Per stream, for the first
 * min(n, out->nb_streams, own->nb_streams) streams (the others are left as
 * nb_result_init() made them):
 *   from the sender    tx_pkts, tx_bytes;
 *   from the receiver  rx_pkts, rx_unique, rx_bytes, out_of_order,
 *                      duplicates, late, jitter_ns, hist.
 * Header: tx_seconds and tx_dropped from the sender; rx_seconds,
 * rx_foreign, rx_warm, rx_bad_stream from the receiver; rx_seconds raised
 * to tx_seconds if below.  Our own end's seconds and jitter come out
 * exactly as own holds them (not rounded through the blob's ns and ps).
 * Ports: 2; ports[0] is own->ports[0]; ports[1] the responder's (port_id
 * own->cfg->port, name "responder", role "peer", pmd h->pmd, the rest 0).
 * Ends with nb_result_finish(out).
 */
void nb_peer_result_merge(struct nb_result *out, const struct nb_result *own,
			  const struct nb_ctl_results_hdr *h,
			  const struct nb_ctl_stream_res *s, uint32_t n,
			  int we_send);

/*
 * A mesh across hosts (own->cfg->mesh, NB_MESH_REMOTE the responder's
 * ports): each stream's sender counters from its pair's source's end,
 * its receiver counters from its destination's; the header's times the
 * longer end's, its drops and foreign frames both ends'; ports as
 * nb_peer_result_merge.  Ends with nb_result_finish(out).
 */
void nb_peer_result_mesh(struct nb_result *out, const struct nb_result *own,
			 const struct nb_ctl_results_hdr *h,
			 const struct nb_ctl_stream_res *s, uint32_t n);

#endif /* NB_PEER_RESULT_H */
