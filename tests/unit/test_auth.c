/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for control-message authentication (app/core/nb_auth.c).
 *
 * The expected cookies, keys, tags and fingerprints are known answers
 * computed outside the code under test, with Python's hmac and hashlib
 * modules (/usr/bin/python3), from the byte strings nb_auth.h documents
 * (all integers big endian):
 *
 *   import hmac, hashlib, struct
 *   H = lambda k, m: hmac.new(k, m, hashlib.sha256).digest()
 *   be = lambda v: struct.pack('>I', v)
 *   secret = bytes(range(32)); epoch = 0x0012d687
 *   mac = bytes([2, 0, 0, 0, 0, 1]); ip = 0xc6120001; sess = 0x11223344
 *   cn = bytes(range(0xa0, 0xb0))
 *   rn = bytes(range(0x50, 0x58)); rn2 = bytes(range(0x60, 0x68))
 *   psk = b"correct horse battery staple, 32"      # 32 bytes
 *   nokey = b"dpdk-nbench no key"
 *   def cookie(e, r):                               # -> cookie, seq0
 *       h = H(secret, b"nbench cookie" + be(e) + mac + be(ip) +
 *             be(sess) + cn + r)
 *       return r + h[:8], struct.unpack('>I', h[8:12])[0] or 1
 *   ck, seq0 = cookie(epoch, rn)                    # kat_cookie, KAT_SEQ0
 *   cookie(epoch - 1, rn), cookie(0, rn)            # _prev, _zero
 *   ck2, seq0_2 = cookie(epoch, rn2)                # _rn2
 *   K = lambda k, sn, label=b"nbench session": \
 *       H(k, label + cn + sn + be(sess))
 *   K(psk, ck), K(nokey, ck), K(psk, ck2)           # kat_key_*
 *   msg = bytes((i * 37 + 11) & 0xff for i in range(64))
 *   tag = lambda k, sn, m: H(k, cn + sn + m[:-16])[:16]
 *   tag(K(psk, ck), ck, msg), tag(K(nokey, ck), ck, msg)
 *   tag(K(psk, ck), ck, b"\x33" * 16)              # kat_tag_empty
 *   z = bytes(16)
 *   Kh = K(psk, z, b"nbench hello"); Khn = K(nokey, z, b"nbench hello")
 *   tag(Kh, z, msg), tag(Khn, z, msg)               # kat_hello_tag_*
 *   ":".join("%02x" % b for b in hashlib.sha256(psk).digest()[:8])
 *
 * nb_auth_hmac itself is checked against RFC 4231's test case 2.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "nb_auth.h"

#define EPOCH	0x0012d687u
#define IP	0xc6120001u
#define SESSION 0x11223344u
#define PSK	"correct horse battery staple, 32"

static const uint8_t mac1[6] = {2, 0, 0, 0, 0, 1};
static const uint8_t rn1[NB_AUTH_RN] = {0x50, 0x51, 0x52, 0x53,
					0x54, 0x55, 0x56, 0x57};
static const uint8_t rn2[NB_AUTH_RN] = {0x60, 0x61, 0x62, 0x63,
					0x64, 0x65, 0x66, 0x67};
static const uint8_t zero16[16];

/* rn1 | HMAC(secret, "nbench cookie" | EPOCH | mac1 | IP | SESSION | cn |
 * rn1)[0..8) */
static const uint8_t kat_cookie[16] = {
	0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57,
	0x39, 0x09, 0xb0, 0xa7, 0x43, 0xf6, 0x33, 0x73,
};
#define KAT_SEQ0 0xbd353a80u

/* the same in epoch EPOCH - 1 */
static const uint8_t kat_cookie_prev[16] = {
	0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57,
	0xd4, 0x6e, 0x81, 0xed, 0x26, 0x35, 0x08, 0x19,
};
#define KAT_SEQ0_PREV 0x1ed48363u

/* the same in epoch 0 */
static const uint8_t kat_cookie_zero[16] = {
	0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57,
	0xc8, 0xe6, 0x9a, 0xab, 0x3c, 0xe2, 0x89, 0x87,
};
#define KAT_SEQ0_ZERO 0x567b89d4u

/* the same HELLO (epoch EPOCH) answered with rn2 */
static const uint8_t kat_cookie_rn2[16] = {
	0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67,
	0xe3, 0xa7, 0xce, 0x03, 0x33, 0x3f, 0xe4, 0xe6,
};
#define KAT_SEQ0_RN2 0x9275e587u

/* K with PSK, sn = kat_cookie */
static const uint8_t kat_key_psk[32] = {
	0x9c, 0x83, 0x3a, 0x74, 0xe6, 0x54, 0x25, 0x8f, 0x4e, 0xc4, 0x9e,
	0x10, 0xcb, 0xc4, 0x1c, 0xc0, 0xce, 0xce, 0xe5, 0xa7, 0xb0, 0x9e,
	0x16, 0x96, 0xab, 0x07, 0x56, 0x26, 0x19, 0x2d, 0xdf, 0x2d,
};

/* K without a key ("dpdk-nbench no key"), sn = kat_cookie */
static const uint8_t kat_key_nokey[32] = {
	0xdd, 0xa3, 0xd3, 0xe9, 0x68, 0xa8, 0x0c, 0x95, 0x98, 0xff, 0xcb,
	0x27, 0xba, 0x57, 0x85, 0xf3, 0x8b, 0xfa, 0x07, 0x51, 0xd9, 0x2e,
	0xa0, 0xca, 0x9d, 0x35, 0x22, 0x8c, 0x9f, 0xa2, 0x97, 0x29,
};

/* K with PSK, sn = kat_cookie_rn2 */
static const uint8_t kat_key_psk_rn2[32] = {
	0xea, 0xd3, 0xe3, 0xcd, 0x30, 0xda, 0x00, 0x17, 0xec, 0x4a, 0x3c,
	0x06, 0x2d, 0xef, 0x18, 0x9c, 0x50, 0x4d, 0x6d, 0x3d, 0x73, 0x6d,
	0xe4, 0xb2, 0x13, 0xf4, 0xe0, 0xe1, 0x42, 0xf3, 0x49, 0x3c,
};

/* tags of the 64-byte msg (48 bytes and the tag) */
static const uint8_t kat_tag_psk[16] = {
	0x30, 0x94, 0x40, 0xb9, 0x36, 0x91, 0x3b, 0xca,
	0xa0, 0x39, 0xe5, 0xa6, 0x36, 0x38, 0xb1, 0xf0,
};
static const uint8_t kat_tag_nokey[16] = {
	0x54, 0xdc, 0x26, 0xd0, 0xde, 0x64, 0x51, 0x4b,
	0x60, 0x44, 0x5a, 0x01, 0xc5, 0xb0, 0x99, 0x48,
};
/* tag of a 16-byte message (no content, only the tag) under K with PSK */
static const uint8_t kat_tag_empty[16] = {
	0x3a, 0x95, 0x3b, 0xdb, 0x6a, 0x38, 0xcc, 0x37,
	0xcf, 0x7e, 0xe1, 0x3c, 0x08, 0x35, 0x3f, 0x06,
};

