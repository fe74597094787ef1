// SPDX-License-Identifier: GPL-2.0
/*
 * jitter_tsc core: what raw samples are worth
 *
 * Copyright (C) 2026 Jitter TSC Developers
 *
 * The host-independent part: the credit ladder, the health tests, the
 * folding LFSR and the one state machine of a collector's life on an
 * instance (startup test, running, intermittent failure, refusal with a
 * backoff, death) with the pool it fills. It uses no kernel API, so that
 * the same file runs in the kernel, in KUnit and in user space.
 *
 * One raw sample, for both collectors, is the low byte of a cycle-counter
 * delta: the time one pass of the collector's loop took. That byte is what
 * the estimate assesses, what the health tests see and what is credited.
 */

#include <linux/array_size.h>
#include <linux/bitops.h>
#include <linux/bitrev.h>
#include <linux/bits.h>
#include <linux/bug.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <linux/wordpart.h>

#include "jitter_tsc_internal.h"

/*
 * The credit ladder. A collector's entropy per sample differs between
 * machines and loads, so the kernel estimates it once per machine
 * generation (the median of three windows, jitter_tsc_estimate.c) and
 * credits the highest step at or below it divided by the margin. The floor is the
 * lowest step whose predictor runs still refuse a deterministic stream
 * within the startup test; the ceiling, 0.75 bit, bounds what a window
 * that looks better than its source can buy: the estimate of 12288
 * samples stays under 7.6 bits (7.54 for a flat histogram). A word folds
 * the largest power of two of samples, at most 512, that keeps it within
 * JTSC_MAX_WORD_CREDIT.
 *
 * Cutoffs, SP 800-90B 4.4: RCT C = 1 + ceil(-log2(alpha) / H), the
 * predictor runs the same at alpha / 128; APT C = 1 + CRITBINOM(512, 2^-H,
 * 1 - alpha), the predictor hits the same with W = 4096 and alpha / 128.
 * A cutoff of W + 1 cannot be reached at that step. The binomial quantile
 * has no closed form: the values are written out, and the KUnit suite
 * recomputes them.
 */
/* Credit, samples per word, then each cutoff pair: RCT, APT, runs, hits. */
#define JTSC_STEP(c, spw, rct, rctp, apt, aptp, run, runp, hits, hitsp)	{	\
	.credit = c, .samples_per_word = spw,					\
	.rct_cutoff = rct, .rct_perm_cutoff = rctp,				\
	.apt_cutoff = apt, .apt_perm_cutoff = aptp,				\
	.run_cutoff = run, .run_perm_cutoff = runp,				\
	.hits_cutoff = hits, .hits_perm_cutoff = hitsp,				\
}

const struct jtsc_health_params jtsc_ladder[] = {
	JTSC_STEP(2, 512, 3841, 7681, 513, 513, 4737, 8577, 4097, 4097),
	JTSC_STEP(3, 512, 2561, 5121, 513, 513, 3159, 5719, 4094, 4097),
	JTSC_STEP(4, 512, 1921, 3841, 513, 513, 2369, 4289, 4089, 4097),
	JTSC_STEP(6, 512, 1281, 2561, 513, 513, 1580, 2860, 4077, 4090),
	JTSC_STEP(8, 512, 961, 1921, 513, 513, 1185, 2145, 4064, 4080),
	JTSC_STEP(12, 512, 641, 1281, 513, 513, 791, 1431, 4035, 4056),
	JTSC_STEP(16, 512, 481, 961, 512, 513, 593, 1073, 4003, 4029),
	JTSC_STEP(24, 256, 321, 641, 508, 513, 396, 716, 3937, 3970),
	JTSC_STEP(32, 256, 241, 481, 502, 512, 297, 537, 3870, 3909),
	JTSC_STEP(48, 128, 161, 321, 490, 504, 199, 359, 3733, 3781),
	JTSC_STEP(64, 128, 121, 241, 477, 494, 149, 269, 3598, 3653),
	JTSC_STEP(96, 64, 81, 161, 449, 471, 100, 180, 3337, 3401),
	JTSC_STEP(128, 64, 61, 121, 422, 447, 75, 135, 3091, 3162),
	JTSC_STEP(192, 32, 41, 81, 371, 399, 51, 91, 2647, 2726),
};

const unsigned int jtsc_ladder_steps = ARRAY_SIZE(jtsc_ladder);

