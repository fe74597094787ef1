/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jitter_tsc internals, shared by its files and its KUnit suite. The
 * estimate and the core use no kernel API beyond types, bit and string
 * helpers, WARN_ON_ONCE() and cond_resched(): they build in user space.
 */
#ifndef _CRYPTO_JITTER_TSC_INTERNAL_H
#define _CRYPTO_JITTER_TSC_INTERNAL_H

#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/cache.h>
#include <linux/limits.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>

/* The runtime estimate, in bits per sample: JTSC_EST_ONE is 1 bit. */
#define JTSC_EST_SHIFT	32
#define JTSC_EST_ONE	BIT_ULL(JTSC_EST_SHIFT)
#define JTSC_EST_NONE	U64_MAX		/* the estimator does not apply */

/* The SP 800-90B 6.3 estimators jtsc_estimate_samples() runs. */
enum jtsc_estimator {
	JTSC_EST_MCV,		/* 6.3.1 most common value */
	JTSC_EST_TUPLE,		/* 6.3.5 t-tuple, if a symbol occurs 35 times */
	JTSC_EST_LRS,		/* 6.3.6 longest repeated substring */
	JTSC_EST_MULTI_MCW,	/* 6.3.7 MultiMCW, from 4096 samples on */
	JTSC_EST_LAG,		/* 6.3.8 lag prediction, lags 1 to 128 */
	JTSC_EST_MULTI_MMC,	/* 6.3.9 MultiMMC's orders, each alone */
	JTSC_EST_BITS_MMC,	/* its order 10 over the samples' bits, x 8 (3.1.3) */
	JTSC_NR_ESTIMATORS
};

/* The min-entropy of a run of samples. */
struct jtsc_estimate {
	u64 h[JTSC_NR_ESTIMATORS];	/* each estimator's, or JTSC_EST_NONE */
	u64 h_min;			/* the lowest, at most 8 bits */
	enum jtsc_estimator which;	/* the estimator that gave it */
	unsigned int samples;
};

extern const char *const jtsc_estimator_name[JTSC_NR_ESTIMATORS];

size_t jtsc_estimate_work_size(unsigned int n);
void jtsc_estimate_samples(const u8 *samples, unsigned int n, void *work,
			   struct jtsc_estimate *e);

enum {
	JTSC_ENTROPY_SHIFT = 8,		/* credits are in 1/256 bit */
	JTSC_APT_WINDOW = 512,		/* SP 800-90B 4.4.2: W for non-binary samples */
	JTSC_PRED_WINDOW = 4096,	/* predictor hits are counted per window */
	/* 4.3 (9): >= 1024; 3 windows, so that a window's hits can fail at any step */
	JTSC_STARTUP_SAMPLES = 3 * JTSC_PRED_WINDOW,
	/* SP 800-90B 4.4: alpha = 2^-30 intermittent, 2^-60 permanent */
	JTSC_ALPHA_LOG2 = 30,
	JTSC_PERM_ALPHA_LOG2 = 60,
	/* the health tests are sized for twice the credit: see jtsc_ladder[] */
	JTSC_GUARD = 2,
	/* the RCT and each of the < 128 predictors at alpha / 128: union bound */
	JTSC_PRED_ALPHA_LOG2 = JTSC_ALPHA_LOG2 + 7,
	JTSC_PRED_PERM_ALPHA_LOG2 = JTSC_PERM_ALPHA_LOG2 + 7,
	JTSC_MAX_INTERMITTENT = 3,	/* in a row make a permanent failure */
	/* a pool word carries at most half its bits, from at most 512 samples */
	JTSC_MAX_WORD_CREDIT = 32 << JTSC_ENTROPY_SHIFT,
	JTSC_MAX_SAMPLES_PER_WORD = 512,
	/* estimate over credit: half as 90B's practice, the rest a window's optimism */
	JTSC_EST_MARGIN = 8,
	JTSC_EST_MARGIN_TIMER = 64,
	JTSC_BATCH = 512,		/* raw samples per collector call */
	/* a block, a predictor window pending and what its end holds */
	JTSC_POOL_WORDS = 192,
	JTSC_BACKOFF_MIN = 1,		/* a refused collector's wait, in seconds */
	JTSC_BACKOFF_MAX = 64,
	/* the determinism test's predictors: lags, differences repeating, a window's first two */
	JTSC_MAX_LAG = 64,
	JTSC_NR_DIFF = 4,
	JTSC_PRED_FIRST = JTSC_MAX_LAG + JTSC_NR_DIFF,
	JTSC_NR_PREDICTORS = JTSC_PRED_FIRST + 2,
	/* the counter check: a read takes tens of ns, 50 under TCG; trapped, 1 us */
	JTSC_COUNTER_READS = 1024,
	JTSC_COUNTER_BATCH = 64,
	JTSC_COUNTER_MAX_READ_NS = 1000,
	/*
	 * A pass of the speculative loop takes at least 62.5 ns: each 8 KiB
	 * row of its buffer is then activated at most 1000 times per 64 ms,
	 * against 4800 in Kim et al. 2020 (asm/tsc_jitter.h)
	 */
	JTSC_FLOOR_PS = 62500,
};

