/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --ports and --mesh: RFC 2889's traffic patterns as (source, destination)
 * pairs of the test's ports, and the stream numbering that gives every
 * pair streams of its own (nb_mesh.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_frame.h"
#include "nb_mesh.h"
#include "nb_opt_values.h"
#include "nb_units.h"

#define WHY(...) snprintf(why, whylen, __VA_ARGS__)

static const char *const names[] = {
	[NB_MESH_NONE] = "none",
	[NB_MESH_PAIRS] = "pairs",
	[NB_MESH_FULL] = "full",
	[NB_MESH_ONE_TO_MANY] = "one-to-many",
	[NB_MESH_MANY_TO_ONE] = "many-to-one",
	[NB_MESH_BACKBONE] = "backbone",
	[NB_MESH_LIST] = "list",
};

static const char *const rfc_names[] = {
	[NB_MESH_NONE] = "",
	[NB_MESH_PAIRS] = "pair-wise",
	[NB_MESH_FULL] = "fully meshed (RFC 2889 5.1)",
	[NB_MESH_ONE_TO_MANY] = "partially meshed, one-to-many (RFC 2889 5.2)",
	[NB_MESH_MANY_TO_ONE] = "partially meshed, many-to-one (RFC 2889 5.2)",
	[NB_MESH_BACKBONE] = "partially meshed, many-to-many (RFC 2889 5.2)",
	[NB_MESH_LIST] = "pairs as listed",
};

const char *
nb_mesh_name(int kind)
{
	return kind >= 0 && kind <= NB_MESH_LIST ? names[kind] : "?";
}

const char *
nb_mesh_rfc_name(int kind)
{
	return kind >= 0 && kind <= NB_MESH_LIST ? rfc_names[kind] : "?";
}

int
nb_opt_ports(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	uint16_t ids[NB_MAX_PORTS], n = 0;

	if (nb_parse_port_list(val, ids, &n, why, whylen) != 0)
		return -EINVAL;
	if (n > NB_MESH_MAX_PORTS) {
		WHY("a test of many ports takes 2 to %d ports, not %u",
		    NB_MESH_MAX_PORTS, n);
		return -EINVAL;
	}
	memcpy(cfg->mesh.ports, ids, n * sizeof(ids[0]));
	cfg->mesh.nb_ports = cfg->mesh.nb_local = n;
	return 0;
}

int
nb_opt_mesh_ports(struct nb_config *cfg, const char *val, char *why,
		  size_t whylen)
{
	uint16_t ids[NB_MAX_PORTS], n = 0;

	if (nb_parse_port_list(val, ids, &n, why, whylen) != 0)
		return -EINVAL;
	if (n > NB_MESH_MAX_PORTS - 1) {
		WHY("a responder offers 1 to %d ports to a mesh (the "
		    "client has at least one), not %u",
		    NB_MESH_MAX_PORTS - 1, n);
		return -EINVAL;
	}
	memcpy(cfg->serve_ports, ids, n * sizeof(ids[0]));
	cfg->nb_serve_ports = n;
	return 0;
}

/* "S>D": two port ids */
static int
parse_pair(char *tok, uint16_t *src, uint16_t *dst, char *why, size_t whylen)
{
	char *gt = strchr(tok, '>');
	uint32_t a, b;

	if (gt == NULL) {
		WHY("'%s' is not a pair: write SOURCE>DESTINATION, e.g. 0>2",
		    tok);
		return -EINVAL;
	}
	*gt = '\0';
	if (nb_parse_u32(tok, 0, NB_MAX_PORTS - 1, &a) != 0 ||
	    nb_parse_u32(gt + 1, 0, NB_MAX_PORTS - 1, &b) != 0) {
		WHY("'%s>%s' is not a pair of port ids (0..%d)", tok, gt + 1,
		    NB_MAX_PORTS - 1);
		return -EINVAL;
	}
	if (a == b) {
		WHY("pair %u>%u: a port does not send to itself", a, b);
		return -EINVAL;
	}
	*src = (uint16_t)a;
	*dst = (uint16_t)b;
	return 0;
}

static int
parse_list(struct nb_mesh_cfg *m, const char *val, char *why, size_t whylen)
{
	char buf[2048], *tok, *save = NULL;
	uint16_t i, n = 0, s, d;

	if (strlen(val) >= sizeof(buf) || strstr(val, ",,") != NULL ||
	    val[strlen(val) - 1] == ',') {
		WHY("expected pairs such as 0>2,1>2,0>3");
		return -EINVAL;
	}
	strcpy(buf, val);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		if (parse_pair(tok, &s, &d, why, whylen) != 0)
			return -EINVAL;
		for (i = 0; i < n; i++)
			if (m->given_src[i] == s && m->given_dst[i] == d) {
				WHY("pair %u>%u is listed twice", s, d);
				return -EINVAL;
			}
		if (n == NB_MESH_MAX_PAIRS) {
			WHY("more than %d pairs", NB_MESH_MAX_PAIRS);
			return -EINVAL;
		}
		m->given_src[n] = s;
		m->given_dst[n++] = d;
	}
	m->nb_given = n;
	return 0;
}

