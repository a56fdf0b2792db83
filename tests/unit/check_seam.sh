#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The control path that test_client_session and test_rsp_admission drive
# reaches DPDK only through pmd_glue's seam (pmd_glue/nb_seam.h): no clock,
# sleep, ring, pool or ethdev call of its own, which a unit test without
# EAL could not replace.  Inline mbuf and ring handling is allowed (it
# works on the tests' own pool and rings).
cd "$(dirname "$0")/../.." || exit 1
files="app/control/nb_ctlio.c app/peer/nb_session.c app/peer/nb_client.c
app/peer/nb_client_io.c app/peer/nb_responder.c"
# shellcheck disable=SC2086
bad=$(grep -nE 'rte_(eth_|get_tsc|get_timer|rdtsc|delay|ring_create|ring_free|mempool_create|mempool_lookup|pktmbuf_pool_create|memzone)|nanosleep|usleep' $files)
if [ -n "$bad" ]; then
	echo "DPDK calls past pmd_glue's seam (use nb_seam.h, nb_port.h, nb_pool.h):"
	echo "$bad"
	exit 1
fi
echo "the control path calls DPDK through pmd_glue's seam only"
