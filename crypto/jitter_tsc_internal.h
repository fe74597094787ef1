/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jitter_tsc internals, shared by its files and its KUnit suite.
 *
 * jitter_tsc_estimate.c and jitter_tsc_core.c use no kernel API beyond
 * the types, bit and string helpers, so that they also build in user space
 * where they are measured and checked against NIST's reference tool. The
 * glue (jitter_tsc_kcapi.c) owns the collectors, locking and interfaces;
 * jitter_tsc_testing.c the debugfs files and fault injection.
 */
#ifndef _CRYPTO_JITTER_TSC_INTERNAL_H
#define _CRYPTO_JITTER_TSC_INTERNAL_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/mutex.h>
#include <linux/types.h>

/* The runtime estimate: SP 800-90B 6.3 non-IID estimators, 8-bit samples */

/* Min-entropy in bits per sample as fixed point: JTSC_EST_ONE = 1 bit. */
#define JTSC_EST_SHIFT	32
#define JTSC_EST_ONE	BIT_ULL(JTSC_EST_SHIFT)
/* An estimator that does not apply to the samples given. */
#define JTSC_EST_NONE	U64_MAX

/**
 * enum jtsc_estimator - The SP 800-90B estimators jtsc_estimate_samples() runs
 * @JTSC_EST_MCV: 6.3.1 most common value
 * @JTSC_EST_TUPLE: 6.3.5 t-tuple; applies when a symbol occurs 35 times
 * @JTSC_EST_LRS: 6.3.6 longest repeated substring
 * @JTSC_EST_MULTI_MCW: 6.3.7 MultiMCW prediction; from 4096 samples on
 * @JTSC_EST_LAG: 6.3.8 lag prediction, lags 1 to 128
 * @JTSC_NR_ESTIMATORS: the number of estimators
 */
enum jtsc_estimator {
	JTSC_EST_MCV,
	JTSC_EST_TUPLE,
	JTSC_EST_LRS,
	JTSC_EST_MULTI_MCW,
	JTSC_EST_LAG,
	JTSC_NR_ESTIMATORS
};

/**
 * struct jtsc_estimate - The min-entropy of a run of samples
 * @h: each estimator's bits per sample in 1/JTSC_EST_ONE, or JTSC_EST_NONE
 * @h_min: the lowest of @h, at most 8 bits; 0 for fewer than 2 samples
 * @which: the estimator that gave @h_min
 * @samples: the number of samples
 * @symbols: the number of distinct sample values
 */
struct jtsc_estimate {
	u64 h[JTSC_NR_ESTIMATORS];
	u64 h_min;
	enum jtsc_estimator which;
	unsigned int samples;
	unsigned int symbols;
};

extern const char *const jtsc_estimator_name[JTSC_NR_ESTIMATORS];

size_t jtsc_estimate_work_size(unsigned int n);
void jtsc_estimate_samples(const u8 *samples, unsigned int n, void *work,
			   struct jtsc_estimate *e);

/* The core: credit ladder, health tests, folding, a collector's life */

