/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --config FILE (app/core/nb_cfgfile.c): keys are the option table's long
 * names, the command line wins, and every error names file, line and key.
 * Also loads every example in config/ and checks it is a whole, valid test.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "nb_frame.h"
#include "nb_options.h"

#define ERRLEN 512

static char path[64];

static void
write_file(const char *text)
{
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/nb_cfgtest_XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Parse a command line (NULL-terminated), then load text as the file. */
static int
load(struct nb_config *cfg, const char *text, char *err, const char *const *cli)
{
	char *argv[16];
	int argc = 0, ret;

	argv[argc++] = (char *)"x";
	while (cli != NULL && *cli != NULL)
		argv[argc++] = (char *)*cli++;
	nb_config_defaults(cfg);
	err[0] = '\0';
	assert_int_equal(nb_options_parse(cfg, argc, argv, err, ERRLEN), 0);
	write_file(text);
	ret = nb_config_load(cfg, path, err, ERRLEN);
	unlink(path);
	return ret;
}

/* "FILE:LINE: ..." with this file and line, and the key named. */
static void
assert_error_at(const char *err, int line, const char *needle)
{
	char want[128];

	snprintf(want, sizeof(want), "%s:%d: ", path, line);
	if (strncmp(err, want, strlen(want)) != 0)
		fail_msg("error '%s' does not start with '%s'", err, want);
	if (strstr(err, needle) == NULL)
		fail_msg("error '%s' lacks '%s'", err, needle);
}

static void
test_values_applied(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	assert_int_equal(load(&cfg,
			      "; a test profile\n"
			      "# comments both ways\n"
			      "[ports]\n"
			      "tx-port = 0,2\n"
			      "rx-port = 1,3\n"
			      "\n"
			      "[traffic]\n"
			      "rate = 2.5Gl2   ; inline comment\n"
			      "size = 64,1518\n"
			      "proto = tcp\n"
			      "streams = 8\n"
			      "[output]\n"
			      "json = yes\n"
			      "interval = 0.5\n"
			      "quiet = false\n",
			      err, NULL),
			 0);
	assert_int_equal(cfg.mode, NB_MODE_LOOPBACK);
	assert_int_equal(cfg.nb_tx_ports, 2);
	assert_int_equal(cfg.tx_ports[1], 2);
	assert_int_equal(cfg.rx_ports[1], 3);
	assert_int_equal(cfg.rate.kind, NB_RATE_BPS_L2);
	assert_true(cfg.rate.value == 2.5e9);
	assert_int_equal(cfg.sizes.nb_sizes, 2);
	assert_int_equal(cfg.sizes.sizes[1], 1518);
	assert_int_equal(cfg.proto, NB_IPPROTO_TCP);
	assert_int_equal(cfg.streams, 8);
	assert_int_equal(cfg.json, 1);
	assert_int_equal(cfg.quiet, 0);
	assert_true(cfg.interval == 0.5);
	assert_int_equal(nb_config_check(&cfg, err, ERRLEN), 0);
}

static void
test_command_line_wins(void **state)
{
	static const char *const cli[] = {"--size", "256", "-P", "2", NULL};
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	assert_int_equal(load(&cfg,
			      "size = 128\nstreams = 16\ntime = 3\n"
			      "tx-port = 0\nrx-port = 1\n",
			      err, cli),
			 0);
	assert_int_equal(cfg.sizes.sizes[0], 256);
	assert_int_equal(cfg.streams, 2);
	assert_true(cfg.duration == 3.0); /* only in the file */
	assert_int_equal(cfg.nb_tx_ports, 1);
}

static void
test_errors_name_file_line_key(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	assert_int_equal(load(&cfg, "rate = 1G\n\nbogus = 3\n", err, NULL),
			 -EINVAL);
	assert_error_at(err, 3, "unknown key 'bogus'");

	assert_int_equal(load(&cfg, "[t]\nsize = 64\nrate = fast\n", err, NULL),
			 -EINVAL);
	assert_error_at(err, 3, "bad value 'fast' for key 'rate'");

	assert_int_equal(load(&cfg, "streams = 2\nstreams = 3\n", err, NULL),
			 -EINVAL);
	assert_error_at(err, 2, "key 'streams' given twice");

	assert_int_equal(load(&cfg, "json = maybe\n", err, NULL), -EINVAL);
	assert_error_at(err, 1, "bad value 'maybe' for key 'json'");

	assert_int_equal(load(&cfg, "\n\nhelp = true\n", err, NULL), -EINVAL);
	assert_error_at(err, 3, "key 'help' is for the command line only");

	assert_int_equal(load(&cfg, "config = other.ini\n", err, NULL),
			 -EINVAL);
	assert_error_at(err, 1, "'config'");

	/* Not INI at all: the line, and what was expected. */
	assert_int_equal(load(&cfg, "rate = 1G\n--rate 2G\n", err, NULL),
			 -EINVAL);
	assert_error_at(err, 2, "syntax error");

	/* A syntax error before a bad key: the first one is reported. */
	assert_int_equal(load(&cfg, "[unclosed\nbogus = 1\n", err, NULL),
			 -EINVAL);
	assert_error_at(err, 1, "syntax error");

	/* The file is missing. */
	nb_config_defaults(&cfg);
	assert_int_equal(
		nb_config_load(&cfg, "/nonexistent/nb.ini", err, ERRLEN),
		-ENOENT);
	assert_non_null(strstr(err, "/nonexistent/nb.ini"));
}

/* The security keys: --allow as a list (and repeatable), the others once;
 * a directory is no config file; a flag set false counts for no mode. */
static void
test_security_keys(void **state)
{
	const char *const cli_allow[] = {"--allow", "10.9.0.0/16", NULL};
	const char *const cli_loop[] = {"--tx-port", "0", "--rx-port", "1",
					NULL};
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	/* spaces around the list's elements are allowed */
	assert_int_equal(
		load(&cfg,
		     "[policy]\nallow = 10.0.0.0/8 , 02:00:00:00:00:07\n"
		     "allow = 198.18.0.1\nmax-rate = 1Mpps\n"
		     "max-time = 60\nallow-quit = true\n",
		     err, NULL),
		0);
	assert_int_equal(cfg.nb_allow, 3);
	assert_int_equal(cfg.allow[0].mask, 0xff000000u);
	assert_int_equal(cfg.allow[1].is_ip, 0);
	assert_int_equal(cfg.allow[2].ip, 0xc6120001u);
	assert_int_equal(cfg.max_rate.kind, NB_RATE_PPS);
	assert_true(cfg.max_time == 60);
	assert_int_equal(cfg.allow_quit, 1);
	assert_int_equal(nb_config_check(&cfg, err, ERRLEN), 0);
	assert_int_equal(cfg.mode, NB_MODE_RESPONDER);

	/* the command line's --allow wins over the file's list */
	assert_int_equal(load(&cfg, "allow = 10.0.0.0/8\n", err, cli_allow), 0);
	assert_int_equal(cfg.nb_allow, 1);
	assert_int_equal(cfg.allow[0].ip, 0x0a090000u);

	/* errors name the file's line and the key */
	assert_int_equal(load(&cfg, "\nallow = 10.0.0.1/8\n", err, NULL),
			 -EINVAL);
	assert_error_at(err, 2, "did you mean 10.0.0.0/8");
	assert_int_equal(load(&cfg, "allow = 10.0.0.1, ,10.0.0.2\n", err, NULL),
			 -EINVAL);
	assert_error_at(err, 1, "empty element");
	assert_int_equal(load(&cfg, "max-rate = max\n", err, NULL), -EINVAL);
	assert_error_at(err, 1, "absolute");
	assert_int_equal(load(&cfg, "max-time = 1\nmax-time = 2\n", err, NULL),
			 -EINVAL);
	assert_error_at(err, 2, "given twice");
	assert_int_equal(load(&cfg, "auth-key = /nonexistent/k\n", err, NULL),
			 -EINVAL);
	assert_error_at(err, 1, "/nonexistent/k");

	/* a responder's flag set false in a loopback profile is no error */
	assert_int_equal(
		load(&cfg, "one-off = false\nallow-quit = no\n", err, cli_loop),
		0);
	assert_int_equal(nb_config_check(&cfg, err, ERRLEN), 0);
	/* set true, it is */
	assert_int_equal(load(&cfg, "allow-quit = yes\n", err, cli_loop), 0);
	assert_int_equal(nb_config_check(&cfg, err, ERRLEN), -EINVAL);
	assert_non_null(strstr(err, "--allow-quit is for the responder"));
	/* a test option in a responder's file */
	assert_int_equal(load(&cfg, "rate = 1G\n", err, NULL), 0);
	assert_int_equal(nb_config_check(&cfg, err, ERRLEN), -EINVAL);
	assert_non_null(strstr(err, "--rate is a test option"));

	/* a directory is refused, not read as an empty file */
	nb_config_defaults(&cfg);
	assert_int_equal(nb_config_load(&cfg, "/tmp", err, ERRLEN), -EISDIR);
	assert_non_null(strstr(err, "'/tmp'"));
	assert_non_null(strstr(err, "directory"));
}

/*
 * --no-auth from a file: the same caps (1G L1, 60 s) unless max-rate or
 * max-time is given, in the file or on the command line; with an
 * auth-key, refused naming both; "no-auth = false" is no --no-auth.
 */
static void
test_no_auth_file(void **state)
{
	const char *const cli_rate[] = {"--max-rate", "2G", NULL};
	const char *const cli_no_auth[] = {"--no-auth", NULL};
	struct nb_config cfg;
	char err[ERRLEN], key[64], text[160];
	int fd;

	(void)state;
	assert_int_equal(load(&cfg, "no-auth = true\n", err, NULL), 0);
	assert_int_equal(nb_config_check(&cfg, err, ERRLEN), 0);
	assert_int_equal(cfg.mode, NB_MODE_RESPONDER);
	assert_int_equal(cfg.no_auth, 1);
	assert_int_equal(cfg.max_rate.kind, NB_RATE_BPS_L1);
	assert_true(cfg.max_rate.value == 1e9);
	assert_true(cfg.max_time == 60);

	/* a cap in the file is kept, the other defaults */
	assert_int_equal(load(&cfg, "[policy]\nno-auth = yes\nmax-rate = 5G\n",
			      err, NULL),
			 0);
	assert_int_equal(nb_config_check(&cfg, err, ERRLEN), 0);
	assert_true(cfg.max_rate.value == 5e9);
	assert_true(cfg.max_time == 60);
	assert_int_equal(
		load(&cfg, "max-time = 600\nno-auth = true\n", err, NULL), 0);
	assert_int_equal(nb_config_check(&cfg, err, ERRLEN), 0);
	assert_true(cfg.max_rate.value == 1e9);
	assert_true(cfg.max_time == 600);
	/* a cap on the command line, --no-auth in the file; and the other
	 * way round */
	assert_int_equal(load(&cfg, "no-auth = true\n", err, cli_rate), 0);
	assert_int_equal(nb_config_check(&cfg, err, ERRLEN), 0);
	assert_true(cfg.max_rate.value == 2e9);
	assert_true(cfg.max_time == 60);
	assert_int_equal(load(&cfg, "max-time = 120\n", err, cli_no_auth), 0);
	assert_int_equal(nb_config_check(&cfg, err, ERRLEN), 0);
	assert_true(cfg.max_rate.value == 1e9);
	assert_true(cfg.max_time == 120);

	/* no-auth = false: a keyed responder's defaults */
	assert_int_equal(
		load(&cfg, "no-auth = false\nallow-quit = true\n", err, NULL),
		0);
	assert_int_equal(nb_config_check(&cfg, err, ERRLEN), 0);
	assert_int_equal(cfg.no_auth, 0);
	assert_true(cfg.max_rate.value == 10e9);
	assert_true(cfg.max_time == 3600);

	/* with a (good) key file: refused, naming both */
	snprintf(key, sizeof(key), "/tmp/nb_cfgkey_XXXXXX");
	fd = mkstemp(key); /* mode 0600 */
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "0123456789abcdef0123456789abcdef\n", 33),
			 33);
	assert_int_equal(close(fd), 0);
	snprintf(text, sizeof(text), "auth-key = %s\n", key);
	assert_int_equal(load(&cfg, text, err, NULL), 0);
	assert_int_equal(nb_config_check(&cfg, err, ERRLEN), 0);
	assert_int_equal(cfg.psk_len, 32);
	snprintf(text, sizeof(text), "auth-key = %s\nno-auth = true\n", key);
	assert_int_equal(load(&cfg, text, err, NULL), 0);
	assert_int_equal(nb_config_check(&cfg, err, ERRLEN), -EINVAL);
	assert_non_null(strstr(err, "--no-auth"));
	assert_non_null(strstr(err, "--auth-key"));
	assert_int_equal(unlink(key), 0);
}

