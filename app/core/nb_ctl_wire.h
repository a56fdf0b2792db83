/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control protocol's field readers and writers: big-endian integers,
 * bytes, NUL-padded strings and tables of u64 fields, each moving a cursor.
 * Shared by the codec (nb_ctl.c), the message bodies (nb_ctl_msgs.c,
 * nb_ctl_setup.c) and the results blobs (nb_ctl_results.c).  The callers
 * check lengths once, before any byte moves, so these check none.
 */
#ifndef NB_CTL_WIRE_H
#define NB_CTL_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nb_ctl.h"
#include "nb_frame.h"

/* Sequential big-endian writers; the caller has checked the length. */
static inline void
wr_u8(uint8_t **p, uint8_t v)
{
	**p = v;
	*p += 1;
}

static inline void
wr_u16(uint8_t **p, uint16_t v)
{
	nb_put_be16(*p, v);
	*p += 2;
}

static inline void
wr_u32(uint8_t **p, uint32_t v)
{
	nb_put_be32(*p, v);
	*p += 4;
}

static inline void
wr_u64(uint8_t **p, uint64_t v)
{
	nb_put_be32(*p, (uint32_t)(v >> 32));
	nb_put_be32(*p + 4, (uint32_t)v);
	*p += 8;
}

static inline void
wr_bytes(uint8_t **p, const void *src, size_t n)
{
	memcpy(*p, src, n);
	*p += n;
}

/* The text up to its NUL, then NUL padding (s holds a NUL: checked). */
static inline void
wr_str(uint8_t **p, const char *s, size_t n)
{
	size_t k = strnlen(s, n);

	memcpy(*p, s, k);
	memset(*p + k, 0, n - k);
	*p += n;
}

static inline uint8_t
rd_u8(const uint8_t **p)
{
	uint8_t v = **p;

	*p += 1;
	return v;
}

static inline uint16_t
rd_u16(const uint8_t **p)
{
	uint16_t v = nb_get_be16(*p);

	*p += 2;
	return v;
}

static inline uint32_t
rd_u32(const uint8_t **p)
{
	uint32_t v = nb_get_be32(*p);

	*p += 4;
	return v;
}

static inline uint64_t
rd_u64(const uint8_t **p)
{
	uint64_t v = ((uint64_t)nb_get_be32(*p) << 32) | nb_get_be32(*p + 4);

	*p += 8;
	return v;
}

static inline void
rd_bytes(const uint8_t **p, void *dst, size_t n)
{
	memcpy(dst, *p, n);
	*p += n;
}

/*
 * Copy a string field; returns 1 if it is canonical (a NUL, and only NULs
 * after it), 0 otherwise.
 */
static inline int
rd_str(const uint8_t **p, char *dst, size_t n)
{
	const uint8_t *s = *p;
	const uint8_t *nul = memchr(s, 0, n);
	size_t i;

	memcpy(dst, s, n);
	*p += n;
	if (nul == NULL)
		return 0;
	for (i = (size_t)(nul - s) + 1; i < n; i++)
		if (s[i] != 0)
			return 0;
	return 1;
}

static inline int
has_nul(const char *s, size_t n)
{
	return memchr(s, 0, n) != NULL;
}

#define NB_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Write the uint64_t fields of obj at the offsets off[0..n-1]. */
static inline void
wr_u64_fields(uint8_t **p, const void *obj, const uint16_t *off, size_t n)
{
	uint64_t v;
	size_t i;

	for (i = 0; i < n; i++) {
		memcpy(&v, (const uint8_t *)obj + off[i], sizeof(v));
		wr_u64(p, v);
	}
}

/* Read them back; 1 if any was not zero. */
static inline int
rd_u64_fields(const uint8_t **p, void *obj, const uint16_t *off, size_t n)
{
	uint64_t v;
	size_t i;
	int nonzero = 0;

	for (i = 0; i < n; i++) {
		v = rd_u64(p);
		nonzero |= v != 0;
		memcpy((uint8_t *)obj + off[i], &v, sizeof(v));
	}
	return nonzero;
}

/* An authentication proof: the client's nonce, then the cookie. */
static inline void
nb_ctl_wr_proof(uint8_t **p, const struct nb_ctl_proof *q)
{
	wr_bytes(p, q->client_nonce, sizeof(q->client_nonce));
	wr_bytes(p, q->cookie, sizeof(q->cookie));
}

static inline void
nb_ctl_rd_proof(const uint8_t **p, struct nb_ctl_proof *q)
{
	rd_bytes(p, q->client_nonce, sizeof(q->client_nonce));
	rd_bytes(p, q->cookie, sizeof(q->cookie));
}

#endif /* NB_CTL_WIRE_H */
