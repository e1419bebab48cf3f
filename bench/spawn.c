// SPDX-License-Identifier: GPL-2.0
/*
 * spawn: make COUNT short-lived tasks, one after the other, each of which
 * calls sched_yield() once (one schedule() call from do_sched_yield) and
 * exits: COUNT distinct (task, call site) keys for /proc/sched_points.
 *
 *   spawn [-n COUNT] [-c CPU]
 *
 * Tasks are clone(CLONE_VM | CLONE_VFORK) children: no page tables to
 * copy, so a task costs a few tens of thousands of instructions. They are
 * reaped by the kernel (SIGCHLD ignored). Prints
 *
 *   spawn cpu=C tasks=N ns=TOTAL
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static char stack[64 * 1024] __attribute__((aligned(16)));

static int child(void *arg)
{
	(void)arg;
	syscall(SYS_sched_yield);
	return 0;
}

int main(int argc, char **argv)
{
	long count = 1000, i;
	int cpu = -1, opt;
	struct timespec t0, t1;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "n:c:h")) != -1) {
		switch (opt) {
		case 'n': count = atol(optarg); break;
		case 'c': cpu = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-n COUNT] [-c CPU]\n", argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("sched_setaffinity");
			return 1;
		}
	}
	signal(SIGCHLD, SIG_IGN);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < count; i++) {
		if (clone(child, stack + sizeof(stack),
			  CLONE_VM | CLONE_VFORK | SIGCHLD, NULL) < 0) {
			perror("clone");
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("spawn cpu=%d tasks=%ld ns=%lld\n", cpu, count,
	       (t1.tv_sec - t0.tv_sec) * 1000000000LL + t1.tv_nsec - t0.tv_nsec);
	return 0;
}
