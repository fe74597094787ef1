// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the jitter_tsc entropy source.
 *
 * The suite proves the parts of jitter_tsc that decide whether its output can
 * be trusted, without relying on the timing jitter of the machine it runs on:
 *
 *  - The health tests are a pure function of the raw samples, so they are
 *    fed scripted byte streams: each cutoff of the Repetition Count Test, the
 *    Adaptive Proportion Test and the determinism predictors, just below and
 *    at its value, with streams built so that only one count moves; the
 *    deterministic delta streams of a broken counter; and a long stream from
 *    a fixed-seed PRNG that must never raise an alarm.
 *  - Every cutoff is recomputed from the credit, the binomial ones from a
 *    table of harness/kunit/apt-cutoffs.py; the LFSR is checked against
 *    known answers of an independent model (harness/kunit/lfsr-vectors.py).
 *  - The cycle counter and both collectors are replaced by static stubs that
 *    serve scripted streams to private instances: the startup test refuses
 *    every deterministic stream, and one that begins after a healthy start is
 *    stopped before any pool word holding one of its samples is released,
 *    wherever it begins relative to the predictor windows.
 *  - Pool words and output blocks are compared with a model (the LFSR fold
 *    of the scripted samples, SHA-256 of the words), and every credit is
 *    pinned.
 *  - The crypto API (with several kthreads) and the pull used by random.c
 *    are checked on the real collectors.
 *
 * Static stubs only redirect calls made from the test's own thread, so the
 * registered "jitter_tsc" algorithm never sees an injected fault.
 */

#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <kunit/test-bug.h>

#include <crypto/internal/jitter_tsc.h>
#include <crypto/jitter_tsc.h>
#include <crypto/rng.h>
#include <crypto/sha2.h>
#include <linux/bitmap.h>
#include <linux/bits.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/sizes.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#ifdef CONFIG_X86_64
#include <asm/tsc_jitter.h>
#endif

/*
 * Constants of the core and of crypto/jitter_tsc_kcapi.c, written out
 * rather than read back, so that a change to one of them fails the
 * constants case until the suite changes with it.
 */
#define JTSC_TEST_ENTROPY_SHIFT		8	/* credits count 1/256 bit */
#define JTSC_TEST_APT_WINDOW		512
#define JTSC_TEST_PRED_WINDOW		4096
#define JTSC_TEST_STARTUP		12288	/* samples of the startup test */
#define JTSC_TEST_MAX_INTERMITTENT	3
#define JTSC_TEST_ALPHA_LOG2		30
#define JTSC_TEST_PERM_ALPHA_LOG2	60
#define JTSC_TEST_PRED_ALPHA_LOG2	(JTSC_TEST_ALPHA_LOG2 + 7)
#define JTSC_TEST_PRED_PERM_ALPHA_LOG2	(JTSC_TEST_PERM_ALPHA_LOG2 + 7)
#define JTSC_TEST_MAX_WORD_CREDIT	(32 << JTSC_TEST_ENTROPY_SHIFT)
/* Entropy behind one output block: twice its size, in 1/256 bit. */
#define JTSC_TEST_BLOCK_CREDIT		((SHA256_DIGEST_SIZE * 8 * 2) << JTSC_TEST_ENTROPY_SHIFT)
/* Of a block's credit, what a request must collect itself. */
#define JTSC_TEST_FRESH_CREDIT		((SHA256_DIGEST_SIZE * 8) << JTSC_TEST_ENTROPY_SHIFT)

/* Byte written around and into buffers to see what a call wrote. */
#define JTSC_TEST_CANARY		0xa5

/* Fixed seeds of the scripted streams. */
#define JTSC_TEST_SEED			0x0123456789abcdefULL
#define JTSC_TEST_PERIOD_SEED		0x5eed000000000000ULL

/*
 * Byte @i of the healthy stream @seed: splitmix64 of the index, so that a
 * scripted collector is a pure function of the sample number. Its bytes are
 * far better than any credit jitter_tsc claims, so every health-test
 * failure they provoke is a false alarm.
 */
static u8 jtsc_test_byte(u64 seed, u64 i)
{
	u64 z = seed + (i + 1) * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31)) >> 56;
}

/* xorshift64*, for the fake counter and the stream builder. */
static u64 jtsc_test_prng(u64 *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/*
 * The ladder step each collector's scripted tests run at: the timer
 * collector's are held at the floor (jtsc_test_group_init() lowers the
 * group's step, as an earlier low estimate on another instance would), the
 * speculative collector's get what the estimate of the healthy stream
 * allows, the ceiling. Together they cover both ends of the ladder.
 */
static const struct jtsc_health_params *jtsc_test_params(enum jtsc_source src)
{
	return &jtsc_ladder[src == JTSC_SRC_TIMER ? 0 : jtsc_ladder_steps - 1];
}

/* Which end of the ladder @p is, for messages. */
static const char *jtsc_test_pname(const struct jtsc_health_params *p)
{
	if (p == &jtsc_ladder[0])
		return "floor step";
	return p == &jtsc_ladder[jtsc_ladder_steps - 1] ? "ceiling step" : "ladder step";
}

/* Entropy credited to one pool word of @src, in 1/256 bit. */
static unsigned int jtsc_test_word_credit(enum jtsc_source src)
{
	return jtsc_test_params(src)->credit * jtsc_test_params(src)->samples_per_word;
}

/* Pool words behind one output block of @src. */
static unsigned int jtsc_test_block_words(enum jtsc_source src)
{
	return DIV_ROUND_UP(JTSC_TEST_BLOCK_CREDIT, jtsc_test_word_credit(src));
}

/*
 * Words left from before a request that its first block may use, with
 * @stale of them in the pool when the request begins: the block's words
 * less those carrying JTSC_TEST_FRESH_CREDIT. The others are dropped.
 */
static unsigned int jtsc_test_stale_dropped(enum jtsc_source src, unsigned int stale)
{
	unsigned int fresh = DIV_ROUND_UP(JTSC_TEST_FRESH_CREDIT, jtsc_test_word_credit(src));
	unsigned int keep = jtsc_test_block_words(src) - fresh;

	return stale > keep ? stale - keep : 0;
}

/*
 * The credits of the ladder's ceiling and floor, written out as
 * Documentation/crypto/jitter_tsc.rst and the changelogs state them, in
 * 1/256 bit, rather than read back from jtsc_ladder[]: a change of either,
 * or of what a word or a block carries, fails jtsc_credit_pinned_test until
 * the claim changes with it.
 */
static const struct {
	unsigned int sample;	/* per raw sample */
	unsigned int word;	/* per pool word */
	unsigned int block;	/* per output block of 32 bytes */
} jtsc_test_pinned[] = {
	/* the ceiling: 32 samples a word; 22 words (528 bits) a block */
	[JTSC_SRC_SPEC] = { 192, 6144, 135168 },
	/* the floor: 512 samples a word; 128 words (512 bits) a block */
	[JTSC_SRC_TIMER] = { 2, 1024, 131072 },
};

static const char *const jtsc_test_result_name[] = {
	[JTSC_HEALTH_OK] = "OK",
	[JTSC_HEALTH_INTERMITTENT] = "INTERMITTENT",
	[JTSC_HEALTH_PERMANENT] = "PERMANENT",
};

static const char *jtsc_test_result(enum jtsc_health_result r)
{
	return r < ARRAY_SIZE(jtsc_test_result_name) ?
	       jtsc_test_result_name[r] : "invalid";
}

static struct jtsc_health *jtsc_test_health(struct kunit *test,
					    const struct jtsc_health_params *p)
{
	struct jtsc_health *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, h);
	jtsc_health_init(h, p);
	return h;
}

/*
 * Feeds @n samples of the healthy stream @seed from sample *@i on; returns
 * how many passed before the first verdict that is not OK, stored in @res.
 */
static unsigned int jtsc_test_feed_good(struct jtsc_health *h, u64 seed,
					u64 *i, unsigned int n,
					enum jtsc_health_result *res)
{
	unsigned int k;

	*res = JTSC_HEALTH_OK;
	for (k = 0; k < n; k++) {
		*res = jtsc_health_sample(h, jtsc_test_byte(seed, (*i)++));
		if (*res != JTSC_HEALTH_OK)
			return k;
	}
	return n;
}

struct jtsc_source_case {
	enum jtsc_source src;
	const char *desc;
};

