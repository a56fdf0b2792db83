/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Port bring-up and tear-down: everything that calls rte_eth_* outside the
 * worker loops.  Helpers return 0 or -errno and write a reason into err;
 * main() decides the exit code.
 */
#ifndef NB_PORT_H
#define NB_PORT_H

#include <stddef.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "nb_offload.h"
#include "nb_plan.h"
#include "nb_pmd_stats.h"
#include "nb_pool.h" /* the pools, which most users of ports need */

/* The most mbufs one lcore holds at once in a burst (workers' NB_BURST). */
#define NB_PORT_BURST 32

struct nb_port_req {
	uint16_t nb_rxq, nb_txq;
	uint16_t rxd, txd;
	uint32_t max_frame; /* largest frame incl. FCS that must pass */
	unsigned int nb_rx_mbufs;
	double start_timeout;	   /* seconds a start that fails for want of the
				    * far end (memif client first) is retried */
	enum nb_csum_mode tx_csum; /* --tx-checksum */
	uint8_t tunnel;		   /* --encap: checksums in software */
	uint8_t flows;		   /* --flows: checksums in software */
	uint8_t proto;		   /* the test's (the plan's checksum) */
	struct nb_portset set;	   /* --flow-control, --link-speed, --mtu */
	/* frames in two mbufs may be sent (closed-loop TCP's payload
	 * attached to its pattern, not copied): multi-segment TX on where
	 * the device has it, and no MBUF_FAST_FREE then */
	uint8_t tx_chain;
};

struct nb_port {
	struct nb_port_desc desc;
	struct rte_mempool *rx_pool;
	int started;
	struct nb_dev_caps caps;	/* what the device offers */
	enum nb_csum_mode tx_csum;	/* as asked (the jobs' checksums) */
	struct nb_offload_plan offload; /* what is used of it */
	int lacp;			/* an 802.3ad bond (nb_port_lacp) */
	int tx_chain; /* asked, and the device sends chained mbufs */
};

/* Configure queues, RX mempool on the port's NUMA node, start. */
int nb_port_setup(uint16_t port_id, const struct nb_port_req *req,
		  struct nb_port *p, char *err, size_t errlen);

/* Poll link state until up or timeout_s passes; refreshes p->desc. */
int nb_port_wait_link(struct nb_port *p, double timeout_s);

/* 1 if the port is a member of a bond (the bond configures it). */
int nb_port_is_member(uint16_t port_id);
/* The bond that has port_id as a member, or -1. */
int nb_port_bond_of(uint16_t port_id);
/* A bond's mode, members and each member's counters; b->mode -1 and 0
 * returned for a port that is no bond. */
int nb_port_bond(uint16_t port_id, struct nb_bond_info *b);
/*
 * A bond is ready when it uses (has activated) every member whose link is
 * up: the bonding PMD activates members from its link
 * polling, on the interrupt thread, some time after the start, and until
 * then it sends (and receives) on fewer, so a 5-tuple hash would move a
 * flow from one member to another mid-test.  Waits for that, timeout_s at
 * most: 1 when ready, -ETIMEDOUT when not by then, 0 at once for a port
 * that is no bond; *waited_s the time it took.
 */
int nb_port_bond_settle(uint16_t port_id, double timeout_s, double *waited_s);
/* 1 if the port is an 802.3ad (LACP) bond. */
int nb_port_lacp(uint16_t port_id);
/*
 * An 802.3ad bond carries data only once LACP agrees with the partner on
 * every member, and the bonding PMD sends and takes in LACPDUs only inside
 * the application's bursts (without dedicated queues, which take an rte_flow
 * rule that software ports lack).  Before the workers start: poll every
 * LACP bond among ids (the RX queues, frames dropped; a zero burst on TX
 * queue 0) until each member with a link is in sync, collecting and
 * distributing at both ends, timeout_s at most.  1 when ready, 0 at once
 * when none is LACP, -ETIMEDOUT (err says which member, in which state).
 */
int nb_ports_lacp_settle(const uint16_t *ids, const uint16_t *nb_rxq,
			 uint16_t n, double timeout_s, double *waited_s,
			 char *err, size_t errlen);
