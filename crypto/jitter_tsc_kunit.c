// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the jitter_tsc entropy source
 *
 * Copyright (C) 2026 Jitter TSC Developers
 *
 * Linked into jitter_tsc itself, so that it calls the functions of
 * jitter_tsc_internal.h with nothing exported. What decides whether output
 * can be trusted is proven without relying on the jitter of the machine
 * the tests run on: the health tests and the core's state machine are fed
 * scripted streams, every cutoff is checked against its credit, the LFSR
 * against an independent model, and private groups run fake collectors.
 * The registered "jitter_tsc" is read through the crypto API.
 */

#include <kunit/test.h>

#include <crypto/jitter_tsc.h>
#include <crypto/rng.h>
#include <crypto/sha2.h>
#include <linux/bitmap.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/sizes.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <linux/vmalloc.h>
#ifdef CONFIG_X86_64
#include <asm/tsc_jitter.h>
#define JTSC_TEST_BUF_SIZE	TSC_JITTER_MEM_SIZE
#else
#define JTSC_TEST_BUF_SIZE	0
#endif

#include "jitter_tsc_internal.h"

/*
 * Constants of the core and the glue, written out rather than read back,
 * so that a change to one fails the constants case until the suite changes.
 */
#define JTSC_TEST_ENTROPY_SHIFT		8
#define JTSC_TEST_APT_WINDOW		512
#define JTSC_TEST_PRED_WINDOW		4096
#define JTSC_TEST_STARTUP		12288
#define JTSC_TEST_MAX_INTERMITTENT	3
#define JTSC_TEST_GUARD_TIMES		2
#define JTSC_TEST_ALPHA_LOG2		30
#define JTSC_TEST_PERM_ALPHA_LOG2	60
#define JTSC_TEST_PRED_ALPHA_LOG2	(JTSC_TEST_ALPHA_LOG2 + 7)
#define JTSC_TEST_PRED_PERM_ALPHA_LOG2	(JTSC_TEST_PERM_ALPHA_LOG2 + 7)
#define JTSC_TEST_MAX_WORD_CREDIT	(32 << JTSC_TEST_ENTROPY_SHIFT)
#define JTSC_TEST_BLOCK_CREDIT		((SHA256_DIGEST_SIZE * 8 * 2) << JTSC_TEST_ENTROPY_SHIFT)
#define JTSC_TEST_FRESH_CREDIT		((SHA256_DIGEST_SIZE * 8) << JTSC_TEST_ENTROPY_SHIFT)
#define JTSC_TEST_CANARY		0xa5
#define JTSC_TEST_SEED			0x0123456789abcdefULL
#define JTSC_TEST_PERIOD_SEED		0x5eed000000000000ULL
#define JTSC_TEST_FLOOR			(&jtsc_ladder[0])
#define JTSC_TEST_TOP			(&jtsc_ladder[jtsc_ladder_steps - 1])

/*
 * Byte @i of the healthy stream @seed: splitmix64 of the index. Far better
 * than any credit jitter_tsc claims, so every failure it provokes is a
 * false alarm.
 */
static u8 jtsc_test_byte(u64 seed, u64 i)
{
	u64 z = seed + (i + 1) * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31)) >> 56;
}

/* xorshift64*, for the stream builders. */
static u64 jtsc_test_prng(u64 *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/* The two ends of the ladder, which the scripted cases run at. */
static const struct jtsc_health_params *jtsc_test_end(unsigned int top)
{
	return top ? JTSC_TEST_TOP : JTSC_TEST_FLOOR;
}

static const char *jtsc_test_pname(const struct jtsc_health_params *p)
{
	return p == JTSC_TEST_FLOOR ? "floor" : "ceiling";
}

/* ---- Parameters and cutoffs -------------------------------------------- */

/*
 * Binomial cutoffs, 1 + CRITBINOM(W, 2^-H, 1 - alpha), computed in 100-digit
 * arithmetic by an independent model for H = 2 x credit / 256 bit: the
 * APT's at W = 512 and alpha = 2^-30 and 2^-60, the predictor hits' at
 * W = 4096 and alpha = 2^-37 and 2^-67.
 */
struct jtsc_binom_ref {
	unsigned int credit;
	unsigned int window;
	unsigned int log2_alpha;
	unsigned int log2_perm_alpha;
	unsigned int cutoff;
	unsigned int perm_cutoff;
};

static const struct jtsc_binom_ref jtsc_binom_refs[] = {
/* BEGIN apt-cutoffs.py output */
	{ 4, 512, 30, 60, 513, 513 },
	{ 6, 512, 30, 60, 513, 513 },
	{ 8, 512, 30, 60, 513, 513 },
	{ 12, 512, 30, 60, 513, 513 },
	{ 16, 512, 30, 60, 512, 513 },
	{ 24, 512, 30, 60, 508, 513 },
	{ 32, 512, 30, 60, 502, 512 },
	{ 48, 512, 30, 60, 490, 504 },
	{ 64, 512, 30, 60, 477, 494 },
	{ 96, 512, 30, 60, 449, 471 },
	{ 128, 512, 30, 60, 422, 447 },
	{ 192, 512, 30, 60, 371, 399 },
	{ 256, 512, 30, 60, 325, 355 },
	{ 384, 512, 30, 60, 248, 279 },
	{ 4, 4096, 37, 67, 4089, 4097 },
	{ 6, 4096, 37, 67, 4077, 4090 },
	{ 8, 4096, 37, 67, 4064, 4080 },
	{ 12, 4096, 37, 67, 4035, 4056 },
	{ 16, 4096, 37, 67, 4003, 4029 },
	{ 24, 4096, 37, 67, 3937, 3970 },
	{ 32, 4096, 37, 67, 3870, 3909 },
	{ 48, 4096, 37, 67, 3733, 3781 },
	{ 64, 4096, 37, 67, 3598, 3653 },
	{ 96, 4096, 37, 67, 3337, 3401 },
	{ 128, 4096, 37, 67, 3091, 3162 },
	{ 192, 4096, 37, 67, 2647, 2726 },
	{ 256, 4096, 37, 67, 2265, 2346 },
	{ 384, 4096, 37, 67, 1658, 1737 },
/* END apt-cutoffs.py output */
};

static const struct jtsc_binom_ref *jtsc_test_binom(unsigned int credit,
						    unsigned int window,
						    unsigned int log2_alpha)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(jtsc_binom_refs); i++)
		if (jtsc_binom_refs[i].credit == credit &&
		    jtsc_binom_refs[i].window == window &&
		    jtsc_binom_refs[i].log2_alpha == log2_alpha)
			return &jtsc_binom_refs[i];
	return NULL;
}

/* SP 800-90B 4.4.1: 1 + ceil(-log2(alpha) / H), H = credit / 256 bit. */
static unsigned int jtsc_test_run_cutoff(unsigned int log2_alpha,
					 unsigned int credit)
{
	return 1 + DIV_ROUND_UP(log2_alpha << JTSC_TEST_ENTROPY_SHIFT, credit);
}

/*
 * Every cutoff follows from twice the credit, the min-entropy the tests
 * guard: the RCT's and the predictor runs' (one formula, at alpha / 128)
 * in integers, the APT's and the predictor hits' from the table above. A
 * new credit without a table row fails here, naming the script to rerun.
 */
static void jtsc_test_step_cutoffs(struct kunit *test, const struct jtsc_health_params *p)
{
	const struct jtsc_binom_ref *apt, *hits;
	unsigned int h = JTSC_TEST_GUARD_TIMES * p->credit;

	KUNIT_ASSERT_GT(test, p->credit, 0U);
	KUNIT_EXPECT_EQ(test, p->rct_cutoff, jtsc_test_run_cutoff(JTSC_TEST_PRED_ALPHA_LOG2, h));
	KUNIT_EXPECT_EQ(test, p->rct_perm_cutoff,
			jtsc_test_run_cutoff(JTSC_TEST_PRED_PERM_ALPHA_LOG2, h));
	KUNIT_EXPECT_EQ(test, p->run_cutoff, p->rct_cutoff);
	KUNIT_EXPECT_EQ(test, p->run_perm_cutoff, p->rct_perm_cutoff);

	apt = jtsc_test_binom(h, JTSC_TEST_APT_WINDOW, JTSC_TEST_ALPHA_LOG2);
	hits = jtsc_test_binom(h, JTSC_TEST_PRED_WINDOW, JTSC_TEST_PRED_ALPHA_LOG2);
	KUNIT_ASSERT_NOT_NULL_MSG(test, apt,
				  "no APT reference for credit %u/256 bit: add it to harness/kunit/apt-cutoffs.py",
				  p->credit);
	KUNIT_ASSERT_NOT_NULL_MSG(test, hits,
				  "no hits reference for credit %u/256 bit: add it to harness/kunit/apt-cutoffs.py",
				  p->credit);
	KUNIT_EXPECT_EQ(test, apt->log2_perm_alpha, JTSC_TEST_PERM_ALPHA_LOG2);
	KUNIT_EXPECT_EQ(test, p->apt_cutoff, apt->cutoff);
	KUNIT_EXPECT_EQ(test, p->apt_perm_cutoff, apt->perm_cutoff);
	KUNIT_EXPECT_EQ(test, hits->log2_perm_alpha,
			JTSC_TEST_PRED_PERM_ALPHA_LOG2);
	KUNIT_EXPECT_EQ(test, p->hits_cutoff, hits->cutoff);
	KUNIT_EXPECT_EQ(test, p->hits_perm_cutoff, hits->perm_cutoff);

	/*
	 * The permanent cutoff beyond the intermittent one, and reachable,
	 * but for the window counts': at a low credit 1 + W, where they
	 * cannot fail.
	 */
	KUNIT_EXPECT_LT(test, p->rct_cutoff, p->rct_perm_cutoff);
	KUNIT_EXPECT_LE(test, p->apt_cutoff, p->apt_perm_cutoff);
	if (p->apt_perm_cutoff <= JTSC_TEST_APT_WINDOW)
		KUNIT_EXPECT_LT(test, p->apt_cutoff, p->apt_perm_cutoff);
	KUNIT_EXPECT_LE(test, p->apt_perm_cutoff, JTSC_TEST_APT_WINDOW + 1);
	KUNIT_EXPECT_LT(test, p->run_cutoff, p->run_perm_cutoff);
	KUNIT_EXPECT_LE(test, p->run_perm_cutoff, U16_MAX);
	KUNIT_EXPECT_LE(test, p->hits_cutoff, p->hits_perm_cutoff);
	if (p->hits_perm_cutoff <= JTSC_TEST_PRED_WINDOW)
		KUNIT_EXPECT_LT(test, p->hits_cutoff, p->hits_perm_cutoff);
	KUNIT_EXPECT_LE(test, p->hits_perm_cutoff, JTSC_TEST_PRED_WINDOW + 1);
}

/* Every step of the credit ladder. */
static void jtsc_cutoffs_test(struct kunit *test)
{
	unsigned int i;

	KUNIT_EXPECT_EQ(test, jtsc_ladder[0].credit, 2U);
	KUNIT_EXPECT_EQ(test, jtsc_ladder[jtsc_ladder_steps - 1].credit, 192U);
	for (i = 0; i < jtsc_ladder_steps; i++)
		jtsc_test_step_cutoffs(test, &jtsc_ladder[i]);
}

/*
 * Every step: credits ascending, words that carry at most 32 credited bits
 * and tile the windows and batches, runs that fit their counters, and a
 * block or pull, a window of pending words and those held at its end that
 * fit in the pool together.
 */
static void jtsc_params_test(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < jtsc_ladder_steps; i++) {
		const struct jtsc_health_params *p = &jtsc_ladder[i];

		if (i)
			KUNIT_EXPECT_GT(test, p->credit, jtsc_ladder[i - 1].credit);
		KUNIT_EXPECT_LE_MSG(test, p->credit * p->samples_per_word,
				    JTSC_TEST_MAX_WORD_CREDIT, "credit %u", p->credit);
		KUNIT_EXPECT_EQ(test, p->samples_per_word % sizeof(u64), 0U);
		KUNIT_EXPECT_EQ(test, JTSC_TEST_PRED_WINDOW % p->samples_per_word, 0U);
		KUNIT_EXPECT_EQ(test, JTSC_BATCH % p->samples_per_word, 0U);
		/* A run that starts in the startup test's first window ends in it. */
		KUNIT_EXPECT_LE(test, JTSC_TEST_PRED_WINDOW + JTSC_MAX_LAG + p->run_cutoff,
				JTSC_TEST_STARTUP);
		KUNIT_EXPECT_LE_MSG(test,
				    max(DIV_ROUND_UP(JTSC_TEST_BLOCK_CREDIT,
						     p->credit * p->samples_per_word),
					JITTER_TSC_PULL_MAX / 8) +
				    JTSC_TEST_PRED_WINDOW / p->samples_per_word +
				    DIV_ROUND_UP(p->run_perm_cutoff + JTSC_MAX_LAG,
						 p->samples_per_word),
				    JTSC_POOL_WORDS, "credit %u", p->credit);
	}
}

