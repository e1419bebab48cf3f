// SPDX-License-Identifier: GPL-2.0-only
/*
 * Who ended the waits: /proc/sched_points_wakers (the spec's sections
 * "Wakers" and "/proc/sched_points_wakers"; parsed in parse.c) and the
 * commands on it.
 *
 *   wakers SITE   the waker call sites (and contexts) that ended the waits
 *                 at call site SITE, summed over the woken tasks; with -v
 *                 by waking task too
 *   wakes SITE    the reverse: the woken tasks, their call sites and
 *                 kinds, whose waits the waker call site SITE ended
 *   chain X       from a task (pid or comm) or a call site, the top waker
 *                 of the wait, then that waker task's own heaviest wait
 *                 (/proc/sched_points, by total_ns) and its top waker, and
 *                 so on: until a waker that is not a task, a task seen
 *                 before, or --hops
 *
 * SITE is matched as 'site X' matches (sp_site_match()).  A row of wakers
 * or wakes sums the lines of its key; it is sorted by -s (count, time,
 * mean, wait, delay, p50, p90, p99; count without), ties by its labels.
 * The percentiles come from the summed histograms as hist.c computes them;
 * the file has no longest time, so the last bucket's is its lower bound
 * (as Prometheus' histogram_quantile() has it) and none exceeds the sum.
 *
 * The rows of the three views reach the writers (table.c, csv.c, json.c,
 * prom.c) as a struct sp_wtab: columns of enum sp_wcol, a cell each, typed
 * as column.c types the cells of the other views.
 */
#include <stdlib.h>
#include <string.h>

#include "schedpoints.h"

const char *sp_wctx_name(unsigned ctx)
{
	static const char *const names[SP_NWCTX] = {
		[SP_WCTX_TASK] = "task", [SP_WCTX_SOFTIRQ] = "softirq",
		[SP_WCTX_HARDIRQ] = "hardirq", [SP_WCTX_TIMER] = "timer",
	};

	return ctx < SP_NWCTX ? names[ctx] : "?";
}

void sp_wakers_init(struct sp_wakers *w, const char *name)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->name, sizeof(w->name), "%s", name);
	w->enabled = w->mode = w->wakers = w->hist = w->entries = w->unlisted = -1;
}

void sp_wakers_free(struct sp_wakers *w)
{
	sp_pool_free(&w->comms);
	sp_pool_free(&w->syms);
	free(w->syminfo);
	free(w->lines);
	free(w->hists);
	memset(w, 0, sizeof(*w));
}

/* ---- columns ------------------------------------------------------------ */

static const struct {
	const char *name;	/* CSV header, JSON key, Prometheus label */
	const char *header;	/* table */
	bool left, label;
} wcol_info[SP_WCOL_N] = {
	[SP_WCOL_HOP] = { "hop", "HOP", false, true },
	[SP_WCOL_COUNT] = { "count", "COUNT", false, false },
	[SP_WCOL_PCT] = { "percent", "%", false, false },
	[SP_WCOL_TIME] = { "total_ns", "TIME", false, false },
	[SP_WCOL_MEAN] = { "mean_ns", "MEAN", false, false },
	[SP_WCOL_WAIT] = { "wait_ns", "WAIT", false, false },
	[SP_WCOL_MWAIT] = { "mean_wait_ns", "MEANWAIT", false, false },
	[SP_WCOL_DELAY] = { "delay_ns", "DELAY", false, false },
	[SP_WCOL_P50] = { "p50_ns", "P50", false, false },
	[SP_WCOL_P90] = { "p90_ns", "P90", false, false },
	[SP_WCOL_P99] = { "p99_ns", "P99", false, false },
	[SP_WCOL_PID] = { "pid", "PID", false, true },
	[SP_WCOL_TGID] = { "tgid", "TGID", false, true },
	[SP_WCOL_COMM] = { "comm", "COMM", true, true },
	[SP_WCOL_KIND] = { "kind", "KIND", true, true },
	[SP_WCOL_SITE] = { "site", "SITE", true, true },
	[SP_WCOL_CONTEXT] = { "context", "CONTEXT", true, true },
	[SP_WCOL_WPID] = { "waker_pid", "WAKER_PID", false, true },
	[SP_WCOL_WCOMM] = { "waker_comm", "WAKER_COMM", true, true },
	[SP_WCOL_WSITE] = { "waker_site", "WAKER_SITE", true, true },
};

