// SPDX-License-Identifier: GPL-2.0
/*
 * sched_points_test - a module that owns known schedule points
 *
 * The sched_points selftest needs call sites of the scheduler that live in
 * a module, to check how /proc/sched_points names them ("function+0xoff/0xlen
 * [module]"), that the names stay readable after the module is unloaded,
 * which address each mode records, and which kind each entry has.  Each
 * debugfs file of <debugfs>/sched_points_test/ takes a decimal N
 * (1..10000), written whole at offset 0, and makes the writing task call one
 * function N times; any other input is refused with -EINVAL.  The write
 * returns when all N calls are done.
 *
 * sleep         sched_points_test_sleep() sleeps for about a millisecond by
 *               calling schedule() itself: its immediate caller, the
 *               schedule point, is that function, once per call.
 * timeout       sched_points_test_timeout() sleeps one jiffy with
 *               schedule_timeout_uninterruptible(): in the caller mode the
 *               schedule point is schedule_timeout(), in the effective mode
 *               this function.
 * preempt       sched_points_test_preempt() sets need_resched inside
 *               preempt_disable() and calls preempt_enable(), which enters
 *               preempt_schedule() (kind preempt) when the kernel is
 *               preemptible (preempt=full).
 * cond_resched  sched_points_test_cond_resched() sets need_resched and calls
 *               cond_resched(), which reschedules (kind cond_resched) under
 *               preempt=none or voluntary; under preempt=full it does
 *               nothing.  Reading the file gives how many of the calls of
 *               the last write did reschedule.
 * might_resched sched_points_test_might_resched() sets need_resched and
 *               calls might_resched(), the rescheduling half of
 *               might_sleep(): with PREEMPT_DYNAMIC it enters
 *               __cond_resched() (kind cond_resched) under
 *               preempt=voluntary only, through the static call
 *               might_resched (x86) or dynamic_might_resched() (static
 *               keys, arm64); under preempt=none or full it does nothing.
 *               Reading the file gives how many of the calls of the last
 *               write did reschedule.
 * spin          sched_points_test_spin() takes N as milliseconds instead:
 *               it spins that long with preemption enabled and calls
 *               nothing, so that under preempt=full, with another task
 *               runnable on the CPU, the timer interrupt preempts it in
 *               preempt_schedule_irq() (kind preempt) at an instruction of
 *               its own.
 * down          N waits on a semaphore that an hrtimer releases about a
 *               millisecond later, alternately from
 *               sched_points_test_down_even() and
 *               sched_points_test_down_odd(), whose frames differ by one
 *               word: the wait goes through down() and __down_common(),
 *               which realigns its stack (and $-16, %rsp), so that its
 *               frame's size differs between the two; in the effective
 *               mode each must still be named (a call whose timer fired
 *               first does not wait, so fewer than N may be counted).
 * sleep_interruptible, sleep_idle
 *               the sleep of "sleep" (which waits in TASK_UNINTERRUPTIBLE,
 *               D), in TASK_INTERRUPTIBLE (S) from
 *               sched_points_test_sleep_interruptible() and in TASK_IDLE
 *               (I) from sched_points_test_sleep_idle(): one schedule()
 *               from each per call, so that the three sleep states come
 *               out as three kinds.
 * nap           sched_points_test_nap() takes N as milliseconds instead: one
 *               D-state sleep of N ms on an hrtimer, in a single call of
 *               schedule() from that function, for the histograms of
 *               off-CPU time.
 * complete      sched_points_test_complete() starts a kernel thread,
 *               spt_completer, and waits N times in wait_for_completion()
 *               for it; the thread, woken by the writer's own complete()
 *               each time, sleeps 200 to 400 us, then completes the wait
 *               from its function, sched_points_test_completer(), in the
 *               middle of its loop: in the effective mode
 *               that function is the waker of each wait, a task's, and
 *               the writer's complete() the waker of the thread's.
 * block         sched_points_test_block() takes N as milliseconds instead:
 *               one uninterruptible sleep of N ms in a single call of
 *               schedule_timeout_uninterruptible().  A task that waits in
 *               D state that long without a context switch is what the
 *               hung-task detector reports; make check plants such a
 *               report after the tests (sp.inject=late) to show that a
 *               late report still fails the run.
 *
 * hit_tp        a probe on the tracepoint sched_points_hit_tp, as a BPF
 *               program (raw_tp) or a module would attach one: a write of
 *               a pid (a decimal, 1 or more, at offset 0, of the initial
 *               pid namespace) attaches it for that task, forgetting what
 *               it counted before; a write of 0 detaches it (and waits
 *               for running probes).  A read lists what it counted, one
 *               "POINT\tKIND\tCOUNT" line per point and kind, POINT as
 *               %pS prints it (as /proc/sched_points names points), KIND
 *               the enum sched_points_kind value; a last line "lost N"
 *               counts hits past the first SPT_TP_POINTS points.
 *
 * The module parameter init_sleeps=N makes the loading task call
 * sched_points_test_init_sleep(), an __init function, N times before init
 * returns: schedule() called from init text, which is freed right after.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kstrtox.h>
#include <linux/kthread.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/semaphore.h>
#include <linux/seq_file.h>
#include <linux/time64.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>

#define SPT_MAX_CALLS	10000
#define SPT_SLEEP_NS	NSEC_PER_MSEC

static struct dentry *spt_dir;

/*
 * Sleep for about SPT_SLEEP_NS, calling schedule() from here and from
 * nowhere else.  noinline and __noclone keep this function, under this
 * name, the return address of that call.
 *
 * schedule() is called even when the timer has already fired: the task is
 * then TASK_RUNNING again and schedule() returns at once (kind yield
 * instead of sleep).  The selftest relies on every call of this function
 * being exactly one call of schedule() from it.
 */
