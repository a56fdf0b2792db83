/* SPDX-License-Identifier: BSD-3-Clause */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <linux/magic.h>

#include "nb_eal_args.h"
#include "nb_hugeinfo.h"

#define SYS_HP	     "/sys/kernel/mm/hugepages"
#define MAX_PREFIXES 32
#define MIB	     (1024.0 * 1024.0)

static uint64_t
mount_pagesz(const char *opts)
{
	const char *p = strstr(opts, "pagesize=");
	char *end;
	uint64_t v;

	if (p == NULL)
		return 0; /* the default size */
	v = strtoull(p + 9, &end, 10);
	if (*end == 'K' || *end == 'k')
		v <<= 10;
	else if (*end == 'M' || *end == 'm')
		v <<= 20;
	else if (*end == 'G' || *end == 'g')
		v <<= 30;
	return v;
}

static int
listed(char dirs[][PATH_MAX], unsigned int n, const char *d)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (strcmp(dirs[i], d) == 0)
			return 1;
	return 0;
}

unsigned int
nb_huge_dirs(char dirs[][PATH_MAX], uint64_t *pagesz, unsigned int max)
{
	const struct nb_eal_args *a = nb_eal_args();
	char dev[256], mnt[PATH_MAX], type[64], opts[512];
	unsigned int n = 0;
	FILE *f;

	if (a->huge_dir[0] && n < max) {
		if (pagesz != NULL)
			pagesz[n] = 0;
		/* as /proc/mounts spells it ("/dev/hugepages/" is that mount)
		 */
		if (realpath(a->huge_dir, dirs[n]) == NULL)
			snprintf(dirs[n], PATH_MAX, "%s", a->huge_dir);
		n++;
	}
	f = fopen("/proc/mounts", "r");
	if (f == NULL)
		return n;
	while (n < max && fscanf(f, "%255s %4095s %63s %511s %*d %*d", dev, mnt,
				 type, opts) == 4) {
		if (strcmp(type, "hugetlbfs") != 0 || listed(dirs, n, mnt))
			continue;
		if (pagesz != NULL)
			pagesz[n] = mount_pagesz(opts);
		snprintf(dirs[n++], PATH_MAX, "%s", mnt);
	}
	fclose(f);
	return n;
}

int
nb_huge_file_of(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = name + n + 4;

	if (strncmp(name, prefix, n) != 0 || strncmp(name + n, "map_", 4) != 0)
		return 0;
	if (*p == '\0')
		return 0;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

/* Another prefix's files in one directory. */
struct other {
	char prefix[128];
	const char *dir;
	unsigned int files, held;
	uint64_t bytes;
};

static void
count_file(struct other *o, unsigned int *n, const char *dir, int dfd,
	   const char *name)
{
	const char *m = strstr(name, "map_"), *next;
	struct stat st;
	unsigned int i;
	int fd;

	/* the prefix: everything before the last "map_" */
	while (m != NULL && (next = strstr(m + 1, "map_")) != NULL)
		m = next;
	if (m == NULL || (size_t)(m - name) >= sizeof(o->prefix))
		return;
	for (i = 0; i < *n; i++)
		if (o[i].dir == dir &&
		    strlen(o[i].prefix) == (size_t)(m - name) &&
		    strncmp(o[i].prefix, name, (size_t)(m - name)) == 0)
			break;
	if (i == *n) {
		if (*n == MAX_PREFIXES)
			return;
		memset(&o[i], 0, sizeof(o[i]));
		snprintf(o[i].prefix, sizeof(o[i].prefix), "%.*s",
			 (int)(m - name), name);
		o[i].dir = dir;
		(*n)++;
	}
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0) {
		o[i].files++;
		o[i].bytes += (uint64_t)st.st_blocks * 512;
		/* a process that maps it holds a shared lock (EAL) */
		if (flock(fd, LOCK_EX | LOCK_NB) != 0)
			o[i].held++;
	}
	close(fd);
}

static unsigned int
scan_others(char dirs[][PATH_MAX], unsigned int nd, const char *own,
	    struct other *o)
{
	unsigned int n = 0, i;

	for (i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;

		if (d == NULL)
			continue;
		while ((e = readdir(d)) != NULL)
			if (fnmatch("*map_*", e->d_name, 0) == 0 &&
			    !nb_huge_file_of(e->d_name, own))
				count_file(o, &n, dirs[i], dirfd(d), e->d_name);
		closedir(d);
	}
	return n;
}

void
nb_huge_rundir(const char *prefix, char *buf, size_t len)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");

	/* EAL 22.11's rule (create_runtime_dir): root /var/run, anyone else
	 * $XDG_RUNTIME_DIR, or /tmp without it; by the real uid */
	if (getuid() == 0)
		snprintf(buf, len, "/var/run/dpdk/%s", prefix);
	else
		snprintf(buf, len, "%s/dpdk/%s", xdg != NULL ? xdg : "/tmp",
			 prefix);
}

