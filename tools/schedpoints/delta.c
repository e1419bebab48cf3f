// SPDX-License-Identifier: GPL-2.0-only
/*
 * The delta algorithm of interval mode: what each row gained between two
 * snapshots, and whether the counters went back.  The commands that use it
 * (top, diff) are in interval.c.
 *
 * Rows are matched on the tool's row key (pid, tgid, comm, symbol, kind).
 * The kernel never removes an entry except on reset or when the tables are
 * reallocated, so between two snapshots of the same table every row of the
 * older one is still there with a count, off-CPU time, longest stretch and
 * every histogram bucket at least as high.  If a row is gone, one of those
 * went down, 'dropped' or 'folded' went down or 'capacity' changed, the
 * counters were reset (or the kernel changed): that is said, and no delta
 * is computed across it (the next interval starts from the new snapshot).
 * A reset followed by so many hits that every row is back above its old
 * values cannot be told from the file.
 *
 * But for folds (format 2): to make room in a per-CPU table the kernel
 * folds the entries of exited tasks into lines of exited tasks (pid 0), one
 * per (comm, call site, kind).  A task's row then goes (or goes down, when
 * one CPU's entry of it was folded and another's not yet), and what it
 * lost is in the line of exited tasks of its name, call site and kind.  So
 * a row of a task that went down is not a reset when that line (which
 * never goes down itself) gained at least what the rows folded into it
 * lost, in every measure: the row keeps what it gained (per measure), the
 * line of exited tasks what it gained less what was folded into it (the
 * calls of the interval of the tasks that exited in it), and every sum
 * stays exact.  Its tasks' delta is the tasks folded into it meanwhile.
 */
#include <stdlib.h>
#include <string.h>

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
	char comm[4 * 64 + 1], who[32];
	uint32_t clen = sp_pool_len(&prev->comms, p->comm);

	sp_escape(comm, sp_pool_str(&prev->comms, p->comm), clen > 64 ? 64 : clen, 0);
	if (sp_row_exited(p))
		snprintf(who, sizeof(who), "exited tasks");
	else
		snprintf(who, sizeof(who), "pid %u", p->pid);
	snprintf(why, len,
		 "counters went back between snapshots (%s '%s' at %s, %s: %s)",
		 who, comm, sp_pool_str(&prev->syms, p->sym),
		 sp_kind_name(p->kind), what);
}

/*
 * The wait and run delay of row i of prev and row ri of cur (NULL: gone),
 * and their histograms: what a row had, in a split input.
 */
struct split {
	struct sp_rsplit x;
	uint64_t delay_ns;	/* total_ns - wait_ns */
	struct sp_hist wh, dh;
};

static void split_get(const struct sp_store *st, const uint32_t *i,
		      struct split *s)
{
	memset(s, 0, sizeof(*s));
	if (!i || !st->has_split)
		return;
	s->x = sp_row_split(st, *i);
	s->delay_ns = sp_row_time(st, *i).total_ns - s->x.wait_ns;
	sp_row_shist(st, *i, SP_SPLIT_WAIT, false, &s->wh);
	sp_row_shist(st, *i, SP_SPLIT_DELAY, false, &s->dh);
}

/* The first measure of the split that went back from p to c, said in what. */
static bool split_back(const struct split *p, const struct split *c,
		       char *what, size_t len)
{
	const struct {
		const char *name;
		uint64_t p, c;
	} m[] = {
		{ "wait_ns", p->x.wait_ns, c->x.wait_ns },
		{ "delay_ns", p->delay_ns, c->delay_ns },
		{ "wait_max_ns", p->x.wait_max_ns, c->x.wait_max_ns },
		{ "delay_max_ns", p->x.delay_max_ns, c->x.delay_max_ns },
	};
	unsigned b, k;

	for (k = 0; k < sizeof(m) / sizeof(m[0]); k++)
		if (m[k].c < m[k].p) {
			snprintf(what, len, "%s %llu -> %llu", m[k].name,
				 (unsigned long long)m[k].p,
				 (unsigned long long)m[k].c);
			return true;
		}
	for (b = 0; b < SP_HIST_N; b++)
		if (c->wh.n[b] < p->wh.n[b] || c->dh.n[b] < p->dh.n[b]) {
			bool w = c->wh.n[b] < p->wh.n[b];

			snprintf(what, len, "%s bucket %u %llu -> %llu",
				 w ? "wait_hist" : "delay_hist", SP_HIST_MIN + b,
				 (unsigned long long)(w ? p->wh.n[b] : p->dh.n[b]),
				 (unsigned long long)(w ? c->wh.n[b] : c->dh.n[b]));
			return true;
		}
	return false;
}

