#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Only pmd_glue/ and the worker loops (app/worker/) call ethdev or create
# mempools; everything else goes through pmd_glue/nb_port.h.
cd "$(dirname "$0")/../.." || exit 1
bad=$(grep -rnE 'rte_eth_|rte_pktmbuf_pool_create' app --include='*.c' \
	--include='*.h' | grep -v '^app/worker/')
if [ -n "$bad" ]; then
	echo "ethdev or mempool calls outside pmd_glue/ and app/worker/:"
	echo "$bad"
	exit 1
fi
echo "no ethdev or mempool call outside pmd_glue/ and app/worker/"