int
nb_huge_prefix_running(const char *prefix)
{
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
	char path[PATH_MAX + 8];
	int fd, alive = 0;

	nb_huge_rundir(prefix, path, PATH_MAX);
	strcat(path, "/config");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
		alive = 1;
	close(fd);
	return alive;
}

#define ADD(...)                                                               \
	do {                                                                   \
		if (*off < len)                                                \
			*off += (size_t)snprintf(buf + *off, len - *off,       \
						 __VA_ARGS__);                 \
	} while (0)

/* "2048 kB pages: 3 of 512 free on the host" for each size reserved. */
static void
host_pages(char *buf, size_t len, size_t *off)
{
	DIR *d = opendir(SYS_HP);
	struct dirent *e;
	int any = 0;

	if (d == NULL) {
		ADD("no hugepage support in this kernel (%s)", SYS_HP);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		unsigned long nr = 0, fr = 0;
		char p[PATH_MAX];
		FILE *f;

		if (strncmp(e->d_name, "hugepages-", 10) != 0)
			continue;
		snprintf(p, sizeof(p), SYS_HP "/%s/nr_hugepages", e->d_name);
		f = fopen(p, "r");
		if (f == NULL || fscanf(f, "%lu", &nr) != 1)
			nr = 0;
		if (f != NULL)
			fclose(f);
		snprintf(p, sizeof(p), SYS_HP "/%s/free_hugepages", e->d_name);
		f = fopen(p, "r");
		if (f == NULL || fscanf(f, "%lu", &fr) != 1)
			fr = 0;
		if (f != NULL)
			fclose(f);
		if (nr == 0)
			continue;
		ADD("%s%s pages: %lu of %lu free on the host", any ? "; " : "",
		    e->d_name + 10, fr, nr);
		any = 1;
	}
	closedir(d);
	if (!any)
		ADD("no hugepages reserved on the host");
}

/* A --huge-dir mount with a size= limit: its pages and what is free. */
static void
dir_limit(char *buf, size_t len, size_t *off)
{
	const char *dir = nb_eal_args()->huge_dir;
	struct statfs s;

	if (dir[0] == '\0')
		return;
	if (statfs(dir, &s) != 0) {
		ADD("; --huge-dir %s: %s", dir, strerror(errno));
		return;
	}
	if (s.f_type != HUGETLBFS_MAGIC) {
		ADD("; --huge-dir %s is not in a hugetlbfs mount", dir);
		return;
	}
	if (s.f_blocks == 0 || s.f_blocks == (__typeof__(s.f_blocks))-1) {
		ADD("; --huge-dir %s has no size limit", dir);
		return;
	}
	ADD("; --huge-dir %s holds at most %llu pages (%.0f MiB), %llu free "
	    "(%.0f MiB)",
	    dir, (unsigned long long)s.f_blocks,
	    (double)s.f_blocks * (double)s.f_bsize / MIB,
	    (unsigned long long)s.f_bfree,
	    (double)s.f_bfree * (double)s.f_bsize / MIB);
}

static void
other_text(const struct other *o, char *buf, size_t len, size_t *off)
{
	ADD("%s (%u file%s, %.0f MiB in %s, ", o->prefix, o->files,
	    o->files == 1 ? "" : "s", (double)o->bytes / MIB, o->dir);
	if (nb_huge_prefix_running(o->prefix))
		ADD("its process is running)");
	else if (o->held)
		ADD("no DPDK process with that prefix runs, but another "
		    "process still holds %u of them)",
		    o->held);
	else
		ADD("from a process no longer running)");
}

void
nb_huge_explain(const char *own_prefix, char *buf, size_t len)
{
	char dirs[NB_HUGE_DIRS][PATH_MAX];
	struct other o[MAX_PREFIXES];
	unsigned int nd = nb_huge_dirs(dirs, NULL, NB_HUGE_DIRS), n, i;
	uint64_t total = 0, stale = 0;
	size_t used = 0, *off = &used;

	if (len == 0)
		return;
	buf[0] = '\0';
	if (nb_eal_args()->mem_mb)
		ADD("-m/--socket-mem asks for %u MiB at start; ",
		    nb_eal_args()->mem_mb);
	host_pages(buf, len, off);
	dir_limit(buf, len, off);
	n = scan_others(dirs, nd, own_prefix, o);
	for (i = 0; i < n; i++) {
		total += o[i].bytes;
		if (o[i].held == 0 && !nb_huge_prefix_running(o[i].prefix))
			stale += o[i].bytes;
	}
	if (total > 0) {
		ADD("; hugepage files of other file prefixes hold %.0f MiB: ",
		    (double)total / MIB);
		for (i = 0; i < n; i++) {
			ADD("%s", i ? ", " : "");
			other_text(&o[i], buf, len, off);
		}
	}
	if (stale > 0)
		ADD("; remove the files of processes no longer running (see "
		    "hugepages.md, 'Hugepage files left behind')");
	else
		ADD("; see hugepages.md");
}