/* ---- Health tests ------------------------------------------------------- */

static struct jtsc_health *jtsc_test_health(struct kunit *test,
					    const struct jtsc_health_params *p)
{
	struct jtsc_health *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, h);
	jtsc_health_init(h, p);
	return h;
}

/*
 * A healthy stream never fails, and the APT and predictor windows close
 * where they should: 8192 fixed-seed bytes at each end of the ladder.
 */
static void jtsc_health_healthy_test(struct kunit *test)
{
	unsigned int top, n, closed;

	for (top = 0; top < 2; top++) {
		const struct jtsc_health_params *p = jtsc_test_end(top);
		struct jtsc_health *h = jtsc_test_health(test, p);

		for (n = 1, closed = 0; n <= 2 * JTSC_TEST_PRED_WINDOW; n++) {
			u8 b = jtsc_test_byte(JTSC_TEST_SEED, n);

			KUNIT_ASSERT_EQ_MSG(test, jtsc_health_sample(h, b), JTSC_HEALTH_OK,
					    "%s, sample %u", jtsc_test_pname(p), n);
			KUNIT_EXPECT_EQ(test, h->apt_seen, n % JTSC_TEST_APT_WINDOW);
			closed += !h->pred_seen;
		}
		KUNIT_EXPECT_EQ(test, closed, 2U);
	}
}

/*
 * The Repetition Count Test (4.4.1) at each end of the ladder: a run of one
 * value after healthy samples fails first at exactly rct_cutoff samples,
 * intermittently, and permanently at exactly rct_perm_cutoff, the counts
 * going on through the intermittent failure.
 */
static void jtsc_health_rct_test(struct kunit *test)
{
	unsigned int top, n, first, perm;

	for (top = 0; top < 2; top++) {
		const struct jtsc_health_params *p = jtsc_test_end(top);
		struct jtsc_health *h = jtsc_test_health(test, p);
		enum jtsc_health_result res;

		for (n = 0; n < 1000; n++)
			jtsc_health_sample(h, jtsc_test_byte(JTSC_TEST_SEED, n) | 1);
		first = 0;
		perm = 0;
		for (n = 1; n <= p->rct_perm_cutoff && !perm; n++) {
			res = jtsc_health_sample(h, 0);
			if (res != JTSC_HEALTH_OK && !first)
				first = n;
			if (res == JTSC_HEALTH_PERMANENT)
				perm = n;
		}
		KUNIT_EXPECT_EQ_MSG(test, first, p->rct_cutoff, "%s", jtsc_test_pname(p));
		KUNIT_EXPECT_EQ_MSG(test, perm, p->rct_perm_cutoff, "%s", jtsc_test_pname(p));
	}
}

/*
 * The Adaptive Proportion Test (4.4.2) at every step where it can fail
 * alone: in an APT window the first value recurs in runs one shorter than
 * the RCT allows, each followed by one healthy byte of another value; the
 * window fails at exactly the apt_cutoff-th occurrence, and permanently at
 * the apt_perm_cutoff-th where the window holds that many.
 */
static void jtsc_health_apt_test(struct kunit *test)
{
	unsigned int i, n, r, count, first, perm, tested = 0;

	for (i = 0; i < jtsc_ladder_steps; i++) {
		const struct jtsc_health_params *p = &jtsc_ladder[i];
		struct jtsc_health *h;
		enum jtsc_health_result res;

		r = min(p->rct_cutoff - 2, JTSC_TEST_APT_WINDOW);
		if (p->apt_cutoff > JTSC_TEST_APT_WINDOW - JTSC_TEST_APT_WINDOW / (r + 1))
			continue;
		h = jtsc_test_health(test, p);
		first = 0;
		perm = 0;
		for (n = 0, count = 0; n < JTSC_TEST_APT_WINDOW; n++) {
			u8 s = n % (r + 1) == r ? jtsc_test_byte(JTSC_TEST_SEED, n) | 1 : 0;

			count += !s;
			res = jtsc_health_sample(h, s);
			if (res != JTSC_HEALTH_OK && !first)
				first = count;
			if (res == JTSC_HEALTH_PERMANENT && !perm)
				perm = count;
		}
		KUNIT_EXPECT_EQ_MSG(test, first, p->apt_cutoff, "credit %u", p->credit);
		if (p->apt_perm_cutoff <= count)
			KUNIT_EXPECT_EQ_MSG(test, perm, p->apt_perm_cutoff, "credit %u", p->credit);
		tested++;
	}
	KUNIT_EXPECT_GE(test, tested, 5U);
}

/*
 * The guard: at 16/256 and at the ceiling, a source of H = credit fails
 * within the startup test's 12288 samples, one of twice the credit, where
 * the tests are sized, passes 10^6. Two sources: one value with probability
 * 2^-H (else one of the 255 others), and the last value plus 37 with it.
 */
static void jtsc_health_guard_test(struct kunit *test)
{
	/* 2^-H in 1/2^32 for H = 16, 32, 192 and 384 / 256 bit */
	static const u32 q[2][2] = { { 4112874773U, 3938502376U }, { 2553802834U, 1518500250U } };
	unsigned int top, guard, step, n;
	u64 r = JTSC_TEST_SEED, x;
	u8 s = 0;

	KUNIT_ASSERT_EQ(test, jtsc_ladder[6].credit, 16U);
	for (top = 0; top < 2; top++) {
		for (guard = 0; guard < 4; guard++) {
			struct jtsc_health *h = jtsc_test_health(test, top ? JTSC_TEST_TOP :
								  &jtsc_ladder[6]);
			unsigned int budget = guard & 1 ? 1000000 : JTSC_TEST_STARTUP;
			u8 want;

			step = guard >> 1;
			for (n = 1; n <= budget; n++) {
				x = jtsc_test_prng(&r);
				want = step ? s + 37 : 0x5a;
				s = (x >> 32) < q[top][guard & 1] ? want :
				    want + 1 + ((u32)x * 255ULL >> 32);
				if (jtsc_health_sample(h, s))
					break;
			}
			KUNIT_EXPECT_EQ_MSG(test, n > budget, guard & 1,
					    "credit %u, %s, H = %u x credit", h->params->credit,
					    step ? "stepping" : "i.i.d.", (guard & 1) + 1);
		}
	}
}

/* The Rowhammer floor: a chunk faster than 62.5 ns a pass waits out the rest */
static void jtsc_floor_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, jtsc_floor_wait(0, 128), 8000ULL);
	KUNIT_EXPECT_EQ(test, jtsc_floor_wait(100, 128), 7900ULL);
	KUNIT_EXPECT_EQ(test, jtsc_floor_wait(7999, 128), 1ULL);
	KUNIT_EXPECT_EQ(test, jtsc_floor_wait(8000, 128), 0ULL);
	KUNIT_EXPECT_EQ(test, jtsc_floor_wait(30000, 128), 0ULL);
	KUNIT_EXPECT_EQ(test, jtsc_floor_wait(0, 1), 62ULL);
}

/*
 * After a permanent failure the tests start again from jtsc_health_init();
 * runs still going when a window closes are held (jtsc_health_hold()).
 */
static void jtsc_health_hold_test(struct kunit *test)
{
	struct jtsc_health *h = jtsc_test_health(test, JTSC_TEST_FLOOR);
	unsigned int n;

	for (n = 0; n < 100; n++)
		jtsc_health_sample(h, jtsc_test_byte(JTSC_TEST_SEED, n) | 1);
	KUNIT_EXPECT_LT(test, jtsc_health_hold(h), 8U);
	for (n = 0; n < 300; n++)
		jtsc_health_sample(h, 0);
	KUNIT_EXPECT_GE(test, jtsc_health_hold(h), 300U);
	jtsc_health_sample(h, 1);
	KUNIT_EXPECT_LT(test, jtsc_health_hold(h), 300U);
}

/* ---- Deterministic delta streams ---------------------------------------- */

/*
 * What a cycle counter makes of the collectors' deltas when it has no
 * jitter left. Sample j of each stream is jtsc_det_sample(j).
 */
enum jtsc_det_kind {
	JTSC_DET_CONST,		/* the counter steps by @a each pass */
	JTSC_DET_RAMP,		/* the step starts at @a and grows by @b */
	JTSC_DET_PERIOD,	/* @period fixed-seed deltas, over and over */
	JTSC_DET_ALT,		/* @a, @b, @a, @b, ... */
	JTSC_DET_CUBIC,		/* the step is @a + @b j^2: a cubic counter */
	JTSC_DET_QUARTIC,	/* the step is @a + @b j^3: a quartic counter */
	JTSC_DET_QUINTIC,	/* the step is @a + @b j^4: a quintic counter */
};

struct jtsc_det_case {
	enum jtsc_det_kind kind;
	u8 a;
	u8 b;
	unsigned int period;
	const char *desc;
};

static const struct jtsc_det_case jtsc_det_cases[] = {
	{ JTSC_DET_CONST, 0, 0, 0, "counter stands still: delta 0" },
	{ JTSC_DET_CONST, 1, 0, 0, "counter +1 each pass" },
	{ JTSC_DET_CONST, 2, 0, 0, "counter +2 each pass" },
	{ JTSC_DET_CONST, 16, 0, 0, "counter +16 each pass" },
	{ JTSC_DET_CONST, 255, 0, 0, "counter +255 each pass" },
	{ JTSC_DET_RAMP, 1, 1, 0, "increments +1, +2, +3, ..." },
	{ JTSC_DET_RAMP, 5, 3, 0, "increments +5, +8, +11, ..." },
	{ JTSC_DET_RAMP, 90, 255, 0, "increments +90, +89, +88, ..." },
	{ JTSC_DET_PERIOD, 0, 0, 2, "period 2" },
	{ JTSC_DET_PERIOD, 0, 0, 3, "period 3" },
	{ JTSC_DET_PERIOD, 0, 0, 7, "period 7" },
	{ JTSC_DET_PERIOD, 0, 0, 31, "period 31" },
	{ JTSC_DET_PERIOD, 0, 0, 32, "period 32" },
	{ JTSC_DET_PERIOD, 0, 0, 33, "period 33" },
	{ JTSC_DET_PERIOD, 0, 0, 63, "period 63" },
	{ JTSC_DET_PERIOD, 0, 0, 64, "period 64" },
	{ JTSC_DET_CUBIC, 40, 1, 0, "cubic counter: steps 40 + j^2" },
	{ JTSC_DET_CUBIC, 93, 3, 0, "cubic counter: steps 93 + 3 j^2" },
	{ JTSC_DET_QUARTIC, 40, 1, 0, "quartic counter: steps 40 + j^3" },
	{ JTSC_DET_QUARTIC, 7, 5, 0, "quartic counter: steps 7 + 5 j^3" },
	{ JTSC_DET_QUINTIC, 11, 1, 0, "quintic counter: steps 11 + j^4" },
	{ JTSC_DET_ALT, 5, 9, 0, "alternating 5, 9" },
	{ JTSC_DET_ALT, 0, 128, 0, "alternating 0, 128" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_det, jtsc_det_cases, desc);

static u8 jtsc_det_sample(const struct jtsc_det_case *d, u64 j)
{
	u32 phase;

	switch (d->kind) {
	case JTSC_DET_CONST:
		return d->a;
	case JTSC_DET_RAMP:
		return d->a + d->b * (u8)j;
	case JTSC_DET_CUBIC:
		return d->a + d->b * (u8)j * (u8)j;
	case JTSC_DET_QUARTIC:
		return d->a + d->b * (u8)j * (u8)j * (u8)j;
	case JTSC_DET_QUINTIC:
		return d->a + d->b * (u8)j * (u8)j * (u8)j * (u8)j;
	case JTSC_DET_PERIOD:
		/* j is a u64: no 64-bit % on 32-bit kernels */
		div_u64_rem(j, d->period, &phase);
		return jtsc_test_byte(JTSC_TEST_PERIOD_SEED + d->period, phase);
	default:
		return j & 1 ? d->b : d->a;
	}
}

/*
 * Samples of @d before its pattern is whole: from then on some predictor
 * hits every sample (lag 1 for a constant, the stuck one for a ramp, the
 * second, third or fourth difference for a cubic, quartic or quintic
 * counter, lag period for a periodic stream).
 */
static unsigned int jtsc_det_lead(const struct jtsc_det_case *d)
{
	switch (d->kind) {
	case JTSC_DET_CONST:
		return 1;
	case JTSC_DET_CUBIC:
		return 3;
	case JTSC_DET_QUARTIC:
		return 4;
	case JTSC_DET_QUINTIC:
		return 5;
	case JTSC_DET_PERIOD:
		return d->period;
	default:
		return 2;
	}
}

/*
 * Each stream fails the health tests after a healthy start, wherever it
 * starts: intermittently once some predictor has hit run_cutoff samples in
 * a row, permanently by run_perm_cutoff.
 */
static void jtsc_det_health_test(struct kunit *test)
{
	const struct jtsc_det_case *d = test->param_value;
	unsigned int lead = jtsc_det_lead(d), top;

	for (top = 0; top < 2; top++) {
		const struct jtsc_health_params *p = jtsc_test_end(top);
		struct jtsc_health *h = jtsc_test_health(test, p);
		unsigned int j, first = UINT_MAX, perm = UINT_MAX;
		enum jtsc_health_result res;

		for (j = 0; j < JTSC_TEST_STARTUP + 1000; j++)
			KUNIT_ASSERT_EQ(test, JTSC_HEALTH_OK,
					jtsc_health_sample(h, jtsc_test_byte(JTSC_TEST_SEED, j)));
		for (j = 0; j < lead + p->run_perm_cutoff; j++) {
			res = jtsc_health_sample(h, jtsc_det_sample(d, j));
			if (res != JTSC_HEALTH_OK && first == UINT_MAX)
				first = j;
			if (res == JTSC_HEALTH_PERMANENT) {
				perm = j;
				break;
			}
		}
		KUNIT_EXPECT_LE_MSG(test, first, lead + p->run_cutoff - 1,
				    "%s: no failure", jtsc_test_pname(p));
		KUNIT_EXPECT_LE_MSG(test, perm, lead + p->run_perm_cutoff - 1,
				    "%s: no permanent failure", jtsc_test_pname(p));
	}
}

/* ---- The core: a collector's life --------------------------------------- */

/* @n samples of @d from sample @from on, after @lead healthy ones. */
static void jtsc_test_stream(u8 *s, unsigned int n, const struct jtsc_det_case *d,
			     u64 from, unsigned int lead)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		s[i] = d && from + i >= lead ? jtsc_det_sample(d, from + i - lead) :
		       jtsc_test_byte(JTSC_TEST_SEED, from + i);
}

