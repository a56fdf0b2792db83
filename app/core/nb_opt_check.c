/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The checks that need all options at once: the mode and what it implies,
 * options given for another mode, and the combinations each mode refuses
 * (TCP, replay, receive-only, client).  Each names the options involved.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_api_opts.h"
#include "nb_frame.h"
#include "nb_iperf3_proto.h"
#include "nb_mcast.h"
#include "nb_mesh.h"
#include "nb_rfc2889.h"
#include "nb_options.h"
#include "nb_flows_opt.h"
#include "nb_stack.h"
#include "nb_portset.h"
#include "nb_suite_opts.h"

/* The option was given (on the command line or in a config file). */
#define given(cfg, name) nb_option_given(cfg, name)

/* What each mode is called in messages: "for X, not Y". */
static const char *const mode_for[] = {
	[NB_MODE_PORTS] = "--list-ports",
	[NB_MODE_LOOPBACK] = "a loopback test (--tx-port/--rx-port)",
	[NB_MODE_REFLECTOR] = "a reflector test (--peer MAC --reflector)",
	[NB_MODE_CLIENT] = "a client (--peer MAC|IP)",
	[NB_MODE_RESPONDER] = "the responder (none of --tx-port, --rx-port, "
			      "--peer, --list-ports)",
};
static const char *const mode_not[] = {
	[NB_MODE_PORTS] = "--list-ports",
	[NB_MODE_LOOPBACK] = "a loopback test",
	[NB_MODE_REFLECTOR] = "a reflector test",
	[NB_MODE_CLIENT] = "a client",
	[NB_MODE_RESPONDER] = "the responder",
};

/* Every option given applies to the mode; else say which modes it is for. */
static int
check_modes(const struct nb_config *cfg, char *err, size_t errlen)
{
	static const enum nb_mode order[] = {
		NB_MODE_PORTS,	NB_MODE_LOOPBACK,  NB_MODE_REFLECTOR,
		NB_MODE_CLIENT, NB_MODE_RESPONDER,
	};
	unsigned int m = NB_IN(cfg->mode), k;
	size_t i, off;
	int first = 1;

	for (i = 0; i < nb_nb_options; i++) {
		const struct nb_option *o = &nb_options[i];

		if (o->name == NULL ||
		    !(cfg->given[NB_OPT_WORD(i)] & NB_OPT_BIT(i)) ||
		    (o->modes & m))
			continue;
		if (cfg->mode == NB_MODE_RESPONDER &&
		    (o->modes & (NB_IN_LOOP | NB_IN_CLI)) ==
			    (NB_IN_LOOP | NB_IN_CLI)) {
			snprintf(err, errlen,
				 "--%s is a test option: give --tx-port/"
				 "--rx-port (loopback) or --peer (client); "
				 "without them dpdk-nbench is a responder, "
				 "which takes each test from its client",
				 o->name);
			return -EINVAL;
		}
		off = (size_t)snprintf(err, errlen, "--%s is for ", o->name);
		for (k = 0;
		     k < sizeof(order) / sizeof(order[0]) && off < errlen;
		     k++) {
			if (!(o->modes & NB_IN(order[k])))
				continue;
			off += (size_t)snprintf(err + off, errlen - off, "%s%s",
						first ? "" : " or ",
						mode_for[order[k]]);
			first = 0;
		}
		if (off < errlen)
			snprintf(err + off, errlen - off, ", not %s",
				 mode_not[cfg->mode]);
		return -EINVAL;
	}
	return 0;
}

