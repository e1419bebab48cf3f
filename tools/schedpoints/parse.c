// SPDX-License-Identifier: GPL-2.0-only
/*
 * Input parsing: /proc/sched_points, format versions 1 and 2 and their minors
 * (Documentation/scheduler/sched-points.rst, added by the series), into the
 * rows of store.c.  Any other major is refused.  Version 2 is version 1 with
 * lines of exited tasks (pid 0) and the summary name 'folded'; a version 1
 * input has neither (a pid 0 line in it is refused, 'folded' an unknown name).
 *
 * The input is untrusted (a saved copy may have been edited, cut short, or be
 * any bytes at all).  Every line is checked against the spec and the first
 * line that does not follow it stops the parse with "FILE:LINE: expected
 * ...".  Lines are handed out by a reader with a fixed buffer, so a line
 * longer than SP_MAX_LINE is refused instead of growing memory, and NUL bytes
 * are ordinary bytes (they fail the field checks).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "schedpoints.h"

#define READ_CHUNK	(1u << 20)
#define VERSION_PREFIX	"sched_points version "
/* Version 1's column header (ten fields) */
#define HEADER		"pid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\thist\taddress\tsymbol\tcomm"
/* The same, as error messages show it. */
#define SHOW_HEADER	"pid\\ttgid\\tkind\\tcount\\ttotal_ns\\tmax_ns\\thist\\taddress\\tsymbol\\tcomm"
/*
 * Version 2's (sixteen fields): the wait and run delay split of off-CPU
 * time, added to version 2 before it was posted.
 */
#define HEADER2		"pid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\twait_ns\twait_max_ns\tdelay_ns\tdelay_max_ns\thist\twait_hist\tdelay_hist\taddress\tsymbol\tcomm"
#define SHOW_HEADER2	"pid\\ttgid\\tkind\\tcount\\ttotal_ns\\tmax_ns\\twait_ns\\twait_max_ns\\tdelay_ns\\tdelay_max_ns\\thist\\twait_hist\\tdelay_hist\\taddress\\tsymbol\\tcomm"
#define SP_FORMAT_SPLIT	2	/* the major whose header has the split */
#define TRUNCATED	"line is not terminated by a newline (truncated input?)"

/* ---- reader ------------------------------------------------------------- */

void sp_reader_init_file(struct sp_reader *r, FILE *fp, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->fp = fp;
	r->name = name;
}

void sp_reader_init_mem(struct sp_reader *r, const char *mem, size_t len,
			const char *name)
{
	memset(r, 0, sizeof(*r));
	r->mem = mem;
	r->memlen = len;
	r->name = name;
}

/*
 * How many data lines the rest of the input can hold at most: its bytes
 * over the shortest data line the format allows (SP_MIN_LINE), or
 * SP_RESERVE_UNKNOWN lines when its size is not known (a pipe, a /proc
 * file), so that a summary's 'entries' sizes no table beyond what the
 * input can fill (issue 34: a 284-byte file that claimed 2^21 entries
 * made the tool touch 460 MB before it failed).
 */
#define SP_MIN_LINE		32	/* "0\t0\tidle\t0\t0\t0\t-\t<16 hex>\t0x0\t\n" */
#define SP_RESERVE_UNKNOWN	65536
static uint64_t reader_room(const struct sp_reader *r)
{
	struct stat sb;
	uint64_t bytes = r->end - r->start;

	if (r->mem)
		bytes += r->memlen - r->mempos;
	else if (!fstat(fileno(r->fp), &sb) && S_ISREG(sb.st_mode) && sb.st_size > 0)
		bytes += (uint64_t)sb.st_size;	/* an upper bound: some was read */
	else
		return SP_RESERVE_UNKNOWN;
	return bytes / SP_MIN_LINE;
}

void sp_reader_free(struct sp_reader *r)
{
	free(r->buf);
	r->buf = NULL;
}

