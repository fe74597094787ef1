/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jitter_tsc internals: the collectors, the instances and their group.
 *
 * Only crypto/jitter_tsc_kcapi.c and the KUnit suite include this header;
 * the host-independent core (health tests, folding, estimate, credit
 * ladder) is declared in jitter_tsc_core.h. The glue functions declared
 * below are static unless CONFIG_KUNIT is set, in which case they are
 * exported to the EXPORTED_FOR_KUNIT_TESTING namespace, as the core's are.
 */
#ifndef _CRYPTO_INTERNAL_JITTER_TSC_H
#define _CRYPTO_INTERNAL_JITTER_TSC_H

#include <crypto/internal/jitter_tsc_core.h>
#include <linux/atomic.h>
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

/**
 * struct jtsc_buf - The speculative collector's buffer, and its walk
 * @mem: JTSC_SPEC_MEM_SIZE bytes, only loaded from; NULL while none is
 *	held
 * @pass: passes the walk has made over @mem since it was allocated
 */
struct jtsc_buf {
	u8 *mem;
	u64 pass;
};

/**
 * struct jtsc_collector - What differs between the collectors
 * @name: collector name, for log messages and debugfs
 * @margin: the runtime estimate over the credit (jtsc_ladder_pick())
 * @collect: takes raw samples, one per byte, into @samples, on one CPU;
 *	@buf is the instance's buffer for the speculative collector; 0 or a
 *	negative errno
 */
struct jtsc_collector {
	const char *name;
	unsigned int margin;
	int (*collect)(u8 *samples, unsigned int n, struct jtsc_buf *buf);
};

/**
 * struct jtsc_stats - Counters of one collector, for debugfs and tests
 * @samples: raw samples taken
 * @collect_ns: time spent taking @samples (with the debugfs option only)
 * @intermittent: intermittent health-test failures
 * @permanent: permanent health-test failures
 * @credited: entropy of the pool words taken for output blocks and pulls,
 *	in 1/256 bit (a request shorter than a block takes a whole block's)
 * @startups: startup tests that took their samples
 * @estimates: startup tests that made a runtime estimate
 * @refused: startup tests whose estimate was below the ladder's floor
 * @h_min: the last runtime estimate, in 2^-32 bit per sample
 * @estimator: the estimator that gave @h_min
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

/*
 * Pool words: one output block or pull, plus a predictor window of pending
 * words, plus the words held back at its end (a run still going and the
 * last JTSC_MAX_LAG samples, see jtsc_release()), at the ladder step that
 * needs most: 32 + 128 + 5 words of 32 samples at 192/256 bit for a pull,
 * 128 + 8 + 17 words of 512 samples at the floor for a block.
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
 * @step: per collector, the machine generation and the ladder step the
 *	first startup test of that generation estimated, in one word
 *	(jtsc_group_step()); every instance credits this step, and no later
 *	startup test estimates again
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
	atomic_t step[JTSC_NR_SOURCES];
	unsigned int nr_shards;
	struct jtsc_rng **shards;
};

/**
 * struct jtsc_rng - One jitter_tsc instance
 * @lock: serialises everything below; collection may sleep
 * @group: the group the instance belongs to
 * @active: the collector data is drawn from, once @started
 * @started: @active passed its startup test on this instance
 * @restart: the next startup test follows an intermittent failure of
 *	@active: failing it is a permanent failure of @active
 * @flaky: intermittent failures since a predictor window was last
 *	released; JTSC_MAX_INTERMITTENT of them are a permanent failure
 * @failed: no collector of the group is left; sticky
 * @health: health-test state per collector, its cutoffs those of the
 *	ladder step the collector's last startup test on this instance chose
 * @stats: counters per collector
 * @buf: the speculative collector's buffer, held from the startup test of
 *	that collector until the instance is parked (jtsc_park())
 * @last_used: jiffies at the end of the last request
 * @generation: the count of VM forks, suspends and hibernations this
 *	instance has seen; a newer one parks it
 * @lfsr: state of the folding LFSR
 * @pool: folded words; the first @tested passed every test over their
 *	whole predictor window, the @pending after them wait for theirs
 * @tested: words in @pool released for use
 * @pending: words in @pool waiting for their window to close
 * @stale: the first words of @pool, made before the output request being
 *	served began
 * @raw: raw samples of the current batch
 */
struct jtsc_rng {
	struct mutex lock; /* see above */
	struct jtsc_group *group;
	enum jtsc_source active;
	bool started;
	bool restart;
	bool failed;
	unsigned int flaky;
	struct jtsc_health health[JTSC_NR_SOURCES];
	struct jtsc_stats stats[JTSC_NR_SOURCES];
	struct jtsc_buf buf;
	unsigned long last_used;
	unsigned int generation;
	u64 lfsr;
	u64 pool[JTSC_POOL_WORDS];
	unsigned int tested;
	unsigned int pending;
	unsigned int stale;
	u8 raw[JTSC_BATCH];
};

extern const struct jtsc_collector jtsc_collectors[JTSC_NR_SOURCES];

#if IS_ENABLED(CONFIG_KUNIT)
u64 jtsc_read_counter(void);
int jtsc_counter_check(void);
int jtsc_spec_collect(u8 *samples, unsigned int n, struct jtsc_buf *buf);
int jtsc_timer_collect(u8 *samples, unsigned int n, struct jtsc_buf *buf);
int jtsc_rng_init(struct jtsc_rng *rng, struct jtsc_group *g);
void jtsc_rng_destroy(struct jtsc_rng *rng);
int jtsc_group_init(struct jtsc_group *g, unsigned int collectors,
		    unsigned int nr_shards);
void jtsc_group_destroy(struct jtsc_group *g);
struct jtsc_group *jtsc_kcapi_group(void);
int jtsc_rng_generate(struct jtsc_rng *rng, u8 *dst, unsigned int len);
int jtsc_rng_generate_wait(struct jtsc_rng *rng, u8 *dst, unsigned int dlen);
int jtsc_rng_pull(struct jtsc_rng *rng, void *buf, size_t len);
bool jtsc_group_park_idle(struct jtsc_group *g, unsigned long idle);
void jtsc_machine_changed(void);
#endif

#endif /* _CRYPTO_INTERNAL_JITTER_TSC_H */
