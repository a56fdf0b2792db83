/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the output and interval-closing tests share: a three-stream result
 * with two intervals recorded and end totals a little above their sums.
 */
#ifndef OUT_FIXTURES_H
#define OUT_FIXTURES_H

#include "nb_options.h"
#include "nb_result.h"

#define NS 3 /* streams */

struct fx {
	struct nb_config cfg;
	struct nb_result r;
};

/* intervals_reach_end: the second interval ends where the test did. */
void setup_fx(struct fx *fx, int intervals_reach_end);

#endif /* OUT_FIXTURES_H */
