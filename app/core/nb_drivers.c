/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <string.h>

#include "nb_drivers.h"

#define CK_ALL                                                                 \
	(NB_CAP_TX_IPV4_CKSUM | NB_CAP_TX_UDP_CKSUM | NB_CAP_TX_TCP_CKSUM)
#define CK_L4 (NB_CAP_TX_UDP_CKSUM | NB_CAP_TX_TCP_CKSUM)
#define RSS   (NB_CAP_RSS_IP | NB_CAP_RSS_L4)
#define CAPS(c, rxq, txq)                                                      \
	{                                                                      \
		(c), (rxq), (txq)                                              \
	}

static const struct nb_driver_profile profiles[] = {
	{"net_af_packet", "af_packet vdev",
	 "add qpairs=%u to its --vdev (net_af_packet0,iface=IF,qpairs=N; "
	 "the interface needs as many queues: veth numrxqueues/"
	 "numtxqueues)",
	 NULL, 0, CAPS(0, 0, 0), "queues: qpairs= (1 by default)"},
	{"net_virtio_user", "virtio-user vdev",
	 "add queues=%u to its --vdev and give the vhost-user end as many "
	 "(net_vhost0,...,queues=N)",
	 "--single-file-segments (vhost-user maps at most 8 memory "
	 "regions: 'Too many memory regions' otherwise)",
	 0, CAPS(CK_L4, 0, 0),
	 "checksums when the backend offers VIRTIO_NET_F_CSUM (vhost-user "
	 "does); queues: queues= (1 by default)"},
	{"net_vhost", "vhost-user vdev",
	 "add queues=%u to its --vdev and to the virtio-user or guest end",
	 NULL, 0, CAPS(CK_L4, 0, 0),
	 "checksums unless legacy-ol-flags=1; queues: queues= (1 by "
	 "default)"},
	{"net_virtio", "virtio-net NIC (a guest)",
	 "give the guest NIC %u queue pairs (QEMU: -netdev ...,queues=N "
	 "and -device virtio-net-pci,mq=on,vectors=2N+2; libvirt: "
	 "<driver queues='N'/>)",
	 NULL, 0, CAPS(CK_L4, 0, 0),
	 "checksums when the host offers VIRTIO_NET_F_CSUM, RSS only with "
	 "VIRTIO_NET_F_RSS, queues with VIRTIO_NET_F_MQ (as many as the "
	 "host gives)",
	 NULL,
	 "rx_q0_good_packets rx_q0_errors rx_q0_undersize_packets "
	 "rx_q0_size_1519_max_packets tx_q0_good_packets"},
	{"net_netvsc", "Hyper-V netvsc NIC (a guest)",
	 "the host gives the synthetic NIC its channels: ask for %u (it "
	 "offers up to the guest's vCPUs)",
	 NULL, 0, CAPS(CK_ALL | RSS, 0, 0),
	 "checksums and RSS as the host's NDIS reports them (ANDed with an "
	 "accelerated VF's)"},
	{"net_vmxnet3", "VMware vmxnet3 NIC (a guest)",
	 "give the VM more vCPUs: vmxnet3 offers queues up to them (%u "
	 "asked)",
	 NULL, 0, CAPS(CK_L4 | RSS, 16, 8),
	 "UDP in the RSS hash from device version 4", NULL,
	 "rx_q0_drop_total rx_q0_drop_err rx_q0_drop_fcs "
	 "rx_q0_rx_buf_alloc_failure tx_q0_drop_total "
	 "tx_q0_drop_too_many_segs tx_q0_drop_tso tx_q0_tx_ring_full"},
	{"net_e1000_em", "e1000 NIC (a guest)",
	 "an e1000 has one or two queue pairs by DPDK release (%u asked)", NULL,
	 0, CAPS(CK_ALL | NB_CAP_FLOW_CTRL, 0, 0),
	 "queues: 2 from the stable fix for the queue count (Debian's "
	 "22.11.11 has it), 1 before"},
	{"net_e1000_igb", "Intel igb NIC", NULL, NULL, 0,
	 CAPS(CK_ALL | RSS | NB_CAP_TIMESYNC | NB_CAP_FLOW_CTRL, 0, 0),
	 "queues: 82576 16, i350 8, i210 4, i211 2", NULL,
	 "rx_crc_errors rx_missed_packets rx_length_errors "
	 "rx_undersize_errors rx_oversize_errors rx_jabber_errors "
	 "rx_xon_packets rx_xoff_packets"},
	{"net_ixgbe", "Intel 82599/X540/X550 NIC", NULL, NULL, 0,
	 CAPS(CK_ALL | RSS | NB_CAP_TIMESYNC | NB_CAP_QUEUE_RATE |
		      NB_CAP_FLOW_CTRL | NB_CAP_TX_CSUM_SLOW,
	      128, 64),
	 "any TX offload leaves the vector TX path (ixgbe_set_tx_function)",
	 NULL,
	 "rx_crc_errors rx_length_errors rx_mac_short_packet_dropped "
	 "rx_xon_packets rx_xoff_packets rx_total_missed_packets"},
	{"net_ixgbe_vf", "Intel 82599/X540/X550 VF",
	 "the PF decides the VF's queues (%u asked): a VF of ixgbe has 4 at "
	 "most",
	 NULL, 0, CAPS(CK_ALL | RSS | NB_CAP_TX_CSUM_SLOW, 0, 0),
	 "queues: as the PF gives (8 at most); TX offloads leave the vector "
	 "path, as on the PF"},
	{"net_i40e", "Intel X710/XL710 NIC", NULL, NULL, 0,
	 CAPS(CK_ALL | RSS | NB_CAP_TIMESYNC | NB_CAP_FLOW_CTRL |
		      NB_CAP_TX_CSUM_SLOW,
	      0, 0),
	 "only MBUF_FAST_FREE keeps the vector TX path "
	 "(i40e_set_tx_function_flag)",
	 NULL,
	 "rx_dropped_packets rx_unknown_protocol_packets "
	 "rx_crc_errors rx_undersized_errors rx_mac_short_dropped "
	 "tx_link_down_dropped"},
	{"net_i40e_vf", "Intel X710/XL710 VF (iavf)",
	 "the PF decides the VF's queues (%u asked): set them with the "
	 "kernel PF driver before binding",
	 NULL, 0, CAPS(CK_ALL | RSS, 0, 0), NULL},
	{"net_iavf", "Intel iavf VF",
	 "the PF decides the VF's queues (%u asked)", NULL, 0,
	 CAPS(CK_ALL | RSS, 0, 0),
	 "RX timestamps when the PF grants PTP; no IEEE 1588 API in 22.11"},
	{"net_bnxt", "Broadcom BCM574xx NIC", NULL, NULL, 0,
	 CAPS(CK_ALL | RSS | NB_CAP_RX_TIMESTAMP | NB_CAP_TIMESYNC |
		      NB_CAP_FLOW_CTRL | NB_CAP_TX_CSUM_SLOW,
	      0, 0),
	 "timestamps on a PF whose firmware has PTP; queues from the "
	 "firmware's rings; only MBUF_FAST_FREE keeps the vector TX path "
	 "(bnxt_transmit_function)",
	 NULL,
	 "rx_fcs_err_frames rx_ovrsz_frames rx_jbr_frames "
	 "rx_discard_pkts tx_fifo_underruns"},
	{"net_bnx2x", "Broadcom BCM57800 NIC", NULL, NULL, 0, CAPS(0, 16, 16),
	 "no offloads, no RSS hash types, no MTU change", NULL,
	 "rx_buffer_drops rx_buffer_truncates mac_filter_discard"},
	{"net_bnx2xvf", "Broadcom BCM57800 VF",
	 "the PF decides the VF's queues (%u asked)", NULL, 0, CAPS(0, 0, 0),
	 NULL},
	{"net_memif", "memif vdev", NULL, NULL, 1, CAPS(0, 255, 255), NULL,
	 "role=client"},
	{"net_tap", "tap vdev", NULL, NULL, 0,
	 CAPS(CK_ALL | RSS | NB_CAP_FLOW_CTRL, 16, 16),
	 "checksums done by the kernel; flow control: none only"},
	{"net_null", "null vdev", NULL, NULL, 0, CAPS(RSS, 1024, 1024),
	 "RSS accepted, nothing hashed"},
	{"net_ring", "ring vdev",
	 "give it %u rings (nodeaction=NAME:NUMA:CREATE per queue)", NULL, 0,
	 CAPS(0, 0, 0), NULL},
	{"net_pcap", "pcap vdev",
	 "give one rx_pcap/tx_pcap (or iface) pair per queue: %u of them", NULL,
	 0, CAPS(0, 0, 0), NULL},
	{"net_bonding", "bonding vdev",
	 "a bond has the queues of its members: give each member %u", NULL, 0,
	 CAPS(0, 0, 0),
	 "what all its members have (offloads ANDed, queues the least)"},
};

