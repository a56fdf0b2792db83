/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889's tests: what they need of the options, and their text tables
 * from each row's detail object (nb_rfc2889.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_rfc2889.h"
#include "nb_suite_opts.h"

/* The kinds that lay out the ports themselves: each runs alone. */
#define OWN_LAYOUT                                                             \
	(NB_SUITE_CONGESTION | NB_SUITE_BROADCAST | NB_SUITE_ADDR_CACHE |      \
	 NB_SUITE_ADDR_LEARN | NB_SUITE_ERRORED)

/* congestion: A>C, A>D at half A's load each, B>C at all of B's */
static int
congestion_layout(struct nb_config *cfg, char *err, size_t errlen)
{
	struct nb_mesh_cfg *m = &cfg->mesh;
	const uint16_t *p = m->ports;

	if (m->nb_ports != 4 || m->kind != NB_MESH_NONE) {
		snprintf(err, errlen,
			 "--test congestion takes four ports and no --mesh: "
			 "--ports A,B,C,D (A sends to C and D, B to C: C is "
			 "congested, D not)");
		return -EINVAL;
	}
	m->kind = NB_MESH_LIST;
	m->nb_given = 3;
	m->given_src[0] = p[0], m->given_dst[0] = p[2];
	m->given_src[1] = p[0], m->given_dst[1] = p[3];
	m->given_src[2] = p[1], m->given_dst[2] = p[2];
	m->given_weight[0] = m->given_weight[1] = 1;
	m->given_weight[2] = 2;
	return 0;
}

/* broadcast: the first port to ff:ff:ff:ff:ff:ff, the others receive
 * (a fan-out test, nb_mcast.h) */
static int
broadcast_layout(struct nb_config *cfg, char *err, size_t errlen)
{
	struct nb_mesh_cfg *m = &cfg->mesh;
	uint16_t i;

	if (m->kind != NB_MESH_NONE || cfg->have_dst_mac) {
		snprintf(err, errlen,
			 "--test broadcast takes --ports S,R1,R2,... and no "
			 "--mesh or --dst-mac: S broadcasts, the others "
			 "receive");
		return -EINVAL;
	}
	cfg->nb_tx_ports = 1;
	cfg->tx_ports[0] = m->ports[0];
	cfg->nb_rx_ports = 0;
	for (i = 1; i < m->nb_ports; i++)
		cfg->rx_ports[cfg->nb_rx_ports++] = m->ports[i];
	memset(cfg->dst_mac, 0xff, 6);
	cfg->have_dst_mac = 1;
	m->nb_ports = 0; /* no pairs: a fan-out */
	return 0;
}

/* errored frames: S sends them to R (two ports, no pairs) */
static int
errored_layout(struct nb_config *cfg, char *err, size_t errlen)
{
	struct nb_mesh_cfg *m = &cfg->mesh;

	if (m->nb_ports != 2 || m->kind != NB_MESH_NONE) {
		snprintf(err, errlen,
			 "--test errored-frames takes two ports and no --mesh: "
			 "--ports S,R (S sends the errored frames, R counts "
			 "what the switch forwards)");
		return -EINVAL;
	}
	cfg->nb_tx_ports = cfg->nb_rx_ports = 1;
	cfg->tx_ports[0] = m->ports[0];
	cfg->rx_ports[0] = m->ports[1];
	m->nb_ports = 0;
	return 0;
}