const char *sp_wcol_name(enum sp_wcol c)
{
	return wcol_info[c].name;
}

const char *sp_wcol_header(enum sp_wcol c)
{
	return wcol_info[c].header;
}

bool sp_wcol_left(enum sp_wcol c)
{
	return wcol_info[c].left;
}

bool sp_wcol_label(enum sp_wcol c)
{
	return wcol_info[c].label;
}

static void cell_word(struct sp_cell *cell, const char *s, size_t len)
{
	cell->type = SP_CELL_WORD;
	cell->s = s;
	cell->len = len;
}

static void cell_sym(struct sp_cell *cell, const struct sp_wakers *w,
		     uint32_t sym)
{
	cell_word(cell, sp_pool_str(&w->syms, sym), sp_pool_len(&w->syms, sym));
}

/*
 * The label cells of line l: the woken task (pid 0: exited tasks, as the
 * other views show them), its site and kind, the waker's context, task
 * and site.  A waker that is not a task, or a task that has exited, has
 * no pid or name: '-', empty, null.
 */
static void line_label(const struct sp_wakers *w, const struct sp_wline *l,
		       enum sp_wcol c, struct sp_cell *cell)
{
	switch (c) {
	case SP_WCOL_PID:
	case SP_WCOL_TGID:
		if (!l->pid) {
			cell->type = SP_CELL_EXITED;
			cell->s = c == SP_WCOL_PID ? "exited" : "-";
			cell->len = strlen(cell->s);
			cell->u = 0;
		} else {
			sp_cell_uint(cell, c == SP_WCOL_PID ? l->pid : l->tgid);
		}
		break;
	case SP_WCOL_COMM:
		cell->type = SP_CELL_COMM;
		cell->s = sp_pool_str(&w->comms, l->comm);
		cell->len = sp_pool_len(&w->comms, l->comm);
		break;
	case SP_WCOL_KIND:
		cell_word(cell, sp_kind_name(l->kind), strlen(sp_kind_name(l->kind)));
		break;
	case SP_WCOL_SITE:
		cell_sym(cell, w, l->sym);
		break;
	case SP_WCOL_CONTEXT:
		cell_word(cell, sp_wctx_name(l->ctx), strlen(sp_wctx_name(l->ctx)));
		break;
	case SP_WCOL_WPID:
		if (l->ctx == SP_WCTX_TASK)
			sp_cell_uint(cell, l->waker_pid);
		break;
	case SP_WCOL_WCOMM:
		if (l->ctx == SP_WCTX_TASK && sp_pool_len(&w->comms, l->waker_comm)) {
			cell->type = SP_CELL_COMM;
			cell->s = sp_pool_str(&w->comms, l->waker_comm);
			cell->len = sp_pool_len(&w->comms, l->waker_comm);
		}
		break;
	case SP_WCOL_WSITE:
		cell_sym(cell, w, l->waker_sym);
		break;
	default:
		break;
	}
}

/* The percent of part in all, for the table. */
static void cell_pct(struct sp_cell *cell, sp_u128 part, sp_u128 all)
{
	cell->type = SP_CELL_PCT;
	cell->d = all ? 100.0 * (double)part / (double)all : 0;
}

/*
 * A percentile of the calls of a row: the file has no longest time, so
 * the bound is the upper end of the last bucket held (its lower end for
 * the last, open bucket), and the sum of the calls' times.
 */
static bool row_percentile(const struct sp_wrow *r, unsigned pct, uint64_t *out)
{
	unsigned first, last;
	uint64_t bound;

	if (!r->has_hist || !sp_hist_range(&r->hist, &first, &last))
		return false;
	bound = sp_hist_upper(last) ? sp_hist_upper(last) : sp_hist_lower(last);
	if (r->total_ns < bound)
		bound = (uint64_t)r->total_ns;
	return sp_hist_percentile(&r->hist, pct, bound, out);
}

/* ---- wakers and wakes --------------------------------------------------- */

static int str_cmp(const struct sp_pool *p, uint32_t a, uint32_t b)
{
	uint32_t la = sp_pool_len(p, a), lb = sp_pool_len(p, b);
	int d;

	if (a == b)
		return 0;
	d = memcmp(sp_pool_str(p, a), sp_pool_str(p, b), la < lb ? la : lb);
	return d ? d : (la > lb) - (la < lb);
}

#define CMP(x, y)	do { if ((x) != (y)) return (x) < (y) ? -1 : 1; } while (0)

