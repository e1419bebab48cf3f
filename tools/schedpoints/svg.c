// SPDX-License-Identifier: GPL-2.0-only
/*
 * Heat map of the matrix as a standalone SVG file: one row per task
 * ("comm (pid)"), one column per call site ("kind:site" on version 2 input),
 * each cell coloured by its value (count, or off-CPU time with --value time)
 * on a logarithmic scale (values span orders of magnitude), with a legend
 * bar and ticks at powers of ten.  Every cell carries a <title> tooltip with
 * the exact figures.  Without -n the picture holds the top SP_HEATMAP_TOP
 * rows and columns.
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
	snprintf(buf, len, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

static double scale(sp_u128 v, sp_u128 max)
{
	if (!max)
		return 0;
	return log1p((double)v) / log1p((double)max);
}

/* A value for people: a count, or a duration. */
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

/* XML text of s (valid UTF-8, no control bytes), cut to LABEL_MAX glyphs. */
static void xml_text(FILE *fp, const char *s, bool cut)
{
	size_t n = 0;

	for (; *s; s++) {
		if (((unsigned char)*s & 0xc0) != 0x80 && cut && ++n > LABEL_MAX) {
			fputs("...", fp);
			return;
		}
		switch (*s) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&apos;", fp); break;
		default: fputc(*s, fp);
		}
	}
}

static size_t glyphs(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n > LABEL_MAX ? LABEL_MAX + 3 : n;
}

