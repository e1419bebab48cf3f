// SPDX-License-Identifier: GPL-2.0-only
/*
 * Interval mode: deltas between two snapshots (top, diff).
 *
 * Rows are matched on the tool's row key (pid, tgid, comm, symbol, kind).
 * The kernel never removes an entry except on reset or when the tables are
 * reallocated, so between two snapshots of the same table every row of the
 * older one is still there with a count, off-CPU time and longest stretch
 * at least as high.  If a row is gone, one of those went down, 'dropped'
 * went down, 'capacity' changed or the format version changed, the counters
 * were reset (or the kernel changed): that is said, and no delta is computed
 * across it (the next interval starts from the new snapshot).  A reset
 * followed by so many hits that every row is back above its old values
 * cannot be told from the file.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "schedpoints.h"

#define NONE UINT32_MAX

static uint32_t *map_pool(const struct sp_pool *from, const struct sp_pool *to)
{
	uint32_t *map = sp_xrealloc(NULL, from->n ? from->n : 1, sizeof(*map));
	uint32_t i;

	for (i = 0; i < from->n; i++)
		if (!sp_pool_find(to, sp_pool_str(from, i), sp_pool_len(from, i),
				  &map[i]))
			map[i] = NONE;
	return map;
}

static void describe(char *why, size_t len, const struct sp_store *prev,
		     const struct sp_row *p, const char *what)
{
	char comm[4 * 64 + 1];
	uint32_t clen = sp_pool_len(&prev->comms, p->comm);

	sp_escape(comm, sp_pool_str(&prev->comms, p->comm), clen > 64 ? 64 : clen, 0);
	if (p->kind != SP_KIND_NONE)
		snprintf(why, len,
			 "counters went back between snapshots (pid %u '%s' at %s, %s: %s)",
			 p->pid, comm, sp_pool_str(&prev->syms, p->sym),
			 sp_kind_name(p->kind), what);
	else
		snprintf(why, len,
			 "counters went back between snapshots (pid %u '%s' at %s: %s)",
			 p->pid, comm, sp_pool_str(&prev->syms, p->sym), what);
}

int sp_delta(struct sp_store *cur, const struct sp_store *prev,
	     char *why, size_t whylen)
{
	uint32_t *cmap, *smap, i;
	int reset = 0;

	free(cur->deltas);
	cur->deltas = sp_xrealloc(NULL, cur->nrows ? cur->nrows : 1,
				  sizeof(*cur->deltas));
	for (i = 0; i < cur->nrows; i++) {
		cur->deltas[i].count = cur->rows[i].count;
		cur->deltas[i].ns = sp_row_time(cur, i).total_ns;
	}
	cur->total_delta = cur->total;
	cur->total_delta_ns = cur->total_ns;

	if (cur->major != prev->major) {
		snprintf(why, whylen,
			 "the format version changed between snapshots (%s -> %s)",
			 prev->version, cur->version);
		return 1;
	}
	if (prev->sum.dropped >= 0 && cur->sum.dropped >= 0 &&
	    cur->sum.dropped < prev->sum.dropped) {
		snprintf(why, whylen,
			 "counters went back between snapshots ('dropped' %lld -> %lld)",
			 (long long)prev->sum.dropped, (long long)cur->sum.dropped);
		return 1;
	}
	if (prev->sum.capacity >= 0 && cur->sum.capacity >= 0 &&
	    cur->sum.capacity != prev->sum.capacity) {
		snprintf(why, whylen,
			 "the tables were reallocated between snapshots ('capacity' %lld -> %lld), counts were lost",
			 (long long)prev->sum.capacity, (long long)cur->sum.capacity);
		return 1;
	}

	cmap = map_pool(&prev->comms, &cur->comms);
	smap = map_pool(&prev->syms, &cur->syms);
	for (i = 0; i < prev->nrows && !reset; i++) {
		const struct sp_row *p = &prev->rows[i];
		struct sp_rtime pt = sp_row_time(prev, i), ct;
		const struct sp_row *c;
		uint32_t ri;
		char what[96];

		if (cmap[p->comm] == NONE || smap[p->sym] == NONE ||
		    !sp_store_find(cur, p->pid, p->tgid, cmap[p->comm],
				   smap[p->sym], p->kind, &ri)) {
			snprintf(what, sizeof(what), "count %llu, now gone",
				 (unsigned long long)p->count);
			describe(why, whylen, prev, p, what);
			reset = 1;
			continue;
		}
		c = &cur->rows[ri];
		ct = sp_row_time(cur, ri);
		if (c->count < p->count) {
			snprintf(what, sizeof(what), "count %llu -> %llu",
				 (unsigned long long)p->count,
				 (unsigned long long)c->count);
		} else if (ct.total_ns < pt.total_ns) {
			snprintf(what, sizeof(what), "total_ns %llu -> %llu",
				 (unsigned long long)pt.total_ns,
				 (unsigned long long)ct.total_ns);
		} else if (ct.max_ns < pt.max_ns) {
			snprintf(what, sizeof(what), "max_ns %llu -> %llu",
				 (unsigned long long)pt.max_ns,
				 (unsigned long long)ct.max_ns);
		} else {
			cur->deltas[ri].count = c->count - p->count;
			cur->deltas[ri].ns = ct.total_ns - pt.total_ns;
			cur->total_delta -= p->count;
			cur->total_delta_ns -= pt.total_ns;
			continue;
		}
		describe(why, whylen, prev, p, what);
		reset = 1;
	}
	free(cmap);
	free(smap);
	return reset;
}

/* ---- diff --------------------------------------------------------------- */

