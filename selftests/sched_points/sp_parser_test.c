// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the strict parser in sp_helpers.h, on fixed texts: the example
 * of the interface spec must parse, with the right fields, and every kind of
 * malformed line must be refused.  Needs no kernel support, so that a
 * parser that accepts anything cannot make sched_points_test pass.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* kselftest_harness.h and TEST() are not -Wextra clean */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#ifndef __clang__
#pragma GCC diagnostic ignored "-Wclobbered"
#endif
#include "sp_helpers.h"

#define HEAD(entries)							\
	"sched_points version 1\n"					\
	"enabled 1\n"							\
	"cpus 2\n"							\
	"capacity 4096\n"						\
	"used 57\n"							\
	"entries " #entries "\n"					\
	"dropped 0\n"							\
	"pid\ttgid\tcount\taddress\tsymbol\tcomm\n"

#define LINE1 "123\t123\t45\tffffffff8109a1b2\tdo_nanosleep+0x6e/0x190\tsleeper\n"
#define LINE2 "130\t129\t7\tffffffffc0002010\t"				\
	"sp_test_sleep_once+0x4a/0x90 [sched_points_test]\tmy\\040thread\n"

static int parse(const char *text, struct sp_view *v, char *err)
{
	return sp_parse_view(text, strlen(text), v, err, "test");
}

TEST(spec_example)
{
	char err[SP_ERR_MAX] = "";
	struct sp_view v;

	ASSERT_EQ(0, parse(HEAD(2) LINE1 LINE2, &v, err)) TH_LOG("%s", err);
	EXPECT_EQ(1U, v.major);
	EXPECT_FALSE(v.has_minor);
	EXPECT_EQ(1ULL, v.enabled);
	EXPECT_EQ(2ULL, v.cpus);
	EXPECT_EQ(4096ULL, v.capacity);
	EXPECT_EQ(57ULL, v.used);
	EXPECT_EQ(2ULL, v.entries);
	EXPECT_EQ(0ULL, v.dropped);
	ASSERT_EQ(2U, v.nr);

	EXPECT_EQ(123U, v.e[0].pid);
	EXPECT_EQ(123U, v.e[0].tgid);
	EXPECT_EQ(45ULL, v.e[0].count);
	EXPECT_EQ(0xffffffff8109a1b2ULL, v.e[0].address);
	EXPECT_STREQ("do_nanosleep", v.e[0].func);
	EXPECT_EQ(0x6eULL, v.e[0].off);
	EXPECT_EQ(0x190ULL, v.e[0].len);
	EXPECT_STREQ("", v.e[0].module);
	EXPECT_STREQ("sleeper", v.e[0].comm);
	EXPECT_TRUE(sp_is_nanosleep(&v.e[0]));

	EXPECT_EQ(130U, v.e[1].pid);
	EXPECT_EQ(129U, v.e[1].tgid);
	EXPECT_STREQ("sp_test_sleep_once", v.e[1].func);
	EXPECT_STREQ("sched_points_test", v.e[1].module);
	EXPECT_STREQ("my\\040thread", v.e[1].comm_raw);
	EXPECT_STREQ("my thread", v.e[1].comm);
	EXPECT_FALSE(sp_is_nanosleep(&v.e[1]));
	EXPECT_FALSE(sp_is_module_sleep(&v.e[1]));

	EXPECT_EQ(45ULL, sp_count(&v, 123, sp_is_nanosleep, NULL));
	EXPECT_EQ(0ULL, sp_count(&v, 130, sp_is_nanosleep, NULL));
	EXPECT_EQ(52ULL, sp_total(&v));
	sp_view_free(&v);
}

TEST(good_variants)
{
	static const char * const good[] = {
		/* empty table */
		HEAD(0),
		/* a later compatible minor may add summary names */
		"sched_points version 1.1\nenabled 0\ncpus 1\ncapacity 16\n"
		"used 0\nentries 0\ndropped 0\nmode 1\n"
		"pid\ttgid\tcount\taddress\tsymbol\tcomm\n",
		/* bare address, empty comm, zero address, clone suffix */
		HEAD(1) "5\t5\t1\t0000000000000000\t0xffffffffc0001234\t\n",
		HEAD(1) "5\t5\t1\t0000000000000000\tdo_nanosleep.isra.0+0x1/0x2\tx\n",
		/* every escape */
		HEAD(1) "5\t5\t1\t0000000000000000\tf+0x1/0x2\ta\\012b\\011c\\040d\\134\\377\n",
		/* ties: pid ascending, then address */
		HEAD(3) "1\t1\t9\t0000000000000002\tf+0x1/0x2\ta\n"
			"1\t1\t9\t0000000000000003\tf+0x2/0x2\ta\n"
			"2\t1\t9\t0000000000000001\tf+0x1/0x2\ta\n",
	};
	char err[SP_ERR_MAX];
	struct sp_view v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		EXPECT_EQ(0, parse(good[i], &v, err))
			TH_LOG("good[%zu]: %s", i, err);
		sp_view_free(&v);
	}
	ASSERT_EQ(0, parse(good[4], &v, err));
	EXPECT_STREQ("a\nb\tc d\\\xff", v.e[0].comm);
	sp_view_free(&v);
}

