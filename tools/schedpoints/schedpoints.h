/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * schedpoints - pivot tool for /proc/sched_points
 *
 * Overview of the data structures
 * -------------------------------
 *
 * Input (parse.c) is read line by line, never whole: memory grows with the
 * number of distinct keys, not with the size of the input.  Every data line
 * of /proc/sched_points (format versions 1 and 2, any minor, as
 * Documentation/scheduler/sched-points.rst of the series describes them) is
 * checked field by field and added to a store (store.c):
 *
 *   struct sp_store
 *     comms:  string pool of decoded task names    (id -> bytes)
 *     syms:   string pool of call-site symbols     (id -> "func+0x6e/0x190")
 *     syminfo[sym id]: where the function and module parts of a symbol are
 *     rows[]: one row per key (pid, tgid, comm, symbol, kind) with its
 *             count, 32 bytes
 *     times[row]: off-CPU time (total_ns) and longest stretch (max_ns),
 *             allocated when a line carries time (NULL while every line
 *             has 0, as with the time switch off)
 *     hrecs[], hcounts[]: log2 histograms of off-CPU time (the 'hist'
 *             field), sparse, for the rows that have one (struct sp_hrec)
 *     deltas[row]: interval mode only, filled by sp_delta()
 *     index:  open-addressing hash (struct sp_keymap) key -> row
 *
 * The kernel keys its entries by (pid, task start time, call site[, kind]);
 * the start time is not in the file, so the tool's row key is
 * (pid, tgid, comm, symbol, kind).  Two kernel entries that agree on all five
 * (a pid reused by a task of the same process and name) are summed into one
 * row.  The address is not part of the key: the symbol names the call site
 * in a way that survives a module being loaded at another address.
 *
 * Exited tasks (format 2): when a per-CPU table needs room, the kernel
 * folds the entries of tasks that have exited into lines of pid 0, one per
 * (comm, call site, kind), whose tgid field is the number of tasks folded
 * in.  Such a row is keyed by (0, comm, symbol, kind): its tgid is a count
 * (summed when two lines share the key, and growing between snapshots), not
 * part of the key.  Views by call site sum it as any row; views by task
 * show it as a row of exited tasks of that name (struct sp_group.exited).
 *
 * A capture taken with the time (or histogram) switch off costs no more
 * than its counts: times[] stays NULL, which reads as total_ns = max_ns =
 * 0, and rows without a histogram have none stored.
 *
 * Histograms (hist.c): 26 log2 buckets of off-CPU time per row; a view sums
 * them per group (result->hists[group->hist]) and takes its percentiles
 * from the sums as Prometheus' histogram_quantile() does.
 *
 * Sums of off-CPU time use 128 bits (sp_u128): each line's total_ns fits in
 * 64 bits, but thousands of sleeping tasks for a few months add up to more
 * than 2^64 ns (584 years).  Sums of counts stay 64 bits: the parser refuses
 * an input whose counts add up to more than 2^64-1, as before.
 *
 * (The index holds only a hash and a row number per slot, 8 bytes, and
 * compares keys in rows[]: with a million distinct keys the store takes
 * about 50 MB, and 24 MB more with off-CPU times.)
 *
 * A view (view.c) filters the rows and sums them into groups (by site, by
 * task, ...), then sorts and cuts the result (struct sp_result).  One writer
 * per output format renders a result: table.c, csv.c, json.c (through the
 * only JSON emitter, json_writer.c), folded.c, prom.c, svg.c.
 *
 * Interval mode: delta.c compares two stores with the same row key and
 * fills in deltas[] beside rows[]; views then sum deltas beside counts.
 * interval.c holds the commands that use it, top and diff.
 *
 * Every view writes through the one column writer (column.c): the columns
 * of a view, their names and a typed value per cell, which the table, CSV
 * and JSON writers render by type.
 *
 * There is no global state: options live in struct sp_opts, built by main.c.
 */
#ifndef SCHEDPOINTS_H
#define SCHEDPOINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SP_TOOL_VERSION		"1.0"
/*
 * The majors read, each with any minor.  Version 2 is version 1 with lines
 * of exited tasks (pid 0, the tasks folded in as tgid) and 'folded': a
 * change of what a column means, so a new major (a reader of 1 refuses 2).
 */
#define SP_FORMAT_MAJOR_FIRST	1
#define SP_FORMAT_MAJOR_LAST	2
#define SP_FORMAT_EXITED	2	/* the major of lines of exited tasks */
/* what the first line of an input must be, as messages say it */
#define SP_EXPECT_VERSION	"'sched_points version 1' or 'sched_points version 2'"
#define SP_DEFAULT_SOURCE	"/proc/sched_points"
#define SP_MAX_LINE		65536	/* longer input lines are refused */
#define SP_MATRIX_TOP		40	/* rows/columns of a matrix without -n */
#define SP_PROM_TOP		100	/* Prometheus series a family without -n */

/* Exit statuses (documented in schedpoints.8). */
enum sp_exit {
	SP_EXIT_OK	= 0,
	SP_EXIT_ERROR	= 1,	/* bad input, runtime error */
	SP_EXIT_USAGE	= 2,	/* bad command line */
};

/* ---- util.c ---------------------------------------------------------- */

void *sp_xrealloc(void *p, size_t nmemb, size_t size);
char *sp_xstrdup(const char *s);
/*
 * A table's hash key, random per table (see util.c): the keys of every
 * table come from the input, which must not choose their slots.  A zeroed
 * key is not set; a table sets its own when it first allocates slots.
 */
struct sp_hkey {
	uint64_t k0, k1;
	bool set;
};
void sp_hkey_init(struct sp_hkey *k);
uint64_t sp_hash_bytes(const struct sp_hkey *k, const void *p, size_t len);
uint64_t sp_hash_u32x4(const struct sp_hkey *k, uint32_t a, uint32_t b,
		       uint32_t c, uint32_t d);

/*
 * Display form of untrusted bytes (task names): printable ASCII and valid
 * UTF-8 sequences are kept (but for a byte order mark and the bidi
 * controls, sp_utf8_hidden()), the backslash and every other byte become
 * "\ooo".  The mapping is one to one and its result is valid UTF-8 with no
 * control character, so every output format can carry it.  SP_ESC_SPACE
 * also escapes the space, SP_ESC_SEMI the ';' (folded stacks).
 * SP_ESC_KEEP_BACKSLASH leaves the backslash as it is (error messages that
 * quote input: no longer one to one, but read as the input was written).
 */
#define SP_ESC_SPACE		0x1
#define SP_ESC_SEMI		0x2
#define SP_ESC_KEEP_BACKSLASH	0x4
/* Length of the valid UTF-8 sequence at s (C1 controls excluded), or 0. */
size_t sp_utf8_len(const char *s, size_t len);
/*
 * The code point of the valid n-byte UTF-8 sequence at s if it is a byte
 * order mark or a bidirectional control (shown raw, a name could pass for
 * another), else 0.  The display form escapes them; JSON writes \uXXXX.
 */
