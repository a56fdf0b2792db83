#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Instructions a frame of the generator and the sink with --flows 65536
# against one flow a stream (without --flows, and with --flows 1: the
# per-flow engine at one flow), counted by valgrind's callgrind (the same
# figure for the same binary whatever else the host does; docs/performance.md,
# "Flows"):
#
#   generator  net_null, 64 B (and VXLAN around 64 B): the engine
#              function's instructions
#              (inclusive: the PMD call, mbuf allocation) for 320,000 and
#              960,000 frames, the difference over the 640,000 frames
#              between them (which removes start-up).
#   sink       af_packet on a veth pair of a namespace of its own, 65,536
#              and 196,608 frames of 64 B at 20 kpps, a build with debug
#              info: the instructions on the source lines of the per-frame
#              work (nb_sink.h's frame loop and what it inlines: the
#              parser, the sequence tracker, the histogram, jitter and the
#              per-flow counts) over the frames; the PMD's receive and
#              the mbuf free, the same in both, are left out.  The first
#              65,536 frames are each flow's first; the difference
#              between the runs (frames 65,537-196,608, each flow's second
#              and third) is the steady state of a longer test.  The same
#              run simulates the caches (callgrind --cache-sim=yes): D1
#              48 KiB 12-way, LL 2 MiB 16-way (one core's L2 on the
#              reference host: a model, so the figures do not depend on
#              what the guest says its L3 is), and gives the D1 and LL
#              read and write misses a frame on the same lines.
#
#   sudo scripts/flows_instructions.sh        # about 30 minutes
#
# Needs valgrind (Debian package valgrind) and root (hugepages are not
# used: --no-huge; the namespace needs root).
set -euo pipefail
cd "$(dirname "$0")/.."

[ "$(id -u)" -eq 0 ] || {
	echo "flows_instructions: run as root (a network namespace)" >&2
	exit 1
}
command -v valgrind >/dev/null || {
	echo "flows_instructions: valgrind not found (package valgrind)" >&2
	exit 1
}
REL=${NB_BUILD_DIR:-build}
DBG=${NB_DEBUG_BUILD_DIR:-build-debuginfo}
[ -f "$REL/build.ninja" ] || meson setup "$REL" >/dev/null
ninja -C "$REL" app/dpdk-nbench >/dev/null
[ -f "$DBG/build.ninja" ] || meson setup "$DBG" -Ddebug=true -Dtests=false >/dev/null
ninja -C "$DBG" app/dpdk-nbench >/dev/null
tmp=$(mktemp -d /tmp/nbench-cg.XXXXXX)
ns=nbcg$$
cleanup() {
	ip netns del "$ns" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
# shellcheck disable=SC2054 # the commas are the lcore map's
EAL=(--no-huge -m 1024 --no-pci --lcores 0@0,1@0,2@0,3@1 --log-level lib.eal:error)

# instructions of FUNCTION in callgrind output FILE (inclusive)
incl() {
	callgrind_annotate --inclusive=yes --threshold=100 "$2" |
		awk -v f="$1" '!found && $0 ~ ":" f " " { gsub(",", "", $1); print $1; found = 1 }'
}

gen() { # NAME FRAMES SIZE ARGS...
	valgrind --tool=callgrind --callgrind-out-file="$tmp/$1.out" \
		"$REL/app/dpdk-nbench" "${EAL[@]}" --file-prefix "cg$1" \
		--vdev net_null0 --vdev net_null1,no-rx=1 -- --tx-port 0 \
		--rx-port 1 --rate max --size "$3" --packets "$2" --time 0 \
		--json "${@:4}" >"$tmp/$1.json" 2>"$tmp/$1.err"
}
# one: no --flows (nothing counted per flow); flows1: --flows 1 (the
# per-flow engine, one flow); flows: --flows 65536
kind_args() {
	case $1 in
	flows1) echo --flows 1 ;;
	flows) echo --flows 65536 ;;
	esac
}
kind_label() {
	case $1 in
	one) echo "one flow a stream" ;;
	flows1) echo "--flows 1" ;;
	flows) echo "65,536 flows" ;;
	esac
}
for kind in one flows1 flows; do
	read -r -a args <<<"$(kind_args $kind)"
	gen "g${kind}1" 320000 64 "${args[@]}"
	gen "g${kind}3" 960000 64 "${args[@]}"
	a=$(incl engine_gen_udp "$tmp/g${kind}1.out")
	b=$(incl engine_gen_udp "$tmp/g${kind}3.out")
	awk -v a="$a" -v b="$b" -v k="$(kind_label $kind)" \
		'BEGIN { printf "generator, %s: %.1f instructions a frame\n", k, (b - a) / 640000 }'
done
# the header stacks' target beside it: VXLAN over IPv4 around a 64 B
# inner frame (114 B), against the plain 64 B of "one flow a stream"
gen gvx1 320000 114 --encap vxlan:1
gen gvx3 960000 114 --encap vxlan:1
a=$(incl engine_gen_udp "$tmp/gvx1.out")
b=$(incl engine_gen_udp "$tmp/gvx3.out")
awk -v a="$a" -v b="$b" \
	'BEGIN { printf "generator, VXLAN, 64 B inner: %.1f instructions a frame\n", (b - a) / 640000 }' 

ip netns add "$ns"
ip -n "$ns" link add va type veth peer name vb
for d in va vb; do
	ip netns exec "$ns" sysctl -qw "net.ipv6.conf.$d.disable_ipv6=1"
	ip -n "$ns" link set "$d" up
done
sink() { # NAME FRAMES ARGS...
	ip netns exec "$ns" valgrind --tool=callgrind --fair-sched=yes \
		--cache-sim=yes --D1=49152,12,64 --LL=2097152,16,64 \
		--callgrind-out-file="$tmp/$1.out" "$DBG/app/dpdk-nbench" \
		"${EAL[@]}" --file-prefix "cg$1" \
		--vdev net_af_packet0,iface=va \
		--vdev net_af_packet1,iface=vb,framecnt=16384 -- --tx-port 0 \
		--rx-port 1 --rate 20kpps --size 64 --packets "$2" --time 0 \
		--json "${@:3}" >"$tmp/$1.json" 2>"$tmp/$1.err"
}
for kind in one flows1 flows; do
	read -r -a args <<<"$(kind_args $kind)"
	sink "s${kind}1" 65536 "${args[@]}"
	sink "s${kind}3" 196608 "${args[@]}"
	label="sink, $(kind_label $kind)"
	/usr/bin/python3 scripts/cg_sink_lines.py "$tmp/s${kind}1.out" 65536 \
		"$label, frames 1-65,536"
	/usr/bin/python3 scripts/cg_sink_lines.py --minus "$tmp/s${kind}1.out" \
		65536 "$tmp/s${kind}3.out" 196608 "$label, frames 65,537-196,608"
	/usr/bin/python3 scripts/cg_sink_lines.py --minus "$tmp/s${kind}1.out" \
		65536 "$tmp/s${kind}3.out" 196608 \
		"$label, frames 65,537-196,608, cache misses" D1mr D1mw DLmr DLmw
done
