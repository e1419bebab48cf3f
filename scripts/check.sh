#!/usr/bin/env bash
# Run every test: the checks' own tests, lint (checkpatch, kernel-doc, the
# shell linter, the tool's analysis), sparse and W=1 against the pristine
# tree, every prefix of the series builds, the host tests of tools/, then
# the kselftests (and KUnit) in a QEMU guest on each kernel of SP_VARIANTS
# (default "main debug arm64 lockdown": the kernel of the demo, the debug
# kernel with KASAN, lockdep, UBSAN, the main kernel cross-built for
# arm64 on qemu-system-aarch64, whose passing result is kept and replayed
# as "(cached)" while nothing it depends on changed, and the main kernel
# with the lockdown LSM, booted locked down, for the test of the sysctls). Fails closed: scripts/count-tap.py judges every
# step's TAP (plans, nesting, no skip but those selftests/manifest allows,
# every test the manifest names must report), and a step that exits non-zero
# fails even when its TAP looks clean. Ends with a table of the time each
# step took, a line "main: 67 of 67 expected" (for each variant: of the
# tests the manifest expects, how many reported) and one line "N passed,
# N failed" (", N skipped").
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,15s/^# \{0,1\}//p' "$0"
	echo "usage: $0   (SP_INJECT=VALUE plants a fault that must fail the run:"
	echo "       fail|panic|hang|partial|missing|skip|late, see scripts/guest/init;"
	echo "       SP_HOST_TESTS=0 runs the guests only)"
	exit 0
fi
source "$(dirname "$0")/env.sh"
source "$REPO/scripts/result-cache.sh"
# --step NAME COMMAND...: run a step in the background for the main run:
# TAP to build/NAME.tap, stderr to build/NAME.log, "status seconds" to
# build/NAME.rc.
if [ "${1:-}" = --step ]; then
	name=$2 rc=0
	shift 2
	"$@" >"$BUILD/$name.tap" 2>"$BUILD/$name.log" || rc=$?
	echo "$rc $SECONDS" >"$BUILD/$name.rc"
	exit 0
fi
start=$SECONDS
passed=0 failed=0 skipped=0
times=()

variants=${SP_VARIANTS:-main debug arm64 lockdown}
[ -n "${variants// /}" ] || die "SP_VARIANTS names no kernel variant"
# Without the host tests (SP_HOST_TESTS=0) only the guests run: no lint.
if [ "${SP_HOST_TESTS:-1}" != 0 ]; then
	"$REPO/scripts/install-deps.sh" check
elif [[ " $variants " == *" arm64 "* ]]; then
	"$REPO/scripts/install-deps.sh" build guest arm64
else
	"$REPO/scripts/install-deps.sh" build guest
fi
mkdir -p "$BUILD"
for v in SP_KERNEL SP_INITRD SP_OUT; do
	[ -z "${!v:-}" ] || die "$v is set: make check tests the kernels it builds, in its own directories"
done
# What is tested is what is linted: the kernel tree must be patches/.
"$REPO/scripts/prepare-tree.sh"
if [ -n "$(git -C "$TREE" status --porcelain)" ] ||
	[ "$(sed -n 3p "$TREE/.git/sched-points-state")" != "$(git -C "$TREE" rev-parse HEAD)" ]; then
	die "$TREE differs from patches/ (uncommitted edits or commits not exported): run 'make export-patches' or reset the tree"
fi
# And the series' selftests are selftests/, the suite the guests run.
"$REPO/scripts/selftests-commit.sh" --check
ran=()
reported=()
step_failures=

# step_failed NAME WHAT: a step failed without a failing result of its own:
# count it, say so now and again in the closing recap.
step_failed() {
	echo "  $1: $2" >&2
	failed=$((failed + 1))
	step_failures+="  $1: $2"$'\n'
}

