// SPDX-License-Identifier: GPL-2.0-only
/* Memory, hashing and the display form of untrusted bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "schedpoints.h"

void *sp_xrealloc(void *p, size_t nmemb, size_t size)
{
	void *q;

	if (size && nmemb > SIZE_MAX / size) {
		fputs("schedpoints: out of memory\n", stderr);
		exit(SP_EXIT_ERROR);
	}
	q = realloc(p, (nmemb && size) ? nmemb * size : 1);
	if (!q) {
		fputs("schedpoints: out of memory\n", stderr);
		exit(SP_EXIT_ERROR);
	}
	return q;
}

char *sp_xstrdup(const char *s)
{
	size_t len = strlen(s) + 1;
	char *d = sp_xrealloc(NULL, len, 1);

	memcpy(d, s, len);
	return d;
}

/*
 * Hashing of untrusted keys.  Every key of a table comes from the input (a
 * pid, a task name, a symbol), so an unkeyed hash lets a crafted file put
 * every key in one probe chain: 100,000 lines that collide took 17.9 s of
 * CPU instead of 0.08 s (issue 34).  The tables hash with SipHash-1-3
 * (Aumasson and Bernstein; the 1-3 variant as Rust's HashMap and CPython
 * use it) under a 128-bit key drawn from getrandom() per table, so no
 * input can be made to collide without knowing the key.
 */
void sp_hkey_init(struct sp_hkey *k)
{
	uint64_t w[2];

	if (getrandom(w, sizeof(w), GRND_NONBLOCK) != (ssize_t)sizeof(w)) {
		/*
		 * No entropy yet (early boot) or no getrandom(): the clock,
		 * the pid and an address (ASLR) still differ per run.
		 */
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		w[0] = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^
		       (uint64_t)getpid();
		w[1] = (uint64_t)(uintptr_t)k ^ (uint64_t)(uintptr_t)&ts;
	}
	k->k0 = w[0];
	k->k1 = w[1];
	k->set = true;
}

#define ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))

struct sip {
	uint64_t v0, v1, v2, v3;
};

static void sip_round(struct sip *s)
{
	s->v0 += s->v1; s->v1 = ROTL(s->v1, 13); s->v1 ^= s->v0;
	s->v0 = ROTL(s->v0, 32);
	s->v2 += s->v3; s->v3 = ROTL(s->v3, 16); s->v3 ^= s->v2;
	s->v0 += s->v3; s->v3 = ROTL(s->v3, 21); s->v3 ^= s->v0;
	s->v2 += s->v1; s->v1 = ROTL(s->v1, 17); s->v1 ^= s->v2;
	s->v2 = ROTL(s->v2, 32);
}

static void sip_word(struct sip *s, uint64_t m)
{
	s->v3 ^= m;
	sip_round(s);		/* one compression round */
	s->v0 ^= m;
}

static void sip_init(struct sip *s, const struct sp_hkey *k)
{
	s->v0 = k->k0 ^ 0x736f6d6570736575ULL;
	s->v1 = k->k1 ^ 0x646f72616e646f6dULL;
	s->v2 = k->k0 ^ 0x6c7967656e657261ULL;
	s->v3 = k->k1 ^ 0x7465646279746573ULL;
}

static uint64_t sip_final(struct sip *s)
{
	s->v2 ^= 0xff;
	sip_round(s);		/* three finalization rounds */
	sip_round(s);
	sip_round(s);
	return s->v0 ^ s->v1 ^ s->v2 ^ s->v3;
}

uint64_t sp_hash_bytes(const struct sp_hkey *k, const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t last = (uint64_t)len << 56;
	struct sip s;
	size_t i;

	sip_init(&s, k);
	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t m;

		memcpy(&m, b + i, 8);
		sip_word(&s, m);
	}
	for (; i < len; i++)
		last |= (uint64_t)b[i] << (8 * (len & 7) - 8 * (len - i));
	sip_word(&s, last);
	return sip_final(&s);
}

