/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampling loop of the speculative TSC jitter collector.
 *
 * Two back-to-back RDTSC reads are not serialized, so the out-of-order core
 * is free to start the second read while the first one, and the software
 * population count that depends on it, are still in flight. How far the two
 * reads drift apart depends on the state of the pipeline, the caches and the
 * branch predictors at that instant, and the low bits of their sum are what
 * is left of that drift. One raw sample is one of those bits; each sum
 * gives four, its bits 0 to 3.
 *
 * Why four: the sum does not advance by the same number of ticks from one
 * iteration to the next, and its low bits all follow that spread. Taking
 * more of them divides the counter reads per raw bit, which is what a
 * sample costs, most of all under an emulator. In twenty runs each on the
 * development host, the lowest SP 800-90B estimate per bit was 0.44 with
 * bit 0 alone, 0.42 with bits 0 and 1, 0.31 with bits 0 to 3 and 0.11 with
 * bits 0 to 7: per sum, four bits carry the most
 * (Documentation/crypto/jitter_tsc.rst).
 *
 * The loop lives in a header of its own, with no kernel dependencies other
 * than rdtsc() and __sw_hweight64(), so that the very same source can be
 * compiled into a user-space tool and measured on real silicon: the
 * measurements behind the entropy credit are taken from this code, not from
 * a copy of it. Such a tool defines u64, rdtsc() and __sw_hweight64() before
 * including this file.
 */
#ifndef _ASM_X86_TSC_JITTER_H
#define _ASM_X86_TSC_JITTER_H

#ifdef __KERNEL__
#include <linux/bitops.h>
#include <linux/types.h>
#include <asm/msr.h>
#endif

/* Raw samples (bits) in one word filled by tsc_jitter_word(). */
#define TSC_JITTER_BITS_PER_WORD	64
/* Raw samples taken from each sum of two counter reads: bits 0 to 3. */
#define TSC_JITTER_BITS_PER_SUM		4
#define TSC_JITTER_SUM_MASK		((1ULL << TSC_JITTER_BITS_PER_SUM) - 1)

/**
 * tsc_jitter_word() - Sample 64 raw bits of speculative TSC jitter
 *
 * Bits 4i to 4i + 3 of the result are bits 0 to 3 of
 * ``rdtsc() + __sw_hweight64(rdtsc())`` in iteration i, in that order. The
 * out-of-line software population count is deliberate: it puts a call and
 * a data-dependent chain of ALU operations between the two counter reads,
 * which is what the speculation races against. No bit is dropped or
 * combined here; folding and health testing are the caller's job.
 *
 * Context: Any context. Preemption and interrupts only add jitter.
 * Return: 64 raw samples, one per bit.
 */
static __always_inline u64 tsc_jitter_word(void)
{
	u64 word = 0;
	unsigned int i;

	for (i = 0; i < TSC_JITTER_BITS_PER_WORD; i += TSC_JITTER_BITS_PER_SUM) {
		u64 t = rdtsc() + __sw_hweight64(rdtsc());

		word |= (t & TSC_JITTER_SUM_MASK) << i;
	}
	return word;
}

#endif /* _ASM_X86_TSC_JITTER_H */
