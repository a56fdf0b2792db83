/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: the --config INI loader (nb_config_load, then
 * nb_config_check).
 *
 * nb_config_load takes a path, so each input is written to one file (in
 * $TMPDIR, else /dev/shm, else /tmp; removed at exit) and loaded from
 * there.  An input starting with '!' is loaded after the command line
 * "--time 5 --size 64" (that '!' removed), so the keys the command line
 * gave are skipped.  Checked: the result is 0, -EINVAL or -EIO, and an
 * error message is a NUL-terminated string within the buffer given.
 */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nb_options.h"

#include "nb_fuzz.h"

#define ERRLEN 512

static char path[256];

static void
remove_file(void)
{
	unlink(path);
}

static void
pick_path(void)
{
	const char *dir = getenv("TMPDIR");
	struct stat st;

	if (dir == NULL || dir[0] == '\0')
		dir = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) &&
				      access("/dev/shm", W_OK) == 0
			      ? "/dev/shm"
			      : "/tmp";
	snprintf(path, sizeof(path), "%s/nb-fuzz-config-%ld.ini", dir,
		 (long)getpid());
	atexit(remove_file);
}

static void
check_err(const char *err)
{
	size_t i;

	NB_FUZZ_CHECK(memchr(err, '\0', ERRLEN) != NULL);
	for (i = ERRLEN; i < ERRLEN + 8; i++)
		NB_FUZZ_CHECK(err[i] == 0x5a);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *cli[] = {"dpdk-nbench", "--time", "5", "--size", "64"};
	char err[ERRLEN + 8];
	struct nb_config cfg;
	FILE *f;
	int r;

	if (path[0] == '\0')
		pick_path();
	nb_config_defaults(&cfg);
	if (size > 0 && data[0] == '!') {
		memset(err, 0x5a, sizeof(err));
		NB_FUZZ_CHECK(nb_options_parse(&cfg, 5, cli, err, ERRLEN) == 0);
		data++;
		size--;
	}
	f = fopen(path, "wb");
	if (f == NULL || (size > 0 && fwrite(data, 1, size, f) != size) ||
	    fclose(f) != 0) {
		perror(path);
		abort();
	}

	memset(err, 0x5a, sizeof(err));
	r = nb_config_load(&cfg, path, err, ERRLEN);
	NB_FUZZ_CHECK(r == 0 || r == -EINVAL || r == -EIO);
	if (r != 0) {
		check_err(err);
		return 0;
	}
	memset(err, 0x5a, sizeof(err));
	r = nb_config_check(&cfg, err, ERRLEN);
	NB_FUZZ_CHECK(r <= 0);
	if (r != 0)
		check_err(err);
	return 0;
}
