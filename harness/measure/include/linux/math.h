/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/math.h>, for the jitter_tsc core
 * (crypto/jitter_tsc_core.c) in harness/measure: DIV_ROUND_UP().
 */
#ifndef _JTSC_USER_LINUX_MATH_H
#define _JTSC_USER_LINUX_MATH_H

#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

#endif /* _JTSC_USER_LINUX_MATH_H */
