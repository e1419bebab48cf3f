// SPDX-License-Identifier: GPL-2.0
/*
 * hackbench: many tasks, after the kernel's hackbench (pipe mode). Groups
 * of receivers and senders pass messages (BYTES, 100 by default) over
 * pipes; each group runs on one CPU, the groups spread over the CPUs
 * given, so that every CPU's table sees thousands of tasks.
 *
 *   hackbench [-g GROUPS] [-f FDS] [-l LOOPS] [-s SPAWNS] [-d BYTES] [-r REPS]
 *             [-w WARMUP] [-c CPU[,CPU...]] [-b]
 *
 * A group has FDS receivers, each reading from its own pipe, and FDS
 * sender slots. Receivers and slots live for the whole run (the
 * long-lived tasks); each slot forks SPAWNS senders one after the other
 * (the short-lived tasks), and each sender writes LOOPS messages to every
 * receiver of its group, then exits. Each pipe holds one page (40
 * messages of 100 bytes), so that senders block when their receiver
 * lags. -b runs every task SCHED_BATCH (no wakeup preemption). A run
 * makes GROUPS * FDS * (2 + SPAWNS) tasks and GROUPS * FDS * SPAWNS *
 * LOOPS * FDS messages; group g runs on the (g mod n)-th CPU of the
 * list (default 0,1). After WARMUP
 * untimed runs, each of REPS runs prints one line:
 *
 *   hackbench rep=R groups=G tasks=T messages=M ns=TOTAL switches=S
 *
 * TOTAL is CLOCK_MONOTONIC from the first fork to the last task reaped;
 * under QEMU -icount shift=0 a nanosecond is one guest instruction (of
 * either vCPU). S is the context switches of the run's tasks (getrusage()
 * of the reaped children: voluntary and involuntary).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXCPUS 64

static long datasize = 100, groups = 8, fds = 10, loops = 10, spawns = 5, reps = 3, warmup = 1;
static int cpus[MAXCPUS] = { 0, 1 }, ncpus = 2, batch;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void pin(int cpu)
{
	struct sched_param sp = { 0 };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	if (batch && sched_setscheduler(0, SCHED_BATCH, &sp))
		die("sched_setscheduler");
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void xwrite(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			die("write");
		buf += w;
		n -= (size_t)w;
	}
}

/* Reap one child; any child that did not exit 0 fails the run. */
static void reap(void)
{
	int st;

	while (wait(&st) < 0)
		if (errno != EINTR)
			die("wait");
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "hackbench: a task failed (status %#x)\n", st);
		exit(1);
	}
}

/* Read exactly the messages of every sender of the group, one at a time. */
static void receiver(int rfd)
{
	long left = fds * spawns * loops * datasize;
	char *buf = malloc((size_t)datasize);

	if (!buf)
		die("malloc");
	while (left > 0) {
		ssize_t r = read(rfd, buf, left < datasize ? (size_t)left : (size_t)datasize);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			die("read");
		left -= r;
	}
	_exit(0);
}

static void sender(const int *wfds)
{
	char *msg = malloc((size_t)datasize);
	long i, j;

	if (!msg)
		die("malloc");
	memset(msg, 'x', (size_t)datasize);
	for (i = 0; i < loops; i++)
		for (j = 0; j < fds; j++)
			xwrite(wfds[j], msg, (size_t)datasize);
	_exit(0);
}

/* A slot: SPAWNS short-lived senders, one after the other. */
static void slot(const int *wfds)
{
	long i;

	for (i = 0; i < spawns; i++) {
		pid_t p = fork();

		if (p < 0)
			die("fork");
		if (!p)
			sender(wfds);
		reap();
	}
	_exit(0);
}

/*
 * Fork member i of a group on CPU cpu: receiver i (i < FDS), keeping the
 * read end of its pipe, or a slot (i >= FDS), keeping every write end.
 */
