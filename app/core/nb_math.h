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

#endif /* NB_MATH_H */
