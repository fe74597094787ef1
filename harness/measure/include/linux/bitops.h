/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/bitops.h>, for the jitter_tsc core
 * (crypto/jitter_tsc_core.c) in harness/measure: __ffs64(), fls() and fls64().
 */
#ifndef _JTSC_USER_LINUX_BITOPS_H
#define _JTSC_USER_LINUX_BITOPS_H

#include <linux/bits.h>
#include <linux/types.h>

#define __ffs64(x)	((unsigned int)__builtin_ctzll(x))

static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

#endif /* _JTSC_USER_LINUX_BITOPS_H */
