/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampling loop of the speculative TSC jitter collector, named after
 * Thomas Gleixner's "x86/random: Speculation to the rescue", whose loop
 * it grew out of. Speculation is not what the entropy comes from.
 *
 * What is measured is time: one raw sample is the low byte of the TSC's
 * advance over one pass of the loop below, nothing else. Each pass counts
 * the bits of the last TSC reading (the popcount of Thomas's loop), loads
 * and increments one byte of an 8 MiB buffer, and reads the TSC again.
 * How long a pass takes depends on the state of the machine at that
 * instant: where the access is served from (the cache level, whether its
 * TLB entry is there), what the memory controller and the other cores
 * are doing, where interrupts and the pipeline stand. That is the jitter.
 * How much of it there is, and from which part, differs between CPUs and
 * loads, and the popcount alone gives little (the measurements are in
 * Documentation/crypto/jitter_tsc.rst). None of it is taken on trust: the
 * credit is estimated on the machine that runs the loop.
 *
 * The sample is only the time. It is never mixed with the counter value,
 * the popcount or the loaded byte, which are deterministic functions of
 * earlier readings and would make the stream look random to every
 * estimator and health test without adding entropy.
 *
 * Nor does where the loop goes depend on what it measures: the buffer is
 * walked at positions that are a fixed function of the pass number and
 * of the bytes loaded by the passes before, which are themselves a
 * function of the walk alone (the buffer starts zeroed and only this loop
 * writes it). Which cache sets the loop touches, and in what order,
 * therefore tells a co-tenant probing the caches nothing about the
 * samples; only when the accesses happen does, as it does for any timing
 * source. The positions are a 64-bit mix of the pass number, so that no
 * stride prefetcher can follow the walk and each access misses as far out
 * as the buffer's size makes it.
 *
 * The loop lives in a header of its own, with no kernel dependencies other
 * than rdtsc(), __sw_hweight64(), barrier() and BIT(), so that the very
 * same source can be compiled into a user-space tool and measured on real
 * silicon: the measurements behind the entropy credit are taken from this
 * code, not from a copy of it. Such a tool defines those and u8 and u64
 * before including this file.
 */
#ifndef _ASM_X86_TSC_JITTER_H
#define _ASM_X86_TSC_JITTER_H

#ifdef __KERNEL__
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include <asm/msr.h>
#endif

/*
 * The buffer: 2^TSC_JITTER_MEM_ORDER bytes. Chosen by measurement: larger
 * buffers miss further out in the cache hierarchy and vary more per pass,
 * at a higher cost per pass; the rst has the table behind the choice. On
 * a CPU whose last-level cache holds it, a pass varies less, and the
 * credit is that CPU's.
 */
#define TSC_JITTER_MEM_ORDER	23
#define TSC_JITTER_MEM_SIZE	BIT(TSC_JITTER_MEM_ORDER)

/*
 * Passes to make over a new buffer before its samples are used: as many as
 * it has 64-byte lines. The first passes over a buffer vary several times
 * more than later ones (the rst's Measurements), and a startup test's
 * estimate must be of the samples that are credited after it.
 */
#define TSC_JITTER_WARMUP_PASSES	BIT(TSC_JITTER_MEM_ORDER - 6)

/**
 * struct tsc_jitter_walk - Where the walk of a buffer stands
 * @pass: passes made over the buffer since it was allocated
 * @chain: the sum of the bytes those passes loaded
 *
 * Both are functions of the number of passes alone: the walk does not
 * depend on how the passes were split into calls.
 */
struct tsc_jitter_walk {
	u64 pass;
	u64 chain;
};

/*
 * tsc_jitter_offset() - Where pass @pass touches the buffer
 *
 * A 64-bit mix (two multiply-xorshift rounds) of the pass number and of
 * the sum of the bytes loaded by the passes before, taken from its top
 * bits. Neither depends on a TSC reading.
 */
static __always_inline unsigned long tsc_jitter_offset(u64 pass, u64 chain)
{
	u64 z = (pass ^ chain) * 0x9e3779b97f4a7c15ULL;

	z ^= z >> 29;
	z *= 0xbf58476d1ce4e5b9ULL;
	return z >> (64 - TSC_JITTER_MEM_ORDER);
}

/**
 * tsc_jitter_fill() - Take raw samples of TSC jitter over memory accesses
 * @samples: where to store them, one per byte
 * @n: number of samples
 * @mem: a buffer of TSC_JITTER_MEM_SIZE bytes, zeroed when it was
 *	allocated and written by this loop alone since, owned by the caller
 * @walk: where the walk of @mem stands, zeroed with it; advanced by @n
 *	passes
 *
 * Sample i is the low byte of the TSC's advance from the read of pass i to
 * the read of pass i + 1. Written as separate statements on purpose. The
 * count takes the last reading as its argument, and the access waits for
 * the count: a population count of 64 bits is at most 64, so shifting it
 * right by 7 gives 0, which is added to the offset. The compiler cannot
 * know that of an out-of-line call, so the access cannot start before the
 * count has returned, nor the count before the read, while the offset
 * itself depends on neither. The loaded byte feeds the chain, so each
 * access also waits for the one before. The compiler barrier keeps the
 * next read after all of it in program order (rdtsc() is an asm without
 * a memory clobber, so without it the compiler may put both reads next
 * to each other, as gcc 12 does). How long the CPU then takes over them
 * is the jitter.
 *
 * Context: Any context. The caller keeps the loop on one CPU (a delta
 * between two CPUs' TSCs is not a sample); interrupts and preemption may
 * come in, and lengthen the pass they land in.
 */
static __always_inline void tsc_jitter_fill(u8 *samples, unsigned int n, u8 *mem,
					    struct tsc_jitter_walk *walk)
{
	u64 last = rdtsc(), now, chain = walk->chain, at = walk->pass;
	unsigned long off;
	unsigned int i;

	for (i = 0; i < n; i++) {
		off = tsc_jitter_offset(at++, chain);
		off += __sw_hweight64(last) >> 7;
		off &= TSC_JITTER_MEM_SIZE - 1;
		chain += mem[off];
		mem[off]++;
		barrier();
		now = rdtsc();
		samples[i] = (u8)(now - last);
		last = now;
	}
	walk->pass = at;
	walk->chain = chain;
}

#endif /* _ASM_X86_TSC_JITTER_H */
