#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Build the libFuzzer targets (tests/fuzz) in build-fuzz with clang and run
# them one after the other, one process at a time; then print a table of
# executions, time, coverage and corpus per target.  docs/fuzzing.md.
#
#   scripts/fuzz.sh                       10 s per target (as scripts/test.sh)
#   scripts/fuzz.sh --runs 10000000       the long run
#   scripts/fuzz.sh --time 600 ctl l2     some targets, 10 min each
#   scripts/fuzz.sh --merge               then add the inputs with new
#                                         coverage to tests/fuzz/corpus/
#
# The grown corpus stays in build-fuzz/tests/fuzz/work/<target>/corpus and
# later runs go on from it.  Exits non-zero if a target failed (its input
# is in build-fuzz/tests/fuzz/work/<target>/artifacts/).
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${NB_FUZZ_BUILD_DIR:-build-fuzz}
runs= time=10 merge=0 targets=()
while (($#)); do
	case "$1" in
	--runs) runs=$2; shift ;;
	--time) time=$2; shift ;;
	--merge) merge=1 ;;
	-h | --help) sed -n '3,15p' "$0"; exit 0 ;;
	-*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
	*) targets+=("$1") ;;
	esac
	shift
done

if [ ! -f "$BUILD/build.ninja" ]; then
	CC=clang meson setup "$BUILD" -Dfuzz=true -Dapp=false -Dtests=false
fi
ninja -C "$BUILD"

tests=()
for t in "${targets[@]}"; do
	tests+=("fuzz_$t")
done
status=0
NB_FUZZ_KEEP=1 NB_FUZZ_RUNS=$runs NB_FUZZ_TIME=$time \
	meson test -C "$BUILD" --suite fuzz --num-processes 1 -t 0 \
	--print-errorlogs "${tests[@]}" || status=1

/usr/bin/python3 - "$BUILD/meson-logs/testlog.json" "$BUILD" <<'PY'
import json, os, re, sys
log, build = sys.argv[1:]
print("%-8s %12s %9s %6s %6s %8s %9s  %s" % ("target", "executions", "time(s)",
      "cov", "ft", "corpus", "bytes", "result"))
for line in open(log):
    t = json.loads(line)
    out = (t.get("stdout") or "") + (t.get("stderr") or "")
    done = re.findall(r"#(\d+)\s+DONE\s+cov: (\d+) ft: (\d+) corp: (\d+)/(\S+)", out)
    execs = re.findall(r"stat::number_of_executed_units: (\d+)", out)
    name = t["name"].replace("fuzz_", "")
    if not os.path.isdir(os.path.join("tests", "fuzz", "corpus", name)):
        print("%-8s %s: %s" % ("", t["name"], t["result"]))   # fuzz_hang_caught
        continue
    work = os.path.join(build, "tests", "fuzz", "work", name, "corpus")
    files = os.listdir(work) if os.path.isdir(work) else []
    size = sum(os.path.getsize(os.path.join(work, f)) for f in files)
    if done:
        _, cov, ft, _, _ = done[-1]
    else:
        cov = ft = "-"
    print("%-8s %12s %9.0f %6s %6s %8d %9d  %s" % (name,
          execs[-1] if execs else "-", t["duration"], cov, ft,
          len(files), size, t["result"]))
PY

if ((merge)); then
	for d in tests/fuzz/corpus/*/; do
		t=$(basename "$d")
		if ((${#targets[@]})) && [[ " ${targets[*]} " != *" $t "* ]]; then
			continue
		fi
		"$BUILD/tests/fuzz/fuzz_$t" -merge=1 "tests/fuzz/corpus/$t" \
			"$BUILD/tests/fuzz/work/$t/corpus" 2>&1 |
			grep -E "MERGE-OUTER: [0-9]+ new files" || true
	done
	du -sh --apparent-size tests/fuzz/corpus
fi
exit $status
