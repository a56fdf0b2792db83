/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iperf3's keys that the tool's own report does not read (nb_iperf3.c),
 * from results with known counts: UDP's loss in end.sum_sent, the CPU
 * percentages, an open-loop TCP test's zeros.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "nb_frame.h"
#include "nb_iperf3.h"
#include "nb_result.h"

static struct nb_config cfg;
static struct nb_result res;

/* An end object as the report writes it before nb_iperf3_end(). */
static json_t *
end_of(void)
{
	return json_pack("{s:{s:I}, s:[]}", "sum_sent", "packets",
			 (json_int_t)res.sum.tx_pkts, "streams");
}

static double
real_at(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	assert_true(json_is_real(v));
	return json_real_value(v);
}

/*
 * 1000 sent, 750 received once (800 frames with 50 duplicates), 250 lost:
 * iperf3's lost_percent is lost over sent, 100 x 250 / 1000 = 25 %, not
 * over received (33.3 %, or 31.25 % of the frames).
 */
static void
test_udp_loss(void **state)
{
	json_t *end, *sent;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	memset(&res, 0, sizeof(res));
	cfg.proto = NB_IPPROTO_UDP;
	res.cfg = &cfg;
	res.sum.tx_pkts = 1000;
	res.sum.rx_pkts = 800;
	res.sum.rx_unique = 750;
	res.sum.duplicates = 50;
	res.sum.lost = 250;
	/* 2 s of wall time: 1.5 s user, 0.25 s system; the remote unknown */
	res.cpu_host.wall_ns = 2000000000;
	res.cpu_host.user_ns = 1500000000;
	res.cpu_host.system_ns = 250000000;
	end = end_of();
	nb_iperf3_end(end, &res);
	sent = json_object_get(end, "sum_sent");
	assert_int_equal(json_integer_value(json_object_get(sent, "packets")),
			 1000);
	assert_int_equal(
		json_integer_value(json_object_get(sent, "lost_packets")), 250);
	assert_true(real_at(sent, "lost_percent") == 25.0);
	assert_true(real_at(sent, "jitter_ms") == 0.0);
	sent = json_object_get(end, "cpu_utilization_percent");
	assert_true(real_at(sent, "host_total") == 87.5);
	assert_true(real_at(sent, "host_user") == 75.0);
	assert_true(real_at(sent, "host_system") == 12.5);
	assert_true(real_at(sent, "remote_total") == 0.0);
	json_decref(end);

	/* nothing sent: 0 %, not a division by zero */
	memset(&res.sum, 0, sizeof(res.sum));
	end = end_of();
	nb_iperf3_end(end, &res);
	sent = json_object_get(end, "sum_sent");
	assert_true(real_at(sent, "lost_percent") == 0.0);
	assert_int_equal(
		json_integer_value(json_object_get(sent, "lost_packets")), 0);
	json_decref(end);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_udp_loss),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
