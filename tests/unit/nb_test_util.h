/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the unit tests: a deterministic PRNG, byte access. */
#ifndef NB_TEST_UTIL_H
#define NB_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* splitmix64: deterministic PRNG */
static inline uint64_t
rng_next(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform enough in [0, n) for tests (n > 0). */
static inline uint64_t
rng_below(uint64_t *s, uint64_t n)
{
	return rng_next(s) % n;
}

static inline uint16_t
rd16(const uint8_t *p)
{
	return (uint16_t)(((unsigned int)p[0] << 8) | p[1]);
}

static inline uint32_t
rd32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | p[3];
}

static inline void
wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)(v & 0xff);
}

/*
 * Reference RFC 1071 sum, written independently of the code under test:
 * add big-endian 16-bit words (an odd last byte is padded with a zero
 * byte) in 64 bits, then fold the carries back in.  Returns the folded
 * one's-complement sum (not complemented).
 */
static inline uint16_t
ref_sum(const uint8_t *data, size_t len, uint64_t acc)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		acc += ((uint64_t)data[i] << 8) + data[i + 1];
	if (len & 1)
		acc += (uint64_t)data[len - 1] << 8;
	while (acc > 0xffff)
		acc = (acc & 0xffff) + (acc >> 16);
	return (uint16_t)acc;
}

#endif /* NB_TEST_UTIL_H */
