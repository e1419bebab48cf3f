// SPDX-License-Identifier: GPL-2.0-only
/*
 * Prometheus text exposition format (version 0.0.4), for node_exporter's
 * textfile collector: write it with -o into the collector's directory
 * (schedpoints replaces the file atomically).
 *
 *   sched_points_calls_total{pid="..",tgid="..",comm="..",kind="..",site=".."} COUNT
 *   sched_points_offcpu_seconds_total{...} SECONDS
 *   sched_points_offcpu_max_seconds{...} SECONDS
 *   sched_points_offcpu_seconds_bucket{...,le=".."} CALLS  (input with 'hist 1')
 *   sched_points_offcpu_seconds_sum{...} SECONDS, sched_points_offcpu_seconds_count
 *
 * The histogram has the 26 buckets of the format, le being the upper bound
 * 2^(K+1) ns in seconds (the last +Inf), cumulative, so that
 * histogram_quantile() over a fleet gives the percentiles the tool shows
 * (hist.c; but for the last bucket, where it returns 2^34 ns, not max_ns).
 *
 * The labels are the view's label columns.  A family holds the top N
 * series (-n; SP_PROM_TOP without it) and one series whose labels are all
 * "other" with the rest, so totals stay exact and the number of series a
 * collector stores is bounded on any machine.  Label values are escaped as the format asks
 * (\\, \", \n); task names are in display form first, so they are valid
 * UTF-8 with no control byte.  Seconds are written exactly, with nine
 * decimals.  Summary lines become sched_points_<name> gauges,
 * sched_points_mode_info{mode=".."} 1, sched_points_dropped_total and (format
 * 2) sched_points_folded_total.  A row of exited tasks has the labels
 * pid="exited" and tgid="-" (tgid="exited" by tgid), its comm its name.  In
 * interval mode the samples are gauges: sched_points_calls_delta,
 * sched_points_calls_per_second, sched_points_offcpu_seconds_delta and
 * sched_points_offcpu_seconds_per_second.
 */
#include <stdlib.h>
#include <string.h>

#include "schedpoints.h"

#define HIST_NAME	"sched_points_offcpu_seconds"
/* The HELP of the calls families, followed by when they were counted. */
#define HELP_CALLS	"Entries into the scheduler at a call site by a task: schedule() (kind sleep, disk_sleep, idle or yield), preempt_schedule() (preempt) or cond_resched() (cond_resched),"

static void prom_value(FILE *fp, const char *s, size_t len)
{
	size_t i;

	fputc('"', fp);
	for (i = 0; i < len; i++) {
		if (s[i] == '\\')
			fputs("\\\\", fp);
		else if (s[i] == '"')
			fputs("\\\"", fp);
		else if (s[i] == '\n')
			fputs("\\n", fp);
		else
			fputc(s[i], fp);
	}
	fputc('"', fp);
}

/*
 * {label="value",...} of a group, or every label OTHER (g NULL).  A task or
 * function really named "other" is written "\157ther", the display form's
 * escape of its first byte: otherwise a group whose every label is such a
 * name would be a second series with the labels of the rest, which
 * node_exporter refuses ("collected before with the same name and label
 * values") and drops.  Numbers, kinds, symbols and [modules] are never
 * "other".
 */
#define OTHER		"other"
#define OTHER_REAL	"\\157ther"

static void prom_labels(FILE *fp, const struct sp_result *r,
			const struct sp_group *g, char *buf, const char *le)
{
	enum sp_col cols[SP_MAX_COLS];
	size_t ncols = sp_label_columns(r, cols), c, len;

	if (!ncols && !le)
		return;
	fputc('{', fp);
	for (c = 0; c < ncols; c++) {
		struct sp_cell cell;
		const char *s = OTHER;

		len = sizeof(OTHER) - 1;
		if (g) {
			sp_cell_get(r, g, cols[c], &cell);
			s = sp_cell_text(&cell, true, buf, SP_CELL_BUF, &len);
			if (len == sizeof(OTHER) - 1 && !memcmp(s, OTHER, len)) {
				s = OTHER_REAL;
				len = sizeof(OTHER_REAL) - 1;
			}
		}
		fprintf(fp, "%s%s=", c ? "," : "", sp_col_name(r, cols[c]));
		prom_value(fp, s, len);
	}
	if (le)
		fprintf(fp, "%sle=\"%s\"", ncols ? "," : "", le);
	fputc('}', fp);
}

