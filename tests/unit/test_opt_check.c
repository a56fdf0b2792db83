/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The checks across options (app/core/nb_opt_check.c): modes, TCP,
 * replay, gaps, suites, --no-auth and the rest of nb_config_check.
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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "nb_frame.h"
#include "nb_options.h"
#include "nb_suite_opts.h"

#include "opt_fixtures.h"

/* --replay to a responder: stamped, forward, without probes; the
 * client's own --dst-ip stays the session's */
static void
test_client_replay_checks(void **state)
{
	static const struct {
		const char *extra[3];
		const char *why; /* NULL: accepted */
	} cases[] = {
		{{"--replay-stamp", NULL}, NULL},
		{{"--replay-stamp", "--dst-ip", "198.19.0.9"}, NULL},
		{{NULL}, "--replay needs --replay-stamp with --peer"},
		{{"--replay-stamp", "--reverse", NULL}, "not with --reverse"},
		{{"--replay-stamp", "--bidir", NULL}, "not with --reverse or"},
		{{"--replay-stamp", "--latency-rate", "100"},
		 "not with --latency-rate or --pingpong"},
		{{"--replay-stamp", "--pingpong", NULL},
		 "not with --latency-rate or --pingpong"},
		{{"--replay-stamp", "--size", "512"},
		 "--size (the file's frames have their sizes)"},
		{{"--replay-stamp", "--src-mac", "02:00:00:00:00:09"},
		 "--src-mac"},
	};
	struct nb_config cfg;
	char err[256];
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *toks[8] = {"--peer", "02:00:00:00:00:01",
				       "--replay", "/tmp/mix.pcap"};
		int rc;

		for (k = 0; k < 3 && cases[i].extra[k] != NULL; k++)
			toks[4 + k] = cases[i].extra[k];
		toks[4 + k] = NULL;
		rc = check_cfg(&cfg, toks, err);
		if (cases[i].why == NULL) {
			if (rc != 0)
				fail_msg("case %zu refused: %s", i, err);
			assert_true(cfg.replay.stamp);
			assert_int_equal(cfg.mode, NB_MODE_CLIENT);
		} else if (rc != -EINVAL || strstr(err, cases[i].why) == NULL) {
			fail_msg("case %zu: %d '%s', wanted '%s'", i, rc, err,
				 cases[i].why);
		}
	}
}

/* Peer mode over IPv6: --peer and --ip (or --src-ip/--dst-ip, or -6
 * with the defaults) give the client's addresses, checked for family. */
static void
test_peer_ipv6(void **state)
{
	static const uint8_t r6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 2};
	static const uint8_t c6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};
	static const uint8_t def_dst[16] = {0x20, 0x01, 0, 2,	    0,
					    0,	  0,	1, [15] = 1};
	struct nb_config cfg;
	char err[256];

#define REFUSED(needle, ...)                                                   \
	do {                                                                   \
		assert_int_equal(CHECK(err, __VA_ARGS__), -EINVAL);            \
		if (strstr(err, (needle)) == NULL)                             \
			fail_msg("'%s' does not name '%s'", err, (needle));    \
	} while (0)
	(void)state;
	assert_int_equal(CHECK_CFG(&cfg, err, "--peer", "2001:db8::2", "--ip",
				   "2001:db8::1"),
			 0);
	assert_int_equal(cfg.mode, NB_MODE_CLIENT);
	assert_int_equal(cfg.peer_is_ip, 1);
	assert_int_equal(cfg.stack.family, 6);
	assert_memory_equal(cfg.stack.dst6.a, r6, 16);
	assert_memory_equal(cfg.stack.src6.a, c6, 16);
	/* --peer a MAC, -6: the default addresses */
	assert_int_equal(
		CHECK_CFG(&cfg, err, "--peer", "02:00:00:00:00:02", "-6"), 0);
	assert_int_equal(cfg.peer_is_ip, 0);
	assert_int_equal(cfg.stack.family, 6);
	assert_memory_equal(cfg.stack.dst6.a, def_dst, 16);
	/* the same address twice is one */
	assert_int_equal(CHECK_CFG(&cfg, err, "--peer", "2001:db8::2",
				   "--dst-ip", "2001:db8::2"),
			 0);
	/* a responder over IPv6 */
	assert_int_equal(CHECK_CFG(&cfg, err, "--ip", "2001:db8::2"), 0);
	assert_int_equal(cfg.mode, NB_MODE_RESPONDER);
	assert_int_equal(cfg.ip6.family, 6);
	assert_memory_equal(cfg.ip6.a, r6, 16);
	REFUSED("two addresses for one end", "--peer", "2001:db8::2",
		"--dst-ip", "2001:db8::3");
	REFUSED("--peer gives an IPv4 address", "--peer", "198.19.0.1", "--ip",
		"2001:db8::1");
	REFUSED("--ip gives an IPv4 address", "--peer", "2001:db8::2", "--ip",
		"198.18.0.1");
	REFUSED("is unicast", "--peer", "ff02::1");
	REFUSED("is unicast", "--ip", "::");
	/* closed-loop TCP with a responder over IPv6; not QinQ */
	assert_int_equal(CHECK_CFG(&cfg, err, "--peer", "2001:db8::2", "--tcp"),
			 0);
	assert_int_equal(cfg.stack.family, 6);
	REFUSED("--tcp in peer mode carries plain IPv4", "--peer",
		"2001:db8::2", "--tcp", "--vlan", "1.2");
	/* a reflector test: IPv6, not more */
	assert_int_equal(CHECK_CFG(&cfg, err, "--peer", "02:00:00:00:00:02",
				   "--reflector", "-6"),
			 0);
	assert_int_equal(cfg.stack.family, 6);
	REFUSED("--reflector carries plain IPv4", "--peer", "02:00:00:00:00:02",
		"--reflector", "--vlan", "1.2");
}
#undef REFUSED

