/* SPDX-License-Identifier: BSD-3-Clause */
/* A port's own counters and identity, copied out of ethdev (pure data). */
#ifndef NB_PMD_STATS_H
#define NB_PMD_STATS_H

#include <stdint.h>
#include <string.h>

#define NB_XSTATS_MAX 32
/* Queues with their own counters (DPDK's RTE_ETHDEV_QUEUE_STAT_CNTRS). */
#define NB_PMD_QUEUES 16

struct nb_xstat {
	char name[64];
	uint64_t value;
};

/*
 * The basic counters of struct nb_pmd_stats, in the order the reports and
 * the control protocol carry them: X(field) for each.
 */
/* clang-format off */
#define NB_PMD_COUNTERS(X) \
	X(ipackets) X(opackets) X(ibytes) X(obytes) \
	X(imissed) X(ierrors) X(oerrors) X(rx_nombuf)
/* clang-format on */

struct nb_pmd_stats {
	uint64_t ipackets, opackets, ibytes, obytes;
	uint64_t imissed, ierrors, oerrors, rx_nombuf;
	/* the driver's extended counters that tell of errors and drops */
	uint32_t nb_xstats;
	struct nb_xstat xstats[NB_XSTATS_MAX];
	/* per queue, where the driver counts them (0 where it does not) */
	uint64_t q_ipackets[NB_PMD_QUEUES], q_opackets[NB_PMD_QUEUES];
	uint64_t q_ibytes[NB_PMD_QUEUES], q_obytes[NB_PMD_QUEUES];
};

/*
 * Which extended statistics a report carries: the driver's counters of
 * errors, misses, drops and flow control (ixgbe rx_crc_errors,
 * i40e rx_discards, bnxt rx_drop_pkts, ...).  The rest are repeats of the
 * basic counters or per-queue detail.
 */
static inline int
nb_xstat_selected(const char *name)
{
	static const char *const words[] = {
		"error",   "miss",  "drop",	 "discard",  "nombuf",
		"no_mbuf", "crc",   "undersize", "oversize", "fragment",
		"jabber",  "pause", "xoff",	 "xon",	     "overrun",
		"fifo",	   NULL};
	int i;

	for (i = 0; words[i] != NULL; i++)
		if (strstr(name, words[i]) != NULL)
			return 1;
	return 0;
}

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

/* A bond's members and what each carried (the bond's counters are their
 * sums). */
#define NB_MAX_MEMBERS 8

struct nb_member_stats {
	uint16_t port_id;
	char name[64];
	int link_up, active;
	uint64_t ipackets, opackets, ibytes, obytes;
};

struct nb_bond_info {
	int mode; /* 0..6 as Linux bonding numbers them; -1: not a bond */
	int primary;
	uint16_t nb_members;
	struct nb_member_stats m[NB_MAX_MEMBERS];
};

/* "round-robin", "active-backup", ... for modes 0..6; "?" otherwise. */
static inline const char *
nb_bond_mode_name(int mode)
{
	static const char *const names[] = {
		"round-robin", "active-backup", "balance-xor", "broadcast",
		"802.3ad",     "tlb",		"alb",
	};

	return mode >= 0 && mode < 7 ? names[mode] : "?";
}

#endif /* NB_PMD_STATS_H */
