// SPDX-License-Identifier: GPL-2.0
/*
 * jitter_tsc testing interface: raw samples and counters in debugfs, the
 * first estimate window of each collector at boot, and fault injection.
 *
 * Copyright (C) 2026 Jitter TSC Developers
 *
 * Raw samples read here are taken for the reader alone, in a buffer of their
 * own, and never enter a pool; nothing from a pool is ever shown.
 */

#include <crypto/jitter_tsc.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "jitter_tsc_internal.h"

#ifdef CONFIG_CRYPTO_JITTER_TSC_FAULT_INJECTION
/*
 * The collectors whose bit is set in stuck see a counter that advances by
 * the same amount on every pass, as one counting instructions would:
 * whether that is refused is up to the estimate and the health tests alone.
 * Those in fail_startup see it in their startup tests alone, and every
 * batch of every collector takes delay_ms longer.
 */
static unsigned int stuck, fail_startup, delay_ms;
module_param(stuck, uint, 0600);
MODULE_PARM_DESC(stuck, "Fault injection: collectors (1: speculative, 2: timer) given a constant counter delta");
module_param(fail_startup, uint, 0600);
MODULE_PARM_DESC(fail_startup, "Fault injection: collectors (as stuck) whose startup tests see a constant counter delta");
module_param(delay_ms, uint, 0600);
MODULE_PARM_DESC(delay_ms, "Fault injection: ms added to every batch of samples");

void jtsc_inject(u8 *samples, unsigned int n, enum jtsc_source src, bool startup)
{
	if ((READ_ONCE(stuck) | (startup ? READ_ONCE(fail_startup) : 0)) & BIT(src))
		memset(samples, 40, n);
	if (!startup && READ_ONCE(delay_ms))
		msleep(READ_ONCE(delay_ms));
}
#endif

#ifdef CONFIG_CRYPTO_JITTER_TSC_DEBUGFS
static struct dentry *jtsc_debugfs;
static u8 jtsc_boot_raw[JTSC_NR_SOURCES][JTSC_STARTUP_SAMPLES];
static struct debugfs_blob_wrapper jtsc_boot_blob[JTSC_NR_SOURCES] = {
	[JTSC_SRC_SPEC] = { .data = jtsc_boot_raw[JTSC_SRC_SPEC], .size = JTSC_STARTUP_SAMPLES },
	[JTSC_SRC_TIMER] = { .data = jtsc_boot_raw[JTSC_SRC_TIMER], .size = JTSC_STARTUP_SAMPLES },
};

/* The first window of each collector's first estimate (at boot). */
void jtsc_capture_boot(enum jtsc_source src, const u8 *samples)
{
	static unsigned long captured;

	if (!test_and_set_bit(src, &captured))
		memcpy(jtsc_boot_raw[src], samples, JTSC_STARTUP_SAMPLES);
}

/* An open raw file is an instance of its own that only collects. */
static int jtsc_raw_open(struct inode *inode, struct file *file)
{
	enum jtsc_source src = (uintptr_t)inode->i_private;
	struct jtsc_rng *rng;

	if (!(jtsc_group.usable & BIT(src)))
		return -ENODEV;
	rng = kzalloc(sizeof(*rng), GFP_KERNEL_ACCOUNT);
	if (!rng)
		return -ENOMEM;
	mutex_init(&rng->lock);
	rng->group = &jtsc_group;
	rng->core.src = src;
	if (src == JTSC_SRC_SPEC) {
		rng->mem = jtsc_spec_alloc();
		if (!rng->mem) {
			kfree(rng);
			return -ENOMEM;
		}
	}
	file->private_data = rng;
	return 0;
}

static int jtsc_raw_release(struct inode *inode, struct file *file)
{
	struct jtsc_rng *rng = file->private_data;

	mutex_destroy(&rng->lock);
	vfree(rng->mem);
	kfree_sensitive(rng);
	return 0;
}

/* Whole batches, the walk going on from read to read. */
static ssize_t jtsc_raw_read(struct file *file, char __user *ubuf, size_t count,
			     loff_t *ppos)
{
	struct jtsc_rng *rng = file->private_data;
	size_t n = min_t(size_t, count, JTSC_BATCH);
	int ret;

	if (!n)
		return -EINVAL;
	mutex_lock(&rng->lock);
	ret = jtsc_group.col[rng->core.src].collect(rng);
	if (!ret && copy_to_user(ubuf, rng->raw, n))
		ret = -EFAULT;
	memzero_explicit(rng->raw, sizeof(rng->raw));
	mutex_unlock(&rng->lock);
	if (ret)
		return ret;
	*ppos += n;
	return n;
}

static const struct file_operations jtsc_raw_fops = {
	.owner = THIS_MODULE,
	.open = jtsc_raw_open,
	.release = jtsc_raw_release,
	.read = jtsc_raw_read,
	.llseek = noop_llseek,
};

