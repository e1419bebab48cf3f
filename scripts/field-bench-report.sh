#!/usr/bin/env bash
# Turn build/field-bench/results.csv (scripts/field-bench.sh) into the
# macro bench's report: for each application, guest instructions per
# unit of work on vanilla, the series off, on and on with time and
# histograms, and bpftrace on kprobe:schedule by tid and caller on
# vanilla: busy instructions (elapsed guest ns less the CPUs' idle and
# iowait time: instructions) per unit, each configuration against
# vanilla, elapsed guest ns per unit, context switches per unit and the
# busy instructions added per context switch; each figure the median of
# the runs with half their range (±), and for a difference the two
# half ranges added. Markdown on stdout (results.md, for
# Documentation/performance.md); --text: the summary table alone, as
# plain text for Documentation/cover-letter.txt.
set -euo pipefail
if [ "${1:-}" = --help ] || [ $# -lt 1 ]; then
	sed -n '2,13s/^# \{0,1\}//p' "$0"
	echo "usage: $0 [--text] RESULTS.CSV [SECONDS]    report on stdout"
	exit 0
fi
text=0
if [ "$1" = --text ]; then
	text=1
	shift
fi
[ $# -ge 1 ] || { echo "usage: $0 [--text] RESULTS.CSV [SECONDS]" >&2; exit 2; }
[ -r "$1" ] || { echo "field-bench-report.sh: cannot read $1" >&2; exit 1; }
head -1 "$1" | grep -qx 'app,config,metric,rep,value' ||
	{ echo "field-bench-report.sh: $1 is not field-bench.sh's results.csv (app,config,metric,rep,value)" >&2; exit 1; }
awk -F, -v secs="${2:-?}" -v text="$text" '
NR == 1 { next }
$2 == "info" { info[$3] = $5; next }
{
	k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
	val[k] = $5
	if (!(($1 SUBSEP $2 SUBSEP $4) in seenrep)) {
		seenrep[$1, $2, $4] = 1
		nrep[$1, $2]++
		rep[$1, $2, nrep[$1, $2]] = $4
	}
	if (!($1 in seenapp)) { seenapp[$1] = 1; apps[++napps] = $1 }
}
function has(a, c) { return nrep[a, c] > 0 }
# The per-unit figure of metric m in each run of (a, c): x[1..n].
function perunit(a, c, m, x,   i, r, u, n) {
	n = 0
	for (i = 1; i <= nrep[a, c]; i++) {
		r = rep[a, c, i]
		u = val[a, c, "units", r] + 0
		if (u > 0 && ((a SUBSEP c SUBSEP m SUBSEP r) in val)) x[++n] = val[a, c, m, r] / u
	}
	return n
}
function sortn(x, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && x[j - 1] > x[j]; j--) { t = x[j]; x[j] = x[j - 1]; x[j - 1] = t }
}
function med(a, c, m,   x, n) {
	n = perunit(a, c, m, x)
	if (!n) return ""
	sortn(x, n)
	return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
}
function half(a, c, m,   x, n) {
	n = perunit(a, c, m, x)
	if (!n) return 0
	sortn(x, n)
	return (x[n] - x[1]) / 2
}
# The median of a metric per run (not per unit).
function medrun(a, c, m,   x, n, i, r) {
	n = 0
	for (i = 1; i <= nrep[a, c]; i++) {
		r = rep[a, c, i]
		if ((a SUBSEP c SUBSEP m SUBSEP r) in val) x[++n] = val[a, c, m, r] + 0
	}
	if (!n) return ""
	sortn(x, n)
	return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
}
# A figure with its half range: whole from 100 on, else with a decimal.
function fig(v, h) {
	if (v == "") return "n/a"
	if (v >= 100) return sprintf("%.0f (±%.0f)", v, h)
	return sprintf("%.1f (±%.1f)", v, h)
}
# c against vanilla on metric m: percent, and the two half ranges added.
function vs(a, c, m,   b, v) {
	if (!has(a, c) || !has(a, "vanilla")) return "n/a"
	b = med(a, "vanilla", m); v = med(a, c, m)
	if (b == "" || v == "" || b == 0) return "n/a"
	return sprintf("%+.2f%% (±%.2f)", 100 * (v - b) / b, 100 * (half(a, c, m) + half(a, "vanilla", m)) / b)
}
function added(a, c,   b, v, s) {
	if (c == "vanilla" || !has(a, "vanilla")) return "-"
	b = med(a, "vanilla", "busy_ns"); v = med(a, c, "busy_ns"); s = med(a, c, "ctxt")
	if (b == "" || v == "" || s == "" || s == 0) return "n/a"
	return sprintf("%+.0f (±%.0f)", (v - b) / s, (half(a, c, "busy_ns") + half(a, "vanilla", "busy_ns")) / s)
}
BEGIN {
	ncfg = split("vanilla off on time_hist bpftrace", cfgs, " ")
	label["vanilla"] = "vanilla"
	label["off"] = "series, accounting off"
	label["on"] = "series, on"
	label["time_hist"] = "series, on with time and histograms"
	label["bpftrace"] = "bpftrace kprobe:schedule by tid and caller, on vanilla"
	short["vanilla"] = "vanilla"; short["off"] = "off"; short["on"] = "on"
	short["time_hist"] = "on+time+hist"; short["bpftrace"] = "bpftrace"
	unit["pgbench"] = "transaction"; unit["make"] = "compiled file"; unit["fio"] = "I/O"
	unit["nginx"] = "request"; unit["stressng"] = "stressor op"
}
END {
	if (!napps) { print "field-bench-report.sh: no results" > "/dev/stderr"; exit 1 }
	reps = 0
	for (i = 1; i <= napps; i++) for (j = 1; j <= ncfg; j++) if (nrep[apps[i], cfgs[j]] > reps) reps = nrep[apps[i], cfgs[j]]
	if (text) {
		printf "%-10s %-14s %13s %10s %10s %14s %10s\n", "app", "unit", "vanilla", "off", "on", "on+time+hist", "bpftrace"
		for (i = 1; i <= napps; i++) {
			a = apps[i]
			line = sprintf("%-10s %-14s %13s", a, unit[a], med(a, "vanilla", "busy_ns") == "" ? "n/a" : sprintf("%.0f", med(a, "vanilla", "busy_ns")))
			for (j = 2; j <= ncfg; j++) {
				c = cfgs[j]; s = vs(a, c, "busy_ns"); sub(/ \(.*/, "", s)
				line = line sprintf(" %" (c == "time_hist" ? 14 : 10) "s", s)
			}
			print line
		}
		printf "(busy guest instructions per unit on vanilla, and each configuration against it;\n"
		printf " median of %d runs, make field-bench, QEMU TCG -icount shift=0,sleep=off, %s vCPU)\n", reps, info["smp"]
		exit 0
	}
	printf "Made by `make field-bench` (scripts/field-bench.sh) on %s; kernels `%s` (vanilla) and `%s` (series), ", info["date"], info["kernel_vanilla"], info["kernel_series"]
	printf "QEMU %s TCG with `-icount shift=0,sleep=off`, %s vCPU, memory %s, bpftrace %s; it took %s s.\n", info["qemu"], info["smp"], info["mem"], info["bpftrace"], secs
	printf "Each figure is the median of %d runs per configuration (± half the range), per unit of work; a difference is given with the two half ranges added.\n\n", reps
	printf "Busy instructions = elapsed guest ns less the idle and iowait time of tick-sched (`/proc/timer_list`, per CPU, read on that CPU before and after the work), summed over the CPUs: with one vCPU, the guest instructions executed outside the idle loop, whatever the host did with the I/O meanwhile.\n\n"
	print "### Busy guest instructions per unit of work\n"
	print "| application (unit) | work per run | vanilla | series off | series on | series on, time + histograms | bpftrace on vanilla |"
	print "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
	for (i = 1; i <= napps; i++) {
		a = apps[i]
		line = sprintf("| %s (%s) | %s | %s", a, unit[a], info["size_" a], fig(med(a, "vanilla", "busy_ns"), half(a, "vanilla", "busy_ns")))
		for (j = 2; j <= ncfg; j++) line = line " | " vs(apps[i], cfgs[j], "busy_ns")
		print line " |"
	}
	print "\n### Every configuration\n"
	print "| application | configuration | units per run | busy instructions per unit | vs vanilla | elapsed guest ns per unit | vs vanilla | context switches per unit | busy instructions added per context switch | table entries / dropped / folded, or bpftrace keys |"
	print "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
	for (i = 1; i <= napps; i++) {
		a = apps[i]
		for (j = 1; j <= ncfg; j++) {
			c = cfgs[j]
			if (!has(a, c)) continue
			extra = "-"
			if (medrun(a, c, "entries") != "")
				extra = sprintf("%.0f / %.0f / %.0f", medrun(a, c, "entries"), medrun(a, c, "dropped"), medrun(a, c, "folded"))
			else if (medrun(a, c, "keys") != "")
				extra = sprintf("%.0f keys", medrun(a, c, "keys"))
			printf "| %s | %s | %.0f | %s | %s | %s | %s | %s | %s | %s |\n", a, label[c], medrun(a, c, "units"),
				fig(med(a, c, "busy_ns"), half(a, c, "busy_ns")), c == "vanilla" ? "-" : vs(a, c, "busy_ns"),
				fig(med(a, c, "elapsed_ns"), half(a, c, "elapsed_ns")), c == "vanilla" ? "-" : vs(a, c, "elapsed_ns"),
				fig(med(a, c, "ctxt"), half(a, c, "ctxt")), added(a, c), extra
		}
	}
	print "\n### Guest boots (s)\n"
	print "| application | vanilla kernel | series kernel |"
	print "| --- | ---: | ---: |"
	for (i = 1; i <= napps; i++)
		printf "| %s | %s | %s |\n", apps[i], val[apps[i], "host", "seconds_vanilla", 0], val[apps[i], "host", "seconds_series", 0]
}' "$1"
