#!/usr/bin/env bash
# A veth pair across two network namespaces, for dpdk-nbench's af_packet
# end-to-end tests.
#
#   PREFIXa  (namespace)  holds  PREFIXva  --veth--  PREFIXvb  in  PREFIXb
#
# Both ends are up, IPv6 is disabled on them and nothing has an address, so
# the kernel sends no frames of its own on the link; lo is up in both
# namespaces. The veth pair is created directly inside the namespaces, so
# nothing is ever added to (or moved out of) the caller's namespace.
#
# As a library (needs root; does not change the caller's shell options):
#   . tests/e2e/netns.sh
#   nb_netns_up nb123        # namespaces nb123a/nb123b, links nb123va/nb123vb
#   ip netns exec nb123a dpdk-nbench --vdev net_af_packet0,iface=nb123va ...
#   nb_netns_down nb123
#
# As a command:
#   tests/e2e/netns.sh up nb123
#   tests/e2e/netns.sh down nb123
#
# PREFIX: 1 to 13 letters, digits, '_' or '-', not starting with '-'
# (interface names are limited to 15 characters). Use a prefix of your own,
# e.g. "nb$$": nb_netns_down deletes the namespaces PREFIXa and PREFIXb,
# whoever made them, while nb_netns_up refuses to reuse existing ones.

_nb_netns_err() { printf 'netns: %s\n' "$*" >&2; }

_nb_netns_check_prefix() {
	if [[ ! ${1-} =~ ^[A-Za-z0-9][A-Za-z0-9_-]{0,12}$ ]]; then
		_nb_netns_err "bad prefix '${1-}': want 1-13 of [A-Za-z0-9_-], starting with a letter or digit (names PREFIXva/PREFIXvb must fit 15 chars)"
		return 2
	fi
}

# True if network namespace $1 exists (by name, as ip netns sees it).
nb_netns_exists() {
	local name
	while read -r name _; do
		[[ $name == "$1" ]] && return 0
	done < <(ip netns list 2>/dev/null)
	return 1
}

# Disable IPv6 on interface $2 inside namespace $1. A kernel without IPv6 has
# nothing to disable. (Same as sysctl net.ipv6.conf.<if>.disable_ipv6=1 run
# in the namespace, without needing procps.)
_nb_netns_no_ipv6() {
	local path="/proc/sys/net/ipv6/conf/$2/disable_ipv6"
	# shellcheck disable=SC2016 # $1 is expanded by the inner sh
	ip netns exec "$1" sh -c '[ ! -e "$1" ] || echo 1 > "$1"' sh "$path"
}

# Wait (up to about 5 s) until interface $2 in namespace $1 has carrier, so
# that traffic can start as soon as nb_netns_up returns.
_nb_netns_wait_up() {
	local i
	for ((i = 0; i < 50; i++)); do
		[[ $(ip -n "$1" -o link show dev "$2" 2>/dev/null) == *" state UP "* ]] && return 0
		sleep 0.1
	done
	_nb_netns_err "$2 in $1 did not come up"
	return 1
}

# nb_netns_up PREFIX: create namespaces PREFIXa and PREFIXb joined by the veth
# pair PREFIXva (in PREFIXa) and PREFIXvb (in PREFIXb). Returns non-zero, with
# nothing left behind, if any step fails or either namespace already exists.
nb_netns_up() {
	local p="${1-}"
	_nb_netns_check_prefix "$p" || return
	local nsa="${p}a" nsb="${p}b" va="${p}va" vb="${p}vb" ns
	local -a made=()

	for ns in "$nsa" "$nsb"; do
		if nb_netns_exists "$ns"; then
			_nb_netns_err "namespace $ns already exists; not touching it (nb_netns_down $p removes it)"
			return 1
		fi
	done

	# Each step runs only if the previous one worked; on failure undo only
	# what this call created.
	if ip netns add "$nsa" && made+=("$nsa") &&
		ip netns add "$nsb" && made+=("$nsb") &&
		ip link add "$va" netns "$nsa" type veth peer name "$vb" netns "$nsb" &&
		_nb_netns_no_ipv6 "$nsa" "$va" &&
		_nb_netns_no_ipv6 "$nsb" "$vb" &&
		ip -n "$nsa" link set lo up &&
		ip -n "$nsb" link set lo up &&
		ip -n "$nsa" link set "$va" up &&
		ip -n "$nsb" link set "$vb" up &&
		_nb_netns_wait_up "$nsa" "$va" && _nb_netns_wait_up "$nsb" "$vb"; then
		return 0
	fi
	_nb_netns_err "setting up $nsa/$nsb failed; removing what was created"
	for ns in "${made[@]}"; do
		ip netns del "$ns" 2>/dev/null
	done
	return 1
}

# nb_netns_down PREFIX: delete namespaces PREFIXa and PREFIXb (the veth pair
# goes with them). Namespaces that do not exist are ignored.
nb_netns_down() {
	local p="${1-}"
	_nb_netns_check_prefix "$p" || return
	local ns pids rc=0
	for ns in "${p}a" "${p}b"; do
		nb_netns_exists "$ns" || continue
		pids=$(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ')
		if [[ -n $pids ]]; then
			_nb_netns_err "warning: processes still in $ns (${pids% }): it and its veth end live on until they exit"
		fi
		ip netns del "$ns" || rc=1
	done
	return "$rc"
}

# Run as a command rather than sourced.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -euo pipefail
	usage() {
		printf 'usage: %s up PREFIX | down PREFIX\n' "$0"
		printf '  up:   namespaces PREFIXa, PREFIXb joined by veth PREFIXva <-> PREFIXvb\n'
		printf '  down: delete namespaces PREFIXa and PREFIXb\n'
	}
	if [[ $# -eq 1 && ($1 == -h || $1 == --help) ]]; then
		usage
		exit 0
	fi
	if [[ $# -ne 2 ]]; then
		usage >&2
		exit 2
	fi
	if [[ $(id -u) -ne 0 ]]; then
		_nb_netns_err "needs root (network namespaces): sudo $0 $*"
		exit 1
	fi
	case "$1" in
	up) nb_netns_up "$2" ;;
	down) nb_netns_down "$2" ;;
	*)
		usage >&2
		exit 2
		;;
	esac
fi
