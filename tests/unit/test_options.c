/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The option table and its parser (app/core/nb_opt_table.c, nb_options.c).
 *
 * Every entry of nb_options[] must have a case in opt_cases.c (a new
 * option without one fails test_every_option_has_a_case), and each case
 * is parsed in every accepted spelling: "--name value", "--name=value"
 * and "-x value".
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "nb_frame.h"
#include "nb_options.h"
#include "nb_suite_opts.h"

#include "opt_fixtures.h"

static void
test_defaults(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	nb_config_defaults(&cfg);
	assert_int_equal(cfg.mode, NB_MODE_NONE);
	assert_int_equal(cfg.nb_tx_ports, 0);
	assert_int_equal(cfg.nb_rx_ports, 0);
	assert_int_equal(cfg.rate.kind, NB_RATE_MAX);
	assert_int_equal(cfg.sizes.nb_sizes, 1);
	assert_int_equal(cfg.sizes.sizes[0], 64);
	assert_int_equal(cfg.sizes.nb_pattern, 1);
	assert_int_equal(cfg.sizes.pattern[0], 0);
	assert_int_equal(cfg.proto, 17);
	assert_int_equal(cfg.streams, 1);
	assert_int_equal(cfg.vlan_id, 0);
	assert_int_equal(cfg.src_ip, ip4(198, 18, 0, 1));
	assert_int_equal(cfg.dst_ip, ip4(198, 19, 0, 1));
	assert_int_equal(cfg.have_src_mac, 0);
	assert_int_equal(cfg.have_dst_mac, 0);
	assert_true(cfg.duration == 10.0);
	assert_int_equal(cfg.duration_set, 0);
	assert_int_equal(cfg.packets, 0);
	assert_int_equal(cfg.bytes, 0);
	assert_true(cfg.omit == 0.0);
	assert_true(cfg.interval == 1.0);
	assert_int_equal(cfg.queues, 1);
	assert_int_equal(cfg.rxd, 1024);
	assert_int_equal(cfg.txd, 1024);
	assert_true(cfg.link_timeout == 10.0);
	assert_true(cfg.drain == 0.5);
	assert_int_equal(cfg.json, 0);
	assert_int_equal(cfg.help, 0);
	assert_int_equal(cfg.version, 0);
	assert_int_equal(cfg.json_stream, 0);
	assert_int_equal(cfg.csv, 0);
	assert_int_equal(cfg.quiet, 0);
	assert_int_equal(cfg.format, 'a');
	assert_string_equal(cfg.logfile, "");
	assert_string_equal(cfg.json_file, "");
	assert_string_equal(cfg.config, "");
	assert_int_equal(cfg.seen[0], 0);
	assert_int_equal(cfg.seen[1], 0);

	/* No arguments at all: defaults, no error. */
	{
		char *argv[] = {(char *)"dpdk-nbench", NULL};
		struct nb_config c2;

		nb_config_defaults(&c2);
		assert_int_equal(nb_options_parse(&c2, 1, argv, err, ERRLEN),
				 0);
		assert_memory_equal(&c2, &cfg, sizeof(cfg));
	}
	/* The responder's policy defaults. */
	assert_int_equal(cfg.max_rate.kind, NB_RATE_BPS_L1);
	assert_true(cfg.max_rate.value == 10e9);
	assert_true(cfg.max_time == 3600);
	assert_int_equal(cfg.nb_allow, 0);
	assert_int_equal(cfg.psk_len, 0);
	assert_int_equal(cfg.allow_quit, 0);
	assert_int_equal(cfg.no_auth, 0);
	/* The table fits the "seen" and "given" bitmaps. */
	assert_true(nb_nb_options <=
		    64 * sizeof(cfg.seen) / sizeof(cfg.seen[0]));
	assert_true(nb_nb_options > 0);
}

static void
test_every_option_has_a_case(void **state)
{
	size_t i, j;

	(void)state;
	for (i = j = 0; i < nb_nb_options; i++)
		j += nb_options[i].name != NULL;
	assert_int_equal(j, nb_cases);
	for (i = 0; i < nb_nb_options; i++) {
		const struct opt_case *c;

		if (nb_options[i].name == NULL) {
			/* a section heading: a title, nothing to apply */
			assert_non_null(nb_options[i].help);
			assert_null(nb_options[i].apply);
			continue;
		}
		c = find_case(nb_options[i].name);

		if (c == NULL)
			fail_msg("option --%s has no test case",
				 nb_options[i].name);
		assert_int_equal(c->short_name, nb_options[i].short_name);
		assert_int_equal(c->value == NULL, nb_options[i].arg == NULL);
		/* a flag sets its int and has no parser; all else have one
		 * (--list-ports too: it takes no value but sets the mode) */
		assert_int_equal(nb_options[i].apply == NULL,
				 (nb_options[i].flags & NB_OPT_FLAG) != 0);
		if (nb_options[i].flags & NB_OPT_FLAG)
			assert_null(nb_options[i].arg);
		assert_non_null(nb_options[i].help);
		/* Names and short names are unique. */
		for (j = 0; j < i; j++) {
			if (nb_options[j].name == NULL)
				continue;
			assert_string_not_equal(nb_options[i].name,
						nb_options[j].name);
			if (nb_options[i].short_name)
				assert_int_not_equal(nb_options[i].short_name,
						     nb_options[j].short_name);
		}
	}
}

