#!/usr/bin/env bash
# Count a TAP stream's results: prints "PASSED FAILED SKIPPED".
#
# kselftest output nests: run_kselftest.sh prints one result per test
# program and prefixes each program's own TAP (one result per harness
# TEST) with "# ". Harness results are counted one by one; a program
# result counts only when the program failed without any failing harness
# result of its own (it crashed, or timed out).
set -euo pipefail
if [ "${1:-}" = --help ]; then
	echo "usage: $0 FILE    print passed, failed and skipped counts"
	exit 0
fi
awk '
function result(line,   failed, skip) {
	failed = line ~ /^not ok /
	skip = line ~ /# *(SKIP|skip)/
	if (skip) return "s"
	return failed ? "f" : "p"
}
/^# (not )?ok [0-9]+/ { r = result(substr($0, 3)); n[r]++; sub_fail += (r == "f"); next }
/^(not )?ok [0-9]+/ {
	r = result($0)
	if (r == "f" && sub_fail == 0) n["f"]++
	if (!seen_sub && r != "f") n[r]++
	sub_fail = 0
	seen_sub = 0
	next
}
/^# TAP version/ { seen_sub = 1 }
END { printf "%d %d %d\n", n["p"], n["f"], n["s"] }
' "$1"
