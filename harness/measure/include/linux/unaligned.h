/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/unaligned.h>, for the jitter_tsc core
 * (crypto/jitter_tsc_core.c) in harness/measure: get_unaligned_le64(), on a little-endian host.
 */
#ifndef _JTSC_USER_LINUX_UNALIGNED_H
#define _JTSC_USER_LINUX_UNALIGNED_H

#include <string.h>
#include <linux/types.h>

static inline u64 get_unaligned_le64(const void *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#endif /* _JTSC_USER_LINUX_UNALIGNED_H */
