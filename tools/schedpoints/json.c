// SPDX-License-Identifier: GPL-2.0-only
/*
 * JSON output: one document per result (per sample in top mode, one per
 * line unless --pretty), all written through json_writer.c.  The schema is
 * documented in schedpoints.8 (JSON OUTPUT); keys of the row objects are the
 * column names shared with CSV (sp_col_name()).
 */
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "schedpoints.h"

/* A name: its bytes, escaped by the writer (see json_writer.h). */
static void json_text(struct json_writer *jw, const char *raw, size_t len)
{
	jsonw_string_len(jw, raw, len);
}

static void json_summary_value(struct json_writer *jw, const char *name,
			       int64_t v)
{
	if (v < 0)
		jsonw_null_field(jw, name);
	else
		jsonw_uint_field(jw, name, (uint64_t)v);
}

static void json_u128(struct json_writer *jw, sp_u128 v)
{
	char digits[SP_U128_DIGITS];

	jsonw_number(jw, sp_u128_str(digits, v));
}

static void json_u128_field(struct json_writer *jw, const char *name,
			    sp_u128 v)
{
	jsonw_name(jw, name);
	json_u128(jw, v);
}

/* The fields every document starts with. */
static void json_head(struct json_writer *jw, const struct sp_out *out,
		      const struct sp_store *st)
{
	const struct sp_opts *o = out->o;
	const struct sp_summary *s = &st->sum;

	jsonw_name(jw, "source");
	json_text(jw, st->name, strlen(st->name));
	jsonw_string_field(jw, "version", st->version);
	jsonw_name(jw, "summary");
	jsonw_start_object(jw);
	json_summary_value(jw, "enabled", s->enabled);
	json_summary_value(jw, "cpus", s->cpus);
	json_summary_value(jw, "capacity", s->capacity);
	json_summary_value(jw, "used", s->used);
	json_summary_value(jw, "entries", s->entries);
	json_summary_value(jw, "dropped", s->dropped);
	if (s->folded >= 0)	/* format 2: only when the input says */
		jsonw_uint_field(jw, "folded", (uint64_t)s->folded);
	if (sp_mode_name(s->mode))
		jsonw_string_field(jw, "mode", sp_mode_name(s->mode));
	else
		jsonw_null_field(jw, "mode");
	json_summary_value(jw, "time", s->time);
	json_summary_value(jw, "kinds", s->kinds);
	json_summary_value(jw, "hist", s->hist);
	jsonw_end_object(jw);
	jsonw_bool_field(jw, "has_hist", st->has_hist);
	jsonw_string_field(jw, "view", sp_view_name(o->view));
	jsonw_string_field(jw, "group", sp_site_label(o));
	jsonw_string_field(jw, "value", o->value == SP_VALUE_TIME ? "time" : "count");
	if (o->view == SP_VIEW_TASKS || o->view == SP_VIEW_SITE ||
	    o->view == SP_VIEW_MATRIX) {	/* the views --by applies to */
		static const char *const by[] = { "pid", "tgid", "comm" };

		jsonw_string_field(jw, "by", by[o->by]);
	}
	if (o->view_arg && o->view != SP_VIEW_TASK) {	/* site X, hist X: any bytes */
		jsonw_name(jw, "site");
		json_text(jw, o->view_arg, strlen(o->view_arg));
	}
	if (o->view == SP_VIEW_TASK)
		jsonw_uint_field(jw, "pid", o->task_pid);
	if (out->sample)
		jsonw_uint_field(jw, "sample", out->sample);
}