# judge NAME TAP [VARIANT]: count TAP's results into the totals; with a
# variant, against what selftests/manifest expects of it, and note how many
# of the tests it expects reported (count-tap.py names each one that did
# not).
judge() {
	local p f s args=() expected missing
	[ -z "${3:-}" ] || args=(--manifest "$REPO/selftests/manifest" --variant "$3")
	ran+=("$1")
	read -r p f s < <("$REPO/scripts/count-tap.py" "${args[@]}" "$2" \
		2>"$BUILD/$1.problems" || echo "count-tap.py failed")
	sed "s/^/  $1: /" "$BUILD/$1.problems" >&2
	if [ -n "${3:-}" ]; then
		expected=$(awk -F'|' -v v="$3" '!/^[[:space:]]*(#|$)/ {
			n = split($1, w, " ")
			for (i = 1; i <= n; i++) if (w[i] == v) { c++; break }
		} END { print c + 0 }' "$REPO/selftests/manifest")
		missing=$(grep -c '^[^ ].*:0: ".*" did not report$' "$BUILD/$1.problems" || true)
		reported+=("$3: $((expected - missing)) of $expected expected")
	fi
	if ! [[ $p =~ ^[0-9]+$ && $f =~ ^[0-9]+$ && $s =~ ^[0-9]+$ ]]; then
		echo "  $1: cannot judge $2 ($p)" >&2
		p=0 f=1 s=0
		[ -z "${3:-}" ] || reported[-1]="$3: ? of $expected expected (not judged)"
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	judged_failed=$f
}

# tap_step NAME COMMAND...: run a step whose stdout is TAP, judge it.
tap_step() {
	local name=$1 rc=0 t0=$SECONDS
	shift
	note "$name: $*"
	"$@" >"$BUILD/$name.tap" 2>"$BUILD/$name.log" || rc=$?
	judge "$name" "$BUILD/$name.tap"
	if [ "$rc" != 0 ] && [ "$judged_failed" = 0 ]; then
		step_failed "$name" "exited $rc without a failing result; see $BUILD/$name.log"
		tail -5 "$BUILD/$name.log" >&2
	fi
	times+=("$name $((SECONDS - t0))")
}