/* --tcp: its defaults, and what it refuses with a reason. */
/* --gaps: a loopback's receivers time what this process sends */
/* --iperf3: a client mode of its own; what it cannot be combined with. */
static void
test_iperf3_checks(void **state)
{
	struct nb_config cfg;
	char err[256];

#define REFUSED(needle, ...)                                                   \
	do {                                                                   \
		assert_int_equal(CHECK(err, __VA_ARGS__), -EINVAL);            \
		if (strstr(err, (needle)) == NULL)                             \
			fail_msg("'%s' does not name '%s'", err, (needle));    \
	} while (0)
	(void)state;
	assert_int_equal(CHECK_CFG(&cfg, err, "--iperf3", "10.0.0.2", "--time",
				   "3", "--rate", "200M", "--size", "1446"),
			 0);
	assert_int_equal(cfg.mode, NB_MODE_CLIENT);
	assert_int_equal(cfg.iperf3, 1);
	assert_int_equal(cfg.ip3_port, 5201);
	REFUSED("not with --peer", "--iperf3", "10.0.0.2", "--peer",
		"10.0.0.3");
	REFUSED("--ports", "--iperf3", "10.0.0.2", "--ports", "0,1");
	REFUSED("--tx-port", "--iperf3", "10.0.0.2", "--tx-port", "0");
	assert_int_equal(
		CHECK_CFG(&cfg, err, "--iperf3", "10.0.0.2", "--bidir"), 0);
	assert_int_equal(cfg.bidir, 1);
	REFUSED("exclude each other", "--iperf3", "10.0.0.2", "--bidir", "-R");
	/* 128 connections at most, both ways counted */
	assert_int_equal(CHECK_CFG(&cfg, err, "--iperf3", "10.0.0.2", "--bidir",
				   "--streams", "64"),
			 0);
	REFUSED("at most 128 streams (64 with --bidir)", "--iperf3", "10.0.0.2",
		"--bidir", "--streams", "65");
	/* iperf3's -R: the server sends, UDP or TCP */
	assert_int_equal(CHECK_CFG(&cfg, err, "--iperf3", "10.0.0.2", "-R"), 0);
	assert_int_equal(cfg.reverse, 1);
	/* TCP streams: by time or by bytes, one or more, iperf3's -w */
	assert_int_equal(CHECK_CFG(&cfg, err, "--iperf3", "10.0.0.2", "--tcp",
				   "--streams", "4", "--bytes", "20M",
				   "--window", "4M"),
			 0);
	assert_int_equal(cfg.tcp, 1);
	assert_int_equal(cfg.streams, 4);
	assert_int_equal(cfg.bytes, 20u << 20);
	assert_int_equal(cfg.ip3_window, 4u << 20);
	assert_int_equal(
		CHECK_CFG(&cfg, err, "--iperf3", "10.0.0.2", "--tcp", "-R"), 0);
	assert_true(cfg.reverse && cfg.tcp);
	assert_int_equal(CHECK_CFG(&cfg, err, "--iperf3", "10.0.0.2", "--tcp",
				   "--bidir"),
			 0);
	REFUSED("--reflector is for", "--iperf3", "10.0.0.2", "--reflector");
	/* --iperf3-server: a keyless responder of its own */
	assert_int_equal(CHECK_CFG(&cfg, err, "--iperf3-server", "5201"), 0);
	assert_int_equal(cfg.mode, NB_MODE_RESPONDER);
	assert_true(cfg.ip3_server && cfg.no_auth);
	assert_true(cfg.max_time == NB_NO_AUTH_MAX_TIME);
	assert_true(cfg.max_rate.value == NB_NO_AUTH_MAX_RATE);
	assert_int_equal(CHECK_CFG(&cfg, err, "--iperf3-server", "5201",
				   "--max-rate", "5G", "--max-time", "600"),
			 0);
	assert_true(cfg.max_time == 600 && cfg.max_rate.value == 5e9);
	REFUSED("which hold no key", "--iperf3-server", "5201", "--auth-key",
		key_path);
	REFUSED("a responder of its own", "--iperf3-server", "5201", "--peer",
		"10.0.0.3");
	REFUSED("a responder of its own", "--iperf3-server", "5201", "--iperf3",
		"10.0.0.3");
	REFUSED("not with --pingpong", "--iperf3", "10.0.0.2", "--pingpong");
#undef REFUSED
}

