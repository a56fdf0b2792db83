/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Bonds (net_bonding): which ports are members (the bond configures them,
 * the tool never does), a bond's mode and each member's counters.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_cycles.h>
#include <rte_eth_bond.h>
#include <rte_eth_bond_8023ad.h>
#include <rte_ethdev.h>

#include "nb_phase.h"
#include "nb_port.h"

static int bond_of(uint16_t port_id);

int
nb_port_is_member(uint16_t port_id)
{
	struct rte_eth_dev_info info;

	if (rte_eth_dev_info_get(port_id, &info) == 0 &&
	    info.dev_flags != NULL &&
	    (*info.dev_flags & RTE_ETH_DEV_BONDED_SLAVE) != 0)
		return 1;
	/* a bond not configured yet: its command line says */
	return bond_of(port_id) >= 0;
}

static int
is_bond(uint16_t port_id)
{
	struct rte_eth_dev_info info;

	return rte_eth_dev_info_get(port_id, &info) == 0 &&
	       info.driver_name != NULL &&
	       strcmp(info.driver_name, "net_bonding") == 0;
}

/*
 * The members a bond was given on the command line (slave=NAME in its
 * devargs): the bond adds them only when it is configured, so before that
 * the bonding API knows none.
 */
static uint16_t
members_from_devargs(uint16_t port_id, uint16_t *ids, uint16_t max)
{
	struct rte_eth_dev_info info;
	const struct rte_devargs *da;
	char buf[1024], *tok, *save = NULL;
	uint16_t n = 0, pid;

	if (rte_eth_dev_info_get(port_id, &info) != 0 || info.device == NULL)
		return 0;
	da = rte_dev_devargs(info.device);
	if (da == NULL || da->args == NULL || strlen(da->args) >= sizeof(buf))
		return 0;
	strcpy(buf, da->args);
	for (tok = strtok_r(buf, ",", &save); tok != NULL && n < max;
	     tok = strtok_r(NULL, ",", &save))
		if (strncmp(tok, "slave=", 6) == 0 &&
		    rte_eth_dev_get_port_by_name(tok + 6, &pid) == 0)
			ids[n++] = pid;
	return n;
}

uint16_t
nb_port_members(uint16_t port_id, uint16_t *ids, uint16_t max)
{
	uint16_t all[RTE_MAX_ETHPORTS];
	int n, i;

	if (!is_bond(port_id))
		return 0;
	n = rte_eth_bond_slaves_get(port_id, all, RTE_MAX_ETHPORTS);
	if (n <= 0)
		return members_from_devargs(port_id, ids, max);
	for (i = 0; i < n && i < max; i++)
		ids[i] = all[i];
	return (uint16_t)RTE_MIN(n, (int)max);
}

static int
bond_of(uint16_t port_id)
{
	uint16_t pid, m[RTE_MAX_ETHPORTS], n, i;

	RTE_ETH_FOREACH_DEV (pid) {
		n = nb_port_members(pid, m, RTE_MAX_ETHPORTS);
		for (i = 0; i < n; i++)
			if (m[i] == port_id)
				return pid;
	}
	return -1;
}

int
nb_port_bond(uint16_t port_id, struct nb_bond_info *b)
{
	uint16_t m[NB_MAX_MEMBERS], act[RTE_MAX_ETHPORTS], i, k;
	int nact;

	memset(b, 0, sizeof(*b));
	b->mode = -1;
	if (!is_bond(port_id))
		return 0;
	b->mode = rte_eth_bond_mode_get(port_id);
	b->primary = rte_eth_bond_primary_get(port_id);
	b->nb_members = nb_port_members(port_id, m, NB_MAX_MEMBERS);
	nact = rte_eth_bond_active_slaves_get(port_id, act, RTE_MAX_ETHPORTS);
	for (i = 0; i < b->nb_members; i++) {
		struct nb_member_stats *ms = &b->m[i];
		struct rte_eth_stats st;
		struct rte_eth_link link;

		ms->port_id = m[i];
		if (rte_eth_dev_get_name_by_port(m[i], ms->name) != 0)
			snprintf(ms->name, sizeof(ms->name), "port%u", m[i]);
		if (rte_eth_link_get_nowait(m[i], &link) == 0)
			ms->link_up = link.link_status == RTE_ETH_LINK_UP;
		for (k = 0; nact > 0 && k < nact; k++)
			if (act[k] == m[i])
				ms->active = 1;
		if (b->mode == BONDING_MODE_8023AD) {
			struct rte_eth_bond_8023ad_slave_info si;

			if (rte_eth_bond_8023ad_slave_info(port_id, m[i],
							   &si) == 0) {
				ms->actor_state = si.actor_state;
				ms->partner_state = si.partner_state;
			}
		}
		if (rte_eth_stats_get(m[i], &st) == 0) {
			ms->ipackets = st.ipackets;
			ms->opackets = st.opackets;
			ms->ibytes = st.ibytes;
			ms->obytes = st.obytes;
		}
	}
	return 0;
}

/* TLB and ALB send each member's frames with that member's own MAC
 * (bond_ethdev_tx_burst_tlb); the other modes with the bond's. */
static int
rewrites_source(uint16_t port_id)
{
	int mode = is_bond(port_id) ? rte_eth_bond_mode_get(port_id) : -1;

	return mode == BONDING_MODE_TLB || mode == BONDING_MODE_ALB;
}

