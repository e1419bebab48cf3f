#!/usr/bin/env bash
# Run every test: lint (checkpatch, kernel-doc, sparse and W=1 against the
# pristine tree, every prefix of the series builds), the host tests of
# tools/, then the kselftests (and KUnit) in a QEMU guest on each kernel of
# SP_VARIANTS (default "main debug": the kernel of the demo, then the debug
# kernel with KASAN, lockdep, UBSAN, where any splat fails). Ends with one
# line "N passed, N failed" (", N skipped") summed over all, and fails when
# any test failed or a guest crashed, hung or gave no verdict.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,8s/^# \{0,1\}//p' "$0"
	echo "usage: $0   (SP_INJECT=fail|panic|hang shows that each one fails;"
	echo "       SP_HOST_TESTS=0 runs the guests only)"
	exit 0
fi
source "$(dirname "$0")/env.sh"
start=$SECONDS
passed=0 failed=0 skipped=0
add_counts() {
	local p f s
	read -r p f s <<<"$("$REPO/scripts/count-tap.sh" "$1")"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

"$REPO/scripts/install-deps.sh"
mkdir -p "$BUILD"

# tap_step NAME COMMAND...: run a step whose stdout is TAP, count it.
tap_step() {
	local name=$1
	shift
	"$@" >"$BUILD/$name.tap" 2>"$BUILD/$name.log" || true
	grep '^not ok' "$BUILD/$name.tap" || true
	add_counts "$BUILD/$name.tap"
	if ! grep -q '^1\.\.[1-9]' "$BUILD/$name.tap"; then
		echo "$name gave no results: see $BUILD/$name.log" >&2
		tail -5 "$BUILD/$name.log" >&2
		failed=$((failed + 1))
	fi
}

# Lint, the series checks and the tools' host tests.
host_checks() {
	note "lint: checkpatch, kernel-doc, the tool's static analysis"
	tap_step lint "$REPO/scripts/lint.sh"
	note "lint: sparse and W=1 on the series' files against the pristine tree"
	tap_step warnings "$REPO/scripts/warnings-check.sh"
	note "lint: every prefix of the series builds"
	tap_step bisect "$REPO/scripts/bisect-check.sh"

	for mk in "$REPO"/tools/*/Makefile; do
		[ -f "$mk" ] || continue
		dir=$(dirname "$mk")
		note "host tests: $dir"
		if make -s -C "$dir" check >"$BUILD/host-$(basename "$dir").tap" 2>&1; then
			host_rc=0
		else
			host_rc=$?
		fi
		grep -E '^(not )?ok ' "$BUILD/host-$(basename "$dir").tap" | grep -v '^ok' || true
		add_counts "$BUILD/host-$(basename "$dir").tap"
		if [ "$host_rc" != 0 ] && [ "$failed" = 0 ]; then
			echo "host tests of $dir exited $host_rc without a failing test" >&2
			failed=$((failed + 1))
		fi
	done
}
[ "${SP_HOST_TESTS:-1}" = 0 ] || host_checks

# The suite runs on the kernel of the demo, then on the debug kernel
# (KASAN, lockdep, UBSAN...), where any splat fails the run.
guest_suite() {
	local variant=$1 rc=0 out append
	export VARIANT=$variant
	"$REPO/scripts/build-kernel.sh"
	"$REPO/scripts/build-selftests.sh"
	"$REPO/scripts/build-initramfs.sh"
	append=${SP_APPEND:-}
	# KCSAN: the concurrency tests only (the whole suite takes too long).
	[ "$variant" != debug-kcsan ] ||
		append+=" sp.tests=stress,cpu_hotplug,module_churn,percpu_merge"
	SP_APPEND=$append "$REPO/scripts/run-guest.sh" check || rc=$?
	out=$BUILD/guest-check${variant:+-$variant}
	if [ -f "$out/share/tap.txt" ]; then
		grep -E '^(# )?(not ok|ok) ' "$out/share/tap.txt" | sed "s/^/  ${variant:-main}: /"
		add_counts "$out/share/tap.txt"
	fi
	if [ "$rc" != 0 ]; then
		echo "guest run ${variant:-main} failed (exit $rc): see above and $out/" >&2
		failed=$((failed + 1))
	fi
	unset VARIANT
}
for variant in ${SP_VARIANTS:-main debug}; do
	[ "$variant" = main ] && variant=
	guest_suite "$variant"
done
note "make check took $((SECONDS - start)) s"
summary="$passed passed, $failed failed"
[ "$skipped" = 0 ] || summary+=", $skipped skipped"
echo "$summary"
[ "$failed" = 0 ]