/* Every key of the table is accepted in a file, except CLI-only ones. */
static void
test_every_key(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN], text[128];
	size_t i;

	(void)state;
	for (i = 0; i < nb_nb_options; i++) {
		const struct nb_option *o = &nb_options[i];
		int ret;

		if (o->name == NULL)
			continue;
		snprintf(text, sizeof(text), "%s = %s\n", o->name,
			 o->arg ? "x-not-a-value" : "true");
		ret = load(&cfg, text, err, NULL);
		if (o->flags & NB_OPT_CLI_ONLY) {
			assert_int_equal(ret, -EINVAL);
			assert_error_at(err, 1, "command line only");
		} else if (o->arg == NULL) {
			if (ret != 0)
				fail_msg("flag key %s: %s", o->name, err);
		} else if (ret == 0) {
			/* paths take any name */
			assert_true(strcmp(o->name, "logfile") == 0 ||
				    strcmp(o->name, "json-file") == 0 ||
				    strcmp(o->name, "capture") == 0 ||
				    strcmp(o->name, "replay") == 0 ||
				    strcmp(o->name, "per-flow") == 0);
		} else {
			char key[64];

			snprintf(key, sizeof(key), "for key '%s'", o->name);
			assert_error_at(err, 1, key);
		}
	}
}

/* The examples in config/ load, and each is a complete, valid test. */
static void
test_examples(void **state)
{
	DIR *d = opendir(NB_CONFIG_DIR);
	struct dirent *e;
	unsigned int n = 0;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		struct nb_config cfg;
		char err[ERRLEN], file[512];

		if (len < 5 || strcmp(e->d_name + len - 4, ".ini") != 0)
			continue;
		snprintf(file, sizeof(file), "%s/%s", NB_CONFIG_DIR, e->d_name);
		nb_config_defaults(&cfg);
		if (nb_config_load(&cfg, file, err, ERRLEN) != 0)
			fail_msg("%s", err);
		if (nb_config_check(&cfg, err, ERRLEN) != 0)
			fail_msg("%s: %s", file, err);
		n++;
	}
	closedir(d);
	assert_true(n >= 3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_applied),
		cmocka_unit_test(test_command_line_wins),
		cmocka_unit_test(test_errors_name_file_line_key),
		cmocka_unit_test(test_security_keys),
		cmocka_unit_test(test_no_auth_file),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_examples),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
