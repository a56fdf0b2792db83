#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs inside the test guest (scripts/guest.sh boot), in /job, as root:
# binds the NICs listed in binds.txt ("PCI-ADDRESS DRIVER" a line:
# vfio-pci or uio_pci_generic) with DPDK's own
# dpdk-devbind.py, then runs each line of cases.txt
# ("NAME<TAB>EAL words<TAB>tool words") as
#   ./dpdk-nbench EAL -- TOOL
# with its stdout in out/NAME.out, stderr in out/NAME.err, exit status in
# out/NAME.rc and wall time in out/NAME.secs.  A line "NAME<TAB>!<TAB>CMD"
# runs CMD in a shell instead (the guest's own views: ethtool, lspci).
set -u
out=/job/out
mkdir -p "$out"
log() { echo "guest_run: $*"; }

# vfio-pci behind the guest's IOMMU (QEMU's intel-iommu; Debian's kernel
# has no no-IOMMU vfio), uio_pci_generic beside it (iommu=pt: devices the
# kernel keeps see physical addresses).  The IOMMU runs without interrupt
# remapping (scripts/guest.sh gives it intremap=off), which vfio's type 1
# backend refuses unless told (a test guest's setting, never a host's)
modprobe vfio_iommu_type1 allow_unsafe_interrupts=1 ||
	log "modprobe vfio_iommu_type1 failed"
modprobe vfio-pci || log "modprobe vfio-pci failed"
modprobe uio_pci_generic || log "modprobe uio_pci_generic failed"
ls /sys/kernel/iommu_groups >"$out/iommu-groups.txt" 2>&1
# every library the binary needs is in the image (scripts/guest.sh)
chmod +x ./dpdk-nbench
if ldd ./dpdk-nbench | grep 'not found'; then
	log "the image lacks libraries: rebuild it (scripts/guest.sh build)"
	exit 1
fi
lspci -nnk >"$out/lspci-before.txt" 2>&1
# a crash leaves its core in out/ (the host's gdb reads it: the same
# Debian packages on both sides)
ulimit -c unlimited
echo "$out/core.%e.%p" >/proc/sys/kernel/core_pattern

bind_rc=0
while read -r addr drv; do
	[ -n "$addr" ] || continue
	# the kernel's interface name, for the record (ethtool's view)
	ifc=$(ls "/sys/bus/pci/devices/$addr/net" 2>/dev/null | head -1)
	if [ -n "$ifc" ]; then
		ethtool -i "$ifc" >"$out/ethtool-$addr.txt" 2>&1
		ip link set "$ifc" down
	fi
	if dpdk-devbind.py --force -b "$drv" "$addr" >>"$out/bind.log" 2>&1; then
		log "bound $addr to $drv"
	else
		log "binding $addr to $drv failed"
		bind_rc=1
	fi
done <binds.txt
dpdk-devbind.py --status-dev net >"$out/devbind-status.txt" 2>&1
lspci -nnk >"$out/lspci-after.txt" 2>&1
ls -l /dev/vfio >"$out/vfio.txt" 2>&1

while IFS=$'\t' read -r name eal tool; do
	[ -n "$name" ] || continue
	log "case $name"
	t0=$(date +%s.%N)
	if [ "$eal" = "!" ]; then
		bash -c "$tool" >"$out/$name.out" 2>"$out/$name.err"
	else
		# shellcheck disable=SC2086 # words, as written in cases.txt
		./dpdk-nbench $eal -- $tool >"$out/$name.out" 2>"$out/$name.err"
	fi
	echo $? >"$out/$name.rc"
	awk "BEGIN { printf \"%.3f\\n\", $(date +%s.%N) - $t0 }" >"$out/$name.secs"
	log "case $name: exit $(cat "$out/$name.rc") in $(cat "$out/$name.secs") s"
done <cases.txt
exit $bind_rc
