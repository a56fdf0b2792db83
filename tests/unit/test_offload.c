/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the offload decisions (app/core/nb_offload.c) fed with
 * each driver profile's capabilities (app/core/nb_drivers.c: what DPDK
 * 22.11's drivers report).  The expectations below are written from the
 * drivers' sources and feature lists (drivers/net/<name>/, v22.11), not
 * from the profile table: a profile that drifts from them fails here.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "nb_drivers.h"
#include "nb_frame.h"
#include "nb_offload.h"

struct expect {
	const char *driver;
	int udp_csum, tcp_csum; /* the device can fill them */
	int slow;		/* ... off its vector TX path (auto: sw) */
	int rss, rss_l4;	/* with 4 RX queues */
	int hw_ts;		/* hardware timestamps of some kind */
	int rate, fc;		/* queue rate limit, flow control ops */
};

static const struct expect expects[] = {
	/* Intel PFs: all checksums (ixgbe and i40e only off their vector
	 * TX path: ixgbe_set_tx_function, i40e_set_tx_function_flag), RSS
	 * over ports, IEEE 1588 */
	{"net_ixgbe", 1, 1, 1, 1, 1, 1, 1, 1},
	{"net_i40e", 1, 1, 1, 1, 1, 1, 0, 1},
	{"net_e1000_igb", 1, 1, 0, 1, 1, 1, 0, 1},
	/* e1000 (em): one queue, no RSS */
	{"net_e1000_em", 1, 1, 0, 0, 0, 0, 0, 1},
	/* VFs: checksums and RSS, no timesync, no flow control */
	{"net_ixgbe_vf", 1, 1, 1, 1, 1, 0, 0, 0},
	{"net_i40e_vf", 1, 1, 0, 1, 1, 0, 0, 0},
	{"net_iavf", 1, 1, 0, 1, 1, 0, 0, 0},
	/* Broadcom: bnxt has it all (PTP firmware; checksums off the
	 * vector path: bnxt_transmit_function), bnx2x nothing */
	{"net_bnxt", 1, 1, 1, 1, 1, 1, 0, 1},
	{"net_bnx2x", 0, 0, 0, 0, 0, 0, 0, 0},
	{"net_bnx2xvf", 0, 0, 0, 0, 0, 0, 0, 0},
	/* guests */
	{"net_virtio", 1, 1, 0, 0, 0, 0, 0, 0},
	{"net_virtio_user", 1, 1, 0, 0, 0, 0, 0, 0},
	{"net_vhost", 1, 1, 0, 0, 0, 0, 0, 0},
	{"net_vmxnet3", 1, 1, 0, 1, 1, 0, 0, 0},
	{"net_netvsc", 1, 1, 0, 1, 1, 0, 0, 0},
	/* vdevs */
	{"net_memif", 0, 0, 0, 0, 0, 0, 0, 0},
	{"net_af_packet", 0, 0, 0, 0, 0, 0, 0, 0},
	{"net_null", 0, 0, 0, 1, 1, 0, 0, 0},
	{"net_tap", 1, 1, 0, 1, 1, 0, 0, 1},
	{"net_ring", 0, 0, 0, 0, 0, 0, 0, 0},
	{"net_pcap", 0, 0, 0, 0, 0, 0, 0, 0},
	{"net_bonding", 0, 0, 0, 0, 0, 0, 0, 0},
};

static const struct expect *
expect_of(const char *driver)
{
	size_t i;

	for (i = 0; i < sizeof(expects) / sizeof(expects[0]); i++)
		if (strcmp(expects[i].driver, driver) == 0)
			return &expects[i];
	return NULL;
}

static void
decide(const struct nb_driver_profile *p, enum nb_csum_mode m, uint8_t proto,
       uint16_t nb_rxq, struct nb_offload_plan *plan, int want_rc)
{
	struct nb_offload_req r = {
		.tx_csum = m, .proto = proto, .nb_rxq = nb_rxq};
	char err[256] = "";

	assert_int_equal(nb_offload_decide(p->driver, &p->caps, &r, plan, err,
					   sizeof(err)),
			 want_rc);
	if (want_rc != 0) {
		/* says what and where, and the way out */
		assert_non_null(strstr(err, p->driver));
		assert_non_null(strstr(err, "--tx-checksum auto"));
	}
}

