/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for RFC 6528 initial sequence numbers (app/core/nb_tcp_isn.c).
 *
 * The expected F is computed here, outside the code under test, with
 * OpenSSL's one-shot HMAC() over the bytes nb_tcp_isn.h documents: the
 * local IPv4, local port, remote IPv4, remote port, each big endian (12
 * bytes), keyed with the 32-byte secret; F is the digest's first 4 bytes
 * read big endian.  M is now_ns / 4000 computed here too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "nb_tcp_isn.h"
#include "nb_test_util.h"

#define LIP   0xc6130001u /* 198.19.0.1 */
#define LPORT 5201
#define RIP   0xc6130064u /* 198.19.0.100 */
#define RPORT 49152

static void
seed(struct nb_tcp_isn *k, uint8_t base)
{
	unsigned int i;

	for (i = 0; i < sizeof(k->secret); i++)
		k->secret[i] = (uint8_t)(base + 7 * i);
}

/* The reference F: OpenSSL's HMAC() over the tuple laid out here. */
static uint32_t
ref_f(const struct nb_tcp_isn *k, uint32_t lip, uint16_t lport, uint32_t rip,
      uint16_t rport)
{
	uint8_t msg[12], md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	msg[0] = (uint8_t)(lip >> 24);
	msg[1] = (uint8_t)(lip >> 16);
	msg[2] = (uint8_t)(lip >> 8);
	msg[3] = (uint8_t)lip;
	msg[4] = (uint8_t)(lport >> 8);
	msg[5] = (uint8_t)lport;
	msg[6] = (uint8_t)(rip >> 24);
	msg[7] = (uint8_t)(rip >> 16);
	msg[8] = (uint8_t)(rip >> 8);
	msg[9] = (uint8_t)rip;
	msg[10] = (uint8_t)(rport >> 8);
	msg[11] = (uint8_t)rport;
	assert_non_null(HMAC(EVP_sha256(), k->secret, (int)sizeof(k->secret),
			     msg, sizeof(msg), md, &mdlen));
	assert_int_equal(mdlen, 32);
	return ((uint32_t)md[0] << 24) | ((uint32_t)md[1] << 16) |
	       ((uint32_t)md[2] << 8) | md[3];
}

/* (a) F is the reference HMAC's first 4 bytes, big endian; the ISN is
 * F + now_ns / 4000 (mod 2^32). */