uint32_t sp_utf8_hidden(const char *s, size_t n);
/* Returns the length written, NUL-terminated; out must hold 4 * len + 1. */
size_t sp_escape(char *out, const char *in, size_t len, unsigned flags);
void sp_fputs_escaped(FILE *fp, const char *in, size_t len, unsigned flags);

/* Sums of nanoseconds; see the overview. */
typedef unsigned __int128 sp_u128;

/* Exact decimal digits of v into buf (at least SP_U128_DIGITS bytes). */
#define SP_U128_DIGITS	40
const char *sp_u128_str(char *buf, sp_u128 v);
/* ns as seconds with nine decimals, exact ("0.912345678"). */
void sp_fmt_seconds(char *buf, size_t len, sp_u128 ns);
/* ns for people: three significant digits and a unit (ns us ms s min h d). */
void sp_fmt_duration(char *buf, size_t len, sp_u128 ns);
/*
 * A duration as people write it: a decimal number and a unit, ns, us, ms,
 * s, min or h ("500ms", "2s", "1.5s", "1500us"), in whole ns below 2^64.
 * 0, or -1 with a sentence in why.
 */
int sp_parse_duration(const char *s, uint64_t *ns, const char **why);

/* How schedule() was entered (the 'kind' field), in the order of the format. */
enum sp_kind {
	SP_KIND_SLEEP,		/* schedule() while not runnable (S) */
	SP_KIND_DISK_SLEEP,	/* TASK_UNINTERRUPTIBLE (D) */
	SP_KIND_IDLE,		/* TASK_IDLE (I) */
	SP_KIND_YIELD,		/* schedule() while runnable */
	SP_KIND_PREEMPT,	/* preempt_schedule() */
	SP_KIND_COND_RESCHED,	/* cond_resched() that rescheduled */
	SP_NKINDS,
};
const char *sp_kind_name(unsigned kind);
/* SP_KIND_SLEEP.. for one of the six words of the format, or -1. */
int sp_kind_parse(const char *s, size_t len);

/* ---- hist.c: log2 histograms of off-CPU time ---------------------------- */

/*
 * Bucket i holds the calls of bucket K = SP_HIST_MIN + i of the format:
 * off-CPU time t with 2^K <= t < 2^(K+1) ns; the first also every t below
 * 2^10 (0 too), the last every t of 2^34 ns or more.
 */
#define SP_HIST_MIN	9
#define SP_HIST_MAX	34
#define SP_HIST_N	(SP_HIST_MAX - SP_HIST_MIN + 1)
struct sp_hist {
	uint64_t n[SP_HIST_N];
};

/* Lower bound of bucket i in ns (0 for the first). */
uint64_t sp_hist_lower(unsigned i);
/* Upper bound (exclusive) of bucket i in ns; 0 for the last, which has none. */
uint64_t sp_hist_upper(unsigned i);
/* Calls in the histogram; h may be NULL (none). */
uint64_t sp_hist_calls(const struct sp_hist *h);
/* The first and last non-empty buckets; false if every bucket is empty. */
bool sp_hist_range(const struct sp_hist *h, unsigned *first, unsigned *last);
/*
 * The pct-th percentile (1..99) in ns, as Prometheus' histogram_quantile()
 * computes it: linear within the bucket the rank falls in, bucket i spanning
 * [lower, upper), the last [2^34, max_ns]; rounded down to a whole ns and
 * clamped to max_ns.  False when the histogram is empty.
 */
bool sp_hist_percentile(const struct sp_hist *h, unsigned pct, uint64_t max_ns,
			uint64_t *out);

/* ---- store.c ---------------------------------------------------------- */

/* Hash map from a key of four 32-bit words to a 32-bit value. */
struct sp_key {
	uint32_t a, b, c, d;
};

struct sp_keymap {
	struct sp_key *keys;
	uint32_t *vals;		/* UINT32_MAX marks a free slot */
	uint32_t cap;		/* power of two, or 0 */
	uint32_t n;
	struct sp_hkey hkey;	/* set at the first slot */
};

void sp_keymap_free(struct sp_keymap *m);
/* Find key; if absent insert it with value val. Returns true if inserted. */
bool sp_keymap_upsert(struct sp_keymap *m, const struct sp_key *k,
		      uint32_t val, uint32_t *out);
bool sp_keymap_find(const struct sp_keymap *m, const struct sp_key *k,
		    uint32_t *out);

/*
 * Pool of distinct byte strings, each stored once, NUL-terminated.  At most
 * SP_POOL_MAX strings (ids fit in 29 bits: a group key packs a site id and
 * a kind into one word, see view.c).
 */
#define SP_POOL_MAX	(1u << 29)
struct sp_pstr {
	size_t off;
	uint32_t len;
	uint32_t hash;
};

struct sp_pool {
	char *arena;
	size_t len, cap;
	struct sp_pstr *strs;
	uint32_t n, scap;
	uint32_t *slots;	/* id + 1, 0 is free */
	uint32_t nslots;
	struct sp_hkey hkey;	/* set at the first slot */
};

void sp_pool_free(struct sp_pool *p);
uint32_t sp_pool_intern(struct sp_pool *p, const char *s, size_t len,
			bool *added);
bool sp_pool_find(const struct sp_pool *p, const char *s, size_t len,
		  uint32_t *id);
/* Valid until the next sp_pool_intern() on the same pool. */
const char *sp_pool_str(const struct sp_pool *p, uint32_t id);
uint32_t sp_pool_len(const struct sp_pool *p, uint32_t id);

/*
 * The symbol the kernel prints for a call site of an unloaded module when
 * it had no memory to keep its name (SCHED_POINTS_UNKNOWN_NAME).
 */
#define SP_SYM_UNLOADED "(unloaded module)"

/* Shape of a symbol, see sp_symbol_parse(). */
enum sp_sym_kind {
	SP_SYM_FUNC,		/* func+0xOFF/0xLEN, maybe " [module]" */
	SP_SYM_ADDR,		/* bare 0x... address, no symbol known, or
				 * SP_SYM_UNLOADED */
};

struct sp_syminfo {
	uint32_t func_len;	/* bytes of the function name at offset 0 */
	uint32_t mod_off;	/* module name, 0/0 for the core kernel */
	uint32_t mod_len;
	uint32_t base_len;	/* symbol without " [module ...]" */
	uint8_t kind;
};

/*
 * The summary lines of the input; -1 where the line was absent.  mode is a
 * word in the file: 0 caller, 1 effective.
 */
struct sp_summary {
	int64_t enabled, mode, time, kinds, hist, cpus, capacity, used, entries,
		dropped, folded;
};
#define SP_MODE_CALLER		0
#define SP_MODE_EFFECTIVE	1
const char *sp_mode_name(int64_t mode);	/* NULL if absent */

/*
 * A row.  pid 0 is a row of exited tasks (no task has pid 0 in the file: the
 * idle task is never counted); its tgid is then the number of exited tasks
 * folded into it, not part of the row key (see the overview).
 */
struct sp_row {
	uint32_t pid, tgid;	/* pid 0: tgid is the number of exited tasks */
	uint32_t comm;		/* id in store->comms */
	uint32_t sym;		/* id in store->syms */
	uint64_t count;
	uint32_t hist;		/* 1 + its record in store->hrecs, 0: none */
	uint8_t kind;		/* enum sp_kind */
};

