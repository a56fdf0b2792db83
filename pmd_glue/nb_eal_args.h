/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The EAL options the tool was given, as it saw them before rte_eal_init()
 * (which reorders argv): the hugepage and shared-config choices that say
 * what the process leaves on disk (nb_tidy.h), and the --vdev strings
 * (nb_vdev_check.h).  EAL's own internal configuration is not public API.
 */
#ifndef NB_EAL_ARGS_H
#define NB_EAL_ARGS_H

#include <limits.h>

#define NB_EAL_VDEVS   32
#define NB_EAL_VDEV_SZ 512

/* --huge-unlink's forms (DPDK 22.11) */
enum nb_huge_unlink {
	NB_HUGE_UNLINK_EXISTING = 0, /* the default: stale files removed */
	NB_HUGE_UNLINK_ALWAYS,	     /* --huge-unlink[=always]: no files */
	NB_HUGE_UNLINK_NEVER,	     /* --huge-unlink=never: files reused */
};

struct nb_eal_args {
	char file_prefix[256];	 /* --file-prefix, or EAL's "rte" */
	char huge_dir[PATH_MAX]; /* --huge-dir, "" when not given */
	int in_memory;		 /* --in-memory */
	int no_huge;		 /* --no-huge */
	int no_shconf;		 /* --no-shconf (or --in-memory) */
	int secondary;		 /* --proc-type secondary */
	enum nb_huge_unlink huge_unlink;
	unsigned int mem_mb; /* -m, or the sum of --socket-mem; 0 */
	unsigned int nb_vdevs;
	char vdevs[NB_EAL_VDEVS][NB_EAL_VDEV_SZ]; /* --vdev, in order */
};

/* Note argv[1..argc-1], the arguments before '--'. */
void nb_eal_args_note(int argc, char **argv);
/* What nb_eal_args_note() saw (all zero before it). */
const struct nb_eal_args *nb_eal_args(void);

#endif /* NB_EAL_ARGS_H */
