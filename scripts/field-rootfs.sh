#!/usr/bin/env bash
# Build the field guest's root file system (issue 31, item 2): Debian 12
# made with mmdebstrap (variant apt, no Recommends, no man pages, locales
# or docs but the copyrights) from the Debian archive the host's apt
# sources name, with the applications of issue 31 item 3 installed:
# PostgreSQL 15 (pgbench is in postgresql-client-15), nginx, ab
# (apache2-utils) and wrk, fio, stress-ng, and build-essential with a C
# code base to build: Debian's Linux 6.12 source (linux-source-6.12, the
# tarball in /usr/src) and what its build needs (bc, bison, flex,
# libelf-dev), and e2fsprogs, procps, util-linux, mount and iproute2 for
# a shell-script init. Writes build/field/rootfs.ext4 (ext4, mke2fs -d, sparse,
# the files plus FIELD_HEADROOM_MB, default 2048 MiB, free) and
# build/field/rootfs.manifest (dpkg-query -W inside). No service runs
# during the build (mmdebstrap's policy-rc.d) nor is enabled in the
# image: the systemd links and SysV S links the packages made are removed
# (units masked, init scripts disabled); the guest's init starts what it
# runs itself. Cached by content: the key is this script, the package
# list, the headroom and the host's deb.debian.org sources lines; with an
# image of that key it says so and exits 0 without building, so a newer
# package in the archive is not picked up until the key changes (rm
# build/field/rootfs.key to rebuild). Needs root, mmdebstrap and
# e2fsprogs (scripts/install-deps.sh field), about 2 GB free in build/
# while it builds (the tree, then the image). Prints the image's path.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,23s/^# \{0,1\}//p' "$0"
	echo "usage: [FIELD_HEADROOM_MB=N] $0    (root; BUILD=DIR for build/)"
	exit 0
