/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for the kernel's <linux/workqueue.h>, for crypto/jitter_tsc_internal.h. */
#ifndef _JTSC_USER_LINUX_WORKQUEUE_H
#define _JTSC_USER_LINUX_WORKQUEUE_H

struct work_struct {
	int unused;
};

#endif
