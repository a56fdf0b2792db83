/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the extended-counter selection (nb_xstat_selected in
 * app/core/nb_pmd_stats.h) against the names the target NICs' drivers
 * really give (DPDK 22.11): every error, drop and pause counter that tells
 * why frames went missing is picked, per-queue/per-priority detail and
 * repeats are not, and what is picked fits the report's NB_XSTATS_MAX.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "nb_pmd_stats.h"

/* The extended counters' names of DPDK 22.11's drivers (v22.11:
 * drivers/net/ixgbe/ixgbe_ethdev.c, i40e/i40e_ethdev.c, bnxt/bnxt_stats.c,
 * bnx2x/bnx2x_ethdev.c; per-priority names expanded for 8 priorities),
 * and ethdev's own (rx_good_packets ... rx_qN_errors). */
static const char *const xs_gen[] = {
	"rx_good_packets", "tx_good_packets", "rx_good_bytes", "tx_good_bytes",
	"rx_missed_errors", "rx_errors", "tx_errors", "rx_mbuf_allocation_errors",
	"rx_q0_packets", "rx_q0_bytes", "rx_q0_errors", "rx_q1_packets",
	"rx_q1_bytes", "rx_q1_errors", "tx_q0_packets", "tx_q0_bytes",
	"tx_q1_packets", "tx_q1_bytes", NULL};
static const char *const xs_ixgbe[] = {
	"rx_crc_errors", "rx_illegal_byte_errors", "rx_error_bytes",
	"mac_local_errors", "mac_remote_errors", "rx_length_errors",
	"tx_xon_packets", "rx_xon_packets", "tx_xoff_packets", "rx_xoff_packets",
	"rx_size_64_packets", "rx_size_65_to_127_packets",
	"rx_size_128_to_255_packets", "rx_size_256_to_511_packets",
	"rx_size_512_to_1023_packets", "rx_size_1024_to_max_packets",
	"rx_broadcast_packets", "rx_multicast_packets", "rx_fragment_errors",
	"rx_undersize_errors", "rx_oversize_errors", "rx_jabber_errors",
	"rx_management_packets", "rx_management_dropped", "tx_management_packets",
	"rx_total_packets", "rx_total_bytes", "tx_total_packets",
	"tx_size_64_packets", "tx_size_65_to_127_packets",
	"tx_size_128_to_255_packets", "tx_size_256_to_511_packets",
	"tx_size_512_to_1023_packets", "tx_size_1024_to_max_packets",
	"tx_multicast_packets", "tx_broadcast_packets",
	"rx_mac_short_packet_dropped", "rx_l3_l4_xsum_error",
	"flow_director_added_filters", "flow_director_removed_filters",
	"flow_director_filter_add_errors", "flow_director_filter_remove_errors",
	"flow_director_matched_filters", "flow_director_missed_filters",
	"rx_fcoe_crc_errors", "rx_fcoe_dropped", "rx_fcoe_mbuf_allocation_errors",
	"rx_fcoe_packets", "tx_fcoe_packets", "rx_fcoe_bytes", "tx_fcoe_bytes",
	"rx_fcoe_no_direct_data_placement",
	"rx_fcoe_no_direct_data_placement_ext_buff", "tx_flow_control_xon_packets",
	"rx_flow_control_xon_packets", "tx_flow_control_xoff_packets",
	"rx_flow_control_xoff_packets", "rx_total_missed_packets",
	"out_pkts_untagged", "out_pkts_encrypted", "out_pkts_protected",
	"out_octets_encrypted", "out_octets_protected", "in_pkts_untagged",
	"in_pkts_badtag", "in_pkts_nosci", "in_pkts_unknownsci",
	"in_octets_decrypted", "in_octets_validated", "in_pkts_unchecked",
	"in_pkts_delayed", "in_pkts_late", "in_pkts_ok", "in_pkts_invalid",
	"in_pkts_notvalid", "in_pkts_unusedsa", "in_pkts_notusingsa",
	"rx_multicast_packets", "rx_priority0_mbuf_allocation_errors",
	"rx_priority0_dropped", "rx_priority0_xon_packets",
	"rx_priority0_xoff_packets", "rx_priority1_mbuf_allocation_errors",
	"rx_priority1_dropped", "rx_priority1_xon_packets",
	"rx_priority1_xoff_packets", "rx_priority2_mbuf_allocation_errors",
	"rx_priority2_dropped", "rx_priority2_xon_packets",
	"rx_priority2_xoff_packets", "rx_priority3_mbuf_allocation_errors",
	"rx_priority3_dropped", "rx_priority3_xon_packets",
	"rx_priority3_xoff_packets", "rx_priority4_mbuf_allocation_errors",
	"rx_priority4_dropped", "rx_priority4_xon_packets",
	"rx_priority4_xoff_packets", "rx_priority5_mbuf_allocation_errors",
	"rx_priority5_dropped", "rx_priority5_xon_packets",
	"rx_priority5_xoff_packets", "rx_priority6_mbuf_allocation_errors",
	"rx_priority6_dropped", "rx_priority6_xon_packets",
	"rx_priority6_xoff_packets", "rx_priority7_mbuf_allocation_errors",
	"rx_priority7_dropped", "rx_priority7_xon_packets",
	"rx_priority7_xoff_packets", "tx_priority0_xon_packets",
	"tx_priority0_xoff_packets", "tx_priority0_xon_to_xoff_packets",
	"tx_priority1_xon_packets", "tx_priority1_xoff_packets",
	"tx_priority1_xon_to_xoff_packets", "tx_priority2_xon_packets",
	"tx_priority2_xoff_packets", "tx_priority2_xon_to_xoff_packets",
	"tx_priority3_xon_packets", "tx_priority3_xoff_packets",
	"tx_priority3_xon_to_xoff_packets", "tx_priority4_xon_packets",
	"tx_priority4_xoff_packets", "tx_priority4_xon_to_xoff_packets",
	"tx_priority5_xon_packets", "tx_priority5_xoff_packets",
	"tx_priority5_xon_to_xoff_packets", "tx_priority6_xon_packets",
	"tx_priority6_xoff_packets", "tx_priority6_xon_to_xoff_packets",
	"tx_priority7_xon_packets", "tx_priority7_xoff_packets",
	"tx_priority7_xon_to_xoff_packets", NULL};
