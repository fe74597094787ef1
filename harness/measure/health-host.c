// SPDX-License-Identifier: GPL-2.0
/*
 * health-host - run raw samples through jitter_tsc's own health tests in user
 * space, and count the failures: on a healthy source there should be none.
 *
 * The code under test is not a copy: lib.sh (build_health) cuts the
 * "Parameters" and "Health tests" sections out of crypto/jitter_tsc.c at
 * build time, from their banners to the next banner, and the jtsc_params[]
 * table, into build/measure/jitter_tsc-health.inc, which is included
 * below; the structs
 * and enums come from include/crypto/internal/jitter_tsc.h itself. What they
 * need from the kernel is supplied here (u8..u64, likely/unlikely, max/max_t/MAX,
 * DIV_ROUND_UP, static_assert, VISIBLE_IF_KUNIT and EXPORT_SYMBOL_IF_KUNIT as
 * in a KUnit build, SHA256_DIGEST_SIZE, U16_MAX, ARRAY_SIZE, BIT_ULL, __ffs64,
 * get_unaligned_le64)
 * and by stand-ins for <linux/mutex.h>, <linux/types.h> and <linux/errno.h>
 * in build/measure/shim (the last two pass on to the system's uapi headers).
 *
 * Live mode (default): the kernel's speculative loop, tsc_jitter_fill() of
 * arch/x86/include/asm/tsc_jitter.h as in host-spec, is the collector
 * (jtsc_spec_collect() below does what the kernel's does), called for
 * JTSC_BATCH samples at a time with the tests run over each batch before the
 * next, as jtsc_add_words() does. File mode (-f FILE): the samples of FILE,
 * one byte each, through the tests of the collector -s names.
 *
 * After a permanent failure the tests start afresh (a new instance), so that
 * every failure in the stream is counted. Prints "key value" lines: samples,
 * intermittent, permanent, then the largest value each test's count reached
 * beside its cutoff (the margin a healthy source keeps), and one line per
 * failure (the first 20): where, which verdict and which count reached its
 * cutoff.
 *
 * usage: health-host [-n SAMPLES] [-s spec|timer] [-f FILE]
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <x86intrin.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

/* the kernel's, as far as the two sections use them */
#define BIT(n)			(1UL << (n))
#define BIT_ULL(n)		(1ULL << (n))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define __ffs64(x)		((unsigned int)__builtin_ctzll(x))
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
/* each argument evaluated once, as in the kernel: max(res, f()) calls f once */
#define max(a, b)		({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define max_t(t, a, b)		({ t _a = (a); t _b = (b); _a > _b ? _a : _b; })
#define MAX(a, b)		((a) > (b) ? (a) : (b))	/* for constant expressions */
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define static_assert(e, ...)	_Static_assert(e, #e)
#define U16_MAX			((u16)~0U)
#define SHA256_DIGEST_SIZE	32
#define IS_ENABLED(option)	1	/* CONFIG_KUNIT: the functions are visible */
#define IS_BUILTIN(option)	0
#define VISIBLE_IF_KUNIT
#define EXPORT_SYMBOL_IF_KUNIT(sym)
#define barrier()		__asm__ __volatile__("" : : : "memory")
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif

static inline u64 rdtsc(void)
{
	return __rdtsc();
}

/* <linux/unaligned.h>, on little-endian x86 */
static inline u64 get_unaligned_le64(const void *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

extern unsigned long __sw_hweight64(u64 w);	/* arch/x86/lib/hweight.S */

/*
 * Kernel code: built without -Wunused-parameter, as the kernel builds it
 * (a stub such as jitter_tsc_pull() ignores its arguments).
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <asm/tsc_jitter.h>
#include <crypto/internal/jitter_tsc.h>
#include <crypto/jitter_tsc.h>

#include "jitter_tsc-health.inc"
#pragma GCC diagnostic pop

/* What the kernel's jtsc_spec_collect() does, without the KUnit stub. */
int jtsc_spec_collect(u8 *samples, unsigned int n, void *mem)
{
	if (!mem)
		return -ENODEV;
	tsc_jitter_fill(samples, n, mem);
	return 0;
}

/* Not run here: the timer collector sleeps in the kernel. */
int jtsc_timer_collect(u8 *samples, unsigned int n, void *mem)
{
	(void)samples;
	(void)n;
	(void)mem;
	return -ENODEV;
}

static struct {
	unsigned int rct, apt, run, hits;
	unsigned int run_k, hits_k;
} top;

/* The largest count of each test so far (hits: before a window's reset). */
static void track(const struct jtsc_health *h)
{
	unsigned int k;

	if (h->rct_run > top.rct)
		top.rct = h->rct_run;
	if (h->apt_count > top.apt)
		top.apt = h->apt_count;
	for (k = 0; k < JTSC_NR_PREDICTORS; k++) {
		if (h->run[k] > top.run) {
			top.run = h->run[k];
			top.run_k = k;
		}
		if (h->hits[k] > top.hits) {
			top.hits = h->hits[k];
			top.hits_k = k;
		}
	}
}

/* Which count reached its cutoff with the sample just tested. */
static void why(const struct jtsc_health *h, char *buf, size_t len)
{
	const struct jtsc_health_params *p = h->params;
	unsigned int k;

	buf[0] = 0;
	if (h->rct_run == p->rct_cutoff || h->rct_run == p->rct_perm_cutoff)
		snprintf(buf, len, "RCT run %u", h->rct_run);
	else if (h->apt_count == p->apt_cutoff || h->apt_count == p->apt_perm_cutoff)
		snprintf(buf, len, "APT count %u", h->apt_count);
	for (k = 0; !buf[0] && k < JTSC_NR_PREDICTORS; k++) {
		if (h->run[k] == p->run_cutoff || h->run[k] == p->run_perm_cutoff)
			snprintf(buf, len, "predictor %u run %u", k, h->run[k]);
		else if (h->hits[k] == p->hits_cutoff || h->hits[k] == p->hits_perm_cutoff)
			snprintf(buf, len, "predictor %u hits %u", k, h->hits[k]);
	}
	if (!buf[0])
		snprintf(buf, len, "%u intermittent failures in a row, or a window's last hit",
			 h->failures);
}

int main(int argc, char **argv)
{
	unsigned long n = 100000000, done = 0, inter = 0, perm = 0, shown = 0;
	enum jtsc_source src = JTSC_SRC_SPEC;
	const char *file = NULL;
	size_t size = 0, align = 2UL << 20;
	struct jtsc_health h;
	u8 raw[JTSC_BATCH], *mem = NULL, *data = NULL;
	char reason[96];
	unsigned int i, k;
	int c;

	while ((c = getopt(argc, argv, "n:s:f:")) != -1) {
		if (c == 'n')
			n = strtoul(optarg, NULL, 0);
		else if (c == 's' && !strcmp(optarg, "spec"))
			src = JTSC_SRC_SPEC;
		else if (c == 's' && !strcmp(optarg, "timer"))
			src = JTSC_SRC_TIMER;
		else if (c == 'f')
			file = optarg;
		else
			goto usage;
	}
	if (optind != argc)
		goto usage;
	if (file) {
		FILE *f = fopen(file, "rb");
		long len;

		if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) <= 0 ||
		    fseek(f, 0, SEEK_SET) || !(data = malloc(len)) ||
		    fread(data, 1, len, f) != (size_t)len) {
			perror(file);
			return 1;
		}
		fclose(f);
		n = len;
	} else {
		if (src != JTSC_SRC_SPEC)
			goto usage;
		size = (TSC_JITTER_MEM_SIZE + align - 1) / align * align;
		mem = aligned_alloc(align, size);
		if (!mem)
			return 1;
		madvise(mem, size, MADV_HUGEPAGE);	/* as kvmalloc() maps it */
		memset(mem, 0, size);
	}

	jtsc_health_init(&h, &jtsc_params[src]);
	while (done < n) {
		k = n - done < JTSC_BATCH ? n - done : JTSC_BATCH;
		if (file)
			memcpy(raw, data + done, k);
		else if (jtsc_params[src].collect(raw, k, mem))
			return 1;
		for (i = 0; i < k; i++) {
			enum jtsc_health_result res = jtsc_health_sample(&h, raw[i]);

			track(&h);
			if (res == JTSC_HEALTH_OK)
				continue;
			why(&h, reason, sizeof(reason));
			if (shown++ < 20)
				printf("failure %s at sample %lu: %s\n",
				       res == JTSC_HEALTH_PERMANENT ? "permanent" : "intermittent",
				       done + i, reason);
			if (res == JTSC_HEALTH_PERMANENT) {
				perm++;
				jtsc_health_init(&h, &jtsc_params[src]);
			} else {
				inter++;
			}
		}
		done += k;
	}
	printf("collector %s (%s)\n", jtsc_params[src].name,
	       file ? file : "live: tsc_jitter_fill() on this CPU");
	printf("credit_256ths %u\n", jtsc_params[src].credit);
	printf("samples %lu\n", done);
	printf("intermittent %lu\n", inter);
	printf("permanent %lu\n", perm);
	printf("largest rct_run %u cutoff %u\n", top.rct, jtsc_params[src].rct_cutoff);
	printf("largest apt_count %u cutoff %u\n", top.apt, jtsc_params[src].apt_cutoff);
	printf("largest predictor_run %u cutoff %u (predictor %u)\n", top.run,
	       jtsc_params[src].run_cutoff, top.run_k);
	printf("largest predictor_hits %u cutoff %u (predictor %u, window %u)\n", top.hits,
	       jtsc_params[src].hits_cutoff, top.hits_k, JTSC_PRED_WINDOW);
	free(mem);
	free(data);
	return 0;
usage:
	fprintf(stderr, "usage: health-host [-n SAMPLES] [-s spec|timer] [-f FILE]\n");
	return 2;
}