/* The mode from the options (and what --reflector implies). */
static int
derive_mode(struct nb_config *cfg, char *err, size_t errlen)
{
	int mesh = cfg->mesh.nb_ports || cfg->mesh.kind != NB_MESH_NONE;

	if (cfg->ip3_server) {
		if (cfg->iperf3 || cfg->have_peer ||
		    cfg->mode != NB_MODE_NONE || mesh) {
			snprintf(err, errlen,
				 "--iperf3-server is a responder of its own: "
				 "not with --iperf3, --peer, --tx-port, "
				 "--rx-port, --ports or --list-ports");
			return -EINVAL;
		}
		cfg->mode = NB_MODE_RESPONDER;
		return 0;
	}
	if (cfg->ip3_server_output && !cfg->iperf3) {
		snprintf(err, errlen,
			 "--get-server-output asks a stock iperf3 server: "
			 "it needs --iperf3");
		return -EINVAL;
	}
	if (cfg->iperf3) {
		if (cfg->have_peer || cfg->mode != NB_MODE_NONE || mesh) {
			snprintf(err, errlen,
				 "--iperf3 is a test of its own: not with "
				 "--peer, --tx-port, --rx-port, --ports or "
				 "--list-ports");
			return -EINVAL;
		}
		cfg->mode = NB_MODE_CLIENT;
		return 0;
	}
	if (cfg->have_peer) {
		if (cfg->mode != NB_MODE_NONE) {
			snprintf(err, errlen,
				 "--peer cannot be combined with --tx-port, "
				 "--rx-port or --list-ports");
			return -EINVAL;
		}
		if (!cfg->reflector) {
			cfg->mode = NB_MODE_CLIENT;
			return 0;
		}
		if (cfg->peer_is_ip) {
			snprintf(err, errlen,
				 "--reflector needs the peer's MAC address "
				 "(a reflector answers no ARP)");
			return -EINVAL;
		}
		cfg->mode = NB_MODE_REFLECTOR;
		cfg->nb_tx_ports = cfg->nb_rx_ports = 1;
		cfg->tx_ports[0] = cfg->rx_ports[0] = cfg->port;
		if (!cfg->have_dst_mac) {
			memcpy(cfg->dst_mac, cfg->peer_mac, 6);
			cfg->have_dst_mac = 1;
		}
		return 0;
	}
	if (cfg->reflector) {
		snprintf(err, errlen, "--reflector needs --peer MAC");
		return -EINVAL;
	}
	/* --ports without --peer: a test of this process's ports */
	if (mesh &&
	    (cfg->mode == NB_MODE_NONE || cfg->mode == NB_MODE_LOOPBACK))
		cfg->mode = NB_MODE_LOOPBACK;
	if (cfg->mode == NB_MODE_NONE) {
		if (cfg->reverse || cfg->bidir || cfg->conf || cfg->quit ||
		    cfg->latency_rate || cfg->pingpong) {
			snprintf(err, errlen,
				 "--reverse, --bidir, --conf, --quit, "
				 "--latency-rate and --pingpong need --peer "
				 "MAC|IP");
			return -EINVAL;
		}
		/* No test asked for: serve them, like iperf3 -s. */
		cfg->mode = NB_MODE_RESPONDER;
	}
	return 0;
}

/* --iperf3: what a stock iperf3 server can be asked for, as built. */
static int
check_iperf3(struct nb_config *cfg, char *err, size_t errlen)
{
	const char *no = cfg->reflector		   ? "--reflector"
			 : cfg->latency_rate	   ? "--latency-rate"
			 : cfg->pingpong	   ? "--pingpong"
			 : cfg->conf		   ? "--conf"
			 : cfg->quit		   ? "--quit"
			 : cfg->replay.active	   ? "--replay"
			 : cfg->suite		   ? "--test"
			 : cfg->sweep.n		   ? "a size sweep"
			 : cfg->flows.spec.n > 1   ? "--flows"
			 : cfg->sizes.nb_sizes > 1 ? "several --size values"
			 : cfg->stack.tun.kind	   ? "a tunnel"
			 : cfg->stack.family == 6  ? "IPv6"
						   : NULL;

	if (no != NULL) {
		snprintf(err, errlen,
			 "--iperf3 talks to a stock iperf3 server: not with "
			 "%s",
			 no);
		return -EINVAL;
	}
	if (cfg->reverse && cfg->bidir) {
		snprintf(err, errlen,
			 "--reverse and --bidir exclude each other");
		return -EINVAL;
	}
	/* iperf3's 128 streams, --bidir's both ways */
	if (cfg->streams * (cfg->bidir ? 2u : 1u) > NB_IP3_MAX_STREAMS) {
		snprintf(err, errlen,
			 "--iperf3 takes at most %d streams (%d with --bidir)",
			 NB_IP3_MAX_STREAMS, NB_IP3_MAX_STREAMS / 2);
		return -EINVAL;
	}
	cfg->ip3_window = given(cfg, "window") ? cfg->tcp_window : 0;
	return 0;
}

