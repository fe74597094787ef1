// SPDX-License-Identifier: GPL-2.0
/*
 * host-spec - run the kernel's speculative TSC sampling loop on the host CPU.
 *
 * Compiles arch/x86/include/asm/tsc_jitter.h itself, not a copy, with what
 * it needs from the kernel supplied by tsc-jitter-user.h. The buffer-size variants (harness/measure/lib.sh,
 * build_spec_variant) compile a header made from it at build time that
 * differs in the one line defining TSC_JITTER_MEM_ORDER.
 *
 * __sw_hweight64() is the kernel's own: arch/x86/lib/hweight.S of the
 * pristine base tree (build/base/linux-source-6.12), assembled by lib.sh with
 * stub headers (SYM_FUNC_START/END, EXPORT_SYMBOL, __ASM_SIZE/__ASM_REG) and
 * linked in. One difference remains: the kernel's RET may be a return thunk
 * (a jmp to __x86_return_thunk, with the retbleed/SRSO mitigations built in
 * and enabled), where this build has a plain ret. The file is built with
 * -mno-popcnt, so nothing else can stand in for the call.
 *
 * The buffer, TSC_JITTER_MEM_SIZE bytes, is zeroed (to get pages of its
 * own, not the shared zero page; the kernel's jtsc_spec_alloc() does not
 * zero it, but init_on_alloc=1 does, which leaves its lines dirty in the
 * caches as here), with 4 KiB pages as there (MADV_NOHUGEPAGE); -w huge asks for
 * transparent huge pages instead, to show what a huge mapping does to the
 * walk. "huge_kib" in the output says what the host gave.
 *
 * Samples are taken as the kernel takes them: CHUNK (default 128, JTSC_SPEC_CHUNK)
 * at a time, each chunk one call of tsc_jitter_fill(). Writes N raw samples,
 * one byte each (the low byte of the TSC's advance over one pass), to FILE,
 * and prints "key value" lines: samples, ns_per_sample, ticks_per_sample
 * (mean TSC advance per sample, chunk overhead included), huge_kib, and
 * the walk's DRAM loads: dram_page_loads_per_cycle (fewest and most per
 * 4 KiB page), dram_8k_per_64ms (the most an aligned 8 KiB can get per
 * 64 ms at this run's rate) and the same at one pass per 62.5 ns.
 *
 * -w popcount runs instead a loop that is NOT the kernel's: tsc_jitter_fill()
 * without the buffer access (read, popcount of the reading, read), to show
 * what the buffer adds.
 *
 * usage: host-spec [-n SAMPLES] [-c CHUNK] [-w buffer|popcount|huge] FILE
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

typedef uint8_t u8;
typedef uint64_t u64;

#include "tsc-jitter-user.h"
#include <asm/tsc_jitter.h>

/*
 * The kernel's loop, out of line so that `objdump -d` finds it by name
 * (harness/measure/loop-check.sh compares it with the kernel's jtsc_spec_fill()).
 */
__attribute__((noinline)) void spec_fill(u8 *samples, unsigned int n, u8 *mem, u64 *walk)
{
	tsc_jitter_fill(samples, n, mem, walk);
}

static volatile u64 popcount_sink;

/*
 * NOT the kernel's loop: tsc_jitter_fill() with the buffer access taken
 * out, the popcount-only variant. The barrier has the kernel loop's reason.
 */
__attribute__((noinline)) void popcount_fill(u8 *samples, unsigned int n)
{
	u64 last = rdtsc(), now, chain = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		chain += __sw_hweight64(last);
		barrier();
		now = rdtsc();
		samples[i] = (u8)(now - last);
		last = now;
	}
	popcount_sink = chain;
}

/*
 * The walk's DRAM accesses: loads per 4 KiB page of the buffer over one
 * cycle of TSC_JITTER_LINES passes, counted with the header's own
 * tsc_jitter_line(), and what that makes per 64 ms for an aligned 8 KiB of
 * physical memory (two pages at most, wherever they sit) at this run's
 * rate and at one pass per 62.5 ns.
 */
