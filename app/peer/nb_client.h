/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NB_CLIENT_H
#define NB_CLIENT_H

#include "nb_app.h"

/* One test with the responder at --peer (or --conf, --quit); the exit
 * code. */
int nb_client_main(struct nb_app *app);

#endif /* NB_CLIENT_H */
