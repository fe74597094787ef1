/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for the kernel's <linux/string.h>: the C library's <string.h>. */
#ifndef _JTSC_USER_LINUX_STRING_H
#define _JTSC_USER_LINUX_STRING_H

#include <string.h>

#define memzero_explicit(p, n)	explicit_bzero((p), (n))

#endif /* _JTSC_USER_LINUX_STRING_H */