/* K_hello = HMAC(PSK, "nbench hello" | cn | 16 zeros | SESSION) */
static const uint8_t kat_hello_key_psk[32] = {
	0xc8, 0x1d, 0xbd, 0xff, 0x15, 0x55, 0x8f, 0x41, 0xf2, 0x4d, 0x86,
	0xbb, 0xc0, 0x50, 0x0c, 0xd2, 0xf2, 0x5e, 0x2e, 0x41, 0x31, 0xf5,
	0x1d, 0xb2, 0x10, 0x1e, 0x44, 0x39, 0xa1, 0x15, 0xbc, 0x0c,
};
static const uint8_t kat_hello_key_nokey[32] = {
	0x57, 0xac, 0x58, 0x3a, 0x2a, 0xe1, 0xeb, 0xa6, 0xc0, 0xeb, 0xf0,
	0xa6, 0x8d, 0x4f, 0x3f, 0xcc, 0x04, 0x33, 0x25, 0xf4, 0x1a, 0x51,
	0x9d, 0x22, 0x37, 0x35, 0x39, 0x3d, 0x0d, 0xe9, 0x93, 0x28,
};
/* tag(K_hello, cn | 16 zeros | msg[:48])[:16] */
static const uint8_t kat_hello_tag_psk[16] = {
	0xb5, 0x56, 0xe7, 0x7a, 0x10, 0xf2, 0x18, 0xc1,
	0xcf, 0xa2, 0xd6, 0x7e, 0x9f, 0xaf, 0x1a, 0xb4,
};
static const uint8_t kat_hello_tag_nokey[16] = {
	0x37, 0x16, 0x81, 0xff, 0xf6, 0x0a, 0x85, 0xd6,
	0xe6, 0x19, 0xba, 0xc4, 0x21, 0x0b, 0x2b, 0x98,
};

/* sha256(PSK)[:8] */
#define KAT_FP_PSK "83:85:9e:d3:f2:6f:4b:c8"

/* RFC 4231, test case 2: HMAC-SHA256("Jefe", "what do ya want for
 * nothing?") */
static const uint8_t rfc4231_2[32] = {
	0x5b, 0xdc, 0xc1, 0x46, 0xbf, 0x60, 0x75, 0x4e, 0x6a, 0x04, 0x24,
	0x26, 0x08, 0x95, 0x75, 0xc7, 0x5a, 0x00, 0x3f, 0x08, 0x9d, 0x27,
	0x39, 0x83, 0x9d, 0xec, 0x58, 0xb9, 0x64, 0xec, 0x38, 0x43,
};

static void
fixed_inputs(uint8_t secret[NB_AUTH_SECRET], uint8_t cn[NB_AUTH_NONCE])
{
	unsigned int i;

	for (i = 0; i < NB_AUTH_SECRET; i++)
		secret[i] = (uint8_t)i;
	for (i = 0; i < NB_AUTH_NONCE; i++)
		cn[i] = (uint8_t)(0xa0 + i);
}

static void
fixed_msg(uint8_t *msg, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		msg[i] = (uint8_t)(i * 37 + 11);
}

/* nb_auth_hmac: the parts are one message, however it is split. */
static void
test_hmac_parts(void **state)
{
	static const char data[] = "what do ya want for nothing?";
	const size_t n = sizeof(data) - 1;
	uint8_t out[32];
	size_t a, b;

	(void)state;
	for (a = 0; a <= n; a++)
		for (b = a; b <= n; b++) {
			const void *parts[] = {data, data + a, data + b};
			const size_t lens[] = {a, b - a, n - b};

			memset(out, 0, sizeof(out));
			nb_auth_hmac((const uint8_t *)"Jefe", 4, parts, lens, 3,
				     out);
			assert_memory_equal(out, rfc4231_2, 32);
		}
	{
		const void *parts[] = {data};
		const size_t lens[] = {n};

		nb_auth_hmac((const uint8_t *)"Jefe", 3, parts, lens, 1, out);
		assert_memory_not_equal(out, rfc4231_2, 32);
	}
}

static void
test_cookie_kat(void **state)
{
	uint8_t secret[NB_AUTH_SECRET], cn[NB_AUTH_NONCE], cookie[16];
	uint32_t seq0;

	(void)state;
	fixed_inputs(secret, cn);
	nb_auth_cookie(secret, EPOCH, mac1, IP, SESSION, cn, rn1, cookie,
		       &seq0);
	assert_memory_equal(cookie, kat_cookie, 16);
	assert_int_equal(seq0, KAT_SEQ0);
	/* the cookie begins with the responder's fresh bytes, as given */
	assert_memory_equal(cookie, rn1, NB_AUTH_RN);
	nb_auth_cookie(secret, EPOCH - 1, mac1, IP, SESSION, cn, rn1, cookie,
		       &seq0);
	assert_memory_equal(cookie, kat_cookie_prev, 16);
	assert_int_equal(seq0, KAT_SEQ0_PREV);
	nb_auth_cookie(secret, 0, mac1, IP, SESSION, cn, rn1, cookie, &seq0);
	assert_memory_equal(cookie, kat_cookie_zero, 16);
	assert_int_equal(seq0, KAT_SEQ0_ZERO);
	nb_auth_cookie(secret, EPOCH, mac1, IP, SESSION, cn, rn2, cookie,
		       &seq0);
	assert_memory_equal(cookie, kat_cookie_rn2, 16);
	assert_int_equal(seq0, KAT_SEQ0_RN2);
}

static int
cookie_ok(const uint8_t *secret, uint32_t epoch, const uint8_t *mac,
	  uint32_t ip, uint32_t session, const uint8_t *cn,
	  const uint8_t *cookie, uint32_t *seq0)
{
	return nb_auth_cookie_ok(secret, epoch, mac, ip, session, cn, cookie,
				 seq0);
}