TEST(bad_header_and_summary)
{
	static const char * const bad[] = {
		"",
		"sched_points version 2\n",
		"sched_points version 1",
		"sched_points version\n",
		"sched_points version 01\n",
		"sched_points version 1.\n",
		"sched_points  version 1\n",
		/* unknown name in 1.0 */
		"sched_points version 1\nenabled 1\ncpus 2\ncapacity 4096\n"
		"used 0\nentries 0\ndropped 0\nmode 0\n"
		"pid\ttgid\tcount\taddress\tsymbol\tcomm\n",
		/* missing dropped */
		"sched_points version 1\nenabled 1\ncpus 2\ncapacity 4096\n"
		"used 0\nentries 0\npid\ttgid\tcount\taddress\tsymbol\tcomm\n",
		/* out of order */
		"sched_points version 1\ncpus 2\nenabled 1\ncapacity 4096\n"
		"used 0\nentries 0\ndropped 0\n"
		"pid\ttgid\tcount\taddress\tsymbol\tcomm\n",
		/* repeated */
		"sched_points version 1\nenabled 1\nenabled 1\ncpus 2\n"
		"capacity 4096\nused 0\nentries 0\ndropped 0\n"
		"pid\ttgid\tcount\taddress\tsymbol\tcomm\n",
		/* two spaces, tab, sign, leading zero */
		"sched_points version 1\nenabled  1\n",
		"sched_points version 1\nenabled\t1\n",
		"sched_points version 1\nenabled -1\n",
		"sched_points version 1\nenabled 01\n",
		/* enabled 2, capacity not a power of two, used too big */
		"sched_points version 1\nenabled 2\ncpus 2\ncapacity 4096\n"
		"used 0\nentries 0\ndropped 0\n"
		"pid\ttgid\tcount\taddress\tsymbol\tcomm\n",
		"sched_points version 1\nenabled 1\ncpus 2\ncapacity 4000\n"
		"used 0\nentries 0\ndropped 0\n"
		"pid\ttgid\tcount\taddress\tsymbol\tcomm\n",
		"sched_points version 1\nenabled 1\ncpus 2\ncapacity 16\n"
		"used 33\nentries 0\ndropped 0\n"
		"pid\ttgid\tcount\taddress\tsymbol\tcomm\n",
		/* entries > used */
		"sched_points version 1\nenabled 1\ncpus 2\ncapacity 16\n"
		"used 0\nentries 1\ndropped 0\n"
		"pid\ttgid\tcount\taddress\tsymbol\tcomm\n" LINE1,
		/* bad column header */
		"sched_points version 1\nenabled 1\ncpus 2\ncapacity 4096\n"
		"used 0\nentries 0\ndropped 0\n"
		"pid tgid count address symbol comm\n",
		/* no column header */
		"sched_points version 1\nenabled 1\ncpus 2\ncapacity 4096\n"
		"used 0\nentries 0\ndropped 0\n",
		/* CRLF */
		"sched_points version 1\r\n",
	};
	char err[SP_ERR_MAX];
	struct sp_view v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-1, parse(bad[i], &v, err))
			TH_LOG("bad[%zu] accepted", i);
	}
}

