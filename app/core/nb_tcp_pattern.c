/* SPDX-License-Identifier: BSD-3-Clause */
/* The stream's bytes and their checksum shares (see nb_tcp.h).  Pure. */
#include "nb_tcp.h"

uint8_t nb_tcp_pattern[NB_TCP_PATTERN_SPAN];
static int pattern_ready;
/* Prefix sums mod 65535 of the pattern, to checksum a payload in O(1):
 * even[i] of bytes j < i taken as big-endian words from an even j (byte j
 * high when j is even), all[i] of the bytes themselves. */
static uint16_t sum_even[NB_TCP_PATTERN_SPAN + 1];
static uint16_t sum_all[NB_TCP_PATTERN_SPAN + 1];

void
nb_tcp_pattern_init(void)
{
	/* Written once before any worker runs; read-only after. */
	uint8_t *p = nb_tcp_pattern;
	uint32_t x = 1;
	uint32_t i;

	if (pattern_ready)
		return;
	/* docs/protocol.md: x = x * 1664525 + 1013904223, byte = x >> 24 */
	for (i = 0; i < NB_TCP_PATTERN_PERIOD; i++) {
		x = x * 1664525u + 1013904223u;
		p[i] = (uint8_t)(x >> 24);
	}
	for (; i < NB_TCP_PATTERN_SPAN; i++)
		p[i] = p[i - NB_TCP_PATTERN_PERIOD];
	sum_even[0] = sum_all[0] = 0;
	for (i = 0; i < NB_TCP_PATTERN_SPAN; i++) {
		uint32_t w = i % 2 ? p[i] : (uint32_t)p[i] << 8;

		sum_even[i + 1] = (uint16_t)((sum_even[i] + w) % 65535u);
		sum_all[i + 1] = (uint16_t)((sum_all[i] + p[i]) % 65535u);
	}
	pattern_ready = 1;
}

/* x - y mod 65535, both below 65535: no division on the hot path */
static inline uint32_t
sub65535(uint32_t x, uint32_t y)
{
	return x >= y ? x - y : x + 65535u - y;
}

uint32_t
nb_tcp_pattern_sum(uint64_t k, uint32_t len)
{
	uint32_t a = (uint32_t)(k % NB_TCP_PATTERN_PERIOD), b = a + len;
	uint32_t e = sub65535(sum_even[b], sum_even[a]);
	uint32_t t;

	if (a % 2 == 0)
		return e;
	/* from an odd start the roles swap: odd-placed bytes are high,
	 * i.e. 257 x (every byte) - (the even-start sum); 65536 is 1 mod
	 * 65535, so one fold and one subtraction reduce 257 x t */
	t = 257u * sub65535(sum_all[b], sum_all[a]);
	t = (t & 0xffffu) + (t >> 16);
	if (t >= 65535u)
		t -= 65535u;
	return sub65535(t, e);
}