static void member(int cpu, long i, const int *rfds, const int *wfds)
{
	pid_t p = fork();
	long j;

	if (p < 0)
		die("fork");
	if (p)
		return;
	pin(cpu);
	for (j = 0; j < fds; j++) {
		if (j != i)
			close(rfds[j]);
		if (i < fds)
			close(wfds[j]);
	}
	if (i < fds)
		receiver(rfds[i]);
	slot(wfds);
}

/*
 * Start one group on CPU cpu: FDS receivers, then FDS slots; the caller
 * reaps them. The parent keeps no end of the group's pipes.
 */
static void group(int cpu)
{
	int *rfds = calloc((size_t)fds, sizeof(int));
	int *wfds = calloc((size_t)fds, sizeof(int));
	long i;

	if (!rfds || !wfds)
		die("calloc");
	for (i = 0; i < fds; i++) {
		int p[2];

		if (pipe(p))
			die("pipe");
		/*
		 * One page: the group's senders fill it, so that they block
		 * in pipe_write() as well as the receivers in pipe_read().
		 */
		if (fcntl(p[1], F_SETPIPE_SZ, 4096) < 0)
			die("F_SETPIPE_SZ");
		rfds[i] = p[0];
		wfds[i] = p[1];
	}
	for (i = 0; i < 2 * fds; i++)
		member(cpu, i, rfds, wfds);
	for (i = 0; i < fds; i++) {
		close(rfds[i]);
		close(wfds[i]);
	}
	free(rfds);
	free(wfds);
}

/* Context switches of all the reaped tasks so far, voluntary + not. */
static long long csw(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru))
		die("getrusage");
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

static long long run(long long *switches)
{
	long long t0 = now_ns(), c0 = csw();
	long g, n;

	for (g = 0; g < groups; g++)
		group(cpus[g % ncpus]);
	for (n = 0; n < groups * fds * 2; n++)
		reap();
	*switches = csw() - c0;
	return now_ns() - t0;
}

static long num(const char *s, long min)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < min) {
		fprintf(stderr, "hackbench: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long long switches;
	long r;
	int c;

	while ((c = getopt(argc, argv, "g:f:l:s:d:r:w:c:bh")) != -1) {
		switch (c) {
		case 'g': groups = num(optarg, 1); break;
		case 'f': fds = num(optarg, 1); break;
		case 'l': loops = num(optarg, 1); break;
		case 's': spawns = num(optarg, 1); break;
		case 'd': datasize = num(optarg, 1); break;
		case 'r': reps = num(optarg, 1); break;
		case 'w': warmup = num(optarg, 0); break;
		case 'b': batch = 1; break;
		case 'c': {
			char *list = strdup(optarg), *tok, *save = NULL;

			ncpus = 0;
			for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				if (ncpus == MAXCPUS) {
					fprintf(stderr, "hackbench: at most %d CPUs\n", MAXCPUS);
					return 2;
				}
				cpus[ncpus++] = (int)num(tok, 0);
			}
			free(list);
			if (!ncpus) {
				fprintf(stderr, "hackbench: empty CPU list\n");
				return 2;
			}
			break;
		}
		default:
			fprintf(stderr, "usage: hackbench [-g GROUPS] [-f FDS] [-l LOOPS] [-s SPAWNS] [-d BYTES] [-r REPS] [-w WARMUP] [-c CPU[,CPU...]] [-b]\n");
			return c == 'h' ? 0 : 2;
		}
	}
	for (r = 0; r < warmup; r++)
		run(&switches);
	for (r = 1; r <= reps; r++) {
		long long ns = run(&switches);

		printf("hackbench rep=%ld groups=%ld tasks=%ld messages=%ld ns=%lld switches=%lld\n", r,
		       groups, groups * fds * (2 + spawns), groups * fds * spawns * loops * fds, ns,
		       switches);
		fflush(stdout);
	}
	return 0;
}
