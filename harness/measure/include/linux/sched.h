/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for the kernel's <linux/sched.h>, for crypto/jitter_tsc_internal.h and the core. */
#ifndef _JTSC_USER_LINUX_SCHED_H
#define _JTSC_USER_LINUX_SCHED_H

static inline void cond_resched(void) { }

#endif
