/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Cycle counter to nanoseconds, converted once with a fixed-point multiplier.
 * Pure: the caller supplies the counter value and its frequency.
 */
#ifndef NB_CLOCK_H
#define NB_CLOCK_H

#include <stdint.h>
#include <time.h>

struct nb_clock {
	uint64_t epoch; /* counter value that is 0 ns */
	uint64_t hz;
	uint64_t mult; /* ns per tick << 32 */
};

static inline void
nb_clock_init(struct nb_clock *c, uint64_t hz, uint64_t epoch)
{
	c->epoch = epoch;
	c->hz = hz;
	c->mult = (uint64_t)((((unsigned __int128)1000000000u) << 32) / hz);
}

static inline uint64_t
nb_clock_ns(const struct nb_clock *c, uint64_t tsc)
{
	return (uint64_t)(((unsigned __int128)(tsc - c->epoch) * c->mult) >>
			  32);
}

static inline uint64_t
nb_clock_ticks(const struct nb_clock *c, double seconds)
{
	return (uint64_t)(seconds * (double)c->hz);
}

/* CLOCK_MONOTONIC in seconds: the control path's timeouts and ages. */
static inline double
nb_clock_mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif /* NB_CLOCK_H */
