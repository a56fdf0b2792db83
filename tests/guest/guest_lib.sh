# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# Sourced by the guest's "!" cases that run a responder in the background
# (guest_flap.sh, guest_serve.sh; copied into the job as lib.sh).

# wait_for_line FILE TEXT PID: until FILE holds TEXT (30 s at most) or
# PID has ended
wait_for_line() {
	for _ in $(seq 300); do
		grep -q "$2" "$1" && return 0
		kill -0 "$3" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# reap PID SECS: waits until PID ends, SIGKILL after SECS; returns its
# exit status (137 when it had to be killed)
reap() {
	for _ in $(seq $(($2 * 10))); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$1" 2>/dev/null && kill -KILL "$1"
	wait "$1"
}
