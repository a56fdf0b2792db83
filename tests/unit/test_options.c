/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the option table, its parsers and checks
 * (app/core/nb_options.c, nb_opt_*.c).
 *
 * Every entry of nb_options[] must have a case below (a new option without
 * one fails test_every_option_has_a_case), and each case is parsed in every
 * accepted spelling: "--name value", "--name=value" and "-x value".
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

#define ERRLEN 512

static uint32_t
ip4(unsigned int a, unsigned int b, unsigned int c, unsigned int d)
{
	return (uint32_t)a << 24 | (uint32_t)b << 16 | (uint32_t)c << 8 | d;
}

/* Parse a NULL-terminated list of tokens (argv[0] is added here). */
static int
parse_tokens(struct nb_config *cfg, const char *const *toks, char *err)
{
	char *argv[64];
	int argc = 0;

	argv[argc++] = (char *)"dpdk-nbench";
	while (*toks != NULL) {
		assert_true(argc < 63);
		argv[argc++] = (char *)*toks++;
	}
	argv[argc] = NULL;
	nb_config_defaults(cfg);
	err[0] = '\0';
	return nb_options_parse(cfg, argc, argv, err, ERRLEN);
}

#define PARSE(cfg, err, ...)                                                   \
	parse_tokens((cfg), (const char *const[]){__VA_ARGS__, NULL}, (err))

static void
test_defaults(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	nb_config_defaults(&cfg);
	assert_int_equal(cfg.mode, NB_MODE_NONE);
	assert_int_equal(cfg.nb_tx_ports, 0);
	assert_int_equal(cfg.nb_rx_ports, 0);
	assert_int_equal(cfg.rate.kind, NB_RATE_MAX);
	assert_int_equal(cfg.sizes.nb_sizes, 1);
	assert_int_equal(cfg.sizes.sizes[0], 64);
	assert_int_equal(cfg.sizes.nb_pattern, 1);
	assert_int_equal(cfg.sizes.pattern[0], 0);
	assert_int_equal(cfg.proto, 17);
	assert_int_equal(cfg.streams, 1);
	assert_int_equal(cfg.vlan_id, 0);
	assert_int_equal(cfg.src_ip, ip4(198, 18, 0, 1));
	assert_int_equal(cfg.dst_ip, ip4(198, 19, 0, 1));
	assert_int_equal(cfg.have_src_mac, 0);
	assert_int_equal(cfg.have_dst_mac, 0);
	assert_true(cfg.duration == 10.0);
	assert_int_equal(cfg.duration_set, 0);
	assert_int_equal(cfg.packets, 0);
	assert_int_equal(cfg.bytes, 0);
	assert_true(cfg.omit == 0.0);
	assert_true(cfg.interval == 1.0);
	assert_int_equal(cfg.queues, 1);
	assert_int_equal(cfg.rxd, 1024);
	assert_int_equal(cfg.txd, 1024);
	assert_true(cfg.link_timeout == 10.0);
	assert_true(cfg.drain == 0.5);
	assert_int_equal(cfg.json, 0);
	assert_int_equal(cfg.help, 0);
	assert_int_equal(cfg.version, 0);
	assert_int_equal(cfg.json_stream, 0);
	assert_int_equal(cfg.csv, 0);
	assert_int_equal(cfg.quiet, 0);
	assert_int_equal(cfg.format, 'a');
	assert_string_equal(cfg.logfile, "");
	assert_string_equal(cfg.json_file, "");
	assert_string_equal(cfg.config, "");
	assert_int_equal(cfg.seen[0], 0);
	assert_int_equal(cfg.seen[1], 0);

	/* No arguments at all: defaults, no error. */
	{
		char *argv[] = {(char *)"dpdk-nbench", NULL};
		struct nb_config c2;

		nb_config_defaults(&c2);
		assert_int_equal(nb_options_parse(&c2, 1, argv, err, ERRLEN),
				 0);
		assert_memory_equal(&c2, &cfg, sizeof(cfg));
	}
	/* The responder's policy defaults. */
	assert_int_equal(cfg.max_rate.kind, NB_RATE_BPS_L1);
	assert_true(cfg.max_rate.value == 10e9);
	assert_true(cfg.max_time == 3600);
	assert_int_equal(cfg.nb_allow, 0);
	assert_int_equal(cfg.psk_len, 0);
	assert_int_equal(cfg.allow_quit, 0);
	assert_int_equal(cfg.no_auth, 0);
	/* The table fits the "seen" and "given" bitmaps. */
	assert_true(nb_nb_options <=
		    64 * sizeof(cfg.seen) / sizeof(cfg.seen[0]));
	assert_true(nb_nb_options > 0);
}

/* One case per option: a valid value and a check of its effect. */
struct opt_case {
	const char *name;
	char short_name;
	const char *value; /* NULL for a flag */
	void (*check)(const struct nb_config *cfg);
	const char *bad[6]; /* rejected values, NULL-terminated */
};

static void
chk_help(const struct nb_config *c)
{
	assert_int_equal(c->help, 1);
}

static void
chk_version(const struct nb_config *c)
{
	assert_int_equal(c->version, 1);
}

static void
chk_list_ports(const struct nb_config *c)
{
	assert_int_equal(c->mode, NB_MODE_PORTS);
}

static void
chk_tx_port(const struct nb_config *c)
{
	assert_int_equal(c->mode, NB_MODE_LOOPBACK);
	assert_int_equal(c->nb_tx_ports, 3);
	assert_int_equal(c->tx_ports[0], 0);
	assert_int_equal(c->tx_ports[1], 2);
	assert_int_equal(c->tx_ports[2], 31);
	assert_int_equal(c->nb_rx_ports, 0);
}

static void
chk_rx_port(const struct nb_config *c)
{
	assert_int_equal(c->mode, NB_MODE_LOOPBACK);
	assert_int_equal(c->nb_rx_ports, 1);
	assert_int_equal(c->rx_ports[0], 1);
	assert_int_equal(c->nb_tx_ports, 0);
}

static void
chk_rate(const struct nb_config *c)
{
	assert_int_equal(c->rate.kind, NB_RATE_BPS_L2);
	assert_true(c->rate.value == 2.5e9);
}

static void
chk_size(const struct nb_config *c)
{
	assert_int_equal(c->sizes.nb_sizes, 3);
	assert_int_equal(c->sizes.sizes[0], 64);
	assert_int_equal(c->sizes.sizes[1], 512);
	assert_int_equal(c->sizes.sizes[2], 1518);
	assert_int_equal(c->sizes.nb_pattern, 3);
}

static void
chk_proto(const struct nb_config *c)
{
	assert_int_equal(c->proto, 6);
}

static void
chk_streams(const struct nb_config *c)
{
	assert_int_equal(c->streams, 7);
}

static void
chk_vlan(const struct nb_config *c)
{
	assert_int_equal(c->vlan_id, 100);
}

static void
chk_src_ip(const struct nb_config *c)
{
	assert_int_equal(c->src_ip, ip4(10, 0, 0, 1));
	assert_int_equal(c->dst_ip, ip4(198, 19, 0, 1));
}

