#!/usr/bin/env bash
# Boot the guest in QEMU and bring its verdict back as our exit status.
#
#   run-guest.sh MODE      MODE is check, demo, bench or shell
#
# TCG by default (KVM only when the CPU has vmx/svm and SP_KVM=1). The
# console goes to build/guest-MODE/console.log; the guest writes its
# output and verdict to build/guest-MODE/ over 9p. No verdict (panic, hang,
# timeout, QEMU failure) is a failure, and so is any kernel splat on any
# console of the run (a stalled first boot's too) and a taint flag that
# scripts/check-taint.sh does not expect. VARIANT=debug boots the debug
# kernel. Environment: SP_TIMEOUT (s, default 900), SP_BOOT_LIMIT (s
# until a guest that has not reached its init is booted again, once;
# default 300), SP_SMP (2; the debug kernel's guest runs 2 of 64 CPUs,
# booted with maxcpus=2, unless SP_SMP is set), SP_OUT (the output
# directory), SP_MEM (1024M), SP_APPEND (extra kernel arguments),
# SP_INJECT (a planted fault that must fail the run: see
# scripts/guest/init), SP_KERNEL (bzImage), SP_QEMU_ARGS (extra QEMU
# arguments). ARCH=arm64 boots the arm64 kernel (obj-arm64, its Image)
# on qemu-system-aarch64 -M virt (-cpu max, GICv3, TCG), console on
# ttyAMA0, powered off by PSCI; output in build/guest-MODE-arm64.
set -euo pipefail
mode=${1:-}
case $mode in
check|demo|bench|shell) ;;
--help) sed -n '2,21s/^# \{0,1\}//p' "$0"; exit 0 ;;
*) echo "usage: $0 check|demo|bench|shell" >&2; exit 2 ;;
esac
source "$(dirname "$0")/env.sh"
kernel=${SP_KERNEL:-$OBJ/$KERNEL_IMAGE}
initrd=${SP_INITRD:-$OBJ/initramfs.cpio.gz}
[ -f "$kernel" ] || die "no kernel image $kernel"
[ -f "$initrd" ] || die "no initramfs $initrd"
out=${SP_OUT:-$BUILD/guest-$mode$ARCH_SUFFIX${VARIANT:+-$VARIANT}}
rm -rf "$out"
mkdir -p "$out/share"
accel=${SP_ACCEL:-tcg,thread=single}
if [ "$ARCH" != arm64 ] && [ "${SP_KVM:-0}" = 1 ] && grep -qwE 'vmx|svm' /proc/cpuinfo && [ -w /dev/kvm ]; then
	accel=kvm
fi
# loglevel=5: warnings (WARN_ON, lockdep) reach the console, info does not.
console=ttyS0
[ "$ARCH" != arm64 ] || console=ttyAMA0
append="console=$console panic=-1 loglevel=5 sp.mode=$mode"
[ -z "${SP_INJECT:-}" ] || append+=" sp.inject=$SP_INJECT"
# The debug kernel reports a CPU held for 2 s with preemption off (a
# soft lockup, twice watchdog_thresh): a reader or reset of ours that
# keeps it off too long. (Its preempt=none run, scripts/check.sh, sets
# the default back.)
[ "${VARIANT:-}" != debug ] || append+=" watchdog_thresh=1"
# acpi=noirq for the debug kernel on x86: PCI interrupts from the MP
# table, not from ACPI. Its interpreter is slow under TCG and KASAN, and
# QEMU's _PRT, a loop that the kernel evaluates for the virtio device,
# ran into ACPICA's 30 s loop timeout on a slower host: the 9p share had
# no interrupt, and init waited on it until the timeout.
if [ "${VARIANT:-}" = debug ] && [ "$ARCH" != arm64 ]; then
	append+=" acpi=noirq"
fi
# arm64 has no debug kernel: its check guest runs the series' KUnit suite
# at boot (not the big tables' suite, which needs preempt=none).
if [ "$ARCH" = arm64 ] && [ "$mode" = check ]; then
	append+=" kunit.enable=1 kunit.filter_glob=sched_points"
fi
append+=" ${SP_APPEND:-}"
# The debug kernel (NR_CPUS=64) runs 2 of 64 possible CPUs, as a VM sized
# for more vCPUs than it runs: tables are for online CPUs only, and a test
# shows it. (QEMU's hotpluggable CPUs, -smp 2,maxcpus=64, are no possible
# CPUs to 6.12 under TCG: it counts disabled MADT entries only under a
# hypervisor it knows. So: 64 present, maxcpus=2 brought up at boot.)
smp=${SP_SMP:-2}
if [ "${VARIANT:-}" = debug ] && [ -z "${SP_SMP:-}" ]; then
	smp=64
	append+=" maxcpus=2"
