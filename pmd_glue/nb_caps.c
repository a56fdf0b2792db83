/* SPDX-License-Identifier: BSD-3-Clause */
/* A device's capabilities in the tool's terms (nb_offload.h), from ethdev. */
#include <errno.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "nb_caps.h"
#include "nb_drivers.h"

void
nb_port_caps(uint16_t port_id, const struct rte_eth_dev_info *info,
	     struct nb_dev_caps *c)
{
	const struct nb_driver_profile *prof;
	struct rte_eth_fc_conf fc;
	struct timespec ts;

	memset(c, 0, sizeof(*c));
	c->max_rxq = info->max_rx_queues;
	c->max_txq = info->max_tx_queues;
	if (info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM)
		c->caps |= NB_CAP_TX_IPV4_CKSUM;
	if (info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_UDP_CKSUM)
		c->caps |= NB_CAP_TX_UDP_CKSUM;
	if (info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_TCP_CKSUM)
		c->caps |= NB_CAP_TX_TCP_CKSUM;
	if (info->rx_offload_capa & RTE_ETH_RX_OFFLOAD_TIMESTAMP)
		c->caps |= NB_CAP_RX_TIMESTAMP;
	if (info->flow_type_rss_offloads &
	    (RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_FRAG_IPV4 |
	     RTE_ETH_RSS_NONFRAG_IPV4_OTHER))
		c->caps |= NB_CAP_RSS_IP;
	if (info->flow_type_rss_offloads &
	    (RTE_ETH_RSS_NONFRAG_IPV4_UDP | RTE_ETH_RSS_NONFRAG_IPV4_TCP))
		c->caps |= NB_CAP_RSS_L4;
	/* reading does not change them: a driver without the op says so */
	memset(&fc, 0, sizeof(fc));
	if (rte_eth_dev_flow_ctrl_get(port_id, &fc) != -ENOTSUP)
		c->caps |= NB_CAP_FLOW_CTRL;
	if (rte_eth_timesync_read_time(port_id, &ts) != -ENOTSUP)
		c->caps |= NB_CAP_TIMESYNC;
	/* what dev_info cannot say: the driver's quirks */
	prof = nb_driver_profile(info->driver_name);
	if (prof != NULL)
		c->caps |= prof->caps.caps & NB_CAP_TX_CSUM_SLOW;
}

uint64_t
nb_caps_tx_offloads(const struct nb_dev_caps *c, enum nb_csum_mode mode)
{
	uint64_t o = 0;

	if (mode == NB_CSUM_SW)
		return 0;
	if (c->caps & NB_CAP_TX_UDP_CKSUM)
		o |= RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
	if (c->caps & NB_CAP_TX_TCP_CKSUM)
		o |= RTE_ETH_TX_OFFLOAD_TCP_CKSUM;
	return o;
}

void
nb_tmpl_mbuf_csum(struct nb_tmpl *t)
{
	nb_tmpl_l4_csum_hw(t);
	t->mbuf_ol_flags = RTE_MBUF_F_TX_IPV4 |
			   (t->proto == NB_IPPROTO_TCP ? RTE_MBUF_F_TX_TCP_CKSUM
						       : RTE_MBUF_F_TX_UDP_CKSUM);
	t->mbuf_tx_offload =
		rte_mbuf_tx_offload(nb_tmpl_l2_len(t), NB_IPV4_HLEN, 0, 0, 0, 0, 0);
}
