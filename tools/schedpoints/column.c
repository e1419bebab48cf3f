// SPDX-License-Identifier: GPL-2.0-only
/*
 * The column writer: the one place that knows the columns of a view, their
 * names (CSV header, JSON keys), table headers, and what a cell holds.
 * sp_cell_get() turns (result, group, column) into a typed cell; the table
 * (sp_cell_text(), people), CSV (sp_cell_text(), machines) and JSON
 * (json.c, through json_writer.c) each write a cell by its type only.
 */
#include <stdlib.h>
#include <string.h>

#include "schedpoints.h"

static const struct {
	const char *name;	/* CSV header, JSON key */
	const char *header;	/* table */
	bool left;		/* table: a name, left-aligned */
} col_info[] = {
	[SP_COL_PID] = { "pid", "PID", false },
	[SP_COL_TGID] = { "tgid", "TGID", false },
	[SP_COL_COUNT] = { "count", "COUNT", false },
	[SP_COL_PCT] = { "percent", "%", false },
	[SP_COL_DELTA] = { "delta", "DELTA", false },
	[SP_COL_RATE] = { "rate", "RATE/s", false },
	[SP_COL_TASKS] = { "tasks", "TASKS", false },
	[SP_COL_SITES] = { "sites", "SITES", false },
	[SP_COL_COMM] = { "comm", "COMM", true },
	[SP_COL_SITE] = { "site", "SITE", true },
	[SP_COL_TIME] = { "total_ns", "TIME", false },
	[SP_COL_DTIME] = { "delta_ns", "DTIME", false },
	[SP_COL_TRATE] = { "time_rate", "TIME/s", false },
	[SP_COL_MEAN] = { "mean_ns", "MEAN", false },
	[SP_COL_MAX] = { "max_ns", "MAX", false },
	[SP_COL_KIND] = { "kind", "KIND", true },
	[SP_COL_P50] = { "p50_ns", "P50", false },
	[SP_COL_P90] = { "p90_ns", "P90", false },
	[SP_COL_P99] = { "p99_ns", "P99", false },
	[SP_COL_WAIT] = { "wait_ns", "WAIT", false },
	[SP_COL_DWAIT] = { "delta_wait_ns", "DWAIT", false },
	[SP_COL_WP50] = { "wait_p50_ns", "WP50", false },
	[SP_COL_WP90] = { "wait_p90_ns", "WP90", false },
	[SP_COL_WP99] = { "wait_p99_ns", "WP99", false },
	[SP_COL_WMAX] = { "wait_max_ns", "WMAX", false },
	[SP_COL_DELAY] = { "delay_ns", "DELAY", false },
	[SP_COL_DDELAY] = { "delta_delay_ns", "DDELAY", false },
	[SP_COL_DP50] = { "delay_p50_ns", "DP50", false },
	[SP_COL_DP90] = { "delay_p90_ns", "DP90", false },
	[SP_COL_DP99] = { "delay_p99_ns", "DP99", false },
	[SP_COL_DMAX] = { "delay_max_ns", "DMAX", false },
};

/* MEAN, the percentiles when there are histograms, MAX. */
static size_t time_shape(const struct sp_result *r, enum sp_col *cols)
{
	size_t n = 0;

	cols[n++] = SP_COL_MEAN;
	if (r->hist) {
		cols[n++] = SP_COL_P50;
		cols[n++] = SP_COL_P90;
		cols[n++] = SP_COL_P99;
	}
	cols[n++] = SP_COL_MAX;
	return n;
}

/*
 * The split, after the time columns (inputs with the wait and run delay,
 * time on): for each of the two, in interval mode its delta, its sum,
 * the percentiles when there are histograms, its longest.  The table's
 * compact form (SP_COLS_PEOPLE without SP_COLS_SPLIT): the two sums, the
 * interval's in interval mode, and DMAX, the longest run delay, which is
 * what a task waited for a CPU once woken.
 */
