/* SPDX-License-Identifier: BSD-3-Clause */
/* The value makers every JSON writer uses. */
#ifndef NB_JSON_H
#define NB_JSON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

/* A real; NaN and infinities (a rate over 0 s) as 0. */
static inline json_t *
jreal(double v)
{
	return json_real(isfinite(v) ? v : 0.0);
}

static inline json_t *
jint(uint64_t v)
{
	return json_integer((json_int_t)v);
}

/* An IPv4 address (host order) as "a.b.c.d". */
static inline json_t *
jip4(uint32_t ip)
{
	char s[16];

	snprintf(s, sizeof(s), "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 0xff,
		 (ip >> 8) & 0xff, ip & 0xff);
	return json_string(s);
}

#endif /* NB_JSON_H */
