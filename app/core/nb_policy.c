/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_frame.h"
#include "nb_policy.h"

#define WHY(...) snprintf(why, whylen, __VA_ARGS__)

static int
allowed(const struct nb_config *cfg, const uint8_t mac[6], uint32_t ip)
{
	uint32_t i;

	if (cfg->nb_allow == 0)
		return 1;
	for (i = 0; i < cfg->nb_allow; i++) {
		const struct nb_allow *a = &cfg->allow[i];

		if (a->is_ip ? (ip & a->mask) == (a->ip & a->mask)
			     : memcmp(a->mac, mac, 6) == 0)
			return 1;
	}
	return 0;
}

int
nb_policy_answerable(const uint8_t mac[6], uint32_t ip)
{
	static const uint8_t zero[6];

	return !(mac[0] & 1) && memcmp(mac, zero, 6) != 0 && ip != 0 &&
	       ip != 0xffffffffu && (ip >> 24) != 127 && (ip >> 28) != 0xe;
}

/* A source MAC a peer can have. */
static int
peer_mac_ok(const uint8_t mac[6], char *why, size_t whylen)
{
	static const uint8_t zero[6];

	if (mac[0] & 1) {
		WHY("a broadcast or multicast source MAC cannot be a peer");
		return -EACCES;
	}
	if (memcmp(mac, zero, 6) == 0) {
		WHY("the zero MAC cannot be a peer");
		return -EACCES;
	}
	return 0;
}

