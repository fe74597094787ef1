// SPDX-License-Identifier: GPL-2.0
/*
 * jitter_tsc: health-tested CPU timing jitter as an entropy source
 *
 * Copyright (C) 2026 Jitter TSC Developers
 *
 * The collectors, the instances, the crypto_rng "jitter_tsc" and
 * jitter_tsc_pull() for random.c, which has an instance of its own; the
 * crypto_rng has one per CPU. Each collector's step is estimated once per
 * machine generation (boot, VM fork, resume); a failing collector is
 * refused or retired on one instance alone.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/internal/rng.h>
#include <crypto/jitter_tsc.h>
#include <crypto/sha2.h>
#include <kunit/visibility.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/fips.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/isolation.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/suspend.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "jitter_tsc_internal.h"

#ifdef CONFIG_X86_64
#include <asm/tsc_jitter.h>
#define JTSC_SPEC_MEM_SIZE	TSC_JITTER_MEM_SIZE
#define jtsc_spec_usable()	boot_cpu_has(X86_FEATURE_TSC)

/* Out of line, so that the loop can be found in the object's machine code. */
static noinline void jtsc_spec_fill(u8 *samples, unsigned int n, u8 *mem, u64 *pass)
{
	tsc_jitter_fill(samples, n, mem, pass);
}
#else
#define JTSC_SPEC_MEM_SIZE	0
#define jtsc_spec_usable()	false
static inline void jtsc_spec_fill(u8 *samples, unsigned int n, u8 *mem, u64 *pass) { }
#endif

enum {
	/* SHA-256 (SP 800-90B 3.1.5.1) over twice a block's credit, half fresh */
	JTSC_BLOCK_SIZE = SHA256_DIGEST_SIZE,
	JTSC_BLOCK_CREDIT = (2 * JTSC_BLOCK_SIZE * 8) << JTSC_ENTROPY_SHIFT,
	JTSC_FRESH_CREDIT = (JTSC_BLOCK_SIZE * 8) << JTSC_ENTROPY_SHIFT,
	JTSC_SPEC_CHUNK = 128,		/* passes between preemption points */
	JTSC_MAX_SHARDS = 8,		/* readers on 8 CPUs in 64 MiB at most */
	JTSC_IDLE_SECS = 5,		/* an instance unused this long is parked */
	JTSC_MAX_RETRIES = JTSC_MAX_INTERMITTENT + JTSC_NR_SOURCES,
	JTSC_EST_WINDOWS = 3,		/* a generation's step: their median */
	JTSC_STEP_REFUSED = 0xfe,	/* in a group's step word */
	JTSC_STEP_UNSET = 0xff,
};

static_assert(JTSC_BATCH % JTSC_SPEC_CHUNK == 0);

struct jtsc_group jtsc_group;
static struct jtsc_rng jtsc_global;

static u64 jtsc_read_counter(void)
{
	return random_get_entropy();
}

/* Loads from DRAM (asm/tsc_jitter.h), on one CPU a chunk (20-40 us) at a time */
static int jtsc_spec_collect(struct jtsc_rng *rng)
{
	unsigned int at;

	if (!rng->mem || !jtsc_spec_usable())
		return -ENODEV;
	for (at = 0; at < JTSC_BATCH; at += JTSC_SPEC_CHUNK) {
		u64 t0 = local_clock();

		migrate_disable();
		jtsc_spec_fill(rng->raw + at, JTSC_SPEC_CHUNK, rng->mem, &rng->pass);
		migrate_enable();
		ndelay(jtsc_floor_wait(local_clock() - t0, JTSC_SPEC_CHUNK));
		cond_resched();
	}
	return 0;
}

static void jtsc_timer_fn(struct timer_list *timer)
{
}

/*
 * As try_to_generate_entropy(); a pass read on two CPUs is dropped. A batch
 * ends early, with -EINTR on a signal or -ETIMEDOUT past a second, as the
 * caller's error: whatever the reader's timing, it fails no one else.
 */
