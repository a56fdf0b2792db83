/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: the command line (nb_options_parse, then nb_config_check).
 *
 * The input is the argument list: tokens separated by newlines (or NULs),
 * after an implicit argv[0].  Checked: the result is 0 or -EINVAL, and an
 * error message is a NUL-terminated string within the buffer given.
 */
#include <errno.h>

#include "nb_options.h"

#include "nb_fuzz.h"

#define MAX_ARGS 128
#define ERRLEN	 256

static void
check_err(const char *err)
{
	size_t i;

	NB_FUZZ_CHECK(memchr(err, '\0', ERRLEN) != NULL);
	for (i = ERRLEN; i < ERRLEN + 8; i++)
		NB_FUZZ_CHECK(err[i] == 0x5a);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = nb_fuzz_str(data, size), *argv[MAX_ARGS + 1];
	char err[ERRLEN + 8];
	struct nb_config cfg;
	size_t i, start = 0;
	int argc = 1, r;

	argv[0] = (char *)"dpdk-nbench";
	for (i = 0; i <= size && argc < MAX_ARGS; i++) {
		if (i == size || text[i] == '\n' || text[i] == '\0') {
			text[i] = '\0';
			argv[argc++] = text + start;
			start = i + 1;
		}
	}
	argv[argc] = NULL;
	if (size == 0)
		argc = 1; /* no arguments at all */

	nb_config_defaults(&cfg);
	memset(err, 0x5a, sizeof(err));
	r = nb_options_parse(&cfg, argc, argv, err, ERRLEN);
	NB_FUZZ_CHECK(r == 0 || r == -EINVAL);
	if (r != 0) {
		check_err(err);
		goto out;
	}
	memset(err, 0x5a, sizeof(err));
	r = nb_config_check(&cfg, err, ERRLEN);
	NB_FUZZ_CHECK(r <= 0);
	if (r != 0)
		check_err(err);
out:
	free(text);
	return 0;
}
