#!/usr/bin/env bash
# Measure what schedule-point accounting costs, against the same kernel
# without the series (vanilla) and against the tools a user would run
# instead on it (kprobe+hist, bpftrace). Guest time under QEMU
# -icount shift=0 is 1 ns per guest instruction, so figures repeat run
# after run. Writes build/bench/results.csv and results.md; asserts nothing.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,6s/^# \{0,1\}//p' "$0"
	cat <<'EOF'
usage: scripts/bench.sh    (make bench)
  BENCH_TREE=DIR          a kernel tree with the series applied, built in DIR/obj
                          (default: the project's tree, as make check builds it)
  BENCH_VANILLA_TREE=DIR  the vanilla tree (default build/linux-vanilla, a git
                          worktree of the kernel tree at tag pristine)
  BENCH_ROUNDS=N BENCH_REPS=N    icount runs: round trips, runs (10000, 5)
  BENCH_SMP_ROUNDS=N BENCH_SMP_REPS=N   real-time runs (1000, 21)
  BENCH_SMP_ACCEL=A       QEMU -accel of the 2-vCPU real-time run (default
                          tcg,thread=single; tcg,thread=multi runs the vCPUs
                          on two host threads but may oops, see developing.md)
EOF
	exit 0
fi
source "$(dirname "$0")/env.sh"
start=$SECONDS
out=$BUILD/bench
"$REPO/scripts/install-deps.sh"
mkdir -p "$out"
frags=
for f in "$REPO"/kernel-config/*.config; do
	case ${f##*/} in debug*) ;; *) frags+="${f##*/}"$'\n' ;; esac
done

# The series: the project's kernel, or BENCH_TREE.
if [ -n "${BENCH_TREE:-}" ]; then
	export TREE=$BENCH_TREE OBJ=$BENCH_TREE/obj
	FRAGMENTS=$frags "$REPO/scripts/configure-kernel.sh"
	kmake -s bzImage modules >"$out/series-build.log" 2>&1 || die "build failed: $out/series-build.log"
else
	export TREE OBJ
	"$REPO/scripts/build-kernel.sh"
fi
"$REPO/scripts/build-selftests.sh"
"$REPO/scripts/build-initramfs.sh"
series_obj=$OBJ

# Vanilla: the same fragments but sched-points.config, at tag pristine.
vtree=${BENCH_VANILLA_TREE:-$BUILD/linux-vanilla}
if [ ! -e "$vtree/Makefile" ]; then
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$vtree" pristine
fi
note "building the vanilla kernel in $vtree/obj"
TREE=$vtree OBJ=$vtree/obj FRAGMENTS=$(grep -vx sched-points.config <<<"$frags") \
	"$REPO/scripts/configure-kernel.sh"
TREE=$vtree OBJ=$vtree/obj kmake -s bzImage >"$out/vanilla-build.log" 2>&1 ||
	die "vanilla build failed: $out/vanilla-build.log"

# boot NAME KERNEL PART QEMU-ARGS [ACCEL]: one guest run; its output to
# $out/NAME.txt, its result lines to $out/results.raw.
boot() {
	local s=$SECONDS rc=0
	SP_ACCEL=${5:-} SP_KERNEL=$2 SP_QEMU_ARGS=$4 SP_TIMEOUT=${SP_TIMEOUT:-2400} \
		SP_APPEND="sp.bench=$3 sp.rounds=${BENCH_ROUNDS:-10000} sp.reps=${BENCH_REPS:-5} sp.smprounds=${BENCH_SMP_ROUNDS:-1000} sp.smpreps=${BENCH_SMP_REPS:-21}" \
		"$REPO/scripts/run-guest.sh" bench || rc=$?
	cp "$BUILD/guest-bench/share/bench.txt" "$out/$1.txt" 2>/dev/null || : >"$out/$1.txt"
	cp "$BUILD/guest-bench/console.log" "$out/$1-console.log"
	grep '^FAIL' "$out/$1.txt" >&2 || true
	note "$1: guest exit $rc, $((SECONDS - s)) s"
	[ "$rc" = 0 ] || failed+=" $1"
	sed -n 's/^R /'"$1"' /p' "$out/$1.txt" >>"$out/results.raw"
	echo "$1 host loadavg 0 $(cut -d' ' -f1 /proc/loadavg)" >>"$out/results.raw"
}
failed=
: >"$out/results.raw"
icount="-icount shift=0,sleep=off"
hostroot="-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
boot vanilla "$vtree/obj/arch/x86/boot/bzImage" icount "$icount $hostroot"
boot series "$series_obj/arch/x86/boot/bzImage" icount "$icount"
boot smp "$series_obj/arch/x86/boot/bzImage" smp "" "${BENCH_SMP_ACCEL:-}"

{ echo "part,config,metric,rep,value"; tr ' ' , <"$out/results.raw"; } >"$out/results.csv"
"$REPO/scripts/bench-report.sh" "$out/results.csv" "$((SECONDS - start))" >"$out/results.md"
cat "$out/results.md"
note "make bench took $((SECONDS - start)) s; results: $out/results.csv, $out/results.md"
[ -z "$failed" ] || die "guest runs failed:$failed (see $out/*.txt)"
