// SPDX-License-Identifier: GPL-2.0-only
/*
 * Aligned table for people.  Columns are padded to their widest cell:
 * numbers right-aligned, names left-aligned, the last column not padded.
 * The cells are formatted twice, once to measure and once to print, and
 * never stored: a table of any size costs the memory of one cell.  Task
 * names are shown in display form (see sp_escape()) so that no name can
 * move the cursor or forge a row.
 */
#include <stdlib.h>
#include <string.h>

#include "schedpoints.h"

/* Where the cells of a table come from: a header row and nrows rows. */
struct table_src {
	size_t nrows, ncols;
	const char *(*header)(const void *ctx, size_t c, char *buf, size_t len);
	bool (*left)(const void *ctx, size_t c);
	void (*cell)(const void *ctx, size_t row, size_t c, struct sp_cell *cell);
	const void *ctx;
};

/* Display width: count UTF-8 lead bytes, not continuation bytes. */
static size_t text_width(const char *s, size_t len)
{
	size_t w = 0, i;

	for (i = 0; i < len; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

/* Text of cell (row, c); row SIZE_MAX is the header. */
static const char *table_text(const struct table_src *t, size_t row, size_t c,
			      char *buf, size_t *len)
{
	struct sp_cell cell;

	if (row == SIZE_MAX) {
		const char *s = t->header(t->ctx, c, buf, SP_CELL_BUF);

		*len = strlen(s);
		return s;
	}
	t->cell(t->ctx, row, c, &cell);
	return sp_cell_text(&cell, true, buf, SP_CELL_BUF, len);
}

static void table_write(FILE *fp, const struct table_src *t)
{
	size_t *width = sp_xrealloc(NULL, t->ncols ? t->ncols : 1, sizeof(*width));
	char *buf = sp_xrealloc(NULL, SP_CELL_BUF, 1);
	size_t row, c, len;
	const char *s;

	memset(width, 0, t->ncols * sizeof(*width));
	for (row = SIZE_MAX;; row++) {		/* the header, then the rows */
		if (row != SIZE_MAX && row >= t->nrows)
			break;
		for (c = 0; c < t->ncols; c++) {
			s = table_text(t, row, c, buf, &len);
			len = text_width(s, len);
			if (len > width[c])
				width[c] = len;
		}
	}
	for (row = SIZE_MAX;; row++) {
		if (row != SIZE_MAX && row >= t->nrows)
			break;
		for (c = 0; c < t->ncols; c++) {
			size_t pad;

			s = table_text(t, row, c, buf, &len);
			pad = width[c] - text_width(s, len);
			if (c)
				fputs("  ", fp);
			if (t->left(t->ctx, c)) {
				fwrite(s, 1, len, fp);
				if (c + 1 < t->ncols)
					fprintf(fp, "%*s", (int)pad, "");
			} else {
				fprintf(fp, "%*s", (int)pad, "");
				fwrite(s, 1, len, fp);
			}
		}
		fputc('\n', fp);
	}
	free(buf);
	free(width);
}

static void print_source(struct sp_out *out, const struct sp_result *r)
{
	const struct sp_store *st = r->st;
	const struct sp_summary *s = &st->sum;
	const char *names[] = { "enabled", "time", "kinds", "hist", "cpus",
				"capacity", "used", "entries", "dropped",
				"folded" };
	const int64_t vals[] = { s->enabled, s->time, s->kinds, s->hist, s->cpus,
				 s->capacity, s->used, s->entries, s->dropped,
				 s->folded };
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
		const char *from = out->interval_from;

		if (r->interval > 0)
			fprintf(out->fp, "  interval %.2f s (%s)", r->interval,
				!from ? "?" :
				!strcmp(from, SP_IVL_MTIME) ? "from the files' modification times, -i sets it" :
				!strcmp(from, SP_IVL_READS) ? "measured between reads" : "-i");
		else
			fputs("  interval unknown (-i sets it)", out->fp);
	}
	fputc('\n', out->fp);
	if (s->dropped > 0)
		fprintf(out->fp,
			"warning: %lld hits were dropped (a table was full): counts are lower bounds\n",
			(long long)s->dropped);
}

/* The text of column c for the whole result, as the column writes it. */
static const char *total_text(const struct sp_result *r, enum sp_col c,
			      char *buf, size_t len)
{
	struct sp_group all = {
		.count = r->total, .delta = r->total_delta,
		.total_ns = r->total_ns, .delta_ns = r->total_delta_ns,
	};
	struct sp_cell cell;
	size_t n;

	sp_cell_get(r, &all, c, &cell);
	/* numbers, rates and durations: always buf, NUL-terminated */
	return sp_cell_text(&cell, true, buf, len, &n);
}

static void footer(struct sp_out *out, const struct sp_result *r,
		   const char *what, uint32_t n, uint32_t shown)
{
	FILE *fp = out->fp;
	char a[64];

	if (r->delta) {
		char b[64], c[64];

		fprintf(fp, "delta %s  rate %s/s  total %s",
			total_text(r, SP_COL_DELTA, a, sizeof(a)),
			total_text(r, SP_COL_RATE, b, sizeof(b)),
			total_text(r, SP_COL_COUNT, c, sizeof(c)));
		fprintf(fp, "  dtime %s  time/s %s  time %s",
			total_text(r, SP_COL_DTIME, a, sizeof(a)),
			total_text(r, SP_COL_TRATE, b, sizeof(b)),
			total_text(r, SP_COL_TIME, c, sizeof(c)));
	} else {
		fprintf(fp, "total %s", total_text(r, SP_COL_COUNT, a, sizeof(a)));
		fprintf(fp, "  time %s", total_text(r, SP_COL_TIME, a, sizeof(a)));
	}
	fprintf(fp, "  %s %u", what, n);
	if (shown < n)
		fprintf(fp, " (top %u shown)", shown);
	fputc('\n', fp);
}

/* ---- one-dimensional views ------------------------------------------- */

struct result_table {
	const struct sp_result *r;
	enum sp_col cols[SP_MAX_COLS];
};

static const char *result_header(const void *ctx, size_t c, char *buf,
				 size_t len)
{
	const struct result_table *t = ctx;

	(void)buf;
	(void)len;
	return sp_col_header(t->r, t->cols[c]);
}

static bool result_left(const void *ctx, size_t c)
{
	const struct result_table *t = ctx;

	return sp_col_left(t->cols[c]);
}

static void result_cell(const void *ctx, size_t row, size_t c,
			struct sp_cell *cell)
{
	const struct result_table *t = ctx;

	sp_cell_get(t->r, &t->r->groups[row], t->cols[c], cell);
}

void sp_table_result(struct sp_out *out, const struct sp_result *r)
{
	struct result_table t = { .r = r };
	struct table_src src = {
		.nrows = r->nshown, .header = result_header, .left = result_left,
		.cell = result_cell, .ctx = &t,
	};

	print_source(out, r);
	if (out->reset_msg) {
		fprintf(out->fp, "%s\n\n", out->reset_msg);
		return;
	}
	src.ncols = sp_result_columns(r, t.cols, SP_COLS_PEOPLE | SP_COLS_TASKS |
				      (r->o->split ? SP_COLS_SPLIT : 0));
	fputc('\n', out->fp);
	table_write(out->fp, &src);
	fputc('\n', out->fp);
	footer(out, r, r->keys & SP_K_SITE ?
	       (r->keys & SP_K_PID ? "rows" :
		r->o->group == SP_GROUP_KIND ? "kinds" : "sites") : "tasks",
	       r->ngroups, r->nshown);
}

/* ---- the matrix ---------------------------------------------------------- */

/*
 * Columns: the row labels (pid, tgid, comm by --by), the row's value, then
 * S1..Sn, one per shown site; a last row "(all tasks)" holds the column
 * totals.
 */
struct matrix_table {
	const struct sp_matrix *m;
	enum sp_col labels[SP_MAX_COLS];
	size_t nlabels;
};

static const char *matrix_header(const void *ctx, size_t c, char *buf,
				 size_t len)
{
	static const char *const total_name[2][2] = {
		{ "TOTAL", "DELTA" }, { "TIME", "DTIME" },
	};
	const struct matrix_table *t = ctx;
	const struct sp_result *rows = &t->m->tasks;

	if (c < t->nlabels)
		return sp_col_header(rows, t->labels[c]);
	if (c == t->nlabels)
		return total_name[rows->by_time][rows->delta];
	snprintf(buf, len, "S%zu", c - t->nlabels);
	return buf;
}

static bool matrix_left(const void *ctx, size_t c)
{
	const struct matrix_table *t = ctx;

	return c < t->nlabels && sp_col_left(t->labels[c]);
}

static void matrix_cell(const void *ctx, size_t row, size_t c,
			struct sp_cell *cell)
{
	const struct matrix_table *t = ctx;
	const struct sp_result *rows = &t->m->tasks, *cols = &t->m->sites;
	const struct sp_group *g = row < rows->nshown ? &rows->groups[row] : NULL;
	sp_u128 v;

	if (c < t->nlabels) {
		if (g) {
			sp_cell_get(rows, g, t->labels[c], cell);
			if (cell->type == SP_CELL_COMM && cell->len > 64)
				cell->len = 64;
		} else {
			memset(cell, 0, sizeof(*cell));
			cell->type = SP_CELL_WORD;
			cell->s = t->labels[c] == SP_COL_COMM ? "(all tasks)" : "";
			cell->len = strlen(cell->s);
		}
		return;
	}
	if (c == t->nlabels)
		v = g ? sp_group_value(rows, g) : sp_result_value(rows);
	else if (g)
		v = sp_matrix_cell(t->m, g, &cols->groups[c - t->nlabels - 1]);
	else
		v = sp_group_value(cols, &cols->groups[c - t->nlabels - 1]);
	sp_value_cell(rows, v, cell);
	if (!v && g && c > t->nlabels) {	/* an empty cell */
		cell->type = SP_CELL_WORD;
		cell->s = ".";
		cell->len = 1;
	}
}

void sp_table_matrix(struct sp_out *out, const struct sp_matrix *m)
{
	const struct sp_result *rows = &m->tasks, *cols = &m->sites;
	struct matrix_table t = { .m = m };
	struct table_src src = {
		.nrows = (size_t)rows->nshown + 1, .header = matrix_header,
		.left = matrix_left, .cell = matrix_cell, .ctx = &t,
	};
	size_t c;

	print_source(out, rows);
	if (out->reset_msg) {
		fprintf(out->fp, "%s\n\n", out->reset_msg);
		return;
	}
	t.nlabels = sp_label_columns(rows, t.labels);
	/* rows by pid: the tasks of a row of exited tasks, before COMM */
	if ((rows->keys & SP_K_PID) && rows->exited_shown) {
		t.labels[t.nlabels] = t.labels[t.nlabels - 1];
		t.labels[t.nlabels - 1] = SP_COL_TASKS;
		t.nlabels++;
	}
	src.ncols = t.nlabels + 1 + cols->nshown;
	fputc('\n', out->fp);
	table_write(out->fp, &src);
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
		fprintf(out->fp, "%u %ss, top %u shown (--columns)\n", cols->ngroups,
			sp_site_label(rows->o), cols->nshown);
}

/* ---- hist: one point's buckets ------------------------------------------ */

#define BAR_W	40	/* stars of the fullest bucket, as BCC's histograms */

/* A duration for people, as the column writer shows one, into buf. */
static const char *ns_text(sp_u128 ns, char *buf, size_t len)
{
	struct sp_cell cell = { .type = SP_CELL_NS, .u = ns };
	size_t n;

	return sp_cell_text(&cell, true, buf, len, &n);
}

/* "0ns", "1.02us", ...; the last bucket's upper end is max_ns (or "inf"). */
static void bucket_ends(unsigned i, uint64_t max_ns, char *lo, char *hi,
			size_t len)
{
	ns_text(sp_hist_lower(i), lo, len);
	if (sp_hist_upper(i))
		ns_text(sp_hist_upper(i), hi, len);
	else if (max_ns >= sp_hist_lower(i))
		ns_text(max_ns, hi, len);
	else
		snprintf(hi, len, "inf");
}

/* What the point is: the kind and site of the hottest, or X and its spread. */
static void hist_point(struct sp_out *out, const struct sp_result *r,
		       const struct sp_group *g)
{
	FILE *fp = out->fp;

	fputs("point ", fp);
	if (out->o->view_arg) {
		sp_fputs_escaped(fp, out->o->view_arg, strlen(out->o->view_arg), 0);
		fprintf(fp, "  sites %u  tasks %llu\n", g->nsites,
			(unsigned long long)sp_group_tasks(r, g));
		return;
	}
	if (r->keys & SP_K_KIND)
		fprintf(fp, "%s ", sp_kind_name(g->kind));
	fprintf(fp, "%s  tasks %llu  (the first of %u points by %s)\n",
		sp_site_name(r, g), (unsigned long long)sp_group_tasks(r, g),
		r->ngroups,
		out->o->nsort ? sp_sort_name(out->o->sort[0]) :
		r->by_time ? "time" : "count");
}

/*
 * One distribution: its bars under the title (what the time is), then the
 * line of its figures, cols[] as names[] say (d before the interval's).
 */
static void hist_bars(struct sp_out *out, const struct sp_result *r,
		      const struct sp_group *g, const char *title,
		      const struct sp_hist *h, uint64_t max_ns,
		      const char *first_name, const enum sp_col *cols,
		      const char *const *names, size_t ncols)
{
	FILE *fp = out->fp;
	char lo[64], hi[64], buf[64];
	size_t wlo = 0, whi = 0, wn = 8, c;
	unsigned first, last, i;
	uint64_t most = 0;

	if (!sp_hist_range(h, &first, &last)) {
		fprintf(fp, "\nno call in its %s histogram\n", title);
		return;
	}
	for (i = first; i <= last; i++) {
		bucket_ends(i, max_ns, lo, hi, sizeof(lo));
		wlo = strlen(lo) > wlo ? strlen(lo) : wlo;
		whi = strlen(hi) > whi ? strlen(hi) : whi;
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)h->n[i]);
		wn = strlen(buf) > wn ? strlen(buf) : wn;
		most = h->n[i] > most ? h->n[i] : most;
	}
	if (wlo + whi + 4 < 12)
		wlo = 12 - whi - 4;
	fprintf(fp, "\n%*s : %-*s distribution\n", (int)(wlo + whi + 4),
		title, (int)wn, "count");
	for (i = first; i <= last; i++) {
		size_t stars = (size_t)((double)h->n[i] * BAR_W / (double)most);
		char bar[BAR_W + 1];

		memset(bar, '*', stars);
		bar[stars] = '\0';
		bucket_ends(i, max_ns, lo, hi, sizeof(lo));
		fprintf(fp, "%*s -> %-*s : %-*llu |%-*s|\n", (int)wlo, lo, (int)whi, hi,
			(int)wn, (unsigned long long)h->n[i], BAR_W, bar);
	}
	fprintf(fp, "\n%s %llu", first_name, (unsigned long long)sp_hist_calls(h));
	for (c = 0; c < ncols; c++) {
		struct sp_cell cell;
		size_t n;

		sp_cell_get(r, g, cols[c], &cell);
		fprintf(fp, "  %s%s %s", c == 0 && r->delta ? "d" : "", names[c],
			sp_cell_text(&cell, true, buf, sizeof(buf), &n));
	}
	fputc('\n', fp);
}

