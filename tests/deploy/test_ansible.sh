#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The Ansible role (deploy/ansible) against this machine, as root:
#   1. ansible-playbook --syntax-check site.yml
#   2. the whole role in --check --diff mode
#   3. a real run: the package list installed (apt: present already after
#      scripts/setup.sh), the built tree installed by meson install
#      --destdir into a temporary root, hugepages (the live reservation
#      only raised, never lowered; here it asks for 1 page, so it never
#      changes), /etc/sysctl.d, /etc/fstab and /etc/dpdk-nbench under the
#      temporary root, each instance's key, env and conf (the conf checked
#      by the installed tool); then the files are checked
#   4. a second real run changes nothing
# Not here: systemctl enable/start of the instances (the role does it only
# where systemd is the service manager and the root is /), and mounting
# hugetlbfs (scripts/setup.sh did).
#   tests/deploy/test_ansible.sh [SRCDIR [BUILDDIR]]   (built already)
set -euo pipefail
src=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
build=$(cd "${2:-$src/build}" && pwd)
t0=$(date +%s)

say() { printf 'test_ansible: %s\n' "$*"; }
fail() {
	printf 'test_ansible: FAIL: %s\n' "$*" >&2
	exit 1
}
if [[ $(id -u) -ne 0 ]]; then
	say "SKIP: needs root (apt, /sys hugepages)"
	exit 77
fi
[[ -x $build/app/dpdk-nbench ]] || fail "no $build/app/dpdk-nbench: build first"

# Debian 12's ansible-core (2.14) is all the role uses (ansible.builtin)
if ! command -v ansible-playbook >/dev/null; then
	say "installing ansible-core (apt)"
	cand=$(apt-cache policy ansible-core 2>/dev/null | awk '$1 == "Candidate:" { print $2 }')
	if [[ -z $cand || $cand == "(none)" ]]; then
		apt-get update -q
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		-o DPkg::Lock::Timeout=300 ansible-core >/dev/null ||
		fail "apt-get install ansible-core failed"
fi
say "$(ansible-playbook --version | head -1), setup $(($(date +%s) - t0)) s"

tmp=$(mktemp -d /tmp/nb-ansible.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
export ANSIBLE_LOCAL_TEMP=$tmp/ansible-local ANSIBLE_REMOTE_TEMP=$tmp/ansible-remote
export ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_STDOUT_CALLBACK=default
export TMPDIR=$tmp

cat >"$tmp/inventory" <<INV
[dpdk_nbench]
localhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3
INV
pages_before=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)
cat >"$tmp/vars.yml" <<VARS
ansible_become: false
dpdk_nbench_source: $src
dpdk_nbench_copy_source: false
dpdk_nbench_src_dir: $src
dpdk_nbench_build_dir: $build
dpdk_nbench_root: $root
dpdk_nbench_hugepages_mb: 2
dpdk_nbench_responders:
  - name: port0
    eal_args: "--no-pci -l 0-1 --vdev net_memif0,role=server,socket=/run/dpdk-nbench/port0.sock"
    options:
      port: 0
      ip: 198.19.0.1
      max-rate: 1G
      one-off: false
      allow: [198.19.0.0/24, 198.18.0.7]
  - name: port1
    eal_args: "-l 0-3 -a 0000:03:00.0 --iova-mode=va"
    key: false
    options:
      ip: 198.19.1.1
VARS

play() {
	ansible-playbook -i "$tmp/inventory" -e "@$tmp/vars.yml" \
		"$src/deploy/ansible/site.yml" "$@"
}

play --syntax-check >"$tmp/syntax.log" 2>&1 || {
	cat "$tmp/syntax.log"
	fail "--syntax-check"
}
say "syntax-check: ok"

play --check --diff >"$tmp/check.log" 2>&1 || {
	cat "$tmp/check.log"
	fail "--check --diff run"
}
[[ ! -e $root/etc/dpdk-nbench ]] || fail "--check wrote $root/etc/dpdk-nbench"
say "check mode: ok ($(grep -c '^TASK' "$tmp/check.log") tasks)"

play --diff >"$tmp/run1.log" 2>&1 || {
	cat "$tmp/run1.log"
	fail "real run"
}
say "real run: $(grep -A1 '^PLAY RECAP' "$tmp/run1.log" | tail -1 | tr -s ' ')"

# what the run left
etc=$root/etc/dpdk-nbench
unit=$root/usr/local/lib/systemd/system/dpdk-nbench-responder@.service
[[ -f $unit ]] || fail "no unit at $unit"
grep -qx 'ExecStart=/usr/local/bin/dpdk-nbench $EAL_ARGS --file-prefix %i -- --config /etc/dpdk-nbench/%i.conf' "$unit" ||
	fail "installed unit's ExecStart is not /usr/local/bin's"
"$root/usr/local/bin/dpdk-nbench" --version >/dev/null || fail "the installed dpdk-nbench does not run"
[[ -f $root/usr/local/share/doc/dpdk-nbench/examples/example.conf ]] || fail "no example.conf installed"
[[ $(stat -c %a "$etc/port0.key") == 600 ]] || fail "port0.key is not mode 600"
[[ $(wc -c <"$etc/port0.key") -eq 45 ]] || fail "port0.key is not 32 bytes in base64"
[[ ! -e $etc/port1.key ]] || fail "port1 (key: false) got a key"
grep -qx "auth-key = $etc/port0.key" "$etc/port0.conf" || fail "port0.conf has no auth-key"
grep -qx 'one-off = false' "$etc/port0.conf" || fail "port0.conf: booleans not true/false"
[[ $(grep -c '^allow = ' "$etc/port0.conf") -eq 2 ]] || fail "port0.conf: a list is not one key a line"
grep -q '^auth-key' "$etc/port1.conf" && fail "port1.conf has an auth-key"
grep -qx 'EAL_ARGS="-l 0-3 -a 0000:03:00.0 --iova-mode=va"' "$etc/port1.env" || fail "port1.env"
"$root/usr/local/bin/dpdk-nbench" -- --config "$etc/port0.conf" --help >/dev/null ||
	fail "the tool refuses port0.conf"
pages_after=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)
((pages_after >= pages_before)) || fail "hugepages lowered from $pages_before to $pages_after"
want=$((pages_before > 1 ? pages_before : 1))
grep -qx "vm.nr_hugepages = $want" "$root/etc/sysctl.d/80-dpdk-nbench.conf" ||
	fail "sysctl.d: not vm.nr_hugepages = $want"
# a root of its own is never a systemd host's: the fstab line is written
grep -qx 'nodev /dev/hugepages hugetlbfs pagesize=2M 0 0' "$root/etc/fstab" ||
	fail "fstab has no hugetlbfs line"
grep -q 'systemctl\|Enable and start the instances' "$tmp/run1.log" &&
	! grep -A2 'Enable and start the instances' "$tmp/run1.log" | grep -q '^skipping' &&
	fail "the role touched systemd with a root of its own"
say "files: ok"

play >"$tmp/run2.log" 2>&1 || {
	cat "$tmp/run2.log"
	fail "second real run"
}
recap=$(grep -A1 '^PLAY RECAP' "$tmp/run2.log" | tail -1 | tr -s ' ')
[[ $recap == *" changed=0 "* ]] || {
	grep -B2 -A8 '^changed' "$tmp/run2.log" || true
	fail "second run changed something: $recap"
}
say "second run changes nothing: $recap"
say "ok in $(($(date +%s) - t0)) s"