static int perr(const struct sp_reader *r, struct sp_error *err,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int perr(const struct sp_reader *r, struct sp_error *err,
		const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (r->lineno)
		n = snprintf(err->msg, sizeof(err->msg), "%s:%llu: ", r->name,
			     (unsigned long long)r->lineno);
	else
		n = snprintf(err->msg, sizeof(err->msg), "%s: ", r->name);
	if (n >= 0 && (size_t)n < sizeof(err->msg))
		/* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized): started above */
		vsnprintf(err->msg + n, sizeof(err->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int line_too_long(struct sp_reader *r, struct sp_error *err)
{
	r->lineno++;
	return perr(r, err, "line longer than %u bytes", SP_MAX_LINE);
}

static void set_line(struct sp_reader *r, const char *p, size_t len, bool nl)
{
	r->line = p;
	r->linelen = len;
	r->line_nl = nl;
	r->lineno++;
}

static int next_mem(struct sp_reader *r, struct sp_error *err)
{
	const char *p = r->mem + r->mempos;
	size_t left = r->memlen - r->mempos;
	const char *nl;

	if (!left)
		return 0;
	nl = memchr(p, '\n', left);
	if (!nl) {
		if (left > SP_MAX_LINE)
			return line_too_long(r, err);
		set_line(r, p, left, false);
		r->mempos = r->memlen;
		return 1;
	}
	if ((size_t)(nl - p) > SP_MAX_LINE)
		return line_too_long(r, err);
	set_line(r, p, (size_t)(nl - p), true);
	r->mempos += (size_t)(nl - p) + 1;
	return 1;
}

static int next_file(struct sp_reader *r, struct sp_error *err)
{
	for (;;) {
		char *p = r->buf + r->start;
		size_t left = r->end - r->start;
		char *nl = left ? memchr(p, '\n', left) : NULL;
		size_t got;

		if (nl) {
			if ((size_t)(nl - p) > SP_MAX_LINE)
				return line_too_long(r, err);
			set_line(r, p, (size_t)(nl - p), true);
			r->start += (size_t)(nl - p) + 1;
			return 1;
		}
		if (left > SP_MAX_LINE)
			return line_too_long(r, err);
		if (r->eof) {
			if (!left)
				return 0;
			set_line(r, p, left, false);
			r->start = r->end;
			return 1;
		}
		if (!r->buf) {
			r->cap = READ_CHUNK;
			r->buf = sp_xrealloc(NULL, r->cap, 1);
		}
		if (r->start) {
			memmove(r->buf, r->buf + r->start, left);
			r->start = 0;
			r->end = left;
		}
		got = fread(r->buf + r->end, 1, r->cap - r->end, r->fp);
		r->end += got;
		if (!got) {
			if (ferror(r->fp))
				return perr(r, err, "read error: %s",
					    strerror(errno));
			r->eof = true;
		}
	}
}

/* 1: a line is in r->line, 0: end of input, -1: error. */
static int next_line(struct sp_reader *r, struct sp_error *err)
{
	if (r->unread) {
		r->unread = false;
		r->lineno++;
		return 1;
	}
	return r->mem ? next_mem(r, err) : next_file(r, err);
}

static void unread_line(struct sp_reader *r)
{
	r->unread = true;
	r->lineno--;
}

/* ---- fields ------------------------------------------------------------- */

/*
 * Quote at most 40 bytes of untrusted input for an error message: as they
 * are, but for bytes that are not printable (\ooo).  A backslash is shown as
 * itself, so that 'a\9' reads as it was written.
 */
static const char *excerpt(char *buf, const char *s, size_t len)
{
	bool cut = len > 40;
	size_t o = sp_escape(buf, s, cut ? 40 : len, SP_ESC_KEEP_BACKSLASH);

	if (cut)
		memcpy(buf + o, "...", 4);
	return buf;
}

/* 0: ok, -1: not an unsigned decimal, -2: above max. */
static int parse_uint(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	/*
	 * The kernel prints %u: "0" or no leading zero.  "012" is refused,
	 * not read as 12 (or as octal by another reader).
	 */
	if (!len || (s[0] == '0' && len > 1))
		return -1;
	for (i = 0; i < len; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9)
			return -1;
		if (v > (max - d) / 10)
			return -2;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static bool is_lower_hex(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return len > 0;
}

static bool is_graph(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] >= 0x7f)
			return false;
	return true;
}

int sp_symbol_parse(const char *s, size_t len, struct sp_syminfo *si)
{
	size_t base = len, plus, slash;
	const char *q;

	memset(si, 0, sizeof(*si));
	/*
	 * A bare address, or the name the kernel prints for a call site of an
	 * unloaded module when it had no memory to keep the symbol: both name
	 * no function and no module.
	 */
	if ((len >= 2 && s[0] == '0' && s[1] == 'x' && len <= 18 &&
	     is_lower_hex(s + 2, len - 2)) ||
	    (len == sizeof(SP_SYM_UNLOADED) - 1 &&
	     !memcmp(s, SP_SYM_UNLOADED, len))) {
		si->kind = SP_SYM_ADDR;
		si->func_len = (uint32_t)len;
		si->base_len = (uint32_t)len;
		return 0;
	}
	if (len && s[len - 1] == ']') {
		const char *open = memchr(s, '[', len);
		const char *sp;
		size_t clen, mlen;

		if (!open || open == s || open[-1] != ' ')
			return -1;
		base = (size_t)(open - s) - 1;
		q = open + 1;
		clen = (size_t)(s + len - 1 - q);
		if (memchr(q, '[', clen) || memchr(q, ']', clen))
			return -1;
		/* "[module]", or "[module build-id]" with CONFIG_STACKTRACE_BUILD_ID */
		sp = memchr(q, ' ', clen);
		mlen = sp ? (size_t)(sp - q) : clen;
		if (sp && (sp + 1 == q + clen ||
			   !is_graph(sp + 1, clen - mlen - 1)))
			return -1;
		if (!mlen || !is_graph(q, mlen))
			return -1;
		si->mod_off = (uint32_t)(q - s);
		si->mod_len = (uint32_t)mlen;
	}
	if (!is_graph(s, base))
		return -1;
	/* func+0xOFF/0xLEN */
	for (plus = base; plus > 0 && s[plus - 1] != '+'; plus--)
		;
	if (plus < 2)
		return -1;
	plus--;
	q = s + plus + 1;
	slash = base - plus - 1;
	if (slash < 3 || q[0] != '0' || q[1] != 'x')
		return -1;
	{
		const char *sl = memchr(q, '/', slash);
		size_t off_len, len_len;

		if (!sl)
			return -1;
		off_len = (size_t)(sl - q) - 2;
		len_len = slash - (size_t)(sl - q) - 1;
		if (!is_lower_hex(q + 2, off_len) || len_len < 3 ||
		    sl[1] != '0' || sl[2] != 'x' ||
		    !is_lower_hex(sl + 3, len_len - 2))
			return -1;
	}
	si->kind = SP_SYM_FUNC;
	si->func_len = (uint32_t)plus;
	si->base_len = (uint32_t)base;
	return 0;
}

long sp_comm_decode(const char *in, size_t len, char *out, const char **why)
{
	size_t i, o = 0;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)in[i];
		unsigned v;

		if (c != '\\') {
			if (c < 0x21 || c > 0x7e) {
				*why = "byte outside 0x21..0x7e not escaped as \\ooo";
				return -1;
			}
			out[o++] = (char)c;
			continue;
		}
		if (len - i < 4 || in[i + 1] < '0' || in[i + 1] > '3' ||
		    in[i + 2] < '0' || in[i + 2] > '7' ||
		    in[i + 3] < '0' || in[i + 3] > '7') {
			*why = "expected '\\' and three octal digits (\\000..\\377)";
			return -1;
		}
		v = (unsigned)(in[i + 1] - '0') << 6 |
		    (unsigned)(in[i + 2] - '0') << 3 | (unsigned)(in[i + 3] - '0');
		if (!v) {
			*why = "escaped NUL byte \\000 cannot be part of a task name";
			return -1;
		}
		out[o++] = (char)v;
		i += 3;
	}
	return (long)o;
}

/* ---- lines -------------------------------------------------------------- */

static bool is_version_line(const struct sp_reader *r)
{
	size_t n = sizeof(VERSION_PREFIX) - 1;

	return r->linelen >= n && !memcmp(r->line, VERSION_PREFIX, n);
}

static int parse_version(struct sp_reader *r, struct sp_store *st,
			 struct sp_error *err)
{
	size_t n = sizeof(VERSION_PREFIX) - 1;
	const char *v = r->line + n, *dot;
	size_t vlen = r->linelen - n, mlen;
	uint64_t major, minor = 0;
	char ex[200];

	/* cut inside the version line (or right after it) */
	if (!r->line_nl && (is_version_line(r) ||
			    (r->linelen && r->linelen < n &&
			     !memcmp(r->line, VERSION_PREFIX, r->linelen))))
		return perr(r, err, TRUNCATED);
	if (!is_version_line(r) || !r->line_nl)
		return perr(r, err, "expected " SP_EXPECT_VERSION ", got '%s'",
			    excerpt(ex, r->line, r->linelen));
	dot = memchr(v, '.', vlen);
	mlen = dot ? (size_t)(dot - v) : vlen;
	if (parse_uint(v, mlen, UINT32_MAX, &major) ||
	    (dot && parse_uint(dot + 1, vlen - mlen - 1, UINT32_MAX, &minor)))
		return perr(r, err,
			    "expected 'sched_points version <MAJOR>[.<MINOR>]', got '%s'",
			    excerpt(ex, r->line, r->linelen));
	if (major < SP_FORMAT_MAJOR_FIRST || major > SP_FORMAT_MAJOR_LAST)
		return perr(r, err,
			    "unsupported format version %llu (this schedpoints reads versions %d and %d)",
			    (unsigned long long)major, SP_FORMAT_MAJOR_FIRST,
			    SP_FORMAT_MAJOR_LAST);
	snprintf(st->version, sizeof(st->version), "%.*s", (int)vlen, v);
	st->major = (uint32_t)major;
	st->minor = (uint32_t)minor;
	return 0;
}

/*
 * The summary names of the format, in its order, each from the version
 * (major.minor) that added it: known in an input of that version or a later
 * one (version 2 is version 1 and more); in an input of an earlier version
 * it is a name that version does not know, ignored as any other ('folded'
 * in a version 1 input).  'mode' is a word; 0/1 values are checked.
 */
enum { SUM_NUMBER, SUM_BOOL, SUM_MODE };
static const struct {
	const char *name;
	size_t off;
	int type;
	uint32_t major, minor;
} summary_names[] = {
	{ "enabled", offsetof(struct sp_summary, enabled), SUM_BOOL, 1, 0 },
	{ "mode", offsetof(struct sp_summary, mode), SUM_MODE, 1, 0 },
	{ "time", offsetof(struct sp_summary, time), SUM_BOOL, 1, 0 },
	{ "kinds", offsetof(struct sp_summary, kinds), SUM_BOOL, 1, 0 },
	{ "hist", offsetof(struct sp_summary, hist), SUM_BOOL, 1, 0 },
	{ "cpus", offsetof(struct sp_summary, cpus), SUM_NUMBER, 1, 0 },
	{ "capacity", offsetof(struct sp_summary, capacity), SUM_NUMBER, 1, 0 },
	{ "used", offsetof(struct sp_summary, used), SUM_NUMBER, 1, 0 },
	{ "entries", offsetof(struct sp_summary, entries), SUM_NUMBER, 1, 0 },
	{ "dropped", offsetof(struct sp_summary, dropped), SUM_NUMBER, 1, 0 },
	{ "folded", offsetof(struct sp_summary, folded), SUM_NUMBER,
	  SP_FORMAT_EXITED, 0 },
};

/* Whether the input's version knows summary name i (the table's order). */
static bool summary_known(const struct sp_store *st, size_t i)
{
	return st->major > summary_names[i].major ||
	       (st->major == summary_names[i].major &&
		st->minor >= summary_names[i].minor);
}

/* "enabled, mode, ..., dropped[, folded]": the names the input's version knows. */
static const char *summary_order(const struct sp_store *st, char *buf,
				 size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(summary_names) / sizeof(summary_names[0]); i++)
		if (summary_known(st, i) && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
					      summary_names[i].name);
	return buf;
}

