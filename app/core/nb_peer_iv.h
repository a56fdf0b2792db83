/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Peer-mode intervals (docs/protocol.md, INTERVAL): the responder cuts
 * each of its intervals into INTERVAL messages; the client gathers them
 * and joins each with its own interval of the same index into the rows a
 * direction shows: what the sending end sent, what the receiving end
 * received.  Pure: no DPDK, no I/O.
 */
#ifndef NB_PEER_IV_H
#define NB_PEER_IV_H

#include <stdint.h>

#include "nb_ctl.h"
#include "nb_result.h"

/*
 * Part `first` of interval iv (number `index`) as an INTERVAL body:
 * streams first .. first + NB_CTL_IV_STREAMS - 1 (fewer at the end).  A
 * warm-up interval is one part with sums only.  Returns the first stream
 * of the next part, or 0 when this part was the last.
 */
uint32_t nb_peer_iv_export(const struct nb_interval *iv, uint32_t index,
			   uint32_t first, struct nb_ctl_interval *out);

/* The client's store of the responder's intervals. */
struct nb_peer_ivs {
	uint32_t nb_streams;
	uint32_t complete;   /* intervals 0 .. complete - 1 are whole */
	uint32_t next_first; /* the part expected of interval complete */
	uint32_t cap;
	struct nb_interval *iv; /* [cap], the first `complete` whole */
	uint64_t refused;	/* parts out of order or not matching */
};

void nb_peer_ivs_init(struct nb_peer_ivs *s, uint32_t nb_streams);
void nb_peer_ivs_free(struct nb_peer_ivs *s);

/*
 * A part from the responder: 1 when it completed an interval, 0 when more
 * parts follow, -EPROTO (counted in refused, nothing kept) when it is not
 * the part expected next (another index, another first stream, another
 * stream count), -ENOMEM.
 */
int nb_peer_ivs_put(struct nb_peer_ivs *s, const struct nb_ctl_interval *v);

/*
 * The row of one direction for an interval: times and warm-up flag from
 * ours (local), the sent counts from the sending end, the received counts,
 * loss, reordering, jitter and latency from the receiving end; we_send
 * says which end is ours.  remote NULL (never came): its half is 0, and
 * nb_result_close_intervals() later moves what it missed into the last
 * interval.  out is allocated here (nb_interval_release()); 0 or -ENOMEM.
 */
int nb_peer_iv_merge(struct nb_interval *out, const struct nb_interval *local,
		     const struct nb_interval *remote, int we_send);

#endif /* NB_PEER_IV_H */