static struct jtsc_core *jtsc_test_core(struct kunit *test)
{
	struct jtsc_core *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	return c;
}

/*
 * A deterministic counter is refused by the startup test, at each end of
 * the ladder and wherever in the startup window it begins, and a refusal
 * retires nothing: the collector backs off, 1, 2, 4 .. 64 units, is not
 * picked meanwhile, and is tried again after.
 */
static void jtsc_det_startup_test(struct kunit *test)
{
	const struct jtsc_det_case *d = test->param_value;
	static const unsigned int leads[] = { 0, 100, JTSC_TEST_PRED_WINDOW - 1 };
	u8 *s = kunit_kmalloc(test, JTSC_TEST_STARTUP, GFP_KERNEL);
	struct jtsc_core *c = jtsc_test_core(test);
	unsigned int top, l, backoff = 0;
	enum jtsc_phase ph;
	unsigned long now = 1000;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	for (top = 0; top < 2; top++) {
		for (l = 0; l < ARRAY_SIZE(leads); l++) {
			jtsc_test_stream(s, JTSC_TEST_STARTUP, d, 0, leads[l]);
			ph = jtsc_core_startup(c, JTSC_SRC_TIMER, top ? jtsc_ladder_steps - 1 : 0,
					       s, now, 1);
			backoff = min(backoff ? 2 * backoff : 1, (unsigned int)JTSC_BACKOFF_MAX);
			KUNIT_EXPECT_EQ_MSG(test, ph, JTSC_REFUSED, "%s, from sample %u",
					    jtsc_test_pname(jtsc_test_end(top)), leads[l]);
			KUNIT_EXPECT_EQ(test, c->life[JTSC_SRC_TIMER].backoff, backoff);
			KUNIT_EXPECT_EQ(test, jtsc_core_pick(c, BIT(JTSC_SRC_TIMER), now), -EAGAIN);
			KUNIT_EXPECT_EQ(test, jtsc_core_pick(c, BIT(JTSC_SRC_TIMER), now + backoff),
					JTSC_SRC_TIMER);
			KUNIT_EXPECT_EQ(test, c->tested + c->pending, 0U);
		}
	}
}

/*
 * A healthy start, then a deterministic counter from sample @at of the
 * output on: the collector fails before any word that holds one of its
 * samples is released, and the pool is emptied.
 */
static void jtsc_det_operation_test(struct kunit *test)
{
	const struct jtsc_det_case *d = test->param_value;
	static const unsigned int ats[] = { 0, 1, 777, JTSC_TEST_PRED_WINDOW - 64,
					    JTSC_TEST_PRED_WINDOW - 1, JTSC_TEST_PRED_WINDOW + 5 };
	u8 *s = kunit_kmalloc(test, JTSC_TEST_STARTUP, GFP_KERNEL);
	u8 *raw = kunit_kmalloc(test, JTSC_BATCH, GFP_KERNEL);
	struct jtsc_core *c = jtsc_test_core(test);
	unsigned int top, a, batch, released;
	enum jtsc_phase ph;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, raw);
	for (top = 0; top < 2; top++) {
		const struct jtsc_health_params *p = jtsc_test_end(top);

		for (a = 0; a < ARRAY_SIZE(ats); a++) {
			memset(c, 0, sizeof(*c));
			jtsc_test_stream(s, JTSC_TEST_STARTUP, NULL, 0, 0);
			ph = jtsc_core_startup(c, JTSC_SRC_SPEC, p - jtsc_ladder, s, 0, 1);
			KUNIT_ASSERT_EQ(test, ph, JTSC_RUNNING);
			released = 0;
			for (batch = 0; ph == JTSC_RUNNING && batch < 64; batch++) {
				jtsc_test_stream(raw, JTSC_BATCH, d, (u64)batch * JTSC_BATCH,
						 ats[a]);
				ph = jtsc_core_feed(c, raw);
				if (ph != JTSC_RUNNING)
					break;
				/* hand out what was released, as a reader would */
				released += c->tested;
				jtsc_core_take(c, c->tested);
				KUNIT_EXPECT_LE_MSG(test, released * p->samples_per_word, ats[a],
						    "%s, from sample %u: a word of it released",
						    jtsc_test_pname(p), ats[a]);
			}
			KUNIT_EXPECT_NE_MSG(test, ph, JTSC_RUNNING, "%s, from sample %u",
					    jtsc_test_pname(p), ats[a]);
			KUNIT_EXPECT_EQ(test, c->tested + c->pending, 0U);
		}
	}
}

/*
 * A window that fails late, in its last batch, by its APT count and with
 * no run going, gives out none of its words: they are released only once
 * the whole window has passed.
 */
static void jtsc_core_window_test(struct kunit *test)
{
	u8 *s = kunit_kmalloc(test, JTSC_TEST_STARTUP, GFP_KERNEL);
	u8 *raw = kunit_kmalloc(test, JTSC_BATCH, GFP_KERNEL);
	struct jtsc_core *c = jtsc_test_core(test);
	const struct jtsc_health_params *p = JTSC_TEST_TOP;
	unsigned int b, i, released = 0;
	enum jtsc_phase ph = JTSC_RUNNING;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, raw);
	jtsc_test_stream(s, JTSC_TEST_STARTUP, NULL, 0, 0);
	KUNIT_ASSERT_EQ(test, jtsc_core_startup(c, JTSC_SRC_SPEC, p - jtsc_ladder, s, 0, 1),
			JTSC_RUNNING);
	for (b = 0; ph == JTSC_RUNNING && b < 2 * JTSC_TEST_PRED_WINDOW / JTSC_BATCH; b++) {
		jtsc_test_stream(raw, JTSC_BATCH, NULL, JTSC_TEST_STARTUP + b * JTSC_BATCH, 0);
		/* The second window's last batch: 0 in four samples of five. */
		for (i = 0; b == 2 * JTSC_TEST_PRED_WINDOW / JTSC_BATCH - 1 && i < JTSC_BATCH; i++)
			raw[i] = i % 5 == 4 ? raw[i] | 1 : 0;
		ph = jtsc_core_feed(c, raw);
		released += c->tested;
		jtsc_core_take(c, c->tested);
	}
	KUNIT_EXPECT_NE(test, ph, JTSC_RUNNING);
	KUNIT_EXPECT_LE(test, released * p->samples_per_word, JTSC_TEST_PRED_WINDOW);
	KUNIT_EXPECT_GT(test, released, 0U);
}

/*
 * An intermittent failure needs a new startup test, a ladder step lower,
 * before any output, and JTSC_TEST_MAX_INTERMITTENT of them with no window
 * released in between retire the collector; a window released in between
 * resets the count. A permanent cutoff retires it at once. Death holds on
 * the instance, and the next collector is picked; a park keeps it dead, a
 * new machine (new estimates) tries it again and forgets the steps lost.
 */
static void jtsc_core_failures_test(struct kunit *test)
{
	u8 *s = kunit_kmalloc(test, JTSC_TEST_STARTUP, GFP_KERNEL);
	u8 *raw = kunit_kmalloc(test, JTSC_BATCH, GFP_KERNEL);
	struct jtsc_core *c = jtsc_test_core(test);
	unsigned int i, k, released;
	enum jtsc_phase ph = JTSC_RUNNING;
	u64 at = 0;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, raw);
	jtsc_test_stream(s, JTSC_TEST_STARTUP, NULL, at, 0);
	KUNIT_ASSERT_EQ(test, jtsc_core_startup(c, JTSC_SRC_SPEC, 3, s, 0, 1), JTSC_RUNNING);
	for (i = 0; i < JTSC_TEST_MAX_INTERMITTENT; i++) {
		/* A run of zeros to the floor's intermittent RCT cutoff. */
		memset(raw, 0, JTSC_BATCH);
		do
			ph = jtsc_core_feed(c, raw);
		while (ph == JTSC_RUNNING);
		KUNIT_ASSERT_EQ_MSG(test, ph, JTSC_RESTART, "failure %u", i + 1);
		KUNIT_EXPECT_EQ(test, c->tested + c->pending, 0U);
		KUNIT_EXPECT_EQ(test, jtsc_core_pick(c, JTSC_COLLECT_ALL, 0), JTSC_SRC_SPEC);
		jtsc_test_stream(s, JTSC_TEST_STARTUP, NULL, at += JTSC_TEST_STARTUP, 0);
		ph = jtsc_core_startup(c, JTSC_SRC_SPEC, 3, s, 0, 1);
		KUNIT_ASSERT_EQ(test, ph, JTSC_RUNNING);
		KUNIT_EXPECT_PTR_EQ(test, c->life[JTSC_SRC_SPEC].health.params,
				    &jtsc_ladder[2 - i]);
		/* In the first round, a window released between failures. */
		if (i)
			continue;
		for (k = 0, released = 0; k < 16 && !released; k++) {
			jtsc_test_stream(raw, JTSC_BATCH, NULL, at += JTSC_BATCH, 0);
			KUNIT_ASSERT_EQ(test, jtsc_core_feed(c, raw), JTSC_RUNNING);
			released = c->tested;
		}
		KUNIT_EXPECT_GT(test, released, 0U);
	}
	KUNIT_EXPECT_EQ(test, c->life[JTSC_SRC_SPEC].failures, 2U);
	memset(raw, 0, JTSC_BATCH);
	do
		ph = jtsc_core_feed(c, raw);
	while (ph == JTSC_RUNNING);
	KUNIT_EXPECT_EQ(test, ph, JTSC_DEAD);
	KUNIT_EXPECT_EQ(test, jtsc_core_pick(c, JTSC_COLLECT_ALL, 0), JTSC_SRC_TIMER);
	KUNIT_EXPECT_EQ(test, jtsc_core_pick(c, BIT(JTSC_SRC_SPEC), 0), -ENODEV);
	jtsc_core_park(c, false);
	KUNIT_EXPECT_EQ(test, c->life[JTSC_SRC_SPEC].phase, JTSC_DEAD);
	/* A new machine makes a new estimate: the collector is tried again. */
	jtsc_core_park(c, true);
	KUNIT_EXPECT_EQ(test, c->life[JTSC_SRC_SPEC].phase, JTSC_IDLE);
	KUNIT_EXPECT_EQ(test, c->life[JTSC_SRC_SPEC].demoted, 0U);
	KUNIT_EXPECT_EQ(test, jtsc_core_pick(c, JTSC_COLLECT_ALL, 0), JTSC_SRC_SPEC);

	/* The permanent RCT cutoff at the ceiling, in one batch. */
	jtsc_test_stream(s, JTSC_TEST_STARTUP, NULL, at += JTSC_TEST_STARTUP, 0);
	KUNIT_ASSERT_EQ(test, jtsc_core_startup(c, JTSC_SRC_TIMER, jtsc_ladder_steps - 1,
						s, 0, 1), JTSC_RUNNING);
	memset(raw, 7, JTSC_BATCH);
	KUNIT_EXPECT_EQ(test, jtsc_core_feed(c, raw), JTSC_DEAD);
	KUNIT_EXPECT_EQ(test, jtsc_core_pick(c, BIT(JTSC_SRC_TIMER), 0), -ENODEV);
}

