/* SPDX-License-Identifier: BSD-3-Clause */
/* Closed-loop TCP connection state machine (see nb_tcp.h).  Pure. */
#include "nb_tcp.h"

#include <math.h>
#include <string.h>

uint8_t nb_tcp_pattern[NB_TCP_PATTERN_SPAN];
static int pattern_ready;
/* Prefix sums mod 65535 of the pattern, to checksum a payload in O(1):
 * even[i] of bytes j < i taken as big-endian words from an even j (byte j
 * high when j is even), all[i] of the bytes themselves. */
static uint16_t sum_even[NB_TCP_PATTERN_SPAN + 1];
static uint16_t sum_all[NB_TCP_PATTERN_SPAN + 1];

void
nb_tcp_pattern_init(void)
{
	/* Written once before any worker runs; read-only after. */
	uint8_t *p = nb_tcp_pattern;
	uint32_t x = 1;
	uint32_t i;

	if (pattern_ready)
		return;
	/* docs/protocol.md: x = x * 1664525 + 1013904223, byte = x >> 24 */
	for (i = 0; i < NB_TCP_PATTERN_PERIOD; i++) {
		x = x * 1664525u + 1013904223u;
		p[i] = (uint8_t)(x >> 24);
	}
	for (; i < NB_TCP_PATTERN_SPAN; i++)
		p[i] = p[i - NB_TCP_PATTERN_PERIOD];
	sum_even[0] = sum_all[0] = 0;
	for (i = 0; i < NB_TCP_PATTERN_SPAN; i++) {
		uint32_t w = i % 2 ? p[i] : (uint32_t)p[i] << 8;

		sum_even[i + 1] = (uint16_t)((sum_even[i] + w) % 65535u);
		sum_all[i + 1] = (uint16_t)((sum_all[i] + p[i]) % 65535u);
	}
	pattern_ready = 1;
}

/* x - y mod 65535, both below 65535: no division on the hot path */
static inline uint32_t
sub65535(uint32_t x, uint32_t y)
{
	return x >= y ? x - y : x + 65535u - y;
}

/* An ACK owed at once: for anything but new in-order data (a hole, a
 * duplicate, a FIN, a window to reopen, a challenge, a timer).  In-order
 * data sets ack_pending alone: that ACK may wait while the worker has
 * more data at hand (nb_tcp_ack_can_wait). */
static inline void
ack_now(struct nb_tcp_conn *c)
{
	c->ack_pending = 1;
	c->ack_urgent = 1;
}

uint32_t
nb_tcp_pattern_sum(uint64_t k, uint32_t len)
{
	uint32_t a = (uint32_t)(k % NB_TCP_PATTERN_PERIOD), b = a + len;
	uint32_t e = sub65535(sum_even[b], sum_even[a]);
	uint32_t t;

	if (a % 2 == 0)
		return e;
	/* from an odd start the roles swap: odd-placed bytes are high,
	 * i.e. 257 x (every byte) - (the even-start sum); 65536 is 1 mod
	 * 65535, so one fold and one subtraction reduce 257 x t */
	t = 257u * sub65535(sum_all[b], sum_all[a]);
	t = (t & 0xffffu) + (t >> 16);
	if (t >= 65535u)
		t -= 65535u;
	return sub65535(t, e);
}

uint8_t
nb_tcp_wscale_for(uint32_t rcv_wnd)
{
	uint8_t ws = 0;

	while (ws < NB_TCP_WSCALE_MAX && (rcv_wnd >> ws) > 65535u)
		ws++;
	return ws;
}

static uint64_t
min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t
max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* 32-bit sequence numbers from and to 64-bit offsets near a reference */
static uint32_t
snd_seq(const struct nb_tcp_conn *c, uint64_t off)
{
	return c->iss + (uint32_t)off;
}

static int64_t
snd_off(const struct nb_tcp_conn *c, uint32_t seq)
{
	return (int64_t)c->snd_una + (int32_t)(seq - snd_seq(c, c->snd_una));
}

static uint32_t
rcv_seq(const struct nb_tcp_conn *c, uint64_t off)
{
	return c->irs + (uint32_t)off;
}

static int64_t
rcv_off(const struct nb_tcp_conn *c, uint32_t seq)
{
	return (int64_t)c->rcv_nxt + (int32_t)(seq - rcv_seq(c, c->rcv_nxt));
}

/* payload bytes per segment: options count against the MSS (RFC 6691) */
static uint32_t
seg_payload(const struct nb_tcp_conn *c)
{
	return (uint32_t)c->mss - (c->stamp ? c->stamp_len : 0);
}

static void
init_common(struct nb_tcp_conn *c, const struct nb_tcp_params *p)
{
	nb_tcp_pattern_init();
	memset(c, 0, sizeof(*c));
	c->iss = p->iss;
	c->mss_local = p->mss;
	c->mss = p->mss;
	c->stamp = p->stamp;
	c->stamp_len = p->stamp_len;
	if (c->stamp && c->stamp_len + 64u > c->mss)
		c->stamp = 0; /* a tiny MSS: no room for the stamp */
	c->rcv_wnd = p->rcv_wnd ? p->rcv_wnd : 65535u;
	c->wscale_offer = 1;
	c->rcv_wscale = nb_tcp_wscale_for(c->rcv_wnd);
	c->sack_offer = p->sack;
	c->delayed_ack = p->delayed_ack;
	c->check = p->check;
	c->cc = p->cc;
	c->close_after_send = p->close_after_send;
	c->snd_end =
		p->send_bytes == UINT64_MAX ? UINT64_MAX : 1 + p->send_bytes;
	c->rto_ns = NB_TCP_RTO_INIT_NS;
	c->ssthresh = UINT64_MAX / 2;
	c->snd_app = UINT64_MAX;
}

void
nb_tcp_send_limit(struct nb_tcp_conn *c, uint64_t total)
{
	c->snd_app = total == UINT64_MAX ? UINT64_MAX : 1 + total;
}

void
nb_tcp_connect(struct nb_tcp_conn *c, const struct nb_tcp_params *p,
	       uint64_t now)
{
	(void)now;
	init_common(c, p);
	c->active = 1;
	c->state = NB_TCP_SYN_SENT;
	c->syn_pending = 1;
}

void
nb_tcp_listen(struct nb_tcp_conn *c, const struct nb_tcp_params *p)
{
	init_common(c, p);
	c->state = NB_TCP_LISTEN;
}

static void
fail(struct nb_tcp_conn *c, uint8_t err)
{
	c->state = NB_TCP_CLOSED;
	c->error = err;
	c->rto_due = 0;
	c->delack_due = 0;
	c->ack_pending = 0;
	c->syn_pending = 0;
	c->rexmit_pending = 0;
	c->probe_pending = 0;
}

static void
rst_set(struct nb_tcp_conn *c, uint32_t seq, uint32_t ack, uint8_t flags)
{
	c->rst_pending = 1;
	c->rst_seq = seq;
	c->rst_ack = ack;
	c->rst_flags = flags;
}