enum {
	/* Entropy is counted in 1/256 bit. */
	JTSC_ENTROPY_SHIFT = 8,
	/* SP 800-90B 4.4.2: W = 512 for samples that are not binary. */
	JTSC_APT_WINDOW = 512,
	/*
	 * The determinism test counts each predictor's hits over 4096
	 * samples: at the upper steps an always-right predictor reaches the
	 * permanent cutoff within one window, a healthy source does not.
	 */
	JTSC_PRED_WINDOW = 4096,
	/*
	 * SP 800-90B 4.3 (9): at least 1024 samples. Three predictor
	 * windows, so that a deterministic stream starting anywhere in the
	 * first is refused even at the floor, where a run needs up to 4737
	 * samples after its first JTSC_MAX_LAG to fail.
	 */
	JTSC_STARTUP_SAMPLES = 3 * JTSC_PRED_WINDOW,
	/* SP 800-90B 4.4: alpha = 2^-30 intermittent, 2^-60 permanent. */
	JTSC_ALPHA_LOG2 = 30,
	JTSC_PERM_ALPHA_LOG2 = 60,
	/* Each of the < 128 predictors at alpha / 128: union bound. */
	JTSC_PRED_ALPHA_LOG2 = JTSC_ALPHA_LOG2 + 7,
	JTSC_PRED_PERM_ALPHA_LOG2 = JTSC_PERM_ALPHA_LOG2 + 7,
	/* Intermittent failures in a row (each 2^-30) that make one permanent. */
	JTSC_MAX_INTERMITTENT = 3,
	/* A pool word carries at most 32 bits, half its size, of at most 512 samples. */
	JTSC_MAX_WORD_CREDIT = 32 << JTSC_ENTROPY_SHIFT,
	JTSC_MAX_SAMPLES_PER_WORD = 512,
	/*
	 * Runtime estimate over credit: half for SP 800-90B's practice, the
	 * rest for a startup window's optimism over 10^6 samples, measured
	 * per collector; the timer's samples come in bursts.
	 */
	JTSC_EST_MARGIN = 8,
	JTSC_EST_MARGIN_TIMER = 32,
	/* Raw samples per collector call: one batch, whole words at every step. */
	JTSC_BATCH = 512,
	/*
	 * Pool words: a block or pull, a predictor window pending and the
	 * words held at its end, at the step that needs most.
	 */
	JTSC_POOL_WORDS = 192,
	/* Backoff of a refused collector, in the caller's time unit. */
	JTSC_BACKOFF_MIN = 1,
	JTSC_BACKOFF_MAX = 64,
};

/*
 * The determinism test's predictors: lags 1 to JTSC_MAX_LAG, and the k-th
 * difference repeating, k = 1 .. JTSC_NR_DIFF.
 */
#define JTSC_MAX_LAG		64
#define JTSC_NR_DIFF		4
#define JTSC_NR_PREDICTORS	(JTSC_MAX_LAG + JTSC_NR_DIFF)

/**
 * enum jtsc_health_result - Verdict of the health tests on a sample
 * @JTSC_HEALTH_OK: no cutoff reached
 * @JTSC_HEALTH_INTERMITTENT: a cutoff for alpha = 2^-30
 * @JTSC_HEALTH_PERMANENT: a cutoff for alpha = 2^-60
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
 * @rct_cutoff: Repetition Count Test cutoff, alpha = 2^-30 (4.4.1)
 * @rct_perm_cutoff: the same for alpha = 2^-60
 * @apt_cutoff: Adaptive Proportion Test cutoff, alpha = 2^-30 (4.4.2)
 * @apt_perm_cutoff: the same for alpha = 2^-60
 * @run_cutoff: longest run of hits of one predictor, alpha = 2^-37
 * @run_perm_cutoff: the same for alpha = 2^-67
 * @hits_cutoff: hits of one predictor in a predictor window, 2^-37
 * @hits_perm_cutoff: the same for alpha = 2^-67
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
 * struct jtsc_health - The health tests' state over one sample stream
 * @params: the ladder step whose cutoffs apply
 * @seen: samples seen, up to JTSC_MAX_LAG
 * @rct_run: length of the current run of identical samples
 * @apt_value: first sample of the current APT window
 * @apt_seen: samples seen in the current APT window
 * @apt_count: occurrences of @apt_value in it
 * @pred_seen: samples seen in the current predictor window
 * @pos: where the oldest of the last JTSC_MAX_LAG samples is in @hist
 * @hist: the last JTSC_MAX_LAG samples, each twice
 * @diff: the last k-th difference of the samples, k = 1 .. JTSC_NR_DIFF
 * @running: bit j set while the predictor of lag 64 - j has a run going
 * @run: current run of hits of each predictor
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
	unsigned int pos;
	u8 hist[2 * JTSC_MAX_LAG];
	u8 diff[JTSC_NR_DIFF];
	u64 running;
	u16 run[JTSC_NR_PREDICTORS];
	u16 hits[JTSC_NR_PREDICTORS];
};

extern const struct jtsc_health_params jtsc_ladder[];
extern const unsigned int jtsc_ladder_steps;

void jtsc_health_init(struct jtsc_health *h, const struct jtsc_health_params *params);
enum jtsc_health_result jtsc_health_sample(struct jtsc_health *h, u8 sample);
unsigned int jtsc_health_hold(const struct jtsc_health *h);
u64 jtsc_lfsr_fold(u64 state, u64 in, unsigned int nbits);
int jtsc_ladder_pick(const struct jtsc_estimate *e, unsigned int margin);

/**
 * enum jtsc_source - The collectors, in the order they are tried
 * @JTSC_SRC_SPEC: speculative TSC collector (x86-64)
 * @JTSC_SRC_TIMER: stack-timer collector (any cycle counter)
 * @JTSC_NR_SOURCES: number of collectors
 *
 * Both give the same raw sample: the low byte of a cycle-counter delta.
 */