static_assert(JTSC_PRED_WINDOW % JTSC_APT_WINDOW == 0);
static_assert(JTSC_BATCH % JTSC_MAX_SAMPLES_PER_WORD == 0);
static_assert(JTSC_STARTUP_SAMPLES % JTSC_BATCH == 0);
static_assert(JTSC_PRED_WINDOW % JTSC_BATCH == 0);
static_assert(JTSC_PRED_WINDOW <= U16_MAX);
static_assert((JTSC_MAX_LAG & (JTSC_MAX_LAG - 1)) == 0);
static_assert(JTSC_NR_PREDICTORS < 128);

/* The index of the predictor of the @k-th difference, k >= 1. */
static unsigned int jtsc_pred_diff(unsigned int k)
{
	return k == 1 ? 0 : JTSC_MAX_LAG + k - 1;
}

/**
 * jtsc_ladder_pick() - The step of the credit ladder an estimate allows
 * @e: the runtime estimate of a collector's startup samples
 * @margin: the collector's margin, JTSC_EST_MARGIN or JTSC_EST_MARGIN_TIMER
 *
 * The only place where an entropy estimate becomes a credit: the highest
 * step whose credit, times @margin, is at most the estimate.
 *
 * Context: Any context.
 * Return: an index into jtsc_ladder[], or -1 if the estimate is below
 * @margin times the lowest step (the floor).
 */
int jtsc_ladder_pick(const struct jtsc_estimate *e, unsigned int margin)
{
	int step;

	for (step = jtsc_ladder_steps - 1; step >= 0; step--) {
		/* Credits are in 1/256 bit, the estimate in 2^-32 bit. */
		u64 need = (u64)jtsc_ladder[step].credit * margin <<
			   (JTSC_EST_SHIFT - JTSC_ENTROPY_SHIFT);

		if (e->h_min >= need)
			break;
	}
	return step;
}

