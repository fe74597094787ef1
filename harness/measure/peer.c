// SPDX-License-Identifier: GPL-2.0
/*
 * peer - jitter_tsc beside Linux 6.12's jitterentropy, natively, in one run
 * on one CPU, alternating: for each round, a cold instance of each (the
 * time to its first 32 bytes) and then BLOCKS more 32-byte blocks (the
 * steady rate), in CPU time of this thread.
 *
 * jitterentropy: the base tree's crypto/jitterentropy.c, compiled
 * unchanged (-O0, as the kernel's Makefile builds it) and linked with
 * peer-jent.c, which stands in for what jitterentropy-kcapi.c gives it.
 * A cold instance is what the kernel does: jent_entropy_init() (module
 * load, its own startup collector), jent_entropy_collector_alloc() (a
 * transform), then jent_read_entropy() of 32 bytes. Its credit is its
 * claim: 256 bits per block at the default oversampling rate of 1.
 *
 * jitter_tsc: the loop of arch/x86/include/asm/tsc_jitter.h, the core
 * (crypto/jitter_tsc_core.c and jitter_tsc_estimate.c) compiled as they
 * are, and the block path of crypto/jitter_tsc_kcapi.c written out here
 * (the glue is kernel code): a buffer of TSC_JITTER_MEM_SIZE bytes, one
 * byte of each page written, the generation's estimate (three windows of
 * JTSC_STARTUP_SAMPLES samples, the ladder step picked from the median
 * with JTSC_EST_MARGIN), the startup test (a fourth window through the
 * health tests), then one request of batches of JTSC_BATCH samples health tested and folded
 * into words, words counted as tested once their predictor window closed
 * (jtsc_health_hold()), and a block SHA-256 over the fewest tested words
 * carrying 2 x 256 credited bits (JTSC_OVERSAMPLE). Its credit is the
 * credit of those words.
 *
 * Prints one line per round and instance, then medians and ranges, then
 *   jitter_tsc / jitterentropy credited bits per microsecond: R
 * R the median over rounds of the ratio of the two rates in that round.
 *
 * usage: peer [-r ROUNDS] [-b BLOCKS] [-c CPU]
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <openssl/evp.h>

#include "jitter_tsc_internal.h"
#include "tsc-jitter-user.h"
#include <asm/tsc_jitter.h>

/* crypto/jitterentropy.h, whose types jitterentropy.c defines itself */
struct rand_data;
int jent_entropy_init(unsigned int osr, unsigned int flags, void *hash_state,
		      struct rand_data *p_ec);
int jent_read_entropy(struct rand_data *ec, unsigned char *data, unsigned int len);
struct rand_data *jent_entropy_collector_alloc(unsigned int osr, unsigned int flags,
					       void *hash_state);
void jent_entropy_collector_free(struct rand_data *entropy_collector);
void *peer_jent_hash_alloc(void);
void peer_jent_hash_free(void *hash_state);

#define JENT_OSR	1	/* CONFIG_CRYPTO_JITTERENTROPY_OSR's default */
#define BLOCK		32
#define BATCH		512	/* JTSC_BATCH */
#define POOL_WORDS	192	/* JTSC_POOL_WORDS */
#define OVERSAMPLE	2	/* JTSC_OVERSAMPLE */

static double cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

struct run {
	double first_us;	/* cold instance to its first block */
	double steady_us;	/* the BLOCKS blocks after it */
	double credit_bits;	/* credited in those blocks */
	double startup_h;	/* jitter_tsc: the startup estimate */
	double part_ms[5];	/* jitter_tsc: the cold start's parts */
	double loop_share;	/* jitter_tsc: of the steady time, in the loop */
	unsigned int step_credit;	/* jitter_tsc: credit per sample, 1/256 bit */
};

static int jent_round(unsigned int blocks, struct run *r)
{
	unsigned char out[BLOCK];
	struct rand_data *ec;
	void *hash;
	double t0, t1;
	unsigned int i;

	t0 = cpu_us();
	hash = peer_jent_hash_alloc();
	if (!hash || jent_entropy_init(JENT_OSR, 0, hash, NULL))
		return -1;
	ec = jent_entropy_collector_alloc(JENT_OSR, 0, hash);
	if (!ec || jent_read_entropy(ec, out, BLOCK))
		return -1;
	t1 = cpu_us();
	r->first_us = t1 - t0;
	for (i = 0; i < blocks; i++)
		if (jent_read_entropy(ec, out, BLOCK))
			return -1;
	r->steady_us = cpu_us() - t1;
	r->credit_bits = 256.0 * blocks;
	jent_entropy_collector_free(ec);
	peer_jent_hash_free(hash);
	return 0;
}

