/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for the kernel's <linux/mutex.h>, for crypto/jitter_tsc_internal.h and the core. */
#ifndef _JTSC_USER_LINUX_MUTEX_H
#define _JTSC_USER_LINUX_MUTEX_H

struct mutex { int unused; };

#endif
