/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a responder accepts from whom: the peer address rules, --allow,
 * the --max-rate/--max-time caps on a test, the per-source HELLO limit
 * (on nb_tokens buckets) and the escaping of peer strings.  Pure: no DPDK,
 * time comes in as ns.
 */
#ifndef NB_POLICY_H
#define NB_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "nb_config.h"
#include "nb_ctl.h"
#include "nb_l2.h"
#include "nb_tokens.h"

/*
 * May this address be a peer?  Refused: a broadcast, multicast or zero
 * MAC; IPv4 0.0.0.0, 255.255.255.255, 127/8 or multicast (224/4); and,
 * when --allow lists entries, an address no entry matches (a MAC entry
 * matches the MAC, a prefix entry the IPv4).  0, or -EACCES with the
 * reason in why.
 */
int nb_policy_peer(const struct nb_config *cfg, const uint8_t mac[6],
		   uint32_t ip, char *why, size_t whylen);

/*
 * May anything at all be sent back to this source?  Not to a broadcast,
 * multicast or zero MAC, nor to IPv4 0.0.0.0, 255.255.255.255, 127/8 or
 * 224/4 (an answer there would reach every host, or none): 1 yes, 0 no.
 * The address rules of nb_policy_peer without --allow.
 */
int nb_policy_answerable(const uint8_t mac[6], uint32_t ip);

/*
 * The two above for the source of datagram u: over IPv6 an address is
 * refused when unspecified (::), loopback (::1) or multicast (ff00::/8),
 * and --allow's prefixes (IPv4) match no IPv6 source: only its MACs do.
 */
int nb_policy_peer_u(const struct nb_config *cfg, const struct nb_udp_info *u,
		     char *why, size_t whylen);
int nb_policy_answerable_u(const struct nb_udp_info *u);

/*
 * Does the test fit the responder's caps?  Duration plus warm-up at most
 * --max-time; with --packets and no --time, packets at the asked rate (or
 * at the link's rate for "max") at most --max-time; the rate in the cap's
 * unit (L1 or L2 bits/s over the size pattern, or frames/s) at most
 * --max-rate, in each direction the responder sends or receives; "max"
 * (rate_num 0) is accepted for what the responder receives, and for what
 * it sends only when the link speed is known and within the cap.
 * link_mbps 0 = unknown.  A closed-loop TCP test (tcp 1) is not paced:
 * its byte count is bounded by its time at the link's speed, and a
 * responder that sends caps its TCP sender at --max-rate instead
 * (nb_policy_tcp_cap).  0, or -EPERM with the reason in why.
 */
int nb_policy_params(const struct nb_config *cfg, const struct nb_ctl_params *p,
		     uint32_t link_mbps, char *why, size_t whylen);

/*
 * May a client have the responder's data frames in VLAN `asked` (0:
 * untagged)?  Only the responder's own (own_vlan: its --vlan, 0 without)
 * or one of --allow-vlan: a client must not inject traffic into a VLAN
 * it is not on.  0, or -EPERM with the reason in why.
 */
int nb_policy_vlan(const struct nb_config *cfg, uint16_t own_vlan,
		   uint16_t asked, char *why, size_t whylen);

/*
 * Per-source limit: a bucket for each of NB_SRCLIMIT_SLOTS sources, keyed
 * by MAC and IPv4; a new source takes the slot of the one heard from
 * least recently (so a flood from many forged sources cannot starve one
 * honest source for longer than its own bucket allows), and all sources
 * together share a global bucket.
 */
#define NB_SRCLIMIT_SLOTS 64

struct nb_srclimit {
	struct nb_tokens all;
	uint64_t rate;
	uint32_t burst;
	struct {
		uint64_t key; /* MAC (48 bits) ^ IPv4 << 16; 0 = free */
		uint32_t ip;
		uint8_t mac[6];
		struct nb_tokens b;
	} slot[NB_SRCLIMIT_SLOTS];
	uint64_t limited; /* events refused */
};

void nb_srclimit_init(struct nb_srclimit *l, uint64_t rate_per_src,
		      uint32_t burst_per_src, uint64_t rate_all,
		      uint32_t burst_all, uint64_t now_ns);
/* 1: the event from this source may happen; 0: over its rate or over
 * the global rate (counted in limited). */
int nb_srclimit_take(struct nb_srclimit *l, const uint8_t mac[6], uint32_t ip,
		     uint64_t now_ns);

/*
 * The sources a keyed responder has vouched for: each HELLO whose tag
 * checked under the key (so from a key holder, or a replay of one) is
 * remembered by (MAC, IPv4, session) while its cookie can be good
 * (life_ns), with a token bucket of its own.  That session's PARAMS,
 * QUIT and repeated HELLOs then spend their own bucket instead of the
 * per-source slots and the global bucket, which a flood of forged
 * messages from made-up sources empties: before the key check every
 * source looks alike, after it the key holder no longer competes with
 * them.  Only a tag that checks adds an entry, so made-up sources cannot
 * evict one; NB_VOUCHED_SLOTS key holders' HELLOs (or replays of them)
 * in one cookie life can, oldest first.
 */
