#!/usr/bin/env bash
# sparse (C=2) and W=1 on every C file the series touches, at the pristine
# commit and at the last patch (build/series-check): TAP on stdout, one
# result per checker and touched source file; a file fails when a warning
# (or a sparse error) located in it is not in the pristine tree (line
# numbers are ignored).
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,6s/^# \{0,1\}//p' "$0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
"$REPO/scripts/prepare-tree.sh" >&2
command -v sparse >/dev/null || die "sparse is missing (scripts/install-deps.sh)"
mapfile -t files < <(git -C "$TREE" diff --name-only pristine HEAD -- '*.c' '*.h')
out=$SERIES_WT/obj

# warnings COMMIT: the warnings of the touched .c files that exist at
# COMMIT, one per line as "file: [sparse: ]warning: text".
warnings() {
	local objs=() f
	series_checkout "$1"
	for f in "${files[@]}"; do
		[[ $f == *.c && -f $SERIES_WT/$f ]] && objs+=("${f%.c}.o")
	done
	series_make -k W=1 C=2 CF=-fdiagnostic-prefix=sparse "${objs[@]}" \
		>"$out/warnings-$1.log" 2>&1 || true
	grep -E '^[^ :]+:[0-9]+:[0-9]+: (sparse: (warning|error)|warning):' "$out/warnings-$1.log" |
		sed -E 's#^(\.\./)*##; s#:[0-9]+:[0-9]+:#:#' | sort -u
}
before=$(warnings pristine)
after=$(warnings "$(git -C "$TREE" rev-parse HEAD)")
# Compiler errors (sparse's "errors" are findings, compared like warnings).
if grep -qE '^[^ :]+:[0-9]+:[0-9]+: (fatal )?error:' "$out/warnings-$(git -C "$TREE" rev-parse HEAD).log"; then
	die "the series' files do not compile: $out/warnings-*.log"
fi
n=0 rc=0
for f in "${files[@]}"; do
	for checker in sparse W=1; do
		if [ "$checker" = sparse ]; then pat="^$f: sparse: "; else pat="^$f: warning: "; fi
		old=$(grep -c "$pat" <<<"$before" || true)
		new=$(comm -13 <(grep "$pat" <<<"$before" || true) <(grep "$pat" <<<"$after" || true))
		n=$((n + 1))
		if [ -z "$new" ]; then
			echo "ok $n - $checker $f: no new warnings ($old in pristine)"
		else
			echo "${new//$'\n'/$'\n'# }" | sed '1s/^/# /'
			echo "not ok $n - $checker $f: $(wc -l <<<"$new") new warnings"
			rc=1
		fi
	done
done
echo "1..$n"
exit $rc
