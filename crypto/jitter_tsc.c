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
 *   - Parameters: the entropy credit and the health-test cutoffs.
 *   - Health tests: the SP 800-90B Repetition Count and Adaptive Proportion
 *     Tests, as pure functions over raw samples.
 *   - Folding: the LFSR that folds raw samples into pool words.
 *   - Collectors: the speculative TSC collector (x86) and the stack-timer
 *     collector (anything with a cycle counter), and their runtime
 *     verification.
 *   - The pool: tested, folded words, conditioned with BLAKE2s on output.
 *   - Interfaces: the "jitter_tsc" crypto_rng, jitter_tsc_pull() for
 *     random.c, and an optional debugfs directory for measurements.
 *
 * The entropy claim, in one paragraph: every raw sample is credited with a
 * fixed, measured fraction of a bit (jtsc_params[].credit), at most half of
 * the lowest min-entropy that the SP 800-90B non-IID estimators found for
 * that collector on real silicon or under emulation. Raw samples only count
 * once they have passed the health tests for the whole Adaptive Proportion
 * Test window they belong to; a failure discards the window and everything
 * not yet handed out. The crypto_rng output is BLAKE2s over pool words
 * carrying twice as many credited bits as it emits. random.c takes pool
 * words directly and credits them at the same per-sample rate, since its
 * input pool is itself a BLAKE2s conditioner.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/blake2s.h>
#include <crypto/internal/jitter_tsc.h>
#include <crypto/internal/rng.h>
#include <crypto/jitter_tsc.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>
#include <linux/bitrev.h>
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

#ifdef CONFIG_X86_TSC
#include <asm/tsc.h>
#else
/* No speculative collector on this architecture: only the timer one runs. */
static inline int tsc_jitter_collect(u64 *words, unsigned int nwords)
{
	return -ENODEV;
}
#endif

/*********************************************************************
 *
 * Parameters
 *
 * Entropy is counted in 1/64 bit (JTSC_ENTROPY_SHIFT). The per-sample
 * credits below are the only entropy estimates in this driver; every
 * cutoff follows from them by the formulas of SP 800-90B section 4.4,
 * and harness/measure/check-cutoffs.py recomputes each one.
 *
 *********************************************************************/

/* SP 800-90B 4.4.1: C = 1 + ceil(-log2(alpha) / H), with H = credit / 64. */
#define JTSC_RCT_CUTOFF(log2_alpha, credit) \
	(1 + DIV_ROUND_UP((log2_alpha) << JTSC_ENTROPY_SHIFT, (credit)))

enum {
	JTSC_ENTROPY_SHIFT = 6,

	/*
	 * Speculative collector: credit per raw bit. The lowest SP 800-90B
	 * non-IID estimate measured is 0.181 bit of min-entropy per raw bit,
	 * on the host CPU when it was quiet: the LRS estimate, which a few
	 * long repeats in a million bits pull down; most runs give 0.3 to
	 * 0.8, and a QEMU TCG guest at least 0.61 (Documentation/crypto/
	 * jitter_tsc.rst has the figures and the commands). We credit under
	 * half of the lowest: 5/64 = 0.078 bit, 0.31 bit per sum of four.
	 */
	JTSC_SPEC_CREDIT = 5,

	/*
	 * Timer collector: credit per cycle-counter delta. Deltas measured
	 * across schedule() with a timer firing on another CPU carry several
	 * bits of min-entropy; we credit 32/64 = 0.5 bit, which is no more
	 * than half of the lowest estimate.
	 */
	JTSC_TIMER_CREDIT = 32,

	/* Raw samples folded into one pool word: one TSC word of 64 bits... */
	JTSC_SPEC_SAMPLES_PER_WORD = 64,
	/* ...or 32 deltas: 16 credited bits a word, against 5 for TSC words. */
	JTSC_TIMER_SAMPLES_PER_WORD = 32,

	/* SP 800-90B 4.4.2: W = 1024 for binary samples, 512 otherwise. */
	JTSC_SPEC_WINDOW = 1024,
	JTSC_TIMER_WINDOW = 512,

	/*
	 * TSC words taken per call of the speculative collector: one APT
	 * window, so that the call and the timing around it are paid once a
	 * window rather than once a word.
	 */
	JTSC_SPEC_BATCH_WORDS = JTSC_SPEC_WINDOW / JTSC_SPEC_SAMPLES_PER_WORD,
	/* Raw u64 from one call of either collector, at most. */
	JTSC_RAW_MAX = JTSC_TIMER_SAMPLES_PER_WORD,

	/*
	 * SP 800-90B 4.4.1, Repetition Count Test: C = 1 + ceil(-log2(alpha) / H)
	 * with H the credit per sample, alpha = 2^-30 for an intermittent and
	 * 2^-60 for a permanent failure. Exact in integers, as H = credit / 64.
	 */
	JTSC_RCT_ALPHA_LOG2 = 30,
	JTSC_RCT_PERM_ALPHA_LOG2 = 60,
	JTSC_SPEC_RCT_CUTOFF = JTSC_RCT_CUTOFF(JTSC_RCT_ALPHA_LOG2, JTSC_SPEC_CREDIT),
	JTSC_SPEC_RCT_PERM_CUTOFF = JTSC_RCT_CUTOFF(JTSC_RCT_PERM_ALPHA_LOG2, JTSC_SPEC_CREDIT),
	JTSC_TIMER_RCT_CUTOFF = JTSC_RCT_CUTOFF(JTSC_RCT_ALPHA_LOG2, JTSC_TIMER_CREDIT),
	JTSC_TIMER_RCT_PERM_CUTOFF = JTSC_RCT_CUTOFF(JTSC_RCT_PERM_ALPHA_LOG2, JTSC_TIMER_CREDIT),

