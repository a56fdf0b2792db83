/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control-protocol codec (app/core/nb_ctl.c): hand-written and random
 * round trips of every type, the header, lengths, sessions.  The other
 * test_ctl_*.c cover the fields, the messages, fuzzing and the blobs.
 *
 * Every decode reads from a malloc'd buffer of exactly the datagram's
 * length, so under AddressSanitizer any read past the end is caught.
 * Offsets in the byte patches below are the documented wire layout
 * (nb_ctl.h, docs/protocol.md); they are written out here on purpose
 * rather than derived from the code under test.
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

/* Hand-written examples, one per type; also pins a few exact bytes. */
static void
test_roundtrip_fixed(void **state)
{
	struct nb_ctl_msg m, d;
	uint8_t big[64];
	uint8_t *buf;
	size_t len;
	uint32_t i;

	(void)state;

	nb_ctl_msg_init(&m, NB_CTL_HELLO, 0x01020304);
	m.seq = 1;
	snprintf(m.u.conf.tool_version, sizeof(m.u.conf.tool_version), "0.1.0");
	snprintf(m.u.conf.dpdk_version, sizeof(m.u.conf.dpdk_version),
		 "DPDK 23.11.0");
	snprintf(m.u.conf.host, sizeof(m.u.conf.host), "client-host");
	snprintf(m.u.conf.cpu, sizeof(m.u.conf.cpu),
		 "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz");
	snprintf(m.u.conf.os, sizeof(m.u.conf.os), "Linux 6.1.0-18-amd64");
	snprintf(m.u.conf.driver, sizeof(m.u.conf.driver), "net_ice");
	m.u.conf.link_speed_mbps = 100000;
	m.u.conf.nb_ports = 2;
	m.u.conf.nb_rxq = 4;
	m.u.conf.nb_txq = 5;
	m.u.conf.nb_workers = 6;
	m.u.conf.numa_node = -1;
	memcpy(m.u.conf.mac, "\x02\x00\x00\x00\x00\x01", 6);
	m.u.conf.ipv4 = NB_DEFAULT_SRC_IP;
	m.u.conf.tsc_hz = 2596152347u;
	m.u.conf.tsc_bound_ppb = 210;
	for (i = 0; i < 16; i++)
		m.u.conf.nonce[i] = (uint8_t)(0xf0 + i);
	m.u.conf.flags = NB_CTL_CONF_F_KEY;
	m.u.conf.offer.n = 2;
	m.u.conf.offer.port[0].id = 0;
	memcpy(m.u.conf.offer.port[0].mac, "\x02\x00\x00\x00\x00\x01", 6);
	m.u.conf.offer.port[1].id = 3;
	memcpy(m.u.conf.offer.port[1].mac, "\x02\x00\x00\x00\x00\x04", 6);
	m.u.conf.offer.speed_mbps[0] = 10000;
	m.u.conf.offer.speed_mbps[1] = 100000;
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(len, 578);
	/* header: version 12, type 1, length 578 */
	assert_memory_equal(buf,
			    "NBCM\x0c\x01\x02\x42\x01\x02\x03\x04"
			    "\x00\x00\x00\x01",
			    16);
	assert_memory_equal(buf + H + 0, "0.1.0\0\0\0\0\0\0\0\0\0\0\0", 16);
	assert_memory_equal(buf + H + 240, "net_ice\0", 8);
	assert_memory_equal(buf + H + 272, "\x00\x01\x86\xa0", 4);
	assert_memory_equal(buf + H + 276,
			    "\x00\x02\x00\x04\x00\x05\x00\x06"
			    "\xff\xff",
			    10);
	assert_memory_equal(buf + H + 286,
			    "\x02\x00\x00\x00\x00\x01"
			    "\xc6\x12\x00\x01",
			    10);
	/* after boot_id (296-335): tsc_hz u64 = 0x9abe241b, bound u32 = 210 */
	assert_memory_equal(buf + H + 336,
			    "\x00\x00\x00\x00\x9a\xbe\x24\x1b"
			    "\x00\x00\x00\xd2",
			    12);
	/* since version 3: nonce[16] at 348, flags u32 at 364 */
	assert_memory_equal(buf + H + 348,
			    "\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7"
			    "\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xff",
			    16);
	assert_memory_equal(buf + H + 364, "\x00\x00\x00\x01", 4);
	/* since version 11: the offer at 368: count, reserved, 16 x (id u16,
	 * MAC), the unused ones 0 */
	assert_memory_equal(buf + H + 368,
			    "\x02\x00\x00\x00\x02\x00\x00\x00\x00\x01"
			    "\x00\x03\x02\x00\x00\x00\x00\x04",
			    18);
	for (i = 386; i < 498; i++)
		assert_int_equal(buf[H + i], 0);
	/* since version 12: each port's link speed, u32 Mbit/s, at 498 */
	assert_memory_equal(buf + H + 498, "\x00\x00\x27\x10\x00\x01\x86\xa0",
			    8);
	for (i = 506; i < 562; i++)
		assert_int_equal(buf[H + i], 0);
	free(buf);

	m.type = NB_CTL_WELCOME;
	m.u.conf.numa_node = 1;
	m.u.conf.flags = 0;
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(len, 578);
	assert_int_equal(buf[5], 2);
	assert_memory_equal(buf + H + 364, "\0\0\0\0", 4);
	free(buf);

	nb_ctl_msg_init(&m, NB_CTL_BUSY, 7);
	m.seq = 2;
	m.u.busy.asked_session = 0xdeadbeef;
	snprintf(m.u.busy.reason, sizeof(m.u.busy.reason),
		 "test in progress with 10.0.0.1");
	roundtrip(&m);

	nb_ctl_msg_init(&m, NB_CTL_PARAMS, 7);
	m.seq = 3;
	m.u.params.direction = NB_CTL_DIR_BIDIR;
	m.u.params.proto = NB_IPPROTO_TCP;
	m.u.params.vlan_id = 4094;
	m.u.params.streams = 1024;
	m.u.params.nb_sizes = 3;
	m.u.params.sizes[0] = 64;
	m.u.params.sizes[1] = 594;
	m.u.params.sizes[2] = 9000;
	m.u.params.nb_pattern = 12;
	for (i = 0; i < 12; i++)
		m.u.params.pattern[i] = (uint8_t)(i % 3);
	m.u.params.rate_num = 14880952381ull;
	m.u.params.rate_den = 1000;
	m.u.params.packets = 1000000000000ull;
	m.u.params.duration_ms = 60000;
	m.u.params.omit_ms = 2000;
	m.u.params.latency_rate = 1000;
	m.u.params.client_ip = NB_DEFAULT_SRC_IP;
	m.u.params.responder_ip = NB_DEFAULT_DST_IP;
	memcpy(m.u.params.client_mac, "\x02\x00\x00\x00\x00\x01", 6);
	memcpy(m.u.params.responder_mac, "\x02\x00\x00\x00\x00\x02", 6);
	m.u.params.sport_base = 64512; /* + 1023 = 65535 */
	m.u.params.dport = NB_DEFAULT_DPORT;
	m.u.params.interval_ms = 1000;
	m.u.params.peer_timeout_ms = 5000;
	for (i = 0; i < 16; i++) {
		m.u.params.proof.client_nonce[i] = (uint8_t)(0x10 + i);
		m.u.params.proof.cookie[i] = (uint8_t)(0xc0 + i);
	}
	m.u.params.client_macs.n = 2;
	memcpy(m.u.params.client_macs.mac[0], "\x02\x00\x00\x00\x10\x01", 6);
	memcpy(m.u.params.client_macs.mac[1], "\xaa\xbb\xcc\xdd\xee\xf0", 6);
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(len, 720);
	assert_memory_equal(buf + 6, "\x02\xd0", 2);
	assert_memory_equal(buf + H,
			    "\x02\x06\x0f\xfe\x00\x00\x04\x00"
			    "\x00\x03\x00\x40\x02\x52\x23\x28",
			    16);
	assert_memory_equal(buf + H + 42, "\x00\x0c\x00\x01\x02\x00", 6);
	assert_memory_equal(buf + H + 116, "\0\0\0\0\0\0\x03\xe8", 8);
	assert_memory_equal(buf + H + 156, "\xc6\x12\x00\x01\xc6\x13\x00\x01",
			    8);
	assert_memory_equal(buf + H + 170,
			    "\x02\x00\x00\x00\x00\x02"
			    "\xfc\x00\x13\x89",
			    10);
	/* since version 5: interval_ms at 180 */
	assert_memory_equal(buf + H + 180, "\x00\x00\x03\xe8", 4);
	/* since version 7: the TCP fields at 184, all 0 in open loop */
	assert_memory_equal(buf + H + 184, "\0\0\0\0\0\0\0\0\0\0\0\0", 12);
	/* since version 10: peer_timeout_ms at 204 */
	assert_memory_equal(buf + H + 204, "\x00\x00\x13\x88", 4);
	/* since version 8: count, reserved, 7 MACs (the unused ones 0; at
	 * 208 since 10) */
	assert_memory_equal(buf + H + 208,
			    "\x02\x00\x02\x00\x00\x00\x10\x01"
			    "\xaa\xbb\xcc\xdd\xee\xf0",
			    14);
	for (i = 222; i < 252; i++)
		assert_int_equal(buf[H + i], 0);
	/* since version 11: no mesh, 420 zeros at 252 */
	for (i = 252; i < 672; i++)
		assert_int_equal(buf[H + i], 0);
	/* since version 3: client_nonce, cookie (at 672, 688 since 11) */
	assert_memory_equal(buf + H + 672,
			    "\x10\x11\x12\x13\x14\x15\x16\x17"
			    "\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f",
			    16);
	assert_memory_equal(buf + H + 688,
			    "\xc0\xc1\xc2\xc3\xc4\xc5\xc6\xc7"
			    "\xc8\xc9\xca\xcb\xcc\xcd\xce\xcf",
			    16);
	free(buf);

	nb_ctl_msg_init(&m, NB_CTL_ACCEPT, 7);
	m.seq = 4;
	m.u.accept.rx_queues = 16;
	roundtrip(&m);

	nb_ctl_msg_init(&m, NB_CTL_REJECT, 7);
	m.seq = 5;
	m.u.reject.code = NB_CTL_CODE_PARAMS;
	memset(m.u.reject.reason, 'x', sizeof(m.u.reject.reason) - 1);
	roundtrip(&m); /* a reason of the maximum 127 bytes */

	nb_ctl_msg_init(&m, NB_CTL_START, 7);
	m.seq = 6;
	m.u.start.delay_ms = NB_CTL_MAX_START_DELAY_MS;
	m.u.start.rx_offset_ns = -123456789;
	roundtrip(&m);

	nb_ctl_msg_init(&m, NB_CTL_KEEPALIVE, 7);
	m.seq = 7;
	m.u.ka.sender_ns = 0x0123456789abcdefull;
	m.u.ka.echo_ns = 0xfedcba9876543210ull;
	m.u.ka.echo_delay_ns = 12345;
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_memory_equal(buf + H,
			    "\x01\x23\x45\x67\x89\xab\xcd\xef"
			    "\xfe\xdc\xba\x98\x76\x54\x32\x10"
			    "\0\0\0\0\0\0\x30\x39",
			    24);
	free(buf);

	nb_ctl_msg_init(&m, NB_CTL_RESULTS_REQ, 7);
	m.seq = 8;
	m.u.rreq.part = 0xffffffff;
	roundtrip(&m);

	nb_ctl_msg_init(&m, NB_CTL_RESULTS, 7);
	m.seq = 9;
	m.u.res.total_len = 2500;
	m.u.res.nb_parts = 3;
	m.u.res.part = 1;
	m.u.res.chunk_len = 1024;
	for (i = 0; i < 1024; i++)
		m.u.res.chunk[i] = (uint8_t)(i * 7);
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(len, 16 + 14 + 1024);
	assert_memory_equal(buf + H, "\0\0\0\x01\0\0\0\x03\0\0\x09\xc4\x04\x00",
			    14);
	free(buf);
	m.u.res.part = 2;
	m.u.res.chunk_len = 2500 - 2048;
	roundtrip(&m);

	nb_ctl_msg_init(&m, NB_CTL_ERROR, 7);
	m.seq = 10;
	m.u.error.code = NB_CTL_CODE_VERSION;
	snprintf(m.u.error.reason, sizeof(m.u.error.reason),
		 "version mismatch: mine 1, yours 2");
	roundtrip(&m);

	/* QUIT: the proof, as in PARAMS, then 130 zero bytes (since
	 * version 9) */
	nb_ctl_msg_init(&m, NB_CTL_QUIT, 7);
	m.seq = 11;
	for (i = 0; i < 16; i++) {
		m.u.quit.client_nonce[i] = (uint8_t)(0x20 + i);
		m.u.quit.cookie[i] = (uint8_t)(0xd0 + i);
	}
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(len, 16 + 32 + 130);
	assert_memory_equal(buf + 4, "\x0c\x0d\x00\xb2", 4);
	assert_memory_equal(buf + H,
			    "\x20\x21\x22\x23\x24\x25\x26\x27"
			    "\x28\x29\x2a\x2b\x2c\x2d\x2e\x2f"
			    "\xd0\xd1\xd2\xd3\xd4\xd5\xd6\xd7"
			    "\xd8\xd9\xda\xdb\xdc\xdd\xde\xdf",
			    32);
	for (i = H + 32; i < len; i++)
		assert_int_equal(buf[i], 0);
	free(buf);

	for (i = 0; i < 2; i++) {
		static const uint8_t empty[] = {
			NB_CTL_STOP,
			NB_CTL_ACK,
		};

		nb_ctl_msg_init(&m, empty[i], 0xffffffff);
		m.seq = 0xfffffffe;
		roundtrip(&m);
		buf = encode_exact(&m, &len);
		assert_int_equal(len, 16);
		assert_int_equal(buf[5], empty[i]);
		assert_memory_equal(buf + 6,
				    "\x00\x10\xff\xff\xff\xff"
				    "\xff\xff\xff\xfe",
				    10);
		free(buf);
	}

	/* DONE (since version 6): flags u32, LEAVING = 1; no other flag */
	nb_ctl_msg_init(&m, NB_CTL_DONE, 0x01020304);
	m.seq = 7;
	m.u.done.flags = NB_CTL_DONE_F_LEAVING;
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(len, 20);
	assert_memory_equal(buf + 4, "\x0c\x0c\x00\x14", 4);
	assert_memory_equal(buf + H, "\x00\x00\x00\x01", 4);
	buf[H + 3] = 2;
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	buf[H + 3] = 0;
	assert_int_equal(decode_exact(buf, len, &d), 0);
	assert_int_equal(d.u.done.flags, 0);
	/* version 5's DONE had no body: now malformed */
	buf[7] = 16;
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTO);
	free(buf);
	m.u.done.flags = 0x80000001;
	assert_int_equal(nb_ctl_encoded_len(&m), 20);
	assert_int_equal(nb_ctl_encode(&m, big, sizeof(big)), -EINVAL);
}

