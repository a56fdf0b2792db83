/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The value parsers of the traffic, port, test-length and output options:
 * each turns one option's value into its config field or a reason.  The
 * table (nb_opt_table.c) points here; the peer's are in nb_opt_peer.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_frame.h"
#include "nb_opt_values.h"
#include "nb_stack.h"
#include "nb_options.h"
#include "nb_portset.h"

#define WHY(...) snprintf(why, whylen, __VA_ARGS__)

int
nb_parse_port_list(const char *val, uint16_t *ports, uint16_t *nb, char *why,
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

int
nb_opt_list_ports(struct nb_config *cfg, const char *val, char *why,
		  size_t whylen)
{
	(void)val, (void)why, (void)whylen;
	if (cfg->mode == NB_MODE_LOOPBACK) {
		WHY("cannot be combined with --tx-port/--rx-port");
		return -EINVAL;
	}
	cfg->mode = NB_MODE_PORTS;
	return 0;
}

int
nb_opt_tx_port(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (cfg->mode == NB_MODE_PORTS) {
		WHY("cannot be combined with --list-ports");
		return -EINVAL;
	}
	cfg->mode = NB_MODE_LOOPBACK;
	return nb_parse_port_list(val, cfg->tx_ports, &cfg->nb_tx_ports, why,
				  whylen);
}

int
nb_opt_rx_port(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (cfg->mode == NB_MODE_PORTS) {
		WHY("cannot be combined with --list-ports");
		return -EINVAL;
	}
	cfg->mode = NB_MODE_LOOPBACK;
	return nb_parse_port_list(val, cfg->rx_ports, &cfg->nb_rx_ports, why,
				  whylen);
}

int
nb_opt_join(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	cfg->nb_join = 0;
	if (strcmp(val, "all") == 0 || strcmp(val, "none") == 0) {
		cfg->join_mode = val[0] == 'a' ? NB_JOIN_ALL : NB_JOIN_NONE;
		return 0;
	}
	cfg->join_mode = NB_JOIN_LIST;
	if (val[0] < '0' || val[0] > '9') {
		WHY("expected all, none or receiving ports such as 1,2");
		return -EINVAL;
	}
	return nb_parse_port_list(val, cfg->join_ports, &cfg->nb_join, why,
				  whylen);
}

int
nb_opt_igmp(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (strcmp(val, "2") != 0 && strcmp(val, "3") != 0) {
		WHY("expected 2 or 3 (the IGMP version of the reports)");
		return -EINVAL;
	}
	cfg->igmp_version = val[0] - '0';
	return 0;
}

/* A rate, and why it is refused: a reason for a value, examples for syntax. */
int
nb_opt_rate_value(const char *val, struct nb_rate_spec *r, char *why,
		  size_t whylen)
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

int
nb_opt_rate(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return nb_opt_rate_value(val, &cfg->rate, why, whylen);
}

int
nb_opt_size(struct nb_config *cfg, const char *val, char *why, size_t whylen)
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

int
nb_opt_proto(struct nb_config *cfg, const char *val, char *why, size_t whylen)
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

/* A count 1..max, for --streams, --max-streams and --queues. */
int
nb_opt_count(uint32_t *dst, uint32_t max, const char *val, char *why,
	     size_t whylen)
{
	if (nb_parse_u32(val, 1, max, dst) != 0) {
		WHY("expected 1..%u", max);
		return -EINVAL;
	}
	return 0;
}

int
nb_opt_streams(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return nb_opt_count(&cfg->streams, NB_MAX_STREAMS, val, why, whylen);
}

int
nb_opt_vlan(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	uint32_t v;

	/* OUTER.INNER: QinQ, as --qinq OUTER,INNER */
	if (strchr(val, '.') != NULL) {
		char q[32];

		if (strlen(val) >= sizeof(q) || strchr(val, ',') != NULL) {
			WHY("expected a VLAN id 1..4094, or OUTER.INNER");
			return -EINVAL;
		}
		strcpy(q, val);
		*strchr(q, '.') = ',';
		return nb_opt_qinq(cfg, q, why, whylen);
	}
	if (nb_parse_u32(val, 1, 4094, &v) != 0) {
		WHY("expected a VLAN id 1..4094, or OUTER.INNER (QinQ)");
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

/* An IPv4 address into *v4, or an IPv6 one into *v6. */
static int
opt_ip46(uint32_t *v4, struct nb_ip *v6, const char *val, char *why,
	 size_t whylen)
{
	if (strchr(val, ':') == NULL)
		return opt_ip(v4, val, why, whylen);
	if (nb_opt_ipv6_addr(v6, val) != 0) {
		WHY("expected an IPv4 address such as 198.18.0.1 or an IPv6 "
		    "one such as 2001:2::1");
		return -EINVAL;
	}
	return 0;
}

int
nb_opt_src_ip(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return opt_ip46(&cfg->src_ip, &cfg->stack.src6, val, why, whylen);
}

int
nb_opt_dst_ip(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	cfg->dst_ip_set = 1;
	return opt_ip46(&cfg->dst_ip, &cfg->stack.dst6, val, why, whylen);
}

int
nb_opt_my_ip(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	cfg->have_ip = 1;
	return opt_ip46(&cfg->ip, &cfg->ip6, val, why, whylen);
}

int
nb_opt_latency_rate(struct nb_config *cfg, const char *val, char *why,
		    size_t whylen)
{
	if (nb_parse_count(val, &cfg->latency_rate) != 0 ||
	    cfg->latency_rate == 0 || cfg->latency_rate > 1000000) {
		WHY("expected probes per second, 1..1M (K/M allowed)");
		return -EINVAL;
	}
	return 0;
}

int
nb_opt_window(struct nb_config *cfg, const char *val, char *why, size_t whylen)
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

int
nb_opt_cc(struct nb_config *cfg, const char *val, char *why, size_t whylen)
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

int
nb_opt_msg_size(struct nb_config *cfg, const char *val, char *why,
		size_t whylen)
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
opt_mac(uint8_t *dst, int *have, const char *val, char *why, size_t whylen)
{
	if (nb_parse_mac(val, dst) != 0) {
		WHY("expected a MAC address such as 02:00:00:00:00:01");
		return -EINVAL;
	}
	*have = 1;
	return 0;
}

int
nb_opt_src_mac(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return opt_mac(cfg->src_mac, &cfg->have_src_mac, val, why, whylen);
}

int
nb_opt_dst_mac(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return opt_mac(cfg->dst_mac, &cfg->have_dst_mac, val, why, whylen);
}

int
nb_opt_seconds(double *dst, double max, const char *val, char *why,
	       size_t whylen)
{
	double v;

	if (nb_parse_seconds(val, &v) != 0 || v > max) {
		WHY("expected seconds, 0..%g", max);
		return -EINVAL;
	}
	*dst = v;
	return 0;
}

int
nb_opt_time(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	cfg->duration_set = 1;
	if (nb_opt_seconds(&cfg->duration, NB_MAX_TIME, val, why, whylen) != 0)
		return -EINVAL;
	if (cfg->duration > 0 && cfg->duration < NB_MIN_TIME) {
		WHY("the shortest test is %g s (0 with --packets/--bytes: "
		    "until they are sent)",
		    NB_MIN_TIME);
		return -EINVAL;
	}
	return 0;
}

int
nb_opt_omit(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (nb_opt_seconds(&cfg->omit, 3600, val, why, whylen) != 0)
		return -EINVAL;
	if (cfg->omit > 0 && cfg->omit < NB_MIN_TIME) {
		WHY("the shortest warm-up is %g s (0 for none)", NB_MIN_TIME);
		return -EINVAL;
	}
	return 0;
}

int
nb_opt_interval(struct nb_config *cfg, const char *val, char *why,
		size_t whylen)
{
	cfg->interval_set = 1;
	if (nb_opt_seconds(&cfg->interval, 3600, val, why, whylen) != 0)
		return -EINVAL;
	if (cfg->interval != 0 && cfg->interval < 0.1) {
		WHY("the shortest interval is 0.1 s (0 turns intervals off)");
		return -EINVAL;
	}
	return 0;
}

int
nb_opt_link_timeout(struct nb_config *cfg, const char *val, char *why,
		    size_t whylen)
{
	return nb_opt_seconds(&cfg->link_timeout, 600, val, why, whylen);
}

int
nb_opt_drain(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return nb_opt_seconds(&cfg->drain, 60, val, why, whylen);
}

int
nb_opt_packets(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (nb_parse_count(val, &cfg->packets) != 0 || cfg->packets == 0 ||
	    cfg->packets > NB_MAX_PACKETS) {
		WHY("expected a packet count 1..100000G (1e14), K/M/G allowed "
		    "(10M)");
		return -EINVAL;
	}
	return 0;
}

int
nb_opt_bytes(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (nb_parse_bytes(val, &cfg->bytes) != 0 || cfg->bytes == 0 ||
	    cfg->bytes > NB_MAX_BYTES) {
		WHY("expected a byte count 1..1048576G (2^50), K/M/G allowed "
		    "(1G = 2^30)");
		return -EINVAL;
	}
	return 0;
}

int
nb_opt_queues(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return nb_opt_count(&cfg->queues, NB_MAX_QUEUES, val, why, whylen);
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

int
nb_opt_rxd(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return opt_desc(&cfg->rxd, val, why, whylen);
}

int
nb_opt_txd(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return opt_desc(&cfg->txd, val, why, whylen);
}

int
nb_opt_tx_checksum(struct nb_config *cfg, const char *val, char *why,
		   size_t whylen)
{
	if (nb_csum_mode_parse(val, &cfg->tx_csum) == 0)
		return 0;
	WHY("want auto, hw or sw");
	return -EINVAL;
}

int
nb_opt_flow_control(struct nb_config *cfg, const char *val, char *why,
		    size_t whylen)
{
	if (nb_fc_parse(val, &cfg->portset.fc) == 0)
		return 0;
	WHY("want on, off, rx or tx");
	return -EINVAL;
}

int
nb_opt_link_speed(struct nb_config *cfg, const char *val, char *why,
		  size_t whylen)
{
	if (nb_speed_parse(val, &cfg->portset.speed_mbps) == 0)
		return 0;
	WHY("want auto or a speed: 10M 100M 1G 2.5G 5G 10G 20G 25G 40G 50G "
	    "56G 100G 200G");
	return -EINVAL;
}

int
nb_opt_mtu(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (nb_mtu_parse(val, &cfg->portset.mtu) == 0)
		return 0;
	WHY("want %d-%d", NB_MTU_MIN, NB_MTU_MAX);
	return -EINVAL;
}

int
nb_opt_format(struct nb_config *cfg, const char *val, char *why, size_t whylen)
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

int
nb_opt_replay(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return nb_replayspec_parse(val, &cfg->replay, why, whylen);
}

int
nb_opt_replay_timing(struct nb_config *cfg, const char *val, char *why,
		     size_t whylen)
{
	if (nb_replay_timing_parse(val, &cfg->replay.timing) == 0)
		return 0;
	snprintf(why, whylen,
		 "expected rate (--rate paces the frames) or file (the gaps "
		 "between the file's timestamps)");
	return -EINVAL;
}

int
nb_opt_capture(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return nb_capture_spec_parse(val, &cfg->capture, why, whylen);
}

int
nb_opt_logfile(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return set_path(cfg->logfile, sizeof(cfg->logfile), val, why, whylen);
}

int
nb_opt_json_file(struct nb_config *cfg, const char *val, char *why,
		 size_t whylen)
{
	return set_path(cfg->json_file, sizeof(cfg->json_file), val, why,
			whylen);
}

int
nb_opt_config(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return set_path(cfg->config, sizeof(cfg->config), val, why, whylen);
}
