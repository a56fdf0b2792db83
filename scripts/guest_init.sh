#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# PID 1 of the test guest (scripts/guest.sh): mounts what DPDK needs, runs
# the job disk's run.sh in /job with its output in /job/out, writes its
# status to /job/out/rc and powers the guest off.  No systemd, no udev:
# the kernel's devtmpfs has the device nodes.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
echo "nbench-init: start $(cut -d' ' -f1 /proc/uptime 2>/dev/null)"
mount -t proc proc /proc 2>/dev/null
mount -t sysfs sys /sys 2>/dev/null
mount -t devtmpfs dev /dev 2>/dev/null
mkdir -p /dev/pts /dev/hugepages /run /tmp /job
mount -t devpts devpts /dev/pts 2>/dev/null
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
mount -t hugetlbfs nodev /dev/hugepages
mount -o remount,rw / 2>/dev/null
ip link set lo up
rc=1
if mount -L nbjob /job 2>/dev/null || mount /dev/vdb /job; then
	mkdir -p /job/out
	echo "nbench-init: running /job/run.sh (kernel $(uname -r), $(nproc) CPUs, hugepages $(cat /proc/sys/vm/nr_hugepages))"
	(cd /job && bash ./run.sh) >/job/out/run.log 2>&1
	rc=$?
	echo "$rc" >/job/out/rc
	echo "nbench-init: run.sh exited $rc"
	tail -n 40 /job/out/run.log
	sync
	umount /job
else
	echo "nbench-init: no job disk"
fi
sync
echo "nbench-init: power off"
echo 1 >/proc/sys/kernel/sysrq
echo o >/proc/sysrq-trigger
sleep 30