static void
test_matches_reference(void **state)
{
	static const uint64_t now[] = {
		0,
		3999,
		4000,
		7999,
		8000,
		123456789,
		UINT64_C(4000) << 32,		   /* M wraps to 0 */
		(UINT64_C(4000) << 32) + 4000 - 1, /* still 0 */
		UINT64_MAX,
	};
	struct nb_tcp_isn k;
	uint64_t rng = 1;
	unsigned int i, t;

	(void)state;
	for (t = 0; t < 50; t++) {
		uint32_t lip = (uint32_t)rng_next(&rng);
		uint32_t rip = (uint32_t)rng_next(&rng);
		uint16_t lport = (uint16_t)rng_next(&rng);
		uint16_t rport = (uint16_t)rng_next(&rng);
		uint32_t f;

		seed(&k, (uint8_t)t);
		f = ref_f(&k, lip, lport, rip, rport);
		assert_int_equal(nb_tcp_isn_hash(&k, lip, lport, rip, rport),
				 f);
		for (i = 0; i < sizeof(now) / sizeof(now[0]); i++)
			assert_int_equal(
				nb_tcp_isn_next(&k, lip, lport, rip, rport,
						now[i]),
				(uint32_t)(f + (uint32_t)(now[i] / 4000)));
	}
	/* M by itself: exactly one per 4000 ns, not one more or less */
	seed(&k, 0x42);
	{
		uint32_t f = ref_f(&k, LIP, LPORT, RIP, RPORT);

		assert_int_equal(nb_tcp_isn_next(&k, LIP, LPORT, RIP, RPORT, 0),
				 f);
		assert_int_equal(
			nb_tcp_isn_next(&k, LIP, LPORT, RIP, RPORT, 3999), f);
		assert_int_equal(
			nb_tcp_isn_next(&k, LIP, LPORT, RIP, RPORT, 4000),
			f + 1);
		assert_int_equal(nb_tcp_isn_next(&k, LIP, LPORT, RIP, RPORT,
						 4000 * 1000000ull - 1),
				 f + 999999);
		assert_int_equal(nb_tcp_isn_next(&k, LIP, LPORT, RIP, RPORT,
						 4000 * 1000000ull),
				 f + 1000000);
	}
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * (b) Over N = 100,000 random 4-tuples at one time, each of the 32 bits
 * is set in N/2 +- 5 sigma of the ISNs (binomial: sigma = sqrt(N/4) =
 * 158, so +- 791; a fair bit falls outside with p = 5.7e-7, 1.8e-5 for
 * any of 32), and the pairs of equal ISNs are as few as random 32-bit
 * values give: N(N-1)/2 / 2^32 = 1.16 expected, Poisson; 10 or more has
 * p < 1e-7.
 */
#define DIST_N 100000
static void
test_distribution(void **state)
{
	uint32_t *v = malloc(DIST_N * sizeof(*v));
	unsigned int ones[32] = {0}, i, b, pairs = 0;
	const double sigma = 158.11; /* sqrt(100000 * 0.5 * 0.5) */
	const unsigned int lo = (unsigned int)(DIST_N / 2 - 5 * sigma);
	const unsigned int hi = (unsigned int)(DIST_N / 2 + 5 * sigma);
	struct nb_tcp_isn k;
	uint64_t rng = 0x6528;

	(void)state;
	assert_non_null(v);
	seed(&k, 0x99);
	for (i = 0; i < DIST_N; i++) {
		uint64_t r = rng_next(&rng);

		v[i] = nb_tcp_isn_next(&k, (uint32_t)r, (uint16_t)(r >> 32),
				       (uint32_t)rng_next(&rng),
				       (uint16_t)(r >> 48),
				       UINT64_C(1700000000000000000));
		for (b = 0; b < 32; b++)
			ones[b] += (v[i] >> b) & 1;
	}
	for (b = 0; b < 32; b++) {
		if (ones[b] < lo || ones[b] > hi)
			fail_msg("bit %u set in %u of %u ISNs (want %u..%u)", b,
				 ones[b], DIST_N, lo, hi);
	}
	qsort(v, DIST_N, sizeof(*v), cmp_u32);
	for (i = 1; i < DIST_N; i++)
		pairs += v[i] == v[i - 1];
	if (pairs >= 10)
		fail_msg("%u equal neighbours among %u ISNs (expected ~1.2)",
			 pairs, DIST_N);
	free(v);
}

/* (c) Any one field changed changes the ISN; two secrets (two processes'
 * inits) give two ISNs for one tuple. */
static void
test_independence(void **state)
{
	struct nb_tcp_isn k, a, b;
	const uint64_t now = 987654321000ull;
	uint32_t base;
	unsigned int bit;

	(void)state;
	seed(&k, 3);
	base = nb_tcp_isn_next(&k, LIP, LPORT, RIP, RPORT, now);
	for (bit = 0; bit < 32; bit++) {
		assert_int_not_equal(nb_tcp_isn_next(&k, LIP ^ (1u << bit),
						     LPORT, RIP, RPORT, now),
				     base);
		assert_int_not_equal(nb_tcp_isn_next(&k, LIP, LPORT,
						     RIP ^ (1u << bit), RPORT,
						     now),
				     base);
	}
	for (bit = 0; bit < 16; bit++) {
		assert_int_not_equal(
			nb_tcp_isn_next(&k, LIP,
					(uint16_t)(LPORT ^ (1u << bit)), RIP,
					RPORT, now),
			base);
		assert_int_not_equal(
			nb_tcp_isn_next(&k, LIP, LPORT, RIP,
					(uint16_t)(RPORT ^ (1u << bit)), now),
			base);
	}
	/* the two ends of one connection: the tuple swapped */
	assert_int_not_equal(nb_tcp_isn_next(&k, RIP, RPORT, LIP, LPORT, now),
			     base);
	/* the next client port, as -P 2's second connection */
	assert_int_not_equal(
		nb_tcp_isn_next(&k, LIP, LPORT, RIP, RPORT + 1, now), base);
	/* two processes */
	assert_int_equal(nb_tcp_isn_init(&a), 0);
	assert_int_equal(nb_tcp_isn_init(&b), 0);
	assert_memory_not_equal(a.secret, b.secret, sizeof(a.secret));
	assert_int_not_equal(nb_tcp_isn_next(&a, LIP, LPORT, RIP, RPORT, now),
			     nb_tcp_isn_next(&b, LIP, LPORT, RIP, RPORT, now));
	assert_int_equal(nb_tcp_isn_hash(&a, LIP, LPORT, RIP, RPORT),
			 ref_f(&a, LIP, LPORT, RIP, RPORT));
	/* the process's secret: made once, the same every call */
	assert_non_null(nb_tcp_isn_process());
	assert_ptr_equal(nb_tcp_isn_process(), nb_tcp_isn_process());
}

/* (d) One tuple later: the ISN has moved on by the 4 us ticks between,
 * so it only goes up (mod 2^32, within 2^31 ticks: 2.4 hours). */
static void
test_monotonic(void **state)
{
	struct nb_tcp_isn k;
	uint64_t now = 5000000000ull, rng = 77;
	uint32_t prev, isn;
	unsigned int i;

	(void)state;
	seed(&k, 11);
	prev = nb_tcp_isn_next(&k, LIP, LPORT, RIP, RPORT, now);
	for (i = 0; i < 1000; i++) {
		uint64_t dt = rng_below(&rng, 4000000000ull); /* < 4 s */
		uint64_t ticks = (now + dt) / 4000 - now / 4000;

		now += dt;
		isn = nb_tcp_isn_next(&k, LIP, LPORT, RIP, RPORT, now);
		assert_int_equal((uint32_t)(isn - prev), (uint32_t)ticks);
		assert_true((int32_t)(isn - prev) >= 0);
		prev = isn;
	}
	/* 1 ms later: 250 ticks */
	isn = nb_tcp_isn_next(&k, LIP, LPORT, RIP, RPORT, now + 1000000);
	assert_int_equal(isn - prev, 250);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matches_reference),
		cmocka_unit_test(test_distribution),
		cmocka_unit_test(test_independence),
		cmocka_unit_test(test_monotonic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
