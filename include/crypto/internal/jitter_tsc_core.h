/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jitter_tsc core: health tests, folding, runtime estimate and credit ladder
 *
 * The part of jitter_tsc that decides what raw samples are worth, with no
 * kernel API in it: crypto/jitter_tsc_core.c and crypto/jitter_tsc_estimate.c
 * compile unchanged in the kernel, in the KUnit suite and in user space,
 * where harness/measure/include stands in for the few kernel headers they
 * use. The glue in crypto/jitter_tsc_kcapi.c owns the collectors, the pool,
 * the locking and the crypto API.
 */
#ifndef _CRYPTO_INTERNAL_JITTER_TSC_CORE_H
#define _CRYPTO_INTERNAL_JITTER_TSC_CORE_H

#include <crypto/internal/jitter_tsc_estimate.h>
#include <linux/types.h>

enum {
	/* Entropy is counted in 1/256 bit. */
	JTSC_ENTROPY_SHIFT = 8,

	/* SP 800-90B 4.4.2: W = 512 for samples that are not binary. */
	JTSC_APT_WINDOW = 512,

	/*
	 * The determinism test counts the hits of each predictor over a
	 * window of 4096 samples, eight APT windows: long enough that at
	 * the credits of the upper ladder an always-right predictor reaches
	 * the permanent cutoff within one window, while one that is right
	 * as often as a healthy source allows does not.
	 */
	JTSC_PRED_WINDOW = 4096,

	/*
	 * SP 800-90B 4.3 (9): the startup test covers at least 1024
	 * samples; ours covers three predictor windows, so that a
	 * deterministic stream that begins anywhere in the first is refused
	 * before any output even at the floor credit, where a run of hits
	 * needs up to 4737 samples after its first JTSC_MAX_LAG to fail.
	 * The runtime estimate is made over the same samples.
	 */
	JTSC_STARTUP_SAMPLES = 3 * JTSC_PRED_WINDOW,

	/* SP 800-90B 4.4: alpha = 2^-30 intermittent, 2^-60 permanent. */
	JTSC_ALPHA_LOG2 = 30,
	JTSC_PERM_ALPHA_LOG2 = 60,

	/*
	 * The predictors are held to alpha / 128 each, so that by the union
	 * bound the chance that any of the JTSC_NR_PREDICTORS trips on a
	 * healthy source stays below alpha.
	 */
	JTSC_PRED_ALPHA_LOG2 = JTSC_ALPHA_LOG2 + 7,
	JTSC_PRED_PERM_ALPHA_LOG2 = JTSC_PERM_ALPHA_LOG2 + 7,

	/*
	 * Intermittent failures without a passed startup test in between
	 * before a source is declared dead: each one has probability 2^-30
	 * for a healthy source, so three in a row mean it is broken.
	 */
	JTSC_MAX_INTERMITTENT = 3,

	/* A pool word carries at most 32 credited bits, half its size. */
	JTSC_MAX_WORD_CREDIT = 32 << JTSC_ENTROPY_SHIFT,
	/* A word folds at most this many raw samples. */
	JTSC_MAX_SAMPLES_PER_WORD = 512,

	/*
	 * The runtime estimate over the credit, for the speculative and the
	 * timer collector: crypto/jitter_tsc_core.c says why,
	 * harness/measure/check-margin.py checks them.
	 */
	JTSC_EST_MARGIN = 8,
	JTSC_EST_MARGIN_TIMER = 32,
};

/*
 * The predictors of the determinism test: predictor L, for L from 1 to
 * JTSC_MAX_LAG, guesses that a sample repeats the one L samples back;
 * predictor 0 and the JTSC_NR_DIFF - 1 after the lags guess that the k-th
 * difference of the samples, k = 1 .. JTSC_NR_DIFF, repeats the last one,
 * as it does for a counter whose (k + 1)-th difference is constant: the
 * first difference's is predictor 0, the k-th's JTSC_MAX_LAG + k - 1.
 */
#define JTSC_MAX_LAG		64
#define JTSC_NR_DIFF		4
#define JTSC_NR_PREDICTORS	(JTSC_MAX_LAG + JTSC_NR_DIFF)

/**
 * enum jtsc_health_result - Verdict of the health tests
 * @JTSC_HEALTH_OK: no failure
 * @JTSC_HEALTH_INTERMITTENT: a cutoff for alpha = 2^-30 was reached; the
 *	samples not yet released are discarded and the startup test runs
 *	again before any further output
 * @JTSC_HEALTH_PERMANENT: a cutoff for alpha = 2^-60 was reached, or too
 *	many intermittent failures came in a row; the source is dead
 */
enum jtsc_health_result {
	JTSC_HEALTH_OK,
	JTSC_HEALTH_INTERMITTENT,
	JTSC_HEALTH_PERMANENT,
};