static void
chk_dst_ip(const struct nb_config *c)
{
	assert_int_equal(c->dst_ip, ip4(192, 168, 255, 254));
	assert_int_equal(c->src_ip, ip4(198, 18, 0, 1));
}

static void
chk_src_mac(const struct nb_config *c)
{
	static const uint8_t m[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};

	assert_int_equal(c->have_src_mac, 1);
	assert_int_equal(c->have_dst_mac, 0);
	assert_memory_equal(c->src_mac, m, 6);
}

static void
chk_dst_mac(const struct nb_config *c)
{
	static const uint8_t m[6] = {0x0a, 0xbc, 0xde, 0xf0, 0x12, 0x34};

	assert_int_equal(c->have_dst_mac, 1);
	assert_int_equal(c->have_src_mac, 0);
	assert_memory_equal(c->dst_mac, m, 6);
}

static void
chk_time(const struct nb_config *c)
{
	assert_int_equal(c->duration_set, 1);
	assert_true(c->duration == 2.5);
}

static void
chk_packets(const struct nb_config *c)
{
	assert_int_equal(c->packets, 10000000);
}

static void
chk_bytes(const struct nb_config *c)
{
	assert_int_equal(c->bytes, 3 * 1024);
}

static void
chk_omit(const struct nb_config *c)
{
	assert_true(c->omit == 1.5);
}

static void
chk_interval(const struct nb_config *c)
{
	assert_true(c->interval == 0.5);
}

static void
chk_queues(const struct nb_config *c)
{
	assert_int_equal(c->queues, 4);
}

static void
chk_rxd(const struct nb_config *c)
{
	assert_int_equal(c->rxd, 512);
	assert_int_equal(c->txd, 1024);
}

static void
chk_txd(const struct nb_config *c)
{
	assert_int_equal(c->txd, 2048);
	assert_int_equal(c->rxd, 1024);
}

static void
chk_link_timeout(const struct nb_config *c)
{
	assert_true(c->link_timeout == 3.0);
}

static void
chk_tx_checksum(const struct nb_config *c)
{
	assert_int_equal(c->tx_csum, NB_CSUM_SW);
}

static void
chk_flow_control(const struct nb_config *c)
{
	assert_int_equal(c->portset.fc, NB_FC_RX);
}

static void
chk_link_speed(const struct nb_config *c)
{
	assert_int_equal(c->portset.speed_mbps, 25000);
}

static void
chk_mtu(const struct nb_config *c)
{
	assert_int_equal(c->portset.mtu, 9000);
}

static void
chk_gaps(const struct nb_config *c)
{
	assert_int_equal(c->gaps, 1);
}

static void
chk_per_queue(const struct nb_config *c)
{
	assert_int_equal(c->per_queue, 1);
}

static void
chk_hw_rate(const struct nb_config *c)
{
	assert_int_equal(c->hw_rate, 1);
}

static void
chk_drain(const struct nb_config *c)
{
	assert_true(c->drain == 0.25);
}

static void
chk_json(const struct nb_config *c)
{
	assert_int_equal(c->json, 1);
}

static void
chk_json_stream(const struct nb_config *c)
{
	assert_int_equal(c->json_stream, 1);
}

static void
chk_csv(const struct nb_config *c)
{
	assert_int_equal(c->csv, 1);
}

static void
chk_quiet(const struct nb_config *c)
{
	assert_int_equal(c->quiet, 1);
}

static void
chk_format(const struct nb_config *c)
{
	assert_int_equal(c->format, 'M');
}

static void
chk_logfile(const struct nb_config *c)
{
	assert_string_equal(c->logfile, "/tmp/nb.log");
}

static void
chk_capture(const struct nb_config *c)
{
	assert_true(c->capture.active);
	assert_string_equal(c->capture.path, "/tmp/rx.pcap");
	assert_int_equal(c->capture.every, 10);
	assert_int_equal(c->capture.snaplen, 65535);
}

static void
chk_replay(const struct nb_config *c)
{
	assert_true(c->replay.active);
	assert_string_equal(c->replay.path, "/tmp/rx.pcap");
	assert_int_equal(c->replay.loops, 3000);
	assert_int_equal(c->replay.timing, NB_REPLAY_RATE);
	assert_false(c->replay.stamp);
}

static void
chk_replay_timing(const struct nb_config *c)
{
	assert_int_equal(c->replay.timing, NB_REPLAY_FILE);
}

static void
chk_replay_stamp(const struct nb_config *c)
{
	assert_true(c->replay.stamp);
}

static void
chk_json_file(const struct nb_config *c)
{
	assert_string_equal(c->json_file, "out.json");
}

static void
chk_config(const struct nb_config *c)
{
	assert_string_equal(c->config, "my.ini");
}

static void
chk_peer(const struct nb_config *c)
{
	static const uint8_t want[6] = {0x02, 0, 0, 0, 0, 0x2a};

	assert_int_equal(c->have_peer, 1);
	assert_memory_equal(c->peer_mac, want, 6);
}

static void
chk_reflector(const struct nb_config *c)
{
	assert_int_equal(c->reflector, 1);
}

static void
chk_port(const struct nb_config *c)
{
	assert_int_equal(c->port, 3);
}

static void
chk_reverse(const struct nb_config *c)
{
	assert_int_equal(c->reverse, 1);
}

static void
chk_bidir(const struct nb_config *c)
{
	assert_int_equal(c->bidir, 1);
}

static void
chk_ip(const struct nb_config *c)
{
	assert_int_equal(c->have_ip, 1);
	assert_int_equal(c->ip, (198u << 24) | (19u << 16) | 7u);
}

static void
chk_one_off(const struct nb_config *c)
{
	assert_int_equal(c->one_off, 1);
}

static void
chk_latency_rate(const struct nb_config *c)
{
	assert_int_equal(c->latency_rate, 1000);
}

static void
chk_pingpong(const struct nb_config *c)
{
	assert_int_equal(c->pingpong, 1);
}

static void
chk_tcp(const struct nb_config *c)
{
	assert_int_equal(c->tcp, 1);
}

static void
chk_window(const struct nb_config *c)
{
	assert_int_equal(c->tcp_window, 256 * 1024);
}

static void
chk_delayed_ack(const struct nb_config *c)
{
	assert_int_equal(c->tcp_delayed_ack, 1);
}

static void
chk_cc(const struct nb_config *c)
{
	assert_int_equal(c->tcp_cc, 1);
}

static void
chk_msg_size(const struct nb_config *c)
{
	assert_int_equal(c->tcp_msg, 4096);
}

static void
chk_no_sack(const struct nb_config *c)
{
	assert_int_equal(c->tcp_no_sack, 1);
}

static void
chk_max_streams(const struct nb_config *c)
{
	assert_int_equal(c->max_streams, 8);
}

static void
chk_conf(const struct nb_config *c)
{
	assert_int_equal(c->conf, 1);
}