static void
test_gaps_checks(void **state)
{
	struct nb_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(CHECK_CFG(&cfg, err, "--tx-port", "0", "--rx-port",
				   "1", "--rate", "1G", "--gaps"),
			 0);
	assert_true(cfg.gaps);
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1", "--tcp",
			       "--gaps"),
			 -EINVAL);
	assert_non_null(strstr(err, "--tcp cannot be combined with --gaps"));
	assert_int_equal(CHECK(err, "--rx-port", "0", "--gaps"), -EINVAL);
	assert_non_null(strstr(err, "not yet in a receive-only test"));
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1",
			       "--size", "64:1518:*2", "--gaps"),
			 -EINVAL);
	assert_non_null(strstr(err, "not with --test or a size sweep"));
	assert_int_equal(CHECK(err, "--peer", "02:00:00:00:00:01", "--gaps"),
			 -EINVAL);
	assert_non_null(strstr(err, "--gaps"));
}

static void
test_tcp_checks(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	assert_int_equal(CHECK_CFG(&cfg, err, "--tx-port", "0", "--rx-port",
				   "1", "--tcp", "-P", "4", "-n", "10M"),
			 0);
	assert_int_equal(cfg.proto, 6);
	assert_int_equal(cfg.sizes.nb_sizes, 1);
	assert_int_equal(cfg.sizes.sizes[0], 1518); /* MSS 1460 */
	assert_int_equal(cfg.tcp_window, 1u << 20);
	assert_int_equal(cfg.bytes, 10u << 20);
	assert_int_equal(CHECK_CFG(&cfg, err, "--tx-port", "0", "--rx-port",
				   "1", "--tcp", "--size", "9000", "-w", "4M",
				   "--delayed-ack", "--no-sack"),
			 0);
	assert_int_equal(cfg.sizes.sizes[0], 9000);
	assert_true(cfg.tcp_delayed_ack && cfg.tcp_no_sack);
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1", "--tcp",
			       "--rate", "1G"),
			 -EINVAL);
	assert_non_null(strstr(err, "congestion control sets the rate"));
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1", "--tcp",
			       "--packets", "100"),
			 -EINVAL);
	assert_non_null(strstr(err, "--packets"));
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1", "--tcp",
			       "--size", "64,1518"),
			 -EINVAL);
	assert_non_null(strstr(err, "one --size"));
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1", "--tcp",
			       "--size", "64"),
			 -EINVAL);
	assert_non_null(strstr(err, "128 bytes"));
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1", "--tcp",
			       "--omit", "1"),
			 -EINVAL);
	assert_int_equal(
		CHECK(err, "--tx-port", "0,2", "--rx-port", "1,3", "--tcp"),
		-EINVAL);
	assert_non_null(strstr(err, "one --tx-port"));
	/* one side alone: a client of, or a listener for, another host */
	assert_int_equal(
		CHECK(err, "--tx-port", "0", "--tcp", "--dst-ip", "10.0.0.2"),
		0);
	assert_int_equal(CHECK(err, "--rx-port", "0", "--tcp"), 0);
	/* --rx-port alone without --tcp: a receive-only test */
	assert_int_equal(CHECK_CFG(&cfg, err, "--rx-port", "0"), 0);
	assert_true(cfg.rx_only);
	assert_int_equal(CHECK_CFG(&cfg, err, "--rx-port", "0", "--packets",
				   "1M", "--streams", "4"),
			 0);
	assert_true(cfg.rx_only && cfg.packets == 1000000);
	assert_int_equal(CHECK(err, "--rx-port", "0", "--rate", "1G"), -EINVAL);
	assert_non_null(strstr(err, "--rate is a sender's"));
	assert_int_equal(CHECK(err, "--rx-port", "0", "--size", "128"),
			 -EINVAL);
	assert_non_null(strstr(err, "--size is a sender's"));
	assert_int_equal(CHECK(err, "--rx-port", "0", "--bytes", "1G"),
			 -EINVAL);
	assert_int_equal(CHECK_CFG(&cfg, err, "--rx-port", "0", "--tcp"), 0);
	assert_false(cfg.rx_only);
	assert_int_equal(
		CHECK_CFG(&cfg, err, "--tx-port", "0", "--rx-port", "1"), 0);
	assert_false(cfg.rx_only);
	/* the TCP-only options alone */
	assert_int_equal(
		CHECK(err, "--tx-port", "0", "--rx-port", "1", "-w", "1M"),
		-EINVAL);
	assert_non_null(strstr(err, "--window goes with --tcp"));
	assert_int_equal(
		CHECK(err, "--tx-port", "0", "--rx-port", "1", "--no-sack"),
		-EINVAL);
	/* request/response: TCP's in a loopback, message sizes */
	assert_int_equal(CHECK_CFG(&cfg, err, "--tx-port", "0", "--rx-port",
				   "1", "--tcp", "--pingpong", "--msg-size",
				   "64"),
			 0);
	assert_true(cfg.pingpong && cfg.tcp_msg == 64);
	assert_int_equal(cfg.tcp_msgs.n, 0);
	/* a sweep of message sizes, qperf's syntax */
	assert_int_equal(CHECK_CFG(&cfg, err, "--tx-port", "0", "--rx-port",
				   "1", "--tcp", "--pingpong", "--msg-size",
				   "1:65535:*16"),
			 0);
	assert_int_equal(cfg.tcp_msgs.n, 5);
	assert_int_equal(cfg.tcp_msgs.sizes[1], 16);
	assert_int_equal(cfg.tcp_msgs.sizes[4], 65535);
	assert_int_equal(cfg.tcp_msg, 1);
	EXPECT_ERROR("1..65535", "--msg-size", "--msg-size", "1:70000:*2");
	assert_int_equal(
		CHECK(err, "--tx-port", "0", "--rx-port", "1", "--pingpong"),
		-EINVAL);
	assert_non_null(strstr(err, "add --tcp"));
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1", "--tcp",
			       "--msg-size", "64"),
			 -EINVAL);
	assert_non_null(strstr(err, "--msg-size goes with --pingpong"));
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1", "--tcp",
			       "--pingpong", "-n", "1M"),
			 -EINVAL);
	/* a client of a responder: the TCP options, --reverse, --bidir, a
	 * --msg-size range; --latency-rate not */
	assert_int_equal(CHECK_CFG(&cfg, err, "--peer", "02:00:00:00:00:01",
				   "--tcp", "-w", "256K", "--cc", "cubic",
				   "--delayed-ack", "--no-sack", "--reverse"),
			 0);
	assert_true(cfg.tcp && cfg.tcp_window == 262144 && cfg.tcp_cc == 1 &&
		    cfg.tcp_delayed_ack && cfg.tcp_no_sack && cfg.reverse);
	assert_int_equal(cfg.proto, NB_IPPROTO_TCP);
	assert_int_equal(cfg.sizes.sizes[0], 1518);
	assert_int_equal(CHECK_CFG(&cfg, err, "--peer", "02:00:00:00:00:01",
				   "--tcp", "--pingpong", "--msg-size", "9000",
				   "--size", "9000"),
			 0);
	assert_int_equal(cfg.tcp_msg, 9000);
	assert_int_equal(CHECK(err, "--peer", "02:00:00:00:00:01", "--tcp",
			       "--bidir", "--bytes", "1G"),
			 0);
	assert_int_equal(CHECK(err, "--peer", "02:00:00:00:00:01", "--tcp",
			       "--latency-rate", "1000"),
			 -EINVAL);
	assert_non_null(strstr(err, "--latency-rate"));
	/* a --msg-size sweep: a session per size */
	assert_int_equal(CHECK_CFG(&cfg, err, "--peer", "02:00:00:00:00:01",
				   "--tcp", "--pingpong", "--msg-size",
				   "1:4096:*2"),
			 0);
	assert_int_equal(cfg.tcp_msgs.n, 13);
	assert_int_equal(cfg.tcp_msgs.sizes[0], 1);
	assert_int_equal(cfg.tcp_msgs.sizes[12], 4096);
	assert_int_equal(CHECK(err, "--peer", "02:00:00:00:00:01", "--tcp",
			       "--rate", "1G"),
			 -EINVAL);
	assert_non_null(strstr(err, "--rate"));
	/* a responder takes its tests' TCP from the client */
	assert_int_equal(CHECK(err, "--tcp"), -EINVAL);
}