/* The first measure of row p that went back in c, said in what; false if none did. */
static bool went_back(const struct sp_row *p, const struct sp_rtime *pt,
		      const struct sp_hist *ph, bool has_ph,
		      const struct sp_row *c, const struct sp_rtime *ct,
		      const struct sp_hist *ch, const struct split *ps,
		      const struct split *cs, char *what, size_t len)
{
	unsigned b;

	for (b = 0; has_ph && b < SP_HIST_N; b++)
		if (ch->n[b] < ph->n[b])
			break;
	if (c->count < p->count)
		snprintf(what, len, "count %llu -> %llu",
			 (unsigned long long)p->count, (unsigned long long)c->count);
	else if (ct->total_ns < pt->total_ns)
		snprintf(what, len, "total_ns %llu -> %llu",
			 (unsigned long long)pt->total_ns,
			 (unsigned long long)ct->total_ns);
	else if (ct->max_ns < pt->max_ns)
		snprintf(what, len, "max_ns %llu -> %llu",
			 (unsigned long long)pt->max_ns,
			 (unsigned long long)ct->max_ns);
	else if (has_ph && b < SP_HIST_N)
		snprintf(what, len, "hist bucket %u %llu -> %llu", SP_HIST_MIN + b,
			 (unsigned long long)ph->n[b], (unsigned long long)ch->n[b]);
	else if (split_back(ps, cs, what, len))
		return true;
	else if (sp_row_exited(p) && c->tgid < p->tgid)
		snprintf(what, len, "exited tasks %u -> %u", p->tgid, c->tgid);
	else
		return false;
	return true;
}

/* What rows of tasks lost to one line of exited tasks of cur (a fold). */
struct fold {
	uint32_t row;		/* the line of exited tasks, in cur */
	uint32_t first;		/* the first row of prev folded into it */
	uint64_t count, tcount, max_ns;
	sp_u128 ns;
	struct sp_hist hist;
	struct split split;	/* the wait and run delay folded in */
	char what[96];		/* how the first row went back */
};

struct folds {
	uint32_t *of;		/* [cur->nrows]: 1 + its fold, 0: none */
	struct fold *v;
	uint32_t n, cap;
};

static struct fold *fold_get(struct folds *f, const struct sp_store *cur,
			     uint32_t row, uint32_t first, const char *what)
{
	struct fold *x;

	if (!f->of) {
		f->of = sp_xrealloc(NULL, cur->nrows, sizeof(*f->of));
		memset(f->of, 0, (size_t)cur->nrows * sizeof(*f->of));
	}
	if (f->of[row])
		return &f->v[f->of[row] - 1];
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 16;
		f->v = sp_xrealloc(f->v, f->cap, sizeof(*f->v));
	}
	x = &f->v[f->n++];
	memset(x, 0, sizeof(*x));
	x->row = row;
	x->first = first;
	snprintf(x->what, sizeof(x->what), "%s", what);
	f->of[row] = f->n;
	return x;
}

/*
 * The split's part of fold_row(): what row i of prev lost of its wait, run
 * delay and their buckets to the line of exited tasks x, what row ri of
 * cur (NULL: gone) kept of it.
 */