static const struct jtsc_source_case jtsc_source_cases[] = {
	{ JTSC_SRC_SPEC, "speculative collector" },
	{ JTSC_SRC_TIMER, "timer collector" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_source, jtsc_source_cases, desc);

/* ---- Parameters and cutoffs -------------------------------------------- */

/*
 * Binomial cutoffs, 1 + CRITBINOM(W, 2^-H, 1 - alpha), computed in 100-digit
 * arithmetic by harness/kunit/apt-cutoffs.py for H = credit / 256 bit: the
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
	{ 2, 512, 30, 60, 513, 513 },
	{ 3, 512, 30, 60, 513, 513 },
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
	{ 2, 4096, 37, 67, 4097, 4097 },
	{ 3, 4096, 37, 67, 4094, 4097 },
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
 * Every cutoff follows from the credit: the RCT's and the predictor runs'
 * in integers, the APT's and the predictor hits' from the table above. A
 * new credit without a table row fails here, naming the script to rerun.
 */
static void jtsc_test_step_cutoffs(struct kunit *test, const struct jtsc_health_params *p)
{
	const struct jtsc_binom_ref *apt, *hits;

	KUNIT_ASSERT_GT(test, p->credit, 0U);
	KUNIT_EXPECT_EQ(test, p->rct_cutoff,
			jtsc_test_run_cutoff(JTSC_TEST_ALPHA_LOG2, p->credit));
	KUNIT_EXPECT_EQ(test, p->rct_perm_cutoff,
			jtsc_test_run_cutoff(JTSC_TEST_PERM_ALPHA_LOG2, p->credit));
	KUNIT_EXPECT_EQ(test, p->run_cutoff,
			jtsc_test_run_cutoff(JTSC_TEST_PRED_ALPHA_LOG2, p->credit));
	KUNIT_EXPECT_EQ(test, p->run_perm_cutoff,
			jtsc_test_run_cutoff(JTSC_TEST_PRED_PERM_ALPHA_LOG2,
					     p->credit));

	apt = jtsc_test_binom(p->credit, JTSC_TEST_APT_WINDOW,
			      JTSC_TEST_ALPHA_LOG2);
	hits = jtsc_test_binom(p->credit, JTSC_TEST_PRED_WINDOW,
			       JTSC_TEST_PRED_ALPHA_LOG2);
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
 * Every step of the ladder: credits ascending, words that carry at most 32
 * credited bits and tile the windows and batches; and each collector's
 * row: a name and the collect function that the static stubs replace.
 */
static void jtsc_params_test(struct kunit *test)
{
	const struct jtsc_source_case *c = test->param_value;
	const struct jtsc_collector *col = &jtsc_collectors[c->src];
	unsigned int i;

	KUNIT_EXPECT_NOT_NULL(test, col->name);
	KUNIT_EXPECT_PTR_EQ(test, col->collect, c->src == JTSC_SRC_SPEC ?
			    jtsc_spec_collect : jtsc_timer_collect);
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
		KUNIT_EXPECT_LE(test, p->run_perm_cutoff, U16_MAX);
		/*
		 * A block or a pull, a window of pending words and the words
		 * held back at its end fit in the pool together.
		 */
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

static void jtsc_constants_test(struct kunit *test)
{
	const struct jtsc_source_case *c = test->param_value;
	struct jtsc_health *h = jtsc_test_health(test, jtsc_test_params(c->src));
	enum jtsc_health_result res;
	unsigned int n, closed = 0;
	u64 i = 0;

	KUNIT_EXPECT_EQ(test, h->startup_left, JTSC_TEST_STARTUP);
	KUNIT_EXPECT_EQ(test, JTSC_STARTUP_SAMPLES, JTSC_TEST_STARTUP);
	KUNIT_EXPECT_EQ(test, JTSC_ALPHA_LOG2, JTSC_TEST_ALPHA_LOG2);
	KUNIT_EXPECT_EQ(test, JTSC_PERM_ALPHA_LOG2, JTSC_TEST_PERM_ALPHA_LOG2);
	KUNIT_EXPECT_EQ(test, JTSC_PRED_ALPHA_LOG2, JTSC_TEST_PRED_ALPHA_LOG2);
	KUNIT_EXPECT_EQ(test, JTSC_PRED_PERM_ALPHA_LOG2, JTSC_TEST_PRED_PERM_ALPHA_LOG2);
	KUNIT_EXPECT_EQ(test, JTSC_MAX_WORD_CREDIT, JTSC_TEST_MAX_WORD_CREDIT);
	KUNIT_EXPECT_EQ(test, JTSC_MAX_INTERMITTENT, JTSC_TEST_MAX_INTERMITTENT);
	for (n = 1; n <= 2 * JTSC_TEST_PRED_WINDOW; n++) {
		KUNIT_ASSERT_EQ(test, jtsc_test_feed_good(h, JTSC_TEST_SEED, &i,
							  1, &res), 1U);
		KUNIT_EXPECT_EQ_MSG(test, h->apt_seen,
				    n % JTSC_TEST_APT_WINDOW, "sample %u", n);
		if (jtsc_health_window_closed(h)) {
			KUNIT_EXPECT_EQ_MSG(test, n % JTSC_TEST_PRED_WINDOW, 0U,
					    "window closed at sample %u", n);
			closed++;
		}
	}
	KUNIT_EXPECT_EQ(test, closed, 2U);
}

/* ---- Health tests: failures and recovery -------------------------------- */

/*
 * Feeds healthy samples, then a run of rct_cutoff copies of a value the
 * last of them is not: the run ends in exactly one verdict, on its last
 * sample, which is returned.
 */
static enum jtsc_health_result jtsc_test_short_run(struct kunit *test,
						   struct jtsc_health *h,
						   u64 *i)
{
	unsigned int cutoff = h->params->rct_cutoff, k;
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	u8 v = jtsc_test_byte(JTSC_TEST_SEED, *i + 99) ^ 0x80;

	KUNIT_EXPECT_EQ(test, jtsc_test_feed_good(h, JTSC_TEST_SEED, i, 100,
						  &res), 100U);
	for (k = 1; k <= cutoff; k++) {
		res = jtsc_health_sample(h, v);
		if (k < cutoff)
			KUNIT_EXPECT_EQ_MSG(test, res, JTSC_HEALTH_OK,
					    "%s at sample %u of the run",
					    jtsc_test_result(res), k);
	}
	return res;
}

/*
 * After an intermittent failure the startup test runs again, and passing
 * it forgives the failures before it; JTSC_TEST_MAX_INTERMITTENT of them
 * without a passed startup test in between are a permanent one.
 */
static void jtsc_health_recovery_test(struct kunit *test)
{
	const struct jtsc_source_case *c = test->param_value;
	struct jtsc_health *h = jtsc_test_health(test, jtsc_test_params(c->src));
	enum jtsc_health_result res;
	unsigned int round, n;
	u64 i = 0;

	for (round = 0; round < 3; round++) {
		for (n = 1; n < JTSC_TEST_MAX_INTERMITTENT; n++) {
			res = jtsc_test_short_run(test, h, &i);
			KUNIT_EXPECT_EQ_MSG(test, res, JTSC_HEALTH_INTERMITTENT,
					    "round %u, failure %u: %s", round,
					    n, jtsc_test_result(res));
			KUNIT_EXPECT_EQ(test, h->startup_left,
					JTSC_TEST_STARTUP);
		}
		KUNIT_ASSERT_EQ(test,
				jtsc_test_feed_good(h, JTSC_TEST_SEED, &i,
						    JTSC_TEST_STARTUP - 1,
						    &res),
				JTSC_TEST_STARTUP - 1);
		KUNIT_EXPECT_FALSE(test, jtsc_health_started(h));
		KUNIT_EXPECT_EQ(test, h->failures,
				JTSC_TEST_MAX_INTERMITTENT - 1);
		KUNIT_ASSERT_EQ(test, jtsc_test_feed_good(h, JTSC_TEST_SEED,
							  &i, 1, &res), 1U);
		KUNIT_EXPECT_TRUE(test, jtsc_health_started(h));
		KUNIT_EXPECT_EQ_MSG(test, h->failures, 0U, "round %u", round);
	}
	/* Without a passed startup test in between, the last one is permanent. */
	for (n = 1; n <= JTSC_TEST_MAX_INTERMITTENT; n++) {
		res = jtsc_test_short_run(test, h, &i);
		KUNIT_EXPECT_EQ_MSG(test, res, n < JTSC_TEST_MAX_INTERMITTENT ?
				    JTSC_HEALTH_INTERMITTENT : JTSC_HEALTH_PERMANENT,
				    "failure %u: %s", n, jtsc_test_result(res));
	}
}

/* ---- Health tests: each cutoff, one count at a time --------------------- */

/*
 * The guesses a built stream can be made to hit: the determinism
 * predictors (0, the stuck one, and the lags 1 to JTSC_MAX_LAG, lag 1 being
 * what the RCT counts) and the APT's reference, the first sample of the
 * APT window.
 */
#define JTSC_GUESS_STUCK	0
#define JTSC_GUESS_APT		JTSC_NR_PREDICTORS

/* The value guess @g makes for sample @i of @s. */
static u8 jtsc_test_guess(const u8 *s, unsigned int i, unsigned int g)
{
	if (g == JTSC_GUESS_STUCK)
		return 2 * s[i - 1] - s[i - 2];
	if (g == JTSC_GUESS_APT)
		return s[rounddown(i, JTSC_TEST_APT_WINDOW)];
	return s[i - g];
}

/*
 * Whether @r as sample @m of @s, where the samples @hit are to be hits of
 * guess @g, would hit any guess: itself, or the stuck predictor at the
 * planned hits right after it.
 */
static bool jtsc_test_collides(const u8 *s, unsigned int m, u8 r,
			       const unsigned long *hit, unsigned int n,
			       unsigned int g)
{
	bool next = m + 1 < n && test_bit(m + 1, hit);
	unsigned int j;

	for (j = 1; j <= min(m, JTSC_MAX_LAG); j++)
		if (r == s[m - j])
			return true;
	if (m >= 2 && r == (u8)(2 * s[m - 1] - s[m - 2]))
		return true;
	if (m % JTSC_TEST_APT_WINDOW &&
	    r == s[rounddown(m, JTSC_TEST_APT_WINDOW)])
		return true;
	if (!next || m < 1 || g == 1 || g == JTSC_GUESS_APT)
		return false;
	/* A stuck run of odd step repeats no value within 256 samples. */
	if (g == JTSC_GUESS_STUCK)
		return !((r - s[m - 1]) & 1);
	/* The planned copy at m + 1 must not extend r into a progression. */
	if ((u8)(2 * r) == (u8)(s[m + 1 - g] + s[m - 1]))
		return true;
	return g > 2 && m + 2 < n && test_bit(m + 2, hit) &&
	       r == (u8)(2 * s[m + 1 - g] - s[m + 2 - g]);
}

/*
 * Builds @n samples into @s: the samples @hit are guess @g's value, the
 * others a value that no guess makes. Returns false if none was left.
 */
static bool jtsc_test_build(u8 *s, unsigned int n, const unsigned long *hit,
			    unsigned int g, u64 seed)
{
	unsigned int i, t;
	u64 prng = seed;

	for (i = 0; i < n; i++) {
		u8 r;

		if (test_bit(i, hit)) {
			s[i] = jtsc_test_guess(s, i, g);
			continue;
		}
		r = jtsc_test_prng(&prng) >> 56;
		for (t = 0; t < 256 && jtsc_test_collides(s, i, r, hit, n, g); t++)
			r++;
		if (t == 256)
			return false;
		s[i] = r;
	}
	return true;
}

/* The @k-th difference of @s at sample @i, i >= k, mod 256. */
static u8 jtsc_test_diff(const u8 *s, unsigned int i, unsigned int k)
{
	return k ? jtsc_test_diff(s, i, k - 1) - jtsc_test_diff(s, i - 1, k - 1) : s[i];
}

/* Whether predictor @k hits sample @i of @s, by its definition. */
static bool jtsc_test_hit(const u8 *s, unsigned int i, unsigned int k)
{
	unsigned int d;

	if (k == JTSC_GUESS_STUCK)
		return i >= 2 && (u8)(s[i] - s[i - 1]) == (u8)(s[i - 1] - s[i - 2]);
	if (k > JTSC_MAX_LAG) {
		/* The difference predictors above the first: a nonzero repeat. */
		d = k - JTSC_MAX_LAG + 1;
		return i >= d + 1 && jtsc_test_diff(s, i, d + 1) == 0 &&
		       jtsc_test_diff(s, i, d) != 0;
	}
	return i >= k && s[i] == s[i - k];
}

/*
 * The largest value each count of the health tests takes over a stream,
 * computed from the definitions, independently of the driver: runs of
 * identical samples, APT references per window, runs of hits and hits per
 * window of each predictor.
 */
struct jtsc_scan {
	unsigned int rct;
	unsigned int apt;
	unsigned int run[JTSC_NR_PREDICTORS];
	unsigned int hits[JTSC_NR_PREDICTORS];
	unsigned int cur_run[JTSC_NR_PREDICTORS];
	unsigned int cur_hits[JTSC_NR_PREDICTORS];
};

static void jtsc_test_scan(const u8 *s, unsigned int n, struct jtsc_scan *sc)
{
	unsigned int i, k, rct = 0, apt = 0;

	memset(sc, 0, sizeof(*sc));
	for (i = 0; i < n; i++) {
		rct = i && s[i] == s[i - 1] ? rct + 1 : 1;
		sc->rct = max(sc->rct, rct);
		if (!(i % JTSC_TEST_APT_WINDOW))
			apt = 0;
		if (s[i] == s[rounddown(i, JTSC_TEST_APT_WINDOW)])
			apt++;
		sc->apt = max(sc->apt, apt);
		if (!(i % JTSC_TEST_PRED_WINDOW))
			memset(sc->cur_hits, 0, sizeof(sc->cur_hits));
		for (k = 0; k < JTSC_NR_PREDICTORS; k++) {
			if (!jtsc_test_hit(s, i, k)) {
				sc->cur_run[k] = 0;
				continue;
			}
			sc->run[k] = max(sc->run[k], ++sc->cur_run[k]);
			sc->hits[k] = max(sc->hits[k], ++sc->cur_hits[k]);
		}
	}
}

enum jtsc_count {
	JTSC_COUNT_RCT,		/* run of identical samples */
	JTSC_COUNT_APT,		/* references in an APT window */
	JTSC_COUNT_RUN,		/* run of hits of one predictor */
	JTSC_COUNT_HITS,	/* hits of one predictor in a window */
};

static const char *const jtsc_count_name[] = {
	[JTSC_COUNT_RCT] = "RCT run",
	[JTSC_COUNT_APT] = "APT count",
	[JTSC_COUNT_RUN] = "predictor run",
	[JTSC_COUNT_HITS] = "predictor hits",
};

static void jtsc_test_cutoffs_of(const struct jtsc_health_params *p,
				 enum jtsc_count count, unsigned int *cutoff,
				 unsigned int *perm_cutoff)
{
	switch (count) {
	case JTSC_COUNT_RCT:
		*cutoff = p->rct_cutoff;
		*perm_cutoff = p->rct_perm_cutoff;
		break;
	case JTSC_COUNT_APT:
		*cutoff = p->apt_cutoff;
		*perm_cutoff = p->apt_perm_cutoff;
		break;
	case JTSC_COUNT_RUN:
		*cutoff = p->run_cutoff;
		*perm_cutoff = p->run_perm_cutoff;
		break;
	case JTSC_COUNT_HITS:
		*cutoff = p->hits_cutoff;
		*perm_cutoff = p->hits_perm_cutoff;
		break;
	}
}

/* The value of @count in @h, as the driver keeps it. */
static unsigned int jtsc_test_count(const struct jtsc_health *h,
				    enum jtsc_count count, unsigned int g)
{
	switch (count) {
	case JTSC_COUNT_RCT:
		return h->rct_run;
	case JTSC_COUNT_APT:
		return h->apt_count;
	case JTSC_COUNT_RUN:
		return h->run[g];
	default:
		return h->hits[g];
	}
}

/* The parameters of @p with every cutoff out of reach. */
static struct jtsc_health_params *
jtsc_test_unlimited(struct kunit *test, const struct jtsc_health_params *p)
{
	struct jtsc_health_params *q = kunit_kmalloc(test, sizeof(*q),
						     GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, q);
	*q = *p;
	q->rct_cutoff = UINT_MAX;
	q->rct_perm_cutoff = UINT_MAX;
	q->apt_cutoff = UINT_MAX;
	q->apt_perm_cutoff = UINT_MAX;
	q->run_cutoff = UINT_MAX;
	q->run_perm_cutoff = UINT_MAX;
	q->hits_cutoff = UINT_MAX;
	q->hits_perm_cutoff = UINT_MAX;
	return q;
}

/*
 * The parameters of @p with the cutoffs of every count but @keep out of
 * reach, where those would otherwise fire first: a run of identical
 * samples is also a run of lag-1 and stuck hits.
 */
static const struct jtsc_health_params *
jtsc_test_isolate(struct kunit *test, const struct jtsc_health_params *p,
		  enum jtsc_count keep)
{
	struct jtsc_health_params *q = jtsc_test_unlimited(test, p);

	switch (keep) {
	case JTSC_COUNT_RCT:
		q->rct_cutoff = p->rct_cutoff;
		q->rct_perm_cutoff = p->rct_perm_cutoff;
		break;
	case JTSC_COUNT_APT:
		q->apt_cutoff = p->apt_cutoff;
		q->apt_perm_cutoff = p->apt_perm_cutoff;
		break;
	case JTSC_COUNT_RUN:
		q->run_cutoff = p->run_cutoff;
		q->run_perm_cutoff = p->run_perm_cutoff;
		break;
	case JTSC_COUNT_HITS:
		q->hits_cutoff = p->hits_cutoff;
		q->hits_perm_cutoff = p->hits_perm_cutoff;
		break;
	}
	return q;
}

/*
 * A fresh state has no history: lag L cannot hit before the sample after
 * the L-th, the stuck predictor before the third, whatever the samples.
 */
static void jtsc_health_history_test(struct kunit *test)
{
	const struct jtsc_source_case *c = test->param_value;
	struct jtsc_health *h;
	unsigned int n, k;

	/* Zeros all along, as the history starts: no cutoff may stop them. */
	h = jtsc_test_health(test, jtsc_test_unlimited(test, jtsc_test_params(c->src)));

	for (n = 1; n <= JTSC_MAX_LAG + 1; n++) {
		KUNIT_ASSERT_EQ(test, jtsc_health_sample(h, 0), JTSC_HEALTH_OK);
		for (k = 1; k <= JTSC_MAX_LAG; k++)
			KUNIT_EXPECT_EQ_MSG(test, h->run[k], k < n ? n - k : 0,
					    "lag %u after %u zeros", k, n);
		KUNIT_EXPECT_EQ_MSG(test, h->run[JTSC_GUESS_STUCK],
				    n > 2 ? n - 2 : 0, "stuck after %u zeros", n);
		KUNIT_EXPECT_EQ(test, h->rct_run, n);
		KUNIT_EXPECT_EQ(test, jtsc_health_hold(h), n > 1 ? n : 0);
	}
}

/* Verdicts other than OK that a stream drew, with their 0-based samples. */
#define JTSC_TEST_VERDICTS	4

struct jtsc_verdicts {
	unsigned int n;
	unsigned int at[JTSC_TEST_VERDICTS];
	enum jtsc_health_result res[JTSC_TEST_VERDICTS];
};

static void jtsc_test_verdict(struct jtsc_verdicts *v, unsigned int at,
			      enum jtsc_health_result res)
{
	if (res == JTSC_HEALTH_OK)
		return;
	if (v->n < JTSC_TEST_VERDICTS) {
		v->at[v->n] = at;
		v->res[v->n] = res;
	}
	v->n++;
}

/* Compares @got with @want and prints both on a mismatch. */
static void jtsc_test_expect_verdicts(struct kunit *test, const char *what,
				      const struct jtsc_verdicts *got,
				      const struct jtsc_verdicts *want)
{
	unsigned int i;

	KUNIT_EXPECT_EQ_MSG(test, got->n, want->n,
			    "%s: got %s at %u, %s at %u; want %s at %u, %s at %u",
			    what,
			    got->n > 0 ? jtsc_test_result(got->res[0]) : "-",
			    got->n > 0 ? got->at[0] : 0,
			    got->n > 1 ? jtsc_test_result(got->res[1]) : "-",
			    got->n > 1 ? got->at[1] : 0,
			    want->n > 0 ? jtsc_test_result(want->res[0]) : "-",
			    want->n > 0 ? want->at[0] : 0,
			    want->n > 1 ? jtsc_test_result(want->res[1]) : "-",
			    want->n > 1 ? want->at[1] : 0);
	for (i = 0; i < min3(got->n, want->n, JTSC_TEST_VERDICTS); i++) {
		KUNIT_EXPECT_EQ_MSG(test, got->res[i], want->res[i],
				    "%s: verdict %u is %s, want %s", what, i,
				    jtsc_test_result(got->res[i]),
				    jtsc_test_result(want->res[i]));
		KUNIT_EXPECT_EQ_MSG(test, got->at[i], want->at[i],
				    "%s: verdict %u (%s) at the wrong sample",
				    what, i, jtsc_test_result(got->res[i]));
	}
}

struct jtsc_cut_case {
	enum jtsc_count count;
	unsigned int guess;	/* the guess the planned samples hit */
	bool perm;		/* toward the cutoff for alpha = 2^-60 */
	int offset;		/* added to that cutoff */
	/* RCT, RUN: the run crosses a window end; APT, HITS: two windows */
	bool across;
	bool isolate;		/* the other counts' cutoffs out of reach */
	const char *desc;
};

static const struct jtsc_cut_case jtsc_cut_cases[] = {
	{ JTSC_COUNT_RCT, 1, false, -1, false, false,
	  "RCT: run of rct_cutoff - 1 passes" },
	{ JTSC_COUNT_RCT, 1, false, 0, false, false,
	  "RCT: run of rct_cutoff fails" },
	{ JTSC_COUNT_RCT, 1, false, 0, true, false,
	  "RCT: run of rct_cutoff across windows fails" },
	{ JTSC_COUNT_RCT, 1, true, -1, false, true,
	  "RCT alone: rct_perm_cutoff - 1 is not permanent" },
	{ JTSC_COUNT_RCT, 1, true, 0, false, true,
	  "RCT alone: rct_perm_cutoff is permanent" },
	{ JTSC_COUNT_APT, JTSC_GUESS_APT, false, -1, false, false,
	  "APT: apt_cutoff - 1 in a window passes" },
	{ JTSC_COUNT_APT, JTSC_GUESS_APT, false, 0, false, false,
	  "APT: apt_cutoff in a window fails" },
	{ JTSC_COUNT_APT, JTSC_GUESS_APT, false, -1, true, false,
	  "APT: apt_cutoff - 1 in two windows passes" },
	{ JTSC_COUNT_APT, JTSC_GUESS_APT, true, -1, false, false,
	  "APT: apt_perm_cutoff - 1 is not permanent" },
	{ JTSC_COUNT_APT, JTSC_GUESS_APT, true, 0, false, false,
	  "APT: apt_perm_cutoff is permanent" },
	{ JTSC_COUNT_RUN, 0, false, -1, false, false,
	  "stuck: run of run_cutoff - 1 passes" },
	{ JTSC_COUNT_RUN, 0, false, 0, false, false,
	  "stuck: run of run_cutoff fails" },
	{ JTSC_COUNT_RUN, 0, false, 0, true, false,
	  "stuck: run of run_cutoff across windows fails" },
	{ JTSC_COUNT_RUN, 0, true, -1, false, false,
	  "stuck: run_perm_cutoff - 1 is not permanent" },
	{ JTSC_COUNT_RUN, 0, true, 0, false, false,
	  "stuck: run_perm_cutoff is permanent" },
	{ JTSC_COUNT_RUN, 2, false, -1, false, false,
	  "lag 2: run of run_cutoff - 1 passes" },
	{ JTSC_COUNT_RUN, 2, false, 0, false, false,
	  "lag 2: run of run_cutoff fails" },
	{ JTSC_COUNT_RUN, 2, false, 0, true, false,
	  "lag 2: run of run_cutoff across windows fails" },
	{ JTSC_COUNT_RUN, 33, false, -1, false, false,
	  "lag 33: run of run_cutoff - 1 passes" },
	{ JTSC_COUNT_RUN, 33, false, 0, false, false,
	  "lag 33: run of run_cutoff fails" },
	{ JTSC_COUNT_RUN, 33, false, 0, true, false,
	  "lag 33: run of run_cutoff across windows fails" },
	{ JTSC_COUNT_RUN, 33, true, -1, false, false,
	  "lag 33: run_perm_cutoff - 1 is not permanent" },
	{ JTSC_COUNT_RUN, 33, true, 0, false, false,
	  "lag 33: run_perm_cutoff is permanent" },
	{ JTSC_COUNT_RUN, 64, false, -1, false, false,
	  "lag 64: run of run_cutoff - 1 passes" },
	{ JTSC_COUNT_RUN, 64, false, 0, false, false,
	  "lag 64: run of run_cutoff fails" },
	{ JTSC_COUNT_RUN, 64, false, 0, true, false,
	  "lag 64: run of run_cutoff across windows fails" },
	{ JTSC_COUNT_RUN, 64, true, -1, false, false,
	  "lag 64: run_perm_cutoff - 1 is not permanent" },
	{ JTSC_COUNT_RUN, 64, true, 0, false, false,
	  "lag 64: run_perm_cutoff is permanent" },
	{ JTSC_COUNT_HITS, 0, false, -1, false, false,
	  "stuck: hits_cutoff - 1 in a window pass" },
	{ JTSC_COUNT_HITS, 0, false, 0, false, false,
	  "stuck: hits_cutoff in a window fail" },
	{ JTSC_COUNT_HITS, 0, false, -1, true, false,
	  "stuck: hits_cutoff - 1 in two windows pass" },
	{ JTSC_COUNT_HITS, 0, true, -1, false, false,
	  "stuck: hits_perm_cutoff - 1 not permanent" },
	{ JTSC_COUNT_HITS, 0, true, 0, false, false,
	  "stuck: hits_perm_cutoff permanent" },
	{ JTSC_COUNT_HITS, 33, false, -1, false, false,
	  "lag 33: hits_cutoff - 1 in a window pass" },
	{ JTSC_COUNT_HITS, 33, false, 0, false, false,
	  "lag 33: hits_cutoff in a window fail" },
	{ JTSC_COUNT_HITS, 33, false, -1, true, false,
	  "lag 33: hits_cutoff - 1 in two windows pass" },
	{ JTSC_COUNT_HITS, 33, true, -1, false, false,
	  "lag 33: hits_perm_cutoff - 1 not permanent" },
	{ JTSC_COUNT_HITS, 33, true, 0, false, false,
	  "lag 33: hits_perm_cutoff permanent" },
	{ JTSC_COUNT_HITS, 64, false, -1, false, false,
	  "lag 64: hits_cutoff - 1 in a window pass" },
	{ JTSC_COUNT_HITS, 64, false, 0, false, false,
	  "lag 64: hits_cutoff in a window fail" },
	{ JTSC_COUNT_HITS, 64, false, -1, true, false,
	  "lag 64: hits_cutoff - 1 in two windows pass" },
	{ JTSC_COUNT_HITS, 64, true, -1, false, false,
	  "lag 64: hits_perm_cutoff - 1 not permanent" },
	{ JTSC_COUNT_HITS, 64, true, 0, false, false,
	  "lag 64: hits_perm_cutoff permanent" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_cut, jtsc_cut_cases, desc);

/* Samples of a cutoff stream: three predictor windows. */
#define JTSC_TEST_CUT_SAMPLES	(JTSC_TEST_STARTUP + 3 * JTSC_TEST_PRED_WINDOW)
/* Where the planned streams start doing what they plan: after startup. */
#define JTSC_TEST_PLAN_AT	JTSC_TEST_STARTUP

/*
 * Marks the planned hits of @c, whose count is to reach @target, in @hit;
 * returns the first sample of the run for RCT and RUN.
 */
static unsigned int jtsc_test_plan(const struct jtsc_cut_case *c,
				   unsigned int target, unsigned long *hit)
{
	unsigned int start, j, w, windows = c->across ? 2 : 1;

	switch (c->count) {
	case JTSC_COUNT_RCT:
	case JTSC_COUNT_RUN:
		/* After the first window, or across the end of the second. */
		start = c->across ? JTSC_TEST_PLAN_AT + JTSC_TEST_PRED_WINDOW - target / 2 :
				    JTSC_TEST_PLAN_AT + 1000;
		/* An RCT run is a miss and target - 1 lag-1 hits. */
		if (c->count == JTSC_COUNT_RCT)
			bitmap_set(hit, start + 1, target - 1);
		else
			bitmap_set(hit, start, target);
		return start;
	case JTSC_COUNT_APT:
		/* The reference opens the window; target - 1 copies follow. */
		for (w = 0; w < windows; w++) {
			start = JTSC_TEST_PLAN_AT + (2 + w) * JTSC_TEST_APT_WINDOW;
			for (j = 1; j < JTSC_TEST_APT_WINDOW; j++)
				if ((j - 1) * (target - 1) % (JTSC_TEST_APT_WINDOW - 1) <
				    target - 1)
					__set_bit(start + j, hit);
		}
		return 0;
	case JTSC_COUNT_HITS:
		/* Spread evenly over the first window after startup, and the next. */
		for (w = 0; w < windows; w++) {
			start = JTSC_TEST_PLAN_AT + w * JTSC_TEST_PRED_WINDOW;
			for (j = 0; j < JTSC_TEST_PRED_WINDOW; j++)
				if (j * target % JTSC_TEST_PRED_WINDOW < target)
					__set_bit(start + j, hit);
		}
		return 0;
	}
	return 0;
}

/*
 * The verdicts the plan @hit must draw: @count as it grows with the
 * planned hits, the intermittent verdict where it reaches @cutoff, the
 * permanent one where it reaches @perm_cutoff.
 */
static void jtsc_test_plan_verdicts(enum jtsc_count count,
				    const unsigned long *hit, unsigned int n,
				    unsigned int cutoff, unsigned int perm_cutoff,
				    struct jtsc_verdicts *want, unsigned int *most)
{
	unsigned int i, cnt = 0;

	*most = 0;
	for (i = 0; i < n; i++) {
		bool h = test_bit(i, hit);

		switch (count) {
		case JTSC_COUNT_RCT:
			cnt = h ? cnt + 1 : 1;
			break;
		case JTSC_COUNT_APT:
			if (!(i % JTSC_TEST_APT_WINDOW))
				cnt = 1;
			else if (h)
				cnt++;
			break;
		case JTSC_COUNT_RUN:
			cnt = h ? cnt + 1 : 0;
			break;
		case JTSC_COUNT_HITS:
			if (!(i % JTSC_TEST_PRED_WINDOW))
				cnt = 0;
			cnt += h;
			break;
		}
		*most = max(*most, cnt);
		if (!h)
			continue;
		if (cnt == perm_cutoff)
			jtsc_test_verdict(want, i, JTSC_HEALTH_PERMANENT);
		else if (cnt == cutoff)
			jtsc_test_verdict(want, i, JTSC_HEALTH_INTERMITTENT);
	}
}

/*
 * Asserts that the independent scan of the built stream @s finds @most for
 * the count under test, and returns whether it finds every other count
 * below its cutoff of @p: whether the stream moves that count alone.
 */
static bool jtsc_test_alone(struct kunit *test, const struct jtsc_cut_case *c,
			    const struct jtsc_health_params *p, const u8 *s,
			    unsigned int n, unsigned int most)
{
	struct jtsc_scan *sc = kunit_kmalloc(test, sizeof(*sc), GFP_KERNEL);
	bool alone = true;
	unsigned int k;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sc);
	jtsc_test_scan(s, n, sc);
	if (c->count == JTSC_COUNT_RCT)
		KUNIT_ASSERT_EQ(test, sc->rct, most);
	else
		alone &= sc->rct < p->rct_cutoff;
	if (c->count == JTSC_COUNT_APT)
		KUNIT_ASSERT_EQ(test, sc->apt, most);
	else
		alone &= sc->apt < p->apt_cutoff;
	for (k = 0; k < JTSC_NR_PREDICTORS; k++) {
		bool mine = k == c->guess;

		if (mine && c->count == JTSC_COUNT_RUN)
			KUNIT_ASSERT_EQ_MSG(test, sc->run[k], most, "predictor %u", k);
		else
			alone &= sc->run[k] < p->run_cutoff;
		if (mine && c->count == JTSC_COUNT_HITS)
			KUNIT_ASSERT_EQ_MSG(test, sc->hits[k], most, "predictor %u", k);
		else
			alone &= sc->hits[k] < p->hits_cutoff;
	}
	return alone;
}

/*
 * At a low credit the APT's cutoff is 1 + W and it cannot fail: a whole
 * window of one value, and the next, draw no APT verdict.
 */
static void jtsc_test_apt_unreachable(struct kunit *test,
				      const struct jtsc_health_params *p)
{
	struct jtsc_health *h;
	unsigned int i;

	h = jtsc_test_health(test, jtsc_test_isolate(test, p, JTSC_COUNT_APT));
	for (i = 0; i < 2 * JTSC_TEST_APT_WINDOW; i++)
		KUNIT_ASSERT_EQ_MSG(test, jtsc_health_sample(h, 0x5a),
				    JTSC_HEALTH_OK, "%s: sample %u", jtsc_test_pname(p), i);
	KUNIT_EXPECT_EQ(test, h->apt_count, JTSC_TEST_APT_WINDOW);
	kunit_info(test, "%s: APT cutoff %u, beyond the window: it cannot fail\n",
		   jtsc_test_pname(p), p->apt_cutoff);
}

/*
 * One count of the health tests taken to its cutoff plus an offset by a
 * built stream in which no other count comes near its own: the driver's
 * verdicts must be exactly the planned ones, the count it keeps must be
 * the cutoff where each falls, and a run must be held while it goes on
 * and let go once it ends. Run for each collector's parameters.
 */
static void jtsc_health_cutoff_test(struct kunit *test)
{
	const struct jtsc_cut_case *c = test->param_value;
	const unsigned int n = JTSC_TEST_CUT_SAMPLES;
	unsigned long *hit = kunit_kcalloc(test, BITS_TO_LONGS(n),
					   sizeof(long), GFP_KERNEL);
	u8 *s = kunit_kmalloc(test, n, GFP_KERNEL);
	enum jtsc_source src;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hit);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		const struct jtsc_health_params *p = jtsc_test_params(src);
		struct jtsc_verdicts got = {}, want = {};
		unsigned int cutoff, perm, target, start, most, i;
		struct jtsc_health *h;

		jtsc_test_cutoffs_of(p, c->count, &cutoff, &perm);
		target = (c->perm ? perm : cutoff) + c->offset;
		/* A predictor window holds at most W hits of one predictor. */
		if (c->count == JTSC_COUNT_HITS && target > JTSC_TEST_PRED_WINDOW) {
			kunit_info(test, "%s: hits target %u beyond the window: it cannot fail\n",
				   jtsc_test_pname(p), target);
			continue;
		}
		/* An APT window holds at most W references. */
		if (c->count == JTSC_COUNT_APT && target > JTSC_TEST_APT_WINDOW) {
			if (cutoff > JTSC_TEST_APT_WINDOW)
				jtsc_test_apt_unreachable(test, p);
			else
				kunit_info(test, "%s: apt_perm_cutoff beyond the window\n",
					   jtsc_test_pname(p));
			continue;
		}
		bitmap_zero(hit, n);
		start = jtsc_test_plan(c, target, hit);
		KUNIT_ASSERT_LE(test, start + target, n);
		KUNIT_ASSERT_TRUE(test, jtsc_test_build(s, n, hit, c->guess,
							0x5eed0001 + src));
		jtsc_test_plan_verdicts(c->count, hit, n, cutoff, perm, &want,
					&most);
		KUNIT_ASSERT_EQ(test, most, target);
		/*
		 * Where this count cannot get there without another one
		 * getting to its own cutoff first (the rows that say so, or a
		 * count near its window at some credit), the others are put
		 * out of reach.
		 */
		if (!jtsc_test_alone(test, c, p, s, n, most) || c->isolate) {
			if (!c->isolate)
				kunit_info(test, "%s: other counts out of reach for this row\n",
					   jtsc_test_pname(p));
			p = jtsc_test_isolate(test, p, c->count);
		}

		h = jtsc_test_health(test, p);
		for (i = 0; i < n; i++) {
			enum jtsc_health_result res = jtsc_health_sample(h, s[i]);
			unsigned int end = start + target - 1;

			jtsc_test_verdict(&got, i, res);
			/* An intermittent failure restarts the startup test. */
			if (res == JTSC_HEALTH_INTERMITTENT)
				KUNIT_EXPECT_EQ(test, h->startup_left,
						JTSC_TEST_STARTUP);
			if (res != JTSC_HEALTH_OK &&
			    (c->count != JTSC_COUNT_HITS ||
			     !jtsc_health_window_closed(h)))
				KUNIT_EXPECT_EQ_MSG(test,
						    jtsc_test_count(h, c->count, c->guess),
						    res == JTSC_HEALTH_PERMANENT ? perm : cutoff,
						    "%s: %s %s at sample %u",
						    jtsc_collectors[src].name,
						    jtsc_count_name[c->count],
						    jtsc_test_result(res), i);
			if (c->count != JTSC_COUNT_RCT && c->count != JTSC_COUNT_RUN)
				continue;
			if (i == end)
				KUNIT_EXPECT_EQ_MSG(test, jtsc_health_hold(h), target,
						    "%s: run not held at its end",
						    jtsc_collectors[src].name);
			if (i == end + 1)
				KUNIT_EXPECT_EQ_MSG(test, jtsc_health_hold(h), 0U,
						    "%s: run held after its end",
						    jtsc_collectors[src].name);
		}
		jtsc_test_expect_verdicts(test, jtsc_collectors[src].name, &got,
					  &want);
	}
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
 * Each stream fails the health tests, wherever it starts: intermittently
 * by the time some predictor has hit run_cutoff samples in a row, and
 * permanently by the time it has hit run_perm_cutoff.
 */
static void jtsc_det_health_test(struct kunit *test)
{
	const struct jtsc_det_case *d = test->param_value;
	unsigned int lead = jtsc_det_lead(d);
	enum jtsc_source src;

	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		const struct jtsc_health_params *p = jtsc_test_params(src);
		struct jtsc_health *h = jtsc_test_health(test, p);
		unsigned int j, first = UINT_MAX, perm = UINT_MAX;
		enum jtsc_health_result res;
		u64 i = 0;

		/* A healthy start, into the middle of a predictor window. */
		KUNIT_ASSERT_EQ(test, jtsc_test_feed_good(h, JTSC_TEST_SEED, &i,
							  JTSC_TEST_STARTUP + 1000,
							  &res),
				JTSC_TEST_STARTUP + 1000);
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

/* ---- LFSR folding ------------------------------------------------------- */

struct jtsc_lfsr_case {
	u64 state;
	u64 in;
	unsigned int nbits;
	u64 expect;
	const char *desc;
};

/* Generated by harness/kunit/lfsr-vectors.py; check-lfsr-vectors.sh diffs. */
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

/* ---- Scripted collectors and a fake counter ----------------------------- */

/*
 * The stream a scripted collector serves: sample i is byte i of the healthy
 * stream @seed, except in the deterministic part (sample i - @det_from of
 * @det, from @det_from on, for @det_len samples or for ever if that is 0)
 * and in the scripted bytes @buf (from @buf_from on, @buf_len of them).
 */
struct jtsc_script {
	u64 seed;
	const struct jtsc_det_case *det;
	u64 det_from;
	u64 det_len;
	const u8 *buf;
	u64 buf_from;
	unsigned int buf_len;
};

/* Sample @i of @s: a pure function, so that tests can model the pool. */
static u8 jtsc_script_sample(const struct jtsc_script *s, u64 i)
{
	if (s->det && i >= s->det_from &&
	    (!s->det_len || i - s->det_from < s->det_len))
		return jtsc_det_sample(s->det, i - s->det_from);
	if (s->buf && i >= s->buf_from && i - s->buf_from < s->buf_len)
		return s->buf[i - s->buf_from];
	return jtsc_test_byte(s->seed, i);
}

/*
 * The pool words @rng makes of the samples @s serves from @from on, @n of
 * them, from a wiped LFSR: eight samples to each 64-bit input, the first in
 * its lowest byte, samples_per_word samples to a word.
 */
static void jtsc_test_model_words(const struct jtsc_script *s, u64 from,
				  unsigned int spw, u64 *words, unsigned int n)
{
	unsigned int w, b, k;
	u64 lfsr = 0;

	for (w = 0; w < n; w++) {
		for (b = 0; b < spw; b += sizeof(u64)) {
			u64 in = 0;

			for (k = 0; k < sizeof(u64); k++)
				in |= (u64)jtsc_script_sample(s, from + b + k) << (8 * k);
			lfsr = jtsc_lfsr_fold(lfsr, in, 64);
		}
		words[w] = lfsr;
		from += spw;
	}
}

enum jtsc_fake_counter {
	JTSC_FAKE_REAL,		/* no stub: the real cycle counter */
	JTSC_FAKE_FINE,		/* fast, odd steps */
	JTSC_FAKE_CONSTANT,
	JTSC_FAKE_COARSE,	/* steps of 1000, on every other read */
	JTSC_FAKE_COARSE16,	/* 16 or 32, on half the reads */
	JTSC_FAKE_SLOW,		/* fine steps, 2 us per read */
};

struct jtsc_fake_src {
	struct jtsc_script script;
	int err;		/* returned instead of samples, if not 0 */
	u64 taken;		/* samples served */
	struct jtsc_buf *buf;	/* the buffer the last call was given */
	/*
	 * Once @kill_at samples are served, the call after marks the
	 * collector dead in @kill, as another instance of the group would.
	 */
	struct jtsc_group *kill;
	u64 kill_at;
};

/* The state behind the stubs; test->priv points here. */
struct jtsc_fake {
	enum jtsc_fake_counter counter;
	u64 now;
	u64 prng;
	struct jtsc_fake_src src[JTSC_NR_SOURCES];
	/*
	 * With @rng set, each collector call notes the words @rng has released
	 * so far (jtsc_test_released()): the most in @max_released, and in
	 * @snap_released those of the call that starts at sample @snap_at.
	 */
	struct jtsc_rng *rng;
	u64 max_released;
	u64 snap_at;
	u64 snap_released;
	bool snapped;
	/* The group jtsc_kcapi_group() returns, once its stub is active. */
	struct jtsc_group *group;
};

static struct jtsc_fake *jtsc_fake(void)
{
	return kunit_get_current_test()->priv;
}

/*
 * Pool words @rng has released since it was set up: the tested ones still
 * in the pool and the ones handed out, which its credit counts.
 */
static u64 jtsc_test_released(const struct jtsc_rng *rng)
{
	return rng->tested + div_u64(rng->stats[rng->active].credited,
				     jtsc_test_word_credit(rng->active));
}

static void jtsc_fake_watch(struct jtsc_fake *f, u64 at)
{
	u64 released = jtsc_test_released(f->rng);

	f->max_released = max(f->max_released, released);
	if (at == f->snap_at) {
		f->snap_released = released;
		f->snapped = true;
	}
}

static u64 jtsc_fake_read_counter(void)
{
	struct jtsc_fake *f = jtsc_fake();
	u64 r = jtsc_test_prng(&f->prng);

	switch (f->counter) {
	case JTSC_FAKE_CONSTANT:
		return 123456789;
	/*
	 * Coarse: it moves in steps longer than it advances over one read on
	 * average, so it cannot time its own read; but not stuck either.
	 */
	case JTSC_FAKE_COARSE:
		f->now += r >> 63 ? 1000 : 0;
		break;
	case JTSC_FAKE_COARSE16:
		f->now += r >> 63 ? 16 * (1 + ((r >> 62) & 1)) : 0;
		break;
	case JTSC_FAKE_SLOW:
		ndelay(2000);
		fallthrough;
	default:
		f->now += 20 + (r & 15);
		break;
	}
	return f->now;
}

static int jtsc_fake_collect(enum jtsc_source src, u8 *samples,
			     unsigned int n, struct jtsc_buf *buf)
{
	struct jtsc_fake *f = jtsc_fake();
	struct jtsc_fake_src *c = &f->src[src];
	unsigned int i;

	c->buf = buf;
	if (c->err)
		return c->err;
	if (c->kill && c->taken >= c->kill_at) {
		set_bit(src, &c->kill->dead);
		c->kill = NULL;
	}
	if (f->rng)
		jtsc_fake_watch(f, c->taken);
	for (i = 0; i < n; i++)
		samples[i] = jtsc_script_sample(&c->script, c->taken + i);
	c->taken += n;
	return 0;
}

static int jtsc_fake_spec_collect(u8 *samples, unsigned int n, struct jtsc_buf *buf)
{
	return jtsc_fake_collect(JTSC_SRC_SPEC, samples, n, buf);
}

static int jtsc_fake_timer_collect(u8 *samples, unsigned int n, struct jtsc_buf *buf)
{
	return jtsc_fake_collect(JTSC_SRC_TIMER, samples, n, buf);
}

/*
 * Routes both collectors of this thread, and the counter unless it is
 * JTSC_FAKE_REAL, to the fakes; both collectors serve healthy streams.
 */
static struct jtsc_fake *jtsc_fake_start(struct kunit *test,
					 enum jtsc_fake_counter counter)
{
	struct jtsc_fake *f = test->priv;
	enum jtsc_source src;

	memset(f, 0, sizeof(*f));
	f->counter = counter;
	f->now = 1000000;
	f->prng = 0x5eed0007;
	for (src = 0; src < JTSC_NR_SOURCES; src++)
		f->src[src].script.seed = JTSC_TEST_SEED + src;
	if (counter != JTSC_FAKE_REAL)
		kunit_activate_static_stub(test, jtsc_read_counter,
					   jtsc_fake_read_counter);
	kunit_activate_static_stub(test, jtsc_spec_collect,
				   jtsc_fake_spec_collect);
	kunit_activate_static_stub(test, jtsc_timer_collect,
				   jtsc_fake_timer_collect);
	return f;
}

/*
 * Every counter read from a KUnit thread goes through the static-stub
 * lookup in jtsc_read_counter(). Under KASAN and lockdep that lookup alone
 * can take longer than the 1 us per read that jtsc_counter_check() allows,
 * and then no instance can be set up from a test. Such rows skip, saying
 * so, rather than fail where the check cannot pass for that reason.
 */
static u64 jtsc_test_counter_ns(void)
{
	u64 ns, fastest = U64_MAX;
	unsigned int batch, i;

	/* As the check does: the fastest of 16 batches of 64 reads. */
	for (batch = 0; batch < 16; batch++) {
		ns = ktime_get_ns();
		for (i = 0; i < 64; i++)
			jtsc_read_counter();
		fastest = min(fastest, ktime_get_ns() - ns);
	}
	return fastest / 64;
}

/* The check's limit of 1000 ns per read, with a margin for a busy host. */
#define JTSC_TEST_FAST_READ_NS	750

static void jtsc_test_need_fast_counter(struct kunit *test)
{
	u64 ns = jtsc_test_counter_ns();

	if (ns > JTSC_TEST_FAST_READ_NS)
		kunit_skip(test, "stubbed counter reads take %llu ns here, over 1000 with margin",
			   ns);
}

KUNIT_DEFINE_ACTION_WRAPPER(jtsc_test_destroy, jtsc_rng_destroy,
			    struct jtsc_rng *);

/*
 * The counter check has rows of its own. Instances on scripted collectors
 * pass it by this stub: what they test does not depend on the machine's
 * counter, and under KASAN every stubbed counter read is too slow for it.
 */
static int jtsc_test_counter_fit(void)
{
	return 0;
}

KUNIT_DEFINE_ACTION_WRAPPER(jtsc_test_group_destroy, jtsc_group_destroy,
			    struct jtsc_group *);

/*
 * A group of @collectors with @nr_shards shards, on whatever the stubs are
 * now, its timer collector held at the floor step (jtsc_test_params()); the
 * result of jtsc_group_init() in *@ret.
 */
static struct jtsc_group *jtsc_test_group_init(struct kunit *test,
					       unsigned int collectors,
					       unsigned int nr_shards, int *ret)
{
	struct jtsc_group *g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, g);
	*ret = jtsc_group_init(g, collectors, nr_shards);
	/* Step 0 in the generation tagged by jtsc_group_init(). */
	atomic_set(&g->step[JTSC_SRC_TIMER], atomic_read(&g->step[JTSC_SRC_TIMER]) & ~0xff);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							jtsc_test_group_destroy,
							g), 0);
	return g;
}

