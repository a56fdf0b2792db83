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

/* "throughput", "latency", "loss", "back-to-back" */
const char *nb_suite_name(unsigned int bit);

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
