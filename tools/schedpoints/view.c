// SPDX-License-Identifier: GPL-2.0-only
/*
 * Views: filter the rows of a store, sum them into groups, sort, cut.
 *
 *   sites        group by call site (or function, module, kind)
 *   tasks        group by task (pid, tgid, comm), by tgid, or by comm
 *   site X       one call site's tasks
 *   task PID     one task's call sites
 *   matrix       (task, site) cells, plus the task rows and site columns
 *   hist         one group: the rows site X selects, or the hottest site
 *
 * On input with histograms, every view but the matrix sums the histograms
 * of its rows per group (result->hists), for the percentile columns, the
 * buckets of JSON, CSV and the heat map, and the hist command.
 *
 * Views keyed by site are keyed by (site, kind) too (SP_K_KIND): a
 * preemption and a sleep at one address are different things.  Views keyed
 * by task sum over kinds.  --group kind makes the kind itself the site
 * group.
 *
 * Filters are applied to rows before grouping.  Per-string filter results
 * (globs on comm, module and symbol) are computed once per distinct string,
 * not once per row.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "schedpoints.h"

#define NONE UINT32_MAX

const char *sp_view_name(enum sp_view v)
{
	static const char *const names[] = {
		[SP_VIEW_SITES] = "sites", [SP_VIEW_TASKS] = "tasks",
		[SP_VIEW_SITE] = "site", [SP_VIEW_TASK] = "task",
		[SP_VIEW_MATRIX] = "matrix", [SP_VIEW_HIST] = "hist",
	};

	return names[v];
}

const char *sp_site_label(const struct sp_opts *o)
{
	static const char *const names[] = {
		[SP_GROUP_SITE] = "site", [SP_GROUP_FUNCTION] = "function",
		[SP_GROUP_MODULE] = "module", [SP_GROUP_KIND] = "kind",
	};

	return names[o->group];
}

void sp_result_free(struct sp_result *r)
{
	sp_pool_free(&r->sites);
	free(r->groups);
	sp_keymap_free(&r->gindex);
	sp_keymap_free(&r->seen_task);
	sp_keymap_free(&r->seen_site);
	free(r->hists);
	free(r->splits);
	free(r->whists);
	free(r->dhists);
	free(r->xtasks);
	memset(r, 0, sizeof(*r));
}

void sp_matrix_free(struct sp_matrix *m)
{
	sp_result_free(&m->tasks);
	sp_result_free(&m->sites);
	sp_result_free(&m->cells);
}

sp_u128 sp_group_value(const struct sp_result *r, const struct sp_group *g)
{
	if (r->by_time)
		return r->delta ? g->delta_ns : g->total_ns;
	return r->delta ? g->delta : g->count;
}

sp_u128 sp_result_value(const struct sp_result *r)
{
	if (r->by_time)
		return r->delta ? r->total_delta_ns : r->total_ns;
	return r->delta ? r->total_delta : r->total;
}

bool sp_group_mean(const struct sp_result *r, const struct sp_group *g,
		   sp_u128 *mean)
{
	uint64_t n = r->delta ? g->tdelta : g->tcount;
	sp_u128 ns = r->delta ? g->delta_ns : g->total_ns;

	if (!n)
		return false;
	*mean = ns / n;
	return true;
}

const struct sp_hist *sp_group_hist(const struct sp_result *r,
				    const struct sp_group *g)
{
	return r->hist ? &r->hists[g->hist] : NULL;
}

bool sp_group_percentile(const struct sp_result *r, const struct sp_group *g,
			 unsigned pct, uint64_t *out)
{
	return sp_hist_percentile(sp_group_hist(r, g), pct, g->max_ns, out);
}

bool sp_store_split(const struct sp_store *st)
{
	return st->has_split && (st->sum.time != 0 || st->splits);
}

sp_u128 sp_group_split_ns(const struct sp_result *r, const struct sp_group *g,
			  unsigned which, bool delta)
{
	const struct sp_gsplit *x;
	sp_u128 wait, total;

	if (!r->split)
		return 0;
	x = &r->splits[g->split];
	wait = delta ? x->delta_wait_ns : x->wait_ns;
	total = delta ? g->delta_ns : g->total_ns;
	/* each line's wait is at most its time: so is every sum's */
	return which == SP_SPLIT_WAIT ? wait : total - wait;
}

uint64_t sp_group_split_max(const struct sp_result *r,
			    const struct sp_group *g, unsigned which)
{
	if (!r->split)
		return 0;
	return which == SP_SPLIT_WAIT ? r->splits[g->split].wait_max_ns :
					r->splits[g->split].delay_max_ns;
}

const struct sp_hist *sp_group_split_hist(const struct sp_result *r,
					  const struct sp_group *g,
					  unsigned which)
{
	if (!r->split || !r->hist)
		return NULL;
	return which == SP_SPLIT_WAIT ? &r->whists[g->hist] : &r->dhists[g->hist];
}

bool sp_group_split_percentile(const struct sp_result *r,
			       const struct sp_group *g, unsigned which,
			       unsigned pct, uint64_t *out)
{
	return sp_hist_percentile(sp_group_split_hist(r, g, which), pct,
				  sp_group_split_max(r, g, which), out);
}

double sp_rate(const struct sp_result *r, uint64_t delta)
{
	if (!r->delta || r->interval <= 0)
		return -1;
	return (double)delta / r->interval;
}

double sp_time_rate(const struct sp_result *r, sp_u128 delta_ns)
{
	if (!r->delta || r->interval <= 0)
		return -1;
	return (double)delta_ns / 1e9 / r->interval;
}

const char *sp_site_name(const struct sp_result *r, const struct sp_group *g)
{
	return sp_pool_str(&r->sites, g->site);
}

void sp_column_label(const struct sp_result *r, const struct sp_group *g,
		     char *buf, size_t len)
{
	if (r->keys & SP_K_KIND)
		snprintf(buf, len, "%s:%s", sp_kind_name(g->kind), sp_site_name(r, g));
	else
		snprintf(buf, len, "%s", sp_site_name(r, g));
}

const char *sp_group_comm(const struct sp_result *r, const struct sp_group *g,
			  size_t *len)
{
	*len = sp_pool_len(&r->st->comms, g->comm);
	return sp_pool_str(&r->st->comms, g->comm);
}

uint64_t sp_group_exited(const struct sp_result *r, const struct sp_group *g)
{
	return r->xtasks ? r->xtasks[g->xtasks].all : 0;
}

uint64_t sp_group_tasks(const struct sp_result *r, const struct sp_group *g)
{
	uint64_t exited = !r->xtasks ? 0 : r->delta ?
			  r->xtasks[g->xtasks].delta : r->xtasks[g->xtasks].all;

	if (r->keys & SP_K_PID)		/* a task, or a row of exited tasks */
		return g->exited ? exited : 1;
	return g->ntasks + exited;
}

/* ---- names of symbols --------------------------------------------------- */

static void module_name(const struct sp_store *st, uint32_t sym,
			const char **name, size_t *len)
{
	const struct sp_syminfo *si = &st->syminfo[sym];

	if (si->mod_len) {
		*name = sp_pool_str(&st->syms, sym) + si->mod_off;
		*len = si->mod_len;
	} else if (si->kind == SP_SYM_ADDR) {
		*name = "unknown";
		*len = 7;
	} else {
		*name = "vmlinux";
		*len = 7;
	}
}

/* Name of the group a symbol falls in, into buf (NUL-terminated). */
static size_t group_name(const struct sp_store *st, uint32_t sym,
			 enum sp_group_by by, char *buf)
{
	const struct sp_syminfo *si = &st->syminfo[sym];
	const char *s = sp_pool_str(&st->syms, sym);
	const char *mod;
	size_t n = 0, mlen;

	switch (by) {
	case SP_GROUP_SITE:
		n = sp_pool_len(&st->syms, sym);
		memcpy(buf, s, n);
		break;
	case SP_GROUP_FUNCTION:
		memcpy(buf, s, si->func_len);
		n = si->func_len;
		if (si->mod_len) {
			buf[n++] = ' ';
			buf[n++] = '[';
			memcpy(buf + n, s + si->mod_off, si->mod_len);
			n += si->mod_len;
			buf[n++] = ']';
		}
		break;
	case SP_GROUP_MODULE:
		module_name(st, sym, &mod, &mlen);
		buf[n++] = '[';
		memcpy(buf + n, mod, mlen);
		n += mlen;
		buf[n++] = ']';
		break;
	case SP_GROUP_KIND:	/* by the row's kind, see select_rows() */
		break;
	}
	buf[n] = '\0';
	return n;
}

