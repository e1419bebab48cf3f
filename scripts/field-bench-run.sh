#!/usr/bin/env bash
# One boot of the macro bench (issue 31, item 5), by scripts/field-boot.sh
# with -icount shift=0,sleep=off (1 guest ns = 1 guest instruction), the
# scratch disk in the host's page cache (--fast-scratch) and
# FIELD_BENCH_SMP vCPUs (default 1): the field kernel named (vanilla:
# build/linux-vanilla/obj-field, scripts/field-kernel.sh --vanilla;
# series: build/linux/obj-field) boots the Debian image
# (build/field/rootfs.ext4) with a fresh scratch disk and the bench's
# init scripts/guest/field-bench, and on vanilla the host's / read-only
# (tag hostroot) for bpftrace. The guest prepares the application once,
# then runs the kernel's configurations (vanilla: vanilla bpftrace;
# series: off on time_hist) FIELD_BENCH_REPS times (default 3) in turn,
# with the work size SIZE. Outputs in build/field-bench/KERNEL-APP/:
# share/out/ (results.txt, each run's work output, bench.log, dmesg.txt,
# verdict), console.log and splats.txt. Exit status 0 only when the
# guest gave rc=0 and no kernel report was found.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,16s/^# \{0,1\}//p' "$0"
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
[ -f "$kernel" ] || die "no $kernel: run scripts/field-kernel.sh$([ "$kname" = series ] || echo ' --vanilla')"
out=$BUILD/field-bench/$kname-$app
boot=(--icount --fast-scratch --smp "$smp" --timeout "${FIELD_TIMEOUT:-3600}" --log bench.log)
[ "$kname" != vanilla ] || boot+=(--hostroot)
note "field bench: booting $kname for $app ($configs, $reps rounds, size $size, $smp vCPU), console $out/console.log"
rc=0
"$REPO/scripts/field-boot.sh" "${boot[@]}" "$out" "$kernel" field-bench "$app" \
	"field.configs=$configs" "field.reps=$reps" "field.size=$size" || rc=$?
[ $rc != 2 ] || die "$kname $app: no verdict from the guest"
note "field bench: $kname $app: $( [ $rc = 0 ] && echo passed || echo FAILED)"
exit $rc