static __always_inline void spt_sleep_here(unsigned int state, u64 ns)
{
	struct hrtimer_sleeper t;

	hrtimer_init_sleeper_on_stack(&t, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hrtimer_set_expires(&t.timer, ns_to_ktime(ns));

	set_current_state(state);
	hrtimer_sleeper_start_expires(&t, HRTIMER_MODE_REL);
	schedule();

	hrtimer_cancel(&t.timer);
	__set_current_state(TASK_RUNNING);
	destroy_hrtimer_on_stack(&t.timer);
}

static noinline __noclone int sched_points_test_sleep(void)
{
	spt_sleep_here(TASK_UNINTERRUPTIBLE, SPT_SLEEP_NS);
	return 0;
}

static noinline __noclone int sched_points_test_sleep_interruptible(void)
{
	spt_sleep_here(TASK_INTERRUPTIBLE, SPT_SLEEP_NS);
	return 0;
}

static noinline __noclone int sched_points_test_sleep_idle(void)
{
	spt_sleep_here(TASK_IDLE, SPT_SLEEP_NS);
	return 0;
}

static noinline __noclone void sched_points_test_nap(unsigned int ms)
{
	spt_sleep_here(TASK_UNINTERRUPTIBLE, (u64)ms * NSEC_PER_MSEC);
}

static unsigned int init_sleeps;
module_param(init_sleeps, uint, 0444);
MODULE_PARM_DESC(init_sleeps,
		 "sleeps in sched_points_test_init_sleep() while loading (0..10000)");

/*
 * The same sleep, in init text: freed once the module is live, without a
 * going event, so sched-points must name this call site before that.
 */
static noinline __noclone int __init sched_points_test_init_sleep(void)
{
	spt_sleep_here(TASK_UNINTERRUPTIBLE, SPT_SLEEP_NS);
	return 0;
}

/*
 * Sleep one jiffy in schedule_timeout(), a __sched wrapper of schedule().
 * The barrier() after the call keeps it from being a tail call, so that
 * this function's frame is on the stack when schedule() runs: it is the
 * first caller outside .sched.text, the effective schedule point.
 */
static noinline __noclone int sched_points_test_timeout(void)
{
	schedule_timeout_uninterruptible(1);
	barrier();
	return 0;
}

/*
 * Be preempted at a preempt_enable() of this function: with need_resched
 * set, the preempt_enable() that brings the count to zero calls
 * preempt_schedule().  On x86 need_resched is also folded into the
 * preempt count, hence set_preempt_need_resched().
 */
static noinline __noclone int sched_points_test_preempt(void)
{
	preempt_disable();
	set_tsk_need_resched(current);
	set_preempt_need_resched();
	preempt_enable();
	return 0;
}

/*
 * Reschedule in a cond_resched() of this function.  The result is used
 * after a barrier(), so the call is not a tail call and its return address
 * is in this function.  Returns 1 if cond_resched() rescheduled.
 */
static noinline __noclone int sched_points_test_cond_resched(void)
{
	int ret;

	set_tsk_need_resched(current);
	set_preempt_need_resched();
	ret = cond_resched();
	barrier();
	return ret;
}

/*
 * Reschedule in a might_resched() of this function, as might_sleep() does
 * under preempt=voluntary.  might_resched() returns nothing, so whether it
 * rescheduled is read from need_resched, set here: under preempt=none or
 * voluntary only __schedule() clears it, which __cond_resched() calls
 * whenever it reschedules, even when it picks this task again and so
 * switches nothing (the switch counts alone would miss that).  A switch
 * counts too, in case need_resched was set again since.  The barrier()
 * keeps the call from being a tail call.  Returns 1 if it rescheduled.
 */
static noinline __noclone int sched_points_test_might_resched(void)
{
	unsigned long switches;

	set_tsk_need_resched(current);
	set_preempt_need_resched();
	switches = current->nvcsw + current->nivcsw;
	might_resched();
	barrier();
	return !need_resched() ||
	       current->nvcsw + current->nivcsw != switches;
}

/* Released by spt_up_timer about SPT_SLEEP_NS after each spt_down(). */
static DEFINE_SEMAPHORE(spt_sem, 0);
static struct hrtimer spt_up_timer;

static enum hrtimer_restart spt_up(struct hrtimer *timer)
{
	up(&spt_sem);
	return HRTIMER_NORESTART;
}

static __always_inline void spt_down(void)
{
	hrtimer_start(&spt_up_timer, ns_to_ktime(SPT_SLEEP_NS),
		      HRTIMER_MODE_REL);
	down(&spt_sem);
}

/* Wait in down(); the barrier() keeps the call from being a tail call. */
static noinline __noclone int sched_points_test_down_even(void)
{
	spt_down();
	barrier();
	return 0;
}

/* The same, with one more word of stack: the other alignment. */
static noinline __noclone int sched_points_test_down_odd(void)
{
	unsigned long pad = 0;

	/* pad's address escapes: it keeps its stack slot across the call */
	asm volatile("" : : "r" (&pad) : "memory");
	spt_down();
	return pad;
}

static int spt_down_alternately(void)
{
	static unsigned int calls;

	return calls++ & 1 ? sched_points_test_down_odd() :
			     sched_points_test_down_even();
}

static DECLARE_COMPLETION(spt_go);
static DECLARE_COMPLETION(spt_done);

/*
 * The thread: @arg rounds of a wait for the writer, a nap, a wakeup of
 * the writer from here (not in a tail call: this function is the site).
 */
static noinline __noclone int sched_points_test_completer(void *arg)
{
	unsigned long i, n = (unsigned long)arg;

	for (i = 0; i < n; i++) {
		wait_for_completion(&spt_go);
		usleep_range(200, 400);
		complete(&spt_done);
	}
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/* @n waits in wait_for_completion(), each completed by the thread. */
static noinline __noclone void sched_points_test_complete(unsigned int n)
{
	struct task_struct *k;
	unsigned int i;

	reinit_completion(&spt_go);
	reinit_completion(&spt_done);
	k = kthread_run(sched_points_test_completer, (void *)(unsigned long)n,
			"spt_completer");
	if (IS_ERR(k))
		return;
	for (i = 0; i < n; i++) {
		complete(&spt_go);
		wait_for_completion(&spt_done);
	}
	kthread_stop(k);
}

/*
 * Sleep @ms milliseconds in D state, in one wait: the hung-task detector
 * reports the writer when its timeout is shorter than @ms.
 */
static noinline __noclone void sched_points_test_block(unsigned int ms)
{
	schedule_timeout_uninterruptible(msecs_to_jiffies(ms));
}

/*
 * Spin @ms milliseconds, reading jiffies (a variable, not a call) with
 * preemption enabled: whatever preempts this task here, on return from an
 * interrupt, interrupts an instruction of this function.
 */
static noinline __noclone void sched_points_test_spin(unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	while (time_before(READ_ONCE(jiffies), end))
		cpu_relax();
}

/* The count of a write: a decimal in [1, SPT_MAX_CALLS], at offset 0. */
static int spt_get_count(const char __user *ubuf, size_t count, loff_t *ppos,
			 unsigned int *n)
{
	if (*ppos)
		return -EINVAL;
	if (kstrtouint_from_user(ubuf, count, 10, n))
		return -EINVAL;
	if (*n < 1 || *n > SPT_MAX_CALLS)
		return -EINVAL;
	return 0;
}

/*
 * A file of <debugfs>/sched_points_test/: a write of N calls @call N times,
 * or @call_once once with N. Each point has exactly one of the two.
 */
struct spt_point {
	const char	*name;
	umode_t		mode;
	int		(*call)(void);	/* 1 if it rescheduled, else 0 */
	void		(*call_once)(unsigned int n);
	unsigned int	rescheduled;	/* calls of the last write that did */
};

static struct spt_point spt_points[] = {
	{ .name = "sleep",	  .mode = 0200, .call = sched_points_test_sleep },
	{ .name = "sleep_interruptible", .mode = 0200,
	  .call = sched_points_test_sleep_interruptible },
	{ .name = "sleep_idle",	  .mode = 0200,
	  .call = sched_points_test_sleep_idle },
	{ .name = "nap",	  .mode = 0200, .call_once = sched_points_test_nap },
	{ .name = "timeout",	  .mode = 0200, .call = sched_points_test_timeout },
	{ .name = "preempt",	  .mode = 0200, .call = sched_points_test_preempt },
	{ .name = "cond_resched", .mode = 0600,
	  .call = sched_points_test_cond_resched },
	{ .name = "might_resched", .mode = 0600,
	  .call = sched_points_test_might_resched },
	{ .name = "down",	  .mode = 0200, .call = spt_down_alternately },
	{ .name = "block",	  .mode = 0200, .call_once = sched_points_test_block },
	{ .name = "complete",	  .mode = 0200,
	  .call_once = sched_points_test_complete },
	{ .name = "spin",	  .mode = 0200, .call_once = sched_points_test_spin },
};

static ssize_t spt_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	struct spt_point *point = file->private_data;
	unsigned int n, i, done = 0;
	int ret;

	ret = spt_get_count(ubuf, count, ppos, &n);
	if (ret)
		return ret;

	if (point->call_once) {
		point->call_once(n);
		return count;
	}
	for (i = 0; i < n; i++) {
		if (fatal_signal_pending(current))
			return -EINTR;
		done += point->call();
	}
	WRITE_ONCE(point->rescheduled, done);

	return count;
}

static ssize_t spt_read(struct file *file, char __user *ubuf, size_t count,
			loff_t *ppos)
{
	struct spt_point *point = file->private_data;
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%u\n", READ_ONCE(point->rescheduled));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations spt_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= spt_read,
	.write	= spt_write,
	.llseek	= default_llseek,
};

/*
 * The probe of hit_tp. One task's hits, so one writer: the probe runs with
 * preemption disabled and a task is in one hit at a time. Readers may
 * read while it writes (a count a hit behind).
 */
#define SPT_TP_POINTS	32

struct spt_tp_point {
	unsigned long	ip;
	unsigned int	kind;
	unsigned long	count;
};

static struct spt_tp_point spt_tp_points[SPT_TP_POINTS];
static unsigned int spt_tp_nr;
static unsigned long spt_tp_lost;
static pid_t spt_tp_pid;
static bool spt_tp_attached;
static DEFINE_MUTEX(spt_tp_mutex);

static void spt_tp_probe(void *data, struct task_struct *p, unsigned long ip,
			 unsigned int kind)
{
	unsigned int i, nr = spt_tp_nr;

	if (p->pid != READ_ONCE(spt_tp_pid))
		return;
	for (i = 0; i < nr; i++) {
		if (spt_tp_points[i].ip == ip && spt_tp_points[i].kind == kind) {
			WRITE_ONCE(spt_tp_points[i].count,
				   spt_tp_points[i].count + 1);
			return;
		}
	}
	if (nr == SPT_TP_POINTS) {
		WRITE_ONCE(spt_tp_lost, spt_tp_lost + 1);
		return;
	}
	spt_tp_points[nr].ip = ip;
	spt_tp_points[nr].kind = kind;
	spt_tp_points[nr].count = 1;
	/* the point is whole before a reader counts it */
	smp_store_release(&spt_tp_nr, nr + 1);
}

/* Caller holds spt_tp_mutex. */
static void spt_tp_detach(void)
{
	if (!spt_tp_attached)
		return;
	unregister_trace_sched_points_hit_tp(spt_tp_probe, NULL);
	tracepoint_synchronize_unregister();
	spt_tp_attached = false;
}

static ssize_t spt_tp_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	int pid, ret = 0;

	if (*ppos || kstrtoint_from_user(ubuf, count, 10, &pid) || pid < 0)
		return -EINVAL;
	mutex_lock(&spt_tp_mutex);
	spt_tp_detach();
	if (pid) {
		/* detached: no probe runs now */
		memset(spt_tp_points, 0, sizeof(spt_tp_points));
		spt_tp_nr = 0;
		spt_tp_lost = 0;
		WRITE_ONCE(spt_tp_pid, pid);
		ret = register_trace_sched_points_hit_tp(spt_tp_probe, NULL);
		spt_tp_attached = !ret;
	}
	mutex_unlock(&spt_tp_mutex);
	return ret ?: count;
}

