/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control-message authentication (protocol version 3): the responder's
 * stateless cookie, the per-session key and the message tags.  HMAC-SHA256
 * from OpenSSL's libcrypto; tags compared in constant time.  Pure: no DPDK.
 *
 *   cookie, seq0 = HMAC(secret, "nbench cookie" | epoch | client MAC |
 *                       client IPv4 | session | client nonce)
 *                  (the responder's; bytes 0-15, and 16-19 as its first
 *                  seq; valid in the epoch it was made and the next)
 *   K            = HMAC(PSK, "nbench session" | client nonce | cookie |
 *                       session)   (PSK "dpdk-nbench no key" without
 *                                   --auth-key)
 *   tag(msg)     = HMAC(K, client nonce | cookie | msg without its tag),
 *                  first 16 bytes, in the last 16 bytes of the message
 *
 * docs/protocol.md ("Authentication") describes the same bytes.
 */
#ifndef NB_AUTH_H
#define NB_AUTH_H

#include <stddef.h>
#include <stdint.h>

#define NB_AUTH_NONCE	  16
#define NB_AUTH_TAG	  16
#define NB_AUTH_SECRET	  32
#define NB_AUTH_EPOCH_SEC 16 /* a cookie lives 16 to 32 s */
#define NB_AUTH_NO_KEY	  "dpdk-nbench no key"

/* A session's keys: both nonces and K. */
struct nb_auth {
	int on; /* 0 until derived: nothing is signed or accepted */
	uint8_t cn[NB_AUTH_NONCE]; /* the client's nonce */
	uint8_t sn[NB_AUTH_NONCE]; /* the responder's (its cookie) */
	uint8_t key[32];
};

/* n bytes from the kernel's CSPRNG (getrandom); 0 or -errno. */
int nb_auth_random(void *buf, size_t n);

/*
 * HMAC-SHA256(key, parts[0] | ... | parts[nb-1]) into out; all-zero out
 * when OpenSSL fails (no memory): a value nobody can match.  Thread-safe.
 */
void nb_auth_hmac(const uint8_t *key, size_t key_len, const void *const *parts,
		  const size_t *lens, unsigned int nb, uint8_t out[32]);

/* The cookie for a HELLO and the responder's first seq (nonzero). */
void nb_auth_cookie(const uint8_t secret[NB_AUTH_SECRET], uint32_t epoch,
		    const uint8_t mac[6], uint32_t ip, uint32_t session,
		    const uint8_t cn[NB_AUTH_NONCE],
		    uint8_t cookie[NB_AUTH_NONCE], uint32_t *seq0);

/*
 * Does cookie belong to this client in epoch `epoch` or the one before?
 * Constant time in the cookie.  1 yes (and *seq0 set), 0 no.
 */
int nb_auth_cookie_ok(const uint8_t secret[NB_AUTH_SECRET], uint32_t epoch,
		      const uint8_t mac[6], uint32_t ip, uint32_t session,
		      const uint8_t cn[NB_AUTH_NONCE],
		      const uint8_t cookie[NB_AUTH_NONCE], uint32_t *seq0);

/* Derive K; psk may be NULL with psk_len 0. */
void nb_auth_derive(struct nb_auth *a, const uint8_t *psk, size_t psk_len,
		    const uint8_t cn[NB_AUTH_NONCE],
		    const uint8_t sn[NB_AUTH_NONCE], uint32_t session);

/* Write the tag of msg[0 .. len-16) into its last 16 bytes (len >= 16). */
void nb_auth_sign(const struct nb_auth *a, uint8_t *msg, size_t len);

/* 1 if the last 16 bytes of msg are its tag under a (constant time);
 * 0 otherwise, and always 0 when a is not on. */
int nb_auth_verify(const struct nb_auth *a, const uint8_t *msg, size_t len);

#endif /* NB_AUTH_H */
