/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet pacing by absolute deadlines.  Pure: time is whatever counter the
 * caller passes (the TSC in the workers, a simulated clock in tests).
 *
 * Deadline k (k = 0, 1, 2, ...) is exactly
 *     start + floor(k * hz * pps_den / pps_num)
 * computed incrementally (quotient + remainder), so there is no drift and no
 * 128-bit arithmetic in the hot path.  A worker calls nb_pacer_due() once per
 * burst; it returns how many packets are due now (at most max) and consumes
 * their deadlines.  If the caller falls behind, due packets accumulate and
 * are released max at a time until it catches up, so the long-run count is
 * exact.
 */
#ifndef NB_PACER_H
#define NB_PACER_H

#include <stdint.h>

struct nb_pacer {
	uint64_t next;	   /* deadline of the next packet */
	uint64_t step;	   /* floor(hz * den / num) */
	uint64_t rem_step; /* (hz * den) % num */
	uint64_t rem;	   /* accumulated remainder, < div */
	uint64_t div;	   /* num (of hz * den / num in lowest terms) */
	uint64_t issued;   /* packets released so far */
};

/*
 * pps_num == 0 means unlimited: every call returns max, whatever now is.
 * Returns -EINVAL if hz == 0 or pps_den == 0 or hz * pps_den overflows
 * (after reducing the fraction hz * pps_den / pps_num to lowest terms, so
 * common factors never cause a spurious overflow).
 */
int nb_pacer_init(struct nb_pacer *p, uint64_t hz, uint64_t pps_num,
		  uint64_t pps_den, uint64_t start);

static inline unsigned int
nb_pacer_due(struct nb_pacer *p, uint64_t now, unsigned int max)
{
	unsigned int n = 0;

	/* unlimited (--rate max, or after the end): all of them, without
	 * the loop's per-frame steps (15 instructions a frame at max) */
	if (p->step == 0 && p->rem_step == 0 && p->next <= now) {
		p->issued += max;
		return max;
	}
	while (n < max && p->next <= now) {
		n++;
		p->next += p->step;
		/*
		 * rem += rem_step, carrying into next when it reaches div;
		 * written so that rem + rem_step cannot overflow (div may be
		 * above 2^63).
		 */
		if (p->rem >= p->div - p->rem_step) {
			p->rem -= p->div - p->rem_step;
			p->next++;
		} else {
			p->rem += p->rem_step;
		}
	}
	p->issued += n;
	return n;
}

/* How far (ticks) the next frame's deadline lies before now; 0 on time. */
static inline uint64_t
nb_pacer_late(const struct nb_pacer *p, uint64_t now)
{
	return p->next < now ? now - p->next : 0;
}

/* Set up with pps_num == 0 (every call returns max). */
static inline int
nb_pacer_unlimited(const struct nb_pacer *p)
{
	return p->step == 0 && p->rem_step == 0;
}

/* From now on unlimited: every call returns max. */
static inline void
nb_pacer_unlimit(struct nb_pacer *p)
{
	p->next = 0;
	p->step = 0;
	p->rem_step = 0;
	p->rem = 0;
	p->div = 1;
}

/*
 * Split a total rate over nb_workers senders exactly: each gets
 * pps_num / (pps_den * nb_workers).  Returns -EINVAL on overflow.
 */
int nb_pacer_split(uint64_t pps_num, uint64_t pps_den, unsigned int nb_workers,
		   uint64_t *num_out, uint64_t *den_out);

/*
 * Split an integer total (packets or bytes) over n workers exactly: worker i
 * gets total / n, plus one for i < total % n.
 */
uint64_t nb_split_count(uint64_t total, unsigned int n, unsigned int i);

#endif /* NB_PACER_H */
