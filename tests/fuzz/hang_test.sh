#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# hang_test.sh RUN_FUZZ FUZZ_HANG WORKDIR
#
# run_fuzz.sh's per-input bound is generous (25 s) so that a loaded host
# does not fail the smoke; this proves it still catches a hang: fuzz_hang
# spins forever on the seed "HANG", and run_fuzz.sh with a 1-s bound must
# end with libFuzzer's timeout report and exit 1 (not 77, which meson
# would read as a skip, and not 0).
set -u
run_fuzz=$1
fuzzer=$2
work=$3
rm -rf "$work"
mkdir -p "$work/seeds"
printf 'HANG' >"$work/seeds/hang"
start=$(date +%s)
NB_FUZZ_TIMEOUT=1 NB_FUZZ_RUNS=10 sh "$run_fuzz" "$fuzzer" "$work/seeds" \
	"$work/run" >"$work/out.txt" 2>&1
rc=$?
took=$(($(date +%s) - start))
if [ "$rc" -ne 1 ]; then
	echo "hang_test: run_fuzz.sh exited $rc on a hanging input, expected 1"
	tail -20 "$work/out.txt"
	exit 1
fi
if ! grep -q "ERROR: libFuzzer: timeout after" "$work/out.txt"; then
	echo "hang_test: no libFuzzer timeout report:"
	tail -20 "$work/out.txt"
	exit 1
fi
if ! ls "$work/run/artifacts/" | grep -q '^timeout-'; then
	echo "hang_test: the hanging input was not kept in artifacts/"
	exit 1
fi
echo "hang_test: the planted hang failed the run after ${took} s (bound 1 s), exit 1, input kept"
