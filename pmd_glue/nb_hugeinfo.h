/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where the hugepages are, for a tidy exit (nb_tidy.h) and for messages
 * that say why memory ran out: the hugetlbfs mounts (/proc/mounts), each
 * mount's own limit (a size= mount option: statfs), the host's free pages
 * per size (sysfs), and the hugepage files of other file prefixes that
 * hold pages, with whether a process still holds them.
 */
#ifndef NB_HUGEINFO_H
#define NB_HUGEINFO_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#define NB_HUGE_DIRS 16

/*
 * The directories hugepage files may be in: --huge-dir first when given,
 * then every hugetlbfs mount point; pagesz[i] (if not NULL) its page size
 * in bytes (0 for --huge-dir).  Returns how many.
 */
unsigned int nb_huge_dirs(char dirs[][PATH_MAX], uint64_t *pagesz,
			  unsigned int max);

/* 1 when name is a hugepage file of prefix: "<prefix>map_<digits>". */
int nb_huge_file_of(const char *name, const char *prefix);

/* The runtime directory EAL gives prefix: /var/run/dpdk/<prefix> for
 * root, else $XDG_RUNTIME_DIR/dpdk/<prefix>. */
void nb_huge_rundir(const char *prefix, char *buf, size_t len);

/*
 * 1 when a DPDK primary process runs with file prefix prefix: it holds a
 * write lock on its runtime directory's config file (a lock of this
 * process's own does not count).
 */
int nb_huge_prefix_running(const char *prefix);

/*
 * Why hugepage memory may be short, in one line for an error message
 * (own_prefix: this process's file prefix, whose files are not counted
 * as another's): the free pages of each size on the host, a --huge-dir
 * mount's own limit and what is free in it, and other prefixes' files
 * that hold pages (prefix, files, MiB, mount, and whether any process
 * still holds them or runs with that prefix).
 */
void nb_huge_explain(const char *own_prefix, char *buf, size_t len);

#endif /* NB_HUGEINFO_H */
