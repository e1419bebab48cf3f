#!/usr/bin/env bash
# Check that two kernel configurations differ only in the series' own
# options (the symbols that patches/ adds to a Kconfig: SCHED_POINTS,
# SCHED_POINTS_KUNIT_TEST), as the field kernel (build/linux/obj-field)
# and its vanilla twin (build/linux-vanilla/obj-field) must for the
# macro bench (scripts/field-bench.sh) to compare them: every other
# symbol has the same value, or is unset, in both. Prints each
# difference ("CONFIG_X: A | B", "-" for a symbol not in a file) and
# what it found; exit status 0 when only the series' options differ, 1
# otherwise.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,10s/^# \{0,1\}//p' "$0"
	echo "usage: $0 SERIES.CONFIG VANILLA.CONFIG"
	exit 0
fi
source "$(dirname "$0")/env.sh"
[ $# = 2 ] || die "two configurations (see --help)"
for f in "$@"; do
	[ -r "$f" ] || die "cannot read $f"
done
# The series' options: the symbols its patches add.
mapfile -t own < <(sed -n 's/^+\(menu\)\{0,1\}config \([A-Za-z0-9_]*\)$/\2/p' "$REPO"/patches/*.patch | sort -u)
[ ${#own[@]} != 0 ] || die "no Kconfig symbol in $REPO/patches/*.patch"
# symbols FILE: "SYMBOL<TAB>VALUE" ("n" for "is not set"), sorted.
symbols() {
	sed -n -e 's/^CONFIG_\([A-Za-z0-9_]*\)=\(.*\)$/\1\t\2/p' \
		-e 's/^# CONFIG_\([A-Za-z0-9_]*\) is not set$/\1\tn/p' "$1" | LC_ALL=C sort -t "$(printf '\t')" -k1,1
}
diffs=$(LC_ALL=C join -t "$(printf '\t')" -a1 -a2 -e - -o 0,1.2,2.2 <(symbols "$1") <(symbols "$2") |
	awk -F'\t' '$2 != $3 && !($2 == "n" && $3 == "-") && !($2 == "-" && $3 == "n") { print "CONFIG_" $1 ": " $2 " | " $3 }')
other=$(grep -vE "^CONFIG_($(IFS='|'; echo "${own[*]}")): " <<<"$diffs" || true)
if [ -n "$diffs" ]; then
	echo "$diffs"
fi
if [ -n "$other" ]; then
	echo "field-config-check.sh: $1 and $2 differ beyond the series' options (${own[*]}):" >&2
	echo "$other" >&2
	exit 1
fi
echo "field-config-check.sh: $(basename "$1") and $(basename "$2") differ only in the series' options: $(grep -c . <<<"$diffs" || true) lines (${own[*]})"