	/*
	 * SP 800-90B 4.4.2, Adaptive Proportion Test:
	 * C = 1 + CRITBINOM(W, 2^-H, 1 - alpha), the smallest count whose
	 * binomial CDF reaches 1 - alpha. The binomial quantile has no closed
	 * form; these values are computed exactly by
	 * harness/measure/check-cutoffs.py, which make check runs.
	 * Speculative: W = 1024, H = 0.078125, p = 2^-0.078125 = 0.9473.
	 */
	JTSC_SPEC_APT_CUTOFF = 1008,		/* alpha = 2^-30 */
	JTSC_SPEC_APT_PERM_CUTOFF = 1020,	/* alpha = 2^-60 */
	/* Timer: W = 512, H = 0.5, p = 2^-0.5 = 0.7071. */
	JTSC_TIMER_APT_CUTOFF = 422,		/* alpha = 2^-30 */
	JTSC_TIMER_APT_PERM_CUTOFF = 447,	/* alpha = 2^-60 */

	/* SP 800-90B 4.3 (9): the startup test covers 1024 samples. */
	JTSC_STARTUP_SAMPLES = 1024,

	/*
	 * Intermittent failures without a passed startup test in between
	 * before a source is declared dead. Each one has probability 2^-30
	 * for a healthy source, so three in a row mean it is broken.
	 */
	JTSC_MAX_INTERMITTENT = 3,

	/*
	 * Output: one BLAKE2s block, fed twice as much credited entropy as
	 * it emits, so that it is full entropy even if the conditioner were
	 * to lose up to half of its input's entropy.
	 */
	JTSC_BLOCK_SIZE = BLAKE2S_HASH_SIZE,
	JTSC_OVERSAMPLE = 2,
	JTSC_BLOCK_CREDIT = (JTSC_BLOCK_SIZE * 8 * JTSC_OVERSAMPLE) << JTSC_ENTROPY_SHIFT,

	/* Largest request of jitter_tsc_pull(), in words. */
	JTSC_PULL_MAX_WORDS = 32,

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
	/* All deltas multiples of this or more: the counter is coarse. */
	JTSC_VERIFY_MAX_GRANULE = 16,
	/*
	 * Reading it costs more than this: it is trapped by a hypervisor.
	 * RDTSC takes tens of nanoseconds natively and about 50 ns under QEMU
	 * TCG; a trapping VM exit costs a microsecond or more.
	 */
	JTSC_VERIFY_MAX_READ_NS = 1000,
};

const struct jtsc_health_params jtsc_params[JTSC_NR_SOURCES] = {
	[JTSC_SRC_SPEC] = {
		.name = "speculative",
		.credit = JTSC_SPEC_CREDIT,
		.samples_per_word = JTSC_SPEC_SAMPLES_PER_WORD,
		.window = JTSC_SPEC_WINDOW,
		.rct_cutoff = JTSC_SPEC_RCT_CUTOFF,
		.rct_perm_cutoff = JTSC_SPEC_RCT_PERM_CUTOFF,
		.apt_cutoff = JTSC_SPEC_APT_CUTOFF,
		.apt_perm_cutoff = JTSC_SPEC_APT_PERM_CUTOFF,
		.startup_samples = JTSC_STARTUP_SAMPLES,
	},
	[JTSC_SRC_TIMER] = {
		.name = "timer",
		.credit = JTSC_TIMER_CREDIT,
		.samples_per_word = JTSC_TIMER_SAMPLES_PER_WORD,
		.window = JTSC_TIMER_WINDOW,
		.rct_cutoff = JTSC_TIMER_RCT_CUTOFF,
		.rct_perm_cutoff = JTSC_TIMER_RCT_PERM_CUTOFF,
		.apt_cutoff = JTSC_TIMER_APT_CUTOFF,
		.apt_perm_cutoff = JTSC_TIMER_APT_PERM_CUTOFF,
		.startup_samples = JTSC_STARTUP_SAMPLES,
	},
};
EXPORT_SYMBOL_IF_KUNIT(jtsc_params);

/* Entropy of one pool word of @src, in 1/64 bit. */
#define JTSC_WORD_CREDIT(src) \
	((src) == JTSC_SRC_SPEC ? JTSC_SPEC_CREDIT * JTSC_SPEC_SAMPLES_PER_WORD : \
				  JTSC_TIMER_CREDIT * JTSC_TIMER_SAMPLES_PER_WORD)
/* Pool words per output block, and per APT window. */
#define JTSC_BLOCK_WORDS(src) DIV_ROUND_UP(JTSC_BLOCK_CREDIT, JTSC_WORD_CREDIT(src))
#define JTSC_WINDOW_WORDS(src) \
	((src) == JTSC_SRC_SPEC ? JTSC_SPEC_WINDOW / JTSC_SPEC_SAMPLES_PER_WORD : \
				  JTSC_TIMER_WINDOW / JTSC_TIMER_SAMPLES_PER_WORD)

