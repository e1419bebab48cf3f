#!/usr/bin/env bash
# make field-bench (issue 31, item 5): the macro bench. For each field
# application (pgbench, make, fio, nginx, stressng, or those of
# FIELD_BENCH_APPS), guest instructions per unit of work (transaction,
# compiled file, I/O, request, stressor op) on the vanilla field kernel
# (build/linux-vanilla/obj-field: scripts/field-kernel.sh --vanilla)
# untraced and under bpftrace on kprobe:schedule by tid and caller, and
# on the series' field kernel (build/linux/obj-field) with accounting
# off, on, and on with time and histograms: one guest boot per kernel
# and application (scripts/field-bench-run.sh), which prepares the
# application once and runs each configuration FIELD_BENCH_REPS times
# (default 3) in turn. First checks that the two kernels' .configs
# differ only in the series' options (scripts/field-config-check.sh).
# Writes build/field-bench/results.csv and results.md
# (scripts/field-bench-report.sh) and results.txt (its --text table for
# the cover letter); exit status 1 when a boot failed (the report is
# written with the others).
#
# The measure. QEMU -icount shift=0,sleep=off makes guest ns count guest
# instructions while a vCPU runs, but with sleep=off an idle guest's
# clock jumps to the next timer, and I/O completes when the host has
# done it, not after a number of instructions: the elapsed guest ns of
# an I/O-bound run (fio, pgbench's fsyncs) is not an instruction count.
# So the guest reports busy ns: per CPU, the elapsed ns less the idle
# and iowait ns of tick-sched (/proc/timer_list's .idle_sleeptime and
# .iowait_sleeptime), read by a task pinned to that CPU before and after
# the work. Of what Debian's configuration (NO_HZ_FULL, HZ=250,
# VIRT_CPU_ACCOUNTING_GEN without nohz_full CPUs, no
# IRQ_TIME_ACCOUNTING, SCHEDSTATS) gives, that is the precise one: ns,
# interrupts counted as busy (tick-sched stops its idle clock on
# interrupt entry). /proc/stat's idle is in 10 ms units (USER_HZ=100),
# 10 million instructions; /proc/schedstat's run time of tasks is in ns
# but counts an interrupt taken while idle as idle, which is where an
# I/O's completion runs; cpuidle has no driver in a TCG guest (haltpoll
# needs KVM) and counts in us. icount runs the vCPUs in turn on one
# virtual clock, so with 2 vCPUs both busy each CPU's busy ns hold the
# other's instructions too: the default is one vCPU (FIELD_BENCH_SMP),
# where busy ns are the guest instructions outside the idle loop.
# Reported: elapsed and busy ns per unit, context switches per unit.
#
# Work per run (smaller than make field's, for a bench of about 45
# minutes of guest runs; the variables change them): FIELD_BENCH_PGBENCH
# 250 transactions per client (4 clients), FIELD_BENCH_MAKE lib/subcmd
# (the first part of objtool's build; objtool for make field's),
# FIELD_BENCH_FIO 128 MiB of I/O per job (2 jobs of 4 KiB I/Os),
# FIELD_BENCH_NGINX 5000 requests, FIELD_BENCH_STRESSNG 25000 switch and
# mq operations (futex 10000).
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,47s/^# \{0,1\}//p' "$0"
	echo "usage: [FIELD_BENCH_APPS='pgbench make ...'] [FIELD_BENCH_REPS=N] [FIELD_BENCH_SMP=N] [FIELD_BENCH_<APP>=SIZE] $0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
