/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which worker gives an 802.3ad bond's idle queues their turns (nb_keep in
 * nb_worker.h): a queue is only ever burst on by the one lcore that owns
 * that queue number on the port, so a turn never races a job's burst.
 */
#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "nb_jobs.h"

/* The worker whose job bursts on (port, queue) in that direction. */
static struct nb_worker *
user(const struct nb_jobs *js, uint16_t port, uint16_t q, int rx)
{
	unsigned int i, k;

	for (i = 0; i < js->nb_workers; i++) {
		struct nb_worker *w = js->workers[i];

		for (k = 0; rx && k < w->nb_rx; k++)
			if (w->rx[k]->port == port && w->rx[k]->queue == q)
				return w;
		for (k = 0; !rx && k < w->nb_tx; k++)
			if (w->tx[k]->port == port && w->tx[k]->queue == q)
				return w;
	}
	return NULL;
}

static int
add(struct nb_worker *w, uint16_t port, uint16_t q, uint8_t rx)
{
	struct nb_keep *k = w->keep;

	if (k == NULL) {
		k = rte_zmalloc_socket("nb_keep", sizeof(*k),
				       RTE_CACHE_LINE_SIZE,
				       (int)rte_lcore_to_socket_id(w->lcore));
		if (k == NULL)
			return -1;
		k->period_tsc = rte_get_tsc_hz() * NB_KEEP_PERIOD_MS / 1000;
		w->keep = k;
	}
	if (k->n == NB_MAX_KEEP)
		return -1;
	k->e[k->n].port = port;
	k->e[k->n].queue = q;
	k->e[k->n].rx = rx;
	k->n++;
	return 0;
}

/*
 * One bond: some worker must send (a TX turn on a queue it owns, as the
 * generator may idle between bursts or be done), and every RX queue no
 * receiver polls needs a turn from the worker owning that queue's TX side
 * (or the sending worker).
 */
static int
keep_port(const struct nb_jobs *js, const struct nb_port *p)
{
	uint16_t port = p->desc.port_id, q;
	struct nb_worker *tx = NULL, *w;
	uint16_t txq = 0;

	for (q = 0; q < p->desc.nb_txq && tx == NULL; q++)
		if ((tx = user(js, port, q, 0)) != NULL)
			txq = q;
	/* no job sends on the port (a loopback's RX port): the receiver of
	 * RX queue q turns TX queue q, which nothing else uses then */
	for (q = 0; q < p->desc.nb_rxq && q < p->desc.nb_txq && tx == NULL; q++)
		if ((tx = user(js, port, q, 1)) != NULL)
			txq = q;
	if (tx == NULL)
		return 0; /* no job on the port: nothing runs the test there */
	if (add(tx, port, txq, 0) != 0)
		return -1;
	for (q = 0; q < p->desc.nb_rxq; q++) {
		if (user(js, port, q, 1) != NULL)
			continue;
		w = user(js, port, q, 0);
		if (add(w != NULL ? w : tx, port, q, 1) != 0)
			return -1;
	}
	return 0;
}

int
nb_jobs_keep_lacp(struct nb_jobs *js, const struct nb_jobs_ports *ports)
{
	uint16_t i;

	for (i = 0; i < ports->nb_ports; i++)
		if (ports->ports[i].lacp &&
		    keep_port(js, &ports->ports[i]) != 0)
			return -1;
	return 0;
}

void
nb_jobs_keep_free(struct nb_jobs *js)
{
	unsigned int i;

	for (i = 0; i < js->nb_workers; i++) {
		struct nb_worker *w = js->workers[i];

		if (w != NULL && w->keep != NULL) {
			rte_free(w->keep);
			w->keep = NULL;
		}
	}
}
