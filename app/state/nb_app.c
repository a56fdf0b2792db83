/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdarg.h>
#include <stdio.h>

#include "nb_app.h"
#include "nb_log.h"
#include "nb_phase.h"

volatile sig_atomic_t nb_force_quit;

void
nb_app_phase(const char *name)
{
	nb_phase_set(name);
	NB_LOG(DEBUG, "phase: %s", name);
}

void
nb_app_error(struct nb_app *app, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(app->errmsg, sizeof(app->errmsg), fmt, ap);
	va_end(ap);
	NB_LOG(ERR, "%s", app->errmsg);
}

int
nb_app_port_index(const struct nb_app *app, uint16_t port_id)
{
	uint16_t i;

	for (i = 0; i < app->nb_ports; i++)
		if (app->port_ids[i] == port_id)
			return i;
	return -1;
}

void
nb_app_set_cookie(struct nb_app *app, const uint8_t *id, size_t n)
{
	size_t i;

	app->cookie[0] = '\0';
	for (i = 0; i < n && 2 * i + 2 < sizeof(app->cookie); i++)
		snprintf(app->cookie + 2 * i, 3, "%02x", id[i]);
}
