// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedpoints: answer "which schedule() call sites are hit, by which tasks,
 * how often" from /proc/sched_points or a saved copy of it.
 *
 * This file holds only the command line: options into struct sp_opts, then
 * dispatch to a command.  See schedpoints.h for how the rest fits together
 * and schedpoints.8 for the user's view.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "schedpoints.h"

static const char usage_text[] =
"Usage: schedpoints [OPTIONS] [COMMAND [ARGS]]\n"
"\n"
"Pivot /proc/sched_points (schedule() calls and off-CPU time per task and\n"
"call site).\n"
"\n"
"Commands:\n"
"  sites              counts summed by call site and kind (the default)\n"
"  tasks              counts summed by task (see --by)\n"
"  site X             one call site's tasks; X is a symbol\n"
"                     (do_nanosleep+0x6e/0x190), a function (do_nanosleep)\n"
"                     or a module ([ext4], [vmlinux])\n"
"  task PID           one task's call sites (0: the lines of exited tasks)\n"
"  kinds              counts summed by kind (same as sites --group kind)\n"
"  matrix             the task x call-site table of counts (or --value time),\n"
"                     the top 40 rows and columns unless -n/--columns say\n"
"  heatmap            the matrix as an SVG picture (same as --format svg matrix);\n"
"                     with --buckets, call sites x off-CPU time buckets\n"
"  hist [X]           the log2 histogram of off-CPU time of call site X (as\n"
"                     site X selects it), or of the hottest point, with its\n"
"                     percentiles (input with 'hist 1'); format 2: then\n"
"                     those of its wait and its run delay\n"
"  blocked            the tasks blocked now (/proc/sched_points_blocked), by\n"
"                     call site, longest wait first (see --min)\n"
"  wakers SITE        who ended the waits at call site SITE (as site X\n"
"                     selects it; /proc/sched_points_wakers): the waker call\n"
"                     sites and contexts, their calls, share, off-CPU time,\n"
"                     wait and run delay (-v: by waking task too)\n"
"  wakes SITE         the reverse: whose waits the waker call site SITE\n"
"                     ended, the woken tasks and their call sites\n"
"  chain TASK|SITE    follow a wait to its top waker, then that task's own\n"
"                     heaviest wait (/proc/sched_points) and its waker, up to\n"
"                     --hops; TASK a pid or a task name\n"
"  help               this text\n"
"  top [VIEW [ARG]]   every --interval seconds, deltas and rates of a view\n"
"  diff A B [VIEW [ARG]]\n"
"                     deltas from saved snapshot A to saved snapshot B\n"
"\n"
"Input and output:\n"
"  -f, --file FILE      read FILE instead of /proc/sched_points ('-': stdin;\n"
"                       blocked: instead of /proc/sched_points_blocked;\n"
"                       wakers, wakes: of /proc/sched_points_wakers)\n"
"  -W, --wakers-file FILE\n"
"                       wakers, wakes, chain: read FILE instead of\n"
"                       /proc/sched_points_wakers ('-': stdin)\n"
"  -F, --format FMT     table (default), csv, json, folded, prometheus, svg\n"
"  -o, --output FILE    write to FILE (replaced atomically), print its path\n"
"  -p, --pretty         indent JSON (with --format json)\n"
"      --min DURATION   blocked: only the tasks that have waited at least\n"
"                       DURATION (500ms, 2s, 1500us; ns us ms s min h)\n"
"  -v, --verbose        wakers, wakes: a row per waking task (waker_pid,\n"
"                       waker_comm) too\n"
"      --hops N         chain: at most N hops (default 4)\n"
"\n"
"Views:\n"
"  -g, --group G        call sites by: site (default), function, module, kind\n"
"                       (sites, task PID, matrix columns)\n"
"  -b, --by B           tasks by: pid (default), tgid, comm (tasks, site X,\n"
"                       matrix and heatmap rows)\n"
"  -T, --by-time        the value is off-CPU time: sort by it, percent of it,\n"
"                       matrix cells, folded values (same as --value time)\n"
"      --value V        count (default) or time\n"
"  -s, --sort KEYS      comma-separated keys, each breaking the ties of the\n"
"                       one before: count, time, mean, p50, p90, p99, max,\n"
"                       total (the value), tasks, sites, pid, tgid, comm,\n"
"                       site, name (default: the value, count or time);\n"
"                       format 2's split: wait, delay, wmax, dmax, wp50,\n"
"                       wp90, wp99, dp50, dp90, dp99; wakers, wakes: count,\n"
"                       time, mean, wait, delay, p50, p90, p99; chain: the\n"
"                       waker of each hop by count or time\n"
"  -r, --reverse        reverse the sort order\n"
"  -n, --top N          show the first N rows, 0 all (matrix: N rows and N\n"
"                       columns; prometheus: N series a family and 'other')\n"
"      --columns N      matrix and heatmap: N columns, 0 all\n"
"      --buckets        a row per histogram bucket (--format csv of sites,\n"
"                       tasks, site X, task PID, hist) or a column per bucket\n"
"                       (heatmap: call sites x off-CPU time)\n"
"      --split          format 2's wait (switch-out to wakeup) and run delay\n"
"                       (wakeup to switch-in): the table shows all their\n"
"                       columns, not only WAIT DELAY DMAX; heatmap --buckets\n"
"                       draws three rows a site\n"
"\n"
"Filters (repeatable; a row must match one value of each filter given):\n"
"      --pid LIST       pids, comma separated\n"
"      --tgid LIST      thread group ids, comma separated\n"
"      --comm GLOB      task name, fnmatch(3) glob\n"
"      --module GLOB    module name (vmlinux for the core kernel)\n"
"      --symbol GLOB    symbol, with or without offset and module\n"
"      --kind LIST      sleep, disk_sleep, idle, yield, preempt, cond_resched,\n"
"                       comma separated\n"
"\n"
"Interval mode:\n"
"  -i, --interval SEC   top: seconds between snapshots (default 2);\n"
"                       diff, top on stdin: seconds between A and B for rates\n"
"  -c, --count N        top: stop after N intervals (default: run until killed)\n"
"\n"
"  -h, --help           this text\n"
"  -V, --version        version\n"
"\n"
"Exit status: 0 ok, 1 bad input or runtime error, 2 usage error.\n"
"See schedpoints(8).\n";

