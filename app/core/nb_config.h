/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tool's configuration, filled from the option table (nb_opt_table.c).
 * Pure data: no DPDK types.
 */
#ifndef NB_CONFIG_H
#define NB_CONFIG_H

#include <stdint.h>

#include "nb_capture_spec.h"
#include "nb_flows.h"
#include "nb_frame.h"
#include "nb_impair.h"
#include "nb_offload.h"
#include "nb_replay.h"
#include "nb_search.h"
#include "nb_units.h"

#define NB_MAX_PORTS	  32
#define NB_MAX_STREAMS	  1024
#define NB_MAX_QUEUES	  16
#define NB_MAX_ALLOW	  32   /* --allow entries */
#define NB_MAX_ALLOW_VLAN 16   /* --allow-vlan ids */
#define NB_MAX_PSK	  1024 /* --auth-key file bytes */
#define NB_MIN_PSK	  32
/* a --no-auth responder's caps unless --max-rate/--max-time are given */
#define NB_NO_AUTH_MAX_RATE 1e9
#define NB_NO_AUTH_MAX_TIME 60
/* where a root responder makes its own key (else $XDG_RUNTIME_DIR/...) */
#define NB_KEY_DIR "/run/dpdk-nbench"

/* One --allow entry: a MAC address, or an IPv4 prefix. */
struct nb_allow {
	int is_ip;
	uint8_t mac[6];
	uint32_t ip, mask; /* host order; mask from the prefix length */
};

/* --join: the receiving ports that join the group */
enum nb_join {
	NB_JOIN_ALL = 0, /* every receiving port (the default) */
	NB_JOIN_NONE,
	NB_JOIN_LIST, /* those in join_ports */
};

enum nb_mode {
	NB_MODE_NONE = 0, /* nothing asked for: a usage error until peer mode */
	NB_MODE_PORTS,	  /* --list-ports: bring ports up, report, exit */
	NB_MODE_LOOPBACK, /* --tx-port/--rx-port: ports of this process */
	NB_MODE_REFLECTOR, /* --peer MAC --reflector: a MAC-swapping peer */
	NB_MODE_RESPONDER, /* no test options: serve clients (iperf3 -s) */
	NB_MODE_CLIENT,	   /* --peer MAC: negotiate with a responder */
};

/*
 * The header stack of the data frames beyond --vlan (nb_stack.c): the
 * options as given, then (nb_stack_check) the family and every default
 * filled in.
 */
#define NB_MAX_DSCP 64
struct nb_stack_cfg {
	int ipv6;			/* -6 */
	struct nb_ip src6, dst6;	/* --src-ip, --dst-ip given as IPv6 */
	uint8_t family;			/* 4 or 6, once checked */
	uint16_t outer_vid, outer_tpid; /* --qinq / --vlan O.I, --tpid */
	int pcp;			/* --pcp [0] */
	uint32_t nb_dscp;		/* --dscp: one per stream, in turn */
	uint8_t dscp[NB_MAX_DSCP];
	uint8_t ecn;	      /* --ecn */
	struct nb_tunnel tun; /* --encap, --tunnel-src, --tunnel-dst */
};

/*
 * Many ports in one test (nb_mesh.h): --ports and --mesh as given, then
 * (nb_mesh_check) the pairs, source-major, and where each source's
 * pairs and streams begin.
 */
#define NB_MESH_MAX_PORTS 16
#define NB_MESH_MAX_PAIRS (NB_MESH_MAX_PORTS * (NB_MESH_MAX_PORTS - 1))
enum nb_mesh_kind {
	NB_MESH_NONE = 0,
	NB_MESH_PAIRS,	     /* 1<->2, 3<->4, ... */
	NB_MESH_FULL,	     /* every port to every other (RFC 2889 5.1) */
	NB_MESH_ONE_TO_MANY, /* the first port to the others (5.2) */
	NB_MESH_MANY_TO_ONE, /* the others to the first (5.2) */
	NB_MESH_BACKBONE,    /* each of the first half to each of the
			      * second, and back (5.2's many-to-many) */
	NB_MESH_LIST,	     /* S>D,S>D,... as given */
};
struct nb_mesh_pair {
	uint8_t src, dst; /* indices into ports[] */
	uint8_t weight;	  /* streams: weight x per_pair (1 but for a test
			   * that sets it: congestion's 100 % pair) */
};
/*
 * A mesh across hosts: a port of another host, by its id there; a
 * client marks a responder's with the responder's number (1 for the
 * first --peer, up to 15) less one in bits 10..13 (port ids below 1024,
 * RTE_MAX_ETHPORTS' ceiling).
 */
