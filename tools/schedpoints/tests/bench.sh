#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench: every view in every format on a generated capture of
# BENCH_LINES (default 1,000,000) lines, the shape of issue 16: 50,000
# tasks, 3,000 call sites, 4 kinds, a 50,000 x 12,000 matrix (see
# tests/gen-scale.sh).  Prints the wall-clock seconds and the maximum
# resident set size of each run (/usr/bin/time) and exits 1 if any run
# takes more than BENCH_MAX_S seconds (default 3) or BENCH_MAX_MB MB
# (default 500), or fails.  The views run with their defaults (the matrix
# and heat map show 40 x 40, Prometheus 100 series a family and 'other');
# a few runs ask for every row (-n 0) where that stays bounded.
set -eu
BIN=${1:-./schedpoints}
D=${BENCH_DIR:-bench-data}
N=${BENCH_LINES:-1000000}
MAX_S=${BENCH_MAX_S:-3}
MAX_MB=${BENCH_MAX_MB:-500}
T=$(dirname "$0")
mkdir -p "$D"
A=$D/scale-$N.txt
B=$D/scale-$N-later.txt
# generated once, and again when the generator changed since
stale() { [ ! -s "$1" ] || [ -n "$(find "$T/gen-scale.sh" -newer "$1")" ]; }
if stale "$A"; then sh "$T/gen-scale.sh" "$N" >"$A"; fi
if stale "$B"; then sh "$T/gen-scale.sh" "$N" 1 >"$B"; fi
cat "$A" "$B" >/dev/null	# warm the page cache

echo "$N lines ($(wc -c <"$A") bytes), $(nproc) CPUs, $(uname -m), binary $BIN"
echo "limits: $MAX_S s, $MAX_MB MB max RSS"
printf '%-34s %-10s %8s %10s\n' "view" "format" "seconds" "max RSS MB"
over=0
run() {	# run VIEW FORMAT ARGS...
	view=$1 fmt=$2
	shift 2
	if /usr/bin/time -o "$D/time.txt" -f '%e %M' "$BIN" "$@" >/dev/null 2>"$D/err.txt"; then
		rc=0
	else
		rc=$?
	fi
	# shellcheck disable=SC2046 # the fields of one line, split on purpose
	set -- $(tail -n 1 "$D/time.txt")
	verdict=$(awk -v s="$1" -v k="$2" -v ms="$MAX_S" -v mm="$MAX_MB" -v rc="$rc" \
		'BEGIN { print rc ? "FAILED" : (s > ms || k / 1024 > mm) ? "OVER" : "" }')
	printf '%-34s %-10s %8s %10.1f %s\n' "$view" "$fmt" "$1" "$(awk -v k="$2" 'BEGIN { print k / 1024 }')" "$verdict"
	[ -z "$verdict" ] || over=$((over + 1))
	[ "$rc" = 0 ] || sed 's/^/    /' "$D/err.txt" | head -n 3
}

for view in "sites" "sites -g function" "sites -g module" "kinds" \
	"tasks" "tasks -b tgid" "tasks -b comm" "site kernel_func_17" \
	"site [mod3]" "task 1234" "matrix" "matrix -b comm" "matrix -T -g function"; do
	for fmt in table csv json folded prometheus; do
		# shellcheck disable=SC2086 # words of options, split on purpose
		run "$view" "$fmt" -f "$A" -F "$fmt" $view
	done
done
run "heatmap" svg -f "$A" heatmap
run "heatmap -T -b tgid" svg -f "$A" -T heatmap -b tgid
run "sites -n 0 (all rows)" table -f "$A" -n 0 sites
run "tasks -n 0 (all rows)" json -f "$A" -F json -n 0 tasks
run "matrix -n 0 --columns 10" table -f "$A" -n 0 --columns 10 matrix
run "matrix -n 0 (1M cells)" folded -f "$A" -F folded -n 0 matrix
run "heatmap -n 0 --columns 0 (all)" svg -f "$A" heatmap -n 0 --columns 0
for fmt in table csv json folded prometheus; do
	# -i where the format shows rates (elsewhere it is a usage error)
	case $fmt in folded) iv="" ;; *) iv="-i 10" ;; esac
	# shellcheck disable=SC2086 # words of options, split on purpose
	run "diff A B sites" "$fmt" -F "$fmt" diff "$A" "$B" $iv sites
	[ "$fmt" = csv ] && iv=""
	# shellcheck disable=SC2086 # words of options, split on purpose
	run "diff A B matrix" "$fmt" -F "$fmt" diff "$A" "$B" $iv matrix
done
echo "$over over the limits"
[ "$over" = 0 ]
