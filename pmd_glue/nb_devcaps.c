/* SPDX-License-Identifier: BSD-3-Clause */
/* A device's capabilities in the tool's terms (nb_offload.h), from ethdev. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "nb_devcaps.h"
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
nb_devcaps_tx_offloads(const struct nb_dev_caps *c, enum nb_csum_mode mode)
{
	uint64_t o = 0;

	/* exactly what the jobs will use (nb_offload_tx_l4): an offload
	 * enabled but unused still costs ixgbe/i40e/bnxt their vector TX */
	if (nb_offload_tx_l4(c, mode, NB_IPPROTO_UDP))
		o |= RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
	if (nb_offload_tx_l4(c, mode, NB_IPPROTO_TCP))
		o |= RTE_ETH_TX_OFFLOAD_TCP_CKSUM;
	return o;
}

void
nb_tmpl_mbuf_csum(struct nb_tmpl *t)
{
	nb_tmpl_l4_csum_hw(t);
	t->mbuf_ol_flags =
		((t->hdr[t->l3_off] >> 4) == 6 ? RTE_MBUF_F_TX_IPV6
					       : RTE_MBUF_F_TX_IPV4) |
		(t->proto == NB_IPPROTO_TCP ? RTE_MBUF_F_TX_TCP_CKSUM
					    : RTE_MBUF_F_TX_UDP_CKSUM);
	t->mbuf_tx_offload = rte_mbuf_tx_offload(
		nb_tmpl_l2_len(t), nb_tmpl_l3_len(t), 0, 0, 0, 0, 0);
}

static const struct {
	uint32_t mbps, flag;
} speed_flags[] = {
	{10, RTE_ETH_LINK_SPEED_10M},	   {100, RTE_ETH_LINK_SPEED_100M},
	{1000, RTE_ETH_LINK_SPEED_1G},	   {2500, RTE_ETH_LINK_SPEED_2_5G},
	{5000, RTE_ETH_LINK_SPEED_5G},	   {10000, RTE_ETH_LINK_SPEED_10G},
	{20000, RTE_ETH_LINK_SPEED_20G},   {25000, RTE_ETH_LINK_SPEED_25G},
	{40000, RTE_ETH_LINK_SPEED_40G},   {50000, RTE_ETH_LINK_SPEED_50G},
	{56000, RTE_ETH_LINK_SPEED_56G},   {100000, RTE_ETH_LINK_SPEED_100G},
	{200000, RTE_ETH_LINK_SPEED_200G},
};

int
nb_portset_speed(const struct rte_eth_dev_info *info, uint32_t mbps,
		 uint32_t *link_speeds, char *err, size_t errlen)
{
	char have[160] = "";
	size_t i, n = 0;
	uint32_t flag = 0;

	*link_speeds = RTE_ETH_LINK_SPEED_AUTONEG;
	if (mbps == 0)
		return 0;
	for (i = 0; i < RTE_DIM(speed_flags); i++) {
		if (speed_flags[i].mbps == mbps)
			flag = speed_flags[i].flag;
		if ((info->speed_capa & speed_flags[i].flag) &&
		    n < sizeof(have))
			n += (size_t)snprintf(
				have + n, sizeof(have) - n, " %s",
				rte_eth_link_speed_to_str(speed_flags[i].mbps));
	}
	if (flag != 0 && (info->speed_capa & flag)) {
		*link_speeds = flag | RTE_ETH_LINK_SPEED_FIXED;
		return 0;
	}
	snprintf(err, errlen,
		 "--link-speed %s: %s does not offer it (speeds it offers:%s)",
		 rte_eth_link_speed_to_str(mbps), info->driver_name,
		 n ? have : " none: it takes no fixed speed");
	return -EINVAL;
}

int
nb_portset_mtu(uint16_t port_id, const char *driver, uint32_t user_mtu,
	       uint32_t mtu, char *err, size_t errlen)
{
	int ret;

	if (user_mtu == 0)
		return 0;
	ret = rte_eth_dev_set_mtu(port_id, (uint16_t)mtu);
	if (ret == 0)
		return 0;
	snprintf(err, errlen, "--mtu %u: %s %s", mtu, driver,
		 ret == -ENOTSUP ? "cannot change its MTU"
				 : rte_strerror(-ret));
	return ret;
}

static const enum rte_eth_fc_mode fc_modes[] = {
	[NB_FC_OFF] = RTE_ETH_FC_NONE,
	[NB_FC_ON] = RTE_ETH_FC_FULL,
	[NB_FC_RX] = RTE_ETH_FC_RX_PAUSE,
	[NB_FC_TX] = RTE_ETH_FC_TX_PAUSE,
};

static enum nb_fc_mode
fc_from(enum rte_eth_fc_mode m)
{
	switch (m) {
	case RTE_ETH_FC_NONE:
		return NB_FC_OFF;
	case RTE_ETH_FC_FULL:
		return NB_FC_ON;
	case RTE_ETH_FC_RX_PAUSE:
		return NB_FC_RX;
	case RTE_ETH_FC_TX_PAUSE:
		return NB_FC_TX;
	}
	return NB_FC_UNSUPPORTED;
}

int
nb_portset_fc(uint16_t port_id, const char *driver, enum nb_fc_mode want,
	      enum nb_fc_mode *now, char *err, size_t errlen)
{
	struct rte_eth_fc_conf fc;
	int ret;

	memset(&fc, 0, sizeof(fc));
	ret = rte_eth_dev_flow_ctrl_get(port_id, &fc);
	if (ret != 0) {
		*now = NB_FC_UNSUPPORTED;
		if (want == NB_FC_KEEP)
			return 0;
		snprintf(err, errlen, "--flow-control %s: %s %s",
			 nb_fc_name(want), driver,
			 ret == -ENOTSUP ? "has no flow control"
					 : rte_strerror(-ret));
		return ret;
	}
	if (want != NB_FC_KEEP && fc_from(fc.mode) != want) {
		fc.mode = fc_modes[want];
		ret = rte_eth_dev_flow_ctrl_set(port_id, &fc);
		if (ret != 0) {
			snprintf(err, errlen,
				 "--flow-control %s: %s refused "
				 "it: %s",
				 nb_fc_name(want), driver, rte_strerror(-ret));
			return ret;
		}
		memset(&fc, 0, sizeof(fc));
		if (rte_eth_dev_flow_ctrl_get(port_id, &fc) != 0) {
			*now = NB_FC_UNSUPPORTED;
			return 0;
		}
	}
	*now = fc_from(fc.mode);
	return 0;
}

int
nb_port_queue_rate(uint16_t port_id, uint16_t q, uint32_t mbps)
{
	if (mbps > UINT16_MAX * 1000u)
		return -EINVAL;
	return rte_eth_set_queue_rate_limit(port_id, q, (uint32_t)mbps);
}

char **
nb_port_xstat_names(uint16_t port_id, unsigned int *n)
{
	struct rte_eth_xstat_name *names;
	char **out;
	int k, i;

	*n = 0;
	k = rte_eth_xstats_get_names(port_id, NULL, 0);
	if (k <= 0)
		return NULL;
	/* the pointers, then the names they point into */
	out = malloc((size_t)k * (sizeof(*out) + sizeof(*names)));
	if (out == NULL)
		return NULL;
	names = (struct rte_eth_xstat_name *)(out + k);
	if (rte_eth_xstats_get_names(port_id, names, (unsigned int)k) != k) {
		free(out);
		return NULL;
	}
	for (i = 0; i < k; i++)
		out[i] = names[i].name;
	*n = (unsigned int)k;
	return out;
}