#define NB_MESH_REMOTE	   0x8000u
#define NB_MESH_ID_MAX	   1024u
#define NB_MESH_HOST_SHIFT 10
#define NB_MESH_MAX_PEERS  15
struct nb_mesh_cfg {
	int kind;
	uint16_t nb_ports;
	/* --ports (or the list's); across hosts also the other end's, as
	 * NB_MESH_REMOTE | its id there */
	uint16_t ports[NB_MESH_MAX_PORTS];
	uint16_t nb_local; /* --ports given (a client: its own, first) */
	uint8_t macs[NB_MESH_MAX_PORTS][6]; /* the other end's ports' */
	/* across hosts: each port's link speed in Mbit/s (0 unknown), ours
	 * and the offer's */
	uint32_t speed_mbps[NB_MESH_MAX_PORTS];
	uint16_t nb_given; /* --mesh S>D,...: the pairs as port ids */
	uint16_t given_src[NB_MESH_MAX_PAIRS], given_dst[NB_MESH_MAX_PAIRS];
	uint8_t given_weight[NB_MESH_MAX_PAIRS]; /* 0: 1 */
	/* derived */
	uint16_t nb_pairs;
	struct nb_mesh_pair pairs[NB_MESH_MAX_PAIRS];
	uint32_t per_pair;			/* streams a pair */
	uint16_t nb_dst[NB_MESH_MAX_PORTS];	/* pairs of source i */
	uint16_t cycle[NB_MESH_MAX_PORTS];	/* their weights' sum */
	uint16_t first_pair[NB_MESH_MAX_PORTS]; /* its first pair */
	uint32_t base[NB_MESH_MAX_PORTS];	/* its first stream */
};

/* --flows and its options (nb_opt_flows.c) */
struct nb_flows_cfg {
	struct nb_flows_spec spec; /* n 0: no --flows (one flow a stream) */
	uint32_t given;		   /* 1 << NB_FF_*: a range was given */
	int order_set, seed_set;
	struct nb_ip ip6[2]; /* the IPv6 ranges' first addresses (their
			      * upper 96 bits are the frames') */
	char per_flow[256];  /* --per-flow FILE ("": none) */
};

struct nb_config {
	enum nb_mode mode;
	uint16_t nb_tx_ports;
	uint16_t tx_ports[NB_MAX_PORTS];
	uint16_t nb_rx_ports;
	uint16_t rx_ports[NB_MAX_PORTS];

	struct nb_rate_spec rate;
	struct nb_size_list sizes;
	uint8_t proto; /* NB_IPPROTO_UDP / NB_IPPROTO_TCP */
	uint32_t streams;
	uint16_t vlan_id; /* 0: untagged */
	uint32_t src_ip, dst_ip;
	struct nb_stack_cfg stack; /* IPv6, QinQ, classes, tunnels */
	struct nb_flows_cfg flows; /* --flows */
	struct nb_mesh_cfg mesh;   /* --ports, --mesh */
	int have_src_mac, have_dst_mac;
	uint8_t src_mac[6], dst_mac[6];

	double duration;  /* seconds; 0 with packets/bytes: until count */
	int duration_set; /* --time given explicitly */
	uint64_t packets; /* total over all streams; 0 = unlimited */
	uint64_t bytes;	  /* total L2 bytes incl. FCS; 0 = unlimited */
	double omit;	  /* warm-up seconds, excluded from results */
	double interval;  /* report interval seconds; 0 = none */
	int interval_set; /* --interval given */