/* Every profile against its expectation: checksums, RSS, timestamps. */
static void
test_profiles(void **state)
{
	const struct nb_driver_profile *t;
	struct nb_offload_plan plan;
	size_t n, i;

	(void)state;
	t = nb_driver_profiles(&n);
	assert_true(n >= sizeof(expects) / sizeof(expects[0]));
	for (i = 0; i < n; i++) {
		const struct nb_driver_profile *p = &t[i];
		const struct expect *e = expect_of(p->driver);

		print_message("%s\n", p->driver);
		assert_non_null(e); /* every profile has its expectation */
		decide(p, NB_CSUM_AUTO, NB_IPPROTO_UDP, 4, &plan, 0);
		assert_int_equal(plan.tx_l4_csum, e->udp_csum && !e->slow);
		if (e->slow)
			assert_non_null(strstr(plan.csum_why, "vector TX"));
		assert_int_equal(plan.rss, e->rss);
		assert_int_equal(plan.rss_l4, e->rss_l4);
		assert_int_equal(plan.hw_ts_avail, e->hw_ts);
		assert_int_equal(!!(p->caps.caps & NB_CAP_QUEUE_RATE), e->rate);
		assert_int_equal(!!(p->caps.caps & NB_CAP_FLOW_CTRL), e->fc);
		assert_non_null(strstr(plan.csum_why, p->driver));
		decide(p, NB_CSUM_AUTO, NB_IPPROTO_TCP, 4, &plan, 0);
		assert_int_equal(plan.tx_l4_csum, e->tcp_csum && !e->slow);
		assert_int_equal(nb_offload_tx_l4(&p->caps, NB_CSUM_AUTO,
						  NB_IPPROTO_TCP),
				 e->tcp_csum && !e->slow);
		assert_int_equal(
			nb_offload_tx_l4(&p->caps, NB_CSUM_HW, NB_IPPROTO_TCP),
			e->tcp_csum);
		/* sw: never the NIC's, whatever it has */
		decide(p, NB_CSUM_SW, NB_IPPROTO_UDP, 4, &plan, 0);
		assert_int_equal(plan.tx_l4_csum, 0);
		assert_int_equal(
			nb_offload_tx_l4(&p->caps, NB_CSUM_SW, NB_IPPROTO_UDP),
			0);
		/* hw: the NIC's, or the port is refused */
		decide(p, NB_CSUM_HW, NB_IPPROTO_UDP, 1, &plan,
		       e->udp_csum ? 0 : -1);
		if (e->udp_csum)
			assert_int_equal(plan.tx_l4_csum, 1);
		/* one RX queue: no RSS on any device */
		decide(p, NB_CSUM_AUTO, NB_IPPROTO_UDP, 1, &plan, 0);
		assert_int_equal(plan.rss, 0);
		assert_non_null(strstr(plan.rss_why, "one RX queue"));
	}
}

/* The profile's counters against a PMD's names: exact names, the
 * missing ones in the profile's order, and a short buffer cut, not
 * overrun. */