enum {
	OPT_PID = 256, OPT_TGID, OPT_COMM, OPT_MODULE, OPT_SYMBOL, OPT_KIND,
	OPT_VALUE, OPT_COLUMNS, OPT_BUCKETS, OPT_MIN, OPT_SPLIT, OPT_HOPS,
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const struct option long_options[] = {
	{ "file", required_argument, NULL, 'f' },
	{ "format", required_argument, NULL, 'F' },
	{ "output", required_argument, NULL, 'o' },
	{ "pretty", no_argument, NULL, 'p' },
	{ "group", required_argument, NULL, 'g' },
	{ "by", required_argument, NULL, 'b' },
	{ "by-time", no_argument, NULL, 'T' },
	{ "value", required_argument, NULL, OPT_VALUE },
	{ "sort", required_argument, NULL, 's' },
	{ "reverse", no_argument, NULL, 'r' },
	{ "top", required_argument, NULL, 'n' },
	{ "columns", required_argument, NULL, OPT_COLUMNS },
	{ "buckets", no_argument, NULL, OPT_BUCKETS },
	{ "split", no_argument, NULL, OPT_SPLIT },
	{ "min", required_argument, NULL, OPT_MIN },
	{ "wakers-file", required_argument, NULL, 'W' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "hops", required_argument, NULL, OPT_HOPS },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "tgid", required_argument, NULL, OPT_TGID },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "module", required_argument, NULL, OPT_MODULE },
	{ "symbol", required_argument, NULL, OPT_SYMBOL },
	{ "kind", required_argument, NULL, OPT_KIND },
	{ "interval", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* "--sort" for 's': the long name of an option, as messages say it. */
static const char *option_name(int c)
{
	size_t i;

	for (i = 0; long_options[i].name; i++)
		if (long_options[i].val == c)
			return long_options[i].name;
	return "?";
}

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("schedpoints: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'schedpoints --help'.\n", stderr);
	return SP_EXIT_USAGE;
}