static bool is_word(const char *s, size_t len)
{
	size_t i;

	if (!len || s[0] < 'a' || s[0] > 'z')
		return false;
	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
		      s[i] == '_'))
			return false;
	return true;
}

static bool is_decimal(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return len > 0 && (s[0] != '0' || len == 1);	/* as parse_uint() */
}

static bool same(const char *s, size_t len, const char *lit)
{
	return strlen(lit) == len && !memcmp(s, lit, len);
}

/* The column header of the input's version, as messages show it. */
static const char *show_header(const struct sp_store *st)
{
	return st->major >= SP_FORMAT_SPLIT ? SHOW_HEADER2 : SHOW_HEADER;
}

/* 1: column header seen, 0: summary line, -1: error. */
static int parse_summary(struct sp_reader *r, struct sp_store *st,
			 struct sp_error *err)
{
	const char *sp, *val;
	size_t nlen, vlen, i, known;
	uint64_t v = 0;
	char ex[200];

	if (same(r->line, r->linelen, st->major >= SP_FORMAT_SPLIT ? HEADER2 : HEADER)) {
		st->has_split = st->major >= SP_FORMAT_SPLIT;
		return r->line_nl ? 1 :
			perr(r, err, TRUNCATED);
	}
	if (!r->line_nl)
		return perr(r, err, TRUNCATED);
	/*
	 * Version 2 gained the wait and run delay columns before it was
	 * posted: a capture of a kernel of the first version 2 is not what
	 * its version line says (as a version 1 pid 0 line is refused).
	 */
	if (st->major >= SP_FORMAT_SPLIT && same(r->line, r->linelen, HEADER))
		return perr(r, err,
			    "column header of 10 fields: the kernel predates the wait/run-delay split of format version %u (extended before it was posted), expected the column header '" SHOW_HEADER2 "'",
			    st->major);
	if (memchr(r->line, '\t', r->linelen))
		return perr(r, err, "expected the column header '%s', got '%s'",
			    show_header(st), excerpt(ex, r->line, r->linelen));
	sp = memchr(r->line, ' ', r->linelen);
	nlen = sp ? (size_t)(sp - r->line) : 0;
	for (i = 0; i < nlen; i++) {
		char c = r->line[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
			break;
	}
	if (!sp || !nlen || i < nlen)
		return perr(r, err,
			    "expected a summary line '<name> <value>' or the column header, got '%s'",
			    excerpt(ex, r->line, r->linelen));
	val = sp + 1;
	vlen = r->linelen - nlen - 1;
	/* the names of the input's version (the table is in their order) */
	for (known = 0; known < sizeof(summary_names) / sizeof(summary_names[0]) &&
	     summary_known(st, known); known++)
		;
	for (i = 0; i < known; i++)
		if (same(r->line, nlen, summary_names[i].name))
			break;
	if (i < known && summary_names[i].type == SUM_MODE) {
		if (same(val, vlen, "caller"))
			v = SP_MODE_CALLER;
		else if (same(val, vlen, "effective"))
			v = SP_MODE_EFFECTIVE;
		else
			return perr(r, err, "summary 'mode': expected 'caller' or 'effective', got '%s'",
				    excerpt(ex, val, vlen));
	} else if (i == known) {
		/*
		 * Readers ignore names they do not know (a later minor's,
		 * or 'folded' in version 1): any unsigned decimal, however
		 * large, or a word.
		 */
		if (!is_decimal(val, vlen) && !is_word(val, vlen))
			return perr(r, err, "summary '%.*s': expected an unsigned decimal or a word, got '%s'",
				    (int)nlen, r->line, excerpt(ex, val, vlen));
	} else {
		int rc = parse_uint(val, vlen, INT64_MAX, &v);

		if (rc)
			return perr(r, err, "summary '%.*s': expected an unsigned decimal%s, got '%s'",
				    (int)nlen, r->line, rc == -2 ? " below 2^63" : "",
				    excerpt(ex, val, vlen));
	}
	if (i < known) {
		int64_t *f = (int64_t *)(void *)((char *)&st->sum + summary_names[i].off);

		size_t j;

		if (*f >= 0)
			return perr(r, err, "summary '%s' given twice",
				    summary_names[i].name);
		/* the spec's order; unknown names may come anywhere */
		for (j = i + 1; j < known; j++)
			if (*(int64_t *)(void *)((char *)&st->sum + summary_names[j].off) >= 0)
				return perr(r, err,
					    "summary '%s' after '%s' (the format's order: %s)",
					    summary_names[i].name, summary_names[j].name,
					    summary_order(st, ex, sizeof(ex)));
		if (summary_names[i].type == SUM_BOOL && v > 1)
			return perr(r, err, "summary '%s': expected 0 or 1, got %llu",
				    summary_names[i].name, (unsigned long long)v);
		*f = (int64_t)v;
	}
	return 0;	/* unknown names are ignored (future minors) */
}

/*
 * Split the current line at its TABs: the first max fields in f[] and
 * flen[]; returns how many fields the line has (more than max too).
 */
static size_t split_fields(const struct sp_reader *r, const char **f,
			   size_t *flen, size_t max)
{
	const char *p = r->line, *end = r->line + r->linelen;
	size_t nf = 0;

	for (;;) {
		const char *tab = memchr(p, '\t', (size_t)(end - p));
		const char *fe = tab ? tab : end;

		if (nf < max) {
			f[nf] = p;
			flen[nf] = (size_t)(fe - p);
		}
		nf++;
		if (!tab)
			return nf;
		p = tab + 1;
	}
}

/*
 * Decode the comm field f into small (SMALL_COMM bytes) or, when longer, a
 * buffer allocated in *dec (free it when it is not small): its length, or
 * -1 with the error said.
 */
#define SMALL_COMM	128
static long comm_field(const struct sp_reader *r, struct sp_error *err,
		       const char *f, size_t len, char *small, char **dec)
{
	const char *why = NULL;
	long clen;

	*dec = len > SMALL_COMM ? sp_xrealloc(NULL, len, 1) : small;
	clen = sp_comm_decode(f, len, *dec, &why);
	if (clen < 0) {
		char ex[200];

		perr(r, err, "comm: %s, got '%s'", why, excerpt(ex, f, len));
		if (*dec != small)
			free(*dec);
	}
	return clen;
}

/* The fields of a data line, in their order (version 2's). */
enum { F_PID, F_TGID, F_KIND, F_COUNT, F_TOTAL, F_MAX, F_WAIT, F_WMAX,
       F_DELAY, F_DMAX, F_HIST, F_WHIST, F_DHIST, F_ADDR, F_SYM, F_COMM, F_N };
/* Version 1's ten fields, where they go in f[]. */
static const unsigned char v1_fields[] = {
	F_PID, F_TGID, F_KIND, F_COUNT, F_TOTAL, F_MAX, F_HIST, F_ADDR, F_SYM,
	F_COMM,
};
#define F_N1	(sizeof(v1_fields) / sizeof(v1_fields[0]))

static int parse_u64_field(struct sp_reader *r, struct sp_error *err,
			   const char *name, const char *f, size_t len,
			   uint64_t max, uint64_t *out)
{
	int rc = parse_uint(f, len, max, out);

	if (rc) {
		char ex[200];

		return perr(r, err, "%s: expected an unsigned decimal%s, got '%s'",
			    name, rc == -2 ? (max == UINT32_MAX ? " below 2^32" : " below 2^64") : "",
			    excerpt(ex, f, len));
	}
	return 0;
}

/*
 * The hist field: '-', or K:N pairs separated by commas, K ascending from 9
 * to 34, N not 0.  Fills *h and *any (false for '-').
 */
static int parse_hist(struct sp_reader *r, struct sp_error *err,
		      const char *name, const char *f, size_t len,
		      struct sp_hist *h, bool *any)
{
	const char *p = f, *end = f + len;
	uint64_t k, n, prev = 0;
	char ex[200];

