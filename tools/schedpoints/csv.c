// SPDX-License-Identifier: GPL-2.0-only
/*
 * CSV: a header line with the column names of the view (the same names as
 * the JSON keys), one line per group.  Task names are written as they are
 * (the bytes the kernel had, not the escaped form of the file): a field is
 * quoted when it holds a comma, a double quote, a control byte (CR, LF,
 * TAB, ...) or starts or ends with a space, and a double quote inside is
 * doubled (RFC 4180); a field that starts with = + - @ TAB CR or ' gets a '
 * before it (formula_like()).  Lines end with LF.  In top mode every line starts
 * with the sample number and the header is printed once.
 */
#include <stdlib.h>
#include <string.h>

#include "schedpoints.h"

static bool needs_quotes(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return false;
	if (s[0] == ' ' || s[len - 1] == ' ')
		return true;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == ',' || c == '"' || c < 0x20 || c == 0x7f)
			return true;
	}
	return false;
}

/*
 * A field a spreadsheet would run as a formula: starting with = + - @,
 * TAB or CR (a task can name itself "=HYPERLINK(...)").  As OWASP's CSV
 * injection advice says, it is written quoted with a ' before it; a field
 * that starts with ' gets one too, so that taking one leading ' off any
 * field that has one gives the name back.  No number the tool writes
 * starts with one of them.
 */
static bool formula_like(const char *s, size_t len)
{
	return len && s[0] && strchr("=+-@\t\r'", s[0]);
}

static void csv_field(FILE *fp, const char *s, size_t len)
{
	size_t i;
	bool formula = formula_like(s, len);

	if (!formula && !needs_quotes(s, len)) {
		fwrite(s, 1, len, fp);
		return;
	}
	fputc('"', fp);
	if (formula)
		fputc('\'', fp);
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			fputc('"', fp);
		fputc(s[i], fp);
	}
	fputc('"', fp);
}

static void csv_cell(FILE *fp, const struct sp_cell *cell, char *buf)
{
	size_t len;
	const char *s = sp_cell_text(cell, false, buf, SP_CELL_BUF, &len);

	csv_field(fp, s, len);
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
	size_t ncols = sp_result_columns(r, cols, 0), i, c;
	FILE *fp = out->fp;
	char *buf;

	if (out->reset_msg)
		return;
	if (csv_header(out)) {
		for (c = 0; c < ncols; c++)
			fprintf(fp, "%s%s", c ? "," : "", sp_col_name(r, cols[c]));
		fputc('\n', fp);
	}
	buf = sp_xrealloc(NULL, SP_CELL_BUF, 1);
	for (i = 0; i < r->nshown; i++) {
		if (out->sample)
			fprintf(fp, "%lu,", out->sample);
		for (c = 0; c < ncols; c++) {
			struct sp_cell cell;

			if (c)
				fputc(',', fp);
			sp_cell_get(r, &r->groups[i], cols[c], &cell);
			csv_cell(fp, &cell, buf);
		}
		fputc('\n', fp);
	}
	free(buf);
}

/*
 * Matrix: the row labels (pid,tgid,comm by --by), VALUE, then one column
 * per site, VALUE being count, delta, total_ns or delta_ns (--value,
 * interval mode).  The first line names the sites ("kind:site" when columns
 * are split by kind); cells are plain numbers, 0 where nothing was seen.
 */
void sp_csv_matrix(struct sp_out *out, const struct sp_matrix *m)
{
	static const char *const value_name[2][2] = {
		{ "count", "delta" }, { "total_ns", "delta_ns" },
	};
	const struct sp_result *rows = &m->tasks, *cols = &m->sites;
	enum sp_col labels[SP_MAX_COLS];
	size_t nlabels = sp_label_columns(rows, labels), i, c;
	FILE *fp = out->fp;
	char *buf;

	if (out->reset_msg)
		return;
	buf = sp_xrealloc(NULL, SP_CELL_BUF, 1);
	if (csv_header(out)) {
		for (c = 0; c < nlabels; c++)
			fprintf(fp, "%s,", sp_col_name(rows, labels[c]));
		fputs(value_name[rows->by_time][rows->delta], fp);
		for (c = 0; c < cols->nshown; c++) {
			sp_column_label(cols, &cols->groups[c], buf, SP_CELL_BUF);
			fputc(',', fp);
			csv_field(fp, buf, strlen(buf));
		}
		fputc('\n', fp);
	}
	for (i = 0; i < rows->nshown; i++) {
		const struct sp_group *g = &rows->groups[i];
		struct sp_cell cell;

		if (out->sample)
			fprintf(fp, "%lu,", out->sample);
		for (c = 0; c < nlabels; c++) {
			sp_cell_get(rows, g, labels[c], &cell);
			csv_cell(fp, &cell, buf);
			fputc(',', fp);
		}
		sp_value_cell(rows, sp_group_value(rows, g), &cell);
		csv_cell(fp, &cell, buf);
		for (c = 0; c < cols->nshown; c++) {
			fputc(',', fp);
			sp_value_cell(rows, sp_matrix_cell(m, g, &cols->groups[c]), &cell);
			csv_cell(fp, &cell, buf);
		}
		fputc('\n', fp);
	}
	free(buf);
}

