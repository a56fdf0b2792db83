/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --capture, the workers' side: a receiver copies every Nth frame it takes
 * in (up to snaplen bytes) into the capture pool and offers the copies to
 * the writer through one MP/SC ring, once per burst.  A copy the pool or
 * the ring cannot take is counted (cap_dropped) and forgotten: the worker
 * never waits for the writer.  The frames themselves go on as before.
 * (The copying is nb_capture_tap_burst() in nb_sink.h.)
 */
#ifndef NB_CAPTURE_TAP_H
#define NB_CAPTURE_TAP_H

#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_ring.h>

/* What the writer needs of each copy, in the copy's private area. */
struct nb_capture_meta {
	uint64_t tsc;	   /* when the burst was taken in */
	uint32_t orig_len; /* the frame's length before snaplen */
};

struct nb_capture {
	/* set up before any worker runs, then only read by workers */
	struct rte_ring *ring;	  /* copies, to the writer (MP/SC) */
	struct rte_mempool *pool; /* copies; private area nb_capture_meta */
	uint32_t every, snaplen;
	volatile int full; /* count= reached: workers copy no more */
};

/* The part of a receive job that captures (zero: nothing is taken). */
struct nb_capjob {
	struct nb_capture *cap; /* NULL without --capture */
	uint32_t left;		/* frames until the next one taken */
	uint64_t taken;		/* copies handed to the writer */
	uint64_t dropped;	/* copies the pool or ring could not take */
};

#endif /* NB_CAPTURE_TAP_H */
