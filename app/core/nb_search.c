/* SPDX-License-Identifier: BSD-3-Clause */
/* The suites' searches: see nb_search.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nb_search.h"

double
nb_search_width(const struct nb_search_cfg *cfg, double upper)
{
	double rel = cfg->width_rel * upper;
	double w = cfg->width > rel ? cfg->width : rel;

	return cfg->integer && w < 1 ? 1 : w;
}

int
nb_search_init(struct nb_search *s, const struct nb_search_cfg *cfg)
{
	uint32_t g;

	if (cfg->min <= 0 || cfg->max < cfg->min || cfg->nb_goals == 0 ||
	    cfg->nb_goals > NB_SEARCH_MAX_GOALS || cfg->trial_s <= 0 ||
	    cfg->first_s <= 0 || cfg->first_s > cfg->trial_s ||
	    (cfg->width <= 0 && cfg->width_rel <= 0) || !isfinite(cfg->max) ||
	    !isfinite(cfg->trial_s))
		return -EINVAL;
	for (g = 0; g < cfg->nb_goals; g++)
		if (!(cfg->tolerance[g] >= 0 && cfg->tolerance[g] < 1) ||
		    (g > 0 && cfg->tolerance[g] <= cfg->tolerance[g - 1]))
			return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	if (s->cfg.max_trials == 0 || s->cfg.max_trials > NB_SEARCH_MAX_TRIALS)
		s->cfg.max_trials = NB_SEARCH_MAX_TRIALS;
	if (cfg->trial_s <= cfg->first_s * 1.5) {
		s->nb_phases = 1;
		s->phase_s[0] = cfg->trial_s;
		s->phase_width[0] = 1;
	} else if (cfg->trial_s < cfg->first_s * 4) {
		s->nb_phases = 2;
		s->phase_s[0] = cfg->first_s;
		s->phase_s[1] = cfg->trial_s;
		s->phase_width[0] = 2;
		s->phase_width[1] = 1;
	} else {
		s->nb_phases = 3;
		s->phase_s[0] = cfg->first_s;
		s->phase_s[1] = sqrt(cfg->first_s * cfg->trial_s);
		s->phase_s[2] = cfg->trial_s;
		s->phase_width[0] = 4;
		s->phase_width[1] = 2;
		s->phase_width[2] = 1;
	}
	for (g = 0; g < cfg->nb_goals; g++)
		s->goals[g].tolerance = cfg->tolerance[g];
	return 0;
}

static double
phase_width(const struct nb_search *s, const struct nb_search_goal *g)
{
	double at = g->upper > 0 ? g->upper : s->cfg.max;

	return s->phase_width[s->phase] * nb_search_width(&s->cfg, at);
}

static double
clamp(const struct nb_search *s, double v)
{
	if (s->cfg.integer)
		v = floor(v);
	if (v < s->cfg.min)
		v = s->cfg.min;
	if (v > s->cfg.max)
		v = s->cfg.max;
	return v;
}

/*
 * The value goal g wants measured next, or 0 when its bounds are final
 * for this phase (and g->done set).
 */
static double
goal_next(struct nb_search *s, uint32_t gi)
{
	struct nb_search_goal *g = &s->goals[gi];
	double w = phase_width(s, g), v;

	if (g->lower == 0 && g->upper == 0) {
		if (g->prev_lower > 0)
			return g->prev_lower;
		return g->prev_upper > 0 ? g->prev_upper : s->cfg.max;
	}
	if (g->upper == 0) { /* passes: look higher */
		if (g->lower >= s->cfg.max) {
			g->done = 1;
			return 0;
		}
		if (g->prev_upper > g->lower)
			return g->prev_upper;
		if (s->step[gi] < w)
			s->step[gi] = w;
		return clamp(s, g->lower + s->step[gi]);
	}
	if (g->lower == 0) { /* fails: look lower */
		if (g->upper <= s->cfg.min) {
			g->done = 1;
			return 0;
		}
		if (g->prev_lower > 0 && g->prev_lower < g->upper)
			return g->prev_lower;
		if (s->step[gi] < w)
			s->step[gi] = w;
		/* what got through the failure (MLRsearch's first guess:
		 * the receive rate) when that is clearly below it; else a
		 * step below it, doubling while the failures go on */
		s->by_guess[gi] = g->guess > 0 && g->guess < g->upper - w;
		v = s->by_guess[gi] ? g->guess : g->upper - s->step[gi];
		return clamp(s, v);
	}
	if (g->upper - g->lower <= w) {
		g->done = 1;
		return 0;
	}
	/* bisection, or a gallop up from a pass just below the receive
	 * rate while passes go on (the limit is usually close above) */
	v = (g->lower + g->upper) / 2;
	if (s->step[gi] > 0 && g->lower + s->step[gi] < v)
		v = g->lower + s->step[gi];
	v = clamp(s, v);
	if (v <= g->lower || v >= g->upper) { /* whole numbers: none between */
		g->done = 1;
		return 0;
	}
	return v;
}

static void
next_phase(struct nb_search *s)
{
	uint32_t g;

	s->phase++;
	for (g = 0; g < s->cfg.nb_goals; g++) {
		struct nb_search_goal *q = &s->goals[g];

		q->prev_lower = q->lower;
		q->prev_upper = q->upper;
		q->lower = q->upper = 0;
		q->done = 0;
		q->guess = 0;
		s->step[g] = 0;
	}
}

