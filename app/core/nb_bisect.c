/* SPDX-License-Identifier: BSD-3-Clause */
/* The largest passing value by bisection (nb_bisect.h).  Pure. */
#include <errno.h>
#include <string.h>

#include "nb_bisect.h"

int
nb_bisect_init(struct nb_bisect *b, uint64_t max, uint64_t step)
{
	memset(b, 0, sizeof(*b));
	if (max == 0 || step == 0 || max == UINT64_MAX)
		return -EINVAL;
	b->max = max;
	b->step = step;
	b->hi = max + 1;
	return 0;
}

int
nb_bisect_next(struct nb_bisect *b, uint64_t *value)
{
	if (b->done)
		return 0;
	if (b->cur == 0) {
		if (b->trials == 0)
			b->cur = b->max;
		else if (b->hi - b->lo > b->step && b->hi - b->lo > 1)
			b->cur = b->lo + (b->hi - b->lo) / 2;
		else
			b->done = 1;
	}
	if (b->done)
		return 0;
	*value = b->cur;
	return 1;
}

void
nb_bisect_report(struct nb_bisect *b, int pass)
{
	if (b->done || b->cur == 0)
		return;
	b->trials++;
	if (pass)
		b->lo = b->cur;
	else
		b->hi = b->cur;
	if (pass && b->cur == b->max) {
		b->ceiling = 1;
		b->done = 1;
	}
	b->cur = 0;
}