static int jtsc_timer_collect(struct jtsc_rng *rng)
{
	const struct cpumask *hk = housekeeping_cpumask(HK_TYPE_TIMER);
	unsigned long end = jiffies + HZ;
	struct timer_list timer;
	int cpu, this, last_cpu;
	unsigned int i = 0;
	u64 last, now;
	int ret = 0;

	timer_setup_on_stack(&timer, jtsc_timer_fn, 0);
	last_cpu = get_cpu();
	last = jtsc_read_counter();
	put_cpu();
	while (i < JTSC_BATCH) {
		/* re-armed once the last callback ran, on the next other CPU, as random.c */
		if (!timer_pending(&timer) && try_to_del_timer_sync(&timer) >= 0) {
			preempt_disable();
			cpu = cpumask_any_and_distribute(hk, cpu_online_mask);
			if (cpu == smp_processor_id())
				cpu = cpumask_any_and_distribute(hk, cpu_online_mask);
			timer.expires = jiffies;
			add_timer_on(&timer, cpu < nr_cpu_ids ? cpu : smp_processor_id());
			preempt_enable();
		}
		schedule();
		if (signal_pending(current) || time_after(jiffies, end)) {
			ret = signal_pending(current) ? -EINTR : -ETIMEDOUT;
			break;
		}
		this = get_cpu();
		now = jtsc_read_counter();
		put_cpu();
		if (this == last_cpu)
			rng->raw[i++] = (u8)(now - last);
		last = now;
		last_cpu = this;
	}
	timer_shutdown_sync(&timer);
	destroy_timer_on_stack(&timer);
	return ret;
}

static const struct jtsc_collector jtsc_collectors[JTSC_NR_SOURCES] = {
	[JTSC_SRC_SPEC] = { "speculative", JTSC_EST_MARGIN, jtsc_spec_collect },
	[JTSC_SRC_TIMER] = { "timer", JTSC_EST_MARGIN_TIMER, jtsc_timer_collect },
};

/* One batch of @src into rng->raw, counted. */
static int jtsc_collect(struct jtsc_rng *rng, enum jtsc_source src)
{
	u64 t0 = local_clock();
	int ret = rng->group->col[src].collect(rng);

	if (ret)
		return ret;
	jtsc_inject(rng->raw, JTSC_BATCH, src, false);
	atomic64_add(JTSC_BATCH, &rng->group->stats[src].samples);
	atomic64_add(local_clock() - t0, &rng->group->stats[src].collect_ns);
	return 0;
}

/*
 * The speculative buffer. Each page starts with a tag of this buffer (random
 * once the crng is ready, the counter before), the buffer's address and the
 * page's index, so that no two pages anywhere have the same content and no
 * host can merge them. It is the instance's, shared by its readers: charged
 * to no reader's memory cgroup, whose limit could refuse it for the others.
 */
u8 *jtsc_spec_alloc(void)
{
	u8 *mem = JTSC_SPEC_MEM_SIZE ? __vmalloc(JTSC_SPEC_MEM_SIZE, GFP_KERNEL) : NULL;
	u64 tag = rng_is_initialized() ? get_random_u64() : random_get_entropy();
	unsigned long i;

	for (i = 0; mem && i < JTSC_SPEC_MEM_SIZE; i += PAGE_SIZE) {
		u64 *head = (u64 *)(mem + i);

		head[0] = tag;
		head[1] = (unsigned long)mem;
		head[2] = i / PAGE_SIZE;
	}
	return mem;
}

/* @g's machine generation, as step words hold it. */
static u32 jtsc_gen(struct jtsc_group *g)
{
	return (u32)atomic_read(&g->generation) & (U32_MAX >> 8);
}

/* @src's step in this generation; -ENOENT if unset, -ENODEV if refused. */
int jtsc_group_step(struct jtsc_group *g, enum jtsc_source src)
{
	u32 w = atomic_read(&g->step[src]);

	if (w >> 8 != jtsc_gen(g) || (w & 0xff) == JTSC_STEP_UNSET)
		return -ENOENT;
	return (w & 0xff) == JTSC_STEP_REFUSED ? -ENODEV : w & 0xff;
}

static int jtsc_cmp_est(const void *a, const void *b)
{
	const struct jtsc_estimate *x = a, *y = b;

	return x->h_min < y->h_min ? -1 : x->h_min > y->h_min;
}

/* JTSC_STARTUP_SAMPLES fresh samples of @src into @samples: 0 or -errno. */
static int jtsc_collect_window(struct jtsc_rng *rng, enum jtsc_source src, u8 *samples)
{
	unsigned int at;
	int ret = 0;

	for (at = 0; !ret && at < JTSC_STARTUP_SAMPLES; at += JTSC_BATCH) {
		ret = jtsc_collect(rng, src);
		memcpy(samples + at, rng->raw, JTSC_BATCH);
		cond_resched();
	}
	memzero_explicit(rng->raw, sizeof(rng->raw));
	return ret;
}

