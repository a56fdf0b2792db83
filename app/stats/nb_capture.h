/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --capture, the writer's side: the pcap file (opened before EAL, so a bad
 * path is a usage error), the copies' pool and ring, and a control thread
 * that sleeps 1 ms whenever the ring is empty and writes what the
 * receivers copied, stamped with the wall-clock time of the burst (from the
 * TSC, nanosecond pcap).
 */
#ifndef NB_CAPTURE_H
#define NB_CAPTURE_H

#include <stddef.h>

#include "nb_capture_spec.h"
#include "nb_jobs.h"

/* Create FILE (before EAL); -errno with err set. */
int nb_capture_open(const struct nb_capture_spec *spec, char *err,
		    size_t errlen);
/*
 * After EAL: the pool, the ring and the writer thread.  Returns what
 * receive jobs copy to (nb_jobs.cap), or NULL with err set; NULL and no
 * error when nb_capture_open() was not called.
 */
struct nb_capture *nb_capture_start(char *err, size_t errlen);
/*
 * After a run's workers stopped: wait (at most 0.2 s: a responder waits in its
 * session) until the writer has written what they handed over, then the counts
 * so far.
 */
void nb_capture_sync(const struct nb_jobs *js, struct nb_capture_counts *c);
/* The file's write error (errno; 0 none), and how many frames it cost. */
int nb_capture_write_error(uint64_t *unwritten);
/* Stop the writer, write what is left, close the file; the counts. */
void nb_capture_close(const struct nb_jobs *js, struct nb_capture_counts *c);

#endif /* NB_CAPTURE_H */