void
nb_tcp_abort(struct nb_tcp_conn *c)
{
	if (c->state == NB_TCP_CLOSED || c->state == NB_TCP_LISTEN) {
		fail(c, NB_TCP_ERR_ABORTED);
		return;
	}
	rst_set(c, snd_seq(c, c->snd_nxt), rcv_seq(c, c->rcv_nxt),
		NB_TCP_RST | NB_TCP_ACK);
	fail(c, NB_TCP_ERR_ABORTED);
}

int
nb_tcp_finished(const struct nb_tcp_conn *c)
{
	return (c->state == NB_TCP_CLOSED && !c->rst_pending) ||
	       c->state == NB_TCP_TIME_WAIT;
}

void
nb_tcp_close(struct nb_tcp_conn *c)
{
	c->close_after_send = 1;
	if (c->snd_end == UINT64_MAX)
		c->snd_end = max64(c->snd_max, 1);
	if (c->state == NB_TCP_SYN_SENT || c->state == NB_TCP_LISTEN)
		fail(c, NB_TCP_OK); /* never opened: nothing to close */
}

uint64_t
nb_tcp_next_event(const struct nb_tcp_conn *c)
{
	uint64_t t = c->rto_due;

	if (c->delack_due && (!t || c->delack_due < t))
		t = c->delack_due;
	return t;
}

/* RFC 6298 (2.3), with a 1 us clock granularity and Linux's floor */
static void
rto_from_rtt(struct nb_tcp_conn *c)
{
	c->rto_ns = c->srtt_ns + max64(1000, 4 * c->rttvar_ns);
	c->rto_ns = max64(c->rto_ns, NB_TCP_RTO_MIN_NS);
	c->rto_ns = min64(c->rto_ns, NB_TCP_RTO_MAX_NS);
}

static void
rtt_sample(struct nb_tcp_conn *c, uint64_t r)
{
	uint64_t dev;

	if (r == 0)
		r = 1;
	if (c->st.rtt_samples == 0) {
		c->srtt_ns = r;
		c->rttvar_ns = r / 2;
		c->st.min_rtt_ns = r;
		c->st.max_rtt_ns = r;
	} else {
		dev = c->srtt_ns > r ? c->srtt_ns - r : r - c->srtt_ns;
		c->rttvar_ns = (3 * c->rttvar_ns + dev) / 4;
		c->srtt_ns = (7 * c->srtt_ns + r) / 8;
		c->st.min_rtt_ns = min64(c->st.min_rtt_ns, r);
		c->st.max_rtt_ns = max64(c->st.max_rtt_ns, r);
	}
	c->st.rtt_samples++;
	rto_from_rtt(c);
}

static void
established(struct nb_tcp_conn *c, uint64_t now)
{
	uint64_t m;

	c->state = NB_TCP_ESTABLISHED;
	c->snd_una = 1;
	if (c->snd_nxt < 1)
		c->snd_nxt = 1;
	if (c->retries == 0 && c->rtt_timing)
		rtt_sample(c, now - c->rtt_sent_ns);
	c->rtt_timing = 0;
	c->retries = 0;
	c->rto_due = 0;
	/* RFC 6928: min(10 * MSS, max(2 * MSS, 14600)) */
	m = seg_payload(c);
	c->cwnd = min64(10 * m, max64(2 * m, 14600));
	c->st.max_cwnd = c->cwnd;
}

/* The options of a SYN or SYN-ACK received. */
static void
syn_options(struct nb_tcp_conn *c, const struct nb_tcp_seg *s)
{
	uint16_t peer_mss = s->has_mss ? s->mss : 536;

	if (peer_mss < 64)
		peer_mss = 64;
	c->mss = c->mss_local < peer_mss ? c->mss_local : peer_mss;
	if (c->stamp && c->stamp_len + 64u > c->mss)
		c->stamp = 0;
	if (c->wscale_offer && s->wscale != NB_TCP_WSCALE_NONE) {
		c->snd_wscale = s->wscale > NB_TCP_WSCALE_MAX
					? NB_TCP_WSCALE_MAX
					: s->wscale;
	} else {
		c->snd_wscale = 0;
		c->rcv_wscale = 0;
		c->wscale_offer = 0;
		if (c->rcv_wnd > 65535u)
			c->rcv_wnd = 65535u;
	}
	c->sack_ok = c->sack_offer && s->sack_ok;
	c->snd_wnd = s->wnd; /* a SYN's window is never scaled */
}

/* Out-of-order intervals: add [lo, hi), merging; 1, or -1 when a higher
 * interval was dropped for it, or 0 if there was no room. */
static int
ooo_add(struct nb_tcp_conn *c, uint64_t lo, uint64_t hi, uint64_t *dup)
{
	unsigned int i, j;
	uint64_t nlo = lo, nhi = hi;
	int merged = -1;

	*dup = 0;
	for (i = 0; i < c->nb_ooo; i++) {
		struct nb_tcp_ival *v = &c->ooo[i];

		if (nhi < v->lo || nlo > v->hi)
			continue;
		/* overlap or touch: bytes already held count as duplicates */
		if (lo < v->hi && hi > v->lo)
			*dup += min64(hi, v->hi) - max64(lo, v->lo);
		nlo = min64(nlo, v->lo);
		nhi = max64(nhi, v->hi);
		if (merged < 0) {
			merged = (int)i;
		} else {
			/* this one joins the first: remove it */
			for (j = i; j + 1 < c->nb_ooo; j++)
				c->ooo[j] = c->ooo[j + 1];
			c->nb_ooo--;
			if (c->last_ooo > i)
				c->last_ooo--;
			i--;
		}
		c->ooo[merged].lo = nlo;
		c->ooo[merged].hi = nhi;
	}
	if (merged >= 0) {
		c->last_ooo = (uint8_t)merged;
		return 1;
	}
	if (c->nb_ooo == NB_TCP_OOO) {
		/* full: the interval farthest from rcv_nxt goes, if it lies
		 * above this one (what is nearest is delivered first) */
		unsigned int top = 0;

		for (i = 1; i < c->nb_ooo; i++)
			if (c->ooo[i].lo > c->ooo[top].lo)
				top = i;
		if (c->ooo[top].lo < lo)
			return 0;
		c->ooo[top].lo = lo;
		c->ooo[top].hi = hi;
		c->last_ooo = (uint8_t)top;
		return -1;
	}
	c->ooo[c->nb_ooo].lo = lo;
	c->ooo[c->nb_ooo].hi = hi;
	c->last_ooo = c->nb_ooo++;
	return 1;
}

/* rcv_nxt moved: take the intervals it reached. */
static void
ooo_advance(struct nb_tcp_conn *c)
{
	unsigned int i, j;
	int again = 1;

	while (again) {
		again = 0;
		for (i = 0; i < c->nb_ooo; i++) {
			if (c->ooo[i].lo > c->rcv_nxt)
				continue;
			if (c->ooo[i].hi > c->rcv_nxt)
				c->rcv_nxt = c->ooo[i].hi;
			for (j = i; j + 1 < c->nb_ooo; j++)
				c->ooo[j] = c->ooo[j + 1];
			c->nb_ooo--;
			c->last_ooo = 0;
			again = 1;
			break;
		}
	}
}

