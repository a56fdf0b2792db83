#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The long soak: one responder serves clients back to back (UDP size
# sweeps, TCP, reverse, bidir, RFC 2544 loss suites, four client
# identities, every 10th client killed mid-test) for hours, as
# tests/e2e/test_soak.py does for about 2 minutes (tests/e2e/soak_run.py does the
# work).  Writes, into --out (default build/soak):
#   soak.csv   a sample every --every seconds: time, clients, killed,
#              sessions, the responder's RSS (kB), open fds, mbufs in use
#              and pool size, refusals, per-interval throughput (Mbit/s)
#   soak.png   memory and per-interval throughput over time
#   soak.log   the driver's output (one line per sample, then the totals)
# Takes the e2e lock (/tmp/nb-e2e.lock) for the whole run: the machine's
# timing-sensitive tests are serialized on it.  Needs root, hugepages
# (scripts/setup.sh) and a build (NBENCH_BIN, default build/app/dpdk-nbench).
#
#   sudo scripts/soak.sh --hours 1
#   sudo scripts/soak.sh --minutes 10 --every 5
# Exit status: 0 when every client's counts were exact, 1 otherwise, 2 on a
# usage error.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
	sed -n '3,21p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}

secs=""
out=build/soak
every=10
while [ $# -gt 0 ]; do
	case $1 in
	--hours) secs=$(awk -v h="${2:?}" 'BEGIN { print h * 3600 }'); shift ;;
	--minutes) secs=$(awk -v m="${2:?}" 'BEGIN { print m * 60 }'); shift ;;
	--out) out=${2:?}; shift ;;
	--every) every=${2:?}; shift ;;
	-h | --help) usage ;;
	*) echo "soak.sh: unknown argument $1" >&2; usage ;;
	esac
	shift
done
[ -n "$secs" ] || usage
bin=${NBENCH_BIN:-$PWD/build/app/dpdk-nbench}
[ -x "$bin" ] || { echo "soak.sh: no dpdk-nbench at $bin (build first)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)

rc=0
NBENCH_BIN=$bin NB_E2E_LOGS=$out/logs PYTHONPATH=tests/e2e \
	flock /tmp/nb-e2e.lock /usr/bin/python3 tests/e2e/soak_run.py \
	--seconds "$secs" --every "$every" --csv "$out/soak.csv" \
	2>&1 | tee "$out/soak.log" || rc=$?
/usr/bin/python3 scripts/nbench_plot_soak.py "$out/soak.csv" "$out/soak.png"
exit $rc