static size_t split_shape(const struct sp_result *r, enum sp_col *cols,
			  unsigned flags)
{
	static const enum sp_col part[2][6] = {
		{ SP_COL_DWAIT, SP_COL_WAIT, SP_COL_WP50, SP_COL_WP90,
		  SP_COL_WP99, SP_COL_WMAX },
		{ SP_COL_DDELAY, SP_COL_DELAY, SP_COL_DP50, SP_COL_DP90,
		  SP_COL_DP99, SP_COL_DMAX },
	};
	size_t n = 0, k;

	if (!r->split)
		return 0;
	if ((flags & SP_COLS_PEOPLE) && !(flags & SP_COLS_SPLIT)) {
		cols[n++] = r->delta ? SP_COL_DWAIT : SP_COL_WAIT;
		cols[n++] = r->delta ? SP_COL_DDELAY : SP_COL_DELAY;
		cols[n++] = SP_COL_DMAX;
		return n;
	}
	for (k = 0; k < 2; k++) {
		if (r->delta)
			cols[n++] = part[k][0];
		cols[n++] = part[k][1];
		if (r->hist) {
			cols[n++] = part[k][2];
			cols[n++] = part[k][3];
			cols[n++] = part[k][4];
		}
		cols[n++] = part[k][5];
	}
	return n;
}

size_t sp_result_columns(const struct sp_result *r, enum sp_col *cols,
			 unsigned flags)
{
	bool people = flags & SP_COLS_PEOPLE;
	size_t n = 0;
	bool tgid_view = r->keys == SP_K_TGID;
	bool by_time = r->by_time;

	if (r->keys & SP_K_PID)
		cols[n++] = SP_COL_PID;
	if (r->keys & SP_K_TGID)
		cols[n++] = SP_COL_TGID;
	if (!r->delta && !by_time) {
		cols[n++] = SP_COL_COUNT;
		if (people)
			cols[n++] = SP_COL_PCT;
		cols[n++] = SP_COL_TIME;
		n += time_shape(r, cols + n);
		n += split_shape(r, cols + n, flags);
	} else if (!r->delta) {
		cols[n++] = SP_COL_TIME;
		if (people)
			cols[n++] = SP_COL_PCT;
		n += time_shape(r, cols + n);
		n += split_shape(r, cols + n, flags);
		cols[n++] = SP_COL_COUNT;
	} else if (!by_time) {
		cols[n++] = SP_COL_DELTA;
		if (people)
			cols[n++] = SP_COL_PCT;
		cols[n++] = SP_COL_RATE;
		cols[n++] = SP_COL_COUNT;
		cols[n++] = SP_COL_DTIME;
		cols[n++] = SP_COL_TRATE;
		cols[n++] = SP_COL_TIME;
		n += time_shape(r, cols + n);
		n += split_shape(r, cols + n, flags);
	} else {
		cols[n++] = SP_COL_DTIME;
		if (people)
			cols[n++] = SP_COL_PCT;
		cols[n++] = SP_COL_TRATE;
		cols[n++] = SP_COL_TIME;
		cols[n++] = SP_COL_DELTA;
		cols[n++] = SP_COL_RATE;
		cols[n++] = SP_COL_COUNT;
		n += time_shape(r, cols + n);
		n += split_shape(r, cols + n, flags);
	}
	/* by pid: the tasks a row of exited tasks holds, when one is shown */
	if (!(r->keys & SP_K_PID) ||
	    ((flags & SP_COLS_TASKS) && r->exited_shown))
		cols[n++] = SP_COL_TASKS;
	if (!(r->keys & SP_K_SITE))
		cols[n++] = SP_COL_SITES;
	if ((r->keys & SP_K_COMM) || tgid_view)
		cols[n++] = SP_COL_COMM;
	if (r->keys & SP_K_KIND)
		cols[n++] = SP_COL_KIND;
	if (r->keys & SP_K_SITE)
		cols[n++] = SP_COL_SITE;
	return n;
}

const char *sp_col_name(const struct sp_result *r, enum sp_col c)
{
	if (c == SP_COL_SITE)
		return sp_site_label(r->o);
	return col_info[c].name;
}

