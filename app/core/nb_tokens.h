/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A token bucket: at most `rate` events per second on average, `burst` at
 * once.  Pure: the caller passes the time in ns (any monotonic clock).
 * Tokens are kept in units of 1/1e9 token (one token = 1e9 units), so a
 * refill of `elapsed` ns adds elapsed x rate units exactly; elapsed is
 * capped at the time a full refill takes, so nothing overflows.
 */
#ifndef NB_TOKENS_H
#define NB_TOKENS_H

#include <stdint.h>

#define NB_TOKENS_MAX_RATE  1000000000u /* per second */
#define NB_TOKENS_MAX_BURST 1000000u

struct nb_tokens {
	uint64_t rate;	 /* tokens per second */
	uint64_t cap;	 /* burst x 1e9 */
	uint64_t units;	 /* current tokens x 1e9 */
	uint64_t last_ns;
	uint64_t passed, refused; /* what nb_tokens_take said */
};

/*
 * Start full (a burst may go at once).  rate 0 refuses everything; rate and
 * burst are clamped to the maxima above, burst to at least 1.
 */
void nb_tokens_init(struct nb_tokens *t, uint64_t rate, uint64_t burst,
		    uint64_t now_ns);

/* 1 and one token taken if there is one at now_ns, else 0. */
int nb_tokens_take(struct nb_tokens *t, uint64_t now_ns);

#endif /* NB_TOKENS_H */
