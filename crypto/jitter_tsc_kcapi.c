// SPDX-License-Identifier: GPL-2.0
/*
 * jitter_tsc: health-tested CPU timing jitter as an entropy source
 *
 * Copyright (C) 2026 Jitter TSC Developers
 *
 * A machine with no hardware RNG and nothing else happening during boot has
 * little to offer random.c, and getrandom() blocks until the input pool has
 * been credited with 256 bits. What every such machine does have is a fast
 * cycle counter, and the time it takes a modern CPU to run even a short,
 * fixed instruction sequence varies from one run to the next. This driver
 * turns that variation into entropy that is health tested before it is used,
 * and credits only what has been measured.
 *
 * This file is the glue around the host-independent core
 * (crypto/jitter_tsc_core.c: health tests, folding, credit ladder;
 * crypto/jitter_tsc_estimate.c: the runtime estimate). It is divided into
 * these sections:
 *
 *   - Parameters: output blocks, instances, the cycle-counter check.
 *   - Collectors: the speculative TSC collector (x86-64) and the
 *     stack-timer collector (anything with a cycle counter), their
 *     runtime verification and their startup test.
 *   - The pool: tested, folded words, conditioned with SHA-256 on output.
 *   - Interfaces: the "jitter_tsc" crypto_rng, jitter_tsc_pull() for
 *     random.c, and an optional debugfs directory for measurements.
 *
 * One raw sample, for both collectors, is the low byte of a cycle-counter
 * delta: the time one pass of the collector's loop took. That byte, and
 * nothing derived from the counter's value, is what the runtime estimate
 * assesses, what the health tests see and what is credited.
 *
 * Instances, failover and locking. An instance (struct jtsc_rng) has its
 * own health-test state for each collector, one LFSR and pool, and one mutex
 * that guards all of it: collection sleeps in the timer collector, and
 * every generate or pull takes exactly one instance's mutex, never two.
 * random.c pulls from an instance of its own, set up at boot; the
 * crypto_rng draws on one instance per CPU (up to JTSC_MAX_SHARDS, then
 * CPUs share them), picked by the CPU the request starts on, so readers
 * on different CPUs collect in parallel and none of them waits for, or
 * slows, random.c. The instances of a group share only which collectors
 * passed a startup test and which failed permanently, and the credit step
 * each collector's first estimate of the machine generation set (struct
 * jtsc_group, atomic operations, no lock). A collector that fails permanently on one
 * instance is dead for all of them, since it is the same noise source;
 * each then starts the next collector left, speculative before timer,
 * after that collector's startup test on that instance. Only when none is
 * left is the failure permanent.
 *
 * Lifetime. An instance holds the speculative collector's buffer and pool
 * words only while it is used: it is parked (jtsc_park(): pool wiped,
 * buffer freed, the next request starts with a new startup test) when the
 * last transform goes, JTSC_IDLE_SECS to twice that after its last
 * request, under memory pressure, on a VM fork and around suspend and
 * hibernation; random.c's once the crng is ready, and it is only set up
 * at boot with CONFIG_CRYPTO_JITTER_TSC_SEED and the crng not ready then.
 *
 * The entropy claim, in one paragraph: the first startup test of a
 * collector in a machine generation (boot, then each VM fork, suspend or
 * hibernation) estimates the min-entropy of its own JTSC_STARTUP_SAMPLES
 * raw samples with SP 800-90B non-IID estimators, and credits each raw
 * sample the highest step of the core's ladder at or below that estimate
 * divided by the collector's margin (JTSC_EST_MARGIN,
 * JTSC_EST_MARGIN_TIMER), for every instance and every later startup test
 * of that generation; an estimate under the margin times the ladder's
 * floor refuses the collector. Raw samples only count once every health test at that
 * step's cutoffs has passed over the whole predictor window they
 * belong to, and not while a run they are part of is still going; a
 * failure discards everything not yet handed out. Credit is counted in
 * jtsc_credit() alone. The crypto_rng output is SHA-256 over pool words
 * carrying twice the credited entropy it emits, at least half of it from
 * samples taken after the request began. random.c takes pool words
 * directly and is credited exactly what they carry, since its input pool
 * is itself a conditioner.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/internal/jitter_tsc.h>
#include <crypto/internal/jitter_tsc_estimate.h>
#include <crypto/internal/rng.h>
#include <crypto/jitter_tsc.h>
#include <crypto/sha2.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>
#include <linux/async.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/fips.h>
#include <linux/freezer.h>
#include <linux/gcd.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/processor.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/isolation.h>
#include <linux/seq_file.h>
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <linux/suspend.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#ifdef CONFIG_X86_64
#include <linux/cpufeature.h>
#include <asm/tsc.h>
#include <asm/tsc_jitter.h>
#define JTSC_SPEC_MEM_SIZE	TSC_JITTER_MEM_SIZE

/*
 * The speculative collector needs a TSC to read, or RDTSC faults. Not
 * more: a TSC that tsc.c marks unstable (its rate changed with cpufreq,
 * it stopped in idle, the watchdog saw it drift against another clock,
 * it differs between CPUs) is unfit to keep time across CPUs and
 * seconds, yet times one pass of well under a microsecond on one CPU as
 * well as before, and a batch is taken on one CPU. Whether the counter
 * still moves with the work is what the startup test and the health
 * tests check, batch by batch; a hypervisor that traps or scales RDTSC is
 * judged the same way.
 */
static bool jtsc_spec_usable(void)
{
	return boot_cpu_has(X86_FEATURE_TSC);
}

/*
 * The buffer is mapped with 4 KiB pages, not with the huge mapping
 * kvmalloc() may pick: no high-order allocation that any reader could make
 * the kernel compact memory for, and each page lands elsewhere in DRAM for
 * each new buffer. It is not zeroed: the loop only loads from it and
 * discards what it loads.
 */
static u8 *jtsc_spec_alloc(void)
{
	return __vmalloc(TSC_JITTER_MEM_SIZE, GFP_KERNEL_ACCOUNT);
}

/* Out of line, so that the loop can be found in the object's machine code. */
static noinline void jtsc_spec_fill(u8 *samples, unsigned int n, u8 *mem,
				    struct tsc_jitter_walk *walk)
{
	tsc_jitter_fill(samples, n, mem, walk);
}
#else
/* No speculative collector on this architecture: only the timer one runs. */
#define JTSC_SPEC_MEM_SIZE	0
struct tsc_jitter_walk {
	u64 pass;
};

static inline bool jtsc_spec_usable(void)
{
	return false;
}

static inline u8 *jtsc_spec_alloc(void)
{
	return NULL;
}

static inline void jtsc_spec_fill(u8 *samples, unsigned int n, u8 *mem,
				  struct tsc_jitter_walk *walk)
{
}
#endif

/*********************************************************************
 *
 * Parameters
 *
 * What the glue needs beyond the core's: output blocks, instances and
 * the cycle-counter check. The entropy credit is not among them: each
 * startup test picks it from the core's ladder (jtsc_ladder_pick()).
 *
 *********************************************************************/

enum {
	/*
	 * Output: one SHA-256 block, a conditioning function SP 800-90B
	 * 3.1.5.1.1 lists as vetted, fed twice as much credited entropy as
	 * it emits, which 3.1.5.1.2 takes as full entropy out.
	 */
	JTSC_BLOCK_SIZE = SHA256_DIGEST_SIZE,
	JTSC_OVERSAMPLE = 2,
	JTSC_BLOCK_CREDIT = (JTSC_BLOCK_SIZE * 8 * JTSC_OVERSAMPLE) << JTSC_ENTROPY_SHIFT,
	/*
	 * Of that, what must come from samples taken after the request
	 * began: as much entropy as the block has bits. A clone of the
	 * machine (a restored snapshot, a forked VM) holds the same pool
	 * as its original; whoever knows the pool must still guess this
	 * much to predict a block of a request that begins after the
	 * snapshot, and two clones' such blocks collide with a probability
	 * of 2^-256 at most. The other half may be words
	 * left over from an earlier request, so that a reader of small
	 * blocks does not throw away what it collected.
	 */
	JTSC_FRESH_CREDIT = (JTSC_BLOCK_SIZE * 8) << JTSC_ENTROPY_SHIFT,

	/*
	 * Instances the crypto_rng spreads its readers over, by CPU: enough
	 * for readers on 8 CPUs to collect in parallel, few enough that the
	 * speculative collector's 8 MiB buffer, held by an instance only
	 * while it is in use, takes at most 64 MiB.
	 */
	JTSC_MAX_SHARDS = 8,

	/*
	 * An instance not used for this long is parked: its pool wiped, its
	 * buffer freed. Long enough that a steady reader keeps its buffer,
	 * short enough that a burst does not hold 8 MiB for long.
	 */
	JTSC_IDLE_SECS = 5,

	/* Largest request of jitter_tsc_pull(), in words. */
	JTSC_PULL_MAX_WORDS = JITTER_TSC_PULL_MAX / sizeof(u64),

	/*
	 * Runtime verification of the cycle counter: 16 batches of 64 reads.
	 * The read cost is taken from the fastest batch, so that an interrupt
	 * or a preempted vCPU does not make a fast counter look slow.
	 */
	JTSC_VERIFY_BATCHES = 16,
	JTSC_VERIFY_BATCH_READS = 64,
	JTSC_VERIFY_READS = JTSC_VERIFY_BATCHES * JTSC_VERIFY_BATCH_READS,
	/* More than 90% identical reads: the counter is stuck. */
	JTSC_VERIFY_MAX_STUCK = JTSC_VERIFY_READS * 9 / 10,
	/*
	 * Reading it costs more than this: it is trapped by a hypervisor.
	 * RDTSC takes tens of nanoseconds natively and about 50 ns under QEMU
	 * TCG; a trapping VM exit costs a microsecond or more.
	 */
	JTSC_VERIFY_MAX_READ_NS = 1000,
};

