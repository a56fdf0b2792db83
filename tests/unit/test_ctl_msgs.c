/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control messages one by one (app/core/nb_ctl_msgs.c,
 * nb_ctl_setup.c): MAC lists, ACCEPT, RESULTS and its chunks, HELLO's
 * flags, QUIT, INTERVAL, the names and the message table.
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

/* The MAC lists of ACCEPT (body offset 4) and PARAMS (208 since version 10),
 * version 8: count, reserved, 7 MACs; what the decoder takes and what it drops.
 */
static void
test_macs(void **state)
{
	static const struct {
		const char *what;
		uint8_t n, reserved, slot, mac0;
		int ok;
	} cases[] = {
		{"none", 0, 0, 0, 0, 1},
		{"one unicast", 1, 0, 0, 0x02, 1},
		{"all seven", 7, 0, 6, 0x02, 1},
		{"one, zero MAC", 1, 0, 0, 0, 0},
		{"one multicast", 1, 0, 0, 0x01, 0},
		{"broadcast", 1, 0, 0, 0xff, 0},
		{"eight", 8, 0, 6, 0x02, 0},
		{"reserved set", 0, 1, 7, 0, 0},
		{"count 0, slot 0 used", 0, 0, 0, 0x02, 0},
		{"count 3, slot 6 used", 3, 0, 6, 0x02, 0},
	};
	struct nb_ctl_msg m, d;
	uint8_t *buf, *macs;
	size_t len, i, j, k, off[2] = {4, 208};
	uint8_t type[2] = {NB_CTL_ACCEPT, NB_CTL_PARAMS};

	(void)state;
	for (k = 0; k < 2; k++)
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			if (type[k] == NB_CTL_PARAMS)
				base_params(&m);
			else {
				nb_ctl_msg_init(&m, NB_CTL_ACCEPT, 7);
				m.seq = 2;
				m.u.accept.rx_queues = 1;
			}
			buf = encode_exact(&m, &len);
			macs = buf + H + off[k];
			macs[0] = cases[i].n;
			macs[1] = cases[i].reserved;
			/* slots 0..n-1 a unicast MAC each, then the case's
			 * first byte in its slot (0: the slot zeroed; slot
			 * 7: none) */
			for (j = 0; j < cases[i].n && j < 7; j++) {
				memcpy(macs + 2 + 6 * j, "\x02\0\0\0\x10", 5);
				macs[2 + 6 * j + 5] = (uint8_t)j;
			}
			if (cases[i].slot < 7 && cases[i].mac0 == 0)
				memset(macs + 2 + 6 * cases[i].slot, 0, 6);
			else if (cases[i].slot < 7)
				macs[2 + 6 * cases[i].slot] = cases[i].mac0;
			if (decode_exact(buf, len, &d) !=
			    (cases[i].ok ? 0 : -EPROTO))
				fail_msg("%s: %s", nb_ctl_type_name(type[k]),
					 cases[i].what);
			if (cases[i].ok) {
				const struct nb_ctl_macs *got =
					type[k] == NB_CTL_PARAMS
						? &d.u.params.client_macs
						: &d.u.accept.responder_macs;

				assert_int_equal(got->n, cases[i].n);
				check_reencode(&d, buf, len);
			}
			free(buf);
		}
	/* the encoder refuses what the decoder drops */
	base_params(&m);
	m.u.params.client_macs.n = 1;
	m.u.params.client_macs.mac[0][0] = 0x01;
	assert_int_equal(
		nb_ctl_encode(&m, d.u.res.chunk, sizeof(d.u.res.chunk)),
		-EINVAL);
	m.u.params.client_macs.n = 8;
	assert_int_equal(
		nb_ctl_encode(&m, d.u.res.chunk, sizeof(d.u.res.chunk)),
		-EINVAL);
}

/* ACCEPT's responder set-up (version 8): offloads and NUMA, byte by
 * byte, and what the decoder drops. */
