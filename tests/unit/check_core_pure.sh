#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# app/core is pure: no DPDK symbol or header may appear in it.
cd "$(dirname "$0")/../../app/core" || exit 1
if grep -n 'rte_' ./*.c ./*.h meson.build; then
	echo "app/core must not mention rte_ (see docs/architecture.md)"
	exit 1
fi
echo "app/core: no rte_ references"
