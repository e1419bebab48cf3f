#!/usr/bin/env bash
# Run every test: the host tests of tools/, then the kselftests in a QEMU
# guest on the patched kernel; SP_VARIANTS="main debug" (make check-debug)
# also runs them on the debug kernel (KASAN, lockdep, UBSAN, KUnit). Ends with one line "N passed, N failed"
# (", N skipped") summed over both, and fails when any test failed or
# the guest crashed, hung or gave no verdict.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,5s/^# \{0,1\}//p' "$0"
	echo "usage: $0   (SP_INJECT=fail|panic|hang shows that each one fails)"
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

note "lint: checkpatch, kernel-doc, the tool's static analysis"
"$REPO/scripts/lint.sh" >"$BUILD/lint.tap" 2>&1 || true
grep '^not ok' "$BUILD/lint.tap" || true
add_counts "$BUILD/lint.tap"

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

# The suite runs on the kernel of the demo, then on the debug kernel
# (KASAN, lockdep, UBSAN...), where any splat fails the run.
guest_suite() {
	local variant=$1 rc=0 out
	export VARIANT=$variant
	"$REPO/scripts/build-kernel.sh"
	"$REPO/scripts/build-selftests.sh"
	"$REPO/scripts/build-initramfs.sh"
	"$REPO/scripts/run-guest.sh" check || rc=$?
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
for variant in ${SP_VARIANTS:-main}; do
	[ "$variant" = main ] && variant=
	guest_suite "$variant"
done
note "make check took $((SECONDS - start)) s"
summary="$passed passed, $failed failed"
[ "$skipped" = 0 ] || summary+=", $skipped skipped"
echo "$summary"
[ "$failed" = 0 ]