/*
 * The step of @src for generation @gen, from the median of JTSC_EST_WINDOWS
 * windows: no one window sets it, and a refusal holds for the generation.
 */
static void jtsc_estimate(struct jtsc_group *g, enum jtsc_source src, u32 gen)
{
	size_t size = JTSC_STARTUP_SAMPLES + jtsc_estimate_work_size(JTSC_STARTUP_SAMPLES);
	struct jtsc_estimate e[JTSC_EST_WINDOWS], *mid = &e[JTSC_EST_WINDOWS / 2];
	struct jtsc_rng *rng = kzalloc(sizeof(*rng), GFP_KERNEL);
	u8 *samples = kvmalloc(size, GFP_KERNEL);
	unsigned int w;
	int step = -1;

	if (rng && src == JTSC_SRC_SPEC)
		rng->mem = jtsc_spec_alloc();
	if (!rng || !samples || (src == JTSC_SRC_SPEC && JTSC_SPEC_MEM_SIZE && !rng->mem))
		goto free;
	rng->group = g;
	for (w = 0; w < JTSC_EST_WINDOWS; w++) {
		if (jtsc_collect_window(rng, src, samples))
			goto out;
		if (g == &jtsc_group && !w)
			jtsc_capture_boot(src, samples);
		jtsc_estimate_samples(samples, JTSC_STARTUP_SAMPLES,
				      samples + JTSC_STARTUP_SAMPLES, &e[w]);
	}
	sort(e, JTSC_EST_WINDOWS, sizeof(e[0]), jtsc_cmp_est, NULL);
	step = jtsc_ladder_pick(mid, g->col[src].margin);
	g->est[src] = *mid;
	atomic64_inc(&g->stats[src].estimates);
	pr_info("%s collector: %llu.%03llu bit per sample (%s, median of %u x %u samples), %s %u/256 bit\n",
		g->col[src].name, mid->h_min >> JTSC_EST_SHIFT,
		((mid->h_min & (JTSC_EST_ONE - 1)) * 1000) >> JTSC_EST_SHIFT,
		jtsc_estimator_name[mid->which], JTSC_EST_WINDOWS, mid->samples,
		step < 0 ? "under the margin times the floor of" : "credit",
		jtsc_ladder[max(step, 0)].credit);
out:
	atomic_set(&g->step[src], gen << 8 | (step < 0 ? JTSC_STEP_REFUSED : step));
free:
	if (rng)
		vfree(rng->mem);
	kfree_sensitive(rng);
	kvfree_sensitive(samples, size);
}

/* A step for each collector wanted and unset. */
static void jtsc_estimate_fn(struct work_struct *work)
{
	struct jtsc_group *g = container_of(work, struct jtsc_group, estimate);
	u32 gen = jtsc_gen(g);
	unsigned int src;

	for (src = 0; src < JTSC_NR_SOURCES; src++)
		if (test_and_clear_bit(src, &g->want) && jtsc_group_step(g, src) == -ENOENT)
			jtsc_estimate(g, src, gen);
}

static void jtsc_free_buf(struct jtsc_rng *rng)
{
	vfree(rng->mem);
	rng->mem = NULL;
	rng->pass = 0;
}

/* @src died on @rng: say what @rng draws on next. */
static void jtsc_log_dead(struct jtsc_rng *rng, enum jtsc_source src)
{
	int next = jtsc_core_pick(&rng->core, rng->group->usable, jiffies);

	atomic64_inc(&rng->group->stats[src].permanent);
	pr_err_ratelimited("%s collector: permanent health-test failure, %s%s%s\n",
			   rng->group->col[src].name,
			   next == -ENODEV ? "no collector left" : "failing over to the ",
			   next == -ENODEV ? "" : rng->group->col[next < 0 ? !src : next].name,
			   next == -ENODEV ? "" : " collector");
}

/*
 * The startup test of @src on @rng: 0, -EAGAIN to pick again, or this
 * caller's error (no memory, a signal, a batch too slow), which changes
 * nothing for the collector.
 */