void sp_svg_matrix(struct sp_out *out, const struct sp_matrix *m)
{
	const struct sp_result *rows = &m->tasks, *cols = &m->sites;
	FILE *fp = out->fp;
	char comm[4 * 64 + 1], label[4 * 64 + 32], fill[16], title[320];
	char v1[64];
	size_t lw = 10, th = 10, i, c, clen = SP_MAX_LINE + 32;
	char *col;
	sp_u128 max = 0;
	double left, top, width, height, lx, ly;
	static const char *const whats[2][2] = {
		{ "count", "delta" }, { "off-CPU time", "off-CPU time delta" },
	};
	const char *what = whats[rows->by_time][rows->delta];

	if (out->reset_msg)
		return;
	col = sp_xrealloc(NULL, clen, 1);
	for (i = 0; i < rows->nshown; i++) {
		const struct sp_group *g = &rows->groups[i];
		size_t len;
		const char *s = sp_group_comm(rows, g, &len);

		sp_escape(comm, s, len > 64 ? 64 : len, 0);
		snprintf(label, sizeof(label), "%s (%u)", comm, g->pid);
		if (glyphs(label) > lw)
			lw = glyphs(label);
		for (c = 0; c < cols->nshown; c++) {
			sp_u128 v = sp_matrix_cell(m, g, &cols->groups[c]);

			if (v > max)
				max = v;
		}
	}
	for (c = 0; c < cols->nshown; c++) {
		sp_column_label(cols, &cols->groups[c], col, clen);
		if (glyphs(col) > th)
			th = glyphs(col);
	}

	fmt_value(rows, v1, sizeof(v1), sp_result_value(rows));
	snprintf(title, sizeof(title),
		 "sched_points: %s per task and %s (%u of %u tasks, %u of %u %ss; total %s)",
		 what, sp_site_label(rows->o), rows->nshown, rows->ngroups,
		 cols->nshown, cols->ngroups, sp_site_label(rows->o), v1);
	left = 12 + (double)lw * CHAR_W;
	top = 48 + (double)th * CHAR_W;		/* column labels upright */
	width = left + (double)cols->nshown * CELL + 24;
	if (width < left + LEGEND_W + 80)
		width = left + LEGEND_W + 80;
	if (width < 16 + (double)strlen(title) * 8)
		width = 16 + (double)strlen(title) * 8;
	height = top + (double)rows->nshown * CELL + 70;

	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" font-family=\"monospace\" font-size=\"%d\">\n",
		width, height, width, height, FONT);
	fputs("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n", fp);
	fprintf(fp, "<text x=\"8\" y=\"16\" font-size=\"13\" font-weight=\"bold\">%s</text>\n",
		title);
	fputs("<text x=\"8\" y=\"30\" fill=\"#555555\">", fp);
	{
		char name[4 * sizeof(rows->st->name) + 1];

		sp_escape(name, rows->st->name, strlen(rows->st->name), 0);
		xml_text(fp, name, false);
	}
	fputs("</text>\n", fp);

	/* column labels */
	for (c = 0; c < cols->nshown; c++) {
		double x = left + (double)c * CELL + CELL / 2.0;

		fprintf(fp, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\">",
			x + FONT / 2.0 - 1, top - 4);
		sp_column_label(cols, &cols->groups[c], col, clen);
		xml_text(fp, col, true);
		fputs("</text>\n", fp);
	}
	/* rows */
	for (i = 0; i < rows->nshown; i++) {
		const struct sp_group *g = &rows->groups[i];
		double y = top + (double)i * CELL;
		size_t len;
		const char *s = sp_group_comm(rows, g, &len);

		sp_escape(comm, s, len > 64 ? 64 : len, 0);
		snprintf(label, sizeof(label), "%s (%u)", comm, g->pid);
		fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 4,
			y + CELL - 4);
		xml_text(fp, label, true);
		fputs("</text>\n", fp);
		for (c = 0; c < cols->nshown; c++) {
			const struct sp_group *cg = &cols->groups[c];
			sp_u128 v = sp_matrix_cell(m, g, cg);

			if (v)
				colour(scale(v, max), fill, sizeof(fill));
			else
				snprintf(fill, sizeof(fill), "#f2f2f2");
			fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" "
				"fill=\"%s\" stroke=\"#ffffff\"><title>",
				left + (double)c * CELL, y, CELL, CELL, fill);
			xml_text(fp, label, false);
			fputs(" at ", fp);
			sp_column_label(cols, cg, col, clen);
			xml_text(fp, col, false);
			fmt_value(rows, v1, sizeof(v1), v);
			fprintf(fp, ": %s %s", what, v1);
			if (rows->time) {	/* the other measure too */
				const struct sp_group *cell = sp_matrix_cell_group(m, g, cg);
				char other[64];

				if (rows->by_time)
					snprintf(other, sizeof(other), "%s %llu",
						 rows->delta ? "delta" : "count",
						 cell ? (unsigned long long)(rows->delta ? cell->delta : cell->count) : 0ULL);
				else
					sp_fmt_duration(other, sizeof(other),
							!cell ? 0 : rows->delta ? cell->delta_ns : cell->total_ns);
				fprintf(fp, ", %s%s", rows->by_time ? "" :
					rows->delta ? "off-CPU time delta " : "off-CPU time ", other);
			}
			fputs("</title></rect>\n", fp);
		}
	}
	if (!rows->nshown)
		fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\">no data</text>\n", left, top + 12);

	/* legend: gradient bar, ticks at 0 and powers of ten up to max */
	lx = left;
	ly = top + (double)rows->nshown * CELL + 24;
	fputs("<defs><linearGradient id=\"scale\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">\n", fp);
	for (c = 0; c < NPAL; c++) {
		colour((double)c / (NPAL - 1), fill, sizeof(fill));
		fprintf(fp, "<stop offset=\"%.2f\" stop-color=\"%s\"/>\n",
			(double)c / (NPAL - 1), fill);
	}
	fputs("</linearGradient></defs>\n", fp);
	fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s (log)</text>\n",
		lx - 6, ly + LEGEND_H - 2, what);
	fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" "
		"fill=\"url(#scale)\" stroke=\"#888888\"/>\n", lx, ly, LEGEND_W, LEGEND_H);
	fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#f2f2f2\" "
		"stroke=\"#888888\"/><text x=\"%.1f\" y=\"%.1f\">none</text>\n",
		lx + LEGEND_W + 16, ly, LEGEND_H, LEGEND_H,
		lx + LEGEND_W + 16 + LEGEND_H + 4, ly + LEGEND_H - 2);
	{
		sp_u128 tick = 1;
		/* ticks further apart for time: 1ns, 1us, 1ms, 1s, ... */
		unsigned step = rows->by_time ? 1000 : 10;

		for (;;) {
			double x = lx + scale(tick, max) * LEGEND_W;

			fmt_value(rows, v1, sizeof(v1), tick);
			fprintf(fp, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"#000000\"/><text x=\"%.1f\" y=\"%.1f\" "
				"text-anchor=\"middle\">%s</text>\n",
				x, x, ly + LEGEND_H, ly + LEGEND_H + 4, x,
				ly + LEGEND_H + 15, v1);
			if (!max || tick > max / step)
				break;
			tick *= step;
		}
		if (max && max != tick) {
			double x = lx + LEGEND_W;
			char v2[64];

			fmt_value(rows, v2, sizeof(v2), max);
			fprintf(fp, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"#000000\"/><text x=\"%.1f\" y=\"%.1f\" "
				"text-anchor=\"end\">max %s</text>\n",
				x, x, ly + LEGEND_H, ly + LEGEND_H + 18, x,
				ly + LEGEND_H + 29, v2);
		}
	}
	fputs("</svg>\n", fp);
	free(col);
}