static bool glob_any(char *const *globs, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!fnmatch(globs[i], s, 0))
			return true;
	return false;
}

/* Calls in row i's histogram (the interval's in interval mode). */
static uint64_t row_hist_calls(const struct sp_store *st, uint32_t i,
			       bool delta)
{
	struct sp_hist h;

	return sp_row_hist(st, i, delta, &h) ? sp_hist_calls(&h) : 0;
}

static bool u32_any(const uint32_t *v, size_t n, uint32_t x)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* Does symbol sym pass --module/--symbol, and match "site X"? */
static bool sym_selected(const struct sp_store *st, uint32_t sym,
			 const struct sp_opts *o, char *buf)
{
	const struct sp_syminfo *si = &st->syminfo[sym];
	const char *s = sp_pool_str(&st->syms, sym);
	size_t slen = sp_pool_len(&st->syms, sym);
	const char *mod;
	size_t mlen;

	module_name(st, sym, &mod, &mlen);
	if (o->f.nmodules) {
		memcpy(buf, mod, mlen);
		buf[mlen] = '\0';
		if (!glob_any(o->f.modules, o->f.nmodules, buf))
			return false;
	}
	if (o->f.nsymbols) {
		bool ok = glob_any(o->f.symbols, o->f.nsymbols, s);

		memcpy(buf, s, si->base_len);
		buf[si->base_len] = '\0';
		ok = ok || glob_any(o->f.symbols, o->f.nsymbols, buf);
		buf[si->func_len] = '\0';
		ok = ok || glob_any(o->f.symbols, o->f.nsymbols, buf);
		if (!ok)
			return false;
	}
	if (o->view == SP_VIEW_SITE || (o->view == SP_VIEW_HIST && o->view_arg))
		return sp_site_match(s, slen, si, o->view_arg);
	return true;
}

/*
 * X as 'site X' takes it: the whole symbol, the symbol without its
 * module, the function, the function and its module ("func [mod]"), or a
 * module in brackets ("[ext4]", "[vmlinux]").  The wakers, wakes and chain
 * commands match call sites with it too.
 */
bool sp_site_match(const char *s, size_t slen, const struct sp_syminfo *si,
		   const char *x)
{
	size_t xl = strlen(x), mlen;
	const char *mod;

	if (si->mod_len) {
		mod = s + si->mod_off;
		mlen = si->mod_len;
	} else {
		mod = si->kind == SP_SYM_ADDR ? "unknown" : "vmlinux";
		mlen = 7;
	}
	if (xl >= 2 && x[0] == '[' && x[xl - 1] == ']')
		return xl - 2 == mlen && !memcmp(x + 1, mod, mlen);
	if ((xl == slen || xl == si->base_len || xl == si->func_len) &&
	    !memcmp(x, s, xl))
		return true;
	/* "func [mod]" */
	return si->mod_len && xl == si->func_len + mlen + 3 &&
	       !memcmp(x, s, si->func_len) && x[si->func_len] == ' ' &&
	       x[si->func_len + 1] == '[' && !memcmp(x + si->func_len + 2, mod, mlen) &&
	       x[xl - 1] == ']';
}

/* ---- grouping ----------------------------------------------------------- */

/* The site and kind words of a group key: ids < SP_POOL_MAX, 3 bits of kind. */
_Static_assert(SP_NKINDS <= 8 && SP_POOL_MAX <= (UINT32_MAX >> 3) + 1,
	       "a site id and a kind fit in one 32-bit word");

/*
 * A group key of the fields in keys (other fields 0).  Rows of exited tasks
 * have no pid or thread group: in views by pid or tgid they are keyed by
 * their name, apart from every task: (0, 0, comm) by pid (no task has pid
 * 0), (1, 0, comm) by tgid (the first word is 0 for every thread group).
 * By comm they are tasks of that name, as the others.
 */
static struct sp_key group_key(unsigned keys, uint32_t pid, uint32_t tgid,
			       uint32_t comm, uint32_t site_word, bool exited)
{
	struct sp_key k = {
		keys & SP_K_PID ? pid : 0, keys & SP_K_TGID ? tgid : 0,
		keys & SP_K_COMM ? comm : 0, site_word,
	};

	if (exited && (keys & (SP_K_PID | SP_K_TGID))) {
		k.a = keys & SP_K_PID ? SP_PID_EXITED : 1;
		k.b = 0;
		k.c = comm;
	}
	return k;
}

/* A row's task key (views by task; cells of the matrix). */
static struct sp_key row_task_key(unsigned keys, const struct sp_row *row)
{
	return group_key(keys, row->pid, row->tgid, row->comm, 0,
			 sp_row_exited(row));
}

/* A group's task key, as row_task_key() made it. */
static struct sp_key group_task_key(unsigned keys, const struct sp_group *g)
{
	return group_key(keys, g->pid, g->tgid, g->comm, 0, g->exited);
}

/* Does a row of exited tasks make a group of its own in this view? */
static bool exited_apart(unsigned keys, const struct sp_row *row)
{
	return sp_row_exited(row) && (keys & (SP_K_PID | SP_K_TGID));
}

static uint32_t site_word(unsigned keys, uint32_t site, unsigned kind)
{
	if (!(keys & SP_K_SITE))
		return 0;
	return keys & SP_K_KIND ? site << 3 | kind : site;
}

static struct sp_group *group_get(struct sp_result *r,
				  const struct sp_row *row, uint32_t site)
{
	bool exited = sp_row_exited(row);
	uint32_t pid = row->pid, comm = row->comm, kind = row->kind;
	uint32_t tgid = exited ? 0 : row->tgid;	/* exited: a number of tasks */
	struct sp_key k = group_key(r->keys, pid, tgid, comm,
				    site_word(r->keys, site, kind), exited);
	struct sp_group *g;
	uint32_t idx;

	if (!sp_keymap_upsert(&r->gindex, &k, r->ngroups, &idx)) {
		g = &r->groups[idx];
		/*
		 * tgid/comm groups: show the leader's comm, else the lowest
		 * pid's; exited tasks have no pid to show (rep_pid is
		 * UINT32_MAX in a group that a row of them started).
		 */
		if (!(r->keys & SP_K_PID) && !exited && g->rep_pid != g->tgid &&
		    (pid == tgid || pid < g->rep_pid)) {
			/* the first task after exited ones: as if it came first */
			if (g->rep_pid == UINT32_MAX && !(r->keys & SP_K_TGID))
				g->tgid = tgid;
			g->rep_pid = pid;
			g->pid = pid;
			if (!(r->keys & SP_K_COMM))
				g->comm = comm;
		}
		return g;
	}
	if (r->ngroups == r->gcap) {
		r->gcap = r->gcap ? r->gcap * 2 : 64;
		r->groups = sp_xrealloc(r->groups, r->gcap, sizeof(*r->groups));
	}
	g = &r->groups[r->ngroups++];
	*g = (struct sp_group){
		.pid = pid, .tgid = tgid, .comm = comm, .site = site,
		.rep_pid = exited ? UINT32_MAX : pid,
		.kind = (uint8_t)(r->keys & SP_K_KIND ? kind : 0),
		.exited = exited_apart(r->keys, row),
	};
	if (r->hist) {
		if (r->nhists == r->hcap) {
			r->hcap = r->hcap ? r->hcap * 2 : 64;
			r->hists = sp_xrealloc(r->hists, r->hcap, sizeof(*r->hists));
			if (r->split) {
				r->whists = sp_xrealloc(r->whists, r->hcap,
							sizeof(*r->whists));
				r->dhists = sp_xrealloc(r->dhists, r->hcap,
							sizeof(*r->dhists));
			}
		}
		memset(&r->hists[r->nhists], 0, sizeof(*r->hists));
		if (r->split) {
			memset(&r->whists[r->nhists], 0, sizeof(*r->whists));
			memset(&r->dhists[r->nhists], 0, sizeof(*r->dhists));
		}
		g->hist = r->nhists++;
	}
	if (r->split) {		/* the wait and run delay, out of line */
		if (r->nsplits == r->scap) {
			r->scap = r->scap ? r->scap * 2 : 64;
			r->splits = sp_xrealloc(r->splits, r->scap, sizeof(*r->splits));
		}
		memset(&r->splits[r->nsplits], 0, sizeof(*r->splits));
		g->split = r->nsplits++;
	}
	if (r->st->nexited) {	/* rows of exited tasks: their numbers */
		if (r->nxtasks == r->xcap) {
			r->xcap = r->xcap ? r->xcap * 2 : 64;
			r->xtasks = sp_xrealloc(r->xtasks, r->xcap, sizeof(*r->xtasks));
		}
		r->xtasks[r->nxtasks] = (struct sp_xtasks){ 0, 0 };
		g->xtasks = r->nxtasks++;
	}
	return g;
}

