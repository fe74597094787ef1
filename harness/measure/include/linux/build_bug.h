/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/build_bug.h>, for the jitter_tsc core
 * (crypto/jitter_tsc_core.c) in harness/measure: static_assert().
 */
#ifndef _JTSC_USER_LINUX_BUILD_BUG_H
#define _JTSC_USER_LINUX_BUILD_BUG_H

#include <assert.h>

#endif /* _JTSC_USER_LINUX_BUILD_BUG_H */
