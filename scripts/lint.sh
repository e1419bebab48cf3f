#!/usr/bin/env bash
# Lint the series and the tool; TAP on stdout, one result per check:
# checkpatch --strict (and --codespell) on every patch, kernel-doc on
# every file the series adds, and the tool's cppcheck/clang-tidy.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,4s/^# \{0,1\}//p' "$0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
[ -f "$TREE/scripts/checkpatch.pl" ] || "$REPO/scripts/prepare-tree.sh" >&2
# checkpatch's spdxcheck needs Debian's python3 with python3-ply.
export PATH=/usr/bin:$PATH
n=0 rc=0
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; rc=1; fi
}
spell=
command -v codespell >/dev/null && spell=--codespell
for p in "$REPO"/patches/*.patch; do
	# Absolute paths: checkpatch misreads some relative ones as files.
	out=$("$TREE/scripts/checkpatch.pl" --strict $spell --quiet --no-tree \
		"$(realpath "$p")" 2>&1) || true
	[ -z "$out" ] || echo "$out" | sed 's/^/# /'
	result "$([ -z "$out" ] && echo 0 || echo 1)" "checkpatch --strict $(basename "$p")"
done
files=$(cd "$TREE" && git diff --name-only --diff-filter=A pristine HEAD -- '*.c' '*.h')
for f in $files; do
	out=$(cd "$TREE" && scripts/kernel-doc -none -Wall "$f" 2>&1) || true
	[ -z "$out" ] || echo "$out" | sed 's/^/# /'
	result "$([ -z "$out" ] && echo 0 || echo 1)" "kernel-doc $f"
done
if make -s -C "$REPO/tools/schedpoints" lint >"$BUILD/tool-lint.log" 2>&1; then
	result 0 "tools/schedpoints: cppcheck and clang-tidy"
else
	sed 's/^/# /' "$BUILD/tool-lint.log" | tail -20
	result 1 "tools/schedpoints: cppcheck and clang-tidy"
fi
echo "1..$n"
exit $rc
