// SPDX-License-Identifier: GPL-2.0
/*
 * host-spec - run the kernel's speculative TSC sampling loop on the host CPU.
 *
 * Compiles arch/x86/include/asm/tsc_jitter.h itself (not a copy), with the
 * three things it needs from the kernel supplied here: u64, rdtsc() and
 * __sw_hweight64(). Writes N raw samples (bits, packed 8 per byte, sample
 * 8k+j = bit j of byte k, i.e. the u64 little-endian layout of debugfs
 * spec_raw) to FILE and prints the time per raw bit.
 *
 * usage: host-spec [-n BITS] FILE
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

typedef uint64_t u64;

static inline u64 rdtsc(void)
{
	return __rdtsc();
}

/*
 * The kernel's x86-64 __sw_hweight64 (arch/x86/lib/hweight.S) is this
 * algorithm (lib/hweight.c, ARCH_HAS_FAST_MULTIPLIER variant) as an
 * out-of-line function. Keep it out of line; never the popcnt instruction
 * (the file is built with -mno-popcnt).
 */
__attribute__((noinline)) unsigned long __sw_hweight64(u64 w)
{
	w -= (w >> 1) & 0x5555555555555555ul;
	w =  (w & 0x3333333333333333ul) + ((w >> 2) & 0x3333333333333333ul);
	w =  (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0ful;
	return (w * 0x0101010101010101ul) >> 56;
}

#include <asm/tsc_jitter.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long bits = 1000000, nwords, i;
	double t0, t1;
	u64 *buf;
	FILE *f;
	int c;

	while ((c = getopt(argc, argv, "n:")) != -1) {
		if (c == 'n')
			bits = strtoul(optarg, NULL, 0);
		else
			goto usage;
	}
	if (optind != argc - 1)
		goto usage;
	nwords = (bits + 63) / 64;
	buf = calloc(nwords, sizeof(*buf));
	if (!buf)
		return 1;
	/* warm up caches and frequency */
	for (i = 0; i < 1000; i++)
		buf[0] ^= tsc_jitter_word();
	t0 = now_ns();
	for (i = 0; i < nwords; i++)
		buf[i] = tsc_jitter_word();
	t1 = now_ns();
	f = fopen(argv[optind], "wb");
	if (!f || fwrite(buf, sizeof(*buf), nwords, f) != nwords || fclose(f)) {
		perror(argv[optind]);
		return 1;
	}
	printf("host-spec: %lu raw bits in %.1f ms: %.2f ns/bit\n",
	       nwords * 64, (t1 - t0) / 1e6, (t1 - t0) / (nwords * 64.0));
	printf("ns_per_bit %.2f\n", (t1 - t0) / (nwords * 64.0));
	free(buf);
	return 0;
usage:
	fprintf(stderr, "usage: host-spec [-n BITS] FILE\n");
	return 2;
}
