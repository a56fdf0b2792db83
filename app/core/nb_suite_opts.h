/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The options of the RFC 2544 suites and size sweeps (--test, --trial-time,
 * --settle, --loss-tolerance, --precision, --latency-load, --loss-step,
 * --trials) and the checks that need them all.  Pure; the option table in
 * nb_opt_table.c points here.
 */
#ifndef NB_SUITE_OPTS_H
#define NB_SUITE_OPTS_H

#include <stddef.h>

#include "nb_config.h"

/* --test bits, in the order a suite runs them */
#define NB_SUITE_THROUGHPUT (1u << 0)
#define NB_SUITE_LATENCY    (1u << 1)
#define NB_SUITE_LOSS	    (1u << 2)
#define NB_SUITE_B2B	    (1u << 3)
#define NB_SUITE_KINDS	    4
/*
 * RFC 2889's tests (--test), above NB_SUITE_SWEEP's bit: each has its
 * section (nb_suite_section) and runs on --ports (nb_rfc2889.h).
 */
#define NB_SUITE_FWD_RATE   (1u << 9)  /* 5.1, 5.2: forwarding rates */
#define NB_SUITE_CONGESTION (1u << 10) /* 5.5: head-of-line blocking */
#define NB_SUITE_ADDR_CACHE (1u << 11) /* 5.7: address caching capacity */
#define NB_SUITE_ADDR_LEARN (1u << 12) /* 5.8: address learning rate */
#define NB_SUITE_BROADCAST  (1u << 13) /* 5.10: broadcast forwarding */
#define NB_SUITE_ERRORED    (1u << 14) /* 5.9: errored frame filtering */
#define NB_SUITE_RFC2889                                                       \
	(NB_SUITE_FWD_RATE | NB_SUITE_CONGESTION | NB_SUITE_ADDR_CACHE |       \
	 NB_SUITE_ADDR_LEARN | NB_SUITE_BROADCAST | NB_SUITE_ERRORED)

/* "throughput", "latency", "loss", "back-to-back", and RFC 2889's
 * "forwarding-rate", "congestion", "address-caching",
 * "address-learning", "broadcast"; "?" for no kind */
const char *nb_suite_name(unsigned int bit);
/* "RFC 2544 26.1", "RFC 2889 5.7", ... */
const char *nb_suite_section(unsigned int bit);
/* Every kind's bit, in the order a suite runs them (0-terminated). */
extern const unsigned int nb_suite_kinds[];

int nb_opt_test(struct nb_config *cfg, const char *val, char *why,
		size_t whylen);
int nb_opt_trial_time(struct nb_config *cfg, const char *val, char *why,
		      size_t whylen);
int nb_opt_settle(struct nb_config *cfg, const char *val, char *why,
		  size_t whylen);
int nb_opt_loss_tolerance(struct nb_config *cfg, const char *val, char *why,
			  size_t whylen);
int nb_opt_precision(struct nb_config *cfg, const char *val, char *why,
		     size_t whylen);
int nb_opt_latency_load(struct nb_config *cfg, const char *val, char *why,
			size_t whylen);
int nb_opt_loss_step(struct nb_config *cfg, const char *val, char *why,
		     size_t whylen);
int nb_opt_trials(struct nb_config *cfg, const char *val, char *why,
		  size_t whylen);

/* The defaults (RFC 2544's): called by nb_config_defaults(). */
void nb_suite_defaults(struct nb_config *cfg);

/*
 * The checks once every option is in: suite options need --test, a suite
 * takes no --time/--packets/--bytes/--omit, a sweep or a suite is for a
 * loopback or reflector test, and with --test and no --size the sweep is
 * RFC 2544's seven sizes (a --size list: each size on its own).
 */
int nb_suite_check(struct nb_config *cfg, char *err, size_t errlen);

#endif /* NB_SUITE_OPTS_H */
