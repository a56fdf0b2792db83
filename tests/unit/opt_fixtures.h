/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the option tests share: parsing a token list on fresh defaults, the
 * checks after it, expected errors, the key files, and the table of one
 * case per option (opt_cases.c).
 */
#ifndef OPT_FIXTURES_H
#define OPT_FIXTURES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "nb_options.h"

#define ERRLEN 512

/* One case per option: a valid value and a check of its effect. */
struct opt_case {
	const char *name;
	char short_name;
	const char *value; /* NULL for a flag */
	void (*check)(const struct nb_config *cfg);
	const char *bad[6]; /* rejected values, NULL-terminated */
};

/* One case per option, in no particular order (opt_cases.c). */
extern const struct opt_case cases[];
extern const size_t nb_cases;
const struct opt_case *find_case(const char *name);
/* argv parsed on defaults: accepted, and the case's check holds. */
void check_parsed(const struct opt_case *c, char **argv, int argc);

/* Key files made by setup_keys() (the cases point at these names). */
#define KEY32	     "0123456789abcdef0123456789ABCDEF"
#define KEY32_HEAD31 "0123456789abcdef0123456789ABCDE"
extern char dir_path[64], key_path[80], short_path[80], crlf_path[80];
int setup_keys(void **state);
int teardown_keys(void **state);
void write_file(const char *path, const char *data, size_t n, mode_t mode);

uint32_t ip4(unsigned int a, unsigned int b, unsigned int c, unsigned int d);

/* Parse a NULL-terminated list of tokens (argv[0] is added here). */
int parse_tokens(struct nb_config *cfg, const char *const *toks, char *err);
#define PARSE(cfg, err, ...)                                                   \
	parse_tokens((cfg), (const char *const[]){__VA_ARGS__, NULL}, (err))

/* Parsing fails with a message holding needle (and needle2 unless NULL). */
void expect_error(const char *const *toks, const char *needle,
		  const char *needle2);
#define EXPECT_ERROR(needle, needle2, ...)                                     \
	expect_error((const char *const[]){__VA_ARGS__, NULL}, (needle),       \
		     (needle2))

/* Parse, then nb_config_check: its result, the message in err. */
int check(const char *const *toks, char *err);
#define CHECK(err, ...) check((const char *const[]){__VA_ARGS__, NULL}, (err))
int check_cfg(struct nb_config *cfg, const char *const *toks, char *err);
#define CHECK_CFG(cfg, err, ...)                                               \
	check_cfg((cfg), (const char *const[]){__VA_ARGS__, NULL}, (err))

#endif /* OPT_FIXTURES_H */
