// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the parts below the command line: symbol and comm checks,
 * the display form, the hash tables and string pools, sp_delta().
 * Prints "PASS name" or "FAIL name: why" per test; tests/run.sh turns these
 * into TAP lines.  Exit status 1 if any failed.
 */
#include <stdlib.h>
#include <string.h>

#include "schedpoints.h"

#define HEADER "pid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\thist\taddress\tsymbol\tcomm\n"
/* version 2's: the off-CPU time split into the wait and the run delay */
#define HEADER2 "pid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\twait_ns\twait_max_ns\t" \
	"delay_ns\tdelay_max_ns\thist\twait_hist\tdelay_hist\taddress\tsymbol\tcomm\n"

static int failed;

/* Names and reasons may hold test bytes: one line each, in display form. */
static void result(const char *name, bool ok, const char *why)
{
	char n[4 * 200 + 1], w[4 * 200 + 1];

	sp_escape(n, name, strnlen(name, 200), 0);
	sp_escape(w, why, strnlen(why, 200), 0);
	if (ok) {
		printf("PASS %s\n", n);
	} else {
		printf("FAIL %s: %s\n", n, w);
		failed = 1;
	}
}

static void test_symbols(void)
{
	static const struct {
		const char *s;
		int ok;
		unsigned func_len, mod_len;
	} cases[] = {
		{ "do_nanosleep+0x6e/0x190", 1, 12, 0 },
		{ "sp_test_sleep_once+0x4a/0x90 [sched_points_test]", 1, 18, 17 },
		{ "ext4_foo+0x10/0x40 [ext4 0123456789abcdef]", 1, 8, 4 },
		{ "0xffffffffc0009999", 1, 18, 0 },
		{ "foo.constprop.0+0x0/0x10", 1, 15, 0 },
		{ "a+b+0x1/0x2", 1, 3, 0 },
		{ "", 0, 0, 0 },
		{ "do_nanosleep", 0, 0, 0 },
		{ "do_nanosleep+0x6e", 0, 0, 0 },
		{ "do_nanosleep+0x6E/0x190", 0, 0, 0 },
		{ "+0x6e/0x190", 0, 0, 0 },
		{ "do nanosleep+0x6e/0x190", 0, 0, 0 },
		{ "f+0x1/0x2 []", 0, 0, 0 },
		{ "f+0x1/0x2 [m", 0, 0, 0 },
		{ "f+0x1/0x2[m]", 0, 0, 0 },
		{ "f+0x1/0x2  [m]", 0, 0, 0 },
		{ "f+0x1/0x2 [m ]", 0, 0, 0 },
		{ "f+0x1/0x2 [m]]", 0, 0, 0 },
		{ "f+0x1/0x2 [[m]", 0, 0, 0 },
		{ "f+0x/0x2", 0, 0, 0 },
		{ "f+0x1/0x", 0, 0, 0 },
		{ "0x", 0, 0, 0 },
		{ "0x12345678901234567", 0, 0, 0 },
		{ "f+0x1/0x2\x01", 0, 0, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sp_syminfo si;
		char name[160], why[160];
		int rc = sp_symbol_parse(cases[i].s, strlen(cases[i].s), &si);
		bool ok = (rc == 0) == cases[i].ok;

		if (ok && cases[i].ok)
			ok = si.func_len == cases[i].func_len &&
			     si.mod_len == cases[i].mod_len;
		snprintf(name, sizeof(name), "symbol '%s' %s", cases[i].s,
			 cases[i].ok ? "accepted" : "refused");
		snprintf(why, sizeof(why), "rc %d func_len %u mod_len %u", rc,
			 si.func_len, si.mod_len);
		result(name, ok, why);
	}
}

static void test_comm(void)
{
	static const struct {
		const char *in;
		const char *out;	/* NULL: refused */
		size_t outlen;
	} cases[] = {
		{ "sleeper", "sleeper", 7 },
		{ "my\\040thread", "my thread", 9 },
		{ "a\\011b\\012c\\134", "a\tb\nc\\", 6 },
		{ "\\377\\001", "\377\001", 2 },
		{ "", "", 0 },
		{ "my thread", NULL, 0 },
		{ "a\\000b", NULL, 0 },
		{ "a\\400", NULL, 0 },
		{ "a\\08", NULL, 0 },
		{ "a\\12", NULL, 0 },
		{ "a\\", NULL, 0 },
		{ "caf\xc3\xa9", NULL, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char out[64], name[96];
		const char *why = "";
		long n = sp_comm_decode(cases[i].in, strlen(cases[i].in), out, &why);
		bool ok = cases[i].out ?
			n == (long)cases[i].outlen && !memcmp(out, cases[i].out, (size_t)n) :
			n < 0 && *why;

		snprintf(name, sizeof(name), "comm '%s' %s", cases[i].in,
			 cases[i].out ? "decoded" : "refused");
		result(name, ok, why);
	}
}

static void test_escape(void)
{
	static const struct {
		const char *in;
		size_t len;
		unsigned flags;
		const char *out;
	} cases[] = {
		{ "my thread", 9, 0, "my thread" },
		{ "my thread", 9, SP_ESC_SPACE, "my\\040thread" },
		{ "a\\b", 3, 0, "a\\134b" },
		{ "a\nb\t\x7f", 5, 0, "a\\012b\\011\\177" },
		{ "caf\xc3\xa9", 5, 0, "caf\xc3\xa9" },
		{ "\xc3", 1, 0, "\\303" },
		{ "\xc2\x85", 2, 0, "\\302\\205" },	/* C1 control */
		{ "\xed\xa0\x80", 3, 0, "\\355\\240\\200" },	/* surrogate */
		{ "\xf0\x9f\x98\x80", 4, 0, "\xf0\x9f\x98\x80" },
		{ "x;y", 3, 0, "x;y" },
		{ "x;y", 3, SP_ESC_SEMI, "x\\073y" },
		{ "a\0b", 3, 0, "a\\000b" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char out[64], name[96];

		sp_escape(out, cases[i].in, cases[i].len, cases[i].flags);
		snprintf(name, sizeof(name), "display form %zu", i);
		result(name, !strcmp(out, cases[i].out), out);
	}
}

static void test_keymap(void)
{
	struct sp_keymap m = { 0 };
	uint32_t i, v;
	bool ok = true;

	for (i = 0; i < 100000; i++) {
		struct sp_key k = { i, i * 7, i ^ 0x55, 3 };

		ok &= sp_keymap_upsert(&m, &k, i, &v) && v == i;
	}
	for (i = 0; i < 100000; i++) {
		struct sp_key k = { i, i * 7, i ^ 0x55, 3 };

		ok &= !sp_keymap_upsert(&m, &k, 0, &v) && v == i;
		ok &= sp_keymap_find(&m, &k, &v) && v == i;
	}
	{
		struct sp_key k = { 100001, 0, 0, 0 };

		ok &= !sp_keymap_find(&m, &k, &v);
	}
	ok &= m.n == 100000 && m.cap <= 4 * 100000;
	result("keymap: 100000 keys, found again, size linear", ok, "mismatch");
	sp_keymap_free(&m);
}

static void test_pool(void)
{
	struct sp_pool p = { 0 };
	char buf[32];
	uint32_t i, id;
	bool ok = true, added;

	for (i = 0; i < 50000; i++) {
		int n = snprintf(buf, sizeof(buf), "s%u", i % 10000);

		id = sp_pool_intern(&p, buf, (size_t)n, &added);
		ok &= id == i % 10000 && added == (i < 10000);
	}
	ok &= p.n == 10000;
	ok &= sp_pool_find(&p, "s42", 3, &id) && id == 42;
	ok &= !strcmp(sp_pool_str(&p, 9999), "s9999");
	ok &= !sp_pool_find(&p, "s10000", 6, &id);
	id = sp_pool_intern(&p, "a\0b", 3, NULL);
	ok &= sp_pool_len(&p, id) == 3 && !sp_pool_find(&p, "a", 1, &id);
	result("pool: interning is idempotent, NUL bytes allowed", ok, "mismatch");
	sp_pool_free(&p);
}

static int add_line(struct sp_store *st, uint32_t pid, const char *comm,
		    const char *sym, unsigned kind, uint64_t count,
		    uint64_t total_ns, uint64_t max_ns)
{
	struct sp_syminfo si;
	struct sp_line l = {
		.pid = pid, .tgid = pid, .kind = kind, .count = count,
		.total_ns = total_ns, .max_ns = max_ns, .comm = comm,
		.comm_len = strlen(comm), .sym = sym, .sym_len = strlen(sym),
		.si = &si,
	};

	if (sp_symbol_parse(sym, strlen(sym), &si))
		abort();
	return sp_store_add(st, &l);
}

static void add(struct sp_store *st, uint32_t pid, const char *comm,
		const char *sym, uint64_t count)
{
	if (add_line(st, pid, comm, sym, SP_KIND_SLEEP, count, 0, 0))
		abort();
}

static void test_store_and_delta(void)
{
	struct sp_store a, b;
	char why[512];
	uint32_t row;
	bool ok;

	sp_store_init(&a, "a");
	sp_store_init(&b, "b");
	add(&a, 1, "x", "f+0x1/0x2", 10);
	add(&a, 1, "x", "f+0x1/0x2", 5);	/* same tool key: summed */
	add(&a, 2, "y", "g+0x1/0x2 [m]", 7);
	ok = sizeof(struct sp_row) == 32 && !a.times && a.nrows == 2 && a.total == 22 && a.lines == 3 &&
	     sp_store_find(&a, 1, 1, 0, 0, SP_KIND_SLEEP, &row) && a.rows[row].count == 15;
	result("store: rows keyed by (pid, tgid, comm, symbol), duplicates summed",
	       ok, "mismatch");

	ok = add_line(&a, 3, "z", "f+0x1/0x2", SP_KIND_SLEEP, UINT64_MAX, 0, 0) ==
	     SP_ADD_COUNT_OVERFLOW;
	result("store: total above 2^64-1 refused", ok, "accepted");

	add(&b, 2, "y", "g+0x1/0x2 [m]", 9);
	add(&b, 1, "x", "f+0x1/0x2", 20);
	add(&b, 4, "w", "f+0x1/0x2", 3);
	ok = !sp_delta(&b, &a, why, sizeof(why)) && b.total_delta == 10 &&
	     sp_store_find(&b, 1, 1, 1, 1, SP_KIND_SLEEP, &row) && b.deltas[row].count == 5;
	result("delta: growth, new rows", ok, why);

	ok = sp_delta(&a, &b, why, sizeof(why)) == 1 && strstr(why, "9 -> 7");
	result("delta: count going back is a reset", ok, why);
	sp_store_free(&a);

	sp_store_init(&a, "a");
	add(&a, 2, "y", "g+0x1/0x2 [m]", 100);
	ok = sp_delta(&a, &b, why, sizeof(why)) == 1 && strstr(why, "now gone");
	result("delta: a row gone is a reset", ok, why);
	sp_store_free(&a);
	sp_store_free(&b);
}

static void test_store_time(void)
{
	struct sp_store a, b;
	const char *f = "f+0x1/0x2";
	char why[512];
	uint32_t row;
	bool ok;

	sp_store_init(&a, "a");
	add_line(&a, 1, "x", f, SP_KIND_SLEEP, 10, 1000, 300);
	add_line(&a, 1, "x", f, SP_KIND_PREEMPT, 4, 0, 0);
	add_line(&a, 1, "x", f, SP_KIND_SLEEP, 0, 500, 500);	/* same key, count 0 */
	ok = a.nrows == 2 && a.total == 14 && a.total_ns == 1500 &&
	     sp_store_find(&a, 1, 1, 0, 0, SP_KIND_SLEEP, &row) &&
	     a.rows[row].count == 10 && a.times[row].total_ns == 1500 &&
	     a.times[row].max_ns == 500 &&
	     a.kinds_seen == (1u << SP_KIND_SLEEP | 1u << SP_KIND_PREEMPT);
	result("store: kind is part of the row key; time summed, max kept", ok, "mismatch");

	ok = add_line(&a, 1, "x", f, SP_KIND_SLEEP, 1, UINT64_MAX, 1) ==
	     SP_ADD_TIME_OVERFLOW &&
	     add_line(&a, 2, "x", f, SP_KIND_SLEEP, 1, UINT64_MAX, 1) == 0 &&
	     add_line(&a, 3, "x", f, SP_KIND_SLEEP, 1, UINT64_MAX, 1) == 0 &&
	     a.total_ns == (sp_u128)UINT64_MAX * 2 + 1500;
	result("store: one row's time above 2^64-1 refused, sums of rows 128-bit",
	       ok, "mismatch");
	sp_store_free(&a);

	sp_store_init(&a, "a");
	sp_store_init(&b, "b");
	add_line(&a, 1, "x", f, SP_KIND_SLEEP, 10, 1000, 300);
	add_line(&b, 1, "x", f, SP_KIND_SLEEP, 10, 1700, 300);	/* time only */
	add_line(&b, 1, "x", f, SP_KIND_YIELD, 2, 20, 10);
	ok = !sp_delta(&b, &a, why, sizeof(why)) && b.total_delta == 2 &&
	     b.total_delta_ns == 720 &&
	     sp_store_find(&b, 1, 1, 0, 0, SP_KIND_SLEEP, &row) &&
	     b.deltas[row].count == 0 && b.deltas[row].ns == 700;
	result("delta: time deltas, a line that moved in time only", ok, why);
	sp_store_free(&b);

	sp_store_init(&b, "b");
	add_line(&b, 1, "x", f, SP_KIND_SLEEP, 11, 900, 300);
	ok = sp_delta(&b, &a, why, sizeof(why)) == 1 &&
	     strstr(why, "sleep: total_ns 1000 -> 900");
	result("delta: off-CPU time going back is a reset", ok, why);
	sp_store_free(&b);

	sp_store_init(&b, "b");
	add_line(&b, 1, "x", f, SP_KIND_SLEEP, 11, 1100, 200);
	ok = sp_delta(&b, &a, why, sizeof(why)) == 1 && strstr(why, "max_ns 300 -> 200");
	result("delta: max going back is a reset", ok, why);
	sp_store_free(&a);
	sp_store_free(&b);
}

/* A line of exited tasks (pid 0): tgid is the number of tasks folded in. */
static int add_exited(struct sp_store *st, uint32_t tasks, const char *comm,
		      const char *sym, uint64_t count, uint64_t total_ns,
		      uint64_t max_ns)
{
	struct sp_syminfo si;
	struct sp_line l = {
		.pid = SP_PID_EXITED, .tgid = tasks, .kind = SP_KIND_SLEEP,
		.count = count, .total_ns = total_ns, .max_ns = max_ns,
		.comm = comm, .comm_len = strlen(comm), .sym = sym,
		.sym_len = strlen(sym), .si = &si,
	};

	if (sp_symbol_parse(sym, strlen(sym), &si))
		abort();
	return sp_store_add(st, &l);
}

/*
 * The snapshots of the fold tests.  a: tasks 1 (10 calls), 2 (20), 3 (8),
 * exited 'x' (5 tasks, 50 calls).  b: 1 gained 4; 2 exited after 3 more
 * calls (23 folded); 3 lost one CPU's entry (6 calls, 2 of them new) and
 * has 4 left; a task born and gone in between made 7; b's line of exited
 * tasks is the test's: 50 + 23 + 6 + 7 = 86 calls of 8 tasks if right.
 */
static void fold_a(struct sp_store *a)
{
	const char *f = "f+0x1/0x2";

	sp_store_init(a, "a");
	add_line(a, 1, "x", f, SP_KIND_SLEEP, 10, 1000, 200);
	add_line(a, 2, "x", f, SP_KIND_SLEEP, 20, 2000, 300);
	add_line(a, 3, "x", f, SP_KIND_SLEEP, 8, 800, 400);
	add_exited(a, 5, "x", f, 50, 5000, 500);
}

static void fold_b(struct sp_store *b, const char *comm, uint32_t tasks,
		   uint64_t count, uint64_t total_ns)
{
	const char *f = "f+0x1/0x2";

	sp_store_init(b, "b");
	add_line(b, 1, "x", f, SP_KIND_SLEEP, 14, 1400, 200);
	add_line(b, 3, "x", f, SP_KIND_SLEEP, 4, 400, 100);
	add_exited(b, tasks, comm, f, count, total_ns, 500);
}

/* Format 2: lines of exited tasks in the store and across snapshots. */
static void test_exited(void)
{
	static const struct {
		const char *name, *comm;
		uint64_t count, total_ns;
		const char *why;
	} resets[] = {
		{ "delta: a line of exited tasks that gained less than was folded into it is a reset",
		  "x", 70, 8600,
		  "(pid 2 'x' at f+0x1/0x2, sleep: count 20, now gone; its line of exited tasks gained less count" },
		{ "delta: a line of exited tasks going back is a reset", "x", 40, 8600,
		  "(exited tasks 'x' at f+0x1/0x2, sleep: count 50 -> 40)" },
		{ "delta: a task gone without a line of exited tasks of its name is a reset",
		  "y", 86, 8600, "(pid 2 'x' at f+0x1/0x2, sleep: count 20, now gone)" },
	};
	const char *f = "f+0x1/0x2";
	struct sp_store a, b;
	char why[512];
	uint32_t row, e;
	size_t i;
	bool ok;

	sp_store_init(&a, "a");
	ok = !add_exited(&a, 3, "x", f, 10, 100, 20) &&
	     !add_exited(&a, 4, "x", f, 5, 50, 30) &&	/* same key, other tgid */
	     !add_exited(&a, 2, "y", f, 1, 10, 10);
	ok = ok && a.nrows == 2 && a.nexited == 2 &&
	     sp_store_find(&a, SP_PID_EXITED, 12345, 0, 0, SP_KIND_SLEEP, &row) &&
	     a.rows[row].tgid == 7 && a.rows[row].count == 15 &&
	     a.times[row].max_ns == 30 && sp_row_exited(&a.rows[row]);
	result("store: lines of exited tasks keyed without their tgid, tasks summed",
	       ok, "mismatch");
	ok = add_exited(&a, UINT32_MAX, "x", f, 1, 1, 1) == SP_ADD_TASKS_OVERFLOW &&
	     a.rows[row].count == 15;
	result("store: exited tasks of one row above 2^32-1 refused, nothing added",
	       ok, "mismatch");
	sp_store_free(&a);

	fold_a(&a);
	fold_b(&b, "x", 8, 86, 8600);
	ok = !sp_delta(&b, &a, why, sizeof(why)) &&
	     sp_store_find(&b, 1, 1, 0, 0, SP_KIND_SLEEP, &row) &&
	     b.deltas[row].count == 4 && b.deltas[row].ns == 400 &&
	     sp_store_find(&b, 3, 3, 0, 0, SP_KIND_SLEEP, &row) &&
	     b.deltas[row].count == 0 && b.deltas[row].ns == 0 &&
	     sp_store_find(&b, SP_PID_EXITED, 0, 0, 0, SP_KIND_SLEEP, &e) &&
	     b.deltas[e].count == 3 + 2 + 7 && b.deltas[e].ns == 1200 &&
	     b.dtasks && b.dtasks[e] == 3 && b.dtasks[row] == 0;
	result("delta: a task gone or partly folded into its line of exited tasks is no reset; deltas exact",
	       ok, why);
	sp_store_free(&b);
	for (i = 0; i < sizeof(resets) / sizeof(resets[0]); i++) {
		fold_b(&b, resets[i].comm, 8, resets[i].count, resets[i].total_ns);
		ok = sp_delta(&b, &a, why, sizeof(why)) == 1 && strstr(why, resets[i].why);
		result(resets[i].name, ok, why);
		sp_store_free(&b);
	}
	sp_store_free(&a);
}

static void test_numbers(void)
{
	static const struct {
		sp_u128 ns;
		const char *human, *secs;
	} cases[] = {
		{ 0, "0ns", "0.000000000" },
		{ 999, "999ns", "0.000000999" },
		{ 1000, "1.00us", "0.000001000" },
		{ 1500, "1.50us", "0.000001500" },
		{ 20123456, "20.1ms", "0.020123456" },
		{ 999700000, "1.00s", "0.999700000" },
		{ 912345678, "912ms", "0.912345678" },
		{ 59990000000ULL, "1.00min", "59.990000000" },
		{ 5400000000000ULL, "1.50h", "5400.000000000" },
		{ UINT64_MAX, "213504d", "18446744073.709551615" },
		{ (sp_u128)UINT64_MAX * 3, "640512d", "55340232221.128654845" },
	};
	char digits[SP_U128_DIGITS], buf[64], name[96];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sp_fmt_duration(buf, sizeof(buf), cases[i].ns);
		snprintf(name, sizeof(name), "duration %s", cases[i].human);
		result(name, !strcmp(buf, cases[i].human), buf);
		sp_fmt_seconds(buf, sizeof(buf), cases[i].ns);
		snprintf(name, sizeof(name), "seconds %s", cases[i].secs);
		result(name, !strcmp(buf, cases[i].secs), buf);
	}
	result("u128 digits: 2^128-1",
	       !strcmp(sp_u128_str(digits, ~(sp_u128)0),
		       "340282366920938463463374607431768211455"), digits);
	result("u128 digits: 0", !strcmp(sp_u128_str(digits, 0), "0"), digits);
	result("kind words", sp_kind_parse("sleep", 5) == SP_KIND_SLEEP &&
	       sp_kind_parse("cond_resched", 12) == SP_KIND_COND_RESCHED &&
	       sp_kind_parse("-", 1) < 0 && sp_kind_parse("Sleep", 5) < 0 &&
	       sp_kind_parse("sleepy", 6) < 0 && sp_kind_parse("", 0) < 0 &&
	       sp_kind_parse("idle", 4) == SP_KIND_IDLE &&
	       !strcmp(sp_kind_name(SP_KIND_DISK_SLEEP), "disk_sleep"), "mismatch");
}

static void test_parse_stream(void)
{
	static const char in[] =
		"sched_points version 1\n" HEADER
		"1\t1\tsleep\t5\t0\t0\t-\t0000000000000000\tf+0x1/0x2\tx\n"
		"sched_points version 1.7\nentries 1\n" HEADER
		"1\t1\tsleep\t9\t0\t0\t-\t0000000000000000\tf+0x1/0x2\tx\n";
	struct sp_reader r;
	struct sp_store st;
	struct sp_error err;
	int rc1, rc2, rc3;
	uint64_t t1, t2;

	sp_reader_init_mem(&r, in, sizeof(in) - 1, "mem");
	sp_store_init(&st, "mem");
	rc1 = sp_parse_snapshot(&r, &st, true, &err);
	t1 = st.total;
	sp_store_free(&st);
	sp_store_init(&st, "mem");
	rc2 = sp_parse_snapshot(&r, &st, true, &err);
	t2 = st.total;
	sp_store_free(&st);
	sp_store_init(&st, "mem");
	rc3 = sp_parse_snapshot(&r, &st, true, &err);
	sp_store_free(&st);
	result("parse: a stream of two snapshots, then the end",
	       rc1 == 1 && rc2 == 1 && rc3 == 0 && t1 == 5 && t2 == 9, err.msg);

	sp_reader_init_mem(&r, in, sizeof(in) - 1, "mem");
	sp_store_init(&st, "mem");
	rc1 = sp_parse_snapshot(&r, &st, false, &err);
	sp_store_free(&st);
	result("parse: two snapshots where one is expected is an error",
	       rc1 == -1 && !strcmp(err.msg,
		"mem:4: expected 10 TAB-separated fields, got 1"), err.msg);
}

/* Parse in (one snapshot) into st, freshly initialised; the parser's result. */
static int parse_one(const char *in, struct sp_store *st, struct sp_error *err)
{
	struct sp_reader r;
	int rc;

	sp_reader_init_mem(&r, in, strlen(in), "mem");
	sp_store_init(st, "mem");
	rc = sp_parse_snapshot(&r, st, false, err);
	sp_reader_free(&r);
	return rc;
}

/*
 * Format 2: the 'folded' summary, lines of exited tasks (pid 0); neither is
 * version 1's (any minor).
 */
static void test_parse_exited(void)
{
	static const struct {
		const char *name, *in, *msg;
	} refused[] = {
		{ "parse: a line of exited tasks of 0 tasks is refused",
		  "sched_points version 2\n" HEADER2
		  "0\t0\tsleep\t5\t100\t60\t70\t50\t30\t10\t-\t-\t-\t0000000000000000\tf+0x1/0x2\tsh\n",
		  "mem:3: tgid: a line of exited tasks (pid 0) has the number of tasks folded into it, at least 1, got '0'" },
		{ "parse: 'folded' comes after 'dropped'",
		  "sched_points version 2\nfolded 7\ndropped 0\n" HEADER,
		  "mem:3: summary 'dropped' after 'folded' (the format's order: enabled, mode, time, kinds, hist, cpus, capacity, used, entries, dropped, folded)" },
		{ "parse: a line of pid 0 in a version 1 input is refused",
		  "sched_points version 1\n" HEADER
		  "0\t7\tsleep\t5\t100\t60\t-\t0000000000000000\tf+0x1/0x2\tsh\n",
		  "mem:3: pid: expected a task's pid, above 0, in format version 1 (lines of exited tasks, pid 0, are version 2's), got '0'" },
		{ "parse: a line of pid 0 in a version 1.1 input is refused",
		  "sched_points version 1.1\nfolded 7\n" HEADER
		  "0\t7\tsleep\t5\t100\t60\t-\t0000000000000000\tf+0x1/0x2\tsh\n",
		  "mem:4: pid: expected a task's pid, above 0, in format version 1 (lines of exited tasks, pid 0, are version 2's), got '0'" },
	};
	static const char *const v1[] = { "1", "1.1" };
	struct sp_store st;
	struct sp_error err = { "" };
	size_t i;
	bool ok;

	ok = parse_one("sched_points version 2.1\nentries 2\ndropped 0\nfolded 7\nnew 3\n" HEADER2
		       "0\t7\tsleep\t5\t100\t60\t70\t50\t30\t10\t-\t-\t-\t0000000000000000\tf+0x1/0x2\tsh\n"
		       "9\t9\tsleep\t2\t0\t0\t0\t0\t0\t0\t-\t-\t-\t0000000000000000\tf+0x1/0x2\tsh\n",
		       &st, &err) == 1 && st.sum.folded == 7 && st.major == 2 && st.minor == 1 &&
	     st.nrows == 2 && st.nexited == 1 && sp_row_exited(&st.rows[0]) &&
	     st.rows[0].tgid == 7 && !sp_row_exited(&st.rows[1]);
	result("parse: 'folded' and a line of exited tasks (pid 0) in 2.1, its unknown name ignored",
	       ok, err.msg);
	sp_store_free(&st);
	for (i = 0; i < sizeof(v1) / sizeof(v1[0]); i++) {
		char in[200], name[200];

		snprintf(in, sizeof(in), "sched_points version %s\nfolded 7\ndropped 0\n" HEADER,
			 v1[i]);
		snprintf(name, sizeof(name),
			 "parse: 'folded' in a version %s input is a name it does not know, ignored",
			 v1[i]);
		ok = parse_one(in, &st, &err) == 1 && st.sum.folded == -1 &&
		     st.sum.dropped == 0 && st.major == 1;
		result(name, ok, err.msg);
		sp_store_free(&st);
	}
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		ok = parse_one(refused[i].in, &st, &err) == -1 &&
		     !strcmp(err.msg, refused[i].msg);
		result(refused[i].name, ok, err.msg);
		sp_store_free(&st);
	}
}

/* The summary words and switches; a snapshot of another major is refused. */
static void test_parse_summary(void)
{
	static const char in[] =
		"sched_points version 1\nenabled 1\nmode effective\ntime 0\nkinds 1\n"
		"hist 0\n" HEADER
		"1\t1\tsleep\t5\t100\t60\t-\t0000000000000000\tf+0x1/0x2\tx\n"
		"1\t1\tcond_resched\t2\t0\t0\t-\t0000000000000000\tf+0x1/0x2\tx\n"
		"sched_points version 3\nenabled 1\n" HEADER;
	struct sp_reader r;
	struct sp_store st;
	struct sp_error err = { "" };
	bool ok;

	sp_reader_init_mem(&r, in, sizeof(in) - 1, "mem");
	sp_store_init(&st, "mem");
	ok = sp_parse_snapshot(&r, &st, true, &err) == 1 &&
	     st.sum.mode == SP_MODE_EFFECTIVE && st.sum.time == 0 &&
	     st.sum.kinds == 1 && st.sum.hist == 0 && !st.has_hist &&
	     st.nrows == 2 && st.total == 7 && st.total_ns == 100 &&
	     st.rows[0].kind == SP_KIND_SLEEP && st.times[0].max_ns == 60 &&
	     st.rows[1].kind == SP_KIND_COND_RESCHED;
	result("parse: mode a word, switches, kinds and times", ok, err.msg);
	sp_store_free(&st);
	sp_store_init(&st, "mem");
	ok = sp_parse_snapshot(&r, &st, true, &err) == -1 &&
	     !strcmp(err.msg, "mem:10: unsupported format version 3 (this schedpoints reads versions 1 and 2)");
	result("parse: a snapshot of major 3 in a stream is refused, with its line",
	       ok, err.msg);
	sp_store_free(&st);
	sp_reader_free(&r);
}

/*
 * Percentiles against a reference written the way Prometheus'
 * histogram_quantile() is (promql/quantile.go: the rank falls in the first
 * bucket whose cumulative count reaches it, linear within it), in long
 * double, with the tool's bounds (last bucket up to max_ns) and clamp.
 */
static double ref_percentile(const struct sp_hist *h, unsigned pct,
			     uint64_t max_ns)
{
	long double calls = 0, rank, below = 0, lo, hi, v;
	unsigned b;

	for (b = 0; b < SP_HIST_N; b++)
		calls += h->n[b];
	rank = (long double)pct / 100 * calls;
	for (b = 0; b < SP_HIST_N; b++) {
		if (h->n[b] && below + h->n[b] >= rank)
			break;
		below += h->n[b];
	}
	lo = b == 0 ? 0 : (long double)((uint64_t)1 << (SP_HIST_MIN + b));
	hi = b == SP_HIST_N - 1 ? (long double)max_ns :
	     (long double)((uint64_t)1 << (SP_HIST_MIN + b + 1));
	if (hi < lo)
		hi = lo;
	v = lo + (hi - lo) * (rank - below) / h->n[b];
	return (double)(v > max_ns ? max_ns : v);
}

static void test_percentiles(void)
{
	struct sp_hist h;
	uint64_t v = 1, x;
	unsigned i, b, bad = 0;
	char why[160] = "";
	const unsigned pcts[] = { 1, 50, 90, 99, 100 };

	memset(&h, 0, sizeof(h));
	result("percentile of an empty histogram: none",
	       !sp_hist_percentile(&h, 50, 100, &v), "got one");
	h.n[0] = 4;	/* four calls below 1024 ns, the longest 0 ns */
	result("percentile: every call 0 ns is 0",
	       sp_hist_percentile(&h, 99, 0, &v) && v == 0, "not 0");
	result("percentile: the first bucket spans [0, 1024)",
	       sp_hist_percentile(&h, 50, 5000, &v) && v == 512, "not 512");
	memset(&h, 0, sizeof(h));
	h.n[SP_HIST_N - 1] = 2;	/* two calls of 2^34 ns or more */
	result("percentile: the last bucket spans [2^34, max_ns]",
	       sp_hist_percentile(&h, 50, ((uint64_t)1 << 34) + 1000, &v) &&
	       v == ((uint64_t)1 << 34) + 500, "not 2^34 + 500");
	result("percentile: clamped to max_ns",
	       sp_hist_percentile(&h, 50, 5, &v) && v == 5, "not 5");
	result("bucket bounds: 0, 2^10 .. 2^34, open",
	       sp_hist_lower(0) == 0 && sp_hist_upper(0) == 1024 &&
	       sp_hist_lower(1) == 1024 && sp_hist_lower(SP_HIST_N - 1) == (uint64_t)1 << 34 &&
	       !sp_hist_upper(SP_HIST_N - 1), "bounds");
	/* random histograms: within a nanosecond of the reference (float) */
	for (i = 0; i < 2000; i++) {
		memset(&h, 0, sizeof(h));
		uint64_t max_ns;

		for (b = 0; b < SP_HIST_N; b++) {
			v = v * 6364136223846793005ULL + 1442695040888963407ULL;
			if ((v >> 60) < 6)
				h.n[b] = (v >> 33) % (i % 3 ? 1000 : 3) + 1;
		}
		v = v * 6364136223846793005ULL + 1442695040888963407ULL;
		max_ns = (v >> 20) % ((uint64_t)1 << 36);
		for (b = 0; b < sizeof(pcts) / sizeof(pcts[0]); b++) {
			double want;

			if (!sp_hist_percentile(&h, pcts[b], max_ns, &x))
				continue;
			want = ref_percentile(&h, pcts[b], max_ns);
			if ((double)x > want + 1e-6 || (double)x < want - 1.0 - want * 1e-15) {
				if (!bad++)
					snprintf(why, sizeof(why), "p%u: got %llu, want %.3f",
						 pcts[b], (unsigned long long)x, want);
			}
		}
	}
	result("percentiles of 2000 random histograms: histogram_quantile() within 1 ns, rounded down",
	       !bad, why);
}

/* --min's durations, exact in ns (util.c). */
static void test_parse_duration(void)
{
	static const struct {
		const char *s;
		int ok;
		uint64_t ns;
	} cases[] = {
		{ "0ns", 1, 0 }, { "500ms", 1, 500000000 }, { "2s", 1, 2000000000 },
		{ "1500us", 1, 1500000 }, { "1.5s", 1, 1500000000 },
		{ "0.000000001s", 1, 1 }, { "2min", 1, 120000000000ULL },
		{ "1h", 1, 3600000000000ULL },
		{ "18446744073709551615ns", 1, UINT64_MAX },
		{ "18446744073.709551615s", 1, UINT64_MAX },
		{ "18446744073.709551616s", 0, 0 }, { "18446744073709551616ns", 0, 0 },
		{ "1.5ns", 0, 0 }, { "5", 0, 0 }, { "s", 0, 0 }, { "-1s", 0, 0 },
		{ "1.s", 0, 0 }, { ".5s", 0, 0 }, { "1 s", 0, 0 }, { "1S", 0, 0 },
		{ "1sec", 0, 0 }, { "", 0, 0 }, { "1e3ms", 0, 0 },
	};
	const char *why;
	char name[96];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t ns = 0;
		int rc = sp_parse_duration(cases[i].s, &ns, &why);

		snprintf(name, sizeof(name), "--min duration '%s'", cases[i].s);
		result(name, cases[i].ok ? !rc && ns == cases[i].ns : rc == -1,
		       rc ? why : "wrong value");
	}
}