static void
test_cookie_ok(void **state)
{
	uint8_t secret[NB_AUTH_SECRET], cn[NB_AUTH_NONCE], cookie[16];
	uint8_t other_mac[6], other_cn[NB_AUTH_NONCE], bad[16];
	uint32_t seq0, ok_seq0, e;
	unsigned int i, bit;

	(void)state;
	fixed_inputs(secret, cn);
	nb_auth_cookie(secret, EPOCH, mac1, IP, SESSION, cn, rn1, cookie,
		       &seq0);
	assert_memory_equal(cookie, kat_cookie, 16);

	/* made in epoch EPOCH: good then and in the next epoch only */
	for (e = EPOCH - 4; e != EPOCH + 6; e++) {
		ok_seq0 = 0;
		assert_int_equal(cookie_ok(secret, e, mac1, IP, SESSION, cn,
					   cookie, &ok_seq0),
				 e == EPOCH || e == EPOCH + 1);
		if (e == EPOCH || e == EPOCH + 1)
			assert_int_equal(ok_seq0, KAT_SEQ0);
	}

	/* seen from epoch EPOCH: the previous epoch's cookie is good too */
	ok_seq0 = 0;
	assert_int_equal(cookie_ok(secret, EPOCH, mac1, IP, SESSION, cn,
				   kat_cookie_prev, &ok_seq0),
			 1);
	assert_int_equal(ok_seq0, KAT_SEQ0_PREV);
	/* epoch - 2 and epoch + 1 are not */
	nb_auth_cookie(secret, EPOCH - 2, mac1, IP, SESSION, cn, rn1, bad,
		       &seq0);
	assert_int_equal(
		cookie_ok(secret, EPOCH, mac1, IP, SESSION, cn, bad, &ok_seq0),
		0);
	nb_auth_cookie(secret, EPOCH + 1, mac1, IP, SESSION, cn, rn1, bad,
		       &seq0);
	assert_int_equal(
		cookie_ok(secret, EPOCH, mac1, IP, SESSION, cn, bad, &ok_seq0),
		0);

	/* the rn2 cookie of the same HELLO is good on its own */
	ok_seq0 = 0;
	assert_int_equal(cookie_ok(secret, EPOCH, mac1, IP, SESSION, cn,
				   kat_cookie_rn2, &ok_seq0),
			 1);
	assert_int_equal(ok_seq0, KAT_SEQ0_RN2);
	/* rn of one cookie with the MAC half of the other: refused */
	memcpy(bad, rn2, NB_AUTH_RN);
	memcpy(bad + NB_AUTH_RN, kat_cookie + NB_AUTH_RN, 16 - NB_AUTH_RN);
	assert_int_equal(
		cookie_ok(secret, EPOCH, mac1, IP, SESSION, cn, bad, &ok_seq0),
		0);
	memcpy(bad, rn1, NB_AUTH_RN);
	memcpy(bad + NB_AUTH_RN, kat_cookie_rn2 + NB_AUTH_RN, 16 - NB_AUTH_RN);
	assert_int_equal(
		cookie_ok(secret, EPOCH, mac1, IP, SESSION, cn, bad, &ok_seq0),
		0);

	/* another client: any byte of its MAC, its IP, session, nonce;
	 * another secret */
	for (i = 0; i < 6; i++) {
		memcpy(other_mac, mac1, 6);
		other_mac[i] ^= 0x01;
		assert_int_equal(cookie_ok(secret, EPOCH, other_mac, IP,
					   SESSION, cn, cookie, &ok_seq0),
				 0);
	}
	for (i = 0; i < 4; i++) {
		assert_int_equal(cookie_ok(secret, EPOCH, mac1,
					   IP ^ (0x80u << (8 * i)), SESSION, cn,
					   cookie, &ok_seq0),
				 0);
		assert_int_equal(cookie_ok(secret, EPOCH, mac1, IP,
					   SESSION ^ (0x01u << (8 * i)), cn,
					   cookie, &ok_seq0),
				 0);
	}
	for (i = 0; i < NB_AUTH_NONCE; i++) {
		memcpy(other_cn, cn, sizeof(other_cn));
		other_cn[i] ^= 0x80;
		assert_int_equal(cookie_ok(secret, EPOCH, mac1, IP, SESSION,
					   other_cn, cookie, &ok_seq0),
				 0);
	}
	for (i = 0; i < NB_AUTH_SECRET; i++) {
		secret[i] ^= 1;
		assert_int_equal(cookie_ok(secret, EPOCH, mac1, IP, SESSION, cn,
					   cookie, &ok_seq0),
				 0);
		secret[i] ^= 1;
	}

	/* any one bit of the cookie changed: of rn (0..7) or of the MAC
	 * half (8..15), checked in both epochs it is good in */
	for (i = 0; i < 16; i++)
		for (bit = 0; bit < 8; bit++) {
			memcpy(bad, cookie, 16);
			bad[i] ^= (uint8_t)(1u << bit);
			if (cookie_ok(secret, EPOCH, mac1, IP, SESSION, cn, bad,
				      &ok_seq0) ||
			    cookie_ok(secret, EPOCH + 1, mac1, IP, SESSION, cn,
				      bad, &ok_seq0))
				fail_msg("bit %u of cookie byte %u (%s) "
					 "flipped: "
					 "accepted",
					 bit, i, i < NB_AUTH_RN ? "rn" : "MAC");
		}
	/* and still the original is good */
	assert_int_equal(cookie_ok(secret, EPOCH, mac1, IP, SESSION, cn, cookie,
				   &ok_seq0),
			 1);

	/* epoch 0 is an ordinary epoch (no wrap to epoch 0xffffffff) */
	assert_int_equal(cookie_ok(secret, 0, mac1, IP, SESSION, cn,
				   kat_cookie_zero, &ok_seq0),
			 1);
	assert_int_equal(ok_seq0, KAT_SEQ0_ZERO);
	assert_int_equal(cookie_ok(secret, 1, mac1, IP, SESSION, cn,
				   kat_cookie_zero, &ok_seq0),
			 1);
	assert_int_equal(cookie_ok(secret, 2, mac1, IP, SESSION, cn,
				   kat_cookie_zero, &ok_seq0),
			 0);
}

/* seq0 is nonzero and the same from both functions, for many clients;
 * the cookie always begins with rn. */
static void
test_cookie_seq0(void **state)
{
	uint8_t secret[NB_AUTH_SECRET], cn[NB_AUTH_NONCE], cookie[16];
	uint8_t rn[NB_AUTH_RN];
	uint32_t seq0, ok_seq0, s;

	(void)state;
	fixed_inputs(secret, cn);
	memcpy(rn, rn1, sizeof(rn));
	for (s = 1; s <= 2000; s++) {
		cn[0] = (uint8_t)s;
		cn[1] = (uint8_t)(s >> 8);
		rn[7] = (uint8_t)(s * 7);
		nb_auth_cookie(secret, EPOCH + s, mac1, IP, s, cn, rn, cookie,
			       &seq0);
		assert_int_not_equal(seq0, 0);
		assert_memory_equal(cookie, rn, NB_AUTH_RN);
		ok_seq0 = 0;
		assert_int_equal(cookie_ok(secret, EPOCH + s, mac1, IP, s, cn,
					   cookie, &ok_seq0),
				 1);
		assert_int_equal(ok_seq0, seq0);
		ok_seq0 = 0;
		assert_int_equal(cookie_ok(secret, EPOCH + s + 1, mac1, IP, s,
					   cn, cookie, &ok_seq0),
				 1);
		assert_int_equal(ok_seq0, seq0);
	}
}

