/* SPDX-License-Identifier: BSD-3-Clause */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_stack.h"
#include "nb_units.h"

#define WHY(...) snprintf(why, whylen, __VA_ARGS__)

int
nb_opt_ipv6_addr(struct nb_ip *dst, const char *val)
{
	struct in6_addr a;

	if (strchr(val, ':') == NULL || inet_pton(AF_INET6, val, &a) != 1)
		return -EINVAL;
	dst->family = 6;
	memcpy(dst->a, &a, 16);
	return 0;
}

/* An IPv4 or IPv6 address into *dst. */
static int
any_ip(struct nb_ip *dst, const char *val)
{
	uint32_t v4;

	if (nb_opt_ipv6_addr(dst, val) == 0)
		return 0;
	if (nb_parse_ipv4(val, &v4) != 0)
		return -EINVAL;
	dst->family = 4;
	memset(dst->a, 0, sizeof(dst->a));
	nb_put_be32(dst->a, v4);
	return 0;
}

/* A number lo..hi in decimal or 0x hex; 0 or -EINVAL. */
static int
num(const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
	char *end;
	unsigned long v;

	if (s == NULL || *s == '\0' || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno != 0 || *end != '\0' || v < lo || v > hi)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* OUTER,INNER or OUTER.INNER: two VLAN ids. */
static int
two_vids(const char *val, char sep, uint16_t *outer, uint16_t *inner)
{
	char buf[32], *cut;
	uint32_t o, i;

	if (strlen(val) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, val);
	cut = strchr(buf, sep);
	if (cut == NULL)
		return -EINVAL;
	*cut = '\0';
	if (num(buf, 1, 4094, &o) != 0 || num(cut + 1, 1, 4094, &i) != 0)
		return -EINVAL;
	*outer = (uint16_t)o;
	*inner = (uint16_t)i;
	return 0;
}

int
nb_opt_qinq(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (two_vids(val, ',', &cfg->stack.outer_vid, &cfg->vlan_id) != 0) {
		WHY("expected OUTER,INNER: two VLAN ids 1..4094, e.g. 200,100");
		return -EINVAL;
	}
	return 0;
}

int
nb_opt_tpid(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	uint32_t v;

	if (num(val, 0, 0xffff, &v) != 0 ||
	    (v != NB_ETHERTYPE_QINQ && v != NB_ETHERTYPE_Q9100 &&
	     v != NB_ETHERTYPE_VLAN)) {
		WHY("expected the outer tag's TPID: 0x88a8, 0x9100 or 0x8100");
		return -EINVAL;
	}
	cfg->stack.outer_tpid = (uint16_t)v;
	return 0;
}

int
nb_opt_pcp(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	uint32_t v;

	if (num(val, 0, 7, &v) != 0) {
		WHY("expected an 802.1p priority 0..7");
		return -EINVAL;
	}
	cfg->stack.pcp = (int)v;
	return 0;
}

int
nb_opt_dscp(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	char buf[512], *tok, *save = NULL;
	uint32_t v, n = 0;

	if (strlen(val) >= sizeof(buf)) {
		WHY("too long");
		return -EINVAL;
	}
	strcpy(buf, val);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		if (num(tok, 0, 63, &v) != 0 || n == NB_MAX_DSCP) {
			WHY("expected DSCP values 0..63, at most %d, e.g. "
			    "0,46",
			    NB_MAX_DSCP);
			return -EINVAL;
		}
		cfg->stack.dscp[n++] = (uint8_t)v;
	}
	if (n == 0 || val[strlen(val) - 1] == ',' || val[0] == ',' ||
	    strstr(val, ",,") != NULL) {
		WHY("expected DSCP values 0..63, e.g. 46 or 0,8,16");
		return -EINVAL;
	}
	cfg->stack.nb_dscp = n;
	return 0;
}

int
nb_opt_ecn(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	uint32_t v;

	if (num(val, 0, 3, &v) != 0) {
		WHY("expected an ECN codepoint 0..3 (1, 2: ECT; 3: CE)");
		return -EINVAL;
	}
	cfg->stack.ecn = (uint8_t)v;
	return 0;
}