struct key_ctx {
	const struct sp_wakers *w;
	enum sp_wview_kind kind;
	bool verbose;
};

/* The order of the keys of rows: their labels, ascending. */
static int line_key_cmp(const struct key_ctx *k, const struct sp_wline *a,
			const struct sp_wline *b)
{
	const struct sp_wakers *w = k->w;
	int d;

	if (k->kind == SP_WVIEW_WAKES) {
		CMP(a->pid, b->pid);
		CMP(a->tgid, b->tgid);
		d = str_cmp(&w->comms, a->comm, b->comm);
		if (d)
			return d;
		d = str_cmp(&w->syms, a->sym, b->sym);
		if (d)
			return d;
		CMP(a->kind, b->kind);
	} else {
		d = str_cmp(&w->syms, a->waker_sym, b->waker_sym);
		if (d)
			return d;
	}
	CMP(a->ctx, b->ctx);
	if (k->verbose) {
		CMP(a->waker_pid, b->waker_pid);
		return str_cmp(&w->comms, a->waker_comm, b->waker_comm);
	}
	return 0;
}

static int index_cmp(const void *pa, const void *pb, void *arg)
{
	const struct key_ctx *k = arg;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int d = line_key_cmp(k, &k->w->lines[a], &k->w->lines[b]);

	return d ? d : (a > b) - (a < b);	/* stable: the file's order */
}

static int sym_cmp(const void *pa, const void *pb, void *arg)
{
	return str_cmp(arg, *(const uint32_t *)pa, *(const uint32_t *)pb);
}

struct sort_ctx {
	const struct sp_wview *v;
	struct key_ctx key;
};

/* The value of a row for sort key s (as view.c names the keys). */
static bool row_sort_value(const struct sp_wrow *r, enum sp_sort s, sp_u128 *out)
{
	uint64_t p;

	switch (s) {
	case SP_SORT_TIME:
		*out = r->total_ns;
		return true;
	case SP_SORT_MEAN:
		*out = r->total_ns / r->count;
		return true;
	case SP_SORT_WAIT:
		*out = r->wait_ns;
		return true;
	case SP_SORT_DELAY:
		*out = r->total_ns - r->wait_ns;
		return true;
	case SP_SORT_P50:
	case SP_SORT_P90:
	case SP_SORT_P99:
		if (!row_percentile(r, sp_sort_pct(s), &p))
			return false;
		*out = p;
		return true;
	default:	/* count, total */
		*out = r->count;
		return true;
	}
}

static int row_cmp(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *c = arg;
	const struct sp_wrow *a = pa, *b = pb;
	const struct sp_opts *o = c->v->o;
	size_t i, n = o->nsort ? o->nsort : 1;
	int d;

	for (i = 0; i < n; i++) {
		enum sp_sort s = o->nsort ? o->sort[i] : SP_SORT_COUNT;
		sp_u128 x = 0, y = 0;
		bool hx = row_sort_value(a, s, &x), hy = row_sort_value(b, s, &y);

		/* rows without a percentile last, as view.c ranks them */
		if (hx != hy)
			return hx ? -1 : 1;
		if (x != y)
			return (x > y ? -1 : 1) * (o->reverse ? -1 : 1);
	}
	d = line_key_cmp(&c->key, &c->v->w->lines[a->line], &c->v->w->lines[b->line]);
	return o->reverse ? -d : d;
}

