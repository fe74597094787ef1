// SPDX-License-Identifier: GPL-2.0
/*
 * explore-loops - candidate sampling loops for the speculative collector,
 * NOT the kernel's loop (host-spec runs that one, from its header): each is
 * written out here so that candidates can be compared in one run on one CPU.
 * A sample is the low byte of the TSC's advance over one pass, as in the
 * kernel. Every loop opens a pass with the popcount of the last reading
 * and makes its access wait for it (the count >> 7 is 0, which the compiler
 * cannot know of the out-of-line __sw_hweight64()).
 *
 *   cached   the loop of e1de56c: load and increment one byte at a mixed
 *            offset, unordered closing rdtsc (times mostly cache hits)
 *   lfence   the same, the closing read after an lfence
 *   flush    load one line of a permutation walk (each line once per
 *            cycle), lfence, rdtsc, then CLFLUSH of the line just read
 *   ahead    the same, but CLFLUSH of the line the next pass loads, issued
 *            after the closing read (every load's line was flushed one pass
 *            before, from the first pass on)
 *
 * -f flushes the whole buffer once after zeroing it and takes the samples
 * from the first pass on (no passes dropped). Also counts, for -c, the accesses per 4 KiB page of the buffer over the
 * run (max and min), to show the walk's spread.
 *
 * usage: explore-loops -l LOOP -o ORDER [-n SAMPLES] [-c] [-f] FILE
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

typedef uint8_t u8;
typedef uint64_t u64;

#define barrier() __asm__ __volatile__("" : : : "memory")

extern unsigned long __sw_hweight64(u64 w);

static unsigned int order;
static u64 *page_count;

static inline u64 rdtsc_ordered(void)
{
	_mm_lfence();
	return __rdtsc();
}

static inline u64 mix_off(u64 pass, u64 chain)
{
	u64 z = (pass ^ chain) * 0x9e3779b97f4a7c15ULL;

	z ^= z >> 29;
	z *= 0xbf58476d1ce4e5b9ULL;
	return z >> (64 - order);
}

/* a bijection of the low (order - 6) bits: each line once per cycle */
static inline u64 perm_line(u64 pass)
{
	unsigned int k = order - 6;
	u64 m = (1ULL << k) - 1, x = (pass + (pass >> k) * 0x9e3779b97f4a7c15ULL) & m;

	x ^= x >> (k / 2 + 1);
	x = (x * 0xbf58476d1ce4e5b9ULL) & m;
	x ^= x >> (k / 2 + 1);
	x = (x * 0x94d049bb133111ebULL) & m;
	x ^= x >> (k / 2 + 1);
	return x;
}

__attribute__((noinline)) static void fill_cached(u8 *s, unsigned int n, u8 *mem, u64 *pass,
						  u64 *chain, int ordered)
{
	u64 last = __rdtsc(), now, c = *chain, at = *pass;
	unsigned long off;
	unsigned int i;

	for (i = 0; i < n; i++) {
		off = mix_off(at++, c);
		off += __sw_hweight64(last) >> 7;
		off &= (1UL << order) - 1;
		c += mem[off];
		mem[off]++;
		barrier();
		now = ordered ? rdtsc_ordered() : __rdtsc();
		s[i] = (u8)(now - last);
		last = now;
	}
	*pass = at;
	*chain = c;
}

__attribute__((noinline)) static void fill_flush(u8 *s, unsigned int n, u8 *mem, u64 *pass, int ahead)
{
	u64 last = __rdtsc(), now, at = *pass;
	const volatile u8 *p;
	unsigned int i;

	for (i = 0; i < n; i++) {
		p = mem + ((perm_line(at) << 6) + (__sw_hweight64(last) >> 7));
		at++;
		(void)*p;
		now = rdtsc_ordered();
		_mm_clflush(ahead ? mem + (perm_line(at) << 6) : (const void *)p);
		s[i] = (u8)(now - last);
		last = now;
	}
	*pass = at;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long n = 1000000, chunk = 512, i, k, size;
	u64 pass = 0, chain = 0, tsc0, tsc1, pmax = 0, pmin = ~0ULL;
	const char *loop = "flush";
	int count = 0, clean = 0, c, kind;
	double t0, t1;
	u8 *samples, *mem;
	FILE *f;

	order = 21;
	while ((c = getopt(argc, argv, "l:o:n:cf")) != -1) {
		if (c == 'l')
			loop = optarg;
		else if (c == 'o')
			order = strtoul(optarg, NULL, 0);
		else if (c == 'n')
			n = strtoul(optarg, NULL, 0);
		else if (c == 'c')
			count = 1;
		else if (c == 'f')
			clean = 1;
		else
			goto usage;
	}
	kind = !strcmp(loop, "cached") ? 0 : !strcmp(loop, "lfence") ? 1 :
	       !strcmp(loop, "flush") ? 2 : !strcmp(loop, "ahead") ? 3 : -1;
	if (optind != argc - 1 || kind < 0 || order < 12 || order > 30 || !n)
		goto usage;
	size = 1UL << order;
	samples = malloc(n);
	mem = aligned_alloc(4096, size);
	if (!samples || !mem)
		return 1;
	memset(mem, 0, size);	/* real pages, not the shared zero page */
	if (clean) {	/* -f: every line written back and clean */
		for (i = 0; i < size; i += 64)
			_mm_clflush(mem + i);
		_mm_mfence();
	}
	for (i = 0; i < (clean ? 0 : 200); i++) {	/* caches, TLB, clock; not the buffer's cycle */
		if (kind < 2)
			fill_cached(samples, chunk, mem, &pass, &chain, kind);
		else
			fill_flush(samples, chunk, mem, &pass, kind == 3);
	}
	t0 = now_ns();
	tsc0 = __rdtsc();
	for (i = 0; i < n; i += k) {
		k = n - i < chunk ? n - i : chunk;
		if (kind < 2)
			fill_cached(samples + i, k, mem, &pass, &chain, kind);
		else
			fill_flush(samples + i, k, mem, &pass, kind == 3);
	}
	tsc1 = __rdtsc();
	t1 = now_ns();
	if (count && kind >= 2) {
		page_count = calloc(size >> 12, sizeof(*page_count));
		if (!page_count)
			return 1;
		for (i = 0; i < n; i++)
			page_count[perm_line(i) >> 6]++;
		for (i = 0; i < size >> 12; i++) {
			pmax = page_count[i] > pmax ? page_count[i] : pmax;
			pmin = page_count[i] < pmin ? page_count[i] : pmin;
		}
		printf("page_accesses_max %llu\npage_accesses_min %llu\n",
		       (unsigned long long)pmax, (unsigned long long)pmin);
	}
	f = fopen(argv[optind], "wb");
	if (!f || fwrite(samples, 1, n, f) != n || fclose(f))
		return 1;
	printf("loop %s\nbuffer_bytes %lu\nsamples %lu\n", loop, size, n);
	printf("ns_per_sample %.2f\nticks_per_sample %.1f\n", (t1 - t0) / n, (double)(tsc1 - tsc0) / n);
	return 0;
usage:
	fprintf(stderr, "usage: explore-loops -l cached|lfence|flush|ahead -o ORDER [-n N] [-c] [-f] FILE\n");
	return 2;
}