	memset(h, 0, sizeof(*h));
	*any = false;
	if (len == 1 && f[0] == '-')
		return 0;
	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *pe = comma ? comma : end;
		const char *colon = memchr(p, ':', (size_t)(pe - p));
		int rc = 0;

		if (!colon || parse_uint(p, (size_t)(colon - p), UINT64_MAX, &k) ||
		    (rc = parse_uint(colon + 1, (size_t)(pe - colon - 1), UINT64_MAX, &n)) == -1)
			return perr(r, err,
				    "%s: expected '-' or K:N pairs separated by commas, got '%s'",
				    name, excerpt(ex, f, len));
		if (rc)
			return perr(r, err, "%s: bucket %llu: count above 2^64-1, got '%s'",
				    name, (unsigned long long)k, excerpt(ex, f, len));
		if (k < SP_HIST_MIN || k > SP_HIST_MAX)
			return perr(r, err, "%s: bucket %llu out of range %d to %d, got '%s'",
				    name, (unsigned long long)k, SP_HIST_MIN, SP_HIST_MAX,
				    excerpt(ex, f, len));
		if (*any && k <= prev)
			return perr(r, err,
				    "%s: bucket %llu after bucket %llu (buckets ascending, each once), got '%s'",
				    name, (unsigned long long)k, (unsigned long long)prev,
				    excerpt(ex, f, len));
		if (!n)
			return perr(r, err,
				    "%s: bucket %llu with count 0 (only non-zero counts are listed), got '%s'",
				    name, (unsigned long long)k, excerpt(ex, f, len));
		h->n[k - SP_HIST_MIN] = n;
		prev = k;
		*any = true;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/*
 * The split of a line (format 2): wait_ns, wait_max_ns, delay_ns,
 * delay_max_ns and the wait and run delay histograms, into *l.  The kernel
 * splits each call's off-CPU time into its wait and its run delay, so a
 * line's sums and maxima agree with total_ns and max_ns; but its readers
 * copy the counters of an entry without stopping its CPU (the spec: "a
 * reader while it is on may see a call counted but not yet in its
 * bucket"), so that is checked only where it is certain, in a snapshot
 * taken with accounting off.  A yield's wait is 0 whatever the reader saw.
 */
static int parse_split(struct sp_reader *r, const struct sp_store *st,
		       struct sp_error *err, const char **f, const size_t *flen,
		       struct sp_line *l, struct sp_hist *wh, struct sp_hist *dh,
		       const struct sp_hist *h)
{
	bool has_w = false, has_d = false;
	uint64_t delay_ns;

	if (parse_u64_field(r, err, "wait_ns", f[F_WAIT], flen[F_WAIT],
			    UINT64_MAX, &l->wait_ns) ||
	    parse_u64_field(r, err, "wait_max_ns", f[F_WMAX], flen[F_WMAX],
			    UINT64_MAX, &l->wait_max_ns) ||
	    parse_u64_field(r, err, "delay_ns", f[F_DELAY], flen[F_DELAY],
			    UINT64_MAX, &delay_ns) ||
	    parse_u64_field(r, err, "delay_max_ns", f[F_DMAX], flen[F_DMAX],
			    UINT64_MAX, &l->delay_max_ns) ||
	    parse_hist(r, err, "wait_hist", f[F_WHIST], flen[F_WHIST], wh, &has_w) ||
	    parse_hist(r, err, "delay_hist", f[F_DHIST], flen[F_DHIST], dh, &has_d))
		return -1;
	l->whist = has_w ? wh : NULL;
	l->dhist = has_d ? dh : NULL;
	if (l->kind >= SP_KIND_YIELD && (l->wait_ns || l->wait_max_ns))
		return perr(r, err,
			    "wait_ns, wait_max_ns: a line of kind %s has no wait (its time is run delay), got %llu and %llu",
			    sp_kind_name(l->kind), (unsigned long long)l->wait_ns,
			    (unsigned long long)l->wait_max_ns);
	if (st->sum.enabled != 0)	/* on, or not said: see above */
		return 0;
	if (l->wait_ns > l->total_ns || delay_ns != l->total_ns - l->wait_ns)
		return perr(r, err,
			    "wait_ns + delay_ns: expected total_ns %llu (each call's off-CPU time is its wait and its run delay), got %llu + %llu",
			    (unsigned long long)l->total_ns,
			    (unsigned long long)l->wait_ns,
			    (unsigned long long)delay_ns);
	if (l->wait_max_ns > l->max_ns || l->delay_max_ns > l->max_ns ||
	    l->max_ns - l->wait_max_ns > l->delay_max_ns)
		return perr(r, err,
			    "wait_max_ns, delay_max_ns: expected each at most max_ns %llu and together at least it, got %llu and %llu",
			    (unsigned long long)l->max_ns,
			    (unsigned long long)l->wait_max_ns,
			    (unsigned long long)l->delay_max_ns);
	if (has_w != !!l->hist || has_d != !!l->hist)
		return perr(r, err,
			    "wait_hist, delay_hist: expected '-' exactly when hist is '-', got hist %s, wait_hist %s, delay_hist %s",
			    l->hist ? "buckets" : "'-'", has_w ? "buckets" : "'-'",
			    has_d ? "buckets" : "'-'");
	if (l->hist && (sp_hist_calls(wh) != sp_hist_calls(h) ||
			sp_hist_calls(dh) != sp_hist_calls(h)))
		return perr(r, err,
			    "wait_hist, delay_hist: expected as many calls as hist, %llu, got %llu and %llu",
			    (unsigned long long)sp_hist_calls(h),
			    (unsigned long long)sp_hist_calls(wh),
			    (unsigned long long)sp_hist_calls(dh));
	return 0;
}

static int parse_data(struct sp_reader *r, struct sp_store *st,
		      struct sp_error *err)
{
	const char *f[F_N], *raw[F_N];
	size_t flen[F_N], rlen[F_N], nf, want, i;
	struct sp_hist hist, whist, dhist;
	bool has_hist = false;
	uint64_t pid = 0, tgid = 0;
	struct sp_syminfo si;
	struct sp_line l = { 0 };
	char small[SMALL_COMM], *dec = small, ex[200];
	long clen;
	int rc, k;

