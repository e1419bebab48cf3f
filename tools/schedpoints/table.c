// SPDX-License-Identifier: GPL-2.0-only
/*
 * Aligned table for people.  Cells are formatted first, then columns are
 * padded to their widest cell: numbers right-aligned, names left-aligned,
 * the last column not padded.  Task names are shown in display form (see
 * sp_escape()) so that no name can move the cursor or forge a row.
 */
#include <stdlib.h>
#include <string.h>

#include "schedpoints.h"

struct grid {
	char **cells;
	size_t rows, cols;
	size_t *width;
	bool *left;
};

static void grid_init(struct grid *t, size_t rows, size_t cols)
{
	t->rows = rows;
	t->cols = cols;
	t->cells = sp_xrealloc(NULL, (rows && cols) ? rows * cols : 1,
			       sizeof(char *));
	memset(t->cells, 0, rows * cols * sizeof(char *));
	t->width = sp_xrealloc(NULL, cols ? cols : 1, sizeof(size_t));
	memset(t->width, 0, cols * sizeof(size_t));
	t->left = sp_xrealloc(NULL, cols ? cols : 1, sizeof(bool));
	memset(t->left, 0, cols * sizeof(bool));
}

static void grid_set(struct grid *t, size_t r, size_t c, const char *s)
{
	size_t n = strlen(s);

	t->cells[r * t->cols + c] = sp_xstrdup(s);
	if (n > t->width[c])
		t->width[c] = n;
}

/* Display width: count UTF-8 lead bytes, not continuation bytes. */
static size_t text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void grid_print(struct grid *t, FILE *fp)
{
	size_t r, c;

	for (c = 0; c < t->cols; c++) {
		size_t w = 0;

		for (r = 0; r < t->rows; r++) {
			const char *s = t->cells[r * t->cols + c];
			size_t tw = s ? text_width(s) : 0;

			if (tw > w)
				w = tw;
		}
		t->width[c] = w;
	}
	for (r = 0; r < t->rows; r++) {
		for (c = 0; c < t->cols; c++) {
			const char *s = t->cells[r * t->cols + c];
			size_t pad;

			if (!s)
				s = "";
			pad = t->width[c] - text_width(s);
			if (c)
				fputs("  ", fp);
			if (t->left[c]) {
				fputs(s, fp);
				if (c + 1 < t->cols)
					fprintf(fp, "%*s", (int)pad, "");
			} else {
				fprintf(fp, "%*s%s", (int)pad, "", s);
			}
		}
		fputc('\n', fp);
	}
	for (r = 0; r < t->rows * t->cols; r++)
		free(t->cells[r]);
	free(t->cells);
	free(t->width);
	free(t->left);
}

static void print_source(struct sp_out *out, const struct sp_result *r)
{
	const struct sp_store *st = r->st;
	const struct sp_summary *s = &st->sum;
	const char *names[] = { "enabled", "time", "kinds", "cpus", "capacity",
				"used", "entries", "dropped" };
	const int64_t vals[] = { s->enabled, s->time, s->kinds, s->cpus,
				 s->capacity, s->used, s->entries, s->dropped };
	size_t i;

	if (out->sample)
		fprintf(out->fp, "sample %lu  ", out->sample);
	fputs("source ", out->fp);
	sp_fputs_escaped(out->fp, st->name, strlen(st->name), SP_ESC_SPACE);
	fprintf(out->fp, "  version %s", st->version);
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		if (vals[i] >= 0)
			fprintf(out->fp, "  %s %lld", names[i], (long long)vals[i]);
		if (i == 0 && sp_mode_name(s->mode))
			fprintf(out->fp, "  mode %s", sp_mode_name(s->mode));
	}
	if (r->delta) {
		if (r->interval > 0)
			fprintf(out->fp, "  interval %.2f s", r->interval);
		else
			fputs("  interval unknown", out->fp);
	}
	fputc('\n', out->fp);
	if (s->dropped > 0)
		fprintf(out->fp,
			"warning: %lld hits were dropped (a table was full): counts are lower bounds\n",
			(long long)s->dropped);
}

static void fmt_pct(char *buf, size_t len, sp_u128 v, sp_u128 total)
{
	if (!total)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f%%", 100.0 * (double)v / (double)total);
}

