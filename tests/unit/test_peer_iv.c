/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for peer-mode intervals (app/core/nb_peer_iv.c): an interval
 * cut into INTERVAL parts, carried through the codec and put back whole;
 * parts out of order refused; each direction's row joined from the right
 * end.  Every field of every stream holds a distinct number (field f of
 * stream k of end e: e * 1000000 + k * 100 + f), so a value taken from
 * the wrong end, stream or field shows.
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

#include "nb_ctl.h"
#include "nb_peer_iv.h"
#include "nb_result.h"

#define LOCAL  1
#define REMOTE 2

static uint64_t
val(int end, uint32_t k, int field)
{
	return (uint64_t)end * 1000000 + k * 100 + (uint64_t)field;
}

/* An interval of n streams whose every number says where it is from. */
static void
make_iv(struct nb_interval *iv, uint32_t n, int end, int omitted)
{
	uint32_t k;

	memset(iv, 0, sizeof(*iv));
	assert_int_equal(nb_interval_alloc(iv, n, !omitted), 0);
	iv->nb_streams = n;
	iv->start = 2.0;
	iv->end = 3.0;
	iv->omitted = omitted;
	iv->tx_pkts = val(end, 999, 1);
	iv->tx_bytes = val(end, 999, 2);
	iv->rx_pkts = val(end, 999, 3);
	iv->rx_bytes = val(end, 999, 4);
	iv->lost = val(end, 999, 5);
	iv->out_of_order = val(end, 999, 6);
	iv->duplicates = val(end, 999, 7);
	iv->jitter_ns = (double)val(end, 999, 8);
	iv->lat_count = val(end, 999, 9);
	iv->lat_p50 = val(end, 999, 10);
	iv->lat_p99 = val(end, 999, 11);
	iv->lat_max = val(end, 999, 12);
	for (k = 0; !omitted && k < n; k++) {
		iv->stream_tx_pkts[k] = val(end, k, 1);
		iv->stream_tx_bytes[k] = val(end, k, 2);
		iv->stream_rx_pkts[k] = val(end, k, 3);
		iv->stream_rx_bytes[k] = val(end, k, 4);
		iv->stream_lost[k] = val(end, k, 5);
		iv->stream_out_of_order[k] = val(end, k, 6);
		iv->stream_duplicates[k] = val(end, k, 7);
		iv->stream_jitter_ns[k] = (double)val(end, k, 8);
	}
}