static void json_totals(struct json_writer *jw, const struct sp_out *out,
			const struct sp_result *r)
{
	jsonw_bool_field(jw, "delta", r->delta);
	if (r->delta) {
		double rate = sp_rate(r, r->total_delta);

		if (r->interval > 0) {
			jsonw_float_field(jw, "interval", r->interval);
			if (out->interval_from)
				jsonw_string_field(jw, "interval_from", out->interval_from);
			else
				jsonw_null_field(jw, "interval_from");
		} else {
			jsonw_null_field(jw, "interval");
			jsonw_null_field(jw, "interval_from");
		}
		jsonw_bool_field(jw, "reset", false);
		jsonw_uint_field(jw, "total_delta", r->total_delta);
		if (rate >= 0)
			jsonw_float_field(jw, "rate", rate);
		else
			jsonw_null_field(jw, "rate");
		rate = sp_time_rate(r, r->total_delta_ns);
		json_u128_field(jw, "total_delta_ns", r->total_delta_ns);
		if (r->split) {
			json_u128_field(jw, "total_delta_wait_ns", r->total_delta_wait_ns);
			json_u128_field(jw, "total_delta_delay_ns",
					r->total_delta_ns - r->total_delta_wait_ns);
		}
		if (rate >= 0)
			jsonw_float_field(jw, "time_rate", rate);
		else
			jsonw_null_field(jw, "time_rate");
	}
	jsonw_uint_field(jw, "total", r->total);
	json_u128_field(jw, "total_ns", r->total_ns);
	/* the split of off-CPU time: the wait and the run delay */
	jsonw_bool_field(jw, "has_split", r->split);
	if (r->split) {
		json_u128_field(jw, "total_wait_ns", r->total_wait_ns);
		json_u128_field(jw, "total_delay_ns", r->total_ns - r->total_wait_ns);
	}
	jsonw_uint_field(jw, "rows_total", r->ngroups);
}

static void json_cell(struct json_writer *jw, const struct sp_cell *cell)
{
	switch (cell->type) {
	case SP_CELL_NONE:
	case SP_CELL_PCT:	/* a share for people; the numbers are here */
	case SP_CELL_EXITED:	/* exited tasks: no pid, no thread group */
		jsonw_null(jw);
		break;
	case SP_CELL_UINT:
	case SP_CELL_NS:
		json_u128(jw, cell->u);
		break;
	case SP_CELL_RATE:
		jsonw_float(jw, cell->d);
		break;
	case SP_CELL_COMM:
	case SP_CELL_WORD:
		json_text(jw, cell->s, cell->len);
		break;
	}
}

/*
 * "buckets": the non-empty buckets of a histogram, each {"bucket": K,
 * "lower_ns": .., "upper_ns": .. (null for the last, open one), "count": ..}.
 */
static void json_buckets(struct json_writer *jw, const char *name,
			 const struct sp_hist *h)
{
	unsigned b;

	jsonw_name(jw, name);
	jsonw_start_array(jw);
	for (b = 0; b < SP_HIST_N; b++) {
		if (!h->n[b])
			continue;
		jsonw_start_object(jw);
		jsonw_uint_field(jw, "bucket", SP_HIST_MIN + b);
		jsonw_uint_field(jw, "lower_ns", sp_hist_lower(b));
		if (sp_hist_upper(b))
			jsonw_uint_field(jw, "upper_ns", sp_hist_upper(b));
		else
			jsonw_null_field(jw, "upper_ns");
		jsonw_uint_field(jw, "count", h->n[b]);
		jsonw_end_object(jw);
	}
	jsonw_end_array(jw);
}

static void json_group(struct json_writer *jw, const struct sp_result *r,
		       const struct sp_group *g)
{
	enum sp_col cols[SP_MAX_COLS];
	size_t ncols = sp_result_columns(r, cols, SP_COLS_TASKS), c;
	struct sp_cell cell;

	for (c = 0; c < ncols; c++) {
		jsonw_name(jw, sp_col_name(r, cols[c]));
		sp_cell_get(r, g, cols[c], &cell);
		json_cell(jw, &cell);
	}
	/* views by pid or tgid that show a row of exited tasks: which it is */
	if (r->exited_shown)
		jsonw_bool_field(jw, "exited", g->exited);
	if (r->hist)
		json_buckets(jw, "buckets", sp_group_hist(r, g));
	if (r->hist && r->split) {	/* the same for the wait, the run delay */
		json_buckets(jw, "wait_buckets", sp_group_split_hist(r, g, SP_SPLIT_WAIT));
		json_buckets(jw, "delay_buckets", sp_group_split_hist(r, g, SP_SPLIT_DELAY));
	}
}