#define SP_PID_EXITED	0	/* the pid of a line of exited tasks */
static inline bool sp_row_exited(const struct sp_row *r)
{
	return r->pid == SP_PID_EXITED;
}

/*
 * A row's histogram, out of line and sparse: the buckets it holds (bit i:
 * bucket SP_HIST_MIN + i) and their counts, in bucket order, at
 * store->hcounts[off].  A row without one costs nothing (its 'hist' field
 * lives in the padding of struct sp_row), a row with one 8 bytes and 8 a
 * bucket held, not 208 (issue 34: every row paid 208 bytes, 737 MB for a
 * diff of two captures of a million lines).
 */
struct sp_hrec {
	uint32_t mask;
	uint32_t off;
};

/* Off-CPU time of a row (store->times[], beside rows[]). */
struct sp_rtime {
	uint64_t total_ns;	/* sum */
	uint64_t max_ns;	/* longest single stretch */
	uint64_t tcount;	/* calls of the lines that carry time (MEAN) */
};

/*
 * The split of a row's off-CPU time (format 2 with the wait_ns ... columns,
 * store->splits[] beside rows[]): the wait (switch-out to the wakeup), its
 * longest, and the longest run delay (the wakeup to the switch back in).
 * The run delay's sum is total_ns - wait_ns: every line has wait_ns +
 * delay_ns = total_ns, so every sum of lines has too.
 */
struct sp_rsplit {
	uint64_t wait_ns;
	uint64_t wait_max_ns;
	uint64_t delay_max_ns;
};

/* Interval mode: what a row gained since the previous snapshot. */
struct sp_rdelta {
	uint64_t count;
	uint64_t ns;
	uint64_t tcount;	/* of the calls of lines that carry time */
	uint64_t wait_ns;	/* of ns, the wait (split inputs) */
};

/* A slot of the row index: 8 bytes, so the index costs little per key. */
struct sp_slot {
	uint32_t hash;
	uint32_t row;		/* row + 1; 0: free, so calloc'ed pages are free */
};

struct sp_store {
	char name[256];		/* where the snapshot came from */
	char version[32];	/* "1", "1.2", "2", ... as the input says */
	uint32_t major;		/* of the version: 1 for "1.2", 2 for "2" */
	uint32_t minor;		/* of the version: 2 for "1.2", 0 for "1" */
	bool has_hist;		/* histograms: 'hist 1' or a line with one */
	/*
	 * The wait and run delay columns (format 2's header of 16 fields):
	 * then every histogram record of a row is three, hrecs[hist - 1]
	 * (off-CPU time), hrecs[hist] (wait), hrecs[hist + 1] (run delay).
	 */
	bool has_split;
	uint8_t kinds_seen;	/* bit (1 << kind) for every kind of a line */
	struct sp_summary sum;
	struct sp_pool comms, syms;
	struct sp_syminfo *syminfo;
	uint32_t syminfo_cap;
	struct sp_row *rows;
	struct sp_rtime *times;		/* [rows_cap] or NULL: all zero */
	struct sp_rsplit *splits;	/* [rows_cap] or NULL: all zero */
	struct sp_rdelta *deltas;	/* [nrows] or NULL: see delta.c */
	uint32_t *dtasks;	/* [nrows] or NULL: exited tasks folded into a
				 * row in the interval (delta.c), when there
				 * are rows of exited tasks */
	uint32_t nexited;	/* rows of exited tasks (pid 0) */
	struct sp_hrec *hrecs;		/* the rows' histograms (sp_row.hist) */
	uint32_t nhrecs, hrecs_cap;
	uint64_t *hcounts;		/* their buckets' counts */
	uint64_t *dhcounts;		/* [nhcounts] or NULL: see delta.c */
	uint32_t nhcounts, hcounts_cap;
	uint32_t nrows, rows_cap;
	struct sp_slot *index;	/* rows by key; the keys live in rows[] */
	uint32_t index_cap;
	struct sp_hkey hkey;	/* the index's, set at its first slot */
	uint64_t total;		/* sum of all counts, cannot overflow */
	uint64_t total_delta;
	sp_u128 total_ns;	/* sum of all total_ns */
	sp_u128 total_delta_ns;
	sp_u128 total_wait_ns;	/* sum of all wait_ns (split inputs) */
	sp_u128 total_delta_wait_ns;
	uint64_t total_hist;	/* calls in all histograms, cannot overflow */
	uint64_t total_shist;	/* the same for the wait and run delay's */
	uint64_t lines;		/* data lines read */
};

void sp_store_init(struct sp_store *st, const char *name);
void sp_store_free(struct sp_store *st);
/* One data line, as parsed. */
struct sp_line {
	uint32_t pid, tgid;
	unsigned kind;
	uint64_t count, total_ns, max_ns;
	uint64_t wait_ns, wait_max_ns, delay_max_ns;	/* split inputs */
	const char *comm, *sym;	/* decoded comm, symbol as in the file */
	size_t comm_len, sym_len;
	const struct sp_syminfo *si;
	const struct sp_hist *hist;	/* NULL: none ('-') */
	/* split inputs: the wait and run delay histograms, NULL: '-' */
	const struct sp_hist *whist, *dhist;
};
#define SP_ADD_COUNT_OVERFLOW	-1	/* the sum of all counts > 2^64-1 */
#define SP_ADD_TIME_OVERFLOW	-2	/* one row's total_ns > 2^64-1 */
#define SP_ADD_HIST_OVERFLOW	-3	/* the calls of all histograms > 2^64-1 */
#define SP_ADD_TASKS_OVERFLOW	-4	/* one exited row's tasks > 2^32-1 */
/*
 * Add one data line. Returns 0, or SP_ADD_*_OVERFLOW (the caller reports it
 * as bad input).
 */
int sp_store_add(struct sp_store *st, const struct sp_line *l);
/*
 * Size the tables for n rows up front (the summary says how many follow,
 * capped by what the input can hold: see parse.c), n at most
 * SP_RESERVE_MAX; they grow as rows come beyond that.
 */
#define SP_RESERVE_MAX (1u << 21)
void sp_store_reserve(struct sp_store *st, uint64_t n);
bool sp_store_find(const struct sp_store *st, uint32_t pid, uint32_t tgid,
		   uint32_t comm, uint32_t sym, unsigned kind, uint32_t *row);
/* The time of row i, zero when the store has none. */
struct sp_rtime sp_row_time(const struct sp_store *st, uint32_t i);
/*
 * Add row i's buckets (with delta, the interval's: see sp_delta()) to *sum;
 * false when the row has no histogram.  sp_row_hist() fills *h with them
 * alone.
 */
bool sp_row_hist_add(const struct sp_store *st, uint32_t i, bool delta,
		     struct sp_hist *sum);
bool sp_row_hist(const struct sp_store *st, uint32_t i, bool delta,
		 struct sp_hist *h);
/* Interval mode: take prev's buckets *h off row i's interval buckets. */
void sp_row_hist_sub(struct sp_store *st, uint32_t i, const struct sp_hist *h);
/*
 * The split of row i, zero when the store has none.  The histograms of
 * the split (which: SP_SPLIT_WAIT or SP_SPLIT_DELAY) as sp_row_hist_add(),
 * sp_row_hist() and sp_row_hist_sub() do for off-CPU time.
 */
