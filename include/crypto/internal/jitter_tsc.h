/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jitter_tsc internals: the health tests, the LFSR and the rng instance.
 *
 * Only crypto/jitter_tsc.c and its KUnit suite include this header. The
 * functions it declares are static unless CONFIG_KUNIT is set, in which case
 * they are exported to the EXPORTED_FOR_KUNIT_TESTING namespace.
 */
#ifndef _CRYPTO_INTERNAL_JITTER_TSC_H
#define _CRYPTO_INTERNAL_JITTER_TSC_H

#include <linux/mutex.h>
#include <linux/types.h>

/**
 * enum jtsc_source - The collectors jitter_tsc draws raw samples from
 * @JTSC_SRC_SPEC: speculative TSC collector, one bit per raw sample
 * @JTSC_SRC_TIMER: stack-timer collector, one cycle-counter delta per sample
 * @JTSC_NR_SOURCES: number of collectors
 */
enum jtsc_source {
	JTSC_SRC_SPEC,
	JTSC_SRC_TIMER,
	JTSC_NR_SOURCES
};

/* Bit masks of enum jtsc_source, as taken by jtsc_rng_init(). */
#define JTSC_COLLECT_SPEC	BIT(JTSC_SRC_SPEC)
#define JTSC_COLLECT_TIMER	BIT(JTSC_SRC_TIMER)
#define JTSC_COLLECT_ALL	(JTSC_COLLECT_SPEC | JTSC_COLLECT_TIMER)

/**
 * enum jtsc_health_result - Verdict of the SP 800-90B health tests
 * @JTSC_HEALTH_OK: no failure
 * @JTSC_HEALTH_INTERMITTENT: a cutoff for alpha = 2^-30 was reached; the
 *	samples of the current window are discarded and the startup test runs
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
 * struct jtsc_health_params - Health-test parameters of one collector
 * @name: collector name, for log messages
 * @credit: entropy credited per raw sample, in 1/64 bit
 * @samples_per_word: raw samples folded into one pool word
 * @window: Adaptive Proportion Test window W (SP 800-90B 4.4.2)
 * @rct_cutoff: Repetition Count Test cutoff for alpha = 2^-30 (4.4.1)
 * @rct_perm_cutoff: Repetition Count Test cutoff for alpha = 2^-60
 * @apt_cutoff: Adaptive Proportion Test cutoff for alpha = 2^-30 (4.4.2)
 * @apt_perm_cutoff: Adaptive Proportion Test cutoff for alpha = 2^-60
 * @startup_samples: samples the startup test must pass (4.3, item 9)
 */
struct jtsc_health_params {
	const char *name;
	unsigned int credit;
	unsigned int samples_per_word;
	unsigned int window;
	unsigned int rct_cutoff;
	unsigned int rct_perm_cutoff;
	unsigned int apt_cutoff;
	unsigned int apt_perm_cutoff;
	unsigned int startup_samples;
};

/**
 * struct jtsc_health - Running state of the health tests of one collector
 * @params: the collector's parameters
 * @rct_value: last sample seen by the Repetition Count Test
 * @rct_run: length of the current run of identical samples
 * @apt_value: first sample of the current Adaptive Proportion Test window
 * @apt_seen: samples seen in the current window, 0 when a window just closed
 * @apt_count: occurrences of @apt_value in the current window
 * @startup_left: samples the startup test still has to see
 * @failures: intermittent failures since the last passed startup test
 */
struct jtsc_health {
	const struct jtsc_health_params *params;
	u64 rct_value;
	unsigned int rct_run;
	u64 apt_value;
	unsigned int apt_seen;
	unsigned int apt_count;
	unsigned int startup_left;
	unsigned int failures;
};

/**
 * struct jtsc_stats - Counters of one collector, for debugfs and tests
 * @samples: raw samples taken
 * @intermittent: intermittent health-test failures
 * @permanent: permanent health-test failures
 * @credited: bits of entropy credited to data handed out (whole bits)
 * @collect_ns: time spent taking @samples (with the debugfs option only)
 */
struct jtsc_stats {
	u64 samples;
	u64 collect_ns;
	u64 intermittent;
	u64 permanent;
	u64 credited;
};

/*
 * Pool words: one output block plus one APT window of pending words, for
 * the collector that needs most (speculative: 103 + 16).
 */
#define JTSC_POOL_WORDS		120

/**
 * struct jtsc_rng - One jitter_tsc instance
 * @lock: serialises everything below; collection may sleep
 * @collectors: enum jtsc_source bits that passed runtime verification
 * @active: the collector data is drawn from
 * @failed: a permanent health-test failure happened; sticky
 * @health: health-test state per collector
 * @stats: counters per collector
 * @lfsr: state of the folding LFSR
 * @pool: folded words; the first @tested passed a full APT window, the
 *	@pending after them belong to the window still open
 * @tested: words in @pool released for use
 * @pending: words in @pool waiting for their window to close
 */
struct jtsc_rng {
	struct mutex lock; /* see above */
	unsigned int collectors;
	enum jtsc_source active;
	bool failed;
	struct jtsc_health health[JTSC_NR_SOURCES];
	struct jtsc_stats stats[JTSC_NR_SOURCES];
	u64 lfsr;
	u64 pool[JTSC_POOL_WORDS];
	unsigned int tested;
	unsigned int pending;
};

extern const struct jtsc_health_params jtsc_params[JTSC_NR_SOURCES];

#if IS_ENABLED(CONFIG_KUNIT)
void jtsc_health_init(struct jtsc_health *h,
		      const struct jtsc_health_params *params);
enum jtsc_health_result jtsc_health_sample(struct jtsc_health *h, u64 sample);
enum jtsc_health_result jtsc_health_bits(struct jtsc_health *h, u64 bits,
					 unsigned int nbits);
u64 jtsc_lfsr_fold(u64 state, u64 in, unsigned int nbits);
u64 jtsc_read_counter(void);
int jtsc_counter_check(void);
int jtsc_spec_collect(u64 *words, unsigned int nwords);
int jtsc_timer_collect(u64 *deltas, unsigned int ndeltas);
int jtsc_rng_init(struct jtsc_rng *rng, unsigned int collectors);
void jtsc_rng_destroy(struct jtsc_rng *rng);
int jtsc_rng_generate(struct jtsc_rng *rng, u8 *dst, unsigned int len);
int jtsc_rng_pull(struct jtsc_rng *rng, void *buf, size_t len);
#endif

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
 * jtsc_health_window_closed() - Whether the last sample closed an APT window
 * @h: health-test state
 *
 * Return: true right after the last sample of a window passed the tests.
 */
static inline bool jtsc_health_window_closed(const struct jtsc_health *h)
{
	return !h->apt_seen;
}

#endif /* _CRYPTO_INTERNAL_JITTER_TSC_H */
