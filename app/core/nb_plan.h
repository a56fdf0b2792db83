/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Who does what: the lcore-role map and the split of (port, queue) jobs,
 * streams, rate and packet counts over worker lcores.  Pure.
 *
 * Roles: the first enabled lcore (EAL's main) is control, the next is stats,
 * every further one is a worker.  Jobs are the TX queues of the TX ports
 * followed by the RX queues of the RX ports; job i goes to worker
 * nb_workers - 1 - i % nb_workers (senders first, on the last workers, which
 * have CPUs of their own), so with one worker it does everything (a gen+sink
 * loop) and with as many workers as jobs each has one.  Streams go round-robin
 * over TX jobs; a TX job's rate is the total times its share of streams.
 */
#ifndef NB_PLAN_H
#define NB_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "nb_config.h"

#define NB_MAX_LCORES	   128
#define NB_MAX_JOBS	   (2 * NB_MAX_PORTS * NB_MAX_QUEUES)
#define NB_MAX_WORKER_JOBS 64

struct nb_job {
	uint8_t is_tx;
	uint16_t port;
	uint16_t peer_port; /* the port facing this one (loopback) */
	uint16_t queue;
	uint16_t worker; /* index into the plan's workers */
	/* TX jobs only: */
	uint32_t nb_streams;
	uint16_t first_stream; /* streams first, first + stride, ... */
	uint16_t stream_stride;
	uint64_t rate_num; /* packets/s = rate_num / rate_den; 0 = max */
	uint64_t rate_den;
	uint64_t packets; /* frames to send, 0 = unlimited */
};

struct nb_worker_plan {
	unsigned int lcore;
	unsigned int cpu; /* first CPU of the lcore's cpuset */
	uint16_t nb_jobs;
	uint16_t jobs[NB_MAX_WORKER_JOBS]; /* indices into nb_plan.jobs */
	uint16_t nb_tx, nb_rx;
};

struct nb_plan {
	unsigned int control_lcore;
	unsigned int stats_lcore;
	unsigned int nb_workers;
	struct nb_worker_plan workers[NB_MAX_LCORES];
	unsigned int nb_jobs;
	unsigned int nb_tx_jobs;
	struct nb_job jobs[NB_MAX_JOBS];
};

struct nb_lcore_desc {
	unsigned int id;
	unsigned int cpu; /* first CPU of its cpuset */
	uint64_t cpus[4]; /* cpuset bitmap, CPUs 0..255 */
};

/*
 * Assign roles.  lcores[0] must be the main lcore.  Fails (-EINVAL, err
 * filled) with fewer than 3 lcores, or when two worker lcores share a CPU.
 */
int nb_plan_roles(struct nb_plan *plan, const struct nb_lcore_desc *lcores,
		  unsigned int nb_lcores, char *err, size_t errlen);

/*
 * Build jobs for a loopback test from cfg (tx_ports[i] faces rx_ports[i]).
 * rate: the resolved total rate (pps_num/pps_den, unlimited if num == 0).
 * total_packets: 0 = unlimited.
 */
int nb_plan_jobs(struct nb_plan *plan, const struct nb_config *cfg,
		 uint64_t rate_num, uint64_t rate_den, uint64_t total_packets,
		 char *err, size_t errlen);

/* Frames needed to send at least `bytes` bytes following the size pattern. */
uint64_t nb_bytes_to_packets(uint64_t bytes, const struct nb_size_list *l);

/*
 * The peer-mode hand-off rings (workers -> control lcore) hold mbufs of the
 * port's RX pool.  What the data path needs of that pool: every RX
 * descriptor filled, each lcore's mempool cache at its flush threshold
 * (1.5 x cache) and one burst in each lcore's hands.  The rest is the
 * spare; all rings together may hold 1/NB_CTL_RING_SHARE of it (never more
 * than NB_CTL_RING_MAX each), so a flood of control frames can take no
 * more than that from the receivers.
 */
#define NB_CTL_RING_SHARE 4
#define NB_CTL_RING_MAX	  1024

struct nb_pool_budget {
	uint64_t pool;	     /* mbufs in the RX pool */
	uint32_t rxd;	     /* descriptors per RX queue */
	uint32_t nb_rxq;     /* RX queues (one ring each) */
	uint32_t lcores;     /* lcores that may cache mbufs of the pool */
	uint32_t cache;	     /* the pool's per-lcore cache size */
	uint32_t burst;	     /* mbufs one lcore holds in a burst */
};

/*
 * Capacity of each ring; 0 when the share has not even one slot per ring
 * (a pool too small for peer mode: the caller refuses).  spare_out (may be
 * NULL): the spare.
 */
unsigned int nb_plan_ctl_ring(const struct nb_pool_budget *b,
			      unsigned int *spare_out);

#endif /* NB_PLAN_H */
