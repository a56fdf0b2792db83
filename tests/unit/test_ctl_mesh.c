/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test of many ports across hosts on the wire (app/core/nb_ctl_mesh.c,
 * version 12): the ports HELLO and WELCOME offer and PARAMS' mesh, byte
 * for byte at the offsets docs/protocol.md gives, and every value the
 * decoder and the encoder refuse.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_test_util.h"

#include "nb_config.h"
#include "nb_ctl.h"
#include "nb_ctl_msgs.h"
#include "nb_frame.h"
#include "ctl_fixtures.h"

#define MESH_OFF  252			   /* PARAMS' mesh in the body */
#define OFFER_OFF 368			   /* HELLO's and WELCOME's offer */
#define SPEED_OFF (OFFER_OFF + 2 + 16 * 8) /* its ports' link speeds */

/* 4 ports: the client's 0 and 1, the responder's 0 and 5; a full mesh,
 * 2 streams a pair: 12 pairs, 24 streams, both ends sending. */
static void
mesh_params(struct nb_ctl_msg *m)
{
	struct nb_ctl_mesh *x = &m->u.params.mesh;
	static const uint16_t ids[4] = {0, 1, 0, 5};
	unsigned int i, j;

	base_params(m);
	x->kind = NB_MESH_FULL;
	x->nb_ports = 4;
	x->per_pair = 2;
	for (i = 0; i < 4; i++) {
		x->owner[i] = i >= 2;
		x->port[i].id = ids[i];
		memcpy(x->port[i].mac, "\x02\x00\x00\x00\x00\x00", 6);
		x->port[i].mac[5] = (uint8_t)(0x10 + i);
		for (j = 0; j < 4; j++)
			x->weight[i][j] = i != j;
	}
	m->u.params.streams = 24;
	m->u.params.direction = NB_CTL_DIR_BIDIR;
}

static int
encodes(const struct nb_ctl_msg *m)
{
	uint8_t buf[NB_CTL_MAX_LEN];

	return nb_ctl_encode(m, buf, sizeof(buf)) > 0;
}

static void
test_mesh_bytes(void **state)
{
	struct nb_ctl_msg m;
	uint8_t *buf;
	size_t len, i;

	(void)state;
	mesh_params(&m);
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(len, H + 704);
	/* kind 2 (full), 4 ports, per_pair 2 */
	assert_memory_equal(buf + H + MESH_OFF, "\x02\x04\x00\x02", 4);
	/* port 2: owner 1, reserved, id 0, MAC; port 3: id 5 */
	assert_memory_equal(buf + H + MESH_OFF + 4 + 20,
			    "\x01\x00\x00\x00\x02\x00\x00\x00\x00\x12"
			    "\x01\x00\x00\x05\x02\x00\x00\x00\x00\x13",
			    20);
	for (i = MESH_OFF + 4 + 40; i < MESH_OFF + 164; i++)
		assert_int_equal(buf[H + i], 0);
	/* weights row by row: row 1 is 1 0 1 1, then zeros to 16 */
	assert_memory_equal(buf + H + MESH_OFF + 164 + 16,
			    "\x01\x00\x01\x01\x00", 5);
	assert_int_equal(buf[H + MESH_OFF + 164 + 4 * 16], 0);
	free(buf);
	/* two responders (ports 2 and 3 owners 1 and 2): both send, so
	 * the test is still both ways */
	mesh_params(&m);
	m.u.params.mesh.owner[3] = 2;
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(buf[H + MESH_OFF + 4 + 30], 2);
	free(buf);
	/* the client's ports only send: a forward test */
	mesh_params(&m);
	memset(m.u.params.mesh.weight[2], 0, 16);
	memset(m.u.params.mesh.weight[3], 0, 16);
	m.u.params.streams = 12;
	assert_int_equal(nb_ctl_mesh_direction(&m.u.params.mesh),
			 NB_CTL_DIR_FORWARD);
	assert_false(encodes(&m));
	m.u.params.direction = NB_CTL_DIR_FORWARD;
	roundtrip(&m);
}

