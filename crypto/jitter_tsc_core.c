// SPDX-License-Identifier: GPL-2.0
/*
 * jitter_tsc core: what raw samples are worth
 *
 * Copyright (C) 2026 Jitter TSC Developers
 *
 * The host-independent part of jitter_tsc, beside crypto/jitter_tsc_estimate.c:
 * no kernel API is used here, so that the same file is built into the
 * module, driven by the KUnit suite and compiled in user space by the
 * measurement tools (harness/measure/include stands in for the headers).
 * It is divided into these sections:
 *
 *   - The credit ladder: the per-sample credits a collector can be given,
 *     each with the cutoffs of its health tests, and the rule that picks
 *     one from the runtime estimate of crypto/jitter_tsc_estimate.c.
 *   - Health tests: the SP 800-90B Repetition Count and Adaptive Proportion
 *     Tests and a determinism test, as pure functions over raw samples.
 *   - Folding: the LFSR that folds raw samples into pool words.
 *
 * One raw sample, for both collectors, is the low byte of a cycle-counter
 * delta: the time one pass of the collector's loop took. That byte, and
 * nothing derived from the counter's value, is what the estimate
 * assesses, what the health tests see and what is credited.
 */

#include <crypto/internal/jitter_tsc_core.h>
#include <kunit/visibility.h>
#include <linux/array_size.h>
#include <linux/bitops.h>
#include <linux/bitrev.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <linux/wordpart.h>

/*********************************************************************
 *
 * The credit ladder
 *
 * A collector's entropy per sample differs between machines and loads
 * (the rst's Measurements), so no compile-time credit is right for all of
 * them. Each startup test therefore estimates the min-entropy of the very
 * samples it tests, with the SP 800-90B non-IID estimators of
 * crypto/jitter_tsc_estimate.c, and credits the highest step of this ladder
 * at or below that estimate divided by a margin, 8 for the speculative
 * collector (JTSC_EST_MARGIN) and 32 for the timer one
 * (JTSC_EST_MARGIN_TIMER):
 *
 *   - The margin covers two things: the halving that SP 800-90B's own
 *     practice and this driver's rule ask for, and the optimism of an
 *     estimate over JTSC_STARTUP_SAMPLES against one over 10^6 samples of
 *     the same source. harness/measure/check-margin.py computes, for every
 *     sample file we have (each host quiet and loaded, the TCG guest,
 *     the loop variants, synthetic sources of known min-entropy),
 *     the step this rule picks from the worst startup-sized window of the
 *     file, and fails unless it is at most half of the file's 10^6-sample
 *     estimate; Documentation/crypto/jitter_tsc.rst has the table. The
 *     timer collector's samples come in bursts: one startup-sized window
 *     of a TCG guest's looked 14 times richer than its 10^6 samples,
 *     which is why its margin is 32.
 *   - The floor is the lowest step whose predictor runs can still refuse a
 *     deterministic stream within the startup test (a run needs
 *     JTSC_PRED_WINDOW + JTSC_MAX_LAG + run_cutoff samples at most). Below
 *     it the collector is refused: nothing is credited that could not be
 *     justified.
 *   - The ceiling, 192/256 = 0.75 bit per sample, bounds what a short run
 *     that looks better than its source can buy: the speculative
 *     collector reaches it only at an estimate of 6 bits, the timer one
 *     never. It is also about the most a startup test can reach: the most
 *     common value's upper bound keeps an estimate of 12288 samples under
 *     7.6 bits (7.54 for a flat histogram).
 *
 * Steps are about 1.5x apart. A word folds at most 512 samples and carries
 * at most JTSC_MAX_WORD_CREDIT, so a step's samples per word is the largest
 * power of two that keeps it there.
 *
 *********************************************************************/

