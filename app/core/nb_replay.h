/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --replay FILE[,loop=N]: a pcap file's frames sent as the test's one
 * stream, in the file's order, paced by --rate or by the file's own times
 * (--replay-timing file), stamped only with --replay-stamp.  The frames in
 * memory (struct nb_replay) are filled by the app from libpcap; what is
 * decided about them is here, pure.
 */
#ifndef NB_REPLAY_H
#define NB_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "nb_units.h"

enum nb_replay_timing {
	NB_REPLAY_RATE = 0, /* --rate (max when none) */
	NB_REPLAY_FILE,	    /* the gaps between the file's timestamps */
};

struct nb_replayspec {
	int active;
	char path[256];
	uint64_t loops; /* times through the file; 0: until --time */
	enum nb_replay_timing timing;
	int stamp; /* --replay-stamp: our stamp in every frame */
};

/* A file's frames, back to back in data; per frame its offset, length
 * (without FCS), time after the first frame and, stamped, the UDP
 * header's offset. */
struct nb_replay {
	uint32_t n;
	uint32_t min_len, max_len;
	uint64_t wire_bytes; /* sum of len + FCS */
	uint64_t span_ns;    /* last frame's time after the first */
	uint64_t *ts_ns;
	uint32_t *off;
	uint16_t *len;
	uint16_t *l4_off;
	uint8_t *data;
	int stamped;
};

/* 0, or -EINVAL with why set.  "FILE" or "FILE,loop=N". */
int nb_replayspec_parse(const char *s, struct nb_replayspec *out, char *why,
			size_t whylen);
/* "rate" or "file": 0, or -EINVAL. */
int nb_replay_timing_parse(const char *s, enum nb_replay_timing *out);

/*
 * Make a frame carry our stamp (--replay-stamp): an IPv4 UDP frame, not a
 * fragment, not to the control port, with at least NB_STAMP_LEN payload
 * bytes.  Its IPv4 ID becomes
 * stream 0 (the header checksum recomputed), the UDP checksum 0 (none, so
 * the per-frame sequence and time need no fix-up) and the payload starts
 * with the data magic; *l4_off is the UDP header's offset.  0, or -1 with
 * why set (the frame is left as it was).
 */
int nb_replay_stampable(uint8_t *frame, uint32_t len, uint16_t *l4_off,
			char *why, size_t whylen);

/*
 * The time from one pass's first frame to the next pass's first frame
 * with the file's timing: the file's span plus its mean gap (1 us for a
 * file of one frame or of one instant).
 */
uint64_t nb_replay_period_ns(const struct nb_replay *rp);

/*
 * --rate for the file's frames, as the exact rational of nb_rate: bits/s
 * (L1 or L2) over the frames' mean size, pps and max as given, a percent
 * of link_bps at L1.  0, or -errno as nb_rate_resolve.
 */
/*
 * A client's replay goes to its responder (peer mode): every frame's
 * destination MAC becomes dst and its source MAC src, in place, once per
 * test.  The rest of each frame is the file's.
 */
void nb_replay_set_macs(struct nb_replay *rp, const uint8_t dst[6],
			const uint8_t src[6]);

/* The mean frame size with the FCS, rounded up: what PARAMS carries of a
 * replay's mix for the responder's --max-rate. */
uint16_t nb_replay_mean_size(const struct nb_replay *rp);

int nb_replay_rate(const struct nb_rate_spec *spec, const struct nb_replay *rp,
		   uint64_t link_bps, struct nb_rate *out);

/* "FILE: 1000 frames, 64-1518 B (mean 780.2), 0.998 s, as recorded, 1
 * pass, at --rate" for the header. */
void nb_replay_text(const struct nb_replayspec *s, const struct nb_replay *rp,
		    char *buf, size_t len);

#endif /* NB_REPLAY_H */
