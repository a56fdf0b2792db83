/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "nb_frame.h"
#include "nb_queue_iv.h"

int
nb_queue_iv_copy(struct nb_interval *dst, const struct nb_interval *src)
{
	dst->queues = NULL;
	dst->nb_queues = 0;
	if (src->nb_queues == 0 || src->queues == NULL)
		return 0;
	dst->queues = malloc(src->nb_queues * sizeof(*dst->queues));
	if (dst->queues == NULL)
		return -ENOMEM;
	memcpy(dst->queues, src->queues, src->nb_queues * sizeof(*dst->queues));
	dst->nb_queues = src->nb_queues;
	return 0;
}

void
nb_queue_iv_release(struct nb_interval *iv)
{
	free(iv->queues);
	iv->queues = NULL;
	iv->nb_queues = 0;
}

static struct nb_iv_queue *
find(struct nb_interval *iv, uint16_t port, uint16_t queue)
{
	uint16_t i;

	for (i = 0; i < iv->nb_queues; i++)
		if (iv->queues[i].port == port && iv->queues[i].queue == queue)
			return &iv->queues[i];
	return NULL;
}

static uint64_t
plus(uint64_t v, int64_t d)
{
	return d < 0 && (uint64_t)-d > v ? 0 : (uint64_t)((int64_t)v + d);
}

void
nb_queue_iv_close(struct nb_result *r, struct nb_interval *last)
{
	uint16_t i, q;
	uint32_t k;

	if (last == NULL || last->queues == NULL)
		return;
	for (i = 0; i < r->nb_ports; i++) {
		const struct nb_port_result *p = &r->ports[i];

		for (q = 0; p->nb_queues > 1 && q < p->nb_queues; q++) {
			struct nb_iv_queue *l = find(last, p->desc.port_id, q);
			int64_t s[4] = {0};

			if (l == NULL)
				continue;
			for (k = 0; k < r->nb_intervals; k++) {
				struct nb_iv_queue *e = find(
					&r->intervals[k], p->desc.port_id, q);

				if (e == NULL)
					continue;
				s[0] += (int64_t)e->tx_pkts;
				s[1] += (int64_t)e->tx_bytes;
				s[2] += (int64_t)e->rx_pkts;
				s[3] += (int64_t)e->rx_bytes;
			}
			l->tx_pkts = plus(l->tx_pkts,
					  (int64_t)p->q_tx_pkts[q] - s[0]);
			l->tx_bytes = plus(l->tx_bytes,
					   (int64_t)p->q_tx_bytes[q] - s[1]);
			l->rx_pkts = plus(l->rx_pkts,
					  (int64_t)p->q_rx_pkts[q] - s[2]);
			l->rx_bytes = plus(l->rx_bytes,
					   (int64_t)p->q_rx_bytes[q] - s[3]);
		}
	}
}

void
nb_queue_iv_port_sums(const struct nb_interval *iv, uint16_t port, uint64_t *tx,
		      uint64_t *rx)
{
	uint16_t i;

	*tx = *rx = 0;
	for (i = 0; i < iv->nb_queues; i++)
		if (iv->queues[i].port == port) {
			*tx += iv->queues[i].tx_pkts;
			*rx += iv->queues[i].rx_pkts;
		}
}

double
nb_queue_iv_share(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static double
per_sec(double v, double secs)
{
	return secs > 0 ? v / secs : 0.0;
}

json_t *
nb_queue_iv_json(const struct nb_interval *iv)
{
	json_t *arr = json_array();
	double secs = iv->end - iv->start;
	uint16_t i;

	for (i = 0; i < iv->nb_queues; i++) {
		const struct nb_iv_queue *e = &iv->queues[i];
		uint64_t tx, rx;

		nb_queue_iv_port_sums(iv, e->port, &tx, &rx);
		json_array_append_new(
			arr,
			json_pack(
				"{s:i, s:i, s:I, s:I, s:I, s:I, s:f, s:f, "
				"s:f, s:f, s:f, s:f}",
				"port", (int)e->port, "queue", (int)e->queue,
				"tool_tx_packets", (json_int_t)e->tx_pkts,
				"tool_tx_bytes", (json_int_t)e->tx_bytes,
				"tool_rx_packets", (json_int_t)e->rx_pkts,
				"tool_rx_bytes", (json_int_t)e->rx_bytes,
				"tx_share_percent",
				nb_queue_iv_share(e->tx_pkts, tx),
				"rx_share_percent",
				nb_queue_iv_share(e->rx_pkts, rx),
				"tx_bits_per_second",
				per_sec(e->tx_bytes * 8.0, secs),
				"rx_bits_per_second",
				per_sec(e->rx_bytes * 8.0, secs),
				"rx_l1_bits_per_second",
				per_sec((e->rx_bytes +
					 e->rx_pkts * (double)NB_L1_OVERHEAD) *
						8.0,
					secs),
				"rx_pps", per_sec((double)e->rx_pkts, secs)));
	}
	return arr;
}