static const char *const format_names[] = {
	[SP_FMT_TABLE] = "table", [SP_FMT_CSV] = "csv",
	[SP_FMT_JSON] = "json", [SP_FMT_FOLDED] = "folded",
	[SP_FMT_PROM] = "prometheus", [SP_FMT_SVG] = "svg",
};

/* Index of s in names[], or -1. */
#define pick(s, names)	pick_n(s, names, ARRAY_SIZE(names))
static int pick_n(const char *s, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return (int)i;
	return -1;
}

static bool parse_u32(const char *s, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* "1,2": every item a number, none empty ("1,,2" and "1," are refused). */
static bool parse_u32_list(const char *s, uint32_t **v, size_t *n)
{
	char *copy = sp_xstrdup(s), *p = copy;
	bool ok = true;

	for (;;) {
		char *comma = strchr(p, ',');
		uint32_t x;

		if (comma)
			*comma = '\0';
		if (!parse_u32(p, &x)) {
			ok = false;
			break;
		}
		*v = sp_xrealloc(*v, *n + 1, sizeof(**v));
		(*v)[(*n)++] = x;
		if (!comma)
			break;
		p = comma + 1;
	}
	free(copy);
	return ok;
}

static bool parse_kind_list(const char *s, unsigned *mask)
{
	const char *p = s;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int k = sp_kind_parse(p, len);

		if (k < 0)
			return false;
		*mask |= 1u << k;
		if (!comma)
			return true;
		p = comma + 1;
	}
}

