#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# In the test guest (a "!" case of guest_run.sh): a peer test across the
# e1000e pair, a responder on 00:05.0 (vCPU 0) and a client on 00:04.0
# (vCPU 1), 12 s at 2,000 frames/s in 0.5-s intervals.  The host takes
# the client's link down and up with QEMU's monitor (set_link) while the
# test runs; what tells it when are the lines this script writes to the
# console (/dev/console is the guest's serial port, the host's
# console.log):
#   nbflap: interval N down S    each interval's link_down_seconds
#   nbflap: end RC               the client's exit status
# The client's report is in out/flap.txt and out/flap.json, the
# responder's output in
# out/flap-resp.{out,err}.
set -u
out=/job/out
key=$out/flap.key
(umask 077 && head -c 32 /dev/urandom | base64 >"$key")
RESP_MAC=02:00:00:e0:00:01
./dpdk-nbench --lcores 0@0,1@0,2@0 --file-prefix flapr -a 0000:00:05.0 \
	--log-level lib.eal:error -- --auth-key "$key" --allow-quit \
	>"$out/flap-resp.out" 2>"$out/flap-resp.err" &
rpid=$!
# shellcheck source=tests/guest/guest_lib.sh
. ./lib.sh
# the responder's first line says it serves
wait_for_line "$out/flap-resp.out" "responder on port 0" $rpid
echo "nbflap: responder up" >/dev/console
./dpdk-nbench --lcores 0@1,1@1,2@1 --file-prefix flapc -a 0000:00:04.0 \
	--log-level lib.eal:error -- --auth-key "$key" --peer $RESP_MAC \
	--rate 2000pps --streams 2 --time 12 --interval 0.5 --peer-timeout 10 \
	--json-file "$out/flap.json" 2>"$out/flap.err" | tee "$out/flap.txt" |
	python3 -u -c '
import re, sys
n = 0
for line in sys.stdin:
    if not line.startswith("[SUM]"):
        continue
    m = re.search(r"\(link down (\d+\.\d+) s\)", line)
    print("nbflap: interval %d down %s" % (n, m.group(1) if m else "0"),
          flush=True)
    n += 1
' >/dev/console
rc=${PIPESTATUS[0]}
echo "nbflap: end $rc" >/dev/console
./dpdk-nbench --lcores 0@1,1@1,2@1 --file-prefix flapq -a 0000:00:04.0 \
	--log-level lib.eal:error -- --auth-key "$key" --peer $RESP_MAC \
	--quit >"$out/flap-quit.out" 2>&1
# the responder ends on the --quit; one that does not is ended here (30 s),
# and its status says so
reap $rpid 30
echo "responder exit $?" >"$out/flap-resp.rc"
exit "$rc"