/* Row i's wait and run delay (and their histograms) into group g. */
static void group_split_add(struct sp_result *r, struct sp_group *g,
			    uint32_t i, const struct sp_rdelta *d)
{
	struct sp_rsplit x = sp_row_split(r->st, i);
	struct sp_gsplit *gs = &r->splits[g->split];

	gs->wait_ns += x.wait_ns;
	gs->delta_wait_ns += d->wait_ns;
	if (x.wait_max_ns > gs->wait_max_ns)
		gs->wait_max_ns = x.wait_max_ns;
	if (x.delay_max_ns > gs->delay_max_ns)
		gs->delay_max_ns = x.delay_max_ns;
	if (r->hist) {
		sp_row_shist_add(r->st, i, SP_SPLIT_WAIT, r->delta,
				 &r->whists[g->hist]);
		sp_row_shist_add(r->st, i, SP_SPLIT_DELAY, r->delta,
				 &r->dhists[g->hist]);
	}
}

static void result_init(struct sp_result *r, const struct sp_store *st,
			const struct sp_opts *o, bool delta, double interval)
{
	memset(r, 0, sizeof(*r));
	r->st = st;
	r->o = o;
	r->view = o->view;
	r->delta = delta;
	r->interval = interval;
	/* a histogram per cell would cost the matrix 208 bytes a cell */
	r->hist = st->has_hist && o->view != SP_VIEW_MATRIX;
	/* the same for the split: the matrix's cells are one value each */
	r->split = sp_store_split(st) && o->view != SP_VIEW_MATRIX;
	r->by_time = o->value == SP_VALUE_TIME;
}

/* Site-keyed views are keyed by kind too. */
static unsigned with_kind(const struct sp_opts *o, unsigned keys)
{
	if ((keys & SP_K_SITE) && o->group != SP_GROUP_KIND)
		keys |= SP_K_KIND;
	return keys;
}

/* The task part of a key: --by (tasks, site X, matrix rows). */
static unsigned task_keys(const struct sp_opts *o)
{
	if (o->by == SP_BY_TGID)
		return SP_K_TGID;
	if (o->by == SP_BY_COMM)
		return SP_K_COMM;
	return SP_K_TASK;
}

unsigned sp_view_keys(const struct sp_opts *o)
{
	switch (o->view) {
	case SP_VIEW_SITES:
		return SP_K_SITE;
	case SP_VIEW_TASKS:
	case SP_VIEW_SITE:
		return task_keys(o);
	case SP_VIEW_TASK:
		return SP_K_TASK | SP_K_SITE;
	case SP_VIEW_HIST:	/* X: one group of what it selects */
		return o->view_arg ? 0 : SP_K_SITE;
	case SP_VIEW_MATRIX:
		break;
	}
	return task_keys(o) | SP_K_SITE;
}

/* Which rows a view takes, and the site group of each symbol. */
struct selection {
	uint32_t *symgrp;	/* symbol id -> site group id, or NONE */
	uint32_t kindgrp[SP_NKINDS];	/* --group kind: kind -> site group */
	bool *commok;		/* comm id -> passes --comm */
	/* matrix cells: only shown tasks and shown columns */
	const struct sp_keymap *tasks;
	const bool *cols;	/* [site * SP_NKINDS + kind] */
};

/* Site group names go into pool; ids index it. */
static void select_rows(struct selection *sel, struct sp_pool *pool,
			const struct sp_store *st, const struct sp_opts *o)
{
	char *buf = sp_xrealloc(NULL, SP_MAX_LINE + 16, 1);
	bool by_kind = o->group == SP_GROUP_KIND;
	uint32_t i;

	memset(sel, 0, sizeof(*sel));
	sel->symgrp = sp_xrealloc(NULL, st->syms.n, sizeof(*sel->symgrp));
	sel->commok = sp_xrealloc(NULL, st->comms.n, sizeof(*sel->commok));
	for (i = 0; i < SP_NKINDS; i++)
		sel->kindgrp[i] = NONE;
	for (i = 0; i < st->syms.n; i++) {
		size_t n;

		sel->symgrp[i] = NONE;
		if (!sym_selected(st, i, o, buf))
			continue;
		if (by_kind) {	/* only selected; the group is the row's kind */
			sel->symgrp[i] = 0;
			continue;
		}
		n = group_name(st, i, o->group, buf);
		sel->symgrp[i] = sp_pool_intern(pool, buf, n, NULL);
	}
	/* kinds named in the order of enum sp_kind, for the ones seen */
	for (i = 0; by_kind && i < SP_NKINDS; i++) {
		const char *name = sp_kind_name(i);

		if (st->kinds_seen & (1u << i))
			sel->kindgrp[i] = sp_pool_intern(pool, name, strlen(name), NULL);
	}
	for (i = 0; i < st->comms.n; i++)
		sel->commok[i] = !o->f.ncomms ||
				 glob_any(o->f.comms, o->f.ncomms,
					  sp_pool_str(&st->comms, i));
	free(buf);
}

static void selection_free(struct selection *sel)
{
	free(sel->symgrp);
	free(sel->commok);
}

