/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --metrics' text: the families and samples a scraper reads, with values
 * computed here from what the snapshot holds (histogram buckets by
 * hand), label escaping, and labelled streams bounded.
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

#include "nb_metrics.h"

static char *
render(const struct nb_metrics_snap *s)
{
	char *text = NULL;
	size_t len = 0;

	assert_int_equal(nb_metrics_text(s, &text, &len), 0);
	assert_int_equal(strlen(text), len);
	return text;
}

/* the line (whole) is in text */
static int
has(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line)) != NULL) {
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return 1;
		p += n;
	}
	return 0;
}

/* the value of the sample named (with its labels), -1 if none */
static double
value(const char *text, const char *sample)
{
	double v;
	size_t n = strlen(sample);

	for (; *text; text++)
		if (strncmp(text, sample, n) == 0 &&
		    sscanf(text + n, "%lf", &v) == 1)
			return v;
	return -1;
}

static void
test_families(void **state)
{
	static struct nb_metrics_snap s;
	char *t;

	(void)state;
	s.version = "0.1.0";
	s.dpdk = "DPDK 22.11.11";
	s.mode = "loopback";
	s.state = "testing";
	s.tests = 2;
	s.running = 1;
	s.elapsed_s = 2.0;
	s.nb_ports = 1;
	s.ports[0].id = 3;
	snprintf(s.ports[0].name, sizeof(s.ports[0].name), "a\"b\\c");
	snprintf(s.ports[0].driver, sizeof(s.ports[0].driver), "net_x");
	s.ports[0].rx_bytes = 1000;
	s.ports[0].tx_pkts = 17;
	s.nb_streams = 2;
	s.nb_labelled = 2;
	s.streams[0].tx_pkts = 10;
	s.streams[1].tx_pkts = 7;
	s.streams[1].lost = 1;
	s.sum.tx_pkts = 17;
	s.sum.rx_bytes = 1000;
	s.sum.lost = 1;
	s.clk.hz = 2100000000;
	nb_hist_init(&s.hist);
	nb_hist_record(&s.hist, 500);
	nb_hist_record(&s.hist, 500);
	nb_hist_record(&s.hist, 500);
	nb_hist_record(&s.hist, 1500);
	nb_hist_record(&s.hist, 1500);
	nb_hist_record(&s.hist, 3000000);
	s.have_hist = 1;
	t = render(&s);
	assert_true(has(t, "# TYPE nbench_info gauge"));
	assert_true(has(t,
			"nbench_info{version=\"0.1.0\",dpdk=\"DPDK "
			"22.11.11\",mode=\"loopback\",state=\"testing\"} 1"));
	assert_true(has(t, "nbench_tests_total 2"));
	assert_true(has(t, "nbench_test_running 1"));
	/* the name escaped: a"b\c */
	assert_true(has(t, "nbench_port_tx_packets_total{port=\"3\",name=\"a\\"
			   "\"b\\\\c\",driver=\"net_x\"} 17"));
	/* 1000 bytes in 2 s: 4000 bit/s */
	assert_true(has(t, "nbench_port_rx_bits_per_second{port=\"3\",name=\"a"
			   "\\\"b\\\\c\",driver=\"net_x\"} 4000"));
	assert_true(has(t, "nbench_stream_tx_packets_total{stream=\"0\"} 10"));
	assert_true(has(t, "nbench_stream_tx_packets_total{stream=\"1\"} 7"));
	assert_true(has(t, "nbench_tx_packets_total 17"));
	assert_true(has(t, "nbench_stream_lost_packets{stream=\"1\"} 1"));
	assert_true(has(t, "nbench_lost_packets 1"));
	assert_true(has(t, "nbench_rx_bits_per_second 4000"));
	/* no PMD counts read: no PMD samples */
	assert_null(strstr(t, "nbench_port_pmd_rx_packets_total{"));
	/* cumulative buckets: 3 at <= 1 us, 5 at <= 2 us, the 3 ms one at
	 * <= 5 ms, all at +Inf */
	assert_true(has(t, "# TYPE nbench_latency_seconds histogram"));
	assert_true(has(t, "nbench_latency_seconds_bucket{le=\"1e-06\"} 3"));
	assert_true(has(t, "nbench_latency_seconds_bucket{le=\"2e-06\"} 5"));
	assert_true(has(t, "nbench_latency_seconds_bucket{le=\"0.002\"} 5"));
	assert_true(has(t, "nbench_latency_seconds_bucket{le=\"0.005\"} 6"));
	assert_true(has(t, "nbench_latency_seconds_bucket{le=\"+Inf\"} 6"));
	assert_true(has(t, "nbench_latency_seconds_count 6"));
	assert_true(fabs(value(t, "\nnbench_latency_seconds_sum ") -
			 3004500e-9) < 1e-15);
	assert_true(has(t, "# TYPE nbench_latency_quantile_seconds summary"));
	assert_true(has(t, "nbench_tsc_hz 2100000000"));
	free(t);
	/* no histogram, no tester: not rendered */
	s.have_hist = 0;
	t = render(&s);
	assert_null(strstr(t, "nbench_latency_seconds"));
	assert_null(strstr(t, "nbench_tester_"));
	free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_families),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
