#!/usr/bin/env bash
# Run every test: the host tests of tools/, then the kselftests in a QEMU
# guest on the patched kernel. Ends with one line "N passed, N failed"
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

"$REPO/scripts/build-kernel.sh"
"$REPO/scripts/build-selftests.sh"
"$REPO/scripts/build-initramfs.sh"
guest_rc=0
"$REPO/scripts/run-guest.sh" check || guest_rc=$?
tap=$BUILD/guest-check/share/tap.txt
if [ -f "$tap" ]; then
	grep -E '^(# )?(not ok|ok) ' "$tap" | sed 's/^/  /'
	add_counts "$tap"
fi
if [ "$guest_rc" != 0 ]; then
	echo "guest run failed (exit $guest_rc): see above and $BUILD/guest-check/" >&2
	failed=$((failed + 1))
fi
note "make check took $((SECONDS - start)) s"
summary="$passed passed, $failed failed"
[ "$skipped" = 0 ] || summary+=", $skipped skipped"
echo "$summary"
[ "$failed" = 0 ]
