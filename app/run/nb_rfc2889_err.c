/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889 5.9, errored frame filtering: the sending port sends
 * ERR_FRAMES frames of each kind a PMD can be made to send (undersize,
 * oversize; core/nb_rfc2889_err.h) from the control lcore, before any
 * trial, and the receiving port's queues are read for them: forwarded or
 * filtered, per kind, against what the sending port's PMD says it sent.
 * The kinds ethdev cannot make are named as such.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_mbuf.h>

#include "nb_log.h"
#include "nb_pool.h"
#include "nb_port.h"
#include "nb_rfc2889_err.h"
#include "nb_rfc2889_run.h"
#include "nb_seam.h"
#include "nb_suite_int.h"
#include "nb_suite_opts.h"

#define ERR_FRAMES  1000 /* of each kind */
#define ERR_BURST   32	 /* a burst every ERR_GAP_US: 32,000 frames/s */
#define ERR_GAP_US  1000
#define ERR_WAIT_US 100000 /* after the last burst, for the switch */

static const char *const cannot[] = {
	"bad FCS: cannot be made: the NIC appends the FCS, and ethdev has no "
	"way to send a wrong one",
	"alignment errors, dribble bits: cannot be made: they are not whole "
	"bytes, and a PMD sends bytes",
};

static const struct nb_port *
port_of(const struct nb_app *app, uint16_t id)
{
	uint16_t i;

	for (i = 0; i < app->nb_ports; i++)
		if (app->port_ids[i] == id)
			return &app->ports[i];
	return NULL;
}

/* Every frame waiting on r's queues; counts[kind] += those of ours. */
static void
count_rx(uint16_t port, uint32_t nb_queues, uint64_t *counts)
{
	struct rte_mbuf *m[ERR_BURST];
	uint16_t n, i;
	uint32_t q;
	int kind;

	for (q = 0; q < nb_queues; q++)
		while ((n = nb_port_rx(port, (uint16_t)q, m, ERR_BURST)) > 0) {
			for (i = 0; i < n; i++) {
				kind = nb_err_match(
					rte_pktmbuf_mtod(m[i], uint8_t *),
					m[i]->data_len);
				if (kind >= 0)
					counts[kind]++;
			}
			rte_pktmbuf_free_bulk(m, n);
		}
}

/* ERR_FRAMES frames of kind from s to r, r's queues read after each
 * burst (a receive ring may hold fewer); how many the TX queue took. */
static uint64_t
send_kind(struct rte_mempool *mp, const struct nb_port *s,
	  const struct nb_port *r, uint32_t nq, int kind, uint64_t *counts)
{
	struct rte_mbuf *m[ERR_BURST];
	uint64_t took = 0, seq = 0;
	uint16_t n, i, k;
	int len;

	while (seq < ERR_FRAMES && !nb_force_quit) {
		n = ERR_FRAMES - seq < ERR_BURST ? ERR_FRAMES - seq : ERR_BURST;
		if (rte_pktmbuf_alloc_bulk(mp, m, n) != 0)
			break;
		for (i = 0; i < n; i++) {
			len = nb_err_frame(rte_pktmbuf_mtod(m[i], uint8_t *),
					   rte_pktmbuf_tailroom(m[i]), kind,
					   s->desc.mac, r->desc.mac,
					   (uint32_t)seq++);
			m[i]->data_len = (uint16_t)(len > 0 ? len : 0);
			m[i]->pkt_len = m[i]->data_len;
		}
		k = nb_port_tx(s->desc.port_id, 0, m, n);
		took += k;
		if (k < n)
			rte_pktmbuf_free_bulk(m + k, n - k);
		nb_glue_nap_us(ERR_GAP_US);
		count_rx(r->desc.port_id, nq, counts);
	}
	return took;
}