static unsigned popcount(unsigned x)
{
	unsigned n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

/*
 * Is row i the first, in kind order, of the rows of its (task, symbol) that
 * the view takes?  Every filter but --kind depends on the task and the
 * symbol only, so the other kinds of the pair are taken if --kind (and, in
 * interval mode, having moved) lets them.  A few index probes instead of a
 * set of (task, site) pairs.
 */
static bool first_of_pair(const struct sp_store *st, uint32_t i,
			  unsigned kinds, bool delta)
{
	const struct sp_row *row = &st->rows[i];
	unsigned k;
	uint32_t j;

	for (k = 0; k < row->kind; k++) {
		if (!(kinds & st->kinds_seen & (1u << k)) ||
		    !sp_store_find(st, row->pid, row->tgid, row->comm, row->sym, k, &j))
			continue;
		if (delta && st->deltas && !st->deltas[j].count && !st->deltas[j].ns)
			continue;
		return false;
	}
	return true;
}

/* Filter and group the rows of st into r (unsorted). */
static void aggregate(struct sp_result *r, const struct sp_store *st,
		      const struct sp_opts *o, const struct selection *sel)
{
	const uint32_t *symgrp = sel->symgrp;
	const bool *commok = sel->commok;
	bool by_kind = o->group == SP_GROUP_KIND;
	bool one_to_one = o->group == SP_GROUP_SITE;	/* symbol -> group */
	/*
	 * Rows are distinct (task, symbol, kind) triples.  When the rows
	 * taken hold one kind, or the group has the kind in its key, they
	 * are distinct (task, symbol) pairs within a group too.
	 */
	unsigned kinds = o->f.kinds ? o->f.kinds : 0xffu;
	bool one_kind = popcount(st->kinds_seen & kinds) <= 1;
	bool pairs_site = one_to_one && (one_kind || (r->keys & SP_K_KIND));
	uint32_t i;

	static const struct sp_rtime no_time;
	static const struct sp_rdelta no_delta;

	for (i = 0; i < st->nrows; i++) {
		const struct sp_row *row = &st->rows[i];
		const struct sp_rtime *t = st->times ? &st->times[i] : &no_time;
		const struct sp_rdelta *d = st->deltas ? &st->deltas[i] : &no_delta;
		uint32_t site = symgrp[row->sym];
		struct sp_group *g;
		uint32_t gi, dummy;
		bool active;

		if (site == NONE || !commok[row->comm])
			continue;
		if (o->f.kinds && !(o->f.kinds & (1u << row->kind)))
			continue;
		if (o->f.npids && !u32_any(o->f.pids, o->f.npids, row->pid))
			continue;
		/* exited tasks have no thread group (their tgid is a count) */
		if (o->f.ntgids && (sp_row_exited(row) ||
				    !u32_any(o->f.tgids, o->f.ntgids, row->tgid)))
			continue;
		if (o->view == SP_VIEW_TASK && row->pid != o->task_pid)
			continue;
		/* hist: the rows that have one (preempt and yield may not) */
		if (o->view == SP_VIEW_HIST && !row_hist_calls(st, i, r->delta))
			continue;
		if (by_kind)
			site = sel->kindgrp[row->kind];
		if (sel->cols) {
			struct sp_key k = row_task_key(r->keys, row);
			unsigned kind = r->keys & SP_K_KIND ? row->kind : 0;

			if (!sel->cols[(size_t)site * SP_NKINDS + kind] ||
			    !sp_keymap_find(sel->tasks, &k, &dummy))
				continue;
		}
		r->nrows++;
		r->total += row->count;
		r->total_delta += d->count;
		r->total_ns += t->total_ns;
		r->total_delta_ns += d->ns;
		r->total_wait_ns += sp_row_split(st, i).wait_ns;
		r->total_delta_wait_ns += d->wait_ns;
		g = group_get(r, row, site);
		g->count += row->count;
		g->delta += d->count;
		g->total_ns += t->total_ns;
		g->delta_ns += d->ns;
		/*
		 * MEAN: over the calls of the lines that carry time, line by
		 * line (a row of two lines, one timed, one counted while time
		 * was off, divides by the timed line's calls only); in an
		 * interval, of the rows whose time moved.
		 */
		g->tcount += t->tcount;
		if (d->ns)
			g->tdelta += d->tcount;
		if (t->max_ns > g->max_ns)
			g->max_ns = t->max_ns;
		if (sp_row_exited(row))	/* its tgid: the tasks folded in */
			r->xtasks[g->xtasks].all += row->tgid;
		if (r->hist)
			sp_row_hist_add(st, i, r->delta, &r->hists[g->hist]);
		if (r->split)
			group_split_add(r, g, i, d);
		active = !r->delta || d->count || d->ns;
		if (!active)
			continue;
		gi = (uint32_t)(g - r->groups);
		/*
		 * When a group has the whole task (or the symbol itself) in its
		 * key and rows are distinct (task, symbol) pairs, every row of
		 * it is another site (or another task), and no set is needed;
		 * with several kinds, the first kind of a pair is another site.
		 */
		if ((r->keys & SP_K_TASK) == SP_K_TASK && one_to_one) {
			if (!(r->keys & SP_K_SITE) &&
			    (one_kind || first_of_pair(st, i, kinds, r->delta)))
				g->nsites++;
		} else if (!(r->keys & SP_K_SITE)) {
			struct sp_key k = { gi, site, 0, 0 };

			if (sp_keymap_upsert(&r->seen_site, &k, 0, &dummy))
				g->nsites++;
		}
		/*
		 * Exited tasks cannot be told apart: the kernel counted them
		 * (xtasks above; in an interval, those folded in it), and
		 * none of them is one of the tasks here.
		 */
		if (sp_row_exited(row)) {
			r->xtasks[g->xtasks].delta += st->dtasks ? st->dtasks[i] : 0;
		} else if ((r->keys & ~(SP_K_SITE | SP_K_KIND)) == 0 && pairs_site) {
			g->ntasks++;
		} else if (!(r->keys & SP_K_PID)) {
			struct sp_key k = { gi, row->pid, row->tgid, row->comm };

			if (sp_keymap_upsert(&r->seen_task, &k, 0, &dummy))
				g->ntasks++;
		}
	}
}

/* ---- sorting ------------------------------------------------------------ */

struct sort_ctx {
	const struct sp_result *r;
	const enum sp_sort *keys;
	size_t nkeys;
	bool reverse;
};

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a < b ? 1 : a > b ? -1 : 0;
}

static int cmp_u128_desc(sp_u128 a, sp_u128 b)
{
	return a < b ? 1 : a > b ? -1 : 0;
}

