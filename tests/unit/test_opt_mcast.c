/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A loopback test to a multicast group or a broadcast MAC (nb_mcast.h):
 * which tests fan out, which ports join, the checks of --join and
 * --igmp, and each receiving port's verdict in text and JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_mcast.h"
#include "nb_options.h"
#include "nb_result.h"

#include "opt_fixtures.h"

#define LOOP3 "--tx-port", "0", "--rx-port", "1,2,3"

static void
test_fanout_and_joins(void **state)
{
	struct nb_config cfg;
	struct nb_ip g;
	char err[ERRLEN];

	(void)state;
	assert_int_equal(CHECK_CFG(&cfg, err, LOOP3, "--dst-ip", "239.1.1.1",
				   "--join", "1,3"),
			 0);
	assert_int_equal(nb_mcast_fanout(&cfg, &g), NB_FANOUT_GROUP);
	assert_int_equal(g.family, 4);
	assert_memory_equal(g.a, ((uint8_t[]){239, 1, 1, 1}), 4);
	assert_true(nb_mcast_joins(&cfg, 1));
	assert_false(nb_mcast_joins(&cfg, 2));
	assert_true(nb_mcast_joins(&cfg, 3));
	assert_int_equal(cfg.igmp_version, 3);

	/* the default: every receiving port joins */
	assert_int_equal(CHECK_CFG(&cfg, err, LOOP3, "--dst-ip", "ff0e::1"), 0);
	assert_int_equal(nb_mcast_fanout(&cfg, &g), NB_FANOUT_GROUP);
	assert_int_equal(g.family, 6);
	assert_true(nb_mcast_joins(&cfg, 1) && nb_mcast_joins(&cfg, 2) &&
		    nb_mcast_joins(&cfg, 3));

	assert_int_equal(CHECK_CFG(&cfg, err, LOOP3, "--dst-ip", "239.1.1.1",
				   "--join", "none"),
			 0);
	assert_false(nb_mcast_joins(&cfg, 1));

	/* broadcast: fans out, nobody joins */
	assert_int_equal(
		CHECK_CFG(&cfg, err, LOOP3, "--dst-mac", "ff:ff:ff:ff:ff:ff"),
		0);
	assert_int_equal(nb_mcast_fanout(&cfg, NULL), NB_FANOUT_MAC);
	assert_false(nb_mcast_joins(&cfg, 1));

	/* a reflector's port sends and receives: no fan-out, no join */
	assert_int_equal(CHECK_CFG(&cfg, err, "--peer", "02:00:00:00:00:01",
				   "--reflector", "--dst-ip", "239.1.1.1"),
			 0);
	assert_int_equal(nb_mcast_fanout(&cfg, NULL), 0);
	assert_false(nb_mcast_joins(&cfg, cfg.port));

	/* unicast: no fan-out, pairs as before */
	assert_int_equal(
		CHECK_CFG(&cfg, err, "--tx-port", "0", "--rx-port", "1"), 0);
	assert_int_equal(nb_mcast_fanout(&cfg, NULL), 0);
}

static void
test_refused(void **state)
{
	static const struct {
		const char *toks[10];
		const char *why;
	} cases[] = {
		{{LOOP3, NULL}, "must list the same number of ports"},
		{{LOOP3, "--dst-ip", "198.19.0.1", NULL},
		 "must list the same number"},
		{{"--tx-port", "0,1", "--rx-port", "2,3,4", "--dst-ip",
		  "239.1.1.1", NULL},
		 "must list the same number"},
		{{"--tx-port", "0", "--rx-port", "1", "--join", "1", NULL},
		 "--join goes with a multicast"},
		{{LOOP3, "--dst-mac", "ff:ff:ff:ff:ff:ff", "--igmp", "2", NULL},
		 "--igmp goes with a multicast --dst-ip"},
		{{LOOP3, "--dst-ip", "ff0e::1", "--igmp", "2", NULL},
		 "joined with MLDv2"},
		{{LOOP3, "--dst-ip", "239.1.1.1", "--join", "1,4", NULL},
		 "port 4 is no --rx-port"},
		{{"--peer", "02:00:00:00:00:01", "--join", "1", NULL},
		 "--join is for a loopback test"},
	};
	char err[ERRLEN];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		assert_int_not_equal(check(cases[i].toks, err), 0);
		if (strstr(err, cases[i].why) == NULL)
			fail_msg("case %zu: '%s' not in '%s'", i, cases[i].why,
				 err);
	}
}

