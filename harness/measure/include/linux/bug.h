/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for the kernel's <linux/bug.h>, for crypto/jitter_tsc_internal.h and the core. */
#ifndef _JTSC_USER_LINUX_BUG_H
#define _JTSC_USER_LINUX_BUG_H

#define WARN_ON_ONCE(x)	__builtin_expect(!!(x), 0)

#endif
