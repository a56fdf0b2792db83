#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Benchmark dpdk-nbench against dpdk-testpmd and the kernel's own tools on
# virtual devices (no NIC needed), robust to a shared, noisy host: each
# comparison runs its two sides alternately, A B A B ..., in --pairs pairs
# of short runs, and its figure is the median of the pairs' ratios A/B,
# printed with their range and every run's CPU share. A pair in which a
# busy-polling thread of either run had less than --min-share of its CPU is
# run again (up to --retries times) and otherwise left out, and says so.
# So is a pair under which the host itself changed: each side runs twice,
# A B A' B', and when A and A' (or B and B') differ by more than
# --max-drift the pair measured two different hosts (on the reference VM
# the same run gives 11-13 or 30-38 Mpps from one minute to the next,
# whichever tool runs); a counted pair's A is the mean of A and A', its B
# the mean of B and B'.
#
# Comparisons (--only picks some, by key):
#   gen       net_null, --size B: dpdk-nbench's generator (--rate max, every
#             frame stamped and checksummed) against testpmd txonly.
#   gen1518   the same at 1518 B.
#   memif     memif loopback in one process, one direction: dpdk-nbench's
#             received rate against testpmd io's rate per port.
#   sink      testpmd txonly feeds over memif from another process:
#             dpdk-nbench receive-only against testpmd rxonly.
#   kernel    dpdk-nbench's memif loopback against iperf3 UDP over the
#             kernel's loopback, frames of the same size.
#   pingpong  round-trip p50: dpdk-nbench --pingpong tool to tool over memif
#             against sockperf UDP ping-pong over the kernel's loopback.
#   tcp       closed-loop TCP (--tcp) against open-loop UDP, goodput, 1518 B,
#             memif loopback (issue 11's target: TCP >= 0.90 x UDP).
#   peertcp   the same tool to tool (a responder in another process).
#   vxlan     net_null, the generator: VXLAN over IPv4 around a 64 B inner
#             frame (114 B) against plain 64 B frames (issue 35's target:
#             >= 0.90).
#   vxlanloop the same over the memif loopback, received pps (memif copies
#             the 50 B more of each frame too).
#   flows     net_null, the generator with 65,536 RFC 4814 flows (each
#             frame's ports written from its flow's record) against
#             testpmd txonly (one fixed flow), --size B (issue 35's target:
#             >= 1.00).
#   flowsink  the memif loopback's received pps with 65,536 flows (the sink
#             counts each flow: sequence, loss, latency bins) against the
#             same with one flow a stream (target: >= 0.95).
#   pacing    not a pair: dpdk-nbench paced at 1, 5 and 10 Gbit/s L1 with
#             1518 B frames and at 1 Gbit/s with 64 B, achieved against
#             requested, --pace-time s each.
#   stats     not a pair: the stats lcore's CPU time per 1 s interval at 1,
#             64 and 1024 streams (target: under 1 % of a CPU).
#
#   sudo scripts/bench.sh                          # everything, 5 pairs of 5 s runs
#   sudo scripts/bench.sh --only gen,sink --pairs 7 --time 3
#
# Exit status: 0 when every run completed (whatever the figures), 1 when a
# run failed, 2 on a usage error. See docs/performance.md.
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
ALL_KEYS=gen,gen1518,memif,sink,kernel,pingpong,tcp,peertcp,vxlan,vxlanloop,flows,flowsink,pacing,stats