/*
 * An instance on the fakes in a group of its own, of @collectors, set up
 * with jtsc_rng_init(); the first error of the two in *@ret.
 */
static struct jtsc_rng *jtsc_test_rng_init(struct kunit *test,
					   unsigned int collectors, int *ret)
{
	struct jtsc_rng *rng = kunit_kzalloc(test, sizeof(*rng), GFP_KERNEL);
	struct jtsc_group *g;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rng);
	kunit_activate_static_stub(test, jtsc_counter_check,
				   jtsc_test_counter_fit);
	g = jtsc_test_group_init(test, collectors, 0, ret);
	/* Destroyed before its group: actions run last in, first out. */
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							jtsc_test_destroy,
							rng), 0);
	rng->group = g;
	if (!*ret)
		*ret = jtsc_rng_init(rng, g);
	return rng;
}

/* The same, when it must succeed. */
static struct jtsc_rng *jtsc_test_rng(struct kunit *test,
				      unsigned int collectors)
{
	struct jtsc_rng *rng;
	int ret;

	rng = jtsc_test_rng_init(test, collectors, &ret);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "jtsc_rng_init(%#x)", collectors);
	return rng;
}

/* Destroys @rng now, rather than when the test ends: it holds 8 MiB. */
static void jtsc_test_rng_put(struct kunit *test, struct jtsc_rng *rng)
{
	kunit_release_action(test, jtsc_test_destroy, rng);
}