fi
source "$(dirname "$0")/env.sh"
source "$REPO/scripts/result-cache.sh"
[ $# = 0 ] || die "no arguments (see --help)"
[ "$(id -u)" = 0 ] || die "needs root (mmdebstrap's root mode, the image's owners)"
for c in mmdebstrap mke2fs; do
	command -v "$c" >/dev/null || die "$c is missing: run scripts/install-deps.sh field"
done
export LC_ALL=C
headroom=${FIELD_HEADROOM_MB:-2048}
[[ $headroom =~ ^[0-9]+$ ]] || die "FIELD_HEADROOM_MB=$headroom is not a number of MiB"
out=$BUILD/field
image=$out/rootfs.ext4 manifest=$out/rootfs.manifest keyfile=$out/rootfs.key
work=$out/rootfs.work

# The applications (issue 31 item 3), the C code base and its build's
# needs, and what a shell-script init uses.
packages=(postgresql postgresql-client-15 nginx apache2-utils wrk fio stress-ng
	build-essential linux-source-6.12 bc bison flex libelf-dev xz-utils
	e2fsprogs procps util-linux mount iproute2)
# Files that must be in the image.
needed=(usr/lib/postgresql/15/bin/pg_ctl usr/lib/postgresql/15/bin/pgbench
	usr/sbin/nginx usr/bin/ab usr/bin/wrk usr/bin/fio usr/bin/stress-ng
	usr/bin/gcc usr/bin/make usr/src/linux-source-6.12.tar.xz usr/sbin/mke2fs
	usr/bin/ps usr/bin/mount usr/sbin/ip)

# host_sources: the host's apt sources for deb.debian.org, one-line form
# ("deb URI SUITE COMPONENT..."), from sources.list, *.list and deb822
# *.sources (enabled "deb" entries only).
host_sources() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		sed -n 's/[[:space:]]*#.*//; s/\[[^]]*\][[:space:]]*//; /^deb[[:space:]]/p' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'function flush() {
			if (types ~ /(^| )deb( |$)/ && enabled != "no")
				for (u in uris) for (s in suites) print "deb", uris[u], suites[s], comps
			types = ""; enabled = ""; comps = ""; delete uris; delete suites
		}
		/^[[:space:]]*#/ { next }
		/^[[:space:]]*$/ { flush(); next }
		{ v = $0; sub(/^[^:]*:[[:space:]]*/, "", v); k = tolower($1) }
		k == "types:" { types = v }
		k == "enabled:" { enabled = tolower(v) }
		k == "uris:" { split(v, uris, /[[:space:]]+/) }
		k == "suites:" { split(v, suites, /[[:space:]]+/) }
		k == "components:" { comps = v }
		END { flush() }' "$f"
	done
}
mapfile -t sources < <(host_sources | awk '$2 ~ /^https?:\/\/deb\.debian\.org\// { $1 = $1; print }' | sort -u)
[ ${#sources[@]} != 0 ] || die "no deb.debian.org source in /etc/apt/sources.list{,.d/}"

key=$({ echo field-rootfs; script_id "$0"; printf '%s\n' "${packages[@]}" "headroom $headroom" "${sources[@]}"; } | result_key)
mkdir -p "$out"
exec 9>"$out/.lock"
flock -n 9 || die "another field-rootfs.sh is building in $out"
if [ -f "$image" ] && [ -f "$manifest" ] && [ "$(cat "$keyfile" 2>/dev/null)" = "$key" ]; then
	note "field rootfs: $image is already built from this script, package list and sources (key $key; cached, not rebuilt)"
	echo "$image"
	exit 0
fi

# clean: remove the work directory, never across a mount point (a
# killed mmdebstrap could leave its /proc or /dev mounts there).
clean() {
	[ -e "$work" ] || return 0
	if findmnt -rn -o TARGET | grep -q "^$work/"; then
		die "mounts are left under $work (findmnt | grep $work): unmount them, then rm -rf $work"
	fi
	rm -rf --one-file-system "$work"
}
clean
trap clean EXIT
trap 'exit 143' TERM
trap 'exit 129' HUP
trap 'exit 130' INT
mkdir -p "$work"
root=$work/root
note "field rootfs: mmdebstrap bookworm from ${sources[*]}"
note "field rootfs: with ${packages[*]}"
start=$SECONDS
mmdebstrap --mode=root --variant=apt --format=directory \
	--include="$(IFS=,; echo "${packages[*]}")" \
	--dpkgopt='path-exclude=/usr/share/man/*' \
	--dpkgopt='path-exclude=/usr/share/locale/*' \
	--dpkgopt='path-include=/usr/share/locale/locale.alias' \
	--dpkgopt='path-exclude=/usr/share/doc/*' \
	--dpkgopt='path-include=/usr/share/doc/*/copyright' \
	bookworm "$root" "${sources[@]}" >&2 || die "mmdebstrap failed"
findmnt -rn -o TARGET | grep -q "^$root/" && die "mmdebstrap left mounts under $root"

# Nothing starts at boot: each unit a package enabled is masked (its
# links removed), each init script's S links become K links.
mapfile -t units < <(find "$root/etc/systemd/system" -path '*.wants/*' -type l -printf '%f\n' 2>/dev/null | sort -u)
for u in "${units[@]}"; do
	find "$root/etc/systemd/system" -path '*.wants/*' -name "$u" -type l -delete
	[ -e "$root/etc/systemd/system/$u" ] || ln -s /dev/null "$root/etc/systemd/system/$u"
done
mapfile -t scripts < <(find "$root"/etc/rc[0-6S].d -maxdepth 1 -name 'S[0-9][0-9]*' -printf '%f\n' 2>/dev/null |
	sed 's/^S[0-9][0-9]//' | sort -u)
for s in "${scripts[@]}"; do
	chroot "$root" update-rc.d "$s" disable >/dev/null 2>&1 || true
	for l in "$root"/etc/rc[0-6S].d/S[0-9][0-9]"$s"; do
		[ ! -L "$l" ] || mv "$l" "$(dirname "$l")/K01$s"
	done
done
note "field rootfs: masked ${units[*]:-no unit}; init scripts disabled: ${scripts[*]:-none}"
left=$(find "$root/etc/systemd/system" -path '*.wants/*' -type l 2>/dev/null
	find "$root"/etc/rc[0-6S].d -maxdepth 1 -name 'S[0-9][0-9]*' 2>/dev/null)
[ -z "$left" ] || die "still enabled in the image: $left"

missing=()
for f in "${needed[@]}"; do
	[ -e "$root/$f" ] || missing+=("/$f")
done
[ ${#missing[@]} = 0 ] || die "not in the image: ${missing[*]}"

dpkg-query --admindir="$root/var/lib/dpkg" -W >"$work/manifest"
mapfile -t pv < <(awk -F'\t' '{ print $1 "=" $2 }' "$work/manifest")
download=$(apt-cache show --no-all-versions "${pv[@]}" 2>/dev/null |
	awk '/^Size: / { d += $2 } END { printf "%.0f", d / 1e6 }' || true)

# The image: the files' blocks plus an eighth, plus the headroom; inodes
# for the files twice over and the headroom's (one per 16 KiB).
used=$(du -s --block-size=1M "$root" | cut -f1)
files=$(find "$root" -xdev | wc -l)
size=$((used + used / 8 + headroom))
inodes=$((files * 2 + headroom * 64))
rm -f "$work/rootfs.ext4"
truncate -s "${size}M" "$work/rootfs.ext4"
mke2fs -q -F -t ext4 -L field-root -m 0 -N "$inodes" -d "$root" "$work/rootfs.ext4" ||
	die "mke2fs -d failed"
fsck=$(e2fsck -fn "$work/rootfs.ext4" 2>&1) || { echo "$fsck" >&2; die "e2fsck -fn finds errors in the new image"; }
mv "$work/rootfs.ext4" "$image"
mv "$work/manifest" "$manifest"
echo "$key" >"$keyfile"
note "field rootfs: $image in $((SECONDS - start)) s: $(wc -l <"$manifest") packages (download about ${download:-?} MB), files ${used} MiB, image ${size} MiB (sparse; $(du -s --block-size=1M "$image" | cut -f1) MiB on disk), manifest $manifest"
echo "$image"
