#!/usr/bin/env bash
# Measure what schedule-point accounting costs, against the same kernel
# without the series (vanilla) and against the tools a user would run
# instead on a kernel configured as distributions configure tracing (the
# peer kernel: kprobe+hist, bpftrace on kprobe, kfunc and sched_switch),
# on a ping-pong and on a many-task workload. Guest time under QEMU
# -icount shift=0 is 1 ns per guest instruction, so figures repeat run
# after run. Also runs the series beside bpftrace programs on schedule()'s
# return (the tracers run). Writes build/bench/results.csv and results.md;
# fails when a guest reports a failure. ARCH=arm64: the series and vanilla
# cross-built for arm64 and run on qemu-system-aarch64 -M virt with the
# same icount (build/bench-arm64/).
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,11s/^# \{0,1\}//p' "$0"
	cat <<'EOF'
usage: scripts/bench.sh    (make bench)
  BENCH_TREE=DIR          a kernel tree with the series applied, built in DIR/obj
                          (default: the project's tree, as make check builds it)
  BENCH_VANILLA_TREE=DIR  the vanilla tree (default build/linux-vanilla, a git
                          worktree of the kernel tree at tag pristine); its
                          kernels: DIR/obj (vanilla) and DIR/obj-peer (peer:
                          plus kernel-config/peer/distro-tracing.config)
  BENCH_ONLY="vanilla peer series smp tracers"   the guest runs to make
                          (default all); a kernel is built only when a run
                          needs it (tracers: the series with the peer's
                          tracing config, in DIR/obj-tracers of the series tree)
  BENCH_CONFIGS=A,B       within the runs, only these configurations
                          (development: e.g. peer,bpftrace_kfunc)
  BENCH_ROUNDS=N BENCH_REPS=N    icount ping-pong: round trips, runs (10000, 5)
  BENCH_HB_GROUPS=N BENCH_HB_REPS=N   many-task workload: groups, runs (8, 7)
  BENCH_SMP_ROUNDS=N BENCH_SMP_REPS=N   real-time runs (1000, 21)
  BENCH_STORM_TASKS=N     fork storm at the default table size: tasks (100000)
  BENCH_SMP_ACCEL=A       QEMU -accel of the 2-vCPU real-time run (default
                          tcg,thread=single; tcg,thread=multi runs the vCPUs
                          on two host threads but may oops, see developing.md)
  ARCH=arm64              the runs vanilla and series only (default), on arm64
                          (kernels in obj-arm64, results in build/bench-arm64);
                          the peers and tracers run the host's x86 bpftrace
EOF
	exit 0
fi
source "$(dirname "$0")/env.sh"
start=$SECONDS
out=$BUILD/bench$ARCH_SUFFIX
if [ "$ARCH" = arm64 ]; then
	only=" ${BENCH_ONLY:-vanilla series} "
	for r in $only; do
		case $r in vanilla|series) ;; *) die "BENCH_ONLY: run '$r' is x86 only (ARCH=arm64: vanilla series)" ;; esac
	done
	"$REPO/scripts/install-deps.sh" build guest arm64
else
	only=" ${BENCH_ONLY:-vanilla peer series smp tracers} "
	for r in $only; do
		case $r in vanilla|peer|series|smp|tracers) ;; *) die "BENCH_ONLY: unknown run '$r'" ;; esac
	done
	"$REPO/scripts/install-deps.sh" build guest bench
fi
runs() { for r in "$@"; do [[ $only == *" $r "* ]] && return 0; done; return 1; }
mkdir -p "$out"
: >"$out/results.raw"
# phase NAME SECONDS: how long a step took, for the report.
phase() { echo "host time $1 0 $2" >>"$out/results.raw"; }
# The fragments of the main kernel (with ARCH=arm64, arm64/ too).
frags=$(VARIANT='' "$REPO/scripts/configure-kernel.sh" --fragments | sed 's|^kernel-config/||')$'\n'

# The series: the project's kernel, or BENCH_TREE.
if runs series smp; then
	s=$SECONDS
	if [ -n "${BENCH_TREE:-}" ]; then
		export TREE=$BENCH_TREE OBJ=$BENCH_TREE/obj$ARCH_SUFFIX
		FRAGMENTS=$frags "$REPO/scripts/configure-kernel.sh"
		kmake -s "${KERNEL_IMAGE##*/}" >"$out/series-build.log" 2>&1 || die "build failed: $out/series-build.log"
	else
		export TREE OBJ
		"$REPO/scripts/build-kernel.sh"
	fi
	# The test module, for the cost of a preempt hit.
	"$REPO/scripts/build-selftests.sh"
	modules=$OBJ/kselftest/kselftest_install/sched_points/test_modules/sched_points_test.ko
	phase build_series $((SECONDS - s))
	series_obj=$OBJ
