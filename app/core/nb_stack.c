/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The header stack across options (nb_stack.h): the checks and defaults
 * before EAL, the flow of each stream, the stack in words and in JSON.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_mcast.h"
#include "nb_options.h"
#include "nb_stack.h"
#include "nb_units.h"

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

/* An IPv6 address a peer can have: not ::, ::1 or multicast. */
static int
unicast6(const struct nb_ip *ip)
{
	static const uint8_t zero[15];

	return ip->a[0] != 0xff && !(memcmp(ip->a, zero, 15) == 0 &&
				     (ip->a[15] == 0 || ip->a[15] == 1));
}

/* Two addresses for one end (a peer option and --src-ip/--dst-ip). */
static int
one_address(struct nb_ip *have, const struct nb_ip *opt, const char *what,
	    char *err, size_t errlen)
{
	if (have->family == 6 && memcmp(have->a, opt->a, 16) != 0) {
		snprintf(err, errlen, "%s name two addresses for one end",
			 what);
		return -EINVAL;
	}
	*have = *opt;
	return 0;
}

/*
 * Peer mode over IPv6: an IPv6 --ip (this side's) or --peer (the
 * responder's), or -6, puts the control protocol and the test on IPv6;
 * a client's addresses are then --ip or --src-ip [2001:2::1] and --peer
 * or --dst-ip [2001:2:0:1::1].  Not mixed with IPv4 ones.
 */
static int
check_peer_family(struct nb_config *cfg, char *err, size_t errlen)
{
	struct nb_stack_cfg *k = &cfg->stack;
	int v6;

	if ((cfg->ip6.family == 6 && !unicast6(&cfg->ip6)) ||
	    (cfg->peer_ip6.family == 6 && !unicast6(&cfg->peer_ip6))) {
		snprintf(err, errlen,
			 "%s: a peer's IPv6 address is unicast (not ::, ::1 "
			 "or multicast)",
			 cfg->ip6.family == 6 && !unicast6(&cfg->ip6)
				 ? "--ip"
				 : "--peer");
		return -EINVAL;
	}
	if (cfg->mode == NB_MODE_RESPONDER || cfg->mode == NB_MODE_PORTS)
		return 0;
	if ((cfg->peer_ip6.family == 6 &&
	     one_address(&k->dst6, &cfg->peer_ip6, "--peer and --dst-ip", err,
			 errlen) != 0) ||
	    (cfg->ip6.family == 6 &&
	     one_address(&k->src6, &cfg->ip6, "--ip and --src-ip", err,
			 errlen) != 0))
		return -EINVAL;
	v6 = k->ipv6 || k->src6.family || k->dst6.family;
	if (v6 && ((cfg->peer_is_ip && cfg->peer_ip6.family != 6) ||
		   (cfg->have_ip && cfg->ip6.family != 6))) {
		snprintf(err, errlen,
			 "%s gives an IPv4 address to an IPv6 test (-6 or "
			 "IPv6 addresses elsewhere)",
			 cfg->have_ip && cfg->ip6.family != 6 ? "--ip"
							      : "--peer");
		return -EINVAL;
	}
	return 0;
}