	want = st->has_split ? F_N : F_N1;
	nf = split_fields(r, raw, rlen, want);
	/* a cut line has too few fields too: say what happened first */
	if (!r->line_nl)
		return perr(r, err, TRUNCATED);
	if (nf != want)
		return perr(r, err, "expected %zu TAB-separated fields, got %zu", want, nf);
	for (i = 0; i < want; i++) {
		size_t j = st->has_split ? i : v1_fields[i];

		f[j] = raw[i];
		flen[j] = rlen[i];
	}
	if (parse_u64_field(r, err, "pid", f[F_PID], flen[F_PID], UINT32_MAX, &pid) ||
	    parse_u64_field(r, err, "tgid", f[F_TGID], flen[F_TGID], UINT32_MAX, &tgid))
		return -1;
	/*
	 * pid 0: a line of exited tasks (version 2), tgid the tasks folded
	 * into it.  A version 1 kernel never writes one (the idle task is not
	 * counted): refused there, a reader of version 1 would take its tgid
	 * for a thread group.
	 */
	if (pid == SP_PID_EXITED && st->major < SP_FORMAT_EXITED)
		return perr(r, err, "pid: expected a task's pid, above 0, in format version %u (lines of exited tasks, pid 0, are version %d's), got '0'",
			    st->major, SP_FORMAT_EXITED);
	if (pid == SP_PID_EXITED && !tgid)
		return perr(r, err, "tgid: a line of exited tasks (pid 0) has the number of tasks folded into it, at least 1, got '0'");
	l.pid = (uint32_t)pid;
	l.tgid = (uint32_t)tgid;
	k = sp_kind_parse(f[F_KIND], flen[F_KIND]);
	if (k < 0)
		return perr(r, err,
			    "kind: expected 'sleep', 'disk_sleep', 'idle', 'yield', 'preempt' or 'cond_resched', got '%s'",
			    excerpt(ex, f[F_KIND], flen[F_KIND]));
	l.kind = (unsigned)k;
	if (parse_u64_field(r, err, "count", f[F_COUNT], flen[F_COUNT],
			    UINT64_MAX, &l.count) ||
	    parse_u64_field(r, err, "total_ns", f[F_TOTAL], flen[F_TOTAL],
			    UINT64_MAX, &l.total_ns) ||
	    parse_u64_field(r, err, "max_ns", f[F_MAX], flen[F_MAX],
			    UINT64_MAX, &l.max_ns) ||
	    parse_hist(r, err, "hist", f[F_HIST], flen[F_HIST], &hist, &has_hist))
		return -1;
	if (!l.count)	/* the format: "never 0" */
		return perr(r, err, "count: expected a count above 0 (a line of the format counts at least one call), got '0'");
	l.hist = has_hist ? &hist : NULL;
	if (st->has_split &&
	    parse_split(r, st, err, f, flen, &l, &whist, &dhist, &hist))
		return -1;
	if (flen[F_ADDR] != 16 || !is_lower_hex(f[F_ADDR], 16))
		return perr(r, err, "address: expected 16 lowercase hex digits, got '%s'",
			    excerpt(ex, f[F_ADDR], flen[F_ADDR]));
	l.sym = f[F_SYM];
	l.sym_len = flen[F_SYM];
	if (sp_symbol_parse(l.sym, l.sym_len, &si))
		return perr(r, err,
			    "symbol: expected 'func+0xOFF/0xLEN', 'func+0xOFF/0xLEN [module]', '0xADDR' or '" SP_SYM_UNLOADED "', got '%s'",
			    excerpt(ex, l.sym, l.sym_len));
	l.si = &si;
	clen = comm_field(r, err, f[F_COMM], flen[F_COMM], small, &dec);
	if (clen < 0)
		return -1;
	l.comm = dec;
	l.comm_len = (size_t)clen;
	rc = sp_store_add(st, &l);
	if (dec != small)
		free(dec);
	if (rc == SP_ADD_COUNT_OVERFLOW)
		return perr(r, err, "count: the sum of all counts exceeds 2^64-1");
	if (rc == SP_ADD_TIME_OVERFLOW)
		return perr(r, err,
			    "total_ns: lines of one row (pid, tgid, comm, symbol, kind) add up to more than 2^64-1");
	if (rc == SP_ADD_HIST_OVERFLOW)
		return perr(r, err, "hist: the calls of all histograms add up to more than 2^64-1");
	if (rc == SP_ADD_TASKS_OVERFLOW)
		return perr(r, err,
			    "tgid: lines of exited tasks of one row (comm, symbol, kind) add up to more than 2^32-1 tasks");
	return 0;
}

int sp_parse_snapshot(struct sp_reader *r, struct sp_store *st, bool multi,
		      struct sp_error *err)
{
	uint64_t n;
	int rc;

	rc = next_line(r, err);
	if (rc < 0)
		return -1;
	if (!rc) {
		if (multi && r->lineno)
			return 0;
		return perr(r, err, "empty input, expected " SP_EXPECT_VERSION);
	}
	if (parse_version(r, st, err))
		return -1;

	for (;;) {
		rc = next_line(r, err);
		if (rc < 0)
			return -1;
		if (!rc)
			return perr(r, err,
				    "unexpected end of input, expected the column header '%s'",
				    show_header(st));
		rc = parse_summary(r, st, err);
		if (rc < 0)
			return -1;
		if (rc)
			break;
	}
	if (st->sum.entries > 0) {
		uint64_t room = reader_room(r);

		sp_store_reserve(st, (uint64_t)st->sum.entries < room ?
				     (uint64_t)st->sum.entries : room);
	}
	if (st->sum.hist == 1)
		st->has_hist = true;

	for (n = 0; st->sum.entries < 0 || n < (uint64_t)st->sum.entries; n++) {
		rc = next_line(r, err);
		if (rc < 0)
			return -1;
		if (!rc) {
			if (st->sum.entries < 0)
				return 1;
			return perr(r, err,
				    "unexpected end of input: summary 'entries' says %lld data lines, got %llu",
				    (long long)st->sum.entries, (unsigned long long)n);
		}
		if (multi && st->sum.entries < 0 && is_version_line(r)) {
			unread_line(r);
			return 1;
		}
		if (parse_data(r, st, err))
			return -1;
	}