static int
check_client(struct nb_config *cfg, char *err, size_t errlen)
{
	if (cfg->iperf3)
		return check_iperf3(cfg, err, errlen);
	if (cfg->reverse && cfg->bidir) {
		snprintf(err, errlen,
			 "--reverse and --bidir exclude each other");
		return -EINVAL;
	}
	if ((cfg->latency_rate || cfg->pingpong) &&
	    (cfg->reverse || cfg->bidir)) {
		snprintf(err, errlen,
			 "latency probes (--latency-rate, --pingpong) ride "
			 "tests the client sends: not with --reverse/--bidir");
		return -EINVAL;
	}
	if (cfg->latency_rate && cfg->pingpong) {
		snprintf(err, errlen,
			 "--latency-rate and --pingpong exclude each other");
		return -EINVAL;
	}
	if (cfg->pingpong && (cfg->packets || cfg->bytes)) {
		snprintf(err, errlen,
			 "--pingpong runs for --time, not a --packets/--bytes "
			 "count");
		return -EINVAL;
	}
	if (cfg->pingpong && !cfg->tcp) {
		/* a probe is one mbuf: the first size, each size of a sweep */
		uint32_t i, biggest = cfg->sizes.sizes[0];

		for (i = 0; i < cfg->sweep.n; i++)
			if (cfg->sweep.sizes[i] > biggest)
				biggest = cfg->sweep.sizes[i];
		if (biggest > NB_PROBE_MAX) {
			snprintf(err, errlen,
				 "--pingpong probes are at most %u B (one "
				 "buffer), not %u",
				 NB_PROBE_MAX, biggest);
			return -EINVAL;
		}
	}
	return 0;
}

static int
check_loopback(const struct nb_config *cfg, char *err, size_t errlen)
{
	uint16_t i, j;

	/* --tcp with one side: a client of, or a listener for, another
	 * host's TCP */
	if (cfg->tcp && (cfg->nb_tx_ports == 0) != (cfg->nb_rx_ports == 0))
		return 0;
	/* --rx-port alone: a receive-only test of another generator's
	 * frames (check_rx_only) */
	if (cfg->nb_tx_ports == 0 && cfg->nb_rx_ports > 0)
		return 0;
	/* --ports: a port may send and receive (nb_mesh_check) */
	if (cfg->mesh.nb_pairs)
		return 0;
	if (cfg->nb_tx_ports == 0 || cfg->nb_rx_ports == 0) {
		snprintf(err, errlen,
			 "a loopback test needs --rx-port as well as "
			 "--tx-port (--rx-port alone is a receive-only test; "
			 "--tx-port alone only with --tcp)");
		return -EINVAL;
	}
	for (i = 0; i < cfg->nb_tx_ports; i++)
		for (j = 0; j < cfg->nb_rx_ports; j++)
			if (cfg->tx_ports[i] == cfg->rx_ports[j]) {
				snprintf(err, errlen,
					 "port %u is both --tx-port and "
					 "--rx-port; a loopback test needs two "
					 "ports facing each other",
					 cfg->tx_ports[i]);
				return -EINVAL;
			}
	/* to a group or a broadcast MAC: one sender, any receivers */
	if (cfg->nb_tx_ports == 1 && nb_mcast_fanout(cfg, NULL))
		return 0;
	if (cfg->nb_tx_ports != cfg->nb_rx_ports) {
		snprintf(err, errlen,
			 "--tx-port and --rx-port must list the same number of "
			 "ports (TX port i faces RX port i; one --tx-port may "
			 "face several with a multicast --dst-ip or a "
			 "broadcast --dst-mac)");
		return -EINVAL;
	}
	return 0;
}

/* --tcp and what goes with it: a closed loop has no pacer, no frame
 * count, no warm-up, one frame size (the MSS's) and one queue pair. */
