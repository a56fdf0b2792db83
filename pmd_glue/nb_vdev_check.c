/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_ethdev.h>

#include "nb_eal_args.h"
#include "nb_vdev_check.h"

/* The value of key in a devargs string "name,k=v,k=v" (def if absent). */
static void
devarg(const char *spec, const char *key, const char *def, char *out,
       size_t len)
{
	size_t n = strlen(key);
	const char *p = strchr(spec, ',');

	snprintf(out, len, "%s", def);
	while (p != NULL) {
		p++;
		if (strncmp(p, key, n) == 0 && p[n] == '=') {
			snprintf(out, len, "%.*s", (int)strcspn(p + n + 1, ","),
				 p + n + 1);
			return;
		}
		p = strchr(p, ',');
	}
}

/* A memif server on a socket file: is someone listening there? */
static void
memif_why(const char *name, const char *spec, char *err, size_t errlen)
{
	char role[32], abstract[16], path[108];
	struct sockaddr_un un = {.sun_family = AF_UNIX};
	struct stat st;
	int fd, ret;

	devarg(spec, "role", "client", role, sizeof(role));
	devarg(spec, "socket-abstract", "yes", abstract, sizeof(abstract));
	devarg(spec, "socket", "/run/memif.sock", path, sizeof(path));
	if (strcmp(abstract, "no") != 0 ||
	    (strcmp(role, "server") != 0 && strcmp(role, "master") != 0) ||
	    stat(path, &st) != 0) {
		snprintf(err, errlen,
			 "--vdev %s did not come up (the memif driver's "
			 "reason is logged above)",
			 name);
		return;
	}
	snprintf(un.sun_path, sizeof(un.sun_path), "%s", path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	ret = fd < 0 ? -1 : connect(fd, (struct sockaddr *)&un, sizeof(un));
	if (fd >= 0)
		close(fd);
	if (ret == 0)
		snprintf(err, errlen,
			 "--vdev %s: memif socket %s is in use: another "
			 "process listens on it (give this server a socket "
			 "path of its own)",
			 name, path);
	else
		snprintf(err, errlen,
			 "--vdev %s: memif socket %s already exists, and no "
			 "process listens on it (%s): a socket file left "
			 "behind by a process no longer running; remove it",
			 name, path, strerror(errno));
}

static void
af_packet_why(const char *name, const char *spec, char *err, size_t errlen)
{
	char iface[IF_NAMESIZE + 16];

	devarg(spec, "iface", "", iface, sizeof(iface));
	if (iface[0] && if_nametoindex(iface) == 0)
		snprintf(err, errlen,
			 "--vdev %s: network interface %s does not exist (in "
			 "this network namespace): %s",
			 name, iface, strerror(errno));
	else
		snprintf(err, errlen,
			 "--vdev %s did not come up (the af_packet driver's "
			 "reason is logged above)",
			 name);
}

int
nb_vdev_check(char *err, size_t errlen)
{
	const struct nb_eal_args *a = nb_eal_args();
	char name[RTE_ETH_NAME_MAX_LEN];
	unsigned int i;
	uint16_t pid;

	for (i = 0; i < a->nb_vdevs; i++) {
		const char *spec = a->vdevs[i];

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(spec, ","),
			 spec);
		if (strncmp(name, "net_", 4) != 0 && strncmp(name, "eth_", 4))
			continue;
		if (rte_eth_dev_get_port_by_name(name, &pid) == 0)
			continue;
		if (strncmp(name, "net_memif", 9) == 0)
			memif_why(name, spec, err, errlen);
		else if (strncmp(name, "net_af_packet", 13) == 0 ||
			 strncmp(name, "eth_af_packet", 13) == 0)
			af_packet_why(name, spec, err, errlen);
		else
			snprintf(err, errlen,
				 "--vdev %s did not come up (its driver's "
				 "reason is logged above)",
				 name);
		return -ENODEV;
	}
	return 0;
}