/* The ports that are a bond's members, under it (at most max). */
uint16_t nb_port_members(uint16_t port_id, uint16_t *ids, uint16_t max);
/*
 * The other source MACs a port's frames may carry: for a TLB or ALB bond
 * its members' own MACs that differ from the bond's (each member sends
 * with its own); none for any other port.  Up to max; how many.
 */
uint16_t nb_port_other_src_macs(uint16_t port_id, uint8_t (*macs)[6],
				uint16_t max);
/*
 * Where the control lcore sends: a TLB or ALB bond's primary member,
 * which sends with the bond's MAC (through the bond, another member
 * would put its own), so that the peer hears control from one address;
 * any other port itself.  The same queue number serves: a bond sets its
 * members up with its own queues.
 */
uint16_t nb_port_ctl_tx_port(uint16_t port_id);
/* The most RX and TX queues the device can give. */
int nb_port_max_queues(uint16_t port_id, uint16_t *max_rxq, uint16_t *max_txq);
/*
 * Move EAL's interrupt thread (memif and vhost messages, a bond's link
 * checks, alarms) onto the main (control) lcore's CPUs, where only
 * sleeping lcores run.  EAL puts it on the CPUs no lcore of ours uses,
 * which on a small host are another process's busy pollers: a bond over
 * af_packet then stalled behind it (usage.md, "Bonds").  0, or -errno.
 */
int nb_intr_thread_beside_main(void);

/* Just before rte_eal_cleanup(): no rebuild of the EAL interrupt thread's
 * list of sources left pending, which would read memory the cleanup frees
 * (nb_intr.c). */
void nb_intr_quiesce(void);

/* 1 when the port's link is up now (no waiting), else 0. */
int nb_port_link_up(uint16_t port_id);
/*
 * The link as far as it can be seen, 1 up or 0 down: a port with a
 * kernel interface behind it (dev_info's if_index: af_packet, whose PMD
 * in DPDK 22.11 says up from start to stop whatever the cable) by that
 * interface's flags, IFF_UP and IFF_RUNNING (the carrier); any other by
 * its PMD's link status.  *how (may be NULL) names which, for a report.
 */
int nb_port_link_seen(uint16_t port_id, const char **how);
/* Read identity (driver, MAC, NUMA node, link) without configuring. */
int nb_port_describe(uint16_t port_id, struct nb_port_desc *d);

int nb_port_stats(uint16_t port_id, struct nb_pmd_stats *s);
void nb_port_stats_reset(uint16_t port_id);

/*
 * At exit: stop every port, then close them in the reverse order of their
 * set-up, while no driver callback runs on the EAL interrupt thread (a
 * memif peer's disconnect would race the stop).
 */
void nb_ports_shutdown(struct nb_port *ports, uint16_t n);

/* Ports probed by EAL: how many, whether an id is one, their ids. */
uint16_t nb_port_count(void);
int nb_port_valid(uint16_t port_id);
/* The ports a user tests on: every port but bond members. */
uint16_t nb_port_ids(uint16_t *ids, uint16_t max);

/* The NUMA socket of a port (the caller's when the port does not say). */
int nb_port_socket(uint16_t port_id);

/*
 * What the port's RX pool must keep for the data path (nb_plan.h): its
 * size, the descriptors and queues set up, the lcores and their cache.
 * -ENOENT when the port has no RX pool of ours.
 */
int nb_port_rx_budget(uint16_t port_id, struct nb_pool_budget *b);

/* One burst on the control path (not the workers' inline burst calls). */
uint16_t nb_port_tx(uint16_t port_id, uint16_t queue, struct rte_mbuf **m,
		    uint16_t n);
uint16_t nb_port_rx(uint16_t port_id, uint16_t queue, struct rte_mbuf **m,
		    uint16_t n);

/* Read and free whatever waits in an RX queue (before a counter reset). */
void nb_port_rx_flush(uint16_t port_id, uint16_t queue);

#endif /* NB_PORT_H */
