#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# dpdk-nbench against stock iperf3 (3.12), each side in turn, over one veth
# pair between two network namespaces, in alternating pairs of runs:
#
#   client  dpdk-nbench --iperf3 (af_packet on pb)   -> iperf3 -s (pa)
#           iperf3 -c (the kernel on pb)              -> iperf3 -s (pa)
#   server  iperf3 -c (pa) -> dpdk-nbench --iperf3-server (af_packet on pb)
#           iperf3 -c (pa) -> iperf3 -s (the kernel on pb)
#
# TCP, one stream, --time seconds each; the figure is the receiver's
# goodput as iperf3 reports it (the server's log for the client rows, the
# client's -J for the server rows), with each end's CPU share (user and
# system time over wall, % of one CPU, by /usr/bin/time).  The
# kernel side's checksum offloads are off (af_packet hands on what the
# veth carries).  Prints one line per run and the medians; exits 1 if a
# run failed.  Needs root, hugepages (scripts/setup.sh), iperf3.
#
#   sudo scripts/bench_iperf3.sh [--pairs N] [--time S] [--bin PATH]
set -euo pipefail
cd "$(dirname "$0")/.."

pairs=3
time_s=5
bin=build/app/dpdk-nbench
while [ $# -gt 0 ]; do
	case "$1" in
	--pairs) pairs=$2; shift 2 ;;
	--time) time_s=$2; shift 2 ;;
	--bin) bin=$2; shift 2 ;;
	-h | --help) sed -n '3,20p' "$0"; exit 0 ;;
	*) echo "bench_iperf3.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
[[ $pairs =~ ^[1-9][0-9]?$ && $time_s =~ ^[1-9][0-9]?$ ]] || {
	echo "bench_iperf3.sh: --pairs and --time take 1..99" >&2
	exit 2
}
[ "$(id -u)" -eq 0 ] || { echo "bench_iperf3.sh: run as root" >&2; exit 1; }
[ -x "$bin" ] || { echo "bench_iperf3.sh: no $bin (build first)" >&2; exit 1; }
command -v iperf3 >/dev/null || { echo "bench_iperf3.sh: no iperf3" >&2; exit 1; }

PY=/usr/bin/python3
A=nbip3a$$ B=nbip3b$$
tmp=$(mktemp -d /tmp/bench_iperf3.XXXXXX)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	ip netns del "$A" 2>/dev/null || true
	ip netns del "$B" 2>/dev/null || true
}
trap cleanup EXIT
ip netns add "$A"
ip netns add "$B"
ip link add pa netns "$A" type veth peer name pb netns "$B"
for ns in "$A" "$B"; do
	ip -n "$ns" link set lo up
done
ip -n "$A" link set pa up
ip -n "$B" link set pb up
ip -n "$A" addr add 10.81.0.2/24 dev pa
ip netns exec "$A" ethtool -K pa tx off tso off gso off >/dev/null
ip netns exec "$B" ethtool -K pb tx off tso off gso off >/dev/null

eal=(--no-pci --lcores 0@0,1@0,2@0,3@1 --log-level lib.eal:error
	--vdev net_af_packet0,iface=pb)
port=5201

# pb's kernel address: for the kernel's runs only (for the tool's, the
# kernel would answer its ARP and reset its TCP)
kernel_ip() {
	ip -n "$B" addr flush dev pb
	[ "$1" = on ] && ip -n "$B" addr add 10.81.0.1/24 dev pb
	ip -n "$A" neigh flush dev pa
}

wait_listen() { # NS PORT
	for _ in $(seq 100); do
		ip netns exec "$1" ss -Htln "sport = :$2" | grep -q . && return
		sleep 0.05
	done
	echo "bench_iperf3.sh: nothing listens on $2" >&2
	exit 1
}

# rate FILE KEY: the bits/s of an iperf3 -J file's end.KEY
rate() {
	"$PY" - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
if "error" in d:
    sys.exit(d["error"])
print("%.0f" % d["end"][sys.argv[2]]["bits_per_second"])
EOF
}

# Each process runs under /usr/bin/time: its CPU share (user + system
# over wall, % of one CPU; a busy-polling lcore is about 100 alone).
T=(/usr/bin/time -f %P -o)

