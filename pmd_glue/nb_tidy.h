/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A tidy exit: EAL cleaned up, then what a primary process of this prefix
 * left on disk removed, so nothing it held stays held: its hugepage files
 * (<prefix>map_<n> in --huge-dir and every hugetlbfs mount; DPDK 22.11
 * leaves those of memory still allocated at exit, and the pages stay
 * allocated until the next DPDK primary deletes them) and its runtime
 * directory (/var/run/dpdk/<prefix>/: config, fbarrays, hugepage_info,
 * sockets).  Files another process still maps (a secondary such as
 * dpdk-dumpcap that has not detached: it holds a lock on them) stay, and
 * then so does the runtime directory.  --huge-unlink, --in-memory and
 * --no-huge leave no hugepage files; --huge-unlink=never keeps them on
 * purpose, for the next run to reuse: those are left alone.
 */
#ifndef NB_TIDY_H
#define NB_TIDY_H

/*
 * rte_eal_cleanup(), then (a primary only) the tidy-up above; call once,
 * after rte_eal_init() succeeded and every port is closed.  Returns
 * rte_eal_cleanup()'s result.
 */
int nb_tidy_eal_cleanup(void);
/*
 * rte_eal_init() failed: what it made of this prefix before it did
 * (runtime directory, hugepage files no process holds), unless another
 * primary process runs with the prefix (then they are its).
 */
void nb_tidy_failed_init(void);

#endif /* NB_TIDY_H */