static int jtsc_start(struct jtsc_rng *rng, enum jtsc_source src)
{
	enum jtsc_phase now = JTSC_IDLE;
	int ret, step = jtsc_group_step(rng->group, src);
	u8 *samples;

	if (step == -ENOENT) {
		set_bit(src, &rng->group->want);
		queue_work(system_unbound_wq, &rng->group->estimate);
		flush_work(&rng->group->estimate);
		step = jtsc_group_step(rng->group, src);
	}
	if (step >= 0 && JTSC_SPEC_MEM_SIZE && src == JTSC_SRC_SPEC && !rng->mem) {
		rng->mem = jtsc_spec_alloc();
		if (!rng->mem)
			return -ENOMEM;
	}
	samples = kvmalloc(JTSC_STARTUP_SAMPLES, GFP_KERNEL_ACCOUNT);
	if (!samples)
		return -ENOMEM;
	ret = step >= 0 ? jtsc_collect_window(rng, src, samples) : 0;
	if (!ret) {
		jtsc_inject(samples, JTSC_STARTUP_SAMPLES, src, true);
		atomic64_inc(&rng->group->stats[src].startups);
		now = jtsc_core_startup(&rng->core, src, step, samples, jiffies, HZ);
	}
	kvfree_sensitive(samples, JTSC_STARTUP_SAMPLES);
	/* the speculative buffer is kept while its collector runs, and only then */
	if (now != JTSC_RUNNING || src != JTSC_SRC_SPEC)
		jtsc_free_buf(rng);
	if (ret || now == JTSC_RUNNING)
		return ret;
	if (now == JTSC_REFUSED) {
		atomic64_inc(&rng->group->stats[src].refused);
		pr_info_ratelimited("%s collector refused: %s\n", rng->group->col[src].name,
				    step == -ENOENT ? "no runtime estimate was made" :
				    step < 0 ? "runtime estimate below the floor" :
				    "startup health test failed");
	} else if (now == JTSC_DEAD) {
		jtsc_log_dead(rng, src);
	}
	return -EAGAIN;
}

/* Drop what @rng holds between requests; rng->lock held. */
VISIBLE_IF_KUNIT void jtsc_park(struct jtsc_rng *rng)
{
	unsigned int gen = atomic_read(&rng->group->generation);

	jtsc_core_park(&rng->core, rng->generation != gen);
	rng->generation = gen;
	jtsc_free_buf(rng);
}

/*
 * Run the first collector that may run: -EBUSY while all back off, -EFAULT
 * if none; one that failed for this caller alone is passed over, untouched.
 */
static int jtsc_ready(struct jtsc_rng *rng)
{
	struct jtsc_core *c = &rng->core;
	unsigned long tried = 0, passed = 0;
	int src, ret, err = 0;

	lockdep_assert_held(&rng->lock);
	if (rng->generation != atomic_read(&rng->group->generation))
		jtsc_park(rng);
	for (;;) {
		src = jtsc_core_pick(c, rng->group->usable & ~passed, jiffies);
		if (src < 0)
			return err ?: src == -EAGAIN ? -EBUSY : -EFAULT;
		if (c->src == src && c->life[src].phase == JTSC_RUNNING)
			return 0;
		if (__test_and_set_bit(src, &tried))
			return -EAGAIN;
		ret = jtsc_start(rng, src);
		if (!ret || ret == -EINTR)
			return ret;
		if (ret != -EAGAIN) {
			__set_bit(src, &passed);
			err = ret;
		}
	}
}

/* Collect until @words words are released: -EAGAIN after a failure. */
static int jtsc_fill(struct jtsc_rng *rng, unsigned int words)
{
	struct jtsc_core *c = &rng->core;
	enum jtsc_source src = c->src;
	enum jtsc_phase phase;
	int ret;

	while (c->tested < words) {
		ret = jtsc_collect(rng, src);
		if (ret) {
			memzero_explicit(rng->raw, sizeof(rng->raw));
			return ret == -EINTR ? ret : -EAGAIN;
		}
		cond_resched();
		phase = jtsc_core_feed(c, rng->raw);
		memzero_explicit(rng->raw, sizeof(rng->raw));
		if (phase == JTSC_RUNNING)
			continue;
		if (phase == JTSC_RESTART) {
			atomic64_inc(&rng->group->stats[src].intermittent);
			pr_warn_ratelimited("%s collector: intermittent health-test failure, data discarded, a step lower\n",
					    rng->group->col[src].name);
		} else {
			jtsc_log_dead(rng, src);
		}
		return -EAGAIN;
	}
	return 0;
}

/*
 * Under rng->lock, @words released words (0: a block's, the fewest that
 * carry JTSC_BLOCK_CREDIT), the last @fresh credit of them (if not 0)
 * from samples collected from now on: how many, or -errno once a failure
 * repeats JTSC_MAX_RETRIES times.
 */
