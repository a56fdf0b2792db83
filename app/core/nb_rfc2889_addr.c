/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889 5.7 (address caching capacity) and 5.8 (address learning
 * rate): their options, what they need of --ports, and their text tables
 * from each row's detail object.  Pure; the runner is
 * run/nb_rfc2889_addr.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_rfc2889.h"
#include "nb_suite_opts.h"
#include "nb_units.h"

#define WHY(...) snprintf(why, whylen, __VA_ARGS__)

int
nb_opt_addresses(struct nb_config *cfg, const char *val, char *why,
		 size_t whylen)
{
	if (cfg->suite_opt == NULL)
		cfg->suite_opt = "--addresses";
	if (nb_parse_u32(val, 1, NB_RFC2889_MAX_ADDRESSES, &cfg->addresses) !=
	    0) {
		WHY("expected 1..%u", NB_RFC2889_MAX_ADDRESSES);
		return -EINVAL;
	}
	cfg->addresses_set = 1;
	return 0;
}

int
nb_opt_aging(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	double v;

	if (cfg->suite_opt == NULL)
		cfg->suite_opt = "--aging";
	if (nb_parse_seconds(val, &v) != 0 || v < 0 || v > 3600) {
		WHY("expected seconds, 0..3600 (the switch's ageing time)");
		return -EINVAL;
	}
	cfg->aging = v;
	cfg->aging_set = 1;
	return 0;
}

double
nb_rfc2889_aging_wait(double aging)
{
	return aging + NB_RFC2889_AGING_MARGIN_S + aging / 10;
}

int
nb_rfc2889_addr_layout(struct nb_config *cfg, char *err, size_t errlen)
{
	struct nb_mesh_cfg *m = &cfg->mesh;
	const char *name = nb_suite_name(cfg->suite & -cfg->suite);
	int i;

	if (m->nb_ports != 3 || m->kind != NB_MESH_NONE || cfg->have_dst_mac ||
	    cfg->have_src_mac) {
		snprintf(err, errlen,
			 "--test %s takes --ports L,T,M and no --mesh, "
			 "--src-mac or --dst-mac: L sends learning frames from "
			 "many addresses, T sends to them, M watches for "
			 "flooded frames",
			 name);
		return -EINVAL;
	}
	if (cfg->suite == NB_SUITE_ADDR_LEARN && !cfg->addresses_set) {
		snprintf(
			err, errlen,
			"--test address-learning needs --addresses N, how many "
			"addresses to learn (or address-caching before it, "
			"whose capacity it then learns)");
		return -EINVAL;
	}
	if (!cfg->aging_set) {
		snprintf(err, errlen,
			 "--test %s needs --aging S, the switch's ageing time "
			 "(the table must forget one trial's addresses before "
			 "the next)",
			 name);
		return -EINVAL;
	}
	if (cfg->tx_csum == NB_CSUM_HW) {
		snprintf(err, errlen,
			 "--test %s: not with --tx-checksum hw (each frame's "
			 "MAC is written as it is sent, checksums in software)",
			 name);
		return -EINVAL;
	}
	cfg->tx_csum = NB_CSUM_SW;
	if (!cfg->size_given) { /* RFC 2889's minimum frame alone */
		memset(&cfg->sizes, 0, sizeof(cfg->sizes));
		cfg->sizes.nb_sizes = 1;
		cfg->sizes.sizes[0] = 64;
		cfg->sizes.nb_pattern = 1;
		cfg->size_given = 1;
	}
	for (i = 0; i < 3; i++)
		cfg->addr_port[i] = m->ports[i];
	/* every port up (the checks see a fan-out: L to T and M); each
	 * phase sets its own ports and MACs */
	cfg->nb_tx_ports = 1;
	cfg->tx_ports[0] = m->ports[0];
	cfg->nb_rx_ports = 2;
	cfg->rx_ports[0] = m->ports[1];
	cfg->rx_ports[1] = m->ports[2];
	memset(cfg->dst_mac, 0xff, 6);
	cfg->have_dst_mac = 1;
	cfg->streams = 1;
	m->nb_ports = 0; /* no pairs, so no broadcast learning frames */
	return 0;
}

