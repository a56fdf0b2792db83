/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_portset.h"

static const char *const fc_names[] = {
	[NB_FC_KEEP] = "keep", [NB_FC_OFF] = "off",
	[NB_FC_ON] = "on",     [NB_FC_RX] = "rx",
	[NB_FC_TX] = "tx",     [NB_FC_UNSUPPORTED] = "unsupported",
};

int
nb_fc_parse(const char *s, enum nb_fc_mode *m)
{
	size_t i;

	/* "keep" is the default's name; "unsupported" is only read back */
	for (i = NB_FC_OFF; i <= NB_FC_TX; i++)
		if (strcmp(s, fc_names[i]) == 0) {
			*m = (enum nb_fc_mode)i;
			return 0;
		}
	return -EINVAL;
}

const char *
nb_fc_name(enum nb_fc_mode m)
{
	return (unsigned int)m < sizeof(fc_names) / sizeof(fc_names[0])
		       ? fc_names[m]
		       : "?";
}

static const struct {
	const char *name;
	uint32_t mbps;
} speeds[] = {
	{"10M", 10},	  {"100M", 100},  {"1G", 1000},	  {"2.5G", 2500},
	{"5G", 5000},	  {"10G", 10000}, {"20G", 20000}, {"25G", 25000},
	{"40G", 40000},	  {"50G", 50000}, {"56G", 56000}, {"100G", 100000},
	{"200G", 200000},
};

int
nb_speed_parse(const char *s, uint32_t *mbps)
{
	size_t i;

	if (strcmp(s, "auto") == 0) {
		*mbps = 0;
		return 0;
	}
	for (i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
		if (strcmp(s, speeds[i].name) == 0) {
			*mbps = speeds[i].mbps;
			return 0;
		}
	return -EINVAL;
}

int
nb_mtu_parse(const char *s, uint32_t *mtu)
{
	char *end;
	unsigned long v;

	if (s[0] < '0' || s[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < NB_MTU_MIN || v > NB_MTU_MAX)
		return -EINVAL;
	*mtu = (uint32_t)v;
	return 0;
}

int
nb_mtu_for(uint32_t user_mtu, uint32_t max_frame, uint32_t *mtu, char *err,
	   size_t errlen)
{
	/* Ethernet header and FCS; a VLAN tag is the NIC's allowance */
	uint32_t need = max_frame > 18 ? max_frame - 18 : 0;

	if (user_mtu == 0) {
		*mtu = need > 1500 ? need : 1500;
		return 0;
	}
	if (user_mtu < need) {
		snprintf(err, errlen,
			 "--mtu %u is too small for the test's %u B frames "
			 "(they need MTU %u)",
			 user_mtu, max_frame, need);
		return -1;
	}
	*mtu = user_mtu;
	return 0;
}
