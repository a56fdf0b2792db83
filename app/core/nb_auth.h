/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control-message authentication (protocol version 3): the responder's
 * stateless cookie, the per-session key and the message tags.  HMAC-SHA256
 * from OpenSSL's libcrypto; tags compared in constant time.  Pure: no DPDK.
 *
 *   H            = HMAC(secret, "nbench cookie" | epoch | client MAC |
 *                       client IPv4 | session | client nonce | rn)
 *   cookie       = rn | H[0..8)  (rn: 8 fresh random bytes of the
 *                  responder's per WELCOME; valid in the epoch it was
 *                  made and the next); its first seq = H[8..12)
 *   K            = HMAC(PSK, "nbench session" | client nonce | cookie |
 *                       session)   (PSK "dpdk-nbench no key" without
 *                                   a key)
 *   K_hello      = HMAC(PSK, "nbench hello" | client nonce | 16 zeros |
 *                       session): the HELLO's tag key, so that only key
 *                                 holders get a WELCOME
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
#define NB_AUTH_RN	  8 /* the responder's fresh bytes in a cookie */
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

/* The cookie for a HELLO with the responder's fresh bytes rn, and the
 * responder's first seq (nonzero). */
void nb_auth_cookie(const uint8_t secret[NB_AUTH_SECRET], uint32_t epoch,
		    const uint8_t mac[6], uint32_t ip, uint32_t session,
		    const uint8_t cn[NB_AUTH_NONCE],
		    const uint8_t rn[NB_AUTH_RN], uint8_t cookie[NB_AUTH_NONCE],
		    uint32_t *seq0);

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

/* The HELLO's tag key (sn all zero: never a cookie's H). */
void nb_auth_hello_key(struct nb_auth *a, const uint8_t *psk, size_t psk_len,
		       const uint8_t cn[NB_AUTH_NONCE], uint32_t session);

/* Write the tag of msg[0 .. len-16) into its last 16 bytes (len >= 16). */
void nb_auth_sign(const struct nb_auth *a, uint8_t *msg, size_t len);

/* 1 if the last 16 bytes of msg are its tag under a (constant time);
 * 0 otherwise, and always 0 when a is not on. */
int nb_auth_verify(const struct nb_auth *a, const uint8_t *msg, size_t len);

/*
 * The sessions a responder opened while their cookies could still be
 * good (NB_AUTH_SEEN_LIFE_SEC): a PARAMS or QUIT that would open one of
 * them again is a replay (or a late retransmission) and is refused.
 * Fixed memory; an entry is reused once it has outlived the cookies.
 */
#define NB_AUTH_SEEN	      256
#define NB_AUTH_SEEN_LIFE_SEC (2 * NB_AUTH_EPOCH_SEC + 1)

struct nb_auth_seen {
	struct {
		uint64_t at_ns; /* 0: free */
		uint32_t session;
		uint8_t cn[NB_AUTH_NONCE];
	} e[NB_AUTH_SEEN];
	uint64_t replays; /* refused as seen */
};

/* 1 if (session, cn) opened within the life before now_ns. */
int nb_auth_seen_has(const struct nb_auth_seen *s, uint32_t session,
		     const uint8_t cn[NB_AUTH_NONCE], uint64_t now_ns);

/* Remember (session, cn) opened at now_ns (> 0): 0, or -ENOSPC when
 * every entry is still alive (then no session may open: fail closed). */
int nb_auth_seen_add(struct nb_auth_seen *s, uint32_t session,
		     const uint8_t cn[NB_AUTH_NONCE], uint64_t now_ns);

/*
 * A responder's own key (secure by default): 32 random bytes in base64
 * (NB_AUTH_KEY_RAW; 44 characters, the PSK) written to DIR/NAME.key, mode
 * 0600, DIR created with mode 0700 if missing and refused unless it is
 * ours and closed to others.  The file's path in path.  0, or -errno with
 * the reason in why.
 */
#define NB_AUTH_KEY_RAW 32
int nb_auth_make_key(const char *dir, const char *name, uint8_t *psk,
		     uint32_t *psk_len, char *path, size_t pathlen, char *why,
		     size_t whylen);

/* A key's fingerprint for people to compare: the first NB_AUTH_FP_BYTES
 * bytes of its SHA-256 in hex, colon-separated ("" on failure). */
#define NB_AUTH_FP_BYTES 8
#define NB_AUTH_FP_STR	 (3 * NB_AUTH_FP_BYTES)
void nb_auth_fingerprint(const uint8_t *psk, size_t len, char *out,
			 size_t outlen);

#endif /* NB_AUTH_H */
