// SPDX-License-Identifier: GPL-2.0-only
/*
 * Heat map of the matrix as a standalone SVG file: one row per task
 * ("comm (pid)"), one column per call site and kind ("kind:site"),
 * each cell coloured by its value (count, or off-CPU time with --value time)
 * on a logarithmic scale from the smallest to the largest cell (values span
 * orders of magnitude), with a legend bar, ticks at powers of ten (of 1000
 * for time) and the two ends.  The grid is one rectangle in the colour of
 * "none"; only cells that hold a value are drawn, each with a <title>
 * tooltip with the exact figures.  Rows are tasks by --by (pid, tgid, comm).
 * Without -n and --columns the picture holds the top SP_MATRIX_TOP rows and
 * columns.  Labels longer than LABEL_MAX glyphs are cut in the middle, their
 * " [module]" or " (pid)" kept.
 *
 * heatmap --buckets draws the latency picture instead: one row per call
 * site (the rows of the sites view: -n, --sort, --group, filters) that has
 * off-CPU time (the others, not timed, would be empty rows: they are left
 * out, and a line under the title counts them), one
 * column per log2 bucket of off-CPU time (from the lowest to the highest
 * bucket any shown row holds), each cell coloured by its calls, on the
 * same scale and legend; the tooltip says the bucket's range, its calls
 * and the row's percentiles.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "schedpoints.h"

#define CELL		16
#define FONT		11
#define CHAR_W		6.7	/* advance of a FONT px monospace glyph */
#define LABEL_MAX	48	/* characters of a label before "..." */
#define LEGEND_W	240
#define LEGEND_H	12
#define EMPTY		"#f2f2f2"	/* a cell without a value */

/* viridis, from low to high */
static const unsigned char palette[][3] = {
	{ 0x44, 0x01, 0x54 }, { 0x3b, 0x52, 0x8b }, { 0x21, 0x90, 0x8d },
	{ 0x5d, 0xc9, 0x63 }, { 0xfd, 0xe7, 0x25 },
};
#define NPAL 5
_Static_assert(sizeof(palette) == (size_t)NPAL * 3, "NPAL is the palette's size");

static void colour(double t, char *buf, size_t len)
{
	double x;
	size_t i;
	int rgb[3], k;

	if (!(t > 0))
		t = 0;
	if (t > 1)
		t = 1;
	x = t * (NPAL - 1);
	i = (size_t)x;
	if (i >= NPAL - 1)
		i = NPAL - 2;
	x -= (double)i;
	for (k = 0; k < 3; k++)
		rgb[k] = (int)lround(palette[i][k] + (palette[i + 1][k] - palette[i][k]) * x);
	if (len < 8)
		return;
	/* "#rrggbb" without printf: a million cells call this */
	buf[0] = '#';
	for (k = 0; k < 3; k++) {
		buf[1 + 2 * k] = "0123456789abcdef"[rgb[k] >> 4 & 0xf];
		buf[2 + 2 * k] = "0123456789abcdef"[rgb[k] & 0xf];
	}
	buf[7] = '\0';
}

/* Position of v on the colour scale: log, from the smallest to the largest cell. */
static double scale(sp_u128 v, sp_u128 min, sp_u128 max)
{
	if (!v || max <= min)
		return 1;
	return (log((double)v) - log((double)min)) / (log((double)max) - log((double)min));
}

/* A value for people: a count, or a duration (ns). */
static void fmt_value(bool ns, char *buf, size_t len, sp_u128 v)
{
	struct sp_cell cell = { .type = ns ? SP_CELL_NS : SP_CELL_UINT, .u = v };
	size_t n;
	const char *s;

	s = sp_cell_text(&cell, true, buf, len, &n);
	if (s != buf)
		snprintf(buf, len, "%.*s", (int)n, s);
}

/* s with XML's five special characters escaped, in a new string. */
static char *xml_escaped(const char *s)
{
	char *out = sp_xrealloc(NULL, strlen(s), 6 + 1), *o = out;

	for (; *s; s++) {
		const char *e = NULL;

		switch (*s) {
		case '&': e = "&amp;"; break;
		case '<': e = "&lt;"; break;
		case '>': e = "&gt;"; break;
		case '"': e = "&quot;"; break;
		case '\'': e = "&apos;"; break;
		default: *o++ = *s; continue;
		}
		o = stpcpy(o, e);
	}
	*o = '\0';
	return out;
}