static int jtsc_words(struct jtsc_rng *rng, unsigned int words, unsigned int fresh)
{
	unsigned int retries = 0, n = words;
	int ret;

	do {
		ret = jtsc_ready(rng);
		if (!ret && !words)
			n = jtsc_core_words(&rng->core, JTSC_BLOCK_CREDIT);
		if (!ret && fresh)
			jtsc_core_begin_block(&rng->core, n, fresh);
		if (!ret)
			ret = jtsc_fill(rng, n);
	} while (ret == -EAGAIN && ++retries < JTSC_MAX_RETRIES && !signal_pending(current));
	return ret ?: n;
}

/* Hand out the first @words released words: their credit, counted. */
static unsigned int jtsc_take(struct jtsc_rng *rng, unsigned int words)
{
	unsigned int credit = jtsc_core_take(&rng->core, words);

	atomic64_add(credit, &rng->group->stats[rng->core.src].credited);
	return credit;
}

/* What a reader sees of an error: a slow batch or a backoff is -EAGAIN. */
static int jtsc_errno(int ret)
{
	return ret == -EBUSY || ret == -ETIMEDOUT ? -EAGAIN : ret;
}

/**
 * jtsc_rng_generate() - Full-entropy output of an instance
 * @rng: the instance
 * @dst: output buffer
 * @len: bytes to generate
 *
 * Each block is SHA-256 over the fewest released words carrying
 * JTSC_BLOCK_CREDIT, JTSC_FRESH_CREDIT of it from samples collected after
 * the block began: a VM cloned mid-request gives different blocks in each
 * clone from the next one on. While all collectors back off, the call waits.
 *
 * Context: Process context; sleeps.
 * Return: 0; -EAGAIN after repeated failures or a wait that did not end;
 * -ENOMEM; -EINTR on a signal; -EFAULT once no collector is left. On
 * error nothing is left in @dst.
 */
VISIBLE_IF_KUNIT int jtsc_rng_generate(struct jtsc_rng *rng, u8 *dst, unsigned int len)
{
	unsigned long until = jiffies + JTSC_BACKOFF_MAX * HZ;
	unsigned int done = 0, n;
	u8 block[JTSC_BLOCK_SIZE];
	int ret = 0;

	while (done < len) {
		if (signal_pending(current) || mutex_lock_interruptible(&rng->lock)) {
			ret = -EINTR;
			break;
		}
		ret = jtsc_words(rng, 0, JTSC_FRESH_CREDIT);
		if (ret > 0) {
			sha256((const u8 *)rng->core.pool, ret * sizeof(u64), block);
			jtsc_take(rng, ret);
		}
		rng->last_used = jiffies;
		mutex_unlock(&rng->lock);
		if (ret == -EBUSY && time_before(jiffies, until)) {
			schedule_timeout_interruptible(HZ / 10);
			continue;
		}
		if (ret < 0)
			break;
		n = min_t(unsigned int, len - done, sizeof(block));
		memcpy(dst + done, block, n);
		done += n;
		cond_resched();
	}
	memzero_explicit(block, sizeof(block));
	if (ret < 0)
		memzero_explicit(dst, done);
	return ret < 0 ? jtsc_errno(ret) : 0;
}

/* @len bytes of released words for random.c: their credit in 1/256 bit, or -errno */
VISIBLE_IF_KUNIT int __maybe_unused jtsc_rng_pull(struct jtsc_rng *rng, void *buf, size_t len)
{
	unsigned int words = len / sizeof(u64);
	int ret;

	if (!words || len % sizeof(u64) || len > JITTER_TSC_PULL_MAX)
		return -EINVAL;
	if (mutex_lock_interruptible(&rng->lock))
		return -EINTR;
	ret = jtsc_words(rng, words, 0);
	if (ret > 0) {
		memcpy(buf, rng->core.pool, len);
		ret = jtsc_take(rng, words);
	}
	rng->last_used = jiffies;
	mutex_unlock(&rng->lock);
	return jtsc_errno(ret);
}

static void jtsc_rng_attach(struct jtsc_rng *rng, struct jtsc_group *g)
{
	mutex_init(&rng->lock);
	rng->group = g;
	rng->generation = atomic_read(&g->generation);
}

/* Set up @rng, zeroed, and start a collector: 0, -ENOMEM or -ENODEV. */
VISIBLE_IF_KUNIT int jtsc_rng_init(struct jtsc_rng *rng, struct jtsc_group *g)
{
	int ret;

	jtsc_rng_attach(rng, g);
	mutex_lock(&rng->lock);
	ret = jtsc_ready(rng);
	mutex_unlock(&rng->lock);
	return ret && ret != -ENOMEM ? -ENODEV : ret;
}

