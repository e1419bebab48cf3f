// SPDX-License-Identifier: GPL-2.0-only
/*
 * Folded stacks for FlameGraph (flamegraph.pl, inferno): one line per group,
 * "comm;site;kind count" -- frames from the root: the task name when the
 * view has one, then the call site when the view has one, then the kind when
 * the view is keyed by it (version 2 input).  ';' and the backslash inside a
 * frame are written as \073 and \134 so that no name adds a frame.  The
 * value is the view's (--value: count, or off-CPU ns for an off-CPU flame
 * graph; in interval mode the delta); groups with a zero value are left out.
 */
#include <string.h>

#include "schedpoints.h"

void sp_folded_result(struct sp_out *out, const struct sp_result *r)
{
	enum sp_col cols[SP_MAX_COLS];
	size_t ncols = sp_result_columns(r, cols, false), c;
	bool has_comm = false, has_site = false, has_kind = false;
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

		if (!v)
			continue;
		if (has_comm) {
			size_t len;
			const char *s = sp_group_comm(r, g, &len);

			sp_fputs_escaped(out->fp, s, len, SP_ESC_SEMI);
		}
		if (has_comm && has_site)
			fputc(';', out->fp);
		if (has_site) {
			const char *s = sp_site_name(r, g);

			sp_fputs_escaped(out->fp, s, strlen(s), SP_ESC_SEMI);
		}
		if (has_kind)
			fprintf(out->fp, "%s%s", has_comm || has_site ? ";" : "",
				sp_kind_name(g->kind));
		fprintf(out->fp, " %s\n", sp_u128_str(digits, v));
	}
}