/*
 * Batches end on word boundaries at every step of the ladder, and the
 * startup test is a whole number of batches.
 */
static_assert(JTSC_BATCH % JTSC_MAX_SAMPLES_PER_WORD == 0);
static_assert(JTSC_STARTUP_SAMPLES % JTSC_BATCH == 0);
static_assert(JTSC_PRED_WINDOW % JTSC_BATCH == 0);

/*********************************************************************
 *
 * Collectors
 *
 * The speculative collector's loop lives in arch/x86 (asm/tsc_jitter.h);
 * here it is wrapped so that the KUnit suite can replace it. The
 * stack-timer collector follows try_to_generate_entropy() in
 * drivers/char/random.c. Both store the low byte of each cycle-counter
 * delta they measure. Before either is trusted, the cycle counter is
 * checked and each collector passes the startup test.
 *
 *********************************************************************/

/**
 * jtsc_read_counter() - Read the cycle counter the collectors rely on
 *
 * Context: Any context.
 * Return: random_get_entropy(), the TSC on x86.
 */
VISIBLE_IF_KUNIT u64 jtsc_read_counter(void)
{
	KUNIT_STATIC_STUB_REDIRECT(jtsc_read_counter);
	return random_get_entropy();
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_read_counter);

/**
 * jtsc_spec_collect() - Collect raw speculative samples
 * @samples: where to store them, one per byte
 * @n: number of samples
 * @buf: the collector's buffer of JTSC_SPEC_MEM_SIZE bytes
 *
 * No pass is thrown away: each finds its line flushed from the caches,
 * from a new buffer's first pass on.
 *
 * Context: Any context, on one CPU.
 * Return: 0, or -ENODEV where there is no speculative collector (no TSC).
 */
VISIBLE_IF_KUNIT int jtsc_spec_collect(u8 *samples, unsigned int n, struct jtsc_buf *buf)
{
	struct tsc_jitter_walk walk;

	KUNIT_STATIC_STUB_REDIRECT(jtsc_spec_collect, samples, n, buf);
	if (!buf || !buf->mem || !n || !jtsc_spec_usable())
		return -ENODEV;
	walk.pass = buf->pass;
	jtsc_spec_fill(samples, n, buf->mem, &walk);
	buf->pass = walk.pass;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_spec_collect);

/*
 * @touched is written by the callback and never read: the write is the
 * point. It sits in the same cache line as the timer, on the collecting
 * task's stack.
 */
struct jtsc_timer_state {
	struct timer_list timer;
	atomic_t touched;
};

/*
 * The entropy is in when, on the other CPU, the callback runs and pulls
 * the cache line of the collecting task's stack away, which the next
 * cycle-counter delta measures.
 */
static void jtsc_timer_fn(struct timer_list *timer)
{
	struct jtsc_timer_state *state = from_timer(state, timer, timer);

	atomic_inc(&state->touched);
}

/*
 * Pick the next online timer CPU after @cpu, avoiding the current one when
 * there is another. Called with preemption disabled. No cpumask on the
 * stack: it would be far too large with CONFIG_CPUMASK_OFFSTACK=n and
 * NR_CPUS=8192.
 */
