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
 * It is divided into these sections:
 *
 *   - Parameters: the entropy credits and the health-test cutoffs.
 *   - Health tests: the SP 800-90B Repetition Count and Adaptive Proportion
 *     Tests and a determinism test, as pure functions over raw samples.
 *   - Folding: the LFSR that folds raw samples into pool words.
 *   - Collectors: the speculative TSC collector (x86-64) and the
 *     stack-timer collector (anything with a cycle counter), and their
 *     runtime verification.
 *   - The pool: tested, folded words, conditioned with SHA-256 on output.
 *   - Interfaces: the "jitter_tsc" crypto_rng, jitter_tsc_pull() for
 *     random.c, and an optional debugfs directory for measurements.
 *
 * One raw sample, for both collectors, is the low byte of a cycle-counter
 * delta: the time one pass of the collector's loop took. That byte, and
 * nothing derived from the counter's value, is what the SP 800-90B
 * estimators assessed, what the health tests see and what is credited.
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
 * passed a startup test and which failed permanently (struct jtsc_group,
 * atomic bit operations, no lock). A collector that fails permanently on
 * one instance is dead for all of them, since it is the same noise source;
 * each then starts the next collector left, speculative before timer,
 * after that collector's startup test on that instance. Only when none is
 * left is the failure permanent.
 *
 * The entropy claim, in one paragraph: every raw sample is credited with a
 * fixed, measured fraction of a bit (jtsc_params[].credit), at most half of
 * the lowest min-entropy that the SP 800-90B non-IID estimators found for
 * that collector's samples, on the host CPU quiet and with both cores busy
 * and under emulation. Raw samples only count once every health test has
 * passed over the whole predictor window they belong to, and not while a
 * run they are part of is still going; a failure discards everything not
 * yet handed out. Credit is counted in jtsc_credit() alone. The crypto_rng
 * output is SHA-256 over pool words carrying twice the credited entropy
 * it emits. random.c takes pool words directly and is credited exactly
 * what they carry, since its input pool is itself a conditioner.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/internal/jitter_tsc.h>
#include <crypto/internal/rng.h>
#include <crypto/jitter_tsc.h>
#include <crypto/sha2.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>
#include <linux/async.h>
#include <linux/bitrev.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/fips.h>
#include <linux/gcd.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/isolation.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>

#ifdef CONFIG_X86_64
#include <asm/tsc.h>
#include <asm/tsc_jitter.h>
#define JTSC_SPEC_MEM_SIZE	TSC_JITTER_MEM_SIZE
#else
/* No speculative collector on this architecture: only the timer one runs. */
#define JTSC_SPEC_MEM_SIZE	0
static inline int tsc_jitter_collect(u8 *samples, unsigned int n, u8 *mem)
{
	return -ENODEV;
}
#endif

/*********************************************************************
 *
 * Parameters
 *
 * Entropy is counted in 1/256 bit (JTSC_ENTROPY_SHIFT). The per-sample
 * credits below are the only entropy estimates in this driver; every
 * cutoff follows from them by the formulas of SP 800-90B section 4.4,
 * and harness/measure/check-cutoffs.py recomputes each one.
 *
 *********************************************************************/

/* C = 1 + ceil(-log2(alpha) / H), with H = credit / 256: exact in integers. */
#define JTSC_RUN_CUTOFF(log2_alpha, credit) \
	(1 + DIV_ROUND_UP((log2_alpha) << JTSC_ENTROPY_SHIFT, (credit)))

enum {
	JTSC_ENTROPY_SHIFT = 8,

	/*
	 * Speculative collector: credit per raw sample. The SP 800-90B
	 * non-IID estimators (NIST's semantics, checked against its
	 * reference output) gave at least 0.403 bit of min-entropy per
	 * sample on a quiet host (AMD EPYC with a 32 MiB L3, in a VM), 0.517
	 * with both of its cores busy and 1.88 in a QEMU TCG guest, 10^6
	 * samples a run (Documentation/crypto/jitter_tsc.rst has every run).
	 * Hosts whose L3 is smaller than the 8 MiB buffer gave 1.57 and
	 * more: the loop's jitter is mostly that of its cache misses, and
	 * the credit must hold where the buffer fits in the cache. Runs on
	 * that host went from 0.491 to 0.403, so we credit 40/256 = 0.156
	 * bit, well under half of the lowest (2.58x).
	 */
	JTSC_SPEC_CREDIT = 40,

	/*
	 * Timer collector: credit per raw sample. Its passes vary little
	 * when nothing else runs, as try_to_generate_entropy() assumes in
	 * crediting only timer expiries: at least 0.021 bit per sample in
	 * a user-space analogue on the quiet host (other runs gave 0.078 to
	 * 0.085), 0.033 with both cores busy, 0.032 in a QEMU TCG guest. We
	 * credit 2/256 = 0.0078 bit, under half of the lowest (2.75x). At so
	 * low a credit the APT and the predictors' window counts cannot fail
	 * (their cutoffs exceed the window); the RCT and the predictors' runs
	 * still refuse a counter without jitter.
	 */
	JTSC_TIMER_CREDIT = 2,

	/*
	 * Raw samples folded into one pool word, so that a word carries at
	 * most 32 credited bits, half of what it can hold: 128 speculative
	 * samples (20 bits) or 512 timer samples (4 bits).
	 */
	JTSC_SPEC_SAMPLES_PER_WORD = 128,
	JTSC_TIMER_SAMPLES_PER_WORD = 512,
	JTSC_MAX_WORD_CREDIT = 32 << JTSC_ENTROPY_SHIFT,

	/* SP 800-90B 4.4.2: W = 512 for samples that are not binary. */
	JTSC_APT_WINDOW = 512,