/* mpls:L1[/L2...]: labels of 20 bits, outermost first. */
static int
mpls_labels(struct nb_tunnel *t, const char *list, char *why, size_t whylen)
{
	char buf[128], *tok, *save = NULL;
	uint32_t v;

	if (strlen(list) >= sizeof(buf) || list[0] == '\0' || list[0] == '/' ||
	    list[strlen(list) - 1] == '/' || strstr(list, "//") != NULL) {
		WHY("expected mpls:LABEL[/LABEL...], labels 0..1048575");
		return -EINVAL;
	}
	strcpy(buf, list);
	t->nb_labels = 0;
	for (tok = strtok_r(buf, "/", &save); tok != NULL;
	     tok = strtok_r(NULL, "/", &save)) {
		if (num(tok, 0, 0xfffff, &v) != 0) {
			WHY("MPLS label '%s': expected 0..1048575 (20 bits)",
			    tok);
			return -EINVAL;
		}
		if (t->nb_labels == NB_MAX_LABELS) {
			WHY("at most %d MPLS labels", NB_MAX_LABELS);
			return -EINVAL;
		}
		t->labels[t->nb_labels++] = v;
	}
	return 0;
}

int
nb_opt_encap(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	struct nb_tunnel *t = &cfg->stack.tun;
	uint32_t v;

	if (strncmp(val, "vxlan:", 6) == 0) {
		if (num(val + 6, 0, 0xffffff, &v) != 0) {
			WHY("VXLAN VNI '%s': expected 0..16777215 (24 bits)",
			    val + 6);
			return -EINVAL;
		}
		t->kind = NB_ENCAP_VXLAN;
		t->id = v;
		return 0;
	}
	if (strcmp(val, "gre") == 0 || strncmp(val, "gre:", 4) == 0) {
		t->kind = NB_ENCAP_GRE;
		t->has_key = val[3] == ':';
		if (t->has_key && num(val + 4, 0, 0xffffffffu, &t->id) != 0) {
			WHY("GRE key '%s': expected 0..4294967295", val + 4);
			return -EINVAL;
		}
		return 0;
	}
	if (strncmp(val, "mpls:", 5) == 0) {
		t->kind = NB_ENCAP_MPLS;
		return mpls_labels(t, val + 5, why, whylen);
	}
	WHY("expected vxlan:VNI, gre, gre:KEY or mpls:LABEL[/LABEL...]");
	return -EINVAL;
}

int
nb_opt_tunnel_src(struct nb_config *cfg, const char *val, char *why,
		  size_t whylen)
{
	if (any_ip(&cfg->stack.tun.src, val) != 0) {
		WHY("expected an IPv4 or IPv6 address");
		return -EINVAL;
	}
	return 0;
}

int
nb_opt_tunnel_dst(struct nb_config *cfg, const char *val, char *why,
		  size_t whylen)
{
	if (any_ip(&cfg->stack.tun.dst, val) != 0) {
		WHY("expected an IPv4 or IPv6 address");
		return -EINVAL;
	}
	return 0;
}

int
nb_stack_beyond_plain(const struct nb_config *cfg)
{
	const struct nb_stack_cfg *k = &cfg->stack;

	return k->ipv6 || k->src6.family == 6 || k->dst6.family == 6 ||
	       k->outer_vid || k->pcp > 0 || k->nb_dscp || k->ecn ||
	       k->tun.kind != NB_ENCAP_NONE;
}

static void
default_ip(struct nb_ip *ip, uint8_t family, uint32_t v4, const char *v6)
{
	if (ip->family)
		return;
	if (family == 6) {
		nb_opt_ipv6_addr(ip, v6);
	} else {
		ip->family = 4;
		nb_put_be32(ip->a, v4);
	}
}

/* A multicast or broadcast address: no source may have one. */
static int
group_addr(const struct nb_ip *ip, uint32_t v4)
{
	if (ip->family == 6)
		return ip->a[0] == 0xff;
	return (v4 >> 28) == 0xe || v4 == 0xffffffffu;
}

static int
check_sources(const struct nb_config *cfg, char *err, size_t errlen)
{
	const struct nb_stack_cfg *k = &cfg->stack;
	const char *which = NULL;

	if (group_addr(&k->src6, cfg->src_ip))
		which = "--src-ip";
	else if (group_addr(&k->tun.src, nb_get_be32(k->tun.src.a)))
		which = "--tunnel-src";
	if (which == NULL)
		return 0;
	snprintf(err, errlen,
		 "%s: a multicast or broadcast address is a destination, never "
		 "a source",
		 which);
	return -EINVAL;
}

