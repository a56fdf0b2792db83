/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NB_RESPONDER_H
#define NB_RESPONDER_H

#include "nb_app.h"

/* Serve clients until Ctrl-C, --quit from a client, or --one-off done;
 * the exit code. */
int nb_responder_main(struct nb_app *app);

#endif /* NB_RESPONDER_H */
