/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tool's DPDK log type, "nbench": `--log-level nbench:debug` (an EAL
 * option) shows the control messages, `nbench:warning` hides the notices.
 * Lines go to the EAL log stream (stderr), prefixed "dpdk-nbench: ".
 */
#ifndef NB_LOG_H
#define NB_LOG_H

#include <rte_log.h>

extern int nb_logtype;

#define NB_LOG(level, fmt, ...)                                                \
	rte_log(RTE_LOG_##level, nb_logtype, "dpdk-nbench: " fmt "\n",         \
		##__VA_ARGS__)

#endif /* NB_LOG_H */