static void
test_roundtrip_random(void **state)
{
	uint64_t r = 1;
	struct nb_ctl_msg m;
	uint32_t t, i;

	(void)state;
	for (t = NB_CTL_HELLO; t < NB_CTL_TYPE_MAX; t++)
		for (i = 0; i < 300; i++) {
			rand_msg(&r, (uint8_t)t, &m);
			roundtrip(&m);
		}
}

static void
test_max_len(void **state)
{
	uint64_t r = 2;
	struct nb_ctl_msg m;
	uint8_t buf[NB_CTL_MAX_LEN + 1];
	uint32_t t;
	int n;

	(void)state;
	assert_true(NB_CTL_MAX_LEN <= 1472 - 4);
	/* header, RESULTS fixed part, a full chunk, a tag */
	assert_int_equal(NB_CTL_MAX_LEN, 16 + 14 + 1024 + 16);
	assert_int_equal(NB_CTL_MAX_LEN, 1070);
	/* 1518 B frame - FCS - Ethernet - VLAN - IPv4 - UDP */
	assert_true(NB_CTL_MAX_LEN <= 1518 - 4 - 14 - 4 - 20 - 8);
	for (t = NB_CTL_HELLO; t < 2 * NB_CTL_TYPE_MAX; t++) {
		/* each type untagged, then tagged */
		if (t < NB_CTL_TYPE_MAX)
			rand_msg(&r, (uint8_t)t, &m);
		else if (t - NB_CTL_TYPE_MAX < NB_CTL_HELLO)
			continue;
		else
			rand_tagged(&r, (uint8_t)(t - NB_CTL_TYPE_MAX), &m);
		if (m.type == NB_CTL_RESULTS) {
			m.u.res.total_len = 5000;
			m.u.res.nb_parts = 5;
			m.u.res.part = 0;
			m.u.res.chunk_len = 1024;
		}
		n = nb_ctl_encoded_len(&m);
		assert_true(n >= H && n <= NB_CTL_MAX_LEN);
		/* -ENOSPC one byte short, buffer untouched */
		memset(buf, 0x5a, sizeof(buf));
		assert_int_equal(nb_ctl_encode(&m, buf, (size_t)n - 1),
				 -ENOSPC);
		assert_int_equal(buf[0], 0x5a);
		assert_int_equal(buf[n - 1], 0x5a);
		assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), n);
		assert_int_equal(buf[n], 0x5a);
		/* a full RESULTS chunk with a tag is the largest message */
		if (m.type == NB_CTL_RESULTS && m.tagged)
			assert_int_equal(n, 1070);
	}
}

