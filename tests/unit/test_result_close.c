/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The closing of intervals against the end's totals (nb_result.c's
 * nb_result_close_intervals and nb_result_close_rxonly): folded into the
 * last interval or appended, impaired ends held, a receive-only test.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_options.h"
#include "nb_output.h"
#include "nb_rxonly.h"

#include "out_fixtures.h"

static void
sums(const struct nb_result *r, uint64_t *tx, uint64_t *rxb, uint64_t *lost)
{
	uint32_t i, k;

	*tx = *rxb = *lost = 0;
	for (i = 0; i < r->nb_intervals; i++) {
		for (k = 0; k < NS; k++)
			*tx += r->intervals[i].stream_tx_pkts[k];
		*rxb += r->intervals[i].rx_bytes;
		*lost += r->intervals[i].lost;
	}
}

static void
test_close_folds_into_last(void **state)
{
	struct fx fx;
	uint64_t tx, rxb, lost;

	(void)state;
	setup_fx(&fx, 1);
	assert_int_equal(nb_result_close_intervals(&fx.r), 0);
	assert_int_equal(fx.r.nb_intervals, 2);
	sums(&fx.r, &tx, &rxb, &lost);
	assert_int_equal(tx, fx.r.sum.tx_pkts);
	assert_int_equal(rxb, fx.r.sum.rx_bytes);
	/* the gaps the intervals saw were filled later: no loss at the end,
	 * and the intervals add up to it (the last ones give the loss back) */
	assert_int_equal(fx.r.sum.lost, 0);
	assert_int_equal(lost, 0);
	/* closing twice changes nothing */
	assert_int_equal(nb_result_close_intervals(&fx.r), 0);
	sums(&fx.r, &tx, &rxb, &lost);
	assert_int_equal(tx, fx.r.sum.tx_pkts);
	nb_result_free(&fx.r);
}

static void
test_close_appends_when_short(void **state)
{
	struct fx fx;
	uint64_t tx, rxb, lost;

	(void)state;
	setup_fx(&fx, 0); /* interrupted: intervals stop at 2 s of 3 */
	assert_int_equal(nb_result_close_intervals(&fx.r), 1);
	assert_int_equal(fx.r.nb_intervals, 3);
	assert_true(fabs(fx.r.intervals[2].start - 2.0) < 1e-9);
	assert_true(fabs(fx.r.intervals[2].end - 3.01) < 1e-9);
	sums(&fx.r, &tx, &rxb, &lost);
	assert_int_equal(tx, fx.r.sum.tx_pkts);
	assert_int_equal(rxb, fx.r.sum.rx_bytes);
	nb_result_free(&fx.r);
}

/* Per stream and summed: every counter of the measured intervals adds up
 * to the end total, and each interval's sum fields to its streams. */
static void
check_adds_up(const struct nb_result *r)
{
	uint32_t i, k;

	for (k = 0; k < r->nb_streams; k++) {
		const struct nb_stream_result *s = &r->streams[k];
		uint64_t c[7] = {0};

		for (i = 0; i < r->nb_intervals; i++) {
			const struct nb_interval *iv = &r->intervals[i];

			if (iv->omitted)
				continue;
			c[0] += iv->stream_tx_pkts[k];
			c[1] += iv->stream_tx_bytes[k];
			c[2] += iv->stream_rx_pkts[k];
			c[3] += iv->stream_rx_bytes[k];
			c[4] += iv->stream_lost[k];
			c[5] += iv->stream_out_of_order[k];
			c[6] += iv->stream_duplicates[k];
		}
		assert_int_equal(c[0], s->tx_pkts);
		assert_int_equal(c[1], s->tx_bytes);
		assert_int_equal(c[2], s->rx_pkts);
		assert_int_equal(c[3], s->rx_bytes);
		assert_int_equal(c[4], s->lost);
		assert_int_equal(c[5], s->out_of_order);
		assert_int_equal(c[6], s->duplicates);
	}
	for (i = 0; i < r->nb_intervals; i++) {
		const struct nb_interval *iv = &r->intervals[i];
		uint64_t t[7] = {0};

		if (iv->omitted)
			continue;
		for (k = 0; k < iv->nb_streams; k++) {
			t[0] += iv->stream_tx_pkts[k];
			t[2] += iv->stream_rx_pkts[k];
			t[3] += iv->stream_rx_bytes[k];
			t[4] += iv->stream_lost[k];
			t[5] += iv->stream_out_of_order[k];
			t[6] += iv->stream_duplicates[k];
		}
		assert_int_equal(t[0], iv->tx_pkts);
		assert_int_equal(t[2], iv->rx_pkts);
		assert_int_equal(t[3], iv->rx_bytes);
		assert_int_equal(t[4], iv->lost);
		assert_int_equal(t[5], iv->out_of_order);
		assert_int_equal(t[6], iv->duplicates);
	}
}

/*
 * Real loss, reordering, duplicates and late frames: stream 0 lost 7 frames
 * at the tail (never seen as a gap), stream 1 had a gap of 3 that a late
 * frame half filled (2 lost in the end; the intervals said 1 + 1 earlier
 * plus 1 here), stream 2 lost nothing but was reordered and duplicated
 * after the last tick.  Written out by hand, not computed by the code.
 */
