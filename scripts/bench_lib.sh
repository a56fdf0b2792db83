# SPDX-License-Identifier: BSD-3-Clause
# Helpers of scripts/bench.sh, sourced by it (not run on its own): process
# control (every process under timeout, stopped by its PID), the load
# columns (CPU share of busy threads, hypervisor steal) and the parsers of
# each tool's output. bench.sh sets tmp, tag, HUGE_MNT, RUNTIME_DIR and PY
# before sourcing this file; SHOW_CMDS=1 makes show_cmd print.

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

# Print a command so that it can be pasted into a shell (only while
# SHOW_CMDS is 1: bench.sh shows each command once, in a comparison's first
# pair; the later pairs run the same commands with fresh prefixes).
show_cmd() {
	local a out='  $'
	[ "${SHOW_CMDS:-1}" = 1 ] || return 0
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


# ------------------------------------------------------------------ launchers

# announce NAME WHAT: the line before a run's command (with SHOW_CMDS).
announce() {
	[ "${SHOW_CMDS:-1}" = 1 ] || return 0
	echo "  == $1: $2, load average $(cut -d' ' -f1 /proc/loadavg)"
}

# nb_launch NAME VDEV0 VDEV1 ARGS...: dpdk-nbench loopback port 0 -> port 1
# with ARGS; JSON in $tmp/NAME.json. Sets SHARE (of the sender, lcore 3),
# RX_SHARE (of the receiver, lcore 2) and STEAL. NB_INTERVAL (default 0)
# is its --interval; with NB_STATS=1 the stats lcore's thread (lcore 1) is
# sampled too: STATS_NS, its time on a CPU over the process's life.
nb_launch() {
	local name=$1 prefix=$tag$1 s0 pid v0=$2 v1=$3
	shift 3
	PREFIXES+=("$prefix")
	local cmd=("$NBENCH" --no-pci --lcores "0@0,1@0,2@0,3@1" --file-prefix "$prefix"
		--log-level lib.eal:error --vdev "$v0" --vdev "$v1"
		-- --tx-port 0 --rx-port 1 --time "$time_s" --json --interval "${NB_INTERVAL:-0}" "$@")
	announce "$name" "dpdk-nbench, $time_s s"
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
		if [ "${NB_STATS:-0}" = 1 ] && [ -z "${THREAD[rte-worker-1]:-}" ]; then
			pid=$(child_of "$BG_PID")
			[ -z "$pid" ] || share_find "$pid" rte-worker-1 || true
		fi
		share_sample
		sleep 0.1
	done
	reap "$BG_PID"
	steal_snap
	steal_pct "$s0" "$SNAP"
	STATS_NS=$((${RUN1[rte-worker-1]:-0} - ${RUN0[rte-worker-1]:-0}))
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
	local name=$1 sock=$tmp/$1.sock key=$tmp/$1.key s0 rwrap cwrap i
	shift
	PREFIXES+=("${tag}${name}r" "${tag}${name}c")
	# both ends hold one key (a responder serves key holders only)
	(umask 077 && head -c 32 /dev/urandom | base64 >"$key")
	local rsp=("$NBENCH" --no-pci --lcores "0@0,1@0,2@0" --file-prefix "${tag}${name}r"
		--log-level lib.eal:error
		--vdev "net_memif0,role=server,socket=$sock,rsize=14,mac=02:00:00:00:00:02"
		-- --one-off --max-rate 100G --auth-key "$key")
	local cli=("$NBENCH" --no-pci --lcores "0@0,1@0,2@1" --file-prefix "${tag}${name}c"
		--log-level lib.eal:error --vdev "net_memif0,role=client,socket=$sock,rsize=14"
		-- --peer 02:00:00:00:00:02 --auth-key "$key" --time "$time_s" --json
		--interval 0 "$@")
	announce "$name" "responder and client, $time_s s"
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

# testpmd's lcores: main 0 and forwarding 1 on CPUs 0 and 1 (TP_CORES can
# move them: the sink puts both on CPU 0).
TP_CORES=(-l "0,1")

# run_testpmd NAME MODE EAL/testpmd args...: waits for time_s stats
# periods after the first, then stops testpmd with SIGINT by its PID.
# Fails unless testpmd forwarded in MODE (it falls back to io on a bad
# --forward-mode). Sets SHARE (of the forwarding lcore 1, over those
# periods) and STEAL. FEED_KEY, when set, names a thread already found
# (share_find_as) whose share is sampled over the same periods.
run_testpmd() {
	local name=$1 mode=$2 prefix=$tag$1 log=$tmp/$1.log s0 deadline n pid=
	shift 2
	PREFIXES+=("$prefix")
	local cmd=("$TESTPMD" --no-pci "${TP_CORES[@]}" --file-prefix "$prefix" --log-level lib.eal:error "$@")
	announce "$name" "dpdk-testpmd, $time_s stats periods of 1 s after the first"
	show_cmd "${cmd[@]}"
	local keep=${FEED_KEY:-} kt=
	[ -z "$keep" ] || kt=${THREAD[$keep]:-}
	share_reset
	[ -z "$kt" ] || THREAD[$keep]=$kt
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
	[ -z "$keep" ] || { share_pct "$keep"; FEED_SHARE=$SHARE; }
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

# feed_start NAME: testpmd txonly as a memif server on $tmp/NAME.sock, both
# its lcores on CPU 1, for a sink to receive from; FEED_PID is its timeout
# wrapper, its forwarding thread kept as share key "feed". feed_stop ends it.
feed_start() {
	local name=$1 prefix=$tag$1 i pid
	PREFIXES+=("$prefix")
	local cmd=("$TESTPMD" --no-pci --lcores "0@1,1@1" --file-prefix "$prefix"
		--log-level lib.eal:error --vdev "net_memif0,role=server,socket=$tmp/$name.sock,rsize=14"
		-- --forward-mode=txonly --txpkts=$((size - 4)) --nb-cores=1 --stats-period 1)
	announce "$name" "the feeder, dpdk-testpmd txonly"
	show_cmd "${cmd[@]}"
	start_bounded $((time_s + 2 * STARTUP_BUDGET + 10)) "$tmp/$name.log" "$tmp/$name.log" "${cmd[@]}"
	FEED_PID=$BG_PID
	share_reset
	for ((i = 0; i < 10 * STARTUP_BUDGET; i++)); do
		grep -q 'Port statistics ====' "$tmp/$name.log" 2>/dev/null && break
		alive "$FEED_PID" || fail "the feeder ($name) exited early" "$tmp/$name.log"
		sleep 0.1
	done
	pid=$(child_of "$FEED_PID")
	for ((i = 0; i < 50; i++)); do
		share_find_as "$pid" rte-worker-1 feed && break
		sleep 0.1
	done
}
feed_stop() {
	local pid
	pid=$(child_of "$FEED_PID")
	kill -INT "${pid:-$FEED_PID}" 2>/dev/null || true
	reap "$FEED_PID"
}

# kernel_pair NAME SERVER_CPU CLIENT_CPU "SERVER CMD" "CLIENT CMD": a
# kernel-socket tool's server on one CPU and its client on the other, over
# 127.0.0.1; the client's output in $tmp/NAME.out. Sets STEAL.
kernel_pair() {
	local name=$1 scpu=$2 ccpu=$3 s0 swrap i
	local -a srv cli
	read -r -a srv <<<"$4"
	read -r -a cli <<<"$5"
	announce "$name" "$(basename "${srv[0]}") over the kernel's loopback, $time_s s"
	show_cmd taskset -c "$scpu" "${srv[@]}"
	show_cmd taskset -c "$ccpu" "${cli[@]}"
	steal_snap
	s0=$SNAP
	start_bounded $((time_s + STARTUP_BUDGET)) "$tmp/$name.srv" "$tmp/$name.srv" taskset -c "$scpu" "${srv[@]}"
	swrap=$BG_PID
	sleep 0.5
	start_bounded $((time_s + STARTUP_BUDGET)) "$tmp/$name.out" "$tmp/$name.cerr" taskset -c "$ccpu" "${cli[@]}"
	reap "$BG_PID"
	local crc=$RC
	kill -INT "$(child_of "$swrap")" 2>/dev/null || true
	for ((i = 0; i < 50; i++)); do
		alive "$swrap" || break
		sleep 0.1
	done
	reap "$swrap"
	steal_snap
	steal_pct "$s0" "$SNAP"
	((crc == 0)) || fail "$(basename "${cli[0]}") client ($name) exited with status $crc" "$tmp/$name.cerr"
}