/**
 * struct jtsc_health_params - One step of the credit ladder
 * @credit: min-entropy credited per raw sample, in 1/256 bit
 * @samples_per_word: raw samples folded into one pool word
 * @rct_cutoff: Repetition Count Test cutoff for alpha = 2^-30 (4.4.1)
 * @rct_perm_cutoff: Repetition Count Test cutoff for alpha = 2^-60
 * @apt_cutoff: Adaptive Proportion Test cutoff for alpha = 2^-30 (4.4.2)
 * @apt_perm_cutoff: Adaptive Proportion Test cutoff for alpha = 2^-60
 * @run_cutoff: longest run of hits of any one predictor, alpha = 2^-37
 * @run_perm_cutoff: the same for alpha = 2^-67
 * @hits_cutoff: hits of any one predictor in a predictor window, 2^-37
 * @hits_perm_cutoff: the same for alpha = 2^-67
 *
 * Every cutoff follows from @credit by the formulas of SP 800-90B 4.4;
 * harness/measure/check-cutoffs.py recomputes each one.
 */
struct jtsc_health_params {
	unsigned int credit;
	unsigned int samples_per_word;
	unsigned int rct_cutoff;
	unsigned int rct_perm_cutoff;
	unsigned int apt_cutoff;
	unsigned int apt_perm_cutoff;
	unsigned int run_cutoff;
	unsigned int run_perm_cutoff;
	unsigned int hits_cutoff;
	unsigned int hits_perm_cutoff;
};

/**
 * struct jtsc_health - Running state of the health tests of one collector
 * @params: the ladder step its cutoffs come from
 * @seen: samples seen since jtsc_health_init(), up to JTSC_MAX_LAG
 * @rct_run: length of the current run of identical samples
 * @apt_value: first sample of the current Adaptive Proportion Test window
 * @apt_seen: samples seen in the current APT window
 * @apt_count: occurrences of @apt_value in the current APT window
 * @pred_seen: samples seen in the current predictor window
 * @startup_left: samples the startup test still has to see
 * @failures: intermittent failures since the last passed startup test
 * @pos: where the oldest of the last JTSC_MAX_LAG samples is in @hist
 * @hist: the last JTSC_MAX_LAG samples, each twice, oldest first from @pos
 * @diff: the last k-th difference of the samples (mod 256), k = 1 ..
 *	JTSC_NR_DIFF, the k-th in element k - 1
 * @running: bit j set while the predictor of lag 64 - j has a run going
 * @run: current run of consecutive hits of each predictor
 * @hits: hits of each predictor in the current predictor window
 */
struct jtsc_health {
	const struct jtsc_health_params *params;
	unsigned int seen;
	unsigned int rct_run;
	u8 apt_value;
	unsigned int apt_seen;
	unsigned int apt_count;
	unsigned int pred_seen;
	unsigned int startup_left;
	unsigned int failures;
	unsigned int pos;
	u8 hist[2 * JTSC_MAX_LAG];
	u8 diff[JTSC_NR_DIFF];
	u64 running;
	u16 run[JTSC_NR_PREDICTORS];
	u16 hits[JTSC_NR_PREDICTORS];
};

/*
 * The credit ladder: the per-sample credits a collector can be given, in
 * ascending order, each with its cutoffs. The runtime estimate picks one.
 */
extern const struct jtsc_health_params jtsc_ladder[];
extern const unsigned int jtsc_ladder_steps;

void jtsc_health_init(struct jtsc_health *h,
		      const struct jtsc_health_params *params);
enum jtsc_health_result jtsc_health_sample(struct jtsc_health *h, u8 sample);
unsigned int jtsc_health_hold(const struct jtsc_health *h);
u64 jtsc_lfsr_fold(u64 state, u64 in, unsigned int nbits);
int jtsc_ladder_pick(const struct jtsc_estimate *e, unsigned int margin);

/**
 * jtsc_health_started() - Whether the startup test has passed
 * @h: health-test state
 *
 * Return: true once @h has seen its startup samples without failure.
 */
static inline bool jtsc_health_started(const struct jtsc_health *h)
{
	return !h->startup_left;
}

/**
 * jtsc_health_window_closed() - Whether the last sample closed a window
 * @h: health-test state
 *
 * Samples are released a predictor window at a time, which is a whole
 * number of APT windows: when this is true, every test over the window
 * that just closed has passed.
 *
 * Return: true right after the last sample of a predictor window.
 */
static inline bool jtsc_health_window_closed(const struct jtsc_health *h)
{
	return !h->pred_seen;
}

#endif /* _CRYPTO_INTERNAL_JITTER_TSC_CORE_H */