/* The same HELLO answered twice (two rn): two cookies, two first seqs,
 * two session keys. */
static void
test_cookie_fresh(void **state)
{
	uint8_t secret[NB_AUTH_SECRET], cn[NB_AUTH_NONCE];
	uint8_t c1[16], c2[16];
	uint32_t s1, s2;
	struct nb_auth a1, a2;

	(void)state;
	fixed_inputs(secret, cn);
	nb_auth_cookie(secret, EPOCH, mac1, IP, SESSION, cn, rn1, c1, &s1);
	nb_auth_cookie(secret, EPOCH, mac1, IP, SESSION, cn, rn2, c2, &s2);
	assert_memory_equal(c1, kat_cookie, 16);
	assert_memory_equal(c2, kat_cookie_rn2, 16);
	assert_memory_not_equal(c1, c2, 16);
	assert_memory_not_equal(c1 + NB_AUTH_RN, c2 + NB_AUTH_RN,
				16 - NB_AUTH_RN);
	assert_int_not_equal(s1, s2);

	memset(&a1, 0, sizeof(a1));
	memset(&a2, 0, sizeof(a2));
	nb_auth_derive(&a1, (const uint8_t *)PSK, strlen(PSK), cn, c1, SESSION);
	nb_auth_derive(&a2, (const uint8_t *)PSK, strlen(PSK), cn, c2, SESSION);
	assert_memory_equal(a1.key, kat_key_psk, 32);
	assert_memory_equal(a2.key, kat_key_psk_rn2, 32);
	assert_memory_not_equal(a1.key, a2.key, 32);
}

static void
test_derive(void **state)
{
	uint8_t secret[NB_AUTH_SECRET], cn[NB_AUTH_NONCE];
	struct nb_auth a, b, c, d;

	(void)state;
	fixed_inputs(secret, cn);

	memset(&a, 0, sizeof(a));
	nb_auth_derive(&a, (const uint8_t *)PSK, strlen(PSK), cn, kat_cookie,
		       SESSION);
	assert_int_equal(a.on, 1);
	assert_memory_equal(a.cn, cn, NB_AUTH_NONCE);
	assert_memory_equal(a.sn, kat_cookie, NB_AUTH_NONCE);
	assert_memory_equal(a.key, kat_key_psk, 32);

	/* without a key: NULL or an empty one, the documented label */
	memset(&b, 0, sizeof(b));
	nb_auth_derive(&b, NULL, 0, cn, kat_cookie, SESSION);
	assert_int_equal(b.on, 1);
	assert_memory_equal(b.key, kat_key_nokey, 32);
	memset(&c, 0, sizeof(c));
	nb_auth_derive(&c, (const uint8_t *)PSK, 0, cn, kat_cookie, SESSION);
	assert_memory_equal(c.key, kat_key_nokey, 32);
	/* which is the same as giving the label as the key */
	memset(&d, 0, sizeof(d));
	nb_auth_derive(&d, (const uint8_t *)NB_AUTH_NO_KEY,
		       strlen(NB_AUTH_NO_KEY), cn, kat_cookie, SESSION);
	assert_memory_equal(d.key, kat_key_nokey, 32);
	assert_memory_not_equal(a.key, b.key, 32);

	/* every input counts */
	nb_auth_derive(&d, (const uint8_t *)PSK, strlen(PSK) - 1, cn,
		       kat_cookie, SESSION);
	assert_memory_not_equal(d.key, kat_key_psk, 32);
	nb_auth_derive(&d, (const uint8_t *)PSK, strlen(PSK), cn, kat_cookie,
		       SESSION + 1);
	assert_memory_not_equal(d.key, kat_key_psk, 32);
	nb_auth_derive(&d, (const uint8_t *)PSK, strlen(PSK), kat_cookie, cn,
		       SESSION);
	assert_memory_not_equal(d.key, kat_key_psk, 32);
	cn[15] ^= 1;
	nb_auth_derive(&d, (const uint8_t *)PSK, strlen(PSK), cn, kat_cookie,
		       SESSION);
	assert_memory_not_equal(d.key, kat_key_psk, 32);
}

/* K_hello: known answers; its own label (not the session key of a zero
 * cookie); a HELLO tag known answer; other keys do not verify it. */
static void
test_hello_key(void **state)
{
	uint8_t secret[NB_AUTH_SECRET], cn[NB_AUTH_NONCE];
	uint8_t msg[64], ref[64];
	struct nb_auth h, hn, s0, other;

	(void)state;
	fixed_inputs(secret, cn);
	memset(&h, 0xee, sizeof(h));
	nb_auth_hello_key(&h, (const uint8_t *)PSK, strlen(PSK), cn, SESSION);
	assert_int_equal(h.on, 1);
	assert_memory_equal(h.cn, cn, NB_AUTH_NONCE);
	assert_memory_equal(h.sn, zero16, NB_AUTH_NONCE);
	assert_memory_equal(h.key, kat_hello_key_psk, 32);

	memset(&hn, 0, sizeof(hn));
	nb_auth_hello_key(&hn, NULL, 0, cn, SESSION);
	assert_memory_equal(hn.key, kat_hello_key_nokey, 32);
	nb_auth_hello_key(&hn, (const uint8_t *)PSK, 0, cn, SESSION);
	assert_memory_equal(hn.key, kat_hello_key_nokey, 32);

	/* the session key of an all-zero cookie is another key */
	memset(&s0, 0, sizeof(s0));
	nb_auth_derive(&s0, (const uint8_t *)PSK, strlen(PSK), cn, zero16,
		       SESSION);
	assert_memory_not_equal(s0.key, h.key, 32);

	/* a HELLO's tag */
	fixed_msg(msg, sizeof(msg));
	memcpy(ref, msg, sizeof(msg));
	nb_auth_sign(&h, msg, sizeof(msg));
	assert_memory_equal(msg, ref, 48);
	assert_memory_equal(msg + 48, kat_hello_tag_psk, 16);
	assert_int_equal(nb_auth_verify(&h, msg, sizeof(msg)), 1);
	assert_int_equal(nb_auth_verify(&hn, msg, sizeof(msg)), 0);
	assert_int_equal(nb_auth_verify(&s0, msg, sizeof(msg)), 0);
	memcpy(msg, ref, sizeof(msg));
	nb_auth_sign(&hn, msg, sizeof(msg));
	assert_memory_equal(msg + 48, kat_hello_tag_nokey, 16);
	assert_int_equal(nb_auth_verify(&hn, msg, sizeof(msg)), 1);
	assert_int_equal(nb_auth_verify(&h, msg, sizeof(msg)), 0);

	/* signed with the PSK: another key, session or nonce fails */
	nb_auth_sign(&h, msg, sizeof(msg));
	memset(&other, 0, sizeof(other));
	nb_auth_hello_key(&other, (const uint8_t *)PSK, strlen(PSK) - 1, cn,
			  SESSION);
	assert_int_equal(nb_auth_verify(&other, msg, sizeof(msg)), 0);
	nb_auth_hello_key(&other, (const uint8_t *)PSK, strlen(PSK), cn,
			  SESSION + 1);
	assert_int_equal(nb_auth_verify(&other, msg, sizeof(msg)), 0);
	cn[0] ^= 1;
	nb_auth_hello_key(&other, (const uint8_t *)PSK, strlen(PSK), cn,
			  SESSION);
	assert_int_equal(nb_auth_verify(&other, msg, sizeof(msg)), 0);
	cn[0] ^= 1;
	nb_auth_hello_key(&other, (const uint8_t *)PSK, strlen(PSK), cn,
			  SESSION);
	assert_int_equal(nb_auth_verify(&other, msg, sizeof(msg)), 1);
}

