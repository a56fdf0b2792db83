#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_fuzz.sh FUZZER SEEDS WORKDIR [libFuzzer options...]
#
# One bounded libFuzzer run, as the meson suite 'fuzz' runs each target:
# starts from the committed seeds (SEEDS is only read), writes what it
# finds to WORKDIR/corpus (emptied first) and a crashing input to
# WORKDIR/artifacts/.  NB_FUZZ_TIME (seconds, default 10) bounds the run.
# Exits non-zero on a crash, a leak, a timeout (-timeout=2) or an
# out-of-memory.
set -eu
fuzzer=$1
seeds=$2
work=$3
shift 3
rm -rf "$work/corpus"
mkdir -p "$work/corpus" "$work/artifacts"
exec "$fuzzer" -max_total_time="${NB_FUZZ_TIME:-10}" -timeout=2 \
	-rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$work/artifacts/" "$@" "$work/corpus" "$seeds"
