/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tsc-jitter-user.h - what arch/x86/include/asm/tsc_jitter.h takes from
 * the kernel, for the user-space tools that compile it (host-spec,
 * health-host): include after defining u8 and u64, then include
 * <asm/tsc_jitter.h>. rdtsc_ordered() is what the kernel's alternatives
 * patch in: rdtscp where the CPU has it, else lfence; rdtsc
 * (X86_FEATURE_LFENCE_RDTSC); lib.sh builds with -DTSC_JITTER_RDTSCP where
 * /proc/cpuinfo lists rdtscp. __sw_hweight64() is the kernel's own
 * arch/x86/lib/hweight.S, assembled by lib.sh.
 */
#ifndef TSC_JITTER_USER_H
#define TSC_JITTER_USER_H

#include <x86intrin.h>

#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#ifndef BIT
#define BIT(n)			(1UL << (n))
#endif
#define barrier()		__asm__ __volatile__("" : : : "memory")
#define mb()			_mm_mfence()
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))

static inline u64 rdtsc(void)
{
	return __rdtsc();
}

static inline u64 rdtsc_ordered(void)
{
#ifdef TSC_JITTER_RDTSCP
	unsigned int aux;

	return __rdtscp(&aux);
#else
	unsigned int lo, hi;

	/* one asm, as the kernel's alternative: nothing between the two */
	__asm__ __volatile__("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((u64)hi << 32) | lo;
#endif
}

static inline void clflush(const volatile void *p)
{
	_mm_clflush((const void *)p);
}

extern unsigned long __sw_hweight64(u64 w);

#endif