static void
test_suites(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	/* no --size: RFC 2544's seven sizes */
	assert_int_equal(CHECK_CFG(&cfg, err, "--tx-port", "0", "--rx-port",
				   "1", "--test", "throughput"),
			 0);
	assert_int_equal(cfg.sweep.n, 7);
	assert_int_equal(cfg.sweep.sizes[6], 1518);
	assert_true(cfg.trial_time == 60 && cfg.settle == 2);
	/* a list: each size on its own */
	assert_int_equal(CHECK_CFG(&cfg, err, "--tx-port", "0", "--rx-port",
				   "1", "--test", "rfc2544", "--size",
				   "64,1518"),
			 0);
	assert_int_equal(cfg.suite, (1u << NB_SUITE_KINDS) - 1);
	assert_int_equal(cfg.sweep.n, 2);
	assert_int_equal(cfg.sweep.sizes[1], 1518);
	/* a range, with or without --test */
	assert_int_equal(CHECK_CFG(&cfg, err, "--tx-port", "0", "--rx-port",
				   "1", "--size", "64:1518:*2"),
			 0);
	assert_int_equal(cfg.suite, 0);
	assert_int_equal(cfg.sweep.n, 6);
	assert_int_equal(cfg.sizes.sizes[0], 64);
	assert_int_equal(CHECK_CFG(&cfg, err, "--tx-port", "0", "--rx-port",
				   "1", "--size", "128:1024:+128", "--time",
				   "2"),
			 0);
	assert_int_equal(cfg.sweep.n, 8);
	assert_int_equal(cfg.sizes.sizes[0], 128);
	assert_int_equal(CHECK_CFG(&cfg, err, "--tx-port", "0", "--rx-port",
				   "1", "--size", "64:1518"),
			 -EINVAL);
	assert_non_null(strstr(err, "MIN:MAX:*FACTOR"));
	/* suite options without --test */
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1",
			       "--trial-time", "5"),
			 -EINVAL);
	assert_non_null(strstr(err, "--trial-time is for a test suite"));
	/* trials are reported whole: no --interval */
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1",
			       "--size", "64:256:*2", "--interval", "1"),
			 -EINVAL);
	assert_non_null(strstr(err, "--interval does not apply to a size "
				    "sweep"));
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1",
			       "--test", "loss", "--interval", "0"),
			 -EINVAL);
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1",
			       "--size", "64:256:*2", "--omit", "1"),
			 -EINVAL);
	assert_non_null(strstr(err, "--omit does not apply to a size sweep"));
	/* --settle: suites and sweeps */
	assert_int_equal(
		CHECK(err, "--tx-port", "0", "--rx-port", "1", "--settle", "1"),
		-EINVAL);
	assert_non_null(strstr(err, "--settle is for"));
	assert_int_equal(CHECK_CFG(&cfg, err, "--tx-port", "0", "--rx-port",
				   "1", "--settle", "0.5", "--size",
				   "64:256:*2"),
			 0);
	assert_true(cfg.settle == 0.5);
	/* a suite sets its trials' lengths */
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1",
			       "--test", "loss", "--time", "5"),
			 -EINVAL);
	assert_non_null(strstr(err, "--trial-time"));
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1",
			       "--test", "loss", "--packets", "5"),
			 -EINVAL);
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1",
			       "--test", "loss", "--size", "imix"),
			 -EINVAL);
	assert_non_null(strstr(err, "imix"));
	/* a client runs them too (a session per trial), one direction */
	assert_int_equal(CHECK(err, "--peer", "02:00:00:00:00:01", "--test",
			       "throughput"),
			 0);
	assert_int_equal(CHECK(err, "--peer", "02:00:00:00:00:01", "-R",
			       "--size", "64:1518:*2"),
			 0);
	assert_int_equal(CHECK(err, "--peer", "02:00:00:00:00:01", "--bidir",
			       "--size", "64:1518:*2"),
			 -EINVAL);
	assert_non_null(strstr(err, "not --bidir"));
	assert_int_equal(CHECK(err, "--peer", "02:00:00:00:00:01", "--bidir",
			       "--test", "loss"),
			 -EINVAL);
	assert_non_null(strstr(err, "a suite measures one direction"));
	/* ping-pong: a sweep of round trips, no search */
	assert_int_equal(CHECK(err, "--peer", "02:00:00:00:00:01", "--pingpong",
			       "--size", "64:1518:*2"),
			 0);
	assert_int_equal(CHECK(err, "--peer", "02:00:00:00:00:01", "--pingpong",
			       "--test", "throughput"),
			 -EINVAL);
	assert_non_null(strstr(err, "--pingpong has no rate to search"));
	/* not a responder */
	assert_int_equal(CHECK(err, "--test", "throughput"), -EINVAL);
	assert_int_equal(CHECK(err, "--peer", "02:00:00:00:00:01",
			       "--reflector", "--test", "back-to-back",
			       "--trials", "3"),
			 0);
}

