// SPDX-License-Identifier: GPL-2.0-only
/* Minimal JSON emitter, see json_writer.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "schedpoints.h"

#define JSONW_MAX_DEPTH 32

struct json_writer {
	FILE *fp;
	bool pretty;
	unsigned depth;
	bool first[JSONW_MAX_DEPTH];	/* nothing written yet at this level */
	bool after_name;
};

struct json_writer *jsonw_new(FILE *fp, bool pretty)
{
	struct json_writer *jw = sp_xrealloc(NULL, 1, sizeof(*jw));

	jw->fp = fp;
	jw->pretty = pretty;
	jw->depth = 0;
	jw->first[0] = true;
	jw->after_name = false;
	return jw;
}

void jsonw_destroy(struct json_writer **jw)
{
	if (!*jw)
		return;
	fputc('\n', (*jw)->fp);
	free(*jw);
	*jw = NULL;
}

static void indent(struct json_writer *jw)
{
	unsigned i;

	if (!jw->pretty)
		return;
	fputc('\n', jw->fp);
	for (i = 0; i < jw->depth; i++)
		fputs("  ", jw->fp);
}

/* Separator before a value or a name. */
static void sep(struct json_writer *jw)
{
	if (jw->after_name) {
		jw->after_name = false;
		return;
	}
	if (!jw->first[jw->depth])
		fputc(',', jw->fp);
	jw->first[jw->depth] = false;
	if (jw->depth)
		indent(jw);
}

static void start(struct json_writer *jw, char c)
{
	sep(jw);
	fputc(c, jw->fp);
	if (jw->depth + 1 < JSONW_MAX_DEPTH)
		jw->depth++;
	jw->first[jw->depth] = true;
}

static void end(struct json_writer *jw, char c)
{
	bool empty = jw->first[jw->depth];

	if (jw->depth)
		jw->depth--;
	if (!empty)
		indent(jw);
	fputc(c, jw->fp);
}

void jsonw_start_object(struct json_writer *jw) { start(jw, '{'); }
void jsonw_end_object(struct json_writer *jw) { end(jw, '}'); }
void jsonw_start_array(struct json_writer *jw) { start(jw, '['); }
void jsonw_end_array(struct json_writer *jw) { end(jw, ']'); }

/*
 * Any bytes: valid UTF-8 is kept (a byte order mark or bidi control is
 * written \uXXXX, the same code point), control bytes are escaped, and a byte
 * that is not part of valid UTF-8 is written as the lone surrogate
 * \udcXX (PEP 383's surrogateescape), so the document stays valid and the
 * exact bytes can be had back (Python: s.encode("utf-8", "surrogateescape")).
 */
static void quote(struct json_writer *jw, const char *s, size_t len)
{
	size_t i = 0;

	fputc('"', jw->fp);
	while (i < len) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x80) {
			size_t n = sp_utf8_len(s + i, len - i);
			uint32_t hidden = n ? sp_utf8_hidden(s + i, n) : 0;

			if (hidden)	/* BOM, bidi control: visible as \uXXXX */
				fprintf(jw->fp, "\\u%04x", (unsigned)hidden);
			else if (n)
				fwrite(s + i, 1, n, jw->fp);
			else
				fprintf(jw->fp, "\\udc%02x", c);
			i += n ? n : 1;
			continue;
		}
		switch (c) {
		case '"':
			fputs("\\\"", jw->fp);
			break;
		case '\\':
			fputs("\\\\", jw->fp);
			break;
		case '\n':
			fputs("\\n", jw->fp);
			break;
		case '\t':
			fputs("\\t", jw->fp);
			break;
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(jw->fp, "\\u%04x", c);
			else
				fputc(c, jw->fp);
		}
		i++;
	}
	fputc('"', jw->fp);
}

void jsonw_name(struct json_writer *jw, const char *name)
{
	sep(jw);
	quote(jw, name, strlen(name));
	fputs(jw->pretty ? ": " : ":", jw->fp);
	jw->after_name = true;
}

void jsonw_string_len(struct json_writer *jw, const char *s, size_t len)
{
	sep(jw);
	quote(jw, s, len);
}

void jsonw_string(struct json_writer *jw, const char *s)
{
	jsonw_string_len(jw, s, strlen(s));
}

void jsonw_uint(struct json_writer *jw, uint64_t v)
{
	sep(jw);
	fprintf(jw->fp, "%llu", (unsigned long long)v);
}

void jsonw_number(struct json_writer *jw, const char *digits)
{
	sep(jw);
	fputs(digits, jw->fp);
}

void jsonw_int(struct json_writer *jw, int64_t v)
{
	sep(jw);
	fprintf(jw->fp, "%lld", (long long)v);
}

void jsonw_float(struct json_writer *jw, double v)
{
	sep(jw);
	if (isfinite(v))
		fprintf(jw->fp, "%.6g", v);
	else
		fputs("null", jw->fp);
}

void jsonw_bool(struct json_writer *jw, bool v)
{
	sep(jw);
	fputs(v ? "true" : "false", jw->fp);
}

void jsonw_null(struct json_writer *jw)
{
	sep(jw);
	fputs("null", jw->fp);
}

void jsonw_string_field(struct json_writer *jw, const char *name, const char *s)
{
	jsonw_name(jw, name);
	jsonw_string(jw, s);
}

void jsonw_uint_field(struct json_writer *jw, const char *name, uint64_t v)
{
	jsonw_name(jw, name);
	jsonw_uint(jw, v);
}

void jsonw_float_field(struct json_writer *jw, const char *name, double v)
{
	jsonw_name(jw, name);
	jsonw_float(jw, v);
}

void jsonw_bool_field(struct json_writer *jw, const char *name, bool v)
{
	jsonw_name(jw, name);
	jsonw_bool(jw, v);
}

void jsonw_null_field(struct json_writer *jw, const char *name)
{
	jsonw_name(jw, name);
	jsonw_null(jw);
}