static uint64_t
bad_count(const uint8_t *got, uint64_t k, uint32_t len)
{
	const uint8_t *want = nb_tcp_pattern_at(k);
	uint64_t bad = 0;
	uint32_t i, n;

	while (len) {
		n = len > 16384u ? 16384u : len;
		if (memcmp(got, want, n) != 0)
			for (i = 0; i < n; i++)
				bad += got[i] != want[i];
		got += n;
		k += n;
		len -= n;
		want = nb_tcp_pattern_at(k);
	}
	return bad;
}

int64_t
nb_tcp_rcv_stream_off(const struct nb_tcp_conn *c, uint32_t seq)
{
	if (c->state < NB_TCP_SYN_RCVD)
		return -1;
	return rcv_off(c, seq) - 1;
}

static int
check_auto(const struct nb_tcp_conn *c)
{
	return c->check == NB_TCP_CHECK_AUTO;
}

static int
can_receive(uint8_t st)
{
	return st == NB_TCP_ESTABLISHED || st == NB_TCP_FIN_WAIT_1 ||
	       st == NB_TCP_FIN_WAIT_2;
}

/* The FIN the peer sent, once every byte before it is in. */
static void
fin_take(struct nb_tcp_conn *c)
{
	if (c->fin_rcvd || !c->fin_off || c->rcv_nxt != c->fin_off)
		return;
	c->fin_rcvd = 1;
	c->rcv_nxt++;
	if (!c->active && c->snd_end == UINT64_MAX) /* it was endless */
		c->snd_end = max64(c->snd_max, 1);
	c->nb_ooo = 0; /* what a peer sent past its FIN is nothing */
	ack_now(c);
	c->delack_due = 0;
	switch (c->state) {
	case NB_TCP_ESTABLISHED:
		c->state = NB_TCP_CLOSE_WAIT;
		break;
	case NB_TCP_FIN_WAIT_1:
		c->state = NB_TCP_CLOSING;
		break;
	case NB_TCP_FIN_WAIT_2:
		c->state = NB_TCP_TIME_WAIT;
		c->rto_due = 0;
		break;
	default:
		break;
	}
}

static void
data_in(struct nb_tcp_conn *c, const struct nb_tcp_seg *s, int64_t off,
	uint64_t now)
{
	uint64_t lo = (uint64_t)off, hi = lo + s->len;
	uint64_t wnd_hi = c->rcv_nxt + c->rcv_wnd;
	const uint8_t *p = s->payload;
	uint64_t dup, before;
	int had_ooo = c->nb_ooo > 0;

	if (s->flags & NB_TCP_FIN) {
		if (!c->fin_off && hi <= wnd_hi)
			c->fin_off = hi;
	}
	if (s->len == 0) {
		fin_take(c);
		if (!c->fin_rcvd)
			ack_now(c); /* a FIN above a hole: dup ACK */
		return;
	}
	if (lo < c->rcv_nxt) { /* the part already delivered */
		uint64_t d = min64(hi, c->rcv_nxt) - lo;

		c->st.dup_bytes_in += d;
		p += d;
		lo += d;
	}
	if (hi > wnd_hi) /* beyond what we offered: dropped */
		hi = wnd_hi;
	if (c->fin_off && hi > c->fin_off)
		hi = c->fin_off; /* nothing after a FIN counts */
	if (lo >= hi) {
		ack_now(c);
		fin_take(c);
		return;
	}
	if (check_auto(c) && lo == 1 && hi - lo >= NB_TCP_CHECK_PROBE)
		c->check = memcmp(p, nb_tcp_pattern, NB_TCP_CHECK_PROBE) == 0
				   ? NB_TCP_CHECK_ON
				   : NB_TCP_CHECK_OFF;
	if (c->check == NB_TCP_CHECK_ON && !s->pattern_ok)
		c->st.bad_bytes += bad_count(p, lo - 1, (uint32_t)(hi - lo));
	if (lo == c->rcv_nxt) {
		before = c->rcv_nxt;
		c->rcv_nxt = hi;
		ooo_advance(c);
		c->st.bytes_rcvd += c->rcv_nxt - before;
		if (had_ooo) {
			ack_now(c); /* a hole filled: at once */
		} else {
			c->segs_unacked++;
			if (!c->delayed_ack || c->segs_unacked >= 2) {
				c->ack_pending = 1;
			} else if (!c->delack_due) {
				c->delack_due = now + NB_TCP_DELACK_NS;
			}
		}
	} else {
		int r = ooo_add(c, lo, hi, &dup);

		c->st.ooo_segs_in++;
		if (r <= 0)
			c->st.ooo_dropped++;
		if (r != 0)
			c->st.dup_bytes_in += dup;
		ack_now(c); /* a duplicate ACK, at once (RFC 5681) */
	}
	fin_take(c);
}

static void
fin_acked(struct nb_tcp_conn *c)
{
	switch (c->state) {
	case NB_TCP_FIN_WAIT_1:
		c->state = NB_TCP_FIN_WAIT_2;
		break;
	case NB_TCP_CLOSING:
		c->state = NB_TCP_TIME_WAIT;
		break;
	case NB_TCP_LAST_ACK:
		c->state = NB_TCP_CLOSED;
		break;
	default:
		break;
	}
	c->rto_due = 0;
}

/* The SACK scoreboard (RFC 6675): sorted, disjoint ranges above
 * snd_una. */
static void
sb_sum(struct nb_tcp_conn *c)
{
	unsigned int i;

	c->sacked_bytes = 0;
	c->sack_hi = 0;
	for (i = 0; i < c->nb_sacked; i++)
		c->sacked_bytes += c->sacked[i].hi - c->sacked[i].lo;
	if (c->nb_sacked)
		c->sack_hi = c->sacked[c->nb_sacked - 1].hi;
}

static void
sb_prune(struct nb_tcp_conn *c)
{
	unsigned int i, n = 0;

	for (i = 0; i < c->nb_sacked; i++) {
		if (c->sacked[i].hi <= c->snd_una)
			continue;
		c->sacked[n] = c->sacked[i];
		if (c->sacked[n].lo < c->snd_una)
			c->sacked[n].lo = c->snd_una;
		n++;
	}
	c->nb_sacked = (uint8_t)n;
	sb_sum(c);
}

static void
sb_add(struct nb_tcp_conn *c, uint64_t lo, uint64_t hi)
{
	unsigned int i, j;

	for (i = 0; i < c->nb_sacked && c->sacked[i].hi < lo; i++)
		;
	/* ranges from i on that touch [lo, hi) merge into it */
	j = i;
	while (j < c->nb_sacked && c->sacked[j].lo <= hi) {
		lo = min64(lo, c->sacked[j].lo);
		hi = max64(hi, c->sacked[j].hi);
		j++;
	}
	if (j > i) { /* replace sacked[i..j) by one */
		c->sacked[i].lo = lo;
		c->sacked[i].hi = hi;
		memmove(&c->sacked[i + 1], &c->sacked[j],
			(c->nb_sacked - j) * sizeof(c->sacked[0]));
		c->nb_sacked = (uint8_t)(c->nb_sacked - (j - i - 1));
		return;
	}
	if (c->nb_sacked == NB_TCP_SACKB) {
		if (i == NB_TCP_SACKB)
			return; /* above all kept: not kept */
		c->nb_sacked--; /* the highest goes */
	}
	memmove(&c->sacked[i + 1], &c->sacked[i],
		(c->nb_sacked - i) * sizeof(c->sacked[0]));
	c->sacked[i].lo = lo;
	c->sacked[i].hi = hi;
	c->nb_sacked++;
}