	/*
	 * The determinism test counts the hits of each predictor over a
	 * window of 4096 samples, eight APT windows: long enough that a
	 * speculative predictor that is always right reaches the permanent
	 * cutoff within one window (4096 hits against 3845), while one that
	 * is right as often as a healthy source allows does not. At the
	 * timer's credit neither is in reach (4097).
	 */
	JTSC_PRED_WINDOW = 4096,

	/*
	 * SP 800-90B 4.3 (9): the startup test covers at least 1024
	 * samples; ours covers three predictor windows, so that a
	 * deterministic stream that begins anywhere in the first is refused
	 * before any output, even at the timer's credit, where a run of
	 * hits needs up to JTSC_TIMER_RUN_CUTOFF samples after its first
	 * JTSC_MAX_LAG to fail.
	 */
	JTSC_STARTUP_SAMPLES = 3 * JTSC_PRED_WINDOW,

	/*
	 * SP 800-90B 4.4.1, Repetition Count Test, alpha = 2^-30 for an
	 * intermittent and 2^-60 for a permanent failure.
	 */
	JTSC_ALPHA_LOG2 = 30,
	JTSC_PERM_ALPHA_LOG2 = 60,
	JTSC_SPEC_RCT_CUTOFF = JTSC_RUN_CUTOFF(JTSC_ALPHA_LOG2, JTSC_SPEC_CREDIT),
	JTSC_SPEC_RCT_PERM_CUTOFF = JTSC_RUN_CUTOFF(JTSC_PERM_ALPHA_LOG2, JTSC_SPEC_CREDIT),
	JTSC_TIMER_RCT_CUTOFF = JTSC_RUN_CUTOFF(JTSC_ALPHA_LOG2, JTSC_TIMER_CREDIT),
	JTSC_TIMER_RCT_PERM_CUTOFF = JTSC_RUN_CUTOFF(JTSC_PERM_ALPHA_LOG2, JTSC_TIMER_CREDIT),

	/*
	 * The determinism test runs JTSC_NR_PREDICTORS (65) predictors at
	 * once, each held to alpha / 128, so that by the union bound the
	 * chance that any of them trips on a healthy source stays below
	 * alpha. A source with min-entropy H per sample lets any predictor
	 * be right with probability at most 2^-H, whatever it knows of the
	 * past: its runs of hits are bounded like the RCT's runs, and its
	 * hits in a window like the APT's count.
	 */
	JTSC_PRED_ALPHA_LOG2 = JTSC_ALPHA_LOG2 + 7,
	JTSC_PRED_PERM_ALPHA_LOG2 = JTSC_PERM_ALPHA_LOG2 + 7,
	JTSC_SPEC_RUN_CUTOFF = JTSC_RUN_CUTOFF(JTSC_PRED_ALPHA_LOG2, JTSC_SPEC_CREDIT),
	JTSC_SPEC_RUN_PERM_CUTOFF = JTSC_RUN_CUTOFF(JTSC_PRED_PERM_ALPHA_LOG2, JTSC_SPEC_CREDIT),
	JTSC_TIMER_RUN_CUTOFF = JTSC_RUN_CUTOFF(JTSC_PRED_ALPHA_LOG2, JTSC_TIMER_CREDIT),
	JTSC_TIMER_RUN_PERM_CUTOFF = JTSC_RUN_CUTOFF(JTSC_PRED_PERM_ALPHA_LOG2, JTSC_TIMER_CREDIT),

	/*
	 * SP 800-90B 4.4.2, Adaptive Proportion Test, and the predictor hit
	 * counts: C = 1 + CRITBINOM(W, 2^-H, 1 - alpha), the smallest count
	 * whose binomial CDF reaches 1 - alpha. The binomial quantile has no
	 * closed form; these values are computed exactly by
	 * harness/measure/check-cutoffs.py, which make check runs.
	 * Speculative: H = 0.156, p = 2^-H = 0.8973; timer: H = 0.0078,
	 * p = 0.9946, where a cutoff of W + 1 means the test cannot fail.
	 */
	JTSC_SPEC_APT_CUTOFF = 496,		/* W = 512, alpha = 2^-30 */
	JTSC_SPEC_APT_PERM_CUTOFF = 508,	/* W = 512, alpha = 2^-60 */
	JTSC_SPEC_HITS_CUTOFF = 3802,		/* W = 4096, alpha = 2^-37 */
	JTSC_SPEC_HITS_PERM_CUTOFF = 3845,	/* W = 4096, alpha = 2^-67 */
	JTSC_TIMER_APT_CUTOFF = 513,		/* W = 512, alpha = 2^-30 */
	JTSC_TIMER_APT_PERM_CUTOFF = 513,	/* W = 512, alpha = 2^-60 */
	JTSC_TIMER_HITS_CUTOFF = 4097,		/* W = 4096, alpha = 2^-37 */
	JTSC_TIMER_HITS_PERM_CUTOFF = 4097,	/* W = 4096, alpha = 2^-67 */

	/*
	 * Intermittent failures without a passed startup test in between
	 * before a source is declared dead. Each one has probability 2^-30
	 * for a healthy source, so three in a row mean it is broken.
	 */
	JTSC_MAX_INTERMITTENT = 3,

	/*
	 * Output: one SHA-256 block, a conditioning function SP 800-90B
	 * 3.1.5.1.1 lists as vetted, fed twice as much credited entropy as
	 * it emits, which 3.1.5.1.2 takes as full entropy out.
	 */
	JTSC_BLOCK_SIZE = SHA256_DIGEST_SIZE,
	JTSC_OVERSAMPLE = 2,
	JTSC_BLOCK_CREDIT = (JTSC_BLOCK_SIZE * 8 * JTSC_OVERSAMPLE) << JTSC_ENTROPY_SHIFT,

