/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The options' values and the parser's errors (app/core/nb_opt_values.c,
 * nb_opt_peer.c, nb_options.c): bad values, flags with values, unknown and
 * missing ones, repeats, --help, short forms, the key file, --allow and
 * the caps.
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
test_bad_values(void **state)
{
	char lng[64], eq[128], shrt[3];
	size_t i, b;

	(void)state;
	for (i = 0; i < nb_cases; i++) {
		const struct opt_case *c = &cases[i];

		snprintf(lng, sizeof(lng), "--%s", c->name);
		snprintf(shrt, sizeof(shrt), "-%c", c->short_name);
		for (b = 0; c->bad[b] != NULL; b++) {
			const char *v = c->bad[b];
			char quoted[64];

			snprintf(quoted, sizeof(quoted), "'%s'", v);
			expect_error((const char *const[]){lng, v, NULL},
				     quoted, lng);
			snprintf(eq, sizeof(eq), "%s=%s", lng, v);
			expect_error((const char *const[]){eq, NULL}, quoted,
				     lng);
			if (c->short_name)
				expect_error(
					(const char *const[]){shrt, v, NULL},
					quoted, lng);
		}
	}
}

static void
test_flag_with_value(void **state)
{
	char tok[64];
	size_t i;

	(void)state;
	for (i = 0; i < nb_nb_options; i++) {
		char name[64];

		if (nb_options[i].arg != NULL)
			continue;
		snprintf(name, sizeof(name), "--%s", nb_options[i].name);
		snprintf(tok, sizeof(tok), "--%s=1", nb_options[i].name);
		expect_error((const char *const[]){tok, NULL}, name, NULL);
		snprintf(tok, sizeof(tok), "--%s=", nb_options[i].name);
		expect_error((const char *const[]){tok, NULL}, name, NULL);
	}
	/* A flag does not consume the next token. */
	{
		struct nb_config cfg;
		char err[ERRLEN];

		assert_int_equal(PARSE(&cfg, err, "--json", "1"), -EINVAL);
		assert_non_null(strstr(err, "'1'"));
	}
}

static void
test_unknown_and_malformed(void **state)
{
	(void)state;
	EXPECT_ERROR("--bogus", NULL, "--bogus");
	EXPECT_ERROR("--bogus=1", NULL, "--bogus=1");
	EXPECT_ERROR("--Rate", NULL, "--Rate", "1G");
	EXPECT_ERROR("--rat", NULL, "--rat", "1G"); /* no prefix matching */
	EXPECT_ERROR("--rates", NULL, "--rates", "1G");
	EXPECT_ERROR("-z", NULL, "-z");
	EXPECT_ERROR("-H", NULL, "-H");
	EXPECT_ERROR("'--'", NULL, "--");
	EXPECT_ERROR("'-'", NULL, "-");
	EXPECT_ERROR("''", NULL, "");
	EXPECT_ERROR("'--='", NULL, "--=");
	EXPECT_ERROR("positional", NULL, "positional");
	/* -bVALUE is -b VALUE, as getopt takes it */
	EXPECT_ERROR("'J'", "--rate", "-bJ");
	EXPECT_ERROR("'=1G'", "--rate", "-b=1G");
	/* flags are not grouped, and take no value */
	EXPECT_ERROR("'-R'", "-RJ", "-RJ");
	EXPECT_ERROR("'-J'", "-J1", "-J1");
	EXPECT_ERROR("-z5", NULL, "-z5");
	EXPECT_ERROR("---rate", NULL, "---rate", "1G");
	/* The bad token is reported even after good ones. */
	EXPECT_ERROR("--nope", NULL, "--tx-port", "0", "--rx-port", "1",
		     "--nope");
	EXPECT_ERROR("stray", NULL, "--json", "stray", "--rate", "1G");
}

