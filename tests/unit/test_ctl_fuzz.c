/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control decoder against random and mutated buffers, and the
 * authentication tag's place and length (app/core/nb_ctl.c).  Every
 * decode reads a buffer of exactly the datagram's length (ASan).
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_test_util.h"

#include "nb_ctl.h"
#include "nb_ctl_msgs.h"
#include "nb_frame.h"
#include "nb_hist.h"
#include "ctl_fixtures.h"

/*
 * Random datagrams: pure noise of any length, noise of the length a random
 * type expects, and such noise behind a valid header (magic, version or a
 * random one, length field, type; RESULTS also with consistent chunking
 * fields), so that decoding gets past the header.  Any success must be a
 * canonical message.
 */
static void
test_random_buffers(void **state)
{
	uint64_t r = 11;
	struct nb_ctl_msg *d = malloc(sizeof(*d));
	uint8_t *buf = malloc(NB_CTL_MAX_LEN + 64);
	uint32_t i, ok = 0, proto = 0, vers = 0;
	size_t len;
	int rc;

	(void)state;
	assert_non_null(d);
	assert_non_null(buf);
	for (i = 0; i < N_RANDOM; i++) {
		uint32_t kind = rng_below(&r, 5);
		uint8_t type = (uint8_t)rng_below(&r, 18);
		size_t tag = rng_below(&r, 4) == 0 ? 16 : 0;

		if (kind == 0) {
			len = rng_below(&r, NB_CTL_MAX_LEN + 64);
		} else {
			len = H + doc_body_len(type) + tag;
			if (type == NB_CTL_RESULTS)
				len += rng_below(&r, 1030);
		}
		rand_bytes(&r, buf, len);
		if (kind >= 2 && len >= H) {
			put_hdr(buf, (uint8_t)(type | (tag ? 0x80 : 0)),
				(uint16_t)len, (uint32_t)rng_next(&r),
				(uint32_t)rng_next(&r));
			if (kind == 3 && type == NB_CTL_RESULTS &&
			    len >= 30 + tag) {
				uint32_t total = rng_below(&r, 4000);

				nb_put_be32(buf + H, rng_below(&r, 4));
				nb_put_be32(buf + H + 4, doc_parts(total));
				nb_put_be32(buf + H + 8, total);
				nb_put_be16(buf + H + 12,
					    (uint16_t)(len - 30 - tag));
			}
			if (kind == 4) /* any version */
				buf[4] = (uint8_t)rng_next(&r);
		}
		rc = decode_exact(buf, len, d);
		if (rc == 0) {
			ok++;
			check_reencode(d, buf, len);
		} else if (rc == -EPROTO) {
			proto++;
		} else {
			assert_int_equal(rc, -EPROTONOSUPPORT);
			vers++;
		}
	}
	/* the test reached every outcome */
	assert_true(ok > 1000);
	assert_true(proto > 1000);
	assert_true(vers > 0);
	print_message("random buffers: %u ok, %u EPROTO, %u EPROTONOSUPPORT\n",
		      ok, proto, vers);
	free(buf);
	free(d);
}

/* One random byte changed in a valid message of a random type. */
static void
test_mutations(void **state)
{
	uint64_t r = 12;
	struct nb_ctl_msg *m = malloc(sizeof(*m));
	struct nb_ctl_msg *d = malloc(sizeof(*d));
	uint32_t i, ok = 0, bad = 0;
	uint8_t *buf;
	size_t len, pos;
	int rc;

	(void)state;
	assert_non_null(m);
	assert_non_null(d);
	for (i = 0; i < N_MUTATIONS; i++) {
		/* half of them tagged */
		if (rng_below(&r, 2))
			rand_tagged(&r, rand_type(&r), m);
		else
			rand_msg(&r, rand_type(&r), m);
		buf = encode_exact(m, &len);
		pos = rng_below(&r, (uint32_t)len);
		buf[pos] ^= (uint8_t)(1 + rng_below(&r, 255));
		rc = decode_exact(buf, len, d);
		if (rc == 0) {
			ok++;
			check_reencode(d, buf, len);
		} else {
			assert_true(rc == -EPROTO || rc == -EPROTONOSUPPORT);
			bad++;
		}
		free(buf);
	}
	assert_true(ok > 1000);
	assert_true(bad > 1000);
	print_message("mutations: %u accepted (re-encoded identically), "
		      "%u rejected\n",
		      ok, bad);
	free(m);
	free(d);
}

/*
 * Tagged messages of every type: 16 bytes longer, 0x80 in the type byte,
 * the tag in the last 16 bytes; decoded without the flag in m->type and
 * re-encoded to the same bytes.  Untagged, the same message is the same
 * bytes without the tag, the flag and the 16 in the length.
 */
