/* SPDX-License-Identifier: BSD-3-Clause */
/* --serve and --api: see nb_api_opts.h (the --api parser is in
 * nb_opt_peer.c with the other addresses). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_api_opts.h"
#include "nb_options.h"

int
nb_api_check(const struct nb_config *cfg, char *err, size_t errlen)
{
	if (nb_option_given(cfg, "api") && !cfg->serve) {
		snprintf(err, errlen,
			 "--api is --serve's socket: it needs "
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
