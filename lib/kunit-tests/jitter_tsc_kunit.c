// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the jitter_tsc entropy source.
 *
 * The suite proves the parts of jitter_tsc that decide whether its output can
 * be trusted, without relying on the timing jitter of the machine it runs on:
 *
 *  - The SP 800-90B health tests are a pure function of the raw samples, so
 *    they are fed scripted streams: stuck values, runs and window counts just
 *    below and at each cutoff, a biased source, and a long stream from a
 *    fixed-seed PRNG that must never raise a false alarm.
 *  - The cutoffs are compared with their formulas, the LFSR with known
 *    answers from an independent model (harness/kunit/lfsr-vectors.py).
 *  - The cycle counter and both collectors are replaced by static stubs to
 *    inject faults into private instances: a constant, coarse or slow
 *    counter, stuck collectors, failures after a healthy start.
 *  - The output path, the crypto API (with several kthreads) and the pull
 *    used by random.c are checked on the real collectors.
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
#include <linux/bits.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math.h>
#include <linux/sizes.h>
#include <linux/sort.h>
#include <linux/string.h>

/* Mirrors JTSC_MAX_INTERMITTENT in crypto/jitter_tsc.c. */
#define JTSC_TEST_MAX_INTERMITTENT	3

/* Samples in the long fault-free streams: at least 10^6. */
#define JTSC_TEST_GOOD_SAMPLES		SZ_1M

/* Byte written around and into buffers to see what a call wrote. */
#define JTSC_TEST_CANARY		0xa5

/*
 * Fixed-seed PRNG (xorshift64*): the stand-in for a healthy noise source.
 * Its statistics are far better than any entropy claim of jitter_tsc, so
 * every health-test failure it provokes is a false alarm.
 */
static u64 jtsc_test_prng(u64 *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/* One healthy raw sample of @src: a fair bit, or a delta with 12 bits. */
static u64 jtsc_test_good_sample(enum jtsc_source src, u64 *s)
{
	u64 r = jtsc_test_prng(s);

	return src == JTSC_SRC_SPEC ? r >> 63 : 40000 + (r >> 52);
}

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
					    enum jtsc_source src)
{
	struct jtsc_health *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, h);
	jtsc_health_init(h, &jtsc_params[src]);
	return h;
}

/*
 * Feeds @n healthy samples; returns the number fed before the first verdict
 * that is not OK, which it stores in @res (OK if there was none).
 */
static unsigned int jtsc_test_feed_good(struct jtsc_health *h,
					enum jtsc_source src, u64 *prng,
					unsigned int n,
					enum jtsc_health_result *res)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		*res = jtsc_health_sample(h, jtsc_test_good_sample(src, prng));
		if (*res != JTSC_HEALTH_OK)
			return i;
	}
	return n;
}

/*
 * Feeds @value until the first verdict that is not OK, at most @max times;
 * returns the 1-based position of that sample, 0 if there was none.
 */
static unsigned int jtsc_test_feed_stuck(struct jtsc_health *h, u64 value,
					 unsigned int max,
					 enum jtsc_health_result *res)
{
	unsigned int i;

	for (i = 1; i <= max; i++) {
		*res = jtsc_health_sample(h, value);
		if (*res != JTSC_HEALTH_OK)
			return i;
	}
	return 0;
}

/* ---- Cutoffs ---------------------------------------------------------- */

/*
 * APT cutoffs for alpha = 2^-30 and 2^-60, computed with exact arithmetic by
 * harness/kunit/apt-cutoffs.py from the claimed entropy (credit / 64 bit per
 * sample) and the window: 1 + CRITBINOM(W, 2^-H, 1 - alpha).
 */
struct jtsc_apt_ref {
	unsigned int credit;
	unsigned int window;
	unsigned int cutoff;
	unsigned int perm_cutoff;
};

static const struct jtsc_apt_ref jtsc_apt_refs[] = {
/* BEGIN apt-cutoffs.py output */
	{ 5, 1024, 1008, 1020 },
	{ 8, 1024, 988, 1005 },
	{ 12, 1024, 958, 981 },
	{ 16, 1024, 928, 955 },
	{ 24, 1024, 868, 901 },
	{ 32, 1024, 810, 847 },
	{ 48, 1024, 703, 744 },
	{ 64, 1024, 609, 652 },
	{ 32, 512, 422, 447 },
	{ 64, 512, 325, 355 },
	{ 96, 512, 248, 279 },
	{ 128, 512, 190, 220 },
	{ 192, 512, 114, 139 },
	{ 256, 512, 71, 91 },
/* END apt-cutoffs.py output */
};

/* RCT cutoff (SP 800-90B 4.4.1): 1 + ceil(-log2(alpha) / H), H = credit/64 */
static unsigned int jtsc_test_rct_cutoff(unsigned int log2_alpha,
					 unsigned int credit)
{
	return 1 + DIV_ROUND_UP(log2_alpha * 64, credit);
}

struct jtsc_source_case {
	enum jtsc_source src;
	unsigned int window;
	const char *desc;
};

