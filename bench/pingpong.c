// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong: two processes pass one byte back and forth over a pair of
 * pipes, both pinned to one CPU, so that every round trip is two voluntary
 * schedule() calls (each side blocks in read(), or in poll() with -p).
 *
 * Both run SCHED_BATCH, so that the woken side never preempts the waker
 * (wakeup preemption): the waker goes on to block in read() and calls
 * schedule() itself. With SCHED_OTHER (-o) some wakeups preempt the waker,
 * which then finds its byte already there: fewer schedule() calls (about
 * 1.3 per round trip here) and preemptions instead.
 *
 *   pingpong [-n ROUNDS] [-w WARMUP] [-r REPS] [-c CPU[,CPU...]] [-p] [-o]
 *
 * With several CPUs, one pair runs on each, all started at once. For each
 * pair and repetition it prints one line:
 *
 *   pingpong cpu=C rep=R rounds=N ns=TOTAL ns_per_round=X pids=P,Q
 *
 * Times are CLOCK_MONOTONIC; under QEMU -icount shift=0 a nanosecond is
 * one guest instruction.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long rounds = 10000, warmup = 1000, reps = 5;
static int use_poll, use_other;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void pin(int cpu)
{
	cpu_set_t set;

	struct sched_param sp = { 0 };

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	if (!use_other && sched_setscheduler(0, SCHED_BATCH, &sp))
		die("sched_setscheduler");
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void get(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char c;

	if (use_poll && poll(&pfd, 1, -1) != 1)
		die("poll");
	if (read(fd, &c, 1) != 1)
		die("read");
}

static void put(int fd)
{
	if (write(fd, "x", 1) != 1)
		die("write");
}

/*
 * One pair on @cpu: warms up, says so on @ready, waits for a byte on @go,
 * then runs the repetitions.
 */
static void pair(int cpu, int ready, int go)
{
	int ab[2], ba[2];
	pid_t child;
	long r, i;
	char c;

	if (pipe(ab) || pipe(ba))
		die("pipe");
	pin(cpu);
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		for (;;) {
			get(ab[0]);
			put(ba[1]);
		}
	}
	for (i = 0; i < warmup; i++) {
		put(ab[1]);
		get(ba[0]);
	}
	if (ready >= 0)
		put(ready);
	if (go >= 0 && read(go, &c, 1) != 1)
		die("read go");
	for (r = 1; r <= reps; r++) {
		long long t0 = now_ns(), t;

		for (i = 0; i < rounds; i++) {
			put(ab[1]);
			get(ba[0]);
		}
		t = now_ns() - t0;
		printf("pingpong cpu=%d rep=%ld rounds=%ld ns=%lld ns_per_round=%.2f pids=%d,%d\n",
		       cpu, r, rounds, t, (double)t / rounds, (int)getpid(), (int)child);
		fflush(stdout);
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

int main(int argc, char **argv)
{
	int cpus[64], ncpus = 0, go[2], ready[2], opt, i, status, rc = 0;
	char *s, *tok;

	while ((opt = getopt(argc, argv, "n:w:r:c:poh")) != -1) {
		switch (opt) {
		case 'n': rounds = atol(optarg); break;
		case 'w': warmup = atol(optarg); break;
		case 'r': reps = atol(optarg); break;
		case 'p': use_poll = 1; break;
		case 'o': use_other = 1; break;
		case 'c':
			for (s = optarg; (tok = strtok(s, ",")); s = NULL)
				if (ncpus < 64)
					cpus[ncpus++] = atoi(tok);
			break;
		default:
			fprintf(stderr, "usage: %s [-n ROUNDS] [-w WARMUP] [-r REPS] [-c CPU[,CPU...]] [-p] [-o]\n",
				argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (rounds < 1 || reps < 1 || warmup < 0) {
		fprintf(stderr, "pingpong: bad -n, -r or -w\n");
		return 2;
	}
	if (ncpus == 0)
		cpus[ncpus++] = 0;
	if (ncpus == 1) {
		pair(cpus[0], -1, -1);
		return 0;
	}
	/* Several pairs: start them together once all have warmed up. */
	if (pipe(go) || pipe(ready))
		die("pipe");
	for (i = 0; i < ncpus; i++) {
		pid_t p = fork();

		if (p < 0)
			die("fork");
		if (p == 0) {
			close(go[1]);
			close(ready[0]);
			pair(cpus[i], ready[1], go[0]);
			exit(0);
		}
	}
	close(go[0]);
	close(ready[1]);
	for (i = 0; i < ncpus; i++)
		get(ready[0]);
	for (i = 0; i < ncpus; i++)
		put(go[1]);
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			rc = 1;
	return rc;
}
