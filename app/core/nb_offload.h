/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a port's device can do for the test, and what the tool uses of it:
 * TX checksums, RSS, timestamps.  The glue turns ethdev's dev_info into a
 * struct nb_dev_caps (the tool's own bits, so that this stays pure); the
 * driver profiles (nb_drivers.c) hold the caps DPDK 22.11's drivers report,
 * for the NICs no test host has.  nb_offload_decide() is the one place
 * where a capability becomes a use or a fallback, with the reason told.
 */
#ifndef NB_OFFLOAD_H
#define NB_OFFLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "nb_portset.h"

/* capability bits of struct nb_dev_caps.caps */
#define NB_CAP_TX_IPV4_CKSUM (1u << 0)
#define NB_CAP_TX_UDP_CKSUM  (1u << 1)
#define NB_CAP_TX_TCP_CKSUM  (1u << 2)
#define NB_CAP_RX_TIMESTAMP  (1u << 3) /* ethdev's RX timestamp offload */
#define NB_CAP_TIMESYNC	     (1u << 4) /* ethdev's IEEE 1588 (timesync) API */
#define NB_CAP_RSS_IP	     (1u << 5) /* RSS over the addresses */
#define NB_CAP_RSS_L4	     (1u << 6) /* ... and the UDP/TCP ports */
#define NB_CAP_QUEUE_RATE    (1u << 7) /* ethdev's per-queue rate limit */
#define NB_CAP_FLOW_CTRL     (1u << 8) /* ethdev's flow control get/set */
/* a quirk, from the driver profile: the driver's vector (or simple) TX
 * path takes no checksum offload, so asking for one moves every frame to
 * its slower full-featured path (ixgbe, i40e, bnxt in DPDK 22.11) */
#define NB_CAP_TX_CSUM_SLOW (1u << 9)

struct nb_dev_caps {
	uint32_t caps; /* NB_CAP_* */
	uint16_t max_rxq, max_txq;
};

/* --tx-checksum */
enum nb_csum_mode {
	NB_CSUM_AUTO = 0, /* the NIC's when it has it and it costs the TX
			   * path nothing (NB_CAP_TX_CSUM_SLOW), else sw */
	NB_CSUM_HW,	  /* the NIC's, or the port is refused */
	NB_CSUM_SW,	  /* software always */
};

struct nb_offload_req {
	enum nb_csum_mode tx_csum;
	uint8_t proto;	 /* NB_IPPROTO_UDP or _TCP: the L4 checksum needed */
	uint16_t nb_rxq; /* RSS spreads over more than one */
	uint8_t tunnel;	 /* --encap: the checksum is the inner one's */
	uint8_t flows;	 /* --flows: fixed per frame in software */
};

/* What is used: each item's `why` says how it was decided, in words
 * (e.g. "net_memif has no UDP checksum offload"). */
struct nb_offload_plan {
	int tx_l4_csum;	 /* the NIC fills the UDP/TCP checksum */
	int rss;	 /* RX spread over the queues by RSS */
	int rss_l4;	 /* ... hashing the ports too (else addresses only) */
	int hw_ts_avail; /* the NIC has RX timestamps or IEEE 1588 */
	/* pause frames as the port has them after set-up (read back by the
	 * glue; NB_FC_UNSUPPORTED: the driver has no flow control) */
	enum nb_fc_mode flow_control;
	/* --hw-rate: every paced TX queue of the port limited by the NIC
	 * (nb_offload_rate) */
	int hw_rate;
	char rate_why[160];
	char csum_why[160], rss_why[160], ts_why[160];
};

/*
 * Decide for a port of driver `driver` with caps c.  Returns 0, or -1 with
 * a sentence in err when the request cannot be met (--tx-checksum hw on a
 * device without it).  The IPv4 header checksum is never offloaded: it is
 * constant per template, computed once when the frame is built.
 */
int nb_offload_decide(const char *driver, const struct nb_dev_caps *c,
		      const struct nb_offload_req *r, struct nb_offload_plan *p,
		      char *err, size_t errlen);

/* 1 when frames of proto on a port with caps c, under mode, get their L4
 * checksum from the NIC (what the plan's tx_l4_csum says, for the jobs). */
int nb_offload_tx_l4(const struct nb_dev_caps *c, enum nb_csum_mode mode,
		     uint8_t proto);

/*
 * What pacing the port's TX queues got: asked (--hw-rate), how many paced
 * queues were tried and how many the driver limited (the rest use the
 * software pacer), and the first refusal (-errno, as the driver gave it).
 * No paced queue (--rate max, or a receive-only port): nothing to limit.
 */
void nb_offload_rate(struct nb_offload_plan *p, const char *driver, int asked,
		     unsigned int tried, unsigned int limited, int first_err);

/* A plan from the wire (a responder's ACCEPT): its reasons with every
 * byte a terminal or JSON would mind escaped (\xNN), cut to the field. */
void nb_offload_printable(struct nb_offload_plan *p);

/* "tx checksum hw, rss off, latency clock tsc, flow control off" */
int nb_offload_text(const struct nb_offload_plan *p, char *buf, size_t len);

/* {"tx_checksum": "hw"|"sw", "tx_checksum_why", "rss": bool, "rss_hash":
 *  "l3"|"l3+l4"|null, "rss_why", "latency_clock": "tsc",
 *  "hw_timestamps_available": bool, "timestamps_why", "flow_control":
 *  "off"|"on"|"rx"|"tx"|"unsupported"} */
struct json_t;
struct json_t *nb_offload_json(const struct nb_offload_plan *p);

/* Parse a --tx-checksum value (auto, hw, sw); 0 or -1. */
int nb_csum_mode_parse(const char *s, enum nb_csum_mode *m);
const char *nb_csum_mode_name(enum nb_csum_mode m);

#endif /* NB_OFFLOAD_H */