/*
 * The counters of every instance; the estimate is the last made. What the
 * instances (random.c's and the shards) are doing is counted over them:
 * "active" names the collectors running on any, "failed" counts those
 * with no collector left, "<collector>.dead" those that retired it.
 */
static int jtsc_stats_show(struct seq_file *m, void *v)
{
	struct jtsc_group *g = &jtsc_group;
	unsigned int src, run[JTSC_NR_SOURCES];

	for (src = 0; src < JTSC_NR_SOURCES; src++)
		run[src] = jtsc_group_count(g, src, JTSC_RUNNING);
	seq_printf(m, "active %s%s%s\n", run[JTSC_SRC_SPEC] ? g->col[JTSC_SRC_SPEC].name : "",
		   run[JTSC_SRC_SPEC] && run[JTSC_SRC_TIMER] ? "+" : "",
		   run[JTSC_SRC_TIMER] ? g->col[JTSC_SRC_TIMER].name :
		   run[JTSC_SRC_SPEC] ? "" : "none");
	seq_printf(m, "failed %u\n", jtsc_group_count(g, -1, JTSC_DEAD));
	seq_printf(m, "shards %u\n", g->nr_shards);
	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		const char *name = g->col[src].name;
		struct jtsc_stats *s = &g->stats[src];
		int step = jtsc_group_step(g, src);

		seq_printf(m, "%s.enabled %d\n", name, !!(g->usable & BIT(src)));
		seq_printf(m, "%s.verified %d\n", name,
			   atomic64_read(&s->startups) > atomic64_read(&s->refused));
		seq_printf(m, "%s.running %u\n", name, run[src]);
		seq_printf(m, "%s.dead %u\n", name, jtsc_group_count(g, src, JTSC_DEAD));
		seq_printf(m, "%s.credit_per_sample_256ths %u\n", name,
			   step >= 0 ? jtsc_ladder[step].credit : 0);
		seq_printf(m, "%s.startup_tests %lld\n", name, atomic64_read(&s->startups));
		seq_printf(m, "%s.estimates %lld\n", name, atomic64_read(&s->estimates));
		seq_printf(m, "%s.estimates_refused %lld\n", name, atomic64_read(&s->refused));
		seq_printf(m, "%s.estimate_millibits %llu\n", name,
			   (g->est[src].h_min * 1000) >> JTSC_EST_SHIFT);
		seq_printf(m, "%s.estimator %s\n", name, atomic64_read(&s->estimates) ?
			   jtsc_estimator_name[g->est[src].which] : "none");
		seq_printf(m, "%s.samples %lld\n", name, atomic64_read(&s->samples));
		seq_printf(m, "%s.collect_ns %lld\n", name, atomic64_read(&s->collect_ns));
		seq_printf(m, "%s.intermittent_failures %lld\n", name,
			   atomic64_read(&s->intermittent));
		seq_printf(m, "%s.permanent_failures %lld\n", name, atomic64_read(&s->permanent));
		seq_printf(m, "%s.bits_credited %lld\n", name,
			   atomic64_read(&s->credited) >> JTSC_ENTROPY_SHIFT);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(jtsc_stats);

#if IS_ENABLED(CONFIG_CRYPTO_JITTER_TSC_SEED)
/* One pull as random.c makes them, timed in ns; the data is wiped. */
static int jtsc_pull_get(void *data, u64 *ns)
{
	u64 words[JITTER_TSC_PULL_MAX / sizeof(u64)], t0;
	int ret;

	t0 = local_clock();
	ret = jitter_tsc_pull(words, sizeof(words));
	*ns = local_clock() - t0;
	memzero_explicit(words, sizeof(words));
	return min(ret, 0);
}
DEFINE_DEBUGFS_ATTRIBUTE(jtsc_pull_fops, jtsc_pull_get, NULL, "%llu\n");
#endif

void jtsc_debugfs_init(void)
{
	jtsc_debugfs = debugfs_create_dir("jitter_tsc", NULL);
	debugfs_create_file("spec_raw", 0400, jtsc_debugfs,
			    (void *)(uintptr_t)JTSC_SRC_SPEC, &jtsc_raw_fops);
	debugfs_create_file("timer_raw", 0400, jtsc_debugfs,
			    (void *)(uintptr_t)JTSC_SRC_TIMER, &jtsc_raw_fops);
	debugfs_create_blob("boot_spec_raw", 0400, jtsc_debugfs, &jtsc_boot_blob[JTSC_SRC_SPEC]);
	debugfs_create_blob("boot_timer_raw", 0400, jtsc_debugfs, &jtsc_boot_blob[JTSC_SRC_TIMER]);
	debugfs_create_file("stats", 0400, jtsc_debugfs, NULL, &jtsc_stats_fops);
#if IS_ENABLED(CONFIG_CRYPTO_JITTER_TSC_SEED)
	debugfs_create_file_unsafe("pull_ns", 0400, jtsc_debugfs, NULL, &jtsc_pull_fops);
#endif
}

void jtsc_debugfs_exit(void)
{
	debugfs_remove_recursive(jtsc_debugfs);
}
#endif
