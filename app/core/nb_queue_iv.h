/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-queue figures per interval: each port with more than one queue gets
 * a row per queue in every interval (what the tool's jobs on that queue
 * sent and received), so RSS balance can be watched over a test, not only
 * at its end.  The rows of all intervals add up to the end's queue rows
 * (nb_queue_iv_close folds what came after the last tick into the last
 * interval, as nb_result_close_intervals does for the streams).  Pure.
 */
#ifndef NB_QUEUE_IV_H
#define NB_QUEUE_IV_H

#include "nb_result.h"

/* Deep copy of src's queue rows into dst (dst->queues owned by it). */
int nb_queue_iv_copy(struct nb_interval *dst, const struct nb_interval *src);
void nb_queue_iv_release(struct nb_interval *iv);

/* Every (port, queue) of the result's ports with more than one queue:
 * the end's totals minus the intervals' sums, added to the last. */
void nb_queue_iv_close(struct nb_result *r, struct nb_interval *last);

/* The rows as JSON (intervals[].queues[]), with each queue's share of
 * its port's frames in the interval and its rates. */
struct json_t;
struct json_t *nb_queue_iv_json(const struct nb_interval *iv);

/* The frames a port's queue rows in iv add up to, each way. */
void nb_queue_iv_port_sums(const struct nb_interval *iv, uint16_t port,
			   uint64_t *tx, uint64_t *rx);
/* a as a percentage of b (0 when b is) */
double nb_queue_iv_share(uint64_t a, uint64_t b);

#endif /* NB_QUEUE_IV_H */
