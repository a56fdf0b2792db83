/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A fake port under the control path, for unit tests of app/control and
 * app/peer without EAL: the link-time seam of pmd_glue/nb_seam.h.  The
 * code under test sends and receives real frames (mbufs of a pool made
 * here, with the mempool driver API); a fake clock moves only when that
 * code naps, so timeouts take no real time; the far end is the test's
 * callback, which sees every frame sent and may queue answers.
 */
#ifndef NB_FAKE_PORT_H
#define NB_FAKE_PORT_H

#include <stdint.h>
#include <stdio.h>

#include "nb_app.h"
#include "nb_auth.h"
#include "nb_ctl.h"
#include "nb_l2.h"

#define FAKE_FRAMES 512
#define FAKE_MBUFS  256

struct fake_frame {
	uint8_t b[1600];
	uint16_t len;
	uint64_t at_ns; /* the fake clock when it was sent */
};

/* The clock, in ns (the TSC runs at 1 GHz here). */
extern uint64_t fake_now_ns;
/* Every frame the code under test sent, in order. */
extern struct fake_frame fake_sent[FAKE_FRAMES];
extern unsigned int fake_nsent;
/* The far end: every frame sent, as it is sent. */
extern void (*fake_on_tx)(const struct fake_frame *f);
/* The far end's timers: at every nap of the code under test. */
extern void (*fake_on_nap)(void);
/* The test port's MAC (nb_setup_ports puts it in the description). */
extern uint8_t fake_mac[6];

/* Before each test: no frames, the clock at 1 s, every mbuf home. */
void fake_port_reset(void);
/* mbufs of the fake pool not returned to it (0: nothing leaked). */
unsigned int fake_mbufs_out(void);

/* A frame for the code under test to receive (in order). */
void fake_rx_put(const uint8_t *b, uint16_t len);
/* Encode m (tagged and signed with a, or untagged with NULL) in a UDP
 * datagram to the control port from src to dst, and queue it. */
void fake_rx_msg(const uint8_t src_mac[6], uint32_t src_ip,
		 const uint8_t dst_mac[6], uint32_t dst_ip,
		 struct nb_ctl_msg *m, const struct nb_auth *a);
/* A sent frame as a control datagram: 0 with u and m filled. */
int fake_decode(const struct fake_frame *f, struct nb_udp_info *u,
		struct nb_ctl_msg *m);
/* How many frames sent decode as control messages of type t. */
unsigned int fake_count_sent(uint8_t type);

/* The app as main() makes it from the tool's options (argv[0] "--"),
 * its output written to out. */
int fake_app(struct nb_app *app, int argc, char **argv, FILE *out);

#endif /* NB_FAKE_PORT_H */
