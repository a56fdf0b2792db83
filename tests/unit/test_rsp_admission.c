/* SPDX-License-Identifier: BSD-3-Clause */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "nb_fake_port.h"
#include "nb_policy.h"
void __wrap_nb_rsp_report_refusals(const struct nb_refusals *r);
void
__wrap_nb_rsp_report_refusals(const struct nb_refusals *r)
{
	(void)r;
}
int
main(void)
{
	return 0;
}
