/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The output writers (app/core/nb_output.c): CSV rows match the header
 * and add up; JSON lines parse, one event each; the error document has
 * iperf3's shape; --format units; the progress line; xstats; the man page
 * lists every option.
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