/* --sort KEY[,KEY...] */
static int parse_sort_list(struct sp_opts *o, const char *arg)
{
	const char *p = arg;

	o->nsort = 0;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int k;

		for (k = 0; k < SP_NSORTS; k++)
			if (strlen(sp_sort_name((enum sp_sort)k)) == len &&
			    !memcmp(sp_sort_name((enum sp_sort)k), p, len))
				break;
		if (k == SP_NSORTS)
			return usage_error("--sort: unknown key '%.*s' in '%s' (count, time, mean, p50, p90, p99, max, total, tasks, sites, pid, tgid, comm, site, name, wait, delay, wmax, dmax, wp50, wp90, wp99, dp50, dp90, dp99)",
					   (int)len, p, arg);
		if (o->nsort == SP_MAX_SORT)
			return usage_error("--sort: at most %d keys", SP_MAX_SORT);
		o->sort[o->nsort++] = (enum sp_sort)k;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static void add_glob(char ***v, size_t *n, const char *s, bool strip_brackets)
{
	size_t len = strlen(s);
	char *g = sp_xstrdup(s);

	/* --module '[ext4]' means the module ext4, not a bracket expression */
	if (strip_brackets && len > 2 && s[0] == '[' && s[len - 1] == ']' &&
	    !strchr(s + 1, '[')) {
		memmove(g, s + 1, len - 2);
		g[len - 2] = '\0';
	}
	*v = sp_xrealloc(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = g;
}

static void free_opts(struct sp_opts *o)
{
	size_t i;

	for (i = 0; i < o->f.ncomms; i++)
		free(o->f.comms[i]);
	for (i = 0; i < o->f.nmodules; i++)
		free(o->f.modules[i]);
	for (i = 0; i < o->f.nsymbols; i++)
		free(o->f.symbols[i]);
	free(o->f.comms);
	free(o->f.modules);
	free(o->f.symbols);
	free(o->f.pids);
	free(o->f.tgids);
}

static int parse_option(struct sp_opts *o, int c, const char *arg)
{
	static const char *const groups[] = {
		[SP_GROUP_SITE] = "site", [SP_GROUP_FUNCTION] = "function",
		[SP_GROUP_MODULE] = "module", [SP_GROUP_KIND] = "kind",
	};
	static const char *const bys[] = { "pid", "tgid", "comm" };
	static const char *const values[] = {
		[SP_VALUE_COUNT] = "count", [SP_VALUE_TIME] = "time",
	};
	char *end;
	int i;

	switch (c) {
	case 'f':
		o->file = arg;
		break;
	case 'F':
		i = pick(arg, format_names);
		if (i < 0 && !strcmp(arg, "prom"))
			i = SP_FMT_PROM;
		if (i < 0)
			return usage_error("unknown format '%s' (table, csv, json, folded, prometheus, svg)", arg);
		o->format = (enum sp_format)i;
		o->format_given = true;
		break;
	case 'o':
		/* "-" is standard output, as for -f; never a file named "-" */
		o->output = strcmp(arg, "-") ? arg : NULL;
		break;
	case 'p':
		o->pretty = true;
		break;
	case 'g':
		i = pick(arg, groups);
		if (i < 0)
			return usage_error("unknown group '%s' (site, function, module, kind)", arg);
		o->group = (enum sp_group_by)i;
		o->group_given = true;
		break;
	case 'b':
		i = pick(arg, bys);
		if (i < 0)
			return usage_error("unknown --by '%s' (pid, tgid, comm)", arg);
		o->by = (enum sp_task_by)i;
		o->by_given = true;
		break;
	case 's':
		return parse_sort_list(o, arg);
	case 'T':
		o->value = SP_VALUE_TIME;
		break;
	case OPT_VALUE:
		i = pick(arg, values);
		if (i < 0)
			return usage_error("unknown --value '%s' (count, time)", arg);
		o->value = (enum sp_value)i;
		break;
	case 'r':
		o->reverse = true;
		break;
	case 'n': {
		uint32_t n;

		if (!parse_u32(arg, &n))
			return usage_error("--top: expected a number, got '%s'", arg);
		o->top = n;
		o->top_given = true;
		break;
	}
	case OPT_COLUMNS: {
		uint32_t n;

		if (!parse_u32(arg, &n))
			return usage_error("--columns: expected a number, got '%s'", arg);
		o->columns = n;
		o->columns_given = true;
		break;
	}
	case OPT_BUCKETS:
		o->buckets = true;
		break;
	case OPT_SPLIT:
		o->split = true;
		break;
	case OPT_MIN: {
		const char *why;

		if (sp_parse_duration(arg, &o->min_ns, &why))
			return usage_error("--min: %s, got '%s'", why, arg);
		o->min_given = true;
		break;
	}
	case 'W':
		o->wakers_file = arg;
		break;
	case 'v':
		o->verbose = true;
		break;
	case OPT_HOPS: {
		uint32_t n;

		if (!parse_u32(arg, &n) || !n || n > 1000)
			return usage_error("--hops: expected a number from 1 to 1000, got '%s'", arg);
		o->hops = n;
		o->hops_given = true;
		break;
	}
	case OPT_PID:
		if (!parse_u32_list(arg, &o->f.pids, &o->f.npids))
			return usage_error("--pid: expected pids separated by commas, got '%s'", arg);
		break;
	case OPT_TGID:
		if (!parse_u32_list(arg, &o->f.tgids, &o->f.ntgids))
			return usage_error("--tgid: expected tgids separated by commas, got '%s'", arg);
		break;
	case OPT_COMM:
		add_glob(&o->f.comms, &o->f.ncomms, arg, false);
		break;
	case OPT_MODULE:
		add_glob(&o->f.modules, &o->f.nmodules, arg, true);
		break;
	case OPT_SYMBOL:
		add_glob(&o->f.symbols, &o->f.nsymbols, arg, false);
		break;
	case OPT_KIND:
		if (!parse_kind_list(arg, &o->f.kinds))
			return usage_error("--kind: expected sleep, disk_sleep, idle, yield, preempt, cond_resched separated by commas, got '%s'", arg);
		break;
	case 'i':
		errno = 0;
		o->interval = strtod(arg, &end);
		if (errno || *end || end == arg || !isfinite(o->interval) ||
		    o->interval < 0.001 || o->interval > 1e6)
			return usage_error("--interval: expected seconds between 0.001 and 1e6, got '%s'", arg);
		o->interval_given = true;
		break;
	case 'c': {
		uint32_t n;

		if (!parse_u32(arg, &n) || !n)
			return usage_error("--count: expected a positive number, got '%s'", arg);
		o->count = n;
		break;
	}
	default:
		return SP_EXIT_USAGE;
	}
	return 0;
}

/* ---- views and commands ------------------------------------------------- */

/* The views: each a command, and the VIEW of top and diff. */
enum view_arg { ARG_NONE, ARG_SITE, ARG_PID, ARG_OPTIONAL_SITE };

static const struct view_cmd {
	const char *name;
	enum sp_view view;
	enum view_arg arg;
	bool heatmap;		/* the matrix as SVG */
	bool kinds;		/* sites --group kind */
} view_cmds[] = {
	{ "sites", SP_VIEW_SITES, ARG_NONE, false, false },
	{ "tasks", SP_VIEW_TASKS, ARG_NONE, false, false },
	{ "site", SP_VIEW_SITE, ARG_SITE, false, false },
	{ "task", SP_VIEW_TASK, ARG_PID, false, false },
	{ "kinds", SP_VIEW_SITES, ARG_NONE, false, true },
	{ "matrix", SP_VIEW_MATRIX, ARG_NONE, false, false },
	{ "heatmap", SP_VIEW_MATRIX, ARG_NONE, true, false },
	{ "hist", SP_VIEW_HIST, ARG_OPTIONAL_SITE, false, false },
};

/* VIEW [ARG] from args (none: sites); the args left over are an error. */
static int select_view(struct sp_opts *o, int argc, char **argv)
{
	const struct view_cmd *v = &view_cmds[0];
	int used = 0;

	if (argc) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(view_cmds); i++)
			if (!strcmp(argv[0], view_cmds[i].name))
				break;
		if (i == ARRAY_SIZE(view_cmds))
			return usage_error("unknown command or view '%s'", argv[0]);
		v = &view_cmds[i];
		used = 1;
	}
	o->view = v->view;
	if (v->kinds) {
		if (o->group_given && o->group != SP_GROUP_KIND)
			return usage_error("kinds is sites --group kind: --group %s does not go with it",
					   sp_site_label(o));
		o->group = SP_GROUP_KIND;
	}
	if (v->heatmap) {
		if (o->format_given && o->format != SP_FMT_SVG)
			return usage_error("heatmap writes SVG only: --format %s does not go with it (use matrix)",
					   format_names[o->format]);
		o->format = SP_FMT_SVG;
		if (o->buckets)		/* rows are call sites, columns buckets */
			o->view = SP_VIEW_SITES;
	}
	if (v->arg == ARG_OPTIONAL_SITE && argc >= 2) {
		o->view_arg = argv[1];
		used = 2;
	} else if (v->arg != ARG_NONE && v->arg != ARG_OPTIONAL_SITE) {
		if (argc < 2)
			return usage_error("'%s' needs an argument", v->name);
		o->view_arg = argv[1];
		if (v->arg == ARG_PID && !parse_u32(argv[1], &o->task_pid))
			return usage_error("task: expected a pid, got '%s'", argv[1]);
		used = 2;
	}
	if (used < argc)
		return usage_error("unexpected argument '%s'", argv[used]);
	return 0;
}

