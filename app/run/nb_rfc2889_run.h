/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889's tests in a suite (core/nb_rfc2889.h): each runs its trials
 * through the suite's steps (nb_suite_int.h) and adds its row, whose
 * detail carries its figures.
 */
#ifndef NB_RFC2889_RUN_H
#define NB_RFC2889_RUN_H

#include <stdint.h>

struct suite;

/* The RFC 2889 tests the suite asks for, at one frame size. */
void nb_rfc2889_size(struct suite *x, uint16_t size);
/* 5.9's errored frames, once (nb_rfc2889_err.c). */
void nb_rfc2889_errored(struct suite *x);

#endif /* NB_RFC2889_RUN_H */