uint64_t sp_hash_u32x4(const struct sp_hkey *k, uint32_t a, uint32_t b,
		       uint32_t c, uint32_t d)
{
	struct sip s;

	sip_init(&s, k);
	sip_word(&s, (uint64_t)a << 32 | b);
	sip_word(&s, (uint64_t)c << 32 | d);
	sip_word(&s, (uint64_t)16 << 56);
	return sip_final(&s);
}

/* Length of the valid UTF-8 sequence at s (not a C1 control), or 0. */
size_t sp_utf8_len(const char *p, size_t len)
{
	const unsigned char *s = (const unsigned char *)p;
	unsigned char c = s[0];
	size_t n, i;
	unsigned char lo = 0x80, hi = 0xbf;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (n > len)
		return 0;
	if (c == 0xc2 || c == 0xe0)
		lo = 0xa0;		/* C1 controls U+0080..U+009F; overlong */
	else if (c == 0xed)
		hi = 0x9f;		/* surrogates */
	else if (c == 0xf0)
		lo = 0x90;		/* overlong */
	else if (c == 0xf4)
		hi = 0x8f;		/* > U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/*
 * Code points that change how the text around them is shown, not what it
 * says: the byte order mark U+FEFF, and the bidirectional controls
 * U+061C, U+200E, U+200F (marks), U+202A..U+202E (embeddings, overrides)
 * and U+2066..U+2069 (isolates).  A task named "U+202E" "sdrawkcab" shows
 * as "backwards", and can pass for another task: the display form
 * escapes their bytes, JSON writes them as \uXXXX (issue 34).  Returns
 * the code point of the valid n-byte sequence at s if it is one, else 0.
 */
uint32_t sp_utf8_hidden(const char *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	uint32_t cp;

	if (n == 2)
		cp = (uint32_t)(s[0] & 0x1f) << 6 | (s[1] & 0x3f);
	else if (n == 3)
		cp = (uint32_t)(s[0] & 0x0f) << 12 | (uint32_t)(s[1] & 0x3f) << 6 |
		     (s[2] & 0x3f);
	else
		return 0;
	if (cp == 0xfeff || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
		return cp;
	return 0;
}

size_t sp_escape(char *out, const char *in, size_t len, unsigned flags)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t i = 0, o = 0;

	while (i < len) {
		unsigned char c = s[i];
		size_t n;

		if (c > 0x20 && c < 0x7f &&
		    (c != '\\' || (flags & SP_ESC_KEEP_BACKSLASH)) &&
		    !(c == ';' && (flags & SP_ESC_SEMI))) {
			out[o++] = (char)c;
			i++;
			continue;
		}
		if (c == ' ' && !(flags & SP_ESC_SPACE)) {
			out[o++] = ' ';
			i++;
			continue;
		}
		n = c >= 0x80 ? sp_utf8_len(in + i, len - i) : 0;
		if (n && !sp_utf8_hidden(in + i, n)) {
			memcpy(out + o, s + i, n);
			o += n;
			i += n;
			continue;
		}
		out[o++] = '\\';
		out[o++] = (char)('0' + (c >> 6));
		out[o++] = (char)('0' + ((c >> 3) & 7));
		out[o++] = (char)('0' + (c & 7));
		i++;
	}
	out[o] = '\0';
	return o;
}

void sp_fputs_escaped(FILE *fp, const char *in, size_t len, unsigned flags)
{
	char small[256];
	char *buf = small;

	if (len > (sizeof(small) - 1) / 4)
		buf = sp_xrealloc(NULL, len, 4 + 1);
	sp_escape(buf, in, len, flags);
	fputs(buf, fp);
	if (buf != small)
		free(buf);
}

/* ---- numbers, kinds ------------------------------------------------------ */

const char *sp_u128_str(char *buf, sp_u128 v)
{
	char rev[SP_U128_DIGITS];
	size_t n = 0, i;

	do {
		rev[n++] = (char)('0' + (unsigned)(v % 10));
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		buf[i] = rev[n - 1 - i];
	buf[n] = '\0';
	return buf;
}

void sp_fmt_seconds(char *buf, size_t len, sp_u128 ns)
{
	char digits[SP_U128_DIGITS];

	snprintf(buf, len, "%s.%09u", sp_u128_str(digits, ns / 1000000000u),
		 (unsigned)(ns % 1000000000u));
}

void sp_fmt_duration(char *buf, size_t len, sp_u128 ns)
{
	static const struct {
		const char *name;
		double ns;
	} unit[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
		{ "min", 60e9 }, { "h", 3600e9 }, { "d", 86400e9 },
	};
	const size_t nunit = sizeof(unit) / sizeof(unit[0]);
	double v = (double)ns, x, scale;
	size_t i = 0;

	if (ns < 1000) {
		snprintf(buf, len, "%uns", (unsigned)ns);
		return;
	}
	while (i + 1 < nunit && v >= unit[i + 1].ns)
		i++;
	for (;;) {
		x = v / unit[i].ns;
		scale = x < 10 ? 100 : x < 100 ? 10 : 1;
		x = floor(x * scale + 0.5) / scale;
		/* 999.7ms is shown as 1.00s, 59.99s as 1.00min */
		if (i + 1 < nunit && x * unit[i].ns >= unit[i + 1].ns) {
			i++;
			continue;
		}
		break;
	}
	snprintf(buf, len, scale == 100 ? "%.2f%s" : scale == 10 ? "%.1f%s" : "%.0f%s",
		 x, unit[i].name);
}

static const char *const kind_names[SP_NKINDS] = {
	[SP_KIND_SLEEP] = "sleep",
	[SP_KIND_DISK_SLEEP] = "disk_sleep", [SP_KIND_IDLE] = "idle",
	[SP_KIND_YIELD] = "yield", [SP_KIND_PREEMPT] = "preempt",
	[SP_KIND_COND_RESCHED] = "cond_resched",
};

const char *sp_kind_name(unsigned kind)
{
	return kind < SP_NKINDS ? kind_names[kind] : "?";
}

int sp_kind_parse(const char *s, size_t len)
{
	int k;

	for (k = 0; k < SP_NKINDS; k++)
		if (strlen(kind_names[k]) == len && !memcmp(kind_names[k], s, len))
			return k;
	return -1;
}

const char *sp_mode_name(int64_t mode)
{
	if (mode == SP_MODE_CALLER)
		return "caller";
	if (mode == SP_MODE_EFFECTIVE)
		return "effective";
	return NULL;
}

int sp_parse_duration(const char *s, uint64_t *ns, const char **why)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} unit[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 }, { "min", 60000000000ULL },
		{ "h", 3600000000000ULL },
	};
	uint64_t whole = 0, frac = 0, scale = 1, u = 0;
	const char *p = s;
	size_t i;

	*why = "expected a number and a unit (ns, us, ms, s, min, h), such as 500ms, 2s or 1500us";
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		uint64_t d = (uint64_t)(*p - '0');

		if (whole > (UINT64_MAX - d) / 10) {
			*why = "a duration below 2^64 ns (584 years) was expected";
			return -1;
		}
		whole = whole * 10 + d;
	}
	if (*p == '.') {
		size_t nfrac = 0;

		p++;
		if (*p < '0' || *p > '9')
			return -1;
		for (; *p >= '0' && *p <= '9'; p++, nfrac++) {
			if (nfrac >= 18)
				return -1;
			frac = frac * 10 + (uint64_t)(*p - '0');
			scale *= 10;
		}
	}
	for (i = 0; i < sizeof(unit) / sizeof(unit[0]); i++)
		if (!strcmp(p, unit[i].name))
			u = unit[i].ns;
	if (!u)
		return -1;
	/* whole * u + frac * u / scale, exactly, in whole ns */
	if (whole > UINT64_MAX / u) {
		*why = "a duration below 2^64 ns (584 years) was expected";
		return -1;
	}
	if (frac) {
		sp_u128 f = (sp_u128)frac * u;

		if (f % scale) {
			*why = "a duration in whole nanoseconds was expected";
			return -1;
		}
		f /= scale;
		if (whole * u > UINT64_MAX - (uint64_t)f) {
			*why = "a duration below 2^64 ns (584 years) was expected";
			return -1;
		}
		*ns = whole * u + (uint64_t)f;
	} else {
		*ns = whole * u;
	}
	return 0;
}