/* Options that do not apply to the command and view are usage errors. */
static int check_opts(const struct sp_opts *o, bool top, bool diff)
{
	char why[256];

	if (o->min_given)
		return usage_error("%s is only for blocked", "--min");
	if (o->wakers_file || o->verbose || o->hops_given)
		return usage_error("%s is only for %s", o->wakers_file ? "--wakers-file" :
				   o->verbose ? "--verbose" : "--hops",
				   o->hops_given && !o->wakers_file && !o->verbose ?
				   "chain" : o->verbose && !o->wakers_file ?
				   "wakers and wakes" : "wakers, wakes and chain");
	if (o->format == SP_FMT_SVG && o->view != SP_VIEW_MATRIX && !o->buckets)
		return usage_error("--format svg draws the matrix: use '%s' or 'matrix'", "heatmap");
	if (o->count && !top)
		return usage_error("%s is only for top", "--count");
	/* a picture or an exposition is one document: one per file */
	if (top && !o->output && o->count != 1 &&
	    (o->format == SP_FMT_SVG || o->format == SP_FMT_PROM))
		return usage_error("top writes a whole %s document per sample: give -o FILE (replaced at each sample) or --count 1",
				   o->format == SP_FMT_SVG ? "SVG" : "Prometheus");
	if (o->interval_given && !top && !diff)
		return usage_error("%s is only for top and diff", "--interval");
	/*
	 * diff, and top on a stream, take -i for the rates only: formats
	 * without a rate would ignore it (top on a file also sleeps by it).
	 */
	if (o->interval_given && (diff || (o->file && !strcmp(o->file, "-"))) &&
	    (o->format == SP_FMT_FOLDED || o->format == SP_FMT_SVG ||
	     (o->format == SP_FMT_CSV && o->view == SP_VIEW_MATRIX)))
		return usage_error("--interval only sets the rates of %s, and %s shows none",
				   diff ? "diff" : "top on a stream",
				   o->format == SP_FMT_FOLDED ? "--format folded" :
				   o->format == SP_FMT_SVG ? "the heat map" : "the CSV matrix");
	if (diff && o->file)
		return usage_error("%s: diff reads the two files it is given", "--file");
	if (sp_opts_check(o, why, sizeof(why)))
		return usage_error("%s", why);
	return 0;
}

