/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Interval lines in peer mode.  Each end's control lcore samples its own
 * counters at every --interval edge (nb_sampler, the stats lcore's clock,
 * on the agreed start).  The responder sends each interval to the client
 * as INTERVAL messages on the reliable link; the client joins them with
 * its own (app/core/nb_peer_iv.c) and writes the rows out as they
 * complete, holding back the test's last one until the end totals are
 * known, when every row is closed so that they add up to the totals
 * exactly (nb_result_close_intervals), as in loopback.
 */
#ifndef NB_PEER_IV_IO_H
#define NB_PEER_IV_IO_H

#include "nb_session.h"

/* After nb_peertest_arm(): start sampling (with --interval). */
void nb_peer_iv_io_start(struct nb_peer *pr);

/* Sample when an edge has passed (also as the test stops: the edge at
 * its end, if the loop did not get to it). */
void nb_peer_iv_io_sample(struct nb_peer *pr);

/* From the control loop: sample when an edge has passed; the responder
 * sends what it has (without waiting), the client writes out what is
 * whole. */
void nb_peer_iv_io_tick(struct nb_peer *pr);

/* Responder, before its results: send every interval still unsent. */
void nb_peer_iv_io_flush(struct nb_peer *pr);

/* Client: an INTERVAL part from the responder. */
void nb_peer_iv_io_put(struct nb_peer *pr, const struct nb_ctl_interval *v);

/*
 * Client, with the end results built: each direction's rows (fwd, rev;
 * NULL for a direction not tested) into its result, closed against its
 * totals, and the rows not yet written out written.
 */
void nb_peer_iv_io_finish(struct nb_peer *pr, struct nb_result *fwd,
			  struct nb_result *rev);

void nb_peer_iv_io_free(struct nb_peer *pr);

#endif /* NB_PEER_IV_IO_H */