#define SP_SPLIT_WAIT	1
#define SP_SPLIT_DELAY	2
struct sp_rsplit sp_row_split(const struct sp_store *st, uint32_t i);
bool sp_row_shist_add(const struct sp_store *st, uint32_t i, unsigned which,
		      bool delta, struct sp_hist *sum);
bool sp_row_shist(const struct sp_store *st, uint32_t i, unsigned which,
		  bool delta, struct sp_hist *h);
void sp_row_shist_sub(struct sp_store *st, uint32_t i, unsigned which,
		      const struct sp_hist *h);

/* ---- parse.c ---------------------------------------------------------- */

/* Line reader over a FILE or a memory buffer. */
struct sp_reader {
	const char *name;
	FILE *fp;
	const char *mem;	/* memory input, or NULL */
	size_t memlen, mempos;
	char *buf;
	size_t cap, start, end;
	bool eof;
	bool unread;		/* hand out the last line once more */
	const char *line;
	size_t linelen;
	bool line_nl;		/* the last line ended with '\n' */
	uint64_t lineno;
};

void sp_reader_init_file(struct sp_reader *r, FILE *fp, const char *name);
void sp_reader_init_mem(struct sp_reader *r, const char *mem, size_t len,
			const char *name);
void sp_reader_free(struct sp_reader *r);

struct sp_error {
	char msg[512];
};

/*
 * Parse one snapshot from r into st (which must be freshly initialised).
 * If multi, the input may hold several snapshots one after the other and
 * parsing stops at the start of the next one; otherwise anything after the
 * snapshot is an error.  Returns 1 when a snapshot was read, 0 at the end of
 * the input before any byte of a snapshot (multi only), -1 on bad input with
 * err->msg set to "FILE:LINE: what was expected".
 */
int sp_parse_snapshot(struct sp_reader *r, struct sp_store *st, bool multi,
		      struct sp_error *err);
/* Check a symbol field; fill *si. Returns 0 if it follows the spec. */
int sp_symbol_parse(const char *s, size_t len, struct sp_syminfo *si);
/* Decode a comm field; out holds len bytes. Returns decoded length or -1. */
long sp_comm_decode(const char *in, size_t len, char *out,
		    const char **why);

/* ---- view.c ----------------------------------------------------------- */

enum sp_view {
	SP_VIEW_SITES,
	SP_VIEW_TASKS,
	SP_VIEW_SITE,		/* one call site's tasks */
	SP_VIEW_TASK,		/* one task's call sites */
	SP_VIEW_MATRIX,
	SP_VIEW_HIST,		/* one point's histogram: site X, or the hottest */
};

enum sp_group_by {
	SP_GROUP_SITE, SP_GROUP_FUNCTION, SP_GROUP_MODULE, SP_GROUP_KIND,
};
enum sp_task_by { SP_BY_PID, SP_BY_TGID, SP_BY_COMM };
/* Sort keys (--sort KEY[,KEY...]): numbers descending, names ascending. */
enum sp_sort {
	SP_SORT_COUNT, SP_SORT_TOTAL, SP_SORT_PID, SP_SORT_TGID,
	SP_SORT_COMM, SP_SORT_SITE, SP_SORT_NAME, SP_SORT_TIME,
	SP_SORT_MEAN, SP_SORT_MAX, SP_SORT_TASKS, SP_SORT_SITES,
	SP_SORT_P50, SP_SORT_P90, SP_SORT_P99,
	/* the split (format 2): WAIT DELAY WMAX DMAX WP50..WP99 DP50..DP99 */
	SP_SORT_WAIT, SP_SORT_DELAY, SP_SORT_WMAX, SP_SORT_DMAX,
	SP_SORT_WP50, SP_SORT_WP90, SP_SORT_WP99,
	SP_SORT_DP50, SP_SORT_DP90, SP_SORT_DP99,
	SP_NSORTS,
};
#define SP_MAX_SORT	8	/* keys in one --sort list */
const char *sp_sort_name(enum sp_sort s);
/* The percentile a key sorts by (p50..p99, wp50..dp99), or 0. */
unsigned sp_sort_pct(enum sp_sort s);
/* The part of the split a key sorts by: SP_SPLIT_WAIT, SP_SPLIT_DELAY, or 0. */
unsigned sp_sort_split(enum sp_sort s);
/* What a view measures: sorts by, percent of, matrix cells, folded values. */
enum sp_value { SP_VALUE_COUNT, SP_VALUE_TIME };
enum sp_format {
	SP_FMT_TABLE, SP_FMT_CSV, SP_FMT_JSON, SP_FMT_FOLDED, SP_FMT_PROM,
	SP_FMT_SVG,
};

/* Label fields that make up a group's key. */
#define SP_K_PID	0x1
#define SP_K_TGID	0x2
#define SP_K_COMM	0x4
#define SP_K_SITE	0x8
#define SP_K_KIND	0x10	/* views keyed by site (not --group kind) */
#define SP_K_TASK	(SP_K_PID | SP_K_TGID | SP_K_COMM)

struct sp_filters {
	uint32_t *pids, *tgids;
	size_t npids, ntgids;
	char **comms, **modules, **symbols;	/* fnmatch(3) globs */
	size_t ncomms, nmodules, nsymbols;
	unsigned kinds;		/* bits 1 << SP_KIND_*, 0: any */
};

struct sp_opts {
	enum sp_view view;
	const char *view_arg;	/* site X / task PID argument */
	uint32_t task_pid;
	enum sp_group_by group;
	bool group_given;
	enum sp_task_by by;
	bool by_given;
	enum sp_sort sort[SP_MAX_SORT];	/* --sort keys, in order */
	size_t nsort;			/* 0: by the value (count or time) */
	enum sp_value value;
	bool reverse;
	size_t top;		/* rows; 0: all */
	bool top_given;
	size_t columns;		/* matrix columns; 0: all */
	bool columns_given;
	enum sp_format format;
	bool format_given;
	bool pretty;
	bool buckets;		/* --buckets: a CSV row, a heat-map column per bucket */
	bool split;		/* --split: the table shows every column of the
				 * wait and run delay (else WAIT DELAY DMAX) */
	const char *file;	/* NULL: SP_DEFAULT_SOURCE */
	const char *output;	/* -o */
	double interval;
	bool interval_given;
	unsigned long count;	/* top iterations, 0: forever */
	struct sp_filters f;
	uint64_t min_ns;	/* blocked --min */
	bool min_given;
	/* the first option given that blocked does not take, or NULL */
	const char *not_blocked;
	const char *wakers_file;	/* -W: NULL for SP_WAKERS_SOURCE */
	bool verbose;		/* -v: wakers, wakes: by waking task too */
	uint32_t hops;		/* chain --hops, 0: SP_CHAIN_HOPS */
	uint64_t given;		/* bit i: option long_options[i] was given */
	bool hops_given;
	unsigned noptions;	/* options given (help takes none) */
};