/* Each: a change to the mesh the encoder refuses, and the decoder too. */
static void
refused(void (*change)(struct nb_ctl_msg *m), const char *what)
{
	struct nb_ctl_msg m, good, d;
	uint8_t *buf;
	size_t len;
	int rc;

	mesh_params(&good);
	m = good;
	change(&m);
	if (encodes(&m))
		fail_msg("%s: encoded", what);
	/* the same bytes, written past the encoder's check */
	buf = encode_exact(&good, &len);
	{
		uint8_t *p = buf + H + MESH_OFF;

		nb_ctl_mesh_write(&p, &m.u.params.mesh);
	}
	if (m.u.params.streams != good.u.params.streams)
		nb_put_be32(buf + H + 4, m.u.params.streams);
	nb_put_be32(buf + H + 152, (uint32_t)m.u.params.latency_rate);
	buf[H] = m.u.params.direction;
	buf[H + 1] = m.u.params.proto;
	rc = decode_exact(buf, len, &d);
	if (rc != -EPROTO)
		fail_msg("%s: decode returned %d", what, rc);
	free(buf);
}

#define CHANGE(name, stmt)                                                     \
	static void name(struct nb_ctl_msg *m)                                 \
	{                                                                      \
		struct nb_ctl_mesh *x = &m->u.params.mesh;                     \
		(void)x;                                                       \
		stmt;                                                          \
	}
CHANGE(kind_0, x->kind = 0)
CHANGE(kind_7, x->kind = 7)
CHANGE(one_port, x->nb_ports = 1; memset(x->weight, 0, sizeof(x->weight));
       x->weight[0][1] = 0; memset(&x->port[1], 0, 15 * sizeof(x->port[0]));
       memset(x->owner + 1, 0, 15))
CHANGE(seventeen, x->nb_ports = 17)
CHANGE(per_pair_0, x->per_pair = 0)
CHANGE(one_owner, x->owner[2] = x->owner[3] = 0)
/* responders 1 and 3 without a 2; responder 16 */
CHANGE(owner_gap, x->owner[3] = 3)
CHANGE(owner_16, x->owner[2] = 1; x->owner[3] = 16)
CHANGE(multicast_mac, x->port[1].mac[0] = 1)
CHANGE(zero_mac, memset(x->port[1].mac, 0, 6))
CHANGE(same_mac, memcpy(x->port[3].mac, x->port[0].mac, 6))
CHANGE(same_id_one_host, x->port[3].id = 0)
CHANGE(to_itself, x->weight[2][2] = 1; m->u.params.streams = 26)
CHANGE(beyond_ports, x->weight[0][4] = 1; m->u.params.streams = 26)
CHANGE(unused_port, x->port[4].mac[5] = 1)
CHANGE(unused_owner, x->owner[5] = 1)
CHANGE(streams_off, m->u.params.streams = 23)
CHANGE(direction_off, m->u.params.direction = NB_CTL_DIR_FORWARD)
CHANGE(with_probes, m->u.params.latency_rate = 100)
CHANGE(tcp_frames, m->u.params.proto = NB_IPPROTO_TCP)
CHANGE(no_pairs, memset(x->weight, 0, sizeof(x->weight));
       m->u.params.streams = 0)