uint16_t
nb_port_other_src_macs(uint16_t port_id, uint8_t (*macs)[6], uint16_t max)
{
	uint16_t m[NB_MAX_MEMBERS], n, i, k = 0, j;
	struct rte_ether_addr own, a;

	if (!rewrites_source(port_id) ||
	    rte_eth_macaddr_get(port_id, &own) != 0)
		return 0;
	n = nb_port_members(port_id, m, NB_MAX_MEMBERS);
	for (i = 0; i < n && k < max; i++) {
		if (rte_eth_macaddr_get(m[i], &a) != 0 ||
		    rte_is_same_ether_addr(&a, &own))
			continue;
		for (j = 0; j < k && memcmp(macs[j], a.addr_bytes, 6); j++)
			;
		if (j == k)
			memcpy(macs[k++], a.addr_bytes, 6);
	}
	return k;
}

uint16_t
nb_port_ctl_tx_port(uint16_t port_id)
{
	int primary;

	if (!rewrites_source(port_id))
		return port_id;
	primary = rte_eth_bond_primary_get(port_id);
	return primary >= 0 ? (uint16_t)primary : port_id;
}

int
nb_port_bond_of(uint16_t port_id)
{
	return bond_of(port_id);
}

/* Members whose link is up, and how many of them the bond uses. */
static void
bond_counts(uint16_t port_id, int *up, int *active)
{
	uint16_t m[NB_MAX_MEMBERS], act[RTE_MAX_ETHPORTS], n, i;
	struct rte_eth_link link;
	int nact;

	*up = 0;
	n = nb_port_members(port_id, m, NB_MAX_MEMBERS);
	for (i = 0; i < n; i++)
		if (rte_eth_link_get_nowait(m[i], &link) == 0 &&
		    link.link_status == RTE_ETH_LINK_UP)
			(*up)++;
	nact = rte_eth_bond_active_slaves_get(port_id, act, RTE_MAX_ETHPORTS);
	*active = nact < 0 ? 0 : nact;
}

int
nb_port_bond_settle(uint16_t port_id, double timeout_s, double *waited_s)
{
	uint64_t hz = rte_get_tsc_hz(), t0 = rte_get_tsc_cycles();
	uint64_t end = t0 + (uint64_t)(timeout_s * (double)hz);
	int up, active, ret = 1;

	*waited_s = 0;
	if (!is_bond(port_id))
		return 0;
	bond_counts(port_id, &up, &active);
	while (active < up) {
		if (rte_get_tsc_cycles() >= end || nb_phase_signal() != 0) {
			ret = -ETIMEDOUT;
			break;
		}
		rte_delay_us_sleep(5 * 1000);
		bond_counts(port_id, &up, &active);
	}
	*waited_s = (double)(rte_get_tsc_cycles() - t0) / (double)hz;
	return ret;
}

int
nb_port_lacp(uint16_t port_id)
{
	return is_bond(port_id) &&
	       rte_eth_bond_mode_get(port_id) == BONDING_MODE_8023AD;
}

/* Every member with a link up in LACP both ways; the members not yet into
 * *pending (port ids, comma separated). */
static int
lacp_ready(uint16_t port_id, char *pending, size_t len)
{
	struct nb_bond_info b;
	size_t off = 0;
	int ready = 1;
	uint16_t i;

	nb_port_bond(port_id, &b);
	pending[0] = '\0';
	for (i = 0; i < b.nb_members; i++) {
		if (!b.m[i].link_up || nb_lacp_member_up(&b.m[i]))
			continue;
		ready = 0;
		if (off < len)
			off += (size_t)snprintf(pending + off, len - off,
						"%s%u (LACP state %02x, "
						"partner's %02x)",
						off ? ", " : "", b.m[i].port_id,
						b.m[i].actor_state,
						b.m[i].partner_state);
	}
	return ready;
}

/* What the bonding PMD does for LACP only from inside the application's
 * bursts: take in the partner's LACPDUs (rx), send its own (a zero TX
 * burst sends what the state machines queued). */
static void
lacp_turn(uint16_t port_id, uint16_t nb_rxq)
{
	struct rte_mbuf *m[32];
	uint16_t q, n;

	for (q = 0; q < nb_rxq; q++) {
		n = rte_eth_rx_burst(port_id, q, m, RTE_DIM(m));
		if (n)
			rte_pktmbuf_free_bulk(m, n);
	}
	rte_eth_tx_burst(port_id, 0, NULL, 0);
}

int
nb_ports_lacp_settle(const uint16_t *ids, const uint16_t *nb_rxq, uint16_t n,
		     double timeout_s, double *waited_s, char *err,
		     size_t errlen)
{
	uint64_t hz = rte_get_tsc_hz(), t0 = rte_get_tsc_cycles();
	uint64_t end = t0 + (uint64_t)(timeout_s * (double)hz);
	char pending[256];
	uint16_t i, any = 0, ready;

	*waited_s = 0;
	for (i = 0; i < n; i++)
		any = (uint16_t)(any + nb_port_lacp(ids[i]));
	if (any == 0)
		return 0;
	for (;;) {
		for (i = 0; i < n; i++)
			if (nb_port_lacp(ids[i]))
				lacp_turn(ids[i], nb_rxq[i]);
		for (i = 0, ready = 1; i < n && ready; i++)
			if (nb_port_lacp(ids[i]) &&
			    !lacp_ready(ids[i], pending, sizeof(pending))) {
				ready = 0;
				if (rte_get_tsc_cycles() >= end) {
					*waited_s =
						(double)(rte_get_tsc_cycles() -
							 t0) /
						(double)hz;
					snprintf(err, errlen,
						 "bond port %u (802.3ad): "
						 "member %s not in LACP with "
						 "a partner after %.1f s",
						 ids[i], pending, *waited_s);
					return -ETIMEDOUT;
				}
			}
		if (ready)
			break;
		if (nb_phase_signal() != 0) {
			snprintf(err, errlen, "interrupted");
			return -EINTR;
		}
		rte_delay_us_sleep(5 * 1000);
	}
	*waited_s = (double)(rte_get_tsc_cycles() - t0) / (double)hz;
	return 1;
}