/* ---- Counter check and instance setup ----------------------------------- */

struct jtsc_counter_case {
	enum jtsc_fake_counter counter;
	int ret;
	const char *desc;
};

static const struct jtsc_counter_case jtsc_counter_cases[] = {
	{ JTSC_FAKE_REAL, 0, "real cycle counter is accepted" },
	{ JTSC_FAKE_FINE, 0, "fine, fast counter is accepted" },
	{ JTSC_FAKE_CONSTANT, -ENODEV, "constant counter is rejected" },
	{ JTSC_FAKE_COARSE, -ENODEV, "counter in steps of 1000 is rejected" },
	{ JTSC_FAKE_COARSE16, -ENODEV, "counter in multiples of 16 is rejected" },
	{ JTSC_FAKE_SLOW, -ENODEV, "counter taking 2 us per read is rejected" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_counter, jtsc_counter_cases, desc);

static void jtsc_counter_check_test(struct kunit *test)
{
	const struct jtsc_counter_case *c = test->param_value;
	u64 ns;
	int ret;

	jtsc_fake_start(test, c->counter);
	if (!c->ret)
		jtsc_test_need_fast_counter(test);
	ns = ktime_get_ns();
	ret = jtsc_counter_check();
	ns = ktime_get_ns() - ns;
	KUNIT_EXPECT_EQ_MSG(test, ret, c->ret, "check took %llu ns", ns);
	kunit_info(test, "counter check: %d in %llu ns\n", ret, ns);
}

enum jtsc_fake_data {
	JTSC_DATA_GOOD,		/* the healthy stream */
	JTSC_DATA_STUCK,	/* delta 0 from the first sample on */
	JTSC_DATA_ABSENT,	/* the collector reports -ENODEV */
};

struct jtsc_init_case {
	enum jtsc_fake_counter counter;
	enum jtsc_fake_data spec;
	enum jtsc_fake_data timer;
	unsigned int request;
	int ret;
	unsigned int verified;	/* collectors that passed a startup test */
	unsigned int dead;	/* collectors that failed theirs */
	const char *desc;
};

static const struct jtsc_init_case jtsc_init_cases[] = {
	{ JTSC_FAKE_FINE, JTSC_DATA_GOOD, JTSC_DATA_GOOD, JTSC_COLLECT_ALL,
	  0, JTSC_COLLECT_SPEC, 0, "both healthy: the speculative one starts, the timer waits" },
	{ JTSC_FAKE_FINE, JTSC_DATA_GOOD, JTSC_DATA_GOOD, JTSC_COLLECT_SPEC,
	  0, JTSC_COLLECT_SPEC, 0, "only the speculative collector requested" },
	{ JTSC_FAKE_FINE, JTSC_DATA_GOOD, JTSC_DATA_GOOD, JTSC_COLLECT_TIMER,
	  0, JTSC_COLLECT_TIMER, 0, "only the timer collector requested" },
	{ JTSC_FAKE_FINE, JTSC_DATA_GOOD, JTSC_DATA_STUCK, JTSC_COLLECT_ALL,
	  0, JTSC_COLLECT_SPEC, 0, "timer stuck: not run while the speculative one serves" },
	{ JTSC_FAKE_FINE, JTSC_DATA_ABSENT, JTSC_DATA_GOOD, JTSC_COLLECT_ALL,
	  0, JTSC_COLLECT_TIMER, JTSC_COLLECT_SPEC, "no speculative collector on this CPU" },
	{ JTSC_FAKE_FINE, JTSC_DATA_STUCK, JTSC_DATA_GOOD, JTSC_COLLECT_SPEC,
	  -ENODEV, 0, JTSC_COLLECT_SPEC, "the only requested collector is stuck" },
	{ JTSC_FAKE_FINE, JTSC_DATA_STUCK, JTSC_DATA_STUCK, JTSC_COLLECT_ALL,
	  -ENODEV, 0, JTSC_COLLECT_ALL, "both collectors stuck" },
	{ JTSC_FAKE_FINE, JTSC_DATA_GOOD, JTSC_DATA_GOOD, 0,
	  -ENODEV, 0, 0, "no collector requested" },
	{ JTSC_FAKE_CONSTANT, JTSC_DATA_GOOD, JTSC_DATA_GOOD, JTSC_COLLECT_ALL,
	  -ENODEV, 0, 0, "constant counter: no collector left" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_init, jtsc_init_cases, desc);

static const struct jtsc_det_case jtsc_det_stuck = {
	JTSC_DET_CONST, 0, 0, 0, "delta 0"
};

static void jtsc_fake_data(struct jtsc_fake_src *c, enum jtsc_fake_data data)
{
	if (data == JTSC_DATA_STUCK)
		c->script.det = &jtsc_det_stuck;
	if (data == JTSC_DATA_ABSENT)
		c->err = -ENODEV;
}

/*
 * The counter check, then the startup test of the first collector asked for
 * and, if that one fails, of the next: a collector that fails either is
 * dead for the group, no collector left is -ENODEV, and one that is not
 * needed is not run. A healthy collector's startup test takes three
 * predictor windows of samples; the speculative one gets the instance's
 * buffer.
 */
static void jtsc_rng_init_test(struct kunit *test)
{
	const struct jtsc_init_case *c = test->param_value;
	struct jtsc_rng *rng = kunit_kzalloc(test, sizeof(*rng), GFP_KERNEL);
	enum jtsc_source src;
	struct jtsc_group *g;
	struct jtsc_fake *f;
	int ret;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rng);
	f = jtsc_fake_start(test, c->counter);
	jtsc_fake_data(&f->src[JTSC_SRC_SPEC], c->spec);
	jtsc_fake_data(&f->src[JTSC_SRC_TIMER], c->timer);
	/*
	 * These rows are about the collectors. Where a fine counter cannot
	 * pass the check only because stubbed reads are slow here, the check
	 * is stubbed to pass; its own rows above cover it.
	 */
	if (c->counter == JTSC_FAKE_FINE &&
	    jtsc_test_counter_ns() > JTSC_TEST_FAST_READ_NS) {
		kunit_info(test, "slow stubbed counter reads: counter check stubbed to pass\n");
		kunit_activate_static_stub(test, jtsc_counter_check,
					   jtsc_test_counter_fit);
	}
	g = jtsc_test_group_init(test, c->request, 0, &ret);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							jtsc_test_destroy,
							rng), 0);
	if (!ret)
		ret = jtsc_rng_init(rng, g);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	KUNIT_EXPECT_EQ(test, g->verified, (unsigned long)c->verified);
	KUNIT_EXPECT_EQ(test, g->dead, (unsigned long)c->dead);
	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		u64 taken = f->src[src].taken;

		/* Only a collector that was tried, after a fit counter, runs. */
		if (!((c->verified | c->dead) & BIT(src)) || c->counter != JTSC_FAKE_FINE)
			KUNIT_EXPECT_EQ_MSG(test, taken, 0ULL, "%s",
					    jtsc_collectors[src].name);
		if (!(c->verified & BIT(src)))
			continue;
		KUNIT_EXPECT_EQ_MSG(test, taken, (u64)JTSC_TEST_STARTUP, "%s",
				    jtsc_collectors[src].name);
		KUNIT_EXPECT_EQ(test, rng->stats[src].samples, taken);
	}
	if (IS_ENABLED(CONFIG_X86_64) && (c->verified & JTSC_COLLECT_SPEC)) {
		KUNIT_EXPECT_NOT_NULL(test, rng->buf.mem);
		KUNIT_EXPECT_PTR_EQ(test, f->src[JTSC_SRC_SPEC].buf, &rng->buf);
	} else {
		KUNIT_EXPECT_NULL(test, rng->buf.mem);
	}
	if (ret)
		return;
	KUNIT_EXPECT_TRUE(test, rng->started);
	KUNIT_EXPECT_FALSE(test, rng->failed);
	KUNIT_EXPECT_EQ(test, rng->active, c->verified & JTSC_COLLECT_SPEC ?
			JTSC_SRC_SPEC : JTSC_SRC_TIMER);
	KUNIT_EXPECT_EQ(test, rng->tested, 0U);
	KUNIT_EXPECT_EQ(test, rng->pending, 0U);
}