/* The family of the test's (inner) addresses. */
static int
check_family(struct nb_config *cfg, char *err, size_t errlen)
{
	struct nb_stack_cfg *k = &cfg->stack;

	k->family = k->ipv6 || k->src6.family || k->dst6.family ? 6 : 4;
	if (k->family == 6 &&
	    (cfg->src_ip != NB_DEFAULT_SRC_IP ||
	     cfg->dst_ip != NB_DEFAULT_DST_IP) &&
	    (!k->src6.family || !k->dst6.family)) {
		snprintf(err, errlen,
			 "--src-ip and --dst-ip must be of one family: an "
			 "IPv6 test (-6 or an IPv6 address) has IPv6 "
			 "addresses at both ends");
		return -EINVAL;
	}
	if (k->family == 6) {
		default_ip(&k->src6, 6, 0, NB_DEFAULT_SRC_IP6);
		default_ip(&k->dst6, 6, 0, NB_DEFAULT_DST_IP6);
	}
	return 0;
}

static int
check_tunnel(struct nb_config *cfg, char *err, size_t errlen)
{
	struct nb_tunnel *t = &cfg->stack.tun;
	uint8_t fam;

	if ((t->src.family || t->dst.family) &&
	    (t->kind == NB_ENCAP_NONE || t->kind == NB_ENCAP_MPLS)) {
		snprintf(err, errlen,
			 "--tunnel-src/--tunnel-dst need --encap vxlan or gre");
		return -EINVAL;
	}
	if (t->src.family && t->dst.family && t->src.family != t->dst.family) {
		snprintf(err, errlen,
			 "--tunnel-src and --tunnel-dst must be of one family");
		return -EINVAL;
	}
	fam = t->src.family
		      ? t->src.family
		      : (t->dst.family ? t->dst.family : cfg->stack.family);
	if (t->kind == NB_ENCAP_VXLAN || t->kind == NB_ENCAP_GRE) {
		default_ip(&t->src, fam, NB_DEFAULT_TUN_SRC,
			   NB_DEFAULT_TUN_SRC6);
		default_ip(&t->dst, fam, NB_DEFAULT_TUN_DST,
			   NB_DEFAULT_TUN_DST6);
	}
	return 0;
}

static int
check_tags(const struct nb_config *cfg, char *err, size_t errlen)
{
	const struct nb_stack_cfg *k = &cfg->stack;

	if (k->outer_tpid && !k->outer_vid) {
		snprintf(err, errlen,
			 "--tpid sets the outer tag's TPID: it needs --qinq "
			 "(or --vlan OUTER.INNER)");
		return -EINVAL;
	}
	if (k->pcp > 0 && !cfg->vlan_id) {
		snprintf(err, errlen,
			 "--pcp is the priority of a VLAN tag: it needs --vlan "
			 "or --qinq");
		return -EINVAL;
	}
	if (k->nb_dscp > cfg->streams) {
		snprintf(err, errlen,
			 "--dscp gives %u classes for %u stream%s: each stream "
			 "has one class (--streams %u)",
			 k->nb_dscp, cfg->streams, cfg->streams == 1 ? "" : "s",
			 k->nb_dscp);
		return -EINVAL;
	}
	return 0;
}

/* Only the loopback generator and sink carry the stack so far. */
static int
check_where(const struct nb_config *cfg, char *err, size_t errlen)
{
	const char *what = cfg->tcp			   ? "--tcp"
			   : cfg->replay.active		   ? "--replay"
			   : cfg->mode != NB_MODE_LOOPBACK ? "peer mode"
							   : NULL;

	if (what == NULL || !nb_stack_beyond_plain(cfg))
		return 0;
	snprintf(err, errlen,
		 "%s carries plain IPv4 (with --vlan ID) so far: IPv6, QinQ, "
		 "--pcp, --dscp, --ecn and --encap are for loopback tests "
		 "(--tx-port/--rx-port)",
		 what);
	return -EINVAL;
}