static void
set_impaired_ends(struct fx *fx)
{
	struct nb_stream_result *s = fx->r.streams;
	uint32_t k;

	for (k = 0; k < NS; k++) {
		s[k].out_of_order = 0;
		s[k].duplicates = 0;
	}
	/* stream 0: sent 2016, 2009 arrived */
	s[0].tx_pkts = 2016;
	s[0].rx_pkts = s[0].rx_unique = 2009;
	/* stream 1: sent 2036, 2034 unique, 1 reordered */
	s[1].tx_pkts = 2036;
	s[1].rx_unique = 2034;
	s[1].rx_pkts = 2034;
	s[1].out_of_order = 1;
	/* stream 2: sent 2056, all arrived, 4 reordered, 2 duplicated */
	s[2].tx_pkts = 2056;
	s[2].rx_unique = 2056;
	s[2].rx_pkts = 2058;
	s[2].out_of_order = 4;
	s[2].duplicates = 2;
	for (k = 0; k < NS; k++) {
		s[k].tx_bytes = s[k].tx_pkts * 64;
		s[k].rx_bytes = s[k].rx_pkts * 64;
		s[k].jitter_ns = 100.0 * (k + 1);
	}
	nb_result_finish(&fx->r);
}

static void
test_close_impaired_held(void **state)
{
	struct fx fx;

	(void)state;
	setup_fx(&fx, 1);
	set_impaired_ends(&fx);
	/* the end: 7 + 2 + 0 lost */
	assert_int_equal(fx.r.sum.lost, 9);
	assert_int_equal(nb_result_close_intervals(&fx.r), 0);
	assert_int_equal(fx.r.nb_intervals, 2);
	check_adds_up(&fx.r);
	/* each interval said 1 lost per stream; the held one takes the rest:
	 * stream 0 7 - 1, stream 1 2 - 1, stream 2 0 (its 1 given back) */
	assert_int_equal(fx.r.intervals[1].stream_lost[0], 6);
	assert_int_equal(fx.r.intervals[1].stream_lost[1], 1);
	assert_int_equal(fx.r.intervals[1].stream_lost[2], 0);
	assert_int_equal(fx.r.intervals[0].stream_lost[2], 0);
	assert_int_equal(fx.r.intervals[1].lost, 7);
	assert_int_equal(fx.r.intervals[1].out_of_order, 5);
	assert_int_equal(fx.r.intervals[1].duplicates, 2);
	/* the last interval ends in the end's jitter state */
	assert_true(fabs(fx.r.intervals[1].stream_jitter_ns[2] - 300.0) < 1e-9);
	assert_true(fabs(fx.r.intervals[1].jitter_ns - 200.0) < 1e-9);
	nb_result_free(&fx.r);
}

static void
test_close_impaired_appended(void **state)
{
	struct fx fx;

	(void)state;
	setup_fx(&fx, 0); /* interrupted at 2 s of 3 */
	set_impaired_ends(&fx);
	assert_int_equal(nb_result_close_intervals(&fx.r), 1);
	assert_int_equal(fx.r.nb_intervals, 3);
	check_adds_up(&fx.r);
	/* the appended interval has only what the first two did not: never
	 * the whole run's loss again */
	assert_int_equal(fx.r.intervals[2].stream_lost[0], 5);
	assert_int_equal(fx.r.intervals[2].stream_lost[1], 0);
	assert_int_equal(fx.r.intervals[2].lost, 5);
	assert_int_equal(fx.r.intervals[2].stream_tx_pkts[0], 2016 - 2001);
	assert_true(fabs(fx.r.intervals[2].jitter_ns - 200.0) < 1e-9);
	nb_result_free(&fx.r);
}

/* A receive-only test: two intervals of every frame the port took in,
 * the end's totals a little above (what was drained after the edge). */
static void
setup_rxonly(struct fx *fx, double end)
{
	struct nb_interval iv;
	uint32_t i;

	nb_config_defaults(&fx->cfg);
	fx->cfg.mode = NB_MODE_LOOPBACK;
	fx->cfg.rx_only = 1;
	assert_int_equal(nb_result_init(&fx->r, &fx->cfg, 1), 0);
	fx->r.rx_only = 1;
	fx->r.rxo_seconds = end;
	fx->r.nb_ports = 1;
	for (i = 0; i < 2; i++) {
		memset(&iv, 0, sizeof(iv));
		iv.start = i;
		iv.end = i + 1;
		iv.rx_only = 1;
		iv.all_rx_pkts = 14000000 + i;
		iv.all_rx_bytes = iv.all_rx_pkts * 64;
		assert_int_equal(nb_result_add_interval(&fx->r, &iv), 0);
	}
	fx->r.ports[0].tool_rx_pkts = 28000001 + 3000;
	fx->r.ports[0].tool_rx_bytes = fx->r.ports[0].tool_rx_pkts * 64;
}

