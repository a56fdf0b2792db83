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

void
nb_budget_init(struct nb_budget *b, uint64_t rate, uint64_t burst,
	       uint64_t now_ns)
{
	if (rate > NB_BUDGET_MAX_RATE)
		rate = NB_BUDGET_MAX_RATE;
	if (burst > NB_BUDGET_MAX_BURST)
		burst = NB_BUDGET_MAX_BURST;
	if (burst < 1)
		burst = 1;
	b->rate = rate;
	b->cap = (int64_t)burst * 1000000000;
	b->units = b->cap;
	b->last_ns = now_ns;
	b->held = 0;
}

int
nb_budget_ok(struct nb_budget *b, uint64_t now_ns)
{
	uint64_t elapsed;

	if (b->rate == 0)
		return 1;
	/* a clock that went back refills nothing */
	elapsed = now_ns > b->last_ns ? now_ns - b->last_ns : 0;
	b->last_ns = now_ns;
	/* from the deepest overdraft (a frame) to full takes under 1 s at
	 * any rate of at least 1; 1 s x NB_BUDGET_MAX_RATE x 1 fits */
	if (elapsed > 1000000000u)
		elapsed = 1000000000u;
	b->units += (int64_t)(elapsed * b->rate);
	if (b->units > b->cap)
		b->units = b->cap;
	if (b->units > 0)
		return 1;
	b->held++;
	return 0;
}
