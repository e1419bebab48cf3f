/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the sched_points selftest: read the controls (sysctls),
 * and parse /proc/sched_points, debugfs sched_points/raw and
 * sched_points/stats strictly, as Documentation/scheduler/sched-points.rst
 * defines them: format versions 1 and 2 and their minors (a minor only
 * adds summary names; 2 adds lines of exited tasks, pid 0, the folded
 * summary, and the split of off-CPU time into wait and run delay: six
 * fields after max_ns); any other major is refused.  Any line that does
 * not follow the format is an error, with the line number and the line in
 * the message.
 */
#ifndef SP_HELPERS_H
#define SP_HELPERS_H

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "kselftest.h"

/* Overridable only to dry-run the suite's plumbing on fake files. */
#ifndef SP_PROC
#define SP_PROC		"/proc/sched_points"
#endif
#ifndef SP_DEBUGFS
#define SP_DEBUGFS	"/sys/kernel/debug"
#endif
/* debugfs sched_points/: the per-CPU view of the tables, read-only */
#define SP_DIR		SP_DEBUGFS "/sched_points"
#define SP_STATS	SP_DIR "/stats"
#define SP_RAW		SP_DIR "/raw"
#define SP_BLOCKED	"/proc/sched_points_blocked"
#define SP_WAKERS_PROC	"/proc/sched_points_wakers"
/*
 * The run-time controls, sysctls: kernel.sched_points turns accounting on
 * and off; free is write-only.
 */
#ifndef SP_PROC_SYS
#define SP_PROC_SYS	"/proc/sys/kernel"
#endif
#define SP_ENABLE	SP_PROC_SYS "/sched_points"
#define SP_ENTRIES	SP_PROC_SYS "/sched_points_entries"
#define SP_MODE		SP_PROC_SYS "/sched_points_mode"
#define SP_TIME		SP_PROC_SYS "/sched_points_time"
#define SP_KINDS	SP_PROC_SYS "/sched_points_kinds"
#define SP_HIST		SP_PROC_SYS "/sched_points_hist"
#define SP_WAKERS	SP_PROC_SYS "/sched_points_wakers"
#define SP_FREE		SP_PROC_SYS "/sched_points_free"

/* The major version of the format, the only one read. */
#define SP_VERSION_MAJOR	2	/* the newest read; 1 too */
#define SP_MIN_ENTRIES		16ULL
#define SP_MAX_ENTRIES		1048576ULL
#define SP_DEFAULT_ENTRIES	4096ULL

#define SP_COMM_MAX	15	/* TASK_COMM_LEN - 1 */
#define SP_SYM_MAX	640	/* > KSYM_SYMBOL_LEN would be silly */
#define SP_NAME_MAX	512	/* KSYM_NAME_LEN */
#define SP_MOD_MAX	64	/* MODULE_NAME_LEN - sizeof(unsigned long) */
#define SP_ERR_MAX	768
#define SP_WORD_MAX	16	/* a mode name */
#define SP_NR_FIELDS	16	/* fields of a data line, version 2 */
#define SP_NR_FIELDS_V1	10	/* fields of a data line, version 1 */
#define SP_MAX_FIELDS	17	/* cpu and the sixteen, in raw */
/* Buckets of a histogram of off-CPU time: K from 9 to 34. */
#define SP_HIST_MIN_K	9
#define SP_HIST_BUCKETS	26
#define SP_BUILD_ID_SIZE 20	/* bytes of a module's build ID */
/* The symbol of a call site in an unloaded module, when it had no name. */
#define SP_SYM_UNLOADED	"(unloaded module)"

/* How a task entered the scheduler (the kind column). */
enum sp_kind {
	SP_KIND_SLEEP,		/* schedule() while not runnable (S) */
	SP_KIND_DISK_SLEEP,	/* a wait in D state */
	SP_KIND_IDLE,		/* a wait in TASK_IDLE */
	SP_KIND_YIELD,		/* schedule() while runnable */
	SP_KIND_PREEMPT,	/* preempt_schedule() */
	SP_KIND_COND_RESCHED,	/* cond_resched() that rescheduled */
	SP_NR_KINDS,
};

/* In the order lines are sorted by (after count, pid and address). */
static const char * const sp_kind_names[SP_NR_KINDS] = {
	"sleep", "disk_sleep", "idle", "yield", "preempt", "cond_resched",
};

/* One data line of /proc/sched_points or of debugfs raw. */
struct sp_entry {
	unsigned int cpu;		/* raw only */
	unsigned int pid;
	unsigned int tgid;
	int kind;			/* enum sp_kind */
	unsigned long long count;
	unsigned long long total_ns;
	unsigned long long max_ns;
	/* version 2 (and raw) only, 0 in 1: total_ns split at the wakeup */
	unsigned long long wait_ns, wait_max_ns, delay_ns, delay_max_ns;
	bool has_hist;			/* a hist other than "-" */
	bool has_wait_hist, has_delay_hist;	/* version 2: as has_hist */
	unsigned long long hist[SP_HIST_BUCKETS];	/* [K - SP_HIST_MIN_K] */
	unsigned long long wait_hist[SP_HIST_BUCKETS], delay_hist[SP_HIST_BUCKETS];
	unsigned long long address;
	char symbol[SP_SYM_MAX];	/* as printed */
	char func[SP_NAME_MAX];		/* "" for a bare 0x... address */
	unsigned long long off, len;
	char module[SP_MOD_MAX];	/* "" when not in a module */
	char comm_raw[SP_COMM_MAX * 4 + 1];	/* as printed (escaped) */
	char comm[SP_COMM_MAX + 1];	/* decoded */
	char state;			/* blocked view only: R, S, D, ... */
	unsigned long long waiting_ns;	/* blocked view only */
};

/* /proc/sched_points or debugfs raw, parsed. */
struct sp_view {
	unsigned int major;		/* 1 or 2; 0 for raw */
	unsigned int minor;		/* of version M.N; 0 for raw */
	bool has_minor;
	unsigned long long enabled, cpus, capacity, used, entries, dropped;
	unsigned long long folded;	/* since 2; 0 in 1 */
	char mode[SP_WORD_MAX];		/* caller or effective */
	unsigned long long time, kinds, hist;	/* switches, 0 or 1 */
	size_t nr;
	struct sp_entry *e;
};

/* debugfs stats, parsed. */
struct sp_cpu_stats {
	unsigned long long cpu, used, capacity, dropped, max_probe, bytes;
};

struct sp_stats {
	size_t nr;
	struct sp_cpu_stats *cpu;
	unsigned long long used, dropped;	/* sums */
};

/* ---------------------------------------------------------------------- */
/*
 * SP_SKIP(): SKIP() that cannot hide a failure.  kselftest_harness.h's
 * SKIP() (Linux 6.12) sets _metadata->exit_code to KSFT_SKIP whatever it
 * was, so a skip after a failed EXPECT turns the failure into a skip.  A
 * skip must only ever mean "this kernel or machine lacks X": after a failed
 * expectation, log the reason and keep the failure.  Use it in the test
 * files instead of SKIP() (they include kselftest_harness.h first).
 */
#define SP_SKIP(statement, fmt, ...) do {				\
	char sp_skip_reason[1024];					\
									\
	snprintf(sp_skip_reason, sizeof(sp_skip_reason), fmt,		\
		 ##__VA_ARGS__);					\
	if (_metadata->exit_code == KSFT_FAIL)				\
		TH_LOG("not skipped, an expectation failed before: %s",	\
		       sp_skip_reason);					\
	else								\
		SKIP(, "%s", sp_skip_reason);				\
	statement;							\
} while (0)

/* ---------------------------------------------------------------------- */
/* small utilities */

/* __printf() is kselftest.h's */
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]))
#endif

static inline void sp_err(char *err, const char *fmt, ...) __printf(2, 3);

static inline void sp_err(char *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, SP_ERR_MAX, fmt, ap);
	va_end(ap);
}