static const struct jtsc_source_case jtsc_source_cases[] = {
	{ JTSC_SRC_SPEC, 1024, "speculative collector, binary samples" },
	{ JTSC_SRC_TIMER, 512, "timer collector, delta samples" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_source, jtsc_source_cases, desc);

static void jtsc_cutoffs_test(struct kunit *test)
{
	const struct jtsc_source_case *c = test->param_value;
	const struct jtsc_health_params *p = &jtsc_params[c->src];
	const struct jtsc_apt_ref *ref = NULL;
	unsigned int i;

	KUNIT_ASSERT_GT(test, p->credit, 0U);

	KUNIT_EXPECT_EQ(test, p->window, c->window);
	KUNIT_EXPECT_EQ_MSG(test, p->rct_cutoff,
			    jtsc_test_rct_cutoff(30, p->credit),
			    "credit %u/64 bit", p->credit);
	KUNIT_EXPECT_EQ_MSG(test, p->rct_perm_cutoff,
			    jtsc_test_rct_cutoff(60, p->credit),
			    "credit %u/64 bit", p->credit);

	for (i = 0; i < ARRAY_SIZE(jtsc_apt_refs); i++)
		if (jtsc_apt_refs[i].credit == p->credit &&
		    jtsc_apt_refs[i].window == p->window)
			ref = &jtsc_apt_refs[i];
	KUNIT_ASSERT_NOT_NULL_MSG(test, ref,
				  "no reference for credit %u, window %u: rerun harness/kunit/apt-cutoffs.py",
				  p->credit, p->window);
	KUNIT_EXPECT_EQ(test, p->apt_cutoff, ref->cutoff);
	KUNIT_EXPECT_EQ(test, p->apt_perm_cutoff, ref->perm_cutoff);

	/* SP 800-90B 4.3 item 9: the startup test sees at least 1024 samples. */
	KUNIT_EXPECT_GE(test, p->startup_samples, 1024U);
	KUNIT_EXPECT_LT(test, p->rct_cutoff, p->rct_perm_cutoff);
	KUNIT_EXPECT_LT(test, p->apt_cutoff, p->apt_perm_cutoff);
	KUNIT_EXPECT_LE(test, p->apt_perm_cutoff, p->window);
}

/* ---- Health tests on scripted streams ---------------------------------- */

static void jtsc_health_init_test(struct kunit *test)
{
	const struct jtsc_source_case *c = test->param_value;
	const struct jtsc_health_params *p = &jtsc_params[c->src];
	struct jtsc_health *h = jtsc_test_health(test, c->src);
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	u64 prng = 0x5eed0001;

	KUNIT_EXPECT_PTR_EQ(test, h->params, p);
	KUNIT_EXPECT_FALSE(test, jtsc_health_started(h));
	KUNIT_EXPECT_EQ(test, h->startup_left, p->startup_samples);
	KUNIT_EXPECT_EQ(test, h->failures, 0U);

	/* The startup test passes on its last sample, not one earlier. */
	KUNIT_ASSERT_EQ(test, jtsc_test_feed_good(h, c->src, &prng,
						  p->startup_samples - 1, &res),
			p->startup_samples - 1);
	KUNIT_EXPECT_FALSE(test, jtsc_health_started(h));
	KUNIT_ASSERT_EQ(test, jtsc_test_feed_good(h, c->src, &prng, 1, &res),
			1U);
	KUNIT_EXPECT_TRUE(test, jtsc_health_started(h));
}

struct jtsc_stuck_case {
	enum jtsc_source src;
	u64 value;
	const char *desc;
};

static const struct jtsc_stuck_case jtsc_stuck_cases[] = {
	{ JTSC_SRC_SPEC, 0, "speculative collector, all zeros" },
	{ JTSC_SRC_SPEC, 1, "speculative collector, all ones" },
	{ JTSC_SRC_TIMER, 0, "timer collector, counter stuck (delta 0)" },
	{ JTSC_SRC_TIMER, 1000, "timer collector, stuck delta 1000" },
	{ JTSC_SRC_TIMER, U64_MAX, "timer collector, stuck delta U64_MAX" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_stuck, jtsc_stuck_cases, desc);

/*
 * A stuck source fails the RCT intermittently on its rct_cutoff-th sample
 * and, as the run goes on, permanently on its rct_perm_cutoff-th.
 */
static void jtsc_health_stuck_test(struct kunit *test)
{
	const struct jtsc_stuck_case *c = test->param_value;
	const struct jtsc_health_params *p = &jtsc_params[c->src];
	struct jtsc_health *h = jtsc_test_health(test, c->src);
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	unsigned int at;

	at = jtsc_test_feed_stuck(h, c->value, p->window, &res);
	KUNIT_EXPECT_EQ_MSG(test, at, p->rct_cutoff,
			    "value %llu, verdict %s", c->value,
			    jtsc_test_result(res));
	KUNIT_EXPECT_EQ_MSG(test, res, JTSC_HEALTH_INTERMITTENT,
			    "verdict %s", jtsc_test_result(res));
	KUNIT_EXPECT_EQ(test, h->failures, 1U);
	KUNIT_EXPECT_EQ(test, h->startup_left, p->startup_samples);

	at += jtsc_test_feed_stuck(h, c->value, p->window, &res);
	KUNIT_EXPECT_EQ_MSG(test, at, p->rct_perm_cutoff,
			    "value %llu, verdict %s", c->value,
			    jtsc_test_result(res));
	KUNIT_EXPECT_EQ_MSG(test, res, JTSC_HEALTH_PERMANENT,
			    "verdict %s", jtsc_test_result(res));
}

/*
 * The verdicts other than OK that a scripted stream drew, with the 1-based
 * positions of their samples; the stream ends at the first permanent one.
 */
struct jtsc_verdicts {
	unsigned int n;
	unsigned int at[2];
	enum jtsc_health_result res[2];
};

static void jtsc_test_verdict(struct jtsc_verdicts *v, unsigned int at,
			      enum jtsc_health_result res)
{
	if (res == JTSC_HEALTH_OK)
		return;
	if (v->n < ARRAY_SIZE(v->at)) {
		v->at[v->n] = at;
		v->res[v->n] = res;
	}
	v->n++;
}

/* Compares @got with @want and prints both on a mismatch. */
static void jtsc_test_expect_verdicts(struct kunit *test,
				      const struct jtsc_verdicts *got,
				      const struct jtsc_verdicts *want)
{
	unsigned int i;

	KUNIT_EXPECT_EQ_MSG(test, got->n, want->n,
			    "got %s at %u, %s at %u; want %s at %u, %s at %u",
			    got->n > 0 ? jtsc_test_result(got->res[0]) : "-",
			    got->at[0],
			    got->n > 1 ? jtsc_test_result(got->res[1]) : "-",
			    got->at[1],
			    want->n > 0 ? jtsc_test_result(want->res[0]) : "-",
			    want->at[0],
			    want->n > 1 ? jtsc_test_result(want->res[1]) : "-",
			    want->at[1]);
	for (i = 0; i < min(got->n, want->n); i++) {
		KUNIT_EXPECT_EQ_MSG(test, got->res[i], want->res[i],
				    "verdict %u: %s, want %s", i,
				    jtsc_test_result(got->res[i]),
				    jtsc_test_result(want->res[i]));
		KUNIT_EXPECT_EQ_MSG(test, got->at[i], want->at[i],
				    "verdict %u (%s) at the wrong sample", i,
				    jtsc_test_result(got->res[i]));
	}
}

struct jtsc_cutoff_case {
	enum jtsc_source src;
	bool perm;		/* the cutoff for alpha = 2^-60 */
	int offset;		/* added to the cutoff: -1 or 0 */
	bool second_window;	/* a full healthy window comes first */
	const char *desc;
};

static const struct jtsc_cutoff_case jtsc_rct_cases[] = {
	{ JTSC_SRC_SPEC, false, -1, false, "speculative, run of rct_cutoff - 1 passes" },
	{ JTSC_SRC_SPEC, false, 0, false, "speculative, run of rct_cutoff fails" },
	{ JTSC_SRC_SPEC, false, -1, true, "speculative, later window, rct_cutoff - 1 passes" },
	{ JTSC_SRC_SPEC, false, 0, true, "speculative, later window, rct_cutoff fails" },
	{ JTSC_SRC_SPEC, true, -1, false, "speculative, run of rct_perm_cutoff - 1 not permanent" },
	{ JTSC_SRC_SPEC, true, 0, false, "speculative, run of rct_perm_cutoff permanent" },
	{ JTSC_SRC_TIMER, false, -1, false, "timer, run of rct_cutoff - 1 passes" },
	{ JTSC_SRC_TIMER, false, 0, false, "timer, run of rct_cutoff fails" },
	{ JTSC_SRC_TIMER, false, -1, true, "timer, later window, rct_cutoff - 1 passes" },
	{ JTSC_SRC_TIMER, false, 0, true, "timer, later window, rct_cutoff fails" },
	{ JTSC_SRC_TIMER, true, -1, false, "timer, run of rct_perm_cutoff - 1 not permanent" },
	{ JTSC_SRC_TIMER, true, 0, false, "timer, run of rct_perm_cutoff permanent" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_rct, jtsc_rct_cases, desc);

/*
 * Within one APT window: ten alternating samples, then a run of the value
 * 0 (binary) or 7777 (delta) of the cutoff plus offset samples, then samples
 * that never repeat the one before them up to the end of the window. An
 * intermittent failure does not end the run: it goes on to the permanent
 * cutoff.
 */
static void jtsc_health_rct_test(struct kunit *test)
{
	const struct jtsc_cutoff_case *c = test->param_value;
	const struct jtsc_health_params *p = &jtsc_params[c->src];
	struct jtsc_health *h = jtsc_test_health(test, c->src);
	unsigned int run = (c->perm ? p->rct_perm_cutoff : p->rct_cutoff) +
			   c->offset;
	struct jtsc_verdicts got = {}, want = {};
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	bool bin = c->src == JTSC_SRC_SPEC;
	u64 run_value = bin ? 0 : 7777;
	u64 prng = 0x5eed0002;
	unsigned int i;

	KUNIT_ASSERT_LT(test, 10 + run, p->window);
	if (run >= p->rct_cutoff)
		jtsc_test_verdict(&want, 10 + p->rct_cutoff,
				  JTSC_HEALTH_INTERMITTENT);
	if (run >= p->rct_perm_cutoff)
		jtsc_test_verdict(&want, 10 + p->rct_perm_cutoff,
				  JTSC_HEALTH_PERMANENT);

	if (c->second_window) {
		KUNIT_ASSERT_EQ(test, jtsc_test_feed_good(h, c->src, &prng,
							  p->window, &res),
				p->window);
		KUNIT_ASSERT_TRUE(test, jtsc_health_window_closed(h));
	}

	for (i = 0; i < p->window && res != JTSC_HEALTH_PERMANENT; i++) {
		u64 s;

		if (i < 10)
			s = bin ? i & 1 : 100 + i;	/* ends on 1 / 109 */
		else if (i < 10 + run)
			s = run_value;
		else
			s = bin ? !((i - 10 - run) & 1) : 200 + i;
		res = jtsc_health_sample(h, s);
		jtsc_test_verdict(&got, i + 1, res);
	}

	jtsc_test_expect_verdicts(test, &got, &want);
	if (res != JTSC_HEALTH_PERMANENT)
		KUNIT_EXPECT_TRUE(test, jtsc_health_window_closed(h));
}

static const struct jtsc_cutoff_case jtsc_apt_cases[] = {
	{ JTSC_SRC_SPEC, false, -1, false, "speculative, apt_cutoff - 1 in a window passes" },
	{ JTSC_SRC_SPEC, false, 0, false, "speculative, apt_cutoff in a window fails" },
	{ JTSC_SRC_SPEC, false, -1, true, "speculative, later window, apt_cutoff - 1 passes" },
	{ JTSC_SRC_SPEC, false, 0, true, "speculative, later window, apt_cutoff fails" },
	{ JTSC_SRC_SPEC, true, -1, false, "speculative, apt_perm_cutoff - 1 not permanent" },
	{ JTSC_SRC_SPEC, true, 0, false, "speculative, apt_perm_cutoff permanent" },
	{ JTSC_SRC_TIMER, false, -1, false, "timer, apt_cutoff - 1 in a window passes" },
	{ JTSC_SRC_TIMER, false, 0, false, "timer, apt_cutoff in a window fails" },
	{ JTSC_SRC_TIMER, false, -1, true, "timer, later window, apt_cutoff - 1 passes" },
	{ JTSC_SRC_TIMER, false, 0, true, "timer, later window, apt_cutoff fails" },
	{ JTSC_SRC_TIMER, true, -1, false, "timer, apt_perm_cutoff - 1 not permanent" },
	{ JTSC_SRC_TIMER, true, 0, false, "timer, apt_perm_cutoff permanent" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_apt, jtsc_apt_cases, desc);

/*
 * Sample @i of a window holding @hits copies of @ref, the first sample,
 * spread evenly; the other samples are the other bit, or distinct deltas.
 */
static u64 jtsc_test_apt_sample(unsigned int i, unsigned int hits,
				unsigned int window, u64 ref, bool bin)
{
	if ((u64)i * hits % window < hits)
		return ref;
	return bin ? !ref : ref + 1 + i;
}

/*
 * One APT window whose first sample, the reference, occurs the cutoff plus
 * offset times, spread evenly so that no run comes near the RCT cutoff; the
 * other samples never equal the reference. The count goes on after an
 * intermittent failure and can reach the permanent cutoff.
 */
static void jtsc_health_apt_test(struct kunit *test)
{
	const struct jtsc_cutoff_case *c = test->param_value;
	const struct jtsc_health_params *p = &jtsc_params[c->src];
	struct jtsc_health *h = jtsc_test_health(test, c->src);
	unsigned int hits = (c->perm ? p->apt_perm_cutoff : p->apt_cutoff) +
			    c->offset;
	struct jtsc_verdicts got = {}, want = {};
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	unsigned int i, run = 0, longest = 0, count = 0;
	bool bin = c->src == JTSC_SRC_SPEC;
	u64 ref = bin ? 1 : 31337;
	u64 prng = 0x5eed0003;
	u64 s, prev = 0;

	/* The expected verdicts; precondition: no run near the RCT cutoff. */
	for (i = 0; i < p->window; i++) {
		s = jtsc_test_apt_sample(i, hits, p->window, ref, bin);
		run = i && s == prev ? run + 1 : 1;
		longest = max(longest, run);
		prev = s;
		if (s != ref)
			continue;
		if (++count == p->apt_cutoff)
			jtsc_test_verdict(&want, i + 1,
					  JTSC_HEALTH_INTERMITTENT);
		if (count == p->apt_perm_cutoff)
			jtsc_test_verdict(&want, i + 1,
					  JTSC_HEALTH_PERMANENT);
	}
	KUNIT_ASSERT_EQ(test, count, hits);
	KUNIT_ASSERT_LT(test, longest, p->rct_cutoff);

	if (c->second_window) {
		KUNIT_ASSERT_EQ(test, jtsc_test_feed_good(h, c->src, &prng,
							  p->window, &res),
				p->window);
		KUNIT_ASSERT_TRUE(test, jtsc_health_window_closed(h));
	}

	for (i = 0; i < p->window && res != JTSC_HEALTH_PERMANENT; i++) {
		s = jtsc_test_apt_sample(i, hits, p->window, ref, bin);
		res = jtsc_health_sample(h, s);
		jtsc_test_verdict(&got, i + 1, res);
	}

	jtsc_test_expect_verdicts(test, &got, &want);
	if (res != JTSC_HEALTH_PERMANENT)
		KUNIT_EXPECT_TRUE(test, jtsc_health_window_closed(h));
}

/* A healthy stream of 2^20 samples never raises an alarm. */
static void jtsc_health_good_stream_test(struct kunit *test)
{
	const struct jtsc_source_case *c = test->param_value;
	const struct jtsc_health_params *p = &jtsc_params[c->src];
	struct jtsc_health *h = jtsc_test_health(test, c->src);
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	u64 prng = 0x0123456789abcdefULL;
	unsigned int fed;

	fed = jtsc_test_feed_good(h, c->src, &prng, JTSC_TEST_GOOD_SAMPLES,
				  &res);
	KUNIT_EXPECT_EQ_MSG(test, fed, JTSC_TEST_GOOD_SAMPLES,
			    "false alarm (%s) after %u samples",
			    jtsc_test_result(res), fed);
	KUNIT_EXPECT_TRUE(test, jtsc_health_started(h));
	KUNIT_EXPECT_EQ(test, h->failures, 0U);
	KUNIT_EXPECT_EQ(test, h->apt_seen, JTSC_TEST_GOOD_SAMPLES % p->window);
}

/* The same for binary samples fed 64 at a time through jtsc_health_bits(). */
static void jtsc_health_good_bits_test(struct kunit *test)
{
	struct jtsc_health *h = jtsc_test_health(test, JTSC_SRC_SPEC);
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	u64 prng = 0xfedcba9876543210ULL;
	unsigned int i;

	for (i = 0; i < JTSC_TEST_GOOD_SAMPLES / 64; i++) {
		res = jtsc_health_bits(h, jtsc_test_prng(&prng), 64);
		if (res != JTSC_HEALTH_OK)
			break;
	}
	KUNIT_EXPECT_EQ_MSG(test, res, JTSC_HEALTH_OK,
			    "false alarm in word %u", i);
	KUNIT_EXPECT_TRUE(test, jtsc_health_started(h));
}

struct jtsc_biased_case {
	enum jtsc_source src;
	unsigned int permille;	/* probability of the frequent value */
	unsigned int windows;	/* caught within this many windows */
	const char *desc;
};

/*
 * The APT catches a bias in one window once the expected count is well past
 * its cutoff. Speculative samples are credited 5/64 bit (p = 0.947), cutoff
 * 1008 of 1024: at p = 0.995 the count (mean 1019) passes it in all but
 * 2.5e-5 of the windows opened by the frequent value, at p = 0.99 (mean
 * 1014) in 97% of them, so that row allows 4 windows, and at p = 0.98 (mean
 * 1004) in 19%, so that row allows 32. p = 0.97 is too close to the claim
 * for any alpha = 2^-30 test to see in a window of 1024 bits; the timer
 * rows catch p = 0.9 within one window.
 */
static const struct jtsc_biased_case jtsc_biased_cases[] = {
	{ JTSC_SRC_SPEC, 995, 1, "speculative, ones with p = 0.995, one window" },
	{ JTSC_SRC_SPEC, 990, 4, "speculative, ones with p = 0.99, 4 windows" },
	{ JTSC_SRC_SPEC, 980, 32, "speculative, ones with p = 0.98, 32 windows" },
	{ JTSC_SRC_TIMER, 900, 1, "timer, one delta with p = 0.9, one window" },
	{ JTSC_SRC_TIMER, 950, 1, "timer, one delta with p = 0.95, one window" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_biased, jtsc_biased_cases, desc);

/*
 * A biased source is caught within the given number of windows. The first
 * window starts on the frequent value: the APT compares against the first
 * sample of a window, and a window opened by a rare value cannot see the
 * bias.
 */
static void jtsc_health_biased_test(struct kunit *test)
{
	const struct jtsc_biased_case *c = test->param_value;
	const struct jtsc_health_params *p = &jtsc_params[c->src];
	struct jtsc_health *h = jtsc_test_health(test, c->src);
	u64 threshold = div_u64(U64_MAX, 1000) * c->permille;
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	bool bin = c->src == JTSC_SRC_SPEC;
	u64 frequent = bin ? 1 : 5000;
	u64 prng = 0x5eed0004;
	unsigned int i;

	for (i = 0; i < c->windows * p->window; i++) {
		u64 r = jtsc_test_prng(&prng);
		u64 s;

		if (!i || r < threshold)
			s = frequent;
		else
			s = bin ? 0 : frequent + 1 + (r & 0xff);
		res = jtsc_health_sample(h, s);
		if (res != JTSC_HEALTH_OK)
			break;
	}
	KUNIT_EXPECT_EQ_MSG(test, res, JTSC_HEALTH_INTERMITTENT,
			    "p = %u/1000 not caught in %u windows of %u (%s)",
			    c->permille, c->windows, p->window,
			    jtsc_test_result(res));
}

/*
 * Feeds a 1, then a run of rct_cutoff zeros, which ends in a failure;
 * returns the verdict on the last zero.
 */
static enum jtsc_health_result jtsc_test_short_run(struct kunit *test,
						   struct jtsc_health *h)
{
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	unsigned int at;

	KUNIT_EXPECT_EQ(test, jtsc_health_sample(h, 1), JTSC_HEALTH_OK);
	at = jtsc_test_feed_stuck(h, 0, h->params->rct_cutoff, &res);
	KUNIT_EXPECT_EQ_MSG(test, at, h->params->rct_cutoff,
			    "run failed at the wrong sample (%s)",
			    jtsc_test_result(res));
	return res;
}

/*
 * Three intermittent failures without a passed startup test in between are
 * a permanent one; each intermittent failure restarts the startup test.
 */
static void jtsc_health_transition_test(struct kunit *test)
{
	const struct jtsc_source_case *c = test->param_value;
	const struct jtsc_health_params *p = &jtsc_params[c->src];
	struct jtsc_health *h = jtsc_test_health(test, c->src);
	enum jtsc_health_result res;
	unsigned int n;

	for (n = 1; n < JTSC_TEST_MAX_INTERMITTENT; n++) {
		res = jtsc_test_short_run(test, h);
		KUNIT_EXPECT_EQ_MSG(test, res, JTSC_HEALTH_INTERMITTENT,
				    "failure %u: %s", n, jtsc_test_result(res));
		KUNIT_EXPECT_EQ(test, h->failures, n);
		KUNIT_EXPECT_FALSE(test, jtsc_health_started(h));
		KUNIT_EXPECT_EQ(test, h->startup_left, p->startup_samples);
	}
	res = jtsc_test_short_run(test, h);
	KUNIT_EXPECT_EQ_MSG(test, res, JTSC_HEALTH_PERMANENT,
			    "failure %u: %s", n, jtsc_test_result(res));
}

/* A passed startup test forgives earlier intermittent failures. */
static void jtsc_health_recovery_test(struct kunit *test)
{
	const struct jtsc_source_case *c = test->param_value;
	const struct jtsc_health_params *p = &jtsc_params[c->src];
	struct jtsc_health *h = jtsc_test_health(test, c->src);
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	u64 prng = 0x5eed0005;
	unsigned int round, n;

	for (round = 0; round < 3; round++) {
		for (n = 1; n < JTSC_TEST_MAX_INTERMITTENT; n++) {
			res = jtsc_test_short_run(test, h);
			KUNIT_EXPECT_EQ_MSG(test, res, JTSC_HEALTH_INTERMITTENT,
					    "round %u, failure %u: %s", round,
					    n, jtsc_test_result(res));
		}
		KUNIT_ASSERT_EQ(test,
				jtsc_test_feed_good(h, c->src, &prng,
						    p->startup_samples - 1,
						    &res),
				p->startup_samples - 1);
		KUNIT_EXPECT_FALSE(test, jtsc_health_started(h));
		KUNIT_EXPECT_EQ(test, h->failures,
				JTSC_TEST_MAX_INTERMITTENT - 1);
		KUNIT_ASSERT_EQ(test, jtsc_test_feed_good(h, c->src, &prng, 1,
							  &res), 1U);
		KUNIT_EXPECT_TRUE(test, jtsc_health_started(h));
		KUNIT_EXPECT_EQ_MSG(test, h->failures, 0U, "round %u", round);
	}
}

/*
 * jtsc_health_bits() feeds bit 0 first and every bit, even after a failure,
 * so that windows stay aligned with words; it returns the worst verdict.
 */
static void jtsc_health_bits_test(struct kunit *test)
{
	const struct jtsc_health_params *p = &jtsc_params[JTSC_SRC_SPEC];
	struct jtsc_health *h = jtsc_test_health(test, JTSC_SRC_SPEC);
	enum jtsc_health_result res;
	unsigned int left;

	/* Samples 0, 1: the APT reference is 0, the last RCT value 1. */
	KUNIT_EXPECT_EQ(test, jtsc_health_bits(h, 0x2, 2), JTSC_HEALTH_OK);
	KUNIT_EXPECT_EQ(test, h->apt_value, 0ULL);
	KUNIT_EXPECT_EQ(test, h->rct_value, 1ULL);
	KUNIT_EXPECT_EQ(test, h->apt_seen, 2U);
	KUNIT_EXPECT_EQ(test, h->startup_left, p->startup_samples - 2);

	/* nbits = 0 feeds nothing. */
	KUNIT_EXPECT_EQ(test, jtsc_health_bits(h, 0, 0), JTSC_HEALTH_OK);
	KUNIT_EXPECT_EQ(test, h->apt_seen, 2U);

	/* A run of zeros that reaches the cutoff at bit 10 of a word. */
	KUNIT_ASSERT_GT(test, p->rct_cutoff, 11U);
	KUNIT_ASSERT_LT(test, p->rct_cutoff + 53, p->rct_perm_cutoff);
	KUNIT_ASSERT_LT(test, 2 + p->rct_cutoff + 53, p->window);
	for (left = p->rct_cutoff - 11; left; left -= min(left, 64U))
		KUNIT_ASSERT_EQ(test, jtsc_health_bits(h, 0, min(left, 64U)),
				JTSC_HEALTH_OK);
	res = jtsc_health_bits(h, 0, 64);
	KUNIT_EXPECT_EQ_MSG(test, res, JTSC_HEALTH_INTERMITTENT,
			    "verdict %s", jtsc_test_result(res));
	/* Bits 11..63 were tested too, and restarted the startup test. */
	KUNIT_EXPECT_EQ(test, h->rct_run, p->rct_cutoff + 53);
	KUNIT_EXPECT_EQ(test, h->apt_seen, 2 + p->rct_cutoff + 53);
	KUNIT_EXPECT_GE(test, h->startup_left, p->startup_samples - 53);
	KUNIT_EXPECT_FALSE(test, jtsc_health_started(h));
	KUNIT_EXPECT_EQ(test, h->failures, 1U);
}

/*
 * Whole words against single samples: jtsc_health_bits() may take a faster
 * path for 64 samples that start a word of an aligned window. Fed the same
 * stream, it must agree with jtsc_health_sample() bit by bit: the same
 * state, OK exactly where the samples were OK, and where they were not a
 * verdict at least as severe (a word may count two failures that fall on
 * one sample, and restarts the startup test at its end).
 */
enum jtsc_words_kind {
	JTSC_WORDS_PRNG,	/* fair bits */
	JTSC_WORDS_CONST,	/* every bit @arg */
	JTSC_WORDS_BIASED,	/* ones with probability @arg / 1000 */
	JTSC_WORDS_RUNS,	/* fair bits and runs of @base + @arg bits */
	JTSC_WORDS_APT,		/* windows with @base + @arg references */
};

enum jtsc_words_base {
	JTSC_BASE_NONE,
	JTSC_BASE_RCT,
	JTSC_BASE_RCT_PERM,
	JTSC_BASE_APT,
	JTSC_BASE_APT_PERM,
};

struct jtsc_words_case {
	enum jtsc_words_kind kind;
	enum jtsc_words_base base;
	int arg;
	unsigned int nwords;
	const char *desc;
};

static const struct jtsc_words_case jtsc_words_cases[] = {
	{ JTSC_WORDS_PRNG, JTSC_BASE_NONE, 0, SZ_16K, "2^20 fair bits" },
	{ JTSC_WORDS_CONST, JTSC_BASE_NONE, 0, 64, "all zeros" },
	{ JTSC_WORDS_CONST, JTSC_BASE_NONE, 1, 64, "all ones" },
	{ JTSC_WORDS_BIASED, JTSC_BASE_NONE, 900, 1024, "ones with p = 0.9" },
	{ JTSC_WORDS_BIASED, JTSC_BASE_NONE, 950, 1024, "ones with p = 0.95" },
	{ JTSC_WORDS_BIASED, JTSC_BASE_NONE, 990, 1024, "ones with p = 0.99" },
	{ JTSC_WORDS_RUNS, JTSC_BASE_NONE, 63, 256, "runs of 63" },
	{ JTSC_WORDS_RUNS, JTSC_BASE_NONE, 64, 256, "runs of 64" },
	{ JTSC_WORDS_RUNS, JTSC_BASE_NONE, 65, 256, "runs of 65" },
	{ JTSC_WORDS_RUNS, JTSC_BASE_NONE, 128, 256, "runs of 128" },
	{ JTSC_WORDS_RUNS, JTSC_BASE_RCT, -1, 256, "runs of rct_cutoff - 1" },
	{ JTSC_WORDS_RUNS, JTSC_BASE_RCT, 0, 256, "runs of rct_cutoff" },
	{ JTSC_WORDS_RUNS, JTSC_BASE_RCT, 1, 256, "runs of rct_cutoff + 1" },
	{ JTSC_WORDS_RUNS, JTSC_BASE_RCT_PERM, -1, 256, "runs of rct_perm_cutoff - 1" },
	{ JTSC_WORDS_RUNS, JTSC_BASE_RCT_PERM, 0, 256, "runs of rct_perm_cutoff" },
	{ JTSC_WORDS_APT, JTSC_BASE_APT, -1, 256, "windows of apt_cutoff - 1" },
	{ JTSC_WORDS_APT, JTSC_BASE_APT, 0, 256, "windows of apt_cutoff" },
	{ JTSC_WORDS_APT, JTSC_BASE_APT_PERM, -1, 256, "windows of apt_perm_cutoff - 1" },
	{ JTSC_WORDS_APT, JTSC_BASE_APT_PERM, 0, 256, "windows of apt_perm_cutoff" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_words, jtsc_words_cases, desc);

static void jtsc_test_put_bit(u64 *words, unsigned int nwords,
			      unsigned int *pos, u64 bit)
{
	if (*pos < nwords * 64)
		words[*pos / 64] |= (bit & 1) << (*pos % 64);
	(*pos)++;
}

/* Fills @words with the stream of @c. */
static void jtsc_test_make_words(const struct jtsc_words_case *c,
				 const struct jtsc_health_params *p,
				 u64 *words)
{
	u64 threshold = div_u64(U64_MAX, 1000) * c->arg;
	unsigned int n = c->nwords, pos = 0, i, k, len = c->arg;
	u64 prng = 0x5eed0008;

	switch (c->base) {
	case JTSC_BASE_RCT:
		len = p->rct_cutoff + c->arg;
		break;
	case JTSC_BASE_RCT_PERM:
		len = p->rct_perm_cutoff + c->arg;
		break;
	case JTSC_BASE_APT:
		len = p->apt_cutoff + c->arg;
		break;
	case JTSC_BASE_APT_PERM:
		len = p->apt_perm_cutoff + c->arg;
		break;
	default:
		break;
	}

	memset(words, 0, n * sizeof(*words));
	switch (c->kind) {
	case JTSC_WORDS_PRNG:
		for (i = 0; i < n; i++)
			words[i] = jtsc_test_prng(&prng);
		break;
	case JTSC_WORDS_CONST:
		memset(words, c->arg ? 0xff : 0, n * sizeof(*words));
		break;
	case JTSC_WORDS_BIASED:
		while (pos < n * 64)
			jtsc_test_put_bit(words, n, &pos,
					  jtsc_test_prng(&prng) < threshold);
		break;
	case JTSC_WORDS_RUNS:
		/* Gaps of varying length move the runs across words. */
		for (k = 0; pos < n * 64; k++) {
			u64 v = k & 1;

			for (i = 0; i < 100 + k * 29 % 64; i++)
				jtsc_test_put_bit(words, n, &pos,
						  jtsc_test_prng(&prng) >> 63);
			jtsc_test_put_bit(words, n, &pos, !v);
			for (i = 0; i < len; i++)
				jtsc_test_put_bit(words, n, &pos, v);
			jtsc_test_put_bit(words, n, &pos, !v);
		}
		break;
	case JTSC_WORDS_APT:
		for (k = 0; pos < n * 64; k++)
			for (i = 0; i < p->window; i++)
				jtsc_test_put_bit(words, n, &pos,
						  jtsc_test_apt_sample(i, len,
								       p->window,
								       k & 1,
								       true));
		break;
	}
}

static enum jtsc_health_result jtsc_test_bits_one_by_one(struct jtsc_health *h,
							 u64 w)
{
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	unsigned int i;

	for (i = 0; i < 64; i++)
		res = max(res, jtsc_health_sample(h, (w >> i) & 1));
	return res;
}

static void jtsc_health_words_test(struct kunit *test)
{
	const struct jtsc_words_case *c = test->param_value;
	const struct jtsc_health_params *p = &jtsc_params[JTSC_SRC_SPEC];
	struct jtsc_health *hw = jtsc_test_health(test, JTSC_SRC_SPEC);
	struct jtsc_health *hs = jtsc_test_health(test, JTSC_SRC_SPEC);
	enum jtsc_health_result rw = JTSC_HEALTH_OK, rs = JTSC_HEALTH_OK;
	unsigned int i, failures = 0;
	u64 *words;

	words = kunit_kmalloc_array(test, c->nwords, sizeof(*words),
				    GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, words);
	jtsc_test_make_words(c, p, words);

	for (i = 0; i < c->nwords; i++) {
		rw = jtsc_health_bits(hw, words[i], 64);
		rs = jtsc_test_bits_one_by_one(hs, words[i]);
		if (rs == JTSC_HEALTH_OK)
			KUNIT_EXPECT_EQ_MSG(test, rw, rs,
					    "word %u (%#018llx): %s, one by one OK",
					    i, words[i], jtsc_test_result(rw));
		else
			KUNIT_EXPECT_GE_MSG(test, rw, rs,
					    "word %u (%#018llx): %s, one by one %s",
					    i, words[i], jtsc_test_result(rw),
					    jtsc_test_result(rs));
		KUNIT_EXPECT_EQ_MSG(test, hw->rct_value, hs->rct_value,
				    "word %u", i);
		KUNIT_EXPECT_EQ_MSG(test, hw->rct_run, hs->rct_run,
				    "word %u", i);
		KUNIT_EXPECT_EQ_MSG(test, hw->apt_value, hs->apt_value,
				    "word %u", i);
		KUNIT_EXPECT_EQ_MSG(test, hw->apt_count, hs->apt_count,
				    "word %u", i);
		KUNIT_EXPECT_EQ_MSG(test, hw->apt_seen, hs->apt_seen,
				    "word %u", i);
		if (rs != JTSC_HEALTH_OK)
			failures++;
		if (!failures) {
			KUNIT_EXPECT_EQ_MSG(test, hw->startup_left,
					    hs->startup_left, "word %u", i);
			KUNIT_EXPECT_EQ_MSG(test, hw->failures, hs->failures,
					    "word %u", i);
		}
		if (rw == JTSC_HEALTH_PERMANENT ||
		    rs == JTSC_HEALTH_PERMANENT || test->status == KUNIT_FAILURE)
			break;
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
	{ 0x0123456789abcdefULL, 0x0000000000000002ULL, 64,
	  0xb50c939c4ccf6b42ULL, "seed, only bit 1 set" },
	{ 0x0123456789abcdefULL, 0x0000000000000004ULL, 64,
	  0xd50c935a8cceeb40ULL, "seed, only bit 2 set" },
	{ 0x0123456789abcdefULL, 0x0000000000000008ULL, 64,
	  0xe50c9339ecce2b41ULL, "seed, only bit 3 set" },
	{ 0x0123456789abcdefULL, 0x0000000000000010ULL, 64,
	  0xfd0c93085cce4b41ULL, "seed, only bit 4 set" },
	{ 0x0123456789abcdefULL, 0x0000000000000020ULL, 64,
	  0xf10c931084ce7b41ULL, "seed, only bit 5 set" },
	{ 0x0123456789abcdefULL, 0x0000000000000040ULL, 64,
	  0xf70c931ce8ce6341ULL, "seed, only bit 6 set" },
	{ 0x0123456789abcdefULL, 0x0000000000000080ULL, 64,
	  0xf40c931adece6f41ULL, "seed, only bit 7 set" },
	{ 0x0123456789abcdefULL, 0x0000000000000100ULL, 64,
	  0xf58c9319c5ce6941ULL, "seed, only bit 8 set" },
	{ 0x0123456789abcdefULL, 0x0000000000000200ULL, 64,
	  0xf54c9318484e6a41ULL, "seed, only bit 9 set" },
	{ 0x0123456789abcdefULL, 0x0000000000000400ULL, 64,
	  0xf52c93188e8e6bc1ULL, "seed, only bit 10 set" },
	{ 0x0123456789abcdefULL, 0x0000000000000800ULL, 64,
	  0xf51c9318edee6b01ULL, "seed, only bit 11 set" },
	{ 0x0123456789abcdefULL, 0x0000000000001000ULL, 64,
	  0xf5049318dc5e6b61ULL, "seed, only bit 12 set" },
	{ 0x0123456789abcdefULL, 0x0000000000002000ULL, 64,
	  0xf5089318c4866b51ULL, "seed, only bit 13 set" },
	{ 0x0123456789abcdefULL, 0x0000000000004000ULL, 64,
	  0xf50e9318c8ea6b49ULL, "seed, only bit 14 set" },
	{ 0x0123456789abcdefULL, 0x0000000000008000ULL, 64,
	  0xf50d9318cedc6b45ULL, "seed, only bit 15 set" },
	{ 0x0123456789abcdefULL, 0x0000000000010000ULL, 64,
	  0xf50c1318cdc76b43ULL, "seed, only bit 16 set" },
	{ 0x0123456789abcdefULL, 0x0000000000020000ULL, 64,
	  0xf50cd318cc4aeb40ULL, "seed, only bit 17 set" },
	{ 0x0123456789abcdefULL, 0x0000000000040000ULL, 64,
	  0xf50cb318cc8c2b41ULL, "seed, only bit 18 set" },
	{ 0x0123456789abcdefULL, 0x0000000000080000ULL, 64,
	  0xf50c8318ccef4b41ULL, "seed, only bit 19 set" },
	{ 0x0123456789abcdefULL, 0x0000000000100000ULL, 64,
	  0xf50c9b18ccdefb41ULL, "seed, only bit 20 set" },
	{ 0x0123456789abcdefULL, 0x0000000000200000ULL, 64,
	  0xf50c9718ccc62341ULL, "seed, only bit 21 set" },
	{ 0x0123456789abcdefULL, 0x0000000000400000ULL, 64,
	  0xf50c9118ccca4f41ULL, "seed, only bit 22 set" },
	{ 0x0123456789abcdefULL, 0x0000000000800000ULL, 64,
	  0xf50c9218cccc7941ULL, "seed, only bit 23 set" },
	{ 0x0123456789abcdefULL, 0x0000000001000000ULL, 64,
	  0xf50c9398cccf6241ULL, "seed, only bit 24 set" },
	{ 0x0123456789abcdefULL, 0x0000000002000000ULL, 64,
	  0xf50c9358ccceefc1ULL, "seed, only bit 25 set" },
	{ 0x0123456789abcdefULL, 0x0000000004000000ULL, 64,
	  0xf50c9338ccce2901ULL, "seed, only bit 26 set" },
	{ 0x0123456789abcdefULL, 0x0000000008000000ULL, 64,
	  0xf50c9308ccce4a61ULL, "seed, only bit 27 set" },
	{ 0x0123456789abcdefULL, 0x0000000010000000ULL, 64,
	  0xf50c9310ccce7bd1ULL, "seed, only bit 28 set" },
	{ 0x0123456789abcdefULL, 0x0000000020000000ULL, 64,
	  0xf50c931cccce6309ULL, "seed, only bit 29 set" },
	{ 0x0123456789abcdefULL, 0x0000000040000000ULL, 64,
	  0xf50c931accce6f65ULL, "seed, only bit 30 set" },
	{ 0x0123456789abcdefULL, 0x0000000080000000ULL, 64,
	  0xf50c9319ccce6953ULL, "seed, only bit 31 set" },
	{ 0x0123456789abcdefULL, 0x0000000100000000ULL, 64,
	  0xf50c93184cce6a48ULL, "seed, only bit 32 set" },
	{ 0x0123456789abcdefULL, 0x0000000200000000ULL, 64,
	  0xf50c93188cce6bc5ULL, "seed, only bit 33 set" },
	{ 0x0123456789abcdefULL, 0x0000000400000000ULL, 64,
	  0xf50c9318ecce6b03ULL, "seed, only bit 34 set" },
	{ 0x0123456789abcdefULL, 0x0000000800000000ULL, 64,
	  0xf50c9318dcce6b60ULL, "seed, only bit 35 set" },
	{ 0x0123456789abcdefULL, 0x0000001000000000ULL, 64,
	  0xf50c9318c4ce6b51ULL, "seed, only bit 36 set" },
	{ 0x0123456789abcdefULL, 0x0000002000000000ULL, 64,
	  0xf50c9318c8ce6b49ULL, "seed, only bit 37 set" },
	{ 0x0123456789abcdefULL, 0x0000004000000000ULL, 64,
	  0xf50c9318cece6b45ULL, "seed, only bit 38 set" },
	{ 0x0123456789abcdefULL, 0x0000008000000000ULL, 64,
	  0xf50c9318cdce6b43ULL, "seed, only bit 39 set" },
	{ 0x0123456789abcdefULL, 0x0000010000000000ULL, 64,
	  0xf50c9318cc4e6b40ULL, "seed, only bit 40 set" },
	{ 0x0123456789abcdefULL, 0x0000020000000000ULL, 64,
	  0xf50c9318cc8e6b41ULL, "seed, only bit 41 set" },
	{ 0x0123456789abcdefULL, 0x0000040000000000ULL, 64,
	  0xf50c9318ccee6b41ULL, "seed, only bit 42 set" },
	{ 0x0123456789abcdefULL, 0x0000080000000000ULL, 64,
	  0xf50c9318ccde6b41ULL, "seed, only bit 43 set" },
	{ 0x0123456789abcdefULL, 0x0000100000000000ULL, 64,
	  0xf50c9318ccc66b41ULL, "seed, only bit 44 set" },
	{ 0x0123456789abcdefULL, 0x0000200000000000ULL, 64,
	  0xf50c9318ccca6b41ULL, "seed, only bit 45 set" },
	{ 0x0123456789abcdefULL, 0x0000400000000000ULL, 64,
	  0xf50c9318cccc6b41ULL, "seed, only bit 46 set" },
	{ 0x0123456789abcdefULL, 0x0000800000000000ULL, 64,
	  0xf50c9318cccf6b41ULL, "seed, only bit 47 set" },
	{ 0x0123456789abcdefULL, 0x0001000000000000ULL, 64,
	  0xf50c9318ccceeb41ULL, "seed, only bit 48 set" },
	{ 0x0123456789abcdefULL, 0x0002000000000000ULL, 64,
	  0xf50c9318ccce2b41ULL, "seed, only bit 49 set" },
	{ 0x0123456789abcdefULL, 0x0004000000000000ULL, 64,
	  0xf50c9318ccce4b41ULL, "seed, only bit 50 set" },
	{ 0x0123456789abcdefULL, 0x0008000000000000ULL, 64,
	  0xf50c9318ccce7b41ULL, "seed, only bit 51 set" },
	{ 0x0123456789abcdefULL, 0x0010000000000000ULL, 64,
	  0xf50c9318ccce6341ULL, "seed, only bit 52 set" },
	{ 0x0123456789abcdefULL, 0x0020000000000000ULL, 64,
	  0xf50c9318ccce6f41ULL, "seed, only bit 53 set" },
	{ 0x0123456789abcdefULL, 0x0040000000000000ULL, 64,
	  0xf50c9318ccce6941ULL, "seed, only bit 54 set" },
	{ 0x0123456789abcdefULL, 0x0080000000000000ULL, 64,
	  0xf50c9318ccce6a41ULL, "seed, only bit 55 set" },
	{ 0x0123456789abcdefULL, 0x0100000000000000ULL, 64,
	  0xf50c9318ccce6bc1ULL, "seed, only bit 56 set" },
	{ 0x0123456789abcdefULL, 0x0200000000000000ULL, 64,
	  0xf50c9318ccce6b01ULL, "seed, only bit 57 set" },
	{ 0x0123456789abcdefULL, 0x0400000000000000ULL, 64,
	  0xf50c9318ccce6b61ULL, "seed, only bit 58 set" },
	{ 0x0123456789abcdefULL, 0x0800000000000000ULL, 64,
	  0xf50c9318ccce6b51ULL, "seed, only bit 59 set" },
	{ 0x0123456789abcdefULL, 0x1000000000000000ULL, 64,
	  0xf50c9318ccce6b49ULL, "seed, only bit 60 set" },
	{ 0x0123456789abcdefULL, 0x2000000000000000ULL, 64,
	  0xf50c9318ccce6b45ULL, "seed, only bit 61 set" },
	{ 0x0123456789abcdefULL, 0x4000000000000000ULL, 64,
	  0xf50c9318ccce6b43ULL, "seed, only bit 62 set" },
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

/* Folding a word in two halves equals folding it at once. */
static void jtsc_lfsr_split_test(struct kunit *test)
{
	u64 prng = 0x5eed0006;
	unsigned int i;

	for (i = 0; i < 256; i++) {
		u64 state = jtsc_test_prng(&prng), in = jtsc_test_prng(&prng);
		unsigned int k = i % 65;
		u64 whole = jtsc_lfsr_fold(state, in, 64);
		u64 half = jtsc_lfsr_fold(state, in, k);

		if (k < 64)
			half = jtsc_lfsr_fold(half, in >> k, 64 - k);
		KUNIT_EXPECT_EQ_MSG(test, half, whole,
				    "state %#llx, in %#llx, split at %u",
				    state, in, k);
	}
}

/* ---- Fault injection through static stubs ------------------------------ */

enum jtsc_fake_counter {
	JTSC_FAKE_REAL,		/* no stub: the real cycle counter */
	JTSC_FAKE_FINE,		/* fast, odd steps */
	JTSC_FAKE_CONSTANT,
	JTSC_FAKE_COARSE,	/* steps of 1000 */
	JTSC_FAKE_COARSE16,	/* varying multiples of 16 */
	JTSC_FAKE_SLOW,		/* fine steps, 2 us per read */
};

enum jtsc_fake_data {
	JTSC_DATA_GOOD,		/* fixed-seed PRNG */
	JTSC_DATA_STUCK,	/* all-zero words, constant deltas */
	JTSC_DATA_ABSENT,	/* the collector reports -ENODEV */
};

/* The state behind the stubs; test->priv points here. */
struct jtsc_fake {
	enum jtsc_fake_counter counter;
	enum jtsc_fake_data spec;
	enum jtsc_fake_data timer;
	u64 now;
	u64 prng;
	/* with spec == JTSC_DATA_STUCK: this many words, then good; 0: for ever */
	unsigned int spec_stuck_words;
	unsigned long spec_words;
	unsigned long timer_deltas;
};

static struct jtsc_fake *jtsc_fake(void)
{
	return kunit_get_current_test()->priv;
}

static u64 jtsc_fake_read_counter(void)
{
	struct jtsc_fake *f = jtsc_fake();
	u64 r = jtsc_test_prng(&f->prng);

	switch (f->counter) {
	case JTSC_FAKE_CONSTANT:
		return 123456789;
	case JTSC_FAKE_COARSE:
		f->now += 1000;
		break;
	case JTSC_FAKE_COARSE16:
		f->now += 16 * (1 + (r & 7));
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

static int jtsc_fake_spec_collect(u64 *words, unsigned int nwords)
{
	struct jtsc_fake *f = jtsc_fake();
	unsigned int i;

	if (f->spec == JTSC_DATA_ABSENT)
		return -ENODEV;
	for (i = 0; i < nwords; i++) {
		words[i] = f->spec == JTSC_DATA_GOOD ?
			   jtsc_test_prng(&f->prng) : 0;
		if (f->spec == JTSC_DATA_STUCK && f->spec_stuck_words &&
		    !--f->spec_stuck_words)
			f->spec = JTSC_DATA_GOOD;
	}
	f->spec_words += nwords;
	return 0;
}

static int jtsc_fake_timer_collect(u64 *deltas, unsigned int ndeltas)
{
	struct jtsc_fake *f = jtsc_fake();
	unsigned int i;

	if (f->timer == JTSC_DATA_ABSENT)
		return -ENODEV;
	for (i = 0; i < ndeltas; i++)
		deltas[i] = f->timer == JTSC_DATA_GOOD ?
			    jtsc_test_good_sample(JTSC_SRC_TIMER, &f->prng) :
			    1000;
	f->timer_deltas += ndeltas;
	return 0;
}

/* Routes the counter and both collectors of this thread to the fakes. */
static struct jtsc_fake *jtsc_fake_start(struct kunit *test,
					 enum jtsc_fake_counter counter,
					 enum jtsc_fake_data spec,
					 enum jtsc_fake_data timer)
{
	struct jtsc_fake *f = test->priv;

	f->counter = counter;
	f->spec = spec;
	f->timer = timer;
	f->now = 1000000;
	f->prng = 0x5eed0007;
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
 * and then no instance can be set up from a test. Skip, saying so, rather
 * than fail where the counter check cannot pass for that reason.
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
 * The counter check has cases of its own below. Instances on the fakes
 * pass it by this stub, so that they can be set up even where every
 * counter read pays for the stub lookup (KASAN, lockdep).
 */
static int jtsc_test_counter_fit(void)
{
	return 0;
}

/* A private instance on the fakes; it is destroyed when the test ends. */
static struct jtsc_rng *jtsc_test_rng(struct kunit *test,
				      unsigned int collectors)
{
	struct jtsc_rng *rng = kunit_kzalloc(test, sizeof(*rng), GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rng);
	kunit_activate_static_stub(test, jtsc_counter_check, jtsc_test_counter_fit);
	ret = jtsc_rng_init(rng, collectors);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "jtsc_rng_init(%#x)", collectors);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							jtsc_test_destroy,
							rng), 0);
	return rng;
}

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
	u64 ns = ktime_get_ns();
	int ret;

	jtsc_fake_start(test, c->counter, JTSC_DATA_GOOD, JTSC_DATA_GOOD);
	if (!c->ret)
		jtsc_test_need_fast_counter(test);
	ret = jtsc_counter_check();
	ns = ktime_get_ns() - ns;
	KUNIT_EXPECT_EQ_MSG(test, ret, c->ret, "check took %llu ns", ns);
	kunit_info(test, "counter check: %d in %llu ns\n", ret, ns);
}

struct jtsc_init_case {
	enum jtsc_fake_counter counter;
	enum jtsc_fake_data spec;
	enum jtsc_fake_data timer;
	unsigned int request;
	int ret;
	unsigned int collectors;
	const char *desc;
};

static const struct jtsc_init_case jtsc_init_cases[] = {
	{ JTSC_FAKE_FINE, JTSC_DATA_GOOD, JTSC_DATA_GOOD, JTSC_COLLECT_ALL,
	  0, JTSC_COLLECT_ALL, "both collectors healthy" },
	{ JTSC_FAKE_FINE, JTSC_DATA_GOOD, JTSC_DATA_GOOD, JTSC_COLLECT_SPEC,
	  0, JTSC_COLLECT_SPEC, "only the speculative collector requested" },
	{ JTSC_FAKE_FINE, JTSC_DATA_GOOD, JTSC_DATA_GOOD, JTSC_COLLECT_TIMER,
	  0, JTSC_COLLECT_TIMER, "only the timer collector requested" },
	{ JTSC_FAKE_FINE, JTSC_DATA_STUCK, JTSC_DATA_GOOD, JTSC_COLLECT_ALL,
	  0, JTSC_COLLECT_TIMER, "speculative stuck: disabled, timer kept" },
	{ JTSC_FAKE_FINE, JTSC_DATA_GOOD, JTSC_DATA_STUCK, JTSC_COLLECT_ALL,
	  0, JTSC_COLLECT_SPEC, "timer stuck: disabled, speculative kept" },
	{ JTSC_FAKE_FINE, JTSC_DATA_ABSENT, JTSC_DATA_GOOD, JTSC_COLLECT_ALL,
	  0, JTSC_COLLECT_TIMER, "no speculative collector on this CPU" },
	{ JTSC_FAKE_FINE, JTSC_DATA_STUCK, JTSC_DATA_GOOD, JTSC_COLLECT_SPEC,
	  -ENODEV, 0, "the only requested collector is stuck" },
	{ JTSC_FAKE_FINE, JTSC_DATA_STUCK, JTSC_DATA_STUCK, JTSC_COLLECT_ALL,
	  -ENODEV, 0, "both collectors stuck" },
	{ JTSC_FAKE_CONSTANT, JTSC_DATA_GOOD, JTSC_DATA_GOOD, JTSC_COLLECT_ALL,
	  -ENODEV, 0, "constant counter: no collector left" },
	{ JTSC_FAKE_COARSE, JTSC_DATA_GOOD, JTSC_DATA_GOOD, JTSC_COLLECT_ALL,
	  -ENODEV, 0, "coarse counter: no collector left" },
	{ JTSC_FAKE_SLOW, JTSC_DATA_GOOD, JTSC_DATA_GOOD, JTSC_COLLECT_ALL,
	  -ENODEV, 0, "slow counter: no collector left" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_init, jtsc_init_cases, desc);

static void jtsc_rng_init_test(struct kunit *test)
{
	const struct jtsc_init_case *c = test->param_value;
	struct jtsc_rng *rng = kunit_kzalloc(test, sizeof(*rng), GFP_KERNEL);
	struct jtsc_fake *f;
	int ret;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rng);
	f = jtsc_fake_start(test, c->counter, c->spec, c->timer);
	/*
	 * These rows are about the collectors. Where a fine counter cannot
	 * pass the check only because stubbed reads are slow here, the check
	 * is stubbed to pass; its own cases above cover it.
	 */
	if (c->counter == JTSC_FAKE_FINE &&
	    jtsc_test_counter_ns() > JTSC_TEST_FAST_READ_NS) {
		kunit_info(test, "slow stubbed counter reads: counter check stubbed to pass\n");
		kunit_activate_static_stub(test, jtsc_counter_check,
					   jtsc_test_counter_fit);
	}
	ret = jtsc_rng_init(rng, c->request);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	/* A collector not asked for is not sampled. */
	if (!(c->request & JTSC_COLLECT_SPEC))
		KUNIT_EXPECT_EQ(test, f->spec_words, 0UL);
	if (!(c->request & JTSC_COLLECT_TIMER))
		KUNIT_EXPECT_EQ(test, f->timer_deltas, 0UL);
	if (ret)
		return;
	KUNIT_EXPECT_EQ(test, rng->collectors, c->collectors);
	KUNIT_EXPECT_FALSE(test, rng->failed);
	KUNIT_EXPECT_TRUE(test, rng->collectors & BIT(rng->active));
	jtsc_rng_destroy(rng);
}

/* ---- Output path ------------------------------------------------------- */

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
};

KUNIT_ARRAY_PARAM_DESC(jtsc_size, jtsc_size_cases, desc);

/* Guard bytes on each side of the output buffers. */
#define JTSC_TEST_GUARD		16

static bool jtsc_test_all(const u8 *buf, size_t len, u8 byte)
{
	return !len || (buf[0] == byte && !memcmp(buf, buf + 1, len - 1));
}

/* After an error a buffer may be wiped, but must not hold data. */
static bool jtsc_test_no_data(const u8 *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] && buf[i] != JTSC_TEST_CANARY)
			return false;
	return true;
}

/*
 * Generates @len bytes twice through @gen, checking the return code and
 * that nothing outside the buffer is written; two outputs of 8 bytes or
 * more must differ.
 */
static void jtsc_test_sizes(struct kunit *test, unsigned int len,
			    int (*gen)(void *ctx, u8 *dst, unsigned int len),
			    void *ctx, const char *what)
{
	size_t size = len + 2 * JTSC_TEST_GUARD;
	u8 *a = kunit_kmalloc(test, size, GFP_KERNEL);
	u8 *b = kunit_kmalloc(test, size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	memset(a, JTSC_TEST_CANARY, size);
	memset(b, JTSC_TEST_CANARY, size);

	KUNIT_EXPECT_EQ_MSG(test, gen(ctx, a + JTSC_TEST_GUARD, len), 0,
			    "%s: %u bytes", what, len);
	KUNIT_EXPECT_EQ_MSG(test, gen(ctx, b + JTSC_TEST_GUARD, len), 0,
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

static int jtsc_test_gen_private(void *ctx, u8 *dst, unsigned int len)
{
	return jtsc_rng_generate(ctx, dst, len);
}

static int jtsc_test_gen_tfm(void *ctx, u8 *dst, unsigned int len)
{
	return crypto_rng_get_bytes(ctx, dst, len);
}

static void jtsc_generate_sizes_test(struct kunit *test)
{
	const struct jtsc_size_case *c = test->param_value;
	struct jtsc_rng *rng;

	jtsc_fake_start(test, JTSC_FAKE_FINE, JTSC_DATA_GOOD, JTSC_DATA_GOOD);
	rng = jtsc_test_rng(test, JTSC_COLLECT_ALL);
	jtsc_test_sizes(test, c->len, jtsc_test_gen_private, rng,
			"private instance");
}

/* The same through the crypto API, from the real collectors: no stubs. */
static void jtsc_crypto_sizes_test(struct kunit *test)
{
	const struct jtsc_size_case *c = test->param_value;
	struct crypto_rng *tfm = crypto_alloc_rng("jitter_tsc", 0, 0);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tfm);
	jtsc_test_sizes(test, c->len, jtsc_test_gen_tfm, tfm, "crypto API");
	crypto_free_rng(tfm);
}

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

/*
 * 1 MiB of output holds no 64-bit word twice: no block is ever made from
 * pool words used before. The instance runs on the fixed-seed fakes, as
 * the real collectors need minutes for 1 MiB under QEMU's emulation.
 */
static void jtsc_generate_no_repeat_test(struct kunit *test)
{
	const size_t words = SZ_1M / sizeof(u64);
	struct jtsc_rng *rng;
	u64 *buf;
	size_t i;

	buf = kunit_kmalloc_array(test, words, sizeof(*buf), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	jtsc_fake_start(test, JTSC_FAKE_FINE, JTSC_DATA_GOOD, JTSC_DATA_GOOD);
	rng = jtsc_test_rng(test, JTSC_COLLECT_SPEC);
	for (i = 0; i < words; i += SZ_4K / sizeof(u64)) {
		int ret = jtsc_rng_generate(rng, (u8 *)&buf[i], SZ_4K);

		KUNIT_ASSERT_EQ_MSG(test, ret, 0, "at byte %zu",
				    i * sizeof(u64));
		cond_resched();
	}

	KUNIT_EXPECT_EQ_MSG(test, jtsc_test_dups(test, buf, words), 0UL,
			    "repeated words in 1 MiB");
}

/* Calls generate until it fails; returns the error. */
static int jtsc_test_generate_until_error(struct jtsc_rng *rng, u8 *buf,
					  unsigned int len)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < 64 && !ret; i++) {
		memset(buf, JTSC_TEST_CANARY, len);
		ret = jtsc_rng_generate(rng, buf, len);
	}
	return ret;
}

/*
 * A collector that goes stuck for a while after a healthy start, long
 * enough for the intermittent RCT cutoff and too short for the permanent
 * one: the next generate fails with -EAGAIN and returns no data; once the
 * source is healthy again and has passed a new startup test, output
 * resumes.
 */
static void jtsc_generate_intermittent_test(struct kunit *test)
{
	const struct jtsc_health_params *p = &jtsc_params[JTSC_SRC_SPEC];
	unsigned int stuck = DIV_ROUND_UP(p->rct_cutoff, 64);
	struct jtsc_fake *f;
	struct jtsc_rng *rng;
	u8 *buf = kunit_kmalloc(test, 64, GFP_KERNEL);
	int ret, i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	/* The run: the stuck words plus the zeros of the words either side. */
	KUNIT_ASSERT_LT(test, (stuck + 2) * 64, p->rct_perm_cutoff);
	f = jtsc_fake_start(test, JTSC_FAKE_FINE, JTSC_DATA_GOOD,
			    JTSC_DATA_GOOD);
	rng = jtsc_test_rng(test, JTSC_COLLECT_SPEC);
	KUNIT_ASSERT_EQ(test, jtsc_rng_generate(rng, buf, 64), 0);

	f->spec = JTSC_DATA_STUCK;
	f->spec_stuck_words = stuck;
	ret = jtsc_test_generate_until_error(rng, buf, 64);
	KUNIT_EXPECT_EQ(test, ret, -EAGAIN);
	KUNIT_EXPECT_TRUE_MSG(test, jtsc_test_no_data(buf, 64),
			      "data returned with -EAGAIN");
	KUNIT_EXPECT_EQ(test, rng->stats[JTSC_SRC_SPEC].intermittent, 1ULL);
	KUNIT_EXPECT_FALSE(test, rng->failed);
	KUNIT_EXPECT_EQ(test, f->spec, JTSC_DATA_GOOD);

	for (i = 0, ret = -EAGAIN; i < 4 && ret == -EAGAIN; i++)
		ret = jtsc_rng_generate(rng, buf, 64);
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "no recovery after %d calls", i);
	KUNIT_EXPECT_FALSE(test, rng->failed);
}

/*
 * Drives the private instance @rng into a permanent failure by making its
 * collectors stuck. Words that passed their health tests before may still
 * come out; from the first error on, every call fails and returns no data,
 * and the JTSC_TEST_MAX_INTERMITTENT-th error is the permanent one at the
 * latest (a stuck run reaches the permanent RCT cutoff sooner).
 */
static void jtsc_test_make_permanent(struct kunit *test, struct jtsc_rng *rng,
				     struct jtsc_fake *f)
{
	u8 *buf = kunit_kmalloc(test, 64, GFP_KERNEL);
	unsigned int calls, errors = 0;
	int ret = 0;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	f->spec = JTSC_DATA_STUCK;
	f->timer = JTSC_DATA_STUCK;
	for (calls = 0; calls < 64 && ret != -EFAULT; calls++) {
		memset(buf, JTSC_TEST_CANARY, 64);
		ret = jtsc_rng_generate(rng, buf, 64);
		if (!ret) {
			KUNIT_EXPECT_EQ_MSG(test, errors, 0U,
					    "call %u: output after an error",
					    calls);
			continue;
		}
		errors++;
		KUNIT_EXPECT_TRUE_MSG(test, ret == -EAGAIN || ret == -EFAULT,
				      "call %u returned %d", calls, ret);
		KUNIT_EXPECT_TRUE_MSG(test,
				      jtsc_test_no_data(buf, 64),
				      "call %u returned %d and data", calls,
				      ret);
	}
	KUNIT_ASSERT_EQ_MSG(test, ret, -EFAULT, "after %u calls", calls);
	KUNIT_EXPECT_LE(test, errors, JTSC_TEST_MAX_INTERMITTENT);
	KUNIT_EXPECT_TRUE(test, rng->failed);
	KUNIT_EXPECT_EQ(test, rng->stats[rng->active].intermittent,
			errors - 1ULL);
	KUNIT_EXPECT_EQ(test, rng->stats[rng->active].permanent, 1ULL);
	f->spec = JTSC_DATA_GOOD;
	f->timer = JTSC_DATA_GOOD;
}

/*
 * After a permanent failure generate returns -EFAULT and leaves the
 * caller's buffer alone, even once the source looks healthy again.
 */
static void jtsc_generate_permanent_test(struct kunit *test)
{
	struct jtsc_fake *f;
	struct jtsc_rng *rng;
	u8 *buf = kunit_kmalloc(test, 4096, GFP_KERNEL);
	u8 *copy = kunit_kmalloc(test, 4096, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, copy);
	f = jtsc_fake_start(test, JTSC_FAKE_FINE, JTSC_DATA_GOOD,
			    JTSC_DATA_GOOD);
	rng = jtsc_test_rng(test, JTSC_COLLECT_SPEC);
	KUNIT_ASSERT_EQ(test, jtsc_rng_generate(rng, buf, 32), 0);
	jtsc_test_make_permanent(test, rng, f);

	for (i = 0; i < 4096; i++)
		copy[i] = i * 7 + 3;
	for (i = 0; i < 4; i++) {
		unsigned int len = i ? 4096 : 1;

		memcpy(buf, copy, 4096);
		KUNIT_EXPECT_EQ(test, jtsc_rng_generate(rng, buf, len),
				-EFAULT);
		KUNIT_EXPECT_MEMEQ_MSG(test, buf, copy, 4096,
				       "call %u wrote into the buffer", i);
	}
	KUNIT_EXPECT_TRUE(test, rng->failed);
}

/* ---- The pull used by random.c ----------------------------------------- */

struct jtsc_pull_case {
	size_t len;
	bool valid;
	const char *desc;
};

static const struct jtsc_pull_case jtsc_pull_cases[] = {
	{ 8, true, "8 bytes" },
	{ 32, true, "32 bytes" },
	{ 256, true, "256 bytes" },
	{ 0, false, "0 bytes is refused" },
	{ 7, false, "7 bytes is refused" },
	{ 12, false, "12 bytes is refused" },
	{ 264, false, "264 bytes is refused" },
};

KUNIT_ARRAY_PARAM_DESC(jtsc_pull, jtsc_pull_cases, desc);

static u64 jtsc_test_credited(const struct jtsc_rng *rng)
{
	u64 sum = 0;
	unsigned int i;

	for (i = 0; i < JTSC_NR_SOURCES; i++)
		sum += rng->stats[i].credited;
	return sum;
}

/* Healthy data is credited, at most 8 bits per byte, and counted. */
static void jtsc_pull_test(struct kunit *test)
{
	const struct jtsc_pull_case *c = test->param_value;
	u8 *buf = kunit_kmalloc(test, c->len, GFP_KERNEL);
	struct jtsc_rng *rng;
	u64 before;
	int ret;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	memset(buf, JTSC_TEST_CANARY, c->len);
	jtsc_fake_start(test, JTSC_FAKE_FINE, JTSC_DATA_GOOD, JTSC_DATA_GOOD);
	rng = jtsc_test_rng(test, JTSC_COLLECT_ALL);
	before = jtsc_test_credited(rng);

	ret = jtsc_rng_pull(rng, buf, c->len);
	if (!c->valid) {
		KUNIT_EXPECT_LT_MSG(test, ret, 0, "len %zu", c->len);
		KUNIT_EXPECT_TRUE(test, jtsc_test_all(buf, c->len,
						      JTSC_TEST_CANARY));
		KUNIT_EXPECT_EQ(test, jtsc_test_credited(rng), before);
		return;
	}
	KUNIT_EXPECT_GT_MSG(test, ret, 0, "len %zu", c->len);
	KUNIT_EXPECT_LE_MSG(test, ret, (int)c->len * 8, "len %zu", c->len);
	KUNIT_EXPECT_EQ(test, jtsc_test_credited(rng), before + max(ret, 0));
	KUNIT_EXPECT_FALSE(test, jtsc_test_all(buf, c->len, JTSC_TEST_CANARY));
}

/*
 * A stuck source gets no credit, and a dead one never again. Words that
 * passed their window before the source got stuck may still be pulled.
 */
static void jtsc_pull_unhealthy_test(struct kunit *test)
{
	u8 *buf = kunit_kmalloc(test, 32, GFP_KERNEL);
	unsigned int i, errors = 0;
	struct jtsc_fake *f;
	struct jtsc_rng *rng;
	u64 before;
	int ret = 0;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	f = jtsc_fake_start(test, JTSC_FAKE_FINE, JTSC_DATA_GOOD,
			    JTSC_DATA_GOOD);
	rng = jtsc_test_rng(test, JTSC_COLLECT_SPEC);
	KUNIT_ASSERT_GT(test, jtsc_rng_pull(rng, buf, 32), 0);

	f->spec = JTSC_DATA_STUCK;
	for (i = 0; i < 64 && ret != -EFAULT; i++) {
		before = jtsc_test_credited(rng);
		memset(buf, JTSC_TEST_CANARY, 32);
		ret = jtsc_rng_pull(rng, buf, 32);
		if (ret > 0 && !errors) {
			KUNIT_EXPECT_EQ(test, jtsc_test_credited(rng),
					before + ret);
			continue;
		}
		errors++;
		KUNIT_EXPECT_LT_MSG(test, ret, 0, "stuck source, pull %u", i);
		KUNIT_EXPECT_EQ_MSG(test, jtsc_test_credited(rng), before,
				    "stuck source, pull %u credited", i);
		KUNIT_EXPECT_TRUE_MSG(test,
				      jtsc_test_no_data(buf, 32),
				      "pull %u returned %d and data", i, ret);
	}
	KUNIT_EXPECT_EQ(test, ret, -EFAULT);
	KUNIT_EXPECT_TRUE(test, rng->failed);

	/* The source heals; the instance stays dead. */
	f->spec = JTSC_DATA_GOOD;
	for (i = 0; i < 4; i++) {
		before = jtsc_test_credited(rng);
		memset(buf, JTSC_TEST_CANARY, 32);
		KUNIT_EXPECT_LT(test, jtsc_rng_pull(rng, buf, 32), 0);
		KUNIT_EXPECT_EQ(test, jtsc_test_credited(rng), before);
		KUNIT_EXPECT_TRUE(test,
				  jtsc_test_all(buf, 32, JTSC_TEST_CANARY));
	}
}

/*
 * jitter_tsc_pull(), as random.c calls it, draws on the registered
 * instance: it hands out credited, healthy data or an error, never a
 * credit without data.
 */
static void jtsc_pull_global_test(struct kunit *test)
{
	u64 *buf = kunit_kmalloc_array(test, 32, sizeof(*buf), GFP_KERNEL);
	int ret;

	if (!IS_BUILTIN(CONFIG_CRYPTO_JITTER_TSC))
		kunit_skip(test, "jitter_tsc is a module: random.c cannot pull");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	memset(buf, JTSC_TEST_CANARY, 32 * sizeof(*buf));
	ret = jitter_tsc_pull(buf, 32 * sizeof(*buf));
	KUNIT_EXPECT_GT(test, ret, 0);
	KUNIT_EXPECT_LE(test, ret, 32 * 64);
	KUNIT_EXPECT_FALSE(test, jtsc_test_all((u8 *)buf, 32 * sizeof(*buf),
					       JTSC_TEST_CANARY));
	KUNIT_EXPECT_EQ(test, jitter_tsc_pull(buf, 7), -EINVAL);
	KUNIT_EXPECT_EQ(test, jitter_tsc_pull(buf, 33 * sizeof(*buf)), -EINVAL);
}

/* ---- Crypto API -------------------------------------------------------- */

/*
 * The registered algorithm: its driver, two reads that differ, and 16 KiB
 * without a repeated 64-bit word (1 MiB takes minutes under emulation).
 */
static void jtsc_crypto_alloc_test(struct kunit *test)
{
	struct crypto_rng *tfm = crypto_alloc_rng("jitter_tsc", 0, 0);
	u8 *a = kunit_kzalloc(test, 64, GFP_KERNEL);
	u8 *b = kunit_kzalloc(test, 64, GFP_KERNEL);
	u64 *buf = kunit_kmalloc(test, SZ_16K, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tfm);
	KUNIT_EXPECT_STREQ(test, crypto_tfm_alg_driver_name(crypto_rng_tfm(tfm)),
			   "jitter_tsc-generic");
	KUNIT_EXPECT_EQ(test, crypto_rng_get_bytes(tfm, a, 64), 0);
	KUNIT_EXPECT_EQ(test, crypto_rng_get_bytes(tfm, b, 64), 0);
	KUNIT_EXPECT_MEMNEQ(test, a, b, 64);
	KUNIT_EXPECT_EQ(test, crypto_rng_get_bytes(tfm, (u8 *)buf, SZ_16K), 0);
	KUNIT_EXPECT_EQ(test, jtsc_test_dups(test, buf, SZ_16K / sizeof(u64)),
			0UL);
	crypto_free_rng(tfm);
}

#define JTSC_TEST_THREADS	4
#define JTSC_TEST_TIMEOUT	(60 * HZ)

struct jtsc_thread {
	struct completion done;
	bool stop;		/* set: end after @rounds blocks */
	int alloc_err;
	int gen_err;
	unsigned int same;
	unsigned int rounds;
};

/* One transform per thread: allocate, read @rounds blocks or more, free. */
static int jtsc_test_thread(void *data)
{
	struct jtsc_thread *t = data;
	struct crypto_rng *tfm = crypto_alloc_rng("jitter_tsc", 0, 0);
	u8 a[64], b[64];
	unsigned int i;

	if (IS_ERR(tfm)) {
		t->alloc_err = PTR_ERR(tfm);
		goto out;
	}
	memset(b, 0, sizeof(b));
	for (i = 0; i < t->rounds || !READ_ONCE(t->stop); i++) {
		int ret = crypto_rng_get_bytes(tfm, a, sizeof(a));

		if (ret && !t->gen_err)
			t->gen_err = ret;
		if (!memcmp(a, b, sizeof(a)))
			t->same++;
		memcpy(b, a, sizeof(a));
	}
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

/* Several transforms read at once from several kthreads. */
static void jtsc_crypto_threads_test(struct kunit *test)
{
	struct jtsc_thread *t;
	struct task_struct *task;
	unsigned int i;

	t = kunit_kcalloc(test, JTSC_TEST_THREADS, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	for (i = 0; i < JTSC_TEST_THREADS; i++) {
		init_completion(&t[i].done);
		t[i].stop = true;
		t[i].rounds = 64;
		task = kthread_run(jtsc_test_thread, &t[i], "jtsc_kunit/%u", i);
		KUNIT_EXPECT_FALSE_MSG(test, IS_ERR(task), "thread %u", i);
		if (IS_ERR(task))
			complete(&t[i].done);
	}
	for (i = 0; i < JTSC_TEST_THREADS; i++) {
		jtsc_test_wait(test, &t[i], i);
		KUNIT_EXPECT_EQ_MSG(test, t[i].alloc_err, 0, "thread %u", i);
		KUNIT_EXPECT_EQ_MSG(test, t[i].gen_err, 0, "thread %u", i);
		KUNIT_EXPECT_EQ_MSG(test, t[i].same, 0U, "thread %u", i);
	}
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

/* ---- Suite ------------------------------------------------------------- */

static int jtsc_test_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct jtsc_fake), GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

static struct kunit_case jtsc_test_cases[] = {
	KUNIT_CASE_PARAM(jtsc_cutoffs_test, jtsc_source_gen_params),
	KUNIT_CASE_PARAM(jtsc_health_init_test, jtsc_source_gen_params),
	KUNIT_CASE_PARAM(jtsc_health_stuck_test, jtsc_stuck_gen_params),
	KUNIT_CASE_PARAM(jtsc_health_rct_test, jtsc_rct_gen_params),
	KUNIT_CASE_PARAM(jtsc_health_apt_test, jtsc_apt_gen_params),
	KUNIT_CASE_PARAM(jtsc_health_good_stream_test, jtsc_source_gen_params),
	KUNIT_CASE(jtsc_health_good_bits_test),
	KUNIT_CASE_PARAM(jtsc_health_biased_test, jtsc_biased_gen_params),
	KUNIT_CASE_PARAM(jtsc_health_transition_test, jtsc_source_gen_params),
	KUNIT_CASE_PARAM(jtsc_health_recovery_test, jtsc_source_gen_params),
	KUNIT_CASE(jtsc_health_bits_test),
	KUNIT_CASE_PARAM(jtsc_health_words_test, jtsc_words_gen_params),
	KUNIT_CASE_PARAM(jtsc_lfsr_kat_test, jtsc_lfsr_gen_params),
	KUNIT_CASE(jtsc_lfsr_every_bit_test),
	KUNIT_CASE(jtsc_lfsr_split_test),
	KUNIT_CASE_PARAM(jtsc_counter_check_test, jtsc_counter_gen_params),
	KUNIT_CASE_PARAM(jtsc_rng_init_test, jtsc_init_gen_params),
	KUNIT_CASE_PARAM(jtsc_generate_sizes_test, jtsc_size_gen_params),
	KUNIT_CASE_PARAM(jtsc_crypto_sizes_test, jtsc_size_gen_params),
	KUNIT_CASE_SLOW(jtsc_generate_no_repeat_test),
	KUNIT_CASE(jtsc_generate_intermittent_test),
	KUNIT_CASE(jtsc_generate_permanent_test),
	KUNIT_CASE_PARAM(jtsc_pull_test, jtsc_pull_gen_params),
	KUNIT_CASE(jtsc_pull_unhealthy_test),
	KUNIT_CASE(jtsc_pull_global_test),
	KUNIT_CASE(jtsc_crypto_alloc_test),
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
