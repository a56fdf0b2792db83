/* SPDX-License-Identifier: BSD-3-Clause */
/* A port's own counters and identity, copied out of ethdev (pure data). */
#ifndef NB_PMD_STATS_H
#define NB_PMD_STATS_H

#include <stdint.h>
#include <string.h>

#define NB_XSTATS_MAX 48
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

/* 1 when `word` is in name directly followed by a digit (a per-queue,
 * per-priority or per-class counter: rx_q3_errors, rx_priority2_dropped,
 * rx_pfc_xon2xoff_frames_pri5, rx_bytes_cos1). */
static inline int
nb_xstat_indexed(const char *name, const char *word)
{
	size_t n = strlen(word);
	const char *p = name;

	while ((p = strstr(p, word)) != NULL) {
		if (p[n] >= '0' && p[n] <= '9')
			return 1;
		p++;
	}
	return 0;
}

/*
 * Which extended statistics a report carries: the driver's counters of
 * errors, misses, drops, malformed frames and flow control, in the names
 * DPDK 22.11's drivers give them (ixgbe rx_crc_errors and
 * rx_total_missed_packets, i40e rx_dropped_packets and
 * rx_unknown_protocol_packets, bnxt rx_fcs_err_frames, rx_ovrsz_frames
 * and rx_jbr_frames, bnx2x rx_buffer_drops and rx_buffer_truncates; see
 * tests/unit/test_output.c).  Left out: repeats of the basic counters,
 * and per-queue, per-priority and per-class detail (the report has room
 * for NB_XSTATS_MAX; ixgbe alone has 8 priorities x 5 pause counters),
 * flow director, FCoE and energy-saving counters.
 */
static inline int
nb_xstat_selected(const char *name)
{
	static const char *const words[] = {
		"error",       "_err",
		"miss",	       "drop",
		"discard",     "nombuf",
		"no_mbuf",     "crc",
		"fcs",	       "undersize",
		"undrsz",      "oversize",
		"ovrsz",       "fragment",
		"frag_frames", "jabber",
		"jbr",	       "runt",
		"trunc",       "pause",
		"xoff",	       "xon",
		"overrun",     "underrun",
		"fifo",	       "unknown_protocol",
		"pfc_frames",  "priority_flow_control",
		NULL};
	static const char *const noise[] = {"flow_director", "fcoe", "llfc",
					    "hcfc",	     "roce", "eee_",
					    "match_crc",     NULL};
	static const char *const indexed[] = {"_q", "priority", "_pri", "cos",
					      NULL};
	int i;

	for (i = 0; noise[i] != NULL; i++)
		if (strstr(name, noise[i]) != NULL)
			return 0;
	for (i = 0; indexed[i] != NULL; i++)
		if (nb_xstat_indexed(name, indexed[i]))
			return 0;
	for (i = 0; words[i] != NULL; i++)
		if (strstr(name, words[i]) != NULL)
			return 1;
	return 0;
}

struct nb_port_desc {
	uint16_t port_id;
	char name[64];
	char driver[32];
	char bus[16]; /* "pci", "vdev", ... */
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
	/* 802.3ad: the LACP state bits (IEEE 802.1AX) of this end and of
	 * the partner, as the member's last LACPDU exchange left them */
	uint8_t actor_state, partner_state;
};

/* LACP state bits, as the LACPDU carries them */
#define NB_LACP_ACTIVE	      0x01
#define NB_LACP_SHORT_TIMEOUT 0x02
#define NB_LACP_AGGREGATION   0x04
#define NB_LACP_SYNC	      0x08
#define NB_LACP_COLLECTING    0x10
#define NB_LACP_DISTRIBUTING  0x20
#define NB_LACP_DEFAULTED     0x40
#define NB_LACP_EXPIRED	      0x80
#define NB_LACP_UP	      (NB_LACP_SYNC | NB_LACP_COLLECTING | NB_LACP_DISTRIBUTING)

/* A member carries data both ways once both ends say in sync, collecting
 * and distributing. */
static inline int
nb_lacp_member_up(const struct nb_member_stats *m)
{
	return (m->actor_state & NB_LACP_UP) == NB_LACP_UP &&
	       (m->partner_state & NB_LACP_UP) == NB_LACP_UP;
}

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

/*
 * The most LACP frames (LACPDUs and markers) an 802.3ad bond may send or
 * take in per member over a test of `seconds`, beside the data: one per
 * periodic time (1 s at the fastest), up to 3 per second on state changes
 * (the transmit machine's limit), and one marker exchange.  The PMD counts
 * them, the tool never sees them.
 */
static inline uint64_t
nb_lacp_frames_max(const struct nb_bond_info *b, double seconds)
{
	uint64_t per = 4 * ((uint64_t)(seconds > 0 ? seconds : 0) + 2);

	return b->mode == 4 ? per * b->nb_members : 0;
}

#endif /* NB_PMD_STATS_H */