struct sp_group {
	sp_u128 total_ns, delta_ns;	/* off-CPU time */
	uint64_t count, delta;
	uint64_t tcount, tdelta;	/* count, delta of rows that carry time */
	uint64_t max_ns;		/* longest stretch, since the reset */
	uint32_t pid, tgid, comm;
	uint32_t site;		/* id in result->sites */
	uint32_t rep_pid;	/* task whose comm is shown (tgid groups) */
	uint32_t ntasks, nsites;	/* ntasks: distinct tasks, exited ones apart */
	uint32_t hist;		/* index in result->hists (when result->hist) */
	uint8_t kind;		/* with SP_K_KIND */
	bool exited;		/* a row of exited tasks (views by pid or tgid) */
	uint32_t xtasks;	/* index in result->xtasks (when it has one) */
	uint32_t split;		/* index in result->splits (when result->split) */
};

/*
 * The wait and run delay of a group (split inputs), out of line as
 * histograms are: delay = total - wait, in the interval too.
 */
struct sp_gsplit {
	sp_u128 wait_ns, delta_wait_ns;
	uint64_t wait_max_ns, delay_max_ns;
};

/*
 * The exited tasks folded into the rows of a group (the sum of their tgid),
 * and those folded in the interval: out of line, as histograms are, so
 * that a group costs nothing more on input without lines of exited tasks.
 */
struct sp_xtasks {
	uint64_t all, delta;
};

struct sp_result {
	const struct sp_store *st;
	const struct sp_opts *o;
	enum sp_view view;
	unsigned keys;		/* SP_K_* */
	struct sp_pool sites;	/* names of the site groups */
	struct sp_group *groups;
	uint32_t ngroups, gcap;
	uint32_t nshown;	/* groups after --top, in sorted order */
	struct sp_keymap gindex;
	struct sp_keymap seen_task, seen_site;	/* distinct counting */
	struct sp_hist *hists;	/* a histogram per group (hist), or NULL */
	uint32_t nhists, hcap;
	/* split: per group, its index g->split (hists of it: g->hist) */
	struct sp_gsplit *splits;
	struct sp_hist *whists, *dhists;	/* with hist and split */
	uint32_t nsplits, scap;
	struct sp_xtasks *xtasks;	/* per group when the store has rows
					 * of exited tasks, or NULL */
	uint32_t nxtasks, xcap;
	uint64_t total, total_delta;	/* over every filtered row */
	sp_u128 total_ns, total_delta_ns;
	sp_u128 total_wait_ns, total_delta_wait_ns;	/* split */
	uint64_t nrows;		/* filtered rows */
	bool by_time;		/* --value time */
	bool hist;		/* the input has histograms: percentile columns */
	bool split;		/* wait and run delay columns (sp_store_split()) */
	bool delta;		/* interval mode */
	bool exited_shown;	/* a shown group is a row of exited tasks */
	double interval;	/* seconds, <= 0: unknown */
	/*
	 * heatmap --buckets: groups left out for holding no off-CPU time (no
	 * bucket: preempt and cond_resched calls), and their kinds (bits
	 * 1 << SP_KIND_*, with SP_K_KIND).
	 */
	uint32_t ntimeless;
	unsigned timeless_kinds;
};

struct sp_matrix {
	struct sp_result tasks;	/* rows */
	struct sp_result sites;	/* columns */
	struct sp_result cells;	/* (task, site) -> value */
};

void sp_result_free(struct sp_result *r);
void sp_matrix_free(struct sp_matrix *m);
/* Build a one-dimensional view (everything but the matrix). */
void sp_view_build(struct sp_result *r, const struct sp_store *st,
		   const struct sp_opts *o, bool delta, double interval);
void sp_matrix_build(struct sp_matrix *m, const struct sp_store *st,
		     const struct sp_opts *o, bool delta, double interval);
/*
 * The value of a view (--value): count or off-CPU ns, in interval mode
 * their deltas.  sp_matrix_cell() is the value of a cell.
 */
sp_u128 sp_matrix_cell(const struct sp_matrix *m, const struct sp_group *row,
		       const struct sp_group *col);
/* The group of a cell (count and time), or NULL for an empty cell. */
const struct sp_group *sp_matrix_cell_group(const struct sp_matrix *m,
					    const struct sp_group *row,
					    const struct sp_group *col);
/* A cell that holds something: its shown row and column, its group. */
struct sp_cell_ref {
	uint32_t row, col;	/* indexes in tasks.groups[], sites.groups[] */
	const struct sp_group *g;	/* in cells.groups[] */
};
/*
 * The cells of the shown rows and columns that have a group, in row-major
 * order, in *out (to free); returns how many.  O(cells), for writers that
 * draw only what holds a value (the heat map).
 */
size_t sp_matrix_cells(const struct sp_matrix *m, struct sp_cell_ref **out);
sp_u128 sp_group_value(const struct sp_result *r, const struct sp_group *g);
sp_u128 sp_result_value(const struct sp_result *r);
/*
 * Mean off-CPU ns per hit, over the rows that carry time (total_ns > 0);
 * false if they have no hit.  128 bits: a count-0 line may carry time.
 */
bool sp_group_mean(const struct sp_result *r, const struct sp_group *g,
		   sp_u128 *mean);
/* The histogram of a group (the interval's in interval mode), or NULL. */
const struct sp_hist *sp_group_hist(const struct sp_result *r,
				    const struct sp_group *g);
/* A percentile of the group's histogram (sp_hist_percentile()). */
bool sp_group_percentile(const struct sp_result *r, const struct sp_group *g,
			 unsigned pct, uint64_t *out);
/*
 * The split of a group (r->split): its wait or run delay (which:
 * SP_SPLIT_WAIT, SP_SPLIT_DELAY), in interval mode the interval's; the
 * longest; the histogram (NULL without); a percentile.
 */
sp_u128 sp_group_split_ns(const struct sp_result *r, const struct sp_group *g,
			  unsigned which, bool delta);
uint64_t sp_group_split_max(const struct sp_result *r,
			    const struct sp_group *g, unsigned which);
const struct sp_hist *sp_group_split_hist(const struct sp_result *r,
					  const struct sp_group *g,
					  unsigned which);
bool sp_group_split_percentile(const struct sp_result *r,
			       const struct sp_group *g, unsigned which,
			       unsigned pct, uint64_t *out);
/* The input shows the split: its columns, and time was on. */
bool sp_store_split(const struct sp_store *st);
const char *sp_site_name(const struct sp_result *r, const struct sp_group *g);
/*
 * One string for a column of the matrix: the site, or "kind:site" when the
 * view is keyed by kind too (kinds are words, sites have no ':').
 */
void sp_column_label(const struct sp_result *r, const struct sp_group *g,
		     char *buf, size_t len);
const char *sp_group_comm(const struct sp_result *r, const struct sp_group *g,
			  size_t *len);
/*
 * The TASKS of a group: its distinct tasks plus the exited tasks folded into
 * its rows (in interval mode, those of the interval); in views by pid, 1 for
 * a task and the exited tasks for a row of them.
 */