const char *sp_col_header(const struct sp_result *r, enum sp_col c)
{
	static const char *const site[] = {
		[SP_GROUP_SITE] = "SITE", [SP_GROUP_FUNCTION] = "FUNCTION",
		[SP_GROUP_MODULE] = "MODULE", [SP_GROUP_KIND] = "KIND",
	};

	if (c == SP_COL_SITE)
		return site[r->o->group];
	return col_info[c].header;
}

bool sp_col_left(enum sp_col c)
{
	return col_info[c].left;
}

size_t sp_label_columns(const struct sp_result *r, enum sp_col *cols)
{
	size_t n = 0;

	if (r->keys & SP_K_PID)
		cols[n++] = SP_COL_PID;
	if (r->keys & SP_K_TGID)
		cols[n++] = SP_COL_TGID;
	if ((r->keys & SP_K_COMM) || r->keys == SP_K_TGID)
		cols[n++] = SP_COL_COMM;
	if (r->keys & SP_K_KIND)
		cols[n++] = SP_COL_KIND;
	if (r->keys & SP_K_SITE)
		cols[n++] = SP_COL_SITE;
	return n;
}

void sp_cell_uint(struct sp_cell *cell, sp_u128 v)
{
	cell->type = SP_CELL_UINT;
	cell->u = v;
}

void sp_cell_ns(struct sp_cell *cell, sp_u128 v)
{
	cell->type = SP_CELL_NS;
	cell->u = v;
}

static void cell_rate(struct sp_cell *cell, double v, int people, int machines)
{
	cell->type = v < 0 ? SP_CELL_NONE : SP_CELL_RATE;
	cell->d = v;
	cell->prec[0] = people;
	cell->prec[1] = machines;
}

/*
 * The pid or tgid of a row of exited tasks: a word for people, for CSV the
 * number the file has (pid 0; tgid, in views by pid, the exited tasks).
 */
static void cell_exited(struct sp_cell *cell, const char *word, uint64_t v)
{
	cell->type = SP_CELL_EXITED;
	cell->s = word;
	cell->len = strlen(word);
	cell->u = v;
}

void sp_value_cell(const struct sp_result *r, sp_u128 v, struct sp_cell *cell)
{
	memset(cell, 0, sizeof(*cell));
	if (r->by_time)
		sp_cell_ns(cell, v);
	else
		sp_cell_uint(cell, v);
}

void sp_cell_get(const struct sp_result *r, const struct sp_group *g,
		 enum sp_col c, struct sp_cell *cell)
{
	sp_u128 total, mean;
	uint64_t p;

