// SPDX-License-Identifier: GPL-2.0-only
/*
 * CSV: a header line with the column names of the view (the same names as
 * the JSON keys), one line per group.  A field is quoted when it holds a
 * comma, a double quote, a CR or LF or starts or ends with a space, and a
 * double quote inside is doubled (RFC 4180).  Lines end with LF.  In top
 * mode every line starts with the sample number and the header is printed
 * once.
 */
#include <stdlib.h>
#include <string.h>

#include "schedpoints.h"

static void csv_field(FILE *fp, const char *s, size_t len)
{
	size_t i;

	if (len && !strpbrk(s, ",\"\r\n") && s[0] != ' ' && s[len - 1] != ' ') {
		fwrite(s, 1, len, fp);
		return;
	}
	if (!len)
		return;
	fputc('"', fp);
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			fputc('"', fp);
		fputc(s[i], fp);
	}
	fputc('"', fp);
}

static void csv_text(FILE *fp, const char *raw, size_t len)
{
	char small[256];
	char *buf = small;

	if (len > (sizeof(small) - 1) / 4)
		buf = sp_xrealloc(NULL, len, 5);
	csv_field(fp, buf, sp_escape(buf, raw, len, 0));
	if (buf != small)
		free(buf);
}

static void csv_rate(FILE *fp, double rate)
{
	if (rate >= 0)
		fprintf(fp, "%.3f", rate);
}

static void csv_u128(FILE *fp, sp_u128 v)
{
	char digits[SP_U128_DIGITS];

	fputs(sp_u128_str(digits, v), fp);
}

static bool csv_header(struct sp_out *out)
{
	if (out->header_done)
		return false;
	out->header_done = true;
	if (out->sample)
		fputs("sample,", out->fp);
	return true;
}

void sp_csv_result(struct sp_out *out, const struct sp_result *r)
{
	enum sp_col cols[SP_MAX_COLS];
	size_t ncols = sp_result_columns(r, cols, false), i, c;
	FILE *fp = out->fp;

	if (out->reset_msg)
		return;
	if (csv_header(out)) {
		for (c = 0; c < ncols; c++)
			fprintf(fp, "%s%s", c ? "," : "", sp_col_name(r, cols[c]));
		fputc('\n', fp);
	}
	for (i = 0; i < r->nshown; i++) {
		const struct sp_group *g = &r->groups[i];
		size_t len;
		const char *s;

		if (out->sample)
			fprintf(fp, "%lu,", out->sample);
		for (c = 0; c < ncols; c++) {
			if (c)
				fputc(',', fp);
			switch (cols[c]) {
			case SP_COL_PID:
				fprintf(fp, "%u", g->pid);
				break;
			case SP_COL_TGID:
				fprintf(fp, "%u", g->tgid);
				break;
			case SP_COL_COUNT:
				fprintf(fp, "%llu", (unsigned long long)g->count);
				break;
			case SP_COL_DELTA:
				fprintf(fp, "%llu", (unsigned long long)g->delta);
				break;
			case SP_COL_PCT:
				break;
			case SP_COL_TIME:
				csv_u128(fp, g->total_ns);
				break;
			case SP_COL_DTIME:
				csv_u128(fp, g->delta_ns);
				break;
			case SP_COL_TRATE: {
				double tr = sp_time_rate(r, g->delta_ns);

				if (tr >= 0)
					fprintf(fp, "%.6f", tr);
				break;
			}
			case SP_COL_MEAN: {
				sp_u128 mean;

				if (sp_group_mean(r, g, &mean))
					csv_u128(fp, mean);
				break;
			}
			case SP_COL_MAX:
				fprintf(fp, "%llu", (unsigned long long)g->max_ns);
				break;
			case SP_COL_KIND:
				fputs(sp_kind_name(g->kind), fp);
				break;
			case SP_COL_RATE:
				csv_rate(fp, sp_rate(r, g->delta));
				break;
			case SP_COL_TASKS:
				fprintf(fp, "%u", g->ntasks);
				break;
			case SP_COL_SITES:
				fprintf(fp, "%u", g->nsites);
				break;
			case SP_COL_COMM:
				s = sp_group_comm(r, g, &len);
				csv_text(fp, s, len);
				break;
			case SP_COL_SITE:
				s = sp_site_name(r, g);
				csv_field(fp, s, strlen(s));
				break;
			}
		}
		fputc('\n', fp);
	}
}

/*
 * Matrix: pid,tgid,comm,VALUE,<one column per site>, VALUE being count,
 * delta, total_ns or delta_ns (--value, interval mode).  The first line
 * names the sites ("kind:site" when columns are split by kind); cells are
 * plain numbers, 0 where nothing was seen.
 */
void sp_csv_matrix(struct sp_out *out, const struct sp_matrix *m)
{
	static const char *const value_name[2][2] = {
		{ "count", "delta" }, { "total_ns", "delta_ns" },
	};
	const struct sp_result *rows = &m->tasks, *cols = &m->sites;
	FILE *fp = out->fp;
	size_t i, c;

	if (out->reset_msg)
		return;
	if (csv_header(out)) {
		size_t blen = SP_MAX_LINE + 32;
		char *buf = sp_xrealloc(NULL, blen, 1);

		fprintf(fp, "pid,tgid,comm,%s", value_name[rows->by_time][rows->delta]);
		for (c = 0; c < cols->nshown; c++) {
			sp_column_label(cols, &cols->groups[c], buf, blen);
			fputc(',', fp);
			csv_field(fp, buf, strlen(buf));
		}
		fputc('\n', fp);
		free(buf);
	}
	for (i = 0; i < rows->nshown; i++) {
		const struct sp_group *g = &rows->groups[i];
		size_t len;
		const char *s = sp_group_comm(rows, g, &len);

		if (out->sample)
			fprintf(fp, "%lu,", out->sample);
		fprintf(fp, "%u,%u,", g->pid, g->tgid);
		csv_text(fp, s, len);
		fputc(',', fp);
		csv_u128(fp, sp_group_value(rows, g));
		for (c = 0; c < cols->nshown; c++) {
			fputc(',', fp);
			csv_u128(fp, sp_matrix_cell(m, g, &cols->groups[c]));
		}
		fputc('\n', fp);
	}
}