static void xml_text(FILE *fp, const char *s)
{
	char *e = xml_escaped(s);

	fputs(e, fp);
	free(e);
}

/*
 * A coordinate with one decimal, as "%.1f" writes it (every coordinate is
 * a multiple of 0.1: glyph advances and cell sizes), without the cost of
 * printf's exact float conversion, which a million cells feel.
 */
static void put_tenths(FILE *fp, double v)
{
	char b[32];
	size_t n = sizeof(b) - 1;
	long t = lround(v * 10);

	b[n] = '\0';
	b[--n] = (char)('0' + t % 10);
	b[--n] = '.';
	t /= 10;
	do {
		b[--n] = (char)('0' + t % 10);
		t /= 10;
	} while (t);
	fputs(b + n, fp);
}
#define STR_(x)	#x
#define STR(x)	STR_(x)

static size_t glyphs(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* Byte offset of glyph n of s (or its end). */
static size_t glyph_off(const char *s, size_t n)
{
	size_t i = 0;

	for (; s[i]; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && !n--)
			break;
	return i;
}

/*
 * A label of at most LABEL_MAX glyphs: cut in the middle with "...", the
 * " [module]" or " (pid)" at its end kept, so that a cut name still says
 * its module, a cut task name its pid or thread group.
 */
static void cut_label(char *out, size_t len, const char *s)
{
	const char *mod = NULL;
	size_t n = glyphs(s), keep;
	char close = s[strlen(s) - 1];

	if (n <= LABEL_MAX) {
		snprintf(out, len, "%s", s);
		return;
	}
	if (close == ']' || close == ')') {
		mod = strrchr(s, close == ']' ? '[' : '(');
		if (mod && mod > s && mod[-1] == ' ' && glyphs(mod) <= LABEL_MAX / 2)
			mod--;
		else
			mod = NULL;
	}
	keep = LABEL_MAX - 3 - (mod ? glyphs(mod) : 0);
	snprintf(out, len, "%.*s...%s", (int)glyph_off(s, keep), s, mod ? mod : "");
}

/*
 * "comm (pid)", "comm (tgid N)" or "comm", by --by; a row of exited tasks
 * "comm (N exited)", which no task's label ends with.
 */
static void row_label(const struct sp_result *rows, const struct sp_group *g,
		      char *buf, size_t len)
{
	char comm[4 * 64 + 1];
	size_t clen;
	const char *s = sp_group_comm(rows, g, &clen);

	sp_escape(comm, s, clen > 64 ? 64 : clen, 0);
	if (g->exited)
		snprintf(buf, len, "%s (%llu exited)", comm,
			 (unsigned long long)sp_group_tasks(rows, g));
	else if (rows->keys & SP_K_PID)
		snprintf(buf, len, "%s (%u)", comm, g->pid);
	else if (rows->keys & SP_K_TGID)
		snprintf(buf, len, "%s (tgid %u)", comm, g->tgid);
	else
		snprintf(buf, len, "%s", comm);
}

static void text_at(FILE *fp, double x, double y, const char *anchor,
		    const char *s)
{
	fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y, anchor);
	xml_text(fp, s);
	fputs("</text>\n", fp);
}

/*
 * The document's start: its size for ncols x nrows cells at (left, top), a
 * white background, the title, the source and, if not NULL, a note under
 * it (at y NOTE_Y: the caller's top leaves room for it).
 */