static void
chk_quit(const struct nb_config *c)
{
	assert_int_equal(c->quit, 1);
}

static void
chk_peer_timeout(const struct nb_config *c)
{
	assert_true(c->peer_timeout == 0.5);
}

/* Key files made by setup_keys() (the cases point at these names). */
#define KEY32	     "0123456789abcdef0123456789ABCDEF"
#define KEY32_HEAD31 "0123456789abcdef0123456789ABCDE"
static char dir_path[64], key_path[80], short_path[80], crlf_path[80];

static void
write_file(const char *path, const char *data, size_t n, mode_t mode)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

static int
setup_keys(void **state)
{
	(void)state;
	snprintf(dir_path, sizeof(dir_path), "/tmp/nb-test-options.XXXXXX");
	if (mkdtemp(dir_path) == NULL)
		return -1;
	snprintf(key_path, sizeof(key_path), "%s/key", dir_path);
	snprintf(short_path, sizeof(short_path), "%s/short", dir_path);
	snprintf(crlf_path, sizeof(crlf_path), "%s/crlf", dir_path);
	/* NB_MIN_PSK (32) bytes; 31; 34 and a CRLF */
	write_file(key_path, KEY32 "\n", 33, 0600);
	write_file(short_path, KEY32_HEAD31 "\n", 32, 0600);
	write_file(crlf_path, KEY32 "XY\r\n", 36, 0600);
	return 0;
}

static int
teardown_keys(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir_path);
	return system(cmd) == 0 ? 0 : -1;
}

static void
chk_auth_key(const struct nb_config *c)
{
	assert_string_equal(c->auth_key, key_path);
	assert_int_equal(c->psk_len, 32);
	assert_memory_equal(c->psk, KEY32, 32);
}

static void
chk_allow(const struct nb_config *c)
{
	static const uint8_t mac[6] = {2, 0, 0, 0, 0, 9};

	assert_int_equal(c->nb_allow, 2);
	assert_int_equal(c->allow[0].is_ip, 0);
	assert_memory_equal(c->allow[0].mac, mac, 6);
	assert_int_equal(c->allow[1].is_ip, 1);
	assert_int_equal(c->allow[1].ip, ip4(10, 1, 0, 0));
	assert_int_equal(c->allow[1].mask, ip4(255, 255, 0, 0));
}

static void
chk_allow_vlan(const struct nb_config *c)
{
	assert_int_equal(c->nb_allow_vlan, 3);
	assert_int_equal(c->allow_vlan[0], 1);
	assert_int_equal(c->allow_vlan[1], 100);
	assert_int_equal(c->allow_vlan[2], 4094);
}

static void
chk_max_rate(const struct nb_config *c)
{
	assert_int_equal(c->max_rate.kind, NB_RATE_PPS);
	assert_true(c->max_rate.value == 14.88e6);
}

static void
chk_max_time(const struct nb_config *c)
{
	assert_true(c->max_time == 60);
}

static void
chk_allow_quit(const struct nb_config *c)
{
	assert_int_equal(c->allow_quit, 1);
}

static void
chk_no_auth(const struct nb_config *c)
{
	assert_int_equal(c->no_auth, 1);
	/* the caps are set by nb_config_check, not by the parser */
	assert_true(c->max_rate.value == 10e9);
	assert_true(c->max_time == 3600);
}

static void
chk_impair(const struct nb_config *c)
{
	assert_true(c->impair.active);
	assert_int_equal(c->impair.every, 100);
	assert_true(c->impair.delay_ns == 200000);
}

static void
chk_test(const struct nb_config *c)
{
	assert_int_equal(c->suite, NB_SUITE_THROUGHPUT | NB_SUITE_B2B);
}

static void
chk_trial_time(const struct nb_config *c)
{
	assert_true(c->trial_time == 5);
	assert_true(c->first_trial == 1);
}

static void
chk_settle(const struct nb_config *c)
{
	assert_true(c->settle == 0.5);
}

static void
chk_loss_tolerance(const struct nb_config *c)
{
	assert_int_equal(c->nb_tol, 2);
	assert_true(c->loss_tol[0] == 0);
	assert_true(fabs(c->loss_tol[1] - 0.005) < 1e-15);
}

static void
chk_precision(const struct nb_config *c)
{
	assert_int_equal(c->precision.kind, NB_RATE_PPS);
	assert_true(c->precision.value == 1000);
}

static void
chk_latency_load(const struct nb_config *c)
{
	assert_true(fabs(c->latency_load - 0.8) < 1e-15);
}

static void
chk_loss_step(const struct nb_config *c)
{
	assert_true(fabs(c->loss_step - 0.05) < 1e-15);
}

static void
chk_trials(const struct nb_config *c)
{
	assert_int_equal(c->trials, 7);
}

