/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --flows and its options: the values (the option table's parsers), the
 * checks across them and the rest of the test (nb_flows_cfg_check, before
 * EAL), and what the report's header says of them.  Pure.
 *
 * N flows in a test of S streams: flow f belongs to stream f mod S, as
 * that stream's flow k = f / S; stream s has N / S flows (one more when
 * s < N mod S) and sends them in turn, so its frame with sequence number
 * q is of its flow q mod Ns.  Flow f's fields are nb_flows_fields(spec,
 * f) for the fields whose range was given (RFC 4814's pseudorandom ports
 * when none was), its stream's own values for the others.
 */
#ifndef NB_FLOWS_OPT_H
#define NB_FLOWS_OPT_H

#include <stddef.h>

#include <jansson.h>

#include "nb_config.h"

int nb_opt_flows(struct nb_config *cfg, const char *val, char *why,
		 size_t whylen);
int nb_opt_flow_order(struct nb_config *cfg, const char *val, char *why,
		      size_t whylen);
int nb_opt_flow_seed(struct nb_config *cfg, const char *val, char *why,
		     size_t whylen);
int nb_opt_flow_sport(struct nb_config *cfg, const char *val, char *why,
		      size_t whylen);
int nb_opt_flow_dport(struct nb_config *cfg, const char *val, char *why,
		      size_t whylen);
int nb_opt_flow_sip(struct nb_config *cfg, const char *val, char *why,
		    size_t whylen);
int nb_opt_flow_dip(struct nb_config *cfg, const char *val, char *why,
		    size_t whylen);
int nb_opt_flow_smac(struct nb_config *cfg, const char *val, char *why,
		     size_t whylen);
int nb_opt_flow_dmac(struct nb_config *cfg, const char *val, char *why,
		     size_t whylen);
int nb_opt_per_flow(struct nb_config *cfg, const char *val, char *why,
		    size_t whylen);

/*
 * After nb_stack_check (the family is known): --flows with what it can
 * go with (a loopback test of plain, tagged, QinQ, MPLS or IPv6 frames,
 * software checksums; at least one flow a stream), the ranges (each
 * within its field and the family, sources apart from destinations,
 * room for N distinct flows), RFC 4814's ports when no range is given.
 * 0, or -EINVAL with the reason in err.
 */
int nb_flows_cfg_check(struct nb_config *cfg, char *err, size_t errlen);

/* How many flows stream s of ns has (n flows in all). */
static inline uint32_t
nb_flows_of_stream(uint32_t n, uint32_t ns, uint32_t s)
{
	return n / ns + (s < n % ns);
}

/*
 * Flow f's record over stream template t: the fields given by their
 * ranges, t's own for the others (an IPv6 range's low 32 bits).
 */
void nb_flows_rec(const struct nb_flows_cfg *fc, uint32_t f,
		  const struct nb_tmpl *t, struct nb_flow_rec *r);

/* "65536 flows, RFC 4814 order (seed 1): source port 1024-65535 x
 * destination port 1024-65535" for the report's header. */
void nb_flows_text(const struct nb_flows_cfg *fc, char *buf, size_t len);

/* The same as start.test_start.flows (NULL without --flows). */
json_t *nb_flows_json(const struct nb_flows_cfg *fc);

#endif /* NB_FLOWS_OPT_H */