#define NOTE_Y	44
static void svg_start(FILE *fp, const struct sp_store *st, const char *title,
		      const char *note, double left, double top, size_t ncols,
		      size_t nrows)
{
	char name[4 * sizeof(st->name) + 1];
	double width = left + (double)ncols * CELL + 24, height;

	if (width < left + LEGEND_W + 80)
		width = left + LEGEND_W + 80;
	if (width < left + 60 * CHAR_W)		/* the legend title */
		width = left + 60 * CHAR_W;
	if (width < 16 + (double)strlen(title) * 8)
		width = 16 + (double)strlen(title) * 8;
	if (note && width < 16 + (double)strlen(note) * CHAR_W)
		width = 16 + (double)strlen(note) * CHAR_W;
	height = top + (double)nrows * CELL + 80;
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" font-family=\"monospace\" font-size=\"%d\">\n",
		width, height, width, height, FONT);
	fputs("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n", fp);
	fputs("<text x=\"8\" y=\"16\" font-size=\"13\" font-weight=\"bold\">", fp);
	xml_text(fp, title);
	fputs("</text>\n<text x=\"8\" y=\"30\" fill=\"#555555\">", fp);
	sp_escape(name, st->name, strlen(st->name), 0);
	xml_text(fp, name);
	fputs("</text>\n", fp);
	if (note) {
		fputs("<text x=\"8\" y=\"" STR(NOTE_Y) "\" fill=\"#555555\">", fp);
		xml_text(fp, note);
		fputs("</text>\n", fp);
	}
}

/* The label of column c, upright above it. */
static void column_label(FILE *fp, double left, double top, size_t c,
			 const char *s)
{
	double x = left + (double)c * CELL + CELL / 2.0;

	fprintf(fp, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\">",
		x + FONT / 2.0 - 1, top - 4);
	xml_text(fp, s);
	fputs("</text>\n", fp);
}

/* The grid in the colour of "none"; only cells that hold a value go on it. */
static void grid(FILE *fp, double left, double top, size_t ncols, size_t nrows)
{
	if (nrows && ncols)
		fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%zu\" height=\"%zu\" fill=\"%s\"/>\n",
			left, top, ncols * CELL, nrows * CELL, EMPTY);
}

/* A cell's rectangle, up to its tooltip's text ("</title></rect>" after). */
static void cell_open(FILE *fp, double x, double y, const char *fill)
{
	fputs("<rect x=\"", fp);
	put_tenths(fp, x);
	fputs("\" y=\"", fp);
	put_tenths(fp, y);
	fputs("\" width=\"" STR(CELL) "\" height=\"" STR(CELL) "\" fill=\"", fp);
	fputs(fill, fp);
	fputs("\" stroke=\"#ffffff\"><title>", fp);
}

/* Legend: gradient bar from the smallest to the largest cell, log ticks. */
static void legend(FILE *fp, bool ns, double lx, double ly,
		   const char *what, sp_u128 min, sp_u128 max)
{
	/* ticks further apart for time: 1ns, 1us, 1ms, 1s, ... */
	unsigned step = ns ? 1000 : 10;
	char fill[16], v1[64], title[96];
	sp_u128 tick;
	size_t c;

	fputs("<defs><linearGradient id=\"scale\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">\n", fp);
	for (c = 0; c < NPAL; c++) {
		colour((double)c / (NPAL - 1), fill, sizeof(fill));
		fprintf(fp, "<stop offset=\"%.2f\" stop-color=\"%s\"/>\n",
			(double)c / (NPAL - 1), fill);
	}
	fputs("</linearGradient></defs>\n", fp);
	/* the title above the bar, from its left end: never clipped */
	snprintf(title, sizeof(title), "%s (log scale, smallest to largest cell)", what);
	text_at(fp, lx, ly - 4, "start", title);
	fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" "
		"fill=\"url(#scale)\" stroke=\"#888888\"/>\n", lx, ly, LEGEND_W, LEGEND_H);
	fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"%s\" "
		"stroke=\"#888888\"/>\n", lx + LEGEND_W + 16, ly, LEGEND_H, LEGEND_H, EMPTY);
	text_at(fp, lx + LEGEND_W + 16 + LEGEND_H + 4, ly + LEGEND_H - 2, "start", "none");
	if (!max)
		return;
	fmt_value(ns, v1, sizeof(v1), min);
	snprintf(title, sizeof(title), "min %s", v1);
	fprintf(fp, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>\n",
		lx, lx, ly + LEGEND_H, ly + LEGEND_H + 18);
	text_at(fp, lx, ly + LEGEND_H + 29, "start", title);
	for (tick = 1; tick <= max; tick *= step) {
		double x = lx + scale(tick, min, max) * LEGEND_W;

		if (tick > min && tick < max) {
			fmt_value(ns, v1, sizeof(v1), tick);
			fprintf(fp, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"#000000\"/>\n", x, x, ly + LEGEND_H, ly + LEGEND_H + 4);
			text_at(fp, x, ly + LEGEND_H + 15, "middle", v1);
		}
		if (tick > max / step)
			break;
	}
	fmt_value(ns, v1, sizeof(v1), max);
	snprintf(title, sizeof(title), "max %s", v1);
	fprintf(fp, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>\n",
		lx + LEGEND_W, lx + LEGEND_W, ly + LEGEND_H, ly + LEGEND_H + 18);
	text_at(fp, lx + LEGEND_W, ly + LEGEND_H + 29, "end", title);
}