static void
test_missing_value(void **state)
{
	char lng[64], shrt[3];
	size_t i;

	(void)state;
	for (i = 0; i < nb_nb_options; i++) {
		if (nb_options[i].arg == NULL)
			continue;
		snprintf(lng, sizeof(lng), "--%s", nb_options[i].name);
		expect_error((const char *const[]){lng, NULL}, lng, NULL);
		expect_error((const char *const[]){"--json", lng, NULL}, lng,
			     NULL);
		if (nb_options[i].short_name) {
			snprintf(shrt, sizeof(shrt), "-%c",
				 nb_options[i].short_name);
			expect_error((const char *const[]){shrt, NULL}, shrt,
				     NULL);
		}
	}
}

static void
test_repeated(void **state)
{
	(void)state;
	EXPECT_ERROR("--rate", "twice", "--rate", "1G", "--rate", "2G");
	EXPECT_ERROR("--rate", "twice", "--rate=1G", "-b", "2G");
	EXPECT_ERROR("--rate", "twice", "-b", "1G", "--rate=1G");
	EXPECT_ERROR("--json", "twice", "--json", "-J");
	EXPECT_ERROR("--help", "twice", "-h", "-h");
	EXPECT_ERROR("--tx-port", "twice", "--tx-port", "0", "--rx-port", "1",
		     "--tx-port", "2");
	EXPECT_ERROR("--list-ports", "twice", "--list-ports", "--list-ports");
	EXPECT_ERROR("--drain", "twice", "--drain", "1", "--drain=1");
}

static void
test_mode_conflicts(void **state)
{
	(void)state;
	EXPECT_ERROR("--list-ports", "--tx-port", "--tx-port", "0",
		     "--list-ports");
	EXPECT_ERROR("--rx-port", "--list-ports", "--list-ports", "--rx-port",
		     "1");
	EXPECT_ERROR("--tx-port", "--list-ports", "--list-ports",
		     "--tx-port=0");
}