static int run(struct sp_opts *o)
{
	struct sp_store st;
	struct sp_out out = { .o = o };
	char tmp[4096];
	uint64_t n;
	int rc;

	if (sp_load(o->file, &st) || sp_input_ok(o, &st)) {
		sp_store_free(&st);
		return SP_EXIT_ERROR;
	}
	out.fp = sp_output_open(o, tmp, sizeof(tmp));
	if (!out.fp) {
		sp_store_free(&st);
		return SP_EXIT_ERROR;
	}
	n = sp_render(&out, &st, false, 0);
	rc = sp_output_close(o, out.fp, tmp) || sp_no_match(o, n) ?
	     SP_EXIT_ERROR : SP_EXIT_OK;
	sp_store_free(&st);
	return rc;
}

static int do_view(struct sp_opts *o, int argc, char **argv)
{
	return select_view(o, argc, argv) ? SP_EXIT_USAGE :
	       check_opts(o, false, false) ? SP_EXIT_USAGE : run(o);
}

/* top [VIEW [ARG]] */
static int do_top(struct sp_opts *o, int argc, char **argv)
{
	if (select_view(o, argc, argv) || check_opts(o, true, false))
		return SP_EXIT_USAGE;
	return sp_cmd_top(o);
}

/* diff A B [VIEW [ARG]] */
static int do_diff(struct sp_opts *o, int argc, char **argv)
{
	if (argc < 2)
		return usage_error("%s needs two snapshot files", "diff");
	if (select_view(o, argc - 2, argv + 2) || check_opts(o, false, true))
		return SP_EXIT_USAGE;
	return sp_cmd_diff(o, argv[0], argv[1]);
}

/*
 * blocked: its own input and grouping, so only the options of input and
 * output, and --min, apply.
 */
static int do_blocked(struct sp_opts *o, int argc, char **argv)
{
	if (argc)
		return usage_error("blocked takes no argument, got '%s' (--min DURATION filters)",
				   argv[0]);
	if (o->not_blocked)
		return usage_error("blocked takes -f, -F, -o, -p and --min only: --%s does not apply",
				   o->not_blocked);
	if (o->format == SP_FMT_FOLDED || o->format == SP_FMT_SVG)
		return usage_error("blocked writes table, csv, json or prometheus: --format %s does not go with it",
				   format_names[o->format]);
	if (o->pretty && o->format != SP_FMT_JSON)
		return usage_error("--pretty indents JSON: it needs --format json");
	return sp_cmd_blocked(o);
}

