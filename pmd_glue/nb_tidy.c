/* SPDX-License-Identifier: BSD-3-Clause */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_eal.h>

#include "nb_eal_args.h"
#include "nb_hugeinfo.h"
#include "nb_log.h"
#include "nb_tidy.h"

/* What the tidy-up found and did, for its debug line. */
static struct {
	unsigned int removed; /* hugepage files unlinked */
	uint64_t bytes;	      /* the memory they held */
	unsigned int held;    /* files of ours another process holds */
	unsigned int rundir;  /* runtime directory entries removed */
} counts;

/*
 * Unlink dir/name if no process holds it: every process that maps a
 * hugepage file holds a shared flock on it (EAL's own test before it
 * deletes stale files), so an exclusive one fails while one does.
 */
static void
unlink_unheld(int dfd, const char *name)
{
	struct stat st;
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		counts.held++;
	} else if (fstat(fd, &st) == 0 && unlinkat(dfd, name, 0) == 0) {
		counts.removed++;
		counts.bytes += (uint64_t)st.st_blocks * 512;
	}
	close(fd);
}

/* Our prefix's hugepage files in dir. */
static void
tidy_hugedir(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (nb_huge_file_of(e->d_name, prefix))
			unlink_unheld(dirfd(d), e->d_name);
	closedir(d);
}

/* What EAL puts in a runtime directory (and nothing else of it). */
static int
eal_runtime_file(const char *name)
{
	static const char *const pat[] = {
		"config",      "hugepage_info",	    "fbarray_*", "mp_socket",
		"mp_socket_*", "dpdk_telemetry.v*", "telemetry", "bus_pci_*",
	};
	unsigned int i;

	for (i = 0; i < sizeof(pat) / sizeof(pat[0]); i++)
		if (fnmatch(pat[i], name, 0) == 0)
			return 1;
	return 0;
}

/* The runtime directory's EAL files, then the directory if empty. */
static void
tidy_rundir(const char *rundir)
{
	DIR *d = opendir(rundir);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (eal_runtime_file(e->d_name) &&
		    unlinkat(dirfd(d), e->d_name, 0) == 0)
			counts.rundir++;
	closedir(d);
	if (rmdir(rundir) != 0 && errno != ENOENT)
		NB_LOG(DEBUG, "runtime directory %s stays: %s", rundir,
		       strerror(errno));
}

static void
tidy(const char *rundir, const char *prefix)
{
	const struct nb_eal_args *a = nb_eal_args();
	char dirs[NB_HUGE_DIRS][PATH_MAX];
	unsigned int n = 0, i;

	/* --huge-unlink=never keeps the files for the next run to reuse */
	if (!a->in_memory && !a->no_huge &&
	    a->huge_unlink != NB_HUGE_UNLINK_NEVER)
		n = nb_huge_dirs(dirs, NULL, NB_HUGE_DIRS);
	for (i = 0; i < n; i++)
		tidy_hugedir(dirs[i], prefix);
	/* a process that still maps our files may still want the rest, and
	 * a primary started with our prefix since (its config file locked;
	 * our own lock, if EAL kept it, does not show to F_GETLK) owns it */
	if (counts.held == 0 && !nb_huge_prefix_running(prefix))
		tidy_rundir(rundir);
	if (counts.held != 0)
		NB_LOG(NOTICE,
		       "%u hugepage files of prefix %s are still mapped by "
		       "another process (a secondary such as dpdk-dumpcap?): "
		       "left, with %s",
		       counts.held, prefix, rundir);
	NB_LOG(DEBUG,
	       "exit: %u hugepage files of prefix %s removed (%.1f MiB), %u "
	       "files of %s",
	       counts.removed, prefix, (double)counts.bytes / (1 << 20),
	       counts.rundir, rundir);
}

int
nb_tidy_eal_cleanup(void)
{
	char rundir[PATH_MAX], copy[PATH_MAX], prefix[PATH_MAX];
	int primary = rte_eal_process_type() == RTE_PROC_PRIMARY, ret;

	snprintf(rundir, sizeof(rundir), "%s", rte_eal_get_runtime_dir());
	snprintf(copy, sizeof(copy), "%s", rundir);
	snprintf(prefix, sizeof(prefix), "%s", basename(copy));
	ret = rte_eal_cleanup();
	if (ret != 0 || !primary || nb_eal_args()->secondary)
		return ret;
	tidy(rundir, prefix);
	return 0;
}

void
nb_tidy_failed_init(void)
{
	const char *prefix = nb_eal_args()->file_prefix;
	char rundir[PATH_MAX];

	/* the prefix's files are another primary's while it runs */
	if (nb_eal_args()->secondary || nb_huge_prefix_running(prefix))
		return;
	nb_huge_rundir(prefix, rundir, sizeof(rundir));
	tidy(rundir, prefix);
}