static void
test_usage(void **state)
{
	char *buf = NULL, needle[256];
	size_t len = 0, i;
	FILE *f;

	(void)state;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	nb_options_usage(f, "my-prog");
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	assert_non_null(strstr(buf, "my-prog"));
	assert_non_null(strstr(buf, "Usage:"));
	for (i = 0; i < nb_nb_options; i++) {
		const struct nb_option *o = &nb_options[i];

		if (o->name == NULL) {
			/* a heading line of its own: "Title:" */
			snprintf(needle, sizeof(needle), "\n%s:\n", o->help);
			if (strstr(buf, needle) == NULL)
				fail_msg("usage lacks the heading '%s'",
					 o->help);
			continue;
		}
		/* "-x, --name ARG" or "--name ARG", then the help text. */
		if (o->short_name)
			snprintf(needle, sizeof(needle), "-%c, --%s%s%s ",
				 o->short_name, o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		else
			snprintf(needle, sizeof(needle), " --%s%s%s ", o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		{
			const char *at = strstr(buf, needle);
			const char *eol;

			if (at == NULL)
				fail_msg("usage does not list '%s'", needle);
			eol = strchr(at, '\n');
			assert_non_null(eol);
			at = strstr(at, o->help);
			if (at == NULL || at > eol)
				fail_msg("help of --%s not on its line",
					 o->name);
		}
	}
	free(buf);
}

/* -xVALUE works like -x VALUE for every short option that takes one. */
static void
test_short_attached(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN], tok[160];
	size_t i;

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-b1G"), 0);
	assert_int_equal(cfg.rate.kind, NB_RATE_BPS_L1);
	assert_true(cfg.rate.value == 1e9);
	assert_int_equal(PARSE(&cfg, err, "-t5", "-P4", "-l1518", "-k10M"), 0);
	assert_true(cfg.duration == 5);
	assert_int_equal(cfg.streams, 4);
	assert_int_equal(cfg.sizes.sizes[0], 1518);
	assert_int_equal(cfg.packets, 10000000);
	/* "-t" with nothing attached still takes the next token */
	assert_int_equal(PARSE(&cfg, err, "-t", "7"), 0);
	assert_true(cfg.duration == 7);
	for (i = 0; i < nb_cases; i++) {
		const struct opt_case *c = &cases[i];

		if (c->short_name == 0 || c->value == NULL)
			continue;
		snprintf(tok, sizeof(tok), "-%c%s", c->short_name, c->value);
		check_parsed(c, (char *[]){(char *)"x", tok, NULL}, 2);
	}
}

static void
test_rate_reasons(void **state)
{
	(void)state;
	EXPECT_ERROR("'0'", "above 0", "--rate", "0");
	EXPECT_ERROR("'0pps'", "above 0", "--rate", "0pps");
	EXPECT_ERROR("'101%'", "at most 100", "--rate", "101%");
	EXPECT_ERROR("'1e99'", "largest bit rate", "--rate", "1e99");
	EXPECT_ERROR("'10001G'", "10 Tbit/s", "--rate", "10001G");
	EXPECT_ERROR("'11Gpps'", "10 Gpps", "--rate", "11Gpps");
	EXPECT_ERROR("'1e400'", "out of range", "--rate", "1e400");
	EXPECT_ERROR("'10X'", "expected e.g. 10G", "--rate", "10X");
	/* the largest are accepted */
	{
		struct nb_config cfg;
		char err[ERRLEN];

		assert_int_equal(PARSE(&cfg, err, "--rate", "10000G"), 0);
		assert_int_equal(PARSE(&cfg, err, "--rate", "10Gpps"), 0);
	}
}

static void
test_count_and_time_bounds(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	EXPECT_ERROR("--bytes", "2^50", "--bytes", "18446744073709551615");
	EXPECT_ERROR("--bytes", "2^50", "--bytes", "1048577G");
	assert_int_equal(PARSE(&cfg, err, "--bytes", "1048576G"), 0);
	assert_true(cfg.bytes == NB_MAX_BYTES);
	EXPECT_ERROR("--packets", "1e14", "--packets", "18446744073709551615");
	EXPECT_ERROR("--packets", "1e14", "--packets", "100001G");
	assert_int_equal(PARSE(&cfg, err, "--packets", "100000G"), 0);
	assert_true(cfg.packets == NB_MAX_PACKETS);
	/* the plan's totals fit 64 bits at the largest frame, L1, in bits */
	assert_true(NB_MAX_PACKETS <= UINT64_MAX / (9000 + 20) / 8);
	assert_true(NB_MAX_BYTES / 64 <= NB_MAX_PACKETS);

	EXPECT_ERROR("'1e-9'", "0.1 s", "--time", "1e-9");
	EXPECT_ERROR("'0.09'", "0.1 s", "-t", "0.09");
	assert_int_equal(PARSE(&cfg, err, "--time", "0.1"), 0);
	assert_int_equal(PARSE(&cfg, err, "--time", "0"), 0);
	EXPECT_ERROR("'0.01'", "0.1 s", "--omit", "0.01");
	assert_int_equal(PARSE(&cfg, err, "--omit", "0"), 0);
}

static void
test_auth_key(void **state)
{
	static const mode_t open_modes[] = {0640, 0604, 0644, 0660, 0606, 0610,
					    0601, 0620, 0602, 0670, 0607, 0777};
	struct nb_config cfg;
	char err[ERRLEN], path[128], want[256];
	char big[NB_MAX_PSK + 2];
	size_t i;

	(void)state;
	assert_int_equal(NB_MIN_PSK, 32);
	/* one CRLF dropped; the bytes before it are the key */
	assert_int_equal(PARSE(&cfg, err, "--auth-key", crlf_path), 0);
	assert_int_equal(cfg.psk_len, 34);
	assert_memory_equal(cfg.psk, KEY32 "XY", 34);
	/* only one newline: a second is part of the key */
	snprintf(path, sizeof(path), "%s/two", dir_path);
	write_file(path, KEY32 "\n\n", 34, 0600);
	assert_int_equal(PARSE(&cfg, err, "--auth-key", path), 0);
	assert_int_equal(cfg.psk_len, 33);
	assert_int_equal(cfg.psk[32], '\n');
	/* no newline at all: 32 bytes, the least accepted */
	write_file(path, KEY32, 32, 0600);
	assert_int_equal(PARSE(&cfg, err, "--auth-key", path), 0);
	assert_int_equal(cfg.psk_len, 32);
	assert_memory_equal(cfg.psk, KEY32, 32);
	/* 31 bytes, with or without a newline: too short; says how many
	 * bytes and how to make a key */
	EXPECT_ERROR("holds 31 bytes; a key is at least 32 random bytes",
		     "head -c 32 /dev/urandom", "--auth-key", short_path);
	EXPECT_ERROR(short_path, "--auth-key", "--auth-key", short_path);
	write_file(path, KEY32_HEAD31, 31, 0600);
	EXPECT_ERROR("holds 31 bytes", path, "--auth-key", path);
	/* 31 bytes and a CRLF: the CRLF is not the key */
	write_file(path, KEY32_HEAD31 "\r\n", 33, 0600);
	EXPECT_ERROR("holds 31 bytes", path, "--auth-key", path);
	/* the largest, and one more */
	memset(big, 'k', sizeof(big));
	write_file(path, big, NB_MAX_PSK, 0600);
	assert_int_equal(PARSE(&cfg, err, "--auth-key", path), 0);
	assert_int_equal(cfg.psk_len, NB_MAX_PSK);
	big[NB_MAX_PSK] = '\n';
	write_file(path, big, NB_MAX_PSK + 1, 0600);
	assert_int_equal(PARSE(&cfg, err, "--auth-key", path), 0);
	assert_int_equal(cfg.psk_len, NB_MAX_PSK);
	write_file(path, big, NB_MAX_PSK + 2, 0600);
	EXPECT_ERROR("more than 1024 bytes", path, "--auth-key", path);
	/* empty file */
	write_file(path, "", 0, 0600);
	EXPECT_ERROR("holds 0 bytes", "--auth-key", "--auth-key", path);
	/* a directory, a missing file */
	EXPECT_ERROR("not a regular file", dir_path, "--auth-key", dir_path);
	EXPECT_ERROR("/nonexistent/k", "No such file", "--auth-key",
		     "/nonexistent/k");
	/* a file the group or others may read, write or run: refused (it
	 * was only warned about before), naming the mode and the fix */
	for (i = 0; i < sizeof(open_modes) / sizeof(open_modes[0]); i++) {
		write_file(path, KEY32, 32, open_modes[i]);
		snprintf(want, sizeof(want), "(mode %03o): chmod 600 %s",
			 (unsigned int)open_modes[i], path);
		EXPECT_ERROR("open to group or others", want, "--auth-key",
			     path);
	}
	/* the owner's own bits do not matter (0700, 0400) */
	write_file(path, KEY32, 32, 0700);
	assert_int_equal(PARSE(&cfg, err, "--auth-key", path), 0);
	write_file(path, KEY32, 32, 0400);
	assert_int_equal(PARSE(&cfg, err, "--auth-key", path), 0);
	assert_int_equal(cfg.psk_len, 32);
	assert_int_equal(chmod(path, 0600), 0);
	/* a FIFO is refused without blocking */
	snprintf(path, sizeof(path), "%s/fifo", dir_path);
	assert_int_equal(mkfifo(path, 0600), 0);
	EXPECT_ERROR("not a regular file", path, "--auth-key", path);
}

static void
test_allow(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN], list[1024];
	size_t off = 0;
	int i;

	(void)state;
	/* repeatable, and each value a list; default prefix /32 */
	assert_int_equal(PARSE(&cfg, err, "--allow", "198.18.0.1", "--allow",
			       "02:00:00:00:00:01,0.0.0.0/0",
			       "--allow=10.0.0.0/8"),
			 0);
	assert_int_equal(cfg.nb_allow, 4);
	assert_int_equal(cfg.allow[0].is_ip, 1);
	assert_int_equal(cfg.allow[0].ip, ip4(198, 18, 0, 1));
	assert_int_equal(cfg.allow[0].mask, UINT32_MAX);
	assert_int_equal(cfg.allow[1].is_ip, 0);
	assert_int_equal(cfg.allow[2].mask, 0);
	assert_int_equal(cfg.allow[2].ip, 0);
	assert_int_equal(cfg.allow[3].mask, ip4(255, 0, 0, 0));
	/* host bits: the message offers the network */
	EXPECT_ERROR("10.0.0.0/8", "host bits", "--allow", "10.0.0.1/8");
	EXPECT_ERROR("198.18.0.0/15", "host bits", "--allow", "198.19.0.0/15");
	EXPECT_ERROR("multicast or broadcast", "--allow", "--allow",
		     "ff:ff:ff:ff:ff:ff");
	EXPECT_ERROR("zero", "--allow", "--allow", "00:00:00:00:00:00");
	EXPECT_ERROR("0..32", "--allow", "--allow", "10.0.0.0/");
	EXPECT_ERROR("0..32", "--allow", "--allow", "10.0.0.0/x");
	EXPECT_ERROR("neither", "--allow", "--allow", "host.example");
	EXPECT_ERROR("empty", "--allow", "--allow", "10.0.0.1,,10.0.0.2");
	EXPECT_ERROR("empty", "--allow", "--allow", "10.0.0.1,");
	/* at most NB_MAX_ALLOW, over several options too */
	for (i = 0; i < NB_MAX_ALLOW; i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off,
					"%s10.0.0.%d", i ? "," : "", i + 1);
	assert_int_equal(PARSE(&cfg, err, "--allow", list), 0);
	assert_int_equal(cfg.nb_allow, NB_MAX_ALLOW);
	EXPECT_ERROR("more than 32", "--allow", "--allow", list, "--allow",
		     "10.1.0.1");
}

