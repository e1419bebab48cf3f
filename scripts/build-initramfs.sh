#!/usr/bin/env bash
# Make the guest's initramfs: busybox (static), the /init of scripts/guest,
# the kselftests in kselftest layout with their test modules, the pivot
# tool built statically when it exists, and the programs of bench/.
# ARCH=arm64: Debian's arm64 busybox-static (scripts/install-deps.sh
# arm64), the tool and bench/ cross-compiled statically in copies under
# $OBJ (the x86 binaries in the source folders stay as they are).
set -euo pipefail
if [ "${1:-}" = --help ]; then
	echo "usage: [ARCH=arm64] [VARIANT=debug] [SP_SELFTESTS=0] [SP_MODULES='A.ko ...'] $0    (after build-kernel.sh and build-selftests.sh)"
	exit 0
fi
source "$(dirname "$0")/env.sh"
root=$OBJ/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,proc,sys,dev,tmp,host,etc}
if [ "$ARCH" = arm64 ]; then
	busybox=$ARM64_DEBS/root/bin/busybox
	[ -x "$busybox" ] || die "no arm64 busybox in $busybox: run scripts/install-deps.sh arm64"
	file -L "$busybox" | grep -q 'ARM aarch64' || die "$busybox is not an arm64 program"
else
	busybox=/bin/busybox
fi
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
file -L "$root/bin/busybox" | grep -q 'statically linked' ||
	die "$busybox is not static: install busybox-static"
# user_make DIR ARGS...: make in DIR (the tool, bench/); for arm64 in a
# copy of DIR under $OBJ, with the cross compiler, every program made
# anew (-B: the copy has the host's binaries of DIR too).
user_make() {
	local dir=$1
	shift
	if [ "$ARCH" = arm64 ]; then
		mkdir -p "$OBJ/userspace"
		rsync -a "$dir/" "$OBJ/userspace/${dir##*/}/"
		make -s -B -C "$OBJ/userspace/${dir##*/}" CC="${CROSS_COMPILE}gcc" "$@"
	else
		make -s -C "$dir" "$@"
	fi
}
install -m 755 "$REPO/scripts/guest/init" "$root/init"
install -m 755 "$REPO"/scripts/guest/guest-* "$root/sbin/"
install -m 755 "$REPO/scripts/guest/timeout" "$root/usr/bin/timeout"
echo 'root:x:0:0:root:/:/bin/sh' >"$root/etc/passwd"
echo 'nobody:x:65534:65534:nobody:/:/bin/false' >>"$root/etc/passwd"
# SP_SELFTESTS=0: none (the benchmark's guests, whose kernels have none).
if [ "${SP_SELFTESTS:-1}" != 0 ]; then
	ks=$OBJ/kselftest/kselftest_install
	[ -x "$ks/run_kselftest.sh" ] || die "no kselftests in $ks (scripts/build-selftests.sh)"
	cp -a "$ks" "$root/kselftest"
fi
if [ -f "$REPO/tools/schedpoints/Makefile" ]; then
	user_make "$REPO/tools/schedpoints" static >/dev/null ||
		die "cannot build the pivot tool statically"
	sp=$REPO/tools/schedpoints/schedpoints-static
	if [ "$ARCH" = arm64 ]; then
		sp=$OBJ/userspace/schedpoints/schedpoints-static
		file "$sp" | grep -q 'ARM aarch64' || die "$sp is not an arm64 program"
	fi
	install -m 755 "$sp" "$root/bin/schedpoints"
fi
# SP_MODULES: modules to put in /lib/sp-modules (the benchmark's test module).
for m in ${SP_MODULES:-}; do
	install -D -m 644 "$m" "$root/lib/sp-modules/${m##*/}"
done
[ ! -f "$REPO/bench/Makefile" ] || user_make "$REPO/bench" install DESTDIR="$root" >/dev/null ||
	die "cannot build bench/"
(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) |
	gzip -1 >"$OBJ/initramfs.cpio.gz"
note "initramfs: $OBJ/initramfs.cpio.gz ($(du -h "$OBJ/initramfs.cpio.gz" | cut -f1))"
