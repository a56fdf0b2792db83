/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --serve and --api: the option's value (unix:PATH or tcp:IPV4:PORT) and
 * the checks that need the other options (a loopback test's ports; a TCP
 * socket only with --auth-key).
 */
#ifndef NB_API_OPTS_H
#define NB_API_OPTS_H

#include <stddef.h>

#include "nb_config.h"

int nb_api_check(const struct nb_config *cfg, char *err, size_t errlen);

#endif /* NB_API_OPTS_H */