/* The health tests' verdict: the cutoff reached, if any. */
enum jtsc_health_result {
	JTSC_HEALTH_OK,
	JTSC_HEALTH_INTERMITTENT,	/* alpha = 2^-30 */
	JTSC_HEALTH_PERMANENT,		/* alpha = 2^-60 */
};

/* A step of the credit ladder: credit, samples per word, and each test's cutoffs */
struct jtsc_health_params {
	unsigned int credit;
	unsigned int samples_per_word;
	unsigned int rct_cutoff, rct_perm_cutoff;
	unsigned int apt_cutoff, apt_perm_cutoff;
	unsigned int run_cutoff, run_perm_cutoff;
	unsigned int hits_cutoff, hits_perm_cutoff;
};

/* The health tests' state over one stream. */
struct jtsc_health {
	const struct jtsc_health_params *params;	/* the step in force */
	unsigned int seen;		/* samples seen, up to JTSC_MAX_LAG */
	unsigned int rct_run;		/* current run of identical samples */
	u8 apt_value;			/* first sample of the APT window */
	unsigned int apt_seen;		/* samples seen in the APT window */
	unsigned int apt_count;		/* occurrences of apt_value in it */
	unsigned int pred_seen;		/* samples seen in the predictor window */
	u8 first, first_diff;		/* its first sample and difference */
	unsigned int pos;		/* oldest of the last 64 samples in hist */
	u8 hist[2 * JTSC_MAX_LAG];	/* the last 64 samples, each twice */
	u8 diff[JTSC_NR_DIFF];		/* the last k-th differences */
	u64 running;			/* bit j: lag 64 - j has a run going */
	u16 run[JTSC_NR_PREDICTORS];	/* current run of hits of each predictor */
	u16 hits[JTSC_NR_PREDICTORS];	/* its hits in the predictor window */
};

extern const struct jtsc_health_params jtsc_ladder[];

int jtsc_ladder_pick(const struct jtsc_estimate *e, unsigned int margin);

/* What jtsc_counter_check() saw */
struct jtsc_counter {
	unsigned int stuck;
	u64 step;
	u64 read_ns;
};

u64 jtsc_floor_wait(u64 ns, unsigned int passes);
const char *jtsc_counter_check(u64 (*read)(void), u64 (*clock_ns)(void),
			       struct jtsc_counter *c);

/* The collectors, in the order they are tried */
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
	JTSC_DEAD,	/* its output failed for good: not used here until a new machine */
};

/* One collector's state machine on one instance. */
struct jtsc_life {
	enum jtsc_phase phase;
	unsigned int failures;		/* intermittent, since words were released */
	unsigned int backoff;		/* the last refusal's wait */
	unsigned int demoted;		/* steps below the group's: output's failures */
	unsigned long retry_at;		/* when a refused one may be tried again */
	struct jtsc_health health;
};

/* An instance's collectors and pool: @tested words released, then @pending */
struct jtsc_core {
	enum jtsc_source src;
	struct jtsc_life life[JTSC_NR_SOURCES];
	u64 lfsr;
	u64 pool[JTSC_POOL_WORDS];
	unsigned int tested, pending;
};

int jtsc_core_pick(const struct jtsc_core *c, unsigned long usable, unsigned long now);
enum jtsc_phase jtsc_core_startup(struct jtsc_core *c, enum jtsc_source src, int step,
				  const u8 *samples, unsigned long now, unsigned long unit);