static void
test_encode_invalid(void **state)
{
	struct nb_ctl_msg m;
	uint8_t buf[NB_CTL_MAX_LEN];
	uint32_t t;

	(void)state;
	for (t = 0; t < 256; t++) {
		if (t >= NB_CTL_HELLO && t < NB_CTL_TYPE_MAX)
			continue;
		nb_ctl_msg_init(&m, (uint8_t)t, 1);
		m.seq = 1;
		assert_int_equal(nb_ctl_encoded_len(&m), -EINVAL);
		assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), -EINVAL);
	}
	nb_ctl_msg_init(&m, NB_CTL_STOP, 0);
	m.seq = 1;
	assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), -EINVAL);
	nb_ctl_msg_init(&m, NB_CTL_STOP, 1);
	assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), -EINVAL);
	m.seq = 1;
	assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), H);
	assert_int_equal(nb_ctl_encode(NULL, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nb_ctl_encode(&m, NULL, sizeof(buf)), -EINVAL);

	nb_ctl_msg_init(&m, NB_CTL_RESULTS, 1);
	m.seq = 1;
	m.u.res.total_len = 100000;
	m.u.res.nb_parts = doc_parts(100000);
	m.u.res.chunk_len = 1025;
	assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), -EINVAL);
	m.u.res.chunk_len = 1023; /* not the chunking's length */
	assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), -EINVAL);
	m.u.res.chunk_len = 1024;
	assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), H + 14 + 1024);
	m.u.res.part = m.u.res.nb_parts;
	assert_int_equal(nb_ctl_encode(&m, buf, sizeof(buf)), -EINVAL);
}

