/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Not a target of the project's code: a planted hang, so that
 * tests/fuzz/hang_test.sh can prove run_fuzz.sh still fails a run whose
 * input never finishes (its per-input bound is 25 s, long enough that a
 * busy host does not trip it).  An input that starts with "HANG" spins.
 */
#include "nb_fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	volatile unsigned long spins = 0;

	if (size >= 4 && memcmp(data, "HANG", 4) == 0)
		for (;;)
			spins++;
	return 0;
}
