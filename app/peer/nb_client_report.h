/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NB_CLIENT_REPORT_H
#define NB_CLIENT_REPORT_H

#include <jansson.h>

#include "nb_session.h"

/* --conf: both ends' descriptions, as text or JSON. */
void nb_client_report_conf(struct nb_peer *pr);
/* "Peer test with HOST (IP): ..." once the test has started. */
void nb_client_report_header(struct nb_peer *pr, const struct nb_ctl_params *p);
/* What a peer test's start object adds: direction and the remote end
 * (the JSON document and the JSON-lines start event carry the same). */
json_t *nb_client_start_json(struct nb_peer *pr, const struct nb_ctl_params *p);
/* This end's counters only, the responder's being lost; returns 1. */
int nb_client_report_partial(struct nb_peer *pr, const char *why);
/* Each direction's report from both ends' counters; -1 if --json-file
 * could not be written. */
int nb_client_report(struct nb_peer *pr, const struct nb_ctl_params *p,
		     const struct nb_ctl_results_hdr *h,
		     const struct nb_ctl_stream_res *res, uint32_t nres);
/* A suite's trial: the tested direction's result from both ends'
 * counters (forward, or reverse with -R; a mesh across hosts: every
 * pair), not printed; nb_result_free() it.  0, or -errno when a mesh's
 * pairs could not be put together. */
int nb_client_result(struct nb_peer *pr, const struct nb_ctl_params *p,
		     const struct nb_ctl_results_hdr *h,
		     const struct nb_ctl_stream_res *res,
		     struct nb_result *out);

#endif /* NB_CLIENT_REPORT_H */