	/*
	 * Instances the crypto_rng spreads its readers over, by CPU: enough
	 * for readers on 8 CPUs to collect in parallel, few enough that the
	 * speculative collector's 8 MiB buffer, allocated by an instance when
	 * it is first used, takes at most 64 MiB.
	 */
	JTSC_MAX_SHARDS = 8,

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
 * What the pool and the tests need of each collector's parameters. A word
 * carries at most JTSC_MAX_WORD_CREDIT, windows and batches end on word
 * boundaries and a word folds whole u64 of samples...
 */
static_assert(JTSC_SPEC_CREDIT * JTSC_SPEC_SAMPLES_PER_WORD <= JTSC_MAX_WORD_CREDIT);
static_assert(JTSC_TIMER_CREDIT * JTSC_TIMER_SAMPLES_PER_WORD <= JTSC_MAX_WORD_CREDIT);
static_assert(JTSC_BATCH % JTSC_SPEC_SAMPLES_PER_WORD == 0);
static_assert(JTSC_BATCH % JTSC_TIMER_SAMPLES_PER_WORD == 0);
static_assert(JTSC_SPEC_SAMPLES_PER_WORD % sizeof(u64) == 0);
static_assert(JTSC_TIMER_SAMPLES_PER_WORD % sizeof(u64) == 0);
/*
 * ...the window cutoffs are at most one past their window (then that test
 * cannot fail at that credit), and at the speculative credit an
 * always-right predictor reaches the permanent window cutoff...
 */
static_assert(JTSC_SPEC_APT_PERM_CUTOFF - 1 <= JTSC_APT_WINDOW);
static_assert(JTSC_TIMER_APT_PERM_CUTOFF - 1 <= JTSC_APT_WINDOW);
static_assert(JTSC_SPEC_HITS_PERM_CUTOFF <= JTSC_PRED_WINDOW);
static_assert(JTSC_TIMER_HITS_PERM_CUTOFF - 1 <= JTSC_PRED_WINDOW);
/* jtsc_predictor_hit() looks at the lower cutoff of each pair first. */
static_assert(JTSC_SPEC_RUN_CUTOFF <= JTSC_SPEC_RUN_PERM_CUTOFF);
static_assert(JTSC_TIMER_RUN_CUTOFF <= JTSC_TIMER_RUN_PERM_CUTOFF);
static_assert(JTSC_SPEC_HITS_CUTOFF <= JTSC_SPEC_HITS_PERM_CUTOFF);
static_assert(JTSC_TIMER_HITS_CUTOFF <= JTSC_TIMER_HITS_PERM_CUTOFF);
static_assert(JTSC_SPEC_RUN_PERM_CUTOFF <= U16_MAX);
static_assert(JTSC_TIMER_RUN_PERM_CUTOFF <= U16_MAX);
/*
 * ...and a block or a pull, a predictor window of pending words and the
 * words held back at its end (a run and the last JTSC_MAX_LAG samples, see
 * jtsc_release()) fit in the pool together.
 */
static_assert(MAX(DIV_ROUND_UP(JTSC_BLOCK_CREDIT, JTSC_SPEC_CREDIT * JTSC_SPEC_SAMPLES_PER_WORD),
		  JTSC_PULL_MAX_WORDS) + JTSC_PRED_WINDOW / JTSC_SPEC_SAMPLES_PER_WORD +
	      DIV_ROUND_UP(JTSC_SPEC_RUN_PERM_CUTOFF + JTSC_MAX_LAG,
			   JTSC_SPEC_SAMPLES_PER_WORD) <=
	      JTSC_POOL_WORDS);
static_assert(MAX(DIV_ROUND_UP(JTSC_BLOCK_CREDIT, JTSC_TIMER_CREDIT * JTSC_TIMER_SAMPLES_PER_WORD),
		  JTSC_PULL_MAX_WORDS) + JTSC_PRED_WINDOW / JTSC_TIMER_SAMPLES_PER_WORD +
	      DIV_ROUND_UP(JTSC_TIMER_RUN_PERM_CUTOFF + JTSC_MAX_LAG,
			   JTSC_TIMER_SAMPLES_PER_WORD) <=
	      JTSC_POOL_WORDS);
static_assert(JTSC_PRED_WINDOW % JTSC_APT_WINDOW == 0);
static_assert(JTSC_PRED_WINDOW + JTSC_MAX_LAG + JTSC_SPEC_RUN_CUTOFF <= JTSC_STARTUP_SAMPLES);
static_assert(JTSC_PRED_WINDOW + JTSC_MAX_LAG + JTSC_TIMER_RUN_CUTOFF <= JTSC_STARTUP_SAMPLES);
static_assert(JTSC_PRED_WINDOW % JTSC_BATCH == 0);
static_assert(JTSC_PRED_WINDOW <= U16_MAX);
static_assert((JTSC_MAX_LAG & (JTSC_MAX_LAG - 1)) == 0);

/*********************************************************************
 *
 * Health tests
 *
 * On raw samples, before folding, always on, for both collectors alike:
 *
 *   - SP 800-90B 4.4.1, the Repetition Count Test, on the samples;
 *   - SP 800-90B 4.4.2, the Adaptive Proportion Test, W = 512;
 *   - a determinism test that the two above cannot replace at a low
 *     credit: 65 predictors, each of which guesses every sample from the
 *     ones before it. Predictor 0 is the stuck test of jent_stuck() in
 *     crypto/jitterentropy.c: it guesses that the counter's third
 *     difference is zero, which a counter that stands still (first
 *     difference zero), that steps by a fixed amount (second difference
 *     zero) or whose step grows by a fixed amount (third difference
 *     zero) all make true from their third sample on. Predictor L, for
 *     L = 1..64, guesses that a sample repeats the one L samples back,
 *     which a periodic delta stream of period up to 64, an alternating
 *     one included, makes true. A run of hits of any predictor, and its
 *     hits over a window of JTSC_PRED_WINDOW samples, have cutoffs
 *     derived from the credit as the RCT's and the APT's are.
 *
 * These are pure functions of the sample stream, so that the KUnit suite
 * can drive them with scripted streams. An intermittent failure (a cutoff
 * for alpha = 2^-30) does not reset the counts: a run or a window that
 * goes on can still reach the cutoff for alpha = 2^-60 and become a
 * permanent failure. It restarts the startup test, so no output is made
 * until JTSC_STARTUP_SAMPLES further samples have passed.
 *
 *********************************************************************/

/**
 * jtsc_health_init() - Start the health tests of one collector
 * @h: health-test state to initialise
 * @params: the collector's parameters
 *
 * The state starts in the startup test: jtsc_health_started() is false
 * until JTSC_STARTUP_SAMPLES samples have passed.
 *
 * Context: Any context.
 */
VISIBLE_IF_KUNIT void jtsc_health_init(struct jtsc_health *h,
				       const struct jtsc_health_params *params)
{
	*h = (struct jtsc_health){
		.params = params,
		.startup_left = JTSC_STARTUP_SAMPLES,
	};
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_health_init);

/* The verdict on a count that has just grown to @count. */
static enum jtsc_health_result jtsc_cutoff(unsigned int count, unsigned int cutoff,
					   unsigned int perm_cutoff)
{
	if (unlikely(count == perm_cutoff))
		return JTSC_HEALTH_PERMANENT;
	if (unlikely(count == cutoff))
		return JTSC_HEALTH_INTERMITTENT;
	return JTSC_HEALTH_OK;
}

/*
 * A predictor's guess for the current sample was right: count the hit.
 * A healthy source makes some twenty hits per sample over the 65
 * predictors, so the common case, both counts below their lower cutoff,
 * takes one comparison each; every cutoff pair has cutoff < perm_cutoff.
 */
static enum jtsc_health_result jtsc_predictor_hit(struct jtsc_health *h, unsigned int k)
{
	const struct jtsc_health_params *p = h->params;
	unsigned int run = ++h->run[k], hits = ++h->hits[k];