static void
test_sign_kat(void **state)
{
	uint8_t secret[NB_AUTH_SECRET], cn[NB_AUTH_NONCE];
	uint8_t msg[64], ref[64], empty[16];
	struct nb_auth a, b;

	(void)state;
	fixed_inputs(secret, cn);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	nb_auth_derive(&a, (const uint8_t *)PSK, strlen(PSK), cn, kat_cookie,
		       SESSION);
	nb_auth_derive(&b, NULL, 0, cn, kat_cookie, SESSION);

	fixed_msg(msg, sizeof(msg));
	memcpy(ref, msg, sizeof(ref));
	nb_auth_sign(&a, msg, sizeof(msg));
	/* the first 48 bytes untouched, the tag in the last 16 */
	assert_memory_equal(msg, ref, 48);
	assert_memory_equal(msg + 48, kat_tag_psk, 16);
	assert_int_equal(nb_auth_verify(&a, msg, sizeof(msg)), 1);
	assert_int_equal(nb_auth_verify(&b, msg, sizeof(msg)), 0);

	/* whatever the tag bytes held before signing */
	memset(msg + 48, 0xff, 16);
	nb_auth_sign(&b, msg, sizeof(msg));
	assert_memory_equal(msg, ref, 48);
	assert_memory_equal(msg + 48, kat_tag_nokey, 16);
	assert_int_equal(nb_auth_verify(&b, msg, sizeof(msg)), 1);
	assert_int_equal(nb_auth_verify(&a, msg, sizeof(msg)), 0);

	/* a message that is only its tag */
	memset(empty, 0x33, sizeof(empty));
	nb_auth_sign(&a, empty, sizeof(empty));
	assert_memory_equal(empty, kat_tag_empty, 16);
	assert_int_equal(nb_auth_verify(&a, empty, sizeof(empty)), 1);
}
static void
test_sign_verify(void **state)
{
	uint8_t secret[NB_AUTH_SECRET], cn[NB_AUTH_NONCE], sn[NB_AUTH_NONCE];
	uint8_t msg[100], save[100], ref[100];
	struct nb_auth a, other, off;
	size_t i, len;
	unsigned int bit;

	(void)state;
	fixed_inputs(secret, cn);
	memcpy(sn, kat_cookie, sizeof(sn));
	memset(&a, 0, sizeof(a));
	nb_auth_derive(&a, (const uint8_t *)PSK, strlen(PSK), cn, sn, SESSION);
	fixed_msg(msg, sizeof(msg));
	nb_auth_sign(&a, msg, sizeof(msg));
	assert_int_equal(nb_auth_verify(&a, msg, sizeof(msg)), 1);
	memcpy(save, msg, sizeof(msg));

	/* any single bit flipped, in the content or in the tag */
	for (i = 0; i < sizeof(msg); i++)
		for (bit = 0; bit < 8; bit++) {
			msg[i] ^= (uint8_t)(1u << bit);
			if (nb_auth_verify(&a, msg, sizeof(msg)) != 0)
				fail_msg("bit %u of byte %zu flipped: verified",
					 bit, i);
			msg[i] ^= (uint8_t)(1u << bit);
		}
	assert_memory_equal(msg, save, sizeof(msg));
	assert_int_equal(nb_auth_verify(&a, msg, sizeof(msg)), 1);

	/* a shorter or longer message: the tag is no longer at the end */
	assert_int_equal(nb_auth_verify(&a, msg, sizeof(msg) - 1), 0);
	assert_int_equal(nb_auth_verify(&a, msg, sizeof(msg) - 16), 0);

	/* another key: another PSK, no PSK, another session, other nonces */
	memset(&other, 0, sizeof(other));
	nb_auth_derive(&other, (const uint8_t *)"another key", 11, cn, sn,
		       SESSION);
	assert_int_equal(nb_auth_verify(&other, msg, sizeof(msg)), 0);
	nb_auth_derive(&other, NULL, 0, cn, sn, SESSION);
	assert_int_equal(nb_auth_verify(&other, msg, sizeof(msg)), 0);
	nb_auth_derive(&other, (const uint8_t *)PSK, strlen(PSK), cn, sn,
		       SESSION + 1);
	assert_int_equal(nb_auth_verify(&other, msg, sizeof(msg)), 0);
	sn[0] ^= 1;
	nb_auth_derive(&other, (const uint8_t *)PSK, strlen(PSK), cn, sn,
		       SESSION);
	assert_int_equal(nb_auth_verify(&other, msg, sizeof(msg)), 0);
	sn[0] ^= 1;
	/* the same key but the nonces swapped in the struct */
	other = a;
	memcpy(other.cn, a.sn, NB_AUTH_NONCE);
	memcpy(other.sn, a.cn, NB_AUTH_NONCE);
	assert_int_equal(nb_auth_verify(&other, msg, sizeof(msg)), 0);
	/* the same inputs again: the same key, the tag verifies */
	nb_auth_derive(&other, (const uint8_t *)PSK, strlen(PSK), cn, sn,
		       SESSION);
	assert_int_equal(nb_auth_verify(&other, msg, sizeof(msg)), 1);

	/* not derived (on == 0): never verifies, even with the right key */
	off = a;
	off.on = 0;
	assert_int_equal(nb_auth_verify(&off, msg, sizeof(msg)), 0);
	memset(&off, 0, sizeof(off));
	assert_int_equal(nb_auth_verify(&off, msg, sizeof(msg)), 0);

	/* len < 16: no tag; signing leaves the bytes alone */
	for (len = 0; len < 16; len++) {
		memcpy(msg, save, sizeof(msg));
		nb_auth_sign(&a, msg, len);
		assert_memory_equal(msg, save, sizeof(msg));
		assert_int_equal(nb_auth_verify(&a, msg, len), 0);
	}
	/* len 16..100: sign then verify; nothing written past len */
	fixed_msg(ref, sizeof(ref));
	for (len = 16; len <= sizeof(msg); len++) {
		memcpy(msg, ref, sizeof(msg));
		nb_auth_sign(&a, msg, len);
		assert_int_equal(nb_auth_verify(&a, msg, len), 1);
		assert_memory_equal(msg, ref, len - 16);
		if (len < sizeof(msg))
			assert_memory_equal(msg + len, ref + len,
					    sizeof(msg) - len);
	}
}

