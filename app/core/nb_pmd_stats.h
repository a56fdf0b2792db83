/* SPDX-License-Identifier: BSD-3-Clause */
/* A port's own counters and identity, copied out of ethdev (pure data). */
#ifndef NB_PMD_STATS_H
#define NB_PMD_STATS_H

#include <stdint.h>

struct nb_pmd_stats {
	uint64_t ipackets, opackets, ibytes, obytes;
	uint64_t imissed, ierrors, oerrors, rx_nombuf;
};

struct nb_port_desc {
	uint16_t port_id;
	char name[64];
	char driver[32];
	uint8_t mac[6];
	int numa_node;	     /* -1 unknown */
	uint32_t link_speed; /* Mbit/s, 0 unknown */
	int link_up;
	int full_duplex;
	uint16_t nb_rxq, nb_txq;
	uint16_t mtu;
};

#endif /* NB_PMD_STATS_H */