/*
 * The off-CPU time's distribution; with the split, the wait's and the run
 * delay's after it, each with its own figures (the sums: in interval mode,
 * the interval's).
 */
void sp_table_hist(struct sp_out *out, const struct sp_result *r)
{
	static const char *const names[] = {
		"time", "mean", "p50", "p90", "p99", "max",
	};
	static const char *const wnames[] = {
		"wait", "p50", "p90", "p99", "max",
	};
	static const char *const dnames[] = {
		"delay", "p50", "p90", "p99", "max",
	};
	enum sp_col sums[] = {
		r->delta ? SP_COL_DTIME : SP_COL_TIME, SP_COL_MEAN, SP_COL_P50,
		SP_COL_P90, SP_COL_P99, SP_COL_MAX,
	};
	enum sp_col waits[] = {
		r->delta ? SP_COL_DWAIT : SP_COL_WAIT, SP_COL_WP50, SP_COL_WP90,
		SP_COL_WP99, SP_COL_WMAX,
	};
	enum sp_col delays[] = {
		r->delta ? SP_COL_DDELAY : SP_COL_DELAY, SP_COL_DP50, SP_COL_DP90,
		SP_COL_DP99, SP_COL_DMAX,
	};
	FILE *fp = out->fp;
	const struct sp_group *g;
	unsigned first, last;

	print_source(out, r);
	if (out->reset_msg) {
		fprintf(fp, "%s\n\n", out->reset_msg);
		return;
	}
	fputc('\n', fp);
	if (!r->nshown) {
		fputs("no schedule point with a histogram\n", fp);
		return;
	}
	g = &r->groups[0];
	hist_point(out, r, g);
	if (!sp_hist_range(sp_group_hist(r, g), &first, &last)) {
		fputs("no call in its histogram\n", fp);
		return;
	}
	hist_bars(out, r, g, "off-CPU time", sp_group_hist(r, g), g->max_ns,
		  "calls", sums, names, sizeof(sums) / sizeof(sums[0]));
	if (!r->split)
		return;
	hist_bars(out, r, g, "wait", sp_group_split_hist(r, g, SP_SPLIT_WAIT),
		  sp_group_split_max(r, g, SP_SPLIT_WAIT), "calls", waits,
		  wnames, sizeof(waits) / sizeof(waits[0]));
	hist_bars(out, r, g, "run delay", sp_group_split_hist(r, g, SP_SPLIT_DELAY),
		  sp_group_split_max(r, g, SP_SPLIT_DELAY), "calls", delays,
		  dnames, sizeof(delays) / sizeof(delays[0]));
}

