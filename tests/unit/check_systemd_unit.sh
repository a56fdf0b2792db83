#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The responder's unit template (deploy/systemd): systemd-analyze verify
# passes with no complaint, on an instance of the unit meson configured,
# its ExecStart pointed at the built executable (verify needs the binary
# to exist) and its man page reachable; the hardening the docs describe is
# there; systemd-analyze security (offline) rates it no worse than 6.0;
# and the example instance config parses (--config ... --help exits
# before EAL).
#   check_systemd_unit.sh CONFIGURED_UNIT BUILT_BINARY SRCDIR
set -u
unit=$1 bin=$2 src=$3
fail() {
	echo "check_systemd_unit: $*" >&2
	exit 1
}
command -v systemd-analyze >/dev/null 2>&1 || {
	echo "check_systemd_unit: SKIP: systemd-analyze not installed (Debian's systemd package)"
	exit 77
}
[ -f "$unit" ] || fail "no unit $unit"
[ -x "$bin" ] || fail "no executable $bin"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# the settings docs/usage.md promises, each on a line of its own
for want in \
	'NoNewPrivileges=yes' \
	'CapabilityBoundingSet=CAP_IPC_LOCK CAP_NET_RAW CAP_NET_ADMIN' \
	'AmbientCapabilities=' \
	'LimitMEMLOCK=infinity' \
	'ProtectSystem=strict' \
	'ProtectHome=yes' \
	'PrivateTmp=yes' \
	'RuntimeDirectory=dpdk dpdk-nbench' \
	'RuntimeDirectoryMode=0700' \
	'RuntimeDirectoryPreserve=yes' \
	'Restart=on-failure' \
	'RestartSec=5' \
	'RestartPreventExitStatus=2' \
	'EnvironmentFile=/etc/dpdk-nbench/%i.env'; do
	grep -qxF "$want" "$unit" || fail "$unit lacks the line '$want'"
done
grep -q '^ExecStart=/.*/dpdk-nbench \$EAL_ARGS --file-prefix %i -- --config /etc/dpdk-nbench/%i\.conf$' "$unit" ||
	fail "$unit: ExecStart is not '<bindir>/dpdk-nbench \$EAL_ARGS --file-prefix %i -- --config /etc/dpdk-nbench/%i.conf'"
grep -q '@BINDIR@' "$unit" && fail "$unit: @BINDIR@ not substituted"
grep -q '^CapabilityBoundingSet=.*CAP_SYS_ADMIN' "$unit" &&
	fail "$unit: CAP_SYS_ADMIN is for PA-mode hosts' drop-ins only"

# an instance of it, running the built binary
inst="$tmp/dpdk-nbench-responder@port0.service"
sed "s|^ExecStart=/[^ ]*/dpdk-nbench |ExecStart=$bin |" "$unit" >"$inst"
grep -qF "ExecStart=$bin " "$inst" || fail "could not point ExecStart at $bin"
# Documentation=man:dpdk-nbench(1): the committed man page, found by
# man(1) if it is installed (man-db; minimal images lack it)
man=--man=no
if command -v man >/dev/null 2>&1; then
	man=--man=yes
	mkdir -p "$tmp/man/man1"
	cp "$src/docs/dpdk-nbench.1" "$tmp/man/man1/"
else
	echo "no man(1): Documentation=man:dpdk-nbench(1) not looked up"
fi
out=$(cd "$tmp" && MANPATH="$tmp/man" systemd-analyze verify "$man" "$inst" 2>&1)
rc=$?
[ $rc -eq 0 ] && [ -z "$out" ] || {
	printf '%s\n' "$out" >&2
	fail "systemd-analyze verify: exit $rc, and any line it printed (above) is a failure"
}
echo "systemd-analyze verify: clean"

# the exposure systemd-analyze computes (0 best, 10 worst), offline
out=$(cd "$tmp" && systemd-analyze security --offline=yes --man=no \
	--threshold=60 "$inst" 2>&1)
rc=$?
printf '%s\n' "$out" | grep 'Overall exposure'
[ $rc -eq 0 ] || fail "systemd-analyze security: exposure above 6.0 (exit $rc)"

# the example instance config is one the tool takes, with its key file
# made the way the comment in it says
(umask 077 && head -c 32 /dev/urandom | base64 >"$tmp/port0.key") || exit 1
sed "s|^auth-key = /etc/dpdk-nbench/port0.key$|auth-key = $tmp/port0.key|" \
	"$src/deploy/systemd/example.conf" >"$tmp/port0.conf"
grep -qF "auth-key = $tmp/port0.key" "$tmp/port0.conf" ||
	fail "deploy/systemd/example.conf has no 'auth-key = /etc/dpdk-nbench/port0.key'"
out=$("$bin" -- --config "$tmp/port0.conf" --help 2>&1 >/dev/null)
rc=$?
[ $rc -eq 0 ] || {
	printf '%s\n' "$out" >&2
	fail "deploy/systemd/example.conf: dpdk-nbench refused it (exit $rc)"
}
echo "check_systemd_unit: ok"
