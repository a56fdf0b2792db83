/* SPDX-License-Identifier: BSD-3-Clause */
#include <stddef.h>

#include "nb_phase.h"

static const char *volatile phase_now;
static volatile sig_atomic_t quit_signal;
static const char *volatile quit_phase;

void
nb_phase_set(const char *name)
{
	phase_now = name;
}

const char *
nb_phase_now(void)
{
	return phase_now;
}

void
nb_phase_note_signal(int sig)
{
	if (quit_signal != 0)
		return;
	quit_phase = phase_now;
	quit_signal = sig;
}

int
nb_phase_signal(void)
{
	return quit_signal;
}

const char *
nb_phase_at_signal(void)
{
	return quit_signal != 0 ? quit_phase : NULL;
}

json_t *
nb_phase_json(void)
{
	const char *phase = nb_phase_at_signal();
	json_t *o;

	if (quit_signal == 0)
		return NULL;
	o = json_pack("{s:s}", "signal",
		      quit_signal == SIGINT    ? "SIGINT"
		      : quit_signal == SIGTERM ? "SIGTERM"
					       : "other");
	json_object_set_new(o, "phase",
			    phase != NULL ? json_string(phase) : json_null());
	return o;
}
