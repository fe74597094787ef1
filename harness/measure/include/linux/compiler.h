/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/compiler.h>, for the jitter_tsc core
 * (crypto/jitter_tsc_core.c) in harness/measure: likely() and unlikely().
 */
#ifndef _JTSC_USER_LINUX_COMPILER_H
#define _JTSC_USER_LINUX_COMPILER_H

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#endif /* _JTSC_USER_LINUX_COMPILER_H */
