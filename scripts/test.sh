#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Set up (packages, hugepages), build, and run every test suite:
#   unit  cmocka tests of app/core, no EAL, no hugepages
#   e2e   real dpdk-nbench processes on virtual devices
#   deploy the Ansible role on this machine (tests/deploy/test_ansible.sh;
#         installs ansible-core)
#   fuzz  each libFuzzer target of tests/fuzz for NB_FUZZ_TIME seconds
#         (default 10) from its seed corpus, in a clang build of its own
#         (skipped without clang; docs/fuzzing.md)
# plus a build with -Db_sanitize=address,undefined whose unit and e2e
# suites must pass too (nbe2e.py sets ASAN_OPTIONS/UBSAN_OPTIONS and fails a
# run on any sanitizer report); its e2e round is suite e2e-asan, all but
# the long timing runs (tests/e2e/meson.build), unless NB_FULL=1.
# scripts/test.sh --guest runs the guest suite alone instead (PCI NICs in
# a QEMU guest: tests/guest; not part of CI's run).  Exits non-zero on any failure; the last
# line is the total as
# "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${NB_BUILD_DIR:-build}
ASAN_BUILD=${NB_ASAN_BUILD_DIR:-build-asan}
FUZZ_BUILD=${NB_FUZZ_BUILD_DIR:-build-fuzz}

if [ "$(id -u)" -ne 0 ]; then
	echo "scripts/test.sh: run as root (hugepages, network namespaces)" >&2
	exit 1
fi
bash scripts/setup.sh

configure() {
	local dir=$1
	shift
	if [ -f "$dir/build.ninja" ]; then
		meson setup --reconfigure "$dir" "$@" >/dev/null
	else
		meson setup "$dir" "$@"
	fi
}

configure "$BUILD"
ninja -C "$BUILD"
# --guest: only the guest suite (the tool on PCI NICs in a QEMU guest;
# tests/guest, scripts/guest.sh), in the release build
if [ "${1:-}" = --guest ]; then
	meson test -C "$BUILD" --suite guest --print-errorlogs
	exit $?
fi
configure "$ASAN_BUILD" -Db_sanitize=address,undefined -Db_lundef=false
ninja -C "$ASAN_BUILD"

status=0
meson test -C "$ASAN_BUILD" --suite unit --print-errorlogs || status=1
cp "$ASAN_BUILD/meson-logs/testlog.json" "$ASAN_BUILD/testlog-unit.json"
meson test -C "$BUILD" --suite unit --print-errorlogs || status=1
cp "$BUILD/meson-logs/testlog.json" "$BUILD/testlog-unit.json"
# The Ansible role (deploy/ansible) on this machine: syntax check, check
# mode, a real run into a temporary root (tests/deploy/test_ansible.sh)
meson test -C "$BUILD" --suite deploy --print-errorlogs || status=1
cp "$BUILD/meson-logs/testlog.json" "$BUILD/testlog-deploy.json"

# The fuzz targets, each a test: a crash, a leak or a hang fails it.
logs=("$ASAN_BUILD/testlog-unit.json" "$BUILD/testlog-unit.json"
	"$BUILD/testlog-deploy.json")
if command -v clang >/dev/null; then
	CC=clang configure "$FUZZ_BUILD" -Dfuzz=true -Dapp=false -Dtests=false
	ninja -C "$FUZZ_BUILD"
	meson test -C "$FUZZ_BUILD" --suite fuzz --num-processes 1 \
		--print-errorlogs || status=1
	cp "$FUZZ_BUILD/meson-logs/testlog.json" "$FUZZ_BUILD/testlog-fuzz.json"
	logs+=("$FUZZ_BUILD/testlog-fuzz.json")
else
	echo "test.sh: no clang: fuzz suite not run (scripts/setup.sh installs it)"
fi
meson test -C "$BUILD" --suite e2e --print-errorlogs || status=1
cp "$BUILD/meson-logs/testlog.json" "$BUILD/testlog-e2e.json"
asan_e2e=e2e-asan
[ "${NB_FULL:-0}" = 1 ] && asan_e2e=e2e
meson test -C "$ASAN_BUILD" --suite "$asan_e2e" --print-errorlogs || status=1
cp "$ASAN_BUILD/meson-logs/testlog.json" "$ASAN_BUILD/testlog-e2e.json"

# One closing line for the whole run, counted from meson's logs.
logs+=("$BUILD/testlog-e2e.json" "$ASAN_BUILD/testlog-e2e.json")
/usr/bin/python3 - "${logs[@]}" <<'PY'
import json, sys
ok = bad = skip = cases = 0
for path in sys.argv[1:]:
    with open(path) as f:
        for line in f:
            t = json.loads(line)
            r = t["result"]
            if r in ("OK", "EXPECTEDFAIL"):
                ok += 1
            elif r == "SKIP":
                skip += 1
            else:
                bad += 1
            # an e2e program that ran but skipped some of its cases
            for l in (t.get("stdout") or "").splitlines():
                if l.startswith("skipped cases: ") and r == "OK":
                    cases += int(l.split(": ")[1])
if cases:
    print("e2e cases skipped inside passing programs: %d (see the logs)"
          % cases)
print("tests: %d passed, %d failed, %d skipped" % (ok, bad, skip))
PY
exit $status
