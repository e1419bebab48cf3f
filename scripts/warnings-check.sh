#!/usr/bin/env bash
# sparse (C=2) and W=1 on every C file the series touches, at the pristine
# commit and at the last patch (build/series-check): TAP on stdout, one
# result per checker and touched source file; a file fails when it has a
# warning (or a sparse error) that the pristine tree does not have, counted
# per text (scripts/new-warnings.sh: a new instance of an old text is new).
# A passing result is kept by the hash of both trees, the config, the
# checkers' versions and these scripts, and replayed as "(cached)".
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,6s/^# \{0,1\}//p' "$0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
"$REPO/scripts/prepare-tree.sh" >&2
command -v sparse >/dev/null || die "sparse is missing (scripts/install-deps.sh)"
source "$REPO/scripts/result-cache.sh"
mapfile -t files < <(git -C "$TREE" diff --name-only pristine HEAD -- '*.c' '*.h' ':!tools')
out=$SERIES_WT/obj
key=$({ echo warnings; git -C "$TREE" rev-parse 'pristine^{tree}' 'HEAD^{tree}'
	toolchain_id; build_env_id; cat "$(series_reference_config)"
	script_id "$0" "$REPO/scripts/new-warnings.sh" "$REPO/scripts/env.sh" "$REPO/scripts/result-cache.sh"; } | result_key)
! result_replay "$key" || exit 0

# warnings COMMIT: build the touched .c files that exist at COMMIT with
# W=1 and sparse; the log is $out/warnings-COMMIT.log.
warnings() {
	local objs=() f
	series_checkout "$1"
	for f in "${files[@]}"; do
		[[ $f == *.c && -f $SERIES_WT/$f ]] && objs+=("${f%.c}.o")
	done
	(cd "$SERIES_WT/obj" && rm -f "${objs[@]}")
	series_make -k W=1 C=2 CF=-fdiagnostic-prefix=sparse "${objs[@]}" \
		>"$out/warnings-$1.log" 2>&1 || true
	# Every file must really have been compiled (and checked).
	for f in "${objs[@]}"; do
		[ -f "$SERIES_WT/obj/$f" ] || die "$f was not built at $1: $out/warnings-$1.log"
	done
}
head=$(git -C "$TREE" rev-parse HEAD)
warnings pristine
warnings "$head"
# Compiler errors (sparse's "errors" are findings, compared like warnings).
if grep -qE '^[^ :]+:[0-9]+:[0-9]+: (fatal )?error:' "$out/warnings-$head.log"; then
	die "the series' files do not compile: $out/warnings-$head.log"
fi
# only FILE CHECKER LOG: the lines of LOG about FILE from CHECKER.
only() {
	grep -aE "^(\.\./)*$1:[0-9]+:[0-9]+: " "$3" | if [ "$2" = sparse ]; then
		grep -a ' sparse: '
	else
		grep -a -v ' sparse: ' | grep -aE ' (warning|error):'
	fi || true
}
n=0 rc=0
exec 3>"$out/warnings.tap"
for f in "${files[@]}"; do
	for checker in sparse W=1; do
		only "$f" "$checker" "$out/warnings-pristine.log" >"$out/before.log"
		only "$f" "$checker" "$out/warnings-$head.log" >"$out/after.log"
		old=$(wc -l <"$out/before.log")
		n=$((n + 1))
		if new=$("$REPO/scripts/new-warnings.sh" "$out/before.log" "$out/after.log"); then
			echo "ok $n - $checker $f: no new warnings ($old in pristine)" >&3
		else
			tap_comment <<<"$new" >&3
			echo "not ok $n - $checker $f: $(wc -l <<<"$new") new warnings" >&3
			rc=1
		fi
	done
done
exec 3>&-
echo "1..$n" >>"$out/warnings.tap"
cat "$out/warnings.tap"
[ "$rc" != 0 ] || result_put "$key" <"$out/warnings.tap"
exit $rc