	uint32_t queues;     /* RX and TX queues per test port */
	uint32_t extra_rxq;  /* peer mode: 1, the RX queue facing the peer's
			      * control TX queue (receivers poll it too) */
	uint32_t rxd, txd;   /* descriptors per queue */
	double link_timeout; /* seconds to wait for link up */
	enum nb_csum_mode tx_csum; /* --tx-checksum: the NIC's or software */
	struct nb_portset portset; /* --flow-control, --link-speed, --mtu */
	double drain; /* seconds the sinks keep receiving after TX ends */

	/* --tcp: closed-loop TCP connections (loopback) */
	int tcp;
	/* --rx-port without --tx-port: what another generator sends */
	int rx_only;
	uint32_t tcp_window;	  /* --window: the receivers' window (bytes) */
	int tcp_delayed_ack;	  /* --delayed-ack */
	int tcp_no_sack;	  /* --no-sack: NewReno's recovery */
	uint32_t tcp_msg;	  /* --msg-size: --pingpong's message bytes */
	struct nb_sweep tcp_msgs; /* --msg-size MIN:MAX:*F: one test each */
	int tcp_cc;		  /* --cc: NB_TCP_CC_* (0 NewReno, 1 CUBIC) */

	/* peer side */
	int have_peer;
	/* a responder's --mesh-ports: the ports it offers to a client's
	 * mesh (control on the first) */
	uint16_t nb_serve_ports;
	uint16_t serve_ports[NB_MESH_MAX_PORTS];
	uint8_t peer_mac[6];
	int peer_is_ip; /* --peer gave an IP address: ARP (NDP) for it */
	uint32_t peer_ip;
	struct nb_ip peer_ip6; /* --peer's IPv6 address (family 6) */
	/* --peer IP,IP,...: a mesh's further responders (IPv4) */
	uint16_t nb_more_peers;
	uint32_t more_peers[NB_MESH_MAX_PEERS - 1];
	/* --iperf3 HOST[:PORT]: a client of a stock iperf3 server */
	int iperf3;
	uint32_t ip3_host; /* IPv4, host order; found by ARP */
	uint16_t ip3_port; /* [5201] */
	/* --iperf3-server PORT: serve stock iperf3 clients on ip3_port
	 * (a responder's mode of its own, keyless: --no-auth's caps) */
	int ip3_server;
	/* --get-server-output (--iperf3): the server's own report, shown */
	int ip3_server_output;
	/* the data's destination port (0: NB_DEFAULT_DPORT): the iperf3
	 * client's UDP test sends to the server's */
	uint16_t data_dport;
	uint32_t ip3_window; /* --window with --iperf3: iperf3's -w (0: none) */
	int reflector;	     /* the peer only swaps MACs and returns frames */
	uint16_t port;	     /* the port facing the peer */
	int have_port;	     /* --port given (else the first test port) */
	int reverse, bidir;  /* direction of a peer test */
	int one_off;	     /* responder: exit after one test */
	uint32_t max_streams;  /* responder: most streams it accepts */
	int conf, quit;	       /* client: show both ends / stop the responder */
	uint64_t latency_rate; /* client: probes/s inside the test; 0 none */
	int pingpong;	       /* client: probes only, one outstanding */
	double peer_timeout;   /* seconds without an answer = peer gone */
	int have_ip;
	uint32_t ip;	  /* this side's IPv4 in peer mode */
	struct nb_ip ip6; /* ... or IPv6 (family 6) */
	int dst_ip_set;

	/* a loopback test to a multicast group (nb_mcast.h): which
	 * receiving ports join it (--join), with which IGMP (--igmp) */
	int join_mode; /* NB_JOIN_ALL (the default), NB_JOIN_NONE, _LIST */
	uint16_t nb_join;
	uint16_t join_ports[NB_MAX_PORTS];
	int igmp_version; /* 2 or 3 [3]; IPv6 groups: MLDv2 */