usage() {
	cat <<EOF
Usage: sudo scripts/bench.sh [--time S] [--size B] [--pairs N]
                             [--min-share P] [--retries R] [--only KEYS]
                             [--pace-time S] [--max-drift P]

Runs dpdk-nbench against dpdk-testpmd (and iperf3/sockperf over the
kernel's loopback) in alternating pairs of runs and prints, per comparison,
the median ratio over the pairs with its range and each run's CPU share.

Options:
  --time S       seconds each run of a pair measures, 1..3600 (default 5)
  --size B       frame size in bytes including the 4 B FCS, 64..1518
                 (default 64); testpmd gets --txpkts=B-4
  --pairs N      pairs of runs per comparison, 1..99 (default 5)
  --min-share P  a pair counts only if every busy-polling thread of both
                 runs had at least P % of its CPU, 0..100 (default 95)
  --retries R    times a pair below --min-share or past --max-drift is
                 run again before it is left out, 0..9 (default 2)
  --max-drift P  each side runs twice (A B A' B'); a pair counts only if
                 A and A', and B and B', differ by at most P % of the
                 larger, 0..100 (default 25; 0: A B, no check)
  --only KEYS    comma-separated subset of $ALL_KEYS
                 (default all)
  --pace-time S  seconds of each pacing and stats run, 1..3600 (default 10)
  -h, --help     show this help and exit

Environment:
  NB_BUILD_DIR  build directory (default build)

Needs root (hugepages) and 2 CPUs: the sender of each tool on CPU 1, the
rest on CPU 0. Exit status: 0 all runs completed, 1 a run failed, 2 usage
error.
EOF
}

die_usage() {
	printf 'bench: %s\n\n' "$1" >&2
	usage >&2
	exit 2
}

time_s=5 size=64 pairs=5 min_share=95 retries=2 only=$ALL_KEYS pace_time=10
max_drift=25
while (($#)); do
	case "$1" in
	--time | --size | --pairs | --min-share | --retries | --only | --pace-time | \
		--max-drift)
		(($# >= 2)) || die_usage "$1 needs a value"
		opt=${1#--} val=$2
		shift
		;;
	--*=*) opt=${1%%=*} opt=${opt#--} val=${1#*=} ;;
	-h | --help) usage; exit 0 ;;
	*) die_usage "unknown option: $1" ;;
	esac
	case "$opt" in
	time) time_s=$val ;;
	size) size=$val ;;
	pairs) pairs=$val ;;
	min-share) min_share=$val ;;
	retries) retries=$val ;;
	only) only=$val ;;
	pace-time) pace_time=$val ;;
	max-drift) max_drift=$val ;;
	*) die_usage "unknown option: --$opt" ;;
	esac
	shift