static const struct opt_case cases[] = {
	{"help", 'h', NULL, chk_help, {NULL}},
	{"version", 'V', NULL, chk_version, {NULL}},
	{"list-ports", 0, NULL, chk_list_ports, {NULL}},
	{"tx-port",
	 0,
	 "0,2,31",
	 chk_tx_port,
	 {"", "32", "0,,1", "0,", "1,1", NULL}},
	{"rx-port", 0, "1", chk_rx_port, {"x", ",1", "-1", "1 ", NULL}},
	{"rate",
	 'b',
	 "2.5Gl2",
	 chk_rate,
	 {"10Gx", "0", "101%", "fast", "-1G", NULL}},
	{"size",
	 'l',
	 "64,512,1518",
	 chk_size,
	 {"63", "9001", "64,,128", "big", NULL}},
	{"proto", 0, "tcp", chk_proto, {"icmp", "UDP", "", NULL}},
	{"streams", 'P', "7", chk_streams, {"0", "1025", "-1", "2x", NULL}},
	{"vlan", 0, "100", chk_vlan, {"0", "4095", "abc", NULL}},
	{"src-ip",
	 0,
	 "10.0.0.1",
	 chk_src_ip,
	 {"256.0.0.1", "10.0.0", "10.0.0.01", NULL}},
	{"dst-ip",
	 0,
	 "192.168.255.254",
	 chk_dst_ip,
	 {"1.2.3.4.5", "host", NULL}},
	{"src-mac",
	 0,
	 "02:00:00:00:00:01",
	 chk_src_mac,
	 {"02:00:00:00:00", "02:00:00:00:00:0g", "02:00-00:00:00:01", NULL}},
	{"dst-mac",
	 0,
	 "0A-bc-DE-f0-12-34",
	 chk_dst_mac,
	 {"", "0a:bc:de:f0:12:34:56", NULL}},
	{"time", 't', "2.5", chk_time, {"-1", "abc", "2592001", NULL}},
	{"packets", 'k', "10M", chk_packets, {"0", "1.5", "10X", NULL}},
	{"bytes", 'n', "3K", chk_bytes, {"0", "-5", "1T", NULL}},
	{"omit", 'O', "1.5", chk_omit, {"3601", "-0.5", "x", NULL}},
	{"interval", 'i', "0.5", chk_interval, {"0.05", "3601", "1s", NULL}},
	{"queues", 'q', "4", chk_queues, {"0", "17", NULL}},
	{"rxd", 0, "512", chk_rxd, {"63", "16385", NULL}},
	{"txd", 0, "2048", chk_txd, {"0", "99999", NULL}},
	{"link-timeout", 0, "3", chk_link_timeout, {"601", "-", NULL}},
	{"tx-checksum", 0, "sw", chk_tx_checksum, {"on", "HW", "", NULL}},
	{"per-queue", 0, NULL, chk_per_queue, {NULL}},
	{"gaps", 0, NULL, chk_gaps, {NULL}},
	{"hw-rate", 0, NULL, chk_hw_rate, {NULL}},
	{"flow-control",
	 0,
	 "rx",
	 chk_flow_control,
	 {"keep", "unsupported", "full", "", NULL}},
	{"link-speed", 0, "25G", chk_link_speed, {"10", "25g", "3G", NULL}},
	{"mtu", 0, "9000", chk_mtu, {"67", "9601", "1500x", "-1", "", NULL}},
	{"drain", 0, "0.25", chk_drain, {"61", "1e9", NULL}},
	{"json", 'J', NULL, chk_json, {NULL}},
	{"json-stream", 0, NULL, chk_json_stream, {NULL}},
	{"csv", 0, NULL, chk_csv, {NULL}},
	{"quiet", 0, NULL, chk_quiet, {NULL}},
	{"format", 'f', "M", chk_format, {"x", "mm", "", "b", NULL}},
	{"logfile", 0, "/tmp/nb.log", chk_logfile, {"", NULL}},
	{"capture",
	 0,
	 "/tmp/rx.pcap,every=10",
	 chk_capture,
	 {"", ",every=2", "x,every=0", "x,snaplen=10", "x,bogus=1", NULL}},
	{"replay",
	 0,
	 "/tmp/rx.pcap,loop=3K",
	 chk_replay,
	 {"", ",loop=2", "x,loop=", "x,loop=2G", "x,loops=2", NULL}},
	{"replay-timing", 0, "file", chk_replay_timing, {"File", "", NULL}},
	{"replay-stamp", 0, NULL, chk_replay_stamp, {NULL}},
	{"json-file", 0, "out.json", chk_json_file, {"", NULL}},
	{"config", 0, "my.ini", chk_config, {"", NULL}},
	{"peer",
	 'c',
	 "02:00:00:00:00:2a",
	 chk_peer,
	 {"02:00:00:00:00", "zz:00:00:00:00:00", NULL}},
	{"reflector", 0, NULL, chk_reflector, {NULL}},
	{"port", 'p', "3", chk_port, {"32", "-1", "x", NULL}},
	{"reverse", 'R', NULL, chk_reverse, {NULL}},
	{"bidir", 0, NULL, chk_bidir, {NULL}},
	{"ip", 0, "198.19.0.7", chk_ip, {"1.2.3", "256.1.1.1", NULL}},
	{"one-off", '1', NULL, chk_one_off, {NULL}},
	{"latency-rate", 0, "1K", chk_latency_rate, {"0", "2M", "x", NULL}},
	{"pingpong", 0, NULL, chk_pingpong, {NULL}},
	{"max-streams", 0, "8", chk_max_streams, {"0", "1025", NULL}},
	{"tcp", 0, NULL, chk_tcp, {NULL}},
	{"window", 'w', "256K", chk_window, {"1K", "2G", "x", "", NULL}},
	{"delayed-ack", 0, NULL, chk_delayed_ack, {NULL}},
	{"no-sack", 0, NULL, chk_no_sack, {NULL}},
	{"msg-size", 0, "4K", chk_msg_size, {"0", "2M", "x", NULL}},
	{"cc", 0, "cubic", chk_cc, {"reno", "", "CUBIC", NULL}},
	{"conf", 0, NULL, chk_conf, {NULL}},
	{"quit", 0, NULL, chk_quit, {NULL}},
	{"peer-timeout",
	 0,
	 "0.5",
	 chk_peer_timeout,
	 {"0.05", "601", "x", NULL}},
	{"auth-key",
	 0,
	 key_path,
	 chk_auth_key,
	 {"", "/nonexistent/nb.key", dir_path, short_path, NULL}},
	{"allow",
	 0,
	 "02:00:00:00:00:09,10.1.0.0/16",
	 chk_allow,
	 {"ff:ff:ff:ff:ff:ff", "01:00:5e:00:00:01", "00:00:00:00:00:00",
	  "10.0.0.1/8", "10.0.0.0/33", NULL}},
	{"allow-vlan",
	 0,
	 "1,100, 4094",
	 chk_allow_vlan,
	 {"0", "4095", "x", "", "1,,2", NULL}},
	{"max-rate",
	 0,
	 "14.88Mpps",
	 chk_max_rate,
	 {"max", "50%", "0", "1e99", "fast", NULL}},
	{"max-time", 0, "60", chk_max_time, {"0", "0.5", "2592001", "x", NULL}},
	{"allow-quit", 0, NULL, chk_allow_quit, {NULL}},
	{"no-auth", 0, NULL, chk_no_auth, {NULL}},
	{"impair",
	 0,
	 "every=100,delay=200",
	 chk_impair,
	 {"", "every=1", "loss=1", "drop=1%,every=5", NULL}},
	{"test",
	 0,
	 "throughput,back-to-back",
	 chk_test,
	 {"", "rfc", "throughput,", "throughput,,loss", NULL}},
	{"trial-time", 0, "5", chk_trial_time, {"0", "0.05", "3601", NULL}},
	{"settle", 0, "0.5", chk_settle, {"-1", "601", "x", NULL}},
	{"loss-tolerance",
	 0,
	 "0,0.5%",
	 chk_loss_tolerance,
	 {"1", "100%", "0.5%,0", "0,0", "0,0.1,0.2,0.3,0.4", NULL}},
	{"precision", 0, "1kpps", chk_precision, {"max", "0", "x", NULL}},
	{"latency-load",
	 0,
	 "80%",
	 chk_latency_load,
	 {"0%", "0.8", "101%", NULL}},
	{"loss-step", 0, "5%", chk_loss_step, {"0.5%", "60%", "0.1", NULL}},
	{"trials", 0, "7", chk_trials, {"0", "1001", NULL}},
};

#define N_CASES (sizeof(cases) / sizeof(cases[0]))

static const struct opt_case *
find_case(const char *name)
{
	size_t i;

	for (i = 0; i < N_CASES; i++)
		if (strcmp(cases[i].name, name) == 0)
			return &cases[i];
	return NULL;
}

