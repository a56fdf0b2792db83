/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command line against the option table: long and short names, values
 * inline or after, the repeat check, and --help.  The table is in
 * nb_opt_table.c, the checks across options in nb_opt_check.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_options.h"

int
nb_option_find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < nb_nb_options; i++) {
		if (nb_options[i].name != NULL &&
		    strlen(nb_options[i].name) == len &&
		    strncmp(nb_options[i].name, name, len) == 0)
			return (int)i;
	}
	return -1;
}

static int
find_short(char c)
{
	size_t i;

	for (i = 0; i < nb_nb_options; i++)
		if (nb_options[i].name != NULL && c != 0 &&
		    nb_options[i].short_name == c)
			return (int)i;
	return -1;
}

int
nb_option_apply(struct nb_config *cfg, size_t idx, const char *val,
		int from_file, char *err, size_t errlen)
{
	const struct nb_option *o = &nb_options[idx];
	char why[256] = "";

	if ((cfg->seen[NB_OPT_WORD(idx)] & NB_OPT_BIT(idx)) &&
	    !(o->flags & NB_OPT_REPEAT)) {
		snprintf(err, errlen, "%s '%s%s' given twice",
			 from_file ? "key" : "option", from_file ? "" : "--",
			 o->name);
		return -EINVAL;
	}
	cfg->seen[NB_OPT_WORD(idx)] |= NB_OPT_BIT(idx);
	cfg->given[NB_OPT_WORD(idx)] |= NB_OPT_BIT(idx);
	if (o->flags & NB_OPT_FLAG) {
		*(int *)((char *)cfg + o->flag_at) = 1;
		return 0;
	}
	if (o->apply(cfg, val, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "bad value '%s' for %s '%s%s': %s",
			 val ? val : "", from_file ? "key" : "option",
			 from_file ? "" : "--", o->name, why);
		return -EINVAL;
	}
	return 0;
}

int
nb_options_parse(struct nb_config *cfg, int argc, char **argv, char *err,
		 size_t errlen)
{
	int i, idx;

	for (i = 1; i < argc; i++) {
		const char *tok = argv[i], *val = NULL, *eq;
		const struct nb_option *o;

		if (strncmp(tok, "--", 2) == 0 && tok[2] != '\0') {
			eq = strchr(tok + 2, '=');
			idx = nb_option_find(tok + 2,
					     eq ? (size_t)(eq - tok - 2)
						: strlen(tok + 2));
			if (eq != NULL)
				val = eq + 1;
		} else if (tok[0] == '-' && tok[1] != '\0' && tok[1] != '-') {
			/* -b 1G, or -b1G as getopt takes it */
			idx = find_short(tok[1]);
			if (tok[2] != '\0' && idx >= 0) {
				if (nb_options[idx].arg == NULL) {
					snprintf(err, errlen,
						 "option '-%c' takes no value "
						 "(in '%s'; flags are not "
						 "grouped)",
						 tok[1], tok);
					return -EINVAL;
				}
				val = tok + 2;
			}
		} else {
			snprintf(err, errlen,
				 "unexpected argument '%s' (options start with "
				 "--; see --help)",
				 tok);
			return -EINVAL;
		}
		if (idx < 0) {
			snprintf(err, errlen,
				 "unknown option '%s' (see --help)", tok);
			return -EINVAL;
		}
		o = &nb_options[idx];
		if (o->arg == NULL && val != NULL) {
			snprintf(err, errlen, "option '--%s' takes no value",
				 o->name);
			return -EINVAL;
		}
		if (o->arg != NULL && val == NULL) {
			if (i + 1 >= argc) {
				snprintf(err, errlen,
					 "option '%s' needs a value %s", tok,
					 o->arg);
				return -EINVAL;
			}
			val = argv[++i];
		}
		if (nb_option_apply(cfg, (size_t)idx, val, 0, err, errlen) != 0)
			return -EINVAL;
	}
	return 0;
}

int
nb_option_is_tool_only(const char *tok)
{
	const char *eq;
	int idx;

	if (strncmp(tok, "--", 2) != 0 || tok[2] == '\0')
		return 0;
	eq = strchr(tok + 2, '=');
	idx = nb_option_find(tok + 2,
			     eq ? (size_t)(eq - tok - 2) : strlen(tok + 2));
	if (idx < 0)
		return 0;
	/* EAL's own long options of the same name */
	return strcmp(nb_options[idx].name, "help") != 0 &&
	       strcmp(nb_options[idx].name, "allow") != 0;
}

void
nb_options_usage(FILE *f, const char *prog)
{
	size_t i;
	char left[64];

	fprintf(f,
		"Usage: %s [EAL options] -- [options]\n"
		"\n"
		"Kernel-bypass network tester.  EAL options (lcores, devices,\n"
		"hugepages) go before '--', the tool's own options after it.\n"
		"On a 2-CPU host map lcores as --lcores 0@0,1@0,2@0,3@1.\n"
		"\n",
		prog);
	for (i = 0; i < nb_nb_options; i++) {
		const struct nb_option *o = &nb_options[i];

		if (o->name == NULL) {
			fprintf(f, "%s%s:\n", i ? "\n" : "", o->help);
			continue;
		}
		if (o->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s",
				 o->short_name, o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(f, "  %-26s %s\n", left, o->help);
	}
	fprintf(f,
		"\nExit status: 0 ok, 1 runtime failure or interrupted, "
		"2 usage error.\n"
		"Example (loopback over a memif pair):\n"
		"  %s --no-pci --lcores 0@0,1@0,2@0,3@1 --file-prefix nb \\\n"
		"    --vdev net_memif0,role=server,socket=/tmp/nb.sock \\\n"
		"    --vdev net_memif1,role=client,socket=/tmp/nb.sock \\\n"
		"    -- --tx-port 0 --rx-port 1 --rate 1G --size 64 --time 5\n",
		prog);
}

int
nb_option_given(const struct nb_config *cfg, const char *name)
{
	int i = nb_option_find(name, strlen(name));

	return i >= 0 && (cfg->given[NB_OPT_WORD(i)] & NB_OPT_BIT(i)) != 0;
}
