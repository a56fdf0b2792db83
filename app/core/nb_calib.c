/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stddef.h>

#include "nb_calib.h"

const struct nb_calib_point *
nb_calib_best(const struct nb_calib_point *p, unsigned int n)
{
	const struct nb_calib_point *best = NULL;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (p[i].tsc_after < p[i].tsc_before)
			continue;
		if (best == NULL || p[i].tsc_after - p[i].tsc_before <
					    best->tsc_after - best->tsc_before)
			best = &p[i];
	}
	return best;
}

int
nb_calib_compute(const struct nb_calib_point *a, const struct nb_calib_point *b,
		 uint64_t ref_res_ns, struct nb_calib *out)
{
	/* the middles, doubled to stay in integers */
	unsigned __int128 ma2, mb2, ticks2, hz;
	uint64_t ns, err2;

	if (a->tsc_after < a->tsc_before || b->tsc_after < b->tsc_before ||
	    b->ref_ns <= a->ref_ns)
		return -EINVAL;
	ma2 = (unsigned __int128)a->tsc_before + a->tsc_after;
	mb2 = (unsigned __int128)b->tsc_before + b->tsc_after;
	if (mb2 <= ma2)
		return -EINVAL;
	ticks2 = mb2 - ma2;
	ns = b->ref_ns - a->ref_ns;
	/* hz = ticks * 1e9 / ns, rounded: ticks2 = 2 ticks */
	hz = (ticks2 * 1000000000u + ns) / (2 * (unsigned __int128)ns);
	if (hz == 0 || hz > UINT64_MAX)
		return -EINVAL;
	out->hz = (uint64_t)hz;
	out->span_s = ns / 1e9;
	/*
	 * Doubled error in ticks: each half bracket (doubled: the bracket),
	 * plus each end's reference resolution in ticks (doubled).
	 */
	err2 = (a->tsc_after - a->tsc_before) + (b->tsc_after - b->tsc_before);
	out->bound_ppm = ((double)err2 +
			  4.0 * (double)ref_res_ns * (double)out->hz / 1e9) /
			 (double)ticks2 * 1e6;
	return 0;
}

double
nb_calib_ppm_diff(uint64_t hz, uint64_t other)
{
	return ((double)other - (double)hz) / (double)hz * 1e6;
}
