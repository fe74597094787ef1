// SPDX-License-Identifier: GPL-2.0
/*
 * jitter_tsc core: what raw samples are worth
 *
 * Copyright (C) 2026 Jitter TSC Developers
 *
 * The credit ladder, health tests, folding LFSR and a collector's state
 * machine with its pool; of the kernel only types, bit, string and math
 * helpers, WARN_ON_ONCE() and cond_resched(), so that it runs in user space
 * too.
 * One raw sample, for both collectors, is the low byte of the counter's
 * delta over one pass: what is estimated, health tested and credited.
 */

#include <linux/array_size.h>
#include <linux/bitops.h>
#include <linux/bitrev.h>
#include <linux/bits.h>
#include <linux/bug.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/gcd.h>
#include <linux/limits.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <linux/wordpart.h>

#include "jitter_tsc_internal.h"

/*
 * The credit ladder. The floor is the lowest step whose predictor runs
 * still refuse a deterministic stream within the startup test; the
 * ceiling, 0.75 bit, bounds what a window that looks better than its
 * source can buy (12288 flat samples estimate 7.54 bits). A word folds as
 * many samples, a power of two up to 512, as JTSC_MAX_WORD_CREDIT allows.
 * The tests guard JTSC_GUARD times the credit, H = 2 x credit: a source
 * whose min-entropy stays at or above twice the credit passes, one that
 * falls to it fails. Cutoffs, SP 800-90B 4.4: APT
 * 1 + CRITBINOM(512, 2^-H, 1 - alpha); the RCT (the previous sample's
 * predictor) and the predictors' runs 1 + ceil(-log2(alpha / 128) / H),
 * their hits (W = 4096) 1 + CRITBINOM(4096, 2^-H, 1 - alpha / 128): the 128
 * tests share alpha, so a source at twice the credit trips one in 10^8
 * samples with a probability near 10^-3. W + 1 is never reached. KUnit
 * recomputes them. Columns: credit, samples per word, then RCT, APT, runs,
 * hits cutoffs, each intermittent then permanent.
 */
const struct jtsc_health_params jtsc_ladder[] = {
	{ 2, 512, 2369, 4289, 513, 513, 2369, 4289, 4089, 4097 },
	{ 3, 512, 1580, 2860, 513, 513, 1580, 2860, 4077, 4090 },
	{ 4, 512, 1185, 2145, 513, 513, 1185, 2145, 4064, 4080 },
	{ 6, 512, 791, 1431, 513, 513, 791, 1431, 4035, 4056 },
	{ 8, 512, 593, 1073, 512, 513, 593, 1073, 4003, 4029 },
	{ 12, 512, 396, 716, 508, 513, 396, 716, 3937, 3970 },
	{ 16, 512, 297, 537, 502, 512, 297, 537, 3870, 3909 },
	{ 24, 256, 199, 359, 490, 504, 199, 359, 3733, 3781 },
	{ 32, 256, 149, 269, 477, 494, 149, 269, 3598, 3653 },
	{ 48, 128, 100, 180, 449, 471, 100, 180, 3337, 3401 },
	{ 64, 128, 75, 135, 422, 447, 75, 135, 3091, 3162 },
	{ 96, 64, 51, 91, 371, 399, 51, 91, 2647, 2726 },
	{ 128, 64, 38, 68, 325, 355, 38, 68, 2265, 2346 },
	{ 192, 32, 26, 46, 248, 279, 26, 46, 1658, 1737 },
};

VISIBLE_IF_KUNIT const unsigned int jtsc_ladder_steps = ARRAY_SIZE(jtsc_ladder);

static_assert(JTSC_PRED_WINDOW % JTSC_APT_WINDOW == 0);
static_assert(JTSC_BATCH % JTSC_MAX_SAMPLES_PER_WORD == 0);
static_assert(JTSC_STARTUP_SAMPLES % JTSC_BATCH == 0);
static_assert(JTSC_PRED_WINDOW % JTSC_BATCH == 0);
static_assert(JTSC_PRED_WINDOW <= U16_MAX);
static_assert((JTSC_MAX_LAG & (JTSC_MAX_LAG - 1)) == 0);
static_assert(JTSC_NR_PREDICTORS < 128);