enum jtsc_phase jtsc_core_feed(struct jtsc_core *c, const u8 *raw);
unsigned int jtsc_core_words(const struct jtsc_core *c, unsigned int credit);
unsigned int jtsc_core_take(struct jtsc_core *c, unsigned int words);
void jtsc_core_begin_block(struct jtsc_core *c, unsigned int words, unsigned int fresh_credit);
void jtsc_core_park(struct jtsc_core *c, bool new_machine);

#define JTSC_COLLECT_ALL	(BIT(JTSC_SRC_SPEC) | BIT(JTSC_SRC_TIMER))

struct jtsc_rng;

/* What differs between collectors: collect() fills rng->raw, 0 or -errno. */
struct jtsc_collector {
	const char *name;
	unsigned int margin;		/* runtime estimate over the credit */
	int (*collect)(struct jtsc_rng *rng);
};

/* Counters of one collector over a group's instances, for debugfs and the tests */
struct jtsc_stats {
	atomic64_t samples, collect_ns;
	atomic64_t intermittent, permanent;	/* health-test failures */
	atomic64_t credited;			/* in 1/256 bit */
	atomic64_t startups, refused, estimates;
};

/* What instances share; a step word is (generation << 8) | step */
struct jtsc_group {
	const struct jtsc_collector *col;
	unsigned long usable;
	atomic_t generation;
	atomic_t step[JTSC_NR_SOURCES];
	unsigned long want;
	struct work_struct estimate;
	struct jtsc_estimate est[JTSC_NR_SOURCES];	/* the last, a median */
	unsigned int nr_shards;
	struct jtsc_rng *shards;
	/* written by every batch: apart from what every request reads */
	struct jtsc_stats stats[JTSC_NR_SOURCES] ____cacheline_aligned;
};

/* One instance. */
struct jtsc_rng {
	/* serialises all below; collection sleeps; shards take it on different CPUs */
	struct mutex lock ____cacheline_aligned;
	struct jtsc_group *group;
	struct jtsc_core core;
	u8 *mem;			/* the speculative buffer, while in use */
	u64 pass;			/* passes made over mem */
	unsigned long last_used;	/* jiffies at the end of the last request */
	unsigned int generation;	/* the machine generation last served */
	u8 raw[JTSC_BATCH];		/* the current batch */
};

extern struct jtsc_group jtsc_group;

u8 *jtsc_spec_alloc(void);
int jtsc_group_step(struct jtsc_group *g, enum jtsc_source src);
unsigned int jtsc_group_count(struct jtsc_group *g, int src, enum jtsc_phase phase);

/* Static but for the KUnit suite (VISIBLE_IF_KUNIT) */
#if IS_ENABLED(CONFIG_KUNIT)
extern const unsigned int jtsc_ladder_steps;
void jtsc_health_init(struct jtsc_health *h, const struct jtsc_health_params *params);
enum jtsc_health_result jtsc_health_sample(struct jtsc_health *h, u8 sample);
unsigned int jtsc_health_hold(const struct jtsc_health *h);
u64 jtsc_lfsr_fold(u64 state, u64 in, unsigned int nbits);
int jtsc_group_init(struct jtsc_group *g, const struct jtsc_collector *col,
		    unsigned long usable, unsigned int nr_shards);
void jtsc_group_destroy(struct jtsc_group *g);
int jtsc_rng_init(struct jtsc_rng *rng, struct jtsc_group *g);
void jtsc_rng_destroy(struct jtsc_rng *rng);
int jtsc_rng_generate(struct jtsc_rng *rng, u8 *dst, unsigned int len);
int jtsc_rng_pull(struct jtsc_rng *rng, void *buf, size_t len);
void jtsc_park(struct jtsc_rng *rng);
bool jtsc_park_idle(struct jtsc_rng *rng, unsigned long idle);
#endif

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
void jtsc_inject(u8 *samples, unsigned int n, enum jtsc_source src, bool startup);
#else
static inline void jtsc_inject(u8 *samples, unsigned int n, enum jtsc_source src,
			       bool startup) { }
#endif

#endif /* _CRYPTO_JITTER_TSC_INTERNAL_H */