static void prom_family(FILE *fp, const char *name, const char *type,
			const char *help)
{
	fprintf(fp, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void prom_summary(FILE *fp, const struct sp_store *st)
{
	static const struct {
		const char *name, *type, *help;
	} m[] = {
		{ "sched_points_enabled", "gauge", "Whether schedule() call accounting is on (1) or off (0)." },
		{ "sched_points_cpus", "gauge", "Number of possible CPUs, the most per-CPU tables." },
		{ "sched_points_capacity", "gauge", "Slots per per-CPU table." },
		{ "sched_points_used", "gauge", "Table slots in use, summed over CPUs." },
		{ "sched_points_entries", "gauge", "Entries (task, call site) after merging CPUs." },
		{ "sched_points_dropped_total", "counter", "Hits lost because a table was full." },
		{ "sched_points_folded_total", "counter", "Entries of exited tasks folded into the lines of exited tasks (pid 0) to make room." },
		{ "sched_points_time", "gauge", "Whether off-CPU time is measured (1) or not (0)." },
		{ "sched_points_kinds", "gauge", "Whether preempt and cond_resched entries are counted (1) or not (0)." },
		{ "sched_points_hist", "gauge", "Whether histograms of off-CPU time are kept (1) or not (0)." },
	};
	const int64_t v[] = { st->sum.enabled, st->sum.cpus, st->sum.capacity,
			      st->sum.used, st->sum.entries, st->sum.dropped,
			      st->sum.folded, st->sum.time, st->sum.kinds,
			      st->sum.hist };
	size_t i;

	_Static_assert(sizeof(m) / sizeof(m[0]) == sizeof(v) / sizeof(v[0]),
		       "one family per summary value");
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (v[i] < 0)
			continue;
		prom_family(fp, m[i].name, m[i].type, m[i].help);
		fprintf(fp, "%s %lld\n", m[i].name, (long long)v[i]);
	}
	if (sp_mode_name(st->sum.mode)) {
		prom_family(fp, "sched_points_mode_info", "gauge",
			    "Call-site mode: caller (the caller of schedule()) or effective (the first caller outside the scheduler).");
		fprintf(fp, "sched_points_mode_info{mode=\"%s\"} 1\n",
			sp_mode_name(st->sum.mode));
	}
}

/* What a family samples. */
enum prom_what { P_COUNT, P_DELTA, P_RATE, P_TIME, P_MAX, P_DTIME, P_TRATE,
		 P_WAIT, P_WMAX, P_DWAIT, P_DELAY, P_DMAX, P_DDELAY };

/* The figures of a group, or of the groups past --top (the other series). */
struct prom_vals {
	sp_u128 count, delta, total_ns, delta_ns;
	uint64_t max_ns;
	struct sp_hist hist;
	/* the split: wait, run delay (SP_SPLIT_WAIT, SP_SPLIT_DELAY) */
	sp_u128 part_ns[3], dpart_ns[3];
	uint64_t part_max[3];
	struct sp_hist part_hist[3];
};

static void prom_add(struct prom_vals *v, const struct sp_result *r,
		     const struct sp_group *g)
{
	const struct sp_hist *h = sp_group_hist(r, g);
	unsigned b, k;

	v->count += g->count;
	v->delta += g->delta;
	v->total_ns += g->total_ns;
	v->delta_ns += g->delta_ns;
	if (g->max_ns > v->max_ns)
		v->max_ns = g->max_ns;
	for (b = 0; h && b < SP_HIST_N; b++)
		v->hist.n[b] += h->n[b];	/* below 2^64: see sp_store_add() */
	for (k = SP_SPLIT_WAIT; r->split && k <= SP_SPLIT_DELAY; k++) {
		uint64_t m = sp_group_split_max(r, g, k);

		v->part_ns[k] += sp_group_split_ns(r, g, k, false);
		v->dpart_ns[k] += sp_group_split_ns(r, g, k, true);
		if (m > v->part_max[k])
			v->part_max[k] = m;
		h = sp_group_split_hist(r, g, k);
		for (b = 0; h && b < SP_HIST_N; b++)
			v->part_hist[k].n[b] += h->n[b];
	}
}

static void prom_sample(FILE *fp, const struct sp_result *r,
			const struct prom_vals *v, enum prom_what what)
{
	char secs[64], digits[SP_U128_DIGITS];

	switch (what) {
	case P_COUNT:
		fprintf(fp, " %s\n", sp_u128_str(digits, v->count));
		break;
	case P_DELTA:
		fprintf(fp, " %s\n", sp_u128_str(digits, v->delta));
		break;
	case P_RATE:
		fprintf(fp, " %.6g\n", sp_rate(r, (uint64_t)v->delta));
		break;
	case P_TIME:
		sp_fmt_seconds(secs, sizeof(secs), v->total_ns);
		fprintf(fp, " %s\n", secs);
		break;
	case P_MAX:
		sp_fmt_seconds(secs, sizeof(secs), v->max_ns);
		fprintf(fp, " %s\n", secs);
		break;
	case P_DTIME:
		sp_fmt_seconds(secs, sizeof(secs), v->delta_ns);
		fprintf(fp, " %s\n", secs);
		break;
	case P_TRATE:
		fprintf(fp, " %.6g\n", sp_time_rate(r, v->delta_ns));
		break;
	case P_WAIT:
	case P_DELAY:
		sp_fmt_seconds(secs, sizeof(secs),
			       v->part_ns[what == P_WAIT ? SP_SPLIT_WAIT : SP_SPLIT_DELAY]);
		fprintf(fp, " %s\n", secs);
		break;
	case P_DWAIT:
	case P_DDELAY:
		sp_fmt_seconds(secs, sizeof(secs),
			       v->dpart_ns[what == P_DWAIT ? SP_SPLIT_WAIT : SP_SPLIT_DELAY]);
		fprintf(fp, " %s\n", secs);
		break;
	case P_WMAX:
	case P_DMAX:
		sp_fmt_seconds(secs, sizeof(secs),
			       v->part_max[what == P_WMAX ? SP_SPLIT_WAIT : SP_SPLIT_DELAY]);
		fprintf(fp, " %s\n", secs);
		break;
	}
}

/*
 * One family: a sample per shown group (the top N, SP_PROM_TOP without -n)
 * and, when groups were left out, one series with every label "other" that
 * holds their sum (their longest stretch for the max gauge), so the
 * family's sum is the exact total and its cardinality is N + 1.
 */
static void prom_samples(FILE *fp, const struct sp_result *r, char *buf,
			 enum prom_what what, const char *name,
			 const char *type, const char *help)
{
	struct prom_vals rest = { 0 };
	uint32_t i;

	prom_family(fp, name, type, help);
	for (i = 0; i < r->nshown; i++) {
		struct prom_vals v = { 0 };

		prom_add(&v, r, &r->groups[i]);
		fputs(name, fp);
		prom_labels(fp, r, &r->groups[i], buf, NULL);
		prom_sample(fp, r, &v, what);
	}
	if (r->nshown == r->ngroups)
		return;
	for (i = r->nshown; i < r->ngroups; i++)
		prom_add(&rest, r, &r->groups[i]);
	fputs(name, fp);
	prom_labels(fp, r, NULL, buf, NULL);
	prom_sample(fp, r, &rest, what);
}

/* The histogram families: off-CPU time, the wait, the run delay. */
static const struct {
	const char *name, *help;
} prom_hists[] = {
	{ HIST_NAME,
	  "Off-CPU time of the calls of schedule() since the last reset, in the kernel's log2 buckets (the hist field)." },
	[SP_SPLIT_WAIT] = { "sched_points_offcpu_wait_seconds",
	  "The wait part of the off-CPU time of the calls of schedule() (switch-out to the wakeup) since the last reset, in the kernel's log2 buckets (the wait_hist field)." },
	[SP_SPLIT_DELAY] = { "sched_points_offcpu_run_delay_seconds",
	  "The run delay part of the off-CPU time of the calls of schedule() (the wakeup to the switch back in) since the last reset, in the kernel's log2 buckets (the delay_hist field)." },
};

/*
 * One series of histogram part (0 off-CPU time, SP_SPLIT_*): cumulative
 * buckets, +Inf, _sum, _count.
 */
static void prom_hist_series(FILE *fp, const struct sp_result *r,
			     const struct sp_group *g, const struct prom_vals *v,
			     char *buf, unsigned part)
{
	const struct sp_hist *h = part ? &v->part_hist[part] : &v->hist;
	const char *name = prom_hists[part].name;
	char le[64];
	uint64_t cum = 0;
	unsigned b;

	for (b = 0; b < SP_HIST_N; b++) {
		cum += h->n[b];
		if (sp_hist_upper(b))
			sp_fmt_seconds(le, sizeof(le), sp_hist_upper(b));
		else
			snprintf(le, sizeof(le), "+Inf");
		fprintf(fp, "%s_bucket", name);
		prom_labels(fp, r, g, buf, le);
		fprintf(fp, " %llu\n", (unsigned long long)cum);
	}
	sp_fmt_seconds(le, sizeof(le), part ? v->part_ns[part] : v->total_ns);
	fprintf(fp, "%s_sum", name);
	prom_labels(fp, r, g, buf, NULL);
	fprintf(fp, " %s\n", le);
	fprintf(fp, "%s_count", name);
	prom_labels(fp, r, g, buf, NULL);
	fprintf(fp, " %llu\n", (unsigned long long)cum);
}

/*
 * The histogram family: the top N series and 'other', as prom_samples(),
 * but only of the groups that have a histogram: a preempt or cond_resched
 * row has none, and 28 zero samples would say its calls took no time
 * (issue 34); 'other' only when a group left out has one.
 */
static void prom_histogram(FILE *fp, const struct sp_result *r, char *buf,
			   unsigned part)
{
	struct prom_vals *v = sp_xrealloc(NULL, 1, sizeof(*v));
	uint32_t i;

	prom_family(fp, prom_hists[part].name, "histogram", prom_hists[part].help);
	for (i = 0; i < r->nshown; i++) {
		if (!sp_hist_calls(sp_group_hist(r, &r->groups[i])))
			continue;
		memset(v, 0, sizeof(*v));
		prom_add(v, r, &r->groups[i]);
		prom_hist_series(fp, r, &r->groups[i], v, buf, part);
	}
	memset(v, 0, sizeof(*v));
	for (i = r->nshown; i < r->ngroups; i++)
		if (sp_hist_calls(sp_group_hist(r, &r->groups[i])))
			prom_add(v, r, &r->groups[i]);
	if (sp_hist_calls(&v->hist))
		prom_hist_series(fp, r, NULL, v, buf, part);
	free(v);
}

void sp_prom_result(struct sp_out *out, const struct sp_result *r)
{
	FILE *fp = out->fp;
	char *buf;

	if (out->reset_msg)
		return;
	buf = sp_xrealloc(NULL, SP_CELL_BUF, 1);
	prom_summary(fp, r->st);
	if (!r->delta) {
		prom_samples(fp, r, buf, P_COUNT, "sched_points_calls_total", "counter",
			     HELP_CALLS " since the last reset.");
		prom_samples(fp, r, buf, P_TIME, "sched_points_offcpu_seconds_total",
			     "counter",
			     "Off-CPU time, from the switch away from the task to the switch back, since the last reset.");
		prom_samples(fp, r, buf, P_MAX, "sched_points_offcpu_max_seconds",
			     "gauge",
			     "Longest single off-CPU stretch since the last reset.");
		if (r->hist)
			prom_histogram(fp, r, buf, 0);
		if (r->split) {
			prom_samples(fp, r, buf, P_WAIT,
				     "sched_points_offcpu_wait_seconds_total", "counter",
				     "The wait part of the off-CPU time (switch-out to the wakeup) since the last reset.");
			prom_samples(fp, r, buf, P_WMAX,
				     "sched_points_offcpu_wait_max_seconds", "gauge",
				     "Longest single wait since the last reset.");
			prom_samples(fp, r, buf, P_DELAY,
				     "sched_points_offcpu_run_delay_seconds_total", "counter",
				     "The run delay part of the off-CPU time (the wakeup to the switch back in) since the last reset.");
			prom_samples(fp, r, buf, P_DMAX,
				     "sched_points_offcpu_run_delay_max_seconds", "gauge",
				     "Longest single run delay since the last reset.");
		}
		if (r->hist && r->split) {
			prom_histogram(fp, r, buf, SP_SPLIT_WAIT);
			prom_histogram(fp, r, buf, SP_SPLIT_DELAY);
		}
		free(buf);
		return;
	}
	prom_samples(fp, r, buf, P_DELTA, "sched_points_calls_delta", "gauge",
		     HELP_CALLS " in the last interval.");
	if (r->interval > 0)
		prom_samples(fp, r, buf, P_RATE, "sched_points_calls_per_second", "gauge",
			     HELP_CALLS " per second over the last interval.");
	prom_samples(fp, r, buf, P_DTIME, "sched_points_offcpu_seconds_delta", "gauge",
		     "Off-CPU time in the last interval.");
	if (r->interval > 0)
		prom_samples(fp, r, buf, P_TRATE,
			     "sched_points_offcpu_seconds_per_second", "gauge",
			     "Off-CPU seconds per second over the last interval.");
	if (r->split) {
		prom_samples(fp, r, buf, P_DWAIT, "sched_points_offcpu_wait_seconds_delta",
			     "gauge", "The wait part of the off-CPU time in the last interval.");
		prom_samples(fp, r, buf, P_DDELAY,
			     "sched_points_offcpu_run_delay_seconds_delta", "gauge",
			     "The run delay part of the off-CPU time in the last interval.");
	}
	free(buf);
}

/*
 * blocked: gauges of the tasks blocked now (after --min), labels escaped as
 * above, task names in display form:
 *
 *   sched_points_blocked_enabled, sched_points_blocked_time,
 *   sched_points_blocked_mode_info{mode=".."} 1,
 *   sched_points_blocked_entries (tasks in the file, before --min),
 *   sched_points_blocked_tasks{site=".."}            tasks blocked there
 *   sched_points_blocked_longest_seconds{site=".."}  their longest wait
 *   sched_points_blocked_waiting_seconds{pid,tgid,comm,kind,state,site}
 *                                                    each task's wait
 *
 * A task's series lasts as long as its wait: --min keeps the per-task
 * family to the tasks stuck long enough to matter (and its size bounded).
 */
static void prom_label(FILE *fp, const char *name, const char *s, size_t len,
		       bool comm, char *buf, bool first)
{
	if (comm)
		len = sp_escape(buf, s, len, 0);
	fprintf(fp, "%s%s=", first ? "" : ",", name);
	prom_value(fp, comm ? buf : s, len);
}

void sp_prom_blocked(struct sp_out *out, const struct sp_blocked *b)
{
	static const char *const fam[] = {
		"sched_points_blocked_tasks", "sched_points_blocked_longest_seconds",
	};
	static const char *const help[] = {
		"Tasks inside a timed schedule() call at a call site now, waiting at least --min.",
		"Longest time since a task blocked at a call site now was switched away.",
	};
	FILE *fp = out->fp;
	char *buf = sp_xrealloc(NULL, SP_CELL_BUF, 1), secs[64];
	uint32_t i, k;
	size_t f;

	prom_family(fp, "sched_points_blocked_enabled", "gauge",
		    "Whether schedule() call accounting was on (1) or off (0) when /proc/sched_points_blocked was read.");
	fprintf(fp, "sched_points_blocked_enabled %lld\n", (long long)b->enabled);
	prom_family(fp, "sched_points_blocked_time", "gauge",
		    "Whether off-CPU time was measured (1) or not (0): only timed calls are shown.");
	fprintf(fp, "sched_points_blocked_time %lld\n", (long long)b->time);
	prom_family(fp, "sched_points_blocked_mode_info", "gauge",
		    "Call-site mode: caller (the caller of schedule()) or effective (the first caller outside the scheduler).");
	fprintf(fp, "sched_points_blocked_mode_info{mode=\"%s\"} 1\n", sp_mode_name(b->mode));
	prom_family(fp, "sched_points_blocked_entries", "gauge",
		    "Tasks inside a timed schedule() call now, all of them (before --min).");
	fprintf(fp, "sched_points_blocked_entries %lld\n", (long long)b->entries);
	for (f = 0; f < sizeof(fam) / sizeof(fam[0]); f++) {
		prom_family(fp, fam[f], "gauge", help[f]);
		for (i = 0; i < b->nsites; i++) {
			const struct sp_bsite *s = &b->sites[i];

			fputs(fam[f], fp);
			fputc('{', fp);
			prom_label(fp, "site", sp_pool_str(&b->syms, s->sym),
				   sp_pool_len(&b->syms, s->sym), false, buf, true);
			fputc('}', fp);
			if (f == 0) {
				fprintf(fp, " %u\n", s->ntasks);
			} else {
				sp_fmt_seconds(secs, sizeof(secs), s->longest_ns);
				fprintf(fp, " %s\n", secs);
			}
		}
	}
	prom_family(fp, "sched_points_blocked_waiting_seconds", "gauge",
		    "Time since a task inside a timed schedule() call now was switched away.");
	for (i = 0; i < b->nsites; i++) {
		const struct sp_bsite *s = &b->sites[i];

		for (k = s->first; k < s->first + s->ntasks; k++) {
			const struct sp_btask *t = &b->tasks[b->order[k]];
			char num[16];

			fputs("sched_points_blocked_waiting_seconds{", fp);
			snprintf(num, sizeof(num), "%u", t->pid);
			prom_label(fp, "pid", num, strlen(num), false, buf, true);
			snprintf(num, sizeof(num), "%u", t->tgid);
			prom_label(fp, "tgid", num, strlen(num), false, buf, false);
			prom_label(fp, "comm", sp_pool_str(&b->comms, t->comm),
				   sp_pool_len(&b->comms, t->comm), true, buf, false);
			prom_label(fp, "kind", sp_kind_name(t->kind),
				   strlen(sp_kind_name(t->kind)), false, buf, false);
			prom_label(fp, "state", &t->state, 1, false, buf, false);
			prom_label(fp, "site", sp_pool_str(&b->syms, s->sym),
				   sp_pool_len(&b->syms, s->sym), false, buf, false);
			sp_fmt_seconds(secs, sizeof(secs), t->waiting_ns);
			fprintf(fp, "} %s\n", secs);
		}
	}
	free(buf);
}

/*
 * wakers SITE and wakes SITE: counters of the rows (labels: SITE as given,
 * site= for wakers, waker_site= for wakes, then the row's label columns,
 * text as the table shows them), the top N (-n, SP_PROM_TOP without) and
 * one series "other" with the rest:
 *
 *   sched_points_wakers_calls_total{site,context[,waker_pid,waker_comm],waker_site}
 *   sched_points_wakers_offcpu_seconds_total, ..._wait_seconds_total,
 *   ..._run_delay_seconds_total, and the histogram
 *   sched_points_wakers_offcpu_seconds (with 'hist 1', rows with one)
 *
 * and the same as sched_points_wakes_* {waker_site,pid,tgid,comm,kind,
 * context[,...],site}.  Two prefixes, as their label names differ.
 */
struct wprom_vals {
	uint64_t count;
	sp_u128 total_ns, wait_ns;
	bool has_hist;
	struct sp_hist hist;
};

static void wprom_labels(FILE *fp, const struct sp_wtab *t, size_t row,
			 const char *qname, const char *q, char *buf,
			 const char *le)
{
	size_t c, len;
	bool first = true;

	fputc('{', fp);
	if (qname) {	/* as the user gave it: in display form */
		fprintf(fp, "%s=", qname);
		prom_value(fp, buf, sp_escape(buf, q, strlen(q), 0));
		first = false;
	}
	for (c = 0; c < t->ncols; c++) {
		struct sp_cell cell;
		const char *s = OTHER;

		if (!sp_wcol_label(t->cols[c]))
			continue;
		len = sizeof(OTHER) - 1;
		if (row != SIZE_MAX) {
			t->cell(t->ctx, row, t->cols[c], &cell);
			s = sp_cell_text(&cell, true, buf, SP_CELL_BUF, &len);
			if (len == sizeof(OTHER) - 1 && !memcmp(s, OTHER, len)) {
				s = OTHER_REAL;
				len = sizeof(OTHER_REAL) - 1;
			}
		}
		fprintf(fp, "%s%s=", first ? "" : ",", sp_wcol_name(t->cols[c]));
		prom_value(fp, s, len);
		first = false;
	}
	if (le)
		fprintf(fp, "%sle=\"%s\"", first ? "" : ",", le);
	fputc('}', fp);
}

static void wprom_hist(FILE *fp, const char *name, const struct sp_wtab *t,
		       size_t row, const char *qname, const char *q,
		       const struct wprom_vals *v, char *buf)
{
	char le[64];
	uint64_t cum = 0;
	unsigned b;

	for (b = 0; b < SP_HIST_N; b++) {
		cum += v->hist.n[b];
		if (sp_hist_upper(b))
			sp_fmt_seconds(le, sizeof(le), sp_hist_upper(b));
		else
			snprintf(le, sizeof(le), "+Inf");
		fprintf(fp, "%s_bucket", name);
		wprom_labels(fp, t, row, qname, q, buf, le);
		fprintf(fp, " %llu\n", (unsigned long long)cum);
	}
	sp_fmt_seconds(le, sizeof(le), v->total_ns);
	fprintf(fp, "%s_sum", name);
	wprom_labels(fp, t, row, qname, q, buf, NULL);
	fprintf(fp, " %s\n", le);
	fprintf(fp, "%s_count", name);
	wprom_labels(fp, t, row, qname, q, buf, NULL);
	fprintf(fp, " %llu\n", (unsigned long long)cum);
}

void sp_prom_wview(struct sp_out *out, const struct sp_wview *v)
{
	static const struct {
		const char *suffix, *type, *help;
	} fam[] = {
		{ "calls_total", "counter", "Calls at the call site whose wait the waker (call site and context) ended." },
		{ "offcpu_seconds_total", "counter", "Off-CPU time of those calls." },
		{ "wait_seconds_total", "counter", "The wait part of their off-CPU time (switch-out to the wakeup)." },
		{ "run_delay_seconds_total", "counter", "The run delay part of their off-CPU time (the wakeup to the switch back in)." },
	};
	const char *prefix = v->kind == SP_WVIEW_WAKERS ? "sched_points_wakers" : "sched_points_wakes";
	const char *qname = v->kind == SP_WVIEW_WAKERS ? "site" : "waker_site";
	const struct sp_opts *o = out->o;
	size_t limit = o->top_given ? o->top : SP_PROM_TOP, n, i, f;
	struct wprom_vals *vals, rest = { 0 };
	char *buf = sp_xrealloc(NULL, SP_CELL_BUF, 1), name[128], secs[64];
	char digits[SP_U128_DIGITS];
	struct sp_wtab t;
	bool any_hist = false;

	/* every row, not only -n's: prometheus takes -n as series a family */
	sp_wview_tab(v, false, &t);
	t.nrows = v->nrows;
	n = limit && limit < v->nrows ? limit : v->nrows;
	vals = sp_xrealloc(NULL, n ? n : 1, sizeof(*vals));
	for (i = 0; i < v->nrows; i++) {
		const struct sp_wrow *r = &v->rows[i];
		struct wprom_vals *x = i < n ? &vals[i] : &rest;

		if (i < n)
			memset(x, 0, sizeof(*x));
		x->count += r->count;
		x->total_ns += r->total_ns;
		x->wait_ns += r->wait_ns;
		if (r->has_hist) {
			unsigned b;

			x->has_hist = any_hist = true;
			for (b = 0; b < SP_HIST_N; b++)
				x->hist.n[b] += r->hist.n[b];
		}
	}
	for (f = 0; f < sizeof(fam) / sizeof(fam[0]); f++) {
		snprintf(name, sizeof(name), "%s_%s", prefix, fam[f].suffix);
		prom_family(out->fp, name, fam[f].type, fam[f].help);
		for (i = 0; i <= n; i++) {
			const struct wprom_vals *x = i < n ? &vals[i] : &rest;

			if (i == n && n == v->nrows)
				break;
			fputs(name, out->fp);
			wprom_labels(out->fp, &t, i < n ? i : SIZE_MAX, qname, v->arg, buf, NULL);
			if (f == 0) {
				fprintf(out->fp, " %s\n", sp_u128_str(digits, x->count));
			} else {
				sp_fmt_seconds(secs, sizeof(secs), f == 1 ? x->total_ns :
					       f == 2 ? x->wait_ns : x->total_ns - x->wait_ns);
				fprintf(out->fp, " %s\n", secs);
			}
		}
	}
	if (any_hist) {
		snprintf(name, sizeof(name), "%s_offcpu_seconds", prefix);
		prom_family(out->fp, name, "histogram",
			    "Off-CPU time of the calls whose wait the waker ended, log2 buckets.");
		for (i = 0; i < n; i++)
			if (vals[i].has_hist)
				wprom_hist(out->fp, name, &t, i, qname, v->arg, &vals[i], buf);
		if (n < v->nrows && rest.has_hist)
			wprom_hist(out->fp, name, &t, SIZE_MAX, qname, v->arg, &rest, buf);
	}
	free(vals);
	free(buf);
}

/*
 * chain X: gauges, a series per hop (labels: hop and the hop's label
 * columns), the number of hops and why it stopped:
 *
 *   sched_points_chain_calls{hop,pid,tgid,comm,kind,site,context,waker_pid,waker_comm,waker_site}
 *   sched_points_chain_offcpu_seconds, ..._wait_seconds, ..._run_delay_seconds
 *   sched_points_chain_hops{start,from}, sched_points_chain_stop_info{start,from,stop} 1
 */
void sp_prom_chain(struct sp_out *out, const struct sp_chain *c)
{
	static const struct {
		const char *name, *help;
	} fam[] = {
		{ "sched_points_chain_calls", "Calls of the hop's sleeper at its call site whose wait the hop's waker ended." },
		{ "sched_points_chain_offcpu_seconds", "Off-CPU time of those calls." },
		{ "sched_points_chain_wait_seconds", "The wait part of their off-CPU time: the time on the critical path at this hop." },
		{ "sched_points_chain_run_delay_seconds", "The run delay part of their off-CPU time." },
	};
	FILE *fp = out->fp;
	char *buf = sp_xrealloc(NULL, SP_CELL_BUF, 1), secs[64];
	struct sp_wtab t;
	size_t f, i;

	sp_chain_tab(c, false, &t);
	for (f = 0; f < sizeof(fam) / sizeof(fam[0]); f++) {
		prom_family(fp, fam[f].name, "gauge", fam[f].help);
		for (i = 0; i < t.nrows; i++) {
			const struct sp_wline *l = &c->w->lines[c->hops[i].line];

			fputs(fam[f].name, fp);
			wprom_labels(fp, &t, i, NULL, NULL, buf, NULL);
			if (f == 0) {
				fprintf(fp, " %llu\n", (unsigned long long)l->count);
			} else {
				sp_fmt_seconds(secs, sizeof(secs), f == 1 ? l->total_ns :
					       f == 2 ? l->wait_ns : l->total_ns - l->wait_ns);
				fprintf(fp, " %s\n", secs);
			}
		}
	}
	prom_family(fp, "sched_points_chain_hops", "gauge", "Hops of the chain from the start (a pid, a task name or a call site).");
	fputs("sched_points_chain_hops{start=", fp);
	prom_value(fp, buf, sp_escape(buf, c->arg, strlen(c->arg), 0));
	fprintf(fp, ",from=\"%s\"} %u\n", c->from, c->nhops);
	prom_family(fp, "sched_points_chain_stop_info", "gauge", "Why the chain stopped: context (a waker that is not a task), loop, hops (--hops), no_waker, no_wait.");
	fputs("sched_points_chain_stop_info{start=", fp);
	prom_value(fp, buf, sp_escape(buf, c->arg, strlen(c->arg), 0));
	fprintf(fp, ",from=\"%s\",stop=\"%s\"} 1\n", c->from, sp_chain_stop_name(c->stop));
	free(buf);
}