static void
test_every_option_has_a_case(void **state)
{
	size_t i, j;

	(void)state;
	for (i = j = 0; i < nb_nb_options; i++)
		j += nb_options[i].name != NULL;
	assert_int_equal(j, N_CASES);
	for (i = 0; i < nb_nb_options; i++) {
		const struct opt_case *c;

		if (nb_options[i].name == NULL) {
			/* a section heading: a title, nothing to apply */
			assert_non_null(nb_options[i].help);
			assert_null(nb_options[i].apply);
			continue;
		}
		c = find_case(nb_options[i].name);

		if (c == NULL)
			fail_msg("option --%s has no test case",
				 nb_options[i].name);
		assert_int_equal(c->short_name, nb_options[i].short_name);
		assert_int_equal(c->value == NULL, nb_options[i].arg == NULL);
		/* a flag sets its int and has no parser; all else have one
		 * (--list-ports too: it takes no value but sets the mode) */
		assert_int_equal(nb_options[i].apply == NULL,
				 (nb_options[i].flags & NB_OPT_FLAG) != 0);
		if (nb_options[i].flags & NB_OPT_FLAG)
			assert_null(nb_options[i].arg);
		assert_non_null(nb_options[i].help);
		/* Names and short names are unique. */
		for (j = 0; j < i; j++) {
			if (nb_options[j].name == NULL)
				continue;
			assert_string_not_equal(nb_options[i].name,
						nb_options[j].name);
			if (nb_options[i].short_name)
				assert_int_not_equal(nb_options[i].short_name,
						     nb_options[j].short_name);
		}
	}
}

static void
check_parsed(const struct opt_case *c, char **argv, int argc)
{
	struct nb_config cfg;
	char err[ERRLEN] = "";
	int rc;

	nb_config_defaults(&cfg);
	rc = nb_options_parse(&cfg, argc, argv, err, ERRLEN);
	if (rc != 0)
		fail_msg("'%s %s' failed: %s", argv[1], argc > 2 ? argv[2] : "",
			 err);
	c->check(&cfg);
}

static void
test_every_option_every_form(void **state)
{
	char lng[64], eq[128], shrt[3];
	size_t i;

	(void)state;
	for (i = 0; i < N_CASES; i++) {
		const struct opt_case *c = &cases[i];

		snprintf(lng, sizeof(lng), "--%s", c->name);
		snprintf(shrt, sizeof(shrt), "-%c", c->short_name);
		if (c->value == NULL) {
			char *a1[] = {(char *)"x", lng, NULL};
			char *a2[] = {(char *)"x", shrt, NULL};

			check_parsed(c, a1, 2);
			if (c->short_name)
				check_parsed(c, a2, 2);
		} else {
			char *a1[] = {(char *)"x", lng, (char *)c->value, NULL};
			char *a2[] = {(char *)"x", eq, NULL};
			char *a3[] = {(char *)"x", shrt, (char *)c->value,
				      NULL};

			snprintf(eq, sizeof(eq), "--%s=%s", c->name, c->value);
			check_parsed(c, a1, 3);
			check_parsed(c, a2, 2);
			if (c->short_name)
				check_parsed(c, a3, 3);
		}
	}
}

/* All options at once (those that combine), mixing the forms. */
static void
test_all_together(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "--tx-port", "0,2,31", "--rx-port=1",
			       "-b", "2.5Gl2", "--size=64,512,1518", "--proto",
			       "tcp", "-P", "7", "--vlan=100", "--src-ip",
			       "10.0.0.1", "--dst-ip=192.168.255.254",
			       "--src-mac", "02:00:00:00:00:01", "--dst-mac",
			       "0A-bc-DE-f0-12-34", "-t", "2.5", "-k", "10M",
			       "--omit=1.5", "-i", "0.5", "-q", "4", "--rxd",
			       "512", "--link-timeout=3", "--drain", "0.25",
			       "-J", "-h", "-V"),
			 0);
	assert_int_equal(cfg.mode, NB_MODE_LOOPBACK);
	assert_int_equal(cfg.nb_tx_ports, 3);
	assert_int_equal(cfg.rx_ports[0], 1);
	chk_rate(&cfg);
	chk_size(&cfg);
	chk_proto(&cfg);
	chk_streams(&cfg);
	chk_vlan(&cfg);
	assert_int_equal(cfg.src_ip, ip4(10, 0, 0, 1));
	assert_int_equal(cfg.dst_ip, ip4(192, 168, 255, 254));
	assert_int_equal(cfg.have_src_mac, 1);
	assert_int_equal(cfg.have_dst_mac, 1);
	chk_time(&cfg);
	chk_packets(&cfg);
	chk_omit(&cfg);
	chk_interval(&cfg);
	chk_queues(&cfg);
	chk_rxd(&cfg);
	chk_link_timeout(&cfg);
	chk_drain(&cfg);
	chk_json(&cfg);
	chk_help(&cfg);
	chk_version(&cfg);
	assert_int_equal(cfg.bytes, 0);

	/* A value may look like an option; it is taken as the value. */
	assert_int_equal(PARSE(&cfg, err, "--rate", "-5"), -EINVAL);
	assert_non_null(strstr(err, "'-5'"));
	/* An "=" inside the value is kept. */
	assert_int_equal(PARSE(&cfg, err, "--proto=tcp=udp"), -EINVAL);
	assert_non_null(strstr(err, "tcp=udp"));
	/* "--name=" is an empty value, not a missing one. */
	assert_int_equal(PARSE(&cfg, err, "--proto="), -EINVAL);
	assert_non_null(strstr(err, "--proto"));
}

static void
expect_error(const char *const *toks, const char *needle, const char *needle2)
{
	struct nb_config cfg;
	char err[ERRLEN];
	int rc = parse_tokens(&cfg, toks, err);

	if (rc != -EINVAL)
		fail_msg("'%s ...' returned %d, expected -EINVAL", toks[0], rc);
	if (strstr(err, needle) == NULL)
		fail_msg("error '%s' does not name '%s'", err, needle);
	if (needle2 != NULL && strstr(err, needle2) == NULL)
		fail_msg("error '%s' does not name '%s'", err, needle2);
}

#define EXPECT_ERROR(needle, needle2, ...)                                     \
	expect_error((const char *const[]){__VA_ARGS__, NULL}, (needle),       \
		     (needle2))

static void
test_bad_values(void **state)
{
	char lng[64], eq[128], shrt[3];
	size_t i, b;

	(void)state;
	for (i = 0; i < N_CASES; i++) {
		const struct opt_case *c = &cases[i];

		snprintf(lng, sizeof(lng), "--%s", c->name);
		snprintf(shrt, sizeof(shrt), "-%c", c->short_name);
		for (b = 0; c->bad[b] != NULL; b++) {
			const char *v = c->bad[b];
			char quoted[64];

			snprintf(quoted, sizeof(quoted), "'%s'", v);
			expect_error((const char *const[]){lng, v, NULL},
				     quoted, lng);
			snprintf(eq, sizeof(eq), "%s=%s", lng, v);
			expect_error((const char *const[]){eq, NULL}, quoted,
				     lng);
			if (c->short_name)
				expect_error(
					(const char *const[]){shrt, v, NULL},
					quoted, lng);
		}
	}
}

