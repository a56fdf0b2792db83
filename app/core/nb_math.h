/* SPDX-License-Identifier: BSD-3-Clause */
/* Small integer helpers shared by the pure modules. */
#ifndef NB_MATH_H
#define NB_MATH_H

#include <stdint.h>

/* Greatest common divisor; nb_gcd_u64(x, 0) == x. */
static inline uint64_t
nb_gcd_u64(uint64_t a, uint64_t b)
{
	while (b != 0) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Divide a and b by their greatest common divisor (not both 0). */
static inline void
nb_reduce_u64(uint64_t *a, uint64_t *b)
{
	uint64_t g = nb_gcd_u64(*a, *b);

	*a /= g;
	*b /= g;
}

/* v in whole units of 1/scale (seconds to ns: 1e9), truncated; 0 for
 * v <= 0.  The wire carries times and jitter so. */
static inline uint64_t
nb_to_units(double v, double scale)
{
	return v > 0 ? (uint64_t)(v * scale) : 0;
}

#endif /* NB_MATH_H */