void sp_json_result(struct sp_out *out, const struct sp_result *r)
{
	struct json_writer *jw = jsonw_new(out->fp, out->o->pretty);
	uint32_t i;

	jsonw_start_object(jw);
	json_head(jw, out, r->st);
	json_totals(jw, out, r);
	jsonw_name(jw, "rows");
	jsonw_start_array(jw);
	for (i = 0; i < r->nshown; i++) {
		jsonw_start_object(jw);
		json_group(jw, r, &r->groups[i]);
		jsonw_end_object(jw);
	}
	jsonw_end_array(jw);
	jsonw_end_object(jw);
	jsonw_destroy(&jw);
}

void sp_json_matrix(struct sp_out *out, const struct sp_matrix *m)
{
	const struct sp_result *rows = &m->tasks, *cols = &m->sites;
	struct json_writer *jw = jsonw_new(out->fp, out->o->pretty);
	uint32_t i, c;

	jsonw_start_object(jw);
	json_head(jw, out, rows->st);
	json_totals(jw, out, rows);
	jsonw_uint_field(jw, "columns_total", cols->ngroups);
	jsonw_name(jw, "columns");
	jsonw_start_array(jw);
	for (c = 0; c < cols->nshown; c++) {
		jsonw_start_object(jw);
		json_group(jw, cols, &cols->groups[c]);
		jsonw_end_object(jw);
	}
	jsonw_end_array(jw);
	jsonw_name(jw, "rows");
	jsonw_start_array(jw);
	for (i = 0; i < rows->nshown; i++) {
		const struct sp_group *g = &rows->groups[i];

		jsonw_start_object(jw);
		json_group(jw, rows, g);
		jsonw_name(jw, "cells");
		jsonw_start_array(jw);
		for (c = 0; c < cols->nshown; c++)
			json_u128(jw, sp_matrix_cell(m, g, &cols->groups[c]));
		jsonw_end_array(jw);
		jsonw_end_object(jw);
	}
	jsonw_end_array(jw);
	jsonw_end_object(jw);
	jsonw_destroy(&jw);
}

/* top: the counters went back; no delta for this sample. */
void sp_json_reset(struct sp_out *out, const struct sp_store *st,
		   const char *why)
{
	struct json_writer *jw = jsonw_new(out->fp, out->o->pretty);

	jsonw_start_object(jw);
	json_head(jw, out, st);
	jsonw_bool_field(jw, "delta", true);
	jsonw_bool_field(jw, "reset", true);
	jsonw_name(jw, "message");
	json_text(jw, why, strlen(why));
	jsonw_end_object(jw);
	jsonw_destroy(&jw);
}

/*
 * blocked: the summary, the filter, then "sites", longest first, each with
 * its tasks ("blocked"), longest first.  Keys as the CSV columns.
 */
