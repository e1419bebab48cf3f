#!/usr/bin/env bash
# Boot a field guest once (for scripts/field-run.sh and
# scripts/field-bench-run.sh): KERNEL boots the Debian image
# (build/field/rootfs.ext4) as its root disk in snapshot mode (the image
# is never written) under QEMU TCG, single-threaded as
# scripts/run-guest.sh runs it (FIELD_ACCEL overrides it; developing.md,
# "Why single-threaded TCG"), with a fresh scratch ext4 disk for APP
# (scripts/field-scratch.sh, removed after the boot) and a 9p share,
# OUT/share, that holds the guest's init INIT (a script of
# scripts/guest/, run as PID 1 through init=/bin/sh) and the runners
# (scripts/guest/field-apps), and takes the guest's outputs in
# OUT/share/out/ (verdict, dmesg.txt, LOG). The console goes to
# OUT/console.log. The kernel's command line gets field.app=APP, each
# PARAM and FIELD_APPEND. Then scans the console and the kernel log for
# kernel reports (scripts/scan-splats.sh, into OUT/splats.txt).
# Exit status: 0 when the guest wrote rc=0 to its verdict and no report
# was found, 1 when it wrote another rc or a report was found, 2 when it
# gave no verdict (a panic, a hang, a timeout).
# Options:
#   --icount        -icount shift=0,sleep=off: 1 guest ns = 1 instruction
#   --fast-scratch  the scratch disk with cache=unsafe (the host's page
#                   cache, flushes ignored) rather than cache=none: the
#                   host does the I/O at memory speed, so a waiting
#                   icount guest's clock makes few jumps to its timers
#                   (the macro bench; make field's guests keep cache=none)
#   --smp N         N vCPUs (default 2)
#   --hostroot      the host's / read-only over 9p (tag hostroot), whose
#                   bpftrace the guest runs
#   --timeout S     QEMU's limit in seconds (default 1200)
#   --log NAME      the guest's log in OUT/share/out/, shown on failure
#                   (default field.log)
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,31s/^# \{0,1\}//p' "$0"
	echo "usage: [FIELD_MEM=SIZE] [FIELD_APPEND=PARAMS] [FIELD_ACCEL=tcg,thread=multi] $0 [--icount] [--fast-scratch] [--smp N] [--hostroot] [--timeout S] [--log NAME] OUT KERNEL INIT APP [PARAM...]    (root)"
	exit 0
fi
source "$(dirname "$0")/env.sh"
icount=() cache=none smp=2 hostroot=() timeout=1200 log=field.log
while [ $# -gt 0 ]; do
	case $1 in
	--icount) icount=(-icount 'shift=0,sleep=off') ;;
	--fast-scratch) cache=unsafe ;;
	--smp) smp=${2:-}; shift ;;
	--hostroot) hostroot=(-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap") ;;
	--timeout) timeout=${2:-}; shift ;;
	--log) log=${2:-}; shift ;;
	--*) die "unknown option '$1' (see --help)" ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 4 ] || die "an output directory, a kernel, an init and an application (see --help)"
out=$1 kernel=$2 init=$3 app=$4
shift 4
[[ $smp =~ ^[1-9][0-9]*$ ]] || die "--smp $smp is not a number of vCPUs"
[[ $timeout =~ ^[1-9][0-9]*$ ]] || die "--timeout $timeout is not a number of seconds"
[ -f "$REPO/scripts/guest/$init" ] || die "no init scripts/guest/$init"
[ "$(id -u)" = 0 ] || die "needs root (mke2fs -d keeps the owners of the staged files)"
image=$BUILD/field/rootfs.ext4
[ -f "$kernel" ] || die "no $kernel: run scripts/field-kernel.sh"
[ -f "$image" ] || die "no $image: run scripts/field-rootfs.sh (make field-rootfs)"
rm -rf "$out"
mkdir -p "$out/share/bin" "$out/share/out"
install -m 0755 "$REPO/scripts/guest/$init" "$REPO/scripts/guest/field-apps" "$out/share/bin/"
scratch=$out/scratch.ext4
"$REPO/scripts/field-scratch.sh" "$app" "$scratch"

# The guest's init: /bin/sh mounts the share and runs INIT from it.
boot="mount -t proc proc /proc && mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 field /mnt && exec /bin/bash /mnt/bin/$init"
append="root=/dev/vda rw rootfstype=ext4 console=ttyS0 loglevel=5 panic=-1 field.app=$app $*"
append+=" ${FIELD_APPEND:-} init=/bin/sh -- -c \"$boot\""
# shellcheck disable=SC2054 # commas are QEMU's
qemu=(qemu-system-x86_64 -accel "${FIELD_ACCEL:-tcg,thread=single}" "${icount[@]}" -smp "$smp" -m "${FIELD_MEM:-2048M}"
	-kernel "$kernel" -append "$append"
	-drive "file=$image,format=raw,if=virtio,snapshot=on"
	-drive "file=$scratch,format=raw,if=virtio,cache=$cache"
	-virtfs "local,path=$out/share,mount_tag=field,security_model=none" "${hostroot[@]}"
	-device virtio-rng-pci -nic user,model=virtio-net-pci
	-no-reboot -display none -monitor none -serial "file:$out/console.log")
start=$SECONDS
set +e
timeout --foreground -k 10 "$timeout" "${qemu[@]}"
qemu_rc=$?
set -e
secs=$((SECONDS - start))
rm -f "$scratch"
o=$out/share/out
echo "$secs" >"$o/guest-seconds.txt"
if [ ! -f "$o/verdict" ]; then
	tail -20 "$out/console.log" >&2
	[ ! -f "$o/$log" ] || tail -20 "$o/$log" >&2
	echo "field-boot.sh: $app: no verdict from the guest (QEMU status $qemu_rc after $secs s: a panic, a hang, a timeout)" >&2
	exit 2
fi
rc=0
guest_rc=$(sed -n 's/^rc=//p' "$o/verdict")
if [ "$guest_rc" != 0 ]; then
	tail -20 "$o/$log" >&2
	echo "field-boot.sh: $app: the guest failed (rc=$guest_rc, $o/$log)" >&2
	rc=1
fi
if ! "$REPO/scripts/scan-splats.sh" "$out/console.log" "$o/dmesg.txt" >"$out/splats.txt" 2>&1; then
	cat "$out/splats.txt" >&2
	echo "field-boot.sh: $app: kernel reports on the console or in the kernel log" >&2
	rc=1
fi
note "field: $app: guest $secs s, verdict rc=$guest_rc$([ $rc = 0 ] || echo ', failed')"
exit $rc