TEST(bad_data_lines)
{
	static const char * const bad[] = {
		/* field count */
		"1\t1\t1\t0000000000000001\tf+0x1/0x2\n",
		"1\t1\t1\t0000000000000001\tf+0x1/0x2\ta\tb\n",
		"1\t1\t1\t0000000000000001\t\tf+0x1/0x2\ta\n",
		"1 1\t1\t0000000000000001\tf+0x1/0x2\ta\n",
		/* numbers */
		"01\t1\t1\t0000000000000001\tf+0x1/0x2\ta\n",
		"-1\t1\t1\t0000000000000001\tf+0x1/0x2\ta\n",
		"1\t\t1\t0000000000000001\tf+0x1/0x2\ta\n",
		"4294967296\t1\t1\t0000000000000001\tf+0x1/0x2\ta\n",
		"1\t1\t18446744073709551616\t0000000000000001\tf+0x1/0x2\ta\n",
		"1\t1\t+1\t0000000000000001\tf+0x1/0x2\ta\n",
		/* address */
		"1\t1\t1\tFFFFFFFF8109A1B2\tf+0x1/0x2\ta\n",
		"1\t1\t1\t000000000000001\tf+0x1/0x2\ta\n",
		"1\t1\t1\t00000000000000001\tf+0x1/0x2\ta\n",
		"1\t1\t1\t0x00000000000001\tf+0x1/0x2\ta\n",
		"1\t1\t1\t(____ptrval____)\tf+0x1/0x2\ta\n",
		/* symbol */
		"1\t1\t1\t0000000000000001\t\ta\n",
		"1\t1\t1\t0000000000000001\tf\ta\n",
		"1\t1\t1\t0000000000000001\tf+0x1\ta\n",
		"1\t1\t1\t0000000000000001\tf+1/2\ta\n",
		"1\t1\t1\t0000000000000001\tf+0x1/0x0\ta\n",
		"1\t1\t1\t0000000000000001\tf+0x1/0xA\ta\n",
		"1\t1\t1\t0000000000000001\tf+0x1/0x2[m]\ta\n",
		"1\t1\t1\t0000000000000001\tf+0x1/0x2 m\ta\n",
		"1\t1\t1\t0000000000000001\tf+0x1/0x2 []\ta\n",
		"1\t1\t1\t0000000000000001\tf+0x1/0x2  [m]\ta\n",
		"1\t1\t1\t0000000000000001\tf+0x1/0x2 [m] \ta\n",
		"1\t1\t1\t0000000000000001\tf x+0x1/0x2\ta\n",
		"1\t1\t1\t0000000000000001\t0x\ta\n",
		"1\t1\t1\t0000000000000001\t0xG1\ta\n",
		"1\t1\t1\t0000000000000001\t+0x1/0x2\ta\n",
		/* comm */
		"1\t1\t1\t0000000000000001\tf+0x1/0x2\ta b\n",
		"1\t1\t1\t0000000000000001\tf+0x1/0x2\ta\\b\n",
		"1\t1\t1\t0000000000000001\tf+0x1/0x2\ta\\01\n",
		"1\t1\t1\t0000000000000001\tf+0x1/0x2\ta\\018\n",
		"1\t1\t1\t0000000000000001\tf+0x1/0x2\ta\\400\n",
		"1\t1\t1\t0000000000000001\tf+0x1/0x2\ta\\000\n",
		"1\t1\t1\t0000000000000001\tf+0x1/0x2\t\\141\n",
		"1\t1\t1\t0000000000000001\tf+0x1/0x2\ta\xff\n",
		"1\t1\t1\t0000000000000001\tf+0x1/0x2\tabcdefghijklmnop\n",
		"1\t1\t1\t0000000000000001\tf+0x1/0x2\ta\r\n",
		/* no newline at the end */
		"1\t1\t1\t0000000000000001\tf+0x1/0x2\ta",
	};
	char text[1024], err[SP_ERR_MAX];
	struct sp_view v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(text, sizeof(text), "%s%s", HEAD(1), bad[i]);
		EXPECT_EQ(-1, parse(text, &v, err))
			TH_LOG("bad[%zu] accepted", i);
	}
}

TEST(bad_view_structure)
{
	static const char * const bad[] = {
		/* entries says 2, one line; says 1, two lines */
		HEAD(2) LINE1,
		HEAD(1) LINE1 LINE2,
		/* a forged line: count ascending */
		HEAD(2) LINE2 LINE1,
		/* same count, pid descending */
		HEAD(2) "2\t1\t9\t0000000000000001\tf+0x1/0x2\ta\n"
			"1\t1\t9\t0000000000000001\tf+0x1/0x2\ta\n",
		/* same count and pid, address descending */
		HEAD(2) "1\t1\t9\t0000000000000002\tf+0x1/0x2\ta\n"
			"1\t1\t9\t0000000000000001\tf+0x1/0x2\ta\n",
		/* an empty line */
		HEAD(1) LINE1 "\n",
	};
	char err[SP_ERR_MAX];
	struct sp_view v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-1, parse(bad[i], &v, err))
			TH_LOG("bad[%zu] accepted", i);
	}

	/* a NUL byte inside the text */
	{
		static const char nul[] = HEAD(1) "1\t1\t1\t0000000000000001\tf+0x1/0x2\ta\0b\n";

		EXPECT_EQ(-1, sp_parse_view(nul, sizeof(nul) - 1, &v, err, "t"));
	}
}

