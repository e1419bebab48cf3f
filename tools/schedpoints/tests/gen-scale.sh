#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/gen-scale.sh LINES [LATER [HIST]] > FILE
#
# A capture of the shape issue 16 was measured on: LINES data lines (default
# 1,000,000) over LINES / 20 tasks (50,000 for a million) and 3,000 call
# sites, each task hitting 20 distinct (site, kind) pairs of 4 kinds, so
# every line is a distinct key and the task x call-site matrix is 50,000 x
# 12,000 (sites x kinds) with 1,000,000 non-empty cells.  A tenth of the
# sites are in modules; a few task names hold bytes that need escaping;
# off-CPU times span ns to seconds; the histogram switch is off (hist '-').
# LATER=1 writes the same table a while later (every count and time
# higher), for diff.  HIST=1 turns the histogram switch on: every line that
# carries time (sleep, yield: half of them) has the buckets of its calls
# (three quarters in the bucket of its mean, the rest in the next), the
# others '-' as preempt and cond_resched lines have in the kernel; a later
# table only adds calls, to the bucket of the mean.
set -eu
N=${1:-1000000}
L=${2:-0}
H=${3:-0}
awk -v n="$N" -v later="$L" -v hist="$H" '
function bucket(ns,    kk) {	# kk: a local
	kk = 9
	while (kk < 34 && ns >= 2 ^ (kk + 1))
		kk++
	return kk
}
BEGIN {
	split("sleep yield preempt cond_resched", kinds, " ")
	printf "sched_points version 1\nenabled 1\nmode caller\ntime 1\nkinds 1\nhist %d\n", hist
	printf "cpus 2\ncapacity 4194304\nused %d\nentries %d\ndropped 0\n", n, n
	printf "pid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\thist\taddress\tsymbol\tcomm\n"
	for (i = 0; i < n; i++) {
		t = int(i / 20); j = i % 20
		site = (t * 7 + j * 151) % 3000
		k = kinds[(t + j) % 4 + 1]
		if (site % 10 == 9)
			sym = sprintf("mod_func_%d+0x%x/0x200 [mod%d]", site, 16 + site % 64, site % 7)
		else
			sym = sprintf("kernel_func_%d+0x%x/0x400", site, 16 + site % 128)
		pid = 1000 + t
		c = (i * 7919) % 100000 + 1 + later * (i % 5)
		comm = (t % 997 == 5) ? "odd\\040name" : sprintf("task-%d", t % 5000)
		c0 = (i * 7919) % 100000 + 1
		mean = (i * 31) % 1000000 + 1000
		ns = (k == "sleep" || k == "yield") ? c * mean : 0
		if (later && ns)
			ns += 1000 * (i % 7)
		h = "-"
		if (hist && ns) {
			b = bucket(mean)
			up = (b < 34) ? int(c0 / 4) : 0
			if (up)
				h = sprintf("%d:%d,%d:%d", b, c - up, b + 1, up)
			else
				h = sprintf("%d:%d", b, c)
		}
		printf "%d\t%d\t%s\t%d\t%d\t%d\t%s\tffffffff81%06x\t%s\t%s\n", pid,
			pid - pid % 8, k, c, ns, ns ? int(ns / c) * 2 : 0, h, site * 64, sym, comm
	}
}'