/**
 * jtsc_ladder_pick() - The only place where an estimate becomes a credit
 * @e: a collector's runtime estimate
 * @margin: the collector's margin, JTSC_EST_MARGIN or JTSC_EST_MARGIN_TIMER
 *
 * Context: Any context.
 * Return: the highest step whose credit times @margin is at most the
 * estimate, or -1.
 */
int jtsc_ladder_pick(const struct jtsc_estimate *e, unsigned int margin)
{
	int step;

	for (step = jtsc_ladder_steps - 1; step >= 0; step--) {
		u64 need = (u64)jtsc_ladder[step].credit * margin <<
			   (JTSC_EST_SHIFT - JTSC_ENTROPY_SHIFT);

		if (e->h_min >= need)
			break;
	}
	return step;
}

/*
 * How long to wait after @passes passes of the speculative loop took @ns:
 * a pass faster than JTSC_FLOOR_PS would activate a DRAM row more often
 * than the Rowhammer bound allows (JTSC_FLOOR_PS's comment).
 */
u64 jtsc_floor_wait(u64 ns, unsigned int passes)
{
	u64 floor = div_u64((u64)passes * JTSC_FLOOR_PS, 1000);

	return ns < floor ? floor - ns : 0;
}

/* NULL if @read can time the collectors, else why not: stuck, coarse, slow to read */
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
				c->step = gcd(c->step, (unsigned long)(now - prev));
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
 * Health tests, always on: RCT (SP 800-90B 4.4.1), APT (4.4.2) and a
 * determinism test, which RCT and APT cannot replace at a low credit: 70
 * predictors, the k-th difference repeating (k = 1..4: stuck, stepping,
 * ramping counters), the sample L back (L = 1..64: periods), and the
 * predictor window's first sample and first difference (APTs over 4096
 * samples and their differences, which see a fall from 2 to 1.5 times the
 * credit that 512 samples cannot). A source of H = JTSC_GUARD x credit
 * makes each right with probability at most 2^-H, so their runs and hits
 * per window have cutoffs as the RCT's and APT's.
 */

VISIBLE_IF_KUNIT void jtsc_health_init(struct jtsc_health *h,
				       const struct jtsc_health_params *params)
{
	*h = (struct jtsc_health){ .params = params };
}

/* The verdict on a count that has just grown to @count */
static enum jtsc_health_result jtsc_cutoff(unsigned int count, unsigned int cutoff,
					   unsigned int perm_cutoff)
{
	if (unlikely(count == perm_cutoff))
		return JTSC_HEALTH_PERMANENT;
	if (unlikely(count == cutoff))
		return JTSC_HEALTH_INTERMITTENT;
	return JTSC_HEALTH_OK;
}

/* Count predictor @k's hit */
static enum jtsc_health_result jtsc_predictor_hit(struct jtsc_health *h, unsigned int k)
{
	const struct jtsc_health_params *p = h->params;
	unsigned int run = ++h->run[k], hits = ++h->hits[k];

	if (likely(run < p->run_cutoff && hits < p->hits_cutoff))
		return JTSC_HEALTH_OK;
	return max(jtsc_cutoff(run, p->run_cutoff, p->run_perm_cutoff),
		   jtsc_cutoff(hits, p->hits_cutoff, p->hits_perm_cutoff));
}

/* Count predictor @k's @hit, or end its run */
static enum jtsc_health_result jtsc_predict(struct jtsc_health *h, unsigned int k, bool hit)
{
	if (hit)
		return jtsc_predictor_hit(h, k);
	h->run[k] = 0;
	return JTSC_HEALTH_OK;
}

/* Bit j set for each lag 64 - j that guesses @sample: a zero-byte test, 8 a word */
static u64 jtsc_lag_hits(const struct jtsc_health *h, u8 sample)
{
	const u8 *last64 = h->hist + h->pos;
	const u64 low7 = 0x7f7f7f7f7f7f7f7fULL;
	u64 hits = 0, x, zero;
	unsigned int w;

	for (w = 0; w < JTSC_MAX_LAG / 8; w++) {
		x = get_unaligned_le64(last64 + 8 * w) ^ (sample * 0x0101010101010101ULL);
		zero = ~(((x & low7) + low7) | x | low7);
		hits |= ((zero * 0x0002040810204081ULL) >> 56) << (8 * w);
	}
	return h->seen >= JTSC_MAX_LAG ? hits : hits & ~(~0ULL >> h->seen);
}

