#!/usr/bin/env bash
# Make the guest's initramfs: busybox (static), the /init of scripts/guest,
# the kselftests in kselftest layout with their test modules, the pivot
# tool built statically when it exists, and the programs of bench/.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	echo "usage: [SP_SELFTESTS=0] [SP_MODULES='A.ko ...'] $0    (after build-kernel.sh and build-selftests.sh)"
	exit 0
fi
source "$(dirname "$0")/env.sh"
root=$OBJ/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,proc,sys,dev,tmp,host,etc}
cp /bin/busybox "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
file -L "$root/bin/busybox" | grep -q 'statically linked' ||
	die "/bin/busybox is not static: install busybox-static"
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
	make -s -C "$REPO/tools/schedpoints" static >/dev/null ||
		die "cannot build the pivot tool statically"
	install -m 755 "$REPO/tools/schedpoints/schedpoints-static" "$root/bin/schedpoints"
fi
# SP_MODULES: modules to put in /lib/sp-modules (the benchmark's test module).
for m in ${SP_MODULES:-}; do
	install -D -m 644 "$m" "$root/lib/sp-modules/${m##*/}"
done
[ ! -f "$REPO/bench/Makefile" ] || make -s -C "$REPO/bench" install DESTDIR="$root" >/dev/null ||
	die "cannot build bench/"
(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) |
	gzip -1 >"$OBJ/initramfs.cpio.gz"
note "initramfs: $OBJ/initramfs.cpio.gz ($(du -h "$OBJ/initramfs.cpio.gz" | cut -f1))"
