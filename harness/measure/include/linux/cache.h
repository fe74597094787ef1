/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for the kernel's <linux/cache.h>, for crypto/jitter_tsc_internal.h. */
#ifndef _JTSC_USER_LINUX_CACHE_H
#define _JTSC_USER_LINUX_CACHE_H

#define ____cacheline_aligned	__attribute__((__aligned__(64)))

#endif
