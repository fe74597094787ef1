/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for the kernel's <linux/errno.h>, for crypto/jitter_tsc_internal.h and the core. */
#ifndef _JTSC_USER_LINUX_ERRNO_H
#define _JTSC_USER_LINUX_ERRNO_H

#include <asm-generic/errno.h>

#endif
