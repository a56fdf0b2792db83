/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test of many ports (--ports): the pair rows, the loss matrix (a row
 * per source port, a column per destination: readable at 16 ports) and
 * the ports' totals, in the text report and in JSON end.mesh.
 */
#include <stdio.h>

#include "nb_mesh.h"
#include "nb_mesh_hosts.h"
#include "nb_result.h"
#include "nb_units.h"

/* Pair rows are printed up to this many pairs; JSON has every pair. */
#define MESH_TEXT_PAIRS 64

static double
pct(uint64_t part, uint64_t whole)
{
	return 100.0 * nb_div0((double)part, (double)whole);
}

static void
pair_rows(FILE *f, const struct nb_mesh_result *m)
{
	uint16_t k;

	fprintf(f, "  pair        sent   forwarded       lost   loss %%  "
		   "elsewhere  reord    dup   lat mean us   p99 us   max us\n");
	for (k = 0; k < m->nb_pairs; k++) {
		const struct nb_mesh_pair_result *p = &m->pairs[k];
		char pair[32], a[12], b[12];

		snprintf(pair, sizeof(pair), "%s>%s",
			 nb_mesh_port_label(p->src, a, sizeof(a)),
			 nb_mesh_port_label(p->dst, b, sizeof(b)));
		fprintf(f,
			"  %-7s %10llu %11llu %10llu %8.4g %10llu %6llu %6llu "
			"%13.2f %8.2f %8.2f\n",
			pair, (unsigned long long)p->sent,
			(unsigned long long)p->unique,
			(unsigned long long)p->lost, pct(p->lost, p->sent),
			(unsigned long long)p->elsewhere,
			(unsigned long long)p->out_of_order,
			(unsigned long long)p->duplicates, p->lat_mean / 1e3,
			(double)p->lat_p99 / 1e3, (double)p->lat_max / 1e3);
	}
}

const struct nb_mesh_pair_result *
nb_mesh_pair_of(const struct nb_mesh_result *m, uint16_t src, uint16_t dst)
{
	uint16_t k;

	for (k = 0; k < m->nb_pairs; k++)
		if (m->pairs[k].src == src && m->pairs[k].dst == dst)
			return &m->pairs[k];
	return NULL;
}

static void
loss_matrix(FILE *f, const struct nb_mesh_result *m)
{
	uint16_t i, j;
	char l[12];

	fprintf(f, "Loss matrix, %% of each pair's frames (row: source port, "
		   "column: destination; '.': no pair):\n  src\\dst");
	for (j = 0; j < m->nb_ports; j++)
		fprintf(f, " %6s",
			nb_mesh_port_label(m->ports[j].port, l, sizeof(l)));
	fprintf(f, "\n");
	for (i = 0; i < m->nb_ports; i++) {
		fprintf(f, "  %7s",
			nb_mesh_port_label(m->ports[i].port, l, sizeof(l)));
		for (j = 0; j < m->nb_ports; j++) {
			const struct nb_mesh_pair_result *p = nb_mesh_pair_of(
				m, m->ports[i].port, m->ports[j].port);

			if (p == NULL)
				fprintf(f, " %6s", ".");
			else if (p->lost == 0)
				fprintf(f, " %6s", "0");
			else
				fprintf(f, " %6.3g", pct(p->lost, p->sent));
		}
		fprintf(f, "\n");
	}
}

static void
port_rows(FILE *f, const struct nb_result *r, const struct nb_mesh_result *m)
{
	uint16_t i;
	char l[12];

	fprintf(f,
		"Ports (sent: of the pairs from it; received, lost: of "
		"the pairs into it; foreign: frames to other ports it "
		"took in%s):\n  port        sent   sent Mpps    received   "
		"recv Mpps       lost   loss %%    foreign\n",
		m->across ? "; rN: the responder's port N, rK.N: the K-th "
			    "responder's"
			  : "");
	for (i = 0; i < m->nb_ports; i++) {
		const struct nb_mesh_port_result *p = &m->ports[i];
		uint64_t into = p->received + p->lost_in;

		fprintf(f,
			"  %4s %11llu %11.6f %11llu %11.6f %10llu %8.4g "
			"%10llu\n",
			nb_mesh_port_label(p->port, l, sizeof(l)),
			(unsigned long long)p->sent,
			nb_div0((double)p->sent, r->tx_seconds) / 1e6,
			(unsigned long long)p->received,
			nb_div0((double)p->received, r->rx_seconds) / 1e6,
			(unsigned long long)p->lost_in, pct(p->lost_in, into),
			(unsigned long long)p->foreign);
	}
}

