/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The value parsers the option table points at (nb_opt_table.c): one per
 * option that takes a value; flags need none (the table sets their int).
 * Each writes its field of the config, or a reason to why and -EINVAL.
 * Internal to the option files.  Pure.
 */
#ifndef NB_OPT_VALUES_H
#define NB_OPT_VALUES_H

#include <stddef.h>

#include "nb_config.h"

/* A value parser: the shape of struct nb_option's apply. */
#define NB_OPT_PARSER(fn)                                                      \
	int fn(struct nb_config *cfg, const char *val, char *why, size_t whylen)

/* Seconds 0..max into *dst, else a reason. */
int nb_opt_seconds(double *dst, double max, const char *val, char *why,
		   size_t whylen);

/* A list of distinct port ids 0..NB_MAX_PORTS-1 ("0,2,3"), else a
 * reason. */
int nb_parse_port_list(const char *val, uint16_t *ports, uint16_t *nb,
		       char *why, size_t whylen);

/* A count 1..max into *dst, else a reason. */
int nb_opt_count(uint32_t *dst, uint32_t max, const char *val, char *why,
		 size_t whylen);

/* A rate (--rate's syntax), else why it is refused. */
int nb_opt_rate_value(const char *val, struct nb_rate_spec *r, char *why,
		      size_t whylen);

/* Traffic, ports, length and output (nb_opt_values.c) */
NB_OPT_PARSER(nb_opt_list_ports);
NB_OPT_PARSER(nb_opt_tx_port);
NB_OPT_PARSER(nb_opt_rx_port);
NB_OPT_PARSER(nb_opt_join);
NB_OPT_PARSER(nb_opt_igmp);
NB_OPT_PARSER(nb_opt_rate);
NB_OPT_PARSER(nb_opt_size);
NB_OPT_PARSER(nb_opt_proto);
NB_OPT_PARSER(nb_opt_streams);
NB_OPT_PARSER(nb_opt_vlan);
NB_OPT_PARSER(nb_opt_src_ip);
NB_OPT_PARSER(nb_opt_dst_ip);
NB_OPT_PARSER(nb_opt_my_ip);
NB_OPT_PARSER(nb_opt_latency_rate);
NB_OPT_PARSER(nb_opt_window);
NB_OPT_PARSER(nb_opt_cc);
NB_OPT_PARSER(nb_opt_msg_size);
NB_OPT_PARSER(nb_opt_src_mac);
NB_OPT_PARSER(nb_opt_dst_mac);
NB_OPT_PARSER(nb_opt_time);
NB_OPT_PARSER(nb_opt_omit);
NB_OPT_PARSER(nb_opt_interval);
NB_OPT_PARSER(nb_opt_link_timeout);
NB_OPT_PARSER(nb_opt_drain);
NB_OPT_PARSER(nb_opt_packets);
NB_OPT_PARSER(nb_opt_bytes);
NB_OPT_PARSER(nb_opt_queues);
NB_OPT_PARSER(nb_opt_rxd);
NB_OPT_PARSER(nb_opt_txd);
NB_OPT_PARSER(nb_opt_tx_checksum);
NB_OPT_PARSER(nb_opt_flow_control);
NB_OPT_PARSER(nb_opt_link_speed);
NB_OPT_PARSER(nb_opt_mtu);
NB_OPT_PARSER(nb_opt_format);
NB_OPT_PARSER(nb_opt_replay);
NB_OPT_PARSER(nb_opt_replay_timing);
NB_OPT_PARSER(nb_opt_capture);
NB_OPT_PARSER(nb_opt_logfile);
NB_OPT_PARSER(nb_opt_json_file);
NB_OPT_PARSER(nb_opt_config);

/* Peer, key and responder policy (nb_opt_peer.c) */
NB_OPT_PARSER(nb_opt_impair);
NB_OPT_PARSER(nb_opt_max_streams);
NB_OPT_PARSER(nb_opt_peer_timeout);
NB_OPT_PARSER(nb_opt_peer);
NB_OPT_PARSER(nb_opt_iperf3);
NB_OPT_PARSER(nb_opt_iperf3_server);
NB_OPT_PARSER(nb_opt_api);
NB_OPT_PARSER(nb_opt_metrics);
NB_OPT_PARSER(nb_opt_port);
NB_OPT_PARSER(nb_opt_auth_key);
NB_OPT_PARSER(nb_opt_allow);
NB_OPT_PARSER(nb_opt_allow_vlan);
NB_OPT_PARSER(nb_opt_max_rate);
NB_OPT_PARSER(nb_opt_max_time);

#endif /* NB_OPT_VALUES_H */
