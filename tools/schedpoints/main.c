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
"  sites              counts summed by call site (the default); on format\n"
"                     version 2, by call site and kind\n"
"  tasks              counts summed by task (see --by)\n"
"  site X             one call site's tasks; X is a symbol\n"
"                     (do_nanosleep+0x6e/0x190), a function (do_nanosleep)\n"
"                     or a module ([ext4], [vmlinux])\n"
"  task PID           one task's call sites\n"
"  kinds              counts summed by kind (same as sites --group kind)\n"
"  matrix             the task x call-site table of counts (or --value time)\n"
"  heatmap            the matrix as an SVG picture (same as --format svg matrix)\n"
"  top [VIEW [ARG]]   every --interval seconds, deltas and rates of a view\n"
"  diff A B [VIEW [ARG]]\n"
"                     deltas from saved snapshot A to saved snapshot B\n"
"\n"
"Input and output:\n"
"  -f, --file FILE      read FILE instead of /proc/sched_points ('-': stdin)\n"
"  -F, --format FMT     table (default), csv, json, folded, prometheus, svg\n"
"  -o, --output FILE    write to FILE (replaced atomically), print its path\n"
"  -p, --pretty         indent JSON\n"
"\n"
"Views:\n"
"  -g, --group G        sites by: site (default), function, module, kind\n"
"  -b, --by B           tasks by: pid (default), tgid, comm\n"
"  -T, --by-time        the value is off-CPU time: sort by it, percent of it,\n"
"                       matrix cells, folded values (same as --value time)\n"
"      --value V        count (default) or time\n"
"  -s, --sort KEY       count, time, total, pid, tgid, comm, site, name\n"
"                       (default: the value, count or time)\n"
"  -r, --reverse        reverse the sort order\n"
"  -n, --top N          show the first N rows (matrix: N rows, N columns)\n"
"\n"
"Filters (repeatable; a row must match one value of each filter given):\n"
"      --pid LIST       pids, comma separated\n"
"      --tgid LIST      thread group ids, comma separated\n"
"      --comm GLOB      task name, fnmatch(3) glob\n"
"      --module GLOB    module name (vmlinux for the core kernel)\n"
"      --symbol GLOB    symbol, with or without offset and module\n"
"      --kind LIST      sleep, yield, preempt, cond_resched, comma separated\n"
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
	OPT_VALUE,
};

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

/* Index of s in names[], or -1. */
static int pick(const char *s, const char *const *names, size_t n)
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

static bool parse_u32_list(const char *s, uint32_t **v, size_t *n)
{
	char *copy = sp_xstrdup(s), *save = NULL, *tok;
	bool ok = true;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint32_t x;

		if (!parse_u32(tok, &x)) {
			ok = false;
			break;
		}
		*v = sp_xrealloc(*v, *n + 1, sizeof(**v));
		(*v)[(*n)++] = x;
	}
	free(copy);
	return ok && *n;
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
	static const char *const formats[] = {
		[SP_FMT_TABLE] = "table", [SP_FMT_CSV] = "csv",
		[SP_FMT_JSON] = "json", [SP_FMT_FOLDED] = "folded",
		[SP_FMT_PROM] = "prometheus", [SP_FMT_SVG] = "svg",
	};
	static const char *const groups[] = {
		[SP_GROUP_SITE] = "site", [SP_GROUP_FUNCTION] = "function",
		[SP_GROUP_MODULE] = "module", [SP_GROUP_KIND] = "kind",
	};
	static const char *const bys[] = { "pid", "tgid", "comm" };
	static const char *const sorts[SP_NSORTS] = {
		[SP_SORT_COUNT] = "count", [SP_SORT_TOTAL] = "total",
		[SP_SORT_PID] = "pid", [SP_SORT_TGID] = "tgid",
		[SP_SORT_COMM] = "comm", [SP_SORT_SITE] = "site",
		[SP_SORT_NAME] = "name", [SP_SORT_TIME] = "time",
	};
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
		i = pick(arg, formats, 6);
		if (i < 0 && !strcmp(arg, "prom"))
			i = SP_FMT_PROM;
		if (i < 0)
			return usage_error("unknown format '%s' (table, csv, json, folded, prometheus, svg)", arg);
		o->format = (enum sp_format)i;
		break;
	case 'o':
		o->output = arg;
		break;
	case 'p':
		o->pretty = true;
		break;
	case 'g':
		i = pick(arg, groups, 4);
		if (i < 0)
			return usage_error("unknown group '%s' (site, function, module, kind)", arg);
		o->group = (enum sp_group_by)i;
		o->group_given = true;
		break;
	case 'b':
		i = pick(arg, bys, 3);
		if (i < 0)
			return usage_error("unknown --by '%s' (pid, tgid, comm)", arg);
		o->by = (enum sp_task_by)i;
		break;
	case 's':
		i = pick(arg, sorts, SP_NSORTS);
		if (i < 0)
			return usage_error("unknown sort key '%s' (count, time, total, pid, tgid, comm, site, name)", arg);
		o->sort = (enum sp_sort)i;
		o->sort_given = true;
		break;
	case 'T':
		o->value = SP_VALUE_TIME;
		break;
	case OPT_VALUE:
		i = pick(arg, values, 2);
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
			return usage_error("--kind: expected sleep, yield, preempt, cond_resched separated by commas, got '%s'", arg);
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

