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
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char buf[1 << 20];

int main(int argc, char **argv)
{
	long reps = 3, r, bytes, lines;
	struct timespec t0, t1;
	ssize_t n;
	int opt, fd;

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
		bytes = lines = 0;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		fd = open(argv[optind], O_RDONLY);
		if (fd < 0) {
			perror(argv[optind]);
			return 1;
		}
		while ((n = read(fd, buf, sizeof(buf))) > 0) {
			char *p = buf;

			bytes += n;
			while ((p = memchr(p, '\n', buf + n - p))) {
				lines++;
				p++;
			}
		}
		close(fd);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (n < 0) {
			perror("read");
			return 1;
		}
		printf("read rep=%ld bytes=%ld lines=%ld ns=%lld\n", r, bytes, lines,
		       (t1.tv_sec - t0.tv_sec) * 1000000000LL + t1.tv_nsec - t0.tv_nsec);
	}
	return 0;
}
