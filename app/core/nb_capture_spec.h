/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --capture FILE[,every=N][,count=N][,snaplen=B]: what the receivers take
 * in, written to a pcap file off the hot path.  Parsing and its text only.
 */
#ifndef NB_CAPTURE_SPEC_H
#define NB_CAPTURE_SPEC_H

#include <stddef.h>
#include <stdint.h>

#define NB_CAP_SNAPLEN_MAX 65535u
#define NB_CAP_SNAPLEN_MIN 14u /* an Ethernet header */

struct nb_capture_spec {
	int active;
	char path[256];
	uint32_t every;	  /* every Nth frame a receiver takes in [1] */
	uint64_t count;	  /* stop writing after N frames; 0: no limit */
	uint32_t snaplen; /* bytes kept of each frame [65535: all] */
};

/* What a capture did (the report's and the JSON's "capture"). */
struct nb_capture_counts {
	uint64_t taken;	  /* copies the receivers handed to the writer */
	uint64_t written; /* frames written to the file */
	uint64_t dropped; /* copies the pool or the writer's ring refused */
	/* copies the file did not take (a write error, e.g. a full disk:
	 * from it on, and those since the last flush that succeeded) */
	uint64_t unwritten;
	int write_errno; /* the write error, 0 none */
};

/* 0, or -EINVAL with why set. */
int nb_capture_spec_parse(const char *s, struct nb_capture_spec *out, char *why,
			  size_t whylen);
/* "FILE (every frame, whole frames)" / "FILE (every 10th frame, first
 * 128 bytes, at most 1000 frames)" */
void nb_capture_spec_text(const struct nb_capture_spec *c, char *buf,
			  size_t len);

#endif /* NB_CAPTURE_SPEC_H */