/*
 * A refusal backs off, doubling to JTSC_BACKOFF_MAX; a new machine (a
 * park after a VM fork) forgets it, a plain park does not. A step of -1
 * (an estimate below the floor) is a refusal too.
 */
static void jtsc_core_backoff_test(struct kunit *test)
{
	u8 *s = kunit_kmalloc(test, JTSC_TEST_STARTUP, GFP_KERNEL);
	struct jtsc_core *c = jtsc_test_core(test);
	unsigned int i, want = 1;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	jtsc_test_stream(s, JTSC_TEST_STARTUP, NULL, 0, 0);
	for (i = 0; i < 9; i++) {
		KUNIT_EXPECT_EQ(test, jtsc_core_startup(c, JTSC_SRC_SPEC, -1, s, 500, 10),
				JTSC_REFUSED);
		KUNIT_EXPECT_EQ(test, c->life[JTSC_SRC_SPEC].backoff, want);
		KUNIT_EXPECT_EQ(test, c->life[JTSC_SRC_SPEC].retry_at, 500 + 10 * want);
		want = min(2 * want, (unsigned int)JTSC_BACKOFF_MAX);
	}
	KUNIT_EXPECT_EQ(test, jtsc_core_pick(c, JTSC_COLLECT_ALL, 500), JTSC_SRC_TIMER);
	jtsc_core_park(c, false);
	KUNIT_EXPECT_EQ(test, c->life[JTSC_SRC_SPEC].phase, JTSC_REFUSED);
	jtsc_core_park(c, true);
	KUNIT_EXPECT_EQ(test, c->life[JTSC_SRC_SPEC].phase, JTSC_IDLE);
	KUNIT_EXPECT_EQ(test, jtsc_core_pick(c, JTSC_COLLECT_ALL, 500), JTSC_SRC_SPEC);
	KUNIT_EXPECT_EQ(test, jtsc_core_startup(c, JTSC_SRC_SPEC, 0, s, 500, 10), JTSC_RUNNING);
	KUNIT_EXPECT_EQ(test, c->life[JTSC_SRC_SPEC].backoff, 0U);
}

/*
 * Words are released a predictor window at a time, less those a run still
 * going reaches into and the last JTSC_MAX_LAG samples; each carries its
 * samples at the step's credit, which jtsc_core_take() alone counts; a
 * request's first block takes at least JTSC_FRESH_CREDIT from words made
 * after it began.
 */
static void jtsc_core_words_test(struct kunit *test)
{
	u8 *s = kunit_kmalloc(test, JTSC_TEST_STARTUP, GFP_KERNEL);
	u8 *raw = kunit_kmalloc(test, JTSC_BATCH, GFP_KERNEL);
	struct jtsc_core *c = jtsc_test_core(test);
	unsigned int top, b, words, word, fresh, made;
	u64 at;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, raw);
	for (top = 0; top < 2; top++) {
		const struct jtsc_health_params *p = jtsc_test_end(top);
		struct jtsc_health *h = &c->life[JTSC_SRC_SPEC].health;
		u64 lfsr = 0;

		memset(c, 0, sizeof(*c));
		at = 0;
		jtsc_test_stream(s, JTSC_TEST_STARTUP, NULL, at, 0);
		at += JTSC_TEST_STARTUP;
		KUNIT_ASSERT_EQ(test, jtsc_core_startup(c, JTSC_SRC_SPEC, p - jtsc_ladder, s, 0, 1),
				JTSC_RUNNING);
		word = p->credit * p->samples_per_word;
		for (b = 1; b <= JTSC_TEST_PRED_WINDOW / JTSC_BATCH + 1; b++) {
			unsigned int i, w;

			jtsc_test_stream(raw, JTSC_BATCH, NULL, at, 0);
			at += JTSC_BATCH;
			for (w = 0; w < JTSC_BATCH; w += p->samples_per_word)
				for (i = w; i < w + p->samples_per_word; i += 8)
					lfsr = jtsc_lfsr_fold(lfsr, get_unaligned_le64(raw + i),
							      64);
			KUNIT_ASSERT_EQ(test, jtsc_core_feed(c, raw), JTSC_RUNNING);
			made = b * JTSC_BATCH / p->samples_per_word;
			KUNIT_ASSERT_EQ(test, c->tested + c->pending, made);
			KUNIT_EXPECT_EQ(test, c->pool[made - 1], lfsr);
			/* Released only as a window closes, less the held words. */
			if (b * JTSC_BATCH % JTSC_TEST_PRED_WINDOW)
				continue;
			KUNIT_EXPECT_EQ(test, c->pending,
					DIV_ROUND_UP(JTSC_MAX_LAG + jtsc_health_hold(h),
						     p->samples_per_word));
		}
		KUNIT_EXPECT_GT(test, c->tested, 0U);
		words = jtsc_core_words(c, JTSC_TEST_BLOCK_CREDIT);
		KUNIT_EXPECT_EQ(test, words, DIV_ROUND_UP(JTSC_TEST_BLOCK_CREDIT, word));
		fresh = DIV_ROUND_UP(JTSC_TEST_FRESH_CREDIT, word);
		jtsc_core_begin_block(c, words, JTSC_TEST_FRESH_CREDIT);
		KUNIT_EXPECT_LE(test, c->tested + c->pending, words - min(words, fresh));
		made = c->tested;
		KUNIT_EXPECT_EQ(test, jtsc_core_take(c, made), made * word);
		KUNIT_EXPECT_EQ(test, c->tested, 0U);
	}
}

/* ---- LFSR folding ------------------------------------------------------- */

struct jtsc_lfsr_case {
	u64 state;
	u64 in;
	unsigned int nbits;
	u64 expect;
	const char *desc;
};

/* Known answers of an independent model of the LFSR. */
static const struct jtsc_lfsr_case jtsc_lfsr_cases[] = {
/* BEGIN lfsr-vectors.py output */
	{ 0x0000000000000000ULL, 0x0000000000000000ULL, 64,
	  0x0000000000000000ULL, "zero state, zero input" },
	{ 0x0123456789abcdefULL, 0x0000000000000000ULL, 64,
	  0xf50c9318ccce6b41ULL, "seed, zero input" },
	{ 0x0123456789abcdefULL, 0x0000000000000000ULL, 0,
	  0x0123456789abcdefULL, "seed, no bits" },
	{ 0x0000000000000000ULL, 0x0000000000000001ULL, 1,
	  0x0000000000000001ULL, "zero state, one bit" },
	{ 0x8000000000000000ULL, 0x0000000000000000ULL, 1,
	  0x0000000000000001ULL, "top bit feeds back" },
	{ 0x0123456789abcdefULL, 0xffffffffffffffffULL, 64,
	  0x0af36d16cccd94baULL, "seed, all-ones input" },
	{ 0x0123456789abcdefULL, 0xfedcba9876543210ULL, 64,
	  0xfd40b966d99d5f01ULL, "seed, pattern" },
	{ 0x0123456789abcdefULL, 0xfedcba9876543210ULL, 32,
	  0x89abcdeffd40b966ULL, "seed, pattern, 32 bits" },
	{ 0x0123456789abcdefULL, 0xfedcba9876543210ULL, 7,
	  0x91a2b3c4d5e6f7feULL, "seed, pattern, 7 bits" },
	{ 0xffffffffffffffffULL, 0x5555555555555555ULL, 64,
	  0xaaaaaa05fffeaaa9ULL, "all-ones state, 0x55 input" },
	{ 0x8000000000400001ULL, 0xaaaaaaaaaaaaaaaaULL, 63,
	  0xa8eaabf081a2a3edULL, "sparse state, 0xaa, 63 bits" },
	{ 0xdeadbeefcafef00dULL, 0x0f1e2d3c4b5a6978ULL, 22,
	  0xbbf2bfbc0357c681ULL, "pattern, 22 bits" },
	{ 0xdeadbeefcafef00dULL, 0x0f1e2d3c4b5a6978ULL, 23,
	  0x77e57f7806af8d03ULL, "pattern, 23 bits" },
	{ 0xdeadbeefcafef00dULL, 0x0f1e2d3c4b5a6978ULL, 24,
	  0xefcafef00d5f1a06ULL, "pattern, 24 bits" },
	{ 0xdeadbeefcafef00dULL, 0x0f1e2d3c4b5a6978ULL, 45,
	  0xde01abe340df049aULL, "pattern, 45 bits" },
	{ 0xdeadbeefcafef00dULL, 0x0f1e2d3c4b5a6978ULL, 46,
	  0xbc0357c681be0935ULL, "pattern, 46 bits" },
	{ 0xdeadbeefcafef00dULL, 0x0f1e2d3c4b5a6978ULL, 47,
	  0x7806af8d037c126aULL, "pattern, 47 bits" },
	{ 0xdeadbeefcafef00dULL, 0x0f1e2d3c4b5a6978ULL, 48,
	  0xf00d5f1a06f824d4ULL, "pattern, 48 bits" },
	{ 0xdeadbeefcafef00dULL, 0x0f1e2d3c4b5a6978ULL, 62,
	  0x57c681be093525fcULL, "pattern, 62 bits" },
	{ 0xdeadbeefcafef00dULL, 0x0f1e2d3c4b5a6978ULL, 64,
	  0x5f1a06f824d497f3ULL, "pattern, 64 bits" },
	{ 0x0123456789abcdefULL, 0x0000000000000001ULL, 64,
	  0x750c9211cccc6b47ULL, "seed, only bit 0 set" },
	{ 0x0123456789abcdefULL, 0x0000000000400000ULL, 64,
	  0xf50c9118ccca4f41ULL, "seed, only bit 22 set" },
	{ 0x0123456789abcdefULL, 0x0000000000800000ULL, 64,
	  0xf50c9218cccc7941ULL, "seed, only bit 23 set" },
	{ 0x0123456789abcdefULL, 0x8000000000000000ULL, 64,
	  0xf50c9318ccce6b40ULL, "seed, only bit 63 set" },
/* END lfsr-vectors.py output */
};

KUNIT_ARRAY_PARAM_DESC(jtsc_lfsr, jtsc_lfsr_cases, desc);

static void jtsc_lfsr_kat_test(struct kunit *test)
{
	const struct jtsc_lfsr_case *c = test->param_value;
	u64 got = jtsc_lfsr_fold(c->state, c->in, c->nbits);

	KUNIT_EXPECT_EQ_MSG(test, got, c->expect,
			    "fold(%#018llx, %#018llx, %u)", c->state, c->in,
			    c->nbits);
}

/*
 * Every input bit reaches the state: folding a word with only bit i set
 * gives 64 distinct results, none equal to folding zero. The LFSR is linear,
 * so this holds from any state; two are tried.
 */
static void jtsc_lfsr_every_bit_test(struct kunit *test)
{
	static const u64 states[] = { 0, 0x0123456789abcdefULL };
	u64 *out = kunit_kcalloc(test, 64, sizeof(*out), GFP_KERNEL);
	unsigned int s, i, j;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, out);
	for (s = 0; s < ARRAY_SIZE(states); s++) {
		u64 zero = jtsc_lfsr_fold(states[s], 0, 64);

		for (i = 0; i < 64; i++) {
			out[i] = jtsc_lfsr_fold(states[s], BIT_ULL(i), 64);
			KUNIT_EXPECT_NE_MSG(test, out[i], zero,
					    "state %#llx: bit %u is lost",
					    states[s], i);
			for (j = 0; j < i; j++)
				KUNIT_EXPECT_NE_MSG(test, out[i], out[j],
						    "state %#llx: bits %u and %u collide",
						    states[s], j, i);
		}
	}
}

/* ---- The runtime estimate ----------------------------------------------- */

enum jtsc_known_kind {
	JTSC_KNOWN_IID,		/* value 0 with probability @p, else 1..255 */
	JTSC_KNOWN_MARKOV,	/* two values; the next is the same with @p */
	JTSC_KNOWN_BLOCKS,	/* @n fixed 16-sample blocks, one at random */
};

/*
 * Streams whose min-entropy per sample is known, in 1/1000 bit: @h_milli
 * is -log2 of the most likely next sample, max(p, (1 - p) / 255) for the
 * i.i.d. ones, max(p, 1 - p) for the Markov ones, and log2(n) / 16 for the
 * blocks, which only long tuples reveal (each sample alone looks close to
 * uniform). @p is a probability in 2^-32.
 */
struct jtsc_known_case {
	enum jtsc_known_kind kind;
	u32 p;
	unsigned int n;
	unsigned int h_milli;
	const char *desc;
};

