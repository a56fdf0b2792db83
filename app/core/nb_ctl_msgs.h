/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The message table: for each message type its name, its body's length,
 * and the check, writer and reader of its body.  The codec (nb_ctl.c)
 * frames every message the same way and asks the table for the body.
 * Internal to the nb_ctl files.
 */
#ifndef NB_CTL_MSGS_H
#define NB_CTL_MSGS_H

#include <stdint.h>

#include "nb_ctl.h"

struct nb_ctl_kind {
	const char *name;  /* NULL: no such type */
	uint16_t body_len; /* RESULTS: without its chunk */
	/* 0 or -EINVAL on what the decoded struct shows; NULL: nothing */
	int (*check)(const struct nb_ctl_msg *m);
	/* The body at *p, which has body_len bytes; NULL: no body */
	void (*write)(uint8_t **p, const struct nb_ctl_msg *m);
	/* Back into m: 1 when the bytes were canonical (NUL padding, zero
	 * reserved bytes and unused slots), else 0 */
	int (*read)(const uint8_t **p, struct nb_ctl_msg *m);
};

/* Indexed by enum nb_ctl_type. */
extern const struct nb_ctl_kind nb_ctl_kinds[NB_CTL_TYPE_MAX];

/* HELLO and WELCOME, PARAMS, ACCEPT (nb_ctl_setup.c) */
int nb_ctl_conf_check(const struct nb_ctl_msg *m);
void nb_ctl_conf_write(uint8_t **p, const struct nb_ctl_msg *m);
int nb_ctl_conf_read(const uint8_t **p, struct nb_ctl_msg *m);
int nb_ctl_params_check(const struct nb_ctl_msg *m);
void nb_ctl_params_write(uint8_t **p, const struct nb_ctl_msg *m);
int nb_ctl_params_read(const uint8_t **p, struct nb_ctl_msg *m);
int nb_ctl_accept_check(const struct nb_ctl_msg *m);
void nb_ctl_accept_write(uint8_t **p, const struct nb_ctl_msg *m);
int nb_ctl_accept_read(const uint8_t **p, struct nb_ctl_msg *m);
/* a test of many ports across hosts (nb_ctl_mesh.c) */
void nb_ctl_offer_write(uint8_t **p, const struct nb_ctl_offer *o);
int nb_ctl_offer_read(const uint8_t **p, struct nb_ctl_offer *o);
int nb_ctl_mesh_ok(const struct nb_ctl_params *p);
void nb_ctl_mesh_write(uint8_t **p, const struct nb_ctl_mesh *m);
int nb_ctl_mesh_read(const uint8_t **p, struct nb_ctl_mesh *m);

#endif /* NB_CTL_MSGS_H */