uint64_t sp_group_tasks(const struct sp_result *r, const struct sp_group *g);
/* The exited tasks folded into its rows (their tgid fields summed). */
uint64_t sp_group_exited(const struct sp_result *r, const struct sp_group *g);
const char *sp_site_label(const struct sp_opts *o);	/* site|function|module|kind */
const char *sp_view_name(enum sp_view v);

/*
 * Columns: the one schema shared by table, CSV and JSON.  Each view has a
 * fixed list; names are the CSV header and the JSON keys.
 */
enum sp_col {
	SP_COL_PID, SP_COL_TGID, SP_COL_COUNT, SP_COL_PCT, SP_COL_DELTA,
	SP_COL_RATE, SP_COL_TASKS, SP_COL_SITES, SP_COL_COMM, SP_COL_SITE,
	SP_COL_TIME,		/* total_ns */
	SP_COL_DTIME,		/* delta_ns */
	SP_COL_TRATE,		/* off-CPU seconds per second */
	SP_COL_MEAN,		/* mean_ns */
	SP_COL_MAX,		/* max_ns */
	SP_COL_KIND,
	SP_COL_P50,		/* p50_ns, ... from the histogram */
	SP_COL_P90,
	SP_COL_P99,
	SP_COL_WAIT,		/* wait_ns (split inputs) */
	SP_COL_DWAIT,		/* delta_wait_ns */
	SP_COL_WP50, SP_COL_WP90, SP_COL_WP99,	/* wait_p50_ns ... */
	SP_COL_WMAX,		/* wait_max_ns */
	SP_COL_DELAY,		/* delay_ns: the run delay */
	SP_COL_DDELAY,		/* delta_delay_ns */
	SP_COL_DP50, SP_COL_DP90, SP_COL_DP99,	/* delay_p50_ns ... */
	SP_COL_DMAX,		/* delay_max_ns */
};
#define SP_MAX_COLS 32
double sp_rate(const struct sp_result *r, uint64_t delta);	/* < 0: none */
double sp_time_rate(const struct sp_result *r, sp_u128 delta_ns);	/* < 0: none */
/* The key fields of a view (SP_K_*, without SP_K_KIND), from options alone. */
unsigned sp_view_keys(const struct sp_opts *o);
/* Rows (-n) and matrix columns (--columns) shown; 0: all. */
size_t sp_rows_limit(const struct sp_opts *o);
size_t sp_columns_limit(const struct sp_opts *o);
/*
 * Do the options apply to the view and format they ask for?  An option that
 * would be ignored is a usage error: returns -1 with a sentence in why.
 */
int sp_opts_check(const struct sp_opts *o, char *why, size_t len);

/* ---- column.c: the one column writer ----------------------------------- */

/*
 * The columns of a view.  SP_COLS_PEOPLE: the table's (the % column);
 * SP_COLS_TASKS: TASKS in a view by pid too when it shows a row of exited
 * tasks (table and JSON; CSV keeps its columns, see sp_cell_get()).
 */
#define SP_COLS_PEOPLE	0x1
#define SP_COLS_TASKS	0x2
/*
 * With SP_COLS_PEOPLE, the wait and run delay's percentiles and WMAX too
 * (--split); without it the table shows their sums (in interval mode the
 * interval's) and DMAX, the longest run delay.  Machines get them all.
 */
#define SP_COLS_SPLIT	0x4
size_t sp_result_columns(const struct sp_result *r, enum sp_col *cols,
			 unsigned flags);
/* The label columns (pid, tgid, comm, kind, site) a view has. */
size_t sp_label_columns(const struct sp_result *r, enum sp_col *cols);
const char *sp_col_name(const struct sp_result *r, enum sp_col c);
const char *sp_col_header(const struct sp_result *r, enum sp_col c);
bool sp_col_left(enum sp_col c);	/* a name: left-aligned in a table */

enum sp_cell_type {
	SP_CELL_NONE,	/* no value: "-" in a table, empty in CSV, null in JSON */
	SP_CELL_UINT,	/* u */
	SP_CELL_NS,	/* u nanoseconds: a duration for people */
	SP_CELL_PCT,	/* d percent (tables only) */
	SP_CELL_RATE,	/* d per second, prec[0] decimals for people, prec[1] else */
	SP_CELL_COMM,	/* s, len: a task name, its bytes as the kernel had them */
	SP_CELL_WORD,	/* s, len: a site or kind (valid UTF-8, no control byte) */
	SP_CELL_EXITED,	/* pid or tgid of a row of exited tasks: s for people,
			 * u in CSV (as the file has it), null in JSON */
};

struct sp_cell {
	enum sp_cell_type type;
	sp_u128 u;
	double d;
	int prec[2];
	const char *s;
	size_t len;
};

/* Bytes a buffer for sp_cell_text() needs: any cell's text fits. */
#define SP_CELL_BUF	(4 * SP_MAX_LINE + 64)
void sp_cell_get(const struct sp_result *r, const struct sp_group *g,
		 enum sp_col c, struct sp_cell *cell);
/* A cell of an unsigned number, of nanoseconds. */
void sp_cell_uint(struct sp_cell *cell, sp_u128 v);
void sp_cell_ns(struct sp_cell *cell, sp_u128 v);
/* A value of the view (count, or ns with --value time): the matrix cells. */
void sp_value_cell(const struct sp_result *r, sp_u128 v, struct sp_cell *cell);
/*
 * The text of a cell, for people (units, names in display form) or for
 * CSV (exact numbers, names as they are): buf or the cell's own string.
 */
const char *sp_cell_text(const struct sp_cell *cell, bool people, char *buf,
			 size_t len, size_t *outlen);

/* ---- delta.c ---------------------------------------------------------- */

/*
 * Fill cur->deltas[] and cur->total_delta from prev.  Returns 0, or 1 if
 * the counters went back (reset, table resize): then why holds a sentence
 * saying what was seen and no delta must be shown.
 */
int sp_delta(struct sp_store *cur, const struct sp_store *prev,
	     char *why, size_t whylen);
/* ---- interval.c: the top and diff commands ----------------------------- */

int sp_cmd_top(const struct sp_opts *o);
int sp_cmd_diff(const struct sp_opts *o, const char *a, const char *b);

/* ---- output: one file per format -------------------------------------- */

struct sp_out {
	FILE *fp;
	const struct sp_opts *o;
	unsigned long sample;	/* top: 1, 2, ...; 0 outside top */
	const char *reset_msg;	/* top: counters went back in this sample */
	bool header_done;	/* CSV: header printed once per stream */
	/*
	 * Interval mode: where the interval of the rates comes from, said in
	 * the table's head and the JSON: SP_IVL_OPTION (-i), SP_IVL_MTIME
	 * (diff: the files' modification times), SP_IVL_READS (top: the time
	 * measured between two reads), or NULL (unknown: no rate).
	 */
	const char *interval_from;
};
#define SP_IVL_OPTION	"option"
#define SP_IVL_MTIME	"mtime"
#define SP_IVL_READS	"reads"

