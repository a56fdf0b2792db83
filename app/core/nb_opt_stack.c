/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The header stack's option values (nb_stack.h): -6's addresses, --qinq,
 * --tpid, --pcp, --dscp, --ecn, --encap, --tunnel-src/-dst.  The checks
 * across them are nb_stack.c's.
 */
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

/* A decimal number lo..hi (a TPID: 0x hex too); 0 or -EINVAL. */
static int
num_base(const char *s, int base, uint32_t lo, uint32_t hi, uint32_t *out)
{
	char *end;
	unsigned long v;

	if (s == NULL || *s == '\0' || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, base);
	if (errno != 0 || *end != '\0' || v < lo || v > hi)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

static int
num(const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
	return num_base(s, 10, lo, hi, out);
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

	if (num_base(val, 0, 0, 0xffff, &v) != 0 ||
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
