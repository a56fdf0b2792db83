/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_bus.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>

#include "nb_devcaps.h"
#include "nb_drivers.h"
#include "nb_phase.h"
#include "nb_pool.h"
#include "nb_port.h"

/* What nb_port_setup gave each port's RX side (for nb_port_rx_budget). */
static struct {
	struct rte_mempool *pool;
	uint16_t rxd, nb_rxq;
} rx_setup[RTE_MAX_ETHPORTS];

int
nb_port_max_queues(uint16_t port_id, uint16_t *max_rxq, uint16_t *max_txq)
{
	struct rte_eth_dev_info info;
	uint16_t m[NB_MAX_MEMBERS], n, i, mr, mt;
	int ret = rte_eth_dev_info_get(port_id, &info);

	if (ret != 0)
		return ret;
	*max_rxq = info.max_rx_queues;
	*max_txq = info.max_tx_queues;
	/* a bond not configured yet does not know its members' limits */
	n = nb_port_members(port_id, m, NB_MAX_MEMBERS);
	for (i = 0; i < n; i++)
		if (nb_port_max_queues(m[i], &mr, &mt) == 0) {
			*max_rxq = RTE_MIN(*max_rxq, mr);
			*max_txq = RTE_MIN(*max_txq, mt);
		}
	return 0;
}

int
nb_port_describe(uint16_t port_id, struct nb_port_desc *d)
{
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	struct rte_ether_addr mac;
	int ret;

	memset(d, 0, sizeof(*d));
	d->port_id = port_id;
	ret = rte_eth_dev_info_get(port_id, &info);
	if (ret != 0)
		return ret;
	snprintf(d->driver, sizeof(d->driver), "%s",
		 info.driver_name ? info.driver_name : "?");
	if (rte_eth_dev_get_name_by_port(port_id, d->name) != 0)
		snprintf(d->name, sizeof(d->name), "port%u", port_id);
	if (info.device != NULL && rte_dev_bus(info.device) != NULL)
		snprintf(d->bus, sizeof(d->bus), "%s",
			 rte_bus_name(rte_dev_bus(info.device)));
	if (rte_eth_macaddr_get(port_id, &mac) == 0)
		memcpy(d->mac, mac.addr_bytes, 6);
	d->numa_node = rte_eth_dev_socket_id(port_id);
	if (rte_eth_link_get_nowait(port_id, &link) == 0) {
		d->link_up = link.link_status == RTE_ETH_LINK_UP;
		d->link_speed = link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN
					? 0
					: link.link_speed;
		d->full_duplex = link.link_duplex == RTE_ETH_LINK_FULL_DUPLEX;
	}
	rte_eth_dev_get_mtu(port_id, &d->mtu);
	return 0;
}

int
nb_port_link_up(uint16_t port_id)
{
	struct rte_eth_link link;

	return rte_eth_link_get_nowait(port_id, &link) == 0 &&
	       link.link_status == RTE_ETH_LINK_UP;
}

int
nb_port_link_seen(uint16_t port_id, const char **how)
{
	struct rte_eth_dev_info info;
	struct ifreq ifr;
	int s, ret;

	memset(&ifr, 0, sizeof(ifr));
	if (rte_eth_dev_info_get(port_id, &info) == 0 && info.if_index > 0 &&
	    if_indextoname(info.if_index, ifr.ifr_name) != NULL) {
		s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		ret = s < 0 ? -1 : ioctl(s, SIOCGIFFLAGS, &ifr);
		if (s >= 0)
			close(s);
		if (ret == 0) {
			if (how != NULL)
				*how = "kernel interface flags UP and RUNNING";
			return (ifr.ifr_flags & IFF_UP) &&
			       (ifr.ifr_flags & IFF_RUNNING);
		}
	}
	if (how != NULL)
		*how = "PMD link status";
	return nb_port_link_up(port_id);
}

/* What the driver needs from EAL, for a failure's message ("" if none). */
static const char *
eal_hint(const char *driver)
{
	const struct nb_driver_profile *p = nb_driver_profile(driver);
	static char buf[200];

	if (p == NULL || p->eal_hint == NULL)
		return "";
	snprintf(buf, sizeof(buf), "; %s needs the EAL option %s", p->what,
		 p->eal_hint);
	return buf;
}

static int
start_retryable(int ret)
{
	return ret == -EPERM || ret == -ECONNREFUSED || ret == -ENOENT ||
	       ret == -EAGAIN;
}