/*
 * Each deterministic stream is refused by the startup test of either
 * collector, from its first sample or from the middle of the startup
 * window: jtsc_rng_init() of that collector alone is -ENODEV, before the
 * startup window is over; with both, the other collector serves.
 */
static void jtsc_det_startup_test(struct kunit *test)
{
	static const u64 starts[] = { 0, JTSC_TEST_STARTUP / 2 };
	const struct jtsc_det_case *d = test->param_value;
	enum jtsc_source src, other;
	struct jtsc_rng *rng;
	struct jtsc_fake *f;
	unsigned int s;
	int ret;

	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		other = src == JTSC_SRC_SPEC ? JTSC_SRC_TIMER : JTSC_SRC_SPEC;
		for (s = 0; s < ARRAY_SIZE(starts); s++) {
			f = jtsc_fake_start(test, JTSC_FAKE_REAL);
			f->src[src].script.det = d;
			f->src[src].script.det_from = starts[s];
			rng = jtsc_test_rng_init(test, BIT(src), &ret);
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENODEV, "%s from sample %llu",
					    jtsc_collectors[src].name, starts[s]);
			KUNIT_EXPECT_EQ(test, rng->group->verified, 0UL);
			KUNIT_EXPECT_NULL(test, rng->buf.mem);
			KUNIT_EXPECT_LE_MSG(test, f->src[src].taken,
					    (u64)JTSC_TEST_STARTUP,
					    "%s from sample %llu: refused late",
					    jtsc_collectors[src].name, starts[s]);
			jtsc_test_rng_put(test, rng);

			f = jtsc_fake_start(test, JTSC_FAKE_REAL);
			f->src[src].script.det = d;
			f->src[src].script.det_from = starts[s];
			rng = jtsc_test_rng_init(test, JTSC_COLLECT_ALL, &ret);
			KUNIT_EXPECT_EQ(test, ret, 0);
			KUNIT_EXPECT_EQ_MSG(test, rng->group->verified, BIT(other),
					    "%s from sample %llu",
					    jtsc_collectors[src].name, starts[s]);
			/* The timer collector is not run while the other serves. */
			KUNIT_EXPECT_EQ(test, rng->group->dead,
					src == JTSC_SRC_SPEC ? BIT(src) : 0UL);
			KUNIT_EXPECT_EQ(test, rng->active, other);
			jtsc_test_rng_put(test, rng);
		}
	}
}

/* ---- The runtime estimate: sources of known min-entropy ----------------- */

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
#define JTSC_KNOWN_LEN		(JTSC_TEST_STARTUP + 8 * JTSC_TEST_PRED_WINDOW)

static void jtsc_known_fill(const struct jtsc_known_case *k, u8 *s, unsigned int len,
			    u64 seed)
{
	u8 blocks[64][16];
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
 * Through the real startup test and generate path, on each collector: the
 * credit the estimate of the stream allows is at most half of its
 * min-entropy, or the collector is refused by its estimate, as it must be
 * where half of its min-entropy is below the ladder's floor. An output
 * block is credited what that step's words carry.
 */
static void jtsc_known_entropy_test(struct kunit *test)
{
	const struct jtsc_known_case *k = test->param_value;
	bool below_floor = k->h_milli * 256 < 2000 * jtsc_ladder[0].credit;
	u8 *s = kunit_kmalloc(test, JTSC_KNOWN_LEN, GFP_KERNEL);
	struct jtsc_rng *rng = kunit_kzalloc(test, sizeof(*rng), GFP_KERNEL);
	struct jtsc_group *g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	u8 block[SHA256_DIGEST_SIZE];
	enum jtsc_source src;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rng);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, g);
	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		const char *name = jtsc_collectors[src].name;
		const struct jtsc_health_params *p;
		struct jtsc_fake *f;
		unsigned int word;
		int ret;

		jtsc_known_fill(k, s, JTSC_KNOWN_LEN, 0x6b6e0000 + src);
		f = jtsc_fake_start(test, JTSC_FAKE_REAL);
		f->src[src].script.buf = s;
		f->src[src].script.buf_len = JTSC_KNOWN_LEN;
		kunit_activate_static_stub(test, jtsc_counter_check, jtsc_test_counter_fit);
		/* A group of its own: no step set by an earlier estimate. */
		KUNIT_ASSERT_EQ(test, jtsc_group_init(g, BIT(src), 0), 0);
		ret = jtsc_rng_init(rng, g);
		KUNIT_EXPECT_EQ_MSG(test, rng->stats[src].estimates, 1ULL, "%s", name);
		if (ret || below_floor) {
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENODEV, "%s: not refused", name);
			KUNIT_EXPECT_EQ_MSG(test, rng->stats[src].refused, 1ULL,
					    "%s: not refused by its estimate", name);
		} else {
			p = rng->health[src].params;
			word = p->credit * p->samples_per_word;
			kunit_info(test, "%s: estimate %llu/1000 bit, credit %u/256 bit\n",
				   name, (rng->stats[src].h_min * 1000) >> 32, p->credit);
			/* credit / 256 <= h / 2 */
			KUNIT_EXPECT_LE_MSG(test, p->credit * 2000, k->h_milli * 256,
					    "%s: credit %u/256 bit for %u/1000 bit",
					    name, p->credit, k->h_milli);
			KUNIT_EXPECT_EQ(test, jtsc_rng_generate(rng, block, sizeof(block)), 0);
			KUNIT_EXPECT_EQ(test, rng->stats[src].credited,
					(u64)DIV_ROUND_UP(JTSC_TEST_BLOCK_CREDIT, word) * word);
		}
		jtsc_rng_destroy(rng);
		jtsc_group_destroy(g);
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

/* Rounds of jtsc_step_kept_test: readers opening, reading, closing. */
#define JTSC_TEST_ROUNDS	32
/* Samples a round takes at most: a startup test and two windows. */
#define JTSC_TEST_ROUND_SAMPLES	(JTSC_TEST_STARTUP + 2 * JTSC_TEST_PRED_WINDOW)

/*
 * The group's step for a collector is the first startup test's of the
 * machine generation, and no reader can move it: instance after instance
 * started on the group, as AF_ALG readers opening and closing sockets
 * make, runs its startup test at that step without an estimate of its
 * own, though its samples (16 values, 4 bits each) would estimate a lower
 * one, and the collector stays alive. A new generation estimates again.
 */
static void jtsc_step_kept_test(struct kunit *test)
{
	const size_t len = (JTSC_TEST_ROUNDS + 2) * JTSC_TEST_ROUND_SAMPLES;
	u64 words[JITTER_TSC_PULL_MAX / sizeof(u64)];
	const struct jtsc_health_params *p;
	struct jtsc_rng *rng, *other;
	struct jtsc_fake *f;
	unsigned int i;
	u8 *low;
	int step;

	f = jtsc_fake_start(test, JTSC_FAKE_REAL);
	rng = jtsc_test_rng(test, JTSC_COLLECT_SPEC);
	KUNIT_ASSERT_GT(test, jtsc_rng_pull(rng, words, sizeof(words)), 0);
	p = rng->health[JTSC_SRC_SPEC].params;
	step = atomic_read(&rng->group->step[JTSC_SRC_SPEC]);
	KUNIT_ASSERT_EQ(test, step & 0xff, (int)(p - jtsc_ladder));
	KUNIT_EXPECT_EQ(test, rng->stats[JTSC_SRC_SPEC].estimates, 1ULL);

	low = kunit_kmalloc(test, len, GFP_KERNEL);
	other = kunit_kzalloc(test, sizeof(*other), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, low);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, other);
	for (i = 0; i < len; i++)
		low[i] = jtsc_test_byte(JTSC_TEST_SEED, i) & 15;
	f->src[JTSC_SRC_SPEC].script.buf = low;
	f->src[JTSC_SRC_SPEC].script.buf_from = f->src[JTSC_SRC_SPEC].taken;
	f->src[JTSC_SRC_SPEC].script.buf_len = len;
	for (i = 0; i < JTSC_TEST_ROUNDS; i++) {
		KUNIT_ASSERT_EQ(test, jtsc_rng_init(other, rng->group), 0);
		KUNIT_EXPECT_GT_MSG(test, jtsc_rng_pull(other, words, sizeof(words)), 0,
				    "round %u", i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, other->health[JTSC_SRC_SPEC].params, p,
					"round %u", i);
		KUNIT_EXPECT_EQ_MSG(test, other->stats[JTSC_SRC_SPEC].estimates, 0ULL,
				    "round %u", i);
		jtsc_rng_destroy(other);
		memset(other, 0, sizeof(*other));
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&rng->group->step[JTSC_SRC_SPEC]), step);
	KUNIT_EXPECT_EQ(test, rng->group->dead, 0UL);

	/* A new generation: the next startup test estimates the 4-bit samples. */
	jtsc_machine_changed();
	KUNIT_EXPECT_GT(test, jtsc_rng_pull(rng, words, sizeof(words)), 0);
	KUNIT_EXPECT_EQ(test, rng->stats[JTSC_SRC_SPEC].estimates, 2ULL);
	KUNIT_EXPECT_LT(test, (int)(rng->health[JTSC_SRC_SPEC].params - jtsc_ladder), step & 0xff);
}

/* ---- The pool and the output -------------------------------------------- */

/* Raw samples behind the output that the model test compares. */
#define JTSC_TEST_MODEL_SAMPLES		SZ_2M

/*
 * Each output block is SHA-256 over the next block's worth of pool words,
 * in order: up to 64 KiB of output (from at most JTSC_TEST_MODEL_SAMPLES
 * fixed-seed samples) equals the model block for block, so no word is used
 * twice or skipped within a request. A request that ends inside a block
 * drops the rest of it; the next one drops the words left from before it
 * beyond what its first block may use (jtsc_test_stale_dropped()).
 */
static void jtsc_output_model_test(struct kunit *test)
{
	const struct jtsc_source_case *c = test->param_value;
	const unsigned int wpb = jtsc_test_block_words(c->src);
	unsigned int spw = jtsc_test_params(c->src)->samples_per_word;
	const unsigned int blocks = min(SZ_64K / SHA256_DIGEST_SIZE,
					JTSC_TEST_MODEL_SAMPLES / (wpb * spw));
	const unsigned int len = blocks * SHA256_DIGEST_SIZE;
	const unsigned int nw = (blocks + 1) * wpb + JTSC_POOL_WORDS;
	u64 *words = kunit_kmalloc_array(test, nw, sizeof(u64), GFP_KERNEL);
	u8 *out = kunit_kmalloc(test, len, GFP_KERNEL);
	u8 block[SHA256_DIGEST_SIZE];
	unsigned int i, dropped;
	struct jtsc_rng *rng;
	struct jtsc_fake *f;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, words);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, out);
	f = jtsc_fake_start(test, JTSC_FAKE_REAL);
	rng = jtsc_test_rng(test, BIT(c->src));
	jtsc_test_model_words(&f->src[c->src].script, JTSC_TEST_STARTUP, spw,
			      words, nw);

	/* One byte takes a whole block: the next request starts a new one. */
	KUNIT_ASSERT_EQ(test, jtsc_rng_generate(rng, out, 1), 0);
	sha256((const u8 *)words, wpb * sizeof(u64), block);
	KUNIT_EXPECT_EQ(test, out[0], block[0]);

	dropped = jtsc_test_stale_dropped(c->src, rng->tested + rng->pending);
	KUNIT_ASSERT_LE(test, dropped, (unsigned int)JTSC_POOL_WORDS);
	KUNIT_ASSERT_EQ(test, jtsc_rng_generate(rng, out, len), 0);
	for (i = 0; i < blocks; i++) {
		sha256((const u8 *)(words + (i + 1) * wpb + dropped), wpb * sizeof(u64),
		       block);
		KUNIT_EXPECT_MEMEQ_MSG(test, out + i * SHA256_DIGEST_SIZE, block,
				       SHA256_DIGEST_SIZE, "block %u", i);
		if (test->status == KUNIT_FAILURE)
			break;
	}
	KUNIT_EXPECT_EQ(test, rng->stats[c->src].credited,
			(u64)(blocks + 1) * wpb * jtsc_test_word_credit(c->src));
	kunit_info(test, "%u blocks equal the model\n", blocks);
}

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

/*
 * The registered instance draws on the speculative collector where there is
 * one (x86-64) and on the timer collector alone elsewhere: a few hundred
 * bytes a second there under QEMU's emulation, so the tests through the
 * crypto API read less, not to take minutes.
 */
static bool jtsc_test_timer_only(void)
{
	return !IS_ENABLED(CONFIG_X86_64);
}

/* The same through the crypto API, from the real collectors: no stubs. */
static void jtsc_crypto_sizes_test(struct kunit *test)
{
	const struct jtsc_size_case *c = test->param_value;
	struct crypto_rng *tfm;

	if (jtsc_test_timer_only() && c->len > 64)
		kunit_skip(test, "timer collector only: too slow for %u bytes", c->len);
	tfm = crypto_alloc_rng("jitter_tsc", 0, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tfm);
	jtsc_test_sizes(test, c->len, tfm, "crypto API");
	crypto_free_rng(tfm);
}

/* ---- Failures in operation ---------------------------------------------- */

/* Calls of generate or pull that a deterministic stream may take to die. */
#define JTSC_TEST_MAX_CALLS	16

/*
 * One instance of collector @src on the healthy stream, switched to the
 * deterministic stream @d @k samples before the end of a predictor window,
 * read by generate (4096 bytes a call) or by @pull (JITTER_TSC_PULL_MAX).
 * From the switch on, the instance may still release the words it had made
 * of healthy samples, never one that holds a sample of @d; the first error
 * is -EAGAIN or -EFAULT and returns nothing (generate's output stays zero,
 * pull's buffer untouched), nothing is credited after it, and in a few
 * calls the instance is dead.
 */
static void jtsc_test_det_run(struct kunit *test,
			      const struct jtsc_det_case *d,
			      enum jtsc_source src, unsigned int k, bool pull,
			      u8 *buf)
{
	unsigned int spw = jtsc_test_params(src)->samples_per_word;
	unsigned int wc = jtsc_test_word_credit(src);
	const unsigned int len = pull ? JITTER_TSC_PULL_MAX : SZ_4K;
	const char *api = pull ? "pull" : "generate";
	u64 taken, det_from, healthy, rel0, credited = 0;
	unsigned int calls, errors = 0;
	struct jtsc_rng *rng;
	struct jtsc_fake *f;
	int ret;

	f = jtsc_fake_start(test, JTSC_FAKE_REAL);
	rng = jtsc_test_rng(test, BIT(src));
	KUNIT_ASSERT_EQ(test, rng->active, src);
	/* A healthy start: output, and tested words left. */
	ret = pull ? jtsc_rng_pull(rng, buf, len) :
		     jtsc_rng_generate(rng, buf, SHA256_DIGEST_SIZE);
	KUNIT_ASSERT_EQ(test, ret, pull ? (int)(len / sizeof(u64) * wc) : 0);

	taken = f->src[src].taken;
	det_from = roundup(taken + k, JTSC_TEST_PRED_WINDOW) - k;
	/* Words still to come of healthy samples, made or to be made. */
	healthy = rng->pending + div_u64(det_from - taken, spw);
	rel0 = jtsc_test_released(rng);
	f->src[src].script.det = d;
	f->src[src].script.det_from = det_from;
	f->rng = rng;
	f->max_released = rel0;
	f->snap_at = U64_MAX;

	for (calls = 0; calls < JTSC_TEST_MAX_CALLS; calls++) {
		memset(buf, pull ? JTSC_TEST_CANARY : 0, len);
		ret = pull ? jtsc_rng_pull(rng, buf, len) :
			     jtsc_rng_generate(rng, buf, len);
		f->max_released = max(f->max_released, jtsc_test_released(rng));
		if (ret >= 0) {
			KUNIT_EXPECT_EQ_MSG(test, errors, 0U,
					    "%s, %s, %u before a window end: %s %u returned %d after an error",
					    d->desc, jtsc_collectors[src].name, k,
					    api, calls, ret);
			continue;
		}
		if (!errors++)
			credited = rng->stats[src].credited;
		KUNIT_EXPECT_TRUE_MSG(test, ret == -EAGAIN || ret == -EFAULT,
				      "%s %u returned %d", api, calls, ret);
		KUNIT_EXPECT_TRUE_MSG(test, jtsc_test_all(buf, len, pull ?
							  JTSC_TEST_CANARY : 0),
				      "%s, %s, %u before a window end: %s %u returned %d and data",
				      d->desc, jtsc_collectors[src].name, k, api,
				      calls, ret);
		if (ret == -EFAULT)
			break;
	}
	f->rng = NULL;
	KUNIT_EXPECT_EQ_MSG(test, ret, -EFAULT,
			    "%s, %s, %u before a window end: alive after %u %s calls",
			    d->desc, jtsc_collectors[src].name, k, calls, api);
	KUNIT_EXPECT_LE_MSG(test, f->max_released - rel0, healthy,
			    "%s, %s, %u before a window end, %s: words of deterministic samples released",
			    d->desc, jtsc_collectors[src].name, k, api);
	KUNIT_EXPECT_EQ(test, rng->stats[src].credited, credited);
	KUNIT_EXPECT_TRUE(test, rng->failed);
	KUNIT_EXPECT_EQ(test, rng->stats[src].permanent, 1ULL);
	KUNIT_EXPECT_EQ(test, rng->stats[src].intermittent, errors - 1ULL);
	KUNIT_EXPECT_EQ(test, rng->tested + rng->pending, 0U);
	jtsc_test_rng_put(test, rng);
}

