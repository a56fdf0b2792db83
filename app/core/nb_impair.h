/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The responder's impairment (--impair): a known-bad peer, for testing the
 * tool and for users who want one.  Applied by the responder's workers to
 * the data frames they receive, before counting them, and to the latency
 * probes they reflect, before sending them back:
 *
 *   drop=P     drop each frame with probability P (0..1, or N%)
 *   every=N    drop every Nth frame (N >= 2)
 *   rate=R     police to R (bits/s L1 or L2, or pps; a 10 ms bucket):
 *              frames over it drop
 *   dup=P      count a data frame twice with probability P
 *   reorder=P  hold a data frame back behind the next one with probability P
 *   delay=USEC hold every frame USEC microseconds (at most 1 s)
 *
 * Pure: the decisions (a seeded PRNG, counters, a policer on a ns clock)
 * and the delay line of data frames, which holds what counting needs
 * (stream, sequence, stamp, length), not the frames: the receive pool is
 * never held up.  Every frame taken out is counted, so the client's loss
 * can be checked against the responder's counts exactly.
 */
#ifndef NB_IMPAIR_H
#define NB_IMPAIR_H

#include <stddef.h>
#include <stdint.h>

#include "nb_units.h"

#define NB_IMPAIR_MAX_DELAY_US 1000000
/* Data frames the delay line holds per receive queue; more are dropped
 * (and counted as overflow). */
#define NB_IMPAIR_LINE 65536
/* A held-back frame waits at most this long for one to pass it. */
#define NB_IMPAIR_HOLD_NS 10000000ull

struct nb_impair_cfg {
	int active;
	uint32_t every;		   /* 0: none */
	double drop, dup, reorder; /* probabilities */
	uint64_t delay_ns;
	struct nb_rate_spec rate; /* NB_RATE_MAX: no policer */
};

/* "every=100", "drop=1%,delay=200": -EINVAL with why set. */
int nb_impair_parse(const char *s, struct nb_impair_cfg *out, char *why,
		    size_t whylen);
/* The spec back as text (canonical), for logs and reports. */
void nb_impair_text(const struct nb_impair_cfg *c, char *buf, size_t len);

struct nb_impair_counts {
	uint64_t seen;	   /* data frames and probes offered */
	uint64_t dropped;  /* by drop= or every= */
	uint64_t policed;  /* over rate= */
	uint64_t overflow; /* the delay line was full */
	uint64_t duplicated;
	uint64_t reordered; /* passed by a later frame */
	uint64_t delayed;   /* held delay= */
};

/* What a responder's impairment was and did, as reported to its client. */
#define NB_IMPAIR_SPEC_LEN 64
struct nb_impair_report {
	int active;
	char spec[NB_IMPAIR_SPEC_LEN]; /* nb_impair_text() */
	struct nb_impair_counts c;
};

/* A data frame as counting needs it. */
struct nb_impair_rec {
	uint64_t due_ns;
	uint64_t seq, ts;
	uint32_t stream, len;
};

struct nb_impair {
	struct nb_impair_cfg cfg;
	uint64_t rng;
	uint32_t drop_thr, dup_thr, reorder_thr; /* P x 2^32 */
	uint64_t n;				 /* frames offered (every=) */
	/* policer: bits of credit, refilled at rate_bps from last_ns */
	double rate_bps, credit, burst;
	int rate_pps; /* the policer counts frames, not bits */
	uint64_t last_ns;
	/* the delay line: a ring of cap records, head..tail */
	struct nb_impair_rec *line;
	uint32_t cap, head, tail;
	struct nb_impair_rec held; /* reorder: waits for the next one */
	int have_held;
	struct nb_impair_counts c; /* single writer: the worker */
};

/*
 * Bytes of state for a line of `cap` records (a power of two), to be
 * given to nb_impair_init() zeroed.
 */
size_t nb_impair_line_size(uint32_t cap);
/* seed: any value; the same seed gives the same decisions. */
void nb_impair_init(struct nb_impair *im, const struct nb_impair_cfg *cfg,
		    struct nb_impair_rec *line, uint32_t cap, uint64_t seed,
		    uint64_t now_ns);

/*
 * A frame of len bytes (incl. FCS) arrives at now_ns: how many copies go
 * on (0 dropped, 1, or 2 duplicated).  Probes pass dup=false.
 */
unsigned int nb_impair_decide(struct nb_impair *im, uint32_t len,
			      uint64_t now_ns, int may_dup);

/*
 * Put a data frame into the delay line (due at now_ns + delay), or hold it
 * back behind the next one when reorder picks it.  Returns 0, or -ENOSPC
 * when the line is full (the frame is counted as overflow).
 */
int nb_impair_push(struct nb_impair *im, const struct nb_impair_rec *r,
		   uint64_t now_ns);

/*
 * Up to max records due at now_ns into out, in order (all of them when
 * flush: the test is over).  Returns how many.
 */
unsigned int nb_impair_release(struct nb_impair *im, uint64_t now_ns,
			       struct nb_impair_rec *out, unsigned int max,
			       int flush);

/* Records waiting (delay line and held frame). */
uint32_t nb_impair_pending(const struct nb_impair *im);

#endif /* NB_IMPAIR_H */