static void
test_every_option_every_form(void **state)
{
	char lng[64], eq[128], shrt[3];
	size_t i;

	(void)state;
	for (i = 0; i < nb_cases; i++) {
		const struct opt_case *c = &cases[i];

		snprintf(lng, sizeof(lng), "--%s", c->name);
		snprintf(shrt, sizeof(shrt), "-%c", c->short_name);
		if (c->value == NULL) {
			char *a1[] = {(char *)"x", lng, NULL};
			char *a2[] = {(char *)"x", shrt, NULL};

			check_parsed(c, a1, 2);
			if (c->short_name)
				check_parsed(c, a2, 2);
		} else {
			char *a1[] = {(char *)"x", lng, (char *)c->value, NULL};
			char *a2[] = {(char *)"x", eq, NULL};
			char *a3[] = {(char *)"x", shrt, (char *)c->value,
				      NULL};

			snprintf(eq, sizeof(eq), "--%s=%s", c->name, c->value);
			check_parsed(c, a1, 3);
			check_parsed(c, a2, 2);
			if (c->short_name)
				check_parsed(c, a3, 3);
		}
	}
}

/* The case's own check of what the option set. */
static void
case_check(const struct nb_config *cfg, const char *name)
{
	const struct opt_case *c = find_case(name);

	assert_non_null(c);
	c->check(cfg);
}

/* All options at once (those that combine), mixing the forms. */
static void
test_all_together(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "--tx-port", "0,2,31", "--rx-port=1",
			       "-b", "2.5Gl2", "--size=64,512,1518", "--proto",
			       "tcp", "-P", "7", "--vlan=100", "--src-ip",
			       "10.0.0.1", "--dst-ip=192.168.255.254",
			       "--src-mac", "02:00:00:00:00:01", "--dst-mac",
			       "0A-bc-DE-f0-12-34", "-t", "2.5", "-k", "10M",
			       "--omit=1.5", "-i", "0.5", "-q", "4", "--rxd",
			       "512", "--link-timeout=3", "--drain", "0.25",
			       "-J", "-h", "-V"),
			 0);
	assert_int_equal(cfg.mode, NB_MODE_LOOPBACK);
	assert_int_equal(cfg.nb_tx_ports, 3);
	assert_int_equal(cfg.rx_ports[0], 1);
	case_check(&cfg, "rate");
	case_check(&cfg, "size");
	case_check(&cfg, "proto");
	case_check(&cfg, "streams");
	case_check(&cfg, "vlan");
	assert_int_equal(cfg.src_ip, ip4(10, 0, 0, 1));
	assert_int_equal(cfg.dst_ip, ip4(192, 168, 255, 254));
	assert_int_equal(cfg.have_src_mac, 1);
	assert_int_equal(cfg.have_dst_mac, 1);
	case_check(&cfg, "time");
	case_check(&cfg, "packets");
	case_check(&cfg, "omit");
	case_check(&cfg, "interval");
	case_check(&cfg, "queues");
	case_check(&cfg, "rxd");
	case_check(&cfg, "link-timeout");
	case_check(&cfg, "drain");
	case_check(&cfg, "json");
	case_check(&cfg, "help");
	case_check(&cfg, "version");
	assert_int_equal(cfg.bytes, 0);

	/* A value may look like an option; it is taken as the value. */
	assert_int_equal(PARSE(&cfg, err, "--rate", "-5"), -EINVAL);
	assert_non_null(strstr(err, "'-5'"));
	/* An "=" inside the value is kept. */
	assert_int_equal(PARSE(&cfg, err, "--proto=tcp=udp"), -EINVAL);
	assert_non_null(strstr(err, "tcp=udp"));
	/* "--name=" is an empty value, not a missing one. */
	assert_int_equal(PARSE(&cfg, err, "--proto="), -EINVAL);
	assert_non_null(strstr(err, "--proto"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_option_has_a_case),
		cmocka_unit_test(test_every_option_every_form),
		cmocka_unit_test(test_all_together),
	};

	return cmocka_run_group_tests(tests, setup_keys, teardown_keys);
}