static void
test_xstats_missing(void **state)
{
	struct nb_driver_profile p;
	const char *const names[] = {"rx_good_packets", "rx_q0_drop_total",
				     "rx_q0_drop_err", "tx_q0_drop_total"};
	char out[64], small[8];

	(void)state;
	memset(&p, 0, sizeof(p));
	/* none named: none missing */
	assert_int_equal(
		nb_driver_xstats_missing(&p, names, 4, out, sizeof(out)), 0);
	assert_string_equal(out, "");
	p.xstats = "rx_q0_drop_total  tx_q0_drop_total";
	assert_int_equal(
		nb_driver_xstats_missing(&p, names, 4, out, sizeof(out)), 0);
	/* a prefix of a name is not the name; the PMD without names */
	p.xstats = "rx_q0_drop rx_q0_drop_err tx_q0_tx_ring_full";
	assert_int_equal(
		nb_driver_xstats_missing(&p, names, 4, out, sizeof(out)), 2);
	assert_string_equal(out, "rx_q0_drop tx_q0_tx_ring_full");
	assert_int_equal(
		nb_driver_xstats_missing(&p, NULL, 0, out, sizeof(out)), 3);
	assert_int_equal(
		nb_driver_xstats_missing(&p, names, 4, small, sizeof(small)),
		2);
	assert_string_equal(small, "rx_q0_d");
	/* the words themselves: spaces around and between skipped */
	{
		const char *rest = "  ab  c ", *w;
		size_t wl = 0;

		w = nb_words_next(&rest, &wl);
		assert_int_equal(wl, 2);
		assert_memory_equal(w, "ab", 2);
		w = nb_words_next(&rest, &wl);
		assert_int_equal(wl, 1);
		assert_memory_equal(w, "c", 1);
		assert_null(nb_words_next(&rest, &wl));
		rest = NULL;
		assert_null(nb_words_next(&rest, &wl));
	}
}

/* Each profile's counters are names as DPDK spells them: one word each
 * (fits an xstat name), none twice; vmxnet3's against the names its
 * 22.11 PMD gives one queue pair (drivers/net/vmxnet3, after ethdev's). */
static void
test_profile_xstats(void **state)
{
	const char *const vmx_names[] = {
		"rx_good_packets",  "rx_q0_packets",
		"rx_q0_drop_total", "rx_q0_drop_err",
		"rx_q0_drop_fcs",   "rx_q0_rx_buf_alloc_failure",
		"tx_q0_drop_total", "tx_q0_drop_too_many_segs",
		"tx_q0_drop_tso",   "tx_q0_tx_ring_full"};
	const struct nb_driver_profile *t;
	char out[512], words[16][64];
	size_t n, i, named = 0;

	(void)state;
	t = nb_driver_profiles(&n);
	for (i = 0; i < n; i++) {
		const char *w = t[i].xstats;
		size_t k = 0, j;

		while (w != NULL && *w != '\0') {
			size_t wl = strcspn(w, " ");

			assert_in_range(wl, 1, sizeof(words[0]) - 1);
			assert_in_range(k, 0, 15);
			memcpy(words[k], w, wl);
			words[k][wl] = '\0';
			for (j = 0; j < k; j++)
				assert_string_not_equal(words[j], words[k]);
			k++;
			w += wl;
			w += strspn(w, " ");
		}
		named += k;
		/* --list-ports' buffer for the missing ones holds them all */
		assert_true(t[i].xstats == NULL || strlen(t[i].xstats) < 512);
	}
	assert_true(named >= 30);
	assert_int_equal(nb_driver_xstats_missing(
				 nb_driver_profile("net_vmxnet3"), vmx_names,
				 sizeof(vmx_names) / sizeof(vmx_names[0]), out,
				 sizeof(out)),
			 0);
	/* e1000 (em) has none of its own in 22.11: ethdev's only */
	assert_null(nb_driver_profile("net_e1000_em")->xstats);
}

/* RSS over addresses only (a device without port hashing) is told. */
static void
test_rss_l3_only(void **state)
{
	struct nb_dev_caps c = {NB_CAP_RSS_IP, 8, 8};
	struct nb_offload_req r = {NB_CSUM_AUTO, NB_IPPROTO_UDP, 2};
	struct nb_offload_plan p;
	char err[64], t[200];

	(void)state;
	assert_int_equal(
		nb_offload_decide("net_x", &c, &r, &p, err, sizeof(err)), 0);
	assert_int_equal(p.rss, 1);
	assert_int_equal(p.rss_l4, 0);
	assert_non_null(strstr(p.rss_why, "addresses only"));
	nb_offload_text(&p, t, sizeof(t));
	assert_string_equal(t, "tx checksum sw, rss l3, latency clock tsc, "
			       "flow control keep");
}