static double mtime_of(const char *path)
{
	struct stat sb;

	if (!strcmp(path, "-") || stat(path, &sb) || !S_ISREG(sb.st_mode))
		return NAN;
	return (double)sb.st_mtim.tv_sec + (double)sb.st_mtim.tv_nsec / 1e9;
}

int sp_cmd_diff(const struct sp_opts *o, const char *a, const char *b)
{
	struct sp_store sa, sb;
	struct sp_out out = { .o = o };
	char why[512], tmp[4096];
	double interval = 0;
	int rc = SP_EXIT_ERROR;

	if (!strcmp(a, "-") && !strcmp(b, "-")) {
		fputs("schedpoints: diff: only one of A and B can be stdin\n", stderr);
		return SP_EXIT_USAGE;
	}
	if (sp_load(a, &sa)) {
		sp_store_free(&sa);
		return SP_EXIT_ERROR;
	}
	if (sp_load(b, &sb) || sp_input_ok(o, &sa) || sp_input_ok(o, &sb))
		goto out;
	if (sp_delta(&sb, &sa, why, sizeof(why))) {
		fprintf(stderr, "schedpoints: diff %s %s: %s; no delta can be computed\n",
			sa.name, sb.name, why);
		goto out;
	}
	if (o->interval_given) {
		interval = o->interval;
	} else {
		/* copies saved a while apart; not files written in one go */
		double d = mtime_of(b) - mtime_of(a);

		if (isfinite(d) && d >= 1)
			interval = d;
	}
	out.fp = sp_output_open(o, tmp, sizeof(tmp));
	if (!out.fp)
		goto out;
	sp_render(&out, &sb, true, interval);
	rc = sp_output_close(o, out.fp, tmp) ? SP_EXIT_ERROR : SP_EXIT_OK;
out:
	sp_store_free(&sa);
	sp_store_free(&sb);
	return rc;
}

/* ---- top ---------------------------------------------------------------- */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_until(double t)
{
	double d = t - now();
	struct timespec ts;

	if (d <= 0)
		return;
	ts.tv_sec = (time_t)d;
	ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Next snapshot: a file (or /proc) is opened and read anew each time; a
 * stream on stdin holds snapshots one after the other.  1: read, 0: end of
 * the stream, -1: error (said).
 */
static int next_snapshot(const struct sp_opts *o, struct sp_reader *stream,
			 struct sp_store *st)
{
	struct sp_error err;
	int rc;

	if (!stream->fp)
		return sp_load(o->file, st) || sp_input_ok(o, st) ? -1 : 1;
	sp_store_init(st, "<stdin>");
	rc = sp_parse_snapshot(stream, st, true, &err);
	if (rc < 0)
		fprintf(stderr, "schedpoints: %s\n", err.msg);
	if (rc > 0 && sp_input_ok(o, st))
		return -1;
	return rc;
}

int sp_cmd_top(const struct sp_opts *o)
{
	bool is_stream = o->file && !strcmp(o->file, "-");
	double interval = o->interval_given ? o->interval : 2.0;
	struct sp_reader stream = { 0 };
	struct sp_store prev, cur;
	struct sp_out out = { .o = o };
	double t_prev;
	unsigned long sample;
	char why[512], msg[600], tmp[4096];
	bool clear = !o->output && o->format == SP_FMT_TABLE && isatty(1);
	int rc;

	if (is_stream)
		sp_reader_init_file(&stream, stdin, "<stdin>");
	rc = next_snapshot(o, &stream, &prev);
	if (rc <= 0) {
		if (!rc)
			fputs("schedpoints: <stdin>: empty input, expected 'sched_points version 1' or 'sched_points version 2'\n",
			      stderr);
		sp_store_free(&prev);
		sp_reader_free(&stream);
		return SP_EXIT_ERROR;
	}
	t_prev = now();
	for (sample = 1; !o->count || sample <= o->count; sample++) {
		if (!is_stream)
			sleep_until(t_prev + interval);
		rc = next_snapshot(o, &stream, &cur);
		if (rc <= 0) {
			sp_store_free(&cur);
			break;
		}
		double t_cur = now();

		out.sample = sample;
		out.reset_msg = NULL;
		if (o->output)		/* each file is a whole document */
			out.header_done = false;
		out.fp = sp_output_open(o, tmp, sizeof(tmp));
		if (!out.fp) {
			rc = -1;
			sp_store_free(&cur);
			break;
		}
		if (clear)
			fputs("\033[H\033[2J", out.fp);
		if (sp_delta(&cur, &prev, why, sizeof(why))) {
			snprintf(msg, sizeof(msg),
				 "%s; the interval restarts from this snapshot", why);
			fprintf(stderr, "schedpoints: sample %lu: %s\n", sample, msg);
			out.reset_msg = msg;
			if (o->format == SP_FMT_JSON)
				sp_json_reset(&out, &cur, msg);
			else if (o->format == SP_FMT_TABLE)
				sp_render(&out, &cur, true, 0);
		} else {
			/* a stream comes at its own pace: -i says how far apart */
			sp_render(&out, &cur, true,
				  is_stream ? (o->interval_given ? interval : 0) :
				  t_cur - t_prev);
		}
		if (o->format == SP_FMT_TABLE && !clear)
			fputc('\n', out.fp);
		if (sp_output_close(o, out.fp, tmp)) {
			rc = -1;
			sp_store_free(&cur);
			break;
		}
		sp_store_free(&prev);
		prev = cur;
		t_prev = t_cur;
	}
	sp_store_free(&prev);
	sp_reader_free(&stream);
	return rc < 0 ? SP_EXIT_ERROR : SP_EXIT_OK;
}