fi
# tracers: the series with the peer's distribution tracing (ftrace, BTF),
# so that bpftrace can hook schedule()'s return beside it.
if runs tracers; then
	s=$SECONDS
	ttree=${BENCH_TREE:-$TREE}
	[ -n "${BENCH_TREE:-}" ] || TREE=$ttree "$REPO/scripts/prepare-tree.sh"
	note "building the tracers kernel in $ttree/obj-tracers"
	TREE=$ttree OBJ=$ttree/obj-tracers FRAGMENTS=$frags$'\n'peer/distro-tracing.config \
		"$REPO/scripts/configure-kernel.sh"
	TREE=$ttree OBJ=$ttree/obj-tracers kmake -s bzImage >"$out/tracers-build.log" 2>&1 ||
		die "tracers build failed: $out/tracers-build.log"
	phase build_tracers $((SECONDS - s))
fi
# The guests' initramfs: busybox, /init, bench/ and the test module (no
# kselftests).
OBJ=$out/initramfs SP_SELFTESTS=0 SP_MODULES=${modules:-} "$REPO/scripts/build-initramfs.sh"
initrd=$out/initramfs/initramfs.cpio.gz

# Vanilla: the same fragments but the series' own (sched-points*.config),
# at tag pristine;
# peer: vanilla plus distribution tracing (ftrace, BTF), in obj-peer.
vtree=${BENCH_VANILLA_TREE:-$BUILD/linux-vanilla}
if runs vanilla peer && [ ! -e "$vtree/Makefile" ]; then
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$vtree" pristine
fi
vfrags=$(grep -vx 'sched-points\(-kunit\)\{0,1\}\.config' <<<"$frags")
vobj=$vtree/obj$ARCH_SUFFIX
# build_vanilla NAME OBJ FRAGMENTS
build_vanilla() {
	local s=$SECONDS
	note "building the $1 kernel in $2"
	TREE=$vtree OBJ=$2 FRAGMENTS=$3 "$REPO/scripts/configure-kernel.sh"
	TREE=$vtree OBJ=$2 kmake -s "${KERNEL_IMAGE##*/}" >"$out/$1-build.log" 2>&1 ||
		die "$1 build failed: $out/$1-build.log"
	phase "build_$1" $((SECONDS - s))
}
! runs vanilla || build_vanilla vanilla "$vobj" "$vfrags"
! runs peer || build_vanilla peer "$vtree/obj-peer" "$vfrags"$'\n'peer/distro-tracing.config

# boot NAME KERNEL PART QEMU-ARGS [ACCEL]: one guest run; its output to
# $out/NAME.txt, its result lines to $out/results.raw.
boot() {
	local s=$SECONDS rc=0
	SP_ACCEL=${5:-} SP_KERNEL=$2 SP_INITRD=$initrd SP_QEMU_ARGS=$4 SP_TIMEOUT=${SP_TIMEOUT:-2400} \
		SP_APPEND="sp.bench=$3 sp.rounds=${BENCH_ROUNDS:-10000} sp.reps=${BENCH_REPS:-5} sp.smprounds=${BENCH_SMP_ROUNDS:-1000} sp.smpreps=${BENCH_SMP_REPS:-21} sp.hbgroups=${BENCH_HB_GROUPS:-8} sp.hbreps=${BENCH_HB_REPS:-7} sp.stormtasks=${BENCH_STORM_TASKS:-100000}${BENCH_CONFIGS:+ sp.only=$BENCH_CONFIGS}" \
		"$REPO/scripts/run-guest.sh" bench || rc=$?
	cp "$BUILD/guest-bench$ARCH_SUFFIX/share/bench.txt" "$out/$1.txt" 2>/dev/null || : >"$out/$1.txt"
	cp "$BUILD/guest-bench$ARCH_SUFFIX/console.log" "$out/$1-console.log"
	grep '^FAIL' "$out/$1.txt" >&2 || true
	note "$1: guest exit $rc, $((SECONDS - s)) s"
	[ "$rc" = 0 ] || failed+=" $1"
	sed -n 's/^R /'"$1"' /p' "$out/$1.txt" >>"$out/results.raw"
	echo "$1 host loadavg 0 $(cut -d' ' -f1 /proc/loadavg)" >>"$out/results.raw"
	phase "guest_$1" $((SECONDS - s))
}
failed=
icount="-icount shift=0,sleep=off"
hostroot="-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
! runs vanilla || boot vanilla "$vobj/$KERNEL_IMAGE" icount "$icount"
! runs peer || boot peer "$vtree/obj-peer/arch/x86/boot/bzImage" peer "$icount $hostroot"
! runs series || boot series "$series_obj/$KERNEL_IMAGE" icount "$icount"
! runs smp || boot smp "$series_obj/arch/x86/boot/bzImage" smp "" "${BENCH_SMP_ACCEL:-}"
! runs tracers || boot tracers "$ttree/obj-tracers/arch/x86/boot/bzImage" tracers "$hostroot"
phase total $((SECONDS - start))

{ echo "part,config,metric,rep,value"; tr ' ' , <"$out/results.raw"; } >"$out/results.csv"
"$REPO/scripts/bench-report.sh" "$out/results.csv" "$((SECONDS - start))" >"$out/results.md"
cat "$out/results.md"
note "make bench took $((SECONDS - start)) s; results: $out/results.csv, $out/results.md"
[ -z "$failed" ] || die "guest runs failed:$failed (see $out/*.txt)"