/* Each --size holds the stack and the stamp. */
static int
check_sizes(const struct nb_config *cfg, char *err, size_t errlen)
{
	struct nb_flow f;
	uint8_t mac[6] = {0};
	uint32_t min;
	uint16_t i;

	nb_stack_flow(&f, cfg, mac, mac, 0);
	min = nb_flow_min_size(&f);
	for (i = 0; i < cfg->sizes.nb_sizes; i++)
		if (cfg->sizes.sizes[i] < min) {
			snprintf(err, errlen,
				 "frame size %u is too small: these headers "
				 "and the stamp need %u B",
				 cfg->sizes.sizes[i], min);
			return -EINVAL;
		}
	return 0;
}

int
nb_stack_check(struct nb_config *cfg, char *err, size_t errlen)
{
	if (check_sources(cfg, err, errlen) != 0 ||
	    check_family(cfg, err, errlen) != 0 ||
	    check_tunnel(cfg, err, errlen) != 0 ||
	    check_tags(cfg, err, errlen) != 0 ||
	    check_where(cfg, err, errlen) != 0)
		return -EINVAL;
	return nb_stack_beyond_plain(cfg) ? check_sizes(cfg, err, errlen) : 0;
}

/* The outer UDP source port of a VXLAN frame: a hash of the inner flow,
 * in 49152..65535 (RFC 7348, 5.), as a VTEP picks it for ECMP. */
static uint16_t
vxlan_sport(const struct nb_flow *f)
{
	uint32_t h = 2166136261u, i;
	uint8_t key[40];

	memcpy(key, f->src_ip6, 16);
	memcpy(key + 16, f->dst_ip6, 16);
	nb_put_be32(key + 32, f->src_ip ^ f->dst_ip);
	nb_put_be16(key + 36, f->src_port);
	nb_put_be16(key + 38, f->dst_port);
	for (i = 0; i < sizeof(key); i++)
		h = (h ^ key[i]) * 16777619u; /* FNV-1a */
	return (uint16_t)(49152 + (h ^ (h >> 16)) % 16384);
}

void
nb_stack_flow(struct nb_flow *f, const struct nb_config *cfg,
	      const uint8_t src_mac[6], const uint8_t dst_mac[6], uint32_t s)
{
	const struct nb_stack_cfg *k = &cfg->stack;
	static const uint8_t in_dst[6] = {0x02, 0x4e, 0x42, 0, 0, 2};
	static const uint8_t in_src[6] = {0x02, 0x4e, 0x42, 0, 0, 1};

	memset(f, 0, sizeof(*f));
	memcpy(f->src_mac, src_mac, 6);
	memcpy(f->dst_mac, dst_mac, 6);
	f->vlan_id = cfg->vlan_id;
	f->outer_vid = k->outer_vid;
	f->outer_tpid = k->outer_tpid ? k->outer_tpid : NB_ETHERTYPE_QINQ;
	f->pcp = (uint8_t)(k->pcp > 0 ? k->pcp : 0);
	f->tos = (uint8_t)((k->nb_dscp ? k->dscp[s % k->nb_dscp] << 2 : 0) |
			   k->ecn);
	f->proto = cfg->proto;
	f->family = k->family == 6 ? 6 : 4;
	f->src_ip = cfg->src_ip;
	f->dst_ip = cfg->dst_ip;
	if (f->family == 6) {
		memcpy(f->src_ip6, k->src6.a, 16);
		memcpy(f->dst_ip6, k->dst6.a, 16);
	}
	f->src_port = (uint16_t)(NB_DEFAULT_SPORT_BASE + s);
	f->dst_port = NB_DEFAULT_DPORT;
	f->stream_id = (uint16_t)s;
	f->tun = k->tun;
	if (f->tun.kind == NB_ENCAP_VXLAN) {
		memcpy(f->tun.inner_dst_mac, in_dst, 6);
		memcpy(f->tun.inner_src_mac, in_src, 6);
		f->tun.src_port = vxlan_sport(f);
	}
}

size_t
nb_stack_hdr_len(const struct nb_config *cfg)
{
	struct nb_flow f;
	uint8_t mac[6] = {0};

	nb_stack_flow(&f, cfg, mac, mac, 0);
	return nb_flow_hdr_len(&f);
}

/* An address as text. */
static const char *
ip_text(const struct nb_ip *ip, char *buf, size_t len)
{
	return inet_ntop(ip->family == 6 ? AF_INET6 : AF_INET, ip->a, buf,
			 (socklen_t)len) != NULL
		       ? buf
		       : "?";
}