	rc = next_line(r, err);
	if (rc <= 0)
		return rc < 0 ? -1 : 1;
	if (multi && is_version_line(r)) {
		unread_line(r);
		return 1;
	}
	return perr(r, err,
		    "expected %s after %lld data lines (summary 'entries')",
		    multi ? "end of input or the next snapshot" : "end of input",
		    (long long)st->sum.entries);
}

/* ---- /proc/sched_points_blocked ------------------------------------------ */

/*
 * The spec's section "/proc/sched_points_blocked", format version 1: the
 * version line exactly, then exactly enabled, mode, time, entries in that
 * order (no other name: the format has no minors), the column header, and
 * 'entries' lines of eight fields, sorted by waiting_ns descending, then
 * pid.  No task is listed while accounting or the time switch is off, and
 * a task (pid) once.
 */
#define BLOCKED_HEADER	"pid\ttgid\tkind\tstate\twaiting_ns\taddress\tsymbol\tcomm"
#define BLOCKED_SHOW_HEADER \
	"pid\\ttgid\\tkind\\tstate\\twaiting_ns\\taddress\\tsymbol\\tcomm"
/* The letters of /proc/PID/stat (task_state_array[] of fs/proc/array.c). */
#define BLOCKED_STATES	"RSDTtXZPI"

enum { B_PID, B_TGID, B_KIND, B_STATE, B_WAITING, B_ADDR, B_SYM, B_COMM, B_N };

/*
 * The summary of a format without minors (the blocked and wakers files):
 * exactly the names of sum[], in that order, each 'name value' (a 0/1, a
 * number, or the mode's word), then exactly the column header.
 */
struct fixed_sum {
	const char *name;
	int64_t *val;
	int type;	/* SUM_NUMBER, SUM_BOOL, SUM_MODE */
};

static int fixed_summary(struct sp_reader *r, struct sp_error *err,
			 const struct fixed_sum *sum, size_t n, const char *order,
			 const char *header, const char *show_header)
{
	char ex[200];
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		size_t nl = strlen(sum[i].name), vlen;
		const char *val;
		uint64_t v;

		rc = next_line(r, err);
		if (rc < 0)
			return -1;
		if (!rc)
			return perr(r, err, "unexpected end of input, expected the summary line '%s <value>'",
				    sum[i].name);
		if (!r->line_nl)
			return perr(r, err, TRUNCATED);
		if (r->linelen <= nl || memcmp(r->line, sum[i].name, nl) != 0 ||
		    r->line[nl] != ' ')
			return perr(r, err, "expected the summary line '%s <value>' (the format's order: %s), got '%s'",
				    sum[i].name, order, excerpt(ex, r->line, r->linelen));
		val = r->line + nl + 1;
		vlen = r->linelen - nl - 1;
		if (sum[i].type == SUM_MODE) {
			if (same(val, vlen, "caller"))
				*sum[i].val = SP_MODE_CALLER;
			else if (same(val, vlen, "effective"))
				*sum[i].val = SP_MODE_EFFECTIVE;
			else
				return perr(r, err, "summary 'mode': expected 'caller' or 'effective', got '%s'",
					    excerpt(ex, val, vlen));
			continue;
		}
		/* parse_uint() takes a max of 9 or more: 0/1 is checked after */
		rc = parse_uint(val, vlen, INT64_MAX, &v);
		if (!rc && sum[i].type == SUM_BOOL && v > 1)
			return perr(r, err, "summary '%s': expected 0 or 1, got '%s'",
				    sum[i].name, excerpt(ex, val, vlen));
		if (rc)
			return perr(r, err, "summary '%s': expected an unsigned decimal%s, got '%s'",
				    sum[i].name, rc == -2 ? " below 2^63" : "",
				    excerpt(ex, val, vlen));
		*sum[i].val = (int64_t)v;
	}
	rc = next_line(r, err);
	if (rc < 0)
		return -1;
	if (!rc)
		return perr(r, err, "unexpected end of input, expected the column header '%s'",
			    show_header);
	if (!same(r->line, r->linelen, header))
		return perr(r, err, "expected the column header '%s', got '%s'",
			    show_header, excerpt(ex, r->line, r->linelen));
	return r->line_nl ? 0 : perr(r, err, TRUNCATED);
}

static int blocked_summary(struct sp_reader *r, struct sp_blocked *b,
			   struct sp_error *err)
{
	const struct fixed_sum sum[] = {
		{ "enabled", &b->enabled, SUM_BOOL },
		{ "mode", &b->mode, SUM_MODE },
		{ "time", &b->time, SUM_BOOL },
		{ "entries", &b->entries, SUM_NUMBER },
	};

	return fixed_summary(r, err, sum, sizeof(sum) / sizeof(sum[0]),
			     "enabled, mode, time, entries", BLOCKED_HEADER,
			     BLOCKED_SHOW_HEADER);
}

static int blocked_line(struct sp_reader *r, struct sp_blocked *b,
			struct sp_error *err)
{
	const char *f[B_N];
	size_t flen[B_N], nf = split_fields(r, f, flen, B_N);
	struct sp_btask t = { 0 };
	struct sp_syminfo si;
	struct sp_key key = { 0 };
	uint64_t v;
	uint32_t prev_line;
	char small[SMALL_COMM], *dec = small, ex[200];
	long clen;
	int k;

