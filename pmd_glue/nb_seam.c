/* SPDX-License-Identifier: BSD-3-Clause */
#include <time.h>

#include <rte_cycles.h>

#include "nb_seam.h"

uint64_t
nb_glue_tsc(void)
{
	return rte_get_tsc_cycles();
}

uint64_t
nb_glue_tsc_hz(void)
{
	return rte_get_tsc_hz();
}

void
nb_glue_nap_us(unsigned int us)
{
	struct timespec ts = {us / 1000000, (long)(us % 1000000) * 1000L};

	nanosleep(&ts, NULL);
}