static const struct jtsc_known_case jtsc_known_cases[] = {
	{ JTSC_KNOWN_IID, 4252017623U, 0, 14, "i.i.d., most common value 0.99" },
	{ JTSC_KNOWN_IID, 4080218931U, 0, 74, "i.i.d., most common value 0.95" },
	{ JTSC_KNOWN_IID, 3865470566U, 0, 152, "i.i.d., most common value 0.90" },
	{ JTSC_KNOWN_IID, 3435973837U, 0, 321, "i.i.d., most common value 0.80" },
	{ JTSC_KNOWN_IID, 2147483648U, 0, 1000, "i.i.d., most common value 0.50" },
	{ JTSC_KNOWN_IID, 1288490189U, 0, 1736, "i.i.d., most common value 0.30" },
	{ JTSC_KNOWN_IID, 429496730U, 0, 3321, "i.i.d., most common value 0.10" },
	{ JTSC_KNOWN_MARKOV, 4252017623U, 0, 14, "two-state Markov, stays with 0.99" },
	{ JTSC_KNOWN_MARKOV, 3865470566U, 0, 152, "two-state Markov, stays with 0.90" },
	{ JTSC_KNOWN_MARKOV, 3006477107U, 0, 514, "two-state Markov, stays with 0.70" },
	{ JTSC_KNOWN_BLOCKS, 0, 8, 187, "8 blocks of 16 samples" },
	{ JTSC_KNOWN_BLOCKS, 0, 64, 375, "64 blocks of 16 samples" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_known, jtsc_known_cases, desc);

/* Samples of a known stream: the startup test's, then some for output. */
#define JTSC_KNOWN_LEN		(4 * JTSC_TEST_STARTUP + 2 * JTSC_TEST_PRED_WINDOW)

static void jtsc_known_fill(const struct jtsc_known_case *k, u8 *s, unsigned int len,
			    u64 seed)
{
	static u8 blocks[64][16];
	unsigned int i, j;
	u64 prng = seed;
	u8 state = 0;

	for (i = 0; i < ARRAY_SIZE(blocks); i++)
		for (j = 0; j < 16; j++)
			blocks[i][j] = jtsc_test_prng(&prng) >> 56;
	for (i = 0; i < len; i++) {
		u64 r = jtsc_test_prng(&prng);

		switch (k->kind) {
		case JTSC_KNOWN_IID:
			/* The top 32 bits pick, the low ones give the value. */
			s[i] = (r >> 32) < k->p ? 0 : 1 + (u32)(r & 0xffff) % 255;
			break;
		case JTSC_KNOWN_MARKOV:
			if ((r >> 32) >= k->p)
				state ^= 1;
			s[i] = state ? 0x5a : 0xa5;
			break;
		case JTSC_KNOWN_BLOCKS:
			if (!(i % 16))
				j = (u32)(r >> 32) % k->n;
			s[i] = blocks[j][i % 16];
			break;
		}
	}
}

/*
 * The estimator at the edges of its input: no sample, one, two, three,
 * one short of and at MultiMCW's 4096, a constant and an alternating
 * stream. Each estimate is between 0 and 8 bits or not applicable, and the
 * minimum is the lowest of them.
 */
static void jtsc_estimate_edges_test(struct kunit *test)
{
	static const unsigned int sizes[] = { 0, 1, 2, 3, 4095, 4096, 4097 };
	const unsigned int max_n = 4097;
	u8 *s = kunit_kmalloc(test, max_n, GFP_KERNEL);
	void *work = kunit_kmalloc(test, jtsc_estimate_work_size(max_n), GFP_KERNEL);
	struct jtsc_estimate e;
	unsigned int i, k, n;
	u64 low;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, work);
	for (i = 0; i < max_n; i++)
		s[i] = jtsc_test_byte(JTSC_TEST_SEED, i);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		n = sizes[i];
		jtsc_estimate_samples(s, n, work, &e);
		KUNIT_EXPECT_EQ(test, e.samples, n);
		low = 8 * JTSC_EST_ONE;
		for (k = 0; k < JTSC_NR_ESTIMATORS; k++) {
			if (e.h[k] == JTSC_EST_NONE)
				continue;
			KUNIT_EXPECT_LE_MSG(test, e.h[k], 8 * JTSC_EST_ONE, "%u samples, %s", n,
					    jtsc_estimator_name[k]);
			low = min(low, e.h[k]);
		}
		KUNIT_EXPECT_EQ_MSG(test, e.h_min, n < 2 ? 0 : low, "%u samples", n);
		KUNIT_EXPECT_EQ_MSG(test, e.h[JTSC_EST_MULTI_MCW] == JTSC_EST_NONE, n < 4096,
				    "%u samples", n);
		/* Uniform bytes: the most common value says 4 bits and more from 4095 on. */
		if (n >= 4095)
			KUNIT_EXPECT_GT_MSG(test, e.h_min, 4 * JTSC_EST_ONE, "%u samples", n);
	}
	memset(s, 0x5a, max_n);
	jtsc_estimate_samples(s, max_n, work, &e);
	KUNIT_EXPECT_EQ(test, e.h_min, 0ULL);
	for (i = 0; i < max_n; i++)
		s[i] = i & 1 ? 0 : 255;
	jtsc_estimate_samples(s, max_n, work, &e);
	KUNIT_EXPECT_LT(test, e.h_min, JTSC_EST_ONE / 1000);
	KUNIT_EXPECT_EQ(test, jtsc_ladder_pick(&e, JTSC_EST_MARGIN), -1);
}

/*
 * The step picked for an estimate at and just under each step's
 * credit times the margin, in the estimate's units of 2^-32 bit.
 */
static void jtsc_ladder_pick_test(struct kunit *test)
{
	static const unsigned int margins[] = { JTSC_EST_MARGIN, JTSC_EST_MARGIN_TIMER };
	struct jtsc_estimate e = {};
	unsigned int i, m;
	u64 need;

	for (m = 0; m < ARRAY_SIZE(margins); m++) {
		for (i = 0; i < jtsc_ladder_steps; i++) {
			need = (u64)jtsc_ladder[i].credit * margins[m] <<
			       (JTSC_EST_SHIFT - JTSC_TEST_ENTROPY_SHIFT);
			e.h_min = need;
			KUNIT_EXPECT_EQ_MSG(test, jtsc_ladder_pick(&e, margins[m]), (int)i,
					    "at %u/256 x %u", jtsc_ladder[i].credit, margins[m]);
			e.h_min = need - 1;
			KUNIT_EXPECT_EQ_MSG(test, jtsc_ladder_pick(&e, margins[m]), (int)i - 1,
					    "under %u/256 x %u", jtsc_ladder[i].credit, margins[m]);
		}
	}
	e.h_min = 8 * JTSC_EST_ONE;
	KUNIT_EXPECT_EQ(test, jtsc_ladder_pick(&e, JTSC_EST_MARGIN), (int)jtsc_ladder_steps - 1);
}

/* Not registered under fips=1, -icount, collectors=none: skip. */
static void jtsc_test_registered(struct kunit *test)
{
	if (!crypto_has_alg("jitter_tsc", 0, 0))
		kunit_skip(test, "jitter_tsc is not registered on this machine");
}

/* ---- The cycle counter check -------------------------------------------- */

enum jtsc_fake_counter { JTSC_FIT, JTSC_STUCK, JTSC_COARSE, JTSC_SLOW, JTSC_REAL };

struct jtsc_counter_case {
	enum jtsc_fake_counter kind;
	const char *why;
	const char *desc;
};

static const struct jtsc_counter_case jtsc_counter_cases[] = {
	{ JTSC_FIT, NULL, "+37 a read, 15 ns a read" },
	{ JTSC_STUCK, "stuck", "unchanged in 49 reads of 50" },
	{ JTSC_COARSE, "coarse", "steps of 4000 every 8 reads" },
	{ JTSC_SLOW, "slow to read", "3 us a read, trapped" },
	{ JTSC_REAL, NULL, "this machine's random_get_entropy()" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_counter, jtsc_counter_cases, desc);

static enum jtsc_fake_counter jtsc_fake_kind;
static u32 jtsc_fake_reads, jtsc_fake_clocks;

static u64 jtsc_fake_read(void)
{
	u32 n = ++jtsc_fake_reads;

	switch (jtsc_fake_kind) {
	case JTSC_STUCK:
		return 1000 + !(n % 50);
	case JTSC_COARSE:
		return n / 8 * 4000;
	case JTSC_REAL:
		return random_get_entropy();
	default:
		return n * 37;
	}
}

static u64 jtsc_fake_clock(void)
{
	if (jtsc_fake_kind == JTSC_REAL)
		return ktime_get_ns();
	return ++jtsc_fake_clocks * (jtsc_fake_kind == JTSC_SLOW ? 200000ULL : 1000ULL);
}

static void jtsc_counter_check_test(struct kunit *test)
{
	const struct jtsc_counter_case *c = test->param_value;
	struct jtsc_counter seen;
	const char *why;

	jtsc_fake_kind = c->kind;
	jtsc_fake_reads = 0;
	jtsc_fake_clocks = 0;
	why = jtsc_counter_check(jtsc_fake_read, jtsc_fake_clock, &seen);
	/* This machine's counter may be unfit (-icount): that is no failure. */
	if (c->kind != JTSC_REAL)
		KUNIT_EXPECT_STREQ(test, why ?: "fit", c->why ?: "fit");
	kunit_info(test, "%u unchanged, step %llu, %llu ns a read\n", seen.stuck, seen.step,
		   seen.read_ns);
}

/* ---- The glue, on fake collectors --------------------------------------- */

/*
 * What a fake collector serves: healthy bytes of @seed, or from sample
 * @from on a deterministic stream @det, or the @len samples of @buf; or
 * the error @err.
 */
struct jtsc_fake_src {
	u64 seed;
	const struct jtsc_det_case *det;
	const u8 *buf;
	u64 from, len, taken;
	int err;
};

static struct jtsc_fake_src jtsc_fake[JTSC_NR_SOURCES];

static u8 jtsc_fake_sample(const struct jtsc_fake_src *f, u64 i)
{
	if (f->det && i >= f->from)
		return jtsc_det_sample(f->det, i - f->from);
	if (f->buf && i >= f->from && i - f->from < f->len)
		return f->buf[i - f->from];
	return jtsc_test_byte(f->seed, i);
}

static int jtsc_fake_collect(struct jtsc_rng *rng, enum jtsc_source src)
{
	struct jtsc_fake_src *f = &jtsc_fake[src];
	unsigned int i;

	if (f->err)
		return f->err;
	for (i = 0; i < JTSC_BATCH; i++)
		rng->raw[i] = jtsc_fake_sample(f, f->taken++);
	return 0;
}

static int jtsc_fake_spec(struct jtsc_rng *rng)
{
	return jtsc_fake_collect(rng, JTSC_SRC_SPEC);
}

static int jtsc_fake_timer(struct jtsc_rng *rng)
{
	return jtsc_fake_collect(rng, JTSC_SRC_TIMER);
}

static const struct jtsc_collector jtsc_fake_cols[JTSC_NR_SOURCES] = {
	[JTSC_SRC_SPEC] = { "fake speculative", JTSC_EST_MARGIN, jtsc_fake_spec },
	[JTSC_SRC_TIMER] = { "fake timer", JTSC_EST_MARGIN_TIMER, jtsc_fake_timer },
};

/* From sample @from on, @src's counter steps by a constant: it dies or is refused. */
static const struct jtsc_det_case jtsc_det_stuck = { JTSC_DET_CONST, 40, 0, 0, "stuck" };

static void jtsc_fake_stuck(enum jtsc_source src, bool stuck)
{
	jtsc_fake[src].det = stuck ? &jtsc_det_stuck : NULL;
	jtsc_fake[src].from = jtsc_fake[src].taken;
}

KUNIT_DEFINE_ACTION_WRAPPER(jtsc_test_group_destroy, jtsc_group_destroy, struct jtsc_group *);
KUNIT_DEFINE_ACTION_WRAPPER(jtsc_test_rng_destroy, jtsc_rng_destroy, struct jtsc_rng *);

static struct jtsc_group *jtsc_test_group(struct kunit *test, unsigned long usable)
{
	struct jtsc_group *g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, g);
	KUNIT_ASSERT_EQ(test, jtsc_group_init(g, jtsc_fake_cols, usable, 0), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, jtsc_test_group_destroy, g), 0);
	return g;
}

/* An instance of @g, started: jtsc_rng_init()'s result in *@ret. */
static struct jtsc_rng *jtsc_test_rng(struct kunit *test, struct jtsc_group *g, int *ret)
{
	struct jtsc_rng *rng = kunit_kzalloc(test, sizeof(*rng), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rng);
	*ret = jtsc_rng_init(rng, g);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, jtsc_test_rng_destroy, rng), 0);
	return rng;
}

/* The credit of one word of @rng's running collector, in 1/256 bit. */
static unsigned int jtsc_test_word(const struct jtsc_rng *rng)
{
	const struct jtsc_health_params *p = rng->core.life[rng->core.src].health.params;

	return p->credit * p->samples_per_word;
}

