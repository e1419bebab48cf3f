#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench: time and memory of parsing and aggregating 1,000,000 lines.
#
#   distinct.txt  1,000,000 lines, 1,000,000 distinct keys
#                 (20,000 tasks x 50 call sites, as the kernel would list them)
#   repeated.txt  1,000,000 lines, 1,000 distinct keys (each key 1,000 times)
#   v2.txt        format version 2: 1,000,000 distinct keys (20,000 tasks x
#                 25 call sites x 2 kinds, so a site is hit with two kinds
#                 and distinct counts need their sets), with off-CPU times
#
# Memory grows with distinct keys, not with lines: compare the two maximum
# resident set sizes.  Figures are recorded in README.md.
set -eu
BIN=${1:-./schedpoints}
D=${BENCH_DIR:-bench-data}
N=${BENCH_LINES:-1000000}
mkdir -p "$D"

gen() {	# gen FILE KEYS
	awk -v n="$N" -v keys="$2" 'BEGIN {
		printf "sched_points version 1\nenabled 1\ncpus 2\ncapacity 1048576\n"
		printf "used %d\nentries %d\ndropped 0\n", n, n
		printf "pid\ttgid\tcount\taddress\tsymbol\tcomm\n"
		for (i = 0; i < n; i++) {
			k = i % keys
			pid = 1000 + int(k / 50); site = k % 50
			if (site < 40)
				sym = sprintf("kfunc_%d+0x%x/0x%x", site, 16 + site * 4, 512)
			else
				sym = sprintf("modfunc_%d+0x%x/0x100 [mod%d]", site, site, site % 3)
			printf "%d\t%d\t%d\tffffffff81%06x\t%s\ttask-%d\n", pid, pid - pid % 4,
				(i * 7919) % 100000 + 1, site * 64, sym, pid % 1000
		}
	}' >"$1"
}

gen2() {	# gen2 FILE
	awk -v n="$N" 'BEGIN {
		split("sleep yield preempt cond_resched", kinds, " ")
		printf "sched_points version 2\nenabled 1\nmode caller\ntime 1\nkinds 1\n"
		printf "cpus 2\ncapacity 1048576\nused %d\nentries %d\ndropped 0\n", n, n
		printf "pid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\taddress\tsymbol\tcomm\n"
		for (i = 0; i < n; i++) {
			pid = 1000 + int(i / 50); site = int((i % 50) / 2)
			k = kinds[(i % 2) + 1 + 2 * (site % 2)]
			if (site < 20)
				sym = sprintf("kfunc_%d+0x%x/0x%x", site, 16 + site * 4, 512)
			else
				sym = sprintf("modfunc_%d+0x%x/0x100 [mod%d]", site, site, site % 3)
			c = (i * 7919) % 100000 + 1
			t = (k == "sleep" || k == "yield") ? c * ((i * 31) % 100000 + 1000) : 0
			printf "%d\t%d\t%s\t%d\t%d\t%d\tffffffff81%06x\t%s\ttask-%d\n", pid,
				pid - pid % 4, k, c, t, t ? int(t / c) * 3 : 0, site * 64, sym, pid % 1000
		}
	}' >"$1"
}

[ -s "$D/distinct.txt" ] || gen "$D/distinct.txt" "$N"
[ -s "$D/repeated.txt" ] || gen "$D/repeated.txt" 1000
[ -s "$D/v2.txt" ] || gen2 "$D/v2.txt"
ls -l "$D"/distinct.txt "$D"/repeated.txt "$D"/v2.txt

run() {	# run LABEL ARGS...
	label=$1
	shift
	cat "$@" >/dev/null 2>&1 || true	# warm the page cache
	/usr/bin/time -v "$BIN" "$@" >/dev/null 2>"$D/time.txt"
	printf '%-34s %8s s  %8s KiB max RSS\n' "$label" \
		"$(sed -n 's/.*Elapsed (wall clock) time.*: //p' "$D/time.txt" | awk -F: '{ print $NF + 60 * $(NF - 1) }')" \
		"$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$D/time.txt")"
}

echo
echo "$N lines, $(nproc) CPUs, $(uname -m), binary $BIN"
for f in distinct repeated; do
	run "$f: sites" -f "$D/$f.txt" sites
	run "$f: tasks" -f "$D/$f.txt" tasks -n 20
	run "$f: sites -g module" -f "$D/$f.txt" sites -g module
	run "$f: matrix -n 50 (csv)" -f "$D/$f.txt" -F csv matrix -n 50
	run "$f: json tasks (all rows)" -f "$D/$f.txt" -F json tasks
done
run "v2: sites" -f "$D/v2.txt" sites
run "v2: tasks" -f "$D/v2.txt" tasks -n 20
run "v2: -T sites -g function" -f "$D/v2.txt" -T sites -g function
run "v2: kinds" -f "$D/v2.txt" kinds
run "v2: -T matrix -n 50 (csv)" -f "$D/v2.txt" -T -F csv matrix -n 50
run "v2: json tasks (all rows)" -f "$D/v2.txt" -F json tasks
echo
echo "full /usr/bin/time -v of 'sites' on distinct.txt:"
/usr/bin/time -v "$BIN" -f "$D/distinct.txt" sites >/dev/null 2>"$D/time.txt"
grep -E 'Elapsed|Maximum resident|User time|System time' "$D/time.txt"
