/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --config FILE: INI through libinih, keys from the option table.  The file
 * is read after the command line, so an option given there marks its table
 * entry seen and the file's key for it is skipped: the command line wins.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <ini.h>

#include "nb_options.h"

struct cfg_load {
	struct nb_config *cfg;
	const char *path;
	uint64_t cli_seen[2]; /* given on the command line: skipped */
	FILE *f;
	int line;     /* line the reader handed out last */
	int err_line; /* line of the first error the handler found, or 0 */
	char msg[320];
};

/* libinih's reader, counting lines so the handler knows where it is. */
static char *
read_line(char *str, int num, void *stream)
{
	struct cfg_load *l = stream;
	char *r = fgets(str, num, l->f);

	if (r != NULL)
		l->line++;
	return r;
}

static int
parse_bool(const char *v, int *out)
{
	static const char *const yes[] = {"true", "yes", "on", "1"};
	static const char *const no[] = {"false", "no", "off", "0"};
	size_t i;

	for (i = 0; i < 4; i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = 1;
			return 0;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	return -EINVAL;
}

static int
on_key(void *user, const char *section, const char *name, const char *value)
{
	struct cfg_load *l = user;
	const struct nb_option *o;
	int idx, on;

	(void)section; /* sections only group keys for the reader */
	if (l->err_line)
		return 1; /* report the first error only */
	idx = nb_option_find(name, strlen(name));
	if (idx < 0) {
		snprintf(l->msg, sizeof(l->msg),
			 "unknown key '%s' (keys are the long option names "
			 "without '--'; see --help)",
			 name);
		goto fail;
	}
	o = &nb_options[idx];
	if (o->flags & NB_OPT_CLI_ONLY) {
		snprintf(l->msg, sizeof(l->msg),
			 "key '%s' is for the command line only", name);
		goto fail;
	}
	if (l->cli_seen[NB_OPT_WORD(idx)] & NB_OPT_BIT(idx))
		return 1; /* the command line gave it: it wins */
	if (o->arg == NULL) {
		if (parse_bool(value, &on) != 0) {
			snprintf(l->msg, sizeof(l->msg),
				 "bad value '%s' for key '%s': expected true "
				 "or false",
				 value, name);
			goto fail;
		}
		if (!on) {
			/* still a repeat if given again */
			if (l->cfg->seen[NB_OPT_WORD(idx)] & NB_OPT_BIT(idx)) {
				snprintf(l->msg, sizeof(l->msg),
					 "key '%s' given twice", name);
				goto fail;
			}
			l->cfg->seen[NB_OPT_WORD(idx)] |= NB_OPT_BIT(idx);
			return 1;
		}
		value = NULL;
	}
	if (nb_option_apply(l->cfg, (size_t)idx, value, 1, l->msg,
			    sizeof(l->msg)) != 0)
		goto fail;
	return 1;
fail:
	l->err_line = l->line;
	return 0;
}

int
nb_config_load(struct nb_config *cfg, const char *path, char *err,
	       size_t errlen)
{
	struct cfg_load l;
	struct stat st;
	int ret;

	memset(&l, 0, sizeof(l));
	l.cfg = cfg;
	l.path = path;
	memcpy(l.cli_seen, cfg->seen, sizeof(l.cli_seen));
	l.f = fopen(path, "r");
	if (l.f == NULL) {
		ret = -errno;
		snprintf(err, errlen, "cannot read config file '%s': %s", path,
			 strerror(errno));
		return ret;
	}
	/* fopen() opens a directory, and it reads as an empty file */
	if (fstat(fileno(l.f), &st) != 0 || !S_ISREG(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		snprintf(err, errlen, "cannot read config file '%s': %s", path,
			 S_ISDIR(st.st_mode) ? "it is a directory"
					     : "not a regular file");
		fclose(l.f);
		return ret;
	}
	/* A value never continues on an indented next line: that is a
	 * mistake in a file of options, not a feature. */
	ini_allow_multiline = false;
	ret = ini_parse_stream(read_line, &l, on_key, &l);
	fclose(l.f);
	if (ret == 0)
		return 0;
	if (ret > 0 && l.err_line == ret) {
		snprintf(err, errlen, "%s:%d: %s", path, ret, l.msg);
	} else if (ret > 0) {
		snprintf(err, errlen,
			 "%s:%d: syntax error: expected 'key = value', "
			 "'[section]' or a comment (; or #), lines of at most "
			 "%d characters",
			 path, ret, 199);
	} else {
		snprintf(err, errlen, "cannot read config file '%s'", path);
		return -EIO;
	}
	return -EINVAL;
}