static void
test_accept_setup(void **state)
{
	static const struct patch bad[] = {
		{"unknown flag 32", 48, 4, 32},
		{"rss_l4 without rss", 48, 4, 4},
		{"flow control 6", 52, 1, 6},
		{"reserved 53", 53, 1, 1},
		{"reserved 54", 54, 2, 1},
		{"port_node -2", 58, 2, 0xfffe},
		{"cross > workers", 62, 2, 9},
		{"a byte after csum_why's NUL", 216, 8, 0x41},
		{"a byte after rate_why's NUL", 700, 4, 0x41},
	};
	struct nb_ctl_msg m, d;
	uint8_t *buf, *orig;
	size_t len, i;

	(void)state;
	nb_ctl_msg_init(&m, NB_CTL_ACCEPT, 7);
	m.seq = 2;
	m.u.accept.rx_queues = 2;
	m.u.accept.offload.tx_l4_csum = 1;
	m.u.accept.offload.rss = 1;
	m.u.accept.offload.hw_rate = 1;
	m.u.accept.offload.flow_control = NB_FC_UNSUPPORTED;
	snprintf(m.u.accept.offload.csum_why, NB_CTL_WHY_STR, "hw: ixgbe");
	snprintf(m.u.accept.offload.rate_why, NB_CTL_WHY_STR, "hw: ok");
	m.u.accept.numa.nodes = 2;
	m.u.accept.numa.port_node = -1;
	m.u.accept.numa.workers = 8;
	m.u.accept.numa.cross = 3;
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(len, H + 704);
	assert_memory_equal(buf + H + 48,
			    "\x00\x00\x00\x13\x05\x00\x00\x00"
			    "\x00\x02\xff\xff\x00\x08\x00\x03",
			    16);
	assert_memory_equal(buf + H + 64, "hw: ixgbe\0", 10);
	assert_int_equal(buf[H + 224], 0); /* rss_why empty */
	assert_memory_equal(buf + H + 544, "hw: ok\0", 7);
	orig = malloc(len);
	assert_non_null(orig);
	memcpy(orig, buf, len);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memcpy(buf, orig, len);
		apply_patch(buf + H, &bad[i]);
		if (decode_exact(buf, len, &d) != -EPROTO)
			fail_msg("ACCEPT %s: decoded", bad[i].what);
	}
	memcpy(buf, orig, len);
	memset(buf + H + 384, 'A', NB_CTL_WHY_STR); /* ts_why, no NUL */
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	/* the same refused by the encoder */
	m.u.accept.offload.rss = 0;
	m.u.accept.offload.rss_l4 = 1;
	assert_int_equal(
		nb_ctl_encode(&m, d.u.res.chunk, sizeof(d.u.res.chunk)),
		-EINVAL);
	free(orig);
	free(buf);
}

/* RESULTS: chunk_len and the chunking fields. */
static void
test_results_msg(void **state)
{
	struct nb_ctl_msg m, d;
	uint8_t *buf;
	size_t len;

	(void)state;
	nb_ctl_msg_init(&m, NB_CTL_RESULTS, 9);
	m.seq = 3;
	m.u.res.total_len = 3000;
	m.u.res.nb_parts = 3;
	m.u.res.part = 2;
	m.u.res.chunk_len = 3000 - 2048;
	memset(m.u.res.chunk, 0x77, sizeof(m.u.res.chunk));
	buf = encode_exact(&m, &len);
	assert_int_equal(len, H + 14 + 952);

	/* chunk_len beyond the datagram, or short of it */
	nb_put_be16(buf + H + 12, 953);
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	nb_put_be16(buf + H + 12, 0xffff);
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	nb_put_be16(buf + H + 12, 951);
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	nb_put_be16(buf + H + 12, 0);
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	nb_put_be16(buf + H + 12, 952);
	assert_int_equal(decode_exact(buf, len, &d), 0);

	/* chunking fields inconsistent */
	nb_put_be32(buf + H + 0, 3); /* part == nb_parts */
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	nb_put_be32(buf + H + 0, 1); /* part 1 has 1024 bytes */
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	nb_put_be32(buf + H + 0, 2);
	nb_put_be32(buf + H + 4, 4); /* wrong nb_parts */
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	nb_put_be32(buf + H + 4, 3);
	nb_put_be32(buf + H + 8, 3001); /* wrong total_len */
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	nb_put_be32(buf + H + 8, 3000);
	assert_int_equal(decode_exact(buf, len, &d), 0);
	free(buf);

	/* chunk_len > NB_CTL_CHUNK with a datagram that long */
	buf = calloc(1, H + 14 + 1025);
	assert_non_null(buf);
	put_hdr(buf, NB_CTL_RESULTS, H + 14 + 1025, 9, 3);
	nb_put_be32(buf + H + 0, 0);
	nb_put_be32(buf + H + 4, 2);
	nb_put_be32(buf + H + 8, 2000);
	nb_put_be16(buf + H + 12, 1025);
	assert_int_equal(decode_exact(buf, H + 14 + 1025, &d), -EPROTO);
	/* the same with a legal length decodes */
	put_hdr(buf, NB_CTL_RESULTS, H + 14 + 1024, 9, 3);
	nb_put_be16(buf + H + 12, 1024);
	assert_int_equal(decode_exact(buf, H + 14 + 1024, &d), 0);
	free(buf);

	/* an empty blob is one empty part */
	nb_ctl_msg_init(&m, NB_CTL_RESULTS, 9);
	m.seq = 1;
	m.u.res.nb_parts = 1;
	roundtrip(&m);
}

