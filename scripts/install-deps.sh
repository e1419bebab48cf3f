#!/usr/bin/env bash
# Install the Debian packages that GROUP... needs, when any is missing, and
# say which and how much (apt's list, download and installed sizes) before
# installing. Groups: build (the kernel), guest (QEMU, busybox), lint,
# host-tests (tools/*/debian-packages), distro (Debian's kernel
# configurations, the arm64 cross compiler), bench (bpftrace, pahole), arm64
# (the arm64 guest: the cross compiler and C library, qemu-system-aarch64,
# and busybox-static's arm64 .deb, fetched to ARM64_DEBS and unpacked
# there: the machine's dpkg architectures are left as they are), deb (the
# tool's package: a compiler, dpkg-dev's dpkg-shlibdeps), kernel-deb (the
# kernel's packages, scripts/deb.sh: the debhelper tools that bindeb-pkg's
# debian/rules runs), field (the
# field guest's Debian root file system image, scripts/field-rootfs.sh:
# mmdebstrap, and e2fsprogs' mke2fs -d and e2fsck; its kernel,
# scripts/field-kernel.sh: Debian's configuration and pahole for BTF; its
# guest: qemu-system-x86); demo is build
# and guest, check is build, guest, lint, host-tests, distro, arm64 (make
# check boots the arm64 guest) and deb; no group: all of them. Needs root
# (or sudo) only when there is something to install.
#
# The install starts and enables no service: a temporary policy-rc.d that
# exits 101 keeps the packages' maintainer scripts (invoke-rc.d,
# deb-systemd-invoke) from starting any, every service the install enabled
# (a new symlink under /etc/systemd/system, or a new S link of
# /etc/rc?.d where the package has an init script) is disabled again, and
# a policy-rc.d that was there is put back. Once per machine, the
# prometheus and prometheus-node-exporter services that an earlier install
# of ours left enabled are disabled and stopped (systemctl where systemd
# runs, else the init script through invoke-rc.d), saying so (see
# Documentation/developing.md); the stamp
# /var/cache/sched-points/services-cleaned-up says it was done.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,31s/^# \{0,1\}//p' "$0"
	echo "usage: $0 [GROUP...]    GROUP: build guest lint host-tests distro bench arm64 deb kernel-deb field demo check all"
	echo "  (for the tests: SYSTEMD_ROOT, SYSTEMD_RUN, SYSV_ROOT, POLICY_RC_D, SP_STATE_DIR"
	echo "  and APT_HISTORY_DIR move /etc/systemd/system, /run/systemd/system, /etc (its"
	echo "  init.d and rc?.d), /usr/sbin/policy-rc.d, /var/cache/sched-points and /var/log/apt)"
	exit 0
fi
source "$(dirname "$0")/env.sh"
args=("$@")
SYSTEMD_ROOT=${SYSTEMD_ROOT:-/etc/systemd/system}
SYSTEMD_RUN=${SYSTEMD_RUN:-/run/systemd/system}
SYSV_ROOT=${SYSV_ROOT:-/etc}
POLICY_RC_D=${POLICY_RC_D:-/usr/sbin/policy-rc.d}
SP_STATE_DIR=${SP_STATE_DIR:-/var/cache/sched-points}
APT_HISTORY_DIR=${APT_HISTORY_DIR:-/var/log/apt}
stamp=$SP_STATE_DIR/services-cleaned-up
# The units of the packages of ours that ship one (tools/schedpoints/
# debian-packages: the tests run their programs, never the services).
our_units=(prometheus.service prometheus-node-exporter.service)