enum jtsc_source {
	JTSC_SRC_SPEC,
	JTSC_SRC_TIMER,
	JTSC_NR_SOURCES
};

/**
 * enum jtsc_phase - Where a collector stands on one instance
 * @JTSC_IDLE: no startup test passed since the instance started or parked
 * @JTSC_RUNNING: its startup test passed: its samples become pool words
 * @JTSC_RESTART: an intermittent failure: a startup test must pass again
 * @JTSC_REFUSED: a startup test failed: retried after a backoff
 * @JTSC_DEAD: a permanent failure of its output: never used again here
 */
enum jtsc_phase {
	JTSC_IDLE,
	JTSC_RUNNING,
	JTSC_RESTART,
	JTSC_REFUSED,
	JTSC_DEAD,
};

/**
 * struct jtsc_life - One collector's state machine on one instance
 * @phase: see enum jtsc_phase
 * @failures: intermittent failures since its pool words were last released
 * @backoff: the next refusal's wait, in the caller's time unit
 * @retry_at: when a refused collector may be tried again
 * @health: its health tests' state
 */
struct jtsc_life {
	enum jtsc_phase phase;
	unsigned int failures;
	unsigned int backoff;
	unsigned long retry_at;
	struct jtsc_health health;
};

/**
 * struct jtsc_core - An instance's collectors and pool, host-independent
 * @src: the collector the pool is filled from
 * @life: each collector's state
 * @lfsr: state of the folding LFSR
 * @pool: folded words: the first @tested released for use, the @pending
 *	after them waiting for their predictor window to close
 * @tested: words released
 * @pending: words waiting
 * @stale: the first words of @pool, made before the current request
 */
struct jtsc_core {
	enum jtsc_source src;
	struct jtsc_life life[JTSC_NR_SOURCES];
	u64 lfsr;
	u64 pool[JTSC_POOL_WORDS];
	unsigned int tested;
	unsigned int pending;
	unsigned int stale;
};

int jtsc_core_pick(const struct jtsc_core *c, unsigned long usable, unsigned long now);
enum jtsc_phase jtsc_core_startup(struct jtsc_core *c, enum jtsc_source src, int step,
				  const u8 *samples, unsigned long now, unsigned long unit);
enum jtsc_phase jtsc_core_feed(struct jtsc_core *c, const u8 *raw);
unsigned int jtsc_core_words(const struct jtsc_core *c, unsigned int credit);
unsigned int jtsc_core_take(struct jtsc_core *c, unsigned int words);
void jtsc_core_begin_request(struct jtsc_core *c, unsigned int words,
			     unsigned int fresh_credit);
void jtsc_core_park(struct jtsc_core *c, bool new_machine);

/* The glue */

#define JTSC_COLLECT_ALL	(BIT(JTSC_SRC_SPEC) | BIT(JTSC_SRC_TIMER))

struct jtsc_rng;

/**
 * struct jtsc_collector - What differs between the collectors
 * @name: for log messages and debugfs
 * @margin: the runtime estimate over the credit (jtsc_ladder_pick())
 * @collect: takes JTSC_BATCH raw samples into @rng->raw; 0 or an errno
 */
struct jtsc_collector {
	const char *name;
	unsigned int margin;
	int (*collect)(struct jtsc_rng *rng);
};