/* HELLO/WELCOME flags: bit 0 only. */
static void
test_conf_flags(void **state)
{
	uint64_t r = 18;
	struct nb_ctl_msg m, d;
	uint8_t *buf, enc[H + 562 + 16];
	size_t len;
	uint32_t bit, tagged;
	int rc;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		rand_msg(&r, tagged ? NB_CTL_WELCOME : NB_CTL_HELLO, &m);
		m.tagged = (uint8_t)tagged;
		m.u.conf.flags = 0;
		buf = encode_exact(&m, &len);
		assert_int_equal(len, H + 562 + 16 * tagged);
		assert_int_equal(rd32(buf + H + 364), 0);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		assert_int_equal(d.u.conf.flags, 0);
		nb_put_be32(buf + H + 364, 1);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		assert_int_equal(d.u.conf.flags, NB_CTL_CONF_F_KEY);
		check_reencode(&d, buf, len);
		for (bit = 1; bit < 32; bit++) {
			nb_put_be32(buf + H + 364, 1u << bit);
			rc = decode_exact(buf, len, &d);
			if (rc != -EPROTO)
				fail_msg("flags bit %u: decode returned %d",
					 bit, rc);
			nb_put_be32(buf + H + 364, (1u << bit) | 1);
			assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
			m.u.conf.flags = 1u << bit;
			assert_int_equal(nb_ctl_encode(&m, enc, sizeof(enc)),
					 -EINVAL);
			m.u.conf.flags = (1u << bit) | NB_CTL_CONF_F_KEY;
			assert_int_equal(nb_ctl_encode(&m, enc, sizeof(enc)),
					 -EINVAL);
		}
		m.u.conf.flags = NB_CTL_CONF_F_KEY;
		assert_int_equal(nb_ctl_encode(&m, enc, sizeof(enc)), (int)len);
		assert_memory_equal(enc + H + 364, "\0\0\0\x01", 4);
		free(buf);
	}
}

/* QUIT carries the proof and, since version 9, 130 zero bytes (a tagged
 * REJECT's body): 16 + 32 + 130 bytes, 16 more tagged.  Without the proof,
 * without the padding or with any padding byte not zero, it is
 * malformed. */
