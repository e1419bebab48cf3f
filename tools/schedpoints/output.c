// SPDX-License-Identifier: GPL-2.0-only
/* Loading a snapshot, rendering a view in the chosen format, -o files. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schedpoints.h"

FILE *sp_input_open(const char *path, const char *def, const char **name)
{
	FILE *fp;

	*name = path ? path : def;
	if (!strcmp(*name, "-")) {
		*name = "<stdin>";
		return stdin;
	}
	fp = fopen(*name, "r");
	if (!fp) {
		int e = errno;
		const char *hint = "";

		if (!path && e == ENOENT)
			hint = " (is the kernel built with the sched_points series?)";
		else if (!path && e == EACCES)
			hint = " (the file is readable by root only)";
		fprintf(stderr, "schedpoints: %s: %s%s\n", *name, strerror(e), hint);
	}
	return fp;
}

void sp_input_close(FILE *fp)
{
	if (fp != stdin)
		fclose(fp);
}

int sp_input_read(const char *path, const char *def, char *name, size_t len,
		  sp_parse_fn parse, void *dst)
{
	struct sp_reader r;
	struct sp_error err;
	const char *opened;
	FILE *fp = sp_input_open(path, def, &opened);
	int rc;

	snprintf(name, len, "%s", opened);
	if (!fp)
		return -1;
	sp_reader_init_file(&r, fp, name);
	rc = parse(&r, dst, &err);
	if (rc < 0)
		fprintf(stderr, "schedpoints: %s\n", err.msg);
	sp_reader_free(&r);
	sp_input_close(fp);
	return rc < 0 ? -1 : 0;
}

static int parse_one_snapshot(struct sp_reader *r, void *st,
			      struct sp_error *err)
{
	return sp_parse_snapshot(r, st, false, err);
}

int sp_load(const char *path, struct sp_store *st)
{
	sp_store_init(st, "");
	return sp_input_read(path, SP_DEFAULT_SOURCE, st->name, sizeof(st->name),
			     parse_one_snapshot, st);
}

int sp_input_ok(const struct sp_opts *o, const struct sp_store *st)
{
	const char *what = NULL;
	char sort[64];
	size_t i;

	if (o->view == SP_VIEW_HIST)
		what = "hist needs";
	else if (o->buckets)
		what = "--buckets needs";
	/* the split first: a version 1 input has no split, whatever its hist */
	for (i = 0; !sp_store_split(st) && i < o->nsort; i++) {
		if (sp_sort_split(o->sort[i])) {
			fprintf(stderr, "schedpoints: %s: --sort %s needs the wait and run delay of off-CPU time (format version 2, 'time 1'); the input has none\n",
				st->name, sp_sort_name(o->sort[i]));
			return -1;
		}
	}
	for (i = 0; !what && i < o->nsort; i++) {
		if (sp_sort_pct(o->sort[i])) {
			snprintf(sort, sizeof(sort), "--sort %s needs", sp_sort_name(o->sort[i]));
			what = sort;
		}
	}
	if (!what || st->has_hist)
		return 0;
	fprintf(stderr, "schedpoints: %s: %s the histograms of off-CPU time ('hist 1'); the input has none\n",
		st->name, what);
	return -1;
}

uint64_t sp_render(struct sp_out *out, const struct sp_store *st, bool delta,
		   double interval)
{
	const struct sp_opts *o = out->o;
	struct sp_result r;
	uint64_t n;

	if (o->view == SP_VIEW_MATRIX && o->format != SP_FMT_FOLDED &&
	    o->format != SP_FMT_PROM) {
		struct sp_matrix m;

		sp_matrix_build(&m, st, o, delta, interval);
		switch (o->format) {
		case SP_FMT_CSV:
			sp_csv_matrix(out, &m);
			break;
		case SP_FMT_JSON:
			sp_json_matrix(out, &m);
			break;
		case SP_FMT_SVG:
			sp_svg_matrix(out, &m);
			break;
		default:
			sp_table_matrix(out, &m);
			break;
		}
		n = m.cells.nrows;
		sp_matrix_free(&m);
		return n;
	}
	sp_view_build(&r, st, o, delta, interval);
	switch (o->format) {
	case SP_FMT_CSV:
		if (o->buckets || o->view == SP_VIEW_HIST)
			sp_csv_buckets(out, &r);
		else
			sp_csv_result(out, &r);
		break;
	case SP_FMT_SVG:	/* heatmap --buckets */
		sp_svg_buckets(out, &r);
		break;
	case SP_FMT_JSON:
		sp_json_result(out, &r);
		break;
	case SP_FMT_FOLDED:
		sp_folded_result(out, &r);
		break;
	case SP_FMT_PROM:
		sp_prom_result(out, &r);
		break;
	default:
		if (o->view == SP_VIEW_HIST)
			sp_table_hist(out, &r);
		else
			sp_table_result(out, &r);
		break;
	}
	n = r.nrows;
	sp_result_free(&r);
	return n;
}

