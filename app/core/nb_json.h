/* SPDX-License-Identifier: BSD-3-Clause */
/* The two number makers every JSON writer of app/core uses. */
#ifndef NB_JSON_H
#define NB_JSON_H

#include <math.h>
#include <stdint.h>

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

#endif /* NB_JSON_H */