static void
test_config_check(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	/* No test options: the responder (like iperf3 -s). */
	nb_config_defaults(&cfg);
	assert_int_equal(nb_config_check(&cfg, err, ERRLEN), 0);
	assert_int_equal(cfg.mode, NB_MODE_RESPONDER);
	assert_int_equal(CHECK(err, "--one-off"), 0);
	/* Client-only options without --peer. */
	assert_int_equal(CHECK(err, "--reverse"), -EINVAL);
	assert_non_null(strstr(err, "--peer"));
	assert_int_equal(CHECK(err, "--quit"), -EINVAL);
	/* The client and its directions. */
	nb_config_defaults(&cfg);
	assert_int_equal(nb_options_parse(&cfg, 3,
					  (char *[]){"x", "--peer",
						     "02:00:00:00:00:02", NULL},
					  err, ERRLEN),
			 0);
	assert_int_equal(nb_config_check(&cfg, err, ERRLEN), 0);
	assert_int_equal(cfg.mode, NB_MODE_CLIENT);
	assert_int_equal(CHECK(err, "--peer", "02:00:00:00:00:02", "--reverse",
			       "--bidir"),
			 -EINVAL);
	assert_int_equal(CHECK(err, "--peer", "02:00:00:00:00:02", "--one-off"),
			 -EINVAL);
	assert_int_equal(CHECK(err, "--peer", "02:00:00:00:00:02",
			       "--reflector", "--reverse"),
			 -EINVAL);
	assert_int_equal(CHECK(err, "--reflector"), -EINVAL);
	assert_int_equal(CHECK(err, "--peer", "02:00:00:00:00:02", "--tx-port",
			       "0", "--rx-port", "1"),
			 -EINVAL);
	/* --help and --version need nothing else. */
	assert_int_equal(CHECK(err, "--help"), 0);
	assert_int_equal(CHECK(err, "-V"), 0);
	assert_int_equal(CHECK(err, "-h", "--tx-port", "0", "--rx-port", "0"),
			 0);

	/* One side only: a sender needs a receiver (but with --tcp); a
	 * receiver alone is a receive-only test. */
	assert_int_equal(CHECK(err, "--tx-port", "0"), -EINVAL);
	assert_non_null(strstr(err, "--rx-port"));
	assert_non_null(strstr(err, "receive-only"));
	assert_int_equal(CHECK(err, "--rx-port", "1"), 0);

	/* A port on both sides. */
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "0"),
			 -EINVAL);
	assert_non_null(strstr(err, "port 0"));
	assert_int_equal(CHECK(err, "--tx-port", "0,5", "--rx-port", "1,5"),
			 -EINVAL);
	assert_non_null(strstr(err, "port 5"));

	/* Unequal list lengths. */
	assert_int_equal(CHECK(err, "--tx-port", "0,2", "--rx-port", "1"),
			 -EINVAL);
	assert_non_null(strstr(err, "same number"));
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1,3"),
			 -EINVAL);
	assert_non_null(strstr(err, "same number"));

	/* --packets with --bytes. */
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1",
			       "--packets", "10", "--bytes", "10"),
			 -EINVAL);
	assert_non_null(strstr(err, "--packets"));
	assert_non_null(strstr(err, "--bytes"));

	/* --omit with a count. */
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1",
			       "--omit", "1", "--packets", "1000"),
			 -EINVAL);
	assert_non_null(strstr(err, "--omit"));
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1",
			       "--omit", "1", "--bytes", "1M"),
			 -EINVAL);
	assert_non_null(strstr(err, "--omit"));
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1",
			       "--omit", "0", "--packets", "1000"),
			 0);
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1",
			       "--omit", "2", "--time", "5"),
			 0);

	/* --time 0 needs a count. */
	assert_int_equal(
		CHECK(err, "--tx-port", "0", "--rx-port", "1", "--time", "0"),
		-EINVAL);
	assert_non_null(strstr(err, "--time 0"));
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1",
			       "--time", "0", "--packets", "1"),
			 0);
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1", "-t",
			       "0", "-n", "1G"),
			 0);

	/* Ok. */
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1"), 0);
	assert_int_equal(CHECK(err, "--tx-port", "0,2", "--rx-port", "1,3",
			       "--size", "imix", "--vlan", "4094", "--proto",
			       "tcp", "-P", "1024", "-q", "16"),
			 0);
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1",
			       "--packets", "10M"),
			 0);
	assert_int_equal(CHECK(err, "--list-ports"), 0);
}