static void
test_flag_with_value(void **state)
{
	char tok[64];
	size_t i;

	(void)state;
	for (i = 0; i < nb_nb_options; i++) {
		char name[64];

		if (nb_options[i].arg != NULL)
			continue;
		snprintf(name, sizeof(name), "--%s", nb_options[i].name);
		snprintf(tok, sizeof(tok), "--%s=1", nb_options[i].name);
		expect_error((const char *const[]){tok, NULL}, name, NULL);
		snprintf(tok, sizeof(tok), "--%s=", nb_options[i].name);
		expect_error((const char *const[]){tok, NULL}, name, NULL);
	}
	/* A flag does not consume the next token. */
	{
		struct nb_config cfg;
		char err[ERRLEN];

		assert_int_equal(PARSE(&cfg, err, "--json", "1"), -EINVAL);
		assert_non_null(strstr(err, "'1'"));
	}
}

static void
test_unknown_and_malformed(void **state)
{
	(void)state;
	EXPECT_ERROR("--bogus", NULL, "--bogus");
	EXPECT_ERROR("--bogus=1", NULL, "--bogus=1");
	EXPECT_ERROR("--Rate", NULL, "--Rate", "1G");
	EXPECT_ERROR("--rat", NULL, "--rat", "1G"); /* no prefix matching */
	EXPECT_ERROR("--rates", NULL, "--rates", "1G");
	EXPECT_ERROR("-z", NULL, "-z");
	EXPECT_ERROR("-H", NULL, "-H");
	EXPECT_ERROR("'--'", NULL, "--");
	EXPECT_ERROR("'-'", NULL, "-");
	EXPECT_ERROR("''", NULL, "");
	EXPECT_ERROR("'--='", NULL, "--=");
	EXPECT_ERROR("positional", NULL, "positional");
	/* -bVALUE is -b VALUE, as getopt takes it */
	EXPECT_ERROR("'J'", "--rate", "-bJ");
	EXPECT_ERROR("'=1G'", "--rate", "-b=1G");
	/* flags are not grouped, and take no value */
	EXPECT_ERROR("'-R'", "-RJ", "-RJ");
	EXPECT_ERROR("'-J'", "-J1", "-J1");
	EXPECT_ERROR("-z5", NULL, "-z5");
	EXPECT_ERROR("---rate", NULL, "---rate", "1G");
	/* The bad token is reported even after good ones. */
	EXPECT_ERROR("--nope", NULL, "--tx-port", "0", "--rx-port", "1",
		     "--nope");
	EXPECT_ERROR("stray", NULL, "--json", "stray", "--rate", "1G");
}

static void
test_missing_value(void **state)
{
	char lng[64], shrt[3];
	size_t i;

	(void)state;
	for (i = 0; i < nb_nb_options; i++) {
		if (nb_options[i].arg == NULL)
			continue;
		snprintf(lng, sizeof(lng), "--%s", nb_options[i].name);
		expect_error((const char *const[]){lng, NULL}, lng, NULL);
		expect_error((const char *const[]){"--json", lng, NULL}, lng,
			     NULL);
		if (nb_options[i].short_name) {
			snprintf(shrt, sizeof(shrt), "-%c",
				 nb_options[i].short_name);
			expect_error((const char *const[]){shrt, NULL}, shrt,
				     NULL);
		}
	}
}

static void
test_repeated(void **state)
{
	(void)state;
	EXPECT_ERROR("--rate", "twice", "--rate", "1G", "--rate", "2G");
	EXPECT_ERROR("--rate", "twice", "--rate=1G", "-b", "2G");
	EXPECT_ERROR("--rate", "twice", "-b", "1G", "--rate=1G");
	EXPECT_ERROR("--json", "twice", "--json", "-J");
	EXPECT_ERROR("--help", "twice", "-h", "-h");
	EXPECT_ERROR("--tx-port", "twice", "--tx-port", "0", "--rx-port", "1",
		     "--tx-port", "2");
	EXPECT_ERROR("--list-ports", "twice", "--list-ports", "--list-ports");
	EXPECT_ERROR("--drain", "twice", "--drain", "1", "--drain=1");
}

static void
test_mode_conflicts(void **state)
{
	(void)state;
	EXPECT_ERROR("--list-ports", "--tx-port", "--tx-port", "0",
		     "--list-ports");
	EXPECT_ERROR("--rx-port", "--list-ports", "--list-ports", "--rx-port",
		     "1");
	EXPECT_ERROR("--tx-port", "--list-ports", "--list-ports",
		     "--tx-port=0");
}

static int
check(const char *const *toks, char *err)
{
	struct nb_config cfg;
	int rc = parse_tokens(&cfg, toks, err);

	if (rc != 0)
		fail_msg("parse failed: %s", err);
	err[0] = '\0';
	return nb_config_check(&cfg, err, ERRLEN);
}

#define CHECK(err, ...) check((const char *const[]){__VA_ARGS__, NULL}, (err))

/* Suites and sweeps: what they need, what they exclude, the sizes. */
static int
check_cfg(struct nb_config *cfg, const char *const *toks, char *err)
{
	if (parse_tokens(cfg, toks, err) != 0)
		return -EINVAL;
	return nb_config_check(cfg, err, ERRLEN);
}

#define CHECK_CFG(cfg, err, ...)                                               \
	check_cfg((cfg), (const char *const[]){__VA_ARGS__, NULL}, (err))

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

/* --tcp: its defaults, and what it refuses with a reason. */
/* --gaps: a loopback's receivers time what this process sends */
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