/* ---- blocked: the tasks blocked now, by call site ------------------------ */

/*
 * One row per task shown, its site's rows together; the site's columns
 * (SITE, TASKS, LONGEST) on the first row of each site only, empty below,
 * so the table reads as groups.
 */
enum { BT_SITE, BT_TASKS, BT_LONGEST, BT_PID, BT_TGID, BT_KIND, BT_STATE,
       BT_WAITING, BT_COMM, BT_N };

static const char *blocked_header(const void *ctx, size_t c, char *buf,
				  size_t len)
{
	static const char *const h[BT_N] = {
		"SITE", "TASKS", "LONGEST", "PID", "TGID", "KIND", "STATE",
		"WAITING", "COMM",
	};

	(void)ctx;
	(void)buf;
	(void)len;
	return h[c];
}

static bool blocked_left(const void *ctx, size_t c)
{
	(void)ctx;
	return c == BT_SITE || c == BT_KIND || c == BT_STATE || c == BT_COMM;
}

/* The site of shown row 'row' (sites[] hold consecutive runs of rows). */
static const struct sp_bsite *blocked_site_of(const struct sp_blocked *b,
					      size_t row)
{
	uint32_t lo = 0, hi = b->nsites;

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (b->sites[mid].first <= row)
			lo = mid;
		else
			hi = mid;
	}
	return &b->sites[lo];
}

