/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nb_frame.h"
#include "nb_options.h"
#include "nb_portset.h"
#include "nb_suite_opts.h"

#define WHY(...) snprintf(why, whylen, __VA_ARGS__)

static int
parse_port_list(const char *val, uint16_t *ports, uint16_t *nb, char *why,
		size_t whylen)
{
	char buf[256], *tok, *save = NULL;
	uint32_t id;
	uint16_t i, n = 0;

	if (strlen(val) >= sizeof(buf) || val[0] == '\0') {
		WHY("expected a port id or a comma-separated list such as 0,1");
		return -EINVAL;
	}
	strcpy(buf, val);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		if (nb_parse_u32(tok, 0, NB_MAX_PORTS - 1, &id) != 0) {
			WHY("'%s' is not a port id (0..%d)", tok,
			    NB_MAX_PORTS - 1);
			return -EINVAL;
		}
		for (i = 0; i < n; i++) {
			if (ports[i] == id) {
				WHY("port %u is listed twice", id);
				return -EINVAL;
			}
		}
		ports[n++] = (uint16_t)id;
	}
	/* A trailing or doubled comma leaves an empty element. */
	if (val[strlen(val) - 1] == ',' || strstr(val, ",,") != NULL ||
	    val[0] == ',') {
		WHY("empty element in port list");
		return -EINVAL;
	}
	*nb = n;
	return 0;
}

static int
opt_help(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	cfg->help = 1;
	return 0;
}

static int
opt_version(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	cfg->version = 1;
	return 0;
}

static int
opt_list_ports(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	if (cfg->mode == NB_MODE_LOOPBACK) {
		WHY("cannot be combined with --tx-port/--rx-port");
		return -EINVAL;
	}
	cfg->mode = NB_MODE_PORTS;
	return 0;
}

static int
opt_tx_port(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (cfg->mode == NB_MODE_PORTS) {
		WHY("cannot be combined with --list-ports");
		return -EINVAL;
	}
	cfg->mode = NB_MODE_LOOPBACK;
	return parse_port_list(val, cfg->tx_ports, &cfg->nb_tx_ports, why,
			       whylen);
}

static int
opt_rx_port(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (cfg->mode == NB_MODE_PORTS) {
		WHY("cannot be combined with --list-ports");
		return -EINVAL;
	}
	cfg->mode = NB_MODE_LOOPBACK;
	return parse_port_list(val, cfg->rx_ports, &cfg->nb_rx_ports, why,
			       whylen);
}

/* A rate, and why it is refused: a reason for a value, examples for syntax. */
static int
rate_value(const char *val, struct nb_rate_spec *r, char *why, size_t whylen)
{
	const char *reason;

	if (nb_parse_rate(val, r) == 0)
		return 0;
	reason = nb_rate_error(val);
	if (reason != NULL && reason[0] != '\0')
		WHY("%s", reason);
	else
		WHY("expected e.g. 10G, 2.5Gl2, 14.88Mpps, 50%% or max");
	return -EINVAL;
}

static int
opt_rate(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return rate_value(val, &cfg->rate, why, whylen);
}

static int
opt_size(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	int ret;

	cfg->size_given = 1;
	if (strchr(val, ':') != NULL) {
		/* a sweep: one test (or suite) per size */
		ret = nb_parse_size_range(val, NB_FRAME_MIN, NB_FRAME_MAX,
					  &cfg->sweep);
		if (ret == -ERANGE)
			WHY("a range's sizes are %d..%d, MIN <= MAX, at most "
			    "%d of them",
			    NB_FRAME_MIN, NB_FRAME_MAX, NB_MAX_SWEEP);
		else if (ret != 0)
			WHY("expected a range MIN:MAX:*FACTOR or MIN:MAX:+STEP "
			    "such as 64:1518:*2");
		else
			nb_parse_sizes("64", &cfg->sizes);
		if (ret == 0)
			cfg->sizes.sizes[0] = cfg->sweep.sizes[0];
		return ret ? -EINVAL : 0;
	}
	if (nb_parse_sizes(val, &cfg->sizes) != 0) {
		WHY("expected a frame size %d..%d (incl. FCS), a list such as "
		    "64,512,1518, imix, or a range 64:1518:*2",
		    NB_FRAME_MIN, NB_FRAME_MAX);
		return -EINVAL;
	}
	return 0;
}

static int
opt_impair(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return nb_impair_parse(val, &cfg->impair, why, whylen);
}

static int
opt_proto(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (strcmp(val, "udp") == 0) {
		cfg->proto = NB_IPPROTO_UDP;
	} else if (strcmp(val, "tcp") == 0) {
		cfg->proto = NB_IPPROTO_TCP;
	} else {
		WHY("expected udp or tcp");
		return -EINVAL;
	}
	return 0;
}

static int
opt_streams(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (nb_parse_u32(val, 1, NB_MAX_STREAMS, &cfg->streams) != 0) {
		WHY("expected 1..%d", NB_MAX_STREAMS);
		return -EINVAL;
	}
	return 0;
}

static int
opt_vlan(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	uint32_t v;

	if (nb_parse_u32(val, 1, 4094, &v) != 0) {
		WHY("expected a VLAN id 1..4094");
		return -EINVAL;
	}
	cfg->vlan_id = (uint16_t)v;
	return 0;
}

static int
opt_ip(uint32_t *dst, const char *val, char *why, size_t whylen)
{
	if (nb_parse_ipv4(val, dst) != 0) {
		WHY("expected an IPv4 address such as 198.18.0.1");
		return -EINVAL;
	}
	return 0;
}

static int
opt_src_ip(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return opt_ip(&cfg->src_ip, val, why, whylen);
}

static int
opt_dst_ip(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	cfg->dst_ip_set = 1;
	return opt_ip(&cfg->dst_ip, val, why, whylen);
}

static int opt_secs(double *dst, double max, const char *val, char *why,
		    size_t whylen);

static int
opt_my_ip(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	cfg->have_ip = 1;
	return opt_ip(&cfg->ip, val, why, whylen);
}

static int
opt_flag(int *dst)
{
	*dst = 1;
	return 0;
}

static int
opt_reverse(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	return opt_flag(&cfg->reverse);
}

static int
opt_bidir(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	return opt_flag(&cfg->bidir);
}

static int
opt_one_off(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	return opt_flag(&cfg->one_off);
}

