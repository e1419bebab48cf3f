// SPDX-License-Identifier: GPL-2.0
/*
 * readfile: time reading a whole file (open, read to the end, close),
 * REPS times, e.g. /proc/sched_points, whose snapshot is taken at open.
 *
 *   readfile [-r REPS] FILE
 *
 * Prints one line per repetition:
 *
 *   read rep=R bytes=B lines=L ns=TOTAL
 *
 * TOTAL times open, read into a 1 MiB buffer and close, nothing else;
 * L comes from another, untimed, read of the file.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char buf[1 << 20];

/*
 * Read @path to the end: its bytes, and its lines when @lines is given.
 * Timed reads count nothing: scanning 8 MB for newlines cost a tenth as
 * much as the kernel's work to produce them, and is not the kernel's.
 */
static long read_all(const char *path, long *lines)
{
	long bytes = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		char *p = buf;

		bytes += n;
		while (lines && (p = memchr(p, '\n', buf + n - p))) {
			(*lines)++;
			p++;
		}
	}
	if (n < 0) {
		perror("read");
		exit(1);
	}
	close(fd);
	return bytes;
}

int main(int argc, char **argv)
{
	long reps = 3, r, bytes, lines;
	struct timespec t0, t1;
	int opt;

	while ((opt = getopt(argc, argv, "r:h")) != -1) {
		switch (opt) {
		case 'r': reps = atol(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-r REPS] FILE\n", argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: %s [-r REPS] FILE\n", argv[0]);
		return 2;
	}
	for (r = 1; r <= reps; r++) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		bytes = read_all(argv[optind], NULL);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		/* Another read, untimed: the file holds a fresh snapshot. */
		lines = 0;
		read_all(argv[optind], &lines);
		printf("read rep=%ld bytes=%ld lines=%ld ns=%lld\n", r, bytes, lines,
		       (t1.tv_sec - t0.tv_sec) * 1000000000LL + t1.tv_nsec - t0.tv_nsec);
	}
	return 0;
}