static int
check_tcp(struct nb_config *cfg, char *err, size_t errlen)
{
	static const char *const tcp_only[] = {"window", "delayed-ack",
					       "no-sack", "msg-size", "cc"};
	static const struct {
		const char *opt, *why;
	} clash[] = {
		{"rate", "TCP's congestion control sets the rate"},
		{"packets", "give --bytes (payload) or --time"},
		{"omit", "no warm-up: the connections start in slow start"},
		{"replay", "the payload is TCP's"},
		{"queues", "one queue pair per port"},
		{"hw-rate", "nothing to pace"},
		{"capture", "not yet for TCP"},
		{"test", "suites send open-loop trials"},
		{"proto", "--tcp is TCP"},
		{"latency-rate", "the data carries its own stamps"},
		{"gaps", "TCP's sender is clocked by ACKs, not paced"},
	};
	size_t i;

	if (!cfg->tcp && cfg->pingpong && cfg->mode == NB_MODE_LOOPBACK) {
		snprintf(
			err, errlen,
			"--pingpong in a loopback is TCP's request/response: "
			"add --tcp (UDP ping-pong is a client's, with --peer)");
		return -EINVAL;
	}
	if (!cfg->tcp) {
		for (i = 0; i < sizeof(tcp_only) / sizeof(tcp_only[0]); i++)
			/* --iperf3: --window is iperf3's -w */
			if (given(cfg, tcp_only[i]) &&
			    !(cfg->iperf3 && i == 0)) {
				snprintf(err, errlen, "--%s goes with --tcp",
					 tcp_only[i]);
				return -EINVAL;
			}
		return 0;
	}
	for (i = 0; i < sizeof(clash) / sizeof(clash[0]); i++)
		if (given(cfg, clash[i].opt)) {
			snprintf(err, errlen,
				 "--tcp cannot be combined with --%s (%s)",
				 clash[i].opt, clash[i].why);
			return -EINVAL;
		}
	if (!given(cfg, "size")) { /* iperf's MSS of 1460 */
		cfg->sizes.nb_sizes = 1;
		cfg->sizes.sizes[0] = 1518;
	}
	if (cfg->sizes.nb_sizes != 1 || cfg->sweep.n) {
		snprintf(err, errlen,
			 "--tcp takes one --size: the largest frame, which "
			 "sets the MSS");
		return -EINVAL;
	}
	if (cfg->sizes.sizes[0] < 128) {
		snprintf(err, errlen,
			 "--tcp needs frames of at least 128 bytes (--size "
			 "sets the MSS; 1518 gives iperf's 1460)");
		return -EINVAL;
	}
	if (cfg->nb_tx_ports > 1 || cfg->nb_rx_ports > 1) {
		snprintf(err, errlen,
			 "--tcp connects one --tx-port to one --rx-port (or "
			 "either alone to another host)");
		return -EINVAL;
	}
	if (given(cfg, "msg-size") && !cfg->pingpong) {
		snprintf(err, errlen, "--msg-size goes with --pingpong");
		return -EINVAL;
	}
	if (cfg->pingpong && cfg->bytes) {
		snprintf(err, errlen,
			 "--pingpong runs for --time, not a --bytes count");
		return -EINVAL;
	}
	cfg->proto = NB_IPPROTO_TCP;
	return 0;
}

/* --rx-port alone (no --tcp): a receive-only test; what only a sender
 * has is a usage error. */
static int
check_rx_only(struct nb_config *cfg, char *err, size_t errlen)
{
	static const char *const sender_only[] = {
		"rate",	   "size",   "bytes",	    "omit",    "replay",
		"hw-rate", "test",   "impair",	    "src-mac", "dst-mac",
		"src-ip",  "dst-ip", "tx-checksum",
	};
	size_t i;

	cfg->rx_only = cfg->mode == NB_MODE_LOOPBACK && !cfg->tcp &&
		       cfg->nb_tx_ports == 0 && cfg->nb_rx_ports > 0;
	if (!cfg->rx_only)
		return 0;
	for (i = 0; i < sizeof(sender_only) / sizeof(sender_only[0]); i++)
		if (given(cfg, sender_only[i])) {
			snprintf(err, errlen,
				 "--%s is a sender's: a receive-only test "
				 "(--rx-port without --tx-port) takes what "
				 "arrives",
				 sender_only[i]);
			return -EINVAL;
		}
	if (cfg->sweep.n) {
		snprintf(err, errlen,
			 "a size sweep sends: not in a receive-only test");
		return -EINVAL;
	}
	if (cfg->gaps) {
		snprintf(err, errlen,
			 "--gaps needs this process's own sender (a loopback "
			 "with --tx-port): not yet in a receive-only test");
		return -EINVAL;
	}
	return 0;
}

/*
 * A client's replay: the file is this side's, so it goes forward; the
 * responder counts only frames with our stamp; every replayed frame's
 * stamp gives its latency, so no probes beside it.
 */