/* sp_site_match(): X as 'site X' takes it. */
static void test_site_match(void)
{
	static const struct {
		const char *sym, *x;
		bool match;
	} cases[] = {
		{ "pipe_read+0x2ae/0x4f0", "pipe_read", true },
		{ "pipe_read+0x2ae/0x4f0", "pipe_read+0x2ae/0x4f0", true },
		{ "pipe_read+0x2ae/0x4f0", "pipe_rea", false },
		{ "pipe_read+0x2ae/0x4f0", "[vmlinux]", true },
		{ "pipe_read+0x2ae/0x4f0", "[ext4]", false },
		{ "f+0x1/0x2 [ext4]", "f", true },
		{ "f+0x1/0x2 [ext4]", "f [ext4]", true },
		{ "f+0x1/0x2 [ext4]", "f+0x1/0x2", true },
		{ "f+0x1/0x2 [ext4]", "[ext4]", true },
		{ "f+0x1/0x2 [ext4]", "f [ext]", false },
		{ "f+0x1/0x2 [ext4 0123abcd]", "f [ext4]", true },
		{ "0xffffffff81000000", "[unknown]", true },
	};
	char name[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sp_syminfo si;
		bool ok = !sp_symbol_parse(cases[i].sym, strlen(cases[i].sym), &si) &&
			  sp_site_match(cases[i].sym, strlen(cases[i].sym), &si,
					cases[i].x) == cases[i].match;

		snprintf(name, sizeof(name), "site '%s' %s '%s'", cases[i].x,
			 cases[i].match ? "matches" : "does not match", cases[i].sym);
		result(name, ok, "wrong answer");
	}
}