/* The JSON and the text say the same as the plan. */
static void
test_output(void **state)
{
	const struct nb_driver_profile *p = nb_driver_profile("net_e1000_igb");
	struct nb_offload_req r = {NB_CSUM_AUTO, NB_IPPROTO_UDP, 4};
	struct nb_offload_plan plan;
	char err[64], t[200];
	json_t *j;

	(void)state;
	assert_int_equal(nb_offload_decide(p->driver, &p->caps, &r, &plan, err,
					   sizeof(err)),
			 0);
	plan.flow_control = NB_FC_ON; /* the glue reads it back */
	nb_offload_text(&plan, t, sizeof(t));
	assert_string_equal(t, "tx checksum hw, rss l3+l4, latency clock tsc "
			       "(hw timestamps not used), flow control on");
	j = nb_offload_json(&plan);
	assert_non_null(j);
	assert_string_equal(
		json_string_value(json_object_get(j, "tx_checksum")), "hw");
	assert_true(json_is_true(json_object_get(j, "rss")));
	assert_string_equal(
		json_string_value(json_object_get(j, "flow_control")), "on");
	assert_string_equal(json_string_value(json_object_get(j, "rss_hash")),
			    "l3+l4");
	assert_string_equal(
		json_string_value(json_object_get(j, "latency_clock")), "tsc");
	assert_true(
		json_is_true(json_object_get(j, "hw_timestamps_available")));
	assert_non_null(
		strstr(json_string_value(json_object_get(j, "timestamps_why")),
		       "IEEE 1588"));
	json_decref(j);
}

/* --hw-rate: which pacing each port got, and why */
static void
test_rate(void **state)
{
	struct nb_offload_plan p;
	char t[200];

	(void)state;
	memset(&p, 0, sizeof(p));
	nb_offload_rate(&p, "net_ixgbe", 0, 2, 0, 0);
	assert_int_equal(p.hw_rate, 0);
	assert_string_equal(p.rate_why, "software pacer");
	nb_offload_rate(&p, "net_ixgbe", 1, 2, 2, 0);
	assert_int_equal(p.hw_rate, 1);
	assert_string_equal(p.rate_why, "net_ixgbe limits 2 TX queues "
					"(--hw-rate)");
	nb_offload_text(&p, t, sizeof(t));
	assert_non_null(strstr(t, ", pacing hw"));
	nb_offload_rate(&p, "net_memif", 1, 1, 0, -ENOTSUP);
	assert_int_equal(p.hw_rate, 0);
	assert_string_equal(
		p.rate_why,
		"software pacer: net_memif has no queue rate limit");
	nb_offload_text(&p, t, sizeof(t));
	assert_null(strstr(t, "pacing hw"));
	/* some queues limited, one refused: software on that one, told */
	nb_offload_rate(&p, "net_ixgbe", 1, 3, 2, -EINVAL);
	assert_int_equal(p.hw_rate, 0);
	assert_non_null(strstr(p.rate_why, "on 1 of 3 queues"));
	assert_non_null(strstr(p.rate_why, "Invalid argument"));
	nb_offload_rate(&p, "net_ixgbe", 1, 0, 0, 0);
	assert_int_equal(p.hw_rate, 0);
	assert_non_null(strstr(p.rate_why, "nothing to limit"));
}

/* A responder's reasons as the client shows them: escaped, cut. */
static void
test_printable(void **state)
{
	struct nb_offload_plan p;

	(void)state;
	memset(&p, 0, sizeof(p));
	snprintf(p.csum_why, sizeof(p.csum_why), "hw: \x1b[2Jixgbe");
	snprintf(p.rss_why, sizeof(p.rss_why), "ok \\ \xff");
	memset(p.rate_why, 'x', sizeof(p.rate_why) - 2);
	p.rate_why[0] = '\n';
	nb_offload_printable(&p);
	assert_string_equal(p.csum_why, "hw: \\x1b[2Jixgbe");
	assert_string_equal(p.rss_why, "ok \\\\ \\xff");
	assert_string_equal(p.ts_why, "");
	/* 158 bytes of which one became four: cut to 159 */
	assert_int_equal(strlen(p.rate_why), sizeof(p.rate_why) - 1);
	assert_memory_equal(p.rate_why, "\\x0axxx", 7);
}