TEST(raw_and_stats)
{
	static const char raw[] =
		"cpu\tpid\ttgid\tcount\taddress\tsymbol\tcomm\n"
		"0\t123\t123\t20\tffffffff8109a1b2\tdo_nanosleep+0x6e/0x190\ts\n"
		"1\t123\t123\t25\tffffffff8109a1b2\tdo_nanosleep+0x6e/0x190\ts\n";
	static const char stats[] =
		"cpu\tused\tcapacity\tdropped\tmax_probe\n"
		"0\t10\t16\t3\t4\n"
		"1\t16\t16\t0\t16\n";
	static const char * const bad_stats[] = {
		"cpu\tused\tcapacity\tdropped\tmax_probe\n",
		"cpu used capacity dropped max_probe\n0\t1\t16\t0\t1\n",
		"cpu\tused\tcapacity\tdropped\tmax_probe\n0\t17\t16\t0\t1\n",
		"cpu\tused\tcapacity\tdropped\tmax_probe\n0\t1\t16\t0\t17\n",
		"cpu\tused\tcapacity\tdropped\tmax_probe\n0\t1\t16\t0\n",
		"cpu\tused\tcapacity\tdropped\tmax_probe\n0\t1\t16\t0\t1\n0\t1\t16\t0\t1\n",
		"cpu\tused\tcapacity\tdropped\tmax_probe\n0\t1\t16\t0\t1\n1\t1\t32\t0\t1\n",
		"cpu\tused\tcapacity\tdropped\tmax_probe\n0\t1\t24\t0\t1\n",
	};
	static const char * const bad_raw[] = {
		"cpu\tpid\ttgid\tcount\taddress\tsymbol\tcomm\n"
		"123\t123\t20\tffffffff8109a1b2\tdo_nanosleep+0x6e/0x190\ts\n",
		"pid\ttgid\tcount\taddress\tsymbol\tcomm\n",
		"cpu\tpid\ttgid\tcount\taddress\tsymbol\tcomm\n"
		"x\t123\t123\t20\tffffffff8109a1b2\tdo_nanosleep+0x6e/0x190\ts\n",
	};
	char err[SP_ERR_MAX];
	struct sp_view v;
	struct sp_stats st;
	size_t i;

	ASSERT_EQ(0, sp_parse_raw(raw, strlen(raw), &v, err, "raw"))
		TH_LOG("%s", err);
	ASSERT_EQ(2U, v.nr);
	EXPECT_EQ(1U, v.e[1].cpu);
	EXPECT_EQ(45ULL, sp_count(&v, 123, sp_is_nanosleep, NULL));
	sp_view_free(&v);

	ASSERT_EQ(0, sp_parse_stats(stats, strlen(stats), &st, err, "stats"))
		TH_LOG("%s", err);
	ASSERT_EQ(2U, st.nr);
	EXPECT_EQ(26ULL, st.used);
	EXPECT_EQ(3ULL, st.dropped);
	EXPECT_EQ(16ULL, st.cpu[1].max_probe);
	sp_stats_free(&st);

	for (i = 0; i < ARRAY_SIZE(bad_stats); i++) {
		EXPECT_EQ(-1, sp_parse_stats(bad_stats[i], strlen(bad_stats[i]),
					     &st, err, "stats"))
			TH_LOG("bad_stats[%zu] accepted", i);
	}
	for (i = 0; i < ARRAY_SIZE(bad_raw); i++) {
		EXPECT_EQ(-1, sp_parse_raw(bad_raw[i], strlen(bad_raw[i]),
					   &v, err, "raw"))
			TH_LOG("bad_raw[%zu] accepted", i);
	}
}

TEST(module_symbol_match)
{
	static const char text[] = HEAD(2)
		"7\t7\t20\tffffffffc0002010\t"
		"sched_points_test_sleep+0x4a/0x90 [sched_points_test]\tt\n"
		"7\t7\t20\tffffffffc0002020\t"
		"sched_points_test_sleep+0x4a/0x90 [other_mod]\tt\n";
	char err[SP_ERR_MAX];
	struct sp_view v;

	ASSERT_EQ(0, parse(text, &v, err)) TH_LOG("%s", err);
	EXPECT_TRUE(sp_is_module_sleep(&v.e[0]));
	EXPECT_FALSE(sp_is_module_sleep(&v.e[1]));
	EXPECT_EQ(20ULL, sp_count(&v, 7, sp_is_module_sleep, NULL));
	sp_view_free(&v);
}

TEST_HARNESS_MAIN