void sp_svg_matrix(struct sp_out *out, const struct sp_matrix *m)
{
	const struct sp_result *rows = &m->tasks, *cols = &m->sites;
	FILE *fp = out->fp;
	char label[4 * 64 + 32], fill[16], title[320], v1[64];
	size_t lw = 10, th = 10, i, c, k, ncells, clen = SP_MAX_LINE + 32;
	struct sp_cell_ref *cells;
	char **xcols;
	char *col, *cut;
	sp_u128 max = 0, min = 0;
	double left, top;
	static const char *const whats[2][2] = {
		{ "count", "delta" }, { "off-CPU time", "off-CPU time delta" },
	};
	const char *what = whats[rows->by_time][rows->delta];

	if (out->reset_msg)
		return;
	col = sp_xrealloc(NULL, clen, 1);
	cut = sp_xrealloc(NULL, clen, 1);
	ncells = sp_matrix_cells(m, &cells);
	for (k = 0; k < ncells; k++) {
		sp_u128 v = sp_group_value(rows, cells[k].g);

		if (v > max)
			max = v;
		if (v && (!min || v < min))
			min = v;
	}
	for (i = 0; i < rows->nshown; i++) {
		row_label(rows, &rows->groups[i], label, sizeof(label));
		cut_label(cut, clen, label);
		if (glyphs(cut) > lw)
			lw = glyphs(cut);
	}
	for (c = 0; c < cols->nshown; c++) {
		sp_column_label(cols, &cols->groups[c], col, clen);
		cut_label(cut, clen, col);
		if (glyphs(cut) > th)
			th = glyphs(cut);
	}

	fmt_value(rows->by_time, v1, sizeof(v1), sp_result_value(rows));
	snprintf(title, sizeof(title),
		 "sched_points: %s per task and %s (%u of %u tasks, %u of %u %ss; total %s)",
		 what, sp_site_label(rows->o), rows->nshown, rows->ngroups,
		 cols->nshown, cols->ngroups, sp_site_label(rows->o), v1);
	left = 12 + (double)lw * CHAR_W;
	top = 48 + (double)th * CHAR_W;		/* column labels upright */
	svg_start(fp, rows->st, title, NULL, left, top, cols->nshown, rows->nshown);

	/* column labels */
	for (c = 0; c < cols->nshown; c++) {
		sp_column_label(cols, &cols->groups[c], col, clen);
		cut_label(cut, clen, col);
		column_label(fp, left, top, c, cut);
	}
	grid(fp, left, top, cols->nshown, rows->nshown);
	/* the tooltips' names, escaped once, not once per cell */
	xcols = sp_xrealloc(NULL, cols->nshown ? cols->nshown : 1, sizeof(*xcols));
	for (c = 0; c < cols->nshown; c++) {
		sp_column_label(cols, &cols->groups[c], col, clen);
		xcols[c] = xml_escaped(col);
	}
	for (i = 0, k = 0; i < rows->nshown; i++) {
		double y = top + (double)i * CELL;
		char *xlabel;

		row_label(rows, &rows->groups[i], label, sizeof(label));
		cut_label(cut, clen, label);
		text_at(fp, left - 4, y + CELL - 4, "end", cut);
		xlabel = xml_escaped(label);
		for (; k < ncells && cells[k].row == i; k++) {
			const struct sp_group *cell = cells[k].g;
			sp_u128 v = sp_group_value(rows, cell);
			char other[64];

			c = cells[k].col;
			if (!v)
				continue;
			colour(scale(v, min, max), fill, sizeof(fill));
			cell_open(fp, left + (double)c * CELL, y, fill);
			fputs(xlabel, fp);
			fputs(" at ", fp);
			fputs(xcols[c], fp);
			fmt_value(rows->by_time, v1, sizeof(v1), v);
			fprintf(fp, ": %s %s", what, v1);
			/* the other measure too */
			if (rows->by_time)
				snprintf(other, sizeof(other), "%s %llu",
					 rows->delta ? "delta" : "count",
					 (unsigned long long)(rows->delta ? cell->delta : cell->count));
			else
				sp_fmt_duration(other, sizeof(other),
						rows->delta ? cell->delta_ns : cell->total_ns);
			fprintf(fp, ", %s%s", rows->by_time ? "" :
				rows->delta ? "off-CPU time delta " : "off-CPU time ", other);
			fputs("</title></rect>\n", fp);
		}
		free(xlabel);
	}
	for (c = 0; c < cols->nshown; c++)
		free(xcols[c]);
	free(xcols);
	if (!rows->nshown)
		text_at(fp, left, top + 12, "start", "no data");
	legend(fp, rows->by_time, left, top + (double)rows->nshown * CELL + 30, what, min, max);
	fputs("</svg>\n", fp);
	free(cells);
	free(cut);
	free(col);
}