void sp_wview_build(struct sp_wview *v, const struct sp_wakers *w,
		    const struct sp_opts *o, enum sp_wview_kind kind,
		    const char *arg)
{
	struct key_ctx key = { w, kind, o->verbose };
	struct sort_ctx sc;
	uint32_t *idx, i, j;
	uint8_t *matched;
	size_t limit;

	memset(v, 0, sizeof(*v));
	v->w = w;
	v->o = o;
	v->kind = kind;
	v->arg = arg;
	/* which symbols match SITE: each distinct symbol once */
	matched = sp_xrealloc(NULL, w->syms.n ? w->syms.n : 1, 1);
	for (i = 0; i < w->syms.n; i++)
		matched[i] = sp_site_match(sp_pool_str(&w->syms, i),
					   sp_pool_len(&w->syms, i),
					   &w->syminfo[i], arg);
	idx = sp_xrealloc(NULL, w->nlines ? w->nlines : 1, sizeof(*idx));
	v->sites = sp_xrealloc(NULL, w->syms.n ? w->syms.n : 1, sizeof(*v->sites));
	for (i = 0; i < w->nlines; i++) {
		const struct sp_wline *l = &w->lines[i];
		uint32_t sym = kind == SP_WVIEW_WAKERS ? l->sym : l->waker_sym;

		if (!matched[sym])
			continue;
		if (matched[sym] == 1) {	/* first line of the symbol */
			matched[sym] = 2;
			v->sites[v->nsites++] = sym;
		}
		idx[v->nlines++] = i;
		v->total += l->count;	/* the parser keeps counts below 2^64 each */
		v->total_ns += l->total_ns;
		v->wait_ns += l->wait_ns;
	}
	qsort_r(v->sites, v->nsites, sizeof(*v->sites), sym_cmp, (void *)&w->syms);
	qsort_r(idx, v->nlines, sizeof(*idx), index_cmp, &key);
	v->rows = sp_xrealloc(NULL, v->nlines ? v->nlines : 1, sizeof(*v->rows));
	for (i = 0; i < v->nlines; i = j) {
		struct sp_wrow *r = &v->rows[v->nrows++];

		memset(r, 0, sizeof(*r));
		r->line = idx[i];
		for (j = i; j < v->nlines &&
		     !line_key_cmp(&key, &w->lines[idx[i]], &w->lines[idx[j]]); j++) {
			const struct sp_wline *l = &w->lines[idx[j]];

			r->count += l->count;
			r->total_ns += l->total_ns;
			r->wait_ns += l->wait_ns;
			if (l->hist) {
				const struct sp_hist *h = &w->hists[l->hist - 1];
				unsigned b;

				r->has_hist = true;
				for (b = 0; b < SP_HIST_N; b++)
					r->hist.n[b] += h->n[b];
			}
		}
	}
	sc.v = v;
	sc.key = key;
	qsort_r(v->rows, v->nrows, sizeof(*v->rows), row_cmp, &sc);
	limit = o->top_given ? o->top : 0;
	v->nshown = limit && limit < v->nrows ? (uint32_t)limit : v->nrows;
	free(idx);
	free(matched);
}

void sp_wview_free(struct sp_wview *v)
{
	free(v->rows);
	free(v->sites);
	memset(v, 0, sizeof(*v));
}

/*
 * The figures of a row (count, share of all, times, percentiles) into
 * cell; false for a label column.
 */
static bool figure_cell(const struct sp_wrow *r, uint64_t all, enum sp_wcol c,
			struct sp_cell *cell)
{
	uint64_t p;

	switch (c) {
	case SP_WCOL_COUNT:
		sp_cell_uint(cell, r->count);
		return true;
	case SP_WCOL_PCT:
		cell_pct(cell, r->count, all);
		return true;
	case SP_WCOL_TIME:
		sp_cell_ns(cell, r->total_ns);
		return true;
	case SP_WCOL_MEAN:
		sp_cell_ns(cell, r->total_ns / r->count);
		return true;
	case SP_WCOL_WAIT:
		sp_cell_ns(cell, r->wait_ns);
		return true;
	case SP_WCOL_MWAIT:
		sp_cell_ns(cell, r->wait_ns / r->count);
		return true;
	case SP_WCOL_DELAY:
		sp_cell_ns(cell, r->total_ns - r->wait_ns);
		return true;
	case SP_WCOL_P50:
	case SP_WCOL_P90:
	case SP_WCOL_P99:
		if (row_percentile(r, c == SP_WCOL_P50 ? 50 : c == SP_WCOL_P90 ? 90 : 99, &p))
			sp_cell_ns(cell, p);
		return true;
	default:
		return false;
	}
}

static void wview_cell(const void *ctx, size_t row, enum sp_wcol c,
		       struct sp_cell *cell)
{
	const struct sp_wview *v = ctx;
	const struct sp_wrow *r = &v->rows[row];

	memset(cell, 0, sizeof(*cell));
	if (!figure_cell(r, v->total, c, cell))
		line_label(v->w, &v->w->lines[r->line], c, cell);
}

