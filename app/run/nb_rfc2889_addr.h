/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889 5.7 (address caching capacity) and 5.8 (address learning
 * rate) on the suite's steps (nb_suite_int.h).  An address trial of N
 * addresses: wait out the switch's ageing time (--aging and a margin,
 * nb_rfc2889_aging_wait), then the learning phase (the learning port L
 * sends N frames, from N source MACs of a range, to the test port T),
 * then at once the test phase (T sends one frame to each of the N MACs;
 * the monitor port M counts those the switch flooded, L those it
 * forwarded).  It passes when M got none and L all N.  Both phases are
 * runs of the one runtime with --flows' MAC ranges set by the test.
 */
#ifndef NB_RFC2889_ADDR_H
#define NB_RFC2889_ADDR_H

#include <stdint.h>

struct suite;

/* 5.7: the capacity, by bisection on N up to --addresses. */
void nb_rfc2889_addr_cache(struct suite *x, uint16_t size);
/* 5.8: the highest learning rate for N addresses (--addresses, or the
 * capacity 5.7 found at this size). */
void nb_rfc2889_addr_learn(struct suite *x, uint16_t size);

#endif /* NB_RFC2889_ADDR_H */