# group_packages GROUP: the packages it needs, one a line.
group_packages() {
	case $1 in
	build)
		printf '%s\n' build-essential bc bison flex libelf-dev libssl-dev cpio \
			xz-utils rsync kmod ccache git python3 file
		[ -n "${KERNEL_SRC:-}" ] || echo linux-source-6.12 ;;
	guest) printf '%s\n' busybox-static qemu-system-x86 ;;
	lint) printf '%s\n' sparse codespell shellcheck clang python3-ply python3-git ;;
	distro) printf '%s\n' linux-config-6.12 gcc-aarch64-linux-gnu ;;
	host-tests) grep -hv '^#' "$REPO"/tools/*/debian-packages ;;
	bench) printf '%s\n' bpftrace dwarves ;;
	arm64) printf '%s\n' gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm ;;
	deb) printf '%s\n' build-essential dpkg-dev ;;
	kernel-deb) echo debhelper ;;
	field) printf '%s\n' mmdebstrap e2fsprogs linux-config-6.12 dwarves qemu-system-x86 ;;
	demo) group_packages build; group_packages guest ;;
	check) for g in build guest lint host-tests distro arm64 deb; do group_packages "$g"; done ;;
	all) for g in check bench field kernel-deb; do group_packages "$g"; done ;;
	esac
}

[ $# != 0 ] || set -- all
for g in "$@"; do
	[[ $g =~ ^(build|guest|lint|host-tests|distro|bench|arm64|deb|kernel-deb|field|demo|check|all)$ ]] ||
		die "unknown group '$g' (build guest lint host-tests distro bench arm64 deb kernel-deb field demo check all)"
done

# The arm64 guest's busybox: Debian's busybox-static for arm64, fetched
# with apt from the configured archive into an apt state of its own under
# ARM64_DEBS (its lists for amd64 and arm64, about 40 MB, signatures
# checked as usual, removed afterwards), unpacked with dpkg-deb -x, never
# installed: no
# "dpkg --add-architecture", no change to the machine's apt lists. Once;
# remove ARM64_DEBS to fetch the archive's current version again.
arm64_busybox() {
	local d=$ARM64_DEBS deb
	local -a o
	[ ! -x "$d/root/bin/busybox" ] || return 0
	note "arm64: fetching busybox-static:arm64 into $d (apt lists of its own; dpkg's architectures unchanged)"
	rm -rf "$d"
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/root"
	o=(-q -o Dir::State::Lists="$d/lists" -o Dir::Cache="$d/cache"
	   -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
	   -o APT::Architectures::=arm64 -o APT::Sandbox::User="$(id -un)")
	apt-get "${o[@]}" update >&2 || die "arm64: apt-get update (lists in $d) failed"
	(cd "$d" && apt-get "${o[@]}" download busybox-static:arm64 >&2) ||
		die "arm64: cannot download busybox-static:arm64"
	deb=$(find "$d" -maxdepth 1 -name 'busybox-static_*_arm64.deb' | head -1)
	[ -n "$deb" ] || die "arm64: no busybox-static arm64 .deb in $d"
	dpkg-deb -x "$deb" "$d/root"
	[ -x "$d/root/bin/busybox" ] || die "arm64: $deb has no bin/busybox"
	rm -rf "$d/lists" "$d/cache"
	note "arm64: busybox $(dpkg-deb -f "$deb" Version) for arm64 in $d/root/bin/busybox"
}
for g in "$@"; do
	case $g in arm64|check|all) arm64_busybox; break ;; esac
done
mapfile -t pkgs < <(for g in "$@"; do group_packages "$g"; done | grep -v '^$' | sort -u)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done

# unit_links: every symlink under $SYSTEMD_ROOT, "PATH TARGET" (how
# systemctl enable and Debian's deb-systemd-helper enable a unit), and
# every start link of the SysV runlevels, "PATH NAME.service" (how
# update-rc.d enables an init script: systemd-sysv-install where systemd
# is installed, the only record where it is not).
unit_links() {
	{
		[ ! -d "$SYSTEMD_ROOT" ] || find "$SYSTEMD_ROOT" -type l -printf '%p %l\n'
		sysv_starts | awk '{ n = $0; sub(/.*\/S[0-9][0-9]/, "", n); print $0, n ".service" }'
	} 2>/dev/null | sort
}

# sysv_starts [NAME]: the S links of /etc/rc?.d (of NAME's init script).
sysv_starts() {
	find "$SYSV_ROOT"/rc[0-6S].d -maxdepth 1 -name "S[0-9][0-9]${1:-?*}" 2>/dev/null
}

# systemd_runs: systemd is PID 1 (sd_booted()'s test); in a container or
# under another init, systemctl can still disable, but not stop.
systemd_runs() { [ -d "$SYSTEMD_RUN" ]; }

# enabled UNIT: a *.wants/ link of $SYSTEMD_ROOT, or an S link of its init
# script, starts UNIT at boot.
enabled() {
	[ -n "$(find "$SYSTEMD_ROOT" -path "*.wants/$1" -type l 2>/dev/null)" ] ||
		[ -n "$(sysv_starts "${1%.service}")" ]
}

# disable_units WHY UNIT...: disable each unit (its systemd links and its
# init script's S links) and stop it: through systemctl where systemd
# runs, else through its init script (invoke-rc.d) where it has one.
disable_units() {
	local why=$1 u name
	shift
	for u in "$@"; do
		name=${u%.service}
		if systemd_runs; then
			note "disabling $u and stopping it ($why; 'systemctl enable --now $u' if you want it)"
		else
			note "disabling $u and stopping it, systemd not running ($why; 'update-rc.d $name enable' and 'invoke-rc.d $name start' if you want it)"
		fi
		if command -v systemctl >/dev/null; then
			systemctl disable --quiet "$u" >&2 || true
			! systemd_runs || systemctl stop "$u" >&2 || true
		fi
		find "$SYSTEMD_ROOT" -type l -lname "*/$u" -delete 2>/dev/null || true
		if [ -n "$(sysv_starts "$name")" ] && command -v update-rc.d >/dev/null; then
			update-rc.d "$name" disable >&2 || true
		fi
		# (during our install, our policy-rc.d has let nothing start)
		if ! systemd_runs && [ -x "$SYSV_ROOT/init.d/$name" ] &&
			! grep -qsxF "$marker" "$POLICY_RC_D" &&
			command -v invoke-rc.d >/dev/null; then
			invoke-rc.d "$name" stop >&2 || true
		fi
	done
}