static int cmp_u32(uint32_t a, uint32_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_comm(const struct sp_result *r, const struct sp_group *a,
		    const struct sp_group *b)
{
	size_t la, lb;
	const char *sa = sp_group_comm(r, a, &la);
	const char *sb = sp_group_comm(r, b, &lb);
	int c = memcmp(sa, sb, la < lb ? la : lb);

	return c ? c : la < lb ? -1 : la > lb;
}

static int cmp_site(const struct sp_result *r, const struct sp_group *a,
		    const struct sp_group *b)
{
	if (!(r->keys & SP_K_SITE))
		return 0;
	return strcmp(sp_site_name(r, a), sp_site_name(r, b));
}

/* Groups with a mean first, higher means first. */
static int cmp_mean(const struct sp_result *r, const struct sp_group *a,
		    const struct sp_group *b)
{
	sp_u128 ma = 0, mb = 0;
	bool ha = sp_group_mean(r, a, &ma), hb = sp_group_mean(r, b, &mb);

	if (ha != hb)
		return ha ? -1 : 1;
	return cmp_u128_desc(ma, mb);
}

/* The percentile of a sort key, of off-CPU time or of the split, or 0. */
unsigned sp_sort_pct(enum sp_sort key)
{
	switch (key) {
	case SP_SORT_P50: case SP_SORT_WP50: case SP_SORT_DP50:
		return 50;
	case SP_SORT_P90: case SP_SORT_WP90: case SP_SORT_DP90:
		return 90;
	case SP_SORT_P99: case SP_SORT_WP99: case SP_SORT_DP99:
		return 99;
	default:
		return 0;
	}
}

/* The part of the split a sort key is of (SP_SPLIT_*), or 0: off-CPU time. */
unsigned sp_sort_split(enum sp_sort key)
{
	switch (key) {
	case SP_SORT_WAIT: case SP_SORT_WMAX:
	case SP_SORT_WP50: case SP_SORT_WP90: case SP_SORT_WP99:
		return SP_SPLIT_WAIT;
	case SP_SORT_DELAY: case SP_SORT_DMAX:
	case SP_SORT_DP50: case SP_SORT_DP90: case SP_SORT_DP99:
		return SP_SPLIT_DELAY;
	default:
		return 0;
	}
}

/* The percentile key of g: of off-CPU time, or of the wait or run delay. */
static bool key_percentile(const struct sp_result *r, enum sp_sort key,
			   const struct sp_group *g, uint64_t *out)
{
	unsigned which = sp_sort_split(key);

	return which ? sp_group_split_percentile(r, g, which, sp_sort_pct(key), out) :
		       sp_group_percentile(r, g, sp_sort_pct(key), out);
}

/* Groups with the percentile first, higher first (as cmp_mean()). */
static int cmp_pct(const struct sp_result *r, enum sp_sort key,
		   const struct sp_group *a, const struct sp_group *b)
{
	uint64_t pa = 0, pb = 0;
	bool ha = key_percentile(r, key, a, &pa);
	bool hb = key_percentile(r, key, b, &pb);

	if (ha != hb)
		return ha ? -1 : 1;
	return cmp_u64_desc(pa, pb);
}

/*
 * A row without a value for the key (a mean with no timed call, a
 * percentile with no histogram) sorts last, with -r too, as the man page
 * says: -r reverses the order of values, and "none" is not a value (issue
 * 34: -r put them first).
 */
static int cmp_absent(const struct sp_result *r, enum sp_sort key,
		      const struct sp_group *a, const struct sp_group *b)
{
	sp_u128 m;
	uint64_t p;
	bool ha, hb;

	if (key == SP_SORT_MEAN) {
		ha = sp_group_mean(r, a, &m);
		hb = sp_group_mean(r, b, &m);
	} else if (sp_sort_pct(key)) {
		ha = key_percentile(r, key, a, &p);
		hb = key_percentile(r, key, b, &p);
	} else {
		return 0;
	}
	return ha == hb ? 0 : ha ? -1 : 1;
}

static int cmp_key(const struct sp_result *r, enum sp_sort key,
		   const struct sp_group *a, const struct sp_group *b)
{
	switch (key) {
	case SP_SORT_COUNT:
		return r->delta ? cmp_u64_desc(a->delta, b->delta) :
				  cmp_u64_desc(a->count, b->count);
	case SP_SORT_TIME:
		return r->delta ? cmp_u128_desc(a->delta_ns, b->delta_ns) :
				  cmp_u128_desc(a->total_ns, b->total_ns);
	case SP_SORT_TOTAL:
		return r->by_time ? cmp_u128_desc(a->total_ns, b->total_ns) :
				    cmp_u64_desc(a->count, b->count);
	case SP_SORT_MEAN:
		return cmp_mean(r, a, b);
	case SP_SORT_P50:
	case SP_SORT_P90:
	case SP_SORT_P99:
	case SP_SORT_WP50:
	case SP_SORT_WP90:
	case SP_SORT_WP99:
	case SP_SORT_DP50:
	case SP_SORT_DP90:
	case SP_SORT_DP99:
		return cmp_pct(r, key, a, b);
	case SP_SORT_MAX:
		return cmp_u64_desc(a->max_ns, b->max_ns);
	case SP_SORT_WAIT:	/* as time: in interval mode the delta */
	case SP_SORT_DELAY:
		return cmp_u128_desc(sp_group_split_ns(r, a, sp_sort_split(key), r->delta),
				     sp_group_split_ns(r, b, sp_sort_split(key), r->delta));
	case SP_SORT_WMAX:
	case SP_SORT_DMAX:
		return cmp_u64_desc(sp_group_split_max(r, a, sp_sort_split(key)),
				    sp_group_split_max(r, b, sp_sort_split(key)));
	case SP_SORT_TASKS:
		return cmp_u64_desc(sp_group_tasks(r, a), sp_group_tasks(r, b));
	case SP_SORT_SITES:
		return cmp_u64_desc(a->nsites, b->nsites);
	case SP_SORT_PID:
		return cmp_u32(a->pid, b->pid);
	case SP_SORT_TGID:
		return cmp_u32(a->tgid, b->tgid);
	case SP_SORT_COMM:
		return cmp_comm(r, a, b);
	case SP_SORT_SITE:
		return cmp_site(r, a, b);
	case SP_SORT_NAME:
		return r->keys & SP_K_SITE ? cmp_site(r, a, b) : cmp_comm(r, a, b);
	case SP_NSORTS:
		break;
	}
	return 0;
}

static int cmp_groups(const void *pa, const void *pb, void *pctx)
{
	const struct sort_ctx *ctx = pctx;
	const struct sp_result *r = ctx->r;
	const struct sp_group *a = pa, *b = pb;
	size_t i;
	int c = 0;

	for (i = 0; i < ctx->nkeys && !c; i++) {
		c = cmp_absent(r, ctx->keys[i], a, b);	/* not reversed */
		if (!c)
			c = ctx->reverse ? -cmp_key(r, ctx->keys[i], a, b) :
					   cmp_key(r, ctx->keys[i], a, b);
	}
	/* ties: the value, the other measure, then the labels */
	if (!c)
		c = cmp_u128_desc(sp_group_value(r, a), sp_group_value(r, b));
	if (!c)
		c = r->by_time ? cmp_u64_desc(a->count, b->count) :
				 cmp_u128_desc(a->total_ns, b->total_ns);
	if (!c)
		c = cmp_u32(a->pid, b->pid);
	if (!c)
		c = cmp_u32(a->tgid, b->tgid);
	if (!c)
		c = cmp_comm(r, a, b);
	if (!c)
		c = cmp_site(r, a, b);
	if (!c)
		c = cmp_u32(a->kind, b->kind);
	return c;
}

/*
 * Sorting a million groups: an array of (first key as a number, index) is
 * sorted instead of the 100-byte groups, compared by that number and only
 * on a tie by cmp_groups(); with a small --top, only the top rows are
 * sorted, kept in a heap of that size.  Then the groups are put in that
 * order in place (the rows past --top in no particular order: only sums
 * of them are shown).
 */
struct sort_item {
	sp_u128 key;
	uint32_t idx;
};

/* The first key as a number (higher first), or false for a name. */
static bool fast_key(const struct sp_result *r, enum sp_sort key,
		     const struct sp_group *g, sp_u128 *v)
{
	switch (key) {
	case SP_SORT_COUNT:
		*v = r->delta ? g->delta : g->count;
		return true;
	case SP_SORT_TIME:
		*v = r->delta ? g->delta_ns : g->total_ns;
		return true;
	case SP_SORT_TOTAL:
		*v = r->by_time ? g->total_ns : g->count;
		return true;
	case SP_SORT_MAX:
		*v = g->max_ns;
		return true;
	case SP_SORT_WAIT:
	case SP_SORT_DELAY:
		*v = sp_group_split_ns(r, g, sp_sort_split(key), r->delta);
		return true;
	case SP_SORT_WMAX:
	case SP_SORT_DMAX:
		*v = sp_group_split_max(r, g, sp_sort_split(key));
		return true;
	case SP_SORT_TASKS:
		*v = sp_group_tasks(r, g);
		return true;
	case SP_SORT_SITES:
		*v = g->nsites;
		return true;
	default:
		return false;
	}
}

struct item_ctx {
	struct sort_ctx sort;
	bool fast;
};

static int cmp_items(const void *pa, const void *pb, void *pctx)
{
	const struct item_ctx *ctx = pctx;
	const struct sort_item *a = pa, *b = pb;
	const struct sp_group *groups = ctx->sort.r->groups;

	if (ctx->fast && a->key != b->key) {
		int c = a->key < b->key ? 1 : -1;

		return ctx->sort.reverse ? -c : c;
	}
	return cmp_groups(&groups[a->idx], &groups[b->idx], (void *)&ctx->sort);
}

/* Heap of the n best items seen, the worst at the root. */
static void sift_down(struct sort_item *h, size_t n, size_t i,
		      const struct item_ctx *ctx)
{
	for (;;) {
		size_t l = 2 * i + 1, w = i;
		struct sort_item t;

		if (l < n && cmp_items(&h[l], &h[w], (void *)ctx) > 0)
			w = l;
		if (l + 1 < n && cmp_items(&h[l + 1], &h[w], (void *)ctx) > 0)
			w = l + 1;
		if (w == i)
			return;
		t = h[i];
		h[i] = h[w];
		h[w] = t;
		i = w;
	}
}

/* Put groups in the order of perm (perm[k]: the group for place k). */
static void permute(struct sp_group *g, uint32_t *perm, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct sp_group tmp;
		uint32_t j = i;

		if (perm[i] == i)
			continue;
		tmp = g[i];
		while (perm[j] != i) {
			uint32_t k = perm[j];

			g[j] = g[k];
			perm[j] = j;
			j = k;
		}
		g[j] = tmp;
		perm[j] = j;
	}
}

/*
 * The whole order (no --top heap) by a first key that is a number below
 * 2^64, as counts always are, or a name by its rank among the names of its
 * pool (sorted once, not once per group): a stable LSD radix sort of (key, index), a
 * byte at a time, skipping the bytes every key shares; then only runs of
 * equal keys are put in order by cmp_groups().  The order of qsort_r() with
 * cmp_items(), without its million-fold indirect comparisons (a third of
 * the time of a folded matrix of a million cells).  False, and perm
 * untouched, when a key needs more than 64 bits.
 */
struct radix_item {
	uint64_t key;		/* ascending: ~value, or the value with -r */
	uint32_t idx;
};

static int cmp_index(const void *pa, const void *pb, void *pctx)
{
	const struct sort_ctx *ctx = pctx;
	const struct sp_group *g = ctx->r->groups;

	return cmp_groups(&g[*(const uint32_t *)pa], &g[*(const uint32_t *)pb], pctx);
}

static int cmp_pool_ids(const void *pa, const void *pb, void *pctx)
{
	const struct sp_pool *p = pctx;
	uint32_t x = *(const uint32_t *)pa, y = *(const uint32_t *)pb;
	uint32_t lx = sp_pool_len(p, x), ly = sp_pool_len(p, y);
	int c = memcmp(sp_pool_str(p, x), sp_pool_str(p, y), lx < ly ? lx : ly);

	return c ? c : lx < ly ? -1 : lx > ly;
}

