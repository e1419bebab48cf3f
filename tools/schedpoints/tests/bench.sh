#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench: every view in every format on a generated capture of
# BENCH_LINES (default 1,000,000) lines, the shape of issue 16: 50,000
# tasks, 3,000 call sites, 4 kinds, a 50,000 x 12,000 matrix (see
# tests/gen-scale.sh).  Prints the wall-clock seconds, the CPU seconds
# (user + system) and the maximum resident set size of each run
# (/usr/bin/time) and exits 1 if any run takes more than BENCH_MAX_S CPU
# seconds (default 3) or BENCH_MAX_MB MB (default 500), or fails.  The views
# run with their defaults (the matrix and heat map show 40 x 40, Prometheus
# 100 series a family and 'other'); a few runs ask for every row (-n 0)
# where that stays bounded.  A second pair of captures of the same shape has
# the histogram switch on (every sleep and yield line with its buckets):
# the views that show percentiles and buckets, diff and top run on it.
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
HA=$D/scale-$N-hist.txt
HB=$D/scale-$N-hist-later.txt
HS=$D/scale-$N-hist-stream.txt
if stale "$HA"; then sh "$T/gen-scale.sh" "$N" 0 1 >"$HA"; fi
if stale "$HB"; then sh "$T/gen-scale.sh" "$N" 1 1 >"$HB"; fi
if stale "$HS"; then cat "$HA" "$HB" >"$HS"; fi
cat "$A" "$B" "$HA" "$HB" "$HS" >/dev/null	# warm the page cache

echo "$N lines ($(wc -c <"$A") bytes), $(nproc) CPUs, $(uname -m), binary $BIN"
echo "limits: $MAX_S s of CPU, $MAX_MB MB max RSS"
printf '%-34s %-10s %8s %8s %10s\n' "view" "format" "seconds" "CPU s" "max RSS MB"
over=0
IN=/dev/null	# standard input of the runs (top reads a stream)
run() {	# run LABEL FORMAT ARGS... (names of its own: the loops' are global)
	r_label=$1 r_fmt=$2
	shift 2
	if /usr/bin/time -o "$D/time.txt" -f '%e %U %S %M' "$BIN" "$@" <"$IN" >/dev/null 2>"$D/err.txt"; then
		rc=0
	else
		rc=$?
	fi
	# shellcheck disable=SC2046 # the fields of one line, split on purpose
	set -- $(tail -n 1 "$D/time.txt")
	cpu=$(awk -v u="$2" -v s="$3" 'BEGIN { printf "%.2f", u + s }')
	verdict=$(awk -v s="$cpu" -v k="$4" -v ms="$MAX_S" -v mm="$MAX_MB" -v rc="$rc" \
		'BEGIN { print rc ? "FAILED" : (s > ms || k / 1024 > mm) ? "OVER" : "" }')
	printf '%-34s %-10s %8s %8s %10.1f %s\n' "$r_label" "$r_fmt" "$1" "$cpu" "$(awk -v k="$4" 'BEGIN { print k / 1024 }')" "$verdict"
	[ -z "$verdict" ] || over=$((over + 1))
	[ "$rc" = 0 ] || sed 's/^/    /' "$D/err.txt" | head -n 3
}

# BENCH_HIST_ONLY=1: the runs on the captures with histograms only
[ "${BENCH_HIST_ONLY:-0}" = 1 ] ||
for view in "sites" "sites -g function" "sites -g module" "kinds" \
	"tasks" "tasks -b tgid" "tasks -b comm" "site kernel_func_17" \
	"site [mod3]" "task 1234" "matrix" "matrix -b comm" "matrix -T -g function"; do
	for fmt in table csv json folded prometheus; do
		# shellcheck disable=SC2086 # words of options, split on purpose
		run "$view" "$fmt" -f "$A" -F "$fmt" $view
	done
done
if [ "${BENCH_HIST_ONLY:-0}" != 1 ]; then
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
fi

echo "with histograms: $(wc -c <"$HA") bytes, $(grep -c '	[0-9]*:[0-9]' "$HA") lines with buckets"
for view in "sites" "-s p99 sites" "tasks" "hist" "matrix"; do
	for fmt in table json; do
		# shellcheck disable=SC2086 # words of options, split on purpose
		run "hist: $view" "$fmt" -f "$HA" -F "$fmt" $view
	done
done
run "hist: --buckets sites" csv -f "$HA" -F csv --buckets sites
run "hist: sites" prometheus -f "$HA" -F prometheus sites
for view in "sites" "tasks" "matrix" "hist"; do
	for fmt in table json; do
		run "hist: diff A B $view" "$fmt" -F "$fmt" diff "$HA" "$HB" -i 10 "$view"
	done
done
run "hist: diff A B --buckets sites" csv -F csv diff "$HA" "$HB" --buckets sites
IN=$HS
for view in "sites" "tasks" "matrix" "hist"; do
	for fmt in table json; do
		run "hist: top (stream of A B) $view" "$fmt" -F "$fmt" -f - top -i 10 -c 1 "$view"
	done
done
IN=/dev/null
echo "$over over the limits"
[ "$over" = 0 ]