static void fmt_rate(char *buf, size_t len, double rate)
{
	if (rate < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", rate);
}

static void fmt_time_rate(char *buf, size_t len, double rate)
{
	if (rate < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", rate);
}

static const char *col_header(const struct sp_result *r, enum sp_col c)
{
	static const char *const names[] = {
		[SP_COL_PID] = "PID", [SP_COL_TGID] = "TGID",
		[SP_COL_COUNT] = "COUNT", [SP_COL_PCT] = "%",
		[SP_COL_DELTA] = "DELTA", [SP_COL_RATE] = "RATE/s",
		[SP_COL_TASKS] = "TASKS", [SP_COL_SITES] = "SITES",
		[SP_COL_COMM] = "COMM", [SP_COL_TIME] = "TIME",
		[SP_COL_DTIME] = "DTIME", [SP_COL_TRATE] = "TIME/s",
		[SP_COL_MEAN] = "MEAN", [SP_COL_MAX] = "MAX",
		[SP_COL_KIND] = "KIND",
	};

	if (c == SP_COL_SITE) {
		static const char *const site[] = {
			"SITE", "FUNCTION", "MODULE", "KIND",
		};

		return site[r->o->group];
	}
	return names[c];
}

static void comm_cell(const struct sp_result *r, const struct sp_group *g,
		      char *buf)
{
	size_t len;
	const char *c = sp_group_comm(r, g, &len);

	sp_escape(buf, c, len, 0);
}

static void footer(struct sp_out *out, const struct sp_result *r,
		   const char *what, uint32_t n, uint32_t shown)
{
	FILE *fp = out->fp;

	char t1[32];

	if (r->delta) {
		char rate[32];

		fmt_rate(rate, sizeof(rate), sp_rate(r, r->total_delta));
		fprintf(fp, "delta %llu  rate %s/s  total %llu", (unsigned long long)r->total_delta,
			rate, (unsigned long long)r->total);
		if (r->time) {
			char t2[32];

			sp_fmt_duration(t1, sizeof(t1), r->total_delta_ns);
			sp_fmt_duration(t2, sizeof(t2), r->total_ns);
			fmt_time_rate(rate, sizeof(rate), sp_time_rate(r, r->total_delta_ns));
			fprintf(fp, "  dtime %s  time/s %s  time %s", t1, rate, t2);
		}
	} else {
		fprintf(fp, "total %llu", (unsigned long long)r->total);
		if (r->time) {
			sp_fmt_duration(t1, sizeof(t1), r->total_ns);
			fprintf(fp, "  time %s", t1);
		}
	}
	fprintf(fp, "  %s %u", what, n);
	if (shown < n)
		fprintf(fp, " (top %u shown)", shown);
	fputc('\n', fp);
}

void sp_table_result(struct sp_out *out, const struct sp_result *r)
{
	enum sp_col cols[SP_MAX_COLS];
	size_t ncols = sp_result_columns(r, cols, true), i, c;
	char *buf = sp_xrealloc(NULL, 4 * SP_MAX_LINE + 64, 1);
	struct grid t;

	print_source(out, r);
	if (out->reset_msg) {
		fprintf(out->fp, "%s\n\n", out->reset_msg);
		free(buf);
		return;
	}
	grid_init(&t, r->nshown + 1, ncols);
	for (c = 0; c < ncols; c++) {
		grid_set(&t, 0, c, col_header(r, cols[c]));
		t.left[c] = cols[c] == SP_COL_COMM || cols[c] == SP_COL_SITE ||
			    cols[c] == SP_COL_KIND;
	}
	for (i = 0; i < r->nshown; i++) {
		const struct sp_group *g = &r->groups[i];

		for (c = 0; c < ncols; c++) {
			switch (cols[c]) {
			case SP_COL_PID:
				snprintf(buf, 32, "%u", g->pid);
				break;
			case SP_COL_TGID:
				snprintf(buf, 32, "%u", g->tgid);
				break;
			case SP_COL_COUNT:
				snprintf(buf, 32, "%llu", (unsigned long long)g->count);
				break;
			case SP_COL_DELTA:
				snprintf(buf, 32, "%llu", (unsigned long long)g->delta);
				break;
			case SP_COL_PCT:
				fmt_pct(buf, 32, sp_group_value(r, g), sp_result_value(r));
				break;
			case SP_COL_TIME:
				sp_fmt_duration(buf, 32, g->total_ns);
				break;
			case SP_COL_DTIME:
				sp_fmt_duration(buf, 32, g->delta_ns);
				break;
			case SP_COL_TRATE:
				fmt_time_rate(buf, 32, sp_time_rate(r, g->delta_ns));
				break;
			case SP_COL_MEAN: {
				sp_u128 mean;

				if (sp_group_mean(r, g, &mean))
					sp_fmt_duration(buf, 32, mean);
				else
					snprintf(buf, 32, "-");
				break;
			}
			case SP_COL_MAX:
				sp_fmt_duration(buf, 32, g->max_ns);
				break;
			case SP_COL_KIND:
				snprintf(buf, 32, "%s", sp_kind_name(g->kind));
				break;
			case SP_COL_RATE:
				fmt_rate(buf, 32, sp_rate(r, g->delta));
				break;
			case SP_COL_TASKS:
				snprintf(buf, 32, "%u", g->ntasks);
				break;
			case SP_COL_SITES:
				snprintf(buf, 32, "%u", g->nsites);
				break;
			case SP_COL_COMM:
				comm_cell(r, g, buf);
				break;
			case SP_COL_SITE:
				snprintf(buf, 4 * SP_MAX_LINE + 64, "%s", sp_site_name(r, g));
				break;
			}
			grid_set(&t, i + 1, c, buf);
		}
	}
	fputc('\n', out->fp);
	grid_print(&t, out->fp);
	fputc('\n', out->fp);
	footer(out, r, r->keys & SP_K_SITE ?
	       (r->keys & SP_K_PID ? "rows" :
		r->o->group == SP_GROUP_KIND ? "kinds" : "sites") : "tasks",
	       r->ngroups, r->nshown);
	free(buf);
}

/* A value of the view (count or time) for a cell of the matrix. */
static void fmt_value(const struct sp_result *r, char *buf, size_t len,
		      sp_u128 v)
{
	if (r->by_time) {
		sp_fmt_duration(buf, len, v);
	} else {
		char digits[SP_U128_DIGITS];

		snprintf(buf, len, "%s", sp_u128_str(digits, v));
	}
}

void sp_table_matrix(struct sp_out *out, const struct sp_matrix *m)
{
	const struct sp_result *rows = &m->tasks, *cols = &m->sites;
	size_t ncols = 4 + cols->nshown, i, c;
	char buf[4 * 64 + 64];
	struct grid t;
	static const char *const total_name[2][2] = {
		{ "TOTAL", "DELTA" }, { "TIME", "DTIME" },
	};

	print_source(out, rows);
	if (out->reset_msg) {
		fprintf(out->fp, "%s\n\n", out->reset_msg);
		return;
	}
	grid_init(&t, rows->nshown + 2, ncols);
	grid_set(&t, 0, 0, "PID");
	grid_set(&t, 0, 1, "TGID");
	grid_set(&t, 0, 2, "COMM");
	t.left[2] = true;
	grid_set(&t, 0, 3, total_name[rows->by_time][rows->delta]);
	for (c = 0; c < cols->nshown; c++) {
		snprintf(buf, sizeof(buf), "S%zu", c + 1);
		grid_set(&t, 0, 4 + c, buf);
	}
	for (i = 0; i < rows->nshown; i++) {
		const struct sp_group *g = &rows->groups[i];
		size_t len;
		const char *comm = sp_group_comm(rows, g, &len);

		snprintf(buf, sizeof(buf), "%u", g->pid);
		grid_set(&t, i + 1, 0, buf);
		snprintf(buf, sizeof(buf), "%u", g->tgid);
		grid_set(&t, i + 1, 1, buf);
		if (len > 64)
			len = 64;
		sp_escape(buf, comm, len, 0);
		grid_set(&t, i + 1, 2, buf);
		fmt_value(rows, buf, sizeof(buf), sp_group_value(rows, g));
		grid_set(&t, i + 1, 3, buf);
		for (c = 0; c < cols->nshown; c++) {
			sp_u128 v = sp_matrix_cell(m, g, &cols->groups[c]);

			if (v)
				fmt_value(rows, buf, sizeof(buf), v);
			else
				snprintf(buf, sizeof(buf), ".");
			grid_set(&t, i + 1, 4 + c, buf);
		}
	}
	grid_set(&t, rows->nshown + 1, 2, "(all tasks)");
	fmt_value(rows, buf, sizeof(buf), sp_result_value(rows));
	grid_set(&t, rows->nshown + 1, 3, buf);
	for (c = 0; c < cols->nshown; c++) {
		fmt_value(rows, buf, sizeof(buf), sp_group_value(cols, &cols->groups[c]));
		grid_set(&t, rows->nshown + 1, 4 + c, buf);
	}
	fputc('\n', out->fp);
	grid_print(&t, out->fp);
	fputc('\n', out->fp);
	for (c = 0; c < cols->nshown; c++) {
		const struct sp_group *g = &cols->groups[c];

		if (cols->keys & SP_K_KIND)
			fprintf(out->fp, "S%zu  %-12s  %s\n", c + 1,
				sp_kind_name(g->kind), sp_site_name(cols, g));
		else
			fprintf(out->fp, "S%zu  %s\n", c + 1, sp_site_name(cols, g));
	}
	fputc('\n', out->fp);
	footer(out, rows, "tasks", rows->ngroups, rows->nshown);
	if (cols->nshown < cols->ngroups)
		fprintf(out->fp, "%u %ss, top %u shown\n", cols->ngroups,
			sp_site_label(rows->o), cols->nshown);
}