/* jitter_tsc's instance: the core of struct jtsc_rng, and its buffer */
struct tsc_inst {
	u8 *mem;
	u64 walk;
	struct jtsc_core core;
	u8 raw[BATCH];
};

/* CPU time in the loop, and in the rest of the block path, since reset */
static double loop_us;

/*
 * One block of jtsc_rng_generate(): the core's own calls, the glue's loop;
 * each block drops the words made before it beyond those its fresh half
 * leaves room for. Returns its credit in 1/256 bit.
 */
static long tsc_block(struct tsc_inst *t, unsigned char *out)
{
	unsigned int words = jtsc_core_words(&t->core, OVERSAMPLE * 256 * 256);
	unsigned int len = 0;
	double t0;

	jtsc_core_begin_block(&t->core, words, 256 * 256);
	while (t->core.tested < words) {
		t0 = cpu_us();
		for (unsigned int at = 0; at < BATCH; at += 128)	/* JTSC_SPEC_CHUNK */
			tsc_jitter_fill(t->raw + at, 128, t->mem, &t->walk);
		loop_us += cpu_us() - t0;
		if (jtsc_core_feed(&t->core, t->raw) != JTSC_RUNNING)
			return -1;
	}
	if (!EVP_Digest(t->core.pool, words * sizeof(u64), out, &len, EVP_sha256(), NULL))
		return -1;
	return jtsc_core_take(&t->core, words);
}