/**
 * struct jtsc_stats - Counters of one collector on one instance
 * @samples: raw samples taken
 * @collect_ns: time taken by them (CONFIG_CRYPTO_JITTER_TSC_DEBUGFS only)
 * @intermittent: intermittent health-test failures
 * @permanent: permanent ones
 * @credited: entropy of the words handed out, in 1/256 bit
 * @startups: startup tests run
 * @estimates: runtime estimates made
 * @refused: startup tests refused
 * @h_min: the last runtime estimate made here, in 2^-32 bit per sample
 * @estimator: the estimator that gave it
 */
struct jtsc_stats {
	u64 samples;
	u64 collect_ns;
	u64 intermittent;
	u64 permanent;
	u64 credited;
	u64 startups;
	u64 estimates;
	u64 refused;
	u64 h_min;
	enum jtsc_estimator estimator;
};

/**
 * struct jtsc_group - What the instances of one jitter_tsc share
 * @col: the collectors
 * @usable: bits of the collectors the instances may use
 * @step: per collector, (machine generation << 8) | ladder step, the step
 *	the generation's first estimate set (jtsc_group_step())
 * @nr_shards: instances in @shards
 * @shards: the crypto_rng's instances, chosen by CPU
 */
struct jtsc_group {
	const struct jtsc_collector *col;
	unsigned long usable;
	atomic_t step[JTSC_NR_SOURCES];
	unsigned int nr_shards;
	struct jtsc_rng **shards;
};

/**
 * struct jtsc_rng - One jitter_tsc instance
 * @lock: serialises all below; collection sleeps
 * @group: its group
 * @core: its collectors' state and pool
 * @stats: counters per collector
 * @mem: the speculative collector's buffer while it is in use, or NULL
 * @pass: passes made over @mem
 * @last_used: jiffies at the end of the last request
 * @generation: the machine generation it last served in
 * @raw: raw samples of the current batch
 */
struct jtsc_rng {
	struct mutex lock; /* see above */
	struct jtsc_group *group;
	struct jtsc_core core;
	struct jtsc_stats stats[JTSC_NR_SOURCES];
	u8 *mem;
	u64 pass;
	unsigned long last_used;
	unsigned int generation;
	u8 raw[JTSC_BATCH];
};

extern const struct jtsc_collector jtsc_collectors[JTSC_NR_SOURCES];
extern struct jtsc_group jtsc_group;
extern struct jtsc_rng jtsc_global;

int jtsc_counter_check(u64 (*read)(void));
u8 *jtsc_spec_alloc(void);
int jtsc_group_init(struct jtsc_group *g, const struct jtsc_collector *col,
		    unsigned long usable, unsigned int nr_shards);
void jtsc_group_destroy(struct jtsc_group *g);
int jtsc_rng_init(struct jtsc_rng *rng, struct jtsc_group *g);
void jtsc_rng_destroy(struct jtsc_rng *rng);
int jtsc_rng_generate(struct jtsc_rng *rng, u8 *dst, unsigned int len);
int jtsc_rng_pull(struct jtsc_rng *rng, void *buf, size_t len);
void jtsc_park(struct jtsc_rng *rng);
bool jtsc_park_idle(struct jtsc_rng *rng, unsigned long idle);
void jtsc_machine_changed(void);
int jtsc_group_step(struct jtsc_group *g, enum jtsc_source src);

/* jitter_tsc_testing.c, with CONFIG_CRYPTO_JITTER_TSC_DEBUGFS or _FAULT_INJECTION */
#ifdef CONFIG_CRYPTO_JITTER_TSC_DEBUGFS
void jtsc_capture_boot(enum jtsc_source src, const u8 *samples);
void jtsc_debugfs_init(void);
void jtsc_debugfs_exit(void);
#else
static inline void jtsc_capture_boot(enum jtsc_source src, const u8 *samples) { }
static inline void jtsc_debugfs_init(void) { }
static inline void jtsc_debugfs_exit(void) { }
#endif
#ifdef CONFIG_CRYPTO_JITTER_TSC_FAULT_INJECTION
void jtsc_inject(struct jtsc_rng *rng, enum jtsc_source src);
#else
static inline void jtsc_inject(struct jtsc_rng *rng, enum jtsc_source src) { }
#endif

#endif /* _CRYPTO_JITTER_TSC_INTERNAL_H */