/* The place of every string of a pool in byte order (cmp_comm(), cmp_site()). */
static uint32_t *pool_ranks(const struct sp_pool *p)
{
	uint32_t *ids = sp_xrealloc(NULL, p->n ? p->n : 1, sizeof(*ids));
	uint32_t *rank = sp_xrealloc(NULL, p->n ? p->n : 1, sizeof(*rank));
	uint32_t i;

	for (i = 0; i < p->n; i++)
		ids[i] = i;
	qsort_r(ids, p->n, sizeof(*ids), cmp_pool_ids, (void *)p);
	for (i = 0; i < p->n; i++)
		rank[ids[i]] = i;
	free(ids);
	return rank;
}

/*
 * The first sort key of g as a number that sorts ascending: measures are
 * higher first, pids and names (by their rank) lower first, -r the other
 * way.  False when it needs more than 64 bits.
 */
static bool radix_key(const struct sp_result *r, const struct sort_ctx *ctx,
		      const uint32_t *rank, const struct sp_group *g,
		      uint64_t *out)
{
	enum sp_sort key = ctx->keys[0];
	bool site = key == SP_SORT_SITE ||
		    (key == SP_SORT_NAME && (r->keys & SP_K_SITE));
	bool higher_first = false;
	sp_u128 v = 0, mean;
	uint64_t p;

	if (site)
		v = r->keys & SP_K_SITE ? rank[g->site] : 0;	/* as cmp_site() */
	else if (key == SP_SORT_COMM || key == SP_SORT_NAME)
		v = rank[g->comm];
	else if (key == SP_SORT_PID)
		v = g->pid;
	else if (key == SP_SORT_TGID)
		v = g->tgid;
	else if (key == SP_SORT_MEAN || sp_sort_pct(key)) {
		/* without one: last, -r or not (as cmp_absent()) */
		bool has = key == SP_SORT_MEAN ? sp_group_mean(r, g, &mean) :
			   key_percentile(r, key, g, &p);

		if (!has) {
			*out = UINT64_MAX;	/* a tie with ~0: cmp_groups() */
			return true;
		}
		v = key == SP_SORT_MEAN ? mean : p;
		higher_first = true;
	} else {
		higher_first = fast_key(r, key, g, &v);
	}
	if (v >> 64)
		return false;
	*out = higher_first != ctx->reverse ? ~(uint64_t)v : (uint64_t)v;
	return true;
}

static bool radix_order(const struct sp_result *r, const struct sort_ctx *ctx,
			uint32_t *perm)
{
	uint32_t n = r->ngroups, i, j, count[256], *rank = NULL;
	struct radix_item *a = sp_xrealloc(NULL, n, sizeof(*a)), *b, *t;
	uint64_t all_and = UINT64_MAX, all_or = 0;
	enum sp_sort key = ctx->keys[0];
	unsigned shift;

	if (key == SP_SORT_SITE || (key == SP_SORT_NAME && (r->keys & SP_K_SITE)))
		rank = pool_ranks(&r->sites);
	else if (key == SP_SORT_COMM || key == SP_SORT_NAME)
		rank = pool_ranks(&r->st->comms);
	for (i = 0; i < n; i++) {
		if (!radix_key(r, ctx, rank, &r->groups[i], &a[i].key)) {
			free(rank);
			free(a);
			return false;
		}
		a[i].idx = i;
		all_and &= a[i].key;
		all_or |= a[i].key;
	}
	free(rank);
	b = sp_xrealloc(NULL, n, sizeof(*b));
	for (shift = 0; shift < 64; shift += 8) {
		uint32_t sum = 0;

		if (!(((all_and ^ all_or) >> shift) & 0xff))
			continue;	/* every key has this byte */
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(a[i].key >> shift) & 0xff]++;
		for (j = 0; j < 256; j++) {
			uint32_t c = count[j];

			count[j] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			b[count[(a[i].key >> shift) & 0xff]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	free(b);
	for (i = 0; i < n; i++)
		perm[i] = a[i].idx;
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && a[j].key == a[i].key; j++)
			;
		if (j - i > 1)
			qsort_r(perm + i, j - i, sizeof(*perm), cmp_index, (void *)ctx);
	}
	free(a);
	return true;
}

static void sort_groups(struct sp_result *r, const struct sort_ctx *sctx,
			size_t top)
{
	struct item_ctx ctx = { *sctx, false };
	uint32_t n = r->ngroups, i, nsort = n;
	struct sort_item *items;
	uint32_t *perm = sp_xrealloc(NULL, n, sizeof(*perm));
	bool *taken = NULL;
	sp_u128 v = 0;

	ctx.fast = sctx->nkeys && fast_key(r, sctx->keys[0], &r->groups[0], &v);
	if (sctx->nkeys && !(top && top < n / 4) && radix_order(r, sctx, perm)) {
		permute(r->groups, perm, n);
		free(perm);
		return;
	}
	items = sp_xrealloc(NULL, n, sizeof(*items));
	for (i = 0; i < n; i++) {
		items[i].idx = i;
		items[i].key = 0;
		if (ctx.fast)
			fast_key(r, sctx->keys[0], &r->groups[i], &items[i].key);
	}
	if (top && top < n / 4) {	/* keep the top in a heap */
		nsort = (uint32_t)top;
		for (i = nsort / 2; i-- > 0;)
			sift_down(items, nsort, i, &ctx);
		for (i = nsort; i < n; i++) {
			if (cmp_items(&items[i], &items[0], &ctx) < 0) {
				items[0] = items[i];
				sift_down(items, nsort, 0, &ctx);
			}
		}
	}
	qsort_r(items, nsort, sizeof(*items), cmp_items, &ctx);
	for (i = 0; i < nsort; i++)
		perm[i] = items[i].idx;
	if (nsort < n) {	/* the rest, in any order */
		uint32_t k;

		taken = sp_xrealloc(NULL, n, sizeof(*taken));
		memset(taken, 0, (size_t)n * sizeof(*taken));
		for (i = 0; i < nsort; i++)
			taken[perm[i]] = true;
		for (i = 0, k = nsort; i < n; i++)
			if (!taken[i])
				perm[k++] = i;
	}
	free(items);
	free(taken);
	permute(r->groups, perm, n);
	free(perm);
}

/* Leave out what did not move (interval mode), sort by keys, cut to top. */
static void finish(struct sp_result *r, const enum sp_sort *keys,
		   size_t nkeys, size_t top)
{
	struct sort_ctx ctx = { r, keys, nkeys, r->o->reverse };
	uint32_t i;

	if (r->delta) {		/* an interval shows what moved */
		uint32_t n = 0;

		for (i = 0; i < r->ngroups; i++)
			if (r->groups[i].delta || r->groups[i].delta_ns)
				r->groups[n++] = r->groups[i];
		r->ngroups = n;
	}
	/*
	 * The latency picture draws off-CPU time: a group without any (no
	 * bucket: preempt and cond_resched calls and rt-mutex waits are not
	 * timed) would be an empty row, and such rows were most of the demo's picture (issue 35).
	 * Left out before -n takes its top; the picture says how many.
	 */
	if (r->o->buckets && r->o->format == SP_FMT_SVG && r->hist) {
		uint32_t n = 0;

		for (i = 0; i < r->ngroups; i++) {
			const struct sp_group *g = &r->groups[i];

			if (sp_hist_calls(sp_group_hist(r, g))) {
				r->groups[n++] = *g;
				continue;
			}
			r->ntimeless++;
			if (r->keys & SP_K_KIND)
				r->timeless_kinds |= 1u << g->kind;
		}
		r->ngroups = n;
	}
	sp_keymap_free(&r->gindex);	/* its indexes are stale once sorted */
	if (r->ngroups > 1)
		sort_groups(r, &ctx, top);
	r->nshown = top && top < r->ngroups ? (uint32_t)top : r->ngroups;
	for (i = 0; i < r->nshown && !r->exited_shown; i++)
		r->exited_shown = r->groups[i].exited;
}

/* The --sort keys, or the value of the view when none was given. */
static size_t sort_keys(const struct sp_opts *o, enum sp_sort *keys)
{
	if (!o->nsort) {
		keys[0] = o->value == SP_VALUE_TIME ? SP_SORT_TIME : SP_SORT_COUNT;
		return 1;
	}
	memcpy(keys, o->sort, o->nsort * sizeof(*keys));
	return o->nsort;
}

