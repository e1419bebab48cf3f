// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the parser (and what renders parsed input).
 *
 * Each input is parsed once as a single snapshot and once as a stream of
 * snapshots; a snapshot that parses is then rendered in every view and
 * format (with groupings by site, function, module and kind, every sort key
 * (the percentiles too), hist with and without X, CSV and the heat map by
 * bucket,
 * count and time as the value, with and without a --kind filter), and two
 * consecutive snapshots of a stream go through sp_delta().  Rendering does
 * not depend on sp_input_ok(): options that need histograms must not crash
 * on input without them either.
 * Each input is also parsed as /proc/sched_points_blocked, and one that
 * parses is grouped with and without --min and rendered in its four formats;
 * and as /proc/sched_points_wakers, whose views (wakers, wakes, chain) are
 * rendered in their four formats.
 * Output goes to /dev/null.  Any crash, sanitizer report or leak fails.
 *
 *   make fuzz FUZZ_TIME=600
 */
#include <stdlib.h>
#include <string.h>

#include "schedpoints.h"

static FILE *devnull(void)
{
	static FILE *fp;	/* opened once for the whole run */

	if (!fp)
		fp = fopen("/dev/null", "w");
	if (!fp)
		abort();
	return fp;
}

static void render_all(const struct sp_store *st, bool delta)
{
	static const enum sp_view views[] = {
		SP_VIEW_SITES, SP_VIEW_TASKS, SP_VIEW_SITE, SP_VIEW_TASK,
		SP_VIEW_MATRIX, SP_VIEW_HIST,
	};
	static const enum sp_format formats[] = {
		SP_FMT_TABLE, SP_FMT_CSV, SP_FMT_JSON, SP_FMT_FOLDED,
		SP_FMT_PROM, SP_FMT_SVG,
	};
	char *mods[] = { (char *)"*" };
	size_t v, f;

	for (v = 0; v < sizeof(views) / sizeof(views[0]); v++) {
		for (f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
			struct sp_opts o = { 0 };
			struct sp_out out = { .fp = devnull(), .o = &o };

			/* svg: the matrix, or sites x buckets; hist: three formats */
			if (formats[f] == SP_FMT_SVG && views[v] != SP_VIEW_MATRIX &&
			    views[v] != SP_VIEW_SITES)
				continue;
			if (views[v] == SP_VIEW_HIST && formats[f] != SP_FMT_TABLE &&
			    formats[f] != SP_FMT_CSV && formats[f] != SP_FMT_JSON)
				continue;
			o.view = views[v];
			o.view_arg = views[v] == SP_VIEW_HIST && (f & 1) ? NULL : "do_nanosleep";
			o.buckets = (formats[f] == SP_FMT_SVG && views[v] == SP_VIEW_SITES) ||
				    (formats[f] == SP_FMT_CSV && (v & 1));
			o.task_pid = st->nrows ? st->rows[0].pid : 0;
			o.format = formats[f];
			o.group = (enum sp_group_by)((v + f) % 4);
			o.sort[0] = (enum sp_sort)((v * 6 + f) % SP_NSORTS);
			o.sort[1] = (enum sp_sort)((v + f) % SP_NSORTS);
			o.nsort = (v + f) % 3;
			o.by = (enum sp_task_by)((v + f) % 3);
			o.value = (enum sp_value)((v + f / 2) % 2);
			o.top = f & 1 ? 3 : 0;
			o.top_given = f & 1;
			o.columns = 2;
			o.columns_given = v & 1;
			o.f.modules = mods;
			o.f.nmodules = f == 2;
			o.f.kinds = f == 4 ? 1u << SP_KIND_SLEEP | 1u << SP_KIND_YIELD |
					    1u << SP_KIND_DISK_SLEEP : 0;
			sp_render(&out, st, delta, delta ? 1.5 : 0);
		}
	}
}

/* The same bytes as /proc/sched_points_blocked (blocked.c). */
static void blocked_all(const uint8_t *data, size_t size)
{
	static const enum sp_format formats[] = {
		SP_FMT_TABLE, SP_FMT_CSV, SP_FMT_JSON, SP_FMT_PROM,
	};
	struct sp_reader r;
	struct sp_blocked b;
	struct sp_error err;

	sp_reader_init_mem(&r, (const char *)data, size, "fuzz");
	sp_blocked_init(&b, "fuzz");
	if (sp_parse_blocked(&r, &b, &err) == 0) {
		for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
			struct sp_opts o = { 0 };
			struct sp_out out = { .fp = devnull(), .o = &o };

			o.format = formats[f];
			o.pretty = f == 2;
			sp_blocked_group(&b, f & 1 ? 0 :
					 b.ntasks ? b.tasks[b.ntasks / 2].waiting_ns : 1);
			sp_blocked_render(&out, &b);
		}
	} else if (!strstr(err.msg, "fuzz")) {
		abort();	/* every error names the input */
	}
	sp_blocked_free(&b);
	sp_reader_free(&r);
}