static void
sb_update(struct nb_tcp_conn *c, const struct nb_tcp_seg *s)
{
	unsigned int i;
	int64_t lo, hi;

	for (i = 0; i < s->nb_sack && i < NB_TCP_SACK_MAX; i++) {
		lo = snd_off(c, s->sack[i][0]);
		hi = snd_off(c, s->sack[i][1]);
		if (lo >= hi || hi > (int64_t)c->snd_max ||
		    hi <= (int64_t)c->snd_una)
			continue; /* stale or bogus: ignored */
		if (lo < (int64_t)c->snd_una)
			lo = (int64_t)c->snd_una;
		sb_add(c, (uint64_t)lo, (uint64_t)hi);
	}
	sb_sum(c);
}

/* The first hole at or above from, below the highest SACKed byte:
 * 1 and [*lo, *hi), or 0. */
static int
sb_hole(const struct nb_tcp_conn *c, uint64_t from, uint64_t *lo, uint64_t *hi)
{
	unsigned int i;

	for (i = 0; i < c->nb_sacked; i++) {
		if (c->sacked[i].hi <= from)
			continue;
		if (c->sacked[i].lo > from) {
			*lo = from;
			*hi = c->sacked[i].lo;
			return 1;
		}
		from = c->sacked[i].hi;
	}
	return 0;
}

/* RFC 6675 SetPipe: what is in the network.  Holes below HighRxt were
 * sent again (in flight once); holes above it are lost. */
static uint64_t
sb_pipe(const struct nb_tcp_conn *c)
{
	uint64_t pipe = nb_tcp_flight(c) - c->sacked_bytes;
	uint64_t from = max64(c->rexmit_hi, c->snd_una), lo, hi;

	while (sb_hole(c, from, &lo, &hi)) {
		pipe -= hi - lo;
		from = hi;
	}
	return pipe;
}

static int
sack_recovery(const struct nb_tcp_conn *c)
{
	return c->in_recovery && c->sack_ok;
}

/*
 * Whether cwnd is what limits the sender (RFC 7661's spirit, as Linux's
 * tcp_is_cwnd_limited): in slow start while the flight is at least half
 * of it, in avoidance while it is within a segment of it.  A sender held
 * back by the peer's window or by having nothing to send does not grow
 * cwnd without bound.
 */
static int
cwnd_limited(const struct nb_tcp_conn *c)
{
	uint64_t fl = nb_tcp_flight(c), m = seg_payload(c);

	if (c->cwnd < c->ssthresh)
		return 2 * fl >= c->cwnd;
	return fl + m >= c->cwnd;
}

/*
 * ssthresh after a loss: NewReno's half the flight (RFC 5681 (4)); CUBIC's
 * beta x cwnd (RFC 9438 4.6), noting the window it fell from (with fast
 * convergence, 4.7) and starting a new epoch.
 */
static uint64_t
reduced(struct nb_tcp_conn *c, uint64_t flight)
{
	uint64_t m = seg_payload(c);
	double w;

	if (c->cc != NB_TCP_CC_CUBIC)
		return max64(flight / 2, 2 * m);
	w = (double)c->cwnd / (double)m;
	c->w_max = w < c->w_last_max ? w * (1 + NB_TCP_CUBIC_BETA) / 2 : w;
	c->w_last_max = w;
	c->cubic_k = cbrt(c->w_max * (1 - NB_TCP_CUBIC_BETA) / NB_TCP_CUBIC_C);
	c->epoch_ns = 0;
	return max64((uint64_t)((double)c->cwnd * NB_TCP_CUBIC_BETA), 2 * m);
}

/*
 * CUBIC in congestion avoidance (RFC 9438 4.2-4.4), per ACK of `acked`
 * bytes: the target W_cubic(t + RTT) = C (t + RTT - K)^3 + W_max, at most
 * 1.5 cwnd, reached by (target - cwnd) / cwnd segments per segment acked;
 * never below the Reno-friendly estimate W_est.
 */
static void
cubic_avoid(struct nb_tcp_conn *c, uint64_t acked, uint64_t now)
{
	double m = (double)seg_payload(c), w = (double)c->cwnd / m;
	double segs = (double)acked / m, t, target, x;

	if (c->epoch_ns == 0) { /* the first ACK of this epoch */
		c->epoch_ns = now;
		c->w_est = w;
		if (c->w_max < w) { /* no loss yet, or grown past it */
			c->w_max = w;
			c->cubic_k = 0;
		}
	}
	t = (double)(now - c->epoch_ns + c->srtt_ns) / 1e9;
	x = t - c->cubic_k;
	target = NB_TCP_CUBIC_C * x * x * x + c->w_max;
	if (target < w)
		target = w;
	if (target > 1.5 * w)
		target = 1.5 * w;
	/* alpha = 3 (1 - beta) / (1 + beta): Reno's rate at CUBIC's beta */
	c->w_est += 3 * (1 - NB_TCP_CUBIC_BETA) / (1 + NB_TCP_CUBIC_BETA) *
		    segs / w;
	if (c->w_est > target)
		target = c->w_est;
	c->cubic_frac += m * (target - w) / w * segs;
	if (c->cubic_frac >= 1) {
		double whole = floor(c->cubic_frac);

		c->cwnd += (uint64_t)whole;
		c->cubic_frac -= whole;
	}
}

static void
new_ack(struct nb_tcp_conn *c, uint64_t ackoff, uint64_t now)
{
	uint64_t acked = ackoff - c->snd_una;
	uint64_t data_lo = max64(c->snd_una, 1);
	uint64_t data_hi = min64(ackoff, c->snd_end);
	uint64_t m = seg_payload(c);

	if (data_hi > data_lo)
		c->st.bytes_acked += data_hi - data_lo;
	if (c->rtt_timing && ackoff >= c->rtt_off) {
		rtt_sample(c, now - c->rtt_sent_ns);
		c->rtt_timing = 0;
	}
	if (c->retries && c->st.rtt_samples)
		rto_from_rtt(c); /* new data acked after timeouts: the
				  * backoff ends (as BSD's t_rxtshift = 0) */
	c->retries = 0;
	c->probe_pending = 0;
	if (sack_recovery(c)) {
		if (ackoff >= c->recover) { /* recovery ends: RFC 6675 5 */
			c->cwnd = c->ssthresh;
			c->in_recovery = 0;
			c->dupacks = 0;
			c->ca_acked = 0;
		}
	} else if (c->in_recovery) {
		if (ackoff >= c->recover) { /* full ACK: RFC 6582 3.2 step 3 */
			uint64_t flight = c->snd_max - ackoff;

			c->cwnd = min64(c->ssthresh, max64(flight, m) + m);
			c->in_recovery = 0;
			c->dupacks = 0;
			c->ca_acked = 0;
		} else { /* partial ACK: the next hole, deflate (step 4) */
			c->rexmit_pending = 1;
			c->cwnd = c->cwnd > acked ? c->cwnd - acked : m;
			if (acked >= m)
				c->cwnd += m;
			if (c->cwnd < m)
				c->cwnd = m;
		}
	} else if (!cwnd_limited(c)) {
		c->dupacks = 0; /* the window, not cwnd, held the sender back */
	} else {
		c->dupacks = 0;
		if (c->cwnd < c->ssthresh) {
			c->cwnd += min64(acked, m);
		} else if (c->cc == NB_TCP_CC_CUBIC) {
			cubic_avoid(c, acked, now);
		} else {
			c->ca_acked += acked;
			if (c->ca_acked >= c->cwnd) {
				c->ca_acked -= c->cwnd;
				c->cwnd += m;
			}
		}
	}
	c->st.max_cwnd = max64(c->st.max_cwnd, c->cwnd);
	c->snd_una = ackoff;
	if (c->snd_nxt < c->snd_una)
		c->snd_nxt = c->snd_una;
	if (c->nb_sacked)
		sb_prune(c);
	c->rto_due = c->snd_una == c->snd_max ? 0 : now + c->rto_ns;
	if (c->snd_end != UINT64_MAX && c->snd_una == c->snd_end + 1)
		fin_acked(c);
}