/* Wipe @rng, no longer in use. */
VISIBLE_IF_KUNIT void jtsc_rng_destroy(struct jtsc_rng *rng)
{
	mutex_destroy(&rng->lock);
	jtsc_free_buf(rng);
	memzero_explicit(rng, sizeof(*rng));
}

/* Wipe and free the shards of @g, no longer in use. */
VISIBLE_IF_KUNIT void jtsc_group_destroy(struct jtsc_group *g)
{
	unsigned int i;

	if (g->usable)
		cancel_work_sync(&g->estimate);
	for (i = 0; g->shards && i < g->nr_shards; i++)
		jtsc_rng_destroy(&g->shards[i]);
	kvfree(g->shards);
	memset(g, 0, sizeof(*g));
}

/* Set up @g, zeroed, its collectors and shards: 0, -ENOMEM or -ENODEV. */
VISIBLE_IF_KUNIT int jtsc_group_init(struct jtsc_group *g, const struct jtsc_collector *col,
				     unsigned long usable, unsigned int nr_shards)
{
	unsigned int i;

	if (!usable)
		return -ENODEV;
	g->col = col;
	g->usable = usable;
	INIT_WORK(&g->estimate, jtsc_estimate_fn);
	for (i = 0; i < JTSC_NR_SOURCES; i++)
		atomic_set(&g->step[i], jtsc_gen(g) << 8 | JTSC_STEP_UNSET);
	if (!nr_shards)
		return 0;
	g->shards = kvcalloc(nr_shards, sizeof(*g->shards), GFP_KERNEL);
	if (!g->shards)
		return -ENOMEM;
	g->nr_shards = nr_shards;
	for (i = 0; i < nr_shards; i++)
		jtsc_rng_attach(&g->shards[i], g);
	return 0;
}

/*
 * For debugfs: how many instances of @g (random.c's among them) have @src
 * in @phase, or with @src < 0 have no collector left; read unlocked.
 */
unsigned int jtsc_group_count(struct jtsc_group *g, int src, enum jtsc_phase phase)
{
	unsigned int i, n = 0, nr = g->nr_shards + (jtsc_global.group == g);
	struct jtsc_rng *rng;

	for (i = 0; i < nr; i++) {
		rng = i < g->nr_shards ? &g->shards[i] : &jtsc_global;
		if (src >= 0)
			n += READ_ONCE(rng->core.life[src].phase) == phase;
		else
			n += jtsc_core_pick(&rng->core, g->usable, jiffies) == -ENODEV;
	}
	return n;
}

/* Park @rng if unused for @idle jiffies; true if it still holds something. */
VISIBLE_IF_KUNIT bool jtsc_park_idle(struct jtsc_rng *rng, unsigned long idle)
{
	bool held;

	if (!mutex_trylock(&rng->lock))
		return true;
	held = rng->mem || rng->core.tested + rng->core.pending;
	if (held && !time_before(jiffies, rng->last_used + idle)) {
		jtsc_park(rng);
		held = false;
	}
	mutex_unlock(&rng->lock);
	return held;
}

/* -EAGAIN before jtsc_mod_init(), -EINPROGRESS during setup, then its result. */
static int jtsc_status = -EAGAIN;
static DECLARE_COMPLETION(jtsc_setup_done);

/*
 * Park the instances idle for JTSC_IDLE_SECS, random.c's at once when the
 * crng is ready; armed by requests, again while anything is held.
 */
static void jtsc_idle_fn(struct work_struct *work)
{
	unsigned long idle = JTSC_IDLE_SECS * HZ;
	unsigned int i;
	bool held;

	held = jtsc_park_idle(&jtsc_global, rng_is_initialized() ? 0 : idle);
	for (i = 0; i < jtsc_group.nr_shards; i++)
		held |= jtsc_park_idle(&jtsc_group.shards[i], idle);
	if (held)
		schedule_delayed_work(to_delayed_work(work), idle);
}

static DECLARE_DELAYED_WORK(jtsc_idle_work, jtsc_idle_fn);

/* The shard of the CPU the request starts on keeps readers apart. */
static int jtsc_kcapi_generate(struct crypto_rng *tfm, const u8 *src,
			       unsigned int slen, u8 *dst, unsigned int dlen)
{
	struct jtsc_group *g = &jtsc_group;
	int ret;

	ret = jtsc_rng_generate(&g->shards[raw_smp_processor_id() % g->nr_shards], dst, dlen);
	schedule_delayed_work(&jtsc_idle_work, JTSC_IDLE_SECS * HZ);
	return ret;
}

