// SPDX-License-Identifier: GPL-2.0
/*
 * sched_points_test - a module that owns a known schedule point
 *
 * The sched_points selftest needs a schedule() call site that lives in a
 * module, to check that /proc/sched_points names such a call site as
 * "function+0xoff/0xlen [module]", and that the name stays readable after
 * the module is unloaded.  This module provides one.
 *
 * Writing a decimal N (1..10000) to <debugfs>/sched_points_test/sleep makes
 * the writing task call sched_points_test_sleep() N times.  That function
 * sleeps for about a millisecond by calling schedule() itself, so the
 * immediate caller of schedule() -- the schedule point the kernel records --
 * is sched_points_test_sleep(), once per call.  Any other input is refused
 * with -EINVAL.  The write returns when all N sleeps are done.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/time64.h>

#define SPT_MAX_SLEEPS	10000
#define SPT_SLEEP_NS	NSEC_PER_MSEC

static struct dentry *spt_dir;

/*
 * Sleep for about SPT_SLEEP_NS, calling schedule() from here and from
 * nowhere else.  noinline and __noclone keep this function, under this
 * name, the return address of that call.
 *
 * schedule() is called even when the timer has already fired: the task is
 * then TASK_RUNNING again and schedule() returns at once.  The selftest
 * relies on every call of this function being exactly one call of
 * schedule() from it.
 */
static noinline __noclone void sched_points_test_sleep(void)
{
	struct hrtimer_sleeper t;

	hrtimer_init_sleeper_on_stack(&t, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hrtimer_set_expires(&t.timer, ns_to_ktime(SPT_SLEEP_NS));

	set_current_state(TASK_UNINTERRUPTIBLE);
	hrtimer_sleeper_start_expires(&t, HRTIMER_MODE_REL);
	schedule();

	hrtimer_cancel(&t.timer);
	__set_current_state(TASK_RUNNING);
	destroy_hrtimer_on_stack(&t.timer);
}

static ssize_t spt_sleep_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	unsigned int n, i;

	if (*ppos)
		return -EINVAL;
	if (kstrtouint_from_user(ubuf, count, 10, &n))
		return -EINVAL;
	if (n < 1 || n > SPT_MAX_SLEEPS)
		return -EINVAL;

	for (i = 0; i < n; i++) {
		if (fatal_signal_pending(current))
			return -EINTR;
		sched_points_test_sleep();
	}

	return count;
}

static const struct file_operations spt_sleep_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= spt_sleep_write,
	.llseek	= default_llseek,
};

static int __init spt_init(void)
{
	spt_dir = debugfs_create_dir("sched_points_test", NULL);
	if (IS_ERR(spt_dir))
		return PTR_ERR(spt_dir);

	debugfs_create_file("sleep", 0200, spt_dir, NULL, &spt_sleep_fops);

	return 0;
}
module_init(spt_init);

static void __exit spt_exit(void)
{
	debugfs_remove(spt_dir);
}
module_exit(spt_exit);

MODULE_DESCRIPTION("Known schedule points for the sched_points selftest");
MODULE_LICENSE("GPL");