/*
 * Duplicate ACKs that start a fast retransmit: three, or with fewer than
 * four segments out and no new one to send, one less than there are out
 * (Early Retransmit, RFC 5827): a small window cannot bring three.
 */
static unsigned int
dupthresh(const struct nb_tcp_conn *c)
{
	uint64_t m = seg_payload(c);
	uint64_t data = min64(c->snd_max, c->snd_end) - c->snd_una;
	uint64_t segs = (data + m - 1) / m; /* the FIN is no segment here */
	int more = c->snd_nxt < min64(c->snd_end, c->snd_app) &&
		   c->snd_nxt - c->snd_una + m <= min64(c->cwnd, c->snd_wnd);

	if (segs >= 4 || more || segs < 2)
		return 3;
	return (unsigned int)segs - 1;
}

static void
dup_ack(struct nb_tcp_conn *c)
{
	uint64_t m = seg_payload(c);
	uint64_t flight = nb_tcp_flight(c);

	c->st.dupacks_in++;
	if (c->dupacks < 255)
		c->dupacks++;
	if (sack_recovery(c))
		return; /* the pipe, not cwnd, counts what left */
	if (c->in_recovery) {
		c->cwnd += m; /* inflate: a segment has left the network */
		c->st.max_cwnd = max64(c->st.max_cwnd, c->cwnd);
		return;
	}
	/* RFC 6582 3.2 step 2: only when the ACK covers more than recover */
	if (c->dupacks == dupthresh(c) && c->snd_una > c->recover) {
		c->ssthresh = reduced(c, flight);
		c->recover = c->snd_max;
		c->rexmit_pending = 1;
		/* NewReno inflates by the three segments that left; SACK
		 * counts the pipe instead (RFC 6675 5, step 4.2) */
		c->cwnd = c->sack_ok ? c->ssthresh : c->ssthresh + 3 * m;
		c->rexmit_hi = c->snd_una;
		c->in_recovery = 1;
		c->ca_acked = 0;
		/* the timed segment's ACK now waits for the hole: no sample */
		c->rtt_timing = 0;
		c->st.recoveries++;
		c->st.max_cwnd = max64(c->st.max_cwnd, c->cwnd);
	}
}

static void
ack_in(struct nb_tcp_conn *c, const struct nb_tcp_seg *s, int64_t seqoff,
       uint64_t now)
{
	int64_t a = snd_off(c, s->ack);
	uint64_t ackoff, wnd = (uint64_t)s->wnd << c->snd_wscale;
	int wnd_changed = 0;

	if (a > (int64_t)c->snd_max) { /* acks what we never sent */
		ack_now(c);
		return;
	}
	if (a < (int64_t)c->snd_una)
		return; /* an old ACK: nothing for the sender */
	ackoff = (uint64_t)a;
	/* window update (RFC 793 3.9, SND.WL1/WL2) */
	if ((uint64_t)seqoff > c->snd_wl_seq ||
	    ((uint64_t)seqoff == c->snd_wl_seq && ackoff >= c->snd_wl_ack)) {
		wnd_changed = wnd != c->snd_wnd;
		c->snd_wnd = wnd;
		c->snd_wl_seq = (uint64_t)seqoff;
		c->snd_wl_ack = ackoff;
	}
	if (c->sack_ok && s->nb_sack)
		sb_update(c, s);
	if (ackoff > c->snd_una) {
		new_ack(c, ackoff, now);
		return;
	}
	/* RFC 5681 section 2: the definition of a duplicate ACK */
	if (nb_tcp_flight(c) > 0 && s->len == 0 &&
	    !(s->flags & (NB_TCP_SYN | NB_TCP_FIN)) && !wnd_changed)
		dup_ack(c);
}

static void
input_listen(struct nb_tcp_conn *c, const struct nb_tcp_seg *s)
{
	if (s->flags & NB_TCP_RST)
		return;
	if (s->flags & NB_TCP_ACK) {
		rst_set(c, s->ack, 0, NB_TCP_RST);
		return;
	}
	if (!(s->flags & NB_TCP_SYN))
		return;
	c->irs = s->seq;
	c->rcv_nxt = 1;
	c->snd_wl_seq = 0;
	syn_options(c, s);
	c->state = NB_TCP_SYN_RCVD;
	c->syn_pending = 1;
}

static void
input_syn_sent(struct nb_tcp_conn *c, const struct nb_tcp_seg *s, uint64_t now)
{
	int ack_ok = 0;

	if (s->flags & NB_TCP_ACK) {
		if (s->ack != snd_seq(c, 1)) {
			if (!(s->flags & NB_TCP_RST))
				rst_set(c, s->ack, 0, NB_TCP_RST);
			return;
		}
		ack_ok = 1;
	}
	if (s->flags & NB_TCP_RST) {
		if (ack_ok) {
			c->st.rst_in++;
			fail(c, NB_TCP_ERR_REFUSED);
		}
		return;
	}
	if (!(s->flags & NB_TCP_SYN) || !ack_ok)
		return; /* simultaneous open is not implemented */
	c->irs = s->seq;
	c->rcv_nxt = 1;
	syn_options(c, s);
	c->snd_wl_seq = 0;
	c->snd_wl_ack = 1;
	established(c, now);
	ack_now(c);
}

/*
 * Header prediction (as BSD's and Linux's fast path): the next in-order
 * data segment of an established connection, acking nothing new, with no
 * flag but PSH, no SACK blocks, nothing held out of order, no FIN seen,
 * inside the window and with nothing to check byte by byte.  Does what the
 * long way does with such a segment (1), or nothing (0).
 */