# installed_by_us PACKAGE: apt's history has PACKAGE on the command line
# of one of our installs ("apt-get install -y --no-install-recommends").
installed_by_us() {
	zcat -f "$APT_HISTORY_DIR"/history.log* 2>/dev/null |
		awk -v p="$1" '/^Commandline: apt-get install -y --no-install-recommends / {
			for (i = 6; i <= NF; i++) if ($i == p) found = 1
		} END { exit !found }'
}

# left_enabled: the units of ours that an earlier install (before this
# one disabled what it enabled) left enabled, until the stamp says that
# they were dealt with: a unit enabled after that is the user's.
left_enabled() {
	local u
	[ ! -e "$stamp" ] || return 0
	for u in "${our_units[@]}"; do
		enabled "$u" && installed_by_us "${u%.service}" && echo "$u"
	done
	return 0
}

# policy_restore: put back the policy-rc.d that was there (or none).
saved=$POLICY_RC_D.sched-points-saved
marker='# sched-points install-deps.sh: no service starts during the install'
policy_stale() { [ -e "$saved" ] || [ -L "$saved" ] || grep -qsxF "$marker" "$POLICY_RC_D"; }
policy_restore() {
	if [ -e "$saved" ] || [ -L "$saved" ]; then
		mv -f "$saved" "$POLICY_RC_D"
	elif grep -qsxF "$marker" "$POLICY_RC_D"; then
		rm -f "$POLICY_RC_D"
	fi
}

mapfile -t left < <(left_enabled)
stale=0
policy_stale && stale=1
if [ ! -e "$stamp" ] && [ ${#missing[@]} = 0 ] && [ ${#left[@]} = 0 ]; then
	{ mkdir -p "$SP_STATE_DIR" && : >"$stamp"; } 2>/dev/null || true
fi
[ ${#missing[@]} != 0 ] || [ ${#left[@]} != 0 ] || [ $stale = 1 ] || exit 0
if [ "$(id -u)" != 0 ]; then
	note "root is needed: sudo $0 ${args[*]}"
	exec sudo env KERNEL_SRC="${KERNEL_SRC:-}" "$0" "${args[@]}"
fi

# A run killed during its install (a CI timeout: no EXIT trap on a
# signal before the traps below) left its policy-rc.d: put it back first.
if [ $stale = 1 ]; then
	note "putting $POLICY_RC_D back as it was before a run that was killed during its install"
	policy_restore
fi
if [ ${#left[@]} != 0 ]; then
	disable_units "an earlier 'make demo' or 'make check' left it enabled; done once" "${left[@]}"
fi
mkdir -p "$SP_STATE_DIR"
: >"$stamp"
[ ${#missing[@]} != 0 ] || exit 0

simulate() {
	apt-get install -s --no-install-recommends "${missing[@]}" 2>&1 |
		awk '/^Inst / { print $2 } /^E: / { print > "/dev/stderr"; bad = 1 } END { exit bad }'
}
if ! inst=$(simulate 2>/dev/null); then
	apt-get update >&2
	inst=$(simulate) || die "apt-get cannot install: ${missing[*]}"
fi
mapfile -t inst <<<"$inst"
sizes=$(apt-cache show --no-all-versions "${inst[@]}" | awk '
	/^Size: / { d += $2 } /^Installed-Size: / { i += $2 }
	END { printf "download %.1f MB, installed %.1f MB", d / 1e6, i * 1024 / 1e6 }') ||
	sizes="size unknown"
note "installing Debian packages for ${args[*]:-all}: ${missing[*]}"
note "with what they need, apt installs ${#inst[@]} packages ($sizes): ${inst[*]}"

if [ -e "$POLICY_RC_D" ] || [ -L "$POLICY_RC_D" ]; then
	mv "$POLICY_RC_D" "$saved"
fi
trap policy_restore EXIT
# A signal ends the script through exit, so that the EXIT trap runs.
trap 'exit 143' TERM
trap 'exit 129' HUP
trap 'exit 130' INT
mkdir -p "$(dirname "$POLICY_RC_D")"
printf '#!/bin/sh\n%s\nexit 101\n' "$marker" >"$POLICY_RC_D"
chmod 755 "$POLICY_RC_D"
note "no service starts or stays enabled: $POLICY_RC_D exits 101 during the install (no invoke-rc.d or deb-systemd-invoke start), and what it enables is disabled again"

before=$(unit_links)
rc=0
apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; }
apt_install || { apt-get update >&2 && apt_install; } || rc=$?
# (sort -u: a unit with an init script has a systemd link and S links)
mapfile -t new < <(comm -13 <(echo "$before") <(unit_links) |
	awk '$2 != "/dev/null" { n = split($2, p, "/"); print p[n] }' | sort -u)
[ ${#new[@]} = 0 ] || disable_units "enabled by its package's install" "${new[@]}"
policy_restore
trap - EXIT
[ "$rc" = 0 ] || die "apt-get install failed (exit $rc)"