void sp_wview_tab(const struct sp_wview *v, bool people, struct sp_wtab *t)
{
	size_t n = 0;

	memset(t, 0, sizeof(*t));
	t->ctx = v;
	t->nrows = v->nshown;
	t->cell = wview_cell;
	t->cols[n++] = SP_WCOL_COUNT;
	if (people)
		t->cols[n++] = SP_WCOL_PCT;
	t->cols[n++] = SP_WCOL_TIME;
	t->cols[n++] = SP_WCOL_MEAN;
	t->cols[n++] = SP_WCOL_WAIT;
	t->cols[n++] = SP_WCOL_DELAY;
	if (v->w->hist == 1) {
		t->cols[n++] = SP_WCOL_P50;
		t->cols[n++] = SP_WCOL_P90;
		t->cols[n++] = SP_WCOL_P99;
	}
	if (v->kind == SP_WVIEW_WAKES) {
		t->cols[n++] = SP_WCOL_PID;
		t->cols[n++] = SP_WCOL_TGID;
		t->cols[n++] = SP_WCOL_COMM;
		t->cols[n++] = SP_WCOL_KIND;
	}
	t->cols[n++] = SP_WCOL_CONTEXT;
	if (v->o->verbose) {
		t->cols[n++] = SP_WCOL_WPID;
		t->cols[n++] = SP_WCOL_WCOMM;
	}
	t->cols[n++] = v->kind == SP_WVIEW_WAKES ? SP_WCOL_SITE : SP_WCOL_WSITE;
	t->ncols = n;
}

/* ---- chain -------------------------------------------------------------- */

const char *sp_chain_stop_name(enum sp_chain_stop s)
{
	static const char *const names[] = {
		[SP_STOP_CONTEXT] = "context", [SP_STOP_LOOP] = "loop",
		[SP_STOP_HOPS] = "hops", [SP_STOP_NO_WAKER] = "no_waker",
		[SP_STOP_NO_WAIT] = "no_wait",
	};

	return names[s];
}

static bool same_str(const struct sp_pool *a, uint32_t ia,
		     const struct sp_pool *b, uint32_t ib)
{
	return sp_pool_len(a, ia) == sp_pool_len(b, ib) &&
	       !memcmp(sp_pool_str(a, ia), sp_pool_str(b, ib), sp_pool_len(a, ia));
}

/* Is line a better waker than line b (by count, or time with -s time)? */
static bool waker_better(const struct sp_chain *c, const struct sp_wline *a,
			 const struct sp_wline *b)
{
	if (c->by_time && a->total_ns != b->total_ns)
		return a->total_ns > b->total_ns;
	if (a->count != b->count)
		return a->count > b->count;
	if (!c->by_time && a->total_ns != b->total_ns)
		return a->total_ns > b->total_ns;
	return false;	/* the first in the file's order */
}

/*
 * The top waker line of (pid, symbol, kind): sym is an id in pool syms
 * (the store's or the wakers file's); UINT32_MAX when there is none.
 * *woken: the calls of all the lines of the wait.
 */
static uint32_t top_waker(const struct sp_chain *c, uint32_t pid,
			  const struct sp_pool *syms, uint32_t sym,
			  unsigned kind, uint64_t *woken)
{
	const struct sp_wakers *w = c->w;
	uint32_t i, best = UINT32_MAX;

	*woken = 0;
	for (i = 0; i < w->nlines; i++) {
		const struct sp_wline *l = &w->lines[i];

		if (l->pid != pid || l->kind != kind ||
		    !same_str(&w->syms, l->sym, syms, sym))
			continue;
		*woken += l->count;
		if (best == UINT32_MAX || waker_better(c, l, &w->lines[best]))
			best = i;
	}
	return best;
}

/*
 * The heaviest wait of pid in /proc/sched_points: its line of a wait kind
 * (sleep, disk_sleep, idle) with the most total_ns, then count, then the
 * first; UINT32_MAX when it has none.
 */
static uint32_t heaviest_wait(const struct sp_store *st, uint32_t pid)
{
	uint32_t i, best = UINT32_MAX;
	struct sp_rtime bt = { 0 };

	for (i = 0; i < st->nrows; i++) {
		const struct sp_row *r = &st->rows[i];
		struct sp_rtime t;

		if (r->pid != pid || r->kind > SP_KIND_IDLE)
			continue;
		t = sp_row_time(st, i);
		if (best == UINT32_MAX || t.total_ns > bt.total_ns ||
		    (t.total_ns == bt.total_ns && r->count > st->rows[best].count)) {
			best = i;
			bt = t;
		}
	}
	return best;
}