static int
opt_latency_rate(struct nb_config *cfg, const char *val, char *why,
		 size_t whylen)
{
	if (nb_parse_count(val, &cfg->latency_rate) != 0 ||
	    cfg->latency_rate == 0 || cfg->latency_rate > 1000000) {
		WHY("expected probes per second, 1..1M (K/M allowed)");
		return -EINVAL;
	}
	return 0;
}

static int
opt_pingpong(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	return opt_flag(&cfg->pingpong);
}

static int
opt_tcp(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	return opt_flag(&cfg->tcp);
}

static int
opt_window(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	uint64_t v;

	if (nb_parse_bytes(val, &v) != 0 || v < 2048 || v > (1u << 30)) {
		WHY("expected a window of 2K..1G bytes (K/M/G = "
		    "2^10/2^20/2^30)");
		return -EINVAL;
	}
	cfg->tcp_window = (uint32_t)v;
	return 0;
}

static int
opt_delayed_ack(struct nb_config *cfg, const char *val, char *why,
		size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	return opt_flag(&cfg->tcp_delayed_ack);
}

static int
opt_cc(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (strcmp(val, "newreno") == 0) {
		cfg->tcp_cc = 0;
	} else if (strcmp(val, "cubic") == 0) {
		cfg->tcp_cc = 1;
	} else {
		WHY("expected newreno or cubic");
		return -EINVAL;
	}
	return 0;
}

static int
opt_msg_size(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	uint64_t v;
	int ret;

	if (strchr(val, ':') != NULL) {
		/* a sweep, as qperf's -oo msg_size:1:64K:*2 */
		ret = nb_parse_size_range(val, 1, 65535, &cfg->tcp_msgs);
		if (ret != 0) {
			WHY("expected a range MIN:MAX:*FACTOR or MIN:MAX:+STEP "
			    "of 1..65535 bytes (at most %d sizes), such as "
			    "1:65535:*2",
			    NB_MAX_SWEEP);
			return -EINVAL;
		}
		cfg->tcp_msg = cfg->tcp_msgs.sizes[0];
		return 0;
	}
	if (nb_parse_bytes(val, &v) != 0 || v < 1 || v > (1u << 20)) {
		WHY("expected 1..1M bytes (K/M = 2^10/2^20), or a range such "
		    "as 1:65535:*2");
		return -EINVAL;
	}
	cfg->tcp_msg = (uint32_t)v;
	return 0;
}

static int
opt_no_sack(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	return opt_flag(&cfg->tcp_no_sack);
}

static int
opt_max_streams(struct nb_config *cfg, const char *val, char *why,
		size_t whylen)
{
	if (nb_parse_u32(val, 1, NB_MAX_STREAMS, &cfg->max_streams) != 0) {
		WHY("expected 1..%d", NB_MAX_STREAMS);
		return -EINVAL;
	}
	return 0;
}

static int
opt_conf(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	return opt_flag(&cfg->conf);
}

static int
opt_quit(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	return opt_flag(&cfg->quit);
}

static int
opt_peer_timeout(struct nb_config *cfg, const char *val, char *why,
		 size_t whylen)
{
	if (opt_secs(&cfg->peer_timeout, 600, val, why, whylen) != 0)
		return -EINVAL;
	if (cfg->peer_timeout < 0.1) {
		WHY("at least 0.1 s");
		return -EINVAL;
	}
	return 0;
}

static int
opt_mac(uint8_t *dst, int *have, const char *val, char *why, size_t whylen)
{
	if (nb_parse_mac(val, dst) != 0) {
		WHY("expected a MAC address such as 02:00:00:00:00:01");
		return -EINVAL;
	}
	*have = 1;
	return 0;
}

static int
opt_src_mac(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return opt_mac(cfg->src_mac, &cfg->have_src_mac, val, why, whylen);
}

static int
opt_dst_mac(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return opt_mac(cfg->dst_mac, &cfg->have_dst_mac, val, why, whylen);
}

static int
opt_secs(double *dst, double max, const char *val, char *why, size_t whylen)
{
	double v;

	if (nb_parse_seconds(val, &v) != 0 || v > max) {
		WHY("expected seconds, 0..%g", max);
		return -EINVAL;
	}
	*dst = v;
	return 0;
}

static int
opt_time(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	cfg->duration_set = 1;
	if (opt_secs(&cfg->duration, NB_MAX_TIME, val, why, whylen) != 0)
		return -EINVAL;
	if (cfg->duration > 0 && cfg->duration < NB_MIN_TIME) {
		WHY("the shortest test is %g s (0 with --packets/--bytes: "
		    "until they are sent)",
		    NB_MIN_TIME);
		return -EINVAL;
	}
	return 0;
}

static int
opt_omit(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (opt_secs(&cfg->omit, 3600, val, why, whylen) != 0)
		return -EINVAL;
	if (cfg->omit > 0 && cfg->omit < NB_MIN_TIME) {
		WHY("the shortest warm-up is %g s (0 for none)", NB_MIN_TIME);
		return -EINVAL;
	}
	return 0;
}

static int
opt_interval(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	cfg->interval_set = 1;
	if (opt_secs(&cfg->interval, 3600, val, why, whylen) != 0)
		return -EINVAL;
	if (cfg->interval != 0 && cfg->interval < 0.1) {
		WHY("the shortest interval is 0.1 s (0 turns intervals off)");
		return -EINVAL;
	}
	return 0;
}

static int
opt_link_timeout(struct nb_config *cfg, const char *val, char *why,
		 size_t whylen)
{
	return opt_secs(&cfg->link_timeout, 600, val, why, whylen);
}

static int
opt_drain(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return opt_secs(&cfg->drain, 60, val, why, whylen);
}

static int
opt_packets(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (nb_parse_count(val, &cfg->packets) != 0 || cfg->packets == 0 ||
	    cfg->packets > NB_MAX_PACKETS) {
		WHY("expected a packet count 1..100000G (1e14), K/M/G allowed "
		    "(10M)");
		return -EINVAL;
	}
	return 0;
}

static int
opt_bytes(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (nb_parse_bytes(val, &cfg->bytes) != 0 || cfg->bytes == 0 ||
	    cfg->bytes > NB_MAX_BYTES) {
		WHY("expected a byte count 1..1048576G (2^50), K/M/G allowed "
		    "(1G = 2^30)");
		return -EINVAL;
	}
	return 0;
}