/* Copy a line into @out, made printable, for error messages. */
static inline void sp_show_line(char *out, size_t outlen, const char *s,
				size_t n)
{
	size_t o = 0, i;

	for (i = 0; i < n && o + 5 < outlen; i++) {
		unsigned char c = s[i];

		if (c == '\t')
			o += snprintf(out + o, outlen - o, "\\t");
		else if (c < 0x20 || c > 0x7e)
			o += snprintf(out + o, outlen - o, "\\x%02x", c);
		else
			out[o++] = c;
	}
	if (i < n && o + 4 < outlen)
		o += snprintf(out + o, outlen - o, "...");
	out[o] = '\0';
}

/* Sleep @us microseconds with nanosleep(2), @n times. */
static inline void sp_nanosleep_n(int n, long us)
{
	struct timespec ts = {
		.tv_sec = us / 1000000,
		.tv_nsec = (us % 1000000) * 1000,
	};

	while (n-- > 0)
		nanosleep(&ts, NULL);
}

static inline double sp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Parse an unsigned decimal of exactly @n bytes: digits only, no sign, no
 * leading zero (the kernel prints none), no overflow past @max.
 */
static inline bool sp_parse_udec(const char *s, size_t n,
				 unsigned long long max,
				 unsigned long long *out)
{
	unsigned long long v = 0;
	size_t i;

	if (n == 0 || n > 20)
		return false;
	if (n > 1 && s[0] == '0')
		return false;
	for (i = 0; i < n; i++) {
		unsigned int d;

		if (s[i] < '0' || s[i] > '9')
			return false;
		d = s[i] - '0';
		/* v * 10 + d > max, without overflow (d > max: max < 9) */
		if (d > max || v > (max - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* Lowercase hex digits only, at least one, fits in 64 bits. */
static inline bool sp_parse_lhex(const char *s, size_t n,
				 unsigned long long *out)
{
	unsigned long long v = 0;
	size_t i;

	if (n == 0 || n > 16)
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c >= '0' && c <= '9')
			v = v * 16 + (c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (c - 'a' + 10);
		else
			return false;
	}
	*out = v;
	return true;
}

/* ---------------------------------------------------------------------- */
/* files */

/* Read a whole file. 0 or -errno. *buf is NUL terminated, caller frees. */
static inline int sp_read_file(const char *path, char **buf, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *b = malloc(cap + 1);
	int fd, ret = 0;

	if (!b)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		free(b);
		return ret;
	}
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *nb = realloc(b, 2 * cap + 1);

			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	if (ret) {
		free(b);
		return ret;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/*
 * One write(2) (or pwrite(2) at @off when @off >= 0) of @len bytes.
 * Returns the number of bytes written, or -errno.
 */
static inline ssize_t sp_write_raw(const char *path, const void *buf,
				   size_t len, off_t off)
{
	ssize_t r;
	int fd, err;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (off >= 0)
		r = pwrite(fd, buf, len, off);
	else
		r = write(fd, buf, len);
	err = errno;
	close(fd);
	return r < 0 ? -err : r;
}

/* Write a string in one write(2). 0, -EIO for a short write, or -errno. */
static inline int sp_write(const char *path, const char *s)
{
	ssize_t r = sp_write_raw(path, s, strlen(s), -1);

	if (r < 0)
		return r;
	return (size_t)r == strlen(s) ? 0 : -EIO;
}

/* Read a file holding exactly "<unsigned decimal>\n". 0 or -errno/-EPROTO. */
static inline int sp_read_uint(const char *path, unsigned long long *val)
{
	size_t len = 0;
	char *b = NULL;
	int ret;

	ret = sp_read_file(path, &b, &len);
	if (ret)
		return ret;
	if (len < 2 || b[len - 1] != '\n' ||
	    !sp_parse_udec(b, len - 1, ~0ULL, val))
		ret = -EPROTO;
	free(b);
	return ret;
}

static inline int sp_write_uint(const char *path, unsigned long long v)
{
	char s[32];

	snprintf(s, sizeof(s), "%llu", v);
	return sp_write(path, s);
}

#define SP_CPUS_MAX	1024

/*
 * Read a CPU list such as /sys/devices/system/cpu/online ("0-1,4\n"):
 * set[cpu] for each CPU in it, the number of them in *nr.  0, or -errno,
 * or -EPROTO for anything but ranges of decimal CPUs below SP_CPUS_MAX.
 */
static inline int sp_read_cpulist(const char *path, bool set[SP_CPUS_MAX],
				  unsigned int *nr)
{
	unsigned long long lo, hi;
	size_t len = 0, i = 0, j;
	char *b = NULL;
	int ret;

	memset(set, 0, SP_CPUS_MAX * sizeof(*set));
	*nr = 0;
	ret = sp_read_file(path, &b, &len);
	if (ret)
		return ret;
	if (len < 2 || b[len - 1] != '\n')
		ret = -EPROTO;
	while (!ret && i < len - 1) {
		for (j = i; j < len - 1 && b[j] >= '0' && b[j] <= '9'; j++)
			;
		if (!sp_parse_udec(b + i, j - i, SP_CPUS_MAX - 1, &lo)) {
			ret = -EPROTO;
			break;
		}
		hi = lo;
		i = j;
		if (b[i] == '-') {
			for (j = ++i; j < len - 1 && b[j] >= '0' && b[j] <= '9'; j++)
				;
			if (!sp_parse_udec(b + i, j - i, SP_CPUS_MAX - 1, &hi) ||
			    hi < lo) {
				ret = -EPROTO;
				break;
			}
			i = j;
		}
		for (; lo <= hi; lo++) {
			*nr += !set[lo];
			set[lo] = true;
		}
		if (b[i] == ',' && i + 1 < len - 1)
			i++;
		else if (i != len - 1)
			ret = -EPROTO;
	}
	free(b);
	return ret;
}

/* A word: lowercase letters and '_', starting with a letter. */
static inline bool sp_is_word(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || !islower((unsigned char)s[0]))
		return false;
	for (i = 0; i < n; i++)
		if (!islower((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/*
 * Read a file holding exactly "<word>\n" (the mode sysctl) into @out
 * (@n bytes).  0 or -errno/-EPROTO.
 */
static inline int sp_read_word(const char *path, char *out, size_t n)
{
	size_t len = 0;
	char *b = NULL;
	int ret;

	ret = sp_read_file(path, &b, &len);
	if (ret)
		return ret;
	if (len < 2 || b[len - 1] != '\n' || !sp_is_word(b, len - 1) ||
	    len > n)
		ret = -EPROTO;
	else
		snprintf(out, n, "%.*s", (int)(len - 1), b);
	free(b);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* field checks */

static inline bool sp_func_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

static inline bool sp_mod_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-';
}

/*
 * A symbol as %pS prints it: "func+0xoff/0xlen", "func+0xoff/0xlen [mod]",
 * "func+0xoff/0xlen [mod build-id]" (CONFIG_STACKTRACE_BUILD_ID: 40
 * lowercase hex digits), a bare "0x..." address, or SP_SYM_UNLOADED, the
 * kernel's name for a call site of an unloaded module that it had no memory
 * to keep the symbol of.  Fills func/off/len/module of @e (func and module
 * stay "" for the last two).
 */
static inline bool sp_parse_symbol(const char *s, size_t n,
				   struct sp_entry *e, const char **why)
{
	size_t i = 0, j;

	if (n == 0 || n >= SP_SYM_MAX) {
		*why = "symbol empty or too long";
		return false;
	}
	memcpy(e->symbol, s, n);
	e->symbol[n] = '\0';
	e->func[0] = '\0';
	e->module[0] = '\0';
	e->off = 0;
	e->len = 0;

	if (n == strlen(SP_SYM_UNLOADED) && !memcmp(s, SP_SYM_UNLOADED, n))
		return true;
	if (n > 2 && s[0] == '0' && s[1] == 'x') {
		unsigned long long a;

		if (sp_parse_lhex(s + 2, n - 2, &a))
			return true;
		/* a symbol may start with "0x"? Not in the kernel: refuse. */
		*why = "bad bare address symbol";
		return false;
	}

	while (i < n && sp_func_char(s[i]))
		i++;
	if (i == 0 || i >= SP_NAME_MAX || i == n || s[i] != '+') {
		*why = "symbol: bad function name";
		return false;
	}
	memcpy(e->func, s, i);
	e->func[i] = '\0';
	i++;
	if (i + 2 > n || s[i] != '0' || s[i + 1] != 'x') {
		*why = "symbol: no +0x offset";
		return false;
	}
	i += 2;
	j = i;
	while (j < n && s[j] != '/')
		j++;
	if (j == n || !sp_parse_lhex(s + i, j - i, &e->off)) {
		*why = "symbol: bad offset";
		return false;
	}
	i = j + 1;
	if (i + 2 > n || s[i] != '0' || s[i + 1] != 'x') {
		*why = "symbol: no /0x length";
		return false;
	}
	i += 2;
	j = i;
	while (j < n && s[j] != ' ')
		j++;
	if (!sp_parse_lhex(s + i, j - i, &e->len) || e->len == 0) {
		*why = "symbol: bad length";
		return false;
	}
	if (j == n)
		return true;
	/* " [module]" or " [module build-id]" */
	i = j + 1;
	if (i >= n || s[i] != '[' || s[n - 1] != ']') {
		*why = "symbol: bad \" [module]\" suffix";
		return false;
	}
	i++;
	for (j = i; j < n - 1 && s[j] != ' '; j++) {
		if (!sp_mod_char(s[j])) {
			*why = "symbol: bad module name";
			return false;
		}
	}
	if (j == i || j - i >= SP_MOD_MAX) {
		*why = "symbol: module name empty or too long";
		return false;
	}
	memcpy(e->module, s + i, j - i);
	e->module[j - i] = '\0';
	if (j == n - 1)
		return true;
	/* the build ID: %20phN */
	for (i = j + 1; i < n - 1; i++) {
		if (!isdigit((unsigned char)s[i]) && (s[i] < 'a' || s[i] > 'f'))
			break;
	}
	if (i != n - 1 || n - 1 - (j + 1) != 2 * SP_BUILD_ID_SIZE) {
		*why = "symbol: build ID is not 40 lowercase hex digits";
		e->module[0] = '\0';
		return false;
	}
	return true;
}

static inline bool sp_needs_escape(unsigned char c)
{
	return c < 0x21 || c > 0x7e || c == '\\';
}

/*
 * comm: bytes 0x21..0x7e printed as is except '\', everything else as '\'
 * plus three octal digits.  Canonical: no escape for a byte that needs
 * none.  Decoded length at most TASK_COMM_LEN - 1, no NUL.
 */
static inline bool sp_parse_comm(const char *s, size_t n, struct sp_entry *e,
				 const char **why)
{
	size_t i, o = 0;

	if (n > SP_COMM_MAX * 4) {
		*why = "comm too long";
		return false;
	}
	memcpy(e->comm_raw, s, n);
	e->comm_raw[n] = '\0';
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (o >= SP_COMM_MAX) {
			*why = "comm longer than TASK_COMM_LEN - 1";
			return false;
		}
		if (c == '\\') {
			unsigned int v = 0, k;

			for (k = 1; k <= 3; k++) {
				if (i + k >= n || s[i + k] < '0' || s[i + k] > '7') {
					*why = "comm: escape is not \\ooo";
					return false;
				}
				v = v * 8 + (s[i + k] - '0');
			}
			if (v > 0377 || v == 0) {
				*why = "comm: escape out of range or NUL";
				return false;
			}
			if (!sp_needs_escape(v)) {
				*why = "comm: escape of a printable byte";
				return false;
			}
			e->comm[o++] = v;
			i += 3;
			continue;
		}
		if (sp_needs_escape(c)) {
			*why = "comm: unescaped byte outside 0x21..0x7e";
			return false;
		}
		e->comm[o++] = c;
	}
	e->comm[o] = '\0';
	return true;
}

/* Split a line into exactly @want TAB separated fields. */
static inline bool sp_split(const char *s, size_t n, int want,
			    const char **f, size_t *fl)
{
	int k = 0;
	size_t start = 0, i;

	for (i = 0; i <= n; i++) {
		if (i == n || s[i] == '\t') {
			if (k == want)
				return false;
			f[k] = s + start;
			fl[k] = i - start;
			k++;
			start = i + 1;
		}
	}
	return k == want;
}

/* The kind named by @s (@n bytes), or -1. */
static inline int sp_parse_kind(const char *s, size_t n)
{
	int k;

	for (k = 0; k < SP_NR_KINDS; k++)
		if (n == strlen(sp_kind_names[k]) &&
		    !memcmp(s, sp_kind_names[k], n))
			return k;
	return -1;
}

static inline const char *sp_kind_name(int kind)
{
	return kind >= 0 && kind < SP_NR_KINDS ? sp_kind_names[kind] : "?";
}

/*
 * A histogram field (hist, wait_hist or delay_hist): "-", or K:N pairs with
 * K ascending in [9, 34] and N non-zero, comma separated.  Fills @hist
 * ([K - SP_HIST_MIN_K]) and sets *@has for a field other than "-".
 */
static inline bool sp_parse_hist(const char *s, size_t n,
				 unsigned long long *hist, bool *has,
				 const char **why)
{
	unsigned long long k, num;
	size_t i = 0, j, colon;
	int last = -1;

	if (n == 1 && s[0] == '-')
		return true;
	while (i < n) {
		for (j = i; j < n && s[j] != ','; j++)
			;
		for (colon = i; colon < j && s[colon] != ':'; colon++)
			;
		if (colon == j ||
		    !sp_parse_udec(s + i, colon - i, SP_HIST_MIN_K +
				   SP_HIST_BUCKETS - 1, &k) ||
		    k < SP_HIST_MIN_K ||
		    !sp_parse_udec(s + colon + 1, j - colon - 1, ~0ULL, &num) ||
		    !num || (int)k <= last || (j < n && j + 1 == n)) {
			*why = "hist is not \"-\" or ascending K:N pairs";
			return false;
		}
		hist[k - SP_HIST_MIN_K] = num;
		last = k;
		i = j + 1;
	}
	if (last < 0) {
		*why = "empty hist";
		return false;
	}
	*has = true;
	return true;
}

/* Do two histograms hold as many calls?  Their N summed without overflow. */
static inline bool sp_hist_same_sum(const unsigned long long *a,
				    const unsigned long long *b)
{
	unsigned long long sa = 0, sb = 0, ca = 0, cb = 0;
	int k;

	for (k = 0; k < SP_HIST_BUCKETS; k++) {
		sa += a[k];
		ca += sa < a[k];
		sb += b[k];
		cb += sb < b[k];
	}
	return sa == sb && ca == cb;
}

/*
 * Version 2's split of off-CPU time, as the spec defines it: each call's
 * time is its wait plus its run delay, so wait_ns + delay_ns is total_ns,
 * each longest is at most max_ns and max_ns at most their sum; a yield
 * never waits; wait_hist and delay_hist are "-" exactly where hist is, and
 * hold as many calls as it.
 */
static inline bool sp_check_split(const struct sp_entry *e, bool exact,
				  const char **why)
{
	if (e->kind == SP_KIND_YIELD && (e->wait_ns || e->wait_max_ns)) {
		*why = "a wait on a yield line";
		return false;
	}
	if (e->has_wait_hist != e->has_hist ||
	    e->has_delay_hist != e->has_hist) {
		*why = "wait_hist or delay_hist is \"-\" where hist is not, or the reverse";
		return false;
	}
	/*
	 * A read while accounting is on may copy a call's off-CPU time
	 * before its split and its buckets (the spec): the sums and
	 * maxima agree in a snapshot taken with accounting off only.
	 */
	if (!exact)
		return true;
	if (e->wait_ns > e->total_ns || e->total_ns - e->wait_ns != e->delay_ns) {
		*why = "wait_ns + delay_ns is not total_ns";
		return false;
	}
	if (e->wait_max_ns > e->max_ns) {
		*why = "wait_max_ns > max_ns";
		return false;
	}
	if (e->delay_max_ns > e->max_ns) {
		*why = "delay_max_ns > max_ns";
		return false;
	}
	/* wait_max_ns <= max_ns: no overflow */
	if (e->max_ns - e->wait_max_ns > e->delay_max_ns) {
		*why = "max_ns > wait_max_ns + delay_max_ns";
		return false;
	}
	if (!sp_hist_same_sum(e->wait_hist, e->hist)) {
		*why = "wait_hist holds another number of calls than hist";
		return false;
	}
	if (!sp_hist_same_sum(e->delay_hist, e->hist)) {
		*why = "delay_hist holds another number of calls than hist";
		return false;
	}
	return true;
}

/*
 * The fields of a data line (@f points at pid) of format version @major:
 * pid tgid kind count total_ns max_ns, in version 2 (and raw) then
 * wait_ns wait_max_ns delay_ns delay_max_ns, then hist, in version 2
 * wait_hist delay_hist, then address symbol comm: SP_NR_FIELDS_V1 fields
 * in version 1, SP_NR_FIELDS in 2.  @exact: also the sums and maxima that
 * agree in a snapshot taken with accounting off only.  @why is set on error.
 */
static inline bool sp_parse_entry_fields(const char **f, size_t *fl,
					 struct sp_entry *e, unsigned int major,
					 bool exact, const char **why)
{
	static const char * const split_bad[] = {
		"bad wait_ns", "bad wait_max_ns", "bad delay_ns",
		"bad delay_max_ns",
	};
	unsigned long long *split[] = {
		&e->wait_ns, &e->wait_max_ns, &e->delay_ns, &e->delay_max_ns,
	};
	bool v2 = major >= 2;
	unsigned long long v;
	size_t i, h;

	if (!sp_parse_udec(f[0], fl[0], 0xffffffffULL, &v)) {
		*why = "bad pid";
		return false;
	}
	e->pid = v;
	if (!sp_parse_udec(f[1], fl[1], 0xffffffffULL, &v)) {
		*why = "bad tgid";
		return false;
	}
	e->tgid = v;
	e->kind = sp_parse_kind(f[2], fl[2]);
	if (e->kind < 0) {
		*why = "bad kind";
		return false;
	}
	if (!sp_parse_udec(f[3], fl[3], ~0ULL, &e->count)) {
		*why = "bad count";
		return false;
	}
	if (!sp_parse_udec(f[4], fl[4], ~0ULL, &e->total_ns)) {
		*why = "bad total_ns";
		return false;
	}
	if (!sp_parse_udec(f[5], fl[5], ~0ULL, &e->max_ns)) {
		*why = "bad max_ns";
		return false;
	}
	for (i = 0; v2 && i < ARRAY_SIZE(split); i++) {
		if (!sp_parse_udec(f[6 + i], fl[6 + i], ~0ULL, split[i])) {
			*why = split_bad[i];
			return false;
		}
	}
	/* only schedule() calls are timed */
	if ((e->kind == SP_KIND_PREEMPT || e->kind == SP_KIND_COND_RESCHED) &&
	    (e->total_ns || e->max_ns)) {
		*why = "off-CPU time on a preempt or cond_resched line";
		return false;
	}
	if ((e->kind == SP_KIND_PREEMPT || e->kind == SP_KIND_COND_RESCHED) &&
	    (e->wait_ns || e->wait_max_ns || e->delay_ns || e->delay_max_ns)) {
		*why = "wait or run delay on a preempt or cond_resched line";
		return false;
	}
	h = v2 ? 10 : 6;	/* hist */
	if (!sp_parse_hist(f[h], fl[h], e->hist, &e->has_hist, why))
		return false;
	if (v2) {
		if (!sp_parse_hist(f[h + 1], fl[h + 1], e->wait_hist,
				   &e->has_wait_hist, why)) {
			*why = "wait_hist is not \"-\" or ascending K:N pairs";
			return false;
		}
		if (!sp_parse_hist(f[h + 2], fl[h + 2], e->delay_hist,
				   &e->has_delay_hist, why)) {
			*why = "delay_hist is not \"-\" or ascending K:N pairs";
			return false;
		}
		if (!sp_check_split(e, exact, why))
			return false;
		h += 2;
	}
	if (fl[h + 1] != 16 || !sp_parse_lhex(f[h + 1], 16, &e->address)) {
		*why = "address is not 16 lowercase hex digits";
		return false;
	}
	if (!sp_parse_symbol(f[h + 2], fl[h + 2], e, why))
		return false;
	return sp_parse_comm(f[h + 3], fl[h + 3], e, why);
}

/* ---------------------------------------------------------------------- */
/* whole files */

struct sp_lines {
	const char *buf;
	size_t len, pos;
	unsigned int lineno;
};

/* Next line, without its '\n'. False at the end; *bad if not '\n' ended. */
static inline bool sp_next_line(struct sp_lines *l, const char **s,
				size_t *n, bool *bad)
{
	const char *nl;

	*bad = false;
	if (l->pos >= l->len)
		return false;
	nl = memchr(l->buf + l->pos, '\n', l->len - l->pos);
	l->lineno++;
	*s = l->buf + l->pos;
	if (!nl) {
		*n = l->len - l->pos;
		*bad = true;
		l->pos = l->len;
		return true;
	}
	*n = nl - *s;
	l->pos += *n + 1;
	return true;
}

static inline void sp_view_free(struct sp_view *v)
{
	free(v->e);
	v->e = NULL;
	v->nr = 0;
}

static inline void sp_stats_free(struct sp_stats *s)
{
	free(s->cpu);
	s->cpu = NULL;
	s->nr = 0;
}

static inline struct sp_entry *sp_view_add(struct sp_view *v, size_t *cap)
{
	if (v->nr == *cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		struct sp_entry *ne = realloc(v->e, nc * sizeof(*ne));

		if (!ne)
			return NULL;
		v->e = ne;
		*cap = nc;
	}
	return &v->e[v->nr++];
}

/*
 * The next data line (at *@s, *@n bytes), split into @nf TAB separated
 * fields, and a zeroed entry of @v for it: 1, 0 at the end, -1 with @why
 * set.
 */
static inline int sp_next_entry(struct sp_lines *l, const char **s, size_t *n,
				struct sp_view *v, size_t *cap, int nf,
				const char **f, size_t *fl, struct sp_entry **e,
				const char **why)
{
	bool bad;

	if (!sp_next_line(l, s, n, &bad))
		return 0;
	if (bad) {
		*why = "no newline at the end";
		return -1;
	}
	if (!sp_split(*s, *n, nf, f, fl)) {
		*why = "not as many TAB separated fields as the header";
		return -1;
	}
	*e = sp_view_add(v, cap);
	if (!*e) {
		*why = "out of memory";
		return -1;
	}
	memset(*e, 0, sizeof(**e));
	return 1;
}

/*
 * The error of a parser: "@what: line @lineno: <@fmt...>: "<the line>"",
 * the line (@s, @n bytes) shown as sp_show_line() shows it.
 */
static inline void __printf(6, 7)
sp_line_err(char *err, const char *what, unsigned int lineno,
	    const char *s, size_t n, const char *fmt, ...)
{
	char shown[200], msg[SP_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sp_show_line(shown, sizeof(shown), s, n);
	sp_err(err, "%s: line %u: %s: \"%s\"", what, lineno, msg, shown);
}

/* In the parsers below: the error for the line @s (@n bytes) of @l. */
#define SP_LINE_ERR(fmt, ...)						\
	sp_line_err(err, what, l.lineno, s, n, fmt, ##__VA_ARGS__)

/* The summary names, in their order. */
static const char * const sp_summary_names[] = {
	"enabled", "mode", "time", "kinds", "hist", "cpus", "capacity", "used",
	"entries", "dropped",
};

/*
 * The column headers of /proc/sched_points, versions 2 and 1, and of
 * debugfs raw, which is always the kernel's current format (version 2).
 */
#define SP_HDR		"pid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\t"	\
			"wait_ns\twait_max_ns\tdelay_ns\tdelay_max_ns\t"	\
			"hist\twait_hist\tdelay_hist\taddress\tsymbol\tcomm"
#define SP_HDR_V1	"pid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\t"	\
			"hist\taddress\tsymbol\tcomm"
#define SP_RAW_HDR	"cpu\t" SP_HDR

/* Where the value of the numeric summary line @name goes. */
static inline unsigned long long *sp_summary_slot(struct sp_view *v,
						  const char *name)
{
	if (!strcmp(name, "enabled"))
		return &v->enabled;
	if (!strcmp(name, "time"))
		return &v->time;
	if (!strcmp(name, "kinds"))
		return &v->kinds;
	if (!strcmp(name, "hist"))
		return &v->hist;
	if (!strcmp(name, "cpus"))
		return &v->cpus;
	if (!strcmp(name, "capacity"))
		return &v->capacity;
	if (!strcmp(name, "used"))
		return &v->used;
	if (!strcmp(name, "entries"))
		return &v->entries;
	return &v->dropped;
}

/* Is @s (@n bytes) exactly @hdr? */
static inline bool sp_is_header(const char *s, size_t n, const char *hdr)
{
	return n == strlen(hdr) && !memcmp(s, hdr, n);
}

/*
 * Parse /proc/sched_points text, version 1, 2 or a minor of them (M.N):
 * the column header and data lines of the major.  0, or -1 with a
 * message in @err (SP_ERR_MAX bytes).  @what names the file in messages.
 */
static inline int sp_parse_view(const char *buf, size_t len,
				struct sp_view *v, char *err, const char *what)
{
	static const char ver[] = "sched_points version ";
	struct sp_lines l = { .buf = buf, .len = len };
	const char * const *names = sp_summary_names;
	const size_t nnames = ARRAY_SIZE(sp_summary_names);
	size_t cap = 0, next = 0;
	const char *s = "", *hdr = SP_HDR;
	int nf = SP_NR_FIELDS;
	size_t n = 0;
	bool bad;

	memset(v, 0, sizeof(*v));
	if (memchr(buf, '\0', len)) {
		sp_err(err, "%s: NUL byte in the text", what);
		return -1;
	}

	/* version line */
	if (!sp_next_line(&l, &s, &n, &bad)) {
		SP_LINE_ERR("empty file");
		goto fail;
	}
	if (bad) {
		SP_LINE_ERR("no newline at the end");
		goto fail;
	}
	if (n <= strlen(ver) || strncmp(s, ver, strlen(ver))) {
		SP_LINE_ERR("bad version line");
		goto fail;
	}
	{
		const char *p = s + strlen(ver);
		size_t rest = n - strlen(ver);
		const char *dot = memchr(p, '.', rest);
		unsigned long long a, b = 0;

		if (!sp_parse_udec(p, dot ? (size_t)(dot - p) : rest, 0xffff,
				   &a)) {
			SP_LINE_ERR("bad major version");
			goto fail;
		}
		if (dot && !sp_parse_udec(dot + 1, rest - (dot + 1 - p),
					  0xffff, &b)) {
			SP_LINE_ERR("bad minor version");
			goto fail;
		}
		if (a < 1 || a > SP_VERSION_MAJOR) {
			SP_LINE_ERR("unknown major version %llu (versions 1 to %d are read)",
				    a, SP_VERSION_MAJOR);
			goto fail;
		}
		v->major = a;
		v->minor = b;
		v->has_minor = dot;
		if (v->major < 2) {
			hdr = SP_HDR_V1;
			nf = SP_NR_FIELDS_V1;
		}
	}

	/* summary, up to the column header */
	for (;;) {
		const char *sp, *val;
		unsigned long long num;
		size_t k, nl, vl;

		if (!sp_next_line(&l, &s, &n, &bad)) {
			SP_LINE_ERR("end of file before the column header");
			goto fail;
		}
		if (bad) {
			SP_LINE_ERR("no newline at the end");
			goto fail;
		}
		/* no summary line holds a TAB: this is the header or bad */
		if (n >= 4 && !memcmp(s, "pid\t", 4)) {
			char want[200];

			if (sp_is_header(s, n, hdr))
				break;
			sp_show_line(want, sizeof(want), hdr, strlen(hdr));
			SP_LINE_ERR("bad column header (version %u has \"%s\")",
				    v->major, want);
			goto fail;
		}
		sp = memchr(s, ' ', n);
		if (!sp || sp == s) {
			SP_LINE_ERR("summary line is not \"<name> <value>\"");
			goto fail;
		}
		nl = sp - s;
		val = sp + 1;
		vl = n - nl - 1;
		for (k = 0; k < nl; k++)
			if (!(islower((unsigned char)s[k]) || s[k] == '_' ||
			      (k && isdigit((unsigned char)s[k])))) {
				SP_LINE_ERR("bad summary name");
				goto fail;
			}
		for (k = 0; k < nnames; k++)
			if (nl == strlen(names[k]) && !memcmp(s, names[k], nl))
				break;
		/* 2: entries of exited tasks folded into pid 0 lines */
		if (k == nnames && v->major >= 2 &&
		    nl == strlen("folded") && !memcmp(s, "folded", nl)) {
			if (!sp_parse_udec(val, vl, ~0ULL, &v->folded)) {
				SP_LINE_ERR("bad summary value");
				goto fail;
			}
			continue;
		}
		if (k == nnames) {
			/* unknown names only come with a later minor */
			if (!v->has_minor || v->minor == 0) {
				SP_LINE_ERR("unknown summary name in version %u.0",
					    v->major);
				goto fail;
			}
			if (!sp_parse_udec(val, vl, ~0ULL, &num) &&
			    !sp_is_word(val, vl)) {
				SP_LINE_ERR("bad summary value");
				goto fail;
			}
			continue;
		}
		if (k != next) {
			SP_LINE_ERR("summary name out of order or repeated (want \"%s\")",
				    next < nnames ? names[next] : "column header");
			goto fail;
		}
		if (!strcmp(names[k], "mode")) {
			if (!sp_is_word(val, vl) || vl >= SP_WORD_MAX) {
				SP_LINE_ERR("mode is not a word");
				goto fail;
			}
			memcpy(v->mode, val, vl);
			v->mode[vl] = '\0';
			if (v->minor == 0 && strcmp(v->mode, "caller") &&
			    strcmp(v->mode, "effective")) {
				SP_LINE_ERR("mode is not caller or effective");
				goto fail;
			}
		} else {
			if (!sp_parse_udec(val, vl, ~0ULL, &num)) {
				SP_LINE_ERR("bad summary value");
				goto fail;
			}
			if (num > 1 && (!strcmp(names[k], "enabled") ||
					!strcmp(names[k], "time") ||
					!strcmp(names[k], "hist") ||
					!strcmp(names[k], "kinds"))) {
				SP_LINE_ERR("%s is not 0 or 1", names[k]);
				goto fail;
			}
			*sp_summary_slot(v, names[k]) = num;
		}
		next++;
	}
	if (next != nnames) {
		SP_LINE_ERR("summary misses \"%s\"", names[next]);
		goto fail;
	}
	if (v->cpus == 0) {
		SP_LINE_ERR("cpus is 0");
		goto fail;
	}
	if (v->capacity < SP_MIN_ENTRIES || v->capacity > SP_MAX_ENTRIES ||
	    (v->capacity & (v->capacity - 1))) {
		SP_LINE_ERR("capacity %llu is not a power of two in [16, 1048576]",
			    v->capacity);
		goto fail;
	}
	if (v->used > v->cpus * v->capacity) {
		SP_LINE_ERR("used %llu > cpus * capacity", v->used);
		goto fail;
	}
	if (v->entries > v->used) {
		SP_LINE_ERR("entries %llu > used %llu (merging only shrinks)",
			    v->entries, v->used);
		goto fail;
	}

	/* data lines */
	while (sp_next_line(&l, &s, &n, &bad)) {
		const char *f[SP_MAX_FIELDS], *why = "";
		size_t fl[SP_MAX_FIELDS];
		struct sp_entry *e;

		if (bad) {
			SP_LINE_ERR("no newline at the end");
			goto fail;
		}
		if (!sp_split(s, n, nf, f, fl)) {
			SP_LINE_ERR("not %d TAB separated fields", nf);
			goto fail;
		}
		e = sp_view_add(v, &cap);
		if (!e) {
			SP_LINE_ERR("out of memory");
			goto fail;
		}
		memset(e, 0, sizeof(*e));
		if (!sp_parse_entry_fields(f, fl, e, v->major, !v->enabled,
					   &why)) {
			SP_LINE_ERR("%s", why);
			goto fail;
		}
		/* lines of exited tasks (pid 0) came with version 2 */
		if (!e->pid && v->major < 2) {
			SP_LINE_ERR("pid 0 (exited tasks) in version %u", v->major);
			goto fail;
		}
		if (v->nr > 1) {
			const struct sp_entry *p = &v->e[v->nr - 2];

			/*
			 * count desc, pid, address, kind.  The kernel sorts
			 * by the real address: where it prints zeros, the
			 * order of address and kind cannot be checked.
			 */
			if (p->count < e->count ||
			    (p->count == e->count && p->pid > e->pid) ||
			    (p->count == e->count && p->pid == e->pid &&
			     p->address > e->address) ||
			    (p->count == e->count && p->pid == e->pid &&
			     p->address == e->address && e->address &&
			     p->kind > e->kind)) {
				SP_LINE_ERR("not sorted by count desc, pid, address, kind");
				goto fail;
			}
		}
	}
	if (v->nr != v->entries) {
		sp_err(err, "%s: summary says entries %llu, %zu data lines",
		       what, v->entries, v->nr);
		goto fail;
	}
	return 0;
fail:
	sp_view_free(v);
	return -1;
}

/*
 * Parse debugfs raw: SP_RAW_HDR, then the fields of /proc/sched_points
 * preceded by cpu, in the kernel's current format (raw has no version
 * line: version 2, SP_VERSION_MAJOR).  Fills e[] (with cpu); summary
 * fields stay 0.
 */
static inline int sp_parse_raw(const char *buf, size_t len,
			       struct sp_view *v, char *err, const char *what)
{
	struct sp_lines l = { .buf = buf, .len = len };
	const char *s = "";
	size_t n = 0, cap = 0;
	bool bad;

	memset(v, 0, sizeof(*v));
	if (memchr(buf, '\0', len)) {
		sp_err(err, "%s: NUL byte in the text", what);
		return -1;
	}
	if (!sp_next_line(&l, &s, &n, &bad)) {
		SP_LINE_ERR("empty file");
		goto fail;
	}
	if (bad || !sp_is_header(s, n, SP_RAW_HDR)) {
		SP_LINE_ERR("bad column header (raw has cpu and the header of version %d)",
			    SP_VERSION_MAJOR);
		goto fail;
	}
	while (sp_next_line(&l, &s, &n, &bad)) {
		const char *f[SP_MAX_FIELDS], *why = "";
		unsigned long long cpu;
		size_t fl[SP_MAX_FIELDS];
		struct sp_entry *e;

		if (bad) {
			SP_LINE_ERR("no newline at the end");
			goto fail;
		}
		if (!sp_split(s, n, SP_MAX_FIELDS, f, fl)) {
			SP_LINE_ERR("not %d TAB separated fields", SP_MAX_FIELDS);
			goto fail;
		}
		if (!sp_parse_udec(f[0], fl[0], 0xffffffffULL, &cpu)) {
			SP_LINE_ERR("bad cpu");
			goto fail;
		}
		e = sp_view_add(v, &cap);
		if (!e) {
			SP_LINE_ERR("out of memory");
			goto fail;
		}
		memset(e, 0, sizeof(*e));
		e->cpu = cpu;
		/* no summary says whether accounting was off: as if on */
		if (!sp_parse_entry_fields(f + 1, fl + 1, e, SP_VERSION_MAJOR,
					   false, &why)) {
			SP_LINE_ERR("%s", why);
			goto fail;
		}
	}
	return 0;
fail:
	sp_view_free(v);
	return -1;
}

/* Parse debugfs stats. */
static inline int sp_parse_stats(const char *buf, size_t len,
				 struct sp_stats *st, char *err,
				 const char *what)
{
	static const char hdr[] = "cpu\tused\tcapacity\tdropped\tmax_probe\tbytes";
	struct sp_lines l = { .buf = buf, .len = len };
	unsigned long long capacity = 0;
	const char *s = "";
	size_t n = 0, cap = 0;
	bool bad;

	memset(st, 0, sizeof(*st));
	if (memchr(buf, '\0', len)) {
		sp_err(err, "%s: NUL byte in the text", what);
		return -1;
	}
	if (!sp_next_line(&l, &s, &n, &bad)) {
		SP_LINE_ERR("empty file");
		goto fail;
	}
	if (bad || n != strlen(hdr) || memcmp(s, hdr, n)) {
		SP_LINE_ERR("bad column header");
		goto fail;
	}
	while (sp_next_line(&l, &s, &n, &bad)) {
		unsigned long long val[6];
		struct sp_cpu_stats *c;
		const char *f[6];
		size_t fl[6];
		int k;

		if (bad) {
			SP_LINE_ERR("no newline at the end");
			goto fail;
		}
		if (!sp_split(s, n, 6, f, fl)) {
			SP_LINE_ERR("not 6 TAB separated fields");
			goto fail;
		}
		for (k = 0; k < 6; k++)
			if (!sp_parse_udec(f[k], fl[k], ~0ULL, &val[k])) {
				SP_LINE_ERR("field %d is not an unsigned decimal",
					    k + 1);
				goto fail;
			}
		if (st->nr == cap) {
			size_t nc = cap ? cap * 2 : 64;
			struct sp_cpu_stats *nb;

			nb = realloc(st->cpu, nc * sizeof(*nb));
			if (!nb) {
				SP_LINE_ERR("out of memory");
				goto fail;
			}
			st->cpu = nb;
			cap = nc;
		}
		c = &st->cpu[st->nr++];
		c->cpu = val[0];
		c->used = val[1];
		c->capacity = val[2];
		c->dropped = val[3];
		c->max_probe = val[4];
		c->bytes = val[5];
		if (st->nr > 1 && c->cpu <= st->cpu[st->nr - 2].cpu) {
			SP_LINE_ERR("cpu numbers not increasing");
			goto fail;
		}
		st->used += c->used;
		st->dropped += c->dropped;
		/* capacity 0: a CPU without a table, which holds nothing */
		if (!c->capacity) {
			if (c->used || c->max_probe || c->bytes) {
				SP_LINE_ERR("a CPU without a table has used, max_probe or bytes");
				goto fail;
			}
			continue;
		}
		if (c->capacity < SP_MIN_ENTRIES ||
		    c->capacity > SP_MAX_ENTRIES ||
		    (c->capacity & (c->capacity - 1))) {
			SP_LINE_ERR("capacity is not 0 or a power of two in [16, 1048576]");
			goto fail;
		}
		if (capacity && c->capacity != capacity) {
			SP_LINE_ERR("capacity differs between CPUs");
			goto fail;
		}
		capacity = c->capacity;
		if (c->used > c->capacity) {
			SP_LINE_ERR("used > capacity");
			goto fail;
		}
		if (c->max_probe > c->capacity) {
			SP_LINE_ERR("max_probe > capacity");
			goto fail;
		}
		/* an allocated table: at least a byte per entry */
		if (c->bytes < c->capacity) {
			SP_LINE_ERR("bytes < capacity");
			goto fail;
		}
	}
	if (!st->nr) {
		sp_err(err, "%s: no CPU line", what);
		goto fail;
	}
	return 0;
fail:
	sp_stats_free(st);
	return -1;
}

/* The column header of /proc/sched_points_blocked. */
#define SP_BLOCKED_HDR	"pid\ttgid\tkind\tstate\twaiting_ns\taddress\tsymbol\tcomm"
#define SP_BLOCKED_FIELDS	8

/*
 * The version line and the summary of /proc/sched_points_blocked, exactly:
 * "sched_points_blocked version 1", enabled, mode, time, entries, the
 * column header. Fills @v's summary; false with @why set otherwise.
 */
static inline bool sp_parse_blocked_head(struct sp_lines *l, struct sp_view *v,
					 const char **why)
{
	static const char * const names[] = { "enabled", "mode", "time", "entries" };
	const char *s;
	size_t n, i;
	bool bad;

	if (!sp_next_line(l, &s, &n, &bad) || bad ||
	    !sp_is_header(s, n, "sched_points_blocked version 1")) {
		*why = "not \"sched_points_blocked version 1\"";
		return false;
	}
	v->major = 1;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		unsigned long long num = 0;
		size_t nl = strlen(names[i]);

		if (!sp_next_line(l, &s, &n, &bad) || bad || n <= nl + 1 ||
		    memcmp(s, names[i], nl) || s[nl] != ' ') {
			*why = "summary is not enabled, mode, time, entries";
			return false;
		}
		s += nl + 1;
		n -= nl + 1;
		if (i == 1) {
			if (n >= SP_WORD_MAX || !sp_is_word(s, n)) {
				*why = "mode is not a word";
				return false;
			}
			memcpy(v->mode, s, n);
			v->mode[n] = '\0';
			continue;
		}
		if (!sp_parse_udec(s, n, i == 3 ? ~0ULL : 1, &num)) {
			*why = "bad summary value";
			return false;
		}
		*(i == 0 ? &v->enabled : i == 2 ? &v->time : &v->entries) = num;
	}
	if (!sp_next_line(l, &s, &n, &bad) || bad ||
	    !sp_is_header(s, n, SP_BLOCKED_HDR)) {
		*why = "bad column header";
		return false;
	}
	return true;
}

/*
 * Parse /proc/sched_points_blocked into @v: the summary, and one entry
 * per task with pid, tgid, kind, state, waiting_ns, address, symbol and
 * comm. Lines are sorted by waiting_ns (descending), then pid. Only calls
 * of schedule() are pending: a wait or a yield.
 */
static inline int sp_parse_blocked(const char *buf, size_t len,
				   struct sp_view *v, char *err,
				   const char *what)
{
	struct sp_lines l = { .buf = buf, .len = len };
	const char *s = "", *why = "";
	size_t n = 0, cap = 0;

	memset(v, 0, sizeof(*v));
	if (memchr(buf, '\0', len)) {
		sp_err(err, "%s: NUL byte in the text", what);
		return -1;
	}
	if (!sp_parse_blocked_head(&l, v, &why)) {
		SP_LINE_ERR("%s", why);
		goto fail;
	}
	for (;;) {
		const char *f[SP_BLOCKED_FIELDS];
		size_t fl[SP_BLOCKED_FIELDS];
		unsigned long long num;
		struct sp_entry *e;
		int got;

		got = sp_next_entry(&l, &s, &n, v, &cap, SP_BLOCKED_FIELDS, f,
				    fl, &e, &why);
		if (got < 0) {
			SP_LINE_ERR("%s", why);
			goto fail;
		}
		if (!got)
			break;
		if (!sp_parse_udec(f[0], fl[0], 0xffffffffULL, &num) || !num) {
			SP_LINE_ERR("bad pid");
			goto fail;
		}
		e->pid = num;
		if (!sp_parse_udec(f[1], fl[1], 0xffffffffULL, &num) || !num) {
			SP_LINE_ERR("bad tgid");
			goto fail;
		}
		e->tgid = num;
		e->kind = sp_parse_kind(f[2], fl[2]);
		if (e->kind < 0 || e->kind > SP_KIND_YIELD) {
			SP_LINE_ERR("kind is not a wait or yield");
			goto fail;
		}
		if (fl[3] != 1 || !strchr("RSDTtXZPI", f[3][0])) {
			SP_LINE_ERR("state is not one of RSDTtXZPI");
			goto fail;
		}
		e->state = f[3][0];
		if (!sp_parse_udec(f[4], fl[4], ~0ULL, &e->waiting_ns)) {
			SP_LINE_ERR("bad waiting_ns");
			goto fail;
		}
		if (fl[5] != 16 || !sp_parse_lhex(f[5], 16, &e->address)) {
			SP_LINE_ERR("address is not 16 lowercase hex digits");
			goto fail;
		}
		if (!sp_parse_symbol(f[6], fl[6], e, &why) ||
		    !sp_parse_comm(f[7], fl[7], e, &why)) {
			SP_LINE_ERR("%s", why);
			goto fail;
		}
		if (v->nr > 1) {
			const struct sp_entry *p = &v->e[v->nr - 2];

			if (p->waiting_ns < e->waiting_ns ||
			    (p->waiting_ns == e->waiting_ns && p->pid >= e->pid)) {
				SP_LINE_ERR("not sorted by waiting_ns desc, then pid");
				goto fail;
			}
		}
	}
	if (v->nr != v->entries) {
		sp_err(err, "%s: summary says entries %llu, %zu data lines",
		       what, v->entries, v->nr);
		goto fail;
	}
	if (v->nr && (!v->enabled || !v->time)) {
		sp_err(err, "%s: tasks listed with enabled %llu time %llu",
		       what, v->enabled, v->time);
		goto fail;
	}
	return 0;
fail:
	sp_view_free(v);
	return -1;
}

#undef SP_LINE_ERR

typedef int (*sp_view_parser)(const char *buf, size_t len, struct sp_view *v,
			      char *err, const char *what);

/* Read @path and parse it with @parse into @v: 0, or -1 with @err set. */
static inline int sp_read_parsed(const char *path, sp_view_parser parse,
				 struct sp_view *v, char *err)
{
	size_t len = 0;
	char *b = NULL;
	int ret;

	ret = sp_read_file(path, &b, &len);
	if (ret) {
		sp_err(err, "%s: read: %s", path, strerror(-ret));
		return -1;
	}
	ret = parse(b, len, v, err, path);
	free(b);
	return ret;
}

static inline int sp_read_view(const char *path, struct sp_view *v, char *err)
{
	return sp_read_parsed(path, sp_parse_view, v, err);
}

static inline int sp_read_raw(struct sp_view *v, char *err)
{
	return sp_read_parsed(SP_RAW, sp_parse_raw, v, err);
}

static inline int sp_read_blocked(struct sp_view *v, char *err)
{
	return sp_read_parsed(SP_BLOCKED, sp_parse_blocked, v, err);
}

static inline int sp_read_stats(struct sp_stats *st, char *err)
{
	size_t len = 0;
	char *b = NULL;
	int ret;

	ret = sp_read_file(SP_STATS, &b, &len);
	if (ret) {
		sp_err(err, "%s: read: %s", SP_STATS, strerror(-ret));
		return -1;
	}
	ret = sp_parse_stats(b, len, st, err, SP_STATS);
	free(b);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* lookups */

/* @func is e->func, or a compiler clone of it ("func.isra.0"). */
static inline bool sp_func_is(const struct sp_entry *e, const char *func)
{
	size_t n = strlen(func);

	return !strncmp(e->func, func, n) &&
	       (e->func[n] == '\0' || e->func[n] == '.');
}

/* A wait: S, D or I. */
static inline bool sp_kind_wait(const struct sp_entry *e)
{
	return e->kind == SP_KIND_SLEEP || e->kind == SP_KIND_DISK_SLEEP ||
	       e->kind == SP_KIND_IDLE;
}

/* A schedule() call: a wait or yield. */
static inline bool sp_kind_schedule(const struct sp_entry *e)
{
	return sp_kind_wait(e) || e->kind == SP_KIND_YIELD;
}

/*
 * The schedule() call site of nanosleep(2): do_nanosleep() in 6.12
 * (kernel/time/hrtimer.c), or hrtimer_nanosleep() if the compiler inlined
 * do_nanosleep() into it; a sleep.
 */
static inline bool sp_is_nanosleep(const struct sp_entry *e)
{
	return !e->module[0] && e->kind == SP_KIND_SLEEP &&
	       (sp_func_is(e, "do_nanosleep") ||
		sp_func_is(e, "hrtimer_nanosleep"));
}

/*
 * The effective schedule point of nanosleep(2): the first caller of
 * do_nanosleep() outside .sched.text, somewhere in the nanosleep path
 * (hrtimer_nanosleep, common_nsleep, __x64_sys_clock_nanosleep,
 * __se_sys_nanosleep, ...): any function with "nanosleep" in its name but
 * do_nanosleep itself.  A sleep.
 */
static inline bool sp_is_nanosleep_path(const struct sp_entry *e)
{
	return !e->module[0] && e->kind == SP_KIND_SLEEP &&
	       strstr(e->func, "nanosleep") &&
	       !sp_func_is(e, "do_nanosleep");
}

/* In the scheduler's own wrappers: do_nanosleep, schedule*, __schedule*. */
static inline bool sp_is_sched_wrapper(const struct sp_entry *e)
{
	return !e->module[0] &&
	       (sp_func_is(e, "do_nanosleep") ||
		!strncmp(e->func, "schedule", strlen("schedule")) ||
		!strncmp(e->func, "__schedule", strlen("__schedule")));
}

/*
 * sched_yield(2): do_sched_yield() calls schedule() while runnable, as a
 * tail call in 6.12, so the call site is do_sched_yield or the syscall
 * function that called it (__x64_sys_sched_yield, __do_sys_sched_yield).
 */
static inline bool sp_is_sched_yield_site(const struct sp_entry *e)
{
	return !e->module[0] && strstr(e->func, "sched_yield");
}

static inline bool sp_is_sched_yield(const struct sp_entry *e)
{
	return sp_is_sched_yield_site(e) && e->kind == SP_KIND_YIELD;
}

/* schedule_timeout() (kernel/time/timer.c), which calls schedule(). */
static inline bool sp_is_schedule_timeout(const struct sp_entry *e)
{
	return !e->module[0] && sp_kind_schedule(e) &&
	       sp_func_is(e, "schedule_timeout");
}

/* The test module, test_modules/sched_points_test.c, and its functions. */
#define SP_MOD_NAME		"sched_points_test"
#define SP_MOD_FUNC		"sched_points_test_sleep"
#define SP_MOD_FUNC_TIMEOUT	"sched_points_test_timeout"
#define SP_MOD_FUNC_DOWN_EVEN	"sched_points_test_down_even"
#define SP_MOD_FUNC_DOWN_ODD	"sched_points_test_down_odd"
#define SP_MOD_FUNC_PREEMPT	"sched_points_test_preempt"
#define SP_MOD_FUNC_SPIN	"sched_points_test_spin"
#define SP_MOD_FUNC_COND	"sched_points_test_cond_resched"
#define SP_MOD_FUNC_MIGHT	"sched_points_test_might_resched"
#define SP_MOD_FUNC_SLEEP_S	"sched_points_test_sleep_interruptible"
#define SP_MOD_FUNC_SLEEP_I	"sched_points_test_sleep_idle"
#define SP_MOD_FUNC_NAP		"sched_points_test_nap"

static inline bool sp_in_module_func(const struct sp_entry *e,
				     const char *func)
{
	return sp_func_is(e, func) && !strcmp(e->module, SP_MOD_NAME);
}

/*
 * schedule() from sched_points_test_sleep(): a sleep, or a yield when the
 * timer fired before schedule() was entered.
 */
static inline bool sp_is_module_sleep(const struct sp_entry *e)
{
	return sp_in_module_func(e, SP_MOD_FUNC) && sp_kind_schedule(e);
}

/* schedule_timeout() called from sched_points_test_timeout() (effective) */
static inline bool sp_is_module_timeout(const struct sp_entry *e)
{
	return sp_in_module_func(e, SP_MOD_FUNC_TIMEOUT) && sp_kind_schedule(e);
}

static inline bool sp_is_module_down_even(const struct sp_entry *e)
{
	return sp_in_module_func(e, SP_MOD_FUNC_DOWN_EVEN) && sp_kind_schedule(e);
}

static inline bool sp_is_module_down_odd(const struct sp_entry *e)
{
	return sp_in_module_func(e, SP_MOD_FUNC_DOWN_ODD) && sp_kind_schedule(e);
}

/* A line whose call site is no symbol: a bare address */
static inline bool sp_is_bare_address(const struct sp_entry *e)
{
	return !e->func[0];
}

static inline bool sp_is_module_preempt(const struct sp_entry *e)
{
	return sp_in_module_func(e, SP_MOD_FUNC_PREEMPT) &&
	       e->kind == SP_KIND_PREEMPT;
}

/* preempted on return from an interrupt inside sched_points_test_spin() */
static inline bool sp_is_module_spin_preempt(const struct sp_entry *e)
{
	return sp_in_module_func(e, SP_MOD_FUNC_SPIN) &&
	       e->kind == SP_KIND_PREEMPT;
}

static inline bool sp_is_module_cond_resched(const struct sp_entry *e)
{
	return sp_in_module_func(e, SP_MOD_FUNC_COND) &&
	       e->kind == SP_KIND_COND_RESCHED;
}

/* might_resched() in sched_points_test_might_resched(): __cond_resched() */
static inline bool sp_is_module_might_resched(const struct sp_entry *e)
{
	return sp_in_module_func(e, SP_MOD_FUNC_MIGHT) &&
	       e->kind == SP_KIND_COND_RESCHED;
}

static inline bool sp_is_kind_preempt(const struct sp_entry *e)
{
	return e->kind == SP_KIND_PREEMPT;
}

static inline bool sp_is_kind_cond_resched(const struct sp_entry *e)
{
	return e->kind == SP_KIND_COND_RESCHED;
}

static inline bool sp_any(const struct sp_entry *e)
{
	(void)e;
	return true;
}

/* Sum of the counts of @pid's lines that @match; *lines gets their number. */
static inline unsigned long long
sp_count(const struct sp_view *v, pid_t pid,
	 bool (*match)(const struct sp_entry *e), int *lines)
{
	unsigned long long sum = 0;
	int nl = 0;
	size_t i;

	for (i = 0; i < v->nr; i++) {
		if (v->e[i].pid != (unsigned int)pid || !match(&v->e[i]))
			continue;
		sum += v->e[i].count;
		nl++;
	}
	if (lines)
		*lines = nl;
	return sum;
}

/* First line of @pid that @match, or NULL. */
static inline const struct sp_entry *
sp_find(const struct sp_view *v, pid_t pid,
	bool (*match)(const struct sp_entry *e))
{
	size_t i;

	for (i = 0; i < v->nr; i++)
		if (v->e[i].pid == (unsigned int)pid && match(&v->e[i]))
			return &v->e[i];
	return NULL;
}

static inline unsigned long long sp_total(const struct sp_view *v)
{
	unsigned long long sum = 0;
	size_t i;

	for (i = 0; i < v->nr; i++)
		sum += v->e[i].count;
	return sum;
}

#endif /* SP_HELPERS_H */
