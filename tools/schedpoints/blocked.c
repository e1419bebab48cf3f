// SPDX-License-Identifier: GPL-2.0-only
/*
 * The blocked command: the tasks inside a timed schedule() call now, from
 * /proc/sched_points_blocked (the spec's section of that name; parsed in
 * parse.c), grouped by call site, longest wait first.
 *
 * A site is a symbol, as everywhere in the tool (the address is not part
 * of it).  Sites are ordered by their longest wait (descending), then by
 * their tasks (descending), then by name; a site's tasks keep the file's
 * order, waiting_ns descending, then pid.  --min keeps the tasks that have
 * waited at least that long; a site with none left is not shown.  The
 * writers (table.c, csv.c, json.c, prom.c) walk sites[] and order[].
 */
#include <stdlib.h>
#include <string.h>

#include "schedpoints.h"

void sp_blocked_init(struct sp_blocked *b, const char *name)
{
	memset(b, 0, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "%s", name);
	b->enabled = b->mode = b->time = b->entries = -1;
}

void sp_blocked_free(struct sp_blocked *b)
{
	sp_pool_free(&b->comms);
	sp_pool_free(&b->syms);
	sp_keymap_free(&b->pids);
	free(b->tasks);
	free(b->sites);
	free(b->order);
	memset(b, 0, sizeof(*b));
}

static int site_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct sp_bsite *a = pa, *c = pb;
	const struct sp_pool *syms = ctx;
	uint32_t la, lc;
	int d;

	if (a->longest_ns != c->longest_ns)
		return a->longest_ns > c->longest_ns ? -1 : 1;
	if (a->ntasks != c->ntasks)
		return a->ntasks > c->ntasks ? -1 : 1;
	la = sp_pool_len(syms, a->sym);
	lc = sp_pool_len(syms, c->sym);
	d = memcmp(sp_pool_str(syms, a->sym), sp_pool_str(syms, c->sym),
		   la < lc ? la : lc);
	return d ? d : (la > lc) - (la < lc);
}

void sp_blocked_group(struct sp_blocked *b, uint64_t min_ns)
{
	uint32_t nsyms = b->syms.n, i, *at, *slot;

	free(b->sites);
	free(b->order);
	b->min_ns = min_ns;
	b->nsites = b->nshown = 0;
	b->longest_ns = 0;
	/* at most one site per distinct symbol (ids of b->syms) */
	b->sites = sp_xrealloc(NULL, nsyms ? nsyms : 1, sizeof(*b->sites));
	b->order = sp_xrealloc(NULL, b->ntasks ? b->ntasks : 1, sizeof(*b->order));
	slot = sp_xrealloc(NULL, nsyms ? nsyms : 1, sizeof(*slot));
	for (i = 0; i < nsyms; i++)
		slot[i] = UINT32_MAX;
	for (i = 0; i < b->ntasks; i++) {
		const struct sp_btask *t = &b->tasks[i];
		struct sp_bsite *s;

		if (t->waiting_ns < min_ns)
			continue;
		if (slot[t->sym] == UINT32_MAX) {
			slot[t->sym] = b->nsites;
			s = &b->sites[b->nsites++];
			s->sym = t->sym;
			s->ntasks = 0;
			s->longest_ns = 0;
		}
		s = &b->sites[slot[t->sym]];
		s->ntasks++;
		if (t->waiting_ns > s->longest_ns)
			s->longest_ns = t->waiting_ns;
		if (t->waiting_ns > b->longest_ns)
			b->longest_ns = t->waiting_ns;
		b->nshown++;
	}
	qsort_r(b->sites, b->nsites, sizeof(*b->sites), site_cmp, &b->syms);
	/* each site's tasks, in the file's order, after the sites before it */
	at = sp_xrealloc(NULL, nsyms ? nsyms : 1, sizeof(*at));
	for (i = 0; i < b->nsites; i++) {
		b->sites[i].first = i ? b->sites[i - 1].first + b->sites[i - 1].ntasks : 0;
		at[b->sites[i].sym] = b->sites[i].first;
	}
	for (i = 0; i < b->ntasks; i++)
		if (b->tasks[i].waiting_ns >= min_ns)
			b->order[at[b->tasks[i].sym]++] = i;
	free(at);
	free(slot);
}

void sp_blocked_render(struct sp_out *out, const struct sp_blocked *b)
{
	switch (out->o->format) {
	case SP_FMT_CSV:
		sp_csv_blocked(out, b);
		break;
	case SP_FMT_JSON:
		sp_json_blocked(out, b);
		break;
	case SP_FMT_PROM:
		sp_prom_blocked(out, b);
		break;
	default:	/* main.c refuses folded and svg */
		sp_table_blocked(out, b);
		break;
	}
}

static int parse_blocked(struct sp_reader *r, void *b, struct sp_error *err)
{
	return sp_parse_blocked(r, b, err);
}

/* Read path (NULL: SP_BLOCKED_SOURCE, "-": stdin) into b. */
static int blocked_load(const char *path, struct sp_blocked *b)
{
	sp_blocked_init(b, "");
	return sp_input_read(path, SP_BLOCKED_SOURCE, b->name, sizeof(b->name),
			     parse_blocked, b);
}

int sp_cmd_blocked(const struct sp_opts *o)
{
	struct sp_blocked b;
	struct sp_out out = { .o = o };
	char tmp[4096];
	int rc;

	if (blocked_load(o->file, &b)) {
		sp_blocked_free(&b);
		return SP_EXIT_ERROR;
	}
	sp_blocked_group(&b, o->min_ns);
	out.fp = sp_output_open(o, tmp, sizeof(tmp));
	if (!out.fp) {
		sp_blocked_free(&b);
		return SP_EXIT_ERROR;
	}
	sp_blocked_render(&out, &b);
	rc = sp_output_close(o, out.fp, tmp) ? SP_EXIT_ERROR : SP_EXIT_OK;
	sp_blocked_free(&b);
	return rc;
}
