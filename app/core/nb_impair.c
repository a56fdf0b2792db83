/* SPDX-License-Identifier: BSD-3-Clause */
/* The responder's impairment: see nb_impair.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_impair.h"

#define WHY(...) snprintf(why, whylen, __VA_ARGS__)

/* "0.01" or "1%": a probability */
static int
prob(const char *s, double *out)
{
	char *end;
	double v;

	if (s[0] < '0' || s[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0)
		return -EINVAL;
	if (*end == '%') {
		v /= 100;
		end++;
	}
	if (*end != '\0' || !(v >= 0 && v <= 1))
		return -EINVAL;
	*out = v;
	return 0;
}

static int
key_value(struct nb_impair_cfg *c, const char *k, const char *v, char *why,
	  size_t whylen)
{
	uint32_t u;

	if (strcmp(k, "drop") == 0 || strcmp(k, "dup") == 0 ||
	    strcmp(k, "reorder") == 0) {
		double *dst = k[0] == 'd' && k[1] == 'r' ? &c->drop
			      : k[1] == 'u'		 ? &c->dup
							 : &c->reorder;

		if (prob(v, dst) != 0) {
			WHY("%s=%s: expected a probability, 0..1 or 0..100%%",
			    k, v);
			return -EINVAL;
		}
		return 0;
	}
	if (strcmp(k, "every") == 0) {
		if (nb_parse_u32(v, 2, 1000000000, &c->every) != 0) {
			WHY("every=%s: expected N, 2..1e9 (every Nth frame "
			    "dropped)",
			    v);
			return -EINVAL;
		}
		return 0;
	}
	if (strcmp(k, "delay") == 0) {
		if (nb_parse_u32(v, 0, NB_IMPAIR_MAX_DELAY_US, &u) != 0) {
			WHY("delay=%s: expected microseconds, 0..%d", v,
			    NB_IMPAIR_MAX_DELAY_US);
			return -EINVAL;
		}
		c->delay_ns = (uint64_t)u * 1000;
		return 0;
	}
	if (strcmp(k, "rate") == 0) {
		if (nb_parse_rate(v, &c->rate) != 0 ||
		    c->rate.kind == NB_RATE_MAX ||
		    c->rate.kind == NB_RATE_PERCENT) {
			WHY("rate=%s: expected bits/s (100M, 1Gl2) or pps "
			    "(10kpps)",
			    v);
			return -EINVAL;
		}
		return 0;
	}
	WHY("unknown key '%s' (drop, every, rate, dup, reorder, delay)", k);
	return -EINVAL;
}

int
nb_impair_parse(const char *s, struct nb_impair_cfg *out, char *why,
		size_t whylen)
{
	struct nb_impair_cfg c;
	char buf[256], *tok, *save = NULL;

	if (strlen(s) >= sizeof(buf) || s[0] == '\0' || s[0] == ',' ||
	    s[strlen(s) - 1] == ',' || strstr(s, ",,") != NULL) {
		WHY("expected KEY=VALUE[,KEY=VALUE...], e.g. every=100 or "
		    "drop=1%%,delay=200");
		return -EINVAL;
	}
	memset(&c, 0, sizeof(c));
	c.rate.kind = NB_RATE_MAX;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (eq == NULL || eq == tok || eq[1] == '\0') {
			WHY("'%s': expected KEY=VALUE", tok);
			return -EINVAL;
		}
		*eq = '\0';
		if (key_value(&c, tok, eq + 1, why, whylen) != 0)
			return -EINVAL;
	}
	if (c.drop > 0 && c.every > 0) {
		WHY("drop= and every= exclude each other");
		return -EINVAL;
	}
	c.active = 1;
	*out = c;
	return 0;
}

/* 100000000 -> "100M", as nb_parse_rate reads it back */
static void
si(char *b, size_t n, double v)
{
	if (v >= 1e9)
		snprintf(b, n, "%gG", v / 1e9);
	else if (v >= 1e6)
		snprintf(b, n, "%gM", v / 1e6);
	else if (v >= 1e3)
		snprintf(b, n, "%gK", v / 1e3);
	else
		snprintf(b, n, "%g", v);
}

void
nb_impair_text(const struct nb_impair_cfg *c, char *buf, size_t len)
{
	size_t off = 0;
	char r[32];

	buf[0] = '\0';
#define ADD(...)                                                               \
	do {                                                                   \
		if (off < len)                                                 \
			off += (size_t)snprintf(buf + off, len - off, "%s",    \
						off ? "," : "");               \
		if (off < len)                                                 \
			off += (size_t)snprintf(buf + off, len - off,          \
						__VA_ARGS__);                  \
	} while (0)
	if (c->every)
		ADD("every=%u", c->every);
	if (c->drop > 0)
		ADD("drop=%g%%", c->drop * 100);
	si(r, sizeof(r), c->rate.value);
	if (c->rate.kind == NB_RATE_PPS)
		ADD("rate=%spps", r);
	else if (c->rate.kind == NB_RATE_BPS_L1)
		ADD("rate=%s", r);
	else if (c->rate.kind == NB_RATE_BPS_L2)
		ADD("rate=%sl2", r);
	if (c->dup > 0)
		ADD("dup=%g%%", c->dup * 100);
	if (c->reorder > 0)
		ADD("reorder=%g%%", c->reorder * 100);
	if (c->delay_ns)
		ADD("delay=%llu", (unsigned long long)(c->delay_ns / 1000));
#undef ADD
	if (off == 0)
		snprintf(buf, len, "none");
}

