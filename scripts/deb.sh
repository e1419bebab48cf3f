#!/usr/bin/env bash
# Build installable Debian packages of the patched kernel and of the tool
# (issue 31, item 6) into build/deb/, check them, install nothing:
#   linux-image-RELEASE_VERSION_ARCH.deb    /boot/vmlinuz-RELEASE, its
#       config and System.map, /lib/modules/RELEASE (the kernel's own
#       `make bindeb-pkg`, whose hooks make the initramfs and update GRUB);
#   linux-headers-RELEASE_VERSION_ARCH.deb  when the config has modules
#       (out-of-tree modules, DKMS);
#   schedpoints_VERSION_ARCH.deb            scripts/deb-tool.sh.
# RELEASE is the kernel's version, the config's CONFIG_LOCALVERSION and
# "-sched-points"; VERSION is the kernel's version, then +gitDATE.TIME.COMMIT
# of the last commit (".dirty" when patches/ or kernel-config/ have
# uncommitted changes or build/linux has commits not exported) and -1.
# bindeb-pkg's linux-libc-dev (it would replace Debian's) and -dbg
# package (build profile pkg.linux-sched-points.nokerneldbg) are left out.
# The config: KCONFIG=FILE (a machine's own, /boot/config-$(uname -r)), with
# CONFIG_SCHED_POINTS=y and Debian's key files (CONFIG_SYSTEM_TRUSTED_KEYS,
# CONFIG_SYSTEM_REVOCATION_KEYS) cleared; by default the field kernel's
# (scripts/field-kernel.sh, built first or cached: Debian's 6.12 config
# reduced to a QEMU guest's virtio devices), whose objects
# build/linux/obj-field are copied to start build/linux/obj-deb, so that
# only the release's files are built again. Objects in build/linux/obj-deb
# (OBJ), ccache, niced, the build lock held from start to end; the log is
# build/deb/kernel-build.log. Kept by a key of the tree, the config, the
# toolchain, the version and the scripts (build/deb/kernel.key).
# Checked: dpkg-deb -I and -c of every package, the image has
# /boot/vmlinuz-RELEASE and a config with CONFIG_SCHED_POINTS=y, and
# `apt-get install --simulate` of the packages together installs the image
# and the tool and removes nothing. The tree must exist (make tree).
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,29s/^# \{0,1\}//p' "$0"
	echo "usage: [KCONFIG=FILE] [OBJ=DIR] $0    (scripts/install-deps.sh build deb kernel-deb, and field without KCONFIG)"
	exit 0