/*
 * Setting up an instance starts the first collector that passes its
 * startup test, and only that one; the first estimate of the generation
 * sets the group's step. A collector whose counter is stuck or that cannot
 * collect is refused, and with none left the setup fails.
 */
static void jtsc_rng_init_test(struct kunit *test)
{
	struct jtsc_group *g = jtsc_test_group(test, JTSC_COLLECT_ALL);
	struct jtsc_rng *rng;
	int ret;

	rng = jtsc_test_rng(test, g, &ret);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, rng->core.src, JTSC_SRC_SPEC);
	KUNIT_EXPECT_EQ(test, rng->core.life[JTSC_SRC_SPEC].phase, JTSC_RUNNING);
	KUNIT_EXPECT_EQ(test, rng->core.life[JTSC_SRC_TIMER].phase, JTSC_IDLE);
	KUNIT_EXPECT_EQ(test, atomic64_read(&g->stats[JTSC_SRC_SPEC].estimates), 1LL);
	KUNIT_EXPECT_EQ(test, jtsc_group_step(g, JTSC_SRC_SPEC), (int)jtsc_ladder_steps - 1);
	KUNIT_EXPECT_EQ(test, jtsc_group_step(g, JTSC_SRC_TIMER), -ENOENT);
	/* Three windows for the estimate, one for the startup test. */
	KUNIT_EXPECT_EQ(test, jtsc_fake[JTSC_SRC_SPEC].taken, 4ULL * JTSC_TEST_STARTUP);

	g = jtsc_test_group(test, JTSC_COLLECT_ALL);
	jtsc_fake_stuck(JTSC_SRC_SPEC, true);
	rng = jtsc_test_rng(test, g, &ret);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, rng->core.src, JTSC_SRC_TIMER);
	KUNIT_EXPECT_EQ(test, rng->core.life[JTSC_SRC_SPEC].phase, JTSC_REFUSED);
	KUNIT_EXPECT_EQ(test, atomic64_read(&g->stats[JTSC_SRC_SPEC].refused), 1);
	KUNIT_EXPECT_EQ(test, jtsc_group_step(g, JTSC_SRC_SPEC), -ENODEV);

	g = jtsc_test_group(test, JTSC_COLLECT_ALL);
	jtsc_fake_stuck(JTSC_SRC_TIMER, true);
	rng = jtsc_test_rng(test, g, &ret);
	KUNIT_EXPECT_EQ(test, ret, -ENODEV);
	KUNIT_EXPECT_EQ(test, rng->core.life[JTSC_SRC_TIMER].phase, JTSC_REFUSED);

	g = jtsc_test_group(test, BIT(JTSC_SRC_SPEC));
	jtsc_fake[JTSC_SRC_SPEC].err = -ENODEV;
	rng = jtsc_test_rng(test, g, &ret);
	KUNIT_EXPECT_EQ(test, ret, -ENODEV);
	KUNIT_EXPECT_EQ(test, atomic64_read(&g->stats[JTSC_SRC_SPEC].refused), 1);
}

/*
 * The generation's step is the median of three windows' estimates: one
 * window far richer than the other two does not set it.
 */
static void jtsc_estimate_median_test(struct kunit *test)
{
	struct jtsc_group *g = jtsc_test_group(test, BIT(JTSC_SRC_SPEC));
	const size_t len = 4 * JTSC_TEST_STARTUP;
	u8 *s = kunit_kmalloc(test, len, GFP_KERNEL);
	unsigned int i;
	int ret;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	for (i = 0; i < len; i++)
		s[i] = jtsc_test_byte(JTSC_TEST_SEED, i) & (i < JTSC_TEST_STARTUP ? 255 : 15);
	jtsc_fake[JTSC_SRC_SPEC].buf = s;
	jtsc_fake[JTSC_SRC_SPEC].len = len;
	jtsc_test_rng(test, g, &ret);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_LT(test, g->est[JTSC_SRC_SPEC].h_min, 5 * JTSC_EST_ONE);
	KUNIT_EXPECT_LT(test, jtsc_group_step(g, JTSC_SRC_SPEC), (int)jtsc_ladder_steps - 1);
}

/*
 * A startup test that fails backs its collector off on that instance
 * only: another instance of the group starts it at once, and the first
 * tries it again after its backoff, at the step already set, with no new
 * estimate. An estimate under the floor refuses the collector for the
 * machine generation, however often it is tried: only a new generation
 * estimates again. While every collector left backs off, a pull returns
 * -EAGAIN.
 */
static void jtsc_refused_test(struct kunit *test)
{
	struct jtsc_group *g = jtsc_test_group(test, JTSC_COLLECT_ALL);
	u64 words[JITTER_TSC_PULL_MAX / sizeof(u64)];
	struct jtsc_rng *a, *b;
	int ret;

	a = jtsc_test_rng(test, g, &ret);
	KUNIT_ASSERT_EQ(test, a->core.src, JTSC_SRC_SPEC);
	jtsc_park(a);	/* not in use: no lock needed */
	jtsc_fake_stuck(JTSC_SRC_SPEC, true);
	KUNIT_EXPECT_GT(test, jtsc_rng_pull(a, words, sizeof(words)), 0);
	KUNIT_EXPECT_EQ(test, a->core.src, JTSC_SRC_TIMER);
	KUNIT_EXPECT_EQ(test, a->core.life[JTSC_SRC_SPEC].phase, JTSC_REFUSED);
	jtsc_fake_stuck(JTSC_SRC_SPEC, false);
	b = jtsc_test_rng(test, g, &ret);
	KUNIT_EXPECT_EQ(test, b->core.src, JTSC_SRC_SPEC);
	KUNIT_EXPECT_GT(test, jtsc_rng_pull(a, words, sizeof(words)), 0);
	KUNIT_EXPECT_EQ(test, a->core.src, JTSC_SRC_TIMER);
	a->core.life[JTSC_SRC_SPEC].retry_at = jiffies;
	KUNIT_EXPECT_GT(test, jtsc_rng_pull(a, words, sizeof(words)), 0);
	KUNIT_EXPECT_EQ(test, a->core.src, JTSC_SRC_SPEC);
	KUNIT_EXPECT_EQ(test, atomic64_read(&g->stats[JTSC_SRC_SPEC].estimates), 1LL);

	g = jtsc_test_group(test, BIT(JTSC_SRC_TIMER));
	jtsc_fake_stuck(JTSC_SRC_TIMER, true);
	a = jtsc_test_rng(test, g, &ret);
	KUNIT_EXPECT_EQ(test, ret, -ENODEV);
	KUNIT_EXPECT_EQ(test, jtsc_group_step(g, JTSC_SRC_TIMER), -ENODEV);
	KUNIT_EXPECT_EQ(test, jtsc_rng_pull(a, words, sizeof(words)), -EAGAIN);
	jtsc_fake_stuck(JTSC_SRC_TIMER, false);
	a->core.life[JTSC_SRC_TIMER].retry_at = jiffies;
	KUNIT_EXPECT_EQ(test, jtsc_rng_pull(a, words, sizeof(words)), -EAGAIN);
	KUNIT_EXPECT_EQ(test, a->core.life[JTSC_SRC_TIMER].backoff, 2U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&g->stats[JTSC_SRC_TIMER].estimates), 1LL);
	atomic_inc(&g->generation);
	KUNIT_EXPECT_GT(test, jtsc_rng_pull(a, words, sizeof(words)), 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&g->stats[JTSC_SRC_TIMER].estimates), 2LL);
}

/*
 * A permanent failure of one instance's output retires the collector on
 * that instance alone, which fails over within the same call; another
 * instance of the group goes on drawing on it. With no collector left an
 * instance fails for good.
 */
static void jtsc_instance_death_test(struct kunit *test)
{
	struct jtsc_group *g = jtsc_test_group(test, JTSC_COLLECT_ALL);
	u64 words[JITTER_TSC_PULL_MAX / sizeof(u64)];
	u8 block[64];
	struct jtsc_rng *a, *b;
	int ret;

	a = jtsc_test_rng(test, g, &ret);
	b = jtsc_test_rng(test, g, &ret);
	KUNIT_ASSERT_EQ(test, b->core.src, JTSC_SRC_SPEC);
	jtsc_fake_stuck(JTSC_SRC_SPEC, true);
	ret = jtsc_rng_pull(a, words, sizeof(words));
	KUNIT_EXPECT_GT(test, ret, 0);
	KUNIT_EXPECT_EQ(test, a->core.src, JTSC_SRC_TIMER);
	KUNIT_EXPECT_EQ(test, a->core.life[JTSC_SRC_SPEC].phase, JTSC_DEAD);
	KUNIT_EXPECT_EQ(test, atomic64_read(&a->group->stats[JTSC_SRC_SPEC].permanent), 1);
	KUNIT_EXPECT_EQ(test, ret, 32 * jtsc_test_word(a));

	jtsc_fake_stuck(JTSC_SRC_SPEC, false);
	KUNIT_EXPECT_EQ(test, jtsc_rng_generate(b, block, sizeof(block)), 0);
	KUNIT_EXPECT_EQ(test, b->core.src, JTSC_SRC_SPEC);
	KUNIT_EXPECT_EQ(test, b->core.life[JTSC_SRC_SPEC].phase, JTSC_RUNNING);

	/* a's last collector dies: a fails for good, b does not notice. */
	jtsc_fake_stuck(JTSC_SRC_TIMER, true);
	memset(block, JTSC_TEST_CANARY, sizeof(block));
	KUNIT_EXPECT_EQ(test, jtsc_rng_generate(a, block, sizeof(block)), -EFAULT);
	KUNIT_EXPECT_NULL(test, memchr_inv(block, JTSC_TEST_CANARY, sizeof(block)));
	jtsc_fake_stuck(JTSC_SRC_TIMER, false);
	KUNIT_EXPECT_EQ(test, jtsc_rng_pull(a, words, sizeof(words)), -EFAULT);
	KUNIT_EXPECT_EQ(test, jtsc_rng_generate(b, block, sizeof(block)), 0);
}

/*
 * The group's step is the generation's estimate, and no reader can move
 * it: instance after instance, as AF_ALG readers reopening sockets make,
 * runs its startup test at that step without an estimate, though its
 * samples (4 bits each) would estimate a lower one. A new generation
 * estimates again.
 */
static void jtsc_step_kept_test(struct kunit *test)
{
	struct jtsc_group *g = jtsc_test_group(test, BIT(JTSC_SRC_SPEC));
	const size_t len = 48 * (JTSC_TEST_STARTUP + 2 * JTSC_TEST_PRED_WINDOW);
	u64 words[JITTER_TSC_PULL_MAX / sizeof(u64)];
	struct jtsc_rng *rng, *other;
	unsigned int i;
	int step, ret;
	u8 *low;

	rng = jtsc_test_rng(test, g, &ret);
	KUNIT_ASSERT_EQ(test, ret, 0);
	step = jtsc_group_step(g, JTSC_SRC_SPEC);
	low = vmalloc(len);
	KUNIT_ASSERT_NOT_NULL(test, low);
	for (i = 0; i < len; i++)
		low[i] = jtsc_test_byte(JTSC_TEST_SEED, i) & 15;
	jtsc_fake[JTSC_SRC_SPEC].buf = low;
	jtsc_fake[JTSC_SRC_SPEC].from = jtsc_fake[JTSC_SRC_SPEC].taken;
	jtsc_fake[JTSC_SRC_SPEC].len = len;
	other = kunit_kzalloc(test, sizeof(*other), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, other);
	for (i = 0; i < 32; i++) {
		KUNIT_ASSERT_EQ(test, jtsc_rng_init(other, g), 0);
		KUNIT_EXPECT_GT_MSG(test, jtsc_rng_pull(other, words, sizeof(words)), 0,
				    "round %u", i);
		KUNIT_EXPECT_EQ_MSG(test, atomic64_read(&g->stats[JTSC_SRC_SPEC].estimates), 1LL,
				    "round %u", i);
		jtsc_rng_destroy(other);
		memset(other, 0, sizeof(*other));
	}
	KUNIT_EXPECT_EQ(test, jtsc_group_step(g, JTSC_SRC_SPEC), step);

	atomic_inc(&g->generation);
	KUNIT_EXPECT_GT(test, jtsc_rng_pull(rng, words, sizeof(words)), 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&g->stats[JTSC_SRC_SPEC].estimates), 2LL);
	KUNIT_EXPECT_LT(test, jtsc_group_step(g, JTSC_SRC_SPEC), step);
	jtsc_fake[JTSC_SRC_SPEC].buf = NULL;
	vfree(low);
}

/*
 * Output is SHA-256 over the pool words, which are the LFSR fold of the
 * samples that follow the startup test, and each block is credited what
 * its words carry. A request's blocks differ, and so do two requests';
 * every block takes JTSC_FRESH_CREDIT from samples newer than its start.
 */
