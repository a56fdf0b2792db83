/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet pacing by absolute deadlines.  See nb_pacer.h.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nb_math.h"
#include "nb_pacer.h"

int
nb_pacer_init(struct nb_pacer *p, uint64_t hz, uint64_t pps_num,
	      uint64_t pps_den, uint64_t start)
{
	uint64_t h;

	if (p == NULL || hz == 0 || pps_den == 0)
		return -EINVAL;

	memset(p, 0, sizeof(*p));
	if (pps_num == 0) {
		/*
		 * Unlimited: a deadline of 0 that never advances is always
		 * due (even for now < start), so every call returns max.
		 */
		p->div = 1;
		return 0;
	}

	/*
	 * Packet interval in ticks is hz * den / num.  Put it in lowest terms
	 * first so that only a genuinely huge interval overflows.  The
	 * deadlines floor(k * a / b) do not depend on how a / b is written.
	 */
	nb_reduce_u64(&pps_num, &pps_den);
	nb_reduce_u64(&hz, &pps_num);
	if (hz > UINT64_MAX / pps_den)
		return -EINVAL;
	h = hz * pps_den;

	p->next = start;
	p->step = h / pps_num;
	p->rem_step = h % pps_num;
	p->div = pps_num;
	return 0;
}

int
nb_pacer_split(uint64_t pps_num, uint64_t pps_den, unsigned int nb_workers,
	       uint64_t *num_out, uint64_t *den_out)
{
	uint64_t n;

	if (num_out == NULL || den_out == NULL || nb_workers == 0 ||
	    pps_den == 0)
		return -EINVAL;

	if (pps_num == 0) {
		/* unlimited stays unlimited */
		*num_out = 0;
		*den_out = 1;
		return 0;
	}

	/* pps_num / (pps_den * nb_workers), in lowest terms */
	n = nb_workers;
	nb_reduce_u64(&pps_num, &pps_den);
	nb_reduce_u64(&pps_num, &n);
	if (pps_den > UINT64_MAX / n)
		return -EINVAL;
	*num_out = pps_num;
	*den_out = pps_den * n;
	return 0;
}

uint64_t
nb_split_count(uint64_t total, unsigned int n, unsigned int i)
{
	uint64_t share;

	if (n == 0 || i >= n)
		return 0;
	share = total / n;
	if (i < total % n)
		share++;
	return share;
}