/*
 * Each deterministic stream, beginning in operation, for both collectors
 * and both readers, at the window alignments that matter: at a window's
 * start, with its first sample or its first period or one word of it in
 * the window's last word, or its pattern whole a word before the end.
 */
static void jtsc_det_operation_test(struct kunit *test)
{
	const struct jtsc_det_case *d = test->param_value;
	unsigned int lead = jtsc_det_lead(d), a, api;
	u8 *buf = kunit_kmalloc(test, SZ_4K, GFP_KERNEL);
	enum jtsc_source src;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		unsigned int spw = jtsc_test_params(src)->samples_per_word;
		const unsigned int ks[] = {
			JTSC_TEST_PRED_WINDOW, 1, lead, spw, lead + spw, 2 * spw,
		};

		for (a = 0; a < ARRAY_SIZE(ks); a++)
			for (api = 0; api < 2; api++)
				jtsc_test_det_run(test, d, src, ks[a], api, buf);
	}
}

enum jtsc_straddle_kind {
	JTSC_STRADDLE_REPEAT,	/* rct_cutoff identical samples */
	JTSC_STRADDLE_RAMP,	/* a stuck run of run_cutoff hits */
	JTSC_STRADDLE_PERIOD,	/* a period of JTSC_MAX_LAG, run_cutoff hits */
};

struct jtsc_straddle_case {
	enum jtsc_straddle_kind kind;
	const char *desc;
};

static const struct jtsc_straddle_case jtsc_straddle_cases[] = {
	{ JTSC_STRADDLE_REPEAT, "repeated delta across a window end" },
	{ JTSC_STRADDLE_RAMP, "stuck run across a window end, from a word's last sample" },
	{ JTSC_STRADDLE_PERIOD, "period 64 whose first period ends a window" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_straddle, jtsc_straddle_cases, desc);

/*
 * Fills @run with the @len samples of @c's run, beginning at sample @at
 * of the healthy stream @seed so that no guess already hits its first
 * samples: it then fails exactly on its last sample.
 */
static void jtsc_test_straddle_run(const struct jtsc_straddle_case *c,
				   u64 seed, u64 at, u8 *run, unsigned int len)
{
	u8 h1 = jtsc_test_byte(seed, at - 1), h2 = jtsc_test_byte(seed, at - 2);
	u8 period[JTSC_MAX_LAG];
	u64 prng = 0x5eed0009;
	unsigned int j;
	u8 step = 3;

	switch (c->kind) {
	case JTSC_STRADDLE_REPEAT:
		memset(run, h1 ^ 0x80, len);
		break;
	case JTSC_STRADDLE_RAMP:
		/* A first step the stuck guess did not make, then steps of 1. */
		while (step == (u8)(h1 - h2))
			step += 2;
		for (j = 0; j < len; j++)
			run[j] = h1 + step + j;
		break;
	case JTSC_STRADDLE_PERIOD:
		/* Distinct values, the last unlike the sample a period back. */
		for (j = 0; j < JTSC_MAX_LAG; j++) {
			u8 r = jtsc_test_prng(&prng) >> 56;

			while (memchr(period, r, j) ||
			       (j == JTSC_MAX_LAG - 1 && r == h1))
				r++;
			period[j] = r;
		}
		for (j = 0; j < len; j++)
			run[j] = period[j % JTSC_MAX_LAG];
		break;
	}
}

/*
 * A run that will fail begins before a predictor window ends and fails in
 * the next one. At the window's end the healthy words before the run are
 * released, except those the last JTSC_MAX_LAG samples reach into, and no
 * word holding a sample of the run; the failure is -EAGAIN, returns
 * nothing and wipes the pool. Afterwards the pool starts over: its first
 * words are the fold, from a wiped LFSR, of the samples that follow a new
 * startup test.
 */
static void jtsc_straddle_test(struct kunit *test)
{
	const struct jtsc_straddle_case *c = test->param_value;
	const u64 end = JTSC_TEST_STARTUP + JTSC_TEST_PRED_WINDOW;
	u8 *out = kunit_kzalloc(test, SZ_4K, GFP_KERNEL);
	struct jtsc_scan *sc = kunit_kmalloc(test, sizeof(*sc), GFP_KERNEL);
	enum jtsc_source src;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, out);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sc);
	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		const struct jtsc_health_params *p = jtsc_test_params(src);
		unsigned int spw = p->samples_per_word, len, before, count, i;
		u64 at, fail, first, words[8], model[8];
		struct jtsc_script *script;
		struct jtsc_rng *rng;
		struct jtsc_fake *f;
		u8 *run, *s;

		switch (c->kind) {
		case JTSC_STRADDLE_REPEAT:
			len = p->rct_cutoff;
			before = len / 2;
			break;
		case JTSC_STRADDLE_RAMP:
			len = p->run_cutoff + 2;
			/* The run's first sample is the last of a word. */
			before = spw + 1 < len ? spw + 1 : len - 1;
			break;
		default:
			len = JTSC_MAX_LAG + p->run_cutoff;
			before = JTSC_MAX_LAG;
			break;
		}
		at = end - before;
		fail = at + len - 1;
		run = kunit_kmalloc(test, len, GFP_KERNEL);
		s = kunit_kmalloc(test, fail + 1, GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, run);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);

		f = jtsc_fake_start(test, JTSC_FAKE_REAL);
		script = &f->src[src].script;
		jtsc_test_straddle_run(c, script->seed, at, run, len);
		script->buf = run;
		script->buf_from = at;
		script->buf_len = len;

		/* Precondition: the first failure is on the run's last sample. */
		for (i = 0; i <= fail; i++)
			s[i] = jtsc_script_sample(script, i);
		jtsc_test_scan(s, fail, sc);
		KUNIT_ASSERT_LT(test, sc->rct, p->rct_cutoff);
		KUNIT_ASSERT_LT(test, sc->apt, p->apt_cutoff);
		for (i = 0; i < JTSC_NR_PREDICTORS; i++) {
			KUNIT_ASSERT_LT(test, sc->run[i], p->run_cutoff);
			KUNIT_ASSERT_LT(test, sc->hits[i], p->hits_cutoff);
		}
		jtsc_test_scan(s, fail + 1, sc);
		count = c->kind == JTSC_STRADDLE_REPEAT ? sc->rct :
			sc->run[c->kind == JTSC_STRADDLE_RAMP ? 0 : JTSC_MAX_LAG];
		KUNIT_ASSERT_EQ(test, count, c->kind == JTSC_STRADDLE_REPEAT ?
				p->rct_cutoff : p->run_cutoff);

		rng = jtsc_test_rng(test, BIT(src));
		f->rng = rng;
		f->snap_at = end;
		KUNIT_EXPECT_EQ(test, jtsc_rng_generate(rng, out, SZ_4K), -EAGAIN);
		f->rng = NULL;
		KUNIT_EXPECT_TRUE(test, jtsc_test_all(out, SZ_4K, 0));
		KUNIT_EXPECT_GT(test, f->src[src].taken, fail);
		KUNIT_EXPECT_EQ(test, rng->tested, 0U);
		KUNIT_EXPECT_EQ(test, rng->pending, 0U);
		KUNIT_EXPECT_EQ(test, rng->stats[src].intermittent, 1ULL);
		KUNIT_EXPECT_FALSE(test, rng->failed);

		/* At the window's end: the healthy words, none of the run. */
		KUNIT_ASSERT_TRUE(test, f->snapped);
		KUNIT_EXPECT_LE_MSG(test, f->max_released,
				    div_u64(at - JTSC_TEST_STARTUP, spw),
				    "%s: a word holding a sample of the run was released",
				    jtsc_test_pname(p));
		KUNIT_EXPECT_GE_MSG(test, f->snap_released,
				    div_u64(at - JTSC_TEST_STARTUP - JTSC_MAX_LAG, spw),
				    "%s: healthy words held back", jtsc_test_pname(p));

		/*
		 * The pool starts over after a new startup test, which takes
		 * fresh batches: the rest of the failing one is dropped. With
		 * roundup(), without a 64-bit division on 32-bit kernels.
		 */
		first = div_u64(fail + JTSC_BATCH, JTSC_BATCH) * JTSC_BATCH + JTSC_TEST_STARTUP;
		jtsc_test_model_words(script, first, spw, model, ARRAY_SIZE(model));
		KUNIT_EXPECT_EQ(test, jtsc_rng_pull(rng, words, sizeof(words)),
				(int)(ARRAY_SIZE(words) * jtsc_test_word_credit(src)));
		KUNIT_EXPECT_MEMEQ_MSG(test, words, model, sizeof(words),
				       "%s: the words after the failure are not those of the samples after the startup test",
				       jtsc_test_pname(p));
		jtsc_test_rng_put(test, rng);
	}
}

struct jtsc_gate_case {
	enum jtsc_count count;
	unsigned int guess;
	const char *desc;
};

static const struct jtsc_gate_case jtsc_gate_cases[] = {
	{ JTSC_COUNT_APT, JTSC_GUESS_APT, "apt_cutoff in an APT window" },
	{ JTSC_COUNT_HITS, JTSC_GUESS_STUCK, "hits_cutoff of the stuck predictor" },
	{ JTSC_COUNT_HITS, 33, "hits_cutoff of lag 33" },
	{ JTSC_COUNT_HITS, 64, "hits_cutoff of lag 64" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_gate, jtsc_gate_cases, desc);

/*
 * A failure that only a count over a window sees, the APT's or a
 * predictor's hits, with no run anywhere near a cutoff, comes late in the
 * predictor window after the startup test (the stream of the cutoff rows
 * above, served from the first sample). No word of that window may have
 * been released by then: words wait for their whole window.
 */
static void jtsc_window_release_test(struct kunit *test)
{
	const struct jtsc_gate_case *g = test->param_value;
	const struct jtsc_cut_case c = { .count = g->count, .guess = g->guess };
	const unsigned int n = JTSC_TEST_CUT_SAMPLES;
	unsigned long *hit = kunit_kcalloc(test, BITS_TO_LONGS(n),
					   sizeof(long), GFP_KERNEL);
	u8 *s = kunit_kmalloc(test, n, GFP_KERNEL);
	u8 *out = kunit_kzalloc(test, SZ_4K, GFP_KERNEL);
	enum jtsc_source src;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hit);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, out);
	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		const struct jtsc_health_params *p = jtsc_test_params(src);
		struct jtsc_verdicts want = {};
		unsigned int cutoff, perm, most;
		struct jtsc_rng *rng;
		struct jtsc_fake *f;

		jtsc_test_cutoffs_of(p, c.count, &cutoff, &perm);
		if (c.count == JTSC_COUNT_APT && cutoff > JTSC_TEST_APT_WINDOW) {
			kunit_info(test, "%s: the APT cannot fail at this credit\n",
				   jtsc_test_pname(p));
			continue;
		}
		if (c.count == JTSC_COUNT_HITS && cutoff > JTSC_TEST_PRED_WINDOW) {
			kunit_info(test, "%s: the window count cannot fail at this credit\n",
				   jtsc_test_pname(p));
			continue;
		}
		bitmap_zero(hit, n);
		jtsc_test_plan(&c, cutoff, hit);
		KUNIT_ASSERT_TRUE(test, jtsc_test_build(s, n, hit, c.guess,
							0x5eed0011 + src));
		jtsc_test_plan_verdicts(c.count, hit, n, cutoff, perm, &want,
					&most);
		KUNIT_ASSERT_TRUE(test, jtsc_test_alone(test, &c, p, s, n, most));
		KUNIT_ASSERT_EQ(test, want.n, 1U);
		/* Late in the first window after the startup test. */
		KUNIT_ASSERT_GE(test, want.at[0], JTSC_TEST_STARTUP +
				JTSC_TEST_PRED_WINDOW / 4);
		KUNIT_ASSERT_LT(test, want.at[0], JTSC_TEST_STARTUP +
				JTSC_TEST_PRED_WINDOW);

		f = jtsc_fake_start(test, JTSC_FAKE_REAL);
		f->src[src].script.buf = s;
		f->src[src].script.buf_len = n;
		rng = jtsc_test_rng(test, BIT(src));
		f->rng = rng;
		f->snap_at = U64_MAX;
		memset(out, 0, SZ_4K);
		KUNIT_EXPECT_EQ_MSG(test, jtsc_rng_generate(rng, out, SZ_4K), -EAGAIN,
				    "%s", jtsc_test_pname(p));
		f->rng = NULL;
		KUNIT_EXPECT_GT(test, f->src[src].taken, (u64)want.at[0]);
		KUNIT_EXPECT_EQ_MSG(test, f->max_released, 0ULL,
				    "%s: words of the failing window released",
				    jtsc_test_pname(p));
		KUNIT_EXPECT_EQ(test, rng->stats[src].credited, 0ULL);
		KUNIT_EXPECT_TRUE(test, jtsc_test_all(out, SZ_4K, 0));
		KUNIT_EXPECT_EQ(test, rng->tested + rng->pending, 0U);
		KUNIT_EXPECT_EQ(test, rng->stats[src].intermittent, 1ULL);
		jtsc_test_rng_put(test, rng);
	}
}

/* ---- Credit, interleaving and failover ---------------------------------- */

/*
 * A pull of n words is credited exactly n times the word credit, an output
 * block exactly its words' credit: neither more nor less than the claim.
 * That holds for the block of a shard's first request too, which starts
 * the shard's collector: the words of a block are those of that collector.
 */
static void jtsc_credit_pinned_test(struct kunit *test)
{
	const struct jtsc_source_case *c = test->param_value;
	const unsigned int word = jtsc_test_pinned[c->src].word;
	u64 buf[JITTER_TSC_PULL_MAX / sizeof(u64)];
	u8 block[SHA256_DIGEST_SIZE];
	struct jtsc_rng *rng, *shard;
	struct jtsc_group *g;
	unsigned int n;
	u64 before;
	int ret;

	KUNIT_EXPECT_EQ(test, jtsc_test_params(c->src)->credit,
			jtsc_test_pinned[c->src].sample);
	jtsc_fake_start(test, JTSC_FAKE_REAL);
	rng = jtsc_test_rng(test, BIT(c->src));
	for (n = 1; n <= ARRAY_SIZE(buf); n *= 2) {
		before = rng->stats[c->src].credited;
		KUNIT_EXPECT_EQ_MSG(test, jtsc_rng_pull(rng, buf, n * sizeof(u64)),
				    (int)(n * word), "%u words", n);
		KUNIT_EXPECT_EQ_MSG(test, rng->stats[c->src].credited - before,
				    (u64)n * word, "%u words counted", n);
	}
	before = rng->stats[c->src].credited;
	KUNIT_EXPECT_EQ(test, jtsc_rng_generate(rng, block, 1), 0);
	KUNIT_EXPECT_EQ(test, rng->stats[c->src].credited - before,
			(u64)jtsc_test_pinned[c->src].block);
	jtsc_test_rng_put(test, rng);

	g = jtsc_test_group_init(test, BIT(c->src), 1, &ret);
	KUNIT_ASSERT_EQ(test, ret, 0);
	shard = g->shards[0];
	KUNIT_EXPECT_FALSE(test, shard->started);
	KUNIT_EXPECT_EQ(test, jtsc_rng_generate(shard, block, 1), 0);
	KUNIT_EXPECT_EQ(test, shard->active, c->src);
	KUNIT_EXPECT_EQ(test, shard->stats[c->src].credited,
			(u64)jtsc_test_pinned[c->src].block);
}

