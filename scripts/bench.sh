#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Benchmark dpdk-nbench against dpdk-testpmd, side by side in one invocation,
# on virtual devices (no NIC needed):
#
#   1. net_null: pure generator cost. dpdk-nbench sends at --rate max from a
#      worker alone on CPU 1; testpmd txonly forwards from lcore 1 (CPU 1).
#   2. memif loopback in one process: dpdk-nbench sends on the memif server
#      port (CPU 1) and receives on the client port (CPU 0); testpmd io
#      forwarding on the same kind of pair, packets circulating (one core).
#   3. closed-loop TCP (--tcp, one connection) against open-loop UDP at
#      --rate max, both 1518 B over the memif loopback: goodput, the payload
#      bits per second delivered (issue 11's target: TCP >= 0.90 x UDP).
#   4. the same tool to tool: a responder and a client (--peer) in two
#      processes over one memif socket.
#   5. the sink: testpmd txonly feeds, over memif from another process,
#      dpdk-nbench receive-only (--rx-port alone) or testpmd rxonly, the
#      receiver alone on CPU 0.
#
# Prints the environment, every command exactly as run, and a table of Mpps
# with dpdk-nbench/testpmd ratios. Ratios only mean something within one
# invocation: the host is shared and its speed drifts between runs.
#
#   sudo scripts/bench.sh                 # 10 s per run, 64 B frames
#   sudo scripts/bench.sh --time 3 --size 128
#
# Exit status: 0 when every run completed (whichever tool was faster),
# 1 when a run failed, 2 on a usage error. See docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${NB_BUILD_DIR:-build}
NBENCH=$BUILD/app/dpdk-nbench
TESTPMD=dpdk-testpmd
HUGE_MNT=/dev/hugepages
RUNTIME_DIR=/var/run/dpdk
PY=/usr/bin/python3
# Time a process gets for EAL init, pool creation and port start, on top of
# the test itself, before timeout stops it and the run counts as failed.
STARTUP_BUDGET=60

usage() {
	cat <<EOF
Usage: sudo scripts/bench.sh [--time S] [--size B]

Runs dpdk-nbench and dpdk-testpmd one after the other on net_null and on a
memif pair, then prints Mpps for each and the dpdk-nbench/testpmd ratios.

Options:
  --time S   seconds each run measures, a whole number 1..3600 (default 10)
  --size B   frame size in bytes including the 4 B FCS, 64..1518 (default 64);
             testpmd gets --txpkts=B-4 (its lengths exclude the FCS)
  -h, --help show this help and exit

Environment:
  NB_BUILD_DIR  build directory (default build)

Needs root (hugepages) and 2 CPUs: lcore 1/CPU 1 runs the sender of both
tools, CPU 0 the rest. Exit status: 0 all runs completed, 1 a run failed,
2 usage error.
EOF
}

die_usage() {
	printf 'bench: %s\n\n' "$1" >&2
	usage >&2
	exit 2
}

