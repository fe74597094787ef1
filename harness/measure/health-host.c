// SPDX-License-Identifier: GPL-2.0
/*
 * health-host - run raw samples through jitter_tsc's own startup test and
 * health tests in user space, and count the failures: on a healthy source
 * there should be none.
 *
 * The code under test is not a copy: crypto/jitter_tsc_core.c (health
 * tests, credit ladder) and crypto/jitter_tsc_estimate.c (the runtime
 * estimate) are compiled as they are, with harness/measure/include standing
 * in for the kernel headers they use (lib.sh, build_health).
 *
 * The credit: as the kernel's startup test does, the first
 * JTSC_STARTUP_SAMPLES samples are estimated and the ladder step the
 * estimate allows is taken (jtsc_ladder_pick()); -c CREDIT takes the step
 * of that credit (in 1/256 bit) instead.
 *
 * Live mode (default): the kernel's speculative loop, tsc_jitter_fill() of
 * arch/x86/include/asm/tsc_jitter.h as in host-spec, is the collector,
 * called for JTSC_BATCH samples at a time with the tests run over each
 * batch before the next, as jtsc_add_words() does. File mode (-f FILE): the
 * samples of FILE, one byte each (-s names the collector they came from).
 *
 * After a permanent failure the tests start afresh (a new instance), so that
 * every failure in the stream is counted. Prints "key value" lines: samples,
 * intermittent, permanent, then the largest value each test's count reached
 * beside its cutoff (the margin a healthy source keeps), and one line per
 * failure (the first 20): where, which verdict and which count reached its
 * cutoff.
 *
 * usage: health-host [-n SAMPLES] [-s spec|timer] [-c CREDIT] [-f FILE]
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

#include "jitter_tsc_internal.h"

#include "tsc-jitter-user.h"
#include <asm/tsc_jitter.h>

/* Samples a collector call takes in the kernel (JTSC_BATCH there). */
#define BATCH	512

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
		snprintf(buf, len, "a window's last hit");
}

int main(int argc, char **argv)
{
	unsigned long n = 100000000, done = 0, inter = 0, perm = 0, shown = 0;
	const char *file = NULL, *src = "spec";
	size_t size = 0, align = 2UL << 20;
	const struct jtsc_health_params *p = NULL;
	struct jtsc_estimate e;
	struct jtsc_health h;
	u8 raw[BATCH], *mem = NULL, *data = NULL, *start;
	u64 walk = 0;
	unsigned int i, k, credit = 0;
	char reason[96];
	void *work;
	int c, step;

	while ((c = getopt(argc, argv, "n:s:c:f:")) != -1) {
		if (c == 'n')
			n = strtoul(optarg, NULL, 0);
		else if (c == 's' && (!strcmp(optarg, "spec") || !strcmp(optarg, "timer")))
			src = optarg;
		else if (c == 'c')
			credit = strtoul(optarg, NULL, 0);
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
		if (strcmp(src, "spec"))
			goto usage;
		size = (TSC_JITTER_MEM_SIZE + align - 1) / align * align;
		mem = aligned_alloc(align, size);
		if (!mem)
			return 1;
		madvise(mem, size, MADV_NOHUGEPAGE);	/* 4 KiB pages, as jtsc_spec_alloc() */
		memset(mem, 0, size);
	}

	/* The startup test's estimate, of the first samples, or -c. */
	start = malloc(JTSC_STARTUP_SAMPLES);
	work = malloc(jtsc_estimate_work_size(JTSC_STARTUP_SAMPLES));
	if (!start || !work || (file && n < JTSC_STARTUP_SAMPLES))
		goto usage;
	if (file)
		memcpy(start, data, JTSC_STARTUP_SAMPLES);
	else
		tsc_jitter_fill(start, JTSC_STARTUP_SAMPLES, mem, &walk);
	jtsc_estimate_samples(start, JTSC_STARTUP_SAMPLES, work, &e);
	step = jtsc_ladder_pick(&e, strcmp(src, "timer") ? JTSC_EST_MARGIN : JTSC_EST_MARGIN_TIMER);
	for (i = 0; credit && i < jtsc_ladder_steps; i++)
		if (jtsc_ladder[i].credit == credit)
			step = i;
	if (step < 0 || (credit && jtsc_ladder[step].credit != credit)) {
		printf("estimate %.5f (%s)\nrefused %s\n", (double)e.h_min / JTSC_EST_ONE,
		       jtsc_estimator_name[e.which], step < 0 ? "below the floor" : "no such credit");
		return 1;
	}
	p = &jtsc_ladder[step];

	jtsc_health_init(&h, p);
	while (done < n) {
		k = n - done < BATCH ? n - done : BATCH;
		if (file)
			memcpy(raw, data + done, k);
		else
			tsc_jitter_fill(raw, k, mem, &walk);
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
				jtsc_health_init(&h, p);
			} else {
				inter++;
			}
		}
		done += k;
	}
	printf("collector %s (%s)\n", src, file ? file : "live: tsc_jitter_fill() on this CPU");
	printf("estimate %.5f (%s, first %u samples)\n", (double)e.h_min / JTSC_EST_ONE,
	       jtsc_estimator_name[e.which], JTSC_STARTUP_SAMPLES);
	printf("credit_256ths %u\n", p->credit);
	printf("samples %lu\n", done);
	printf("intermittent %lu\n", inter);
	printf("permanent %lu\n", perm);
	printf("largest rct_run %u cutoff %u\n", top.rct, p->rct_cutoff);
	printf("largest apt_count %u cutoff %u\n", top.apt, p->apt_cutoff);
	printf("largest predictor_run %u cutoff %u (predictor %u)\n", top.run,
	       p->run_cutoff, top.run_k);
	printf("largest predictor_hits %u cutoff %u (predictor %u, window %u)\n", top.hits,
	       p->hits_cutoff, top.hits_k, JTSC_PRED_WINDOW);
	free(mem);
	free(data);
	free(start);
	free(work);
	return 0;
usage:
	fprintf(stderr, "usage: health-host [-n SAMPLES] [-s spec|timer] [-c CREDIT] [-f FILE]\n");
	return 2;
}