static void
test_verdicts(void **state)
{
	static const struct {
		int fanout, joined;
		uint64_t sent, unique;
		const char *want;
	} cases[] = {
		{NB_FANOUT_GROUP, 1, 100, 100,
		 "joined, received 100 of 100: forwarded"},
		{NB_FANOUT_GROUP, 1, 100, 0,
		 "joined, received 0: the group was not forwarded"},
		{NB_FANOUT_GROUP, 1, 100, 97,
		 "joined, received 97 of 100: frames missing"},
		{NB_FANOUT_GROUP, 0, 100, 100,
		 "not joined, received 100: flooded"},
		{NB_FANOUT_GROUP, 0, 100, 0,
		 "not joined, received 0: not forwarded"},
		{NB_FANOUT_MAC, 0, 100, 100, "received 100 of 100"},
		{NB_FANOUT_MAC, 0, 100, 3, "received 3 of 100: frames missing"},
	};
	char buf[160];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		nb_mcast_verdict(buf, sizeof(buf), cases[i].fanout,
				 cases[i].joined, cases[i].sent,
				 cases[i].unique);
		assert_string_equal(buf, cases[i].want);
	}
}

/* Two receivers, one joined and one not, in text and JSON. */
static void
test_report(void **state)
{
	struct nb_result *r = calloc(1, sizeof(*r));
	char *text = NULL;
	size_t len = 0;
	json_t *a, *p;
	FILE *f;

	(void)state;
	assert_non_null(r);
	assert_null(nb_json_rxports(r)); /* no fan-out: nothing */
	r->fanout = NB_FANOUT_GROUP;
	r->rx_sent = 1000;
	r->nb_rxports = 2;
	r->rxports[0] = (struct nb_rxport_result){
		.port = 1, .joined = 1, .received = 1001, .unique = 1000};
	r->rxports[1] = (struct nb_rxport_result){
		.port = 2, .received = 0, .lost = 1000};
	f = open_memstream(&text, &len);
	nb_report_rxports_text(f, r);
	fclose(f);
	assert_non_null(strstr(text, "[RX  1] received 1001, lost 0 (0%)"));
	assert_non_null(strstr(text, "joined, received 1000 of 1000: "
				     "forwarded"));
	assert_non_null(strstr(text, "[RX  2] received 0, lost 1000 (100%)"));
	assert_non_null(strstr(text, "not joined, received 0: not forwarded"));
	free(text);

	a = nb_json_rxports(r);
	assert_int_equal(json_array_size(a), 2);
	p = json_array_get(a, 1);
	assert_int_equal(json_integer_value(json_object_get(p, "port")), 2);
	assert_true(json_is_false(json_object_get(p, "joined")));
	assert_int_equal(json_integer_value(json_object_get(p, "lost")), 1000);
	assert_int_equal(json_integer_value(json_object_get(p, "sent")), 1000);
	assert_true(json_real_value(json_object_get(p, "lost_percent")) ==
		    100.0);
	p = json_array_get(a, 0);
	assert_int_equal(json_integer_value(json_object_get(p, "received")),
			 1001);
	assert_string_equal(json_string_value(json_object_get(p, "verdict")),
			    "joined, received 1000 of 1000: forwarded");
	json_decref(a);
	free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fanout_and_joins),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