/*
 * SP 800-90B 4.4.1: the RCT cutoff C = 1 + ceil(-log2(alpha) / H), and the
 * predictors' run cutoffs by the same formula at alpha / 128. 4.4.2: the
 * APT cutoff C = 1 + CRITBINOM(W, 2^-H, 1 - alpha), the smallest count
 * whose binomial CDF reaches 1 - alpha (W = 512, alpha = 2^-30 and 2^-60),
 * and the predictors' hits cutoffs by the same formula (W = 4096, alpha /
 * 128). A cutoff of W + 1 means that test cannot fail at that credit; the
 * RCT and the predictor runs still can. The binomial quantile has no
 * closed form, so all of them are written out, computed exactly by
 * harness/measure/check-cutoffs.py, which make check runs against this
 * table, as the KUnit suite does against the formulas and its own table.
 * The suite also checks what every step must satisfy: a word carries at
 * most JTSC_MAX_WORD_CREDIT and folds whole u64 of samples, windows and
 * batches end on word boundaries, each cutoff pair is ordered, runs fit
 * their u16 counters, and a predictor run that starts in the first window
 * of the startup test ends inside it.
 */
const struct jtsc_health_params jtsc_ladder[] = {
	{
		.credit = 2, .samples_per_word = 512,
		.rct_cutoff = 3841, .rct_perm_cutoff = 7681,
		.apt_cutoff = 513, .apt_perm_cutoff = 513,
		.run_cutoff = 4737, .run_perm_cutoff = 8577,
		.hits_cutoff = 4097, .hits_perm_cutoff = 4097,
	},
	{
		.credit = 3, .samples_per_word = 512,
		.rct_cutoff = 2561, .rct_perm_cutoff = 5121,
		.apt_cutoff = 513, .apt_perm_cutoff = 513,
		.run_cutoff = 3159, .run_perm_cutoff = 5719,
		.hits_cutoff = 4094, .hits_perm_cutoff = 4097,
	},
	{
		.credit = 4, .samples_per_word = 512,
		.rct_cutoff = 1921, .rct_perm_cutoff = 3841,
		.apt_cutoff = 513, .apt_perm_cutoff = 513,
		.run_cutoff = 2369, .run_perm_cutoff = 4289,
		.hits_cutoff = 4089, .hits_perm_cutoff = 4097,
	},
	{
		.credit = 6, .samples_per_word = 512,
		.rct_cutoff = 1281, .rct_perm_cutoff = 2561,
		.apt_cutoff = 513, .apt_perm_cutoff = 513,
		.run_cutoff = 1580, .run_perm_cutoff = 2860,
		.hits_cutoff = 4077, .hits_perm_cutoff = 4090,
	},
	{
		.credit = 8, .samples_per_word = 512,
		.rct_cutoff = 961, .rct_perm_cutoff = 1921,
		.apt_cutoff = 513, .apt_perm_cutoff = 513,
		.run_cutoff = 1185, .run_perm_cutoff = 2145,
		.hits_cutoff = 4064, .hits_perm_cutoff = 4080,
	},
	{
		.credit = 12, .samples_per_word = 512,
		.rct_cutoff = 641, .rct_perm_cutoff = 1281,
		.apt_cutoff = 513, .apt_perm_cutoff = 513,
		.run_cutoff = 791, .run_perm_cutoff = 1431,
		.hits_cutoff = 4035, .hits_perm_cutoff = 4056,
	},
	{
		.credit = 16, .samples_per_word = 512,
		.rct_cutoff = 481, .rct_perm_cutoff = 961,
		.apt_cutoff = 512, .apt_perm_cutoff = 513,
		.run_cutoff = 593, .run_perm_cutoff = 1073,
		.hits_cutoff = 4003, .hits_perm_cutoff = 4029,
	},
	{
		.credit = 24, .samples_per_word = 256,
		.rct_cutoff = 321, .rct_perm_cutoff = 641,
		.apt_cutoff = 508, .apt_perm_cutoff = 513,
		.run_cutoff = 396, .run_perm_cutoff = 716,
		.hits_cutoff = 3937, .hits_perm_cutoff = 3970,
	},
	{
		.credit = 32, .samples_per_word = 256,
		.rct_cutoff = 241, .rct_perm_cutoff = 481,
		.apt_cutoff = 502, .apt_perm_cutoff = 512,
		.run_cutoff = 297, .run_perm_cutoff = 537,
		.hits_cutoff = 3870, .hits_perm_cutoff = 3909,
	},
	{
		.credit = 48, .samples_per_word = 128,
		.rct_cutoff = 161, .rct_perm_cutoff = 321,
		.apt_cutoff = 490, .apt_perm_cutoff = 504,
		.run_cutoff = 199, .run_perm_cutoff = 359,
		.hits_cutoff = 3733, .hits_perm_cutoff = 3781,
	},
	{
		.credit = 64, .samples_per_word = 128,
		.rct_cutoff = 121, .rct_perm_cutoff = 241,
		.apt_cutoff = 477, .apt_perm_cutoff = 494,
		.run_cutoff = 149, .run_perm_cutoff = 269,
		.hits_cutoff = 3598, .hits_perm_cutoff = 3653,
	},
	{
		.credit = 96, .samples_per_word = 64,
		.rct_cutoff = 81, .rct_perm_cutoff = 161,
		.apt_cutoff = 449, .apt_perm_cutoff = 471,
		.run_cutoff = 100, .run_perm_cutoff = 180,
		.hits_cutoff = 3337, .hits_perm_cutoff = 3401,
	},
	{
		.credit = 128, .samples_per_word = 64,
		.rct_cutoff = 61, .rct_perm_cutoff = 121,
		.apt_cutoff = 422, .apt_perm_cutoff = 447,
		.run_cutoff = 75, .run_perm_cutoff = 135,
		.hits_cutoff = 3091, .hits_perm_cutoff = 3162,
	},
	{
		.credit = 192, .samples_per_word = 32,
		.rct_cutoff = 41, .rct_perm_cutoff = 81,
		.apt_cutoff = 371, .apt_perm_cutoff = 399,
		.run_cutoff = 51, .run_perm_cutoff = 91,
		.hits_cutoff = 2647, .hits_perm_cutoff = 2726,
	},
};
EXPORT_SYMBOL_IF_KUNIT(jtsc_ladder);