void sp_json_blocked(struct sp_out *out, const struct sp_blocked *b)
{
	struct json_writer *jw = jsonw_new(out->fp, out->o->pretty);
	char state[2] = { 0 };
	uint32_t i, k;

	jsonw_start_object(jw);
	jsonw_name(jw, "source");
	json_text(jw, b->name, strlen(b->name));
	jsonw_string_field(jw, "version", "1");
	jsonw_name(jw, "summary");
	jsonw_start_object(jw);
	json_summary_value(jw, "enabled", b->enabled);
	jsonw_string_field(jw, "mode", sp_mode_name(b->mode));
	json_summary_value(jw, "time", b->time);
	json_summary_value(jw, "entries", b->entries);
	jsonw_end_object(jw);
	jsonw_string_field(jw, "view", "blocked");
	jsonw_uint_field(jw, "min_ns", b->min_ns);
	jsonw_uint_field(jw, "tasks", b->nshown);
	jsonw_uint_field(jw, "sites_total", b->nsites);
	jsonw_uint_field(jw, "longest_ns", b->longest_ns);
	jsonw_name(jw, "sites");
	jsonw_start_array(jw);
	for (i = 0; i < b->nsites; i++) {
		const struct sp_bsite *s = &b->sites[i];

		jsonw_start_object(jw);
		jsonw_name(jw, "site");
		json_text(jw, sp_pool_str(&b->syms, s->sym), sp_pool_len(&b->syms, s->sym));
		jsonw_uint_field(jw, "tasks", s->ntasks);
		jsonw_uint_field(jw, "longest_ns", s->longest_ns);
		jsonw_name(jw, "blocked");
		jsonw_start_array(jw);
		for (k = s->first; k < s->first + s->ntasks; k++) {
			const struct sp_btask *t = &b->tasks[b->order[k]];

			jsonw_start_object(jw);
			jsonw_uint_field(jw, "pid", t->pid);
			jsonw_uint_field(jw, "tgid", t->tgid);
			jsonw_name(jw, "comm");
			json_text(jw, sp_pool_str(&b->comms, t->comm),
				  sp_pool_len(&b->comms, t->comm));
			jsonw_string_field(jw, "kind", sp_kind_name(t->kind));
			state[0] = t->state;
			jsonw_string_field(jw, "state", state);
			jsonw_uint_field(jw, "waiting_ns", t->waiting_ns);
			jsonw_end_object(jw);
		}
		jsonw_end_array(jw);
		jsonw_end_object(jw);
	}
	jsonw_end_array(jw);
	jsonw_end_object(jw);
	jsonw_destroy(&jw);
}

/* ---- wakers, wakes, chain ------------------------------------------------ */

static void json_wakers_head(struct json_writer *jw, const char *key,
			     const struct sp_wakers *w)
{
	jsonw_name(jw, key);
	json_text(jw, w->name, strlen(w->name));
	jsonw_string_field(jw, strcmp(key, "source") ? "wakers_version" : "version", "1");
	jsonw_name(jw, strcmp(key, "source") ? "wakers_summary" : "summary");
	jsonw_start_object(jw);
	json_summary_value(jw, "enabled", w->enabled);
	jsonw_string_field(jw, "mode", sp_mode_name(w->mode));
	json_summary_value(jw, "wakers", w->wakers);
	json_summary_value(jw, "hist", w->hist);
	json_summary_value(jw, "entries", w->entries);
	json_summary_value(jw, "unlisted", w->unlisted);
	jsonw_end_object(jw);
}

/*
 * The rows of a table: an object per row, its columns by name (the CSV's),
 * "exited" where the row has a pid (true for the lines of exited tasks,
 * whose pid and tgid are null), and "buckets" when hists gives them.
 */
static void json_wrows(struct json_writer *jw, const char *key,
		       const struct sp_wtab *t,
		       const struct sp_hist *(*hist)(const void *ctx, size_t row))
{
	size_t i, c;

	jsonw_name(jw, key);
	jsonw_start_array(jw);
	for (i = 0; i < t->nrows; i++) {
		bool exited = false, has_pid = false;
		struct sp_cell cell;

		jsonw_start_object(jw);
		for (c = 0; c < t->ncols; c++) {
			jsonw_name(jw, sp_wcol_name(t->cols[c]));
			t->cell(t->ctx, i, t->cols[c], &cell);
			json_cell(jw, &cell);
			if (t->cols[c] == SP_WCOL_PID) {
				has_pid = true;
				exited = cell.type == SP_CELL_EXITED;
			}
		}
		if (has_pid)
			jsonw_bool_field(jw, "exited", exited);
		if (hist && hist(t->ctx, i))
			json_buckets(jw, "buckets", hist(t->ctx, i));
		jsonw_end_object(jw);
	}
	jsonw_end_array(jw);
}