static void
test_mode_parse(void **state)
{
	enum nb_csum_mode m;

	(void)state;
	assert_int_equal(nb_csum_mode_parse("hw", &m), 0);
	assert_int_equal(m, NB_CSUM_HW);
	assert_string_equal(nb_csum_mode_name(m), "hw");
	assert_int_equal(nb_csum_mode_parse("sw", &m), 0);
	assert_int_equal(m, NB_CSUM_SW);
	assert_int_equal(nb_csum_mode_parse("auto", &m), 0);
	assert_int_equal(m, NB_CSUM_AUTO);
	assert_int_equal(nb_csum_mode_parse("HW", &m), -1);
	assert_int_equal(nb_csum_mode_parse("", &m), -1);
	assert_int_equal(nb_csum_mode_parse("hardware", &m), -1);
}

/* A profile checked against a PMD's report: the profile's own bits never
 * compared, queues only where the profile fixes them, every bit named. */
static void
test_profile_check(void **state)
{
	const struct nb_driver_profile *em = nb_driver_profile("net_e1000_em");
	const struct nb_driver_profile *ix = nb_driver_profile("net_ixgbe");
	const struct nb_driver_profile *bnxt = nb_driver_profile("net_bnxt");
	const struct nb_driver_profile *vmx = nb_driver_profile("net_vmxnet3");
	struct nb_dev_caps real;
	struct nb_profile_diff d;
	unsigned int b;

	(void)state;
	assert_non_null(em);
	real = em->caps;
	assert_int_equal(nb_driver_profile_check(em, &real, &d), 1);
	assert_int_equal(d.missing | d.extra, 0);
	/* the PMD lacks flow control and offers RSS: both named */
	real.caps = (em->caps.caps & ~NB_CAP_FLOW_CTRL) | NB_CAP_RSS_IP;
	assert_int_equal(nb_driver_profile_check(em, &real, &d), 0);
	assert_int_equal(d.missing, NB_CAP_FLOW_CTRL);
	assert_int_equal(d.extra, NB_CAP_RSS_IP);
	assert_int_equal(d.rxq | d.txq, 0);
	/* vmxnet3 has 16 RX and 8 TX queues: two is a difference */
	real = vmx->caps;
	real.max_rxq = 2;
	assert_int_equal(nb_driver_profile_check(vmx, &real, &d), 0);
	assert_int_equal(d.rxq, 1);
	assert_int_equal(d.txq, 0);
	/* e1000's queues depend on the DPDK release (1 or 2): not fixed */
	real = em->caps;
	real.max_rxq = real.max_txq = 2;
	assert_int_equal(nb_driver_profile_check(em, &real, &d), 1);
	/* ixgbe as nb_port_caps reads a real one: no dev_info bit says its
	 * vector-path quirk or its queue rate limiter, and they are not
	 * compared */
	real = ix->caps;
	real.caps &= ~(NB_CAP_TX_CSUM_SLOW | NB_CAP_QUEUE_RATE);
	assert_int_equal(nb_driver_profile_check(ix, &real, &d), 1);
	assert_int_equal(d.missing | d.extra, 0);
	/* bnxt's queues are per device (0): any count agrees */
	real = bnxt->caps;
	real.max_rxq = 9;
	real.max_txq = 3;
	assert_int_equal(nb_driver_profile_check(bnxt, &real, &d), 1);
	for (b = 0; b < 10; b++)
		assert_non_null(nb_cap_name(b));
	assert_string_equal(nb_cap_name(1), "tx_udp_cksum");
	assert_string_equal(nb_cap_name(8), "flow_control");
	assert_null(nb_cap_name(10));
	/* the table covers every bit nb_offload.h defines */
	assert_int_equal(NB_CAP_TX_CSUM_SLOW, 1u << 9);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profiles),
		cmocka_unit_test(test_profile_check),
		cmocka_unit_test(test_xstats_missing),
		cmocka_unit_test(test_profile_xstats),
		cmocka_unit_test(test_rss_l3_only),
		cmocka_unit_test(test_output),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_mode_parse),
		cmocka_unit_test(test_printable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
