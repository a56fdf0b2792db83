/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TSC's frequency, measured against a reference clock (the kernel's
 * CLOCK_MONOTONIC_RAW), with its error bound.  Pure: the caller reads the
 * clocks and hands the readings in.
 *
 * A reading brackets one reference read between two TSC reads; its TSC
 * value is the bracket's middle, good to half the bracket.  Two readings
 * span ticks and ns; hz = ticks * 1e9 / ns, and the bound is the two half
 * brackets plus the reference's resolution at each end, over the span.
 */
#ifndef NB_CALIB_H
#define NB_CALIB_H

#include <stdint.h>

struct nb_calib_point {
	uint64_t tsc_before; /* TSC just before the reference was read */
	uint64_t ref_ns;     /* the reference clock, ns */
	uint64_t tsc_after;  /* TSC just after */
};

struct nb_calib {
	uint64_t hz;	  /* ticks per second, rounded to nearest */
	double bound_ppm; /* |true - hz| / hz is at most this (1e-6) */
	double span_s;	  /* reference time between the two readings */
};

/* The reading with the narrowest bracket (the first of equals); NULL when
 * n is 0 or no reading has tsc_after >= tsc_before. */
const struct nb_calib_point *nb_calib_best(const struct nb_calib_point *p,
					   unsigned int n);

/*
 * The frequency from readings a and b, b later.  ref_res_ns is the
 * reference's resolution (1 for CLOCK_MONOTONIC_RAW).  -EINVAL when b is
 * not after a in both clocks, a bracket is inverted, or the result would
 * not fit.
 */
int nb_calib_compute(const struct nb_calib_point *a,
		     const struct nb_calib_point *b, uint64_t ref_res_ns,
		     struct nb_calib *out);

/* (other - hz) / hz in ppm. */
double nb_calib_ppm_diff(uint64_t hz, uint64_t other);

#endif /* NB_CALIB_H */
