/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampling loop of the speculative TSC jitter collector, named after
 * Thomas Gleixner's "x86/random: Speculation to the rescue", whose loop
 * it grew out of. Speculation is not what the entropy comes from.
 *
 * One raw sample is the low byte of the TSC's advance over one pass, and
 * nothing else: never the counter, the popcount or the loaded byte, which
 * are functions of earlier readings. A pass loads one line of a buffer
 * that was flushed from the caches a pass before, so each pass times an
 * access to DRAM: how long it takes depends on the memory controller,
 * open rows, refresh, the other cores' traffic, TLB walks and interrupts
 * at that instant. A walk that leaves lines cached times cache hits
 * instead, whose variation the walk itself largely fixes. Where the loop
 * goes is a function of the pass number alone, so the cache sets and rows
 * it touches tell an observer nothing of the samples. How much entropy a
 * pass holds is estimated on the machine that runs it, never assumed.
 *
 * The loop is a header of its own so that a user-space tool can compile
 * this very source and measure it; such a tool defines u8, u64, BIT(),
 * READ_ONCE(), rdtsc_ordered(), clflush() and __sw_hweight64() first.
 */
#ifndef _ASM_X86_TSC_JITTER_H
#define _ASM_X86_TSC_JITTER_H

#ifdef __KERNEL__
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include <asm/msr.h>
#include <asm/special_insns.h>
#endif

/*
 * The buffer: 2^TSC_JITTER_MEM_ORDER bytes, walked one 64-byte line per
 * pass, each line once per cycle of TSC_JITTER_LINES passes. Every pass
 * loads a line flushed from the caches one pass before, so that what it
 * times is an access to DRAM, and so it activates a DRAM row: the size
 * bounds how often any row is activated. An aligned 8 KiB of physical
 * memory holds at most two of the buffer's 4 KiB pages, each loaded 64
 * times per cycle, so it sees 128 accesses per 2^17 passes: at most
 * 1000 per 64 ms refresh window while a pass takes 62.5 ns or more (a
 * pass holds a load from DRAM), whatever the number of instances.
 */
#define TSC_JITTER_MEM_ORDER	23
#define TSC_JITTER_MEM_SIZE	BIT(TSC_JITTER_MEM_ORDER)
#define TSC_JITTER_LINE_BITS	(TSC_JITTER_MEM_ORDER - 6)
#define TSC_JITTER_LINES	BIT(TSC_JITTER_LINE_BITS)

/**
 * struct tsc_jitter_walk - Where the walk of a buffer stands
 * @pass: passes made over the buffer since it was allocated
 */
struct tsc_jitter_walk {
	u64 pass;
};

/*
 * tsc_jitter_line() - The line that pass @pass loads
 *
 * A bijection of the pass number modulo TSC_JITTER_LINES (an offset by the
 * cycle number, then xorshift and odd-multiply rounds, each invertible
 * modulo a power of two), so every line is loaded exactly once per cycle,
 * in an order no stride prefetcher follows and that differs per cycle. It
 * depends on the pass number alone, never on a TSC reading.
 */
static __always_inline unsigned long tsc_jitter_line(u64 pass)
{
	const u64 mask = TSC_JITTER_LINES - 1;
	const unsigned int shift = TSC_JITTER_LINE_BITS / 2 + 1;
	u64 x = (pass + (pass >> TSC_JITTER_LINE_BITS) * 0x9e3779b97f4a7c15ULL) & mask;

	x ^= x >> shift;
	x = (x * 0xbf58476d1ce4e5b9ULL) & mask;
	x ^= x >> shift;
	x = (x * 0x94d049bb133111ebULL) & mask;
	x ^= x >> shift;
	return x;
}

/**
 * tsc_jitter_fill() - Take raw samples of TSC jitter over DRAM accesses
 * @samples: where to store them, one per byte
 * @n: number of samples
 * @mem: a buffer of TSC_JITTER_MEM_SIZE bytes backed by pages of its own
 *	(not the shared zero page), owned by the caller; only loaded from
 * @walk: where the walk of @mem stands, zeroed when @mem was allocated;
 *	advanced by @n passes
 *
 * Sample i is the low byte of the TSC's advance from the read of pass i to
 * the read of pass i + 1. A pass loads its line, then reads the TSC after
 * the load has completed (rdtsc_ordered()), then flushes the line the next
 * pass loads. The load's address adds the popcount of the last reading
 * shifted right by 7, which is 0 but unknown to the compiler for an
 * out-of-line call, so the load cannot start before that reading. Every
 * load thus finds its line flushed, from a buffer's first pass on: no pass
 * depends on what earlier ones left in the caches.
 *
 * Context: Any context. The caller keeps the loop on one CPU (a delta
 * between two CPUs' TSCs is not a sample); interrupts and preemption may
 * come in, and lengthen the pass they land in.
 */
static __always_inline void tsc_jitter_fill(u8 *samples, unsigned int n, u8 *mem,
					    struct tsc_jitter_walk *walk)
{
	u64 last, now, at = walk->pass;
	unsigned long line = tsc_jitter_line(at);
	const u8 *p;
	unsigned int i;

	clflush(mem + (line << 6));
	last = rdtsc_ordered();
	for (i = 0; i < n; i++) {
		p = mem + (line << 6);
		p += __sw_hweight64(last) >> 7;
		(void)READ_ONCE(*p);
		now = rdtsc_ordered();
		line = tsc_jitter_line(++at);
		clflush(mem + (line << 6));
		samples[i] = (u8)(now - last);
		last = now;
	}
	walk->pass = at;
}

#endif /* _ASM_X86_TSC_JITTER_H */
