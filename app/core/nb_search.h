/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The searches of the RFC 2544 suites, as pure state machines: the caller
 * asks for the next trial, runs it, and reports what it measured.
 *
 * nb_search: the highest value (a rate in frames/s, or a burst length in
 * frames) whose trial loses at most a tolerated share of the frames, for
 * one or more tolerances at once (NDR 0 and a PDR, say).  The ideas of
 * MLRsearch (IETF BMWG): a first trial at the maximum; then, per phase,
 * bisection between the highest passing value and the lowest failing one,
 * with short trials and a coarse width in the early phases and the full
 * trial length and the asked precision in the last; a new phase measures
 * the previous phase's bounds again at its own trial length; a bound that
 * is missing is found by an external search whose step doubles; a trial
 * that contradicts a neighbour (a pass above a failure) is measured once
 * more, and the repeat stands.  Every bound of the last phase comes from
 * a trial of the full length, so a failing value is never reported as a
 * passing one.
 *
 * nb_ladder: RFC 2544's frame loss rate: 100 %, 90 %, 80 % ... of the
 * maximum until two steps in a row lose nothing.
 */
#ifndef NB_SEARCH_H
#define NB_SEARCH_H

#include <stdint.h>

#define NB_SEARCH_MAX_GOALS  4
#define NB_SEARCH_MAX_PHASES 3
#define NB_SEARCH_MAX_TRIALS 200

struct nb_search_cfg {
	double min, max;  /* the range searched (min > 0) */
	double width;	  /* absolute precision: upper - lower <= width */
	double width_rel; /* or relative: upper - lower <= width_rel * upper
			   * (the larger of the two is the goal) */
	int integer;	  /* values are whole numbers (burst lengths) */
	uint32_t nb_goals;
	double tolerance[NB_SEARCH_MAX_GOALS]; /* loss ratio 0..1, ascending */
	double trial_s; /* the final phase's trial length */
	double first_s; /* the first phase's (<= trial_s) */
	uint32_t
		max_trials; /* give up after this many [NB_SEARCH_MAX_TRIALS] */
};

/* One goal's bounds in the current phase (0: none yet). */
struct nb_search_goal {
	double tolerance;
	double lower, upper;	       /* highest pass, lowest fail */
	double prev_lower, prev_upper; /* the last phase's, to measure again */
	double guess; /* what got through the last failure: v (1 - loss) */
	int done;
};

struct nb_search {
	struct nb_search_cfg cfg;
	uint32_t nb_phases, phase;
	double phase_s[NB_SEARCH_MAX_PHASES];
	double phase_width[NB_SEARCH_MAX_PHASES]; /* multiple of the goal */
	struct nb_search_goal goals[NB_SEARCH_MAX_GOALS];
	uint32_t trials;
	double step[NB_SEARCH_MAX_GOALS];  /* external search step */
	int by_guess[NB_SEARCH_MAX_GOALS]; /* the last step down went to the
					    * guess: the step stays */
	double retry_value; /* a contradicted value to measure again; 0 none */
	double pending;	    /* the value of the trial handed out */
	double pending_s;
	int finished, gave_up;
};

/* The next trial asked for. */
struct nb_trial_req {
	double value;	/* rate or burst length */
	double seconds; /* trial length (rates) */
	uint32_t phase;
	int retry; /* a repeat of a contradicted trial */
};

/* -EINVAL on a bad configuration. */
int nb_search_init(struct nb_search *s, const struct nb_search_cfg *cfg);

/* 1 and *req set: run this trial; 0: the search is over. */
int nb_search_next(struct nb_search *s, struct nb_trial_req *req);

/*
 * The trial handed out by nb_search_next() lost `loss` of the frames sent
 * (0..1).  The first failure also guides the first step down: towards
 * value x (1 - loss), what got through.
 */
void nb_search_report(struct nb_search *s, double loss);

/* A goal's result: lower (0: fails even at min) and upper (0: max passed). */
void nb_search_result(const struct nb_search *s, uint32_t goal, double *lower,
		      double *upper);

/* The effective width goal at an upper bound. */
double nb_search_width(const struct nb_search_cfg *cfg, double upper);

/* --- frame loss rate ladder --- */
struct nb_ladder {
	double step;	/* share of the maximum per step, e.g. 0.1 */
	uint32_t k;	/* steps run */
	uint32_t clean; /* lossless steps in a row */
	int finished;
};

void nb_ladder_init(struct nb_ladder *l, double step);
/* 1 and *share (of the maximum) set, or 0: the ladder is done. */
int nb_ladder_next(const struct nb_ladder *l, double *share);
void nb_ladder_report(struct nb_ladder *l, uint64_t lost);

/* --- size sweeps --- */
#define NB_MAX_SWEEP 64

struct nb_sweep {
	uint32_t n;
	uint16_t sizes[NB_MAX_SWEEP];
};

/*
 * "MIN:MAX:*F" (MIN, MIN*F, ... up to MAX, and MAX itself when the steps
 * miss it) or "MIN:MAX:+S" (every S bytes), qperf's msg_size syntax, each
 * size clamped to [lo, hi].  -EINVAL on bad syntax, -ERANGE on sizes out
 * of range or more than NB_MAX_SWEEP of them.
 */
int nb_parse_size_range(const char *s, unsigned int lo, unsigned int hi,
			struct nb_sweep *out);

/* RFC 2544's seven Ethernet frame sizes. */
void nb_sweep_rfc2544(struct nb_sweep *out);

#endif /* NB_SEARCH_H */