static void
test_bad_magic(void **state)
{
	uint64_t r = 3;
	struct nb_ctl_msg m, d;
	uint8_t *buf;
	size_t len;
	uint32_t t, i, bit;

	(void)state;
	for (t = NB_CTL_HELLO; t < NB_CTL_TYPE_MAX; t++) {
		rand_msg(&r, (uint8_t)t, &m);
		buf = encode_exact(&m, &len);
		for (i = 0; i < 4; i++)
			for (bit = 0; bit < 8; bit++) {
				buf[i] ^= (uint8_t)(1u << bit);
				assert_int_equal(decode_exact(buf, len, &d),
						 -EPROTO);
				buf[i] ^= (uint8_t)(1u << bit);
			}
		assert_int_equal(decode_exact(buf, len, &d), 0);
		free(buf);
	}
}

static void
test_version(void **state)
{
	uint64_t r = 4;
	struct nb_ctl_msg m, d;
	uint8_t *buf;
	size_t len;
	uint32_t t, v;

	(void)state;
	assert_int_equal(NB_CTL_VERSION, 12);
	for (t = NB_CTL_HELLO; t < NB_CTL_TYPE_MAX; t++) {
		if (t % 2)
			rand_msg(&r, (uint8_t)t, &m);
		else
			rand_tagged(&r, (uint8_t)t, &m);
		buf = encode_exact(&m, &len);
		assert_int_equal(buf[4], 12);
		for (v = 0; v < 256; v++) {
			if (v == 12)
				continue;
			buf[4] = (uint8_t)v;
			memset(&d, 0, sizeof(d));
			assert_int_equal(decode_exact(buf, len, &d),
					 -EPROTONOSUPPORT);
			/* header fields are there to answer with ERROR;
			 * another version's type byte comes back as it
			 * was (its tag bit is not ours to read) */
			assert_int_equal(d.type, t | (m.tagged ? 0x80 : 0));
			assert_int_equal(d.tagged, 0);
			assert_int_equal(d.session, m.session);
			assert_int_equal(d.seq, m.seq);
		}
		free(buf);
	}
	/* another version wins over any other header defect but the magic */
	buf = calloc(1, 16);
	assert_non_null(buf);
	memcpy(buf, "NBCM\x02\xee\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", 16);
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	assert_int_equal(decode_exact(buf, 15, &d), -EPROTO);
	buf[4] = 3; /* before the impairment counts */
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	buf[4] = 4; /* before the responder's CPU time */
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	buf[4] = 5; /* before DONE's flags */
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	buf[4] = 6; /* before PARAMS' TCP fields */
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	buf[4] = 7; /* before PARAMS and ACCEPT carried MAC lists */
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	buf[4] = 8; /* before HELLO was tagged and QUIT padded */
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	buf[4] = 9; /* before PARAMS carried the peer timeout */
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	buf[4] = 10; /* before HELLO offered ports and PARAMS a mesh */
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	buf[4] = 11; /* before the offer carried link speeds */
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	buf[4] = 13;
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTONOSUPPORT);
	/* version 12 with that header is just malformed */
	buf[4] = 12;
	assert_int_equal(decode_exact(buf, 16, &d), -EPROTO);
	free(buf);
}