static void fold_split(struct fold *x, struct sp_store *cur,
		       const struct sp_store *prev, uint32_t i, const uint32_t *ri)
{
	struct split ps, cs, kept;
	unsigned b;

	if (!cur->has_split || !prev->has_split)
		return;
	split_get(prev, &i, &ps);
	split_get(cur, ri, &cs);
	x->split.x.wait_ns += cs.x.wait_ns < ps.x.wait_ns ?
			      ps.x.wait_ns - cs.x.wait_ns : 0;
	x->split.delay_ns += cs.delay_ns < ps.delay_ns ?
			     ps.delay_ns - cs.delay_ns : 0;
	if (cs.x.wait_max_ns < ps.x.wait_max_ns &&
	    ps.x.wait_max_ns > x->split.x.wait_max_ns)
		x->split.x.wait_max_ns = ps.x.wait_max_ns;
	if (cs.x.delay_max_ns < ps.x.delay_max_ns &&
	    ps.x.delay_max_ns > x->split.x.delay_max_ns)
		x->split.x.delay_max_ns = ps.x.delay_max_ns;
	for (b = 0; b < SP_HIST_N; b++) {
		kept.wh.n[b] = cs.wh.n[b] < ps.wh.n[b] ? cs.wh.n[b] : ps.wh.n[b];
		kept.dh.n[b] = cs.dh.n[b] < ps.dh.n[b] ? cs.dh.n[b] : ps.dh.n[b];
		x->split.wh.n[b] += ps.wh.n[b] - kept.wh.n[b];
		x->split.dh.n[b] += ps.dh.n[b] - kept.dh.n[b];
	}
	if (ri) {		/* what it gained is its own */
		cur->deltas[*ri].wait_ns = cs.x.wait_ns > ps.x.wait_ns ?
					   cs.x.wait_ns - ps.x.wait_ns : 0;
		sp_row_shist_sub(cur, *ri, SP_SPLIT_WAIT, &kept.wh);
		sp_row_shist_sub(cur, *ri, SP_SPLIT_DELAY, &kept.dh);
	}
	cur->total_delta_wait_ns -= ps.x.wait_ns;
}

/*
 * Row i of prev (a task's) went back: fold what it lost into the line of
 * exited tasks of its name, call site and kind in cur, keep in row ri of
 * cur (found: NULL if gone) what it gained.  False when cur has no such
 * line (then it is a reset).
 */
static bool fold_row(struct folds *f, struct sp_store *cur,
		     const struct sp_store *prev, uint32_t i, uint32_t comm,
		     uint32_t sym, const uint32_t *ri, const char *what)
{
	const struct sp_row *p = &prev->rows[i];
	struct sp_rtime pt = sp_row_time(prev, i), ct = { 0, 0, 0 };
	uint64_t count = ri ? cur->rows[*ri].count : 0;
	struct sp_hist ph, ch, kept;
	struct fold *x;
	uint32_t e;
	unsigned b;

	if (!cur->nexited ||
	    !sp_store_find(cur, SP_PID_EXITED, 0, comm, sym, p->kind, &e))
		return false;
	x = fold_get(f, cur, e, i, what);
	fold_split(x, cur, prev, i, ri);
	sp_row_hist(prev, i, false, &ph);
	memset(&ch, 0, sizeof(ch));
	if (ri) {
		ct = sp_row_time(cur, *ri);
		sp_row_hist(cur, *ri, false, &ch);
	}
	for (b = 0; b < SP_HIST_N; b++) {
		kept.n[b] = ch.n[b] < ph.n[b] ? ch.n[b] : ph.n[b];
		x->hist.n[b] += ph.n[b] - kept.n[b];
	}
	/* what it lost (a gone row: all of it) to the line of exited tasks */
	x->count += count < p->count ? p->count - count : 0;
	x->ns += ct.total_ns < pt.total_ns ? pt.total_ns - ct.total_ns : 0;
	x->tcount += ct.tcount < pt.tcount ? pt.tcount - ct.tcount : 0;
	if (ct.max_ns < pt.max_ns && pt.max_ns > x->max_ns)
		x->max_ns = pt.max_ns;
	if (ri) {		/* what it gained, per measure, is its own */
		struct sp_rdelta *d = &cur->deltas[*ri];

		d->count = count > p->count ? count - p->count : 0;
		d->ns = ct.total_ns > pt.total_ns ? ct.total_ns - pt.total_ns : 0;
		d->tcount = ct.tcount > pt.tcount ? ct.tcount - pt.tcount : 0;
		sp_row_hist_sub(cur, *ri, &kept);
	}
	cur->total_delta -= p->count;
	cur->total_delta_ns -= pt.total_ns;
	return true;
}

