/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Port settings the user asks for, beyond the queues: --flow-control,
 * --link-speed, --mtu.  Parsing, the checks against the frames of the
 * test, and their names; pure.  pmd_glue applies them (nb_port_setup) and
 * reads back what the port has, for the header and JSON.
 */
#ifndef NB_PORTSET_H
#define NB_PORTSET_H

#include <stddef.h>
#include <stdint.h>

/* --flow-control: IEEE 802.3x pause frames */
enum nb_fc_mode {
	NB_FC_KEEP = 0, /* as the driver (or the NIC's EEPROM) left it */
	NB_FC_OFF,
	NB_FC_ON,	   /* both ways */
	NB_FC_RX,	   /* honour the link partner's pause frames */
	NB_FC_TX,	   /* send pause frames when the RX side fills */
	NB_FC_UNSUPPORTED, /* read back: the driver has no flow control */
};

struct nb_portset {
	enum nb_fc_mode fc;
	uint32_t speed_mbps; /* --link-speed, 0: autonegotiate */
	uint32_t mtu;	     /* --mtu, 0: what the frames need */
};

int nb_fc_parse(const char *s, enum nb_fc_mode *m);
const char *nb_fc_name(enum nb_fc_mode m);

/* "10G", "25G", "100M", "auto" (0); the speeds ethdev can fix. */
int nb_speed_parse(const char *s, uint32_t *mbps);

/* 68..9600 (DPDK's jumbo limit on ixgbe/i40e is 9710 frames). */
#define NB_MTU_MIN 68
#define NB_MTU_MAX 9600
int nb_mtu_parse(const char *s, uint32_t *mtu);

/*
 * The MTU to configure for frames of up to max_frame bytes (incl. FCS,
 * untagged Ethernet: frame - 18): the user's when it is large enough,
 * else -1 with a sentence in err; the frames' own (at least 1500) when the
 * user gave none.
 */
int nb_mtu_for(uint32_t user_mtu, uint32_t max_frame, uint32_t *mtu, char *err,
	       size_t errlen);

#endif /* NB_PORTSET_H */