static void
test_rxonly(void **state)
{
	struct fx fx;
	json_t *o;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	(void)state;
	/* ended by --time at 2 s: the drained 3000 go into the last row */
	setup_rxonly(&fx, 2.0);
	assert_int_equal(nb_result_close_rxonly(&fx.r), 0);
	assert_int_equal(fx.r.nb_intervals, 2);
	assert_int_equal(fx.r.intervals[1].all_rx_pkts, 14000001 + 3000);
	assert_int_equal(fx.r.intervals[0].all_rx_pkts +
				 fx.r.intervals[1].all_rx_pkts,
			 fx.r.ports[0].tool_rx_pkts);
	/* rates: 64-byte frames, 14,000,001 + 3000 over 1 s; L1 + 20 B */
	m = open_memstream(&buf, &len);
	nb_report_rxonly_row(m, 1.0, 2.0, fx.r.intervals[1].all_rx_pkts,
			     fx.r.intervals[1].all_rx_bytes, 0, "");
	fclose(m);
	assert_non_null(strstr(buf, "[ RX]   1.00-2.00"));
	assert_non_null(strstr(buf, "14003001 frames"));
	/* L1 Gbit/s 14003001 x 84 x 8 / 1e9 = 9.410, Mpps 14.003 */
	assert_non_null(strstr(buf, " 9.410 "));
	assert_non_null(strstr(buf, " 14.003 "));
	free(buf);
	o = nb_rxonly_json(2.0, 28003001, 28003001ull * 64);
	assert_int_equal(json_integer_value(json_object_get(o, "packets")),
			 28003001);
	assert_true(
		fabs(json_real_value(json_object_get(o, "packets_per_second")) -
		     14001500.5) < 1e-3);
	assert_true(
		fabs(json_real_value(json_object_get(o, "l1_bits_per_second")) -
		     28003001.0 * 84 * 8 / 2) < 1);
	json_decref(o);
	nb_result_free(&fx.r);
	/* RMON's size bins, at each edge */
	{
		static const struct {
			uint32_t len;
			unsigned int bin;
		} e[] = {{0, 0},    {63, 0},   {64, 1},	  {65, 2},
			 {127, 2},  {128, 3},  {255, 3},  {256, 4},
			 {511, 4},  {512, 5},  {1023, 5}, {1024, 6},
			 {1518, 6}, {1519, 7}, {9018, 7}, {65535, 7}};
		uint64_t sz[NB_SIZE_BINS] = {1, 2, 3, 4, 5, 6, 7, 8};
		size_t i;

		uint32_t len;

		for (i = 0; i < sizeof(e) / sizeof(e[0]); i++)
			if (nb_size_bin(e[i].len) != e[i].bin)
				fail_msg("%u B: bin %u, not %u", e[i].len,
					 nb_size_bin(e[i].len), e[i].bin);
		/* every length against RFC 2819's ranges, written out */
		for (len = 0; len <= 70000; len++) {
			unsigned int want = len < 64	  ? 0
					    : len == 64	  ? 1
					    : len < 128	  ? 2
					    : len < 256	  ? 3
					    : len < 512	  ? 4
					    : len < 1024  ? 5
					    : len <= 1518 ? 6
							  : 7;

			if (nb_size_bin(len) != want)
				fail_msg("%u B: bin %u, not %u", len,
					 nb_size_bin(len), want);
		}
		assert_int_equal(nb_size_bin(UINT32_MAX), 7);
		assert_string_equal(nb_size_bin_name(0), "<64");
		assert_string_equal(nb_size_bin_name(6), "1024-1518");
		assert_string_equal(nb_size_bin_name(7), "1519+");
		assert_string_equal(nb_size_bin_name(8), "?");
		o = nb_rxonly_sizes_json(sz);
		assert_int_equal(json_object_size(o), NB_SIZE_BINS);
		assert_int_equal(
			json_integer_value(json_object_get(o, "65-127")), 3);
		assert_int_equal(
			json_integer_value(json_object_get(o, "1519+")), 8);
		json_decref(o);
	}
	/* ended by --packets at 2.5 s: one more interval takes the rest */
	setup_rxonly(&fx, 2.5);
	assert_int_equal(nb_result_close_rxonly(&fx.r), 1);
	assert_int_equal(fx.r.nb_intervals, 3);
	assert_true(fabs(fx.r.intervals[2].start - 2.0) < 1e-9);
	assert_true(fabs(fx.r.intervals[2].end - 2.5) < 1e-9);
	assert_int_equal(fx.r.intervals[2].all_rx_pkts, 3000);
	assert_true(fx.r.intervals[2].rx_only);
	/* closing again adds nothing */
	assert_int_equal(nb_result_close_rxonly(&fx.r), 0);
	assert_int_equal(fx.r.nb_intervals, 3);
	nb_result_free(&fx.r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_close_folds_into_last),
		cmocka_unit_test(test_close_appends_when_short),
		cmocka_unit_test(test_close_impaired_held),
		cmocka_unit_test(test_close_impaired_appended),
		cmocka_unit_test(test_rxonly),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
