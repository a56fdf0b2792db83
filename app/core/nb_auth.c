/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

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
	   const uint8_t cn[NB_AUTH_NONCE], const uint8_t rn[NB_AUTH_RN],
	   uint8_t out[32])
{
	static const char label[] = "nbench cookie";
	uint8_t e[4], i4[4], s[4];
	const void *parts[] = {label, e, mac, i4, s, cn, rn};
	const size_t lens[] = {sizeof(label) - 1, 4,	     6, 4, 4,
			       NB_AUTH_NONCE,	  NB_AUTH_RN};

	nb_put_be32(e, epoch);
	nb_put_be32(i4, ip);
	nb_put_be32(s, session);
	nb_auth_hmac(secret, NB_AUTH_SECRET, parts, lens, 7, out);
}

static uint32_t
seq_of(const uint8_t out[32])
{
	uint32_t s = nb_get_be32(out + NB_AUTH_NONCE - NB_AUTH_RN);

	return s ? s : 1;
}

void
nb_auth_cookie(const uint8_t secret[NB_AUTH_SECRET], uint32_t epoch,
	       const uint8_t mac[6], uint32_t ip, uint32_t session,
	       const uint8_t cn[NB_AUTH_NONCE], const uint8_t rn[NB_AUTH_RN],
	       uint8_t cookie[NB_AUTH_NONCE], uint32_t *seq0)
{
	uint8_t out[32];

	cookie_raw(secret, epoch, mac, ip, session, cn, rn, out);
	memcpy(cookie, rn, NB_AUTH_RN);
	memcpy(cookie + NB_AUTH_RN, out, NB_AUTH_NONCE - NB_AUTH_RN);
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
		cookie_raw(secret, epoch - k, mac, ip, session, cn, cookie,
			   out);
		if (CRYPTO_memcmp(out, cookie + NB_AUTH_RN,
				  NB_AUTH_NONCE - NB_AUTH_RN) == 0) {
			*seq0 = seq_of(out);
			return 1;
		}
	}
	return 0;
}

static void
derive(struct nb_auth *a, const char *label, size_t label_len,
       const uint8_t *psk, size_t psk_len, const uint8_t cn[NB_AUTH_NONCE],
       const uint8_t sn[NB_AUTH_NONCE], uint32_t session)
{
	uint8_t s[4];
	const void *parts[] = {label, cn, sn, s};
	const size_t lens[] = {label_len, NB_AUTH_NONCE, NB_AUTH_NONCE, 4};

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

void
nb_auth_derive(struct nb_auth *a, const uint8_t *psk, size_t psk_len,
	       const uint8_t cn[NB_AUTH_NONCE], const uint8_t sn[NB_AUTH_NONCE],
	       uint32_t session)
{
	static const char label[] = "nbench session";

	derive(a, label, sizeof(label) - 1, psk, psk_len, cn, sn, session);
}

void
nb_auth_hello_key(struct nb_auth *a, const uint8_t *psk, size_t psk_len,
		  const uint8_t cn[NB_AUTH_NONCE], uint32_t session)
{
	static const char label[] = "nbench hello";
	static const uint8_t zero[NB_AUTH_NONCE];

	derive(a, label, sizeof(label) - 1, psk, psk_len, cn, zero, session);
}

static void
tag_of(const struct nb_auth *a, const uint8_t *msg, size_t len, uint8_t out[32])
{
	const void *parts[] = {a->cn, a->sn, msg};
	const size_t lens[] = {NB_AUTH_NONCE, NB_AUTH_NONCE, len - NB_AUTH_TAG};

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

/*
 * The responder's own key: 32 bytes from getrandom, in base64 with a
 * newline (so it can be pasted), in DIR/NAME.key, created afresh (an old
 * file or a link in its place is removed first, O_EXCL | O_NOFOLLOW) with
 * mode 0600 in a directory of mode 0700 that must belong to us.
 */
int
nb_auth_make_key(const char *dir, const char *name, uint8_t *psk,
		 uint32_t *psk_len, char *path, size_t pathlen, char *why,
		 size_t whylen)
{
	uint8_t raw[NB_AUTH_KEY_RAW];
	unsigned char text[4 * ((NB_AUTH_KEY_RAW + 2) / 3) + 2];
	struct stat st;
	int fd, n, ret;

	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		snprintf(why, whylen, "cannot create %s: %s", dir,
			 strerror(errno));
		return -errno;
	}
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(why, whylen,
			 "%s is not a directory of ours that only we may "
			 "write to",
			 dir);
		return -EPERM;
	}
	n = snprintf(path, pathlen, "%s/%s.key", dir, name);
	if (n < 0 || (size_t)n >= pathlen || strchr(name, '/') != NULL) {
		snprintf(why, whylen, "key file name too long or not a name");
		return -ENAMETOOLONG;
	}
	ret = nb_auth_random(raw, sizeof(raw));
	if (ret != 0) {
		snprintf(why, whylen, "getrandom: %s", strerror(-ret));
		return ret;
	}
	n = EVP_EncodeBlock(text, raw, sizeof(raw));
	text[n] = '\n';
	if (unlink(path) != 0 && errno != ENOENT) {
		snprintf(why, whylen, "cannot replace %s: %s", path,
			 strerror(errno));
		return -errno;
	}
	errno = 0;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0 || write(fd, text, (size_t)n + 1) != n + 1) {
		ret = errno ? -errno : -EIO; /* a short write sets none */
		snprintf(why, whylen, "cannot write %s: %s", path,
			 strerror(-ret));
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		return ret;
	}
	close(fd);
	memcpy(psk, text, (size_t)n);
	*psk_len = (uint32_t)n;
	return 0;
}

void
nb_auth_fingerprint(const uint8_t *psk, size_t len, char *out, size_t outlen)
{
	uint8_t md[32];
	unsigned int mdlen = 0, i;
	size_t at = 0;

	if (outlen == 0)
		return;
	out[0] = '\0';
	if (!EVP_Digest(psk, len, md, &mdlen, EVP_sha256(), NULL))
		return;
	for (i = 0; i < NB_AUTH_FP_BYTES && at + 4 <= outlen; i++)
		at += (size_t)snprintf(out + at, outlen - at, "%s%02x",
				       i ? ":" : "", md[i]);
}

static int
seen_alive(const struct nb_auth_seen *s, unsigned int i, uint64_t now_ns)
{
	return s->e[i].at_ns != 0 &&
	       now_ns - s->e[i].at_ns < NB_AUTH_SEEN_LIFE_SEC * 1000000000ull;
}

int
nb_auth_seen_has(const struct nb_auth_seen *s, uint32_t session,
		 const uint8_t cn[NB_AUTH_NONCE], uint64_t now_ns)
{
	unsigned int i;

	for (i = 0; i < NB_AUTH_SEEN; i++)
		if (seen_alive(s, i, now_ns) && s->e[i].session == session &&
		    memcmp(s->e[i].cn, cn, NB_AUTH_NONCE) == 0)
			return 1;
	return 0;
}

int
nb_auth_seen_add(struct nb_auth_seen *s, uint32_t session,
		 const uint8_t cn[NB_AUTH_NONCE], uint64_t now_ns)
{
	unsigned int i;

	for (i = 0; i < NB_AUTH_SEEN; i++) {
		if (seen_alive(s, i, now_ns))
			continue;
		s->e[i].at_ns = now_ns ? now_ns : 1;
		s->e[i].session = session;
		memcpy(s->e[i].cn, cn, NB_AUTH_NONCE);
		return 0;
	}
	return -ENOSPC;
}