static int
input_predicted(struct nb_tcp_conn *c, const struct nb_tcp_seg *s, uint64_t now)
{
	uint64_t off = c->rcv_nxt;

	if (c->state != NB_TCP_ESTABLISHED ||
	    (s->flags & ~NB_TCP_PSH) != NB_TCP_ACK || s->len == 0 ||
	    s->nb_sack || c->nb_ooo || c->fin_off ||
	    s->seq != rcv_seq(c, off) || s->ack != snd_seq(c, c->snd_una) ||
	    s->len > c->rcv_wnd ||
	    (c->check == NB_TCP_CHECK_ON && !s->pattern_ok) ||
	    (check_auto(c) && off == 1))
		return 0;
	c->st.segs_in++;
	/* ack_in's window update (RFC 793 3.9) */
	if (off > c->snd_wl_seq ||
	    (off == c->snd_wl_seq && c->snd_una >= c->snd_wl_ack)) {
		c->snd_wnd = (uint64_t)s->wnd << c->snd_wscale;
		c->snd_wl_seq = off;
		c->snd_wl_ack = c->snd_una;
	}
	/* data_in's in-order delivery and ACK policy */
	c->rcv_nxt = off + s->len;
	c->st.bytes_rcvd += s->len;
	c->segs_unacked++;
	if (!c->delayed_ack || c->segs_unacked >= 2)
		c->ack_pending = 1;
	else if (!c->delack_due)
		c->delack_due = now + NB_TCP_DELACK_NS;
	return 1;
}

static void
input_general(struct nb_tcp_conn *c, const struct nb_tcp_seg *s, uint64_t now)
{
	uint64_t seglen =
		s->len + !!(s->flags & NB_TCP_SYN) + !!(s->flags & NB_TCP_FIN);
	uint64_t wnd = c->rcv_wnd;
	int64_t off;
	int ok;

	c->st.segs_in++;
	switch (c->state) {
	case NB_TCP_CLOSED:
		return;
	case NB_TCP_LISTEN:
		input_listen(c, s);
		return;
	case NB_TCP_SYN_SENT:
		input_syn_sent(c, s, now);
		return;
	default:
		break;
	}
	off = rcv_off(c, s->seq);
	/* a SYN again while we wait for the ACK of ours: answer again */
	if (c->state == NB_TCP_SYN_RCVD && (s->flags & NB_TCP_SYN) &&
	    !(s->flags & NB_TCP_ACK) && s->seq == c->irs) {
		c->syn_pending = 1;
		return;
	}
	/* acceptability (RFC 793 3.9) */
	if (seglen == 0)
		ok = off == (int64_t)c->rcv_nxt ||
		     (off >= (int64_t)c->rcv_nxt &&
		      off < (int64_t)(c->rcv_nxt + wnd));
	else
		ok = (off >= (int64_t)c->rcv_nxt &&
		      off < (int64_t)(c->rcv_nxt + wnd)) ||
		     (off + (int64_t)seglen - 1 >= (int64_t)c->rcv_nxt &&
		      off + (int64_t)seglen - 1 < (int64_t)(c->rcv_nxt + wnd));
	if (!ok) {
		if (s->flags & NB_TCP_RST)
			return;
		if (off + (int64_t)seglen <= (int64_t)c->rcv_nxt)
			c->st.dup_bytes_in += s->len;
		else
			c->st.out_of_window++;
		ack_now(c);
		return;
	}
	if (s->flags & NB_TCP_RST) {
		if (off == (int64_t)c->rcv_nxt) {
			c->st.rst_in++;
			fail(c, NB_TCP_ERR_RESET);
		} else {
			ack_now(c); /* RFC 5961 challenge ACK */
		}
		return;
	}
	if (s->flags & NB_TCP_SYN) {
		ack_now(c); /* RFC 5961 challenge ACK */
		return;
	}
	if (!(s->flags & NB_TCP_ACK))
		return;
	if (c->state == NB_TCP_SYN_RCVD) {
		if (s->ack != snd_seq(c, 1)) {
			rst_set(c, s->ack, 0, NB_TCP_RST);
			return;
		}
		c->snd_wl_seq = (uint64_t)off;
		c->snd_wl_ack = 1;
		c->snd_wnd = (uint64_t)s->wnd << c->snd_wscale;
		established(c, now);
	}
	ack_in(c, s, off, now);
	if (c->state == NB_TCP_CLOSED)
		return;
	if ((s->len || (s->flags & NB_TCP_FIN)) && can_receive(c->state))
		data_in(c, s, off, now);
}

void
nb_tcp_input(struct nb_tcp_conn *c, const struct nb_tcp_seg *s, uint64_t now)
{
	if (!input_predicted(c, s, now))
		input_general(c, s, now);
}

void
nb_tcp_input_general(struct nb_tcp_conn *c, const struct nb_tcp_seg *s,
		     uint64_t now)
{
	input_general(c, s, now);
}

static void
on_rto(struct nb_tcp_conn *c, uint64_t now)
{
	uint64_t m = seg_payload(c);

	c->rto_due = 0;
	c->rtt_timing = 0;
	c->rto_ns = min64(c->rto_ns * 2, NB_TCP_RTO_MAX_NS);
	if (c->state == NB_TCP_SYN_SENT || c->state == NB_TCP_SYN_RCVD) {
		if (++c->retries > (c->state == NB_TCP_SYN_SENT
					    ? NB_TCP_SYN_RETRIES
					    : NB_TCP_SYNACK_RETRIES)) {
			fail(c, NB_TCP_ERR_TIMEOUT);
			return;
		}
		c->syn_pending = 1;
		c->st.rto_fired++;
		return;
	}
	if (c->snd_una == c->snd_max) {
		/* nothing outstanding: the persist timer of a zero window */
		if (c->snd_wnd == 0 && c->snd_nxt < c->snd_end)
			c->probe_pending = 1;
		return;
	}
	if (++c->retries > NB_TCP_DATA_RETRIES) {
		rst_set(c, snd_seq(c, c->snd_nxt), rcv_seq(c, c->rcv_nxt),
			NB_TCP_RST | NB_TCP_ACK);
		fail(c, NB_TCP_ERR_TIMEOUT);
		return;
	}
	c->st.rto_fired++;
	if (c->retries == 1) /* RFC 5681 (4), not again for a backoff */
		c->ssthresh = reduced(c, nb_tcp_flight(c));
	c->cwnd = m; /* the loss window */
	c->ca_acked = 0;
	c->recover = c->snd_max; /* RFC 6582 section 4 */
	c->in_recovery = 0;
	c->dupacks = 0;
	c->rexmit_pending = 0;
	c->snd_nxt = c->snd_una; /* go back N */
	c->nb_sacked = 0; /* RFC 2018 8: resend as if nothing was SACKed */
	sb_sum(c);
	c->rto_due = now + c->rto_ns;
}

static void
fill_ack(const struct nb_tcp_conn *c, struct nb_tcp_seg *s)
{
	uint64_t w = c->rcv_wnd >> c->rcv_wscale;

	s->ack = rcv_seq(c, c->rcv_nxt);
	s->flags |= NB_TCP_ACK;
	s->wnd = (uint32_t)(w > 65535 ? 65535 : w);
}

static void
sent_ack(struct nb_tcp_conn *c)
{
	c->ack_pending = 0;
	c->ack_urgent = 0;
	c->segs_unacked = 0;
	c->delack_due = 0;
	c->rcv_acked = c->rcv_nxt;
}