/* As jitterentropy_rng: a seed is accepted and ignored. */
static int jtsc_kcapi_seed(struct crypto_rng *tfm, const u8 *seed, unsigned int slen)
{
	return 0;
}

static struct rng_alg jtsc_alg = {
	.generate	= jtsc_kcapi_generate,
	.seed		= jtsc_kcapi_seed,
	.base		= {
		.cra_name		= "jitter_tsc",
		.cra_driver_name	= "jitter_tsc-generic",
		.cra_priority		= 100,
		.cra_module		= THIS_MODULE,
	}
};

/*
 * Called under random.c's notifier lock, maybe from an interrupt; only when
 * built in, as execute_with_initialized_rng() has no undo for a module.
 */
static int jtsc_crng_ready_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	mod_delayed_work(system_wq, &jtsc_idle_work, 0);
	return NOTIFY_DONE;
}

static struct notifier_block jtsc_crng_ready_nb = {
	.notifier_call = jtsc_crng_ready_notify,
};

#if IS_ENABLED(CONFIG_CRYPTO_JITTER_TSC_SEED)
/**
 * jitter_tsc_pull() - Take health-tested jitter and its entropy credit
 * @buf: where to store the data
 * @len: bytes wanted, a multiple of 8, at most JITTER_TSC_PULL_MAX
 *
 * For drivers/char/random.c before the crng is ready: folded samples that
 * passed the health tests, credited at the per-sample rate.
 *
 * Context: Process context; sleeps, until the setup is done if need be.
 * Return: the whole bits credited to @buf; -EAGAIN before the initcall,
 * after repeated failures or while collectors back off; -ENODEV without a
 * collector; -ENOMEM; -EFAULT if none is left; -EINVAL; -EINTR.
 */
int jitter_tsc_pull(void *buf, size_t len)
{
	/* Pairs with the releases in jtsc_mod_init() and jtsc_setup(). */
	int ret = smp_load_acquire(&jtsc_status);

	if (ret == -EINPROGRESS) {
		if (wait_for_completion_interruptible(&jtsc_setup_done))
			return -EINTR;
		/* Pairs with the release in jtsc_setup(). */
		ret = smp_load_acquire(&jtsc_status);
	}
	if (ret)
		return ret;
	ret = jtsc_rng_pull(&jtsc_global, buf, len);
	schedule_delayed_work(&jtsc_idle_work, JTSC_IDLE_SECS * HZ);
	return ret < 0 ? ret : ret >> JTSC_ENTROPY_SHIFT;
}
#endif

/*
 * A VM fork, or any step of a suspend or hibernation, from any context: a
 * new generation, and each instance parks at its next use.
 */
static int jtsc_changed_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	atomic_inc(&jtsc_group.generation);
	return NOTIFY_DONE;
}

static struct notifier_block jtsc_vmfork_nb = {
	.notifier_call = jtsc_changed_notify,
};

static struct notifier_block jtsc_pm_nb = {
	.notifier_call = jtsc_changed_notify,
};

#if IS_ENABLED(CONFIG_CRYPTO_JITTER_TSC_SEED)
/* random.c's parameter, read here too: untrusted, nothing runs for it at boot */
static bool jtsc_trusted __ro_after_init = true;
static int __init jtsc_parse_trust(char *arg)
{
	return kstrtobool(arg, &jtsc_trusted);
}
early_param("random.trust_jitter_tsc", jtsc_parse_trust);
#else
#define jtsc_trusted	false
#endif

/* The notifiers, then the algorithm: a generation is never missed. */
static int jtsc_register(void)
{
	int ret = register_pm_notifier(&jtsc_pm_nb);

	if (ret)
		return ret;
	ret = register_random_vmfork_notifier(&jtsc_vmfork_nb);
	if (!ret)
		ret = crypto_register_rng(&jtsc_alg);
	if (!ret)
		return 0;
	unregister_random_vmfork_notifier(&jtsc_vmfork_nb);
	unregister_pm_notifier(&jtsc_pm_nb);
	return ret;
}

static char *collectors = "all";
module_param(collectors, charp, 0400);
MODULE_PARM_DESC(collectors, "Collectors to try: all (default), spec, timer or none");

/* The index of each value is its mask of enum jtsc_source bits. */
static const char *const jtsc_collectors_arg[] = { "none", "spec", "timer", "all" };

