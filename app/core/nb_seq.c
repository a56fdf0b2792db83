/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-stream sequence tracking at the receiver.  See nb_seq.h.
 *
 * The bitmap is circular: bit (s % NB_SEQ_WINDOW) stands for the one number
 * s in [next - NB_SEQ_WINDOW, next) with that residue.  Advancing next by
 * one or more reuses the bits of numbers that fall out of the window, so
 * those are cleared (at most NB_SEQ_WINDOW bits, word at a time).
 */
#include <string.h>

#include "nb_seq.h"

#define NB_SEQ_HALF  (UINT64_C(1) << (NB_SEQ_BITS - 1))
#define NB_SEQ_WMASK ((uint32_t)NB_SEQ_WINDOW - 1)

_Static_assert((NB_SEQ_WINDOW & (NB_SEQ_WINDOW - 1)) == 0 &&
		       NB_SEQ_WINDOW >= 64,
	       "NB_SEQ_WINDOW must be a power of two >= 64");

/* Clear n (0 < n < NB_SEQ_WINDOW) bits of the ring starting at bit pos. */
static inline void
nb_seq_clear_bits(uint64_t *bm, uint32_t pos, uint32_t n)
{
	while (n > 0) {
		uint32_t b = pos & 63;
		uint32_t take = 64 - b;
		uint64_t mask;

		if (take > n)
			take = n;
		mask = take == 64 ? UINT64_MAX
				  : ((UINT64_C(1) << take) - 1) << b;
		bm[pos >> 6] &= ~mask;
		n -= take;
		pos = (pos + take) & NB_SEQ_WMASK;
	}
}

void
nb_seq_init(struct nb_seq *t, uint64_t start)
{
	memset(t, 0, sizeof(*t));
	t->start = start & NB_SEQ_MASK;
	t->next = t->start;
}

int
nb_seq_update_u(struct nb_seq *t, uint64_t seq48, uint64_t *u)
{
	/* s - next as a 48-bit two's complement number. */
	uint64_t d = (seq48 - t->next) & NB_SEQ_MASK;
	uint32_t pos = (uint32_t)seq48 & NB_SEQ_WMASK;
	uint64_t *word = &t->bitmap[pos >> 6];
	uint64_t bit = UINT64_C(1) << (pos & 63);
	uint64_t back;

	t->received++;

	if (__builtin_expect(d == 0, 1)) {
		/* The expected one: reuse the bit of next - WINDOW. */
		*word |= bit;
		*u = t->next++;
		t->unique++;
		return 1;
	}

	if (d < NB_SEQ_HALF) {
		/* Ahead of next: d numbers skipped. */
		if (d >= NB_SEQ_WINDOW)
			memset(t->bitmap, 0, sizeof(t->bitmap));
		else
			nb_seq_clear_bits(t->bitmap,
					  (uint32_t)t->next & NB_SEQ_WMASK,
					  (uint32_t)d);
		*word |= bit;
		*u = t->next + d;
		t->next += d + 1;
		t->unique++;
		return 1;
	}

	/* Behind next by back (1..2^47); before start is never "seen". */
	back = (NB_SEQ_MASK + 1) - d;
	*u = t->next - back;
	if (back > NB_SEQ_WINDOW || back > t->next - t->start) {
		t->late++;
		return 0;
	}
	if (*word & bit) {
		t->duplicates++;
		return 0;
	}
	*word |= bit;
	t->unique++;
	t->out_of_order++;
	return 1;
}

void
nb_seq_update(struct nb_seq *t, uint64_t seq48)
{
	uint64_t u;

	(void)nb_seq_update_u(t, seq48, &u);
}

uint64_t
nb_seq_gap_lost(const struct nb_seq *t)
{
	uint64_t span = t->next - t->start;

	return span > t->unique ? span - t->unique : 0;
}