/* VIEW [ARG] from args; returns the number of args used, or -1. */
static int parse_view(struct sp_opts *o, char **args, int n, bool *heatmap)
{
	static const char *const views[] = {
		"sites", "tasks", "site", "task", "matrix", "heatmap", "kinds",
	};
	int v;

	if (!n) {
		o->view = SP_VIEW_SITES;
		return 0;
	}
	v = pick(args[0], views, 7);
	if (v < 0) {
		usage_error("unknown command or view '%s'", args[0]);
		return -1;
	}
	if (v == 5) {
		*heatmap = true;
		v = SP_VIEW_MATRIX;
	}
	if (v == 6) {
		if (o->group_given && o->group != SP_GROUP_KIND) {
			usage_error("kinds is sites --group kind: --group %s does not go with it",
				    sp_site_label(o));
			return -1;
		}
		o->group = SP_GROUP_KIND;
		v = SP_VIEW_SITES;
	}
	o->view = (enum sp_view)v;
	if (v == SP_VIEW_SITE || v == SP_VIEW_TASK) {
		if (n < 2) {
			usage_error("'%s' needs an argument", args[0]);
			return -1;
		}
		o->view_arg = args[1];
		if (v == SP_VIEW_TASK && !parse_u32(args[1], &o->task_pid)) {
			usage_error("task: expected a pid, got '%s'", args[1]);
			return -1;
		}
		return 2;
	}
	return 1;
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
	if (!n && o->view == SP_VIEW_SITE)
		fprintf(stderr, "schedpoints: no call site matches '%s'\n", o->view_arg);
	else if (!n && o->view == SP_VIEW_TASK)
		fprintf(stderr, "schedpoints: no entry for pid %u\n", o->task_pid);
	rc = sp_output_close(o, out.fp, tmp) ? SP_EXIT_ERROR : SP_EXIT_OK;
	sp_store_free(&st);
	return rc;
}

static int dispatch(struct sp_opts *o, char **args, int n)
{
	enum { CMD_VIEW, CMD_TOP, CMD_DIFF } cmd = CMD_VIEW;
	bool heatmap = false;
	int used;

	if (n && !strcmp(args[0], "top")) {
		cmd = CMD_TOP;
		args++;
		n--;
	} else if (n && !strcmp(args[0], "diff")) {
		if (n < 3)
			return usage_error("%s needs two snapshot files", "diff");
		cmd = CMD_DIFF;
		args++;
		n--;
	} else if (n && !strcmp(args[0], "help")) {
		fputs(usage_text, stdout);
		return SP_EXIT_OK;
	}
	used = parse_view(o, cmd == CMD_DIFF ? args + 2 : args,
			  cmd == CMD_DIFF ? n - 2 : n, &heatmap);
	if (used < 0)
		return SP_EXIT_USAGE;
	if (used < (cmd == CMD_DIFF ? n - 2 : n))
		return usage_error("unexpected argument '%s'",
				   args[(cmd == CMD_DIFF ? 2 : 0) + used]);
	if (heatmap) {
		if (o->format != SP_FMT_TABLE && o->format != SP_FMT_SVG)
			return usage_error("%s writes SVG only", "heatmap");
		o->format = SP_FMT_SVG;
	}
	if (o->format == SP_FMT_SVG && o->view != SP_VIEW_MATRIX)
		return usage_error("--format svg draws the matrix: use '%s' or 'matrix'", "heatmap");
	if (o->count && cmd != CMD_TOP)
		return usage_error("%s is only for top", "--count");
	if (o->interval_given && cmd == CMD_VIEW)
		return usage_error("%s is only for top and diff", "--interval");
	if (cmd == CMD_DIFF && o->file)
		return usage_error("%s: diff reads the two files it is given", "--file");

	switch (cmd) {
	case CMD_TOP:
		return sp_cmd_top(o);
	case CMD_DIFF:
		return sp_cmd_diff(o, args[0], args[1]);
	case CMD_VIEW:
		break;
	}
	return run(o);
}

int main(int argc, char **argv)
{
	struct sp_opts o = { 0 };
	int c, rc;

	o.sort = SP_SORT_COUNT;
	opterr = 0;		/* say it ourselves, without argv[0]'s path */
	while ((c = getopt_long(argc, argv, "f:F:o:pg:b:Ts:rn:i:c:hV",
				long_options, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			free_opts(&o);
			return SP_EXIT_OK;
		}
		if (c == 'V') {
			printf("schedpoints %s (reads /proc/sched_points format versions 1 and %d)\n",
			       SP_TOOL_VERSION, SP_FORMAT_MAJOR);
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
	}
	if (!o.sort_given)	/* by the value of the view */
		o.sort = o.value == SP_VALUE_TIME ? SP_SORT_TIME : SP_SORT_COUNT;
	rc = dispatch(&o, argv + optind, argc - optind);
	free_opts(&o);
	return rc;
}