/*
 * wakers SITE, wakes SITE, chain X: their own inputs and views, so only
 * the options in allowed apply (long names, the first given that does not
 * is the error).
 */
static int wakers_opts(const struct sp_opts *o, const char *cmd,
		       const char *const *allowed)
{
	size_t i, k;

	for (i = 0; long_options[i].name; i++) {
		if (!(o->given & (1ull << i)))
			continue;
		for (k = 0; allowed[k]; k++)
			if (!strcmp(allowed[k], long_options[i].name))
				break;
		if (!allowed[k])
			return usage_error("%s takes %s only: --%s does not apply", cmd,
					   strcmp(cmd, "chain") ?
					   "-f or -W, -F, -o, -p, -n, -s, -r and -v" :
					   "-f, -W, -F, -o, -p, -s and --hops",
					   long_options[i].name);
	}
	if (o->format == SP_FMT_FOLDED || o->format == SP_FMT_SVG)
		return usage_error("%s writes table, csv, json or prometheus: --format %s does not go with it",
				   cmd, format_names[o->format]);
	if (o->pretty && o->format != SP_FMT_JSON)
		return usage_error("--pretty indents JSON: it needs --format json");
	for (i = 0; i < o->nsort; i++) {
		enum sp_sort s = o->sort[i];
		bool ok = !strcmp(cmd, "chain") ?
			  (s == SP_SORT_COUNT || s == SP_SORT_TIME) && o->nsort == 1 :
			  s == SP_SORT_COUNT || s == SP_SORT_TOTAL || s == SP_SORT_TIME ||
			  s == SP_SORT_MEAN || s == SP_SORT_WAIT || s == SP_SORT_DELAY ||
			  s == SP_SORT_P50 || s == SP_SORT_P90 || s == SP_SORT_P99;

		if (!ok)
			return usage_error(!strcmp(cmd, "chain") ?
					   "chain: --sort takes one key, count or time (how each hop's waker is picked), got '%s'" :
					   "%s: --sort key '%s' does not apply (count, time, mean, wait, delay, p50, p90, p99)",
					   !strcmp(cmd, "chain") ? sp_sort_name(s) : cmd,
					   sp_sort_name(s));
	}
	return 0;
}

/*
 * wakers and wakes read one file, /proc/sched_points_wakers: -f names it
 * as it names blocked's, -W as it does for chain (which reads both).
 */
static int wakers_file(struct sp_opts *o, const char *cmd)
{
	if (o->file && o->wakers_file)
		return usage_error("%s reads one file, /proc/sched_points_wakers: give -f FILE or -W FILE, not both",
				   cmd);
	if (!o->wakers_file)
		o->wakers_file = o->file;
	return 0;
}

/* The SITE or TASK argument: one, and of a sane length. */
static int wakers_arg(const char *cmd, const char *what, int argc, char **argv)
{
	if (!argc)
		return usage_error("'%s' needs an argument: %s", cmd, what);
	if (argc > 1)
		return usage_error("unexpected argument '%s'", argv[1]);
	if (!*argv[0] || strlen(argv[0]) > 4096)
		return usage_error("%s: expected %s of 1 to 4096 bytes", cmd, what);
	return 0;
}

/* wakers SITE and wakes SITE: one view of the wakers file each. */
static int do_wview(struct sp_opts *o, int argc, char **argv,
		    enum sp_wview_kind kind)
{
	static const char *const allowed[] = {
		"file", "wakers-file", "format", "output", "pretty", "top",
		"sort", "reverse", "verbose", NULL,
	};
	const char *cmd = kind == SP_WVIEW_WAKERS ? "wakers" : "wakes";

