/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every option's default, set before the command line and the config file
 * are read (the values --help and the man page show in brackets).
 */
#include <string.h>

#include "nb_frame.h"
#include "nb_options.h"
#include "nb_suite_opts.h"

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
	cfg->igmp_version = 3;
	nb_suite_defaults(cfg);
}
