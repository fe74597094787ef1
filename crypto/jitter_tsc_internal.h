/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jitter_tsc internals, shared by its files and its KUnit suite.
 *
 * jitter_tsc_estimate.c and jitter_tsc_core.c use no kernel API beyond
 * the types, bit and string helpers, WARN_ON_ONCE() and cond_resched(), so
 * that they also build in user space, where they are measured and checked
 * against NIST's reference tool. The
 * glue (jitter_tsc_kcapi.c) owns the collectors, locking and interfaces;
 * jitter_tsc_testing.c the debugfs files and fault injection.
 */
#ifndef _CRYPTO_JITTER_TSC_INTERNAL_H
#define _CRYPTO_JITTER_TSC_INTERNAL_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/cache.h>
#include <linux/limits.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>

/* The runtime estimate: SP 800-90B 6.3 non-IID estimators, 8-bit samples */

/* Min-entropy in bits per sample as fixed point: JTSC_EST_ONE = 1 bit. */
#define JTSC_EST_SHIFT	32
#define JTSC_EST_ONE	BIT_ULL(JTSC_EST_SHIFT)
/* An estimator that does not apply to the samples given. */
#define JTSC_EST_NONE	U64_MAX

/* The SP 800-90B estimators jtsc_estimate_samples() runs. */
enum jtsc_estimator {
	JTSC_EST_MCV,		/* 6.3.1 most common value */
	JTSC_EST_TUPLE,		/* 6.3.5 t-tuple, if a symbol occurs 35 times */
	JTSC_EST_LRS,		/* 6.3.6 longest repeated substring */
	JTSC_EST_MULTI_MCW,	/* 6.3.7 MultiMCW, from 4096 samples on */
	JTSC_EST_LAG,		/* 6.3.8 lag prediction, lags 1 to 128 */
	JTSC_NR_ESTIMATORS
};