/*
 * Start a port.  A virtual device whose far end is not there yet (a memif
 * client before its server: -EPERM) may start later: retry for up to
 * timeout_s, as long as a link may take to come up.
 */
static int
port_start(uint16_t port_id, double timeout_s)
{
	uint64_t hz = rte_get_tsc_hz();
	uint64_t end = rte_get_tsc_cycles() + (uint64_t)(timeout_s * hz);
	unsigned int us = 100 * 1000; /* doubling to 1 s: fewer PMD logs */
	int ret;

	for (;;) {
		ret = rte_eth_dev_start(port_id);
		if (ret == 0 || !start_retryable(ret) ||
		    rte_get_tsc_cycles() >= end)
			return ret;
		if (nb_phase_signal() != 0) /* SIGINT/SIGTERM: give up */
			return -EINTR;
		rte_delay_us_sleep(us);
		us = us < 500 * 1000 ? us * 2 : 1000 * 1000;
	}
}

/* What the device cannot do of req: queues, frame size. */
static int
setup_check(uint16_t port_id, const struct nb_port_req *req,
	    const struct rte_eth_dev_info *info, char *err, size_t errlen)
{
	uint16_t max_rxq, max_txq;

	nb_port_max_queues(port_id, &max_rxq, &max_txq);
	if (req->nb_rxq > max_rxq || req->nb_txq > max_txq) {
		char hint[320];

		nb_driver_queue_hint(info->driver_name,
				     RTE_MAX(req->nb_rxq, req->nb_txq), max_rxq,
				     max_txq, hint, sizeof(hint));
		snprintf(err, errlen, "port %u: %s", port_id, hint);
		return -EINVAL;
	}
	if (info->max_rx_pktlen != 0 && req->max_frame > info->max_rx_pktlen) {
		snprintf(err, errlen,
			 "port %u (%s) takes frames up to %u B (incl. FCS); "
			 "%u B frames are too large for it",
			 port_id, info->driver_name, info->max_rx_pktlen,
			 req->max_frame);
		return -EINVAL;
	}
	return 0;
}

/* The MTU for req (*mtu) and the link speeds asked for, checked against
 * the device. */
static int
setup_mtu(uint16_t port_id, const struct nb_port_req *req,
	  const struct rte_eth_dev_info *info, struct rte_eth_conf *conf,
	  uint32_t *mtu, char *err, size_t errlen)
{
	char why[256];

	if (nb_mtu_for(req->set.mtu, req->max_frame, mtu, why, sizeof(why)) !=
		    0 ||
	    nb_portset_speed(info, req->set.speed_mbps, &conf->link_speeds, why,
			     sizeof(why)) != 0) {
		snprintf(err, errlen, "port %u: %s", port_id, why);
		return -EINVAL;
	}
	if (req->set.mtu != 0 && info->max_rx_pktlen != 0 &&
	    *mtu + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN >
		    info->max_rx_pktlen) {
		snprintf(err, errlen,
			 "port %u (%s): --mtu %u needs frames of %u B, the "
			 "device takes %u B at most",
			 port_id, info->driver_name, *mtu,
			 *mtu + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN,
			 info->max_rx_pktlen);
		return -EINVAL;
	}
	if (info->max_mtu != 0 && *mtu > info->max_mtu) {
		snprintf(err, errlen,
			 "port %u (%s): %u B frames need MTU %u, the device "
			 "allows %u",
			 port_id, info->driver_name, req->max_frame, *mtu,
			 info->max_mtu);
		return -EINVAL;
	}
	conf->rxmode.mtu = *mtu;
	return 0;
}

/* The device's configuration: offloads decided (p->offload), MTU, RSS. */
static int
setup_conf(uint16_t port_id, const struct nb_port_req *req,
	   const struct rte_eth_dev_info *info, struct nb_port *p,
	   struct rte_eth_conf *conf, uint32_t *mtu, char *err, size_t errlen)
{
	struct nb_offload_req oreq;
	char why[256];
	int ret;

