/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/bitrev.h>, for the jitter_tsc core
 * (crypto/jitter_tsc_core.c) in harness/measure: bitrev32().
 */
#ifndef _JTSC_USER_LINUX_BITREV_H
#define _JTSC_USER_LINUX_BITREV_H

#include <linux/types.h>

static inline u32 bitrev32(u32 x)
{
	u32 r = 0;
	int i;

	for (i = 0; i < 32; i++, x >>= 1)
		r = (r << 1) | (x & 1);
	return r;
}

#endif /* _JTSC_USER_LINUX_BITREV_H */
