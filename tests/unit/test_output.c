/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The output writers (app/core/nb_output.c) and the interval closing of
 * nb_result.c: CSV rows match the header and add up; JSON lines parse, one
 * event each; the error document has iperf3's shape; --format units; the
 * man page lists every option.
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

#define NS 3 /* streams */

struct fx {
	struct nb_config cfg;
	struct nb_result r;
};

/* Three streams; two intervals recorded by "the stats lcore"; totals set
 * as the final collector would, a few frames above the intervals' sums. */
static void
setup_fx(struct fx *fx, int intervals_reach_end)
{
	uint64_t a[8 * NS];
	struct nb_interval iv;
	uint32_t k, i;

	nb_config_defaults(&fx->cfg);
	fx->cfg.mode = NB_MODE_LOOPBACK;
	fx->cfg.streams = NS;
	assert_int_equal(nb_result_init(&fx->r, &fx->cfg, NS), 0);
	for (i = 0; i < 2; i++) {
		memset(&iv, 0, sizeof(iv));
		memset(a, 0, sizeof(a));
		iv.start = i;
		iv.end = i + 1;
		iv.nb_streams = NS;
		iv.stream_tx_pkts = a;
		iv.stream_tx_bytes = a + NS;
		iv.stream_rx_pkts = a + 2 * NS;
		iv.stream_rx_bytes = a + 3 * NS;
		iv.stream_lost = a + 4 * NS;
		iv.stream_out_of_order = a + 5 * NS;
		iv.stream_duplicates = a + 6 * NS;
		iv.stream_jitter_ns = (double *)(a + 7 * NS);
		for (k = 0; k < NS; k++) {
			a[k] = 1000 + 10 * k + i;
			a[NS + k] = a[k] * 64;
			a[2 * NS + k] = a[k] - 1;
			a[3 * NS + k] = (a[k] - 1) * 64;
			a[4 * NS + k] = 1;
			iv.tx_pkts += a[k];
			iv.tx_bytes += a[NS + k];
			iv.rx_pkts += a[2 * NS + k];
			iv.rx_bytes += a[3 * NS + k];
		}
		iv.lost = NS;
		iv.lat_p50 = 500;
		iv.lat_p99 = 900;
		iv.lat_max = 1000;
		assert_int_equal(nb_result_add_interval(&fx->r, &iv), 0);
	}
	/* end totals: every frame sent arrived, 5 late per stream */
	for (k = 0; k < NS; k++) {
		struct nb_stream_result *s = &fx->r.streams[k];

		s->tx_pkts = (1000 + 10 * k) * 2 + 1 + 5;
		s->tx_bytes = s->tx_pkts * 64;
		s->rx_pkts = s->rx_unique = s->tx_pkts;
		s->rx_bytes = s->tx_bytes;
		nb_hist_record(&s->hist, 700);
	}
	fx->r.tx_seconds = intervals_reach_end ? 2.0 : 3.0;
	fx->r.rx_seconds = fx->r.tx_seconds + 0.01;
	nb_result_finish(&fx->r);
}

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

/* Split a CSV line in place; returns the number of fields. */
static int
split(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		assert_true(n < max);
		f[n++] = p;
		p = strchr(p, ',');
		if (p == NULL)
			break;
		*p++ = '\0';
	}
	return n;
}

static void
test_csv(void **state)
{
	struct fx fx;
	struct nb_output o;
	char *buf = NULL, *line, *save = NULL, *f[64], hdr[512];
	size_t len = 0;
	int ncol, n, rows = 0, col_kind = -1, col_pkts = -1, col_stream = -1;
	uint64_t stream_pkts = 0, sum_pkts = 0;
	uint32_t i;
	FILE *m;

	(void)state;
	setup_fx(&fx, 1);
	fx.cfg.csv = 1;
	m = open_memstream(&buf, &len);
	nb_output_init(&o, &fx.cfg, m, 0);
	assert_int_equal(o.kind, NB_OUT_CSV);
	nb_out_begin(&o, &fx.r);
	for (i = 0; i < fx.r.nb_intervals; i++)
		nb_out_interval(&o, &fx.r, &fx.r.intervals[i]);
	nb_out_result(&o, &fx.r, "ignored title", "loopback");
	assert_int_equal(fclose(m), 0);

	line = strtok_r(buf, "\n", &save);
	assert_string_equal(line, nb_csv_header);
	snprintf(hdr, sizeof(hdr), "%s", line);
	ncol = split(hdr, f, 64);
	for (n = 0; n < ncol; n++) {
		if (strcmp(f[n], "kind") == 0)
			col_kind = n;
		if (strcmp(f[n], "packets") == 0)
			col_pkts = n;
		if (strcmp(f[n], "stream") == 0)
			col_stream = n;
	}
	assert_true(col_kind >= 0 && col_pkts >= 0 && col_stream >= 0);
	while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
		n = split(line, f, 64);
		assert_int_equal(n, ncol);
		rows++;
		if (strcmp(f[col_kind], "interval") != 0)
			continue;
		if (strcmp(f[col_stream], "sum") == 0)
			sum_pkts += strtoull(f[col_pkts], NULL, 10);
		else
			stream_pkts += strtoull(f[col_pkts], NULL, 10);
	}
	/* 2 intervals x (3 streams + sum), then 3 streams + sum at the end */
	assert_int_equal(rows, 2 * (NS + 1) + NS + 1);
	assert_int_equal(sum_pkts, stream_pkts);
	assert_int_equal(sum_pkts,
			 fx.r.intervals[0].rx_pkts + fx.r.intervals[1].rx_pkts);
	free(buf);
	nb_result_free(&fx.r);
}

