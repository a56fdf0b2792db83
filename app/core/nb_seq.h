/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-stream sequence tracking at the receiver: loss, reorder, duplicates,
 * exactly within a bounded window.  Pure.
 *
 * Sequence numbers on the wire are 48 bits and start at `start` (0 for a
 * fresh stream).  The tracker keeps a 64-bit unwrapped "next expected"
 * (highest seen + 1) and a bitmap of the last NB_SEQ_WINDOW sequence numbers
 * below it.  For a frame with (unwrapped) sequence s:
 *   s >= next                 : in order; s - next numbers skipped (a gap)
 *   next - WINDOW <= s < next : if its bit is set, a duplicate; otherwise
 *                               a late (out-of-order) frame that fills a gap
 *   s < next - WINDOW         : too late to classify: counted in `late`
 *                               (neither unique nor duplicate)
 * The unwrapped s is the value nearest to next that matches the 48 low bits
 * (a signed 48-bit difference), so wrap at 2^48 is seamless.
 *
 * unique counts distinct sequence numbers seen (within the window rule);
 * gap_lost = next - start - unique is the receiver's own view of loss (the
 * authoritative loss is the sender's count minus `unique`).
 */
#ifndef NB_SEQ_H
#define NB_SEQ_H

#include <stdint.h>

#define NB_SEQ_BITS   48
#define NB_SEQ_MASK   ((UINT64_C(1) << NB_SEQ_BITS) - 1)
#define NB_SEQ_WINDOW 1024 /* power of two */

struct nb_seq {
	uint64_t start;	       /* first expected (unwrapped) */
	uint64_t next;	       /* highest seen + 1, unwrapped */
	uint64_t received;     /* every frame of the stream */
	uint64_t unique;       /* distinct sequence numbers */
	uint64_t out_of_order; /* arrived after a higher number, filled a gap */
	uint64_t duplicates;
	uint64_t late;			     /* older than the window */
	uint64_t bitmap[NB_SEQ_WINDOW / 64]; /* bit (s % WINDOW) set = seen */
};

void nb_seq_init(struct nb_seq *t, uint64_t start);

/* Record one frame's 48-bit wire sequence number. */
void nb_seq_update(struct nb_seq *t, uint64_t seq48);

/* The same; *u is the number unwrapped (what seq48 stands for), and 1 is
 * returned when it was new (counted in unique). */
int nb_seq_update_u(struct nb_seq *t, uint64_t seq48, uint64_t *u);

/* nb_seq_update_u with its common case, the expected number, inline. */
static inline int
nb_seq_update_in(struct nb_seq *t, uint64_t seq48, uint64_t *u)
{
	if (__builtin_expect(((seq48 - t->next) & NB_SEQ_MASK) == 0, 1)) {
		uint32_t pos = (uint32_t)seq48 & (NB_SEQ_WINDOW - 1);

		t->bitmap[pos >> 6] |= UINT64_C(1) << (pos & 63);
		t->received++;
		t->unique++;
		*u = t->next++;
		return 1;
	}
	return nb_seq_update_u(t, seq48, u);
}

/* next - start - unique (never negative). */
uint64_t nb_seq_gap_lost(const struct nb_seq *t);

#endif /* NB_SEQ_H */