/*
 * The same bytes as /proc/sched_points_wakers (wakers.c): wakers and wakes
 * at a site every line has (and one that none has), with and without -v,
 * sorted by each key they take, in the four formats; chain from a pid, a
 * site and a name over the same bytes as /proc/sched_points, when they
 * parse as that too, else over an empty snapshot.
 */
static void wakers_all(const uint8_t *data, size_t size)
{
	static const enum sp_format formats[] = {
		SP_FMT_TABLE, SP_FMT_CSV, SP_FMT_JSON, SP_FMT_PROM,
	};
	static const enum sp_sort sorts[] = {
		SP_SORT_COUNT, SP_SORT_TIME, SP_SORT_MEAN, SP_SORT_WAIT,
		SP_SORT_DELAY, SP_SORT_P50, SP_SORT_P90, SP_SORT_P99,
	};
	static const char *const sites[] = { "[vmlinux]", "pipe_read", "nothing" };
	struct sp_reader r;
	struct sp_wakers w;
	struct sp_store st;
	struct sp_error err;

	sp_reader_init_mem(&r, (const char *)data, size, "fuzz");
	sp_wakers_init(&w, "fuzz");
	if (sp_parse_wakers(&r, &w, &err) == 0) {
		sp_reader_free(&r);
		sp_reader_init_mem(&r, (const char *)data, size, "fuzz");
		sp_store_init(&st, "fuzz");
		if (sp_parse_snapshot(&r, &st, false, &err) < 0) {
			sp_store_free(&st);
			sp_store_init(&st, "empty");
		}
		for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
			for (size_t s = 0; s < sizeof(sites) / sizeof(sites[0]); s++) {
				struct sp_opts o = { 0 };
				struct sp_out out = { .fp = devnull(), .o = &o };
				struct sp_wview v;
				struct sp_chain c;
				char pid[16];

				o.format = formats[f];
				o.pretty = f == 2;
				o.verbose = s & 1;
				o.sort[0] = sorts[(f * 3 + s) % 8];
				o.nsort = (f + s) % 2;
				o.reverse = f == 1;
				o.top = 2;
				o.top_given = s == 2;
				sp_wview_build(&v, &w, &o, (enum sp_wview_kind)((f + s) % 2),
					       s == 0 && w.nlines ?
					       sp_pool_str(&w.syms, w.lines[0].sym) : sites[s]);
				sp_wview_render(&out, &v);
				sp_wview_free(&v);
				snprintf(pid, sizeof(pid), "%u", w.nlines ? w.lines[w.nlines - 1].pid : 1);
				o.hops = (uint32_t)(f + 1);
				o.hops_given = s != 1;
				o.sort[0] = f & 1 ? SP_SORT_TIME : SP_SORT_COUNT;
				if (!sp_chain_build(&c, &w, &st, &o,
						    s == 0 ? pid : s == 1 ? sites[1] : "worker"))
					sp_chain_render(&out, &c);
				sp_chain_free(&c);
			}
		}
		sp_store_free(&st);
	} else if (!strstr(err.msg, "fuzz")) {
		abort();	/* every error names the input */
	}
	sp_wakers_free(&w);
	sp_reader_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sp_reader r;
	struct sp_store st, prev;
	struct sp_error err;
	bool have_prev = false;
	int i;

	blocked_all(data, size);
	wakers_all(data, size);
	sp_reader_init_mem(&r, (const char *)data, size, "fuzz");
	sp_store_init(&st, "fuzz");
	if (sp_parse_snapshot(&r, &st, false, &err) > 0)
		render_all(&st, false);
	else if (!strstr(err.msg, "fuzz"))
		abort();	/* every error names the input */
	sp_store_free(&st);
	sp_reader_free(&r);

	sp_reader_init_mem(&r, (const char *)data, size, "fuzz");
	for (i = 0; i < 4; i++) {
		sp_store_init(&st, "fuzz");
		if (sp_parse_snapshot(&r, &st, true, &err) <= 0) {
			sp_store_free(&st);
			break;
		}
		if (have_prev) {
			char why[512];

			if (!sp_delta(&st, &prev, why, sizeof(why)))
				render_all(&st, true);
			sp_store_free(&prev);
		}
		prev = st;
		have_prev = true;
	}
	if (have_prev)
		sp_store_free(&prev);
	sp_reader_free(&r);
	return 0;
}
