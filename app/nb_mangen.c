/* SPDX-License-Identifier: BSD-3-Clause */
/* Build helper: print dpdk-nbench(1) from the option table. */
#include <stdio.h>

#include "nb_options.h"

int
main(void)
{
	nb_options_man(stdout);
	return fflush(stdout) == 0 ? 0 : 1;
}