int
nb_policy_peer(const struct nb_config *cfg, const uint8_t mac[6], uint32_t ip,
	       char *why, size_t whylen)
{
	if (peer_mac_ok(mac, why, whylen) != 0)
		return -EACCES;
	if (ip == 0 || ip == 0xffffffffu || (ip >> 24) == 127 ||
	    (ip >> 28) == 0xe) {
		WHY("source %u.%u.%u.%u cannot be a peer (zero, broadcast, "
		    "loopback or multicast)",
		    ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
		return -EACCES;
	}
	if (!allowed(cfg, mac, ip)) {
		WHY("%02x:%02x:%02x:%02x:%02x:%02x (%u.%u.%u.%u) is not "
		    "allowed here (--allow)",
		    mac[0], mac[1], mac[2], mac[3], mac[4], mac[5], ip >> 24,
		    (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
		return -EACCES;
	}
	return 0;
}

/* An IPv6 source anything may be sent back to. */
static int
answerable6(const uint8_t mac[6], const uint8_t ip6[16])
{
	static const uint8_t zero[15];

	return nb_policy_answerable(mac, 1) && ip6[0] != 0xff &&
	       !(memcmp(ip6, zero, 15) == 0 && ip6[15] <= 1);
}

int
nb_policy_answerable_u(const struct nb_udp_info *u)
{
	return u->v6 ? answerable6(u->src_mac, u->src_ip6)
		     : nb_policy_answerable(u->src_mac, u->src_ip);
}

int
nb_policy_peer_u(const struct nb_config *cfg, const struct nb_udp_info *u,
		 char *why, size_t whylen)
{
	uint32_t i;

	if (!u->v6)
		return nb_policy_peer(cfg, u->src_mac, u->src_ip, why, whylen);
	if (peer_mac_ok(u->src_mac, why, whylen) != 0)
		return -EACCES;
	if (!answerable6(u->src_mac, u->src_ip6)) {
		WHY("source %s cannot be a peer (unspecified, loopback or "
		    "multicast)",
		    nb_udp_src_text(u).s);
		return -EACCES;
	}
	for (i = 0; i < cfg->nb_allow; i++)
		if (!cfg->allow[i].is_ip &&
		    memcmp(cfg->allow[i].mac, u->src_mac, 6) == 0)
			return 0;
	if (cfg->nb_allow == 0)
		return 0;
	WHY("%02x:%02x:%02x:%02x:%02x:%02x (%s) is not allowed here (--allow: "
	    "its prefixes are IPv4, an IPv6 client is allowed by its MAC)",
	    u->src_mac[0], u->src_mac[1], u->src_mac[2], u->src_mac[3],
	    u->src_mac[4], u->src_mac[5], nb_udp_src_text(u).s);
	return -EACCES;
}

/* The request's rate in the unit of the cap (frames/s or bits/s). */
static double
in_cap_unit(const struct nb_rate_spec *cap, double pps,
	    const struct nb_ctl_params *p)
{
	double bytes = 0;
	uint32_t i;

	if (cap->kind == NB_RATE_PPS)
		return pps;
	for (i = 0; i < p->nb_pattern; i++)
		bytes += p->sizes[p->pattern[i]] +
			 (cap->kind == NB_RATE_BPS_L1 ? NB_L1_OVERHEAD : 0);
	return pps * bytes * 8.0 / p->nb_pattern;
}

static const char *
cap_unit(const struct nb_rate_spec *cap)
{
	return cap->kind == NB_RATE_PPS	     ? "frames/s"
	       : cap->kind == NB_RATE_BPS_L2 ? "bit/s (L2)"
					     : "bit/s (L1)";
}

int
nb_policy_vlan(const struct nb_config *cfg, uint16_t own_vlan, uint16_t asked,
	       char *why, size_t whylen)
{
	uint32_t i;

	if (asked == own_vlan)
		return 0;
	for (i = 0; i < cfg->nb_allow_vlan; i++)
		if (cfg->allow_vlan[i] == asked)
			return 0;
	if (asked == 0)
		WHY("untagged data asked; this responder's data VLAN is %u "
		    "(--vlan)",
		    own_vlan);
	else if (own_vlan == 0)
		WHY("data in VLAN %u asked; this responder's data is untagged "
		    "(--vlan, --allow-vlan)",
		    asked);
	else
		WHY("data in VLAN %u asked; this responder's data VLAN is %u "
		    "(--vlan, --allow-vlan)",
		    asked, own_vlan);
	return -EPERM;
}

int
nb_policy_params(const struct nb_config *cfg, const struct nb_ctl_params *p,
		 uint32_t link_mbps, char *why, size_t whylen)
{
	const struct nb_rate_spec *cap = &cfg->max_rate;
	int sends = p->direction != NB_CTL_DIR_FORWARD;
	double max_ms = cfg->max_time * 1000.0, pps, line_pps = 0, asked;
	double l1_bytes = 0;
	uint32_t i;

	if ((double)p->duration_ms + (double)p->omit_ms > max_ms) {
		WHY("%.3f s asked (with warm-up); this responder runs tests of "
		    "at most %g s (--max-time)",
		    ((double)p->duration_ms + (double)p->omit_ms) / 1000.0,
		    cfg->max_time);
		return -EPERM;
	}
	/* line rate: frames/s of the pattern's mix that fill the link (its
	 * L1 bit rate is the link speed, whatever the sizes) */
	for (i = 0; i < p->nb_pattern; i++)
		l1_bytes += p->sizes[p->pattern[i]] + NB_L1_OVERHEAD;
	if (link_mbps)
		line_pps = link_mbps * 1e6 * p->nb_pattern / (l1_bytes * 8.0);
	pps = p->rate_num ? (double)p->rate_num / (double)p->rate_den
			  : line_pps;
	/* a count test: its frames at its rate, after any warm-up */
	if (p->duration_ms == 0 && pps > 0 &&
	    (double)p->packets / pps * 1000.0 + (double)p->omit_ms > max_ms) {
		WHY("%llu frames at %.0f frames/s (with warm-up) take longer "
		    "than %g s (--max-time)",
		    (unsigned long long)p->packets, pps, cfg->max_time);
		return -EPERM;
	}
	/* a TCP byte count: at least its time at the link's speed */
	if (p->tcp && p->duration_ms == 0 && link_mbps &&
	    (double)p->bytes * 8.0 / (link_mbps * 1e3) > max_ms) {
		WHY("%llu bytes take at least %.1f s at the link's %u Mbit/s; "
		    "this responder runs tests of at most %g s (--max-time)",
		    (unsigned long long)p->bytes,
		    (double)p->bytes * 8.0 / (link_mbps * 1e6), link_mbps,
		    cfg->max_time);
		return -EPERM;
	}
	if (p->tcp && sends) { /* capped at --max-rate, not refused */
		uint64_t r;
		uint8_t u;

		return nb_policy_tcp_cap(cfg, link_mbps, &r, &u, why, whylen);
	}
	if (p->rate_num == 0 && !sends)
		return 0; /* what arrives is bounded by the link */
	if (p->rate_num == 0 && link_mbps == 0) {
		WHY("rate max asked of a responder that sends: its link speed "
		    "is unknown and it sends at most %g %s (--max-rate); ask "
		    "for a rate",
		    cap->value, cap_unit(cap));
		return -EPERM;
	}
	asked = in_cap_unit(cap, pps, p);
	/* a rate equal to the cap passes whatever the rounding of rate_num */
	if (asked > cap->value * (1 + 1e-9)) {
		WHY("%.6g %s asked; this responder %s at most %g %s "
		    "(--max-rate)",
		    asked, cap_unit(cap), sends ? "sends" : "takes", cap->value,
		    cap_unit(cap));
		return -EPERM;
	}
	return 0;
}

static uint64_t
src_key(const uint8_t mac[6], uint32_t ip)
{
	uint64_t k = ((uint64_t)nb_get_be16(mac) << 32) | nb_get_be32(mac + 2);

	k ^= (uint64_t)ip << 16;
	return k ? k : 1;
}

void
nb_srclimit_init(struct nb_srclimit *l, uint64_t rate_per_src,
		 uint32_t burst_per_src, uint64_t rate_all, uint32_t burst_all,
		 uint64_t now_ns)
{
	memset(l, 0, sizeof(*l));
	l->rate = rate_per_src;
	l->burst = burst_per_src;
	nb_tokens_init(&l->all, rate_all, burst_all, now_ns);
}

int
nb_srclimit_take(struct nb_srclimit *l, const uint8_t mac[6], uint32_t ip,
		 uint64_t now_ns)
{
	uint64_t key = src_key(mac, ip);
	unsigned int i, victim = 0;

	for (i = 0; i < NB_SRCLIMIT_SLOTS; i++) {
		if (l->slot[i].key == key && l->slot[i].ip == ip &&
		    memcmp(l->slot[i].mac, mac, 6) == 0)
			break;
		if (l->slot[i].key == 0 ||
		    (l->slot[victim].key != 0 &&
		     l->slot[i].b.last_ns < l->slot[victim].b.last_ns))
			victim = i;
	}
	if (i == NB_SRCLIMIT_SLOTS) {
		i = victim;
		l->slot[i].key = key;
		l->slot[i].ip = ip;
		memcpy(l->slot[i].mac, mac, 6);
		nb_tokens_init(&l->slot[i].b, l->rate, l->burst, now_ns);
	}
	if (!nb_tokens_take(&l->slot[i].b, now_ns) ||
	    !nb_tokens_take(&l->all, now_ns)) {
		l->limited++;
		return 0;
	}
	return 1;
}

void
nb_vouched_init(struct nb_vouched *v, uint64_t life_ns, uint64_t rate,
		uint32_t burst)
{
	memset(v, 0, sizeof(*v));
	v->life_ns = life_ns;
	v->rate = rate;
	v->burst = burst;
}

static int
vouched_find(const struct nb_vouched *v, const uint8_t mac[6], uint32_t ip,
	     uint32_t session, uint64_t now_ns)
{
	unsigned int i;

	for (i = 0; i < NB_VOUCHED_SLOTS; i++)
		if (v->e[i].at_ns != 0 && now_ns - v->e[i].at_ns < v->life_ns &&
		    v->e[i].session == session && v->e[i].ip == ip &&
		    memcmp(v->e[i].mac, mac, 6) == 0)
			return (int)i;
	return -1;
}

void
nb_vouched_add(struct nb_vouched *v, const uint8_t mac[6], uint32_t ip,
	       uint32_t session, uint64_t now_ns)
{
	int i = vouched_find(v, mac, ip, session, now_ns);
	unsigned int j, old = 0;

	if (now_ns == 0)
		now_ns = 1;
	if (i >= 0) {
		v->e[i].at_ns = now_ns;
		return;
	}
	for (j = 1; j < NB_VOUCHED_SLOTS; j++)
		if (v->e[j].at_ns < v->e[old].at_ns)
			old = j;
	v->e[old].at_ns = now_ns;
	v->e[old].ip = ip;
	v->e[old].session = session;
	memcpy(v->e[old].mac, mac, 6);
	nb_tokens_init(&v->e[old].b, v->rate, v->burst, now_ns);
}

int
nb_vouched_take(struct nb_vouched *v, const uint8_t mac[6], uint32_t ip,
		uint32_t session, uint64_t now_ns, int *over)
{
	int i = vouched_find(v, mac, ip, session, now_ns);

	*over = 0;
	if (i < 0)
		return 0;
	if (!nb_tokens_take(&v->e[i].b, now_ns)) {
		*over = 1;
		return 0;
	}
	v->passed++;
	return 1;
}

int
nb_policy_may_check(struct nb_vouched *v, struct nb_srclimit *lim,
		    const uint8_t mac[6], uint32_t ip, uint32_t session,
		    uint64_t now_ns)
{
	int over;

	if (nb_vouched_take(v, mac, ip, session, now_ns, &over))
		return 1;
	if (over) {
		lim->limited++;
		return 0;
	}
	return nb_srclimit_take(lim, mac, ip, now_ns);
}

void
nb_escape(const char *in, size_t inlen, char *out, size_t outlen)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, o = 0;

	if (outlen == 0)
		return;
	for (i = 0; i < inlen && in[i] != '\0'; i++) {
		unsigned char c = (unsigned char)in[i];
		char t[5];
		size_t n;

		if (c == '\\') {
			t[0] = t[1] = '\\';
			n = 2;
		} else if (c >= 0x20 && c < 0x7f) {
			t[0] = (char)c;
			n = 1;
		} else {
			t[0] = '\\';
			t[1] = 'x';
			t[2] = hex[c >> 4];
			t[3] = hex[c & 15];
			n = 4;
		}
		if (o + n >= outlen)
			break;
		memcpy(out + o, t, n);
		o += n;
	}
	out[o] = '\0';
}

int
nb_policy_tcp_cap(const struct nb_config *cfg, uint32_t link_mbps,
		  uint64_t *rate, uint8_t *unit, char *why, size_t whylen)
{
	const struct nb_rate_spec *cap = &cfg->max_rate;

	*rate = 0;
	*unit = NB_CTL_CAP_NONE;
	switch (cap->kind) {
	case NB_RATE_MAX:
		return 0;
	case NB_RATE_PPS:
		*unit = NB_CTL_CAP_FRAMES;
		*rate = (uint64_t)(cap->value + 0.5);
		break;
	case NB_RATE_BPS_L2:
		*unit = NB_CTL_CAP_L2;
		*rate = (uint64_t)(cap->value / 8.0 + 0.5);
		break;
	case NB_RATE_PERCENT:
		if (link_mbps == 0) {
			WHY("this responder sends at most %g %% of its link "
			    "(--max-rate), whose speed is unknown",
			    cap->value);
			return -EPERM;
		}
		*unit = NB_CTL_CAP_L1;
		*rate = (uint64_t)(link_mbps * 1e6 * cap->value / 100.0 / 8.0 +
				   0.5);
		break;
	default:
		*unit = NB_CTL_CAP_L1;
		*rate = (uint64_t)(cap->value / 8.0 + 0.5);
		break;
	}
	if (*rate == 0)
		*rate = 1;
	return 0;
}

int
nb_refusal_note(struct nb_refusals *r, enum nb_refusal c, uint64_t now_ns,
		uint64_t *more)
{
	if ((unsigned int)c >= NB_REF_MAX)
		return 0;
	r->count[c]++;
	if (r->logged_ns[c] != 0 && now_ns - r->logged_ns[c] < 1000000000ull) {
		r->unlogged[c]++;
		return 0;
	}
	*more = r->unlogged[c];
	r->unlogged[c] = 0;
	r->logged_ns[c] = now_ns ? now_ns : 1;
	return 1;
}

const char *
nb_refusal_name(enum nb_refusal c)
{
	static const char *const names[NB_REF_MAX] = {
		[NB_REF_RATE] = "rate-limited",
		[NB_REF_UNTAGGED] = "untagged HELLO",
		[NB_REF_POLICY] = "refused address",
		[NB_REF_NO_KEY] = "client without the key",
		[NB_REF_BAD_KEY] = "wrong key",
		[NB_REF_KEYED] = "key holder at --no-auth",
		[NB_REF_BUSY] = "busy",
		[NB_REF_COOKIE] = "bad or stale cookie",
		[NB_REF_TAG] = "bad tag",
		[NB_REF_REPLAY] = "replayed session",
		[NB_REF_FULL] = "too many sessions",
		[NB_REF_QUIT] = "QUIT refused",
		[NB_REF_FOREIGN] = "not the session's client",
		[NB_REF_VERSION] = "other protocol version",
		[NB_REF_AMPLIFY] = "answer longer than the datagram",
	};

	return (unsigned int)c < NB_REF_MAX ? names[c] : "unknown";
}