static void jtsc_output_model_test(struct kunit *test)
{
	struct jtsc_group *g = jtsc_test_group(test, BIT(JTSC_SRC_SPEC));
	u8 out[2 * SHA256_DIGEST_SIZE], again[4 * SHA256_DIGEST_SIZE], want[SHA256_DIGEST_SIZE];
	unsigned int words, per, w, i;
	struct jtsc_fake_src *f = &jtsc_fake[JTSC_SRC_SPEC];
	u64 *model, lfsr = 0, at;
	struct jtsc_rng *rng;
	int ret;

	rng = jtsc_test_rng(test, g, &ret);
	KUNIT_ASSERT_EQ(test, ret, 0);
	words = DIV_ROUND_UP(JTSC_TEST_BLOCK_CREDIT, jtsc_test_word(rng));
	per = rng->core.life[JTSC_SRC_SPEC].health.params->samples_per_word;
	model = kunit_kcalloc(test, words, sizeof(*model), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, model);
	at = jtsc_fake[JTSC_SRC_SPEC].taken;
	for (w = 0; w < words; w++) {
		for (i = 0; i < per; i += 8) {
			u64 v = 0;
			unsigned int k;

			for (k = 0; k < 8; k++)
				v |= (u64)jtsc_fake_sample(f, at++) << (8 * k);
			lfsr = jtsc_lfsr_fold(lfsr, v, 64);
		}
		model[w] = lfsr;
	}
	sha256((const u8 *)model, words * sizeof(*model), want);
	KUNIT_ASSERT_EQ(test, jtsc_rng_generate(rng, out, sizeof(out)), 0);
	KUNIT_EXPECT_MEMEQ(test, out, want, sizeof(want));
	KUNIT_EXPECT_MEMNEQ(test, out, out + SHA256_DIGEST_SIZE, SHA256_DIGEST_SIZE);
	KUNIT_EXPECT_EQ(test, (u64)atomic64_read(&g->stats[JTSC_SRC_SPEC].credited),
			2ULL * words * jtsc_test_word(rng));
	/*
	 * Each block of a new request takes JTSC_FRESH_CREDIT from samples
	 * collected after it began: from the second on, released as a window
	 * closes after the last block's, so one window at least each.
	 */
	at = f->taken;
	KUNIT_ASSERT_EQ(test, jtsc_rng_generate(rng, again, sizeof(again)), 0);
	KUNIT_EXPECT_MEMNEQ(test, again, out + SHA256_DIGEST_SIZE, SHA256_DIGEST_SIZE);
	KUNIT_EXPECT_GE(test, f->taken - at,
			(u64)DIV_ROUND_UP(JTSC_TEST_FRESH_CREDIT, jtsc_test_word(rng)) * per +
			(sizeof(again) / SHA256_DIGEST_SIZE - 1) * JTSC_TEST_PRED_WINDOW);
}

/*
 * A pull takes @len bytes of released words and is credited what they
 * carry; bad lengths are refused. So does jitter_tsc_pull(), random.c's,
 * in whole bits.
 */
static void jtsc_pull_test(struct kunit *test)
{
	struct jtsc_group *g = jtsc_test_group(test, BIT(JTSC_SRC_TIMER));
	u64 words[JITTER_TSC_PULL_MAX / sizeof(u64) + 1];
	struct jtsc_rng *rng;
	int ret;

	rng = jtsc_test_rng(test, g, &ret);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, jtsc_rng_pull(rng, words, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, jtsc_rng_pull(rng, words, 12), -EINVAL);
	KUNIT_EXPECT_EQ(test, jtsc_rng_pull(rng, words, sizeof(words)), -EINVAL);
	KUNIT_EXPECT_EQ(test, jtsc_rng_pull(rng, words, 8), jtsc_test_word(rng));
	KUNIT_EXPECT_EQ(test, jtsc_rng_pull(rng, words, JITTER_TSC_PULL_MAX),
			JITTER_TSC_PULL_MAX / 8 * jtsc_test_word(rng));
	KUNIT_EXPECT_EQ(test, (u64)atomic64_read(&g->stats[JTSC_SRC_TIMER].credited),
			(JITTER_TSC_PULL_MAX / 8 + 1ULL) * jtsc_test_word(rng));
#if IS_ENABLED(CONFIG_CRYPTO_JITTER_TSC_SEED)
	jtsc_test_registered(test);
	ret = jitter_tsc_pull(words, 64);
	KUNIT_EXPECT_TRUE_MSG(test, ret > 0 || ret == -EAGAIN, "jitter_tsc_pull: %d", ret);
#endif
}

/*
 * An instance holds the speculative collector's buffer only while that
 * collector runs on it: parked or failed over, it has none.
 */
static void jtsc_buffer_test(struct kunit *test)
{
	struct jtsc_group *g = jtsc_test_group(test, JTSC_COLLECT_ALL);
	struct jtsc_rng *rng;
	unsigned int i;
	u64 words[4];
	u8 *other;
	int ret;

	if (!IS_ENABLED(CONFIG_X86_64))
		kunit_skip(test, "no speculative collector on this architecture");
	rng = jtsc_test_rng(test, g, &ret);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_NOT_NULL(test, rng->mem);
	/* No page like another: this buffer's tag and address, and its index */
	other = jtsc_spec_alloc();
	KUNIT_ASSERT_NOT_NULL(test, other);
	for (i = 0; i < JTSC_TEST_BUF_SIZE / PAGE_SIZE; i++) {
		const u64 *a = (u64 *)(rng->mem + i * PAGE_SIZE);
		const u64 *b = (u64 *)(other + i * PAGE_SIZE);

		KUNIT_EXPECT_EQ(test, a[0], *(u64 *)rng->mem);
		KUNIT_EXPECT_EQ(test, a[1], (unsigned long)rng->mem);
		KUNIT_EXPECT_EQ(test, a[2], i);
		KUNIT_EXPECT_TRUE(test, a[0] != b[0] && a[1] != b[1]);
	}
	vfree(other);
	KUNIT_EXPECT_FALSE(test, jtsc_park_idle(rng, 0));
	KUNIT_EXPECT_NULL(test, rng->mem);
	KUNIT_EXPECT_GT(test, jtsc_rng_pull(rng, words, sizeof(words)), 0);
	KUNIT_EXPECT_NOT_NULL(test, rng->mem);
	jtsc_fake_stuck(JTSC_SRC_SPEC, true);
	for (i = 0; i < 64 && rng->core.src == JTSC_SRC_SPEC; i++)
		KUNIT_EXPECT_GT(test, jtsc_rng_pull(rng, words, sizeof(words)), 0);
	KUNIT_EXPECT_EQ(test, rng->core.src, JTSC_SRC_TIMER);
	KUNIT_EXPECT_NULL(test, rng->mem);
}

/*
 * Through a real estimate and startup test on each collector: the credit
 * of a known stream is at most half its min-entropy, or the collector is
 * refused, as it must be where that half is below the floor; and it is
 * not refused where even half the min-entropy is at its margin times the
 * floor.
 */
static void jtsc_known_entropy_test(struct kunit *test)
{
	const struct jtsc_known_case *k = test->param_value;
	bool below_floor = k->h_milli * 256 < 2000 * jtsc_ladder[0].credit;
	unsigned int need;
	u8 *s = kunit_kmalloc(test, JTSC_KNOWN_LEN, GFP_KERNEL);
	enum jtsc_source src;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		struct jtsc_group *g = jtsc_test_group(test, BIT(src));
		const struct jtsc_health_params *p;
		struct jtsc_rng *rng;
		int ret;

		jtsc_known_fill(k, s, JTSC_KNOWN_LEN, 0x6b6e0000 + src);
		jtsc_fake[src].buf = s;
		jtsc_fake[src].from = jtsc_fake[src].taken;
		jtsc_fake[src].len = JTSC_KNOWN_LEN;
		rng = jtsc_test_rng(test, g, &ret);
		KUNIT_EXPECT_EQ(test, atomic64_read(&g->stats[src].estimates), 1LL);
		if (below_floor) {
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENODEV, "%s: not refused",
					    g->col[src].name);
			KUNIT_EXPECT_EQ(test, jtsc_group_step(g, src), -ENODEV);
			continue;
		}
		need = 2000 * jtsc_ladder[0].credit * g->col[src].margin;
		if (ret && k->h_milli * 256 < need)
			continue;
		KUNIT_ASSERT_EQ_MSG(test, ret, 0, "%s: refused", g->col[src].name);
		p = rng->core.life[src].health.params;
		kunit_info(test, "%s: estimate %llu/1000 bit, credit %u/256 bit\n",
			   g->col[src].name, (g->est[src].h_min * 1000) >> 32, p->credit);
		KUNIT_EXPECT_LE_MSG(test, p->credit * 2000, k->h_milli * 256,
				    "%s: credit %u/256 bit for %u/1000 bit", g->col[src].name,
				    p->credit, k->h_milli);
	}
}

/* ---- Output sizes ------------------------------------------------------- */

struct jtsc_size_case {
	unsigned int len;
	const char *desc;
};

