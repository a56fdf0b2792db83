/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/random.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "nb_auth.h"
#include "nb_frame.h"

int
nb_auth_random(void *buf, size_t n)
{
	uint8_t *p = buf;

	while (n > 0) {
		ssize_t got = getrandom(p, n, 0);

		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += got;
		n -= (size_t)got;
	}
	return 0;
}

/*
 * HMAC-SHA256 is fetched from OpenSSL's provider once per process (a
 * fetch walks the provider tables and takes locks: doing it per call let
 * a flood of bogus PARAMS cost far more than the MAC itself).  Each call
 * makes its own context, so lcores may call it at once.
 */
static EVP_MAC *hmac_alg;
static pthread_once_t hmac_once = PTHREAD_ONCE_INIT;

static void
hmac_fetch(void)
{
	hmac_alg = EVP_MAC_fetch(NULL, "HMAC", NULL);
}

void
nb_auth_hmac(const uint8_t *key, size_t key_len, const void *const *parts,
	     const size_t *lens, unsigned int nb, uint8_t out[32])
{
	static char digest[] = "SHA256";
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string("digest", digest, 0),
		OSSL_PARAM_construct_end(),
	};
	EVP_MAC_CTX *c;
	size_t olen = 0;
	unsigned int i;
	int ok;

	pthread_once(&hmac_once, hmac_fetch);
	c = hmac_alg != NULL ? EVP_MAC_CTX_new(hmac_alg) : NULL;
	ok = c != NULL && EVP_MAC_init(c, key, key_len, params);
	for (i = 0; ok && i < nb; i++)
		ok = EVP_MAC_update(c, parts[i], lens[i]);
	ok = ok && EVP_MAC_final(c, out, &olen, 32) && olen == 32;
	if (!ok)
		memset(out, 0, 32);
	EVP_MAC_CTX_free(c);
}

static void
cookie_raw(const uint8_t secret[NB_AUTH_SECRET], uint32_t epoch,
	   const uint8_t mac[6], uint32_t ip, uint32_t session,
	   const uint8_t cn[NB_AUTH_NONCE], uint8_t out[32])
{
	static const char label[] = "nbench cookie";
	uint8_t e[4], i4[4], s[4];
	const void *parts[] = {label, e, mac, i4, s, cn};
	const size_t lens[] = {sizeof(label) - 1, 4, 6, 4, 4, NB_AUTH_NONCE};

	nb_put_be32(e, epoch);
	nb_put_be32(i4, ip);
	nb_put_be32(s, session);
	nb_auth_hmac(secret, NB_AUTH_SECRET, parts, lens, 6, out);
}

static uint32_t
seq_of(const uint8_t out[32])
{
	uint32_t s = nb_get_be32(out + NB_AUTH_NONCE);

	return s ? s : 1;
}

void
nb_auth_cookie(const uint8_t secret[NB_AUTH_SECRET], uint32_t epoch,
	       const uint8_t mac[6], uint32_t ip, uint32_t session,
	       const uint8_t cn[NB_AUTH_NONCE], uint8_t cookie[NB_AUTH_NONCE],
	       uint32_t *seq0)
{
	uint8_t out[32];

	cookie_raw(secret, epoch, mac, ip, session, cn, out);
	memcpy(cookie, out, NB_AUTH_NONCE);
	*seq0 = seq_of(out);
}

int
nb_auth_cookie_ok(const uint8_t secret[NB_AUTH_SECRET], uint32_t epoch,
		  const uint8_t mac[6], uint32_t ip, uint32_t session,
		  const uint8_t cn[NB_AUTH_NONCE],
		  const uint8_t cookie[NB_AUTH_NONCE], uint32_t *seq0)
{
	uint8_t out[32];
	unsigned int k;

	for (k = 0; k < 2; k++) {
		cookie_raw(secret, epoch - k, mac, ip, session, cn, out);
		if (CRYPTO_memcmp(out, cookie, NB_AUTH_NONCE) == 0) {
			*seq0 = seq_of(out);
			return 1;
		}
	}
	return 0;
}

void
nb_auth_derive(struct nb_auth *a, const uint8_t *psk, size_t psk_len,
	       const uint8_t cn[NB_AUTH_NONCE], const uint8_t sn[NB_AUTH_NONCE],
	       uint32_t session)
{
	static const char label[] = "nbench session";
	uint8_t s[4];
	const void *parts[] = {label, cn, sn, s};
	const size_t lens[] = {sizeof(label) - 1, NB_AUTH_NONCE, NB_AUTH_NONCE,
			       4};

	nb_put_be32(s, session);
	memcpy(a->cn, cn, NB_AUTH_NONCE);
	memcpy(a->sn, sn, NB_AUTH_NONCE);
	if (psk == NULL || psk_len == 0) {
		psk = (const uint8_t *)NB_AUTH_NO_KEY;
		psk_len = sizeof(NB_AUTH_NO_KEY) - 1;
	}
	nb_auth_hmac(psk, psk_len, parts, lens, 4, a->key);
	a->on = 1;
}

static void
tag_of(const struct nb_auth *a, const uint8_t *msg, size_t len,
       uint8_t out[32])
{
	const void *parts[] = {a->cn, a->sn, msg};
	const size_t lens[] = {NB_AUTH_NONCE, NB_AUTH_NONCE,
			       len - NB_AUTH_TAG};

	nb_auth_hmac(a->key, sizeof(a->key), parts, lens, 3, out);
}

void
nb_auth_sign(const struct nb_auth *a, uint8_t *msg, size_t len)
{
	uint8_t out[32];

	if (len < NB_AUTH_TAG)
		return;
	tag_of(a, msg, len, out);
	memcpy(msg + len - NB_AUTH_TAG, out, NB_AUTH_TAG);
}

int
nb_auth_verify(const struct nb_auth *a, const uint8_t *msg, size_t len)
{
	uint8_t out[32];

	if (!a->on || len < NB_AUTH_TAG)
		return 0;
	tag_of(a, msg, len, out);
	return CRYPTO_memcmp(out, msg + len - NB_AUTH_TAG, NB_AUTH_TAG) == 0;
}
