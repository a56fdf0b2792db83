#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A Debian 12 guest for the tool's tests on PCI NICs under QEMU (TCG: this
# machine has no /dev/kvm): emulated e1000e, virtio-net-pci and vmxnet3,
# bound inside the guest to vfio-pci (behind QEMU's intel-iommu) or
# uio_pci_generic,
# driven by DPDK's real PMDs (net_e1000_em, net_virtio, net_vmxnet3).
#
#   scripts/guest.sh build          the image, once per machine (cached)
#   scripts/guest.sh boot JOBDIR    boot it with JOBDIR as its job disk
#
# build: mmdebstrap from the host's own apt sources and Acquire settings
# (never a mirror of its own) with Debian's kernel, DPDK 22.11 and the
# tool's runtime libraries; the rootfs becomes an ext4 image, the kernel
# and initrd are kept beside it.  Nothing of the tool is in the image: each
# boot brings the binary on its job disk, so a rebuild of the tool needs
# no new image.  The cache (NB_GUEST_CACHE, default
# /var/cache/dpdk-nbench/guest) is rebuilt when the package list changes.
#
# boot: JOBDIR holds run.sh (what the guest runs, as root, in /job) and
# anything it needs; it becomes an ext4 disk (/dev/vdb in the guest), and
# what the guest wrote under /job/out is copied back to JOBDIR/out.  The
# guest's console goes to JOBDIR/console.log, QEMU's monitor listens on
# JOBDIR/monitor.sock (set_link for link flaps).  NICs (PCI slot: role):
#   00:04.0, 00:05.0  e1000e, wired to each other (QEMU stream backends)
#   00:06.0, 00:07.0  virtio-net-pci, mq=on, 2 queue pairs, on taps
#                     NB_GUEST_TAP0/1 (default nbgv0/nbgv1) that the
#                     caller wires (tc mirred, a namespace, ...)
#   00:08.0, 00:09.0  vmxnet3, wired to each other (stream)
#   00:0a.0           virtio-net-pci on tap NB_GUEST_TAP2 (default
#                     nbgp0): the host's end, for its own responder
#                     (af_packet on the tap) and its kernel
# Run it under `ip netns exec NS` to keep the taps and the wires in NS.
# Taps the caller made beforehand (ip tuntap add ..., multi_queue for the
# virtio pair) are used as they are; missing ones are made here (the
# virtio pair's wired to each other with tc mirred: a cable) and removed
# after.
# Prints how long each step took.  Exit: the guest's run.sh status (the
# guest writes it to /job/out/rc), 77 when QEMU cannot start at all (not
# installed, no /dev/net/tun), 1 on a guest that did not start or
# a timeout (NB_GUEST_TIMEOUT seconds, default 1800).
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE=${NB_GUEST_CACHE:-/var/cache/dpdk-nbench/guest}
SUITE=bookworm
# The guest's packages: the kernel, what init and the binding use, DPDK
# (its PMDs and dpdk-devbind.py) and the tool's runtime libraries (ldd).
# (ldd and dpkg -S of NBENCH_BIN, when built, add every package it links)
PKGS=(linux-image-amd64 initramfs-tools kmod iproute2 pciutils ethtool
	procps python3 e2fsprogs dpdk libinih1 libjansson4 libmicrohttpd12
	libnuma1 libpcap0.8 libssl3
	# EAL's plugins, which dpdk only recommends: the mempool handler and
	# the PMDs of the guest's NICs (and the vdevs, for a try by hand)
	librte-mempool-ring23 librte-net-e1000-23 librte-net-virtio23
	librte-net-vmxnet3-23 librte-net-null23 librte-net-af-packet23)
BIN=${NBENCH_BIN:-build/app/dpdk-nbench}
if [ -x "$BIN" ]; then
	mapfile -t -O ${#PKGS[@]} PKGS < <(ldd "$BIN" |
		awk '$3 ~ /^\// { print $3 }' | while read -r f; do
			dpkg -S "$f" 2>/dev/null || dpkg -S "$(realpath "$f")"
		done | cut -d: -f1 | sort -u)
