#!/usr/bin/env bash
# One boot of the macro bench (issue 31, item 5): the field kernel named
# (vanilla: build/linux-vanilla/obj-field, scripts/field-kernel.sh
# --vanilla; series: build/linux/obj-field) boots the Debian image
# (build/field/rootfs.ext4) in snapshot mode under QEMU TCG with
# -icount shift=0,sleep=off (1 guest ns = 1 guest instruction),
# FIELD_BENCH_SMP vCPUs (default 1), with a fresh scratch disk
# (scripts/field-scratch.sh), a 9p share holding the bench's init
# (scripts/guest/field-bench, as PID 1) and the runners
# (scripts/guest/field-apps) and taking its outputs, and on vanilla the
# host's / read-only (tag hostroot) for bpftrace. The guest prepares the
# application once, then runs the kernel's configurations (vanilla:
# vanilla bpftrace; series: off on time_hist) FIELD_BENCH_REPS times
# (default 3) in turn, with the work size SIZE. Outputs in
# build/field-bench/KERNEL-APP/: share/out/ (results.txt, each run's
# work output, bench.log, dmesg.txt, verdict) and console.log. Then
# scans the console and the kernel log for kernel reports
# (scripts/scan-splats.sh). Exit status 0 only when the guest gave rc=0
# and no report was found.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,19s/^# \{0,1\}//p' "$0"
	echo "usage: [FIELD_BENCH_SMP=N] [FIELD_BENCH_REPS=N] [FIELD_MEM=SIZE] [FIELD_TIMEOUT=S] $0 vanilla|series pgbench|make|fio|nginx|stressng SIZE"
	exit 0
fi
source "$(dirname "$0")/env.sh"
[ $# = 3 ] || die "a kernel, an application and a size (see --help)"
kname=$1 app=$2 size=$3
case $kname in
vanilla) kernel=${FIELD_VANILLA_TREE:-$BUILD/linux-vanilla}/obj-field/arch/x86/boot/bzImage configs=vanilla,bpftrace ;;
series) kernel=$TREE/obj-field/arch/x86/boot/bzImage configs=off,on,time_hist ;;
*) die "unknown kernel '$kname' (see --help)" ;;
esac
case $app in pgbench|make|fio|nginx|stressng) ;; *) die "unknown application '$app' (see --help)" ;; esac
[[ $size =~ ^[A-Za-z0-9/_.-]+$ ]] || die "size '$size': one word of letters, digits, / _ . -"
smp=${FIELD_BENCH_SMP:-1} reps=${FIELD_BENCH_REPS:-3}
[[ $smp =~ ^[1-9][0-9]*$ ]] || die "FIELD_BENCH_SMP=$smp is not a number of vCPUs"
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "FIELD_BENCH_REPS=$reps is not a number of runs"
[ "$(id -u)" = 0 ] || die "needs root (mke2fs -d keeps the owners of the staged files)"
image=$BUILD/field/rootfs.ext4
[ -f "$kernel" ] || die "no $kernel: run scripts/field-kernel.sh$([ "$kname" = series ] || echo ' --vanilla')"
[ -f "$image" ] || die "no $image: run scripts/field-rootfs.sh (make field-rootfs)"
out=$BUILD/field-bench/$kname-$app
rm -rf "$out"
mkdir -p "$out/share/bin" "$out/share/out"
install -m 0755 "$REPO/scripts/guest/field-bench" "$REPO/scripts/guest/field-apps" "$out/share/bin/"
scratch=$out/scratch.ext4
"$REPO/scripts/field-scratch.sh" "$app" "$scratch"

# The guest's init: /bin/sh mounts the share and runs field-bench from it.
boot="mount -t proc proc /proc && mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 field /mnt && exec /bin/bash /mnt/bin/field-bench"
append="root=/dev/vda rw rootfstype=ext4 console=ttyS0 loglevel=5 panic=-1"
append+=" field.app=$app field.configs=$configs field.reps=$reps field.size=$size"
append+=" ${FIELD_APPEND:-} init=/bin/sh -- -c \"$boot\""
# shellcheck disable=SC2054 # commas are QEMU's
qemu=(qemu-system-x86_64 -accel tcg -icount shift=0,sleep=off -smp "$smp" -m "${FIELD_MEM:-2048M}"
	-kernel "$kernel" -append "$append"
	-drive "file=$image,format=raw,if=virtio,snapshot=on"
	-drive "file=$scratch,format=raw,if=virtio,cache=none"
	-virtfs "local,path=$out/share,mount_tag=field,security_model=none"
	-device virtio-rng-pci -nic user,model=virtio-net-pci
	-no-reboot -display none -monitor none -serial "file:$out/console.log")
# shellcheck disable=SC2054 # commas are QEMU's
[ "$kname" != vanilla ] ||
	qemu+=(-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap")
note "field bench: booting $kname for $app ($configs, $reps rounds, size $size, $smp vCPU), console $out/console.log"
start=$SECONDS
set +e
timeout --foreground -k 10 "${FIELD_TIMEOUT:-3600}" "${qemu[@]}"
qemu_rc=$?
set -e
secs=$((SECONDS - start))
rm -f "$scratch"
o=$out/share/out
echo "$secs" >"$o/guest-seconds.txt"
if [ ! -f "$o/verdict" ]; then
	tail -20 "$out/console.log" >&2
	[ ! -f "$o/bench.log" ] || tail -20 "$o/bench.log" >&2
	die "$kname $app: no verdict from the guest (QEMU status $qemu_rc after $secs s: a panic, a hang, a timeout)"
fi
rc=0
guest_rc=$(sed -n 's/^rc=//p' "$o/verdict")
if [ "$guest_rc" != 0 ]; then
	tail -20 "$o/bench.log" >&2
	echo "field-bench-run.sh: $kname $app: the guest failed (rc=$guest_rc, $o/bench.log)" >&2
	rc=1
fi
if ! "$REPO/scripts/scan-splats.sh" "$out/console.log" "$o/dmesg.txt" >"$out/splats.txt" 2>&1; then
	cat "$out/splats.txt" >&2
	echo "field-bench-run.sh: $kname $app: kernel reports on the console or in the kernel log" >&2
	rc=1
fi
note "field bench: $kname $app: guest $secs s, verdict rc=$guest_rc, $( [ $rc = 0 ] && echo passed || echo FAILED)"
exit $rc