static void
test_tagged_roundtrip(void **state)
{
	uint64_t r = 16;
	struct nb_ctl_msg m, d;
	uint8_t *tb, *ub;
	size_t tlen, ulen;
	uint32_t t, i, k;

	(void)state;
	for (t = NB_CTL_HELLO; t < NB_CTL_TYPE_MAX; t++)
		for (i = 0; i < 50; i++) {
			rand_tagged(&r, (uint8_t)t, &m);
			if (i == 0)
				memset(m.tag, 0, sizeof(m.tag));
			else if (i == 1)
				memset(m.tag, 0xff, sizeof(m.tag));
			else if (i == 2)
				for (k = 0; k < 16; k++)
					m.tag[k] = (uint8_t)(0x80 | k);
			roundtrip(&m);

			tb = encode_exact(&m, &tlen);
			assert_int_equal(tb[5], t | 0x80);
			assert_int_equal(rd16(tb + 6), tlen);
			assert_memory_equal(tb + tlen - 16, m.tag, 16);
			if (i == 2)
				assert_memory_equal(tb + tlen - 16,
						    "\x80\x81\x82\x83"
						    "\x84\x85\x86\x87"
						    "\x88\x89\x8a\x8b"
						    "\x8c\x8d\x8e\x8f",
						    16);
			memset(&d, 0x5a, sizeof(d));
			assert_int_equal(decode_exact(tb, tlen, &d), 0);
			assert_int_equal(d.type, t); /* the flag stripped */
			assert_int_equal(d.tagged, 1);
			assert_memory_equal(d.tag, m.tag, 16);

			m.tagged = 0;
			ub = encode_exact(&m, &ulen);
			assert_int_equal(ulen + 16, tlen);
			assert_int_equal(ub[5], t);
			assert_int_equal(rd16(ub + 6), ulen);
			assert_memory_equal(ub, tb, 5);
			assert_memory_equal(ub + 8, tb + 8, ulen - 8);
			assert_int_equal(decode_exact(ub, ulen, &d), 0);
			assert_int_equal(d.type, t);
			assert_int_equal(d.tagged, 0);
			free(ub);
			free(tb);
		}
}

/*
 * The tag flag and the length must agree: a tagged message whose length
 * field lacks the 16 tag bytes, a flagged message without the tag, and a
 * tagged message with the flag cleared are all rejected.
 */
static void
test_tag_length(void **state)
{
	uint64_t r = 17;
	struct nb_ctl_msg m, d;
	uint8_t *buf;
	size_t len;
	uint32_t t;

	(void)state;
	for (t = NB_CTL_HELLO; t < NB_CTL_TYPE_MAX; t++) {
		rand_tagged(&r, (uint8_t)t, &m);
		buf = encode_exact(&m, &len);
		assert_int_equal(decode_exact(buf, len, &d), 0);

		/* the length field without the tag, datagram as sent */
		nb_put_be16(buf + 6, (uint16_t)(len - 16));
		assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		/* the same with the datagram cut there: flag, but no tag */
		assert_int_equal(decode_exact(buf, len - 16, &d), -EPROTO);
		/* and the tag not counted but longer by 16 in the field */
		nb_put_be16(buf + 6, (uint16_t)(len + 16));
		assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		nb_put_be16(buf + 6, (uint16_t)len);

		/* the flag cleared: 16 trailing bytes */
		buf[5] = (uint8_t)t;
		assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		/* with the length field and datagram cut too, it is untagged */
		nb_put_be16(buf + 6, (uint16_t)(len - 16));
		assert_int_equal(decode_exact(buf, len - 16, &d), 0);
		assert_int_equal(d.tagged, 0);
		/* the flag on an untagged message */
		buf[5] = (uint8_t)(t | 0x80);
		assert_int_equal(decode_exact(buf, len - 16, &d), -EPROTO);
		free(buf);
	}
	/* the flag on a bodiless message of header length */
	{
		uint8_t hdr[H];

		put_hdr(hdr, NB_CTL_ACK | 0x80, H, 1, 1);
		assert_int_equal(decode_exact(hdr, H, &d), -EPROTO);
		put_hdr(hdr, NB_CTL_ACK, H, 1, 1);
		assert_int_equal(decode_exact(hdr, H, &d), 0);
	}
	/* the encoder wants the flag in `tagged`, not in the type */
	nb_ctl_msg_init(&m, NB_CTL_STOP, 1);
	m.seq = 1;
	m.type |= 0x80;
	assert_int_equal(nb_ctl_encoded_len(&m), -EINVAL);
	assert_int_equal(
		nb_ctl_encode(&m, d.u.res.chunk, sizeof(d.u.res.chunk)),
		-EINVAL);
	m.type = NB_CTL_STOP;
	m.tagged = 1;
	assert_int_equal(nb_ctl_encoded_len(&m), 32);
	assert_int_equal(nb_ctl_encode(&m, d.u.res.chunk, 31), -ENOSPC);
	assert_int_equal(
		nb_ctl_encode(&m, d.u.res.chunk, sizeof(d.u.res.chunk)), 32);
	assert_int_equal(d.u.res.chunk[5], NB_CTL_STOP | 0x80);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_buffers),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_tagged_roundtrip),
		cmocka_unit_test(test_tag_length),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