fi
HOST_PKGS=(qemu-system-x86 qemu-utils mmdebstrap e2fsprogs)

say() { printf 'guest: %s\n' "$*"; }
die() {
	printf 'guest: error: %s\n' "$*" >&2
	exit "${2:-1}"
}
step_t0=0
step() {
	step_t0=$(date +%s.%N)
	say "$*"
}
took() {
	say "$(awk "BEGIN { printf \"%s took %.1f s\", \"$1\", \
		$(date +%s.%N) - $step_t0 }")"
}

host_packages() {
	local miss=() p
	for p in "${HOST_PKGS[@]}"; do
		dpkg-query -W -f '${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || miss+=("$p")
	done
	((${#miss[@]} == 0)) && return 0
	step "installing ${miss[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y \
		--no-install-recommends "${miss[@]}" >/dev/null
	took "host packages"
}

# The image's identity: the suite, the packages and the init it carries
stamp() {
	{
		printf '%s\n' "$SUITE" "${PKGS[@]}" | sort -u
		cat scripts/guest_init.sh
	} | sha256sum | cut -c1-16
}

# The host's apt sources and its Acquire:: settings (a proxy, a snapshot's
# Check-Valid-Until), as mmdebstrap options.
apt_args() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources; do
		[ -s "$f" ] && grep -qv '^[[:space:]]*\(#\|$\)' "$f" &&
			printf '%s\n' "$f"
	done
}

build() {
	local want img srcs=() opts=() f t0
	want=$(stamp)
	if [ -f "$CACHE/stamp" ] && [ "$(cat "$CACHE/stamp")" = "$want" ] &&
		[ -f "$CACHE/rootfs.img" ] && [ -f "$CACHE/vmlinuz" ] &&
		[ -f "$CACHE/initrd.img" ]; then
		say "image cached in $CACHE ($want)"
		return 0
	fi
	host_packages
	mapfile -t srcs < <(apt_args)
	((${#srcs[@]} > 0)) || die "no apt sources on this host"
	mkdir -p "$CACHE"
	root=$(mktemp -d /var/tmp/nbench-guest.XXXXXX)
	trap 'rm -rf "${root:?}"' EXIT
	# the host's apt.conf.d files that set Acquire options (a proxy, a
	# snapshot's Check-Valid-Until), whole, but none that hooks commands
	for f in /etc/apt/apt.conf.d/*; do
		grep -q 'Acquire' "$f" 2>/dev/null || continue
		grep -qiE 'dpkg::|invoke' "$f" && continue
		opts+=("--aptopt=$f")
	done
	t0=$(date +%s)
	step "mmdebstrap $SUITE from ${srcs[*]}: ${PKGS[*]}"
	rmdir "$root"
	mmdebstrap --variant=minbase --mode=root "${opts[@]}" \
		--include="$(
			IFS=,
			echo "${PKGS[*]}"
		)" \
		--customize-hook='echo nbench-guest > "$1/etc/hostname"' \
		--customize-hook='install -m 0755 scripts/guest_init.sh "$1/sbin/nbench-init"' \
		"$SUITE" "$root" "${srcs[@]}"
	took "mmdebstrap"
	step "the kernel and initrd"
	f=$(ls "$root"/boot/vmlinuz-* | sort -V | tail -1)
	cp "$f" "$CACHE/vmlinuz"
	cp "$root/boot/initrd.img-${f##*/vmlinuz-}" "$CACHE/initrd.img"
	took "kernel copy"
	step "the rootfs image (ext4)"
	img="$CACHE/rootfs.img.new"
	rm -f "$img"
	mkfs.ext4 -q -F -L nbroot -d "$root" "$img" 3G
	mv "$img" "$CACHE/rootfs.img"
	echo "$want" >"$CACHE/stamp"
	took "mkfs.ext4"
	say "image built in $(($(date +%s) - t0)) s: $CACHE ($(du -sh \
		--apparent-size "$CACHE/rootfs.img" | cut -f1) apparent, $(du \
		-sh "$CACHE/rootfs.img" | cut -f1) used)"
}

# At exit: the QEMU still running (a timeout, an interrupt), the taps made,
# the boot's disks (its results are in JOBDIR/out by then)
MADE=()
QEMU_PID=
JOB=
cleanup() {
	local t
	[ -n "$JOB" ] && rm -f "$JOB.root.qcow2" "$JOB.img"
	if [ -n "$QEMU_PID" ]; then
		kill "$QEMU_PID" 2>/dev/null || true
		wait "$QEMU_PID" 2>/dev/null || true
	fi
	for t in "${MADE[@]}"; do
		ip link del "$t" 2>/dev/null || true
	done
}

# What enters tap $1 from the guest leaves through tap $2 to the guest.
wire() {
	tc qdisc replace dev "$1" clsact
	tc filter replace dev "$1" ingress u32 match u32 0 0 \
		action mirred egress redirect dev "$2"
}

boot() {
	local job=$1 out img rc t0 pid tmo=${NB_GUEST_TIMEOUT:-1800} base
	local tap0=${NB_GUEST_TAP0:-nbgv0} tap1=${NB_GUEST_TAP1:-nbgv1}
	local tap2=${NB_GUEST_TAP2:-nbgp0}
	[ -f "$job/run.sh" ] || die "$job/run.sh: no such file" 2
	[ -f "$CACHE/rootfs.img" ] || die "no image: run scripts/guest.sh build"
	command -v qemu-system-x86_64 >/dev/null ||
		die "qemu-system-x86_64 is not installed (scripts/guest.sh build installs it)" 77
	[ -c /dev/net/tun ] || die "no /dev/net/tun: QEMU cannot make its taps" 77
	rm -rf "$job/out" "$job/console.log" "$job/monitor.sock"
	img="$job.img"
	step "the job disk"
	mkdir -p "$job/out"
	mkfs.ext4 -q -F -L nbjob -d "$job" "$img" 2G
	took "job disk"
	# A fresh copy-on-write layer over the cached rootfs for each boot
	qemu-img create -q -f qcow2 -F raw -b "$CACHE/rootfs.img" \
		"$job.root.qcow2"
	# TCP ports for the stream wires (QEMU's -netdev stream: a cable with
	# backpressure, where UDP datagram backends lost frames in the host's
	# socket buffers whenever QEMU fell behind): two from a base the
	# caller may set
	base=${NB_GUEST_PORT_BASE:-$((47100 + ($$ % 400) * 2))}
	JOB=$job
	trap cleanup EXIT
	for t in "$tap0" "$tap1"; do
		ip link show "$t" >/dev/null 2>&1 && continue
		ip tuntap add dev "$t" mode tap multi_queue
		ip link set "$t" up
		MADE+=("$t")
	done
	if ! ip link show "$tap2" >/dev/null 2>&1; then
		ip tuntap add dev "$tap2" mode tap
		ip link set "$tap2" up
		MADE+=("$tap2")
	fi
	# taps made here are a cable between the two virtio NICs
	if [[ " ${MADE[*]} " == *" $tap0 "* && " ${MADE[*]} " == *" $tap1 "* ]]; then
		wire "$tap0" "$tap1"
		wire "$tap1" "$tap0"
	fi
	step "booting (TCG, 2 vCPUs, 2 GiB; console $job/console.log)"
	t0=$(date +%s)
	# QEMU 7.2's stream client dials once, and now and then before its
	# server listens: both wires are checked (the servers' ends
	# established) and QEMU started again on the next ports, 3 times
	local try conns waited=0
	for try in 1 2 3; do
		rm -f "$job/console.log"
		qemu-system-x86_64 -accel tcg,thread=multi -cpu max -m 2G -smp 2 \
			-machine q35 -nodefaults -no-user-config -display none \
			-serial "file:$job/console.log" \
			-monitor "unix:$job/monitor.sock,server=on,wait=off" \
			-no-reboot \
			-kernel "$CACHE/vmlinuz" -initrd "$CACHE/initrd.img" \
			-append "root=/dev/vda rw console=ttyS0 init=/sbin/nbench-init hugepages=384 intel_iommu=on iommu=pt panic=-1 quiet" \
			-device intel-iommu,intremap=off \
			-drive "file=$job.root.qcow2,format=qcow2,if=virtio" \
			-drive "file=$img,format=raw,if=virtio" \
			-netdev "stream,id=e0,server=on,addr.type=inet,addr.host=127.0.0.1,addr.port=$base" \
			-netdev "stream,id=e1,server=off,addr.type=inet,addr.host=127.0.0.1,addr.port=$base" \
			-device e1000e,netdev=e0,addr=04.0,mac=02:00:00:e0:00:00 \
			-device e1000e,netdev=e1,addr=05.0,mac=02:00:00:e0:00:01 \
			-netdev "tap,id=v0,ifname=$tap0,queues=2,vhost=off,script=no,downscript=no" \
			-netdev "tap,id=v1,ifname=$tap1,queues=2,vhost=off,script=no,downscript=no" \
			-device virtio-net-pci,netdev=v0,addr=06.0,mq=on,vectors=6,disable-legacy=on,iommu_platform=on,mac=02:00:00:0e:00:00 \
			-device virtio-net-pci,netdev=v1,addr=07.0,mq=on,vectors=6,disable-legacy=on,iommu_platform=on,mac=02:00:00:0e:00:01 \
			-netdev "stream,id=x0,server=on,addr.type=inet,addr.host=127.0.0.1,addr.port=$((base + 1))" \
			-netdev "stream,id=x1,server=off,addr.type=inet,addr.host=127.0.0.1,addr.port=$((base + 1))" \
			-device vmxnet3,netdev=x0,addr=08.0,mac=02:00:00:3e:00:00 \
			-device vmxnet3,netdev=x1,addr=09.0,mac=02:00:00:3e:00:01 \
			-netdev "tap,id=h0,ifname=$tap2,vhost=off,script=no,downscript=no" \
			-device virtio-net-pci,netdev=h0,addr=0a.0,disable-legacy=on,iommu_platform=on,mac=02:00:00:0a:00:00 \
			>"$job/qemu.log" 2>&1 &
		pid=$!
		QEMU_PID=$pid
		echo "$pid" >"$job/qemu.pid"
		for _ in $(seq 100); do
			conns=$( (ss -tnH state established \
				"( sport = :$base or sport = :$((base + 1)) )" ||
				true) | wc -l)
			((conns == 2)) && break
			kill -0 "$pid" 2>/dev/null ||
				die "QEMU ended at its start (exit $(wait "$pid"; echo $?)): $(tail -3 "$job/qemu.log")"
			sleep 0.1
		done
		((conns == 2)) && break
		say "try $try: the stream wires on 127.0.0.1:$base and :$((base + 1)) did not connect ($conns of 2): again"
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		QEMU_PID=
		base=$((base + 2))
	done
	((conns == 2)) || die "the stream wires did not connect in 3 tries (QEMU log $job/qemu.log)"
	while kill -0 "$pid" 2>/dev/null; do
		if ((waited >= tmo)); then
			die "the guest did not power off in $tmo s (console: $job/console.log)"
		fi
		sleep 1
		waited=$((waited + 1))
	done
	rc=0
	wait "$pid" || rc=$?
	QEMU_PID=
	say "the guest ran $(($(date +%s) - t0)) s (QEMU exit $rc)"
	if ! grep -q 'nbench-init: start' "$job/console.log" 2>/dev/null; then
		cat "$job/qemu.log" >&2
		die "the guest did not start (console $job/console.log, QEMU log $job/qemu.log)"
	fi
	step "the results"
	rm -rf "$job/out"
	debugfs -R "rdump /out $job" "$img" >/dev/null 2>&1 ||
		die "could not read the job disk $img"
	took "read back"
	[ -f "$job/out/rc" ] || die "the guest wrote no status (console: $job/console.log)"
	return "$(cat "$job/out/rc")"
}

case "${1:-}" in
build) build ;;
boot)
	[ $# -eq 2 ] || die "usage: scripts/guest.sh boot JOBDIR" 2
	boot "$(realpath "$2")"
	;;
*) die "usage: scripts/guest.sh build | boot JOBDIR" 2 ;;
esac