/*
 * Set up and register, random.c's instance started; with fips=1, nothing.
 * Built in, a work item: init waits for no part of it, only for random.c's
 * seeding, and for that at most its budget.
 */
static void jtsc_setup(struct work_struct *work)
{
	int i = match_string(jtsc_collectors_arg, ARRAY_SIZE(jtsc_collectors_arg), collectors);
	unsigned long usable = i < 0 ? JTSC_COLLECT_ALL : i;
	const char *why = NULL;
	struct jtsc_counter c;
	bool boot = false;
	int ret = -ENODEV;

	if (i < 0)
		pr_warn("unknown collectors=%s, trying all\n", collectors);
	if ((usable & BIT(JTSC_SRC_SPEC)) && !jtsc_spec_usable()) {
		pr_info("speculative collector disabled: not available\n");
		usable &= ~BIT(JTSC_SRC_SPEC);
	}
	if (!fips_enabled)
		why = jtsc_counter_check(jtsc_read_counter, local_clock, &c);
	if (fips_enabled)
		pr_info("not registering: not FIPS-allowed (fips=1)\n");
	else if (why)
		pr_info("all collectors disabled: cycle counter is %s (%u of %u reads unchanged, step %llu, %llu ns per read)\n",
			why, c.stuck, JTSC_COUNTER_READS, c.step, c.read_ns);
	else
		ret = jtsc_group_init(&jtsc_group, jtsc_collectors, usable,
				      min_t(unsigned int, nr_cpu_ids, JTSC_MAX_SHARDS));
	if (!ret) {
		boot = jtsc_trusted && !rng_is_initialized();
		if (boot)
			ret = jtsc_rng_init(&jtsc_global, &jtsc_group);
		else
			jtsc_rng_attach(&jtsc_global, &jtsc_group);
	}
	if (!ret)
		ret = jtsc_register();
	if (ret) {
		jtsc_rng_destroy(&jtsc_global);
		jtsc_group_destroy(&jtsc_group);
		if (!fips_enabled)
			pr_info("not registering: %s\n",
				ret == -ENODEV ? "no usable collector" :
				ret == -ENOMEM ? "out of memory" : "crypto API error");
		goto out;
	}
	if (IS_ENABLED(CONFIG_CRYPTO_JITTER_TSC_SEED))
		execute_with_initialized_rng(&jtsc_crng_ready_nb);
	jtsc_debugfs_init();
	if (boot)
		pr_info("ready, drawing on the %s collector at %u/256 bit per raw sample, %u shards\n",
			jtsc_collectors[jtsc_global.core.src].name,
			jtsc_global.core.life[jtsc_global.core.src].health.params->credit,
			jtsc_group.nr_shards);
	else
		pr_info("ready, %u shards: each starts a collector on first use\n",
			jtsc_group.nr_shards);
out:
	/* Pairs with the acquires in jitter_tsc_pull(). */
	smp_store_release(&jtsc_status, ret);
	complete_all(&jtsc_setup_done);
}

static DECLARE_WORK(jtsc_setup_work, jtsc_setup);

/* Built in, the setup runs on a workqueue; a module's at load. */
static int __init jtsc_mod_init(void)
{
	if (!IS_BUILTIN(CONFIG_CRYPTO_JITTER_TSC)) {
		jtsc_setup(NULL);
		return jtsc_status;
	}
	/* Readers wait for jtsc_setup_done from now on. */
	smp_store_release(&jtsc_status, -EINPROGRESS);
	queue_work(system_unbound_wq, &jtsc_setup_work);
	return 0;
}

static void __exit jtsc_mod_exit(void)
{
	jtsc_debugfs_exit();
	crypto_unregister_rng(&jtsc_alg);
	unregister_random_vmfork_notifier(&jtsc_vmfork_nb);
	unregister_pm_notifier(&jtsc_pm_nb);
	cancel_delayed_work_sync(&jtsc_idle_work);
	jtsc_rng_destroy(&jtsc_global);
	jtsc_group_destroy(&jtsc_group);
}

/* At subsys_initcall(), so that random.c can draw at subsys_initcall_sync(). */
subsys_initcall(jtsc_mod_init);
module_exit(jtsc_mod_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("Jitter TSC Developers <jitter-tsc@lists.example.org>");
MODULE_DESCRIPTION("Health-tested CPU timing jitter entropy source");
MODULE_ALIAS_CRYPTO("jitter_tsc");
MODULE_ALIAS_CRYPTO("jitter_tsc-generic");
