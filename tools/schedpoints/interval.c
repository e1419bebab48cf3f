// SPDX-License-Identifier: GPL-2.0-only
/*
 * The interval commands: diff (two saved snapshots) and top (a snapshot
 * every --interval seconds, or a stream of them on stdin), with their
 * timing, screen handling and -o files.  The deltas come from sp_delta()
 * (delta.c).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "schedpoints.h"

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
	uint64_t n;
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
	sp_store_free(&sa);	/* the deltas are in sb: A's memory is not needed */
	if (o->interval_given) {
		interval = o->interval;
		out.interval_from = SP_IVL_OPTION;
	} else {
		/* copies saved a while apart; not files written in one go */
		double d = mtime_of(b) - mtime_of(a);

		if (isfinite(d) && d >= 1) {
			interval = d;
			out.interval_from = SP_IVL_MTIME;
			/* said in the table's head and the JSON; else here */
			if (o->format != SP_FMT_TABLE && o->format != SP_FMT_JSON)
				fprintf(stderr, "schedpoints: diff: rates over %.2f s, between the files' modification times (-i SEC sets it)\n",
					d);
		}
	}
	out.fp = sp_output_open(o, tmp, sizeof(tmp));
	if (!out.fp)
		goto out;
	n = sp_render(&out, &sb, true, interval);
	rc = sp_output_close(o, out.fp, tmp) || sp_no_match(o, n) ?
	     SP_EXIT_ERROR : SP_EXIT_OK;
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
			fputs("schedpoints: <stdin>: empty input, expected "
			      SP_EXPECT_VERSION "\n", stderr);
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
		int reset;

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
		reset = sp_delta(&cur, &prev, why, sizeof(why));
		sp_store_free(&prev);	/* the deltas are in cur */
		if (reset) {
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
			out.interval_from = !is_stream ? SP_IVL_READS :
					    o->interval_given ? SP_IVL_OPTION : NULL;
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
