/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for the kernel's <linux/atomic.h>, for crypto/jitter_tsc_internal.h and the core. */
#ifndef _JTSC_USER_LINUX_ATOMIC_H
#define _JTSC_USER_LINUX_ATOMIC_H

typedef struct { int counter; } atomic_t;
typedef struct { long long counter; } atomic64_t;

#endif
