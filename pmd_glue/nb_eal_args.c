/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_eal_args.h"

static struct nb_eal_args args;

/*
 * The value of option name at argv[*i]: "--name=V" or "--name V" (then
 * *i moves past V); NULL when argv[*i] is not that option.
 */
static const char *
opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] != '\0')
		return NULL;
	if (*i + 1 >= argc)
		return NULL;
	(*i)++;
	return argv[*i];
}

static unsigned int
mem_sum(const char *list)
{
	unsigned int sum = 0;
	const char *p = list;

	while (*p) {
		sum += (unsigned int)strtoul(p, NULL, 10);
		p = strchr(p, ',');
		if (p == NULL)
			break;
		p++;
	}
	return sum;
}

static void
note_flag(const char *a)
{
	if (strcmp(a, "--in-memory") == 0) {
		args.in_memory = 1;
		args.no_shconf = 1;
	} else if (strcmp(a, "--no-huge") == 0) {
		args.no_huge = 1;
	} else if (strcmp(a, "--no-shconf") == 0) {
		args.no_shconf = 1;
	} else if (strcmp(a, "--huge-unlink") == 0 ||
		   strcmp(a, "--huge-unlink=always") == 0) {
		args.huge_unlink = NB_HUGE_UNLINK_ALWAYS;
	} else if (strcmp(a, "--huge-unlink=never") == 0) {
		args.huge_unlink = NB_HUGE_UNLINK_NEVER;
	}
}

void
nb_eal_args_note(int argc, char **argv)
{
	const char *v;
	int i;

	memset(&args, 0, sizeof(args));
	snprintf(args.file_prefix, sizeof(args.file_prefix), "rte");
	for (i = 1; i < argc; i++) {
		if ((v = opt_value(argc, argv, &i, "--file-prefix")) != NULL) {
			snprintf(args.file_prefix, sizeof(args.file_prefix),
				 "%s", v);
		} else if ((v = opt_value(argc, argv, &i, "--huge-dir")) !=
			   NULL) {
			snprintf(args.huge_dir, sizeof(args.huge_dir), "%s", v);
		} else if ((v = opt_value(argc, argv, &i, "--proc-type")) !=
			   NULL) {
			args.secondary = strcmp(v, "secondary") == 0;
		} else if ((v = opt_value(argc, argv, &i, "--socket-mem")) !=
			   NULL) {
			args.mem_mb = mem_sum(v);
		} else if ((v = opt_value(argc, argv, &i, "-m")) != NULL) {
			args.mem_mb = (unsigned int)strtoul(v, NULL, 10);
		} else if ((v = opt_value(argc, argv, &i, "--vdev")) != NULL) {
			if (args.nb_vdevs < NB_EAL_VDEVS)
				snprintf(args.vdevs[args.nb_vdevs++],
					 NB_EAL_VDEV_SZ, "%s", v);
		} else {
			note_flag(argv[i]);
		}
	}
}

const struct nb_eal_args *
nb_eal_args(void)
{
	return &args;
}
