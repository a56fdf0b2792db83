/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The test of a peer session, on either end, on the one test runtime
 * (nb_run): the agreed parameters become this end's configuration, jobs
 * and probes; START arms it; STOP drains and collects it.
 */
#ifndef NB_PEERTEST_H
#define NB_PEERTEST_H

#include <stddef.h>
#include <stdint.h>

#include "nb_session.h"

/* Set up the test p describes and launch the workers (polling, not yet
 * sending); 0, or -errno with err set. */
int nb_peertest_setup(struct nb_peer *pr, const struct nb_ctl_params *p,
		      char *err, size_t errlen);
/* Senders start delay_ns from now. */
void nb_peertest_arm(struct nb_peer *pr, uint64_t delay_ns);
/* Stop senders, drain receivers, stop the workers, collect. */
void nb_peertest_stop(struct nb_peer *pr);
/* Stop if running, free the jobs and the results blob. */
void nb_peertest_free(struct nb_peer *pr);
/* This end's counters as a results blob (pr->blob). */
int nb_peertest_blob(struct nb_peer *pr);

#endif /* NB_PEERTEST_H */