/* One whole snapshot per open: a read in chunks is of one listing. */
static int spt_tp_show(struct seq_file *m, void *v)
{
	unsigned int i, nr;

	mutex_lock(&spt_tp_mutex);
	/* pairs with spt_tp_probe()'s release: the points read are whole */
	nr = smp_load_acquire(&spt_tp_nr);
	for (i = 0; i < nr; i++)
		seq_printf(m, "%pS\t%u\t%lu\n", (void *)spt_tp_points[i].ip,
			   spt_tp_points[i].kind,
			   READ_ONCE(spt_tp_points[i].count));
	seq_printf(m, "lost %lu\n", READ_ONCE(spt_tp_lost));
	mutex_unlock(&spt_tp_mutex);
	return 0;
}

static int spt_tp_open(struct inode *inode, struct file *file)
{
	return single_open(file, spt_tp_show, NULL);
}

static const struct file_operations spt_tp_fops = {
	.owner		= THIS_MODULE,
	.open		= spt_tp_open,
	.read		= seq_read,
	.write		= spt_tp_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int __init spt_init(void)
{
	size_t i;

	if (init_sleeps > SPT_MAX_CALLS)
		return -EINVAL;
	for (i = 0; i < init_sleeps; i++)
		sched_points_test_init_sleep();
	hrtimer_init(&spt_up_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	spt_up_timer.function = spt_up;

	spt_dir = debugfs_create_dir("sched_points_test", NULL);
	if (IS_ERR(spt_dir))
		return PTR_ERR(spt_dir);

	for (i = 0; i < ARRAY_SIZE(spt_points); i++)
		debugfs_create_file(spt_points[i].name, spt_points[i].mode,
				    spt_dir, &spt_points[i], &spt_fops);
	debugfs_create_file("hit_tp", 0600, spt_dir, NULL, &spt_tp_fops);

	return 0;
}
module_init(spt_init);

static void __exit spt_exit(void)
{
	debugfs_remove(spt_dir);
	mutex_lock(&spt_tp_mutex);
	spt_tp_detach();
	mutex_unlock(&spt_tp_mutex);
	hrtimer_cancel(&spt_up_timer);
}
module_exit(spt_exit);

MODULE_DESCRIPTION("Known schedule points for the sched_points selftest");
MODULE_LICENSE("GPL");