static void
test_quit(void **state)
{
	static const uint8_t junk[] = {0x01, 0x80, 0xff};
	uint64_t r = 19;
	struct nb_ctl_msg m, d;
	uint8_t *buf, *cut;
	size_t len, n, k;
	uint32_t i;

	(void)state;
	assert_int_equal(NB_CTL_QUIT_PAD, 130);
	assert_int_equal(NB_CTL_QUIT_LEN, 32 + 130);
	for (i = 0; i < 100; i++) {
		if (i % 2)
			rand_tagged(&r, NB_CTL_QUIT, &m);
		else
			rand_msg(&r, NB_CTL_QUIT, &m);
		roundtrip(&m);
		buf = encode_exact(&m, &len);
		assert_int_equal(len, 16 + 32 + 130 + 16 * (i % 2));
		assert_int_equal(nb_ctl_encoded_len(&m), (int)len);
		assert_int_equal(rd16(buf + 6), len);
		assert_memory_equal(buf + H, m.u.quit.client_nonce, 16);
		assert_memory_equal(buf + H + 16, m.u.quit.cookie, 16);
		for (n = H + 32; n < H + 32 + 130; n++)
			assert_int_equal(buf[n], 0);
		if (i % 2)
			assert_memory_equal(buf + H + 162, m.tag, 16);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		compare_proof(&m.u.quit, &d.u.quit);
		/* any padding byte not zero: refused (one canonical form) */
		if (i < 4)
			for (n = H + 32; n < H + 32 + 130; n++)
				for (k = 0; k < sizeof(junk); k++) {
					buf[n] = junk[k];
					if (decode_exact(buf, len, &d) !=
					    -EPROTO)
						fail_msg(
							"QUIT padding byte %zu "
							"= 0x%02x accepted",
							n - H - 32, junk[k]);
					buf[n] = 0;
				}
		assert_int_equal(decode_exact(buf, len, &d), 0);
		free(buf);
	}

	/* the version 2 QUIT: a bare header */
	cut = calloc(1, H + 32 + 16);
	assert_non_null(cut);
	put_hdr(cut, NB_CTL_QUIT, H, 5, 6);
	assert_int_equal(decode_exact(cut, H, &d), -EPROTO);
	/* a bare header and a tag */
	put_hdr(cut, NB_CTL_QUIT | 0x80, H + 16, 5, 6);
	assert_int_equal(decode_exact(cut, H + 16, &d), -EPROTO);
	/* version 8's QUIT (the proof, no padding) under a version 9
	 * header, untagged and tagged */
	put_hdr(cut, NB_CTL_QUIT, H + 32, 5, 6);
	assert_int_equal(decode_exact(cut, H + 32, &d), -EPROTO);
	put_hdr(cut, NB_CTL_QUIT | 0x80, H + 32 + 16, 5, 6);
	assert_int_equal(decode_exact(cut, H + 32 + 16, &d), -EPROTO);
	free(cut);

	/* any shorter body */
	nb_ctl_msg_init(&m, NB_CTL_QUIT, 5);
	m.seq = 6;
	buf = encode_exact(&m, &len);
	assert_int_equal(len, 178);
	assert_int_equal(decode_exact(buf, len, &d), 0);
	for (n = H; n < len; n++) {
		nb_put_be16(buf + 6, (uint16_t)n);
		assert_int_equal(decode_exact(buf, n, &d), -EPROTO);
	}
	free(buf);
}

/*
 * No answer a responder sends to a datagram it has not authenticated
 * (nor yet tied to a session) is longer than the datagram that provokes
 * it, so that nobody can use it to amplify traffic towards a forged
 * source: a tagged HELLO earns a tagged WELCOME, or an untagged REJECT
 * or BUSY; a tagged PARAMS or QUIT (before its tag is checked) a tagged
 * REJECT or BUSY; a datagram of another version (the largest the last
 * version had, a HELLO of 16 + 368 bytes) an untagged ERROR.  The
 * lengths are the encoder's (nb_ctl_encoded_len) for valid messages;
 * every body but RESULTS' has a fixed length.
 */
static int
enc_len(uint8_t type, int tagged)
{
	uint64_t r = 0x5eed + type;
	struct nb_ctl_msg m;

	if (tagged)
		rand_tagged(&r, type, &m);
	else
		rand_msg(&r, type, &m);
	return nb_ctl_encoded_len(&m);
}

static void
test_answer_not_longer(void **state)
{
	const int hello = enc_len(NB_CTL_HELLO, 1);
	const int quit = enc_len(NB_CTL_QUIT, 1);
	const int params = enc_len(NB_CTL_PARAMS, 1);
	const int v8_hello = 16 + 368;

	(void)state;
	/* the provokers' lengths, as documented */
	assert_int_equal(hello, 16 + 562 + 16);
	assert_int_equal(quit, 16 + 32 + 130 + 16);
	assert_int_equal(params, 16 + 704 + 16);

	assert_true(enc_len(NB_CTL_WELCOME, 1) <= hello);
	assert_true(enc_len(NB_CTL_REJECT, 0) <= hello);
	assert_true(enc_len(NB_CTL_BUSY, 0) <= hello);
	assert_true(enc_len(NB_CTL_REJECT, 1) <= quit);
	assert_true(enc_len(NB_CTL_BUSY, 1) <= quit);
	assert_true(enc_len(NB_CTL_BUSY, 1) <= params);
	assert_true(enc_len(NB_CTL_REJECT, 1) <= params);
	assert_true(enc_len(NB_CTL_ERROR, 0) <= v8_hello);
	/* QUIT's padding makes it exactly as long as a tagged REJECT's
	 * body plus the proof: no byte more than needed */
	assert_int_equal(quit, enc_len(NB_CTL_REJECT, 1) + 32);
}

