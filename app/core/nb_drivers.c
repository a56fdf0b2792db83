/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <string.h>

#include "nb_drivers.h"

static const struct nb_driver_profile profiles[] = {
	{"net_af_packet", "af_packet vdev",
	 "add qpairs=%u to its --vdev (net_af_packet0,iface=IF,qpairs=N; "
	 "the interface needs as many queues: veth numrxqueues/"
	 "numtxqueues)",
	 NULL},
	{"net_virtio_user", "virtio-user vdev",
	 "add queues=%u to its --vdev and give the vhost-user end as many "
	 "(net_vhost0,...,queues=N)",
	 "--single-file-segments (vhost-user maps at most 8 memory "
	 "regions: 'Too many memory regions' otherwise)"},
	{"net_vhost", "vhost-user vdev",
	 "add queues=%u to its --vdev and to the virtio-user or guest end",
	 NULL},
	{"net_virtio", "virtio-net NIC (a guest)",
	 "give the guest NIC %u queue pairs (QEMU: -netdev ...,queues=N "
	 "and -device virtio-net-pci,mq=on,vectors=2N+2; libvirt: "
	 "<driver queues='N'/>)",
	 NULL},
	{"net_netvsc", "Hyper-V netvsc NIC (a guest)",
	 "the host gives the synthetic NIC its channels: ask for %u (it "
	 "offers up to the guest's vCPUs)",
	 NULL},
	{"net_vmxnet3", "VMware vmxnet3 NIC (a guest)",
	 "give the VM more vCPUs: vmxnet3 offers queues up to them (%u "
	 "asked)",
	 NULL},
	{"net_e1000_em", "e1000 NIC (a guest)",
	 "e1000 has one queue pair; use --queues 1 (%u asked)", NULL},
	{"net_e1000_igb", "Intel igb NIC", NULL, NULL},
	{"net_ixgbe", "Intel 82599/X540/X550 NIC", NULL, NULL},
	{"net_ixgbe_vf", "Intel 82599/X540/X550 VF",
	 "the PF decides the VF's queues (%u asked): a VF of ixgbe has 4 at "
	 "most",
	 NULL},
	{"net_i40e", "Intel X710/XL710 NIC", NULL, NULL},
	{"net_i40e_vf", "Intel X710/XL710 VF (iavf)",
	 "the PF decides the VF's queues (%u asked): set them with the "
	 "kernel PF driver before binding",
	 NULL},
	{"net_iavf", "Intel iavf VF",
	 "the PF decides the VF's queues (%u asked)", NULL},
	{"net_bnxt", "Broadcom BCM574xx NIC", NULL, NULL},
	{"net_bnx2x", "Broadcom BCM57800 NIC", NULL, NULL},
	{"net_bnx2xvf", "Broadcom BCM57800 VF",
	 "the PF decides the VF's queues (%u asked)", NULL},
	{"net_memif", "memif vdev", NULL, NULL, 1},
	{"net_tap", "tap vdev", NULL, NULL},
	{"net_null", "null vdev", NULL, NULL},
	{"net_ring", "ring vdev",
	 "give it %u rings (nodeaction=NAME:NUMA:CREATE per queue)", NULL},
	{"net_pcap", "pcap vdev",
	 "give one rx_pcap/tx_pcap (or iface) pair per queue: %u of them",
	 NULL},
	{"net_bonding", "bonding vdev",
	 "a bond has the queues of its members: give each member %u", NULL},
};

const struct nb_driver_profile *
nb_driver_profile(const char *driver)
{
	size_t i;

	if (driver == NULL)
		return NULL;
	for (i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
		if (strcmp(profiles[i].driver, driver) == 0)
			return &profiles[i];
	return NULL;
}

int
nb_driver_leave_unmaps(const char *driver)
{
	const struct nb_driver_profile *p = nb_driver_profile(driver);

	return p != NULL && p->leave_unmaps;
}

int
nb_driver_queue_hint(const char *driver, unsigned int want,
		     unsigned int max_rxq, unsigned int max_txq, char *buf,
		     size_t len)
{
	const struct nb_driver_profile *p = nb_driver_profile(driver);
	unsigned int have = max_rxq < max_txq ? max_rxq : max_txq;
	int n;

	n = snprintf(buf, len,
		     "%s has %u RX / %u TX queue%s, %u of each are needed: ",
		     p != NULL ? p->what
		     : driver  ? driver
			       : "the device",
		     max_rxq, max_txq, max_txq == 1 ? "" : "s", want);
	if (n < 0 || (size_t)n >= len)
		return n;
	if (p != NULL && p->queues_hint != NULL) {
		/* the hints have one %u: the count asked for */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		n += snprintf(buf + n, len - (size_t)n, p->queues_hint, want);
#pragma GCC diagnostic pop
		if ((size_t)n < len && have > 0)
			n += snprintf(buf + n, len - (size_t)n,
				      ", or lower --queues to %u", have);
		return n;
	}
	return n +
	       snprintf(buf + n, len - (size_t)n, "lower --queues to %u", have);
}