static int
opt_queues(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (nb_parse_u32(val, 1, NB_MAX_QUEUES, &cfg->queues) != 0) {
		WHY("expected 1..%d", NB_MAX_QUEUES);
		return -EINVAL;
	}
	return 0;
}

static int
opt_desc(uint32_t *dst, const char *val, char *why, size_t whylen)
{
	if (nb_parse_u32(val, 64, 16384, dst) != 0) {
		WHY("expected a descriptor count 64..16384");
		return -EINVAL;
	}
	return 0;
}

static int
opt_rxd(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return opt_desc(&cfg->rxd, val, why, whylen);
}

static int
opt_txd(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return opt_desc(&cfg->txd, val, why, whylen);
}

static int
opt_tx_checksum(struct nb_config *cfg, const char *val, char *why,
		size_t whylen)
{
	if (nb_csum_mode_parse(val, &cfg->tx_csum) == 0)
		return 0;
	WHY("want auto, hw or sw");
	return -EINVAL;
}

static int
opt_flow_control(struct nb_config *cfg, const char *val, char *why,
		 size_t whylen)
{
	if (nb_fc_parse(val, &cfg->portset.fc) == 0)
		return 0;
	WHY("want on, off, rx or tx");
	return -EINVAL;
}

static int
opt_link_speed(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (nb_speed_parse(val, &cfg->portset.speed_mbps) == 0)
		return 0;
	WHY("want auto or a speed: 10M 100M 1G 2.5G 5G 10G 20G 25G 40G 50G "
	    "56G 100G 200G");
	return -EINVAL;
}

static int
opt_mtu(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (nb_mtu_parse(val, &cfg->portset.mtu) == 0)
		return 0;
	WHY("want %d-%d", NB_MTU_MIN, NB_MTU_MAX);
	return -EINVAL;
}

static int
opt_peer(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (nb_parse_mac(val, cfg->peer_mac) == 0) {
		cfg->peer_is_ip = 0;
	} else if (nb_parse_ipv4(val, &cfg->peer_ip) == 0) {
		cfg->peer_is_ip = 1;
	} else {
		WHY("expected the peer's MAC address (02:00:00:00:00:02) or "
		    "IPv4 address (198.19.0.1)");
		return -EINVAL;
	}
	cfg->have_peer = 1;
	return 0;
}

static int
opt_reflector(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	cfg->reflector = 1;
	return 0;
}

static int
opt_port(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	uint32_t v;

	if (nb_parse_u32(val, 0, NB_MAX_PORTS - 1, &v) != 0) {
		WHY("expected a port id 0..%d", NB_MAX_PORTS - 1);
		return -EINVAL;
	}
	cfg->port = (uint16_t)v;
	cfg->have_port = 1;
	return 0;
}

static int
opt_json(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	cfg->json = 1;
	return 0;
}

static int
opt_json_stream(struct nb_config *cfg, const char *val, char *why,
		size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	cfg->json_stream = 1;
	return 0;
}

static int
opt_csv(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	cfg->csv = 1;
	return 0;
}

static int
opt_hw_rate(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	cfg->hw_rate = 1;
	return 0;
}

static int
opt_gaps(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	cfg->gaps = 1;
	return 0;
}

static int
opt_per_queue(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	cfg->per_queue = 1;
	return 0;
}

static int
opt_quiet(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	cfg->quiet = 1;
	return 0;
}

static int
opt_format(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (val[0] == '\0' || val[1] != '\0' ||
	    strchr("akmgtKMGT", val[0]) == NULL) {
		WHY("expected one of k m g t (Kbits..Tbits/sec), K M G T "
		    "(KBytes..TBytes/sec) or a (adaptive)");
		return -EINVAL;
	}
	cfg->format = val[0];
	return 0;
}

static int
set_path(char *dst, size_t len, const char *val, char *why, size_t whylen)
{
	if (val[0] == '\0' || strlen(val) >= len) {
		WHY("expected a file name of 1..%zu characters", len - 1);
		return -EINVAL;
	}
	strcpy(dst, val);
	return 0;
}

static int
opt_replay(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return nb_replayspec_parse(val, &cfg->replay, why, whylen);
}

static int
opt_replay_timing(struct nb_config *cfg, const char *val, char *why,
		  size_t whylen)
{
	if (nb_replay_timing_parse(val, &cfg->replay.timing) == 0)
		return 0;
	snprintf(why, whylen,
		 "expected rate (--rate paces the frames) or file (the gaps "
		 "between the file's timestamps)");
	return -EINVAL;
}

static int
opt_replay_stamp(struct nb_config *cfg, const char *val, char *why,
		 size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	cfg->replay.stamp = 1;
	return 0;
}

static int
opt_capture(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return nb_capspec_parse(val, &cfg->capture, why, whylen);
}

static int
opt_logfile(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return set_path(cfg->logfile, sizeof(cfg->logfile), val, why, whylen);
}

static int
opt_json_file(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return set_path(cfg->json_file, sizeof(cfg->json_file), val, why,
			whylen);
}

static int
opt_config(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return set_path(cfg->config, sizeof(cfg->config), val, why, whylen);
}

/*
 * --auth-key FILE: read now, before EAL starts.  A regular file of
 * NB_MIN_PSK..NB_MAX_PSK bytes once one trailing newline (LF or CRLF) is
 * dropped, that neither group nor others may read or write (as ssh
 * wants of a private key).  The key is used as it is, with no KDF: it
 * must be random (what a responder makes, or 32 bytes of /dev/urandom in
 * base64), not a passphrase (docs/security.md says why).
 */