size_t sp_rows_limit(const struct sp_opts *o)
{
	if (o->view == SP_VIEW_HIST)	/* X: one group; else the hottest */
		return 1;
	if (o->top_given)
		return o->top;
	if (o->buckets && o->format == SP_FMT_SVG)	/* heatmap --buckets */
		return SP_MATRIX_TOP;
	if (o->view == SP_VIEW_MATRIX && o->format != SP_FMT_PROM)
		return SP_MATRIX_TOP;
	return o->format == SP_FMT_PROM ? SP_PROM_TOP : 0;
}

size_t sp_columns_limit(const struct sp_opts *o)
{
	if (o->columns_given)
		return o->columns;
	return o->top_given ? o->top : SP_MATRIX_TOP;
}

/*
 * The folded matrix: a group per cell of the rows and columns the matrix
 * shows (40 x 40 without -n, N x N with it, every cell with -n 0), sorted
 * as rows are.  It wrote every cell of the capture before (issue 34: a
 * million lines for a million-line capture, not the 40 x 40 the man page
 * says).  The cells take the site names of the columns with them.
 */
static void matrix_cells_build(struct sp_result *r, const struct sp_store *st,
			       const struct sp_opts *o, bool delta,
			       double interval)
{
	enum sp_sort keys[SP_MAX_SORT];
	struct sp_matrix m;
	size_t nkeys;

	sp_matrix_build(&m, st, o, delta, interval);
	*r = m.cells;
	r->sites = m.sites.sites;
	memset(&m.cells, 0, sizeof(m.cells));
	memset(&m.sites.sites, 0, sizeof(m.sites.sites));
	sp_matrix_free(&m);
	nkeys = sort_keys(o, keys);
	finish(r, keys, nkeys, 0);
}

void sp_view_build(struct sp_result *r, const struct sp_store *st,
		   const struct sp_opts *o, bool delta, double interval)
{
	enum sp_sort keys[SP_MAX_SORT];
	struct selection sel;
	size_t nkeys;

	if (o->view == SP_VIEW_MATRIX && o->format == SP_FMT_FOLDED) {
		matrix_cells_build(r, st, o, delta, interval);
		return;
	}
	result_init(r, st, o, delta, interval);
	r->keys = with_kind(o, sp_view_keys(o));
	select_rows(&sel, &r->sites, st, o);
	aggregate(r, st, o, &sel);
	selection_free(&sel);
	sp_keymap_free(&r->seen_task);
	sp_keymap_free(&r->seen_site);
	nkeys = sort_keys(o, keys);
	finish(r, keys, nkeys, sp_rows_limit(o));
}

/* ---- matrix ------------------------------------------------------------- */

/*
 * Rows (tasks, by --by) and columns (sites) are summed and cut first (-n,
 * --columns; SP_MATRIX_TOP each without them); then only the cells of shown
 * rows and columns are kept, so the matrix costs memory for what is shown,
 * not for every (task, site) pair.  Rows sort by the --sort keys; columns by
 * site name when the list has site or name, else by its first measure
 * (count, time, total, mean, max), else by the value.
 */
static size_t column_keys(const struct sp_opts *o, enum sp_sort *keys)
{
	size_t i;

	for (i = 0; i < o->nsort; i++) {
		switch (o->sort[i]) {
		case SP_SORT_SITE:
		case SP_SORT_NAME:
			keys[0] = SP_SORT_SITE;
			return 1;
		case SP_SORT_COUNT:
		case SP_SORT_TIME:
		case SP_SORT_TOTAL:
		case SP_SORT_MEAN:
		case SP_SORT_MAX:
			keys[0] = o->sort[i];
			return 1;
		default:
			break;
		}
	}
	keys[0] = o->value == SP_VALUE_TIME ? SP_SORT_TIME : SP_SORT_COUNT;
	return 1;
}

void sp_matrix_build(struct sp_matrix *m, const struct sp_store *st,
		     const struct sp_opts *o, bool delta, double interval)
{
	enum sp_sort keys[SP_MAX_SORT];
	struct selection sel;
	struct sp_keymap shown = { 0 };
	bool *cols;
	size_t ncols, nkeys;
	uint32_t i, dummy;

	result_init(&m->cells, st, o, delta, interval);
	result_init(&m->tasks, st, o, delta, interval);
	result_init(&m->sites, st, o, delta, interval);
	m->tasks.keys = task_keys(o);
	m->cells.keys = with_kind(o, m->tasks.keys | SP_K_SITE);
	m->sites.keys = with_kind(o, SP_K_SITE);
	/* one pool of site names: cells and columns share site ids */
	select_rows(&sel, &m->sites.sites, st, o);
	aggregate(&m->tasks, st, o, &sel);
	aggregate(&m->sites, st, o, &sel);
	sp_keymap_free(&m->tasks.seen_task);
	sp_keymap_free(&m->tasks.seen_site);
	sp_keymap_free(&m->sites.seen_task);
	sp_keymap_free(&m->sites.seen_site);
	nkeys = sort_keys(o, keys);
	finish(&m->tasks, keys, nkeys, sp_rows_limit(o));
	nkeys = column_keys(o, keys);
	finish(&m->sites, keys, nkeys, sp_columns_limit(o));

	for (i = 0; i < m->tasks.nshown; i++) {
		const struct sp_group *g = &m->tasks.groups[i];
		struct sp_key k = group_task_key(m->tasks.keys, g);

		sp_keymap_upsert(&shown, &k, i, &dummy);
	}
	ncols = (size_t)m->sites.sites.n * SP_NKINDS;
	cols = sp_xrealloc(NULL, ncols ? ncols : 1, sizeof(*cols));
	memset(cols, 0, ncols * sizeof(*cols));
	for (i = 0; i < m->sites.nshown; i++)
		cols[(size_t)m->sites.groups[i].site * SP_NKINDS +
		     m->sites.groups[i].kind] = true;
	sel.tasks = &shown;
	sel.cols = cols;
	aggregate(&m->cells, st, o, &sel);
	sp_keymap_free(&m->cells.seen_task);
	sp_keymap_free(&m->cells.seen_site);
	sp_keymap_free(&shown);
	free(cols);
	selection_free(&sel);
}

const struct sp_group *sp_matrix_cell_group(const struct sp_matrix *m,
					    const struct sp_group *row,
					    const struct sp_group *col)
{
	struct sp_key k = group_key(m->cells.keys, row->pid, row->tgid, row->comm,
				    site_word(m->cells.keys, col->site, col->kind),
				    row->exited);
	uint32_t idx;

	if (!sp_keymap_find(&m->cells.gindex, &k, &idx))
		return NULL;
	return &m->cells.groups[idx];
}

sp_u128 sp_matrix_cell(const struct sp_matrix *m, const struct sp_group *row,
		       const struct sp_group *col)
{
	const struct sp_group *g = sp_matrix_cell_group(m, row, col);

	return g ? sp_group_value(&m->cells, g) : 0;
}

/*
 * Two stable counting sorts (by column, then by row): O(cells + rows +
 * columns), where looking every (row, column) pair up costs rows x columns
 * (600 million lookups, half a minute, for the whole matrix of a
 * 1,000,000-line capture that has a million cells).
 */
static void sort_refs(struct sp_cell_ref *from, struct sp_cell_ref *to,
		      size_t n, size_t nbuckets, bool by_row)
{
	size_t *start = sp_xrealloc(NULL, nbuckets + 1, sizeof(*start));
	size_t i, sum = 0;

	memset(start, 0, (nbuckets + 1) * sizeof(*start));
	for (i = 0; i < n; i++)
		start[by_row ? from[i].row : from[i].col]++;
	for (i = 0; i <= nbuckets; i++) {
		size_t c = start[i];

		start[i] = sum;
		sum += c;
	}
	for (i = 0; i < n; i++)
		to[start[by_row ? from[i].row : from[i].col]++] = from[i];
	free(start);
}