/*
 * --no-auth: a responder that serves keyless clients gets caps of 1G (L1)
 * and 60 s unless --max-rate/--max-time are given (even at their default
 * values); without --no-auth the defaults stay 10G and 3600 s.  With
 * --auth-key it is a usage error naming both; it is the responder's.
 */
static void
test_no_auth(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	/* the defaults a keyed responder keeps */
	assert_int_equal(CHECK_CFG(&cfg, err, "--allow", "10.0.0.0/8"), 0);
	assert_int_equal(cfg.mode, NB_MODE_RESPONDER);
	assert_int_equal(cfg.no_auth, 0);
	assert_int_equal(cfg.max_rate.kind, NB_RATE_BPS_L1);
	assert_true(cfg.max_rate.value == 10e9);
	assert_true(cfg.max_time == 3600);

	/* --no-auth alone: 1e9 bit/s at L1, 60 s */
	assert_int_equal(CHECK_CFG(&cfg, err, "--no-auth"), 0);
	assert_int_equal(cfg.mode, NB_MODE_RESPONDER);
	assert_int_equal(cfg.no_auth, 1);
	assert_int_equal(cfg.max_rate.kind, NB_RATE_BPS_L1);
	assert_true(cfg.max_rate.value == 1e9);
	assert_true(cfg.max_time == 60);
	/* with other responder options too */
	assert_int_equal(CHECK_CFG(&cfg, err, "--allow", "10.0.0.0/8",
				   "--no-auth", "--allow-quit"),
			 0);
	assert_true(cfg.max_rate.value == 1e9);
	assert_int_equal(cfg.max_rate.kind, NB_RATE_BPS_L1);
	assert_true(cfg.max_time == 60);

	/* explicit caps are kept, each on its own */
	assert_int_equal(
		CHECK_CFG(&cfg, err, "--no-auth", "--max-rate", "5Mpps"), 0);
	assert_int_equal(cfg.max_rate.kind, NB_RATE_PPS);
	assert_true(cfg.max_rate.value == 5e6);
	assert_true(cfg.max_time == 60);
	assert_int_equal(CHECK_CFG(&cfg, err, "--max-time", "600", "--no-auth"),
			 0);
	assert_int_equal(cfg.max_rate.kind, NB_RATE_BPS_L1);
	assert_true(cfg.max_rate.value == 1e9);
	assert_true(cfg.max_time == 600);
	/* given at the keyed defaults' values: still kept */
	assert_int_equal(CHECK_CFG(&cfg, err, "--no-auth", "--max-rate", "10G",
				   "--max-time", "3600"),
			 0);
	assert_int_equal(cfg.max_rate.kind, NB_RATE_BPS_L1);
	assert_true(cfg.max_rate.value == 10e9);
	assert_true(cfg.max_time == 3600);
	/* an L2 cap stays L2 */
	assert_int_equal(CHECK_CFG(&cfg, err, "--no-auth", "--max-rate", "2Gl2",
				   "--max-time", "30"),
			 0);
	assert_int_equal(cfg.max_rate.kind, NB_RATE_BPS_L2);
	assert_true(cfg.max_rate.value == 2e9);
	assert_true(cfg.max_time == 30);

	/* --no-auth with --auth-key: refused, naming both, in any order */
	assert_int_equal(
		CHECK_CFG(&cfg, err, "--no-auth", "--auth-key", key_path),
		-EINVAL);
	assert_non_null(strstr(err, "--no-auth"));
	assert_non_null(strstr(err, "--auth-key"));
	assert_int_equal(CHECK_CFG(&cfg, err, "--auth-key", key_path,
				   "--no-auth", "--max-time", "10"),
			 -EINVAL);
	assert_non_null(strstr(err, "--no-auth"));
	assert_non_null(strstr(err, "--auth-key"));

	/* a client or a loopback test has no --no-auth */
	assert_int_equal(
		CHECK_CFG(&cfg, err, "--peer", "10.0.0.1", "--no-auth"),
		-EINVAL);
	assert_non_null(strstr(err, "--no-auth"));
	assert_int_equal(CHECK_CFG(&cfg, err, "--tx-port", "0", "--rx-port",
				   "1", "--no-auth"),
			 -EINVAL);
	assert_non_null(strstr(err, "--no-auth"));
	/* a flag: given twice is an error */
	EXPECT_ERROR("--no-auth", "twice", "--no-auth", "--no-auth");
}