const unsigned int jtsc_ladder_steps = ARRAY_SIZE(jtsc_ladder);
EXPORT_SYMBOL_IF_KUNIT(jtsc_ladder_steps);

static_assert(JTSC_PRED_WINDOW % JTSC_APT_WINDOW == 0);
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
EXPORT_SYMBOL_IF_KUNIT(jtsc_ladder_pick);

/*********************************************************************
 *
 * Health tests
 *
 * On raw samples, before folding, always on, for both collectors alike:
 *
 *   - SP 800-90B 4.4.1, the Repetition Count Test, on the samples;
 *   - SP 800-90B 4.4.2, the Adaptive Proportion Test, W = 512;
 *   - a determinism test that the two above cannot replace at a low
 *     credit: 68 predictors, each of which guesses every sample from the
 *     ones before it. Four guess that the k-th difference of the samples,
 *     k = 1..4, repeats the last one (for k > 1, a nonzero one): a counter
 *     that stands still, steps by a fixed amount or whose step grows by a
 *     fixed amount (a quadratic ramp) makes the first true, and a cubic,
 *     quartic or quintic ramp makes the k = 2, 3 or 4 one true, from the
 *     (k + 2)-th sample on; the k = 1 one is the stuck test of jent_stuck()
 *     in crypto/jitterentropy.c. Each guesses one value per sample, so a
 *     healthy source makes it right with probability at most 2^-H.
 *     Predictor L, for L = 1..64, guesses that a sample repeats the one L
 *     samples back, which a periodic delta stream of period up to 64, an
 *     alternating one included, makes true.
 *     A run of hits of any predictor, and its hits over a window of
 *     JTSC_PRED_WINDOW samples, have cutoffs derived from the credit as
 *     the RCT's and the APT's are. Longer periods, and anything else a
 *     few predictors cannot see, are the runtime estimate's to find.
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
 * @params: the ladder step whose cutoffs the tests use
 *
 * The state starts in the startup test: jtsc_health_started() is false
 * until JTSC_STARTUP_SAMPLES samples have passed.
 *
 * Context: Any context.
 */
void jtsc_health_init(struct jtsc_health *h, const struct jtsc_health_params *params)
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
 * Return: JTSC_HEALTH_OK, JTSC_HEALTH_INTERMITTENT when a cutoff for
 * alpha = 2^-30 was reached with this sample, or JTSC_HEALTH_PERMANENT when
 * a cutoff for alpha = 2^-60 was reached or the intermittent failures ran
 * out.
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
unsigned int jtsc_health_hold(const struct jtsc_health *h)
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
 * state, bijective. A pool word folds a step's samples_per_word samples, as
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
EXPORT_SYMBOL_IF_KUNIT(jtsc_lfsr_fold);