static const struct jtsc_size_case jtsc_size_cases[] = {
	{ 0, "0 bytes" },
	{ 1, "1 byte" },
	{ 31, "31 bytes" },
	{ 32, "32 bytes, one block" },
	{ 33, "33 bytes" },
	{ 4096, "4096 bytes" },
	{ 65536, "65536 bytes" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_size, jtsc_size_cases, desc);

/* Guard bytes on each side of the output buffers. */
#define JTSC_TEST_GUARD		16

static bool jtsc_test_all(const u8 *buf, size_t len, u8 byte)
{
	return !len || (buf[0] == byte && !memcmp(buf, buf + 1, len - 1));
}

/*
 * Generates @len bytes twice through @tfm, checking the return code and
 * that nothing outside the buffer is written; two outputs of 8 bytes or
 * more must differ.
 */
static void jtsc_test_sizes(struct kunit *test, unsigned int len,
			    struct crypto_rng *tfm, const char *what)
{
	size_t size = len + 2 * JTSC_TEST_GUARD;
	u8 *a = kunit_kmalloc(test, size, GFP_KERNEL);
	u8 *b = kunit_kmalloc(test, size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	memset(a, JTSC_TEST_CANARY, size);
	memset(b, JTSC_TEST_CANARY, size);

	KUNIT_EXPECT_EQ_MSG(test, crypto_rng_get_bytes(tfm, a + JTSC_TEST_GUARD, len), 0,
			    "%s: %u bytes", what, len);
	KUNIT_EXPECT_EQ_MSG(test, crypto_rng_get_bytes(tfm, b + JTSC_TEST_GUARD, len), 0,
			    "%s: %u bytes", what, len);
	KUNIT_EXPECT_TRUE_MSG(test, jtsc_test_all(a, JTSC_TEST_GUARD,
						  JTSC_TEST_CANARY),
			      "%s: wrote before the buffer", what);
	KUNIT_EXPECT_TRUE_MSG(test, jtsc_test_all(a + JTSC_TEST_GUARD + len,
						  JTSC_TEST_GUARD,
						  JTSC_TEST_CANARY),
			      "%s: wrote past %u bytes", what, len);
	if (len < 8)
		return;
	KUNIT_EXPECT_FALSE_MSG(test, jtsc_test_all(a + JTSC_TEST_GUARD, len,
						   JTSC_TEST_CANARY),
			       "%s: %u bytes not written", what, len);
	KUNIT_EXPECT_MEMNEQ_MSG(test, a + JTSC_TEST_GUARD, b + JTSC_TEST_GUARD,
				len, "%s: two calls returned the same %u bytes",
				what, len);
}

/* ---- The crypto API, on the real collectors ----------------------------- */

/* Through the registered "jitter_tsc", on the real collectors. */
static void jtsc_crypto_sizes_test(struct kunit *test)
{
	const struct jtsc_size_case *c = test->param_value;
	struct crypto_rng *tfm;

	jtsc_test_registered(test);
	if (!IS_ENABLED(CONFIG_X86_64) && c->len > 64)
		kunit_skip(test, "timer collector only: too slow for %u bytes", c->len);
	tfm = crypto_alloc_rng("jitter_tsc", 0, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tfm);
	jtsc_test_sizes(test, c->len, tfm, "crypto API");
	crypto_free_rng(tfm);
}

#ifdef CONFIG_X86_64
/*
 * The speculative loop's walk: in every cycle each line is loaded exactly
 * once, so each aligned 8 KiB of the buffer (and a DRAM row holds no more)
 * 128 times, the bound of asm/tsc_jitter.h; and no two cycles walk the
 * lines in the same order.
 */
static void jtsc_walk_test(struct kunit *test)
{
	static const u64 cycles[] = { 0, 1, 2, 7, 1000003 };
	const unsigned int chunks = TSC_JITTER_MEM_SIZE / SZ_8K;
	unsigned int i, c, first[ARRAY_SIZE(cycles)];
	unsigned long *seen;
	u16 *loads;

	seen = kunit_kcalloc(test, BITS_TO_LONGS(TSC_JITTER_LINES), sizeof(long), GFP_KERNEL);
	loads = kunit_kcalloc(test, chunks, sizeof(*loads), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, seen);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, loads);
	for (c = 0; c < ARRAY_SIZE(cycles); c++) {
		u64 base = cycles[c] * TSC_JITTER_LINES;

		bitmap_zero(seen, TSC_JITTER_LINES);
		memset(loads, 0, chunks * sizeof(*loads));
		for (i = 0; i < TSC_JITTER_LINES; i++) {
			unsigned int line = tsc_jitter_line(base + i);

			__set_bit(line, seen);
			loads[(line << TSC_JITTER_LINE_SHIFT) / SZ_8K]++;
		}
		KUNIT_EXPECT_EQ_MSG(test, bitmap_weight(seen, TSC_JITTER_LINES),
				    TSC_JITTER_LINES, "cycle %llu", cycles[c]);
		for (i = 0; i < chunks; i++)
			if (loads[i] != SZ_8K >> TSC_JITTER_LINE_SHIFT)
				break;
		KUNIT_EXPECT_EQ_MSG(test, i, chunks, "cycle %llu: 8 KiB number %u loaded %u times",
				    cycles[c], i, i < chunks ? loads[i] : 0);
		/* The lines after the first: a rotation of another cycle's? */
		first[c] = tsc_jitter_line(base);
		for (i = 0; i < c; i++) {
			u64 other = cycles[i] * TSC_JITTER_LINES;
			unsigned int k, at = 0, same = 0;

			while (at < TSC_JITTER_LINES && tsc_jitter_line(other + at) != first[c])
				at++;
			for (k = 1; k < 64 && at + k < TSC_JITTER_LINES; k++)
				same += tsc_jitter_line(other + at + k) ==
					tsc_jitter_line(base + k);
			KUNIT_EXPECT_LT_MSG(test, same, 8U, "cycles %llu and %llu walk alike",
					    cycles[i], cycles[c]);
		}
	}
}
#else
static void jtsc_walk_test(struct kunit *test)
{
	kunit_skip(test, "no speculative collector on this architecture");
}
#endif

static int jtsc_test_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Sorts @buf and counts the words that equal the one before. */
static size_t jtsc_test_dups(struct kunit *test, u64 *buf, size_t words)
{
	size_t i, dups = 0;

	sort(buf, words, sizeof(*buf), jtsc_test_cmp_u64, NULL);
	for (i = 1; i < words; i++) {
		if (buf[i] != buf[i - 1])
			continue;
		if (!dups++)
			kunit_err(test, "repeated word %#018llx\n", buf[i]);
	}
	return dups;
}

#define JTSC_TEST_THREADS	4
#define JTSC_TEST_TIMEOUT	(60 * HZ)

/* Bytes a test thread reads at a time. */
#define JTSC_TEST_READ		64

struct jtsc_thread {
	struct completion done;
	bool stop;		/* set: end after @rounds blocks */
	int alloc_err;
	int gen_err;
	unsigned int same;
	unsigned int rounds;
	u8 *out;		/* the first @rounds reads, if not NULL */
	struct jtsc_rng *rng;	/* read this instance, not a transform */
	unsigned long until;	/* if set, jiffies after which to stop early */
	unsigned int stored;	/* reads stored in @out */
};

/*
 * How long the threads read, however few blocks that gives: the collector
 * may be the slow timer one, and a few blocks a thread are enough to
 * compare.
 */
#define JTSC_TEST_THREAD_SECS	10
#define JTSC_TEST_MIN_ROUNDS	2

/*
 * One transform per thread, or @t->rng shared with other threads: read
 * @rounds blocks or more.
 */
static int jtsc_test_thread(void *data)
{
	struct jtsc_thread *t = data;
	struct crypto_rng *tfm = NULL;
	u8 a[JTSC_TEST_READ], b[JTSC_TEST_READ];
	unsigned int i;

	if (!t->rng)
		tfm = crypto_alloc_rng("jitter_tsc", 0, 0);
	if (IS_ERR(tfm)) {
		t->alloc_err = PTR_ERR(tfm);
		goto out;
	}
	memset(b, 0, sizeof(b));
	for (i = 0; i < t->rounds || !READ_ONCE(t->stop); i++) {
		int ret;

		if (t->until && i >= JTSC_TEST_MIN_ROUNDS && time_after(jiffies, t->until))
			break;
		ret = tfm ? crypto_rng_get_bytes(tfm, a, sizeof(a)) :
		      jtsc_rng_generate(t->rng, a, sizeof(a));

		if (ret && !t->gen_err)
			t->gen_err = ret;
		if (!memcmp(a, b, sizeof(a)))
			t->same++;
		memcpy(b, a, sizeof(a));
		if (t->out && i < t->rounds) {
			memcpy(t->out + i * sizeof(a), a, sizeof(a));
			t->stored = i + 1;
		}
	}
	if (tfm)
		crypto_free_rng(tfm);
out:
	complete(&t->done);
	return 0;
}

static void jtsc_test_wait(struct kunit *test, struct jtsc_thread *t,
			   unsigned int n)
{
	if (wait_for_completion_timeout(&t->done, JTSC_TEST_TIMEOUT))
		return;
	KUNIT_FAIL(test, "thread %u hangs", n);
	/* The thread still uses @t; wait rather than free it under it. */
	wait_for_completion(&t->done);
}

/*
 * JTSC_TEST_THREADS kthreads read at once, each through a transform of its
 * own or, with @rng, all from that one instance, each bound to a CPU in
 * turn: @rounds blocks each, or as many as JTSC_TEST_THREAD_SECS allow but
 * JTSC_TEST_MIN_ROUNDS at least. What all of them read is compared, word
 * by word: no two consumers may be given the same block.
 */
static void jtsc_test_threads(struct kunit *test, struct jtsc_rng *rng,
			      unsigned int rounds, const char *what)
{
	const size_t per = rounds * JTSC_TEST_READ;
	unsigned long until = jiffies + JTSC_TEST_THREAD_SECS * HZ;
	struct jtsc_thread *t;
	struct task_struct *task;
	size_t len = 0;
	unsigned int i;
	u8 *all;

	t = kunit_kcalloc(test, JTSC_TEST_THREADS, sizeof(*t), GFP_KERNEL);
	all = kunit_kzalloc(test, JTSC_TEST_THREADS * per, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, all);
	for (i = 0; i < JTSC_TEST_THREADS; i++) {
		init_completion(&t[i].done);
		t[i].stop = true;
		t[i].rounds = rounds;
		t[i].out = all + i * per;
		t[i].rng = rng;
		t[i].until = until;
		task = kthread_create(jtsc_test_thread, &t[i], "jtsc_kunit/%u", i);
		KUNIT_EXPECT_FALSE_MSG(test, IS_ERR(task), "%s: thread %u", what, i);
		if (IS_ERR(task)) {
			complete(&t[i].done);
			continue;
		}
		kthread_bind(task, cpumask_nth(i % num_online_cpus(), cpu_online_mask));
		wake_up_process(task);
	}
	for (i = 0; i < JTSC_TEST_THREADS; i++) {
		jtsc_test_wait(test, &t[i], i);
		KUNIT_EXPECT_EQ_MSG(test, t[i].alloc_err, 0, "%s: thread %u", what, i);
		KUNIT_EXPECT_EQ_MSG(test, t[i].gen_err, 0, "%s: thread %u", what, i);
		KUNIT_EXPECT_EQ_MSG(test, t[i].same, 0U, "%s: thread %u", what, i);
		KUNIT_EXPECT_GE_MSG(test, t[i].stored, JTSC_TEST_MIN_ROUNDS, "%s: thread %u",
				    what, i);
		/* What each thread read, one after the other. */
		memmove(all + len, t[i].out, t[i].stored * JTSC_TEST_READ);
		len += t[i].stored * JTSC_TEST_READ;
	}
	KUNIT_EXPECT_EQ_MSG(test, jtsc_test_dups(test, (u64 *)all, len / sizeof(u64)),
			    0UL, "%s", what);
}

/*
 * Transforms on both CPUs of the test guest, and so on more than one
 * shard; then all threads on one instance from both CPUs, where only its
 * lock keeps two readers from being given the same block.
 */
static void jtsc_crypto_threads_test(struct kunit *test)
{
	const unsigned int rounds = IS_ENABLED(CONFIG_X86_64) ? 64 : 4;
	struct jtsc_group *g = jtsc_test_group(test, JTSC_COLLECT_ALL);
	struct jtsc_rng *rng;
	int ret;

	jtsc_test_registered(test);
	jtsc_test_threads(test, NULL, rounds, "transforms");
	rng = jtsc_test_rng(test, g, &ret);
	KUNIT_ASSERT_EQ(test, ret, 0);
	jtsc_test_threads(test, rng, rounds, "one instance");
}

/* Transforms come and go while a kthread reads from another one. */
static void jtsc_crypto_free_while_reading_test(struct kunit *test)
{
	struct jtsc_thread *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct task_struct *task;
	u8 buf[32];
	unsigned int i;

	jtsc_test_registered(test);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	init_completion(&t->done);
	t->rounds = 16;
	task = kthread_run(jtsc_test_thread, t, "jtsc_kunit/reader");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));

	for (i = 0; i < 32; i++) {
		struct crypto_rng *tfm = crypto_alloc_rng("jitter_tsc", 0, 0);

		KUNIT_EXPECT_FALSE_MSG(test, IS_ERR(tfm), "round %u", i);
		if (IS_ERR(tfm))
			break;
		if (i & 1)
			KUNIT_EXPECT_EQ(test,
					crypto_rng_get_bytes(tfm, buf,
							     sizeof(buf)), 0);
		crypto_free_rng(tfm);
	}
	WRITE_ONCE(t->stop, true);
	jtsc_test_wait(test, t, 0);
	KUNIT_EXPECT_EQ(test, t->alloc_err, 0);
	KUNIT_EXPECT_EQ(test, t->gen_err, 0);
	KUNIT_EXPECT_EQ(test, t->same, 0U);
}

/* ---- Suite -------------------------------------------------------------- */

static int jtsc_test_init(struct kunit *test)
{
	enum jtsc_source src;

	memset(jtsc_fake, 0, sizeof(jtsc_fake));
	for (src = 0; src < JTSC_NR_SOURCES; src++)
		jtsc_fake[src].seed = JTSC_TEST_SEED + src;
	return 0;
}

static struct kunit_case jtsc_test_cases[] = {
	KUNIT_CASE(jtsc_cutoffs_test),
	KUNIT_CASE(jtsc_params_test),
	KUNIT_CASE(jtsc_health_healthy_test),
	KUNIT_CASE(jtsc_health_rct_test),
	KUNIT_CASE(jtsc_health_apt_test),
	KUNIT_CASE(jtsc_health_guard_test),
	KUNIT_CASE(jtsc_floor_test),
	KUNIT_CASE(jtsc_health_hold_test),
	KUNIT_CASE_PARAM(jtsc_det_health_test, jtsc_det_gen_params),
	KUNIT_CASE_PARAM(jtsc_det_startup_test, jtsc_det_gen_params),
	KUNIT_CASE_PARAM(jtsc_det_operation_test, jtsc_det_gen_params),
	KUNIT_CASE(jtsc_core_window_test),
	KUNIT_CASE(jtsc_core_failures_test),
	KUNIT_CASE(jtsc_core_backoff_test),
	KUNIT_CASE(jtsc_core_words_test),
	KUNIT_CASE_PARAM(jtsc_lfsr_kat_test, jtsc_lfsr_gen_params),
	KUNIT_CASE(jtsc_lfsr_every_bit_test),
	KUNIT_CASE_PARAM(jtsc_known_entropy_test, jtsc_known_gen_params),
	KUNIT_CASE(jtsc_estimate_edges_test),
	KUNIT_CASE(jtsc_ladder_pick_test),
	KUNIT_CASE_PARAM(jtsc_counter_check_test, jtsc_counter_gen_params),
	KUNIT_CASE(jtsc_rng_init_test),
	KUNIT_CASE(jtsc_estimate_median_test),
	KUNIT_CASE(jtsc_refused_test),
	KUNIT_CASE(jtsc_instance_death_test),
	KUNIT_CASE(jtsc_step_kept_test),
	KUNIT_CASE(jtsc_output_model_test),
	KUNIT_CASE(jtsc_pull_test),
	KUNIT_CASE(jtsc_buffer_test),
	KUNIT_CASE(jtsc_walk_test),
	KUNIT_CASE_PARAM(jtsc_crypto_sizes_test, jtsc_size_gen_params),
	KUNIT_CASE(jtsc_crypto_threads_test),
	KUNIT_CASE(jtsc_crypto_free_while_reading_test),
	{}
};

static struct kunit_suite jtsc_test_suite = {
	.name = "jitter_tsc",
	.init = jtsc_test_init,
	.test_cases = jtsc_test_cases,
};

kunit_test_suite(jtsc_test_suite);
