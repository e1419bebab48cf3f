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
 * went down, 'dropped' went down or 'capacity' changed, the counters
 * were reset (or the kernel changed): that is said, and no delta is computed
 * across it (the next interval starts from the new snapshot).  A reset
 * followed by so many hits that every row is back above its old values
 * cannot be told from the file.
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
	char comm[4 * 64 + 1];
	uint32_t clen = sp_pool_len(&prev->comms, p->comm);

	sp_escape(comm, sp_pool_str(&prev->comms, p->comm), clen > 64 ? 64 : clen, 0);
	snprintf(why, len,
		 "counters went back between snapshots (pid %u '%s' at %s, %s: %s)",
		 p->pid, comm, sp_pool_str(&prev->syms, p->sym),
		 sp_kind_name(p->kind), what);
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
		cur->deltas[i].tcount = sp_row_time(cur, i).tcount;
	}
	cur->total_delta = cur->total;
	cur->total_delta_ns = cur->total_ns;
	free(cur->dhcounts);
	cur->dhcounts = NULL;
	if (cur->nhcounts) {	/* the interval's buckets: all of a new row's */
		cur->dhcounts = sp_xrealloc(NULL, cur->nhcounts,
					    sizeof(*cur->dhcounts));
		memcpy(cur->dhcounts, cur->hcounts,
		       (size_t)cur->nhcounts * sizeof(*cur->dhcounts));
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
		struct sp_hist ph, ch;
		bool has_ph = sp_row_hist(prev, i, false, &ph);
		const struct sp_row *c;
		uint32_t ri;
		unsigned b = SP_HIST_N;
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
		sp_row_hist(cur, ri, false, &ch);	/* zero when none */
		for (b = 0; has_ph && b < SP_HIST_N; b++)
			if (ch.n[b] < ph.n[b])
				break;
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
		} else if (has_ph && b < SP_HIST_N) {
			snprintf(what, sizeof(what), "hist bucket %u %llu -> %llu",
				 SP_HIST_MIN + b, (unsigned long long)ph.n[b],
				 (unsigned long long)ch.n[b]);
		} else {
			cur->deltas[ri].count = c->count - p->count;
			cur->deltas[ri].ns = ct.total_ns - pt.total_ns;
			/* a line whose time arrived late adds its earlier calls */
			cur->deltas[ri].tcount = ct.tcount > pt.tcount ?
						 ct.tcount - pt.tcount : 0;
			if (has_ph)
				sp_row_hist_sub(cur, ri, &ph);
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
