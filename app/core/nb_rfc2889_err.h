/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889 5.9's errored frames that a PMD can be made to send: an
 * undersize frame (60 B on the wire with the FCS, under Ethernet's 64)
 * and an oversize one (1519 B, over an untagged 1518).  Each carries a
 * marker, its kind and a sequence number, so the receiving port tells
 * them from anything else.  Frames with a bad FCS, alignment errors or
 * dribble bits cannot be made through ethdev (the NIC appends the FCS):
 * the test says so.  Pure.
 */
#ifndef NB_RFC2889_ERR_H
#define NB_RFC2889_ERR_H

#include <stddef.h>
#include <stdint.h>

enum nb_err_kind {
	NB_ERR_UNDERSIZE = 0,
	NB_ERR_OVERSIZE,
	NB_ERR_KINDS,
};

/* "undersize", "oversize" */
const char *nb_err_name(int kind);
/* The frame's length on the wire, FCS included: 60, 1519. */
uint32_t nb_err_wire_len(int kind);

/*
 * The frame of kind from src to dst with sequence number seq (without
 * the FCS, which the NIC appends): EtherType 0x88b5, "nbench-err", the
 * kind, seq (big-endian), zeros.  Its length, or -1 when cap is short.
 */
int nb_err_frame(uint8_t *buf, size_t cap, int kind, const uint8_t src[6],
		 const uint8_t dst[6], uint32_t seq);

/* The kind of one of those frames (whatever its length now: a switch
 * may pad a short one), or -1. */
int nb_err_match(const uint8_t *buf, size_t len);

#endif /* NB_RFC2889_ERR_H */