/* The SACK blocks of an ACK: the newest interval first (RFC 2018 4). */
static void
fill_sack(const struct nb_tcp_conn *c, struct nb_tcp_seg *s)
{
	unsigned int i, n = 0;

	if (!c->sack_ok || !c->nb_ooo)
		return;
	s->sack[n][0] = rcv_seq(c, c->ooo[c->last_ooo].lo);
	s->sack[n][1] = rcv_seq(c, c->ooo[c->last_ooo].hi);
	n++;
	for (i = 0; i < c->nb_ooo && n < NB_TCP_SACK_MAX; i++) {
		if (i == c->last_ooo)
			continue;
		s->sack[n][0] = rcv_seq(c, c->ooo[i].lo);
		s->sack[n][1] = rcv_seq(c, c->ooo[i].hi);
		n++;
	}
	s->nb_sack = (uint8_t)n;
}

static int
out_syn(struct nb_tcp_conn *c, uint64_t now, struct nb_tcp_seg *s)
{
	s->seq = c->iss;
	s->flags = NB_TCP_SYN;
	s->has_mss = 1;
	s->mss = c->mss_local;
	s->wscale = c->wscale_offer ? c->rcv_wscale : NB_TCP_WSCALE_NONE;
	s->sack_ok = c->active ? c->sack_offer : c->sack_ok;
	if (c->active) {
		s->wnd = c->rcv_wnd > 65535u ? 65535u : c->rcv_wnd;
	} else {
		fill_ack(c, s);
		s->wnd = c->rcv_wnd > 65535u ? 65535u : c->rcv_wnd;
		sent_ack(c);
	}
	if (c->retries)
		s->rexmit = 1;
	c->syn_pending = 0;
	if (c->snd_nxt < 1)
		c->snd_nxt = 1;
	if (c->snd_max < 1)
		c->snd_max = 1;
	if (!c->retries) {
		c->rtt_timing = 1;
		c->rtt_off = 1;
		c->rtt_sent_ns = now;
	}
	if (!c->rto_due)
		c->rto_due = now + c->rto_ns;
	return 1;
}

static void
out_data(struct nb_tcp_conn *c, uint64_t now, struct nb_tcp_seg *s,
	 uint64_t off, uint32_t len)
{
	s->seq = snd_seq(c, off);
	fill_ack(c, s);
	s->len = (uint16_t)len;
	s->data_off = off - 1;
	s->has_stamp = c->stamp;
	if (off + len >= min64(c->snd_end, c->snd_app))
		s->flags |= NB_TCP_PSH;
	if (off < c->snd_max) {
		s->rexmit = 1;
		c->st.retrans++;
		c->st.retrans_bytes += len;
		if (c->rtt_timing && c->rtt_off > off &&
		    c->rtt_off <= off + len)
			c->rtt_timing = 0; /* Karn: never time a resend */
	} else if (!c->rtt_timing) {
		c->rtt_timing = 1;
		c->rtt_off = off + len;
		c->rtt_sent_ns = now;
	}
	c->st.data_segs_out++;
	if (!c->rto_due)
		c->rto_due = now + c->rto_ns;
	sent_ack(c);
}

static int
out_fin(struct nb_tcp_conn *c, uint64_t now, struct nb_tcp_seg *s)
{
	s->seq = snd_seq(c, c->snd_end);
	s->flags = NB_TCP_FIN;
	fill_ack(c, s);
	if (c->snd_end < c->snd_max) {
		s->rexmit = 1;
		c->st.retrans++;
	}
	if (c->snd_nxt <= c->snd_end)
		c->snd_nxt = c->snd_end + 1;
	c->snd_max = max64(c->snd_max, c->snd_end + 1);
	if (c->state == NB_TCP_ESTABLISHED)
		c->state = NB_TCP_FIN_WAIT_1;
	else if (c->state == NB_TCP_CLOSE_WAIT)
		c->state = NB_TCP_LAST_ACK;
	if (!c->rto_due)
		c->rto_due = now + c->rto_ns;
	sent_ack(c);
	return 1;
}

/* RFC 6675 5 (NextSeg): the next hole not yet sent again, else new
 * data, while the pipe leaves room in cwnd; 1 if a segment is out. */
static int
out_sack_recovery(struct nb_tcp_conn *c, uint64_t now, struct nb_tcp_seg *s,
		  uint64_t m, uint64_t end)
{
	uint64_t pipe = sb_pipe(c), lo, hi;
	uint32_t len;

	if (c->cwnd >= pipe + m) {
		if (sb_hole(c, max64(c->rexmit_hi, c->snd_una), &lo, &hi)) {
			len = (uint32_t)min64(m, min64(hi, end) - lo);
			if (len) {
				out_data(c, now, s, lo, len);
				c->rexmit_hi = lo + len;
				c->st.fast_retrans++;
				c->st.segs_out++;
				return 1;
			}
		}
		if (c->snd_nxt < end) {
			len = (uint32_t)min64(m, end - c->snd_nxt);
			if (c->snd_nxt - c->snd_una + len <= c->snd_wnd) {
				out_data(c, now, s, c->snd_nxt, len);
				c->snd_nxt += len;
				c->snd_max = max64(c->snd_max, c->snd_nxt);
				c->st.segs_out++;
				return 1;
			}
		}
	}
	return 0;
}

static int
can_send(uint8_t st)
{
	return st == NB_TCP_ESTABLISHED || st == NB_TCP_CLOSE_WAIT ||
	       st == NB_TCP_FIN_WAIT_1 || st == NB_TCP_CLOSING ||
	       st == NB_TCP_LAST_ACK;
}

