#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The TCP worker's per-segment code (app/worker/nb_tcp_engine.c above
# NB_TCP_PER_SEGMENT_END) reads no configuration from the job: it is
# specialised on constants (nb_tcp_job_select), as the UDP engines are.
# Flags that only choose a branch may not appear there at all; fields that
# are also data (a histogram, a pool, a message size) may not be tested.
f="${NB_CHECK_FILE:-$(dirname "$0")/../../app/worker/nb_tcp_engine.c}"
body=$(awk '/NB_TCP_PER_SEGMENT_END/ { exit } { printf "%d:%s\n", NR, $0 }' "$f")
if ! grep -q NB_TCP_PER_SEGMENT_END "$f"; then
	echo "$f: no NB_TCP_PER_SEGMENT_END marker"
	exit 1
fi
flags='(server|sends|accept_any|mac_bind|rx_csum_hw|cap\.rate|ctl_rings|ctl_rings_peer)\b'
data='(owd|pp_msg|zc_pool|rtt)\b'
bad=$(printf '%s\n' "$body" | grep -E -e "->$flags" -e "cfg->" \
	-e "!\(?[a-z_]+->$data" -e "->$data *(!=|==|&&|\|\||\?)" \
	-e "(if|while) \([a-z_]+->$data\)" -e "(&&|\|\|) *[a-z_]+->$data *\)")
if [ -n "$bad" ]; then
	printf '%s\n' "$bad"
	echo "nb_tcp_engine.c: a per-segment read of configuration (see above)"
	exit 1
fi
echo "nb_tcp_engine.c: no per-segment configuration read"