/* ---- heatmap --buckets: call sites x buckets ----------------------------- */

/*
 * With --split (and an input with the split), each site is three rows: its
 * off-CPU time, the wait and the run delay; row j of the picture is group
 * j / parts, part j % parts.
 */
static const char *const part_names[] = { "", " wait", " run delay" };

static const struct sp_hist *part_hist(const struct sp_result *r,
				       const struct sp_group *g, unsigned part)
{
	return part ? sp_group_split_hist(r, g, part == 1 ? SP_SPLIT_WAIT : SP_SPLIT_DELAY) :
		      sp_group_hist(r, g);
}

static void part_label(const struct sp_result *r, const struct sp_group *g,
		       unsigned part, char *label, size_t len)
{
	size_t n;

	sp_column_label(r, g, label, len);
	n = strlen(label);
	snprintf(label + n, len - n, "%s", part_names[part]);
}

/*
 * The latency picture's note on the sites it leaves out (sp_view_build():
 * those without off-CPU time, which would be empty rows), or "".
 */
static void timeless_note(const struct sp_result *r, char *buf, size_t len)
{
	const char *what = sp_site_label(r->o);
	unsigned k, n = 0, i;
	size_t at;

	*buf = '\0';
	if (!r->ntimeless)
		return;
	at = (size_t)snprintf(buf, len, "left out: %u %s%s without off-CPU time, whose row%s would be empty",
			      r->ntimeless, what, r->ntimeless == 1 ? "" : "s",
			      r->ntimeless == 1 ? "" : "s");
	for (k = 0; k < 32; k++)
		n += !!(r->timeless_kinds & 1u << k);
	for (k = 0, i = 0; k < 32 && at < len; k++) {
		if (!(r->timeless_kinds & 1u << k))
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       i++ ? ", " : n > 1 ? " (kinds " : " (kind ",
				       sp_kind_name(k));
	}
	if (n && at < len)
		snprintf(buf + at, len - at, ")");
}

