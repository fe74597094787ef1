/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/wordpart.h>, for the jitter_tsc core
 * (crypto/jitter_tsc_core.c) in harness/measure: lower_32_bits() and upper_32_bits().
 */
#ifndef _JTSC_USER_LINUX_WORDPART_H
#define _JTSC_USER_LINUX_WORDPART_H

#define upper_32_bits(n)	((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n)	((u32)((n) & 0xffffffff))

#endif /* _JTSC_USER_LINUX_WORDPART_H */