static void add_hop(struct sp_chain *c, uint32_t line, uint64_t woken)
{
	c->hops = sp_xrealloc(c->hops, c->nhops + 1, sizeof(*c->hops));
	c->hops[c->nhops].line = line;
	c->hops[c->nhops].woken = woken;
	c->nhops++;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* The first hop from X: 0, or -1 when X names nothing (said in c->err). */
static int chain_start(struct sp_chain *c, const char *x)
{
	const struct sp_wakers *w = c->w;
	const struct sp_store *st = c->st;
	uint32_t i, best = UINT32_MAX, row;
	uint64_t woken = 0;
	size_t xl = strlen(x);

	if (all_digits(x)) {
		unsigned long long pid = strtoull(x, NULL, 10);
		bool known = false;

		c->from = "pid";
		if (pid > UINT32_MAX)
			pid = UINT32_MAX;
		for (i = 0; i < w->nlines && !known; i++)
			known = w->lines[i].pid == pid;
		row = heaviest_wait(st, (uint32_t)pid);
		if (row == UINT32_MAX && !known) {
			snprintf(c->err, sizeof(c->err), "chain: no wait of pid %s in %s or %s",
				 x, st->name, w->name);
			return -1;
		}
		c->stop_pid = (uint32_t)pid;
		if (row == UINT32_MAX) {
			c->stop = SP_STOP_NO_WAIT;
			return 0;
		}
		best = top_waker(c, (uint32_t)pid, &st->syms, st->rows[row].sym,
				 st->rows[row].kind, &woken);
		if (best == UINT32_MAX) {
			c->stop = SP_STOP_NO_WAKER;
			c->stop_row = row;
			return 0;
		}
		add_hop(c, best, woken);
		return 0;
	}
	/* a call site: its top waker line, over its woken tasks */
	c->from = "site";
	for (i = 0; i < w->nlines; i++) {
		const struct sp_wline *l = &w->lines[i];

		if (!sp_site_match(sp_pool_str(&w->syms, l->sym),
				   sp_pool_len(&w->syms, l->sym),
				   &w->syminfo[l->sym], x))
			continue;
		if (best == UINT32_MAX || waker_better(c, l, &w->lines[best]))
			best = i;
	}
	if (best != UINT32_MAX) {
		const struct sp_wline *l = &w->lines[best];

		top_waker(c, l->pid, &w->syms, l->sym, l->kind, &woken);
		add_hop(c, best, woken);
		return 0;
	}
	/* a task name: the heaviest wait of the tasks of that name */
	c->from = "comm";
	for (i = 0; i < st->nrows; i++) {
		const struct sp_row *r = &st->rows[i];

		if (r->kind > SP_KIND_IDLE || sp_pool_len(&st->comms, r->comm) != xl ||
		    memcmp(sp_pool_str(&st->comms, r->comm), x, xl) != 0)
			continue;
		if (best == UINT32_MAX ||
		    sp_row_time(st, i).total_ns > sp_row_time(st, best).total_ns ||
		    (sp_row_time(st, i).total_ns == sp_row_time(st, best).total_ns &&
		     r->count > st->rows[best].count))
			best = i;
	}
	if (best == UINT32_MAX) {
		snprintf(c->err, sizeof(c->err), "chain: '%.64s' is no pid, no call site with a waker in %s and no task name with a wait in %s",
			 x, w->name, st->name);
		return -1;
	}
	row = best;
	c->stop_pid = st->rows[row].pid;
	best = top_waker(c, st->rows[row].pid, &st->syms, st->rows[row].sym,
			 st->rows[row].kind, &woken);
	if (best == UINT32_MAX) {
		c->stop = SP_STOP_NO_WAKER;
		c->stop_row = row;
		return 0;
	}
	add_hop(c, best, woken);
	return 0;
}

int sp_chain_build(struct sp_chain *c, const struct sp_wakers *w,
		   const struct sp_store *st, const struct sp_opts *o,
		   const char *arg)
{
	memset(c, 0, sizeof(*c));
	c->w = w;
	c->st = st;
	c->o = o;
	c->arg = arg;
	c->max_hops = o->hops_given ? o->hops : SP_CHAIN_HOPS;
	c->by_time = o->nsort && o->sort[0] == SP_SORT_TIME;
	if (chain_start(c, arg))
		return -1;
	while (c->nhops) {
		const struct sp_wline *l = &w->lines[c->hops[c->nhops - 1].line];
		uint32_t pid = l->waker_pid, row, best, i;
		uint64_t woken;

		c->stop_pid = pid;
		if (l->ctx != SP_WCTX_TASK || !pid) {
			c->stop = SP_STOP_CONTEXT;
			break;
		}
		for (i = 0; i < c->nhops; i++)
			if (w->lines[c->hops[i].line].pid == pid)
				break;
		if (i < c->nhops) {
			c->stop = SP_STOP_LOOP;
			c->stop_hop = i + 1;
			break;
		}
		if (c->nhops >= c->max_hops) {
			c->stop = SP_STOP_HOPS;
			break;
		}
		row = heaviest_wait(st, pid);
		if (row == UINT32_MAX) {
			c->stop = SP_STOP_NO_WAIT;
			break;
		}
		best = top_waker(c, pid, &st->syms, st->rows[row].sym,
				 st->rows[row].kind, &woken);
		if (best == UINT32_MAX) {
			c->stop = SP_STOP_NO_WAKER;
			c->stop_row = row;
			break;
		}
		add_hop(c, best, woken);
	}
	return 0;
}

void sp_chain_free(struct sp_chain *c)
{
	free(c->hops);
	memset(c, 0, sizeof(*c));
}

void sp_chain_stop_text(const struct sp_chain *c, char *buf, size_t len)
{
	const struct sp_wakers *w = c->w;
	const struct sp_wline *l = c->nhops ? &w->lines[c->hops[c->nhops - 1].line] : NULL;
	char name[4 * 16 + 1] = "";

	if (l && l->ctx == SP_WCTX_TASK && sp_pool_len(&w->comms, l->waker_comm) &&
	    sp_pool_len(&w->comms, l->waker_comm) <= 16)
		sp_escape(name, sp_pool_str(&w->comms, l->waker_comm),
			  sp_pool_len(&w->comms, l->waker_comm), SP_ESC_SPACE);
	switch (c->stop) {
	case SP_STOP_CONTEXT:
		snprintf(buf, len, "the waker is %s context, not a task",
			 l && l->ctx == SP_WCTX_TASK ? "the idle task's" :
			 l ? sp_wctx_name(l->ctx) : "?");
		break;
	case SP_STOP_LOOP:
		snprintf(buf, len, "loop: the waker, pid %u%s%s%s, is the sleeper of hop %u",
			 c->stop_pid, *name ? " (" : "", name, *name ? ")" : "",
			 c->stop_hop);
		break;
	case SP_STOP_HOPS:
		snprintf(buf, len, "%u hops (--hops); the waker, pid %u%s%s%s, waits too",
			 c->max_hops, c->stop_pid, *name ? " (" : "", name,
			 *name ? ")" : "");
		break;
	case SP_STOP_NO_WAIT:
		snprintf(buf, len, "pid %u has no wait (sleep, disk_sleep, idle) in %s",
			 c->stop_pid, c->st->name);
		break;
	case SP_STOP_NO_WAKER: {
		const struct sp_store *st = c->st;
		uint32_t sym = st->rows[c->stop_row].sym;

		snprintf(buf, len, "no waker in %s of the heaviest wait of pid %u, %s at %.*s",
			 w->name, c->stop_pid, sp_kind_name(st->rows[c->stop_row].kind),
			 (int)sp_pool_len(&st->syms, sym), sp_pool_str(&st->syms, sym));
		break;
	}
	}
}

static void chain_cell(const void *ctx, size_t row, enum sp_wcol col,
		       struct sp_cell *cell)
{
	const struct sp_chain *c = ctx;
	const struct sp_chop *h = &c->hops[row];
	const struct sp_wline *l = &c->w->lines[h->line];
	struct sp_wrow r = {
		.line = h->line, .count = l->count, .total_ns = l->total_ns,
		.wait_ns = l->wait_ns,
	};

	memset(cell, 0, sizeof(*cell));
	if (col == SP_WCOL_HOP)
		sp_cell_uint(cell, row + 1);
	else if (!figure_cell(&r, h->woken, col, cell))
		line_label(c->w, l, col, cell);
}

void sp_chain_tab(const struct sp_chain *c, bool people, struct sp_wtab *t)
{
	static const enum sp_wcol cols[] = {
		SP_WCOL_HOP, SP_WCOL_PID, SP_WCOL_TGID, SP_WCOL_COMM, SP_WCOL_KIND,
		SP_WCOL_SITE, SP_WCOL_COUNT, SP_WCOL_PCT, SP_WCOL_TIME,
		SP_WCOL_WAIT, SP_WCOL_MWAIT, SP_WCOL_DELAY, SP_WCOL_CONTEXT,
		SP_WCOL_WPID, SP_WCOL_WCOMM, SP_WCOL_WSITE,
	};
	size_t i;

	memset(t, 0, sizeof(*t));
	t->ctx = c;
	t->nrows = c->nhops;
	t->cell = chain_cell;
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if (people || cols[i] != SP_WCOL_PCT)
			t->cols[t->ncols++] = cols[i];
}

/* ---- commands ----------------------------------------------------------- */

static int parse_wakers(struct sp_reader *r, void *w, struct sp_error *err)
{
	return sp_parse_wakers(r, w, err);
}

/* Read path (NULL: SP_WAKERS_SOURCE, "-": stdin) into w. */
static int wakers_load(const char *path, struct sp_wakers *w)
{
	sp_wakers_init(w, "");
	return sp_input_read(path, SP_WAKERS_SOURCE, w->name, sizeof(w->name),
			     parse_wakers, w);
}

void sp_wview_render(struct sp_out *out, const struct sp_wview *v)
{
	struct sp_wtab t;

	switch (out->o->format) {
	case SP_FMT_CSV:
		sp_wview_tab(v, false, &t);
		sp_csv_wtab(out, &t, NULL);
		break;
	case SP_FMT_JSON:
		sp_json_wview(out, v);
		break;
	case SP_FMT_PROM:
		sp_prom_wview(out, v);
		break;
	default:	/* main.c refuses folded and svg */
		sp_table_wview(out, v);
		break;
	}
}

void sp_chain_render(struct sp_out *out, const struct sp_chain *c)
{
	struct sp_wtab t;

	switch (out->o->format) {
	case SP_FMT_CSV:
		sp_chain_tab(c, false, &t);
		sp_csv_wtab(out, &t, sp_chain_stop_name(c->stop));
		break;
	case SP_FMT_JSON:
		sp_json_chain(out, c);
		break;
	case SP_FMT_PROM:
		sp_prom_chain(out, c);
		break;
	default:
		sp_table_chain(out, c);
		break;
	}
}

int sp_cmd_wakers(const struct sp_opts *o, enum sp_wview_kind kind,
		  const char *arg)
{
	struct sp_wakers w;
	struct sp_wview v;
	struct sp_out out = { .o = o };
	char tmp[4096];
	int rc;

	if (wakers_load(o->wakers_file, &w)) {
		sp_wakers_free(&w);
		return SP_EXIT_ERROR;
	}
	sp_wview_build(&v, &w, o, kind, arg);
	if (!v.nlines) {
		fprintf(stderr, "schedpoints: no %scall site with a line in %s matches '%s'\n",
			kind == SP_WVIEW_WAKES ? "waker " : "", w.name, arg);
		sp_wview_free(&v);
		sp_wakers_free(&w);
		return SP_EXIT_ERROR;
	}
	out.fp = sp_output_open(o, tmp, sizeof(tmp));
	rc = SP_EXIT_ERROR;
	if (out.fp) {
		sp_wview_render(&out, &v);
		rc = sp_output_close(o, out.fp, tmp) ? SP_EXIT_ERROR : SP_EXIT_OK;
	}
	sp_wview_free(&v);
	sp_wakers_free(&w);
	return rc;
}

int sp_cmd_chain(const struct sp_opts *o, const char *arg)
{
	struct sp_wakers w;
	struct sp_store st;
	struct sp_chain c;
	struct sp_out out = { .o = o };
	int rc = SP_EXIT_ERROR;

	if (sp_load(o->file, &st)) {
		sp_store_free(&st);
		return SP_EXIT_ERROR;
	}
	if (wakers_load(o->wakers_file, &w)) {
		sp_wakers_free(&w);
		sp_store_free(&st);
		return SP_EXIT_ERROR;
	}
	if (sp_chain_build(&c, &w, &st, o, arg)) {
		fprintf(stderr, "schedpoints: %s\n", c.err);
	} else {
		char tmp[4096];

		out.fp = sp_output_open(o, tmp, sizeof(tmp));
		if (out.fp) {
			sp_chain_render(&out, &c);
			rc = sp_output_close(o, out.fp, tmp) ? SP_EXIT_ERROR : SP_EXIT_OK;
		}
	}
	sp_chain_free(&c);
	sp_wakers_free(&w);
	sp_store_free(&st);
	return rc;
}