	/* security: parsed by nb_opt_peer.c, used by app/peer */
	char auth_key[256];	 /* --auth-key FILE (client and responder) */
	uint8_t psk[NB_MAX_PSK]; /* the key: FILE's bytes, one trailing
				  * newline (LF or CRLF) stripped */
	uint32_t psk_len;	 /* 0: no key */
	uint32_t nb_allow;	 /* responder: --allow entries; 0 = anyone */
	struct nb_allow allow[NB_MAX_ALLOW];
	uint32_t nb_allow_vlan; /* responder: --allow-vlan ids */
	uint16_t allow_vlan[NB_MAX_ALLOW_VLAN];
	struct nb_rate_spec max_rate; /* responder: --max-rate, the most it
				       * sends or accepts [10G]; kind is
				       * NB_RATE_BPS_L1/L2 or NB_RATE_PPS */
	double max_time;	      /* responder: --max-time, longest test it
				       * runs, omit included [3600] */
	int allow_quit;		      /* responder: --allow-quit */
	int no_auth; /* responder: --no-auth: serve keyless clients (else a
		      * key is made at start when --auth-key is not given) */
	char key_made[256];	     /* responder: the key file it made at start
				      * ("" when none), removed at exit */
	struct nb_impair_cfg impair; /* responder: --impair */

	/* suites (RFC 2544, nb_suite_opts.c); loopback and reflector */
	unsigned int suite;    /* NB_SUITE_* bits; 0: one test */
	struct nb_sweep sweep; /* sizes run one after another; n 0: the
				* --size list is one test's mix */
	int size_given;	       /* --size was given */
	double trial_time;     /* --trial-time: a final trial [60] */
	double first_trial;    /* the first phase's trials [1] */
	double settle;	       /* --settle: pause between trials [2] */
	int settle_set;
	uint32_t nb_tol; /* --loss-tolerance: ascending ratios */
	double loss_tol[NB_SEARCH_MAX_GOALS];
	struct nb_rate_spec precision; /* --precision; MAX kind: default */
	double latency_load; /* --latency-load: share of throughput [0.9] */
	double loss_step;    /* --loss-step: ladder step [0.1] */
	uint32_t trials;     /* --trials: back-to-back repeats [50] */
	/* RFC 2889 5.7/5.8 (nb_rfc2889_addr.c): --addresses (5.7: the
	 * search's maximum [65536]; 5.8: how many to learn), --aging (the
	 * switch's ageing time, waited out before each trial), the
	 * learning, test and monitor ports of --ports L,T,M */
	uint32_t addresses;
	int addresses_set;
	double aging; /* seconds */
	int aging_set;
	uint16_t addr_port[3];
	/* how many copies of each frame sent may arrive (0: one, or one per
	 * receiving port of a fan-out): an address trial's test phase sets
	 * 2 (at the learning port, and flooded at the monitor port) */
	uint16_t rx_copies;
	const char *suite_opt; /* the first suite option given (for the
				* message when --test is missing) */

	/* output */
	int json;	 /* one JSON document on stdout */
	int json_stream; /* JSON lines: one object per event */
	int csv;	 /* CSV rows: one per interval per stream */
	int quiet;	 /* no header, intervals or progress line */
	int per_queue;	 /* text: queue rows under each interval */
	int hw_rate;	 /* --hw-rate: the NIC's per-queue rate limiter */
	int gaps;	 /* --gaps: receivers time each stream's arrival gaps */
	char format;	 /* bitrate unit: 'a' adaptive, k m g t (bits), K M G
			  * T (bytes) as iperf3 -f */
	char logfile[256]; /* stdout appended here instead */
	struct nb_capture_spec
		capture; /* --capture: receivers' frames to pcap */
	struct nb_replayspec
		replay;	     /* --replay: a pcap's frames as the stream */
	char json_file[256]; /* the JSON document also written here */
	char config[256];    /* --config INI file */

	/* --serve: tests on request over an API socket (nb_api.h) */
	int serve;
	char api_path[108]; /* --api unix:PATH (empty: the default path) */
	uint32_t api_ip;    /* --api tcp:IPV4:PORT (host order; port 0:
			     * unix) */
	uint16_t api_port;
	/* --metrics tcp:IPV4:PORT: /metrics over HTTP (port 0: none) */
	uint32_t metrics_ip;
	uint16_t metrics_port;

	int help;
	int version;

	/* Which options were given (bit per table entry), to reject repeats;
	 * given: those that took effect (not a config file's "flag = false"),
	 * checked against the mode. */
	uint64_t seen[2];
	uint64_t given[2];
};

#endif /* NB_CONFIG_H */