	nb_port_caps(port_id, info, &p->caps);
	/* tunnelled frames: software checksums, whatever was asked */
	p->tx_csum = req->tunnel || req->flows ? NB_CSUM_SW : req->tx_csum;
	oreq.tx_csum = req->tx_csum;
	oreq.tunnel = req->tunnel;
	oreq.flows = req->flows;
	oreq.proto = req->proto;
	oreq.nb_rxq = req->nb_rxq;
	if (nb_offload_decide(info->driver_name, &p->caps, &oreq, &p->offload,
			      why, sizeof(why)) != 0) {
		snprintf(err, errlen, "port %u: %s", port_id, why);
		return -EINVAL;
	}
	memset(conf, 0, sizeof(*conf));
	ret = setup_mtu(port_id, req, info, conf, mtu, err, errlen);
	if (ret != 0)
		return ret;
	if (p->offload.rss) {
		conf->rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf->rx_adv_conf.rss_conf.rss_hf =
			info->flow_type_rss_offloads &
			(RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_TCP);
	}
	conf->txmode.offloads |= nb_devcaps_tx_offloads(&p->caps, req->tx_csum);
	/* fast free returns mbufs to their pool unlooked-at: not for an
	 * mbuf attached to an external buffer */
	p->tx_chain = req->tx_chain &&
		      (info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS);
	if (p->tx_chain)
		conf->txmode.offloads |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	else if (info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE)
		conf->txmode.offloads |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	if (req->max_frame > RTE_MBUF_DEFAULT_DATAROOM &&
	    (info->rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER))
		conf->rxmode.offloads |= RTE_ETH_RX_OFFLOAD_SCATTER;
	return 0;
}