static json_t *
kind_json(int kind, uint64_t took, uint64_t pmd_sent, uint64_t got, uint16_t s)
{
	char verdict[200];

	if (took < ERR_FRAMES || pmd_sent < took)
		snprintf(
			verdict, sizeof(verdict),
			"cannot be made on port %u: its PMD sent %llu of %d", s,
			(unsigned long long)(pmd_sent < took ? pmd_sent : took),
			ERR_FRAMES);
	else if (got >= ERR_FRAMES)
		snprintf(verdict, sizeof(verdict), "forwarded");
	else if (got == 0)
		snprintf(verdict, sizeof(verdict), "filtered");
	else
		snprintf(verdict, sizeof(verdict), "partly forwarded");
	return json_pack("{s:s,s:i,s:I,s:I,s:I,s:s}", "kind", nb_err_name(kind),
			 "wire_bytes", (int)nb_err_wire_len(kind), "sent",
			 (json_int_t)took, "pmd_sent", (json_int_t)pmd_sent,
			 "received", (json_int_t)got, "verdict", verdict);
}

/* A frame longer than the sending port's MTU allows never leaves it. */
static json_t *
too_long(int kind, const struct nb_port *s)
{
	char verdict[200];

	snprintf(verdict, sizeof(verdict),
		 "cannot be made on port %u: its MTU is %u; a %u B frame "
		 "needs --mtu %u or more, where the device allows it",
		 s->desc.port_id, s->desc.mtu, nb_err_wire_len(kind),
		 nb_err_wire_len(kind) - 18);
	return json_pack("{s:s,s:i,s:i,s:i,s:i,s:s}", "kind", nb_err_name(kind),
			 "wire_bytes", (int)nb_err_wire_len(kind), "sent", 0,
			 "pmd_sent", 0, "received", 0, "verdict", verdict);
}

static json_t *
run_kinds(struct suite *x, const struct nb_port *s, const struct nb_port *r)
{
	const struct nb_config *cfg = &x->app->cfg;
	uint32_t nq = cfg->queues + cfg->extra_rxq;
	struct nb_pmd_stats a, b;
	struct rte_mempool *mp;
	json_t *kinds = json_array();
	uint64_t counts[NB_ERR_KINDS], took;
	uint32_t q;
	int kind;

	/* a NIC keeps sent mbufs in its TX ring until it wraps: room for
	 * a ring of them and the bursts in hand */
	mp = nb_pool_get("nb_errf", cfg->txd + 4 * ERR_BURST,
			 nb_port_socket(s->desc.port_id));
	if (mp == NULL)
		return kinds;
	for (kind = 0; kind < NB_ERR_KINDS && !nb_force_quit; kind++) {
		if (nb_err_wire_len(kind) - 18 > s->desc.mtu) {
			json_array_append_new(kinds, too_long(kind, s));
			continue;
		}
		memset(counts, 0, sizeof(counts));
		for (q = 0; q < nq; q++)
			nb_port_rx_flush(r->desc.port_id, (uint16_t)q);
		nb_port_stats(s->desc.port_id, &a);
		took = send_kind(mp, s, r, nq, kind, counts);
		nb_glue_nap_us(ERR_WAIT_US);
		nb_port_stats(s->desc.port_id, &b);
		count_rx(r->desc.port_id, nq, counts);
		json_array_append_new(
			kinds, kind_json(kind, took, b.opackets - a.opackets,
					 counts[kind], s->desc.port_id));
	}
	return kinds;
}

/* Once, at the suite's first size: the frames have sizes of their own. */
void
nb_rfc2889_errored(struct suite *x)
{
	const struct nb_config *cfg = &x->app->cfg;
	const struct nb_port *s = port_of(x->app, cfg->tx_ports[0]),
			     *r = port_of(x->app, cfg->rx_ports[0]);
	struct nb_suite_row row;
	json_t *no = json_array();
	double start = nb_suite_now();
	size_t i;

	memset(&row, 0, sizeof(row));
	row.kind = NB_SUITE_ERRORED;
	for (i = 0; i < sizeof(cannot) / sizeof(cannot[0]); i++)
		json_array_append_new(no, json_string(cannot[i]));
	if (s == NULL || r == NULL) {
		snprintf(x->rep.error, sizeof(x->rep.error),
			 "errored frames: the ports are not up");
		x->failed = 1;
		json_decref(no);
		return;
	}
	row.detail =
		json_pack("{s:i,s:i,s:i,s:o,s:o}", "source", s->desc.port_id,
			  "receiver", r->desc.port_id, "frames", ERR_FRAMES,
			  "kinds", run_kinds(x, s, r), "cannot", no);
	row.valid = !nb_force_quit;
	row.seconds = nb_suite_now() - start;
	nb_suite_add_row(&x->rep, &row);
}