static int
check_client_replay(const struct nb_config *cfg, char *err, size_t errlen)
{
	const char *clash = NULL;

	if (!cfg->replay.stamp)
		clash = "needs --replay-stamp with --peer: a responder counts "
			"only frames that carry the tool's stamp";
	else if (cfg->reverse || cfg->bidir)
		clash = "goes from the client (the file is this side's): not "
			"with --reverse or --bidir";
	else if (cfg->latency_rate || cfg->pingpong)
		clash = "stamps every frame, so each gives its latency: not "
			"with "
			"--latency-rate or --pingpong";
	if (clash == NULL)
		return 0;
	snprintf(err, errlen, "--replay %s", clash);
	return -EINVAL;
}

/* --replay: one stream of the file's frames, on one TX port and queue. */
static int
check_replay(struct nb_config *cfg, char *err, size_t errlen)
{
	static const char *const frame_opts[] = {
		"proto", "vlan", "src-ip", "dst-ip", "src-mac", "dst-mac",
	};
	const struct nb_replayspec *r = &cfg->replay;
	const char *clash = NULL;
	size_t i;

	if (!r->active) {
		if (r->stamp || r->timing != NB_REPLAY_RATE) {
			snprintf(err, errlen,
				 "--replay-stamp and --replay-timing go with "
				 "--replay FILE");
			return -EINVAL;
		}
		return 0;
	}
	if (cfg->mode == NB_MODE_CLIENT &&
	    check_client_replay(cfg, err, errlen))
		return -EINVAL;
	for (i = 0; i < sizeof(frame_opts) / sizeof(frame_opts[0]); i++)
		if (given(cfg, frame_opts[i]) &&
		    /* a client's addresses are its session's, not the file's */
		    !(cfg->mode == NB_MODE_CLIENT &&
		      strstr(frame_opts[i], "-ip") != NULL)) {
			snprintf(err, errlen,
				 "--replay cannot be combined with --%s (the "
				 "file's frames are sent as they are)",
				 frame_opts[i]);
			return -EINVAL;
		}
	if (given(cfg, "streams") && cfg->streams != 1)
		clash = "--streams (a replay is one stream)";
	else if (given(cfg, "size"))
		clash = "--size (the file's frames have their sizes)";
	else if (cfg->queues > 1)
		clash = "--queues (a replay is sent on one queue)";
	else if (cfg->nb_tx_ports > 1)
		clash = "more than one --tx-port";
	else if (cfg->omit > 0)
		clash = "--omit (no warm-up frames)";
	else if (cfg->bytes)
		clash = "--bytes (give loop=N or --packets)";
	else if (cfg->hw_rate)
		clash = "--hw-rate (the NIC's limiter would be set for the "
			"largest frame, not the file's mix)";
	else if (cfg->suite || cfg->sweep.n)
		clash = "a suite or sweep";
	else if (cfg->gaps)
		clash = "--gaps (not yet for a replay)";
	else if (r->timing == NB_REPLAY_FILE && cfg->rate.kind != NB_RATE_MAX)
		clash = "--rate (--replay-timing file paces by the file)";
	if (clash != NULL) {
		snprintf(err, errlen, "--replay cannot be combined with %s",
			 clash);
		return -EINVAL;
	}
	return 0;
}

/* One output on stdout, and --quiet only for text. */
static int
check_output(const struct nb_config *cfg, char *err, size_t errlen)
{
	if (cfg->json + cfg->json_stream + cfg->csv > 1) {
		snprintf(err, errlen,
			 "--json, --json-stream and --csv each own stdout: "
			 "pick one (--json-file FILE adds the JSON document "
			 "to any of them)");
		return -EINVAL;
	}
	if (cfg->quiet && (cfg->json || cfg->json_stream || cfg->csv)) {
		snprintf(err, errlen,
			 "--quiet is for text output; --json, --json-stream "
			 "and --csv print no progress anyway");
		return -EINVAL;
	}
	return 0;
}

