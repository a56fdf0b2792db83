/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP initial sequence numbers as RFC 6528 asks (section 3):
 *
 *   ISN = M + F(local ip, local port, remote ip, remote port, secret)
 *
 *   M  a clock of 4 us ticks: now_ns / 4000, mod 2^32 (the caller's
 *      monotonic ns clock; the secret is new per process, so the clock
 *      may restart with it)
 *   F  the first 4 bytes, big endian, of HMAC-SHA256(secret,
 *      local ip | local port | remote ip | remote port), each field big
 *      endian (network order: 12 bytes), secret 32 random bytes
 *
 * So a host that does not see our SYN or SYN-ACK cannot guess its
 * sequence number (a blind spoofed connection's ACK is refused), while
 * one 4-tuple's ISNs go up with time as RFC 793's clock did.  Pure: no
 * DPDK; the HMAC is nb_auth_hmac()'s (thread-safe).
 */
#ifndef NB_TCP_ISN_H
#define NB_TCP_ISN_H

#include <stdint.h>

#define NB_TCP_ISN_SECRET  32
#define NB_TCP_ISN_TICK_NS 4000 /* M's tick: 4 us, RFC 6528's (and 793's) */

struct nb_tcp_isn {
	uint8_t secret[NB_TCP_ISN_SECRET];
};

/* A fresh secret from the kernel's CSPRNG (getrandom); 0 or -errno. */
int nb_tcp_isn_init(struct nb_tcp_isn *k);

/*
 * The process's secret, made once (pthread_once) on first use: every
 * TCP end of the process takes its ISN under it.  NULL if getrandom
 * failed (then no end may be set up).
 */
const struct nb_tcp_isn *nb_tcp_isn_process(void);

/* F alone: the keyed hash of the 4-tuple (addresses and ports in host
 * order). */
uint32_t nb_tcp_isn_hash(const struct nb_tcp_isn *k, uint32_t lip,
			 uint16_t lport, uint32_t rip, uint16_t rport);

/* The ISN of a connection of this 4-tuple chosen at now_ns: M + F. */
uint32_t nb_tcp_isn_next(const struct nb_tcp_isn *k, uint32_t lip,
			 uint16_t lport, uint32_t rip, uint16_t rport,
			 uint64_t now_ns);

/*
 * nb_tcp_isn_next() at CLOCK_MONOTONIC's now: what the TCP ends use (a
 * clock that does not start again with each test of a sweep, so one
 * 4-tuple's ISNs only go up for the life of the process and its secret).
 */
uint32_t nb_tcp_isn_now(const struct nb_tcp_isn *k, uint32_t lip,
			uint16_t lport, uint32_t rip, uint16_t rport);

#endif /* NB_TCP_ISN_H */
