#!/usr/bin/env bash
# Lint the series, the scripts and the tool; TAP on stdout, one result per
# check: checkpatch --strict --codespell on every patch, kernel-doc -Wall on
# every file the series adds or changes (a changed file may not gain a
# warning over pristine), shellcheck on every script, and the tool's
# cppcheck/clang-tidy. Every checker is required (install-deps.sh).
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
for tool in codespell shellcheck; do
	command -v "$tool" >/dev/null || die "$tool is missing (scripts/install-deps.sh)"
done
for p in "$REPO"/patches/*.patch; do
	# Absolute paths: checkpatch misreads some relative ones as files.
	out=$("$TREE/scripts/checkpatch.pl" --strict --codespell --quiet --no-tree \
		"$(realpath "$p")" 2>&1) || true
	[ -z "$out" ] || tap_comment <<<"$out"
	result "$([ -z "$out" ] && echo 0 || echo 1)" "checkpatch --strict $(basename "$p")"
done
# kernel-doc: an added file must be clean, a changed one may not gain a
# warning (counted per text, scripts/new-warnings.sh).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t changed < <(cd "$TREE" && git diff --name-only --diff-filter=AM pristine HEAD -- '*.c' '*.h')
for f in "${changed[@]}"; do
	mkdir -p "$tmp/pristine/$(dirname "$f")"
	: >"$tmp/before.log"
	if git -C "$TREE" cat-file -e "pristine:$f" 2>/dev/null; then
		git -C "$TREE" show "pristine:$f" >"$tmp/pristine/$f"
		(cd "$tmp/pristine" && "$TREE/scripts/kernel-doc" -none -Wall "$f") >"$tmp/before.log" 2>&1 || true
	fi
	(cd "$TREE" && scripts/kernel-doc -none -Wall "$f") >"$tmp/after.log" 2>&1 || true
	if new=$("$REPO/scripts/new-warnings.sh" "$tmp/before.log" "$tmp/after.log"); then
		result 0 "kernel-doc $f ($(grep -c 'warning:' "$tmp/before.log" || true) in pristine)"
	else
		tap_comment <<<"$new"
		result 1 "kernel-doc $f: $(wc -l <<<"$new") new warnings"
	fi
done
# Every script through shellcheck, no finding (a disable names its reason).
mapfile -t scripts < <(cd "$REPO" && { ls scripts/*.sh scripts/guest/* tools/*/tests/*.sh; } 2>/dev/null)
for f in "${scripts[@]}"; do
	out=$(cd "$REPO" && shellcheck -x "$f" 2>&1) || true
	[ -z "$out" ] || tap_comment <<<"$out"
	result "$([ -z "$out" ] && echo 0 || echo 1)" "shellcheck $f"
done
if make -s -C "$REPO/tools/schedpoints" lint >"$BUILD/tool-lint.log" 2>&1; then
	result 0 "tools/schedpoints: cppcheck and clang-tidy"
else
	sed 's/^/# /' "$BUILD/tool-lint.log" | tail -20
	result 1 "tools/schedpoints: cppcheck and clang-tidy"
fi
echo "1..$n"
exit $rc