static void
test_max_rate_and_time(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	EXPECT_ERROR("absolute", "not max", "--max-rate", "max");
	EXPECT_ERROR("absolute", "percentage", "--max-rate", "50%");
	EXPECT_ERROR("above 0", "--max-rate", "--max-rate", "0");
	EXPECT_ERROR("largest", "--max-rate", "--max-rate", "1e99");
	assert_int_equal(PARSE(&cfg, err, "--max-rate", "9.5Gl2"), 0);
	assert_int_equal(cfg.max_rate.kind, NB_RATE_BPS_L2);
	assert_true(cfg.max_rate.value == 9.5e9);
	assert_int_equal(PARSE(&cfg, err, "--max-rate", "40G"), 0);
	assert_int_equal(cfg.max_rate.kind, NB_RATE_BPS_L1);
	EXPECT_ERROR("twice", "--max-rate", "--max-rate", "1G", "--max-rate",
		     "2G");
	EXPECT_ERROR("1..2.592e+06", "--max-time", "--max-time", "0.5");
	assert_int_equal(PARSE(&cfg, err, "--max-time", "2592000"), 0);
	assert_int_equal(PARSE(&cfg, err, "--max-time", "1"), 0);
}

static void
test_tool_only(void **state)
{
	(void)state;
	assert_true(nb_option_is_tool_only("--rate"));
	assert_true(nb_option_is_tool_only("--rate=1G"));
	assert_true(nb_option_is_tool_only("--tx-port"));
	assert_true(nb_option_is_tool_only("--version"));
	assert_true(nb_option_is_tool_only("--list-ports"));
	/* EAL has these too, or they are EAL's */
	assert_false(nb_option_is_tool_only("--help"));
	assert_false(nb_option_is_tool_only("--allow"));
	assert_false(nb_option_is_tool_only("--allow=0000:01:00.0"));
	assert_false(nb_option_is_tool_only("--vdev"));
	assert_false(nb_option_is_tool_only("--file-prefix=x"));
	assert_false(nb_option_is_tool_only("-b"));
	assert_false(nb_option_is_tool_only("--"));
	assert_false(nb_option_is_tool_only("rate"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_flag_with_value),
		cmocka_unit_test(test_unknown_and_malformed),
		cmocka_unit_test(test_missing_value),
		cmocka_unit_test(test_repeated),
		cmocka_unit_test(test_mode_conflicts),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_short_attached),
		cmocka_unit_test(test_rate_reasons),
		cmocka_unit_test(test_count_and_time_bounds),
		cmocka_unit_test(test_auth_key),
		cmocka_unit_test(test_allow),
		cmocka_unit_test(test_max_rate_and_time),
		cmocka_unit_test(test_tool_only),
	};

	return cmocka_run_group_tests(tests, setup_keys, teardown_keys);
}