int sp_no_match(const struct sp_opts *o, uint64_t n)
{
	if (n)
		return 0;
	if (o->view == SP_VIEW_SITE || (o->view == SP_VIEW_HIST && o->view_arg)) {
		fprintf(stderr, "schedpoints: no call site %smatches '%s'\n",
			o->view == SP_VIEW_HIST ? "with a histogram " : "", o->view_arg);
		return -1;
	}
	if (o->view == SP_VIEW_HIST) {
		fputs("schedpoints: no schedule point has a histogram\n", stderr);
		return -1;
	}
	if (o->view == SP_VIEW_TASK) {
		/* pid 0: the lines of exited tasks (format 2) */
		fprintf(stderr, "schedpoints: no entry for pid %u%s\n", o->task_pid,
			o->task_pid == SP_PID_EXITED ? " (no line of exited tasks)" : "");
		return -1;
	}
	return 0;
}

/*
 * -o PATH.  A regular file (or a new one) is written beside PATH and
 * renamed over it, so a reader (node_exporter, a browser) never sees half
 * a file; it keeps the permission bits, and the owner where the user may
 * set it, of the file it replaces, and a new file gets 0666 & ~umask, as a
 * shell's '>' would make it (the output is a view, not the root-only
 * snapshot: a user who wants it private sets a umask).  A character
 * device or a FIFO is written through, never replaced (-o /dev/null, a
 * named pipe), also through a symbolic link; /dev/stdout, /dev/stderr and
 * /dev/fd/N are the open descriptors themselves, whatever they are.  A
 * symbolic link to anything else is refused: replacing what it points to
 * would let whoever can write the link's directory pick the file that
 * root overwrites.  Any other file type is refused too.  tmp holds the
 * temporary path, or "" when writing through.  "-" is standard output
 * (main.c).
 */
#define TMP_SUFFIX ".tmpXXXXXX"

/* An open descriptor named as a path: /dev/stdout, /dev/fd/N...; or -1. */
static int output_named_fd(const char *path)
{
	static const char * const dirs[] = {
		"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/",
	};
	char *end;
	size_t i;
	long fd;

	if (!strcmp(path, "/dev/stdout"))
		return 1;
	if (!strcmp(path, "/dev/stderr"))
		return 2;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t n = strlen(dirs[i]);

		if (strncmp(path, dirs[i], n) != 0 || path[n] < '0' ||
		    path[n] > '9')
			continue;
		errno = 0;
		fd = strtol(path + n, &end, 10);
		if (!*end && !errno && fd <= 1048576L)
			return (int)fd;
	}
	return -1;
}

/*
 * Write through to @path, which lstat() or stat() showed to be a device
 * or FIFO: opened without creating or truncating, and checked again once
 * open, so that a file swapped in meanwhile is never written.  A FIFO
 * with no reader is an error, not a wait.
 */
static FILE *output_through(const char *path)
{
	struct stat sb;
	int fd, flags;
	FILE *fp;

	fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		fprintf(stderr, "schedpoints: %s: %s\n", path,
			errno == ENXIO ? "a FIFO with no reader" : strerror(errno));
		return NULL;
	}
	if (fstat(fd, &sb) || !(S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode))) {
		fprintf(stderr, "schedpoints: %s: changed while opened; refusing to write it\n",
			path);
		close(fd);
		return NULL;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) ||
	    !(fp = fdopen(fd, "w"))) {
		fprintf(stderr, "schedpoints: %s: %s\n", path, strerror(errno));
		close(fd);
		return NULL;
	}
	return fp;
}

