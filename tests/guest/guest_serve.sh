#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# In the test guest (a "!" case of guest_run.sh): a responder on the NIC
# facing the host (00:0a.0, virtio, vfio-pci) with the host's key, for the
# host's own client (test_guest.py's serve_guest): a forward and a
# reverse test, then its --quit.  What tells the host when to start is
# the line this script writes to the console (/dev/console is the
# guest's serial port, the host's console.log):
#   nbserve: responder up        the responder serves
#   nbserve: end RC              its exit status
# The responder's output is in out/serve-resp.{out,err}.
set -u
out=/job/out
./dpdk-nbench --lcores 0@0,1@0,2@1 --file-prefix serve -a 0000:00:0a.0 \
	--log-level lib.eal:error -- --auth-key /job/host.key --allow-quit \
	>"$out/serve-resp.out" 2>"$out/serve-resp.err" &
rpid=$!
# shellcheck source=tests/guest/guest_lib.sh
. ./lib.sh
# the responder's first line says it serves; one that does not start
# ends the case (the host runs no client then)
if ! wait_for_line "$out/serve-resp.out" "responder on port 0" $rpid; then
	reap $rpid 1
	echo "nbserve: end 1" >/dev/console
	exit 1
fi
echo "nbserve: responder up" >/dev/console
# the host's client ends it with --quit (its three runs take 60 s at
# most each: hostside.py)
reap $rpid 200
rc=$?
echo "nbserve: end $rc" >/dev/console
exit "$rc"
