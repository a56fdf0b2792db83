/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The process's one TSC frequency.  DPDK's own estimate (rte_get_tsc_hz())
 * is rounded to 10 MHz on many hosts, 0.1-0.2 % off; every pacing deadline,
 * stamp, latency, jitter and rate here uses the frequency measured at
 * start-up against CLOCK_MONOTONIC_RAW instead (nb_calib).
 */
#ifndef NB_TSC_H
#define NB_TSC_H

#include "nb_result.h"

/* First reading, right after EAL init. */
void nb_tsc_begin(void);
/*
 * Second reading, at least NB_TSC_SPAN_S after the first (sleeping the
 * rest), and the frequency from the two; warns when the TSC is not
 * constant or DPDK's estimate is more than 100 ppm off.  Later calls do
 * nothing.
 */
#define NB_TSC_SPAN_S 0.25
void nb_tsc_finish(void);
/* The calibrated frequency (DPDK's until nb_tsc_finish() succeeded). */
uint64_t nb_tsc_hz(void);
/* What a report says about the clock. */
const struct nb_clock_info *nb_tsc_info(void);

#endif /* NB_TSC_H */
