// SPDX-License-Identifier: GPL-2.0-only
/*
 * Input parsing: /proc/sched_points, format version 1 (.spec/interface.md).
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
#include <stdlib.h>
#include <string.h>

#include "schedpoints.h"

#define READ_CHUNK	(1u << 20)
#define VERSION_PREFIX	"sched_points version "
#define COLUMN_HEADER	"pid\ttgid\tcount\taddress\tsymbol\tcomm"

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

/* Quote at most 40 bytes of untrusted input for an error message. */
static const char *excerpt(char *buf, const char *s, size_t len)
{
	bool cut = len > 40;
	size_t o = sp_escape(buf, s, cut ? 40 : len, 0);

	if (cut)
		memcpy(buf + o, "...", 4);
	return buf;
}

/* 0: ok, -1: not an unsigned decimal, -2: above max. */
static int parse_uint(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (!len)
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
	if (len >= 2 && s[0] == '0' && s[1] == 'x' && len <= 18 &&
	    is_lower_hex(s + 2, len - 2)) {
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
	uint64_t major, minor;
	char ex[200];

	if (!is_version_line(r) || !r->line_nl)
		return perr(r, err, "expected 'sched_points version %d', got '%s'",
			    SP_FORMAT_MAJOR, excerpt(ex, r->line, r->linelen));
	dot = memchr(v, '.', vlen);
	mlen = dot ? (size_t)(dot - v) : vlen;
	if (parse_uint(v, mlen, UINT32_MAX, &major) ||
	    (dot && parse_uint(dot + 1, vlen - mlen - 1, UINT32_MAX, &minor)))
		return perr(r, err,
			    "expected 'sched_points version <MAJOR>[.<MINOR>]', got '%s'",
			    excerpt(ex, r->line, r->linelen));
	if (major != SP_FORMAT_MAJOR)
		return perr(r, err,
			    "unsupported format version %llu (this schedpoints reads version %d)",
			    (unsigned long long)major, SP_FORMAT_MAJOR);
	snprintf(st->version, sizeof(st->version), "%.*s", (int)vlen, v);
	return 0;
}

static const char *const summary_names[] = {
	"enabled", "cpus", "capacity", "used", "entries", "dropped",
};

static int64_t *summary_field(struct sp_summary *s, size_t i)
{
	switch (i) {
	case 0: return &s->enabled;
	case 1: return &s->cpus;
	case 2: return &s->capacity;
	case 3: return &s->used;
	case 4: return &s->entries;
	default: return &s->dropped;
	}
}

/* 1: column header seen, 0: summary line, -1: error. */
static int parse_summary(struct sp_reader *r, struct sp_store *st,
			 struct sp_error *err)
{
	const char *sp;
	size_t nlen, i;
	uint64_t v;
	int rc;
	char ex[200];

	if (r->linelen == sizeof(COLUMN_HEADER) - 1 &&
	    !memcmp(r->line, COLUMN_HEADER, r->linelen))
		return r->line_nl ? 1 :
			perr(r, err, "line is not terminated by a newline (truncated input?)");
	if (memchr(r->line, '\t', r->linelen))
		return perr(r, err,
			    "expected the column header 'pid\\ttgid\\tcount\\taddress\\tsymbol\\tcomm', got '%s'",
			    excerpt(ex, r->line, r->linelen));
	sp = memchr(r->line, ' ', r->linelen);
	nlen = sp ? (size_t)(sp - r->line) : 0;
	for (i = 0; i < nlen; i++) {
		char c = r->line[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
			break;
	}
	if (!sp || !nlen || i < nlen)
		return perr(r, err,
			    "expected a summary line '<name> <unsigned decimal>' or the column header, got '%s'",
			    excerpt(ex, r->line, r->linelen));
	rc = parse_uint(sp + 1, r->linelen - nlen - 1, INT64_MAX, &v);
	if (rc)
		return perr(r, err, "summary '%.*s': expected an unsigned decimal%s, got '%s'",
			    (int)nlen, r->line, rc == -2 ? " below 2^63" : "",
			    excerpt(ex, sp + 1, r->linelen - nlen - 1));
	if (!r->line_nl)
		return perr(r, err, "line is not terminated by a newline (truncated input?)");
	for (i = 0; i < sizeof(summary_names) / sizeof(summary_names[0]); i++) {
		int64_t *f;

		if (strlen(summary_names[i]) != nlen ||
		    memcmp(summary_names[i], r->line, nlen) != 0)
			continue;
		f = summary_field(&st->sum, i);
		if (*f >= 0)
			return perr(r, err, "summary '%s' given twice",
				    summary_names[i]);
		if (f == &st->sum.enabled && v > 1)
			return perr(r, err, "summary 'enabled': expected 0 or 1, got %llu",
				    (unsigned long long)v);
		*f = (int64_t)v;
	}
	return 0;	/* unknown names are ignored (future minors) */
}

static int parse_data(struct sp_reader *r, struct sp_store *st,
		      struct sp_error *err)
{
	const char *f[6];
	size_t flen[6], nf = 0;
	const char *p = r->line, *end = r->line + r->linelen;
	uint64_t pid, tgid, count;
	struct sp_syminfo si;
	char small[128], *dec = small, ex[200];
	const char *why = NULL;
	long clen;
	int rc;

	for (;;) {
		const char *tab = memchr(p, '\t', (size_t)(end - p));
		const char *fe = tab ? tab : end;

		if (nf < 6) {
			f[nf] = p;
			flen[nf] = (size_t)(fe - p);
		}
		nf++;
		if (!tab)
			break;
		p = tab + 1;
	}
	if (nf != 6)
		return perr(r, err, "expected 6 TAB-separated fields, got %zu", nf);
	if (!r->line_nl)
		return perr(r, err, "line is not terminated by a newline (truncated input?)");
	rc = parse_uint(f[0], flen[0], UINT32_MAX, &pid);
	if (rc)
		return perr(r, err, "pid: expected an unsigned decimal%s, got '%s'",
			    rc == -2 ? " below 2^32" : "", excerpt(ex, f[0], flen[0]));
	rc = parse_uint(f[1], flen[1], UINT32_MAX, &tgid);
	if (rc)
		return perr(r, err, "tgid: expected an unsigned decimal%s, got '%s'",
			    rc == -2 ? " below 2^32" : "", excerpt(ex, f[1], flen[1]));
	rc = parse_uint(f[2], flen[2], UINT64_MAX, &count);
	if (rc)
		return perr(r, err, "count: expected an unsigned decimal%s, got '%s'",
			    rc == -2 ? " below 2^64" : "", excerpt(ex, f[2], flen[2]));
	if (flen[3] != 16 || !is_lower_hex(f[3], 16))
		return perr(r, err, "address: expected 16 lowercase hex digits, got '%s'",
			    excerpt(ex, f[3], flen[3]));
	if (sp_symbol_parse(f[4], flen[4], &si))
		return perr(r, err,
			    "symbol: expected 'func+0xOFF/0xLEN', 'func+0xOFF/0xLEN [module]' or '0xADDR', got '%s'",
			    excerpt(ex, f[4], flen[4]));
	if (flen[5] > sizeof(small))
		dec = sp_xrealloc(NULL, flen[5], 1);
	clen = sp_comm_decode(f[5], flen[5], dec, &why);
	if (clen < 0) {
		perr(r, err, "comm: %s, got '%s'", why, excerpt(ex, f[5], flen[5]));
		if (dec != small)
			free(dec);
		return -1;
	}
	rc = sp_store_add(st, (uint32_t)pid, (uint32_t)tgid, dec, (size_t)clen,
			  f[4], flen[4], &si, count);
	if (dec != small)
		free(dec);
	if (rc)
		return perr(r, err, "count: the sum of all counts exceeds 2^64-1");
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
		return perr(r, err, "empty input, expected 'sched_points version %d'",
			    SP_FORMAT_MAJOR);
	}
	if (parse_version(r, st, err))
		return -1;

	for (;;) {
		rc = next_line(r, err);
		if (rc < 0)
			return -1;
		if (!rc)
			return perr(r, err,
				    "unexpected end of input, expected the column header 'pid\\ttgid\\tcount\\taddress\\tsymbol\\tcomm'");
		rc = parse_summary(r, st, err);
		if (rc < 0)
			return -1;
		if (rc)
			break;
	}
	if (st->sum.entries > 0)
		sp_store_reserve(st, (uint64_t)st->sum.entries);

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