size_t sp_matrix_cells(const struct sp_matrix *m, struct sp_cell_ref **out)
{
	const struct sp_result *rows = &m->tasks, *cols = &m->sites;
	size_t ncolslots = (size_t)cols->sites.n * SP_NKINDS, n = 0, i;
	uint32_t *colidx = sp_xrealloc(NULL, ncolslots ? ncolslots : 1, sizeof(*colidx));
	struct sp_cell_ref *refs, *tmp;
	struct sp_keymap rowidx = { 0 };
	uint32_t dummy;

	for (i = 0; i < rows->nshown; i++) {
		const struct sp_group *g = &rows->groups[i];
		struct sp_key k = group_task_key(rows->keys, g);

		sp_keymap_upsert(&rowidx, &k, (uint32_t)i, &dummy);
	}
	memset(colidx, 0xff, ncolslots * sizeof(*colidx));
	for (i = 0; i < cols->nshown; i++)
		colidx[(size_t)cols->groups[i].site * SP_NKINDS + cols->groups[i].kind] =
			(uint32_t)i;
	refs = sp_xrealloc(NULL, m->cells.ngroups ? m->cells.ngroups : 1, sizeof(*refs));
	for (i = 0; i < m->cells.ngroups; i++) {
		const struct sp_group *g = &m->cells.groups[i];
		struct sp_key k = group_task_key(rows->keys, g);
		uint32_t row, col = colidx[(size_t)g->site * SP_NKINDS + g->kind];

		if (col == NONE || !sp_keymap_find(&rowidx, &k, &row))
			continue;	/* not shown (cells are only of shown ones) */
		refs[n++] = (struct sp_cell_ref){ row, col, g };
	}
	sp_keymap_free(&rowidx);
	free(colidx);
	tmp = sp_xrealloc(NULL, n ? n : 1, sizeof(*tmp));
	sort_refs(refs, tmp, n, cols->nshown, false);
	sort_refs(tmp, refs, n, rows->nshown, true);
	free(tmp);
	*out = refs;
	return n;
}

/* ---- options that apply ------------------------------------------------- */

const char *sp_sort_name(enum sp_sort s)
{
	static const char *const names[SP_NSORTS] = {
		[SP_SORT_COUNT] = "count", [SP_SORT_TOTAL] = "total",
		[SP_SORT_PID] = "pid", [SP_SORT_TGID] = "tgid",
		[SP_SORT_COMM] = "comm", [SP_SORT_SITE] = "site",
		[SP_SORT_NAME] = "name", [SP_SORT_TIME] = "time",
		[SP_SORT_MEAN] = "mean", [SP_SORT_MAX] = "max",
		[SP_SORT_TASKS] = "tasks", [SP_SORT_SITES] = "sites",
		[SP_SORT_P50] = "p50", [SP_SORT_P90] = "p90", [SP_SORT_P99] = "p99",
		[SP_SORT_WAIT] = "wait", [SP_SORT_DELAY] = "delay",
		[SP_SORT_WMAX] = "wmax", [SP_SORT_DMAX] = "dmax",
		[SP_SORT_WP50] = "wp50", [SP_SORT_WP90] = "wp90", [SP_SORT_WP99] = "wp99",
		[SP_SORT_DP50] = "dp50", [SP_SORT_DP90] = "dp90", [SP_SORT_DP99] = "dp99",
	};

	return s < SP_NSORTS ? names[s] : "?";
}

/* Does the view have what sort key s sorts by?  The matrix: rows, or columns for site. */
static bool sort_applies(const struct sp_opts *o, enum sp_sort s)
{
	bool matrix = o->view == SP_VIEW_MATRIX;
	unsigned keys = matrix ? task_keys(o) : sp_view_keys(o);
	bool has_comm = (keys & SP_K_COMM) || keys == SP_K_TGID;
	bool has_site = matrix || (keys & SP_K_SITE);

	switch (s) {
	case SP_SORT_PID:
		return keys & SP_K_PID;
	case SP_SORT_TGID:
		return keys & SP_K_TGID;
	case SP_SORT_COMM:
		return has_comm;
	case SP_SORT_SITE:
		return has_site;
	case SP_SORT_NAME:
		return has_comm || has_site;
	case SP_SORT_TASKS:	/* the TASKS column */
		return !(keys & SP_K_PID);
	case SP_SORT_SITES:	/* the SITES column */
		return !(keys & SP_K_SITE);
	case SP_SORT_P50:	/* no histogram per matrix cell or row */
	case SP_SORT_P90:
	case SP_SORT_P99:
		return !matrix;
	default:		/* measures: every view has them, the split not the matrix */
		return !matrix || !sp_sort_split(s);
	}
}

int sp_opts_check(const struct sp_opts *o, char *why, size_t len)
{
	const char *view = o->view == SP_VIEW_SITES && o->group == SP_GROUP_KIND ?
			   "kinds" : sp_view_name(o->view);
	bool one_dim = o->format == SP_FMT_FOLDED || o->format == SP_FMT_PROM;
	size_t i;

	if (o->pretty && o->format != SP_FMT_JSON) {
		snprintf(why, len, "--pretty indents JSON: it needs --format json");
		return -1;
	}
	if (o->by_given && o->view != SP_VIEW_TASKS && o->view != SP_VIEW_SITE &&
	    o->view != SP_VIEW_MATRIX) {
		snprintf(why, len, "--by groups tasks: it applies to tasks, site X, matrix and heatmap, not to %s",
			 view);
		return -1;
	}
	if (o->group_given && o->view != SP_VIEW_SITES && o->view != SP_VIEW_TASK &&
	    o->view != SP_VIEW_MATRIX &&
	    (o->view != SP_VIEW_HIST || o->view_arg)) {
		snprintf(why, len, "--group groups call sites: the %s view has none (it applies to sites, task PID, matrix, heatmap and hist without X)",
			 o->view == SP_VIEW_HIST ? "hist X" : view);
		return -1;
	}
	if (o->view == SP_VIEW_HIST && (o->top_given || o->columns_given)) {
		snprintf(why, len, "--%s: hist shows one point's buckets (hist X, or the hottest point)",
			 o->top_given ? "top" : "columns");
		return -1;
	}
	if (o->view == SP_VIEW_HIST && o->view_arg && (o->nsort || o->reverse)) {
		snprintf(why, len, "--%s picks the hottest point of hist without X: hist X sums the rows X selects",
			 o->nsort ? "sort" : "reverse");
		return -1;
	}
	if (o->view == SP_VIEW_HIST && o->format != SP_FMT_TABLE &&
	    o->format != SP_FMT_CSV && o->format != SP_FMT_JSON) {
		snprintf(why, len, "hist writes a table, csv (a row per bucket) or json, not --format %s",
			 o->format == SP_FMT_FOLDED ? "folded" :
			 o->format == SP_FMT_PROM ? "prometheus" : "svg");
		return -1;
	}
	if (o->buckets && o->format == SP_FMT_SVG && o->columns_given) {
		snprintf(why, len, "--columns: the columns of heatmap --buckets are the buckets");
		return -1;
	}
	if (o->buckets && !(o->format == SP_FMT_SVG && o->view == SP_VIEW_SITES) &&
	    !(o->format == SP_FMT_CSV && o->view != SP_VIEW_MATRIX)) {
		snprintf(why, len, "--buckets is for heatmap (sites x buckets) and --format csv of sites, tasks, site X, task PID and hist (a row per bucket)");
		return -1;
	}
	if (o->split && !(o->format == SP_FMT_TABLE && o->view != SP_VIEW_MATRIX &&
			  o->view != SP_VIEW_HIST) &&
	    !(o->format == SP_FMT_SVG && o->buckets)) {
		snprintf(why, len, "--split shows every column of the wait and run delay in the table of sites, tasks, site X, task PID and kinds, and their rows in heatmap --buckets (csv and json always carry them, hist always shows them)");
		return -1;
	}
	if (o->columns_given && (o->view != SP_VIEW_MATRIX || one_dim)) {
		snprintf(why, len, "--columns is for the columns of matrix (table, csv, json) and heatmap");
		return -1;
	}
	for (i = 0; i < o->nsort; i++) {
		if (o->sort[i] == SP_SORT_PID && o->view == SP_VIEW_TASK) {
			snprintf(why, len, "--sort pid: every row of 'task %u' has pid %u",
				 o->task_pid, o->task_pid);
			return -1;
		}
		if (!sort_applies(o, o->sort[i])) {
			snprintf(why, len, "--sort %s: the %s view%s has no %s column",
				 sp_sort_name(o->sort[i]), view,
				 o->view == SP_VIEW_TASKS || o->view == SP_VIEW_SITE ||
				 o->view == SP_VIEW_MATRIX ?
				 (o->by == SP_BY_TGID ? " by tgid" : o->by == SP_BY_COMM ? " by comm" : "") : "",
				 sp_sort_name(o->sort[i]));
			return -1;
		}
	}
	return 0;
}
