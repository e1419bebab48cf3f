// SPDX-License-Identifier: GPL-2.0-only
/*
 * Prometheus text exposition format (version 0.0.4), for node_exporter's
 * textfile collector: write it with -o into the collector's directory
 * (schedpoints replaces the file atomically).
 *
 *   sched_points_calls_total{pid="..",tgid="..",comm="..",site=".."} COUNT
 *
 * The labels are the view's label columns (the matrix view has all four and
 * is the one to scrape).  Label values are escaped as the format asks
 * (\\, \", \n); task names are in display form first, so they are valid
 * UTF-8 with no control byte.  Summary lines become sched_points_<name>
 * gauges and sched_points_dropped_total.  In interval mode the samples are
 * gauges: sched_points_calls_delta and sched_points_calls_per_second.
 */
#include <stdlib.h>
#include <string.h>

#include "schedpoints.h"

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

static void prom_labels(FILE *fp, const struct sp_result *r,
			const struct sp_group *g, char *buf)
{
	enum sp_col cols[SP_MAX_COLS];
	size_t ncols = sp_result_columns(r, cols, false), c, len;
	const char *s;
	bool first = true;

	fputc('{', fp);
	for (c = 0; c < ncols; c++) {
		switch (cols[c]) {
		case SP_COL_PID:
		case SP_COL_TGID:
			fprintf(fp, "%s%s=\"%u\"", first ? "" : ",",
				sp_col_name(r, cols[c]),
				cols[c] == SP_COL_PID ? g->pid : g->tgid);
			break;
		case SP_COL_COMM:
			s = sp_group_comm(r, g, &len);
			len = sp_escape(buf, s, len, 0);
			fprintf(fp, "%scomm=", first ? "" : ",");
			prom_value(fp, buf, len);
			break;
		case SP_COL_SITE:
			s = sp_site_name(r, g);
			fprintf(fp, "%s%s=", first ? "" : ",", sp_col_name(r, cols[c]));
			prom_value(fp, s, strlen(s));
			break;
		default:
			continue;
		}
		first = false;
	}
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
		{ "sched_points_cpus", "gauge", "Number of per-CPU tables." },
		{ "sched_points_capacity", "gauge", "Slots per per-CPU table." },
		{ "sched_points_used", "gauge", "Table slots in use, summed over CPUs." },
		{ "sched_points_entries", "gauge", "Entries (task, call site) after merging CPUs." },
		{ "sched_points_dropped_total", "counter", "Hits lost because a table was full." },
	};
	const int64_t v[] = { st->sum.enabled, st->sum.cpus, st->sum.capacity,
			      st->sum.used, st->sum.entries, st->sum.dropped };
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (v[i] < 0)
			continue;
		prom_family(fp, m[i].name, m[i].type, m[i].help);
		fprintf(fp, "%s %lld\n", m[i].name, (long long)v[i]);
	}
}

void sp_prom_result(struct sp_out *out, const struct sp_result *r)
{
	FILE *fp = out->fp;
	char *buf = sp_xrealloc(NULL, 4 * SP_MAX_LINE + 1, 1);
	uint32_t i;

	if (out->reset_msg) {
		free(buf);
		return;
	}
	prom_summary(fp, r->st);
	if (!r->delta) {
		prom_family(fp, "sched_points_calls_total", "counter",
			    "Calls of schedule() from a call site by a task since the last reset.");
		for (i = 0; i < r->nshown; i++) {
			fputs("sched_points_calls_total", fp);
			prom_labels(fp, r, &r->groups[i], buf);
			fprintf(fp, " %llu\n", (unsigned long long)r->groups[i].count);
		}
		free(buf);
		return;
	}
	prom_family(fp, "sched_points_calls_delta", "gauge",
		    "Calls of schedule() in the last interval.");
	for (i = 0; i < r->nshown; i++) {
		fputs("sched_points_calls_delta", fp);
		prom_labels(fp, r, &r->groups[i], buf);
		fprintf(fp, " %llu\n", (unsigned long long)r->groups[i].delta);
	}
	if (r->interval > 0) {
		prom_family(fp, "sched_points_calls_per_second", "gauge",
			    "Calls of schedule() per second over the last interval.");
		for (i = 0; i < r->nshown; i++) {
			fputs("sched_points_calls_per_second", fp);
			prom_labels(fp, r, &r->groups[i], buf);
			fprintf(fp, " %.6g\n", sp_rate(r, r->groups[i].delta));
		}
	}
	free(buf);
}