static const char *const xs_i40e[] = {
	"rx_unicast_packets", "rx_multicast_packets", "rx_broadcast_packets",
	"rx_dropped_packets", "rx_unknown_protocol_packets",
	"rx_size_error_packets", "tx_unicast_packets", "tx_multicast_packets",
	"tx_broadcast_packets", "tx_dropped_packets", "tx_link_down_dropped",
	"rx_crc_errors", "rx_illegal_byte_errors", "rx_error_bytes",
	"mac_local_errors", "mac_remote_errors", "rx_length_errors",
	"tx_xon_packets", "rx_xon_packets", "tx_xoff_packets", "rx_xoff_packets",
	"rx_size_64_packets", "rx_size_65_to_127_packets",
	"rx_size_128_to_255_packets", "rx_size_256_to_511_packets",
	"rx_size_512_to_1023_packets", "rx_size_1024_to_1522_packets",
	"rx_size_1523_to_max_packets", "rx_undersized_errors", "rx_oversize_errors",
	"rx_mac_short_dropped", "rx_fragmented_errors", "rx_jabber_errors",
	"tx_size_64_packets", "tx_size_65_to_127_packets",
	"tx_size_128_to_255_packets", "tx_size_256_to_511_packets",
	"tx_size_512_to_1023_packets", "tx_size_1024_to_1522_packets",
	"tx_size_1523_to_max_packets", "rx_flow_director_atr_match_packets",
	"rx_flow_director_sb_match_packets", "tx_low_power_idle_status",
	"rx_low_power_idle_status", "tx_low_power_idle_count",
	"rx_low_power_idle_count", "rx_priority0_xon_packets",
	"rx_priority0_xoff_packets", "rx_priority1_xon_packets",
	"rx_priority1_xoff_packets", "rx_priority2_xon_packets",
	"rx_priority2_xoff_packets", "rx_priority3_xon_packets",
	"rx_priority3_xoff_packets", "rx_priority4_xon_packets",
	"rx_priority4_xoff_packets", "rx_priority5_xon_packets",
	"rx_priority5_xoff_packets", "rx_priority6_xon_packets",
	"rx_priority6_xoff_packets", "rx_priority7_xon_packets",
	"rx_priority7_xoff_packets", "tx_priority0_xon_packets",
	"tx_priority0_xoff_packets", "tx_priority0_xon_to_xoff_packets",
	"tx_priority1_xon_packets", "tx_priority1_xoff_packets",
	"tx_priority1_xon_to_xoff_packets", "tx_priority2_xon_packets",
	"tx_priority2_xoff_packets", "tx_priority2_xon_to_xoff_packets",
	"tx_priority3_xon_packets", "tx_priority3_xoff_packets",
	"tx_priority3_xon_to_xoff_packets", "tx_priority4_xon_packets",
	"tx_priority4_xoff_packets", "tx_priority4_xon_to_xoff_packets",
	"tx_priority5_xon_packets", "tx_priority5_xoff_packets",
	"tx_priority5_xon_to_xoff_packets", "tx_priority6_xon_packets",
	"tx_priority6_xoff_packets", "tx_priority6_xon_to_xoff_packets",
	"tx_priority7_xon_packets", "tx_priority7_xoff_packets",
	"tx_priority7_xon_to_xoff_packets", NULL};
