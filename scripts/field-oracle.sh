#!/usr/bin/env bash
# Compare a field run's counts with its oracle (issue 31, item 4), as the
# selftest counts_equal_kprobe_hist does: in DIR (a field guest's out/,
# scripts/field-run.sh), sched_points-caller.txt (/proc/sched_points in
# caller mode) against oracle-hist.txt (the hist of a kprobe on
# schedule() keyed by pid and caller, on the same run), pair by pair
# (pid, call site), for every task of the application's window
# (window-caller.txt: created after both were on, exited before they
# were read; tasks alive at the end are left out and counted). The
# table's count of a pair is summed over the kinds a schedule() call has
# (sleep, disk_sleep, idle, yield; not preempt or cond_resched, which do
# not pass through schedule()). Fails on any difference, on a pair that
# only one side has, on drops or folds on either side (the counts would
# be a lower bound), and on an empty window. Prints TAP.
# --plant: drop the oracle's largest pair of the window first, a planted
# difference that must fail.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,16s/^# \{0,1\}//p' "$0"
	echo "usage: $0 [--plant] DIR"
	exit 0
fi
source "$(dirname "$0")/env.sh"
plant=0
if [ "${1:-}" = --plant ]; then
	plant=1
	shift
fi
[ $# = 1 ] || die "one directory (see --help)"
dir=$1
for f in sched_points-caller.txt oracle-hist.txt window-caller.txt; do
	[ -f "$dir/$f" ] || die "no $dir/$f"
done
label=$(basename "$(dirname "$(dirname "$(cd "$dir" && pwd)")")")

awk -v label="$label" -v plant="$plant" -F'\t' '
function fail(msg) { print "not ok " ++n " - " label ": " msg; bad = 1 }
function pass(msg) { print "ok " ++n " - " label ": " msg }
FILENAME ~ /window/ {
	split($0, w, " ")
	if (w[1] == "first") first = w[2] + 0
	else if (w[1] == "last") last = w[2] + 0
	else if (w[1] == "alive") alive[w[2] + 0] = 1
	next
}
FILENAME ~ /oracle-hist/ {
	if ($0 ~ /^Dropped:/) { hdropped = $0; sub(/^Dropped: */, "", hdropped) }
	if ($0 !~ /common_pid:/) next
	line = $0
	pid = line; sub(/.*common_pid: */, "", pid); sub(/[^0-9].*/, "", pid); pid += 0
	sym = line; sub(/.*caller: */, "", sym); sub(/^\[[0-9a-f]*\] */, "", sym); sub(/ *}.*/, "", sym)
	cnt = line; sub(/.*hitcount: */, "", cnt); cnt += 0
	if (!(pid > first && pid <= last) || (pid in alive)) { hout++; next }
	k = pid SUBSEP sym
	hist[k] += cnt
	next
}
# /proc/sched_points: the summary, the column header, the data lines.
!header {
	if ($0 ~ /^pid\ttgid\tkind\t/) { header = 1; next }
	split($0, s, " ")
	if (s[1] == "dropped") pdropped = s[2]
	if (s[1] == "folded") pfolded = s[2]
	if (s[1] == "mode") pmode = s[2]
	next
}
{
	pid = $1 + 0; kind = $3; cnt = $4 + 0; sym = $15
	if (kind != "sleep" && kind != "disk_sleep" && kind != "idle" && kind != "yield") { other[kind] += cnt; next }
	if (!(pid > first && pid <= last) || (pid in alive)) { pout++; next }
	k = pid SUBSEP sym
	ours[k] += cnt
}
END {
	if (plant) {
		for (k in hist) if (hist[k] > most) { most = hist[k]; mk = k }
		if (mk != "") { split(mk, p, SUBSEP); print "# planted: the oracle'"'"'s pair pid " p[1] " at " p[2] " (" most ") dropped"; delete hist[mk] }
	}
	if (pmode != "caller") fail("the table is in mode " pmode ", not caller")
	if (pdropped + 0 != 0) fail("/proc/sched_points dropped " pdropped " hits")
	if (pfolded + 0 != 0) fail("/proc/sched_points folded " pfolded " entries of exited tasks (raise field.entries=)")
	if (hdropped + 0 != 0) fail("the hist dropped " hdropped " hits")
	nalive = 0; for (a in alive) if (a + 0 > first && a + 0 <= last) nalive++
	for (k in hist) {
		split(k, p, SUBSEP); tasks[p[1]] = 1; calls += hist[k]; pairs++
		if (!(k in ours)) { diff++; if (diff <= 20) print "# pid " p[1] " at " p[2] ": kprobe " hist[k] ", /proc none"; continue }
		if (ours[k] != hist[k]) { diff++; if (diff <= 20) print "# pid " p[1] " at " p[2] ": kprobe " hist[k] ", /proc " ours[k] }
	}
	for (k in ours) if (!(k in hist)) {
		split(k, p, SUBSEP); diff++
		if (diff <= 20) print "# pid " p[1] " at " p[2] ": /proc " ours[k] ", not in the kprobe hist"
	}
	nt = 0; for (t in tasks) nt++
	for (kd in other) print "# /proc " kd " (not schedule()): " other[kd] " calls, not compared"
	print "# window: pids " first + 1 " to " last ", " nalive " of them alive at the end and left out; outside it: " hout + 0 " hist pairs, " pout + 0 " /proc lines"
	if (pairs == 0) fail("no (pid, call site) pair of the window in the kprobe hist")
	else if (diff) fail(diff " of " pairs " (pid, call site) pairs differ from the kprobe+hist oracle")
	else pass(pairs " (pid, call site) pairs of " nt " tasks, " calls " schedule() calls: /proc/sched_points equals the kprobe+hist oracle")
	print "1.." n
	exit bad
}' "$dir/window-caller.txt" "$dir/oracle-hist.txt" "$dir/sched_points-caller.txt"