/* One step of the interleaving test: a pull of @n words, or @n bytes generated. */
struct jtsc_step {
	bool pull;
	unsigned int n;
};

static const struct jtsc_step jtsc_steps[] = {
	{ true, 1 }, { false, 1 }, { true, 3 }, { false, 33 }, { true, 32 },
	{ false, 64 }, { true, 5 }, { false, 1 }, { true, 32 },
};

/*
 * Generate and pull interleaved on one instance take the pool words in
 * order, each once: each pull returns the next words of the model, each
 * output block is SHA-256 over the next block's worth of them, a request
 * that ends inside a block drops the rest of it, and an output request
 * first drops the words from before it that its first block may not use
 * (jtsc_test_stale_dropped()); pulls drop none. The calls end in
 * the middle of predictor windows, so that words made but not yet released
 * (the timer collector's held-back word) are carried from call to call.
 */
static void jtsc_interleave_test(struct kunit *test)
{
	const struct jtsc_source_case *c = test->param_value;
	const unsigned int wpb = jtsc_test_block_words(c->src);
	const unsigned int spw = jtsc_test_params(c->src)->samples_per_word;
	unsigned int total = 0, pos = 0, dropped = 0, most_pending = 0, i, b;
	u8 out[64], block[SHA256_DIGEST_SIZE];
	u64 *model, got[32];
	struct jtsc_rng *rng;
	struct jtsc_fake *f;

	for (i = 0; i < ARRAY_SIZE(jtsc_steps); i++)
		total += jtsc_steps[i].pull ? jtsc_steps[i].n :
			 DIV_ROUND_UP(jtsc_steps[i].n, SHA256_DIGEST_SIZE) * wpb;
	/* Room for the words each request may drop from before it. */
	model = kunit_kmalloc_array(test, total + ARRAY_SIZE(jtsc_steps) * JTSC_POOL_WORDS,
				    sizeof(u64), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, model);
	f = jtsc_fake_start(test, JTSC_FAKE_REAL);
	rng = jtsc_test_rng(test, BIT(c->src));
	jtsc_test_model_words(&f->src[c->src].script, JTSC_TEST_STARTUP, spw,
			      model, total + ARRAY_SIZE(jtsc_steps) * JTSC_POOL_WORDS);

	for (i = 0; i < ARRAY_SIZE(jtsc_steps); i++) {
		const struct jtsc_step *st = &jtsc_steps[i];

		if (st->pull) {
			KUNIT_ASSERT_EQ_MSG(test, jtsc_rng_pull(rng, got, st->n * sizeof(u64)),
					    (int)(st->n * jtsc_test_word_credit(c->src)),
					    "step %u", i);
			KUNIT_EXPECT_MEMEQ_MSG(test, got, model + pos, st->n * sizeof(u64),
					       "step %u: pull of %u words", i, st->n);
			pos += st->n;
		} else {
			/* A request drops what it may not use from before it. */
			b = st->n ? jtsc_test_stale_dropped(c->src, rng->tested + rng->pending) : 0;
			KUNIT_ASSERT_LE(test, b, (unsigned int)JTSC_POOL_WORDS);
			pos += b;
			dropped += b;
			KUNIT_ASSERT_EQ_MSG(test, jtsc_rng_generate(rng, out, st->n), 0,
					    "step %u", i);
			for (b = 0; b * SHA256_DIGEST_SIZE < st->n; b++, pos += wpb) {
				sha256((const u8 *)(model + pos), wpb * sizeof(u64), block);
				KUNIT_EXPECT_MEMEQ_MSG(test, out + b * SHA256_DIGEST_SIZE, block,
						       min(st->n - b * SHA256_DIGEST_SIZE,
							   SHA256_DIGEST_SIZE),
						       "step %u: block %u of %u bytes", i, b,
						       st->n);
			}
		}
		most_pending = max(most_pending, rng->pending);
	}
	KUNIT_EXPECT_EQ(test, pos, total + dropped);
	KUNIT_EXPECT_EQ(test, rng->stats[c->src].credited,
			(u64)total * jtsc_test_word_credit(c->src));
	/* Words were carried over from one call to the next. */
	KUNIT_EXPECT_GT(test, most_pending, 0U);
}

/* The stub of jtsc_kcapi_group(): the crypto_rng draws on the test's group. */
static struct jtsc_group *jtsc_fake_kcapi_group(void)
{
	return jtsc_fake()->group;
}

/* A group with @nr_shards shards on the fakes, both collectors healthy. */
static struct jtsc_group *jtsc_test_shards(struct kunit *test, struct jtsc_fake *f,
					   unsigned int nr_shards)
{
	struct jtsc_group *g;
	int ret;

	kunit_activate_static_stub(test, jtsc_counter_check,
				   jtsc_test_counter_fit);
	g = jtsc_test_group_init(test, JTSC_COLLECT_ALL, nr_shards, &ret);
	KUNIT_ASSERT_EQ(test, ret, 0);
	f->group = g;
	return g;
}

/* Generate @len bytes from @rng into @buf, which must stay all @fill on error. */
static int jtsc_test_gen_checked(struct kunit *test, struct jtsc_rng *rng,
				 u8 *buf, unsigned int len, u8 fill)
{
	int ret;

	memset(buf, fill, len);
	ret = jtsc_rng_generate(rng, buf, len);
	if (ret)
		KUNIT_EXPECT_TRUE_MSG(test, jtsc_test_all(buf, len, fill),
				      "error %d and data", ret);
	return ret;
}

/*
 * Two shards of one group. A shard starts a collector on its first request.
 * When the speculative collector fails permanently on one, that request is
 * -EAGAIN with nothing written; the next one is served by the timer
 * collector after its startup test on that shard. The other shard drops
 * the dead collector on its next request (-EAGAIN) and starts the timer
 * collector too. When that one fails as well, both are -EFAULT for good,
 * write nothing and are credited nothing more.
 */
static void jtsc_failover_test(struct kunit *test)
{
	struct jtsc_fake *f = jtsc_fake_start(test, JTSC_FAKE_REAL);
	struct jtsc_group *g = jtsc_test_shards(test, f, 2);
	struct jtsc_rng *a = g->shards[0], *b = g->shards[1];
	u8 *x = kunit_kmalloc(test, SZ_4K, GFP_KERNEL);
	u8 *y = kunit_kmalloc(test, SZ_4K, GFP_KERNEL);
	struct jtsc_fake_src *spec = &f->src[JTSC_SRC_SPEC];
	struct jtsc_fake_src *timer = &f->src[JTSC_SRC_TIMER];
	u64 credited;
	unsigned int i;
	int ret = 0;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, x);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, y);
	KUNIT_EXPECT_FALSE(test, a->started || b->started);
	KUNIT_EXPECT_EQ(test, spec->taken, 0ULL);

	/* Each shard runs its own startup test, and they differ. */
	KUNIT_ASSERT_EQ(test, jtsc_test_gen_checked(test, a, x, 64, 0), 0);
	KUNIT_ASSERT_EQ(test, jtsc_test_gen_checked(test, b, y, 64, 0), 0);
	KUNIT_EXPECT_EQ(test, a->active, JTSC_SRC_SPEC);
	KUNIT_EXPECT_EQ(test, b->active, JTSC_SRC_SPEC);
	KUNIT_EXPECT_GE(test, a->stats[JTSC_SRC_SPEC].samples, (u64)JTSC_TEST_STARTUP);
	KUNIT_EXPECT_GE(test, b->stats[JTSC_SRC_SPEC].samples, (u64)JTSC_TEST_STARTUP);
	KUNIT_EXPECT_EQ(test, timer->taken, 0ULL);
	KUNIT_EXPECT_MEMNEQ(test, x, y, 64);

	/* The speculative collector breaks: a fails over. */
	spec->script.det = &jtsc_det_stuck;
	spec->script.det_from = spec->taken;
	KUNIT_EXPECT_EQ(test, jtsc_test_gen_checked(test, a, x, SZ_4K, 0), -EAGAIN);
	KUNIT_EXPECT_EQ(test, g->dead, (unsigned long)JTSC_COLLECT_SPEC);
	KUNIT_EXPECT_EQ(test, a->stats[JTSC_SRC_SPEC].permanent, 1ULL);
	KUNIT_EXPECT_FALSE(test, a->failed);
	KUNIT_EXPECT_EQ(test, jtsc_test_gen_checked(test, a, x, 64, 0), 0);
	KUNIT_EXPECT_EQ(test, a->active, JTSC_SRC_TIMER);
	/* Two blocks, each of the timer collector's words. */
	KUNIT_EXPECT_EQ(test, a->stats[JTSC_SRC_TIMER].credited,
			2ULL * jtsc_test_pinned[JTSC_SRC_TIMER].block);
	KUNIT_EXPECT_GE(test, a->stats[JTSC_SRC_TIMER].samples, (u64)JTSC_TEST_STARTUP);
	KUNIT_EXPECT_EQ(test, g->verified, (unsigned long)JTSC_COLLECT_ALL);
	KUNIT_EXPECT_NULL(test, a->buf.mem);

	/* b never saw a failure; it drops the collector a found dead. */
	credited = b->stats[JTSC_SRC_SPEC].credited;
	KUNIT_EXPECT_EQ(test, jtsc_test_gen_checked(test, b, y, 64, 0), -EAGAIN);
	KUNIT_EXPECT_EQ(test, b->stats[JTSC_SRC_SPEC].permanent, 0ULL);
	KUNIT_EXPECT_EQ(test, b->stats[JTSC_SRC_SPEC].credited, credited);
	KUNIT_EXPECT_EQ(test, jtsc_test_gen_checked(test, b, y, 64, 0), 0);
	KUNIT_EXPECT_EQ(test, b->active, JTSC_SRC_TIMER);
	KUNIT_EXPECT_EQ(test, b->stats[JTSC_SRC_TIMER].credited,
			2ULL * jtsc_test_pinned[JTSC_SRC_TIMER].block);
	KUNIT_EXPECT_GE(test, b->stats[JTSC_SRC_TIMER].samples, (u64)JTSC_TEST_STARTUP);
	KUNIT_EXPECT_MEMNEQ(test, x, y, 64);

	/* Then the timer collector breaks: nothing is left. */
	timer->script.det = &jtsc_det_stuck;
	timer->script.det_from = timer->taken;
	for (i = 0; i < JTSC_TEST_MAX_CALLS && ret != -EFAULT; i++) {
		ret = jtsc_test_gen_checked(test, a, x, 64, 0);
		KUNIT_EXPECT_TRUE_MSG(test, ret == -EAGAIN || ret == -EFAULT,
				      "call %u: %d", i, ret);
	}
	KUNIT_EXPECT_EQ(test, ret, -EFAULT);
	KUNIT_EXPECT_EQ(test, g->dead, (unsigned long)JTSC_COLLECT_ALL);
	spec->script.det = NULL;
	timer->script.det = NULL;
	credited = a->stats[JTSC_SRC_TIMER].credited + b->stats[JTSC_SRC_TIMER].credited;
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ(test, jtsc_test_gen_checked(test, a, x, 64,
							    JTSC_TEST_CANARY), -EFAULT);
		KUNIT_EXPECT_EQ(test, jtsc_test_gen_checked(test, b, y, 64,
							    JTSC_TEST_CANARY), -EFAULT);
		KUNIT_EXPECT_EQ(test, jtsc_rng_pull(b, y, JITTER_TSC_PULL_MAX), -EFAULT);
		KUNIT_EXPECT_TRUE(test, jtsc_test_all(y, 64, JTSC_TEST_CANARY));
	}
	KUNIT_EXPECT_TRUE(test, a->failed && b->failed);
	KUNIT_EXPECT_EQ(test, a->stats[JTSC_SRC_TIMER].credited +
			b->stats[JTSC_SRC_TIMER].credited, credited);
}

/*
 * A collector found dead by another instance while this one is filling a
 * block: not one more batch of it is taken, the request is -EAGAIN with
 * nothing written, and the next one is served by the timer collector.
 */
static void jtsc_failover_midfill_test(struct kunit *test)
{
	struct jtsc_fake *f = jtsc_fake_start(test, JTSC_FAKE_REAL);
	struct jtsc_group *g = jtsc_test_shards(test, f, 1);
	struct jtsc_fake_src *spec = &f->src[JTSC_SRC_SPEC];
	struct jtsc_rng *a = g->shards[0];
	u8 *x = kunit_kmalloc(test, SZ_4K, GFP_KERNEL);
	u64 from;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, x);
	KUNIT_ASSERT_EQ(test, jtsc_test_gen_checked(test, a, x, 64, 0), 0);
	KUNIT_ASSERT_EQ(test, a->active, JTSC_SRC_SPEC);

	/*
	 * The tested words left are used up first; then a predictor window
	 * of batches is collected before more are released. The collector
	 * dies at the second batch of this request.
	 */
	from = spec->taken;
	spec->kill = g;
	spec->kill_at = from + JTSC_BATCH;
	KUNIT_EXPECT_EQ(test, jtsc_test_gen_checked(test, a, x, SZ_4K, 0), -EAGAIN);
	KUNIT_EXPECT_EQ(test, g->dead, (unsigned long)JTSC_COLLECT_SPEC);
	KUNIT_EXPECT_EQ(test, spec->taken - from, 2ULL * JTSC_BATCH);
	KUNIT_EXPECT_EQ(test, a->stats[JTSC_SRC_SPEC].permanent, 0ULL);
	KUNIT_EXPECT_EQ(test, a->tested + a->pending, 0U);

	KUNIT_EXPECT_EQ(test, jtsc_test_gen_checked(test, a, x, 64, 0), 0);
	KUNIT_EXPECT_EQ(test, a->active, JTSC_SRC_TIMER);
	KUNIT_EXPECT_EQ(test, spec->taken - from, 2ULL * JTSC_BATCH);
}

KUNIT_DEFINE_ACTION_WRAPPER(jtsc_test_free_rng, crypto_free_rng,
			    struct crypto_rng *);

/*
 * The same through the crypto API: the "jitter_tsc" rng is pointed at a
 * group of the test's, and its transforms fail over with it.
 */
static void jtsc_crypto_failover_test(struct kunit *test)
{
	struct jtsc_fake *f = jtsc_fake_start(test, JTSC_FAKE_REAL);
	struct jtsc_group *g = jtsc_test_shards(test, f, 1);
	struct jtsc_fake_src *spec = &f->src[JTSC_SRC_SPEC];
	struct jtsc_fake_src *timer = &f->src[JTSC_SRC_TIMER];
	u8 *big = kunit_kzalloc(test, SZ_4K, GFP_KERNEL);
	struct crypto_rng *tfm[2];
	unsigned int i;
	u8 buf[64];
	int ret = 0;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, big);
	kunit_activate_static_stub(test, jtsc_kcapi_group, jtsc_fake_kcapi_group);
	for (i = 0; i < ARRAY_SIZE(tfm); i++) {
		tfm[i] = crypto_alloc_rng("jitter_tsc", 0, 0);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tfm[i]);
		KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, jtsc_test_free_rng,
								tfm[i]), 0);
	}
	KUNIT_ASSERT_EQ(test, crypto_rng_get_bytes(tfm[0], buf, sizeof(buf)), 0);
	/* Served by the test's group, on the scripted collector. */
	KUNIT_EXPECT_GT(test, spec->taken, (u64)JTSC_TEST_STARTUP);
	KUNIT_EXPECT_EQ(test, g->shards[0]->active, JTSC_SRC_SPEC);

	/*
	 * More than the words tested before the failure: it is reached, and
	 * the kernel completes the failover within the call: the reader sees
	 * data, never -EAGAIN.
	 */
	spec->script.det = &jtsc_det_stuck;
	spec->script.det_from = spec->taken;
	KUNIT_EXPECT_EQ(test, crypto_rng_get_bytes(tfm[1], big, SZ_4K), 0);
	KUNIT_EXPECT_FALSE(test, jtsc_test_all(big, SZ_4K, 0));
	KUNIT_EXPECT_EQ(test, g->shards[0]->stats[JTSC_SRC_SPEC].permanent, 1ULL);
	for (i = 0; i < ARRAY_SIZE(tfm); i++)
		KUNIT_EXPECT_EQ_MSG(test, crypto_rng_get_bytes(tfm[i], buf, sizeof(buf)), 0,
				    "transform %u after failover", i);
	KUNIT_EXPECT_EQ(test, g->shards[0]->active, JTSC_SRC_TIMER);
	KUNIT_EXPECT_GT(test, timer->taken, (u64)JTSC_TEST_STARTUP);

	timer->script.det = &jtsc_det_stuck;
	timer->script.det_from = timer->taken;
	for (i = 0; i < JTSC_TEST_MAX_CALLS && ret != -EFAULT; i++)
		ret = crypto_rng_get_bytes(tfm[i & 1], buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, ret, -EFAULT);
	timer->script.det = NULL;
	for (i = 0; i < ARRAY_SIZE(tfm); i++) {
		memset(buf, JTSC_TEST_CANARY, sizeof(buf));
		KUNIT_EXPECT_EQ(test, crypto_rng_get_bytes(tfm[i], buf, sizeof(buf)), -EFAULT);
		KUNIT_EXPECT_TRUE(test, jtsc_test_all(buf, sizeof(buf), JTSC_TEST_CANARY));
	}
}