static void
test_names(void **state)
{
	(void)state;
	assert_string_equal(nb_ctl_type_name(NB_CTL_HELLO), "HELLO");
	assert_string_equal(nb_ctl_type_name(NB_CTL_RESULTS_REQ),
			    "RESULTS_REQ");
	assert_string_equal(nb_ctl_type_name(NB_CTL_ERROR), "ERROR");
	assert_string_equal(nb_ctl_type_name(0), "UNKNOWN");
	assert_string_equal(nb_ctl_type_name(NB_CTL_TYPE_MAX), "UNKNOWN");
	assert_string_equal(nb_ctl_code_name(NB_CTL_CODE_VERSION),
			    "version mismatch");
	assert_string_equal(nb_ctl_code_name(0), "unknown");
	assert_string_equal(nb_ctl_code_name(NB_CTL_CODE_MAX), "unknown");
	assert_string_equal(nb_ctl_strerror(-EPROTONOSUPPORT),
			    "control protocol version mismatch");
	assert_string_equal(nb_ctl_strerror(-EPROTO),
			    "malformed control message");
	assert_string_equal(nb_ctl_strerror(-12345), "unknown control error");
}

/*
 * The message table against the documented layout: each known type's body
 * length is docs/protocol.md's (doc_body_len), a body has a writer and a
 * reader and an empty one neither (STOP, ACK), and the name is the type's.
 */
static void
test_message_table(void **state)
{
	static const char *const names[NB_CTL_TYPE_MAX] = {
		[NB_CTL_HELLO] = "HELLO",
		[NB_CTL_WELCOME] = "WELCOME",
		[NB_CTL_BUSY] = "BUSY",
		[NB_CTL_PARAMS] = "PARAMS",
		[NB_CTL_ACCEPT] = "ACCEPT",
		[NB_CTL_REJECT] = "REJECT",
		[NB_CTL_START] = "START",
		[NB_CTL_KEEPALIVE] = "KEEPALIVE",
		[NB_CTL_STOP] = "STOP",
		[NB_CTL_RESULTS_REQ] = "RESULTS_REQ",
		[NB_CTL_RESULTS] = "RESULTS",
		[NB_CTL_DONE] = "DONE",
		[NB_CTL_QUIT] = "QUIT",
		[NB_CTL_ACK] = "ACK",
		[NB_CTL_ERROR] = "ERROR",
		[NB_CTL_INTERVAL] = "INTERVAL",
	};
	unsigned int t;

	(void)state;
	for (t = 0; t < NB_CTL_TYPE_MAX; t++) {
		const struct nb_ctl_kind *k = &nb_ctl_kinds[t];

		if (names[t] == NULL) {
			assert_null(k->name);
			continue;
		}
		assert_string_equal(k->name, names[t]);
		assert_int_equal(k->body_len, doc_body_len((uint8_t)t));
		assert_int_equal(k->write == NULL, k->body_len == 0);
		assert_int_equal(k->read == NULL, k->body_len == 0);
	}
	/* the two without a body */
	assert_int_equal(nb_ctl_kinds[NB_CTL_STOP].body_len, 0);
	assert_int_equal(nb_ctl_kinds[NB_CTL_ACK].body_len, 0);
}