static void
test_usage(void **state)
{
	char *buf = NULL, needle[256];
	size_t len = 0, i;
	FILE *f;

	(void)state;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	nb_options_usage(f, "my-prog");
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	assert_non_null(strstr(buf, "my-prog"));
	assert_non_null(strstr(buf, "Usage:"));
	for (i = 0; i < nb_nb_options; i++) {
		const struct nb_option *o = &nb_options[i];

		if (o->name == NULL) {
			/* a heading line of its own: "Title:" */
			snprintf(needle, sizeof(needle), "\n%s:\n", o->help);
			if (strstr(buf, needle) == NULL)
				fail_msg("usage lacks the heading '%s'",
					 o->help);
			continue;
		}
		/* "-x, --name ARG" or "--name ARG", then the help text. */
		if (o->short_name)
			snprintf(needle, sizeof(needle), "-%c, --%s%s%s ",
				 o->short_name, o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		else
			snprintf(needle, sizeof(needle), " --%s%s%s ", o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		{
			const char *at = strstr(buf, needle);
			const char *eol;

			if (at == NULL)
				fail_msg("usage does not list '%s'", needle);
			eol = strchr(at, '\n');
			assert_non_null(eol);
			at = strstr(at, o->help);
			if (at == NULL || at > eol)
				fail_msg("help of --%s not on its line",
					 o->name);
		}
	}
	free(buf);
}

/* -xVALUE works like -x VALUE for every short option that takes one. */
static void
test_short_attached(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN], tok[160];
	size_t i;

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-b1G"), 0);
	assert_int_equal(cfg.rate.kind, NB_RATE_BPS_L1);
	assert_true(cfg.rate.value == 1e9);
	assert_int_equal(PARSE(&cfg, err, "-t5", "-P4", "-l1518", "-k10M"), 0);
	assert_true(cfg.duration == 5);
	assert_int_equal(cfg.streams, 4);
	assert_int_equal(cfg.sizes.sizes[0], 1518);
	assert_int_equal(cfg.packets, 10000000);
	/* "-t" with nothing attached still takes the next token */
	assert_int_equal(PARSE(&cfg, err, "-t", "7"), 0);
	assert_true(cfg.duration == 7);
	for (i = 0; i < N_CASES; i++) {
		const struct opt_case *c = &cases[i];

		if (c->short_name == 0 || c->value == NULL)
			continue;
		snprintf(tok, sizeof(tok), "-%c%s", c->short_name, c->value);
		check_parsed(c, (char *[]){(char *)"x", tok, NULL}, 2);
	}
}

static void
test_rate_reasons(void **state)
{
	(void)state;
	EXPECT_ERROR("'0'", "above 0", "--rate", "0");
	EXPECT_ERROR("'0pps'", "above 0", "--rate", "0pps");
	EXPECT_ERROR("'101%'", "at most 100", "--rate", "101%");
	EXPECT_ERROR("'1e99'", "largest bit rate", "--rate", "1e99");
	EXPECT_ERROR("'10001G'", "10 Tbit/s", "--rate", "10001G");
	EXPECT_ERROR("'11Gpps'", "10 Gpps", "--rate", "11Gpps");
	EXPECT_ERROR("'1e400'", "out of range", "--rate", "1e400");
	EXPECT_ERROR("'10X'", "expected e.g. 10G", "--rate", "10X");
	/* the largest are accepted */
	{
		struct nb_config cfg;
		char err[ERRLEN];

		assert_int_equal(PARSE(&cfg, err, "--rate", "10000G"), 0);
		assert_int_equal(PARSE(&cfg, err, "--rate", "10Gpps"), 0);
	}
}

static void
test_count_and_time_bounds(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	EXPECT_ERROR("--bytes", "2^50", "--bytes", "18446744073709551615");
	EXPECT_ERROR("--bytes", "2^50", "--bytes", "1048577G");
	assert_int_equal(PARSE(&cfg, err, "--bytes", "1048576G"), 0);
	assert_true(cfg.bytes == NB_MAX_BYTES);
	EXPECT_ERROR("--packets", "1e14", "--packets", "18446744073709551615");
	EXPECT_ERROR("--packets", "1e14", "--packets", "100001G");
	assert_int_equal(PARSE(&cfg, err, "--packets", "100000G"), 0);
	assert_true(cfg.packets == NB_MAX_PACKETS);
	/* the plan's totals fit 64 bits at the largest frame, L1, in bits */
	assert_true(NB_MAX_PACKETS <= UINT64_MAX / (9000 + 20) / 8);
	assert_true(NB_MAX_BYTES / 64 <= NB_MAX_PACKETS);

	EXPECT_ERROR("'1e-9'", "0.1 s", "--time", "1e-9");
	EXPECT_ERROR("'0.09'", "0.1 s", "-t", "0.09");
	assert_int_equal(PARSE(&cfg, err, "--time", "0.1"), 0);
	assert_int_equal(PARSE(&cfg, err, "--time", "0"), 0);
	EXPECT_ERROR("'0.01'", "0.1 s", "--omit", "0.01");
	assert_int_equal(PARSE(&cfg, err, "--omit", "0"), 0);
}

static void
test_auth_key(void **state)
{
	static const mode_t open_modes[] = {0640, 0604, 0644, 0660, 0606, 0610,
					    0601, 0620, 0602, 0670, 0607, 0777};
	struct nb_config cfg;
	char err[ERRLEN], path[128], want[256];
	char big[NB_MAX_PSK + 2];
	size_t i;

	(void)state;
	assert_int_equal(NB_MIN_PSK, 32);
	/* one CRLF dropped; the bytes before it are the key */
	assert_int_equal(PARSE(&cfg, err, "--auth-key", crlf_path), 0);
	assert_int_equal(cfg.psk_len, 34);
	assert_memory_equal(cfg.psk, KEY32 "XY", 34);
	/* only one newline: a second is part of the key */
	snprintf(path, sizeof(path), "%s/two", dir_path);
	write_file(path, KEY32 "\n\n", 34, 0600);
	assert_int_equal(PARSE(&cfg, err, "--auth-key", path), 0);
	assert_int_equal(cfg.psk_len, 33);
	assert_int_equal(cfg.psk[32], '\n');
	/* no newline at all: 32 bytes, the least accepted */
	write_file(path, KEY32, 32, 0600);
	assert_int_equal(PARSE(&cfg, err, "--auth-key", path), 0);
	assert_int_equal(cfg.psk_len, 32);
	assert_memory_equal(cfg.psk, KEY32, 32);
	/* 31 bytes, with or without a newline: too short; says how many
	 * bytes and how to make a key */
	EXPECT_ERROR("holds 31 bytes; a key is at least 32 random bytes",
		     "head -c 32 /dev/urandom", "--auth-key", short_path);
	EXPECT_ERROR(short_path, "--auth-key", "--auth-key", short_path);
	write_file(path, KEY32_HEAD31, 31, 0600);
	EXPECT_ERROR("holds 31 bytes", path, "--auth-key", path);
	/* 31 bytes and a CRLF: the CRLF is not the key */
	write_file(path, KEY32_HEAD31 "\r\n", 33, 0600);
	EXPECT_ERROR("holds 31 bytes", path, "--auth-key", path);
	/* the largest, and one more */
	memset(big, 'k', sizeof(big));
	write_file(path, big, NB_MAX_PSK, 0600);
	assert_int_equal(PARSE(&cfg, err, "--auth-key", path), 0);
	assert_int_equal(cfg.psk_len, NB_MAX_PSK);
	big[NB_MAX_PSK] = '\n';
	write_file(path, big, NB_MAX_PSK + 1, 0600);
	assert_int_equal(PARSE(&cfg, err, "--auth-key", path), 0);
	assert_int_equal(cfg.psk_len, NB_MAX_PSK);
	write_file(path, big, NB_MAX_PSK + 2, 0600);
	EXPECT_ERROR("more than 1024 bytes", path, "--auth-key", path);
	/* empty file */
	write_file(path, "", 0, 0600);
	EXPECT_ERROR("holds 0 bytes", "--auth-key", "--auth-key", path);
	/* a directory, a missing file */
	EXPECT_ERROR("not a regular file", dir_path, "--auth-key", dir_path);
	EXPECT_ERROR("/nonexistent/k", "No such file", "--auth-key",
		     "/nonexistent/k");
	/* a file the group or others may read, write or run: refused (it
	 * was only warned about before), naming the mode and the fix */
	for (i = 0; i < sizeof(open_modes) / sizeof(open_modes[0]); i++) {
		write_file(path, KEY32, 32, open_modes[i]);
		snprintf(want, sizeof(want), "(mode %03o): chmod 600 %s",
			 (unsigned int)open_modes[i], path);
		EXPECT_ERROR("open to group or others", want, "--auth-key",
			     path);
	}
	/* the owner's own bits do not matter (0700, 0400) */
	write_file(path, KEY32, 32, 0700);
	assert_int_equal(PARSE(&cfg, err, "--auth-key", path), 0);
	write_file(path, KEY32, 32, 0400);
	assert_int_equal(PARSE(&cfg, err, "--auth-key", path), 0);
	assert_int_equal(cfg.psk_len, 32);
	assert_int_equal(chmod(path, 0600), 0);
	/* a FIFO is refused without blocking */
	snprintf(path, sizeof(path), "%s/fifo", dir_path);
	assert_int_equal(mkfifo(path, 0600), 0);
	EXPECT_ERROR("not a regular file", path, "--auth-key", path);
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

static void
test_allow(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN], list[1024];
	size_t off = 0;
	int i;

	(void)state;
	/* repeatable, and each value a list; default prefix /32 */
	assert_int_equal(PARSE(&cfg, err, "--allow", "198.18.0.1", "--allow",
			       "02:00:00:00:00:01,0.0.0.0/0",
			       "--allow=10.0.0.0/8"),
			 0);
	assert_int_equal(cfg.nb_allow, 4);
	assert_int_equal(cfg.allow[0].is_ip, 1);
	assert_int_equal(cfg.allow[0].ip, ip4(198, 18, 0, 1));
	assert_int_equal(cfg.allow[0].mask, UINT32_MAX);
	assert_int_equal(cfg.allow[1].is_ip, 0);
	assert_int_equal(cfg.allow[2].mask, 0);
	assert_int_equal(cfg.allow[2].ip, 0);
	assert_int_equal(cfg.allow[3].mask, ip4(255, 0, 0, 0));
	/* host bits: the message offers the network */
	EXPECT_ERROR("10.0.0.0/8", "host bits", "--allow", "10.0.0.1/8");
	EXPECT_ERROR("198.18.0.0/15", "host bits", "--allow", "198.19.0.0/15");
	EXPECT_ERROR("multicast or broadcast", "--allow", "--allow",
		     "ff:ff:ff:ff:ff:ff");
	EXPECT_ERROR("zero", "--allow", "--allow", "00:00:00:00:00:00");
	EXPECT_ERROR("0..32", "--allow", "--allow", "10.0.0.0/");
	EXPECT_ERROR("0..32", "--allow", "--allow", "10.0.0.0/x");
	EXPECT_ERROR("neither", "--allow", "--allow", "host.example");
	EXPECT_ERROR("empty", "--allow", "--allow", "10.0.0.1,,10.0.0.2");
	EXPECT_ERROR("empty", "--allow", "--allow", "10.0.0.1,");
	/* at most NB_MAX_ALLOW, over several options too */
	for (i = 0; i < NB_MAX_ALLOW; i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off,
					"%s10.0.0.%d", i ? "," : "", i + 1);
	assert_int_equal(PARSE(&cfg, err, "--allow", list), 0);
	assert_int_equal(cfg.nb_allow, NB_MAX_ALLOW);
	EXPECT_ERROR("more than 32", "--allow", "--allow", list, "--allow",
		     "10.1.0.1");
}

static void
test_max_rate_and_time(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	EXPECT_ERROR("absolute", "not max", "--max-rate", "max");
	EXPECT_ERROR("absolute", "percentage", "--max-rate", "50%");
	EXPECT_ERROR("above 0", "--max-rate", "--max-rate", "0");
	EXPECT_ERROR("largest", "--max-rate", "--max-rate", "1e99");
	assert_int_equal(PARSE(&cfg, err, "--max-rate", "9.5Gl2"), 0);
	assert_int_equal(cfg.max_rate.kind, NB_RATE_BPS_L2);
	assert_true(cfg.max_rate.value == 9.5e9);
	assert_int_equal(PARSE(&cfg, err, "--max-rate", "40G"), 0);
	assert_int_equal(cfg.max_rate.kind, NB_RATE_BPS_L1);
	EXPECT_ERROR("twice", "--max-rate", "--max-rate", "1G", "--max-rate",
		     "2G");
	EXPECT_ERROR("1..2.592e+06", "--max-time", "--max-time", "0.5");
	assert_int_equal(PARSE(&cfg, err, "--max-time", "2592000"), 0);
	assert_int_equal(PARSE(&cfg, err, "--max-time", "1"), 0);
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
	assert_non_null(strstr(err, "--auth-key is for a client"));
	/* the mode derived is kept */
	assert_int_equal(PARSE(&cfg, err, "--allow", "10.0.0.1"), 0);
	assert_int_equal(nb_config_check(&cfg, err, ERRLEN), 0);
	assert_int_equal(cfg.mode, NB_MODE_RESPONDER);
}

static void
test_tool_only(void **state)
{
	(void)state;
	assert_true(nb_option_is_tool_only("--rate"));
	assert_true(nb_option_is_tool_only("--rate=1G"));
	assert_true(nb_option_is_tool_only("--tx-port"));
	assert_true(nb_option_is_tool_only("--version"));
	assert_true(nb_option_is_tool_only("--list-ports"));
	/* EAL has these too, or they are EAL's */
	assert_false(nb_option_is_tool_only("--help"));
	assert_false(nb_option_is_tool_only("--allow"));
	assert_false(nb_option_is_tool_only("--allow=0000:01:00.0"));
	assert_false(nb_option_is_tool_only("--vdev"));
	assert_false(nb_option_is_tool_only("--file-prefix=x"));
	assert_false(nb_option_is_tool_only("-b"));
	assert_false(nb_option_is_tool_only("--"));
	assert_false(nb_option_is_tool_only("rate"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_option_has_a_case),
		cmocka_unit_test(test_every_option_every_form),
		cmocka_unit_test(test_all_together),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_flag_with_value),
		cmocka_unit_test(test_unknown_and_malformed),
		cmocka_unit_test(test_missing_value),
		cmocka_unit_test(test_repeated),
		cmocka_unit_test(test_mode_conflicts),
		cmocka_unit_test(test_tcp_checks),
		cmocka_unit_test(test_gaps_checks),
		cmocka_unit_test(test_client_replay_checks),
		cmocka_unit_test(test_config_check),
		cmocka_unit_test(test_suites),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_short_attached),
		cmocka_unit_test(test_rate_reasons),
		cmocka_unit_test(test_count_and_time_bounds),
		cmocka_unit_test(test_auth_key),
		cmocka_unit_test(test_no_auth),
		cmocka_unit_test(test_allow),
		cmocka_unit_test(test_max_rate_and_time),
		cmocka_unit_test(test_option_modes),
		cmocka_unit_test(test_tool_only),
	};

	return cmocka_run_group_tests(tests, setup_keys, teardown_keys);
}
