/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Minimal JSON emitter, in the manner of bpftool's json_writer: the only way
 * schedpoints writes JSON.  Commas, nesting and string escaping are handled
 * here; callers only say what comes next.  Strings may hold any bytes: valid
 * UTF-8 is kept, control bytes are written as \u00XX and any other byte as
 * the lone surrogate \udcXX (PEP 383), so every document is valid JSON and
 * a task name's exact bytes can be recovered.
 */
#ifndef SP_JSON_WRITER_H
#define SP_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct json_writer;

struct json_writer *jsonw_new(FILE *fp, bool pretty);
void jsonw_destroy(struct json_writer **jw);

void jsonw_start_object(struct json_writer *jw);
void jsonw_end_object(struct json_writer *jw);
void jsonw_start_array(struct json_writer *jw);
void jsonw_end_array(struct json_writer *jw);
void jsonw_name(struct json_writer *jw, const char *name);

void jsonw_string(struct json_writer *jw, const char *s);
void jsonw_string_len(struct json_writer *jw, const char *s, size_t len);
void jsonw_uint(struct json_writer *jw, uint64_t v);
/* A number already formatted (decimal digits, e.g. a 128-bit sum). */
void jsonw_number(struct json_writer *jw, const char *digits);
void jsonw_int(struct json_writer *jw, int64_t v);
void jsonw_float(struct json_writer *jw, double v);	/* NaN/inf: null */
void jsonw_bool(struct json_writer *jw, bool v);
void jsonw_null(struct json_writer *jw);

void jsonw_string_field(struct json_writer *jw, const char *name, const char *s);
void jsonw_uint_field(struct json_writer *jw, const char *name, uint64_t v);
void jsonw_float_field(struct json_writer *jw, const char *name, double v);
void jsonw_bool_field(struct json_writer *jw, const char *name, bool v);
void jsonw_null_field(struct json_writer *jw, const char *name);

#endif /* SP_JSON_WRITER_H */