static void blocked_cell(const void *ctx, size_t row, size_t c,
			 struct sp_cell *cell)
{
	const struct sp_blocked *b = ctx;
	const struct sp_bsite *s = blocked_site_of(b, row);
	const struct sp_btask *t = &b->tasks[b->order[row]];
	bool first = s->first == row;

	memset(cell, 0, sizeof(*cell));
	cell->type = SP_CELL_WORD;	/* "": a site's column below its first row */
	cell->s = "";
	switch (c) {
	case BT_SITE:
		if (first) {
			cell->s = sp_pool_str(&b->syms, s->sym);
			cell->len = sp_pool_len(&b->syms, s->sym);
		}
		break;
	case BT_TASKS:
		if (first) {
			cell->type = SP_CELL_UINT;
			cell->u = s->ntasks;
		}
		break;
	case BT_LONGEST:
		if (first) {
			cell->type = SP_CELL_NS;
			cell->u = s->longest_ns;
		}
		break;
	case BT_PID:
		cell->type = SP_CELL_UINT;
		cell->u = t->pid;
		break;
	case BT_TGID:
		cell->type = SP_CELL_UINT;
		cell->u = t->tgid;
		break;
	case BT_KIND:
		cell->s = sp_kind_name(t->kind);
		cell->len = strlen(cell->s);
		break;
	case BT_STATE:
		cell->s = &t->state;
		cell->len = 1;
		break;
	case BT_WAITING:
		cell->type = SP_CELL_NS;
		cell->u = t->waiting_ns;
		break;
	default:
		cell->type = SP_CELL_COMM;
		cell->s = sp_pool_str(&b->comms, t->comm);
		cell->len = sp_pool_len(&b->comms, t->comm);
		break;
	}
}