/* A new file's mode, or the replaced file's mode and owner. */
static void output_mode(int fd, const struct stat *old, bool exists)
{
	if (exists) {
		/* the owner as root; else the group only, if the user is in
		 * it; else the writer's (glibc's fortified fchown() must have
		 * its result used: a (void) cast does not do) */
		if (fchown(fd, old->st_uid, old->st_gid) &&
		    fchown(fd, (uid_t)-1, old->st_gid)) {
		}
		/* the permission bits only: never set-id or sticky bits */
		(void)fchmod(fd, old->st_mode & 0777);
	} else {
		mode_t mask = umask(0);

		umask(mask);
		(void)fchmod(fd, 0666 & ~mask);
	}
}

FILE *sp_output_open(const struct sp_opts *o, char *tmp, size_t tmplen)
{
	const char *path = o->output;
	struct stat sb;
	bool exists;
	FILE *fp;
	int fd;

	tmp[0] = '\0';
	if (!path)
		return stdout;
	fd = output_named_fd(path);
	if (fd >= 0) {
		/* the descriptor itself, at its offset and with its flags */
		fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		if (fd < 0 || !(fp = fdopen(fd, "w"))) {
			fprintf(stderr, "schedpoints: %s: %s\n", path, strerror(errno));
			if (fd >= 0)
				close(fd);
			return NULL;
		}
		return fp;
	}
	exists = !lstat(path, &sb);
	if (!exists && errno != ENOENT) {
		fprintf(stderr, "schedpoints: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	if (exists && S_ISLNK(sb.st_mode)) {
		if (stat(path, &sb)) {
			fprintf(stderr, "schedpoints: %s: %s\n", path, strerror(errno));
			return NULL;
		}
		if (S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode))
			return output_through(path);
		fprintf(stderr, "schedpoints: %s: a symbolic link; refusing to replace what it points to (name that file itself)\n",
			path);
		return NULL;
	}
	if (exists && (S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode)))
		return output_through(path);
	if (exists && !S_ISREG(sb.st_mode)) {
		fprintf(stderr, "schedpoints: %s: not a regular file, character device or FIFO; refusing to replace it\n",
			path);
		return NULL;
	}
	if ((size_t)snprintf(tmp, tmplen, "%s" TMP_SUFFIX, path) >= tmplen) {
		fprintf(stderr, "schedpoints: %s: name too long\n", path);
		tmp[0] = '\0';
		return NULL;
	}
	fd = mkstemp(tmp);
	if (fd >= 0)
		output_mode(fd, &sb, exists);
	if (fd < 0 || !(fp = fdopen(fd, "w"))) {
		fprintf(stderr, "schedpoints: %s: %s\n", tmp, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return NULL;
	}
	return fp;
}

/* Flush, check, and for -o put the file in place and print its path. */
int sp_output_close(const struct sp_opts *o, FILE *fp, const char *tmp)
{
	int bad;

	if (!o->output) {
		bad = fflush(fp) || ferror(fp);
		if (bad)
			fprintf(stderr, "schedpoints: write error: %s\n", strerror(errno));
		return bad ? -1 : 0;
	}
	bad = ferror(fp);
	bad |= fclose(fp);
	if (!bad && tmp[0]) {
		/* the target is the temporary name without its suffix */
		size_t len = strlen(tmp) - strlen(TMP_SUFFIX);
		char target[4096];

		memcpy(target, tmp, len);
		target[len] = '\0';
		if (rename(tmp, target))
			bad = 1;
	}
	if (bad) {
		fprintf(stderr, "schedpoints: %s: %s\n", o->output, strerror(errno));
		if (tmp[0])
			unlink(tmp);
		return -1;
	}
	if (tmp[0]) {	/* a file put in place; a device or FIFO has the output */
		printf("%s\n", o->output);
		fflush(stdout);
	}
	return 0;
}