static void
test_unknown_type(void **state)
{
	uint8_t buf[H + 300];
	struct nb_ctl_msg d;
	uint32_t t;
	size_t extra;

	(void)state;
	for (t = 0; t < 256; t++) {
		/* 0x80 is the tag flag: 0x81 .. 0x8f are tagged known types */
		if ((t & 0x7f) >= NB_CTL_HELLO && (t & 0x7f) < NB_CTL_TYPE_MAX)
			continue;
		assert_string_equal(nb_ctl_type_name((uint8_t)t), "UNKNOWN");
		for (extra = 0; extra <= 300; extra += 4) {
			memset(buf, 0, sizeof(buf));
			put_hdr(buf, (uint8_t)t, (uint16_t)(H + extra), 1, 1);
			assert_int_equal(decode_exact(buf, H + extra, &d),
					 -EPROTO);
		}
	}
	/* the known bodiless types are fine with the same header */
	put_hdr(buf, NB_CTL_STOP, H, 1, 1);
	assert_int_equal(decode_exact(buf, H, &d), 0);
	/* and tagged, with 16 more bytes */
	put_hdr(buf, NB_CTL_STOP | 0x80, H + 16, 1, 1);
	assert_int_equal(decode_exact(buf, H + 16, &d), 0);
	assert_int_equal(d.type, NB_CTL_STOP);
	assert_int_equal(d.tagged, 1);
}