static int
read_key(struct nb_config *cfg, const char *path, char *why, size_t whylen)
{
	uint8_t buf[NB_MAX_PSK + 3];
	struct stat st = {0};
	ssize_t n;
	size_t len = 0;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		WHY("cannot read key file %s: %s", path, strerror(errno));
		return -EINVAL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		WHY("key file %s is not a regular file%s", path,
		    S_ISDIR(st.st_mode) ? " (a directory)" : "");
		close(fd);
		return -EINVAL;
	}
	while (len < sizeof(buf)) {
		n = read(fd, buf + len, sizeof(buf) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			WHY("cannot read key file %s: %s", path,
			    strerror(errno));
			close(fd);
			return -EINVAL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (len > 0 && buf[len - 1] == '\n') {
		len--;
		if (len > 0 && buf[len - 1] == '\r')
			len--;
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		WHY("key file %s is open to group or others (mode %03o): "
		    "chmod 600 %s",
		    path, (unsigned int)(st.st_mode & 0777), path);
		return -EINVAL;
	}
	if (len < NB_MIN_PSK) {
		WHY("key file %s holds %zu bytes; a key is at least %d random "
		    "bytes (e.g. `(umask 077; head -c 32 /dev/urandom | "
		    "base64 > %s)`)",
		    path, len, NB_MIN_PSK, path);
		return -EINVAL;
	}
	if (len > NB_MAX_PSK) {
		WHY("key file %s holds more than %d bytes; a key is %d..%d "
		    "bytes",
		    path, NB_MAX_PSK, NB_MIN_PSK, NB_MAX_PSK);
		return -EINVAL;
	}
	memcpy(cfg->psk, buf, len);
	cfg->psk_len = (uint32_t)len;
	return 0;
}

static int
opt_auth_key(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (val[0] == '\0' || strlen(val) >= sizeof(cfg->auth_key)) {
		WHY("expected a file name of 1..%zu characters",
		    sizeof(cfg->auth_key) - 1);
		return -EINVAL;
	}
	if (read_key(cfg, val, why, whylen) != 0)
		return -EINVAL;
	strcpy(cfg->auth_key, val);
	return 0;
}

/* One --allow element: a unicast MAC, or IPv4[/LEN] with no host bits. */
static int
allow_one(struct nb_allow *a, const char *tok, char *why, size_t whylen)
{
	char ip[32];
	const char *slash = strchr(tok, '/');
	uint32_t len = 32, addr;
	size_t n = slash ? (size_t)(slash - tok) : strlen(tok);

	memset(a, 0, sizeof(*a));
	if (nb_parse_mac(tok, a->mac) == 0) {
		static const uint8_t zero[6];

		if (memcmp(a->mac, zero, 6) == 0 || (a->mac[0] & 1)) {
			WHY("%s is a %s MAC address; a client has a unicast "
			    "one",
			    tok,
			    (a->mac[0] & 1) ? "multicast or broadcast"
					    : "zero");
			return -EINVAL;
		}
		return 0;
	}
	if (n < sizeof(ip)) {
		memcpy(ip, tok, n);
		ip[n] = '\0';
	}
	if (n >= sizeof(ip) || nb_parse_ipv4(ip, &addr) != 0) {
		WHY("'%s' is neither a MAC address (02:00:00:00:00:01) nor "
		    "an IPv4 address or prefix (198.18.0.1, 198.18.0.0/15)",
		    tok);
		return -EINVAL;
	}
	if (slash != NULL && nb_parse_u32(slash + 1, 0, 32, &len) != 0) {
		WHY("'%s': a prefix length is 0..32", tok);
		return -EINVAL;
	}
	a->is_ip = 1;
	a->mask = len == 0 ? 0 : UINT32_MAX << (32 - len);
	a->ip = addr;
	if (addr & ~a->mask) {
		uint32_t net = addr & a->mask;

		WHY("'%s' has host bits set: did you mean %u.%u.%u.%u/%u?", tok,
		    net >> 24, (net >> 16) & 255, (net >> 8) & 255, net & 255,
		    len);
		return -EINVAL;
	}
	return 0;
}

/*
 * A repeatable option whose value may also be a comma-separated list (the
 * form a config file uses; "a, b" is naturally written there): each
 * element, trimmed, to one(cfg, element).  what names the elements in
 * the message for a malformed list.
 */
static int
each_in_list(struct nb_config *cfg, const char *val, const char *what,
	     int (*one)(struct nb_config *, const char *, char *, size_t),
	     char *why, size_t whylen)
{
	char buf[1024], *tok, *save = NULL;
	size_t n = strlen(val);

	if (n == 0 || n >= sizeof(buf) || val[0] == ',' || val[n - 1] == ',' ||
	    strstr(val, ",,") != NULL) {
		WHY("expected %s, or a comma-separated list of them, without "
		    "empty elements",
		    what);
		return -EINVAL;
	}
	strcpy(buf, val);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		tok += strspn(tok, " \t");
		n = strlen(tok);
		while (n > 0 && (tok[n - 1] == ' ' || tok[n - 1] == '\t'))
			tok[--n] = '\0';
		if (n == 0) {
			WHY("empty element in the list");
			return -EINVAL;
		}
		if (one(cfg, tok, why, whylen) != 0)
			return -EINVAL;
	}
	return 0;
}

static int
allow_entry(struct nb_config *cfg, const char *tok, char *why, size_t whylen)
{
	if (cfg->nb_allow >= NB_MAX_ALLOW) {
		WHY("more than %d --allow entries", NB_MAX_ALLOW);
		return -EINVAL;
	}
	if (allow_one(&cfg->allow[cfg->nb_allow], tok, why, whylen))
		return -EINVAL;
	cfg->nb_allow++;
	return 0;
}

/* --allow MAC|IP[/LEN], repeatable, or a list */
static int
opt_allow(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return each_in_list(cfg, val, "a MAC address or IPv4[/LEN]",
			    allow_entry, why, whylen);
}

static int
allow_vlan_entry(struct nb_config *cfg, const char *tok, char *why,
		 size_t whylen)
{
	uint32_t v;

	if (nb_parse_u32(tok, 1, 4094, &v) != 0) {
		WHY("'%s' is not a VLAN id 1..4094", tok);
		return -EINVAL;
	}
	if (cfg->nb_allow_vlan >= NB_MAX_ALLOW_VLAN) {
		WHY("more than %d --allow-vlan ids", NB_MAX_ALLOW_VLAN);
		return -EINVAL;
	}
	cfg->allow_vlan[cfg->nb_allow_vlan++] = (uint16_t)v;
	return 0;
}

/* --allow-vlan ID, repeatable, or a list */
static int
opt_allow_vlan(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return each_in_list(cfg, val, "a VLAN id 1..4094", allow_vlan_entry,
			    why, whylen);
}

static int
opt_max_rate(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	struct nb_rate_spec r;

	if (rate_value(val, &r, why, whylen) != 0)
		return -EINVAL;
	if (r.kind == NB_RATE_MAX || r.kind == NB_RATE_PERCENT) {
		WHY("a responder's cap must be absolute: bits/s (10G, 9.5Gl2) "
		    "or packets/s (14.88Mpps), not %s",
		    r.kind == NB_RATE_MAX ? "max" : "a percentage of the link");
		return -EINVAL;
	}
	cfg->max_rate = r;
	return 0;
}