const struct nb_driver_profile *
nb_driver_profiles(size_t *n)
{
	*n = sizeof(profiles) / sizeof(profiles[0]);
	return profiles;
}

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
nb_driver_redials(const char *driver, const char *devargs)
{
	const struct nb_driver_profile *p = nb_driver_profile(driver);
	size_t n;
	const char *s;

	if (p == NULL || p->redial_arg == NULL || devargs == NULL)
		return 0;
	n = strlen(p->redial_arg);
	for (s = devargs; *s != '\0'; s++) {
		/* a whole token: after the start or a comma, before one */
		if ((s == devargs || s[-1] == ',') &&
		    strncmp(s, p->redial_arg, n) == 0 &&
		    (s[n] == '\0' || s[n] == ','))
			return 1;
	}
	return 0;
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

/* the NB_CAP_* bits' names, in bit order (nb_offload.h) */
static const char *const cap_names[] = {
	"tx_ipv4_cksum", "tx_udp_cksum", "tx_tcp_cksum", "rx_timestamp",
	"timesync",	 "rss_ip",	 "rss_l4",	 "queue_rate",
	"flow_control",	 "tx_csum_slow",
};

const char *
nb_cap_name(unsigned int bit)
{
	return bit < sizeof(cap_names) / sizeof(cap_names[0]) ? cap_names[bit]
							      : NULL;
}

int
nb_driver_profile_check(const struct nb_driver_profile *p,
			const struct nb_dev_caps *real,
			struct nb_profile_diff *d)
{
	/* what no dev_info says is the profile's own word: the vector
	 * path's quirk and the per-queue rate limiter (an op of the
	 * driver's that only a call would reveal) */
	const uint32_t own = NB_CAP_TX_CSUM_SLOW | NB_CAP_QUEUE_RATE;
	uint32_t want = p->caps.caps & ~own;
	uint32_t have = real->caps & ~own;

	memset(d, 0, sizeof(*d));
	d->missing = want & ~have;
	d->extra = have & ~want;
	d->rxq = p->caps.max_rxq != 0 && p->caps.max_rxq != real->max_rxq;
	d->txq = p->caps.max_txq != 0 && p->caps.max_txq != real->max_txq;
	return d->missing == 0 && d->extra == 0 && !d->rxq && !d->txq;
}

const char *
nb_words_next(const char **w, size_t *len)
{
	const char *s;

	if (*w == NULL)
		return NULL;
	*w += strspn(*w, " ");
	if (**w == '\0')
		return NULL;
	s = *w;
	*len = strcspn(s, " ");
	*w = s + *len;
	return s;
}

unsigned int
nb_driver_xstats_missing(const struct nb_driver_profile *p,
			 const char *const *names, unsigned int n, char *out,
			 size_t len)
{
	const char *rest = p->xstats, *w;
	unsigned int missing = 0, i;
	size_t used = 0, wl;

	if (len)
		out[0] = '\0';
	while ((w = nb_words_next(&rest, &wl)) != NULL) {
		for (i = 0; i < n; i++)
			if (strlen(names[i]) == wl &&
			    strncmp(names[i], w, wl) == 0)
				break;
		if (i == n) {
			int k = used < len
					? snprintf(out + used, len - used,
						   "%s%.*s", missing ? " " : "",
						   (int)wl, w)
					: 0;

			if (k > 0)
				used += (size_t)k;
			missing++;
		}
	}
	return missing;
}
