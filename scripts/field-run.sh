#!/usr/bin/env bash
# Run one application of the field (issue 31, items 2 to 4) in QEMU (TCG,
# 2 vCPUs, FIELD_MEM default 2048M): the field kernel
# (build/linux/obj-field, scripts/field-kernel.sh) boots the Debian image
# (build/field/rootfs.ext4, scripts/field-rootfs.sh) as its root disk in
# snapshot mode (the image is never written), with a fresh scratch ext4
# disk for the application's I/O (made here with mke2fs; for make, with
# objtool's sources from the image's linux-source-6.12 tarball) and a 9p
# share that holds the guest's init (scripts/guest/field-init, run as
# PID 1 through init=/bin/sh) and the runners (scripts/guest/field-apps),
# and takes its outputs: build/field/APP/share/out/ (the tables in caller
# and effective mode, the kprobe+hist oracle's counts, the run's pid
# window, the application's output, the kernel log, the verdict). The
# console goes to build/field/APP/console.log. Then scans the console and
# kernel log for kernel reports (scripts/scan-splats.sh) and compares the
# counts with the oracle's (scripts/field-oracle.sh). Exit status 0 only
# when the guest gave rc=0, no report was found and the counts match.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,18s/^# \{0,1\}//p' "$0"
	echo "usage: [FIELD_MEM=SIZE] [FIELD_TIMEOUT=S] $0 pgbench|make|fio|nginx|stressng"
	exit 0
fi
source "$(dirname "$0")/env.sh"
[ $# = 1 ] || die "one application (see --help)"
app=$1
case $app in pgbench|make|fio|nginx|stressng) ;; *) die "unknown application '$app' (see --help)" ;; esac
[ "$(id -u)" = 0 ] || die "needs root (mke2fs -d keeps the owners of the staged files)"
kernel=$TREE/obj-field/arch/x86/boot/bzImage
image=$BUILD/field/rootfs.ext4
[ -f "$kernel" ] || die "no $kernel: run scripts/field-kernel.sh (make field-kernel)"
[ -f "$image" ] || die "no $image: run scripts/field-rootfs.sh (make field-rootfs)"
out=$BUILD/field/$app
rm -rf "$out"
mkdir -p "$out/share/bin" "$out/share/out"
install -m 0755 "$REPO/scripts/guest/field-init" "$REPO/scripts/guest/field-apps" "$out/share/bin/"

# The scratch disk (for make, with objtool's sources).
scratch=$out/scratch.ext4
"$REPO/scripts/field-scratch.sh" "$app" "$scratch"

# The guest's init: /bin/sh mounts the share and runs field-init from it.
boot="mount -t proc proc /proc && mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 field /mnt && exec /bin/bash /mnt/bin/field-init"
append="root=/dev/vda rw rootfstype=ext4 console=ttyS0 loglevel=5 panic=-1 field.app=$app"
append+=" ${FIELD_APPEND:-} init=/bin/sh -- -c \"$boot\""
# shellcheck disable=SC2054 # commas are QEMU's
qemu=(qemu-system-x86_64 -accel tcg -smp 2 -m "${FIELD_MEM:-2048M}"
	-kernel "$kernel" -append "$append"
	-drive "file=$image,format=raw,if=virtio,snapshot=on"
	-drive "file=$scratch,format=raw,if=virtio,cache=none"
	-virtfs "local,path=$out/share,mount_tag=field,security_model=none"
	-device virtio-rng-pci -nic user,model=virtio-net-pci
	-no-reboot -display none -monitor none -serial "file:$out/console.log")
note "field: booting $app ($(basename "$kernel") of $(dirname "$(dirname "$(dirname "$(dirname "$kernel")")")"), console $out/console.log"
start=$SECONDS
set +e
timeout --foreground -k 10 "${FIELD_TIMEOUT:-1200}" "${qemu[@]}"
qemu_rc=$?
set -e
secs=$((SECONDS - start))
rm -f "$scratch"
o=$out/share/out
echo "$secs" >"$o/guest-seconds.txt"
if [ ! -f "$o/verdict" ]; then
	tail -20 "$out/console.log" >&2
	[ ! -f "$o/field.log" ] || tail -20 "$o/field.log" >&2
	die "$app: no verdict from the guest (QEMU status $qemu_rc after $secs s: a panic, a hang, a timeout)"
fi
rc=0
guest_rc=$(sed -n 's/^rc=//p' "$o/verdict")
if [ "$guest_rc" != 0 ]; then
	tail -20 "$o/field.log" >&2
	echo "field-run.sh: $app: the guest failed (rc=$guest_rc, $o/field.log)" >&2
	rc=1
fi
if ! "$REPO/scripts/scan-splats.sh" "$out/console.log" "$o/dmesg.txt" >"$out/splats.txt" 2>&1; then
	cat "$out/splats.txt" >&2
	echo "field-run.sh: $app: kernel reports on the console or in the kernel log" >&2
	rc=1
fi
if [ "$guest_rc" = 0 ]; then
	"$REPO/scripts/field-oracle.sh" "$o" | tee "$o/oracle.txt" || rc=1
fi
note "field: $app: guest $secs s, verdict rc=$guest_rc, $( [ $rc = 0 ] && echo passed || echo FAILED)"
exit $rc