static void
test_short_header(void **state)
{
	uint64_t r = 5;
	struct nb_ctl_msg m, d;
	uint8_t *buf;
	size_t len, n;
	uint32_t t;

	(void)state;
	for (t = NB_CTL_HELLO; t < NB_CTL_TYPE_MAX; t++) {
		rand_msg(&r, (uint8_t)t, &m);
		buf = encode_exact(&m, &len);
		for (n = 0; n < H; n++) {
			assert_int_equal(decode_exact(buf, n, &d), -EPROTO);
			/* also with the length field claiming n */
			nb_put_be16(buf + 6, (uint16_t)n);
			assert_int_equal(decode_exact(buf, n, &d), -EPROTO);
			nb_put_be16(buf + 6, (uint16_t)len);
		}
		free(buf);
	}
	assert_int_equal(nb_ctl_decode(NULL, 0, &d), -EPROTO);
}

static void
test_length_field(void **state)
{
	static const int deltas[] = {-16, -2, -1, 1, 2, 16, 1000};
	uint64_t r = 6;
	struct nb_ctl_msg m, d;
	uint8_t *buf, *big;
	size_t len, i;
	uint32_t t;

	(void)state;
	for (t = NB_CTL_HELLO; t < NB_CTL_TYPE_MAX; t++) {
		rand_msg(&r, (uint8_t)t, &m);
		buf = encode_exact(&m, &len);
		/* length field != buffer length */
		for (i = 0; i < sizeof(deltas) / sizeof(deltas[0]); i++) {
			nb_put_be16(buf + 6, (uint16_t)((int)len + deltas[i]));
			assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		}
		nb_put_be16(buf + 6, 0);
		assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		nb_put_be16(buf + 6, 0xffff);
		assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		nb_put_be16(buf + 6, (uint16_t)len);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		/* the datagram shorter than the length field says */
		assert_int_equal(decode_exact(buf, len - 1, &d), -EPROTO);
		/* trailing bytes after the message */
		big = calloc(1, len + 4);
		assert_non_null(big);
		memcpy(big, buf, len);
		for (i = 1; i <= 4; i++)
			assert_int_equal(decode_exact(big, len + i, &d),
					 -EPROTO);
		free(big);
		free(buf);
	}
}

