/* SPDX-License-Identifier: BSD-3-Clause */
/* --replay: the file into memory (libpcap). */
#ifndef NB_REPLAY_LOAD_H
#define NB_REPLAY_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "nb_app.h"
#include "nb_replay.h"

/*
 * Read every frame of spec->path (Ethernet, whole frames of at most
 * max_frame bytes with FCS), with --replay-stamp made to carry the stamp.
 * 0, or -errno with err saying which frame and why.
 */
int nb_replay_load(const struct nb_replayspec *spec, uint32_t max_frame,
		   struct nb_replay *rp, char *err, size_t errlen);
void nb_replay_free(struct nb_replay *rp);

/* A loopback test's steps for --replay (each a no-op without it):
 * load before the ports, resolve the rate, arm the built jobs. */
int nb_replay_setup(struct nb_app *app);
int nb_replay_resolve(struct nb_app *app, uint64_t link_bps);
void nb_replay_arm(struct nb_app *app);

#endif /* NB_REPLAY_LOAD_H */