/*
 * The pool must hold a block's worth of released words plus the words of
 * the window still open, and windows must end on word boundaries so that a
 * word is released whole.
 */
static_assert(JTSC_BLOCK_WORDS(JTSC_SRC_SPEC) + JTSC_WINDOW_WORDS(JTSC_SRC_SPEC) <=
	      JTSC_POOL_WORDS);
static_assert(JTSC_BLOCK_WORDS(JTSC_SRC_TIMER) + JTSC_WINDOW_WORDS(JTSC_SRC_TIMER) <=
	      JTSC_POOL_WORDS);
static_assert(JTSC_PULL_MAX_WORDS + JTSC_WINDOW_WORDS(JTSC_SRC_SPEC) <= JTSC_POOL_WORDS);
static_assert(JTSC_PULL_MAX_WORDS + JTSC_WINDOW_WORDS(JTSC_SRC_TIMER) <= JTSC_POOL_WORDS);
static_assert(JTSC_SPEC_WINDOW % JTSC_SPEC_SAMPLES_PER_WORD == 0);
static_assert(JTSC_SPEC_BATCH_WORDS <= JTSC_RAW_MAX);
static_assert(JTSC_TIMER_WINDOW % JTSC_TIMER_SAMPLES_PER_WORD == 0);
static_assert(JTSC_SPEC_APT_PERM_CUTOFF <= JTSC_SPEC_WINDOW);
static_assert(JTSC_TIMER_APT_PERM_CUTOFF <= JTSC_TIMER_WINDOW);

/*********************************************************************
 *
 * Health tests
 *
 * SP 800-90B section 4.4 on raw samples, before folding, always on.
 * These are pure functions of the sample stream, so that the KUnit suite
 * can drive them with scripted streams.
 *
 * An intermittent failure (a cutoff for alpha = 2^-30) does not reset the
 * counts: a run or a window that goes on can still reach the cutoff for
 * alpha = 2^-60 and become a permanent failure. It restarts the startup
 * test, so no output is made until 1024 further samples have passed.
 *
 *********************************************************************/

/**
 * jtsc_health_init() - Start the health tests of one collector
 * @h: health-test state to initialise
 * @params: the collector's parameters
 *
 * The state starts in the startup test: jtsc_health_started() is false
 * until @params->startup_samples samples have passed.
 *
 * Context: Any context.
 */
VISIBLE_IF_KUNIT void jtsc_health_init(struct jtsc_health *h,
				       const struct jtsc_health_params *params)
{
	*h = (struct jtsc_health){
		.params = params,
		.startup_left = params->startup_samples,
	};
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_health_init);

/**
 * jtsc_health_sample() - Run the health tests over one raw sample
 * @h: health-test state
 * @sample: the raw sample (a bit, or a cycle-counter delta)
 *
 * Context: Any context.
 * Return: JTSC_HEALTH_OK, JTSC_HEALTH_INTERMITTENT when a cutoff for
 * alpha = 2^-30 was reached with this sample, or JTSC_HEALTH_PERMANENT when
 * a cutoff for alpha = 2^-60 was reached or the intermittent failures ran
 * out.
 */
VISIBLE_IF_KUNIT enum jtsc_health_result jtsc_health_sample(struct jtsc_health *h,
							    u64 sample)
{
	const struct jtsc_health_params *p = h->params;
	enum jtsc_health_result res = JTSC_HEALTH_OK;

	/* SP 800-90B 4.4.1: count identical consecutive samples. */
	if (h->rct_run && sample == h->rct_value) {
		h->rct_run++;
		if (h->rct_run == p->rct_perm_cutoff)
			res = JTSC_HEALTH_PERMANENT;
		else if (h->rct_run == p->rct_cutoff)
			res = JTSC_HEALTH_INTERMITTENT;
	} else {
		h->rct_value = sample;
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
		if (h->apt_count == p->apt_perm_cutoff)
			res = JTSC_HEALTH_PERMANENT;
		else if (h->apt_count == p->apt_cutoff && res == JTSC_HEALTH_OK)
			res = JTSC_HEALTH_INTERMITTENT;
	}
	if (++h->apt_seen == p->window)
		h->apt_seen = 0;

	if (likely(res == JTSC_HEALTH_OK)) {
		if (unlikely(h->startup_left) && !--h->startup_left)
			h->failures = 0;
		return JTSC_HEALTH_OK;
	}

	h->startup_left = p->startup_samples;
	if (res == JTSC_HEALTH_INTERMITTENT && ++h->failures >= JTSC_MAX_INTERMITTENT)
		res = JTSC_HEALTH_PERMANENT;
	return res;
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_health_sample);

/* Bits i of @x that start a run of at least @len ones in @x. */
static u64 jtsc_runs_at_least(u64 x, unsigned int len)
{
	unsigned int have = 1, step;

	if (len > 64)
		return 0;
	while (x && have < len) {
		step = min(have, len - have);
		x &= x >> step;
		have += step;
	}
	return x;
}

/* Count a crossing of the cutoffs by a count going from @old to @new. */
static void jtsc_crossing(unsigned int old, unsigned int new, unsigned int cutoff,
			  unsigned int perm_cutoff, unsigned int *fails, bool *perm)
{
	if (old < perm_cutoff && new >= perm_cutoff)
		*perm = true;
	else if (old < cutoff && new >= cutoff)
		(*fails)++;
}