done
whole() { [[ $1 =~ ^[0-9]{1,4}$ ]] && ((10#$1 >= $2 && 10#$1 <= $3)); }
whole "$time_s" 1 3600 || die_usage "--time must be a whole number of seconds 1..3600, not '$time_s'"
whole "$size" 64 1518 || die_usage "--size must be 64..1518 bytes, not '$size'"
whole "$pairs" 1 99 || die_usage "--pairs must be 1..99, not '$pairs'"
whole "$min_share" 0 100 || die_usage "--min-share must be a whole percentage 0..100, not '$min_share'"
whole "$retries" 0 9 || die_usage "--retries must be 0..9, not '$retries'"
whole "$pace_time" 1 3600 || die_usage "--pace-time must be a whole number of seconds 1..3600, not '$pace_time'"
whole "$max_drift" 0 100 || die_usage "--max-drift must be a whole percentage 0..100, not '$max_drift'"
time_s=$((10#$time_s)) size=$((10#$size)) pairs=$((10#$pairs))
min_share=$((10#$min_share)) retries=$((10#$retries)) pace_time=$((10#$pace_time))
max_drift=$((10#$max_drift))
declare -A WANT
IFS=, read -r -a keys <<<"$only"
((${#keys[@]})) || die_usage "--only needs at least one of $ALL_KEYS"
for k in "${keys[@]}"; do
	[[ ,$ALL_KEYS, == *",$k,"* ]] || die_usage "--only: unknown comparison '$k' (known: $ALL_KEYS)"
	WANT[$k]=1
done

if [ "$(id -u)" -ne 0 ]; then
	echo "bench: run as root (hugepages)" >&2
	exit 1
fi

bash scripts/setup.sh
[ -f "$BUILD/build.ninja" ] || meson setup "$BUILD"
ninja -C "$BUILD"
need() {
	command -v "$1" >/dev/null || {
		echo "bench: $1 not found (Debian package $2; scripts/setup.sh installs it)" >&2
		exit 1
	}
}
need "$TESTPMD" dpdk
[ -z "${WANT[kernel]:-}" ] || need iperf3 iperf3
[ -z "${WANT[pingpong]:-}" ] || need sockperf sockperf

tmp=$(mktemp -d /tmp/nbench-bench.XXXXXX)
tag=nbb$$
# shellcheck source=scripts/bench_lib.sh
. scripts/bench_lib.sh
trap cleanup EXIT
trap 'echo "bench: interrupted" >&2; exit 130' INT TERM

# ------------------------------------------------------------------- figures
#
# Each fig_* NAME runs one side of a comparison once and sets VAL (its
# figure), LOAD ("label=share% ...", the CPU share of each busy-polling
# thread; empty for the kernel tools, whose threads sleep in the kernel),
# STEAL and DETAIL (the counters behind VAL, printed under the pair).

free_port() { echo $((20000 + RANDOM % 20000)); }

nb_gen() { # NAME SIZE [ARGS...]
	nb_launch "$1" net_null0 net_null1,no-rx=1 --rate max --size "$2" "${@:3}"
	local pps sent rcvd rs drop opk ipk
	read -r pps sent rcvd rs drop opk ipk < <(nb_result "$tmp/$1.json") ||
		fail "dpdk-nbench ($1): no JSON result" "$tmp/$1.err"
	VAL=$pps LOAD="tx=$SHARE rx=$RX_SHARE"
	DETAIL="sent $sent (PMD opackets $opk), tx_dropped $drop"
}
tp_gen() { # NAME SIZE
	run_testpmd "$1" txonly --vdev net_null0 \
		-- --forward-mode=txonly --txpkts=$(($2 - 4)) --nb-cores=1 --stats-period 1
	local med lo hi n
	read -r med lo hi n < <(tp_rate "$tmp/$1.log" Tx-pps 0 "$time_s") ||
		fail "dpdk-testpmd ($1): no Tx-pps lines" "$tmp/$1.log"
	VAL=$med LOAD="fwd=$SHARE" DETAIL="Tx-pps median of $n periods, min $(mpps "$lo"), max $(mpps "$hi") Mpps"
}
fig_gen_a() { nb_gen "$1" "$size"; }
fig_gen_b() { tp_gen "$1" "$size"; }
fig_gen1518_a() { nb_gen "$1" 1518; }
fig_gen1518_b() { tp_gen "$1" 1518; }

nb_memif() { # NAME ARGS...: memif loopback in one process, its own socket
	local name=$1
	shift
	nb_launch "$name" "net_memif0,role=server,socket=$tmp/$name.sock,rsize=14" \
		"net_memif1,role=client,socket=$tmp/$name.sock,rsize=14" "$@"
}
nb_memif_rx() { # NAME ARGS...: the memif loopback's received pps
	nb_memif "$@"
	local pps sent rcvd rs drop opk ipk
	read -r pps sent rcvd rs drop opk ipk < <(nb_result "$tmp/$1.json") ||
		fail "dpdk-nbench ($1): no JSON result" "$tmp/$1.err"
	VAL=$(awk -v p="$rcvd" -v s="$rs" 'BEGIN { printf "%.0f", (s > 0 ? p / s : 0) }')
	LOAD="tx=$SHARE rx=$RX_SHARE"
	DETAIL="received $rcvd in $rs s (sent $sent at $(mpps "$pps") Mpps; PMD opackets $opk, ipackets $ipk; tx_dropped $drop)"
}
fig_memif_a() { nb_memif_rx "$1" --rate max --size "$size"; }
# VXLAN around a 64 B inner frame (114 B outer) against the plain 64 B:
# the generator alone (net_null), then generator and sink (memif)
fig_vxlan_a() { nb_gen "$1" 114 --encap vxlan:1; }
fig_vxlan_b() { nb_gen "$1" 64; }
fig_vxlanloop_a() { nb_memif_rx "$1" --rate max --size 114 --encap vxlan:1; }
fig_vxlanloop_b() { nb_memif_rx "$1" --rate max --size 64; }
# --flows 65536 (RFC 4814 ports) against testpmd's one flow, and the
# sink counting 65,536 flows against one flow a stream
fig_flows_a() { nb_gen "$1" "$size" --flows 65536; }
fig_flows_b() { tp_gen "$1" "$size"; }
fig_flowsink_a() { nb_memif_rx "$1" --rate max --size "$size" --flows 65536; }
fig_flowsink_b() { nb_memif_rx "$1" --rate max --size "$size"; }
fig_memif_b() {
	run_testpmd "$1" io \
		--vdev "net_memif0,role=server,socket=$tmp/$1.sock,rsize=14" \
		--vdev "net_memif1,role=client,socket=$tmp/$1.sock,rsize=14" \
		-- --forward-mode=io --tx-first --txpkts=$((size - 4)) --nb-cores=1 --stats-period 1
	local p0 p1 n
	read -r p0 _ _ n < <(tp_rate "$tmp/$1.log" Rx-pps 0 "$time_s") ||
		fail "dpdk-testpmd ($1): no Rx-pps lines for port 0" "$tmp/$1.log"
	read -r p1 _ _ _ < <(tp_rate "$tmp/$1.log" Rx-pps 1 "$time_s") ||
		fail "dpdk-testpmd ($1): no Rx-pps lines for port 1" "$tmp/$1.log"
	VAL=$(awk -v a="$p0" -v b="$p1" 'BEGIN { printf "%.0f", (a + b) / 2 }')
	LOAD="fwd=$SHARE"
	DETAIL="Rx-pps medians over $n periods: port 0 $(mpps "$p0"), port 1 $(mpps "$p1") Mpps (one core forwards both directions)"
}

fig_sink_a() {
	local name=$1 s0
	feed_start "${name}f"
	PREFIXES+=("$tag$name")
	local cmd=("$NBENCH" --no-pci --lcores "0@0,1@0,2@0" --file-prefix "$tag$name"
		--log-level lib.eal:error --vdev "net_memif0,role=client,socket=$tmp/${name}f.sock,rsize=14"
		-- --rx-port 0 --time "$time_s" --json --interval 0)
	announce "$name" "dpdk-nbench receive-only, $time_s s"
	show_cmd "${cmd[@]}"
	steal_snap
	s0=$SNAP
	start_bounded $((time_s + STARTUP_BUDGET)) "$tmp/$name.json" "$tmp/$name.err" "${cmd[@]}"
	while alive "$BG_PID"; do
		[ -n "${THREAD[rte-worker-2]:-}" ] || share_find "$(child_of "$BG_PID")" rte-worker-2 || true
		share_sample
		sleep 0.1
	done
	reap "$BG_PID"
	local rc=$RC
	steal_snap
	steal_pct "$s0" "$SNAP"
	feed_stop
	((rc == 0)) || fail "dpdk-nbench ($name) exited with status $rc" "$tmp/$name.err"
	share_pct feed
	LOAD="feed=$SHARE"
	share_pct rte-worker-2
	LOAD="rx=$SHARE $LOAD"
	local pps n ipk miss nombuf
	read -r pps n ipk miss nombuf < <("$PY" - "$tmp/$name.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["end"]
r, p = e["receive_only"], e["ports"][0]["pmd"]
print("%.0f %d %d %d %d" % (r["packets_per_second"], r["packets"], p["ipackets"],
                            p.get("imissed", 0), p.get("rx_nombuf", 0)))
PY
	) || fail "dpdk-nbench ($name): no receive_only result" "$tmp/$name.json"
	VAL=$pps DETAIL="received $n (PMD ipackets $ipk, imissed $miss, rx_nombuf $nombuf)"
}
fig_sink_b() {
	feed_start "${1}f"
	TP_CORES=(--lcores "0@0,1@0")
	FEED_KEY=feed run_testpmd "$1" rxonly \
		--vdev "net_memif0,role=client,socket=$tmp/${1}f.sock,rsize=14" \
		-- --forward-mode=rxonly --nb-cores=1 --stats-period 1
	TP_CORES=(-l "0,1")
	LOAD="rx=$SHARE feed=$FEED_SHARE"
	feed_stop
	local med lo hi n
	read -r med lo hi n < <(tp_rate "$tmp/$1.log" Rx-pps 0 "$time_s") ||
		fail "dpdk-testpmd ($1): no Rx-pps lines" "$tmp/$1.log"
	VAL=$med DETAIL="Rx-pps median of $n periods, min $(mpps "$lo"), max $(mpps "$hi") Mpps"
}

fig_kernel_a() { fig_memif_a "$@"; }
fig_kernel_b() {
	local port
	port=$(free_port)
	kernel_pair "$1" 0 1 "iperf3 -s -1 -p $port" \
		"iperf3 -c 127.0.0.1 -p $port -u -b 0 -l $((size - 46 > 16 ? size - 46 : 16)) -t $time_s -J"
	local pps rcvd lost secs
	read -r pps rcvd lost secs < <("$PY" - "$tmp/$1.out" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["end"]["sum"]
got = s["packets"] - s["lost_packets"]
print("%.0f %d %d %.3f" % (got / s["seconds"], got, s["lost_packets"], s["seconds"]))
PY
	) || fail "iperf3 ($1): no JSON result" "$tmp/$1.out"
	VAL=$pps LOAD="" DETAIL="iperf3 receiver: $rcvd datagrams in $secs s, $lost lost"
}

fig_pingpong_a() {
	peer_launch "$1" --pingpong --size 64
	LOAD="cli=$SHARE rsp=$RX_SHARE"
	local p50 n lost
	read -r p50 n lost < <("$PY" - "$tmp/$1.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["end"]["rtt"]
print(r["p50_ns"], r["count"], r["probes_lost"])
PY
	) || fail "dpdk-nbench ($1): no end.rtt" "$tmp/$1.json"
	VAL=$p50 DETAIL="RTT p50 $p50 ns over $n round trips, $lost lost"
}
fig_pingpong_b() {
	local port
	port=$(free_port)
	kernel_pair "$1" 0 1 "sockperf server -i 127.0.0.1 -p $port" \
		"sockperf ping-pong -i 127.0.0.1 -p $port -t $time_s -m 18 --full-rtt"
	local p50 n
	read -r p50 n < <("$PY" - "$tmp/$1.out" <<'PY'
import re, sys
t = open(sys.argv[1], errors="replace").read()
p = re.search(r"percentile 50\.000 =\s+([0-9.]+)", t)
n = re.search(r"SentMessages=(\d+)", t)
if not p:
    sys.exit("no percentile 50 line")
print("%.0f %s" % (float(p.group(1)) * 1000, n.group(1) if n else "?"))
PY
	) || fail "sockperf ($1): no percentile 50 line" "$tmp/$1.out"
	VAL=$p50 LOAD="" DETAIL="RTT p50 $p50 ns (sockperf --full-rtt, 18 B messages), $n sent"
}

# goodput_of NAME KIND: VAL = payload bits/s delivered, DETAIL its counts.
goodput_of() {
	local bps retr n
	read -r bps retr n < <(goodput "$tmp/$1.json" "$2") ||
		fail "dpdk-nbench ($1): no JSON result or a payload error" "$tmp/$1.json"
	VAL=$bps
	if [ "$2" = tcp ]; then
		DETAIL="$n bytes delivered in order, $retr retransmits"
	else
		DETAIL="$n frames received"
	fi
}
GP_SIZE=1518
fig_tcp_a() { nb_memif "$1" --tcp --size "$GP_SIZE"; LOAD="tx=$SHARE rx=$RX_SHARE"; goodput_of "$1" tcp; }
fig_tcp_b() { nb_memif "$1" --rate max --size "$GP_SIZE"; LOAD="tx=$SHARE rx=$RX_SHARE"; goodput_of "$1" udp; }
fig_peertcp_a() { peer_launch "$1" --tcp --size "$GP_SIZE"; LOAD="cli=$SHARE rsp=$RX_SHARE"; goodput_of "$1" tcp; }
fig_peertcp_b() { peer_launch "$1" --rate max --size "$GP_SIZE"; LOAD="cli=$SHARE rsp=$RX_SHARE"; goodput_of "$1" udp; }

# ----------------------------------------------------------------- the pairs

# low_shares "label=pct ...": the shares below --min-share, or nothing.
low_shares() {
	local kv out=
	for kv in $1; do
		awk -v v="${kv#*=}" -v m="$min_share" 'BEGIN { exit !(v == "n/a" || v + 0 < m) }' &&
			out+="${out:+, }${kv%%=*} ${kv#*=}%"
	done
	echo "$out"
}

# drift_mean X Y: "D M", D how far apart in % of the larger, M the mean.
drift_mean() {
	awk -v a="$1" -v c="$2" 'BEGIN {
		m = (a > c) ? a : c
		d = (m > 0) ? 100 * ((a > c) ? a - c : c - a) / m : 0
		printf "%.1f %.0f\n", d, (a + c) / 2 }'
}

ROWS=() # "key|A|B|unit|median|min|max|counted|left out|target"
# compare KEY A B UNIT TARGET: --pairs pairs of fig_KEY_a, fig_KEY_b.
# UNIT mpps, gbit or ns; TARGET ">=X", "<=X" or "-".
compare() {
	local key=$1 an=$2 bn=$3 unit=$4 target=$5 i try va vb la lb sa sb da db low r
	local vc lc sc vd ld sd drift driftb why
	local ratios=() left=0
	echo
	echo "## $key: A = $an, B = $bn; $pairs pairs, $time_s s per run"
	for ((i = 1; i <= pairs; i++)); do
		for ((try = 0; ; try++)); do
			SHOW_CMDS=$((i == 1 && try == 0 ? 1 : 0))
			"fig_${key}_a" "${key}${i}t${try}a"
			va=$VAL la=$LOAD sa=$STEAL da=$DETAIL
			"fig_${key}_b" "${key}${i}t${try}b"
			vb=$VAL lb=$LOAD sb=$STEAL db=$DETAIL
			drift=0 driftb=0 vc= lc= sc= vd= ld= sd=
			if ((max_drift > 0)); then
				"fig_${key}_a" "${key}${i}t${try}c"
				vc=$VAL lc=$LOAD sc=$STEAL
				"fig_${key}_b" "${key}${i}t${try}d"
				vd=$VAL ld=$LOAD sd=$STEAL
				read -r drift va < <(drift_mean "$va" "$vc")
				read -r driftb vb < <(drift_mean "$vb" "$vd")
			fi
			r=$(awk -v a="$va" -v b="$vb" 'BEGIN { if (b > 0) printf "%.4f", a / b; else printf "n/a" }')
			low=$(low_shares "$(echo "$la" | sed 's/\([a-z]*\)=/A.\1=/g') $(echo "$lc" | sed 's/\([a-z]*\)=/A2.\1=/g') $(echo "$lb" | sed 's/\([a-z]*\)=/B.\1=/g') $(echo "$ld" | sed 's/\([a-z]*\)=/B2.\1=/g')")
			printf '  pair %d%s: A %s, B %s %s, ratio %s; CPU share A %s, B %s; steal A %s%%, B %s%%\n' \
				"$i" "$( ((try == 0)) || echo " (try $((try + 1)))")" "$(fmt "$unit" "$va")" "$(fmt "$unit" "$vb")" \
				"$unit" "$r" "${la:-(kernel tool)}" "${lb:-(kernel tool)}" "$sa" "$sb"
			((max_drift == 0)) ||
				printf "    A is the mean of A and A' (%s, run after B): they differ by %s %%; CPU share A' %s, steal %s%%\n    B is the mean of B and B' (%s, run after A'): they differ by %s %%; CPU share B' %s, steal %s%%\n" \
					"$(fmt "$unit" "$vc")" "$drift" "${lc:-(kernel tool)}" "$sc" \
					"$(fmt "$unit" "$vd")" "$driftb" "${ld:-(kernel tool)}" "$sd"
			printf '    A: %s\n    B: %s\n' "$da" "$db"
			why=
			[ -z "$low" ] || why="$low below $min_share %"
			[ "$r" != n/a ] || why="${why:+$why, }no ratio"
			awk -v d="$drift" -v m="$max_drift" 'BEGIN { exit !(m > 0 && d > m) }' &&
				why="${why:+$why, }A and A' $drift % apart (the host changed; --max-drift $max_drift)"
			awk -v d="$driftb" -v m="$max_drift" 'BEGIN { exit !(m > 0 && d > m) }' &&
				why="${why:+$why, }B and B' $driftb % apart (the host changed; --max-drift $max_drift)"
			if [ -z "$why" ]; then
				ratios+=("$r")
				break
			fi
			if ((try < retries)); then
				echo "    not counted: $why; running the pair again"
			else
				echo "    left out: $why after $((retries + 1)) tries"
				left=$((left + 1))
				break
			fi
		done
	done
	SHOW_CMDS=1
	local med=n/a lo=n/a hi=n/a
	if ((${#ratios[@]})); then
		read -r med lo hi < <(printf '%s\n' "${ratios[@]}" | "$PY" -c '
import statistics, sys
v = [float(x) for x in sys.stdin.read().split()]
print("%.2f %.2f %.2f" % (statistics.median(v), min(v), max(v)))')
	fi
	echo "  => median ratio $med over ${#ratios[@]} pairs (range $lo..$hi), $left left out"
	ROWS+=("$key|$an|$bn|$med|$lo|$hi|${#ratios[@]}|$left|$target")
}

fmt() {
	case "$1" in
	Mpps) mpps "$2" ;;
	Gbit/s) awk -v v="$2" 'BEGIN { printf "%.2f", v / 1e9 }' ;;
	*) printf '%s' "$2" ;;
	esac
}

# pacing: dpdk-nbench at RATE with SIZE B frames over the memif loopback.
PACE_ROWS=()
pace() {
	local rate=$1 sz=$2 name=pace$1_$2 t=$time_s
	time_s=$pace_time
	nb_memif "$name" --rate "$rate" --size "$sz" --gaps
	time_s=$t
	local row
	row=$("$PY" - "$tmp/$name.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["end"]
r, rx = e["rate"], e["sum_received"]
g = rx["gaps"]
req, got = r["requested_l1_bits_per_second"], r["achieved_l1_bits_per_second"]
rxl1 = rx["l1_bits_per_second"]
err = 100.0 * (got - req) / req
print("%.4f %.4f %+.4f %.4f %+.4f %s %d %d %d %d %d %d %.2f %.2f" % (
      req / 1e9, got / 1e9, err, rxl1 / 1e9, 100.0 * (rxl1 - req) / req,
      "yes" if abs(err) <= 0.05 else "NO", e["sum_sent"]["packets"],
      rx["packets"], g["ideal_ns"], g["p1_ns"], g["p50_ns"], g["p99_ns"],
      g["within_64ns_percent"], g["within_256ns_percent"]))
PY
	) || fail "dpdk-nbench ($name): no JSON result" "$tmp/$name.err"
	PACE_ROWS+=("$rate $sz $row $SHARE $RX_SHARE $STEAL")
	echo "  $rate at $sz B: requested, achieved (TX), error %, received, error %, within 0.05 %, sent, received, gap ideal/p1/p50/p99 ns, % within 64/256 ns: $row; CPU share tx $SHARE%, rx $RX_SHARE%"
}

# stats: the stats lcore's time on a CPU (its thread's schedstat, over the
# whole process: start-up and the final report included, so an upper
# bound) per 1 s interval, with N streams at 1 Gbit/s of 512 B frames.
STATS_ROWS=()
stats_cost() {
	local n=$1 name=stats$1 t=$time_s
	time_s=$pace_time
	NB_INTERVAL=1 NB_STATS=1 nb_memif "$name" --rate 1G --size 512 --streams "$n"
	time_s=$t
	local ivs
	ivs=$("$PY" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["intervals"]))' \
		"$tmp/$name.json") || fail "dpdk-nbench ($name): no JSON result" "$tmp/$name.err"
	((ivs > 0)) || fail "dpdk-nbench ($name): no intervals" "$tmp/$name.json"
	local per pct
	per=$(awk -v ns="$STATS_NS" -v n="$ivs" 'BEGIN { printf "%.0f", ns / n / 1000 }')
	pct=$(awk -v ns="$STATS_NS" -v n="$ivs" 'BEGIN { printf "%.3f", ns / n / 1e9 * 100 }')
	STATS_ROWS+=("$n $ivs $per $pct $SHARE $RX_SHARE")
	echo "  $n streams: stats lcore on a CPU $((STATS_NS / 1000)) us over $ivs intervals: $per us per interval, $pct % of a CPU at 1 s intervals; CPU share tx $SHARE%, rx $RX_SHARE%"
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
echo "settings: $pairs pairs per comparison of $time_s s runs (A B A' B' ...), a pair counted when every busy thread had >= $min_share % of its CPU and A and A', B and B' are within $max_drift % (0: A B alone; else run again up to $retries times), frames $size B incl. FCS (testpmd --txpkts=$((size - 4)))"
busy=$(ps -eo pid=,pcpu=,comm= | awk '$2 >= 50 { printf "%s%s (pid %s, %s%% CPU)", sep, $3, $1, $2; sep = ", " }')
echo "busy processes at start (50 % CPU or more over their life): ${busy:-none}"
[ "$(nproc)" -eq 2 ] || echo "note: the lcore maps assume 2 CPUs; this host has $(nproc)"
echo "CPU share = of the time a busy-polling thread was runnable, the share it ran (/proc/PID/task/TID/schedstat); tx = dpdk-nbench's sender, rx its receiver, fwd = testpmd's forwarding lcore, feed = the feeding testpmd, cli/rsp = client's and responder's workers"

want() { [ -n "${WANT[$1]:-}" ]; }
want gen && compare gen "dpdk-nbench TX achieved_pps, net_null, $size B" "testpmd txonly Tx-pps" Mpps ">=1.10"
want gen1518 && compare gen1518 "dpdk-nbench TX achieved_pps, net_null, 1518 B" "testpmd txonly Tx-pps, 1518 B" Mpps "-"
want memif && compare memif "dpdk-nbench memif loopback, received pps, one direction" "testpmd io Rx-pps per port" Mpps ">=1.00"
want sink && compare sink "dpdk-nbench receive-only from testpmd txonly" "testpmd rxonly from testpmd txonly" Mpps ">=1.00"
want kernel && compare kernel "dpdk-nbench memif loopback, received pps" "iperf3 UDP over the kernel loopback, received pps" Mpps "-"
want pingpong && compare pingpong "dpdk-nbench --pingpong RTT p50, memif, tool to tool" "sockperf UDP ping-pong RTT p50, kernel loopback" ns "<=0.10"
want tcp && compare tcp "dpdk-nbench --tcp goodput, memif loopback, 1518 B" "dpdk-nbench UDP goodput at --rate max" Gbit/s ">=0.90"
want vxlan && compare vxlan "dpdk-nbench TX achieved_pps, net_null, VXLAN, 64 B inner (114 B)" "dpdk-nbench TX achieved_pps, net_null, plain 64 B" Mpps ">=0.90"
want vxlanloop && compare vxlanloop "dpdk-nbench memif loopback, VXLAN, 64 B inner (114 B)" "dpdk-nbench memif loopback, plain 64 B" Mpps "-"
want flows && compare flows "dpdk-nbench TX achieved_pps, net_null, 65,536 RFC 4814 flows, $size B" "testpmd txonly Tx-pps, one flow" Mpps ">=1.00"
want flowsink && compare flowsink "dpdk-nbench memif loopback, 65,536 flows counted" "dpdk-nbench memif loopback, one flow a stream" Mpps ">=0.95"
want peertcp && compare peertcp "dpdk-nbench --tcp goodput, tool to tool, 1518 B" "dpdk-nbench UDP goodput at --rate max, tool to tool" Gbit/s ">=0.90"
if want pacing; then
	echo
	echo "## pacing: dpdk-nbench paced over the memif loopback, $pace_time s each"
	pace 1G 1518
	pace 5G 1518
	pace 10G 1518
	pace 1G 64
fi
if want stats; then
	echo
	echo "## stats: the stats lcore's CPU time per 1 s interval, memif loopback, 1 Gbit/s of 512 B frames, $pace_time s each"
	stats_cost 1
	stats_cost 64
	stats_cost 1024
fi

# ---------------------------------------------------------------------- table

((${#ROWS[@]} == 0)) || {
	echo
	echo "results: ratio = A / B, the median over the pairs counted (range over them); $time_s s runs, $size B frames unless the row says otherwise"
	printf '%-9s %7s %-13s %-8s %-8s %s\n' test ratio range counted "left out" "target (met?)"
}
for r in "${ROWS[@]}"; do
	IFS='|' read -r k an bn med lo hi n left target <<<"$r"
	met=-
	if [ "$target" != - ] && [ "$med" != n/a ]; then
		met=$(awk -v m="$med" -v t="${target:2}" -v op="${target:0:2}" \
			'BEGIN { print ((op == ">=" ? m >= t : m <= t) ? "met" : "NOT met") }')
	fi
	printf '%-9s %7s %-13s %-8s %-8s %s\n' "$k" "$med" "$lo..$hi" "$n" "$left" "$target ($met)"
done
if ((${#PACE_ROWS[@]})); then
	echo
	echo "pacing ($pace_time s each, memif loopback; L1 Gbit/s; within = TX error inside +-0.05 %;"
	echo "gaps = the receiver's inter-arrival gaps of each stream (--gaps): ideal, p1/p50/p99 ns, % within +-64 / +-256 ns of the ideal):"
	printf '%-5s %5s %9s %9s %8s %9s %8s %-6s %7s %7s %7s %7s %6s %6s %5s %5s %6s\n' rate size requested achieved "err %" received "err %" within ideal p1 p50 p99 "64ns%" "256ns%" tx% rx% steal%
	for r in "${PACE_ROWS[@]}"; do
		read -r rate sz req got err rxl1 rxerr within _ _ ideal p1 p50 p99 w64 w256 tx rx st <<<"$r"
		printf '%-5s %5s %9s %9s %8s %9s %8s %-6s %7s %7s %7s %7s %6s %6s %5s %5s %6s\n' "$rate" "$sz" "$req" "$got" "$err" "$rxl1" "$rxerr" "$within" "$ideal" "$p1" "$p50" "$p99" "$w64" "$w256" "$tx" "$rx" "$st"
	done
fi
if ((${#STATS_ROWS[@]})); then
	echo
	echo "stats lcore ($pace_time s each, 1 s intervals; its on-CPU time over the whole process, an upper bound; target under 1 % of a CPU):"
	printf '%8s %9s %14s %12s %6s %6s\n' streams intervals "us/interval" "% of a CPU" tx% rx%
	for r in "${STATS_ROWS[@]}"; do
		read -r n ivs per pct tx rx <<<"$r"
		printf '%8s %9s %14s %12s %6s %6s\n' "$n" "$ivs" "$per" "$pct" "$tx" "$rx"
	done
fi
