/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The largest passing value of a pass/fail trial that passes up to some
 * unknown limit and fails above it: RFC 2889 5.7's address count (step
 * 1) and 5.8's learning rate (step: its precision).  Pure: asked for the
 * next value, told whether it passed.
 *
 * The first trial is at max: when it passes the search ends there (it
 * hit its ceiling: the limit is max or more).  Else a binary search
 * between what passed (lo, 0 at first) and what failed (hi), until hi -
 * lo <= step; the result is lo (0: nothing passed, not even the least
 * value tried).
 */
#ifndef NB_BISECT_H
#define NB_BISECT_H

#include <stdint.h>

struct nb_bisect {
	uint64_t max, step;
	uint64_t lo, hi; /* lo passed (0: none yet), hi failed (max + 1:
			  * none yet) */
	uint64_t cur;	 /* the value being tried (0: none) */
	uint32_t trials;
	int done;
	int ceiling; /* max passed: the limit is at least max */
};

/* 0, or -EINVAL when max or step is 0. */
int nb_bisect_init(struct nb_bisect *b, uint64_t max, uint64_t step);
/* 1 with the next value to try in *value, 0 when the search is over. */
int nb_bisect_next(struct nb_bisect *b, uint64_t *value);
/* The outcome of the value nb_bisect_next gave. */
void nb_bisect_report(struct nb_bisect *b, int pass);
/* The largest value that passed (0: none). */
static inline uint64_t
nb_bisect_result(const struct nb_bisect *b)
{
	return b->lo;
}

#endif /* NB_BISECT_H */
