// SPDX-License-Identifier: GPL-2.0
/*
 * ea-core - run the kernel's SP 800-90B estimators (crypto/jitter_tsc_estimate.c,
 * built as it is with the stand-in headers of harness/measure/include) on a file
 * of 8-bit samples, one per byte, and print what jtsc_estimate_samples() returns:
 *
 *   literal MCV V, literal t-tuple V, literal LRS V, literal MultiMCW V,
 *   literal lag V, literal MultiMMC V, literal bitstring MultiMMC V
 *                    each estimate in bits per sample (12 decimals) or n/a
 *   H_min V          their minimum, at most 8
 *   estimator NAME   the estimator giving it
 *   samples N        the number of samples used
 *   symbols K        the number of distinct sample values (counted here)
 *   ms T             the time of the jtsc_estimate_samples() call, in milliseconds
 *
 * usage: ea-core [-n MAX] [-o OFFSET] FILE
 *   -n  use at most MAX samples;  -o  skip the first OFFSET bytes
 *
 * Build (from the repository's top):
 *   gcc -O2 -Wall -Wextra -Werror -I harness/measure/include -I crypto \
 *       -o build/measure/ea-core harness/measure/ea-core.c crypto/jitter_tsc_estimate.c
 * test-core-nist.sh builds it and compares it with NIST's tool.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jitter_tsc_internal.h"

/* the estimate's own limit: indices are u32 and n < 2^31 */
#define MAX_SAMPLES	0x7fffffffUL

static void usage(FILE *f)
{
	fprintf(f, "usage: ea-core [-n MAX] [-o OFFSET] FILE\n"
		"  -n  use at most MAX samples (default: all, at most 2^31 - 1)\n"
		"  -o  skip the first OFFSET bytes of FILE\n");
}

/* The number of distinct values among @n bytes */
static unsigned int distinct(const u8 *s, size_t n)
{
	unsigned char seen[256] = { 0 };
	unsigned int k = 0;

	while (n--) {
		k += !seen[s[n]];
		seen[s[n]] = 1;
	}
	return k;
}

static double ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1e3 + (t.tv_nsec - t0->tv_nsec) / 1e6;
}

static void print_h(const char *label, u64 h)
{
	if (h == JTSC_EST_NONE)
		printf("%s n/a\n", label);
	else
		printf("%s %.12f\n", label, (double)h / JTSC_EST_ONE);
}

int main(int argc, char **argv)
{
	unsigned long maxn = MAX_SAMPLES, offset = 0, cap = 1 << 20, n = 0;
	struct jtsc_estimate e;
	struct timespec t0;
	double ms;
	char label[64];
	u8 *buf, *nbuf;
	void *work;
	size_t got;
	FILE *f;
	int c, i;

	while ((c = getopt(argc, argv, "n:o:h")) != -1) {
		switch (c) {
		case 'n':
			maxn = strtoul(optarg, NULL, 0);
			break;
		case 'o':
			offset = strtoul(optarg, NULL, 0);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	if (maxn > MAX_SAMPLES)
		maxn = MAX_SAMPLES;
	f = fopen(argv[optind], "rb");
	if (!f || (offset && fseek(f, (long)offset, SEEK_SET))) {
		fprintf(stderr, "ea-core: %s: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	buf = malloc(cap);
	while (buf && n < maxn) {
		if (n == cap) {
			cap *= 2;
			nbuf = realloc(buf, cap);
			if (!nbuf) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nbuf;
		}
		got = fread(buf + n, 1, (cap - n < maxn - n ? cap : maxn) - n, f);
		if (!got)
			break;
		n += got;
	}
	if (!buf || ferror(f)) {
		fprintf(stderr, "ea-core: %s: %s\n", argv[optind],
			buf ? "read error" : "out of memory");
		return 1;
	}
	fclose(f);

	work = malloc(jtsc_estimate_work_size(n));
	if (!work) {
		fprintf(stderr, "ea-core: out of memory\n");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	jtsc_estimate_samples(buf, n, work, &e);
	ms = ms_since(&t0);
	for (i = 0; i < JTSC_NR_ESTIMATORS; i++) {
		snprintf(label, sizeof(label), "literal %s", jtsc_estimator_name[i]);
		print_h(label, e.h[i]);
	}
	print_h("H_min", e.h_min);
	printf("estimator %s\n", jtsc_estimator_name[e.which]);
	printf("samples %u\n", e.samples);
	printf("symbols %u\n", distinct(buf, n));
	printf("ms %.3f\n", ms);
	free(work);
	free(buf);
	return 0;
}