/* --encap's kind and value, as the option spells it. */
static void
encap_text(const struct nb_tunnel *t, char *buf, size_t len)
{
	size_t n;
	uint32_t i;

	switch (t->kind) {
	case NB_ENCAP_VXLAN:
		snprintf(buf, len, "vxlan:%u", t->id);
		return;
	case NB_ENCAP_GRE:
		if (t->has_key)
			snprintf(buf, len, "gre:%u", t->id);
		else
			snprintf(buf, len, "gre");
		return;
	case NB_ENCAP_MPLS:
		n = (size_t)snprintf(buf, len, "mpls:");
		for (i = 0; i < t->nb_labels && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s%u",
					      i ? "/" : "", t->labels[i]);
		return;
	default:
		snprintf(buf, len, "none");
	}
}

void
nb_stack_text(const struct nb_config *cfg, char *buf, size_t len)
{
	const struct nb_stack_cfg *k = &cfg->stack;
	char a[64], b[64], e[128];
	size_t n = 0;
	uint32_t i;

#define ADD(...)                                                               \
	do {                                                                   \
		if (n < len)                                                   \
			n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__);  \
	} while (0)
	ADD("IPv%u", k->family == 6 ? 6 : 4);
	if (k->family == 6)
		ADD(" %s > %s", ip_text(&k->src6, a, sizeof(a)),
		    ip_text(&k->dst6, b, sizeof(b)));
	if (k->outer_vid)
		ADD(", QinQ 0x%04x %u / 0x8100 %u",
		    k->outer_tpid ? k->outer_tpid : NB_ETHERTYPE_QINQ,
		    k->outer_vid, cfg->vlan_id);
	else if (cfg->vlan_id)
		ADD(", VLAN %u", cfg->vlan_id);
	if (k->pcp > 0)
		ADD(" PCP %d", k->pcp);
	for (i = 0; i < k->nb_dscp; i++)
		ADD("%s%u", i ? "," : ", DSCP ", k->dscp[i]);
	if (k->ecn)
		ADD(", ECN %u", k->ecn);
	if (k->tun.kind != NB_ENCAP_NONE) {
		encap_text(&k->tun, e, sizeof(e));
		ADD(", in %s", e);
		if (k->tun.kind != NB_ENCAP_MPLS)
			ADD(" (%s > %s)", ip_text(&k->tun.src, a, sizeof(a)),
			    ip_text(&k->tun.dst, b, sizeof(b)));
	}
#undef ADD
}

json_t *
nb_stack_json(const struct nb_config *cfg)
{
	const struct nb_stack_cfg *k = &cfg->stack;
	json_t *o = json_object(), *tags = json_array(), *d = json_array();
	char a[64], b[64], e[128];
	uint32_t i;

	json_object_set_new(o, "family", json_integer(k->family == 6 ? 6 : 4));
	if (k->outer_vid)
		json_array_append_new(
			tags, json_pack("{s:i,s:i,s:i}", "tpid",
					k->outer_tpid ? k->outer_tpid
						      : NB_ETHERTYPE_QINQ,
					"vid", k->outer_vid, "pcp",
					k->pcp > 0 ? k->pcp : 0));
	if (cfg->vlan_id)
		json_array_append_new(tags, json_pack("{s:i,s:i,s:i}", "tpid",
						      NB_ETHERTYPE_VLAN, "vid",
						      cfg->vlan_id, "pcp",
						      k->pcp > 0 ? k->pcp : 0));
	json_object_set_new(o, "tags", tags);
	for (i = 0; i < k->nb_dscp; i++)
		json_array_append_new(d, json_integer(k->dscp[i]));
	json_object_set_new(o, "dscp", d);
	json_object_set_new(o, "ecn", json_integer(k->ecn));
	encap_text(&k->tun, e, sizeof(e));
	json_object_set_new(o, "encap", json_string(e));
	if (k->tun.kind == NB_ENCAP_VXLAN || k->tun.kind == NB_ENCAP_GRE)
		json_object_set_new(
			o, "tunnel",
			json_pack("{s:s,s:s}", "src",
				  ip_text(&k->tun.src, a, sizeof(a)), "dst",
				  ip_text(&k->tun.dst, b, sizeof(b))));
	return o;
}