static const char *const xs_bnxt[] = {
	"rx_64b_frames", "rx_65b_127b_frames", "rx_128b_255b_frames",
	"rx_256b_511b_frames", "rx_512b_1023b_frames", "rx_1024b_1518b_frames",
	"rx_good_vlan_frames", "rx_1519b_2047b_frames", "rx_2048b_4095b_frames",
	"rx_4096b_9216b_frames", "rx_9217b_16383b_frames", "rx_total_frames",
	"rx_ucast_frames", "rx_mcast_frames", "rx_bcast_frames",
	"rx_fcs_err_frames", "rx_ctrl_frames", "rx_pause_frames", "rx_pfc_frames",
	"rx_unsupported_opcode_frames", "rx_unsupported_da_pausepfc_frames",
	"rx_wrong_sa_frames", "rx_align_err_frames", "rx_oor_len_frames",
	"rx_code_err_frames", "rx_false_carrier_frames", "rx_ovrsz_frames",
	"rx_jbr_frames", "rx_mtu_err_frames", "rx_match_crc_frames",
	"rx_promiscuous_frames", "rx_tagged_frames", "rx_double_tagged_frames",
	"rx_trunc_frames", "rx_good_frames", "rx_sch_crc_err_frames",
	"rx_undrsz_frames", "rx_frag_frames", "rx_eee_lpi_events",
	"rx_eee_lpi_duration", "rx_llfc_physical_msgs", "rx_llfc_logical_msgs",
	"rx_llfc_msgs_with_crc_err", "rx_hcfc_msgs", "rx_hcfc_msgs_with_crc_err",
	"rx_bytes", "rx_runt_bytes", "rx_runt_frames",
	"rx_pfc_xon2xoff_frames_pri0", "rx_pfc_xon2xoff_frames_pri1",
	"rx_pfc_xon2xoff_frames_pri2", "rx_pfc_xon2xoff_frames_pri3",
	"rx_pfc_xon2xoff_frames_pri4", "rx_pfc_xon2xoff_frames_pri5",
	"rx_pfc_xon2xoff_frames_pri6", "rx_pfc_xon2xoff_frames_pri7",
	"rx_pfc_ena_frames_pri0", "rx_pfc_ena_frames_pri1",
	"rx_pfc_ena_frames_pri2", "rx_pfc_ena_frames_pri3",
	"rx_pfc_ena_frames_pri4", "rx_pfc_ena_frames_pri5",
	"rx_pfc_ena_frames_pri6", "rx_pfc_ena_frames_pri7", "rx_stat_discard",
	"rx_stat_err", "tx_64b_frames", "tx_65b_127b_frames", "tx_128b_255b_frames",
	"tx_256b_511b_frames", "tx_512b_1023b_frames", "tx_1024b_1518b_frames",
	"tx_good_vlan_frames", "tx_1519b_2047b_frames", "tx_2048b_4095b_frames",
	"tx_4096b_9216b_frames", "tx_9217b_16383b_frames", "tx_good_frames",
	"tx_total_frames", "tx_ucast_frames", "tx_mcast_frames", "tx_bcast_frames",
	"tx_pause_frames", "tx_pfc_frames", "tx_jabber_frames", "tx_fcs_err_frames",
	"tx_control_frames", "tx_oversz_frames", "tx_single_dfrl_frames",
	"tx_multi_dfrl_frames", "tx_single_coll_frames", "tx_multi_coll_frames",
	"tx_late_coll_frames", "tx_excessive_coll_frames", "tx_frag_frames",
	"tx_err", "tx_tagged_frames", "tx_dbl_tagged_frames", "tx_runt_frames",
	"tx_fifo_underruns", "tx_eee_lpi_events", "tx_eee_lpi_duration",
	"tx_total_collisions", "tx_bytes", "tx_pfc_ena_frames_pri0",
	"tx_pfc_ena_frames_pri1", "tx_pfc_ena_frames_pri2",
	"tx_pfc_ena_frames_pri3", "tx_pfc_ena_frames_pri4",
	"tx_pfc_ena_frames_pri5", "tx_pfc_ena_frames_pri6",
	"tx_pfc_ena_frames_pri7", "tx_llfc_logical_msgs", "tx_hcfc_msgs",
	"tx_xthol_frames", "tx_stat_discard", "tx_stat_error", "tx_ucast_pkts",
	"tx_mcast_pkts", "tx_bcast_pkts", "tx_discard_pkts", "tx_drop_pkts",
	"tx_ucast_bytes", "tx_mcast_bytes", "tx_bcast_bytes", "rx_ucast_pkts",
	"rx_mcast_pkts", "rx_bcast_pkts", "rx_discard_pkts", "rx_drop_pkts",
	"rx_ucast_bytes", "rx_mcast_bytes", "rx_bcast_bytes", "rx_agg_pkts",
	"rx_agg_bytes", "rx_agg_events", "rx_agg_aborts", "link_down_events",
	"continuous_pause_events", "resume_pause_events",
	"continuous_roce_pause_events", "resume_roce_pause_events", "rx_bytes_cos0",
	"rx_bytes_cos1", "rx_bytes_cos2", "rx_bytes_cos3", "rx_bytes_cos4",
	"rx_bytes_cos5", "rx_bytes_cos6", "rx_bytes_cos7", "rx_packets_cos0",
	"rx_packets_cos1", "rx_packets_cos2", "rx_packets_cos3", "rx_packets_cos4",
	"rx_packets_cos5", "rx_packets_cos6", "rx_packets_cos7",
	"pfc_pri0_rx_duration_us", "pfc_pri0_rx_transitions",
	"pfc_pri1_rx_duration_us", "pfc_pri1_rx_transitions",
	"pfc_pri2_rx_duration_us", "pfc_pri2_rx_transitions",
	"pfc_pri3_rx_duration_us", "pfc_pri3_rx_transitions",
	"pfc_pri4_rx_duration_us", "pfc_pri4_rx_transitions",
	"pfc_pri5_rx_duration_us", "pfc_pri5_rx_transitions",
	"pfc_pri6_rx_duration_us", "pfc_pri6_rx_transitions",
	"pfc_pri7_rx_duration_us", "pfc_pri7_rx_transitions", "rx_bits",
	"rx_buffer_passed_threshold", "rx_pcs_symbol_err", "rx_corrected_bits",
	"rx_discard_bytes_cos0", "rx_discard_bytes_cos1", "rx_discard_bytes_cos2",
	"rx_discard_bytes_cos3", "rx_discard_bytes_cos4", "rx_discard_bytes_cos5",
	"rx_discard_bytes_cos6", "rx_discard_bytes_cos7", "rx_discard_packets_cos0",
	"rx_discard_packets_cos1", "rx_discard_packets_cos2",
	"rx_discard_packets_cos3", "rx_discard_packets_cos4",
	"rx_discard_packets_cos5", "rx_discard_packets_cos6",
	"rx_discard_packets_cos7", "tx_bytes_cos0", "tx_bytes_cos1",
	"tx_bytes_cos2", "tx_bytes_cos3", "tx_bytes_cos4", "tx_bytes_cos5",
	"tx_bytes_cos6", "tx_bytes_cos7", "tx_packets_cos0", "tx_packets_cos1",
	"tx_packets_cos2", "tx_packets_cos3", "tx_packets_cos4", "tx_packets_cos5",
	"tx_packets_cos6", "tx_packets_cos7", "pfc_pri0_tx_duration_us",
	"pfc_pri0_tx_transitions", "pfc_pri1_tx_duration_us",
	"pfc_pri1_tx_transitions", "pfc_pri2_tx_duration_us",
	"pfc_pri2_tx_transitions", "pfc_pri3_tx_duration_us",
	"pfc_pri3_tx_transitions", "pfc_pri4_tx_duration_us",
	"pfc_pri4_tx_transitions", "pfc_pri5_tx_duration_us",
	"pfc_pri5_tx_transitions", "pfc_pri6_tx_duration_us",
	"pfc_pri6_tx_transitions", "pfc_pri7_tx_duration_us",
	"pfc_pri7_tx_transitions", NULL};