static int
opt_max_time(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (opt_secs(&cfg->max_time, NB_MAX_TIME, val, why, whylen) != 0)
		return -EINVAL;
	if (cfg->max_time < 1) {
		WHY("expected seconds, 1..%g", NB_MAX_TIME);
		return -EINVAL;
	}
	return 0;
}

static int
opt_allow_quit(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	return opt_flag(&cfg->allow_quit);
}

static int
opt_no_auth(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	return opt_flag(&cfg->no_auth);
}

#define HEADING(title)                                                         \
	{                                                                      \
		NULL, 0, NULL, NULL, title, 0, 0                               \
	}

const struct nb_option nb_options[] = {
	HEADING("General"),
	{"help", 'h', NULL, opt_help, "show this help and exit",
	 NB_OPT_CLI_ONLY, NB_IN_ALL},
	{"version", 'V', NULL, opt_version, "show the version and exit",
	 NB_OPT_CLI_ONLY, NB_IN_ALL},
	{"config", 0, "FILE", opt_config,
	 "read options from an INI file (keys are these long names); the "
	 "command line wins",
	 NB_OPT_CLI_ONLY, NB_IN_ALL},
	{"list-ports", 0, NULL, opt_list_ports,
	 "bring every port up, report driver, MAC, link and NUMA node, exit", 0,
	 NB_IN_PORTS},
	HEADING("Loopback test (ports of this process)"),
	{"tx-port", 0, "LIST", opt_tx_port,
	 "loopback test: ports that transmit, e.g. 0 or 0,2", 0, NB_IN_LOOP},
	{"rx-port", 0, "LIST", opt_rx_port,
	 "loopback test: ports that receive, e.g. 1 or 1,3; alone, a "
	 "receive-only test of another generator's frames",
	 0, NB_IN_LOOP},
	HEADING("Peer test (client, responder, reflector)"),
	{"peer", 'c', "MAC|IP", opt_peer,
	 "client: the responder's MAC, or its IPv4 address (found by ARP); "
	 "with --reflector, the MAC of a peer that swaps MACs and returns "
	 "every frame (e.g. testpmd macswap)",
	 0, NB_IN_CLI | NB_IN_REFL},
	{"reflector", 0, NULL, opt_reflector,
	 "the peer is a reflector: no negotiation; throughput, loss and "
	 "RTT come from the returned frames",
	 0, NB_IN_REFL},
	{"port", 'p', "ID", opt_port, "the port facing the peer [0]", 0,
	 NB_IN_CLI | NB_IN_REFL | NB_IN_RSP},
	{"reverse", 'R', NULL, opt_reverse,
	 "peer test: the responder sends, this side receives", 0, NB_IN_CLI},
	{"bidir", 0, NULL, opt_bidir, "peer test: both sides send", 0,
	 NB_IN_CLI},
	{"ip", 0, "IP", opt_my_ip,
	 "this side's IPv4 in peer mode, answered to ARP and ping "
	 "[client 198.18.0.1, responder 198.19.0.1]",
	 0, NB_IN_CLI | NB_IN_RSP},
	{"one-off", '1', NULL, opt_one_off,
	 "responder: serve one test, then exit", 0, NB_IN_RSP},
	{"latency-rate", 0, "N", opt_latency_rate,
	 "client: N latency probes per second ride along the test; the "
	 "responder's worker reflects each, the report gives the RTT",
	 0, NB_IN_CLI},
	{"pingpong", 0, NULL, opt_pingpong,
	 "client: a latency test of probes only, one outstanding at a time "
	 "(qperf udp_lat), for --time seconds; with --tcp, request and "
	 "response over each connection (qperf tcp_lat, netperf TCP_RR)",
	 0, NB_IN_CLI | NB_IN_LOOP},
	{"conf", 0, NULL, opt_conf,
	 "client: show both ends' configuration (qperf conf) and exit", 0,
	 NB_IN_CLI},
	{"quit", 0, NULL, opt_quit, "client: tell the responder to exit", 0,
	 NB_IN_CLI},
	{"peer-timeout", 0, "SECS", opt_peer_timeout,
	 "peer mode: how long without an answer means the peer is gone [2]", 0,
	 NB_IN_CLI | NB_IN_RSP},
	{"auth-key", 0, "FILE", opt_auth_key,
	 "client and responder: a shared key (32..1024 random bytes, one "
	 "trailing newline dropped) that both ends prove they hold; FILE "
	 "must be readable by its owner only [client: no key; responder: "
	 "a fresh key in /run/dpdk-nbench/PREFIX.key]",
	 0, NB_IN_CLI | NB_IN_RSP},
	HEADING("Responder policy"),
	{"allow", 0, "MAC|IP[/LEN]", opt_allow,
	 "serve only clients with this MAC or in this IPv4 prefix; repeat "
	 "for more (at most 32) [any key holder; with --no-auth, anyone]",
	 NB_OPT_REPEAT, NB_IN_RSP},
	{"allow-vlan", 0, "ID[,ID...]", opt_allow_vlan,
	 "data VLANs a client may ask for besides the responder's own "
	 "(--vlan, or untagged); repeat for more (at most 16) [none]",
	 NB_OPT_REPEAT, NB_IN_RSP},
	{"max-rate", 0, "RATE", opt_max_rate,
	 "reject tests asking it to send or receive faster than RATE: bits/s "
	 "(L1 or l2) or pps, not max or % [10G]",
	 0, NB_IN_RSP},
	{"max-time", 0, "SECS", opt_max_time,
	 "reject tests longer than SECS, warm-up included (1..2592000) "
	 "[3600]",
	 0, NB_IN_RSP},
	{"max-streams", 0, "N", opt_max_streams,
	 "reject tests with more streams than N [1024]", 0, NB_IN_RSP},
	{"impair", 0, "SPEC", opt_impair,
	 "a known-bad peer: drop=P|every=N,rate=R,dup=P,reorder=P,delay=USEC "
	 "applied to the data frames it receives and the probes it reflects, "
	 "each counted and reported to the client [none]",
	 0, NB_IN_RSP},
	{"allow-quit", 0, NULL, opt_allow_quit,
	 "obey a client's --quit (from a key holder; with --no-auth, from "
	 "anyone) [refused]",
	 0, NB_IN_RSP},
	{"no-auth", 0, NULL, opt_no_auth,
	 "serve clients without a key: any host on the segment may start "
	 "tests towards any address, up to the caps (then 1G and 60 s "
	 "unless given) [a key is needed]",
	 0, NB_IN_RSP},
	HEADING("Traffic"),
	{"rate", 'b', "RATE", opt_rate,
	 "total rate: 10G (L1 bits/s, default layer), 9.5Gl2 (L2 bits/s), "
	 "14.88Mpps, 50% (of link), max [max]",
	 0, NB_IN_TEST},
	{"size", 'l', "SIZES", opt_size,
	 "frame size incl. FCS (64..9000), a list 64,512,1518, or imix [64]", 0,
	 NB_IN_TEST | NB_IN_RSP},
	{"proto", 0, "udp|tcp", opt_proto, "L4 protocol of data frames [udp]",
	 0, NB_IN_TEST},
	{"streams", 'P', "N", opt_streams,
	 "streams (distinct UDP/TCP source ports) [1]", 0, NB_IN_TEST},
	{"vlan", 0, "ID", opt_vlan, "add an 802.1Q tag with this VLAN id", 0,
	 NB_IN_TEST | NB_IN_RSP},
	{"src-ip", 0, "IP", opt_src_ip, "source IPv4 [198.18.0.1]", 0,
	 NB_IN_TEST},
	{"dst-ip", 0, "IP", opt_dst_ip, "destination IPv4 [198.19.0.1]", 0,
	 NB_IN_TEST},
	{"src-mac", 0, "MAC", opt_src_mac, "source MAC [the TX port's]", 0,
	 NB_IN_LOOP | NB_IN_REFL},
	{"dst-mac", 0, "MAC", opt_dst_mac,
	 "destination MAC [the RX port's in loopback]", 0,
	 NB_IN_LOOP | NB_IN_REFL},
	HEADING("Closed-loop TCP"),
	{"tcp", 0, NULL, opt_tcp,
	 "each stream one TCP connection, TX port to RX port (or to the "
	 "responder's port 5201): handshake, congestion control (SACK "
	 "recovery, else NewReno), retransmission, FIN; iperf3's Retr and "
	 "Cwnd (--bytes counts payload)",
	 0, NB_IN_LOOP | NB_IN_CLI},
	{"window", 'w', "BYTES", opt_window,
	 "--tcp: the window each receiver advertises, like iperf's -w [1M]", 0,
	 NB_IN_LOOP | NB_IN_CLI},
	{"delayed-ack", 0, NULL, opt_delayed_ack,
	 "--tcp: ACK every second full segment (or after 40 ms), not every one",
	 0, NB_IN_LOOP | NB_IN_CLI},
	{"cc", 0, "newreno|cubic", opt_cc,
	 "--tcp: congestion avoidance, NewReno's (RFC 5681) or CUBIC's (RFC "
	 "9438) [newreno]",
	 0, NB_IN_LOOP | NB_IN_CLI},
	{"msg-size", 0, "BYTES", opt_msg_size,
	 "--tcp --pingpong: bytes of each request and of each response [1]; "
	 "a range MIN:MAX:*F runs one test per size",
	 0, NB_IN_LOOP | NB_IN_CLI},
	{"no-sack", 0, NULL, opt_no_sack,
	 "--tcp: do not offer SACK: NewReno's recovery (RFC 6582)", 0,
	 NB_IN_LOOP | NB_IN_CLI},
	HEADING("Test length"),
	{"time", 't', "SECS", opt_time,
	 "test length in seconds [10; with --packets/--bytes: until sent]", 0,
	 NB_IN_TEST},
	{"packets", 'k', "N", opt_packets,
	 "send exactly N frames in total (K/M/G = 1e3/1e6/1e9)", 0, NB_IN_TEST},
	{"bytes", 'n', "N", opt_bytes,
	 "send N bytes of frames (incl. FCS) in total (K/M/G = "
	 "2^10/2^20/2^30)",
	 0, NB_IN_TEST},
	{"omit", 'O', "SECS", opt_omit,
	 "warm-up seconds sent first and left out of the results [0]", 0,
	 NB_IN_TEST},
	HEADING("Test suites (RFC 2544)"),
	{"test", 0, "SUITES", nb_opt_test,
	 "run trials instead of one test: throughput (the highest rate within "
	 "--loss-tolerance), latency, loss, back-to-back, or a list; rfc2544 "
	 "runs all four, per frame size",
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
	HEADING("Ports and queues"),
	{"queues", 'q', "N", opt_queues, "RX and TX queues per test port [1]",
	 0, NB_IN_TEST | NB_IN_RSP},
	{"rxd", 0, "N", opt_rxd, "RX descriptors per queue [1024]", 0,
	 NB_IN_ALL},
	{"txd", 0, "N", opt_txd, "TX descriptors per queue [1024]", 0,
	 NB_IN_ALL},
	{"tx-checksum", 0, "auto|hw|sw", opt_tx_checksum,
	 "UDP/TCP checksums of the generated frames: the NIC's TX checksum "
	 "offload where the device has it without leaving its vector TX "
	 "path (auto), always (hw: a port without it is refused) or never "
	 "(sw: computed per frame, incrementally) [auto]",
	 0, NB_IN_ALL},
	{"hw-rate", 0, NULL, opt_hw_rate,
	 "pace with the NIC's per-queue TX rate limiter (ixgbe) instead of "
	 "the software pacer; where a port has none, the software pacer, "
	 "told in the header and JSON",
	 0, NB_IN_TEST | NB_IN_RSP},
	{"flow-control", 0, "on|off|rx|tx", opt_flow_control,
	 "IEEE 802.3x pause frames on the test ports: both ways, none, "
	 "honour the partner's (rx) or send them (tx); refused on a port "
	 "without flow control [as the driver left it; reported]",
	 0, NB_IN_ALL},
	{"link-speed", 0, "SPEED|auto", opt_link_speed,
	 "fix the link speed (10M..200G; refused when the device does not "
	 "offer it) or autonegotiate [auto]",
	 0, NB_IN_ALL},
	{"mtu", 0, "N", opt_mtu,
	 "the test ports' MTU, at least what the largest --size needs "
	 "(set on the device: a kernel-backed port's interface too) "
	 "[what the frames need, at least 1500]",
	 0, NB_IN_ALL},
	{"link-timeout", 0, "SECS", opt_link_timeout,
	 "how long to wait for link up [10]", 0, NB_IN_ALL},
	{"drain", 0, "SECS", opt_drain,
	 "how long receivers keep counting after the senders stop [0.5]", 0,
	 NB_IN_TEST | NB_IN_RSP},
	HEADING("Output"),
	{"interval", 'i', "SECS", opt_interval,
	 "seconds between interval reports, 0 for none (a progress line "
	 "on a terminal) [1]",
	 0, NB_IN_TEST},
	{"format", 'f', "a|k|m|g|t|K|M|G|T", opt_format,
	 "bitrate unit in text output, as iperf3 -f: bits (k..t) or bytes "
	 "(K..T) per second, or a: the unit of the requested rate (of the "
	 "link at --rate max) for every line [a]",
	 0, NB_IN_TEST},
	{"gaps", 0, NULL, opt_gaps,
	 "the receiver times the gap between each stream's frames: their "
	 "p1/p50/p99 against the ideal gap of --rate, and the share within "
	 "+-64 ns and +-256 ns of it (a pacer's precision), in the report "
	 "and JSON; loopback tests",
	 0, NB_IN_LOOP},
	{"per-queue", 0, NULL, opt_per_queue,
	 "text output: under each interval line, a row per queue of each "
	 "port with more than one (sent, received, share, rate); JSON and "
	 "CSV have them always",
	 0, NB_IN_TEST},
	{"quiet", 0, NULL, opt_quiet,
	 "text output: only the final report (no header, intervals or "
	 "progress line)",
	 0, NB_IN_ALL},
	{"json", 'J', NULL, opt_json,
	 "print one JSON document on stdout (iperf3's shape) instead of "
	 "text",
	 0, NB_IN_ALL},
	{"json-stream", 0, NULL, opt_json_stream,
	 "print JSON lines on stdout: one object per event (start, "
	 "interval, end, error)",
	 0, NB_IN_ALL},
	{"csv", 0, NULL, opt_csv,
	 "print CSV on stdout: a header, then one row per interval per "
	 "stream and the end totals",
	 0, NB_IN_ALL},
	{"json-file", 0, "FILE", opt_json_file,
	 "also write the JSON document to FILE (whatever stdout shows)", 0,
	 NB_IN_ALL},
	{"logfile", 0, "FILE", opt_logfile,
	 "append what goes to stdout to FILE instead; logs stay on stderr", 0,
	 NB_IN_ALL},
	{"capture", 0, "FILE[,KEY=V]", opt_capture,
	 "write the frames the receivers take in to a pcap file (ns "
	 "timestamps), off the hot path: every=N (every Nth frame), count=N "
	 "(at most N), snaplen=B (bytes kept); frames the writer cannot take "
	 "are counted as capture drops [none]",
	 0, NB_IN_TEST | NB_IN_RSP},
	{"replay", 0, "FILE[,loop=N]", opt_replay,
	 "send a pcap file's frames (Ethernet, whole frames) as the test's "
	 "one stream, in the file's order, loop=N times through it (0: "
	 "until --time) [1]; paced by --rate (bits/s over the frames' mean "
	 "size) unless --replay-timing file; to a responder (--peer) with "
	 "--replay-stamp",
	 0, NB_IN_LOOP | NB_IN_CLI},
	{"replay-timing", 0, "rate|file", opt_replay_timing,
	 "--replay's pacing: rate (--rate, max when none) or file (the gaps "
	 "between the file's timestamps) [rate]",
	 0, NB_IN_LOOP | NB_IN_CLI},
	{"replay-stamp", 0, NULL, opt_replay_stamp,
	 "write the tool's stamp (stream 0, sequence, time) into every "
	 "replayed frame, so the receiver gives loss, reordering and latency; "
	 "needs IPv4 UDP frames with 14 payload bytes (they lose their UDP "
	 "checksum) [frames sent as recorded]",
	 0, NB_IN_LOOP | NB_IN_CLI},
};

const size_t nb_nb_options = sizeof(nb_options) / sizeof(nb_options[0]);

void
nb_config_defaults(struct nb_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->rate.kind = NB_RATE_MAX;
	nb_parse_sizes("64", &cfg->sizes);
	cfg->proto = NB_IPPROTO_UDP;
	cfg->streams = 1;
	cfg->src_ip = NB_DEFAULT_SRC_IP;
	cfg->dst_ip = NB_DEFAULT_DST_IP;
	cfg->duration = 10;
	cfg->interval = 1;
	cfg->queues = 1;
	cfg->rxd = 1024;
	cfg->txd = 1024;
	cfg->link_timeout = 10;
	cfg->drain = 0.5;
	cfg->tcp_window = 1u << 20;
	cfg->tcp_msg = 1;
	cfg->peer_timeout = 2;
	cfg->max_streams = NB_MAX_STREAMS;
	cfg->max_rate.kind = NB_RATE_BPS_L1;
	cfg->max_rate.value = 10e9;
	cfg->max_time = 3600;
	cfg->format = 'a';
	nb_suite_defaults(cfg);
}

int
nb_option_find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < nb_nb_options; i++) {
		if (nb_options[i].name != NULL &&
		    strlen(nb_options[i].name) == len &&
		    strncmp(nb_options[i].name, name, len) == 0)
			return (int)i;
	}
	return -1;
}