/* sp_parse_wakers(): the lines as the file has them, and what it refuses. */
static void test_parse_wakers(void)
{
#define WHEAD "sched_points_wakers version 1\nenabled 1\nmode effective\n" \
	"wakers 1\nhist 1\nentries %d\nunlisted 2\npid\ttgid\tkind\twaker\t" \
	"waker_pid\tcount\ttotal_ns\twait_ns\tdelay_ns\thist\taddress\tsymbol\t" \
	"comm\twaker_address\twaker_symbol\twaker_comm\n"
#define WLINE(pfx, sfx) pfx "\tffffffff81230c1e\tpipe_read+0x2ae/0x4f0\t" \
	"my\\040task\tffffffff812314c5\tpipe_write+0x3b5/0x6c0\t" sfx "\n"
	static const char good[] = "sched_points_wakers version 1\nenabled 1\n"
		"mode effective\nwakers 1\nhist 1\nentries 2\nunlisted 2\n"
		"pid\ttgid\tkind\twaker\twaker_pid\tcount\ttotal_ns\twait_ns\t"
		"delay_ns\thist\taddress\tsymbol\tcomm\twaker_address\t"
		"waker_symbol\twaker_comm\n"
		WLINE("80\t80\tsleep\ttask\t81\t10\t100\t60\t40\t9:10", "pong")
		WLINE("0\t0\tidle\ttimer\t0\t3\t30\t30\t0\t-", "");
	struct sp_reader r;
	struct sp_wakers w;
	struct sp_error err;
	const struct sp_wline *l;
	bool ok;

	sp_reader_init_mem(&r, good, sizeof(good) - 1, "mem");
	sp_wakers_init(&w, "mem");
	ok = !sp_parse_wakers(&r, &w, &err) && w.nlines == 2 && w.unlisted == 2 &&
	     w.mode == SP_MODE_EFFECTIVE && w.nhists == 1;
	l = ok ? &w.lines[0] : NULL;
	ok = ok && l->pid == 80 && l->waker_pid == 81 && l->count == 10 &&
	     l->total_ns == 100 && l->wait_ns == 60 && l->ctx == SP_WCTX_TASK &&
	     l->hist == 1 && w.hists[0].n[0] == 10 &&
	     sp_pool_len(&w.comms, l->comm) == 7 &&
	     !memcmp(sp_pool_str(&w.comms, l->comm), "my task", 7) &&
	     !strcmp(sp_pool_str(&w.syms, l->waker_sym), "pipe_write+0x3b5/0x6c0");
	l = ok ? &w.lines[1] : NULL;
	ok = ok && !l->pid && !l->tgid && l->ctx == SP_WCTX_TIMER && !l->hist &&
	     l->kind == SP_KIND_IDLE && !sp_pool_len(&w.comms, l->waker_comm);
	result("wakers: a task's and exited tasks' lines, escapes, a histogram", ok,
	       ok ? "" : err.msg);
	sp_wakers_free(&w);
	sp_reader_free(&r);

	{
		static const struct {
			const char *name, *in, *msg;
		} bad[] = {
			{ "a count above 2^64", WLINE("5\t5\tsleep\ttask\t6\t18446744073709551616\t1\t1\t0\t9:1", "x"),
			  "mem:9: count: expected an unsigned decimal below 2^64, got '18446744073709551616'" },
			{ "a task without tgid", WLINE("5\t0\tsleep\ttask\t6\t1\t1\t1\t0\t9:1", "x"),
			  "mem:9: tgid: expected a task's tgid, above 0, got '0'" },
			{ "a wait above the total", WLINE("5\t5\tsleep\ttask\t6\t1\t1\t2\t0\t9:1", "x"),
			  "mem:9: wait_ns + delay_ns: expected total_ns 1 (each call's off-CPU time is its wait and its run delay), got 2 + 0" },
		};
		char in[1024];
		size_t i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			int n = snprintf(in, sizeof(in), WHEAD "%s", 1, bad[i].in);

			sp_reader_init_mem(&r, in, (size_t)n, "mem");
			sp_wakers_init(&w, "mem");
			ok = sp_parse_wakers(&r, &w, &err) == -1 &&
			     !strcmp(err.msg, bad[i].msg);
			snprintf(in, sizeof(in), "wakers: refused: %s", bad[i].name);
			result(in, ok, err.msg);
			sp_wakers_free(&w);
			sp_reader_free(&r);
		}
	}
#undef WHEAD
#undef WLINE
}

int main(void)
{
	test_symbols();
	test_comm();
	test_escape();
	test_keymap();
	test_pool();
	test_store_and_delta();
	test_store_time();
	test_numbers();
	test_parse_stream();
	test_parse_summary();
	test_parse_exited();
	test_exited();
	test_percentiles();
	test_parse_duration();
	test_site_match();
	test_parse_wakers();
	return failed;
}
