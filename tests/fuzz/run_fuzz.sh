#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_fuzz.sh FUZZER SEEDS WORKDIR [libFuzzer options...]
#
# One bounded libFuzzer run, as the meson suite 'fuzz' runs each target:
# starts from the committed seeds (SEEDS is only read), writes what it
# finds to WORKDIR/corpus and a crashing input to WORKDIR/artifacts/.
# Exits non-zero on a crash, a leak, a hang (one input running longer than
# NB_FUZZ_TIMEOUT s) or an out-of-memory.
#
#   NB_FUZZ_TIME  seconds to run (default 10)
#   NB_FUZZ_RUNS  run this many inputs instead (no time bound)
#   NB_FUZZ_TIMEOUT  seconds one input may take (default 25: every input
#                 of every target runs in milliseconds, and a host at load 6
#                 once stretched a 6-ms input past a 2-s bound; a hang
#                 never ends, so 25 s still catches it: tests/fuzz/hang_test.sh)
#   NB_FUZZ_KEEP  1: keep WORKDIR/corpus from the last run (default: empty
#                 it, so every run starts from the seeds alone)
set -eu
fuzzer=$1
seeds=$2
work=$3
shift 3
if [ "${NB_FUZZ_KEEP:-0}" != 1 ]; then
	rm -rf "$work/corpus"
fi
mkdir -p "$work/corpus" "$work/artifacts"
if [ -n "${NB_FUZZ_RUNS:-}" ]; then
	bound=-runs=$NB_FUZZ_RUNS
else
	bound=-max_total_time=${NB_FUZZ_TIME:-10}
fi
# libFuzzer's own failure code is 77, which meson reads as "skipped":
# every failure must fail the test
exec "$fuzzer" "$bound" -timeout="${NB_FUZZ_TIMEOUT:-25}" -rss_limit_mb=2048 \
	-report_slow_units=5 -print_final_stats=1 \
	-error_exitcode=1 -timeout_exitcode=1 \
	-artifact_prefix="$work/artifacts/" "$@" "$work/corpus" "$seeds"
