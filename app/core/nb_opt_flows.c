/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --flows and its ranges (nb_flows_opt.h): the option values, the checks
 * across them, a flow's record over its stream's template, and the
 * report's words for them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_flows_opt.h"
#include "nb_stack.h"
#include "nb_units.h"

#define WHY(...) snprintf(why, whylen, __VA_ARGS__)

/* A decimal number lo..hi; 0 or -EINVAL. */
static int
num(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (s == NULL || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

/* "A-B" cut at its range dash into a and b (an IPv6 address has no
 * dash, a MAC none either); 0 or -EINVAL. */
static int
cut_range(const char *val, char *a, char *b, size_t len)
{
	const char *dash = strchr(val, '-');

	if (dash == NULL || strchr(dash + 1, '-') != NULL ||
	    (size_t)(dash - val) >= len || strlen(dash + 1) >= len)
		return -EINVAL;
	memcpy(a, val, (size_t)(dash - val));
	a[dash - val] = '\0';
	strcpy(b, dash + 1);
	return 0;
}

int
nb_opt_flows(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	uint64_t v;

	if (num(val, 1, NB_MAX_FLOWS, &v) != 0) {
		WHY("--flows takes a number of flows, 1 to %u", NB_MAX_FLOWS);
		return -EINVAL;
	}
	cfg->flows.spec.n = (uint32_t)v;
	return 0;
}

int
nb_opt_flow_order(struct nb_config *cfg, const char *val, char *why,
		  size_t whylen)
{
	if (strcmp(val, "random") == 0)
		cfg->flows.spec.shuffled = 1;
	else if (strcmp(val, "incr") == 0)
		cfg->flows.spec.shuffled = 0;
	else {
		WHY("--flow-order takes random (RFC 4814) or incr");
		return -EINVAL;
	}
	cfg->flows.order_set = 1;
	return 0;
}

int
nb_opt_flow_seed(struct nb_config *cfg, const char *val, char *why,
		 size_t whylen)
{
	uint64_t v;

	if (num(val, 0, UINT64_MAX, &v) != 0) {
		WHY("--flow-seed takes a number (0 to 2^64-1)");
		return -EINVAL;
	}
	cfg->flows.spec.seed = v;
	cfg->flows.seed_set = 1;
	return 0;
}

static int
port_range(struct nb_config *cfg, int field, const char *opt, const char *val,
	   char *why, size_t whylen)
{
	char a[16], b[16];
	uint64_t lo, hi;

	if (cut_range(val, a, b, sizeof(a)) != 0 ||
	    num(a, 0, 65535, &lo) != 0 || num(b, 0, 65535, &hi) != 0) {
		WHY("%s takes a port range LO-HI (0 to 65535), as 1024-65535",
		    opt);
		return -EINVAL;
	}
	cfg->flows.spec.r[field].lo = lo;
	cfg->flows.spec.r[field].hi = hi;
	cfg->flows.given |= 1u << field;
	return 0;
}

int
nb_opt_flow_sport(struct nb_config *cfg, const char *val, char *why,
		  size_t whylen)
{
	return port_range(cfg, NB_FF_SPORT, "--flow-src-port", val, why,
			  whylen);
}

int
nb_opt_flow_dport(struct nb_config *cfg, const char *val, char *why,
		  size_t whylen)
{
	return port_range(cfg, NB_FF_DPORT, "--flow-dst-port", val, why,
			  whylen);
}

/* A-B of IPv4 addresses, or of IPv6 ones that differ in their low 32
 * bits only (ip6: the first kept). */
static int
ip_range(struct nb_config *cfg, int field, const char *opt, const char *val,
	 char *why, size_t whylen)
{
	char a[64], b[64];
	uint32_t lo, hi;
	struct nb_ip x, y;

	if (cut_range(val, a, b, sizeof(a)) != 0)
		goto bad;
	if (nb_parse_ipv4(a, &lo) == 0 && nb_parse_ipv4(b, &hi) == 0) {
		cfg->flows.ip6[field - NB_FF_SIP].family = 0;
	} else if (nb_opt_ipv6_addr(&x, a) == 0 &&
		   nb_opt_ipv6_addr(&y, b) == 0) {
		if (memcmp(x.a, y.a, 12) != 0) {
			WHY("%s %s: IPv6 ranges vary the last 32 bits only "
			    "(the first 96 must be the same)",
			    opt, val);
			return -EINVAL;
		}
		lo = nb_get_be32(x.a + 12);
		hi = nb_get_be32(y.a + 12);
		cfg->flows.ip6[field - NB_FF_SIP] = x;
	} else {
		goto bad;
	}
	cfg->flows.spec.r[field].lo = lo;
	cfg->flows.spec.r[field].hi = hi;
	cfg->flows.given |= 1u << field;
	return 0;
bad:
	WHY("%s takes an address range FIRST-LAST, as 198.18.0.1-198.18.3.255 "
	    "or 2001:2::1-2001:2::ffff",
	    opt);
	return -EINVAL;
}

int
nb_opt_flow_sip(struct nb_config *cfg, const char *val, char *why,
		size_t whylen)
{
	return ip_range(cfg, NB_FF_SIP, "--flow-src-ip", val, why, whylen);
}

int
nb_opt_flow_dip(struct nb_config *cfg, const char *val, char *why,
		size_t whylen)
{
	return ip_range(cfg, NB_FF_DIP, "--flow-dst-ip", val, why, whylen);
}

static uint64_t
mac48(const uint8_t m[6])
{
	return ((uint64_t)nb_get_be16(m) << 32) | nb_get_be32(m + 2);
}

static int
mac_range(struct nb_config *cfg, int field, const char *opt, const char *val,
	  char *why, size_t whylen)
{
	char a[32], b[32];
	uint8_t x[6], y[6];

	if (cut_range(val, a, b, sizeof(a)) != 0 || nb_parse_mac(a, x) != 0 ||
	    nb_parse_mac(b, y) != 0) {
		WHY("%s takes a MAC range FIRST-LAST, as "
		    "02:00:00:00:00:01-02:00:00:00:ff:ff",
		    opt);
		return -EINVAL;
	}
	if ((x[0] & 1) || (y[0] & 1) || x[0] != y[0]) {
		WHY("%s %s: unicast MACs, the same first byte", opt, val);
		return -EINVAL;
	}
	cfg->flows.spec.r[field].lo = mac48(x);
	cfg->flows.spec.r[field].hi = mac48(y);
	cfg->flows.given |= 1u << field;
	return 0;
}

int
nb_opt_flow_smac(struct nb_config *cfg, const char *val, char *why,
		 size_t whylen)
{
	return mac_range(cfg, NB_FF_SMAC, "--flow-src-mac", val, why, whylen);
}

int
nb_opt_flow_dmac(struct nb_config *cfg, const char *val, char *why,
		 size_t whylen)
{
	return mac_range(cfg, NB_FF_DMAC, "--flow-dst-mac", val, why, whylen);
}

int
nb_opt_per_flow(struct nb_config *cfg, const char *val, char *why,
		size_t whylen)
{
	if (*val == '\0' || strlen(val) >= sizeof(cfg->flows.per_flow)) {
		WHY("--per-flow takes a file name (.csv: CSV, else JSON)");
		return -EINVAL;
	}
	strcpy(cfg->flows.per_flow, val);
	return 0;
}

/* What --flows cannot go with yet; NULL when nothing. */
static const char *
flows_clash(const struct nb_config *cfg)
{
	if (cfg->mode != NB_MODE_LOOPBACK || cfg->rx_only)
		return "a receive-only test (the flows are the sender's)";
	if (cfg->tcp)
		return "--tcp (its connections are its flows)";
	if (cfg->replay.active)
		return "--replay (the file's frames are sent as they are)";
	if (cfg->stack.tun.kind == NB_ENCAP_VXLAN ||
	    cfg->stack.tun.kind == NB_ENCAP_GRE)
		return "--encap vxlan or gre (not yet: the flows vary the "
		       "inner headers, plain, tagged, QinQ, MPLS and IPv6 "
		       "frames take them)";
	if (cfg->gaps)
		return "--gaps";
	if (cfg->suite || cfg->sweep.n)
		return "--test or a size sweep (not yet)";
	if (cfg->tx_csum == NB_CSUM_HW)
		return "--tx-checksum hw (each frame's checksums are fixed in "
		       "software as its addresses and ports are written)";
	return NULL;
}

int
nb_flows_cfg_check(struct nb_config *cfg, char *err, size_t errlen)
{
	struct nb_flows_cfg *fc = &cfg->flows;
	const char *clash;
	int i, six = cfg->stack.family == 6;

	if (fc->spec.n == 0) {
		if (fc->given || fc->order_set || fc->seed_set ||
		    fc->per_flow[0] != '\0') {
			snprintf(err, errlen,
				 "--flow-* and --per-flow need --flows N");
			return -EINVAL;
		}
		return 0;
	}
	clash = flows_clash(cfg);
	if (clash != NULL) {
		snprintf(err, errlen, "--flows: not with %s", clash);
		return -EINVAL;
	}
	if (fc->spec.n < cfg->streams) {
		snprintf(err, errlen,
			 "--flows %u with --streams %u: at least one flow a "
			 "stream",
			 fc->spec.n, cfg->streams);
		return -EINVAL;
	}
	for (i = 0; i < 2; i++) {
		int v6 = fc->ip6[i].family == 6;

		if (!(fc->given & (1u << (NB_FF_SIP + i))) || v6 == six)
			continue;
		snprintf(err, errlen,
			 "--flow-%s-ip gives IPv%d addresses to an IPv%d test",
			 i ? "dst" : "src", v6 ? 6 : 4, six ? 6 : 4);
		return -EINVAL;
	}
	fc->spec.udp = cfg->proto == NB_IPPROTO_UDP;
	if (!fc->order_set)
		fc->spec.shuffled = 1;
	if (!fc->seed_set)
		fc->spec.seed = 1;
	if (fc->given == 0) { /* RFC 4814, 4.5 */
		for (i = NB_FF_SPORT; i <= NB_FF_DPORT; i++) {
			fc->spec.r[i].lo = NB_FLOW_PORT_LO;
			fc->spec.r[i].hi = NB_FLOW_PORT_HI;
		}
		fc->given = 1u << NB_FF_SPORT | 1u << NB_FF_DPORT;
	}
	if (nb_flows_check(&fc->spec, err, errlen) != 0)
		return -EINVAL;
	/* the frames' upper 96 bits: the ranges' */
	if (six && fc->ip6[0].family == 6)
		cfg->stack.src6 = fc->ip6[0];
	if (six && fc->ip6[1].family == 6)
		cfg->stack.dst6 = fc->ip6[1];
	return 0;
}

void
nb_flows_rec(const struct nb_flows_cfg *fc, uint32_t f, const struct nb_tmpl *t,
	     struct nb_flow_rec *r)
{
	const uint8_t *ip = t->hdr + t->l3_off, *l4 = t->hdr + t->l4_off;
	int v6 = (ip[0] >> 4) == 6;
	uint64_t v[NB_FF_N], own[NB_FF_N];
	int i;

	own[NB_FF_SPORT] = nb_get_be16(l4 + NB_L4_OFF_SPORT);
	own[NB_FF_DPORT] = nb_get_be16(l4 + NB_L4_OFF_DPORT);
	own[NB_FF_SIP] = nb_get_be32(ip + (v6 ? 8 + 12 : NB_IPV4_OFF_SRC));
	own[NB_FF_DIP] = nb_get_be32(ip + (v6 ? 24 + 12 : NB_IPV4_OFF_DST));
	own[NB_FF_SMAC] = mac48(t->hdr + 6);
	own[NB_FF_DMAC] = mac48(t->hdr);
	nb_flows_fields(&fc->spec, f, v);
	for (i = 0; i < NB_FF_N; i++)
		if (!(fc->given & (1u << i)))
			v[i] = own[i];
	nb_flow_rec_make(r, t, v);
}

void
nb_flows_text(const struct nb_flows_cfg *fc, char *buf, size_t len)
{
	size_t o;
	int i, first = 1;

	o = (size_t)snprintf(buf, len, "%u flows, %s", fc->spec.n,
			     fc->spec.shuffled ? "RFC 4814 pseudorandom"
					       : "in order");
	if (fc->spec.shuffled && o < len)
		o += (size_t)snprintf(buf + o, len - o, " (seed %llu)",
				      (unsigned long long)fc->spec.seed);
	for (i = 0; i < NB_FF_N && o < len; i++) {
		const struct nb_range *r = &fc->spec.r[i];

		if (!(fc->given & (1u << i)))
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s %llu values",
				      first ? ": " : " x ",
				      nb_flows_field_name(i),
				      (unsigned long long)(r->hi - r->lo + 1));
		first = 0;
	}
}

json_t *
nb_flows_json(const struct nb_flows_cfg *fc)
{
	static const char *const keys[NB_FF_N] = {
		"src_port",	"dst_port", "src_ip_low32",
		"dst_ip_low32", "src_mac",  "dst_mac",
	};
	json_t *o, *rg;
	int i;

	if (fc->spec.n == 0)
		return NULL;
	o = json_object();
	rg = json_object();
	json_object_set_new(o, "flows", json_integer(fc->spec.n));
	json_object_set_new(o, "order",
			    json_string(fc->spec.shuffled ? "random" : "incr"));
	json_object_set_new(o, "seed", json_integer((json_int_t)fc->spec.seed));
	for (i = 0; i < NB_FF_N; i++)
		if (fc->given & (1u << i))
			json_object_set_new(
				rg, keys[i],
				json_pack("[II]", (json_int_t)fc->spec.r[i].lo,
					  (json_int_t)fc->spec.r[i].hi));
	json_object_set_new(o, "ranges", rg);
	return o;
}
