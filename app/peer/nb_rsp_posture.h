/* SPDX-License-Identifier: BSD-3-Clause */
/* The responder's posture (nb_rsp_posture.c). */
#ifndef NB_RSP_POSTURE_H
#define NB_RSP_POSTURE_H

#include "nb_config.h"
#include "nb_policy.h"
#include "nb_session.h"

/*
 * Without --auth-key or --no-auth: a key of the responder's own in
 * NB_KEY_DIR/PREFIX.key (or $XDG_RUNTIME_DIR/dpdk-nbench for a user), into
 * cfg->psk, its path in cfg->key_made, held under a flock until
 * nb_rsp_drop_key (a live responder's key is never replaced: -EBUSY).
 * 0, or -errno with the reason on stderr.
 */
int nb_rsp_make_key(struct nb_config *cfg);

/* At exit: remove that key file if it is still the one made, and let it
 * go. */
void nb_rsp_drop_key(struct nb_config *cfg);

/* The start-up line: --no-auth's reach and caps, or the key's file and
 * fingerprint. */
void nb_rsp_say_posture(const struct nb_config *cfg);

/* Listening: the state telemetry shows, and pr's counters for its
 * /nbench/responder (sessions, control frames, refusals) from now on. */
void nb_rsp_watch(struct nb_peer *pr);

/*
 * How long the responder keeps a session without a word from its client
 * (and waits for the client's ACKs): the client's --peer-timeout from
 * PARAMS, at most NB_RSP_MAX_PEER_TIMEOUT_S (a client gone for good holds
 * the responder that long), and never less than the responder's own
 * --peer-timeout.  In ns; *capped set when the client asked for more than
 * the cap.
 */
#define NB_RSP_MAX_PEER_TIMEOUT_S 60
uint64_t nb_rsp_session_timeout(const struct nb_config *cfg, uint32_t asked_ms,
				int *capped);

/*
 * What this responder's port and caps cannot serve in a PARAMS: a frame
 * size above its MTU, more streams than --max-streams, its own MAC among
 * the client's.  0, or -EINVAL with why set.
 */
int nb_rsp_check_params(const struct nb_app *app, const struct nb_ctl_params *p,
			char *why, size_t len);

/* At exit: every cause that refused something, with its count (and
 * telemetry's /nbench/responder stops reading the counters). */
void nb_rsp_report_refusals(const struct nb_refusals *r);

#endif /* NB_RSP_POSTURE_H */