/*
 * A row per non-empty histogram bucket of each shown group (--buckets, and
 * the hist command): the group's label columns, then the bucket (K of the
 * format), its bounds in ns (upper exclusive; empty for the last bucket,
 * which has none) and its calls (in interval mode, the interval's).  With
 * the split, two more columns, wait_count and delay_count: the calls of the
 * bucket in the wait's and the run delay's histograms, and a row for every
 * bucket any of the three holds (count 0 where only those two do), so that
 * count still sums to the calls.
 */
void sp_csv_buckets(struct sp_out *out, const struct sp_result *r)
{
	enum sp_col labels[SP_MAX_COLS];
	size_t nlabels = sp_label_columns(r, labels), c;
	FILE *fp = out->fp;
	uint32_t i;
	char *buf;

	if (out->reset_msg)
		return;
	if (csv_header(out)) {
		for (c = 0; c < nlabels; c++)
			fprintf(fp, "%s,", sp_col_name(r, labels[c]));
		fputs(r->split ? "bucket,lower_ns,upper_ns,count,wait_count,delay_count\n" :
				 "bucket,lower_ns,upper_ns,count\n", fp);
	}
	buf = sp_xrealloc(NULL, SP_CELL_BUF, 1);
	for (i = 0; i < r->nshown; i++) {
		const struct sp_hist *h = sp_group_hist(r, &r->groups[i]);
		const struct sp_hist *wh = sp_group_split_hist(r, &r->groups[i], SP_SPLIT_WAIT);
		const struct sp_hist *dh = sp_group_split_hist(r, &r->groups[i], SP_SPLIT_DELAY);
		unsigned b;

		for (b = 0; h && b < SP_HIST_N; b++) {
			if (!h->n[b] && !(wh && wh->n[b]) && !(dh && dh->n[b]))
				continue;
			if (out->sample)
				fprintf(fp, "%lu,", out->sample);
			for (c = 0; c < nlabels; c++) {
				struct sp_cell cell;

				sp_cell_get(r, &r->groups[i], labels[c], &cell);
				csv_cell(fp, &cell, buf);
				fputc(',', fp);
			}
			fprintf(fp, "%u,%llu,", SP_HIST_MIN + b,
				(unsigned long long)sp_hist_lower(b));
			if (sp_hist_upper(b))
				fprintf(fp, "%llu", (unsigned long long)sp_hist_upper(b));
			fprintf(fp, ",%llu", (unsigned long long)h->n[b]);
			if (r->split)
				fprintf(fp, ",%llu,%llu", (unsigned long long)(wh ? wh->n[b] : 0),
					(unsigned long long)(dh ? dh->n[b] : 0));
			fputc('\n', fp);
		}
	}
	free(buf);
}

/*
 * blocked: a row per task shown, its site's figures repeated on each of
 * its rows: site,tasks,longest_ns,pid,tgid,comm,kind,state,waiting_ns.
 */
void sp_csv_blocked(struct sp_out *out, const struct sp_blocked *b)
{
	FILE *fp = out->fp;
	uint32_t i, k;

	fputs("site,tasks,longest_ns,pid,tgid,comm,kind,state,waiting_ns\n", fp);
	for (i = 0; i < b->nsites; i++) {
		const struct sp_bsite *s = &b->sites[i];

		for (k = s->first; k < s->first + s->ntasks; k++) {
			const struct sp_btask *t = &b->tasks[b->order[k]];

			csv_field(fp, sp_pool_str(&b->syms, s->sym),
				  sp_pool_len(&b->syms, s->sym));
			fprintf(fp, ",%u,%llu,%u,%u,", s->ntasks,
				(unsigned long long)s->longest_ns, t->pid, t->tgid);
			csv_field(fp, sp_pool_str(&b->comms, t->comm),
				  sp_pool_len(&b->comms, t->comm));
			fprintf(fp, ",%s,%c,%llu\n", sp_kind_name(t->kind), t->state,
				(unsigned long long)t->waiting_ns);
		}
	}
}

/*
 * wakers, wakes, chain: a header of the column names, a row per row (per
 * hop).  chain: stop is the word of why it stopped, in a last column
 * "stop", on the last hop's row only.
 */
void sp_csv_wtab(struct sp_out *out, const struct sp_wtab *t, const char *stop)
{
	FILE *fp = out->fp;
	char *buf = sp_xrealloc(NULL, SP_CELL_BUF, 1);
	size_t i, c;

	for (c = 0; c < t->ncols; c++)
		fprintf(fp, "%s%s", c ? "," : "", sp_wcol_name(t->cols[c]));
	fputs(stop ? ",stop\n" : "\n", fp);
	for (i = 0; i < t->nrows; i++) {
		for (c = 0; c < t->ncols; c++) {
			struct sp_cell cell;

			if (c)
				fputc(',', fp);
			t->cell(t->ctx, i, t->cols[c], &cell);
			csv_cell(fp, &cell, buf);
		}
		if (stop)
			fprintf(fp, ",%s", i + 1 == t->nrows ? stop : "");
		fputc('\n', fp);
	}
	free(buf);
}