static void
test_random(void **state)
{
	uint8_t a[32], b[32], z[32], big[4096];

	(void)state;
	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	memset(z, 0, sizeof(z));
	assert_int_equal(nb_auth_random(a, sizeof(a)), 0);
	assert_int_equal(nb_auth_random(b, sizeof(b)), 0);
	assert_memory_not_equal(a, b, sizeof(a));
	assert_memory_not_equal(a, z, sizeof(a));
	assert_int_equal(nb_auth_random(a, 0), 0);
	assert_int_equal(nb_auth_random(big, sizeof(big)), 0);
}

#define PSK_CAP 1024 /* the size of nb_config's psk */
#define SEC	1000000000ull
#define LIFE_NS ((uint64_t)NB_AUTH_SEEN_LIFE_SEC * SEC)
#define SEEN_T0 (1000 * SEC)

static void
seen_cn(uint8_t cn[NB_AUTH_NONCE], unsigned int i)
{
	memset(cn, 0, NB_AUTH_NONCE);
	cn[0] = (uint8_t)i;
	cn[1] = (uint8_t)(i >> 8);
	cn[15] = 0x5a;
}

/* The replay cache: has/add, each input counts, expiry exactly at
 * NB_AUTH_SEEN_LIFE_SEC. */
static void
test_seen_basic(void **state)
{
	static struct nb_auth_seen s;
	uint8_t cn[NB_AUTH_NONCE], cn2[NB_AUTH_NONCE];

	(void)state;
	/* 2 epochs of cookie life, and a second of slack */
	assert_int_equal(NB_AUTH_SEEN_LIFE_SEC, 33);
	memset(&s, 0, sizeof(s));
	seen_cn(cn, 1);
	assert_int_equal(nb_auth_seen_has(&s, SESSION, cn, SEEN_T0), 0);
	assert_int_equal(nb_auth_seen_add(&s, SESSION, cn, SEEN_T0), 0);
	assert_int_equal(nb_auth_seen_has(&s, SESSION, cn, SEEN_T0), 1);
	/* another session or another nonce is another entry */
	assert_int_equal(nb_auth_seen_has(&s, SESSION + 1, cn, SEEN_T0), 0);
	assert_int_equal(
		nb_auth_seen_has(&s, SESSION ^ 0x80000000u, cn, SEEN_T0), 0);
	memcpy(cn2, cn, sizeof(cn2));
	cn2[15] ^= 1;
	assert_int_equal(nb_auth_seen_has(&s, SESSION, cn2, SEEN_T0), 0);
	cn2[15] ^= 1;
	cn2[0] ^= 0x80;
	assert_int_equal(nb_auth_seen_has(&s, SESSION, cn2, SEEN_T0), 0);

	/* alive until LIFE_NS after it was added, gone from then on */
	assert_int_equal(nb_auth_seen_has(&s, SESSION, cn, SEEN_T0 + SEC), 1);
	assert_int_equal(
		nb_auth_seen_has(&s, SESSION, cn, SEEN_T0 + LIFE_NS - 1), 1);
	assert_int_equal(nb_auth_seen_has(&s, SESSION, cn, SEEN_T0 + LIFE_NS),
			 0);
	assert_int_equal(
		nb_auth_seen_has(&s, SESSION, cn, SEEN_T0 + LIFE_NS + 1), 0);
	/* a second add of another pair does not disturb the first */
	assert_int_equal(nb_auth_seen_add(&s, SESSION, cn2, SEEN_T0 + 5 * SEC),
			 0);
	assert_int_equal(nb_auth_seen_has(&s, SESSION, cn, SEEN_T0 + SEC), 1);
	assert_int_equal(nb_auth_seen_has(&s, SESSION, cn2,
					  SEEN_T0 + 5 * SEC + LIFE_NS - 1),
			 1);
	assert_int_equal(
		nb_auth_seen_has(&s, SESSION, cn2, SEEN_T0 + 5 * SEC + LIFE_NS),
		0);

	/* an empty cache has nothing, at any time (0 means free) */
	memset(&s, 0, sizeof(s));
	memset(cn, 0, sizeof(cn));
	assert_int_equal(nb_auth_seen_has(&s, 0, cn, 0), 0);
	assert_int_equal(nb_auth_seen_has(&s, 0, cn, 1), 0);
	assert_int_equal(nb_auth_seen_has(&s, 0, cn, LIFE_NS), 0);
}

/* Full of live entries: -ENOSPC, and nothing is forgotten; once the
 * oldest outlives the cookies, its slot takes a new entry (one). */
