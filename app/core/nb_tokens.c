/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "nb_tokens.h"

#define UNITS 1000000000u /* per token */

void
nb_tokens_init(struct nb_tokens *t, uint64_t rate, uint64_t burst,
	       uint64_t now_ns)
{
	memset(t, 0, sizeof(*t));
	if (rate > NB_TOKENS_MAX_RATE)
		rate = NB_TOKENS_MAX_RATE;
	if (burst > NB_TOKENS_MAX_BURST)
		burst = NB_TOKENS_MAX_BURST;
	if (burst == 0)
		burst = 1;
	t->rate = rate;
	t->cap = burst * UNITS;
	t->units = t->cap;
	t->last_ns = now_ns;
}

int
nb_tokens_take(struct nb_tokens *t, uint64_t now_ns)
{
	uint64_t elapsed, full;

	if (t->rate == 0) {
		t->refused++;
		return 0;
	}
	/* a clock that went back refills nothing (and moves last back) */
	elapsed = now_ns > t->last_ns ? now_ns - t->last_ns : 0;
	t->last_ns = now_ns;
	/* ns to refill from empty: cap / rate, rounded up */
	full = (t->cap + t->rate - 1) / t->rate;
	if (elapsed >= full)
		t->units = t->cap;
	else if (elapsed * t->rate >= t->cap - t->units)
		t->units = t->cap;
	else
		t->units += elapsed * t->rate;
	if (t->units < UNITS) {
		t->refused++;
		return 0;
	}
	t->units -= UNITS;
	t->passed++;
	return 1;
}
