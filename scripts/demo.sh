#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Set up, build, then run a real 5-second loopback test: a memif server and
# client pair in one process face each other; port 0 sends 64 B UDP frames
# at 1 Gbit/s (L1) and port 1 receives, counting loss, reorder and latency.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${NB_BUILD_DIR:-build}

if [ "$(id -u)" -ne 0 ]; then
	echo "scripts/demo.sh: run as root (hugepages)" >&2
	exit 1
fi
bash scripts/setup.sh
[ -f "$BUILD/build.ninja" ] || meson setup "$BUILD"
ninja -C "$BUILD"

sock=$(mktemp -u /tmp/nbench-demo-XXXXXX.sock)
# On 2 CPUs: control and stats sleep and share CPU 0 with one worker (the
# receiver); the sender has CPU 1 to itself.
lcores="0@0,1@0,2@0,3@1"
set -x
"$BUILD/app/dpdk-nbench" --no-pci --lcores "$lcores" \
	--file-prefix "nbdemo$$" --log-level lib.eal:error \
	--vdev "net_memif0,role=server,socket=$sock,rsize=14" \
	--vdev "net_memif1,role=client,socket=$sock,rsize=14" \
	-- --tx-port 0 --rx-port 1 --rate "${NB_DEMO_RATE:-1G}" \
	--size "${NB_DEMO_SIZE:-64}" --time "${NB_DEMO_TIME:-5}"
