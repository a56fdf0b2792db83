/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The text report (app/core/nb_report_text.c): the final report's lines,
 * LACP counts, interval lines, the units.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "nb_options.h"
#include "nb_result.h"

#include "result_fixtures.h"

/* The text report of r in a malloc'd string, via a memory stream. */
static char *
text_report(const struct nb_result *r)
{
	char *buf = NULL, *copy;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	nb_report_text(f, r);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	copy = strdup(buf);
	free(buf);
	assert_non_null(copy);
	return copy;
}

static unsigned int
count_of(const char *hay, const char *needle)
{
	unsigned int n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/* The line of text containing needle (static buffer). */
static const char *
line_with(const char *text, const char *needle)
{
	static char line[1024];
	const char *at = strstr(text, needle), *b, *e;

	if (at == NULL)
		return NULL;
	for (b = at; b > text && b[-1] != '\n'; b--)
		;
	e = strchr(at, '\n');
	if (e == NULL)
		e = at + strlen(at);
	snprintf(line, sizeof(line), "%.*s", (int)(e - b), b);
	return line;
}

static void
test_text(void **state)
{
	struct fixture fx;
	char *t;

	(void)state;
	fill(&fx);
	fx.r.req_pps = 750;
	nb_result_finish(&fx.r);
	t = text_report(&fx.r);
	/* Two streams and a SUM: three sender and three receiver rows. */
	assert_int_equal(count_of(t, "sender"), 3);
	assert_int_equal(count_of(t, "receiver"), 3);
	assert_non_null(strstr(t, "lost 10/1000"));
	assert_non_null(strstr(t, "lost 10/1500"));
	assert_non_null(strstr(t, "on target"));
	assert_null(strstr(t, "WARNING"));
	assert_null(strstr(t, "MISMATCH"));
	assert_non_null(strstr(t, "port 0"));
	assert_non_null(strstr(t, "port 1"));
	free(t);

	/* RX port: the PMD received one more than the tool counted. */
	fx.r.ports[1].pmd.ipackets = 1496;
	t = text_report(&fx.r);
	assert_int_equal(count_of(t, "MISMATCH"), 1);
	assert_non_null(strstr(line_with(t, "MISMATCH"), "port 1"));
	free(t);

	/* TX port: opackets differs; its ipackets never matter. */
	fx.r.ports[1].pmd.ipackets = 1495;
	fx.r.ports[0].pmd.opackets = 1499;
	t = text_report(&fx.r);
	assert_int_equal(count_of(t, "MISMATCH"), 1);
	assert_non_null(strstr(line_with(t, "MISMATCH"), "port 0"));
	free(t);
	fx.r.ports[0].pmd.opackets = 1500;
	fx.r.ports[0].pmd.ipackets = 0;
	fx.r.ports[1].pmd.opackets = 99999;
	t = text_report(&fx.r);
	assert_null(strstr(t, "MISMATCH"));
	free(t);

	/* A shortfall is a warning. */
	fx.r.req_pps = 1000;
	nb_result_finish(&fx.r);
	t = text_report(&fx.r);
	assert_non_null(strstr(t, "WARNING"));
	assert_null(strstr(t, "on target"));
	free(t);

	/* One stream: no SUM rows. */
	fx.r.nb_streams = 1;
	nb_result_finish(&fx.r);
	t = text_report(&fx.r);
	assert_int_equal(count_of(t, "sender"), 1);
	assert_int_equal(count_of(t, "receiver"), 1);
	assert_null(strstr(t, "SUM"));
	free(t);
	fx.r.nb_streams = 2;
	nb_result_free(&fx.r);
}

/* An 802.3ad bond: its LACP frames are named, within what LACP can send;
 * more than that is a mismatch, as is any in another mode. */
static void
test_lacp_counts(void **state)
{
	struct fixture fx;
	struct nb_bond_info *b;
	uint64_t max;
	char *t;

	(void)state;
	fill(&fx);
	nb_result_finish(&fx.r);
	b = &fx.r.ports[0].bond;
	b->mode = 4;
	b->nb_members = 2;
	b->m[0].actor_state = b->m[0].partner_state = 0x3d;
	b->m[1].actor_state = 0x3d;
	b->m[1].partner_state = 0x01;
	/* 4 per member and second, over the test and 7 s beside it */
	max = nb_lacp_frames_max(b, fx.r.rx_seconds + 5);
	assert_int_equal(max, 2 * 4 * ((uint64_t)(fx.r.rx_seconds + 5) + 2));
	fx.r.ports[0].pmd.opackets = 1500 + 3;
	t = text_report(&fx.r);
	assert_null(strstr(t, "MISMATCH"));
	assert_non_null(strstr(t, "PMD opackets 1503 (3 of them LACP)"));
	assert_non_null(strstr(t, "LACP up (state 3d, partner's 3d)"));
	assert_non_null(strstr(t, "LACP NOT up (state 3d, partner's 01)"));
	free(t);
	fx.r.ports[0].pmd.opackets = 1500 + max + 1;
	t = text_report(&fx.r);
	assert_int_equal(count_of(t, "MISMATCH"), 1);
	assert_null(strstr(t, "of them LACP"));
	free(t);
	/* fewer than the tool sent is never LACP's */
	fx.r.ports[0].pmd.opackets = 1499;
	t = text_report(&fx.r);
	assert_int_equal(count_of(t, "MISMATCH"), 1);
	free(t);
	b->mode = 2;
	fx.r.ports[0].pmd.opackets = 1503;
	t = text_report(&fx.r);
	assert_int_equal(count_of(t, "MISMATCH"), 1);
	assert_null(strstr(t, "LACP"));
	free(t);
	nb_result_free(&fx.r);
}

static void
test_interval_text(void **state)
{
	struct nb_interval iv;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	memset(&iv, 0, sizeof(iv));
	iv.start = 1;
	iv.end = 2;
	iv.rx_pkts = 990;
	iv.rx_bytes = 990 * 64;
	iv.lost = 10;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	nb_report_interval_header(f);
	nb_report_interval_text(f, &iv, 'a', "");
	iv.omitted = 1;
	nb_report_interval_text(f, &iv, 'a', "");
	iv.start = iv.end; /* zero length: no division by zero */
	nb_report_interval_text(f, &iv, 'a', "R");
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "10/1000"));
	assert_int_equal(count_of(buf, "(omitted)"), 2);
	assert_null(strstr(buf, "nan"));
	assert_non_null(strstr(buf, "[RSUM]"));
	assert_null(strstr(buf, "inf"));
	free(buf);
}

static void
test_fmt(void **state)
{
	char b[32];

	(void)state;
	nb_fmt_bytes(b, sizeof(b), 1.16 * 1024 * 1024 * 1024);
	assert_string_equal(b, "1.16 GBytes");
	nb_fmt_bytes(b, sizeof(b), 0);
	assert_string_equal(b, "0.00 Bytes");
	nb_fmt_bytes(b, sizeof(b), 1023);
	assert_string_equal(b, "1023 Bytes");
	nb_fmt_bytes(b, sizeof(b), 10.5 * 1024);
	assert_string_equal(b, "10.5 KBytes");
	nb_fmt_bits(b, sizeof(b), 9.99e9);
	assert_string_equal(b, "9.99 Gbits/sec");
	nb_fmt_bits(b, sizeof(b), 999);
	assert_string_equal(b, "999 bits/sec");
	nb_fmt_bits(b, sizeof(b), 14.88e6);
	assert_string_equal(b, "14.9 Mbits/sec");
	nb_fmt_bits(b, sizeof(b), 4e15);
	assert_string_equal(b, "4000 Tbits/sec");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_lacp_counts),
		cmocka_unit_test(test_interval_text),
		cmocka_unit_test(test_fmt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