static int
find_short(char c)
{
	size_t i;

	for (i = 0; i < nb_nb_options; i++)
		if (nb_options[i].name != NULL && c != 0 &&
		    nb_options[i].short_name == c)
			return (int)i;
	return -1;
}

#define SEEN_WORD(i) ((i) / 64)
#define SEEN_BIT(i)  (UINT64_C(1) << ((i) % 64))

int
nb_option_apply(struct nb_config *cfg, size_t idx, const char *val,
		int from_file, char *err, size_t errlen)
{
	const struct nb_option *o = &nb_options[idx];
	char why[256] = "";

	if ((cfg->seen[SEEN_WORD(idx)] & SEEN_BIT(idx)) &&
	    !(o->flags & NB_OPT_REPEAT)) {
		snprintf(err, errlen, "%s '%s%s' given twice",
			 from_file ? "key" : "option", from_file ? "" : "--",
			 o->name);
		return -EINVAL;
	}
	cfg->seen[SEEN_WORD(idx)] |= SEEN_BIT(idx);
	cfg->given[SEEN_WORD(idx)] |= SEEN_BIT(idx);
	if (o->apply(cfg, val, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "bad value '%s' for %s '%s%s': %s",
			 val ? val : "", from_file ? "key" : "option",
			 from_file ? "" : "--", o->name, why);
		return -EINVAL;
	}
	return 0;
}