	if (wakers_arg(cmd, kind == SP_WVIEW_WAKERS ? "a call site (SITE)" :
		       "a waker's call site (SITE)", argc, argv) ||
	    wakers_opts(o, cmd, allowed) || wakers_file(o, cmd))
		return SP_EXIT_USAGE;
	return sp_cmd_wakers(o, kind, argv[0]);
}

static int do_wakers(struct sp_opts *o, int argc, char **argv)
{
	return do_wview(o, argc, argv, SP_WVIEW_WAKERS);
}

static int do_wakes(struct sp_opts *o, int argc, char **argv)
{
	return do_wview(o, argc, argv, SP_WVIEW_WAKES);
}

static int do_chain(struct sp_opts *o, int argc, char **argv)
{
	static const char *const allowed[] = {
		"file", "wakers-file", "format", "output", "pretty", "sort",
		"hops", NULL,
	};

	if (wakers_arg("chain", "a pid, a task name or a call site", argc, argv) ||
	    wakers_opts(o, "chain", allowed))
		return SP_EXIT_USAGE;
	if (o->file && o->wakers_file && !strcmp(o->file, "-") &&
	    !strcmp(o->wakers_file, "-"))
		return usage_error("chain: -f - and -W - cannot both read standard input");
	return sp_cmd_chain(o, argv[0]);
}

static int do_help(struct sp_opts *o, int argc, char **argv)
{
	if (argc)
		return usage_error("help takes no argument, got '%s'", argv[0]);
	if (o->noptions)
		return usage_error("help takes no option: it prints this text only");
	fputs(usage_text, stdout);
	return SP_EXIT_OK;
}

/* The commands, as bpftool's cmd_select(): the last entry is the default. */
struct cmd {
	const char *name;
	int (*func)(struct sp_opts *o, int argc, char **argv);
};

static const struct cmd cmds[] = {
	{ "top", do_top },
	{ "diff", do_diff },
	{ "blocked", do_blocked },
	{ "wakers", do_wakers },
	{ "wakes", do_wakes },
	{ "chain", do_chain },
	{ "help", do_help },
	{ NULL, do_view },	/* a view, or none: sites */
};

static int cmd_select(struct sp_opts *o, int argc, char **argv)
{
	size_t i;

	for (i = 0; cmds[i].name; i++)
		if (argc && !strcmp(argv[0], cmds[i].name))
			return cmds[i].func(o, argc - 1, argv + 1);
	return cmds[i].func(o, argc, argv);
}

int main(int argc, char **argv)
{
	struct sp_opts o = { 0 };
	int c, rc;

	opterr = 0;		/* say it ourselves, without argv[0]'s path */
	while ((c = getopt_long(argc, argv, "f:F:o:pg:b:Ts:rn:i:c:hVW:v",
				long_options, NULL)) != -1) {
		size_t k;

		if (c == 'h') {
			fputs(usage_text, stdout);
			free_opts(&o);
			return SP_EXIT_OK;
		}
		if (c == 'V') {
			printf("schedpoints %s (reads /proc/sched_points format versions %d and %d)\n",
			       SP_TOOL_VERSION, SP_FORMAT_MAJOR_FIRST,
			       SP_FORMAT_MAJOR_LAST);
			free_opts(&o);
			return SP_EXIT_OK;
		}
		if (c == '?') {
			if (optopt)
				usage_error("option '-%c' is unknown or needs an argument",
					    optopt);
			else
				usage_error("option '%s' is unknown or needs an argument",
					    argv[optind - 1]);
			free_opts(&o);
			return SP_EXIT_USAGE;
		}
		if (parse_option(&o, c, optarg)) {
			free_opts(&o);
			return SP_EXIT_USAGE;
		}
		/* the options given, by their index in long_options */
		for (k = 0; long_options[k].name; k++)
			if (long_options[k].val == c)
				o.given |= 1ull << k;
		if (!o.not_blocked && c != 'f' && c != 'F' && c != 'o' &&
		    c != 'p' && c != OPT_MIN)
			o.not_blocked = option_name(c);
		o.noptions++;
	}
	rc = cmd_select(&o, argc - optind, argv + optind);
	free_opts(&o);
	return rc;
}