void sp_table_result(struct sp_out *out, const struct sp_result *r);
void sp_table_matrix(struct sp_out *out, const struct sp_matrix *m);
void sp_csv_result(struct sp_out *out, const struct sp_result *r);
void sp_csv_matrix(struct sp_out *out, const struct sp_matrix *m);
void sp_json_result(struct sp_out *out, const struct sp_result *r);
void sp_json_matrix(struct sp_out *out, const struct sp_matrix *m);
void sp_json_reset(struct sp_out *out, const struct sp_store *st,
		   const char *why);
void sp_folded_result(struct sp_out *out, const struct sp_result *r);
void sp_prom_result(struct sp_out *out, const struct sp_result *r);
void sp_svg_matrix(struct sp_out *out, const struct sp_matrix *m);
/* The hist command's table; heatmap --buckets; CSV, a row per bucket. */
void sp_table_hist(struct sp_out *out, const struct sp_result *r);
void sp_svg_buckets(struct sp_out *out, const struct sp_result *r);
void sp_csv_buckets(struct sp_out *out, const struct sp_result *r);

/* ---- main.c / output.c -------------------------------------------------- */

/*
 * Open an input: path, NULL for def, "-" for stdin; *name is what messages
 * call it ("<stdin>" for stdin).  NULL when it cannot be opened, said on
 * stderr (with a hint when def could not be).  sp_input_close() closes it
 * (not stdin).
 */
FILE *sp_input_open(const char *path, const char *def, const char **name);
void sp_input_close(FILE *fp);
/*
 * Read the input path (NULL: def, "-": stdin) with parse into dst; name
 * (len bytes, dst's own) gets what messages call it.  0, or -1 when it
 * cannot be opened or parse fails (said on stderr).
 */
typedef int (*sp_parse_fn)(struct sp_reader *r, void *dst, struct sp_error *err);
int sp_input_read(const char *path, const char *def, char *name, size_t len,
		  sp_parse_fn parse, void *dst);
/* Read one whole snapshot from path (NULL: default, "-": stdin). */
int sp_load(const char *path, struct sp_store *st);
/*
 * Does the input have what the options ask for (histograms for hist,
 * --buckets and the percentile sort keys)?  If not, say so on stderr and
 * return -1.
 */
int sp_input_ok(const struct sp_opts *o, const struct sp_store *st);
/* Render store st for the view and format in o; returns rows matched. */
uint64_t sp_render(struct sp_out *out, const struct sp_store *st, bool delta,
	       double interval);
/*
 * A slice (site X, task PID) that matched no row (n from sp_render()) is
 * an error, as grep's status says: say so on stderr and return -1.
 */
int sp_no_match(const struct sp_opts *o, uint64_t n);
/* -o: open a temporary file beside FILE, then rename it over FILE. */
FILE *sp_output_open(const struct sp_opts *o, char *tmp, size_t tmplen);
int sp_output_close(const struct sp_opts *o, FILE *fp, const char *tmp);

/* ---- blocked.c: /proc/sched_points_blocked ------------------------------ */

/*
 * The tasks inside a timed schedule() call now (patch 20 of the series; the
 * section "/proc/sched_points_blocked" of the spec): a snapshot of its own,
 * unrelated to the counts of /proc/sched_points, read whole (one line per
 * blocked task, a few thousand at most: every thread of the system).
 */
#define SP_BLOCKED_SOURCE	"/proc/sched_points_blocked"
#define SP_BLOCKED_VERSION	"sched_points_blocked version 1"

/* A task blocked now: one data line. */
struct sp_btask {
	uint64_t waiting_ns;	/* since it was switched away */
	uint32_t pid, tgid;
	uint32_t comm;		/* id in blocked->comms */
	uint32_t sym;		/* id in blocked->syms */
	uint8_t kind;		/* SP_KIND_SLEEP..SP_KIND_YIELD */
	char state;		/* one letter of /proc/PID/stat */
};

/* A call site of the blocked view: its tasks, longest first. */
struct sp_bsite {
	uint32_t sym;		/* id in blocked->syms */
	uint32_t ntasks;	/* tasks of the site shown (waiting >= --min) */
	uint64_t longest_ns;
	uint32_t first;		/* its tasks: order[first .. first + ntasks) */
};

struct sp_blocked {
	char name[256];		/* where it came from */
	int64_t enabled, mode, time, entries;	/* the summary */
	struct sp_pool comms, syms;
	struct sp_keymap pids;	/* pid -> line, to refuse a pid twice */
	struct sp_btask *tasks;	/* in the file's order */
	uint32_t ntasks, cap;
	/* the view (sp_blocked_group()) */
	uint64_t min_ns;
	struct sp_bsite *sites;	/* longest first */
	uint32_t nsites;
	uint32_t *order;	/* task indexes, site by site */
	uint32_t nshown;	/* tasks waiting >= min_ns */
	uint64_t longest_ns;	/* of those */
};

void sp_blocked_init(struct sp_blocked *b, const char *name);
void sp_blocked_free(struct sp_blocked *b);
/*
 * Parse a whole /proc/sched_points_blocked from r into b (freshly
 * initialised): 0, or -1 with err->msg "FILE:LINE: what was expected".
 */
int sp_parse_blocked(struct sp_reader *r, struct sp_blocked *b,
		     struct sp_error *err);
/* Group the tasks waiting at least min_ns by call site, longest first. */
void sp_blocked_group(struct sp_blocked *b, uint64_t min_ns);
/* Render the grouped view in o->format (table, csv, json, prometheus). */
void sp_blocked_render(struct sp_out *out, const struct sp_blocked *b);
/* The writers, one per format file. */
void sp_table_blocked(struct sp_out *out, const struct sp_blocked *b);
void sp_csv_blocked(struct sp_out *out, const struct sp_blocked *b);
void sp_json_blocked(struct sp_out *out, const struct sp_blocked *b);
void sp_prom_blocked(struct sp_out *out, const struct sp_blocked *b);
/* The blocked command: load (o->file, default SP_BLOCKED_SOURCE), render. */
int sp_cmd_blocked(const struct sp_opts *o);

/* ---- wakers.c: /proc/sched_points_wakers --------------------------------- */

/*
 * Who ended the waits (issue 30; the spec's sections "Wakers" and
 * "/proc/sched_points_wakers"): per (woken task, call site, kind) and
 * waker (its call site and context), the calls that waker ended, their
 * off-CPU time and its split.  A snapshot of its own, read whole (up to
 * four wakers an entry).  The wakers and wakes views sum its lines at a
 * call site (or at a waker's); chain follows a wait to its waker, then the
 * waker's own heaviest wait in /proc/sched_points, hop by hop.
 */
#define SP_WAKERS_SOURCE	"/proc/sched_points_wakers"
#define SP_WAKERS_VERSION	"sched_points_wakers version 1"
#define SP_CHAIN_HOPS		4	/* chain without --hops */

/* The waker's context (the 'waker' field), in the order of the format. */
enum sp_wctx {
	SP_WCTX_TASK, SP_WCTX_SOFTIRQ, SP_WCTX_HARDIRQ, SP_WCTX_TIMER, SP_NWCTX,
};
const char *sp_wctx_name(unsigned ctx);

