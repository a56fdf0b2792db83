/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for the tester's own disturbance (app/core/nb_tester.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "nb_tester.h"

/* A 2 s test: a sender on cpu 1 and a receiver on cpu 0, both quiet. */
static void
quiet(struct nb_tester *t)
{
	memset(t, 0, sizeof(*t));
	t->wall_s = 2.0;
	t->n = 2;
	t->w[0] = (struct nb_tester_worker){.lcore = 3,
					    .cpu = 1,
					    .role = "tx p0/q0",
					    .run_ns = 1999000000,
					    .wait_ns = 100000,
					    .steal_ns = 0,
					    .stall_ns = 50000,
					    .max_gap_ns = 30000,
					    .have_sched = 1};
	t->w[1] = (struct nb_tester_worker){.lcore = 2,
					    .cpu = 0,
					    .role = "rx p1/q0",
					    .rx = 1,
					    .run_ns = 1990000000,
					    .wait_ns = 19 * 1000000,
					    .steal_ns = UINT64_MAX,
					    .stall_ns = 19500000,
					    .max_gap_ns = 900000,
					    .have_sched = 1};
}

static char *
text(const struct nb_tester *t, const struct nb_tester_verdict *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	nb_tester_text(f, t, v);
	fclose(f);
	return buf;
}

/* Under 1 % of the test off the CPU and in stalls: not disturbed. */
static void
test_quiet(void **state)
{
	struct nb_tester t;
	struct nb_tester_verdict v;
	char *s;
	json_t *j;

	(void)state;
	quiet(&t);
	nb_tester_judge(&t, 5000, 900000, &v);
	assert_false(v.disturbed);
	assert_false(v.rx_affected);
	/* the worst is the receiver: 19.5 ms of 2 s */
	assert_int_equal(v.worst, 1);
	assert_true(v.worst_share > 0.00974 && v.worst_share < 0.00976);
	s = text(&t, &v);
	assert_non_null(strstr(s, "tester: lcore 2 (rx p1/q0, cpu 0): on "
				  "CPU 99.05 % while runnable (off 19.000 "
				  "ms), longest poll gap 900.0 us, stalled "
				  "19.500 ms\n"));
	assert_non_null(strstr(s, "tester: lcore 3 (tx p0/q0, cpu 1): on "
				  "CPU 99.99 % while runnable (off 0.100 ms), "
				  "steal 0.000 ms,"));
	assert_null(strstr(s, "WARNING"));
	assert_null(strstr(s, "not measured"));
	free(s);
	j = nb_tester_json(&t, &v);
	assert_false(json_is_true(json_object_get(j, "disturbed")));
	assert_int_equal(json_integer_value(json_object_get(j, "not_measured")),
			 0);
	assert_int_equal(json_array_size(json_object_get(j, "workers")), 2);
	assert_true(json_is_null(json_object_get(
		json_array_get(json_object_get(j, "workers"), 1), "steal_ns")));
	json_decref(j);
}

/* More busy workers than are measured: said, in text and JSON. */
static void
test_not_measured(void **state)
{
	struct nb_tester t;
	struct nb_tester_verdict v;
	char *s;
	json_t *j;

	(void)state;
	quiet(&t);
	t.not_measured = 3;
	nb_tester_judge(&t, 5000, 900000, &v);
	s = text(&t, &v);
	assert_non_null(strstr(s, "tester: 3 more workers not measured (the "
				  "first 16 are)\n"));
	free(s);
	j = nb_tester_json(&t, &v);
	assert_int_equal(json_integer_value(json_object_get(j, "not_measured")),
			 3);
	json_decref(j);
}

/* A hog on the receiver's CPU for half a second: its latency tail. */
static void
test_receiver_off_cpu(void **state)
{
	struct nb_tester t;
	struct nb_tester_verdict v;
	char *s;
	json_t *j;

	(void)state;
	quiet(&t);
	t.w[1].wait_ns = 500 * 1000000ull;
	t.w[1].stall_ns = 480 * 1000000ull;
	t.w[1].max_gap_ns = 4000000;
	/* a max within the longest gap + p99: the tester's */
	nb_tester_judge(&t, 3000000, 4002000, &v);
	assert_true(v.disturbed);
	assert_true(v.rx_affected);
	assert_int_equal(v.worst, 1);
	assert_non_null(strstr(v.why, "worker lcore 2 (rx p1/q0, cpu 0) was "
				      "off its CPU 500.0 ms and stalled 480.0 "
				      "ms (25.0 % of 2.00 s; longest poll gap "
				      "4000.0 us)"));
	assert_non_null(strstr(v.why, "the latency tail is the tester's own"));
	s = text(&t, &v);
	assert_non_null(strstr(s, "WARNING: the tester was disturbed: "));
	free(s);
	j = nb_tester_json(&t, &v);
	assert_true(json_is_true(json_object_get(j, "disturbed")));
	assert_true(json_is_true(json_object_get(j, "latency_affected")));
	json_decref(j);
	/* a max far beyond the gaps: only maybe */
	nb_tester_judge(&t, 3000000, 90000000, &v);
	assert_non_null(strstr(v.why, "latency above the p75 may be"));
}

/* Only the sender disturbed, by steal time: disturbed, latency not. */
static void
test_sender_steal(void **state)
{
	struct nb_tester t;
	struct nb_tester_verdict v;

	(void)state;
	quiet(&t);
	t.w[0].steal_ns = 40 * 1000000ull;
	nb_tester_judge(&t, 5000, 900000, &v);
	assert_true(v.disturbed);
	assert_false(v.rx_affected);
	assert_int_equal(v.worst, 0);
	assert_non_null(strstr(v.why, "off its CPU 40.1 ms"));
	assert_null(strstr(v.why, "latency"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quiet),
		cmocka_unit_test(test_not_measured),
		cmocka_unit_test(test_receiver_off_cpu),
		cmocka_unit_test(test_sender_steal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
