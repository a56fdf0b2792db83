/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The option table: one entry per option drives parsing, --help and the man
 * page text.  Pure.
 */
#ifndef NB_OPTIONS_H
#define NB_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "nb_config.h"

struct nb_option {
	const char *name; /* long name without "--" */
	char short_name;  /* 0 if none */
	const char *arg;  /* argument placeholder, NULL for a flag */
	/* Applies a value; returns 0 or -errno and may write a reason. */
	int (*apply)(struct nb_config *cfg, const char *val, char *why,
		     size_t whylen);
	const char *help;
};

extern const struct nb_option nb_options[];
extern const size_t nb_nb_options;

/* Defaults for every field. */
void nb_config_defaults(struct nb_config *cfg);

/*
 * Parse the tool's arguments (those after EAL's "--"; argv[0] is not an
 * option).  Accepts "--name value", "--name=value" and "-x value".  On error
 * returns -EINVAL and writes a message naming the offending token into err.
 */
int nb_options_parse(struct nb_config *cfg, int argc, char **argv, char *err,
		     size_t errlen);

/*
 * Checks that need all options at once (e.g. --packets with --bytes), and
 * derives what follows from them (the mode, and for --reflector the port
 * lists and the destination MAC).
 */
int nb_config_check(struct nb_config *cfg, char *err, size_t errlen);

void nb_options_usage(FILE *f, const char *prog);

#endif /* NB_OPTIONS_H */
