#!/usr/bin/env bash
# Prepare a Debian 12 machine to build, test and run dpdk-nbench:
# install the packages, reserve 2 MiB hugepages and mount hugetlbfs.
#
# Run as root. Safe to run again: it only installs what is missing, only
# raises the hugepage reservation, and mounts hugetlbfs only if it is not
# mounted yet. Works without a terminal (CI).
#
#   sudo scripts/setup.sh                          # packages + 1024 MiB of hugepages
#   sudo NB_HUGEPAGES_MB=2048 scripts/setup.sh     # reserve more
#   sudo scripts/setup.sh --no-apt                 # hugepages only
#
# See hugepages.md for what the hugepages are for and how to reserve them
# at boot instead.
set -euo pipefail

# The packages: scripts/packages.list, every [group] (the Ansible role
# reads the same file). Words after '#' are comments.
PACKAGES=()
while IFS= read -r line; do
	line=${line%%#*}
	[[ $line =~ ^[[:space:]]*\[.*\][[:space:]]*$ ]] && continue
	for p in $line; do
		PACKAGES+=("$p")
	done
done <"$(dirname "${BASH_SOURCE[0]}")/packages.list"
((${#PACKAGES[@]} > 0)) || { printf 'setup: error: no packages in scripts/packages.list\n' >&2; exit 1; }

HUGEPAGES_MB="${NB_HUGEPAGES_MB:-1024}"
HUGE_SYSFS=/sys/kernel/mm/hugepages
HUGE_2M="$HUGE_SYSFS/hugepages-2048kB"
HUGE_MNT=/dev/hugepages
# apt-get update is skipped when the package lists were refreshed this
# recently. apt keeps a list file's server timestamp when it did not change,
# so the script keeps its own stamp (the name other apt tools use).
APT_STAMP=/var/lib/apt/periodic/update-success-stamp
APT_MAX_AGE_MIN=60

log() { printf 'setup: %s\n' "$*"; }
warn() { printf 'setup: warning: %s\n' "$*" >&2; }
die() {
	printf 'setup: error: %s\n' "$*" >&2
	exit 1
}

usage() {
	cat <<EOF
Usage: sudo scripts/setup.sh [--no-apt] [--no-hugepages]

Installs the Debian packages dpdk-nbench needs, reserves 2 MiB hugepages
and mounts hugetlbfs at $HUGE_MNT. Idempotent; run as root.

Options:
  --no-apt         do not install packages
  --no-hugepages   do not reserve hugepages or mount hugetlbfs
  -h, --help       show this help and exit

Environment:
  NB_HUGEPAGES_MB  MiB of 2 MiB hugepages to have reserved (default 1024).
                   The reservation is only ever raised, never lowered.

See hugepages.md for details and troubleshooting.
EOF
}

do_apt=1
do_huge=1
while (($#)); do
	case "$1" in
	--no-apt) do_apt=0 ;;
	--no-hugepages) do_huge=0 ;;
	-h | --help)
		usage
		exit 0
		;;
	*)
		printf 'setup: unknown option: %s\n\n' "$1" >&2
		usage >&2
		exit 2
		;;
	esac
	shift
done

if [[ $(id -u) -ne 0 ]]; then
	printf 'setup: run as root: sudo scripts/setup.sh\n' >&2
	exit 1
fi

if ((do_huge)) && [[ ! $HUGEPAGES_MB =~ ^[1-9][0-9]{0,6}$ ]]; then
	die "NB_HUGEPAGES_MB must be a positive number of MiB, not '$HUGEPAGES_MB'"
fi

# ---------------------------------------------------------------- packages

pkg_installed() {
	local status
	status=$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) || return 1
	[[ $status == "install ok installed" ]]
}

# True if the apt lists have no installable version of package $1.
pkg_unknown() {
	local cand
	cand=$(apt-cache policy "$1" 2>/dev/null | awk '$1 == "Candidate:" { print $2 }')
	[[ -z $cand || $cand == "(none)" ]]
}

apt_lists_fresh() {
	[[ -e $APT_STAMP ]] || return 1
	[[ -n $(find "$APT_STAMP" -maxdepth 0 -mmin "-$APT_MAX_AGE_MIN" 2>/dev/null) ]]
}

apt_update() {
	log "apt-get update"
	apt-get update -q
	mkdir -p "$(dirname "$APT_STAMP")"
	touch "$APT_STAMP"
}

apt_install() {
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		-o DPkg::Lock::Timeout=300 \
		-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
		"$@"
}

install_packages() {
	local missing=() p need_update=0
	for p in "${PACKAGES[@]}"; do
		pkg_installed "$p" || missing+=("$p")
	done
	if ((${#missing[@]} == 0)); then
		log "packages: all ${#PACKAGES[@]} installed, skipping apt"
		return
	fi
	log "packages to install: ${missing[*]}"

	if ! apt_lists_fresh; then
		need_update=1
	else
		for p in "${missing[@]}"; do
			if pkg_unknown "$p"; then
				need_update=1
				break
			fi
		done
	fi
	if ((need_update)); then
		apt_update
	fi

	# tshark asks whether non-root users may capture; answer it up front.
	debconf-set-selections <<<'wireshark-common wireshark-common/install-setuid boolean false'

	if ! apt_install "${missing[@]}"; then
		if ((need_update)); then
			die "apt-get install failed"
		fi
		# Lists younger than the limit can still point at removed files.
		warn "apt-get install failed; refreshing package lists and retrying"
		apt_update
		apt_install "${missing[@]}" || die "apt-get install failed"
	fi
}

# --------------------------------------------------------------- hugepages

read_nr() { cat "$HUGE_2M/nr_hugepages"; }

# Write $1 to nr_hugepages and return how many pages the kernel now holds.
write_nr() {
	if ! printf '%s\n' "$1" >"$HUGE_2M/nr_hugepages" 2>/dev/null; then
		die "cannot write $HUGE_2M/nr_hugepages (a container without privileges?); see hugepages.md"
	fi
	read_nr
}

reserve_hugepages() {
	local want cur got

	[[ -d $HUGE_SYSFS ]] || die "kernel has no hugetlb support (see hugepages.md)"
	[[ -d $HUGE_2M ]] || die "kernel has no 2 MiB hugepages ($HUGE_2M missing; see hugepages.md)"

	want=$(((HUGEPAGES_MB + 1) / 2))
	cur=$(read_nr)
	if ((cur >= want)); then
		log "hugepages: $cur x 2 MiB reserved (need $want), unchanged"
		return
	fi

	log "hugepages: raising 2 MiB pages from $cur to $want ($HUGEPAGES_MB MiB)"
	got=$(write_nr "$want")
	if ((got < want)); then
		# Usually fragmented memory: free the page cache, compact, retry once.
		log "hugepages: kernel gave only $got of $want; dropping caches and compacting memory"
		sync
		echo 3 >/proc/sys/vm/drop_caches
		if [[ -w /proc/sys/vm/compact_memory ]]; then
			echo 1 >/proc/sys/vm/compact_memory
		fi
		got=$(write_nr "$want")
	fi
	if ((got < want)); then
		# Do not leave a partial reservation holding memory nobody asked for.
		write_nr "$cur" >/dev/null
		die "only $got of $want 2 MiB hugepages could be reserved ($((got * 2)) of $HUGEPAGES_MB MiB): not enough free memory, or too fragmented; left the reservation at $cur pages. Reserve them at boot or ask for less (NB_HUGEPAGES_MB); see hugepages.md"
	fi
	log "hugepages: $got x 2 MiB reserved"
}

hugetlbfs_mounted_at() {
	awk -v m="$1" '$2 == m && $3 == "hugetlbfs" { found = 1 } END { exit !found }' /proc/mounts
}

mount_hugetlbfs() {
	if hugetlbfs_mounted_at "$HUGE_MNT"; then
		log "hugetlbfs: already mounted at $HUGE_MNT"
	else
		if awk -v m="$HUGE_MNT" '$2 == m { found = 1 } END { exit !found }' /proc/mounts; then
			die "$HUGE_MNT is mounted but is not hugetlbfs; see hugepages.md"
		fi
		mkdir -p "$HUGE_MNT"
		mount -t hugetlbfs -o pagesize=2M nodev "$HUGE_MNT" ||
			die "cannot mount hugetlbfs at $HUGE_MNT (a container without privileges?); see hugepages.md"
		log "hugetlbfs: mounted at $HUGE_MNT"
	fi
	# DPDK only uses 2 MiB pages through a hugetlbfs mount of that page size.
	if ! awk '$3 == "hugetlbfs" && $4 ~ /(^|,)pagesize=2M(,|$)/ { found = 1 } END { exit !found }' /proc/mounts; then
		warn "no hugetlbfs mount has pagesize=2M (the default hugepage size is not 2 MiB?): DPDK cannot use the 2 MiB pages; see hugepages.md"
	fi
}

# ----------------------------------------------------------------- summary

summary() {
	local total free mounts ver
	log "summary:"
	if [[ -d $HUGE_2M ]]; then
		total=$(cat "$HUGE_2M/nr_hugepages")
		free=$(cat "$HUGE_2M/free_hugepages")
		printf '  hugepages 2 MiB: %s total (%s MiB), %s free (%s MiB)\n' \
			"$total" $((total * 2)) "$free" $((free * 2))
		if ((do_huge && free * 2 < HUGEPAGES_MB)); then
			warn "only $((free * 2)) MiB of hugepages are free: used by running DPDK processes or stale hugepage files (see hugepages.md)"
		fi
	else
		printf '  hugepages 2 MiB: not supported by this kernel\n'
	fi
	if [[ -d $HUGE_SYSFS/hugepages-1048576kB ]]; then
		total=$(cat "$HUGE_SYSFS/hugepages-1048576kB/nr_hugepages")
		free=$(cat "$HUGE_SYSFS/hugepages-1048576kB/free_hugepages")
		if ((total > 0)); then
			printf '  hugepages 1 GiB: %s total, %s free\n' "$total" "$free"
		fi
	fi
	mounts=$(awk '$3 == "hugetlbfs" { printf "%s%s (%s)", sep, $2, $4; sep = ", " }' /proc/mounts)
	printf '  hugetlbfs: %s\n' "${mounts:-not mounted}"
	ver=$(pkg-config --modversion libdpdk 2>/dev/null) || ver="not found (pkg-config libdpdk)"
	printf '  dpdk: %s\n' "$ver"
}

if ((do_apt)); then
	install_packages
else
	log "packages: skipped (--no-apt)"
fi

if ((do_huge)); then
	reserve_hugepages
	mount_hugetlbfs
else
	log "hugepages: skipped (--no-hugepages)"
fi

summary