/* Through the codec: encoded, decoded, the decoded body back. */
static void
wire(const struct nb_ctl_interval *in, struct nb_ctl_interval *out)
{
	struct nb_ctl_msg m, d;
	uint8_t buf[NB_CTL_MAX_LEN];
	int n;

	nb_ctl_msg_init(&m, NB_CTL_INTERVAL, 5);
	m.seq = 9;
	m.u.iv = *in;
	n = nb_ctl_encode(&m, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(nb_ctl_decode(buf, (size_t)n, &d), 0);
	*out = d.u.iv;
}

static void
test_parts_round_trip(void **state)
{
	struct nb_interval iv, *got;
	struct nb_peer_ivs s;
	struct nb_ctl_interval part, back;
	uint32_t first = 0, k, parts = 0;
	int ret;

	(void)state;
	make_iv(&iv, 30, REMOTE, 0);
	nb_peer_ivs_init(&s, 30);
	do {
		uint32_t next = nb_peer_iv_export(&iv, 0, first, &part);

		assert_int_equal(part.first, first);
		assert_int_equal(part.count, next ? 12 : 30 - first);
		wire(&part, &back);
		ret = nb_peer_ivs_put(&s, &back);
		assert_int_equal(ret, next ? 0 : 1);
		assert_int_equal(s.complete, next ? 0 : 1);
		first = next;
		parts++;
	} while (first != 0);
	assert_int_equal(parts, 3); /* 12 + 12 + 6 streams */
	got = &s.iv[0];
	assert_int_equal(got->nb_streams, 30);
	assert_false(got->omitted);
	assert_true(got->start == 2.0 && got->end == 3.0);
	assert_int_equal(got->rx_pkts, val(REMOTE, 999, 3));
	assert_int_equal(got->lat_p99, val(REMOTE, 999, 11));
	assert_true(got->jitter_ns == (double)val(REMOTE, 999, 8));
	for (k = 0; k < 30; k++) {
		assert_int_equal(got->stream_tx_pkts[k], val(REMOTE, k, 1));
		assert_int_equal(got->stream_tx_bytes[k], val(REMOTE, k, 2));
		assert_int_equal(got->stream_rx_pkts[k], val(REMOTE, k, 3));
		assert_int_equal(got->stream_rx_bytes[k], val(REMOTE, k, 4));
		assert_int_equal(got->stream_lost[k], val(REMOTE, k, 5));
		assert_int_equal(got->stream_out_of_order[k],
				 val(REMOTE, k, 6));
		assert_int_equal(got->stream_duplicates[k], val(REMOTE, k, 7));
		/* jitter travels in ps */
		assert_true(got->stream_jitter_ns[k] ==
			    (double)val(REMOTE, k, 8));
	}
	nb_interval_release(&iv);

	/* a warm-up interval: one part, its sums */
	make_iv(&iv, 30, REMOTE, 1);
	assert_int_equal(nb_peer_iv_export(&iv, 1, 0, &part), 0);
	assert_int_equal(part.flags, NB_CTL_IV_F_OMITTED | NB_CTL_IV_F_LAST);
	wire(&part, &back);
	assert_int_equal(nb_peer_ivs_put(&s, &back), 1);
	assert_int_equal(s.complete, 2);
	assert_true(s.iv[1].omitted);
	assert_null(s.iv[1].stream_tx_pkts);
	assert_int_equal(s.iv[1].tx_pkts, val(REMOTE, 999, 1));
	nb_interval_release(&iv);
	assert_int_equal(s.refused, 0);
	nb_peer_ivs_free(&s);
}

static void
test_parts_out_of_order(void **state)
{
	struct nb_interval iv;
	struct nb_peer_ivs s;
	struct nb_ctl_interval p0, p1;

	(void)state;
	make_iv(&iv, 20, REMOTE, 0);
	nb_peer_ivs_init(&s, 20);
	assert_int_equal(nb_peer_iv_export(&iv, 0, 0, &p0), 12);
	assert_int_equal(nb_peer_iv_export(&iv, 0, 12, &p1), 0);
	/* the second part first; another interval; another stream count */
	assert_int_equal(nb_peer_ivs_put(&s, &p1), -EPROTO);
	p0.index = 1;
	assert_int_equal(nb_peer_ivs_put(&s, &p0), -EPROTO);
	p0.index = 0;
	p0.nb_streams = 21;
	assert_int_equal(nb_peer_ivs_put(&s, &p0), -EPROTO);
	p0.nb_streams = 20;
	assert_int_equal(s.refused, 3);
	assert_int_equal(s.complete, 0);
	/* in order they fit; the first part again does not */
	assert_int_equal(nb_peer_ivs_put(&s, &p0), 0);
	assert_int_equal(nb_peer_ivs_put(&s, &p0), -EPROTO);
	assert_int_equal(nb_peer_ivs_put(&s, &p1), 1);
	assert_int_equal(s.complete, 1);
	/* a partial interval left at the end is freed too (ASan) */
	p0.index = 1;
	assert_int_equal(nb_peer_ivs_put(&s, &p0), 0);
	nb_peer_ivs_free(&s);
	nb_interval_release(&iv);
}

/* Row k of m: the sent counts of end tx, the received side of end rx. */
static void
check_row(const struct nb_interval *m, uint32_t n, int tx, int rx)
{
	uint64_t txp = 0, txb = 0, rxp = 0, rxb = 0;
	uint32_t k;

	assert_int_equal(m->nb_streams, n);
	assert_true(m->start == 2.0 && m->end == 3.0);
	for (k = 0; k < n; k++) {
		assert_int_equal(m->stream_tx_pkts[k], tx ? val(tx, k, 1) : 0);
		assert_int_equal(m->stream_tx_bytes[k], tx ? val(tx, k, 2) : 0);
		assert_int_equal(m->stream_rx_pkts[k], rx ? val(rx, k, 3) : 0);
		assert_int_equal(m->stream_rx_bytes[k], rx ? val(rx, k, 4) : 0);
		assert_int_equal(m->stream_lost[k], rx ? val(rx, k, 5) : 0);
		assert_int_equal(m->stream_out_of_order[k],
				 rx ? val(rx, k, 6) : 0);
		assert_int_equal(m->stream_duplicates[k],
				 rx ? val(rx, k, 7) : 0);
		assert_true(m->stream_jitter_ns[k] ==
			    (rx ? (double)val(rx, k, 8) : 0));
		txp += m->stream_tx_pkts[k];
		txb += m->stream_tx_bytes[k];
		rxp += m->stream_rx_pkts[k];
		rxb += m->stream_rx_bytes[k];
	}
	/* the sums add up the streams; quality and latency are the
	 * receiving end's */
	assert_int_equal(m->tx_pkts, txp);
	assert_int_equal(m->tx_bytes, txb);
	assert_int_equal(m->rx_pkts, rxp);
	assert_int_equal(m->rx_bytes, rxb);
	assert_int_equal(m->lost, rx ? val(rx, 999, 5) : 0);
	assert_int_equal(m->out_of_order, rx ? val(rx, 999, 6) : 0);
	assert_int_equal(m->duplicates, rx ? val(rx, 999, 7) : 0);
	assert_int_equal(m->lat_count, rx ? val(rx, 999, 9) : 0);
	assert_int_equal(m->lat_p50, rx ? val(rx, 999, 10) : 0);
	assert_int_equal(m->lat_max, rx ? val(rx, 999, 12) : 0);
}

static void
test_merge_directions(void **state)
{
	struct nb_interval local, remote, m;

	(void)state;
	make_iv(&local, 4, LOCAL, 0);
	make_iv(&remote, 4, REMOTE, 0);
	/* forward: we sent, the responder received */
	assert_int_equal(nb_peer_iv_merge(&m, &local, &remote, 1), 0);
	check_row(&m, 4, LOCAL, REMOTE);
	nb_interval_release(&m);
	/* reverse: the responder sent, we received */
	assert_int_equal(nb_peer_iv_merge(&m, &local, &remote, 0), 0);
	check_row(&m, 4, REMOTE, LOCAL);
	nb_interval_release(&m);
	/* the responder's interval never came: its half is 0 */
	assert_int_equal(nb_peer_iv_merge(&m, &local, NULL, 1), 0);
	check_row(&m, 4, LOCAL, 0);
	nb_interval_release(&m);
	assert_int_equal(nb_peer_iv_merge(&m, &local, NULL, 0), 0);
	check_row(&m, 4, 0, LOCAL);
	nb_interval_release(&m);
	nb_interval_release(&remote);
	nb_interval_release(&local);

	/* warm-up: the sums of each end, no streams */
	make_iv(&local, 4, LOCAL, 1);
	make_iv(&remote, 4, REMOTE, 1);
	assert_int_equal(nb_peer_iv_merge(&m, &local, &remote, 1), 0);
	assert_true(m.omitted);
	assert_null(m.stream_lost);
	assert_int_equal(m.tx_pkts, val(LOCAL, 999, 1));
	assert_int_equal(m.rx_pkts, val(REMOTE, 999, 3));
	assert_int_equal(m.rx_bytes, val(REMOTE, 999, 4));
	nb_interval_release(&m);
	nb_interval_release(&remote);
	nb_interval_release(&local);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parts_round_trip),
		cmocka_unit_test(test_parts_out_of_order),
		cmocka_unit_test(test_merge_directions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