/* The min-entropy of a run of samples, in bits per sample / JTSC_EST_ONE. */
struct jtsc_estimate {
	u64 h[JTSC_NR_ESTIMATORS];	/* each estimator's, or JTSC_EST_NONE */
	u64 h_min;			/* the lowest, at most 8 bits */
	enum jtsc_estimator which;	/* the estimator that gave it */
	unsigned int samples;
	unsigned int symbols;		/* distinct sample values */
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

/* Verdict of the health tests on a sample: the cutoff reached, if any. */
enum jtsc_health_result {
	JTSC_HEALTH_OK,
	JTSC_HEALTH_INTERMITTENT,	/* alpha = 2^-30 */
	JTSC_HEALTH_PERMANENT,		/* alpha = 2^-60 */
};

/*
 * One step of the credit ladder: the credit per raw sample in 1/256 bit,
 * the samples folded into a word, and each test's cutoff for alpha = 2^-30
 * (intermittent) and 2^-60 (permanent): the Repetition Count Test (4.4.1),
 * the Adaptive Proportion Test (4.4.2), and the longest run and the hits
 * in a predictor window of any one predictor (at alpha / 128).
 */
struct jtsc_health_params {
	unsigned int credit;
	unsigned int samples_per_word;
	unsigned int rct_cutoff, rct_perm_cutoff;
	unsigned int apt_cutoff, apt_perm_cutoff;
	unsigned int run_cutoff, run_perm_cutoff;
	unsigned int hits_cutoff, hits_perm_cutoff;
};

/* The health tests' state over one sample stream. */
struct jtsc_health {
	const struct jtsc_health_params *params;	/* the step in force */
	unsigned int seen;		/* samples seen, up to JTSC_MAX_LAG */
	unsigned int rct_run;		/* current run of identical samples */
	u8 apt_value;			/* first sample of the APT window */
	unsigned int apt_seen;		/* samples seen in the APT window */
	unsigned int apt_count;		/* occurrences of apt_value in it */
	unsigned int pred_seen;		/* samples seen in the predictor window */
	unsigned int pos;		/* oldest of the last 64 samples in hist */
	u8 hist[2 * JTSC_MAX_LAG];	/* the last 64 samples, each twice */
	u8 diff[JTSC_NR_DIFF];		/* the last k-th differences */
	u64 running;			/* bit j: lag 64 - j has a run going */
	u16 run[JTSC_NR_PREDICTORS];	/* current run of hits of each predictor */
	u16 hits[JTSC_NR_PREDICTORS];	/* its hits in the predictor window */
};

extern const struct jtsc_health_params jtsc_ladder[];
extern const unsigned int jtsc_ladder_steps;

void jtsc_health_init(struct jtsc_health *h, const struct jtsc_health_params *params);
enum jtsc_health_result jtsc_health_sample(struct jtsc_health *h, u8 sample);
unsigned int jtsc_health_hold(const struct jtsc_health *h);
u64 jtsc_lfsr_fold(u64 state, u64 in, unsigned int nbits);
int jtsc_ladder_pick(const struct jtsc_estimate *e, unsigned int margin);

/*
 * The cycle counter check: JTSC_COUNTER_READS reads back to back, in
 * batches, the cost of a read taken from the fastest batch; RDTSC takes
 * tens of ns natively and about 50 under QEMU TCG, a trapped read 1 us.
 */
enum {
	JTSC_COUNTER_READS = 1024,
	JTSC_COUNTER_BATCH = 64,
	JTSC_COUNTER_MAX_READ_NS = 1000,
};

/* What jtsc_counter_check() saw: reads unchanged, step, ns per read. */
struct jtsc_counter {
	unsigned int stuck;
	u64 step;
	u64 read_ns;
};

const char *jtsc_counter_check(u64 (*read)(void), u64 (*clock_ns)(void),
			       struct jtsc_counter *c);

/* The collectors, in the order they are tried; same raw sample for both. */
enum jtsc_source {
	JTSC_SRC_SPEC,		/* speculative TSC collector, x86-64 */
	JTSC_SRC_TIMER,		/* stack-timer collector, any cycle counter */
	JTSC_NR_SOURCES
};

/* Where a collector stands on one instance. */
enum jtsc_phase {
	JTSC_IDLE,	/* no startup test passed since it started or parked */
	JTSC_RUNNING,	/* its samples become pool words */
	JTSC_RESTART,	/* intermittent failure: a startup test must pass again */
	JTSC_REFUSED,	/* a startup test failed: retried after a backoff */
	JTSC_DEAD,	/* its output failed for good: never used here again */
};

/* One collector's state machine on one instance. */
struct jtsc_life {
	enum jtsc_phase phase;
	unsigned int failures;		/* intermittent, since words were released */
	unsigned int backoff;		/* the last refusal's wait */
	unsigned long retry_at;		/* when a refused one may be tried again */
	struct jtsc_health health;
};

/*
 * An instance's collectors and pool, host-independent: pool holds folded
 * words of collector src, the first tested released for use, the pending
 * after them waiting for their predictor window, the first stale made
 * before the current request.
 */
struct jtsc_core {
	enum jtsc_source src;
	struct jtsc_life life[JTSC_NR_SOURCES];
	u64 lfsr;
	u64 pool[JTSC_POOL_WORDS];
	unsigned int tested, pending, stale;
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

/* What differs between collectors: collect() fills rng->raw, 0 or -errno. */
struct jtsc_collector {
	const char *name;
	unsigned int margin;		/* runtime estimate over the credit */
	int (*collect)(struct jtsc_rng *rng);
};

/* Counters of one collector on one instance, for debugfs and the tests. */
struct jtsc_stats {
	u64 samples, collect_ns;	/* collect_ns with debugfs only */
	u64 intermittent, permanent;	/* health-test failures */
	u64 credited;			/* in 1/256 bit */
	u64 startups, refused;
};

/* The estimates a group made for one collector: how many, the last one. */
struct jtsc_group_est {
	u64 count;
	u64 h_min;
	enum jtsc_estimator which;
};

/*
 * What the instances of one jitter_tsc share: the collectors, which may be
 * used, the machine generation, and per collector (generation << 8) | the
 * ladder step the generation's estimate set, made by the estimate work for
 * the collectors in want; the crypto_rng's shards, by CPU.
 */
struct jtsc_group {
	const struct jtsc_collector *col;
	unsigned long usable;
	atomic_t generation;
	atomic_t step[JTSC_NR_SOURCES];
	unsigned long want;
	struct work_struct estimate;
	struct jtsc_group_est est[JTSC_NR_SOURCES];
	unsigned int nr_shards;
	struct jtsc_rng *shards;
};

/* One instance. */
struct jtsc_rng {
	/* serialises all below; collection sleeps; shards take it on different CPUs */
	struct mutex lock ____cacheline_aligned;
	struct jtsc_group *group;
	struct jtsc_core core;
	struct jtsc_stats stats[JTSC_NR_SOURCES];
	u8 *mem;			/* the speculative buffer, while in use */
	u64 pass;			/* passes made over mem */
	unsigned long last_used;	/* jiffies at the end of the last request */
	unsigned int generation;	/* the machine generation last served */
	u8 raw[JTSC_BATCH];		/* the current batch */
};

extern const struct jtsc_collector jtsc_collectors[JTSC_NR_SOURCES];
extern struct jtsc_group jtsc_group;
extern struct jtsc_rng jtsc_global;

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
void jtsc_machine_changed(struct jtsc_group *g);
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