void sp_table_blocked(struct sp_out *out, const struct sp_blocked *b)
{
	struct table_src src = {
		.nrows = b->nshown, .ncols = BT_N, .header = blocked_header,
		.left = blocked_left, .cell = blocked_cell, .ctx = b,
	};
	FILE *fp = out->fp;
	char t1[64];

	fputs("source ", fp);
	sp_fputs_escaped(fp, b->name, strlen(b->name), SP_ESC_SPACE);
	fprintf(fp, "  version 1  enabled %lld  mode %s  time %lld  entries %lld",
		(long long)b->enabled, sp_mode_name(b->mode), (long long)b->time,
		(long long)b->entries);
	if (b->min_ns)
		fprintf(fp, "  min %s", ns_text(b->min_ns, t1, sizeof(t1)));
	fputc('\n', fp);
	if (!b->enabled || !b->time)
		fprintf(fp, "note: %s is off: no task is shown (only timed calls since the last enable are)\n",
			!b->enabled ? "accounting" : "the time switch");
	if (b->nshown) {
		fputc('\n', fp);
		table_write(fp, &src);
	}
	fprintf(fp, "\ntasks %u", b->nshown);
	if (b->nshown < b->ntasks)
		fprintf(fp, " (of %u, waiting %s or more)", b->ntasks,
			ns_text(b->min_ns, t1, sizeof(t1)));
	fprintf(fp, "  sites %u", b->nsites);
	if (b->nshown)
		fprintf(fp, "  longest %s", ns_text(b->longest_ns, t1, sizeof(t1)));
	fputc('\n', fp);
}

