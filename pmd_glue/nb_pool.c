/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>

#include "nb_eal_args.h"
#include "nb_hugeinfo.h"
#include "nb_pool.h"

uint16_t
nb_pool_room(uint32_t max_frame)
{
	uint32_t data = max_frame < RTE_MBUF_DEFAULT_DATAROOM
				? RTE_MBUF_DEFAULT_DATAROOM
				: max_frame;

	return (uint16_t)(data + RTE_PKTMBUF_HEADROOM);
}

struct rte_mempool *
nb_rx_pool_create(const char *name, unsigned int n, uint32_t max_frame,
		  int socket)
{
	return rte_pktmbuf_pool_create(name, n, NB_POOL_CACHE, 0,
				       nb_pool_room(max_frame), socket);
}

struct rte_mempool *
nb_tx_pool_create(const char *name, unsigned int n, uint32_t max_frame,
		  int socket)
{
	struct rte_mempool *mp;
	struct rte_mbuf *m;
	struct rte_mbuf **all;
	unsigned int i;

	mp = rte_pktmbuf_pool_create(name, n, NB_POOL_CACHE, 0,
				     nb_pool_room(max_frame), socket);
	if (mp == NULL)
		return NULL;
	/*
	 * Zero every data area once: generators then copy only headers and
	 * stamp, and the padding after them stays zero for the pool's life
	 * (nothing else writes into TX mbufs).
	 */
	all = calloc(n, sizeof(*all));
	if (all == NULL) {
		rte_mempool_free(mp);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		m = rte_pktmbuf_alloc(mp);
		if (m == NULL)
			break;
		memset(rte_pktmbuf_mtod(m, void *), 0, rte_pktmbuf_tailroom(m));
		all[i] = m;
	}
	while (i > 0)
		rte_pktmbuf_free(all[--i]);
	free(all);
	return mp;
}

struct rte_mempool *
nb_pool_get(const char *name, unsigned int n, int socket)
{
	struct rte_mempool *mp = rte_mempool_lookup(name);

	if (mp != NULL)
		return mp;
	return rte_pktmbuf_pool_create(name, n, 32, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, socket);
}

struct rte_mempool *
nb_copy_pool_create(const char *name, unsigned int n, uint16_t priv,
		    uint16_t room, int socket)
{
	return rte_pktmbuf_pool_create(
		name, n, 128, RTE_ALIGN(priv, RTE_MBUF_PRIV_ALIGN),
		(uint16_t)(RTE_PKTMBUF_HEADROOM + room), socket);
}

struct rte_mempool *
nb_pinned_pool_get(const char *pname, unsigned int n, const char *zname,
		   const void *bytes, size_t len, uint16_t room, int socket,
		   const struct rte_memzone **mz)
{
	struct rte_pktmbuf_extmem *em;
	struct rte_mempool *mp;
	unsigned int i;

	*mz = rte_memzone_lookup(zname);
	if (*mz == NULL) {
		*mz = rte_memzone_reserve_aligned(zname, len, socket,
						  RTE_MEMZONE_IOVA_CONTIG,
						  RTE_CACHE_LINE_SIZE);
		if (*mz == NULL)
			return NULL;
		memcpy((*mz)->addr, bytes, len);
	}
	if ((*mz)->iova == RTE_BAD_IOVA || (*mz)->len < len || room > len) {
		rte_errno = EINVAL;
		return NULL;
	}
	mp = rte_mempool_lookup(pname);
	if (mp != NULL)
		return mp;
	em = calloc(n, sizeof(*em));
	if (em == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	/* an entry an mbuf, each over the first room bytes (where it
	 * points at first) */
	for (i = 0; i < n; i++) {
		em[i].buf_ptr = (*mz)->addr;
		em[i].buf_iova = (*mz)->iova;
		em[i].buf_len = room;
		em[i].elt_size = room;
	}
	mp = rte_pktmbuf_pool_create_extbuf(pname, n, 128, 0, room, socket, em,
					    n);
	free(em);
	return mp;
}

struct rte_ring *
nb_ring_create(const char *name, unsigned int cap, int socket)
{
	return rte_ring_create(name, cap, socket,
			       RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
}

void
nb_ring_free(struct rte_ring *r)
{
	rte_ring_free(r);
}

struct pools_walk {
	struct nb_pool_use *u;
	unsigned int max, n;
};

static void
pools_walk_cb(struct rte_mempool *mp, void *arg)
{
	struct pools_walk *w = arg;
	struct nb_pool_use *u;

	if (strncmp(mp->name, "nb_", 3) != 0)
		return;
	if (w->n < w->max) {
		u = &w->u[w->n];
		snprintf(u->name, sizeof(u->name), "%s", mp->name);
		u->size = mp->size;
		/* size - (common pool + every lcore's cache) */
		u->in_use = rte_mempool_in_use_count(mp);
	}
	w->n++;
}

unsigned int
nb_pools_usage(struct nb_pool_use *u, unsigned int max)
{
	struct pools_walk w = {.u = u, .max = max, .n = 0};

	rte_mempool_walk(pools_walk_cb, &w);
	return w.n;
}

void
nb_pool_shortfall(unsigned int n, uint16_t room, int socket, char *buf,
		  size_t len)
{
	struct rte_malloc_socket_stats ms;
	struct rte_mempool_objsz sz;
	char why[700];
	double need, free_mib = 0, piece = 0;

	rte_mempool_calc_obj_size((uint32_t)(sizeof(struct rte_mbuf) + room), 0,
				  &sz);
	/* the objects, and their ring of pointers */
	need = ((double)n * sz.total_size + (double)n * sizeof(void *)) /
	       (1024.0 * 1024.0);
	if (rte_malloc_get_socket_stats(socket < 0 ? 0 : socket, &ms) == 0) {
		free_mib = (double)ms.heap_freesz_bytes / (1024.0 * 1024.0);
		piece = (double)ms.greatest_free_size / (1024.0 * 1024.0);
	}
	nb_huge_explain(nb_eal_args()->file_prefix, why, sizeof(why));
	snprintf(buf, len,
		 "%u mbufs of %u B need %.1f MiB; DPDK's heap on node %d has "
		 "%.1f MiB free (%.1f MiB in one piece), more only from free "
		 "hugepages: %s",
		 n, sz.total_size, need, socket < 0 ? 0 : socket, free_mib,
		 piece, why);
}
