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
source "$REPO/scripts/result-cache.sh"
n=0 rc=0
# check NAME KEY COMMAND...: COMMAND prints what it finds (nothing: pass).
# A pass is kept under KEY, the hash of every input of the check.
check() {
	local name=$1 key out
	key=$(result_key <<<"$2")
	shift 2
	if result_get "$key" >/dev/null; then
		tap_result 0 "$name (cached)"
		return
	fi
	out=$("$@" 2>&1) || out+=$'\n'"(exit status $?)"
	[ -z "$out" ] || tap_comment <<<"$out"
	tap_result "$([ -z "$out" ] && echo 0 || echo 1)" "$name"
	[ -n "$out" ] || echo "$name" | result_put "$key"
}
for tool in codespell shellcheck cppcheck clang-tidy; do
	command -v "$tool" >/dev/null || die "$tool is missing (scripts/install-deps.sh)"
done
tools=$({ toolchain_id; script_id "$0" "$REPO/scripts/env.sh" "$REPO/scripts/result-cache.sh"; } | result_key)

# checkpatch without a dictionary says so and checks no spelling: name it.
dictionary=$(/usr/bin/python3 -c 'import codespell_lib, os
print(os.path.join(os.path.dirname(codespell_lib.__file__), "data", "dictionary.txt"))')
[ -f "$dictionary" ] || die "no codespell dictionary ($dictionary)"
# shellcheck disable=SC2317 # called through check(), which shellcheck does not follow
checkpatch() {
	# Absolute paths: checkpatch misreads some relative ones as files.
	"$TREE/scripts/checkpatch.pl" --strict --codespell --codespellfile "$dictionary" \
		--quiet --no-tree "$(realpath "$1")"
}
checkpatch_id=$(cd "$TREE/scripts" && script_id checkpatch.pl spelling.txt const_structs.checkpatch "$dictionary")
# checkpatch reads a .checkpatch.conf from where it runs (here), $HOME or
# .scripts, whose --ignore options change what it reports.
checkpatch_id+=$(checkpatch_conf_id | result_key)
for p in "$REPO"/patches/*.patch; do
	check "checkpatch --strict $(basename "$p")" \
		"$(result_key <"$p")$tools$checkpatch_id" checkpatch "$p"
done

# kernel-doc: an added file must be clean, a changed one may not gain a
# warning (counted per text, scripts/new-warnings.sh).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2317 # called through check(), which shellcheck does not follow
kernel_doc() {
	local f=$1
	mkdir -p "$tmp/pristine/$(dirname "$f")"
	: >"$tmp/before.log"
	if git -C "$TREE" cat-file -e "pristine:$f" 2>/dev/null; then
		git -C "$TREE" show "pristine:$f" >"$tmp/pristine/$f"
		(cd "$tmp/pristine" && "$TREE/scripts/kernel-doc" -none -Wall "$f") >"$tmp/before.log" 2>&1 || true
	fi
	(cd "$TREE" && scripts/kernel-doc -none -Wall "$f") >"$tmp/after.log" 2>&1 || true
	"$REPO/scripts/new-warnings.sh" "$tmp/before.log" "$tmp/after.log" || true
	# Anything else kernel-doc says (an "Error:" line) that pristine did not.
	comm -13 <(grep -vE '^[^ :]+:[0-9]+: ' "$tmp/before.log" | sort) \
		<(grep -vE '^[^ :]+:[0-9]+: ' "$tmp/after.log" | sort)
}
kernel_doc_id=$(script_id "$TREE/scripts/kernel-doc" "$REPO/scripts/new-warnings.sh")
mapfile -t changed < <(cd "$TREE" && git diff --name-only --diff-filter=AM pristine HEAD -- '*.c' '*.h')
for f in "${changed[@]}"; do
	check "kernel-doc $f" "$({ git -C "$TREE" show "pristine:$f" 2>/dev/null || true
		echo "-- the file as checked:"; cat "$TREE/$f"; } | result_key)$tools$kernel_doc_id" \
		kernel_doc "$f"
done

# Every script through shellcheck, no finding (a disable names its reason).
mapfile -t scripts < <(cd "$REPO" && { ls .ci/run scripts/*.sh scripts/guest/* scripts/tests/kbuild/make \
	tools/*/tests/*.sh; } 2>/dev/null)
for f in "${scripts[@]}"; do
	out=$(cd "$REPO" && shellcheck -x "$f" 2>&1) || true
	[ -z "$out" ] || tap_comment <<<"$out"
	tap_result "$([ -z "$out" ] && echo 0 || echo 1)" "shellcheck $f"
done
# ... and a disable without its reason on its line, or before a script's
# first command (where it covers the whole file), or in .shellcheckrc,
# hides findings unsaid.
out=$(cd "$REPO" && "$REPO/scripts/shellcheck-disables.sh" .shellcheckrc "${scripts[@]}" 2>&1) || true
[ -z "$out" ] || tap_comment <<<"$out"
tap_result "$([ -z "$out" ] && echo 0 || echo 1)" \
	"shellcheck: every disable gives its reason on its line, none covers a whole file"

# A harness SKIP() after a failed expectation erases the failure: the
# suites use SP_SKIP() (selftests/sched_points/sp_helpers.h).
out=$(grep -nE '(^|[^_A-Za-z0-9])SKIP[[:space:]]*\(' "$REPO"/selftests/*/*.[ch] |
	grep -vE 'SKIP\(, "%s", sp_skip_reason\);|:[0-9]+:[[:space:]]*(\*|/\*|//)' || true)
[ -z "$out" ] || tap_comment <<<"$out"
tap_result "$([ -z "$out" ] && echo 0 || echo 1)" "selftests: no bare SKIP(), only SP_SKIP()"

# shellcheck disable=SC2317 # called through check(), which shellcheck does not follow
tool_lint() {
	make -s -C "$REPO/tools/schedpoints" lint >"$BUILD/tool-lint.log" 2>&1 ||
		tail -20 "$BUILD/tool-lint.log"
}
check "tools/schedpoints: cppcheck and clang-tidy" "$(cd "$REPO/tools/schedpoints" &&
	find . -type f \( -name '*.[ch]' -o -name Makefile -o -name '.clang*' \) | sort |
	xargs cat | result_key)$tools$({ cppcheck --version; clang-tidy --version; } | result_key)" tool_lint
echo "1..$n"
exit $rc