static void dram_count(double ns_per_pass)
{
	unsigned long pages = TSC_JITTER_MEM_SIZE >> 12, lo = ~0UL, hi = 0, i;
	unsigned long *count = calloc(pages, sizeof(*count));

	if (!count)
		return;
	for (i = 0; i < TSC_JITTER_LINES; i++)
		count[tsc_jitter_line(i + TSC_JITTER_LINES) >> 6]++;
	for (i = 0; i < pages; i++) {
		lo = count[i] < lo ? count[i] : lo;
		hi = count[i] > hi ? count[i] : hi;
	}
	printf("dram_page_loads_per_cycle %lu %lu\n", lo, hi);
	printf("dram_8k_per_64ms %.0f\n", 2.0 * hi * 64e6 / ns_per_pass / TSC_JITTER_LINES);
	printf("dram_8k_per_64ms_at_62.5ns %.0f\n", 2.0 * hi * 64e6 / 62.5 / TSC_JITTER_LINES);
	free(count);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* AnonHugePages of this process, in KiB (the buffer is most of it) */
static long huge_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/smaps_rollup", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

int main(int argc, char **argv)
{
	unsigned long n = 1000000, chunk = 128, i, k;
	size_t align = 2UL << 20, size;
	int popcount = 0, huge = 0, c;
	u64 tsc0, tsc1;
	double t0, t1;
	u8 *samples, *mem = NULL;
	u64 walk = 0;
	FILE *f;

	while ((c = getopt(argc, argv, "n:c:w:")) != -1) {
		if (c == 'n')
			n = strtoul(optarg, NULL, 0);
		else if (c == 'c')
			chunk = strtoul(optarg, NULL, 0);
		else if (c == 'w' && !strcmp(optarg, "popcount"))
			popcount = 1;
		else if (c == 'w' && !strcmp(optarg, "buffer"))
			popcount = 0;
		else if (c == 'w' && !strcmp(optarg, "huge"))
			huge = 1;
		else
			goto usage;
	}
	if (optind != argc - 1 || !n || !chunk || chunk > 1UL << 30)
		goto usage;
	samples = malloc(n);
	if (!samples)
		return 1;
	if (!popcount) {
		size = (TSC_JITTER_MEM_SIZE + align - 1) / align * align;
		mem = aligned_alloc(align, size);
		if (!mem)
			return 1;
		madvise(mem, size, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
		memset(mem, 0, size);
	}
	/* The samples count from a new buffer's first pass, as in the kernel. */
	t0 = now_ns();
	tsc0 = rdtsc();
	for (i = 0; i < n; i += k) {
		k = n - i < chunk ? n - i : chunk;
		if (popcount)
			popcount_fill(samples + i, k);
		else
			spec_fill(samples + i, k, mem, &walk);
	}
	tsc1 = rdtsc();
	t1 = now_ns();
	f = fopen(argv[optind], "wb");
	if (!f || fwrite(samples, 1, n, f) != n || fclose(f)) {
		perror(argv[optind]);
		return 1;
	}
	printf("loop %s\n", popcount ? "popcount-only (not the kernel's)" : "tsc_jitter_fill");
	printf("buffer_bytes %lu\n", popcount ? 0UL : (unsigned long)TSC_JITTER_MEM_SIZE);
	printf("samples %lu\n", n);
	printf("chunk %lu\n", chunk);
	printf("ns_per_sample %.2f\n", (t1 - t0) / n);
	printf("ticks_per_sample %.1f\n", (double)(tsc1 - tsc0) / n);
	printf("huge_kib %ld\n", popcount ? 0L : huge_kib());
	if (!popcount)
		dram_count((t1 - t0) / n);
	free(mem);
	free(samples);
	return 0;
usage:
	fprintf(stderr, "usage: host-spec [-n SAMPLES] [-c CHUNK] [-w buffer|popcount|huge] FILE\n");
	return 2;
}