static void
test_mesh_refused(void **state)
{
	struct nb_ctl_msg m;

	(void)state;
	refused(kind_0, "kind 0");
	refused(kind_7, "kind 7");
	refused(one_port, "one port");
	refused(seventeen, "17 ports");
	refused(per_pair_0, "per_pair 0");
	refused(one_owner, "no responder port");
	refused(owner_gap, "owners 0, 1, 3");
	refused(owner_16, "owner 16");
	refused(multicast_mac, "multicast MAC");
	refused(zero_mac, "zero MAC");
	refused(same_mac, "a MAC twice");
	refused(same_id_one_host, "an id twice on one host");
	refused(to_itself, "a pair to itself");
	refused(beyond_ports, "a pair past nb_ports");
	/* unused slots: the writer zeroes them, so the encoder refuses and
	 * the decoder is given the bytes by hand (below) */
	mesh_params(&m);
	unused_port(&m);
	assert_false(encodes(&m));
	mesh_params(&m);
	unused_owner(&m);
	assert_false(encodes(&m));
	refused(streams_off, "streams not the pairs'");
	refused(direction_off, "direction not the senders'");
	refused(with_probes, "latency probes");
	refused(tcp_frames, "TCP frames");
	refused(no_pairs, "no pair");
	/* one id on both hosts is fine (port 0 on each) */
	mesh_params(&m);
	assert_int_equal(m.u.params.mesh.port[0].id,
			 m.u.params.mesh.port[2].id);
	roundtrip(&m);
	/* a reserved byte of a port; slot 4's MAC; slot 5's owner */
	{
		static const size_t at[] = {MESH_OFF + 4 + 1,
					    MESH_OFF + 4 + 4 * 10 + 4 + 5,
					    MESH_OFF + 4 + 5 * 10};
		uint8_t *buf;
		size_t len, i;
		struct nb_ctl_msg d;

		buf = encode_exact(&m, &len);
		for (i = 0; i < 3; i++) {
			buf[H + at[i]] = 1;
			assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
			buf[H + at[i]] = 0;
		}
		assert_int_equal(decode_exact(buf, len, &d), 0);
		free(buf);
	}
	/* without a mesh, every byte of it is 0 */
	base_params(&m);
	m.u.params.mesh.per_pair = 1;
	assert_false(encodes(&m));
	base_params(&m);
	m.u.params.mesh.weight[3][4] = 1;
	assert_false(encodes(&m));
}

static void
test_offer(void **state)
{
	struct nb_ctl_msg m, d;
	uint64_t r = 11;
	uint8_t *buf;
	size_t len;

	(void)state;
	rand_msg(&r, NB_CTL_WELCOME, &m);
	rand_offer(&r, &m.u.conf.offer, 16);
	roundtrip(&m);
	buf = encode_exact(&m, &len);
	assert_int_equal(buf[H + OFFER_OFF], 16);
	assert_int_equal(rd16(buf + H + OFFER_OFF + 2 + 15 * 8),
			 m.u.conf.offer.port[15].id);
	/* each port's link speed, u32 big-endian, after the 16 ports; the
	 * offer ends the body */
	assert_int_equal(rd32(buf + H + SPEED_OFF + 15 * 4),
			 m.u.conf.offer.speed_mbps[15]);
	assert_int_equal(rd32(buf + H + SPEED_OFF),
			 m.u.conf.offer.speed_mbps[0]);
	assert_int_equal(SPEED_OFF + 16 * 4, NB_CTL_CONF_LEN);
	free(buf);
	/* 17 ports; a MAC twice; an id twice; a used slot past n */
	m.u.conf.offer.n = 17;
	assert_false(encodes(&m));
	rand_offer(&r, &m.u.conf.offer, 3);
	memcpy(m.u.conf.offer.port[2].mac, m.u.conf.offer.port[0].mac, 6);
	assert_false(encodes(&m));
	rand_offer(&r, &m.u.conf.offer, 3);
	m.u.conf.offer.port[2].id = m.u.conf.offer.port[1].id;
	assert_false(encodes(&m));
	rand_offer(&r, &m.u.conf.offer, 3);
	m.u.conf.offer.port[1].mac[0] |= 1;
	assert_false(encodes(&m));
	rand_offer(&r, &m.u.conf.offer, 3);
	m.u.conf.offer.port[2].id = 0x8000; /* NB_MESH_REMOTE's bit */
	assert_false(encodes(&m));
	assert_false(nb_ctl_offer_ok(&m.u.conf.offer));
	rand_offer(&r, &m.u.conf.offer, 3);
	buf = encode_exact(&m, &len);
	buf[H + OFFER_OFF + 2 + 3 * 8 + 1] = 9; /* slot 3's id */
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	buf[H + OFFER_OFF + 2 + 3 * 8 + 1] = 0;
	buf[H + SPEED_OFF + 3 * 4 + 3] = 1; /* slot 3's speed */
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	buf[H + SPEED_OFF + 3 * 4 + 3] = 0;
	buf[H + OFFER_OFF + 1] = 1; /* reserved */
	assert_int_equal(decode_exact(buf, len, &d), -EPROTO);
	buf[H + OFFER_OFF + 1] = 0;
	assert_int_equal(decode_exact(buf, len, &d), 0);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mesh_bytes),
		cmocka_unit_test(test_mesh_refused),
		cmocka_unit_test(test_offer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
