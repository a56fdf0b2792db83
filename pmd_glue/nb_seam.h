/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The seam under the control path.  The peer session (app/peer) and its
 * frame I/O (app/control/nb_ctlio.c) reach DPDK only through real
 * functions of pmd_glue: the clock and nap below, the ports' control-path
 * bursts and queries (nb_port.h: nb_port_tx, nb_port_rx, nb_port_valid,
 * nb_port_max_queues, nb_port_socket, nb_port_lacp, nb_port_ctl_tx_port,
 * nb_port_other_src_macs, nb_port_link_up, nb_port_rx_budget) and the
 * pools and rings (nb_pool.h: nb_pool_get, nb_ring_create, nb_ring_free).
 *
 * A unit test links the real app/control and app/peer code and replaces
 * those functions at link time (-Wl,--wrap=NAME, as Pacemaker's cmocka
 * tests do): no function pointer on any path, and none on the workers'
 * inline rte_eth_rx_burst/tx_burst, which stay direct calls.  What a test
 * cannot replace this way is a static inline DPDK call, so the control
 * path makes none that needs EAL (mbufs and rings it handles inline work
 * on a test's own pool and rings).  tests/unit/nb_fake_port.c is the fake.
 */
#ifndef NB_SEAM_H
#define NB_SEAM_H

#include <stdint.h>

/* The control path's clock: the TSC, and its rate (EAL's calibration). */
uint64_t nb_glue_tsc(void);
uint64_t nb_glue_tsc_hz(void);

/* The control lcore's nap between polls (it never spins). */
void nb_glue_nap_us(unsigned int us);

#endif /* NB_SEAM_H */