fi
OBJ=${OBJ:-$(dirname "$0")/../build/linux/obj-deb}
source "$(dirname "$0")/env.sh"
source "$REPO/scripts/result-cache.sh"
[ $# = 0 ] || die "no arguments (see --help)"
[ -d "$TREE/.git" ] || die "no patched kernel tree in $TREE: run make tree"
for c in dpkg-buildpackage dh_gencontrol dpkg-deb apt-get rsync; do
	command -v "$c" >/dev/null || die "$c is missing: run scripts/install-deps.sh build deb kernel-deb"
done
if [ -n "${KCONFIG:-}" ]; then
	[ -r "$KCONFIG" ] || die "KCONFIG=$KCONFIG: no such file"
	KCONFIG=$(realpath "$KCONFIG")
fi
OBJ=$(mkdir -p "$OBJ" && cd "$OBJ" && pwd)
export LC_ALL=C TZ=UTC
out=$BUILD/deb
log=$out/kernel-build.log
mkdir -p "$out" "$CCACHE_DIR"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Kernel builds run niced: the machine's other work goes first.
renice -n 10 -p $$ >/dev/null

# The tool's package first: the kernel's packages take its Maintainer.
tooldeb=$("$REPO/scripts/deb-tool.sh")
maintainer=$(dpkg-deb -f "$tooldeb" Maintainer)
email=${maintainer##*<}
email=${email%>}

# The tree is patches/ as they are (or has commits of its own, not yet
# exported: then the version says .dirty).
state=$TREE/.git/sched-points-state
patch_id=$(cat /dev/null "$REPO"/patches/*.patch | sha256sum | cut -c1-16)
head=$(git -C "$TREE" rev-parse HEAD)
commit=$(git -C "$REPO" describe --always --abbrev=7)
if [ "$(sed -n 3p "$state" 2>/dev/null)" = "$head" ]; then
	[ "$(sed -n 2p "$state")" = "$patch_id" ] || die "patches/ changed since $TREE was made: run make tree"
else
	note "deb: $TREE has commits not in patches/ (make export-patches): the version says .dirty"
	commit+=.dirty
fi
if [[ $commit != *.dirty ]] && [ -n "$(git -C "$REPO" status --porcelain --untracked-files=no -- patches kernel-config)$(git -C "$TREE" status --porcelain --untracked-files=no)" ]; then
	commit+=.dirty
fi
kver=$(make -s -C "$TREE" kernelversion)
version=$kver+git$(date -d "@$(git -C "$REPO" log -1 --format=%ct)" +%Y%m%d.%H%M%S).$commit-1
dpkg --validate-version "$version" || die "not a Debian version: $version"
arch=$(dpkg --print-architecture)
source_name=linux-sched-points

# The build lock, held from here to the end (env.sh's kmake takes it per
# make): field-kernel.sh, run under it, gets a lock of its own.
exec 9>"$BUILD_LOCK"
note "deb: waiting for the build lock $BUILD_LOCK"
flock 9
dmake() {
	make -C "$TREE" O="$OBJ" CC="ccache gcc" -j"$JOBS" LOCALVERSION=-sched-points "$@" 9>&-
}

# The config, and the objects to start from.
if [ -n "${KCONFIG:-}" ]; then
	origin="KCONFIG=$KCONFIG"
	cp "$KCONFIG" "$tmp/config"
else
	origin="the field kernel's config (scripts/field-kernel.sh)"
	BUILD_LOCK=$tmp/field.lock "$REPO/scripts/field-kernel.sh" >/dev/null 9>&-
	field=$TREE/obj-field
	if [ "$(cat "$OBJ/deb-config.origin" 2>/dev/null)" != "$origin" ]; then
		note "deb: copying the field kernel's objects $field to $OBJ"
		rsync -a --delete --exclude=/debian/ "$field/" "$OBJ/"
		echo "$origin" >"$OBJ/deb-config.origin"
	fi
	cp "$field/.config" "$tmp/config"
fi
"$TREE/scripts/config" --file "$tmp/config" --enable SCHED_POINTS \
	--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS ""
cmp -s "$tmp/config" "$OBJ/deb-config.in" || cp "$tmp/config" "$OBJ/.config"
cp "$tmp/config" "$OBJ/deb-config.in"
echo "$origin" >"$OBJ/deb-config.origin"
# (syncconfig: bindeb-pkg's mkdebian reads include/config/auto.conf)
{ dmake -s olddefconfig && dmake -s syncconfig; } >"$log" 2>&1 ||
	{ cat "$log" >&2; die "the configuration failed (log: $log)"; }
grep -qx 'CONFIG_SCHED_POINTS=y' "$OBJ/.config" ||
	die "CONFIG_SCHED_POINTS is not y with the config of $origin: it needs 64BIT, PROC_SYSCTL and KALLSYMS"
release=$(dmake -s kernelrelease)
[[ $release == *-sched-points ]] || die "kernel release '$release' does not end in -sched-points"

image=linux-image-${release}_${version}_$arch.deb
hdrpkg=linux-headers-${release}_${version}_$arch.deb
key=$({ echo deb; tree_id "$TREE"; toolchain_id; build_env_id; echo "$version $release"
	cat "$OBJ/.config"; script_id "$0" "$REPO/scripts/env.sh"; } | result_key)
if [ -f "$out/$image" ] && [ "$(cat "$out/kernel.key" 2>/dev/null)" = "$key" ]; then
	note "deb: $image is built from this tree and config (key $key; cached, not rebuilt)"
else
	rm -f "$out/kernel.key" "$out"/linux-image-*.deb "$out"/linux-headers-*.deb
	note "deb: bindeb-pkg of Linux $release, $version, from $origin, in $OBJ (log $log)"
	start=$SECONDS
	# dpkg-buildpackage writes its files next to the objects, in $TREE.
	if ! KDEB_PKGVERSION=$version KDEB_SOURCENAME=$source_name KDEB_CHANGELOG_DIST=unstable \
		DEBFULLNAME=${maintainer% <*} DEBEMAIL=$email \
		DPKG_FLAGS="-Ppkg.$source_name.nokerneldbg" DEB_BUILD_OPTIONS=terse \
		dmake bindeb-pkg >>"$log" 2>&1; then
		grep -E 'error|Error' -A3 "$log" | head -40 >&2
		die "bindeb-pkg failed (log: $log)"
	fi
	changes=$TREE/${source_name}_${version}_$arch.changes
	[ -f "$changes" ] || die "bindeb-pkg wrote no $changes"
	mapfile -t made < <(sed -n '/^Files:/,/^[^ ]/s/^ [0-9a-f]\{32\} .* \([^ ]*\)$/\1/p' "$changes")
	for f in "${made[@]}"; do
		case $f in
		linux-image-*.deb | linux-headers-*.deb) mv "$TREE/$f" "$out/" ;;
		*) rm -f "$TREE/$f" ;;
		esac
	done
	rm -f "$changes"
	rm -f "$OBJ"/.tmp_vmlinux*
	[ -f "$out/$image" ] || die "bindeb-pkg made no $image (made: ${made[*]})"
	# A warning at a file of the series fails, as in field-kernel.sh.
	mapfile -t touched < <(git -C "$TREE" diff --name-only pristine HEAD)
	warned=$(series_warnings "$log" "${touched[@]}")
	if [ -n "$warned" ]; then
		echo "$warned" >&2
		forget_warned "$TREE" "$OBJ" <<<"$warned"
		rm -f "$out/$image" "$out/$hdrpkg"
		die "warnings in the series' files (log: $log)"
	fi
	echo "$key" >"$out/kernel.key"
	note "deb: bindeb-pkg took $((SECONDS - start)) s ($(CCACHE_DIR=$CCACHE_DIR ccache -s 2>/dev/null | grep -iE 'hits' | head -1 | xargs))"
fi
flock -u 9

# The checks: each package's control fields and files.
mapfile -t debs < <(cd "$out" && ls "$image" "$hdrpkg" "$(basename "$tooldeb")" 2>/dev/null)
for deb in "${debs[@]}"; do
	dpkg-deb -I "$out/$deb" >"$tmp/info" || die "dpkg-deb -I $deb failed"
	dpkg-deb -c "$out/$deb" >"$tmp/$deb.contents" || die "dpkg-deb -c $deb failed"
	[ -s "$tmp/$deb.contents" ] || die "$deb has no files"
	name=$(dpkg-deb -f "$out/$deb" Package)
	[ "$deb" = "${name}_$(dpkg-deb -f "$out/$deb" Version)_$(dpkg-deb -f "$out/$deb" Architecture).deb" ] ||
		die "$deb is not named NAME_VERSION_ARCH.deb by its control fields"
	note "deb: $deb: $(du -h "$out/$deb" | cut -f1), $(grep -c . "$tmp/$deb.contents") entries, Installed-Size $(dpkg-deb -f "$out/$deb" Installed-Size) KiB"
done
[ "$(dpkg-deb -f "$out/$image" Package)" = "linux-image-$release" ] || die "$image: Package is not linux-image-$release"
grep -q " \./boot/vmlinuz-$release\$" "$tmp/$image.contents" || die "$image has no /boot/vmlinuz-$release"
dpkg-deb --fsys-tarfile "$out/$image" | tar -xO "./boot/config-$release" >"$tmp/image.config" ||
	die "$image has no /boot/config-$release"
grep -qx 'CONFIG_SCHED_POINTS=y' "$tmp/image.config" || die "$image: its config has no CONFIG_SCHED_POINTS=y"
note "deb: $image has /boot/vmlinuz-$release, its config CONFIG_SCHED_POINTS=y"

# apt takes the image, the headers and the tool together: simulated,
# nothing installed.
tool=$(dpkg-deb -f "$tooldeb" Package)
(cd "$out" && apt-get install --simulate "${debs[@]/#/./}") >"$tmp/apt" 2>&1 ||
	{ cat "$tmp/apt" >&2; die "apt-get install --simulate failed"; }
for p in "linux-image-$release ($version" "$tool ($(dpkg-deb -f "$tooldeb" Version)"; do
	grep -qF "Inst $p " "$tmp/apt" ||
		{ cat "$tmp/apt" >&2; die "apt-get install --simulate would not install $p)"; }
done
! grep -q '^Remv ' "$tmp/apt" || { cat "$tmp/apt" >&2; die "apt-get install --simulate would remove packages"; }
note "deb: apt-get install --simulate of the ${#debs[@]} packages: $(grep -c '^Inst ' "$tmp/apt") to install, none to remove: $(sed -n 's/^Inst \([^ ]*\) .*/\1/p' "$tmp/apt" | paste -sd' ')"
printf '%s\n' "${debs[@]/#/$out/}"