#define NB_VOUCHED_SLOTS 16

struct nb_vouched {
	uint64_t life_ns, rate;
	uint32_t burst;
	struct {
		uint64_t at_ns; /* when vouched; 0 = free */
		uint32_t ip, session;
		uint8_t mac[6];
		struct nb_tokens b;
	} e[NB_VOUCHED_SLOTS];
	uint64_t passed; /* events that took a vouched source's token */
};

void nb_vouched_init(struct nb_vouched *v, uint64_t life_ns, uint64_t rate,
		     uint32_t burst);
/* Vouch for (mac, ip, session) at now_ns: a fresh entry (bucket full),
 * or the same entry renewed (its bucket as it was). */
void nb_vouched_add(struct nb_vouched *v, const uint8_t mac[6], uint32_t ip,
		    uint32_t session, uint64_t now_ns);
/* 1: vouched for within its life and a token of its own taken; 0: not
 * vouched for (the caller's usual limits apply) or over its own rate
 * (refused: *over set to 1). */
int nb_vouched_take(struct nb_vouched *v, const uint8_t mac[6], uint32_t ip,
		    uint32_t session, uint64_t now_ns, int *over);

/* May a HELLO, PARAMS or QUIT of session from (mac, ip) go on to the
 * checks that cost an HMAC?  A session vouched for spends its own
 * tokens; any other its source's and everyone's in lim.  1 or 0. */
int nb_policy_may_check(struct nb_vouched *v, struct nb_srclimit *lim,
			const uint8_t mac[6], uint32_t ip, uint32_t session,
			uint64_t now_ns);

/*
 * Peer-supplied text made safe for a terminal or a log: printable ASCII
 * as it is, a backslash as "\\", every other byte as "\xNN".  Stops at the
 * NUL or after inlen bytes; out is always terminated (cut to fit).
 */
void nb_escape(const char *in, size_t inlen, char *out, size_t outlen);

/*
 * The cap on a responder's TCP sender from --max-rate: *rate units per
 * second of *unit (NB_CTL_CAP_*: frames, L2 bytes with the FCS, L1 bytes
 * with preamble and gap too); NB_CTL_CAP_NONE with rate 0 when the cap
 * is "max".  A percentage needs the link speed: -EPERM with why when it
 * is unknown.
 */
int nb_policy_tcp_cap(const struct nb_config *cfg, uint32_t link_mbps,
		      uint64_t *rate, uint8_t *unit, char *why, size_t whylen);

/*
 * What a responder refused, by cause: counted, and logged at most once
 * per cause per second (a flood must not become a flood of log lines).
 */
enum nb_refusal {
	NB_REF_RATE = 0, /* over the per-source or global rate: dropped */
	NB_REF_UNTAGGED, /* an untagged HELLO (not version 9): dropped */
	NB_REF_POLICY,	 /* the address, or --allow: REJECT */
	NB_REF_NO_KEY,	 /* a keyless client at a keyed responder: REJECT */
	NB_REF_BAD_KEY,	 /* a HELLO whose tag fails: REJECT */
	NB_REF_KEYED,	 /* a key holder at a --no-auth responder: REJECT */
	NB_REF_BUSY,	 /* another session holds us: BUSY */
	NB_REF_COOKIE,	 /* PARAMS/QUIT with a bad or stale cookie */
	NB_REF_TAG,	 /* PARAMS/QUIT whose tag fails */
	NB_REF_REPLAY,	 /* PARAMS/QUIT of a session already opened */
	NB_REF_FULL,	 /* too many sessions in a cookie's life */
	NB_REF_QUIT,	 /* QUIT the posture forbids: REJECT */
	NB_REF_FOREIGN,	 /* the open session's messages from another
			  * address, or with a bad tag */
	NB_REF_VERSION,	 /* another protocol version */
	NB_REF_AMPLIFY,	 /* its answer would be longer than it: dropped */
	NB_REF_MAX,
};

struct nb_refusals {
	uint64_t count[NB_REF_MAX];
	uint64_t logged_ns[NB_REF_MAX]; /* the last line's time; 0 never */
	uint64_t unlogged[NB_REF_MAX];	/* counted since that line */
};

/*
 * Count one refusal of cause c at now_ns (> 0).  1 when a log line is
 * due (none for this cause within the last second), with *more the
 * refusals of this cause counted since the last line and not logged;
 * 0 otherwise.
 */
int nb_refusal_note(struct nb_refusals *r, enum nb_refusal c, uint64_t now_ns,
		    uint64_t *more);

/* "rate-limited", "untagged HELLO", ...; "unknown" otherwise. */
const char *nb_refusal_name(enum nb_refusal c);

#endif /* NB_POLICY_H */