int
nb_rfc2889_addr_opts(const struct nb_config *cfg, char *err, size_t errlen)
{
	if ((cfg->addresses_set || cfg->aging_set) &&
	    !(cfg->suite & (NB_SUITE_ADDR_CACHE | NB_SUITE_ADDR_LEARN))) {
		snprintf(err, errlen,
			 "--addresses and --aging are for --test "
			 "address-caching or address-learning");
		return -EINVAL;
	}
	return 0;
}

/* ---- text ---- */

/* Each address trial: N, the learning rate, flooded and forwarded. */
static void
addr_steps(FILE *f, const json_t *d)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(d, "address_trials"), i, e) fprintf(
		f,
		"        %-7s %7lld addresses at %12.1f fps: forwarded "
		"%lld to L, flooded %lld to M, %s%s (test %.1f ms after "
		"learning)\n",
		json_is_true(json_object_get(e, "confirm")) ? "confirm"
							    : "trial",
		nb_rfc2889_cnt(e, "addresses"),
		nb_rfc2889_num(e, "learning_pps"),
		nb_rfc2889_cnt(e, "forwarded"), nb_rfc2889_cnt(e, "flooded"),
		json_is_true(json_object_get(e, "pass")) ? "pass" : "FAIL",
		json_is_true(json_object_get(e, "rate_not_reached"))
			? ", the learning rate not reached"
			: "",
		nb_rfc2889_num(e, "gap_ms"));
}

static void
addr_ports(FILE *f, const json_t *d)
{
	const json_t *p = json_object_get(d, "address_ports");

	fprintf(f,
		"        ports: learning %lld, test %lld, monitor %lld; each "
		"trial after a wait of %.2f s (--aging %.2f s and a margin)\n",
		nb_rfc2889_cnt(p, "learning"), nb_rfc2889_cnt(p, "test"),
		nb_rfc2889_cnt(p, "monitor"), nb_rfc2889_num(d, "wait_s"),
		nb_rfc2889_num(d, "aging_s"));
}

void
nb_rfc2889_text_addr_cache(FILE *f, const struct nb_suite_row *r)
{
	const json_t *d = r->detail;

	fprintf(f, "  %4u  %9lld  %8lld..%-8lld  %12.1f  %6u  %s\n", r->size,
		nb_rfc2889_cnt(d, "capacity"), nb_rfc2889_cnt(d, "lower"),
		json_is_integer(json_object_get(d, "upper"))
			? nb_rfc2889_cnt(d, "upper")
			: nb_rfc2889_cnt(d, "max") + 1,
		nb_rfc2889_num(d, "learning_pps"), r->trials,
		json_is_true(json_object_get(d, "ceiling_hit"))
			? "the search's ceiling (--addresses): the table "
			  "holds at least that many"
			: "");
	addr_ports(f, d);
	addr_steps(f, d);
}

void
nb_rfc2889_text_addr_learn(FILE *f, const struct nb_suite_row *r)
{
	const json_t *d = r->detail;

	fprintf(f, "  %4u  %9lld  %12.1f  %12.1f  %6u  %s%s\n", r->size,
		nb_rfc2889_cnt(d, "addresses"), nb_rfc2889_num(d, "rate_pps"),
		nb_rfc2889_num(d, "failed_pps"), r->trials,
		json_is_true(json_object_get(d, "ceiling_hit"))
			? "the search's ceiling (--rate or the line rate): "
			  "it learns at least that fast"
			: "",
		json_is_true(json_object_get(d, "sender_bound"))
			? "the sender's limit: it did not reach the rate that "
			  "failed"
			: "");
	addr_ports(f, d);
	addr_steps(f, d);
}
