/* SPDX-License-Identifier: BSD-3-Clause */
/* --serve and --api: see nb_api_opts.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_api_opts.h"
#include "nb_opt_values.h"
#include "nb_options.h"

int
nb_opt_api(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (strncmp(val, "unix:", 5) == 0) {
		const char *path = val + 5;

		if (path[0] != '/' || strlen(path) >= sizeof(cfg->api_path)) {
			snprintf(why, whylen,
				 "unix: takes an absolute path under %zu "
				 "bytes",
				 sizeof(cfg->api_path));
			return -EINVAL;
		}
		strcpy(cfg->api_path, path);
		cfg->api_port = 0;
		return 0;
	}
	if (strncmp(val, "tcp:", 4) == 0) {
		char ip[64], *end;
		const char *colon = strrchr(val + 4, ':');
		struct in_addr a;
		unsigned long port;

		if (colon == NULL || (size_t)(colon - val - 4) >= sizeof(ip))
			goto bad_tcp;
		memcpy(ip, val + 4, (size_t)(colon - val - 4));
		ip[colon - val - 4] = '\0';
		errno = 0;
		port = strtoul(colon + 1, &end, 10);
		if (inet_pton(AF_INET, ip, &a) != 1 || *end != '\0' ||
		    colon[1] == '\0' || port == 0 || port > 65535 || errno)
			goto bad_tcp;
		cfg->api_ip = ntohl(a.s_addr);
		cfg->api_port = (uint16_t)port;
		cfg->api_path[0] = '\0';
		return 0;
	}
	snprintf(why, whylen, "give unix:PATH or tcp:IPV4:PORT");
	return -EINVAL;
bad_tcp:
	snprintf(why, whylen,
		 "tcp: takes an IPv4 address and a port 1..65535, e.g. "
		 "tcp:127.0.0.1:7301");
	return -EINVAL;
}

int
nb_api_check(const struct nb_config *cfg, char *err, size_t errlen)
{
	if (nb_option_given(cfg, "api") && !cfg->serve) {
		snprintf(err, errlen, "--api is --serve's socket: it needs "
				      "--serve");
		return -EINVAL;
	}
	if (cfg->mode == NB_MODE_LOOPBACK && cfg->psk_len && !cfg->serve) {
		snprintf(err, errlen,
			 "--auth-key in a loopback test is for --serve (what "
			 "its API clients prove)");
		return -EINVAL;
	}
	if (cfg->serve && (cfg->capture.active || cfg->replay.active)) {
		snprintf(err, errlen,
			 "--serve runs tests on request: not with --capture "
			 "or --replay (run those from the command line)");
		return -EINVAL;
	}
	if (cfg->serve && cfg->api_port && !cfg->psk_len) {
		snprintf(err, errlen,
			 "--api tcp: needs --auth-key: a TCP socket is open to "
			 "every local user and beyond, so clients prove the "
			 "key first");
		return -EINVAL;
	}
	return 0;
}
