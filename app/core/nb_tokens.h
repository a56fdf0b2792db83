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
	uint64_t rate;	/* tokens per second */
	uint64_t cap;	/* burst x 1e9 */
	uint64_t units; /* current tokens x 1e9 */
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

/*
 * A budget of units (bytes, or frames) at `rate` units per second, at most
 * `burst` ahead: the sender asks nb_budget_ok() before each frame and
 * spends the frame's units after it; the last frame may overdraw the
 * budget (the next waits until it is paid back), so over any long run the
 * units spent are the rate times the time, plus at most burst and one
 * frame.  Kept in units x 1e9 like the bucket above (exact refills); rate
 * at most NB_BUDGET_MAX_RATE, burst at most NB_BUDGET_MAX_BURST.
 */
#define NB_BUDGET_MAX_RATE  10000000000ull /* 80 Gbit/s of bytes */
#define NB_BUDGET_MAX_BURST 1000000ull

struct nb_budget {
	uint64_t rate; /* units per second; 0: no limit */
	int64_t units; /* x 1e9; below 0: overdrawn */
	int64_t cap;   /* burst x 1e9 */
	uint64_t last_ns;
	uint64_t held; /* nb_budget_ok() said no */
};

void nb_budget_init(struct nb_budget *b, uint64_t rate, uint64_t burst,
		    uint64_t now_ns);

/* 1 if a frame may go at now_ns (always, with no limit). */
int nb_budget_ok(struct nb_budget *b, uint64_t now_ns);

/* What the frame that went cost. */
static inline void
nb_budget_spend(struct nb_budget *b, uint32_t units)
{
	if (b->rate)
		b->units -= (int64_t)units * 1000000000;
}

#endif /* NB_TOKENS_H */
