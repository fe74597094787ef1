/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/array_size.h>, for the jitter_tsc core
 * (crypto/jitter_tsc_core.c) in harness/measure: ARRAY_SIZE().
 */
#ifndef _JTSC_USER_LINUX_ARRAY_SIZE_H
#define _JTSC_USER_LINUX_ARRAY_SIZE_H

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif /* _JTSC_USER_LINUX_ARRAY_SIZE_H */