static int jtsc_next_timer_cpu(int cpu)
{
	const struct cpumask *hk = housekeeping_cpumask(HK_TYPE_TIMER);
	int this = smp_processor_id();
	int tries;

	for (tries = 0; tries < 2; tries++) {
		cpu = cpumask_next_and(cpu, hk, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first_and(hk, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			break;
		if (cpu != this)
			return cpu;
	}
	return this;
}

/**
 * jtsc_timer_collect() - Collect raw stack-timer samples
 * @samples: where to store them, one per byte
 * @n: number of samples
 * @buf: unused
 *
 * A timer on this stack is kept armed, on another CPU where there is one,
 * to expire at the next tick, while the loop calls schedule() and reads the
 * cycle counter. Each raw sample is the low byte of the counter's advance
 * over one pass.
 *
 * Context: Process context, on one CPU; sleeps.
 * Return: 0.
 */
VISIBLE_IF_KUNIT int jtsc_timer_collect(u8 *samples, unsigned int n, struct jtsc_buf *buf)
{
	u8 stack_bytes[sizeof(struct jtsc_timer_state) + SMP_CACHE_BYTES - 1];
	struct jtsc_timer_state *stack = PTR_ALIGN((void *)stack_bytes, SMP_CACHE_BYTES);
	unsigned int i;
	int cpu = -1;
	u64 last, now;

	KUNIT_STATIC_STUB_REDIRECT(jtsc_timer_collect, samples, n, buf);

	atomic_set(&stack->touched, 0);
	timer_setup_on_stack(&stack->timer, jtsc_timer_fn, 0);
	last = jtsc_read_counter();
	for (i = 0; i < n; i++) {
		/*
		 * Re-arm only once the previous callback has finished, as
		 * try_to_generate_entropy() does.
		 */
		if (!timer_pending(&stack->timer) &&
		    try_to_del_timer_sync(&stack->timer) >= 0) {
			preempt_disable();
			cpu = jtsc_next_timer_cpu(cpu);
			/* Expiring at `jiffies` means the next tick. */
			stack->timer.expires = jiffies;
			add_timer_on(&stack->timer, cpu);
			preempt_enable();
		}
		schedule();
		now = jtsc_read_counter();
		samples[i] = (u8)(now - last);
		last = now;
	}
	timer_shutdown_sync(&stack->timer);
	destroy_timer_on_stack(&stack->timer);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_timer_collect);

/* What differs between the collectors; their credit is measured. */
const struct jtsc_collector jtsc_collectors[JTSC_NR_SOURCES] = {
	[JTSC_SRC_SPEC] = {
		.name = "speculative",
		.margin = JTSC_EST_MARGIN,
		.collect = jtsc_spec_collect,
	},
	[JTSC_SRC_TIMER] = {
		.name = "timer",
		.margin = JTSC_EST_MARGIN_TIMER,
		.collect = jtsc_timer_collect,
	},
};
EXPORT_SYMBOL_IF_KUNIT(jtsc_collectors);

/*
 * Entropy of one pool word of @src on @rng, in 1/256 bit: the ladder step
 * its last startup test on @rng chose.
 */
static unsigned int jtsc_word_credit(const struct jtsc_rng *rng, enum jtsc_source src)
{
	const struct jtsc_health_params *p = rng->health[src].params;

	return p->credit * p->samples_per_word;
}

/**
 * jtsc_counter_check() - Check that the cycle counter is fit for sampling
 *
 * Reads the counter JTSC_VERIFY_READS times back to back, in batches. A
 * counter that mostly does not move, that moves in steps longer than it
 * advances over one of its own reads on average (coarse: it cannot time
 * its own read, let alone the jitter of a loop), or that takes more than
 * JTSC_VERIFY_MAX_READ_NS to read even in the fastest batch (trapped by a
 * hypervisor) is rejected with one log line saying why:
 * both collectors measure with it, so neither can be used.
 *
 * Context: Any context.
 * Return: 0 if the counter is fit, -ENODEV otherwise.
 */
VISIBLE_IF_KUNIT int jtsc_counter_check(void)
{
	u64 start, first, prev, now, ns, fastest = U64_MAX;
	unsigned int batch, i, stuck = 0;
	unsigned long granule = 0;
	const char *why = NULL;

	KUNIT_STATIC_STUB_REDIRECT(jtsc_counter_check);

	first = jtsc_read_counter();
	prev = first;
	for (batch = 0; batch < JTSC_VERIFY_BATCHES; batch++) {
		start = local_clock();
		for (i = 0; i < JTSC_VERIFY_BATCH_READS; i++) {
			now = jtsc_read_counter();
			if (now == prev)
				stuck++;
			else
				granule = gcd(granule, (unsigned long)(now - prev));
			prev = now;
		}
		fastest = min(fastest, local_clock() - start);
	}
	ns = div_u64(fastest, JTSC_VERIFY_BATCH_READS);

	if (stuck > JTSC_VERIFY_MAX_STUCK)
		why = "stuck";
	else if ((u64)granule * JTSC_VERIFY_READS > prev - first)
		why = "coarse";
	else if (ns > JTSC_VERIFY_MAX_READ_NS)
		why = "slow to read";
	if (!why)
		return 0;

	pr_info("all collectors disabled: cycle counter is %s (%u of %u reads unchanged, step %lu, %llu ns per read)\n",
		why, stuck, JTSC_VERIFY_READS, granule, ns);
	return -ENODEV;
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_counter_check);

#ifdef CONFIG_CRYPTO_JITTER_TSC_FAULT_INJECTION
/*
 * The collectors whose bit is set here see a counter that advances by the
 * same amount on every pass, as one counting instructions would. Whether
 * that is refused is then up to the health tests alone.
 */
static unsigned int stuck;
/* A plausible delta, at the step of AMD's TSC: the value does not matter. */
#define JTSC_STUCK_DELTA	40
module_param(stuck, uint, 0600);
MODULE_PARM_DESC(stuck, "Fault injection: collectors (1: speculative, 2: timer) given a constant counter delta");

static void jtsc_inject(struct jtsc_rng *rng, enum jtsc_source src)
{
	if (READ_ONCE(stuck) & BIT(src))
		memset(rng->raw, JTSC_STUCK_DELTA, sizeof(rng->raw));
}
#else
static inline void jtsc_inject(struct jtsc_rng *rng, enum jtsc_source src) { }
#endif

/*
 * @n raw samples of @src, all taken on one CPU: a task moved to another
 * CPU between two reads would put the difference between two CPUs'
 * counters into one delta, which is not a sample of either loop. Only
 * migration is disabled: the loops stay preemptible, the timer collector
 * sleeps in schedule(), and an interrupt or a preemption only lengthens
 * the pass it lands in.
 */
static int jtsc_collect(enum jtsc_source src, u8 *samples, unsigned int n,
			struct jtsc_buf *buf)
{
	int ret;

	migrate_disable();
	ret = jtsc_collectors[src].collect(samples, n, buf);
	migrate_enable();
	return ret;
}

/*
 * One call of @src's collector for @rng: JTSC_BATCH raw samples into
 * @rng->raw, counting them and, with the debugfs option, the time spent
 * taking them: `make bench` divides one by the other for the rate that
 * bounds throughput.
 */
static int jtsc_collect_counted(struct jtsc_rng *rng, enum jtsc_source src)
{
	bool timed = IS_ENABLED(CONFIG_CRYPTO_JITTER_TSC_DEBUGFS);
	u64 t0 = timed ? local_clock() : 0;
	int ret = jtsc_collect(src, rng->raw, JTSC_BATCH, &rng->buf);

	if (ret)
		return ret;
	jtsc_inject(rng, src);
	rng->stats[src].samples += JTSC_BATCH;
	if (timed)
		rng->stats[src].collect_ns += local_clock() - t0;
	return 0;
}

#ifdef CONFIG_CRYPTO_JITTER_TSC_DEBUGFS
/* The startup samples of the global instance, kept for debugfs. */
static u8 jtsc_boot_raw[JTSC_NR_SOURCES][JTSC_STARTUP_SAMPLES];
#endif

static struct jtsc_group jtsc_group;
static struct jtsc_rng jtsc_global;

/*
 * Bumped when the machine may have changed under the instances: a VM fork,
 * a suspend or a hibernation. An instance that sees a new value parks
 * itself at the start of its next block or pull (jtsc_ready_request()).
 */
static atomic_t jtsc_generation = ATOMIC_INIT(0);

/*
 * The samples of the first startup test of each collector on random.c's
 * instance, before debugfs is set up; later ones are not kept.
 */
static void jtsc_capture_boot(struct jtsc_rng *rng, enum jtsc_source src, const u8 *samples)
{
#ifdef CONFIG_CRYPTO_JITTER_TSC_DEBUGFS
	static unsigned long captured;

	if (rng == &jtsc_global && !test_and_set_bit(src, &captured))
		memcpy(jtsc_boot_raw[src], samples, JTSC_STARTUP_SAMPLES);
#endif
}

/* The size in KiB of the boot CPU's last-level cache, 0 if unknown. */
static unsigned int jtsc_cache_kib(void)
{
#ifdef CONFIG_X86
	return max(boot_cpu_data.x86_cache_size, 0);
#else
	return 0;
#endif
}

/* An estimate in 2^-32 bit as "%llu.%03llu" of these two, for the log. */
static u64 jtsc_est_bits(u64 h)
{
	return h >> JTSC_EST_SHIFT;
}

static u64 jtsc_est_thousandths(u64 h)
{
	return ((h & (JTSC_EST_ONE - 1)) * 1000) >> JTSC_EST_SHIFT;
}

/*
 * The credit of each collector is set once per machine generation, by its
 * first startup test in that generation: were every startup test, which
 * any reader can make the kernel run by opening and closing sockets, to
 * estimate again and the lowest estimate to hold, a reader could draw from
 * the estimator's low tail until every reader's credit was a fraction of
 * the machine's, or a collector was refused for everyone. A VM fork, a
 * suspend or a hibernation (jtsc_generation) starts a new generation,
 * which estimates again. g->step[] holds the generation and the step in
 * one word, so that a step estimated before a fork can never stand after
 * it: (generation << 8) | the step, JTSC_STEP_UNSET before the estimate,
 * JTSC_STEP_REFUSED if it was under the floor.
 */
enum {
	JTSC_STEP_REFUSED = 0xfe,
	JTSC_STEP_UNSET = 0xff,
};

static u32 jtsc_step_word(u32 gen, u32 step)
{
	return (gen << 8) | step;
}

/* The machine generation, as g->step[] words hold it. */
static u32 jtsc_gen(void)
{
	return (u32)atomic_read(&jtsc_generation) & (U32_MAX >> 8);
}

/**
 * jtsc_group_step() - The step of a collector in this machine generation
 * @g: the group
 * @src: the collector
 * @gen: the generation, jtsc_gen()
 * @word: where the word read is stored, for jtsc_take_step()
 *
 * Context: Any context.
 * Return: the ladder step, -ENOENT while @gen has none yet, -ENODEV if its
 * estimate was under the floor.
 */
static int jtsc_group_step(struct jtsc_group *g, enum jtsc_source src, u32 gen, int *word)
{
	u32 w = atomic_read(&g->step[src]);

	*word = w;
	if (w >> 8 != gen || (w & 0xff) == JTSC_STEP_UNSET)
		return -ENOENT;
	return (w & 0xff) == JTSC_STEP_REFUSED ? -ENODEV : w & 0xff;
}

/*
 * Set the step of @src in @rng's group for generation @gen from the
 * estimate @e of a startup test, @step or -ENODEV under the floor, if
 * the group still holds @word, which had none for @gen; else follow the
 * instance that set it first. If the generation has moved on meanwhile,
 * the estimate holds for this startup test alone: the next request parks
 * @rng and starts it again in the new generation.
 */
static int jtsc_take_step(struct jtsc_rng *rng, enum jtsc_source src, u32 gen, int word,
			  int step, const struct jtsc_estimate *e)
{
	const char *name = jtsc_collectors[src].name;
	u32 w;

	w = jtsc_step_word(gen, step < 0 ? JTSC_STEP_REFUSED : step);
	if (!atomic_try_cmpxchg(&rng->group->step[src], &word, w)) {
		if ((u32)word >> 8 != gen)
			return step;
		return jtsc_group_step(rng->group, src, gen, &word);
	}
	if (step < 0)
		pr_info("%s collector: %llu.%03llu bit per sample (%s, %u samples), under %u times the floor of %u/256 bit\n",
			name, jtsc_est_bits(e->h_min), jtsc_est_thousandths(e->h_min),
			jtsc_estimator_name[e->which], e->samples, jtsc_collectors[src].margin,
			jtsc_ladder[0].credit);
	else
		pr_info("%s collector: %llu.%03llu bit per sample (%s, %u samples), credit %u/256 bit, buffer %u KiB, cache %u KiB\n",
			name, jtsc_est_bits(e->h_min), jtsc_est_thousandths(e->h_min),
			jtsc_estimator_name[e->which], e->samples, jtsc_ladder[step].credit,
			src == JTSC_SRC_SPEC ? (unsigned int)(JTSC_SPEC_MEM_SIZE >> 10) : 0,
			jtsc_cache_kib());
	return step;
}

/*
 * The startup test of @src on @rng. JTSC_STARTUP_SAMPLES fresh samples
 * run through the health tests at the cutoffs of the group's step for this
 * generation, which is SP 800-90B's startup test. The first startup test
 * of a generation sets that step: it estimates the samples first
 * (crypto/jitter_tsc_estimate.c) and takes the step the estimate allows
 * (jtsc_ladder_pick(), jtsc_take_step()). 0 if it passed; -ENODEV with
 * @why set if the collector cannot be used; -ENOMEM.
 */
static int jtsc_verify(struct jtsc_rng *rng, enum jtsc_source src, const char **why)
{
	u32 gen = jtsc_gen();
	struct jtsc_health *h = &rng->health[src];
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	struct jtsc_estimate e;
	unsigned int at, i;
	int word, step;
	size_t size;
	u8 *samples;

	step = jtsc_group_step(rng->group, src, gen, &word);
	if (step == -ENODEV) {
		*why = "runtime estimate below the floor";
		return -ENODEV;
	}
	size = JTSC_STARTUP_SAMPLES;
	if (step < 0)
		size += jtsc_estimate_work_size(JTSC_STARTUP_SAMPLES);
	samples = kvmalloc(size, GFP_KERNEL_ACCOUNT);
	if (!samples)
		return -ENOMEM;
	for (at = 0; at < JTSC_STARTUP_SAMPLES; at += JTSC_BATCH) {
		if (jtsc_collect_counted(rng, src)) {
			*why = "not available";
			goto out;
		}
		memcpy(samples + at, rng->raw, JTSC_BATCH);
	}
	jtsc_capture_boot(rng, src, samples);
	rng->stats[src].startups++;

	if (step < 0) {
		jtsc_estimate_samples(samples, JTSC_STARTUP_SAMPLES,
				      samples + JTSC_STARTUP_SAMPLES, &e);
		rng->stats[src].estimates++;
		rng->stats[src].h_min = e.h_min;
		rng->stats[src].estimator = e.which;
		step = jtsc_ladder_pick(&e, jtsc_collectors[src].margin);
		if (step < 0)
			rng->stats[src].refused++;
		step = jtsc_take_step(rng, src, gen, word, step, &e);
		if (step < 0) {
			*why = "runtime estimate below the floor";
			goto out;
		}
	}

	jtsc_health_init(h, &jtsc_ladder[step]);
	for (i = 0; i < JTSC_STARTUP_SAMPLES; i++)
		res = max(res, jtsc_health_sample(h, samples[i]));
	if (res != JTSC_HEALTH_OK)
		*why = "startup health test failed";
out:
	memzero_explicit(rng->raw, sizeof(rng->raw));
	kvfree_sensitive(samples, size);
	return *why ? -ENODEV : 0;
}

/*********************************************************************
 *
 * The pool
 *
 * Folded words go into the pool as they are made, but count as tested
 * only when the predictor window their samples belong to has closed
 * without a failure, and only up to JTSC_MAX_LAG samples before the start
 * of any run still going at that point (jtsc_health_hold()), or before the
 * window's end if none is: the samples a run is predicted from are as
 * suspect as the run. Output draws on tested words only. Any failure wipes
 * the whole pool. All of it is under rng->lock, a mutex since the timer
 * collector sleeps; requests are served one block at a time so that
 * readers of one instance take turns.
 *
 *********************************************************************/

/*
 * jtsc_credit() - The entropy of @words pool words of @rng, in 1/256 bit
 *
 * The only place where entropy is credited: each word carries the samples
 * it folds at the per-sample credit of the group's step for the active
 * collector, which the generation's first runtime estimate set
 * (jtsc_verify()).
 */
static unsigned int jtsc_credit(const struct jtsc_rng *rng, unsigned int words)
{
	return words * jtsc_word_credit(rng, rng->active);
}

static void jtsc_wipe(struct jtsc_rng *rng)
{
	memzero_explicit(rng->pool, sizeof(rng->pool));
	memzero_explicit(&rng->lfsr, sizeof(rng->lfsr));
	rng->tested = 0;
	rng->pending = 0;
	rng->stale = 0;
}

/* Free the speculative collector's buffer of @rng, if it holds one. */
static void jtsc_free_buf(struct jtsc_rng *rng)
{
	u8 *mem = rng->buf.mem;

	/* Read locklessly by jtsc_shrink_count(). */
	WRITE_ONCE(rng->buf.mem, NULL);
	rng->buf.pass = 0;
	vfree(mem);
}

/**
 * jtsc_park() - Drop what an instance holds between requests
 * @rng: the instance
 *
 * Wipes the pool and frees the buffer. The next request runs the startup
 * test again on fresh samples, as at the instance's first use: the buffer
 * it walks is a new one, and the machine may not be the one it was (a
 * parked instance may wake up after a resume, or in a forked VM, where
 * the new generation estimates again).
 *
 * Context: Process context, with rng->lock held or before @rng is in use.
 */
static void jtsc_park(struct jtsc_rng *rng)
{
	jtsc_wipe(rng);
	rng->started = false;
	jtsc_free_buf(rng);
}

/* The first collector of @g that is not dead, JTSC_NR_SOURCES if none. */
static enum jtsc_source jtsc_first_alive(const struct jtsc_group *g)
{
	unsigned long alive = g->usable & ~READ_ONCE(g->dead);

	return alive ? __ffs(alive) : JTSC_NR_SOURCES;
}

/* No collector of the group is left: this instance fails for good. */
static int __cold jtsc_exhausted(struct jtsc_rng *rng)
{
	jtsc_park(rng);
	WRITE_ONCE(rng->failed, true);
	return -EFAULT;
}

/* The one line logged when a running collector dies, @next taking over. */
static void __cold jtsc_log_dead(enum jtsc_source src, enum jtsc_source next,
				 const char *why)
{
	if (next == JTSC_NR_SOURCES)
		pr_err("%s collector: %s, no collector left: no further output\n",
		       jtsc_collectors[src].name, why);
	else
		pr_err("%s collector: %s, failing over to the %s collector\n",
		       jtsc_collectors[src].name, why, jtsc_collectors[next].name);
}

/*
 * Start the first collector of the group still alive on @rng: its startup
 * test runs on this instance, whatever other instances found, since this
 * instance's health tests must see it before its words count. One that
 * fails is dead for the whole group, and the next one is tried.
 * Called with rng->lock held, or before @rng is published.
 */
static int jtsc_start(struct jtsc_rng *rng)
{
	struct jtsc_group *g = rng->group;
	enum jtsc_source src;
	bool restarted;
	const char *why;
	int ret;

	jtsc_wipe(rng);
	rng->started = false;
	while ((src = jtsc_first_alive(g)) < JTSC_NR_SOURCES) {
		/*
		 * Charged to the memory cgroup of the task whose request
		 * starts the instance; other readers on that CPU share it.
		 */
		if (JTSC_SPEC_MEM_SIZE && src == JTSC_SRC_SPEC && !rng->buf.mem) {
			u8 *mem = jtsc_spec_alloc();

			if (!mem)
				return -ENOMEM;
			WRITE_ONCE(rng->buf.mem, mem);
		}
		why = NULL;
		ret = jtsc_verify(rng, src, &why);
		if (ret == -ENOMEM)
			return ret;
		if (!ret) {
			if (src != JTSC_SRC_SPEC)
				jtsc_free_buf(rng);
			set_bit(src, &g->verified);
			rng->active = src;
			rng->started = true;
			rng->restart = false;
			return 0;
		}
		/*
		 * Failing the startup test after an intermittent failure is a
		 * permanent failure of a collector that was running: logged as
		 * one, with what happens next.
		 */
		restarted = rng->restart && src == rng->active;
		rng->restart = false;
		if (restarted)
			rng->stats[src].permanent++;
		if (test_and_set_bit(src, &g->dead))
			continue;
		pr_info("%s collector disabled: %s\n", jtsc_collectors[src].name, why);
		if (restarted)
			jtsc_log_dead(src, jtsc_first_alive(g), "permanent health-test failure");
	}
	return jtsc_exhausted(rng);
}

/*
 * A health test of @src failed on @rng, or @src could no longer collect
 * (@why says which, for the log). An intermittent failure discards what
 * was not handed out, and the startup test runs again. A permanent one
 * kills the collector for the whole group, with one log line saying what
 * happens next: the next collector left takes over on the next request,
 * after its startup test on this instance, or there is none.
 */
static int __cold jtsc_failed(struct jtsc_rng *rng, enum jtsc_source src,
			      enum jtsc_health_result res, const char *why)
{
	struct jtsc_group *g = rng->group;
	enum jtsc_source next;
	bool first;

	jtsc_wipe(rng);
	/*
	 * The startup test runs again after each intermittent failure, which
	 * resets the health tests' own count: count here the failures that
	 * came without a predictor window released in between.
	 */
	if (res == JTSC_HEALTH_INTERMITTENT && ++rng->flaky >= JTSC_MAX_INTERMITTENT)
		res = JTSC_HEALTH_PERMANENT;
	if (res == JTSC_HEALTH_INTERMITTENT) {
		rng->stats[src].intermittent++;
		pr_warn_ratelimited("%s collector: intermittent health-test failure, data discarded\n",
				    jtsc_collectors[src].name);
		/*
		 * The next request runs the whole startup test again, over
		 * fresh samples at the group's step: a collector that fails
		 * it is dead.
		 */
		rng->started = false;
		rng->restart = true;
		return -EAGAIN;
	}
	rng->stats[src].permanent++;
	rng->started = false;
	first = !test_and_set_bit(src, &g->dead);
	next = jtsc_first_alive(g);
	if (first)
		jtsc_log_dead(src, next, why);
	return next == JTSC_NR_SOURCES ? jtsc_exhausted(rng) : -EAGAIN;
}

/*
 * A predictor window closed: release its pending words, except the last
 * ones that a run still going reaches into, and those holding the last
 * JTSC_MAX_LAG samples: a run of lag L is predicted from the samples L
 * back, so a stream that has just turned periodic is in no run yet during
 * its first period. Those wait for a later window.
 */
static void jtsc_release(struct jtsc_rng *rng, const struct jtsc_health *h)
{
	unsigned int held = DIV_ROUND_UP(jtsc_health_hold(h) + JTSC_MAX_LAG,
					 h->params->samples_per_word);

	held = min(held, rng->pending);
	rng->tested += rng->pending - held;
	rng->pending = held;
	rng->flaky = 0;
}

/*
 * Make pool words from one batch of raw samples. Every sample is tested,
 * even after a failure, so that windows stay aligned with words; no word
 * is added after a failure. Called with rng->lock held.
 */
static int jtsc_add_words(struct jtsc_rng *rng)
{
	enum jtsc_source src = rng->active;
	struct jtsc_health *h = &rng->health[src];
	unsigned int per_word = h->params->samples_per_word;
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	u64 lfsr = rng->lfsr;
	unsigned int i, w;

	/* The collector cannot run (no TSC, or no buffer). */
	if (jtsc_collect_counted(rng, src))
		return jtsc_failed(rng, src, JTSC_HEALTH_PERMANENT, "no longer usable");

	for (w = 0; w < JTSC_BATCH; w += per_word) {
		bool started = jtsc_health_started(h);

		for (i = w; i < w + per_word; i++)
			res = max(res, jtsc_health_sample(h, rng->raw[i]));
		if (res != JTSC_HEALTH_OK || !started)
			continue;
		if (WARN_ON_ONCE(rng->tested + rng->pending >= JTSC_POOL_WORDS)) {
			res = JTSC_HEALTH_PERMANENT;
			continue;
		}
		for (i = w; i < w + per_word; i += sizeof(u64))
			lfsr = jtsc_lfsr_fold(lfsr, get_unaligned_le64(rng->raw + i), 64);
		rng->pool[rng->tested + rng->pending++] = lfsr;
		if (jtsc_health_window_closed(h))
			jtsc_release(rng, h);
	}
	rng->lfsr = lfsr;
	memzero_explicit(rng->raw, sizeof(rng->raw));
	memzero_explicit(&lfsr, sizeof(lfsr));
	if (res != JTSC_HEALTH_OK)
		return jtsc_failed(rng, src, res, "permanent health-test failure");
	return 0;
}

/*
 * Make @rng draw on a collector that is alive and has passed its startup
 * test on @rng. A shard's first request starts its collector, and so does
 * the first request after a permanent failure on @rng. A collector that
 * another instance found dead is dropped with everything @rng made from
 * it, and the request that sees that fails as on an intermittent failure;
 * the next one starts the next collector left; with none left it fails
 * for good. Only once this has returned 0 is rng->active the collector
 * the pool will be filled from.
 */
static int jtsc_ready(struct jtsc_rng *rng)
{
	lockdep_assert_held(&rng->lock);
	if (rng->failed)
		return -EFAULT;
	if (likely(rng->started && !test_bit(rng->active, &rng->group->dead)))
		return 0;
	if (!rng->started)
		return jtsc_start(rng);
	if (jtsc_first_alive(rng->group) == JTSC_NR_SOURCES)
		return jtsc_exhausted(rng);
	jtsc_wipe(rng);
	rng->started = false;
	return -EAGAIN;
}

/*
 * jtsc_ready() at the start of a block or a pull. After a VM fork, a
 * suspend or a hibernation (jtsc_generation), @rng is parked first, and
 * starts again from a new startup test, the generation's first estimate
 * included if no other instance has made it yet.
 */
static int jtsc_ready_request(struct jtsc_rng *rng)
{
	unsigned int gen = atomic_read(&jtsc_generation);

	lockdep_assert_held(&rng->lock);
	if (rng->generation != gen) {
		rng->generation = gen;
		jtsc_park(rng);
	}
	return jtsc_ready(rng);
}

/*
 * Collect until @words tested words of rng->active, which jtsc_ready() has
 * readied, are in the pool. The group is asked again after each batch:
 * once another instance has found the collector dead, not one more word of
 * it is made or handed out here.
 */
static int jtsc_fill(struct jtsc_rng *rng, unsigned int words)
{
	int ret = 0;

	lockdep_assert_held(&rng->lock);
	while (!ret && rng->tested < words) {
		ret = jtsc_add_words(rng);
		if (!ret)
			ret = jtsc_ready(rng);
	}
	return ret;
}

/*
 * Drop the first @words words of the pool, tested ones first, then
 * pending ones.
 */
static void jtsc_discard(struct jtsc_rng *rng, unsigned int words)
{
	unsigned int left = rng->tested + rng->pending - words;
	unsigned int tested = min(words, rng->tested);

	memmove(rng->pool, rng->pool + words, left * sizeof(rng->pool[0]));
	memzero_explicit(rng->pool + left, words * sizeof(rng->pool[0]));
	rng->tested -= tested;
	rng->pending -= words - tested;
	rng->stale -= min(words, rng->stale);
}

/* Hand out the first @words tested words, which carry @credit. */
static void jtsc_consume(struct jtsc_rng *rng, unsigned int words, unsigned int credit)
{
	rng->stats[rng->active].credited += credit;
	jtsc_discard(rng, words);
}

/*
 * Before a block of @words words: drop the oldest words made before the
 * request began, so that at most @words minus those carrying
 * JTSC_FRESH_CREDIT are left. The block is the first @words tested words,
 * so at least JTSC_FRESH_CREDIT of its entropy is then in samples taken
 * for this request.
 */
static void jtsc_drop_stale(struct jtsc_rng *rng, unsigned int words)
{
	unsigned int fresh = DIV_ROUND_UP(JTSC_FRESH_CREDIT, jtsc_word_credit(rng, rng->active));
	unsigned int keep = words > fresh ? words - fresh : 0;

	if (rng->stale > keep)
		jtsc_discard(rng, rng->stale - keep);
}

/**
 * jtsc_rng_generate() - Generate full-entropy output
 * @rng: the instance
 * @dst: output buffer
 * @len: bytes to generate
 *
 * Each block of JTSC_BLOCK_SIZE bytes is SHA-256 over the fewest tested pool
 * words that carry at least JTSC_OVERSAMPLE times its size in credited
 * entropy at the active collector's step (512 bits from 128 words of 4
 * bits at the floor, 528 from 22 words of 24 bits at the ceiling), of
 * which at least JTSC_FRESH_CREDIT is in words made from samples taken
 * after the call began: no block is made from an earlier state alone.
 *
 * Context: Process context; sleeps.
 * Return: 0 on success; -EAGAIN after an intermittent health-test failure,
 * or a permanent one with another collector left to take over (the caller
 * may retry); -ENOMEM if the speculative collector's buffer could not be
 * allocated; -EINTR if the caller was killed; -EFAULT once no collector is
 * left, now and forever. On error no output is left in @dst.
 */
VISIBLE_IF_KUNIT int jtsc_rng_generate(struct jtsc_rng *rng, u8 *dst, unsigned int len)
{
	u8 block[JTSC_BLOCK_SIZE];
	unsigned int done = 0, n, words = 0;
	int ret = 0;

	if (READ_ONCE(rng->failed))
		return -EFAULT;

	while (done < len) {
		bool first = !done;

		/*
		 * A reader may wait here while others of this instance are
		 * served by the timer collector, a block every fraction of a
		 * second: it must stay killable.
		 */
		if (mutex_lock_killable(&rng->lock)) {
			ret = -EINTR;
			break;
		}
		ret = jtsc_ready_request(rng);
		/*
		 * After jtsc_ready_request(): what a word carries is that of
		 * the collector it readied, at the step it chose.
		 */
		if (!ret) {
			/* All that is in the pool now predates this request. */
			if (first)
				rng->stale = rng->tested + rng->pending;
			words = DIV_ROUND_UP(JTSC_BLOCK_CREDIT, jtsc_word_credit(rng, rng->active));
			jtsc_drop_stale(rng, words);
			ret = jtsc_fill(rng, words);
		}
		if (!ret) {
			sha256((const u8 *)rng->pool, words * sizeof(rng->pool[0]), block);
			jtsc_consume(rng, words, jtsc_credit(rng, words));
		}
		rng->last_used = jiffies;
		mutex_unlock(&rng->lock);
		if (ret)
			break;

		n = min_t(unsigned int, len - done, sizeof(block));
		memcpy(dst + done, block, n);
		done += n;
		if (done < len && fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
	memzero_explicit(block, sizeof(block));
	if (ret)
		memzero_explicit(dst, done);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_rng_generate);

/* Only random.c, through jitter_tsc_pull(), and the tests take words. */
#if IS_ENABLED(CONFIG_CRYPTO_JITTER_TSC_SEED) || IS_ENABLED(CONFIG_KUNIT)
/**
 * jtsc_rng_pull() - Take tested pool words and their entropy credit
 * @rng: the instance
 * @buf: where to store the words
 * @len: bytes wanted, a multiple of 8, at most JITTER_TSC_PULL_MAX
 *
 * Context: Process context; sleeps.
 * Return: the entropy credited to the data stored in @buf, in 1/256 bit;
 * or -EINVAL, -EINTR if a signal arrived while another reader held the
 * instance, -EAGAIN, -ENOMEM or -EFAULT as for jtsc_rng_generate(), in
 * which case nothing is stored.
 */
VISIBLE_IF_KUNIT int jtsc_rng_pull(struct jtsc_rng *rng, void *buf, size_t len)
{
	unsigned int words = len / sizeof(u64);
	int ret;

	if (!words || len % sizeof(u64) || words > JTSC_PULL_MAX_WORDS)
		return -EINVAL;

	/* Like wait_for_random_bytes(), which it serves: a signal ends the wait. */
	if (mutex_lock_interruptible(&rng->lock))
		return -EINTR;
	ret = jtsc_ready_request(rng);
	if (!ret)
		ret = jtsc_fill(rng, words);
	if (!ret) {
		memcpy(buf, rng->pool, len);
		ret = jtsc_credit(rng, words);
		jtsc_consume(rng, words, ret);
	}
	mutex_unlock(&rng->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_rng_pull);
#endif

/* @rng, zeroed, joins @g; its first request starts a collector. */
static void jtsc_rng_attach(struct jtsc_rng *rng, struct jtsc_group *g)
{
	mutex_init(&rng->lock);
	rng->group = g;
	rng->generation = atomic_read(&jtsc_generation);
}

/**
 * jtsc_rng_init() - Set up an instance and start its first collector
 * @rng: the instance, zeroed
 * @g: the group it belongs to, set up by jtsc_group_init()
 *
 * Runs the startup test of the first collector of @g left, the speculative
 * one before the timer one since it is the faster; one that fails is
 * disabled for the group with one log line saying why, and the next one is
 * tried. A collector that is not needed is not tested now: it runs its
 * startup test on an instance when it takes over there, and a test run at
 * boot would neither be relied on then nor spare that one.
 *
 * Context: Process context; sleeps.
 * Return: 0, -ENOMEM, or -ENODEV if no collector passed.
 */
VISIBLE_IF_KUNIT int jtsc_rng_init(struct jtsc_rng *rng, struct jtsc_group *g)
{
	int ret;

	jtsc_rng_attach(rng, g);
	ret = jtsc_start(rng);
	return ret == -EFAULT ? -ENODEV : ret;
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_rng_init);

/**
 * jtsc_rng_destroy() - Wipe an instance
 * @rng: the instance
 *
 * Context: Process context; no other user of @rng may remain.
 */
VISIBLE_IF_KUNIT void jtsc_rng_destroy(struct jtsc_rng *rng)
{
	mutex_destroy(&rng->lock);
	jtsc_free_buf(rng);
	memzero_explicit(rng, sizeof(*rng));
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_rng_destroy);

/**
 * jtsc_group_destroy() - Wipe and free the shards of a group
 * @g: the group
 *
 * Context: Process context; no other user of @g may remain.
 */
VISIBLE_IF_KUNIT void jtsc_group_destroy(struct jtsc_group *g)
{
	unsigned int i;

	for (i = 0; g->shards && i < g->nr_shards; i++) {
		if (!g->shards[i])
			continue;
		jtsc_rng_destroy(g->shards[i]);
		kfree(g->shards[i]);
	}
	kfree(g->shards);
	memset(g, 0, sizeof(*g));
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_group_destroy);

/**
 * jtsc_group_init() - Set up a group and its shards
 * @g: the group, zeroed
 * @collectors: JTSC_COLLECT_* bits of the collectors its instances may try
 * @nr_shards: instances for the crypto_rng, none for a group that serves
 *	only instances set up with jtsc_rng_init()
 *
 * Checks the cycle counter. The shards start a collector on first use.
 *
 * Context: Process context; sleeps.
 * Return: 0, -ENOMEM, or -ENODEV if the counter is unfit or no collector
 * is asked for.
 */
VISIBLE_IF_KUNIT int jtsc_group_init(struct jtsc_group *g, unsigned int collectors,
				     unsigned int nr_shards)
{
	unsigned int i;

	if (!collectors || jtsc_counter_check())
		return -ENODEV;
	g->usable = collectors;
	for (i = 0; i < JTSC_NR_SOURCES; i++)
		atomic_set(&g->step[i], jtsc_step_word(jtsc_gen(), JTSC_STEP_UNSET));
	if (!nr_shards)
		return 0;
	g->shards = kcalloc(nr_shards, sizeof(*g->shards), GFP_KERNEL);
	if (!g->shards)
		return -ENOMEM;
	g->nr_shards = nr_shards;
	for (i = 0; i < nr_shards; i++) {
		/* Each on its own: their mutexes are taken on different CPUs. */
		g->shards[i] = kzalloc(sizeof(*g->shards[i]), GFP_KERNEL);
		if (!g->shards[i]) {
			jtsc_group_destroy(g);
			return -ENOMEM;
		}
		jtsc_rng_attach(g->shards[i], g);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_group_init);

/*
 * Park @rng if it holds a buffer or pool words, is not serving a request
 * now and has not served one for @idle jiffies; add the bytes of buffer
 * freed to *@freed. Return true if @rng is left as it was although it
 * holds something, or is busy: the caller may have to try again later.
 */
static bool jtsc_park_idle(struct jtsc_rng *rng, unsigned long idle, unsigned long *freed)
{
	bool kept = false;

	if (!mutex_trylock(&rng->lock))
		return true;
	if (rng->buf.mem || rng->tested + rng->pending) {
		if (time_before(jiffies, rng->last_used + idle)) {
			kept = true;
		} else {
			*freed += rng->buf.mem ? JTSC_SPEC_MEM_SIZE : 0;
			jtsc_park(rng);
		}
	}
	mutex_unlock(&rng->lock);
	return kept;
}

/**
 * jtsc_group_park_idle() - Park the shards of a group that are idle
 * @g: the group
 * @idle: jiffies a shard must have gone unused; 0 for all not in use now
 *
 * Context: Process context. Takes each shard's lock with mutex_trylock()
 * only, so that it can run from memory reclaim, which a shard allocating
 * its buffer under its lock may have entered.
 * Return: true if some shard still holds a buffer or pool words, or was
 * serving a request.
 */
VISIBLE_IF_KUNIT bool jtsc_group_park_idle(struct jtsc_group *g, unsigned long idle)
{
	unsigned long freed = 0;
	bool held = false;
	unsigned int i;

	for (i = 0; i < g->nr_shards; i++)
		held |= jtsc_park_idle(g->shards[i], idle, &freed);
	return held;
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_group_park_idle);

/*********************************************************************
 *
 * Interfaces
 *
 * The crypto_rng "jitter_tsc", backed by the shards of jtsc_group, one per
 * CPU; jitter_tsc_pull() for random.c, from jtsc_global, the group's
 * instance set up at boot; and, with CONFIG_CRYPTO_JITTER_TSC_DEBUGFS, raw
 * samples and counters in debugfs.
 *
 *********************************************************************/

/*
 * -EAGAIN until jtsc_mod_init() ran; -EINPROGRESS while jtsc_setup() runs
 * asynchronously (built in), jtsc_setup_done completing when it is done;
 * then 0, or why there is no instance.
 */
static int jtsc_status = -EAGAIN;
static DECLARE_COMPLETION(jtsc_setup_done);

/* Transforms of "jitter_tsc": the shards are parked when the last goes. */
static atomic_t jtsc_tfms = ATOMIC_INIT(0);

static void jtsc_idle_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(jtsc_idle_work, jtsc_idle_fn);

static void jtsc_idle_fn(struct work_struct *work)
{
	unsigned long idle = atomic_read(&jtsc_tfms) ? JTSC_IDLE_SECS * HZ : 0;
	unsigned long freed = 0;
	bool held;

	held = jtsc_group_park_idle(&jtsc_group, idle);
	/* random.c's instance, pulled after the crng was ready (debugfs). */
	if (rng_is_initialized())
		held |= jtsc_park_idle(&jtsc_global, JTSC_IDLE_SECS * HZ, &freed);
	if (held)
		schedule_delayed_work(&jtsc_idle_work, JTSC_IDLE_SECS * HZ);
}

/* Park every instance not serving a request now. */
static void jtsc_park_now_fn(struct work_struct *work)
{
	unsigned long freed = 0;

	jtsc_park_idle(&jtsc_global, 0, &freed);
	jtsc_group_park_idle(&jtsc_group, 0);
}

static DECLARE_WORK(jtsc_park_now_work, jtsc_park_now_fn);

/**
 * jtsc_machine_changed() - The machine may not be the one it was
 *
 * For a VM fork, a suspend or a hibernation: every instance is parked,
 * those not serving a request now from a work item, the others at the
 * start of their next block or pull. Takes no lock, sleeps not, and so
 * may be called from any context, a VMGENID interrupt included.
 *
 * Context: Any context.
 */
VISIBLE_IF_KUNIT void jtsc_machine_changed(void)
{
	atomic_inc(&jtsc_generation);
	schedule_work(&jtsc_park_now_work);
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_machine_changed);

static int jtsc_kcapi_init(struct crypto_tfm *tfm)
{
	atomic_inc(&jtsc_tfms);
	return 0;
}

static void jtsc_kcapi_exit(struct crypto_tfm *tfm)
{
	if (atomic_dec_and_test(&jtsc_tfms))
		mod_delayed_work(system_wq, &jtsc_idle_work, 0);
}

/*
 * Parks the shards JTSC_IDLE_SECS to twice that after their last request:
 * armed by the first request of a burst, it arms itself again while a
 * shard holds something. Tested without an atomic write first, since
 * every request of every CPU passes here.
 */
static void jtsc_idle_arm(void)
{
	if (!delayed_work_pending(&jtsc_idle_work))
		schedule_delayed_work(&jtsc_idle_work, JTSC_IDLE_SECS * HZ);
}

static char *collectors = "all";
module_param(collectors, charp, 0400);
MODULE_PARM_DESC(collectors, "Collectors to try: all (default), spec, timer or none");

#if IS_ENABLED(CONFIG_CRYPTO_JITTER_TSC_SEED)
/*
 * random.c's instance is parked once the crng is ready: random.c does not
 * pull again.
 */
static void jtsc_crng_ready_fn(struct work_struct *work)
{
	mutex_lock(&jtsc_global.lock);
	jtsc_park(&jtsc_global);
	mutex_unlock(&jtsc_global.lock);
}

static DECLARE_WORK(jtsc_crng_ready_work, jtsc_crng_ready_fn);

/* Called under random.c's notifier lock, maybe from an interrupt. */
static int jtsc_crng_ready_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	schedule_work(&jtsc_crng_ready_work);
	return NOTIFY_DONE;
}

static struct notifier_block jtsc_crng_ready_nb = {
	.notifier_call = jtsc_crng_ready_notify,
};

/**
 * jitter_tsc_pull() - Take health-tested jitter and its entropy credit
 * @buf: where to store the data
 * @len: bytes wanted, a multiple of 8, at most JITTER_TSC_PULL_MAX
 *
 * For drivers/char/random.c before the crng is ready. The data is folded
 * raw samples that passed the health tests; it is not conditioned, which
 * is the input pool's job, and is credited at the per-sample rate, in
 * whole bits rounded down.
 *
 * Context: Process context; sleeps, until the setup is done if it is
 * under way.
 * Return: the whole bits of entropy credited to @buf, or -EAGAIN if
 * jitter_tsc's initcall has not run yet, it failed intermittently or its
 * collector was found dead and the next one takes over on the next call,
 * -ENODEV if it has no collector, -ENOMEM if it could not be set up,
 * -EFAULT if no collector is left, -EINVAL for a bad @len, -EINTR if a
 * signal arrived while waiting.
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
	if (!ret)
		ret = jtsc_rng_pull(&jtsc_global, buf, len);
	/*
	 * A pull after the crng became ready (one that waited while the
	 * instance was parked, or debugfs's pull_ns) started the instance
	 * again: it is parked once idle, as the shards are.
	 */
	if (rng_is_initialized())
		jtsc_idle_arm();
	return ret < 0 ? ret : ret >> JTSC_ENTROPY_SHIFT;
}
#endif

/**
 * jtsc_kcapi_group() - The group the crypto_rng draws on
 *
 * Context: Any context.
 * Return: jtsc_group, unless the KUnit suite has put one of its own here.
 */
VISIBLE_IF_KUNIT struct jtsc_group *jtsc_kcapi_group(void)
{
	KUNIT_STATIC_STUB_REDIRECT(jtsc_kcapi_group);
	return &jtsc_group;
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_kcapi_group);

/**
 * jtsc_rng_generate_wait() - jtsc_rng_generate(), until data or a final error
 * @rng: the instance
 * @dst: where to store the output
 * @dlen: bytes wanted
 *
 * An -EAGAIN of the instance says it has already dealt with a health-test
 * failure: the next call runs the startup test again, or that of the
 * collector taking over. That is the kernel's to do, not the reader's,
 * so the call is repeated until it gives data or a final error. Each
 * repetition follows a collector's death (at most one per collector) or
 * an intermittent failure, and three of those without a predictor window
 * passed in between are a permanent one; a source that keeps failing
 * with windows passed in between keeps the reader waiting, as a blocking
 * read does, until a fatal signal ends the wait. The wait is freezable:
 * the instance's lock is not held here.
 *
 * Context: Process context; sleeps.
 * Return: what jtsc_rng_generate() last returned, never -EAGAIN, or
 * -EINTR on a fatal signal.
 */
VISIBLE_IF_KUNIT int jtsc_rng_generate_wait(struct jtsc_rng *rng, u8 *dst, unsigned int dlen)
{
	int ret;

	while ((ret = jtsc_rng_generate(rng, dst, dlen)) == -EAGAIN) {
		if (fatal_signal_pending(current))
			return -EINTR;
		try_to_freeze();
		cond_resched();
	}
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_rng_generate_wait);

/*
 * The shard is that of the CPU the request starts on, which keeps readers
 * on different CPUs apart; one that then migrates keeps its shard.
 */
static int jtsc_kcapi_generate(struct crypto_rng *tfm, const u8 *src,
			       unsigned int slen, u8 *dst, unsigned int dlen)
{
	struct jtsc_group *g = jtsc_kcapi_group();
	int ret;

	ret = jtsc_rng_generate_wait(g->shards[raw_smp_processor_id() % g->nr_shards],
				     dst, dlen);
	jtsc_idle_arm();
	return ret;
}

/*
 * Like jitterentropy_rng, a seed is accepted and ignored: callers cannot
 * add to, or take away from, what the collectors measure.
 */
static int jtsc_kcapi_seed(struct crypto_rng *tfm, const u8 *seed, unsigned int slen)
{
	return 0;
}

static struct rng_alg jtsc_alg = {
	.generate	= jtsc_kcapi_generate,
	.seed		= jtsc_kcapi_seed,
	.seedsize	= 0,
	.base		= {
		.cra_name		= "jitter_tsc",
		.cra_driver_name	= "jitter_tsc-generic",
		.cra_priority		= 100,
		.cra_ctxsize		= 0,
		.cra_init		= jtsc_kcapi_init,
		.cra_exit		= jtsc_kcapi_exit,
		.cra_module		= THIS_MODULE,
	}
};

/*
 * Under memory pressure, the buffers of the instances that have served no
 * request for a second are freed: a reader streaming from a shard keeps
 * it, since freeing it would only make the reader allocate it again and
 * run a startup test. random.c's instance is left alone until the crng is
 * ready. The shrinker is not memcg aware: global reclaim frees buffers, a
 * memory cgroup's limit only refuses new ones. Counted in pages.
 */
static bool jtsc_shrinkable(struct jtsc_rng *rng)
{
	if (rng == &jtsc_global && !rng_is_initialized())
		return false;
	return READ_ONCE(rng->buf.mem) && !mutex_is_locked(&rng->lock);
}

static unsigned long jtsc_shrink_count(struct shrinker *shrink, struct shrink_control *sc)
{
	unsigned long pages = 0;
	unsigned int i;

	if (jtsc_shrinkable(&jtsc_global))
		pages += JTSC_SPEC_MEM_SIZE >> PAGE_SHIFT;
	for (i = 0; i < jtsc_group.nr_shards; i++)
		if (jtsc_shrinkable(jtsc_group.shards[i]))
			pages += JTSC_SPEC_MEM_SIZE >> PAGE_SHIFT;
	return pages ?: SHRINK_EMPTY;
}

static unsigned long jtsc_shrink_scan(struct shrinker *shrink, struct shrink_control *sc)
{
	unsigned long freed = 0;
	unsigned int i;

	if (jtsc_shrinkable(&jtsc_global))
		jtsc_park_idle(&jtsc_global, HZ, &freed);
	for (i = 0; i < jtsc_group.nr_shards && (freed >> PAGE_SHIFT) < sc->nr_to_scan; i++)
		if (jtsc_shrinkable(jtsc_group.shards[i]))
			jtsc_park_idle(jtsc_group.shards[i], HZ, &freed);
	return freed ? freed >> PAGE_SHIFT : SHRINK_STOP;
}

static struct shrinker *jtsc_shrinker;

/*
 * A VM fork: the pools must not carry over to the clone, nor the estimates
 * made on what may have been another machine. Called from a VMGENID
 * interrupt on devicetree machines, from a workqueue on ACPI ones.
 */
static int jtsc_vmfork_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	jtsc_machine_changed();
	return NOTIFY_DONE;
}

static struct notifier_block jtsc_vmfork_nb = {
	.notifier_call = jtsc_vmfork_notify,
};

/*
 * Before a suspend or a hibernation, so that the idle instances' pools are
 * not in the image; after it, in process context, since the machine may be
 * another one. The restore notifications run in the boot kernel, whose
 * instances the image replaces: nothing to do there.
 */
static int jtsc_pm_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	switch (action) {
	case PM_HIBERNATION_PREPARE:
	case PM_SUSPEND_PREPARE:
	case PM_POST_HIBERNATION:
	case PM_POST_SUSPEND:
		jtsc_machine_changed();
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block jtsc_pm_nb = {
	.notifier_call = jtsc_pm_notify,
};

#ifdef CONFIG_CRYPTO_JITTER_TSC_DEBUGFS
static struct dentry *jtsc_debugfs;

/* An open raw-sample file: its collector, and a buffer of its own. */
struct jtsc_raw_file {
	struct mutex lock; /* readers of one open file take turns */
	enum jtsc_source src;
	struct jtsc_buf buf;
};

static int jtsc_raw_open(struct inode *inode, struct file *file)
{
	enum jtsc_source src = (uintptr_t)inode->i_private;
	struct jtsc_raw_file *f;

	if (!(jtsc_group.usable & BIT(src)))
		return -ENODEV;
	f = kzalloc(sizeof(*f), GFP_KERNEL_ACCOUNT);
	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	f->src = src;
	if (JTSC_SPEC_MEM_SIZE && src == JTSC_SRC_SPEC) {
		f->buf.mem = jtsc_spec_alloc();
		if (!f->buf.mem) {
			kfree(f);
			return -ENOMEM;
		}
	}
	file->private_data = f;
	return 0;
}

static int jtsc_raw_release(struct inode *inode, struct file *file)
{
	struct jtsc_raw_file *f = file->private_data;

	mutex_destroy(&f->lock);
	vfree(f->buf.mem);
	kfree(f);
	return 0;
}

/*
 * Fresh raw samples, taken for the reader alone, walking the open file's
 * own buffer: they never enter a pool, and nothing from a pool is ever
 * shown. They are taken JTSC_BATCH at a time, and the walk goes on from
 * read to read, as an instance's batches are.
 */
static ssize_t jtsc_raw_read(struct file *file, char __user *ubuf, size_t count,
			     loff_t *ppos)
{
	struct jtsc_raw_file *f = file->private_data;
	size_t n = min_t(size_t, count, PAGE_SIZE), done;
	u8 *buf;
	int ret;

	if (!n)
		return -EINVAL;
	buf = kmalloc(n, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	mutex_lock(&f->lock);
	for (done = 0, ret = 0; !ret && done < n; done += JTSC_BATCH)
		ret = jtsc_collect(f->src, buf + done, min_t(size_t, n - done, JTSC_BATCH),
				   &f->buf);
	mutex_unlock(&f->lock);
	if (!ret && copy_to_user(ubuf, buf, n))
		ret = -EFAULT;
	kfree_sensitive(buf);
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

static ssize_t jtsc_boot_read(struct file *file, char __user *ubuf, size_t count,
			      loff_t *ppos)
{
	enum jtsc_source src = (uintptr_t)file->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, jtsc_boot_raw[src],
				       sizeof(jtsc_boot_raw[src]));
}

static const struct file_operations jtsc_boot_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = jtsc_boot_read,
	.llseek = default_llseek,
};

/* Adds the counters of @rng to @sum, under its lock. */
static void jtsc_stats_add(struct jtsc_stats *sum, struct jtsc_rng *rng)
{
	enum jtsc_source src;

	mutex_lock(&rng->lock);
	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		sum[src].samples += rng->stats[src].samples;
		sum[src].collect_ns += rng->stats[src].collect_ns;
		sum[src].intermittent += rng->stats[src].intermittent;
		sum[src].permanent += rng->stats[src].permanent;
		sum[src].credited += rng->stats[src].credited;
		sum[src].estimates += rng->stats[src].estimates;
		sum[src].refused += rng->stats[src].refused;
		sum[src].startups += rng->stats[src].startups;
		/* The lowest of the instances' last estimates (one a generation). */
		if (rng->stats[src].estimates &&
		    (sum[src].estimates == rng->stats[src].estimates ||
		     rng->stats[src].h_min < sum[src].h_min)) {
			sum[src].h_min = rng->stats[src].h_min;
			sum[src].estimator = rng->stats[src].estimator;
		}
	}
	mutex_unlock(&rng->lock);
}

/*
 * The counters of every instance added up, taking their locks one at a
 * time. "active" is the collector new requests start on.
 */
static int jtsc_stats_show(struct seq_file *m, void *v)
{
	struct jtsc_stats sum[JTSC_NR_SOURCES] = {};
	struct jtsc_group *g = &jtsc_group;
	enum jtsc_source src, alive = jtsc_first_alive(g);
	unsigned int i;

	jtsc_stats_add(sum, &jtsc_global);
	for (i = 0; i < g->nr_shards; i++)
		jtsc_stats_add(sum, g->shards[i]);
	seq_printf(m, "active %s\n",
		   alive < JTSC_NR_SOURCES ? jtsc_collectors[alive].name : "none");
	seq_printf(m, "failed %d\n", alive == JTSC_NR_SOURCES);
	seq_printf(m, "shards %u\n", g->nr_shards);
	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		const char *name = jtsc_collectors[src].name;
		bool dead = test_bit(src, &g->dead);
		int word, step = jtsc_group_step(g, src, jtsc_gen(), &word);

		seq_printf(m, "%s.enabled %d\n", name, (g->usable & BIT(src)) && !dead);
		seq_printf(m, "%s.verified %d\n", name, test_bit(src, &g->verified));
		seq_printf(m, "%s.dead %d\n", name, dead);
		seq_printf(m, "%s.credit_per_sample_256ths %u\n", name,
			   step >= 0 ? jtsc_ladder[step].credit : 0);
		seq_printf(m, "%s.startup_tests %llu\n", name, sum[src].startups);
		seq_printf(m, "%s.estimates %llu\n", name, sum[src].estimates);
		seq_printf(m, "%s.estimates_refused %llu\n", name, sum[src].refused);
		seq_printf(m, "%s.estimate_millibits %llu\n", name,
			   (sum[src].h_min * 1000) >> JTSC_EST_SHIFT);
		seq_printf(m, "%s.estimator %s\n", name,
			   sum[src].estimates ? jtsc_estimator_name[sum[src].estimator] : "none");
		seq_printf(m, "%s.samples %llu\n", name, sum[src].samples);
		seq_printf(m, "%s.collect_ns %llu\n", name, sum[src].collect_ns);
		seq_printf(m, "%s.intermittent_failures %llu\n", name, sum[src].intermittent);
		seq_printf(m, "%s.permanent_failures %llu\n", name, sum[src].permanent);
		seq_printf(m, "%s.bits_credited %llu\n", name,
			   sum[src].credited >> JTSC_ENTROPY_SHIFT);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(jtsc_stats);

#if IS_ENABLED(CONFIG_CRYPTO_JITTER_TSC_SEED)
/*
 * One pull of JITTER_TSC_PULL_MAX bytes from random.c's instance, as
 * random.c makes them, timed: "<ns> <bits credited>". The data is wiped,
 * never shown. `make bench` times it with and without AF_ALG readers.
 */
static ssize_t jtsc_pull_read(struct file *file, char __user *ubuf, size_t count,
			      loff_t *ppos)
{
	u64 words[JTSC_PULL_MAX_WORDS], t0;
	char line[48];
	int ret, len;

	if (*ppos)
		return 0;
	t0 = local_clock();
	ret = jitter_tsc_pull(words, sizeof(words));
	t0 = local_clock() - t0;
	memzero_explicit(words, sizeof(words));
	if (ret < 0)
		return ret;
	len = scnprintf(line, sizeof(line), "%llu %d\n", t0, ret);
	return simple_read_from_buffer(ubuf, count, ppos, line, len);
}

static const struct file_operations jtsc_pull_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = jtsc_pull_read,
	.llseek = noop_llseek,
};
#endif

static void jtsc_debugfs_init(void)
{
	jtsc_debugfs = debugfs_create_dir("jitter_tsc", NULL);
	debugfs_create_file("spec_raw", 0400, jtsc_debugfs,
			    (void *)(uintptr_t)JTSC_SRC_SPEC, &jtsc_raw_fops);
	debugfs_create_file("timer_raw", 0400, jtsc_debugfs,
			    (void *)(uintptr_t)JTSC_SRC_TIMER, &jtsc_raw_fops);
	debugfs_create_file("boot_spec_raw", 0400, jtsc_debugfs,
			    (void *)(uintptr_t)JTSC_SRC_SPEC, &jtsc_boot_fops);
	debugfs_create_file("boot_timer_raw", 0400, jtsc_debugfs,
			    (void *)(uintptr_t)JTSC_SRC_TIMER, &jtsc_boot_fops);
	debugfs_create_file("stats", 0400, jtsc_debugfs, NULL, &jtsc_stats_fops);
#if IS_ENABLED(CONFIG_CRYPTO_JITTER_TSC_SEED)
	debugfs_create_file("pull_ns", 0400, jtsc_debugfs, NULL, &jtsc_pull_fops);
#endif
}

static void jtsc_debugfs_exit(void)
{
	debugfs_remove_recursive(jtsc_debugfs);
}
#else
static inline void jtsc_debugfs_init(void) { }
static inline void jtsc_debugfs_exit(void) { }
#endif

static unsigned int __init jtsc_parse_collectors(void)
{
	if (!strcmp(collectors, "spec"))
		return JTSC_COLLECT_SPEC;
	if (!strcmp(collectors, "timer"))
		return JTSC_COLLECT_TIMER;
	if (!strcmp(collectors, "none"))
		return 0;
	if (strcmp(collectors, "all"))
		pr_warn("unknown collectors=%s, trying all\n", collectors);
	return JTSC_COLLECT_ALL;
}

/*
 * Set up and register. random.c's instance runs its startup test now,
 * only if random.c is going to draw on it: CONFIG_CRYPTO_JITTER_TSC_SEED,
 * with the crng not ready yet. Otherwise nothing is allocated until a
 * reader comes, and each shard runs its startup test on first use.
 *
 * jitter_tsc is not a FIPS-approved entropy source (testmgr does not mark
 * it fips_allowed, so the crypto API refuses it with fips=1). With
 * fips_enabled it is therefore not set up at all: random.c does not draw
 * on it, and none of its failures can concern, let alone panic, a FIPS
 * kernel.
 */
static int __init jtsc_setup(void)
{
	bool boot = false;
	int ret;

	if (fips_enabled) {
		pr_info("not registering: not FIPS-allowed (fips=1)\n");
		ret = -ENODEV;
		goto out;
	}
	ret = jtsc_group_init(&jtsc_group, jtsc_parse_collectors(),
			      min_t(unsigned int, nr_cpu_ids, JTSC_MAX_SHARDS));
	if (!ret) {
		boot = IS_ENABLED(CONFIG_CRYPTO_JITTER_TSC_SEED) && !rng_is_initialized();
		if (boot)
			ret = jtsc_rng_init(&jtsc_global, &jtsc_group);
		else
			jtsc_rng_attach(&jtsc_global, &jtsc_group);
	}
	if (!ret) {
		jtsc_shrinker = shrinker_alloc(0, "jitter_tsc");
		if (!jtsc_shrinker)
			ret = -ENOMEM;
	}
	if (!ret)
		ret = crypto_register_rng(&jtsc_alg);
	if (ret) {
		shrinker_free(jtsc_shrinker);
		jtsc_rng_destroy(&jtsc_global);
		jtsc_group_destroy(&jtsc_group);
		pr_info("not registering: %s\n",
			ret == -ENODEV ? "no usable collector" :
			ret == -ENOMEM ? "out of memory" : "crypto API error");
		goto out;
	}
	jtsc_shrinker->count_objects = jtsc_shrink_count;
	jtsc_shrinker->scan_objects = jtsc_shrink_scan;
	/* Freeing a buffer costs its next user a startup test. */
	jtsc_shrinker->seeks = 4 * DEFAULT_SEEKS;
	shrinker_register(jtsc_shrinker);
	/* These fail only for a notifier registered twice. */
	register_pm_notifier(&jtsc_pm_nb);
	register_random_vmfork_notifier(&jtsc_vmfork_nb);
#if IS_ENABLED(CONFIG_CRYPTO_JITTER_TSC_SEED)
	execute_with_initialized_rng(&jtsc_crng_ready_nb);
#endif
	jtsc_debugfs_init();
	if (boot)
		pr_info("ready, drawing on the %s collector at %u/256 bit per raw sample, %u shards\n",
			jtsc_collectors[jtsc_global.active].name,
			jtsc_global.health[jtsc_global.active].params->credit,
			jtsc_group.nr_shards);
	else
		pr_info("ready, %u shards: each starts a collector on first use\n",
			jtsc_group.nr_shards);
out:
	/* The instance is set up: pairs with the acquires in jitter_tsc_pull(). */
	smp_store_release(&jtsc_status, ret);
	complete_all(&jtsc_setup_done);
	return ret;
}

static void __init jtsc_setup_async(void *data, async_cookie_t cookie)
{
	jtsc_setup();
}

/*
 * Built in, the setup (the counter check and, for random.c's instance, one
 * startup test: the 8 MiB buffer and 12288 samples, tens of milliseconds
 * under emulation) runs asynchronously, overlapping the initcalls that
 * follow; the kernel waits for async work before it starts init, so it is
 * done, and random.c seeded from it, before user space runs. As a module,
 * loading runs the counter check and registers, or fails with the setup's
 * error; no startup test runs until the first request.
 */
static int __init jtsc_mod_init(void)
{
	if (!IS_BUILTIN(CONFIG_CRYPTO_JITTER_TSC))
		return jtsc_setup();
	/* Readers wait for jtsc_setup_done from now on. */
	smp_store_release(&jtsc_status, -EINPROGRESS);
	async_schedule(jtsc_setup_async, NULL);
	return 0;
}

static void __exit jtsc_mod_exit(void)
{
	jtsc_debugfs_exit();
	crypto_unregister_rng(&jtsc_alg);
	unregister_random_vmfork_notifier(&jtsc_vmfork_nb);
	unregister_pm_notifier(&jtsc_pm_nb);
	shrinker_free(jtsc_shrinker);
	/* No transform and no notifier is left: nothing queues these again. */
	cancel_delayed_work_sync(&jtsc_idle_work);
	cancel_work_sync(&jtsc_park_now_work);
	jtsc_rng_destroy(&jtsc_global);
	jtsc_group_destroy(&jtsc_group);
}

/*
 * Built in, this schedules the setup at subsys_initcall() like the generic
 * algorithms register, so that random.c can start drawing on it at
 * subsys_initcall_sync(), before the device initcalls.
 */
subsys_initcall(jtsc_mod_init);
module_exit(jtsc_mod_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("Jitter TSC Developers <jitter-tsc@lists.example.org>");
MODULE_DESCRIPTION("Health-tested CPU timing jitter entropy source");
MODULE_ALIAS_CRYPTO("jitter_tsc");
MODULE_ALIAS_CRYPTO("jitter_tsc-generic");
