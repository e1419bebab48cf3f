// SPDX-License-Identifier: GPL-2.0-only
/*
 * Folded stacks for FlameGraph (flamegraph.pl, inferno): one line per group,
 * "comm;site;kind count" -- frames from the root: the task name when the
 * view has one, then the call site (for "site X", X itself), then the kind
 * when the view is keyed by it (views by call site).  Frames are in display
 * form with ';' written as \073, so that no name adds a frame; an empty task
 * name (the format allows one) is the frame \000, a byte no name can hold,
 * so that it neither vanishes nor merges with another name.  The value is
 * the view's (--value: count, or off-CPU ns for an off-CPU flame graph; in
 * interval mode the delta); groups with a zero value are left out.
 */
#include <string.h>

#include "schedpoints.h"

static void frame(FILE *fp, const char *s, size_t len)
{
	if (!len)
		fputs("\\000", fp);
	else
		sp_fputs_escaped(fp, s, len, SP_ESC_SEMI);
}

void sp_folded_result(struct sp_out *out, const struct sp_result *r)
{
	enum sp_col cols[SP_MAX_COLS];
	size_t ncols = sp_label_columns(r, cols), c;
	bool has_comm = false, has_site = false, has_kind = false;
	const char *arg = r->view == SP_VIEW_SITE ? out->o->view_arg : NULL;
	char digits[SP_U128_DIGITS];
	uint32_t i;

	if (out->reset_msg)
		return;
	for (c = 0; c < ncols; c++) {
		has_comm |= cols[c] == SP_COL_COMM;
		has_site |= cols[c] == SP_COL_SITE;
		has_kind |= cols[c] == SP_COL_KIND;
	}
	for (i = 0; i < r->nshown; i++) {
		const struct sp_group *g = &r->groups[i];
		sp_u128 v = sp_group_value(r, g);
		bool first = true;

		if (!v)
			continue;
		if (has_comm) {
			size_t len;
			const char *s = sp_group_comm(r, g, &len);

			frame(out->fp, s, len);
			first = false;
		}
		if (has_site || arg) {
			const char *s = arg ? arg : sp_site_name(r, g);

			if (!first)
				fputc(';', out->fp);
			frame(out->fp, s, strlen(s));
			first = false;
		}
		if (has_kind)
			fprintf(out->fp, "%s%s", first ? "" : ";", sp_kind_name(g->kind));
		fprintf(out->fp, " %s\n", sp_u128_str(digits, v));
	}
}