/* The family of the test's (inner) addresses. */
static int
check_family(struct nb_config *cfg, char *err, size_t errlen)
{
	struct nb_stack_cfg *k = &cfg->stack;

	k->family = k->ipv6 || k->src6.family || k->dst6.family ? 6 : 4;
	if (k->family == 6 &&
	    ((nb_option_given(cfg, "src-ip") && !k->src6.family) ||
	     (nb_option_given(cfg, "dst-ip") && !k->dst6.family))) {
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

/* Beyond plain IPv4, no more than the IPv6 family. */
static int
only_ipv6(const struct nb_config *cfg)
{
	const struct nb_stack_cfg *k = &cfg->stack;

	return !k->outer_vid && k->pcp <= 0 && !k->nb_dscp && !k->ecn &&
	       k->tun.kind == NB_ENCAP_NONE;
}

/* The loopback generator and sink carry every stack; closed-loop TCP
 * (outside peer mode) IPv4 or IPv6; the rest plain IPv4 so far. */
static int
check_where(const struct nb_config *cfg, char *err, size_t errlen)
{
	const char *what = cfg->tcp && cfg->mode != NB_MODE_LOOPBACK
				   ? "--tcp in peer mode"
			   : cfg->tcp			   ? "--tcp"
			   : cfg->replay.active		   ? "--replay"
			   : cfg->reflector		   ? "--reflector"
			   : cfg->mode != NB_MODE_LOOPBACK ? "peer mode"
							   : NULL;

	if (what == NULL || !nb_stack_beyond_plain(cfg))
		return 0;
	/* a client's test (UDP or TCP) and a reflector test: over IPv6 */
	if ((cfg->mode == NB_MODE_CLIENT || cfg->mode == NB_MODE_REFLECTOR) &&
	    !cfg->replay.active && only_ipv6(cfg))
		return 0;
	if (cfg->tcp && cfg->mode == NB_MODE_LOOPBACK) {
		if (only_ipv6(cfg))
			return 0;
		snprintf(err, errlen,
			 "--tcp carries IPv4 or IPv6 (with --vlan ID): QinQ, "
			 "--pcp, --dscp, --ecn and --encap are for UDP "
			 "loopback tests");
		return -EINVAL;
	}
	snprintf(err, errlen,
		 "%s carries plain IPv4 (with --vlan ID) so far: IPv6 is for "
		 "loopback, reflector and UDP peer tests and --tcp outside "
		 "peer mode; QinQ, --pcp, --dscp, --ecn and --encap for "
		 "loopback tests (--tx-port/--rx-port)",
		 what);
	return -EINVAL;
}

/*
 * Each --size (and each size of a suite's sweep) holds the stack and the
 * stamp.  Without --size the default 64 B becomes the smallest frame that
 * does (a suite's sweep with it).
 */
static int
check_sizes(struct nb_config *cfg, char *err, size_t errlen)
{
	struct nb_flow f;
	uint8_t mac[6] = {0};
	uint32_t min, i;

	nb_stack_flow(&f, cfg, mac, mac, 0);
	min = nb_flow_min_size(&f);
	if (!nb_option_given(cfg, "size")) {
		for (i = 0; i < cfg->sizes.nb_sizes; i++)
			if (cfg->sizes.sizes[i] < min)
				cfg->sizes.sizes[i] = (uint16_t)min;
		for (i = 0; i < cfg->sweep.n; i++)
			if (cfg->sweep.sizes[i] < min)
				cfg->sweep.sizes[i] = (uint16_t)min;
	}
	for (i = 0; i < cfg->sizes.nb_sizes + cfg->sweep.n; i++) {
		uint32_t sz =
			i < cfg->sizes.nb_sizes
				? cfg->sizes.sizes[i]
				: cfg->sweep.sizes[i - cfg->sizes.nb_sizes];

		if (sz < min) {
			snprintf(err, errlen,
				 "frame size %u is too small: these headers "
				 "and the stamp need %u B",
				 sz, min);
			return -EINVAL;
		}
	}
	return 0;
}

int
nb_stack_check(struct nb_config *cfg, char *err, size_t errlen)
{
	if (check_peer_family(cfg, err, errlen) != 0 ||
	    check_sources(cfg, err, errlen) != 0 ||
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

/* To a multicast group: the group's MAC (RFC 1112, RFC 2464) as the
 * Ethernet destination of the header that carries it (the outer one in a
 * loopback test unless --dst-mac: a peer's frames go to the peer; VXLAN's
 * inner one), as a host sends it. */
static void
group_macs(struct nb_flow *f, const struct nb_config *cfg)
{
	struct nb_ip in = {.family = f->family};
	const struct nb_ip *outer = &in;

	if (f->family == 6)
		memcpy(in.a, f->dst_ip6, 16);
	else
		nb_put_be32(in.a, f->dst_ip);
	if (f->tun.kind == NB_ENCAP_VXLAN && nb_ip_is_multicast(&in))
		nb_mcast_mac(&in, f->tun.inner_dst_mac);
	if (f->tun.kind == NB_ENCAP_VXLAN || f->tun.kind == NB_ENCAP_GRE)
		outer = &f->tun.dst;
	if (!cfg->have_dst_mac && cfg->mode == NB_MODE_LOOPBACK &&
	    nb_ip_is_multicast(outer))
		nb_mcast_mac(outer, f->dst_mac);
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
	f->dst_port = cfg->data_dport ? cfg->data_dport : NB_DEFAULT_DPORT;
	f->stream_id = (uint16_t)s;
	f->tun = k->tun;
	if (f->tun.kind == NB_ENCAP_VXLAN) {
		memcpy(f->tun.inner_dst_mac, in_dst, 6);
		memcpy(f->tun.inner_src_mac, in_src, 6);
		f->tun.src_port = vxlan_sport(f);
	}
	group_macs(f, cfg);
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
