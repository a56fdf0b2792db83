/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One case per option: a valid value with a check of what it sets
 * (written from the option's meaning, not from the parser), and values
 * that must be refused.  test_options.c runs each in every spelling.
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
chk_serve(const struct nb_config *c)
{
	assert_int_equal(c->serve, 1);
}

static void
chk_api(const struct nb_config *c)
{
	/* tcp:127.0.0.1:7301 */
	assert_int_equal(c->api_ip, 0x7f000001);
	assert_int_equal(c->api_port, 7301);
	assert_string_equal(c->api_path, "");
}

static void
chk_metrics(const struct nb_config *c)
{
	/* tcp:0.0.0.0:9301 */
	assert_int_equal(c->metrics_ip, 0);
	assert_int_equal(c->metrics_port, 9301);
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
chk_join(const struct nb_config *c)
{
	assert_int_equal(c->join_mode, NB_JOIN_LIST);
	assert_int_equal(c->nb_join, 2);
	assert_int_equal(c->join_ports[0], 1);
	assert_int_equal(c->join_ports[1], 3);
}

static void
chk_ports(const struct nb_config *c)
{
	/* the mode follows from --peer or its absence (test_opt_mesh.c) */
	assert_int_equal(c->mesh.nb_ports, 3);
	assert_int_equal(c->mesh.nb_local, 3);
	assert_int_equal(c->mesh.ports[0], 0);
	assert_int_equal(c->mesh.ports[1], 2);
	assert_int_equal(c->mesh.ports[2], 5);
}

static void
chk_mesh_ports(const struct nb_config *c)
{
	assert_int_equal(c->nb_serve_ports, 2);
	assert_int_equal(c->serve_ports[0], 2);
	assert_int_equal(c->serve_ports[1], 3);
}

static void
chk_mesh(const struct nb_config *c)
{
	assert_int_equal(c->mesh.kind, NB_MESH_LIST);
	assert_int_equal(c->mesh.nb_given, 2);
	assert_int_equal(c->mesh.given_src[0], 0);
	assert_int_equal(c->mesh.given_dst[0], 2);
	assert_int_equal(c->mesh.given_src[1], 1);
	assert_int_equal(c->mesh.given_dst[1], 2);
}

static void
chk_igmp(const struct nb_config *c)
{
	assert_int_equal(c->igmp_version, 2);
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
chk_ipv6(const struct nb_config *c)
{
	assert_int_equal(c->stack.ipv6, 1);
}

/* 2001:db8::N as 16 bytes, written out */
static void
assert_db8(const struct nb_ip *ip, uint8_t last)
{
	uint8_t want[16] = {0x20, 0x01, 0x0d, 0xb8};

	want[15] = last;
	assert_int_equal(ip->family, 6);
	assert_memory_equal(ip->a, want, 16);
}

static void
chk_qinq(const struct nb_config *c)
{
	assert_int_equal(c->stack.outer_vid, 200);
	assert_int_equal(c->vlan_id, 100);
}

static void
chk_tpid(const struct nb_config *c)
{
	assert_int_equal(c->stack.outer_tpid, 0x9100);
}

static void
chk_pcp(const struct nb_config *c)
{
	assert_int_equal(c->stack.pcp, 5);
}

static void
chk_dscp(const struct nb_config *c)
{
	assert_int_equal(c->stack.nb_dscp, 3);
	assert_int_equal(c->stack.dscp[0], 0);
	assert_int_equal(c->stack.dscp[1], 46);
	assert_int_equal(c->stack.dscp[2], 63);
}

static void
chk_ecn(const struct nb_config *c)
{
	assert_int_equal(c->stack.ecn, 3);
}

static void
chk_encap(const struct nb_config *c)
{
	/* three labels, outermost first */
	assert_int_equal(c->stack.tun.kind, NB_ENCAP_MPLS);
	assert_int_equal(c->stack.tun.nb_labels, 3);
	assert_int_equal(c->stack.tun.labels[0], 16);
	assert_int_equal(c->stack.tun.labels[1], 1048575);
	assert_int_equal(c->stack.tun.labels[2], 0);
}

static void
chk_flows(const struct nb_config *c)
{
	assert_int_equal(c->flows.spec.n, 65536);
}

static void
chk_flow_order(const struct nb_config *c)
{
	assert_int_equal(c->flows.spec.shuffled, 0);
	assert_int_equal(c->flows.order_set, 1);
}

static void
chk_flow_seed(const struct nb_config *c)
{
	assert_true(c->flows.spec.seed == UINT64_MAX);
	assert_int_equal(c->flows.seed_set, 1);
}

static void
chk_range(const struct nb_config *c, int field, uint64_t lo, uint64_t hi)
{
	assert_true(c->flows.spec.r[field].lo == lo);
	assert_true(c->flows.spec.r[field].hi == hi);
	assert_int_equal(c->flows.given, 1u << field);
}

static void
chk_flow_sport(const struct nb_config *c)
{
	chk_range(c, NB_FF_SPORT, 0, 65535);
}

static void
chk_flow_dport(const struct nb_config *c)
{
	chk_range(c, NB_FF_DPORT, 5000, 5000);
}

static void
chk_flow_sip(const struct nb_config *c)
{
	chk_range(c, NB_FF_SIP, 0xc6120001u, 0xc61203ffu);
	assert_int_equal(c->flows.ip6[0].family, 0);
}

static void
chk_flow_dip(const struct nb_config *c)
{
	/* IPv6: the last 32 bits, the first address kept */
	chk_range(c, NB_FF_DIP, 1, 0x1ffff);
	assert_db8(&c->flows.ip6[1], 1);
}

static void
chk_flow_smac(const struct nb_config *c)
{
	chk_range(c, NB_FF_SMAC, 0x020000000001ull, 0x02000000ffffull);
}

static void
chk_flow_dmac(const struct nb_config *c)
{
	chk_range(c, NB_FF_DMAC, 0x0a0000000000ull, 0x0a0000000000ull);
}

static void
chk_per_flow(const struct nb_config *c)
{
	assert_string_equal(c->flows.per_flow, "/tmp/f.csv");
}

static void
chk_tunnel_src(const struct nb_config *c)
{
	assert_db8(&c->stack.tun.src, 7);
}

static void
chk_tunnel_dst(const struct nb_config *c)
{
	assert_int_equal(c->stack.tun.dst.family, 4);
	assert_int_equal(c->stack.tun.dst.a[0], 10);
	assert_int_equal(c->stack.tun.dst.a[3], 9);
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
chk_iperf3(const struct nb_config *c)
{
	assert_int_equal(c->iperf3, 1);
	assert_true(c->ip3_host == 0x0a000002);
	assert_int_equal(c->ip3_port, 5202);
}

static void
chk_iperf3_server(const struct nb_config *c)
{
	assert_int_equal(c->ip3_server, 1);
	assert_int_equal(c->ip3_port, 5203);
}

static void
chk_get_server_output(const struct nb_config *c)
{
	assert_int_equal(c->ip3_server_output, 1);
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

static void
chk_addresses(const struct nb_config *c)
{
	assert_int_equal(c->addresses, 3000);
	assert_int_equal(c->addresses_set, 1);
}

static void
chk_aging(const struct nb_config *c)
{
	assert_true(fabs(c->aging - 1.5) < 1e-12);
	assert_int_equal(c->aging_set, 1);
}

const struct opt_case cases[] = {
	{"help", 'h', NULL, chk_help, {NULL}},
	{"version", 'V', NULL, chk_version, {NULL}},
	{"list-ports", 0, NULL, chk_list_ports, {NULL}},
	{"tx-port",
	 0,
	 "0,2,31",
	 chk_tx_port,
	 {"", "32", "0,,1", "0,", "1,1", NULL}},
	{"rx-port", 0, "1", chk_rx_port, {"x", ",1", "-1", "1 ", NULL}},
	{"join", 0, "1,3", chk_join, {"some", "1,1", "32", "", NULL}},
	{"ports",
	 0,
	 "0,2,5",
	 chk_ports,
	 {"0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", "0,0", "x", "", NULL}},
	{"mesh-ports",
	 0,
	 "2,3",
	 chk_mesh_ports,
	 {"", "0,0", "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15", "x", NULL}},
	{"mesh",
	 0,
	 "0>2,1>2",
	 chk_mesh,
	 {"ring", "0>0", "0>2,0>2", "0>", "0>2,", NULL}},
	{"igmp", 0, "2", chk_igmp, {"1", "4", "v3", "", NULL}},
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
	{"iperf3",
	 0,
	 "10.0.0.2:5202",
	 chk_iperf3,
	 {"10.0.0", "10.0.0.2:0", "10.0.0.2:70000", "host", ":5201", NULL}},
	{"reflector", 0, NULL, chk_reflector, {NULL}},
	{"port", 'p', "3", chk_port, {"32", "-1", "x", NULL}},
	{"reverse", 'R', NULL, chk_reverse, {NULL}},
	{"bidir", 0, NULL, chk_bidir, {NULL}},
	{"get-server-output", 0, NULL, chk_get_server_output, {NULL}},
	{"ip", 0, "198.19.0.7", chk_ip, {"1.2.3", "256.1.1.1", NULL}},
	{"one-off", '1', NULL, chk_one_off, {NULL}},
	{"serve", 0, NULL, chk_serve, {NULL}},
	{"api",
	 0,
	 "tcp:127.0.0.1:7301",
	 chk_api,
	 {"unix:rel.sock", "tcp:127.0.0.1", "tcp:127.0.0.1:0", "tcp:1.2.3:80",
	  "http://x", NULL}},
	{"metrics",
	 0,
	 "tcp:0.0.0.0:9301",
	 chk_metrics,
	 {"unix:/x", "tcp:127.0.0.1", "tcp:127.0.0.1:0", "9301", NULL}},
	{"iperf3-server",
	 0,
	 "5203",
	 chk_iperf3_server,
	 {"0", "65536", "x", "", NULL}},
	{"latency-rate", 0, "1K", chk_latency_rate, {"0", "2M", "x", NULL}},
	{"pingpong", 0, NULL, chk_pingpong, {NULL}},
	{"max-streams", 0, "8", chk_max_streams, {"0", "1025", NULL}},
	{"ipv6", '6', NULL, chk_ipv6, {NULL}},
	{"qinq",
	 0,
	 "200,100",
	 chk_qinq,
	 {"200", "0,100", "200,4095", "1,2,3", NULL}},
	{"tpid", 0, "0x9100", chk_tpid, {"0x8847", "x", "", NULL}},
	{"pcp", 0, "5", chk_pcp, {"8", "-1", "", NULL}},
	{"dscp", 0, "0,46,63", chk_dscp, {"64", "1,", ",1", "1,,2", "a", NULL}},
	{"ecn", 0, "3", chk_ecn, {"4", "x", NULL}},
	{"encap",
	 0,
	 "mpls:16/1048575/0",
	 chk_encap,
	 {"vxlan:16777216", "mpls:1048576", "mpls:1//2", "gre:x", "ipip",
	  NULL}},
	{"tunnel-src",
	 0,
	 "2001:db8::7",
	 chk_tunnel_src,
	 {"2001:db8::g", "x", NULL}},
	{"tunnel-dst", 0, "10.0.0.9", chk_tunnel_dst, {"10.0.0", NULL}},
	{"flows", 0, "65536", chk_flows, {"0", "1048577", "1k", "-1", NULL}},
	{"flow-order", 0, "incr", chk_flow_order, {"rand", "", NULL}},
	{"flow-seed",
	 0,
	 "18446744073709551615",
	 chk_flow_seed,
	 {"18446744073709551616", "-1", "x", NULL}},
	{"flow-src-port",
	 0,
	 "0-65535",
	 chk_flow_sport,
	 {"1024", "1-65536", "-5", "5-", "1-2-3", NULL}},
	{"flow-dst-port", 0, "5000-5000", chk_flow_dport, {"a-b", NULL}},
	{"flow-src-ip",
	 0,
	 "198.18.0.1-198.18.3.255",
	 chk_flow_sip,
	 {"198.18.0.1", "198.18.0.1-2001:db8::1", "1.2.3-1.2.3.4", NULL}},
	{"flow-dst-ip",
	 0,
	 "2001:db8::1-2001:db8::1:ffff",
	 chk_flow_dip,
	 {"2001:db8::1-2001:db9::1", NULL}},
	{"flow-src-mac",
	 0,
	 "02:00:00:00:00:01-02:00:00:00:ff:ff",
	 chk_flow_smac,
	 {"01:00:00:00:00:01-01:00:00:00:00:02",
	  "02:00:00:00:00:01-04:00:00:00:00:01", "02:00:00:00:00:01", NULL}},
	{"flow-dst-mac",
	 0,
	 "0a:00:00:00:00:00-0a:00:00:00:00:00",
	 chk_flow_dmac,
	 {"x-y", NULL}},
	{"per-flow", 0, "/tmp/f.csv", chk_per_flow, {"", NULL}},
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
	 {"", "rfc", "throughput,", "throughput,,loss", "forward-pressure",
	  NULL}},
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
	{"addresses", 0, "3000", chk_addresses, {"0", "1048577", "x", NULL}},
	{"aging", 0, "1.5", chk_aging, {"-1", "3601", "x", NULL}},
};

const size_t nb_cases = sizeof(cases) / sizeof(cases[0]);

const struct opt_case *
find_case(const char *name)
{
	size_t i;

	for (i = 0; i < nb_cases; i++)
		if (strcmp(cases[i].name, name) == 0)
			return &cases[i];
	return NULL;
}
