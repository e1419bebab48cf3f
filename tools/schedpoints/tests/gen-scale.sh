#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/gen-scale.sh LINES [LATER] > FILE
#
# A capture of the shape issue 16 was measured on: LINES data lines (default
# 1,000,000) over LINES / 20 tasks (50,000 for a million) and 3,000 call
# sites, each task hitting 20 distinct (site, kind) pairs of 4 kinds, so
# every line is a distinct key and the task x call-site matrix is 50,000 x
# 12,000 (sites x kinds) with 1,000,000 non-empty cells.  A tenth of the
# sites are in modules; a few task names hold bytes that need escaping;
# off-CPU times span ns to seconds; the histogram switch is off (hist '-').
# LATER=1 writes the same table a while later (every count and time
# higher), for diff.
set -eu
N=${1:-1000000}
L=${2:-0}
awk -v n="$N" -v later="$L" 'BEGIN {
	split("sleep yield preempt cond_resched", kinds, " ")
	printf "sched_points version 1\nenabled 1\nmode caller\ntime 1\nkinds 1\nhist 0\n"
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
		ns = (k == "sleep" || k == "yield") ? c * ((i * 31) % 1000000 + 1000) : 0
		if (later && ns)
			ns += 1000 * (i % 7)
		printf "%d\t%d\t%s\t%d\t%d\t%d\t-\tffffffff81%06x\t%s\t%s\n", pid,
			pid - pid % 8, k, c, ns, ns ? int(ns / c) * 2 : 0, site * 64, sym, comm
	}
}'