/*
 * Take what was folded into each line of exited tasks off its gain; it
 * must have gained at least that much, else the counters went back.
 */
static int folds_apply(const struct folds *f, struct sp_store *cur,
		       const struct sp_store *prev, char *why, size_t whylen)
{
	uint32_t k;

	for (k = 0; k < f->n; k++) {
		const struct fold *x = &f->v[k];
		struct sp_rdelta *d = &cur->deltas[x->row];
		struct sp_hist dh;
		unsigned b;

		struct split gain;
		bool split_short;

		sp_row_hist(cur, x->row, true, &dh);	/* zero when none */
		for (b = 0; b < SP_HIST_N; b++)
			if (dh.n[b] < x->hist.n[b])
				break;
		/* the split: what the line gained must cover what was folded */
		memset(&gain, 0, sizeof(gain));
		if (cur->has_split) {
			gain.x = sp_row_split(cur, x->row);
			gain.x.wait_ns = d->wait_ns;
			gain.delay_ns = d->ns - d->wait_ns;
			sp_row_shist(cur, x->row, SP_SPLIT_WAIT, true, &gain.wh);
			sp_row_shist(cur, x->row, SP_SPLIT_DELAY, true, &gain.dh);
		}
		split_short = cur->has_split &&
			      split_back(&x->split, &gain, NULL, 0);
		if (d->count < x->count || d->ns < x->ns ||
		    sp_row_time(cur, x->row).max_ns < x->max_ns || b < SP_HIST_N ||
		    split_short) {
			char what[256];

			snprintf(what, sizeof(what),
				 "%s; its line of exited tasks gained less %s than the rows folded into it lost",
				 x->what, d->count < x->count ? "count" :
				 d->ns < x->ns ? "total_ns" :
				 b < SP_HIST_N ? "hist" :
				 split_short ? "wait or run delay" : "max_ns");
			describe(why, whylen, prev, &prev->rows[x->first], what);
			return 1;
		}
		d->count -= x->count;
		d->ns -= (uint64_t)x->ns;
		d->tcount = d->tcount > x->tcount ? d->tcount - x->tcount : 0;
		sp_row_hist_sub(cur, x->row, &x->hist);
		if (cur->has_split) {
			d->wait_ns -= x->split.x.wait_ns;
			sp_row_shist_sub(cur, x->row, SP_SPLIT_WAIT, &x->split.wh);
			sp_row_shist_sub(cur, x->row, SP_SPLIT_DELAY, &x->split.dh);
		}
	}
	return 0;
}

/* A summary counter (in both snapshots) that went down: said in why. */
static bool summary_back(char *why, size_t len, const char *name,
			 int64_t prev, int64_t cur)
{
	if (prev < 0 || cur < 0 || cur >= prev)
		return false;
	snprintf(why, len, "counters went back between snapshots ('%s' %lld -> %lld)",
		 name, (long long)prev, (long long)cur);
	return true;
}