size_t
nb_impair_line_size(uint32_t cap)
{
	return (size_t)cap * sizeof(struct nb_impair_rec);
}

static uint32_t
threshold(double p)
{
	return p >= 1 ? UINT32_MAX : (uint32_t)(p * 4294967296.0);
}

void
nb_impair_init(struct nb_impair *im, const struct nb_impair_cfg *cfg,
	       struct nb_impair_rec *line, uint32_t cap, uint64_t seed,
	       uint64_t now_ns)
{
	memset(im, 0, sizeof(*im));
	im->cfg = *cfg;
	im->rng = seed | 1;
	im->drop_thr = threshold(cfg->drop);
	im->dup_thr = threshold(cfg->dup);
	im->reorder_thr = threshold(cfg->reorder);
	im->line = line;
	im->cap = cap;
	im->last_ns = now_ns;
	if (cfg->rate.kind != NB_RATE_MAX) {
		im->rate_pps = cfg->rate.kind == NB_RATE_PPS;
		im->rate_bps = cfg->rate.value;
		/* a bucket of 10 ms, at least two of the largest frames: it
		 * sees frames when the worker polls, and a worker kept off its
		 * CPU for a few ms finds them queued together */
		im->burst = im->rate_bps / 100;
		if (im->burst < (im->rate_pps ? 2 : 2 * 9020 * 8))
			im->burst = im->rate_pps ? 2 : 2 * 9020 * 8;
		im->credit = im->burst;
	}
}

/* xorshift64*: 32 good bits per call */
static uint32_t
rnd(struct nb_impair *im)
{
	uint64_t x = im->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	im->rng = x;
	return (uint32_t)((x * UINT64_C(0x2545F4914F6CDD1D)) >> 32);
}

/* The policer: may a frame of len bytes pass at now_ns? */
static int
police(struct nb_impair *im, uint32_t len, uint64_t now_ns)
{
	double cost;

	if (im->rate_bps <= 0)
		return 1;
	if (now_ns > im->last_ns) {
		im->credit +=
			im->rate_bps * (double)(now_ns - im->last_ns) / 1e9;
		if (im->credit > im->burst)
			im->credit = im->burst;
		im->last_ns = now_ns;
	}
	cost = im->rate_pps			     ? 1
	       : im->cfg.rate.kind == NB_RATE_BPS_L1 ? (len + 20) * 8.0
						     : len * 8.0;
	if (im->credit < cost)
		return 0;
	im->credit -= cost;
	return 1;
}

unsigned int
nb_impair_decide(struct nb_impair *im, uint32_t len, uint64_t now_ns,
		 int may_dup)
{
	im->c.seen++;
	im->n++;
	if (im->cfg.every && im->n % im->cfg.every == 0) {
		im->c.dropped++;
		return 0;
	}
	if (im->drop_thr && rnd(im) < im->drop_thr) {
		im->c.dropped++;
		return 0;
	}
	if (!police(im, len, now_ns)) {
		im->c.policed++;
		return 0;
	}
	if (may_dup && im->dup_thr && rnd(im) < im->dup_thr) {
		im->c.duplicated++;
		return 2;
	}
	return 1;
}

static int
append(struct nb_impair *im, const struct nb_impair_rec *r)
{
	if (im->tail - im->head >= im->cap) {
		im->c.overflow++;
		return -ENOSPC;
	}
	im->line[im->tail & (im->cap - 1)] = *r;
	im->tail++;
	return 0;
}

int
nb_impair_push(struct nb_impair *im, const struct nb_impair_rec *r,
	       uint64_t now_ns)
{
	struct nb_impair_rec x = *r;
	int ret;

	x.due_ns = now_ns + im->cfg.delay_ns;
	if (im->cfg.delay_ns)
		im->c.delayed++;
	if (!im->have_held && im->reorder_thr && rnd(im) < im->reorder_thr) {
		im->held = x;
		im->have_held = 1;
		return 0;
	}
	ret = append(im, &x);
	if (im->have_held) {
		/* the held one goes behind this one, due no earlier */
		if (im->held.due_ns < x.due_ns)
			im->held.due_ns = x.due_ns;
		im->have_held = 0;
		if (append(im, &im->held) == 0)
			im->c.reordered++;
	}
	return ret;
}

unsigned int
nb_impair_release(struct nb_impair *im, uint64_t now_ns,
		  struct nb_impair_rec *out, unsigned int max, int flush)
{
	unsigned int n = 0;

	/* a held frame nothing passed in time goes on, in its place */
	if (im->have_held &&
	    (flush || now_ns >= im->held.due_ns - im->cfg.delay_ns +
					NB_IMPAIR_HOLD_NS)) {
		im->have_held = 0;
		append(im, &im->held);
	}
	while (n < max && im->head != im->tail) {
		const struct nb_impair_rec *r =
			&im->line[im->head & (im->cap - 1)];

		if (!flush && r->due_ns > now_ns)
			break;
		out[n++] = *r;
		im->head++;
	}
	return n;
}

uint32_t
nb_impair_pending(const struct nb_impair *im)
{
	return im->tail - im->head + (uint32_t)im->have_held;
}
