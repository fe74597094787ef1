/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampling loop of the speculative TSC jitter collector.
 *
 * What is measured is time: one raw sample is the low byte of the TSC's
 * advance over one pass of the loop below, nothing else. Each pass reads
 * the TSC once and then runs a short workload that depends on that
 * reading: a software population count of it, and a read-modify-write of
 * one byte of an 8 MiB buffer, at an offset hashed
 * from the reading and from the bytes loaded so far. RDTSC is not
 * serializing, so the next read can issue while the count and the load
 * are still in flight; how far it runs ahead depends on the state of the
 * pipeline, the caches, the TLBs and the memory controller at that
 * instant, and that is the jitter. The popcount chain is Thomas
 * Gleixner's original idea; the buffer access is what makes the time vary
 * enough to be worth crediting: with the popcount alone, a loaded host
 * gave well under 0.01 bit per pass (Documentation/crypto/jitter_tsc.rst
 * has the figures of every variant measured).
 *
 * The sample is only the time. It is never mixed with the counter value,
 * the popcount or the loaded byte, which are deterministic functions of
 * earlier readings and would make the stream look random to every
 * estimator and health test without adding entropy.
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
 * a CPU whose last-level cache holds it, a pass varies less (a quarter
 * of the entropy per sample on a 32 MiB L3), and the credit is that CPU's.
 */
#define TSC_JITTER_MEM_ORDER	23
#define TSC_JITTER_MEM_SIZE	BIT(TSC_JITTER_MEM_ORDER)

/*
 * tsc_jitter_offset() - Where the next pass touches the buffer
 *
 * A multiplicative hash of the last reading and of the chain, taken from
 * its top bits: every bit of both moves the offset.
 */
static __always_inline unsigned long tsc_jitter_offset(u64 reading, u64 chain)
{
	return ((reading ^ chain) * 0x9e3779b97f4a7c15ULL) >> (64 - TSC_JITTER_MEM_ORDER);
}

/**
 * tsc_jitter_fill() - Take raw samples of speculative TSC jitter
 * @samples: where to store them, one per byte
 * @n: number of samples
 * @mem: a buffer of TSC_JITTER_MEM_SIZE bytes, owned by the caller
 *
 * Sample i is the low byte of the TSC's advance from the read of pass i to
 * the read of pass i + 1. Written as separate statements on purpose: the
 * count takes the last reading as its argument and the offset takes the
 * count, so neither can start before that read; the loaded byte feeds the
 * chain, so each access waits for the one before; and the compiler barrier
 * keeps the next read after all of it in program order (the popcount is an
 * out-of-line call and rdtsc() is an asm without a memory clobber, so
 * without it the compiler may put both reads next to each other, as gcc
 * 12 does). In which order the CPU then executes them is the jitter.
 *
 * Context: Any context. Preemption and interrupts only add jitter.
 */
static __always_inline void tsc_jitter_fill(u8 *samples, unsigned int n, u8 *mem)
{
	u64 last = rdtsc(), now, chain = 0;
	unsigned long off;
	unsigned int i;

	for (i = 0; i < n; i++) {
		chain += __sw_hweight64(last);
		off = tsc_jitter_offset(last, chain);
		chain += mem[off];
		mem[off]++;
		barrier();
		now = rdtsc();
		samples[i] = (u8)(now - last);
		last = now;
	}
}

#endif /* _ASM_X86_TSC_JITTER_H */