	if (!r->line_nl)
		return perr(r, err, TRUNCATED);
	if (nf != B_N)
		return perr(r, err, "expected %d TAB-separated fields, got %zu", B_N, nf);
	if (!b->enabled || !b->time)
		return perr(r, err, "a task is listed while summary '%s' is 0 (no task is shown while accounting or the time switch is off)",
			    !b->enabled ? "enabled" : "time");
	if (parse_u64_field(r, err, "pid", f[B_PID], flen[B_PID], UINT32_MAX, &v))
		return -1;
	t.pid = (uint32_t)v;
	if (parse_u64_field(r, err, "tgid", f[B_TGID], flen[B_TGID], UINT32_MAX, &v))
		return -1;
	t.tgid = (uint32_t)v;
	if (!t.pid || !t.tgid)
		return perr(r, err, "%s: expected a task's %s, above 0, got '0'",
			    t.pid ? "tgid" : "pid", t.pid ? "tgid" : "pid");
	k = sp_kind_parse(f[B_KIND], flen[B_KIND]);
	if (k < 0 || k > SP_KIND_YIELD)
		return perr(r, err, "kind: expected 'sleep', 'disk_sleep', 'idle' or 'yield' (the calls of schedule() that are timed), got '%s'",
			    excerpt(ex, f[B_KIND], flen[B_KIND]));
	t.kind = (uint8_t)k;
	if (flen[B_STATE] != 1 || !f[B_STATE][0] ||
	    !strchr(BLOCKED_STATES, f[B_STATE][0]))
		return perr(r, err, "state: expected one letter of /proc/PID/stat (R, S, D, T, t, X, Z, P or I), got '%s'",
			    excerpt(ex, f[B_STATE], flen[B_STATE]));
	t.state = f[B_STATE][0];
	if (parse_u64_field(r, err, "waiting_ns", f[B_WAITING], flen[B_WAITING],
			    UINT64_MAX, &t.waiting_ns))
		return -1;
	if (flen[B_ADDR] != 16 || !is_lower_hex(f[B_ADDR], 16))
		return perr(r, err, "address: expected 16 lowercase hex digits, got '%s'",
			    excerpt(ex, f[B_ADDR], flen[B_ADDR]));
	if (sp_symbol_parse(f[B_SYM], flen[B_SYM], &si))
		return perr(r, err,
			    "symbol: expected 'func+0xOFF/0xLEN', 'func+0xOFF/0xLEN [module]', '0xADDR' or '" SP_SYM_UNLOADED "', got '%s'",
			    excerpt(ex, f[B_SYM], flen[B_SYM]));
	if (b->ntasks) {
		const struct sp_btask *prev = &b->tasks[b->ntasks - 1];

		if (prev->waiting_ns < t.waiting_ns ||
		    (prev->waiting_ns == t.waiting_ns && prev->pid >= t.pid))
			return perr(r, err, "not sorted by waiting_ns (descending), then pid: pid %u waiting %llu ns after pid %u waiting %llu ns",
				    t.pid, (unsigned long long)t.waiting_ns, prev->pid,
				    (unsigned long long)prev->waiting_ns);
	}
	key.a = t.pid;
	if (!sp_keymap_upsert(&b->pids, &key, b->ntasks, &prev_line))
		return perr(r, err, "pid %u listed twice (a task is shown once)", t.pid);
	clen = comm_field(r, err, f[B_COMM], flen[B_COMM], small, &dec);
	if (clen < 0)
		return -1;
	t.comm = sp_pool_intern(&b->comms, dec, (size_t)clen, NULL);
	if (dec != small)
		free(dec);
	t.sym = sp_pool_intern(&b->syms, f[B_SYM], flen[B_SYM], NULL);
	if (b->ntasks == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 64;
		b->tasks = sp_xrealloc(b->tasks, b->cap, sizeof(*b->tasks));
	}
	b->tasks[b->ntasks++] = t;
	return 0;
}

/*
 * A file of one version without minors: its version line exactly, the
 * summary (summary(), which sets *entries), then *entries data lines
 * (line()) and the end of the input.
 */
static int fixed_file(struct sp_reader *r, struct sp_error *err,
		      const char *version, void *dst,
		      int (*summary)(struct sp_reader *, void *, struct sp_error *),
		      int (*line)(struct sp_reader *, void *, struct sp_error *),
		      const int64_t *entries)
{
	size_t vlen = strlen(version);
	uint64_t n;
	int rc;

	rc = next_line(r, err);
	if (rc < 0)
		return -1;
	if (!rc)
		return perr(r, err, "empty input, expected '%s'", version);
	if (!r->line_nl && r->linelen <= vlen && !memcmp(r->line, version, r->linelen))
		return perr(r, err, TRUNCATED);
	if (!same(r->line, r->linelen, version)) {
		char ex[200];

		return perr(r, err, "expected '%s' (the only version of the format), got '%s'",
			    version, excerpt(ex, r->line, r->linelen));
	}
	if (summary(r, dst, err))
		return -1;
	for (n = 0; n < (uint64_t)*entries; n++) {
		rc = next_line(r, err);
		if (rc < 0)
			return -1;
		if (!rc)
			return perr(r, err,
				    "unexpected end of input: summary 'entries' says %lld data lines, got %llu",
				    (long long)*entries, (unsigned long long)n);
		if (line(r, dst, err))
			return -1;
	}
	rc = next_line(r, err);
	if (rc < 0)
		return -1;
	if (rc)
		return perr(r, err, "expected end of input after %lld data lines (summary 'entries')",
			    (long long)*entries);
	return 0;
}

static int blocked_summary_cb(struct sp_reader *r, void *b, struct sp_error *err)
{
	return blocked_summary(r, b, err);
}

static int blocked_line_cb(struct sp_reader *r, void *b, struct sp_error *err)
{
	return blocked_line(r, b, err);
}

int sp_parse_blocked(struct sp_reader *r, struct sp_blocked *b,
		     struct sp_error *err)
{
	return fixed_file(r, err, SP_BLOCKED_VERSION, b, blocked_summary_cb,
			  blocked_line_cb, &b->entries);
}

/* ---- /proc/sched_points_wakers ------------------------------------------- */

/*
 * The spec's section "/proc/sched_points_wakers", format version 1: the
 * version line exactly, then exactly enabled, mode, wakers, hist, entries,
 * unlisted in that order (no other name: the format has no minors), the
 * column header, and 'entries' lines of sixteen fields.  Checked on each
 * line beyond the fields: a line of exited tasks (pid 0) has tgid 0, a task
 * has both ids; the kind is one a wakeup can end (sleep, disk_sleep, idle:
 * a yield, a preemption and a cond_resched are never woken); the context
 * timer only in the effective mode; waker_pid and waker_comm only for the
 * context task; wait_ns + delay_ns = total_ns (the kernel prints the run
 * delay as their difference); hist '-' while the summary's is 0; and the
 * order, count descending then pid (the rest of the spec's order, by
 * address, is not checked: addresses are zeros for some readers, and for
 * waker sites of unloaded modules, while the kernel sorts by the real ones).
 */
#define WAKERS_HEADER	"pid\ttgid\tkind\twaker\twaker_pid\tcount\ttotal_ns\twait_ns\tdelay_ns\thist\taddress\tsymbol\tcomm\twaker_address\twaker_symbol\twaker_comm"
#define WAKERS_SHOW_HEADER \
	"pid\\ttgid\\tkind\\twaker\\twaker_pid\\tcount\\ttotal_ns\\twait_ns\\tdelay_ns\\thist\\taddress\\tsymbol\\tcomm\\twaker_address\\twaker_symbol\\twaker_comm"
#define WAKERS_ORDER	"enabled, mode, wakers, hist, entries, unlisted"

enum { W_PID, W_TGID, W_KIND, W_WAKER, W_WPID, W_COUNT, W_TOTAL, W_WAIT,
       W_DELAY, W_HIST, W_ADDR, W_SYM, W_COMM, W_WADDR, W_WSYM, W_WCOMM, W_N };

static int wakers_summary(struct sp_reader *r, struct sp_wakers *w,
			  struct sp_error *err)
{
	const struct fixed_sum sum[] = {
		{ "enabled", &w->enabled, SUM_BOOL },
		{ "mode", &w->mode, SUM_MODE },
		{ "wakers", &w->wakers, SUM_BOOL },
		{ "hist", &w->hist, SUM_BOOL },
		{ "entries", &w->entries, SUM_NUMBER },
		{ "unlisted", &w->unlisted, SUM_NUMBER },
	};