int
nb_options_parse(struct nb_config *cfg, int argc, char **argv, char *err,
		 size_t errlen)
{
	int i, idx;

	for (i = 1; i < argc; i++) {
		const char *tok = argv[i], *val = NULL, *eq;
		const struct nb_option *o;

		if (strncmp(tok, "--", 2) == 0 && tok[2] != '\0') {
			eq = strchr(tok + 2, '=');
			idx = nb_option_find(tok + 2,
					     eq ? (size_t)(eq - tok - 2)
						: strlen(tok + 2));
			if (eq != NULL)
				val = eq + 1;
		} else if (tok[0] == '-' && tok[1] != '\0' && tok[1] != '-') {
			/* -b 1G, or -b1G as getopt takes it */
			idx = find_short(tok[1]);
			if (tok[2] != '\0' && idx >= 0) {
				if (nb_options[idx].arg == NULL) {
					snprintf(err, errlen,
						 "option '-%c' takes no value "
						 "(in '%s'; flags are not "
						 "grouped)",
						 tok[1], tok);
					return -EINVAL;
				}
				val = tok + 2;
			}
		} else {
			snprintf(err, errlen,
				 "unexpected argument '%s' (options start with "
				 "--; see --help)",
				 tok);
			return -EINVAL;
		}
		if (idx < 0) {
			snprintf(err, errlen,
				 "unknown option '%s' (see --help)", tok);
			return -EINVAL;
		}
		o = &nb_options[idx];
		if (o->arg == NULL && val != NULL) {
			snprintf(err, errlen, "option '--%s' takes no value",
				 o->name);
			return -EINVAL;
		}
		if (o->arg != NULL && val == NULL) {
			if (i + 1 >= argc) {
				snprintf(err, errlen,
					 "option '%s' needs a value %s", tok,
					 o->arg);
				return -EINVAL;
			}
			val = argv[++i];
		}
		if (nb_option_apply(cfg, (size_t)idx, val, 0, err, errlen) != 0)
			return -EINVAL;
	}
	return 0;
}

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
		    !(cfg->given[SEEN_WORD(i)] & SEEN_BIT(i)) || (o->modes & m))
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