static const char *const xs_bnx2x[] = {
	"rx_buffer_drops", "rx_buffer_truncates", "rx_buffer_truncate_discard",
	"mac_filter_discard", "no_match_vlan_tag_discard", "tx_pause", "rx_pause",
	"tx_priority_flow_control", "rx_priority_flow_control", NULL};

static int
in(const char *const *list, const char *name)
{
	for (; *list != NULL; list++)
		if (strcmp(*list, name) == 0)
			return 1;
	return 0;
}

static size_t
count_selected(const char *const *names)
{
	size_t n = 0;

	for (; *names != NULL; names++)
		n += (size_t)nb_xstat_selected(*names);
	return n;
}

/* each driver's names: these picked, those not, all of them fit */
static void
check(const char *const *names, const char *const *want,
      const char *const *not)
{
	size_t i;

	for (i = 0; want[i] != NULL; i++) {
		assert_true(in(names, want[i])); /* the name is the driver's */
		if (!nb_xstat_selected(want[i]))
			fail_msg("%s should be reported", want[i]);
	}
	for (i = 0; not[i] != NULL; i++) {
		assert_true(in(names, not[i]));
		if (nb_xstat_selected(not[i]))
			fail_msg("%s should not be reported", not[i]);
	}
	assert_true(count_selected(xs_gen) + count_selected(names) <=
		    NB_XSTATS_MAX);
}