static void
test_seen_full(void **state)
{
	static struct nb_auth_seen s;
	uint8_t cn[NB_AUTH_NONCE];
	unsigned int i;
	uint64_t t;

	(void)state;
	memset(&s, 0, sizeof(s));
	/* NB_AUTH_SEEN entries, the i-th added at SEEN_T0 + i ms */
	for (i = 0; i < NB_AUTH_SEEN; i++) {
		seen_cn(cn, i);
		assert_int_equal(nb_auth_seen_add(&s, 1000 + i, cn,
						  SEEN_T0 + i * 1000000ull),
				 0);
	}
	t = SEEN_T0 + NB_AUTH_SEEN * 1000000ull;
	seen_cn(cn, NB_AUTH_SEEN);
	assert_int_equal(nb_auth_seen_add(&s, 1000 + NB_AUTH_SEEN, cn, t),
			 -ENOSPC);
	assert_int_equal(nb_auth_seen_has(&s, 1000 + NB_AUTH_SEEN, cn, t), 0);
	for (i = 0; i < NB_AUTH_SEEN; i++) {
		seen_cn(cn, i);
		assert_int_equal(nb_auth_seen_has(&s, 1000 + i, cn, t), 1);
	}
	/* one ns before the oldest expires: still full */
	t = SEEN_T0 + LIFE_NS - 1;
	seen_cn(cn, NB_AUTH_SEEN);
	assert_int_equal(nb_auth_seen_add(&s, 1000 + NB_AUTH_SEEN, cn, t),
			 -ENOSPC);
	/* the oldest's life is over exactly at LIFE_NS: its slot is free */
	t = SEEN_T0 + LIFE_NS;
	assert_int_equal(nb_auth_seen_add(&s, 1000 + NB_AUTH_SEEN, cn, t), 0);
	assert_int_equal(nb_auth_seen_has(&s, 1000 + NB_AUTH_SEEN, cn, t), 1);
	seen_cn(cn, 0);
	assert_int_equal(nb_auth_seen_has(&s, 1000, cn, t), 0);
	seen_cn(cn, 1);
	assert_int_equal(nb_auth_seen_has(&s, 1001, cn, t), 1);
	/* only one slot was free */
	seen_cn(cn, NB_AUTH_SEEN + 1);
	assert_int_equal(nb_auth_seen_add(&s, 1001 + NB_AUTH_SEEN, cn, t),
			 -ENOSPC);
	/* the next one frees 1 ms later */
	t += 1000000ull;
	assert_int_equal(nb_auth_seen_add(&s, 1001 + NB_AUTH_SEEN, cn, t), 0);
	seen_cn(cn, 1);
	assert_int_equal(nb_auth_seen_has(&s, 1001, cn, t), 0);
	seen_cn(cn, 2);
	assert_int_equal(nb_auth_seen_has(&s, 1002, cn, t), 1);
	/* all expired (the last two added at T0 + LIFE_NS and 1 ms later):
	 * every slot free again */
	t = SEEN_T0 + 3 * LIFE_NS;
	for (i = 0; i < NB_AUTH_SEEN; i++) {
		seen_cn(cn, 5000 + i);
		assert_int_equal(nb_auth_seen_add(&s, 7, cn, t), 0);
	}
	seen_cn(cn, 9999);
	assert_int_equal(nb_auth_seen_add(&s, 7, cn, t), -ENOSPC);
}

/* A base64 decoder written here (RFC 4648, padded): the number of bytes
 * decoded, or -1 on any character outside the alphabet or bad padding. */
static int
ref_b64_decode(const char *in, size_t len, uint8_t *out)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i, k;
	int n = 0;

	if (len % 4 != 0)
		return -1;
	for (i = 0; i < len; i += 4) {
		uint32_t v = 0;
		unsigned int pad = 0;

		for (k = 0; k < 4; k++) {
			const char *c = in[i + k] != '\0'
						? strchr(abc, in[i + k])
						: NULL;

			if (in[i + k] == '=' && i + 4 == len && k >= 2) {
				pad++;
				v <<= 6;
				continue;
			}
			if (c == NULL || pad != 0)
				return -1;
			v = (v << 6) | (uint32_t)(c - abc);
		}
		out[n++] = (uint8_t)(v >> 16);
		if (pad < 2)
			out[n++] = (uint8_t)(v >> 8);
		if (pad < 1)
			out[n++] = (uint8_t)v;
	}
	return n;
}

static size_t
read_all(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

static void
write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

static void
sha256_fp(const void *data, size_t len, char out[NB_AUTH_FP_STR])
{
	uint8_t md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;

	assert_int_equal(EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL),
			 1);
	assert_int_equal(mdlen, 32);
	out[0] = '\0';
	for (i = 0; i < NB_AUTH_FP_BYTES; i++)
		sprintf(out + strlen(out), "%s%02x", i ? ":" : "", md[i]);
}

static char tmp_root[64];

static int
make_tmp(void **state)
{
	(void)state;
	snprintf(tmp_root, sizeof(tmp_root), "/tmp/nb_test_auth.XXXXXX");
	return mkdtemp(tmp_root) == NULL ? -1 : 0;
}