time_s=10
size=64
while (($#)); do
	case "$1" in
	--time) (($# >= 2)) || die_usage "--time needs a value"; time_s=$2; shift ;;
	--time=*) time_s=${1#--time=} ;;
	--size) (($# >= 2)) || die_usage "--size needs a value"; size=$2; shift ;;
	--size=*) size=${1#--size=} ;;
	-h | --help) usage; exit 0 ;;
	*) die_usage "unknown option: $1" ;;
	esac
	shift
done
if ! [[ $time_s =~ ^[1-9][0-9]{0,3}$ ]] || ((time_s > 3600)); then
	die_usage "--time must be a whole number of seconds 1..3600, not '$time_s'"
fi
if ! [[ $size =~ ^[1-9][0-9]{1,3}$ ]] || ((size < 64 || size > 1518)); then
	die_usage "--size must be 64..1518 bytes, not '$size'"
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "bench: run as root (hugepages)" >&2
	exit 1
fi

bash scripts/setup.sh
[ -f "$BUILD/build.ninja" ] || meson setup "$BUILD"
ninja -C "$BUILD"
command -v "$TESTPMD" >/dev/null || {
	echo "bench: $TESTPMD not found (Debian package dpdk)" >&2
	exit 1
}

# ------------------------------------------------------------ process control

tmp=$(mktemp -d /tmp/nbench-bench.XXXXXX)
tag=nbb$$
PIDS=()     # timeout wrappers started and not yet reaped
PREFIXES=() # --file-prefix of every DPDK process started

cleanup() {
	local pid kid i
	trap - EXIT INT TERM
	# SIGINT to a timeout wrapper reaches its command (the DPDK process).
	for pid in "${PIDS[@]}"; do
		kill -INT "$pid" 2>/dev/null || true
	done
	for pid in "${PIDS[@]}"; do
		for ((i = 0; i < 50; i++)); do
			alive "$pid" || break
			sleep 0.2
		done
		if alive "$pid"; then
			kid=$(child_of "$pid")
			[ -z "$kid" ] || kill -KILL "$kid" 2>/dev/null || true
			kill -KILL "$pid" 2>/dev/null || true
		fi
		wait "$pid" 2>/dev/null || true
	done
	# testpmd leaves its hugepage files behind when stopped by a signal.
	for p in "${PREFIXES[@]}"; do
		rm -f "$HUGE_MNT/${p}map_"*
		rm -rf "${RUNTIME_DIR:?}/$p"
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'echo "bench: interrupted" >&2; exit 130' INT TERM

fail() {
	printf 'bench: error: %s\n' "$1" >&2
	if [ -n "${2:-}" ] && [ -s "$2" ]; then
		printf 'bench: last lines of %s:\n' "$(basename "$2")" >&2
		tail -n 15 "$2" | tr -d '\033' >&2
	fi
	exit 1
}

# start_bounded LIMIT OUT ERR CMD...: CMD in the background under timeout;
# sets BG_PID to the timeout wrapper's PID.
start_bounded() {
	local limit=$1 out=$2 err=$3
	shift 3
	if [ "$out" = "$err" ]; then
		timeout -k 5 "$limit" "$@" >"$out" 2>&1 </dev/null &
	else
		timeout -k 5 "$limit" "$@" >"$out" 2>"$err" </dev/null &
	fi
	BG_PID=$!
	PIDS+=("$BG_PID")
}

# reap PID: wait for a wrapper started by start_bounded; sets RC.
reap() {
	local pid=$1 keep=() p
	RC=0
	wait "$pid" || RC=$?
	for p in "${PIDS[@]}"; do
		[ "$p" = "$pid" ] || keep+=("$p")
	done
	PIDS=("${keep[@]}")
}

# The PID of the command a timeout wrapper runs (its only child).
child_of() {
	local kids first=
	kids=$(cat "/proc/$1/task/$1/children" 2>/dev/null || true)
	read -r first _ <<<"$kids" || true
	echo "$first"
}

# alive PID: the process exists and has not exited (a zombie has).
alive() {
	local st=Z
	read -r _ _ st _ 2>/dev/null <"/proc/$1/stat" || true
	[ "$st" != Z ]
}

# steal_snap: sets SNAP to "total steal", jiffies of all CPUs from /proc/stat
# (total = user..steal; guest time is already inside user).
steal_snap() {
	local us ni sy id io irq sirq st
	read -r _ us ni sy id io irq sirq st _ </proc/stat
	SNAP="$((us + ni + sy + id + io + irq + sirq + st)) $st"
}
# steal_pct "SNAP0" "SNAP1": sets STEAL, % of all CPU time the hypervisor
# took between the two.
steal_pct() {
	STEAL=$(awk -v a="$1" -v b="$2" 'BEGIN { split(a, x); split(b, y); d = y[1] - x[1]
		printf "%.1f", (d > 0 ? 100 * (y[2] - x[2]) / d : 0) }')
}

# CPU share of a busy-polling thread: how much of the time it was runnable
# it actually ran, from /proc/PID/task/TID/schedstat (ns on a CPU, ns
# waiting on a run queue). A busy-polling thread is always runnable, so
# anything below 100 % is time that other processes on the shared host took
# from it. share_reset; share_find PID NAME until it succeeds; share_sample
# as often as wanted; share_pct NAME sets SHARE.
declare -A THREAD RUN0 WAIT0 RUN1 WAIT1
share_reset() { THREAD=() RUN0=() WAIT0=() RUN1=() WAIT1=(); }
share_find() { share_find_as "$1" "$2" "$2"; }
# share_find_as PID NAME KEY: as share_find, the thread kept under KEY
# (two processes' threads of one name).
share_find_as() {
	local t comm
	for t in /proc/"$1"/task/*; do
		comm=
		read -r comm 2>/dev/null <"$t/comm" || true
		if [ "$comm" = "$2" ]; then
			THREAD[$3]=$t
			return 0
		fi
	done
	return 1
}
share_sample() {
	local k r w
	for k in "${!THREAD[@]}"; do
		read -r r w _ 2>/dev/null <"${THREAD[$k]}/schedstat" || continue
		[ -n "${RUN0[$k]:-}" ] || RUN0[$k]=$r WAIT0[$k]=$w
		RUN1[$k]=$r WAIT1[$k]=$w
	done
}
share_pct() {
	SHARE=n/a
	[ -n "${RUN0[$1]:-}" ] || return 0
	SHARE=$(awk -v r=$((RUN1[$1] - RUN0[$1])) -v w=$((WAIT1[$1] - WAIT0[$1])) 'BEGIN {
		if (r + w > 0) printf "%.1f", 100 * r / (r + w); else printf "n/a" }')
}

# Print a command so that it can be pasted into a shell.
show_cmd() {
	local a out='  $'
	for a in "$@"; do
		if [[ $a =~ ^[A-Za-z0-9_@%+=:,./-]+$ ]]; then
			out+=" $a"
		else
			out+=" $(printf '%q' "$a")"
		fi
	done
	printf '%s\n' "$out"
}

# ------------------------------------------------------------------- parsing

# nb_result JSON: "achieved_pps sent received received_seconds tx_dropped
# opackets(tx port) ipackets(rx port)"
nb_result() {
	"$PY" - "$1" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["end"]
ports = {p["role"]: p["pmd"] for p in e["ports"]}
r = e["sum_received"]
print(e["rate"]["achieved_pps"], e["sum_sent"]["packets"], r["packets"],
      r["seconds"], e["tx_dropped"], ports.get("tx", {}).get("opackets", 0),
      ports.get("rx", {}).get("ipackets", 0))
PY
}

# goodput JSON KIND: payload bits/s the receiver took in. KIND udp: frames
# received x their UDP payload (size - 46) x 8 / seconds; tcp: iperf3's
# sum_received.bits_per_second (stream bytes delivered in order).
goodput() {
	"$PY" - "$1" "$2" "$GP_SIZE" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if sys.argv[2] == "tcp":
    e = d["end"]
    assert d["nbench"]["bad_bytes"] == 0, "payload check failed"
    print("%.0f %d %d" % (e["sum_received"]["bits_per_second"],
                          e["sum_sent"]["retransmits"],
                          e["sum_received"]["bytes"]))
else:
    r = d["end"]["sum_received"]
    bits = r["packets"] * (int(sys.argv[3]) - 46) * 8
    print("%.0f 0 %d" % (bits / r["seconds"], r["packets"]))
PY
}

# tp_rate LOG FIELD PORT N: testpmd prints one stats block per --stats-period
# whose "Rx-pps:"/"Tx-pps:" cover the time since the previous block (the
# first block has none and shows 0). Uses blocks 2..N+1 of PORT:
# "median min max count".
tp_rate() {
	"$PY" - "$@" <<'PY'
import re, statistics, sys
log, field, port, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
vals, cur = [], None
for line in open(log, errors="replace"):
    m = re.search(r"NIC statistics for port (\d+)", line)
    if m:
        cur = int(m.group(1))
        continue
    m = re.search(field + r":\s+(\d+)", line)
    if m and cur == port:
        vals.append(int(m.group(1)))
vals = vals[1:n + 1]
if not vals:
    sys.exit("no %s lines for port %d in %s" % (field, port, log))
print(statistics.median(vals), min(vals), max(vals), len(vals))
PY
}

mpps() { awk -v v="$1" 'BEGIN { printf "%.2f", v / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "n/a" }'; }

# ---------------------------------------------------------------------- runs

# nb_launch NAME VDEV0 VDEV1 ARGS...: dpdk-nbench loopback port 0 -> port 1
# with ARGS; JSON in $tmp/NAME.json. Sets SHARE (of the sender, lcore 3),
# RX_SHARE (of the receiver, lcore 2) and STEAL.
nb_launch() {
	local name=$1 prefix=$tag$1 s0 pid v0=$2 v1=$3
	shift 3
	PREFIXES+=("$prefix")
	local cmd=("$NBENCH" --no-pci --lcores "0@0,1@0,2@0,3@1" --file-prefix "$prefix"
		--log-level lib.eal:error --vdev "$v0" --vdev "$v1"
		-- --tx-port 0 --rx-port 1 --time "$time_s" --json --interval 0 "$@")
	echo "== $name: dpdk-nbench, $time_s s, load average $(cut -d' ' -f1 /proc/loadavg)"
	show_cmd "${cmd[@]}"
	share_reset
	steal_snap
	s0=$SNAP
	start_bounded $((time_s + STARTUP_BUDGET)) "$tmp/$name.json" "$tmp/$name.err" "${cmd[@]}"
	while alive "$BG_PID"; do
		if [ -z "${THREAD[rte-worker-3]:-}" ] || [ -z "${THREAD[rte-worker-2]:-}" ]; then
			pid=$(child_of "$BG_PID")
			[ -z "$pid" ] || share_find "$pid" rte-worker-3 || true
			[ -z "$pid" ] || share_find "$pid" rte-worker-2 || true
		fi
		share_sample
		sleep 0.1
	done
	reap "$BG_PID"
	steal_snap
	steal_pct "$s0" "$SNAP"
	share_pct rte-worker-2
	RX_SHARE=$SHARE
	share_pct rte-worker-3
	((RC == 0)) || fail "dpdk-nbench ($name) exited with status $RC" "$tmp/$name.err"
}

# peer_launch NAME ARGS...: tool to tool: a responder (memif server, its
# worker lcore 2 on CPU 0 beside both control lcores) and a client (--peer
# ARGS, its worker lcore 2 on CPU 1) over one memif socket; the client's
# JSON in $tmp/NAME.json. Sets SHARE (the client's worker), RX_SHARE (the
# responder's) and STEAL.
peer_launch() {
	local name=$1 sock=$tmp/$1.sock s0 rwrap cwrap i
	shift
	PREFIXES+=("${tag}${name}r" "${tag}${name}c")
	local rsp=("$NBENCH" --no-pci --lcores "0@0,1@0,2@0" --file-prefix "${tag}${name}r"
		--log-level lib.eal:error
		--vdev "net_memif0,role=server,socket=$sock,rsize=14,mac=02:00:00:00:00:02"
		-- --one-off --max-rate 100G)
	local cli=("$NBENCH" --no-pci --lcores "0@0,1@0,2@1" --file-prefix "${tag}${name}c"
		--log-level lib.eal:error --vdev "net_memif0,role=client,socket=$sock,rsize=14"
		-- --peer 02:00:00:00:00:02 --time "$time_s" --json --interval 0 "$@")
	echo "== $name: responder and client, $time_s s, load average $(cut -d' ' -f1 /proc/loadavg)"
	show_cmd "${rsp[@]}"
	show_cmd "${cli[@]}"
	share_reset
	steal_snap
	s0=$SNAP
	start_bounded $((time_s + 3 * STARTUP_BUDGET)) "$tmp/$name.rsp" "$tmp/$name.rsp" "${rsp[@]}"
	rwrap=$BG_PID
	for ((i = 0; i < 10 * STARTUP_BUDGET; i++)); do
		grep -q "responder on port" "$tmp/$name.rsp" 2>/dev/null && break
		alive "$rwrap" || break
		sleep 0.1
	done
	start_bounded $((time_s + STARTUP_BUDGET)) "$tmp/$name.json" "$tmp/$name.err" "${cli[@]}"
	cwrap=$BG_PID
	while alive "$cwrap"; do
		[ -n "${THREAD[cli]:-}" ] || share_find_as "$(child_of "$cwrap")" rte-worker-2 cli || true
		[ -n "${THREAD[rsp]:-}" ] || share_find_as "$(child_of "$rwrap")" rte-worker-2 rsp || true
		share_sample
		sleep 0.1
	done
	reap "$cwrap"
	local crc=$RC
	reap "$rwrap"
	steal_snap
	steal_pct "$s0" "$SNAP"
	share_pct rsp
	RX_SHARE=$SHARE
	share_pct cli
	((crc == 0)) || fail "dpdk-nbench client ($name) exited with status $crc" "$tmp/$name.err"
}

# run_nbench NAME VDEV0 VDEV1: nb_launch at --rate max, $size B frames;
# sets NB_* from its JSON too.
run_nbench() {
	local name=$1
	nb_launch "$@" --rate max --size "$size"
	read -r NB_PPS NB_SENT NB_RCVD NB_RSECS NB_DROP NB_OPK NB_IPK < <(nb_result "$tmp/$name.json") ||
		fail "dpdk-nbench ($name): no JSON result" "$tmp/$name.err"
	NB_RPPS=$(awk -v p="$NB_RCVD" -v s="$NB_RSECS" 'BEGIN { printf "%.0f", (s > 0 ? p / s : 0) }')
	printf '  achieved %s Mpps; sent %s, received %s in %.3f s (%s Mpps); tx_dropped %s; PMD opackets %s, ipackets %s; CPU share sender %s%%, receiver %s%%; steal %s%%\n' \
		"$(mpps "$NB_PPS")" "$NB_SENT" "$NB_RCVD" "$NB_RSECS" "$(mpps "$NB_RPPS")" \
		"$NB_DROP" "$NB_OPK" "$NB_IPK" "$SHARE" "$RX_SHARE" "$STEAL"
}

# testpmd's lcores: main 0 and forwarding 1 on CPUs 0 and 1 (TP_CORES can
# move them: the sink pair puts both on CPU 0).
TP_CORES=(-l "0,1")

# run_testpmd NAME MODE EAL/testpmd args...: waits for time_s stats
# periods after the first, then stops testpmd with SIGINT by its PID.
# Fails unless testpmd forwarded in MODE (it falls back to io on a bad
# --forward-mode). Sets SHARE (of the forwarding lcore 1, over those
# periods) and STEAL.
run_testpmd() {
	local name=$1 mode=$2 prefix=$tag$1 log=$tmp/$1.log s0 deadline n pid=
	shift 2
	PREFIXES+=("$prefix")
	local cmd=("$TESTPMD" --no-pci "${TP_CORES[@]}" --file-prefix "$prefix" --log-level lib.eal:error "$@")
	echo "== $name: dpdk-testpmd, $time_s stats periods of 1 s after the first, load average $(cut -d' ' -f1 /proc/loadavg)"
	show_cmd "${cmd[@]}"
	share_reset
	: >"$log"
	start_bounded $((time_s + STARTUP_BUDGET)) "$log" "$log" "${cmd[@]}"
	deadline=$((SECONDS + time_s + STARTUP_BUDGET - 5))
	while :; do
		n=$(grep -c 'Port statistics ====' "$log" || true)
		if ((n >= 1)) && [ -z "${THREAD[rte-worker-1]:-}" ]; then
			pid=$(child_of "$BG_PID")
			[ -z "$pid" ] || share_find "$pid" rte-worker-1 || true
			share_sample
			steal_snap
			s0=$SNAP
		fi
		((n >= time_s + 1)) && break
		if ! alive "$BG_PID"; then
			reap "$BG_PID"
			fail "dpdk-testpmd ($name) exited early with status $RC" "$log"
		fi
		((SECONDS < deadline)) ||
			fail "dpdk-testpmd ($name): no statistics after $((time_s + STARTUP_BUDGET - 5)) s" "$log"
		sleep 0.1
	done
	share_sample
	steal_snap
	steal_pct "${s0:-$SNAP}" "$SNAP"
	share_pct rte-worker-1
	[ -n "$pid" ] || pid=$(child_of "$BG_PID")
	kill -INT "${pid:-$BG_PID}"
	reap "$BG_PID"
	# testpmd re-raises SIGINT after its cleanup: 130 is the normal end here.
	((RC == 0 || RC == 130)) || fail "dpdk-testpmd ($name) exited with status $RC" "$log"
	grep -q 'Bye' "$log" || fail "dpdk-testpmd ($name) did not shut down cleanly" "$log"
	grep -q "^$mode packet forwarding - ports=" "$log" ||
		fail "dpdk-testpmd ($name) did not run $mode forwarding: $(grep -m1 'packet forwarding - ports=' "$log" || true)"
}

# ---------------------------------------------------------------- environment

cpu_model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
dpdk_ver=$(pkg-config --modversion libdpdk 2>/dev/null || echo unknown)
tp_ver=$(dpkg-query -W -f='${Version}' dpdk 2>/dev/null || echo unknown)
echo
echo "environment: cpu '$cpu_model', nproc $(nproc), dpdk $dpdk_ver (pkg-config libdpdk), testpmd from package dpdk $tp_ver, kernel $(uname -r), $(date -u '+%Y-%m-%d %H:%M:%S UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
nb_ver=$("$NBENCH" --version 2>/dev/null || echo "dpdk-nbench ?")
git_rev=$(git describe --always --dirty 2>/dev/null || echo "no git")
echo "built: $nb_ver from git $git_rev"
echo "settings: --time $time_s s per run, frames $size B incl. FCS (dpdk-nbench --size $size, testpmd --txpkts=$((size - 4)))"
busy=$(ps -eo pid=,pcpu=,comm= | awk '$2 >= 50 { printf "%s%s (pid %s, %s%% CPU)", sep, $3, $1, $2; sep = ", " }')
echo "busy processes at start (50 % CPU or more over their life): ${busy:-none}"
[ "$(nproc)" -eq 2 ] || echo "note: the lcore maps assume 2 CPUs; this host has $(nproc)"
echo

# 1. net_null: generator cost
run_nbench null_nbench net_null0 net_null1,no-rx=1
null_nb_pps=$NB_PPS null_nb_drop=$NB_DROP null_nb_load=("$SHARE" "$RX_SHARE" "$STEAL")

run_testpmd null_testpmd txonly --vdev net_null0 \
	-- --forward-mode=txonly --txpkts=$((size - 4)) --nb-cores=1 --stats-period 1
null_tp_load=("$SHARE" "-" "$STEAL")
read -r null_tp_pps null_tp_min null_tp_max null_tp_n < <(tp_rate "$tmp/null_testpmd.log" Tx-pps 0 "$time_s") ||
	fail "dpdk-testpmd (null_testpmd): no Tx-pps lines" "$tmp/null_testpmd.log"
printf '  port 0 Tx-pps median %s Mpps over %s periods (min %s, max %s); sender CPU share %s%%, steal %s%%\n' \
	"$(mpps "$null_tp_pps")" "$null_tp_n" "$(mpps "$null_tp_min")" "$(mpps "$null_tp_max")" "${null_tp_load[0]}" "${null_tp_load[2]}"

# 2. memif loopback in one process; each process its own socket.
nsock=$tmp/nbench-memif.sock
run_nbench memif_nbench "net_memif0,role=server,socket=$nsock,rsize=14" \
	"net_memif1,role=client,socket=$nsock,rsize=14"
mem_nb_pps=$NB_PPS mem_nb_rpps=$NB_RPPS mem_nb_drop=$NB_DROP mem_nb_load=("$SHARE" "$RX_SHARE" "$STEAL")
mem_nb_sent=$NB_SENT mem_nb_rcvd=$NB_RCVD

tsock=$tmp/testpmd-memif.sock
run_testpmd memif_testpmd io \
	--vdev "net_memif0,role=server,socket=$tsock,rsize=14" \
	--vdev "net_memif1,role=client,socket=$tsock,rsize=14" \
	-- --forward-mode=io --tx-first --txpkts=$((size - 4)) --nb-cores=1 --stats-period 1
mem_tp_load=("$SHARE" "-" "$STEAL")
read -r mem_tp0 mem_tp0_min mem_tp0_max mem_tp_n < <(tp_rate "$tmp/memif_testpmd.log" Rx-pps 0 "$time_s") ||
	fail "dpdk-testpmd (memif_testpmd): no Rx-pps lines for port 0" "$tmp/memif_testpmd.log"
read -r mem_tp1 mem_tp1_min mem_tp1_max _ < <(tp_rate "$tmp/memif_testpmd.log" Rx-pps 1 "$time_s") ||
	fail "dpdk-testpmd (memif_testpmd): no Rx-pps lines for port 1" "$tmp/memif_testpmd.log"
mem_tp_mean=$(awk -v a="$mem_tp0" -v b="$mem_tp1" 'BEGIN { printf "%.0f", (a + b) / 2 }')
printf '  Rx-pps median port 0 %s Mpps (min %s, max %s), port 1 %s Mpps (min %s, max %s) over %s periods; sender CPU share %s%%, steal %s%%\n' \
	"$(mpps "$mem_tp0")" "$(mpps "$mem_tp0_min")" "$(mpps "$mem_tp0_max")" \
	"$(mpps "$mem_tp1")" "$(mpps "$mem_tp1_min")" "$(mpps "$mem_tp1_max")" "$mem_tp_n" "${mem_tp_load[0]}" "${mem_tp_load[2]}"

# 3. closed-loop TCP against open-loop UDP, 1518 B frames, the same memif
# pair kind: goodput (payload bits/s delivered).
GP_SIZE=1518
gsock=$tmp/nbench-gp-udp.sock
nb_launch gp_udp "net_memif0,role=server,socket=$gsock,rsize=14" \
	"net_memif1,role=client,socket=$gsock,rsize=14" --rate max --size "$GP_SIZE"
gp_udp_load=("$SHARE" "$RX_SHARE" "$STEAL")
read -r gp_udp _ gp_udp_n < <(goodput "$tmp/gp_udp.json" udp) ||
	fail "dpdk-nbench (gp_udp): no JSON result" "$tmp/gp_udp.err"
printf '  UDP goodput %s Gbit/s (%s frames); CPU share sender %s%%, receiver %s%%\n' \
	"$(awk -v v="$gp_udp" 'BEGIN { printf "%.2f", v / 1e9 }')" "$gp_udp_n" "${gp_udp_load[0]}" "${gp_udp_load[1]}"
gsock=$tmp/nbench-gp-tcp.sock
nb_launch gp_tcp "net_memif0,role=server,socket=$gsock,rsize=14" \
	"net_memif1,role=client,socket=$gsock,rsize=14" --tcp --size "$GP_SIZE"
gp_tcp_load=("$SHARE" "$RX_SHARE" "$STEAL")
read -r gp_tcp gp_tcp_retr gp_tcp_bytes < <(goodput "$tmp/gp_tcp.json" tcp) ||
	fail "dpdk-nbench (gp_tcp): no JSON result or a payload error" "$tmp/gp_tcp.err"
printf '  TCP goodput %s Gbit/s (%s bytes, %s retransmits); CPU share client %s%%, server %s%%\n' \
	"$(awk -v v="$gp_tcp" 'BEGIN { printf "%.2f", v / 1e9 }')" "$gp_tcp_bytes" "$gp_tcp_retr" "${gp_tcp_load[0]}" "${gp_tcp_load[1]}"

# 4. the same tool to tool (peer mode, two processes, issue 11's own
# setting): the client sends, the responder receives.
peer_launch pp_udp --rate max --size "$GP_SIZE"
pp_udp_load=("$SHARE" "$RX_SHARE" "$STEAL")
read -r pp_udp _ pp_udp_n < <(goodput "$tmp/pp_udp.json" udp) ||
	fail "dpdk-nbench (pp_udp): no JSON result" "$tmp/pp_udp.err"
printf '  UDP goodput %s Gbit/s (%s frames); CPU share client %s%%, responder %s%%\n' \
	"$(awk -v v="$pp_udp" 'BEGIN { printf "%.2f", v / 1e9 }')" "$pp_udp_n" "${pp_udp_load[0]}" "${pp_udp_load[1]}"
peer_launch pp_tcp --tcp --size "$GP_SIZE"
pp_tcp_load=("$SHARE" "$RX_SHARE" "$STEAL")
read -r pp_tcp pp_tcp_retr pp_tcp_bytes < <(goodput "$tmp/pp_tcp.json" tcp) ||
	fail "dpdk-nbench (pp_tcp): no JSON result or a payload error" "$tmp/pp_tcp.err"
printf '  TCP goodput %s Gbit/s (%s bytes, %s retransmits); CPU share client %s%%, responder %s%%\n' \
	"$(awk -v v="$pp_tcp" 'BEGIN { printf "%.2f", v / 1e9 }')" "$pp_tcp_bytes" "$pp_tcp_retr" "${pp_tcp_load[0]}" "${pp_tcp_load[1]}"

# 5. the sink: testpmd txonly (a memif server, both its lcores on CPU 1)
# feeds a receiver on CPU 0 in another process: dpdk-nbench receive-only
# (--rx-port alone) against testpmd rxonly, one after the other.
# sink_feed NAME: starts the feeder; FEED_PID its timeout wrapper.
sink_feed() {
	local name=$1 prefix=$tag$1
	PREFIXES+=("$prefix")
	local cmd=("$TESTPMD" --no-pci --lcores "0@1,1@1" --file-prefix "$prefix"
		--log-level lib.eal:error --vdev "net_memif0,role=server,socket=$tmp/$name.sock,rsize=14"
		-- --forward-mode=txonly --txpkts=$((size - 4)) --nb-cores=1 --stats-period 1)
	echo "== $name: the feeder, dpdk-testpmd txonly"
	show_cmd "${cmd[@]}"
	start_bounded $((time_s + 2 * STARTUP_BUDGET + 10)) "$tmp/$name.log" "$tmp/$name.log" "${cmd[@]}"
	FEED_PID=$BG_PID
	sleep 2
}
sink_stop() {
	local pid
	pid=$(child_of "$FEED_PID")
	kill -INT "${pid:-$FEED_PID}" 2>/dev/null || true
	reap "$FEED_PID"
}
sink_feed feed_nb
PREFIXES+=("${tag}sink_nb")
sink_cmd=("$NBENCH" --no-pci --lcores "0@0,1@0,2@0" --file-prefix "${tag}sink_nb"
	--log-level lib.eal:error --vdev "net_memif0,role=client,socket=$tmp/feed_nb.sock,rsize=14"
	-- --rx-port 0 --time "$time_s" --json --interval 0)
echo "== sink_nb: dpdk-nbench receive-only, $time_s s"
show_cmd "${sink_cmd[@]}"
share_reset
steal_snap
s0=$SNAP
start_bounded $((time_s + STARTUP_BUDGET)) "$tmp/sink_nb.json" "$tmp/sink_nb.err" "${sink_cmd[@]}"
while alive "$BG_PID"; do
	[ -n "${THREAD[rte-worker-2]:-}" ] || share_find "$(child_of "$BG_PID")" rte-worker-2 || true
	share_sample
	sleep 0.1
done
reap "$BG_PID"
((RC == 0)) || fail "dpdk-nbench (sink_nb) exited with status $RC" "$tmp/sink_nb.err"
steal_snap
steal_pct "$s0" "$SNAP"
share_pct rte-worker-2
sink_nb_load=("-" "$SHARE" "$STEAL")
sink_stop
read -r sink_nb_pps sink_nb_n sink_nb_pmd < <("$PY" - "$tmp/sink_nb.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["end"]
r = e["receive_only"]
print("%.0f %d %d" % (r["packets_per_second"], r["packets"],
                      e["ports"][0]["pmd"]["ipackets"]))
PY
) || fail "dpdk-nbench (sink_nb): no receive_only result" "$tmp/sink_nb.json"
printf '  received %s Mpps (%s frames; PMD ipackets %s); receiver CPU share %s%%, steal %s%%\n' \
	"$(mpps "$sink_nb_pps")" "$sink_nb_n" "$sink_nb_pmd" "${sink_nb_load[1]}" "${sink_nb_load[2]}"
sink_feed feed_tp
TP_CORES=(--lcores "0@0,1@0")
run_testpmd sink_testpmd rxonly \
	--vdev "net_memif0,role=client,socket=$tmp/feed_tp.sock,rsize=14" \
	-- --forward-mode=rxonly --nb-cores=1 --stats-period 1
TP_CORES=(-l "0,1")
sink_tp_load=("-" "$SHARE" "$STEAL")
sink_stop
read -r sink_tp_pps sink_tp_min sink_tp_max sink_tp_n < <(tp_rate "$tmp/sink_testpmd.log" Rx-pps 0 "$time_s") ||
	fail "dpdk-testpmd (sink_testpmd): no Rx-pps lines" "$tmp/sink_testpmd.log"
printf '  Rx-pps median %s Mpps (min %s, max %s) over %s periods; receiver CPU share %s%%, steal %s%%\n' \
	"$(mpps "$sink_tp_pps")" "$(mpps "$sink_tp_min")" "$(mpps "$sink_tp_max")" "$sink_tp_n" "${sink_tp_load[1]}" "${sink_tp_load[2]}"

# ---------------------------------------------------------------------- table

echo
echo "results: $size B frames incl. FCS, $time_s s per run, ratio = dpdk-nbench / testpmd"
echo "testpmd rate = median of its per-second Rx-pps/Tx-pps lines, periods 2..$((time_s + 1)) (the first line is always 0)"
echo "tx%/rx% = share of its runnable time a busy thread was on its CPU (the rest went to other processes on this shared host):"
echo "  tx% dpdk-nbench sender lcore 3 / testpmd forwarding lcore 1, both on CPU 1; rx% dpdk-nbench receiver lcore 2 on CPU 0"
echo "steal% = hypervisor steal over all CPUs"
row() { printf '%-9s %-44s %7s %6s %6s %6s %6s\n' "$@"; }
row test measure Mpps ratio tx% rx% steal%
row net_null "dpdk-nbench achieved_pps (TX)" "$(mpps "$null_nb_pps")" "$(ratio "$null_nb_pps" "$null_tp_pps")" "${null_nb_load[@]}"
row "" "testpmd txonly Tx-pps, port 0" "$(mpps "$null_tp_pps")" "" "${null_tp_load[@]}"
row memif "dpdk-nbench achieved_pps (TX)" "$(mpps "$mem_nb_pps")" "$(ratio "$mem_nb_pps" "$mem_tp_mean")" "${mem_nb_load[@]}"
row "" "dpdk-nbench received (packets / seconds)" "$(mpps "$mem_nb_rpps")" "$(ratio "$mem_nb_rpps" "$mem_tp_mean")" "" "" ""
row "" "testpmd io Rx-pps, port 0" "$(mpps "$mem_tp0")" "" "${mem_tp_load[@]}"
row "" "testpmd io Rx-pps, port 1" "$(mpps "$mem_tp1")" "" "" "" ""
row "" "testpmd io Rx-pps per port, mean of 0 and 1" "$(mpps "$mem_tp_mean")" "" "" "" ""
row sink "dpdk-nbench receive-only, from testpmd txonly" "$(mpps "$sink_nb_pps")" "$(ratio "$sink_nb_pps" "$sink_tp_pps")" "${sink_nb_load[@]}"
row "" "testpmd rxonly Rx-pps, from testpmd txonly" "$(mpps "$sink_tp_pps")" "" "${sink_tp_load[@]}"
echo
echo "dpdk-nbench tx_dropped: net_null $null_nb_drop, memif $mem_nb_drop; memif sent $mem_nb_sent, received $mem_nb_rcvd"
gbit() { awk -v v="$1" 'BEGIN { printf "%.2f", v / 1e9 }'; }
echo
echo "closed-loop TCP against open-loop UDP, memif loopback, 1518 B, $time_s s each (target: TCP >= 0.90 x UDP, issue 11):"
row test measure Gbit/s ratio tx% rx% steal%
row tcp "dpdk-nbench --tcp goodput (1 connection)" "$(gbit "$gp_tcp")" "$(ratio "$gp_tcp" "$gp_udp")" "${gp_tcp_load[@]}"
row "" "dpdk-nbench UDP goodput, --rate max" "$(gbit "$gp_udp")" "" "${gp_udp_load[@]}"
echo "the same tool to tool (--peer, a responder in another process; tx% the client's worker, rx% the responder's):"
row peer "dpdk-nbench --tcp goodput (1 connection)" "$(gbit "$pp_tcp")" "$(ratio "$pp_tcp" "$pp_udp")" "${pp_tcp_load[@]}"
row "" "dpdk-nbench UDP goodput, --rate max" "$(gbit "$pp_udp")" "" "${pp_udp_load[@]}"
echo "memif ratios: dpdk-nbench's one direction (sender CPU 1, receiver CPU 0) against testpmd's rate per port, where one core (CPU 1) forwards both directions"