[ $# = 0 ] || die "no arguments (see --help)"
[ "$(id -u)" = 0 ] || die "needs root (scripts/field-bench-run.sh)"
apps=${FIELD_BENCH_APPS:-pgbench make fio nginx stressng}
declare -A size=([pgbench]=${FIELD_BENCH_PGBENCH:-250} [make]=${FIELD_BENCH_MAKE:-lib/subcmd}
	[fio]=${FIELD_BENCH_FIO:-128} [nginx]=${FIELD_BENCH_NGINX:-5000} [stressng]=${FIELD_BENCH_STRESSNG:-25000})
declare -A said=([pgbench]="4 clients x ${size[pgbench]} transactions" [make]="make -j2 of tools/${size[make]}"
	[fio]="2 jobs x ${size[fio]} MiB" [nginx]="${size[nginx]} requests" [stressng]="${size[stressng]} switch and mq ops")
for app in $apps; do
	[ -n "${size[$app]:-}" ] || die "FIELD_BENCH_APPS: unknown application '$app' (pgbench make fio nginx stressng)"
done
export FIELD_BENCH_SMP=${FIELD_BENCH_SMP:-1} FIELD_BENCH_REPS=${FIELD_BENCH_REPS:-3}
vtree=${FIELD_VANILLA_TREE:-$BUILD/linux-vanilla}
for c in "$TREE/obj-field" "$vtree/obj-field"; do
	[ -f "$c/arch/x86/boot/bzImage" ] ||
		die "no $c/arch/x86/boot/bzImage: run scripts/field-kernel.sh and scripts/field-kernel.sh --vanilla (make field-bench builds both)"
done
[ -f "$BUILD/field/rootfs.ext4" ] || die "no $BUILD/field/rootfs.ext4: run make field-rootfs"
command -v bpftrace >/dev/null || die "no bpftrace on the host, which the guest runs: scripts/install-deps.sh bench"
"$REPO/scripts/field-config-check.sh" "$TREE/obj-field/.config" "$vtree/obj-field/.config" >&2 ||
	die "the two field kernels differ beyond the series' options: rebuild them (scripts/field-kernel.sh [--vanilla])"

out=$BUILD/field-bench
mkdir -p "$out"
raw=$out/results.raw
start=$SECONDS
{
	echo "all info date 0 $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "all info qemu 0 $(qemu-system-x86_64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p')"
	echo "all info bpftrace 0 $(bpftrace --version | awk '{ print $2 }')"
	echo "all info smp 0 $FIELD_BENCH_SMP"
	echo "all info reps 0 $FIELD_BENCH_REPS"
	echo "all info mem 0 ${FIELD_MEM:-2048M}"
	for app in $apps; do
		echo "all info size_$app 0 ${said[$app]}"
	done
} >"$raw"
failed=()
for app in $apps; do
	for k in vanilla series; do
		s=$SECONDS
		"$REPO/scripts/field-bench-run.sh" "$k" "$app" "${size[$app]}" || failed+=("$k-$app")
		o=$out/$k-$app/share/out
		sed -n "s/^R /$app /p" "$o/results.txt" 2>/dev/null >>"$raw" || true
		echo "$app host seconds_$k 0 $((SECONDS - s))" >>"$raw"
		r=$(sed -n "s/.*field-bench: kernel \([^ ,]*\),.*/\1/p" "$o/bench.log" 2>/dev/null | head -1 || true)
		[ -z "$r" ] || grep -q "^all info kernel_$k " "$raw" || echo "all info kernel_$k 0 $r" >>"$raw"
	done
done
{ echo "app,config,metric,rep,value"; tr -d , <"$raw" | awk '{ v = $5; for (i = 6; i <= NF; i++) v = v " " $i; print $1 "," $2 "," $3 "," $4 "," v }'; } >"$out/results.csv"
"$REPO/scripts/field-bench-report.sh" "$out/results.csv" "$((SECONDS - start))" >"$out/results.md"
"$REPO/scripts/field-bench-report.sh" --text "$out/results.csv" >"$out/results.txt"
cat "$out/results.md"
note "field bench: $((SECONDS - start)) s; results: $out/results.csv, $out/results.md, $out/results.txt"
[ ${#failed[@]} = 0 ] || die "boots failed: ${failed[*]} (see $out/*/share/out/bench.log)"
