/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The header stack a test's data frames carry (IPv6, QinQ, PCP, DSCP and
 * ECN, VXLAN, GRE and MPLS tunnels): the options' values, the checks
 * across them (nb_stack_check, before EAL), and the flow of each stream
 * (nb_stack_flow), which nb_frame_build turns into bytes.  Pure.
 */
#ifndef NB_STACK_H
#define NB_STACK_H

#include <stddef.h>

#include <jansson.h>

#include "nb_config.h"
#include "nb_frame.h"

/* Default addresses: IPv6's benchmarking prefix 2001:2::/48 (RFC 5180),
 * as 198.18.0.0/15 is IPv4's; the tunnel's endpoints beside them. */
#define NB_DEFAULT_SRC_IP6  "2001:2::1"
#define NB_DEFAULT_DST_IP6  "2001:2:0:1::1"
#define NB_DEFAULT_TUN_SRC  0xc61200feu /* 198.18.0.254 */
#define NB_DEFAULT_TUN_DST  0xc61300feu /* 198.19.0.254 */
#define NB_DEFAULT_TUN_SRC6 "2001:2::fe"
#define NB_DEFAULT_TUN_DST6 "2001:2:0:1::fe"

/* Option values (the table's parsers). */
int nb_opt_ipv6_addr(struct nb_ip *dst, const char *val);
int nb_opt_qinq(struct nb_config *cfg, const char *val, char *why,
		size_t whylen);
int nb_opt_tpid(struct nb_config *cfg, const char *val, char *why,
		size_t whylen);
int nb_opt_pcp(struct nb_config *cfg, const char *val, char *why,
	       size_t whylen);
int nb_opt_dscp(struct nb_config *cfg, const char *val, char *why,
		size_t whylen);
int nb_opt_ecn(struct nb_config *cfg, const char *val, char *why,
	       size_t whylen);
int nb_opt_encap(struct nb_config *cfg, const char *val, char *why,
		 size_t whylen);
int nb_opt_tunnel_src(struct nb_config *cfg, const char *val, char *why,
		      size_t whylen);
int nb_opt_tunnel_dst(struct nb_config *cfg, const char *val, char *why,
		      size_t whylen);

/* Whether the test's frames carry more than plain IPv4 with at most one
 * 802.1Q tag (what peer mode, --reflector and --tcp carry so far). */
int nb_stack_beyond_plain(const struct nb_config *cfg);

/*
 * The checks across the stack's options, and the defaults they leave: the
 * family (-6, or an IPv6 --src-ip/--dst-ip), the addresses, the tunnel's
 * endpoints and family; frame sizes that hold the stack.  0, or -EINVAL
 * with the reason in err.
 */
int nb_stack_check(struct nb_config *cfg, char *err, size_t errlen);

/*
 * The flow of stream s: the MACs given, then the stack (tags, DSCP of
 * stream s, ECN, family and addresses, the tunnel with its per-stream
 * outer UDP port), UDP/TCP ports and stream id as today.
 */
void nb_stack_flow(struct nb_flow *f, const struct nb_config *cfg,
		   const uint8_t src_mac[6], const uint8_t dst_mac[6],
		   uint32_t s);

/* The largest header stack of cfg's frames: bytes before the stamp. */
size_t nb_stack_hdr_len(const struct nb_config *cfg);

/* The stack in words for the report's header ("IPv6 2001:2::1 >
 * 2001:2:0:1::1, QinQ 0x88a8 200 / 0x8100 100 PCP 3, in vxlan:5000
 * (198.18.0.254 > 198.19.0.254)"). */
void nb_stack_text(const struct nb_config *cfg, char *buf, size_t len);

/* The same as start.test_start.stack: family, tags, dscp, ecn, encap and
 * the tunnel's endpoints. */
json_t *nb_stack_json(const struct nb_config *cfg);

#endif /* NB_STACK_H */