fi
# arm64: the virt machine (device tree, PL011, virtio over PCI, PSCI),
# GICv3 as servers have it, -cpu max with QEMU's implementation-defined
# pointer authentication (the architected QARMA algorithm is several times
# slower under TCG; the kernel signs its return addresses either way). No
# isa-debug-exit: the guest powers off by PSCI.
# shellcheck disable=SC2054 # commas are QEMU's
if [ "$ARCH" = arm64 ]; then
	machine=(qemu-system-aarch64 -M virt,gic-version=3 -cpu max,pauth-impdef=on)
else
	machine=(qemu-system-x86_64)
fi
qemu=("${machine[@]}" -accel "$accel" -smp "$smp" -m "${SP_MEM:-1024M}"
      -kernel "$kernel" -initrd "$initrd" -append "$append"
      -no-reboot -display none -monitor none)
# shellcheck disable=SC2054 # commas are QEMU's
[ "$ARCH" = arm64 ] || qemu+=(-device isa-debug-exit,iobase=0xf4,iosize=0x04)
# shellcheck disable=SC2206 # SP_QEMU_ARGS is words
qemu+=(-virtfs "local,path=$out/share,mount_tag=spout,security_model=none"
       ${SP_QEMU_ARGS:-})
if [ "$mode" = shell ]; then
	exec "${qemu[@]}" -serial mon:stdio
fi
note "booting the guest ($accel, CPUs $smp, mode $mode); console: $out/console.log"
# A guest that never reaches its init boots once more, its console kept:
# seen with the debug kernel under TCG (an AML loop timeout in ACPI's
# _PRT, then an idle guest until the timeout: the cause that acpi=noirq
# above now avoids), kept for any other stall before init. Init writes
# to the share first, so a share still empty after SP_BOOT_LIMIT seconds
# (default 300; the debug boot with its KUnit tests takes about 60) is a
# boot that stalled. Exit status 200: it did.
boot() {
	local pid waited=0

	timeout --foreground -k 10 "${SP_TIMEOUT:-900}" "${qemu[@]}" \
		-serial "file:$out/console.log" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if [ "$waited" -ge "${SP_BOOT_LIMIT:-300}" ] &&
		   [ -z "$(ls -A "$out/share")" ]; then
			kill "$pid"
			wait "$pid"
			return 200
		fi
		sleep 2
		waited=$((waited + 2))
	done
	wait "$pid"
}
start=$SECONDS
set +e
boot
qemu_rc=$?
if [ "$qemu_rc" = 200 ]; then
	mv "$out/console.log" "$out/console-stalled.log"
	echo "run-guest.sh: the guest did not reach init in ${SP_BOOT_LIMIT:-300} s (console: $out/console-stalled.log); booting it once more" >&2
	boot
	qemu_rc=$?
fi
set -e
# x86's isa-debug-exit makes QEMU exit with (byte << 1) | 1: status 1 is
# the guest's own power-off (scripts/guest/init), not a failure; the
# verdict is the guest's TAP, judged below.
case $ARCH:$qemu_rc in
:1|arm64:0) how=": the guest powered itself off, its verdict follows" ;;
*) how= ;;
esac
note "guest ran $((SECONDS - start)) s (QEMU exit status $qemu_rc$how)"

fail=0
# Every console of the run (a stalled first boot's too) and the whole
# kernel log that the guest saved after its settle step: any report there
# (scripts/scan-splats.sh) fails the run.
logs=("$out"/console*.log)
if [ -f "$out/share/dmesg.txt" ]; then
	logs+=("$out/share/dmesg.txt")
elif [ -f "$out/share/verdict" ]; then
	echo "the guest gave a verdict but no kernel log (share/dmesg.txt)" >&2
	fail=1
fi
if ! splats=$("$REPO/scripts/scan-splats.sh" "${logs[@]}"); then
	echo "kernel splat in the guest's kernel log ($out/):" >&2
	head -40 <<<"$splats" >&2
	fail=1
fi
# The kernel's taint at the end of the run (the last boot's console).
if ! taint=$("$REPO/scripts/check-taint.sh" "$out/console.log"); then
	echo "$taint" >&2
	fail=1
fi
if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
	echo "guest timed out after ${SP_TIMEOUT:-900} s" >&2
	fail=1
fi
if [ ! -f "$out/share/verdict" ]; then
	echo "no verdict from the guest (panic, hang or QEMU failure); console tail:" >&2
	tail -20 "$out/console.log" >&2
	exit 1
fi
guest_rc=$(sed -n 's/^rc=//p' "$out/share/verdict")
[ "$guest_rc" = 0 ] || fail=1
exit $fail
