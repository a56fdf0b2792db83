/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Process set-up shared by every mode: lcore roles, port bring-up and
 * tear-down, the port and lcore descriptions, --list-ports.
 */
#ifndef NB_SETUP_H
#define NB_SETUP_H

#include <stddef.h>
#include <stdio.h>

#include "nb_app.h"

/* Roles from EAL's lcores (control, stats, workers); -EINVAL, err set. */
int nb_setup_roles(struct nb_app *app, char *err, size_t errlen);
/*
 * Every port the mode names exists (--tx-port/--rx-port, or --port in peer
 * mode; -ENODEV) and is no bond's member (-EINVAL); err set.  Peer mode
 * without --port takes the first port that is no member (a bond).
 */
/* Remember which EAL options were given (before rte_eal_init reorders
 * argv), for the per-driver checks of nb_setup_ports(). */
void nb_setup_note_eal(int argc, char **argv);
int nb_setup_check_ports(struct nb_config *cfg, char *err, size_t errlen);
/* "port 2 does not exist (2 ports probed: 0, 1; see --list-ports)" */
void nb_setup_port_missing(uint16_t port, char *err, size_t errlen);
/* "control=0 stats=1 worker0=2(cpu0: rx p1/q0) ..." */
void nb_setup_lcore_map(const struct nb_app *app, char *buf, size_t len);
/* The NUMA layout of the planned test into app->result.numa: each
 * worker's node (libnuma), each port's (ethdev), the crossings. */
void nb_setup_numa(struct nb_app *app);
/* Warn about workers whose ports sit on another NUMA node. */
void nb_setup_check_numa(const struct nb_app *app);
/*
 * A responder's layout for ACCEPT: from nb_setup_numa's (planned: an
 * open-loop test, whose workers were planned), else (closed-loop TCP) the
 * host's nodes and the port's alone, no worker listed.
 */
void nb_setup_numa_brief(const struct nb_app *app, int planned,
			 struct nb_numa_brief *b);
void nb_setup_print_port(FILE *f, const struct nb_port_desc *d);
/* The same for a port set up for the test, and what it offloads. */
void nb_setup_print_test_port(FILE *f, const struct nb_port *p);

struct nb_setup_req {
	uint16_t nb_queues;    /* RX and TX queues per port */
	uint32_t min_frame;    /* frames at least this large must pass */
	const char *link_hint; /* what to check when the link stays down;
				* NULL: do not wait for the link */
	int down_ok;	       /* a link that stays down is no error */
	int lacp_wait;	       /* 802.3ad bonds: wait for LACP with the
				* partner (not a responder: its partner
				* comes later) */
};

/*
 * Configure and start ports ids[0..n-1] (app->ports, app->port_ids), then
 * wait for their links.  Errors go to nb_app_error(); returns 0 or -errno.
 */
int nb_setup_ports(struct nb_app *app, const uint16_t *ids, uint16_t n,
		   const struct nb_setup_req *req);
/* Stop and close every port set up. */
void nb_setup_shutdown(struct nb_app *app);

/* --list-ports: every probed port and the lcore map; the exit code. */
int nb_setup_list_ports(struct nb_app *app);
/* The ports set up and the lcore map as JSON (--list-ports --json's
 * document); with their offload plans, what their PMDs offer and the
 * driver profiles' verdicts (nb_driver_profile_check) if offloads. */
json_t *nb_setup_ports_json(const struct nb_app *app, int offloads);

#endif /* NB_SETUP_H */
