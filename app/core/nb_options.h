/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The option table: one entry per option drives parsing, --help and the man
 * page text.  Pure.  The table is nb_opt_table.c, its value parsers
 * nb_opt_values.c and nb_opt_peer.c, the parser and --help nb_options.c,
 * the cross-checks nb_opt_check.c, the defaults nb_opt_defaults.c, the
 * config file nb_cfgfile.c and the man page nb_manpage.c.
 */
#ifndef NB_OPTIONS_H
#define NB_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "nb_config.h"

/* flags of an option */
#define NB_OPT_CLI_ONLY 1 /* not a config-file key (help, version, config) */
#define NB_OPT_REPEAT	2 /* may be given again: each adds (--allow) */
#define NB_OPT_FLAG	4 /* takes no value: sets the int at flag_at to 1 */

/* Option i's bit in a set of them (cfg->seen, cfg->given). */
#define NB_OPT_WORD(i) ((i) / 64)
#define NB_OPT_BIT(i)  (UINT64_C(1) << ((i) % 64))

/*
 * The modes an option applies to (a bit per enum nb_mode).  An option given
 * for another mode is a usage error: nothing is ignored silently.
 */
#define NB_IN(m)    (1u << (m))
#define NB_IN_PORTS NB_IN(NB_MODE_PORTS)
#define NB_IN_LOOP  NB_IN(NB_MODE_LOOPBACK)
#define NB_IN_REFL  NB_IN(NB_MODE_REFLECTOR)
#define NB_IN_CLI   NB_IN(NB_MODE_CLIENT)
#define NB_IN_RSP   NB_IN(NB_MODE_RESPONDER)
#define NB_IN_TEST  (NB_IN_LOOP | NB_IN_REFL | NB_IN_CLI) /* sends a test */
#define NB_IN_ALL   (NB_IN_PORTS | NB_IN_TEST | NB_IN_RSP)

/* Bounds of counts: the plan's byte and bit totals (frames x 9020 B x 8)
 * must fit 64 bits. */
#define NB_MAX_PACKETS UINT64_C(100000000000000) /* 1e14 = 100000G */
#define NB_MAX_BYTES   (UINT64_C(1) << 50)	 /* 1 PiB = 1048576G */
#define NB_MIN_TIME    0.1 /* shortest --time and --omit above 0 */
#define NB_MAX_TIME    (86400.0 * 30)

/*
 * An entry with name NULL is a section heading: help is its title (used by
 * --help, the man page and docs), and it is no option.
 */
struct nb_option {
	const char *name; /* long name without "--" */
	char short_name;  /* 0 if none */
	const char *arg;  /* argument placeholder, NULL for a flag */
	/* Applies a value; returns 0 or -errno and may write a reason.
	 * NULL for a flag (NB_OPT_FLAG) and a heading. */
	int (*apply)(struct nb_config *cfg, const char *val, char *why,
		     size_t whylen);
	const char *help;
	unsigned int flags; /* NB_OPT_* */
	unsigned int modes; /* NB_IN_* */
	size_t flag_at;	    /* NB_OPT_FLAG: offsetof the int in nb_config */
};

extern const struct nb_option nb_options[];
extern const size_t nb_nb_options;

/* Defaults for every field. */
void nb_config_defaults(struct nb_config *cfg);

/*
 * Parse the tool's arguments (those after EAL's "--"; argv[0] is not an
 * option).  Accepts "--name value", "--name=value", "-x value" and "-xvalue"
 * (like getopt; flags are not grouped).  On error
 * returns -EINVAL and writes a message naming the offending token into err.
 */
int nb_options_parse(struct nb_config *cfg, int argc, char **argv, char *err,
		     size_t errlen);

/*
 * Checks that need all options at once (e.g. --packets with --bytes), and
 * derives what follows from them (the mode, and for --reflector the port
 * lists and the destination MAC).  Every option given must apply to the
 * mode (the table's modes); --auth-key's file is read here.
 */
int nb_config_check(struct nb_config *cfg, char *err, size_t errlen);

void nb_options_usage(FILE *f, const char *prog);

/* Index of a long option in nb_options[], or -1 (headings never match). */
int nb_option_find(const char *name, size_t len);

/* Whether the option name was given (command line or config file). */
int nb_option_given(const struct nb_config *cfg, const char *name);

/*
 * Apply one option of the table by index: the repeat check (a second value
 * for the same option is refused), then its parser.  The message written to
 * err names the value and the option ("option '--rate'", or with from_file
 * "key 'rate'").
 */
int nb_option_apply(struct nb_config *cfg, size_t idx, const char *val,
		    int from_file, char *err, size_t errlen);

/*
 * --config FILE: an INI file whose keys are the long option names (any
 * [section] groups them for the reader; flags take true/false).  Options
 * already given on the command line win: their keys are skipped.  Errors
 * name the file, the line and the key; they return -EINVAL (-ENOENT etc.
 * when the file cannot be read).
 */
int nb_config_load(struct nb_config *cfg, const char *path, char *err,
		   size_t errlen);

/*
 * Whether a "--name" or "--name=value" token before EAL's "--" is one of
 * this tool's options rather than EAL's: the tool's long names, except those
 * EAL has too (--help, --allow).  main() uses it to say "did you forget
 * '--'?" before EAL starts.
 */
int nb_option_is_tool_only(const char *tok);

/* The man page, troff -man, from the same table (docs/dpdk-nbench.1). */
void nb_options_man(FILE *f);

#endif /* NB_OPTIONS_H */