void sp_svg_buckets(struct sp_out *out, const struct sp_result *r)
{
	static const enum sp_col pcts[3][2] = {
		{ SP_COL_P50, SP_COL_P99 }, { SP_COL_WP50, SP_COL_WP99 },
		{ SP_COL_DP50, SP_COL_DP99 },
	};
	FILE *fp = out->fp;
	size_t lw = 10, clen = SP_MAX_LINE + 32, c;
	char *label, *cut, fill[16], title[320], lo[64], hi[64], note[256];
	unsigned first = SP_HIST_N, last = 0, f, l, b;
	unsigned parts = r->o->split && r->split && r->hist ? 3 : 1;
	sp_u128 max = 0, min = 0;
	double left, top;
	uint32_t i, nrows = r->nshown * parts;
	const char *what = r->delta ? "calls in the interval" : "calls";

	if (out->reset_msg)
		return;
	label = sp_xrealloc(NULL, clen, 1);
	cut = sp_xrealloc(NULL, clen, 1);
	for (i = 0; i < nrows; i++) {
		const struct sp_group *g = &r->groups[i / parts];
		const struct sp_hist *h = part_hist(r, g, i % parts);

		part_label(r, g, i % parts, label, clen);
		cut_label(cut, clen, label);
		if (glyphs(cut) > lw)
			lw = glyphs(cut);
		if (!sp_hist_range(h, &f, &l))
			continue;
		first = f < first ? f : first;
		last = l > last ? l : last;
		for (b = f; b <= l; b++) {
			if (h->n[b] > max)
				max = h->n[b];
			if (h->n[b] && (!min || h->n[b] < min))
				min = h->n[b];
		}
	}
	if (first > last)	/* no bucket holds anything */
		first = last = 0;
	snprintf(title, sizeof(title),
		 "sched_points: off-CPU time%s per %s, log2 buckets (%u of %u %ss)",
		 parts > 1 ? ", its wait and run delay" : "",
		 sp_site_label(r->o), r->nshown, r->ngroups, sp_site_label(r->o));
	timeless_note(r, note, sizeof(note));
	left = 12 + (double)lw * CHAR_W;
	top = 48 + 18 * CHAR_W;		/* "1.02us..2.05us" upright */
	if (*note)
		top += 14;
	svg_start(fp, r->st, title, *note ? note : NULL, left, top,
		  last - first + 1, nrows);
	for (b = first; b <= last; b++) {
		fmt_value(true, lo, sizeof(lo), sp_hist_lower(b));
		if (sp_hist_upper(b))
			fmt_value(true, hi, sizeof(hi), sp_hist_upper(b));
		else
			snprintf(hi, sizeof(hi), "inf");
		snprintf(label, clen, "%s..%s", lo, hi);
		column_label(fp, left, top, b - first, label);
	}
	grid(fp, left, top, last - first + 1, nrows);
	for (i = 0; i < nrows; i++) {
		const struct sp_group *g = &r->groups[i / parts];
		unsigned part = i % parts;
		const struct sp_hist *h = part_hist(r, g, part);
		double y = top + (double)i * CELL;
		uint64_t calls = sp_hist_calls(h);
		char *xlabel;

		part_label(r, g, part, label, clen);
		cut_label(cut, clen, label);
		text_at(fp, left - 4, y + CELL - 4, "end", cut);
		xlabel = xml_escaped(label);
		for (b = first; calls && b <= last; b++) {
			if (!h->n[b])
				continue;
			colour(scale(h->n[b], min, max), fill, sizeof(fill));
			cell_open(fp, left + (double)(b - first) * CELL, y, fill);
			fmt_value(true, lo, sizeof(lo), sp_hist_lower(b));
			if (sp_hist_upper(b))
				fmt_value(true, hi, sizeof(hi), sp_hist_upper(b));
			else
				snprintf(hi, sizeof(hi), "inf");
			fprintf(fp, "%s, %s to %s: %s %llu (%.1f%%)", xlabel, lo, hi, what,
				(unsigned long long)h->n[b], 100.0 * (double)h->n[b] / (double)calls);
			for (c = 0; c < 2; c++) {
				struct sp_cell cell;
				size_t n;

				sp_cell_get(r, g, pcts[part][c], &cell);
				fprintf(fp, ", %s %s", c ? "p99" : "p50",
					sp_cell_text(&cell, true, hi, sizeof(hi), &n));
			}
			fputs("</title></rect>\n", fp);
		}
		free(xlabel);
	}
	if (!r->nshown && r->ntimeless) {
		snprintf(title, sizeof(title), "no %s with off-CPU time", sp_site_label(r->o));
		text_at(fp, left, top + 12, "start", title);
	} else if (!r->nshown) {
		text_at(fp, left, top + 12, "start", "no data");
	}
	legend(fp, false, left, top + (double)nrows * CELL + 30, what, min, max);
	fputs("</svg>\n", fp);
	free(cut);
	free(label);
}
