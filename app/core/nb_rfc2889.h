/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889's tests (--test forwarding-rate, congestion, address-caching,
 * address-learning, broadcast): what each needs of --ports, and their
 * text tables.  Pure.  The runner is run/nb_rfc2889*.c; each test's
 * figures travel in its suite row's detail object (nb_suite_report.h),
 * which is also its JSON.
 */
#ifndef NB_RFC2889_H
#define NB_RFC2889_H

#include <stddef.h>
#include <stdio.h>

#include "nb_config.h"
#include "nb_suite_report.h"

/*
 * Once every option is in, before the mesh is derived: RFC 2889's tests
 * with what they need (--ports; congestion's four ports; address tests'
 * learning, test and monitor ports).  0, or -EINVAL with the reason.
 */
int nb_rfc2889_check(struct nb_config *cfg, char *err, size_t errlen);

/* A detail object's number and integer members (0 when missing), for
 * the text tables. */
static inline double
nb_rfc2889_num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static inline long long
nb_rfc2889_cnt(const json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

/* The text tables of every RFC 2889 row of the suite, after RFC 2544's. */
void nb_rfc2889_text(FILE *f, const struct nb_suite_report *s);

/* Each test's table (nb_rfc2889_text calls them for their rows). */
void nb_rfc2889_text_fwd(FILE *f, const struct nb_suite_row *r);
void nb_rfc2889_text_congestion(FILE *f, const struct nb_suite_row *r);
void nb_rfc2889_text_broadcast(FILE *f, const struct nb_suite_row *r);
void nb_rfc2889_text_errored(FILE *f, const struct nb_suite_row *r);

/* ---- 5.7 and 5.8 (nb_rfc2889_addr.c) ---- */

/* --addresses: at most this many (the flows' MAC range) */
#define NB_RFC2889_MAX_ADDRESSES (1u << 20)
/* 5.7's search maximum without --addresses */
#define NB_RFC2889_DEF_ADDRESSES 65536
/* waited beyond --aging before each trial: this, and a tenth of it */
#define NB_RFC2889_AGING_MARGIN_S 0.5

int nb_opt_addresses(struct nb_config *cfg, const char *val, char *why,
		     size_t whylen);
int nb_opt_aging(struct nb_config *cfg, const char *val, char *why,
		 size_t whylen);
/* How long a trial waits for the table to forget: --aging S, plus
 * NB_RFC2889_AGING_MARGIN_S and S / 10. */
double nb_rfc2889_aging_wait(double aging);
/* --ports L,T,M and --aging for 5.7 and 5.8: the ports kept in
 * cfg->addr_port, no mesh pairs.  0, or -EINVAL with the reason. */
int nb_rfc2889_addr_layout(struct nb_config *cfg, char *err, size_t errlen);
/* --addresses and --aging only with 5.7 or 5.8. */
int nb_rfc2889_addr_opts(const struct nb_config *cfg, char *err, size_t errlen);
void nb_rfc2889_text_addr_cache(FILE *f, const struct nb_suite_row *r);
void nb_rfc2889_text_addr_learn(FILE *f, const struct nb_suite_row *r);

#endif /* NB_RFC2889_H */
