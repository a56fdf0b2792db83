/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers shared by the libFuzzer targets (tests/fuzz/): a checked
 * assertion that aborts (so libFuzzer reports the input as a crash), an
 * exact-size copy of the input (so AddressSanitizer sees any read past its
 * end), and a byte reader that yields zeros once the input is used up.
 */
#ifndef NB_FUZZ_H
#define NB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Not assert(): the fuzz build may define NDEBUG. */
#define NB_FUZZ_CHECK(c)                                                       \
	do {                                                                   \
		if (!(c)) {                                                    \
			fprintf(stderr, "%s:%d: check failed: %s\n",           \
				__FILE__, __LINE__, #c);                       \
			abort();                                               \
		}                                                              \
	} while (0)

/* A malloc'd copy of exactly n bytes (never NULL, even for n == 0). */
static inline uint8_t *
nb_fuzz_dup(const uint8_t *d, size_t n)
{
	uint8_t *b = malloc(n ? n : 1);

	if (b == NULL)
		abort();
	if (n)
		memcpy(b, d, n);
	return b;
}

/* A malloc'd NUL-terminated copy of the n bytes at d. */
static inline char *
nb_fuzz_str(const uint8_t *d, size_t n)
{
	char *s = malloc(n + 1);

	if (s == NULL)
		abort();
	if (n)
		memcpy(s, d, n);
	s[n] = '\0';
	return s;
}

/* Consumes the input from the front; zeros past its end. */
struct nb_fuzz_in {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t
nb_fuzz_u8(struct nb_fuzz_in *in)
{
	if (in->n == 0)
		return 0;
	in->n--;
	return *in->p++;
}

static inline uint16_t
nb_fuzz_u16(struct nb_fuzz_in *in)
{
	uint16_t v = nb_fuzz_u8(in);

	return (uint16_t)((v << 8) | nb_fuzz_u8(in));
}

static inline uint32_t
nb_fuzz_u32(struct nb_fuzz_in *in)
{
	uint32_t v = nb_fuzz_u16(in);

	return (v << 16) | nb_fuzz_u16(in);
}

static inline uint64_t
nb_fuzz_u64(struct nb_fuzz_in *in)
{
	uint64_t v = nb_fuzz_u32(in);

	return (v << 32) | nb_fuzz_u32(in);
}

static inline void
nb_fuzz_bytes(struct nb_fuzz_in *in, uint8_t *dst, size_t k)
{
	size_t i;

	for (i = 0; i < k; i++)
		dst[i] = nb_fuzz_u8(in);
}

#endif /* NB_FUZZ_H */
