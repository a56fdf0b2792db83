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

#include <rte_mempool.h>

#include "nb_pmd_stats.h"

struct nb_port_req {
	uint16_t nb_rxq, nb_txq;
	uint16_t rxd, txd;
	uint32_t max_frame; /* largest frame incl. FCS that must pass */
	unsigned int nb_rx_mbufs;
};

struct nb_port {
	struct nb_port_desc desc;
	struct rte_mempool *rx_pool;
	int started;
};

/* Configure queues, RX mempool on the port's NUMA node, start. */
int nb_port_setup(uint16_t port_id, const struct nb_port_req *req,
		  struct nb_port *p, char *err, size_t errlen);

/* Poll link state until up or timeout_s passes; refreshes p->desc. */
int nb_port_wait_link(struct nb_port *p, double timeout_s);

/* Read identity (driver, MAC, NUMA node, link) without configuring. */
int nb_port_describe(uint16_t port_id, struct nb_port_desc *d);

int nb_port_stats(uint16_t port_id, struct nb_pmd_stats *s);
void nb_port_stats_reset(uint16_t port_id);

/*
 * A TX mempool whose mbufs' data areas are zeroed once at creation, so a
 * generator needs to copy only the headers of its template per frame.
 */
struct rte_mempool *nb_tx_pool_create(const char *name, unsigned int n,
				      uint32_t max_frame, int socket);

void nb_port_shutdown(struct nb_port *p);

/* Read and free whatever waits in an RX queue (before a counter reset). */
void nb_port_rx_flush(uint16_t port_id, uint16_t queue);

#endif /* NB_PORT_H */