int sp_delta(struct sp_store *cur, const struct sp_store *prev,
	     char *why, size_t whylen)
{
	struct folds folds = { 0 };
	uint32_t *cmap, *smap, i;
	int reset = 0;

	free(cur->deltas);
	cur->deltas = sp_xrealloc(NULL, cur->nrows ? cur->nrows : 1,
				  sizeof(*cur->deltas));
	for (i = 0; i < cur->nrows; i++) {
		cur->deltas[i].count = cur->rows[i].count;
		cur->deltas[i].ns = sp_row_time(cur, i).total_ns;
		cur->deltas[i].tcount = sp_row_time(cur, i).tcount;
		cur->deltas[i].wait_ns = sp_row_split(cur, i).wait_ns;
	}
	free(cur->dtasks);
	cur->dtasks = NULL;
	if (cur->nexited) {	/* the tasks folded since: all of a new line's */
		cur->dtasks = sp_xrealloc(NULL, cur->nrows, sizeof(*cur->dtasks));
		for (i = 0; i < cur->nrows; i++)
			cur->dtasks[i] = sp_row_exited(&cur->rows[i]) ?
					 cur->rows[i].tgid : 0;
	}
	cur->total_delta = cur->total;
	cur->total_delta_ns = cur->total_ns;
	cur->total_delta_wait_ns = cur->total_wait_ns;
	free(cur->dhcounts);
	cur->dhcounts = NULL;
	if (cur->nhcounts) {	/* the interval's buckets: all of a new row's */
		cur->dhcounts = sp_xrealloc(NULL, cur->nhcounts,
					    sizeof(*cur->dhcounts));
		memcpy(cur->dhcounts, cur->hcounts,
		       (size_t)cur->nhcounts * sizeof(*cur->dhcounts));
	}

	if (summary_back(why, whylen, "dropped", prev->sum.dropped,
			 cur->sum.dropped) ||
	    summary_back(why, whylen, "folded", prev->sum.folded,
			 cur->sum.folded))
		return 1;
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
		struct sp_rtime pt = sp_row_time(prev, i), ct = { 0, 0, 0 };
		struct sp_hist ph, ch;
		bool has_ph = sp_row_hist(prev, i, false, &ph);
		struct split ps, cs;
		const struct sp_row *c = NULL;
		uint32_t ri = 0, comm = cmap[p->comm], sym = smap[p->sym];
		char what[96];

		memset(&ch, 0, sizeof(ch));
		if (comm != NONE && sym != NONE &&
		    sp_store_find(cur, p->pid, p->tgid, comm, sym, p->kind, &ri)) {
			c = &cur->rows[ri];
			ct = sp_row_time(cur, ri);
			sp_row_hist(cur, ri, false, &ch);	/* zero when none */
		}
		split_get(prev, &i, &ps);
		split_get(cur, c ? &ri : NULL, &cs);
		if (!c)
			snprintf(what, sizeof(what), "count %llu, now gone",
				 (unsigned long long)p->count);
		else if (!went_back(p, &pt, &ph, has_ph, c, &ct, &ch, &ps, &cs,
					what, sizeof(what))) {
			cur->deltas[ri].count = c->count - p->count;
			cur->deltas[ri].ns = ct.total_ns - pt.total_ns;
			/* a line whose time arrived late adds its earlier calls */
			cur->deltas[ri].tcount = ct.tcount > pt.tcount ?
						 ct.tcount - pt.tcount : 0;
			if (has_ph)
				sp_row_hist_sub(cur, ri, &ph);
			cur->deltas[ri].wait_ns = cs.x.wait_ns - ps.x.wait_ns;
			sp_row_shist_sub(cur, ri, SP_SPLIT_WAIT, &ps.wh);
			sp_row_shist_sub(cur, ri, SP_SPLIT_DELAY, &ps.dh);
			cur->total_delta_wait_ns -= ps.x.wait_ns;
			if (sp_row_exited(p) && cur->dtasks)
				cur->dtasks[ri] = c->tgid - p->tgid;
			cur->total_delta -= p->count;
			cur->total_delta_ns -= pt.total_ns;
			continue;
		}
		/* a task's entries folded, not a reset (lines of exited tasks never go back) */
		if (!sp_row_exited(p) && comm != NONE && sym != NONE &&
		    fold_row(&folds, cur, prev, i, comm, sym, c ? &ri : NULL, what))
			continue;
		describe(why, whylen, prev, p, what);
		reset = 1;
	}
	if (!reset)
		reset = folds_apply(&folds, cur, prev, why, whylen);
	free(folds.of);
	free(folds.v);
	free(cmap);
	free(smap);
	return reset;
}