int
nb_search_next(struct nb_search *s, struct nb_trial_req *req)
{
	uint32_t g;
	double v = 0;

	if (s->finished)
		return 0;
	if (s->trials >= s->cfg.max_trials) {
		s->gave_up = 1;
		s->finished = 1;
		return 0;
	}
	memset(req, 0, sizeof(*req));
	if (s->retry_value > 0) {
		v = s->retry_value;
		req->retry = 1;
	}
	while (v == 0) {
		for (g = 0; g < s->cfg.nb_goals && v == 0; g++)
			if (!s->goals[g].done)
				v = goal_next(s, g);
		if (v != 0)
			break;
		if (s->phase + 1 >= s->nb_phases) {
			s->finished = 1;
			return 0;
		}
		next_phase(s);
	}
	s->pending = v;
	s->pending_s = s->phase_s[s->phase];
	req->value = v;
	req->seconds = s->pending_s;
	req->phase = s->phase;
	return 1;
}

void
nb_search_report(struct nb_search *s, double loss)
{
	double v = s->pending;
	int retry = s->retry_value > 0;
	uint32_t g;

	s->trials++;
	s->retry_value = 0;
	if (!retry) {
		/* a pass at or above a failure, or a failure at or below a
		 * pass: measure once more before believing either */
		for (g = 0; g < s->cfg.nb_goals; g++) {
			const struct nb_search_goal *q = &s->goals[g];
			int pass = loss <= q->tolerance;

			if ((pass && q->upper > 0 && v >= q->upper) ||
			    (!pass && q->lower > 0 && v <= q->lower)) {
				s->retry_value = v;
				return;
			}
		}
	}
	for (g = 0; g < s->cfg.nb_goals; g++) {
		struct nb_search_goal *q = &s->goals[g];
		double old_lower = q->lower, old_upper = q->upper;

		if (loss <= q->tolerance) {
			if (v > q->lower)
				q->lower = v;
			if (q->upper > 0 && q->upper <= v) /* the repeat */
				q->upper = 0;
		} else {
			if (q->upper == 0 || v < q->upper)
				q->upper = v;
			if (q->lower >= v)
				q->lower = 0;
			q->guess = v * (1 - loss);
		}
		/* a bound moved by an external search: the next step
		 * doubles.  Bracketed: the first pass starts a gallop up
		 * (one width, doubling while passes go on), a failure ends it
		 * (bisection from then on) */
		if ((old_upper == 0 && old_lower > 0 && q->upper == 0) ||
		    (old_lower == 0 && old_upper > 0 && q->lower == 0 &&
		     !s->by_guess[g]))
			s->step[g] *= 2;
		else if (q->lower > 0 && q->upper > 0) {
			if (loss > q->tolerance)
				s->step[g] = 0; /* bisect from now on */
			else if (old_lower == 0)
				s->step[g] = phase_width(s, q);
			else
				s->step[g] *= 2; /* 0 stays 0 */
		}
		q->done = 0;
	}
}

void
nb_search_result(const struct nb_search *s, uint32_t goal, double *lower,
		 double *upper)
{
	*lower = goal < s->cfg.nb_goals ? s->goals[goal].lower : 0;
	*upper = goal < s->cfg.nb_goals ? s->goals[goal].upper : 0;
}

void
nb_ladder_init(struct nb_ladder *l, double step)
{
	memset(l, 0, sizeof(*l));
	l->step = step > 0 && step < 1 ? step : 0.1;
}

int
nb_ladder_next(const struct nb_ladder *l, double *share)
{
	double v = 1.0 - l->k * l->step;

	if (l->finished || v <= 1e-9)
		return 0;
	*share = v;
	return 1;
}

void
nb_ladder_report(struct nb_ladder *l, uint64_t lost)
{
	l->k++;
	l->clean = lost == 0 ? l->clean + 1 : 0;
	if (l->clean >= 2)
		l->finished = 1;
}

static int
parse_uint(const char **p, unsigned long *v)
{
	char *end;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoul(*p, &end, 10);
	if (errno != 0 || *v > 1000000)
		return -ERANGE;
	*p = end;
	return 0;
}

int
nb_parse_size_range(const char *s, unsigned int lo, unsigned int hi,
		    struct nb_sweep *out)
{
	unsigned long min, max, step;
	const char *p = s;
	char op;
	struct nb_sweep w;
	unsigned long v;

	int ret;

	if (s == NULL)
		return -EINVAL;
	if ((ret = parse_uint(&p, &min)) != 0 || *p++ != ':' ||
	    (ret = parse_uint(&p, &max)) != 0 || *p++ != ':')
		return ret ? ret : -EINVAL;
	op = *p++;
	if (op != '*' && op != '+')
		return -EINVAL;
	if ((ret = parse_uint(&p, &step)) != 0 || *p != '\0')
		return ret ? ret : -EINVAL;
	if ((op == '*' && step < 2) || (op == '+' && step < 1))
		return -EINVAL;
	if (min < lo || max > hi || min > max)
		return -ERANGE;
	memset(&w, 0, sizeof(w));
	for (v = min; v <= max; v = op == '*' ? v * step : v + step) {
		if (w.n >= NB_MAX_SWEEP)
			return -ERANGE;
		w.sizes[w.n++] = (uint16_t)v;
	}
	if (w.sizes[w.n - 1] != max) {
		if (w.n >= NB_MAX_SWEEP)
			return -ERANGE;
		w.sizes[w.n++] = (uint16_t)max;
	}
	*out = w;
	return 0;
}

void
nb_sweep_rfc2544(struct nb_sweep *out)
{
	static const uint16_t rfc[] = {64, 128, 256, 512, 1024, 1280, 1518};

	memset(out, 0, sizeof(*out));
	out->n = sizeof(rfc) / sizeof(rfc[0]);
	memcpy(out->sizes, rfc, sizeof(rfc));
}
