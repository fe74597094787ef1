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
 * @JTSC_SRC_SPEC: speculative TSC collector (x86-64)
 * @JTSC_SRC_TIMER: stack-timer collector (any cycle counter)
 * @JTSC_NR_SOURCES: number of collectors
 *
 * Both yield the same kind of raw sample: the low byte of a cycle-counter
 * delta, one sample per byte.
 */
enum jtsc_source {
	JTSC_SRC_SPEC,
	JTSC_SRC_TIMER,
	JTSC_NR_SOURCES
};

/* Bit masks of enum jtsc_source, as taken by jtsc_group_init(). */
#define JTSC_COLLECT_SPEC	BIT(JTSC_SRC_SPEC)
#define JTSC_COLLECT_TIMER	BIT(JTSC_SRC_TIMER)
#define JTSC_COLLECT_ALL	(JTSC_COLLECT_SPEC | JTSC_COLLECT_TIMER)

/*
 * The predictors of the determinism test: predictor 0 guesses that the
 * counter's third difference is zero (the stuck test), predictor L, for L
 * from 1 to JTSC_MAX_LAG, that a sample repeats the one L samples back.
 */
#define JTSC_MAX_LAG		64
#define JTSC_NR_PREDICTORS	(JTSC_MAX_LAG + 1)

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
 * struct jtsc_health_params - Health-test parameters of one collector
 * @name: collector name, for log messages
 * @credit: min-entropy credited per raw sample, in 1/256 bit
 * @samples_per_word: raw samples folded into one pool word
 * @rct_cutoff: Repetition Count Test cutoff for alpha = 2^-30 (4.4.1)
 * @rct_perm_cutoff: Repetition Count Test cutoff for alpha = 2^-60
 * @apt_cutoff: Adaptive Proportion Test cutoff for alpha = 2^-30 (4.4.2)
 * @apt_perm_cutoff: Adaptive Proportion Test cutoff for alpha = 2^-60
 * @run_cutoff: longest run of hits of any one predictor, alpha = 2^-30
 * @run_perm_cutoff: the same for alpha = 2^-60
 * @hits_cutoff: hits of any one predictor in a predictor window, 2^-30
 * @hits_perm_cutoff: the same for alpha = 2^-60
 * @collect: takes raw samples, one per byte; 0 or a negative errno
 */
struct jtsc_health_params {
	const char *name;
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
	int (*collect)(u8 *samples, unsigned int n, void *mem);
};

/**
 * struct jtsc_health - Running state of the health tests of one collector
 * @params: the collector's parameters
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
 * @d2: the counter's last second difference (mod 256)
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
	u8 d2;
	u64 running;
	u16 run[JTSC_NR_PREDICTORS];
	u16 hits[JTSC_NR_PREDICTORS];
};

/**
 * struct jtsc_stats - Counters of one collector, for debugfs and tests
 * @samples: raw samples taken
 * @collect_ns: time spent taking @samples (with the debugfs option only)
 * @intermittent: intermittent health-test failures
 * @permanent: permanent health-test failures
 * @credited: entropy of the pool words taken for output blocks and pulls,
 *	in 1/256 bit (a request shorter than a block takes a whole block's)
 */
struct jtsc_stats {
	u64 samples;
	u64 collect_ns;
	u64 intermittent;
	u64 permanent;
	u64 credited;
};

/*
 * Pool words: one output block or pull, plus a predictor window of pending
 * words, plus the words held back at its end (a run still going and the
 * last JTSC_MAX_LAG samples, see jtsc_release()), for the collector that
 * needs most: 128 + 8 + 17 timer words.
 */
#define JTSC_POOL_WORDS		192
/* Raw samples taken by one call of a collector. */
#define JTSC_BATCH		512

struct jtsc_rng;

/**
 * struct jtsc_group - What the instances of one jitter_tsc share
 * @usable: enum jtsc_source bits of the collectors that may be tried
 * @verified: bits of those that passed a startup test on some instance
 * @dead: bits of those that failed permanently, on any instance: none of
 *	the group's instances draws on them again
 * @nr_shards: instances in @shards
 * @shards: the instances the crypto_rng draws on, chosen by CPU; a group
 *	may have none, and other instances set up with jtsc_rng_init()
 *
 * @usable and @shards are set before the group is published and are
 * read-only after; @verified and @dead only gain bits, by atomic bit
 * operations. No lock guards the group.
 */
struct jtsc_group {
	unsigned long usable;
	unsigned long verified;
	unsigned long dead;
	unsigned int nr_shards;
	struct jtsc_rng **shards;
};

/**
 * struct jtsc_rng - One jitter_tsc instance
 * @lock: serialises everything below; collection may sleep
 * @group: the group the instance belongs to
 * @active: the collector data is drawn from, once @started
 * @started: @active passed its startup test on this instance
 * @failed: no collector of the group is left; sticky
 * @health: health-test state per collector
 * @stats: counters per collector
 * @mem: the speculative collector's buffer, or NULL
 * @lfsr: state of the folding LFSR
 * @pool: folded words; the first @tested passed every test over their
 *	whole predictor window, the @pending after them wait for theirs
 * @tested: words in @pool released for use
 * @pending: words in @pool waiting for their window to close
 * @raw: raw samples of the current batch
 */
struct jtsc_rng {
	struct mutex lock; /* see above */
	struct jtsc_group *group;
	enum jtsc_source active;
	bool started;
	bool failed;
	struct jtsc_health health[JTSC_NR_SOURCES];
	struct jtsc_stats stats[JTSC_NR_SOURCES];
	u8 *mem;
	u64 lfsr;
	u64 pool[JTSC_POOL_WORDS];
	unsigned int tested;
	unsigned int pending;
	u8 raw[JTSC_BATCH];
};

extern const struct jtsc_health_params jtsc_params[JTSC_NR_SOURCES];

#if IS_ENABLED(CONFIG_KUNIT)
void jtsc_health_init(struct jtsc_health *h,
		      const struct jtsc_health_params *params);
enum jtsc_health_result jtsc_health_sample(struct jtsc_health *h, u8 sample);
unsigned int jtsc_health_hold(const struct jtsc_health *h);
u64 jtsc_lfsr_fold(u64 state, u64 in, unsigned int nbits);
u64 jtsc_read_counter(void);
int jtsc_counter_check(void);
int jtsc_spec_collect(u8 *samples, unsigned int n, void *mem);
int jtsc_timer_collect(u8 *samples, unsigned int n, void *mem);
int jtsc_rng_init(struct jtsc_rng *rng, struct jtsc_group *g);
void jtsc_rng_destroy(struct jtsc_rng *rng);
int jtsc_group_init(struct jtsc_group *g, unsigned int collectors,
		    unsigned int nr_shards);
void jtsc_group_destroy(struct jtsc_group *g);
struct jtsc_rng *jtsc_group_shard(const struct jtsc_group *g);
struct jtsc_group *jtsc_kcapi_group(void);
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

#endif /* _CRYPTO_INTERNAL_JITTER_TSC_H */