int
nb_rfc2889_check(struct nb_config *cfg, char *err, size_t errlen)
{
	unsigned int k = cfg->suite & NB_SUITE_RFC2889;

	if (nb_rfc2889_addr_opts(cfg, err, errlen) != 0)
		return -EINVAL;
	if (k == 0)
		return 0;
	/* across hosts (a client's --ports with a responder's): the
	 * forwarding rates, whose mesh the session sets up */
	if (cfg->mode == NB_MODE_CLIENT && cfg->mesh.nb_ports != 0) {
		if (k == NB_SUITE_FWD_RATE)
			return 0;
		snprintf(err, errlen,
			 "--test %s lays out or makes its own frames on one "
			 "host's ports: across hosts (--peer with --ports) "
			 "RFC 2889 runs forwarding-rate (5.1/5.2)",
			 nb_suite_name(k & ~NB_SUITE_FWD_RATE &
				       -(k & ~NB_SUITE_FWD_RATE)));
		return -EINVAL;
	}
	if (cfg->mode != NB_MODE_LOOPBACK || cfg->mesh.nb_ports == 0) {
		snprintf(err, errlen,
			 "--test %s is RFC 2889's: it runs on this process's "
			 "ports facing the switch, given with --ports",
			 nb_suite_name(k & -k));
		return -EINVAL;
	}
	/* 5.7 then 5.8 (with the capacity found) is one layout */
	if ((k & OWN_LAYOUT) && cfg->suite != (k & -k) &&
	    cfg->suite != (NB_SUITE_ADDR_CACHE | NB_SUITE_ADDR_LEARN)) {
		snprintf(err, errlen,
			 "--test %s lays out the ports itself: give it alone",
			 nb_suite_name(cfg->suite & OWN_LAYOUT &
				       -(cfg->suite & OWN_LAYOUT)));
		return -EINVAL;
	}
	if (k == NB_SUITE_CONGESTION)
		return congestion_layout(cfg, err, errlen);
	if (k == NB_SUITE_BROADCAST)
		return broadcast_layout(cfg, err, errlen);
	if (k & (NB_SUITE_ADDR_CACHE | NB_SUITE_ADDR_LEARN))
		return nb_rfc2889_addr_layout(cfg, err, errlen);
	if (k == NB_SUITE_ERRORED)
		return errored_layout(cfg, err, errlen);
	return 0;
}

/* ---- text ---- */

/* a member's string, "-" when it has none (a test cut short) */
static const char *
str(const json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v != NULL ? v : "-";
}

/* A port in the text: "3", or across hosts "r3" for the responder's. */
static const char *
port_label(const json_t *o, const char *key, const char *host_key, char *buf,
	   size_t len)
{
	snprintf(buf, len, "%s%lld",
		 strcmp(str(o, host_key), "responder") == 0 ? "r" : "",
		 nb_rfc2889_cnt(o, key));
	return buf;
}

void
nb_rfc2889_text_fwd(FILE *f, const struct nb_suite_row *r)
{
	const json_t *d = r->detail, *a, *e;
	char s[24], t[24];
	size_t i;

	fprintf(f, "  %4u  %12.6f  %12.6f  %10.6f  %14.6f  %6u\n", r->size,
		nb_rfc2889_num(d, "offered_max_pps") / 1e6,
		nb_rfc2889_num(d, "fr_mol_pps") / 1e6,
		nb_rfc2889_num(d, "mfr_pps") / 1e6,
		nb_rfc2889_num(d, "mfr_offered_pps") / 1e6, r->trials);
	a = json_object_get(d, "ports");
	json_array_foreach(a, i, e) fprintf(
		f,
		"        port %2s at the maximum load: offered %.6f Mpps, "
		"forwarded to it %.6f Mpps\n",
		port_label(e, "port", "host", s, sizeof(s)),
		nb_rfc2889_num(e, "offered_pps") / 1e6,
		nb_rfc2889_num(e, "forwarded_pps") / 1e6);
	a = json_object_get(d, "lossy_pairs");
	json_array_foreach(a, i, e)
		fprintf(f,
			"        pair %s>%s lost %lld of %lld at the maximum "
			"load\n",
			port_label(e, "src", "src_host", s, sizeof(s)),
			port_label(e, "dst", "dst_host", t, sizeof(t)),
			nb_rfc2889_cnt(e, "lost"), nb_rfc2889_cnt(e, "sent"));
}

void
nb_rfc2889_text_congestion(FILE *f, const struct nb_suite_row *r)
{
	const json_t *d = r->detail, *a, *e;
	size_t i;

	fprintf(f, "  %4u  %s\n", r->size, str(d, "verdict"));
	a = json_object_get(d, "pairs");
	json_array_foreach(a, i, e) fprintf(
		f,
		"        %lld>%lld  %-11s sent %lld, forwarded %lld, lost "
		"%lld (%.3g%%)\n",
		nb_rfc2889_cnt(e, "src"), nb_rfc2889_cnt(e, "dst"),
		str(e, "role"), nb_rfc2889_cnt(e, "sent"),
		nb_rfc2889_cnt(e, "forwarded"), nb_rfc2889_cnt(e, "lost"),
		nb_rfc2889_num(e, "lost_percent"));
	fprintf(f, "        back pressure: %s\n", str(d, "back_pressure"));
}

