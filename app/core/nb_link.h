/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reliable delivery of control messages over a lossy datagram path.  Pure:
 * no DPDK calls, no clock of its own (time is a ns count the caller passes
 * in), no I/O (the caller sends the bytes nb_link_poll() hands out).
 *
 * Stop-and-wait per direction: each side has at most one message awaiting
 * its ACK.  Every non-ACK message is acknowledged by an ACK whose header
 * seq is the acknowledged seq; ACKs themselves are never acknowledged or
 * retransmitted (a lost ACK makes the peer retransmit, and the duplicate is
 * re-acknowledged).
 *
 * Sender:
 *   nb_link_send()    assigns the next seq, encodes, schedules an immediate
 *                     transmission and sets the give-up deadline
 *                     (now + timeout).
 *   nb_link_poll()    TRANSMIT when a (re)transmission is due: the first at
 *                     once, then after rto, 2 rto, 4 rto, ... each capped at
 *                     rto_max (RFC 6298 section 5.5 back-off); TIMEOUT once
 *                     now >= deadline (takes precedence over a due
 *                     retransmission); IDLE otherwise.
 *   nb_link_on_ack()  an ACK for the pending seq clears it.
 * Each message starts from the base rto: rto_min, or the RFC 6298 estimate
 * srtt + 4 rttvar if larger (capped at rto_max).  RTT samples follow
 * Karn's rule: only for a message transmitted exactly once.
 *
 * Receiver:
 *   nb_link_accept()  for each decoded non-ACK message: 1 = new, process it
 *                     and ACK it; 0 = duplicate, ACK it again but do not
 *                     process; -EPROTO = skipped ahead, drop it silently.
 *
 * Sequence numbers run 1, 2, ... and after UINT32_MAX wrap to 1 (0 is
 * never used).  Comparisons are serial (RFC 1982 style, 32 bits).
 */
#ifndef NB_LINK_H
#define NB_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "nb_ctl.h"

enum nb_link_action {
	NB_LINK_IDLE = 0, /* nothing to do before nb_link_next_event() */
	NB_LINK_TRANSMIT, /* send *buf, *len bytes as one datagram */
	NB_LINK_TIMEOUT,  /* pending message dropped: peer unreachable */
};

struct nb_link {
	/* sender side */
	uint32_t next_seq;	     /* seq of the next nb_link_send() */
	uint8_t out[NB_CTL_MAX_LEN]; /* encoded pending message */
	size_t out_len;
	uint32_t out_seq;  /* its seq */
	int pending;	   /* 1 while awaiting its ACK */
	uint32_t out_tx;   /* times it has been transmitted */
	uint64_t first_tx; /* time of its first transmission */
	uint64_t deadline; /* give up at now >= deadline */
	uint64_t next_tx;  /* next (re)transmission at now >= next_tx */
	uint64_t rto;	   /* current retransmission timeout, ns */
	uint64_t rto_min, rto_max, timeout;

	/* receiver side */
	uint32_t last_rx_seq; /* highest in-order seq accepted; 0 none */

	/* RTT estimate (RFC 6298), ns; valid once rtt_samples > 0 */
	uint64_t rtt_ns; /* last sample */
	uint64_t srtt_ns;
	uint64_t rttvar_ns;
	uint32_t rtt_samples;

	/* counters */
	uint32_t sent;	      /* messages passed to nb_link_send() */
	uint32_t acked;	      /* of those, acknowledged */
	uint32_t retransmits; /* transmissions after the first */
	uint32_t timeouts;
	uint32_t duplicates; /* duplicates seen by nb_link_accept() */
};

/*
 * Set up an idle link.  Returns 0, or -EINVAL unless
 * 0 < rto_min <= rto_max and timeout > 0.
 */
int nb_link_init(struct nb_link *l, uint64_t rto_min_ns, uint64_t rto_max_ns,
		 uint64_t timeout_ns);

/* Back to the state after nb_link_init() (same timers), for a new session. */
void nb_link_reset(struct nb_link *l);

/*
 * Queue m for reliable delivery: sets m->seq to the link's next seq and
 * encodes it.  Returns 0, -EBUSY if a message is still pending, or the
 * nb_ctl_encode() error (-EINVAL, e.g. for an ACK or an invalid message);
 * on failure neither m->seq nor the link changes.
 */
int nb_link_send(struct nb_link *l, struct nb_ctl_msg *m, uint64_t now);

/* What to do at time now; see the top of this file. */
enum nb_link_action nb_link_poll(struct nb_link *l, uint64_t now,
				 const uint8_t **buf, size_t *len);

/* Earliest time nb_link_poll() may return non-IDLE; UINT64_MAX if idle. */
uint64_t nb_link_next_event(const struct nb_link *l);

/*
 * An ACK with header seq `seq` arrived at time now.  Returns 1 if it
 * acknowledged the pending message (now cleared; an RTT sample is taken if
 * it was transmitted exactly once), 0 if stale or duplicate (ignored).
 */
int nb_link_on_ack(struct nb_link *l, uint32_t seq, uint64_t now);

/*
 * Receiver check of a decoded non-ACK message.  Returns 1 if it is new
 * (seq == last_rx_seq + 1, or any seq while last_rx_seq == 0: the first
 * message of a session is adopted), 0 if a duplicate (seq at or before
 * last_rx_seq), -EPROTO if it skips ahead, -EINVAL for an ACK.
 */
int nb_link_accept(struct nb_link *l, const struct nb_ctl_msg *m);

#endif /* NB_LINK_H */