/* One data line of /proc/sched_points_wakers. */
struct sp_wline {
	uint64_t count, total_ns, wait_ns;	/* delay_ns = total - wait */
	uint32_t pid, tgid;	/* pid 0: exited tasks (tgid 0) */
	uint32_t waker_pid;	/* 0 but for the context task */
	uint32_t comm, waker_comm;	/* ids in wakers->comms */
	uint32_t sym, waker_sym;	/* ids in wakers->syms */
	uint32_t hist;		/* 1 + its index in wakers->hists, 0: none */
	uint8_t kind;		/* SP_KIND_SLEEP..SP_KIND_IDLE */
	uint8_t ctx;		/* enum sp_wctx */
};

struct sp_wakers {
	char name[256];		/* where it came from */
	int64_t enabled, mode, wakers, hist, entries, unlisted;	/* summary */
	struct sp_pool comms, syms;	/* both sides' names and call sites */
	struct sp_syminfo *syminfo;	/* [syms.n] */
	uint32_t syminfo_cap;
	struct sp_wline *lines;	/* in the file's order */
	uint32_t nlines, cap;
	struct sp_hist *hists;
	uint32_t nhists, hcap;
};

void sp_wakers_init(struct sp_wakers *w, const char *name);
void sp_wakers_free(struct sp_wakers *w);
/*
 * Parse a whole /proc/sched_points_wakers from r into w (freshly
 * initialised): 0, or -1 with err->msg "FILE:LINE: what was expected".
 */
int sp_parse_wakers(struct sp_reader *r, struct sp_wakers *w,
		    struct sp_error *err);
/* Does call site (symbol s, its info si) match X as 'site X' selects? */
bool sp_site_match(const char *s, size_t slen, const struct sp_syminfo *si,
		   const char *x);

/*
 * The columns of the wakers, wakes and chain views: names are the CSV
 * header and the JSON keys, headers the table's.
 */
enum sp_wcol {
	SP_WCOL_HOP, SP_WCOL_COUNT, SP_WCOL_PCT, SP_WCOL_TIME, SP_WCOL_MEAN,
	SP_WCOL_WAIT, SP_WCOL_MWAIT, SP_WCOL_DELAY, SP_WCOL_P50, SP_WCOL_P90,
	SP_WCOL_P99, SP_WCOL_PID, SP_WCOL_TGID, SP_WCOL_COMM, SP_WCOL_KIND,
	SP_WCOL_SITE, SP_WCOL_CONTEXT, SP_WCOL_WPID, SP_WCOL_WCOMM,
	SP_WCOL_WSITE, SP_WCOL_N,
};
const char *sp_wcol_name(enum sp_wcol c);
const char *sp_wcol_header(enum sp_wcol c);
bool sp_wcol_left(enum sp_wcol c);
bool sp_wcol_label(enum sp_wcol c);	/* a label of the row, not a figure */

/* A table of rows and columns, the writers' view of wakers, wakes, chain. */
struct sp_wtab {
	const void *ctx;
	size_t nrows, ncols;
	enum sp_wcol cols[SP_WCOL_N];
	void (*cell)(const void *ctx, size_t row, enum sp_wcol c,
		     struct sp_cell *cell);
};

/* A row of wakers or wakes: lines summed. */
struct sp_wrow {
	uint32_t line;		/* the first of its lines: its labels */
	uint64_t count;
	sp_u128 total_ns, wait_ns;
	bool has_hist;
	struct sp_hist hist;
};

enum sp_wview_kind { SP_WVIEW_WAKERS, SP_WVIEW_WAKES };

struct sp_wview {
	const struct sp_wakers *w;
	const struct sp_opts *o;
	enum sp_wview_kind kind;
	const char *arg;	/* SITE: a call site (wakers), a waker's (wakes) */
	uint32_t *sites;	/* the distinct symbols it matched, sorted */
	uint32_t nsites;
	uint32_t nlines;	/* lines matched */
	uint64_t total;		/* their calls */
	sp_u128 total_ns, wait_ns;
	struct sp_wrow *rows;	/* sorted */
	uint32_t nrows, nshown;
};

void sp_wview_build(struct sp_wview *v, const struct sp_wakers *w,
		    const struct sp_opts *o, enum sp_wview_kind kind,
		    const char *arg);
void sp_wview_free(struct sp_wview *v);
void sp_wview_tab(const struct sp_wview *v, bool people, struct sp_wtab *t);

/* Why a chain stopped. */
enum sp_chain_stop {
	SP_STOP_CONTEXT,	/* the waker is not a task */
	SP_STOP_LOOP,		/* the waker is a sleeper of a hop before */
	SP_STOP_HOPS,		/* --hops reached */
	SP_STOP_NO_WAKER,	/* no waker line for the sleeper's wait */
	SP_STOP_NO_WAIT,	/* the waker task has no wait in /proc/sched_points */
};
const char *sp_chain_stop_name(enum sp_chain_stop s);

struct sp_chop {
	uint32_t line;		/* the wakers line of the hop */
	uint64_t woken;		/* the sleeper's woken calls at the site (lines
				 * of its pid, site and kind) */
};

struct sp_chain {
	const struct sp_wakers *w;
	const struct sp_store *st;
	const struct sp_opts *o;
	const char *arg;
	const char *from;	/* "pid", "comm" or "site" */
	uint32_t max_hops;
	bool by_time;		/* -s time: the waker by total_ns, not count */
	struct sp_chop *hops;
	uint32_t nhops;
	enum sp_chain_stop stop;
	uint32_t stop_pid;	/* the waker (or task) the chain stopped at */
	uint32_t stop_hop;	/* loop: the hop whose sleeper it is (1-based) */
	uint32_t stop_row;	/* no_waker: the wait (a row of st) */
	char err[1024];		/* why sp_chain_build() failed */
};

/* 0, or -1 when X names no task or site (said in c->err). */
int sp_chain_build(struct sp_chain *c, const struct sp_wakers *w,
		   const struct sp_store *st, const struct sp_opts *o,
		   const char *arg);
void sp_chain_free(struct sp_chain *c);
void sp_chain_tab(const struct sp_chain *c, bool people, struct sp_wtab *t);
/* One sentence: why the chain stopped. */
void sp_chain_stop_text(const struct sp_chain *c, char *buf, size_t len);

void sp_table_wview(struct sp_out *out, const struct sp_wview *v);
void sp_table_chain(struct sp_out *out, const struct sp_chain *c);
void sp_csv_wtab(struct sp_out *out, const struct sp_wtab *t,
		 const char *stop);
void sp_json_wview(struct sp_out *out, const struct sp_wview *v);
void sp_json_chain(struct sp_out *out, const struct sp_chain *c);
void sp_prom_wview(struct sp_out *out, const struct sp_wview *v);
void sp_prom_chain(struct sp_out *out, const struct sp_chain *c);
/* Render in o->format (table, csv, json, prometheus). */
void sp_wview_render(struct sp_out *out, const struct sp_wview *v);
void sp_chain_render(struct sp_out *out, const struct sp_chain *c);
/* The commands: wakers SITE, wakes SITE, chain TASK|SITE. */
int sp_cmd_wakers(const struct sp_opts *o, enum sp_wview_kind kind,
		  const char *arg);
int sp_cmd_chain(const struct sp_opts *o, const char *arg);

#endif /* SCHEDPOINTS_H */