static void
test_json_stream(void **state)
{
	static const char *const want[] = {"start", "interval", "interval",
					   "end", "error"};
	struct fx fx;
	struct nb_output o;
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	unsigned int n = 0;
	uint32_t i;
	FILE *m;

	(void)state;
	setup_fx(&fx, 1);
	fx.cfg.json_stream = 1;
	snprintf(fx.r.error, sizeof(fx.r.error), "something broke");
	m = open_memstream(&buf, &len);
	nb_output_init(&o, &fx.cfg, m, 1);
	assert_int_equal(o.kind, NB_OUT_JSON_STREAM);
	assert_int_equal(o.progress, 0);
	nb_out_begin(&o, &fx.r);
	for (i = 0; i < fx.r.nb_intervals; i++)
		nb_out_interval(&o, &fx.r, &fx.r.intervals[i]);
	nb_out_result(&o, &fx.r, NULL, "loopback");
	assert_int_equal(nb_out_finish(&o, nb_report_json(&fx.r)), 0);
	assert_int_equal(fclose(m), 0);

	for (line = strtok_r(buf, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		json_error_t e;
		json_t *j = json_loads(line, 0, &e);

		if (j == NULL)
			fail_msg("line %u is not JSON: %s", n, e.text);
		assert_true(n < 5);
		assert_string_equal(
			json_string_value(json_object_get(j, "event")),
			want[n]);
		assert_non_null(json_object_get(j, "data"));
		if (n == 1)
			assert_int_equal(
				json_integer_value(json_object_get(
					json_object_get(
						json_object_get(j, "data"),
						"sum"),
					"packets")),
				fx.r.intervals[0].rx_pkts);
		if (n == 4)
			assert_string_equal(
				json_string_value(json_object_get(j, "data")),
				"something broke");
		json_decref(j);
		n++;
	}
	assert_int_equal(n, 5);
	free(buf);
	nb_result_free(&fx.r);
}

static void
test_error_doc(void **state)
{
	struct nb_config cfg;
	struct nb_output o;
	char *buf = NULL;
	size_t len = 0;
	json_error_t e;
	json_t *j;
	FILE *m;

	(void)state;
	nb_config_defaults(&cfg);
	cfg.json = 1;
	m = open_memstream(&buf, &len);
	nb_output_init(&o, &cfg, m, 0);
	nb_out_fatal(&o, "no responder at 02:00:00:00:00:02");
	assert_int_equal(fclose(m), 0);
	j = json_loads(buf, 0, &e);
	assert_non_null(j);
	assert_true(json_is_object(json_object_get(j, "start")));
	assert_true(json_is_array(json_object_get(j, "intervals")));
	assert_int_equal(json_array_size(json_object_get(j, "intervals")), 0);
	assert_true(json_is_object(json_object_get(j, "end")));
	assert_string_equal(json_string_value(json_object_get(j, "error")),
			    "no responder at 02:00:00:00:00:02");
	json_decref(j);
	free(buf);

	/* text: nothing on stdout (stderr carries the message) */
	cfg.json = 0;
	buf = NULL;
	m = open_memstream(&buf, &len);
	nb_output_init(&o, &cfg, m, 0);
	nb_out_fatal(&o, "x");
	assert_int_equal(fclose(m), 0);
	assert_int_equal(len, 0);
	free(buf);
}

static void
test_format(void **state)
{
	char b[64];

	(void)state;
	nb_fmt_rate(b, sizeof(b), 9.99e9, 'a');
	assert_string_equal(b, "9.99 Gbits/sec");
	nb_fmt_rate(b, sizeof(b), 1e9, 'm');
	assert_string_equal(b, "1000.00 Mbits/sec");
	nb_fmt_rate(b, sizeof(b), 2.5e9, 'g');
	assert_string_equal(b, "2.50 Gbits/sec");
	nb_fmt_rate(b, sizeof(b), 123456, 'k');
	assert_string_equal(b, "123.46 Kbits/sec");
	nb_fmt_rate(b, sizeof(b), 4e12, 't');
	assert_string_equal(b, "4.00 Tbits/sec");
	/* bytes: bits / 8, base 1024, like iperf3 -f M */
	nb_fmt_rate(b, sizeof(b), 8.0 * 1024 * 1024 * 100, 'M');
	assert_string_equal(b, "100.00 MBytes/sec");
	nb_fmt_rate(b, sizeof(b), 8.0 * 1024 * 1024 * 1024 * 1.5, 'G');
	assert_string_equal(b, "1.50 GBytes/sec");
	nb_fmt_rate(b, sizeof(b), 8.0 * 1024 * 3, 'K');
	assert_string_equal(b, "3.00 KBytes/sec");
}

static void
test_progress(void **state)
{
	struct nb_config cfg;
	struct nb_output o;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	(void)state;
	nb_config_defaults(&cfg);
	cfg.interval = 0;
	m = open_memstream(&buf, &len);
	nb_output_init(&o, &cfg, m, 1);
	assert_int_equal(o.progress, 1);
	assert_int_equal(o.intervals, 0);
	nb_out_progress(&o, 1.5, 10, 1e9, 1.488e6, 2232000, 2231990, 0);
	nb_out_progress(&o, 2.0, 10, 1e9, 1.488e6, 2976000, 2975990, 0);
	nb_out_progress_end(&o);
	assert_int_equal(fclose(m), 0);
	assert_null(strchr(buf, '\n')); /* one line, rewritten */
	assert_non_null(
		strstr(buf, "\r[1.5/10.0 s] 1.00 Gbits/sec 1.488 Mpps"));
	assert_non_null(strstr(buf, "sent 2976000 received 2975990 lost 0"));
	free(buf);

	/* not a terminal, or --quiet: no progress line */
	nb_output_init(&o, &cfg, stdout, 0);
	assert_int_equal(o.progress, 0);
	cfg.quiet = 1;
	nb_output_init(&o, &cfg, stdout, 1);
	assert_int_equal(o.progress, 0);
}

/* Error and drop counters of the NICs we target are picked, the rest not. */
static void
test_xstat_selection(void **state)
{
	static const char *const yes[] = {"rx_crc_errors",
					  "rx_missed_errors",
					  "rx_discards_phy",
					  "rx_drop_pkts",
					  "rx_undersize_errors",
					  "rx_oversize_packets",
					  "rx_fragment_errors",
					  "rx_jabber_errors",
					  "rx_xoff_packets",
					  "tx_pause_frames",
					  "rx_mbuf_allocation_errors",
					  NULL};
	static const char *const no[] = {
		"rx_good_packets",    "tx_good_bytes",	      "rx_q0_packets",
		"rx_size_64_packets", "tx_broadcast_packets", NULL};
	int i;

	(void)state;
	for (i = 0; yes[i] != NULL; i++)
		if (!nb_xstat_selected(yes[i]))
			fail_msg("%s should be reported", yes[i]);
	for (i = 0; no[i] != NULL; i++)
		if (nb_xstat_selected(no[i]))
			fail_msg("%s should not be reported", no[i]);
}

static void
test_man_page(void **state)
{
	char *buf = NULL, needle[96], *p, *q;
	size_t len = 0, i;
	FILE *m;

	(void)state;
	m = open_memstream(&buf, &len);
	nb_options_man(m);
	assert_int_equal(fclose(m), 0);
	assert_non_null(strstr(buf, ".TH DPDK\\-NBENCH 1"));
	assert_non_null(strstr(buf, ".SH EXIT STATUS"));
	for (i = 0; i < nb_nb_options; i++) {
		const char *name = nb_options[i].name;

		if (name == NULL)
			continue;
		/* the name as troff spells it: every '-' is '\-' */
		p = needle + sprintf(needle, "\\fB\\-\\-");
		for (q = (char *)name; *q; q++)
			p += *q == '-' ? sprintf(p, "\\-")
				       : sprintf(p, "%c", *q);
		if (strstr(buf, needle) == NULL)
			fail_msg("man page lacks --%s", name);
	}
	free(buf);
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
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json_stream),
		cmocka_unit_test(test_error_doc),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_progress),
		cmocka_unit_test(test_xstat_selection),
		cmocka_unit_test(test_man_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