	memset(cell, 0, sizeof(*cell));
	switch (c) {
	case SP_COL_PID:
		if (g->exited)
			cell_exited(cell, "exited", SP_PID_EXITED);
		else
			sp_cell_uint(cell, g->pid);
		break;
	case SP_COL_TGID:
		if (g->exited && (r->keys & SP_K_PID))	/* TASKS has them */
			cell_exited(cell, "-", sp_group_exited(r, g));
		else if (g->exited)			/* by tgid: TASKS */
			cell_exited(cell, "exited", 0);
		else
			sp_cell_uint(cell, g->tgid);
		break;
	case SP_COL_COUNT:
		sp_cell_uint(cell, g->count);
		break;
	case SP_COL_DELTA:
		sp_cell_uint(cell, g->delta);
		break;
	case SP_COL_PCT:
		total = sp_result_value(r);
		cell->type = total ? SP_CELL_PCT : SP_CELL_NONE;
		cell->d = total ? 100.0 * (double)sp_group_value(r, g) / (double)total : 0;
		break;
	case SP_COL_RATE:
		cell_rate(cell, sp_rate(r, g->delta), 1, 3);
		break;
	case SP_COL_TRATE:
		cell_rate(cell, sp_time_rate(r, g->delta_ns), 3, 6);
		break;
	case SP_COL_TIME:
		sp_cell_ns(cell, g->total_ns);
		break;
	case SP_COL_DTIME:
		sp_cell_ns(cell, g->delta_ns);
		break;
	case SP_COL_MEAN:
		if (sp_group_mean(r, g, &mean))
			sp_cell_ns(cell, mean);
		break;
	case SP_COL_MAX:
		sp_cell_ns(cell, g->max_ns);
		break;
	case SP_COL_P50:
	case SP_COL_P90:
	case SP_COL_P99:
		if (sp_group_percentile(r, g, c == SP_COL_P50 ? 50 : c == SP_COL_P90 ? 90 : 99, &p))
			sp_cell_ns(cell, p);
		break;
	case SP_COL_WAIT:
	case SP_COL_DELAY:
		sp_cell_ns(cell, sp_group_split_ns(r, g, c == SP_COL_WAIT ?
						SP_SPLIT_WAIT : SP_SPLIT_DELAY, false));
		break;
	case SP_COL_DWAIT:
	case SP_COL_DDELAY:
		sp_cell_ns(cell, sp_group_split_ns(r, g, c == SP_COL_DWAIT ?
						SP_SPLIT_WAIT : SP_SPLIT_DELAY, true));
		break;
	case SP_COL_WMAX:
	case SP_COL_DMAX:
		sp_cell_ns(cell, sp_group_split_max(r, g, c == SP_COL_WMAX ?
						 SP_SPLIT_WAIT : SP_SPLIT_DELAY));
		break;
	case SP_COL_WP50:
	case SP_COL_WP90:
	case SP_COL_WP99:
		if (sp_group_split_percentile(r, g, SP_SPLIT_WAIT,
					      c == SP_COL_WP50 ? 50 : c == SP_COL_WP90 ? 90 : 99, &p))
			sp_cell_ns(cell, p);
		break;
	case SP_COL_DP50:
	case SP_COL_DP90:
	case SP_COL_DP99:
		if (sp_group_split_percentile(r, g, SP_SPLIT_DELAY,
					      c == SP_COL_DP50 ? 50 : c == SP_COL_DP90 ? 90 : 99, &p))
			sp_cell_ns(cell, p);
		break;
	case SP_COL_TASKS:
		sp_cell_uint(cell, sp_group_tasks(r, g));
		break;
	case SP_COL_SITES:
		sp_cell_uint(cell, g->nsites);
		break;
	case SP_COL_COMM:
		cell->type = SP_CELL_COMM;
		cell->s = sp_group_comm(r, g, &cell->len);
		break;
	case SP_COL_SITE:
		cell->type = SP_CELL_WORD;
		cell->s = sp_site_name(r, g);
		cell->len = strlen(cell->s);
		break;
	case SP_COL_KIND:
		cell->type = SP_CELL_WORD;
		cell->s = sp_kind_name(g->kind);
		cell->len = strlen(cell->s);
		break;
	}
}

const char *sp_cell_text(const struct sp_cell *cell, bool people, char *buf,
			 size_t len, size_t *outlen)
{
	char digits[SP_U128_DIGITS];
	const char *s = buf;

	switch (cell->type) {
	case SP_CELL_NONE:
		snprintf(buf, len, "%s", people ? "-" : "");
		break;
	case SP_CELL_UINT:
		snprintf(buf, len, "%s", sp_u128_str(digits, cell->u));
		break;
	case SP_CELL_NS:
		if (people)
			sp_fmt_duration(buf, len, cell->u);
		else
			snprintf(buf, len, "%s", sp_u128_str(digits, cell->u));
		break;
	case SP_CELL_PCT:
		snprintf(buf, len, "%.1f%%", cell->d);
		break;
	case SP_CELL_RATE:
		snprintf(buf, len, "%.*f", cell->prec[!people], cell->d);
		break;
	case SP_CELL_COMM:
		if (!people) {		/* the name itself; CSV quotes it */
			*outlen = cell->len;
			return cell->s;
		}
		/* display form: len is at least 4 * SP_MAX_LINE + 1 */
		*outlen = sp_escape(buf, cell->s, cell->len, 0);
		return buf;
	case SP_CELL_WORD:
		*outlen = cell->len;
		return cell->s;
	case SP_CELL_EXITED:
		if (people) {
			*outlen = cell->len;
			return cell->s;
		}
		snprintf(buf, len, "%s", sp_u128_str(digits, cell->u));
		break;
	}
	*outlen = strlen(s);
	return s;
}
