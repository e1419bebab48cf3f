// SPDX-License-Identifier: GPL-2.0-only
/*
 * The entry store: string pools, a generic hash map, and the rows of one
 * snapshot.  All tables are open addressing with linear probing, kept at most
 * half full and doubled when needed, so memory is linear in the number of
 * distinct keys and a lookup costs O(1) on average.
 */
#include <stdlib.h>
#include <string.h>

#include "schedpoints.h"

#define SP_EMPTY UINT32_MAX

/* ---- sp_keymap ---------------------------------------------------------- */

void sp_keymap_free(struct sp_keymap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static uint32_t key_hash(const struct sp_keymap *m, const struct sp_key *k)
{
	return (uint32_t)sp_hash_u32x4(&m->hkey, k->a, k->b, k->c, k->d);
}

static uint32_t key_slot(const struct sp_keymap *m, const struct sp_key *k)
{
	return key_hash(m, k) & (m->cap - 1);
}

static bool key_eq(const struct sp_key *x, const struct sp_key *y)
{
	return x->a == y->a && x->b == y->b && x->c == y->c && x->d == y->d;
}

static void keymap_grow(struct sp_keymap *m)
{
	uint32_t cap, i;
	struct sp_key *keys;
	uint32_t *vals;

	if (m->cap > UINT32_MAX / 4) {
		fputs("schedpoints: too many distinct keys\n", stderr);
		exit(SP_EXIT_ERROR);
	}
	cap = m->cap ? m->cap * 2 : 64;
	if (!m->hkey.set)
		sp_hkey_init(&m->hkey);
	keys = sp_xrealloc(NULL, cap, sizeof(*keys));
	vals = sp_xrealloc(NULL, cap, sizeof(*vals));
	memset(vals, 0xff, (size_t)cap * sizeof(*vals));
	for (i = 0; i < m->cap; i++) {
		uint32_t s;

		if (m->vals[i] == SP_EMPTY)
			continue;
		s = key_hash(m, &m->keys[i]) & (cap - 1);
		while (vals[s] != SP_EMPTY)
			s = (s + 1) & (cap - 1);
		keys[s] = m->keys[i];
		vals[s] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
}

bool sp_keymap_find(const struct sp_keymap *m, const struct sp_key *k,
		    uint32_t *out)
{
	uint32_t s;

	if (!m->cap)
		return false;
	for (s = key_slot(m, k); m->vals[s] != SP_EMPTY; s = (s + 1) & (m->cap - 1)) {
		if (key_eq(&m->keys[s], k)) {
			*out = m->vals[s];
			return true;
		}
	}
	return false;
}

bool sp_keymap_upsert(struct sp_keymap *m, const struct sp_key *k,
		      uint32_t val, uint32_t *out)
{
	uint32_t s;

	if (2 * (m->n + 1) > m->cap)
		keymap_grow(m);
	for (s = key_slot(m, k); m->vals[s] != SP_EMPTY; s = (s + 1) & (m->cap - 1)) {
		if (key_eq(&m->keys[s], k)) {
			*out = m->vals[s];
			return false;
		}
	}
	m->keys[s] = *k;
	m->vals[s] = val;
	m->n++;
	*out = val;
	return true;
}

/* ---- sp_pool ------------------------------------------------------------ */

void sp_pool_free(struct sp_pool *p)
{
	free(p->arena);
	free(p->strs);
	free(p->slots);
	memset(p, 0, sizeof(*p));
}

static void pool_grow_slots(struct sp_pool *p)
{
	uint32_t ncap, i;
	uint32_t *slots;

	if (p->nslots > UINT32_MAX / 4) {
		fputs("schedpoints: too many distinct strings\n", stderr);
		exit(SP_EXIT_ERROR);
	}
	ncap = p->nslots ? p->nslots * 2 : 64;
	if (!p->hkey.set)
		sp_hkey_init(&p->hkey);
	slots = sp_xrealloc(NULL, ncap, sizeof(*slots));
	memset(slots, 0, (size_t)ncap * sizeof(*slots));
	for (i = 0; i < p->n; i++) {
		uint32_t s = p->strs[i].hash & (ncap - 1);

		while (slots[s])
			s = (s + 1) & (ncap - 1);
		slots[s] = i + 1;
	}
	free(p->slots);
	p->slots = slots;
	p->nslots = ncap;
}

static bool pool_lookup(const struct sp_pool *p, const char *s, size_t len,
			uint32_t h, uint32_t *slot)
{
	uint32_t i;

	for (i = h & (p->nslots - 1); p->slots[i]; i = (i + 1) & (p->nslots - 1)) {
		const struct sp_pstr *e = &p->strs[p->slots[i] - 1];

		if (e->hash == h && e->len == len &&
		    !memcmp(p->arena + e->off, s, len)) {
			*slot = i;
			return true;
		}
	}
	*slot = i;
	return false;
}

bool sp_pool_find(const struct sp_pool *p, const char *s, size_t len,
		  uint32_t *id)
{
	uint32_t slot;

	if (!p->nslots || len > UINT32_MAX)
		return false;
	if (!pool_lookup(p, s, len, (uint32_t)sp_hash_bytes(&p->hkey, s, len),
			 &slot))
		return false;
	*id = p->slots[slot] - 1;
	return true;
}

uint32_t sp_pool_intern(struct sp_pool *p, const char *s, size_t len,
			bool *added)
{
	uint32_t h, slot;
	struct sp_pstr *e;

	if (len >= UINT32_MAX) {
		fputs("schedpoints: string too long\n", stderr);
		exit(SP_EXIT_ERROR);
	}
	if (p->n >= SP_POOL_MAX - 1) {
		fputs("schedpoints: too many distinct strings\n", stderr);
		exit(SP_EXIT_ERROR);
	}
	if (2 * (p->n + 1) > p->nslots)
		pool_grow_slots(p);
	h = (uint32_t)sp_hash_bytes(&p->hkey, s, len);	/* keyed from here */
	if (pool_lookup(p, s, len, h, &slot)) {
		if (added)
			*added = false;
		return p->slots[slot] - 1;
	}
	if (p->n == p->scap) {
		p->scap = p->scap ? p->scap * 2 : 64;
		p->strs = sp_xrealloc(p->strs, p->scap, sizeof(*p->strs));
	}
	while (p->len + len + 1 > p->cap) {
		p->cap = p->cap ? p->cap * 2 : 4096;
		p->arena = sp_xrealloc(p->arena, p->cap, 1);
	}
	e = &p->strs[p->n];
	e->off = p->len;
	e->len = (uint32_t)len;
	e->hash = h;
	memcpy(p->arena + p->len, s, len);
	p->arena[p->len + len] = '\0';
	p->len += len + 1;
	p->slots[slot] = ++p->n;
	if (added)
		*added = true;
	return p->n - 1;
}

const char *sp_pool_str(const struct sp_pool *p, uint32_t id)
{
	return p->arena + p->strs[id].off;
}

uint32_t sp_pool_len(const struct sp_pool *p, uint32_t id)
{
	return p->strs[id].len;
}

/* ---- sp_store ----------------------------------------------------------- */

void sp_store_init(struct sp_store *st, const char *name)
{
	memset(st, 0, sizeof(*st));
	snprintf(st->name, sizeof(st->name), "%s", name);
	st->sum.enabled = st->sum.mode = st->sum.time = st->sum.kinds = -1;
	st->sum.hist = -1;
	st->sum.cpus = st->sum.capacity = -1;
	st->sum.used = st->sum.entries = st->sum.dropped = st->sum.folded = -1;
}

void sp_store_free(struct sp_store *st)
{
	sp_pool_free(&st->comms);
	sp_pool_free(&st->syms);
	free(st->syminfo);
	free(st->rows);
	free(st->times);
	free(st->splits);
	free(st->deltas);
	free(st->dtasks);
	free(st->hrecs);
	free(st->hcounts);
	free(st->dhcounts);
	free(st->index);
	memset(st, 0, sizeof(*st));
}

/*
 * The row key: (pid, tgid, comm, symbol, kind); see schedpoints.h.  A row of
 * exited tasks (pid 0) has tgid 0 in its key: its tgid is a number of tasks.
 */
struct row_key {
	uint32_t pid, tgid, comm, sym;
	unsigned kind;
};

static uint32_t key_tgid(uint32_t pid, uint32_t tgid)
{
	return pid == SP_PID_EXITED ? 0 : tgid;
}

static uint32_t row_hash(const struct sp_store *st, const struct row_key *k)
{
	return (uint32_t)sp_hash_u32x4(&st->hkey, k->pid, k->tgid, k->comm,
				       k->sym ^ (k->kind << 27));
}

static bool row_is(const struct sp_row *r, const struct row_key *k)
{
	return r->pid == k->pid && key_tgid(r->pid, r->tgid) == k->tgid &&
	       r->comm == k->comm && r->sym == k->sym && r->kind == k->kind;
}

/* Slot holding the key, or the free slot where it would go. */
static uint32_t index_slot(const struct sp_store *st, uint32_t h,
			   const struct row_key *k)
{
	uint32_t mask = st->index_cap - 1, s;

	for (s = h & mask; st->index[s].row; s = (s + 1) & mask) {
		if (st->index[s].hash == h &&
		    row_is(&st->rows[st->index[s].row - 1], k))
			break;
	}
	return s;
}

static void index_resize(struct sp_store *st, uint32_t cap)
{
	uint32_t i, mask = cap - 1;
	struct sp_slot *n = calloc(cap, sizeof(*n));

	if (!st->hkey.set)
		sp_hkey_init(&st->hkey);

	if (!n) {
		fputs("schedpoints: out of memory\n", stderr);
		exit(SP_EXIT_ERROR);
	}
	for (i = 0; i < st->index_cap; i++) {
		uint32_t s;

		if (!st->index[i].row)
			continue;
		for (s = st->index[i].hash & mask; n[s].row; s = (s + 1) & mask)
			;
		n[s] = st->index[i];
	}
	free(st->index);
	st->index = n;
	st->index_cap = cap;
}

/* rows[] (and times[] when there are) for cap rows. */
static void rows_resize(struct sp_store *st, uint32_t cap)
{
	st->rows = sp_xrealloc(st->rows, cap, sizeof(*st->rows));
	if (st->times)
		st->times = sp_xrealloc(st->times, cap, sizeof(*st->times));
	if (st->splits)
		st->splits = sp_xrealloc(st->splits, cap, sizeof(*st->splits));
	st->rows_cap = cap;
}

struct sp_rtime sp_row_time(const struct sp_store *st, uint32_t i)
{
	struct sp_rtime none = { 0, 0, 0 };

	return st->times ? st->times[i] : none;
}

struct sp_rsplit sp_row_split(const struct sp_store *st, uint32_t i)
{
	struct sp_rsplit none = { 0, 0, 0 };

	return st->splits ? st->splits[i] : none;
}

/* Record which (0 off-CPU time, SP_SPLIT_*) of row i's, summed into *sum. */
static bool rec_add(const struct sp_store *st, uint32_t i, unsigned which,
		    bool delta, struct sp_hist *sum)
{
	const struct sp_hrec *hr;
	const uint64_t *c;
	uint32_t m;

	c = delta ? st->dhcounts : st->hcounts;
	if (!st->rows[i].hist || !c)	/* none, or no interval computed */
		return false;
	if (which && !st->has_split)
		return false;
	hr = &st->hrecs[st->rows[i].hist - 1 + which];
	c += hr->off;
	for (m = hr->mask; m; m &= m - 1)
		sum->n[__builtin_ctz(m)] += *c++;
	return true;
}

bool sp_row_hist_add(const struct sp_store *st, uint32_t i, bool delta,
		     struct sp_hist *sum)
{
	return rec_add(st, i, 0, delta, sum);
}

bool sp_row_hist(const struct sp_store *st, uint32_t i, bool delta,
		 struct sp_hist *h)
{
	memset(h, 0, sizeof(*h));
	return rec_add(st, i, 0, delta, h);
}

bool sp_row_shist_add(const struct sp_store *st, uint32_t i, unsigned which,
		      bool delta, struct sp_hist *sum)
{
	return rec_add(st, i, which, delta, sum);
}

bool sp_row_shist(const struct sp_store *st, uint32_t i, unsigned which,
		  bool delta, struct sp_hist *h)
{
	memset(h, 0, sizeof(*h));
	return rec_add(st, i, which, delta, h);
}

static void rec_sub(struct sp_store *st, uint32_t i, unsigned which,
		    const struct sp_hist *h)
{
	const struct sp_hrec *hr;
	uint64_t *c;
	uint32_t m;

	if (!st->rows[i].hist || !st->dhcounts || (which && !st->has_split))
		return;
	hr = &st->hrecs[st->rows[i].hist - 1 + which];
	c = st->dhcounts + hr->off;
	for (m = hr->mask; m; m &= m - 1)
		*c++ -= h->n[__builtin_ctz(m)];
}

void sp_row_hist_sub(struct sp_store *st, uint32_t i, const struct sp_hist *h)
{
	rec_sub(st, i, 0, h);
}

void sp_row_shist_sub(struct sp_store *st, uint32_t i, unsigned which,
		      const struct sp_hist *h)
{
	rec_sub(st, i, which, h);
}

/* Room for n more counts in hcounts[]; returns where they go. */
static uint32_t hcounts_take(struct sp_store *st, uint32_t n)
{
	uint32_t off = st->nhcounts;

	if (n > UINT32_MAX - st->nhcounts) {
		fputs("schedpoints: too many histogram buckets\n", stderr);
		exit(SP_EXIT_ERROR);
	}
	while (st->nhcounts + n > st->hcounts_cap) {
		st->hcounts_cap = st->hcounts_cap > UINT32_MAX / 2 ? UINT32_MAX :
				  st->hcounts_cap ? st->hcounts_cap * 2 : 1024;
		st->hcounts = sp_xrealloc(st->hcounts, st->hcounts_cap,
					  sizeof(*st->hcounts));
	}
	st->nhcounts += n;
	return off;
}

/* The buckets of *h that hold calls, as a mask. */
static uint32_t hist_mask(const struct sp_hist *h)
{
	uint32_t m = 0;
	unsigned b;

	for (b = 0; b < SP_HIST_N; b++)
		if (h->n[b])
			m |= 1u << b;
	return m;
}

/* Add *h (NULL: none) to record which of row ri (see rec_add()). */
static void rec_sum(struct sp_store *st, uint32_t ri, unsigned which,
		    const struct sp_hist *h)
{
	struct sp_hist sum;
	struct sp_hrec *hr;
	uint32_t m;
	uint64_t *c;

	if (!h)
		return;
	hr = &st->hrecs[st->rows[ri].hist - 1 + which];
	memset(&sum, 0, sizeof(sum));
	rec_add(st, ri, which, false, &sum);
	for (m = 0; m < SP_HIST_N; m++)
		sum.n[m] += h->n[m];	/* below 2^64: see sp_store_add() */
	m = hist_mask(&sum);
	if (m != hr->mask) {
		hr->off = hcounts_take(st, (uint32_t)__builtin_popcount(m));
		hr->mask = m;
	}
	if (!m)		/* no calls: nothing to store (and maybe no array) */
		return;
	c = st->hcounts + hr->off;
	for (; m; m &= m - 1)
		*c++ = sum.n[__builtin_ctz(m)];
}

/*
 * Add a line's histograms to row ri: off-CPU time, and in a split input
 * the wait and the run delay (three records a row).  Buckets a record
 * already holds are added in place; a new bucket moves its counts to the
 * end of hcounts[] (rare: two lines of one key), leaving the old ones
 * unused.
 */
static void row_hist_add(struct sp_store *st, uint32_t ri,
			 const struct sp_line *l)
{
	uint32_t nrec = st->has_split ? 3 : 1;

	if (!st->rows[ri].hist) {
		uint32_t k;

		while (st->nhrecs + nrec > st->hrecs_cap) {
			st->hrecs_cap = st->hrecs_cap ? st->hrecs_cap * 2 : 1024;
			st->hrecs = sp_xrealloc(st->hrecs, st->hrecs_cap,
						sizeof(*st->hrecs));
		}
		for (k = 0; k < nrec; k++)
			st->hrecs[st->nhrecs + k] = (struct sp_hrec){ 0, st->nhcounts };
		st->rows[ri].hist = st->nhrecs + 1;
		st->nhrecs += nrec;
	}
	rec_sum(st, ri, 0, l->hist);
	if (st->has_split) {
		rec_sum(st, ri, SP_SPLIT_WAIT, l->whist);
		rec_sum(st, ri, SP_SPLIT_DELAY, l->dhist);
	}
}

/* A side array of cap elements of size bytes, zero for the n rows so far. */
static void *side_array(uint32_t cap, size_t size)
{
	void *p = sp_xrealloc(NULL, cap ? cap : 1, size);

	memset(p, 0, (size_t)cap * size);
	return p;
}

void sp_store_reserve(struct sp_store *st, uint64_t n)
{
	uint32_t cap = 1024;

	if (n > SP_RESERVE_MAX)
		n = SP_RESERVE_MAX;
	while (4 * n > 3 * (uint64_t)cap)
		cap *= 2;
	if (cap > st->index_cap)
		index_resize(st, cap);
	if (n > st->rows_cap)
		rows_resize(st, (uint32_t)n);
}

static void index_grow(struct sp_store *st)
{
	if (st->index_cap > UINT32_MAX / 4) {
		fputs("schedpoints: too many distinct keys\n", stderr);
		exit(SP_EXIT_ERROR);
	}
	index_resize(st, st->index_cap ? st->index_cap * 2 : 1024);
}

bool sp_store_find(const struct sp_store *st, uint32_t pid, uint32_t tgid,
		   uint32_t comm, uint32_t sym, unsigned kind, uint32_t *row)
{
	struct row_key k = { pid, key_tgid(pid, tgid), comm, sym, kind };
	uint32_t s;

	if (!st->index_cap)
		return false;
	s = index_slot(st, row_hash(st, &k), &k);
	if (!st->index[s].row)
		return false;
	*row = st->index[s].row - 1;
	return true;
}

int sp_store_add(struct sp_store *st, const struct sp_line *l)
{
	struct row_key k = { l->pid, key_tgid(l->pid, l->tgid), 0, 0, l->kind };
	uint32_t h, s;
	bool added;

	if (l->count > UINT64_MAX - st->total)
		return SP_ADD_COUNT_OVERFLOW;

	k.comm = sp_pool_intern(&st->comms, l->comm, l->comm_len, NULL);
	k.sym = sp_pool_intern(&st->syms, l->sym, l->sym_len, &added);
	if (added) {
		if (k.sym >= st->syminfo_cap) {
			st->syminfo_cap = st->syminfo_cap ? st->syminfo_cap * 2 : 64;
			st->syminfo = sp_xrealloc(st->syminfo, st->syminfo_cap,
						  sizeof(*st->syminfo));
		}
		st->syminfo[k.sym] = *l->si;
	}
	/* at most 3/4 full */
	if (4 * ((uint64_t)st->nrows + 1) > 3 * (uint64_t)st->index_cap)
		index_grow(st);
	if (l->hist) {
		/* every bucket below 2^64 in every sum: checked once, here */
		sp_u128 calls = 0;
		unsigned b;

		for (b = 0; b < SP_HIST_N; b++)
			calls += l->hist->n[b];
		if (calls > UINT64_MAX - st->total_hist)
			return SP_ADD_HIST_OVERFLOW;
		st->total_hist += (uint64_t)calls;
		st->has_hist = true;
	}
	if (l->whist || l->dhist) {
		/* the same for the split's, the larger of the two a line */
		sp_u128 w = 0, d = 0;
		unsigned b;

		for (b = 0; b < SP_HIST_N; b++) {
			w += l->whist ? l->whist->n[b] : 0;
			d += l->dhist ? l->dhist->n[b] : 0;
		}
		if (w < d)
			w = d;
		if (w > UINT64_MAX - st->total_shist)
			return SP_ADD_HIST_OVERFLOW;
		st->total_shist += (uint64_t)w;
		st->has_hist = true;
	}
	/* the first line with time: times[] from now on */
	if ((l->total_ns || l->max_ns) && !st->times)
		st->times = side_array(st->rows_cap, sizeof(*st->times));
	/* the first with a split (wait or run delay): splits[] */
	if ((l->wait_ns || l->wait_max_ns || l->delay_max_ns) && !st->splits)
		st->splits = side_array(st->rows_cap, sizeof(*st->splits));
	h = row_hash(st, &k);
	s = index_slot(st, h, &k);
	if (st->index[s].row) {
		/* same tool key twice: see the overview in schedpoints.h */
		uint32_t ri = st->index[s].row - 1;

		/* exited tasks: their numbers add up (checked first: no half add) */
		if (sp_row_exited(&st->rows[ri]) &&
		    l->tgid > UINT32_MAX - st->rows[ri].tgid)
			return SP_ADD_TASKS_OVERFLOW;
		if (st->times) {
			struct sp_rtime *t = &st->times[ri];

			if (l->total_ns > UINT64_MAX - t->total_ns)
				return SP_ADD_TIME_OVERFLOW;
			t->total_ns += l->total_ns;
			if (l->total_ns)	/* per line: see MEAN in README.md */
				t->tcount += l->count;
			if (l->max_ns > t->max_ns)
				t->max_ns = l->max_ns;
		}
		if (st->splits) {
			struct sp_rsplit *x = &st->splits[ri];

			/* below total_ns, which did not overflow */
			x->wait_ns += l->wait_ns;
			if (l->wait_max_ns > x->wait_max_ns)
				x->wait_max_ns = l->wait_max_ns;
			if (l->delay_max_ns > x->delay_max_ns)
				x->delay_max_ns = l->delay_max_ns;
		}
		if (l->hist || l->whist || l->dhist)
			row_hist_add(st, ri, l);
		st->rows[ri].count += l->count;
		if (sp_row_exited(&st->rows[ri]))
			st->rows[ri].tgid += l->tgid;
	} else {
		if (st->nrows == st->rows_cap)
			rows_resize(st, st->rows_cap ? st->rows_cap * 2 : 1024);
		st->rows[st->nrows] = (struct sp_row){
			.pid = l->pid, .tgid = l->tgid, .comm = k.comm,
			.sym = k.sym, .count = l->count, .kind = (uint8_t)l->kind,
		};
		if (st->times)
			st->times[st->nrows] = (struct sp_rtime){
				l->total_ns, l->max_ns, l->total_ns ? l->count : 0,
			};
		if (st->splits)
			st->splits[st->nrows] = (struct sp_rsplit){
				l->wait_ns, l->wait_max_ns, l->delay_max_ns,
			};
		if (l->hist || l->whist || l->dhist)
			row_hist_add(st, st->nrows, l);
		st->index[s].hash = h;
		st->index[s].row = ++st->nrows;
		if (l->pid == SP_PID_EXITED)
			st->nexited++;
	}
	st->total += l->count;
	st->total_ns += l->total_ns;
	st->total_wait_ns += l->wait_ns;
	st->kinds_seen |= (uint8_t)(1u << l->kind);
	st->lines++;
	return 0;
}