static int
remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static int
remove_tmp(void **state)
{
	(void)state;
	return nftw(tmp_root, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* A fresh key: DIR made 0700, the file 0600 holding 44 base64 characters
 * and a newline that decode to 32 bytes; the PSK is those 44 characters;
 * the fingerprint is the first 8 bytes of the PSK's SHA-256. */
static void
test_make_key(void **state)
{
	char dir[128], path[256], why[256], text[256], fp[64], want[64];
	uint8_t psk[PSK_CAP], raw[64], psk1[PSK_CAP];
	uint32_t len = 0, len1;
	struct stat st;
	size_t n;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/keys", tmp_root);
	why[0] = '\0';
	assert_int_equal(nb_auth_make_key(dir, "rsp0", psk, &len, path,
					  sizeof(path), why, sizeof(why)),
			 0);
	assert_string_equal(why, "");
	snprintf(text, sizeof(text), "%s/rsp0.key", dir);
	assert_string_equal(path, text);

	assert_int_equal(lstat(dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(st.st_uid, geteuid());

	n = read_all(path, text, sizeof(text));
	assert_int_equal(n, 45);
	assert_int_equal(st.st_size, 45);
	assert_int_equal(text[44], '\n');
	assert_int_equal(ref_b64_decode(text, 44, raw), NB_AUTH_KEY_RAW);
	assert_int_equal(len, 44);
	assert_memory_equal(psk, text, 44);

	/* the fingerprint: sha256 of the PSK (the 44 characters) */
	sha256_fp(psk, len, want);
	assert_int_equal(strlen(want), NB_AUTH_FP_STR - 1);
	memset(fp, 'x', sizeof(fp));
	nb_auth_fingerprint(psk, len, fp, NB_AUTH_FP_STR);
	assert_string_equal(fp, want);

	/* again: the old file replaced by a new key */
	memcpy(psk1, psk, len);
	len1 = len;
	assert_int_equal(nb_auth_make_key(dir, "rsp0", psk, &len, path,
					  sizeof(path), why, sizeof(why)),
			 0);
	assert_int_equal(len, len1);
	assert_memory_not_equal(psk, psk1, len);
	n = read_all(path, text, sizeof(text));
	assert_int_equal(n, 45);
	assert_memory_equal(psk, text, 44);

	/* an old file of someone's, open to all, with other content: gone,
	 * and the new one is 0600 */
	write_file(path,
		   "an old key that anyone could read, much longer "
		   "than a fresh one\n",
		   0644);
	assert_int_equal(nb_auth_make_key(dir, "rsp0", psk, &len, path,
					  sizeof(path), why, sizeof(why)),
			 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(st.st_size, 45);
	n = read_all(path, text, sizeof(text));
	assert_int_equal(n, 45);
	assert_memory_equal(psk, text, 44);
	assert_int_equal(ref_b64_decode(text, 44, raw), NB_AUTH_KEY_RAW);
}

/* A link at the key's path is removed, never followed: its target keeps
 * its content and mode. */
static void
test_make_key_symlink(void **state)
{
	char dir[128], path[256], why[256], target[256], text[256];
	uint8_t psk[PSK_CAP];
	uint32_t len = 0;
	struct stat st;
	size_t n;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/linkdir", tmp_root);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(target, sizeof(target), "%s/target", tmp_root);
	write_file(target, "the target\n", 0644);
	snprintf(path, sizeof(path), "%s/rsp1.key", dir);
	assert_int_equal(symlink(target, path), 0);

	assert_int_equal(nb_auth_make_key(dir, "rsp1", psk, &len, path,
					  sizeof(path), why, sizeof(why)),
			 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0600);
	n = read_all(path, text, sizeof(text));
	assert_int_equal(n, 45);
	assert_memory_equal(psk, text, 44);

	/* the target untouched */
	n = read_all(target, text, sizeof(text));
	assert_int_equal(n, strlen("the target\n"));
	assert_memory_equal(text, "the target\n", n);
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);

	/* a dangling link: not followed to create its target either */
	assert_int_equal(unlink(path), 0);
	snprintf(target, sizeof(target), "%s/nowhere", tmp_root);
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(nb_auth_make_key(dir, "rsp1", psk, &len, path,
					  sizeof(path), why, sizeof(why)),
			 0);
	assert_int_equal(lstat(target, &st), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
}

/* A directory others (or the group) may write to, a link in place of the
 * directory, one not ours, a name that is a path: refused, no file. */
static void
test_make_key_refused(void **state)
{
	static const mode_t modes[] = {0777, 0702, 0720, 0730, 0703, 01777};
	char dir[128], path[256], why[256], key[256], real[128];
	uint8_t psk[PSK_CAP];
	uint32_t len = 12345;
	struct stat st;
	unsigned int i;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/open", tmp_root);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(key, sizeof(key), "%s/rsp2.key", dir);
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		assert_int_equal(chmod(dir, modes[i]), 0);
		why[0] = '\0';
		assert_int_equal(nb_auth_make_key(dir, "rsp2", psk, &len, path,
						  sizeof(path), why,
						  sizeof(why)),
				 -EPERM);
		assert_non_null(strstr(why, dir));
		assert_int_equal(len, 12345);
		assert_int_equal(lstat(key, &st), -1);
	}
	/* readable (not writable) by others is not refused */
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(nb_auth_make_key(dir, "rsp2", psk, &len, path,
					  sizeof(path), why, sizeof(why)),
			 0);
	assert_int_equal(lstat(key, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);

	/* a link to a good directory in place of the directory */
	snprintf(real, sizeof(real), "%s/real", tmp_root);
	assert_int_equal(mkdir(real, 0700), 0);
	snprintf(dir, sizeof(dir), "%s/linked", tmp_root);
	assert_int_equal(symlink(real, dir), 0);
	len = 12345;
	assert_int_equal(nb_auth_make_key(dir, "rsp3", psk, &len, path,
					  sizeof(path), why, sizeof(why)),
			 -EPERM);
	snprintf(key, sizeof(key), "%s/rsp3.key", real);
	assert_int_equal(lstat(key, &st), -1);
	assert_int_equal(len, 12345);

	/* a name with a slash, a path that does not fit */
	assert_int_equal(nb_auth_make_key(real, "../rsp4", psk, &len, path,
					  sizeof(path), why, sizeof(why)),
			 -ENAMETOOLONG);
	snprintf(key, sizeof(key), "%s/rsp4.key", tmp_root);
	assert_int_equal(lstat(key, &st), -1);
	assert_int_equal(nb_auth_make_key(real, "rsp4", psk, &len, path,
					  strlen(real) + 5, why, sizeof(why)),
			 -ENAMETOOLONG);
	assert_int_equal(len, 12345);

	/* a directory that is not ours (root only can make one) */
	if (geteuid() == 0) {
		snprintf(dir, sizeof(dir), "%s/theirs", tmp_root);
		assert_int_equal(mkdir(dir, 0700), 0);
		assert_int_equal(chown(dir, 65534, 65534), 0);
		assert_int_equal(nb_auth_make_key(dir, "rsp5", psk, &len, path,
						  sizeof(path), why,
						  sizeof(why)),
				 -EPERM);
		snprintf(key, sizeof(key), "%s/rsp5.key", dir);
		assert_int_equal(lstat(key, &st), -1);
	}
	/* a file where the directory should be */
	snprintf(dir, sizeof(dir), "%s/plain", tmp_root);
	write_file(dir, "x", 0600);
	assert_int_not_equal(nb_auth_make_key(dir, "rsp6", psk, &len, path,
					      sizeof(path), why, sizeof(why)),
			     0);
	assert_int_equal(len, 12345);
}

/* The fingerprint: a known answer, what EVP_Digest gives, and a short
 * buffer cut at a whole byte. */
static void
test_fingerprint(void **state)
{
	char fp[64], want[64];
	uint8_t key[200];
	size_t i;

	(void)state;
	memset(fp, 'x', sizeof(fp));
	nb_auth_fingerprint((const uint8_t *)PSK, strlen(PSK), fp,
			    NB_AUTH_FP_STR);
	assert_string_equal(fp, KAT_FP_PSK);
	memset(fp, 'x', sizeof(fp));
	nb_auth_fingerprint((const uint8_t *)PSK, strlen(PSK), fp, sizeof(fp));
	assert_string_equal(fp, KAT_FP_PSK);

	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 131 + 7);
	for (i = 0; i <= sizeof(key); i += 13) {
		sha256_fp(key, i, want);
		nb_auth_fingerprint(key, i, fp, NB_AUTH_FP_STR);
		assert_string_equal(fp, want);
	}

	/* 10 bytes of room: the first three bytes, "xx:xx:xx" */
	memset(fp, 'x', sizeof(fp));
	nb_auth_fingerprint((const uint8_t *)PSK, strlen(PSK), fp, 10);
	assert_string_equal(fp, "83:85:9e");
	/* no room: nothing written */
	memset(fp, 'x', sizeof(fp));
	nb_auth_fingerprint((const uint8_t *)PSK, strlen(PSK), fp, 0);
	assert_int_equal(fp[0], 'x');
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hmac_parts),
		cmocka_unit_test(test_cookie_kat),
		cmocka_unit_test(test_cookie_ok),
		cmocka_unit_test(test_cookie_seq0),
		cmocka_unit_test(test_cookie_fresh),
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_hello_key),
		cmocka_unit_test(test_sign_kat),
		cmocka_unit_test(test_sign_verify),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_seen_basic),
		cmocka_unit_test(test_seen_full),
		cmocka_unit_test(test_make_key),
		cmocka_unit_test(test_make_key_symlink),
		cmocka_unit_test(test_make_key_refused),
		cmocka_unit_test(test_fingerprint),
	};

	return cmocka_run_group_tests(tests, make_tmp, remove_tmp);
}
