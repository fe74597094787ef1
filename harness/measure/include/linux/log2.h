/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/log2.h> (and the fls()/fls64()
 * it brings from <linux/bitops.h>), on the compiler's bit-scan builtins.
 */
#ifndef _JTSC_USER_LINUX_LOG2_H
#define _JTSC_USER_LINUX_LOG2_H

#include <linux/types.h>

/* 1-based position of the most significant set bit, 0 for 0 */
static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

#define ilog2(n)		(fls64(n) - 1)

#endif /* _JTSC_USER_LINUX_LOG2_H */