static const struct sp_hist *wview_hist(const void *ctx, size_t row)
{
	const struct sp_wview *v = ctx;

	return v->rows[row].has_hist ? &v->rows[row].hist : NULL;
}

/*
 * wakers SITE, wakes SITE: the file's summary, what SITE matched, the sums
 * of the lines matched, then "rows" (sorted, after -n), keys as the CSV
 * columns.
 */
void sp_json_wview(struct sp_out *out, const struct sp_wview *v)
{
	struct json_writer *jw = jsonw_new(out->fp, out->o->pretty);
	const struct sp_wakers *w = v->w;
	struct sp_wtab t;
	uint32_t i;

	jsonw_start_object(jw);
	json_wakers_head(jw, "source", w);
	jsonw_bool_field(jw, "has_hist", w->hist == 1);
	jsonw_string_field(jw, "view", v->kind == SP_WVIEW_WAKERS ? "wakers" : "wakes");
	jsonw_name(jw, v->kind == SP_WVIEW_WAKERS ? "site" : "waker_site");
	json_text(jw, v->arg, strlen(v->arg));
	jsonw_bool_field(jw, "verbose", out->o->verbose);
	jsonw_name(jw, "sites");
	jsonw_start_array(jw);
	for (i = 0; i < v->nsites; i++)
		json_text(jw, sp_pool_str(&w->syms, v->sites[i]),
			  sp_pool_len(&w->syms, v->sites[i]));
	jsonw_end_array(jw);
	jsonw_uint_field(jw, "lines", v->nlines);
	jsonw_uint_field(jw, "total", v->total);
	json_u128_field(jw, "total_ns", v->total_ns);
	json_u128_field(jw, "total_wait_ns", v->wait_ns);
	json_u128_field(jw, "total_delay_ns", v->total_ns - v->wait_ns);
	jsonw_uint_field(jw, "rows_total", v->nrows);
	sp_wview_tab(v, false, &t);
	json_wrows(jw, "rows", &t, wview_hist);
	jsonw_end_object(jw);
	jsonw_destroy(&jw);
}

/*
 * chain X: both sources, where it started, then "hops" in order and why
 * it stopped ("stop", a word; "stop_pid", the waker or task it stopped
 * at; "stop_hop", the hop a loop went back to, else null; "message").
 */
void sp_json_chain(struct sp_out *out, const struct sp_chain *c)
{
	struct json_writer *jw = jsonw_new(out->fp, out->o->pretty);
	const struct sp_store *st = c->st;
	struct sp_wtab t;
	char why[512];

	jsonw_start_object(jw);
	jsonw_name(jw, "source");
	json_text(jw, st->name, strlen(st->name));
	jsonw_string_field(jw, "version", st->version);
	json_wakers_head(jw, "wakers_source", c->w);
	jsonw_string_field(jw, "view", "chain");
	jsonw_name(jw, "start");
	json_text(jw, c->arg, strlen(c->arg));
	jsonw_string_field(jw, "from", c->from);
	jsonw_uint_field(jw, "hops_max", c->max_hops);
	jsonw_string_field(jw, "by", c->by_time ? "time" : "count");
	sp_chain_tab(c, false, &t);
	json_wrows(jw, "hops", &t, NULL);
	jsonw_string_field(jw, "stop", sp_chain_stop_name(c->stop));
	if (c->stop == SP_STOP_CONTEXT)
		jsonw_null_field(jw, "stop_pid");
	else
		jsonw_uint_field(jw, "stop_pid", c->stop_pid);
	if (c->stop == SP_STOP_LOOP)
		jsonw_uint_field(jw, "stop_hop", c->stop_hop);
	else
		jsonw_null_field(jw, "stop_hop");
	sp_chain_stop_text(c, why, sizeof(why));
	jsonw_string_field(jw, "message", why);
	jsonw_end_object(jw);
	jsonw_destroy(&jw);
}