# The tools' host tests need no kernel: they run niced beside the kernel
# steps, filling the core that lint and the single-threaded guests leave.
host_tools=()
if [ "${SP_HOST_TESTS:-1}" != 0 ]; then
	for mk in "$REPO"/tools/*/Makefile; do
		[ -f "$mk" ] || continue
		name=host-$(basename "$(dirname "$mk")")
		host_tools+=("$name")
		rm -f "$BUILD/$name.rc"
		nice -n 10 "$REPO/scripts/check.sh" --step "$name" \
			make -s -C "$(dirname "$mk")" check &
	done
	tap_step check-scripts "$REPO/scripts/test-check-scripts.sh"
	tap_step docs "$REPO/scripts/docs-check.sh"
	tap_step deb-tool "$REPO/scripts/test-deb-tool.sh"
	tap_step lint "$REPO/scripts/lint.sh"
	tap_step warnings "$REPO/scripts/warnings-check.sh"
	tap_step i386-build "$REPO/scripts/i386-build-check.sh"
	tap_step rt-build "$REPO/scripts/rt-build-check.sh"
	tap_step distro-build "$REPO/scripts/distro-build-check.sh"
	tap_step arm64-build "$REPO/scripts/arm64-build-check.sh"
	tap_step bisect "$REPO/scripts/bisect-check.sh"
	# The cache itself: patch N-1 changed, exactly prefixes N-1 and N rebuild.
	tap_step cache-test "$REPO/scripts/test-result-cache.sh"
fi

# guest_env GUEST: the environment of its kernel's build and boot: the
# variant, and for arm64 ARCH=arm64 with the main kernel's variant (only
# then: an empty ARCH in kbuild's environment is not x86).
guest_env() {
	if [ "$1" = arm64 ]; then echo ARCH=arm64 VARIANT=; else echo "VARIANT=$1"; fi
}

# guest_build VARIANT: build that kernel, its kselftests and initramfs.
guest_build() {
	local t0=$SECONDS s genv
	read -ra genv < <(guest_env "$1")
	for s in build-kernel build-selftests build-initramfs; do
		env "${genv[@]}" "$REPO/scripts/$s.sh"
	done
	times+=("kernel-${1:-main} $((SECONDS - t0))")
}

# arm64_guest_key: the key of the arm64 guest's kept result: all that its run
# depends on. The kernel tree, the fragments its config is made of, the
# selftests and the manifest, what goes into the initramfs (the guest's
# scripts, the tool, bench/, Debian's arm64 busybox), the scripts that
# build, boot and judge it (and this script's functions that do), the
# compilers and QEMU, kbuild's environment and the guest's SP_ settings.
arm64_guest_key() {
	local frags
	{
		echo guest-arm64
		tree_id "$TREE"
		mapfile -t frags < <(ARCH=arm64 "$REPO/scripts/configure-kernel.sh" --fragments)
		tree_id "$REPO" selftests scripts/guest tools/schedpoints bench "${frags[@]}"
		script_id "$REPO"/scripts/{env,result-cache,prepare-tree,configure-kernel,build-kernel}.sh \
			"$REPO"/scripts/{build-selftests,build-initramfs,run-guest,scan-splats,check-taint}.sh \
			"$REPO/scripts/count-tap.py"
		declare -f guest_env guest_build guest_out guest_run guest_judge judge
		toolchain_id
		build_env_id
		aarch64-linux-gnu-gcc --version | head -1
		aarch64-linux-gnu-ld --version | head -1
		dpkg-query -W libc6-dev-arm64-cross qemu-system-arm
		qemu-system-aarch64 --version | head -1
		sha256sum <"$ARM64_DEBS/root/bin/busybox"
		env | LC_ALL=C sort | grep -E '^SP_' | grep -vE '^SP_(VARIANTS|HOST_TESTS)=' || true
	} | result_key
}

# guest_out GUEST: the output directory of a guest run (a kernel variant,
# or debug-preempt-none).
guest_out() { echo "$BUILD/guest-check${1:+-$1}"; }

# guest_run GUEST: run the suite in a guest; its exit status and seconds
# to OUT/rc. The guests are single-threaded (TCG), so that they run side
# by side, one a core.
guest_run() {
	local variant=$1 rc=0 out append accel=${SP_ACCEL:-} t0=$SECONDS genv
	out=$(guest_out "$variant")
	append=${SP_APPEND:-}
	# KCSAN: the concurrency tests only (the whole suite takes too long),
	# and the wakers' oracles (a waker's note written on one CPU, read at
	# the return on another), on multi-threaded TCG, so that two vCPUs
	# run at once (see kernel-config/debug-kcsan.config).
	if [ "$variant" = debug-kcsan ]; then
		append+=" sp.tests=stress,cpu_hotplug,module_churn,percpu_merge"
		append+=",wakers_pipe_effective_oracle,wakers_futex_caller_oracle"
		append+=",wakers_completion_kthread"
		accel=${SP_ACCEL:-tcg,thread=multi}
	fi
	# The debug kernel once more, with preempt=none, for the KUnit suite
	# that runs only there (its readers must yield by themselves): that
	# suite alone, no kselftest, with accounting on from boot, so that
	# its last case sees the hook's tables untouched while the hook
	# counts in them. watchdog_thresh=10, the kernel's default, not the
	# debug guest's 1: without preemption, the boot's own long loops
	# (freeing the initramfs, loading ACPI's tables) hold the CPU for
	# seconds under TCG and KASAN, which a 2 s soft-lockup report
	# fails. The suite's own probe bounds its readers' stretches at
	# 500 ms.
	if [ "$variant" = debug-preempt-none ]; then
		variant=debug
		append+=" preempt=none watchdog_thresh=10 sched_points=1 kunit.filter_glob=sched_points_big"
		append+=" sp.tests=none"
	fi
	# The lockdown kernel, locked down as Secure Boot machines boot
	# theirs: the test of the sysctls runs alone (lockdown refuses the
	# unsigned test module most others need), and the tool on the live
	# files. No KUnit: the main guest runs it.
	if [ "$variant" = lockdown ]; then
		append+=" lsm=lockdown lockdown=integrity kunit.enable=0"
		append+=" sp.tests=lockdown_sysctls_control_and_read"
	fi
	read -ra genv < <(guest_env "$variant")
	env "${genv[@]}" SP_OUT="$out" SP_APPEND="$append" SP_ACCEL="$accel" \
		"$REPO/scripts/run-guest.sh" check 2>"$out.log" || rc=$?
	echo "$rc $((SECONDS - t0))" >"$out.rc"
}

# guest_judge VARIANT STATUS [cached]: judge its TAP against the manifest
# (STATUS: how guest_run itself exited; cached: the TAP is a kept pass,
# replayed). No verdict, a splat or a timeout fails the run
# (scripts/run-guest.sh). The arm64 guest's pass is kept, under
# arm64_key.
guest_judge() {
	local variant=$1 name=${1:-main} rc secs out
	out=$(guest_out "$variant")
	{ read -r rc secs <"$out.rc"; } 2>/dev/null || rc="no exit status"
	[ "$2" = 0 ] || rc="its runner exited $2"
	cat "$out.log" >&2 2>/dev/null || true
	mkdir -p "$out/share"
	touch "$out/share/tap.txt"
	grep -E '^(# )*(not ok|ok) ' "$out/share/tap.txt" | sed "s/^/  $name: /" || true
	judge "guest-$name" "$out/share/tap.txt" "$name"
	if [ "$rc" != 0 ]; then
		step_failed "guest-$name" "the guest run failed (exit $rc): see above and $out/"
	fi
	if [ "$variant" = arm64 ] && [ -n "$arm64_key" ] && [ "${3:-}" != cached ] &&
		[ "$rc" = 0 ] && [ "$judged_failed" = 0 ]; then
		result_put "$arm64_key" <"$out/share/tap.txt"
	fi
	times+=("guest-$name ${secs:-?} (${3:-side by side})")
}

# The arm64 guest: its kept pass when nothing it depends on changed (never
# with a planted fault), else built and run after the first guest, on
# its core, as the lockdown guest is (with main and debug: main,
# debug-preempt-none, arm64 and lockdown take less time together than
# the debug guest beside them).
guests=() later=() arm64_key=
for variant in $variants; do
	[ "$variant" = main ] && variant=
	if [ "$variant" = arm64 ] && [ -z "${SP_INJECT:-}" ]; then
		t0=$SECONDS
		arm64_key=$(arm64_guest_key)
		out=$(guest_out arm64)
		rm -rf "$out" "$out.rc" "$out.log"
		mkdir -p "$out/share"
		if result_replay "$arm64_key" nested >"$out/share/tap.txt"; then
			echo "0 $((SECONDS - t0))" >"$out.rc"
			guest_judge arm64 0 cached
			continue
		fi
	fi
	guest_build "$variant"
	if [[ $variant == arm64 || $variant == lockdown ]] && [ ${#guests[@]} != 0 ]; then
		later+=("$variant")
	else
		guests+=("$variant")
	fi
	[ "$variant" != debug ] || later+=(debug-preempt-none)
done
# Nothing of an earlier run may be read as this one's.
for variant in "${guests[@]}" "${later[@]}"; do
	out=$(guest_out "$variant")
	rm -rf "$out" "$out.rc" "$out.log"
done
# One guest a kernel, side by side; the later ones after the first guest,
# on the core it leaves.
pids=()
for i in "${!guests[@]}"; do
	if [ "$i" = 0 ]; then
		{
			guest_run "${guests[0]}"
			for variant in "${later[@]}"; do
				guest_run "$variant"
			done
		} &
	else
		guest_run "${guests[i]}" &
	fi
	pids+=("$!")
done
for i in "${!guests[@]}"; do
	status=0
	wait "${pids[i]}" || status=$?
	guest_judge "${guests[i]}" "$status"
	if [ "$i" = 0 ]; then
		for variant in "${later[@]}"; do
			guest_judge "$variant" "$status"
		done
	fi
done

wait
for name in "${host_tools[@]}"; do
	read -r rc secs <"$BUILD/$name.rc" || rc="no exit status"
	judge "$name" "$BUILD/$name.tap"
	if [ "$rc" != 0 ] && [ "$judged_failed" = 0 ]; then
		step_failed "$name" "exited $rc without a failing result; see $BUILD/$name.log"
	fi
	times+=("$name ${secs:-?} (in parallel)")
done

echo "step            seconds"
for t in "${times[@]}"; do
	read -r step secs rest <<<"$t"
	printf '%-15s %7s %s\n' "$step" "$secs" "${rest:-}"
done
printf '%-15s %7s\n' total $((SECONDS - start))
# CI shows only the end of the output: name what failed here again, each
# failure with the last lines of its diagnostics (the failed expectation
# and the test's own log), so a failure seen once in CI can be read there.
recap=$(for name in "${ran[@]}"; do
	sed "s/^/  $name: /" "$BUILD/$name.problems" 2>/dev/null
done | awk -v keep=6 '
	function flush() { for (i = n - keep + 1; i <= n; i++) if (i > 0) print d[i]; n = 0 }
	/^ *[^ ]*:   \| / { d[++n] = $0; next }
	{ flush(); print }
	END { flush() }')
[ -z "$recap" ] || { echo "failures:"; head -n 40 <<<"$recap"; }
[ -z "$step_failures" ] || { echo "failed steps:"; echo -n "$step_failures"; }
echo "judged: ${ran[*]}"
line=$(printf '%s; ' "${reported[@]}")
echo "${line%; }"
summary="$passed passed, $failed failed"
[ "$skipped" = 0 ] || summary+=", $skipped skipped"
echo "$summary"
[ "$failed" = 0 ]