int
nb_tcp_output(struct nb_tcp_conn *c, uint64_t now, struct nb_tcp_seg *s)
{
	uint64_t m, lim, extra, end, dend;
	uint32_t len;

	memset(s, 0, sizeof(*s));
	s->wscale = NB_TCP_WSCALE_NONE;
	if (c->rst_pending) {
		c->rst_pending = 0;
		s->seq = c->rst_seq;
		s->ack = c->rst_ack;
		s->flags = c->rst_flags;
		c->st.rst_out++;
		c->st.segs_out++;
		return 1;
	}
	if (c->state == NB_TCP_CLOSED || c->state == NB_TCP_LISTEN)
		return 0;
	if (c->rto_due && now >= c->rto_due) {
		on_rto(c, now);
		if (c->state == NB_TCP_CLOSED)
			return nb_tcp_output(c, now, s);
	}
	if (c->delack_due && now >= c->delack_due) {
		c->delack_due = 0;
		ack_now(c);
	}
	if (c->syn_pending) {
		c->st.segs_out++;
		return out_syn(c, now, s);
	}
	if (c->state == NB_TCP_SYN_SENT || c->state == NB_TCP_SYN_RCVD)
		return 0;
	m = seg_payload(c);
	end = c->snd_end; /* data is [1, snd_end); the FIN at snd_end */
	dend = min64(end, c->snd_app); /* where new data stops for now */
	if (can_send(c->state)) {
		if (c->rexmit_pending) { /* fast retransmit, or a partial ACK */
			c->rexmit_pending = 0;
			if (c->snd_una < end && c->snd_una < c->snd_max) {
				len = (uint32_t)min64(m, end - c->snd_una);
				len = (uint32_t)min64(len,
						      c->snd_max - c->snd_una);
				out_data(c, now, s, c->snd_una, len);
				c->rexmit_hi =
					max64(c->rexmit_hi, c->snd_una + len);
				c->st.fast_retrans++;
				c->st.segs_out++;
				return 1;
			}
			if (c->snd_una == end && c->snd_max > end) {
				c->st.segs_out++;
				return out_fin(c, now, s);
			}
		}
		if (c->probe_pending && c->snd_nxt < dend) {
			c->probe_pending = 0;
			out_data(c, now, s, c->snd_nxt, 1);
			c->snd_nxt++;
			c->snd_max = max64(c->snd_max, c->snd_nxt);
			c->st.segs_out++;
			return 1;
		}
		if (sack_recovery(c)) {
			if (out_sack_recovery(c, now, s, m, dend))
				return 1;
		} else if (c->snd_nxt < dend) {
			/* RFC 3042: a new segment per dupack, up to two */
			extra = (!c->in_recovery && c->dupacks <= 2)
					? c->dupacks * m
					: 0;
			lim = min64(c->cwnd + extra, c->snd_wnd);
			len = (uint32_t)min64(m, dend - c->snd_nxt);
			if (c->snd_nxt - c->snd_una + len <= lim) {
				out_data(c, now, s, c->snd_nxt, len);
				c->snd_nxt += len;
				c->snd_max = max64(c->snd_max, c->snd_nxt);
				c->st.segs_out++;
				return 1;
			}
			if (c->snd_wnd == 0 && c->snd_una == c->snd_max &&
			    !c->rto_due)
				c->rto_due = now + c->rto_ns; /* persist */
		}
		if (end != UINT64_MAX && c->snd_nxt == end &&
		    (c->close_after_send || c->fin_rcvd)) {
			c->st.segs_out++;
			return out_fin(c, now, s);
		}
	}
	if (c->ack_pending) {
		fill_ack(c, s);
		s->seq = snd_seq(c, c->snd_nxt);
		fill_sack(c, s);
		sent_ack(c);
		c->st.segs_out++;
		return 1;
	}
	return 0;
}

int
nb_tcp_ack_can_wait(const struct nb_tcp_conn *c)
{
	return c->ack_pending && !c->ack_urgent &&
	       c->state == NB_TCP_ESTABLISHED && !c->rst_pending &&
	       !c->syn_pending && !c->rexmit_pending && !c->probe_pending &&
	       !c->close_after_send && c->snd_nxt == c->snd_max &&
	       c->snd_nxt >= min64(c->snd_end, c->snd_app) &&
	       c->rcv_nxt - c->rcv_acked < c->rcv_wnd / NB_TCP_ACK_STRETCH_DIV;
}

unsigned int
nb_tcp_output_run(struct nb_tcp_conn *c, uint64_t now, unsigned int max,
		  struct nb_tcp_seg *s)
{
	uint64_t m = seg_payload(c), dend, lim, fl, k;

	if (c->rst_pending || c->syn_pending || c->rexmit_pending ||
	    c->probe_pending || !can_send(c->state) || sack_recovery(c) ||
	    (c->rto_due && now >= c->rto_due) ||
	    (c->delack_due && now >= c->delack_due) ||
	    c->snd_nxt < c->snd_max || m == 0)
		return 0;
	dend = min64(c->snd_end, c->snd_app);
	/* full segments that end before dend: none of them gets PSH */
	if (dend <= c->snd_nxt + m)
		return 0;
	k = (dend - 1 - c->snd_nxt) / m;
	/* nb_tcp_output's window: cwnd (plus limited transmit), the peer's */
	lim = min64(c->cwnd + ((!c->in_recovery && c->dupacks <= 2)
				       ? c->dupacks * m
				       : 0),
		    c->snd_wnd);
	fl = c->snd_nxt - c->snd_una;
	if (lim < fl + m)
		return 0;
	k = min64(k, (lim - fl) / m);
	k = min64(k, max);
	if (k == 0)
		return 0;
	memset(s, 0, sizeof(*s));
	s->wscale = NB_TCP_WSCALE_NONE;
	out_data(c, now, s, c->snd_nxt, (uint32_t)m);
	/* the other k - 1: out_data's effects that differ, once */
	c->st.data_segs_out += k - 1;
	c->snd_nxt += k * m;
	c->snd_max = c->snd_nxt;
	c->st.segs_out += k;
	return (unsigned int)k;
}

int
nb_tcp_rst_for(const struct nb_tcp_seg *s, struct nb_tcp_seg *out)
{
	memset(out, 0, sizeof(*out));
	out->wscale = NB_TCP_WSCALE_NONE;
	if (s->flags & NB_TCP_RST)
		return 0;
	if (s->flags & NB_TCP_ACK) {
		out->seq = s->ack;
		out->flags = NB_TCP_RST;
	} else {
		out->seq = 0;
		out->ack = s->seq + s->len + !!(s->flags & NB_TCP_SYN) +
			   !!(s->flags & NB_TCP_FIN);
		out->flags = NB_TCP_RST | NB_TCP_ACK;
	}
	return 1;
}

void
nb_tcp_endsnap_of(const struct nb_tcp_conn *c, struct nb_tcp_endsnap *o)
{
	const struct nb_tcp_stats *a = &c->st;

	memset(o, 0, sizeof(*o));
	o->state = c->state;
	o->error = c->error;
	o->check = c->check;
	o->acked = a->bytes_acked;
	o->rcvd = a->bytes_rcvd;
	o->retrans = a->retrans;
	o->fast_retrans = a->fast_retrans;
	o->rto = a->rto_fired;
	o->recoveries = a->recoveries;
	o->cwnd = c->cwnd;
	o->max_cwnd = a->max_cwnd;
	o->srtt_ns = c->srtt_ns;
	o->rttvar_ns = c->rttvar_ns;
	o->min_rtt_ns = a->min_rtt_ns;
	o->max_rtt_ns = a->max_rtt_ns;
	o->rtt_samples = a->rtt_samples;
	o->bad_bytes = a->bad_bytes;
	o->dup_bytes = a->dup_bytes_in;
	o->ooo_segs = a->ooo_segs_in;
	o->segs_out = a->segs_out;
	o->segs_in = a->segs_in;
}

const char *
nb_tcp_state_name(uint8_t state)
{
	static const char *const names[] = {
		"CLOSED",      "LISTEN",     "SYN_SENT",   "SYN_RCVD",
		"ESTABLISHED", "FIN_WAIT_1", "FIN_WAIT_2", "CLOSING",
		"TIME_WAIT",   "CLOSE_WAIT", "LAST_ACK",
	};

	return state < sizeof(names) / sizeof(names[0]) ? names[state] : "?";
}

const char *
nb_tcp_error_name(uint8_t error)
{
	switch (error) {
	case NB_TCP_OK:
		return "ok";
	case NB_TCP_ERR_RESET:
		return "reset by peer";
	case NB_TCP_ERR_REFUSED:
		return "connection refused";
	case NB_TCP_ERR_TIMEOUT:
		return "timed out";
	case NB_TCP_ERR_ABORTED:
		return "aborted";
	default:
		return "?";
	}
}