/* INTERVAL: its bytes, and each rule of its check on the wire. */
static void
test_interval_msg(void **state)
{
	struct nb_ctl_msg m, d;
	uint8_t *buf, *bad;
	size_t len;
	unsigned int k;
	static const struct {
		const char *what;
		size_t off;
		uint8_t val;
	} breaks[] = {
		{"unknown flag", 4, 0x06},
		{"not LAST though the part ends the streams", 4, 0x00},
		{"OMITTED with streams", 4, 0x03},
		{"reserved byte", 5, 1},
		{"first + count past nb_streams", 11, 13},
		{"count 13", 9, 13},
		{"count 0", 9, 0},
		{"nb_streams 0", 11, 0},
		{"start after end", 12, 0xff},
		{"a slot past count not zero", 124 + 2 * 64 + 7, 1},
	};

	(void)state;
	nb_ctl_msg_init(&m, NB_CTL_INTERVAL, 9);
	m.seq = 12;
	m.u.iv.index = 3;
	m.u.iv.flags = NB_CTL_IV_F_LAST;
	m.u.iv.first = 12;
	m.u.iv.count = 2;
	m.u.iv.nb_streams = 14;
	m.u.iv.start_ns = 2000000000ull;
	m.u.iv.end_ns = 3000000000ull;
	m.u.iv.rx_pkts = 14880;
	m.u.iv.s[0].rx_pkts = 7440;
	m.u.iv.s[1].jitter_ps = 2075000;
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(len, H + 892);
	assert_memory_equal(buf + H, "\0\0\0\x03\x02\0\0\x0c\0\x02\0\x0e", 12);
	assert_memory_equal(buf + H + 12, "\0\0\0\0\x77\x35\x94\x00", 8);
	assert_int_equal(rd32(buf + H + 28 + 16 + 4), 14880); /* rx_pkts */
	assert_int_equal(rd32(buf + H + 124 + 16 + 4), 7440);
	assert_int_equal(rd32(buf + H + 124 + 64 + 56 + 4), 2075000);
	assert_int_equal(decode_exact(buf, len, &d), 0);
	bad = malloc(len);
	assert_non_null(bad);
	for (k = 0; k < sizeof(breaks) / sizeof(breaks[0]); k++) {
		memcpy(bad, buf, len);
		bad[H + breaks[k].off] = breaks[k].val;
		if (decode_exact(bad, len, &d) != -EPROTO)
			fail_msg("INTERVAL with %s decoded", breaks[k].what);
	}
	/* a warm-up interval: sums only, one part */
	m.u.iv.flags = NB_CTL_IV_F_OMITTED | NB_CTL_IV_F_LAST;
	m.u.iv.first = 0;
	m.u.iv.count = 0;
	memset(m.u.iv.s, 0, sizeof(m.u.iv.s));
	roundtrip(&m);
	m.u.iv.flags = NB_CTL_IV_F_OMITTED;
	assert_int_equal(nb_ctl_encode(&m, bad, len), -EINVAL);
	free(bad);
	free(buf);
}

static void
test_results_chunks(void **state)
{
	static const uint32_t sizes[] = {0, 1, 1023, 1024, 1025, 2048, 5000};
	uint64_t r = 15;
	struct nb_ctl_msg m, d;
	uint8_t *blob, *re, *buf;
	size_t i, len;
	uint32_t part, parts;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		blob = malloc(sizes[i] + 1);
		re = calloc(1, sizes[i] + 1);
		assert_non_null(blob);
		assert_non_null(re);
		rand_bytes(&r, blob, sizes[i]);
		parts = nb_ctl_results_parts(sizes[i]);
		assert_int_equal(parts, doc_parts(sizes[i]));
		for (part = 0; part < parts; part++) {
			nb_ctl_msg_init(&m, NB_CTL_KEEPALIVE, 42);
			m.seq = part + 1;
			assert_int_equal(
				nb_ctl_results_chunk(&m, blob, sizes[i], part),
				0);
			assert_int_equal(m.type, NB_CTL_RESULTS);
			assert_int_equal(m.session, 42);
			buf = encode_exact(&m, &len);
			assert_int_equal(decode_exact(buf, len, &d), 0);
			assert_int_equal(
				nb_ctl_results_put(re, sizes[i], &d.u.res), 0);
			if (sizes[i] > 0)
				assert_int_equal(
					nb_ctl_results_put(re, sizes[i] - 1,
							   &d.u.res),
					-ENOSPC);
			free(buf);
		}
		assert_memory_equal(re, blob, sizes[i]);
		assert_int_equal(
			nb_ctl_results_chunk(&m, blob, sizes[i], parts),
			-EINVAL);
		free(blob);
		free(re);
	}
	memset(&d, 0, sizeof(d));
	d.u.res.nb_parts = 2; /* inconsistent */
	assert_int_equal(nb_ctl_results_put(re = calloc(1, 8), 8, &d.u.res),
			 -EPROTO);
	free(re);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_macs),
		cmocka_unit_test(test_accept_setup),
		cmocka_unit_test(test_results_msg),
		cmocka_unit_test(test_conf_flags),
		cmocka_unit_test(test_quit),
		cmocka_unit_test(test_answer_not_longer),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_message_table),
		cmocka_unit_test(test_interval_msg),
		cmocka_unit_test(test_results_chunks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
