/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The option table: every option's name, value placeholder, parser (or the
 * int a flag sets), help text, and the modes it applies to.  The parser,
 * the config file, --help and the man page all read it.
 */
#include <stddef.h>

#include "nb_opt_values.h"
#include "nb_options.h"
#include "nb_flows_opt.h"
#include "nb_mesh.h"
#include "nb_rfc2889.h"
#include "nb_stack.h"
#include "nb_suite_opts.h"

/* A section heading: a title for --help and the man page, no option. */
#define HEADING(title)                                                         \
	{                                                                      \
		NULL, 0, NULL, NULL, title, 0, 0, 0                            \
	}

/* A flag: given, it sets the int at field of struct nb_config to 1. */
#define FLAG(name, short_name, field, help, flags, modes)                      \
	{                                                                      \
		name, short_name, NULL, NULL, help, (flags) | NB_OPT_FLAG,     \
			modes, offsetof(struct nb_config, field)               \
	}

const struct nb_option nb_options[] = {
	HEADING("General"),
	FLAG("help", 'h', help, "show this help and exit", NB_OPT_CLI_ONLY,
	     NB_IN_ALL),
	FLAG("version", 'V', version, "show the version and exit",
	     NB_OPT_CLI_ONLY, NB_IN_ALL),
	{"config", 0, "FILE", nb_opt_config,
	 "read options from an INI file (keys are these long names); the "
	 "command line wins",
	 NB_OPT_CLI_ONLY, NB_IN_ALL},
	{"list-ports", 0, NULL, nb_opt_list_ports,
	 "bring every port up, report driver, MAC, link and NUMA node, exit", 0,
	 NB_IN_PORTS},
	FLAG("serve", 0, serve,
	     "loopback ports set up once, then tests on request over the "
	     "API socket (JSON-RPC 2.0, docs/api.md) until its shutdown "
	     "method or SIGTERM; the other options are every run's defaults",
	     0, NB_IN_LOOP),
	{"api", 0, "unix:PATH|tcp:IP:PORT", nb_opt_api,
	 "--serve's socket: a Unix socket (mode 0600) or TCP on the host's "
	 "kernel stack (clients prove --auth-key first) "
	 "[unix:/run/dpdk-nbench/PREFIX.sock]",
	 0, NB_IN_LOOP},
	{"metrics", 0, "tcp:IP:PORT", nb_opt_metrics,
	 "serve /metrics over HTTP on the host's kernel stack (Prometheus "
	 "text format): per port and per stream counts and throughput, "
	 "latency histogram and quantiles, the workers' disturbance, the TSC "
	 "calibration; the running test's, else the last one's",
	 0, NB_IN_LOOP | NB_IN_REFL | NB_IN_CLI | NB_IN_RSP},
	HEADING("Loopback test (ports of this process)"),
	{"tx-port", 0, "LIST", nb_opt_tx_port,
	 "loopback test: ports that transmit, e.g. 0 or 0,2", 0, NB_IN_LOOP},
	{"rx-port", 0, "LIST", nb_opt_rx_port,
	 "loopback test: ports that receive, e.g. 1 or 1,3; alone, a "
	 "receive-only test of another generator's frames",
	 0, NB_IN_LOOP},
	{"ports", 0, "LIST", nb_opt_ports,
	 "a test of many ports (2 to 16, e.g. 0,1,2,3): every pair of "
	 "--mesh gets streams of its own and a row in the pair matrix; "
	 "--streams is then per pair.  With --peer: this host's ports in a "
	 "mesh with the responder's (its --mesh-ports, after ours), the "
	 "first carrying the control protocol",
	 0, NB_IN_LOOP | NB_IN_CLI},
	{"mesh", 0, "full|pairs|one-to-many|many-to-one|backbone|S>D,...",
	 nb_opt_mesh,
	 "who sends to whom among --ports: every port to every other "
	 "(RFC 2889 5.1), 1st<->2nd, 3rd<->4th..., the 1st to the others, the "
	 "others to the 1st, each of the first half to each of the second "
	 "and back (5.2), or pairs of port ids (one host's only) [full]",
	 0, NB_IN_LOOP | NB_IN_CLI},
	{"mesh-ports", 0, "LIST", nb_opt_mesh_ports,
	 "responder: the ports it offers to a client's mesh across hosts "
	 "(--peer with --ports), 1 to 15, the first carrying the control "
	 "protocol (in place of --port)",
	 0, NB_IN_RSP},
	{"join", 0, "all|none|LIST", nb_opt_join,
	 "loopback test to a multicast --dst-ip: the receiving ports that "
	 "join the group (IGMP or MLDv2 reports before the test, every 60 s "
	 "in it, leaves after it) [all]",
	 0, NB_IN_LOOP},
	{"igmp", 0, "2|3", nb_opt_igmp,
	 "the IGMP version of --join's reports to an IPv4 group (an IPv6 "
	 "group: MLDv2) [3]",
	 0, NB_IN_LOOP},
	HEADING("Peer test (client, responder, reflector)"),
	{"peer", 'c', "MAC|IP[,IP...]", nb_opt_peer,
	 "client: the responder's MAC, or its IPv4 address (found by ARP) "
	 "or IPv6 address (found by neighbour discovery; the control "
	 "protocol and the test over IPv6); with --ports, several "
	 "responders' IPv4 addresses (up to 15, each a session from the "
	 "first of --ports) join their --mesh-ports into one mesh; with "
	 "--reflector, the MAC of a peer that swaps MACs and returns "
	 "every frame (e.g. testpmd macswap)",
	 0, NB_IN_CLI | NB_IN_REFL},
	{"iperf3", 0, "HOST[:PORT]", nb_opt_iperf3,
	 "client of a stock iperf3 server (iperf3 -s) at this IPv4 address "
	 "(found by ARP) [port 5201]: iperf3's control protocol on the "
	 "tool's TCP, a UDP test (--rate, --size, --time or --packets, "
	 "--streams), or TCP streams (--tcp: --time or --bytes, "
	 "--streams), from this side, with --reverse from the server's, "
	 "or both ways (--bidir); the server's results beside ours",
	 0, NB_IN_CLI},
	FLAG("reflector", 0, reflector,
	     "the peer is a reflector: no negotiation; throughput, loss and "
	     "RTT come from the returned frames",
	     0, NB_IN_REFL),
	{"port", 'p', "ID", nb_opt_port, "the port facing the peer [0]", 0,
	 NB_IN_CLI | NB_IN_REFL | NB_IN_RSP},
	FLAG("reverse", 'R', reverse,
	     "peer test: the responder sends, this side receives", 0,
	     NB_IN_CLI),
	FLAG("bidir", 0, bidir, "peer test: both sides send", 0, NB_IN_CLI),
	FLAG("get-server-output", 0, ip3_server_output,
	     "--iperf3: ask the server for its own report of the test "
	     "(iperf3's --get-server-output) and show it after ours",
	     0, NB_IN_CLI),
	{"ip", 0, "IP", nb_opt_my_ip,
	 "this side's IPv4 or IPv6 address in peer mode, answered to ARP "
	 "(neighbour discovery) and ping; IPv6 puts the control protocol "
	 "and the test on IPv6 [client 198.18.0.1, responder 198.19.0.1]",
	 0, NB_IN_CLI | NB_IN_RSP},
	FLAG("one-off", '1', one_off, "responder: serve one test, then exit", 0,
	     NB_IN_RSP),
	{"iperf3-server", 0, "PORT", nb_opt_iperf3_server,
	 "serve stock iperf3 clients (iperf3 -c) on this TCP and UDP port "
	 "of --ip, one test at a time (a second client is told the server "
	 "is busy), TCP and UDP, either way (-R) or both (--bidir), under "
	 "--allow, --max-rate and --max-time (keyless: --no-auth's caps "
	 "unless given); not with --auth-key",
	 0, NB_IN_RSP},
	{"latency-rate", 0, "N", nb_opt_latency_rate,
	 "client: N latency probes per second ride along the test; the "
	 "responder's worker reflects each, the report gives the RTT",
	 0, NB_IN_CLI},
	FLAG("pingpong", 0, pingpong,
	     "client: a latency test of probes only, one outstanding at a time "
	     "(qperf udp_lat), for --time seconds; with --tcp, request and "
	     "response over each connection (qperf tcp_lat, netperf TCP_RR)",
	     0, NB_IN_CLI | NB_IN_LOOP),
	FLAG("conf", 0, conf,
	     "client: show both ends' configuration (qperf conf) and exit", 0,
	     NB_IN_CLI),
	FLAG("quit", 0, quit, "client: tell the responder to exit", 0,
	     NB_IN_CLI),
	{"peer-timeout", 0, "SECS", nb_opt_peer_timeout,
	 "peer mode: how long without an answer means the peer is gone [2]", 0,
	 NB_IN_CLI | NB_IN_RSP},
	{"auth-key", 0, "FILE", nb_opt_auth_key,
	 "client and responder: a shared key (32..1024 random bytes, one "
	 "trailing newline dropped) that both ends prove they hold; FILE "
	 "must be readable by its owner only [client: no key; responder: "
	 "a fresh key in /run/dpdk-nbench/PREFIX.key]; --serve: what its "
	 "API clients prove",
	 0, NB_IN_CLI | NB_IN_RSP | NB_IN_LOOP},
	HEADING("Responder policy"),
	{"allow", 0, "MAC|IP[/LEN]", nb_opt_allow,
	 "serve only clients with this MAC or in this IPv4 prefix; repeat "
	 "for more (at most 32) [any key holder; with --no-auth, anyone]",
	 NB_OPT_REPEAT, NB_IN_RSP},
	{"allow-vlan", 0, "ID[,ID...]", nb_opt_allow_vlan,
	 "data VLANs a client may ask for besides the responder's own "
	 "(--vlan, or untagged); repeat for more (at most 16) [none]",
	 NB_OPT_REPEAT, NB_IN_RSP},
	{"max-rate", 0, "RATE", nb_opt_max_rate,
	 "reject tests asking it to send or receive faster than RATE: bits/s "
	 "(L1 or l2) or pps, not max or % [10G]",
	 0, NB_IN_RSP},
	{"max-time", 0, "SECS", nb_opt_max_time,
	 "reject tests longer than SECS, warm-up included (1..2592000) "
	 "[3600]",
	 0, NB_IN_RSP},
	{"max-streams", 0, "N", nb_opt_max_streams,
	 "reject tests with more streams than N [1024]", 0, NB_IN_RSP},
	{"impair", 0, "SPEC", nb_opt_impair,
	 "a known-bad peer: drop=P|every=N,rate=R,dup=P,reorder=P,delay=USEC "
	 "applied to the data frames it receives and the probes it reflects, "
	 "each counted and reported to the client [none]",
	 0, NB_IN_RSP},
	FLAG("allow-quit", 0, allow_quit,
	     "obey a client's --quit (from a key holder; with --no-auth, from "
	     "anyone) [refused]",
	     0, NB_IN_RSP),
	FLAG("no-auth", 0, no_auth,
	     "serve clients without a key: any host on the segment may start "
	     "tests towards any address, up to the caps (then 1G and 60 s "
	     "unless given) [a key is needed]",
	     0, NB_IN_RSP),
	HEADING("Traffic"),
	{"rate", 'b', "RATE", nb_opt_rate,
	 "total rate: 10G (L1 bits/s, default layer), 9.5Gl2 (L2 bits/s), "
	 "14.88Mpps, 50% (of link), max [max]",
	 0, NB_IN_TEST},
	{"size", 'l', "SIZES", nb_opt_size,
	 "frame size incl. FCS (64..9000), a list 64,512,1518, or imix [64]", 0,
	 NB_IN_TEST | NB_IN_RSP},
	{"proto", 0, "udp|tcp", nb_opt_proto,
	 "L4 protocol of data frames [udp]", 0, NB_IN_TEST},
	{"streams", 'P', "N", nb_opt_streams,
	 "streams (distinct UDP/TCP source ports) [1]", 0, NB_IN_TEST},
	{"vlan", 0, "ID|OUTER.INNER", nb_opt_vlan,
	 "add an 802.1Q tag with this VLAN id; OUTER.INNER: QinQ (as --qinq)",
	 0, NB_IN_TEST | NB_IN_RSP},
	{"src-ip", 0, "IP", nb_opt_src_ip,
	 "source IPv4 or IPv6 address [198.18.0.1; -6: 2001:2::1]", 0,
	 NB_IN_TEST},
	{"dst-ip", 0, "IP", nb_opt_dst_ip,
	 "destination IPv4 or IPv6 address (IPv6 makes the test IPv6) "
	 "[198.19.0.1; -6: 2001:2:0:1::1]",
	 0, NB_IN_TEST},
	{"src-mac", 0, "MAC", nb_opt_src_mac, "source MAC [the TX port's]", 0,
	 NB_IN_LOOP | NB_IN_REFL},
	{"dst-mac", 0, "MAC", nb_opt_dst_mac,
	 "destination MAC [the RX port's in loopback]", 0,
	 NB_IN_LOOP | NB_IN_REFL},
	HEADING("Header stacks (loopback tests)"),
	FLAG("ipv6", '6', stack.ipv6,
	     "IPv6 frames (the default addresses from the benchmarking prefix "
	     "2001:2::/48, RFC 5180), --tcp's too; a client's control "
	     "protocol too; an IPv6 --dst-ip or --peer implies it",
	     0, NB_IN_LOOP | NB_IN_CLI | NB_IN_REFL),
	{"qinq", 0, "OUTER,INNER", nb_opt_qinq,
	 "two VLAN tags: the outer (service) tag, TPID 0x88a8 unless --tpid, "
	 "then an 802.1Q tag",
	 0, NB_IN_LOOP},
	{"tpid", 0, "TPID", nb_opt_tpid,
	 "the outer tag's TPID with --qinq: 0x88a8, 0x9100 or 0x8100 [0x88a8]",
	 0, NB_IN_LOOP},
	{"pcp", 0, "N", nb_opt_pcp,
	 "802.1p priority 0..7 in every VLAN tag [0]", 0, NB_IN_LOOP},
	{"dscp", 0, "N[,N...]", nb_opt_dscp,
	 "DSCP 0..63 in the IPv4 TOS / IPv6 traffic class; a list gives the "
	 "streams their classes in turn (stream s: the (s mod n)-th) [0]",
	 0, NB_IN_LOOP},
	{"ecn", 0, "N", nb_opt_ecn,
	 "ECN codepoint 0..3 (1, 2: ECT(1), ECT(0); 3: CE) [0]", 0, NB_IN_LOOP},
	{"encap", 0, "KIND", nb_opt_encap,
	 "a tunnel around every frame: vxlan:VNI (UDP 4789, an inner "
	 "Ethernet frame; the outer UDP source port per stream), gre or "
	 "gre:KEY (IPv4/IPv6 over GRE), mpls:L1[/L2...] (a label stack)",
	 0, NB_IN_LOOP},
	{"tunnel-src", 0, "IP", nb_opt_tunnel_src,
	 "--encap vxlan/gre: the outer source address [198.18.0.254, or "
	 "2001:2::fe when the test is IPv6]",
	 0, NB_IN_LOOP},
	{"tunnel-dst", 0, "IP", nb_opt_tunnel_dst,
	 "--encap vxlan/gre: the outer destination address [198.19.0.254, or "
	 "2001:2:0:1::fe]; an IPv6 pair carries an IPv4 test over IPv6",
	 0, NB_IN_LOOP},
	HEADING("Flows (loopback tests)"),
	{"flows", 0, "N", nb_opt_flows,
	 "N flows (distinct 5-tuples, up to 1048576) over the streams: flow f "
	 "is stream (f mod streams)'s, each stream sends its flows in turn; "
	 "per-flow sent, lost, reordered, duplicated and latency",
	 0, NB_IN_LOOP},
	{"flow-order", 0, "random|incr", nb_opt_flow_order,
	 "the flows' values pseudorandom (RFC 4814, a keyed permutation: "
	 "always N distinct flows) or in order [random]",
	 0, NB_IN_LOOP},
	{"flow-seed", 0, "N", nb_opt_flow_seed,
	 "the seed of the pseudorandom order: the same seed, the same flows "
	 "[1]",
	 0, NB_IN_LOOP},
	{"flow-src-port", 0, "LO-HI", nb_opt_flow_sport,
	 "the flows' source ports [1024-65535 when no range is given, RFC "
	 "4814; else the stream's own]",
	 0, NB_IN_LOOP},
	{"flow-dst-port", 0, "LO-HI", nb_opt_flow_dport,
	 "the flows' destination ports [as --flow-src-port]", 0, NB_IN_LOOP},
	{"flow-src-ip", 0, "FIRST-LAST", nb_opt_flow_sip,
	 "the flows' source addresses (IPv6: the last 32 bits vary) [the "
	 "stream's own]",
	 0, NB_IN_LOOP},
	{"flow-dst-ip", 0, "FIRST-LAST", nb_opt_flow_dip,
	 "the flows' destination addresses [the stream's own]", 0, NB_IN_LOOP},
	{"flow-src-mac", 0, "FIRST-LAST", nb_opt_flow_smac,
	 "the flows' source MACs (unicast) [the stream's own]", 0, NB_IN_LOOP},
	{"flow-dst-mac", 0, "FIRST-LAST", nb_opt_flow_dmac,
	 "the flows' destination MACs [the stream's own]", 0, NB_IN_LOOP},
	{"per-flow", 0, "FILE", nb_opt_per_flow,
	 "with --flows: every flow's figures into FILE (CSV when it ends in "
	 ".csv, else JSON)",
	 0, NB_IN_LOOP},
	HEADING("Closed-loop TCP"),
	FLAG("tcp", 0, tcp,
	     "each stream one TCP connection, TX port to RX port (or to the "
	     "responder's port 5201): handshake, congestion control (SACK "
	     "recovery, else NewReno), retransmission, FIN; iperf3's Retr and "
	     "Cwnd (--bytes counts payload)",
	     0, NB_IN_LOOP | NB_IN_CLI),
	{"window", 'w', "BYTES", nb_opt_window,
	 "--tcp: the window each receiver advertises, like iperf's -w [1M]; "
	 "with --iperf3, iperf3's -w (the server's socket buffer)",
	 0, NB_IN_LOOP | NB_IN_CLI},
	FLAG("delayed-ack", 0, tcp_delayed_ack,
	     "--tcp: ACK every second full segment (or after 40 ms), not every "
	     "one",
	     0, NB_IN_LOOP | NB_IN_CLI),
	{"cc", 0, "newreno|cubic", nb_opt_cc,
	 "--tcp: congestion avoidance, NewReno's (RFC 5681) or CUBIC's (RFC "
	 "9438) [newreno]",
	 0, NB_IN_LOOP | NB_IN_CLI},
	{"msg-size", 0, "BYTES", nb_opt_msg_size,
	 "--tcp --pingpong: bytes of each request and of each response [1]; "
	 "a range MIN:MAX:*F runs one test per size",
	 0, NB_IN_LOOP | NB_IN_CLI},
	FLAG("no-sack", 0, tcp_no_sack,
	     "--tcp: do not offer SACK: NewReno's recovery (RFC 6582)", 0,
	     NB_IN_LOOP | NB_IN_CLI),
	HEADING("Test length"),
	{"time", 't', "SECS", nb_opt_time,
	 "test length in seconds [10; with --packets/--bytes: until sent]", 0,
	 NB_IN_TEST},
	{"packets", 'k', "N", nb_opt_packets,
	 "send exactly N frames in total (K/M/G = 1e3/1e6/1e9)", 0, NB_IN_TEST},
	{"bytes", 'n', "N", nb_opt_bytes,
	 "send N bytes of frames (incl. FCS) in total (K/M/G = "
	 "2^10/2^20/2^30)",
	 0, NB_IN_TEST},
	{"omit", 'O', "SECS", nb_opt_omit,
	 "warm-up seconds sent first and left out of the results [0]", 0,
	 NB_IN_TEST},
	HEADING("Test suites (RFC 2544)"),
	{"test", 0, "SUITES", nb_opt_test,
	 "run trials instead of one test: throughput (the highest rate within "
	 "--loss-tolerance), latency, loss, back-to-back, or a list; rfc2544 "
	 "runs all four, per frame size; with --ports, RFC 2889's "
	 "forwarding-rate, congestion (--ports A,B,C,D), broadcast (--ports "
	 "S,R1,...); across hosts (--peer with --ports) RFC 2544's and "
	 "forwarding-rate, each trial a session",
	 0, NB_IN_TEST},
	{"trial-time", 0, "SECS", nb_opt_trial_time,
	 "length of a final trial (the search starts with 1 s ones) [60]", 0,
	 NB_IN_TEST},
	{"settle", 0, "SECS", nb_opt_settle,
	 "pause between trials (and a sweep's tests) [2]", 0, NB_IN_TEST},
	{"loss-tolerance", 0, "RATIO", nb_opt_loss_tolerance,
	 "throughput: the share of frames a passing trial may lose, 0 (NDR), "
	 "0.5% (a PDR), or a rising list 0,0.5% for both in one search [0]",
	 0, NB_IN_TEST},
	{"precision", 0, "RATE", nb_opt_precision,
	 "throughput: stop when the bounds are this close: bits/s, pps or "
	 "% of line [0.1% of line or 10kpps, the larger]",
	 0, NB_IN_TEST},
	{"latency-load", 0, "PCT", nb_opt_latency_load,
	 "latency: the load, a percent of the throughput found [90%]", 0,
	 NB_IN_TEST},
	{"loss-step", 0, "PCT", nb_opt_loss_step,
	 "loss: the ladder's step down from line rate [10%]", 0, NB_IN_TEST},
	{"trials", 0, "N", nb_opt_trials,
	 "back-to-back: repeats of the burst search (RFC 2544: 50) [50]", 0,
	 NB_IN_TEST},
	{"addresses", 0, "N", nb_opt_addresses,
	 "address-caching: the most addresses its search tries [65536]; "
	 "address-learning alone: how many addresses to learn (after "
	 "address-caching: the capacity it found)",
	 0, NB_IN_TEST},
	{"aging", 0, "S", nb_opt_aging,
	 "address-caching and address-learning: the switch's ageing time in "
	 "seconds, waited out (with a margin of 0.5 s and a tenth) before "
	 "each trial (required by them)",
	 0, NB_IN_TEST},
	HEADING("Ports and queues"),
	{"queues", 'q', "N", nb_opt_queues,
	 "RX and TX queues per test port [1]", 0, NB_IN_TEST | NB_IN_RSP},
	{"rxd", 0, "N", nb_opt_rxd, "RX descriptors per queue [1024]", 0,
	 NB_IN_ALL},
	{"txd", 0, "N", nb_opt_txd, "TX descriptors per queue [1024]", 0,
	 NB_IN_ALL},
	{"tx-checksum", 0, "auto|hw|sw", nb_opt_tx_checksum,
	 "UDP/TCP checksums of the generated frames: the NIC's TX checksum "
	 "offload where the device has it without leaving its vector TX "
	 "path (auto), always (hw: a port without it is refused) or never "
	 "(sw: computed per frame, incrementally) [auto]",
	 0, NB_IN_ALL},
	FLAG("hw-rate", 0, hw_rate,
	     "pace with the NIC's per-queue TX rate limiter (ixgbe) instead of "
	     "the software pacer; where a port has none, the software pacer, "
	     "told in the header and JSON",
	     0, NB_IN_TEST | NB_IN_RSP),
	{"flow-control", 0, "on|off|rx|tx", nb_opt_flow_control,
	 "IEEE 802.3x pause frames on the test ports: both ways, none, "
	 "honour the partner's (rx) or send them (tx); refused on a port "
	 "without flow control [as the driver left it; reported]",
	 0, NB_IN_ALL},
	{"link-speed", 0, "SPEED|auto", nb_opt_link_speed,
	 "fix the link speed (10M..200G; refused when the device does not "
	 "offer it) or autonegotiate [auto]",
	 0, NB_IN_ALL},
	{"mtu", 0, "N", nb_opt_mtu,
	 "the test ports' MTU, at least what the largest --size needs "
	 "(set on the device: a kernel-backed port's interface too) "
	 "[what the frames need, at least 1500]",
	 0, NB_IN_ALL},
	{"link-timeout", 0, "SECS", nb_opt_link_timeout,
	 "how long to wait for link up [10]", 0, NB_IN_ALL},
	{"drain", 0, "SECS", nb_opt_drain,
	 "how long receivers keep counting after the senders stop, at most; "
	 "they stop earlier when every frame came or none came for a tenth "
	 "of it (at least 50 ms) [0.5]",
	 0, NB_IN_TEST | NB_IN_RSP},
	HEADING("Output"),
	{"interval", 'i', "SECS", nb_opt_interval,
	 "seconds between interval reports, 0 for none (a progress line "
	 "on a terminal) [1]",
	 0, NB_IN_TEST},
	{"format", 'f', "a|k|m|g|t|K|M|G|T", nb_opt_format,
	 "bitrate unit in text output, as iperf3 -f: bits (k..t) or bytes "
	 "(K..T) per second, or a: the unit of the requested rate (of the "
	 "link at --rate max) for every line [a]",
	 0, NB_IN_TEST},
	FLAG("gaps", 0, gaps,
	     "the receiver times the gap between each stream's frames: their "
	     "p1/p50/p99 against the ideal gap of --rate, and the share within "
	     "+-64 ns and +-256 ns of it (a pacer's precision), in the report "
	     "and JSON; loopback tests",
	     0, NB_IN_LOOP),
	FLAG("per-queue", 0, per_queue,
	     "text output: under each interval line, a row per queue of each "
	     "port with more than one (sent, received, share, rate); JSON and "
	     "CSV have them always",
	     0, NB_IN_TEST),
	FLAG("quiet", 0, quiet,
	     "text output: only the final report (no header, intervals or "
	     "progress line)",
	     0, NB_IN_ALL),
	FLAG("json", 'J', json,
	     "print one JSON document on stdout (iperf3's shape) instead of "
	     "text",
	     0, NB_IN_ALL),
	FLAG("json-stream", 0, json_stream,
	     "print JSON lines on stdout: one object per event (start, "
	     "interval, end, error)",
	     0, NB_IN_ALL),
	FLAG("csv", 0, csv,
	     "print CSV on stdout: a header, then one row per interval per "
	     "stream and the end totals",
	     0, NB_IN_ALL),
	{"json-file", 0, "FILE", nb_opt_json_file,
	 "also write the JSON document to FILE (whatever stdout shows)", 0,
	 NB_IN_ALL},
	{"logfile", 0, "FILE", nb_opt_logfile,
	 "append what goes to stdout to FILE instead; logs stay on stderr", 0,
	 NB_IN_ALL},
	{"capture", 0, "FILE[,KEY=V]", nb_opt_capture,
	 "write the frames the receivers take in to a pcap file (ns "
	 "timestamps), off the hot path: every=N (every Nth frame), count=N "
	 "(at most N), snaplen=B (bytes kept); frames the writer cannot take "
	 "are counted as capture drops [none]",
	 0, NB_IN_TEST | NB_IN_RSP},
	{"replay", 0, "FILE[,loop=N]", nb_opt_replay,
	 "send a pcap file's frames (Ethernet, whole frames) as the test's "
	 "one stream, in the file's order, loop=N times through it (0: "
	 "until --time) [1]; paced by --rate (bits/s over the frames' mean "
	 "size) unless --replay-timing file; to a responder (--peer) with "
	 "--replay-stamp",
	 0, NB_IN_LOOP | NB_IN_CLI},
	{"replay-timing", 0, "rate|file", nb_opt_replay_timing,
	 "--replay's pacing: rate (--rate, max when none) or file (the gaps "
	 "between the file's timestamps) [rate]",
	 0, NB_IN_LOOP | NB_IN_CLI},
	FLAG("replay-stamp", 0, replay.stamp,
	     "write the tool's stamp (stream 0, sequence, time) into every "
	     "replayed frame, so the receiver gives loss, reordering and "
	     "latency; "
	     "needs IPv4 UDP frames with 14 payload bytes (they lose their UDP "
	     "checksum) [frames sent as recorded]",
	     0, NB_IN_LOOP | NB_IN_CLI),
};

const size_t nb_nb_options = sizeof(nb_options) / sizeof(nb_options[0]);