/* ---- wakers, wakes, chain: /proc/sched_points_wakers --------------------- */

static const char *wtab_header(const void *ctx, size_t c, char *buf, size_t len)
{
	const struct sp_wtab *t = ctx;

	(void)buf;
	(void)len;
	return sp_wcol_header(t->cols[c]);
}

static bool wtab_left(const void *ctx, size_t c)
{
	const struct sp_wtab *t = ctx;

	return sp_wcol_left(t->cols[c]);
}

static void wtab_cell(const void *ctx, size_t row, size_t c, struct sp_cell *cell)
{
	const struct sp_wtab *t = ctx;

	t->cell(t->ctx, row, t->cols[c], cell);
}

static void wtab_write(FILE *fp, const struct sp_wtab *t)
{
	struct table_src src = {
		.nrows = t->nrows, .ncols = t->ncols, .header = wtab_header,
		.left = wtab_left, .cell = wtab_cell, .ctx = t,
	};

	table_write(fp, &src);
}

/* The source line of /proc/sched_points_wakers: its summary. */
static void wakers_source(FILE *fp, const char *word, const struct sp_wakers *w)
{
	fprintf(fp, "%s ", word);
	sp_fputs_escaped(fp, w->name, strlen(w->name), SP_ESC_SPACE);
	fprintf(fp, "  version 1  enabled %lld  mode %s  wakers %lld  hist %lld  entries %lld  unlisted %lld\n",
		(long long)w->enabled, sp_mode_name(w->mode), (long long)w->wakers,
		(long long)w->hist, (long long)w->entries, (long long)w->unlisted);
}

