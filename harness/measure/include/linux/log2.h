/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/log2.h> (and the fls()/fls64()
 * it brings from <linux/bitops.h>), on the compiler's bit-scan builtins.
 */
#ifndef _JTSC_USER_LINUX_LOG2_H
#define _JTSC_USER_LINUX_LOG2_H

#include <linux/bitops.h>

/* 1-based position of the most significant set bit, 0 for 0 */
#define ilog2(n)		(fls64(n) - 1)

#endif /* _JTSC_USER_LINUX_LOG2_H */