int
nb_opt_mesh(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	int k;

	for (k = NB_MESH_PAIRS; k < NB_MESH_LIST; k++)
		if (strcmp(val, names[k]) == 0) {
			cfg->mesh.kind = k;
			cfg->mesh.nb_given = 0;
			return 0;
		}
	if (strchr(val, '>') == NULL) {
		WHY("'%s': expected full, pairs, one-to-many, many-to-one, "
		    "backbone or pairs such as 0>2,1>2",
		    val);
		return -EINVAL;
	}
	if (parse_list(&cfg->mesh, val, why, whylen) != 0)
		return -EINVAL;
	cfg->mesh.kind = NB_MESH_LIST;
	return 0;
}

int
nb_mesh_port_index(const struct nb_mesh_cfg *m, uint16_t port)
{
	uint16_t i;

	for (i = 0; i < m->nb_ports; i++)
		if (m->ports[i] == port)
			return i;
	return -1;
}

/* The ports of a listed mesh, in order of first mention, unless --ports
 * gave them (then every listed port must be among them). */
static int
list_ports(struct nb_mesh_cfg *m, char *err, size_t errlen)
{
	int given = m->nb_ports > 0;
	uint16_t i, k, p;

	for (i = 0; i < 2 * m->nb_given; i++) {
		p = i % 2 ? m->given_dst[i / 2] : m->given_src[i / 2];
		if (nb_mesh_port_index(m, p) >= 0)
			continue;
		if (given) {
			snprintf(err, errlen,
				 "--mesh names port %u, which is not in "
				 "--ports",
				 p);
			return -EINVAL;
		}
		if (m->nb_ports == NB_MESH_MAX_PORTS) {
			snprintf(err, errlen, "--mesh names more than %d ports",
				 NB_MESH_MAX_PORTS);
			return -EINVAL;
		}
		m->ports[m->nb_ports++] = p;
	}
	for (k = 0; k < m->nb_given; k++) {
		m->pairs[k].src =
			(uint8_t)nb_mesh_port_index(m, m->given_src[k]);
		m->pairs[k].dst =
			(uint8_t)nb_mesh_port_index(m, m->given_dst[k]);
		m->pairs[k].weight =
			m->given_weight[k] ? m->given_weight[k] : 1;
	}
	m->nb_pairs = m->nb_given;
	return 0;
}

static int
pair_cmp(const void *a, const void *b)
{
	const struct nb_mesh_pair *x = a, *y = b;

	if (x->src != y->src)
		return x->src - y->src;
	return x->dst - y->dst;
}

/* Does the pattern send from port index i to j (i != j) of n ports? */
static int
pattern_has(int kind, uint16_t i, uint16_t j, uint16_t n)
{
	uint16_t half = n / 2;

	switch (kind) {
	case NB_MESH_FULL:
		return 1;
	case NB_MESH_PAIRS:
		return i / 2 == j / 2;
	case NB_MESH_ONE_TO_MANY:
		return i == 0;
	case NB_MESH_MANY_TO_ONE:
		return j == 0;
	case NB_MESH_BACKBONE:
		return (i < half) != (j < half);
	default:
		return 0;
	}
}

static int
derive_pairs(struct nb_mesh_cfg *m, char *err, size_t errlen)
{
	uint16_t i, j, n = m->nb_ports;

	if (m->kind == NB_MESH_LIST)
		return list_ports(m, err, errlen);
	if (m->kind == NB_MESH_PAIRS && n % 2) {
		snprintf(err, errlen,
			 "--mesh pairs needs an even number of --ports (%u "
			 "given): the 1st and 2nd send to each other, the 3rd "
			 "and 4th, ...",
			 n);
		return -EINVAL;
	}
	m->nb_pairs = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (i != j && pattern_has(m->kind, i, j, n)) {
				m->pairs[m->nb_pairs].src = (uint8_t)i;
				m->pairs[m->nb_pairs].dst = (uint8_t)j;
				m->pairs[m->nb_pairs++].weight = 1;
			}
	return 0;
}

