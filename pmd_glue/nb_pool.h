/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Mempools and the rings that hand their mbufs over: every pool the tool
 * creates (RX, TX templates, control frames, capture copies, pinned zero-copy
 * buffers) and the leak check at exit. Pools of ours are named "nb_..."
 * (nb_pools_usage finds them by that). NULL returns leave rte_errno set.
 */
#ifndef NB_POOL_H
#define NB_POOL_H

#include <stddef.h>
#include <stdint.h>

#include <rte_memzone.h>
#include <rte_mempool.h>
#include <rte_ring.h>

/* Per-lcore cache of the data-path pools (RX and TX). */
#define NB_POOL_CACHE 256

/* The data room an mbuf needs for max_frame bytes (the default at least),
 * headroom included. */
uint16_t nb_pool_room(uint32_t max_frame);

/* An RX pool of n mbufs that take max_frame bytes each, on socket. */
struct rte_mempool *nb_rx_pool_create(const char *name, unsigned int n,
				      uint32_t max_frame, int socket);

/*
 * A TX mempool whose mbufs' data areas are zeroed once at creation, so a
 * generator needs to copy only the headers of its template per frame.
 */
struct rte_mempool *nb_tx_pool_create(const char *name, unsigned int n,
				      uint32_t max_frame, int socket);

/*
 * A plain mbuf pool for control frames and probes (default data room);
 * an existing pool of that name is reused (a responder runs test after
 * test, and a TX ring may still hold the last test's mbufs).
 */
struct rte_mempool *nb_pool_get(const char *name, unsigned int n, int socket);
/* A pool for copies of frames (--capture): priv bytes of private area per
 * mbuf and room bytes of data after the headroom; NULL, rte_errno set. */
struct rte_mempool *nb_copy_pool_create(const char *name, unsigned int n,
					uint16_t priv, uint16_t room,
					int socket);
/*
 * Zero-copy TX from fixed bytes: the len bytes at bytes copied once into
 * hugepage memory contiguous in IOVA (memzone zname, found again by later
 * calls), and a pool of n mbufs pinned to it (pname; reused too), room
 * bytes each, which a sender points anywhere in there (buf_addr and
 * buf_iova: a pinned buffer's free leaves them alone).  NULL (rte_errno
 * set) when either cannot be had; *mz the memory.
 */
struct rte_mempool *nb_pinned_pool_get(const char *pname, unsigned int n,
				       const char *zname, const void *bytes,
				       size_t len, uint16_t room, int socket,
				       const struct rte_memzone **mz);

/*
 * A ring of cap mbufs exactly (RING_F_EXACT_SZ), single producer and
 * single consumer: the hand-offs between a worker and the control lcore.
 * NULL, rte_errno set.
 */
struct rte_ring *nb_ring_create(const char *name, unsigned int cap, int socket);
/* Free a ring of nb_ring_create (its mbufs are the caller's). */
void nb_ring_free(struct rte_ring *r);

/*
 * Why a pool of n mbufs of room bytes (data room, headroom included)
 * could not be made on socket, for its error message: the MiB it needs,
 * what DPDK's heap there has free, and the hugepages (nb_huge_explain).
 */
void nb_pool_shortfall(unsigned int n, uint16_t room, int socket, char *buf,
		       size_t len);

/* A mempool of ours ("nb_" names) and how many of its mbufs are out. */
struct nb_pool_use {
	char name[RTE_MEMPOOL_NAMESIZE];
	unsigned int size, in_use;
};

/*
 * At exit, after the ports are closed: every mempool of ours that still
 * exists, with its mbufs in use (0 each when nothing leaked).  Fills up to
 * max entries, returns how many pools there are.
 */
unsigned int nb_pools_usage(struct nb_pool_use *u, unsigned int max);

#endif /* NB_POOL_H */
