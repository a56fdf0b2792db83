/* SPDX-License-Identifier: BSD-3-Clause */
/* The option tests' shared helpers: see opt_fixtures.h. */
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

char dir_path[64], key_path[80], short_path[80], crlf_path[80];

uint32_t
ip4(unsigned int a, unsigned int b, unsigned int c, unsigned int d)
{
	return (uint32_t)a << 24 | (uint32_t)b << 16 | (uint32_t)c << 8 | d;
}

/* Parse a NULL-terminated list of tokens (argv[0] is added here). */
int
parse_tokens(struct nb_config *cfg, const char *const *toks, char *err)
{
	char *argv[64];
	int argc = 0;

	argv[argc++] = (char *)"dpdk-nbench";
	while (*toks != NULL) {
		assert_true(argc < 63);
		argv[argc++] = (char *)*toks++;
	}
	argv[argc] = NULL;
	nb_config_defaults(cfg);
	err[0] = '\0';
	return nb_options_parse(cfg, argc, argv, err, ERRLEN);
}

void
write_file(const char *path, const char *data, size_t n, mode_t mode)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

int
setup_keys(void **state)
{
	(void)state;
	snprintf(dir_path, sizeof(dir_path), "/tmp/nb-test-options.XXXXXX");
	if (mkdtemp(dir_path) == NULL)
		return -1;
	snprintf(key_path, sizeof(key_path), "%s/key", dir_path);
	snprintf(short_path, sizeof(short_path), "%s/short", dir_path);
	snprintf(crlf_path, sizeof(crlf_path), "%s/crlf", dir_path);
	/* NB_MIN_PSK (32) bytes; 31; 34 and a CRLF */
	write_file(key_path, KEY32 "\n", 33, 0600);
	write_file(short_path, KEY32_HEAD31 "\n", 32, 0600);
	write_file(crlf_path, KEY32 "XY\r\n", 36, 0600);
	return 0;
}

int
teardown_keys(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir_path);
	return system(cmd) == 0 ? 0 : -1;
}

void
expect_error(const char *const *toks, const char *needle, const char *needle2)
{
	struct nb_config cfg;
	char err[ERRLEN];
	int rc = parse_tokens(&cfg, toks, err);

	if (rc != -EINVAL)
		fail_msg("'%s ...' returned %d, expected -EINVAL", toks[0], rc);
	if (strstr(err, needle) == NULL)
		fail_msg("error '%s' does not name '%s'", err, needle);
	if (needle2 != NULL && strstr(err, needle2) == NULL)
		fail_msg("error '%s' does not name '%s'", err, needle2);
}

int
check(const char *const *toks, char *err)
{
	struct nb_config cfg;
	int rc = parse_tokens(&cfg, toks, err);

	if (rc != 0)
		fail_msg("parse failed: %s", err);
	err[0] = '\0';
	return nb_config_check(&cfg, err, ERRLEN);
}

/* Suites and sweeps: what they need, what they exclude, the sizes. */
int
check_cfg(struct nb_config *cfg, const char *const *toks, char *err)
{
	if (parse_tokens(cfg, toks, err) != 0)
		return -EINVAL;
	return nb_config_check(cfg, err, ERRLEN);
}

void
check_parsed(const struct opt_case *c, char **argv, int argc)
{
	struct nb_config cfg;
	char err[ERRLEN] = "";
	int rc;

	nb_config_defaults(&cfg);
	rc = nb_options_parse(&cfg, argc, argv, err, ERRLEN);
	if (rc != 0)
		fail_msg("'%s %s' failed: %s", argv[1], argc > 2 ? argv[2] : "",
			 err);
	c->check(&cfg);
}
