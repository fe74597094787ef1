/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/bitops.h>, for the jitter_tsc core
 * (crypto/jitter_tsc_core.c) in harness/measure: __ffs64().
 */
#ifndef _JTSC_USER_LINUX_BITOPS_H
#define _JTSC_USER_LINUX_BITOPS_H

#include <linux/bits.h>

#define __ffs64(x)	((unsigned int)__builtin_ctzll(x))

#endif /* _JTSC_USER_LINUX_BITOPS_H */
