#!/usr/bin/env bash
# Turn build/bench/results.csv (scripts/bench.sh) into the Markdown report:
# per configuration the median guest time per round trip (ping-pong) and
# per run (many tasks) and the added cost per schedule() call against its
# kernel's baseline (the series against vanilla, the peers against the
# peer kernel untraced), each peer's ratio to the series' on cost, the
# goals (against the cheapest peer), reading, a full table, memory, the
# 2-vCPU on/off ratios and how long each step took.
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
# A figure every guest reports (part "all"), from the first that has it.
function all(m) { return has("series", "all", m) ? first("series", "all", m) : has("vanilla", "all", m) ? first("vanilla", "all", m) : first("peer", "all", m) }
function spread(p, c, m,   k) { k = p SUBSEP c SUBSEP m; return hi[k] - lo[k] }
# The baseline of a configuration: the peers run on the peer kernel and
# are compared with it untraced; all else with vanilla.
function bp(p, c) { return p == "peer" && c != "peer" ? "peer" : "vanilla" }
# Added guest instructions per schedule() call on workload w (pipe, poll)
# of configuration c of part p: two calls a round trip.
function added(p, c, w,   x) {
	x = w "_ns_per_round"
	return (med(p, c, x) - med(bp(p, c), bp(p, c), x)) / 2
}
# The same on the many-task workload: the added time per run over the
# schedule() calls of a run, counted on that kernel (ref[part]).
# Its uncertainty: half the ranges of it and its baseline, per call.
function hbunc(p, c,   x) {
	x = "hb_ns_per_run"
	if (!ref[p]) return 0
	return (spread(p, c, x) + spread(bp(p, c), bp(p, c), x)) / 2 / ref[p]
}
# peer / series as a ratio; when the cost of the series is within its
# uncertainty u, a lower bound: peer / (series + u).
function ratio(peer, ser, u) {
	if (u > 0 && ser <= u) return sprintf("≥ %.0fx", peer / ((ser > 0 ? ser : 0) + u))
	return ser > 0 ? sprintf("%.1fx", peer / ser) : "-"
}
function hbadded(p, c,   x) {
	x = "hb_ns_per_run"
	if (!ref[p]) return 0
	return (med(p, c, x) - med(bp(p, c), bp(p, c), x)) / ref[p]
}
# One table row: configuration of part p, both workloads; for a peer
# also the ratio of its added cost to that of the series on.
function row(p, c, label,   w, s, b, x, calls) {
	s = "| " label
	calls = ""
	for (w = 1; w <= 2; w++) {
		x = wl[w] "_ns_per_round"
		if (!has(p, c, x)) { s = s " | n/a | | "; continue }
		b = med(bp(p, c), bp(p, c), x)
		if (c == "vanilla") { s = s sprintf(" | %.1f (±%.1f) | - | -", med(p, c, x), spread(p, c, x) / 2); continue }
		s = s sprintf(" | %.1f (±%.1f) | %+.1f | %+.2f%%", med(p, c, x), spread(p, c, x) / 2,
			(med(p, c, x) - b) / 2, 100 * (med(p, c, x) - b) / b)
		if (has(p, c, wl[w] "_calls_per_round"))
			calls = calls (calls == "" ? "" : " / ") sprintf("%.2f", first(p, c, wl[w] "_calls_per_round"))
	}
	s = s " | " (calls == "" ? "-" : calls)
	s = s " | " (p == "peer" && c != "peer" && has(p, c, "pipe_ns_per_round") && onp > 0 ? sprintf("%.1fx", added(p, c, "pipe") / onp) : "-")
	print s " |"
}
# One row of the many-task table.
function hbrow(p, c, label,   x, b, m, s) {
	x = "hb_ns_per_run"
	if (!has(p, c, x)) return
	m = med(p, c, x)
	s = sprintf("| %s | %.1f (±%.1f) | %.0f", label, m / 1e6, spread(p, c, x) / 2e6, med(p, c, "hb_switches_per_run"))
	s = s " | " (has(p, c, "hb_calls_per_run") ? sprintf("%.0f", first(p, c, "hb_calls_per_run")) : "-")
	if (c == bp(p, c)) { print s " | - | - | - | " (has(p, c, "hb_entries") ? first(p, c, "hb_entries") : "-") " |"; return }
	b = med(bp(p, c), bp(p, c), x)
	# The uncertainty: half the ranges of both, over the calls of a run.
	s = s (ref[p] ? sprintf(" | %+.1f (±%.0f)", hbadded(p, c), hbunc(p, c)) : " | -") sprintf(" | %+.2f%%", 100 * (m - b) / b)
	s = s " | " (p == "peer" && c != "peer" && ref["series"] ? ratio(hbadded(p, c), onh, hbunc("series", "on")) : "-")
	print s " | " (has(p, c, "hb_entries") ? first(p, c, "hb_entries") : "-") " |"
}
function goal(text, ok, fig) { printf "| %s | %s | %s |\n", text, fig, ok ? "met" : "**missed**" }
END {
	wl[1] = "pipe"; wl[2] = "poll"
	kern = first("series", "all", "kernel")
	if (kern == "") kern = first("peer", "all", "kernel")
	# The architecture of the guests (x86_64 in results from before it was recorded).
	arch = all("arch") == "" ? "x86_64" : all("arch")
	onp = has("series", "on", "pipe_ns_per_round") ? added("series", "on", "pipe") : 0
	# schedule() calls per many-task run, counted on each kernel: the
	# series on, and the kprobe+hist trigger on the peer kernel.
	ref["series"] = first("series", "on", "hb_calls_per_run") + 0
	ref["peer"] = first("peer", "kprobe_hist", "hb_calls_per_run") + 0
	if (!ref["peer"]) ref["peer"] = first("peer", "bpftrace_kprobe", "hb_calls_per_run") + 0
	onh = ref["series"] && has("series", "on", "hb_ns_per_run") ? hbadded("series", "on") : 0
	# The peers, and which of them answer the same question as the series
	# on (counts by task and call site).
	np = split("kprobe_hist kprobe_hist_traced bpftrace_kprobe bpftrace_kfunc bpftrace_kfunc_tid bpftrace_tp bpftrace_tp_time bpftrace_offwake", peers, " ")
	pl["kprobe_hist"] = "kprobe (ftrace) on schedule + hist trigger by pid and caller"
	pl["kprobe_hist_traced"] = "kprobe + hist trigger, event also enabled (traced)"
	pl["bpftrace_kprobe"] = "bpftrace kprobe:schedule, @[tid, caller] = count()"
	pl["bpftrace_kfunc"] = "bpftrace kfunc:schedule (fentry), @[tid, kstack(4)] = count()"
	pl["bpftrace_kfunc_tid"] = "bpftrace kfunc:schedule, @[tid] = count() (no caller: the floor)"
	pl["bpftrace_tp"] = "bpftrace tracepoint:sched:sched_switch, @[tid, kstack(3)] = count()"
	pl["bpftrace_tp_time"] = "bpftrace sched_switch with off-CPU time, @[tid, kstack(3)] = stats(ns)"
	pl["bpftrace_offwake"] = "bpftrace sched_waking + sched_switch (offwaketime), @[tid, kstack(3), waker kstack(8)] = stats(ns)"
	same["kprobe_hist"] = same["bpftrace_kprobe"] = same["bpftrace_kfunc"] = same["bpftrace_tp"] = 1
	cheap = ""
	for (i = 1; i <= np; i++)
		if (same[peers[i]] && has("peer", peers[i], "pipe_ns_per_round") &&
		    (cheap == "" || added("peer", peers[i], "pipe") < added("peer", cheap, "pipe")))
			cheap = peers[i]

	print "# sched-points benchmark"
	print ""
	printf "Made by `make bench` (scripts/bench.sh) on %s, Linux %s, %s, QEMU TCG, %s vCPUs; `make bench` took %s s end to end.\n",
		date, kern, arch, all("cpus") == "" ? 2 : all("cpus"), secs
	printf "Each ping-pong figure is the median of %d runs of %d round trips (± half the range).\n",
		n["vanilla" SUBSEP "vanilla" SUBSEP "pipe_ns_per_round"] ? n["vanilla" SUBSEP "vanilla" SUBSEP "pipe_ns_per_round"] : \
			n["series" SUBSEP "on" SUBSEP "pipe_ns_per_round"], all("rounds")
	print ""
	if (has("peer", "all", "kernel"))
		print "Three kernels from one tree: *series* (the patches), *vanilla* (the pristine tag, the same fragments without those of the series, `sched-points.config` and `sched-points-kunit.config`) and *peer* (vanilla plus `kernel-config/peer/distro-tracing.config`: function tracing with dynamic ftrace, kprobes on ftrace, BTF, as distributions configure them). The series is compared with vanilla; each peer with the peer kernel untraced."
	else
		print "Two kernels from one tree: *series* (the patches) and *vanilla* (the pristine tag, the same fragments without those of the series, `sched-points.config` and `sched-points-kunit.config`), the series compared with vanilla."
	kk = first("peer", "kprobe_hist", "kprobe_kind")
	if (kk != "")
		printf "\nThe kprobe on schedule() (debugfs `kprobes/list`): `[%s]`%s.\n", kk,
			kk == "FTRACE" ? ", ftrace-based" : " — **not ftrace-based**"
	print ""
	print "## Cost per schedule() call, QEMU -icount shift=0 (1 ns = 1 guest instruction)"
	print ""
	print "| configuration | pipe: ns per round trip | added per schedule() | vs baseline | poll: ns per round trip | added per schedule() | vs baseline | schedule() calls per round trip, counted (pipe / poll) | added cost / series on (pipe) |"
	print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	row("vanilla", "vanilla", "vanilla (baseline)")
	for (i = 1; i <= ncfg; i++) {
		c = cfgs[i]
		label = c == "off" ? "series, accounting off" : c == "on" ? "series, on (enable=1)" : \
			c == "full" ? "series, on, full table (entries=16)" : "series, on, " c
		row("series", c, label)
	}
	if (has("peer", "peer", "pipe_ns_per_round")) {
		row("peer", "peer", "peer kernel untraced (baseline of the peers)")
		for (i = 1; i <= np; i++)
			if (has("peer", peers[i], "pipe_ns_per_round")) row("peer", peers[i], "peer: " pl[peers[i]])
	}
	for (s in skipped) printf "\nNot measured: %s (%s).\n", s, skipped[s]
	print ""

	if (has("vanilla", "vanilla", "hb_ns_per_run") || has("peer", "peer", "hb_ns_per_run")) {
		print "## Many tasks (bench/hackbench.c), QEMU -icount shift=0"
		print ""
		printf "%s groups of 10 receivers and 10 sender slots over one-page pipes, half the groups pinned to each CPU, SCHED_BATCH, 1000-byte messages; a run makes %d tasks (%d of them short-lived senders) and %d messages; the median of %d runs after one untimed (± half the range), in millions of guest instructions. Added per schedule() call = added time per run / schedule() calls per run, counted on that kernel (%.0f by the series on, %.0f by the kprobe+hist trigger on the peer kernel); in brackets half the ranges of the configuration and its baseline over those calls: what the spread between runs leaves unresolved. Entries: what the table or map held at the end (%d runs).\n\n",
			all("hb_tasks_per_run") / 70, all("hb_tasks_per_run"), all("hb_tasks_per_run") * 5 / 7,
			all("hb_messages_per_run"), n["vanilla" SUBSEP "vanilla" SUBSEP "hb_ns_per_run"], ref["series"], ref["peer"], all("hb_runs")
		print "| configuration | M ns per run | context switches per run | schedule() calls per run, counted | added per schedule() | vs baseline | added cost / series on | entries |"
		print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
		hbrow("vanilla", "vanilla", "vanilla (baseline)")
		for (i = 1; i <= ncfg; i++) hbrow("series", cfgs[i], "series, " cfgs[i])
		hbrow("peer", "peer", "peer kernel untraced (baseline of the peers)")
		for (i = 1; i <= np; i++) hbrow("peer", peers[i], "peer: " pl[peers[i]])
		print ""
	}
	if (has("series", "on", "hb_dropped")) {
		print "The series'"'"' tables (debugfs `stats` after the runs, default size):"
		print ""
		print "| configuration | CPU | used | capacity | max probe | dropped (all CPUs) |"
		print "| --- | ---: | ---: | ---: | ---: | ---: |"
		for (i = 1; i <= ncfg; i++)
			for (cpu = 0; cpu < 64; cpu++)
				if (has("series", cfgs[i], "hb_used_cpu" cpu))
					printf "| %s | %d | %d | %d | %d | %d |\n", cfgs[i], cpu, first("series", cfgs[i], "hb_used_cpu" cpu),
						first("series", cfgs[i], "hb_capacity_cpu" cpu), first("series", cfgs[i], "hb_max_probe_cpu" cpu),
						first("series", cfgs[i], "hb_dropped")
		print ""
	}

	if (cheap != "" && onp > 0) {
		print "## The series against each peer"
		print ""
		print "The ratio of each peer'"'"'s added cost per schedule() call to the series'"'"' (on; for the off-CPU time peer, time=1; for the waker peer, wakers=1 in the effective mode, whose waker is past the helpers as the peer'"'"'s stack shows it), on each workload. Where the series'"'"' cost on the many-task workload is within its uncertainty (± half the ranges of it and vanilla, per call), the ratio is a lower bound: the peer'"'"'s cost over the series'"'"' cost plus that uncertainty."
		print ""
		print "| peer | ping-pong (pipe) | ratio | many tasks | ratio |"
		print "| --- | ---: | ---: | ---: | ---: |"
		t1p = has("series", "time=1", "pipe_ns_per_round") ? added("series", "time=1", "pipe") : 0
		t1h = ref["series"] && has("series", "time=1", "hb_ns_per_run") ? hbadded("series", "time=1") : 0
		uon = hbunc("series", "on"); ut1 = has("series", "time=1", "hb_ns_per_run") ? hbunc("series", "time=1") : 0
		wep = has("series", "effective+wakers=1", "pipe_ns_per_round") ? added("series", "effective+wakers=1", "pipe") : 0
		for (i = 1; i <= np; i++) {
			c = peers[i]
			if (!has("peer", c, "pipe_ns_per_round")) continue
			bp1 = (c == "bpftrace_tp_time") ? t1p : (c == "bpftrace_offwake") ? wep : onp
			bh1 = (c == "bpftrace_tp_time") ? t1h : onh
			uh1 = (c == "bpftrace_tp_time") ? ut1 : uon
			# No many-task run for the effective mode with wakers.
			hbp = has("peer", c, "hb_ns_per_run") && ref["peer"] && c != "bpftrace_offwake"
			r1 = bp1 > 0 ? sprintf("%.1fx", added("peer", c, "pipe") / bp1) : "-"
			h1 = hbp ? sprintf("%+.1f", hbadded("peer", c)) : "-"
			r2 = hbp && ref["series"] ? ratio(hbadded("peer", c), bh1, uh1) : "-"
			printf "| %s%s | %+.1f | %s | %s | %s |\n", pl[c], c == cheap ? " (the cheapest that counts by task and caller)" : "",
				added("peer", c, "pipe"), r1, h1, r2
		}
		if (wep > 0)
			printf "| series, on, effective mode, wakers=1 (for the waker peer) | %+.1f | 1x | - | - |\n", wep
		printf "| series, on (time=1 for the time peer) | %+.1f (%+.1f) | 1x | %s (%s) | 1x |\n", onp, t1p,
			ref["series"] ? sprintf("%+.1f ±%.0f", onh, uon) : "-", ref["series"] && t1h ? sprintf("%+.1f ±%.0f", t1h, ut1) : "-"
		print ""
	}

	if (has("tracers", "tracers_caller", "none_sites")) {
		print "## Beside other tracers of schedule()"
		print ""
		print "The series built with the peer kernel'"'"'s distribution tracing (`kernel-config/peer/distro-tracing.config`), real time: the busy call sites of both ping-pongs (kind and symbol, hit at least once a round trip) with accounting on alone, then with bpftrace hooking schedule()'"'"'s return (kretprobe: a rethook trampoline; kretfunc: a BPF fexit trampoline). A tracer that moved a site would show as a site that differs, and any line that names a trampoline is counted. bpftrace'"'"'s kretprobe has max(10, 2 x possible CPUs) = 10 instances here (the kernel'"'"'s default maxactive), which tasks asleep elsewhere hold: it hooks the returns it has an instance for, a number that varies run by run."
		print ""
		print "| mode | sites alone | under kretprobe (differing) | under kretfunc (differing) | lines naming a trampoline | calls counted / returns the tracer hooked: kretprobe, kretfunc |"
		print "| --- | ---: | ---: | ---: | ---: | --- |"
		for (i = 1; i <= 2; i++) {
			c = i == 1 ? "tracers_caller" : "tracers_effective"
			tl = 0
			split("none kretprobe kretfunc", tr, " ")
			for (j = 1; j <= 3; j++) tl += first("tracers", c, tr[j] "_trampoline_lines")
			printf "| %s | %s | %s | %s | %d | %s / %s, %s / %s |\n", substr(c, 9), first("tracers", c, "none_sites"),
				has("tracers", c, "kretprobe_sites") ? first("tracers", c, "kretprobe_sites") " (" first("tracers", c, "kretprobe_sites_differing") ")" : "-",
				has("tracers", c, "kretfunc_sites") ? first("tracers", c, "kretfunc_sites") " (" first("tracers", c, "kretfunc_sites_differing") ")" : "-", tl,
				first("tracers", c, "kretprobe_calls"), first("tracers", c, "kretprobe_hooked"),
				first("tracers", c, "kretfunc_calls"), first("tracers", c, "kretfunc_hooked")
		}
		print ""
	}
	if (!has("series", "on", "pipe_ns_per_round")) exit
	b = med("vanilla", "vanilla", "pipe_ns_per_round")
	off = med("series", "off", "pipe_ns_per_round")
	on = med("series", "on", "pipe_ns_per_round")
	print "## Goals (pipe ping-pong)"
	print ""
	print "| goal | figure | verdict |"
	print "| --- | ---: | --- |"
	goal("off: at most 0.5% over vanilla", 100 * (off - b) / b <= 0.5, sprintf("%+.2f%%", 100 * (off - b) / b))
	goal("on: at most 40 guest instructions per schedule() call", (on - b) / 2 <= 40, sprintf("%.1f", (on - b) / 2))
	if (on > b && cheap != "")
		goal("on: at least 30x cheaper than the cheapest peer (" pl[cheap] ")", added("peer", cheap, "pipe") / onp >= 30,
			sprintf("%.1fx", added("peer", cheap, "pipe") / onp))
	goal("on: at most 1% on the pipe ping-pong", 100 * (on - b) / b <= 1, sprintf("%+.2f%%", 100 * (on - b) / b))
	if (has("series", "time=1", "pipe_ns_per_round")) {
		t1 = med("series", "time=1", "pipe_ns_per_round")
		goal("time=1: at most 70 guest instructions per schedule() call", (t1 - b) / 2 <= 70, sprintf("%.1f", (t1 - b) / 2))
		if (has("series", "hist=1", "pipe_ns_per_round")) {
			h1 = med("series", "hist=1", "pipe_ns_per_round")
			goal("hist=1: at most 25 guest instructions per call over time=1", (h1 - t1) / 2 <= 25, sprintf("%+.1f (%.1f in all)", (h1 - t1) / 2, (h1 - b) / 2))
		}
	}
	if (has("series", "wakers=1", "pipe_ns_per_round") && has("series", "time=1", "pipe_ns_per_round")) {
		w1 = med("series", "wakers=1", "pipe_ns_per_round")
		goal("wakers=1 (caller mode): at most 30 guest instructions per call over time=1 (15 per wakeup, one a call here, and 15 per call)",
			(w1 - t1) / 2 <= 30, sprintf("%+.1f", (w1 - t1) / 2))
	}
	if (has("series", "effective+wakers=1", "pipe_ns_per_round") && has("series", "effective+time=1", "pipe_ns_per_round")) {
		we = med("series", "effective+wakers=1", "pipe_ns_per_round") - med("series", "effective+time=1", "pipe_ns_per_round")
		goal("wakers=1 in the effective mode: at most 400 guest instructions per wakeup over effective with time=1", we / 2 <= 400, sprintf("%+.1f", we / 2))
	}
	if (has("series", "preempt_kinds1", "ns_per_call")) {
		pk = med("series", "preempt_kinds1", "ns_per_call") - med("series", "preempt_kinds0", "ns_per_call")
		goal("a preempt hit (kinds=1, caller mode): at most 100 guest instructions", pk <= 100, sprintf("%.1f", pk))
	}
	if (has("series", "memory", "table_bytes_per_cpu_hist"))
		printf "| memory with hist=1 at the default entries (debugfs stats; not a goal) | %d bytes per CPU | - |\n", first("series", "memory", "table_bytes_per_cpu_hist")
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
		printf "entries=16 (14 for tasks), filled with the keys of tasks that live on: %.2f dropped hits per round trip (2 expected); a dropped hit costs %.1f guest instructions, %+.1f over a counted hit (it probes all 14 slots, then looks up the pids of 8 of them to find one that exited: the worst case of a miss).\n",
			first("series", "full", "dropped_per_round"), (full - b) / 2, (full - on) / 2
		print ""
	}
	if (has("series", "preempt_kinds1", "ns_per_call")) {
		print "## A preempt hit"
		print ""
		printf "The test module'"'"'s preempt file: a task calls preempt_enable() with need_resched set, which enters preempt_schedule() %s and __schedule() (no other task to run): %.1f guest ns per call with kinds=0, %.1f with kinds=1 (caller mode), so a preempt hit costs %.1f guest instructions. Counted: %d of %d calls, at %s (%s).\n",
			arch == "aarch64" ? "through dynamic_preempt_schedule() (a static key on arm64, no thunk)" : "through the x86 thunk",
			med("series", "preempt_kinds0", "ns_per_call"), med("series", "preempt_kinds1", "ns_per_call"),
			med("series", "preempt_kinds1", "ns_per_call") - med("series", "preempt_kinds0", "ns_per_call"),
			first("series", "preempt", "calls_counted"), first("series", "preempt", "calls_made"), first("series", "preempt", "site"),
			arch == "aarch64" ? "the wrapper'"'"'s caller" : "the thunk'"'"'s caller"
		print ""
	}
	if (has("series", "storm", "tasks")) {
		print "## A fork storm at the default table size"
		print ""
		printf "%d short-lived tasks (bench/spawn.c, half on each CPU, each one sched_yield()) with %d entries per CPU: /proc/sched_points counts %d schedule() calls of tasks named spawn, a kprobe on schedule() keyed by name and call site %d; call sites that differ: %d; dropped %d; entries of exited tasks folded into lines of exited tasks: %d; %d entries in use; %.0f guest ns per task (spawn and exit).\n",
			first("series", "storm", "tasks"), first("series", "storm", "capacity"), first("series", "storm", "calls"),
			first("series", "storm", "kprobe_calls"), first("series", "storm", "sites_differing"), first("series", "storm", "dropped"),
			first("series", "storm", "folded"), first("series", "storm", "used"), first("series", "storm", "ns_per_task")
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
	print ""
	print "## How long each step took (s)"
	print ""
	print "| step | seconds |"
	print "| --- | ---: |"
	split("build_series build_vanilla build_peer build_tracers guest_vanilla guest_peer guest_series guest_smp guest_tracers total", st, " ")
	for (i = 1; i <= 10; i++)
		if (has("host", "time", st[i])) printf "| %s | %d |\n", st[i], first("host", "time", st[i])
}' "$1"
