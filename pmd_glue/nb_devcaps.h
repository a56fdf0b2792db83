/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ethdev's view of a device turned into the tool's (nb_offload.h), the
 * mbuf side of a NIC-filled checksum, and the port settings a user asks
 * for (--flow-control, --link-speed, --mtu).
 */
#ifndef NB_DEVCAPS_H
#define NB_DEVCAPS_H

#include <stdint.h>

#include <rte_ethdev.h>

#include "nb_frame.h"
#include "nb_offload.h"

/* Fill c from the port's dev_info and, for what dev_info does not say
 * (flow control, IEEE 1588), from whether the driver has the op. */
void nb_port_caps(uint16_t port_id, const struct rte_eth_dev_info *info,
		  struct nb_dev_caps *c);

/* The names of the port's extended counters (rte_eth_xstats_get_names):
 * *n strings in one block for the caller to free(); NULL when it has
 * none or they cannot be read. */
char **nb_port_xstat_names(uint16_t port_id, unsigned int *n);

/* The TX checksum offloads to enable at configure: each L4 one the jobs
 * would use for that protocol (a responder learns each test's protocol
 * later), none for --tx-checksum sw or where auto keeps software. */
uint64_t nb_devcaps_tx_offloads(const struct nb_dev_caps *c,
				enum nb_csum_mode mode);

/* Make t's frames NIC-checksummed: nb_tmpl_l4_csum_hw() and the mbuf's
 * ol_flags / l2_len / l3_len for it. */
void nb_tmpl_mbuf_csum(struct nb_tmpl *t);

/*
 * The settings a user asks for (nb_portset.h), each 0 or -errno with a
 * sentence in err.  speed: the conf.link_speeds for mbps (0: autoneg),
 * refused when the device's speed_capa lacks it.  mtu: set on the device
 * (rte_eth_dev_set_mtu, after configure) when the user gave one.  fc:
 * --flow-control applied (after start) and read back into *now;
 * NB_FC_KEEP only reads.
 */
int nb_portset_speed(const struct rte_eth_dev_info *info, uint32_t mbps,
		     uint32_t *link_speeds, char *err, size_t errlen);
int nb_portset_mtu(uint16_t port_id, const char *driver, uint32_t user_mtu,
		   uint32_t mtu, char *err, size_t errlen);
int nb_portset_fc(uint16_t port_id, const char *driver, enum nb_fc_mode want,
		  enum nb_fc_mode *now, char *err, size_t errlen);

/* --hw-rate: limit TX queue q of the port to mbps (L1 Mbit/s, as the
 * driver counts against its link speed); 0 or -errno (-ENOTSUP: the
 * driver has no limiter). */
int nb_port_queue_rate(uint16_t port_id, uint16_t q, uint32_t mbps);

#endif /* NB_DEVCAPS_H */
