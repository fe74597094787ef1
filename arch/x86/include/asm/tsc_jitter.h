/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampling loop of the speculative TSC jitter collector, named after
 * Thomas Gleixner's "x86/random: Speculation to the rescue"; speculation is
 * not what the entropy comes from. One raw sample is the low byte of the
 * TSC's advance over one pass, and nothing else. A pass loads a line
 * flushed two passes before: it times a DRAM access (controller, open rows,
 * refresh, other cores, TLB walks, interrupts). Where the loop goes depends
 * on the pass number alone, so the rows it touches reveal nothing of the
 * samples. Used by crypto/jitter_tsc_kcapi.c alone, kept with the x86 code
 * whose instructions it orders; user space compiles it to measure it.
 */
#ifndef _ASM_X86_TSC_JITTER_H
#define _ASM_X86_TSC_JITTER_H

#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include <asm/barrier.h>
#include <asm/msr.h>
#include <asm/special_insns.h>

/*
 * One 64-byte line a pass, each once per TSC_JITTER_LINES passes: an 8 KiB
 * DRAM row opens at most 128 times per 2^17 passes, under 1000 times per
 * 64 ms (Rowhammer) while a pass takes 62.5 ns or more.
 */
#define TSC_JITTER_MEM_ORDER	23
#define TSC_JITTER_MEM_SIZE	BIT(TSC_JITTER_MEM_ORDER)
#define TSC_JITTER_LINE_SHIFT	6
#define TSC_JITTER_LINE_BITS	(TSC_JITTER_MEM_ORDER - TSC_JITTER_LINE_SHIFT)
#define TSC_JITTER_LINES	BIT(TSC_JITTER_LINE_BITS)

/*
 * The line pass @pass loads: a bijection modulo TSC_JITTER_LINES keyed by
 * the cycle, in an order no stride prefetcher follows.
 */
static __always_inline unsigned int tsc_jitter_line(u64 pass)
{
	const u64 mask = TSC_JITTER_LINES - 1;
	const unsigned int shift = TSC_JITTER_LINE_BITS / 2 + 1;
	u64 x = (pass * 0x9e3779b97f4a7c15ULL) & mask;

	x ^= ((pass >> TSC_JITTER_LINE_BITS) * 0xd6e8feb86659fd93ULL) & mask;
	x ^= x >> shift;
	x = (x * 0xbf58476d1ce4e5b9ULL) & mask;
	x ^= x >> shift;
	x = (x * 0x94d049bb133111ebULL) & mask;
	x ^= x >> shift;
	return x;
}

/* The address of the line that pass @pass loads. */
static __always_inline u8 *tsc_jitter_addr(u8 *mem, u64 pass)
{
	return mem + ((unsigned long)tsc_jitter_line(pass) << TSC_JITTER_LINE_SHIFT);
}

/**
 * tsc_jitter_fill() - Take raw samples of TSC jitter over DRAM accesses
 * @samples: where to store them, one per byte
 * @n: number of samples
 * @mem: a buffer of TSC_JITTER_MEM_SIZE bytes backed by pages of its own
 *	(not the zero page), owned by the caller; only loaded from
 * @pass: passes made over @mem since it was allocated; advanced by @n
 *
 * A pass loads its line, reads the TSC once the load completed
 * (rdtsc_ordered(), the barrier keeping the load before it), then flushes
 * the line of the pass after next: CLFLUSH is not ordered with later
 * loads, so a whole ordered pass lies between. The address adds the
 * popcount of the last reading shifted right by 7, 0 but unknown to the
 * compiler, so the load cannot start before that reading.
 *
 * Context: Any context; the caller keeps the loop on one CPU.
 */
static __always_inline void tsc_jitter_fill(u8 *samples, unsigned int n, u8 *mem,
					    u64 *pass)
{
	u64 last, now, at = *pass;
	const u8 *p;
	unsigned int i;

	/* A call's first line is flushed before its first interval... */
	clflush(tsc_jitter_addr(mem, at));
	/* ...and only MFENCE orders CLFLUSH before the load of that line. */
	mb();
	last = rdtsc_ordered();
	clflush(tsc_jitter_addr(mem, at + 1));
	for (i = 0; i < n; i++) {
		p = tsc_jitter_addr(mem, at);
		p += __sw_hweight64(last) >> 7;
		(void)READ_ONCE(*p);
		barrier();
		now = rdtsc_ordered();
		clflush(tsc_jitter_addr(mem, at + 2));
		samples[i] = (u8)(now - last);
		last = now;
		at++;
	}
	*pass = at;
}

#endif /* _ASM_X86_TSC_JITTER_H */