/* Euclid's, on the steps of a counter. */
static unsigned long jtsc_gcd(unsigned long a, unsigned long b)
{
	while (b) {
		unsigned long t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/**
 * jtsc_counter_check() - Whether a cycle counter can time the collectors
 * @read: reads the counter
 * @clock_ns: a clock in nanoseconds, to time the reads with
 * @c: what was seen, for the caller's log
 *
 * Both collectors measure with the counter, so one unfit for it disables
 * both: one that mostly stands still, that steps by more than it advances
 * over one of its own reads (it cannot time a read, let alone a pass), or
 * that is slow to read even in the fastest batch (trapped by a hypervisor).
 *
 * Context: Any context.
 * Return: NULL if the counter is fit, else why not.
 */
const char *jtsc_counter_check(u64 (*read)(void), u64 (*clock_ns)(void),
			       struct jtsc_counter *c)
{
	u64 start, first, prev, now, fastest = U64_MAX;
	unsigned int batch, i;

	*c = (struct jtsc_counter){};
	first = read();
	prev = first;
	for (batch = 0; batch < JTSC_COUNTER_READS / JTSC_COUNTER_BATCH; batch++) {
		start = clock_ns();
		for (i = 0; i < JTSC_COUNTER_BATCH; i++) {
			now = read();
			if (now == prev)
				c->stuck++;
			else
				c->step = jtsc_gcd(c->step, (unsigned long)(now - prev));
			prev = now;
		}
		fastest = min(fastest, clock_ns() - start);
	}
	c->read_ns = fastest / JTSC_COUNTER_BATCH;
	if (c->stuck > JTSC_COUNTER_READS * 9 / 10)
		return "stuck";
	if (c->step * JTSC_COUNTER_READS > prev - first)
		return "coarse";
	return c->read_ns > JTSC_COUNTER_MAX_READ_NS ? "slow to read" : NULL;
}

/*
 * Health tests, on raw samples before folding, always on: SP 800-90B 4.4.1
 * (RCT) and 4.4.2 (APT, W = 512), and a determinism test that those two
 * cannot replace at a low credit. Its 68 predictors guess each sample from
 * the ones before: four that the k-th difference, k = 1..4, repeats (a
 * stuck, stepping or polynomially ramping counter; k = 1 is jent_stuck()),
 * and 64 that the sample repeats the one L back (periods up to 64). A
 * healthy source makes each right with probability at most 2^-H; a run of
 * hits, and the hits in a window of JTSC_PRED_WINDOW samples, have cutoffs
 * derived from the credit as the RCT's and the APT's are. An intermittent
 * failure does not reset the counts, so a run that goes on can still reach
 * its permanent cutoff. What the predictors cannot see is the estimate's.
 */

/**
 * jtsc_health_init() - Start the health tests of one collector
 * @h: health-test state to initialise
 * @params: the ladder step whose cutoffs the tests use
 *
 * Context: Any context.
 */
void jtsc_health_init(struct jtsc_health *h, const struct jtsc_health_params *params)
{
	*h = (struct jtsc_health){
		.params = params,
	};
}

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
 * A healthy source makes some twenty hits per sample over the 68
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
 * Return: the worst cutoff the sample reached.
 */
enum jtsc_health_result jtsc_health_sample(struct jtsc_health *h, u8 sample)
{
	const struct jtsc_health_params *p = h->params;
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	u8 last = h->hist[h->pos + JTSC_MAX_LAG - 1];
	u8 diff = sample - last, next;
	u64 hit, ended;
	unsigned int j, k;

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

	/*
	 * The determinism test: the differences, the k-th difference of the
	 * samples being the (k + 1)-th of the counter...
	 */
	for (k = 1; k <= JTSC_NR_DIFF; k++) {
		/*
		 * The k-th difference is known once k + 1 samples were seen.
		 * A zero one repeating, for k > 1, means that the one below
		 * repeats: that is the lower predictor's to count, so that
		 * each deterministic counter makes one predictor run.
		 */
		if (h->seen > k && diff == h->diff[k - 1] && (k == 1 || diff))
			res = max(res, jtsc_predictor_hit(h, jtsc_pred_diff(k)));
		else
			h->run[jtsc_pred_diff(k)] = 0;
		next = diff - h->diff[k - 1];
		h->diff[k - 1] = diff;
		diff = next;
	}

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
	if (h->seen < JTSC_MAX_LAG)
		h->seen++;

	return res;
}

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
unsigned int jtsc_health_hold(const struct jtsc_health *h)
{
	unsigned int hold = h->rct_run > 1 ? h->rct_run : 0;
	unsigned int k;

	for (k = 0; k < JTSC_NR_PREDICTORS; k++)
		hold = max_t(unsigned int, hold, h->run[k]);
	return hold;
}

/*
 * Folding: a 64-bit Fibonacci LFSR, x^64 + x^61 + x^56 + x^31 + x^28 +
 * x^23 + 1, shifting left (taps at bits 63, 60, 55, 30, 27, 22). Each step
 * injects one input bit, so every bit of every sample reaches the state;
 * for a fixed start state the map from 64 input bits is linear and
 * bijective. A word carries at most half its bits in credit. Folding is
 * not conditioning: output is SHA-256 over words, and random.c mixes them.
 */

/**
 * jtsc_lfsr_fold() - Fold input bits into the LFSR state
 * @state: LFSR state
 * @in: input bits, bit 0 injected first
 * @nbits: number of bits of @in to inject, at most 64
 *
 * Context: Any context.
 * Return: the new LFSR state.
 */
u64 jtsc_lfsr_fold(u64 state, u64 in, unsigned int nbits)
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

/*
 * A collector's life on an instance. Its first startup test there, and
 * one after a refusal, may fail by chance (2^-30 per window for a healthy
 * source) or because the source is unfit: either way the collector is
 * refused there for a backoff that doubles, and tried again after it, so
 * that no chance failure retires a source. Only failures of the output
 * retire one, on this instance alone: a permanent cutoff, or
 * JTSC_MAX_INTERMITTENT intermittent ones without a predictor window
 * released in between. An intermittent failure discards what was not
 * handed out and needs a new startup test (SP 800-90B 4.3 (9)).
 */

/**
 * jtsc_core_pick() - The collector an instance should draw on now
 * @c: the instance's core
 * @usable: bits of the collectors that may be used at all
 * @now: the caller's clock, in the unit of jtsc_core_startup()'s @unit
 *
 * Context: Any context.
 * Return: the first usable collector neither dead nor backing off; else
 * -EAGAIN if one is backing off, -ENODEV if none is left.
 */
int jtsc_core_pick(const struct jtsc_core *c, unsigned long usable, unsigned long now)
{
	int src, ret = -ENODEV;

	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		const struct jtsc_life *l = &c->life[src];

		if (!(usable & BIT(src)) || l->phase == JTSC_DEAD)
			continue;
		if (l->phase == JTSC_REFUSED && (long)(now - l->retry_at) < 0) {
			ret = -EAGAIN;
			continue;
		}
		return src;
	}
	return ret;
}

static void jtsc_core_wipe(struct jtsc_core *c)
{
	memzero_explicit(c->pool, sizeof(c->pool));
	memzero_explicit(&c->lfsr, sizeof(c->lfsr));
	c->tested = 0;
	c->pending = 0;
	c->stale = 0;
}

/**
 * jtsc_core_startup() - Run a collector's startup test on an instance
 * @c: the instance's core
 * @src: the collector
 * @step: the ladder step it is credited at, or -1 if its estimate was
 *	below the floor
 * @samples: JTSC_STARTUP_SAMPLES fresh raw samples of @src
 * @now: the caller's clock
 * @unit: the caller's clock ticks in one backoff unit (a second)
 *
 * The pool is emptied whatever the outcome; on success @src fills it.
 *
 * Context: Any context.
 * Return: the collector's new phase: JTSC_RUNNING if the samples passed
 * every health test at @step's cutoffs, JTSC_RESTART or JTSC_DEAD after a
 * failure that follows an intermittent one, JTSC_REFUSED otherwise.
 */
enum jtsc_phase jtsc_core_startup(struct jtsc_core *c, enum jtsc_source src, int step,
				  const u8 *samples, unsigned long now, unsigned long unit)
{
	struct jtsc_life *l = &c->life[src];
	enum jtsc_health_result res = JTSC_HEALTH_PERMANENT;
	unsigned int i;

	jtsc_core_wipe(c);
	if (step >= 0) {
		jtsc_health_init(&l->health, &jtsc_ladder[step]);
		res = JTSC_HEALTH_OK;
		for (i = 0; i < JTSC_STARTUP_SAMPLES; i++) {
			res = max(res, jtsc_health_sample(&l->health, samples[i]));
			if (!(i % JTSC_BATCH))
				cond_resched();
		}
	}
	if (res == JTSC_HEALTH_OK) {
		l->phase = JTSC_RUNNING;
		l->backoff = 0;
		c->src = src;
	} else if (l->phase == JTSC_RESTART && step >= 0) {
		if (res == JTSC_HEALTH_PERMANENT || ++l->failures >= JTSC_MAX_INTERMITTENT)
			l->phase = JTSC_DEAD;
	} else {
		l->phase = JTSC_REFUSED;
		l->backoff = l->backoff ? min_t(unsigned int, 2 * l->backoff, JTSC_BACKOFF_MAX) :
			     JTSC_BACKOFF_MIN;
		l->retry_at = now + l->backoff * unit;
	}
	return l->phase;
}

/*
 * A predictor window closed: release its pending words but those that a
 * run still going reaches into, and those holding its last JTSC_MAX_LAG
 * samples, from which a run of lag L would be predicted.
 */
static void jtsc_release(struct jtsc_core *c, struct jtsc_life *l)
{
	unsigned int held = DIV_ROUND_UP(jtsc_health_hold(&l->health) + JTSC_MAX_LAG,
					 l->health.params->samples_per_word);

	held = min(held, c->pending);
	c->tested += c->pending - held;
	c->pending = held;
	l->failures = 0;
}

/**
 * jtsc_core_feed() - Health test a batch of the running collector, fold it
 * @c: the instance's core, its collector c->src in JTSC_RUNNING
 * @raw: JTSC_BATCH raw samples of it
 *
 * Every sample is tested, even after a failure, so that windows stay
 * aligned with words; words are added until the first failure. Any
 * failure empties the pool.
 *
 * Context: Any context.
 * Return: the collector's phase after the batch: JTSC_RUNNING, or
 * JTSC_RESTART or JTSC_DEAD after a failure.
 */
enum jtsc_phase jtsc_core_feed(struct jtsc_core *c, const u8 *raw)
{
	struct jtsc_life *l = &c->life[c->src];
	unsigned int per_word = l->health.params->samples_per_word;
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	u64 lfsr = c->lfsr;
	unsigned int i, w;

	for (w = 0; w < JTSC_BATCH; w += per_word) {
		for (i = w; i < w + per_word; i++)
			res = max(res, jtsc_health_sample(&l->health, raw[i]));
		if (res != JTSC_HEALTH_OK)
			continue;
		if (WARN_ON_ONCE(c->tested + c->pending >= JTSC_POOL_WORDS)) {
			res = JTSC_HEALTH_PERMANENT;
			continue;
		}
		for (i = w; i < w + per_word; i += sizeof(u64))
			lfsr = jtsc_lfsr_fold(lfsr, get_unaligned_le64(raw + i), 64);
		c->pool[c->tested + c->pending++] = lfsr;
		if (!l->health.pred_seen)
			jtsc_release(c, l);
	}
	c->lfsr = lfsr;
	memzero_explicit(&lfsr, sizeof(lfsr));
	if (res == JTSC_HEALTH_OK)
		return l->phase;
	jtsc_core_wipe(c);
	if (res == JTSC_HEALTH_PERMANENT || ++l->failures >= JTSC_MAX_INTERMITTENT)
		l->phase = JTSC_DEAD;
	else
		l->phase = JTSC_RESTART;
	return l->phase;
}

/* Entropy of one word of the running collector, in 1/256 bit. */
static unsigned int jtsc_word_credit(const struct jtsc_core *c)
{
	const struct jtsc_health_params *p = c->life[c->src].health.params;

	return p->credit * p->samples_per_word;
}

/**
 * jtsc_core_words() - Words of the running collector that carry @credit
 * @c: the instance's core
 * @credit: entropy wanted, in 1/256 bit
 *
 * Context: Any context.
 * Return: the fewest words whose credit is at least @credit.
 */
unsigned int jtsc_core_words(const struct jtsc_core *c, unsigned int credit)
{
	return DIV_ROUND_UP(credit, jtsc_word_credit(c));
}

/* Drop the first @words words, released ones first. */
static void jtsc_core_discard(struct jtsc_core *c, unsigned int words)
{
	unsigned int left = c->tested + c->pending - words;
	unsigned int tested = min(words, c->tested);

	memmove(c->pool, c->pool + words, left * sizeof(c->pool[0]));
	memzero_explicit(c->pool + left, words * sizeof(c->pool[0]));
	c->tested -= tested;
	c->pending -= words - tested;
	c->stale -= min(words, c->stale);
}

/**
 * jtsc_core_take() - Hand out the first released words of the pool
 * @c: the instance's core, with at least @words released words
 * @words: how many; the caller has read them from c->pool
 *
 * The only place where entropy is credited: each word carries its samples
 * at the per-sample credit of its collector's step.
 *
 * Context: Any context.
 * Return: the entropy of the words, in 1/256 bit.
 */
unsigned int jtsc_core_take(struct jtsc_core *c, unsigned int words)
{
	unsigned int credit = words * jtsc_word_credit(c);

	jtsc_core_discard(c, words);
	return credit;
}

/**
 * jtsc_core_begin_request() - Keep a new request's output fresh
 * @c: the instance's core, its collector running
 * @words: words in the request's first block
 * @fresh_credit: entropy that block must take from samples collected
 *	after this call, in 1/256 bit
 *
 * Words made before the request are marked stale, and the oldest dropped
 * so that at most @words less those carrying @fresh_credit are left: a
 * clone of the machine, which holds the same pool, cannot predict the
 * block from it.
 *
 * Context: Any context.
 */
void jtsc_core_begin_request(struct jtsc_core *c, unsigned int words,
			     unsigned int fresh_credit)
{
	unsigned int fresh = jtsc_core_words(c, fresh_credit);
	unsigned int keep = words > fresh ? words - fresh : 0;

	c->stale = c->tested + c->pending;
	if (c->stale > keep)
		jtsc_core_discard(c, c->stale - keep);
}

/**
 * jtsc_core_park() - Empty an instance between uses
 * @c: the instance's core
 * @new_machine: the machine may have changed (VM fork, resume): refused
 *	collectors are tried at once
 *
 * Every collector not dead needs a new startup test before its next words.
 *
 * Context: Any context.
 */
void jtsc_core_park(struct jtsc_core *c, bool new_machine)
{
	unsigned int src;

	jtsc_core_wipe(c);
	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		struct jtsc_life *l = &c->life[src];

		if (l->phase == JTSC_RUNNING || l->phase == JTSC_RESTART ||
		    (new_machine && l->phase == JTSC_REFUSED)) {
			l->phase = JTSC_IDLE;
			l->failures = 0;
		}
		if (new_machine)
			l->backoff = 0;
	}
}
