#!/usr/bin/env bash
# Turn build/bench/results.csv (scripts/bench.sh) into the Markdown report:
# per configuration the median guest time per round trip and the added cost
# per schedule() call against vanilla, the goals, reading, a full table,
# memory and the 2-vCPU on/off ratios.
set -euo pipefail
if [ "${1:-}" = --help ] || [ $# -lt 1 ]; then
	echo "usage: $0 RESULTS.CSV [SECONDS]    Markdown report on stdout"
	exit 0
fi
awk -F, -v secs="${2:-?}" -v date="$(date -u '+%Y-%m-%d %H:%M UTC')" '
NR == 1 { next }
{
	k = $1 SUBSEP $2 SUBSEP $3
	n[k]++; v[k, n[k]] = $5
	if (!(k in lo) || $5 + 0 < lo[k]) lo[k] = $5 + 0
	if (!(k in hi) || $5 + 0 > hi[k]) hi[k] = $5 + 0
	if ($1 == "series" && $3 ~ /_ns_per_round$/ && !seen[$2]++) cfgs[++ncfg] = $2
	if ($3 == "skipped" || $3 == "unknown") skipped[$1 " " $2] = $5
}
function has(p, c, m) { return (p SUBSEP c SUBSEP m) in n }
function med(p, c, m,   k, i, j, t, a, cnt) {
	k = p SUBSEP c SUBSEP m
	cnt = n[k]
	for (i = 1; i <= cnt; i++) a[i] = v[k, i] + 0
	for (i = 2; i <= cnt; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return cnt % 2 ? a[(cnt + 1) / 2] : (a[cnt / 2] + a[cnt / 2 + 1]) / 2
}
function first(p, c, m) { return v[p SUBSEP c SUBSEP m, 1] }
function spread(p, c, m,   k) { k = p SUBSEP c SUBSEP m; return hi[k] - lo[k] }
# One table row: configuration of part p, both workloads.
function row(p, c, label,   w, s, b, x, calls) {
	s = "| " label
	calls = ""
	for (w = 1; w <= 2; w++) {
		x = wl[w] "_ns_per_round"
		if (!has(p, c, x)) { s = s " | n/a | | "; continue }
		b = med("vanilla", "vanilla", x)
		if (c == "vanilla") { s = s sprintf(" | %.1f (±%.1f) | - | -", med(p, c, x), spread(p, c, x) / 2); continue }
		s = s sprintf(" | %.1f (±%.1f) | %+.1f | %+.2f%%", med(p, c, x), spread(p, c, x) / 2,
			(med(p, c, x) - b) / 2, 100 * (med(p, c, x) - b) / b)
		if (has(p, c, wl[w] "_calls_per_round"))
			calls = calls (calls == "" ? "" : " / ") sprintf("%.2f", first(p, c, wl[w] "_calls_per_round"))
	}
	print s " | " (calls == "" ? "-" : calls) " |"
}
function goal(text, ok, fig) { printf "| %s | %s | %s |\n", text, fig, ok ? "met" : "**missed**" }
END {
	wl[1] = "pipe"; wl[2] = "poll"
	kern = first("series", "all", "kernel")
	print "# sched-points benchmark"
	print ""
	printf "Made by `make bench` (scripts/bench.sh) on %s, Linux %s, QEMU TCG, %s vCPUs; `make bench` took %s s end to end.\n",
		date, kern, first("series", "all", "cpus"), secs
	printf "Each ping-pong figure is the median of %d runs of %d round trips (± half the range).\n",
		n["vanilla" SUBSEP "vanilla" SUBSEP "pipe_ns_per_round"], first("vanilla", "all", "rounds")
	print ""
	print "## Cost per schedule() call, QEMU -icount shift=0 (1 ns = 1 guest instruction)"
	print ""
	print "| configuration | pipe: ns per round trip | added per schedule() | vs vanilla | poll: ns per round trip | added per schedule() | vs vanilla | schedule() calls per round trip, counted (pipe / poll) |"
	print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	row("vanilla", "vanilla", "vanilla (baseline)")
	for (i = 1; i <= ncfg; i++) {
		c = cfgs[i]
		label = c == "off" ? "series, accounting off" : c == "on" ? "series, on (enable=1)" : \
			c == "full" ? "series, on, full table (entries=16)" : "series, on, " c
		row("series", c, label)
	}
	row("vanilla", "kprobe_hist", "vanilla + kprobe on schedule + hist trigger")
	row("vanilla", "kprobe_hist_traced", "vanilla + kprobe + hist trigger, event also enabled (traced)")
	if (has("vanilla", "bpftrace", "pipe_ns_per_round")) row("vanilla", "bpftrace", "vanilla + bpftrace kprobe:schedule count()")
	for (s in skipped) printf "\nNot measured: %s (%s).\n", s, skipped[s]
	print ""

	b = med("vanilla", "vanilla", "pipe_ns_per_round")
	off = med("series", "off", "pipe_ns_per_round")
	on = med("series", "on", "pipe_ns_per_round")
	kp = med("vanilla", "kprobe_hist", "pipe_ns_per_round")
	print "## Goals (pipe ping-pong)"
	print ""
	print "| goal | figure | verdict |"
	print "| --- | ---: | --- |"
	goal("off: at most 0.5% over vanilla", 100 * (off - b) / b <= 0.5, sprintf("%+.2f%%", 100 * (off - b) / b))
	goal("on: at most 40 guest instructions per schedule() call", (on - b) / 2 <= 40, sprintf("%.1f", (on - b) / 2))
	if (on > b) goal("on: at least 30x cheaper than kprobe+hist", (kp - b) / (on - b) >= 30, sprintf("%.1fx", (kp - b) / (on - b)))
	goal("on: at most 1% on the pipe ping-pong", 100 * (on - b) / b <= 1, sprintf("%+.2f%%", 100 * (on - b) / b))
	if (has("series", "time=1", "pipe_ns_per_round")) {
		t1 = med("series", "time=1", "pipe_ns_per_round")
		goal("time=1: at most 70 guest instructions per schedule() call", (t1 - b) / 2 <= 70, sprintf("%.1f", (t1 - b) / 2))
	}
	if (has("series", "mode=effective", "poll_ns_per_round")) {
		pb = med("vanilla", "vanilla", "poll_ns_per_round")
		ef = med("series", "mode=effective", "poll_ns_per_round")
		goal("effective mode through a __sched wrapper (poll): at most 400 per call", (ef - pb) / 2 <= 400, sprintf("%.1f", (ef - pb) / 2))
	}
	de = first("series", "all", "default_entries")
	if (has("series", "memory", "table_bytes_per_cpu_first_enable")) {
		mem = first("series", "memory", "table_bytes_per_cpu_first_enable")
		goal("memory: at most 256 KiB per CPU at the default entries (debugfs stats)", mem <= 262144, sprintf("%d bytes at %d", mem, de))
	}
	if (has("series", "memory", "table_slots_before_first_enable")) {
		nb = first("series", "memory", "table_slots_before_first_enable")
		goal("memory: no table before accounting is first turned on", nb == 0, sprintf("%d slots", nb))
	}
	print ""

	if (has("series", "full", "pipe_ns_per_round")) {
		full = med("series", "full", "pipe_ns_per_round")
		print "## A full table"
		print ""
		printf "entries=16, filled with dead tasks'"'"' keys: %.2f dropped hits per round trip (2 expected); a dropped hit costs %.1f guest instructions, %+.1f over a counted hit (it probes all 16 slots).\n",
			first("series", "full", "dropped_per_round"), (full - b) / 2, (full - on) / 2
		print ""
	}
	print "## Reading /proc/sched_points (open, read all, close; accounting off while reading)"
	print ""
	print "| entries (merged, over 2 CPUs) | guest ns per read | ns per entry | bytes | dropped |"
	print "| ---: | ---: | ---: | ---: | ---: |"
	for (w = 1000; w <= 100000; w *= 10) {
		c = "read" w
		if (!has("series", c, "ns_per_read")) continue
		printf "| %d | %.0f | %.0f | %d | %d |\n", first("series", c, "entries"), med("series", c, "ns_per_read"),
			med("series", c, "ns_per_entry"), first("series", c, "bytes"), first("series", c, "dropped")
	}
	print ""
	print "## Memory per CPU"
	print ""
	print "MemFree before and after resizing every CPU'"'"'s table (tables up to 4 MiB are kmalloc'"'"'ed, whole power-of-two blocks of pages; larger ones vmalloc'"'"'ed)."
	print ""
	if (has("series", "memory", "table_slots_before_first_enable"))
		printf "Before accounting was first turned on: %d table slots allocated (debugfs stats, all CPUs); the first enable then allocated %d bytes per CPU for the table (debugfs stats) at the default %d entries, and MemFree fell by %d bytes per CPU (which other allocations of the moment blur).\n\n",
			first("series", "memory", "table_slots_before_first_enable"),
			first("series", "memory", "table_bytes_per_cpu_first_enable"), first("series", "all", "default_entries"),
			first("series", "memory", "bytes_per_cpu_first_enable")
	print "| entries per CPU | bytes per CPU (MemFree) | bytes per entry |"
	print "| ---: | ---: | ---: |"
	for (e = 16; e <= 1048576; e *= 2) {
		x = "bytes_per_cpu_at_" e
		if (has("series", "memory", x))
			printf "| %d | %d | %.1f |\n", e, first("series", "memory", x), first("series", "memory", x) / e
	}
	for (e = 16; e <= 1048576; e *= 2)
		if (has("series", "memory", "vmalloc_bytes_per_entry_at_" e))
			printf "\nThe vmalloc'"'"'ed table of %d entries takes %d bytes per entry (/proc/vmallocinfo); kvmalloc() rounds huge-vmap tables to 2 MiB, so this is an upper bound of the entry size (64 bytes).\n",
				e, first("series", "memory", "vmalloc_bytes_per_entry_at_" e)
	print ""
	print "## 2 vCPUs, real time (no icount): on/off ratio, paired run by run"
	print ""
	printf "%d runs of %d round trips each, off-on then on-off in turn, on a host with load average %s (1 min) at the end: real time on a shared host is noisy, hence the pairing.\n\n",
		n["smp" SUBSEP "smp_on" SUBSEP "1pair_cpu0_ns_per_round"], first("smp", "all", "smprounds"), first("smp", "host", "loadavg")
	print "| workload | ratio on/off per run | median |"
	print "| --- | --- | ---: |"
	split("1pair_cpu0 2pairs_cpu0 2pairs_cpu1", ws, " ")
	for (i = 1; i <= 3; i++) {
		x = ws[i] "_ns_per_round"; kon = "smp" SUBSEP "smp_on" SUBSEP x; koff = "smp" SUBSEP "smp_off" SUBSEP x
		if (!(kon in n)) continue
		s = ""; delete r
		for (j = 1; j <= n[kon]; j++) { r[j] = v[kon, j] / v[koff, j]; s = s sprintf("%s%.3f", j > 1 ? " " : "", r[j]) }
		for (a = 2; a <= n[kon]; a++) for (c2 = a; c2 > 1 && r[c2 - 1] > r[c2]; c2--) { t = r[c2]; r[c2] = r[c2 - 1]; r[c2 - 1] = t }
		m = n[kon] % 2 ? r[(n[kon] + 1) / 2] : (r[n[kon] / 2] + r[n[kon] / 2 + 1]) / 2
		printf "| %s | %s | %.3f |\n", ws[i] == "1pair_cpu0" ? "one pair, CPU 0 alone" : "a pair on each CPU, CPU " substr(ws[i], 11), s, m
	}
}' "$1"