/* Each option is refused in a mode it does not apply to. */
static void
test_option_modes(void **state)
{
	static const struct {
		const char *args[8];
		const char *frag1, *frag2;
	} bad[] = {
		{{"--rate", "10G"}, "--rate is a test option", "--peer"},
		{{"--time", "5"}, "--time is a test option", "--tx-port"},
		{{"--streams", "2"}, "test option", "--streams"},
		{{"--interval", "2"}, "--interval is a test option", "client"},
		{{"--tx-port", "0", "--rx-port", "1", "--allow", "10.0.0.1"},
		 "--allow is for the responder",
		 "not a loopback test"},
		{{"--tx-port", "0", "--rx-port", "1", "--max-streams", "4"},
		 "--max-streams is for the responder",
		 "not a loopback test"},
		{{"--tx-port", "0", "--rx-port", "1", "--one-off"},
		 "--one-off",
		 "not a loopback test"},
		{{"--peer", "02:00:00:00:00:02", "--src-mac",
		  "02:00:00:00:00:01"},
		 "--src-mac is for a loopback test",
		 "not a client"},
		{{"--peer", "02:00:00:00:00:02", "--max-rate", "1G"},
		 "--max-rate",
		 "not a client"},
		{{"--peer", "02:00:00:00:00:02", "--allow", "10.0.0.1"},
		 "--allow",
		 "not a client"},
		{{"--peer", "02:00:00:00:00:02", "--allow-quit"},
		 "--allow-quit",
		 "not a client"},
		{{"--peer", "02:00:00:00:00:02", "--no-auth"},
		 "--no-auth",
		 "not a client"},
		{{"--peer", "02:00:00:00:00:02", "--one-off"},
		 "--one-off",
		 "not a client"},
		{{"--peer", "02:00:00:00:00:02", "--reflector", "--reverse"},
		 "--reverse is for a client",
		 "not a reflector test"},
		{{"--peer", "02:00:00:00:00:02", "--reflector", "--max-time",
		  "9"},
		 "--max-time",
		 "not a reflector test"},
		{{"--tx-port", "0", "--rx-port", "1", "--ip", "10.0.0.1"},
		 "--ip",
		 "not a loopback test"},
		{{"--tx-port", "0", "--rx-port", "1", "--peer-timeout", "3"},
		 "--peer-timeout",
		 "not a loopback test"},
		{{"--list-ports", "--rate", "1G"},
		 "--rate",
		 "not --list-ports"},
		{{"--list-ports", "--queues", "2"},
		 "--queues",
		 "not --list-ports"},
		{{"--list-ports", "--port", "1"}, "--port", "not --list-ports"},
		{{"--max-streams", "4", "--tx-port", "0", "--rx-port", "1"},
		 "--max-streams",
		 "loopback"},
	};
	static const char *const good[][10] = {
		{"--one-off", "--max-streams", "4", "--allow", "10.0.0.0/8",
		 "--allow-quit"},
		{"--max-rate", "1Mpps", "--max-time", "60", "--ip", "10.0.0.2"},
		{"--size", "1518", "--vlan", "5", "--queues", "2", "--drain",
		 "1"},
		{"--port", "1", "--peer-timeout", "3", "--rxd", "512",
		 "--link-timeout", "1"},
		{"--json", "--logfile", "/tmp/x.log", "--json-file", "y.json"},
		{"--peer", "198.19.0.1", "--rate", "1G", "--src-ip", "10.0.0.1",
		 "--ip", "10.0.0.1"},
		{"--peer", "02:00:00:00:00:02", "--reflector", "--src-mac",
		 "02:00:00:00:00:01", "--time", "1"},
		{"--list-ports", "--json", "--rxd", "512", "--link-timeout",
		 "1"},
		{"--tx-port", "0", "--rx-port", "1", "--interval", "0.5",
		 "--format", "g", "--quiet"},
	};
	struct nb_config cfg;
	char err[ERRLEN];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = check(bad[i].args, err);

		if (rc != -EINVAL || strstr(err, bad[i].frag1) == NULL ||
		    strstr(err, bad[i].frag2) == NULL)
			fail_msg("case %zu (%s): rc %d, '%s'", i,
				 bad[i].args[0], rc, err);
	}
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int rc = check(good[i], err);

		if (rc != 0)
			fail_msg("good case %zu (%s): %s", i, good[i][0], err);
	}
	/* --auth-key: for the client and the responder only */
	assert_int_equal(
		check((const char *const[]){"--auth-key", key_path, NULL}, err),
		0);
	assert_int_equal(
		check((const char *const[]){"--auth-key", key_path, "--peer",
					    "10.0.0.1", NULL},
		      err),
		0);
	assert_int_equal(
		check((const char *const[]){"--auth-key", key_path, "--tx-port",
					    "0", "--rx-port", "1", NULL},
		      err),
		-EINVAL);
	assert_non_null(strstr(err, "--auth-key in a loopback test is for "
				    "--serve"));
	/* the mode derived is kept */
	assert_int_equal(PARSE(&cfg, err, "--allow", "10.0.0.1"), 0);
	assert_int_equal(nb_config_check(&cfg, err, ERRLEN), 0);
	assert_int_equal(cfg.mode, NB_MODE_RESPONDER);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcp_checks),
		cmocka_unit_test(test_peer_ipv6),
		cmocka_unit_test(test_gaps_checks),
		cmocka_unit_test(test_client_replay_checks),
		cmocka_unit_test(test_config_check),
		cmocka_unit_test(test_suites),
		cmocka_unit_test(test_no_auth),
		cmocka_unit_test(test_option_modes),
		cmocka_unit_test(test_iperf3_checks),
	};

	return cmocka_run_group_tests(tests, setup_keys, teardown_keys);
}