/*
 * Every body length but the right one, with a consistent length field:
 * each truncation of the body and a few extensions.
 */
static void
test_body_length(void **state)
{
	uint64_t r = 7;
	struct nb_ctl_msg m, d;
	uint8_t *buf, *ext;
	size_t len, n, body;
	uint32_t t;

	(void)state;
	for (t = NB_CTL_HELLO; t < 2 * NB_CTL_TYPE_MAX; t++) {
		/* each type untagged, then tagged */
		if (t < NB_CTL_TYPE_MAX)
			rand_msg(&r, (uint8_t)t, &m);
		else if (t - NB_CTL_TYPE_MAX < NB_CTL_HELLO)
			continue;
		else
			rand_tagged(&r, (uint8_t)(t - NB_CTL_TYPE_MAX), &m);
		if (m.type == NB_CTL_RESULTS) {
			m.u.res.total_len = 700;
			m.u.res.nb_parts = 1;
			m.u.res.part = 0;
			m.u.res.chunk_len = 700;
		}
		buf = encode_exact(&m, &len);
		body = len - H;
		for (n = H; n < len; n++) {
			nb_put_be16(buf + 6, (uint16_t)n);
			assert_int_equal(decode_exact(buf, n, &d), -EPROTO);
		}
		ext = calloc(1, len + 8);
		assert_non_null(ext);
		memcpy(ext, buf, len);
		for (n = len + 1; n <= len + 8; n++) {
			nb_put_be16(ext + 6, (uint16_t)n);
			assert_int_equal(decode_exact(ext, n, &d), -EPROTO);
		}
		free(ext);
		nb_put_be16(buf + 6, (uint16_t)len);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		assert_int_equal(body,
				 doc_body_len(m.type) +
					 (m.type == NB_CTL_RESULTS ? 700 : 0) +
					 (m.tagged ? 16 : 0));
		free(buf);
	}
}

static void
test_session_seq_zero(void **state)
{
	uint64_t r = 8;
	struct nb_ctl_msg m, d;
	uint8_t *buf;
	size_t len;
	uint32_t t;

	(void)state;
	for (t = NB_CTL_HELLO; t < NB_CTL_TYPE_MAX; t++) {
		rand_msg(&r, (uint8_t)t, &m);
		buf = encode_exact(&m, &len);
		nb_put_be32(buf + 8, 0);
		assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		nb_put_be32(buf + 8, m.session);
		nb_put_be32(buf + 12, 0);
		assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
		nb_put_be32(buf + 12, m.seq);
		assert_int_equal(decode_exact(buf, len, &d), 0);
		free(buf);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_fixed),
		cmocka_unit_test(test_roundtrip_random),
		cmocka_unit_test(test_max_len),
		cmocka_unit_test(test_encode_invalid),
		cmocka_unit_test(test_bad_magic),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_unknown_type),
		cmocka_unit_test(test_short_header),
		cmocka_unit_test(test_length_field),
		cmocka_unit_test(test_body_length),
		cmocka_unit_test(test_session_seq_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