	return fixed_summary(r, err, sum, sizeof(sum) / sizeof(sum[0]),
			     WAKERS_ORDER, WAKERS_HEADER, WAKERS_SHOW_HEADER);
}

/* A call site field (address, symbol) of a wakers line: its symbol's id. */
static int wakers_site(struct sp_reader *r, struct sp_wakers *w,
		       struct sp_error *err, const char *prefix,
		       const char *addr, size_t alen, const char *sym,
		       size_t slen, uint32_t *id)
{
	struct sp_syminfo si;
	char ex[200];
	bool added;

	if (alen != 16 || !is_lower_hex(addr, 16))
		return perr(r, err, "%saddress: expected 16 lowercase hex digits, got '%s'",
			    prefix, excerpt(ex, addr, alen));
	if (sp_symbol_parse(sym, slen, &si))
		return perr(r, err,
			    "%ssymbol: expected 'func+0xOFF/0xLEN', 'func+0xOFF/0xLEN [module]', '0xADDR' or '" SP_SYM_UNLOADED "', got '%s'",
			    prefix, excerpt(ex, sym, slen));
	*id = sp_pool_intern(&w->syms, sym, slen, &added);
	if (added) {
		if (*id >= w->syminfo_cap) {
			w->syminfo_cap = w->syminfo_cap ? 2 * w->syminfo_cap : 64;
			w->syminfo = sp_xrealloc(w->syminfo, w->syminfo_cap,
						 sizeof(*w->syminfo));
		}
		w->syminfo[*id] = si;
	}
	return 0;
}

/* A comm field of a wakers line, interned. */
static int wakers_comm(struct sp_reader *r, struct sp_wakers *w,
		       struct sp_error *err, const char *f, size_t len,
		       uint32_t *id)
{
	char small[SMALL_COMM], *dec = small;
	long clen = comm_field(r, err, f, len, small, &dec);

	if (clen < 0)
		return -1;
	*id = sp_pool_intern(&w->comms, dec, (size_t)clen, NULL);
	if (dec != small)
		free(dec);
	return 0;
}

static int wakers_line(struct sp_reader *r, struct sp_wakers *w,
		       struct sp_error *err)
{
	static const char *const ctx_words = "'task', 'softirq', 'hardirq' or 'timer'";
	const char *f[W_N];
	size_t flen[W_N], nf = split_fields(r, f, flen, W_N);
	struct sp_wline l = { 0 };
	struct sp_hist h;
	bool has_hist;
	uint64_t v, delay_ns;
	char ex[200];
	int k;

	if (!r->line_nl)
		return perr(r, err, TRUNCATED);
	if (nf != W_N)
		return perr(r, err, "expected %d TAB-separated fields, got %zu", W_N, nf);
	if (parse_u64_field(r, err, "pid", f[W_PID], flen[W_PID], UINT32_MAX, &v))
		return -1;
	l.pid = (uint32_t)v;
	if (parse_u64_field(r, err, "tgid", f[W_TGID], flen[W_TGID], UINT32_MAX, &v))
		return -1;
	l.tgid = (uint32_t)v;
	if (!l.pid && l.tgid)
		return perr(r, err, "tgid: a line of exited tasks (pid 0) has tgid 0 in this file, got '%u'",
			    l.tgid);
	if (l.pid && !l.tgid)
		return perr(r, err, "tgid: expected a task's tgid, above 0, got '0'");
	k = sp_kind_parse(f[W_KIND], flen[W_KIND]);
	if (k < 0 || k > SP_KIND_IDLE)
		return perr(r, err, "kind: expected 'sleep', 'disk_sleep' or 'idle' (the calls a wakeup ends), got '%s'",
			    excerpt(ex, f[W_KIND], flen[W_KIND]));
	l.kind = (uint8_t)k;
	for (k = 0; k < SP_NWCTX; k++)
		if (same(f[W_WAKER], flen[W_WAKER], sp_wctx_name((unsigned)k)))
			break;
	if (k == SP_NWCTX)
		return perr(r, err, "waker: expected %s, got '%s'", ctx_words,
			    excerpt(ex, f[W_WAKER], flen[W_WAKER]));
	if (k == SP_WCTX_TIMER && w->mode != SP_MODE_EFFECTIVE)
		return perr(r, err, "waker: 'timer' is a context of the effective mode only (summary 'mode' is caller)");
	l.ctx = (uint8_t)k;
	if (parse_u64_field(r, err, "waker_pid", f[W_WPID], flen[W_WPID], UINT32_MAX, &v))
		return -1;
	l.waker_pid = (uint32_t)v;
	if (l.ctx != SP_WCTX_TASK && l.waker_pid)
		return perr(r, err, "waker_pid: expected 0 for the context %s (only a task has a pid), got '%u'",
			    sp_wctx_name(l.ctx), l.waker_pid);
	if (parse_u64_field(r, err, "count", f[W_COUNT], flen[W_COUNT], UINT64_MAX, &l.count) ||
	    parse_u64_field(r, err, "total_ns", f[W_TOTAL], flen[W_TOTAL], UINT64_MAX, &l.total_ns) ||
	    parse_u64_field(r, err, "wait_ns", f[W_WAIT], flen[W_WAIT], UINT64_MAX, &l.wait_ns) ||
	    parse_u64_field(r, err, "delay_ns", f[W_DELAY], flen[W_DELAY], UINT64_MAX, &delay_ns))
		return -1;
	if (!l.count)
		return perr(r, err, "count: expected a count above 0 (a line counts at least one call), got '0'");
	if (l.wait_ns > l.total_ns || delay_ns != l.total_ns - l.wait_ns)
		return perr(r, err,
			    "wait_ns + delay_ns: expected total_ns %llu (each call's off-CPU time is its wait and its run delay), got %llu + %llu",
			    (unsigned long long)l.total_ns, (unsigned long long)l.wait_ns,
			    (unsigned long long)delay_ns);
	if (parse_hist(r, err, "hist", f[W_HIST], flen[W_HIST], &h, &has_hist))
		return -1;
	if (has_hist && w->hist != 1)
		return perr(r, err, "hist: expected '-' while summary 'hist' is 0, got '%s'",
			    excerpt(ex, f[W_HIST], flen[W_HIST]));
	if (wakers_site(r, w, err, "", f[W_ADDR], flen[W_ADDR], f[W_SYM], flen[W_SYM], &l.sym) ||
	    wakers_comm(r, w, err, f[W_COMM], flen[W_COMM], &l.comm) ||
	    wakers_site(r, w, err, "waker_", f[W_WADDR], flen[W_WADDR], f[W_WSYM],
			flen[W_WSYM], &l.waker_sym))
		return -1;
	if (l.ctx != SP_WCTX_TASK && flen[W_WCOMM])
		return perr(r, err, "waker_comm: expected an empty field for the context %s (only a task has a name), got '%s'",
			    sp_wctx_name(l.ctx), excerpt(ex, f[W_WCOMM], flen[W_WCOMM]));
	if (wakers_comm(r, w, err, f[W_WCOMM], flen[W_WCOMM], &l.waker_comm))
		return -1;
	if (w->nlines) {
		const struct sp_wline *prev = &w->lines[w->nlines - 1];

		if (prev->count < l.count || (prev->count == l.count && prev->pid > l.pid))
			return perr(r, err, "not sorted by count (descending), then pid: pid %u count %llu after pid %u count %llu",
				    l.pid, (unsigned long long)l.count, prev->pid,
				    (unsigned long long)prev->count);
	}
	if (has_hist) {
		if (w->nhists == w->hcap) {
			w->hcap = w->hcap ? 2 * w->hcap : 16;
			w->hists = sp_xrealloc(w->hists, w->hcap, sizeof(*w->hists));
		}
		w->hists[w->nhists++] = h;
		l.hist = w->nhists;
	}
	if (w->nlines == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 64;
		w->lines = sp_xrealloc(w->lines, w->cap, sizeof(*w->lines));
	}
	w->lines[w->nlines++] = l;
	return 0;
}

static int wakers_summary_cb(struct sp_reader *r, void *w, struct sp_error *err)
{
	return wakers_summary(r, w, err);
}

static int wakers_line_cb(struct sp_reader *r, void *w, struct sp_error *err)
{
	return wakers_line(r, w, err);
}

int sp_parse_wakers(struct sp_reader *r, struct sp_wakers *w,
		    struct sp_error *err)
{
	return fixed_file(r, err, SP_WAKERS_VERSION, w, wakers_summary_cb,
			  wakers_line_cb, &w->entries);
}
