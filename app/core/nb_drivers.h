/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the tool knows about each driver, as data: how a user gets more
 * queue pairs from it, which EAL options it needs, and what it offers
 * (TX checksums, RSS, timestamps, rate limits, flow control).  Looked up by
 * the driver name ethdev reports (dev_info); pure, unit-tested.
 */
#ifndef NB_DRIVERS_H
#define NB_DRIVERS_H

#include <stddef.h>

#include "nb_offload.h"

struct nb_driver_profile {
	const char *driver; /* as ethdev names it, e.g. "net_ixgbe" */
	const char *what;   /* the device, for messages */
	/* how to get N queue pairs ("%u" is N), or NULL: it has its maximum */
	const char *queues_hint;
	const char *eal_hint; /* EAL options it needs, or NULL */
	/* a far end that leaves unmaps the rings under whoever polls the
	 * port at that moment (memif in DPDK 22.11: memif_disconnect on the
	 * interrupt thread, no lock against the burst functions): a
	 * responder leaves such a port alone from a leaving client's DONE
	 * until the link goes down */
	int leave_unmaps;
	/* what DPDK 22.11's driver reports for a typical device of it
	 * (dev_info and the ops it has; drivers/net/<name>/ at v22.11), the
	 * capability logic's test fixtures and docs/usage.md's table; a
	 * run uses the port's own dev_info.  max queues 0: per device */
	struct nb_dev_caps caps;
	const char *caps_note; /* conditions on those, or NULL */
	/* the devargs token of an end that dials its far end and never dials
	 * again once refused (memif "role=client" in DPDK 22.11: a server
	 * probed but not yet started answers "ID not found" and the client
	 * stays down), or NULL: the port is restarted while its link is
	 * awaited (nb_port_wait_link) */
	const char *redial_arg;
	/* extended counters of the driver's own that a device of it reports
	 * in DPDK 22.11 (space-separated, queue 0's name for a per-queue
	 * one), which a port's PMD is checked against; NULL: none named */
	const char *xstats;
};

/* The table, for tests and docs: *n entries. */
const struct nb_driver_profile *nb_driver_profiles(size_t *n);

/* The profile of a driver; NULL for one the table does not know. */
const struct nb_driver_profile *nb_driver_profile(const char *driver);

/* 1 when a far end that leaves unmaps the rings (see leave_unmaps). */
int nb_driver_leave_unmaps(const char *driver);

/* 1 when a port of `driver` made with `devargs` (comma-separated
 * key=value, may be NULL) has to be restarted to dial again (see
 * redial_arg). */
int nb_driver_redials(const char *driver, const char *devargs);

/*
 * Why a port with max_rxq / max_txq queues cannot give `want` of each, and
 * what gives it more: one sentence in buf.  Returns its length (as snprintf).
 */
int nb_driver_queue_hint(const char *driver, unsigned int want,
			 unsigned int max_rxq, unsigned int max_txq, char *buf,
			 size_t len);

/* The name of NB_CAP_* bit `bit` ("tx_udp_cksum", ...), NULL past the
 * last. */
const char *nb_cap_name(unsigned int bit);

/* How a port's PMD differs from its driver's profile. */
struct nb_profile_diff {
	uint32_t missing; /* NB_CAP_* the profile has, the PMD did not offer */
	uint32_t extra;	  /* NB_CAP_* the PMD offered beyond the profile */
	int rxq, txq;	  /* the profile's fixed queue maximum differs */
};

/*
 * Check a profile against what a real PMD reported (nb_port_caps): 1 when
 * they agree.  NB_CAP_TX_CSUM_SLOW and NB_CAP_QUEUE_RATE are the
 * profile's alone (no dev_info field says them) and not compared; queue
 * maxima only where the profile fixes one (not 0).
 */
int nb_driver_profile_check(const struct nb_driver_profile *p,
			    const struct nb_dev_caps *real,
			    struct nb_profile_diff *d);

/* The next space-separated word of *w (a profile's xstats list): its
 * start, its length in *len, *w moved past it; NULL at the end. */
const char *nb_words_next(const char **w, size_t *len);

/*
 * The profile's xstats (p->xstats) that the PMD's names[0..n) lack,
 * space-separated in out (empty when none); returns how many.
 */
unsigned int nb_driver_xstats_missing(const struct nb_driver_profile *p,
				      const char *const *names, unsigned int n,
				      char *out, size_t len);

#endif /* NB_DRIVERS_H */