static int tsc_round(unsigned int blocks, struct run *r)
{
	size_t work = jtsc_estimate_work_size(JTSC_STARTUP_SAMPLES);
	unsigned char out[BLOCK];
	struct jtsc_estimate es[3], e;
	struct tsc_inst *t;
	double t0, t1, tp, tq, credit = 0;
	unsigned int i, at;
	u8 *samples;
	long c;
	int step;

/* the CPU time since the last PART(), as part @i of the cold start */
#define PART(i) do { tq = cpu_us(); r->part_ms[i] = (tq - tp) / 1e3; tp = tq; } while (0)

	t0 = cpu_us();
	tp = t0;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -1;
	/* jtsc_spec_alloc(): pages of its own, 4 KiB each, one byte written */
	t->mem = mmap(NULL, TSC_JITTER_MEM_SIZE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	samples = malloc(4 * JTSC_STARTUP_SAMPLES + work);
	if (t->mem == MAP_FAILED || !samples)
		return -1;
	madvise(t->mem, TSC_JITTER_MEM_SIZE, MADV_NOHUGEPAGE);
	for (at = 0; at < TSC_JITTER_MEM_SIZE; at += 4096)
		t->mem[at] = at / 4096 + 1;
	PART(0);
	/* jtsc_estimate()'s three windows, then the startup test's */
	for (at = 0; at < 4 * JTSC_STARTUP_SAMPLES; at += 128)	/* JTSC_SPEC_CHUNK */
		tsc_jitter_fill(samples + at, 128, t->mem, &t->walk);
	PART(1);
	for (i = 0; i < 3; i++)
		jtsc_estimate_samples(samples + i * JTSC_STARTUP_SAMPLES, JTSC_STARTUP_SAMPLES,
				      samples + 4 * JTSC_STARTUP_SAMPLES, &es[i]);
	/* the median of the three */
	e = es[0];
	if ((es[1].h_min >= es[0].h_min) == (es[1].h_min <= es[2].h_min))
		e = es[1];
	else if ((es[2].h_min >= es[0].h_min) == (es[2].h_min <= es[1].h_min))
		e = es[2];
	PART(2);
	step = jtsc_ladder_pick(&e, JTSC_EST_MARGIN);
	if (step < 0) {
		fprintf(stderr, "peer: jitter_tsc's startup estimate %.3f is below the floor\n",
			(double)e.h_min / JTSC_EST_ONE);
		return -1;
	}
	i = jtsc_core_startup(&t->core, JTSC_SRC_SPEC, step, samples + 3 * JTSC_STARTUP_SAMPLES,
			      0, 1);
	free(samples);
	PART(3);
	if (i != JTSC_RUNNING || tsc_block(t, out) < 0)
		return -1;
	PART(4);
	t1 = cpu_us();
	r->first_us = t1 - t0;
	r->startup_h = (double)e.h_min / JTSC_EST_ONE;
	r->step_credit = jtsc_ladder[step].credit;
	loop_us = 0;
	for (i = 0; i < blocks; i++) {
		c = tsc_block(t, out);	/* one request of @blocks blocks */
		if (c < 0)
			return -1;
		credit += c / 256.0;
	}
	r->steady_us = cpu_us() - t1;
	r->credit_bits = credit;
	r->loop_share = loop_us / r->steady_us;
	munmap(t->mem, TSC_JITTER_MEM_SIZE);
	free(t);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* the median, minimum and maximum of v[0..n) */
static void stats(double *v, unsigned int n, double *med, double *lo, double *hi)
{
	qsort(v, n, sizeof(*v), cmp);
	*med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	*lo = v[0];
	*hi = v[n - 1];
}

int main(int argc, char **argv)
{
	unsigned int rounds = 5, blocks = 64, i, k;
	struct run jr, tr;
	double *v[7], *parts[5], *rest, med, lo, hi;
	cpu_set_t set;
	int c, cpu = -1;
	static const char *const label[] = {
		"jitterentropy credited bits/us", "jitter_tsc credited bits/us",
		"jitterentropy output kB/s", "jitter_tsc output kB/s",
		"jitterentropy cold to 32 B, ms", "jitter_tsc cold to 32 B, ms",
		"jitter_tsc / jitterentropy bits/us",
	};

	while ((c = getopt(argc, argv, "r:b:c:")) != -1) {
		if (c == 'r')
			rounds = strtoul(optarg, NULL, 0);
		else if (c == 'b')
			blocks = strtoul(optarg, NULL, 0);
		else if (c == 'c')
			cpu = atoi(optarg);
		else
			goto usage;
	}
	if (optind != argc || !rounds || !blocks || rounds > 1000)
		goto usage;
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			perror("sched_setaffinity");
	}
	for (k = 0; k < 7; k++) {
		v[k] = calloc(rounds, sizeof(double));
		if (!v[k])
			return 1;
	}
	for (k = 0; k < 5; k++) {
		parts[k] = calloc(rounds, sizeof(double));
		if (!parts[k])
			return 1;
	}
	rest = calloc(rounds, sizeof(double));
	if (!rest)
		return 1;
	printf("%-5s %-13s %12s %12s %12s %9s %s\n", "round", "rng", "bits/us", "kB/s",
	       "cold 32 B ms", "startup", "credit/256");
	for (i = 0; i < rounds; i++) {
		if (jent_round(blocks, &jr) || tsc_round(blocks, &tr)) {
			fprintf(stderr, "peer: round %u failed\n", i + 1);
			return 1;
		}
		v[0][i] = jr.credit_bits / jr.steady_us;
		v[1][i] = tr.credit_bits / tr.steady_us;
		v[2][i] = BLOCK * blocks / jr.steady_us * 1e3;
		v[3][i] = BLOCK * blocks / tr.steady_us * 1e3;
		v[4][i] = jr.first_us / 1e3;
		v[5][i] = tr.first_us / 1e3;
		v[6][i] = v[1][i] / v[0][i];
		for (k = 0; k < 5; k++)
			parts[k][i] = tr.part_ms[k];
		rest[i] = (1 - tr.loop_share) / tr.loop_share;
		printf("%-5u %-13s %12.3f %12.1f %12.2f %9s %s\n", i + 1, "jitterentropy",
		       v[0][i], v[2][i], v[4][i], "-", "-");
		printf("%-5u %-13s %12.3f %12.1f %12.2f %9.3f %u\n", i + 1, "jitter_tsc",
		       v[1][i], v[3][i], v[5][i], tr.startup_h, tr.step_credit);
		fflush(stdout);
	}
	printf("\nmedian (min - max) over %u rounds of %u blocks, CPU time of one thread:\n",
	       rounds, blocks);
	for (k = 0; k < 7; k++) {
		stats(v[k], rounds, &med, &lo, &hi);
		printf("  %-36s %10.3f  (%.3f - %.3f)\n", label[k], med, lo, hi);
	}
	printf("  jitter_tsc's cold start, ms (median):");
	for (k = 0; k < 5; k++) {
		static const char *const part[] = {
			"buffer", "startup samples", "estimate", "health tests", "first block",
		};

		stats(parts[k], rounds, &med, &lo, &hi);
		printf(" %s %.2f%s", part[k], med, k < 4 ? "," : "\n");
	}
	stats(rest, rounds, &med, &lo, &hi);
	printf("  jitter_tsc's health tests, fold and hash over its loop, steady: %.1f%% (%.1f - %.1f)\n",
	       100 * med, 100 * lo, 100 * hi);
	stats(v[6], rounds, &med, &lo, &hi);
	printf("jitter_tsc / jitterentropy credited bits per microsecond: %.2f\n", med);
	return 0;
usage:
	fprintf(stderr, "usage: peer [-r ROUNDS] [-b BLOCKS] [-c CPU]\n");
	return 2;
}