/* The last 64 samples, oldest first, at hist[pos..pos + 63] */
static void jtsc_lag_push(struct jtsc_health *h, u8 sample)
{
	h->hist[h->pos] = sample;
	h->hist[h->pos + JTSC_MAX_LAG] = sample;
	h->pos = (h->pos + 1) % JTSC_MAX_LAG;
}

/* Run the health tests over one raw sample: the worst cutoff it reached */
VISIBLE_IF_KUNIT enum jtsc_health_result jtsc_health_sample(struct jtsc_health *h, u8 sample)
{
	const struct jtsc_health_params *p = h->params;
	enum jtsc_health_result res = JTSC_HEALTH_OK;
	u8 last = h->hist[h->pos + JTSC_MAX_LAG - 1];
	u8 diff = sample - last, next;
	u64 hit, ended;
	unsigned int j, k;

	/* 4.4.1: identical consecutive samples */
	if (h->seen && sample == last) {
		h->rct_run++;
		res = jtsc_cutoff(h->rct_run, p->rct_cutoff, p->rct_perm_cutoff);
	} else {
		h->rct_run = 1;
	}

	/* 4.4.2: how often a window's first sample comes back in it */
	if (!h->apt_seen) {
		h->apt_value = sample;
		h->apt_count = 1;
	} else if (sample == h->apt_value) {
		h->apt_count++;
		res = max(res, jtsc_cutoff(h->apt_count, p->apt_cutoff, p->apt_perm_cutoff));
	}
	if (++h->apt_seen == JTSC_APT_WINDOW)
		h->apt_seen = 0;

	/* the window's first sample and first difference predicting the rest of it */
	if (!h->pred_seen) {
		h->first = sample;
		h->first_diff = diff;
	}
	res = max(res, jtsc_predict(h, JTSC_PRED_FIRST, h->pred_seen && sample == h->first));
	res = max(res, jtsc_predict(h, JTSC_PRED_FIRST + 1,
				    h->pred_seen && diff == h->first_diff));

	/* k-th differences repeating (predictors 0, 65 to 67); a zero one, k > 1, is k - 1's */
	for (k = 1; k <= JTSC_NR_DIFF; k++) {
		j = k == 1 ? 0 : JTSC_MAX_LAG + k - 1;
		res = max(res, jtsc_predict(h, j, h->seen > k && diff == h->diff[k - 1] &&
					    (k == 1 || diff)));
		next = diff - h->diff[k - 1];
		h->diff[k - 1] = diff;
		diff = next;
	}

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

/* The longest run still going, which may yet fail: none of it is released. */
VISIBLE_IF_KUNIT unsigned int jtsc_health_hold(const struct jtsc_health *h)
{
	unsigned int hold = h->rct_run > 1 ? h->rct_run : 0;
	unsigned int k;

	for (k = 0; k < JTSC_NR_PREDICTORS; k++)
		hold = max_t(unsigned int, hold, h->run[k]);
	return hold;
}

/*
 * Fold @nbits <= 64 of @in, bit 0 first, into @state: a Fibonacci LFSR,
 * x^64 + x^61 + x^56 + x^31 + x^28 + x^23 + 1, shifting left, one input bit
 * a step, so 64 input bits map bijectively. Folding is not conditioning:
 * the output is SHA-256 over words, random.c mixes its pulls.
 */
VISIBLE_IF_KUNIT u64 jtsc_lfsr_fold(u64 state, u64 in, unsigned int nbits)
{
	u64 rev = (u64)bitrev32(lower_32_bits(in)) << 32 | bitrev32(upper_32_bits(in));

	/* 23 steps at once: the lowest tap, bit 22, sees none of this chunk's bits */
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
 * A collector's life on an instance. A failed startup test refuses it for a
 * doubling backoff: no chance failure retires a source. Only its output's
 * failures retire it, on this instance: a permanent cutoff, or
 * JTSC_MAX_INTERMITTENT intermittent ones with no window released between.
 * An intermittent one empties the pool and restarts the collector a ladder
 * step lower, until the machine changes: the guard saw the source fall to
 * twice the credit, which the next step (2/3 or 3/4 of it) puts back under
 * half, and a healthy source does so only with probability alpha.
 */

/* The first collector usable at @now, -EAGAIN if one backs off, else -ENODEV */
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
}

/*
 * The startup test of @src over JTSC_STARTUP_SAMPLES fresh @samples at
 * ladder @step (refused if negative), the pool emptied; @unit is a second of
 * the clock @now. Returns RUNNING, REFUSED (backing off) or, after an
 * intermittent failure, RESTART or DEAD.
 */
enum jtsc_phase jtsc_core_startup(struct jtsc_core *c, enum jtsc_source src, int step,
				  const u8 *samples, unsigned long now, unsigned long unit)
{
	struct jtsc_life *l = &c->life[src];
	enum jtsc_health_result res = JTSC_HEALTH_PERMANENT;
	unsigned int i;

	jtsc_core_wipe(c);
	if (step >= 0)
		step -= l->demoted;
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

/* A predictor window closed: release its words but the last runs' and lags' */
static void jtsc_release(struct jtsc_core *c, struct jtsc_life *l)
{
	unsigned int held = DIV_ROUND_UP(jtsc_health_hold(&l->health) + JTSC_MAX_LAG,
					 l->health.params->samples_per_word);

	held = min(held, c->pending);
	c->tested += c->pending - held;
	c->pending = held;
	l->failures = 0;
}

/* Health test JTSC_BATCH @raw samples of the running collector, fold them */
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
	l->demoted++;
	if (res == JTSC_HEALTH_PERMANENT || ++l->failures >= JTSC_MAX_INTERMITTENT)
		l->phase = JTSC_DEAD;
	else
		l->phase = JTSC_RESTART;
	return l->phase;
}

/* Entropy of one word of the running collector, in 1/256 bit */
static unsigned int jtsc_word_credit(const struct jtsc_core *c)
{
	const struct jtsc_health_params *p = c->life[c->src].health.params;

	return p->credit * p->samples_per_word;
}

/* The fewest words of the running collector that carry @credit, in 1/256 bit */
unsigned int jtsc_core_words(const struct jtsc_core *c, unsigned int credit)
{
	return DIV_ROUND_UP(credit, jtsc_word_credit(c));
}

/* Drop the first @words words, released ones first */
static void jtsc_core_discard(struct jtsc_core *c, unsigned int words)
{
	unsigned int left = c->tested + c->pending - words;
	unsigned int tested = min(words, c->tested);

	memmove(c->pool, c->pool + words, left * sizeof(c->pool[0]));
	memzero_explicit(c->pool + left, words * sizeof(c->pool[0]));
	c->tested -= tested;
	c->pending -= words - tested;
}

/**
 * jtsc_core_take() - The only place where entropy is credited
 * @c: the instance's core, with at least @words released words
 * @words: how many of its first released words, read from c->pool, go out
 *
 * Each word's samples are credited at its collector's step.
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

/* Drop old words: the next block takes @fresh_credit from new samples */
void jtsc_core_begin_block(struct jtsc_core *c, unsigned int words, unsigned int fresh_credit)
{
	unsigned int fresh = jtsc_core_words(c, fresh_credit);
	unsigned int keep = words > fresh ? words - fresh : 0;
	unsigned int old = c->tested + c->pending;

	if (old > keep)
		jtsc_core_discard(c, old - keep);
}

/*
 * Empty an instance: a startup test again; on a @new_machine, refused and
 * retired ones too, as a new estimate is made for it.
 */
void jtsc_core_park(struct jtsc_core *c, bool new_machine)
{
	unsigned int src;

	jtsc_core_wipe(c);
	for (src = 0; src < JTSC_NR_SOURCES; src++) {
		struct jtsc_life *l = &c->life[src];

		if (new_machine || l->phase == JTSC_RUNNING || l->phase == JTSC_RESTART) {
			l->phase = JTSC_IDLE;
			l->failures = 0;
		}
		if (new_machine) {
			l->backoff = 0;
			l->demoted = 0;
		}
	}
}