void
nb_report_mesh_text(FILE *f, const struct nb_result *r)
{
	const struct nb_mesh_result *m = r->mesh;

	if (m == NULL)
		return;
	fprintf(f,
		"Pairs: %s, %u pairs (forwarded: distinct frames at the "
		"destination; elsewhere: taken in by other ports)\n",
		nb_mesh_rfc_name(m->kind), m->nb_pairs);
	if (m->nb_pairs <= MESH_TEXT_PAIRS)
		pair_rows(f, m);
	else
		fprintf(f, "  (%u pairs: every row is in the JSON, end.mesh)\n",
			m->nb_pairs);
	loss_matrix(f, m);
	port_rows(f, r, m);
}

static json_t *
pair_json(const struct nb_mesh_result *m, const struct nb_mesh_pair_result *p)
{
	char h[16];
	json_t *o = json_pack(
		"{s:i,s:i,s:I,s:I,s:I,s:I,s:f,s:I,s:I,s:I}", "src",
		(int)nb_mesh_port_id(p->src), "dst",
		(int)nb_mesh_port_id(p->dst), "sent", (json_int_t)p->sent,
		"received", (json_int_t)p->received, "forwarded",
		(json_int_t)p->unique, "lost", (json_int_t)p->lost,
		"lost_percent", pct(p->lost, p->sent), "elsewhere",
		(json_int_t)p->elsewhere, "out_of_order",
		(json_int_t)p->out_of_order, "duplicates",
		(json_int_t)p->duplicates);

	if (m->across) {
		json_object_set_new(
			o, "src_host",
			json_string(nb_mesh_host_of(p->src, h, sizeof(h))));
		json_object_set_new(
			o, "dst_host",
			json_string(nb_mesh_host_of(p->dst, h, sizeof(h))));
	}
	if (p->lat_n)
		json_object_set_new(o, "latency",
				    json_pack("{s:I,s:I,s:f,s:I,s:I,s:I}",
					      "count", (json_int_t)p->lat_n,
					      "min_ns", (json_int_t)p->lat_min,
					      "mean_ns", p->lat_mean, "p50_ns",
					      (json_int_t)p->lat_p50, "p99_ns",
					      (json_int_t)p->lat_p99, "max_ns",
					      (json_int_t)p->lat_max));
	return o;
}

json_t *
nb_json_mesh(const struct nb_result *r)
{
	const struct nb_mesh_result *m = r->mesh;
	json_t *pairs, *ports;
	uint16_t i;
	char h[16];

	if (m == NULL)
		return NULL;
	pairs = json_array();
	ports = json_array();
	for (i = 0; i < m->nb_pairs; i++)
		json_array_append_new(pairs, pair_json(m, &m->pairs[i]));
	for (i = 0; i < m->nb_ports; i++) {
		const struct nb_mesh_port_result *p = &m->ports[i];
		json_t *o;

		o = json_pack("{s:i,s:I,s:f,s:I,s:f,s:I,s:I}", "port",
			      (int)nb_mesh_port_id(p->port), "sent",
			      (json_int_t)p->sent, "sent_pps",
			      nb_div0((double)p->sent, r->tx_seconds),
			      "received", (json_int_t)p->received,
			      "received_pps",
			      nb_div0((double)p->received, r->rx_seconds),
			      "lost_in", (json_int_t)p->lost_in, "foreign",
			      (json_int_t)p->foreign);
		if (m->across)
			json_object_set_new(o, "host",
					    json_string(nb_mesh_host_of(
						    p->port, h, sizeof(h))));
		json_array_append_new(ports, o);
	}
	return json_pack("{s:s,s:s,s:i,s:o,s:o}", "pattern",
			 nb_mesh_name(m->kind), "rfc",
			 nb_mesh_rfc_name(m->kind), "streams_per_pair",
			 (int)m->per_pair, "pairs", pairs, "ports", ports);
}