/*
 * The same tests over 64 binary samples at once, for a window that starts
 * on a word boundary. Runs and window counts are found with word
 * operations; each cutoff crossed inside the word counts as one failure,
 * as sample by sample. It is stricter in two rare cases only: both tests
 * crossing a cutoff at the same sample count as two failures, and after a
 * failure the startup test restarts at the end of the word rather than at
 * the failing sample.
 */
static enum jtsc_health_result jtsc_health_word(struct jtsc_health *h, u64 w)
{
	const struct jtsc_health_params *p = h->params;
	unsigned int fails = 0, old, n, matches;
	bool perm = false;
	u64 v, x, m;

	/* SP 800-90B 4.4.1: first the run the word continues... */
	v = h->rct_run ? h->rct_value : (w & 1);
	x = v ? ~w : w;
	n = x ? __ffs64(x) : 64;
	old = h->rct_run;
	jtsc_crossing(old, old + n, p->rct_cutoff, p->rct_perm_cutoff, &fails, &perm);
	if (n == 64) {
		h->rct_value = v;
		h->rct_run = old + n;
	} else {
		/* ...then the runs that start inside it, the last one included. */
		x = ~0ULL << n;
		m = jtsc_runs_at_least(w & x, p->rct_cutoff) |
		    jtsc_runs_at_least(~w & x, p->rct_cutoff);
		fails += hweight64(m & ~(m << 1));
		if (jtsc_runs_at_least(w & x, p->rct_perm_cutoff) |
		    jtsc_runs_at_least(~w & x, p->rct_perm_cutoff))
			perm = true;
		h->rct_value = w >> 63;
		x = h->rct_value ? ~w : w;
		h->rct_run = 64 - fls64(x);
	}

	/* SP 800-90B 4.4.2 */
	if (!h->apt_seen) {
		h->apt_value = w & 1;
		h->apt_count = 0;
	}
	matches = hweight64(w);
	if (!h->apt_value)
		matches = 64 - matches;
	old = h->apt_count;
	h->apt_count += matches;
	jtsc_crossing(old, h->apt_count, p->apt_cutoff, p->apt_perm_cutoff, &fails, &perm);
	h->apt_seen = (h->apt_seen + 64) % p->window;

	if (likely(!fails && !perm)) {
		if (unlikely(h->startup_left)) {
			h->startup_left -= min(h->startup_left, 64U);
			if (!h->startup_left)
				h->failures = 0;
		}
		return JTSC_HEALTH_OK;
	}
	h->startup_left = p->startup_samples;
	h->failures += fails;
	if (perm || h->failures >= JTSC_MAX_INTERMITTENT)
		return JTSC_HEALTH_PERMANENT;
	return JTSC_HEALTH_INTERMITTENT;
}

/**
 * jtsc_health_bits() - Run the health tests over binary raw samples
 * @h: health-test state
 * @bits: the samples, one per bit, bit 0 first
 * @nbits: number of samples in @bits, at most 64
 *
 * Every sample is tested, even after a failure, so that the windows stay
 * aligned with the words the samples came in.
 *
 * Context: Any context.
 * Return: the most severe result over the @nbits samples.
 */
VISIBLE_IF_KUNIT enum jtsc_health_result jtsc_health_bits(struct jtsc_health *h,
							  u64 bits, unsigned int nbits)
{
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	unsigned int i;

	if (nbits == 64 && !(h->apt_seen % 64) && !(h->params->window % 64))
		return jtsc_health_word(h, bits);

	for (i = 0; i < nbits; i++)
		res = max(res, jtsc_health_sample(h, (bits >> i) & 1));
	return res;
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_health_bits);

/*********************************************************************
 *
 * Folding
 *
 * A 64-bit Fibonacci LFSR with the primitive polynomial
 * x^64 + x^61 + x^56 + x^31 + x^28 + x^23 + 1, shifting left, so the taps
 * sit at bits 63, 60, 55, 30, 27 and 22. Each step injects one input bit
 * into the feedback, so every bit of every raw word reaches the state.
 * The map from input to state is linear and, for a fixed start state,
 * bijective on 64-bit words: folding neither creates nor destroys entropy,
 * it only spreads it over the word.
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
 * The speculative collector lives in arch/x86/kernel/tsc.c; here it is
 * wrapped so that the KUnit suite can replace it. The stack-timer
 * collector follows try_to_generate_entropy() in drivers/char/random.c.
 * Before either is trusted, the cycle counter is checked and each
 * collector passes the startup test.
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
 * @words: where to store them, 64 raw samples per word
 * @nwords: number of words
 *
 * Context: Any context.
 * Return: 0, or -ENODEV where there is no speculative collector.
 */
VISIBLE_IF_KUNIT int jtsc_spec_collect(u64 *words, unsigned int nwords)
{
	KUNIT_STATIC_STUB_REDIRECT(jtsc_spec_collect, words, nwords);
	return tsc_jitter_collect(words, nwords);
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_spec_collect);

struct jtsc_timer_state {
	struct timer_list timer;
	atomic_t fired;
};

/*
 * The callback does nothing useful on purpose: the entropy is in when, on
 * the other CPU, it runs and pulls the cache line of the collecting task's
 * stack away, which the next cycle-counter delta measures.
 */