/*
 * wakers SITE, wakes SITE: the source, what SITE matched, the rows, the
 * sums.  A note when the wakers switch is off (the lines are what it
 * counted while it was on).
 */
void sp_table_wview(struct sp_out *out, const struct sp_wview *v)
{
	const struct sp_wakers *w = v->w;
	struct sp_wtab t;
	FILE *fp = out->fp;
	char t1[64], t2[64], t3[64];
	uint32_t i;

	wakers_source(fp, "source", w);
	if (w->wakers == 0)
		fputs("note: the wakers switch is off: these are the wakers counted while it was on\n", fp);
	fprintf(fp, "%s ", v->kind == SP_WVIEW_WAKERS ? "site" : "waker site");
	sp_fputs_escaped(fp, v->arg, strlen(v->arg), SP_ESC_SPACE);
	fprintf(fp, ": %u %s", v->nsites, v->nsites == 1 ? "call site" : "call sites");
	for (i = 0; i < v->nsites && i < 4; i++)
		fprintf(fp, "%s%s", i ? ", " : " (", sp_pool_str(&w->syms, v->sites[i]));
	fprintf(fp, "%s\n\n", v->nsites > 4 ? ", ...)" : ")");
	sp_wview_tab(v, true, &t);
	wtab_write(fp, &t);
	fprintf(fp, "\n%s %llu  time %s  wait %s  delay %s  %s %u",
		v->kind == SP_WVIEW_WAKERS ? "woken" : "ended",
		(unsigned long long)v->total, ns_text(v->total_ns, t1, sizeof(t1)),
		ns_text(v->wait_ns, t2, sizeof(t2)),
		ns_text(v->total_ns - v->wait_ns, t3, sizeof(t3)),
		v->kind == SP_WVIEW_WAKERS ? "wakers" : "rows", v->nrows);
	if (v->nshown < v->nrows)
		fprintf(fp, " (top %u shown)", v->nshown);
	fputc('\n', fp);
}

void sp_table_chain(struct sp_out *out, const struct sp_chain *c)
{
	const struct sp_store *st = c->st;
	struct sp_wtab t;
	FILE *fp = out->fp;
	char why[512];

	fputs("source ", fp);
	sp_fputs_escaped(fp, st->name, strlen(st->name), SP_ESC_SPACE);
	fprintf(fp, "  version %s", st->version);
	if (sp_mode_name(st->sum.mode))
		fprintf(fp, "  mode %s", sp_mode_name(st->sum.mode));
	if (st->sum.time >= 0)
		fprintf(fp, "  time %lld", (long long)st->sum.time);
	fprintf(fp, "  entries %lld\n", (long long)st->sum.entries);
	wakers_source(fp, "wakers", c->w);
	fputs("chain from ", fp);
	fprintf(fp, "%s ", c->from);
	sp_fputs_escaped(fp, c->arg, strlen(c->arg), SP_ESC_SPACE);
	fprintf(fp, "  hops %u at most  waker by %s\n", c->max_hops,
		c->by_time ? "time" : "count");
	if (c->nhops) {
		fputc('\n', fp);
		sp_chain_tab(c, true, &t);
		wtab_write(fp, &t);
	}
	sp_chain_stop_text(c, why, sizeof(why));
	fprintf(fp, "\nhops %u  stop: %s\n", c->nhops, why);
}