/* --no-auth: no key, and lower caps unless given. */
static int
check_auth(struct nb_config *cfg, char *err, size_t errlen)
{
	if (cfg->ip3_server && cfg->psk_len) {
		snprintf(err, errlen,
			 "--iperf3-server serves stock iperf3 clients, which "
			 "hold no key: not with --auth-key");
		return -EINVAL;
	}
	/* a stock iperf3 client is keyless: the keyless caps */
	if (cfg->ip3_server)
		cfg->no_auth = 1;
	if (cfg->no_auth && cfg->psk_len) {
		snprintf(err, errlen,
			 "--no-auth and --auth-key exclude each other");
		return -EINVAL;
	}
	if (cfg->no_auth && !given(cfg, "max-rate")) {
		cfg->max_rate.kind = NB_RATE_BPS_L1;
		cfg->max_rate.value = NB_NO_AUTH_MAX_RATE;
	}
	if (cfg->no_auth && !given(cfg, "max-time"))
		cfg->max_time = NB_NO_AUTH_MAX_TIME;
	return 0;
}

/* --mtu holds every frame size. */
static int
check_mtu(const struct nb_config *cfg, char *err, size_t errlen)
{
	uint32_t mtu;
	uint16_t i;

	for (i = 0; cfg->portset.mtu && i < cfg->sizes.nb_sizes; i++)
		if (nb_mtu_for(cfg->portset.mtu, cfg->sizes.sizes[i], &mtu, err,
			       errlen) != 0)
			return -EINVAL;
	return 0;
}

/* What ends the test: one of --time, --packets, --bytes. */
static int
check_length(const struct nb_config *cfg, char *err, size_t errlen)
{
	if (cfg->packets && cfg->bytes) {
		snprintf(err, errlen,
			 "--packets and --bytes exclude each other");
		return -EINVAL;
	}
	if (cfg->omit > 0 && (cfg->packets || cfg->bytes)) {
		snprintf(
			err, errlen,
			"--omit works with --time, not with --packets/--bytes");
		return -EINVAL;
	}
	if (cfg->duration_set && cfg->duration == 0 && !cfg->packets &&
	    !cfg->bytes) {
		snprintf(err, errlen,
			 "--time 0 needs --packets or --bytes to end the test");
		return -EINVAL;
	}
	return 0;
}

/* Each size holds the headers (and the tag, and the stamp). */
static int
check_frame_sizes(const struct nb_config *cfg, char *err, size_t errlen)
{
	uint16_t i;

	for (i = 0; i < cfg->sizes.nb_sizes; i++) {
		if (!nb_frame_size_ok(cfg->proto, cfg->vlan_id != 0,
				      cfg->sizes.sizes[i])) {
			snprintf(err, errlen, "frame size %u is too small",
				 cfg->sizes.sizes[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/* In this order: the first refusal is the one reported. */
int
nb_config_check(struct nb_config *cfg, char *err, size_t errlen)
{
	if (cfg->help || cfg->version)
		return 0;
	if (check_output(cfg, err, errlen) != 0 ||
	    derive_mode(cfg, err, errlen) != 0 ||
	    check_modes(cfg, err, errlen) != 0 ||
	    check_auth(cfg, err, errlen) != 0)
		return -EINVAL;
	if (cfg->mode == NB_MODE_CLIENT && check_client(cfg, err, errlen) != 0)
		return -EINVAL;
	if (check_mtu(cfg, err, errlen) != 0)
		return -EINVAL;
	if (nb_rfc2889_check(cfg, err, errlen) != 0)
		return -EINVAL;
	if (nb_mesh_opts_check(cfg, err, errlen) != 0)
		return -EINVAL;
	if (cfg->mode == NB_MODE_LOOPBACK &&
	    (nb_mesh_check(cfg, err, errlen) != 0 ||
	     check_loopback(cfg, err, errlen) != 0))
		return -EINVAL;
	if (check_replay(cfg, err, errlen) != 0 ||
	    check_tcp(cfg, err, errlen) != 0 ||
	    check_rx_only(cfg, err, errlen) != 0 ||
	    nb_suite_check(cfg, err, errlen) != 0)
		return -EINVAL;
	if (cfg->gaps && (cfg->suite || cfg->sweep.n)) {
		snprintf(err, errlen,
			 "--gaps times the frames of one test: not with --test "
			 "or a size sweep");
		return -EINVAL;
	}
	if (check_length(cfg, err, errlen) != 0 ||
	    nb_api_check(cfg, err, errlen) != 0 ||
	    nb_stack_check(cfg, err, errlen) != 0 ||
	    nb_flows_cfg_check(cfg, err, errlen) != 0 ||
	    nb_mcast_check(cfg, err, errlen) != 0 ||
	    check_frame_sizes(cfg, err, errlen) != 0)
		return -EINVAL;
	return 0;
}