static int
check_client(const struct nb_config *cfg, char *err, size_t errlen)
{
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
	if (cfg->nb_tx_ports != cfg->nb_rx_ports) {
		snprintf(err, errlen,
			 "--tx-port and --rx-port must list the same number of "
			 "ports (TX port i faces RX port i)");
		return -EINVAL;
	}
	return 0;
}

static int given(const struct nb_config *cfg, const char *name);

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
			if (given(cfg, tcp_only[i])) {
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

/* The option was given (on the command line or in a config file). */
static int
given(const struct nb_config *cfg, const char *name)
{
	int i = nb_option_find(name, strlen(name));

	return i >= 0 && (cfg->given[SEEN_WORD(i)] & SEEN_BIT(i)) != 0;
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

int
nb_config_check(struct nb_config *cfg, char *err, size_t errlen)
{
	uint16_t i;

	if (cfg->help || cfg->version)
		return 0;
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
	if (derive_mode(cfg, err, errlen) != 0 ||
	    check_modes(cfg, err, errlen) != 0)
		return -EINVAL;
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
	if (cfg->mode == NB_MODE_CLIENT && check_client(cfg, err, errlen) != 0)
		return -EINVAL;
	for (i = 0; cfg->portset.mtu && i < cfg->sizes.nb_sizes; i++) {
		uint32_t mtu;

		if (nb_mtu_for(cfg->portset.mtu, cfg->sizes.sizes[i], &mtu, err,
			       errlen) != 0)
			return -EINVAL;
	}
	if (cfg->mode == NB_MODE_LOOPBACK &&
	    check_loopback(cfg, err, errlen) != 0)
		return -EINVAL;
	if (check_replay(cfg, err, errlen) != 0 ||
	    check_tcp(cfg, err, errlen) != 0 ||
	    check_rx_only(cfg, err, errlen) != 0)
		return -EINVAL;
	if (nb_suite_check(cfg, err, errlen) != 0)
		return -EINVAL;
	if (cfg->gaps && (cfg->suite || cfg->sweep.n)) {
		snprintf(err, errlen,
			 "--gaps times the frames of one test: not with --test "
			 "or a size sweep");
		return -EINVAL;
	}
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

int
nb_option_is_tool_only(const char *tok)
{
	const char *eq;
	int idx;

	if (strncmp(tok, "--", 2) != 0 || tok[2] == '\0')
		return 0;
	eq = strchr(tok + 2, '=');
	idx = nb_option_find(tok + 2,
			     eq ? (size_t)(eq - tok - 2) : strlen(tok + 2));
	if (idx < 0)
		return 0;
	/* EAL's own long options of the same name */
	return strcmp(nb_options[idx].name, "help") != 0 &&
	       strcmp(nb_options[idx].name, "allow") != 0;
}

void
nb_options_usage(FILE *f, const char *prog)
{
	size_t i;
	char left[64];

	fprintf(f,
		"Usage: %s [EAL options] -- [options]\n"
		"\n"
		"Kernel-bypass network tester.  EAL options (lcores, devices,\n"
		"hugepages) go before '--', the tool's own options after it.\n"
		"On a 2-CPU host map lcores as --lcores 0@0,1@0,2@0,3@1.\n"
		"\n",
		prog);
	for (i = 0; i < nb_nb_options; i++) {
		const struct nb_option *o = &nb_options[i];

		if (o->name == NULL) {
			fprintf(f, "%s%s:\n", i ? "\n" : "", o->help);
			continue;
		}
		if (o->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s",
				 o->short_name, o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(f, "  %-26s %s\n", left, o->help);
	}
	fprintf(f,
		"\nExit status: 0 ok, 1 runtime failure or interrupted, "
		"2 usage error.\n"
		"Example (loopback over a memif pair):\n"
		"  %s --no-pci --lcores 0@0,1@0,2@0,3@1 --file-prefix nb \\\n"
		"    --vdev net_memif0,role=server,socket=/tmp/nb.sock \\\n"
		"    --vdev net_memif1,role=client,socket=/tmp/nb.sock \\\n"
		"    -- --tx-port 0 --rx-port 1 --rate 1G --size 64 --time 5\n",
		prog);
}