/* ---- The pull used by random.c ------------------------------------------ */

/*
 * A bad length is -EINVAL, and stores and credits nothing; what a valid
 * pull credits is jtsc_credit_pinned_test's.
 */
static void jtsc_pull_test(struct kunit *test)
{
	static const size_t bad[] = { 0, 7, 12, JITTER_TSC_PULL_MAX + 8 };
	u8 buf[JITTER_TSC_PULL_MAX + 8];
	struct jtsc_rng *rng;
	unsigned int i;

	jtsc_fake_start(test, JTSC_FAKE_REAL);
	rng = jtsc_test_rng(test, JTSC_COLLECT_SPEC);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(buf, JTSC_TEST_CANARY, sizeof(buf));
		KUNIT_EXPECT_EQ_MSG(test, jtsc_rng_pull(rng, buf, bad[i]), -EINVAL,
				    "%zu bytes", bad[i]);
		KUNIT_EXPECT_TRUE(test, jtsc_test_all(buf, sizeof(buf), JTSC_TEST_CANARY));
	}
	KUNIT_EXPECT_EQ(test, rng->stats[JTSC_SRC_SPEC].credited, 0ULL);
	jtsc_test_rng_put(test, rng);
}

/*
 * jitter_tsc_pull(), as random.c calls it, draws on the registered
 * instance: JITTER_TSC_PULL_MAX bytes carry exactly their words' credit,
 * in whole bits; a bad length is -EINVAL.
 */
static void jtsc_pull_global_test(struct kunit *test)
{
	const unsigned int n = JITTER_TSC_PULL_MAX / sizeof(u64);
	u64 *buf = kunit_kmalloc_array(test, n + 1, sizeof(u64), GFP_KERNEL);
	struct jtsc_group *g = jtsc_kcapi_group();
	unsigned long alive;
	int ret, want, step;

	if (!IS_ENABLED(CONFIG_CRYPTO_JITTER_TSC_SEED))
		kunit_skip(test, "CONFIG_CRYPTO_JITTER_TSC_SEED is off: random.c does not pull");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	/*
	 * random.c's instance runs on the first collector that passed its
	 * startup test and has not died since: at boot, the speculative one
	 * where it passed.
	 */
	memset(buf, JTSC_TEST_CANARY, JITTER_TSC_PULL_MAX);
	ret = jitter_tsc_pull(buf, JITTER_TSC_PULL_MAX);
	if (ret == -ENODEV || ret == -EFAULT)
		kunit_skip(test, "jitter_tsc has no collector on this machine");
	alive = READ_ONCE(g->verified) & ~READ_ONCE(g->dead);
	KUNIT_ASSERT_NE(test, alive, 0UL);
	/*
	 * Its credit is the step the first startup test of this machine
	 * generation chose (that of the pull, where the crng was ready
	 * before jitter_tsc was set up): the low byte of the group's word.
	 */
	step = atomic_read(&g->step[__ffs(alive)]) & 0xff;
	KUNIT_ASSERT_LT(test, step, (int)jtsc_ladder_steps);
	want = n * jtsc_ladder[step].credit * jtsc_ladder[step].samples_per_word >>
	       JTSC_TEST_ENTROPY_SHIFT;
	KUNIT_EXPECT_EQ_MSG(test, ret, want, "%s collector: not a full pull at the group's step",
			    jtsc_collectors[__ffs(alive)].name);
	KUNIT_EXPECT_FALSE(test, jtsc_test_all((u8 *)buf, JITTER_TSC_PULL_MAX,
					       JTSC_TEST_CANARY));
	KUNIT_EXPECT_EQ(test, jitter_tsc_pull(buf, 7), -EINVAL);
	KUNIT_EXPECT_EQ(test, jitter_tsc_pull(buf, JITTER_TSC_PULL_MAX + 8),
			-EINVAL);
}

/* ---- Fresh output and memory only while used ----------------------------- */

/*
 * A clone of the machine: an instance holding a block's worth and more of
 * tested words is saved, makes a block, is restored, and makes the block
 * again. The source gives the clone other samples, as a real one does, so
 * the two blocks differ: neither is made of the saved words alone. Run at
 * the ceiling step, where a window leaves most words over. How many of the
 * saved words a block may still use is checked word by word by
 * jtsc_output_model_test() and jtsc_interleave_test(). The copy includes
 * the instance's mutex, unlocked, restored at the same address.
 */
static void jtsc_fresh_test(struct kunit *test)
{
	const unsigned int wpb = jtsc_test_block_words(JTSC_SRC_SPEC);
	struct jtsc_rng *rng, *saved;
	u8 a[SHA256_DIGEST_SIZE], b[SHA256_DIGEST_SIZE];
	struct jtsc_fake *f;
	u64 taken;

	saved = kunit_kmalloc(test, sizeof(*saved), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, saved);
	f = jtsc_fake_start(test, JTSC_FAKE_REAL);
	rng = jtsc_test_rng(test, JTSC_COLLECT_SPEC);
	KUNIT_ASSERT_EQ(test, jtsc_rng_generate(rng, a, sizeof(a)), 0);
	/* What makes the test: the saved pool alone could make a block. */
	KUNIT_ASSERT_GE(test, rng->tested, wpb);

	memcpy(saved, rng, sizeof(*rng));
	taken = f->src[JTSC_SRC_SPEC].taken;
	KUNIT_ASSERT_EQ(test, jtsc_rng_generate(rng, a, sizeof(a)), 0);
	KUNIT_EXPECT_GT(test, f->src[JTSC_SRC_SPEC].taken, taken);
	memcpy(rng, saved, sizeof(*rng));
	KUNIT_ASSERT_EQ(test, jtsc_rng_generate(rng, b, sizeof(b)), 0);
	KUNIT_EXPECT_MEMNEQ(test, a, b, sizeof(a));
	memzero_explicit(saved, sizeof(*saved));
}

/*
 * The kernel's count of vmalloc'd pages, which only a suite built in can
 * read; -1 in a module.
 */
static long jtsc_test_vmalloc_pages(void)
{
#if IS_BUILTIN(CONFIG_JITTER_TSC_KUNIT_TEST)
	return vmalloc_nr_pages();
#else
	return -1;
#endif
}

/*
 * A shard holds no buffer before its first request, holds one while it is
 * used, and is parked, its pool wiped and its buffer freed (the vmalloc
 * pages come back), once it is idle or not in use when asked; a shard in
 * use is left alone; the next request starts again.
 */
static void jtsc_buffer_lifetime_test(struct kunit *test)
{
	const bool spec = IS_ENABLED(CONFIG_X86_64);
	struct jtsc_fake *f = jtsc_fake_start(test, JTSC_FAKE_REAL);
	struct jtsc_group *g = jtsc_test_shards(test, f, 2);
	struct jtsc_rng *rng = g->shards[0];
	long pages = jtsc_test_vmalloc_pages();
	u8 out[SHA256_DIGEST_SIZE];
	u64 taken;

	KUNIT_EXPECT_NULL(test, rng->buf.mem);
	KUNIT_ASSERT_EQ(test, jtsc_rng_generate(rng, out, sizeof(out)), 0);
	KUNIT_EXPECT_TRUE(test, rng->started);
	if (spec) {
		KUNIT_EXPECT_NOT_NULL(test, rng->buf.mem);
		if (pages >= 0)
			KUNIT_EXPECT_GE(test, jtsc_test_vmalloc_pages(),
					pages + (SZ_8M >> PAGE_SHIFT));
	}
	KUNIT_EXPECT_NULL(test, g->shards[1]->buf.mem);

	/* Used a moment ago: not idle for an hour. */
	KUNIT_EXPECT_EQ(test, jtsc_group_park_idle(g, 3600 * HZ),
			spec || rng->tested + rng->pending > 0);
	KUNIT_EXPECT_TRUE(test, rng->started);
	/* In use: left alone, whatever its age. */
	mutex_lock(&rng->lock);
	KUNIT_EXPECT_TRUE(test, jtsc_group_park_idle(g, 0));
	mutex_unlock(&rng->lock);
	KUNIT_EXPECT_TRUE(test, rng->started);

	KUNIT_EXPECT_FALSE(test, jtsc_group_park_idle(g, 0));
	KUNIT_EXPECT_FALSE(test, rng->started);
	KUNIT_EXPECT_NULL(test, rng->buf.mem);
	KUNIT_EXPECT_EQ(test, rng->tested + rng->pending, 0U);
	KUNIT_EXPECT_TRUE(test, jtsc_test_all((u8 *)rng->pool, sizeof(rng->pool), 0));
	if (pages >= 0)
		KUNIT_EXPECT_LT(test, jtsc_test_vmalloc_pages(), pages + (SZ_1M >> PAGE_SHIFT));

	/* The next request runs the startup test again, at the group's step. */
	taken = f->src[rng->active].taken;
	KUNIT_ASSERT_EQ(test, jtsc_rng_generate(rng, out, sizeof(out)), 0);
	KUNIT_EXPECT_GE(test, f->src[rng->active].taken - taken, (u64)JTSC_TEST_STARTUP);
	KUNIT_EXPECT_EQ(test, rng->stats[rng->active].estimates, 1ULL);
	if (spec)
		KUNIT_EXPECT_NOT_NULL(test, rng->buf.mem);
}

/*
 * A VM fork, a suspend or a hibernation (jtsc_machine_changed()): an
 * instance not in use is parked at once, and one that was in use at its
 * next request, which starts with a new startup test.
 */
static void jtsc_machine_changed_test(struct kunit *test)
{
	struct jtsc_fake *f = jtsc_fake_start(test, JTSC_FAKE_REAL);
	struct jtsc_rng *rng = jtsc_test_rng(test, JTSC_COLLECT_SPEC);
	u8 out[SHA256_DIGEST_SIZE];
	u64 taken;

	KUNIT_ASSERT_EQ(test, jtsc_rng_generate(rng, out, sizeof(out)), 0);
	KUNIT_ASSERT_GT(test, rng->tested + rng->pending, 0U);
	jtsc_machine_changed();
	/* Not an instance of the registered group: parked on its next request. */
	KUNIT_EXPECT_TRUE(test, rng->started);
	taken = f->src[JTSC_SRC_SPEC].taken;
	KUNIT_ASSERT_EQ(test, jtsc_rng_generate(rng, out, sizeof(out)), 0);
	KUNIT_EXPECT_EQ(test, rng->stats[JTSC_SRC_SPEC].estimates, 2ULL);
	KUNIT_EXPECT_GE(test, f->src[JTSC_SRC_SPEC].taken - taken, (u64)JTSC_TEST_STARTUP);
	/* Once only. */
	KUNIT_ASSERT_EQ(test, jtsc_rng_generate(rng, out, sizeof(out)), 0);
	KUNIT_EXPECT_EQ(test, rng->stats[JTSC_SRC_SPEC].estimates, 2ULL);
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

/*
 * An intermittent failure is recovered from inside the crypto_rng call:
 * the reader gets data, the instance counts the failure.
 */
static void jtsc_crypto_intermittent_test(struct kunit *test)
{
	struct jtsc_fake *f = jtsc_fake_start(test, JTSC_FAKE_REAL);
	struct jtsc_group *g = jtsc_test_shards(test, f, 1);
	struct jtsc_fake_src *spec = &f->src[JTSC_SRC_SPEC];
	struct crypto_rng *tfm;
	u8 *big = kunit_kzalloc(test, SZ_4K, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, big);
	kunit_activate_static_stub(test, jtsc_kcapi_group, jtsc_fake_kcapi_group);
	tfm = crypto_alloc_rng("jitter_tsc", 0, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tfm);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, jtsc_test_free_rng, tfm), 0);
	KUNIT_ASSERT_EQ(test, crypto_rng_get_bytes(tfm, big, 64), 0);

	/* A stuck stretch as long as the RCT cutoff: intermittent only. */
	spec->script.det = &jtsc_det_stuck;
	spec->script.det_from = spec->taken + 100;
	spec->script.det_len = jtsc_test_params(JTSC_SRC_SPEC)->rct_cutoff;
	KUNIT_EXPECT_EQ(test, crypto_rng_get_bytes(tfm, big, SZ_4K), 0);
	KUNIT_EXPECT_FALSE(test, jtsc_test_all(big, SZ_4K, 0));
	KUNIT_EXPECT_EQ(test, g->shards[0]->stats[JTSC_SRC_SPEC].intermittent, 1ULL);
	KUNIT_EXPECT_EQ(test, g->shards[0]->stats[JTSC_SRC_SPEC].permanent, 0ULL);
	KUNIT_EXPECT_EQ(test, g->shards[0]->active, JTSC_SRC_SPEC);
}

/* ---- Crypto API --------------------------------------------------------- */

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
		      jtsc_rng_generate_wait(t->rng, a, sizeof(a));

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
	const unsigned int rounds = jtsc_test_timer_only() ? 4 : 64;

	jtsc_test_threads(test, NULL, rounds, "transforms");
	jtsc_test_threads(test, jtsc_test_rng(test, JTSC_COLLECT_ALL), rounds,
			  "one instance");
}

/* Transforms come and go while a kthread reads from another one. */
static void jtsc_crypto_free_while_reading_test(struct kunit *test)
{
	struct jtsc_thread *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct task_struct *task;
	u8 buf[32];
	unsigned int i;

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
	test->priv = kunit_kzalloc(test, sizeof(struct jtsc_fake), GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

static struct kunit_case jtsc_test_cases[] = {
	KUNIT_CASE(jtsc_cutoffs_test),
	KUNIT_CASE_PARAM(jtsc_params_test, jtsc_source_gen_params),
	KUNIT_CASE_PARAM(jtsc_constants_test, jtsc_source_gen_params),
	KUNIT_CASE_PARAM(jtsc_health_history_test, jtsc_source_gen_params),
	KUNIT_CASE_PARAM(jtsc_health_recovery_test, jtsc_source_gen_params),
	KUNIT_CASE_PARAM(jtsc_health_cutoff_test, jtsc_cut_gen_params),
	KUNIT_CASE_PARAM(jtsc_det_health_test, jtsc_det_gen_params),
	KUNIT_CASE_PARAM(jtsc_lfsr_kat_test, jtsc_lfsr_gen_params),
	KUNIT_CASE(jtsc_lfsr_every_bit_test),
	KUNIT_CASE_PARAM(jtsc_counter_check_test, jtsc_counter_gen_params),
	KUNIT_CASE_PARAM(jtsc_rng_init_test, jtsc_init_gen_params),
	KUNIT_CASE_PARAM(jtsc_det_startup_test, jtsc_det_gen_params),
	KUNIT_CASE_PARAM(jtsc_known_entropy_test, jtsc_known_gen_params),
	KUNIT_CASE(jtsc_estimate_edges_test),
	KUNIT_CASE(jtsc_ladder_pick_test),
	KUNIT_CASE(jtsc_step_kept_test),
	KUNIT_CASE_PARAM(jtsc_output_model_test, jtsc_source_gen_params),
	KUNIT_CASE_PARAM(jtsc_det_operation_test, jtsc_det_gen_params),
	KUNIT_CASE_PARAM(jtsc_straddle_test, jtsc_straddle_gen_params),
	KUNIT_CASE_PARAM(jtsc_window_release_test, jtsc_gate_gen_params),
	KUNIT_CASE_PARAM(jtsc_credit_pinned_test, jtsc_source_gen_params),
	KUNIT_CASE_PARAM(jtsc_interleave_test, jtsc_source_gen_params),
	KUNIT_CASE(jtsc_failover_test),
	KUNIT_CASE(jtsc_failover_midfill_test),
	KUNIT_CASE(jtsc_crypto_failover_test),
	KUNIT_CASE(jtsc_crypto_intermittent_test),
	KUNIT_CASE(jtsc_fresh_test),
	KUNIT_CASE(jtsc_buffer_lifetime_test),
	KUNIT_CASE(jtsc_machine_changed_test),
	KUNIT_CASE(jtsc_walk_test),
	KUNIT_CASE(jtsc_pull_test),
	KUNIT_CASE(jtsc_pull_global_test),
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

MODULE_DESCRIPTION("KUnit tests for the jitter_tsc entropy source");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