/* The RX pool (on the port's socket) and the RX and TX queues. */
static int
setup_queues(uint16_t port_id, const struct nb_port_req *req,
	     const struct rte_eth_dev_info *info,
	     const struct rte_eth_conf *conf, uint16_t rxd, uint16_t txd,
	     struct nb_port *p, char *err, size_t errlen)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	struct rte_eth_rxconf rxc;
	struct rte_eth_txconf txc;
	int socket = nb_port_socket(port_id), ret;
	uint16_t q;

	if (req->nb_rxq > 0) {
		snprintf(name, sizeof(name), "nb_rx_p%u", port_id);
		p->rx_pool = nb_rx_pool_create(name, req->nb_rx_mbufs,
					       req->max_frame, socket);
		if (p->rx_pool == NULL) {
			char why[900];

			ret = rte_errno;
			nb_pool_shortfall(req->nb_rx_mbufs,
					  nb_pool_room(req->max_frame), socket,
					  why, sizeof(why));
			snprintf(err, errlen,
				 "port %u: cannot create RX mbuf pool of %u "
				 "mbufs on NUMA node %d: %s: %s",
				 port_id, req->nb_rx_mbufs, socket,
				 rte_strerror(ret), why);
			return -ENOMEM;
		}
	}
	rx_setup[port_id].pool = p->rx_pool;
	rx_setup[port_id].rxd = rxd;
	rx_setup[port_id].nb_rxq = req->nb_rxq;
	rxc = info->default_rxconf;
	rxc.offloads = conf->rxmode.offloads;
	for (q = 0; q < req->nb_rxq; q++) {
		ret = rte_eth_rx_queue_setup(port_id, q, rxd, (unsigned)socket,
					     &rxc, p->rx_pool);
		if (ret != 0) {
			snprintf(err, errlen, "port %u: RX queue %u: %s",
				 port_id, q, rte_strerror(-ret));
			return ret;
		}
	}
	txc = info->default_txconf;
	txc.offloads = conf->txmode.offloads;
	for (q = 0; q < req->nb_txq; q++) {
		ret = rte_eth_tx_queue_setup(port_id, q, txd, (unsigned)socket,
					     &txc);
		if (ret != 0) {
			snprintf(err, errlen, "port %u: TX queue %u: %s",
				 port_id, q, rte_strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* Start, flow control, promiscuous mode, the description. */
static int
setup_start(uint16_t port_id, const struct nb_port_req *req, const char *driver,
	    struct nb_port *p, char *err, size_t errlen)
{
	char why[256];
	int ret = port_start(port_id, req->start_timeout);

	if (ret != 0) {
		snprintf(err, errlen, "port %u (%s): start failed: %s%s%s",
			 port_id, driver, rte_strerror(-ret),
			 start_retryable(ret)
				 ? " (still, at --link-timeout: is the far end "
				   "there, e.g. the memif server?)"
				 : "",
			 eal_hint(driver));
		return ret;
	}
	p->started = 1;
	ret = nb_portset_fc(port_id, driver, req->set.fc,
			    &p->offload.flow_control, why, sizeof(why));
	if (ret != 0) {
		snprintf(err, errlen, "port %u: %s", port_id, why);
		/* not in the caller's list yet: close it here (its RX ring
		 * holds the pool's mbufs) */
		rte_eth_dev_stop(port_id);
		rte_eth_dev_close(port_id);
		p->started = 0;
		return ret;
	}
	/* Loopback tests address the facing port's MAC; accept all anyway. */
	rte_eth_promiscuous_enable(port_id);
	nb_port_describe(port_id, &p->desc);
	p->desc.nb_rxq = req->nb_rxq;
	p->desc.nb_txq = req->nb_txq;
	p->lacp = nb_port_lacp(port_id);
	return 0;
}

int
nb_port_setup(uint16_t port_id, const struct nb_port_req *req,
	      struct nb_port *p, char *err, size_t errlen)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	char why[256];
	uint16_t rxd = req->rxd, txd = req->txd;
	uint32_t mtu;
	int ret;

	memset(p, 0, sizeof(*p));
	p->desc.port_id = port_id;
	ret = rte_eth_dev_info_get(port_id, &info);
	if (ret != 0) {
		snprintf(err, errlen, "port %u: cannot get device info: %s",
			 port_id, rte_strerror(-ret));
		return ret;
	}
	ret = setup_check(port_id, req, &info, err, errlen);
	if (ret == 0)
		ret = setup_conf(port_id, req, &info, p, &conf, &mtu, err,
				 errlen);
	if (ret != 0)
		return ret;
	ret = rte_eth_dev_configure(port_id, req->nb_rxq, req->nb_txq, &conf);
	if (ret != 0) {
		snprintf(err, errlen, "port %u (%s): configure failed: %s%s",
			 port_id, info.driver_name, rte_strerror(-ret),
			 eal_hint(info.driver_name));
		return ret;
	}
	ret = nb_portset_mtu(port_id, info.driver_name, req->set.mtu, mtu, why,
			     sizeof(why));
	if (ret != 0) {
		snprintf(err, errlen, "port %u: %s", port_id, why);
		return ret;
	}
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(port_id, &rxd, &txd);
	if (ret != 0) {
		snprintf(err, errlen, "port %u: descriptor counts: %s", port_id,
			 rte_strerror(-ret));
		return ret;
	}
	ret = setup_queues(port_id, req, &info, &conf, rxd, txd, p, err,
			   errlen);
	if (ret != 0)
		return ret;
	return setup_start(port_id, req, info.driver_name, p, err, errlen);
}

/* 1 when the port has to be restarted to dial its far end again
 * (nb_driver_redials: a memif client). */
static int
port_redials(uint16_t port_id)
{
	struct rte_eth_dev_info info;
	const struct rte_devargs *da;

	if (rte_eth_dev_info_get(port_id, &info) != 0 || info.device == NULL)
		return 0;
	da = rte_dev_devargs(info.device);
	return da != NULL && nb_driver_redials(info.driver_name, da->drv_str);
}

int
nb_port_wait_link(struct nb_port *p, double timeout_s)
{
	uint64_t hz = rte_get_tsc_hz();
	uint64_t now = rte_get_tsc_cycles();
	uint64_t end = now + (uint64_t)(timeout_s * hz);
	uint64_t redial_at = now + hz; /* a handshake takes milliseconds */
	uint16_t port_id = p->desc.port_id;
	struct rte_eth_link link;
	int redials = port_redials(port_id), said = 0;

	for (;;) {
		memset(&link, 0, sizeof(link));
		if (rte_eth_link_get_nowait(port_id, &link) == 0 &&
		    link.link_status == RTE_ETH_LINK_UP)
			break;
		now = rte_get_tsc_cycles();
		if (now >= end)
			return -ETIMEDOUT;
		if (nb_phase_signal() != 0) /* SIGINT/SIGTERM: give up */
			return -EINTR;
		if (redials && now >= redial_at) {
			/* refused (or dropped) in the handshake: dial again */
			if (!said)
				fprintf(stderr,
					"dpdk-nbench: port %u (%s): link down "
					"1 s after start: restarting it to "
					"dial its server again\n",
					port_id, p->desc.name);
			said = 1;
			rte_eth_dev_stop(port_id);
			if (port_start(port_id, (double)(end - now) / hz) !=
			    0) {
				p->started = 0; /* nothing to stop at exit */
				return -ETIMEDOUT;
			}
			redial_at = rte_get_tsc_cycles() + hz;
		}
		rte_delay_us_sleep(20 * 1000);
	}
	nb_port_describe(port_id, &p->desc);
	return 0;
}

/* The selected extended counters (nb_xstat_selected()), by name. */
static void
port_xstats(uint16_t port_id, struct nb_pmd_stats *s)
{
	struct rte_eth_xstat_name *names = NULL;
	struct rte_eth_xstat *vals = NULL;
	int n, i;

	s->nb_xstats = 0;
	n = rte_eth_xstats_get_names(port_id, NULL, 0);
	if (n <= 0)
		return;
	names = calloc((size_t)n, sizeof(*names));
	vals = calloc((size_t)n, sizeof(*vals));
	if (names == NULL || vals == NULL ||
	    rte_eth_xstats_get_names(port_id, names, (unsigned int)n) != n ||
	    rte_eth_xstats_get(port_id, vals, (unsigned int)n) != n)
		goto out;
	for (i = 0; i < n && s->nb_xstats < NB_XSTATS_MAX; i++) {
		struct nb_xstat *x = &s->xstats[s->nb_xstats];

		if (vals[i].id >= (uint64_t)n ||
		    !nb_xstat_selected(names[vals[i].id].name))
			continue;
		snprintf(x->name, sizeof(x->name), "%s",
			 names[vals[i].id].name);
		x->value = vals[i].value;
		s->nb_xstats++;
	}
out:
	free(names);
	free(vals);
}

int
nb_port_stats(uint16_t port_id, struct nb_pmd_stats *s)
{
	struct rte_eth_stats st;
	unsigned int q;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = rte_eth_stats_get(port_id, &st);
	if (ret != 0)
		return ret;
	s->ipackets = st.ipackets;
	s->opackets = st.opackets;
	s->ibytes = st.ibytes;
	s->obytes = st.obytes;
	s->imissed = st.imissed;
	s->ierrors = st.ierrors;
	s->oerrors = st.oerrors;
	s->rx_nombuf = st.rx_nombuf;
	RTE_BUILD_BUG_ON(NB_PMD_QUEUES > RTE_ETHDEV_QUEUE_STAT_CNTRS);
	for (q = 0; q < NB_PMD_QUEUES; q++) {
		s->q_ipackets[q] = st.q_ipackets[q];
		s->q_opackets[q] = st.q_opackets[q];
		s->q_ibytes[q] = st.q_ibytes[q];
		s->q_obytes[q] = st.q_obytes[q];
	}
	port_xstats(port_id, s);
	return 0;
}

void
nb_port_stats_reset(uint16_t port_id)
{
	rte_eth_stats_reset(port_id);
	rte_eth_xstats_reset(port_id);
}

uint16_t
nb_port_count(void)
{
	return rte_eth_dev_count_avail();
}

int
nb_port_valid(uint16_t port_id)
{
	return rte_eth_dev_is_valid_port(port_id);
}

uint16_t
nb_port_ids(uint16_t *ids, uint16_t max)
{
	uint16_t pid, n = 0;

	RTE_ETH_FOREACH_DEV (pid) {
		if (n == max)
			break;
		if (!nb_port_is_member(pid))
			ids[n++] = pid;
	}
	return n;
}

int
nb_port_socket(uint16_t port_id)
{
	int socket = rte_eth_dev_socket_id(port_id);

	return socket < 0 ? (int)rte_socket_id() : socket;
}

int
nb_port_rx_budget(uint16_t port_id, struct nb_pool_budget *b)
{
	memset(b, 0, sizeof(*b));
	if (port_id >= RTE_MAX_ETHPORTS || rx_setup[port_id].pool == NULL)
		return -ENOENT;
	b->pool = rx_setup[port_id].pool->size;
	b->rxd = rx_setup[port_id].rxd;
	b->nb_rxq = rx_setup[port_id].nb_rxq;
	b->lcores = rte_lcore_count();
	b->cache = rx_setup[port_id].pool->cache_size;
	b->burst = NB_PORT_BURST;
	return 0;
}

uint16_t
nb_port_tx(uint16_t port_id, uint16_t queue, struct rte_mbuf **m, uint16_t n)
{
	return rte_eth_tx_burst(port_id, queue, m, n);
}

uint16_t
nb_port_rx(uint16_t port_id, uint16_t queue, struct rte_mbuf **m, uint16_t n)
{
	return rte_eth_rx_burst(port_id, queue, m, n);
}

void
nb_port_rx_flush(uint16_t port_id, uint16_t queue)
{
	struct rte_mbuf *pkts[32];
	uint16_t n;
	int rounds = 0;

	do {
		n = rte_eth_rx_burst(port_id, queue, pkts, 32);
		if (n > 0)
			rte_pktmbuf_free_bulk(pkts, n);
	} while (n > 0 && ++rounds < 1024);
}
