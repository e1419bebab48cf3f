// SPDX-License-Identifier: GPL-2.0
/*
 * A sampling profiler of one open of /proc/sched_points, for
 * scripts/profile-read.sh: never part of the series. It is pasted into
 * kernel/sched/points_proc.c of a profiling build, before
 * sched_points_proc_open(), which starts it; sched_points_proc_release()
 * stops it. A pinned hrtimer records the interrupted address every 5 us
 * of guest time: under QEMU -icount shift=0 that is every 5000 guest
 * instructions, so the samples count instructions. A snapshot of at least
 * SP_PROF_MIN_LINES lines prints its samples, one "spprof ADDR COUNT" line
 * per address (user mode as 1), then "spprof total N".
 */
#include <linux/hrtimer.h>
#include <asm/irq_regs.h>

#define SP_PROF_PERIOD_NS	5000
#define SP_PROF_MAX		65536
#define SP_PROF_MIN_LINES	50000

static unsigned long sp_prof_ips[SP_PROF_MAX];
static unsigned int sp_prof_nr;
static struct hrtimer sp_prof_timer;
static bool sp_prof_on;

static enum hrtimer_restart sp_prof_fn(struct hrtimer *t)
{
	struct pt_regs *regs = get_irq_regs();

	if (regs && sp_prof_nr < SP_PROF_MAX)
		sp_prof_ips[sp_prof_nr++] = user_mode(regs) ? 1 :
					    instruction_pointer(regs);
	hrtimer_forward_now(t, ns_to_ktime(SP_PROF_PERIOD_NS));
	return HRTIMER_RESTART;
}

static void sp_prof_start(void)
{
	if (sp_prof_on)
		return;
	sp_prof_on = true;
	sp_prof_nr = 0;
	hrtimer_init(&sp_prof_timer, CLOCK_MONOTONIC,
		     HRTIMER_MODE_REL_PINNED_HARD);
	sp_prof_timer.function = sp_prof_fn;
	hrtimer_start(&sp_prof_timer, ns_to_ktime(SP_PROF_PERIOD_NS),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static int sp_prof_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static void sp_prof_stop(struct file *file)
{
	struct seq_file *m = file->private_data;
	struct sched_points_snapshot *snap = m->private;
	unsigned int i, j;

	if (!sp_prof_on)
		return;
	hrtimer_cancel(&sp_prof_timer);
	sp_prof_on = false;
	if (snap->nr < SP_PROF_MIN_LINES)
		return;
	sort(sp_prof_ips, sp_prof_nr, sizeof(long), sp_prof_cmp, NULL);
	for (i = 0; i < sp_prof_nr; i = j) {
		for (j = i; j < sp_prof_nr && sp_prof_ips[j] == sp_prof_ips[i];
		     j++)
			;
		pr_info("spprof %lx %u\n", sp_prof_ips[i], j - i);
	}
	pr_info("spprof total %u\n", sp_prof_nr);
}