# the tool's server is up once it says so (it has no kernel socket)
wait_nb() { # LOG
	for _ in $(seq 200); do
		grep -q "iperf3 server on port" "$1" 2>/dev/null && return
		sleep 0.05
	done
	echo "bench_iperf3.sh: the tool's server did not start ($1)" >&2
	exit 1
}

run_client() { # KIND (nb|k) N: "bits/s client% server%"
	local log="$tmp/cli$1$2.json" s
	kernel_ip "$([ "$1" = k ] && echo on || echo off)"
	ip netns exec "$A" "${T[@]}" "$tmp/cli$1$2.scpu" iperf3 -s -1 -J \
		--logfile "$log" -p $port >/dev/null 2>&1 &
	s=$!
	pids+=("$s")
	wait_listen "$A" $port
	if [ "$1" = nb ]; then
		ip netns exec "$B" "${T[@]}" "$tmp/cli$1$2.ccpu" "$bin" \
			"${eal[@]}" --file-prefix nbip3$$ -- --ip 10.81.0.1 \
			--iperf3 10.81.0.2:$port --tcp --time "$time_s" \
			>"$tmp/cli$1$2.out" 2>&1
	else
		ip netns exec "$B" "${T[@]}" "$tmp/cli$1$2.ccpu" iperf3 -c \
			10.81.0.2 -p $port -t "$time_s" >"$tmp/cli$1$2.out" 2>&1
	fi
	wait "$s"
	# the server's log: what it received
	echo "$(rate "$log" sum_received) $(tr -d % <"$tmp/cli$1$2.ccpu") $(tr -d % <"$tmp/cli$1$2.scpu")"
}

run_server() { # KIND (nb|k) N: "bits/s client% server%"
	local out="$tmp/srv$1$2.json" s
	kernel_ip "$([ "$1" = k ] && echo on || echo off)"
	if [ "$1" = nb ]; then
		ip netns exec "$B" "${T[@]}" "$tmp/srv$1$2.scpu" "$bin" \
			"${eal[@]}" --file-prefix nbip3s$$ -- --ip 10.81.0.1 \
			--iperf3-server $port --one-off --max-rate 100G \
			--max-time 600 >"$tmp/srv$1$2.log" 2>&1 &
		s=$!
		pids+=("$s")
		wait_nb "$tmp/srv$1$2.log"
	else
		ip netns exec "$B" "${T[@]}" "$tmp/srv$1$2.scpu" iperf3 -s -1 \
			-p $port >/dev/null 2>&1 &
		s=$!
		pids+=("$s")
		wait_listen "$B" $port
	fi
	ip netns exec "$A" "${T[@]}" "$tmp/srv$1$2.ccpu" iperf3 -c 10.81.0.1 \
		-p $port -t "$time_s" -J >"$out" 2>&1 || true
	wait "$s" || true
	echo "$(rate "$out" sum_received) $(tr -d % <"$tmp/srv$1$2.ccpu") $(tr -d % <"$tmp/srv$1$2.scpu")"
}

printf "%-8s %-22s %12s %9s %9s\n" run side Gbit/s cli-cpu srv-cpu
status=0
for side in client server; do
	for i in $(seq "$pairs"); do
		for kind in nb k; do
			if ! r=$("run_$side" "$kind" "$i"); then
				echo "bench_iperf3.sh: $side $kind run $i failed" \
					"(see $tmp)" >&2
				status=1
				continue
			fi
			read -r bps c s <<<"$r"
			who=$([ "$kind" = nb ] && echo "dpdk-nbench" || echo "iperf3 (kernel)")
			printf "%-8s %-22s %12.2f %9s %9s\n" "$side$i" "$who" \
				"$(awk "BEGIN{print $bps / 1e9}")" "$c" "$s" |
				tee -a "$tmp/rows"
		done
	done
done
"$PY" - "$tmp/rows" <<'EOF'
import collections, statistics, sys
rows = collections.defaultdict(list)
for l in open(sys.argv[1]):
    f = l.split()
    side = f[0].rstrip("0123456789")
    who = "dpdk-nbench" if f[1] == "dpdk-nbench" else "iperf3 (kernel)"
    rows[(side, who)].append(float(f[-3]))
print("medians (Gbit/s of TCP payload, receiver's count):")
for (side, who), v in sorted(rows.items()):
    print("  %-7s %-16s %6.2f  (%d runs: %s)" % (
        side, who, statistics.median(v), len(v),
        " ".join("%.2f" % x for x in v)))
EOF
exit $status
