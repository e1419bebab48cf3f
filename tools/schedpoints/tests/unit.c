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

static void add(struct sp_store *st, uint32_t pid, const char *comm,
		const char *sym, uint64_t count)
{
	struct sp_syminfo si;

	if (sp_symbol_parse(sym, strlen(sym), &si) ||
	    sp_store_add(st, pid, pid, comm, strlen(comm), sym, strlen(sym),
			 &si, count))
		abort();
}

static void test_store_and_delta(void)
{
	struct sp_store a, b;
	struct sp_syminfo si;
	char why[512];
	uint32_t row;
	bool ok;

	sp_store_init(&a, "a");
	sp_store_init(&b, "b");
	add(&a, 1, "x", "f+0x1/0x2", 10);
	add(&a, 1, "x", "f+0x1/0x2", 5);	/* same tool key: summed */
	add(&a, 2, "y", "g+0x1/0x2 [m]", 7);
	ok = a.nrows == 2 && a.total == 22 && a.lines == 3 &&
	     sp_store_find(&a, 1, 1, 0, 0, &row) && a.rows[row].count == 15;
	result("store: rows keyed by (pid, tgid, comm, symbol), duplicates summed",
	       ok, "mismatch");

	sp_symbol_parse("f+0x1/0x2", 9, &si);
	ok = sp_store_add(&a, 3, 3, "z", 1, "f+0x1/0x2", 9, &si, UINT64_MAX) == -1;
	result("store: total above 2^64-1 refused", ok, "accepted");

	add(&b, 2, "y", "g+0x1/0x2 [m]", 9);
	add(&b, 1, "x", "f+0x1/0x2", 20);
	add(&b, 4, "w", "f+0x1/0x2", 3);
	ok = !sp_delta(&b, &a, why, sizeof(why)) && b.total_delta == 10 &&
	     sp_store_find(&b, 1, 1, 1, 1, &row) && b.rows[row].delta == 5;
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

static void test_parse_stream(void)
{
	static const char in[] =
		"sched_points version 1\npid\ttgid\tcount\taddress\tsymbol\tcomm\n"
		"1\t1\t5\t0000000000000000\tf+0x1/0x2\tx\n"
		"sched_points version 1.7\nentries 1\npid\ttgid\tcount\taddress\tsymbol\tcomm\n"
		"1\t1\t9\t0000000000000000\tf+0x1/0x2\tx\n";
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
		"mem:4: expected 6 TAB-separated fields, got 1"), err.msg);
}

int main(void)
{
	test_symbols();
	test_comm();
	test_escape();
	test_keymap();
	test_pool();
	test_store_and_delta();
	test_parse_stream();
	return failed;
}