void
nb_rfc2889_text_broadcast(FILE *f, const struct nb_suite_row *r)
{
	const json_t *d = r->detail, *a, *e, *l;
	size_t i;

	fprintf(f,
		"  %4u  from port %lld: %.6f Mpps reached every port "
		"(upper %.6f), %u trials\n",
		r->size, nb_rfc2889_cnt(d, "source"),
		nb_rfc2889_num(d, "throughput_pps") / 1e6,
		nb_rfc2889_num(d, "upper_pps") / 1e6, r->trials);
	a = json_object_get(d, "ports");
	json_array_foreach(a, i, e)
	{
		l = json_object_get(e, "latency");
		fprintf(f,
			"        port %2lld: received %lld of %lld, lost %lld, "
			"%.6f Mpps",
			nb_rfc2889_cnt(e, "port"),
			nb_rfc2889_cnt(e, "received"),
			nb_rfc2889_cnt(e, "sent"), nb_rfc2889_cnt(e, "lost"),
			nb_rfc2889_num(e, "forwarded_pps") / 1e6);
		if (json_is_object(l))
			fprintf(f, ", latency mean %.2f p99 %.2f max %.2f us",
				nb_rfc2889_num(l, "mean_ns") / 1e3,
				nb_rfc2889_num(l, "p99_ns") / 1e3,
				nb_rfc2889_num(l, "max_ns") / 1e3);
		fprintf(f, "\n");
	}
}

void
nb_rfc2889_text_errored(FILE *f, const struct nb_suite_row *r)
{
	const json_t *d = r->detail, *a, *e;
	size_t i;

	a = json_object_get(d, "kinds");
	json_array_foreach(a, i, e)
		fprintf(f, "  %-10s %5lld B  sent %6lld  received %6lld  %s\n",
			str(e, "kind"), nb_rfc2889_cnt(e, "wire_bytes"),
			nb_rfc2889_cnt(e, "sent"),
			nb_rfc2889_cnt(e, "received"), str(e, "verdict"));
	a = json_object_get(d, "cannot");
	json_array_foreach(a, i, e) fprintf(f, "  %s\n", json_string_value(e));
}

static const struct {
	unsigned int kind;
	const char *head;
	void (*text)(FILE *f, const struct nb_suite_row *r);
} tables[] = {
	{NB_SUITE_FWD_RATE,
	 "Forwarding rate (RFC 2889 5.1/5.2): at the maximum offered load "
	 "(FR-MOL) and the highest seen (MFR)\n"
	 "  size  offered Mpps   FR-MOL Mpps    MFR Mpps  at offered Mpps  "
	 "trials\n",
	 nb_rfc2889_text_fwd},
	{NB_SUITE_CONGESTION,
	 "Congestion control (RFC 2889 5.5): two ports into a congested "
	 "port, one of them also into a free one\n",
	 nb_rfc2889_text_congestion},
	{NB_SUITE_ERRORED,
	 "Errored frame filtering (RFC 2889 5.9): what the switch forwards of "
	 "frames it should drop\n",
	 nb_rfc2889_text_errored},
	{NB_SUITE_BROADCAST,
	 "Broadcast forwarding and latency (RFC 2889 5.10): the highest "
	 "rate every receiving port got all of\n",
	 nb_rfc2889_text_broadcast},
	{NB_SUITE_ADDR_CACHE,
	 "Address caching capacity (RFC 2889 5.7): the most addresses learned "
	 "on one port with none of the test frames flooded\n"
	 "  size   capacity  passed..failed  learning fps  trials\n",
	 nb_rfc2889_text_addr_cache},
	{NB_SUITE_ADDR_LEARN,
	 "Address learning rate (RFC 2889 5.8): the highest learning rate at "
	 "which every address was learned\n"
	 "  size  addresses      rate fps  failed at fps  trials\n",
	 nb_rfc2889_text_addr_learn},
};

void
nb_rfc2889_text(FILE *f, const struct nb_suite_report *s)
{
	size_t t;
	uint32_t i;
	int head;

	for (t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		for (i = 0, head = 0; i < s->nb_rows; i++) {
			const struct nb_suite_row *r = &s->rows[i];

			if (r->kind != tables[t].kind || r->detail == NULL)
				continue;
			if (!head++)
				fprintf(f, "\n%s", tables[t].head);
			tables[t].text(f, r);
		}
}