	if (likely(run < p->run_cutoff && hits < p->hits_cutoff))
		return JTSC_HEALTH_OK;
	return max(jtsc_cutoff(run, p->run_cutoff, p->run_perm_cutoff),
		   jtsc_cutoff(hits, p->hits_cutoff, p->hits_perm_cutoff));
}

/*
 * Bit j set for each lag 64 - j whose predictor guesses @sample right: the
 * bytes of the last 64 samples, oldest first, that equal it, eight lags a
 * word. The zero-byte test is the exact one (no false positives across
 * bytes).
 */
static u64 jtsc_lag_hits(const struct jtsc_health *h, u8 sample)
{
	const u8 *last64 = h->hist + h->pos;
	const u64 low7 = 0x7f7f7f7f7f7f7f7fULL;
	u64 hits = 0, x, zero;
	unsigned int w;

	for (w = 0; w < JTSC_MAX_LAG / 8; w++) {
		x = get_unaligned_le64(last64 + 8 * w) ^ (sample * 0x0101010101010101ULL);
		zero = ~(((x & low7) + low7) | x | low7);
		/* Gather the top bit of byte k into bit k of the top byte. */
		hits |= ((zero * 0x0002040810204081ULL) >> 56) << (8 * w);
	}
	/* Lags beyond the samples seen so far have nothing to compare with. */
	return h->seen >= JTSC_MAX_LAG ? hits : hits & ~(~0ULL >> h->seen);
}

/*
 * Keep the last 64 samples in order, oldest first, at hist[pos..pos + 63]:
 * each is stored twice, 64 bytes apart, so that no wrap-around is needed.
 */
static void jtsc_lag_push(struct jtsc_health *h, u8 sample)
{
	h->hist[h->pos] = sample;
	h->hist[h->pos + JTSC_MAX_LAG] = sample;
	h->pos = (h->pos + 1) % JTSC_MAX_LAG;
}

/**
 * jtsc_health_sample() - Run the health tests over one raw sample
 * @h: health-test state
 * @sample: the raw sample, the low byte of a cycle-counter delta
 *
 * Context: Any context.
 * Return: JTSC_HEALTH_OK, JTSC_HEALTH_INTERMITTENT when a cutoff for
 * alpha = 2^-30 was reached with this sample, or JTSC_HEALTH_PERMANENT when
 * a cutoff for alpha = 2^-60 was reached or the intermittent failures ran
 * out.
 */
VISIBLE_IF_KUNIT enum jtsc_health_result jtsc_health_sample(struct jtsc_health *h,
							    u8 sample)
{
	const struct jtsc_health_params *p = h->params;
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	u8 last = h->hist[h->pos + JTSC_MAX_LAG - 1];
	u8 d2 = sample - last;
	u64 hit, ended;
	unsigned int j;

	/* SP 800-90B 4.4.1: count identical consecutive samples. */
	if (h->seen && sample == last) {
		h->rct_run++;
		res = jtsc_cutoff(h->rct_run, p->rct_cutoff, p->rct_perm_cutoff);
	} else {
		h->rct_run = 1;
	}

	/*
	 * SP 800-90B 4.4.2: count how often the first sample of a window
	 * comes back within the window.
	 */
	if (!h->apt_seen) {
		h->apt_value = sample;
		h->apt_count = 1;
	} else if (sample == h->apt_value) {
		h->apt_count++;
		res = max(res, jtsc_cutoff(h->apt_count, p->apt_cutoff, p->apt_perm_cutoff));
	}
	if (++h->apt_seen == JTSC_APT_WINDOW)
		h->apt_seen = 0;

	/* The determinism test: the stuck predictor... */
	if (h->seen >= 2 && d2 == h->d2)
		res = max(res, jtsc_predictor_hit(h, 0));
	else
		h->run[0] = 0;

	/*
	 * ...and the lags, lag 64 - j in bit j. Only the predictors that
	 * hit, or whose run just ended, cost anything.
	 */
	hit = jtsc_lag_hits(h, sample);
	ended = h->running & ~hit;
	h->running = hit;
	while (ended) {
		j = __ffs64(ended);
		ended &= ended - 1;
		h->run[JTSC_MAX_LAG - j] = 0;
	}
	while (hit) {
		j = __ffs64(hit);
		hit &= hit - 1;
		res = max(res, jtsc_predictor_hit(h, JTSC_MAX_LAG - j));
	}
	if (++h->pred_seen == JTSC_PRED_WINDOW) {
		h->pred_seen = 0;
		memset(h->hits, 0, sizeof(h->hits));
	}

	jtsc_lag_push(h, sample);
	h->d2 = d2;
	if (h->seen < JTSC_MAX_LAG)
		h->seen++;

	if (likely(res == JTSC_HEALTH_OK)) {
		if (unlikely(h->startup_left) && !--h->startup_left)
			h->failures = 0;
		return JTSC_HEALTH_OK;
	}

	h->startup_left = JTSC_STARTUP_SAMPLES;
	if (res == JTSC_HEALTH_INTERMITTENT && ++h->failures >= JTSC_MAX_INTERMITTENT)
		res = JTSC_HEALTH_PERMANENT;
	return res;
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_health_sample);

/**
 * jtsc_health_hold() - Samples at the end that a run still going takes in
 * @h: health-test state
 *
 * A run of identical samples, or of hits of one predictor, that is still
 * going may yet reach its cutoff; none of its samples may be released
 * before it ends, or the first part of a failing run that straddles a
 * window boundary would be credited.
 *
 * Context: Any context.
 * Return: the length of the longest such run, 0 if there is none.
 */
VISIBLE_IF_KUNIT unsigned int jtsc_health_hold(const struct jtsc_health *h)
{
	unsigned int hold = h->rct_run > 1 ? h->rct_run : 0;
	unsigned int k;

	for (k = 0; k < JTSC_NR_PREDICTORS; k++)
		hold = max_t(unsigned int, hold, h->run[k]);
	return hold;
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_health_hold);

/*********************************************************************
 *
 * Folding
 *
 * A 64-bit Fibonacci LFSR with the primitive polynomial
 * x^64 + x^61 + x^56 + x^31 + x^28 + x^23 + 1, shifting left, so the taps
 * sit at bits 63, 60, 55, 30, 27 and 22. Each step injects one input bit
 * into the feedback, so every bit of every sample reaches the state. The
 * map from one 64-bit input to the state is linear and, for a fixed start
 * state, bijective. A pool word folds JTSC_*_SAMPLES_PER_WORD samples, as
 * 64-bit inputs of eight samples, and carries at most JTSC_MAX_WORD_CREDIT: half
 * of what its 64 bits can hold, as margin for what a linear compression may
 * lose. Folding is not conditioning: the crypto_rng output is SHA-256 over
 * pool words, and random.c mixes them into its input pool.
 *
 *********************************************************************/

/**
 * jtsc_lfsr_fold() - Fold input bits into the LFSR state
 * @state: LFSR state
 * @in: input bits, bit 0 injected first
 * @nbits: number of bits of @in to inject, at most 64
 *
 * Context: Any context.
 * Return: the new LFSR state.
 */
VISIBLE_IF_KUNIT u64 jtsc_lfsr_fold(u64 state, u64 in, unsigned int nbits)
{
	u64 rev = (u64)bitrev32(lower_32_bits(in)) << 32 | bitrev32(upper_32_bits(in));

	/*
	 * Up to 23 steps at once: the lowest tap, bit 22, sees a bit shifted
	 * in by this chunk only from the 24th step on, so all feedback bits
	 * of a chunk come from the state before it. Step k's feedback is
	 * state bits 63-k, 60-k, 55-k, 30-k, 27-k and 22-k, and its new bit
	 * ends up at bit m-1-k; input bit k goes to the same place, which is
	 * where the bit-reversed input has it.
	 */
	while (nbits) {
		unsigned int m = min(nbits, 23U);
		u64 fb = (state >> (64 - m)) ^ (state >> (61 - m)) ^ (state >> (56 - m)) ^
			 (state >> (31 - m)) ^ (state >> (28 - m)) ^ (state >> (23 - m));

		state = (state << m) | ((fb ^ (rev >> (64 - m))) & GENMASK_ULL(m - 1, 0));
		rev <<= m;
		nbits -= m;
	}
	return state;
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_lfsr_fold);

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
 * @mem: the collector's buffer of JTSC_SPEC_MEM_SIZE bytes
 *
 * Context: Any context.
 * Return: 0, or -ENODEV where there is no speculative collector.
 */
VISIBLE_IF_KUNIT int jtsc_spec_collect(u8 *samples, unsigned int n, void *mem)
{
	KUNIT_STATIC_STUB_REDIRECT(jtsc_spec_collect, samples, n, mem);
	if (!mem)
		return -ENODEV;
	return tsc_jitter_collect(samples, n, mem);
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
 * @mem: unused
 *
 * A timer on this stack is kept armed, on another CPU where there is one,
 * to expire at the next tick, while the loop calls schedule() and reads the
 * cycle counter. Each raw sample is the low byte of the counter's advance
 * over one pass.
 *
 * Context: Process context; sleeps.
 * Return: 0.
 */
VISIBLE_IF_KUNIT int jtsc_timer_collect(u8 *samples, unsigned int n, void *mem)
{
	u8 stack_bytes[sizeof(struct jtsc_timer_state) + SMP_CACHE_BYTES - 1];
	struct jtsc_timer_state *stack = PTR_ALIGN((void *)stack_bytes, SMP_CACHE_BYTES);
	unsigned int i;
	int cpu = -1;
	u64 last, now;

	KUNIT_STATIC_STUB_REDIRECT(jtsc_timer_collect, samples, n, mem);

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

/* The collectors' parameters: everything that differs between them. */
const struct jtsc_health_params jtsc_params[JTSC_NR_SOURCES] = {
	[JTSC_SRC_SPEC] = {
		.name = "speculative",
		.credit = JTSC_SPEC_CREDIT,
		.samples_per_word = JTSC_SPEC_SAMPLES_PER_WORD,
		.rct_cutoff = JTSC_SPEC_RCT_CUTOFF,
		.rct_perm_cutoff = JTSC_SPEC_RCT_PERM_CUTOFF,
		.apt_cutoff = JTSC_SPEC_APT_CUTOFF,
		.apt_perm_cutoff = JTSC_SPEC_APT_PERM_CUTOFF,
		.run_cutoff = JTSC_SPEC_RUN_CUTOFF,
		.run_perm_cutoff = JTSC_SPEC_RUN_PERM_CUTOFF,
		.hits_cutoff = JTSC_SPEC_HITS_CUTOFF,
		.hits_perm_cutoff = JTSC_SPEC_HITS_PERM_CUTOFF,
		.collect = jtsc_spec_collect,
	},
	[JTSC_SRC_TIMER] = {
		.name = "timer",
		.credit = JTSC_TIMER_CREDIT,
		.samples_per_word = JTSC_TIMER_SAMPLES_PER_WORD,
		.rct_cutoff = JTSC_TIMER_RCT_CUTOFF,
		.rct_perm_cutoff = JTSC_TIMER_RCT_PERM_CUTOFF,
		.apt_cutoff = JTSC_TIMER_APT_CUTOFF,
		.apt_perm_cutoff = JTSC_TIMER_APT_PERM_CUTOFF,
		.run_cutoff = JTSC_TIMER_RUN_CUTOFF,
		.run_perm_cutoff = JTSC_TIMER_RUN_PERM_CUTOFF,
		.hits_cutoff = JTSC_TIMER_HITS_CUTOFF,
		.hits_perm_cutoff = JTSC_TIMER_HITS_PERM_CUTOFF,
		.collect = jtsc_timer_collect,
	},
};
EXPORT_SYMBOL_IF_KUNIT(jtsc_params);

/* Entropy of one pool word of @src, in 1/256 bit. */
static unsigned int jtsc_word_credit(enum jtsc_source src)
{
	return jtsc_params[src].credit * jtsc_params[src].samples_per_word;
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

#ifdef CONFIG_CRYPTO_JITTER_TSC_DEBUGFS
/*
 * Fault injection for the boot tests, with the debugfs option only: the
 * collectors whose bit is set here see a counter that advances by the same
 * amount on every pass, as one counting instructions would. Whether that
 * is refused is then up to the health tests alone.
 */
static unsigned int stuck;
/* A plausible delta, at the step of AMD's TSC: the value does not matter. */
#define JTSC_STUCK_DELTA	40
module_param(stuck, uint, 0600);
MODULE_PARM_DESC(stuck, "Debug: collectors (1: speculative, 2: timer) given a constant counter delta");

static void jtsc_inject(struct jtsc_rng *rng, enum jtsc_source src)
{
	if (READ_ONCE(stuck) & BIT(src))
		memset(rng->raw, JTSC_STUCK_DELTA, sizeof(rng->raw));
}
#else
static inline void jtsc_inject(struct jtsc_rng *rng, enum jtsc_source src) { }
#endif

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
	int ret = jtsc_params[src].collect(rng->raw, JTSC_BATCH, rng->mem);

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

static void jtsc_capture_boot(struct jtsc_rng *rng, enum jtsc_source src, unsigned int at)
{
#ifdef CONFIG_CRYPTO_JITTER_TSC_DEBUGFS
	if (rng != &jtsc_global || at >= JTSC_STARTUP_SAMPLES)
		return;
	memcpy(jtsc_boot_raw[src] + at, rng->raw,
	       min(JTSC_BATCH, JTSC_STARTUP_SAMPLES - at));
#endif
}

/* The startup test of one collector; NULL if it passed, else why not. */
static const char *jtsc_verify(struct jtsc_rng *rng, enum jtsc_source src)
{
	struct jtsc_health *h = &rng->health[src];
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	unsigned int at, i;

	jtsc_health_init(h, &jtsc_params[src]);
	for (at = 0; !jtsc_health_started(h); at += JTSC_BATCH) {
		if (jtsc_collect_counted(rng, src))
			return "not available on this CPU";
		jtsc_capture_boot(rng, src, at);
		for (i = 0; i < JTSC_BATCH; i++)
			res = max(res, jtsc_health_sample(h, rng->raw[i]));
		if (res != JTSC_HEALTH_OK)
			break;
	}
	memzero_explicit(rng->raw, sizeof(rng->raw));
	return res == JTSC_HEALTH_OK ? NULL : "startup health test failed";
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
 * jtsc_credit() - The entropy of @words pool words of @src, in 1/256 bit
 *
 * The only place where entropy is credited: each word carries the samples
 * it folds at the collector's per-sample credit, which the comments at
 * JTSC_SPEC_CREDIT and JTSC_TIMER_CREDIT justify.
 */
static unsigned int jtsc_credit(enum jtsc_source src, unsigned int words)
{
	return words * jtsc_word_credit(src);
}

static void jtsc_wipe(struct jtsc_rng *rng)
{
	memzero_explicit(rng->pool, sizeof(rng->pool));
	memzero_explicit(&rng->lfsr, sizeof(rng->lfsr));
	rng->tested = 0;
	rng->pending = 0;
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
	jtsc_wipe(rng);
	rng->started = false;
	kvfree(rng->mem);
	rng->mem = NULL;
	WRITE_ONCE(rng->failed, true);
	return -EFAULT;
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
	const char *why;

	jtsc_wipe(rng);
	rng->started = false;
	while ((src = jtsc_first_alive(g)) < JTSC_NR_SOURCES) {
		if (JTSC_SPEC_MEM_SIZE && src == JTSC_SRC_SPEC && !rng->mem) {
			rng->mem = kvzalloc(JTSC_SPEC_MEM_SIZE, GFP_KERNEL);
			if (!rng->mem)
				return -ENOMEM;
		}
		why = jtsc_verify(rng, src);
		if (!why) {
			if (src != JTSC_SRC_SPEC) {
				kvfree(rng->mem);
				rng->mem = NULL;
			}
			set_bit(src, &g->verified);
			rng->active = src;
			rng->started = true;
			return 0;
		}
		if (!test_and_set_bit(src, &g->dead))
			pr_info("%s collector disabled: %s\n", jtsc_params[src].name, why);
	}
	return jtsc_exhausted(rng);
}

/*
 * A health test of @src failed on @rng. An intermittent failure discards
 * what was not handed out, and the startup test runs again. A permanent one
 * kills the collector for the whole group, with one log line saying what
 * happens next: the next collector left takes over on the next request,
 * after its startup test on this instance, or there is none.
 */
static int __cold jtsc_failed(struct jtsc_rng *rng, enum jtsc_source src,
			      enum jtsc_health_result res)
{
	struct jtsc_group *g = rng->group;
	enum jtsc_source next;
	bool first;

	jtsc_wipe(rng);
	if (res == JTSC_HEALTH_INTERMITTENT) {
		rng->stats[src].intermittent++;
		pr_warn_ratelimited("%s collector: intermittent health-test failure, data discarded\n",
				    jtsc_params[src].name);
		return -EAGAIN;
	}
	rng->stats[src].permanent++;
	rng->started = false;
	first = !test_and_set_bit(src, &g->dead);
	next = jtsc_first_alive(g);
	if (next == JTSC_NR_SOURCES) {
		if (first)
			pr_err("%s collector: permanent health-test failure, no collector left: no further output\n",
			       jtsc_params[src].name);
		return jtsc_exhausted(rng);
	}
	if (first)
		pr_err("%s collector: permanent health-test failure, failing over to the %s collector\n",
		       jtsc_params[src].name, jtsc_params[next].name);
	return -EAGAIN;
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
	unsigned int per_word = jtsc_params[src].samples_per_word;
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	u64 lfsr = rng->lfsr;
	unsigned int i, w;

	if (jtsc_collect_counted(rng, src))
		return jtsc_failed(rng, src, JTSC_HEALTH_PERMANENT);

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
		return jtsc_failed(rng, src, res);
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

/* Drop the first @words tested words, which carry @credit. */
static void jtsc_consume(struct jtsc_rng *rng, unsigned int words, unsigned int credit)
{
	unsigned int left = rng->tested - words + rng->pending;

	rng->stats[rng->active].credited += credit;
	memmove(rng->pool, rng->pool + words, left * sizeof(rng->pool[0]));
	memzero_explicit(rng->pool + left, words * sizeof(rng->pool[0]));
	rng->tested -= words;
}

/**
 * jtsc_rng_generate() - Generate full-entropy output
 * @rng: the instance
 * @dst: output buffer
 * @len: bytes to generate
 *
 * Each block of JTSC_BLOCK_SIZE bytes is SHA-256 over the fewest tested pool
 * words that carry at least JTSC_OVERSAMPLE times its size in credited
 * entropy (512 bits from 128 timer words, 520 from 26 speculative ones).
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
	unsigned int done = 0, n, words;
	int ret = 0;

	if (READ_ONCE(rng->failed))
		return -EFAULT;

	while (done < len) {
		/*
		 * A reader may wait here while others of this instance are
		 * served by the timer collector, a block every fraction of a
		 * second: it must stay killable.
		 */
		if (mutex_lock_killable(&rng->lock)) {
			ret = -EINTR;
			break;
		}
		ret = jtsc_ready(rng);
		/* After jtsc_ready(): what a word carries is its collector's. */
		words = DIV_ROUND_UP(JTSC_BLOCK_CREDIT, jtsc_word_credit(rng->active));
		if (!ret)
			ret = jtsc_fill(rng, words);
		if (!ret) {
			sha256((const u8 *)rng->pool, words * sizeof(rng->pool[0]), block);
			jtsc_consume(rng, words, jtsc_credit(rng->active, words));
		}
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
#if IS_BUILTIN(CONFIG_CRYPTO_JITTER_TSC) || IS_ENABLED(CONFIG_KUNIT)
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
	ret = jtsc_ready(rng);
	if (!ret)
		ret = jtsc_fill(rng, words);
	if (!ret) {
		memcpy(buf, rng->pool, len);
		ret = jtsc_credit(rng->active, words);
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
	kvfree(rng->mem);
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

/**
 * jtsc_group_shard() - The shard of a group for the current CPU
 * @g: a group with shards
 *
 * Any shard would be correct, each is locked on its own; the one of the CPU
 * the request starts on keeps readers on different CPUs apart. A reader
 * that then migrates keeps its shard.
 *
 * Context: Any context.
 * Return: the shard.
 */
VISIBLE_IF_KUNIT struct jtsc_rng *jtsc_group_shard(const struct jtsc_group *g)
{
	return g->shards[raw_smp_processor_id() % g->nr_shards];
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_group_shard);

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

static char *collectors = "all";
module_param(collectors, charp, 0400);
MODULE_PARM_DESC(collectors, "Collectors to try: all (default), spec, timer or none");

#if IS_BUILTIN(CONFIG_CRYPTO_JITTER_TSC)
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
 * Context: Process context; sleeps, until the startup tests are done if
 * they are under way.
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

static int jtsc_kcapi_generate(struct crypto_rng *tfm, const u8 *src,
			       unsigned int slen, u8 *dst, unsigned int dlen)
{
	return jtsc_rng_generate(jtsc_group_shard(jtsc_kcapi_group()), dst, dlen);
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
		.cra_module		= THIS_MODULE,
	}
};

#ifdef CONFIG_CRYPTO_JITTER_TSC_DEBUGFS
static struct dentry *jtsc_debugfs;

/*
 * Fresh raw samples, taken for the reader alone: they never enter the
 * pool, and nothing from the pool is ever shown.
 */
static ssize_t jtsc_raw_read(struct file *file, char __user *ubuf, size_t count,
			     loff_t *ppos)
{
	enum jtsc_source src = (uintptr_t)file->private_data;
	struct jtsc_rng *rng = &jtsc_global;
	size_t n = min_t(size_t, count, PAGE_SIZE);
	u8 *buf;
	int ret;

	if (!(jtsc_group.usable & BIT(src)))
		return -ENODEV;
	if (!n)
		return -EINVAL;
	buf = kmalloc(n, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	/* The speculative collector's buffer is the instance's, if it has one. */
	mutex_lock(&rng->lock);
	ret = jtsc_params[src].collect(buf, n, rng->mem);
	mutex_unlock(&rng->lock);
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
	.open = simple_open,
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
	seq_printf(m, "active %s\n", alive < JTSC_NR_SOURCES ? jtsc_params[alive].name : "none");
	seq_printf(m, "failed %d\n", alive == JTSC_NR_SOURCES);
	seq_printf(m, "shards %u\n", g->nr_shards);
	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		const char *name = jtsc_params[src].name;
		bool dead = test_bit(src, &g->dead);

		seq_printf(m, "%s.enabled %d\n", name, (g->usable & BIT(src)) && !dead);
		seq_printf(m, "%s.verified %d\n", name, test_bit(src, &g->verified));
		seq_printf(m, "%s.dead %d\n", name, dead);
		seq_printf(m, "%s.credit_per_sample_256ths %u\n", name, jtsc_params[src].credit);
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

#if IS_BUILTIN(CONFIG_CRYPTO_JITTER_TSC)
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
#if IS_BUILTIN(CONFIG_CRYPTO_JITTER_TSC)
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
 * Verify the collectors, then register: the instance is published last.
 *
 * jitter_tsc is not a FIPS-approved entropy source (testmgr does not mark
 * it fips_allowed, so the crypto API refuses it with fips=1). With
 * fips_enabled it is therefore not set up at all: random.c does not draw
 * on it, and none of its failures can concern, let alone panic, a FIPS
 * kernel.
 */
static int __init jtsc_setup(void)
{
	int ret;

	if (fips_enabled) {
		pr_info("not registering: not FIPS-allowed (fips=1)\n");
		ret = -ENODEV;
		goto out;
	}
	ret = jtsc_group_init(&jtsc_group, jtsc_parse_collectors(),
			      min_t(unsigned int, nr_cpu_ids, JTSC_MAX_SHARDS));
	/* The boot-time startup test, on random.c's instance. */
	if (!ret)
		ret = jtsc_rng_init(&jtsc_global, &jtsc_group);
	if (!ret)
		ret = crypto_register_rng(&jtsc_alg);
	if (ret) {
		jtsc_rng_destroy(&jtsc_global);
		jtsc_group_destroy(&jtsc_group);
		pr_info("not registering: %s\n",
			ret == -ENODEV ? "no usable collector" :
			ret == -ENOMEM ? "out of memory" : "crypto API error");
		goto out;
	}
	jtsc_debugfs_init();
	pr_info("ready, drawing on the %s collector at %u/256 bit per raw sample, %u shards\n",
		jtsc_params[jtsc_global.active].name, jtsc_params[jtsc_global.active].credit,
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
 * Built in, the startup tests (tens of milliseconds under emulation, for
 * the 8 MiB buffer and 2 x 12288 samples) run asynchronously, overlapping
 * the initcalls that follow; the kernel waits for async work before it
 * starts init, so they are done, and random.c seeded from them, before
 * user space runs. As a module, loading waits for them and fails if no
 * collector passed.
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
	jtsc_rng_destroy(&jtsc_global);
	jtsc_group_destroy(&jtsc_group);
}

/*
 * Built in, this runs at subsys_initcall() like the generic algorithms, so
 * that random.c can start drawing on it at subsys_initcall_sync(), before
 * the device initcalls.
 */
subsys_initcall(jtsc_mod_init);
module_exit(jtsc_mod_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("Jitter TSC Developers <jitter-tsc@lists.example.org>");
MODULE_DESCRIPTION("Health-tested CPU timing jitter entropy source");
MODULE_ALIAS_CRYPTO("jitter_tsc");
MODULE_ALIAS_CRYPTO("jitter_tsc-generic");
