/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Clock offset between two hosts from request/response timestamps, as NTP
 * computes it (RFC 5905, 8): with t1 our send time, t2 the peer's receive
 * time, t3 its send time, t4 our receive time,
 *     offset = ((t2 - t1) + (t3 - t4)) / 2     (peer clock - ours)
 *     delay  = (t4 - t1) - (t3 - t2)
 * and the true offset lies within offset +- delay / 2.  The sample with the
 * smallest delay is kept: it has the tightest bound.  Pure.
 */
#ifndef NB_OFFSET_H
#define NB_OFFSET_H

#include <stdint.h>

struct nb_offset {
	int64_t offset_ns; /* peer clock minus ours */
	uint64_t bound_ns; /* |true - offset| <= bound */
	uint64_t delay_ns; /* round trip of the best sample */
	uint32_t samples;
};

static inline void
nb_offset_init(struct nb_offset *o)
{
	o->offset_ns = 0;
	o->bound_ns = UINT64_MAX;
	o->delay_ns = UINT64_MAX;
	o->samples = 0;
}

/* Returns 1 if the sample became the best one, 0 if kept, -1 if invalid. */
static inline int
nb_offset_sample(struct nb_offset *o, uint64_t t1, uint64_t t2, uint64_t t3,
		 uint64_t t4)
{
	uint64_t delay, sum;

	if (t4 < t1 || t3 < t2)
		return -1;
	/* the peer held it longer than our round trip: clocks jumped */
	delay = t4 - t1 >= t3 - t2 ? (t4 - t1) - (t3 - t2) : 0;
	o->samples++;
	/* a tie keeps the sample already chosen */
	if (delay >= o->delay_ns)
		return 0;
	o->delay_ns = delay;
	/* offset and delay have the same parity: an odd delay leaves half a
	 * ns of truncation in the offset, which rounding the bound up covers */
	o->bound_ns = delay / 2 + delay % 2;
	/* (t2 - t1) + (t3 - t4) modulo 2^64: no signed overflow, exact as
	 * long as the offset itself fits in 63 bits */
	sum = (t2 - t1) + (t3 - t4);
	o->offset_ns = (int64_t)sum / 2;
	return 1;
}

#endif /* NB_OFFSET_H */
