// SPDX-License-Identifier: GPL-2.0
/*
 * writefile: time writing a string to a file (one write() to a file
 * opened once), REPS times, e.g. a debugfs file of the test module whose
 * write makes the kernel do N things before it returns.
 *
 *   writefile [-r REPS] FILE STRING
 *
 * Prints one line per repetition:
 *
 *   write rep=R ns=TOTAL
 *
 * TOTAL times the write() alone. A failed open or write is an error
 * (exit 1), with the reason.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-r REPS] FILE STRING\n", prog);
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	long reps = 3, r;
	size_t len;
	ssize_t n;
	int fd, opt;

	while ((opt = getopt(argc, argv, "r:h")) != -1) {
		switch (opt) {
		case 'r': reps = atol(optarg); break;
		default:
			usage(argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (optind != argc - 2 || reps < 1) {
		usage(argv[0]);
		return 2;
	}
	fd = open(argv[optind], O_WRONLY);
	if (fd < 0) {
		perror(argv[optind]);
		return 1;
	}
	len = strlen(argv[optind + 1]);
	for (r = 1; r <= reps; r++) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		n = pwrite(fd, argv[optind + 1], len, 0);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (n != (ssize_t)len) {
			perror(n < 0 ? "write" : "short write");
			return 1;
		}
		printf("write rep=%ld ns=%lld\n", r,
		       (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL +
		       (t1.tv_nsec - t0.tv_nsec));
	}
	close(fd);
	return 0;
}