static void
test_ethdev(void **state)
{
	static const char *const want[] = {"rx_missed_errors", "rx_errors",
					   "tx_errors",
					   "rx_mbuf_allocation_errors", NULL};
	static const char *const not[] = {"rx_good_packets", "tx_good_bytes",
					  "rx_q0_packets", "rx_q1_errors",
					  NULL};

	(void)state;
	check(xs_gen, want, not);
}

static void
test_ixgbe(void **state)
{
	static const char *const want[] = {
		"rx_crc_errors",	  "rx_total_missed_packets",
		"rx_length_errors",	  "rx_undersize_errors",
		"rx_oversize_errors",	  "rx_jabber_errors",
		"rx_fragment_errors",	  "rx_xoff_packets",
		"tx_xoff_packets",	  "rx_xon_packets",
		"rx_mac_short_packet_dropped", "rx_l3_l4_xsum_error",
		"mac_local_errors",	  NULL};
	static const char *const not[] = {
		"rx_size_64_packets", "rx_broadcast_packets",
		"rx_priority3_dropped", "rx_priority0_xoff_packets",
		"tx_priority7_xon_to_xoff_packets", "flow_director_missed_filters",
		"rx_fcoe_dropped", "rx_total_packets", NULL};

	(void)state;
	check(xs_ixgbe, want, not);
}

static void
test_i40e(void **state)
{
	static const char *const want[] = {
		"rx_dropped_packets",	 "rx_unknown_protocol_packets",
		"tx_dropped_packets",	 "tx_link_down_dropped",
		"rx_crc_errors",	 "rx_undersized_errors",
		"rx_oversize_errors",	 "rx_fragmented_errors",
		"rx_jabber_errors",	 "rx_xoff_packets",
		"rx_size_error_packets", "rx_mac_short_dropped", NULL};
	static const char *const not[] = {
		"rx_unicast_packets", "rx_size_1523_to_max_packets",
		"rx_priority2_xoff_packets", "tx_low_power_idle_count",
		"rx_flow_director_atr_match_packets", NULL};

	(void)state;
	check(xs_i40e, want, not);
}

static void
test_bnxt(void **state)
{
	static const char *const want[] = {
		"rx_fcs_err_frames", "rx_align_err_frames", "rx_ovrsz_frames",
		"rx_jbr_frames",     "rx_undrsz_frames",    "rx_frag_frames",
		"rx_runt_frames",    "rx_trunc_frames",	    "rx_mtu_err_frames",
		"rx_pause_frames",   "tx_pause_frames",	    "rx_drop_pkts",
		"rx_discard_pkts",   "tx_drop_pkts",	    "tx_fifo_underruns",
		"rx_stat_discard",   "rx_stat_err",	    NULL};
	static const char *const not[] = {
		"rx_64b_frames", "rx_good_frames", "rx_ucast_pkts",
		"rx_pfc_xon2xoff_frames_pri3", "rx_pfc_ena_frames_pri0",
		"rx_bytes_cos2", "rx_packets_cos7", "rx_match_crc_frames",
		"rx_eee_lpi_events", "rx_llfc_msgs_with_crc_err", NULL};

	(void)state;
	check(xs_bnxt, want, not);
}

static void
test_bnx2x(void **state)
{
	static const char *const want[] = {
		"rx_buffer_drops",  "rx_buffer_truncates",
		"rx_buffer_truncate_discard", "mac_filter_discard",
		"no_match_vlan_tag_discard", "rx_pause", "tx_pause",
		"rx_priority_flow_control", NULL};
	static const char *const not[] = {NULL};

	(void)state;
	check(xs_bnx2x, want, not);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ethdev), cmocka_unit_test(test_ixgbe),
		cmocka_unit_test(test_i40e),   cmocka_unit_test(test_bnxt),
		cmocka_unit_test(test_bnx2x),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