static void jtsc_timer_fn(struct timer_list *timer)
{
	struct jtsc_timer_state *state = from_timer(state, timer, timer);

	atomic_inc(&state->fired);
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
 * @deltas: where to store the cycle-counter deltas
 * @ndeltas: number of deltas
 *
 * A timer on this stack is kept armed, on another CPU where there is one,
 * to expire at the next tick, while the loop calls schedule() and reads the
 * cycle counter. Each raw sample is the counter's advance over one pass.
 *
 * Context: Process context; sleeps.
 * Return: 0.
 */
VISIBLE_IF_KUNIT int jtsc_timer_collect(u64 *deltas, unsigned int ndeltas)
{
	u8 stack_bytes[sizeof(struct jtsc_timer_state) + SMP_CACHE_BYTES - 1];
	struct jtsc_timer_state *stack = PTR_ALIGN((void *)stack_bytes, SMP_CACHE_BYTES);
	unsigned int i;
	int cpu = -1;
	u64 last, now;

	KUNIT_STATIC_STUB_REDIRECT(jtsc_timer_collect, deltas, ndeltas);

	atomic_set(&stack->fired, 0);
	timer_setup_on_stack(&stack->timer, jtsc_timer_fn, 0);
	last = jtsc_read_counter();
	for (i = 0; i < ndeltas; i++) {
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
		deltas[i] = now - last;
		last = now;
	}
	timer_shutdown_sync(&stack->timer);
	destroy_timer_on_stack(&stack->timer);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_timer_collect);

/**
 * jtsc_counter_check() - Check that the cycle counter is fit for sampling
 *
 * Reads the counter JTSC_VERIFY_READS times back to back, in batches. A
 * counter that mostly does not move, that only moves in steps of
 * JTSC_VERIFY_MAX_GRANULE or more, or that takes more than
 * JTSC_VERIFY_MAX_READ_NS to read even in the fastest batch (trapped by a
 * hypervisor) is rejected with one log line saying why:
 * both collectors measure with it, so neither can be used.
 *
 * Context: Any context.
 * Return: 0 if the counter is fit, -ENODEV otherwise.
 */
VISIBLE_IF_KUNIT int jtsc_counter_check(void)
{
	u64 start, prev, now, ns, fastest = U64_MAX;
	unsigned int batch, i, stuck = 0;
	unsigned long granule = 0;
	const char *why = NULL;

	KUNIT_STATIC_STUB_REDIRECT(jtsc_counter_check);

	prev = jtsc_read_counter();
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
	else if (granule >= JTSC_VERIFY_MAX_GRANULE)
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

/*
 * Raw samples of @src from one call of its collector: a window's worth of
 * TSC words (each makes one pool word), so that per-call costs are paid
 * once a window, or the JTSC_TIMER_SAMPLES_PER_WORD deltas of one pool
 * word. Returns the number of u64 filled.
 */
static int jtsc_collect_raw(enum jtsc_source src, u64 *raw)
{
	int ret;

	if (src == JTSC_SRC_SPEC) {
		ret = jtsc_spec_collect(raw, JTSC_SPEC_BATCH_WORDS);
		return ret ?: JTSC_SPEC_BATCH_WORDS;
	}
	ret = jtsc_timer_collect(raw, JTSC_TIMER_SAMPLES_PER_WORD);
	return ret ?: JTSC_TIMER_SAMPLES_PER_WORD;
}

/*
 * jtsc_collect_raw() for @rng, counting the samples and, with the debugfs
 * option, the time spent collecting them: `make bench` divides one by the
 * other for the rate that bounds throughput.
 */
static int jtsc_collect_counted(struct jtsc_rng *rng, enum jtsc_source src, u64 *raw)
{
	bool timed = IS_ENABLED(CONFIG_CRYPTO_JITTER_TSC_DEBUGFS);
	u64 t0 = timed ? local_clock() : 0;
	int n = jtsc_collect_raw(src, raw);

	if (n < 0)
		return n;
	rng->stats[src].samples += n * (src == JTSC_SRC_SPEC ? 64 : 1);
	if (timed)
		rng->stats[src].collect_ns += local_clock() - t0;
	return n;
}

/* Health-test @n raw u64 of @src. */
static enum jtsc_health_result jtsc_health_raw(struct jtsc_health *h,
					       enum jtsc_source src,
					       const u64 *raw, unsigned int n)
{
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	unsigned int i;

	/* Test every sample, so that windows end on word boundaries. */
	for (i = 0; i < n; i++) {
		if (src == JTSC_SRC_SPEC)
			res = max(res, jtsc_health_bits(h, raw[i], JTSC_SPEC_SAMPLES_PER_WORD));
		else
			res = max(res, jtsc_health_sample(h, raw[i]));
	}
	return res;
}

#ifdef CONFIG_CRYPTO_JITTER_TSC_DEBUGFS
/* The startup samples of the global instance, kept for debugfs. */
static u64 jtsc_boot_spec[JTSC_STARTUP_SAMPLES / 64];
static u64 jtsc_boot_timer[JTSC_STARTUP_SAMPLES / 4];
#endif

static struct jtsc_rng jtsc_global;

static void jtsc_capture_boot(struct jtsc_rng *rng, enum jtsc_source src,
			      unsigned int at, const u64 *raw, unsigned int n)
{
#ifdef CONFIG_CRYPTO_JITTER_TSC_DEBUGFS
	u64 *dst = src == JTSC_SRC_SPEC ? jtsc_boot_spec : jtsc_boot_timer;
	size_t max = src == JTSC_SRC_SPEC ? ARRAY_SIZE(jtsc_boot_spec) :
					    ARRAY_SIZE(jtsc_boot_timer);

	if (rng != &jtsc_global || at >= max)
		return;
	memcpy(dst + at, raw, min_t(size_t, n, max - at) * sizeof(*raw));
#endif
}

/* The startup test of one collector; NULL if it passed, else why not. */
static const char *jtsc_verify(struct jtsc_rng *rng, enum jtsc_source src)
{
	struct jtsc_health *h = &rng->health[src];
	u64 raw[JTSC_RAW_MAX];
	const char *why = NULL;
	unsigned int at = 0;
	int n;

	jtsc_health_init(h, &jtsc_params[src]);
	while (!jtsc_health_started(h)) {
		n = jtsc_collect_counted(rng, src, raw);
		if (n < 0) {
			why = "not available on this CPU";
			break;
		}
		jtsc_capture_boot(rng, src, at, raw, n);
		at += n;
		if (jtsc_health_raw(h, src, raw, n) != JTSC_HEALTH_OK) {
			why = "startup health test failed";
			break;
		}
	}
	memzero_explicit(raw, sizeof(raw));
	return why;
}

/*********************************************************************
 *
 * The pool
 *
 * Folded words go into the pool as they are made, but count as tested
 * only when the APT window their samples belong to has closed without a
 * failure. Output draws on tested words only. Any failure wipes the whole
 * pool. All of it is under rng->lock, a mutex since the timer collector
 * sleeps; requests are served one block at a time so that many readers
 * take turns.
 *
 *********************************************************************/

static void jtsc_wipe(struct jtsc_rng *rng)
{
	memzero_explicit(rng->pool, sizeof(rng->pool));
	memzero_explicit(&rng->lfsr, sizeof(rng->lfsr));
	rng->tested = 0;
	rng->pending = 0;
}

static int __cold jtsc_failed(struct jtsc_rng *rng, enum jtsc_source src,
			      enum jtsc_health_result res)
{
	jtsc_wipe(rng);
	if (res == JTSC_HEALTH_INTERMITTENT) {
		rng->stats[src].intermittent++;
		pr_warn_ratelimited("%s collector: intermittent health-test failure, data discarded\n",
				    jtsc_params[src].name);
		return -EAGAIN;
	}
	rng->stats[src].permanent++;
	WRITE_ONCE(rng->failed, true);
	pr_err("%s collector: permanent health-test failure, no further output\n",
	       jtsc_params[src].name);
	if (fips_enabled)
		panic("jitter_tsc: permanent health-test failure\n");
	return -EFAULT;
}

/*
 * Make pool words from one collection of raw samples: one from each TSC
 * word, or one from JTSC_TIMER_SAMPLES_PER_WORD deltas. Every sample is
 * tested, even after a failure, so that windows stay aligned with words;
 * no word is added after a failure. Called with rng->lock held.
 */
static int jtsc_add_words(struct jtsc_rng *rng)
{
	enum jtsc_source src = rng->active;
	struct jtsc_health *h = &rng->health[src];
	unsigned int per_word = src == JTSC_SRC_SPEC ? 1 : JTSC_TIMER_SAMPLES_PER_WORD;
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	u64 raw[JTSC_RAW_MAX];
	u64 lfsr = rng->lfsr;
	int i, n, w;

	n = jtsc_collect_counted(rng, src, raw);
	if (n < 0)
		return jtsc_failed(rng, src, JTSC_HEALTH_PERMANENT);

	for (w = 0; w < n; w += per_word) {
		bool started = jtsc_health_started(h);

		res = max(res, jtsc_health_raw(h, src, raw + w, per_word));
		if (res != JTSC_HEALTH_OK || !started)
			continue;
		if (WARN_ON_ONCE(rng->tested + rng->pending >= JTSC_POOL_WORDS)) {
			res = JTSC_HEALTH_PERMANENT;
			continue;
		}
		for (i = w; i < w + per_word; i++)
			lfsr = jtsc_lfsr_fold(lfsr, raw[i], 64);
		rng->pool[rng->tested + rng->pending++] = lfsr;
		if (jtsc_health_window_closed(h)) {
			rng->tested += rng->pending;
			rng->pending = 0;
		}
	}
	rng->lfsr = lfsr;
	memzero_explicit(raw, n * sizeof(raw[0]));
	memzero_explicit(&lfsr, sizeof(lfsr));
	if (res != JTSC_HEALTH_OK)
		return jtsc_failed(rng, src, res);
	return 0;
}

/* Collect until @words tested words are in the pool. */
static int jtsc_fill(struct jtsc_rng *rng, unsigned int words)
{
	int ret;

	lockdep_assert_held(&rng->lock);
	if (rng->failed)
		return -EFAULT;
	while (rng->tested < words) {
		ret = jtsc_add_words(rng);
		if (ret)
			return ret;
	}
	return 0;
}

/* Drop the first @words tested words, crediting them to the stats. */
static void jtsc_consume(struct jtsc_rng *rng, unsigned int words)
{
	unsigned int left = rng->tested - words + rng->pending;

	rng->stats[rng->active].credited +=
		(words * JTSC_WORD_CREDIT(rng->active)) >> JTSC_ENTROPY_SHIFT;
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
 * Each block of JTSC_BLOCK_SIZE bytes is BLAKE2s over tested pool words
 * carrying JTSC_OVERSAMPLE times its size in credited entropy.
 *
 * Context: Process context; sleeps.
 * Return: 0 on success; -EAGAIN after an intermittent health-test failure
 * (the caller may retry); -EFAULT after a permanent one, now and forever.
 * On error no output is left in @dst.
 */
VISIBLE_IF_KUNIT int jtsc_rng_generate(struct jtsc_rng *rng, u8 *dst, unsigned int len)
{
	u8 block[JTSC_BLOCK_SIZE];
	unsigned int done = 0, n, words;
	int ret = 0;

	if (READ_ONCE(rng->failed))
		return -EFAULT;

	while (done < len) {
		mutex_lock(&rng->lock);
		words = JTSC_BLOCK_WORDS(rng->active);
		ret = jtsc_fill(rng, words);
		if (!ret) {
			blake2s(block, (const u8 *)rng->pool, NULL, sizeof(block),
				words * sizeof(rng->pool[0]), 0);
			jtsc_consume(rng, words);
		}
		mutex_unlock(&rng->lock);
		if (ret)
			break;

		n = min_t(unsigned int, len - done, sizeof(block));
		memcpy(dst + done, block, n);
		done += n;
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
 * @len: bytes wanted, a multiple of 8, at most 8 * JTSC_PULL_MAX_WORDS
 *
 * Context: Process context; sleeps.
 * Return: the whole bits of entropy credited to the data stored in @buf,
 * or -EINVAL, -EAGAIN or -EFAULT as for jtsc_rng_generate(), in which case
 * nothing is stored.
 */
VISIBLE_IF_KUNIT int jtsc_rng_pull(struct jtsc_rng *rng, void *buf, size_t len)
{
	unsigned int words = len / sizeof(u64);
	int ret;

	if (!words || len % sizeof(u64) || words > JTSC_PULL_MAX_WORDS)
		return -EINVAL;

	mutex_lock(&rng->lock);
	ret = jtsc_fill(rng, words);
	if (!ret) {
		memcpy(buf, rng->pool, len);
		ret = (words * JTSC_WORD_CREDIT(rng->active)) >> JTSC_ENTROPY_SHIFT;
		jtsc_consume(rng, words);
	}
	mutex_unlock(&rng->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_rng_pull);
#endif

/**
 * jtsc_rng_init() - Verify the collectors and set up an instance
 * @rng: the instance, zeroed
 * @collectors: JTSC_COLLECT_* bits of the collectors to try
 *
 * Checks the cycle counter, then runs the startup test of each collector
 * asked for. A collector that fails is disabled with one log line saying
 * why. Output is drawn from the speculative collector when it passed,
 * since it is two orders of magnitude faster, else from the timer one.
 *
 * Context: Process context; sleeps.
 * Return: 0, or -ENODEV if no collector passed.
 */
VISIBLE_IF_KUNIT int jtsc_rng_init(struct jtsc_rng *rng, unsigned int collectors)
{
	enum jtsc_source src;
	const char *why;

	mutex_init(&rng->lock);
	rng->collectors = 0;
	if (collectors && jtsc_counter_check())
		return -ENODEV;
	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		if (!(collectors & BIT(src)))
			continue;
		why = jtsc_verify(rng, src);
		if (why) {
			pr_info("%s collector disabled: %s\n", jtsc_params[src].name, why);
			continue;
		}
		rng->collectors |= BIT(src);
	}
	if (!rng->collectors)
		return -ENODEV;
	rng->active = rng->collectors & JTSC_COLLECT_SPEC ? JTSC_SRC_SPEC : JTSC_SRC_TIMER;
	return 0;
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
	memzero_explicit(rng, sizeof(*rng));
}
EXPORT_SYMBOL_IF_KUNIT(jtsc_rng_destroy);

/*********************************************************************
 *
 * Interfaces
 *
 * The crypto_rng "jitter_tsc", backed by one global instance that all
 * transforms share; jitter_tsc_pull() for random.c; and, with
 * CONFIG_CRYPTO_JITTER_TSC_DEBUGFS, raw samples and counters in debugfs.
 *
 *********************************************************************/

/* -EAGAIN until jtsc_mod_init() ran, then 0 or why there is no instance. */
static int jtsc_status = -EAGAIN;

static char *collectors = "all";
module_param(collectors, charp, 0400);
MODULE_PARM_DESC(collectors, "Collectors to try: all (default), spec, timer or none");

#if IS_BUILTIN(CONFIG_CRYPTO_JITTER_TSC)
/**
 * jitter_tsc_pull() - Take health-tested jitter and its entropy credit
 * @buf: where to store the data
 * @len: bytes wanted, a multiple of 8, at most 256
 *
 * For drivers/char/random.c before the crng is ready. The data is folded
 * raw samples that passed the health tests; it is not conditioned, which
 * is the input pool's job, and is credited at the per-sample rate.
 *
 * Context: Process context; sleeps.
 * Return: the whole bits of entropy credited to @buf, or -EAGAIN if
 * jitter_tsc is not initialised yet or failed intermittently, -ENODEV if it
 * has no collector, -EFAULT if it failed permanently, -EINVAL for a bad @len.
 */
int jitter_tsc_pull(void *buf, size_t len)
{
	/* Pairs with the release in jtsc_mod_init(): the instance is set up. */
	int status = smp_load_acquire(&jtsc_status);

	return status ?: jtsc_rng_pull(&jtsc_global, buf, len);
}
#endif

static int jtsc_kcapi_generate(struct crypto_rng *tfm, const u8 *src,
			       unsigned int slen, u8 *dst, unsigned int dlen)
{
	return jtsc_rng_generate(&jtsc_global, dst, dlen);
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
	size_t n = min_t(size_t, count, PAGE_SIZE) / sizeof(u64);
	u64 *buf;
	int ret;

	if (!(jtsc_global.collectors & BIT(src)))
		return -ENODEV;
	if (!n)
		return -EINVAL;
	buf = kmalloc_array(n, sizeof(u64), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = src == JTSC_SRC_SPEC ? jtsc_spec_collect(buf, n) : jtsc_timer_collect(buf, n);
	if (!ret && copy_to_user(ubuf, buf, n * sizeof(u64)))
		ret = -EFAULT;
	kfree_sensitive(buf);
	if (ret)
		return ret;
	*ppos += n * sizeof(u64);
	return n * sizeof(u64);
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
	if (file->private_data == jtsc_boot_spec)
		return simple_read_from_buffer(ubuf, count, ppos, jtsc_boot_spec,
					       sizeof(jtsc_boot_spec));
	return simple_read_from_buffer(ubuf, count, ppos, jtsc_boot_timer,
				       sizeof(jtsc_boot_timer));
}

static const struct file_operations jtsc_boot_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = jtsc_boot_read,
	.llseek = default_llseek,
};

static int jtsc_stats_show(struct seq_file *m, void *v)
{
	struct jtsc_rng *rng = &jtsc_global;
	enum jtsc_source src;

	mutex_lock(&rng->lock);
	seq_printf(m, "active %s\n", jtsc_params[rng->active].name);
	seq_printf(m, "failed %d\n", rng->failed);
	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		const char *name = jtsc_params[src].name;

		seq_printf(m, "%s.enabled %d\n", name, !!(rng->collectors & BIT(src)));
		seq_printf(m, "%s.credit_per_sample_64ths %u\n", name, jtsc_params[src].credit);
		seq_printf(m, "%s.samples %llu\n", name, rng->stats[src].samples);
		seq_printf(m, "%s.collect_ns %llu\n", name, rng->stats[src].collect_ns);
		seq_printf(m, "%s.intermittent_failures %llu\n", name,
			   rng->stats[src].intermittent);
		seq_printf(m, "%s.permanent_failures %llu\n", name, rng->stats[src].permanent);
		seq_printf(m, "%s.bits_credited %llu\n", name, rng->stats[src].credited);
	}
	mutex_unlock(&rng->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(jtsc_stats);

static void jtsc_debugfs_init(void)
{
	jtsc_debugfs = debugfs_create_dir("jitter_tsc", NULL);
	debugfs_create_file("spec_raw", 0400, jtsc_debugfs,
			    (void *)(uintptr_t)JTSC_SRC_SPEC, &jtsc_raw_fops);
	debugfs_create_file("timer_raw", 0400, jtsc_debugfs,
			    (void *)(uintptr_t)JTSC_SRC_TIMER, &jtsc_raw_fops);
	debugfs_create_file("boot_spec_raw", 0400, jtsc_debugfs, jtsc_boot_spec,
			    &jtsc_boot_fops);
	debugfs_create_file("boot_timer_raw", 0400, jtsc_debugfs, jtsc_boot_timer,
			    &jtsc_boot_fops);
	debugfs_create_file("stats", 0400, jtsc_debugfs, NULL, &jtsc_stats_fops);
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

static int __init jtsc_mod_init(void)
{
	int ret;

	ret = jtsc_rng_init(&jtsc_global, jtsc_parse_collectors());
	if (!ret)
		ret = crypto_register_rng(&jtsc_alg);
	if (ret) {
		jtsc_rng_destroy(&jtsc_global);
		WRITE_ONCE(jtsc_status, ret);
		pr_info("not registering: %s\n",
			ret == -ENODEV ? "no usable collector" : "crypto API error");
		return ret;
	}
	jtsc_debugfs_init();
	/* Publish the instance to jitter_tsc_pull() only once it is set up. */
	smp_store_release(&jtsc_status, 0);
	pr_info("ready, drawing on the %s collector at %u/64 bit per raw sample\n",
		jtsc_params[jtsc_global.active].name, jtsc_params[jtsc_global.active].credit);
	return 0;
}

static void __exit jtsc_mod_exit(void)
{
	jtsc_debugfs_exit();
	crypto_unregister_rng(&jtsc_alg);
	jtsc_rng_destroy(&jtsc_global);
}

module_init(jtsc_mod_init);
module_exit(jtsc_mod_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("Jitter TSC Developers <jitter-tsc@lists.example.org>");
MODULE_DESCRIPTION("Health-tested CPU timing jitter entropy source");
MODULE_ALIAS_CRYPTO("jitter_tsc");
MODULE_ALIAS_CRYPTO("jitter_tsc-generic");
