/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for the port settings (app/core/nb_portset.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "nb_portset.h"

static void
test_flow_control(void **state)
{
	static const char *const ok[] = {"off", "on", "rx", "tx"};
	static const enum nb_fc_mode want[] = {NB_FC_OFF, NB_FC_ON, NB_FC_RX,
					       NB_FC_TX};
	enum nb_fc_mode m;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		assert_int_equal(nb_fc_parse(ok[i], &m), 0);
		assert_int_equal(m, want[i]);
		assert_string_equal(nb_fc_name(m), ok[i]);
	}
	/* the default and the read-back state are no values to give */
	assert_int_not_equal(nb_fc_parse("keep", &m), 0);
	assert_int_not_equal(nb_fc_parse("unsupported", &m), 0);
	assert_int_not_equal(nb_fc_parse("ON", &m), 0);
	assert_string_equal(nb_fc_name(NB_FC_KEEP), "keep");
	assert_string_equal(nb_fc_name(NB_FC_UNSUPPORTED), "unsupported");
}

static void
test_speed(void **state)
{
	uint32_t v;

	(void)state;
	assert_int_equal(nb_speed_parse("10G", &v), 0);
	assert_int_equal(v, 10000);
	assert_int_equal(nb_speed_parse("2.5G", &v), 0);
	assert_int_equal(v, 2500);
	assert_int_equal(nb_speed_parse("100M", &v), 0);
	assert_int_equal(v, 100);
	assert_int_equal(nb_speed_parse("200G", &v), 0);
	assert_int_equal(v, 200000);
	v = 7;
	assert_int_equal(nb_speed_parse("auto", &v), 0);
	assert_int_equal(v, 0);
	assert_int_not_equal(nb_speed_parse("10g", &v), 0);
	assert_int_not_equal(nb_speed_parse("10000", &v), 0);
	assert_int_not_equal(nb_speed_parse("3G", &v), 0);
	assert_int_not_equal(nb_speed_parse("", &v), 0);
}

static void
test_mtu(void **state)
{
	uint32_t v;
	char err[160];

	(void)state;
	assert_int_equal(nb_mtu_parse("68", &v), 0);
	assert_int_equal(v, 68);
	assert_int_equal(nb_mtu_parse("9600", &v), 0);
	assert_int_not_equal(nb_mtu_parse("67", &v), 0);
	assert_int_not_equal(nb_mtu_parse("9601", &v), 0);
	assert_int_not_equal(nb_mtu_parse("+1500", &v), 0);
	assert_int_not_equal(nb_mtu_parse("1500 ", &v), 0);
	assert_int_not_equal(nb_mtu_parse("99999999999999999999", &v), 0);
	/* none given: what the frames need, 1500 at least */
	assert_int_equal(nb_mtu_for(0, 64, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 1500);
	assert_int_equal(nb_mtu_for(0, 1518, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 1500);
	assert_int_equal(nb_mtu_for(0, 9018, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 9000);
	/* given: at least what the largest frame needs (frame - 18) */
	assert_int_equal(nb_mtu_for(9000, 1518, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 9000);
	assert_int_equal(nb_mtu_for(1500, 1518, &v, err, sizeof(err)), 0);
	assert_int_equal(nb_mtu_for(1499, 1518, &v, err, sizeof(err)), -1);
	assert_string_equal(err, "--mtu 1499 is too small for the test's "
				 "1518 B frames (they need MTU 1500)");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flow_control),
		cmocka_unit_test(test_speed),
		cmocka_unit_test(test_mtu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