void
nb_mesh_layout(struct nb_config *cfg)
{
	struct nb_mesh_cfg *m = &cfg->mesh;
	uint16_t i, k;
	uint32_t base = 0;
	int rx[NB_MESH_MAX_PORTS] = {0}, across = 0;

	for (i = 0; i < m->nb_ports; i++)
		across |= (m->ports[i] & NB_MESH_REMOTE) != 0;
	qsort(m->pairs, m->nb_pairs, sizeof(m->pairs[0]), pair_cmp);
	memset(m->nb_dst, 0, sizeof(m->nb_dst));
	memset(m->cycle, 0, sizeof(m->cycle));
	for (k = m->nb_pairs; k-- > 0;) {
		m->nb_dst[m->pairs[k].src]++;
		m->cycle[m->pairs[k].src] += m->pairs[k].weight;
		m->first_pair[m->pairs[k].src] = k;
		rx[m->pairs[k].dst] = 1;
	}
	cfg->nb_tx_ports = cfg->nb_rx_ports = 0;
	for (i = 0; i < m->nb_ports; i++) {
		m->base[i] = base;
		base += (uint32_t)m->cycle[i] * m->per_pair;
		if (m->ports[i] & NB_MESH_REMOTE)
			continue; /* the other end's */
		if (m->nb_dst[i])
			cfg->tx_ports[cfg->nb_tx_ports++] = m->ports[i];
		/* across hosts every port of ours receives: the first
		 * carries the control protocol, and what reaches the others
		 * is counted (foreign) */
		if (rx[i] || across)
			cfg->rx_ports[cfg->nb_rx_ports++] = m->ports[i];
	}
	cfg->streams = base;
}

int
nb_mesh_check(struct nb_config *cfg, char *err, size_t errlen)
{
	struct nb_mesh_cfg *m = &cfg->mesh;
	uint64_t total = 0;
	uint16_t k;

	if (m->nb_ports == 0 && m->kind == NB_MESH_NONE)
		return 0;
	if (m->per_pair) /* checked before */
		return 0;
	if (m->kind == NB_MESH_NONE)
		m->kind = NB_MESH_FULL;
	if (m->kind != NB_MESH_LIST && m->nb_ports == 0) {
		snprintf(err, errlen,
			 "--mesh %s needs --ports (the test's ports, e.g. "
			 "--ports 0,1,2,3)",
			 names[m->kind]);
		return -EINVAL;
	}
	if (derive_pairs(m, err, errlen) != 0)
		return -EINVAL;
	if (m->nb_pairs == 0) {
		snprintf(err, errlen, "--mesh %s of %u ports has no pairs",
			 names[m->kind], m->nb_ports);
		return -EINVAL;
	}
	m->per_pair = cfg->streams ? cfg->streams : 1;
	for (k = 0; k < m->nb_pairs; k++)
		total += (uint64_t)m->pairs[k].weight * m->per_pair;
	if (total > NB_MAX_STREAMS) {
		snprintf(err, errlen,
			 "%u pairs x %u streams a pair = %llu streams, more "
			 "than %d: lower --streams (streams a pair in a mesh)",
			 m->nb_pairs, m->per_pair, (unsigned long long)total,
			 NB_MAX_STREAMS);
		return -EINVAL;
	}
	nb_mesh_layout(cfg);
	return 0;
}

uint32_t
nb_mesh_stream_pair(const struct nb_mesh_cfg *m, uint32_t s)
{
	uint16_t i = m->nb_ports;

	uint32_t k, pos;

	while (i > 0 && (m->base[i - 1] > s || m->nb_dst[i - 1] == 0))
		i--;
	if (i == 0)
		return 0;
	i--;
	/* the position in the source's cycle of its pairs' weights */
	pos = (s - m->base[i]) % m->cycle[i];
	for (k = m->first_pair[i]; pos >= m->pairs[k].weight; k++)
		pos -= m->pairs[k].weight;
	return k;
}

uint16_t
nb_mesh_stream_dst_index(const struct nb_mesh_cfg *m, uint32_t s)
{
	return m->pairs[nb_mesh_stream_pair(m, s)].dst;
}

uint16_t
nb_mesh_stream_dst(const struct nb_mesh_cfg *m, uint32_t s)
{
	return m->ports[m->pairs[nb_mesh_stream_pair(m, s)].dst];
}

void
nb_mesh_job_streams(const struct nb_mesh_cfg *m, uint16_t i, uint32_t q,
		    uint32_t nq, uint32_t *first, uint32_t *stride,
		    uint32_t *count)
{
	uint32_t n = (uint32_t)m->cycle[i] * m->per_pair;

	*first = m->base[i] + q;
	*stride = nq;
	*count = q < n ? (n - q + nq - 1) / nq : 0;
}

int
nb_mesh_learn_frame(uint8_t *buf, size_t cap, const uint8_t mac[6],
		    uint16_t vlan_id)
{
	static const char text[] = "dpdk-nbench learning frame";
	size_t off = 12, len = vlan_id ? 64 : 60;

	if (cap < len)
		return -1;
	memset(buf, 0, len);
	memset(buf, 0xff, 6);
	memcpy(buf + 6, mac, 6);
	if (vlan_id) {
		nb_put_be16(buf + off, 0x8100);
		nb_put_be16(buf + off + 2, vlan_id & 0x0fff);
		off += 4;
	}
	nb_put_be16(buf + off, NB_MESH_LEARN_ETHERTYPE);
	memcpy(buf + off + 2, text, sizeof(text) - 1);
	return (int)len;
}
