/* SPDX-License-Identifier: BSD-3-Clause */
/* Membership reports and per-port results: see nb_mcast_join.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>

#include <rte_cycles.h>
#include <rte_mbuf.h>

#include "nb_log.h"
#include "nb_mcast.h"
#include "nb_mcast_join.h"
#include "nb_seam.h"
#include "nb_tsc.h"

#define MCAST_POOL_N 63
#define MCAST_GAP_US 20000 /* between the robustness rounds */

/* One report or leave from the port at index idx of app->ports. */
static int
send_one(struct nb_app *app, struct rte_mempool *mp, uint16_t idx,
	 const struct nb_ip *g, int join)
{
	const struct nb_config *cfg = &app->cfg;
	const uint8_t *mac = app->ports[idx].desc.mac;
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	uint8_t *buf;
	size_t cap;
	int len;

	if (m == NULL)
		return -ENOMEM;
	buf = rte_pktmbuf_mtod(m, uint8_t *);
	cap = rte_pktmbuf_tailroom(m);
	if (g->family == 6)
		len = nb_mld_frame(buf, cap, mac, cfg->vlan_id, g->a, join);
	else /* from 0.0.0.0: the port has no address of its own */
		len = nb_igmp_frame(buf, cap, mac, cfg->vlan_id, 0,
				    nb_get_be32(g->a), cfg->igmp_version, join);
	if (len <= 0) {
		rte_pktmbuf_free(m);
		return -EINVAL;
	}
	m->data_len = (uint16_t)len;
	m->pkt_len = (uint32_t)len;
	if (nb_port_tx(app->port_ids[idx], 0, &m, 1) != 1) {
		rte_pktmbuf_free(m);
		return -EIO;
	}
	return 0;
}

/* One round from every port that joins; how many ports sent.  running:
 * the workers run, and an 802.3ad bond's queues are its keep job's
 * (nb_keep), so a bond port skips the round. */
static int
send_round(struct nb_app *app, struct rte_mempool *mp, const struct nb_ip *g,
	   int join, int running)
{
	const struct nb_config *cfg = &app->cfg;
	uint16_t i;
	int n = 0, rc;

	for (i = 0; i < app->nb_ports; i++) {
		if (i < cfg->nb_tx_ports ||
		    !nb_mcast_joins(cfg, app->port_ids[i]) ||
		    (running && app->ports[i].lacp))
			continue;
		rc = send_one(app, mp, i, g, join);
		if (rc == 0)
			n++;
		else
			NB_LOG(WARNING, "port %u: cannot send its %s: %s",
			       app->port_ids[i],
			       join ? "membership report" : "leave",
			       strerror(-rc));
	}
	return n;
}

static struct rte_mempool *
mcast_pool(struct nb_app *app)
{
	return nb_pool_get("nb_mcast", MCAST_POOL_N,
			   nb_port_socket(app->port_ids[0]));
}

int
nb_mcast_members(struct nb_app *app, int join)
{
	struct rte_mempool *mp;
	struct nb_ip g;
	int round, n = 0;

	app->mcast_due = 0;
	if (nb_mcast_fanout(&app->cfg, &g) != NB_FANOUT_GROUP ||
	    app->cfg.join_mode == NB_JOIN_NONE || app->nb_ports == 0)
		return 0;
	mp = mcast_pool(app);
	if (mp == NULL) {
		NB_LOG(WARNING, "no pool for the membership reports");
		return 0;
	}
	for (round = 0; round < NB_MCAST_ROBUSTNESS; round++) {
		if (round)
			nb_glue_nap_us(MCAST_GAP_US);
		n = send_round(app, mp, &g, join, 0);
	}
	if (join && n)
		app->mcast_due = rte_get_tsc_cycles() +
				 (uint64_t)NB_MCAST_REPORT_S * nb_tsc_hz();
	return n;
}

void
nb_mcast_tick(struct nb_app *app)
{
	struct rte_mempool *mp;
	struct nb_ip g;

	if (app->mcast_due == 0 || rte_get_tsc_cycles() < app->mcast_due)
		return;
	app->mcast_due += (uint64_t)NB_MCAST_REPORT_S * nb_tsc_hz();
	mp = mcast_pool(app);
	if (mp != NULL && nb_mcast_fanout(&app->cfg, &g) == NB_FANOUT_GROUP)
		send_round(app, mp, &g, 1, 1);
}

void
nb_mcast_collect(struct nb_app *app)
{
	const struct nb_config *cfg = &app->cfg;
	struct nb_result *r = &app->result;
	uint16_t i;

	r->fanout = cfg->nb_tx_ports == 1 ? nb_mcast_fanout(cfg, NULL) : 0;
	r->nb_rxports = 0;
	if (!r->fanout || cfg->rx_only)
		return;
	r->rx_sent = r->sum.tx_pkts;
	for (i = 0; i < cfg->nb_rx_ports && i < NB_MAX_PORTS; i++) {
		struct nb_rxport_result *p = &r->rxports[r->nb_rxports++];

		nb_jobs_read_rxport(&app->jobs, cfg->rx_ports[i], p);
		p->joined = nb_mcast_joins(cfg, cfg->rx_ports[i]);
		p->lost = r->rx_sent > p->unique ? r->rx_sent - p->unique : 0;
	}
}

/* The receiving ports that do (joined 1) or do not join, after what. */
static void
print_ports(const struct nb_config *cfg, int joined, const char *what)
{
	uint16_t i;
	int n = 0;

	for (i = 0; i < cfg->nb_rx_ports; i++)
		if (nb_mcast_joins(cfg, cfg->rx_ports[i]) == joined)
			printf("%s%u", n++ ? ", " : what, cfg->rx_ports[i]);
}

void
nb_mcast_header(const struct nb_app *app)
{
	const struct nb_config *cfg = &app->cfg;
	char ip[64];
	struct nb_ip g;
	int fanout = nb_mcast_fanout(cfg, &g);

	if (fanout == NB_FANOUT_MAC) {
		printf("fan-out: to %02x:%02x:%02x:%02x:%02x:%02x, every "
		       "receiving port counted on its own\n",
		       cfg->dst_mac[0], cfg->dst_mac[1], cfg->dst_mac[2],
		       cfg->dst_mac[3], cfg->dst_mac[4], cfg->dst_mac[5]);
		return;
	}
	if (fanout != NB_FANOUT_GROUP)
		return;
	if (inet_ntop(g.family == 6 ? AF_INET6 : AF_INET, g.a, ip,
		      sizeof(ip)) == NULL)
		snprintf(ip, sizeof(ip), "?");
	printf("multicast: group %s (", ip);
	if (g.family == 6)
		printf("MLDv2)");
	else
		printf("IGMPv%d)", cfg->igmp_version);
	print_ports(cfg, 1, ", joined by port ");
	print_ports(cfg, 0, "; not joined: port ");
	printf("\n");
}
